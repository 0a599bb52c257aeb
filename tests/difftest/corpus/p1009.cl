// lanecl-difftest program, seed 1009
//@ native-options -cl-std=CL3.0
//@ args 6 4 1790066643 1
//@ cfg 2 12 5 6 5
//@ cfg 2 21 2 7 1
#define NIN_MASK 16383u
#define LSZ ((uint)(get_local_size(0) * get_local_size(1)))
#define LID ((uint)(get_local_id(1) * get_local_size(0) + get_local_id(0)))
#define GLIN ((uint)(get_global_id(1) * get_global_size(0) + get_global_id(0)))
#ifdef DIFFTEST_CONST_OSTRIDE
#define OSTRIDE 12u
#else
#define OSTRIDE ostride
#endif
#define STORE() do { \
  out[GLIN * OSTRIDE + 0u] = v0; \
  out[GLIN * OSTRIDE + 1u] = v1; \
  out[GLIN * OSTRIDE + 2u] = v2; \
  out[GLIN * OSTRIDE + 3u] = v3; \
  out[GLIN * OSTRIDE + 4u] = v4; \
  out[GLIN * OSTRIDE + 5u] = v5; \
  out[GLIN * OSTRIDE + 6u] = u0; \
  out[GLIN * OSTRIDE + 7u] = u1; \
  out[GLIN * OSTRIDE + 8u] = u2; \
  out[GLIN * OSTRIDE + 9u] = u3; \
  out[GLIN * OSTRIDE + 10u] = pa[0] + pa[1] * 3u + pa[2] * 5u + pa[3] * 7u + pa[4] * 11u + pa[5] * 13u + pa[6] * 17u + pa[7] * 19u; \
  out[GLIN * OSTRIDE + 11u] = w0.x ^ (w0.y * 3u) ^ (w0.z * 5u) ^ (w0.w * 7u); \
} while (0)

// the global index of the work-item of this group with local linear id l
uint gslot(uint l)
{
  uint lx = l % (uint)get_local_size(0), ly = l / (uint)get_local_size(0);
  return ((uint)get_group_id(1) * (uint)get_local_size(1) + ly) * (uint)get_global_size(0)
         + (uint)get_group_id(0) * (uint)get_local_size(0) + lx;
}

#ifdef DIFFTEST_EMULATE_WG
ulong dt_wg(__local ulong *s, ulong x, int op, int incl)
{
  /* op: 0 add, 1 min, 2 max, 3 add of ulong; incl: 0 reduce, 1 inclusive scan, 2 exclusive scan */
  barrier(CLK_LOCAL_MEM_FENCE);
  s[LID] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint end = incl == 0 ? LSZ : incl == 1 ? LID + 1u : LID;
  ulong r = op == 1 ? 0xffffffffu : 0u;
  for (uint i = 0u; i < end; i++) {
    ulong y = s[i];
    r = op == 1 ? min(r, y) : op == 2 ? max(r, y) : r + y;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return op == 3 ? r : (uint)r;
}
ulong dt_wg_bcast(__local ulong *s, ulong x, uint l)
{
  barrier(CLK_LOCAL_MEM_FENCE);
  s[LID] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong r = s[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
#define WG_REDUCE_ADD(x) ((uint)dt_wg(WG, (uint)(x), 0, 0))
#define WG_REDUCE_MIN(x) ((uint)dt_wg(WG, (uint)(x), 1, 0))
#define WG_REDUCE_MAX(x) ((uint)dt_wg(WG, (uint)(x), 2, 0))
#define WG_REDUCE_ADD_UL(x) dt_wg(WG, (x), 3, 0)
#define WG_SCAN_INCLUSIVE_ADD(x) ((uint)dt_wg(WG, (uint)(x), 0, 1))
#define WG_SCAN_INCLUSIVE_MIN(x) ((uint)dt_wg(WG, (uint)(x), 1, 1))
#define WG_SCAN_INCLUSIVE_MAX(x) ((uint)dt_wg(WG, (uint)(x), 2, 1))
#define WG_SCAN_EXCLUSIVE_ADD(x) ((uint)dt_wg(WG, (uint)(x), 0, 2))
#define WG_SCAN_EXCLUSIVE_MIN(x) ((uint)dt_wg(WG, (uint)(x), 1, 2))
#define WG_SCAN_EXCLUSIVE_MAX(x) ((uint)dt_wg(WG, (uint)(x), 2, 2))
#define WG_BROADCAST(x, ...) ((uint)dt_wg_bcast(WG, (uint)(x), dt_lin(__VA_ARGS__, 0, 0)))
#define dt_lin(lx, ly, ...) ((uint)(ly) * (uint)get_local_size(0) + (uint)(lx))
#define WG_ALL(c) (dt_wg(WG, (c) ? 1u : 0u, 1, 0) != 0u)
#define WG_ANY(c) (dt_wg(WG, (c) ? 1u : 0u, 2, 0) != 0u)
#else
#define WG_REDUCE_ADD work_group_reduce_add
#define WG_REDUCE_MIN work_group_reduce_min
#define WG_REDUCE_MAX work_group_reduce_max
#define WG_REDUCE_ADD_UL work_group_reduce_add
#define WG_SCAN_INCLUSIVE_ADD work_group_scan_inclusive_add
#define WG_SCAN_INCLUSIVE_MIN work_group_scan_inclusive_min
#define WG_SCAN_INCLUSIVE_MAX work_group_scan_inclusive_max
#define WG_SCAN_EXCLUSIVE_ADD work_group_scan_exclusive_add
#define WG_SCAN_EXCLUSIVE_MIN work_group_scan_exclusive_min
#define WG_SCAN_EXCLUSIVE_MAX work_group_scan_exclusive_max
#define WG_BROADCAST work_group_broadcast
#define WG_ALL work_group_all
#define WG_ANY work_group_any
#endif

#ifdef DIFFTEST_NO_RESTRICT
#define RESTRICT
#else
#define RESTRICT restrict
#endif
__kernel void k(__global uint *RESTRICT out, __global const uint *RESTRICT in,
                __global uint *cnt, __global uint *scratch, uint ostride,
                uint stride, uint n, uint p0, uint p1)
{
#ifdef DIFFTEST_EMULATE_WG
  __local ulong WG[128];
#endif
  __local uint L[128];
  __local uint LC[4];
  uint v0 = GLIN, v1 = in[GLIN & NIN_MASK], v2 = LID, v3 = (uint)get_global_id(0) * stride;
  uint v4 = (uint)get_local_id(0) ^ p0, v5 = in[((uint)get_global_id(0) * stride) & NIN_MASK];
  uint u0 = p0, u1 = (uint)get_group_id(0) * 7u + p1, u2 = n, u3 = LSZ;
  uint pa[8];
  for (uint j = 0u; j < 8u; j++) pa[j] = in[(GLIN * 8u + j) & NIN_MASK] ^ j;
  uint4 w0 = (uint4)(v0, v1, p1, 5u);
  L[LID] = v1;
  barrier(CLK_LOCAL_MEM_FENCE);
  v4 ^= (mul_hi(in[(uint)get_global_id(0) * stride], in[in[GLIN] & NIN_MASK]) ^ (((uint)get_global_id(1)) & 1u ? (in[(((rotate(((uint)get_local_size(1) ^ 192u), 7u)) & 1u ? (uint)get_group_id(0) : (add_sat((uint)get_local_size(1), in[((uint)(uchar)(popcount((uint)get_local_size(1)))) & NIN_MASK]) << (u2 & 31u)))) & NIN_MASK] << (in[(((in[in[GLIN] & NIN_MASK] >> ((uint)get_local_id(1) & 31u)) >> (add_sat(v4, (uint)get_global_id(1)) & 31u))) & NIN_MASK] & 31u)) : abs_diff(v4, (uint)get_global_id(1))));
  u2 = rotate(LSZ, (uint)get_group_id(1));
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] = (uint)(((ulong)(uint)get_local_id(1) * (ulong)pa[(((pa[((uint)(uchar)(v5)) & 7u] << (in[(u3) & NIN_MASK] & 31u)) << (in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] & 31u))) & 7u]) >> 29);
  barrier(CLK_LOCAL_MEM_FENCE);
  v1 = L[LID];
  v4 += L[(LID ^ 1u) < LSZ ? (LID ^ 1u) : LID];
  if (hadd(LSZ, LSZ) < (uint)get_local_size(0)) {
    barrier(CLK_LOCAL_MEM_FENCE);
    L[LID] = (uint)(((ulong)in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] * (ulong)in[in[GLIN] & NIN_MASK]) >> 29);
    barrier(CLK_LOCAL_MEM_FENCE);
    v5 += L[LID];
    v3 += L[LID];
    v5 = L[(LID + LSZ / 2u) % LSZ];
    barrier(CLK_LOCAL_MEM_FENCE);
    L[LID] += v5;
    barrier(CLK_LOCAL_MEM_FENCE);
    v0 ^= L[(LID + 1u) % LSZ];
    barrier(CLK_LOCAL_MEM_FENCE);
    L[LID] = ((LID >> ((uint)get_local_id(0) & 31u)) % (0xa9fb3cdau | 1u));
    barrier(CLK_LOCAL_MEM_FENCE);
    v5 += L[LID];
    v3 = L[(LID + 3u) % LSZ];
    u2 += WG_REDUCE_MAX((uint)((int)(uint)(short)(v5) >> (pa[(LID) & 7u] & 31u)));
    if ((uint)get_local_size(0) > 0x7fffffffu) {
      pa[((uint)get_local_id(1)) & 7u] += (uint)((int)in[((uint)get_local_id(0)) & NIN_MASK] >> ((uint)(uchar)(in[((v1 + (uint)(short)(pa[(clz((uint)get_local_id(0))) & 7u]))) & NIN_MASK]) & 31u));
      pa[(in[((mul_hi((uint)get_global_id(1), in[((u2 >> ((uint)get_group_id(1) & 31u))) & NIN_MASK]) & rotate(pa[((uint)(v3 == LID)) & 7u], GLIN))) & NIN_MASK]) & 7u] = 4294967294u;
    } else {
      v2 = (in[in[GLIN] & NIN_MASK] << ((uint)get_local_size(0) & 31u));
      u3 = WG_REDUCE_ADD(rotate(mul_hi(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], in[in[GLIN] & NIN_MASK]), ((uint)get_local_id(1) ^ v0)));
      v0 += (uint)(WG_REDUCE_ADD_UL((ulong)(popcount(in[in[GLIN] & NIN_MASK])) << 20) >> 7);
    }
    v3 |= ((uint)get_local_id(0) >> (max(popcount((uint)get_global_id(0)), in[in[GLIN] & NIN_MASK]) & 31u));
    atomic_and(&cnt[12u + ((v0) & 1u)], ((((v0) & 1u ? v4 : v2)) & 1u ? (uint)(v1 == v3) : pa[(pa[((uint)get_global_id(0)) & 7u]) & 7u]));
  } else {
    atomic_or(&cnt[4u + ((((((uint)get_global_id(0)) & 1u ? in[(uint)get_global_id(0) * stride] : (uint)get_local_id(0)) | in[(in[in[GLIN] & NIN_MASK]) & NIN_MASK])) & 1u)], pa[((clz(LSZ) / (pa[(in[(uint)get_global_id(0) * stride]) & 7u] | 1u))) & 7u]);
    barrier(CLK_LOCAL_MEM_FENCE);
    L[LID] = (uint)((in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] + v3) < (uint)((int)v0 < (int)pa[(v4) & 7u]));
    barrier(CLK_LOCAL_MEM_FENCE);
    v3 = L[((v2 / (v0 | 1u))) % LSZ];
    v1 += L[0];
    v3 = L[(LID + LSZ / 2u) % LSZ];
    barrier(CLK_LOCAL_MEM_FENCE);
    L[LID] += v3;
    barrier(CLK_LOCAL_MEM_FENCE);
    v3 ^= L[(LID + 1u) % LSZ];
  }
  v0 -= (uint)(short)(LID);
  u0 += (u1 % (stride | 1u));
  u1 ^= max((uint)get_group_id(0), 4294967292u);
  v4 = in[((u0 & add_sat((uint)(uchar)(LSZ), ((uint)get_num_groups(0) % ((uint)get_group_id(0) | 1u))))) & NIN_MASK];
  v1 ^= (v2 >> (pa[(pa[(rotate(in[(mul_hi(hadd(v1, LID), (GLIN << (v3 & 31u)))) & NIN_MASK], v1)) & 7u]) & 7u] & 31u));
  STORE();
}

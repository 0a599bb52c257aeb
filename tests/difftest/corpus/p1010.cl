// lanecl-difftest program, seed 1010
//@ native-options -cl-std=CL3.0
//@ args 5 36 660974953 13
//@ cfg 2 5 9 5 3
//@ cfg 2 15 9 5 3
//@ cfg 2 21 1 7 1
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
  u2 += (uint)WG_ALL(((v4) % 3u == 0u));
  v5 += (uint)(WG_REDUCE_ADD_UL((ulong)(max(((LSZ) & 1u ? LID : in[in[GLIN] & NIN_MASK]), (uint)((uint)get_local_id(0) == (uint)get_local_id(0)))) << 20) >> 7);
  u1 = WG_BROADCAST((uint)get_num_groups(0), (size_t)((min(6u, (n ^ (uint)get_group_id(1)))) % (uint)get_local_size(0)), (size_t)(((abs_diff(4294967292u, in[((LSZ & mul_hi(max(1u, (uint)get_num_groups(1)), u1))) & NIN_MASK]) / ((uint)(u1 < (uint)get_group_id(1)) | 1u))) % (uint)get_local_size(1)));
  v3 += (uint)(WG_REDUCE_ADD_UL((ulong)(abs_diff((uint)((uint)get_global_id(0) == in[in[GLIN] & NIN_MASK]), u3)) << 20) >> 7);
  v5 -= (((uint)get_global_id(0) - (in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] % (in[(uint)get_global_id(0) * stride] | 1u))) + pa[(pa[(rotate(GLIN, hadd(in[(clz(in[(uint)get_global_id(0) * stride])) & NIN_MASK], in[in[GLIN] & NIN_MASK]))) & 7u]) & 7u]);
  u0 += WG_BROADCAST(rotate((in[in[GLIN] & NIN_MASK] - v3), in[(uint)get_global_id(0) * stride + 50u]), (size_t)((u0) % (uint)get_local_size(0)), (size_t)((4294967294u) % (uint)get_local_size(1)));
  pa[(mul_hi(u0, (uint)(v5 == v5))) & 7u] += v3;
  barrier(CLK_LOCAL_MEM_FENCE);
  if ((max(in[(((min((uint)get_local_size(0), p1) * (u0 % (LSZ | 1u))) & ((uint)get_num_groups(0) | ((uint)get_local_size(0) % (0xc17046eau | 1u))))) & NIN_MASK], (uint)get_local_id(0)) & in[in[GLIN] & NIN_MASK]) < (uint)((float)(((uint)get_global_id(1)) & 0xffffu) + (float)((mul_hi(LSZ, pa[(add_sat(v2, pa[(101u) & 7u])) & 7u])) & 0xffu) * 2.0f))
    L[LID] = abs_diff(v2, (uint)get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  v3 += L[LID];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (add_sat(hadd((uint)get_local_id(1), (uint)get_local_id(0)), (uint)get_local_size(0)) < ((uint)((uint)get_local_size(0) < v1) + v4))
    L[LID] = in[((uint)(uchar)((uint)get_global_id(0))) & NIN_MASK];
  barrier(CLK_LOCAL_MEM_FENCE);
  v5 += L[LID];
  v2 += L[(LID + 4u) % LSZ];
  v3 = L[(LID + LSZ / 2u) % LSZ];
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] += v3;
  barrier(CLK_LOCAL_MEM_FENCE);
  v4 ^= L[(LID + 1u) % LSZ];
  u1 ^= in[((uint)(((ulong)(uint)(((ulong)(uint)get_num_groups(1) * (ulong)(u0 >> (u2 & 31u))) >> 29) * (ulong)u3) >> 29)) & NIN_MASK];
  if ((((uint)get_local_size(0) / (u3 | 1u)) + (in[((u1 * 7u)) & NIN_MASK] * (uint)get_local_size(0))) < in[(((uint)(((ulong)stride * (ulong)LSZ) >> 29) >> ((((uint)get_num_groups(0) << (u2 & 31u)) | in[((uint)(mul_hi(mul_hi((uint)get_local_size(1), LSZ), hadd(u1, u2)) < (uint)get_num_groups(1))) & NIN_MASK]) & 31u))) & NIN_MASK]) {
    v0 += (((uint)((float)((((in[in[GLIN] & NIN_MASK]) & 1u ? (uint)get_local_id(1) : v4)) & 0xffffu) + (float)((rotate((uint)get_group_id(0), (uint)get_local_id(1))) & 0xffu) * 2.0f)) & 1u ? (uint)((float)(((v3 % (v3 | 1u))) & 0xffffu) + (float)(((uint)get_global_id(0)) & 0xffu) * 2.0f) : v0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] = (uint)((float)(((uint)get_local_id(1)) & 0xffffu) + (float)((v1) & 0xffu) * 2.0f);
  barrier(CLK_LOCAL_MEM_FENCE);
  v2 = L[(in[(mul_hi((uint)(((ulong)v1 * (ulong)in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) >> 29), p1)) & NIN_MASK]) % LSZ];
  u1 |= (((uint)(n < (uint)get_num_groups(0)) & (uint)get_num_groups(1)) - u3);
  v5 |= rotate(LSZ, clz(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]));
  v5 ^= in[((uint)(short)(abs_diff((uint)get_group_id(0), (uint)(((ulong)(uint)get_num_groups(1) * (ulong)(uint)get_local_size(1)) >> 29)))) & NIN_MASK];
  if ((((v2 + pa[(v5) & 7u]) >> (v3 & 31u))) & 1u) {
    v2 |= (rotate(v3, GLIN) | ((uint)get_num_groups(1) * in[in[GLIN] & NIN_MASK]));
    v5 += (uint)((int)v3 < (int)clz((in[in[GLIN] & NIN_MASK] << ((uint)get_global_id(0) & 31u))));
  }
  if (((clz((uint)get_group_id(1)) % ((u2 % (u2 | 1u)) | 1u))) % 3u == 0u) {
  }
  STORE();
}

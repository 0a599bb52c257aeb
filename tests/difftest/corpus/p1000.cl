// lanecl-difftest program, seed 1000
//@ native-options -cl-std=CL3.0
//@ args 2 43 3019933303 0
//@ cfg 2 32 2 16 2
//@ cfg 2 18 10 6 5
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
  v5 ^= ((uint)get_global_id(1) % (((in[(uint)get_global_id(0) * stride + 6u] * v5) - pa[(abs_diff(in[in[GLIN] & NIN_MASK], mul_hi(v4, in[(uint)get_global_id(0) * stride]))) & 7u]) | 1u));
  v3 = (rotate(((w0.x) & 1u ? in[in[GLIN] & NIN_MASK] : w0.s3), u0) - (uint)(((ulong)v3 * (ulong)in[in[GLIN] & NIN_MASK]) >> 29));
  v2 |= in[in[GLIN] & NIN_MASK];
  pa[(clz(rotate(205u, pa[((uint)(pa[((in[(uint)get_global_id(0) * stride] >> (v3 & 31u))) & 7u] == v2)) & 7u]))) & 7u] = (((uint)((int)u2 < (int)v5)) & 1u ? in[(min(min(LSZ, u2), (uint)get_local_size(1))) & NIN_MASK] : v4);
  v5 ^= (uint)(((ulong)popcount(in[((uint)(pa[(v4) & 7u] < v2)) & NIN_MASK]) * (ulong)(uint)get_local_id(1)) >> 29);
  u3 ^= rotate((uint)((int)0x917bb991u >> ((uint)get_local_size(0) & 31u)), (uint)((float)(((n % ((uint)get_group_id(1) | 1u))) & 0xffffu) + (float)((4294967293u) & 0xffu) * 2.0f));
  v1 ^= (uint)get_local_size(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] = in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  v5 = L[(LID ^ 1u) < LSZ ? (LID ^ 1u) : LID];
  v3 = L[LSZ - 1u - LID];
  w0 = rotate(w0, (uint4)((LID | u3))) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (LID == 0u) LC[1] = u1;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_or(&LC[1], v1);
  barrier(CLK_LOCAL_MEM_FENCE);
  u1 += LC[1];
  for (uint i0 = 0u; i0 < 3u; i0++) {
    if (abs_diff(add_sat(in[((uint)(n == 123u)) & NIN_MASK], (uint)get_num_groups(1)), u1) < in[(stride) & NIN_MASK]) {
      STORE();
      return;
    }
    uint i1 = 0u;
    while (i1 < (uint)get_local_id(0) % 5u) {
      i1++;
      v4 ^= ((add_sat(in[i0 * stride + (uint)get_global_id(0)], (uint)get_local_id(1)) + v5) + abs_diff((in[in[GLIN] & NIN_MASK] - in[in[GLIN] & NIN_MASK]), (uint)(((ulong)p0 * (ulong)GLIN) >> 29)));
      w0 = w0 * (uint4)(((uint)((uint)get_local_id(1) < v0) | clz(i0))) + vload4(((uint)get_global_id(0)) & (NIN_MASK >> 2), in);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if ((v3) % 3u == 0u)
      L[LID] = LSZ;
    barrier(CLK_LOCAL_MEM_FENCE);
    v3 = L[LSZ - 1u - LID];
    v5 += L[LSZ - 1u - LID];
    if ((i0) & 1u) break;
  }
  v4 += (uint)((int)(uint)get_local_id(1) < (int)w0.x);
  pa[((uint)get_group_id(1)) & 7u] = (LID * min(n, (uint)get_local_id(0)));
  v2 |= add_sat(((uint)((float)((u3) & 0xffffu) + (float)((in[(uint)get_global_id(0) * stride + 14u]) & 0xffu) * 2.0f) & in[(v3) & NIN_MASK]), (min(pa[((uint)(short)((uint)(pa[(v3) & 7u] == (uint)get_global_id(0)))) & 7u], in[(uint)get_global_id(0) * stride]) ^ (uint)get_global_id(1)));
  uint i2 = 0u;
  while (i2 < (GLIN & 3u) + 1u) {
    i2++;
    if (i2 < (v5 << (((uint)get_global_id(1) ^ pa[(add_sat((pa[((LID * (uint)get_global_id(0))) & 7u] ^ 53u), mul_hi(4u, in[((uint)get_global_id(0)) & NIN_MASK]))) & 7u]) & 31u))) {
    }
  }
  STORE();
}

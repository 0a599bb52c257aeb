// lanecl-difftest program, seed 1016
//@ native-options -cl-std=CL3.0
//@ args 1 1 3586518147 10
//@ cfg 1 96 1 32 1
//@ cfg 1 42 1 7 1
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

uint h0(uint a, uint b)
{
  uint r = (uint)((int)a < (int)(uint)((int)a >> (b & 31u)));
  return r ^ (((uint)((int)b < (int)a) * b));
}

uint h1(uint a, uint b)
{
  uint r = (uint)(uchar)(a);
  return r ^ (abs_diff(2u, 6u));
}

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
  v2 = (((uint)get_global_id(0) | abs_diff((uint)get_local_size(0), v0)) ^ pa[((uint)(v2 < (uint)get_local_id(0))) & 7u]);
  v5 = WG_SCAN_INCLUSIVE_ADD(v3);
  v1 += (uint)(WG_REDUCE_ADD_UL((ulong)((uint)get_num_groups(0)) << 20) >> 7);
  u1 = min(u1, (uint)(u3 == (uint)((int)in[(u3) & NIN_MASK] >> (0xaa7982bfu & 31u))));
  u3 = (((uint)(((ulong)(uint)get_group_id(0) * (ulong)p0) >> 29) & u3) * u0);
  v2 = (hadd((in[((w0.y * abs_diff(v2, v3))) & NIN_MASK] - (uint)get_local_id(0)), v0) | (uint)((int)pa[(mul_hi(clz(GLIN), (uint)get_global_id(0))) & 7u] >> (w0.z & 31u)));
  w0 = w0.wzyx ^ (uint4)(v1, LID, v4, 26u);
  v4 ^= WG_SCAN_EXCLUSIVE_MAX(v1);
  v4 += (uint)(WG_REDUCE_ADD_UL((ulong)((((uint)get_num_groups(0)) & 1u ? (in[(LID) & NIN_MASK] / (LID | 1u)) : (uint)get_local_id(0))) << 20) >> 7);
  u2 += WG_REDUCE_MIN((uint)((int)w0.z < (int)v3));
  v5 += (uint)(WG_REDUCE_ADD_UL((ulong)(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) << 20) >> 7);
  pa[((uint)get_local_id(0)) & 7u] = popcount(7u);
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] = in[(popcount(v5)) & NIN_MASK];
  barrier(CLK_LOCAL_MEM_FENCE);
  v1 += L[(LID + 2u) % LSZ];
  v5 = L[(LID + LSZ / 2u) % LSZ];
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] += v5;
  barrier(CLK_LOCAL_MEM_FENCE);
  v4 ^= L[(LID + 1u) % LSZ];
  v2 = WG_SCAN_INCLUSIVE_MIN(mul_hi(v5, v3));
  v4 += (uint)(WG_REDUCE_ADD_UL((ulong)((uint)(short)(in[((uint)((int)((uint)get_local_size(0) * 0x477090a1u) >> (LSZ & 31u))) & NIN_MASK])) << 20) >> 7);
  w0 = w0.wzyx ^ (uint4)(v2, u3, v4, 67u);
  pa[(LID) & 7u] += mul_hi(v5, add_sat(v3, pa[((uint)get_global_id(0)) & 7u]));
  pa[((uint)(uchar)((v5 << (pa[(mul_hi((uint)get_global_id(0), (uint)(LID < v1))) & 7u] & 31u)))) & 7u] = (uint)((int)(w0.z ^ in[in[GLIN] & NIN_MASK]) < (int)0xe1fe145fu);
  if (in[((in[(((uint)get_num_groups(0) - (((stride) & 1u ? u2 : u3) << (in[(popcount((u2 ^ popcount(4294967295u)))) & NIN_MASK] & 31u)))) & NIN_MASK] * (uint)(u0 == hadd(u2, (uint)get_local_size(0))))) & NIN_MASK] < (uint)(((ulong)u0 * (ulong)min(u0, LSZ)) >> 29)) {
    uint i0 = 0u;
    while (i0 < (uint)get_local_id(0) % 5u) {
      i0++;
      v0 = (h0(in[((uint)(in[(v5) & NIN_MASK] == (v2 % ((uint)get_local_id(0) | 1u)))) & NIN_MASK], (in[(u0) & NIN_MASK] >> (v3 & 31u))) << ((u3 / (w0.w | 1u)) & 31u));
    }
  }
  STORE();
}

// lanecl-difftest program, seed 1018
//@ native-options -cl-std=CL3.0
//@ args 8 42 3009158953 14
//@ cfg 1 21 1 7 1
//@ cfg 1 34 1 17 1
//@ cfg 1 62 1 31 1
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
  uint v0 = GLIN, v1 = in[GLIN & NIN_MASK], v2 = LID, v3 = (uint)get_global_id(0) * stride;
  uint v4 = (uint)get_local_id(0) ^ p0, v5 = in[((uint)get_global_id(0) * stride) & NIN_MASK];
  uint u0 = p0, u1 = (uint)get_group_id(0) * 7u + p1, u2 = n, u3 = LSZ;
  uint pa[8];
  for (uint j = 0u; j < 8u; j++) pa[j] = in[(GLIN * 8u + j) & NIN_MASK] ^ j;
  uint4 w0 = (uint4)(v0, v1, p1, 5u);
  v2 = WG_SCAN_INCLUSIVE_ADD(v2);
  v4 -= ((v1) & 1u ? mul_hi((uint)(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] == v3), v5) : popcount(min(u3, pa[(v3) & 7u])));
  v0 = (uint)(v3 < v1);
  if ((in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) & 1u) {
    v4 ^= v4;
    v2 += (rotate(u2, v5) - LID);
    v4 += (in[((uint)(((ulong)(uint)get_group_id(0) * (ulong)((uint)get_num_groups(0) + v3)) >> 29)) & NIN_MASK] | v1);
    if (in[(uint)get_global_id(0) * stride + 22u] > 0x7fffffffu) {
      v0 = (v2 << ((uint)get_local_id(0) & 31u));
      if ((((uint)(v2 < in[(uint)get_global_id(0) * stride + 56u]) % (pa[((uint)(((ulong)hadd(pa[(p0) & 7u], in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) * (ulong)in[(uint)get_global_id(0) * stride + 14u]) >> 29)) & 7u] | 1u))) & 1u) {
        v3 -= hadd((uint)(clz((uint)get_global_id(0)) < in[(uint)get_global_id(0) * stride + 23u]), (stride / (((uint)get_global_id(0) + in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) | 1u)));
      }
    } else {
#ifndef DIFFTEST_NO_SWITCH
      switch ((v4) % 6u) {
      case 0u: {
          v2 = (uint)((int)LID >> (v3 & 31u));
      }
      case 1u: {
          v0 = (uint)(uchar)(hadd((uint)get_local_size(0), (uint)((int)w0.z < (int)(uint)get_global_id(0))));
      }
        break;
      case 2u: {
          v5 = (uint)(short)(in[(uint)get_global_id(0) * stride + 38u]);
      }
        break;
      default: {
          v2 |= v1;
      }
        break;
      }
#else
      {
        uint sw0 = (v4) % 6u;
        if (sw0 == 0u) {
        {
          v2 = (uint)((int)LID >> (v3 & 31u));
        }
        {
          v0 = (uint)(uchar)(hadd((uint)get_local_size(0), (uint)((int)w0.z < (int)(uint)get_global_id(0))));
        }
        } else if (sw0 == 1u) {
        {
          v0 = (uint)(uchar)(hadd((uint)get_local_size(0), (uint)((int)w0.z < (int)(uint)get_global_id(0))));
        }
        } else if (sw0 == 2u) {
        {
          v5 = (uint)(short)(in[(uint)get_global_id(0) * stride + 38u]);
        }
        } else {
        {
          v2 |= v1;
        }
        }
      }
#endif
    }
  }
  v4 = (max(in[(popcount((uint)(in[(mul_hi((uint)get_num_groups(0), u1)) & NIN_MASK] < w0.s1))) & NIN_MASK], v3) - v5);
  w0 = w0 * (uint4)((uint)get_local_id(0)) + vload4((v0) & (NIN_MASK >> 2), in);
  w0.s13 = w0.s02 + (uint2)((uint)get_local_id(0), v2);
  for (uint i1 = 0u; i1 < (((uint)get_group_id(0)) & 3u) + 1u; i1++) {
    v1 |= hadd(v5, popcount(u0));
  }
  STORE();
}

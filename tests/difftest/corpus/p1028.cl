// lanecl-difftest program, seed 1028
//@ native-options -cl-std=CL3.0
//@ args 6 46 4058712976 10
//@ cfg 1 32 1 16 1
//@ cfg 1 155 1 31 1
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
  uint r = min((uint)(short)(4294967293u), ((b) & 1u ? (uint)(short)(220u) : popcount(4294967294u)));
  return r ^ ((0x6db9f150u * 0xa66685e3u));
}

uint h1(uint a, uint b)
{
  uint r = 229u;
  return r ^ (b);
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
  barrier(CLK_LOCAL_MEM_FENCE);
  if ((v3) & 4u)
    L[LID] = LSZ;
  barrier(CLK_LOCAL_MEM_FENCE);
  v4 += L[(LID + 3u) % LSZ];
  v3 += L[(LID ^ 1u) < LSZ ? (LID ^ 1u) : LID];
  pa[(abs_diff((uint)get_local_id(0), hadd(v3, in[in[GLIN] & NIN_MASK]))) & 7u] += (LSZ % (v2 | 1u));
  for (uint i0 = 0u; i0 < 6u; i0++) {
    v5 |= max((v3 << (in[in[GLIN] & NIN_MASK] & 31u)), (uint)((int)(v0 >> (v1 & 31u)) >> ((uint)get_global_id(0) & 31u)));
    u2 = (uint)get_group_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (LID == 0u) LC[1] = u3;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (min(pa[((v2 | (uint)get_local_size(0))) & 7u], in[i0 * stride + (uint)get_global_id(0)]) < (in[(i0) & NIN_MASK] - v0))
      atomic_or(&LC[1], ((uint)(((ulong)(uint)get_local_id(0) * (ulong)p0) >> 29) & (uint)((int)pa[(v3) & 7u] >> (in[(uint)get_global_id(0) * stride + 23u] & 31u))));
    barrier(CLK_LOCAL_MEM_FENCE);
    u1 += LC[1];
    u3 ^= ((((uint)(((ulong)(uint)get_group_id(0) * (ulong)LSZ) >> 29)) & 1u ? u2 : u0) - (u0 >> (136u & 31u)));
    v1 -= ((GLIN / (((uint)get_local_size(0) + in[(i0) & NIN_MASK]) | 1u)) ^ (u2 * in[((uint)get_local_id(0)) & NIN_MASK]));
  }
#ifndef DIFFTEST_NO_SWITCH
  switch ((clz(v1)) % 6u) {
  case 0u: {
      pa[((GLIN | u2)) & 7u] = (uint)((int)v1 >> (v5 & 31u));
  }
  case 1u: {
      v2 = (add_sat(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], in[in[GLIN] & NIN_MASK]) << (v0 & 31u));
  }
    break;
  case 3u: {
      v3 = (in[(((uint)(short)(in[(LID) & NIN_MASK]) & in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)])) & NIN_MASK] % (v4 | 1u));
  }
    break;
  default: {
      v5 ^= hadd(((in[in[GLIN] & NIN_MASK] + in[(uint)get_global_id(0) * stride]) + v0), (v4 % (((v1) & 1u ? v4 : (uint)get_group_id(0)) | 1u)));
  }
    break;
  }
#else
  {
    uint sw1 = (clz(v1)) % 6u;
    if (sw1 == 0u) {
    {
      pa[((GLIN | u2)) & 7u] = (uint)((int)v1 >> (v5 & 31u));
    }
    {
      v2 = (add_sat(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], in[in[GLIN] & NIN_MASK]) << (v0 & 31u));
    }
    } else if (sw1 == 1u) {
    {
      v2 = (add_sat(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], in[in[GLIN] & NIN_MASK]) << (v0 & 31u));
    }
    } else if (sw1 == 3u) {
    {
      v3 = (in[(((uint)(short)(in[(LID) & NIN_MASK]) & in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)])) & NIN_MASK] % (v4 | 1u));
    }
    } else {
    {
      v5 ^= hadd(((in[in[GLIN] & NIN_MASK] + in[(uint)get_global_id(0) * stride]) + v0), (v4 % (((v1) & 1u ? v4 : (uint)get_group_id(0)) | 1u)));
    }
    }
  }
#endif
  if (clz((((uint)get_group_id(0)) & 1u ? n : (uint)get_group_id(0))) < (uint)get_group_id(0)) {
    v4 += ((((popcount(pa[(in[in[GLIN] & NIN_MASK]) & 7u])) & 1u ? u3 : hadd(u0, v3))) & 1u ? ((v5) & 1u ? (uint)get_group_id(0) : LID) : (uint)(v2 < GLIN));
    v1 |= (uint)((int)v1 >> (hadd(in[((uint)get_local_id(0)) & NIN_MASK], (uint)(short)(in[((GLIN / ((uint)get_group_id(0) | 1u))) & NIN_MASK])) & 31u));
  }
  v2 ^= (max(abs_diff(v3, in[((uint)get_group_id(0)) & NIN_MASK]), rotate(pa[(pa[((uint)get_local_id(0)) & 7u]) & 7u], (uint)get_local_id(0))) ^ (v4 << ((uint)get_global_id(0) & 31u)));
  v2 = rotate((v1 & 4294967294u), (v4 | u0));
  v5 = (uint)(short)((uint)get_global_id(0));
  if (((v3 - add_sat((uint)get_local_id(0), GLIN))) & 1u) {
    STORE();
    return;
  }
  v0 |= h1((uint)get_global_id(0), (uint)get_global_id(0));
  STORE();
}

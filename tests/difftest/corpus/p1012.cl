// lanecl-difftest program, seed 1012
//@ native-options -cl-std=CL3.0
//@ args 2 0 160137056 11
//@ cfg 1 6 1 3 1
//@ cfg 1 155 1 31 1
//@ cfg 1 186 1 31 1
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
  uint r = rotate(0xeea1b6e2u, min(popcount(0x24ff2135u), (100u % (b | 1u))));
  if ((a ^ b) & 1u) r = abs_diff((88u / (a | 1u)), a);
  return r ^ (22u);
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
#ifndef DIFFTEST_NO_SWITCH
  switch ((u3) % 6u) {
  case 0u: {
      pa[(pa[(in[((uint)get_num_groups(0)) & NIN_MASK]) & 7u]) & 7u] += min(w0.w, u2);
  }
  case 1u: {
      v4 -= (uint)(hadd(4294967294u, in[in[GLIN] & NIN_MASK]) == (uint)get_local_id(0));
  }
  case 2u: {
#ifndef DIFFTEST_NO_SWITCH
      switch (((uint)get_local_id(0)) % 6u) {
      case 0u: {
          w0.s13 = w0.s02 + (uint2)(in[(uint)get_global_id(0) * stride], v3);
      }
        break;
      case 1u: {
          w0 = select(w0, w0 + (uint4)(v0), w0 > (uint4)(LID));
      }
        break;
      case 2u: {
          pa[((uint)(short)(w0.z)) & 7u] += (v3 << (in[((((uint)get_num_groups(0)) & 1u ? (uint)get_num_groups(0) : ((u1) & 1u ? u0 : (uint)get_num_groups(0)))) & NIN_MASK] & 31u));
      }
      case 3u: {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
      }
      default: {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
      }
        break;
      }
#else
      {
        uint sw0 = ((uint)get_local_id(0)) % 6u;
        if (sw0 == 0u) {
        {
          w0.s13 = w0.s02 + (uint2)(in[(uint)get_global_id(0) * stride], v3);
        }
        } else if (sw0 == 1u) {
        {
          w0 = select(w0, w0 + (uint4)(v0), w0 > (uint4)(LID));
        }
        } else if (sw0 == 2u) {
        {
          pa[((uint)(short)(w0.z)) & 7u] += (v3 << (in[((((uint)get_num_groups(0)) & 1u ? (uint)get_num_groups(0) : ((u1) & 1u ? u0 : (uint)get_num_groups(0)))) & NIN_MASK] & 31u));
        }
        {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
        }
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        } else if (sw0 == 3u) {
        {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
        }
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        } else {
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        }
      }
#endif
  }
    break;
  case 3u: {
      v5 -= (w0.s2 & (v0 / (u0 | 1u)));
  }
  default: {
      w0 = w0 * (uint4)((w0.s3 << (v5 & 31u))) + vload4(((v0 + v5)) & (NIN_MASK >> 2), in);
  }
    break;
  }
#else
  {
    uint sw1 = (u3) % 6u;
    if (sw1 == 0u) {
    {
      pa[(pa[(in[((uint)get_num_groups(0)) & NIN_MASK]) & 7u]) & 7u] += min(w0.w, u2);
    }
    {
      v4 -= (uint)(hadd(4294967294u, in[in[GLIN] & NIN_MASK]) == (uint)get_local_id(0));
    }
    {
#ifndef DIFFTEST_NO_SWITCH
      switch (((uint)get_local_id(0)) % 6u) {
      case 0u: {
          w0.s13 = w0.s02 + (uint2)(in[(uint)get_global_id(0) * stride], v3);
      }
        break;
      case 1u: {
          w0 = select(w0, w0 + (uint4)(v0), w0 > (uint4)(LID));
      }
        break;
      case 2u: {
          pa[((uint)(short)(w0.z)) & 7u] += (v3 << (in[((((uint)get_num_groups(0)) & 1u ? (uint)get_num_groups(0) : ((u1) & 1u ? u0 : (uint)get_num_groups(0)))) & NIN_MASK] & 31u));
      }
      case 3u: {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
      }
      default: {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
      }
        break;
      }
#else
      {
        uint sw0 = ((uint)get_local_id(0)) % 6u;
        if (sw0 == 0u) {
        {
          w0.s13 = w0.s02 + (uint2)(in[(uint)get_global_id(0) * stride], v3);
        }
        } else if (sw0 == 1u) {
        {
          w0 = select(w0, w0 + (uint4)(v0), w0 > (uint4)(LID));
        }
        } else if (sw0 == 2u) {
        {
          pa[((uint)(short)(w0.z)) & 7u] += (v3 << (in[((((uint)get_num_groups(0)) & 1u ? (uint)get_num_groups(0) : ((u1) & 1u ? u0 : (uint)get_num_groups(0)))) & NIN_MASK] & 31u));
        }
        {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
        }
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        } else if (sw0 == 3u) {
        {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
        }
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        } else {
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        }
      }
#endif
    }
    } else if (sw1 == 1u) {
    {
      v4 -= (uint)(hadd(4294967294u, in[in[GLIN] & NIN_MASK]) == (uint)get_local_id(0));
    }
    {
#ifndef DIFFTEST_NO_SWITCH
      switch (((uint)get_local_id(0)) % 6u) {
      case 0u: {
          w0.s13 = w0.s02 + (uint2)(in[(uint)get_global_id(0) * stride], v3);
      }
        break;
      case 1u: {
          w0 = select(w0, w0 + (uint4)(v0), w0 > (uint4)(LID));
      }
        break;
      case 2u: {
          pa[((uint)(short)(w0.z)) & 7u] += (v3 << (in[((((uint)get_num_groups(0)) & 1u ? (uint)get_num_groups(0) : ((u1) & 1u ? u0 : (uint)get_num_groups(0)))) & NIN_MASK] & 31u));
      }
      case 3u: {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
      }
      default: {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
      }
        break;
      }
#else
      {
        uint sw0 = ((uint)get_local_id(0)) % 6u;
        if (sw0 == 0u) {
        {
          w0.s13 = w0.s02 + (uint2)(in[(uint)get_global_id(0) * stride], v3);
        }
        } else if (sw0 == 1u) {
        {
          w0 = select(w0, w0 + (uint4)(v0), w0 > (uint4)(LID));
        }
        } else if (sw0 == 2u) {
        {
          pa[((uint)(short)(w0.z)) & 7u] += (v3 << (in[((((uint)get_num_groups(0)) & 1u ? (uint)get_num_groups(0) : ((u1) & 1u ? u0 : (uint)get_num_groups(0)))) & NIN_MASK] & 31u));
        }
        {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
        }
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        } else if (sw0 == 3u) {
        {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
        }
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        } else {
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        }
      }
#endif
    }
    } else if (sw1 == 2u) {
    {
#ifndef DIFFTEST_NO_SWITCH
      switch (((uint)get_local_id(0)) % 6u) {
      case 0u: {
          w0.s13 = w0.s02 + (uint2)(in[(uint)get_global_id(0) * stride], v3);
      }
        break;
      case 1u: {
          w0 = select(w0, w0 + (uint4)(v0), w0 > (uint4)(LID));
      }
        break;
      case 2u: {
          pa[((uint)(short)(w0.z)) & 7u] += (v3 << (in[((((uint)get_num_groups(0)) & 1u ? (uint)get_num_groups(0) : ((u1) & 1u ? u0 : (uint)get_num_groups(0)))) & NIN_MASK] & 31u));
      }
      case 3u: {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
      }
      default: {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
      }
        break;
      }
#else
      {
        uint sw0 = ((uint)get_local_id(0)) % 6u;
        if (sw0 == 0u) {
        {
          w0.s13 = w0.s02 + (uint2)(in[(uint)get_global_id(0) * stride], v3);
        }
        } else if (sw0 == 1u) {
        {
          w0 = select(w0, w0 + (uint4)(v0), w0 > (uint4)(LID));
        }
        } else if (sw0 == 2u) {
        {
          pa[((uint)(short)(w0.z)) & 7u] += (v3 << (in[((((uint)get_num_groups(0)) & 1u ? (uint)get_num_groups(0) : ((u1) & 1u ? u0 : (uint)get_num_groups(0)))) & NIN_MASK] & 31u));
        }
        {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
        }
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        } else if (sw0 == 3u) {
        {
          v3 -= (uint)(uchar)(((uint)((int)v5 >> ((uint)get_global_id(0) & 31u)) * pa[((uint)((int)max(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], LID) >> ((uint)get_global_id(0) & 31u))) & 7u]));
        }
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        } else {
        {
          w0 = rotate(w0, (uint4)(v1)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
        }
        }
      }
#endif
    }
    } else if (sw1 == 3u) {
    {
      v5 -= (w0.s2 & (v0 / (u0 | 1u)));
    }
    {
      w0 = w0 * (uint4)((w0.s3 << (v5 & 31u))) + vload4(((v0 + v5)) & (NIN_MASK >> 2), in);
    }
    } else {
    {
      w0 = w0 * (uint4)((w0.s3 << (v5 & 31u))) + vload4(((v0 + v5)) & (NIN_MASK >> 2), in);
    }
    }
  }
#endif
  uint i2 = 0u;
  while (i2 < (uint)get_local_id(0) % 5u) {
    i2++;
    v5 ^= in[(GLIN) & NIN_MASK];
    uint i3 = 0u;
    while (i3 < ((add_sat((in[in[GLIN] & NIN_MASK] % (in[((v4 / (pa[((uint)get_local_id(0)) & 7u] | 1u))) & NIN_MASK] | 1u)), in[((uint)((in[(uint)get_global_id(0) * stride + 30u] + GLIN) < min(v2, i3))) & NIN_MASK])) & 7u)) {
      i3++;
      v3 += ((uint)(short)(v0) | (v1 * v1));
    }
  }
  if ((uint)(u2 < (uint)get_local_size(0)) > 0x7fffffffu) {
  } else {
  }
#ifndef DIFFTEST_NO_SWITCH
  switch (((LID % (v1 | 1u))) % 6u) {
  case 0u: {
      w0 = w0 * (uint4)((v5 % (min(w0.w, (uint)get_group_id(0)) | 1u))) + vload4(((uint)get_local_id(0)) & (NIN_MASK >> 2), in);
  }
    break;
  case 2u: {
      v0 = (v5 + GLIN);
  }
    break;
  case 3u: {
      pa[(mul_hi((uint)(v2 == (uint)get_group_id(0)), add_sat(in[(uint)get_global_id(0) * stride + 19u], GLIN))) & 7u] += v5;
  }
    break;
  default: {
      pa[(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) & 7u] += v5;
  }
    break;
  }
#else
  {
    uint sw4 = ((LID % (v1 | 1u))) % 6u;
    if (sw4 == 0u) {
    {
      w0 = w0 * (uint4)((v5 % (min(w0.w, (uint)get_group_id(0)) | 1u))) + vload4(((uint)get_local_id(0)) & (NIN_MASK >> 2), in);
    }
    } else if (sw4 == 2u) {
    {
      v0 = (v5 + GLIN);
    }
    } else if (sw4 == 3u) {
    {
      pa[(mul_hi((uint)(v2 == (uint)get_group_id(0)), add_sat(in[(uint)get_global_id(0) * stride + 19u], GLIN))) & 7u] += v5;
    }
    } else {
    {
      pa[(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) & 7u] += v5;
    }
    }
  }
#endif
  STORE();
}

// lanecl-difftest program, seed 1005
//@ args 4 16 3550621274 4
//@ cfg 2 12 12 4 4
//@ cfg 2 9 4 3 2
//@ cfg 2 15 6 5 3
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

#ifdef DIFFTEST_NO_RESTRICT
#define RESTRICT
#else
#define RESTRICT restrict
#endif
__kernel void k(__global uint *RESTRICT out, __global const uint *RESTRICT in,
                __global uint *cnt, __global uint *scratch, uint ostride,
                uint stride, uint n, uint p0, uint p1)
{
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
  for (uint i0 = 0u; i0 < (n & 3u) + 2u; i0++) {
#ifndef DIFFTEST_NO_SWITCH
    switch ((rotate(popcount((uint)get_group_id(1)), 22u)) % 6u) {
    case 0u: {
        v2 = (max(i0, v1) + i0);
    }
      break;
    case 1u: {
        v3 += v5;
    }
      break;
    case 3u: {
        v0 |= ((i0) & 1u ? in[((uint)(u0 == (stride + (7u | p1)))) & NIN_MASK] : (uint)get_global_id(0));
    }
      break;
    default: {
        atomic_min(&cnt[8u + ((abs_diff(i0, (uint)get_local_id(1))) & 1u)], (v0 << (i0 & 31u)));
    }
      break;
    }
#else
    {
      uint sw1 = (rotate(popcount((uint)get_group_id(1)), 22u)) % 6u;
      if (sw1 == 0u) {
      {
        v2 = (max(i0, v1) + i0);
      }
      } else if (sw1 == 1u) {
      {
        v3 += v5;
      }
      } else if (sw1 == 3u) {
      {
        v0 |= ((i0) & 1u ? in[((uint)(u0 == (stride + (7u | p1)))) & NIN_MASK] : (uint)get_global_id(0));
      }
      } else {
      {
        atomic_min(&cnt[8u + ((abs_diff(i0, (uint)get_local_id(1))) & 1u)], (v0 << (i0 & 31u)));
      }
      }
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    L[LID] = (v4 >> ((uint)get_local_id(0) & 31u));
    barrier(CLK_LOCAL_MEM_FENCE);
    v5 += L[LID];
    v1 = L[0];
    v3 |= in[(hadd(i0, mul_hi(u0, v1))) & NIN_MASK];
  }
  v2 = min(v1, (uint)get_local_id(1));
  pa[(pa[(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) & 7u]) & 7u] += popcount((uint)get_local_size(1));
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] = clz(v1);
  barrier(CLK_LOCAL_MEM_FENCE);
  v4 = L[(LID ^ 1u) < LSZ ? (LID ^ 1u) : LID];
  v1 -= pa[(0xef9f2b38u) & 7u];
  v2 ^= in[((uint)(uchar)((v1 + (uint)get_group_id(0)))) & NIN_MASK];
  for (uint i2 = 0u; i2 < 2u; i2++) {
    v5 = v2;
    atomic_xor(&cnt[6u + (((v4 << (in[((mul_hi(v5, in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) + in[(uint)get_global_id(0) * stride + 61u])) & NIN_MASK] & 31u))) & 1u)], (((uint)(short)(in[in[GLIN] & NIN_MASK])) & 1u ? i2 : p1));
    if ((u3) & 4u) break;
  }
  u1 ^= min((((stride - u1)) & 1u ? (uint)get_group_id(1) : abs_diff((uint)get_group_id(0), 4294967294u)), u0);
  v2 = max((in[(add_sat(in[in[GLIN] & NIN_MASK], in[(uint)get_global_id(0) * stride])) & NIN_MASK] & v0), (in[in[GLIN] & NIN_MASK] + in[in[GLIN] & NIN_MASK]));
  if (((uint)get_local_size(1)) & 4u) {
    u1 += (uint)get_num_groups(1);
  } else {
    atomic_or(&cnt[4u + ((((uint)get_local_id(1) >> ((v3 << (LSZ & 31u)) & 31u))) & 1u)], (v5 % ((uint)(uchar)(v1) | 1u)));
  }
  STORE();
}

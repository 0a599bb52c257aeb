// lanecl-difftest program, seed 1022
//@ args 3 22 2239478191 11
//@ cfg 1 24 1 24 1
//@ cfg 1 128 1 64 1
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

uint h0(uint a, uint b)
{
  uint r = a;
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
  w0 = select(w0, w0 + (uint4)(v0), w0 > (uint4)((in[(uint)get_global_id(0) * stride] / ((in[in[GLIN] & NIN_MASK] << (w0.s0 & 31u)) | 1u))));
  if (hadd(pa[((GLIN / (v4 | 1u))) & 7u], (uint)get_global_id(0)) < (uint)get_local_id(0)) {
    for (uint i0 = 0u; i0 < (GLIN & 3u) + 1u; i0++) {
      v2 ^= (min(((in[in[GLIN] & NIN_MASK]) & 1u ? v3 : in[(clz(i0)) & NIN_MASK]), v5) >> (in[(uint)get_global_id(0) * stride + 52u] & 31u));
    }
    v3 |= h0(in[(5u) & NIN_MASK], (uint)((int)GLIN >> (mul_hi(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], (uint)get_global_id(0)) & 31u)));
    v0 += as_uint(convert_uchar4(w0 & (uint4)(255u)) + (uchar4)((uchar)v2));
    v1 -= (in[(v4) & NIN_MASK] << (add_sat(((uint)get_global_id(0) & GLIN), in[(uint)get_global_id(0) * stride + 42u]) & 31u));
  }
  if (u1 > 0x7fffffffu) {
    STORE();
    return;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (v3 > 0x7fffffffu)
    L[LID] = (in[(hadd((uint)((int)v3 >> (stride & 31u)), v1)) & NIN_MASK] << ((uint)get_group_id(0) & 31u));
  barrier(CLK_LOCAL_MEM_FENCE);
  v3 += L[(LID + 5u) % LSZ];
  v5 ^= (uint)(short)(pa[(LID) & 7u]);
#ifndef DIFFTEST_NO_SWITCH
  switch ((((v1 + v5) / (v3 | 1u))) % 6u) {
  case 1u: {
      pa[((uint)(uchar)(((in[in[GLIN] & NIN_MASK]) & 1u ? v2 : (uint)get_local_id(0)))) & 7u] = in[(add_sat(in[in[GLIN] & NIN_MASK], (uint)get_local_id(0))) & NIN_MASK];
  }
    break;
  case 2u: {
      v1 -= (((v0 | 7u)) & 1u ? (uint)(mul_hi((uint)get_num_groups(0), u3) < hadd(in[in[GLIN] & NIN_MASK], v3)) : (rotate((uint)get_local_id(0), in[((in[(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) & NIN_MASK] | in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)])) & NIN_MASK]) >> (v2 & 31u)));
  }
  case 3u: {
      v2 += (v2 ^ mul_hi(popcount(v4), (uint)(uchar)(p0)));
  }
    break;
  default: {
      pa[(in[in[GLIN] & NIN_MASK]) & 7u] = (uint)get_local_size(0);
  }
    break;
  }
#else
  {
    uint sw1 = (((v1 + v5) / (v3 | 1u))) % 6u;
    if (sw1 == 1u) {
    {
      pa[((uint)(uchar)(((in[in[GLIN] & NIN_MASK]) & 1u ? v2 : (uint)get_local_id(0)))) & 7u] = in[(add_sat(in[in[GLIN] & NIN_MASK], (uint)get_local_id(0))) & NIN_MASK];
    }
    } else if (sw1 == 2u) {
    {
      v1 -= (((v0 | 7u)) & 1u ? (uint)(mul_hi((uint)get_num_groups(0), u3) < hadd(in[in[GLIN] & NIN_MASK], v3)) : (rotate((uint)get_local_id(0), in[((in[(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) & NIN_MASK] | in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)])) & NIN_MASK]) >> (v2 & 31u)));
    }
    {
      v2 += (v2 ^ mul_hi(popcount(v4), (uint)(uchar)(p0)));
    }
    } else if (sw1 == 3u) {
    {
      v2 += (v2 ^ mul_hi(popcount(v4), (uint)(uchar)(p0)));
    }
    } else {
    {
      pa[(in[in[GLIN] & NIN_MASK]) & 7u] = (uint)get_local_size(0);
    }
    }
  }
#endif
  barrier(CLK_GLOBAL_MEM_FENCE);
  scratch[GLIN] = min(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], GLIN);
  barrier(CLK_GLOBAL_MEM_FENCE);
  v3 += scratch[gslot(LID)];
  u0 |= ((p1 * (uint)get_group_id(0)) / (min((uint)get_group_id(0), LSZ) | 1u));
  uint i2 = 0u;
  while (i2 < 2u) {
    i2++;
    u3 += (uint)(((ulong)in[((uint)(uchar)((uint)get_local_size(0))) & NIN_MASK] * (ulong)(uint)get_num_groups(0)) >> 29);
  }
  for (uint i3 = 0u; i3 < (n & 3u) + 2u; i3++) {
    v1 += ((uint)(uchar)((uint)get_local_size(0)) & mul_hi(i3, v4));
    if ((0x9a0af432u) % 3u == 0u) continue;
  }
  STORE();
}

// lanecl-difftest program, seed 1017
//@ args 6 4 3609451583 13
//@ cfg 1 10 1 5 1
//@ cfg 1 102 1 17 1
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
  v3 += (((uint)get_local_id(0) % (in[in[GLIN] & NIN_MASK] | 1u)) + pa[((v2 / ((uint)get_global_id(0) | 1u))) & 7u]);
  w0 = w0.wzyx ^ (uint4)(v5, (uint)get_local_id(0), v2, 20u);
  v4 = v0;
  w0.s13 = w0.s02 + (uint2)(w0.y, v3);
  for (uint i0 = 0u; i0 < (((((uint)get_num_groups(0) | u3) | (6u - 0x982daafdu))) & 3u) + 1u; i0++) {
#ifndef DIFFTEST_NO_SWITCH
    switch ((4294967295u) % 6u) {
    case 0u: {
        v1 -= (uint)get_global_id(0);
    }
    case 1u: {
        v2 -= ((uint)get_global_id(0) | v2);
    }
      break;
    case 2u: {
        v0 += (v1 * v3);
    }
      break;
    default: {
        v2 = max(((uint)(short)(i0) & (uint)get_global_id(0)), in[in[GLIN] & NIN_MASK]);
    }
      break;
    }
#else
    {
      uint sw1 = (4294967295u) % 6u;
      if (sw1 == 0u) {
      {
        v1 -= (uint)get_global_id(0);
      }
      {
        v2 -= ((uint)get_global_id(0) | v2);
      }
      } else if (sw1 == 1u) {
      {
        v2 -= ((uint)get_global_id(0) | v2);
      }
      } else if (sw1 == 2u) {
      {
        v0 += (v1 * v3);
      }
      } else {
      {
        v2 = max(((uint)(short)(i0) & (uint)get_global_id(0)), in[in[GLIN] & NIN_MASK]);
      }
      }
    }
#endif
    uint i2 = 0u;
    while (i2 < (uint)get_local_id(0) % 5u) {
      i2++;
      pa[((uint)get_global_id(0)) & 7u] += max((uint)get_local_id(0), w0.w);
      v0 -= (clz(pa[(in[(in[in[GLIN] & NIN_MASK]) & NIN_MASK]) & 7u]) + (v5 ^ v2));
    }
    for (uint i3 = 0u; i3 < (uint)get_local_id(0) % 5u; i3++) {
      v5 ^= ((uint)(in[in[GLIN] & NIN_MASK] < i3) ^ in[in[GLIN] & NIN_MASK]);
      for (uint i4 = 0u; i4 < ((GLIN) & 7u); i4++) {
      }
    }
  }
  if ((v3) & 4u) {
    v2 -= GLIN;
  }
  v1 |= v3;
  if (((in[in[GLIN] & NIN_MASK] ^ (uint)(stride < pa[(pa[((popcount(v1) & add_sat(u0, v3))) & 7u]) & 7u]))) & 1u) {
    STORE();
    return;
  }
  v2 += as_uint(convert_uchar4(w0 & (uint4)(255u)) + (uchar4)((uchar)v5));
  STORE();
}

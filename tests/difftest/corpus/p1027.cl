// lanecl-difftest program, seed 1027
//@ args 7 25 31048634 8
//@ cfg 2 12 16 4 8
//@ cfg 2 24 6 8 2
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
  uint r = b;
  if ((a ^ b) & 1u) r = (b - 0xb5a82ed3u);
  return r ^ (hadd(6u, a));
}

uint h1(uint a, uint b)
{
  uint r = ((uint)((int)hadd(a, b) >> (a & 31u)) + clz((uint)(uchar)(0u)));
  return r ^ ((((6u) & 1u ? 7u : b) * (uint)((int)a < (int)1u)));
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
  pa[((v0 % (v0 | 1u))) & 7u] += ((in[(uint)get_global_id(0) * stride + 58u]) & 1u ? pa[((uint)((int)v4 < (int)p0)) & 7u] : (uint)(v2 == LID));
  for (uint i0 = 0u; i0 < ((pa[((in[in[GLIN] & NIN_MASK] ^ u3)) & 7u]) & 7u); i0++) {
    for (uint i1 = 0u; i1 < (GLIN & 3u) + 1u; i1++) {
      v2 ^= abs_diff(abs_diff(((uint)get_local_id(1) ^ v1), i0), mul_hi(hadd(p0, in[((mul_hi((uint)get_global_id(1), in[(add_sat(u2, v1)) & NIN_MASK]) | pa[(in[in[GLIN] & NIN_MASK]) & 7u])) & NIN_MASK]), clz(in[i0 * stride + (uint)get_global_id(0)])));
    }
    v0 = (uint)(v4 < (in[in[GLIN] & NIN_MASK] / (v5 | 1u)));
#ifndef DIFFTEST_NO_SWITCH
    switch ((v4) % 6u) {
    case 0u: {
        v4 += i0;
    }
      break;
    case 1u: {
        v4 ^= (uint)(((LID >> (v5 & 31u)) >> (v3 & 31u)) < (uint)(uchar)((uint)(in[(uint)get_global_id(0) * stride + 62u] == (uint)get_global_id(1))));
    }
      break;
    case 2u: {
        v1 = v2;
    }
    case 3u: {
        v3 -= (uint)((LID / (in[(in[(((uint)(v0 == in[(max(v5, ((i0) & 1u ? in[in[GLIN] & NIN_MASK] : 4294967292u))) & NIN_MASK]) * (v1 ^ i0))) & NIN_MASK]) & NIN_MASK] | 1u)) < u0);
    }
    default: {
        v1 = (uint)get_global_id(1);
    }
      break;
    }
#else
    {
      uint sw2 = (v4) % 6u;
      if (sw2 == 0u) {
      {
        v4 += i0;
      }
      } else if (sw2 == 1u) {
      {
        v4 ^= (uint)(((LID >> (v5 & 31u)) >> (v3 & 31u)) < (uint)(uchar)((uint)(in[(uint)get_global_id(0) * stride + 62u] == (uint)get_global_id(1))));
      }
      } else if (sw2 == 2u) {
      {
        v1 = v2;
      }
      {
        v3 -= (uint)((LID / (in[(in[(((uint)(v0 == in[(max(v5, ((i0) & 1u ? in[in[GLIN] & NIN_MASK] : 4294967292u))) & NIN_MASK]) * (v1 ^ i0))) & NIN_MASK]) & NIN_MASK] | 1u)) < u0);
      }
      {
        v1 = (uint)get_global_id(1);
      }
      } else if (sw2 == 3u) {
      {
        v3 -= (uint)((LID / (in[(in[(((uint)(v0 == in[(max(v5, ((i0) & 1u ? in[in[GLIN] & NIN_MASK] : 4294967292u))) & NIN_MASK]) * (v1 ^ i0))) & NIN_MASK]) & NIN_MASK] | 1u)) < u0);
      }
      {
        v1 = (uint)get_global_id(1);
      }
      } else {
      {
        v1 = (uint)get_global_id(1);
      }
      }
    }
#endif
    pa[(((uint)get_local_id(0) - i0)) & 7u] = (uint)get_global_id(0);
    if (((h1(GLIN, v1) - in[(uint)get_global_id(0) * stride])) % 3u == 0u) {
      v3 += (uint)(v2 < (((uint)get_global_id(1)) & 1u ? (uint)get_group_id(1) : v4));
    }
    if ((uint)(in[((uint)(uchar)((u2 >> (in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] & 31u)))) & NIN_MASK] < v3) > 0x7fffffffu) continue;
    v2 = clz(((uint)(short)(in[in[GLIN] & NIN_MASK]) - pa[(popcount(v4)) & 7u]));
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  scratch[GLIN] = (uint)((int)(uint)get_num_groups(0) >> (abs_diff((uint)get_global_id(0), pa[((uint)get_global_id(0)) & 7u]) & 31u));
  barrier(CLK_GLOBAL_MEM_FENCE);
  v2 = scratch[gslot((LID) % LSZ)];
  v4 = max((uint)(v2 == v1), mul_hi(hadd(v5, v3), v4));
  v4 = v5;
  v3 += hadd((uint)get_local_id(1), clz((uint)((int)(uint)get_num_groups(0) < (int)(uint)get_local_id(0))));
  v5 += h0(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], v2);
  v5 = ((u2 & 0u) >> ((GLIN >> (in[(((v1 * v2) + (uint)get_local_id(0))) & NIN_MASK] & 31u)) & 31u));
  STORE();
}

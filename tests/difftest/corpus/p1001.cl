// lanecl-difftest program, seed 1001
//@ args 3 14 3882363118 11
//@ cfg 2 8 6 8 2
//@ cfg 2 12 24 4 8
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
  v0 -= pa[((add_sat(0x51d7cd45u, u2) - (pa[(in[((uint)((int)(uint)get_group_id(1) < (int)(uint)get_local_size(1))) & NIN_MASK]) & 7u] ^ v5))) & 7u];
  v5 ^= (uint)((int)mul_hi(v3, (in[in[GLIN] & NIN_MASK] % (in[in[GLIN] & NIN_MASK] | 1u))) >> (clz(in[in[GLIN] & NIN_MASK]) & 31u));
  v0 -= in[(in[in[GLIN] & NIN_MASK]) & NIN_MASK];
  v3 = (((uint)(((ulong)v3 * (ulong)max(pa[(v0) & 7u], (uint)get_local_id(0))) >> 29)) & 1u ? (in[in[GLIN] & NIN_MASK] ^ v2) : max(v0, (uint)(v3 == v1)));
  v2 = (uint)get_local_id(1);
  v5 |= min((uint)(GLIN < v3), v0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (((uint)get_local_id(0) << (in[((uint)get_group_id(0)) & NIN_MASK] & 31u)) < in[(add_sat(pa[(pa[(popcount(v5)) & 7u]) & 7u], (u0 * v2))) & NIN_MASK])
    L[LID] = hadd((uint)get_local_id(1), v5);
  barrier(CLK_LOCAL_MEM_FENCE);
  v3 = L[LID];
  v0 += L[(LID + 3u) % LSZ];
  if ((max(u3, n) | (uint)get_group_id(1)) < (p1 | p1)) {
#ifndef DIFFTEST_NO_SWITCH
    switch ((v4) % 6u) {
    case 0u: {
        v4 = (uint)((int)(uint)(short)((uint)(((ulong)pa[(clz(v2)) & 7u] * (ulong)u2) >> 29)) >> (4294967293u & 31u));
    }
      break;
    case 1u: {
        v2 += ((uint)(short)(v5) >> (clz((uint)get_local_id(0)) & 31u));
    }
      break;
    case 2u: {
        v3 |= v5;
    }
      break;
    case 3u: {
        v0 += v0;
    }
      break;
    default: {
        v1 = (uint)((float)((abs_diff(pa[(popcount(in[in[GLIN] & NIN_MASK])) & 7u], (in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] + (uint)get_global_id(0)))) & 0xffffu) + (float)(((v2 - in[in[GLIN] & NIN_MASK])) & 0xffu) * 2.0f);
    }
      break;
    }
#else
    {
      uint sw0 = (v4) % 6u;
      if (sw0 == 0u) {
      {
        v4 = (uint)((int)(uint)(short)((uint)(((ulong)pa[(clz(v2)) & 7u] * (ulong)u2) >> 29)) >> (4294967293u & 31u));
      }
      } else if (sw0 == 1u) {
      {
        v2 += ((uint)(short)(v5) >> (clz((uint)get_local_id(0)) & 31u));
      }
      } else if (sw0 == 2u) {
      {
        v3 |= v5;
      }
      } else if (sw0 == 3u) {
      {
        v0 += v0;
      }
      } else {
      {
        v1 = (uint)((float)((abs_diff(pa[(popcount(in[in[GLIN] & NIN_MASK])) & 7u], (in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] + (uint)get_global_id(0)))) & 0xffffu) + (float)(((v2 - in[in[GLIN] & NIN_MASK])) & 0xffu) * 2.0f);
      }
      }
    }
#endif
    v0 -= ((uint)get_local_id(1) - (v3 | popcount((uint)get_local_size(0))));
#ifndef DIFFTEST_NO_SWITCH
    switch ((abs_diff(v5, abs_diff(in[(uint)get_global_id(0) * stride], v0))) % 6u) {
    case 1u: {
    }
      break;
    case 3u: {
    }
    default: {
    }
      break;
    }
#else
    {
      uint sw1 = (abs_diff(v5, abs_diff(in[(uint)get_global_id(0) * stride], v0))) % 6u;
      if (sw1 == 1u) {
      {
      }
      } else if (sw1 == 3u) {
      {
      }
      {
      }
      } else {
      {
      }
      }
    }
#endif
  }
  for (uint i2 = 0u; i2 < (n & 3u) + 2u; i2++) {
    v0 = (uint)(uchar)(clz(v3));
    v3 = rotate(v2, (uint)((float)((abs_diff(4294967294u, u0)) & 0xffffu) + (float)(((uint)((float)((v4) & 0xffffu) + (float)(((uint)get_local_id(1)) & 0xffu) * 2.0f)) & 0xffu) * 2.0f));
  }
  v3 ^= ((v4) & 1u ? (in[in[GLIN] & NIN_MASK] | v1) : (uint)get_local_id(1));
  pa[(abs_diff(in[in[GLIN] & NIN_MASK], (in[in[GLIN] & NIN_MASK] & v2))) & 7u] += (uint)((int)GLIN < (int)(uint)(short)((uint)get_group_id(1)));
  STORE();
}

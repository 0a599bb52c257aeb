// lanecl-difftest program, seed 1024
//@ args 6 48 3633939884 15
//@ cfg 1 48 1 24 1
//@ cfg 1 200 1 100 1
//@ cfg 1 128 1 32 1
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
  uint r = (uint)((int)((39u) & 1u ? (uint)((int)229u < (int)b) : b) >> (0x8c4293bcu & 31u));
  if ((a ^ b) & 1u) r = (b << ((a | a) & 31u));
  return r ^ (0x78095366u);
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
  atomic_inc(&cnt[14]);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (min(v3, (v2 | stride)) < h0(v1, add_sat((uint)get_local_id(0), u3))) {
#ifndef DIFFTEST_NO_SWITCH
    switch ((in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) % 6u) {
    case 0u: {
        pa[(max(3u, (uint)get_local_size(0))) & 7u] = (uint)(uchar)(v2);
    }
      break;
    case 1u: {
        v3 += (uint)((int)(pa[((uint)get_local_id(0)) & 7u] % (abs_diff(v4, LID) | 1u)) < (int)(uint)get_local_id(0));
    }
      break;
    case 2u: {
        v1 -= (abs_diff(popcount(v4), h0((uint)get_num_groups(0), in[((uint)get_local_id(0)) & NIN_MASK])) + (v5 ^ (uint)(short)((uint)get_local_id(0))));
    }
      break;
    case 3u: {
        v5 = ((uint)(add_sat(v1, in[in[GLIN] & NIN_MASK]) == in[(uint)get_global_id(0) * stride]) - (uint)(((uint)get_global_id(0) * in[in[GLIN] & NIN_MASK]) < pa[((uint)(((ulong)(uint)get_global_id(0) * (ulong)in[(in[(u1) & NIN_MASK]) & NIN_MASK]) >> 29)) & 7u]));
    }
      break;
    default: {
        v1 = abs_diff(mul_hi(pa[(4294967295u) & 7u], v3), popcount(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]));
    }
      break;
    }
#else
    {
      uint sw0 = (in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) % 6u;
      if (sw0 == 0u) {
      {
        pa[(max(3u, (uint)get_local_size(0))) & 7u] = (uint)(uchar)(v2);
      }
      } else if (sw0 == 1u) {
      {
        v3 += (uint)((int)(pa[((uint)get_local_id(0)) & 7u] % (abs_diff(v4, LID) | 1u)) < (int)(uint)get_local_id(0));
      }
      } else if (sw0 == 2u) {
      {
        v1 -= (abs_diff(popcount(v4), h0((uint)get_num_groups(0), in[((uint)get_local_id(0)) & NIN_MASK])) + (v5 ^ (uint)(short)((uint)get_local_id(0))));
      }
      } else if (sw0 == 3u) {
      {
        v5 = ((uint)(add_sat(v1, in[in[GLIN] & NIN_MASK]) == in[(uint)get_global_id(0) * stride]) - (uint)(((uint)get_global_id(0) * in[in[GLIN] & NIN_MASK]) < pa[((uint)(((ulong)(uint)get_global_id(0) * (ulong)in[(in[(u1) & NIN_MASK]) & NIN_MASK]) >> 29)) & 7u]));
      }
      } else {
      {
        v1 = abs_diff(mul_hi(pa[(4294967295u) & 7u], v3), popcount(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]));
      }
      }
    }
#endif
    v5 -= (pa[(clz((uint)(6u == in[in[GLIN] & NIN_MASK]))) & 7u] >> (in[in[GLIN] & NIN_MASK] & 31u));
    v0 |= (rotate(in[in[GLIN] & NIN_MASK], ((uint)get_global_id(0) >> ((uint)get_global_id(0) & 31u))) | (uint)(add_sat(v2, in[((u0 - ((uint)get_group_id(0) % (LSZ | 1u)))) & NIN_MASK]) == v1));
  } else {
    v1 = (uint)get_local_id(0);
    v2 -= ((uint)get_local_size(0) - h0(pa[(in[in[GLIN] & NIN_MASK]) & 7u], in[(v4) & NIN_MASK]));
    if ((v5) % 3u == 0u) {
      v1 += mul_hi(LID, in[in[GLIN] & NIN_MASK]);
    }
  }
  u0 |= (n - (u2 | LSZ));
  v2 -= v1;
#ifndef DIFFTEST_NO_SWITCH
  switch ((GLIN) % 6u) {
  case 0u: {
      pa[(in[in[GLIN] & NIN_MASK]) & 7u] += v0;
  }
    break;
  case 1u: {
      v0 = (uint)((int)v4 < (int)(u1 + (uint)((uint)get_global_id(0) < u3)));
  }
    break;
  case 3u: {
      v1 = popcount((uint)get_global_id(0));
  }
  default: {
  }
    break;
  }
#else
  {
    uint sw1 = (GLIN) % 6u;
    if (sw1 == 0u) {
    {
      pa[(in[in[GLIN] & NIN_MASK]) & 7u] += v0;
    }
    } else if (sw1 == 1u) {
    {
      v0 = (uint)((int)v4 < (int)(u1 + (uint)((uint)get_global_id(0) < u3)));
    }
    } else if (sw1 == 3u) {
    {
      v1 = popcount((uint)get_global_id(0));
    }
    {
    }
    } else {
    {
    }
    }
  }
#endif
  STORE();
}

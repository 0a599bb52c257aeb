// lanecl-difftest program, seed 1007
//@ args 5 53 464874119 5
//@ cfg 2 1 14 1 7
//@ cfg 2 4 8 4 4
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
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] += add_sat((v2 >> (pa[((uint)(short)(abs_diff(v1, in[((in[in[GLIN] & NIN_MASK] | (uint)get_global_id(0))) & NIN_MASK]))) & 7u] & 31u)), v5);
  barrier(CLK_LOCAL_MEM_FENCE);
  v3 += L[(in[(w0.s2) & NIN_MASK]) % LSZ];
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] = (v3 ^ v3);
  barrier(CLK_LOCAL_MEM_FENCE);
  v5 = L[0];
  v5 = L[(pa[(v3) & 7u]) % LSZ];
  v4 ^= max(in[((v3 >> (GLIN & 31u))) & NIN_MASK], (uint)((int)v0 < (int)v3));
  v2 += (GLIN * ((uint)get_global_id(0) / ((uint)((uint)get_global_id(0) < (uint)get_local_id(1)) | 1u)));
#ifndef DIFFTEST_NO_SWITCH
  switch ((((v2 / (v1 | 1u)) % (add_sat(w0.s3, in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) | 1u))) % 6u) {
  case 0u: {
      v1 = (uint)((int)w0.s1 < (int)pa[(v1) & 7u]);
  }
    break;
  case 1u: {
      pa[(clz(in[in[GLIN] & NIN_MASK])) & 7u] = v4;
  }
    break;
  default: {
      v0 |= (v5 ^ in[(uint)get_global_id(0) * stride]);
  }
    break;
  }
#else
  {
    uint sw0 = (((v2 / (v1 | 1u)) % (add_sat(w0.s3, in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) | 1u))) % 6u;
    if (sw0 == 0u) {
    {
      v1 = (uint)((int)w0.s1 < (int)pa[(v1) & 7u]);
    }
    } else if (sw0 == 1u) {
    {
      pa[(clz(in[in[GLIN] & NIN_MASK])) & 7u] = v4;
    }
    } else {
    {
      v0 |= (v5 ^ in[(uint)get_global_id(0) * stride]);
    }
    }
  }
#endif
  v1 |= (popcount((in[(add_sat(pa[(min(p1, v2)) & 7u], in[(popcount(in[((v3 - in[in[GLIN] & NIN_MASK])) & NIN_MASK])) & NIN_MASK])) & NIN_MASK] + pa[((uint)get_global_id(1)) & 7u])) << (max((uint)get_global_id(0), in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) & 31u));
  pa[(GLIN) & 7u] += (uint)(uchar)((v4 * in[(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) & NIN_MASK]));
  atomic_inc(&cnt[14]);
  v5 -= ((min(pa[(((in[(rotate((uint)get_local_id(0), in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)])) & NIN_MASK] << (v1 & 31u)) % (((u2) & 1u ? in[in[GLIN] & NIN_MASK] : v0) | 1u))) & 7u], in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) + (pa[(rotate(abs_diff(v0, in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]), in[((v2 & hadd((uint)get_global_id(0), w0.x))) & NIN_MASK])) & 7u] - w0.s3)) - (uint)get_group_id(1));
  barrier(CLK_GLOBAL_MEM_FENCE);
  scratch[gslot(LSZ - 1u - LID)] = (uint)(max((uint)get_local_size(0), in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]) < (uint)get_group_id(1));
  barrier(CLK_GLOBAL_MEM_FENCE);
  v2 += scratch[gslot(LID)];
  atomic_or(&cnt[4u + ((mul_hi((uint)get_global_id(1), (uint)get_global_id(1))) & 1u)], v2);
  v1 ^= ((uint)get_group_id(0) % ((in[in[GLIN] & NIN_MASK] << ((in[(pa[(((uint)((int)w0.s0 >> (in[in[GLIN] & NIN_MASK] & 31u)) | (uint)get_global_id(1))) & 7u]) & NIN_MASK] - in[(w0.y) & NIN_MASK]) & 31u)) | 1u));
  if ((in[((LSZ / ((uint)(popcount((uint)get_group_id(1)) == 1u) | 1u))) & NIN_MASK]) % 3u == 0u) {
    v5 ^= (uint)get_num_groups(1);
  } else {
    u1 |= mul_hi(p1, LSZ);
  }
  if ((in[in[GLIN] & NIN_MASK] | (uint)get_local_size(1)) > 0x7fffffffu) {
    v1 = (((uint)(((uint)get_group_id(0) - v4) == in[(uint)get_global_id(0) * stride + 22u])) & 1u ? ((in[(4294967293u) & NIN_MASK] << ((uint)get_global_id(0) & 31u)) << (mul_hi(w0.s3, (uint)get_local_id(1)) & 31u)) : rotate((uint)get_global_id(0), w0.z));
  } else {
  }
  STORE();
}

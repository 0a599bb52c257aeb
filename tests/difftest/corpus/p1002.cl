// lanecl-difftest program, seed 1002
//@ args 1 15 3196708035 7
//@ cfg 1 1 1 1 1
//@ cfg 1 124 1 31 1
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
  v5 = min(w0.x, in[in[GLIN] & NIN_MASK]);
  pa[(GLIN) & 7u] += clz(rotate(v2, pa[(((uint)get_global_id(0) & (uint)(((ulong)pa[(GLIN) & 7u] * (ulong)v0) >> 29))) & 7u]));
  atomic_and(&cnt[12u + (((uint)get_local_id(0)) & 1u)], (uint)(short)(u1));
  v0 += (pa[(abs_diff(mul_hi(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], w0.z), v5)) & 7u] & ((uint)(in[((u3 | 7u)) & NIN_MASK] == in[(v2) & NIN_MASK]) >> (w0.x & 31u)));
  v3 += popcount(n);
  for (uint i0 = 0u; i0 < (uint)get_local_id(0) % 5u; i0++) {
    if (((u1 + i0)) & 1u) {
      v4 ^= (uint)((int)in[in[GLIN] & NIN_MASK] >> (add_sat((v2 * w0.s1), w0.x) & 31u));
    }
    atomic_add(&cnt[0u + ((w0.w) & 3u)], clz(((uint)get_global_id(0) % (GLIN | 1u))));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] = (uint)((int)rotate(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], v5) >> (clz(v2) & 31u));
  barrier(CLK_LOCAL_MEM_FENCE);
  v1 += L[(rotate(in[in[GLIN] & NIN_MASK], GLIN)) % LSZ];
  v1 = L[(LID + LSZ / 2u) % LSZ];
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] += v1;
  barrier(CLK_LOCAL_MEM_FENCE);
  v5 ^= L[(LID + 1u) % LSZ];
  w0.s13 = w0.s02 + (uint2)(((LID * in[in[GLIN] & NIN_MASK]) * GLIN), v5);
  atomic_sub(&cnt[0], (uint)get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] = (uint)get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  v5 += L[LID];
  atomic_xor(&cnt[6u + ((v4) & 1u)], ((v0) & 1u ? GLIN : (uint)((int)v0 >> (w0.z & 31u))));
  v0 += v5;
  v5 |= in[(v5) & NIN_MASK];
  v2 -= popcount(max(v5, in[(GLIN) & NIN_MASK]));
  v4 += (uint)get_group_id(0);
#ifndef DIFFTEST_NO_SWITCH
  switch (((uint)get_global_id(0)) % 6u) {
  case 1u: {
      pa[((uint)get_global_id(0)) & 7u] = max(in[(pa[(((v5 << ((uint)get_local_id(0) & 31u)) >> (mul_hi(u3, w0.y) & 31u))) & 7u]) & NIN_MASK], u1);
  }
    break;
  case 2u: {
  }
    break;
  case 3u: {
  }
    break;
  default: {
  }
    break;
  }
#else
  {
    uint sw1 = ((uint)get_global_id(0)) % 6u;
    if (sw1 == 1u) {
    {
      pa[((uint)get_global_id(0)) & 7u] = max(in[(pa[(((v5 << ((uint)get_local_id(0) & 31u)) >> (mul_hi(u3, w0.y) & 31u))) & 7u]) & NIN_MASK], u1);
    }
    } else if (sw1 == 2u) {
    {
    }
    } else if (sw1 == 3u) {
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

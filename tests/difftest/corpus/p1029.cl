// lanecl-difftest program, seed 1029
//@ args 2 11 514206913 6
//@ cfg 1 21 1 7 1
//@ cfg 1 24 1 24 1
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
  uint r = ((uint)(short)(1u) - (uint)(a < b));
  return r ^ (a);
}

uint h1(uint a, uint b)
{
  uint r = (b & 80u);
  return r ^ ((uint)(uchar)((4294967292u * b)));
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
  u2 = hadd(hadd((uint)get_num_groups(0), (uint)get_group_id(0)), p0);
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] += (v3 + v5);
  barrier(CLK_LOCAL_MEM_FENCE);
  v0 += L[0];
  w0 = rotate(w0, (uint4)(v0)) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
  v3 += u1;
  if ((u2 - u2) < (uint)((u3 & u0) == (5u / (u1 | 1u)))) {
    v0 += (add_sat((uint)get_local_id(0), (uint)((int)(uint)get_group_id(0) >> (v1 & 31u))) * GLIN);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint i0 = 0u; i0 < (GLIN & 3u) + 1u; i0++) {
      w0 = w0.wzyx ^ (uint4)(v3, ((uint)get_local_id(0) | in[in[GLIN] & NIN_MASK]), v1, 57u);
    }
  } else {
    pa[((v5 * rotate(w0.w, v5))) & 7u] = (uint)get_global_id(0);
    v1 ^= (uint)get_global_id(0);
    u1 -= u0;
  }
  v5 += ((u1) & 1u ? h1(w0.s0, in[((popcount(in[in[GLIN] & NIN_MASK]) & in[in[GLIN] & NIN_MASK])) & NIN_MASK]) : v4);
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] += (uint)(uchar)(popcount(in[in[GLIN] & NIN_MASK]));
  barrier(CLK_LOCAL_MEM_FENCE);
  v2 = L[(add_sat(in[(uint)get_global_id(0) * stride + 29u], in[((uint)((int)mul_hi(LSZ, v5) < (int)max(GLIN, (uint)get_local_id(0)))) & NIN_MASK])) % LSZ];
  v5 = L[(LID + LSZ / 2u) % LSZ];
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] += v5;
  barrier(CLK_LOCAL_MEM_FENCE);
  v3 ^= L[(LID + 1u) % LSZ];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (in[(uint)get_global_id(0) * stride] > 0x7fffffffu)
    L[LID] = (uint)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  v0 += L[LSZ - 1u - LID];
  v1 += L[LID];
  v3 = (uint)(uchar)((uint)(((ulong)(uint)get_local_id(0) * (ulong)w0.s2) >> 29));
  pa[(0x593bdccfu) & 7u] = in[in[GLIN] & NIN_MASK];
  atomic_or(&cnt[4u + ((v4) & 1u)], (uint)get_global_id(0));
  pa[(pa[(pa[(in[in[GLIN] & NIN_MASK]) & 7u]) & 7u]) & 7u] += in[(uint)get_global_id(0) * stride];
  for (uint i1 = 0u; i1 < ((v0) & 7u); i1++) {
    v1 -= abs_diff((uint)get_global_id(0), (uint)(uchar)(pa[((LID % (LID | 1u))) & 7u]));
    if (((uint)get_local_id(0)) & 4u) continue;
  }
  STORE();
}

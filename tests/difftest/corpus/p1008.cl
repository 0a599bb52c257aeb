// lanecl-difftest program, seed 1008
//@ args 6 46 4011504644 14
//@ cfg 2 6 2 3 2
//@ cfg 2 12 16 4 8
//@ cfg 2 4 24 4 8
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
  uint r = (uint)(short)(b);
  if ((a ^ b) & 1u) r = 4u;
  return r ^ (popcount(a));
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
  uint v0 = GLIN, v1 = in[GLIN & NIN_MASK], v2 = LID, v3 = (uint)get_global_id(0) * stride;
  uint v4 = (uint)get_local_id(0) ^ p0, v5 = in[((uint)get_global_id(0) * stride) & NIN_MASK];
  uint u0 = p0, u1 = (uint)get_group_id(0) * 7u + p1, u2 = n, u3 = LSZ;
  uint pa[8];
  for (uint j = 0u; j < 8u; j++) pa[j] = in[(GLIN * 8u + j) & NIN_MASK] ^ j;
  uint4 w0 = (uint4)(v0, v1, p1, 5u);
  v4 -= (uint)(uchar)((uint)((int)v2 < (int)in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]));
  v0 = (w0.w << (in[(pa[(GLIN) & 7u]) & NIN_MASK] & 31u));
  v2 += v1;
  v1 ^= popcount(LID);
  v1 ^= (((uint)(0x1e78068bu < in[in[GLIN] & NIN_MASK])) & 1u ? ((uint)get_local_size(1) >> (((uint)get_local_id(0) % (LID | 1u)) & 31u)) : ((uint)((int)in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] < (int)v2) << ((uint)(in[((uint)get_local_id(1)) & NIN_MASK] == GLIN) & 31u)));
  u0 = (uint)((int)(u2 << ((u2 / ((uint)get_num_groups(1) | 1u)) & 31u)) < (int)LSZ);
  if ((rotate((uint)get_global_id(0), (v3 >> (in[in[GLIN] & NIN_MASK] & 31u)))) % 3u == 0u) {
    v4 |= ((v2) & 1u ? mul_hi((uint)get_group_id(1), (uint)get_global_id(1)) : v4);
    w0 = rotate(w0, (uint4)((v4 & (uint)get_local_size(0)))) + (w0 >> (uint4)(3u, 5u, 7u, 11u));
  }
  u0 += p1;
  pa[(((in[in[GLIN] & NIN_MASK] << (pa[(popcount(in[((uint)((v4 + (uint)get_local_id(0)) == (uint)get_num_groups(1))) & NIN_MASK])) & 7u] & 31u)) ^ in[(uint)get_global_id(0) * stride])) & 7u] += in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (((u2 - (uint)get_local_size(1))) & 1u) {
    v3 = (uint)get_local_id(1);
    v5 |= min((uint)get_local_id(1), w0.s3);
    if (LID > 0x7fffffffu) {
    }
  }
  v4 += abs_diff(((uint)get_local_id(1) >> (mul_hi(in[((uint)((pa[(((uint)get_local_id(1) | (uint)get_local_id(1))) & 7u] | GLIN) < rotate(in[(uint)get_global_id(0) * stride], (uint)get_local_id(1)))) & NIN_MASK], v1) & 31u)), v4);
  v2 += add_sat(w0.s0, (uint)get_local_id(0));
  v5 ^= (uint)(((ulong)max(h0(v0, in[(uint)get_global_id(0) * stride]), (uint)(in[in[GLIN] & NIN_MASK] == in[(GLIN) & NIN_MASK])) * (ulong)(in[((uint)(u2 < (uint)((int)0x03d1f39du < (int)p0))) & NIN_MASK] ^ w0.s0)) >> 29);
  v4 += mul_hi(h0((uint)get_local_id(0), in[((add_sat((uint)get_local_size(0), (uint)get_local_size(1)) & 6u)) & NIN_MASK]), LID);
  for (uint i0 = 0u; i0 < ((u1) & 3u) + 1u; i0++) {
    if (in[((uint)(((uint)get_group_id(0) - i0) == ((u3 << (stride & 31u)) | in[(clz((uint)get_group_id(0))) & NIN_MASK]))) & NIN_MASK] > 0x7fffffffu) break;
  }
  STORE();
}

// lanecl-difftest program, seed 1021
//@ args 5 53 1022693182 14
//@ cfg 1 48 1 16 1
//@ cfg 1 12 1 3 1
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
  uint v0 = GLIN, v1 = in[GLIN & NIN_MASK], v2 = LID, v3 = (uint)get_global_id(0) * stride;
  uint v4 = (uint)get_local_id(0) ^ p0, v5 = in[((uint)get_global_id(0) * stride) & NIN_MASK];
  uint u0 = p0, u1 = (uint)get_group_id(0) * 7u + p1, u2 = n, u3 = LSZ;
  uint pa[8];
  for (uint j = 0u; j < 8u; j++) pa[j] = in[(GLIN * 8u + j) & NIN_MASK] ^ j;
  uint4 w0 = (uint4)(v0, v1, p1, 5u);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  v2 += in[(hadd((uint)get_global_id(0), GLIN)) & NIN_MASK];
  uint i0 = 0u;
  while (i0 < (n & 3u) + 2u) {
    i0++;
    v0 ^= hadd((in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] + clz(in[((pa[(add_sat(i0, (uint)get_local_id(0))) & 7u] | (uint)(v1 < LSZ))) & NIN_MASK])), (uint)get_global_id(0));
    v3 += v4;
    if (((clz((uint)get_num_groups(0)) | mul_hi(GLIN, in[(((uint)(((ulong)GLIN * (ulong)(uint)get_local_id(0)) >> 29) + v3)) & NIN_MASK]))) & 4u) {
      v3 |= max(((uint)get_local_id(0) & GLIN), in[in[GLIN] & NIN_MASK]);
    }
    atomic_add(&cnt[0u + ((v3) & 3u)], u3);
    if ((in[(uint)get_global_id(0) * stride + 8u]) & 1u) {
      v1 |= (uint)get_local_id(0);
      if (((uint)get_local_id(0)) % 3u == 0u) {
        pa[(u1) & 7u] += i0;
      } else {
        v1 = (uint)((uint)(short)(((pa[(p1) & 7u]) & 1u ? in[(pa[(((uint)get_local_id(0) ^ v1)) & 7u]) & NIN_MASK] : v2)) < mul_hi(v1, in[(v1) & NIN_MASK]));
      }
    }
    if (((uint)get_global_id(0)) & 1u) {
      v2 = stride;
    }
  }
  v4 |= hadd((uint)get_group_id(0), v0);
  if ((u1) & 4u) {
    STORE();
    return;
  }
  u3 = (uint)get_num_groups(0);
  v2 |= rotate((hadd(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], in[(((in[(uint)get_global_id(0) * stride + 22u] << (v2 & 31u)) + in[((GLIN % ((u2 + in[(((GLIN * u2) & (uint)get_local_id(0))) & NIN_MASK]) | 1u))) & NIN_MASK])) & NIN_MASK]) - (uint)get_local_id(0)), v1);
  pa[((uint)get_global_id(0)) & 7u] += max((LSZ * in[((uint)((int)u3 < (int)min((((uint)get_group_id(0)) & 1u ? u3 : u1), u2))) & NIN_MASK]), in[(min(stride, (uint)get_local_size(0))) & NIN_MASK]);
  uint i1 = 0u;
  while (i1 < (GLIN & 3u) + 1u) {
    i1++;
    if ((v0) % 3u == 0u) break;
  }
  STORE();
}

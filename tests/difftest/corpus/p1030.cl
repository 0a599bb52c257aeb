// lanecl-difftest program, seed 1030
//@ args 1 29 3520336173 4
//@ cfg 2 3 14 1 7
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

uint h0(uint a, uint b)
{
  uint r = ((b * 4294967292u) << ((uint)(uchar)(b) & 31u));
  return r ^ (b);
}

uint h1(uint a, uint b)
{
  uint r = ((b % (popcount(a) | 1u)) >> (b & 31u));
  if ((a ^ b) & 1u) r = (uint)(a == (4294967294u * a));
  return r ^ ((uint)(((ulong)b * (ulong)4294967295u) >> 29));
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
  atomic_sub(&cnt[0], (uint)(uchar)(pa[((uint)(v2 == (GLIN * (uint)get_local_id(1)))) & 7u]));
  w0.s13 = w0.s02 + (uint2)(w0.s3, v5);
  if ((v4) % 3u == 0u) {
    uint i0 = 0u;
    while (i0 < (GLIN & 3u) + 1u) {
      i0++;
      w0 = w0 * (uint4)(popcount((uint)(short)((uint)get_local_size(1)))) + vload4((u2) & (NIN_MASK >> 2), in);
      v3 = (uint)(in[((h0(w0.w, v4) ^ (uint)get_local_id(0))) & NIN_MASK] < (((uint)get_group_id(1)) & 1u ? v5 : (uint)(((ulong)in[(abs_diff(pa[(v5) & 7u], hadd((uint)get_group_id(1), u1))) & NIN_MASK] * (ulong)w0.z) >> 29)));
      atomic_inc(&cnt[14]);
    }
#ifndef DIFFTEST_NO_SWITCH
    switch (((v3 >> (abs_diff(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], pa[(v3) & 7u]) & 31u))) % 6u) {
    case 0u: {
        v1 += (abs_diff(u0, (uint)(uchar)(v5)) ^ (v4 / ((v0 | in[in[GLIN] & NIN_MASK]) | 1u)));
    }
      break;
    case 2u: {
        v5 ^= ((uint)(((ulong)in[in[GLIN] & NIN_MASK] * (ulong)v0) >> 29) - max(stride, (uint)get_local_size(0)));
    }
      break;
    case 3u: {
        v2 = (uint)get_global_id(0);
    }
    default: {
        v2 |= (uint)((int)((uint)get_local_id(1) * in[((in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] << (v4 & 31u))) & NIN_MASK]) < (int)(uint)((int)(uint)get_global_id(0) >> (clz(pa[(((v4 - (uint)get_local_id(0)) / ((uint)(((ulong)v3 * (ulong)in[(uint)get_global_id(0) * stride + 23u]) >> 29) | 1u))) & 7u]) & 31u)));
    }
      break;
    }
#else
    {
      uint sw1 = ((v3 >> (abs_diff(in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)], pa[(v3) & 7u]) & 31u))) % 6u;
      if (sw1 == 0u) {
      {
        v1 += (abs_diff(u0, (uint)(uchar)(v5)) ^ (v4 / ((v0 | in[in[GLIN] & NIN_MASK]) | 1u)));
      }
      } else if (sw1 == 2u) {
      {
        v5 ^= ((uint)(((ulong)in[in[GLIN] & NIN_MASK] * (ulong)v0) >> 29) - max(stride, (uint)get_local_size(0)));
      }
      } else if (sw1 == 3u) {
      {
        v2 = (uint)get_global_id(0);
      }
      {
        v2 |= (uint)((int)((uint)get_local_id(1) * in[((in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] << (v4 & 31u))) & NIN_MASK]) < (int)(uint)((int)(uint)get_global_id(0) >> (clz(pa[(((v4 - (uint)get_local_id(0)) / ((uint)(((ulong)v3 * (ulong)in[(uint)get_global_id(0) * stride + 23u]) >> 29) | 1u))) & 7u]) & 31u)));
      }
      } else {
      {
        v2 |= (uint)((int)((uint)get_local_id(1) * in[((in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] << (v4 & 31u))) & NIN_MASK]) < (int)(uint)((int)(uint)get_global_id(0) >> (clz(pa[(((v4 - (uint)get_local_id(0)) / ((uint)(((ulong)v3 * (ulong)in[(uint)get_global_id(0) * stride + 23u]) >> 29) | 1u))) & 7u]) & 31u)));
      }
      }
    }
#endif
    if ((pa[((uint)(short)(in[((in[(uint)get_global_id(0) * stride + 26u] * in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)])) & NIN_MASK])) & 7u]) & 1u) {
      if ((rotate(in[(uint)get_global_id(0) * stride], GLIN)) & 1u) {
        atomic_inc(&cnt[14]);
      } else {
        v3 -= v3;
      }
    }
  } else {
  }
  w0.s13 = w0.s02 + (uint2)(h0((uint)(w0.s0 == v2), w0.z), v5);
  v0 -= (uint)((int)GLIN >> (h0((w0.z | in[in[GLIN] & NIN_MASK]), abs_diff(v1, pa[((uint)(rotate((uint)get_local_id(0), (uint)get_local_id(1)) == (pa[(h0((uint)(in[in[GLIN] & NIN_MASK] < v4), v2)) & 7u] % (u1 | 1u)))) & 7u])) & 31u));
  v2 += as_uint(convert_uchar4(w0 & (uint4)(255u)) + (uchar4)((uchar)v4));
  v3 += ((in[in[GLIN] & NIN_MASK]) & 1u ? hadd(pa[((v0 << (((u3) & 1u ? in[(uint)get_global_id(0) * stride] : (uint)get_global_id(1)) & 31u))) & 7u], v0) : (uint)(short)(v5));
  v2 = v0;
  STORE();
}

// lanecl-difftest program, seed 1014
//@ args 7 22 2749952516 1
//@ cfg 1 186 1 31 1
//@ cfg 1 144 1 24 1
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
  return r ^ ((uint)(uchar)((uint)(b == 4294967295u)));
}

uint h1(uint a, uint b)
{
  uint r = b;
  if ((a ^ b) & 1u) r = a;
  return r ^ (b);
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
  v5 |= (min(h1(LSZ, in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]), in[in[GLIN] & NIN_MASK]) + LID);
  atomic_inc(&cnt[14]);
  if ((LSZ) & 4u) {
    v3 = ((v1 - LSZ) | in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]);
    v1 = max((((uint)get_global_id(0)) & 1u ? pa[((v2 << ((uint)get_local_id(0) & 31u))) & 7u] : v5), (v3 / ((uint)get_global_id(0) | 1u)));
    u0 ^= (add_sat(u3, 7u) | h0(LSZ, stride));
    u0 += hadd(in[((add_sat(6u, LSZ) - LSZ)) & NIN_MASK], u2);
  } else {
    uint i0 = 0u;
    while (i0 < (GLIN & 3u) + 1u) {
      i0++;
      v0 = clz((in[((abs_diff(h1((uint)get_group_id(0), (uint)get_group_id(0)), u0) * (uint)get_num_groups(0))) & NIN_MASK] | (uint)get_local_id(0)));
      if ((i0 >> ((uint)get_local_id(0) & 31u)) > 0x7fffffffu) continue;
    }
#ifndef DIFFTEST_NO_SWITCH
    switch (((uint)(v2 == ((uint)get_global_id(0) & (uint)get_global_id(0)))) % 6u) {
    case 1u: {
        v3 = (uint)(uchar)(mul_hi((uint)(((ulong)v4 * (ulong)(uint)get_global_id(0)) >> 29), (uint)(short)(v0)));
    }
      break;
    case 2u: {
        v1 += as_uint(convert_uchar4(w0 & (uint4)(255u)) + (uchar4)((uchar)v3));
    }
      break;
    case 3u: {
        v3 = (uint)((int)(min(GLIN, u3) | pa[((in[(((in[(in[(((popcount(u1) << (u0 & 31u)) >> (hadd(u3, (uint)get_num_groups(0)) & 31u))) & NIN_MASK]) & NIN_MASK]) & 1u ? ((uint)(u2 < (uint)get_local_size(0)) / (((uint)get_group_id(0) & u3) | 1u)) : in[((max(min((uint)get_local_size(0), u2), in[(LSZ) & NIN_MASK]) % (((u3 | in[(LSZ) & NIN_MASK]) ^ u0) | 1u))) & NIN_MASK])) & NIN_MASK] ^ ((uint)get_local_id(0) << (w0.s3 & 31u)))) & 7u]) < (int)(uint)get_global_id(0));
    }
      break;
    default: {
        w0 = w0 * (uint4)(v5) + vload4((u2) & (NIN_MASK >> 2), in);
    }
      break;
    }
#else
    {
      uint sw1 = ((uint)(v2 == ((uint)get_global_id(0) & (uint)get_global_id(0)))) % 6u;
      if (sw1 == 1u) {
      {
        v3 = (uint)(uchar)(mul_hi((uint)(((ulong)v4 * (ulong)(uint)get_global_id(0)) >> 29), (uint)(short)(v0)));
      }
      } else if (sw1 == 2u) {
      {
        v1 += as_uint(convert_uchar4(w0 & (uint4)(255u)) + (uchar4)((uchar)v3));
      }
      } else if (sw1 == 3u) {
      {
        v3 = (uint)((int)(min(GLIN, u3) | pa[((in[(((in[(in[(((popcount(u1) << (u0 & 31u)) >> (hadd(u3, (uint)get_num_groups(0)) & 31u))) & NIN_MASK]) & NIN_MASK]) & 1u ? ((uint)(u2 < (uint)get_local_size(0)) / (((uint)get_group_id(0) & u3) | 1u)) : in[((max(min((uint)get_local_size(0), u2), in[(LSZ) & NIN_MASK]) % (((u3 | in[(LSZ) & NIN_MASK]) ^ u0) | 1u))) & NIN_MASK])) & NIN_MASK] ^ ((uint)get_local_id(0) << (w0.s3 & 31u)))) & 7u]) < (int)(uint)get_global_id(0));
      }
      } else {
      {
        w0 = w0 * (uint4)(v5) + vload4((u2) & (NIN_MASK >> 2), in);
      }
      }
    }
#endif
    v0 = hadd(((uint)((int)GLIN >> (u2 & 31u)) / (u2 | 1u)), (uint)((int)((uint)get_local_id(0) - in[(uint)get_global_id(0) * stride]) >> ((((uint)get_num_groups(0)) & 1u ? v2 : in[in[GLIN] & NIN_MASK]) & 31u)));
    u1 += popcount(mul_hi((uint)(u1 < p1), (uint)get_local_size(0)));
  }
  v4 -= hadd((v3 ^ w0.y), pa[(v2) & 7u]);
  pa[(v5) & 7u] += ((uint)get_local_id(0) << (in[in[GLIN] & NIN_MASK] & 31u));
  pa[(h0(in[(uint)get_global_id(0) * stride + 45u], mul_hi(v5, v1))) & 7u] = (uint)get_global_id(0);
  v3 -= ((uint)((0x5d1a06c6u % (in[in[GLIN] & NIN_MASK] | 1u)) == v4) << (pa[(rotate(LID, v2)) & 7u] & 31u));
  u2 += abs_diff((uint)get_num_groups(0), (uint)get_local_size(0));
  STORE();
}

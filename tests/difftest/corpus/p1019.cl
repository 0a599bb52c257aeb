// lanecl-difftest program, seed 1019
//@ args 7 54 2651553206 5
//@ cfg 1 64 1 16 1
//@ cfg 1 100 1 100 1
//@ cfg 1 48 1 24 1
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
  v4 = (uint)(((ulong)max(v0, v1) * (ulong)abs_diff((uint)(pa[((uint)(((ulong)(uint)get_local_size(0) * (ulong)(uint)(in[in[GLIN] & NIN_MASK] < v4)) >> 29)) & 7u] < u2), (pa[(clz(pa[((uint)get_global_id(0)) & 7u])) & 7u] * v3))) >> 29);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (LID == 0u) LC[0] = (u2 ^ (uint)get_group_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  if ((uint)((int)v0 < (int)v1) < max((v1 >> ((uint)get_global_id(0) & 31u)), v4))
    atomic_add(&LC[0], 3u);
  barrier(CLK_LOCAL_MEM_FENCE);
  u3 += LC[0];
  v5 -= abs_diff((((v3 << (u0 & 31u))) & 1u ? (v0 + (uint)get_global_id(0)) : pa[(v2) & 7u]), (uint)(v5 < (in[(rotate((((uint)get_local_id(0)) & 1u ? in[(abs_diff((in[(in[(v2) & NIN_MASK]) & NIN_MASK] % (in[(uint)get_global_id(0) * stride] | 1u)), (((uint)get_local_id(0)) & 1u ? (uint)get_global_id(0) : LSZ))) & NIN_MASK] : LID), (uint)(((ulong)v0 * (ulong)(uint)get_local_id(0)) >> 29))) & NIN_MASK] % (v1 | 1u))));
  v1 += abs_diff((pa[((uint)(uchar)((uint)(((ulong)v5 * (ulong)(uint)get_local_size(0)) >> 29))) & 7u] + (uint)(uchar)(v0)), ((uint)((int)GLIN >> (in[((clz((uint)get_num_groups(0)) * (uint)((int)mul_hi((uint)get_group_id(0), LSZ) < (int)(((uint)get_num_groups(0)) & 1u ? stride : u0)))) & NIN_MASK] & 31u)) ^ in[(abs_diff((uint)get_local_id(0), v5)) & NIN_MASK]));
  pa[((uint)(short)(v0)) & 7u] = in[((uint)get_num_groups(0)) & NIN_MASK];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (LID == 0u) LC[1] = 236u;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_or(&LC[1], in[in[GLIN] & NIN_MASK]);
  barrier(CLK_LOCAL_MEM_FENCE);
  u3 ^= LC[1];
  v2 += v4;
  barrier(CLK_GLOBAL_MEM_FENCE);
  scratch[GLIN] = stride;
  barrier(CLK_GLOBAL_MEM_FENCE);
  v4 += scratch[gslot((LID + 6u) % LSZ)];
  if ((u2) & 1u) {
    v4 |= (abs_diff(v5, v1) & pa[(v0) & 7u]);
#ifndef DIFFTEST_NO_SWITCH
    switch ((((stride - v1) << ((uint)get_global_id(0) & 31u))) % 6u) {
    case 0u: {
        v5 ^= ((pa[(max(LID, v4)) & 7u] >> ((uint)((int)(uint)get_local_size(0) < (int)v2) & 31u)) + (v1 + in[(mul_hi(mul_hi(hadd((uint)get_num_groups(0), in[(u2) & NIN_MASK]), 79u), u3)) & NIN_MASK]));
    }
      break;
    case 1u: {
        v4 += in[(uint)get_global_id(0) * stride + 46u];
    }
    case 2u: {
        v1 ^= (((GLIN & pa[(((uint)(uchar)(in[in[GLIN] & NIN_MASK]) ^ v2)) & 7u])) & 1u ? (uint)((int)in[((uint)get_global_id(0)) & NIN_MASK] < (int)u2) : (uint)((int)(uint)(((ulong)v5 * (ulong)v1) >> 29) >> (v0 & 31u)));
    }
      break;
    case 3u: {
        v1 ^= ((in[(uint)get_global_id(0) * stride]) & 1u ? min(v2, GLIN) : (mul_hi(pa[((uint)(((ulong)(pa[(v3) & 7u] ^ (uint)get_local_id(0)) * (ulong)(uint)((int)pa[((pa[(LID) & 7u] + mul_hi((uint)get_global_id(0), v4))) & 7u] < (int)pa[((GLIN & (v5 << (v1 & 31u)))) & 7u])) >> 29)) & 7u], v5) >> (n & 31u)));
    }
      break;
    default: {
        pa[(LSZ) & 7u] = pa[((uint)((int)LID >> (mul_hi(LID, (uint)get_local_id(0)) & 31u))) & 7u];
    }
      break;
    }
#else
    {
      uint sw0 = (((stride - v1) << ((uint)get_global_id(0) & 31u))) % 6u;
      if (sw0 == 0u) {
      {
        v5 ^= ((pa[(max(LID, v4)) & 7u] >> ((uint)((int)(uint)get_local_size(0) < (int)v2) & 31u)) + (v1 + in[(mul_hi(mul_hi(hadd((uint)get_num_groups(0), in[(u2) & NIN_MASK]), 79u), u3)) & NIN_MASK]));
      }
      } else if (sw0 == 1u) {
      {
        v4 += in[(uint)get_global_id(0) * stride + 46u];
      }
      {
        v1 ^= (((GLIN & pa[(((uint)(uchar)(in[in[GLIN] & NIN_MASK]) ^ v2)) & 7u])) & 1u ? (uint)((int)in[((uint)get_global_id(0)) & NIN_MASK] < (int)u2) : (uint)((int)(uint)(((ulong)v5 * (ulong)v1) >> 29) >> (v0 & 31u)));
      }
      } else if (sw0 == 2u) {
      {
        v1 ^= (((GLIN & pa[(((uint)(uchar)(in[in[GLIN] & NIN_MASK]) ^ v2)) & 7u])) & 1u ? (uint)((int)in[((uint)get_global_id(0)) & NIN_MASK] < (int)u2) : (uint)((int)(uint)(((ulong)v5 * (ulong)v1) >> 29) >> (v0 & 31u)));
      }
      } else if (sw0 == 3u) {
      {
        v1 ^= ((in[(uint)get_global_id(0) * stride]) & 1u ? min(v2, GLIN) : (mul_hi(pa[((uint)(((ulong)(pa[(v3) & 7u] ^ (uint)get_local_id(0)) * (ulong)(uint)((int)pa[((pa[(LID) & 7u] + mul_hi((uint)get_global_id(0), v4))) & 7u] < (int)pa[((GLIN & (v5 << (v1 & 31u)))) & 7u])) >> 29)) & 7u], v5) >> (n & 31u)));
      }
      } else {
      {
        pa[(LSZ) & 7u] = pa[((uint)((int)LID >> (mul_hi(LID, (uint)get_local_id(0)) & 31u))) & 7u];
      }
      }
    }
#endif
  } else {
  }
  v3 -= (uint)(v1 == v4);
  atomic_xor(&cnt[6u + ((((hadd(u2, GLIN)) & 1u ? GLIN : (uint)(uchar)(v0))) & 1u)], pa[(min(v0, (u3 % ((uint)get_group_id(0) | 1u)))) & 7u]);
  pa[((uint)(popcount(v3) == (uint)get_local_id(0))) & 7u] += (v1 << (v3 & 31u));
  v0 = (uint)(((uint)((int)in[in[GLIN] & NIN_MASK] >> (in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)] & 31u)) + (uint)get_global_id(0)) == mul_hi(in[((uint)((int)v2 >> ((in[((uint)get_group_id(0)) & NIN_MASK] & in[in[GLIN] & NIN_MASK]) & 31u))) & NIN_MASK], min(in[((uint)((in[((GLIN % (in[(uint)get_global_id(0) * stride] | 1u))) & NIN_MASK] + v1) == ((u1) & 1u ? v5 : pa[(max(pa[(v4) & 7u], v0)) & 7u]))) & NIN_MASK], v5)));
  pa[(popcount(in[in[GLIN] & NIN_MASK])) & 7u] = 4294967292u;
  STORE();
}

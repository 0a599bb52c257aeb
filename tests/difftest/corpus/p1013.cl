// lanecl-difftest program, seed 1013
//@ args 2 12 571667192 7
//@ cfg 1 64 1 32 1
//@ cfg 1 7 1 7 1
//@ cfg 1 28 1 7 1
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
  uint r = abs_diff(hadd((uint)((float)((b) & 0xffffu) + (float)((b) & 0xffu) * 2.0f), b), rotate(a, a));
  if ((a ^ b) & 1u) r = (a << (a & 31u));
  return r ^ (rotate(a, (b ^ 0xc6565a1fu)));
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
  L[LID] += (uint)((int)u2 < (int)p0);
  barrier(CLK_LOCAL_MEM_FENCE);
  v0 += L[(LID + 4u) % LSZ];
  v0 = L[(LID ^ 1u) < LSZ ? (LID ^ 1u) : LID];
  v0 = L[(LID + LSZ / 2u) % LSZ];
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] += v0;
  barrier(CLK_LOCAL_MEM_FENCE);
  v4 ^= L[(LID + 1u) % LSZ];
  v4 |= v4;
  barrier(CLK_LOCAL_MEM_FENCE);
  L[LID] = v0;
  barrier(CLK_LOCAL_MEM_FENCE);
  v2 += L[LID];
  v2 = L[LID];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (LID == 0u) LC[2] = u1;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_xor(&LC[2], in[(add_sat(u1, (uint)get_num_groups(0))) & NIN_MASK]);
  barrier(CLK_LOCAL_MEM_FENCE);
  u1 ^= LC[2];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (LID == 0u) LC[0] = (uint)(u2 == u2);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (clz((v4 << (in[(v3) & NIN_MASK] & 31u))) < (uint)(((ulong)(in[(uint)get_global_id(0) * stride] % ((uint)get_local_id(0) | 1u)) * (ulong)v0) >> 29))
    atomic_add(&LC[0], (v5 % (h0(LID, u3) | 1u)));
  barrier(CLK_LOCAL_MEM_FENCE);
  u3 ^= LC[0];
  v3 ^= v5;
  v2 -= v2;
  barrier(CLK_LOCAL_MEM_FENCE);
  if ((v0) % 3u == 0u)
    L[LID] += clz((v1 & in[in[GLIN] & NIN_MASK]));
  barrier(CLK_LOCAL_MEM_FENCE);
  v1 += L[(LID ^ 1u) < LSZ ? (LID ^ 1u) : LID];
  v5 = L[(LID + 3u) % LSZ];
  pa[((uint)get_global_id(0)) & 7u] += ((LSZ) & 1u ? in[in[GLIN] & NIN_MASK] : v1);
  v3 |= min((uint)get_local_id(0), (uint)get_local_id(0));
  v3 |= ((uint)(in[(u1) & NIN_MASK] == pa[(add_sat((uint)get_local_id(0), (in[in[GLIN] & NIN_MASK] << (v4 & 31u)))) & 7u]) + popcount(LID));
  if (0x8cb12d05u > 0x7fffffffu) {
    STORE();
    return;
  }
  if ((abs_diff(u3, u1)) & 4u) {
    u1 += (u2 & p0);
#ifndef DIFFTEST_NO_SWITCH
    switch ((in[(uint)get_global_id(0) * stride + 8u]) % 6u) {
    case 0u: {
        v4 = v2;
    }
      break;
    case 1u: {
        v3 += clz(in[(v1) & NIN_MASK]);
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
      uint sw0 = (in[(uint)get_global_id(0) * stride + 8u]) % 6u;
      if (sw0 == 0u) {
      {
        v4 = v2;
      }
      } else if (sw0 == 1u) {
      {
        v3 += clz(in[(v1) & NIN_MASK]);
      }
      } else if (sw0 == 3u) {
      {
      }
      } else {
      {
      }
      }
    }
#endif
  }
  STORE();
}

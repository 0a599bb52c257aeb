/* Miscellaneous vector functions (OpenCL C 3.0 section 6.15.15): shuffle and
 * shuffle2 for every element type, source widths M and result widths N of
 * 2, 4, 8, 16.  Lane loops: result lane i is x[mask[i] % M] (shuffle2
 * picks from the concatenation x, y with mask[i] % 2M).
 */

#include "lanecl_builtins.h"

#define DEF_SHUFFLE(T, UT, M, N)                                                          \
  OVLD T##N shuffle(T##M x, UT##N mask)                                                    \
  {                                                                                        \
    T##N r;                                                                                \
    for (int i = 0; i < N; ++i)                                                            \
      r[i] = x[mask[i] & (M - 1)];                                                         \
    return r;                                                                              \
  }                                                                                        \
  OVLD T##N shuffle2(T##M x, T##M y, UT##N mask)                                           \
  {                                                                                        \
    T##N r;                                                                                \
    for (int i = 0; i < N; ++i) {                                                          \
      uint k = (uint)(mask[i] & (2 * M - 1));                                              \
      r[i] = k < M ? x[k] : y[k - M];                                                      \
    }                                                                                      \
    return r;                                                                              \
  }
#define SHUFFLE_N(T, UT, M) DEF_SHUFFLE(T, UT, M, 2) DEF_SHUFFLE(T, UT, M, 4) DEF_SHUFFLE(T, UT, M, 8) DEF_SHUFFLE(T, UT, M, 16)
#define SHUFFLE_MN(T, UT) SHUFFLE_N(T, UT, 2) SHUFFLE_N(T, UT, 4) SHUFFLE_N(T, UT, 8) SHUFFLE_N(T, UT, 16)

SHUFFLE_MN(char, uchar)
SHUFFLE_MN(uchar, uchar)
SHUFFLE_MN(short, ushort)
SHUFFLE_MN(ushort, ushort)
SHUFFLE_MN(int, uint)
SHUFFLE_MN(uint, uint)
SHUFFLE_MN(long, ulong)
SHUFFLE_MN(ulong, ulong)
SHUFFLE_MN(float, uint)
SHUFFLE_MN(double, ulong)
#ifdef cl_khr_fp16
SHUFFLE_MN(half, ushort)
#endif

/* get_fence (OpenCL C 3.0 section 6.15.12.1, generic address space): "a
 * valid memory fence value for ptr".  LaneCL can't tell at run time where a
 * __generic pointer points (after lowering every address space is the one
 * flat space of the process), so it names both fences: valid for a pointer
 * to either space, and what a barrier or fence given it must order anyway. */
OVLD cl_mem_fence_flags get_fence(__generic void *ptr)
{
  return CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE;
}

OVLD cl_mem_fence_flags get_fence(__generic const void *ptr)
{
  return CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE;
}

/* Shared macros of the LaneCL builtins library (the .cl files of builtins/ only).
 *
 * Every .cl file is compiled on its own with
 *   clang-19 -cc1 -triple spir64-unknown-unknown -cl-std=CL3.0
 *            -finclude-default-header -cl-ext=+all -emit-llvm-bc -O2
 * so opencl-c.h declares the overloads and our definitions get the same
 * mangled names as the calls in user kernels.  Definitions carry
 * __attribute__((overloadable)) (OVLD) themselves: the explicit address
 * space overloads that CL1.2 kernels call (__global, __local, __private,
 * __constant) are not declared by opencl-c.h in CL3.0 mode, so they are new
 * overloads here.
 *
 * Stamping: a definition macro DEF_x(<type args>, N, L, K) is applied to
 * every width by FOR_WIDTHS(DEF_x, <type args>): N is the type-name suffix
 * (empty for scalars: char##N is char), L the lane count (1 for scalars),
 * K is S for scalars and V for vectors, to pick the few spellings that
 * differ (conversions, lane loops).
 */
#ifndef LANECL_BUILTINS_H
#define LANECL_BUILTINS_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#define OVLD __attribute__((overloadable))
#define INLINE static inline __attribute__((always_inline))

/* Token pasting after expansion. */
#define CAT(a, b) CAT_(a, b)
#define CAT_(a, b) a##b
#define CAT3(a, b, c) CAT(CAT(a, b), c)

/* ---- widths ---- */
#define FOR_WIDTHS(F, ...)                                                                 \
  F(__VA_ARGS__, , 1, S)                                                                   \
  F(__VA_ARGS__, 2, 2, V) F(__VA_ARGS__, 3, 3, V) F(__VA_ARGS__, 4, 4, V) F(__VA_ARGS__, 8, 8, V) \
  F(__VA_ARGS__, 16, 16, V)
#define FOR_VWIDTHS(F, ...)                                                                \
  F(__VA_ARGS__, 2, 2, V) F(__VA_ARGS__, 3, 3, V) F(__VA_ARGS__, 4, 4, V) F(__VA_ARGS__, 8, 8, V) \
  F(__VA_ARGS__, 16, 16, V)

/* Value conversion between same-width types (scalar cast / vector convert). */
#define CVT_S(x, T) ((T)(x))
#define CVT_V(x, T) __builtin_convertvector((x), T)

/* Lane loops: apply a scalar function to each lane (K = S: just call it).
 * Arguments must be plain variables. */
#define MAP1_S(L, RT, FN, a) ((RT)FN(a))
#define MAP1_V(L, RT, FN, a)                                                               \
  ({                                                                                       \
    RT r_;                                                                                 \
    for (int i_ = 0; i_ < (L); ++i_)                                                       \
      r_[i_] = FN((a)[i_]);                                                                \
    r_;                                                                                    \
  })
#define MAP2_S(L, RT, FN, a, b) ((RT)FN(a, b))
#define MAP2_V(L, RT, FN, a, b)                                                            \
  ({                                                                                       \
    RT r_;                                                                                 \
    for (int i_ = 0; i_ < (L); ++i_)                                                       \
      r_[i_] = FN((a)[i_], (b)[i_]);                                                       \
    r_;                                                                                    \
  })
#define MAP3_S(L, RT, FN, a, b, c) ((RT)FN(a, b, c))
#define MAP3_V(L, RT, FN, a, b, c)                                                         \
  ({                                                                                       \
    RT r_;                                                                                 \
    for (int i_ = 0; i_ < (L); ++i_)                                                       \
      r_[i_] = FN((a)[i_], (b)[i_], (c)[i_]);                                              \
    r_;                                                                                    \
  })

/* Elementwise min/max through locals: the builtins want both operands of one
 * type, address space qualifier included. */
#define EMIN(a, b)                                                                         \
  ({                                                                                       \
    __typeof__(a) a_ = (a), b_ = (b);                                                      \
    __builtin_elementwise_min(a_, b_);                                                     \
  })
#define EMAX(a, b)                                                                         \
  ({                                                                                       \
    __typeof__(a) a_ = (a), b_ = (b);                                                      \
    __builtin_elementwise_max(a_, b_);                                                     \
  })

/* ---- integer types: F(<args>, T, UT, BITS, SIGNED, TMIN, TMAX) ---- */
#define FOR_INT_TYPES(F, ...)                                                              \
  F(__VA_ARGS__, char, uchar, 8, 1, CHAR_MIN, CHAR_MAX)                                    \
  F(__VA_ARGS__, uchar, uchar, 8, 0, 0, UCHAR_MAX)                                         \
  F(__VA_ARGS__, short, ushort, 16, 1, SHRT_MIN, SHRT_MAX)                                 \
  F(__VA_ARGS__, ushort, ushort, 16, 0, 0, USHRT_MAX)                                      \
  F(__VA_ARGS__, int, uint, 32, 1, INT_MIN, INT_MAX)                                       \
  F(__VA_ARGS__, uint, uint, 32, 0, 0, UINT_MAX)                                           \
  F(__VA_ARGS__, long, ulong, 64, 1, LONG_MIN, LONG_MAX)                                   \
  F(__VA_ARGS__, ulong, ulong, 64, 0, 0, ULONG_MAX)

/* ---- floating-point types: F(<args>, T, IT (same-size int), UT) ---- */
#ifdef cl_khr_fp16
#define FOR_HALF_TYPE(F, ...) F(__VA_ARGS__, half, short, ushort)
#else
#define FOR_HALF_TYPE(F, ...)
#endif
#define FOR_FP_TYPES(F, ...)                                                               \
  F(__VA_ARGS__, float, int, uint)                                                         \
  F(__VA_ARGS__, double, long, ulong)                                                      \
  FOR_HALF_TYPE(F, __VA_ARGS__)

/* ---- address spaces of pointer parameters ----
 * generic (CL2.0+) and the named spaces CL1.2 kernels use. */
#define FOR_WRITABLE_AS(F, ...)                                                            \
  F(__VA_ARGS__, __generic) F(__VA_ARGS__, __global) F(__VA_ARGS__, __local)               \
  F(__VA_ARGS__, __private)
#define FOR_READABLE_AS(F, ...) FOR_WRITABLE_AS(F, __VA_ARGS__) F(__VA_ARGS__, __constant)

#endif

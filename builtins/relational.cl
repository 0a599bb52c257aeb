/* Relational built-in functions (OpenCL C 3.0 section 6.15.7).  All vector
 * code: scalar forms return int 1 or 0, vector forms -1 or 0 in the signed
 * integer type of the operand's element size (what OpenCL C's own vector
 * comparisons produce).
 *   isequal isnotequal isgreater isgreaterequal isless islessequal
 *   islessgreater isfinite isinf isnan isnormal isordered isunordered signbit
 *     (float, double, half)
 *   any all (signed integer types), bitselect select (all types)
 */

#include "lanecl_builtins.h"

/* Result type of a relational on T##N: int for scalars, IT##N for vectors. */
#define RELT_S(IT, N) int
#define RELT_V(IT, N) IT##N

/* Scalar comparisons give int 0/1 already; vector ones -1/0 of IT##N. */
#define DEF_REL(T, IT, UT, N, L, K)                                                      \
  OVLD RELT_##K(IT, N) isequal(T##N x, T##N y)                                             \
  {                                                                                        \
    return x == y;                                                                         \
  }                                                                                        \
  OVLD RELT_##K(IT, N) isnotequal(T##N x, T##N y)                                          \
  {                                                                                        \
    return x != y;                                                                         \
  }                                                                                        \
  OVLD RELT_##K(IT, N) isgreater(T##N x, T##N y)                                           \
  {                                                                                        \
    return x > y;                                                                          \
  }                                                                                        \
  OVLD RELT_##K(IT, N) isgreaterequal(T##N x, T##N y)                                      \
  {                                                                                        \
    return x >= y;                                                                         \
  }                                                                                        \
  OVLD RELT_##K(IT, N) isless(T##N x, T##N y)                                              \
  {                                                                                        \
    return x < y;                                                                          \
  }                                                                                        \
  OVLD RELT_##K(IT, N) islessequal(T##N x, T##N y)                                         \
  {                                                                                        \
    return x <= y;                                                                         \
  }                                                                                        \
  OVLD RELT_##K(IT, N) islessgreater(T##N x, T##N y)                                       \
  {                                                                                        \
    return (x < y) || (x > y);                                                             \
  }                                                                                        \
  OVLD RELT_##K(IT, N) isfinite(T##N x)                                                    \
  {                                                                                        \
    return __builtin_elementwise_abs(x) < (T##N)INFINITY;                                  \
  }                                                                                        \
  OVLD RELT_##K(IT, N) isinf(T##N x)                                                       \
  {                                                                                        \
    return __builtin_elementwise_abs(x) == (T##N)INFINITY;                                 \
  }                                                                                        \
  OVLD RELT_##K(IT, N) isnan(T##N x)                                                       \
  {                                                                                        \
    return x != x;                                                                         \
  }                                                                                        \
  OVLD RELT_##K(IT, N) isnormal(T##N x)                                                    \
  {                                                                                        \
    T##N a = __builtin_elementwise_abs(x);                                                 \
    return (a >= (T##N)MIN_NORMAL_##T) && (a < (T##N)INFINITY);                            \
  }                                                                                        \
  OVLD RELT_##K(IT, N) isordered(T##N x, T##N y)                                           \
  {                                                                                        \
    return (x == x) && (y == y);                                                           \
  }                                                                                        \
  OVLD RELT_##K(IT, N) isunordered(T##N x, T##N y)                                         \
  {                                                                                        \
    return (x != x) || (y != y);                                                           \
  }                                                                                        \
  OVLD RELT_##K(IT, N) signbit(T##N x)                                                     \
  {                                                                                        \
    return SIGNBIT_##K(IT, N, x);                                                          \
  }

#define MIN_NORMAL_float FLT_MIN
#define MIN_NORMAL_double DBL_MIN
#define MIN_NORMAL_half HALF_MIN
/* the sign bit: scalars 0/1, vectors an arithmetic shift to -1/0 */
#define SIGNBIT_S(IT, N, x) (__builtin_astype(x, IT) < 0)
#define SIGNBIT_V(IT, N, x) (__builtin_astype(x, IT##N) < (IT##N)0)

#define REL_WIDTHS(DEF, ...) FOR_WIDTHS(DEF, __VA_ARGS__)
FOR_FP_TYPES(REL_WIDTHS, DEF_REL)

/* ---- any / all: the most significant bit of signed integers ---- */
#define DEF_ANYALL(T, UT, BITS, SGN, TMIN, TMAX, N, L, K)                               \
  OVLD int any(T##N x)                                                                     \
  {                                                                                        \
    return ANY_##K(x);                                                                     \
  }                                                                                        \
  OVLD int all(T##N x)                                                                     \
  {                                                                                        \
    return ALL_##K(x);                                                                     \
  }
#define ANY_S(x) ((x) < 0)
#define ALL_S(x) ((x) < 0)
#define ANY_V(x) (__builtin_reduce_or(x) < 0)
#define ALL_V(x) (__builtin_reduce_and(x) < 0)
#define SINT_WIDTHS(DEF, T, UT, BITS, SGN, TMIN, TMAX)                                   \
  SINT_WIDTHS_##SGN(DEF, T, UT, BITS, SGN, TMIN, TMAX)
#define SINT_WIDTHS_1(DEF, ...) FOR_WIDTHS(DEF, __VA_ARGS__)
#define SINT_WIDTHS_0(DEF, ...)
FOR_INT_TYPES(SINT_WIDTHS, DEF_ANYALL)

/* ---- bitselect, select: every scalar type, ST/UT the same-size integers ---- */
#define DEF_SELECT(T, ST, UT, N, L, K)                                                   \
  OVLD T##N bitselect(T##N a, T##N b, T##N c)                                              \
  {                                                                                        \
    UT##N ua = __builtin_astype(a, UT##N), ub = __builtin_astype(b, UT##N);                \
    UT##N uc = __builtin_astype(c, UT##N);                                                 \
    return __builtin_astype((UT##N)((ua & ~uc) | (ub & uc)), T##N);                        \
  }                                                                                        \
  OVLD T##N select(T##N a, T##N b, ST##N c)                                                \
  {                                                                                        \
    return SELECT_##K(a, b, c, ST##N);                                                     \
  }                                                                                        \
  OVLD T##N select(T##N a, T##N b, UT##N c)                                                \
  {                                                                                        \
    return SELECT_##K(a, b, c, ST##N);                                                     \
  }
/* scalars: c != 0; vectors: the most significant bit of each lane of c */
#define SELECT_S(a, b, c, STN) ((c) ? (b) : (a))
#define SELECT_V(a, b, c, STN) (__builtin_astype(c, STN) < (STN)0 ? (b) : (a))

#define SEL_WIDTHS(DEF, ...) FOR_WIDTHS(DEF, __VA_ARGS__)
#define SEL_TYPES(F, ...)                                                                \
  F(__VA_ARGS__, char, char, uchar)                                                        \
  F(__VA_ARGS__, uchar, char, uchar)                                                       \
  F(__VA_ARGS__, short, short, ushort)                                                     \
  F(__VA_ARGS__, ushort, short, ushort)                                                    \
  F(__VA_ARGS__, int, int, uint)                                                           \
  F(__VA_ARGS__, uint, int, uint)                                                          \
  F(__VA_ARGS__, long, long, ulong)                                                        \
  F(__VA_ARGS__, ulong, long, ulong)                                                       \
  FOR_FP_TYPES(F, __VA_ARGS__)
SEL_TYPES(SEL_WIDTHS, DEF_SELECT)

/* Common (OpenCL C 3.0 section 6.15.3) and geometric (6.15.6) built-in
 * functions for float, double and (cl_khr_fp16) half.  All plain vector
 * code.
 *   common:    clamp degrees max min mix radians step smoothstep sign (all widths,
 *              with the scalar-operand overloads of clamp max min mix step smoothstep)
 *   geometric: dot cross distance length normalize, fast_distance fast_length
 *              fast_normalize (float); widths 1, 2, 3, 4
 * length, distance and normalize rescale by a power of two when the sum of
 * squares overflows or underflows, so that large and tiny vectors work.
 */

#include "lanecl_builtins.h"

#define FOR_FP_TYPES_NOHALF(F, ...) F(__VA_ARGS__, float, int, uint) F(__VA_ARGS__, double, long, ulong)

#define FP_WIDTHS(DEF, ...) FOR_WIDTHS(DEF, __VA_ARGS__)
#define FP_VWIDTHS(DEF, ...) FOR_VWIDTHS(DEF, __VA_ARGS__)

#define DEF_COMMON(T, IT, UT, N, L, K)                                                   \
  OVLD T##N clamp(T##N x, T##N lo, T##N hi)                                                \
  {                                                                                        \
    return EMIN(EMAX(x, lo), hi);                                                          \
  }                                                                                        \
  OVLD T##N degrees(T##N r)                                                                \
  {                                                                                        \
    return r * (T##N)(T)57.295779513082320876798154814105;                                 \
  }                                                                                        \
  OVLD T##N radians(T##N d)                                                                \
  {                                                                                        \
    return d * (T##N)(T)0.017453292519943295769236907684886;                               \
  }                                                                                        \
  OVLD T##N max(T##N x, T##N y)                                                            \
  {                                                                                        \
    return EMAX(x, y);                                                                     \
  }                                                                                        \
  OVLD T##N min(T##N x, T##N y)                                                            \
  {                                                                                        \
    return EMIN(x, y);                                                                     \
  }                                                                                        \
  OVLD T##N step(T##N edge, T##N x)                                                        \
  {                                                                                        \
    return x < edge ? (T##N)0 : (T##N)1;                                                   \
  }                                                                                        \
  OVLD T##N sign(T##N x)                                                                   \
  {                                                                                        \
    T##N r = x > (T##N)0 ? (T##N)1 : x < (T##N)0 ? (T##N)-1 : x; /* +-0 stay */            \
    return x != x ? (T##N)0 : r;                                                           \
  }
FOR_FP_TYPES(FP_WIDTHS, DEF_COMMON)

/* mix and smoothstep: float and double in their type, half in float (a
 * half y - x overflows, and the rounding of each step adds up) */
#define DEF_MIX(T, IT, UT, N, L, K)                                                      \
  OVLD T##N mix(T##N x, T##N y, T##N a)                                                    \
  {                                                                                        \
    return x + (y - x) * a;                                                                \
  }                                                                                        \
  OVLD T##N smoothstep(T##N e0, T##N e1, T##N x)                                           \
  {                                                                                        \
    T##N t = EMIN(EMAX((x - e0) / (e1 - e0), (T##N)0), (T##N)1);                           \
    return t * t * ((T##N)3 - (T##N)2 * t);                                                \
  }
FOR_FP_TYPES_NOHALF(FP_WIDTHS, DEF_MIX)
#ifdef cl_khr_fp16
#define DEF_MIX_H(UNUSED, N, L, K)                                                       \
  OVLD half##N mix(half##N x, half##N y, half##N a)                                        \
  {                                                                                        \
    return CVT_##K(mix(CVT_##K(x, float##N), CVT_##K(y, float##N), CVT_##K(a, float##N)), half##N); \
  }                                                                                        \
  OVLD half##N smoothstep(half##N e0, half##N e1, half##N x)                               \
  {                                                                                        \
    return CVT_##K(smoothstep(CVT_##K(e0, float##N), CVT_##K(e1, float##N), CVT_##K(x, float##N)), \
                   half##N);                                                               \
  }
FOR_WIDTHS(DEF_MIX_H, 0)
#endif

#define DEF_COMMON_S(T, IT, UT, N, L, K)                                                 \
  OVLD T##N clamp(T##N x, T lo, T hi)                                                      \
  {                                                                                        \
    return clamp(x, (T##N)lo, (T##N)hi);                                                   \
  }                                                                                        \
  OVLD T##N max(T##N x, T y)                                                               \
  {                                                                                        \
    return EMAX(x, (T##N)y);                                                               \
  }                                                                                        \
  OVLD T##N min(T##N x, T y)                                                               \
  {                                                                                        \
    return EMIN(x, (T##N)y);                                                               \
  }                                                                                        \
  OVLD T##N mix(T##N x, T##N y, T a)                                                       \
  {                                                                                        \
    return mix(x, y, (T##N)a);                                                             \
  }                                                                                        \
  OVLD T##N step(T edge, T##N x)                                                           \
  {                                                                                        \
    return step((T##N)edge, x);                                                            \
  }                                                                                        \
  OVLD T##N smoothstep(T e0, T e1, T##N x)                                                 \
  {                                                                                        \
    return smoothstep((T##N)e0, (T##N)e1, x);                                              \
  }
FOR_FP_TYPES(FP_VWIDTHS, DEF_COMMON_S)

/* ------------------------------------------------------------------------ */
/* Geometric functions.                                                     */

#define FOR_GEO_WIDTHS(F, ...) F(__VA_ARGS__, , 1, S) F(__VA_ARGS__, 2, 2, V) F(__VA_ARGS__, 3, 3, V) F(__VA_ARGS__, 4, 4, V)
#define GEO_WIDTHS(DEF, ...) FOR_GEO_WIDTHS(DEF, __VA_ARGS__)

/* sum of products, lane by lane */
#define DOT_S(L, T, x, y) ((x) * (y))
#define DOT_V(L, T, x, y)                                                                 \
  ({                                                                                       \
    T s_ = (x)[0] * (y)[0];                                                                \
    for (int i_ = 1; i_ < (L); ++i_)                                                       \
      s_ += (x)[i_] * (y)[i_];                                                             \
    s_;                                                                                    \
  })
#define ANYLANE_S(c) (c)
#define ANYLANE_V(c) (__builtin_reduce_or(c) != 0)

/* Scale factors (powers of two) against overflow / underflow of the sum
 * of squares, and the smallest normal. */
#define BIG_float 0x1p+66f
#define SMALL_float 0x1p-66f
#define UP_float 0x1p+86f
#define DOWN_float 0x1p-86f
#define TINY_float FLT_MIN
#define BIG_double 0x1p+514
#define SMALL_double 0x1p-514
#define UP_double 0x1p+563
#define DOWN_double 0x1p-563
#define TINY_double DBL_MIN

#define DEF_GEO(T, IT, UT, N, L, K)                                                      \
  OVLD T dot(T##N x, T##N y)                                                               \
  {                                                                                        \
    return DOT_##K(L, T, x, y);                                                            \
  }                                                                                        \
  OVLD T length(T##N p)                                                                    \
  {                                                                                        \
    T s = DOT_##K(L, T, p, p);                                                             \
    if (s == (T)INFINITY) {                                                                \
      T##N q = p * (T##N)SMALL_##T;                                                        \
      return __builtin_sqrt##T(DOT_##K(L, T, q, q)) * BIG_##T;                             \
    }                                                                                      \
    if (s < TINY_##T) {                                                                    \
      T##N q = p * (T##N)UP_##T;                                                           \
      return __builtin_sqrt##T(DOT_##K(L, T, q, q)) * DOWN_##T;                            \
    }                                                                                      \
    return __builtin_sqrt##T(s);                                                           \
  }                                                                                        \
  OVLD T distance(T##N p0, T##N p1)                                                        \
  {                                                                                        \
    return length(p0 - p1);                                                                \
  }                                                                                        \
  OVLD T##N normalize(T##N p)                                                              \
  {                                                                                        \
    /* branch-free (selects), so that the loop vectorizer can widen it */                  \
    T s = DOT_##K(L, T, p, p);                                                             \
    T##N a = __builtin_elementwise_abs(p);                                                 \
    /* overflow: infinities become +-1 and the rest 0, or everything scaled down */        \
    T##N pinf = a == (T##N)INFINITY ? __builtin_elementwise_copysign((T##N)1, p) : p * (T##N)0; \
    T##N pbig = ANYLANE_##K(a == (T##N)INFINITY) ? pinf : p * (T##N)SMALL_##T;            \
    T##N psmall = p * (T##N)UP_##T; /* underflow: scaled up */                             \
    T##N q = s == (T)INFINITY ? pbig : s < TINY_##T ? psmall : p;                          \
    T##N r = q * ((T)1 / __builtin_sqrt##T(DOT_##K(L, T, q, q)));                          \
    return ANYLANE_##K(p != (T##N)0) ? r : p; /* all zero: p itself */                     \
  }
#define __builtin_sqrtfloat __builtin_sqrtf
#define __builtin_sqrtdouble __builtin_sqrt
FOR_GEO_WIDTHS(DEF_GEO, float, int, uint)
FOR_GEO_WIDTHS(DEF_GEO, double, long, ulong)

#define DEF_FAST_GEO(UNUSED, N, L, K)                                                    \
  OVLD float fast_length(float##N p)                                                       \
  {                                                                                        \
    return __builtin_sqrtf(DOT_##K(L, float, p, p));                                       \
  }                                                                                        \
  OVLD float fast_distance(float##N p0, float##N p1)                                       \
  {                                                                                        \
    return fast_length(p0 - p1);                                                           \
  }                                                                                        \
  OVLD float##N fast_normalize(float##N p)                                                 \
  {                                                                                        \
    float s = DOT_##K(L, float, p, p);                                                     \
    return s == 0.0f ? p : p * (1.0f / __builtin_sqrtf(s));                                \
  }
FOR_GEO_WIDTHS(DEF_FAST_GEO, 0)

OVLD float3 cross(float3 a, float3 b)
{
  return (float3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
OVLD float4 cross(float4 a, float4 b)
{
  return (float4)(cross(a.xyz, b.xyz), 0.0f);
}
OVLD double3 cross(double3 a, double3 b)
{
  return (double3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
OVLD double4 cross(double4 a, double4 b)
{
  return (double4)(cross(a.xyz, b.xyz), 0.0);
}

#ifdef cl_khr_fp16
/* half geometric through float */
#define DEF_GEO_HALF(UNUSED, N, L, K)                                                    \
  OVLD half dot(half##N x, half##N y)                                                      \
  {                                                                                        \
    return (half)dot(CVT_##K(x, float##N), CVT_##K(y, float##N));                          \
  }                                                                                        \
  OVLD half length(half##N p)                                                              \
  {                                                                                        \
    return (half)length(CVT_##K(p, float##N));                                             \
  }                                                                                        \
  OVLD half distance(half##N p0, half##N p1)                                               \
  {                                                                                        \
    return (half)distance(CVT_##K(p0, float##N), CVT_##K(p1, float##N));                   \
  }                                                                                        \
  OVLD half##N normalize(half##N p)                                                        \
  {                                                                                        \
    return CVT_##K(normalize(CVT_##K(p, float##N)), half##N);                              \
  }
FOR_GEO_WIDTHS(DEF_GEO_HALF, 0)
OVLD half3 cross(half3 a, half3 b)
{
  return (half3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
OVLD half4 cross(half4 a, half4 b)
{
  return (half4)(cross(a.xyz, b.xyz), (half)0);
}
#endif

/* Math built-in functions (OpenCL C 3.0 section 6.15.2) for float, double and
 * (with cl_khr_fp16) half, scalars and widths 2, 3, 4, 8, 16.  Functions with
 * pointer arguments are in math_ptr.cl, native_ and half_ in math_native.cl.
 *
 * How each is computed (the report of the library lists the same):
 *  - float exp exp2 exp10 expm1 log log2 log10 log1p sin cos tan sinpi cospi
 *    tanpi sinh cosh tanh pow asin acos atan atan2 asinpi acospi atanpi
 *    atan2pi asinh acosh atanh cbrt hypot: vector code in math_f32.cl.
 *  - LLVM intrinsics through __builtin_elementwise_*, one call for the whole
 *    vector: fabs floor ceil trunc round rint sqrt copysign fmin fmax fma mad,
 *    and (double, half) sin cos tan asin acos atan sinh
 *    cosh tanh exp exp2 log log2 log10 pow (the back end turns the
 *    transcendental ones into libm calls per lane; glibc's results are within
 *    the spec's ULP bounds).
 *  - plain vector code: rsqrt fdim maxmag minmag nan, and exp10 via llvm.exp10.
 *  - lane loops over a scalar implementation: the libm functions without an
 *    LLVM intrinsic (atan2 acosh asinh atanh cbrt erf erfc expm1 log1p tgamma
 *    lgamma hypot fmod remainder nextafter logb ilogb ldexp), and our own
 *    sinpi cospi tanpi asinpi acospi atanpi atan2pi pown powr rootn.
 * Single precision functions that need care (the *pi family, pown, rootn)
 * are computed in double and rounded once.  half goes through float.
 */

#include "lanecl_builtins.h"

#define FP_WIDTHS(DEF, ...) FOR_WIDTHS(DEF, __VA_ARGS__)
#define FP_VWIDTHS(DEF, ...) FOR_VWIDTHS(DEF, __VA_ARGS__)

/* ------------------------------------------------------------------------ */
/* Elementwise intrinsics: scalars and vectors alike.                       */

#define DEF_ELT1(NAME, B, T, IT, UT, N, L, K)                                             \
  OVLD T##N NAME(T##N x)                                                                   \
  {                                                                                        \
    return __builtin_elementwise_##B(x);                                                   \
  }
#define DEF_ELT2(NAME, B, T, IT, UT, N, L, K)                                             \
  OVLD T##N NAME(T##N x, T##N y)                                                           \
  {                                                                                        \
    return __builtin_elementwise_##B(x, y);                                                \
  }
#define DEF_ELT3(NAME, B, T, IT, UT, N, L, K)                                             \
  OVLD T##N NAME(T##N x, T##N y, T##N z)                                                   \
  {                                                                                        \
    return __builtin_elementwise_##B(x, y, z);                                             \
  }
#define ELT1(NAME, B) FOR_FP_TYPES(FP_WIDTHS, DEF_ELT1, NAME, B)
/* double and half only: float has its own vector code in math_f32.cl */
#define FOR_DH_TYPES(F, ...) F(__VA_ARGS__, double, long, ulong)
#define FOR_FD_TYPES(F, ...) F(__VA_ARGS__, float, int, uint) F(__VA_ARGS__, double, long, ulong)
#define ELT1_DH(NAME, B) FOR_DH_TYPES(FP_WIDTHS, DEF_ELT1, NAME, B)
#define ELT2(NAME, B) FOR_FP_TYPES(FP_WIDTHS, DEF_ELT2, NAME, B)
#define ELT3(NAME, B) FOR_FP_TYPES(FP_WIDTHS, DEF_ELT3, NAME, B)

ELT1(fabs, abs)
ELT1(floor, floor)
ELT1(ceil, ceil)
ELT1(trunc, trunc)
ELT1(round, round)
ELT1(rint, rint)
ELT1(sqrt, sqrt)
ELT1_DH(sin, sin)
ELT1_DH(cos, cos)
ELT1_DH(tan, tan)
ELT1_DH(asin, asin)
ELT1_DH(acos, acos)
ELT1_DH(atan, atan)
ELT1_DH(sinh, sinh)
ELT1_DH(cosh, cosh)
ELT1_DH(tanh, tanh)
ELT1_DH(exp, exp)
ELT1_DH(exp2, exp2)
ELT1_DH(log, log)
ELT1_DH(log2, log2)
ELT1_DH(log10, log10)
ELT2(copysign, copysign)
/* pow: llvm.pow (libm per lane), plus the two cases the spec makes 1 for any
 * other operand, NaN included (glibc returns NaN for a signaling one) */
#define DEF_POW(T, IT, UT, N, L, K)                                                      \
  OVLD T##N pow(T##N x, T##N y)                                                            \
  {                                                                                        \
    T##N r = __builtin_elementwise_pow(x, y);                                              \
    return (y == (T##N)0 || x == (T##N)1) ? (T##N)1 : r;                                   \
  }
FOR_DH_TYPES(FP_WIDTHS, DEF_POW)
/* (half fma and mad are below: llvm.fma.f16 is a float fma rounded twice) */
FOR_FD_TYPES(FP_WIDTHS, DEF_ELT3, fma, fma)
FOR_FD_TYPES(FP_WIDTHS, DEF_ELT3, mad, fma) /* mad: any precision; fma is as fast here and exact */

/* fmin/fmax: llvm.minnum/maxnum (a NaN operand is ignored), also with a
 * scalar second operand for vectors. */
#define DEF_FMINMAX(T, IT, UT, N, L, K)                                                  \
  OVLD T##N fmin(T##N x, T##N y)                                                           \
  {                                                                                        \
    return EMIN(x, y);                                                                     \
  }                                                                                        \
  OVLD T##N fmax(T##N x, T##N y)                                                           \
  {                                                                                        \
    return EMAX(x, y);                                                                     \
  }
FOR_FP_TYPES(FP_WIDTHS, DEF_FMINMAX)
#define DEF_FMINMAX_S(T, IT, UT, N, L, K)                                                \
  OVLD T##N fmin(T##N x, T y)                                                              \
  {                                                                                        \
    return EMIN(x, (T##N)y);                                                               \
  }                                                                                        \
  OVLD T##N fmax(T##N x, T y)                                                              \
  {                                                                                        \
    return EMAX(x, (T##N)y);                                                               \
  }
FOR_FP_TYPES(FP_VWIDTHS, DEF_FMINMAX_S)

/* ------------------------------------------------------------------------ */
/* Plain vector code.                                                       */

#define DEF_RSQRT(T, IT, UT, N, L, K)                                                    \
  OVLD T##N rsqrt(T##N x)                                                                  \
  {                                                                                        \
    return (T##N)1 / __builtin_elementwise_sqrt(x);                                        \
  }
FOR_FD_TYPES(FP_WIDTHS, DEF_RSQRT) /* half: through float, below */
#define DEF_VECCODE(T, IT, UT, N, L, K)                                                  \
  OVLD T##N fdim(T##N x, T##N y)                                                           \
  {                                                                                        \
    T##N r = x > y ? x - y : (T##N)0;                                                      \
    return (x != x || y != y) ? x + y : r; /* NaN in, NaN out */                           \
  }                                                                                        \
  OVLD T##N maxmag(T##N x, T##N y)                                                         \
  {                                                                                        \
    T##N ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);             \
    return ax > ay ? x : ay > ax ? y : EMAX(x, y);                                         \
  }                                                                                        \
  OVLD T##N minmag(T##N x, T##N y)                                                         \
  {                                                                                        \
    T##N ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);             \
    return ax < ay ? x : ay < ax ? y : EMIN(x, y);                                         \
  }
FOR_FP_TYPES(FP_WIDTHS, DEF_VECCODE)

/* nan(nancode): a quiet NaN carrying the code in its significand. */
#define DEF_NAN(T, UT, QNAN, N, L, K)                                                    \
  OVLD T##N nan(UT##N code)                                                                \
  {                                                                                        \
    return __builtin_astype((UT##N)(code | (UT##N)(QNAN)), T##N);                          \
  }
#define NAN_WIDTHS(DEF, ...) FOR_WIDTHS(DEF, __VA_ARGS__)
NAN_WIDTHS(DEF_NAN, float, uint, 0x7fc00000U)
NAN_WIDTHS(DEF_NAN, double, ulong, 0x7ff8000000000000UL)
#ifdef cl_khr_fp16
NAN_WIDTHS(DEF_NAN, half, ushort, (ushort)0x7e00)
#endif

/* exp10: llvm.exp10 (no elementwise builtin in clang 19); lanes. */
OVLD double exp10(double x)
{
  return __builtin_exp10(x);
}

/* ------------------------------------------------------------------------ */
/* Scalar implementations (float, double) of the lane-loop functions.       */

#define LIBM1(NAME)                                                                       \
  OVLD float NAME(float x)                                                                 \
  {                                                                                        \
    return __builtin_##NAME##f(x);                                                         \
  }                                                                                        \
  OVLD double NAME(double x)                                                               \
  {                                                                                        \
    return __builtin_##NAME(x);                                                            \
  }
#define LIBM2(NAME)                                                                       \
  OVLD float NAME(float x, float y)                                                        \
  {                                                                                        \
    return __builtin_##NAME##f(x, y);                                                      \
  }                                                                                        \
  OVLD double NAME(double x, double y)                                                     \
  {                                                                                        \
    return __builtin_##NAME(x, y);                                                         \
  }

OVLD double acosh(double x)
{
  return __builtin_acosh(x);
}
OVLD double asinh(double x)
{
  return __builtin_asinh(x);
}
OVLD double atanh(double x)
{
  return __builtin_atanh(x);
}
LIBM1(erf)
LIBM1(erfc)
OVLD double expm1(double x)
{
  return __builtin_expm1(x);
}
OVLD double log1p(double x)
{
  return __builtin_log1p(x);
}
LIBM1(tgamma)
LIBM1(lgamma)
OVLD double logb(double x)
{
  return __builtin_logb(x);
}
OVLD double atan2(double y, double x)
{
  return __builtin_atan2(y, x);
}
OVLD double hypot(double x, double y)
{
  return __builtin_hypot(x, y);
}
LIBM2(fmod)
LIBM2(remainder)
OVLD double nextafter(double x, double y)
{
  return __builtin_nextafter(x, y);
}

/* cbrt (double; float's is in math_f32.cl): glibc's double cbrt is off by
 * up to 3-4 ulp (the spec allows 2); one Newton step on r^3 = x, with the
 * residual r^3 - x computed exactly through fma, brings it under one.  Far
 * from 1 the argument is scaled by 2^(+-300) so that r^3 stays normal. */
OVLD double cbrt(double x)
{
  double r = __builtin_cbrt(x);
  if (r == 0.0 || !(__builtin_fabs(r) < INFINITY))
    return r;
  double ax = __builtin_fabs(x), s = 1.0;
  if (ax < 0x1p-900) {
    x *= 0x1p300;
    r *= 0x1p100;
    s = 0x1p-100;
  } else if (ax > 0x1p900) {
    x *= 0x1p-300;
    r *= 0x1p-100;
    s = 0x1p100;
  }
  double r2h = r * r, r2l = __builtin_fma(r, r, -r2h);
  double r3h = r2h * r, r3l = __builtin_fma(r2h, r, -r3h) + r2l * r;
  double e = (r3h - x) + r3l; /* r^3 - x */
  r -= e / (3.0 * r2h);
  return r * s;
}

/* float ilogb, logb, ldexp, nextafter: plain code through the double's
 * encoding (a float widened is never subnormal), no libm call, so the loop
 * vectorizer can widen them.  libm's FP_ILOGBNAN is INT_MIN, OpenCL's
 * INT_MAX. */
INLINE int float_exponent(float x)
{
  return (int)((as_ulong((double)x) >> 52) & 0x7ff) - 1023;
}
OVLD int ilogb(float x)
{
  int e = float_exponent(x);
  e = x == 0.0f ? FP_ILOGB0 : e;
  return __builtin_fabsf(x) == INFINITY || x != x ? FP_ILOGBNAN : e;
}
OVLD float logb(float x)
{
  float e = (float)float_exponent(x);
  e = x == 0.0f ? -INFINITY : e;
  return __builtin_fabsf(x) == INFINITY || x != x ? __builtin_fabsf(x) : e;
}
OVLD float ldexp(float x, int k)
{
  /* x 2^k is exact in double for |k| <= 300; beyond, the float result is
   * 0 or infinity anyway; one rounding to float */
  int kc = k < -300 ? -300 : k > 300 ? 300 : k;
  return (float)((double)x * as_double((ulong)(kc + 1023) << 52));
}
OVLD float nextafter(float x, float y)
{
  int b = as_int(x);
  int step = (x < y) == (x > 0.0f) ? 1 : -1;
  float r = as_float(b + step);
  r = x == 0.0f ? as_float((as_int(y) & (int)0x80000000) | 1) : r;
  r = x == y ? y : r;
  return x != x || y != y ? x + y : r;
}
OVLD int ilogb(double x)
{
  return x != x ? FP_ILOGBNAN : __builtin_ilogb(x);
}

OVLD double ldexp(double x, int k)
{
  return __builtin_ldexp(x, k);
}

/* ---- the pi family, in double (float rounds the double result once) ----
 * pi*a is carried as a double-double (hi + lo) so that the argument error
 * stays below half an ulp; the *pi functions reduce exactly first. */
#define PI_HI 0x1.921fb54442d18p+1
#define PI_LO 0x1.1a62633145c07p-53

/* sin(pi*a) for a in [0, 0.5] */
INLINE double sinpi_core(double a)
{
  if (a <= 0.25) {
    double hi = PI_HI * a;
    double lo = __builtin_fma(PI_HI, a, -hi) + PI_LO * a;
    return __builtin_sin(hi) + __builtin_cos(hi) * lo;
  }
  double t = 0.5 - a; /* exact */
  double hi = PI_HI * t;
  double lo = __builtin_fma(PI_HI, t, -hi) + PI_LO * t;
  return __builtin_cos(hi) - __builtin_sin(hi) * lo;
}

/* tan(pi*a) for a in [0, 0.25] */
INLINE double tanpi_core(double a)
{
  double hi = PI_HI * a;
  double lo = __builtin_fma(PI_HI, a, -hi) + PI_LO * a;
  double t = __builtin_tan(hi);
  return t + lo * (1.0 + t * t);
}

OVLD double sinpi(double x)
{
  double r = x - 2.0 * __builtin_rint(x * 0.5); /* [-1, 1], exact; NaN for inf */
  double a = __builtin_fabs(r);
  if (a > 0.5)
    a = 1.0 - a;
  if (a == 0.0)
    return __builtin_copysign(0.0, x); /* sinpi(n) = +-0 with the sign of n */
  return __builtin_copysign(sinpi_core(a), r);
}

OVLD double cospi(double x)
{
  double r = x - 2.0 * __builtin_rint(x * 0.5);
  double t = 0.5 - __builtin_fabs(r); /* cos(pi a) = sin(pi (0.5 - a)) */
  if (t == 0.0)
    return 0.0; /* cospi(n + 0.5) = +0 */
  return __builtin_copysign(sinpi_core(__builtin_fabs(t)), t);
}

OVLD double tanpi(double x)
{
  double k = __builtin_rint(x);
  double r = x - k; /* [-0.5, 0.5], exact; NaN for inf */
  double a = __builtin_fabs(r);
  if (r == 0.0) {
    bool odd = __builtin_fmod(k, 2.0) != 0.0;
    return odd ? __builtin_copysign(0.0, -x) : __builtin_copysign(0.0, x);
  }
  if (a == 0.5) {
    bool odd = __builtin_fmod(__builtin_floor(x), 2.0) != 0.0;
    return odd ? -INFINITY : INFINITY;
  }
  double t = a <= 0.25 ? tanpi_core(a) : 1.0 / tanpi_core(0.5 - a);
  return __builtin_copysign(t, r);
}

OVLD double asinpi(double x)
{
  return __builtin_asin(x) * M_1_PI;
}
OVLD double acospi(double x)
{
  return __builtin_acos(x) * M_1_PI;
}
OVLD double atanpi(double x)
{
  return __builtin_atan(x) * M_1_PI;
}
OVLD double atan2pi(double y, double x)
{
  return __builtin_atan2(y, x) * M_1_PI;
}

#define VIA_DOUBLE1(NAME)                                                                 \
  OVLD float NAME(float x)                                                                 \
  {                                                                                        \
    return (float)NAME((double)x);                                                         \
  }

/* ---- pown, rootn, powr ---- */
/* pown(x, 0) is 1 for any x */
OVLD double pown(double x, int n)
{
  return n == 0 ? 1.0 : __builtin_pow(x, (double)n);
}
OVLD float pown(float x, int n)
{
  return n == 0 ? 1.0f : (float)__builtin_pow((double)x, (double)n);
}

/* rootn(x, n) = x^(1/n).  1/n is split as hi + lo; pow(x, hi) is corrected
 * by the factor x^lo = 1 + lo*log(x). */
OVLD double rootn(double x, int n)
{
  if (n == 0 || (x < 0.0 && (n & 1) == 0))
    return NAN;
  double ax = __builtin_fabs(x);
  double dn = (double)n;
  double hi = 1.0 / dn;
  double lo = __builtin_fma(-hi, dn, 1.0) / dn;
  double p = __builtin_pow(ax, hi);
  if (p != 0.0 && p < INFINITY && ax != 1.0)
    p = __builtin_fma(p * lo, __builtin_log(ax), p);
  return (n & 1) ? __builtin_copysign(p, x) : p;
}
OVLD float rootn(float x, int n)
{
  if (n == 0 || (x < 0.0f && (n & 1) == 0))
    return NAN;
  double p = __builtin_pow(__builtin_fabs((double)x), 1.0 / (double)n);
  return (float)((n & 1) ? __builtin_copysign(p, (double)x) : p);
}

/* powr: pow for x >= 0 with its own special cases (spec 7.5.1). */
#define DEF_POWR(T)                                                                       \
  OVLD T powr(T x, T y)                                                                    \
  {                                                                                        \
    if (x < (T)0 || x != x || y != y)                                                      \
      return (T)NAN;                                                                       \
    if (x == (T)0 && y == (T)0)                                                            \
      return (T)NAN;                                                                       \
    if (x == (T)INFINITY && y == (T)0)                                                     \
      return (T)NAN;                                                                       \
    if (x == (T)1 && __builtin_fabs((double)y) == INFINITY)                                \
      return (T)NAN;                                                                       \
    return pow(__builtin_elementwise_abs(x), y);                                           \
  }
DEF_POWR(float)
DEF_POWR(double)

/* ------------------------------------------------------------------------ */
/* half scalars through float.                                              */
#ifdef cl_khr_fp16
/* Every other half function is computed in float (vector code for most)
 * and rounded once: the float results are within a few float ulps, far
 * inside the half bounds (and +, -, *, /, sqrt rounded twice, float then
 * half, are still correctly rounded: 24 >= 2 * 11 + 2 bits). */
#define DEF_HF1(NAME, N, L, K)                                                            \
  OVLD half##N NAME(half##N x)                                                             \
  {                                                                                        \
    return CVT_##K(NAME(CVT_##K(x, float##N)), half##N);                                   \
  }
#define DEF_HF2(NAME, N, L, K)                                                            \
  OVLD half##N NAME(half##N x, half##N y)                                                  \
  {                                                                                        \
    return CVT_##K(NAME(CVT_##K(x, float##N), CVT_##K(y, float##N)), half##N);             \
  }
#define HF1(NAME) FOR_WIDTHS(DEF_HF1, NAME)
#define HF2(NAME) FOR_WIDTHS(DEF_HF2, NAME)
HF1(sin)
HF1(cos)
HF1(tan)
HF1(asin)
HF1(acos)
HF1(atan)
HF1(sinh)
HF1(cosh)
HF1(tanh)
HF1(exp)
HF1(exp2)
HF1(exp10)
HF1(expm1)
HF1(log)
HF1(log2)
HF1(log10)
HF1(log1p)
HF1(acosh)
HF1(asinh)
HF1(atanh)
HF1(cbrt)
HF1(erf)
HF1(erfc)
HF1(tgamma)
HF1(lgamma)
HF1(logb)
HF1(sinpi)
HF1(cospi)
HF1(tanpi)
HF1(asinpi)
HF1(acospi)
HF1(atanpi)
HF1(rsqrt)
HF2(pow)
HF2(powr)
HF2(atan2)
HF2(atan2pi)
HF2(hypot)
HF2(fmod)
HF2(remainder)

/* fma: a*b is exact in double (22 bits) and a*b + c rounded to double is
 * never a half midpoint it was not before; rounding that to float *to odd*
 * keeps the sticky bit, so the final float -> half rounding is the one
 * correct rounding (float has more than 11 + 2 bits).  Vector code, no
 * libcall: the double -> float step is the CPU's, the odd fix-up integer
 * code. */
#define DEF_HFMA(UNUSED, N, L, K)                                                         \
  OVLD half##N fma(half##N a, half##N b, half##N c)                                        \
  {                                                                                        \
    double##N d = CVT_##K(a, double##N) * CVT_##K(b, double##N) + CVT_##K(c, double##N);   \
    float##N f = CVT_##K(d, float##N);                                                     \
    uint##N u = __builtin_astype(f, uint##N);                                              \
    double##N fd = CVT_##K(f, double##N);                                                  \
    /* inexact with an even last bit: the odd neighbour on d's side */                     \
    uint##N away = CVT_##K(__builtin_elementwise_abs(d) > __builtin_elementwise_abs(fd), uint##N); \
    uint##N fix = CVT_##K(fd != d, uint##N) & CVT_##K((u & (uint##N)1) == (uint##N)0, uint##N); \
    u = fix ? (away ? u + (uint##N)1 : u - (uint##N)1) : u;                                \
    return CVT_##K(__builtin_astype(u, float##N), half##N);                                \
  }                                                                                        \
  /* mad: a correctly rounded multiply, then a correctly rounded add */                    \
  OVLD half##N mad(half##N a, half##N b, half##N c)                                        \
  {                                                                                        \
    half##N p = a * b;                                                                     \
    return p + c;                                                                          \
  }
FOR_WIDTHS(DEF_HFMA, 0)

OVLD half nextafter(half x, half y)
{
  /* one step in the half encoding */
  if (x != x || y != y)
    return x + y;
  if (x == y)
    return y;
  short b = as_short(x);
  if (x == (half)0)
    return as_half((short)((as_short(y) & (short)0x8000) | 1));
  b += ((x < y) == (x > (half)0)) ? 1 : -1;
  return as_half(b);
}
OVLD int ilogb(half x)
{
  return ilogb((float)x);
}
OVLD half ldexp(half x, int k)
{
  return (half)ldexp((float)x, k);
}
OVLD half pown(half x, int n)
{
  return (half)pown((float)x, n);
}
OVLD half rootn(half x, int n)
{
  return (half)rootn((float)x, n);
}
#endif

/* ------------------------------------------------------------------------ */
/* Vector versions by lane loops over the scalar overloads above.          */

#define DEF_LANE1(NAME, T, IT, UT, N, L, K)                                              \
  OVLD T##N NAME(T##N x)                                                                   \
  {                                                                                        \
    return MAP1_V(L, T##N, NAME, x);                                                       \
  }
#define DEF_LANE2(NAME, T, IT, UT, N, L, K)                                              \
  OVLD T##N NAME(T##N x, T##N y)                                                           \
  {                                                                                        \
    return MAP2_V(L, T##N, NAME, x, y);                                                    \
  }
#define LANE1(NAME) FOR_FP_TYPES(FP_VWIDTHS, DEF_LANE1, NAME)
#define LANE1_DH(NAME) FOR_DH_TYPES(FP_VWIDTHS, DEF_LANE1, NAME)
#define LANE2(NAME) FOR_FP_TYPES(FP_VWIDTHS, DEF_LANE2, NAME)
#define LANE2_DH(NAME) FOR_DH_TYPES(FP_VWIDTHS, DEF_LANE2, NAME)
#define LANE1_FD(NAME) FOR_FD_TYPES(FP_VWIDTHS, DEF_LANE1, NAME)
#define LANE2_FD(NAME) FOR_FD_TYPES(FP_VWIDTHS, DEF_LANE2, NAME)

LANE1_DH(acosh)
LANE1_DH(asinh)
LANE1_DH(atanh)
LANE1_DH(cbrt)
LANE1_FD(erf)
LANE1_FD(erfc)
LANE1_DH(expm1)
LANE1_DH(log1p)
LANE1_FD(tgamma)
LANE1_FD(lgamma)
LANE1_FD(logb)
LANE1_DH(exp10)
LANE1_DH(sinpi)
LANE1_DH(cospi)
LANE1_DH(tanpi)
LANE1_DH(asinpi)
LANE1_DH(acospi)
LANE1_DH(atanpi)
LANE2_DH(atan2)
LANE2_DH(atan2pi)
LANE2_DH(hypot)
LANE2_FD(fmod)
LANE2_FD(remainder)
LANE2(nextafter)
LANE2_FD(powr)

#define DEF_LANE_INT(T, IT, UT, N, L, K)                                                 \
  OVLD int##N ilogb(T##N x)                                                                \
  {                                                                                        \
    return MAP1_V(L, int##N, ilogb, x);                                                    \
  }                                                                                        \
  OVLD T##N ldexp(T##N x, int##N k)                                                        \
  {                                                                                        \
    return MAP2_V(L, T##N, ldexp, x, k);                                                   \
  }                                                                                        \
  OVLD T##N ldexp(T##N x, int k)                                                           \
  {                                                                                        \
    int##N kv = (int##N)k;                                                                 \
    return MAP2_V(L, T##N, ldexp, x, kv);                                                  \
  }                                                                                        \
  OVLD T##N pown(T##N x, int##N n)                                                         \
  {                                                                                        \
    return MAP2_V(L, T##N, pown, x, n);                                                    \
  }                                                                                        \
  OVLD T##N rootn(T##N x, int##N n)                                                        \
  {                                                                                        \
    return MAP2_V(L, T##N, rootn, x, n);                                                   \
  }
FOR_FP_TYPES(FP_VWIDTHS, DEF_LANE_INT)

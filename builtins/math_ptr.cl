/* Math built-ins with a pointer argument: fract, modf, sincos (vector code),
 * frexp, lgamma_r, remquo (lane loops).  The __generic overload does the
 * work; the __global, __local and __private overloads that CL1.2 kernels
 * call forward to it.
 *
 * remquo returns the low seven bits of the quotient (the spec asks for
 * seven; glibc's remquo gives only three), computed from the exact
 * remainder and fmod(x, 128*y).
 */

#include "lanecl_builtins.h"

#define FP_WIDTHS(DEF, ...) FOR_WIDTHS(DEF, __VA_ARGS__)
#define FP_VWIDTHS(DEF, ...) FOR_VWIDTHS(DEF, __VA_ARGS__)

/* glibc's lgamma_r (its own name is the OpenCL overload's, hence the label);
 * float goes through it too, rounded once */
double libm_lgamma_r(double x, int *signp) __asm__("lgamma_r");

/* ---- scalar helpers (private pointers) ---- */
INLINE double remquo_d(double x, double y, int *q)
{
  double r = __builtin_remainder(x, y);
  if (r != r) {
    *q = 0;
    return r;
  }
  double ay = __builtin_fabs(y);
  double xr = ay <= 0x1p1016 ? __builtin_fmod(x, 128.0 * ay) : x; /* exact, |xr| < 128|y| */
  double k = __builtin_rint((xr - r) / y);                         /* = quotient mod 128 */
  int mag = (int)__builtin_fabs(k) & 127;
  *q = k < 0.0 ? -mag : mag;
  return r;
}

INLINE OVLD double frexp_1(double x, int *e)
{
  return __builtin_frexp(x, e);
}
INLINE OVLD float frexp_1(float x, int *e)
{
  /* through the double's encoding (no call: the loop vectorizer widens it) */
  ulong b = as_ulong((double)x);
  int ex = (int)((b >> 52) & 0x7ff) - 1022;
  float m = (float)as_double((b & 0x800fffffffffffffUL) | 0x3fe0000000000000UL);
  int special = x == 0.0f || __builtin_fabsf(x) == INFINITY || x != x;
  *e = special ? 0 : ex;
  return special ? x : m;
}
INLINE OVLD double lgamma_r_1(double x, int *s)
{
  return libm_lgamma_r(x, s);
}
INLINE OVLD float lgamma_r_1(float x, int *s)
{
  return (float)libm_lgamma_r((double)x, s);
}
INLINE OVLD double remquo_1(double x, double y, int *q)
{
  return remquo_d(x, y, q);
}
INLINE OVLD float remquo_1(float x, float y, int *q)
{
  return (float)remquo_d((double)x, (double)y, q);
}
#ifdef cl_khr_fp16
INLINE OVLD half frexp_1(half x, int *e)
{
  return (half)__builtin_frexpf((float)x, e);
}
INLINE OVLD half lgamma_r_1(half x, int *s)
{
  return (half)libm_lgamma_r((double)x, s);
}
INLINE OVLD half remquo_1(half x, half y, int *q)
{
  return (half)remquo_d((double)x, (double)y, q);
}
#endif

/* fract's largest result: the float just below 1 */
#define FRACT_MAX_float 0x1.fffffep-1f
#define FRACT_MAX_double 0x1.fffffffffffffp-1
#define FRACT_MAX_half 0x1.ffcp-1h

/* ---- the __generic overloads ---- */
#define DEF_PTRFN_GENERIC(T, IT, UT, N, L, K)                                            \
  OVLD T##N fract(T##N x, __generic T##N *iptr)                                            \
  {                                                                                        \
    T##N fl = __builtin_elementwise_floor(x);                                              \
    T##N r = EMIN(x - fl, (T##N)FRACT_MAX_##T);                                            \
    T##N zero = __builtin_elementwise_copysign((T##N)0, x);                                \
    r = (x == (T##N)0 || __builtin_elementwise_abs(x) == (T##N)INFINITY) ? zero : r;       \
    r = x != x ? x : r;                                                                    \
    *iptr = fl;                                                                            \
    return r;                                                                              \
  }                                                                                        \
  OVLD T##N modf(T##N x, __generic T##N *iptr)                                             \
  {                                                                                        \
    T##N i = __builtin_elementwise_trunc(x);                                               \
    T##N f = __builtin_elementwise_abs(x) == (T##N)INFINITY ? (T##N)0 : x - i;             \
    *iptr = i;                                                                             \
    return __builtin_elementwise_copysign(f, x);                                           \
  }                                                                                        \
  OVLD T##N sincos(T##N x, __generic T##N *cosval)                                         \
  {                                                                                        \
    *cosval = cos(x);                                                                      \
    return sin(x);                                                                         \
  }                                                                                        \
  OVLD T##N frexp(T##N x, __generic int##N *e)                                             \
  {                                                                                        \
    T##N r;                                                                                \
    int##N ev;                                                                             \
    LANES3(L, r, ev, frexp_1(x_[i_], &t_), x);                                             \
    *e = ev;                                                                               \
    return r;                                                                              \
  }                                                                                        \
  OVLD T##N lgamma_r(T##N x, __generic int##N *signp)                                      \
  {                                                                                        \
    T##N r;                                                                                \
    int##N sv;                                                                             \
    LANES3(L, r, sv, lgamma_r_1(x_[i_], &t_), x);                                          \
    *signp = sv;                                                                           \
    return r;                                                                              \
  }                                                                                        \
  OVLD T##N remquo(T##N x, T##N y, __generic int##N *quo)                                  \
  {                                                                                        \
    T##N r;                                                                                \
    int##N qv;                                                                             \
    T##N yv = y;                                                                           \
    LANES3(L, r, qv, remquo_1(x_[i_], LANE(L, yv), &t_), x);                               \
    *quo = qv;                                                                             \
    return r;                                                                              \
  }

/* LANES3: for each lane, run EXPR (which reads x_[i_] and writes int t_),
 * storing the value into R and t_ into IV; scalars are one lane. */
#define LANE(L, v) LANE_##L(v)
#define LANE_1(v) (v)
#define LANE_2(v) (v)[i_]
#define LANE_3(v) (v)[i_]
#define LANE_4(v) (v)[i_]
#define LANE_8(v) (v)[i_]
#define LANE_16(v) (v)[i_]
#define LANES3(L, R, IV, EXPR, X) LANES3_##L(L, R, IV, EXPR, X)
#define LANES3_1(L, R, IV, EXPR, X)                                                       \
  do {                                                                                     \
    int t_;                                                                                \
    __typeof__(X) x_[1] = {X};                                                             \
    int i_ = 0;                                                                            \
    (void)i_;                                                                              \
    R = EXPR;                                                                              \
    IV = t_;                                                                               \
  } while (0)
#define LANES3_V(L, R, IV, EXPR, X)                                                       \
  do {                                                                                     \
    __typeof__(X) x_ = X;                                                                  \
    for (int i_ = 0; i_ < L; ++i_) {                                                       \
      int t_;                                                                              \
      R[i_] = EXPR;                                                                        \
      IV[i_] = t_;                                                                         \
    }                                                                                      \
  } while (0)
#define LANES3_2 LANES3_V
#define LANES3_3 LANES3_V
#define LANES3_4 LANES3_V
#define LANES3_8 LANES3_V
#define LANES3_16 LANES3_V

FOR_FP_TYPES(FP_WIDTHS, DEF_PTRFN_GENERIC)

/* ---- named address spaces forward to the generic overloads ---- */
#define DEF_PTRFN_NAMED(T, IT, UT, N, L, K, AS)                                          \
  OVLD T##N fract(T##N x, AS T##N *iptr)                                                   \
  {                                                                                        \
    return fract(x, (__generic T##N *)iptr);                                               \
  }                                                                                        \
  OVLD T##N modf(T##N x, AS T##N *iptr)                                                    \
  {                                                                                        \
    return modf(x, (__generic T##N *)iptr);                                                \
  }                                                                                        \
  OVLD T##N sincos(T##N x, AS T##N *cosval)                                                \
  {                                                                                        \
    return sincos(x, (__generic T##N *)cosval);                                            \
  }                                                                                        \
  OVLD T##N frexp(T##N x, AS int##N *e)                                                    \
  {                                                                                        \
    return frexp(x, (__generic int##N *)e);                                                \
  }                                                                                        \
  OVLD T##N lgamma_r(T##N x, AS int##N *signp)                                             \
  {                                                                                        \
    return lgamma_r(x, (__generic int##N *)signp);                                         \
  }                                                                                        \
  OVLD T##N remquo(T##N x, T##N y, AS int##N *quo)                                         \
  {                                                                                        \
    return remquo(x, y, (__generic int##N *)quo);                                          \
  }
#define NAMED_AS(DEF, T, IT, UT, N, L, K)                                                \
  DEF(T, IT, UT, N, L, K, __global) DEF(T, IT, UT, N, L, K, __local)                      \
  DEF(T, IT, UT, N, L, K, __private)
#define FP_WIDTHS_AS(DEF, T, IT, UT) FOR_WIDTHS(NAMED_AS, DEF, T, IT, UT)
FOR_FP_TYPES(FP_WIDTHS_AS, DEF_PTRFN_NAMED)

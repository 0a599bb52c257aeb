/* Vector single-precision transcendentals: exp exp2 exp10 expm1 log log2 log10
 * log1p sin cos tan sinpi cospi tanpi sinh cosh tanh pow asin acos atan atan2
 * asinpi acospi atanpi atan2pi asinh acosh atanh cbrt hypot, scalar and every
 * width, with no libm call.
 *
 * Each is computed in double precision on double##N vectors (a float16 is
 * two 512-bit halves) with short Taylor/series polynomials whose error
 * (below 1e-13 relative) vanishes when the double is rounded once to float;
 * the results stay within an ulp or two of the exact value, well inside the
 * spec's bounds (exp 3, log 3, sin/cos 4, tan 5, pow 16 ulp).
 *
 * No calls and no branches: the compiler inlines the scalar versions into
 * the work-item loop and LLVM's loop vectorizer widens them, which a call
 * (even a conditional one, which it would speculate) defeats.  So the rare
 * inputs are handled inline too: sin/cos/tan arguments of 2^20 and more are
 * reduced Payne-Hanek style (the 24-bit significand times a 128-bit window
 * of 2/pi in integer arithmetic), and pow's special cases are selects.
 * The scalar versions run the same code, so results do not depend on how the
 * kernel was vectorized.
 */

#include "lanecl_builtins.h"

#define LN2 0x1.62e42fefa39efp-1
#define LOG2E 0x1.71547652b82fep+0
#define LOG2_10 0x1.a934f0979a371p+1
#define LOG10_2 0x1.34413509f79ffp-2
#define LOG10_E 0x1.bcb7b1526e50ep-2
#define SQRT2 0x1.6a09e667f3bcdp+0
#define TWO_OVER_PI 0x1.45f306dc9c883p-1
#define PIO2_1 0x1.921fb544p+0          /* pi/2, 33 bits: k * PIO2_1 is exact for |k| < 2^20 */
#define PIO2_1T 0x1.0b4611a626331p-34   /* pi/2 - PIO2_1 */
#define PI_D 0x1.921fb54442d18p+1

#define FMA(a, b, c) __builtin_elementwise_fma(a, b, c)

/* Vector ?: selects by each condition lane's sign bit: conditions here are
 * always comparisons (-1/0), never plain integers. */

/* ---- double##N kernels (D: the double vector type, LT: same-size long) ---- */

/* 2^t, t clamped to [-200, 200] (far beyond float's range either way) */
#define EXP2_D(D, LT, K, tin)                                                             \
  ({                                                                                       \
    D t_ = (tin);                                                                          \
    t_ = t_ > (D)200 ? (D)200 : t_;                                                        \
    t_ = t_ < (D)-200 ? (D)-200 : t_;                                                      \
    D n_ = __builtin_elementwise_rint(t_);                                                 \
    D u_ = (t_ - n_) * (D)LN2; /* |u| <= ln2/2 */                                          \
    D p_ = (D)(1.0 / 479001600);                                                           \
    p_ = FMA(p_, u_, (D)(1.0 / 39916800));                                                 \
    p_ = FMA(p_, u_, (D)(1.0 / 3628800));                                                  \
    p_ = FMA(p_, u_, (D)(1.0 / 362880));                                                   \
    p_ = FMA(p_, u_, (D)(1.0 / 40320));                                                    \
    p_ = FMA(p_, u_, (D)(1.0 / 5040));                                                     \
    p_ = FMA(p_, u_, (D)(1.0 / 720));                                                      \
    p_ = FMA(p_, u_, (D)(1.0 / 120));                                                      \
    p_ = FMA(p_, u_, (D)(1.0 / 24));                                                       \
    p_ = FMA(p_, u_, (D)(1.0 / 6));                                                        \
    p_ = FMA(p_, u_, (D)0.5);                                                              \
    p_ = FMA(p_, u_, (D)1);                                                                \
    p_ = FMA(p_, u_, (D)1);                                                                \
    D ns_ = n_ == n_ ? n_ : (D)0; /* NaN lanes: any exponent, p_ is NaN */                 \
    LT e_ = (CVT_##K(ns_, LT) + (LT)1023) << 52;                                           \
    p_ * __builtin_astype(e_, D);                                                          \
  })

/* log(d) for finite d > 0 (a float widened: never subnormal as a double) */
#define LOG_D(D, LT, ULT, K, din)                                                         \
  ({                                                                                       \
    ULT b_ = __builtin_astype((din), ULT);                                                 \
    LT e_ = CVT_##K((b_ >> 52) & (ULT)0x7ff, LT) - (LT)1023;                               \
    D m_ = __builtin_astype((b_ & (ULT)0x000fffffffffffffUL) | (ULT)0x3ff0000000000000UL, D); \
    LT big_ = m_ > (D)SQRT2; /* -1 or 0 (1 for scalars) */                                 \
    m_ = big_ ? m_ * (D)0.5 : m_;                                                          \
    e_ = big_ ? e_ + (LT)1 : e_;                                                           \
    D s_ = (m_ - (D)1) / (m_ + (D)1); /* |s| <= 0.1716 */                                  \
    D s2_ = s_ * s_;                                                                       \
    D p_ = (D)(1.0 / 15);                                                                  \
    p_ = FMA(p_, s2_, (D)(1.0 / 13));                                                      \
    p_ = FMA(p_, s2_, (D)(1.0 / 11));                                                      \
    p_ = FMA(p_, s2_, (D)(1.0 / 9));                                                       \
    p_ = FMA(p_, s2_, (D)(1.0 / 7));                                                       \
    p_ = FMA(p_, s2_, (D)(1.0 / 5));                                                       \
    p_ = FMA(p_, s2_, (D)(1.0 / 3));                                                       \
    p_ = FMA(p_, s2_, (D)1);                                                               \
    FMA(CVT_##K(e_, D), (D)LN2, (D)2 * s_ * p_);                                           \
  })

/* sin(r), cos(r) for |r| <= pi/4 */
#define SIN_POLY(D, r)                                                                     \
  ({                                                                                       \
    D r2_ = (r) * (r);                                                                     \
    D p_ = (D)(1.0 / 6227020800);                                                          \
    p_ = FMA(p_, r2_, (D)(-1.0 / 39916800));                                               \
    p_ = FMA(p_, r2_, (D)(1.0 / 362880));                                                  \
    p_ = FMA(p_, r2_, (D)(-1.0 / 5040));                                                   \
    p_ = FMA(p_, r2_, (D)(1.0 / 120));                                                     \
    p_ = FMA(p_, r2_, (D)(-1.0 / 6));                                                      \
    FMA((r) * r2_, p_, (r));                                                               \
  })
#define COS_POLY(D, r)                                                                     \
  ({                                                                                       \
    D r2_ = (r) * (r);                                                                     \
    D p_ = (D)(-1.0 / 87178291200);                                                        \
    p_ = FMA(p_, r2_, (D)(1.0 / 479001600));                                               \
    p_ = FMA(p_, r2_, (D)(-1.0 / 3628800));                                                \
    p_ = FMA(p_, r2_, (D)(1.0 / 40320));                                                   \
    p_ = FMA(p_, r2_, (D)(-1.0 / 720));                                                    \
    p_ = FMA(p_, r2_, (D)(1.0 / 24));                                                      \
    p_ = FMA(p_, r2_, (D)-0.5);                                                            \
    FMA(p_, r2_, (D)1);                                                                    \
  })

/* 2/pi in binary after five zero bits: bit p of the stream (MSB of word 0
 * first) is b_(p-4) of 2/pi = 0.b_1 b_2 ... (b_i = 0 for i < 1) */
#define TOP_W0 0x0517cc1bUL
#define TOP_W1 0x727220a9UL
#define TOP_W2 0x4fe13abeUL
#define TOP_W3 0x8fa9a6eeUL
#define TOP_W4 0x06db14acUL
#define TOP_W5 0xc9e21c82UL
#define TOP_W6 0x0ff28b1dUL
#define TOP_W7 0x5ef5de2bUL
/* word j of the table, j in [J, J+3] picked by wi in [0, 3] (UT lanes) */
#define TOP_PICK(UT, wi, A, B, C, D)                                                       \
  ((wi) == (UT)0 ? (UT)(A) : (wi) == (UT)1 ? (UT)(B) : (wi) == (UT)2 ? (UT)(C) : (UT)(D))

/* sin/cos reduction: r = |x| - k*pi/2 in [-pi/4, pi/4] and q = k mod 4 (as
 * LT), then the signs of x applied (r negated, q to -q mod 4).  Below 2^20
 * Cody-Waite in double (k * PIO2_1 exact); from 2^20 on, Payne-Hanek:
 * |x| = m 2^s with m the 24-bit significand; the bits of 2/pi from
 * b_(s-1) on, as a 128-bit window W, give (|x| 2/pi) mod 4 = (m W mod 2^128)
 * / 2^126: two quadrant bits and a 64-bit fraction. */
#define TRIG_REDUCE(D, LT, UT, UIN, K, x, r, q)                                            \
  do {                                                                                     \
    D a_ = __builtin_elementwise_abs(CVT_##K(x, D));                                       \
    D k_ = __builtin_elementwise_rint(a_ * (D)TWO_OVER_PI);                                \
    k_ = k_ < (D)0x1p21 ? k_ : (D)0; /* the big lanes (and inf, NaN) use the other path */ \
    D rs_ = (a_ - k_ * (D)PIO2_1) - k_ * (D)PIO2_1T;                                       \
    LT qs_ = CVT_##K(k_, LT);                                                              \
    UT b_ = CVT_##K(__builtin_astype(x, UIN) & (UIN)0x7fffffffU, UT);               \
    UT m_ = (b_ & (UT)0x7fffff) | (UT)0x800000;                                            \
    LT s_ = CVT_##K(b_ >> 23, LT) - (LT)150;                                               \
    s_ = EMIN(EMAX(s_, (LT)-3), (LT)104);                                                  \
    UT p_ = CVT_##K(s_ + (LT)3, UT); /* b_(s-1) is stream bit s + 3 >= 0 */                 \
    UT wi_ = p_ >> 5, sh_ = p_ & (UT)31;                                                   \
    UT w0_ = TOP_PICK(UT, wi_, TOP_W0, TOP_W1, TOP_W2, TOP_W3);                            \
    UT w1_ = TOP_PICK(UT, wi_, TOP_W1, TOP_W2, TOP_W3, TOP_W4);                            \
    UT w2_ = TOP_PICK(UT, wi_, TOP_W2, TOP_W3, TOP_W4, TOP_W5);                            \
    UT w3_ = TOP_PICK(UT, wi_, TOP_W3, TOP_W4, TOP_W5, TOP_W6);                            \
    UT w4_ = TOP_PICK(UT, wi_, TOP_W4, TOP_W5, TOP_W6, TOP_W7);                            \
    UT A_ = (w0_ << 32) | w1_, B_ = (w2_ << 32) | w3_, C_ = w4_ << 32;                     \
    UT Whi_ = (A_ << sh_) | ((B_ >> 1) >> ((UT)63 - sh_));                                 \
    UT Wlo_ = (B_ << sh_) | ((C_ >> 1) >> ((UT)63 - sh_));                                 \
    /* m * W mod 2^128; m < 2^24 keeps the partial products below 2^57 */                  \
    UT hi_lo_ = (m_ * (Wlo_ >> 32) + ((m_ * (Wlo_ & (UT)0xffffffffUL)) >> 32)) >> 32;      \
    UT Plo_ = m_ * Wlo_, Phi_ = m_ * Whi_ + hi_lo_;                                        \
    UT F_ = (Phi_ << 2) | (Plo_ >> 62);                                                    \
    LT qb_ = CVT_##K((Phi_ >> 62) + (F_ >> 63), LT); /* round to the nearest quadrant */    \
    D rb_ = CVT_##K(__builtin_astype(F_, LT), D) * (D)(0x1p-64 * 0x1.921fb54442d18p+0);    \
    LT big_ = a_ >= (D)0x1p20;                                                             \
    D rr_ = big_ ? rb_ : rs_;                                                              \
    LT qq_ = big_ ? qb_ : qs_;                                                             \
    LT neg_ = CVT_##K(x, D) < (D)0;                                                        \
    r = neg_ ? -rr_ : rr_;                                                                 \
    q = (neg_ ? -qq_ : qq_) & (LT)3;                                                       \
  } while (0)

#define DEF_F32(UNUSED, N, L, K)                                                           \
  OVLD float##N exp2(float##N x)                                                           \
  {                                                                                        \
    return CVT_##K(EXP2_D(double##N, long##N, K, CVT_##K(x, double##N)), float##N);       \
  }                                                                                        \
  OVLD float##N exp(float##N x)                                                            \
  {                                                                                        \
    double##N t = CVT_##K(x, double##N) * (double##N)LOG2E;                                \
    return CVT_##K(EXP2_D(double##N, long##N, K, t), float##N);                            \
  }                                                                                        \
  OVLD float##N exp10(float##N x)                                                          \
  {                                                                                        \
    double##N t = CVT_##K(x, double##N) * (double##N)LOG2_10;                              \
    return CVT_##K(EXP2_D(double##N, long##N, K, t), float##N);                            \
  }                                                                                        \
  OVLD float##N expm1(float##N x)                                                          \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N);                                                   \
    double##N e = EXP2_D(double##N, long##N, K, d * (double##N)LOG2E) - (double##N)1;      \
    /* near 0 the difference cancels: the series instead */                               \
    double##N p = (double##N)(1.0 / 39916800);                                             \
    p = FMA(p, d, (double##N)(1.0 / 3628800));                                             \
    p = FMA(p, d, (double##N)(1.0 / 362880));                                              \
    p = FMA(p, d, (double##N)(1.0 / 40320));                                               \
    p = FMA(p, d, (double##N)(1.0 / 5040));                                                \
    p = FMA(p, d, (double##N)(1.0 / 720));                                                 \
    p = FMA(p, d, (double##N)(1.0 / 120));                                                 \
    p = FMA(p, d, (double##N)(1.0 / 24));                                                  \
    p = FMA(p, d, (double##N)(1.0 / 6));                                                   \
    p = FMA(p, d, (double##N)0.5);                                                         \
    p = FMA(p * d, d, d);                                                                  \
    double##N r = __builtin_elementwise_abs(d) < (double##N)0.25 ? p : e;                  \
    r = d == (double##N)0 ? d : r; /* keeps -0 */                                          \
    return CVT_##K(r, float##N);                                                           \
  }                                                                                        \
  OVLD float##N log(float##N x)                                                            \
  {                                                                                        \
    return LOGX_F(N, K, x, 1.0);                                                              \
  }                                                                                        \
  OVLD float##N log2(float##N x)                                                           \
  {                                                                                        \
    return LOGX_F(N, K, x, LOG2E);                                             \
  }                                                                                        \
  OVLD float##N log10(float##N x)                                                          \
  {                                                                                        \
    return LOGX_F(N, K, x, LOG10_E);                                           \
  }                                                                                        \
  OVLD float##N log1p(float##N x)                                                          \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N);                                                   \
    double##N u = d + (double##N)1;                                                        \
    double##N us = u > (double##N)0 && u < (double##N)INFINITY ? u : (double##N)1;         \
    double##N l = LOG_D(double##N, long##N, ulong##N, K, us);                              \
    /* near 0: x - x^2/2 + ... (1 + x would round) */                                      \
    double##N p = (double##N)(-1.0 / 8);                                                   \
    p = FMA(p, d, (double##N)(1.0 / 7));                                                   \
    p = FMA(p, d, (double##N)(-1.0 / 6));                                                  \
    p = FMA(p, d, (double##N)(1.0 / 5));                                                   \
    p = FMA(p, d, (double##N)(-1.0 / 4));                                                  \
    p = FMA(p, d, (double##N)(1.0 / 3));                                                   \
    p = FMA(p, d, (double##N)-0.5);                                                        \
    p = FMA(p * d, d, d);                                                                  \
    double##N r = __builtin_elementwise_abs(d) < (double##N)0x1p-10 ? p : l;               \
    r = u == (double##N)0 ? (double##N)(-INFINITY) : r;                                    \
    r = u < (double##N)0 || d != d ? (double##N)NAN : r;                                   \
    r = d == (double##N)INFINITY || d == (double##N)0 ? d : r; /* keeps -0 */              \
    return CVT_##K(r, float##N);                                                           \
  }                                                                                        \
  OVLD float##N sin(float##N x)                                                            \
  {                                                                                        \
    double##N r;                                                                           \
    long##N q;                                                                             \
    TRIG_REDUCE(double##N, long##N, ulong##N, uint##N, K, x, r, q);                        \
    double##N s = SIN_POLY(double##N, r), c = COS_POLY(double##N, r);                      \
    double##N v = (q & (long##N)1) != (long##N)0 ? c : s;                                  \
    v = (q & (long##N)2) != (long##N)0 ? -v : v;                                           \
    float##N res = CVT_##K(v, float##N);                                                   \
    res = x == (float##N)0 ? x : res; /* sin(-0) = -0 */                                   \
    return __builtin_elementwise_abs(x) == (float##N)INFINITY ? (float##N)NAN : res;       \
  }                                                                                        \
  OVLD float##N cos(float##N x)                                                            \
  {                                                                                        \
    double##N r;                                                                           \
    long##N q;                                                                             \
    TRIG_REDUCE(double##N, long##N, ulong##N, uint##N, K, x, r, q);                        \
    double##N s = SIN_POLY(double##N, r), c = COS_POLY(double##N, r);                      \
    double##N v = (q & (long##N)1) != (long##N)0 ? s : c;                                  \
    v = ((q + (long##N)1) & (long##N)2) != (long##N)0 ? -v : v;                            \
    float##N res = CVT_##K(v, float##N);                                                   \
    return __builtin_elementwise_abs(x) == (float##N)INFINITY ? (float##N)NAN : res;       \
  }                                                                                        \
  OVLD float##N tan(float##N x)                                                            \
  {                                                                                        \
    double##N r;                                                                           \
    long##N q;                                                                             \
    TRIG_REDUCE(double##N, long##N, ulong##N, uint##N, K, x, r, q);                        \
    double##N s = SIN_POLY(double##N, r), c = COS_POLY(double##N, r);                      \
    double##N v = (q & (long##N)1) != (long##N)0 ? -c / s : s / c;                         \
    float##N res = CVT_##K(v, float##N);                                                   \
    res = x == (float##N)0 ? x : res;                                                      \
    return __builtin_elementwise_abs(x) == (float##N)INFINITY ? (float##N)NAN : res;       \
  }                                                                                        \
  OVLD float##N sinpi(float##N x)                                                          \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N);                                                   \
    double##N r = d - (double##N)2 * __builtin_elementwise_rint(d * (double##N)0.5);       \
    double##N a = __builtin_elementwise_abs(r); /* sin(pi a) = sin(pi (1 - a)) */          \
    a = a > (double##N)0.5 ? (double##N)1 - a : a;                                         \
    double##N v = SINPI_CORE(double##N, a);                                                \
    v = __builtin_elementwise_copysign(v, r);                                              \
    v = a == (double##N)0 ? __builtin_elementwise_copysign((double##N)0, d) : v;           \
    return CVT_##K(v, float##N);                                                           \
  }                                                                                        \
  OVLD float##N cospi(float##N x)                                                          \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N);                                                   \
    double##N r = d - (double##N)2 * __builtin_elementwise_rint(d * (double##N)0.5);       \
    double##N t = (double##N)0.5 - __builtin_elementwise_abs(r); /* cos(pi a) = sin(pi t) */ \
    double##N v = SINPI_CORE(double##N, __builtin_elementwise_abs(t));                     \
    v = __builtin_elementwise_copysign(v, t);                                              \
    v = t == (double##N)0 ? (double##N)0 : v;                                              \
    return CVT_##K(v, float##N);                                                           \
  }                                                                                        \
  OVLD float##N sinh(float##N x)                                                           \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N), a = __builtin_elementwise_abs(d);                 \
    double##N e = EXP2_D(double##N, long##N, K, a * (double##N)LOG2E);                    \
    double##N v = (e - (double##N)1 / e) * (double##N)0.5;                                 \
    double##N a2 = d * d; /* small |x|: the series */                                      \
    double##N p = (double##N)(1.0 / 39916800);                                             \
    p = FMA(p, a2, (double##N)(1.0 / 362880));                                             \
    p = FMA(p, a2, (double##N)(1.0 / 5040));                                               \
    p = FMA(p, a2, (double##N)(1.0 / 120));                                                \
    p = FMA(p, a2, (double##N)(1.0 / 6));                                                  \
    p = FMA(p * a2, a, a);                                                                 \
    v = a < (double##N)0.25 ? p : v;                                                       \
    v = __builtin_elementwise_copysign(v, d);                                              \
    return CVT_##K(v, float##N);                                                           \
  }                                                                                        \
  OVLD float##N cosh(float##N x)                                                           \
  {                                                                                        \
    double##N a = __builtin_elementwise_abs(CVT_##K(x, double##N));                        \
    double##N e = EXP2_D(double##N, long##N, K, a * (double##N)LOG2E);                    \
    return CVT_##K((e + (double##N)1 / e) * (double##N)0.5, float##N);                     \
  }                                                                                        \
  OVLD float##N tanh(float##N x)                                                           \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N), a = __builtin_elementwise_abs(d);                 \
    double##N e = EXP2_D(double##N, long##N, K, a * (double##N)(2 * LOG2E));               \
    double##N v = (double##N)1 - (double##N)2 / (e + (double##N)1);                        \
    double##N a2 = d * d; /* small |x|: the series */                                      \
    double##N p = (double##N)(-1382.0 / 155925);                                           \
    p = FMA(p, a2, (double##N)(62.0 / 2835));                                              \
    p = FMA(p, a2, (double##N)(-17.0 / 315));                                              \
    p = FMA(p, a2, (double##N)(2.0 / 15));                                                 \
    p = FMA(p, a2, (double##N)(-1.0 / 3));                                                 \
    p = FMA(p * a2, a, a);                                                                 \
    v = a < (double##N)0.125 ? p : v;                                                      \
    v = __builtin_elementwise_copysign(v, d);                                              \
    return CVT_##K(v, float##N);                                                           \
  }                                                                                        \
  OVLD float##N pow(float##N x, float##N y)                                                \
  {                                                                                        \
    double##N dx = CVT_##K(x, double##N), dy = CVT_##K(y, double##N);                      \
    double##N ax = __builtin_elementwise_abs(dx);                                          \
    double##N sx = ax > (double##N)0 && ax < (double##N)INFINITY ? ax : (double##N)1;      \
    double##N l = LOG_D(double##N, long##N, ulong##N, K, sx) * (double##N)LOG2E;           \
    /* log2 |x| of 0 and infinity; y * that gives the right infinities */                  \
    l = ax == (double##N)0 ? (double##N)(-INFINITY) : l;                                   \
    l = ax == (double##N)INFINITY || ax != ax ? ax : l;                                    \
    double##N t = dy * l;                                                                  \
    double##N v = EXP2_D(double##N, long##N, K, t);                                       \
    /* y an integer, an odd one; negative x: odd y flips the sign, a */                    \
    /* non-integer y gives NaN (finite x) */                                               \
    long##N yint = __builtin_elementwise_rint(dy) == dy;                                   \
    double##N yc = __builtin_elementwise_abs(dy) < (double##N)0x1p53 ? dy : (double##N)0;  \
    long##N yodd = yint && (CVT_##K(yc, long##N) & (long##N)1) != (long##N)0;              \
    long##N xneg = __builtin_elementwise_copysign((double##N)1, dx) < (double##N)0;        \
    v = xneg && yodd ? -v : v;                                                             \
    v = dx < (double##N)0 && ax < (double##N)INFINITY && !yint ? (double##N)NAN : v;       \
    /* pow(+-1, +-inf) = 1; pow(x, +-0) = 1 and pow(1, y) = 1 even for NaNs */             \
    v = ax == (double##N)1 && __builtin_elementwise_abs(dy) == (double##N)INFINITY         \
            ? (double##N)1 : v;                                                            \
    v = dy == (double##N)0 || dx == (double##N)1 ? (double##N)1 : v;                       \
    return CVT_##K(v, float##N);                                                           \
  }

/* log family: log(x) times a factor (1: natural log), special cases */
#define LOGX_F(N, K, x, FACTOR)                                                            \
  ({                                                                                       \
    double##N d_ = CVT_##K(x, double##N);                                                  \
    double##N s_ = d_ > (double##N)0 && d_ < (double##N)INFINITY ? d_ : (double##N)1;      \
    double##N l_ = LOG_D(double##N, long##N, ulong##N, K, s_) * (double##N)(FACTOR);        \
    l_ = d_ == (double##N)0 ? (double##N)(-INFINITY) : l_;                                 \
    l_ = d_ < (double##N)0 || d_ != d_ ? (double##N)NAN : l_;                              \
    l_ = d_ == (double##N)INFINITY ? d_ : l_;                                              \
    CVT_##K(l_, float##N);                                                                 \
  })

/* sin(pi a) for a in [0, 0.5] */
#define SINPI_CORE(D, a)                                                                   \
  ({                                                                                       \
    D lo_ = (a) * (D)PI_D, hi_ = ((D)0.5 - (a)) * (D)PI_D;                                 \
    (a) <= (D)0.25 ? SIN_POLY(D, lo_) : COS_POLY(D, hi_);                                  \
  })

/* atan(t) for t >= 0 (infinity included): t > 1 through pi/2 - atan(1/t);
 * then t_j = tan(j pi/16) for the j nearest, atan(t) = j pi/16 + atan(u),
 * u = (t - t_j) / (1 + t t_j), |u| <= tan(pi/32), a short odd series. */
#define ATAN_D(D, tin)                                                                      \
  ({                                                                                       \
    D t_ = (tin);                                                                          \
    __typeof__(t_ > t_) inv_ = t_ > (D)1;                                                  \
    D tt_ = inv_ ? (D)1 / t_ : t_;                                                         \
    D j_ = (tt_ > (D)0x1.936bb8c5b2da2p-4 ? (D)1 : (D)0) +                                 \
           (tt_ > (D)0x1.36a08355c63dcp-2 ? (D)1 : (D)0) +                                 \
           (tt_ > (D)0x1.11ab7190834ebp-1 ? (D)1 : (D)0) +                                 \
           (tt_ > (D)0x1.a43002ae4284fp-1 ? (D)1 : (D)0);                                  \
    D tj_ = j_ == (D)1   ? (D)0x1.975f5e0553158p-3                                         \
            : j_ == (D)2 ? (D)0x1.a827999fcef32p-2                                         \
            : j_ == (D)3 ? (D)0x1.561b82ab7f990p-1                                         \
            : j_ == (D)4 ? (D)1                                                            \
                         : (D)0;                                                           \
    D u_ = (tt_ - tj_) / FMA(tt_, tj_, (D)1);                                              \
    D u2_ = u_ * u_;                                                                       \
    D p_ = (D)(-1.0 / 11);                                                                 \
    p_ = FMA(p_, u2_, (D)(1.0 / 9));                                                       \
    p_ = FMA(p_, u2_, (D)(-1.0 / 7));                                                      \
    p_ = FMA(p_, u2_, (D)(1.0 / 5));                                                       \
    p_ = FMA(p_, u2_, (D)(-1.0 / 3));                                                      \
    p_ = FMA(p_ * u2_, u_, u_);                                                            \
    D r_ = FMA(j_, (D)0x1.921fb54442d18p-3, p_);                                           \
    inv_ ? (D)0x1.921fb54442d18p+0 - r_ : r_;                                              \
  })

#define PI_OVER_2 0x1.921fb54442d18p+0
#define ONE_OVER_PI 0x1.45f306dc9c883p-2

#define DEF_F32_INV(UNUSED, N, L, K)                                                       \
  OVLD float##N atan(float##N x)                                                           \
  {                                                                                        \
    return CVT_##K(ATAN_F(N, K, x), float##N);                                                \
  }                                                                                        \
  OVLD float##N atanpi(float##N x)                                                         \
  {                                                                                        \
    return CVT_##K(ATAN_F(N, K, x) * (double##N)ONE_OVER_PI, float##N);                       \
  }                                                                                        \
  OVLD float##N atan2(float##N y, float##N x)                                              \
  {                                                                                        \
    return CVT_##K(ATAN2_F(N, K, y, x), float##N);                                         \
  }                                                                                        \
  OVLD float##N atan2pi(float##N y, float##N x)                                            \
  {                                                                                        \
    return CVT_##K(ATAN2_F(N, K, y, x) * (double##N)ONE_OVER_PI, float##N);                \
  }                                                                                        \
  OVLD float##N asin(float##N x)                                                           \
  {                                                                                        \
    return CVT_##K(ASIN_F(N, K, x), float##N);                                             \
  }                                                                                        \
  OVLD float##N asinpi(float##N x)                                                         \
  {                                                                                        \
    return CVT_##K(ASIN_F(N, K, x) * (double##N)ONE_OVER_PI, float##N);                    \
  }                                                                                        \
  OVLD float##N acos(float##N x)                                                           \
  {                                                                                        \
    return CVT_##K(ACOS_F(N, K, x), float##N);                                             \
  }                                                                                        \
  OVLD float##N acospi(float##N x)                                                         \
  {                                                                                        \
    return CVT_##K(ACOS_F(N, K, x) * (double##N)ONE_OVER_PI, float##N);                    \
  }                                                                                        \
  OVLD float##N asinh(float##N x)                                                          \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N), a = __builtin_elementwise_abs(d);                 \
    double##N w = a + __builtin_elementwise_sqrt(FMA(a, a, (double##N)1));                 \
    w = w < (double##N)INFINITY ? w : (double##N)1;                                        \
    double##N v = LOG_D(double##N, long##N, ulong##N, K, w);                               \
    double##N a2 = d * d; /* small |x|: the series */                                      \
    double##N p = (double##N)(-945.0 / 42240);                                             \
    p = FMA(p, a2, (double##N)(105.0 / 3456));                                             \
    p = FMA(p, a2, (double##N)(-15.0 / 336));                                              \
    p = FMA(p, a2, (double##N)(3.0 / 40));                                                 \
    p = FMA(p, a2, (double##N)(-1.0 / 6));                                                 \
    p = FMA(p * a2, a, a);                                                                 \
    v = a < (double##N)0.125 ? p : v;                                                      \
    v = a == (double##N)INFINITY || a != a ? a : v;                                        \
    return CVT_##K(__builtin_elementwise_copysign(v, d), float##N);                        \
  }                                                                                        \
  OVLD float##N acosh(float##N x)                                                          \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N);                                                   \
    double##N w = d + __builtin_elementwise_sqrt(FMA(d, d, (double##N)-1));                \
    double##N ws = w > (double##N)0 && w < (double##N)INFINITY ? w : (double##N)1;        \
    double##N v = LOG_D(double##N, long##N, ulong##N, K, ws);                              \
    v = d == (double##N)INFINITY ? d : v;                                                  \
    v = d < (double##N)1 || d != d ? (double##N)NAN : v;                                   \
    return CVT_##K(v, float##N);                                                           \
  }                                                                                        \
  OVLD float##N atanh(float##N x)                                                          \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N), a = __builtin_elementwise_abs(d);                 \
    double##N q = ((double##N)1 + a) / ((double##N)1 - a);                                 \
    double##N qs = q > (double##N)0 && q < (double##N)INFINITY ? q : (double##N)1;         \
    double##N v = (double##N)0.5 * LOG_D(double##N, long##N, ulong##N, K, qs);             \
    double##N a2 = d * d; /* small |x|: the series */                                      \
    double##N p = (double##N)(1.0 / 13);                                                   \
    p = FMA(p, a2, (double##N)(1.0 / 11));                                                 \
    p = FMA(p, a2, (double##N)(1.0 / 9));                                                  \
    p = FMA(p, a2, (double##N)(1.0 / 7));                                                  \
    p = FMA(p, a2, (double##N)(1.0 / 5));                                                  \
    p = FMA(p, a2, (double##N)(1.0 / 3));                                                  \
    p = FMA(p * a2, a, a);                                                                 \
    v = a < (double##N)0.125 ? p : v;                                                      \
    v = a == (double##N)1 ? (double##N)INFINITY : v;                                       \
    v = a > (double##N)1 || a != a ? (double##N)NAN : v;                                   \
    return CVT_##K(__builtin_elementwise_copysign(v, d), float##N);                        \
  }

#define DEF_F32_MORE(UNUSED, N, L, K)                                                      \
  OVLD float##N tanpi(float##N x)                                                          \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N);                                                   \
    double##N k = __builtin_elementwise_rint(d), r = d - k; /* [-0.5, 0.5], exact */        \
    double##N a = __builtin_elementwise_abs(r);                                            \
    double##N v = SINPI_CORE(double##N, a) / SINPI_CORE(double##N, (double##N)0.5 - a);    \
    v = __builtin_elementwise_copysign(v, r);                                              \
    /* n: +-0 signed like n if even, like -n if odd; n + 1/2: +inf (n even), -inf */       \
    double##N h = k * (double##N)0.5;                                                      \
    long##N kodd = __builtin_elementwise_rint(h) != h;                                     \
    double##N z = __builtin_elementwise_copysign((double##N)0, kodd ? -d : d);             \
    v = r == (double##N)0 ? z : v;                                                         \
    double##N fl = __builtin_elementwise_floor(d) * (double##N)0.5;                        \
    long##N flodd = __builtin_elementwise_rint(fl) != fl;                                  \
    v = a == (double##N)0.5 ? (flodd ? (double##N)(-INFINITY) : (double##N)INFINITY) : v;  \
    return CVT_##K(v, float##N);                                                           \
  }                                                                                        \
  OVLD float##N cbrt(float##N x)                                                           \
  {                                                                                        \
    double##N d = CVT_##K(x, double##N), a = __builtin_elementwise_abs(d);                 \
    double##N s = a > (double##N)0 && a < (double##N)INFINITY ? a : (double##N)1;          \
    double##N t = LOG_D(double##N, long##N, ulong##N, K, s) * (double##N)(LOG2E / 3);      \
    double##N v = EXP2_D(double##N, long##N, K, t);                                        \
    v = a == (double##N)0 || a == (double##N)INFINITY || a != a ? a : v;                   \
    return CVT_##K(__builtin_elementwise_copysign(v, d), float##N);                        \
  }                                                                                        \
  OVLD float##N hypot(float##N x, float##N y)                                              \
  {                                                                                        \
    double##N dx = CVT_##K(x, double##N), dy = CVT_##K(y, double##N);                      \
    double##N v = __builtin_elementwise_sqrt(FMA(dx, dx, dy * dy)); /* no overflow */       \
    /* an infinity wins over a NaN */                                                      \
    v = __builtin_elementwise_abs(dx) == (double##N)INFINITY ||                            \
                __builtin_elementwise_abs(dy) == (double##N)INFINITY                       \
            ? (double##N)INFINITY : v;                                                     \
    return CVT_##K(v, float##N);                                                           \
  }

/* atan(x) in double, odd */
#define ATAN_F(N, K, x)                                                                       \
  ({                                                                                       \
    double##N d_ = CVT_##K(x, double##N);                                                  \
    __builtin_elementwise_copysign(ATAN_D(double##N, __builtin_elementwise_abs(d_)), d_);  \
  })

/* atan2 in double: the ratio's atan, plus pi (signed like y) when x is
 * negative or -0; 0/0 and inf/inf become +-0 and +-1 first */
#define ATAN2_F(N, K, y, x)                                                                \
  ({                                                                                       \
    double##N dy_ = CVT_##K(y, double##N), dx_ = CVT_##K(x, double##N);                    \
    double##N r_ = dy_ / dx_;                                                              \
    double##N sgn_ = __builtin_elementwise_copysign((double##N)1, dy_) *                   \
                     __builtin_elementwise_copysign((double##N)1, dx_);                    \
    r_ = dy_ == (double##N)0 && dx_ == (double##N)0 ? sgn_ * (double##N)0 : r_;            \
    r_ = __builtin_elementwise_abs(dy_) == (double##N)INFINITY &&                          \
                 __builtin_elementwise_abs(dx_) == (double##N)INFINITY                     \
             ? sgn_ : r_;                                                                  \
    double##N at_ = __builtin_elementwise_copysign(ATAN_D(double##N,                       \
                                                          __builtin_elementwise_abs(r_)), r_); \
    __builtin_elementwise_copysign((double##N)1, dx_) < (double##N)0                       \
        ? at_ + __builtin_elementwise_copysign((double##N)0x1.921fb54442d18p+1, dy_)       \
        : at_;                                                                             \
  })

/* asin(x) = atan(x / sqrt(1 - x^2)); acos(x) = 2 atan(sqrt((1 - x) / (1 + x))) */
#define ASIN_F(N, K, x)                                                                    \
  ({                                                                                       \
    double##N d_ = CVT_##K(x, double##N);                                                  \
    double##N r_ = d_ / __builtin_elementwise_sqrt(FMA(-d_, d_, (double##N)1));            \
    __builtin_elementwise_copysign(ATAN_D(double##N, __builtin_elementwise_abs(r_)), r_);  \
  })
#define ACOS_F(N, K, x)                                                                    \
  ({                                                                                       \
    double##N d_ = CVT_##K(x, double##N);                                                  \
    double##N r_ = __builtin_elementwise_sqrt(((double##N)1 - d_) / ((double##N)1 + d_));  \
    (double##N)2 * ATAN_D(double##N, r_);                                                  \
  })

FOR_WIDTHS(DEF_F32, 0)
FOR_WIDTHS(DEF_F32_INV, 0)
FOR_WIDTHS(DEF_F32_MORE, 0)

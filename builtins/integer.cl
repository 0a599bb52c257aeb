/* Integer built-in functions (OpenCL C 3.0 section 6.15.4) for char, uchar,
 * short, ushort, int, uint, long, ulong, scalars and widths 2, 3, 4, 8, 16.
 *
 * Vector-native: abs, abs_diff, add_sat, sub_sat, hadd, rhadd, clamp, max,
 * min, mad_hi, mul_hi, rotate, upsample, mad24, mul24, and mad_sat for
 * 8-32 bit types (all plain vector arithmetic or LLVM saturating/min/max
 * intrinsics).  Lane loops over scalar LLVM intrinsics (which the final O3
 * re-vectorizes where the target has vector forms): clz, ctz, popcount, and
 * mad_sat for 64-bit types.
 *
 * Wrapping arithmetic is done on the unsigned type (signed overflow is
 * undefined in C, and OpenCL's integer ops wrap).
 */

#include "lanecl_builtins.h"

#define INT_WIDTHS(DEF, T, UT, BITS, SGN, TMIN, TMAX) FOR_WIDTHS(DEF, T, UT, BITS, SGN, TMIN, TMAX)
#define INT_VWIDTHS(DEF, T, UT, BITS, SGN, TMIN, TMAX) FOR_VWIDTHS(DEF, T, UT, BITS, SGN, TMIN, TMAX)

/* Saturating add/sub: scalar char and short operands of the elementwise
 * builtins would be promoted to int (and saturate there), so those scalars
 * clamp an int sum instead (plain scalar code the loop vectorizer widens). */
#define SATOP_V(OP, SIGN, T, BITS, TMIN, TMAX, x, y) __builtin_elementwise_##OP(x, y)
#define SATOP_S(OP, SIGN, T, BITS, TMIN, TMAX, x, y)                                     \
  (BITS < 32 ? (T)EMIN(EMAX((int)(x) SIGN(int)(y), (int)(TMIN)), (int)(TMAX))             \
             : __builtin_elementwise_##OP(x, y))

/* ---- abs, abs_diff, add_sat, sub_sat, hadd, rhadd, min, max, clamp ---- */
#define DEF_BASIC(T, UT, BITS, SGN, TMIN, TMAX, N, L, K)                                  \
  OVLD UT##N abs(T##N x)                                                                   \
  {                                                                                        \
    UT##N u = CVT_##K(x, UT##N);                                                           \
    return x < (T##N)0 ? -u : u;                                                           \
  }                                                                                        \
  OVLD UT##N abs_diff(T##N x, T##N y)                                                      \
  {                                                                                        \
    UT##N ux = CVT_##K(x, UT##N), uy = CVT_##K(y, UT##N);                                  \
    return x > y ? ux - uy : uy - ux;                                                      \
  }                                                                                        \
  OVLD T##N add_sat(T##N x, T##N y)                                                        \
  {                                                                                        \
    return SATOP_##K(add_sat, +, T, BITS, TMIN, TMAX, x, y);                                                    \
  }                                                                                        \
  OVLD T##N sub_sat(T##N x, T##N y)                                                        \
  {                                                                                        \
    return SATOP_##K(sub_sat, -, T, BITS, TMIN, TMAX, x, y);                                                    \
  }                                                                                        \
  OVLD T##N hadd(T##N x, T##N y)                                                           \
  {                                                                                        \
    return (x >> 1) + (y >> 1) + (x & y & (T##N)1);                                        \
  }                                                                                        \
  OVLD T##N rhadd(T##N x, T##N y)                                                          \
  {                                                                                        \
    return (x >> 1) + (y >> 1) + ((x | y) & (T##N)1);                                      \
  }                                                                                        \
  OVLD T##N min(T##N x, T##N y)                                                            \
  {                                                                                        \
    return EMIN(x, y);                                                                     \
  }                                                                                        \
  OVLD T##N max(T##N x, T##N y)                                                            \
  {                                                                                        \
    return EMAX(x, y);                                                                     \
  }                                                                                        \
  OVLD T##N clamp(T##N x, T##N lo, T##N hi)                                                \
  {                                                                                        \
    return EMIN(EMAX(x, lo), hi);                                                          \
  }
FOR_INT_TYPES(INT_WIDTHS, DEF_BASIC)

/* the vector overloads with scalar bounds */
#define DEF_SCALAR_BOUND(T, UT, BITS, SGN, TMIN, TMAX, N, L, K)                           \
  OVLD T##N min(T##N x, T y)                                                               \
  {                                                                                        \
    return EMIN(x, (T##N)y);                                                               \
  }                                                                                        \
  OVLD T##N max(T##N x, T y)                                                               \
  {                                                                                        \
    return EMAX(x, (T##N)y);                                                               \
  }                                                                                        \
  OVLD T##N clamp(T##N x, T lo, T hi)                                                      \
  {                                                                                        \
    return EMIN(EMAX(x, (T##N)lo), (T##N)hi);                                              \
  }
FOR_INT_TYPES(INT_VWIDTHS, DEF_SCALAR_BOUND)

/* ---- bit counts: lane loops over llvm.ctlz / cttz / ctpop ---- */
#define CLZ_1(BITS, UT, x) __builtin_clzg((UT)(x), BITS)
#define CTZ_1(BITS, UT, x) __builtin_ctzg((UT)(x), BITS)
#define DEF_BITCOUNT(UNUSED, T, UT, BITS, SGN, TMIN, TMAX)                                \
  INLINE T clz1_##T(T x)                                                                   \
  {                                                                                        \
    return (T)__builtin_clzg((UT)x, BITS);                                                 \
  }                                                                                        \
  INLINE T ctz1_##T(T x)                                                                   \
  {                                                                                        \
    return (T)__builtin_ctzg((UT)x, BITS);                                                 \
  }                                                                                        \
  INLINE T popcount1_##T(T x)                                                              \
  {                                                                                        \
    return (T)__builtin_popcountg((UT)x);                                                  \
  }
FOR_INT_TYPES(DEF_BITCOUNT, 0)

#define DEF_BITCOUNT_W(T, UT, BITS, SGN, TMIN, TMAX, N, L, K)                             \
  OVLD T##N clz(T##N x)                                                                    \
  {                                                                                        \
    return MAP1_##K(L, T##N, clz1_##T, x);                                                 \
  }                                                                                        \
  OVLD T##N ctz(T##N x)                                                                    \
  {                                                                                        \
    return MAP1_##K(L, T##N, ctz1_##T, x);                                                 \
  }                                                                                        \
  OVLD T##N popcount(T##N x)                                                               \
  {                                                                                        \
    return MAP1_##K(L, T##N, popcount1_##T, x);                                            \
  }
FOR_INT_TYPES(INT_WIDTHS, DEF_BITCOUNT_W)

/* ---- rotate ---- */
#define DEF_ROTATE(T, UT, BITS, SGN, TMIN, TMAX, N, L, K)                                 \
  OVLD T##N rotate(T##N v, T##N i)                                                         \
  {                                                                                        \
    UT##N u = CVT_##K(v, UT##N);                                                           \
    UT##N s = CVT_##K(i, UT##N) & (UT##N)(BITS - 1);                                       \
    UT##N r = (UT##N)(u << s) | (UT##N)(u >> (((UT##N)BITS - s) & (UT##N)(BITS - 1)));     \
    return CVT_##K(r, T##N);                                                               \
  }
FOR_INT_TYPES(INT_WIDTHS, DEF_ROTATE)

/* ---- mul_hi, mad_hi, mad_sat ----
 * 8-32 bit: through the type twice as wide (WT: same signedness). */
#define DEF_MULHI_NARROW(T, UT, WT, BITS, TMIN, TMAX, N, L, K)                            \
  OVLD T##N mul_hi(T##N x, T##N y)                                                         \
  {                                                                                        \
    WT##N p = CVT_##K(x, WT##N) * CVT_##K(y, WT##N);                                       \
    return CVT_##K(p >> BITS, T##N);                                                       \
  }                                                                                        \
  OVLD T##N mad_hi(T##N x, T##N y, T##N z)                                                 \
  {                                                                                        \
    UT##N h = CVT_##K(mul_hi(x, y), UT##N);                                                \
    return CVT_##K(h + CVT_##K(z, UT##N), T##N);                                           \
  }                                                                                        \
  OVLD T##N mad_sat(T##N x, T##N y, T##N z)                                                \
  {                                                                                        \
    /* |x*y| + |z| fits the wide type for 8, 16 and 32 bits */                             \
    WT##N p = CVT_##K(x, WT##N) * CVT_##K(y, WT##N) + CVT_##K(z, WT##N);                   \
    p = EMIN(EMAX(p, (WT##N)(TMIN)), (WT##N)(TMAX));                                       \
    return CVT_##K(p, T##N);                                                               \
  }
#define MULHI_NARROW_WIDTHS(DEF, T, UT, WT, BITS, TMIN, TMAX) FOR_WIDTHS(DEF, T, UT, WT, BITS, TMIN, TMAX)
MULHI_NARROW_WIDTHS(DEF_MULHI_NARROW, char, uchar, short, 8, CHAR_MIN, CHAR_MAX)
MULHI_NARROW_WIDTHS(DEF_MULHI_NARROW, uchar, uchar, ushort, 8, 0, UCHAR_MAX)
MULHI_NARROW_WIDTHS(DEF_MULHI_NARROW, short, ushort, int, 16, SHRT_MIN, SHRT_MAX)
MULHI_NARROW_WIDTHS(DEF_MULHI_NARROW, ushort, ushort, uint, 16, 0, USHRT_MAX)
MULHI_NARROW_WIDTHS(DEF_MULHI_NARROW, int, uint, long, 32, INT_MIN, INT_MAX)
MULHI_NARROW_WIDTHS(DEF_MULHI_NARROW, uint, uint, ulong, 32, 0, UINT_MAX)

/* 64-bit: the high half of the 128-bit product from 32-bit pieces; the
 * signed one corrects the unsigned product: hi_s = hi_u - (x<0 ? y : 0) - (y<0 ? x : 0). */
#define UMULHI64(N, x, y)                                                                  \
  ({                                                                                       \
    ulong##N m_ = (ulong##N)0xffffffffUL;                                                  \
    ulong##N xl_ = (x) & m_, xh_ = (x) >> 32, yl_ = (y) & m_, yh_ = (y) >> 32;             \
    ulong##N p0_ = xl_ * yl_, p1_ = xl_ * yh_, p2_ = xh_ * yl_, p3_ = xh_ * yh_;           \
    ulong##N mid_ = (p0_ >> 32) + (p1_ & m_) + (p2_ & m_);                                 \
    p3_ + (p1_ >> 32) + (p2_ >> 32) + (mid_ >> 32);                                        \
  })

#define DEF_MULHI64(UNUSED, N, L, K)                                                             \
  OVLD ulong##N mul_hi(ulong##N x, ulong##N y)                                             \
  {                                                                                        \
    return UMULHI64(N, x, y);                                                              \
  }                                                                                        \
  OVLD long##N mul_hi(long##N x, long##N y)                                                \
  {                                                                                        \
    ulong##N ux = CVT_##K(x, ulong##N), uy = CVT_##K(y, ulong##N);                         \
    ulong##N h = UMULHI64(N, ux, uy);                                                      \
    ulong##N sx = CVT_##K(x >> 63, ulong##N), sy = CVT_##K(y >> 63, ulong##N);             \
    return CVT_##K(h - (sx & uy) - (sy & ux), long##N);                                    \
  }                                                                                        \
  OVLD ulong##N mad_hi(ulong##N x, ulong##N y, ulong##N z)                                 \
  {                                                                                        \
    return mul_hi(x, y) + z;                                                               \
  }                                                                                        \
  OVLD long##N mad_hi(long##N x, long##N y, long##N z)                                     \
  {                                                                                        \
    return CVT_##K(CVT_##K(mul_hi(x, y), ulong##N) + CVT_##K(z, ulong##N), long##N);       \
  }                                                                                        \
  OVLD ulong##N mad_sat(ulong##N x, ulong##N y, ulong##N z)                                \
  {                                                                                        \
    return MAP3_##K(L, ulong##N, mad_sat_u64, x, y, z);                                    \
  }                                                                                        \
  OVLD long##N mad_sat(long##N x, long##N y, long##N z)                                    \
  {                                                                                        \
    return MAP3_##K(L, long##N, mad_sat_s64, x, y, z);                                     \
  }

INLINE ulong umulhi64(ulong x, ulong y)
{
  return UMULHI64(, x, y);
}

INLINE ulong mad_sat_u64(ulong x, ulong y, ulong z)
{
  ulong hi = umulhi64(x, y);
  ulong lo = x * y;
  ulong s = lo + z;
  return (hi != 0 || s < lo) ? ULONG_MAX : s;
}

INLINE long mad_sat_s64(long x, long y, long z)
{
  /* 128-bit two's complement product (hi:lo), plus sign-extended z */
  ulong ux = (ulong)x, uy = (ulong)y;
  ulong hi = umulhi64(ux, uy) - ((ulong)(x >> 63) & uy) - ((ulong)(y >> 63) & ux);
  ulong lo = ux * uy;
  ulong s = lo + (ulong)z;
  hi += (ulong)(z >> 63) + (s < lo ? 1 : 0);
  /* fits in a long iff hi is the sign extension of s */
  if (hi == (ulong)((long)s >> 63))
    return (long)s;
  return (long)hi < 0 ? LONG_MIN : LONG_MAX;
}

FOR_WIDTHS(DEF_MULHI64, 0)

/* ---- upsample: (hi << bits) | lo, lo unsigned ---- */
#define DEF_UPSAMPLE(T, UT, WT, UWT, BITS, N, L, K)                                      \
  OVLD WT##N upsample(T##N hi, UT##N lo)                                                   \
  {                                                                                        \
    UWT##N h = CVT_##K(CVT_##K(hi, UT##N), UWT##N);                                        \
    return CVT_##K((h << BITS) | CVT_##K(lo, UWT##N), WT##N);                              \
  }
#define UPSAMPLE_WIDTHS(DEF, T, UT, WT, UWT, BITS) FOR_WIDTHS(DEF, T, UT, WT, UWT, BITS)
UPSAMPLE_WIDTHS(DEF_UPSAMPLE, char, uchar, short, ushort, 8)
UPSAMPLE_WIDTHS(DEF_UPSAMPLE, uchar, uchar, ushort, ushort, 8)
UPSAMPLE_WIDTHS(DEF_UPSAMPLE, short, ushort, int, uint, 16)
UPSAMPLE_WIDTHS(DEF_UPSAMPLE, ushort, ushort, uint, uint, 16)
UPSAMPLE_WIDTHS(DEF_UPSAMPLE, int, uint, long, ulong, 32)
UPSAMPLE_WIDTHS(DEF_UPSAMPLE, uint, uint, ulong, ulong, 32)

/* ---- mul24, mad24: the low 24 bits (sign-extended for int) multiplied,
 * wrapping; the spec leaves inputs outside 24 bits undefined. ---- */
#define DEF_MUL24(UNUSED, N, L, K)                                                               \
  OVLD int##N mul24(int##N x, int##N y)                                                    \
  {                                                                                        \
    int##N sx = CVT_##K(CVT_##K(x, uint##N) << 8, int##N) >> 8;                            \
    int##N sy = CVT_##K(CVT_##K(y, uint##N) << 8, int##N) >> 8;                            \
    uint##N a = CVT_##K(sx, uint##N), b = CVT_##K(sy, uint##N);                            \
    return CVT_##K(a * b, int##N);                                                         \
  }                                                                                        \
  OVLD uint##N mul24(uint##N x, uint##N y)                                                 \
  {                                                                                        \
    return (x & (uint##N)0xffffffU) * (y & (uint##N)0xffffffU);                            \
  }                                                                                        \
  OVLD int##N mad24(int##N x, int##N y, int##N z)                                          \
  {                                                                                        \
    return CVT_##K(CVT_##K(mul24(x, y), uint##N) + CVT_##K(z, uint##N), int##N);           \
  }                                                                                        \
  OVLD uint##N mad24(uint##N x, uint##N y, uint##N z)                                      \
  {                                                                                        \
    return mul24(x, y) + z;                                                                \
  }
FOR_WIDTHS(DEF_MUL24, 0)

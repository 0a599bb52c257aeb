/* float/double -> half bit patterns with a rounding mode, in integer vector
 * code (used by vstore_half* and convert_half*).  Modes: RM_RTE RM_RTZ
 * RM_RTP RM_RTN; the mode is a constant at every call site, so each
 * instance folds to one straight-line sequence.
 *
 *   ushort##N f2h_##N(float##N x, int mode)
 *   ushort##N d2h_##N(double##N x, int mode)
 *
 * The value is split into the half's exponent/significand (normal or
 * subnormal) and the bits shifted out (rem) decide the increment; an
 * increment that carries out of the significand steps the exponent, up to
 * infinity.  Values at or above 2^16 overflow to infinity or to the largest
 * half (65504) as the mode says.  NaNs stay quiet NaNs, signs are kept.
 */
#ifndef LANECL_HALF_CONV_H
#define LANECL_HALF_CONV_H

#include "lanecl_builtins.h"

#define RM_RTE 0
#define RM_RTZ 1
#define RM_RTP 2
#define RM_RTN 3

/* Rounding increment (0/1 in UTN) from the kept bits h, the shifted-out
 * bits rem, the halfway value and the sign (0 or 0x8000). */
#define HC_INCREMENT(UTN, mode, h, rem, halfway, sign)                                     \
  ((mode) == RM_RTE   ? ((rem > halfway) | ((rem == halfway) & ((h & (UTN)1) != (UTN)0)))     \
   : (mode) == RM_RTZ ? (rem != rem) /* false */                                           \
   : (mode) == RM_RTP ? ((rem != (UTN)0) & (sign == (UTN)0))                               \
                      : ((rem != (UTN)0) & (sign != (UTN)0)))

/* Overflowed lanes: infinity or the largest finite half, by mode and sign. */
#define HC_OVERFLOW(UTN, mode, sign)                                                       \
  ((mode) == RM_RTE   ? (UTN)0x7c00                                                        \
   : (mode) == RM_RTZ ? (UTN)0x7bff                                                        \
   : (mode) == RM_RTP ? (sign != (UTN)0 ? (UTN)0x7bff : (UTN)0x7c00)                       \
                      : (sign != (UTN)0 ? (UTN)0x7c00 : (UTN)0x7bff))

/* The conversion on the bits u of a binary floating-point value:
 * UTN the unsigned lane type, MBITS significand bits, EBIAS exponent bias,
 * EMAXB the all-ones exponent. */
#define HC_CONVERT(UTN, u, mode, MBITS, EBIAS, EMAXB, SIGNSHIFT)                           \
  ({                                                                                       \
    UTN sign_ = ((u) >> SIGNSHIFT) & (UTN)0x8000;                                          \
    UTN a_ = (u) & ~((UTN)1 << (SIGNSHIFT + 15));                                          \
    UTN e_ = a_ >> MBITS;                                                                  \
    UTN mant_ = a_ & (((UTN)1 << MBITS) - (UTN)1);                                         \
    /* half normal when e_ >= EBIAS - 14 */                                                \
    UTN enorm_ = (UTN)(EBIAS - 14);                                                        \
    UTN m_ = e_ == (UTN)0 ? mant_ : mant_ | ((UTN)1 << MBITS);                             \
    UTN e1_ = EMAX(e_, (UTN)1);                                                            \
    UTN sub_s_ = EMIN((UTN)(EBIAS - 14 + MBITS - 10) - EMIN(e1_, enorm_), (UTN)(SIGNSHIFT + 15)); \
    UTN s_ = e_ >= enorm_ ? (UTN)(MBITS - 10) : sub_s_;                                    \
    UTN h_ = (e_ >= enorm_ ? (e_ - enorm_) << 10 : (UTN)0) + (m_ >> s_);                   \
    UTN rem_ = m_ & ((((UTN)1) << s_) - (UTN)1);                                           \
    UTN halfway_ = ((UTN)1) << (s_ - (UTN)1);                                              \
    UTN inc_ = HC_INCREMENT(UTN, mode, h_, rem_, halfway_, sign_) ? (UTN)1 : (UTN)0;       \
    h_ += inc_;                                                                            \
    h_ = e_ >= (UTN)(EBIAS + 16) ? HC_OVERFLOW(UTN, mode, sign_) : h_;                     \
    UTN nan_ = (UTN)0x7e00 | (mant_ >> (MBITS - 10));                                      \
    h_ = e_ == (UTN)EMAXB ? (mant_ != (UTN)0 ? nan_ : (UTN)0x7c00) : h_;                   \
    sign_ | h_;                                                                            \
  })

#define DEF_HALF_CONV(UNUSED, N, L, K)                                                     \
  INLINE ushort##N f2h_##N(float##N x, int mode)                                           \
  {                                                                                        \
    uint##N u = __builtin_astype(x, uint##N);                                              \
    uint##N h = HC_CONVERT(uint##N, u, mode, 23, 127, 255, 16);                            \
    return CVT_##K(h, ushort##N);                                                          \
  }                                                                                        \
  INLINE ushort##N d2h_##N(double##N x, int mode)                                          \
  {                                                                                        \
    ulong##N u = __builtin_astype(x, ulong##N);                                            \
    ulong##N h = HC_CONVERT(ulong##N, u, mode, 52, 1023, 2047, 48);                        \
    return CVT_##K(h, ushort##N);                                                          \
  }
FOR_WIDTHS(DEF_HALF_CONV, 0)

#endif

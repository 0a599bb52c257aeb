/* Explicit conversions (OpenCL C 3.0 section 6.4.3):
 *   convert_<dst><n>[_sat][_rte|_rtz|_rtp|_rtn](<src><n>)
 * for every pair of char uchar short ushort int uint long ulong float double
 * (half with cl_khr_fp16), n = 1, 2, 3, 4, 8, 16; _sat for integer
 * destinations only.  All plain vector code:
 *
 *  int -> int    modular; _sat clamps in the source type first.  Rounding
 *                suffixes change nothing.
 *  fp -> int     default and _rtz truncate; _rte/_rtp/_rtn round first
 *                (rint/ceil/floor).  Without _sat out-of-range results are
 *                undefined (as a C cast); _sat clamps, NaN gives 0.
 *  int -> fp     default and _rte are the hardware conversion (to nearest
 *                even); _rtz/_rtp/_rtn compare the rounded value with the
 *                exact integer and step one ulp when it lies on the wrong side.
 *  fp -> fp      widening is exact; double -> float steps like int -> fp;
 *                float -> half and double -> half by mode in half_conv.h
 *                (default float -> half is the hardware conversion).
 */

#include "half_conv.h"

/* ---- per-type facts: class, size, signedness, range, same-size ints ---- */
#define CLS_char I
#define CLS_uchar I
#define CLS_short I
#define CLS_ushort I
#define CLS_int I
#define CLS_uint I
#define CLS_long I
#define CLS_ulong I
#define CLS_float F
#define CLS_double F
#define CLS_half F

#define BITS_char 8
#define BITS_uchar 8
#define BITS_short 16
#define BITS_ushort 16
#define BITS_int 32
#define BITS_uint 32
#define BITS_long 64
#define BITS_ulong 64
#define BITS_half 16
#define BITS_float 32
#define BITS_double 64

#define SGN_char 1
#define SGN_uchar 0
#define SGN_short 1
#define SGN_ushort 0
#define SGN_int 1
#define SGN_uint 0
#define SGN_long 1
#define SGN_ulong 0

#define MIN_char CHAR_MIN
#define MIN_uchar 0
#define MIN_short SHRT_MIN
#define MIN_ushort 0
#define MIN_int INT_MIN
#define MIN_uint 0
#define MIN_long LONG_MIN
#define MIN_ulong 0
#define MAX_char CHAR_MAX
#define MAX_uchar UCHAR_MAX
#define MAX_short SHRT_MAX
#define MAX_ushort USHRT_MAX
#define MAX_int INT_MAX
#define MAX_uint UINT_MAX
#define MAX_long LONG_MAX
#define MAX_ulong ULONG_MAX

/* 2^(magnitude bits): the first integer above the type's range */
#define TWO_char 0x1p7
#define TWO_uchar 0x1p8
#define TWO_short 0x1p15
#define TWO_ushort 0x1p16
#define TWO_int 0x1p31
#define TWO_uint 0x1p32
#define TWO_long 0x1p63
#define TWO_ulong 0x1p64
#define MAG_char 7
#define MAG_uchar 8
#define MAG_short 15
#define MAG_ushort 16
#define MAG_int 31
#define MAG_uint 32
#define MAG_long 63
#define MAG_ulong 64

/* floating point: significand precision, same-size signed/unsigned ints */
#define PREC_half 11
#define PREC_float 24
#define PREC_double 53
#define SI_char char
#define SI_uchar char
#define SI_short short
#define SI_ushort short
#define SI_int int
#define SI_uint int
#define SI_long long
#define SI_ulong long
#define SI_half short
#define SI_float int
#define SI_double long
#define UI_half ushort
#define UI_float uint
#define UI_double ulong

/* A comparison mask of one element size as a select condition for another:
 * vectors convert (-1 stays -1), scalars are already 0/1. */
#define MASK_S(m, DI, N) (m)
#define MASK_V(m, DI, N) __builtin_convertvector((m), CAT(DI, N))

/* ------------------------------------------------------------------------ */
/* int -> int                                                               */

#define CONV_II_(D, S, N, L, K, R, x) CVT_##K(x, D##N)
#define CONV_II__sat(D, S, N, L, K, R, x)                                                  \
  ({                                                                                       \
    S##N y_ = (x);                                                                         \
    if (SGN_##S && !SGN_##D)                                                               \
      y_ = EMAX(y_, (S##N)0);                                                              \
    else if (SGN_##S && SGN_##D && BITS_##D < BITS_##S)                                    \
      y_ = EMAX(y_, (S##N)(S)MIN_##D);                                                     \
    if ((ulong)MAX_##D < (ulong)MAX_##S)                                                   \
      y_ = EMIN(y_, (S##N)(S)MAX_##D);                                                     \
    CVT_##K(y_, D##N);                                                                     \
  })

/* ------------------------------------------------------------------------ */
/* fp -> int                                                                */

#define FIROUND(x) (x)
#define FIROUND_rtz(x) (x)
#define FIROUND_rte(x) __builtin_elementwise_rint(x)
#define FIROUND_rtp(x) __builtin_elementwise_ceil(x)
#define FIROUND_rtn(x) __builtin_elementwise_floor(x)

#define CONV_FI_(D, S, N, L, K, R, x) CVT_##K(FIROUND##R(x), D##N)
#define CONV_FI__sat(D, S, N, L, K, R, x)                                                  \
  ({                                                                                       \
    S##N r_ = FIROUND##R(x);                                                               \
    S##N lo_ = (S##N)(S)MIN_##D; /* 0 or -2^k: exact (or -inf for half) */                 \
    S##N hi_ = (S##N)(S)TWO_##D; /* 2^k (or inf for half) */                               \
    S##N safe_ = (r_ >= lo_ && r_ < hi_) ? r_ : (S##N)0; /* NaN -> 0 */                    \
    D##N v_ = CVT_##K(safe_, D##N);                                                        \
    v_ = MASK_##K(r_ >= hi_, SI_##D, N) ? (D##N)MAX_##D : v_;                              \
    v_ = MASK_##K(r_ < lo_, SI_##D, N) ? (D##N)MIN_##D : v_;                               \
    v_;                                                                                    \
  })

/* ------------------------------------------------------------------------ */
/* one-ulp steps on D##N values (bits as UI_##D)                            */

#define NEXT_UP(D, N, f)                                                                   \
  ({                                                                                       \
    CAT(UI_##D, N) b_ = __builtin_astype(f, CAT(UI_##D, N));                                         \
    CAT(UI_##D, N) s_ = f == (D##N)0 ? (CAT(UI_##D, N))1 : f > (D##N)0 ? b_ + (CAT(UI_##D, N))1 : b_ - (CAT(UI_##D, N))1; \
    __builtin_astype(s_, D##N);                                                            \
  })
#define NEXT_DOWN(D, N, f)                                                                 \
  ({                                                                                       \
    CAT(UI_##D, N) b_ = __builtin_astype(f, CAT(UI_##D, N));                                         \
    CAT(UI_##D, N) sgn_ = (CAT(UI_##D, N))1 << (BITS_##D - 1);                                       \
    CAT(UI_##D, N) s_ = f == (D##N)0 ? sgn_ | (CAT(UI_##D, N))1 : f > (D##N)0 ? b_ - (CAT(UI_##D, N))1 : b_ + (CAT(UI_##D, N))1; \
    __builtin_astype(s_, D##N);                                                            \
  })

/* Directed rounding from the nearest-even result f and masks (D-sized)
 * gt: f > exact value, lt: f < exact value. */
#define DIRECTED(D, N, R, f, gt, lt) DIRECTED##R(D, N, f, gt, lt)
#define DIRECTED_rtz(D, N, f, gt, lt)                                                      \
  ((f > (D##N)0 && (gt)) ? NEXT_DOWN(D, N, f) : (f < (D##N)0 && (lt)) ? NEXT_UP(D, N, f) : f)
#define DIRECTED_rtp(D, N, f, gt, lt) ((lt) ? NEXT_UP(D, N, f) : f)
#define DIRECTED_rtn(D, N, f, gt, lt) ((gt) ? NEXT_DOWN(D, N, f) : f)

/* ------------------------------------------------------------------------ */
/* int -> fp                                                                */

#define CONV_IF_(D, S, N, L, K, R, x) CONV_IF##R(D, S, N, L, K, x)
#define CONV_IF(D, S, N, L, K, x) CVT_##K(x, D##N)
#define CONV_IF_rte(D, S, N, L, K, x) CVT_##K(x, D##N)
#define CONV_IF_rtz(D, S, N, L, K, x) CONV_IF_DIRECTED(D, S, N, L, K, _rtz, x)
#define CONV_IF_rtp(D, S, N, L, K, x) CONV_IF_DIRECTED(D, S, N, L, K, _rtp, x)
#define CONV_IF_rtn(D, S, N, L, K, x) CONV_IF_DIRECTED(D, S, N, L, K, _rtn, x)
#define CONV_IF_DIRECTED(D, S, N, L, K, R, x)                                              \
  ({                                                                                       \
    S##N x_ = (x);                                                                         \
    D##N f_ = CVT_##K(x_, D##N);                                                           \
    if (MAG_##S > PREC_##D) {                                                              \
      /* f_ is an integer; beyond the source range (or infinite) it is plainly */          \
      /* above or below x_, else it converts back exactly */                               \
      __typeof__(f_ > f_) big_ = f_ >= (D##N)(D)TWO_##S;                                   \
      __typeof__(f_ > f_) ninf_ = f_ == (D##N)(-INFINITY);                                 \
      S##N back_ = CVT_##K((big_ || ninf_) ? (D##N)0 : f_, S##N);                          \
      __typeof__(f_ > f_) gt_ = big_ || (MASK_##K(back_ > x_, SI_##D, N) && !ninf_);       \
      __typeof__(f_ > f_) lt_ = ninf_ || (MASK_##K(back_ < x_, SI_##D, N) && !big_);       \
      f_ = DIRECTED(D, N, R, f_, gt_, lt_);                                                \
    }                                                                                      \
    f_;                                                                                    \
  })

/* ------------------------------------------------------------------------ */
/* fp -> fp                                                                 */

/* kind of each (source, destination) pair */
#define FFK_half_half WIDEN
#define FFK_half_float WIDEN
#define FFK_half_double WIDEN
#define FFK_float_float WIDEN
#define FFK_float_double WIDEN
#define FFK_double_double WIDEN
#define FFK_double_float D2F
#define FFK_float_half F2H
#define FFK_double_half D2H

#define CONV_FF_(D, S, N, L, K, R, x) CAT(CONV_FF_, FFK_##S##_##D)(D, S, N, L, K, R, x)
#define CONV_FF_WIDEN(D, S, N, L, K, R, x) CVT_##K(x, D##N)
#define CONV_FF_D2F(D, S, N, L, K, R, x) CONV_D2F##R(D, S, N, L, K, x)
#define CONV_D2F(D, S, N, L, K, x) CVT_##K(x, D##N)
#define CONV_D2F_rte(D, S, N, L, K, x) CVT_##K(x, D##N)
#define CONV_D2F_rtz(D, S, N, L, K, x) CONV_D2F_DIRECTED(D, S, N, L, K, _rtz, x)
#define CONV_D2F_rtp(D, S, N, L, K, x) CONV_D2F_DIRECTED(D, S, N, L, K, _rtp, x)
#define CONV_D2F_rtn(D, S, N, L, K, x) CONV_D2F_DIRECTED(D, S, N, L, K, _rtn, x)
#define CONV_D2F_DIRECTED(D, S, N, L, K, R, x)                                             \
  ({                                                                                       \
    S##N x_ = (x);                                                                         \
    D##N f_ = CVT_##K(x_, D##N);                                                           \
    S##N back_ = CVT_##K(f_, S##N); /* exact */                                            \
    __typeof__(f_ > f_) gt_ = MASK_##K(back_ > x_, SI_##D, N);                             \
    __typeof__(f_ > f_) lt_ = MASK_##K(back_ < x_, SI_##D, N);                             \
    DIRECTED(D, N, R, f_, gt_, lt_);                                                       \
  })

#define HMODE RM_RTE
#define HMODE_rte RM_RTE
#define HMODE_rtz RM_RTZ
#define HMODE_rtp RM_RTP
#define HMODE_rtn RM_RTN
#define CONV_FF_F2H(D, S, N, L, K, R, x) CONV_F2H##R(N, K, x)
#define CONV_F2H(N, K, x) CVT_##K(x, half##N)
#define CONV_F2H_rte(N, K, x) CVT_##K(x, half##N)
#define CONV_F2H_rtz(N, K, x) __builtin_astype(f2h_##N(x, RM_RTZ), half##N)
#define CONV_F2H_rtp(N, K, x) __builtin_astype(f2h_##N(x, RM_RTP), half##N)
#define CONV_F2H_rtn(N, K, x) __builtin_astype(f2h_##N(x, RM_RTN), half##N)
#define CONV_FF_D2H(D, S, N, L, K, R, x) __builtin_astype(d2h_##N(x, HMODE##R), half##N)

/* fp -> fp and int -> fp have no _sat */

/* ------------------------------------------------------------------------ */
/* Stamping: destination x source x width x variants.                       */

#define DEF_CONV1(D, S, N, L, K, SAT, R)                                                   \
  OVLD D##N convert_##D##N##SAT##R(S##N x)                                                 \
  {                                                                                        \
    return CAT(CAT3(CONV_, CLS_##S, CLS_##D), _##SAT)(D, S, N, L, K, R, x);                     \
  }

#define DEF_CONV_MODES(D, S, N, L, K, SAT)                                                 \
  DEF_CONV1(D, S, N, L, K, SAT, ) DEF_CONV1(D, S, N, L, K, SAT, _rte)                      \
  DEF_CONV1(D, S, N, L, K, SAT, _rtz) DEF_CONV1(D, S, N, L, K, SAT, _rtp)                  \
  DEF_CONV1(D, S, N, L, K, SAT, _rtn)
/* integer destinations: plain and _sat; fp destinations: plain */
#define DEF_CONV_DST_I(D, S, N, L, K) DEF_CONV_MODES(D, S, N, L, K, ) DEF_CONV_MODES(D, S, N, L, K, _sat)
#define DEF_CONV_DST_F(D, S, N, L, K) DEF_CONV_MODES(D, S, N, L, K, )
#define DEF_CONV_PAIR(D, S, N, L, K) CAT(DEF_CONV_DST_, CLS_##D)(D, S, N, L, K)

#define CONV_WIDTHS(D, S) FOR_WIDTHS(DEF_CONV_PAIR, D, S)
#ifdef cl_khr_fp16
#define CONV_SRC_HALF(D) CONV_WIDTHS(D, half)
#define CONV_DST_HALF CONV_SOURCES(half)
#else
#define CONV_SRC_HALF(D)
#define CONV_DST_HALF
#endif
#define CONV_SOURCES(D)                                                                    \
  CONV_WIDTHS(D, char) CONV_WIDTHS(D, uchar) CONV_WIDTHS(D, short) CONV_WIDTHS(D, ushort)  \
  CONV_WIDTHS(D, int) CONV_WIDTHS(D, uint) CONV_WIDTHS(D, long) CONV_WIDTHS(D, ulong)      \
  CONV_WIDTHS(D, float) CONV_WIDTHS(D, double) CONV_SRC_HALF(D)

CONV_SOURCES(char)
CONV_SOURCES(uchar)
CONV_SOURCES(short)
CONV_SOURCES(ushort)
CONV_SOURCES(int)
CONV_SOURCES(uint)
CONV_SOURCES(long)
CONV_SOURCES(ulong)
CONV_SOURCES(float)
CONV_SOURCES(double)
CONV_DST_HALF

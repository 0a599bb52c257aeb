/* Work-group collective combine helpers (see compiler/cc_internal.h).
 *
 * The generated work-group function gathers each work-item's operand into a
 * packed buffer in linear local id order, calls one of these, and hands the
 * results back to the work-items (a scan writes its results to a second
 * buffer: a work-item reads its result and may then publish the operand of
 * the next collective, which may be wider, over another work-item's unread
 * result if both shared one buffer):
 *
 *   void __lanecl_wg_scan_inclusive_<op>_<ty>(void *src, void *dst, ulong n)
 *   void __lanecl_wg_scan_exclusive_<op>_<ty>(void *src, void *dst, ulong n)
 *   void __lanecl_wg_reduce_<op>_<ty>(void *buf, ulong n)           result in buf[0]
 *   void __lanecl_wg_all(int *buf, ulong n), __lanecl_wg_any(...)  1 or 0 in buf[0]
 *
 * and, for a scan fused into the lane loops (the compiler runs the region
 * before the scan, the scan and the region after it 16 work-items at a time),
 * one chunk of 16 operands in place, with the running carry (a W-lane
 * broadcast) kept in *carry between chunks; first is nonzero for chunk 0:
 *
 *   void __lanecl_wg_chunk_scan_inclusive_<op>_<ty>(void *chunk, void *carry, ulong first)
 *   void __lanecl_wg_chunk_scan_exclusive_<op>_<ty>(void *chunk, void *carry, ulong first)
 *
 * and, for groups of seg = 1, 2, 4, 8 or (32-bit types) 16 work-items run
 * 16 / seg groups per chunk, each group's segment of the chunk scanned on its
 * own (seg 16: the chunk is one group, scanned as a whole, with no carry):
 *
 *   void __lanecl_wg_chunk_segscan_inclusive_<op>_<ty>(void *chunk, ulong seg)
 *   void __lanecl_wg_chunk_segscan_exclusive_<op>_<ty>(void *chunk, ulong seg)
 *
 * and, for reductions of such packed groups, each group's segment of the
 * chunk folded and every lane of it given the result:
 *
 *   void __lanecl_wg_chunk_segreduce_<op>_<ty>(void *chunk, ulong seg)
 *   void __lanecl_wg_chunk_segall(int *chunk, ulong seg), ..._segany: 1 or 0
 *
 * and a broadcast of packed groups (32- or 64-bit elements as raw bits):
 * every lane of a segment gets the segment's element id:
 *
 *   void __lanecl_wg_chunk_segbcast_i32(void *chunk, ulong seg | id << 16), ..._i64
 *
 * The names are plain C names (no overloadable), the pointers generic.
 *
 * A scan runs over chunks of W lanes (one 512-bit register: 16 x 32-bit,
 * 8 x 64-bit): an in-register inclusive scan in log2(W) steps of "shift the
 * vector up by k lanes, fill the low lanes, combine", then the running carry
 * (a broadcast of everything before the chunk) is combined in.  The carry is
 * advanced by combining it with the chunk's own last lane, so the loop-carried
 * chain is one vector operation per chunk.  The n % W tail is a short scalar
 * loop that continues the carry.
 *
 * Fill values.  For ops with an exact identity (add, mul, xor, logical_xor)
 * the shifted-in lanes and the first carry are the identity.  For idempotent
 * ops (min, max, and, or, logical_and, logical_or) the shifted-in lanes are
 * the lanes' own values and the first carry is a broadcast of buf[0]: both
 * are no-ops for op(x, x) == x, and they keep fmin/fmax semantics exact: a
 * NaN operand is ignored when the other is a number, and an all-NaN input
 * yields NaN (an identity of +INF would turn it into +INF).  Float add pads
 * with -0.0, the exact additive identity (0.0 + -0.0 would be +0.0).  The
 * exclusive scan's first element is the spec's identity value.
 *
 * Integer add and mul wrap: they run on the unsigned type.  Logical ops
 * first map each operand to 1 (nonzero) or 0, and produce 0 or 1.
 * Floating-point results may differ from a sequential left fold by
 * rounding: the spec leaves the order of the operations undefined.
 */

#include "lanecl_builtins.h"

/* Lanes per chunk of a scan fused into the lane loops (the compiler's W for
 * 32-bit lanes on AVX-512; 64-bit types take two registers per chunk). */
#define CHUNK 16
/* ... and of the chunks of __lanecl_wg_chunk_hscan_*: 8 lanes, 256-bit pieces. */
#define HCHUNK 8

/* ---- in-register lane shifts: lanes [0, k) come from f, lane i >= k from v[i-k] ---- */
#define SHL16_1(v, f) __builtin_shufflevector(v, f, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
#define SHL16_2(v, f) __builtin_shufflevector(v, f, 16, 17, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
#define SHL16_4(v, f) __builtin_shufflevector(v, f, 16, 17, 18, 19, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
#define SHL16_8(v, f) __builtin_shufflevector(v, f, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7)
#define LAST16(v) __builtin_shufflevector(v, v, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15)

/* ---- butterflies: lane i takes lane i ^ k (segments of 2k lanes swap halves) ---- */
#define XOR16_1(v) __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)
#define XOR16_2(v) __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)
#define XOR16_4(v) __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11)
#define XOR16_8(v) __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7)
#define XOR8_1(v) __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6)
#define XOR8_2(v) __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5)
#define XOR8_4(v) __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3)

/* Every lane of each aligned segment of seg lanes (a power of two, at most
 * the register's lanes) gets the fold of its segment.  Each lane folds the
 * same pairs in the same tree (op(a, b) == op(b, a), bit for bit, floats
 * included), so the lanes of a segment agree exactly. */
#define LBFLY16(OPV, v, seg)                         \
  do {                                               \
    if ((seg) > 1) v = OPV(v, XOR16_1(v));           \
    if ((seg) > 2) v = OPV(v, XOR16_2(v));           \
    if ((seg) > 4) v = OPV(v, XOR16_4(v));           \
    if ((seg) > 8) v = OPV(v, XOR16_8(v));           \
  } while (0)
#define LBFLY8(OPV, v, seg)                          \
  do {                                               \
    if ((seg) > 1) v = OPV(v, XOR8_1(v));            \
    if ((seg) > 2) v = OPV(v, XOR8_2(v));            \
    if ((seg) > 4) v = OPV(v, XOR8_4(v));            \
  } while (0)

#define SHL8_1(v, f) __builtin_shufflevector(v, f, 8, 0, 1, 2, 3, 4, 5, 6)
#define SHL8_2(v, f) __builtin_shufflevector(v, f, 8, 9, 0, 1, 2, 3, 4, 5)
#define SHL8_4(v, f) __builtin_shufflevector(v, f, 8, 9, 10, 11, 0, 1, 2, 3)
#define LAST8(v) __builtin_shufflevector(v, v, 7, 7, 7, 7, 7, 7, 7, 7)
#define SHL4_1(v, f) __builtin_shufflevector(v, f, 4, 0, 1, 2)
#define SHL4_2(v, f) __builtin_shufflevector(v, f, 4, 5, 0, 1)
#define LAST4(v) __builtin_shufflevector(v, v, 3, 3, 3, 3)

/* Inclusive scan of one register; OPV(a, b) combines vectors, f is the fill. */
#define LSCAN16(OPV, v, f)         \
  do {                             \
    v = OPV(v, SHL16_1(v, f));     \
    v = OPV(v, SHL16_2(v, f));     \
    v = OPV(v, SHL16_4(v, f));     \
    v = OPV(v, SHL16_8(v, f));     \
  } while (0)
#define LSCAN8(OPV, v, f)          \
  do {                             \
    v = OPV(v, SHL8_1(v, f));      \
    v = OPV(v, SHL8_2(v, f));      \
    v = OPV(v, SHL8_4(v, f));      \
  } while (0)
#define LSCAN4(OPV, v, f)          \
  do {                             \
    v = OPV(v, SHL4_1(v, f));      \
    v = OPV(v, SHL4_2(v, f));      \
  } while (0)

/* Segmented inclusive scan of one register: independent scans of the
 * segments of seg lanes (seg a power of two <= 8, one small work-group
 * each); pos is each lane's index in its segment. */
#define SEGSTEP(OPV, SHL, v, f, pos, k) v = (pos) >= (__typeof__(pos))(k) ? OPV(v, SHL(v, f)) : v
#define LSEG16(OPV, v, f, pos, seg)                  \
  do {                                               \
    if ((seg) > 1) SEGSTEP(OPV, SHL16_1, v, f, pos, 1); \
    if ((seg) > 2) SEGSTEP(OPV, SHL16_2, v, f, pos, 2); \
    if ((seg) > 4) SEGSTEP(OPV, SHL16_4, v, f, pos, 4); \
  } while (0)
#define LSEG8(OPV, v, f, pos, seg)                   \
  do {                                               \
    if ((seg) > 1) SEGSTEP(OPV, SHL8_1, v, f, pos, 1); \
    if ((seg) > 2) SEGSTEP(OPV, SHL8_2, v, f, pos, 2); \
    if ((seg) > 4) SEGSTEP(OPV, SHL8_4, v, f, pos, 4); \
  } while (0)
/* Half-register forms, by the full register's lane count W: a chunk of
 * HCHUNK lanes runs as 256-bit pieces (one of 8 32-bit lanes, two of 4
 * 64-bit lanes). */
#define HLSCAN_16 LSCAN8
#define HLSCAN_8 LSCAN4
#define HSHL1_16 SHL8_1
#define HSHL1_8 SHL4_1
#define HLAST_16 LAST8
#define HLAST_8 LAST4
#define LANES16 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#define LANES8 0, 1, 2, 3, 4, 5, 6, 7

/* Horizontal fold of one register into lane 0 (as a scalar). */
#define HFOLD16(OPV, v)                                                                 \
  ({                                                                                    \
    __typeof__(__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7)) h8_ = OPV(         \
        __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7),                          \
        __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15));                   \
    HFOLD8(OPV, h8_);                                                                   \
  })
#define HFOLD8(OPV, v)                                                                  \
  ({                                                                                    \
    __typeof__(__builtin_shufflevector(v, v, 0, 1, 2, 3)) h4_ =                         \
        OPV(__builtin_shufflevector(v, v, 0, 1, 2, 3), __builtin_shufflevector(v, v, 4, 5, 6, 7)); \
    __typeof__(__builtin_shufflevector(v, v, 0, 1)) h2_ =                               \
        OPV(__builtin_shufflevector(h4_, h4_, 0, 1), __builtin_shufflevector(h4_, h4_, 2, 3)); \
    OPV(h2_[0], h2_[1]);                                                                \
  })

/* ---- the combine operations (work on scalars and vectors alike) ---- */
#define OP_add(a, b) ((a) + (b))
#define OP_mul(a, b) ((a) * (b))
/* (through locals: the elementwise builtins want operands of one type, address
 * space qualifier included, and shuffles of a __private value carry it) */
#define OP_min(a, b) ({ __typeof__(a) a_ = (a), b_ = (b); __builtin_elementwise_min(a_, b_); })
#define OP_max(a, b) ({ __typeof__(a) a_ = (a), b_ = (b); __builtin_elementwise_max(a_, b_); })
#define OP_and(a, b) ((a) & (b))
#define OP_or(a, b) ((a) | (b))
#define OP_xor(a, b) ((a) ^ (b))
#define OP_logical_and(a, b) ((a) & (b)) /* on 0/1 operands */
#define OP_logical_or(a, b) ((a) | (b))
#define OP_logical_xor(a, b) ((a) ^ (b))

/* Operand normalization: logical ops see 1 for nonzero, 0 for zero. */
#define NORMV_plain(VT, v) (v)
#define NORMS_plain(ET, x) (x)
#define NORMV_logical(VT, v) (__builtin_convertvector((v) != (VT)0, VT) & (VT)1)
#define NORMS_logical(ET, x) ((ET)((x) != (ET)0))

/* Sub-group collectives (compiler/cc_wg_subgroup.c): the group's operands
 * in linear id order, n work-items in rows of lx, each row in sub-groups of
 * S (the last one of a row shorter when S does not divide lx); each
 * sub-group is scanned or reduced on its own, with no carry from one to the
 * next, and every work-item gets its result in dst (a reduction's result in
 * each of its sub-group's elements):
 *
 *   void __lanecl_sg_scan_inclusive_<op>_<ty>(void *src, void *dst, ulong n | lx << 24 | S << 48)
 *   void __lanecl_sg_scan_exclusive_<op>_<ty>(...), __lanecl_sg_reduce_<op>_<ty>(...)
 *   void __lanecl_sg_all(...), __lanecl_sg_any(...)   on ints, 1 or 0
 *
 * A sub-group of W lanes (one register) is one in-register scan or one
 * butterfly; other sizes take the work-group helpers' loop over registers. */
#define DEF_SG(NAME, ET, VT, W, OP, NORM, IDEMP, PAD)                                             \
  static inline void sg_each_##NAME(const ET *p, ET *d, ulong nls, int what)          \
  {                                                                                   \
    ulong n = nls & 0xffffff, lx = (nls >> 24) & 0xffffff, S = nls >> 48;             \
    if (!lx || !S)                                                                    \
      return;                                                                         \
    for (ulong row = 0; row < n; row += lx)                                           \
      for (ulong s = row; s < row + lx; s += S) {                                     \
        ulong k = row + lx - s < S ? row + lx - s : S;                                \
        if (what == 2 && S < W && (W % S) == 0 && row + lx - s >= W) {                \
          /* W / S whole sub-groups in one register: a segmented butterfly */        \
          VT v = NORMV_##NORM(VT, *(const VT##_u_##NAME *)(p + s));                   \
          LBFLY##W(OP, v, S);                                                         \
          *(VT##_u_##NAME *)(d + s) = v;                                              \
          s += W - S;                                                                 \
          continue;                                                                   \
        }                                                                             \
        if (what < 2) {                                                               \
          scan_##NAME(p + s, d + s, k, what);                                         \
        } else if (k == W) {                                                          \
          VT v = NORMV_##NORM(VT, *(const VT##_u_##NAME *)(p + s));                   \
          LBFLY##W(OP, v, W);                                                         \
          *(VT##_u_##NAME *)(d + s) = v;                                              \
        } else {                                                                      \
          for (ulong i = 0; i < k; i++)                                               \
            d[s + i] = p[s + i];                                                      \
          reduce_##NAME(d + s, k);                                                    \
          for (ulong i = 1; i < k; i++)                                               \
            d[s + i] = d[s];                                                          \
        }                                                                             \
      }                                                                               \
  }                                                                                   \
  void __lanecl_sg_scan_inclusive_##NAME(void *src, void *dst, ulong nls)             \
  {                                                                                   \
    sg_each_##NAME((const ET *)src, (ET *)dst, nls, 0);                               \
  }                                                                                   \
  void __lanecl_sg_scan_exclusive_##NAME(void *src, void *dst, ulong nls)             \
  {                                                                                   \
    sg_each_##NAME((const ET *)src, (ET *)dst, nls, 1);                               \
  }                                                                                   \
  void __lanecl_sg_reduce_##NAME(void *src, void *dst, ulong nls)                     \
  {                                                                                   \
    sg_each_##NAME((const ET *)src, (ET *)dst, nls, 2);                               \
  }                                                                                   \
  /* Fused into the lane loops: a chunk of CHUNK lanes is one sub-group of   \
   * CHUNK, scanned in place without a carry; a reduction's chunk holds      \
   * *(ulong *)carry lanes (fewer in a row's last chunk), the rest ignored.  */ \
  __attribute__((always_inline)) void __lanecl_sg_chunk_scan_inclusive_##NAME(void *p, void *carry, ulong first) \
  {                                                                                   \
    cscan_##NAME((ET *)p, (VT *)carry, 1, false);                                     \
  }                                                                                   \
  __attribute__((always_inline)) void __lanecl_sg_chunk_scan_exclusive_##NAME(void *p, void *carry, ulong first) \
  {                                                                                   \
    cscan_##NAME((ET *)p, (VT *)carry, 1, true);                                      \
  }                                                                                   \
  __attribute__((always_inline)) void __lanecl_sg_chunk_reduce_##NAME(void *pv, void *carry, ulong first) \
  {                                                                                   \
    ET *p = (ET *)pv;                                                                 \
    ulong cnt = *(ulong *)carry;                                                      \
    VT f = IDEMP ? (VT)(NORMS_##NORM(ET, p[0])) : (VT)(PAD);                          \
    VT acc = f;                                                                       \
    for (uint i = 0; i < CHUNK; i += W) {                                             \
      VT v = NORMV_##NORM(VT, *(VT##_u_##NAME *)(p + i));                             \
      __typeof__(v < v) lane = (__typeof__(v < v))(LANES##W) + (__typeof__(v < v))i;  \
      v = lane < (__typeof__(lane))cnt ? v : f;                                       \
      acc = OP(acc, v);                                                               \
    }                                                                                 \
    LBFLY##W(OP, acc, W);                                                             \
    for (uint i = 0; i < CHUNK; i += W)                                               \
      *(VT##_u_##NAME *)(p + i) = acc;                                                \
  }

/* One family of three helpers for (op, ty).
 *   NAME    op_ty suffix             ET  element type (the arithmetic type)
 *   VT      W-lane vector of ET      W   16 or 8 (SHL/LAST/LSCAN/HFOLD by width)
 *   OP      OP_<op>                  NORM  plain or logical
 *   IDEMP   1: op(x, x) == x (fill with own lanes / buf[0]); 0: fill with PAD
 *   PAD     exact identity used for fills (non-idempotent ops)
 *   IDOUT   the spec's identity, the exclusive scan's first element */
#define DEF_COLL(NAME, ET, VT, W, OP, NORM, IDEMP, PAD, IDOUT)                        \
  typedef ET VT##_u_##NAME __attribute__((ext_vector_type(W), aligned(sizeof(ET))));   \
                                                                                      \
  static inline VT lscan_##NAME(VT v)                                                 \
  {                                                                                   \
    VT f = IDEMP ? v : (VT)(PAD);                                                     \
    if (IDEMP) {                                                                      \
      LSCAN##W(OP, v, v);                                                             \
    } else {                                                                          \
      LSCAN##W(OP, v, f);                                                             \
    }                                                                                 \
    return v;                                                                         \
  }                                                                                   \
                                                                                      \
  static inline void scan_##NAME(const ET *p, ET *d, ulong n, bool exclusive)         \
  {                                                                                   \
    if (n == 0)                                                                       \
      return;                                                                         \
    VT carry = IDEMP ? (VT)(NORMS_##NORM(ET, p[0])) : (VT)(PAD);                      \
    ulong i = 0;                                                                      \
    for (; i + W <= n; i += W) {                                                      \
      VT v = NORMV_##NORM(VT, *(const VT##_u_##NAME *)(p + i));                       \
      v = lscan_##NAME(v);                                                            \
      VT r = OP(v, carry);                                                            \
      if (exclusive)                                                                  \
        *(VT##_u_##NAME *)(d + i) = SHL##W##_1(r, carry);                             \
      else                                                                            \
        *(VT##_u_##NAME *)(d + i) = r;                                                \
      carry = OP(carry, LAST##W(v));                                                  \
    }                                                                                 \
    ET c = carry[0];                                                                  \
    for (; i < n; i++) {                                                              \
      ET x = NORMS_##NORM(ET, p[i]);                                                  \
      ET r = OP(c, x);                                                                \
      d[i] = exclusive ? c : r;                                                       \
      c = r;                                                                          \
    }                                                                                 \
    if (exclusive)                                                                    \
      d[0] = (ET)(IDOUT);                                                             \
  }                                                                                   \
                                                                                      \
  static inline void reduce_##NAME(ET *p, ulong n)                                    \
  {                                                                                   \
    if (n == 0)                                                                       \
      return;                                                                         \
    VT init = IDEMP ? (VT)(NORMS_##NORM(ET, p[0])) : (VT)(PAD);                       \
    VT a0 = init, a1 = init, a2 = init, a3 = init;                                    \
    ulong i = 0;                                                                      \
    for (; i + 4 * W <= n; i += 4 * W) {                                              \
      a0 = OP(a0, NORMV_##NORM(VT, *(VT##_u_##NAME *)(p + i)));                       \
      a1 = OP(a1, NORMV_##NORM(VT, *(VT##_u_##NAME *)(p + i + W)));                   \
      a2 = OP(a2, NORMV_##NORM(VT, *(VT##_u_##NAME *)(p + i + 2 * W)));               \
      a3 = OP(a3, NORMV_##NORM(VT, *(VT##_u_##NAME *)(p + i + 3 * W)));               \
    }                                                                                 \
    for (; i + W <= n; i += W)                                                        \
      a0 = OP(a0, NORMV_##NORM(VT, *(VT##_u_##NAME *)(p + i)));                       \
    a0 = OP(OP(a0, a1), OP(a2, a3));                                                  \
    ET c = HFOLD##W(OP, a0);                                                          \
    for (; i < n; i++)                                                                \
      c = OP(c, NORMS_##NORM(ET, p[i]));                                              \
    p[0] = c;                                                                         \
  }                                                                                   \
                                                                                      \
  /* One chunk of CHUNK (16) lanes of a scan fused into the lane loops:     \
   * scanned in place, continuing *carryp (the first chunk sets it up). */    \
  static inline __attribute__((always_inline)) void cscan_##NAME(ET *p, VT *carryp, ulong first, bool exclusive) \
  {                                                                           \
    VT carry = first ? (IDEMP ? (VT)(NORMS_##NORM(ET, p[0])) : (VT)(PAD)) : *carryp; \
    for (uint i = 0; i < CHUNK; i += W) {                                     \
      VT v = NORMV_##NORM(VT, *(VT##_u_##NAME *)(p + i));                     \
      v = lscan_##NAME(v);                                                    \
      VT r = OP(v, carry);                                                    \
      if (exclusive) {                                                        \
        r = SHL##W##_1(r, carry);                                             \
        if (first && i == 0)                                                  \
          r[0] = (ET)(IDOUT);                                                 \
      }                                                                       \
      *(VT##_u_##NAME *)(p + i) = r;                                          \
      carry = OP(carry, LAST##W(v));                                          \
    }                                                                         \
    *carryp = carry;                                                          \
  }                                                                           \
                                                                              \
  /* The same for a chunk of HCHUNK (8) lanes in 256-bit pieces, for CPUs  \
   * that split 512-bit shuffles in two: Zen 4 runs 2 of 256 bits per      \
   * cycle but 1 of 512, so 8 shuffles of 256 bits per 16 lanes beat 5 of  \
   * 512.  *carryp holds a half register.                                    */ \
  typedef ET VH_##NAME __attribute__((ext_vector_type(W / 2)));               \
  typedef ET VH_##NAME##_u __attribute__((ext_vector_type(W / 2), aligned(sizeof(ET)))); \
  static inline __attribute__((always_inline)) void chscan_##NAME(ET *p, VH_##NAME *carryp, ulong first, bool exclusive) \
  {                                                                           \
    VH_##NAME carry = first ? (IDEMP ? (VH_##NAME)(NORMS_##NORM(ET, p[0])) : (VH_##NAME)(PAD)) : *carryp; \
    for (uint i = 0; i < HCHUNK; i += W / 2) {                                \
      VH_##NAME v = NORMV_##NORM(VH_##NAME, *(VH_##NAME##_u *)(p + i));       \
      VH_##NAME f = (VH_##NAME)(PAD);                                         \
      if (IDEMP) {                                                            \
        HLSCAN_##W(OP, v, v);                                                 \
      } else {                                                                \
        HLSCAN_##W(OP, v, f);                                                 \
      }                                                                       \
      VH_##NAME r = OP(v, carry);                                             \
      if (exclusive) {                                                        \
        r = HSHL1_##W(r, carry);                                              \
        if (first && i == 0)                                                  \
          r[0] = (ET)(IDOUT);                                                 \
      }                                                                       \
      *(VH_##NAME##_u *)(p + i) = r;                                          \
      carry = OP(carry, HLAST_##W(v));                                        \
    }                                                                         \
    *carryp = carry;                                                          \
  }                                                                           \
  __attribute__((always_inline)) void __lanecl_wg_chunk_hscan_inclusive_##NAME(void *p, void *carry, ulong first) \
  {                                                                           \
    chscan_##NAME((ET *)p, (VH_##NAME *)carry, first, false);                 \
  }                                                                           \
  __attribute__((always_inline)) void __lanecl_wg_chunk_hscan_exclusive_##NAME(void *p, void *carry, ulong first) \
  {                                                                           \
    chscan_##NAME((ET *)p, (VH_##NAME *)carry, first, true);                  \
  }                                                                           \
                                                                              \
  /* One chunk of CHUNK lanes holding CHUNK / seg small work-groups of seg   \
   * work-items each (seg a power of two, at most W): each scanned alone. */ \
  static inline __attribute__((always_inline)) void csegscan_##NAME(ET *p, ulong seg, bool exclusive) \
  {                                                                           \
    if (seg == W) { /* one group per register */                              \
      for (uint i = 0; i < CHUNK; i += W) {                                   \
        VT v = NORMV_##NORM(VT, *(VT##_u_##NAME *)(p + i));                   \
        VT f = IDEMP ? v : (VT)(PAD);                                         \
        VT s = lscan_##NAME(v);                                               \
        if (exclusive) {                                                      \
          s = SHL##W##_1(s, f);                                               \
          s[0] = (ET)(IDOUT);                                                 \
        }                                                                     \
        *(VT##_u_##NAME *)(p + i) = s;                                        \
      }                                                                       \
      return;                                                                 \
    }                                                                         \
    for (uint i = 0; i < CHUNK; i += W) {                                     \
      VT v = NORMV_##NORM(VT, *(VT##_u_##NAME *)(p + i));                     \
      __typeof__(v < v) pos = (__typeof__(v < v))(LANES##W) & (__typeof__(v < v))(seg - 1); \
      VT f = IDEMP ? v : (VT)(PAD);                                           \
      LSEG##W(OP, v, f, pos, seg);                                            \
      if (exclusive)                                                          \
        v = pos == (__typeof__(pos))0 ? (VT)(IDOUT) : SHL##W##_1(v, f);       \
      *(VT##_u_##NAME *)(p + i) = v;                                          \
    }                                                                         \
  }                                                                           \
                                                                              \
  /* One chunk of packed small groups (as above), reduced per group.     */ \
  static inline __attribute__((always_inline)) void csegreduce_##NAME(ET *p, ulong seg) \
  {                                                                           \
    for (uint i = 0; i < CHUNK; i += W) {                                     \
      VT v = NORMV_##NORM(VT, *(VT##_u_##NAME *)(p + i));                     \
      LBFLY##W(OP, v, seg);                                                   \
      *(VT##_u_##NAME *)(p + i) = v;                                          \
    }                                                                         \
  }                                                                           \
  __attribute__((always_inline)) void __lanecl_wg_chunk_segreduce_##NAME(void *p, ulong seg) \
  {                                                                           \
    csegreduce_##NAME((ET *)p, seg);                                          \
  }                                                                           \
                                                                              \
  __attribute__((always_inline)) void __lanecl_wg_chunk_segscan_inclusive_##NAME(void *p, ulong seg) \
  {                                                                           \
    csegscan_##NAME((ET *)p, seg, false);                                     \
  }                                                                           \
  __attribute__((always_inline)) void __lanecl_wg_chunk_segscan_exclusive_##NAME(void *p, ulong seg) \
  {                                                                           \
    csegscan_##NAME((ET *)p, seg, true);                                      \
  }                                                                           \
                                                                              \
  __attribute__((always_inline)) void __lanecl_wg_chunk_scan_inclusive_##NAME(void *p, void *carry, ulong first) \
  {                                                                           \
    cscan_##NAME((ET *)p, (VT *)carry, first, false);                         \
  }                                                                           \
  __attribute__((always_inline)) void __lanecl_wg_chunk_scan_exclusive_##NAME(void *p, void *carry, ulong first) \
  {                                                                           \
    cscan_##NAME((ET *)p, (VT *)carry, first, true);                          \
  }                                                                           \
                                                                              \
  void __lanecl_wg_scan_inclusive_##NAME(void *src, void *dst, ulong n)               \
  {                                                                                   \
    scan_##NAME((const ET *)src, (ET *)dst, n, false);                                \
  }                                                                                   \
  void __lanecl_wg_scan_exclusive_##NAME(void *src, void *dst, ulong n)               \
  {                                                                                   \
    scan_##NAME((const ET *)src, (ET *)dst, n, true);                                 \
  }                                                                                   \
  void __lanecl_wg_reduce_##NAME(void *buf, ulong n)                                  \
  {                                                                                   \
    reduce_##NAME((ET *)buf, n);                                                      \
  }                                                                                   \
  DEF_SG(NAME, ET, VT, W, OP, NORM, IDEMP, PAD)

/* Integer families: ET is the unsigned type for add/mul (wrapping), the
 * signed or unsigned type for min/max, anything for the bitwise ops. */
#define DEF_INT_COLLS(TY, ST, UT, SV, UV, W, SMIN, SMAX)                               \
  DEF_COLL(add_##TY, UT, UV, W, OP_add, plain, 0, 0, 0)                               \
  DEF_COLL(mul_##TY, UT, UV, W, OP_mul, plain, 0, 1, 1)                               \
  DEF_COLL(min_##TY, ST, SV, W, OP_min, plain, 1, SMAX, SMAX)                         \
  DEF_COLL(max_##TY, ST, SV, W, OP_max, plain, 1, SMIN, SMIN)                         \
  DEF_COLL(and_##TY, UT, UV, W, OP_and, plain, 1, ~(UT)0, ~(UT)0)                     \
  DEF_COLL(or_##TY, UT, UV, W, OP_or, plain, 1, 0, 0)                                 \
  DEF_COLL(xor_##TY, UT, UV, W, OP_xor, plain, 0, 0, 0)                               \
  DEF_COLL(logical_and_##TY, UT, UV, W, OP_logical_and, logical, 1, 1, 1)             \
  DEF_COLL(logical_or_##TY, UT, UV, W, OP_logical_or, logical, 1, 0, 0)               \
  DEF_COLL(logical_xor_##TY, UT, UV, W, OP_logical_xor, logical, 0, 0, 0)

DEF_INT_COLLS(i32, int, uint, int16, uint16, 16, INT_MIN, INT_MAX)
DEF_INT_COLLS(u32, uint, uint, uint16, uint16, 16, 0, UINT_MAX)
DEF_INT_COLLS(i64, long, ulong, long8, ulong8, 8, LONG_MIN, LONG_MAX)
DEF_INT_COLLS(u64, ulong, ulong, ulong8, ulong8, 8, 0, ULONG_MAX)

/* Floating-point families: add pads with -0.0, min/max use fmin/fmax
 * semantics (llvm.minnum/maxnum) with idempotent fills. */
#define DEF_FP_COLLS(TY, ET, VT, W, INF)                                              \
  DEF_COLL(add_##TY, ET, VT, W, OP_add, plain, 0, -(ET)0.0, (ET)0.0)                  \
  DEF_COLL(mul_##TY, ET, VT, W, OP_mul, plain, 0, (ET)1.0, (ET)1.0)                   \
  DEF_COLL(min_##TY, ET, VT, W, OP_min, plain, 1, INF, INF)                           \
  DEF_COLL(max_##TY, ET, VT, W, OP_max, plain, 1, -INF, -INF)

DEF_FP_COLLS(f32, float, float16, 16, INFINITY)
DEF_FP_COLLS(f64, double, double8, 8, (double)INFINITY)

#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
/* half: 32 lanes fill a 512-bit register; the shifts are written for 16
 * lanes, which is half a register and still log2(16) steps per 16 items. */
DEF_FP_COLLS(h16, half, half16, 16, (half)INFINITY)
#endif

/* all / any: logical and / or over ints, 1 or 0 in buf[0]. */
void __lanecl_wg_all(int *buf, ulong n)
{
  reduce_logical_and_u32((uint *)buf, n);
}

void __lanecl_wg_any(int *buf, ulong n)
{
  reduce_logical_or_u32((uint *)buf, n);
}

void __lanecl_sg_all(void *src, void *dst, ulong nls)
{
  sg_each_logical_and_u32((const uint *)src, (uint *)dst, nls, 2);
}

void __lanecl_sg_any(void *src, void *dst, ulong nls)
{
  sg_each_logical_or_u32((const uint *)src, (uint *)dst, nls, 2);
}

__attribute__((always_inline)) void __lanecl_sg_chunk_all(void *p, void *carry, ulong first)
{
  __lanecl_sg_chunk_reduce_logical_and_u32(p, carry, first);
}

__attribute__((always_inline)) void __lanecl_sg_chunk_any(void *p, void *carry, ulong first)
{
  __lanecl_sg_chunk_reduce_logical_or_u32(p, carry, first);
}

/* Broadcast in packed small groups: lane j takes element (j & -seg) + id of
 * its register (segments never straddle registers: seg <= W).  An id outside
 * the group (undefined behaviour) takes work-item 0's element.  seg and id
 * are constants where the compiler calls this, so the lane loop folds into
 * one shuffle. */
#define DEF_SEGBCAST(NAME, ET, W)                                                  \
  typedef ET segbcast_v_##NAME __attribute__((ext_vector_type(W), aligned(sizeof(ET)))); \
  __attribute__((always_inline)) void __lanecl_wg_chunk_segbcast_##NAME(void *p, ulong seg_id) \
  {                                                                                \
    uint seg = (uint)(seg_id & 0xffff), id = (uint)(seg_id >> 16);                 \
    if (id >= seg)                                                                 \
      id = 0;                                                                      \
    for (uint i = 0; i < CHUNK; i += W) {                                          \
      segbcast_v_##NAME v = *(segbcast_v_##NAME *)((ET *)p + i), r;                \
      for (uint j = 0; j < W; j++)                                                 \
        r[j] = v[(j & ~(seg - 1)) + id];                                           \
      *(segbcast_v_##NAME *)((ET *)p + i) = r;                                     \
    }                                                                              \
  }
DEF_SEGBCAST(i32, uint, 16)
DEF_SEGBCAST(i64, ulong, 8)

__attribute__((always_inline)) void __lanecl_wg_chunk_segall(int *chunk, ulong seg)
{
  csegreduce_logical_and_u32((uint *)chunk, seg);
}

__attribute__((always_inline)) void __lanecl_wg_chunk_segany(int *chunk, ulong seg)
{
  csegreduce_logical_or_u32((uint *)chunk, seg);
}

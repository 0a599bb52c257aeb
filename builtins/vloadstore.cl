/* vload/vstore (OpenCL C 3.0 section 6.15.11) for every scalar type, n = 2,
 * 3, 4, 8, 16, every address space (generic and the named ones; __constant
 * for loads), and the half conversions: vload_half[n], vloada_half[n],
 * vstore_half[n][_rte|_rtz|_rtp|_rtn], vstorea_half[n][...] from float and
 * double.
 *
 * The pointer need only be aligned to the element (vloada/vstorea: to the
 * vector), so loads and stores go through vector types with the element's
 * alignment.  Three-element vectors are moved element by element: clang
 * widens a 3-vector access to four elements, and vstore3 must not write the
 * fourth.  float -> half with the default rounding (to nearest even) is the
 * hardware conversion; the other modes and double -> half (rounded once,
 * not through float) are half_conv.h's integer code.
 */

#include "half_conv.h"

/* element-aligned vector types: T##N##_ua */
#define DEF_UA(T, N, L, K) typedef T T##N##_ua __attribute__((ext_vector_type(L), aligned(sizeof(T))));
#define UA_WIDTHS(DEF, T) DEF(T, 2, 2, V) DEF(T, 4, 4, V) DEF(T, 8, 8, V) DEF(T, 16, 16, V)
#define FOR_ALL_SCALAR_TYPES(F, ...)                                                       \
  F(__VA_ARGS__, char) F(__VA_ARGS__, uchar) F(__VA_ARGS__, short) F(__VA_ARGS__, ushort)  \
  F(__VA_ARGS__, int) F(__VA_ARGS__, uint) F(__VA_ARGS__, long) F(__VA_ARGS__, ulong)      \
  F(__VA_ARGS__, float) F(__VA_ARGS__, double) FOR_HALF_SCALAR(F, __VA_ARGS__)
#ifdef cl_khr_fp16
#define FOR_HALF_SCALAR(F, ...) F(__VA_ARGS__, half)
#else
#define FOR_HALF_SCALAR(F, ...)
#endif
FOR_ALL_SCALAR_TYPES(UA_WIDTHS, DEF_UA)

#define DEF_VLOAD(T, N, AS)                                                               \
  OVLD T##N vload##N(size_t off, const AS T *p)                                            \
  {                                                                                        \
    return *(const AS T##N##_ua *)(p + off * N);                                           \
  }                                                                                        \
  OVLD void vstore##N(T##N v, size_t off, AS T *p)                                         \
  {                                                                                        \
    *(AS T##N##_ua *)(p + off * N) = v;                                                    \
  }
#define DEF_VLOAD3(T, AS)                                                                 \
  OVLD T##3 vload3(size_t off, const AS T *p)                                              \
  {                                                                                        \
    const AS T *q = p + off * 3;                                                           \
    return (T##3)(q[0], q[1], q[2]);                                                       \
  }                                                                                        \
  OVLD void vstore3(T##3 v, size_t off, AS T *p)                                           \
  {                                                                                        \
    AS T *q = p + off * 3;                                                                 \
    q[0] = v.s0;                                                                           \
    q[1] = v.s1;                                                                           \
    q[2] = v.s2;                                                                           \
  }
#define DEF_VLOAD_AS(T, AS)                                                               \
  DEF_VLOAD(T, 2, AS) DEF_VLOAD3(T, AS) DEF_VLOAD(T, 4, AS) DEF_VLOAD(T, 8, AS)            \
  DEF_VLOAD(T, 16, AS)
#define DEF_VLOAD_ALL_AS(UNUSED, T) FOR_WRITABLE_AS(DEF_VLOAD_AS, T)
FOR_ALL_SCALAR_TYPES(DEF_VLOAD_ALL_AS, 0)

/* __constant: loads only */
#define DEF_VLOAD_CONST(T, N)                                                             \
  OVLD T##N vload##N(size_t off, const __constant T *p)                                    \
  {                                                                                        \
    return *(const __constant T##N##_ua *)(p + off * N);                                   \
  }
#define DEF_VLOAD_CONST_ALL(UNUSED, T)                                                    \
  DEF_VLOAD_CONST(T, 2) DEF_VLOAD_CONST(T, 4) DEF_VLOAD_CONST(T, 8) DEF_VLOAD_CONST(T, 16) \
  OVLD T##3 vload3(size_t off, const __constant T *p)                                      \
  {                                                                                        \
    const __constant T *q = p + off * 3;                                                   \
    return (T##3)(q[0], q[1], q[2]);                                                       \
  }
FOR_ALL_SCALAR_TYPES(DEF_VLOAD_CONST_ALL, 0)

/* ------------------------------------------------------------------------ */
/* half <-> float                                                           */

/* bits -> float, exact */
#define H2F_S(u) ((float)__builtin_astype((ushort)(u), half))
#define H2F_V(N, u) __builtin_convertvector(__builtin_astype(u, half##N), float##N)

/* loads of n halves: unaligned (element-aligned) and vector-aligned */
#define DEF_VLOAD_HALF(AS)                                                                \
  OVLD float vload_half(size_t off, const AS half *p)                                      \
  {                                                                                        \
    return H2F_S(((const AS ushort *)p)[off]);                                             \
  }                                                                                        \
  DEF_VLOAD_HALF_N(AS, 2)                                                                  \
  DEF_VLOAD_HALF_N(AS, 4)                                                                  \
  DEF_VLOAD_HALF_N(AS, 8)                                                                  \
  DEF_VLOAD_HALF_N(AS, 16)                                                                 \
  OVLD float3 vload_half3(size_t off, const AS half *p)                                    \
  {                                                                                        \
    const AS ushort *q = (const AS ushort *)p + off * 3;                                   \
    return H2F_V(3, ((ushort3)(q[0], q[1], q[2])));                                        \
  }                                                                                        \
  OVLD float3 vloada_half3(size_t off, const AS half *p)                                   \
  {                                                                                        \
    const AS ushort *q = (const AS ushort *)p + off * 4;                                   \
    return H2F_V(3, ((ushort3)(q[0], q[1], q[2])));                                        \
  }
#define DEF_VLOAD_HALF_N(AS, N)                                                           \
  OVLD float##N vload_half##N(size_t off, const AS half *p)                                \
  {                                                                                        \
    ushort##N u = *(const AS ushort##N##_ua *)((const AS ushort *)p + off * N);            \
    return H2F_V(N, u);                                                                    \
  }                                                                                        \
  OVLD float##N vloada_half##N(size_t off, const AS half *p)                               \
  {                                                                                        \
    ushort##N u = *(const AS ushort##N *)((const AS ushort *)p + off * N);                 \
    return H2F_V(N, u);                                                                    \
  }
DEF_VLOAD_HALF(__generic)
DEF_VLOAD_HALF(__global)
DEF_VLOAD_HALF(__local)
DEF_VLOAD_HALF(__private)
DEF_VLOAD_HALF(__constant)

/* float/double -> half bits by mode; the default and _rte of float use the
 * hardware conversion */
#define TOH_float_(N, K, x) TOH_FLOAT_RTE_##K(N, x)
#define TOH_float__rte(N, K, x) TOH_FLOAT_RTE_##K(N, x)
#define TOH_float__rtz(N, K, x) f2h_##N(x, RM_RTZ)
#define TOH_float__rtp(N, K, x) f2h_##N(x, RM_RTP)
#define TOH_float__rtn(N, K, x) f2h_##N(x, RM_RTN)
#define TOH_double_(N, K, x) d2h_##N(x, RM_RTE)
#define TOH_double__rte(N, K, x) d2h_##N(x, RM_RTE)
#define TOH_double__rtz(N, K, x) d2h_##N(x, RM_RTZ)
#define TOH_double__rtp(N, K, x) d2h_##N(x, RM_RTP)
#define TOH_double__rtn(N, K, x) d2h_##N(x, RM_RTN)
#define TOH_FLOAT_RTE_S(N, x) __builtin_astype((half)(x), ushort)
#define TOH_FLOAT_RTE_V(N, x) __builtin_astype(__builtin_convertvector(x, half##N), ushort##N)

#define DEF_VSTORE_HALF(T, R, AS)                                                         \
  OVLD void vstore_half##R(T x, size_t off, AS half *p)                                    \
  {                                                                                        \
    ((AS ushort *)p)[off] = TOH_##T##_##R(, S, x);                                         \
  }                                                                                        \
  DEF_VSTORE_HALF_N(T, R, AS, 2)                                                           \
  DEF_VSTORE_HALF_N(T, R, AS, 4)                                                           \
  DEF_VSTORE_HALF_N(T, R, AS, 8)                                                           \
  DEF_VSTORE_HALF_N(T, R, AS, 16)                                                          \
  OVLD void vstore_half3##R(T##3 x, size_t off, AS half *p)                                \
  {                                                                                        \
    ushort3 h = TOH_##T##_##R(3, V, x);                                                    \
    AS ushort *q = (AS ushort *)p + off * 3;                                               \
    q[0] = h.s0;                                                                           \
    q[1] = h.s1;                                                                           \
    q[2] = h.s2;                                                                           \
  }                                                                                        \
  OVLD void vstorea_half3##R(T##3 x, size_t off, AS half *p)                               \
  {                                                                                        \
    ushort3 h = TOH_##T##_##R(3, V, x);                                                    \
    AS ushort *q = (AS ushort *)p + off * 4;                                               \
    q[0] = h.s0;                                                                           \
    q[1] = h.s1;                                                                           \
    q[2] = h.s2;                                                                           \
  }
#define DEF_VSTORE_HALF_N(T, R, AS, N)                                                    \
  OVLD void vstore_half##N##R(T##N x, size_t off, AS half *p)                              \
  {                                                                                        \
    *(AS ushort##N##_ua *)((AS ushort *)p + off * N) = TOH_##T##_##R(N, V, x);             \
  }                                                                                        \
  OVLD void vstorea_half##N##R(T##N x, size_t off, AS half *p)                             \
  {                                                                                        \
    *(AS ushort##N *)((AS ushort *)p + off * N) = TOH_##T##_##R(N, V, x);                  \
  }
#define DEF_VSTORE_HALF_MODES(T, AS)                                                      \
  DEF_VSTORE_HALF(T, , AS) DEF_VSTORE_HALF(T, _rte, AS) DEF_VSTORE_HALF(T, _rtz, AS)      \
  DEF_VSTORE_HALF(T, _rtp, AS) DEF_VSTORE_HALF(T, _rtn, AS)
#define DEF_VSTORE_HALF_ALL(UNUSED, AS) DEF_VSTORE_HALF_MODES(float, AS) DEF_VSTORE_HALF_MODES(double, AS)
FOR_WRITABLE_AS(DEF_VSTORE_HALF_ALL, 0)

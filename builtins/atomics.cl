/* Atomic functions and fences.
 *   OpenCL 1.x atomic_add sub xchg inc dec cmpxchg min max and or xor (int,
 *     uint, xchg also float; __global and __local) and the cl_khr_*_atomics
 *     atom_* names (int, uint, long, ulong).  Sequentially consistent read-
 *     modify-writes (a locked instruction on x86 either way).
 *   OpenCL 2.0+ C11-style atomic_init load store exchange
 *     compare_exchange_strong/weak fetch_add sub and or xor min max (and the
 *     _explicit forms with an order, or order and scope), atomic_flag_*,
 *     atomic_work_item_fence, for __generic, __global and __local objects;
 *     float, double and half for the ops cl_ext_float_atomics defines.
 *   mem_fence, read_mem_fence, write_mem_fence.
 *
 * Memory scopes: every work-item of a work-group runs on one thread, so a
 * scope up to the work-group needs only a compiler fence; device and wider
 * scopes take a real fence.  Atomic operations themselves are system-wide
 * whatever the scope.
 */

#include "lanecl_builtins.h"

#pragma clang diagnostic ignored "-Watomic-alignment"

/* ---- fences ---- */
INLINE void fence_for(memory_order order, memory_scope scope)
{
  if (order == memory_order_relaxed)
    return;
  if (scope == memory_scope_work_item || scope == memory_scope_work_group ||
      scope == memory_scope_sub_group)
    __c11_atomic_signal_fence(order);
  else
    __c11_atomic_thread_fence(order);
}

OVLD void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order, memory_scope scope)
{
  fence_for(order, scope);
}

/* mem_fence orders one work-item's accesses as seen by its work-group */
OVLD void mem_fence(cl_mem_fence_flags flags)
{
  __c11_atomic_signal_fence(__ATOMIC_SEQ_CST);
}
OVLD void read_mem_fence(cl_mem_fence_flags flags)
{
  __c11_atomic_signal_fence(__ATOMIC_ACQUIRE);
}
OVLD void write_mem_fence(cl_mem_fence_flags flags)
{
  __c11_atomic_signal_fence(__ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------------ */
/* OpenCL 1.x                                                               */

#define SC __ATOMIC_SEQ_CST
#define DEF_ATOM1X(PFX, T, AS)                                                            \
  OVLD T PFX##add(volatile AS T *p, T v)                                                   \
  {                                                                                        \
    return __atomic_fetch_add(p, v, SC);                                                   \
  }                                                                                        \
  OVLD T PFX##sub(volatile AS T *p, T v)                                                   \
  {                                                                                        \
    return __atomic_fetch_sub(p, v, SC);                                                   \
  }                                                                                        \
  OVLD T PFX##xchg(volatile AS T *p, T v)                                                  \
  {                                                                                        \
    return __atomic_exchange_n(p, v, SC);                                                  \
  }                                                                                        \
  OVLD T PFX##inc(volatile AS T *p)                                                        \
  {                                                                                        \
    return __atomic_fetch_add(p, (T)1, SC);                                                \
  }                                                                                        \
  OVLD T PFX##dec(volatile AS T *p)                                                        \
  {                                                                                        \
    return __atomic_fetch_sub(p, (T)1, SC);                                                \
  }                                                                                        \
  OVLD T PFX##cmpxchg(volatile AS T *p, T cmp, T v)                                        \
  {                                                                                        \
    __atomic_compare_exchange_n(p, &cmp, v, false, SC, SC);                                \
    return cmp; /* the old value, whether or not it was swapped */                         \
  }                                                                                        \
  OVLD T PFX##min(volatile AS T *p, T v)                                                   \
  {                                                                                        \
    return __atomic_fetch_min(p, v, SC);                                                   \
  }                                                                                        \
  OVLD T PFX##max(volatile AS T *p, T v)                                                   \
  {                                                                                        \
    return __atomic_fetch_max(p, v, SC);                                                   \
  }                                                                                        \
  OVLD T PFX##and(volatile AS T *p, T v)                                                   \
  {                                                                                        \
    return __atomic_fetch_and(p, v, SC);                                                   \
  }                                                                                        \
  OVLD T PFX##or(volatile AS T *p, T v)                                                    \
  {                                                                                        \
    return __atomic_fetch_or(p, v, SC);                                                    \
  }                                                                                        \
  OVLD T PFX##xor(volatile AS T *p, T v)                                                   \
  {                                                                                        \
    return __atomic_fetch_xor(p, v, SC);                                                   \
  }

#define DEF_ATOM1X_AS(AS)                                                                  \
  DEF_ATOM1X(atomic_, int, AS)                                                             \
  DEF_ATOM1X(atomic_, uint, AS)                                                            \
  DEF_ATOM1X(atom_, int, AS)                                                               \
  DEF_ATOM1X(atom_, uint, AS)                                                              \
  DEF_ATOM1X(atom_, long, AS)                                                              \
  DEF_ATOM1X(atom_, ulong, AS)                                                             \
  OVLD float atomic_xchg(volatile AS float *p, float v)                                    \
  {                                                                                        \
    return as_float(__atomic_exchange_n((volatile AS uint *)p, as_uint(v), SC));           \
  }
DEF_ATOM1X_AS(__global)
DEF_ATOM1X_AS(__local)

/* ------------------------------------------------------------------------ */
/* C11-style (OpenCL 2.0+)                                                  */

#define DEFAULT_ORDER memory_order_seq_cst
#define DEFAULT_SCOPE memory_scope_device

/* init, load, store, exchange, compare_exchange: T the value type */
#define DEF_C11_VALUE(T, AS)                                                              \
  OVLD void atomic_init(volatile AS atomic_##T *p, T v)                                    \
  {                                                                                        \
    __c11_atomic_init(p, v);                                                               \
  }                                                                                        \
  OVLD void atomic_store_explicit(volatile AS atomic_##T *p, T v, memory_order o, memory_scope s) \
  {                                                                                        \
    __c11_atomic_store(p, v, o);                                                           \
  }                                                                                        \
  OVLD void atomic_store_explicit(volatile AS atomic_##T *p, T v, memory_order o)          \
  {                                                                                        \
    __c11_atomic_store(p, v, o);                                                           \
  }                                                                                        \
  OVLD void atomic_store(volatile AS atomic_##T *p, T v)                                   \
  {                                                                                        \
    __c11_atomic_store(p, v, DEFAULT_ORDER);                                               \
  }                                                                                        \
  OVLD T atomic_load_explicit(volatile AS atomic_##T *p, memory_order o, memory_scope s)   \
  {                                                                                        \
    return __c11_atomic_load(p, o);                                                        \
  }                                                                                        \
  OVLD T atomic_load_explicit(volatile AS atomic_##T *p, memory_order o)                   \
  {                                                                                        \
    return __c11_atomic_load(p, o);                                                        \
  }                                                                                        \
  OVLD T atomic_load(volatile AS atomic_##T *p)                                            \
  {                                                                                        \
    return __c11_atomic_load(p, DEFAULT_ORDER);                                            \
  }                                                                                        \
  OVLD T atomic_exchange_explicit(volatile AS atomic_##T *p, T v, memory_order o, memory_scope s) \
  {                                                                                        \
    return __c11_atomic_exchange(p, v, o);                                                 \
  }                                                                                        \
  OVLD T atomic_exchange_explicit(volatile AS atomic_##T *p, T v, memory_order o)          \
  {                                                                                        \
    return __c11_atomic_exchange(p, v, o);                                                 \
  }                                                                                        \
  OVLD T atomic_exchange(volatile AS atomic_##T *p, T v)                                   \
  {                                                                                        \
    return __c11_atomic_exchange(p, v, DEFAULT_ORDER);                                     \
  }

/* compare_exchange with the expected value in address space EAS */
#define DEF_C11_CMPXCHG(T, AS, EAS)                                                       \
  OVLD bool atomic_compare_exchange_strong_explicit(volatile AS atomic_##T *p, EAS T *expected, \
                                                    T desired, memory_order so,            \
                                                    memory_order fo, memory_scope s)       \
  {                                                                                        \
    return __c11_atomic_compare_exchange_strong(p, expected, desired, so, fo);             \
  }                                                                                        \
  OVLD bool atomic_compare_exchange_strong_explicit(volatile AS atomic_##T *p, EAS T *expected, \
                                                    T desired, memory_order so,            \
                                                    memory_order fo)                       \
  {                                                                                        \
    return __c11_atomic_compare_exchange_strong(p, expected, desired, so, fo);             \
  }                                                                                        \
  OVLD bool atomic_compare_exchange_strong(volatile AS atomic_##T *p, EAS T *expected, T desired) \
  {                                                                                        \
    return __c11_atomic_compare_exchange_strong(p, expected, desired, DEFAULT_ORDER,       \
                                                DEFAULT_ORDER);                            \
  }                                                                                        \
  OVLD bool atomic_compare_exchange_weak_explicit(volatile AS atomic_##T *p, EAS T *expected, \
                                                  T desired, memory_order so,              \
                                                  memory_order fo, memory_scope s)         \
  {                                                                                        \
    return __c11_atomic_compare_exchange_weak(p, expected, desired, so, fo);               \
  }                                                                                        \
  OVLD bool atomic_compare_exchange_weak_explicit(volatile AS atomic_##T *p, EAS T *expected, \
                                                  T desired, memory_order so,              \
                                                  memory_order fo)                         \
  {                                                                                        \
    return __c11_atomic_compare_exchange_weak(p, expected, desired, so, fo);               \
  }                                                                                        \
  OVLD bool atomic_compare_exchange_weak(volatile AS atomic_##T *p, EAS T *expected, T desired) \
  {                                                                                        \
    return __c11_atomic_compare_exchange_weak(p, expected, desired, DEFAULT_ORDER,         \
                                              DEFAULT_ORDER);                              \
  }

/* fetch_<op> on an object of atomic type AT with an operand of type VT
 * (they differ for the uintptr_t / ptrdiff_t forms) returning RT */
#define DEF_C11_FETCH(OP, AT, VT, RT, AS)                                                 \
  OVLD RT atomic_fetch_##OP##_explicit(volatile AS AT *p, VT v, memory_order o, memory_scope s) \
  {                                                                                        \
    return __c11_atomic_fetch_##OP(p, v, o);                                               \
  }                                                                                        \
  OVLD RT atomic_fetch_##OP##_explicit(volatile AS AT *p, VT v, memory_order o)            \
  {                                                                                        \
    return __c11_atomic_fetch_##OP(p, v, o);                                               \
  }                                                                                        \
  OVLD RT atomic_fetch_##OP(volatile AS AT *p, VT v)                                       \
  {                                                                                        \
    return __c11_atomic_fetch_##OP(p, v, DEFAULT_ORDER);                                   \
  }

#define DEF_C11_INT(T, AS)                                                                \
  DEF_C11_VALUE(T, AS)                                                                     \
  DEF_C11_FETCH(add, atomic_##T, T, T, AS)                                                 \
  DEF_C11_FETCH(sub, atomic_##T, T, T, AS)                                                 \
  DEF_C11_FETCH(and, atomic_##T, T, T, AS)                                                 \
  DEF_C11_FETCH(or, atomic_##T, T, T, AS)                                                  \
  DEF_C11_FETCH(xor, atomic_##T, T, T, AS)                                                 \
  DEF_C11_FETCH(min, atomic_##T, T, T, AS)                                                 \
  DEF_C11_FETCH(max, atomic_##T, T, T, AS)
#define DEF_C11_FP(T, AS)                                                                 \
  DEF_C11_VALUE(T, AS)                                                                     \
  DEF_C11_FETCH(add, atomic_##T, T, T, AS)                                                 \
  DEF_C11_FETCH(sub, atomic_##T, T, T, AS)                                                 \
  DEF_C11_FETCH(min, atomic_##T, T, T, AS)                                                 \
  DEF_C11_FETCH(max, atomic_##T, T, T, AS)
/* pointer-sized forms: atomic_uintptr_t += ptrdiff_t, and the mixed
 * signedness bitwise/min forms */
#define DEF_C11_PTRSIZED(AS)                                                              \
  DEF_C11_FETCH(add, atomic_ulong, long, ulong, AS)                                        \
  DEF_C11_FETCH(sub, atomic_ulong, long, ulong, AS)                                        \
  DEF_C11_FETCH(and, atomic_ulong, long, ulong, AS)                                        \
  DEF_C11_FETCH(or, atomic_ulong, long, ulong, AS)                                         \
  DEF_C11_FETCH(xor, atomic_ulong, long, ulong, AS)                                        \
  DEF_C11_FETCH(min, atomic_ulong, long, ulong, AS)                                        \
  DEF_C11_FETCH(max, atomic_ulong, long, ulong, AS)                                        \
  DEF_C11_FETCH(and, atomic_long, ulong, long, AS)                                         \
  DEF_C11_FETCH(or, atomic_long, ulong, long, AS)                                          \
  DEF_C11_FETCH(xor, atomic_long, ulong, long, AS)                                         \
  DEF_C11_FETCH(min, atomic_long, ulong, long, AS)                                         \
  DEF_C11_FETCH(max, atomic_long, ulong, long, AS)

#define DEF_C11_FLAG(AS)                                                                  \
  OVLD bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o,  \
                                              memory_scope s)                              \
  {                                                                                        \
    return __c11_atomic_exchange(p, 1, o) != 0;                                            \
  }                                                                                        \
  OVLD bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o)  \
  {                                                                                        \
    return __c11_atomic_exchange(p, 1, o) != 0;                                            \
  }                                                                                        \
  OVLD bool atomic_flag_test_and_set(volatile AS atomic_flag *p)                           \
  {                                                                                        \
    return __c11_atomic_exchange(p, 1, DEFAULT_ORDER) != 0;                                \
  }                                                                                        \
  OVLD void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o,         \
                                       memory_scope s)                                     \
  {                                                                                        \
    __c11_atomic_store(p, 0, o);                                                           \
  }                                                                                        \
  OVLD void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o)         \
  {                                                                                        \
    __c11_atomic_store(p, 0, o);                                                           \
  }                                                                                        \
  OVLD void atomic_flag_clear(volatile AS atomic_flag *p)                                  \
  {                                                                                        \
    __c11_atomic_store(p, 0, DEFAULT_ORDER);                                               \
  }

#ifdef cl_khr_fp16
#define DEF_C11_HALF(AS) DEF_C11_FP(half, AS)
#else
#define DEF_C11_HALF(AS)
#endif

#define DEF_C11_AS(AS)                                                                    \
  DEF_C11_INT(int, AS)                                                                     \
  DEF_C11_INT(uint, AS)                                                                    \
  DEF_C11_INT(long, AS)                                                                    \
  DEF_C11_INT(ulong, AS)                                                                   \
  DEF_C11_FP(float, AS)                                                                    \
  DEF_C11_FP(double, AS)                                                                   \
  DEF_C11_HALF(AS)                                                                         \
  DEF_C11_PTRSIZED(AS)                                                                     \
  DEF_C11_FLAG(AS)
DEF_C11_AS(__generic)
DEF_C11_AS(__global)
DEF_C11_AS(__local)

/* compare_exchange: a generic object with a generic expected pointer; a
 * named object with a global, local or private one */
#define DEF_C11_CMPXCHG_TYPES(AS, EAS)                                                    \
  DEF_C11_CMPXCHG(int, AS, EAS)                                                            \
  DEF_C11_CMPXCHG(uint, AS, EAS)                                                           \
  DEF_C11_CMPXCHG(long, AS, EAS)                                                           \
  DEF_C11_CMPXCHG(ulong, AS, EAS)                                                          \
  DEF_C11_CMPXCHG(float, AS, EAS)                                                          \
  DEF_C11_CMPXCHG(double, AS, EAS)
DEF_C11_CMPXCHG_TYPES(__generic, __generic)
DEF_C11_CMPXCHG_TYPES(__global, __global)
DEF_C11_CMPXCHG_TYPES(__global, __local)
DEF_C11_CMPXCHG_TYPES(__global, __private)
DEF_C11_CMPXCHG_TYPES(__local, __global)
DEF_C11_CMPXCHG_TYPES(__local, __local)
DEF_C11_CMPXCHG_TYPES(__local, __private)

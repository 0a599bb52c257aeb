/* Asynchronous copies between global and local memory (OpenCL C 3.0
 * section 6.15.13): async_work_group_copy, async_work_group_strided_copy,
 * wait_group_events, prefetch; every scalar and vector element type.
 *
 * All work-items of the group call a copy with the same arguments; each
 * copies the elements i = lid, lid + size, lid + 2*size, ... (lid its
 * local linear id, size the group's work-item count), so consecutive
 * work-items move consecutive elements and the group copies the range
 * once.  The copy is done when the call returns; the event handed back is
 * the one passed in.  wait_group_events is a work-group barrier, which
 * makes every work-item's part visible to the whole group.
 *
 * NOTE for the compiler: these definitions call get_local_linear_id,
 * get_local_size and barrier, which cc_wg_generate lowers.  Kernels that
 * call them must have the definitions linked and inlined before the
 * work-group function is generated (see the builtins report).
 */

#include "lanecl_builtins.h"

INLINE size_t group_items(void)
{
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define DEF_ASYNC(T)                                                                      \
  OVLD event_t async_work_group_copy(__local T *dst, const __global T *src, size_t n,      \
                                     event_t event)                                        \
  {                                                                                        \
    size_t step = group_items();                                                           \
    for (size_t i = get_local_linear_id(); i < n; i += step)                               \
      dst[i] = src[i];                                                                     \
    return event;                                                                          \
  }                                                                                        \
  OVLD event_t async_work_group_copy(__global T *dst, const __local T *src, size_t n,      \
                                     event_t event)                                        \
  {                                                                                        \
    size_t step = group_items();                                                           \
    for (size_t i = get_local_linear_id(); i < n; i += step)                               \
      dst[i] = src[i];                                                                     \
    return event;                                                                          \
  }                                                                                        \
  OVLD event_t async_work_group_strided_copy(__local T *dst, const __global T *src,        \
                                             size_t n, size_t src_stride, event_t event)   \
  {                                                                                        \
    size_t step = group_items();                                                           \
    for (size_t i = get_local_linear_id(); i < n; i += step)                               \
      dst[i] = src[i * src_stride];                                                        \
    return event;                                                                          \
  }                                                                                        \
  OVLD event_t async_work_group_strided_copy(__global T *dst, const __local T *src,        \
                                             size_t n, size_t dst_stride, event_t event)   \
  {                                                                                        \
    size_t step = group_items();                                                           \
    for (size_t i = get_local_linear_id(); i < n; i += step)                               \
      dst[i * dst_stride] = src[i];                                                        \
    return event;                                                                          \
  }                                                                                        \
  OVLD void prefetch(const __global T *p, size_t n)                                        \
  {                                                                                        \
    __builtin_prefetch((const __global void *)p);                                          \
  }

#define DEF_ASYNC_WIDTH(T, N, L, K) DEF_ASYNC(T##N)
#define ASYNC_WIDTHS(UNUSED, T) FOR_WIDTHS(DEF_ASYNC_WIDTH, T)
#define FOR_COPY_TYPES(F, ...)                                                             \
  F(__VA_ARGS__, char) F(__VA_ARGS__, uchar) F(__VA_ARGS__, short) F(__VA_ARGS__, ushort)  \
  F(__VA_ARGS__, int) F(__VA_ARGS__, uint) F(__VA_ARGS__, long) F(__VA_ARGS__, ulong)      \
  F(__VA_ARGS__, float) F(__VA_ARGS__, double) COPY_HALF(F, __VA_ARGS__)
#ifdef cl_khr_fp16
#define COPY_HALF(F, ...) F(__VA_ARGS__, half)
#else
#define COPY_HALF(F, ...)
#endif
FOR_COPY_TYPES(ASYNC_WIDTHS, 0)

OVLD void wait_group_events(int num_events, __generic event_t *event_list)
{
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

OVLD void wait_group_events(int num_events, __private event_t *event_list)
{
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

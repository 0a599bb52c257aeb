/* Kernel execution entry points: clEnqueueNDRangeKernel, clEnqueueTask and
 * clEnqueueNativeKernel (not supported: CL_DEVICE_EXECUTION_CAPABILITIES has
 * no CL_EXEC_NATIVE_KERNEL). */
#include <stdint.h>

#include "icd/icd.h"

/* Checks the sizes of an NDRange of kernel on dev.  A NULL local is left
 * to the runtime, which picks the local size (runtime/ndrange.c). */
static cl_int check_sizes(const char *func, cl_kernel kernel, cl_device_id dev, cl_uint work_dim,
                          const size_t *offset, const size_t *global, const size_t *local)
{
  const cc_kernel_info *info = rt_kernel_meta(kernel);
  /* CL_INVALID_WORK_DIMENSION if work_dim is not valid for the device (1 to
   * CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, 3). */
  if (work_dim < 1 || work_dim > 3) {
    rt_err("%s: work_dim %u is not 1, 2 or 3", func, work_dim);
    return CL_INVALID_WORK_DIMENSION;
  }
  bool empty = !global;
  for (cl_uint d = 0; global && d < work_dim; d++) {
    empty |= global[d] == 0;
    /* CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size
     * plus the corresponding value in global_work_offset for any dimension
     * is greater than the maximum value representable by size_t. */
    if (offset && global[d] > SIZE_MAX - offset[d]) {
      rt_err("%s: global_work_size[%u] + global_work_offset[%u] overflows size_t", func, d, d);
      return CL_INVALID_GLOBAL_OFFSET;
    }
  }
  /* CL_INVALID_GLOBAL_WORK_SIZE: the work-items (and so the work-groups)
   * of the NDRange must be countable in 64 bits (get_global_linear_id, the
   * scheduler's group numbers). */
  uint64_t items = 1;
  for (cl_uint d = 0; global && !empty && d < work_dim; d++) {
    if (__builtin_mul_overflow(items, (uint64_t)global[d], &items)) {
      rt_err("%s: the global work size has more than 2^64 work-items", func);
      return CL_INVALID_GLOBAL_WORK_SIZE;
    }
  }
  const uint64_t *reqd = info->reqd_work_group_size;
  bool has_reqd = reqd[0] && reqd[1] && reqd[2];
  /* A reqd_work_group_size beyond the device's limits: no local size can
   * match it (CL_KERNEL_WORK_GROUP_SIZE reports the device's limit). */
  if (has_reqd && !rt_kernel_reqd_fits(kernel, dev) && !local) {
    rt_err("%s: kernel %s requires work-groups of %llu x %llu x %llu; the device runs at most %zu work-items "
           "per group (and per dimension)",
           func, info->name, (unsigned long long)reqd[0], (unsigned long long)reqd[1],
           (unsigned long long)reqd[2], dev->max_work_group_size);
    return CL_INVALID_WORK_GROUP_SIZE;
  }
  bool uniform = !rt_kernel_nonuniform_ok(kernel, dev);
  size_t maxwg = rt_kernel_max_work_group_size(kernel, dev);
  if (!local) {
    /* global_work_size NULL or a zero size (OpenCL 2.1+): the command does nothing. */
    if (empty)
      return CL_SUCCESS;
    if (has_reqd) {
      for (cl_uint d = 0; d < work_dim; d++) {
        /* CL_INVALID_WORK_GROUP_SIZE if the work-group size must be uniform and
         * the global size is not a multiple of the required work-group size. */
        if (uniform && global[d] % reqd[d]) {
          rt_err("%s: global_work_size[%u] %zu is not a multiple of reqd_work_group_size %llu", func, d,
                 global[d], (unsigned long long)reqd[d]);
          return CL_INVALID_WORK_GROUP_SIZE;
        }
      }
    }
    return CL_SUCCESS;
  }
  size_t local_out[3] = {1, 1, 1};
  size_t total = 1;
  for (cl_uint d = 0; d < work_dim; d++) {
    total *= local[d];
    /* CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any
     * dimension of local_work_size is greater than the corresponding value of
     * CL_DEVICE_MAX_WORK_ITEM_SIZES. */
    if (local[d] > dev->max_work_group_size) {
      rt_err("%s: local_work_size[%u] %zu exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES %zu", func, d, local[d],
             dev->max_work_group_size);
      return CL_INVALID_WORK_ITEM_SIZE;
    }
    local_out[d] = local[d];
  }
  /* CL_INVALID_WORK_GROUP_SIZE if local_work_size is not NULL and the total
   * number of work-items in the work-group is zero ... */
  if (total == 0) {
    rt_err("%s: local_work_size has a zero entry", func);
    return CL_INVALID_WORK_GROUP_SIZE;
  }
  /* ... or is greater than CL_KERNEL_WORK_GROUP_SIZE ... */
  if (total > maxwg) {
    rt_err("%s: the work-group has %zu work-items; CL_KERNEL_WORK_GROUP_SIZE is %zu", func, total, maxwg);
    return CL_INVALID_WORK_GROUP_SIZE;
  }
  /* ... or local_work_size does not match the required work-group size ... */
  for (cl_uint d = 0; has_reqd && d < 3; d++) {
    if (local_out[d] != reqd[d]) {
      rt_err("%s: local_work_size[%u] %zu does not match reqd_work_group_size %llu", func, d, local_out[d],
             (unsigned long long)reqd[d]);
      return CL_INVALID_WORK_GROUP_SIZE;
    }
  }
  /* ... or the work-group size must be uniform and global_work_size is not
   * evenly divisible by local_work_size. */
  for (cl_uint d = 0; uniform && !empty && d < work_dim; d++) {
    if (global[d] % local[d]) {
      rt_err("%s: global_work_size[%u] %zu is not a multiple of local_work_size %zu (uniform work-groups: "
             "the program was not built with -cl-std=CL2.0 or newer, or with -cl-uniform-work-group-size)",
             func, d, global[d], local[d]);
      return CL_INVALID_WORK_GROUP_SIZE;
    }
  }
  return CL_SUCCESS;
}

static cl_int enqueue_kernel(const char *func, cl_command_type type, cl_command_queue command_queue,
                             cl_kernel kernel, cl_uint work_dim, const size_t *offset, const size_t *global,
                             const size_t *local, cl_uint num_events_in_wait_list,
                             const cl_event *event_wait_list, cl_event *event)
{
  /* CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue. */
  if (!rt_object_is(command_queue, RT_QUEUE)) {
    rt_err("%s: command_queue %p is not a valid command-queue", func, (void *)command_queue);
    return CL_INVALID_COMMAND_QUEUE;
  }
  /* CL_INVALID_KERNEL if kernel is not a valid kernel. */
  if (!rt_object_is(kernel, RT_KERNEL)) {
    rt_err("%s: kernel %p is not a valid kernel", func, (void *)kernel);
    return CL_INVALID_KERNEL;
  }
  cl_device_id dev = rt_queue_device(command_queue);
  /* CL_INVALID_CONTEXT if the context associated with command_queue and kernel are not the same. */
  if (rt_queue_context(command_queue) != rt_program_context(rt_kernel_program(kernel))) {
    rt_err("%s: the kernel and the command-queue belong to different contexts", func);
    return CL_INVALID_CONTEXT;
  }
  /* CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built program
   * executable available for the device associated with command_queue. */
  if (!rt_program_executable_for(rt_kernel_program(kernel), dev)) {
    rt_err("%s: the kernel's program has no executable built for the queue's device", func);
    return CL_INVALID_PROGRAM_EXECUTABLE;
  }
  /* CL_INVALID_KERNEL_ARGS if any kernel arguments for kernel have not been set. */
  const char *name = rt_kernel_meta(kernel)->name;
  int unset = rt_kernel_first_unset_arg(kernel);
  if (unset >= 0) {
    rt_err("%s: argument %d of kernel %s has not been set", func, unset, name);
    return CL_INVALID_KERNEL_ARGS;
  }
  /* CL_MISALIGNED_SUB_BUFFER_OFFSET can't arise: clCreateSubBuffer already
   * refuses origins not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN, the same
   * for every device.  CL_INVALID_IMAGE_SIZE and
   * CL_IMAGE_FORMAT_NOT_SUPPORTED neither: there are no images. */
  cl_int err = check_sizes(func, kernel, dev, work_dim, offset, global, local);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_EVENT_WAIT_LIST / CL_INVALID_CONTEXT for the wait list. */
  err = icd_check_wait_list(func, rt_queue_context(command_queue), num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* CL_OUT_OF_RESOURCES if ... the local memory the kernel needs (its
   * __local variables and __local arguments) exceeds CL_DEVICE_LOCAL_MEM_SIZE. */
  uint64_t local_mem = rt_kernel_local_mem(kernel);
  if (local_mem > dev->local_mem_size) {
    rt_err("%s: kernel %s needs %llu bytes of local memory; the device has %llu", func, name,
           (unsigned long long)local_mem, (unsigned long long)dev->local_mem_size);
    return CL_OUT_OF_RESOURCES;
  }
  return rt_enqueue_ndrange(command_queue, type, kernel, work_dim, offset, global, local,
                            num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                          const size_t *global_work_offset, const size_t *global_work_size,
                                          const size_t *local_work_size, cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event)
{
  return enqueue_kernel("clEnqueueNDRangeKernel", CL_COMMAND_NDRANGE_KERNEL, command_queue, kernel, work_dim,
                        global_work_offset, global_work_size, local_work_size, num_events_in_wait_list,
                        event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel, cl_uint num_events_in_wait_list,
                                 const cl_event *event_wait_list, cl_event *event)
{
  /* Equivalent to clEnqueueNDRangeKernel with work_dim 1, a global and a
   * local size of 1. */
  static const size_t one[1] = {1};
  return enqueue_kernel("clEnqueueTask", CL_COMMAND_TASK, command_queue, kernel, 1, NULL, one, one,
                        num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *),
                                         void *args, size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list,
                                         const void **args_mem_loc, cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event)
{
  /* CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue. */
  if (!rt_object_is(command_queue, RT_QUEUE)) {
    rt_err("clEnqueueNativeKernel: command_queue %p is not a valid command-queue", (void *)command_queue);
    return CL_INVALID_COMMAND_QUEUE;
  }
  /* CL_INVALID_OPERATION if the device associated with command_queue cannot
   * execute the native kernel (no CL_EXEC_NATIVE_KERNEL). */
  rt_err("clEnqueueNativeKernel: the device cannot execute native kernels");
  return CL_INVALID_OPERATION;
}

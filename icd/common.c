/* What every family of entry points shares: start-up, the event wait list
 * check of the clEnqueue* calls and the param_value protocol of the info
 * queries (icd_info, see icd/icd.h). */
#include <pthread.h>
#include <string.h>

#include "icd/icd.h"

static pthread_once_t icd_once = PTHREAD_ONCE_INIT;

static void icd_init_once(void)
{
  rt_log_init();
  rt_dispatch = &icd_dispatch;
  rt_init();
  icd_log_stubs();
}

void icd_init(void)
{
  pthread_once(&icd_once, icd_init_once);
}

bool icd_queue_valid(const char *func, cl_command_queue q)
{
  if (!rt_object_is(q, RT_QUEUE)) {
    rt_err("%s: %p is not a valid command-queue", func, (void *)q);
    return false;
  }
  return true;
}

cl_int icd_check_buffer(const char *func, const char *name, cl_command_queue q, cl_mem m)
{
  if (!rt_object_is(m, RT_MEM) || rt_mem_image(m)) {
    rt_err("%s: %s %p is not a valid buffer", func, name, (void *)m);
    return CL_INVALID_MEM_OBJECT;
  }
  if (rt_mem_context(m) != rt_queue_context(q)) {
    rt_err("%s: %s belongs to another context than the command queue", func, name);
    return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

cl_int icd_check_sub_buffer_align(const char *func, cl_command_queue q, cl_mem m)
{
  size_t align = rt_queue_device(q)->mem_base_addr_align / 8;
  if (rt_mem_parent(m) && align && rt_mem_offset(m) % align) {
    rt_err("%s: the sub-buffer's offset %zu is not aligned for the queue's device", func, rt_mem_offset(m));
    return CL_MISALIGNED_SUB_BUFFER_OFFSET;
  }
  return CL_SUCCESS;
}

cl_int icd_check_wait_list(const char *func, cl_context ctx, cl_uint num, const cl_event *list)
{
  /* CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
   * num_events_in_wait_list > 0, or event_wait_list is not NULL and
   * num_events_in_wait_list is 0, ... */
  if (num > 0 && !list) {
    rt_err("%s: event_wait_list is NULL but num_events_in_wait_list is %u", func, num);
    return CL_INVALID_EVENT_WAIT_LIST;
  }
  if (num == 0 && list) {
    rt_err("%s: event_wait_list is not NULL but num_events_in_wait_list is 0", func);
    return CL_INVALID_EVENT_WAIT_LIST;
  }
  for (cl_uint i = 0; i < num; i++) {
    /* ... or if event objects in event_wait_list are not valid events. */
    if (!rt_object_is(list[i], RT_EVENT)) {
      rt_err("%s: event_wait_list[%u] (%p) is not a valid event", func, i, (void *)list[i]);
      return CL_INVALID_EVENT_WAIT_LIST;
    }
    /* CL_INVALID_CONTEXT if the context associated with command_queue and
     * events in event_wait_list are not the same. */
    if (ctx && rt_event_context(list[i]) != ctx) {
      rt_err("%s: event_wait_list[%u] belongs to another context than the command queue", func, i);
      return CL_INVALID_CONTEXT;
    }
  }
  return CL_SUCCESS;
}

cl_int icd_info(void *dst, size_t dst_size, size_t *size_ret, const void *src, size_t n)
{
  if (dst) {
    /* CL_INVALID_VALUE if param_value is not NULL and param_value_size is
     * less than the size of the answer. */
    if (dst_size < n) {
      rt_err("param_value_size %zu is smaller than the %zu bytes of the result", dst_size, n);
      return CL_INVALID_VALUE;
    }
    if (n && src)
      memcpy(dst, src, n);
  }
  if (size_ret)
    *size_ret = n;
  return CL_SUCCESS;
}

cl_int icd_info_str(void *dst, size_t dst_size, size_t *size_ret, const char *s)
{
  return icd_info(dst, dst_size, size_ret, s ? s : "", s ? strlen(s) + 1 : 1);
}

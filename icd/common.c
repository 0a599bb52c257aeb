/* What every family of entry points shares: start-up and the event wait list
 * check of the clEnqueue* calls. */
#include <pthread.h>

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

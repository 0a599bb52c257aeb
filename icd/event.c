/* Event entry points: user events, waiting, queries, callbacks, profiling,
 * references, and the markers and barriers (with and without wait list). */
#include "icd/icd.h"

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret)
{
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clCreateUserEvent: context %p is not a valid context", (void *)context);
    icd_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  cl_int err;
  cl_event e = rt_user_event_create(context, &err);
  icd_set_err(errcode_ret, err);
  return e;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status)
{
  /* CL_INVALID_EVENT if event is not a valid user event object. */
  if (!rt_object_is(event, RT_EVENT) || !rt_event_is_user(event)) {
    rt_err("clSetUserEventStatus: %p is not a valid user event", (void *)event);
    return CL_INVALID_EVENT;
  }
  /* CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a
   * negative integer value. */
  if (execution_status > CL_COMPLETE) {
    rt_err("clSetUserEventStatus: execution_status %d is neither CL_COMPLETE nor negative", execution_status);
    return CL_INVALID_VALUE;
  }
  /* CL_INVALID_OPERATION if the execution_status for event has already been
   * changed by a previous call to clSetUserEventStatus. */
  cl_int err = rt_user_event_set_status(event, execution_status);
  if (err == CL_INVALID_OPERATION)
    rt_err("clSetUserEventStatus: the status of user event %p was already set", (void *)event);
  return err;
}

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list)
{
  /* CL_INVALID_VALUE if num_events is zero or event_list is NULL. */
  if (num_events == 0 || !event_list) {
    rt_err("clWaitForEvents: num_events is %u and event_list is %p", num_events, (void *)event_list);
    return CL_INVALID_VALUE;
  }
  for (cl_uint i = 0; i < num_events; i++) {
    /* CL_INVALID_EVENT if event objects specified in event_list are not
     * valid event objects. */
    if (!rt_object_is(event_list[i], RT_EVENT)) {
      rt_err("clWaitForEvents: event_list[%u] (%p) is not a valid event", i, (void *)event_list[i]);
      return CL_INVALID_EVENT;
    }
    /* CL_INVALID_CONTEXT if events specified in event_list do not belong to
     * the same context. */
    if (rt_event_context(event_list[i]) != rt_event_context(event_list[0])) {
      rt_err("clWaitForEvents: event_list[%u] belongs to another context than event_list[0]", i);
      return CL_INVALID_CONTEXT;
    }
  }
  /* CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of
   * any of the events in event_list is a negative integer value. */
  return rt_events_wait(num_events, event_list);
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret)
{
  /* CL_INVALID_EVENT if event is a not a valid event object. */
  if (!rt_object_is(event, RT_EVENT)) {
    rt_err("clGetEventInfo: %p is not a valid event", (void *)event);
    return CL_INVALID_EVENT;
  }
  void *v = param_value;
  size_t n = param_value_size;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_EVENT_COMMAND_QUEUE:
    return ICD_INFO_VAL(v, n, ret, cl_command_queue, rt_event_queue(event));
  case CL_EVENT_CONTEXT:
    return ICD_INFO_VAL(v, n, ret, cl_context, rt_event_context(event));
  case CL_EVENT_COMMAND_TYPE:
    return ICD_INFO_VAL(v, n, ret, cl_command_type, rt_event_command_type(event));
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    return ICD_INFO_VAL(v, n, ret, cl_int, rt_event_status(event));
  case CL_EVENT_REFERENCE_COUNT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, rt_event_refcount(event));
  default:
    /* CL_INVALID_VALUE if param_name is not one of the supported values. */
    rt_err("clGetEventInfo: unknown param_name %#x", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                      void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *), void *user_data)
{
  /* CL_INVALID_EVENT if event is not a valid event object. */
  if (!rt_object_is(event, RT_EVENT)) {
    rt_err("clSetEventCallback: %p is not a valid event", (void *)event);
    return CL_INVALID_EVENT;
  }
  /* CL_INVALID_VALUE if pfn_event_notify is NULL or if
   * command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING, or
   * CL_COMPLETE. */
  if (!pfn_notify) {
    rt_err("clSetEventCallback: pfn_notify is NULL");
    return CL_INVALID_VALUE;
  }
  if (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
      command_exec_callback_type != CL_COMPLETE) {
    rt_err("clSetEventCallback: command_exec_callback_type %d is not CL_SUBMITTED, CL_RUNNING or CL_COMPLETE",
           command_exec_callback_type);
    return CL_INVALID_VALUE;
  }
  return rt_event_set_callback(event, command_exec_callback_type, pfn_notify, user_data);
}

cl_int CL_API_CALL clRetainEvent(cl_event event)
{
  /* CL_INVALID_EVENT if event is not a valid event object. */
  if (!rt_object_is(event, RT_EVENT)) {
    rt_err("clRetainEvent: %p is not a valid event", (void *)event);
    return CL_INVALID_EVENT;
  }
  rt_event_retain(event);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseEvent(cl_event event)
{
  /* CL_INVALID_EVENT if event is not a valid event object. */
  if (!rt_object_is(event, RT_EVENT)) {
    rt_err("clReleaseEvent: %p is not a valid event", (void *)event);
    return CL_INVALID_EVENT;
  }
  rt_event_release(event);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name, size_t param_value_size,
                                           void *param_value, size_t *param_value_size_ret)
{
  /* CL_INVALID_EVENT if event is a not a valid event object. */
  if (!rt_object_is(event, RT_EVENT)) {
    rt_err("clGetEventProfilingInfo: %p is not a valid event", (void *)event);
    return CL_INVALID_EVENT;
  }
  /* CL_INVALID_VALUE if param_name is not one of the supported values. */
  switch (param_name) {
  case CL_PROFILING_COMMAND_QUEUED:
  case CL_PROFILING_COMMAND_SUBMIT:
  case CL_PROFILING_COMMAND_START:
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE:
    break;
  default:
    rt_err("clGetEventProfilingInfo: unknown param_name %#x", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
  /* CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is
   * not set for the command-queue, if the execution status of the command
   * identified by event is not CL_COMPLETE or if event is a user event
   * object. */
  cl_ulong value;
  cl_int err = rt_event_profiling(event, param_name, &value);
  if (err != CL_SUCCESS) {
    rt_err("clGetEventProfilingInfo: no profiling information for event %p (user event, queue without "
           "profiling, or not complete)", (void *)event);
    return err;
  }
  return icd_info(param_value, param_value_size, param_value_size_ret, &value, sizeof(value));
}

/* ---- markers and barriers ---- */

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                               const cl_event *event_wait_list, cl_event *event)
{
  if (!icd_queue_valid("clEnqueueMarkerWithWaitList", command_queue))
    return CL_INVALID_COMMAND_QUEUE;
  /* CL_INVALID_CONTEXT if context associated with command_queue and events
   * in event_wait_list are not the same; CL_INVALID_EVENT_WAIT_LIST ... */
  cl_int err = icd_check_wait_list("clEnqueueMarkerWithWaitList", rt_queue_context(command_queue),
                                   num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  return rt_enqueue_marker(command_queue, false, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event)
{
  if (!icd_queue_valid("clEnqueueBarrierWithWaitList", command_queue))
    return CL_INVALID_COMMAND_QUEUE;
  /* CL_INVALID_CONTEXT if context associated with command_queue and events
   * in event_wait_list are not the same; CL_INVALID_EVENT_WAIT_LIST ... */
  cl_int err = icd_check_wait_list("clEnqueueBarrierWithWaitList", rt_queue_context(command_queue),
                                   num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  return rt_enqueue_marker(command_queue, true, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event *event)
{
  if (!icd_queue_valid("clEnqueueMarker", command_queue))
    return CL_INVALID_COMMAND_QUEUE;
  /* CL_INVALID_VALUE if event is NULL. */
  if (!event) {
    rt_err("clEnqueueMarker: event is NULL");
    return CL_INVALID_VALUE;
  }
  /* The marker waits for all commands previously enqueued. */
  return rt_enqueue_marker(command_queue, false, 0, NULL, event);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue)
{
  if (!icd_queue_valid("clEnqueueBarrier", command_queue))
    return CL_INVALID_COMMAND_QUEUE;
  return rt_enqueue_marker(command_queue, true, 0, NULL, NULL);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                          const cl_event *event_list)
{
  if (!icd_queue_valid("clEnqueueWaitForEvents", command_queue))
    return CL_INVALID_COMMAND_QUEUE;
  /* CL_INVALID_VALUE if num_events is 0 or event_list is NULL. */
  if (num_events == 0 || !event_list) {
    rt_err("clEnqueueWaitForEvents: num_events is %u and event_list is %p", num_events, (void *)event_list);
    return CL_INVALID_VALUE;
  }
  for (cl_uint i = 0; i < num_events; i++) {
    /* CL_INVALID_EVENT if event objects specified in event_list are not
     * valid events (OpenCL 1.x). */
    if (!rt_object_is(event_list[i], RT_EVENT)) {
      rt_err("clEnqueueWaitForEvents: event_list[%u] (%p) is not a valid event", i, (void *)event_list[i]);
      return CL_INVALID_EVENT;
    }
    /* CL_INVALID_CONTEXT if context associated with command_queue and
     * events in event_list are not the same. */
    if (rt_event_context(event_list[i]) != rt_queue_context(command_queue)) {
      rt_err("clEnqueueWaitForEvents: event_list[%u] belongs to another context than the queue", i);
      return CL_INVALID_CONTEXT;
    }
  }
  /* Later commands of the queue wait for the events: a barrier on them. */
  return rt_enqueue_marker(command_queue, true, num_events, event_list, NULL);
}

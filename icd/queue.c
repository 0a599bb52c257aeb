/* Command-queue entry points: create (1.x and 2.0 forms), retain, release,
 * queries, the deprecated property setter, device queues (unsupported),
 * flush and finish. */
#include "icd/icd.h"

static const cl_command_queue_properties host_queue_props =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
static const cl_command_queue_properties all_queue_props =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
    CL_QUEUE_ON_DEVICE_DEFAULT;

static cl_int check_handles(const char *func, cl_context context, cl_device_id device)
{
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("%s: context %p is not a valid context", func, (void *)context);
    return CL_INVALID_CONTEXT;
  }
  /* CL_INVALID_DEVICE if device is not a valid device or is not associated
   * with context. */
  if (!rt_object_is(device, RT_DEVICE)) {
    rt_err("%s: device %p is not a valid device", func, (void *)device);
    return CL_INVALID_DEVICE;
  }
  if (!rt_context_has_device(context, device)) {
    rt_err("%s: device %p is not associated with the context", func, (void *)device);
    return CL_INVALID_DEVICE;
  }
  return CL_SUCCESS;
}

/* props is the CL_QUEUE_PROPERTIES bit-field; size_given says whether
 * CL_QUEUE_SIZE was in the list. */
static cl_int check_props(const char *func, cl_device_id device, cl_command_queue_properties props,
                          bool size_given)
{
  /* CL_INVALID_VALUE if values specified in properties are not valid. */
  if (props & ~all_queue_props) {
    rt_err("%s: unknown queue property bits %#llx", func, (unsigned long long)(props & ~all_queue_props));
    return CL_INVALID_VALUE;
  }
  /* "If CL_QUEUE_ON_DEVICE is set, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
   * must also be set"; CL_QUEUE_ON_DEVICE_DEFAULT "can only be used with
   * CL_QUEUE_ON_DEVICE"; CL_QUEUE_SIZE "can only be specified if
   * CL_QUEUE_ON_DEVICE is set". */
  if ((props & CL_QUEUE_ON_DEVICE) && !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    rt_err("%s: CL_QUEUE_ON_DEVICE without CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE", func);
    return CL_INVALID_VALUE;
  }
  if ((props & CL_QUEUE_ON_DEVICE_DEFAULT) && !(props & CL_QUEUE_ON_DEVICE)) {
    rt_err("%s: CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE", func);
    return CL_INVALID_VALUE;
  }
  if (size_given && !(props & CL_QUEUE_ON_DEVICE)) {
    rt_err("%s: CL_QUEUE_SIZE given for a host queue", func);
    return CL_INVALID_VALUE;
  }
  /* CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid
   * but are not supported by the device. */
  cl_command_queue_properties supported = device->queue_props ? device->queue_props : host_queue_props;
  if (props & ~supported) {
    rt_err("%s: queue properties %#llx are not supported (device queues are not)", func,
           (unsigned long long)(props & ~supported));
    return CL_INVALID_QUEUE_PROPERTIES;
  }
  return CL_SUCCESS;
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties, cl_int *errcode_ret)
{
  cl_int err = check_handles("clCreateCommandQueue", context, device);
  if (err != CL_SUCCESS)
    goto fail;
  /* "Only command-queue properties specified in this table can be used,
   * otherwise the value specified in properties is considered to be not
   * valid": OUT_OF_ORDER and PROFILING only. */
  if (properties & ~host_queue_props) {
    rt_err("clCreateCommandQueue: properties %#llx are not valid", (unsigned long long)properties);
    err = CL_INVALID_VALUE;
    goto fail;
  }
  err = check_props("clCreateCommandQueue", device, properties, false);
  if (err != CL_SUCCESS)
    goto fail;
  cl_command_queue q = rt_queue_create(context, device, properties, NULL, 0, &err);
  icd_set_err(errcode_ret, err);
  return q;

fail:
  icd_set_err(errcode_ret, err);
  return NULL;
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                const cl_queue_properties *properties,
                                                                cl_int *errcode_ret)
{
  cl_int err = check_handles("clCreateCommandQueueWithProperties", context, device);
  if (err != CL_SUCCESS)
    goto fail;
  cl_command_queue_properties props = 0;
  bool props_given = false, size_given = false;
  size_t nprops = 0;
  if (properties) {
    for (; properties[nprops] != 0; nprops += 2) {
      cl_queue_properties name = properties[nprops];
      if (name == CL_QUEUE_PROPERTIES && !props_given) {
        props_given = true;
        props = (cl_command_queue_properties)properties[nprops + 1];
      } else if (name == CL_QUEUE_SIZE && !size_given) {
        size_given = true;
      } else {
        /* CL_INVALID_VALUE if values specified in properties are not
         * valid (an unknown name, or a name given twice). */
        rt_err("clCreateCommandQueueWithProperties: property %#llx is unknown or given twice",
               (unsigned long long)name);
        err = CL_INVALID_VALUE;
        goto fail;
      }
    }
    nprops++; /* the terminating 0 */
  }
  err = check_props("clCreateCommandQueueWithProperties", device, props, size_given);
  if (err != CL_SUCCESS)
    goto fail;
  cl_command_queue q = rt_queue_create(context, device, props, properties, nprops, &err);
  icd_set_err(errcode_ret, err);
  return q;

fail:
  icd_set_err(errcode_ret, err);
  return NULL;
}

cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue command_queue)
{
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clSetDefaultDeviceCommandQueue: context %p is not a valid context", (void *)context);
    return CL_INVALID_CONTEXT;
  }
  /* CL_INVALID_DEVICE if device is not a valid device or is not associated
   * with context. */
  if (!rt_object_is(device, RT_DEVICE) || !rt_context_has_device(context, device)) {
    rt_err("clSetDefaultDeviceCommandQueue: device %p is not a device of the context", (void *)device);
    return CL_INVALID_DEVICE;
  }
  /* CL_INVALID_OPERATION if device does not support a replaceable default
   * on-device queue. */
  rt_err("clSetDefaultDeviceCommandQueue: device queues are not supported");
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue)
{
  /* CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue. */
  if (!rt_object_is(command_queue, RT_QUEUE)) {
    rt_err("clRetainCommandQueue: %p is not a valid command-queue", (void *)command_queue);
    return CL_INVALID_COMMAND_QUEUE;
  }
  rt_queue_retain(command_queue);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue)
{
  /* CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue. */
  if (!rt_object_is(command_queue, RT_QUEUE)) {
    rt_err("clReleaseCommandQueue: %p is not a valid command-queue", (void *)command_queue);
    return CL_INVALID_COMMAND_QUEUE;
  }
  rt_queue_release(command_queue);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name,
                                         size_t param_value_size, void *param_value,
                                         size_t *param_value_size_ret)
{
  /* CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue. */
  if (!rt_object_is(command_queue, RT_QUEUE)) {
    rt_err("clGetCommandQueueInfo: %p is not a valid command-queue", (void *)command_queue);
    return CL_INVALID_COMMAND_QUEUE;
  }
  cl_command_queue q = command_queue;
  void *v = param_value;
  size_t n = param_value_size;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_QUEUE_CONTEXT:
    return ICD_INFO_VAL(v, n, ret, cl_context, rt_queue_context(q));
  case CL_QUEUE_DEVICE:
    return ICD_INFO_VAL(v, n, ret, cl_device_id, rt_queue_device(q));
  case CL_QUEUE_REFERENCE_COUNT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, rt_queue_refcount(q));
  case CL_QUEUE_PROPERTIES:
    return ICD_INFO_VAL(v, n, ret, cl_command_queue_properties, rt_queue_properties(q));
  case CL_QUEUE_PROPERTIES_ARRAY: {
    size_t nprops;
    const cl_queue_properties *props = rt_queue_properties_array(q, &nprops);
    return icd_info(v, n, ret, props, nprops * sizeof(cl_queue_properties));
  }
  case CL_QUEUE_SIZE:
    /* CL_INVALID_COMMAND_QUEUE if command_queue is not a valid
     * command-queue for param_name: CL_QUEUE_SIZE needs a device queue. */
    rt_err("clGetCommandQueueInfo: CL_QUEUE_SIZE of a host command-queue");
    return CL_INVALID_COMMAND_QUEUE;
  case CL_QUEUE_DEVICE_DEFAULT:
    /* No device queues: there is no default one. */
    return ICD_INFO_VAL(v, n, ret, cl_command_queue, NULL);
  default:
    /* CL_INVALID_VALUE if param_name is not one of the supported values. */
    rt_err("clGetCommandQueueInfo: unknown param_name %#x", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties properties,
                                             cl_bool enable, cl_command_queue_properties *old_properties)
{
  /* CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue. */
  if (!rt_object_is(command_queue, RT_QUEUE)) {
    rt_err("clSetCommandQueueProperty: %p is not a valid command-queue", (void *)command_queue);
    return CL_INVALID_COMMAND_QUEUE;
  }
  /* "clSetCommandQueueProperty may unconditionally return an error if no
   * devices in the context associated with command_queue support modifying
   * the properties of a command-queue" (required of OpenCL 1.0 devices
   * only): CL_INVALID_OPERATION. */
  (void)properties;
  (void)enable;
  (void)old_properties;
  rt_err("clSetCommandQueueProperty: modifying queue properties is not supported");
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clFlush(cl_command_queue command_queue)
{
  /* CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
   * command-queue. */
  if (!rt_object_is(command_queue, RT_QUEUE)) {
    rt_err("clFlush: %p is not a valid command-queue", (void *)command_queue);
    return CL_INVALID_COMMAND_QUEUE;
  }
  return rt_queue_flush(command_queue);
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue)
{
  /* CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
   * command-queue. */
  if (!rt_object_is(command_queue, RT_QUEUE)) {
    rt_err("clFinish: %p is not a valid command-queue", (void *)command_queue);
    return CL_INVALID_COMMAND_QUEUE;
  }
  return rt_queue_finish(command_queue);
}

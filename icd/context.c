/* Context entry points: clCreateContext, clCreateContextFromType,
 * clRetainContext, clReleaseContext, clGetContextInfo,
 * clSetContextDestructorCallback. */
#include "icd/icd.h"

/* Checks a context property list (CL_CONTEXT_PLATFORM, CL_CONTEXT_INTEROP_USER_SYNC). */
static cl_int context_check_properties(const char *func, const cl_context_properties *props)
{
  bool seen_platform = false, seen_sync = false;
  for (size_t i = 0; props && props[i] != 0; i += 2) {
    cl_context_properties name = props[i], value = props[i + 1];
    switch (name) {
    case CL_CONTEXT_PLATFORM:
      /* CL_INVALID_PROPERTY if ... the same property name is specified more
       * than once. */
      if (seen_platform) {
        rt_err("%s: CL_CONTEXT_PLATFORM is given twice", func);
        return CL_INVALID_PROPERTY;
      }
      seen_platform = true;
      /* CL_INVALID_PLATFORM if ... platform value specified in properties is
       * not a valid platform. */
      if (!rt_object_is((void *)value, RT_PLATFORM)) {
        rt_err("%s: CL_CONTEXT_PLATFORM %p is not a valid platform", func, (void *)value);
        return CL_INVALID_PLATFORM;
      }
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      if (seen_sync) {
        rt_err("%s: CL_CONTEXT_INTEROP_USER_SYNC is given twice", func);
        return CL_INVALID_PROPERTY;
      }
      seen_sync = true;
      /* CL_INVALID_PROPERTY if ... the value specified for a supported
       * property name is not valid. */
      if (value != CL_TRUE && value != CL_FALSE) {
        rt_err("%s: CL_CONTEXT_INTEROP_USER_SYNC %ld is not CL_TRUE or CL_FALSE", func, (long)value);
        return CL_INVALID_PROPERTY;
      }
      break;
    default:
      /* CL_INVALID_PROPERTY if context property name in properties is not a
       * supported property name. */
      rt_err("%s: context property 0x%lx is not supported", func, (unsigned long)name);
      return CL_INVALID_PROPERTY;
    }
  }
  return CL_SUCCESS;
}

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices,
                                       void(CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info,
                                                                     size_t cb, void *user_data),
                                       void *user_data, cl_int *errcode_ret)
{
  icd_init();
  cl_int err;
  /* CL_INVALID_VALUE if devices is NULL. */
  if (!devices) {
    rt_err("clCreateContext: devices is NULL");
    err = CL_INVALID_VALUE;
    goto fail;
  }
  /* CL_INVALID_VALUE if num_devices is equal to zero. */
  if (num_devices == 0) {
    rt_err("clCreateContext: num_devices is 0");
    err = CL_INVALID_VALUE;
    goto fail;
  }
  /* CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL. */
  if (!pfn_notify && user_data) {
    rt_err("clCreateContext: user_data is given without pfn_notify");
    err = CL_INVALID_VALUE;
    goto fail;
  }
  err = context_check_properties("clCreateContext", properties);
  if (err != CL_SUCCESS)
    goto fail;
  for (cl_uint i = 0; i < num_devices; i++) {
    /* CL_INVALID_DEVICE if any device in devices is not a valid device. */
    if (!rt_device_is(devices[i])) {
      rt_err("clCreateContext: devices[%u] (%p) is not a valid device", i, (void *)devices[i]);
      err = CL_INVALID_DEVICE;
      goto fail;
    }
    /* devices is "a pointer to a list of unique devices". */
    for (cl_uint j = 0; j < i; j++) {
      if (devices[j] == devices[i]) {
        rt_err("clCreateContext: devices[%u] repeats devices[%u]", i, j);
        err = CL_INVALID_DEVICE;
        goto fail;
      }
    }
  }
  cl_context ctx = rt_context_create(devices, num_devices, properties, pfn_notify, user_data, &err);
  icd_set_err(errcode_ret, err);
  return ctx;

fail:
  icd_set_err(errcode_ret, err);
  return NULL;
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                                               void(CL_CALLBACK *pfn_notify)(const char *errinfo,
                                                                             const void *private_info, size_t cb,
                                                                             void *user_data),
                                               void *user_data, cl_int *errcode_ret)
{
  icd_init();
  cl_int err;
  /* CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL. */
  if (!pfn_notify && user_data) {
    rt_err("clCreateContextFromType: user_data is given without pfn_notify");
    err = CL_INVALID_VALUE;
    goto fail;
  }
  err = context_check_properties("clCreateContextFromType", properties);
  if (err != CL_SUCCESS)
    goto fail;
  /* CL_INVALID_DEVICE_TYPE if device_type is not a valid value;
   * CL_DEVICE_NOT_FOUND if no devices that match device_type and property
   * values specified in properties were found: clGetDeviceIDs's answers. */
  cl_device_id dev;
  err = clGetDeviceIDs(&rt_platform, device_type, 1, &dev, NULL);
  if (err != CL_SUCCESS) {
    rt_err("clCreateContextFromType: no device of type 0x%llx", (unsigned long long)device_type);
    goto fail;
  }
  cl_context ctx = rt_context_create(&dev, 1, properties, pfn_notify, user_data, &err);
  icd_set_err(errcode_ret, err);
  return ctx;

fail:
  icd_set_err(errcode_ret, err);
  return NULL;
}

cl_int CL_API_CALL clRetainContext(cl_context context)
{
  icd_init();
  /* CL_INVALID_CONTEXT if context is not a valid OpenCL context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clRetainContext: context %p is not a valid context", (void *)context);
    return CL_INVALID_CONTEXT;
  }
  rt_context_retain(context);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseContext(cl_context context)
{
  icd_init();
  /* CL_INVALID_CONTEXT if context is not a valid OpenCL context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clReleaseContext: context %p is not a valid context", (void *)context);
    return CL_INVALID_CONTEXT;
  }
  rt_context_release(context);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret)
{
  icd_init();
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clGetContextInfo: context %p is not a valid context", (void *)context);
    return CL_INVALID_CONTEXT;
  }
  void *v = param_value;
  size_t n = param_value_size;
  size_t *ret = param_value_size_ret;
  /* CL_INVALID_VALUE if ... size in bytes specified by param_value_size is <
   * size of return type and param_value is not a NULL value: icd_info. */
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, atomic_load(&context->obj.refcount));
  case CL_CONTEXT_NUM_DEVICES:
    return ICD_INFO_VAL(v, n, ret, cl_uint, context->ndevices);
  case CL_CONTEXT_DEVICES:
    return icd_info(v, n, ret, context->devices, context->ndevices * sizeof(cl_device_id));
  case CL_CONTEXT_PROPERTIES:
    /* Created with NULL properties: a size of 0. */
    return icd_info(v, n, ret, context->props, context->nprops * sizeof(cl_context_properties));
  default:
    /* CL_INVALID_VALUE if param_name is not one of the supported values. */
    rt_err("clGetContextInfo: param_name 0x%x is not a context query", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                  void(CL_CALLBACK *pfn_notify)(cl_context context,
                                                                                void *user_data),
                                                  void *user_data)
{
  icd_init();
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clSetContextDestructorCallback: context %p is not a valid context", (void *)context);
    return CL_INVALID_CONTEXT;
  }
  /* CL_INVALID_VALUE if pfn_notify is NULL. */
  if (!pfn_notify) {
    rt_err("clSetContextDestructorCallback: pfn_notify is NULL");
    return CL_INVALID_VALUE;
  }
  cl_int err = rt_context_add_destructor(context, pfn_notify, user_data);
  if (err != CL_SUCCESS)
    rt_err("clSetContextDestructorCallback: out of host memory");
  return err;
}

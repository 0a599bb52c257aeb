/* Sampler entry points: creation (clCreateSampler,
 * clCreateSamplerWithProperties), references and queries.  A sampler is
 * passed to kernels as its CLK_* bits (runtime/image.c rt_sampler_bits). */
#include "icd/icd.h"

static bool addressing_valid(cl_ulong a)
{
  return a == CL_ADDRESS_NONE || a == CL_ADDRESS_CLAMP_TO_EDGE || a == CL_ADDRESS_CLAMP || a == CL_ADDRESS_REPEAT ||
         a == CL_ADDRESS_MIRRORED_REPEAT;
}

static bool filter_valid(cl_ulong f)
{
  return f == CL_FILTER_NEAREST || f == CL_FILTER_LINEAR;
}

static cl_sampler create_sampler(const char *func, cl_context context, cl_bool normalized,
                                 cl_addressing_mode addressing, cl_filter_mode filter,
                                 const cl_sampler_properties *props, size_t nprops, cl_int *errcode_ret)
{
  cl_int err;
  cl_sampler s = rt_sampler_create(context, normalized, addressing, filter, props, nprops, &err);
  if (!s)
    rt_err("%s: out of host memory", func);
  icd_set_err(errcode_ret, err);
  return s;
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                       cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                       cl_int *errcode_ret)
{
  icd_init();
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clCreateSampler: context %p is not a valid context", (void *)context);
    icd_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  /* CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or
   * a combination of these arguments are not valid. */
  if ((normalized_coords != CL_TRUE && normalized_coords != CL_FALSE) || !addressing_valid(addressing_mode) ||
      !filter_valid(filter_mode)) {
    rt_err("clCreateSampler: normalized_coords %u, addressing_mode %#x or filter_mode %#x is not valid",
           normalized_coords, (unsigned)addressing_mode, (unsigned)filter_mode);
    icd_set_err(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  return create_sampler("clCreateSampler", context, normalized_coords, addressing_mode, filter_mode, NULL, 0,
                        errcode_ret);
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties *sampler_properties,
                                                     cl_int *errcode_ret)
{
  icd_init();
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clCreateSamplerWithProperties: context %p is not a valid context", (void *)context);
    icd_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  /* Defaults: normalized coordinates, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST. */
  cl_bool normalized = CL_TRUE;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
  /* CL_INVALID_VALUE if the property name in sampler_properties is not a
   * supported property name, if the value specified for a supported property
   * name is not valid, or if the same property name is specified more than
   * once. */
  bool seen_norm = false, seen_addr = false, seen_filter = false;
  size_t i = 0;
  for (; sampler_properties && sampler_properties[i] != 0; i += 2) {
    cl_sampler_properties name = sampler_properties[i], value = sampler_properties[i + 1];
    bool ok;
    bool *seen;
    switch (name) {
    case CL_SAMPLER_NORMALIZED_COORDS:
      seen = &seen_norm;
      ok = value == CL_TRUE || value == CL_FALSE;
      normalized = (cl_bool)value;
      break;
    case CL_SAMPLER_ADDRESSING_MODE:
      seen = &seen_addr;
      ok = addressing_valid(value);
      addressing = (cl_addressing_mode)value;
      break;
    case CL_SAMPLER_FILTER_MODE:
      seen = &seen_filter;
      ok = filter_valid(value);
      filter = (cl_filter_mode)value;
      break;
    default:
      seen = NULL;
      ok = false;
      break;
    }
    if (!ok || *seen) {
      rt_err("clCreateSamplerWithProperties: property %#llx = %#llx is unknown, not valid or repeated",
             (unsigned long long)name, (unsigned long long)value);
      icd_set_err(errcode_ret, CL_INVALID_VALUE);
      return NULL;
    }
    *seen = true;
  }
  /* CL_SAMPLER_PROPERTIES reports the list as given, with its 0. */
  size_t nprops = sampler_properties ? i + 1 : 0;
  return create_sampler("clCreateSamplerWithProperties", context, normalized, addressing, filter,
                        sampler_properties, nprops, errcode_ret);
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler)
{
  /* CL_INVALID_SAMPLER if sampler is not a valid sampler object. */
  if (!rt_object_is(sampler, RT_SAMPLER)) {
    rt_err("clRetainSampler: %p is not a valid sampler", (void *)sampler);
    return CL_INVALID_SAMPLER;
  }
  rt_sampler_retain(sampler);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler)
{
  /* CL_INVALID_SAMPLER if sampler is not a valid sampler object. */
  if (!rt_object_is(sampler, RT_SAMPLER)) {
    rt_err("clReleaseSampler: %p is not a valid sampler", (void *)sampler);
    return CL_INVALID_SAMPLER;
  }
  rt_sampler_release(sampler);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret)
{
  /* CL_INVALID_SAMPLER if sampler is a not a valid sampler object. */
  if (!rt_object_is(sampler, RT_SAMPLER)) {
    rt_err("clGetSamplerInfo: %p is not a valid sampler", (void *)sampler);
    return CL_INVALID_SAMPLER;
  }
  cl_sampler s = sampler;
  void *v = param_value;
  size_t n = param_value_size;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_SAMPLER_REFERENCE_COUNT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, rt_sampler_refcount(s));
  case CL_SAMPLER_CONTEXT:
    return ICD_INFO_VAL(v, n, ret, cl_context, s->ctx);
  case CL_SAMPLER_NORMALIZED_COORDS:
    return ICD_INFO_VAL(v, n, ret, cl_bool, s->normalized);
  case CL_SAMPLER_ADDRESSING_MODE:
    return ICD_INFO_VAL(v, n, ret, cl_addressing_mode, s->addressing);
  case CL_SAMPLER_FILTER_MODE:
    return ICD_INFO_VAL(v, n, ret, cl_filter_mode, s->filter);
  case CL_SAMPLER_PROPERTIES:
    return icd_info(v, n, ret, s->props, s->nprops * sizeof(cl_sampler_properties));
  default:
    /* CL_INVALID_VALUE if param_name is not one of the supported values. */
    rt_err("clGetSamplerInfo: unknown param_name %#x", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
}

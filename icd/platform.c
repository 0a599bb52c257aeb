/* Platform entry points: clGetPlatformIDs (clIcdGetPlatformIDsKHR for the ICD
 * loaders), clGetPlatformInfo, clUnloadPlatformCompiler and the host timers. */
#include <time.h>

#include "icd/icd.h"

#define PLATFORM_NAME "LaneCL"
#define PLATFORM_VENDOR "LaneCL"
#define PLATFORM_VERSION "OpenCL 3.0 LaneCL " LANECL_VERSION
#define PLATFORM_ICD_SUFFIX "LaneCL"

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
  icd_init();
  /* CL_INVALID_VALUE if num_entries is equal to zero and platforms is not
   * NULL or if both num_platforms and platforms are NULL. */
  if (num_entries == 0 && platforms) {
    rt_err("clGetPlatformIDs: num_entries is 0 but platforms is not NULL");
    return CL_INVALID_VALUE;
  }
  if (!platforms && !num_platforms) {
    rt_err("clGetPlatformIDs: platforms and num_platforms are both NULL");
    return CL_INVALID_VALUE;
  }
  if (platforms)
    platforms[0] = &rt_platform;
  if (num_platforms)
    *num_platforms = 1;
  return CL_SUCCESS;
}

/* NULL means LaneCL's platform (the spec leaves NULL implementation-defined;
 * through an ICD loader it never reaches us). */
static bool platform_valid(cl_platform_id platform)
{
  return !platform || rt_object_is(platform, RT_PLATFORM);
}

/* Exported (lanecl.map): the ICD loaders read CL_PLATFORM_ICD_SUFFIX_KHR
 * through it before any dispatch table is known. */
__attribute__((visibility("default"))) cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name, size_t param_value_size,
                  void *param_value, size_t *param_value_size_ret)
{
  icd_init();
  /* CL_INVALID_PLATFORM if platform is not a valid platform. */
  if (!platform_valid(platform)) {
    rt_err("clGetPlatformInfo: platform %p is not a valid platform", (void *)platform);
    return CL_INVALID_PLATFORM;
  }
  void *v = param_value;
  size_t n = param_value_size;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_PLATFORM_PROFILE:
    return icd_info_str(v, n, ret, "FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    return icd_info_str(v, n, ret, PLATFORM_VERSION);
  case CL_PLATFORM_NUMERIC_VERSION:
    return ICD_INFO_VAL(v, n, ret, cl_version, CL_MAKE_VERSION(3, 0, 0));
  case CL_PLATFORM_NAME:
    return icd_info_str(v, n, ret, PLATFORM_NAME);
  case CL_PLATFORM_VENDOR:
    return icd_info_str(v, n, ret, PLATFORM_VENDOR);
  case CL_PLATFORM_EXTENSIONS:
    return icd_info_str(v, n, ret, rt_platform_extensions);
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    return icd_info(v, n, ret, rt_platform_extensions_with_version,
                   rt_num_platform_extensions * sizeof(cl_name_version));
  case CL_PLATFORM_HOST_TIMER_RESOLUTION: {
    struct timespec res = {0, 1};
    clock_getres(CLOCK_MONOTONIC, &res);
    cl_ulong ns = (cl_ulong)res.tv_sec * 1000000000ull + (cl_ulong)res.tv_nsec;
    return ICD_INFO_VAL(v, n, ret, cl_ulong, ns ? ns : 1);
  }
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return icd_info_str(v, n, ret, PLATFORM_ICD_SUFFIX);
  default:
    /* CL_INVALID_VALUE if param_name is not one of the supported values ... */
    rt_err("clGetPlatformInfo: param_name 0x%x is not a platform query", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
  /* ... or if size in bytes specified by param_value_size is < size of return
   * type and param_value is not a NULL value: icd_info's answer above. */
}

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform)
{
  icd_init();
  /* CL_INVALID_PLATFORM if platform is not a valid platform. */
  if (!rt_object_is(platform, RT_PLATFORM)) {
    rt_err("clUnloadPlatformCompiler: platform %p is not a valid platform", (void *)platform);
    return CL_INVALID_PLATFORM;
  }
  /* A hint: the compiler stays loaded (built kernels run from it). */
  return CL_SUCCESS;
}

cl_int CL_API_CALL clUnloadCompiler(void)
{
  icd_init();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp)
{
  icd_init();
  /* CL_INVALID_DEVICE if device is not a valid device. */
  if (!rt_device_is(device)) {
    rt_err("clGetHostTimer: device %p is not a valid device", (void *)device);
    return CL_INVALID_DEVICE;
  }
  /* CL_INVALID_VALUE if host_timestamp is NULL. */
  if (!host_timestamp) {
    rt_err("clGetHostTimer: host_timestamp is NULL");
    return CL_INVALID_VALUE;
  }
  *host_timestamp = rt_host_time_ns();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                                           cl_ulong *host_timestamp)
{
  icd_init();
  /* CL_INVALID_DEVICE if device is not a valid device. */
  if (!rt_device_is(device)) {
    rt_err("clGetDeviceAndHostTimer: device %p is not a valid device", (void *)device);
    return CL_INVALID_DEVICE;
  }
  /* CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL. */
  if (!device_timestamp || !host_timestamp) {
    rt_err("clGetDeviceAndHostTimer: %s is NULL", !device_timestamp ? "device_timestamp" : "host_timestamp");
    return CL_INVALID_VALUE;
  }
  /* The device's clock is the host's (event profiling uses it too). */
  *host_timestamp = *device_timestamp = rt_host_time_ns();
  return CL_SUCCESS;
}

/* Device entry points: clGetDeviceIDs, clGetDeviceInfo (every OpenCL 3.0
 * query), clCreateSubDevices, clRetainDevice, clReleaseDevice. */
#include "icd/icd.h"

#define DEVICE_VERSION "OpenCL 3.0 LaneCL " LANECL_VERSION
/* OpenCL 3.0 devices report the highest OpenCL C version every 3.0 compiler
 * accepts in full: 1.2 (3.0 and the others are in CL_DEVICE_OPENCL_C_ALL_VERSIONS). */
#define DEVICE_OPENCL_C_VERSION "OpenCL C 1.2 LaneCL"
#define DEVICE_PRINTF_BUFFER_SIZE (1024 * 1024)
#define DEVICE_MAX_PARAMETER_SIZE 1024
#define DEVICE_MAX_CONSTANT_BUFFER_SIZE (1024 * 1024)
#define DEVICE_MAX_CONSTANT_ARGS 16
#define DEVICE_MAX_GLOBAL_VARIABLE_SIZE (64 * 1024)

/* Every bit a cl_device_type may have. */
#define DEVICE_TYPE_BITS                                                                          \
  (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | \
   CL_DEVICE_TYPE_CUSTOM)

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                                  cl_device_id *devices, cl_uint *num_devices)
{
  icd_init();
  /* CL_INVALID_PLATFORM if platform is not a valid platform (NULL: the
   * behaviour is implementation-defined; it is LaneCL's). */
  if (platform && !rt_object_is(platform, RT_PLATFORM)) {
    rt_err("clGetDeviceIDs: platform %p is not a valid platform", (void *)platform);
    return CL_INVALID_PLATFORM;
  }
  /* CL_INVALID_DEVICE_TYPE if device_type is not a valid value. */
  if (device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || (device_type & ~DEVICE_TYPE_BITS))) {
    rt_err("clGetDeviceIDs: device_type 0x%llx is not a valid device type", (unsigned long long)device_type);
    return CL_INVALID_DEVICE_TYPE;
  }
  /* CL_INVALID_VALUE if num_entries is equal to zero and devices is not
   * NULL or if both num_devices and devices are NULL. */
  if (num_entries == 0 && devices) {
    rt_err("clGetDeviceIDs: num_entries is 0 but devices is not NULL");
    return CL_INVALID_VALUE;
  }
  if (!devices && !num_devices) {
    rt_err("clGetDeviceIDs: devices and num_devices are both NULL");
    return CL_INVALID_VALUE;
  }
  /* CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were
   * found.  The one device is a CPU and the default device. */
  if (!(device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT))) {
    rt_err("clGetDeviceIDs: no device of type 0x%llx (LaneCL has one CPU device)",
           (unsigned long long)device_type);
    if (num_devices)
      *num_devices = 0;
    return CL_DEVICE_NOT_FOUND;
  }
  if (devices)
    devices[0] = &rt_root_device;
  if (num_devices)
    *num_devices = 1;
  return CL_SUCCESS;
}

/* Vector widths in elements of `bytes`-byte types for the device's SIMD. */
static cl_uint simd_lanes(cl_device_id d, unsigned bytes)
{
  return d->simd_bits / 8 / bytes;
}

/* The preferred and native vector widths: the elements of one SIMD register,
 * at most 16, the widest OpenCL C vector (a 512-bit register holds 64 chars,
 * but there is no char64: applications build programs with the value as a
 * vector width). */
static cl_uint vector_width(cl_device_id d, unsigned bytes)
{
  cl_uint lanes = simd_lanes(d, bytes);
  return lanes > 16 ? 16 : lanes < 1 ? 1 : lanes;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                                   void *param_value, size_t *param_value_size_ret)
{
  icd_init();
  /* CL_INVALID_DEVICE if device is not a valid device. */
  if (!rt_device_is(device)) {
    rt_err("clGetDeviceInfo: device %p is not a valid device", (void *)device);
    return CL_INVALID_DEVICE;
  }
  const cl_device_id d = device;
  void *v = param_value;
  size_t n = param_value_size;
  size_t *ret = param_value_size_ret;
  /* CL_INVALID_VALUE if param_value_size is < size of return type and
   * param_value is not NULL: icd_info and icd_info_str check it. */
  switch (param_name) {
  /* ---- identity ---- */
  case CL_DEVICE_TYPE:
    return ICD_INFO_VAL(v, n, ret, cl_device_type, CL_DEVICE_TYPE_CPU);
  case CL_DEVICE_VENDOR_ID:
    return ICD_INFO_VAL(v, n, ret, cl_uint, d->vendor_id);
  case CL_DEVICE_NAME:
    return icd_info_str(v, n, ret, d->name);
  case CL_DEVICE_VENDOR:
    return icd_info_str(v, n, ret, d->vendor);
  case CL_DRIVER_VERSION:
    return icd_info_str(v, n, ret, LANECL_VERSION);
  case CL_DEVICE_PROFILE:
    return icd_info_str(v, n, ret, "FULL_PROFILE");
  case CL_DEVICE_VERSION:
    return icd_info_str(v, n, ret, DEVICE_VERSION);
  case CL_DEVICE_NUMERIC_VERSION:
    return ICD_INFO_VAL(v, n, ret, cl_version, CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_OPENCL_C_VERSION:
    return icd_info_str(v, n, ret, DEVICE_OPENCL_C_VERSION);
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
    return icd_info(v, n, ret, rt_opencl_c_versions, rt_num_opencl_c_versions * sizeof(cl_name_version));
  case CL_DEVICE_OPENCL_C_FEATURES:
    return icd_info(v, n, ret, rt_opencl_c_features, rt_num_opencl_c_features * sizeof(cl_name_version));
  case CL_DEVICE_EXTENSIONS:
    return icd_info_str(v, n, ret, rt_extensions);
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return icd_info(v, n, ret, rt_extensions_with_version, rt_num_extensions * sizeof(cl_name_version));
  case CL_DEVICE_PLATFORM:
    return ICD_INFO_VAL(v, n, ret, cl_platform_id, &rt_platform);
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    return icd_info_str(v, n, ret, "v0000-01-01-00");  /* not submitted for conformance */
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
  case CL_DEVICE_ENDIAN_LITTLE:
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    return ICD_INFO_VAL(v, n, ret, cl_bool, CL_TRUE);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    return ICD_INFO_VAL(v, n, ret, cl_bool, CL_FALSE);

  /* ---- compute ---- */
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    return ICD_INFO_VAL(v, n, ret, cl_uint, d->compute_units);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    return ICD_INFO_VAL(v, n, ret, cl_uint, d->max_clock_mhz);
  case CL_DEVICE_ADDRESS_BITS:
    return ICD_INFO_VAL(v, n, ret, cl_uint, 64);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    return ICD_INFO_VAL(v, n, ret, cl_uint, 3);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t sizes[3] = {d->max_work_group_size, d->max_work_group_size, d->max_work_group_size};
    return icd_info(v, n, ret, sizes, sizeof(sizes));
  }
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    return ICD_INFO_VAL(v, n, ret, size_t, d->max_work_group_size);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return ICD_INFO_VAL(v, n, ret, size_t, simd_lanes(d, 4));
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    return ICD_INFO_VAL(v, n, ret, cl_bool, CL_TRUE);
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    /* Sub-groups are chunks of a row of x: a group of rows of one work-item
     * has one sub-group per work-item. */
    return ICD_INFO_VAL(v, n, ret, cl_uint, (cl_uint)d->max_work_group_size);
  case CL_DEVICE_SUB_GROUP_SIZES_INTEL: {
    /* intel_reqd_sub_group_size: powers of two from 4 to twice the lane
     * width, at most 32 (the compiler's check, cc_wg_subgroup.c) */
    size_t sizes[8], k = 0, top = 2 * (size_t)simd_lanes(d, 4);
    for (size_t s = 4; s <= top && s <= 32; s *= 2)
      sizes[k++] = s;
    return icd_info(v, n, ret, sizes, k * sizeof(size_t));
  }
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    /* The sub-groups of a work-group run one after the other on one thread,
     * region by region: one that spins waiting for another never lets it run. */
    return ICD_INFO_VAL(v, n, ret, cl_bool, CL_FALSE);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    return ICD_INFO_VAL(v, n, ret, cl_device_exec_capabilities, CL_EXEC_KERNEL);
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
    return ICD_INFO_VAL(v, n, ret, cl_command_queue_properties, d->queue_props);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    return ICD_INFO_VAL(v, n, ret, size_t, 1);  /* ns: CLOCK_MONOTONIC */
  case CL_DEVICE_BUILT_IN_KERNELS:
    return icd_info_str(v, n, ret, "");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
  case CL_DEVICE_ILS_WITH_VERSION:
    return icd_info(v, n, ret, NULL, 0);
  case CL_DEVICE_IL_VERSION:
    return icd_info_str(v, n, ret, "");
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    return ICD_INFO_VAL(v, n, ret, size_t, DEVICE_MAX_PARAMETER_SIZE);
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    return ICD_INFO_VAL(v, n, ret, size_t, DEVICE_PRINTF_BUFFER_SIZE);

  /* ---- vector widths: what fills one SIMD register, capped at 16 ---- */
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    return ICD_INFO_VAL(v, n, ret, cl_uint, vector_width(d, 1));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, vector_width(d, 2));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, vector_width(d, 4));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return ICD_INFO_VAL(v, n, ret, cl_uint, vector_width(d, 8));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    /* half arithmetic runs in float lanes (F16C converts), so as wide as float */
    return ICD_INFO_VAL(v, n, ret, cl_uint, vector_width(d, 4));

  /* ---- floating point ---- */
  case CL_DEVICE_SINGLE_FP_CONFIG: {
    cl_device_fp_config fp = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST;
    if (d->has_fma)
      fp |= CL_FP_FMA;
    return ICD_INFO_VAL(v, n, ret, cl_device_fp_config, fp);
  }
  case CL_DEVICE_HALF_FP_CONFIG:
    /* cl_khr_fp16: half values are computed in float (or double for fma) and
     * rounded once to nearest even; subnormal halves are kept (they are
     * normal floats).  fma is correctly rounded in software. */
    return ICD_INFO_VAL(v, n, ret, cl_device_fp_config,
                       CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    /* cl_khr_fp64 asks for FMA (in software where the CPU has none).  The
     * directed rounding modes are part of the OpenCL 1.x fp64 minimum that the
     * CTS (min_max_double_fp_config) still asks every device for; the CPU's
     * double arithmetic has them. */
    return ICD_INFO_VAL(v, n, ret, cl_device_fp_config,
                       CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                           CL_FP_INF_NAN | CL_FP_DENORM);

  /* ---- memory ---- */
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    return ICD_INFO_VAL(v, n, ret, cl_ulong, d->global_mem_size);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    return ICD_INFO_VAL(v, n, ret, cl_ulong, d->max_alloc);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return ICD_INFO_VAL(v, n, ret, cl_device_mem_cache_type, CL_READ_WRITE_CACHE);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    return ICD_INFO_VAL(v, n, ret, cl_uint, d->cacheline);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    return ICD_INFO_VAL(v, n, ret, cl_ulong, d->cache_size);
  case CL_DEVICE_LOCAL_MEM_TYPE:
    return ICD_INFO_VAL(v, n, ret, cl_device_local_mem_type, CL_GLOBAL);  /* plain memory, no scratchpad */
  case CL_DEVICE_LOCAL_MEM_SIZE:
    return ICD_INFO_VAL(v, n, ret, cl_ulong, d->local_mem_size);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: {
    cl_ulong size = DEVICE_MAX_CONSTANT_BUFFER_SIZE;
    return ICD_INFO_VAL(v, n, ret, cl_ulong, size < d->max_alloc ? size : d->max_alloc);
  }
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    return ICD_INFO_VAL(v, n, ret, cl_uint, DEVICE_MAX_CONSTANT_ARGS);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    return ICD_INFO_VAL(v, n, ret, cl_uint, d->mem_base_addr_align);
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    return ICD_INFO_VAL(v, n, ret, cl_uint, d->mem_base_addr_align / 8);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    return ICD_INFO_VAL(v, n, ret, size_t, DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
  case CL_DEVICE_SVM_CAPABILITIES:
    return ICD_INFO_VAL(v, n, ret, cl_device_svm_capabilities, 0);
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, 0);  /* natural alignment */
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: {
    /* What the __opencl_c_atomic_* features say.  Work-item scope exists
     * only for fences (atomic_work_item_fence on read-write images). */
    cl_device_atomic_capabilities caps = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                         CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                                         CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
    if (param_name == CL_DEVICE_ATOMIC_FENCE_CAPABILITIES)
      caps |= CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;
    return ICD_INFO_VAL(v, n, ret, cl_device_atomic_capabilities, caps);
  }

  /* ---- images and samplers (runtime/rt.h RT_IMAGE*) ---- */
  case CL_DEVICE_IMAGE_SUPPORT:
    return ICD_INFO_VAL(v, n, ret, cl_bool, CL_TRUE);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    return ICD_INFO_VAL(v, n, ret, cl_uint, RT_MAX_READ_IMAGE_ARGS);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    return ICD_INFO_VAL(v, n, ret, cl_uint, RT_MAX_WRITE_IMAGE_ARGS);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    return ICD_INFO_VAL(v, n, ret, cl_uint, RT_MAX_READ_WRITE_IMAGE_ARGS);
  case CL_DEVICE_MAX_SAMPLERS:
    return ICD_INFO_VAL(v, n, ret, cl_uint, RT_MAX_SAMPLERS);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, RT_IMAGE_PITCH_ALIGN);
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, RT_IMAGE_BASE_ALIGN);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    return ICD_INFO_VAL(v, n, ret, size_t, RT_IMAGE2D_MAX);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    return ICD_INFO_VAL(v, n, ret, size_t, RT_IMAGE3D_MAX);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    return ICD_INFO_VAL(v, n, ret, size_t, (size_t)(d->max_alloc / 16));
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    return ICD_INFO_VAL(v, n, ret, size_t, RT_IMAGE_MAX_ARRAY);

  /* ---- pipes and device-side enqueue: none ---- */
  case CL_DEVICE_PIPE_SUPPORT:
    return ICD_INFO_VAL(v, n, ret, cl_bool, CL_FALSE);
  case CL_DEVICE_MAX_PIPE_ARGS:
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    return ICD_INFO_VAL(v, n, ret, cl_uint, 0);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    return ICD_INFO_VAL(v, n, ret, cl_command_queue_properties, 0);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    return ICD_INFO_VAL(v, n, ret, cl_device_device_enqueue_capabilities, 0);

  /* ---- partitions ---- */
  case CL_DEVICE_PARENT_DEVICE:
    return ICD_INFO_VAL(v, n, ret, cl_device_id, d->parent);
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    return ICD_INFO_VAL(v, n, ret, cl_uint, d->compute_units >= 2 ? d->compute_units : 0);
  case CL_DEVICE_PARTITION_PROPERTIES: {
    cl_device_partition_property props[3] = {0};
    size_t count = rt_device_partition_types(d, props);
    /* none: a single 0 */
    return icd_info(v, n, ret, props, (count ? count : 1) * sizeof(props[0]));
  }
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    return ICD_INFO_VAL(v, n, ret, cl_device_affinity_domain, rt_device_affinity_domains(d));
  case CL_DEVICE_PARTITION_TYPE: {
    if (d->parent)
      return icd_info(v, n, ret, d->partition_props, d->npartition_props * sizeof(cl_device_partition_property));
    /* a root device: a single 0 */
    return ICD_INFO_VAL(v, n, ret, cl_device_partition_property, 0);
  }
  case CL_DEVICE_REFERENCE_COUNT: {
    cl_uint refs = d->parent ? atomic_load(&d->obj.refcount) : 1;
    return ICD_INFO_VAL(v, n, ret, cl_uint, refs);
  }

  default:
    /* CL_INVALID_VALUE if param_name is not one of the supported values. */
    rt_err("clGetDeviceInfo: param_name 0x%x is not a device query LaneCL answers", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
}

/* The properties of clCreateSubDevices checked against in_device: the
 * errors the spec lists for them, in LaneCL's order.  On success *nsub is
 * the number of sub-devices the partition makes. */
static cl_int check_partition(cl_device_id dev, const cl_device_partition_property *props, cl_uint *nsub)
{
  /* CL_INVALID_VALUE if values specified in properties are not valid: one
   * scheme (the spec: only one of the listed partitioning schemes can be
   * specified). */
  cl_device_partition_property scheme = props[0];
  if (scheme != CL_DEVICE_PARTITION_EQUALLY && scheme != CL_DEVICE_PARTITION_BY_COUNTS &&
      scheme != CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN) {
    rt_err("clCreateSubDevices: 0x%lx is not a partition scheme", (unsigned long)scheme);
    return CL_INVALID_VALUE;
  }
  /* CL_DEVICE_PARTITION_FAILED if the partition name is supported by the
   * implementation but in_device could not be further partitioned. */
  cl_uint cu = dev->compute_units;
  if (cu < 2) {
    rt_err("clCreateSubDevices: a device of one compute unit can't be partitioned further");
    return CL_DEVICE_PARTITION_FAILED;
  }
  size_t nprops = 3; /* entries through the terminating 0 */
  if (scheme == CL_DEVICE_PARTITION_EQUALLY) {
    cl_device_partition_property n = props[1];
    /* CL_INVALID_VALUE if values specified in properties are not valid ... */
    if (n <= 0) {
      rt_err("clCreateSubDevices: CL_DEVICE_PARTITION_EQUALLY %ld is not a positive number of compute units",
             (long)n);
      return CL_INVALID_VALUE;
    }
    /* CL_INVALID_DEVICE_PARTITION_COUNT if ... the total number of compute
     * units requested exceeds CL_DEVICE_PARTITION_MAX_COMPUTE_UNITS for
     * in_device (the CTS asks for this code for EQUALLY too). */
    if ((cl_ulong)n > cu) {
      rt_err("clCreateSubDevices: CL_DEVICE_PARTITION_EQUALLY %ld exceeds the device's %u compute units",
             (long)n, cu);
      return CL_INVALID_DEVICE_PARTITION_COUNT;
    }
    /* CL_DEVICE_PARTITION_FAILED if the partition name is supported by the
     * implementation but in_device could not be further partitioned: one
     * sub-device of every compute unit would be in_device again. */
    if ((cl_ulong)n == cu) {
      rt_err("clCreateSubDevices: CL_DEVICE_PARTITION_EQUALLY %ld is the whole device, not a partition",
             (long)n);
      return CL_DEVICE_PARTITION_FAILED;
    }
    *nsub = cu / (cl_uint)n;
  } else if (scheme == CL_DEVICE_PARTITION_BY_COUNTS) {
    cl_uint used = 0, count_n = 0;
    size_t i = 1;
    for (; props[i] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; i++) {
      cl_device_partition_property count = props[i];
      /* CL_INVALID_DEVICE_PARTITION_COUNT if ... the number of sub-devices
       * requested exceeds CL_DEVICE_PARTITION_MAX_SUB_DEVICES ... */
      if (count_n + 1 > cu) {
        rt_err("clCreateSubDevices: more than the %u sub-devices the device can be partitioned into", cu);
        return CL_INVALID_DEVICE_PARTITION_COUNT;
      }
      /* ... or the number of compute units requested for one or more
       * sub-devices is less than zero ... */
      if (count < 0) {
        rt_err("clCreateSubDevices: negative compute unit count %ld", (long)count);
        return CL_INVALID_DEVICE_PARTITION_COUNT;
      }
      /* ... or the total number of compute units requested exceeds
       * CL_DEVICE_PARTITION_MAX_COMPUTE_UNITS for in_device. */
      if ((cl_ulong)count > cu - used) {
        rt_err("clCreateSubDevices: the counts ask for more than the device's %u compute units", cu);
        return CL_INVALID_DEVICE_PARTITION_COUNT;
      }
      used += (cl_uint)count;
      count_n++;
    }
    if (count_n == 0) {
      rt_err("clCreateSubDevices: CL_DEVICE_PARTITION_BY_COUNTS with an empty list of counts");
      return CL_INVALID_DEVICE_PARTITION_COUNT;
    }
    /* CL_DEVICE_PARTITION_FAILED if ... in_device could not be further
     * partitioned: one sub-device of every compute unit is in_device again. */
    if (count_n == 1 && used == cu) {
      rt_err("clCreateSubDevices: CL_DEVICE_PARTITION_BY_COUNTS %u is the whole device, not a partition", used);
      return CL_DEVICE_PARTITION_FAILED;
    }
    *nsub = count_n;
    nprops = i + 2; /* the list, its LIST_END and the terminating 0 */
  } else {
    cl_device_affinity_domain want = (cl_device_affinity_domain)props[1];
    cl_device_affinity_domain domain = want;
    if (want == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) {
      domain = rt_device_next_affinity_domain(dev);
      /* CL_DEVICE_PARTITION_FAILED if the partition name is supported by
       * the implementation but in_device could not be further partitioned. */
      if (!domain) {
        rt_err("clCreateSubDevices: no affinity domain splits this device further");
        return CL_DEVICE_PARTITION_FAILED;
      }
    } else if (want != CL_DEVICE_AFFINITY_DOMAIN_NUMA && want != CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE &&
               want != CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE && want != CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE) {
      /* CL_INVALID_VALUE if values specified in properties are not valid or
       * if values specified in properties are valid but not supported by
       * the device. */
      rt_err("clCreateSubDevices: affinity domain 0x%lx is not NUMA, L3, L2, L1 or NEXT_PARTITIONABLE",
             (unsigned long)want);
      return CL_INVALID_VALUE;
    }
    *nsub = rt_device_affinity_groups(dev, domain);
    /* CL_DEVICE_PARTITION_FAILED: one domain spans the whole device. */
    if (*nsub < 2) {
      rt_err("clCreateSubDevices: the device's cores all share one affinity domain 0x%lx",
             (unsigned long)domain);
      return CL_DEVICE_PARTITION_FAILED;
    }
  }
  /* CL_INVALID_VALUE if values specified in properties are not valid: a
   * second scheme after the first one's value(s). */
  if (props[nprops - 1] != 0) {
    rt_err("clCreateSubDevices: properties name more than one partition scheme (0x%lx follows)",
           (unsigned long)props[nprops - 1]);
    return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property *properties,
                                      cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret)
{
  icd_init();
  /* CL_INVALID_DEVICE if in_device is not valid. */
  if (!rt_device_is(in_device)) {
    rt_err("clCreateSubDevices: in_device %p is not a valid device", (void *)in_device);
    return CL_INVALID_DEVICE;
  }
  /* CL_INVALID_VALUE if values specified in properties are not valid. */
  if (!properties) {
    rt_err("clCreateSubDevices: properties is NULL");
    return CL_INVALID_VALUE;
  }
  cl_uint nsub;
  cl_int err = check_partition(in_device, properties, &nsub);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if out_devices is not NULL and num_devices is less
   * than the number of sub-devices created by the partition scheme. */
  if (out_devices && num_devices < nsub) {
    rt_err("clCreateSubDevices: num_devices %u is less than the %u sub-devices of the partition", num_devices,
           nsub);
    return CL_INVALID_VALUE;
  }
  if (out_devices) {
    err = rt_device_partition(in_device, properties, out_devices);
    if (err != CL_SUCCESS)
      return err;
  }
  if (num_devices_ret)
    *num_devices_ret = nsub;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device)
{
  icd_init();
  /* CL_INVALID_DEVICE if device is not a valid device. */
  if (!rt_device_is(device)) {
    rt_err("clRetainDevice: device %p is not a valid device", (void *)device);
    return CL_INVALID_DEVICE;
  }
  rt_device_retain(device);  /* a no-op for the root device */
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device)
{
  icd_init();
  /* CL_INVALID_DEVICE if device is not a valid device. */
  if (!rt_device_is(device)) {
    rt_err("clReleaseDevice: device %p is not a valid device", (void *)device);
    return CL_INVALID_DEVICE;
  }
  rt_device_release(device);  /* a no-op for the root device */
  return CL_SUCCESS;
}

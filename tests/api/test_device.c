/* Device family through the ICD loader: clGetDeviceIDs, clGetDeviceInfo (every
 * OpenCL 3.0 query), clCreateSubDevices, clRetainDevice, clReleaseDevice. */
#include <CL/cl_ext.h>

#include "tests/testlib.h"

static cl_uint dev_uint(cl_device_id d, cl_device_info p)
{
  cl_uint v = 0;
  size_t size = 0;
  ASSERT_OK(clGetDeviceInfo(d, p, sizeof(v), &v, &size));
  ASSERT_EQ(size, sizeof(v));
  return v;
}

static cl_ulong dev_ulong(cl_device_id d, cl_device_info p)
{
  cl_ulong v = 0;
  size_t size = 0;
  ASSERT_OK(clGetDeviceInfo(d, p, sizeof(v), &v, &size));
  ASSERT_EQ(size, sizeof(v));
  return v;
}

static size_t dev_size(cl_device_id d, cl_device_info p)
{
  size_t v = 0, size = 0;
  ASSERT_OK(clGetDeviceInfo(d, p, sizeof(v), &v, &size));
  ASSERT_EQ(size, sizeof(v));
  return v;
}

static cl_bool dev_bool(cl_device_id d, cl_device_info p)
{
  cl_bool v = 7;
  size_t size = 0;
  ASSERT_OK(clGetDeviceInfo(d, p, sizeof(v), &v, &size));
  ASSERT_EQ(size, sizeof(v));
  ASSERT_TRUE(v == CL_TRUE || v == CL_FALSE);
  return v;
}

/* A query's value, malloc'ed; *size_out its size. */
static void *dev_blob(cl_device_id d, cl_device_info p, size_t *size_out)
{
  size_t size = 0;
  ASSERT_OK(clGetDeviceInfo(d, p, 0, NULL, &size));
  void *v = malloc(size ? size : 1);
  size_t size2 = 0;
  ASSERT_OK(clGetDeviceInfo(d, p, size, size ? v : NULL, &size2));
  ASSERT_EQ(size2, size);
  *size_out = size;
  return v;
}

static char *dev_string(cl_device_id d, cl_device_info p)
{
  size_t size;
  char *s = dev_blob(d, p, &size);
  ASSERT_TRUE(size >= 1);
  ASSERT_EQ(strlen(s) + 1, size);
  return s;
}

static int has_word(const char *list, const char *word)
{
  size_t n = strlen(word);
  for (const char *s = list; (s = strstr(s, word)); s += n)
    if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
      return 1;
  return 0;
}

/* ---- clGetDeviceIDs ---- */

TEST(device_ids_by_type)
{
  cl_platform_id p = tl_platform();
  cl_device_type ok_types[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL,
                               CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU};
  for (size_t i = 0; i < sizeof(ok_types) / sizeof(ok_types[0]); i++) {
    cl_uint n = 0;
    cl_device_id d = NULL;
    ASSERT_OK(clGetDeviceIDs(p, ok_types[i], 0, NULL, &n));
    ASSERT_EQ(n, 1);
    ASSERT_OK(clGetDeviceIDs(p, ok_types[i], 1, &d, NULL));
    ASSERT_TRUE(d == tl_device());
  }
  /* CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found. */
  cl_device_type none_types[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM};
  for (size_t i = 0; i < sizeof(none_types) / sizeof(none_types[0]); i++) {
    cl_uint n = 5;
    cl_device_id d;
    ASSERT_CL(clGetDeviceIDs(p, none_types[i], 1, &d, &n), CL_DEVICE_NOT_FOUND);
    ASSERT_EQ(n, 0);
  }
}

TEST(device_ids_errors)
{
  cl_platform_id p = tl_platform();
  cl_device_id d;
  cl_uint n;
  /* CL_INVALID_DEVICE_TYPE if device_type is not a valid value. */
  ASSERT_CL(clGetDeviceIDs(p, 0, 1, &d, &n), CL_INVALID_DEVICE_TYPE);
  ASSERT_CL(clGetDeviceIDs(p, (cl_device_type)1 << 40, 1, &d, &n), CL_INVALID_DEVICE_TYPE);
  ASSERT_CL(clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU | ((cl_device_type)1 << 20), 1, &d, &n), CL_INVALID_DEVICE_TYPE);
  /* CL_INVALID_VALUE if num_entries is equal to zero and devices is not NULL
   * or if both num_devices and devices are NULL. */
  ASSERT_CL(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, &d, &n), CL_INVALID_VALUE);
  ASSERT_CL(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, NULL, NULL), CL_INVALID_VALUE);
  /* CL_INVALID_PLATFORM if platform is not a valid platform: a device handle. */
  ASSERT_CL(clGetDeviceIDs((cl_platform_id)tl_device(), CL_DEVICE_TYPE_ALL, 1, &d, &n), CL_INVALID_PLATFORM);
}

/* ---- clGetDeviceInfo ---- */

/* Every OpenCL 3.0 device query with the size of its answer (0: variable). */
static const struct {
  cl_device_info param;
  size_t size;
} all_queries[] = {
    {CL_DEVICE_TYPE, sizeof(cl_device_type)},
    {CL_DEVICE_VENDOR_ID, sizeof(cl_uint)},
    {CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t)},
    {CL_DEVICE_MAX_WORK_ITEM_SIZES, 3 * sizeof(size_t)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof(cl_uint)},
    {CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(cl_uint)},
    {CL_DEVICE_ADDRESS_BITS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl_ulong)},
    {CL_DEVICE_IMAGE_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof(cl_uint)},
    {CL_DEVICE_IL_VERSION, 0},
    {CL_DEVICE_ILS_WITH_VERSION, 0},
    {CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(size_t)},
    {CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof(size_t)},
    {CL_DEVICE_IMAGE3D_MAX_WIDTH, sizeof(size_t)},
    {CL_DEVICE_IMAGE3D_MAX_HEIGHT, sizeof(size_t)},
    {CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof(size_t)},
    {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof(size_t)},
    {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof(size_t)},
    {CL_DEVICE_MAX_SAMPLERS, sizeof(cl_uint)},
    {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof(cl_uint)},
    {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof(cl_uint)},
    {CL_DEVICE_MAX_PIPE_ARGS, sizeof(cl_uint)},
    {CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, sizeof(cl_uint)},
    {CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof(cl_uint)},
    {CL_DEVICE_MAX_PARAMETER_SIZE, sizeof(size_t)},
    {CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(cl_uint)},
    {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, sizeof(cl_uint)},
    {CL_DEVICE_SINGLE_FP_CONFIG, sizeof(cl_device_fp_config)},
    {CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(cl_device_fp_config)},
    {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof(cl_device_mem_cache_type)},
    {CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof(cl_uint)},
    {CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cl_ulong)},
    {CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl_ulong)},
    {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof(cl_ulong)},
    {CL_DEVICE_MAX_CONSTANT_ARGS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof(size_t)},
    {CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, sizeof(size_t)},
    {CL_DEVICE_LOCAL_MEM_TYPE, sizeof(cl_device_local_mem_type)},
    {CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl_ulong)},
    {CL_DEVICE_ERROR_CORRECTION_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof(cl_bool)},
    {CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof(size_t)},
    {CL_DEVICE_ENDIAN_LITTLE, sizeof(cl_bool)},
    {CL_DEVICE_AVAILABLE, sizeof(cl_bool)},
    {CL_DEVICE_COMPILER_AVAILABLE, sizeof(cl_bool)},
    {CL_DEVICE_LINKER_AVAILABLE, sizeof(cl_bool)},
    {CL_DEVICE_EXECUTION_CAPABILITIES, sizeof(cl_device_exec_capabilities)},
    {CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof(cl_command_queue_properties)},
    {CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof(cl_command_queue_properties)},
    {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof(cl_uint)},
    {CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof(cl_uint)},
    {CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof(cl_uint)},
    {CL_DEVICE_MAX_ON_DEVICE_EVENTS, sizeof(cl_uint)},
    {CL_DEVICE_BUILT_IN_KERNELS, 0},
    {CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 0},
    {CL_DEVICE_PLATFORM, sizeof(cl_platform_id)},
    {CL_DEVICE_NAME, 0},
    {CL_DEVICE_VENDOR, 0},
    {CL_DRIVER_VERSION, 0},
    {CL_DEVICE_PROFILE, 0},
    {CL_DEVICE_VERSION, 0},
    {CL_DEVICE_NUMERIC_VERSION, sizeof(cl_version)},
    {CL_DEVICE_OPENCL_C_VERSION, 0},
    {CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0},
    {CL_DEVICE_OPENCL_C_FEATURES, 0},
    {CL_DEVICE_EXTENSIONS, 0},
    {CL_DEVICE_EXTENSIONS_WITH_VERSION, 0},
    {CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof(size_t)},
    {CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, sizeof(cl_bool)},
    {CL_DEVICE_PARENT_DEVICE, sizeof(cl_device_id)},
    {CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof(cl_uint)},
    {CL_DEVICE_PARTITION_PROPERTIES, 0},
    {CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof(cl_device_affinity_domain)},
    {CL_DEVICE_PARTITION_TYPE, 0},
    {CL_DEVICE_REFERENCE_COUNT, sizeof(cl_uint)},
    {CL_DEVICE_SVM_CAPABILITIES, sizeof(cl_device_svm_capabilities)},
    {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, sizeof(cl_uint)},
    {CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(cl_uint)},
    {CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof(cl_bool)},
    {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof(cl_device_atomic_capabilities)},
    {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof(cl_device_atomic_capabilities)},
    {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof(cl_device_device_enqueue_capabilities)},
    {CL_DEVICE_PIPE_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(size_t)},
    {CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, 0},
};

/* Every query answers; sizes are right; one byte too few is CL_INVALID_VALUE. */
TEST(device_info_every_query)
{
  cl_device_id d = tl_device();
  for (size_t i = 0; i < sizeof(all_queries) / sizeof(all_queries[0]); i++) {
    size_t size = 12345;
    cl_int err = clGetDeviceInfo(d, all_queries[i].param, 0, NULL, &size);
    if (err != CL_SUCCESS)
      tl_fail(__FILE__, __LINE__, "query 0x%x: %s", (unsigned)all_queries[i].param, tl_cl_error_name(err));
    if (all_queries[i].size && size != all_queries[i].size)
      tl_fail(__FILE__, __LINE__, "query 0x%x: size %zu, expected %zu", (unsigned)all_queries[i].param, size,
              all_queries[i].size);
    unsigned char *buf = malloc(size + 1);
    size_t size2 = 0;
    ASSERT_OK(clGetDeviceInfo(d, all_queries[i].param, size, size ? buf : NULL, &size2));
    ASSERT_EQ(size2, size);
    if (size > 0)
      ASSERT_CL(clGetDeviceInfo(d, all_queries[i].param, size - 1, buf, NULL), CL_INVALID_VALUE);
    /* A larger buffer is fine. */
    ASSERT_OK(clGetDeviceInfo(d, all_queries[i].param, size + 1, buf, NULL));
    free(buf);
  }
}

TEST(device_info_errors)
{
  cl_device_id d = tl_device();
  cl_uint v;
  /* CL_INVALID_VALUE if param_name is not one of the supported values. */
  ASSERT_CL(clGetDeviceInfo(d, 0x7fff, sizeof(v), &v, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetDeviceInfo(d, CL_PLATFORM_NAME, sizeof(v), &v, NULL), CL_INVALID_VALUE);
  /* CL_INVALID_VALUE if size in bytes specified by param_value_size is < size
   * of return type and param_value is not NULL. */
  ASSERT_CL(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, 0, &v, NULL), CL_INVALID_VALUE);
  char name[2];
  ASSERT_CL(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof(name), name, NULL), CL_INVALID_VALUE);
  /* CL_INVALID_DEVICE if device is not a valid device: a context and the
   * platform passed as a device. */
  cl_context ctx = tl_context();
  ASSERT_CL(clGetDeviceInfo((cl_device_id)ctx, CL_DEVICE_NAME, 0, NULL, NULL), CL_INVALID_DEVICE);
  ASSERT_CL(clGetDeviceInfo((cl_device_id)tl_platform(), CL_DEVICE_NAME, 0, NULL, NULL), CL_INVALID_DEVICE);
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(device_identity)
{
  cl_device_id d = tl_device();
  cl_device_type type = 0;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof(type), &type, NULL));
  ASSERT_EQ(type, CL_DEVICE_TYPE_CPU);
  cl_platform_id p = NULL;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof(p), &p, NULL));
  ASSERT_TRUE(p == tl_platform());
  char *s = dev_string(d, CL_DEVICE_NAME);
  ASSERT_TRUE(s[0] != '\0');
  free(s);
  s = dev_string(d, CL_DEVICE_VENDOR);
  ASSERT_TRUE(s[0] != '\0');
  free(s);
  s = dev_string(d, CL_DEVICE_PROFILE);
  ASSERT_STREQ(s, "FULL_PROFILE");
  free(s);
  s = dev_string(d, CL_DEVICE_VERSION);
  ASSERT_TRUE(!strncmp(s, "OpenCL 3.0 ", 11));
  free(s);
  s = dev_string(d, CL_DEVICE_OPENCL_C_VERSION);
  ASSERT_TRUE(!strncmp(s, "OpenCL C 1.2 ", 13));  /* what 3.0 devices report */
  free(s);
  s = dev_string(d, CL_DRIVER_VERSION);
  ASSERT_TRUE(s[0] >= '0' && s[0] <= '9');
  free(s);
  s = dev_string(d, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
  ASSERT_EQ(strlen(s), 14);  /* vYYYY-MM-DD-XX */
  ASSERT_EQ(s[0], 'v');
  free(s);
  cl_version v = 0;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_NUMERIC_VERSION, sizeof(v), &v, NULL));
  ASSERT_EQ(v, CL_MAKE_VERSION(3, 0, 0));
  ASSERT_TRUE(dev_bool(d, CL_DEVICE_AVAILABLE));
  ASSERT_TRUE(dev_bool(d, CL_DEVICE_COMPILER_AVAILABLE));
  ASSERT_TRUE(dev_bool(d, CL_DEVICE_LINKER_AVAILABLE));
  ASSERT_TRUE(dev_bool(d, CL_DEVICE_ENDIAN_LITTLE));
  ASSERT_EQ(dev_uint(d, CL_DEVICE_ADDRESS_BITS), 64);
}

TEST(device_extensions_and_features)
{
  cl_device_id d = tl_device();
  char *ext = dev_string(d, CL_DEVICE_EXTENSIONS);
  static const char *const want[] = {
      "cl_khr_byte_addressable_store",     "cl_khr_global_int32_base_atomics",
      "cl_khr_global_int32_extended_atomics", "cl_khr_local_int32_base_atomics",
      "cl_khr_local_int32_extended_atomics",  "cl_khr_int64_base_atomics",
      "cl_khr_int64_extended_atomics",     "cl_khr_fp64",
      "cl_khr_work_group_uniform_arithmetic", "cl_khr_3d_image_writes",
      "cl_khr_image2d_from_buffer",        "cl_khr_depth_images", "cl_khr_fp16",
      "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_clustered_reduce",
      "cl_khr_subgroup_extended_types", "cl_khr_subgroup_rotate", "cl_intel_required_subgroup_size",
      "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_non_uniform_arithmetic"};
  for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
    if (!has_word(ext, want[i]))
      tl_fail(__FILE__, __LINE__, "%s missing from \"%s\"", want[i], ext);
  /* cl_khr_subgroups requires independent forward progress of sub-groups. */
  ASSERT_TRUE(!has_word(ext, "cl_khr_subgroups"));

  size_t size;
  cl_name_version *nv = dev_blob(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, &size);
  ASSERT_EQ(size % sizeof(cl_name_version), 0);
  size_t count = size / sizeof(cl_name_version), words = 0;
  for (size_t i = 0; i < count; i++)
    ASSERT_TRUE(has_word(ext, nv[i].name));
  for (char *save = NULL, *tok = strtok_r(ext, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
    words++;
  ASSERT_EQ(words, count);
  free(nv);
  free(ext);

  cl_name_version *feat = dev_blob(d, CL_DEVICE_OPENCL_C_FEATURES, &size);
  count = size / sizeof(cl_name_version);
  static const char *const want_feat[] = {
      "__opencl_c_fp64", "__opencl_c_int64", "__opencl_c_atomic_order_acq_rel",
      "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
      "__opencl_c_atomic_scope_all_devices", "__opencl_c_generic_address_space",
      "__opencl_c_program_scope_global_variables", "__opencl_c_work_group_collective_functions",
      "__opencl_c_images", "__opencl_c_read_write_images", "__opencl_c_3d_image_writes",
      "__opencl_c_subgroups"};
  ASSERT_EQ(count, sizeof(want_feat) / sizeof(want_feat[0]));
  for (size_t i = 0; i < count; i++) {
    ASSERT_STREQ(feat[i].name, want_feat[i]);
    ASSERT_EQ(feat[i].version, CL_MAKE_VERSION(3, 0, 0));
  }
  free(feat);

  cl_name_version *cv = dev_blob(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, &size);
  ASSERT_EQ(size, 4 * sizeof(cl_name_version));
  cl_version versions[] = {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0), CL_MAKE_VERSION(1, 2, 0),
                           CL_MAKE_VERSION(3, 0, 0)};
  for (size_t i = 0; i < 4; i++) {
    ASSERT_STREQ(cv[i].name, "OpenCL C");
    ASSERT_EQ(cv[i].version, versions[i]);
  }
  free(cv);

  /* No ILs, no built-in kernels. */
  char *il = dev_string(d, CL_DEVICE_IL_VERSION);
  ASSERT_STREQ(il, "");
  free(il);
  char *bik = dev_string(d, CL_DEVICE_BUILT_IN_KERNELS);
  ASSERT_STREQ(bik, "");
  free(bik);
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_ILS_WITH_VERSION, 0, NULL, &size));
  ASSERT_EQ(size, 0);
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 0, NULL, &size));
  ASSERT_EQ(size, 0);
}

TEST(device_compute_limits)
{
  cl_device_id d = tl_device();
  ASSERT_TRUE(dev_uint(d, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
  ASSERT_EQ(dev_uint(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS), 3);
  ASSERT_EQ(dev_size(d, CL_DEVICE_MAX_WORK_GROUP_SIZE), 4096);
  size_t sizes[3];
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(sizes), sizes, NULL));
  ASSERT_EQ(sizes[0], 4096);
  ASSERT_EQ(sizes[1], 4096);
  ASSERT_EQ(sizes[2], 4096);

  /* Vector widths fill one SIMD register (int: 4, 8 or 16 lanes) up to 16,
   * the widest OpenCL C vector: every width is a vector size the language
   * has (a 512-bit register holds 64 chars, but there is no char64). */
  cl_uint i = dev_uint(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT);
  ASSERT_TRUE(i == 4 || i == 8 || i == 16);
  static const struct {
    cl_device_info preferred, native;
    unsigned bytes;
  } widths[] = {
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, 1},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, 2},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, 4},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, 4},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, 8},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, 8},
  };
  for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
    cl_uint lanes = i * 4 / widths[w].bytes, want = lanes > 16 ? 16 : lanes;
    cl_uint pref = dev_uint(d, widths[w].preferred), native = dev_uint(d, widths[w].native);
    ASSERT_TRUE(pref == 1 || pref == 2 || pref == 3 || pref == 4 || pref == 8 || pref == 16);
    ASSERT_EQ(pref, want);
    ASSERT_EQ(native, want);
  }
  /* half is computed in float lanes: as wide as float */
  ASSERT_EQ(dev_uint(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), dev_uint(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT));
  ASSERT_EQ(dev_uint(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), dev_uint(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT));
  ASSERT_EQ(dev_size(d, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), i);

  ASSERT_TRUE(dev_bool(d, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT));
  ASSERT_TRUE(dev_bool(d, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT));
  ASSERT_TRUE(dev_bool(d, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT));
  ASSERT_EQ(dev_uint(d, CL_DEVICE_MAX_NUM_SUB_GROUPS), dev_size(d, CL_DEVICE_MAX_WORK_GROUP_SIZE));

  /* Full profile minimums, and the fp64 mandated minimum. */
  cl_device_fp_config fp = 0;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_SINGLE_FP_CONFIG, sizeof(fp), &fp, NULL));
  ASSERT_TRUE((fp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) == (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp), &fp, NULL));
  cl_device_fp_config fp64_min = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
  ASSERT_TRUE((fp & fp64_min) == fp64_min);
  /* The OpenCL 1.x fp64 minimum adds the directed rounding modes; the CTS
   * (test_api min_max_double_fp_config) asks for them on every device. */
  ASSERT_TRUE((fp & (CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF)) == (CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF));
  ASSERT_TRUE(dev_size(d, CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
  ASSERT_TRUE(dev_size(d, CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1024 * 1024);

  cl_device_atomic_capabilities ac = 0;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof(ac), &ac, NULL));
  ASSERT_TRUE(ac & CL_DEVICE_ATOMIC_ORDER_RELAXED);
  ASSERT_TRUE(ac & CL_DEVICE_ATOMIC_ORDER_ACQ_REL);     /* __opencl_c_atomic_order_acq_rel */
  ASSERT_TRUE(ac & CL_DEVICE_ATOMIC_ORDER_SEQ_CST);     /* __opencl_c_atomic_order_seq_cst */
  ASSERT_TRUE(ac & CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
  ASSERT_TRUE(ac & CL_DEVICE_ATOMIC_SCOPE_DEVICE);      /* __opencl_c_atomic_scope_device */
  ASSERT_TRUE(ac & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES); /* __opencl_c_atomic_scope_all_devices */
  ASSERT_TRUE(!(ac & CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM)); /* image fences only */
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof(ac), &ac, NULL));
  ASSERT_TRUE((ac & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                     CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)) ==
              (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));

  cl_command_queue_properties qp = 0;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof(qp), &qp, NULL));
  ASSERT_TRUE(qp & CL_QUEUE_PROFILING_ENABLE);
}

TEST(device_memory)
{
  cl_device_id d = tl_device();
  cl_ulong global = dev_ulong(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  cl_ulong max_alloc = dev_ulong(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  ASSERT_TRUE(global > 0);
  ASSERT_TRUE(max_alloc <= global);
  cl_ulong min_alloc = global / 4 > 128ull * 1024 * 1024 ? global / 4 : 128ull * 1024 * 1024;
  if (min_alloc > global)
    min_alloc = global;
  ASSERT_TRUE(max_alloc >= min_alloc);
  ASSERT_TRUE(dev_ulong(d, CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024);
  ASSERT_TRUE(dev_ulong(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024);
  ASSERT_TRUE(dev_uint(d, CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
  cl_uint cacheline = dev_uint(d, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
  ASSERT_TRUE(cacheline >= 16 && (cacheline & (cacheline - 1)) == 0);
  /* Base address alignment covers long16 (128 bytes). */
  ASSERT_TRUE(dev_uint(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 1024);
  cl_device_mem_cache_type ct;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof(ct), &ct, NULL));
  ASSERT_EQ(ct, CL_READ_WRITE_CACHE);
  ASSERT_TRUE(dev_size(d, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) >= 64 * 1024);
  cl_device_svm_capabilities svm = 1;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_SVM_CAPABILITIES, sizeof(svm), &svm, NULL));
  ASSERT_EQ(svm, 0);
}

/* Images: supported, with at least the OpenCL 3.0 minimums of a device
 * that supports them. */
TEST(device_image_limits)
{
  cl_device_id d = tl_device();
  ASSERT_EQ(dev_bool(d, CL_DEVICE_IMAGE_SUPPORT), CL_TRUE);
  ASSERT_TRUE(dev_uint(d, CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
  ASSERT_TRUE(dev_uint(d, CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 64);
  ASSERT_TRUE(dev_uint(d, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) >= 64);
  ASSERT_TRUE(dev_uint(d, CL_DEVICE_MAX_SAMPLERS) >= 16);
  ASSERT_TRUE(dev_size(d, CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 16384);
  ASSERT_TRUE(dev_size(d, CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 16384);
  ASSERT_TRUE(dev_size(d, CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048);
  ASSERT_TRUE(dev_size(d, CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
  ASSERT_TRUE(dev_size(d, CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
  ASSERT_TRUE(dev_size(d, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
  ASSERT_TRUE(dev_size(d, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
  /* Alignments: powers of two (in pixels). */
  cl_uint pitch = dev_uint(d, CL_DEVICE_IMAGE_PITCH_ALIGNMENT), base = dev_uint(d, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT);
  ASSERT_TRUE(pitch && !(pitch & (pitch - 1)));
  ASSERT_TRUE(base && !(base & (base - 1)));
  /* Fences of read-write images need the work-item scope. */
  cl_device_atomic_capabilities fence = 0;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof(fence), &fence, NULL));
  ASSERT_TRUE(fence & CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM);
}

TEST(device_no_pipes_device_enqueue)
{
  cl_device_id d = tl_device();
  cl_device_info zero_uints[] = {CL_DEVICE_MAX_PIPE_ARGS, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
                                 CL_DEVICE_PIPE_MAX_PACKET_SIZE, CL_DEVICE_MAX_ON_DEVICE_QUEUES,
                                 CL_DEVICE_MAX_ON_DEVICE_EVENTS, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
                                 CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE};
  for (size_t i = 0; i < sizeof(zero_uints) / sizeof(zero_uints[0]); i++)
    ASSERT_EQ(dev_uint(d, zero_uints[i]), 0);
  ASSERT_EQ(dev_bool(d, CL_DEVICE_PIPE_SUPPORT), CL_FALSE);
  cl_device_device_enqueue_capabilities de = 1;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof(de), &de, NULL));
  ASSERT_EQ(de, 0);
}

/* ---- root device: partition info, retain/release ---- */

TEST(root_device_partition_info_and_refcount)
{
  cl_device_id d = tl_device();
  cl_device_id parent = (cl_device_id)1;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_PARENT_DEVICE, sizeof(parent), &parent, NULL));
  ASSERT_TRUE(parent == NULL);
  cl_uint cu = dev_uint(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  size_t size;
  cl_device_partition_property *types = dev_blob(d, CL_DEVICE_PARTITION_PROPERTIES, &size);
  if (cu >= 2) {
    ASSERT_EQ(dev_uint(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), cu);
    ASSERT_TRUE(size >= 2 * sizeof(cl_device_partition_property));
    ASSERT_EQ(types[0], CL_DEVICE_PARTITION_EQUALLY);
    ASSERT_EQ(types[1], CL_DEVICE_PARTITION_BY_COUNTS);
  } else {
    ASSERT_EQ(size, sizeof(cl_device_partition_property));
    ASSERT_EQ(types[0], 0);
  }
  free(types);
  /* A root device reports a partition type of a single 0. */
  cl_device_partition_property *pt = dev_blob(d, CL_DEVICE_PARTITION_TYPE, &size);
  ASSERT_EQ(size, sizeof(cl_device_partition_property));
  ASSERT_EQ(pt[0], 0);
  free(pt);

  /* Retain and release of a root device are no-ops. */
  ASSERT_EQ(dev_uint(d, CL_DEVICE_REFERENCE_COUNT), 1);
  ASSERT_OK(clRetainDevice(d));
  ASSERT_OK(clReleaseDevice(d));
  ASSERT_OK(clReleaseDevice(d));
  ASSERT_EQ(dev_uint(d, CL_DEVICE_REFERENCE_COUNT), 1);
  ASSERT_TRUE(dev_bool(d, CL_DEVICE_AVAILABLE));

  /* CL_INVALID_DEVICE if device is not a valid device. */
  cl_context ctx = tl_context();
  ASSERT_CL(clRetainDevice((cl_device_id)ctx), CL_INVALID_DEVICE);
  ASSERT_CL(clReleaseDevice((cl_device_id)ctx), CL_INVALID_DEVICE);
  ASSERT_CL(clReleaseDevice((cl_device_id)tl_platform()), CL_INVALID_DEVICE);
  ASSERT_OK(clReleaseContext(ctx));
}

/* ---- sub-devices ---- */

static cl_uint root_cu(void)
{
  return dev_uint(tl_device(), CL_DEVICE_MAX_COMPUTE_UNITS);
}

TEST(sub_devices_equally)
{
  cl_device_id root = tl_device();
  cl_uint cu = root_cu();
  if (cu < 2)
    return;
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint n = 0;
  ASSERT_OK(clCreateSubDevices(root, props, 0, NULL, &n));
  ASSERT_EQ(n, cu);
  cl_device_id *subs = calloc(cu, sizeof(cl_device_id));
  ASSERT_OK(clCreateSubDevices(root, props, cu, subs, &n));
  ASSERT_EQ(n, cu);
  for (cl_uint i = 0; i < cu; i++) {
    ASSERT_TRUE(subs[i] != NULL && subs[i] != root);
    for (cl_uint j = 0; j < i; j++)
      ASSERT_TRUE(subs[i] != subs[j]);
    ASSERT_EQ(dev_uint(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS), 1);
    cl_device_id parent = NULL;
    ASSERT_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARENT_DEVICE, sizeof(parent), &parent, NULL));
    ASSERT_TRUE(parent == root);
    size_t size;
    cl_device_partition_property *pt = dev_blob(subs[i], CL_DEVICE_PARTITION_TYPE, &size);
    ASSERT_EQ(size, sizeof(props));
    ASSERT_EQ(pt[0], CL_DEVICE_PARTITION_EQUALLY);
    ASSERT_EQ(pt[1], 1);
    ASSERT_EQ(pt[2], 0);
    free(pt);
    /* Same kind of device. */
    cl_device_type type;
    ASSERT_OK(clGetDeviceInfo(subs[i], CL_DEVICE_TYPE, sizeof(type), &type, NULL));
    ASSERT_EQ(type, CL_DEVICE_TYPE_CPU);
    ASSERT_EQ(dev_size(subs[i], CL_DEVICE_MAX_WORK_GROUP_SIZE), 4096);
    /* One compute unit: no further partition. */
    ASSERT_EQ(dev_uint(subs[i], CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0);
    cl_device_partition_property *types = dev_blob(subs[i], CL_DEVICE_PARTITION_PROPERTIES, &size);
    ASSERT_EQ(size, sizeof(cl_device_partition_property));
    ASSERT_EQ(types[0], 0);
    free(types);
    cl_device_affinity_domain dom = 1;
    ASSERT_OK(clGetDeviceInfo(subs[i], CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof(dom), &dom, NULL));
    ASSERT_EQ(dom, 0);
    /* CL_DEVICE_PARTITION_FAILED if the partition name is supported by the
     * implementation but in_device could not be further partitioned. */
    cl_device_id subsub;
    ASSERT_CL(clCreateSubDevices(subs[i], props, 1, &subsub, NULL), CL_DEVICE_PARTITION_FAILED);

    /* Refcounting: a new sub-device has 1. */
    ASSERT_EQ(dev_uint(subs[i], CL_DEVICE_REFERENCE_COUNT), 1);
    ASSERT_OK(clRetainDevice(subs[i]));
    ASSERT_EQ(dev_uint(subs[i], CL_DEVICE_REFERENCE_COUNT), 2);
    ASSERT_OK(clReleaseDevice(subs[i]));
    ASSERT_EQ(dev_uint(subs[i], CL_DEVICE_REFERENCE_COUNT), 1);
  }
  for (cl_uint i = 0; i < cu; i++)
    ASSERT_OK(clReleaseDevice(subs[i]));
  free(subs);
  /* The root is untouched. */
  ASSERT_EQ(dev_uint(root, CL_DEVICE_REFERENCE_COUNT), 1);
}

TEST(sub_devices_equally_uneven)
{
  cl_device_id root = tl_device();
  cl_uint cu = root_cu();
  if (cu < 2)
    return;
  /* n = cu: one sub-device with every compute unit would be the device
   * again, so CL_DEVICE_PARTITION_FAILED ("in_device could not be further
   * partitioned", as the CTS's negative_create_sub_devices wants it); the
   * same for BY_COUNTS with one count of every compute unit.  n = cu - 1
   * (cu >= 3): one sub-device, the rest unused. */
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, (cl_device_partition_property)cu, 0};
  cl_uint n = 0;
  cl_device_id sub = NULL;
  ASSERT_CL(clCreateSubDevices(root, props, 1, &sub, &n), CL_DEVICE_PARTITION_FAILED);
  ASSERT_CL(clCreateSubDevices(root, props, 0, NULL, &n), CL_DEVICE_PARTITION_FAILED);
  ASSERT_TRUE(sub == NULL);
  cl_device_partition_property all[] = {CL_DEVICE_PARTITION_BY_COUNTS, (cl_device_partition_property)cu,
                                        CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  ASSERT_CL(clCreateSubDevices(root, all, 1, &sub, &n), CL_DEVICE_PARTITION_FAILED);
  ASSERT_TRUE(sub == NULL);
  if (cu >= 3) {
    props[1] = cu - 1;
    ASSERT_OK(clCreateSubDevices(root, props, 1, &sub, &n));
    ASSERT_EQ(n, 1);
    ASSERT_EQ(dev_uint(sub, CL_DEVICE_MAX_COMPUTE_UNITS), cu - 1);
    ASSERT_OK(clReleaseDevice(sub));
  }
}

TEST(sub_devices_by_counts)
{
  cl_device_id root = tl_device();
  cl_uint cu = root_cu();
  if (cu < 2)
    return;
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, (cl_device_partition_property)cu - 1,
                                          CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id subs[2];
  cl_uint n = 0;
  ASSERT_OK(clCreateSubDevices(root, props, 2, subs, &n));
  ASSERT_EQ(n, 2);
  ASSERT_EQ(dev_uint(subs[0], CL_DEVICE_MAX_COMPUTE_UNITS), 1);
  ASSERT_EQ(dev_uint(subs[1], CL_DEVICE_MAX_COMPUTE_UNITS), cu - 1);
  size_t size;
  cl_device_partition_property *pt = dev_blob(subs[1], CL_DEVICE_PARTITION_TYPE, &size);
  ASSERT_EQ(size, sizeof(props));
  for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++)
    ASSERT_EQ(pt[i], props[i]);
  free(pt);
  ASSERT_OK(clReleaseDevice(subs[0]));
  ASSERT_OK(clReleaseDevice(subs[1]));

  /* Fewer compute units than the device has: the rest stays unused. */
  cl_device_partition_property one[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  ASSERT_OK(clCreateSubDevices(root, one, 1, subs, &n));
  ASSERT_EQ(n, 1);
  ASSERT_EQ(dev_uint(subs[0], CL_DEVICE_MAX_COMPUTE_UNITS), 1);
  ASSERT_OK(clReleaseDevice(subs[0]));
}

TEST(sub_devices_by_affinity_domain)
{
  cl_device_id root = tl_device();
  cl_device_affinity_domain doms = 0;
  ASSERT_OK(clGetDeviceInfo(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof(doms), &doms, NULL));
  cl_device_affinity_domain levels[] = {CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
                                        CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE,
                                        CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE};
  cl_uint cu = root_cu();
  for (size_t l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                            (cl_device_partition_property)levels[l], 0};
    cl_uint n = 0;
    cl_int err = clCreateSubDevices(root, props, 0, NULL, &n);
    if (!(doms & levels[l])) {
      /* A level the device reports no split along: its cores share one domain. */
      ASSERT_CL(err, CL_DEVICE_PARTITION_FAILED);
      continue;
    }
    ASSERT_OK(err);
    ASSERT_TRUE(n >= 2 && n <= cu);
    cl_device_id *subs = calloc(n, sizeof(cl_device_id));
    ASSERT_OK(clCreateSubDevices(root, props, n, subs, NULL));
    cl_uint total = 0;
    for (cl_uint i = 0; i < n; i++) {
      total += dev_uint(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS);
      size_t size;
      cl_device_partition_property *pt = dev_blob(subs[i], CL_DEVICE_PARTITION_TYPE, &size);
      ASSERT_EQ(size, 3 * sizeof(cl_device_partition_property));
      ASSERT_EQ(pt[0], CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
      if (levels[l] == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE)
        ASSERT_TRUE(pt[1] != CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE && (pt[1] & doms));  /* the level used */
      else
        ASSERT_EQ(pt[1], levels[l]);
      free(pt);
    }
    ASSERT_EQ(total, cu);  /* every core belongs to one domain */
    for (cl_uint i = 0; i < n; i++)
      ASSERT_OK(clReleaseDevice(subs[i]));
    free(subs);
  }
}

TEST(sub_device_errors)
{
  cl_device_id root = tl_device();
  cl_uint cu = root_cu();
  cl_device_id subs[64];
  cl_uint n;
  /* CL_INVALID_DEVICE if in_device is not valid. */
  cl_device_partition_property eq1[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_context ctx = tl_context();
  ASSERT_CL(clCreateSubDevices((cl_device_id)ctx, eq1, 64, subs, &n), CL_INVALID_DEVICE);
  ASSERT_OK(clReleaseContext(ctx));
  /* CL_INVALID_VALUE if values specified in properties are not valid. */
  ASSERT_CL(clCreateSubDevices(root, NULL, 64, subs, &n), CL_INVALID_VALUE);
  cl_device_partition_property bogus[] = {0x4242, 1, 0};
  ASSERT_CL(clCreateSubDevices(root, bogus, 64, subs, &n), CL_INVALID_VALUE);
  cl_device_partition_property empty[] = {0};
  ASSERT_CL(clCreateSubDevices(root, empty, 64, subs, &n), CL_INVALID_VALUE);
  if (cu < 2) {
    ASSERT_CL(clCreateSubDevices(root, eq1, 64, subs, &n), CL_DEVICE_PARTITION_FAILED);
    return;
  }
  cl_device_partition_property eq0[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
  ASSERT_CL(clCreateSubDevices(root, eq0, 64, subs, &n), CL_INVALID_VALUE);
  cl_device_partition_property eq_neg[] = {CL_DEVICE_PARTITION_EQUALLY, -2, 0};
  ASSERT_CL(clCreateSubDevices(root, eq_neg, 64, subs, &n), CL_INVALID_VALUE);
  /* CL_INVALID_DEVICE_PARTITION_COUNT: the total number of compute units
   * requested exceeds the device's (the CTS asks this of EQUALLY too). */
  cl_device_partition_property eq_big[] = {CL_DEVICE_PARTITION_EQUALLY, (cl_device_partition_property)cu + 1, 0};
  ASSERT_CL(clCreateSubDevices(root, eq_big, 64, subs, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
  /* Only one of the partitioning schemes can be specified. */
  cl_device_partition_property two[] = {CL_DEVICE_PARTITION_EQUALLY, 1, CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                        CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  ASSERT_CL(clCreateSubDevices(root, two, 64, subs, &n), CL_INVALID_VALUE);
  cl_device_partition_property l4[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, 0};
  ASSERT_CL(clCreateSubDevices(root, l4, 64, subs, &n), CL_INVALID_VALUE);
  cl_device_partition_property bad_dom[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                            CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, 0};
  ASSERT_CL(clCreateSubDevices(root, bad_dom, 64, subs, &n), CL_INVALID_VALUE);
  /* CL_INVALID_VALUE if out_devices is not NULL and num_devices is less than
   * the number of sub-devices created by the partition scheme. */
  ASSERT_CL(clCreateSubDevices(root, eq1, cu - 1, subs, &n), CL_INVALID_VALUE);
  ASSERT_CL(clCreateSubDevices(root, eq1, 0, subs, &n), CL_INVALID_VALUE);

  /* CL_INVALID_DEVICE_PARTITION_COUNT: the total number of compute units
   * requested exceeds the device's ... */
  cl_device_partition_property too_many_cu[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, (cl_device_partition_property)cu,
                                                CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  ASSERT_CL(clCreateSubDevices(root, too_many_cu, 64, subs, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
  /* ... the number of compute units requested for a sub-device is less than zero ... */
  cl_device_partition_property negative[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, -1,
                                             CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  ASSERT_CL(clCreateSubDevices(root, negative, 64, subs, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
  /* ... the number of sub-devices requested exceeds CL_DEVICE_PARTITION_MAX_SUB_DEVICES. */
  cl_device_partition_property *many = calloc(cu + 4, sizeof(cl_device_partition_property));
  many[0] = CL_DEVICE_PARTITION_BY_COUNTS;
  for (cl_uint i = 1; i <= cu + 1; i++)
    many[i] = 1;
  many[cu + 2] = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
  many[cu + 3] = 0;
  ASSERT_CL(clCreateSubDevices(root, many, 64, subs, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
  free(many);
  /* An empty list of counts asks for no sub-device. */
  cl_device_partition_property no_counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  ASSERT_CL(clCreateSubDevices(root, no_counts, 64, subs, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
  /* A second scheme after a count list. */
  cl_device_partition_property counts_then[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
                                                CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  ASSERT_CL(clCreateSubDevices(root, counts_then, 64, subs, &n), CL_INVALID_VALUE);
}

/* A sub-device stays alive while a context holds it; a sub-device's parent
 * stays alive while the sub-device does. */
TEST(sub_device_lifetime_in_context)
{
  cl_device_id root = tl_device();
  cl_uint cu = root_cu();
  if (cu < 2)
    return;
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id *subs = calloc(cu, sizeof(cl_device_id));
  ASSERT_OK(clCreateSubDevices(root, props, cu, subs, NULL));
  cl_int err;
  cl_context ctx = clCreateContext(NULL, cu, subs, NULL, NULL, &err);
  ASSERT_OK(err);
  for (cl_uint i = 0; i < cu; i++) {
    ASSERT_EQ(dev_uint(subs[i], CL_DEVICE_REFERENCE_COUNT), 2);  /* ours and the context's */
    ASSERT_OK(clReleaseDevice(subs[i]));
  }
  cl_device_id got[64];
  size_t size = 0;
  ASSERT_OK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(got), got, &size));
  ASSERT_EQ(size, cu * sizeof(cl_device_id));
  for (cl_uint i = 0; i < cu; i++) {
    ASSERT_TRUE(got[i] == subs[i]);
    ASSERT_EQ(dev_uint(got[i], CL_DEVICE_REFERENCE_COUNT), 1);  /* the context's */
    ASSERT_EQ(dev_uint(got[i], CL_DEVICE_MAX_COMPUTE_UNITS), 1);
  }
  ASSERT_OK(clReleaseContext(ctx));
  free(subs);

  if (cu >= 4) {
    /* Sub-device of a sub-device. */
    cl_device_partition_property half[] = {CL_DEVICE_PARTITION_EQUALLY, (cl_device_partition_property)cu / 2, 0};
    cl_device_id mid[2], leaf[64];
    ASSERT_OK(clCreateSubDevices(root, half, 2, mid, NULL));
    cl_uint n = 0;
    ASSERT_OK(clCreateSubDevices(mid[0], props, 64, leaf, &n));
    ASSERT_EQ(n, cu / 2);
    ASSERT_OK(clReleaseDevice(mid[0]));  /* the leaves keep it */
    ASSERT_OK(clReleaseDevice(mid[1]));
    cl_device_id parent = NULL;
    ASSERT_OK(clGetDeviceInfo(leaf[0], CL_DEVICE_PARENT_DEVICE, sizeof(parent), &parent, NULL));
    ASSERT_TRUE(parent == mid[0]);
    ASSERT_EQ(dev_uint(parent, CL_DEVICE_MAX_COMPUTE_UNITS), cu / 2);
    for (cl_uint i = 0; i < n; i++)
      ASSERT_OK(clReleaseDevice(leaf[i]));
  }
}

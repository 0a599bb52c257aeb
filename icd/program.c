/* Program entry points: create (source, binary; built-in kernels and IL are
 * not supported), retain/release, build, compile, link, the queries,
 * release callbacks and specialization constants (not supported: no IL, no
 * program-scope destructors).  The compiler unload hints are in platform.c. */
#include <stdlib.h>
#include <string.h>

#include "icd/icd.h"

/* A device list as clBuildProgram/clCompileProgram/clLinkProgram take it:
 * NULL with 0, or non-NULL with n > 0, every entry a device of `in`
 * (in_program's devices, or the context's). */
static cl_int check_device_list(const char *func, cl_uint n, const cl_device_id *list, cl_program in_program,
                                cl_context in_context)
{
  /* CL_INVALID_VALUE if device_list is NULL and num_devices is greater than
   * zero, or if device_list is not NULL and num_devices is zero. */
  if (!list && n > 0) {
    rt_err("%s: device_list is NULL but num_devices is %u", func, n);
    return CL_INVALID_VALUE;
  }
  if (list && n == 0) {
    rt_err("%s: device_list is not NULL but num_devices is 0", func);
    return CL_INVALID_VALUE;
  }
  /* CL_INVALID_DEVICE if any device in device_list is not in the list of
   * devices associated with program (context). */
  for (cl_uint i = 0; i < n; i++) {
    bool ok = rt_device_is(list[i]) && (in_program ? rt_program_device_index(in_program, list[i]) >= 0
                                                   : rt_context_has_device(in_context, list[i]));
    if (!ok) {
      rt_err("%s: device_list[%u] (%p) is not a device of the %s", func, i, (void *)list[i],
             in_program ? "program" : "context");
      return CL_INVALID_DEVICE;
    }
  }
  return CL_SUCCESS;
}

/* CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL. */
static cl_int check_notify(const char *func, const void *pfn_notify, const void *user_data)
{
  if (!pfn_notify && user_data) {
    rt_err("%s: pfn_notify is NULL but user_data is not", func);
    return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int *errcode_ret)
{
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clCreateProgramWithSource: context %p is not a valid context", (void *)context);
    icd_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  /* CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL. */
  if (count == 0 || !strings) {
    rt_err("clCreateProgramWithSource: %s", count == 0 ? "count is 0" : "strings is NULL");
    icd_set_err(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) {
      rt_err("clCreateProgramWithSource: strings[%u] is NULL", i);
      icd_set_err(errcode_ret, CL_INVALID_VALUE);
      return NULL;
    }
  }
  cl_int err;
  cl_program p = rt_program_create_with_source(context, count, strings, lengths, &err);
  icd_set_err(errcode_ret, err);
  return p;
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id *device_list, const size_t *lengths,
                                                 const unsigned char **binaries, cl_int *binary_status,
                                                 cl_int *errcode_ret)
{
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clCreateProgramWithBinary: context %p is not a valid context", (void *)context);
    icd_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  /* CL_INVALID_VALUE if device_list is NULL or num_devices is zero. */
  if (!device_list || num_devices == 0) {
    rt_err("clCreateProgramWithBinary: %s", !device_list ? "device_list is NULL" : "num_devices is 0");
    icd_set_err(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  /* CL_INVALID_DEVICE if any device in device_list is not in the list of
   * devices associated with context. */
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!rt_device_is(device_list[i]) || !rt_context_has_device(context, device_list[i])) {
      rt_err("clCreateProgramWithBinary: device_list[%u] (%p) is not a device of the context", i,
             (void *)device_list[i]);
      icd_set_err(errcode_ret, CL_INVALID_DEVICE);
      return NULL;
    }
  }
  /* CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in
   * lengths[i] is zero or binaries[i] is NULL (binary_status[i] then says
   * CL_INVALID_VALUE for that device). */
  if (!lengths || !binaries) {
    rt_err("clCreateProgramWithBinary: %s is NULL", !lengths ? "lengths" : "binaries");
    icd_set_err(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  cl_int bad = CL_SUCCESS;
  for (cl_uint i = 0; i < num_devices; i++) {
    bool invalid = lengths[i] == 0 || !binaries[i];
    if (invalid) {
      rt_err("clCreateProgramWithBinary: %s[%u] is %s", lengths[i] == 0 ? "lengths" : "binaries", i,
             lengths[i] == 0 ? "0" : "NULL");
      bad = CL_INVALID_VALUE;
    }
    if (binary_status)
      binary_status[i] = invalid ? CL_INVALID_VALUE : CL_SUCCESS;
  }
  if (bad != CL_SUCCESS) {
    icd_set_err(errcode_ret, bad);
    return NULL;
  }
  cl_int local_status[64];
  cl_int *status = binary_status ? binary_status : num_devices <= 64 ? local_status : NULL;
  cl_int *heap_status = NULL;
  if (!status && !(status = heap_status = calloc(num_devices, sizeof(cl_int)))) {
    icd_set_err(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  cl_int err;
  /* CL_INVALID_BINARY if an invalid program binary was encountered for any
   * device (binary_status has each device's status). */
  cl_program p = rt_program_create_with_binary(context, num_devices, device_list, lengths, binaries, status, &err);
  free(heap_status);
  icd_set_err(errcode_ret, err);
  return p;
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id *device_list,
                                                         const char *kernel_names, cl_int *errcode_ret)
{
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clCreateProgramWithBuiltInKernels: context %p is not a valid context", (void *)context);
    icd_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  /* CL_INVALID_VALUE if device_list is NULL or num_devices is zero. */
  if (!device_list || num_devices == 0) {
    rt_err("clCreateProgramWithBuiltInKernels: %s", !device_list ? "device_list is NULL" : "num_devices is 0");
    icd_set_err(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  /* CL_INVALID_DEVICE if any device in device_list is not in the list of
   * devices associated with context. */
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!rt_device_is(device_list[i]) || !rt_context_has_device(context, device_list[i])) {
      rt_err("clCreateProgramWithBuiltInKernels: device_list[%u] is not a device of the context", i);
      icd_set_err(errcode_ret, CL_INVALID_DEVICE);
      return NULL;
    }
  }
  /* CL_INVALID_VALUE if kernel_names is NULL or kernel_names contains a
   * kernel name that is not supported by any of the devices: LaneCL's
   * devices have no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is ""). */
  rt_err("clCreateProgramWithBuiltInKernels: %s", kernel_names ? "the device has no built-in kernels"
                                                               : "kernel_names is NULL");
  icd_set_err(errcode_ret, CL_INVALID_VALUE);
  return NULL;
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                             cl_int *errcode_ret)
{
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clCreateProgramWithIL: context %p is not a valid context", (void *)context);
    icd_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  /* CL_INVALID_OPERATION if no devices in context support intermediate
   * language programs (CL_DEVICE_IL_VERSION is ""). */
  rt_err("clCreateProgramWithIL: the device supports no intermediate language");
  icd_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

cl_int CL_API_CALL clRetainProgram(cl_program program)
{
  /* CL_INVALID_PROGRAM if program is not a valid program object. */
  if (!rt_object_is(program, RT_PROGRAM)) {
    rt_err("clRetainProgram: program %p is not a valid program", (void *)program);
    return CL_INVALID_PROGRAM;
  }
  rt_program_retain(program);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program)
{
  /* CL_INVALID_PROGRAM if program is not a valid program object. */
  if (!rt_object_is(program, RT_PROGRAM)) {
    rt_err("clReleaseProgram: program %p is not a valid program", (void *)program);
    return CL_INVALID_PROGRAM;
  }
  rt_program_release(program);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                  const char *options,
                                  void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
                                  void *user_data)
{
  /* CL_INVALID_PROGRAM if program is not a valid program object. */
  if (!rt_object_is(program, RT_PROGRAM)) {
    rt_err("clBuildProgram: program %p is not a valid program", (void *)program);
    return CL_INVALID_PROGRAM;
  }
  cl_int err = check_device_list("clBuildProgram", num_devices, device_list, program, NULL);
  if (err == CL_SUCCESS)
    err = check_notify("clBuildProgram", (const void *)pfn_notify, user_data);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_OPERATION if program was not created with
   * clCreateProgramWithSource, clCreateProgramWithIL or clCreateProgramWithBinary. */
  if (rt_program_origin_of(program) == RT_PROG_LINKED) {
    rt_err("clBuildProgram: program was created by clLinkProgram");
    return CL_INVALID_OPERATION;
  }
  /* The rest (kernels attached, a build in progress, options, compiler
   * availability, the build itself) is the runtime's. */
  return rt_program_build(program, num_devices, device_list, options, pfn_notify, user_data);
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                    const char *options, cl_uint num_input_headers,
                                    const cl_program *input_headers, const char **header_include_names,
                                    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
                                    void *user_data)
{
  /* CL_INVALID_PROGRAM if program is not a valid program object. */
  if (!rt_object_is(program, RT_PROGRAM)) {
    rt_err("clCompileProgram: program %p is not a valid program", (void *)program);
    return CL_INVALID_PROGRAM;
  }
  cl_int err = check_device_list("clCompileProgram", num_devices, device_list, program, NULL);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if num_input_headers is zero and header_include_names or
   * input_headers are not NULL or if num_input_headers is not zero and
   * header_include_names or input_headers are NULL. */
  if (num_input_headers == 0 && (header_include_names || input_headers)) {
    rt_err("clCompileProgram: num_input_headers is 0 but input_headers or header_include_names is not NULL");
    return CL_INVALID_VALUE;
  }
  if (num_input_headers > 0 && (!header_include_names || !input_headers)) {
    rt_err("clCompileProgram: num_input_headers is %u but input_headers or header_include_names is NULL",
           num_input_headers);
    return CL_INVALID_VALUE;
  }
  for (cl_uint i = 0; i < num_input_headers; i++) {
    if (!rt_object_is(input_headers[i], RT_PROGRAM)) {
      rt_err("clCompileProgram: input_headers[%u] is not a valid program", i);
      return CL_INVALID_PROGRAM;
    }
    /* CL_INVALID_CONTEXT if the context associated with program and programs
     * in input_headers are not the same. */
    if (rt_program_context(input_headers[i]) != rt_program_context(program)) {
      rt_err("clCompileProgram: input_headers[%u] belongs to another context", i);
      return CL_INVALID_CONTEXT;
    }
    if (!header_include_names[i]) {
      rt_err("clCompileProgram: header_include_names[%u] is NULL", i);
      return CL_INVALID_VALUE;
    }
  }
  err = check_notify("clCompileProgram", (const void *)pfn_notify, user_data);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_OPERATION if program has no source or IL available. */
  if (rt_program_origin_of(program) != RT_PROG_SOURCE) {
    rt_err("clCompileProgram: program has no source (it was created from a binary or by a link)");
    return CL_INVALID_OPERATION;
  }
  return rt_program_compile(program, num_devices, device_list, options, num_input_headers, input_headers,
                            header_include_names, pfn_notify, user_data);
}

/* The linker options of the spec (5.8.7): the math flags, -create-library
 * and -enable-link-options (only together with -create-library). */
static cl_int check_link_options(const char *options)
{
  static const char *known[] = {
    "-create-library", "-enable-link-options", "-cl-denorms-are-zero", "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations", "-cl-finite-math-only", "-cl-fast-relaxed-math",
    "-cl-no-subgroup-ifp",
  };
  bool library = false, link_options = false;
  for (const char *s = options ? options : ""; *s;) {
    while (*s == ' ' || *s == '\t' || *s == '\n')
      s++;
    size_t n = strcspn(s, " \t\n");
    if (!n)
      break;
    size_t i;
    for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
      if (strlen(known[i]) == n && !strncmp(s, known[i], n))
        break;
    if (i == sizeof(known) / sizeof(known[0])) {
      rt_err("clLinkProgram: unknown linker option \"%.*s\"", (int)n, s);
      return CL_INVALID_LINKER_OPTIONS;
    }
    library |= i == 0;
    link_options |= i == 1;
    s += n;
  }
  if (link_options && !library) {
    rt_err("clLinkProgram: -enable-link-options needs -create-library");
    return CL_INVALID_LINKER_OPTIONS;
  }
  return CL_SUCCESS;
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                                     const char *options, cl_uint num_input_programs,
                                     const cl_program *input_programs,
                                     void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
                                     void *user_data, cl_int *errcode_ret)
{
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clLinkProgram: context %p is not a valid context", (void *)context);
    icd_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  cl_int err = check_device_list("clLinkProgram", num_devices, device_list, NULL, context);
  if (err != CL_SUCCESS) {
    icd_set_err(errcode_ret, err);
    return NULL;
  }
  /* CL_INVALID_VALUE if num_input_programs is zero and input_programs is NULL
   * or if num_input_programs is zero and input_programs is not NULL or if
   * num_input_programs is not zero and input_programs is NULL. */
  if (num_input_programs == 0 || !input_programs) {
    rt_err("clLinkProgram: %s", num_input_programs == 0 ? "num_input_programs is 0" : "input_programs is NULL");
    icd_set_err(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < num_input_programs; i++) {
    /* CL_INVALID_PROGRAM if programs specified in input_programs are not valid program objects. */
    if (!rt_object_is(input_programs[i], RT_PROGRAM)) {
      rt_err("clLinkProgram: input_programs[%u] (%p) is not a valid program", i, (void *)input_programs[i]);
      icd_set_err(errcode_ret, CL_INVALID_PROGRAM);
      return NULL;
    }
    /* CL_INVALID_CONTEXT if the context associated with programs in
     * input_programs is not the same as context. */
    if (rt_program_context(input_programs[i]) != context) {
      rt_err("clLinkProgram: input_programs[%u] belongs to another context", i);
      icd_set_err(errcode_ret, CL_INVALID_CONTEXT);
      return NULL;
    }
  }
  err = check_notify("clLinkProgram", (const void *)pfn_notify, user_data);
  /* CL_INVALID_LINKER_OPTIONS if the linker options specified by options are invalid. */
  if (err == CL_SUCCESS)
    err = check_link_options(options);
  if (err != CL_SUCCESS) {
    icd_set_err(errcode_ret, err);
    return NULL;
  }
  /* The runtime checks the per-device rule of the inputs (CL_INVALID_OPERATION)
   * and links; on a link failure it still returns the program. */
  cl_program p = rt_program_link(context, num_devices, device_list, options, num_input_programs, input_programs,
                                 pfn_notify, user_data, &err);
  icd_set_err(errcode_ret, err);
  return p;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret)
{
  /* CL_INVALID_PROGRAM if program is a not a valid program object. */
  if (!rt_object_is(program, RT_PROGRAM)) {
    rt_err("clGetProgramInfo: program %p is not a valid program", (void *)program);
    return CL_INVALID_PROGRAM;
  }
  cl_program p = program;
  void *v = param_value;
  size_t n = param_value_size;
  size_t *ret = param_value_size_ret;
  cl_uint ndevices;
  const cl_device_id *devices = rt_program_devices(p, &ndevices);
  switch (param_name) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, rt_program_refcount(p));
  case CL_PROGRAM_CONTEXT:
    return ICD_INFO_VAL(v, n, ret, cl_context, rt_program_context(p));
  case CL_PROGRAM_NUM_DEVICES:
    return ICD_INFO_VAL(v, n, ret, cl_uint, ndevices);
  case CL_PROGRAM_DEVICES:
    return icd_info(v, n, ret, devices, ndevices * sizeof(cl_device_id));
  case CL_PROGRAM_SOURCE: {
    const char *source = rt_program_source(p);
    return icd_info_str(v, n, ret, source ? source : "");
  }
  case CL_PROGRAM_IL:
    /* No IL: param_value is left unchanged, the size is 0. */
    return icd_info(NULL, 0, ret, NULL, 0);
  case CL_PROGRAM_BINARY_SIZES: {
    size_t sizes[ndevices ? ndevices : 1];
    cl_int err = rt_program_binary_sizes(p, sizes);
    if (err != CL_SUCCESS)
      return err;
    return icd_info(v, n, ret, sizes, ndevices * sizeof(size_t));
  }
  case CL_PROGRAM_BINARIES: {
    /* param_value is an array of ndevices pointers, each to where the
     * application wants that device's binary: the protocol checks the array,
     * then the runtime copies the binaries (NULL entries are skipped). */
    cl_int err = icd_info(v, n, ret, NULL, ndevices * sizeof(unsigned char *));
    if (err == CL_SUCCESS && v)
      err = rt_program_copy_binaries(p, v);
    return err;
  }
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES:
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: {
    /* CL_INVALID_PROGRAM_EXECUTABLE if param_name is ... and a successful
     * program executable has not been built for at least one device. */
    size_t nkernels;
    rt_str names = {0};
    if (!rt_program_kernels(p, &nkernels, param_name == CL_PROGRAM_KERNEL_NAMES ? &names : NULL)) {
      rt_err("clGetProgramInfo: no successfully built executable for any device of the program");
      return CL_INVALID_PROGRAM_EXECUTABLE;
    }
    if (param_name == CL_PROGRAM_NUM_KERNELS)
      return ICD_INFO_VAL(v, n, ret, size_t, nkernels);
    if (param_name != CL_PROGRAM_KERNEL_NAMES)
      return ICD_INFO_VAL(v, n, ret, cl_bool, CL_FALSE);
    if (!names.s)
      return CL_OUT_OF_HOST_MEMORY;
    cl_int err = icd_info_str(v, n, ret, names.s);
    rt_str_free(&names);
    return err;
  }
  default:
    /* CL_INVALID_VALUE if param_name is not valid. */
    rt_err("clGetProgramInfo: unknown param_name 0x%x", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
}

/* clGetProgramBuildInfo's answer, given the build's state (under the
 * program's lock: the strings live only that long). */
struct build_query {
  cl_program_build_info param;
  size_t size;
  void *value;
  size_t *size_ret;
};

static cl_int build_answer(const rt_build_view *b, void *ctx)
{
  const struct build_query *q = ctx;
  switch (q->param) {
  case CL_PROGRAM_BUILD_STATUS:
    return ICD_INFO_VAL(q->value, q->size, q->size_ret, cl_build_status, b->status);
  case CL_PROGRAM_BUILD_OPTIONS:
    return icd_info_str(q->value, q->size, q->size_ret, b->options);
  case CL_PROGRAM_BUILD_LOG:
    return icd_info_str(q->value, q->size, q->size_ret, b->log);
  case CL_PROGRAM_BINARY_TYPE:
    return ICD_INFO_VAL(q->value, q->size, q->size_ret, cl_program_binary_type, b->binary_type);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    return ICD_INFO_VAL(q->value, q->size, q->size_ret, size_t, b->global_var_bytes);
  default:
    /* CL_INVALID_VALUE if param_name is not valid. */
    rt_err("clGetProgramBuildInfo: unknown param_name 0x%x", (unsigned)q->param);
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                         cl_program_build_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret)
{
  /* CL_INVALID_PROGRAM if program is a not a valid program object. */
  if (!rt_object_is(program, RT_PROGRAM)) {
    rt_err("clGetProgramBuildInfo: program %p is not a valid program", (void *)program);
    return CL_INVALID_PROGRAM;
  }
  /* CL_INVALID_DEVICE if device is not in the list of devices associated with program. */
  if (!rt_device_is(device) || rt_program_device_index(program, device) < 0) {
    rt_err("clGetProgramBuildInfo: device %p is not a device of the program", (void *)device);
    return CL_INVALID_DEVICE;
  }
  struct build_query q = {param_name, param_value_size, param_value, param_value_size_ret};
  return rt_program_build_view(program, device, build_answer, &q);
}

cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                               void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
                                               void *user_data)
{
  /* CL_INVALID_PROGRAM if program is not a valid program object. */
  if (!rt_object_is(program, RT_PROGRAM)) {
    rt_err("clSetProgramReleaseCallback: program %p is not a valid program", (void *)program);
    return CL_INVALID_PROGRAM;
  }
  /* CL_INVALID_OPERATION if no devices in the context associated with
   * program support destructors for program scope global variables. */
  rt_err("clSetProgramReleaseCallback: the device has no program scope global destructors");
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                                      const void *spec_value)
{
  /* CL_INVALID_PROGRAM if program is not a valid program object. */
  if (!rt_object_is(program, RT_PROGRAM)) {
    rt_err("clSetProgramSpecializationConstant: program %p is not a valid program", (void *)program);
    return CL_INVALID_PROGRAM;
  }
  /* CL_INVALID_OPERATION if no devices associated with program support
   * intermediate language programs. */
  rt_err("clSetProgramSpecializationConstant: the device supports no intermediate language");
  return CL_INVALID_OPERATION;
}

/* Kernel entry points: create, clone, retain/release, arguments (SVM and
 * exec info: no SVM), and the kernel, argument, work-group and sub-group
 * queries. */
#include "icd/icd.h"

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret)
{
  /* CL_INVALID_PROGRAM if program is not a valid program object. */
  if (!rt_object_is(program, RT_PROGRAM)) {
    rt_err("clCreateKernel: program %p is not a valid program", (void *)program);
    icd_set_err(errcode_ret, CL_INVALID_PROGRAM);
    return NULL;
  }
  /* CL_INVALID_VALUE if kernel_name is NULL (after CL_INVALID_PROGRAM_EXECUTABLE). */
  if (!kernel_name) {
    bool built = rt_program_has_executable(program);
    rt_err("clCreateKernel: %s", built ? "kernel_name is NULL" : "the program has no successfully built executable");
    icd_set_err(errcode_ret, built ? CL_INVALID_VALUE : CL_INVALID_PROGRAM_EXECUTABLE);
    return NULL;
  }
  /* CL_INVALID_PROGRAM_EXECUTABLE, CL_INVALID_KERNEL_NAME and
   * CL_INVALID_KERNEL_DEFINITION come from the runtime. */
  cl_int err;
  cl_kernel k = rt_kernel_create(program, kernel_name, &err);
  icd_set_err(errcode_ret, err);
  return k;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                                            cl_uint *num_kernels_ret)
{
  /* CL_INVALID_PROGRAM if program is not a valid program object. */
  if (!rt_object_is(program, RT_PROGRAM)) {
    rt_err("clCreateKernelsInProgram: program %p is not a valid program", (void *)program);
    return CL_INVALID_PROGRAM;
  }
  /* CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
   * executable for any device in program. */
  if (!rt_program_has_executable(program)) {
    rt_err("clCreateKernelsInProgram: the program has no successfully built executable");
    return CL_INVALID_PROGRAM_EXECUTABLE;
  }
  /* CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the
   * number of kernels in program. */
  size_t nkernels = rt_program_num_kernels(program);
  if (kernels && num_kernels < nkernels) {
    rt_err("clCreateKernelsInProgram: num_kernels %u is less than the %zu kernels of the program", num_kernels,
           nkernels);
    return CL_INVALID_VALUE;
  }
  return rt_kernels_create_all(program, num_kernels, kernels, num_kernels_ret);
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret)
{
  /* CL_INVALID_KERNEL if kernel is not a valid kernel object. */
  if (!rt_object_is(source_kernel, RT_KERNEL)) {
    rt_err("clCloneKernel: source_kernel %p is not a valid kernel", (void *)source_kernel);
    icd_set_err(errcode_ret, CL_INVALID_KERNEL);
    return NULL;
  }
  cl_int err;
  cl_kernel k = rt_kernel_clone(source_kernel, &err);
  icd_set_err(errcode_ret, err);
  return k;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel)
{
  /* CL_INVALID_KERNEL if kernel is not a valid kernel object. */
  if (!rt_object_is(kernel, RT_KERNEL)) {
    rt_err("clRetainKernel: kernel %p is not a valid kernel", (void *)kernel);
    return CL_INVALID_KERNEL;
  }
  rt_kernel_retain(kernel);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel)
{
  /* CL_INVALID_KERNEL if kernel is not a valid kernel object. */
  if (!rt_object_is(kernel, RT_KERNEL)) {
    rt_err("clReleaseKernel: kernel %p is not a valid kernel", (void *)kernel);
    return CL_INVALID_KERNEL;
  }
  rt_kernel_release(kernel);
  return CL_SUCCESS;
}

/* A __global or __constant pointer argument: a buffer of the kernel's
 * context, or NULL. */
static cl_int set_arg_buffer(cl_kernel kernel, cl_uint i, size_t size, const void *value)
{
  /* CL_INVALID_ARG_SIZE if arg_value points to a memory object and arg_size
   * is not equal to sizeof(cl_mem). */
  if (value && size != sizeof(cl_mem)) {
    rt_err("clSetKernelArg: argument %u is a buffer; arg_size %zu is not sizeof(cl_mem)", i, size);
    return CL_INVALID_ARG_SIZE;
  }
  /* "If arg_value is NULL or points to NULL, then the kernel argument will be set to NULL." */
  cl_mem m = value ? *(const cl_mem *)value : NULL;
  if (m) {
    /* CL_INVALID_MEM_OBJECT if arg_value is not NULL, and does not point to
     * NULL, and does not point to a valid memory object. */
    if (!rt_object_is(m, RT_MEM) || rt_mem_image(m)) {
      rt_err("clSetKernelArg: argument %u: %p is not a valid buffer", i, (void *)m);
      return CL_INVALID_MEM_OBJECT;
    }
    /* CL_INVALID_CONTEXT if the context associated with kernel and an OpenCL
     * object pointed to by arg_value are not the same. */
    if (rt_mem_context(m) != rt_program_context(rt_kernel_program(kernel))) {
      rt_err("clSetKernelArg: argument %u: the buffer belongs to another context", i);
      return CL_INVALID_CONTEXT;
    }
  }
  rt_kernel_set_arg_mem(kernel, i, m);
  return CL_SUCCESS;
}

/* An image argument (image1d_t ... image3d_t): an image of the kernel's
 * context; the kernel receives its descriptor (builtins/lanecl_image.h). */
static cl_int set_arg_image(cl_kernel kernel, cl_uint i, const cc_kernel_arg *a, size_t size, const void *value)
{
  /* CL_INVALID_ARG_SIZE if the argument is a memory object and arg_size !=
   * sizeof(cl_mem). */
  if (size != sizeof(cl_mem)) {
    rt_err("clSetKernelArg: argument %u is an image; arg_size %zu is not sizeof(cl_mem)", i, size);
    return CL_INVALID_ARG_SIZE;
  }
  /* CL_INVALID_ARG_VALUE if arg_value specified is not a valid value (an
   * image argument has no NULL value). */
  if (!value) {
    rt_err("clSetKernelArg: argument %u is an image: arg_value must not be NULL", i);
    return CL_INVALID_ARG_VALUE;
  }
  cl_mem m = *(const cl_mem *)value;
  /* CL_INVALID_MEM_OBJECT for an argument declared to be a memory object
   * when the specified arg_value is not a valid memory object (here: an
   * image). */
  if (!rt_object_is(m, RT_MEM) || !rt_mem_image(m)) {
    rt_err("clSetKernelArg: argument %u: %p is not a valid image", i, (void *)m);
    return CL_INVALID_MEM_OBJECT;
  }
  /* CL_INVALID_CONTEXT if the context associated with kernel and an OpenCL
   * object pointed to by arg_value are not the same. */
  if (rt_mem_context(m) != rt_program_context(rt_kernel_program(kernel))) {
    rt_err("clSetKernelArg: argument %u: the image belongs to another context", i);
    return CL_INVALID_CONTEXT;
  }
  /* CL_INVALID_ARG_VALUE if the argument is an image declared with the
   * read_only qualifier and arg_value refers to an image object created with
   * cl_mem_flags of CL_MEM_WRITE_ONLY, or if the image argument is declared
   * with the write_only qualifier and arg_value refers to an image object
   * created with cl_mem_flags of CL_MEM_READ_ONLY. */
  cl_mem_flags f = rt_mem_flags(m);
  if ((a->access_qual == CC_ACCESS_READ_ONLY && (f & CL_MEM_WRITE_ONLY)) ||
      (a->access_qual == CC_ACCESS_WRITE_ONLY && (f & CL_MEM_READ_ONLY))) {
    rt_err("clSetKernelArg: argument %u: the image's kernel access flags %#llx do not allow the argument's "
           "access qualifier", i, (unsigned long long)(f & RT_MEM_ACCESS_FLAGS));
    return CL_INVALID_ARG_VALUE;
  }
  rt_kernel_set_arg_mem(kernel, i, m);
  return CL_SUCCESS;
}

/* A sampler_t argument: the kernel receives the sampler's CLK_* bits as a
 * pointer-sized integer. */
static cl_int set_arg_sampler(cl_kernel kernel, cl_uint i, size_t size, const void *value)
{
  /* CL_INVALID_ARG_SIZE if the argument is a sampler and arg_size !=
   * sizeof(cl_sampler). */
  if (size != sizeof(cl_sampler)) {
    rt_err("clSetKernelArg: argument %u is a sampler; arg_size %zu is not sizeof(cl_sampler)", i, size);
    return CL_INVALID_ARG_SIZE;
  }
  /* CL_INVALID_SAMPLER for an argument declared to be of type sampler_t
   * when the specified arg_value is not a valid sampler object: a NULL
   * arg_value points to no sampler object at all, so it is this error (the
   * more specific one) rather than CL_INVALID_ARG_VALUE. */
  if (!value) {
    rt_err("clSetKernelArg: argument %u is a sampler: arg_value is NULL, not a sampler", i);
    return CL_INVALID_SAMPLER;
  }
  cl_sampler s = *(const cl_sampler *)value;
  if (!rt_object_is(s, RT_SAMPLER)) {
    rt_err("clSetKernelArg: argument %u: %p is not a valid sampler", i, (void *)s);
    return CL_INVALID_SAMPLER;
  }
  /* CL_INVALID_CONTEXT if the context associated with kernel and an OpenCL
   * object pointed to by arg_value are not the same. */
  if (s->ctx != rt_program_context(rt_kernel_program(kernel))) {
    rt_err("clSetKernelArg: argument %u: the sampler belongs to another context", i);
    return CL_INVALID_CONTEXT;
  }
  uintptr_t bits = rt_sampler_bits(s);
  rt_kernel_set_arg_bytes(kernel, i, &bits, sizeof(bits));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void *arg_value)
{
  /* CL_INVALID_KERNEL if kernel is not a valid kernel. */
  if (!rt_object_is(kernel, RT_KERNEL)) {
    rt_err("clSetKernelArg: kernel %p is not a valid kernel", (void *)kernel);
    return CL_INVALID_KERNEL;
  }
  /* CL_INVALID_ARG_INDEX if arg_index is not a valid argument index. */
  const cc_kernel_info *info = rt_kernel_meta(kernel);
  if (arg_index >= info->nargs) {
    rt_err("clSetKernelArg: arg_index %u, but kernel %s has %u arguments", arg_index, info->name, info->nargs);
    return CL_INVALID_ARG_INDEX;
  }
  const cc_kernel_arg *a = &info->args[arg_index];
  switch (a->kind) {
  case CC_ARG_BUFFER: return set_arg_buffer(kernel, arg_index, arg_size, arg_value);
  case CC_ARG_IMAGE: return set_arg_image(kernel, arg_index, a, arg_size, arg_value);
  case CC_ARG_SAMPLER: return set_arg_sampler(kernel, arg_index, arg_size, arg_value);
  case CC_ARG_LOCAL:
    /* For a pointer to local memory, arg_value must be NULL (CL_INVALID_ARG_VALUE) ... */
    if (arg_value) {
      rt_err("clSetKernelArg: argument %u is __local: arg_value must be NULL", arg_index);
      return CL_INVALID_ARG_VALUE;
    }
    /* CL_INVALID_ARG_SIZE if the argument is a pointer to the local address
     * space and arg_size is zero. */
    if (arg_size == 0) {
      rt_err("clSetKernelArg: argument %u is __local: arg_size (the bytes to allocate) is 0", arg_index);
      return CL_INVALID_ARG_SIZE;
    }
    rt_kernel_set_arg_local(kernel, arg_index, arg_size);
    return CL_SUCCESS;
  default:
    /* CL_INVALID_ARG_VALUE if arg_value is NULL for an argument not declared
     * __local (OpenCL 1.2's rule; 3.0 leaves the by-value NULL undefined). */
    if (!arg_value) {
      rt_err("clSetKernelArg: argument %u is passed by value: arg_value must not be NULL", arg_index);
      return CL_INVALID_ARG_VALUE;
    }
    /* CL_INVALID_ARG_SIZE if arg_value points to the data to be used as the
     * kernel argument value and arg_size does not match the size of the data
     * type for the argument. */
    if (arg_size != a->size) {
      rt_err("clSetKernelArg: argument %u (%s) takes %u bytes, arg_size is %zu", arg_index,
             a->type_name && a->type_name[0] ? a->type_name : "by value", a->size, arg_size);
      return CL_INVALID_ARG_SIZE;
    }
    rt_kernel_set_arg_bytes(kernel, arg_index, arg_value, arg_size);
    return CL_SUCCESS;
  }
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
  /* CL_INVALID_KERNEL if kernel is not a valid kernel object. */
  if (!rt_object_is(kernel, RT_KERNEL)) {
    rt_err("clSetKernelArgSVMPointer: kernel %p is not a valid kernel", (void *)kernel);
    return CL_INVALID_KERNEL;
  }
  /* CL_INVALID_OPERATION if no devices in the context associated with kernel support SVM. */
  rt_err("clSetKernelArgSVMPointer: the device does not support SVM");
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                                       const void *param_value)
{
  /* CL_INVALID_KERNEL if kernel is a not a valid kernel object. */
  if (!rt_object_is(kernel, RT_KERNEL)) {
    rt_err("clSetKernelExecInfo: kernel %p is not a valid kernel", (void *)kernel);
    return CL_INVALID_KERNEL;
  }
  /* CL_INVALID_VALUE if param_name is not valid, if param_value is NULL and
   * param_value_size is greater than zero, or if the size specified by
   * param_value_size is not valid. */
  if (!param_value && param_value_size > 0) {
    rt_err("clSetKernelExecInfo: param_value is NULL but param_value_size is %zu", param_value_size);
    return CL_INVALID_VALUE;
  }
  switch (param_name) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS:
    /* CL_INVALID_OPERATION if param_name is CL_KERNEL_EXEC_INFO_SVM_PTRS and
     * no devices in the context associated with kernel support SVM. */
    rt_err("clSetKernelExecInfo: CL_KERNEL_EXEC_INFO_SVM_PTRS: the device does not support SVM");
    return CL_INVALID_OPERATION;
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    if (param_value_size != sizeof(cl_bool) || !param_value) {
      rt_err("clSetKernelExecInfo: CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM takes a cl_bool");
      return CL_INVALID_VALUE;
    }
    /* CL_INVALID_OPERATION if ... param_value is CL_TRUE and no devices
     * support fine-grain system SVM allocations. */
    if (*(const cl_bool *)param_value) {
      rt_err("clSetKernelExecInfo: the device does not support fine-grain system SVM");
      return CL_INVALID_OPERATION;
    }
    return CL_SUCCESS;
  default:
    rt_err("clSetKernelExecInfo: unknown param_name 0x%x", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
}

/* ---- queries: icd/ answers them from the kernel's metadata and runtime accessors ---- */

static cl_int kernel_info(cl_kernel k, cl_kernel_info param, size_t size, void *value, size_t *size_ret)
{
  const cc_kernel_info *info = rt_kernel_meta(k);
  switch (param) {
  case CL_KERNEL_FUNCTION_NAME: return icd_info_str(value, size, size_ret, info->name);
  case CL_KERNEL_NUM_ARGS: return ICD_INFO_VAL(value, size, size_ret, cl_uint, info->nargs);
  case CL_KERNEL_REFERENCE_COUNT:
    return ICD_INFO_VAL(value, size, size_ret, cl_uint, rt_kernel_refcount(k));
  case CL_KERNEL_CONTEXT: return ICD_INFO_VAL(value, size, size_ret, cl_context, rt_program_context(rt_kernel_program(k)));
  case CL_KERNEL_PROGRAM: return ICD_INFO_VAL(value, size, size_ret, cl_program, rt_kernel_program(k));
  case CL_KERNEL_ATTRIBUTES: return icd_info_str(value, size, size_ret, info->attributes);
  default:
    rt_err("clGetKernelInfo: unknown param_name 0x%x", (unsigned)param);
    return CL_INVALID_VALUE;
  }
}

static cl_kernel_arg_address_qualifier address_qualifier(uint32_t as)
{
  switch (as) {
  case CC_AS_GLOBAL: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
  case CC_AS_CONSTANT: return CL_KERNEL_ARG_ADDRESS_CONSTANT;
  case CC_AS_LOCAL: return CL_KERNEL_ARG_ADDRESS_LOCAL;
  default: return CL_KERNEL_ARG_ADDRESS_PRIVATE;
  }
}

static cl_kernel_arg_access_qualifier access_qualifier(uint32_t aq)
{
  switch (aq) {
  case CC_ACCESS_READ_ONLY: return CL_KERNEL_ARG_ACCESS_READ_ONLY;
  case CC_ACCESS_WRITE_ONLY: return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
  case CC_ACCESS_READ_WRITE: return CL_KERNEL_ARG_ACCESS_READ_WRITE;
  default: return CL_KERNEL_ARG_ACCESS_NONE;
  }
}

static cl_kernel_arg_type_qualifier type_qualifier(const cc_kernel_arg *a)
{
  cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
  if (a->type_qual & CC_TQ_CONST)
    q |= CL_KERNEL_ARG_TYPE_CONST;
  if (a->type_qual & CC_TQ_RESTRICT)
    q |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (a->type_qual & CC_TQ_VOLATILE)
    q |= CL_KERNEL_ARG_TYPE_VOLATILE;
  if (a->type_qual & CC_TQ_PIPE)
    q |= CL_KERNEL_ARG_TYPE_PIPE;
  /* constant address space arguments are const as well */
  if (a->kind == CC_ARG_BUFFER && a->addr_space == CC_AS_CONSTANT)
    q |= CL_KERNEL_ARG_TYPE_CONST;
  return q;
}

static cl_int kernel_arg_info(cl_kernel k, cl_uint i, cl_kernel_arg_info param, size_t size, void *value,
                              size_t *size_ret)
{
  const cc_kernel_arg *a = &rt_kernel_meta(k)->args[i];
  switch (param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
  case CL_KERNEL_ARG_TYPE_NAME:
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
  case CL_KERNEL_ARG_NAME:
    break;
  default:
    rt_err("clGetKernelArgInfo: unknown param_name 0x%x", (unsigned)param);
    return CL_INVALID_VALUE;
  }
  /* CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not available for kernel. */
  if (!rt_kernel_has_arg_info(k)) {
    rt_err("clGetKernelArgInfo: no argument information: the program was not built with -cl-kernel-arg-info");
    return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  }
  switch (param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    return ICD_INFO_VAL(value, size, size_ret, cl_kernel_arg_address_qualifier,
                       a->kind == CC_ARG_SCALAR || a->kind == CC_ARG_SAMPLER
                           ? CL_KERNEL_ARG_ADDRESS_PRIVATE
                           : a->kind == CC_ARG_IMAGE ? CL_KERNEL_ARG_ADDRESS_GLOBAL
                                                     : address_qualifier(a->addr_space));
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    return ICD_INFO_VAL(value, size, size_ret, cl_kernel_arg_access_qualifier, access_qualifier(a->access_qual));
  case CL_KERNEL_ARG_TYPE_NAME: return icd_info_str(value, size, size_ret, a->type_name);
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
    return ICD_INFO_VAL(value, size, size_ret, cl_kernel_arg_type_qualifier, type_qualifier(a));
  default: return icd_info_str(value, size, size_ret, a->name);
  }
}

static cl_int kernel_work_group_info(cl_kernel k, cl_device_id dev, cl_kernel_work_group_info param,
                                     size_t size, void *value, size_t *size_ret)
{
  const cc_kernel_info *info = rt_kernel_meta_for(k, dev);
  switch (param) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return ICD_INFO_VAL(value, size, size_ret, size_t, rt_kernel_max_work_group_size(k, dev));
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t r[3] = {info->reqd_work_group_size[0], info->reqd_work_group_size[1], info->reqd_work_group_size[2]};
    return icd_info(value, size, size_ret, r, sizeof(r));
  }
  case CL_KERNEL_LOCAL_MEM_SIZE:
    return ICD_INFO_VAL(value, size, size_ret, cl_ulong, rt_kernel_local_mem(k));
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return ICD_INFO_VAL(value, size, size_ret, size_t, dev->simd_bits >= 64 ? dev->simd_bits / 32 : 1);
  case CL_KERNEL_SPILL_MEM_SIZE_INTEL: /* cl_intel_required_subgroup_size: no spill memory */
    return ICD_INFO_VAL(value, size, size_ret, cl_ulong, 0);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return ICD_INFO_VAL(value, size, size_ret, cl_ulong, info->private_mem_bytes);
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    /* CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and kernel is not a built-in kernel. */
    rt_err("clGetKernelWorkGroupInfo: CL_KERNEL_GLOBAL_WORK_SIZE is only for built-in kernels");
    return CL_INVALID_VALUE;
  default:
    rt_err("clGetKernelWorkGroupInfo: unknown param_name 0x%x", (unsigned)param);
    return CL_INVALID_VALUE;
  }
}

/* Sub-groups are chunks of W work-items of a row of x, W the kernel's
 * sub_group_size: ceil(lx / W) per row of x. */
static cl_int kernel_sub_group_info(cl_kernel k, cl_device_id dev, cl_kernel_sub_group_info param,
                                    size_t in_size, const void *in, size_t size, void *value,
                                    size_t *size_ret)
{
  const cc_kernel_info *info = rt_kernel_meta_for(k, dev);
  size_t w = info->sub_group_size ? info->sub_group_size : 1;
  size_t maxwg = rt_kernel_max_work_group_size(k, dev);
  switch (param) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    /* CL_INVALID_VALUE if ... input_value_size is not valid or input_value is NULL. */
    if (!in || !in_size || in_size % sizeof(size_t) || in_size > 3 * sizeof(size_t)) {
      rt_err("clGetKernelSubGroupInfo: input_value must be 1 to 3 size_t local sizes");
      return CL_INVALID_VALUE;
    }
    const size_t *l = in;
    size_t dims = in_size / sizeof(size_t), rows = 1;
    for (size_t d = 1; d < dims; d++)
      rows *= l[d];
    if (param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
      return ICD_INFO_VAL(value, size, size_ret, size_t, l[0] < w ? l[0] : w);
    return ICD_INFO_VAL(value, size, size_ret, size_t, (l[0] + w - 1) / w * rows);
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    if (!in || in_size != sizeof(size_t)) {
      rt_err("clGetKernelSubGroupInfo: input_value must be one size_t sub-group count");
      return CL_INVALID_VALUE;
    }
    size_t want = *(const size_t *)in, dims = size / sizeof(size_t);
    size_t out[3] = {0, 0, 0};
    if (value && (!dims || dims > 3 || size % sizeof(size_t))) {
      rt_err("clGetKernelSubGroupInfo: param_value_size must hold 1 to 3 size_t");
      return CL_INVALID_VALUE;
    }
    if (!value)
      dims = 3;
    if (want && want * w <= maxwg) {
      out[0] = want * w;
      out[1] = out[2] = 1;
    }
    return icd_info(value, size, size_ret, out, dims * sizeof(size_t));
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
    return ICD_INFO_VAL(value, size, size_ret, size_t, (maxwg + w - 1) / w);
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: return ICD_INFO_VAL(value, size, size_ret, size_t, 0);
  case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL: /* cl_intel_required_subgroup_size: 0 when not asked for */
    return ICD_INFO_VAL(value, size, size_ret, size_t, info->reqd_sub_group_size);
  default:
    rt_err("clGetKernelSubGroupInfo: unknown param_name 0x%x", (unsigned)param);
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                   void *param_value, size_t *param_value_size_ret)
{
  /* CL_INVALID_KERNEL if kernel is a not a valid kernel object. */
  if (!rt_object_is(kernel, RT_KERNEL)) {
    rt_err("clGetKernelInfo: kernel %p is not a valid kernel", (void *)kernel);
    return CL_INVALID_KERNEL;
  }
  return kernel_info(kernel, param_name, param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                      size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
  /* CL_INVALID_KERNEL if kernel is a not a valid kernel object. */
  if (!rt_object_is(kernel, RT_KERNEL)) {
    rt_err("clGetKernelArgInfo: kernel %p is not a valid kernel", (void *)kernel);
    return CL_INVALID_KERNEL;
  }
  /* CL_INVALID_ARG_INDEX if arg_index is not a valid argument index. */
  const cc_kernel_info *info = rt_kernel_meta(kernel);
  if (arg_index >= info->nargs) {
    rt_err("clGetKernelArgInfo: arg_index %u, but kernel %s has %u arguments", arg_index, info->name,
           info->nargs);
    return CL_INVALID_ARG_INDEX;
  }
  return kernel_arg_info(kernel, arg_index, param_name, param_value_size, param_value, param_value_size_ret);
}

/* The device a per-device kernel query is about: device, which must be a
 * device of the kernel's context, or NULL when the context has one device. */
static cl_int kernel_device(const char *func, cl_kernel kernel, cl_device_id *device)
{
  cl_context ctx = rt_program_context(rt_kernel_program(kernel));
  /* CL_INVALID_DEVICE if device is not in the list of devices associated
   * with kernel or if device is NULL but there is more than one device
   * associated with kernel. */
  if (!*device) {
    if (ctx->ndevices != 1) {
      rt_err("%s: device is NULL but the kernel's context has %u devices", func, ctx->ndevices);
      return CL_INVALID_DEVICE;
    }
    *device = ctx->devices[0];
    return CL_SUCCESS;
  }
  if (!rt_device_is(*device) || !rt_context_has_device(ctx, *device)) {
    rt_err("%s: device %p is not a device of the kernel's context", func, (void *)*device);
    return CL_INVALID_DEVICE;
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                            cl_kernel_work_group_info param_name, size_t param_value_size,
                                            void *param_value, size_t *param_value_size_ret)
{
  /* CL_INVALID_KERNEL if kernel is a not a valid kernel object. */
  if (!rt_object_is(kernel, RT_KERNEL)) {
    rt_err("clGetKernelWorkGroupInfo: kernel %p is not a valid kernel", (void *)kernel);
    return CL_INVALID_KERNEL;
  }
  cl_int err = kernel_device("clGetKernelWorkGroupInfo", kernel, &device);
  if (err != CL_SUCCESS)
    return err;
  return kernel_work_group_info(kernel, device, param_name, param_value_size, param_value, param_value_size_ret);
}

static cl_int get_sub_group_info(const char *func, cl_kernel kernel, cl_device_id device,
                                 cl_kernel_sub_group_info param_name, size_t input_value_size,
                                 const void *input_value, size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret)
{
  /* CL_INVALID_KERNEL if kernel is a not a valid kernel object. */
  if (!rt_object_is(kernel, RT_KERNEL)) {
    rt_err("%s: kernel %p is not a valid kernel", func, (void *)kernel);
    return CL_INVALID_KERNEL;
  }
  cl_int err = kernel_device(func, kernel, &device);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_OPERATION if device does not support sub-groups. */
  if (!rt_device_has_subgroups(device)) {
    rt_err("%s: the device does not support sub-groups", func);
    return CL_INVALID_OPERATION;
  }
  return kernel_sub_group_info(kernel, device, param_name, input_value_size, input_value, param_value_size,
                               param_value, param_value_size_ret);
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                           cl_kernel_sub_group_info param_name, size_t input_value_size,
                                           const void *input_value, size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret)
{
  return get_sub_group_info("clGetKernelSubGroupInfo", kernel, device, param_name, input_value_size,
                            input_value, param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                              cl_kernel_sub_group_info param_name, size_t input_value_size,
                                              const void *input_value, size_t param_value_size,
                                              void *param_value, size_t *param_value_size_ret)
{
  return get_sub_group_info("clGetKernelSubGroupInfoKHR", kernel, device, param_name, input_value_size,
                            input_value, param_value_size, param_value, param_value_size_ret);
}

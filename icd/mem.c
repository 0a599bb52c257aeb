/* Memory object entry points: buffers, sub-buffers, references, queries and
 * destructor callbacks (images: icd/image.c); and the families LaneCL's
 * device does not support (CL_DEVICE_PIPE_SUPPORT and
 * CL_DEVICE_SVM_CAPABILITIES are false/0): pipes and SVM allocation answer
 * as the spec says for such a device. */
#include "icd/icd.h"

static const cl_mem_flags buffer_flags = RT_MEM_ACCESS_FLAGS | RT_MEM_HOST_FLAGS | RT_MEM_PTR_FLAGS;

static bool more_than_one(cl_mem_flags bits)
{
  return (bits & (bits - 1)) != 0;
}

/* CL_INVALID_VALUE if values specified in flags are not valid as defined in
 * the Memory Flags table (unknown bits, or mutually exclusive ones). */
bool icd_mem_flags_valid(const char *func, cl_mem_flags flags, cl_mem_flags allowed)
{
  if (flags & ~allowed) {
    rt_err("%s: unknown or unsupported memory flags %#llx", func, (unsigned long long)(flags & ~allowed));
    return false;
  }
  if (more_than_one(flags & RT_MEM_ACCESS_FLAGS)) {
    rt_err("%s: CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are mutually exclusive", func);
    return false;
  }
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) {
    rt_err("%s: CL_MEM_USE_HOST_PTR excludes CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR", func);
    return false;
  }
  if (more_than_one(flags & RT_MEM_HOST_FLAGS)) {
    rt_err("%s: CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS are mutually "
           "exclusive", func);
    return false;
  }
  return true;
}

static cl_mem create_buffer(const char *func, cl_context context, const cl_mem_properties *properties,
                            cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
{
  cl_int err;
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("%s: context %p is not a valid context", func, (void *)context);
    err = CL_INVALID_CONTEXT;
    goto fail;
  }
  /* CL_INVALID_PROPERTY if a property name in properties is not a supported
   * property name: OpenCL defines none for buffers, and LaneCL supports no
   * extension that does. */
  size_t nprops = 0;
  if (properties) {
    if (properties[0] != 0) {
      rt_err("%s: buffer property %#llx is not supported", func, (unsigned long long)properties[0]);
      err = CL_INVALID_PROPERTY;
      goto fail;
    }
    nprops = 1;
  }
  if (!icd_mem_flags_valid(func, flags, buffer_flags)) {
    err = CL_INVALID_VALUE;
    goto fail;
  }
  /* CL_INVALID_BUFFER_SIZE if size is zero, or greater than
   * CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context. */
  uint64_t max_alloc = 0;
  for (cl_uint i = 0; i < context->ndevices; i++)
    if (context->devices[i]->max_alloc > max_alloc)
      max_alloc = context->devices[i]->max_alloc;
  if (size == 0 || size > max_alloc) {
    rt_err("%s: size %zu is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu)", func, size,
           (unsigned long long)max_alloc);
    err = CL_INVALID_BUFFER_SIZE;
    goto fail;
  }
  /* CL_INVALID_HOST_PTR if host_ptr is NULL, and CL_MEM_USE_HOST_PTR or
   * CL_MEM_COPY_HOST_PTR are set in flags; or if host_ptr is not NULL but
   * CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags. */
  bool wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  if (wants_ptr != (host_ptr != NULL)) {
    rt_err("%s: host_ptr is %p but CL_MEM_USE_HOST_PTR / CL_MEM_COPY_HOST_PTR are %s", func, host_ptr,
           wants_ptr ? "set" : "not set");
    err = CL_INVALID_HOST_PTR;
    goto fail;
  }
  cl_mem m = rt_buffer_create(context, flags, size, host_ptr, properties, nprops, &err);
  icd_set_err(errcode_ret, err);
  return m;

fail:
  icd_set_err(errcode_ret, err);
  return NULL;
}

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                                  cl_int *errcode_ret)
{
  return create_buffer("clCreateBuffer", context, NULL, flags, size, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *host_ptr,
                                                cl_int *errcode_ret)
{
  return create_buffer("clCreateBufferWithProperties", context, properties, flags, size, host_ptr, errcode_ret);
}

/* The flags a sub-buffer reports: its own plus what it inherits. */
static cl_mem_flags sub_buffer_flags(cl_mem_flags parent, cl_mem_flags flags)
{
  cl_mem_flags out = flags;
  if (!(flags & RT_MEM_ACCESS_FLAGS))
    out |= parent & RT_MEM_ACCESS_FLAGS;
  out |= parent & RT_MEM_PTR_FLAGS;
  if (!(flags & RT_MEM_HOST_FLAGS))
    out |= parent & RT_MEM_HOST_FLAGS;
  return out;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                                     const void *buffer_create_info, cl_int *errcode_ret)
{
  cl_int err = CL_INVALID_VALUE;
  /* CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is a
   * sub-buffer object. */
  if (!rt_object_is(buffer, RT_MEM)) {
    rt_err("clCreateSubBuffer: %p is not a valid buffer", (void *)buffer);
    err = CL_INVALID_MEM_OBJECT;
    goto fail;
  }
  if (rt_mem_image(buffer)) {
    rt_err("clCreateSubBuffer: %p is an image, not a buffer", (void *)buffer);
    err = CL_INVALID_MEM_OBJECT;
    goto fail;
  }
  if (rt_mem_parent(buffer)) {
    rt_err("clCreateSubBuffer: buffer %p is a sub-buffer", (void *)buffer);
    err = CL_INVALID_MEM_OBJECT;
    goto fail;
  }
  /* CL_INVALID_VALUE if flags specifies CL_MEM_USE_HOST_PTR or
   * CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR (or is not valid). */
  if (flags & RT_MEM_PTR_FLAGS) {
    rt_err("clCreateSubBuffer: flags may not hold CL_MEM_USE/ALLOC/COPY_HOST_PTR");
    goto fail;
  }
  if (!icd_mem_flags_valid("clCreateSubBuffer", flags, RT_MEM_ACCESS_FLAGS | RT_MEM_HOST_FLAGS))
    goto fail;
  cl_mem_flags pf = rt_mem_flags(buffer);
  /* CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and flags
   * specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if buffer was created
   * with CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE or
   * CL_MEM_WRITE_ONLY. */
  if (((pf & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((pf & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))) {
    rt_err("clCreateSubBuffer: kernel access flags %#llx are wider than the buffer's %#llx",
           (unsigned long long)(flags & RT_MEM_ACCESS_FLAGS), (unsigned long long)(pf & RT_MEM_ACCESS_FLAGS));
    goto fail;
  }
  /* CL_INVALID_VALUE if buffer was created with CL_MEM_HOST_WRITE_ONLY and
   * flags specify CL_MEM_HOST_READ_ONLY, or with CL_MEM_HOST_READ_ONLY and
   * flags specify CL_MEM_HOST_WRITE_ONLY, or with CL_MEM_HOST_NO_ACCESS and
   * flags specify CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY. */
  if (((pf & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((pf & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((pf & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))) {
    rt_err("clCreateSubBuffer: host access flags %#llx are wider than the buffer's %#llx",
           (unsigned long long)(flags & RT_MEM_HOST_FLAGS), (unsigned long long)(pf & RT_MEM_HOST_FLAGS));
    goto fail;
  }
  /* CL_INVALID_VALUE if the value specified in buffer_create_type is not
   * valid; if buffer_create_info is NULL. */
  if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION) {
    rt_err("clCreateSubBuffer: buffer_create_type %#x is not CL_BUFFER_CREATE_TYPE_REGION",
           (unsigned)buffer_create_type);
    goto fail;
  }
  if (!buffer_create_info) {
    rt_err("clCreateSubBuffer: buffer_create_info is NULL");
    goto fail;
  }
  const cl_buffer_region *region = buffer_create_info;
  size_t psize = rt_mem_size(buffer);
  /* CL_INVALID_VALUE if the region specified by the cl_buffer_region
   * structure passed in buffer_create_info is out of bounds in buffer. */
  if (region->origin > psize || region->size > psize - region->origin) {
    rt_err("clCreateSubBuffer: region [%zu, +%zu) is out of the %zu bytes of the buffer", region->origin,
           region->size, psize);
    goto fail;
  }
  /* CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region
   * structure passed in buffer_create_info is zero. */
  if (region->size == 0) {
    rt_err("clCreateSubBuffer: region size is 0");
    err = CL_INVALID_BUFFER_SIZE;
    goto fail;
  }
  /* CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context
   * associated with buffer for which the origin field of the
   * cl_buffer_region structure passed in buffer_create_info is aligned to
   * the CL_DEVICE_MEM_BASE_ADDR_ALIGN value. */
  cl_context ctx = rt_mem_context(buffer);
  bool aligned = false;
  for (cl_uint i = 0; i < ctx->ndevices && !aligned; i++) {
    size_t align = ctx->devices[i]->mem_base_addr_align / 8;
    aligned = align == 0 || region->origin % align == 0;
  }
  if (!aligned) {
    rt_err("clCreateSubBuffer: origin %zu is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN", region->origin);
    err = CL_MISALIGNED_SUB_BUFFER_OFFSET;
    goto fail;
  }
  cl_mem m = rt_sub_buffer_create(buffer, sub_buffer_flags(pf, flags), region->origin, region->size, &err);
  icd_set_err(errcode_ret, err);
  return m;

fail:
  icd_set_err(errcode_ret, err);
  return NULL;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj)
{
  /* CL_INVALID_MEM_OBJECT if memobj is not a valid memory object. */
  if (!rt_object_is(memobj, RT_MEM)) {
    rt_err("clRetainMemObject: %p is not a valid memory object", (void *)memobj);
    return CL_INVALID_MEM_OBJECT;
  }
  rt_mem_api_retain(memobj);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj)
{
  /* CL_INVALID_MEM_OBJECT if memobj is not a valid memory object. */
  if (!rt_object_is(memobj, RT_MEM)) {
    rt_err("clReleaseMemObject: %p is not a valid memory object", (void *)memobj);
    return CL_INVALID_MEM_OBJECT;
  }
  rt_mem_api_release(memobj);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj,
                                                    void(CL_CALLBACK *pfn_notify)(cl_mem memobj, void *user_data),
                                                    void *user_data)
{
  /* CL_INVALID_MEM_OBJECT if memobj is not a valid memory object. */
  if (!rt_object_is(memobj, RT_MEM)) {
    rt_err("clSetMemObjectDestructorCallback: %p is not a valid memory object", (void *)memobj);
    return CL_INVALID_MEM_OBJECT;
  }
  /* CL_INVALID_VALUE if pfn_notify is NULL. */
  if (!pfn_notify) {
    rt_err("clSetMemObjectDestructorCallback: pfn_notify is NULL");
    return CL_INVALID_VALUE;
  }
  return rt_mem_add_destructor(memobj, pfn_notify, user_data);
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                      void *param_value, size_t *param_value_size_ret)
{
  /* CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object. */
  if (!rt_object_is(memobj, RT_MEM)) {
    rt_err("clGetMemObjectInfo: %p is not a valid memory object", (void *)memobj);
    return CL_INVALID_MEM_OBJECT;
  }
  cl_mem m = memobj;
  void *v = param_value;
  size_t n = param_value_size;
  size_t *ret = param_value_size_ret;
  switch (param_name) {
  case CL_MEM_TYPE:
    return ICD_INFO_VAL(v, n, ret, cl_mem_object_type, rt_mem_type(m));
  case CL_MEM_FLAGS:
    return ICD_INFO_VAL(v, n, ret, cl_mem_flags, rt_mem_flags(m));
  case CL_MEM_SIZE:
    return ICD_INFO_VAL(v, n, ret, size_t, rt_mem_size(m));
  case CL_MEM_HOST_PTR:
    return ICD_INFO_VAL(v, n, ret, void *, rt_mem_host_ptr(m));
  case CL_MEM_MAP_COUNT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, rt_mem_map_count(m));
  case CL_MEM_REFERENCE_COUNT:
    return ICD_INFO_VAL(v, n, ret, cl_uint, rt_mem_refcount(m));
  case CL_MEM_CONTEXT:
    return ICD_INFO_VAL(v, n, ret, cl_context, rt_mem_context(m));
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    /* A sub-buffer's buffer; the buffer or image an image was made from. */
    return ICD_INFO_VAL(v, n, ret, cl_mem, rt_mem_image(m) ? rt_mem_image(m)->assoc : rt_mem_parent(m));
  case CL_MEM_OFFSET:
    return ICD_INFO_VAL(v, n, ret, size_t, rt_mem_offset(m));
  case CL_MEM_USES_SVM_POINTER:
    /* No device supports SVM, so no host_ptr is an SVM pointer. */
    return ICD_INFO_VAL(v, n, ret, cl_bool, CL_FALSE);
  case CL_MEM_PROPERTIES: {
    size_t nprops;
    const cl_mem_properties *props = rt_mem_properties(m, &nprops);
    return icd_info(v, n, ret, props, nprops * sizeof(cl_mem_properties));
  }
  default:
    /* CL_INVALID_VALUE if param_name is not one of the supported values. */
    rt_err("clGetMemObjectInfo: unknown param_name %#x", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
}

/* ---- pipes: CL_DEVICE_PIPE_SUPPORT is CL_FALSE ---- */

cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                                cl_uint pipe_max_packets, const cl_pipe_properties *properties,
                                cl_int *errcode_ret)
{
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clCreatePipe: context %p is not a valid context", (void *)context);
    icd_set_err(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  /* CL_INVALID_OPERATION if no devices in context support pipes. */
  rt_err("clCreatePipe: the devices of the context do not support pipes");
  icd_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret)
{
  /* CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object: none can be
   * created. */
  rt_err("clGetPipeInfo: %p is not a pipe (pipes are not supported)", (void *)pipe);
  return CL_INVALID_MEM_OBJECT;
}

/* ---- SVM: CL_DEVICE_SVM_CAPABILITIES is 0 ---- */

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
  /* clSVMAlloc fails (returns NULL) if context is not a valid context, or
   * no devices in context support SVM. */
  rt_err("clSVMAlloc: no device of context %p supports SVM", (void *)context);
  return NULL;
}

void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer)
{
  /* Nothing can have come from clSVMAlloc: nothing to free. */
  (void)context;
  (void)svm_pointer;
}

/* Memory objects (buffers and sub-buffers).  The device is the host CPU, so a
 * buffer's device address is its host address: rt_mem_ptr gives the address
 * of the data a kernel or a command reads and writes (sub-buffer offset
 * included).  Images and pipes are not supported (CL_DEVICE_IMAGE_SUPPORT and
 * CL_DEVICE_PIPE_SUPPORT are false): every cl_mem is a buffer.
 *
 * References: the API count (clRetainMemObject, CL_MEM_REFERENCE_COUNT) and
 * an internal one.  Commands that use a buffer hold an internal reference
 * (rt_mem_retain / rt_mem_release) until they complete; a sub-buffer holds one
 * on its parent.  The memory is freed (after the destructor callbacks, last
 * registered first) when both counts are zero. */
#ifndef LANECL_RT_MEM_H
#define LANECL_RT_MEM_H

#include "runtime/rt.h"

/* Alignment of every allocation in bytes; CL_DEVICE_MEM_BASE_ADDR_ALIGN
 * should report RT_MEM_ALIGN * 8 bits and CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE
 * RT_MEM_ALIGN. */
#define RT_MEM_ALIGN 128

/* Flags the runtime keeps per object. */
#define RT_MEM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define RT_MEM_HOST_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define RT_MEM_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

/* A buffer of size bytes (flags and host_ptr validated by icd/).  props:
 * the application's properties list (copied, including the terminating 0),
 * or NULL with nprops 0. */
cl_mem rt_buffer_create(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                        const cl_mem_properties *props, size_t nprops, cl_int *err);
/* A sub-buffer of parent (a buffer, not a sub-buffer); flags already carry
 * what the sub-buffer inherits. */
cl_mem rt_sub_buffer_create(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size, cl_int *err);

void rt_mem_api_retain(cl_mem m);
void rt_mem_api_release(cl_mem m);
cl_uint rt_mem_refcount(cl_mem m);
/* Internal references, for commands and kernels: the memory stays valid
 * until the matching release. */
void rt_mem_retain(cl_mem m);
void rt_mem_release(cl_mem m);

void *rt_mem_ptr(cl_mem m);             /* device address = host address */
size_t rt_mem_size(cl_mem m);
cl_context rt_mem_context(cl_mem m);
cl_mem_flags rt_mem_flags(cl_mem m);
cl_mem rt_mem_parent(cl_mem m);         /* NULL unless a sub-buffer */
size_t rt_mem_offset(cl_mem m);         /* origin within the parent; 0 for a buffer */
void *rt_mem_host_ptr(cl_mem m);        /* CL_MEM_HOST_PTR */
const cl_mem_properties *rt_mem_properties(cl_mem m, size_t *nprops);

typedef void(CL_CALLBACK *rt_mem_destructor_fn)(cl_mem, void *);
cl_int rt_mem_add_destructor(cl_mem m, rt_mem_destructor_fn fn, void *user_data);

/* Mappings.  rt_mem_map_add records a mapping of [offset, offset + size) of
 * m and gives its host pointer; CL_INVALID_OPERATION when it would overlap a
 * mapping (of m, its parent or a sibling sub-buffer) while either is for
 * writing.  rt_mem_map_remove drops one mapping of m at ptr;
 * CL_INVALID_VALUE when ptr is not mapped for m. */
cl_int rt_mem_map_add(cl_mem m, size_t offset, size_t size, cl_map_flags flags, void **ptr);
cl_int rt_mem_map_remove(cl_mem m, void *ptr);
cl_uint rt_mem_map_count(cl_mem m);

#endif

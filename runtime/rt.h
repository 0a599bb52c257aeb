/* LaneCL runtime: the CL objects and what they do.  This is the runtime's
 * public interface, the one runtime header icd/ includes: icd/ validates
 * arguments (the spec's error codes) and calls in here; the runtime assumes
 * valid input and executes.  Runtime internals live in runtime/rt_queue.h
 * (commands, the event graph) and runtime/rt_program.h (program and kernel
 * structs, builds, the cache), which only runtime/ includes. */
#ifndef LANECL_RT_H
#define LANECL_RT_H

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/lanecl_cc.h"
#include "scheduler/sched.h"

/* ---------------------------------------------------------------------------
 * Object header.  Every CL handle LaneCL gives out starts with this.  The ICD
 * loaders read `dispatch` (first field, required by cl_khr_icd).  A handle is
 * ours when dispatch == rt_dispatch and magic == RT_MAGIC; `type` tells which
 * object it is.
 * ------------------------------------------------------------------------- */
#define RT_MAGIC 0x4c414e45434c4f42ull /* "LANECLOB" */

typedef enum rt_type {
  RT_PLATFORM = 1,
  RT_DEVICE,
  RT_CONTEXT,
  RT_QUEUE,
  RT_MEM,
  RT_PROGRAM,
  RT_KERNEL,
  RT_EVENT,
  RT_SAMPLER,
} rt_type;

typedef struct rt_object {
  const void *dispatch;       /* struct _cl_icd_dispatch * */
  void *dispatch_data;        /* reserved for cl_khr_icd 2 loaders */
  uint64_t magic;
  rt_type type;
  atomic_uint refcount;       /* external (API) references */
  uint64_t id;                /* unique, for logs */
} rt_object;

/* Set by icd/ before any object exists. */
extern const void *rt_dispatch;

/* Initialise a header with refcount 1. */
void rt_object_init(rt_object *o, rt_type type);
/* True when h is a live LaneCL object of the given type. Never dereferences
 * beyond the header, never crashes on a foreign pointer that is readable. */
bool rt_object_is(const void *h, rt_type type);
void rt_retain(rt_object *o);
/* Returns true when the count reached zero (the caller then destroys). */
bool rt_release(rt_object *o);

/* ---------------------------------------------------------------------------
 * Logging: LANECL_DEBUG=err,api,build,queue,sched,all (comma separated).
 * ------------------------------------------------------------------------- */
enum {
  RT_LOG_ERR = 1u << 0,   /* every rejected API call says why */
  RT_LOG_API = 1u << 1,
  RT_LOG_BUILD = 1u << 2,
  RT_LOG_QUEUE = 1u << 3,
  RT_LOG_SCHED = 1u << 4,
  RT_LOG_MEM = 1u << 5,
};
extern unsigned rt_log_mask;
void rt_log_init(void);
void rt_log(unsigned cat, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rt_err(func, fmt, ...) logs "LaneCL: <func>: <reason>" under RT_LOG_ERR. */
#define rt_err(...) rt_log(RT_LOG_ERR, __VA_ARGS__)

/* The LANECL_* environment variables: config/lanecl_config.h. */
#include "config/lanecl_config.h"

/* Small dynamic string used for logs and build options. */
typedef struct rt_str {
  char *s;
  size_t len, cap;
} rt_str;
void rt_str_add(rt_str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rt_str_free(rt_str *b);

/* ---------------------------------------------------------------------------
 * Platform and device (runtime/device.c)
 * ------------------------------------------------------------------------- */
struct _cl_platform_id {
  rt_object obj;
};

/* The root device is a static object whose retain/release are no-ops; a
 * sub-device is a refcounted heap object that retains its parent.  Everything
 * but the refcount and `pool` is immutable once the device is handed out. */
struct _cl_device_id {
  rt_object obj;
  struct _cl_device_id *parent;      /* NULL for the root device */
  cl_uint compute_units;             /* cores */
  int *cores;                        /* sched_topology core indexes, compute_units of them */
  sched_pool *pool;                  /* created lazily (rt_device_pool) */
  pthread_mutex_t pool_lock;
  cl_device_partition_property *partition_props; /* as given to clCreateSubDevices (sub-devices) */
  size_t npartition_props;                       /* entries including the terminating 0 */
  cl_device_affinity_domain affinity_domain;     /* for BY_AFFINITY_DOMAIN sub-devices */
  /* Filled by rt_init from hwloc (sched_topology_get) + CPUID */
  char name[128];                    /* CPUID brand string */
  char vendor[64];                   /* CPUID vendor string */
  cl_uint vendor_id;                 /* PCI vendor id of the CPU maker, 0 if unknown */
  unsigned simd_bits;                /* 512 / 256 / 128 */
  bool has_fma;                      /* hardware fused multiply-add */
  cl_uint max_clock_mhz;             /* 0 if unknown */
  char llvm_cpu[64];
  char llvm_features[1024];
  uint64_t global_mem_size;
  uint64_t max_alloc;
  uint64_t local_mem_size;
  uint64_t cache_size;               /* last-level data cache, bytes */
  cl_uint cacheline;                 /* bytes */
  size_t max_work_group_size;
  cl_uint mem_base_addr_align;       /* bits: buffers are allocated at this alignment */
  cl_command_queue_properties queue_props; /* what host queues support */
  cc_device_desc cc;                 /* for the compiler */
};

extern struct _cl_platform_id rt_platform;
extern struct _cl_device_id rt_root_device;

/* Once per process (pthread_once inside): fills the platform and root device.
 * rt_dispatch must be set before. */
void rt_init(void);
/* The pool of workers of a device (created on first use, pinned to the
 * device's cores).  NULL only when the pool can't be created. */
sched_pool *rt_device_pool(cl_device_id dev);
/* Sub-devices: creates the sub-devices of the partition props describes
 * into out (as many as the partition makes; icd/ checked the properties
 * against dev and that out has room).  CL_SUCCESS or CL_OUT_OF_HOST_MEMORY
 * (then nothing is made). */
cl_int rt_device_partition(cl_device_id dev, const cl_device_partition_property *props, cl_device_id *out);
/* Partition types and affinity domains dev can be split along
 * (CL_DEVICE_PARTITION_PROPERTIES, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
 * returns the number written to props (at most 3). */
size_t rt_device_partition_types(cl_device_id dev, cl_device_partition_property props[3]);
cl_device_affinity_domain rt_device_affinity_domains(cl_device_id dev);
/* The affinity domain CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE splits
 * dev along (NUMA, L3, L2, L1: the first that makes two groups or more),
 * 0 when none does. */
cl_device_affinity_domain rt_device_next_affinity_domain(cl_device_id dev);
/* The number of groups dev's cores make at one affinity level (NUMA, L3,
 * L2 or L1): the sub-devices a partition by that domain makes. */
unsigned rt_device_affinity_groups(cl_device_id dev, cl_device_affinity_domain domain);
void rt_device_retain(cl_device_id d);   /* no-ops for the root device */
void rt_device_release(cl_device_id d);
/* True when d is the root device or a live sub-device. */
static inline bool rt_device_is(const void *d)
{
  return rt_object_is(d, RT_DEVICE);
}

/* What the platform and device report (runtime/device.c), all from one list
 * there: the extension strings (space separated), the same with versions, the
 * OpenCL C features (CL_DEVICE_OPENCL_C_FEATURES), the OpenCL C versions, and
 * the clang -cl-ext= value that enables exactly these (rt_root_device.cc.cl_ext). */
extern const char rt_extensions[];       /* device */
extern const char rt_platform_extensions[];
extern const cl_name_version rt_extensions_with_version[];
extern const size_t rt_num_extensions;
extern const cl_name_version rt_platform_extensions_with_version[];
extern const size_t rt_num_platform_extensions;
extern const cl_name_version rt_opencl_c_features[];
extern const size_t rt_num_opencl_c_features;
extern const cl_name_version rt_opencl_c_versions[];
extern const size_t rt_num_opencl_c_versions;
extern const char rt_cl_ext_option[];

/* Host clock for profiling and clGetHostTimer: CLOCK_MONOTONIC in ns. */
cl_ulong rt_host_time_ns(void);

/* A hash of the host CPU's identity as the compiler sees it (vendor, model,
 * CPUID feature leaves, XCR0): part of a cache entry's key. */
uint64_t rt_host_cpu_signature(void);

/* ---------------------------------------------------------------------------
 * Context (runtime/context.c)
 * ------------------------------------------------------------------------- */
typedef void(CL_CALLBACK *rt_ctx_notify_fn)(const char *, const void *, size_t, void *);
typedef void(CL_CALLBACK *rt_ctx_destructor_fn)(cl_context, void *);

struct rt_ctx_destructor {
  rt_ctx_destructor_fn fn;
  void *user_data;
  struct rt_ctx_destructor *next;
};

struct _cl_context {
  rt_object obj;
  cl_uint ndevices;
  cl_device_id *devices;            /* each retained */
  cl_context_properties *props;     /* copy, 0-terminated, NULL when none given */
  size_t nprops;                    /* entries including the terminating 0 */
  rt_ctx_notify_fn notify;
  void *notify_data;
  pthread_mutex_t lock;
  struct rt_ctx_destructor *destructors;  /* pushed at the head: run in LIFO order */
};

/* devices, props already validated by icd/.  Returns NULL and sets *err
 * (CL_OUT_OF_HOST_MEMORY) on failure. */
cl_context rt_context_create(const cl_device_id *devices, cl_uint n, const cl_context_properties *props,
                             rt_ctx_notify_fn notify, void *user_data, cl_int *err);
void rt_context_retain(cl_context c);
/* The last release runs the destructor callbacks (LIFO), releases the devices
 * and frees the context. */
void rt_context_release(cl_context c);
/* clSetContextDestructorCallback; CL_SUCCESS or CL_OUT_OF_HOST_MEMORY. */
cl_int rt_context_add_destructor(cl_context c, rt_ctx_destructor_fn fn, void *user_data);
/* True when dev is one of c's devices. */
bool rt_context_has_device(cl_context c, cl_device_id dev);

/* ---------------------------------------------------------------------------
 * Memory objects (runtime/mem.c)
 * ------------------------------------------------------------------------- */
/* Memory objects (buffers, sub-buffers and images).  The device is the host
 * CPU, so a buffer's device address is its host address: rt_mem_ptr gives the
 * address of the data a kernel or a command reads and writes (sub-buffer
 * offset included).  Images (runtime/image.c) are memory objects too, with an
 * rt_image (rt_mem_image) that describes them.  Pipes are not supported
 * (CL_DEVICE_PIPE_SUPPORT is false).
 *
 * References: the API count (clRetainMemObject, CL_MEM_REFERENCE_COUNT) and
 * an internal one.  Commands that use a buffer hold an internal reference
 * (rt_mem_retain / rt_mem_release) until they complete; a sub-buffer holds one
 * on its parent.  The memory is freed (after the destructor callbacks, last
 * registered first) when both counts are zero. */

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

/* ---- images (runtime/image.c) ----
 * An image is a memory object whose data is row-major with the pitches of
 * its rt_image: pixel (x, y, z) at data + z * slice_pitch + y * row_pitch +
 * x * elem_size; a 1D array's layer y at data + y * slice_pitch.  Its own
 * storage is tightly pitched (row_pitch = width * elem_size); with
 * CL_MEM_USE_HOST_PTR the application's memory and pitches are the image's;
 * an image made from a buffer (1D buffer, 2D from a buffer) or from another
 * 2D image uses that object's memory (holding an internal reference). */
#include "builtins/lanecl_image.h"

/* Image limits every device reports (CL_DEVICE_IMAGE*): the OpenCL 3.0
 * minimums; a 1D image buffer may have as many pixels as the largest
 * allocation holds 16-byte pixels.  Pitch and base address alignments are
 * in pixels: an image made from a buffer may use any pitch that is a whole
 * number of pixels. */
#define RT_IMAGE2D_MAX 16384
#define RT_IMAGE3D_MAX 2048
#define RT_IMAGE_MAX_ARRAY 2048
#define RT_IMAGE_PITCH_ALIGN 1
#define RT_IMAGE_BASE_ALIGN 1
#define RT_MAX_READ_IMAGE_ARGS 128
#define RT_MAX_WRITE_IMAGE_ARGS 64
#define RT_MAX_READ_WRITE_IMAGE_ARGS 64
#define RT_MAX_SAMPLERS 16

typedef struct rt_image {
  cl_mem_object_type type;      /* CL_MEM_OBJECT_IMAGE* */
  cl_image_format format;
  size_t elem_size;             /* bytes per pixel */
  size_t width, height, depth;  /* height, depth 1 where the type has none */
  size_t array_size;            /* 1 unless an array */
  size_t row_pitch, slice_pitch;/* as CL_IMAGE_ROW_PITCH / CL_IMAGE_SLICE_PITCH report them */
  cl_mem assoc;                 /* the buffer or image it was made from (CL_MEM_ASSOCIATED_MEMOBJECT) */
  struct lanecl_image dev;      /* what a kernel argument points at */
} rt_image;

/* The channels of a channel order (1 to 4) and the bytes of a pixel of a
 * format; 0 for an order or a type LaneCL does not know. */
unsigned rt_image_channels(cl_channel_order order);
size_t rt_image_elem_size(const cl_image_format *f);

/* An image (icd/ validated everything: the format is supported, the sizes
 * and pitches are within limits; row_pitch and slice_pitch are those of
 * host_ptr or of assoc, resolved, or 0 to choose).  assoc: the buffer or
 * image it is made from, or NULL.  props as for rt_buffer_create. */
cl_mem rt_image_create(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                       const cl_image_desc *desc, void *host_ptr, cl_mem assoc, const cl_mem_properties *props,
                       size_t nprops, cl_int *err);
/* For runtime/image.c: a memory object of size bytes as rt_buffer_create
 * makes it, except that CL_MEM_COPY_HOST_PTR copies nothing (the caller
 * copies the rows); one that uses the memory of `of` (holds an internal
 * reference on it); and giving m its image description (freed with m). */
cl_mem rt_mem_create_storage(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                             const cl_mem_properties *props, size_t nprops, cl_int *err);
cl_mem rt_mem_alias_create(cl_mem of, cl_mem_flags flags, size_t size, const cl_mem_properties *props,
                           size_t nprops, cl_int *err);
void rt_mem_attach_image(cl_mem m, rt_image *img);
/* The image description of m, NULL for a buffer. */
const rt_image *rt_mem_image(cl_mem m);
/* CL_MEM_TYPE: CL_MEM_OBJECT_BUFFER or the image's type. */
cl_mem_object_type rt_mem_type(cl_mem m);

/* ---- samplers (runtime/image.c) ---- */
struct _cl_sampler {
  rt_object obj;
  cl_context ctx;               /* retained */
  cl_bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
  cl_sampler_properties *props; /* as given (including the 0), NULL when none */
  size_t nprops;
};
cl_sampler rt_sampler_create(cl_context ctx, cl_bool normalized, cl_addressing_mode addressing,
                             cl_filter_mode filter, const cl_sampler_properties *props, size_t nprops,
                             cl_int *err);
void rt_sampler_retain(cl_sampler s);
void rt_sampler_release(cl_sampler s);
cl_uint rt_sampler_refcount(cl_sampler s);
/* The LANECL_SAMPLER_* bits a kernel receives for s (builtins/lanecl_image.h). */
uintptr_t rt_sampler_bits(cl_sampler s);

typedef void(CL_CALLBACK *rt_mem_destructor_fn)(cl_mem, void *);
cl_int rt_mem_add_destructor(cl_mem m, rt_mem_destructor_fn fn, void *user_data);

/* Mappings.  rt_mem_map_add records a mapping of [offset, offset + size) of
 * m and gives its host pointer; CL_INVALID_OPERATION when it would overlap a
 * mapping (of m, its parent or a sibling sub-buffer) while either is for
 * writing.  rt_mem_map_remove drops one mapping of m at ptr;
 * CL_INVALID_VALUE when ptr is not mapped for m. */
cl_int rt_mem_map_add(cl_mem m, size_t offset, size_t size, cl_map_flags flags, void **ptr);
/* The same for an image's box of pixels (origin, region): two mappings of
 * one image overlap where their boxes do, not where their byte spans do. */
cl_int rt_mem_map_add_box(cl_mem m, size_t offset, size_t size, const size_t *origin, const size_t *region,
                          cl_map_flags flags, void **ptr);
cl_int rt_mem_map_remove(cl_mem m, void *ptr);
cl_uint rt_mem_map_count(cl_mem m);

/* ---------------------------------------------------------------------------
 * Memory commands (runtime/memcmd.c): read, write, copy, fill, map, unmap and
 * migrate of buffers.  icd/ has checked every argument: the queue, the
 * buffers (of the queue's context), offsets and sizes inside the buffers,
 * resolved pitches, the overlap rules and the wait list.  Each returns
 * CL_SUCCESS or the error of making the command (CL_OUT_OF_HOST_MEMORY, or
 * with blocking, the command's error).
 * ------------------------------------------------------------------------- */
/* A box of bytes in a buffer or in host memory: the byte offset of its
 * origin and its row and slice pitches (never 0: icd/ resolves them). */
typedef struct rt_box {
  size_t offset, row_pitch, slice_pitch;
} rt_box;

/* clEnqueueReadBuffer / clEnqueueWriteBuffer: size bytes at offset of
 * buffer to or from ptr. */
cl_int rt_enqueue_read_write(cl_command_queue q, bool write, cl_mem buffer, cl_bool blocking, size_t offset,
                             size_t size, void *ptr, cl_uint nwait, const cl_event *wait, cl_event *event);
/* The *Rect variants: region[0] bytes x region[1] rows x region[2] slices. */
cl_int rt_enqueue_read_write_rect(cl_command_queue q, bool write, cl_mem buffer, cl_bool blocking,
                                  const rt_box *buffer_box, void *ptr, const rt_box *host_box,
                                  const size_t region[3], cl_uint nwait, const cl_event *wait, cl_event *event);
/* clEnqueueCopyBuffer (size 0: only orders the queue) and its Rect variant. */
cl_int rt_enqueue_copy(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                       size_t size, cl_uint nwait, const cl_event *wait, cl_event *event);
cl_int rt_enqueue_copy_rect(cl_command_queue q, cl_mem src, cl_mem dst, const rt_box *src_box,
                            const rt_box *dst_box, const size_t region[3], cl_uint nwait, const cl_event *wait,
                            cl_event *event);
/* clEnqueueFillBuffer: pattern_size (1 to 128) divides offset and size;
 * size 0 only orders the queue. */
cl_int rt_enqueue_fill(cl_command_queue q, cl_mem buffer, const void *pattern, size_t pattern_size,
                       size_t offset, size_t size, cl_uint nwait, const cl_event *wait, cl_event *event);
/* clEnqueueMapBuffer: records the mapping (CL_INVALID_OPERATION when it
 * would overlap a mapping for writing, see rt_mem_map_add), then orders the
 * queue; *ptr receives the mapped pointer. */
cl_int rt_enqueue_map(cl_command_queue q, cl_mem buffer, cl_bool blocking, cl_map_flags flags, size_t offset,
                      size_t size, cl_uint nwait, const cl_event *wait, cl_event *event, void **ptr);
/* clEnqueueUnmapMemObject: drops the mapping of m at ptr (CL_INVALID_VALUE
 * when there is none), then orders the queue. */
cl_int rt_enqueue_unmap(cl_command_queue q, cl_mem m, void *ptr, cl_uint nwait, const cl_event *wait,
                        cl_event *event);
/* Image commands.  A box of pixels is a box of bytes: region[0] bytes (the
 * pixels times the element size) x region[1] rows x region[2] slices, each
 * side with its byte offset and pitches (icd/ turned origins and regions
 * into these).  type: the CL_COMMAND_* of the event. */
cl_int rt_enqueue_box_copy(cl_command_queue q, cl_command_type type, cl_bool blocking, cl_mem a, cl_mem b,
                           void *dst, const rt_box *dst_box, const void *src, const rt_box *src_box,
                           const size_t region[3], cl_uint nwait, const cl_event *wait, cl_event *event);
/* Fills a box of image with one pixel (elem_size bytes). */
cl_int rt_enqueue_box_fill(cl_command_queue q, cl_mem image, const void *pixel, size_t elem_size,
                           const rt_box *box, const size_t region[3], cl_uint nwait, const cl_event *wait,
                           cl_event *event);
/* clEnqueueMapImage: records a mapping of the box (origin, region) of
 * image, whose bytes are [offset, offset + size) (CL_INVALID_OPERATION when
 * it overlaps a box mapped, either for writing), then orders the queue. */
cl_int rt_enqueue_map_image(cl_command_queue q, cl_mem image, cl_bool blocking, cl_map_flags flags,
                            const size_t origin[3], const size_t region[3], size_t offset, size_t size,
                            cl_uint nwait, const cl_event *wait, cl_event *event, void **ptr);
/* clEnqueueMigrateMemObjects: host memory is the device's; only orders the queue. */
cl_int rt_enqueue_migrate(cl_command_queue q, cl_uint nwait, const cl_event *wait, cl_event *event);

/* ---------------------------------------------------------------------------
 * Queues, events, markers and barriers (runtime/queue.c, event.c; the
 * event graph is described in runtime/rt_queue.h)
 * ------------------------------------------------------------------------- */
/* Markers and barriers.  With nwait == 0 the command waits for every command
 * enqueued before it on q; a barrier also keeps every later command of q
 * from starting before it completes. */
cl_int rt_enqueue_marker(cl_command_queue q, bool barrier, cl_uint nwait, const cl_event *wait,
                         cl_event *event_out);

/* Waits for every event; CL_SUCCESS, or CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
 * when one of them ended in an error. */
cl_int rt_events_wait(cl_uint n, const cl_event *events);

/* The queue and event structs are private to runtime/ (rt_queue.h); the
 * accessors here are all icd/ needs. */
cl_context rt_queue_context(cl_command_queue q);
cl_device_id rt_queue_device(cl_command_queue q);
cl_context rt_event_context(cl_event e);

/* props_array: the properties list as the application gave it (copied,
 * including the terminating 0), or NULL with nprops 0. */
cl_command_queue rt_queue_create(cl_context ctx, cl_device_id dev, cl_command_queue_properties props,
                                 const cl_queue_properties *props_array, size_t nprops, cl_int *err);
void rt_queue_retain(cl_command_queue q);      /* API reference */
/* Drops an API reference; the last one flushes, and the queue lives on until
 * its commands are complete and its events are released. */
void rt_queue_release(cl_command_queue q);
cl_uint rt_queue_refcount(cl_command_queue q);
cl_command_queue_properties rt_queue_properties(cl_command_queue q);
/* The properties list given at creation (including the 0) or NULL. */
const cl_queue_properties *rt_queue_properties_array(cl_command_queue q, size_t *nprops);
cl_int rt_queue_flush(cl_command_queue q);
/* Blocks until every command enqueued on q before the call is complete. */
cl_int rt_queue_finish(cl_command_queue q);

typedef void(CL_CALLBACK *rt_event_notify_fn)(cl_event, cl_int, void *);

cl_event rt_user_event_create(cl_context ctx, cl_int *err);
bool rt_event_is_user(cl_event e);
/* CL_INVALID_OPERATION when the status was already set. */
cl_int rt_user_event_set_status(cl_event e, cl_int status);
void rt_event_retain(cl_event e);              /* API reference */
void rt_event_release(cl_event e);
cl_uint rt_event_refcount(cl_event e);
cl_command_queue rt_event_queue(cl_event e);   /* NULL for user events */
cl_command_type rt_event_command_type(cl_event e);
cl_int rt_event_status(cl_event e);
/* status is CL_SUBMITTED, CL_RUNNING or CL_COMPLETE (checked by icd/). */
cl_int rt_event_set_callback(cl_event e, cl_int status, rt_event_notify_fn fn, void *user_data);
/* CL_PROFILING_INFO_NOT_AVAILABLE, or CL_SUCCESS with *value set.  param is
 * one of the CL_PROFILING_COMMAND_* values (checked by icd/). */
cl_int rt_event_profiling(cl_event e, cl_profiling_info param, cl_ulong *value);

/* The clock of profiling timestamps: CLOCK_MONOTONIC in nanoseconds. */
uint64_t rt_time_ns(void);

/* ---------------------------------------------------------------------------
 * Programs (runtime/program.c)
 * ------------------------------------------------------------------------- */
typedef enum rt_program_origin {
  RT_PROG_SOURCE = 1,   /* clCreateProgramWithSource */
  RT_PROG_BINARY,       /* clCreateProgramWithBinary */
  RT_PROG_LINKED,       /* clLinkProgram */
} rt_program_origin;

/* The build state of a program for one device (runtime/rt_program.h). */
typedef struct rt_build rt_build;
typedef void(CL_CALLBACK *rt_program_notify_fn)(cl_program, void *);


cl_program rt_program_create_with_source(cl_context ctx, cl_uint count, const char **strings,
                                         const size_t *lengths, cl_int *err);
/* status[i] receives each device's status (CL_SUCCESS or CL_INVALID_BINARY). */
cl_program rt_program_create_with_binary(cl_context ctx, cl_uint n, const cl_device_id *devices,
                                         const size_t *lengths, const unsigned char **binaries,
                                         cl_int *status, cl_int *err);
void rt_program_retain(cl_program p);
void rt_program_release(cl_program p);

/* Index of dev in p->devices, or -1. */
int rt_program_device_index(cl_program p, cl_device_id dev);

/* The build actions.  devices: NULL = all of the program's.  When notify is
 * not NULL they return once the work is under way and call notify(program,
 * user_data) from another thread when it is done.  They return
 * CL_INVALID_OPERATION while kernels are attached or a build of one of the
 * devices is in progress. */
cl_int rt_program_build(cl_program p, cl_uint n, const cl_device_id *devices, const char *options,
                        rt_program_notify_fn notify, void *user_data);
cl_int rt_program_compile(cl_program p, cl_uint n, const cl_device_id *devices, const char *options,
                          cl_uint nheaders, const cl_program *headers, const char **header_names,
                          rt_program_notify_fn notify, void *user_data);
/* Returns the new program (also when the link fails: *err is then
 * CL_LINK_PROGRAM_FAILURE) or NULL with *err set. */
cl_program rt_program_link(cl_context ctx, cl_uint n, const cl_device_id *devices, const char *options,
                           cl_uint ninputs, const cl_program *inputs, rt_program_notify_fn notify,
                           void *user_data, cl_int *err);

/* What the info queries read (icd/ answers them). */
cl_uint rt_program_refcount(cl_program p);
const cl_device_id *rt_program_devices(cl_program p, cl_uint *n);
const char *rt_program_source(cl_program p);   /* NULL unless made from source */
/* Each device's binary size, or copies each device's binary into dst[i]
 * (when not NULL): p->ndevices entries, read under the program's lock.  A
 * binary holds every kernel's code, so the kernels without code get it
 * first: CL_OUT_OF_RESOURCES (or CL_OUT_OF_HOST_MEMORY) when that fails. */
cl_int rt_program_binary_sizes(cl_program p, size_t *sizes);
cl_int rt_program_copy_binaries(cl_program p, unsigned char **dst);
/* False when p has no executable; else *n is the number of kernels of its
 * first executable and names (when not NULL) receives them, ';' separated
 * (names->s NULL when out of memory). */
bool rt_program_kernels(cl_program p, size_t *n, rt_str *names);
/* What clGetProgramBuildInfo reports for one device of p (a sub-device that
 * was never built for itself reports its nearest ancestor's build). */
typedef struct rt_build_view {
  cl_build_status status;
  cl_program_binary_type binary_type;
  const char *options, *log;       /* "" when none */
  size_t global_var_bytes;         /* 0 unless executable */
} rt_build_view;
/* Calls fn(view, ctx) with p's lock held (the strings live only that long)
 * and returns what fn returns.  dev is a device of p. */
cl_int rt_program_build_view(cl_program p, cl_device_id dev, cl_int (*fn)(const rt_build_view *, void *),
                             void *ctx);

/* The executable build that runs p's kernels on dev: dev's own, else that of
 * the nearest parent device of the program (a parent's binary serves its
 * sub-devices).  NULL when there is none.  Call with kernels attached (the
 * build is then stable). */
const rt_build *rt_program_executable_for(cl_program p, cl_device_id dev);

/* True when p has an executable for at least one device. */
bool rt_program_has_executable(cl_program p);
cl_context rt_program_context(cl_program p);
rt_program_origin rt_program_origin_of(cl_program p);

/* ---------------------------------------------------------------------------
 * Kernels (runtime/kernel.c)
 * ------------------------------------------------------------------------- */
cl_kernel rt_kernel_create(cl_program p, const char *name, cl_int *err);
/* Creates every kernel of p into out (NULL: only counts them).  icd/ checked
 * that p has an executable and that n covers its kernels. */
cl_int rt_kernels_create_all(cl_program p, cl_uint n, cl_kernel *out, cl_uint *nret);
cl_kernel rt_kernel_clone(cl_kernel k, cl_int *err);
void rt_kernel_retain(cl_kernel k);
void rt_kernel_release(cl_kernel k);
cl_program rt_kernel_program(cl_kernel k);
/* The kernel's metadata: name, arguments, reqd_work_group_size... */
const cc_kernel_info *rt_kernel_meta(cl_kernel k);
/* Number of kernels of p's first executable. */
size_t rt_program_num_kernels(cl_program p);

/* Argument setters (icd/ checked kind, size and the object's type). */
void rt_kernel_set_arg_mem(cl_kernel k, cl_uint i, cl_mem m);
void rt_kernel_set_arg_local(cl_kernel k, cl_uint i, size_t size);
void rt_kernel_set_arg_bytes(cl_kernel k, cl_uint i, const void *value, size_t size);

/* What the info queries read (icd/ answers them): the metadata of k's
 * kernel in the executable that runs it on dev, whether argument information
 * is available (-cl-kernel-arg-info), the API reference count. */
const cc_kernel_info *rt_kernel_meta_for(cl_kernel k, cl_device_id dev);
bool rt_kernel_has_arg_info(cl_kernel k);
cl_uint rt_kernel_refcount(cl_kernel k);

/* CL_KERNEL_WORK_GROUP_SIZE of k on dev. */
size_t rt_kernel_max_work_group_size(cl_kernel k, cl_device_id dev);
/* False when k's reqd_work_group_size is beyond dev's limits (a dimension
 * above CL_DEVICE_MAX_WORK_ITEM_SIZES, or a product above
 * CL_DEVICE_MAX_WORK_GROUP_SIZE or beyond 64 bits); true without one. */
bool rt_kernel_reqd_fits(cl_kernel k, cl_device_id dev);
/* Bytes of __local memory one group needs: static + each __local argument
 * (UINT64_MAX when the sum does not fit). */
uint64_t rt_kernel_local_mem(cl_kernel k);
/* Index of the first argument not set, or -1 when all are. */
int rt_kernel_first_unset_arg(cl_kernel k);
/* True when every argument of k's program allows non-uniform groups on dev. */
bool rt_kernel_nonuniform_ok(cl_kernel k, cl_device_id dev);
/* True when the device supports sub-groups (the OpenCL C 3.0 feature
 * __opencl_c_subgroups; not cl_khr_subgroups, which requires independent
 * forward progress of the sub-groups of a group). */
bool rt_device_has_subgroups(cl_device_id dev);

/* ---------------------------------------------------------------------------
 * NDRange commands (runtime/ndrange.c)
 * ------------------------------------------------------------------------- */
/* Enqueues k on q as a command of type (CL_COMMAND_NDRANGE_KERNEL or
 * CL_COMMAND_TASK); arguments all checked by icd/.  global NULL or a zero
 * size: the command does nothing.  local NULL: the runtime picks the local
 * size (the execution policy lives in runtime/ndrange.c). */
cl_int rt_enqueue_ndrange(cl_command_queue q, cl_command_type type, cl_kernel k, cl_uint work_dim,
                          const size_t *offset, const size_t *global, const size_t *local, cl_uint nwait,
                          const cl_event *wait, cl_event *event);

#endif

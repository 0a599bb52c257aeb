/* LaneCL runtime: the CL objects and what they do.  The icd/ layer validates
 * arguments and calls in here; the runtime assumes valid input. */
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

/* ---------------------------------------------------------------------------
 * Info queries: one helper does the size check, size_ret and the copy.
 * Returns CL_SUCCESS or CL_INVALID_VALUE (dst too small).
 * ------------------------------------------------------------------------- */
cl_int rt_info(void *dst, size_t dst_size, size_t *size_ret, const void *src, size_t n);
cl_int rt_info_str(void *dst, size_t dst_size, size_t *size_ret, const char *s);
#define RT_INFO_VAL(dst, dst_size, size_ret, T, v) \
  ({ T rt_info_tmp_ = (v); rt_info((dst), (dst_size), (size_ret), &rt_info_tmp_, sizeof(T)); })

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
/* Sub-devices: validates the partition properties against dev (CL_INVALID_VALUE,
 * CL_DEVICE_PARTITION_FAILED, CL_INVALID_DEVICE_PARTITION_COUNT as the spec of
 * clCreateSubDevices says), then creates the sub-devices into out (when out is
 * not NULL; num_entries must be large enough) and writes their number. */
cl_int rt_device_partition(cl_device_id dev, const cl_device_partition_property *props,
                           cl_uint num_entries, cl_device_id *out, cl_uint *num_out);
/* Partition types and affinity domains dev can be split along
 * (CL_DEVICE_PARTITION_PROPERTIES, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
 * returns the number written to props (at most 3). */
size_t rt_device_partition_types(cl_device_id dev, cl_device_partition_property props[3]);
cl_device_affinity_domain rt_device_affinity_domains(cl_device_id dev);
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

#endif

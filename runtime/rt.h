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

/* Read an environment setting LANECL_<name>; NULL when unset. */
const char *rt_env(const char *name);

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
 * Platform and device
 * ------------------------------------------------------------------------- */
struct _cl_platform_id {
  rt_object obj;
};

struct _cl_device_id {
  rt_object obj;
  struct _cl_device_id *parent;      /* NULL for the root device */
  cl_uint compute_units;             /* cores */
  int *cores;                        /* sched_topology core indexes, compute_units of them */
  sched_pool *pool;                  /* created lazily (rt_device_pool) */
  pthread_mutex_t pool_lock;
  cl_device_partition_property *partition_props; /* as given to clCreateSubDevices (sub-devices) */
  size_t npartition_props;
  cl_device_affinity_domain affinity_domain;     /* for BY_AFFINITY_DOMAIN sub-devices */
  /* Filled by rt_device_init from hwloc + CPUID */
  char name[128];
  char vendor[64];
  unsigned simd_bits;                /* 512 / 256 / 128 */
  char llvm_cpu[64];
  char llvm_features[1024];
  uint64_t global_mem_size;
  uint64_t max_alloc;
  uint64_t local_mem_size;
  size_t max_work_group_size;
  cc_device_desc cc;                 /* for the compiler */
};

extern struct _cl_platform_id rt_platform;
extern struct _cl_device_id rt_root_device;

/* Once per process (pthread_once inside): fills the platform and root device. */
void rt_init(void);
/* The pool of workers of a device (created on first use). */
sched_pool *rt_device_pool(cl_device_id dev);
/* Sub-devices (runtime/device.c). */
cl_int rt_device_partition(cl_device_id dev, const cl_device_partition_property *props,
                           cl_uint num_entries, cl_device_id *out, cl_uint *num_out);
void rt_device_retain(cl_device_id d);   /* no-ops for the root device */
void rt_device_release(cl_device_id d);

/* Strings the platform and device report (runtime/device.c). */
extern const char rt_extensions[];       /* space separated */
extern const char rt_platform_extensions[];

/* ---------------------------------------------------------------------------
 * Context
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
  cl_device_id *devices;
  cl_context_properties *props;     /* copy, 0-terminated, NULL when none given */
  size_t nprops;                    /* entries including the terminating 0 */
  rt_ctx_notify_fn notify;
  void *notify_data;
  pthread_mutex_t lock;
  struct rt_ctx_destructor *destructors;  /* pushed at the head: run in LIFO order */
};

cl_context rt_context_create(const cl_device_id *devices, cl_uint n, const cl_context_properties *props,
                             rt_ctx_notify_fn notify, void *user_data, cl_int *err);
void rt_context_retain(cl_context c);
void rt_context_release(cl_context c);

#endif

/* Programs, kernels and NDRange commands (runtime/program.c, cache.c,
 * kernel.c, ndrange.c).  icd/program.c, icd/kernel.c and
 * icd/enqueue_kernel.c validate, then call in here. */
#ifndef LANECL_RT_PROGRAM_H
#define LANECL_RT_PROGRAM_H

#include "runtime/rt.h"

/* ---------------------------------------------------------------------------
 * Programs
 * ------------------------------------------------------------------------- */
typedef enum rt_program_origin {
  RT_PROG_SOURCE = 1,   /* clCreateProgramWithSource */
  RT_PROG_BINARY,       /* clCreateProgramWithBinary */
  RT_PROG_LINKED,       /* clLinkProgram */
} rt_program_origin;

/* Build state of a program for one of its devices.  Written by a build under
 * program->lock; stable while kernels are attached (a rebuild is refused). */
typedef struct rt_build {
  cl_device_id device;
  cl_build_status status;
  cl_program_binary_type binary_type;
  char *options;           /* options of the last build/compile/link; "" when none */
  char *log;               /* its log; "" when none */
  cc_blob blob;            /* container bytes; size 0 when none */
  cc_binary bin;           /* blob parsed (kernel metadata); nkernels 0 when none */
  bool nonuniform;         /* non-uniform work-groups allowed (OpenCL C 2.0+, no -cl-uniform-work-group-size) */
  void *module;            /* dlopen handle of the native code (executables) */
  int module_fd;           /* its memfd, open while loaded (glibc knows a module by its
                            * path /proc/self/fd/N: N must not be reused meanwhile); -1 none */
  lanecl_wg_fn *fns;       /* per kernel of bin: __lanecl_wg_<name> */
  uint64_t global_var_bytes; /* writable data of the native module */
} rt_build;

typedef void(CL_CALLBACK *rt_program_notify_fn)(cl_program, void *);

struct _cl_program {
  rt_object obj;
  cl_context ctx;            /* retained */
  rt_program_origin origin;
  char *source;              /* NUL-terminated; NULL unless RT_PROG_SOURCE */
  cl_uint ndevices;
  cl_device_id *devices;
  rt_build *builds;          /* ndevices of them, same order as devices */
  pthread_mutex_t lock;      /* guards builds[] and nkernels */
  cl_uint nkernels;          /* kernel objects attached */
};

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

cl_int rt_program_info(cl_program p, cl_program_info param, size_t size, void *value, size_t *size_ret);
cl_int rt_program_build_info(cl_program p, cl_device_id dev, cl_program_build_info param, size_t size,
                             void *value, size_t *size_ret);

/* The executable build that runs p's kernels on dev: dev's own, else that of
 * the nearest parent device of the program (a parent's binary serves its
 * sub-devices).  NULL when there is none.  Call with kernels attached (the
 * build is then stable). */
const rt_build *rt_program_executable_for(cl_program p, cl_device_id dev);
/* True when p has an executable for at least one device. */
bool rt_program_has_executable(cl_program p);
/* The first executable build of p, or NULL (p->lock held, or kernels attached). */
const rt_build *rt_program_first_executable(cl_program p);
bool rt_build_is_executable(const rt_build *b);
/* Index of the kernel named name in b's container, or UINT32_MAX. */
uint32_t rt_build_find_kernel(const rt_build *b, const char *name);

/* The compiler (runtime/program.c): loaded on the first call, never before.
 * NULL when it can't be loaded; *why then says why. */
const cc_api *rt_compiler(const char **why);

/* ---------------------------------------------------------------------------
 * Cache of built executables (runtime/cache.c).  LANECL_CACHE_DIR: the
 * directory, "off" disables; default $XDG_CACHE_HOME/lanecl or ~/.cache/lanecl.
 * ------------------------------------------------------------------------- */
/* Each part 128 bits; the entry's header holds them all and a lookup uses
 * an entry only when every part matches. */
typedef struct rt_cache_key {
  uint64_t h[2];                 /* of all the parts below: names the entry's file */
  uint64_t source[2], options[2], device[2];
  uint64_t compiler[2];          /* liblanecl_cc.so's build id */
  uint64_t builtins[2];          /* the builtins library's checksum */
  uint64_t runtime[2];           /* liblanecl.so's build id, the version, the entry format */
} rt_cache_key;

/* False when the cache is off (or the compiler, builtins or runtime can't
 * be identified). */
bool rt_cache_key_for(const cc_device_desc *dev, const char *source, const char *options,
                      rt_cache_key *key);
/* A valid executable container for the key's device (CC_BIN_EXECUTABLE of
 * device_key), or false.  An entry that is not exactly the key's, not whole
 * or not a regular file is ignored (the store after compiling replaces
 * it). */
bool rt_cache_lookup(const rt_cache_key *key, uint64_t device_key, cc_blob *out);
void rt_cache_store(const rt_cache_key *key, const cc_blob *blob);
/* The directory of liblanecl.so (for the compiler and the builtins). */
const char *rt_library_dir(void);

/* ---------------------------------------------------------------------------
 * Kernels (runtime/kernel.c)
 * ------------------------------------------------------------------------- */
typedef struct rt_kernel_arg {
  bool set;
  uint32_t offset;    /* of the value in the kernel's values block */
  uint32_t size;      /* bytes of the value there (0 for __local) */
  cl_mem mem;         /* CC_ARG_BUFFER / CC_ARG_IMAGE: the object (NULL: a NULL pointer) */
  uint64_t local_size;/* CC_ARG_LOCAL: bytes asked for */
} rt_kernel_arg;

struct _cl_kernel {
  rt_object obj;
  cl_program program;            /* retained; its kernel count includes this one */
  const cc_kernel_info *info;    /* metadata (of the program's first executable) */
  bool arg_info;                 /* clGetKernelArgInfo may answer */
  pthread_mutex_t lock;          /* guards args and values */
  rt_kernel_arg *args;           /* info->nargs of them */
  unsigned char *values;         /* argument values as the work-group ABI reads them */
  size_t values_size;
};

cl_kernel rt_kernel_create(cl_program p, const char *name, cl_int *err);
/* Creates every kernel of p; n must be >= the number (checked by icd/). */
cl_int rt_kernels_create_all(cl_program p, cl_uint n, cl_kernel *out, cl_uint *nret);
cl_kernel rt_kernel_clone(cl_kernel k, cl_int *err);
void rt_kernel_retain(cl_kernel k);
void rt_kernel_release(cl_kernel k);
/* Number of kernels of p's first executable. */
size_t rt_program_num_kernels(cl_program p);

/* Argument setters (icd/ checked kind, size and the object's type). */
void rt_kernel_set_arg_mem(cl_kernel k, cl_uint i, cl_mem m);
void rt_kernel_set_arg_local(cl_kernel k, cl_uint i, size_t size);
void rt_kernel_set_arg_bytes(cl_kernel k, cl_uint i, const void *value, size_t size);

cl_int rt_kernel_info(cl_kernel k, cl_kernel_info param, size_t size, void *value, size_t *size_ret);
cl_int rt_kernel_arg_info(cl_kernel k, cl_uint i, cl_kernel_arg_info param, size_t size, void *value,
                          size_t *size_ret);
cl_int rt_kernel_work_group_info(cl_kernel k, cl_device_id dev, cl_kernel_work_group_info param,
                                 size_t size, void *value, size_t *size_ret);
cl_int rt_kernel_sub_group_info(cl_kernel k, cl_device_id dev, cl_kernel_sub_group_info param,
                                size_t in_size, const void *in, size_t size, void *value,
                                size_t *size_ret);

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
/* True when the device supports sub-groups (cl_khr_subgroups). */
bool rt_device_has_subgroups(cl_device_id dev);

/* ---------------------------------------------------------------------------
 * NDRange (runtime/ndrange.c)
 * ------------------------------------------------------------------------- */
/* Local size for a NULL local_work_size: divides the global size when
 * uniform groups are required, vectorizes (x a multiple of the SIMD width
 * where possible) and gives every core work. */
void rt_ndrange_pick_local(cl_kernel k, cl_device_id dev, cl_uint work_dim, const size_t *global,
                           size_t *local);

/* Enqueues k on q as a command of type (CL_COMMAND_NDRANGE_KERNEL or
 * CL_COMMAND_TASK); arguments all checked by icd/.  global NULL or a zero
 * size: the command does nothing.  local must be resolved (never NULL). */
cl_int rt_enqueue_ndrange(cl_command_queue q, cl_command_type type, cl_kernel k, cl_uint work_dim,
                          const size_t *offset, const size_t *global, const size_t *local, cl_uint nwait,
                          const cl_event *wait, cl_event *event);

#endif

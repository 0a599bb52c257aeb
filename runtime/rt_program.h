/* Internals of programs and kernels shared by runtime/program.c, cache.c,
 * kernel.c and ndrange.c: the structs, the builds, the cache of executables.
 * Not for icd/: what it calls is declared in runtime/rt.h. */
#ifndef LANECL_RT_PROGRAM_H
#define LANECL_RT_PROGRAM_H

#include "runtime/rt.h"

/* ---------------------------------------------------------------------------
 * Programs
 * ------------------------------------------------------------------------- */

/* The key of a program's entry in the cache (runtime/cache.c, below).  Each
 * part 128 bits; the entry's header holds them all and a lookup uses an
 * entry only when every part matches. */
typedef struct rt_cache_key {
  uint64_t h[2];                 /* of all the parts below: names the entry's file */
  uint64_t source[2], options[2], device[2];
  uint64_t compiler[2];          /* liblanecl_cc.so's build id */
  uint64_t builtins[2];          /* the builtins library's checksum */
  uint64_t runtime[2];           /* liblanecl.so's build id, the version, the entry format */
} rt_cache_key;

/* Build state of a program for one of its devices.  Written by a build under
 * program->lock; stable while kernels are attached (a rebuild is refused),
 * but for the code a staged build makes per kernel (fns, modules, blob and
 * the kernel records' code fields: rt_program_compile_kernels). */
struct rt_build {
  cl_device_id device;
  cl_build_status status;
  cl_program_binary_type binary_type;
  char *options;           /* options of the last build/compile/link; "" when none */
  char *log;               /* its log; "" when none */
  cc_blob blob;            /* container bytes; size 0 when none */
  cc_binary bin;           /* blob parsed (kernel metadata); nkernels 0 when none */
  bool nonuniform;         /* non-uniform work-groups allowed (OpenCL C 2.0+, no -cl-uniform-work-group-size) */
  /* The native code: one module of every kernel's code (a whole
   * executable), or one per part of a staged one, more as kernels get their
   * code (rt_build_compile_kernels). */
  uint32_t nmodules;
  void **modules;          /* dlopen handles */
  int *module_fds;         /* their memfds, open while loaded (glibc knows a module by its
                            * path /proc/self/fd/N: N must not be reused meanwhile); -1 none */
  lanecl_wg_fn *fns;       /* per kernel of bin: __lanecl_wg_<name>; NULL: no code yet.
                            * Written under the program's lock, with an atomic release
                            * store once the kernel's record is complete; a launch reads
                            * it without the lock (rt_kernel_code) */
  uint64_t global_var_bytes; /* writable data of the native modules */
  bool cacheable;          /* built from source or a binary with the cache on: key names its entry */
  rt_cache_key key;
  cc_blob binary;          /* CL_PROGRAM_BINARIES of a staged executable, taken at the first
                            * query: the same bytes from then on, though blob grows */
  bool binary_cacheable;   /* binary_key names the entry of that binary: the code made
                            * since goes there too, for the process that loads it */
  rt_cache_key binary_key;
};

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

/* The first executable build of p, or NULL (p->lock held, or kernels attached). */
const rt_build *rt_program_first_executable(cl_program p);
bool rt_build_is_executable(const rt_build *b);
/* Index of the kernel named name in b's container, or UINT32_MAX. */
uint32_t rt_build_find_kernel(const rt_build *b, const char *name);
/* Makes sure that kernels which[0..n) of p (indices in the first
 * executable's container) have native code
 * in every executable build of p: a staged build gets the missing code from
 * the compiler, and its cache entry is updated.  launch (NULL: none), for
 * one kernel: the launch it is made for (cc_api.compile_kernels).  p->lock held.  CL_SUCCESS,
 * CL_OUT_OF_HOST_MEMORY, or CL_OUT_OF_RESOURCES when the compiler fails (its
 * log is added to the build log). */
cl_int rt_program_compile_kernels(cl_program p, const uint32_t *which, uint32_t n, const cc_launch_hint *launch);

/* The compiler (runtime/program.c): loaded on the first call, never before.
 * NULL when it can't be loaded; *why then says why. */
const cc_api *rt_compiler(const char **why);

/* ---------------------------------------------------------------------------
 * Cache of built executables (runtime/cache.c).  LANECL_CACHE_DIR: the
 * directory, "off" disables; default $XDG_CACHE_HOME/lanecl or ~/.cache/lanecl.
 * ------------------------------------------------------------------------- */

/* False when the cache is off (or the compiler, builtins or runtime can't
 * be identified). */
bool rt_cache_key_for(const cc_device_desc *dev, const char *source, const char *options,
                      rt_cache_key *key);
/* The same for a staged executable's binary (its bytes; the build options
 * of a binary change nothing): the entry holds the code its kernels get at
 * their first launch, in the process that made the binary or in one that
 * loaded it. */
bool rt_cache_key_for_binary(const cc_device_desc *dev, const cc_blob *binary, rt_cache_key *key);
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

/* The work-group function of kernel ki of build b (b an executable of k's
 * program), made now when a staged build has none yet (the kernel's first
 * launch, whose local size is local).  CL_SUCCESS, or rt_program_compile_kernels' error. */
cl_int rt_kernel_code(cl_kernel k, const rt_build *b, uint32_t ki, const uint64_t local[3], lanecl_wg_fn *fn);

#endif

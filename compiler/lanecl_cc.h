/* LaneCL compiler interface: values in, values out.
 *
 * The compiler turns OpenCL C source (or IR objects) into modules.  It never
 * sees a CL object.  The runtime loads liblanecl_cc.so with dlopen on the
 * first build and calls it through cc_api (see cc_get_api).  Everything else
 * in this header (the binary format, the work-group ABI) is plain data that
 * the runtime uses without loading LLVM; cc_binary.c, which reads and writes
 * the binary container, is LLVM-free and linked into both libraries.
 */
#ifndef LANECL_CC_H
#define LANECL_CC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CC_API_VERSION 2

/* ---- status codes (the runtime maps them to CL error codes) ---- */
enum cc_status {
  CC_OK = 0,
  CC_BUILD_FAILED = 1,     /* CL_BUILD_PROGRAM_FAILURE / CL_COMPILE_PROGRAM_FAILURE */
  CC_INVALID_OPTIONS = 2,  /* CL_INVALID_BUILD_OPTIONS / CL_INVALID_COMPILER_OPTIONS / CL_INVALID_LINKER_OPTIONS */
  CC_LINK_FAILED = 3,      /* CL_LINK_PROGRAM_FAILURE */
  CC_INVALID_BINARY = 4,   /* CL_INVALID_BINARY */
  CC_OUT_OF_MEMORY = 5,
  CC_INTERNAL = 6,
};

/* ---- what the compiler needs to know of the device ---- */
typedef struct cc_device_desc {
  const char *cpu_name;       /* LLVM CPU name, e.g. "znver4"; NULL = host */
  const char *cpu_features;   /* LLVM feature string; NULL = host */
  unsigned simd_bits;         /* 512 on AVX-512, 256 on AVX2, 128 on SSE */
  size_t max_work_group_size; /* device maximum */
  const char *cl_ext;         /* value for clang's -cl-ext= (features/extensions the device has) */
} cc_device_desc;

/* A blob owned by whoever received it; free with cc_blob_free(). */
typedef struct cc_blob {
  void *data;
  size_t size;
} cc_blob;

typedef struct cc_header {
  const char *name;   /* include name as given to clCompileProgram */
  const char *source;
} cc_header;

/* ---- the binary container ----
 * Every program binary LaneCL writes (CL_PROGRAM_BINARIES, the disk cache):
 *   "LANECLB\0" u32 format_version u32 kind u64 device_key
 *   u32 nkernels, per kernel a cc_kernel_info record (see cc_binary.c)
 *   u64 bitcode size, bitcode (the linked SPIR-flavoured IR, kept for relinking)
 *   u64 native size, native code (an ELF shared object of every kernel;
 *       EXECUTABLE only, and 0 in a staged one)
 *   u64 stage size, stage (a staged EXECUTABLE: the module with its
 *       work-group functions, before code generation; 0 once every kernel
 *       has code, and in a whole one)
 *   u32 nparts, per part u32 nkernels, nkernels x u32 kernel index,
 *       u64 size, an ELF shared object of those kernels' code
 *   u64 FNV-1a 64 checksum of all bytes before it
 * An executable is whole (native: every kernel's code, built at once) or
 * staged (cc_api.build_staged: the code of each kernel comes later, in
 * parts, from cc_api.compile_kernels; the runtime asks for a kernel's code
 * at the kernel's first launch).
 */
enum cc_binary_kind {
  CC_BIN_OBJECT = 1,      /* clCompileProgram output */
  CC_BIN_LIBRARY = 2,     /* clLinkProgram -create-library output */
  CC_BIN_EXECUTABLE = 3,  /* clBuildProgram / clLinkProgram output */
};

enum cc_addr_space { CC_AS_PRIVATE = 0, CC_AS_GLOBAL = 1, CC_AS_CONSTANT = 2, CC_AS_LOCAL = 3, CC_AS_GENERIC = 4 };
enum cc_arg_kind {
  CC_ARG_SCALAR = 0,   /* by value: scalars, vectors, structs */
  CC_ARG_BUFFER = 1,   /* __global or __constant pointer: value is a cl_mem (or NULL) */
  CC_ARG_LOCAL = 2,    /* __local pointer: value is a size */
  CC_ARG_SAMPLER = 3,
  CC_ARG_IMAGE = 4,
};
enum cc_access_qual { CC_ACCESS_NONE = 0, CC_ACCESS_READ_ONLY = 1, CC_ACCESS_WRITE_ONLY = 2, CC_ACCESS_READ_WRITE = 3 };
enum cc_type_qual { CC_TQ_CONST = 1, CC_TQ_RESTRICT = 2, CC_TQ_VOLATILE = 4, CC_TQ_PIPE = 8 };

typedef struct cc_kernel_arg {
  char *name;         /* "" when unknown */
  char *type_name;    /* e.g. "float4*", "int" */
  uint32_t kind;      /* cc_arg_kind */
  uint32_t addr_space;/* cc_addr_space of the pointee for pointers, CC_AS_PRIVATE otherwise */
  uint32_t access_qual;
  uint32_t type_qual; /* cc_type_qual bits */
  uint32_t size;      /* bytes of the argument value as set by clSetKernelArg (pointers: sizeof(void*)) */
  uint32_t align;
} cc_kernel_arg;

typedef struct cc_kernel_info {
  char *name;
  char *attributes;             /* source attributes as a string, "" if none */
  uint32_t nargs;
  cc_kernel_arg *args;
  uint64_t reqd_work_group_size[3];  /* 0 0 0 when absent */
  uint64_t work_group_size_hint[3];
  char *vec_type_hint;          /* "" when absent */
  uint64_t local_mem_bytes;     /* static __local variables */
  uint64_t private_mem_bytes;   /* stack per work-item (estimate) */
  uint64_t frame_bytes;         /* per-work-item context bytes kept across barriers */
  uint32_t simd_width;          /* lanes reached by the vectorizer (1 = scalar) */
  uint32_t nregions;            /* barrier/collective-delimited regions */
  uint32_t uses_barriers;       /* 1 when the kernel has barriers or collectives */
  uint32_t flags;               /* CC_KFLAG_* */
  uint64_t stream_bytes;        /* bytes per work-item of the stores that may stream (0: none) */
  uint32_t sub_group_size;      /* work-items per sub-group (a row of x in chunks of this many);
                                   intel_reqd_sub_group_size when given, else the lane width */
  uint32_t reqd_sub_group_size; /* intel_reqd_sub_group_size, 0 when absent */
  char *report;                 /* human-readable vectorizer report, "" when none */
} cc_kernel_info;

/* cc_kernel_info.flags */
#define CC_KFLAG_ARG_INFO 1u     /* built with -cl-kernel-arg-info (arg names/types were asked for) */
#define CC_KFLAG_OPT_DISABLE 2u  /* built with -cl-opt-disable */

/* The code of some kernels of a staged executable. */
typedef struct cc_native_part {
  uint32_t nkernels;
  uint32_t *kernels;     /* indices into cc_binary.kernels */
  cc_blob code;          /* ELF shared object exporting their work-group functions */
} cc_native_part;

typedef struct cc_binary {
  uint32_t kind;         /* cc_binary_kind */
  uint64_t device_key;
  uint32_t nkernels;
  cc_kernel_info *kernels;
  cc_blob bitcode;
  cc_blob native;        /* ELF shared object of every kernel (a whole EXECUTABLE) */
  cc_blob stage;         /* a staged EXECUTABLE: bitcode the missing kernels' code is made from */
  uint32_t nparts;
  cc_native_part *parts; /* a staged EXECUTABLE: the code made so far */
} cc_binary;

/* Exported by liblanecl_cc.so, for the tools that link it (lanecl-cc).
 * The runtime, which loads the compiler only when it builds, compiles
 * cc_binary.c into itself, where these stay hidden. */
#ifdef LANECL_CC_BUILDING
#define CC_PUBLIC __attribute__((visibility("default")))
#else
#define CC_PUBLIC
#endif

/* LLVM-free (cc_binary.c). */
CC_PUBLIC int cc_binary_write(const cc_binary *bin, cc_blob *out);            /* CC_OK or CC_OUT_OF_MEMORY */
CC_PUBLIC int cc_binary_read(const void *data, size_t size, cc_binary *out);  /* CC_OK or CC_INVALID_BINARY */
CC_PUBLIC void cc_binary_free(cc_binary *bin);
CC_PUBLIC void cc_blob_free(cc_blob *b);
CC_PUBLIC uint64_t cc_hash64(const void *data, size_t size, uint64_t seed);   /* FNV-1a 64 */
/* What cc_binary.device_key holds: a hash of dev's fields (NULL cpu name /
 * features hash as "host") and the container version. */
CC_PUBLIC uint64_t cc_device_key(const cc_device_desc *dev);

/* ---- the work-group ABI between generated code and the runtime ----
 * For kernel K the native module exports
 *     void __lanecl_wg_K(void *const *args, const lanecl_wg_ctx *ctx);
 * which runs one whole work-group.  args[i] points at argument i's value: for
 * CC_ARG_BUFFER a void* holding the buffer's address (or NULL), for
 * CC_ARG_SCALAR the bytes of the value, for CC_ARG_LOCAL it is unused and the
 * group's __local block is ctx->local_args[i].
 */
#define LANECL_WG_PREFIX "__lanecl_wg_"

typedef struct lanecl_wg_ctx {
  uint64_t group_id[3];
  uint64_t local_size[3];          /* actual size of this group (smaller for the last, non-uniform one) */
  uint64_t enqueued_local_size[3];
  uint64_t num_groups[3];
  uint64_t global_size[3];
  uint64_t global_offset[3];
  uint32_t work_dim;
  uint32_t flags;                  /* LANECL_WG_* for this launch */
  void *frame;                     /* frame_bytes * local work-items, values live across barriers */
  void *coll_buf;                  /* 16 * max_work_group_size bytes, for collectives (results, operands) */
  void *const *local_args;         /* indexed by argument index */
  void *printf_buf;                /* reserved */
  /* Groups this call runs, one after the other: group_id[0], group_id[0] + 1,
   * ... (0 or 1: one).  All full-size (local_size == enqueued_local_size),
   * in one row of x; they share frame, coll_buf and local memory. */
  uint64_t group_count;
  /* Where this call's memory is, for to_global, to_local and to_private of
   * a generic pointer: the block of the __local arguments, the running
   * thread's stack (private variables) and the frame's bytes (private
   * arrays kept across barriers).  Static __local variables are the
   * program's thread-local variables; the kernel knows those itself. */
  const void *local_lo, *local_hi;
  const void *stack_lo, *stack_hi;
  uint64_t frame_size;
} lanecl_wg_ctx;

/* lanecl_wg_ctx.flags */
#define LANECL_WG_STREAM 1u  /* wide __global stores may stream (cc_stream.c; the runtime decides per launch) */
/* The launch's buffer arguments are pairwise disjoint memory: no two of
 * them (buffers, sub-buffers) overlap and none is an SVM pointer.  The code
 * may then treat them as restrict (a copy of a lane loop, cc_wg_state.c). */
#define LANECL_WG_DISJOINT 2u

typedef void (*lanecl_wg_fn)(void *const *args, const lanecl_wg_ctx *ctx);

/* ---- the compiler entry points (liblanecl_cc.so) ---- */
/* What compile_kernels may know of the launch a kernel's code is made for
 * (its first).  The code still runs every launch; the compiler leaves out
 * what only other launches would use and costs no more than a slower path
 * there: the general image path inline (the formats select a copy in which
 * every access has a format), the copy for groups of one dimension (the
 * launch's groups have more). */
typedef struct cc_launch_hint {
  const uint32_t *image_formats; /* per argument of the kernel: order << 16 | type of an image
                                  * (cl_image_format), else 0; NULL: not known */
  uint64_t local_size[3];        /* the launch's local size (1 in unused dimensions); 0: not known */
} cc_launch_hint;

typedef struct cc_api {
  uint32_t api_version;
  const char *version_string;    /* compiler version, part of cache keys */
  /* Source to CC_BIN_OBJECT.  log is always set (maybe ""), caller frees with free(). */
  int (*compile)(const cc_device_desc *dev, const char *source, const char *options,
                 const cc_header *headers, size_t nheaders, cc_blob *out, char **log);
  /* Objects/libraries (container blobs) to CC_BIN_LIBRARY (create_library) or CC_BIN_EXECUTABLE. */
  int (*link)(const cc_device_desc *dev, const cc_blob *inputs, size_t ninputs,
              const char *options, int create_library, cc_blob *out, char **log);
  /* compile + link to CC_BIN_EXECUTABLE. */
  int (*build)(const cc_device_desc *dev, const char *source, const char *options, cc_blob *out,
               char **log);
  /* The same build up to code generation: every error of `build` is found
   * here, and the result is a staged CC_BIN_EXECUTABLE whose kernels get
   * their code from compile_kernels.  A program that must be compiled whole
   * (writable program-scope variables, shared by its kernels) comes back
   * whole, as from `build`. */
  int (*build_staged)(const cc_device_desc *dev, const char *source, const char *options, cc_blob *out,
                      char **log);
  /* The code of kernels which[0..n) (indices, none of them in a part yet)
   * of a staged executable: out is the container with one more part holding
   * it (and those kernels' records completed: stream_bytes, report,
   * simd_width).  launch, when not NULL and n is 1: the launch the code
   * is made for (cc_launch_hint); the code runs every launch, and is made
   * cheapest to build for that one.  A failure here is an internal error of
   * the compiler. */
  int (*compile_kernels)(const cc_device_desc *dev, const cc_blob *staged, const uint32_t *which, uint32_t n,
                         const cc_launch_hint *launch, cc_blob *out, char **log);
  /* Textual IR or assembly of a container's code, for lanecl-cc. what: 0 = LLVM IR, 1 = asm. */
  int (*disassemble)(const cc_device_desc *dev, const cc_blob *binary, int what, char **text);
  /* The target the compiler chose for dev: its LLVM CPU name and feature
   * string ("+avx2,-avx512f,..."; a later entry of a name wins), both
   * malloc'd (caller frees).  CC_OK or CC_OUT_OF_MEMORY. */
  int (*target)(const cc_device_desc *dev, char **cpu, char **features);
} cc_api;

typedef const cc_api *(*cc_get_api_fn)(void);
const cc_api *cc_get_api(void);  /* exported by liblanecl_cc.so */

/* The builtins library prepared at build time (lanecl-cc --prepare-builtins):
 * the bitcode in, with the attributes and layout the compiler links
 * against, split into shards, to out.  *log (malloc'd) says what went
 * wrong.  Exported by liblanecl_cc.so. */
CC_PUBLIC int cc_prepare_builtins_file(const char *in, const char *out, char **log);

#ifdef __cplusplus
}
#endif
#endif

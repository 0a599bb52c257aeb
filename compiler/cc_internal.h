/* Internal interfaces between the compiler's own files (never included
 * outside compiler/ and tools/lanecl-cc). */
#ifndef LANECL_CC_INTERNAL_H
#define LANECL_CC_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "compiler/lanecl_cc.h"

/* Pipeline (cc_api.c orchestrates):
 *   cc_frontend   OpenCL C -> SPIR-flavoured bitcode (clang-19 -cc1, spir64 triple)
 *   cc_meta       kernel metadata (args, attributes) from the SPIR module
 *   cc_prepare    retarget to the host (triple, datalayout, C calling convention
 *                 everywhere), strip target-cpu/features, every non-kernel function
 *                 internal + alwaysinline, run always-inline so each kernel is one function
 *   cc_wg_generate  per kernel: work-item builtins lowered, barrier/collective regions,
 *                 frame, the exported work-group function __lanecl_wg_<name>
 *   cc_link_builtins  lazy link of lanecl_builtins.bc (already prepared at build time)
 *   cc_optimize   internalize all but __lanecl_wg_*, default<O3> (loop vectorizer on)
 *   cc_emit_shared_object  object file -> ld -shared -> ELF bytes
 *   (a program of several kernels: optimize + codegen in parts, one thread
 *   each, their objects linked together; cc_backend.c)
 */

/* The host target machine for dev (cpu name / features / prefer-vector-width). */
LLVMTargetMachineRef cc_target_machine(const cc_device_desc *dev, int opt_level);
/* What that target machine gets: the CPU name, and the feature string
 * (malloc'd; NULL when out of memory): dev's, or the host's limited to
 * dev->simd_bits. */
const char *cc_target_cpu(const cc_device_desc *dev);
char *cc_target_features(const cc_device_desc *dev);

/* Retarget a SPIR module to the host in place (also used for the builtins at build time). */
int cc_prepare(LLVMModuleRef m, LLVMTargetMachineRef tm, char **err);

/* Work-group function generation (cc_wg.c).  m is prepared (host triple, each
 * kernel fully inlined).  For each kernel in kinfo[0..nkernels) emits
 *   void __lanecl_wg_<name>(void *const *args, const lanecl_wg_ctx *ctx)
 * and fills kinfo[i].frame_bytes, nregions, uses_barriers, simd_width (the
 * width the lane loops are asked to vectorize at, until cc_wg_verdicts)
 * and report.  Leaves calls to
 * the collective combine helpers of builtins/ (see builtins/collectives.cl)
 * as declarations for cc_link_builtins to resolve.  opt_disable: -cl-opt-disable. */
int cc_wg_generate(LLVMModuleRef m, LLVMTargetMachineRef tm, const cc_device_desc *dev,
                   cc_kernel_info *kinfo, uint32_t nkernels, int opt_disable, char **err);

/* After cc_link_builtins, before cc_optimize (cc_wg.c): the work-group
 * functions of kernels that call builtins on vectors (length(float4), ...)
 * get those inlined and split into scalars, so that the loop vectorizer can
 * widen their lane loops; lane loops around inner loops are vectorized
 * (LLVM's VPlan-native path, cc_wg_outer.c).  Runs no pass when no kernel
 * needs it. */
int cc_wg_finish(LLVMModuleRef m, LLVMTargetMachineRef tm, int opt_disable, char **err);

/* After cc_optimize, before code generation (cc_wg_late.c): masked gathers
 * from one address in the work-group functions become one scalar load and a
 * broadcast (wg_uniform_gathers); on AVX-512, splats
 * of one lane (not lane 0) of 16 x 32-bit vectors become one vpermd
 * (llvm.x86.avx512.permvar) instead of the two shuffles x86 lowering picks.
 * Returns how many were rewritten. */
int cc_wg_late_shuffles(LLVMModuleRef m, LLVMTargetMachineRef tm);
int cc_wg_half_shuffles(LLVMTargetMachineRef tm);
/* A work-group function attribute: it has the chunk loops of a fused scan
 * or of packed / spanned groups (cc_wg.c), which cc_stream.c leaves alone. */
#define CC_ATTR_CHUNK_LOOPS "lanecl-chunk-loops"

/* The region lines of a kernel's report that handed the lane loop to the
 * loop vectorizer end in CC_LANE_LOOP_PENDING.  After the back end,
 * cc_wg_verdicts (cc_wg_outer.c) puts there what LLVM did, from remarks
 * (cc_diag.remarks: each lane loop's remarks are located at "<kernel>:<state
 * + 1>:1"): "lane loop vectorized, width N" or "lane loop not vectorized:
 * <reason>", adds a summary line, and sets simd_width to the widest width
 * reached (1 when none). */
#define CC_LANE_LOOP_PENDING "lane loop: vectorizer verdict pending"
void cc_wg_verdicts(cc_kernel_info *kinfo, uint32_t nkernels, const char *remarks);

/* Names the generated code calls in the builtins library (builtins/collectives.cl):
 *   void __lanecl_wg_scan_inclusive_<op>_<ty>(__local-or-private void *buf, ulong n)  in place
 *   void __lanecl_wg_scan_exclusive_<op>_<ty>(void *buf, ulong n)                     in place
 *   void __lanecl_wg_reduce_<op>_<ty>(void *buf, ulong n)          result in element 0
 *   void __lanecl_wg_all(int *buf, ulong n), __lanecl_wg_any(int *buf, ulong n): result in buf[0]
 * op: add min max mul and or xor logical_and logical_or logical_xor
 * ty: i32 u32 i64 u64 f32 f64 (h16 with cl_khr_fp16); buf holds n elements of ty,
 * packed (4 bytes for i32/u32/f32, 8 for the others), in linear local id order.
 * After cc_prepare these are plain C-convention functions taking (ptr, i64). */

/* ===== Shared helpers (cc_util.c unless noted).  Conventions: an action
 * returns a cc_status; a `char **err` / `char **log` out-parameter, when set,
 * is a malloc'd NUL-terminated message the caller frees with free(). ===== */

/* A growing NUL-terminated string for logs.  Starts zeroed; s is NULL until
 * something is written; cc_str_take never returns NULL (it returns "" when
 * nothing was written or memory ran out). */
typedef struct cc_str {
  char *s;
  size_t len, cap;
  int oom;
} cc_str;
void cc_str_append(cc_str *b, const char *text, size_t n);
void cc_str_printf(cc_str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *cc_str_take(cc_str *b);
/* Appends text and a newline (when it lacks one) to a log; NULL or "": nothing. */
void cc_log_line(cc_str *log, const char *text);
/* *err = malloc'd printf-formatted message (for `char **err` outputs). */
void cc_set_err(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An LLVM context whose diagnostics (errors, warnings of the bitcode reader,
 * the linker, the back end) are appended to d->text instead of printed (or,
 * for errors, exit()).  Errors count in d->errors.  d must outlive the context. */
typedef struct cc_diag {
  cc_str text;
  int errors;
  cc_str remarks;  /* the loop vectorizer's remarks about loops with a location, one a line */
} cc_diag;
LLVMContextRef cc_context_create(cc_diag *d);
/* The cc_diag of a context of cc_context_create's, else NULL. */
cc_diag *cc_context_diag(LLVMContextRef ctx);
/* Adds a line to the remarks of ctx's cc_diag (when ctx is one of
 * cc_context_create's): how the compiler reports its own verdicts in the
 * remarks' format, "file:line:column: message". */
void cc_diag_note(LLVMContextRef ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* LLVM's targets initialised, once per process (pthread_once).  Every entry
 * point calls it; so do tools and tests that use LLVM directly. */
void cc_llvm_init(void);

/* A private temporary directory under $TMPDIR (or /tmp): path gets its name.
 * cc_tmpdir_remove deletes the files in it (one level) and the directory. */
int cc_tmpdir_create(char *path, size_t size);
void cc_tmpdir_remove(const char *path);
/* Writes/reads a whole file. */
int cc_write_file(const char *path, const void *data, size_t size);
int cc_read_file(const char *path, cc_blob *out);
/* Runs argv[0] (a path, no shell) with stdin from /dev/null and stdout+stderr
 * captured into *output (malloc'd); cwd NULL = ours.  Returns the exit status
 * (0..255), or -1 when it could not run or died of a signal (*output says why). */
int cc_spawn(const char *const *argv, const char *cwd, char **output);

/* Milliseconds on a monotonic clock; with LANECL_CC_TIMING set in the
 * environment, cc_timing prints "lanecl-cc: <what> <ms> ms" lines to stderr
 * (the phases of each build). */
double cc_now_ms(void);
void cc_timing(const char *what, double since_ms);

/* ===== Options (cc_frontend.c) ===== */
typedef struct cc_options {
  char **clang_args;  /* translated for clang -cc1 (each malloc'd) */
  size_t nclang_args;
  int cl_std;               /* 100 110 120 200 300 */
  int opt_disable;          /* -cl-opt-disable */
  int kernel_arg_info;      /* the user asked for -cl-kernel-arg-info */
  int denorms_are_zero, no_signed_zeros, unsafe_math, finite_math, fast_relaxed_math;
} cc_options;
/* Parses OpenCL compiler options (clCompileProgram / clBuildProgram).
 * CC_INVALID_OPTIONS with a log line naming the option that is wrong. */
int cc_parse_compile_options(const char *options, cc_options *o, char **log);
/* Linker options (clLinkProgram): only the math flags matter to the result. */
int cc_parse_link_options(const char *options, cc_options *o, int *create_library, char **log);
void cc_options_free(cc_options *o);

/* OpenCL C -> SPIR bitcode (cc_frontend.c).  Runs clang; *bitcode gets the
 * bytes, *log clang's diagnostics verbatim (always set).  CC_BUILD_FAILED
 * when clang reports errors. */
int cc_frontend(const cc_device_desc *dev, const char *source, const cc_options *o,
                const cc_header *headers, size_t nheaders, cc_blob *bitcode, char **log);

/* ===== Metadata (cc_meta.c) ===== */
/* Kernel infos of every kernel (spir_kernel function) of a SPIR module:
 * name, args, attributes, static local and private memory.  The
 * vectorizer's fields are left for cc_wg_generate: simd_width 1, frame_bytes,
 * nregions, uses_barriers 0, report NULL (cc_wg_generate sets a malloc'd one). */
int cc_meta_collect(LLVMModuleRef m, cc_kernel_info **kinfo, uint32_t *nkernels, char **err);
void cc_kernel_infos_free(cc_kernel_info *k, uint32_t n);  /* cc_binary.c */

/* ===== Prepare (cc_prepare.c) ===== */
/* cc_prepare also:
 *  - rewrites the OpenCL opaque types (clang's target("spirv.Image"...),
 *    "spirv.Sampler", "spirv.Event", "spirv.Pipe", ...) to plain `ptr`: image
 *    and sampler arguments and events are pointer-sized handles on the CPU;
 *  - makes kernel-scope __local variables (addrspace(3) globals) thread_local:
 *    a worker thread runs one work-group at a time from start to end, so the
 *    thread's copy is that work-group's local memory;
 *  - after inlining runs sroa, early-cse and simplifycfg on each kernel.
 * Address spaces stay (1 global, 2 constant, 3 local, 4 generic); the X86
 * back end treats them as one flat space. */
/* Build-time preparation of the builtins library: the same retargeting, but
 * every definition keeps its body and external ones become linkonce_odr so the
 * runtime's link copies only what a kernel uses. */
int cc_prepare_builtins(LLVMModuleRef m, LLVMTargetMachineRef tm, char **err);
/* lanecl-cc --prepare-builtins in.bc -o out.bc (cc_prepare_builtins_file, lanecl_cc.h)
 * prepares the library and writes it split into shards (cc_builtins.c):
 *   CC_BUILTINS_MAGIC, u32 version, u32 nshards, u32 nsymbols,
 *   nshards x {u64 offset, u64 size} (bitcode of each shard, offsets from the file start),
 *   nsymbols x {u32 shard, u32 name length, name bytes} (what each shard defines),
 *   the shards' bitcode, u64 FNV-1a 64 of all bytes before it.
 * A plain bitcode file is accepted in its place (linked whole, lazily). */
#define CC_BUILTINS_MAGIC "LANECLBS"
#define CC_BUILTINS_VERSION 1u
/* cc_prepare_builtins_file: see lanecl_cc.h. */
/* The triple every prepared module gets (the host's, normalised; static string). */
const char *cc_host_triple(void);

/* ===== Back end (cc_backend.c) ===== */
/* (cc_builtins.c) Links the builtins library into m lazily: the shards that
 * define what m lacks, only the definitions m reaches.  A missing library is
 * not an error here: cc_check_undefined then names what is missing. */
int cc_link_builtins(LLVMModuleRef m, char **err);
/* (cc_builtins.c) The builtins library's bytes, read once per process and
 * kept for its lifetime: $LANECL_BUILTINS, else lanecl_builtins.bc next to
 * liblanecl_cc.so, else in its lanecl/ sub-folder.  CC_INTERNAL if none,
 * CC_INVALID_BINARY if damaged. */
int cc_builtins_bytes(const void **data, size_t *size);
/* Internalizes all but the kernels' __lanecl_wg_<name>, drops dead globals,
 * runs default<O3> (loop and SLP vectorizer on; default<O0> with opt_disable). */
int cc_optimize(LLVMModuleRef m, LLVMTargetMachineRef tm, const cc_device_desc *dev,
                const cc_kernel_info *kinfo, uint32_t nkernels, int opt_disable, char **err);
/* (cc_vecmath.c) Before cc_wg_finish and cc_optimize: a float transcendental
 * of the library called from two places or more is kept out of line, with
 * its vector forms named for the loop vectorizer (linked from the library,
 * kept in llvm.compiler.used).  cc_vecmath_release, after O3, takes them out
 * of llvm.compiler.used and drops those no loop called. */
int cc_vecmath_out_of_line(LLVMModuleRef m, char **err);
void cc_vecmath_release(LLVMModuleRef m, LLVMTargetMachineRef tm);
/* (cc_widthcap.c) Before default<O3>: a lane loop (vectorize.enable, no
 * width) whose instructions (callees included) times the widest width the
 * vectorizer may pick for its narrowest loaded/stored type exceed a budget
 * gets llvm.loop.vectorize.width, never below simd_bits / 32; a big lane
 * loop that stores to a lane-invariant address under a condition loses
 * llvm.loop.vectorize.enable (the cost model decides).  Returns the number
 * of loops changed.  cc_lane_width_cap is the decision: the width, or
 * 0 for no cap. */
unsigned cc_cap_lane_widths(LLVMModuleRef m, unsigned simd_bits);
unsigned cc_lane_width_cap(unsigned insts, unsigned min_bits, unsigned simd_bits);
/* (cc_widthcap.c) A lane loop of f (vectorize.enable, no width, not yet
 * vectorized) that computes in half, on a target without native half
 * arithmetic (cc_native_half), gets llvm.loop.vectorize.width =
 * simd_bits / 32 (simd_bits 0: f's prefer-vector-width).  Returns the
 * number of loops changed; cc_half_lane_width is the decision (0: none). */
unsigned cc_half_lane_widths(LLVMValueRef f, unsigned simd_bits, int native_half);
unsigned cc_half_lane_width(int half_math, unsigned min_bits, unsigned simd_bits, int native_half);
int cc_native_half(LLVMTargetMachineRef tm);
/* (cc_half_fma.c) After default<O3>, without native half arithmetic: each
 * llvm.fmuladd or llvm.fma of half values with a factor +-2^k (k in
 * [-10, 10]) becomes one fma in float and one rounding to half (exactly the
 * fused half result).  Returns the number of calls rewritten. */
unsigned cc_half_fuse_pow2(LLVMModuleRef m, int native_half);
/* CC_BUILD_FAILED and one log line per undefined function that neither the
 * module nor libc/libm provides (memcpy, memset, memmove, memcmp, printf,
 * puts, putchar, abort, __tls_get_addr, the C99 math functions). */
int cc_check_undefined(LLVMModuleRef m, char **log);
/* Object file -> ld -shared -> the .so bytes; cc_emit_assembly: the assembly text. */
int cc_emit_shared_object(LLVMModuleRef m, LLVMTargetMachineRef tm, cc_blob *out, char **err);
int cc_emit_assembly(LLVMModuleRef m, LLVMTargetMachineRef tm, char **text, char **err);
/* The whole back end on a SPIR module m (consumed state: m is modified):
 * prepare, cc_wg_generate, link builtins, cc_wg_finish, optimize, check; then either the
 * shared object (native) or, with what != 0, text (1 asm, 2 optimized IR). */
int cc_backend(LLVMModuleRef m, const cc_device_desc *dev, cc_kernel_info *kinfo, uint32_t nkernels,
               int opt_disable, int what, cc_blob *native, char **text, char **log);
/* The back end of a staged build (cc_api.build_staged): up to the builtins
 * linked (every build error found), then the module's bitcode in stage; or,
 * for a module that must be compiled whole (writable program-scope
 * variables, an undefined function), the whole back end: native. */
int cc_backend_staged(LLVMModuleRef m, const cc_device_desc *dev, cc_kernel_info *kinfo, uint32_t nkernels,
                      int opt_disable, cc_blob *stage, cc_blob *native, char **log);
/* The rest of the back end on a stage module m, for kinfo's kernels only:
 * the shared object of their code (cc_api.compile_kernels). */
int cc_backend_kernels(LLVMModuleRef m, const cc_device_desc *dev, cc_kernel_info *kinfo, uint32_t nkernels,
                       int opt_disable, cc_blob *native, char **log);

/* cc_prelude.c: the header every program is compiled with (-include). */
extern const char cc_prelude_src[];

#endif

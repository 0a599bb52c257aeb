/* Back end: prepared module + work-group functions -> builtins linked in
 * (cc_builtins.c) -> internalized -> default<O3> -> object file -> `ld
 * -shared` -> .so bytes.
 *
 * A program of several kernels is optimized and compiled on several cores:
 * after cc_wg_finish the module is split into parts, each holding some of
 * the kernels, and each part runs default<O3> and code generation in its own
 * thread and LLVM context; `ld -shared` links the parts' objects into one
 * shared object (see "several kernels on several cores" below).
 */
#define _GNU_SOURCE
#include "compiler/cc_internal.h"
#include "compiler/cc_llvm_util.h"
#include "compiler/cc_printf.h"
#include "compiler/cc_safediv.h"
#include "compiler/cc_stream.h"
#include "config/lanecl_config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Object.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* Until compiler/cc_wg.c is part of the library the reference stays NULL and
 * builds fail with a clear log. */
#pragma weak cc_wg_generate
#pragma weak cc_wg_finish
#pragma weak cc_wg_late_shuffles

#define BUILTINS_NAME "lanecl_builtins.bc"  /* for messages; cc_builtins.c finds it */

/* A function the module calls but does not define (intrinsics aside). */
static int is_undefined_call(LLVMValueRef f)
{
  return LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f) && LLVMGetFirstUse(f);
}

/* ---- optimization ---- */

static int has_prefix(const char *s, size_t n, const char *prefix)
{
  size_t p = strlen(prefix);
  return n >= p && !memcmp(s, prefix, p);
}

/* Internal linkage for all but the work-group functions of the kernels
 * (exact names: the builtins' collective helpers share the prefix) and the
 * variables that the parts of a split program share (hidden, see
 * share_variables). */
static void internalize(LLVMValueRef v, const cc_kernel_info *kinfo, uint32_t nkernels)
{
  if (LLVMIsDeclaration(v))
    return;
  LLVMLinkage l = LLVMGetLinkage(v);
  if (l == LLVMInternalLinkage || l == LLVMPrivateLinkage || l == LLVMAppendingLinkage)
    return;
  if (LLVMIsAGlobalVariable(v) && LLVMGetVisibility(v) == LLVMHiddenVisibility)
    return;
  size_t n = 0;
  const char *name = LLVMGetValueName2(v, &n);
  size_t p = strlen(LANECL_WG_PREFIX);
  for (uint32_t k = 0; has_prefix(name, n, LANECL_WG_PREFIX) && k < nkernels; k++)
    if (strlen(kinfo[k].name) == n - p && !memcmp(kinfo[k].name, name + p, n - p)) {
      LLVMSetVisibility(v, LLVMDefaultVisibility);
      return;
    }
  LLVMSetLinkage(v, LLVMInternalLinkage);
  LLVMSetVisibility(v, LLVMDefaultVisibility);
}

/* The work-group functions' bodies (noalias parameters for a kernel's
 * restrict pointers) are inlined before default<O3>, so that the calls of
 * llvm.experimental.noalias.scope.decl this leaves in the lane loops get
 * their access group (cc_tag_scope_decls) before the loop vectorizer sees
 * them. */
static int inline_bodies(LLVMModuleRef m, LLVMTargetMachineRef tm, char **err)
{
  int any_noalias = LLVMGetNamedFunction(m, "llvm.experimental.noalias.scope.decl") != NULL;
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !any_noalias; f = LLVMGetNextFunction(f)) {
    unsigned n = LLVMCountParams(f);
    for (unsigned i = 0; i < n && !any_noalias; i++)
      any_noalias = LLVMGetEnumAttributeAtIndex(f, i + 1, noalias) != NULL;
  }
  if (!any_noalias)
    return CC_OK;
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m, "always-inline", tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    cc_set_err(err, "internal error: inlining the work-group functions' bodies: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return CC_INTERNAL;
  }
  cc_tag_scope_decls(m);
  return CC_OK;
}

int cc_optimize(LLVMModuleRef m, LLVMTargetMachineRef tm, const cc_device_desc *dev,
                const cc_kernel_info *kinfo, uint32_t nkernels, int opt_disable, char **err)
{
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  char width[16] = "";
  if (dev && dev->simd_bits)
    snprintf(width, sizeof(width), "%u", dev->simd_bits);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    internalize(f, kinfo, nkernels);
    if (width[0] && !LLVMIsDeclaration(f) &&
        !LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "prefer-vector-width", 19))
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(ctx, "prefer-vector-width", 19, width,
                                                        (unsigned)strlen(width)));
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    internalize(g, kinfo, nkernels);
  if (!opt_disable && dev && dev->simd_bits) {
    int native_half = cc_native_half(tm);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
      cc_half_lane_widths(f, dev->simd_bits, native_half);
    cc_cap_lane_widths(m, dev->simd_bits);
  }

  if (!opt_disable) {
    int rc = inline_bodies(m, tm, err);
    if (rc != CC_OK)
      return rc;
  }
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(opts, !opt_disable);
  LLVMPassBuilderOptionsSetSLPVectorization(opts, !opt_disable);
  LLVMPassBuilderOptionsSetLoopInterleaving(opts, !opt_disable);
  LLVMPassBuilderOptionsSetLoopUnrolling(opts, !opt_disable);
  LLVMErrorRef e = LLVMRunPasses(m, opt_disable ? "globaldce,default<O0>" : "globaldce,default<O3>", tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    cc_set_err(err, "internal error: optimizing: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return CC_INTERNAL;
  }
  if (!opt_disable)
    cc_vecmath_release(m, tm);
  if (!opt_disable && dev && dev->simd_bits)
    cc_half_fuse_pow2(m, cc_native_half(tm));
  return CC_OK;
}

/* ---- what may stay undefined: the C library, libm, the TLS resolver ---- */

static const char *const libc_names[] = {
    "memcpy", "memmove", "memset", "memcmp", "__tls_get_addr", "printf", "putchar", "puts", "abort",
};
static const char *const libm_names[] = {
    "acos", "asin", "atan", "atan2", "cos", "sin", "tan", "cosh", "sinh", "tanh", "acosh", "asinh",
    "atanh", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "pow", "sqrt", "cbrt",
    "hypot", "fmod", "remainder", "remquo", "fma", "fmin", "fmax", "fdim", "floor", "ceil", "trunc",
    "round", "rint", "nearbyint", "lround", "llround", "lrint", "llrint", "ldexp", "frexp", "modf",
    "copysign", "fabs", "erf", "erfc", "tgamma", "lgamma", "lgamma_r", "ilogb", "logb", "nextafter",
    "scalbn", "sincos",
};

static int in_names(const char *name, size_t n, const char *const *list, size_t count)
{
  for (size_t i = 0; i < count; i++)
    if (strlen(list[i]) == n && !memcmp(name, list[i], n))
      return 1;
  return 0;
}

static int is_libc_name(const char *name, size_t n)
{
  return in_names(name, n, libc_names, sizeof(libc_names) / sizeof(libc_names[0]));
}

static int is_libm_name(const char *name, size_t n)
{
  size_t count = sizeof(libm_names) / sizeof(libm_names[0]);
  /* erf, and sinf -> sin */
  return in_names(name, n, libm_names, count) ||
         (n > 1 && name[n - 1] == 'f' && in_names(name, n - 1, libm_names, count));
}

static int allowed_undefined(const char *name, size_t n)
{
  return is_libc_name(name, n) || is_libm_name(name, n);
}

int cc_check_undefined(LLVMModuleRef m, char **log)
{
  cc_str msg = {0};
  const void *data;
  size_t size;
  int have_lib = cc_builtins_bytes(&data, &size) == CC_OK;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    if (is_undefined_call(f) && !allowed_undefined(name, n))
      cc_str_printf(&msg, "error: undefined function %.*s: not provided by LaneCL's builtins library%s\n",
                    (int)n, name, have_lib ? "" : " (" BUILTINS_NAME " not found)");
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    size_t n = 0;
    const char *name = LLVMGetValueName2(g, &n);
    if (LLVMIsDeclaration(g) && LLVMGetFirstUse(g) && LLVMGetVisibility(g) != LLVMHiddenVisibility)
      cc_str_printf(&msg, "error: undefined variable %.*s: declared extern but defined nowhere\n", (int)n, name);
  }
  if (!msg.len) {
    free(msg.s);
    return CC_OK;
  }
  *log = cc_str_take(&msg);
  return CC_BUILD_FAILED;
}

/* ---- code emission ---- */

static int emit(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMCodeGenFileType type, LLVMMemoryBufferRef *buf,
                char **err)
{
  char *msg = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, type, &msg, buf)) {
    cc_set_err(err, "error: code generation failed: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return CC_BUILD_FAILED;
  }
  return CC_OK;
}

int cc_emit_assembly(LLVMModuleRef m, LLVMTargetMachineRef tm, char **text, char **err)
{
  LLVMMemoryBufferRef buf;
  int rc = emit(m, tm, LLVMAssemblyFile, &buf, err);
  if (rc != CC_OK)
    return rc;
  *text = strndup(LLVMGetBufferStart(buf), LLVMGetBufferSize(buf));
  LLVMDisposeMemoryBuffer(buf);
  return *text ? CC_OK : CC_OUT_OF_MEMORY;
}

/* What the object file needs from outside: libm, or (OBJ_OTHER) anything
 * but libc, libm and the TLS resolver, e.g. libgcc's half and 128-bit
 * integer helpers that the X86 back end calls. */
enum { OBJ_LIBM = 1, OBJ_OTHER = 2 };

static int object_needs(LLVMMemoryBufferRef obj)
{
  char *msg = NULL;
  LLVMBinaryRef bin = LLVMCreateBinary(obj, NULL, &msg);
  if (!bin) {
    LLVMDisposeMessage(msg);
    return OBJ_OTHER;
  }
  int needs = 0;
  LLVMSectionIteratorRef sect = LLVMObjectFileCopySectionIterator(bin);
  LLVMSymbolIteratorRef sym = LLVMObjectFileCopySymbolIterator(bin);
  for (; !LLVMObjectFileIsSymbolIteratorAtEnd(bin, sym); LLVMMoveToNextSymbol(sym)) {
    const char *name = LLVMGetSymbolName(sym);
    size_t n = name ? strlen(name) : 0;
    LLVMMoveToContainingSection(sect, sym);
    if (!n || !LLVMObjectFileIsSectionIteratorAtEnd(bin, sect))
      continue;
    if (is_libm_name(name, n))
      needs |= OBJ_LIBM;
    else if (!is_libc_name(name, n) && strcmp(name, "_GLOBAL_OFFSET_TABLE_"))
      needs |= OBJ_OTHER;
  }
  LLVMDisposeSymbolIterator(sym);
  LLVMDisposeSectionIterator(sect);
  LLVMDisposeBinary(bin);
  return needs;
}

/* The object code of m, for link_objects. */
static int emit_object(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMMemoryBufferRef *obj, char **err)
{
  /* No STT_FILE symbol with a name to classify. */
  LLVMSetSourceFileName(m, "", 0);
  double t = cc_now_ms();
  int rc = emit(m, tm, LLVMObjectFile, obj, err);
  cc_timing("codegen", t);
  return rc;
}

/* Object files -> `ld -shared` -> the .so bytes (the objects are not consumed). */
static int link_objects(LLVMMemoryBufferRef *objs, unsigned nobjs, cc_blob *out, char **err)
{
  out->data = NULL;
  out->size = 0;
  int needs = 0;
  for (unsigned i = 0; i < nobjs; i++)
    needs |= object_needs(objs[i]);
  char dir[PATH_MAX];
  if (cc_tmpdir_create(dir, sizeof(dir)) != CC_OK) {
    cc_set_err(err, "error: cannot create a temporary directory: %s", strerror(errno));
    return CC_INTERNAL;
  }
  size_t plen = strlen(dir) + 32;
  char *so = malloc(plen), *paths = malloc(plen * (nobjs ? nobjs : 1));
  const char **argv = calloc(nobjs + 16, sizeof(*argv));
  int rc = so && paths && argv ? CC_OK : CC_OUT_OF_MEMORY;
  if (rc == CC_OK)
    snprintf(so, plen, "%s/kernels.so", dir);
  for (unsigned i = 0; rc == CC_OK && i < nobjs; i++) {
    char *obj = paths + i * plen;
    snprintf(obj, plen, i ? "%s/kernels%u.o" : "%s/kernels.o", dir, i);
    if (cc_write_file(obj, LLVMGetBufferStart(objs[i]), LLVMGetBufferSize(objs[i])) != CC_OK) {
      cc_set_err(err, "error: cannot write %s: %s", obj, strerror(errno));
      rc = CC_INTERNAL;
    }
  }
  if (rc == CC_OK) {
    /* libc and the TLS resolver are in every process's global scope; libm
     * (and anything else) becomes a DT_NEEDED of the object so that dlopen
     * finds it.  An unknown symbol takes the full link with --no-undefined: a
     * missing one is a build error here, not a dlopen failure later.  Reading
     * the libraries costs ld about 10 ms, so the common case skips them. */
    unsigned n = 0;
    argv[n++] = LANECL_LD;
    argv[n++] = "-shared";
    argv[n++] = "-o";
    argv[n++] = so;
    for (unsigned i = 0; i < nobjs; i++)
      argv[n++] = paths + i * plen;
    argv[n++] = "-z";
    argv[n++] = "noexecstack";
    argv[n++] = "--hash-style=gnu";
    if (needs & OBJ_OTHER) {
      argv[n++] = "--no-undefined";
      argv[n++] = "--as-needed";
      argv[n++] = "-lm";
      argv[n++] = "-l:libgcc_s.so.1";
      argv[n++] = "-lc";
    } else if (needs & OBJ_LIBM) {
      argv[n++] = "-lm";
    }
    argv[n] = NULL;
    char *output = NULL;
    double t = cc_now_ms();
    int status = cc_spawn(argv, NULL, &output);
    cc_timing("ld", t);
    if (status != 0 || cc_read_file(so, out) != CC_OK) {
      cc_set_err(err, "error: linking the kernels' shared object failed:\n%s", output ? output : "");
      rc = CC_BUILD_FAILED;
    }
    free(output);
  }
  free(argv);
  free(paths);
  free(so);
  cc_tmpdir_remove(dir);
  return rc;
}

int cc_emit_shared_object(LLVMModuleRef m, LLVMTargetMachineRef tm, cc_blob *out, char **err)
{
  LLVMMemoryBufferRef obj;
  out->data = NULL;
  out->size = 0;
  int rc = emit_object(m, tm, &obj, err);
  if (rc != CC_OK)
    return rc;
  rc = link_objects(&obj, 1, out, err);
  LLVMDisposeMemoryBuffer(obj);
  return rc;
}

/* ---- several kernels on several cores ----
 *
 * After cc_wg_finish the module holds every kernel's work-group function
 * and what they call.  Its bitcode is parsed once per part, each in a
 * context of its own (an LLVMContext is not shared between threads), and
 * each part keeps its own kernels' work-group functions external:
 * cc_optimize's internalize + globaldce drop the others, so each part
 * optimizes and compiles only its kernels and their callees (a callee used
 * by kernels of two parts is compiled in both, as a local symbol).
 * Variables are the exception: a program-scope variable or a kernel's
 * __local one is one object whatever kernel uses it, so part 0 defines
 * each writable variable (hidden: not exported from the shared object) and
 * the other parts declare it; `ld` resolves them.  Constants are copied.
 * A program of one kernel, or LANECL_CC_THREADS=1, takes the serial path,
 * so the code of a kernel depends only on the program around it. */

typedef struct part {
  const char *bc;                /* the whole module's bitcode (shared, read-only) */
  size_t bc_size;
  const cc_device_desc *dev;
  int opt_disable;
  unsigned index;                /* 0: defines the shared variables */
  cc_kernel_info *kinfo;         /* this part's kernels (shallow copies, copied back) */
  uint32_t nkernels;
  size_t load;                   /* instructions of its work-group functions */
  cc_diag diag;                  /* its context's diagnostics and remarks */
  LLVMMemoryBufferRef obj;       /* result */
  char *err;
  int rc;
} part;

/* How many threads a build may use: LANECL_CC_THREADS (1..64, read at each
 * build), else the cores this process may run on (at most 16). */
static unsigned compile_threads(void)
{
  long n = (long)lc_config_num(LC_CC_THREADS);
  if (!n) {
    cpu_set_t set;
    n = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
    if (n > 16)
      n = 16;
  }
  return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

/* Part 0 defines every writable variable, hidden; the others declare it. */
static void share_variables(LLVMModuleRef m, unsigned index)
{
  unsigned unnamed = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    if (LLVMIsDeclaration(g) || LLVMIsGlobalConstant(g) || LLVMGetLinkage(g) == LLVMAppendingLinkage)
      continue;
    size_t n = 0;
    LLVMGetValueName2(g, &n);
    if (!n) {
      /* every part parses the same bitcode, so the same name in each */
      char name[40];
      snprintf(name, sizeof(name), "__lanecl_shared.%u", unnamed++);
      LLVMSetValueName2(g, name, strlen(name));
    }
    if (index)
      LLVMSetInitializer(g, NULL);
    LLVMSetLinkage(g, LLVMExternalLinkage);
    LLVMSetVisibility(g, LLVMHiddenVisibility);
    LLVMSetUnnamedAddr(g, 0);
  }
}

static void *part_run(void *arg)
{
  part *p = arg;
  LLVMContextRef ctx = cc_context_create(&p->diag);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(p->bc, p->bc_size, "part", 0);
  LLVMModuleRef m = NULL;
  LLVMTargetMachineRef tm = NULL;
  p->rc = CC_OK;
  if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
    cc_set_err(&p->err, "internal error: a part of the program does not load");
    p->rc = CC_INTERNAL;
    m = NULL;
  }
  LLVMDisposeMemoryBuffer(buf);
  if (p->rc == CC_OK && !(tm = cc_target_machine(p->dev, p->opt_disable ? 0 : 3))) {
    cc_set_err(&p->err, "error: LLVM has no target machine for %s", cc_host_triple());
    p->rc = CC_INTERNAL;
  }
  double t = cc_now_ms();
  if (p->rc == CC_OK) {
    share_variables(m, p->index);
    p->rc = cc_optimize(m, tm, p->dev, p->kinfo, p->nkernels, p->opt_disable, &p->err);
  }
  if (p->rc == CC_OK && !p->opt_disable && cc_wg_late_shuffles)
    cc_wg_late_shuffles(m, tm);
  if (p->rc == CC_OK && !p->opt_disable)
    cc_stream_stores(m, tm, p->kinfo, p->nkernels);
  cc_timing("optimize", t);
  if (p->rc == CC_OK)
    p->rc = cc_check_undefined(m, &p->err);
  if (p->rc == CC_OK)
    p->rc = emit_object(m, tm, &p->obj, &p->err);
  char what[48];
  snprintf(what, sizeof(what), "part %u (%u kernels)", p->index, p->nkernels);
  cc_timing(what, t);
  if (tm)
    LLVMDisposeTargetMachine(tm);
  if (m)
    LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return NULL;
}

/* The diagnostics of the parts, in part order, into m's context's. */
static void merge_diags(LLVMModuleRef m, part *parts, unsigned nparts)
{
  cc_diag *d = cc_context_diag(LLVMGetModuleContext(m));
  for (unsigned i = 0; i < nparts; i++) {
    if (d && parts[i].diag.remarks.s)
      cc_str_printf(&d->remarks, "%s", parts[i].diag.remarks.s);
    if (d && parts[i].diag.text.s)
      cc_str_printf(&d->text, "%s", parts[i].diag.text.s);
    if (d)
      d->errors += parts[i].diag.errors;
    free(parts[i].diag.remarks.s);
    free(parts[i].diag.text.s);
  }
}

/* Optimizes and compiles m's kernels in nparts parts on as many threads,
 * then links the objects: the same result as cc_optimize +
 * cc_check_undefined + cc_emit_shared_object on m. */
static int backend_parallel(LLVMModuleRef m, const cc_device_desc *dev, cc_kernel_info *kinfo,
                            uint32_t nkernels, unsigned nparts, int opt_disable, cc_blob *native, char **err)
{
  double t = cc_now_ms();
  /* The lane loops' locations (which the vectorizer's remarks name) are
   * debug locations: without a version, reading the bitcode drops them. */
  if (!LLVMGetModuleFlag(m, "Debug Info Version", 18)) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
    LLVMAddModuleFlag(m, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                      LLVMValueAsMetadata(LLVMConstInt(i32, LLVMDebugMetadataVersion(), 0)));
  }
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
  part *parts = calloc(nparts, sizeof(*parts));
  cc_kernel_info *copies = calloc(nkernels, sizeof(*copies));
  size_t *size = calloc(nkernels, sizeof(*size));
  uint32_t *order = calloc(nkernels, sizeof(*order));
  uint32_t *orig = calloc(nkernels, sizeof(*orig));  /* copies[i] is kinfo[orig[i]] */
  pthread_t *threads = calloc(nparts, sizeof(*threads));
  int *started = calloc(nparts, sizeof(*started));
  LLVMMemoryBufferRef *objs = calloc(nparts, sizeof(*objs));
  if (!bc || !parts || !copies || !size || !order || !orig || !threads || !started || !objs) {
    if (bc)
      LLVMDisposeMemoryBuffer(bc);
    free(parts), free(copies), free(size), free(order), free(orig), free(threads), free(started), free(objs);
    return CC_OUT_OF_MEMORY;
  }
  /* Largest kernels first, each to the part with the least so far. */
  for (uint32_t k = 0; k < nkernels; k++) {
    char name[512];
    snprintf(name, sizeof(name), "%s%s", LANECL_WG_PREFIX, kinfo[k].name);
    size[k] = cc_function_size(LLVMGetNamedFunction(m, name));
    order[k] = k;
  }
  for (uint32_t i = 1; i < nkernels; i++)
    for (uint32_t j = i; j > 0 && size[order[j]] > size[order[j - 1]]; j--) {
      uint32_t x = order[j];
      order[j] = order[j - 1];
      order[j - 1] = x;
    }
  uint32_t *count = calloc(nparts, sizeof(*count));
  uint32_t *of = calloc(nkernels, sizeof(*of));
  int rc = count && of ? CC_OK : CC_OUT_OF_MEMORY;
  for (uint32_t i = 0; rc == CC_OK && i < nkernels; i++) {
    unsigned best = 0;
    for (unsigned q = 1; q < nparts; q++)
      if (parts[q].load < parts[best].load || (parts[q].load == parts[best].load && count[q] < count[best]))
        best = q;
    of[order[i]] = best;
    parts[best].load += size[order[i]] + 1;
    count[best]++;
  }
  /* each part's kernels, contiguous in copies, in program order */
  uint32_t at = 0;
  for (unsigned q = 0; rc == CC_OK && q < nparts; q++) {
    parts[q].kinfo = copies + at;
    for (uint32_t k = 0; k < nkernels; k++)
      if (of[k] == q) {
        orig[at] = k;
        copies[at++] = kinfo[k];
      }
    parts[q].nkernels = count[q];
  }
  free(count);
  free(of);
  cc_timing("split", t);
  for (unsigned q = 0; rc == CC_OK && q < nparts; q++) {
    parts[q].bc = LLVMGetBufferStart(bc);
    parts[q].bc_size = LLVMGetBufferSize(bc);
    parts[q].dev = dev;
    parts[q].opt_disable = opt_disable;
    parts[q].index = q;
  }
  if (rc == CC_OK) {
    pthread_attr_t attr;
    int have_attr = pthread_attr_init(&attr) == 0;
    if (have_attr)
      pthread_attr_setstacksize(&attr, 16u << 20);  /* LLVM recurses deeply on big functions */
    for (unsigned q = 1; q < nparts; q++)
      started[q] = pthread_create(&threads[q], have_attr ? &attr : NULL, part_run, &parts[q]) == 0;
    if (have_attr)
      pthread_attr_destroy(&attr);
    part_run(&parts[0]);
    for (unsigned q = 1; q < nparts; q++) {
      if (started[q])
        pthread_join(threads[q], NULL);
      else
        part_run(&parts[q]);  /* no thread to be had: run it here */
    }
  }
  LLVMDisposeMemoryBuffer(bc);
  /* what the parts filled in (cc_stream_stores: stream_bytes) */
  for (uint32_t i = 0; rc == CC_OK && i < nkernels; i++)
    kinfo[orig[i]] = copies[i];
  merge_diags(m, parts, rc == CC_OK ? nparts : 0);
  for (unsigned q = 0; rc == CC_OK && q < nparts; q++)
    if (parts[q].rc != CC_OK) {
      rc = parts[q].rc;
      *err = parts[q].err;
      parts[q].err = NULL;
    }
  for (unsigned q = 0; q < nparts; q++)
    objs[q] = parts[q].obj;
  if (rc == CC_OK)
    rc = link_objects(objs, nparts, native, err);
  for (unsigned q = 0; q < nparts; q++) {
    if (objs[q])
      LLVMDisposeMemoryBuffer(objs[q]);
    free(parts[q].err);
  }
  free(parts), free(copies), free(size), free(order), free(orig), free(threads), free(started), free(objs);
  return rc;
}

/* ---- the whole back end ---- */

static int verify(LLVMModuleRef m, const char *after, char **err)
{
  char *msg = NULL;
  int bad = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
  if (bad)
    cc_set_err(err, "internal error: invalid IR after %s:\n%s", after, msg ? msg : "");
  LLVMDisposeMessage(msg);
  return bad ? CC_INTERNAL : CC_OK;
}

/* The back end up to cc_wg_finish: prepare, work-group functions, builtins
 * linked.  Every build error of the back end but an undefined function
 * (known only after O3, which may delete the call) is found here. */
static int backend_stage(LLVMModuleRef m, LLVMTargetMachineRef tm, const cc_device_desc *dev, cc_kernel_info *kinfo,
                         uint32_t nkernels, int opt_disable, char **err)
{
  double t = cc_now_ms();
  int rc = cc_prepare(m, tm, err);
  if (rc == CC_OK) {
    cc_safe_divisions(m);   /* before the lane loops: a divisor of 0 must not trap */
    cc_printf_calls(m);     /* OpenCL printf: vector conversions, 0/-1 result */
  }
  cc_timing("prepare", t);
  if (rc == CC_OK && !cc_wg_generate) {
    cc_set_err(err, "error: this build of liblanecl_cc.so has no work-group function generator "
                    "(compiler/cc_wg.c); kernels cannot be built");
    rc = CC_BUILD_FAILED;
  }
  t = cc_now_ms();
  if (rc == CC_OK)
    rc = cc_wg_generate(m, tm, dev, kinfo, nkernels, opt_disable, err);
  if (rc == CC_OK)
    rc = verify(m, "work-group function generation", err);
  cc_timing("wg+verify", t);
  t = cc_now_ms();
  if (rc == CC_OK)
    rc = cc_link_builtins(m, err);
  cc_timing("builtins", t);
  return rc;
}

/* The rest, on a staged module holding the work-group functions of kinfo's
 * kernels: cc_wg_finish, O3, code; the parts of a program of several
 * kernels on several threads. */
static int backend_finish(LLVMModuleRef m, LLVMTargetMachineRef tm, const cc_device_desc *dev, cc_kernel_info *kinfo,
                          uint32_t nkernels, int opt_disable, int what, cc_blob *native, char **text, char **err)
{
  double t = cc_now_ms();
  int rc = CC_OK;
  if (!opt_disable && lc_config_num(LC_CC_VECMATH))
    rc = cc_vecmath_out_of_line(m, err);
  if (rc == CC_OK && cc_wg_finish)
    rc = cc_wg_finish(m, tm, opt_disable, err);
  /* cc_wg_finish rewrites lane loops by hand (masked widening, affine
   * accesses): IR it leaves invalid is a build error here, not wrong code
   * later (a mask bitcast from a freed value once reached codegen). */
  if (rc == CC_OK)
    rc = verify(m, "lane loop vectorization", err);
  cc_timing("lane loops", t);
  unsigned nparts = what == 0 && nkernels > 1 ? compile_threads() : 1;
  if (nparts > nkernels)
    nparts = nkernels;
  if (rc == CC_OK && nparts > 1)
    return backend_parallel(m, dev, kinfo, nkernels, nparts, opt_disable, native, err);
  t = cc_now_ms();
  if (rc == CC_OK)
    rc = cc_optimize(m, tm, dev, kinfo, nkernels, opt_disable, err);
  if (rc == CC_OK && !opt_disable && cc_wg_late_shuffles)
    cc_wg_late_shuffles(m, tm);
  if (rc == CC_OK && !opt_disable)
    cc_stream_stores(m, tm, kinfo, nkernels);
  cc_timing("optimize", t);
  if (rc == CC_OK)
    rc = cc_check_undefined(m, err);
  t = cc_now_ms();
  if (rc == CC_OK) {
    if (what == 1)
      rc = cc_emit_assembly(m, tm, text, err);
    else if (what == 2)
      rc = (*text = LLVMPrintModuleToString(m)) ? CC_OK : CC_OUT_OF_MEMORY;
    else
      rc = cc_emit_shared_object(m, tm, native, err);
  }
  cc_timing("emit", t);
  if (rc == CC_OK && what == 2) {
    char *copy = strdup(*text);
    LLVMDisposeMessage(*text);
    *text = copy;
    rc = copy ? CC_OK : CC_OUT_OF_MEMORY;
  }
  return rc;
}

static int backend_result(int rc, char *err, char **log)
{
  if (rc != CC_OK) {
    *log = err ? err : strdup("error: the back end failed\n");
    return rc == CC_OUT_OF_MEMORY ? rc : CC_BUILD_FAILED;
  }
  free(err);
  return CC_OK;
}

int cc_backend(LLVMModuleRef m, const cc_device_desc *dev, cc_kernel_info *kinfo, uint32_t nkernels,
               int opt_disable, int what, cc_blob *native, char **text, char **log)
{
  char *err = NULL;
  *log = NULL;
  LLVMTargetMachineRef tm = cc_target_machine(dev, opt_disable ? 0 : 3);
  if (!tm) {
    cc_set_err(log, "error: LLVM has no target machine for %s", cc_host_triple());
    return CC_INTERNAL;
  }
  int rc = backend_stage(m, tm, dev, kinfo, nkernels, opt_disable, &err);
  if (rc == CC_OK)
    rc = backend_finish(m, tm, dev, kinfo, nkernels, opt_disable, what, native, text, &err);
  LLVMDisposeTargetMachine(tm);
  return backend_result(rc, err, log);
}

/* Whether a staged module must be compiled whole: a writable variable
 * (program scope, __global) is one object that every kernel of the program
 * shares, which code made in parts, one shared object each, would not; an
 * undefined function or variable is a build error that only O3 can take
 * back (a call it deletes), so the whole build decides it. */
static int must_build_whole(LLVMModuleRef m)
{
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && !LLVMIsGlobalConstant(g) && !LLVMIsThreadLocal(g) &&
        LLVMGetLinkage(g) != LLVMAppendingLinkage)
      return 1;
  char *undefined = NULL;
  int rc = cc_check_undefined(m, &undefined);
  free(undefined);
  return rc != CC_OK;
}

int cc_backend_staged(LLVMModuleRef m, const cc_device_desc *dev, cc_kernel_info *kinfo, uint32_t nkernels,
                      int opt_disable, cc_blob *stage, cc_blob *native, char **log)
{
  char *err = NULL;
  *log = NULL;
  stage->data = native->data = NULL;
  stage->size = native->size = 0;
  LLVMTargetMachineRef tm = cc_target_machine(dev, opt_disable ? 0 : 3);
  if (!tm) {
    cc_set_err(log, "error: LLVM has no target machine for %s", cc_host_triple());
    return CC_INTERNAL;
  }
  int rc = backend_stage(m, tm, dev, kinfo, nkernels, opt_disable, &err);
  if (rc == CC_OK && (!nkernels || must_build_whole(m))) {
    rc = backend_finish(m, tm, dev, kinfo, nkernels, opt_disable, 0, native, NULL, &err);
  } else if (rc == CC_OK) {
    /* The lane loops' locations (which the vectorizer's remarks name) are
     * debug locations: without a version, reading the bitcode drops them. */
    if (!LLVMGetModuleFlag(m, "Debug Info Version", 18)) {
      LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
      LLVMAddModuleFlag(m, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                        LLVMValueAsMetadata(LLVMConstInt(i32, LLVMDebugMetadataVersion(), 0)));
    }
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
    size_t n = bc ? LLVMGetBufferSize(bc) : 0;
    if (!bc || !(stage->data = malloc(n))) {
      rc = CC_OUT_OF_MEMORY;
    } else {
      memcpy(stage->data, LLVMGetBufferStart(bc), n);
      stage->size = n;
    }
    if (bc)
      LLVMDisposeMemoryBuffer(bc);
  }
  LLVMDisposeTargetMachine(tm);
  return backend_result(rc, err, log);
}

int cc_backend_kernels(LLVMModuleRef m, const cc_device_desc *dev, cc_kernel_info *kinfo, uint32_t nkernels,
                       int opt_disable, cc_blob *native, char **log)
{
  char *err = NULL;
  *log = NULL;
  LLVMTargetMachineRef tm = cc_target_machine(dev, opt_disable ? 0 : 3);
  if (!tm) {
    cc_set_err(log, "error: LLVM has no target machine for %s", cc_host_triple());
    return CC_INTERNAL;
  }
  /* Only kinfo's kernels: the others' work-group functions go, and with
   * them what only they reached. */
  for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    size_t plen = strlen(LANECL_WG_PREFIX);
    if (n <= plen || memcmp(name, LANECL_WG_PREFIX, plen) || LLVMGetFirstUse(f))
      continue;
    int wanted = 0;
    for (uint32_t k = 0; k < nkernels && !wanted; k++)
      wanted = strlen(kinfo[k].name) == n - plen && !memcmp(kinfo[k].name, name + plen, n - plen);
    if (!wanted)
      LLVMDeleteFunction(f);
  }
  int rc = backend_finish(m, tm, dev, kinfo, nkernels, opt_disable, 0, native, NULL, &err);
  LLVMDisposeTargetMachine(tm);
  return backend_result(rc, err, log);
}

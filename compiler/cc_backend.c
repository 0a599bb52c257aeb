/* Back end: prepared module + work-group functions -> builtins linked in
 * (cc_builtins.c) -> internalized -> default<O3> -> object file -> `ld
 * -shared` -> .so bytes.
 */
#define _GNU_SOURCE
#include "compiler/cc_internal.h"
#include "compiler/cc_printf.h"
#include "compiler/cc_safediv.h"
#include "compiler/cc_stream.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
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
 * (exact names: the builtins' collective helpers share the prefix). */
static void internalize(LLVMValueRef v, const cc_kernel_info *kinfo, uint32_t nkernels)
{
  if (LLVMIsDeclaration(v))
    return;
  LLVMLinkage l = LLVMGetLinkage(v);
  if (l == LLVMInternalLinkage || l == LLVMPrivateLinkage || l == LLVMAppendingLinkage)
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
    if (LLVMIsDeclaration(g) && LLVMGetFirstUse(g))
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

int cc_emit_shared_object(LLVMModuleRef m, LLVMTargetMachineRef tm, cc_blob *out, char **err)
{
  LLVMMemoryBufferRef buf;
  out->data = NULL;
  out->size = 0;
  /* No STT_FILE symbol with a name to classify. */
  LLVMSetSourceFileName(m, "", 0);
  double t = cc_now_ms();
  int rc = emit(m, tm, LLVMObjectFile, &buf, err);
  cc_timing("codegen", t);
  if (rc != CC_OK)
    return rc;
  int needs = object_needs(buf);
  char dir[PATH_MAX], obj[PATH_MAX + 16], so[PATH_MAX + 16];
  if (cc_tmpdir_create(dir, sizeof(dir)) != CC_OK) {
    cc_set_err(err, "error: cannot create a temporary directory: %s", strerror(errno));
    LLVMDisposeMemoryBuffer(buf);
    return CC_INTERNAL;
  }
  snprintf(obj, sizeof(obj), "%s/kernels.o", dir);
  snprintf(so, sizeof(so), "%s/kernels.so", dir);
  rc = cc_write_file(obj, LLVMGetBufferStart(buf), LLVMGetBufferSize(buf));
  LLVMDisposeMemoryBuffer(buf);
  if (rc != CC_OK) {
    cc_set_err(err, "error: cannot write %s: %s", obj, strerror(errno));
    goto out_dir;
  }
  /* libc and the TLS resolver are in every process's global scope; libm
   * (and anything else) becomes a DT_NEEDED of the object so that dlopen
   * finds it.  An unknown symbol takes the full link with --no-undefined: a
   * missing one is a build error here, not a dlopen failure later.  Reading
   * the libraries costs ld about 10 ms, so the common case skips them. */
  const char *fast[] = {LANECL_LD, "-shared", "-o", so, obj, "-z", "noexecstack", "--hash-style=gnu",
                        needs & OBJ_LIBM ? "-lm" : NULL, NULL};
  const char *full[] = {LANECL_LD, "-shared", "-o", so, obj, "-z", "noexecstack", "--hash-style=gnu",
                        "--no-undefined", "--as-needed", "-lm", "-l:libgcc_s.so.1", "-lc", NULL};
  char *output = NULL;
  t = cc_now_ms();
  int status = cc_spawn(needs & OBJ_OTHER ? full : fast, NULL, &output);
  cc_timing("ld", t);
  if (status != 0 || cc_read_file(so, out) != CC_OK) {
    cc_set_err(err, "error: linking the kernels' shared object failed:\n%s", output ? output : "");
    rc = CC_BUILD_FAILED;
  }
  free(output);
out_dir:
  cc_tmpdir_remove(dir);
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
  double t = cc_now_ms();
  int rc = cc_prepare(m, tm, &err);
  if (rc == CC_OK) {
    cc_safe_divisions(m);   /* before the lane loops: a divisor of 0 must not trap */
    cc_printf_calls(m);     /* OpenCL printf: vector conversions, 0/-1 result */
  }
  cc_timing("prepare", t);
  if (rc == CC_OK && !cc_wg_generate) {
    cc_set_err(&err, "error: this build of liblanecl_cc.so has no work-group function generator "
                     "(compiler/cc_wg.c); kernels cannot be built");
    rc = CC_BUILD_FAILED;
  }
  t = cc_now_ms();
  if (rc == CC_OK)
    rc = cc_wg_generate(m, tm, dev, kinfo, nkernels, opt_disable, &err);
  if (rc == CC_OK)
    rc = verify(m, "work-group function generation", &err);
  cc_timing("wg+verify", t);
  t = cc_now_ms();
  if (rc == CC_OK)
    rc = cc_link_builtins(m, &err);
  if (rc == CC_OK && cc_wg_finish)
    rc = cc_wg_finish(m, tm, opt_disable, &err);
  /* cc_wg_finish rewrites lane loops by hand (masked widening, affine
   * accesses): IR it leaves invalid is a build error here, not wrong code
   * later (a mask bitcast from a freed value once reached codegen). */
  if (rc == CC_OK)
    rc = verify(m, "lane loop vectorization", &err);
  cc_timing("builtins", t);
  t = cc_now_ms();
  if (rc == CC_OK)
    rc = cc_optimize(m, tm, dev, kinfo, nkernels, opt_disable, &err);
  if (rc == CC_OK && !opt_disable && cc_wg_late_shuffles)
    cc_wg_late_shuffles(m, tm);
  if (rc == CC_OK && !opt_disable)
    cc_stream_stores(m, tm, kinfo, nkernels);
  cc_timing("optimize", t);
  if (rc == CC_OK)
    rc = cc_check_undefined(m, &err);
  t = cc_now_ms();
  if (rc == CC_OK) {
    if (what == 1)
      rc = cc_emit_assembly(m, tm, text, &err);
    else if (what == 2)
      rc = (*text = LLVMPrintModuleToString(m)) ? CC_OK : CC_OUT_OF_MEMORY;
    else
      rc = cc_emit_shared_object(m, tm, native, &err);
  }
  cc_timing("emit", t);
  if (rc == CC_OK && what == 2) {
    char *copy = strdup(*text);
    LLVMDisposeMessage(*text);
    *text = copy;
    rc = copy ? CC_OK : CC_OUT_OF_MEMORY;
  }
  LLVMDisposeTargetMachine(tm);
  if (rc != CC_OK) {
    *log = err ? err : strdup("error: the back end failed\n");
    return rc == CC_OUT_OF_MEMORY ? rc : CC_BUILD_FAILED;
  }
  free(err);
  return CC_OK;
}

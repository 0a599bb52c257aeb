/* liblanecl_cc.so entry points (cc_get_api): compile, build, link,
 * disassemble, the target, and the version string.  The helpers they use
 * are in cc_util.c.
 *
 * Thread safety: every call builds in its own LLVMContext and temporary
 * directory; the only process-wide state is initialised once
 * (pthread_once): LLVM's targets, the host CPU, the version string and the
 * builtins library bytes (cc_backend.c).
 */
#define _GNU_SOURCE
#include "compiler/cc_internal.h"
#include "compiler/cc_wg.h"
#include "compiler/cc_llvm_util.h"
#include "config/lanecl_config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>

/* ---- building blocks of the entry points ---- */

static int parse_bitcode(LLVMContextRef ctx, const cc_blob *bc, LLVMModuleRef *m)
{
  *m = NULL;
  if (!bc->size)
    return CC_INVALID_BINARY;
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bc->data, bc->size, "program", 0);
  LLVMBool bad = LLVMParseBitcodeInContext2(ctx, buf, m);
  LLVMDisposeMemoryBuffer(buf);
  if (bad) {
    *m = NULL;
    return CC_INVALID_BINARY;
  }
  return CC_OK;
}

static int module_bitcode(LLVMModuleRef m, cc_blob *out)
{
  LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
  if (!buf)
    return CC_OUT_OF_MEMORY;
  size_t n = LLVMGetBufferSize(buf);
  out->data = malloc(n ? n : 1);
  if (!out->data) {
    LLVMDisposeMemoryBuffer(buf);
    return CC_OUT_OF_MEMORY;
  }
  memcpy(out->data, LLVMGetBufferStart(buf), n);
  out->size = n;
  LLVMDisposeMemoryBuffer(buf);
  return CC_OK;
}

static void set_kernel_flags(cc_kernel_info *k, uint32_t n, const cc_options *o)
{
  for (uint32_t i = 0; i < n; i++)
    k[i].flags |= (o->kernel_arg_info ? CC_KFLAG_ARG_INFO : 0) | (o->opt_disable ? CC_KFLAG_OPT_DISABLE : 0);
}

/* Puts a container together; takes kernels, bitcode, native and stage. */
static int write_container_staged(uint32_t kind, const cc_device_desc *dev, cc_kernel_info *k, uint32_t nk,
                                  cc_blob *bitcode, cc_blob *native, cc_blob *stage, cc_blob *out)
{
  static const cc_device_desc host = {0};
  cc_binary bin = {.kind = kind, .device_key = cc_device_key(dev ? dev : &host), .nkernels = nk,
                   .kernels = k, .bitcode = *bitcode};
  if (native)
    bin.native = *native;
  if (stage)
    bin.stage = *stage;
  int rc = cc_binary_write(&bin, out);
  cc_binary_free(&bin);
  if (native)
    memset(native, 0, sizeof(*native));
  if (stage)
    memset(stage, 0, sizeof(*stage));
  memset(bitcode, 0, sizeof(*bitcode));
  return rc;
}

static int write_container(uint32_t kind, const cc_device_desc *dev, cc_kernel_info *k, uint32_t nk,
                           cc_blob *bitcode, cc_blob *native, cc_blob *out)
{
  return write_container_staged(kind, dev, k, nk, bitcode, native, NULL, out);
}

/* Source -> SPIR bitcode, its module in ctx, and its kernel infos. */
/* OpenCL C follows C99: a function defined `inline` without `static` or
 * `extern` is an inline definition, and a program often has no other (OpenCV's
 * imgproc/color_lab.cl).  Under C99's rule clang emits no body for it at -O0
 * and an available_externally one otherwise, which the optimizer drops where
 * it declines to inline the call: "undefined function".  The front end runs
 * with -fgnu89-inline, which emits such a function as a definition; here
 * those definitions (inline, not kernels) become linkonce_odr: kept where
 * they are called, one copy when several objects of a program define the
 * same function.  Returns how many. */
static unsigned keep_inline_definitions(LLVMModuleRef m)
{
  unsigned n = 0, hint = cc_attr_kind("inlinehint");
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    LLVMLinkage l = LLVMGetLinkage(f);
    if (LLVMIsDeclaration(f) || LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv ||
        !LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, hint) ||
        (l != LLVMExternalLinkage && l != LLVMAvailableExternallyLinkage))
      continue;
    LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
    n++;
  }
  return n;
}

static int front(const cc_device_desc *dev, const char *source, const cc_options *o,
                 const cc_header *headers, size_t nheaders, LLVMContextRef ctx, cc_blob *bc,
                 LLVMModuleRef *m, cc_kernel_info **k, uint32_t *nk, cc_str *log)
{
  char *flog = NULL, *err = NULL;
  *m = NULL;
  *k = NULL;
  *nk = 0;
  double t0 = cc_now_ms();
  int rc = cc_frontend(dev, source ? source : "", o, headers, nheaders, bc, &flog);
  cc_timing("clang", t0);
  cc_log_line(log, flog);
  free(flog);
  if (rc != CC_OK)
    return rc;
  if (parse_bitcode(ctx, bc, m) != CC_OK) {
    cc_log_line(log, "error: the front end's bitcode does not load");
    cc_blob_free(bc);
    return CC_INTERNAL;
  }
  if (keep_inline_definitions(*m)) {
    cc_blob nbc;
    if (module_bitcode(*m, &nbc) != CC_OK) {
      LLVMDisposeModule(*m);
      *m = NULL;
      cc_blob_free(bc);
      return CC_OUT_OF_MEMORY;
    }
    cc_blob_free(bc);
    *bc = nbc;
  }
  t0 = cc_now_ms();
  rc = cc_meta_collect(*m, k, nk, &err);
  cc_timing("load+meta", t0);
  if (rc != CC_OK) {
    cc_log_line(log, err);
    free(err);
    LLVMDisposeModule(*m);
    *m = NULL;
    cc_blob_free(bc);
    return rc == CC_OUT_OF_MEMORY ? rc : CC_BUILD_FAILED;
  }
  set_kernel_flags(*k, *nk, o);
  return CC_OK;
}

/* ---- entry points ---- */

static int api_compile(const cc_device_desc *dev, const char *source, const char *options,
                       const cc_header *headers, size_t nheaders, cc_blob *out, char **log)
{
  cc_options o;
  cc_str msg = {0};
  cc_diag d = {0};
  char *olog = NULL;
  out->data = NULL;
  out->size = 0;
  int rc = cc_parse_compile_options(options, &o, &olog);
  cc_log_line(&msg, olog);
  free(olog);
  if (rc != CC_OK)
    goto out_log;

  LLVMContextRef ctx = cc_context_create(&d);
  cc_blob bc = {0};
  LLVMModuleRef m;
  cc_kernel_info *k;
  uint32_t nk;
  rc = front(dev, source, &o, headers, nheaders, ctx, &bc, &m, &k, &nk, &msg);
  if (rc == CC_OK) {
    LLVMDisposeModule(m);
    rc = write_container(CC_BIN_OBJECT, dev, k, nk, &bc, NULL, out);
  }
  LLVMContextDispose(ctx);
  cc_log_line(&msg, d.text.s);
  free(d.text.s);
  free(d.remarks.s);
  cc_options_free(&o);
out_log:
  *log = cc_str_take(&msg);
  return rc;
}

/* Source to an executable: whole (cc_backend), or staged
 * (cc_backend_staged: the stage, or whole code for a program that must be
 * compiled whole). */
static int build_source(const cc_device_desc *dev, const char *source, const char *options, int staged,
                        cc_blob *out, char **log)
{
  cc_options o;
  cc_str msg = {0};
  cc_diag d = {0};
  char *olog = NULL;
  out->data = NULL;
  out->size = 0;
  int rc = cc_parse_compile_options(options, &o, &olog);
  cc_log_line(&msg, olog);
  free(olog);
  if (rc != CC_OK)
    goto out_log;

  LLVMContextRef ctx = cc_context_create(&d);
  cc_blob bc = {0}, native = {0}, stage = {0};
  LLVMModuleRef m;
  cc_kernel_info *k;
  uint32_t nk;
  rc = front(dev, source, &o, NULL, 0, ctx, &bc, &m, &k, &nk, &msg);
  if (rc == CC_OK) {
    char *blog = NULL;
    rc = staged ? cc_backend_staged(m, dev, k, nk, o.opt_disable, &stage, &native, &blog)
                : cc_backend(m, dev, k, nk, o.opt_disable, 0, &native, NULL, &blog);
    cc_log_line(&msg, blog);
    free(blog);
    if (rc == CC_OK && native.size)  /* the vectorizer ran: its remarks are the verdicts */
      cc_wg_verdicts(k, nk, d.remarks.s);
    LLVMDisposeModule(m);
    if (rc == CC_OK)
      rc = write_container_staged(CC_BIN_EXECUTABLE, dev, k, nk, &bc, &native, &stage, out);
    else {
      cc_kernel_infos_free(k, nk);
      cc_blob_free(&bc);
      cc_blob_free(&native);
      cc_blob_free(&stage);
    }
  }
  LLVMContextDispose(ctx);
  cc_log_line(&msg, d.text.s);
  free(d.text.s);
  free(d.remarks.s);
  cc_options_free(&o);
out_log:
  *log = cc_str_take(&msg);
  return rc;
}

static int api_build(const cc_device_desc *dev, const char *source, const char *options, cc_blob *out,
                     char **log)
{
  return build_source(dev, source, options, 0, out, log);
}

static int api_build_staged(const cc_device_desc *dev, const char *source, const char *options, cc_blob *out,
                            char **log)
{
  return build_source(dev, source, options, 1, out, log);
}

/* Moves the compiled kernels' records (what the back end completes) from
 * sub into bin's. */
static void take_records(cc_binary *bin, const uint32_t *which, uint32_t n, cc_kernel_info *sub)
{
  for (uint32_t i = 0; i < n; i++) {
    cc_kernel_info *k = &bin->kernels[which[i]];
    free(k->report);
    k->report = sub[i].report;
    sub[i].report = NULL;
    k->simd_width = sub[i].simd_width;
    k->stream_bytes = sub[i].stream_bytes;
  }
}

/* The code of kernel k made for a launch (cc_launch_hint): what only
 * other launches would use goes, said in k's report. */
static void for_the_launch(LLVMModuleRef m, cc_kernel_info *k, const cc_launch_hint *launch)
{
  cc_str line = {0};
  cc_str_printf(&line, "%s", k->report ? k->report : "");
  size_t before = line.len;
  if (launch->image_formats && wg_image_general_out_of_line(m, k->name, launch->image_formats, k->nargs))
    cc_str_printf(&line, "  image accesses: the general path out of line (the images of the first launch have a "
                  "copy's formats)\n");
  const uint64_t *l = launch->local_size;
  if (l[0] && (l[1] > 1 || l[2] > 1) && wg_drop_one_dim_copy(m, k->name))
    cc_str_printf(&line, "  no copy for groups of one dimension (the first launch's groups are %llux%llux%llu)\n",
                  (unsigned long long)l[0], (unsigned long long)l[1], (unsigned long long)l[2]);
  if (line.len != before) {
    free(k->report);
    k->report = cc_str_take(&line);
  } else {
    free(cc_str_take(&line));
  }
}

static int api_compile_kernels(const cc_device_desc *dev, const cc_blob *staged, const uint32_t *which, uint32_t n,
                               const cc_launch_hint *launch, cc_blob *out, char **log)
{
  cc_binary bin;
  cc_str msg = {0};
  cc_diag d = {0};
  out->data = NULL;
  out->size = 0;
  *log = NULL;
  int rc = cc_binary_read(staged->data, staged->size, &bin);
  if (rc != CC_OK) {
    *log = strdup("error: not a LaneCL program container\n");
    return rc;
  }
  /* a staged executable of this device, and kernels of it without code */
  int ok = bin.kind == CC_BIN_EXECUTABLE && !bin.native.size && bin.stage.size && n &&
           bin.device_key == cc_device_key(dev);
  unsigned char *have = calloc(bin.nkernels ? bin.nkernels : 1, 1);
  for (uint32_t i = 0; have && i < bin.nparts; i++)
    for (uint32_t k = 0; k < bin.parts[i].nkernels; k++)
      have[bin.parts[i].kernels[k]] = 1;
  for (uint32_t i = 0; ok && have && i < n; i++) {
    ok = which[i] < bin.nkernels && !have[which[i]];
    if (ok)
      have[which[i]] = 1;
  }
  cc_kernel_info *sub = calloc(n ? n : 1, sizeof(*sub));
  uint32_t *idx = malloc((n ? n : 1) * sizeof(*idx));
  cc_native_part *parts = realloc(bin.parts, (bin.nparts + 1) * sizeof(*parts));
  if (parts)
    bin.parts = parts;
  if (!have || !sub || !idx || !parts) {
    rc = CC_OUT_OF_MEMORY;
    goto done;
  }
  if (!ok) {
    *log = strdup("error: compile_kernels: not a staged executable of this device, or a kernel that has code\n");
    rc = CC_INTERNAL;
    goto done;
  }
  /* shallow copies: the back end fills in report, simd_width, stream_bytes */
  for (uint32_t i = 0; i < n; i++) {
    sub[i] = bin.kernels[which[i]];
    sub[i].report = sub[i].report ? strdup(sub[i].report) : NULL;
    idx[i] = which[i];
  }
  int opt_disable = (bin.kernels[which[0]].flags & CC_KFLAG_OPT_DISABLE) != 0;
  LLVMContextRef ctx = cc_context_create(&d);
  LLVMModuleRef m;
  cc_blob native = {0};
  rc = parse_bitcode(ctx, &bin.stage, &m);
  if (rc != CC_OK) {
    cc_log_line(&msg, "error: the program's staged module does not load");
  } else {
    char *blog = NULL;
    if (launch && n == 1 && !opt_disable)
      for_the_launch(m, &sub[0], launch);
    rc = cc_backend_kernels(m, dev, sub, n, opt_disable, &native, &blog);
    cc_log_line(&msg, blog);
    free(blog);
    LLVMDisposeModule(m);
  }
  LLVMContextDispose(ctx);
  cc_log_line(&msg, d.text.s);
  if (rc == CC_OK) {
    cc_wg_verdicts(sub, n, d.remarks.s);
    take_records(&bin, which, n, sub);
    bin.parts[bin.nparts++] = (cc_native_part){.nkernels = n, .kernels = idx, .code = native};
    idx = NULL;
    int all = 1;
    for (uint32_t i = 0; i < bin.nkernels && all; i++)
      all = have[i];
    if (all)  /* every kernel has its code: the stage is not needed any more */
      cc_blob_free(&bin.stage);
    rc = cc_binary_write(&bin, out);
  } else {
    cc_blob_free(&native);
  }
  free(d.text.s);
  free(d.remarks.s);
done:
  for (uint32_t i = 0; sub && i < n; i++)
    free(sub[i].report);
  free(sub);
  free(idx);
  free(have);
  cc_binary_free(&bin);
  if (!*log)
    *log = cc_str_take(&msg);
  else
    free(msg.s);
  return rc;
}

/* Link-time math options on every function of m (clLinkProgram). */
static void apply_link_math(LLVMModuleRef m, const cc_options *o)
{
  LLVMFastMathFlags fmf = 0;
  if (o->no_signed_zeros)
    fmf |= LLVMFastMathNoSignedZeros;
  if (o->finite_math)
    fmf |= LLVMFastMathNoNaNs | LLVMFastMathNoInfs;
  if (o->unsafe_math)
    fmf |= LLVMFastMathAllowReassoc | LLVMFastMathAllowReciprocal | LLVMFastMathAllowContract |
           LLVMFastMathApproxFunc | LLVMFastMathNoSignedZeros;
  if (!fmf && !o->denorms_are_zero)
    return;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  static const struct { int bit; const char *attr; } attrs[] = {
      {LLVMFastMathNoSignedZeros, "no-signed-zeros-fp-math"},
      {LLVMFastMathNoNaNs, "no-nans-fp-math"},
      {LLVMFastMathNoInfs, "no-infs-fp-math"},
      {LLVMFastMathAllowReassoc, "unsafe-fp-math"},
      {LLVMFastMathApproxFunc, "approx-func-fp-math"},
  };
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
      if (fmf & attrs[i].bit)
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateStringAttribute(ctx, attrs[i].attr, (unsigned)strlen(attrs[i].attr),
                                                          "true", 4));
    if (o->denorms_are_zero) {
      static const char k[] = "denormal-fp-math-f32", v[] = "preserve-sign,preserve-sign";
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(ctx, k, sizeof(k) - 1, v, sizeof(v) - 1));
    }
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); fmf && b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
        if (LLVMCanValueUseFastMathFlags(i))
          LLVMSetFastMathFlags(i, LLVMGetFastMathFlags(i) | fmf);
  }
}

static int api_link(const cc_device_desc *dev, const cc_blob *inputs, size_t ninputs, const char *options,
                    int create_library, cc_blob *out, char **log)
{
  cc_options o;
  cc_str msg = {0};
  cc_diag d = {0};
  char *olog = NULL;
  out->data = NULL;
  out->size = 0;
  int rc = cc_parse_link_options(options, &o, &create_library, &olog);
  cc_log_line(&msg, olog);
  free(olog);
  if (rc != CC_OK)
    goto out_log;
  if (!ninputs) {
    cc_log_line(&msg, "error: nothing to link");
    rc = CC_LINK_FAILED;
    goto out_log;
  }

  LLVMContextRef ctx = cc_context_create(&d);
  LLVMModuleRef m = NULL;
  uint32_t flags_all = 0;
  for (size_t i = 0; i < ninputs && rc == CC_OK; i++) {
    cc_binary bin;
    LLVMModuleRef part;
    if (cc_binary_read(inputs[i].data, inputs[i].size, &bin) != CC_OK) {
      cc_str_printf(&msg, "error: input %zu is not a LaneCL binary\n", i);
      rc = CC_INVALID_BINARY;
      break;
    }
    for (uint32_t j = 0; j < bin.nkernels; j++)
      flags_all |= bin.kernels[j].flags;
    rc = parse_bitcode(ctx, &bin.bitcode, &part);
    cc_binary_free(&bin);
    if (rc != CC_OK) {
      cc_str_printf(&msg, "error: input %zu holds no loadable code\n", i);
      break;
    }
    if (!m) {
      m = part;
    } else if (LLVMLinkModules2(m, part)) {
      /* the linker's own words first ("Linking globals named 'f': symbol multiply defined!") */
      cc_log_line(&msg, d.text.s);
      free(d.text.s);
      memset(&d.text, 0, sizeof(d.text));
      cc_str_printf(&msg, "error: linking input %zu with the inputs before it failed\n", i);
      rc = CC_LINK_FAILED;
    }
  }
  cc_kernel_info *k = NULL;
  uint32_t nk = 0;
  cc_blob bc = {0}, native = {0};
  if (rc == CC_OK) {
    apply_link_math(m, &o);
    char *err = NULL;
    rc = cc_meta_collect(m, &k, &nk, &err);
    cc_log_line(&msg, err);
    free(err);
    if (rc != CC_OK && rc != CC_OUT_OF_MEMORY)
      rc = CC_LINK_FAILED;
  }
  if (rc == CC_OK) {
    o.kernel_arg_info = !!(flags_all & CC_KFLAG_ARG_INFO);
    o.opt_disable = !!(flags_all & CC_KFLAG_OPT_DISABLE);
    set_kernel_flags(k, nk, &o);
    rc = module_bitcode(m, &bc);
  }
  if (rc == CC_OK && !create_library) {
    char *blog = NULL;
    rc = cc_backend(m, dev, k, nk, o.opt_disable, 0, &native, NULL, &blog);
    cc_log_line(&msg, blog);
    free(blog);
    if (rc == CC_OK)
      cc_wg_verdicts(k, nk, d.remarks.s);
    if (rc == CC_BUILD_FAILED)
      rc = CC_LINK_FAILED;
  }
  if (rc == CC_OK)
    rc = write_container(create_library ? CC_BIN_LIBRARY : CC_BIN_EXECUTABLE, dev, k, nk, &bc,
                         create_library ? NULL : &native, out);
  else {
    cc_kernel_infos_free(k, nk);
    cc_blob_free(&bc);
    cc_blob_free(&native);
  }
  if (m)
    LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  cc_log_line(&msg, d.text.s);
  free(d.text.s);
  free(d.remarks.s);
out_log:
  cc_options_free(&o);
  *log = cc_str_take(&msg);
  return rc;
}

static int api_disassemble(const cc_device_desc *dev, const cc_blob *binary, int what, char **text)
{
  cc_binary bin;
  cc_diag d = {0};
  *text = NULL;
  if (what < 0 || what > 2)
    return CC_INTERNAL;
  int rc = cc_binary_read(binary->data, binary->size, &bin);
  if (rc != CC_OK) {
    *text = strdup("error: not a LaneCL binary\n");
    return rc;
  }
  LLVMContextRef ctx = cc_context_create(&d);
  LLVMModuleRef m;
  rc = parse_bitcode(ctx, &bin.bitcode, &m);
  if (rc != CC_OK) {
    *text = strdup("error: the binary holds no loadable code\n");
  } else if (what == 0) {
    char *ir = LLVMPrintModuleToString(m);
    *text = strdup(ir);
    LLVMDisposeMessage(ir);
    rc = *text ? CC_OK : CC_OUT_OF_MEMORY;
    LLVMDisposeModule(m);
  } else {
    int opt_disable = bin.nkernels && (bin.kernels[0].flags & CC_KFLAG_OPT_DISABLE);
    char *log = NULL;
    rc = cc_backend(m, dev, bin.kernels, bin.nkernels, opt_disable, what, NULL, text, &log);
    if (rc != CC_OK) {
      free(*text);
      *text = log;
      log = NULL;
    }
    free(log);
    LLVMDisposeModule(m);
  }
  LLVMContextDispose(ctx);
  free(d.text.s);
  free(d.remarks.s);
  cc_binary_free(&bin);
  return rc;
}

static int api_target(const cc_device_desc *dev, char **cpu, char **features)
{
  const char *c = cc_target_cpu(dev);
  *cpu = c ? strdup(c) : NULL;
  *features = cc_target_features(dev);
  if (*cpu && *features)
    return CC_OK;
  free(*cpu);
  free(*features);
  *cpu = *features = NULL;
  return CC_OUT_OF_MEMORY;
}

/* ---- the version string: compiler, LLVM, and hashes of this library and
 * of the builtins library, so a new build of either invalidates cached
 * binaries. ---- */

static char version[160];
static cc_api api = {
    .api_version = CC_API_VERSION,
    .version_string = version,
    .compile = api_compile,
    .link = api_link,
    .build = api_build,
    .build_staged = api_build_staged,
    .compile_kernels = api_compile_kernels,
    .disassemble = api_disassemble,
    .target = api_target,
};
static pthread_once_t version_once = PTHREAD_ONCE_INIT;

static void version_init(void)
{
  uint64_t self = 0, builtins = 0;
  Dl_info info;
  cc_blob b;
  if (dladdr((void *)version_init, &info) && info.dli_fname && cc_read_file(info.dli_fname, &b) == CC_OK) {
    self = cc_hash64(b.data, b.size, 0);
    cc_blob_free(&b);
  }
  const void *data;
  size_t size;
  if (cc_builtins_bytes(&data, &size) == CC_OK) {
    /* a shard file's trailer is the FNV-1a of its content (cc_builtins.c) */
    const unsigned char *p = data;
    if (size >= 28 && !memcmp(p, CC_BUILTINS_MAGIC, 8))
      for (int i = 0; i < 8; i++)
        builtins |= (uint64_t)p[size - 8 + i] << (8 * i);
    else
      builtins = cc_hash64(data, size, 0);
  }
  snprintf(version, sizeof(version), "LaneCL-cc %s LLVM %s lib %016llx builtins %016llx", LANECL_VERSION,
           LANECL_LLVM_VERSION, (unsigned long long)self, (unsigned long long)builtins);
}

__attribute__((visibility("default"))) const cc_api *cc_get_api(void)
{
  pthread_once(&version_once, version_init);
  return &api;
}

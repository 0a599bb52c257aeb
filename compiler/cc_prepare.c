/* Prepare: a SPIR module becomes a host module (see cc_internal.h).
 *
 *  1. OpenCL opaque types (clang's target("spirv.*") types for images,
 *     samplers, events, pipes, queues) become `ptr`: the X86 back end cannot
 *     lower target extension types, and on the CPU every such object is a
 *     pointer-sized handle.  The C API cannot rebuild a function with new
 *     types, so a module that has them goes through its textual IR once; a
 *     module without them (most) pays nothing.
 *     Then the image and sampler handles are opened (builtins/lanecl_image.h
 *     has the ABI): a call to a function whose name contains
 *     "__lanecl_image_desc" (declared, never defined, by builtins/image.cl for
 *     every image type) becomes its argument, the image's `struct
 *     lanecl_image *` (an addrspacecast to the declared result's space); one
 *     to "__lanecl_sampler_bits" becomes ptrtoint of its argument, the
 *     CLK_* bits; clang's __translate_sampler_initializer(i32 bits), which it
 *     calls for every sampler_t constant of a kernel, becomes inttoptr of the
 *     bits.  The same in the builtins library and in kernels.
 *  2. Host triple and datalayout; the C calling convention on every function
 *     and call (spir_kernel and spir_func are no X86 conventions).
 *  3. clang's "target-cpu"/"target-features" go (they would pin the code to
 *     the SPIR target's defaults and block inlining); the target machine's CPU
 *     applies to every function.
 *  4. Every defined function but the kernels: internal, alwaysinline, no
 *     noinline/optnone (-cl-opt-disable adds them); kernels lose
 *     noinline/optnone; a kernel called from another kernel is inlined there.
 *     always-inline then leaves each kernel as one function; sroa, early-cse
 *     and simplifycfg clean up what inlining left (allocas of -cl-opt-disable
 *     code become values).
 *  5. Kernel-scope __local variables (addrspace(3) globals) become
 *     thread_local: a worker thread runs one work-group at a time, from start
 *     to end, so the thread's copy is that work-group's local memory.
 * Address spaces stay: 1 global, 2 constant, 3 local, 4 generic; the X86 back
 * end treats them all as the one flat space.
 */
#define _GNU_SOURCE
#include "compiler/cc_internal.h"
#include "compiler/cc_llvm_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* ---- target ---- */

/* The host's triple, CPU and features, asked of LLVM until all three are
 * there: LLVM returns strdup'ed strings, and one that failed to allocate
 * (NULL) is asked for again by the next call instead of staying NULL for the
 * life of the process. */
static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool host_ready;
static char *host_triple, *host_cpu, *host_features;

static bool host_init(void)
{
  if (atomic_load_explicit(&host_ready, memory_order_acquire))
    return true;
  pthread_mutex_lock(&host_lock);
  if (!host_triple) {
    char *t = LLVMGetDefaultTargetTriple();
    if (t) {
      host_triple = LLVMNormalizeTargetTriple(t);
      LLVMDisposeMessage(t);
    }
  }
  if (!host_cpu)
    host_cpu = LLVMGetHostCPUName();
  if (!host_features)
    host_features = LLVMGetHostCPUFeatures();
  bool ok = host_triple && host_cpu && host_features;
  if (ok)
    atomic_store_explicit(&host_ready, true, memory_order_release);
  pthread_mutex_unlock(&host_lock);
  return ok;
}

const char *cc_host_triple(void)
{
  return host_init() ? host_triple : "(unknown: out of memory)";
}

/* Features of the vector extensions wider than bits (256: AVX-512; 128:
 * AVX and everything on top of it).  A token names a feature, without its
 * sign. */
static int wider_than(const char *name, size_t len, unsigned bits)
{
  static const char *const avx512[] = {"avx512", "avx10", "evex512", "amx"};
  static const char *const avx[] = {"avx", "fma", "f16c", "vaes", "vpclmulqdq", "xop", "sha512", "sm3", "sm4"};
  for (unsigned i = 0; i < sizeof(avx512) / sizeof(avx512[0]); i++)
    if (bits < 512 && len >= strlen(avx512[i]) && !memcmp(name, avx512[i], strlen(avx512[i])))
      return 1;
  for (unsigned i = 0; i < sizeof(avx) / sizeof(avx[0]); i++)
    if (bits < 256 && len >= strlen(avx[i]) && !memcmp(name, avx[i], strlen(avx[i])))
      return 1;
  return 0;
}

char *cc_target_features(const cc_device_desc *dev)
{
  if (dev && dev->cpu_features)
    return strdup(dev->cpu_features);
  /* The host's features, less those of vectors wider than the device's
   * simd_bits: a device of 256 bits on an AVX-512 host is an AVX2-only
   * x86-64 (LANECL_SIMD_BITS).  The roots go last as well: a "-" of
   * avx512f (avx) also takes every feature that implies it. */
  if (!host_init())
    return NULL;
  unsigned bits = dev && dev->simd_bits ? dev->simd_bits : 512;
  size_t n = strlen(host_features);
  char *out = malloc(n + 32);
  if (!out)
    return NULL;
  size_t o = 0;
  for (const char *p = host_features; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len > 1) {
      if (o)
        out[o++] = ',';
      memcpy(out + o, p, len);
      if (out[o] == '+' && wider_than(p + 1, len - 1, bits))
        out[o] = '-';
      o += len;
    }
    p += len + (e != NULL);
  }
  out[o] = 0;
  if (bits < 512)
    strcat(out, o ? ",-avx512f" : "-avx512f");
  if (bits < 256)
    strcat(out, ",-avx");
  return out;
}

const char *cc_target_cpu(const cc_device_desc *dev)
{
  if (dev && dev->cpu_name)
    return dev->cpu_name;
  return host_init() ? host_cpu : NULL; /* NULL: out of memory */
}

LLVMTargetMachineRef cc_target_machine(const cc_device_desc *dev, int opt_level)
{
  static const LLVMCodeGenOptLevel levels[] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess,
                                               LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
  cc_llvm_init();
  if (!host_init())
    return NULL;
  const char *triple = host_triple;
  LLVMTargetRef target;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &err)) {
    LLVMDisposeMessage(err);
    return NULL;
  }
  char *features = cc_target_features(dev);
  if (!features)
    return NULL;
  if (opt_level < 0)
    opt_level = 0;
  if (opt_level > 3)
    opt_level = 3;
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, cc_target_cpu(dev), features, levels[opt_level],
                                                    LLVMRelocPIC, LLVMCodeModelDefault);
  free(features);
  return tm;
}

/* ---- 1. opaque types ---- */

static int is_opaque(LLVMTypeRef t)
{
  return LLVMGetTypeKind(t) == LLVMTargetExtTypeKind;
}

static int function_type_has_opaque(LLVMTypeRef ft)
{
  if (is_opaque(LLVMGetReturnType(ft)))
    return 1;
  unsigned n = LLVMCountParamTypes(ft);
  if (!n)
    return 0;
  LLVMTypeRef small[32];
  LLVMTypeRef *p = n <= 32 ? small : malloc(n * sizeof(*p));
  if (!p)
    return 1;  /* be safe: take the slow path */
  LLVMGetParamTypes(ft, p);
  int found = 0;
  for (unsigned i = 0; i < n && !found; i++)
    found = is_opaque(p[i]);
  if (p != small)
    free(p);
  return found;
}

static int module_has_opaque(LLVMModuleRef m)
{
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (is_opaque(LLVMGlobalGetValueType(g)))
      return 1;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (function_type_has_opaque(LLVMGlobalGetValueType(f)))
      return 1;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
        if (is_opaque(LLVMTypeOf(i)) || (LLVMIsAAllocaInst(i) && is_opaque(LLVMGetAllocatedType(i))))
          return 1;
  }
  return 0;
}

/* Every `target("...", ...)` of the text becomes `ptr`.  Strings in IR text
 * print '"' as \22, so `target("` only starts a type. */
static char *retype_text(const char *ir)
{
  size_t n = strlen(ir);
  char *out = malloc(n + 1);
  if (!out)
    return NULL;
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    if (!strncmp(ir + i, "target(\"", 8) && (i == 0 || ir[i - 1] == ' ' || ir[i - 1] == '(' ||
                                             ir[i - 1] == '<' || ir[i - 1] == '[' || ir[i - 1] == '{' ||
                                             ir[i - 1] == ',')) {
      size_t j = i + 7;
      int depth = 0, in_str = 0;
      for (; j < n; j++) {
        char c = ir[j];
        if (in_str) {
          if (c == '"')
            in_str = 0;
        } else if (c == '"') {
          in_str = 1;
        } else if (c == '(') {
          depth++;
        } else if (c == ')' && depth-- == 0) {
          break;
        }
      }
      if (j < n) {
        memcpy(out + o, "ptr", 3);
        o += 3;
        i = j + 1;
        continue;
      }
    }
    out[o++] = ir[i++];
  }
  out[o] = 0;
  return out;
}

/* Empties m so that another module's contents can be linked into it. */
static void empty_module(LLVMModuleRef m)
{
  LLVMValueRef f, g;
  while ((f = LLVMGetFirstFunction(m))) {
    LLVMReplaceAllUsesWith(f, LLVMGetPoison(LLVMTypeOf(f)));
    LLVMDeleteFunction(f);
  }
  while ((g = LLVMGetFirstGlobal(m))) {
    LLVMReplaceAllUsesWith(g, LLVMGetPoison(LLVMTypeOf(g)));
    LLVMDeleteGlobal(g);
  }
}

static int lower_opaque_types(LLVMModuleRef m, char **err)
{
  if (!module_has_opaque(m))
    return CC_OK;
  char *ir = LLVMPrintModuleToString(m);
  char *text = retype_text(ir);
  LLVMDisposeMessage(ir);
  if (!text) {
    cc_set_err(err, "error: out of memory");
    return CC_OUT_OF_MEMORY;
  }
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "retyped");
  free(text);
  LLVMModuleRef fresh = NULL;
  char *msg = NULL;
  if (LLVMParseIRInContext(ctx, buf, &fresh, &msg)) {
    cc_set_err(err, "internal error: rewriting OpenCL opaque types: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return CC_INTERNAL;
  }
  empty_module(m);
  if (LLVMLinkModules2(m, fresh)) {
    cc_set_err(err, "internal error: rewriting OpenCL opaque types: relinking failed");
    return CC_INTERNAL;
  }
  return CC_OK;
}

/* Loads through v (a descriptor pointer, or an address computed from it)
 * read fields that no kernel writes: !invariant.load lets LICM take them out
 * of the lane loops whatever the loops store. */
static void mark_invariant_loads(LLVMValueRef v, unsigned kind, LLVMValueRef node, int depth)
{
  if (depth > 8)
    return;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user))
      LLVMSetMetadata(user, kind, node);
    else if (LLVMIsAGetElementPtrInst(user) || LLVMIsAAddrSpaceCastInst(user) || LLVMIsABitCastInst(user))
      mark_invariant_loads(user, kind, node, depth + 1);
  }
}

/* Opens image and sampler handles (see the file comment). */
static void lower_image_calls(LLVMModuleRef m)
{
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMValueRef next;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = next) {
    next = LLVMGetNextFunction(f);
    if (!LLVMIsDeclaration(f))
      continue;
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    int kind = strstr(name, "__lanecl_image_desc") ? 1
               : strstr(name, "__lanecl_sampler_bits") ? 2
               : !strcmp(name, "__translate_sampler_initializer") ? 3
                                                                   : 0;
    if (!kind)
      continue;
    LLVMUseRef u;
    while ((u = LLVMGetFirstUse(f))) {
      LLVMValueRef call = LLVMGetUser(u);
      if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f || LLVMGetNumArgOperands(call) != 1) {
        LLVMReplaceAllUsesWith(f, LLVMGetPoison(LLVMTypeOf(f)));
        break;
      }
      LLVMValueRef arg = LLVMGetOperand(call, 0);
      LLVMTypeRef rt = LLVMTypeOf(call), at = LLVMTypeOf(arg);
      LLVMPositionBuilderBefore(b, call);
      LLVMValueRef v = arg;
      if (kind == 1 && rt != at)
        v = LLVMGetTypeKind(at) == LLVMPointerTypeKind ? LLVMBuildAddrSpaceCast(b, arg, rt, "img")
                                                       : LLVMBuildIntToPtr(b, arg, rt, "img");
      else if (kind == 2 && rt != at)
        v = LLVMGetTypeKind(at) == LLVMPointerTypeKind ? LLVMBuildPtrToInt(b, arg, rt, "smp")
                                                       : LLVMBuildIntCast2(b, arg, rt, 0, "smp");
      else if (kind == 3 && rt != at)
        v = LLVMBuildIntToPtr(b, LLVMBuildZExt(b, arg, LLVMInt64TypeInContext(ctx), ""), rt, "smp");
      LLVMReplaceAllUsesWith(call, v);
      LLVMInstructionEraseFromParent(call);
      if (kind == 1 && v != arg)
        mark_invariant_loads(v, LLVMGetMDKindIDInContext(ctx, "invariant.load", 14),
                             LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, NULL, 0)), 0);
    }
    if (!LLVMGetFirstUse(f))
      LLVMDeleteFunction(f);
  }
  LLVMDisposeBuilder(b);
}

/* ---- 2.-5. ---- */

static void remove_enum_attr(LLVMValueRef f, const char *name)
{
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
}


static int is_spir_kernel(LLVMValueRef f)
{
  return !LLVMIsDeclaration(f) && LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv;
}

/* Triple, datalayout, calling conventions, target attributes, TLS locals. */
static void retarget(LLVMModuleRef m, LLVMTargetMachineRef tm)
{
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  char *dl = LLVMCopyStringRepOfTargetData(td);
  LLVMSetDataLayout(m, dl);
  LLVMDisposeMessage(dl);
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(m, triple);
  LLVMDisposeMessage(triple);

  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    LLVMSetFunctionCallConv(f, LLVMCCallConv);
    LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-cpu", 10);
    LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-features", 15);
    LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "tune-cpu", 8);
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i))
          LLVMSetInstructionCallConv(i, LLVMCCallConv);
  }
  /* __local variables: thread-local, and aligned to their size up to 128
   * bytes (the largest OpenCL C type, long16), whatever their element type:
   * kernels cast them to wider vectors (piglit's vstorea_half16 to a
   * `local short[32]`, a 32-byte aligned store, crashed). */
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 && !LLVMIsDeclaration(g)) {
      LLVMSetThreadLocal(g, 1);
      unsigned long long size = LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
      unsigned align = 1;
      while (align < 128 && align < size)
        align *= 2;
      if (LLVMGetAlignment(g) < align)
        LLVMSetAlignment(g, align);
    }
  LLVMDisposeTargetData(td);
}

/* True when some instruction calls f. */
static int is_called(LLVMValueRef f)
{
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if ((LLVMIsACallInst(user) || LLVMIsAInvokeInst(user)) && LLVMGetCalledValue(user) == f)
      return 1;
  }
  return 0;
}

int cc_prepare(LLVMModuleRef m, LLVMTargetMachineRef tm, char **err)
{
  int rc = lower_opaque_types(m, err);
  if (rc != CC_OK)
    return rc;
  lower_image_calls(m);

  /* Kernels are known by their calling convention: note them before it goes. */
  size_t nk = 0, cap = 0;
  LLVMValueRef *kernels = NULL;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!is_spir_kernel(f))
      continue;
    if (nk == cap) {
      cap = cap ? 2 * cap : 8;
      LLVMValueRef *k = realloc(kernels, cap * sizeof(*k));
      if (!k) {
        free(kernels);
        cc_set_err(err, "error: out of memory");
        return CC_OUT_OF_MEMORY;
      }
      kernels = k;
    }
    kernels[nk++] = f;
  }

  retarget(m, tm);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    int kernel = 0;
    for (size_t i = 0; i < nk && !kernel; i++)
      kernel = kernels[i] == f;
    remove_enum_attr(f, "optnone");
    remove_enum_attr(f, "noinline");
    if (!kernel) {
      LLVMSetLinkage(f, LLVMInternalLinkage);
      LLVMSetVisibility(f, LLVMDefaultVisibility);
    }
    if (!kernel || is_called(f))
      cc_add_fn_attr(f, "alwaysinline");
  }

  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m, "always-inline,function(sroa,early-cse,simplifycfg)", tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    cc_set_err(err, "internal error: preparing the module: %s", msg);
    LLVMDisposeErrorMessage(msg);
    free(kernels);
    return CC_INTERNAL;
  }
  for (size_t i = 0; i < nk; i++)
    remove_enum_attr(kernels[i], "alwaysinline");
  free(kernels);
  return CC_OK;
}

int cc_prepare_builtins(LLVMModuleRef m, LLVMTargetMachineRef tm, char **err)
{
  int rc = lower_opaque_types(m, err);
  if (rc != CC_OK)
    return rc;
  lower_image_calls(m);
  retarget(m, tm);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
      LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
      LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
  return CC_OK;
}

/* Prepare: a SPIR module becomes a host module (see cc_internal.h).
 *
 *  1. OpenCL opaque types (clang's target("spirv.*") types for images,
 *     samplers, events, pipes, queues) become `ptr`: the X86 back end cannot
 *     lower target extension types, and on the CPU every such object is a
 *     pointer-sized handle.  The C API cannot rebuild a function with new
 *     types, so a module that has them goes through its textual IR once; a
 *     module without them (most) pays nothing.
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

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* ---- target ---- */

static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static char *host_triple, *host_cpu, *host_features;

static void host_init(void)
{
  char *t = LLVMGetDefaultTargetTriple();
  host_triple = LLVMNormalizeTargetTriple(t);
  LLVMDisposeMessage(t);
  host_cpu = LLVMGetHostCPUName();
  host_features = LLVMGetHostCPUFeatures();
}

const char *cc_host_triple(void)
{
  pthread_once(&host_once, host_init);
  return host_triple;
}

LLVMTargetMachineRef cc_target_machine(const cc_device_desc *dev, int opt_level)
{
  static const LLVMCodeGenOptLevel levels[] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess,
                                               LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
  cc_llvm_init();
  const char *triple = cc_host_triple();
  LLVMTargetRef target;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &err)) {
    LLVMDisposeMessage(err);
    return NULL;
  }
  const char *cpu = dev && dev->cpu_name ? dev->cpu_name : host_cpu;
  const char *features = dev && dev->cpu_features ? dev->cpu_features : host_features;
  if (opt_level < 0)
    opt_level = 0;
  if (opt_level > 3)
    opt_level = 3;
  return LLVMCreateTargetMachine(target, triple, cpu, features, levels[opt_level], LLVMRelocPIC,
                                 LLVMCodeModelDefault);
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

/* ---- 2.-5. ---- */

static void remove_enum_attr(LLVMValueRef f, const char *name)
{
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
}

static void add_enum_attr(LLVMValueRef f, const char *name)
{
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(f));
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
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
  LLVMDisposeTargetData(td);
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
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 && !LLVMIsDeclaration(g))
      LLVMSetThreadLocal(g, 1);
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
      add_enum_attr(f, "alwaysinline");
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
  retarget(m, tm);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
      LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
      LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
  return CC_OK;
}

/* ---- the builtins library in shards ----
 *
 * Loading the whole library (12k+ functions) lazily costs 20-50 ms per build
 * before a single function is linked, so at build time it is split into
 * shards of a few dozen functions: a definition goes with every local
 * (internal/private) symbol it references, groups are ordered by name so
 * that overloads of a family (sin, sinDv4_f, ...) sit together, and packed
 * into shards.  A shard names the other shards' functions by declaration;
 * the runtime's link loads the shards that define what a module still
 * lacks, until nothing more is found (cc_backend.c).  The file format is in
 * cc_internal.h (CC_BUILTINS_MAGIC).
 *
 * A shard is made by recursive halving: clone, then in each half the other
 * half's definitions become available_externally and elim-avail-extern +
 * globaldce drop them (bodies, and the local symbols only they used). */

#define SHARD_TARGET 48  /* defined functions per shard, a group is never cut */

typedef struct gv_map {   /* LLVMValueRef -> index, open addressing */
  LLVMValueRef *key;
  uint32_t *val;
  size_t cap;
} gv_map;

static size_t ptr_hash(LLVMValueRef v, size_t cap)
{
  uintptr_t x = (uintptr_t)v;
  x ^= x >> 17;
  x *= 0x9e3779b97f4a7c15ull;
  return (size_t)(x >> 7) & (cap - 1);
}

static void map_put(gv_map *m, LLVMValueRef v, uint32_t i)
{
  size_t h = ptr_hash(v, m->cap);
  while (m->key[h])
    h = (h + 1) & (m->cap - 1);
  m->key[h] = v;
  m->val[h] = i;
}

static int map_get(const gv_map *m, LLVMValueRef v, uint32_t *i)
{
  for (size_t h = ptr_hash(v, m->cap); m->key[h]; h = (h + 1) & (m->cap - 1))
    if (m->key[h] == v) {
      *i = m->val[h];
      return 1;
    }
  return 0;
}

typedef struct split_plan {
  LLVMValueRef *gv;     /* every function and global variable */
  uint32_t n;
  uint32_t *parent;     /* union-find over gv */
  int32_t *shard;       /* shard of a definition, -1 for declarations and dead code */
  gv_map map;
  uint32_t nshards;
  char **names;         /* name of gv[i] (malloc'd) */
  uint32_t *by_name;    /* gv indices sorted by name, for lookups in clones */
  unsigned char *exported; /* gv[i] is a non-local definition (gv[] dies with the split) */
} split_plan;

static uint32_t uf_find(uint32_t *p, uint32_t x)
{
  while (p[x] != x) {
    p[x] = p[p[x]];
    x = p[x];
  }
  return x;
}

static void uf_union(uint32_t *p, uint32_t a, uint32_t b)
{
  a = uf_find(p, a);
  b = uf_find(p, b);
  if (a != b)
    p[a < b ? b : a] = a < b ? a : b;
}

static int is_local(LLVMValueRef g)
{
  LLVMLinkage l = LLVMGetLinkage(g);
  return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

/* Unites `owner` with every local symbol that value v refers to. */
static void unite_refs(split_plan *p, uint32_t owner, LLVMValueRef v, int depth)
{
  uint32_t j;
  if (LLVMIsAGlobalValue(v)) {
    if (map_get(&p->map, v, &j) && is_local(v))
      uf_union(p->parent, owner, j);
    return;
  }
  if (!LLVMIsAConstant(v) || depth > 12)
    return;
  int n = LLVMGetNumOperands(v);
  for (int k = 0; k < n; k++)
    unite_refs(p, owner, LLVMGetOperand(v, (unsigned)k), depth + 1);
}

static const char *family_key(const char *name)
{
  /* _Z3sinDv4_f -> sinDv4_f: overloads sort next to each other */
  if (name[0] == '_' && name[1] == 'Z') {
    const char *q = name + 2;
    while (*q >= '0' && *q <= '9')
      q++;
    return q;
  }
  return name;
}

static int cmp_names(const void *a, const void *b, void *plan)
{
  const split_plan *p = plan;
  return strcmp(p->names[*(const uint32_t *)a], p->names[*(const uint32_t *)b]);
}

typedef struct group {
  uint32_t root;
  const char *key;
  uint32_t nfuncs;
} group;

static int cmp_groups(const void *a, const void *b)
{
  const group *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : (x->root < y->root ? -1 : x->root > y->root);
}

static void plan_free(split_plan *p)
{
  for (uint32_t i = 0; p->names && i < p->n; i++)
    free(p->names[i]);
  free(p->names);
  free(p->gv);
  free(p->parent);
  free(p->shard);
  free(p->map.key);
  free(p->map.val);
  free(p->by_name);
  free(p->exported);
}

static int plan_split(LLVMModuleRef m, split_plan *p)
{
  memset(p, 0, sizeof(*p));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    p->n++;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    p->n++;
  p->map.cap = 16;
  while (p->map.cap < 2 * (size_t)p->n + 2)
    p->map.cap *= 2;
  p->gv = calloc(p->n + 1, sizeof(*p->gv));
  p->parent = calloc(p->n + 1, sizeof(*p->parent));
  p->shard = calloc(p->n + 1, sizeof(*p->shard));
  p->names = calloc(p->n + 1, sizeof(*p->names));
  p->by_name = calloc(p->n + 1, sizeof(*p->by_name));
  p->exported = calloc(p->n + 1, 1);
  p->map.key = calloc(p->map.cap, sizeof(*p->map.key));
  p->map.val = calloc(p->map.cap, sizeof(*p->map.val));
  group *groups = calloc(p->n + 1, sizeof(*groups));
  if (!p->gv || !p->parent || !p->shard || !p->names || !p->by_name || !p->exported || !p->map.key ||
      !p->map.val || !groups) {
    free(groups);
    return CC_OUT_OF_MEMORY;
  }
  uint32_t i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    p->gv[i++] = f;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    p->gv[i++] = g;
  for (i = 0; i < p->n; i++) {
    size_t len = 0;
    const char *name = LLVMGetValueName2(p->gv[i], &len);
    if (!len) {  /* clones are matched by name: every symbol gets one */
      char anon[32];
      snprintf(anon, sizeof(anon), "__lanecl_anon.%u", i);
      LLVMSetValueName2(p->gv[i], anon, strlen(anon));
      name = LLVMGetValueName2(p->gv[i], &len);
    }
    if (!(p->names[i] = strndup(name, len))) {
      free(groups);
      return CC_OUT_OF_MEMORY;
    }
    p->parent[i] = i;
    p->shard[i] = -1;
    p->by_name[i] = i;
    p->exported[i] = !LLVMIsDeclaration(p->gv[i]) && !is_local(p->gv[i]);
    map_put(&p->map, p->gv[i], i);
  }
  /* Every definition with the local symbols it uses. */
  for (i = 0; i < p->n; i++) {
    LLVMValueRef v = p->gv[i];
    if (LLVMIsAFunction(v)) {
      for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(v); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
          int nops = LLVMGetNumOperands(in);
          for (int k = 0; k < nops; k++)
            unite_refs(p, i, LLVMGetOperand(in, (unsigned)k), 0);
        }
    } else if (!LLVMIsDeclaration(v) && LLVMGetInitializer(v)) {
      unite_refs(p, i, LLVMGetInitializer(v), 0);
    }
  }
  /* Groups that define something the outside can name, ordered by family. */
  uint32_t ng = 0;
  for (i = 0; i < p->n; i++)
    if (uf_find(p->parent, i) == i) {
      groups[ng].root = i;
      groups[ng].key = NULL;
      ng++;
    }
  for (i = 0; i < p->n; i++) {
    LLVMValueRef v = p->gv[i];
    if (LLVMIsDeclaration(v))
      continue;
    uint32_t r = uf_find(p->parent, i);
    group *g = NULL;
    for (uint32_t lo = 0, hi = ng; lo < hi;) {  /* groups are in root order */
      uint32_t mid = (lo + hi) / 2;
      if (groups[mid].root == r) {
        g = &groups[mid];
        break;
      }
      if (groups[mid].root < r)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (LLVMIsAFunction(v))
      g->nfuncs++;
    if (!is_local(v)) {
      const char *key = family_key(p->names[i]);
      if (!g->key || strcmp(key, g->key) < 0)
        g->key = key;
    }
  }
  uint32_t live = 0;
  for (uint32_t k = 0; k < ng; k++)
    if (groups[k].key)
      groups[live++] = groups[k];
  qsort(groups, live, sizeof(*groups), cmp_groups);
  /* Pack groups into shards; a root's shard is its group's. */
  int32_t *root_shard = malloc((p->n + 1) * sizeof(*root_shard));
  if (!root_shard) {
    free(groups);
    return CC_OUT_OF_MEMORY;
  }
  for (i = 0; i < p->n; i++)
    root_shard[i] = -1;
  uint32_t in_shard = 0;
  p->nshards = 0;
  for (uint32_t k = 0; k < live; k++) {
    if (p->nshards == 0 || in_shard >= SHARD_TARGET) {
      p->nshards++;
      in_shard = 0;
    }
    root_shard[groups[k].root] = (int32_t)(p->nshards - 1);
    in_shard += groups[k].nfuncs;
  }
  for (i = 0; i < p->n; i++)
    if (!LLVMIsDeclaration(p->gv[i]))
      p->shard[i] = root_shard[uf_find(p->parent, i)];
  free(root_shard);
  free(groups);
  qsort_r(p->by_name, p->n, sizeof(*p->by_name), cmp_names, p);
  return CC_OK;
}

/* The shard of the symbol of this name (-1 when none). */
static int32_t plan_shard(const split_plan *p, const char *name, size_t len)
{
  uint32_t lo = 0, hi = p->n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    const char *s = p->names[p->by_name[mid]];
    int c = strncmp(s, name, len);
    if (!c && s[len])
      c = 1;
    if (!c)
      return p->shard[p->by_name[mid]];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

/* Keeps the definitions of shards [lo, hi) in m: the others become
 * declarations, local symbols only they used go. */
static int keep_shards(LLVMModuleRef m, const split_plan *p, uint32_t lo, uint32_t hi, int final,
                       LLVMTargetMachineRef tm, char **err)
{
  LLVMValueRef g;
  for (int pass = 0; pass < 2; pass++)
    for (g = pass ? LLVMGetFirstGlobal(m) : LLVMGetFirstFunction(m); g;
         g = pass ? LLVMGetNextGlobal(g) : LLVMGetNextFunction(g)) {
      if (LLVMIsDeclaration(g))
        continue;
      size_t len = 0;
      const char *name = LLVMGetValueName2(g, &len);
      int32_t s = plan_shard(p, name, len);
      int member = s >= (int32_t)lo && s < (int32_t)hi;
      if (member)
        LLVMSetLinkage(g, is_local(g) ? LLVMGetLinkage(g) : LLVMExternalLinkage);
      else if (!is_local(g))
        LLVMSetLinkage(g, LLVMAvailableExternallyLinkage);
    }
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m, "elim-avail-extern,globaldce", tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    cc_set_err(err, "error: splitting the builtins library: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return CC_INTERNAL;
  }
  if (final)  /* what the shard defines is linked only where used */
    for (int pass = 0; pass < 2; pass++)
      for (g = pass ? LLVMGetFirstGlobal(m) : LLVMGetFirstFunction(m); g;
           g = pass ? LLVMGetNextGlobal(g) : LLVMGetNextFunction(g))
        if (!LLVMIsDeclaration(g) && !is_local(g))
          LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
  return CC_OK;
}

static int split_range(LLVMModuleRef m, const split_plan *p, uint32_t lo, uint32_t hi,
                       LLVMTargetMachineRef tm, cc_blob *blobs, char **err)
{
  int rc;
  if (hi - lo == 1) {
    rc = keep_shards(m, p, lo, hi, 1, tm, err);
    if (rc == CC_OK) {
      LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
      size_t n = LLVMGetBufferSize(buf);
      blobs[lo].data = malloc(n ? n : 1);
      if (blobs[lo].data) {
        memcpy(blobs[lo].data, LLVMGetBufferStart(buf), n);
        blobs[lo].size = n;
      } else {
        rc = CC_OUT_OF_MEMORY;
      }
      LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeModule(m);
    return rc;
  }
  uint32_t mid = lo + (hi - lo) / 2;
  LLVMModuleRef other = LLVMCloneModule(m);
  rc = keep_shards(m, p, lo, mid, 0, tm, err);
  if (rc == CC_OK)
    rc = keep_shards(other, p, mid, hi, 0, tm, err);
  if (rc != CC_OK) {
    LLVMDisposeModule(m);
    LLVMDisposeModule(other);
    return rc;
  }
  rc = split_range(m, p, lo, mid, tm, blobs, err);
  int rc2 = split_range(other, p, mid, hi, tm, blobs, err);
  return rc != CC_OK ? rc : rc2;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
  for (int i = 0; i < n; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* The container: see CC_BUILTINS_MAGIC in cc_internal.h. */
static int write_shards(const char *path, const split_plan *p, const cc_blob *blobs)
{
  size_t size = 8 + 4 + 4 + 4 + (size_t)p->nshards * 16;
  uint32_t nsym = 0;
  for (uint32_t i = 0; i < p->n; i++)
    if (p->shard[i] >= 0 && p->exported[i]) {
      size += 8 + strlen(p->names[i]);
      nsym++;
    }
  size_t data_at = size;
  for (uint32_t s = 0; s < p->nshards; s++)
    size += blobs[s].size;
  size += 8;
  unsigned char *out = malloc(size), *q = out;
  if (!out)
    return CC_OUT_OF_MEMORY;
  memcpy(q, CC_BUILTINS_MAGIC, 8);
  put_le(q + 8, CC_BUILTINS_VERSION, 4);
  put_le(q + 12, p->nshards, 4);
  put_le(q + 16, nsym, 4);
  q += 20;
  size_t at = data_at;
  for (uint32_t s = 0; s < p->nshards; s++) {
    put_le(q, at, 8);
    put_le(q + 8, blobs[s].size, 8);
    q += 16;
    at += blobs[s].size;
  }
  for (uint32_t i = 0; i < p->n; i++)
    if (p->shard[i] >= 0 && p->exported[i]) {
      size_t len = strlen(p->names[i]);
      put_le(q, (uint64_t)p->shard[i], 4);
      put_le(q + 4, len, 4);
      memcpy(q + 8, p->names[i], len);
      q += 8 + len;
    }
  for (uint32_t s = 0; s < p->nshards; s++) {
    memcpy(q, blobs[s].data, blobs[s].size);
    q += blobs[s].size;
  }
  put_le(q, cc_hash64(out, size - 8, 0), 8);
  int rc = cc_write_file(path, out, size);
  free(out);
  return rc;
}

int cc_prepare_builtins_file(const char *in, const char *out, char **log)
{
  cc_diag d = {0};
  cc_blob bytes;
  *log = NULL;
  if (cc_read_file(in, &bytes) != CC_OK) {
    cc_set_err(log, "error: cannot read %s", in);
    return CC_INTERNAL;
  }
  LLVMContextRef ctx = cc_context_create(&d);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bytes.data, bytes.size, in, 0);
  LLVMModuleRef m = NULL;
  int rc = CC_OK;
  if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
    cc_set_err(log, "error: %s is not LLVM bitcode: %s", in, d.text.s ? d.text.s : "");
    rc = CC_INVALID_BINARY;
    m = NULL;
  }
  LLVMDisposeMemoryBuffer(buf);
  cc_blob_free(&bytes);
  LLVMTargetMachineRef tm = rc == CC_OK ? cc_target_machine(NULL, 2) : NULL;
  if (rc == CC_OK && !tm) {
    cc_set_err(log, "error: no target machine for %s", cc_host_triple());
    rc = CC_INTERNAL;
  }
  double t = cc_now_ms();
  if (rc == CC_OK)
    rc = cc_prepare_builtins(m, tm, log);
  cc_timing("retarget", t);
  if (rc == CC_OK) {
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
      cc_set_err(log, "error: the prepared builtins library is invalid IR: %s", msg);
      rc = CC_INTERNAL;
    }
    LLVMDisposeMessage(msg);
  }
  split_plan plan = {0};
  cc_blob *blobs = NULL;
  t = cc_now_ms();
  if (rc == CC_OK)
    rc = plan_split(m, &plan);
  cc_timing("plan", t);
  if (rc == CC_OK && plan.nshards == 0) {
    cc_set_err(log, "error: %s defines no builtins", in);
    rc = CC_INVALID_BINARY;
  }
  if (rc == CC_OK && !(blobs = calloc(plan.nshards, sizeof(*blobs))))
    rc = CC_OUT_OF_MEMORY;
  t = cc_now_ms();
  if (rc == CC_OK) {
    rc = split_range(m, &plan, 0, plan.nshards, tm, blobs, log);
    m = NULL;  /* consumed */
  }
  cc_timing("split", t);
  if (rc == CC_OK && write_shards(out, &plan, blobs) != CC_OK) {
    cc_set_err(log, "error: cannot write %s", out);
    rc = CC_INTERNAL;
  }
  for (uint32_t s = 0; blobs && s < plan.nshards; s++)
    cc_blob_free(&blobs[s]);
  free(blobs);
  plan_free(&plan);
  if (tm)
    LLVMDisposeTargetMachine(tm);
  if (m)
    LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  free(d.text.s);
  return rc;
}

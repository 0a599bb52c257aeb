/* Kernel metadata from a SPIR module (clang's spir64 output, before
 * cc_prepare): for every spir_kernel function its arguments (kind, size and
 * alignment from the module's datalayout, qualifiers and names from clang's
 * !kernel_arg_* lists), its attributes, and the static __local and private
 * memory it uses.
 */
#define _GNU_SOURCE
#include "compiler/cc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel metadata clang attaches to a spir_kernel function. */
typedef struct kernel_md {
  LLVMValueRef addr_space, access_qual, type, type_qual, name;
  LLVMValueRef reqd, hint, vec_hint, sub_group;
} kernel_md;

static void read_md(LLVMContextRef ctx, LLVMValueRef f, kernel_md *md)
{
  static const char *const names[] = {
      "kernel_arg_addr_space", "kernel_arg_access_qual", "kernel_arg_type", "kernel_arg_type_qual",
      "kernel_arg_name", "reqd_work_group_size", "work_group_size_hint", "vec_type_hint",
      "intel_reqd_sub_group_size"};
  LLVMValueRef *slots[] = {&md->addr_space, &md->access_qual, &md->type, &md->type_qual, &md->name,
                           &md->reqd, &md->hint, &md->vec_hint, &md->sub_group};
  unsigned ids[sizeof(names) / sizeof(names[0])];
  memset(md, 0, sizeof(*md));
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    ids[i] = LLVMGetMDKindIDInContext(ctx, names[i], (unsigned)strlen(names[i]));
  size_t n = 0;
  LLVMValueMetadataEntry *e = LLVMGlobalCopyAllMetadata(f, &n);
  for (size_t j = 0; j < n; j++) {
    unsigned kind = LLVMValueMetadataEntriesGetKind(e, (unsigned)j);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
      if (kind == ids[i])
        *slots[i] = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(e, (unsigned)j));
  }
  if (e)
    LLVMDisposeValueMetadataEntries(e);
}

/* Operand i of an MD node, or NULL. */
static LLVMValueRef md_op(LLVMValueRef node, unsigned i)
{
  if (!node)
    return NULL;
  unsigned n = LLVMGetMDNodeNumOperands(node);
  if (i >= n)
    return NULL;
  LLVMValueRef small[64];
  LLVMValueRef *ops = n <= 64 ? small : malloc(n * sizeof(*ops));
  if (!ops)
    return NULL;
  LLVMGetMDNodeOperands(node, ops);
  LLVMValueRef v = ops[i];
  if (ops != small)
    free(ops);
  return v;
}

/* String operand i of an MD node ("" when absent). */
static char *md_str(LLVMValueRef node, unsigned i)
{
  LLVMValueRef v = md_op(node, i);
  unsigned len = 0;
  const char *s = v ? LLVMGetMDString(v, &len) : NULL;
  return s ? strndup(s, len) : strdup("");
}

static uint64_t md_int(LLVMValueRef node, unsigned i)
{
  LLVMValueRef v = md_op(node, i);
  return v && LLVMIsAConstantInt(v) ? LLVMConstIntGetZExtValue(v) : 0;
}

static int has_word(const char *s, const char *w)
{
  size_t n = strlen(w);
  for (const char *p = s; (p = strstr(p, w)); p += n)
    if ((p == s || p[-1] == ' ') && (p[n] == 0 || p[n] == ' '))
      return 1;
  return 0;
}

static uint32_t access_qual(const char *s)
{
  if (!strcmp(s, "read_only"))
    return CC_ACCESS_READ_ONLY;
  if (!strcmp(s, "write_only"))
    return CC_ACCESS_WRITE_ONLY;
  if (!strcmp(s, "read_write"))
    return CC_ACCESS_READ_WRITE;
  return CC_ACCESS_NONE;
}

/* OpenCL C name of a vec_type_hint type: float4, uint, ... */
static char *hint_type_name(LLVMValueRef node)
{
  LLVMValueRef v = md_op(node, 0);
  if (!v)
    return strdup("");
  int is_signed = md_int(node, 1) != 0;
  LLVMTypeRef t = LLVMTypeOf(v);
  unsigned lanes = 0;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    lanes = LLVMGetVectorSize(t);
    t = LLVMGetElementType(t);
  }
  const char *base = "";
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind: base = "half"; break;
  case LLVMFloatTypeKind: base = "float"; break;
  case LLVMDoubleTypeKind: base = "double"; break;
  case LLVMIntegerTypeKind:
    switch (LLVMGetIntTypeWidth(t)) {
    case 8: base = is_signed ? "char" : "uchar"; break;
    case 16: base = is_signed ? "short" : "ushort"; break;
    case 32: base = is_signed ? "int" : "uint"; break;
    case 64: base = is_signed ? "long" : "ulong"; break;
    }
    break;
  default: break;
  }
  char buf[32];
  if (lanes)
    snprintf(buf, sizeof(buf), "%s%u", base, lanes);
  else
    snprintf(buf, sizeof(buf), "%s", base);
  return strdup(buf);
}

static int fill_arg(LLVMContextRef ctx, LLVMTargetDataRef td, LLVMValueRef f, unsigned i,
                    const kernel_md *md, cc_kernel_arg *a)
{
  LLVMValueRef p = LLVMGetParam(f, i);
  LLVMTypeRef t = LLVMTypeOf(p);
  a->name = md_str(md->name, i);
  a->type_name = md_str(md->type, i);
  if (!a->name || !a->type_name)
    return CC_OUT_OF_MEMORY;
  char *tq = md_str(md->type_qual, i);
  char *aq = md_str(md->access_qual, i);
  if (!tq || !aq) {
    free(tq);
    free(aq);
    return CC_OUT_OF_MEMORY;
  }
  a->type_qual = (has_word(tq, "const") ? CC_TQ_CONST : 0) | (has_word(tq, "restrict") ? CC_TQ_RESTRICT : 0) |
                 (has_word(tq, "volatile") ? CC_TQ_VOLATILE : 0) | (has_word(tq, "pipe") ? CC_TQ_PIPE : 0);
  a->access_qual = access_qual(aq);
  free(tq);
  free(aq);
  uint64_t as = md->addr_space ? md_int(md->addr_space, i) : 0;
  a->addr_space = as <= CC_AS_GENERIC ? (uint32_t)as : CC_AS_PRIVATE;
  a->size = a->align = sizeof(void *);

  if (LLVMGetTypeKind(t) == LLVMTargetExtTypeKind) {
    /* OpenCL opaque types: handles of pointer size. */
    const char *tn = LLVMGetTargetExtTypeName(t);
    if (!strcmp(tn, "spirv.Sampler"))
      a->kind = CC_ARG_SAMPLER;
    else if (!strcmp(tn, "spirv.Image"))
      a->kind = CC_ARG_IMAGE;
    else if (!strcmp(tn, "spirv.Pipe"))
      a->kind = CC_ARG_BUFFER;
    else
      a->kind = CC_ARG_SCALAR;
    if (a->kind == CC_ARG_SAMPLER)
      a->addr_space = CC_AS_PRIVATE;
    return CC_OK;
  }
  if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    LLVMAttributeRef bv = LLVMGetEnumAttributeAtIndex(f, i + 1, byval);
    if (bv) {
      /* Structs and unions are passed `ptr byval(%T)` on spir64. */
      LLVMTypeRef st = LLVMGetTypeAttributeValue(bv);
      unsigned alignk = LLVMGetEnumAttributeKindForName("align", 5);
      LLVMAttributeRef al = LLVMGetEnumAttributeAtIndex(f, i + 1, alignk);
      uint64_t align = LLVMABIAlignmentOfType(td, st);
      if (al && LLVMGetEnumAttributeValue(al) > align)
        align = LLVMGetEnumAttributeValue(al);
      a->kind = CC_ARG_SCALAR;
      a->size = (uint32_t)LLVMABISizeOfType(td, st);
      a->align = (uint32_t)align;
      a->addr_space = CC_AS_PRIVATE;
      return CC_OK;
    }
    switch (LLVMGetPointerAddressSpace(t)) {
    case 3:
      a->kind = CC_ARG_LOCAL;
      a->addr_space = CC_AS_LOCAL;
      break;
    case 2:
      a->kind = CC_ARG_BUFFER;
      a->addr_space = CC_AS_CONSTANT;
      break;
    default:
      a->kind = CC_ARG_BUFFER;
      a->addr_space = CC_AS_GLOBAL;
      break;
    }
    return CC_OK;
  }
  a->kind = CC_ARG_SCALAR;
  a->addr_space = CC_AS_PRIVATE;
  a->size = (uint32_t)LLVMABISizeOfType(td, t);
  a->align = (uint32_t)LLVMABIAlignmentOfType(td, t);
  (void)ctx;
  return CC_OK;
}

/* ---- which functions a kernel reaches, which globals they use ---- */

typedef struct fnset {
  LLVMValueRef *v;
  size_t n, cap;
} fnset;

static int set_has(const fnset *s, LLVMValueRef f)
{
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i] == f)
      return 1;
  return 0;
}

static int set_add(fnset *s, LLVMValueRef f)
{
  if (set_has(s, f))
    return CC_OK;
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 16;
    LLVMValueRef *v = realloc(s->v, cap * sizeof(*v));
    if (!v)
      return CC_OUT_OF_MEMORY;
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = f;
  return CC_OK;
}

/* Every defined function reachable from k through direct calls (k included). */
static int reachable(LLVMValueRef k, fnset *out)
{
  int rc = set_add(out, k);
  for (size_t next = 0; next < out->n && rc == CC_OK; next++) {
    LLVMValueRef f = out->v[next];
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b && rc == CC_OK; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i && rc == CC_OK; i = LLVMGetNextInstruction(i)) {
        if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
          continue;
        LLVMValueRef callee = LLVMGetCalledValue(i);
        if (callee && LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee))
          rc = set_add(out, callee);
      }
  }
  return rc;
}

/* Adds the functions whose instructions use v (through constant expressions too). */
static int user_functions(LLVMValueRef v, fnset *out, int depth)
{
  int rc = CC_OK;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u && rc == CC_OK; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAInstruction(user))
      rc = set_add(out, LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)));
    else if (LLVMIsAConstant(user) && depth < 16)
      rc = user_functions(user, out, depth + 1);
  }
  return rc;
}

static int is_kernel(LLVMValueRef f)
{
  return !LLVMIsDeclaration(f) && LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv;
}

static int fill_memory(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef f, cc_kernel_info *k)
{
  fnset reach = {0};
  int rc = reachable(f, &reach);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g && rc == CC_OK; g = LLVMGetNextGlobal(g)) {
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != 3)
      continue;
    fnset users = {0};
    rc = user_functions(g, &users, 0);
    int used = 0;
    for (size_t i = 0; i < users.n && !used; i++)
      used = set_has(&reach, users.v[i]);
    free(users.v);
    if (used) {
      uint64_t align = LLVMGetAlignment(g) ? LLVMGetAlignment(g) : 1;
      k->local_mem_bytes = (k->local_mem_bytes + align - 1) / align * align;
      k->local_mem_bytes += LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
    }
  }
  for (size_t j = 0; j < reach.n && rc == CC_OK; j++)
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(reach.v[j]); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsAAllocaInst(i))
          k->private_mem_bytes += LLVMABISizeOfType(td, LLVMGetAllocatedType(i));
  free(reach.v);
  return rc;
}

static char *attributes_string(const cc_kernel_info *k, const kernel_md *md)
{
  cc_str s = {0};
  if (md->reqd)
    cc_str_printf(&s, "reqd_work_group_size(%llu,%llu,%llu)", (unsigned long long)k->reqd_work_group_size[0],
                  (unsigned long long)k->reqd_work_group_size[1], (unsigned long long)k->reqd_work_group_size[2]);
  if (md->hint)
    cc_str_printf(&s, "%swork_group_size_hint(%llu,%llu,%llu)", s.len ? " " : "",
                  (unsigned long long)k->work_group_size_hint[0], (unsigned long long)k->work_group_size_hint[1],
                  (unsigned long long)k->work_group_size_hint[2]);
  if (md->vec_hint)
    cc_str_printf(&s, "%svec_type_hint(%s)", s.len ? " " : "", k->vec_type_hint);
  if (md->sub_group)
    cc_str_printf(&s, "%sintel_reqd_sub_group_size(%llu)", s.len ? " " : "",
                  (unsigned long long)md_int(md->sub_group, 0));
  return cc_str_take(&s);
}

static int fill_kernel(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef f, cc_kernel_info *k)
{
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  kernel_md md;
  read_md(ctx, f, &md);
  size_t len = 0;
  const char *name = LLVMGetValueName2(f, &len);
  k->name = strndup(name, len);
  k->simd_width = 1;
  if (!k->name)
    return CC_OUT_OF_MEMORY;
  k->nargs = LLVMCountParams(f);
  if (k->nargs) {
    k->args = calloc(k->nargs, sizeof(*k->args));
    if (!k->args)
      return CC_OUT_OF_MEMORY;
  }
  for (unsigned i = 0; i < k->nargs; i++) {
    int rc = fill_arg(ctx, td, f, i, &md, &k->args[i]);
    if (rc != CC_OK)
      return rc;
  }
  for (unsigned d = 0; d < 3; d++) {
    k->reqd_work_group_size[d] = md_int(md.reqd, d);
    k->work_group_size_hint[d] = md_int(md.hint, d);
  }
  k->reqd_sub_group_size = md.sub_group ? (uint32_t)md_int(md.sub_group, 0) : 0;
  k->vec_type_hint = md.vec_hint ? hint_type_name(md.vec_hint) : strdup("");
  if (!k->vec_type_hint)
    return CC_OUT_OF_MEMORY;
  k->attributes = attributes_string(k, &md);
  return fill_memory(m, td, f, k);
}

int cc_meta_collect(LLVMModuleRef m, cc_kernel_info **kinfo, uint32_t *nkernels, char **err)
{
  *kinfo = NULL;
  *nkernels = 0;
  uint32_t n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    n += is_kernel(f);
  if (!n)
    return CC_OK;
  cc_kernel_info *k = calloc(n, sizeof(*k));
  if (!k) {
    cc_set_err(err, "error: out of memory");
    return CC_OUT_OF_MEMORY;
  }
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  uint32_t i = 0;
  int rc = CC_OK;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && rc == CC_OK; f = LLVMGetNextFunction(f))
    if (is_kernel(f))
      rc = fill_kernel(m, td, f, &k[i++]);
  if (rc != CC_OK) {
    cc_kernel_infos_free(k, n);
    cc_set_err(err, "error: out of memory while reading kernel metadata");
    return rc;
  }
  *kinfo = k;
  *nkernels = n;
  return CC_OK;
}

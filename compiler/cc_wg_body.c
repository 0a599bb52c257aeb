/* The body of a work-group function (step 1 of cc_wg.c): the kernel's
 * blocks moved into K.body with the work-group parameters (enum
 * wg_body_param), the work-item builtins lowered to reads of ctx and of
 * those parameters, and the access group that marks the accesses
 * independent across work-items. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

/* A field of *ctx (never written while a work-group runs). */
LLVMValueRef wg_ctx_load(wg_gen *g, LLVMValueRef ctxp, size_t off, LLVMTypeRef ty, const char *name)
{
  LLVMValueRef idx = wg_c64(g, off);
  LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, g->t_i8, ctxp, &idx, 1, "");
  LLVMValueRef v = LLVMBuildLoad2(g->b, ty, p, name);
  LLVMSetAlignment(v, ty == g->t_i32 ? 4 : 8);
  LLVMSetMetadata(v, g->kind_invariant, LLVMMetadataAsValue(g->c, g->empty));
  wg_mark_parallel(g, v);
  return v;
}

LLVMValueRef wg_ctx_dim(wg_gen *g, size_t field, unsigned d, const char *name)
{
  return wg_ctx_load(g, g->p_ctx, field + 8 * d, g->t_i64, name);
}

/* ---- 1. the body ---- */

/* Parameter attributes stay, but for how the value is passed (byval, ...):
 * the body gets a plain pointer. */
static int keep_param_attr(LLVMAttributeRef a)
{
  if (LLVMIsStringAttribute(a))
    return 1;
  unsigned k = LLVMGetEnumAttributeKind(a);
  return k != cc_attr_kind("byval") && k != cc_attr_kind("byref") && k != cc_attr_kind("inalloca") &&
         k != cc_attr_kind("preallocated");
}

/* Of the kernel's own attributes only the string ones (fast-math, denormal
 * mode, ...) still hold for the functions made from it, target-cpu and
 * target-features aside; enum ones (convergent, noinline, memory effects)
 * don't. */
static int keep_fn_attr(LLVMAttributeRef a)
{
  unsigned len;
  if (!LLVMIsStringAttribute(a))
    return 0;
  const char *k = LLVMGetStringAttributeKind(a, &len);
  return !(len == 10 && !memcmp(k, "target-cpu", 10)) && !(len == 15 && !memcmp(k, "target-features", 15));
}

static void copy_attrs(LLVMValueRef from, LLVMValueRef to, unsigned idx, int (*keep)(LLVMAttributeRef))
{
  unsigned n = LLVMGetAttributeCountAtIndex(from, idx);
  LLVMAttributeRef *a = n ? malloc(n * sizeof(*a)) : NULL;
  if (!a)
    return;
  LLVMGetAttributesAtIndex(from, idx, a);
  for (unsigned i = 0; i < n; i++)
    if (keep(a[i]))
      LLVMAddAttributeAtIndex(to, idx, a[i]);
  free(a);
}

static void add_param_attr(wg_gen *g, LLVMValueRef fn, unsigned param, const char *name)
{
  LLVMAddAttributeAtIndex(fn, param + 1, LLVMCreateEnumAttribute(g->c, cc_attr_kind(name), 0));
}

void wg_add_string_attr(wg_gen *g, LLVMValueRef fn, const char *k, const char *v)
{
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(g->c, k, strlen(k), v, strlen(v)));
}

/* A byval parameter the kernel may write gets its own copy in the body. */
static void copy_writable_byval(wg_gen *g, LLVMValueRef kernel, unsigned i)
{
  LLVMValueRef p = LLVMGetParam(g->body, i);
  LLVMAttributeRef bv = LLVMGetEnumAttributeAtIndex(kernel, i + 1, cc_attr_kind("byval"));
  if (LLVMGetEnumAttributeAtIndex(kernel, i + 1, cc_attr_kind("readonly")) ||
      LLVMGetEnumAttributeAtIndex(kernel, i + 1, cc_attr_kind("readnone")) || !LLVMGetFirstUse(p))
    return;
  LLVMTypeRef ty = LLVMGetTypeAttributeValue(bv);
  unsigned align = LLVMABIAlignmentOfType(g->td, ty);
  LLVMPositionBuilderBefore(g->b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(g->body)));
  LLVMValueRef copy = LLVMBuildAlloca(g->b, ty, "byval.copy");
  LLVMSetAlignment(copy, align);
  LLVMReplaceAllUsesWith(p, copy);
  LLVMBuildMemCpy(g->b, copy, align, p, 1, wg_c64(g, LLVMABISizeOfType(g->td, ty)));
}

int wg_make_body(wg_gen *g, LLVMValueRef kernel, char **err)
{
  const char *kname = g->ki->name;
  LLVMTypeRef fty = LLVMGlobalGetValueType(kernel);
  unsigned n = LLVMCountParamTypes(fty);
  if (n != g->ki->nargs || LLVMIsFunctionVarArg(fty)) {
    cc_set_err(err, "kernel %s: %u parameters but %u arguments in its metadata", kname, n, g->ki->nargs);
    return CC_INTERNAL;
  }
  if (LLVMGetFirstUse(kernel)) {
    cc_set_err(err, "kernel %s is called from another function that was not inlined", kname);
    return CC_INTERNAL;
  }
  if (LLVMGetTypeKind(LLVMGetReturnType(fty)) != LLVMVoidTypeKind) {
    cc_set_err(err, "kernel %s does not return void", kname);
    return CC_INTERNAL;
  }
  g->nparams = n;
  g->ptypes = calloc(n + WG_NBODY_PARAMS, sizeof(*g->ptypes));
  g->byval = calloc(n + 1, sizeof(*g->byval));
  size_t nlen = strlen(kname);
  char *name = malloc(nlen + sizeof(LANECL_WG_PREFIX) + 8);
  if (!g->ptypes || !g->byval || !name) {
    free(name);
    return CC_OUT_OF_MEMORY;
  }
  LLVMGetParamTypes(fty, g->ptypes);
  g->ptypes[n] = g->t_ptr;
  g->ptypes[n + 1] = g->ptypes[n + 2] = g->ptypes[n + 3] = g->t_i64;
  g->ptypes[n + 4] = g->t_i32;
  g->ptypes[n + 5] = g->t_i64;
  g->ptypes[n + 6] = g->t_ptr;
  g->ptypes[n + 7] = g->t_i64;
  g->ptypes[n + 8] = g->ptypes[n + 9] = g->t_ptr;
  g->ptypes[n + 10] = g->ptypes[n + 11] = g->t_i64;
  g->ptypes[n + WG_P_FAST] = g->t_i32;

  snprintf(name, nlen + 8, "%s.body", kname);
  g->body = LLVMAddFunction(g->m, name, LLVMFunctionType(g->t_i32, g->ptypes, n + WG_NBODY_PARAMS, 0));
  snprintf(name, nlen + sizeof(LANECL_WG_PREFIX) + 8, LANECL_WG_PREFIX "%s", kname);
  LLVMTypeRef wty_params[2] = {g->t_ptr, g->t_ptr};
  g->wg = LLVMAddFunction(g->m, name, LLVMFunctionType(g->t_void, wty_params, 2, 0));
  free(name);

  LLVMSetLinkage(g->body, LLVMInternalLinkage);
  copy_attrs(kernel, g->body, LLVMAttributeFunctionIndex, keep_fn_attr);
  copy_attrs(kernel, g->wg, LLVMAttributeFunctionIndex, keep_fn_attr);
  cc_add_fn_attr(g->body, "alwaysinline");
  cc_add_fn_attr(g->body, "nounwind");
  cc_add_fn_attr(g->wg, "nounwind");
  if (g->dev && g->dev->simd_bits) {
    char w[16];
    snprintf(w, sizeof(w), "%u", g->dev->simd_bits);
    wg_add_string_attr(g, g->body, "prefer-vector-width", w);
    wg_add_string_attr(g, g->wg, "prefer-vector-width", w);
  }
  LLVMSetLinkage(g->wg, LLVMExternalLinkage);
  LLVMSetVisibility(g->wg, LLVMDefaultVisibility);
  for (unsigned p = 0; p < 2; p++) {
    add_param_attr(g, g->wg, p, "noalias");
    add_param_attr(g, g->wg, p, "nocapture");
    add_param_attr(g, g->wg, p, "readonly");
  }
  add_param_attr(g, g->body, n, "nocapture");
  add_param_attr(g, g->body, n, "readonly");

  for (unsigned i = 0; i < n; i++) {
    g->byval[i] = LLVMGetEnumAttributeAtIndex(kernel, i + 1, cc_attr_kind("byval")) != NULL;
    copy_attrs(kernel, g->body, i + 1, keep_param_attr);
    LLVMReplaceAllUsesWith(LLVMGetParam(kernel, i), LLVMGetParam(g->body, i));
  }
  g->p_ctx = LLVMGetParam(g->body, n);
  for (unsigned d = 0; d < 3; d++)
    g->p_lid[d] = LLVMGetParam(g->body, n + 1 + d);
  g->p_state = LLVMGetParam(g->body, n + 4);
  g->p_coll = LLVMGetParam(g->body, n + 5);
  g->p_uval = LLVMGetParam(g->body, n + 6);
  g->p_goff = LLVMGetParam(g->body, n + 7);
  g->p_cbuf = LLVMGetParam(g->body, n + 8);
  LLVMSetValueName2(g->p_cbuf, "coll_buf", 8);
  g->p_cbuf_out = LLVMGetParam(g->body, n + 9);
  LLVMSetValueName2(g->p_cbuf_out, "coll_out", 8);
  g->p_cidx = LLVMGetParam(g->body, n + 10);
  LLVMSetValueName2(g->p_cidx, "coll_idx", 8);
  g->p_gx = LLVMGetParam(g->body, n + 11);
  LLVMSetValueName2(g->p_gx, "gx", 2);
  g->p_fast = LLVMGetParam(g->body, n + WG_P_FAST);
  LLVMSetValueName2(g->p_fast, "fast", 4);
  LLVMSetValueName2(g->p_ctx, "ctx", 3);
  LLVMSetValueName2(g->p_lid[0], "lx", 2);
  LLVMSetValueName2(g->p_lid[1], "ly", 2);
  LLVMSetValueName2(g->p_lid[2], "lz", 2);
  LLVMSetValueName2(g->p_state, "state", 5);
  LLVMSetValueName2(g->p_coll, "coll", 4);
  LLVMSetValueName2(g->p_uval, "uval", 4);
  LLVMSetValueName2(g->p_goff, "group_off", 9);

  /* Move the blocks; `ret void` becomes `ret i32 -1` (done). */
  LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kernel);
  while (bb) {
    LLVMBasicBlockRef next = LLVMGetNextBasicBlock(bb);
    LLVMRemoveBasicBlockFromParent(bb);
    LLVMAppendExistingBasicBlock(g->body, bb);
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMGetInstructionOpcode(t) == LLVMRet) {
      LLVMPositionBuilderBefore(g->b, t);
      LLVMBuildRet(g->b, LLVMConstInt(g->t_i32, (unsigned long long)-1, 1));
      LLVMInstructionEraseFromParent(t);
    }
    bb = next;
  }
  for (unsigned i = 0; i < n; i++)
    if (g->byval[i])
      copy_writable_byval(g, kernel, i);
  LLVMDeleteFunction(kernel);
  return CC_OK;
}

/* ---- 2. work-item builtins ---- */

enum wi_kind {
  WI_GLOBAL_ID, WI_LOCAL_ID, WI_GROUP_ID, WI_LOCAL_SIZE, WI_ENQ_LOCAL_SIZE, WI_NUM_GROUPS,
  WI_GLOBAL_SIZE, WI_GLOBAL_OFFSET, WI_WORK_DIM, WI_GLOBAL_LINEAR_ID, WI_LOCAL_LINEAR_ID,
};

static const struct {
  const char *ident;
  const char *params;
  enum wi_kind kind;
} wi_funcs[] = {
    {"get_global_id", "j", WI_GLOBAL_ID},
    {"get_local_id", "j", WI_LOCAL_ID},
    {"get_group_id", "j", WI_GROUP_ID},
    {"get_local_size", "j", WI_LOCAL_SIZE},
    {"get_enqueued_local_size", "j", WI_ENQ_LOCAL_SIZE},
    {"get_num_groups", "j", WI_NUM_GROUPS},
    {"get_global_size", "j", WI_GLOBAL_SIZE},
    {"get_global_offset", "j", WI_GLOBAL_OFFSET},
    {"get_work_dim", "v", WI_WORK_DIM},
    {"get_global_linear_id", "v", WI_GLOBAL_LINEAR_ID},
    {"get_local_linear_id", "v", WI_LOCAL_LINEAR_ID},
};

/* get_global_id(d) - get_global_offset(d) */
/* get_group_id(d): ctx's, plus the group's place in the call's run of
 * groups along x (lanecl_wg_ctx.group_count). */
static LLVMValueRef group_id(wg_gen *g, unsigned d)
{
  LLVMValueRef grp = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, group_id), d, "group_id");
  return d ? grp : LLVMBuildAdd(g->b, grp, g->p_goff, "group_id");
}

/* x: the group's first id plus the lane loop's gx (group_off * enqueued
 * size + local id), which stays affine in the lane loop's x also where the
 * local id and group_off are not (packed small groups). */
static LLVMValueRef global_id_no_offset(wg_gen *g, unsigned d)
{
  LLVMValueRef els = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, enqueued_local_size), d, "enq_local_size");
  if (d == 0) {
    LLVMValueRef grp = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, group_id), 0, "group_id");
    return LLVMBuildAdd(g->b, LLVMBuildMul(g->b, grp, els, ""), g->p_gx, "");
  }
  return LLVMBuildAdd(g->b, LLVMBuildMul(g->b, group_id(g, d), els, ""), g->p_lid[d], "");
}

static LLVMValueRef wi_dim_value(wg_gen *g, enum wi_kind k, unsigned d)
{
  switch (k) {
  case WI_GLOBAL_ID:
    return LLVMBuildAdd(g->b, global_id_no_offset(g, d),
                        wg_ctx_dim(g, offsetof(lanecl_wg_ctx, global_offset), d, "global_offset"), "global_id");
  case WI_LOCAL_ID: return g->p_lid[d];
  case WI_GROUP_ID: return group_id(g, d);
  case WI_LOCAL_SIZE: return wg_ctx_dim(g, offsetof(lanecl_wg_ctx, local_size), d, "local_size");
  case WI_ENQ_LOCAL_SIZE: return wg_ctx_dim(g, offsetof(lanecl_wg_ctx, enqueued_local_size), d, "enq_local_size");
  case WI_NUM_GROUPS: return wg_ctx_dim(g, offsetof(lanecl_wg_ctx, num_groups), d, "num_groups");
  case WI_GLOBAL_SIZE: return wg_ctx_dim(g, offsetof(lanecl_wg_ctx, global_size), d, "global_size");
  case WI_GLOBAL_OFFSET: return wg_ctx_dim(g, offsetof(lanecl_wg_ctx, global_offset), d, "global_offset");
  default: return NULL;
  }
}

/* The spec's value for a dimension index out of range: 0 for ids and offsets, 1 for sizes. */
static uint64_t wi_out_of_range(enum wi_kind k)
{
  return k == WI_GLOBAL_ID || k == WI_LOCAL_ID || k == WI_GROUP_ID || k == WI_GLOBAL_OFFSET ? 0 : 1;
}

static LLVMValueRef wi_value(wg_gen *g, enum wi_kind k, LLVMValueRef dim)
{
  switch (k) {
  case WI_WORK_DIM:
    return wg_ctx_load(g, g->p_ctx, offsetof(lanecl_wg_ctx, work_dim), g->t_i32, "work_dim");
  case WI_LOCAL_LINEAR_ID: {
    LLVMValueRef l0 = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, local_size), 0, "local_size");
    LLVMValueRef l1 = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, local_size), 1, "local_size");
    LLVMValueRef v = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, g->p_lid[2], l1, ""), g->p_lid[1], "");
    return LLVMBuildAdd(g->b, LLVMBuildMul(g->b, v, l0, ""), g->p_lid[0], "local_linear_id");
  }
  case WI_GLOBAL_LINEAR_ID: {
    LLVMValueRef g0 = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, global_size), 0, "global_size");
    LLVMValueRef g1 = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, global_size), 1, "global_size");
    LLVMValueRef v = LLVMBuildMul(g->b, global_id_no_offset(g, 2), g1, "");
    v = LLVMBuildAdd(g->b, v, global_id_no_offset(g, 1), "");
    v = LLVMBuildMul(g->b, v, g0, "");
    return LLVMBuildAdd(g->b, v, global_id_no_offset(g, 0), "global_linear_id");
  }
  default:
    break;
  }
  if (LLVMIsAConstantInt(dim)) {
    unsigned long long d = LLVMConstIntGetZExtValue(dim);
    return d < 3 ? wi_dim_value(g, k, (unsigned)d) : wg_c64(g, wi_out_of_range(k));
  }
  LLVMValueRef v = wg_c64(g, wi_out_of_range(k));
  for (int d = 2; d >= 0; d--) {
    LLVMValueRef is_d = LLVMBuildICmp(g->b, LLVMIntEQ, dim, LLVMConstInt(LLVMTypeOf(dim), (unsigned)d, 0), "");
    v = LLVMBuildSelect(g->b, is_d, wi_dim_value(g, k, (unsigned)d), v, "");
  }
  return v;
}

static int lower_workitem_call(wg_gen *g, LLVMValueRef call)
{
  wg_mangled mg;
  if (!wg_demangle(call, &mg))
    return 0;
  for (size_t i = 0; i < sizeof(wi_funcs) / sizeof(wi_funcs[0]); i++) {
    if (!wg_ident_is(&mg, wi_funcs[i].ident) || mg.plen != strlen(wi_funcs[i].params) ||
        memcmp(mg.params, wi_funcs[i].params, mg.plen))
      continue;
    LLVMPositionBuilderBefore(g->b, call);
    LLVMValueRef dim = wi_funcs[i].params[0] == 'j' ? LLVMGetOperand(call, 0) : NULL;
    LLVMValueRef v = wi_value(g, wi_funcs[i].kind, dim);
    LLVMTypeRef rt = LLVMTypeOf(call);
    if (LLVMTypeOf(v) != rt)
      v = LLVMBuildIntCast2(g->b, v, rt, 0, "");
    LLVMReplaceAllUsesWith(call, v);
    LLVMInstructionEraseFromParent(call);
    return 1;
  }
  LLVMPositionBuilderBefore(g->b, call);
  LLVMValueRef v = wg_sub_group_value(g, &mg);
  if (v) {
    LLVMTypeRef rt = LLVMTypeOf(call);
    if (LLVMTypeOf(v) != rt)
      v = LLVMBuildIntCast2(g->b, v, rt, 0, "");
    LLVMReplaceAllUsesWith(call, v);
    LLVMInstructionEraseFromParent(call);
    return 1;
  }
  return 0;
}

/* to_global, to_local and to_private of a generic pointer (clang's
 * __to_global, __to_local, __to_private): the pointer itself where it points
 * into that address space, else NULL.  All spaces are one flat space here,
 * so the answer comes from where the address is: __local memory is the
 * block of the __local arguments (ctx->local_lo/hi) and the kernel's
 * __local variables (this program's thread-local variables of address
 * space 3, one copy per worker thread); private memory is the running
 * thread's stack (ctx->stack_lo/hi) and the frame (private arrays kept
 * across barriers, ctx->frame and frame_size); global memory is the rest. */
static LLVMValueRef in_range(wg_gen *g, LLVMValueRef x, LLVMValueRef lo, LLVMValueRef hi)
{
  return LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, x, lo, ""), LLVMBuildICmp(g->b, LLVMIntULT, x, hi, ""),
                      "");
}

static LLVMValueRef ctx_addr(wg_gen *g, size_t off)
{
  return wg_ctx_load(g, g->p_ctx, off, g->t_i64, "");
}

static LLVMValueRef is_local_addr(wg_gen *g, LLVMValueRef x)
{
  LLVMValueRef r = in_range(g, x, ctx_addr(g, offsetof(lanecl_wg_ctx, local_lo)),
                            ctx_addr(g, offsetof(lanecl_wg_ctx, local_hi)));
  for (LLVMValueRef gv = LLVMGetFirstGlobal(g->m); gv; gv = LLVMGetNextGlobal(gv)) {
    if (!LLVMIsThreadLocal(gv) || LLVMGetPointerAddressSpace(LLVMTypeOf(gv)) != 3)
      continue;
    uint64_t size = LLVMABISizeOfType(g->td, LLVMGlobalGetValueType(gv));
    LLVMValueRef lo = LLVMBuildPtrToInt(g->b, gv, g->t_i64, "");
    r = LLVMBuildOr(g->b, r, in_range(g, x, lo, LLVMBuildAdd(g->b, lo, wg_c64(g, size), "")), "");
  }
  return r;
}

static LLVMValueRef is_private_addr(wg_gen *g, LLVMValueRef x)
{
  LLVMValueRef flo = ctx_addr(g, offsetof(lanecl_wg_ctx, frame));
  LLVMValueRef fhi = LLVMBuildAdd(g->b, flo, ctx_addr(g, offsetof(lanecl_wg_ctx, frame_size)), "");
  return LLVMBuildOr(g->b,
                     in_range(g, x, ctx_addr(g, offsetof(lanecl_wg_ctx, stack_lo)),
                              ctx_addr(g, offsetof(lanecl_wg_ctx, stack_hi))),
                     in_range(g, x, flo, fhi), "");
}

static int lower_to_space_call(wg_gen *g, LLVMValueRef call)
{
  static const char *const names[3] = {"__to_global", "__to_local", "__to_private"};
  LLVMValueRef fn = LLVMGetCalledValue(call);
  if (!LLVMIsAFunction(fn) || LLVMGetNumArgOperands(call) != 1)
    return 0;
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  int which = -1;
  for (int k = 0; k < 3; k++)
    if (len == strlen(names[k]) && !memcmp(name, names[k], len))
      which = k;
  if (which < 0)
    return 0;
  LLVMPositionBuilderBefore(g->b, call);
  LLVMValueRef p = LLVMGetOperand(call, 0);
  LLVMValueRef x = LLVMBuildPtrToInt(g->b, p, g->t_i64, "");
  LLVMValueRef ok;
  if (which == 1) {
    ok = is_local_addr(g, x);
  } else if (which == 2) {
    ok = is_private_addr(g, x);
  } else {
    LLVMValueRef other = LLVMBuildOr(g->b, is_local_addr(g, x), is_private_addr(g, x), "");
    ok = LLVMBuildNot(g->b, other, "");
  }
  LLVMTypeRef rt = LLVMTypeOf(call);
  LLVMValueRef cast = LLVMBuildAddrSpaceCast(g->b, p, rt, "");
  LLVMValueRef v = LLVMBuildSelect(g->b, ok, cast, LLVMConstNull(rt), names[which] + 2);
  LLVMReplaceAllUsesWith(call, v);
  LLVMInstructionEraseFromParent(call);
  return 1;
}

/* Work-item functions lowered; calls lose `convergent` (boundaries aside,
 * nothing in a region needs it and it blocks the vectorizer's checks). */
void wg_lower_workitem_calls(wg_gen *g)
{
  unsigned convergent = cc_attr_kind("convergent");
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i) {
      LLVMValueRef next = LLVMGetNextInstruction(i);
      if (LLVMIsACallInst(i) && !lower_workitem_call(g, i) && !lower_to_space_call(g, i)) {
        wg_boundary bd;
        const char *why;
        LLVMValueRef f = cc_called_function(i);
        if (wg_classify_boundary(i, &bd, &why) == 0) {
          LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, convergent);
          if (f && LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f))
            LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, convergent);
        }
      }
      i = next;
    }
  }
}

/* ---- access groups: which accesses are independent across work-items ---- */

#define WG_PTR_DEPTH 24

/* 1 when p points to memory that is not shared between iterations of the
 * lane loop through a private stack slot: kernel arguments, globals (__local
 * and __constant variables), the OpenCL global/constant/local address spaces,
 * and, with boundaries, the frame-resident private memory (one copy per
 * work-item).  0 for stack memory and for what can't be traced. */
static int ptr_is_shared(wg_gen *g, LLVMValueRef p, LLVMValueRef *phis, unsigned nphis)
{
  LLVMTypeRef ty = LLVMTypeOf(p);
  if (LLVMGetTypeKind(ty) == LLVMPointerTypeKind) {
    unsigned as = LLVMGetPointerAddressSpace(ty);
    if (as == CC_AS_GLOBAL || as == CC_AS_CONSTANT || as == CC_AS_LOCAL)
      return 1;
  }
  if (LLVMIsAArgument(p) || LLVMIsAGlobalValue(p))
    return 1;
  if (LLVMIsAAllocaInst(p))
    return g->nbnd > 0 && !wg_alloca_is_simple(p);
  if (nphis >= WG_PTR_DEPTH)
    return 0;
  if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
    return ptr_is_shared(g, LLVMGetOperand(p, 0), phis, nphis + 1);
  if (LLVMIsAConstantExpr(p)) {
    LLVMOpcode op = LLVMGetConstOpcode(p);
    if (op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast)
      return ptr_is_shared(g, LLVMGetOperand(p, 0), phis, nphis + 1);
    return 0;
  }
  if (LLVMIsASelectInst(p))
    return ptr_is_shared(g, LLVMGetOperand(p, 1), phis, nphis + 1) &&
           ptr_is_shared(g, LLVMGetOperand(p, 2), phis, nphis + 1);
  if (LLVMIsAPHINode(p)) {
    LLVMValueRef path[WG_PTR_DEPTH];
    for (unsigned i = 0; i < nphis; i++)
      if (phis[i] == p)
        return 1; /* a cycle adds nothing */
    memcpy(path, phis, nphis * sizeof(*path));
    path[nphis] = p;
    unsigned n = LLVMCountIncoming(p);
    for (unsigned i = 0; i < n; i++)
      if (!ptr_is_shared(g, LLVMGetIncomingValue(p, i), path, nphis + 1))
        return 0;
    return 1;
  }
  if (cc_callee_has_prefix(p, "llvm.threadlocal.address"))
    return ptr_is_shared(g, LLVMGetOperand(p, 0), phis, nphis + 1);
  return 0;
}

static int ptr_shared(wg_gen *g, LLVMValueRef p)
{
  LLVMValueRef phis[WG_PTR_DEPTH];
  return ptr_is_shared(g, p, phis, 0);
}

/* Puts the access group on every load, store and call whose memory is not
 * private stack memory. */
void wg_mark_accesses(wg_gen *g)
{
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      int mark = 0;
      if (LLVMIsALoadInst(i)) {
        mark = !LLVMGetVolatile(i) && ptr_shared(g, LLVMGetOperand(i, 0));
      } else if (LLVMIsAStoreInst(i)) {
        mark = !LLVMGetVolatile(i) && ptr_shared(g, LLVMGetOperand(i, 1));
      } else if (LLVMIsACallInst(i)) {
        unsigned n = LLVMGetNumArgOperands(i);
        mark = 1;
        for (unsigned a = 0; a < n && mark; a++) {
          LLVMValueRef v = LLVMGetOperand(i, a);
          if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind)
            mark = ptr_shared(g, v);
        }
      }
      if (mark)
        wg_mark_parallel(g, i);
    }
}

/* The underlying object of a pointer: through GEPs and casts. */
LLVMValueRef wg_ptr_base(LLVMValueRef p)
{
  for (unsigned depth = 0; depth < 64; depth++) {
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p)) {
      p = LLVMGetOperand(p, 0);
      continue;
    }
    if (LLVMIsAConstantExpr(p)) {
      LLVMOpcode op = LLVMGetConstOpcode(p);
      if (op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast) {
        p = LLVMGetOperand(p, 0);
        continue;
      }
    }
    break;
  }
  return p;
}

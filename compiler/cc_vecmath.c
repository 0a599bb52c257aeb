/* Vector math out of line.
 *
 * The float transcendentals of builtins/math_f32.cl (sin, exp, pow, ...) are
 * branch-free code written for every width, so the loop vectorizer can widen
 * the scalar form once it is inlined into a lane loop.  Inlined, each call
 * is a copy of the whole function at the loop's width, in each copy of the
 * work-group body (the state machine's launch shapes): 300 to 500 lines of
 * assembly each.  A kernel that calls sin 26 times spends most of its
 * optimization and code generation on those copies.
 *
 * cc_vecmath_out_of_line runs before the lane loops are finished and
 * optimized (the first inliner, cc_wg_outer.c's or default<O3>'s, would
 * inline the calls).  A function of the list below that the program's
 * source calls from four places or more becomes noinline and names its
 * vector forms (the library's own overloads, float2 .. float16) in the
 * attribute the loop vectorizer reads (vector-function-abi-variant), unmasked and masked (a
 * call in a predicated block; the masked form is a wrapper that ignores the
 * mask: these functions have no side effects).  The vectorizer then calls
 * one copy of the vector form from each widened loop.  A function called
 * from fewer places stays inlined: the call costs run time (below).
 *
 * The vector forms are referenced only by name until the vectorizer calls
 * them: llvm.compiler.used keeps them through O3, and the scalar function
 * with them (its signature must stay the one the mappings name: IPSCCP and
 * dead-argument elimination would drop an argument that every call passes
 * as the same constant).  cc_vecmath_release takes them out of it
 * (globaldce then removes what no loop called).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_internal.h"
#include "compiler/cc_llvm_util.h"

#include <llvm-c/Transforms/PassBuilder.h>

/* The functions of math_f32.cl written for vectors, and their arity. */
static const struct {
  const char *name;
  unsigned nargs;
} vec_math[] = {
    {"exp", 1},    {"exp2", 1},   {"exp10", 1},   {"expm1", 1},   {"log", 1},     {"log2", 1},
    {"log10", 1},  {"log1p", 1},  {"sin", 1},     {"cos", 1},     {"tan", 1},     {"sinpi", 1},
    {"cospi", 1},  {"tanpi", 1},  {"sinh", 1},    {"cosh", 1},    {"tanh", 1},    {"pow", 2},
    {"asin", 1},   {"acos", 1},   {"atan", 1},    {"atan2", 2},   {"asinpi", 1},  {"acospi", 1},
    {"atanpi", 1}, {"atan2pi", 2}, {"asinh", 1},  {"acosh", 1},   {"atanh", 1},   {"cbrt", 1},
    {"hypot", 2},
};
#define NVEC_MATH (sizeof(vec_math) / sizeof(vec_math[0]))

static const unsigned widths[] = {2, 4, 8, 16};
#define NWIDTHS (sizeof(widths) / sizeof(widths[0]))

/* Calls in the source from which a function goes out of line.  Out of
 * line, a call may cost run time (inlined, each call is optimized with its
 * operands and scheduled with its neighbours; the bench rows math * moved
 * by less than their noise); the compile time saved grows with the calls
 * (lanecl-cc: sin, cos, exp and pow once each, the same 0.45 s either way;
 * four sin, 0.55 -> 0.42 s; eight, 0.75 -> 0.43 s; 26, 1.62 -> 0.95 s). */
#define OUT_OF_LINE_CALLS 4

#define USED_NAME "llvm.compiler.used"
#define MASKED_PREFIX "__lanecl_vm"

/* How many calls in the program's source a call in fn stands for, up to
 * OUT_OF_LINE_CALLS: a function the source calls from several places (always
 * inlined) counts its callers; a work-group body (K.body, which the state
 * machine inlines in several copies) counts 1: each copy runs for another
 * launch shape, and the calls that run are what the source wrote. */
static unsigned calls_of(LLVMValueRef fn, unsigned alwaysinline, int depth)
{
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  if (depth > 8 || (len > 5 && !memcmp(name + len - 5, ".body", 5)) ||
      !LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, alwaysinline))
    return 1;
  unsigned n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u && n < OUT_OF_LINE_CALLS; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsACallInst(user) && cc_called_function(user) == fn)
      n += calls_of(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)), alwaysinline, depth + 1);
  }
  return n ? n : 1;
}

/* Calls of f in the program's source, up to OUT_OF_LINE_CALLS. */
static unsigned count_calls(LLVMValueRef f)
{
  unsigned n = 0, alwaysinline = cc_attr_kind("alwaysinline");
  for (LLVMUseRef u = LLVMGetFirstUse(f); u && n < OUT_OF_LINE_CALLS; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsACallInst(user) && cc_called_function(user) == f)
      n += calls_of(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)), alwaysinline, 0);
  }
  return n;
}

static void set_used(LLVMModuleRef m, LLVMTypeRef ptr, LLVMValueRef *elts, unsigned n)
{
  LLVMValueRef arr = LLVMConstArray2(ptr, elts, n);
  LLVMValueRef g = LLVMAddGlobal(m, LLVMTypeOf(arr), USED_NAME);
  LLVMSetLinkage(g, LLVMAppendingLinkage);
  LLVMSetSection(g, "llvm.metadata");
  LLVMSetInitializer(g, arr);
}

/* llvm.compiler.used with the values of add[] appended (n of them). */
static int used_append(LLVMModuleRef m, LLVMValueRef *add, unsigned n)
{
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
  LLVMValueRef old = LLVMGetNamedGlobal(m, USED_NAME);
  unsigned nold = 0;
  LLVMValueRef init = old ? LLVMGetInitializer(old) : NULL;
  if (init)
    nold = (unsigned)LLVMGetArrayLength2(LLVMTypeOf(init));
  LLVMValueRef *elts = malloc((nold + n) * sizeof(*elts));
  if (!elts)
    return CC_OUT_OF_MEMORY;
  for (unsigned i = 0; i < nold; i++)
    elts[i] = LLVMGetAggregateElement(init, i);
  for (unsigned i = 0; i < n; i++)
    elts[nold + i] = add[i];
  if (old)
    LLVMDeleteGlobal(old);
  set_used(m, ptr, elts, nold + n);
  free(elts);
  return CC_OK;
}

/* The wrapper with the mask the vectorizer passes in a predicated block:
 * <W x float> MASKED_PREFIX<W>_<scalar>(args..., <W x i1>) calls vf. */
static LLVMValueRef masked_wrapper(LLVMModuleRef m, LLVMValueRef vf, unsigned w, unsigned nargs, const char *sname)
{
  char name[128];
  snprintf(name, sizeof(name), MASKED_PREFIX "%u_%s", w, sname);
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  if (f)
    return f;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef vt = LLVMVectorType(LLVMFloatTypeInContext(ctx), w);
  LLVMTypeRef params[3] = {vt, vt, vt};
  params[nargs] = LLVMVectorType(LLVMInt1TypeInContext(ctx), w);
  LLVMTypeRef fty = LLVMFunctionType(vt, params, nargs + 1, 0);
  f = LLVMAddFunction(m, name, fty);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(ctx, f, "");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, bb);
  LLVMValueRef args[2];
  for (unsigned i = 0; i < nargs; i++)
    args[i] = LLVMGetParam(f, i);
  LLVMTypeRef vparams[2] = {vt, vt};
  LLVMValueRef call = LLVMBuildCall2(b, LLVMFunctionType(vt, vparams, nargs, 0), vf, args, nargs, "");
  LLVMSetTailCall(call, 1);
  LLVMBuildRet(b, call);
  LLVMDisposeBuilder(b);
  return f;
}

int cc_vecmath_out_of_line(LLVMModuleRef m, char **err)
{
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef flt = LLVMFloatTypeInContext(ctx);
  LLVMValueRef chosen[NVEC_MATH];
  unsigned nchosen = 0;
  int declared = 0;
  /* 1. which functions, and their vector forms declared where missing */
  for (size_t i = 0; i < NVEC_MATH; i++) {
    char sname[64], vname[64];
    size_t len = strlen(vec_math[i].name);
    snprintf(sname, sizeof(sname), "_Z%zu%s%s", len, vec_math[i].name, vec_math[i].nargs == 2 ? "ff" : "f");
    LLVMValueRef f = LLVMGetNamedFunction(m, sname);
    if (!f || LLVMIsDeclaration(f) || count_calls(f) < OUT_OF_LINE_CALLS)
      continue;
    for (size_t k = 0; k < NWIDTHS; k++) {
      snprintf(vname, sizeof(vname), "_Z%zu%sDv%u_f%s", len, vec_math[i].name, widths[k],
               vec_math[i].nargs == 2 ? "S_" : "");
      if (LLVMGetNamedFunction(m, vname))
        continue;
      LLVMTypeRef vt = LLVMVectorType(flt, widths[k]), params[2] = {vt, vt};
      LLVMAddFunction(m, vname, LLVMFunctionType(vt, params, vec_math[i].nargs, 0));
      declared = 1;
    }
    chosen[nchosen++] = f;
  }
  if (!nchosen)
    return CC_OK;
  /* 2. the vector forms kept alive (they are called by name only, until the
   * vectorizer calls them), then linked from the library */
  LLVMValueRef keep[NVEC_MATH * (NWIDTHS + 1)];
  unsigned nkeep = 0;
  for (unsigned c = 0; c < nchosen; c++) {
    /* the scalar function too: its signature must stay the mappings' (no
     * constant argument taken out by IPSCCP and dead-argument elimination) */
    keep[nkeep++] = chosen[c];
    size_t slen;
    const char *sname = LLVMGetValueName2(chosen[c], &slen);
    const char *ident = sname + 2;
    while (*ident >= '0' && *ident <= '9')
      ident++;
    size_t ilen = strlen(ident) - (LLVMCountParams(chosen[c]) == 2 ? 2 : 1);
    for (size_t k = 0; k < NWIDTHS; k++) {
      char vname[64];
      snprintf(vname, sizeof(vname), "_Z%zu%.*sDv%u_f%s", ilen, (int)ilen, ident, widths[k],
               LLVMCountParams(chosen[c]) == 2 ? "S_" : "");
      keep[nkeep++] = LLVMGetNamedFunction(m, vname);
    }
  }
  int rc = used_append(m, keep, nkeep);
  if (rc == CC_OK && declared)
    rc = cc_link_builtins(m, err);
  if (rc != CC_OK)
    return rc;
  /* 3. the mappings, on each chosen function; noinline */
  unsigned noinline = cc_attr_kind("noinline");
  nkeep = 0;
  for (unsigned c = 0; c < nchosen; c++) {
    LLVMValueRef f = chosen[c];
    size_t slen;
    const char *sname = LLVMGetValueName2(f, &slen);
    unsigned nargs = LLVMCountParams(f);
    const char *ident = sname + 2;
    while (*ident >= '0' && *ident <= '9')
      ident++;
    size_t ilen = strlen(ident) - (nargs == 2 ? 2 : 1);
    char attr[2048];
    size_t alen = 0;
    for (size_t k = 0; k < NWIDTHS; k++) {
      char vname[64];
      snprintf(vname, sizeof(vname), "_Z%zu%.*sDv%u_f%s", ilen, (int)ilen, ident, widths[k], nargs == 2 ? "S_" : "");
      LLVMValueRef vf = LLVMGetNamedFunction(m, vname);
      if (!vf || LLVMIsDeclaration(vf))
        continue;  /* not in the library: that width scalarizes the call */
      LLVMSetLinkage(vf, LLVMInternalLinkage);
      /* one copy: not inlined into its masked wrapper, nor anywhere else */
      LLVMAddAttributeAtIndex(vf, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, noinline, 0));
      LLVMValueRef mf = masked_wrapper(m, vf, widths[k], nargs, sname);
      keep[nkeep++] = mf;
      alen += (size_t)snprintf(attr + alen, sizeof(attr) - alen, "%s_ZGV_LLVM_N%u%s_%s(%s),_ZGV_LLVM_M%u%s_%s(%s)",
                               alen ? "," : "", widths[k], nargs == 2 ? "vv" : "v", sname, vname, widths[k],
                               nargs == 2 ? "vv" : "v", sname, LLVMGetValueName(mf));
    }
    if (!alen)
      continue;
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, noinline, 0));
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx, "vector-function-abi-variant", 27, attr, (unsigned)alen));
  }
  return nkeep ? used_append(m, keep, nkeep) : CC_OK;
}

/* A function this file put in llvm.compiler.used: a masked wrapper, a
 * function of the list or one of its vector forms. */
static int is_ours(LLVMValueRef g)
{
  size_t len;
  const char *name = LLVMGetValueName2(g, &len);
  if (len > strlen(MASKED_PREFIX) && !memcmp(name, MASKED_PREFIX, strlen(MASKED_PREFIX)))
    return 1;
  for (size_t i = 0; i < NVEC_MATH; i++) {
    char prefix[64];
    int n = snprintf(prefix, sizeof(prefix), "_Z%zu%s", strlen(vec_math[i].name), vec_math[i].name);
    if (len > (size_t)n && !memcmp(name, prefix, (size_t)n) &&
        (!strncmp(name + n, "Dv", 2) || !strcmp(name + n, "f") || !strcmp(name + n, "ff")))
      return 1;
  }
  return 0;
}

/* After O3: this file's entries leave llvm.compiler.used, and globaldce
 * drops the vector forms no loop called. */
void cc_vecmath_release(LLVMModuleRef m, LLVMTargetMachineRef tm)
{
  LLVMValueRef used = LLVMGetNamedGlobal(m, USED_NAME);
  LLVMValueRef init = used ? LLVMGetInitializer(used) : NULL;
  if (!init)
    return;
  unsigned n = (unsigned)LLVMGetArrayLength2(LLVMTypeOf(init)), kept = 0, ours = 0;
  LLVMValueRef *rest = malloc((n ? n : 1) * sizeof(*rest));
  if (!rest)
    return;  /* they stay: a bigger object, the same code */
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = LLVMGetAggregateElement(init, i);
    if (LLVMIsAFunction(e) && is_ours(e))
      ours++;
    else
      rest[kept++] = e;
  }
  if (ours) {
    LLVMDeleteGlobal(used);
    if (kept)
      set_used(m, LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0), rest, kept);
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, "globaldce", tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (e)
      LLVMConsumeError(e);
  }
  free(rest);
}

/* Work-group functions after the builtins are linked (cc_wg_finish) and
 * after O3 (cc_wg_late_shuffles). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

#include <llvm-c/Transforms/PassBuilder.h>

/* The work-group functions whose kernels call builtins on vectors get those
 * inlined and split into scalars, so that the loop vectorizer can widen the
 * lane loop.  Nothing to do (and no pass run) for the other programs. */
static int scalarize_vector_builtins(LLVMModuleRef m, LLVMTargetMachineRef tm, int opt_disable, char **err)
{
  unsigned n = 0, cap = 0;
  LLVMValueRef *fns = NULL;
  size_t alen = strlen(WG_SCALARIZE_ATTR);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, WG_SCALARIZE_ATTR, (unsigned)alen))
      continue;
    LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, WG_SCALARIZE_ATTR, (unsigned)alen);
    if (!opt_disable && cc_values_push(&fns, &n, &cap, f)) {
      free(fns);
      return CC_OUT_OF_MEMORY;
    }
  }
  if (!n)
    return CC_OK;
  char *msg = NULL;
  int rc = CC_OK;
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m, "cgscc(inline)", tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (e) {
    msg = LLVMGetErrorMessage(e);
    cc_set_err(err, "internal error: inlining before scalarization: %s", msg);
    LLVMDisposeErrorMessage(msg);
    free(fns);
    return CC_INTERNAL;
  }
  for (unsigned i = 0; i < n; i++)
    cc_split_vector_memory(fns[i]);
  if (cc_run_passes_on(m, tm, "function(scalarizer)", fns, n, &msg)) {
    cc_set_err(err, "internal error: scalarizing kernels: %s", msg);
    rc = CC_INTERNAL;
  }
  free(msg);
  free(fns);
  return rc;
}

/* After cc_link_builtins, before cc_optimize: builtins on vectors split
 * into scalars, then the lane loops with inner loops vectorized
 * (cc_wg_outer.c).  Programs that need neither run no pass here. */
int cc_wg_finish(LLVMModuleRef m, LLVMTargetMachineRef tm, int opt_disable, char **err)
{
  int rc = scalarize_vector_builtins(m, tm, opt_disable, err);
  if (rc == CC_OK)
    rc = wg_outer_vectorize(m, tm, err);
  return rc;
}

/* ---- after O3: splats of one lane as one permute ----
 *
 * A scan's carry advances by a broadcast of the chunk's last lane.  For a
 * 512-bit vector of 32-bit lanes x86 lowering splits that broadcast into two
 * shuffles (vpshufd $255 within the 128-bit lanes, then vshufi64x2 $255);
 * one vpermd with a constant index register does it in one, and shuffles are
 * what bounds the fused scan's inner loop.  InstCombine would fold the
 * permute back into a shufflevector, so this runs after O3, just before code
 * generation.  64-bit lanes are left alone: LLVM already picks vpermpd. */
static LLVMValueRef lane_splat_index(LLVMValueRef shuf, unsigned n)
{
  if (LLVMGetNumMaskElements(shuf) != n)
    return NULL;
  int k = LLVMGetMaskValue(shuf, 0);
  if (k <= 0 || (unsigned)k >= n)
    return NULL;  /* lane 0 is one vpbroadcastd; >= n: the second operand */
  for (unsigned i = 1; i < n; i++)
    if (LLVMGetMaskValue(shuf, i) != k)
      return NULL;
  return LLVMConstInt(LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(shuf))), (unsigned)k, 0);
}

int cc_wg_late_shuffles(LLVMModuleRef m, LLVMTargetMachineRef tm)
{
  size_t plen = strlen(LANECL_WG_PREFIX);
  LLVMValueRef *rows = NULL;
  unsigned nrows = 0, caprows = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (!LLVMIsDeclaration(f) && len > plen && !memcmp(name, LANECL_WG_PREFIX, plen)) {
      wg_uniform_gathers(f), wg_image_stores(f), wg_strided_accesses(f);
      if (wg_rows(f))
        cc_values_push(&rows, &nrows, &caprows, f);
    }
  }
  /* the copies of cc_wg_rows.c's loops: a stored value kept in a register
   * from one copy to the next, and the stores it makes dead (alias scopes) */
  char *msg = NULL;
  if (nrows)
    cc_run_passes_on(m, tm, "function(gvn,dse)", rows, nrows, &msg);
  free(msg);
  free(rows);
  char *feat = LLVMGetTargetMachineFeatureString(tm);
  int avx512 = feat && strstr(feat, "+avx512f");
  LLVMDisposeMessage(feat);
  if (!avx512)
    return 0;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMBuilderRef b = NULL;
  int changed = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        if (LLVMGetInstructionOpcode(in) != LLVMShuffleVector)
          continue;
        LLVMTypeRef vt = LLVMTypeOf(in), src = LLVMTypeOf(LLVMGetOperand(in, 0));
        unsigned nl = LLVMGetVectorSize(vt);
        if (src != vt || (nl != 16 && nl != 8))
          continue;
        /* (8 lanes: the 256-bit scan chunks of cc_wg_half_shuffles, where
         * the splat would be vpshufd + vpermq) */
        LLVMTypeRef et = LLVMGetElementType(vt);
        int fp = et == LLVMFloatTypeInContext(ctx);
        const char *name = et != i32 && !fp ? NULL
                           : nl == 16       ? (fp ? "llvm.x86.avx512.permvar.sf.512" : "llvm.x86.avx512.permvar.si.512")
                                            : (fp ? "llvm.x86.avx2.permps" : "llvm.x86.avx2.permd");
        LLVMValueRef k = name ? lane_splat_index(in, nl) : NULL;
        if (!k)
          continue;
        unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
        LLVMValueRef fn = LLVMGetIntrinsicDeclaration(m, id, NULL, 0);
        LLVMTypeRef fty = LLVMIntrinsicGetType(ctx, id, NULL, 0);
        LLVMValueRef idx[16];
        for (unsigned i = 0; i < nl; i++)
          idx[i] = k;
        if (!b)
          b = LLVMCreateBuilderInContext(ctx);
        LLVMPositionBuilderBefore(b, in);
        LLVMValueRef args[2] = {LLVMGetOperand(in, 0), LLVMConstVector(idx, nl)};
        LLVMValueRef call = LLVMBuildCall2(b, fty, fn, args, 2, "");
        LLVMReplaceAllUsesWith(in, call);
        LLVMInstructionEraseFromParent(in);
        changed++;
      }
  if (b)
    LLVMDisposeBuilder(b);
  return changed;
}

/* Half multiply-adds by a power of two, computed in float with one rounding.
 *
 * On a target without native half arithmetic (x86 without AVX512-FP16) the
 * code generator computes each half operation in float and rounds it back
 * to half: a vcvtps2ph and a vcvtph2ps per operation, the two costing
 * several float operations.  It splits llvm.fmuladd.*f16 into a multiply
 * and an add, each rounded (fmuladd may be unfused), so the stencil's
 * `0.5h * c + 0.125h * s` pays a rounding pair for the product it could
 * fuse.
 *
 * A fmuladd or fma of half values a * 2^k + c, k in [-10, 10], is written
 * here as fptrunc(fma(fpext a, 2^k, fpext c)) in float: the fused half
 * result, exactly.  The product a * 2^k is exact in float (a has 11
 * significant bits).  Where the exact sum s is below the smallest normal
 * half (2^-14), s is a multiple of 2^-34 (a's quantum is at least 2^-24,
 * c's 2^-24) below 2^-14: at most 20 bits, exact in float, and rounded once
 * to half.  Elsewhere s is the sum of two 11-bit numbers, and rounding it
 * to float (24 bits >= 2 * 11 + 1) and then to half gives the half rounding
 * of s (double rounding is innocuous for a sum when the wider precision is
 * at least twice the narrower plus one), overflow to infinity included.
 * Infinities, NaNs and signed zeros come out as the fused operation's.
 *
 * Runs after default<O3>, where the vectorized lane loops are final, and
 * only where the target has no native half arithmetic (cc_native_half). */
#include "compiler/cc_internal.h"
#include "compiler/cc_llvm_util.h"

#include <math.h>

/* 1 when c (a half constant, scalar or vector splat) is +-2^k, k in [-10, 10]. */
static int pow2_const(LLVMValueRef c)
{
  if (!c || !LLVMIsAConstant(c))
    return 0;
  LLVMValueRef e = c;
  if (LLVMGetTypeKind(LLVMTypeOf(c)) == LLVMVectorTypeKind) {
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(c));
    e = LLVMGetAggregateElement(c, 0);
    for (unsigned i = 1; i < n && e; i++)
      if (LLVMGetAggregateElement(c, i) != e)
        return 0;
  }
  if (!e || !LLVMIsAConstantFP(e))
    return 0;
  LLVMBool loses = 0;
  double v = LLVMConstRealGetDouble(e, &loses);
  if (loses || !isfinite(v) || v == 0)
    return 0;
  int k;
  double m = frexp(fabs(v), &k); /* |v| = m 2^k, m in [0.5, 1) */
  return m == 0.5 && k - 1 >= -10 && k - 1 <= 10;
}

static int is_half_type(LLVMTypeRef t)
{
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  return LLVMGetTypeKind(t) == LLVMHalfTypeKind;
}

/* The float type of t's shape (half or <N x half>). */
static LLVMTypeRef float_like(LLVMTypeRef t)
{
  LLVMTypeRef f = LLVMFloatTypeInContext(LLVMGetTypeContext(t));
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMVectorType(f, LLVMGetVectorSize(t)) : f;
}

static int fuse(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call)
{
  if (!cc_callee_has_prefix(call, "llvm.fmuladd.") && !cc_callee_has_prefix(call, "llvm.fma."))
    return 0;
  LLVMTypeRef ht = LLVMTypeOf(call);
  if (!is_half_type(ht) || LLVMGetNumArgOperands(call) != 3)
    return 0;
  LLVMValueRef a = LLVMGetOperand(call, 0), k = LLVMGetOperand(call, 1), c = LLVMGetOperand(call, 2);
  if (!pow2_const(k)) {
    LLVMValueRef t = a;
    a = k;
    k = t;
    if (!pow2_const(k))
      return 0;
  }
  LLVMTypeRef ft = float_like(ht);
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef args[3] = {LLVMBuildFPExt(b, a, ft, ""), LLVMBuildFPExt(b, k, ft, ""), LLVMBuildFPExt(b, c, ft, "")};
  LLVMValueRef r = cc_build_intrinsic(b, m, "llvm.fma", &ft, 1, args, 3, "half.fma");
  LLVMValueRef h = LLVMBuildFPTrunc(b, r, ht, "");
  LLVMReplaceAllUsesWith(call, h);
  LLVMInstructionEraseFromParent(call);
  return 1;
}

unsigned cc_half_fuse_pow2(LLVMModuleRef m, int native_half)
{
  if (native_half)
    return 0;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  unsigned n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (LLVMIsACallInst(i))
          n += (unsigned)fuse(m, b, i);
      }
  LLVMDisposeBuilder(b);
  return n;
}

/* Integer division that cannot trap.
 *
 * OpenCL C (3.0, "Operators", arithmetic): an integer divide by zero, and a
 * division whose result is out of range (INT_MIN / -1), "does not cause an
 * exception but will result in an unspecified value".  The CTS
 * (test_integer_ops integer_divideAssign, integer_moduloAssign) divides random
 * data, zeros included, and accepts any result there.  x86 `div`/`idiv` raise
 * #DE for a zero divisor and for INT_MIN / -1, and the host process dies of
 * SIGFPE.  So before the work-group functions are built, every division whose
 * divisor is not a known safe constant gets
 *
 *     d' = (d == 0 [| (a == MIN & d == -1) when signed]) ? 1 : d
 *
 * A / 1 is a, the wrapped value of MIN / -1 too, and a % 1 is 0, the true
 * remainder.  The selects are per lane, so the vectorized lane loops keep
 * them, and a division that masked widening (cc_wg_diverge) runs on lanes that
 * are off cannot trap either.  One compare and one select per division: small
 * next to the division itself.
 */
#include "compiler/cc_safediv.h"

#include <stdint.h>
#include <stdlib.h>

/* True when the constant divisor d can't trap (scalar constants only). */
static int safe_constant(LLVMValueRef d, int is_signed)
{
  if (!LLVMIsAConstantInt(d))
    return 0;
  unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(d));
  if (w > 64)
    return 0;
  unsigned long long v = LLVMConstIntGetZExtValue(d);
  if (v == 0)
    return 0;
  if (is_signed && LLVMConstIntGetSExtValue(d) == -1)
    return 0;
  return 1;
}

/* The constant v of type ty (an integer or a fixed vector of them). */
static LLVMValueRef splat(LLVMTypeRef ty, unsigned long long v)
{
  if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
    return LLVMConstInt(ty, v, 0);
  unsigned n = LLVMGetVectorSize(ty);
  LLVMValueRef e = LLVMConstInt(LLVMGetElementType(ty), v, 0);
  LLVMValueRef buf[64], *elts = buf;
  if (n > 64 && !(elts = malloc(n * sizeof(*elts))))
    return NULL;
  for (unsigned i = 0; i < n; i++)
    elts[i] = e;
  LLVMValueRef c = LLVMConstVector(elts, n);
  if (elts != buf)
    free(elts);
  return c;
}

static int guard(LLVMBuilderRef b, LLVMValueRef inst, int is_signed)
{
  LLVMValueRef a = LLVMGetOperand(inst, 0), d = LLVMGetOperand(inst, 1);
  if (safe_constant(d, is_signed))
    return 0;
  LLVMTypeRef ty = LLVMTypeOf(d);
  LLVMTypeRef elt = LLVMGetTypeKind(ty) == LLVMVectorTypeKind ? LLVMGetElementType(ty) : ty;
  if (LLVMGetTypeKind(ty) == LLVMScalableVectorTypeKind || LLVMGetTypeKind(elt) != LLVMIntegerTypeKind)
    return 0;
  unsigned w = LLVMGetIntTypeWidth(elt);
  LLVMValueRef one = splat(ty, 1);
  if (!one)
    return 0;
  LLVMPositionBuilderBefore(b, inst);
  LLVMValueRef bad = LLVMBuildICmp(b, LLVMIntEQ, d, LLVMConstNull(ty), "div.zero");
  if (is_signed && w <= 64) {
    LLVMValueRef min = splat(ty, 1ull << (w - 1)), ones = LLVMConstAllOnes(ty);
    if (!min)
      return 0;
    LLVMValueRef ovf = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, a, min, "div.min"),
                                    LLVMBuildICmp(b, LLVMIntEQ, d, ones, "div.m1"), "div.ovf");
    bad = LLVMBuildOr(b, bad, ovf, "div.bad");
  }
  LLVMSetOperand(inst, 1, LLVMBuildSelect(b, bad, one, d, "div.safe"));
  return 1;
}

unsigned cc_safe_divisions(LLVMModuleRef m)
{
  unsigned n = 0;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        if (op == LLVMSDiv || op == LLVMSRem)
          n += guard(b, i, 1);
        else if (op == LLVMUDiv || op == LLVMURem)
          n += guard(b, i, 0);
      }
  LLVMDisposeBuilder(b);
  return n;
}

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
#include "compiler/cc_llvm_util.h"

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

/* ---- division by a uniform divisor ----
 *
 * x86 has no vector integer division: a lane loop with  i / per  or
 * i % cols  (per, cols kernel arguments) is vectorized with one scalar
 * `idiv` per lane, 16 of them per vector.  When the divisor is the same for
 * every work-item, the division becomes a multiplication by a magic number
 * and shifts (Granlund and Montgomery, "Division by invariant integers using
 * multiplication", 1994: figure 4.1 unsigned, 5.2 signed), with the magic
 * number from a helper call that LICM hoists out of the lane loop (it is
 * speculatable and reads no memory), so it is computed once per lane loop.
 *
 * The safe-division rules stay: the divisor the helper sees is d, 0 taken as
 * 1 (a / 0 is a, a % 0 is 0, as cc_safe_divisions makes them); INT_MIN / -1
 * wraps to INT_MIN and INT_MIN % -1 is 0, what dividing by 1 gives. */

/* An internal function LICM may hoist out of a loop: speculatable, no
 * memory, noinline (one call per lane loop, not its body in every copy). */
static LLVMValueRef new_helper(LLVMModuleRef m, const char *name, LLVMTypeRef fty)
{
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef f = LLVMAddFunction(m, name, fty);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  static const char *const attrs[] = {"speculatable", "nounwind", "willreturn", "noinline", "nofree", "nosync"};
  for (size_t k = 0; k < sizeof(attrs) / sizeof(attrs[0]); k++)
    cc_add_fn_attr(f, attrs[k]);
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, cc_attr_kind("memory"), 0));
  return f;
}

/* The helper's result: magic number in bits 0-31, then shifts and sign:
 *   signed:   bits 32-39 sh, bit 40 the divisor's sign
 *   unsigned: bits 32-39 sh1, bits 40-47 sh2 */
static LLVMValueRef magic_helper(LLVMModuleRef m, int is_signed)
{
  const char *name = is_signed ? "__lanecl_divmagic_s32" : "__lanecl_divmagic_u32";
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  if (f)
    return f;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
  f = new_helper(m, name, LLVMFunctionType(i64, &i32, 1, 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, f, "entry"));
  LLVMValueRef d = LLVMGetParam(f, 0);
  LLVMValueRef z32 = LLVMConstInt(i32, 0, 0), one32 = LLVMConstInt(i32, 1, 0), one64 = LLVMConstInt(i64, 1, 0);
  LLVMValueRef d1 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, d, z32, ""), one32, d, "d");
  LLVMValueRef ad = d1;
  if (is_signed)
    ad = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, d1, z32, ""), LLVMBuildSub(b, z32, d1, ""), d1, "absd");
  /* l = ceil(log2 ad) = 32 - clz(ad - 1) */
  LLVMValueRef args[2] = {LLVMBuildSub(b, ad, one32, ""), LLVMConstInt(LLVMInt1TypeInContext(c), 0, 0)};
  LLVMValueRef clz = cc_build_intrinsic(b, m, "llvm.ctlz", &i32, 1, args, 2, "");
  LLVMValueRef l = LLVMBuildSub(b, LLVMConstInt(i32, 32, 0), clz, "l");
  LLVMValueRef ad64 = LLVMBuildZExt(b, ad, i64, "");
  LLVMValueRef r;
  if (is_signed) {
    /* l = max(l, 1); m = 1 + 2^(31 + l) / |d|; magic = m - 2^32 (its low bits); sh = l - 1 */
    l = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, l, z32, ""), one32, l, "");
    LLVMValueRef p = LLVMBuildShl(b, one64, LLVMBuildZExt(b, LLVMBuildAdd(b, l, LLVMConstInt(i32, 31, 0), ""), i64, ""), "");
    LLVMValueRef mg = LLVMBuildAdd(b, LLVMBuildUDiv(b, p, ad64, ""), one64, "");
    LLVMValueRef sh = LLVMBuildZExt(b, LLVMBuildSub(b, l, one32, ""), i64, "");
    LLVMValueRef neg = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntSLT, d1, z32, ""), i64, "");
    r = LLVMBuildOr(b, LLVMBuildAnd(b, mg, LLVMConstInt(i64, 0xffffffffu, 0), ""),
                    LLVMBuildOr(b, LLVMBuildShl(b, sh, LLVMConstInt(i64, 32, 0), ""),
                                LLVMBuildShl(b, neg, LLVMConstInt(i64, 40, 0), ""), ""), "");
  } else {
    /* m = 1 + 2^32 (2^l - d) / d; sh1 = min(l, 1); sh2 = max(l - 1, 0) */
    LLVMValueRef l64 = LLVMBuildZExt(b, l, i64, "");
    LLVMValueRef num = LLVMBuildShl(b, LLVMBuildSub(b, LLVMBuildShl(b, one64, l64, ""), ad64, ""),
                                    LLVMConstInt(i64, 32, 0), "");
    LLVMValueRef mg = LLVMBuildAdd(b, LLVMBuildUDiv(b, num, ad64, ""), one64, "");
    LLVMValueRef nz = LLVMBuildICmp(b, LLVMIntNE, l64, LLVMConstInt(i64, 0, 0), "");
    LLVMValueRef sh1 = LLVMBuildZExt(b, nz, i64, "");
    LLVMValueRef sh2 = LLVMBuildSelect(b, nz, LLVMBuildSub(b, l64, one64, ""), LLVMConstInt(i64, 0, 0), "");
    r = LLVMBuildOr(b, LLVMBuildAnd(b, mg, LLVMConstInt(i64, 0xffffffffu, 0), ""),
                    LLVMBuildOr(b, LLVMBuildShl(b, sh1, LLVMConstInt(i64, 32, 0), ""),
                                LLVMBuildShl(b, sh2, LLVMConstInt(i64, 40, 0), ""), ""), "");
  }
  LLVMBuildRet(b, r);
  LLVMDisposeBuilder(b);
  return f;
}

/* The divisor d of a division cc_safe_divisions guarded: the false side of
 * its select; the divisor itself where it did not guard (a constant). */
static LLVMValueRef unguarded_divisor(LLVMValueRef inst)
{
  LLVMValueRef d = LLVMGetOperand(inst, 1);
  if (LLVMIsASelectInst(d) && LLVMIsAConstantInt(LLVMGetOperand(d, 1)) &&
      LLVMConstIntGetZExtValue(LLVMGetOperand(d, 1)) == 1)
    return LLVMGetOperand(d, 2);
  return d;
}

static void divide_by_magic(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef inst, LLVMValueRef d, int is_signed,
                            int rem)
{
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
  LLVMValueRef f = magic_helper(m, is_signed);
  LLVMPositionBuilderBefore(b, inst);
  LLVMValueRef a = LLVMGetOperand(inst, 0);
  LLVMValueRef mg = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &d, 1, "div.magic");
  LLVMValueRef mp = LLVMBuildTrunc(b, mg, i32, "");
  LLVMValueRef f1 = LLVMBuildTrunc(b, LLVMBuildLShr(b, mg, LLVMConstInt(i64, 32, 0), ""), i32, "");
  f1 = LLVMBuildAnd(b, f1, LLVMConstInt(i32, 0xff, 0), "");
  LLVMValueRef f2 = LLVMBuildTrunc(b, LLVMBuildLShr(b, mg, LLVMConstInt(i64, 40, 0), ""), i32, "");
  f2 = LLVMBuildAnd(b, f2, LLVMConstInt(i32, 0xff, 0), "");
  LLVMValueRef c32 = LLVMConstInt(i64, 32, 0), q;
  if (is_signed) {
    LLVMValueRef t = LLVMBuildTrunc(
        b, LLVMBuildAShr(b, LLVMBuildMul(b, LLVMBuildSExt(b, a, i64, ""), LLVMBuildSExt(b, mp, i64, ""), ""), c32, ""),
        i32, "");
    LLVMValueRef q0 = LLVMBuildAdd(b, a, t, "");
    q0 = LLVMBuildSub(b, LLVMBuildAShr(b, q0, f1, ""), LLVMBuildAShr(b, a, LLVMConstInt(i32, 31, 0), ""), "");
    LLVMValueRef dsign = LLVMBuildSub(b, LLVMConstInt(i32, 0, 0), f2, "");
    q = LLVMBuildSub(b, LLVMBuildXor(b, q0, dsign, ""), dsign, "div.q");
  } else {
    LLVMValueRef t = LLVMBuildTrunc(
        b, LLVMBuildLShr(b, LLVMBuildMul(b, LLVMBuildZExt(b, a, i64, ""), LLVMBuildZExt(b, mp, i64, ""), ""), c32, ""),
        i32, "");
    q = LLVMBuildLShr(b, LLVMBuildAdd(b, t, LLVMBuildLShr(b, LLVMBuildSub(b, a, t, ""), f1, ""), ""), f2, "div.q");
  }
  LLVMValueRef v = q;
  if (rem) {
    LLVMValueRef d1 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, d, LLVMConstInt(i32, 0, 0), ""),
                                      LLVMConstInt(i32, 1, 0), d, "");
    v = LLVMBuildSub(b, a, LLVMBuildMul(b, q, d1, ""), "div.r");
  }
  LLVMReplaceAllUsesWith(inst, v);
  LLVMInstructionEraseFromParent(inst);
}

/* ---- 64-bit divisors ----
 *
 * The same algorithms with N = 64.  The magic number needs a 128-by-64-bit
 * division whose quotient fits in 64 bits (the high word is below the
 * divisor): x86's `div` does it, as inline assembly, once per lane loop.
 * Per lane the high half of a 64x64-bit product is built from four 32x32
 * products (vpmuludq in the vector loop: AVX-512 has no 64-bit high
 * multiply either). */

/* rdx:rax / d; hi < d */
static LLVMValueRef build_divq(LLVMBuilderRef b, LLVMContextRef c, LLVMValueRef hi, LLVMValueRef lo, LLVMValueRef d)
{
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMTypeRef params[3] = {i64, i64, i64};
  LLVMTypeRef rets[2] = {i64, i64};
  LLVMTypeRef fty = LLVMFunctionType(LLVMStructTypeInContext(c, rets, 2, 0), params, 3, 0);
  static const char text[] = "divq $4";
  static const char cons[] = "={ax},={dx},{ax},{dx},r,~{flags}";
  LLVMValueRef asmv = LLVMGetInlineAsm(fty, text, sizeof(text) - 1, cons, sizeof(cons) - 1, 0, 0,
                                       LLVMInlineAsmDialectATT, 0);
  LLVMValueRef args[3] = {lo, hi, d};
  LLVMValueRef r = LLVMBuildCall2(b, fty, asmv, args, 3, "");
  return LLVMBuildExtractValue(b, r, 0, "");
}

/* The helper's result: {magic, shifts}; shifts as for 32 bits:
 *   signed:   bits 0-7 sh, bit 8 the divisor's sign
 *   unsigned: bits 0-7 sh1, bits 8-15 sh2 */
static LLVMValueRef magic_helper64(LLVMModuleRef m, int is_signed)
{
  const char *name = is_signed ? "__lanecl_divmagic_s64" : "__lanecl_divmagic_u64";
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  if (f)
    return f;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), rets[2] = {i64, i64};
  f = new_helper(m, name, LLVMFunctionType(LLVMStructTypeInContext(c, rets, 2, 0), &i64, 1, 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, f, "entry"));
  LLVMValueRef d = LLVMGetParam(f, 0);
  LLVMValueRef z = LLVMConstInt(i64, 0, 0), one = LLVMConstInt(i64, 1, 0);
  LLVMValueRef d1 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, d, z, ""), one, d, "d");
  LLVMValueRef ad = d1;
  if (is_signed)
    ad = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, d1, z, ""), LLVMBuildSub(b, z, d1, ""), d1, "absd");
  /* l = ceil(log2 ad) = 64 - clz(ad - 1) (ad as unsigned: |INT64_MIN| is 2^63) */
  LLVMValueRef args[2] = {LLVMBuildSub(b, ad, one, ""), LLVMConstInt(LLVMInt1TypeInContext(c), 0, 0)};
  LLVMValueRef clz = cc_build_intrinsic(b, m, "llvm.ctlz", &i64, 1, args, 2, "");
  LLVMValueRef l = LLVMBuildSub(b, LLVMConstInt(i64, 64, 0), clz, "l");
  LLVMValueRef mg, sh;
  if (is_signed) {
    /* l = max(l, 1); m = 1 + 2^(63 + l) / |d| (|d| = 1: 2^64 + 1, whose low
     * word is 1); magic = m - 2^64; sh = l - 1 */
    l = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, l, z, ""), one, l, "");
    LLVMValueRef unit = LLVMBuildICmp(b, LLVMIntEQ, ad, one, "");
    LLVMValueRef hi = LLVMBuildShl(b, one, LLVMBuildSub(b, l, one, ""), "");
    hi = LLVMBuildSelect(b, unit, z, hi, "");
    LLVMValueRef q = build_divq(b, c, hi, z, ad);
    mg = LLVMBuildSelect(b, unit, one, LLVMBuildAdd(b, q, one, ""), "");
    LLVMValueRef neg = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntSLT, d1, z, ""), i64, "");
    sh = LLVMBuildOr(b, LLVMBuildSub(b, l, one, ""), LLVMBuildShl(b, neg, LLVMConstInt(i64, 8, 0), ""), "");
  } else {
    /* m = 1 + 2^64 (2^l - d) / d (2^l - d < d; 2^64 - d is 0 - d);
     * sh1 = min(l, 1); sh2 = max(l - 1, 0) */
    LLVMValueRef full = LLVMBuildICmp(b, LLVMIntEQ, l, LLVMConstInt(i64, 64, 0), "");
    LLVMValueRef pow2 = LLVMBuildSelect(b, full, z, LLVMBuildShl(b, one, LLVMBuildSelect(b, full, z, l, ""), ""), "");
    LLVMValueRef q = build_divq(b, c, LLVMBuildSub(b, pow2, ad, ""), z, ad);
    mg = LLVMBuildAdd(b, q, one, "");
    LLVMValueRef nz = LLVMBuildICmp(b, LLVMIntNE, l, z, "");
    LLVMValueRef sh1 = LLVMBuildZExt(b, nz, i64, "");
    LLVMValueRef sh2 = LLVMBuildSelect(b, nz, LLVMBuildSub(b, l, one, ""), z, "");
    sh = LLVMBuildOr(b, sh1, LLVMBuildShl(b, sh2, LLVMConstInt(i64, 8, 0), ""), "");
  }
  LLVMValueRef r = LLVMGetUndef(LLVMGetReturnType(LLVMGlobalGetValueType(f)));
  r = LLVMBuildInsertValue(b, r, mg, 0, "");
  r = LLVMBuildInsertValue(b, r, sh, 1, "");
  LLVMBuildRet(b, r);
  LLVMDisposeBuilder(b);
  return f;
}

/* The high 64 bits of a * m, unsigned, from 32-bit halves. */
static LLVMValueRef mulhu64(LLVMBuilderRef b, LLVMTypeRef i64, LLVMValueRef a, LLVMValueRef m)
{
  LLVMValueRef lo = LLVMConstInt(i64, 0xffffffffu, 0), c32 = LLVMConstInt(i64, 32, 0);
  LLVMValueRef al = LLVMBuildAnd(b, a, lo, ""), ah = LLVMBuildLShr(b, a, c32, "");
  LLVMValueRef ml = LLVMBuildAnd(b, m, lo, ""), mh = LLVMBuildLShr(b, m, c32, "");
  LLVMValueRef ll = LLVMBuildMul(b, al, ml, ""), hl = LLVMBuildMul(b, ah, ml, "");
  LLVMValueRef lh = LLVMBuildMul(b, al, mh, ""), hh = LLVMBuildMul(b, ah, mh, "");
  /* each term below 2^32 but lh: the sum stays below 2^64 */
  LLVMValueRef cross = LLVMBuildAdd(b, LLVMBuildAdd(b, LLVMBuildLShr(b, ll, c32, ""), LLVMBuildAnd(b, hl, lo, ""), ""),
                                    lh, "");
  return LLVMBuildAdd(b, LLVMBuildAdd(b, hh, LLVMBuildLShr(b, hl, c32, ""), ""), LLVMBuildLShr(b, cross, c32, ""),
                      "mulhu");
}

static void divide_by_magic64(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef inst, LLVMValueRef d, int is_signed,
                              int rem)
{
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMValueRef f = magic_helper64(m, is_signed);
  LLVMPositionBuilderBefore(b, inst);
  LLVMValueRef a = LLVMGetOperand(inst, 0);
  LLVMValueRef res = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &d, 1, "div.magic");
  LLVMValueRef mg = LLVMBuildExtractValue(b, res, 0, "");
  LLVMValueRef shifts = LLVMBuildExtractValue(b, res, 1, "");
  LLVMValueRef ff = LLVMConstInt(i64, 0xff, 0), z = LLVMConstInt(i64, 0, 0);
  LLVMValueRef f1 = LLVMBuildAnd(b, shifts, ff, "");
  LLVMValueRef f2 = LLVMBuildAnd(b, LLVMBuildLShr(b, shifts, LLVMConstInt(i64, 8, 0), ""), ff, "");
  LLVMValueRef q;
  if (is_signed) {
    /* mulsh(a, mg) = mulhu(a, mg) - (a < 0 ? mg : 0) - (mg < 0 ? a : 0) */
    LLVMValueRef t = mulhu64(b, i64, a, mg);
    t = LLVMBuildSub(b, t, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, a, z, ""), mg, z, ""), "");
    t = LLVMBuildSub(b, t, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, mg, z, ""), a, z, ""), "");
    LLVMValueRef q0 = LLVMBuildAdd(b, a, t, "");
    q0 = LLVMBuildSub(b, LLVMBuildAShr(b, q0, f1, ""), LLVMBuildAShr(b, a, LLVMConstInt(i64, 63, 0), ""), "");
    LLVMValueRef dsign = LLVMBuildSub(b, z, f2, "");
    q = LLVMBuildSub(b, LLVMBuildXor(b, q0, dsign, ""), dsign, "div.q");
  } else {
    LLVMValueRef t = mulhu64(b, i64, a, mg);
    q = LLVMBuildLShr(b, LLVMBuildAdd(b, t, LLVMBuildLShr(b, LLVMBuildSub(b, a, t, ""), f1, ""), ""), f2, "div.q");
  }
  LLVMValueRef v = q;
  if (rem) {
    LLVMValueRef d1 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, d, z, ""), LLVMConstInt(i64, 1, 0), d, "");
    v = LLVMBuildSub(b, a, LLVMBuildMul(b, q, d1, ""), "div.r");
  }
  LLVMReplaceAllUsesWith(inst, v);
  LLVMInstructionEraseFromParent(inst);
}

unsigned cc_uniform_divisions(LLVMValueRef fn, int (*is_uniform)(void *arg, LLVMValueRef v, int divisor), void *arg)
{
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetModuleContext(m));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  unsigned n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
      LLVMValueRef next = LLVMGetNextInstruction(i);
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if ((op == LLVMSDiv || op == LLVMSRem || op == LLVMUDiv || op == LLVMURem) &&
          (LLVMTypeOf(i) == i32 || LLVMTypeOf(i) == i64)) {
        LLVMValueRef d = unguarded_divisor(i);
        if (!LLVMIsAConstant(d) && is_uniform(arg, d, 1) && !is_uniform(arg, LLVMGetOperand(i, 0), 0)) {
          int sg = op == LLVMSDiv || op == LLVMSRem, rem = op == LLVMSRem || op == LLVMURem;
          if (LLVMTypeOf(i) == i32)
            divide_by_magic(b, m, i, d, sg, rem);
          else
            divide_by_magic64(b, m, i, d, sg, rem);
          n++;
        }
      }
      i = next;
    }
  LLVMDisposeBuilder(b);
  return n;
}

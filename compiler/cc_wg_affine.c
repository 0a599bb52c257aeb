/* Gathers and scatters that are plain loads and stores, after outer-loop
 * vectorization (see cc_wg_outer.c).
 *
 * LLVM's VPlan-native path widens every load and store of the vectorized
 * lane loop into a gather or a scatter, and every phi of an inner loop into
 * a vector phi: nbody's pos[j] becomes a gather of 16 copies of one address,
 * sgemm's B[k * N + c] a gather of 16 consecutive floats.  Here each vector
 * of addresses is written as lane i = base + i * stride (an affine lane
 * form: base a scalar, stride a constant), where that can be shown:
 *   stride 0        -> one scalar load and a broadcast;
 *   stride = size   -> one vector load (or store).
 * The form follows add, sub, mul and shl by constants, trunc, splats,
 * constant vectors, getelementptr, selects on uniform conditions and phis
 * (an inner loop's counter; a counter from the lanes' ids by a uniform step).  Sign and zero extensions and
 * arithmetic shifts right of a non-uniform vector hold only if no lane
 * wraps: for those the access keeps the gather behind a test of the first
 * and last lanes (computed where the extension is, usually outside the
 * inner loop; the O3 that follows unswitches it).  The scalar code built
 * for bases nobody uses is left for O3 to delete.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

#define AFF_DEPTH 40

typedef struct aff {
  int ok;
  LLVMValueRef base;   /* lane 0's value */
  int64_t stride;      /* units of the element (integers) or bytes (pointers) */
  LLVMValueRef guard;  /* i1: the form holds (NULL: always) */
} aff;

typedef struct aff_ctx {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMTargetDataRef td;
  LLVMBuilderRef b;
  int strided;      /* wg_strided_accesses: only strides of 2 to 4 elements */
  cc_ptrmap memo;   /* value -> 1 + index in the entries */
  aff *ent;
  LLVMValueRef *key;
  unsigned n, cap;
} aff_ctx;

static const aff unknown = {0, NULL, 0, NULL};

static int memo_get(aff_ctx *x, LLVMValueRef v, aff *out)
{
  unsigned i;
  if (!cc_ptrmap_get(&x->memo, v, &i) || !i)
    return 0;
  *out = x->ent[i - 1];
  return 1;
}

static void memo_put(aff_ctx *x, LLVMValueRef v, aff a)
{
  unsigned i;
  if (cc_ptrmap_get(&x->memo, v, &i) && i) {
    x->ent[i - 1] = a;
    return;
  }
  if (x->n == x->cap)
    return; /* sized up front: cannot happen */
  x->ent[x->n] = a;
  x->key[x->n] = v;
  cc_ptrmap_put(&x->memo, v, ++x->n);
}

static int vec_elems(LLVMValueRef v)
{
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? (int)LLVMGetVectorSize(t) : 0;
}

static LLVMValueRef and_guard(aff_ctx *x, LLVMValueRef g1, LLVMValueRef g2)
{
  if (!g1)
    return g2;
  if (!g2 || g1 == g2)
    return g1;
  return LLVMBuildAnd(x->b, g1, g2, "lanes.ok");
}

/* Splits the block of inst before it, the other way round from
 * cc_split_block_before: the instructions before inst (its phis among
 * them) move to a new block in front, which every branch to the block now
 * reaches, and that ends in a branch to the block, which keeps inst and
 * what follows.  No phi is built again: cc_split_block_before rebuilds
 * (replaces and erases) the phis of the block's successors, and where the
 * block is an inner loop of its own those are the block's phis, values
 * that the caller (the data of a scatter) and the memo still held.
 * Returns the new block. */
static LLVMBasicBlockRef split_head(aff_ctx *x, LLVMValueRef inst, const char *name)
{
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
  LLVMBasicBlockRef head = cc_split_head(x->b, inst, name);
  if (head)
    LLVMBuildBr(x->b, bb);
  return head;
}

/* A new block `name` right after head (which split_head made), the builder
 * before head's branch, where the caller builds the test for
 * branch_head. */
static LLVMBasicBlockRef block_after(aff_ctx *x, LLVMBasicBlockRef head, const char *name)
{
  LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(x->c, LLVMGetBasicBlockParent(head), name);
  LLVMMoveBasicBlockAfter(nb, head);
  LLVMPositionBuilderBefore(x->b, LLVMGetBasicBlockTerminator(head));
  return nb;
}

/* head's branch becomes a branch on cond to t or f. */
static void branch_head(aff_ctx *x, LLVMBasicBlockRef head, LLVMValueRef cond, LLVMBasicBlockRef t,
                        LLVMBasicBlockRef f)
{
  LLVMValueRef br = LLVMGetBasicBlockTerminator(head);
  LLVMPositionBuilderBefore(x->b, br);
  LLVMBuildCondBr(x->b, cond, t, f);
  LLVMInstructionEraseFromParent(br);
}

/* Splits call's block before call (split_head, block `head`) and puts a
 * block `body` after the head, which runs when a lane of mask (W lanes) is
 * on, else the head goes on to the call's block.  *bits: the mask as an
 * integer of W bits (named bits_name).  Returns body, NULL when it could
 * not split (nothing changed then). */
static LLVMBasicBlockRef if_any_lane(aff_ctx *x, LLVMValueRef call, LLVMValueRef mask, unsigned W, const char *head,
                                     const char *body, const char *bits_name, LLVMValueRef *bits)
{
  LLVMBasicBlockRef rest = LLVMGetInstructionParent(call);
  LLVMBasicBlockRef h = split_head(x, call, head);
  if (!h)
    return NULL;
  LLVMBasicBlockRef nb = block_after(x, h, body);
  LLVMTypeRef it = LLVMIntTypeInContext(x->c, W);
  *bits = LLVMBuildBitCast(x->b, mask, it, bits_name);
  branch_head(x, h, LLVMBuildICmp(x->b, LLVMIntNE, *bits, LLVMConstNull(it), ""), nb, rest);
  return nb;
}

/* The alignment of a gather or scatter, at least 1. */
static unsigned access_align(LLVMValueRef call, int is_gather)
{
  LLVMValueRef al = LLVMGetOperand(call, is_gather ? 1 : 2);
  unsigned align = LLVMIsAConstantInt(al) ? (unsigned)LLVMConstIntGetZExtValue(al) : 1;
  return align ? align : 1;
}

/* A load or store r that replaces (part of) call: its alignment and metadata. */
static void like_access(LLVMValueRef call, LLVMValueRef r, unsigned align)
{
  LLVMSetAlignment(r, align);
  cc_copy_metadata(call, r);
}

/* Lane k of vector v, built at the builder. */
static LLVMValueRef lane(aff_ctx *x, LLVMValueRef v, unsigned k)
{
  return LLVMBuildExtractElement(x->b, v, LLVMConstInt(LLVMInt32TypeInContext(x->c), k, 0), "");
}

/* Lane k of w; of a sign or zero extension, the extension of lane k of
 * its operand, so that the test below reads the narrow vector: the wide
 * one (i64 lanes from i32, two registers of them on AVX-512) is then only
 * needed by the gather or scatter that the test guards, and O3 sinks it
 * there, out of the plain path. */
static LLVMValueRef wide_lane(aff_ctx *x, LLVMValueRef w, unsigned k)
{
  LLVMOpcode op = LLVMIsAInstruction(w) ? LLVMGetInstructionOpcode(w) : (LLVMOpcode)0;
  if (op == LLVMSExt || op == LLVMZExt)
    return LLVMBuildCast(x->b, op, lane(x, LLVMGetOperand(w, 0), k), LLVMGetElementType(LLVMTypeOf(w)), "");
  return lane(x, w, k);
}

/* The first and last lanes of the wide vector w (built from v) differ by
 * (W - 1) * stride: no lane of v wrapped on the way. */
static LLVMValueRef no_wrap_guard(aff_ctx *x, LLVMValueRef w, unsigned W, int64_t stride)
{
  LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(w));
  LLVMValueRef d = LLVMBuildSub(x->b, wide_lane(x, w, W - 1), wide_lane(x, w, 0), "");
  return LLVMBuildICmp(x->b, LLVMIntEQ, d, LLVMConstInt(et, (unsigned long long)(stride * (int64_t)(W - 1)), 1),
                       "lanes.nowrap");
}

static aff analyze(aff_ctx *x, LLVMValueRef v, unsigned depth);

/* Constant vectors: each lane an integer, evenly spaced; or a null/poison-free splat. */
static aff analyze_constant(LLVMValueRef v)
{
  unsigned W = (unsigned)vec_elems(v);
  LLVMValueRef e0 = LLVMGetAggregateElement(v, 0);
  if (!W || !e0)
    return unknown;
  if (LLVMIsAConstantInt(e0)) {
    long long c0 = LLVMConstIntGetSExtValue(e0), step = 0;
    for (unsigned i = 1; i < W; i++) {
      LLVMValueRef e = LLVMGetAggregateElement(v, i);
      if (!e || !LLVMIsAConstantInt(e))
        return unknown;
      long long d = LLVMConstIntGetSExtValue(e) - c0;
      if (i == 1)
        step = d;
      else if (d != step * (long long)i)
        return unknown;
    }
    return (aff){1, e0, step, NULL};
  }
  for (unsigned i = 1; i < W; i++)
    if (LLVMGetAggregateElement(v, i) != e0)
      return unknown;
  if (LLVMIsAUndefValue(e0) || LLVMIsAPoisonValue(e0))
    return unknown;
  return (aff){1, e0, 0, NULL};
}

static aff analyze_binop(aff_ctx *x, LLVMValueRef v, LLVMOpcode op, unsigned depth)
{
  aff a = analyze(x, LLVMGetOperand(v, 0), depth + 1);
  aff c = analyze(x, LLVMGetOperand(v, 1), depth + 1);
  if (!a.ok || !c.ok)
    return unknown;
  LLVMPositionBuilderBefore(x->b, v);
  LLVMValueRef g = and_guard(x, a.guard, c.guard);
  LLVMTypeRef et = LLVMTypeOf(a.base);
  switch (op) {
  case LLVMAdd:
    return (aff){1, LLVMBuildAdd(x->b, a.base, c.base, ""), a.stride + c.stride, g};
  case LLVMSub:
    return (aff){1, LLVMBuildSub(x->b, a.base, c.base, ""), a.stride - c.stride, g};
  case LLVMMul:
    if (a.stride && !c.stride && LLVMIsAConstantInt(c.base))
      return (aff){1, LLVMBuildMul(x->b, a.base, c.base, ""), a.stride * LLVMConstIntGetSExtValue(c.base), g};
    if (c.stride && !a.stride && LLVMIsAConstantInt(a.base))
      return (aff){1, LLVMBuildMul(x->b, a.base, c.base, ""), c.stride * LLVMConstIntGetSExtValue(a.base), g};
    break;
  case LLVMShl:
    if (a.stride && !c.stride && LLVMIsAConstantInt(c.base)) {
      long long k = LLVMConstIntGetSExtValue(c.base);
      if (k < 0 || k > 62)
        return unknown;
      return (aff){1, LLVMBuildShl(x->b, a.base, c.base, ""), (int64_t)((uint64_t)a.stride << k), g};
    }
    break;
  case LLVMAShr: case LLVMLShr:
    /* Exact division of every lane: affine if no lane wrapped before. */
    if (a.stride && !c.stride && LLVMIsAConstantInt(c.base) && LLVMGetTypeKind(et) == LLVMIntegerTypeKind) {
      long long k = LLVMConstIntGetSExtValue(c.base);
      if (k <= 0 || k > 62 || a.stride % ((int64_t)1 << k) || a.stride > (int64_t)1 << 56 ||
          -a.stride > (int64_t)1 << 56)
        return unknown;
      int64_t s = a.stride / ((int64_t)1 << k);
      LLVMValueRef base = op == LLVMAShr ? LLVMBuildAShr(x->b, a.base, c.base, "") : LLVMBuildLShr(x->b, a.base, c.base, "");
      LLVMPositionBuilderBefore(x->b, LLVMGetNextInstruction(v));
      return (aff){1, base, s, and_guard(x, g, no_wrap_guard(x, v, (unsigned)vec_elems(v), s))};
    }
    break;
  default:
    break;
  }
  if (a.stride || c.stride)
    return unknown;
  /* Uniform operands: the same operation on lane 0. */
  switch (op) {
  case LLVMMul: case LLVMShl: case LLVMAShr: case LLVMLShr: case LLVMAnd: case LLVMOr: case LLVMXor:
  case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
    return (aff){1, LLVMBuildBinOp(x->b, op, a.base, c.base, ""), 0, g};
  default:
    return unknown;
  }
}

static aff analyze_cast(aff_ctx *x, LLVMValueRef v, LLVMOpcode op, unsigned depth)
{
  LLVMValueRef src = LLVMGetOperand(v, 0);
  aff a = analyze(x, src, depth + 1);
  if (!a.ok)
    return unknown;
  LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(v));
  LLVMPositionBuilderBefore(x->b, v);
  LLVMValueRef base = LLVMBuildCast(x->b, op, a.base, et, "");
  if (!a.stride)
    return (aff){1, base, 0, a.guard};
  switch (op) {
  case LLVMTrunc:
    return (aff){1, base, a.stride, a.guard};
  case LLVMSExt: case LLVMZExt: {
    unsigned bits = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(src)));
    int64_t span = a.stride * (int64_t)vec_elems(v);
    if (bits >= 63 || span >= (int64_t)1 << (bits - 1) || -span >= (int64_t)1 << (bits - 1))
      return unknown;
    LLVMPositionBuilderBefore(x->b, LLVMGetNextInstruction(v));
    return (aff){1, base, a.stride, and_guard(x, a.guard, no_wrap_guard(x, v, (unsigned)vec_elems(v), a.stride))};
  }
  default:
    return unknown;
  }
}

/* getelementptr with one index (or constant indices into the source type). */
static aff analyze_gep(aff_ctx *x, LLVMValueRef v, unsigned depth)
{
  if (LLVMGetNumIndices(v) != 1)
    return unknown;
  LLVMValueRef p = LLVMGetOperand(v, 0), idx = LLVMGetOperand(v, 1);
  aff a = vec_elems(p) ? analyze(x, p, depth + 1) : (aff){1, p, 0, NULL};
  aff i = vec_elems(idx) ? analyze(x, idx, depth + 1) : (aff){1, idx, 0, NULL};
  if (!a.ok || !i.ok)
    return unknown;
  LLVMTypeRef st = LLVMGetGEPSourceElementType(v);
  if (!LLVMTypeIsSized(st))
    return unknown;
  int64_t size = (int64_t)LLVMABISizeOfType(x->td, st);
  LLVMPositionBuilderBefore(x->b, v);
  LLVMValueRef base = LLVMIsInBounds(v) ? LLVMBuildInBoundsGEP2(x->b, st, a.base, &i.base, 1, "")
                                        : LLVMBuildGEP2(x->b, st, a.base, &i.base, 1, "");
  return (aff){1, base, a.stride + i.stride * size, and_guard(x, a.guard, i.guard)};
}

static aff analyze_shuffle(aff_ctx *x, LLVMValueRef v, unsigned depth)
{
  unsigned n = LLVMGetNumMaskElements(v);
  for (unsigned i = 0; i < n; i++)
    if (LLVMGetMaskValue(v, i) != 0)
      return unknown;
  /* A splat of lane 0 of the first operand. */
  LLVMValueRef src = LLVMGetOperand(v, 0);
  if (LLVMIsAInsertElementInst(src)) {
    LLVMValueRef at = LLVMGetOperand(src, 2);
    if (LLVMIsAConstantInt(at) && LLVMConstIntGetZExtValue(at) == 0)
      return (aff){1, LLVMGetOperand(src, 1), 0, NULL};
  }
  aff a = analyze(x, src, depth + 1);
  return a.ok ? (aff){1, a.base, 0, a.guard} : unknown;
}

/* A phi whose incoming values share a stride: an inner loop's counter
 * (stride 0), the lane loop's vector of ids (stride 1), a counter that
 * starts at the ids and steps by a uniform value.  Optimistic over the
 * cycle: the scalar phi is in the memo, with the stride of the first
 * constant incoming value (else of its start, else 0), before the incoming
 * values are. */
static int depends_on(LLVMValueRef v, LLVMValueRef sel, unsigned depth);

static aff analyze_phi(aff_ctx *x, LLVMValueRef v, unsigned depth)
{
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
  unsigned n = LLVMCountIncoming(v);
  LLVMValueRef *vals = malloc((n + 1) * sizeof(*vals));
  LLVMBasicBlockRef *from = malloc((n + 1) * sizeof(*from));
  if (!vals || !from) {
    free(vals);
    free(from);
    return unknown;
  }
  int64_t stride = 0;
  int found = 0;
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef in = LLVMGetIncomingValue(v, k);
    aff c = LLVMIsAConstant(in) ? analyze_constant(in) : unknown;
    /* An epilogue's first ids: splat(start) + or | <0, 1, ...>. */
    if (!c.ok && LLVMIsAInstruction(in) && LLVMGetNumOperands(in) == 2 &&
        (LLVMGetInstructionOpcode(in) == LLVMAdd ||
         (LLVMGetInstructionOpcode(in) == LLVMOr && LLVMGetIsDisjoint(in)))) {
      LLVMValueRef o0 = LLVMGetOperand(in, 0), o1 = LLVMGetOperand(in, 1);
      LLVMValueRef cv = LLVMIsAConstant(o1) ? o1 : LLVMIsAConstant(o0) ? o0 : NULL;
      LLVMValueRef sv = cv == o1 ? o0 : o1;
      if (cv && LLVMIsAShuffleVectorInst(sv))
        c = analyze_constant(cv);
    }
    if (c.ok) {
      stride = c.stride;
      found = 1;
      break;
    }
  }
  /* A counter that starts at the lanes' own ids and steps by a uniform
   * value (for (j = i; j < n; j += per) widened with masks): its stride is
   * that of the start.  Only an incoming value that does not depend on the
   * phi is asked (the phi reads as unknown meanwhile, through a phi that
   * depends_on does not look through). */
  LLVMValueRef guard = NULL;  /* the start's (a sign extension's no-wrap test), which the steps keep */
  for (unsigned k = 0; k < n && !found; k++) {
    LLVMValueRef in = LLVMGetIncomingValue(v, k);
    if (LLVMIsAConstant(in) || depends_on(in, v, 0))
      continue;
    memo_put(x, v, unknown);
    aff a = analyze(x, in, depth + 1);
    /* A start that holds under a test: only as the one way into a loop
     * whose other edge steps from the phi, so that the test, computed
     * where the start is, comes before every use of the phi. */
    if (a.ok && (!a.guard || (n == 2 && depends_on(LLVMGetIncomingValue(v, 1 - k), v, 0)))) {
      stride = a.stride;
      guard = a.guard;
      found = 1;
    }
  }
  LLVMPositionBuilderBefore(x->b, LLVMGetFirstInstruction(bb));
  LLVMValueRef s = LLVMBuildPhi(x->b, LLVMGetElementType(LLVMTypeOf(v)), "lane0");
  unsigned mark = x->n;
  memo_put(x, v, (aff){1, s, stride, guard});
  int ok = 1;
  for (unsigned k = 0; k < n && ok; k++) {
    aff a = analyze(x, LLVMGetIncomingValue(v, k), depth + 1);
    ok = a.ok && a.stride == stride && (!a.guard || a.guard == guard);
    vals[k] = a.base;
    from[k] = LLVMGetIncomingBlock(v, k);
  }
  if (!ok) {
    /* Forget what was built on the guess, the guess itself included (an
     * entry made before mark by the start's analysis above: left, a later
     * question about v read the guess, stride 0, and a store through two
     * loaded offsets became a store of one lane); keep the phi valid (dead
     * code). */
    memo_put(x, v, unknown);
    for (unsigned i = mark; i < x->n; i++)
      x->ent[i] = unknown;
    for (unsigned k = 0; k < n; k++) {
      from[k] = LLVMGetIncomingBlock(v, k);
      LLVMPositionBuilderBefore(x->b, LLVMGetBasicBlockTerminator(from[k]));
      vals[k] = lane(x, LLVMGetIncomingValue(v, k), 0);
    }
  }
  LLVMAddIncoming(s, vals, from, n);
  free(vals);
  free(from);
  return ok ? (aff){1, s, stride, guard} : unknown;
}

/* smax/smin/umax/umin(p, q) with q uniform: p itself on every lane where
 * p already lies on the kept side of q (a clamp that does not bite: x
 * clamped to [0, w) inside the image).  The guard is that test on the
 * vectors themselves, so it needs no argument about wrap-around; both
 * operands uniform: the operation on lane 0. */
static aff analyze_minmax(aff_ctx *x, LLVMValueRef v, unsigned depth)
{
  static const struct {
    const char *prefix;
    LLVMIntPredicate keep;  /* p is the result where p keep q */
  } mm[] = {{"llvm.smax.", LLVMIntSGE}, {"llvm.smin.", LLVMIntSLE}, {"llvm.umax.", LLVMIntUGE},
            {"llvm.umin.", LLVMIntULE}};
  unsigned k = 0;
  while (k < sizeof(mm) / sizeof(mm[0]) && !cc_callee_has_prefix(v, mm[k].prefix))
    k++;
  if (k == sizeof(mm) / sizeof(mm[0]) || LLVMGetNumArgOperands(v) != 2)
    return unknown;
  LLVMValueRef p = LLVMGetOperand(v, 0), q = LLVMGetOperand(v, 1);
  aff a = analyze(x, p, depth + 1), c = analyze(x, q, depth + 1);
  if (!a.ok || !c.ok)
    return unknown;
  if (!a.stride && c.stride) {
    LLVMValueRef t = p;
    p = q;
    q = t;
    aff ta = a;
    a = c;
    c = ta;
  }
  if (c.stride)
    return unknown;
  LLVMPositionBuilderBefore(x->b, v);
  if (!a.stride) {
    LLVMTypeRef st = LLVMTypeOf(a.base);
    unsigned id = LLVMGetIntrinsicID(cc_called_function(v));
    if (!id)
      return unknown;
    LLVMValueRef decl = LLVMGetIntrinsicDeclaration(x->m, id, &st, 1);
    LLVMValueRef args[2] = {a.base, c.base};
    LLVMValueRef r = LLVMBuildCall2(x->b, LLVMGlobalGetValueType(decl), decl, args, 2, "");
    return (aff){1, r, 0, and_guard(x, a.guard, c.guard)};
  }
  unsigned W = (unsigned)vec_elems(v);
  LLVMValueRef cmp = LLVMBuildICmp(x->b, mm[k].keep, p, q, "");
  LLVMValueRef bits = LLVMBuildBitCast(x->b, cmp, LLVMIntTypeInContext(x->c, W), "");
  LLVMValueRef all = LLVMBuildICmp(x->b, LLVMIntEQ, bits, LLVMConstAllOnes(LLVMTypeOf(bits)), "");
  return (aff){1, a.base, a.stride, and_guard(x, a.guard, LLVMBuildFreeze(x->b, all, "clamp.idle"))};
}

static aff analyze(aff_ctx *x, LLVMValueRef v, unsigned depth)
{
  aff a;
  if (memo_get(x, v, &a))
    return a;
  if (!vec_elems(v) || depth > AFF_DEPTH)
    return unknown;
  if (LLVMIsAConstant(v))
    return analyze_constant(v);
  if (!LLVMIsAInstruction(v))
    return unknown;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  switch (op) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMAShr: case LLVMLShr: case LLVMAnd:
  case LLVMOr: case LLVMXor: case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
    /* or disjoint is an add (the epilogue's first ids: base | <0, 1, ...>) */
    a = analyze_binop(x, v, op == LLVMOr && LLVMGetIsDisjoint(v) ? LLVMAdd : op, depth);
    break;
  case LLVMTrunc: case LLVMSExt: case LLVMZExt:
    a = analyze_cast(x, v, op, depth);
    break;
  case LLVMGetElementPtr:
    a = analyze_gep(x, v, depth);
    break;
  case LLVMShuffleVector:
    a = analyze_shuffle(x, v, depth);
    break;
  case LLVMPHI:
    return analyze_phi(x, v, depth); /* it keeps its memo entry itself */
  case LLVMCall:
    a = analyze_minmax(x, v, depth);
    break;
  case LLVMSelect: {
    LLVMValueRef cnd = LLVMGetOperand(v, 0);
    aff c = vec_elems(cnd) ? analyze(x, cnd, depth + 1) : (aff){1, cnd, 0, NULL};
    aff t = analyze(x, LLVMGetOperand(v, 1), depth + 1), f = analyze(x, LLVMGetOperand(v, 2), depth + 1);
    a = unknown;
    if (c.ok && !c.stride && t.ok && f.ok && t.stride == f.stride) {
      LLVMPositionBuilderBefore(x->b, v);
      a = (aff){1, LLVMBuildSelect(x->b, c.base, t.base, f.base, ""), t.stride,
                and_guard(x, c.guard, and_guard(x, t.guard, f.guard))};
    }
    break;
  }
  case LLVMICmp: {
    aff l = analyze(x, LLVMGetOperand(v, 0), depth + 1), r = analyze(x, LLVMGetOperand(v, 1), depth + 1);
    a = unknown;
    if (l.ok && r.ok && !l.stride && !r.stride) {
      LLVMPositionBuilderBefore(x->b, v);
      a = (aff){1, LLVMBuildICmp(x->b, LLVMGetICmpPredicate(v), l.base, r.base, ""), 0,
                and_guard(x, l.guard, r.guard)};
    }
    break;
  }
  default:
    a = unknown;
    break;
  }
  memo_put(x, v, a);
  return a;
}

/* ---- rewriting the accesses ---- */

static int all_true(LLVMValueRef mask)
{
  aff a = analyze_constant(mask);
  return LLVMIsAConstant(mask) && a.ok && !a.stride && LLVMIsAConstantInt(a.base) &&
         LLVMConstIntGetZExtValue(a.base) == 1;
}

/* A masked load (gather: value is the pass-through) or store (value is the
 * data) of value's type at ptr under mask, standing for call: its alignment
 * and metadata. */
static LLVMValueRef masked_access(aff_ctx *x, LLVMValueRef call, int is_gather, LLVMValueRef ptr, LLVMValueRef mask,
                                  LLVMValueRef value, const char *name)
{
  LLVMTypeRef ot[2] = {LLVMTypeOf(value), LLVMTypeOf(ptr)};
  LLVMValueRef al32 = LLVMConstInt(LLVMInt32TypeInContext(x->c), access_align(call, is_gather), 0);
  LLVMValueRef load_args[4] = {ptr, al32, mask, value}, store_args[4] = {value, ptr, al32, mask};
  LLVMValueRef r = cc_build_intrinsic(x->b, x->m, is_gather ? "llvm.masked.load" : "llvm.masked.store", ot, 2,
                                      is_gather ? load_args : store_args, 4, is_gather ? name : "");
  cc_copy_metadata(call, r);
  return r;
}

/* An integer element narrower than its memory (i1 in a byte): a vector of
 * it is bit-packed in memory. */
static int bit_packed(LLVMTypeRef et, int64_t esize)
{
  return LLVMGetTypeKind(et) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(et) != 8 * esize;
}

/* ---- strides of a few elements ----
 * Lane k at base + k * s elements, s in 2..4 (a downsampling read
 * in[2 * i], a store to every other element): the loop vectorizer makes a
 * gather or scatter of it (a group of one access is not an interleave
 * group).  The s * W elements from base are s vectors; chunk j holds the
 * lanes k with s * k in [j W, (j + 1) W), at s * k - j W.  A gather becomes s
 * masked loads of the chunks (only the lanes' elements on: no other byte is
 * read, none faults) and a shuffle; a scatter becomes s shuffles and masked
 * stores (no other byte is written).  Lanes that are off read or write
 * nothing, as in the gather or scatter. */

#define STRIDE_MAX 4

/* s when stride (bytes) is s elements of esize bytes, s in 2..STRIDE_MAX; else 0. */
static unsigned small_stride(int64_t stride, int64_t esize)
{
  if (esize <= 0 || stride % esize)
    return 0;
  int64_t s = stride / esize;
  return s >= 2 && s <= STRIDE_MAX ? (unsigned)s : 0;
}

/* The mask of chunk j: element p on when p + j W = s k and lane k of m is. */
static LLVMValueRef chunk_mask(aff_ctx *x, LLVMValueRef m, unsigned W, unsigned s, unsigned j)
{
  LLVMTypeRef i32 = LLVMInt32TypeInContext(x->c);
  LLVMValueRef idx[64];
  for (unsigned p = 0; p < W; p++) {
    unsigned e = p + j * W;
    idx[p] = LLVMConstInt(i32, e % s ? W : e / s, 0); /* W: lane 0 of the all-false vector */
  }
  return LLVMBuildShuffleVector(x->b, m, LLVMConstNull(LLVMTypeOf(m)), LLVMConstVector(idx, W), "lanes.chunk.mask");
}

static LLVMValueRef strided_access(aff_ctx *x, LLVMValueRef call, int is_gather, const aff *a, unsigned W,
                                   unsigned s)
{
  LLVMValueRef data = is_gather ? call : LLVMGetOperand(call, 0);
  LLVMTypeRef vt = LLVMTypeOf(data), et = LLVMGetElementType(vt);
  int64_t esize = (int64_t)LLVMABISizeOfType(x->td, et);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(x->c), i32 = LLVMInt32TypeInContext(x->c),
              i64 = LLVMInt64TypeInContext(x->c);
  LLVMValueRef mask = LLVMGetOperand(call, is_gather ? 2 : 3);
  LLVMValueRef chunk[STRIDE_MAX] = {0}, idx[4 * 64], r = NULL;
  for (unsigned j = 0; j < s; j++) {
    LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)(j * W * esize), 0);
    /* not inbounds: lane 0, where base points, may be off and outside the buffer */
    LLVMValueRef ptr = j ? LLVMBuildGEP2(x->b, i8, a->base, &off, 1, "lanes.chunk") : a->base;
    LLVMValueRef cm = chunk_mask(x, mask, W, s, j);
    if (is_gather) {
      chunk[j] = masked_access(x, call, 1, ptr, cm, LLVMGetUndef(vt), "lanes.chunk");
    } else {
      /* element p of chunk j: lane (p + j W) / s where that divides */
      for (unsigned p = 0; p < W; p++) {
        unsigned e = p + j * W;
        idx[p] = e % s ? LLVMGetUndef(i32) : LLVMConstInt(i32, e / s, 0);
      }
      LLVMValueRef v = LLVMBuildShuffleVector(x->b, data, LLVMGetUndef(vt), LLVMConstVector(idx, W), "lanes.chunk");
      r = masked_access(x, call, 0, ptr, cm, v, "");
    }
  }
  if (!is_gather)
    return r;
  /* lane k: element s k of the chunks side by side (s = 2: chunks 0 and 1;
   * s = 3, 4: those and chunks 2 and 3, the missing fourth undefined) */
  for (unsigned p = 0; p < 4 * W; p++)
    idx[p] = LLVMConstInt(i32, p, 0);
  LLVMValueRef cat = LLVMBuildShuffleVector(x->b, chunk[0], chunk[1], LLVMConstVector(idx, 2 * W), "");
  if (s > 2) {
    LLVMValueRef hi = LLVMBuildShuffleVector(x->b, chunk[2], s > 3 ? chunk[3] : LLVMGetUndef(vt),
                                             LLVMConstVector(idx, 2 * W), "");
    cat = LLVMBuildShuffleVector(x->b, cat, hi, LLVMConstVector(idx, 4 * W), "");
  }
  for (unsigned k = 0; k < W; k++)
    idx[k] = LLVMConstInt(i32, s * k, 0);
  LLVMValueRef v = LLVMBuildShuffleVector(x->b, cat, LLVMGetUndef(LLVMTypeOf(cat)), LLVMConstVector(idx, W), "lanes");
  LLVMValueRef pass = LLVMGetOperand(call, 3);
  if (all_true(mask) || LLVMIsUndef(pass) || LLVMIsPoison(pass))
    return v;
  return LLVMBuildSelect(x->b, mask, v, pass, "lanes");
}

/* The plain access for call (a gather or scatter whose addresses are a),
 * at the builder; NULL (nothing built) when there is none. */
static LLVMValueRef plain_access(aff_ctx *x, LLVMValueRef call, int is_gather, const aff *a, unsigned W)
{
  LLVMValueRef data = is_gather ? call : LLVMGetOperand(call, 0);
  LLVMTypeRef vt = LLVMTypeOf(data), et = LLVMGetElementType(vt);
  int64_t esize = (int64_t)LLVMABISizeOfType(x->td, et);
  unsigned align = access_align(call, is_gather);
  LLVMValueRef r;
  if (is_gather && a->stride == 0) {
    r = LLVMBuildLoad2(x->b, et, a->base, "uniform");
    like_access(call, r, align);
    return cc_build_splat(x->b, r, W, "bcast");
  }
  if (x->strided) /* access_form checked the stride, the lanes and the type */
    return strided_access(x, call, is_gather, a, W, small_stride(a->stride, esize));
  if (a->stride != esize)
    return NULL;
  /* An element narrower than its memory (i1 in a byte): a vector of it is
   * bit-packed in memory, so the consecutive elements are read and written
   * as bytes (a <16 x i1> load took lane k from bit k of the first two
   * bytes: 16 saved branch conditions became 2). */
  if (bit_packed(et, esize)) {
    LLVMTypeRef mt = LLVMVectorType(LLVMIntTypeInContext(x->c, (unsigned)(8 * esize)), W);
    LLVMValueRef mask = LLVMGetOperand(call, is_gather ? 2 : 3);
    if (is_gather) {
      LLVMValueRef wide;
      if (all_true(mask)) {
        wide = LLVMBuildLoad2(x->b, mt, a->base, "lanes.bytes");
        like_access(call, wide, align);
      } else {
        LLVMValueRef pass = LLVMBuildZExt(x->b, LLVMGetOperand(call, 3), mt, "");
        wide = masked_access(x, call, 1, a->base, mask, pass, "lanes.bytes");
      }
      return LLVMBuildTrunc(x->b, wide, vt, "lanes");
    }
    LLVMValueRef bytes = LLVMBuildZExt(x->b, data, mt, "");
    if (all_true(mask)) {
      r = LLVMBuildStore(x->b, bytes, a->base);
      like_access(call, r, align);
      return r;
    }
    return masked_access(x, call, 0, a->base, mask, bytes, "");
  }
  LLVMValueRef mask = LLVMGetOperand(call, is_gather ? 2 : 3);
  if (!all_true(mask)) /* some lanes off: a masked load or store of the consecutive elements */
    return masked_access(x, call, is_gather, a->base, mask, is_gather ? LLVMGetOperand(call, 3) : data, "lanes");
  r = is_gather ? LLVMBuildLoad2(x->b, vt, a->base, "lanes") : LLVMBuildStore(x->b, data, a->base);
  like_access(call, r, align);
  return r;
}

/* ---- masks with few lanes on ---- */

#define SPARSE_DEPTH 12

/* At most how many lanes of the i1 vector m can be on (W when unknown).
 * icmp eq of two lane forms whose difference has a stride that no two of
 * the W lanes can share modulo 2^bits (lx == 0 against the lane loop's
 * ids): one lane; and: the fewer; or: the sum. */
static unsigned mask_bound(aff_ctx *x, LLVMValueRef m, unsigned W, unsigned depth)
{
  if (LLVMIsAConstant(m)) {
    unsigned n = 0;
    for (unsigned i = 0; i < W; i++) {
      LLVMValueRef e = LLVMGetAggregateElement(m, i);
      if (!e || !LLVMIsAConstantInt(e) || LLVMConstIntGetZExtValue(e))
        n++;
    }
    return n;
  }
  if (!LLVMIsAInstruction(m) || depth > SPARSE_DEPTH)
    return W;
  LLVMOpcode op = LLVMGetInstructionOpcode(m);
  unsigned a, b;
  switch (op) {
  case LLVMICmp: {
    if (LLVMGetICmpPredicate(m) != LLVMIntEQ)
      return W;
    LLVMValueRef l = LLVMGetOperand(m, 0), r = LLVMGetOperand(m, 1);
    if (!vec_elems(l))
      return W;
    aff fl = analyze(x, l, 0), fr = analyze(x, r, 0);
    if (!fl.ok || !fr.ok || fl.guard || fr.guard)
      return W;
    uint64_t d = (uint64_t)(fl.stride - fr.stride);
    unsigned bits = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(l)));
    if (!d || W < 2)
      return W;
    unsigned tz = 0, lg = 0;
    while (tz < 64 && !(d >> tz & 1))
      tz++;
    while ((2u << lg) <= W - 1)
      lg++; /* floor(log2(W - 1)) */
    return tz + lg < bits ? 1 : W;
  }
  case LLVMAnd:
    a = mask_bound(x, LLVMGetOperand(m, 0), W, depth + 1);
    b = mask_bound(x, LLVMGetOperand(m, 1), W, depth + 1);
    return a < b ? a : b;
  case LLVMOr:
    a = mask_bound(x, LLVMGetOperand(m, 0), W, depth + 1);
    b = mask_bound(x, LLVMGetOperand(m, 1), W, depth + 1);
    return a + b < W ? a + b : W;
  case LLVMSelect: {
    /* c ? t : f, c a vector: the lanes on are on in t or in f. */
    LLVMValueRef c = LLVMGetOperand(m, 0), t = LLVMGetOperand(m, 1), f = LLVMGetOperand(m, 2);
    a = mask_bound(x, t, W, depth + 1);
    b = mask_bound(x, f, W, depth + 1);
    if (vec_elems(c)) {
      unsigned cb = mask_bound(x, c, W, depth + 1);
      a = a < cb ? a : cb; /* c && t */
    }
    return a + b < W ? a + b : W;
  }
  default:
    return W;
  }
}

/* A gather or scatter with at most a few lanes on (halo cells, `lx == 0`
 * work) as a loop over the lanes that are on, lowest first (a scatter's
 * order): one scalar access each, nothing when none is. */
static int sparse_access(aff_ctx *x, LLVMValueRef call, int is_gather, unsigned W)
{
  LLVMValueRef ptrs = LLVMGetOperand(call, is_gather ? 0 : 1);
  LLVMValueRef mask = LLVMGetOperand(call, is_gather ? 2 : 3);
  unsigned align = access_align(call, is_gather);
  LLVMTypeRef vt = LLVMTypeOf(is_gather ? call : LLVMGetOperand(call, 0)), et = LLVMGetElementType(vt);
  LLVMTypeRef it = LLVMIntTypeInContext(x->c, W);
  LLVMBasicBlockRef rest = LLVMGetInstructionParent(call);
  LLVMValueRef bits;
  LLVMBasicBlockRef loop = if_any_lane(x, call, mask, W, "sparse.head", "sparse.lane", "sparse.bits", &bits);
  if (!loop)
    return 0;
  LLVMBasicBlockRef head = LLVMGetPreviousBasicBlock(loop);

  LLVMPositionBuilderAtEnd(x->b, loop);
  LLVMValueRef b = LLVMBuildPhi(x->b, it, "sparse.left");
  LLVMValueRef acc = is_gather ? LLVMBuildPhi(x->b, vt, "sparse.acc") : NULL;
  LLVMValueRef cargs[2] = {b, LLVMConstInt(LLVMInt1TypeInContext(x->c), 1, 0)};
  LLVMValueRef k = cc_build_intrinsic(x->b, x->m, "llvm.cttz", &it, 1, cargs, 2, "sparse.k");
  LLVMValueRef p = LLVMBuildExtractElement(x->b, ptrs, k, "");
  LLVMValueRef acc2 = NULL;
  if (is_gather) {
    LLVMValueRef v = LLVMBuildLoad2(x->b, et, p, "");
    like_access(call, v, align);
    acc2 = LLVMBuildInsertElement(x->b, acc, v, k, "");
  } else {
    LLVMValueRef st = LLVMBuildStore(x->b, LLVMBuildExtractElement(x->b, LLVMGetOperand(call, 0), k, ""), p);
    like_access(call, st, align);
  }
  LLVMValueRef b2 = LLVMBuildAnd(x->b, b, LLVMBuildSub(x->b, b, LLVMConstInt(it, 1, 0), ""), "");
  LLVMBuildCondBr(x->b, LLVMBuildICmp(x->b, LLVMIntNE, b2, LLVMConstNull(it), ""), loop, rest);
  LLVMValueRef in[2] = {bits, b2};
  LLVMBasicBlockRef from[2] = {head, loop};
  LLVMAddIncoming(b, in, from, 2);
  if (is_gather) {
    in[0] = LLVMGetOperand(call, 3), in[1] = acc2;
    LLVMAddIncoming(acc, in, from, 2);
    LLVMPositionBuilderBefore(x->b, call);
    LLVMValueRef phi = LLVMBuildPhi(x->b, vt, "sparse.val");
    LLVMAddIncoming(phi, in, from, 2);
    LLVMReplaceAllUsesWith(call, phi);
  }
  LLVMInstructionEraseFromParent(call);
  return 1;
}

/* ---- addresses that pick between two forms per lane ----
 * The halo of a stencil, `if (lx == 0) t[0] = in[x - 1]; if (lx == n - 1)
 * t[n + 1] = in[x + 1];`, comes out of the vectorizer as one gather and one
 * scatter whose addresses go through select(lx == 0, x - 1, x + 1): no lane
 * form.  Split on that select, each side is one (consecutive, or one
 * address): the access becomes two, each under its half of the mask,
 * which the rewrite then handles (two masked loads; stores of one lane). */

#define SPLIT_DEPTH 10

/* The first select on a vector condition in the address computation v. */
static LLVMValueRef find_select(LLVMValueRef v, unsigned depth)
{
  if (!LLVMIsAInstruction(v) || !vec_elems(v) || depth > SPLIT_DEPTH || LLVMIsAPHINode(v) ||
      LLVMIsALoadInst(v) || (LLVMIsACallInst(v) && !LLVMGetIntrinsicID(cc_called_function(v))))
    return NULL;
  if (LLVMIsASelectInst(v) && vec_elems(LLVMGetOperand(v, 0)))
    return v;
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  if (LLVMIsACallInst(v) && n)
    n--;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef s = find_select(LLVMGetOperand(v, i), depth + 1);
    if (s)
      return s;
  }
  return NULL;
}

static int depends_on(LLVMValueRef v, LLVMValueRef sel, unsigned depth)
{
  if (v == sel)
    return 1;
  if (!LLVMIsAInstruction(v) || depth > SPLIT_DEPTH || LLVMIsAPHINode(v))
    return 0;
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  for (unsigned i = 0; i < n; i++)
    if (depends_on(LLVMGetOperand(v, i), sel, depth + 1))
      return 1;
  return 0;
}

/* v with sel replaced by side, at the builder (new instructions for what depends on sel). */
static LLVMValueRef clone_side(aff_ctx *x, LLVMValueRef v, LLVMValueRef sel, LLVMValueRef side, unsigned depth)
{
  if (v == sel)
    return side;
  if (!depends_on(v, sel, depth))
    return v;
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  LLVMValueRef ops[16];
  if (n > 16)
    return NULL;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef o = LLVMGetOperand(v, i);
    ops[i] = LLVMIsAFunction(o) ? o : clone_side(x, o, sel, side, depth + 1);
    if (!ops[i])
      return NULL;
  }
  LLVMValueRef c = LLVMInstructionClone(v);
  LLVMInsertIntoBuilderWithName(x->b, c, "side");
  for (unsigned i = 0; i < n; i++)
    LLVMSetOperand(c, i, ops[i]);
  return c;
}

static int rewrite(aff_ctx *x, LLVMValueRef call, int is_gather, const LLVMValueRef *assumed, unsigned nassumed);

/* Splits call (a gather or scatter with a select in its address); 1 when
 * it did (the two new accesses rewritten in turn). */
static int split_on_select(aff_ctx *x, LLVMValueRef call, int is_gather)
{
  LLVMValueRef ptrs = LLVMGetOperand(call, is_gather ? 0 : 1);
  LLVMValueRef sel = find_select(ptrs, 0);
  if (!sel)
    return 0;
  LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(is_gather ? call : LLVMGetOperand(call, 0)));
  int64_t esize = (int64_t)LLVMABISizeOfType(x->td, et);
  LLVMPositionBuilderBefore(x->b, call);
  LLVMValueRef side[2];
  for (unsigned k = 0; k < 2; k++) {
    side[k] = clone_side(x, ptrs, sel, LLVMGetOperand(sel, 1 + k), 0);
    if (!side[k])
      return 0;
    aff a = analyze(x, side[k], 0);
    if (!a.ok || (a.stride != esize && a.stride != 0))
      return 0; /* the clones are left for O3 to delete */
  }
  LLVMValueRef c = LLVMGetOperand(sel, 0), mask = LLVMGetOperand(call, is_gather ? 2 : 3);
  LLVMPositionBuilderBefore(x->b, call);
  LLVMValueRef m[2] = {LLVMBuildAnd(x->b, mask, c, "side.mask"),
                       LLVMBuildAnd(x->b, mask, LLVMBuildNot(x->b, c, ""), "side.mask")};
  LLVMValueRef fn = cc_called_function(call);
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
  LLVMValueRef part[2];
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef args[4];
    for (unsigned i = 0; i < 4; i++)
      args[i] = LLVMGetOperand(call, i);
    args[is_gather ? 0 : 1] = side[k];
    args[is_gather ? 2 : 3] = m[k];
    part[k] = LLVMBuildCall2(x->b, fty, fn, args, 4, "");
    cc_copy_metadata(call, part[k]);
  }
  if (is_gather)
    LLVMReplaceAllUsesWith(call, LLVMBuildSelect(x->b, c, part[0], part[1], "side.val"));
  LLVMInstructionEraseFromParent(call);
  /* Stores from two lanes to one address are a race between work-items:
   * the two halves may go in either order. */
  for (unsigned k = 0; k < 2; k++)
    rewrite(x, part[k], is_gather, NULL, 0);
  return 1;
}

/* A scatter to one address: the last lane on is the store that stays.
 * Every lane on (results[0] = c from every work-item): the last lane's,
 * one store.  Under a mask (a halo cell: tile[ly][0] under lx == 0): the
 * highest lane on, nothing when no lane is.  1 when it did. */
static int one_address_scatter(aff_ctx *x, LLVMValueRef call, LLVMValueRef addr, unsigned W, int full)
{
  unsigned align = access_align(call, 0);
  LLVMTypeRef it = LLVMIntTypeInContext(x->c, W);
  LLVMValueRef k = LLVMConstInt(it, W - 1, 0);
  if (!full) {
    LLVMValueRef bits;
    LLVMBasicBlockRef st = if_any_lane(x, call, LLVMGetOperand(call, 3), W, "one.head", "one.store", "one.bits", &bits);
    if (!st)
      return 0;
    LLVMPositionBuilderAtEnd(x->b, st);
    LLVMValueRef cargs[2] = {bits, LLVMConstInt(LLVMInt1TypeInContext(x->c), 1, 0)};
    LLVMValueRef lz = cc_build_intrinsic(x->b, x->m, "llvm.ctlz", &it, 1, cargs, 2, "");
    k = LLVMBuildSub(x->b, k, lz, "one.lane");
  } else {
    LLVMPositionBuilderBefore(x->b, call);
  }
  LLVMValueRef s = LLVMBuildStore(x->b, LLVMBuildExtractElement(x->b, LLVMGetOperand(call, 0), k, ""), addr);
  like_access(call, s, align);
  if (!full)
    LLVMBuildBr(x->b, LLVMGetInstructionParent(call));
  LLVMInstructionEraseFromParent(call);
  return 1;
}

/* The affine form of call's addresses, and whether it is a plain access
 * (consecutive elements, or one address of a full gather). */
static aff access_form(aff_ctx *x, LLVMValueRef call, int is_gather, int *plain)
{
  LLVMValueRef ptrs = LLVMGetOperand(call, is_gather ? 0 : 1);
  LLVMValueRef mask = LLVMGetOperand(call, is_gather ? 2 : 3);
  *plain = 0;
  if (!vec_elems(ptrs))
    return unknown;
  aff a = analyze(x, ptrs, 0);
  LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(is_gather ? call : LLVMGetOperand(call, 0)));
  int64_t esize = (int64_t)LLVMABISizeOfType(x->td, et);
  if (x->strided) /* (strided_access builds for up to 64 lanes) */
    *plain = a.ok && small_stride(a.stride, esize) && vec_elems(ptrs) <= 64 &&
             !bit_packed(et, esize);
  else
    *plain = a.ok && (a.stride == esize || (all_true(mask) && is_gather && a.stride == 0));
  return a;
}

/* Replaces one gather or scatter; 1 when it did.  A guard among
 * assumed[0..nassumed) holds where call is (a loop's copy, see
 * version_guarded_loops). */
static int rewrite(aff_ctx *x, LLVMValueRef call, int is_gather, const LLVMValueRef *assumed, unsigned nassumed)
{
  LLVMValueRef ptrs = LLVMGetOperand(call, is_gather ? 0 : 1);
  LLVMValueRef mask = LLVMGetOperand(call, is_gather ? 2 : 3);
  unsigned W = (unsigned)vec_elems(ptrs);
  if (!W)
    return 0;
  int full = all_true(mask), plain;
  aff a = access_form(x, call, is_gather, &plain);
  for (unsigned k = 0; k < nassumed && a.guard; k++)
    if (a.guard == assumed[k])
      a.guard = NULL;
  if (x->strided && !plain)
    return 0;
  if (!is_gather && a.ok && a.stride == 0 && !a.guard)
    return one_address_scatter(x, call, a.base, W, full);
  if (!plain) {
    if (!a.ok && split_on_select(x, call, is_gather))
      return 1;
    if (full || W < 4 || mask_bound(x, mask, W, 0) * 4 > W)
      return 0;
    return sparse_access(x, call, is_gather, W);
  }
  if (!a.guard) {
    LLVMPositionBuilderBefore(x->b, call);
    LLVMValueRef r = plain_access(x, call, is_gather, &a, W);
    if (!r)
      return 0;
    if (is_gather)
      LLVMReplaceAllUsesWith(call, r);
    LLVMInstructionEraseFromParent(call);
    return 1;
  }
  /* if (guard) plain access else the gather/scatter as it was */
  LLVMBasicBlockRef rest = LLVMGetInstructionParent(call);
  LLVMBasicBlockRef head = split_head(x, call, "lanes.head");
  if (!head)
    return 0;
  LLVMBasicBlockRef slow = split_head(x, LLVMGetNextInstruction(call), "lanes.join"); /* the call alone */
  if (!slow)
    return 0; /* head -> rest: still valid */
  LLVMBasicBlockRef fast = block_after(x, head, "lanes.plain");
  branch_head(x, head, a.guard, fast, slow);
  LLVMPositionBuilderAtEnd(x->b, fast);
  LLVMValueRef r = plain_access(x, call, is_gather, &a, W);
  LLVMBuildBr(x->b, rest);
  if (is_gather) {
    LLVMPositionBuilderBefore(x->b, LLVMGetFirstInstruction(rest));
    LLVMValueRef phi = LLVMBuildPhi(x->b, LLVMTypeOf(call), "lanes.val");
    LLVMReplaceAllUsesWith(call, phi);
    LLVMValueRef vals[2] = {r, call};
    LLVMBasicBlockRef from[2] = {fast, slow};
    LLVMAddIncoming(phi, vals, from, 2);
  }
  /* Where the test fails (a clamp bites), a sparse access still beats the gather. */
  if (!x->strided && !full && W >= 4 && mask_bound(x, mask, W, 0) * 4 <= W)
    (void)sparse_access(x, call, is_gather, W);
  return 1;
}

static int is_gather_call(LLVMValueRef i)
{
  return LLVMIsACallInst(i) && cc_callee_has_prefix(i, "llvm.masked.gather.");
}

static int is_scatter_call(LLVMValueRef i)
{
  return LLVMIsACallInst(i) && cc_callee_has_prefix(i, "llvm.masked.scatter.");
}

#define CHAIN_LANES 64

/* ---- gathers the loop vectorizer scalarized ----
 * x86 has no gather of 8- or 16-bit elements, so for a lane loop over half
 * (or char, short) the loop vectorizer writes a load from W computed
 * addresses as W scalar loads, lane k from base + idx[k], put together by a
 * chain of insertelements: the stencil's in[clamp(x, 0, w - 1)] becomes 16
 * loads where the float kernel gets a gather, then (below) one vector load
 * behind a test.  Such a chain is written back as the gather it stands for,
 * where its addresses have an affine form that the rewrite below turns into
 * a plain load; the others are left as they are. */

static int single_use(LLVMValueRef v)
{
  LLVMUseRef u = LLVMGetFirstUse(v);
  return u && !LLVMGetNextUse(u);
}

/* The insertelement chain ending at top: ins[k] puts lane k, from poison;
 * each link used only by the next.  0 when top is no such chain. */
static int insert_chain(LLVMValueRef top, unsigned W, LLVMValueRef *ins)
{
  memset(ins, 0, W * sizeof(*ins));
  LLVMValueRef cur = top;
  for (unsigned n = 0; n < W; n++) {
    if (!LLVMIsAInstruction(cur) || LLVMGetInstructionOpcode(cur) != LLVMInsertElement)
      return 0;
    if (cur != top && !single_use(cur))
      return 0;
    LLVMValueRef k = LLVMGetOperand(cur, 2);
    if (!LLVMIsAConstantInt(k) || LLVMConstIntGetZExtValue(k) >= W || ins[LLVMConstIntGetZExtValue(k)])
      return 0;
    ins[LLVMConstIntGetZExtValue(k)] = cur;
    cur = LLVMGetOperand(cur, 0);
  }
  return LLVMIsUndef(cur) || LLVMIsPoison(cur);
}

/* Lane k of a vector, as extractelement(v, k): v, or NULL. */
static LLVMValueRef extract_of(LLVMValueRef e, unsigned k)
{
  if (!LLVMIsAInstruction(e) || LLVMGetInstructionOpcode(e) != LLVMExtractElement)
    return NULL;
  LLVMValueRef i = LLVMGetOperand(e, 1);
  if (!LLVMIsAConstantInt(i) || LLVMConstIntGetZExtValue(i) != k)
    return NULL;
  return LLVMGetOperand(e, 0);
}

/* v is defined before the instruction `at` (in its block) or in another block. */
static int defined_before(LLVMValueRef v, LLVMValueRef at)
{
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != LLVMGetInstructionParent(at))
    return 1;
  for (LLVMValueRef i = v; i; i = LLVMGetNextInstruction(i))
    if (i == at)
      return 1;
  return 0;
}

#define LANES_DEPTH 8

/* A vector whose element k is vals[k] (lane k's scalar value), built at
 * the builder from what the lanes share: the same value on every lane (a
 * splat), element k of one vector V (V), or the same operation on such
 * values (that operation on vectors).  NULL when the lanes differ
 * otherwise; what was built then is dead code for O3.  Every value used is
 * defined before `at`. */
static LLVMValueRef lanes_vector(aff_ctx *x, LLVMValueRef *vals, unsigned W, LLVMValueRef at, unsigned depth)
{
  LLVMValueRef v0 = vals[0], v;
  unsigned k;
  for (k = 1; k < W && vals[k] == v0; k++)
    ;
  if (k == W) {
    if (!defined_before(v0, at) || LLVMGetTypeKind(LLVMTypeOf(v0)) == LLVMVectorTypeKind)
      return NULL;
    return cc_build_splat(x->b, v0, W, "");
  }
  if ((v = extract_of(v0, 0)) && LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind &&
      LLVMGetVectorSize(LLVMTypeOf(v)) == W && defined_before(v, at)) {
    for (k = 1; k < W && extract_of(vals[k], k) == v; k++)
      ;
    if (k == W)
      return v;
  }
  if (depth >= LANES_DEPTH || !LLVMIsAInstruction(v0))
    return NULL;
  LLVMOpcode op = LLVMGetInstructionOpcode(v0);
  int n = LLVMGetNumOperands(v0);
  int binop = op >= LLVMAdd && op <= LLVMXor, cast = op >= LLVMTrunc && op <= LLVMAddrSpaceCast;
  int gep = op == LLVMGetElementPtr && n >= 2 && n <= 4;
  if (!binop && !cast && !gep)
    return NULL;
  for (k = 1; k < W; k++)
    if (!LLVMIsAInstruction(vals[k]) || LLVMGetInstructionOpcode(vals[k]) != op ||
        LLVMTypeOf(vals[k]) != LLVMTypeOf(v0) || LLVMGetNumOperands(vals[k]) != n ||
        (gep && LLVMGetGEPSourceElementType(vals[k]) != LLVMGetGEPSourceElementType(v0)))
      return NULL;
  LLVMValueRef ops[4], lanes[CHAIN_LANES];
  for (int o = 0; o < n; o++) {
    for (k = 0; k < W; k++)
      lanes[k] = LLVMGetOperand(vals[k], (unsigned)o);
    /* a GEP's uniform operands stay scalar */
    for (k = 1; k < W && lanes[k] == lanes[0]; k++)
      ;
    if (gep && k == W && defined_before(lanes[0], at) && LLVMGetTypeKind(LLVMTypeOf(lanes[0])) != LLVMVectorTypeKind)
      ops[o] = lanes[0];
    else if (!(ops[o] = lanes_vector(x, lanes, W, at, depth + 1)))
      return NULL;
  }
  if (binop)
    return LLVMBuildBinOp(x->b, op, ops[0], ops[1], "");
  if (cast)
    return LLVMBuildCast(x->b, op, ops[0], LLVMVectorType(LLVMTypeOf(v0), W), "");
  int any_vec = 0;
  for (int o = 0; o < n; o++)
    any_vec |= LLVMGetTypeKind(LLVMTypeOf(ops[o])) == LLVMVectorTypeKind;
  if (!any_vec)
    return NULL; /* the same address on every lane: not a lane vector */
  return LLVMBuildGEP2(x->b, LLVMGetGEPSourceElementType(v0), ops[0], ops + 1, (unsigned)(n - 1), "");
}

static int regather(aff_ctx *x, LLVMValueRef top)
{
  LLVMTypeRef vt = LLVMTypeOf(top);
  unsigned W = LLVMGetVectorSize(vt);
  if (W < 4 || W > CHAIN_LANES)
    return 0;
  LLVMValueRef ins[CHAIN_LANES], ld[CHAIN_LANES], ptr[CHAIN_LANES];
  if (!insert_chain(top, W, ins))
    return 0;
  LLVMTypeRef et = LLVMGetElementType(vt);
  LLVMBasicBlockRef bb = NULL;
  unsigned align = 0;
  for (unsigned k = 0; k < W; k++) {
    LLVMValueRef l = ld[k] = LLVMGetOperand(ins[k], 1);
    if (!LLVMIsALoadInst(l) || LLVMGetVolatile(l) || LLVMGetOrdering(l) != LLVMAtomicOrderingNotAtomic ||
        LLVMTypeOf(l) != et || !single_use(l))
      return 0;
    if (k == 0)
      bb = LLVMGetInstructionParent(l);
    else if (LLVMGetInstructionParent(l) != bb)
      return 0;
    unsigned a = LLVMGetAlignment(l);
    align = !align || a < align ? a : align;
    ptr[k] = LLVMGetOperand(l, 0);
  }
  if (!align)
    return 0;
  /* The loads in one stretch of the block with no store or call in it. */
  unsigned seen = 0;
  LLVMValueRef first = NULL;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && seen < W; i = LLVMGetNextInstruction(i)) {
    int mine = 0;
    for (unsigned k = 0; k < W && !mine; k++)
      mine = ld[k] == i;
    if (mine) {
      first = first ? first : i;
      seen++;
    } else if (first && (LLVMIsAStoreInst(i) || LLVMIsACallInst(i) || LLVMIsAFenceInst(i) ||
                         LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))) {
      return 0;
    }
  }
  if (seen != W)
    return 0;
  LLVMPositionBuilderBefore(x->b, first);
  LLVMValueRef ptrs = lanes_vector(x, ptr, W, first, 0);
  if (!ptrs || LLVMGetTypeKind(LLVMTypeOf(ptrs)) != LLVMVectorTypeKind)
    return 0;
  aff a = analyze(x, ptrs, 0);
  int64_t esize = (int64_t)LLVMABISizeOfType(x->td, et);
  if (!a.ok || (a.stride != esize && a.stride != 0))
    return 0; /* what was built is dead code for O3 */
  LLVMPositionBuilderBefore(x->b, first); /* analyze moves the builder */
  LLVMTypeRef ot[2] = {vt, LLVMTypeOf(ptrs)};
  LLVMValueRef args[4] = {ptrs, LLVMConstInt(LLVMInt32TypeInContext(x->c), align, 0),
                          cc_build_splat(x->b, LLVMConstInt(LLVMInt1TypeInContext(x->c), 1, 0), W, ""),
                          LLVMGetPoison(vt)};
  LLVMValueRef g = cc_build_intrinsic(x->b, x->m, "llvm.masked.gather", ot, 2, args, 4, "lanes.gather");
  cc_copy_metadata(ld[0], g);
  LLVMReplaceAllUsesWith(top, g);
  for (unsigned k = W; k-- > 0;) {
    LLVMInstructionEraseFromParent(ins[k]);
    LLVMInstructionEraseFromParent(ld[k]);
  }
  return 1; /* the lanes' address code, now unused, is left for O3 */
}

/* The same for accesses under a condition: for lane k = 0 .. W-1 the
 * vectorizer writes `if (mask[k]) { lane k's loads and stores }`, W blocks
 * that test one lane each (pred.store.if / pred.store.continue).  A chain
 * whose W blocks do the same thing, lane k's operands taken as element k of
 * the same vectors, becomes the vector code it stands for: gathers and
 * scatters under the mask, for the rewrite below (the stencil's
 * `if (lx == 1) tile[ly][0] = in[clamp(x - 1, ...)]`: a load of one lane
 * and a store of one lane, not 16 tests).  All lanes' loads then all
 * lanes' stores: lane k's accesses keep their order, and a block whose
 * loads and stores (or two stores) could meet across lanes, in one address
 * space, is left as it is.  The loads' values leave the blocks through
 * phis: one vector put together lane by lane (pred.load), or one value per
 * lane; they become the gather's vector, or its elements.  Only chains over
 * elements narrower than 32 bits (for which x86 has no gather or scatter)
 * are taken. */

#define CHAIN_INSTS 24

static LLVMValueRef lane_test(LLVMBasicBlockRef bb, unsigned k, LLVMValueRef *mask, LLVMBasicBlockRef *t,
                              LLVMBasicBlockRef *f)
{
  LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br))
    return NULL;
  LLVMValueRef c = LLVMGetCondition(br), m = extract_of(c, k);
  if (!m || (*mask && m != *mask))
    return NULL;
  *mask = m;
  *t = LLVMGetSuccessor(br, 0);
  *f = LLVMGetSuccessor(br, 1);
  return c;
}

static unsigned count_preds(LLVMBasicBlockRef bb)
{
  unsigned n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u))
    n++;
  return n;
}

static int used_outside(LLVMValueRef i, LLVMBasicBlockRef bb)
{
  for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user) || LLVMGetInstructionParent(user) != bb)
      return 1;
  }
  return 0;
}

static int chain_op_ok(LLVMValueRef i, LLVMTargetDataRef td)
{
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  switch (op) {
  case LLVMExtractElement:
    return 1;
  case LLVMGetElementPtr:
    return LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMPointerTypeKind;
  case LLVMLoad:
  case LLVMStore: {
    LLVMTypeRef t = op == LLVMLoad ? LLVMTypeOf(i) : LLVMTypeOf(LLVMGetOperand(i, 0));
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic ||
        (k != LLVMIntegerTypeKind && k != LLVMHalfTypeKind && k != LLVMBFloatTypeKind))
      return 0;
    return LLVMABISizeOfType(td, t) < 4;
  }
  case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
    return 0; /* computed on the lanes that are off too: no trap */
  default:
    return (op >= LLVMAdd && op <= LLVMXor) || (op >= LLVMTrunc && op <= LLVMAddrSpaceCast);
  }
}

static int revectorize_chain(aff_ctx *x, LLVMBasicBlockRef head)
{
  LLVMValueRef mask = NULL, cond[CHAIN_LANES], body[CHAIN_LANES][CHAIN_INSTS];
  LLVMValueRef phi[CHAIN_LANES], ins[CHAIN_LANES], lane_val[CHAIN_LANES];
  int scalar_phis = 0;
  LLVMBasicBlockRef ifb[CHAIN_LANES], cont[CHAIN_LANES];
  LLVMBasicBlockRef at = head;
  unsigned W = 0, n = 0, ins_at = 0;
  for (unsigned k = 0;; k++) {
    LLVMBasicBlockRef t, f;
    if (k >= CHAIN_LANES || !(cond[k] = lane_test(at, k, &mask, &t, &f)))
      return 0;
    if (!k) {
      W = LLVMGetVectorSize(LLVMTypeOf(mask));
      if (W < 4 || W > CHAIN_LANES)
        return 0;
    }
    /* t: lane k's block, one predecessor, ends in br f; f: no phis, two predecessors */
    LLVMValueRef tb = LLVMGetBasicBlockTerminator(t);
    if (t == f || count_preds(t) != 1 || !tb || !LLVMIsABranchInst(tb) || LLVMIsConditional(tb) ||
        LLVMGetSuccessor(tb, 0) != f || count_preds(f) != 2)
      return 0;
    /* f: no phi (stores only), or one that collects the lanes loaded:
     * phi [acc, at], [insertelement acc, lane k's value, k] */
    LLVMValueRef fi = LLVMGetFirstInstruction(f), acc = k ? phi[k - 1] : NULL;
    if (scalar_phis)
      acc = NULL; /* (each lane's phi stands alone) */
    if (!fi)
      return 0;
    int has_phi = LLVMIsAPHINode(fi) != NULL;
    if (k && has_phi != (phi[0] != NULL))
      return 0;
    phi[k] = ins[k] = lane_val[k] = NULL;
    if (has_phi) {
      LLVMValueRef nx = LLVMGetNextInstruction(fi);
      if ((nx && LLVMIsAPHINode(nx)) || LLVMCountIncoming(fi) != 2)
        return 0;
      LLVMValueRef from_t = NULL, from_at = NULL;
      for (unsigned e = 0; e < 2; e++) {
        if (LLVMGetIncomingBlock(fi, e) == t)
          from_t = LLVMGetIncomingValue(fi, e);
        else if (LLVMGetIncomingBlock(fi, e) == at)
          from_at = LLVMGetIncomingValue(fi, e);
      }
      if (from_t && from_at && (LLVMIsUndef(from_at) || LLVMIsPoison(from_at)) && LLVMIsAInstruction(from_t) &&
          LLVMGetInstructionParent(from_t) == t && LLVMGetInstructionOpcode(from_t) != LLVMInsertElement &&
          (!k || scalar_phis)) {
        /* lane k's value alone: phi [poison, at], [value, t] */
        scalar_phis = 1;
        phi[k] = fi;
        ins[k] = NULL;
        lane_val[k] = from_t;
        goto phi_done;
      }
      if (scalar_phis || !from_t || !from_at || !LLVMIsAInstruction(from_t) || LLVMGetInstructionParent(from_t) != t ||
          LLVMGetInstructionOpcode(from_t) != LLVMInsertElement || !single_use(from_t) ||
          LLVMGetOperand(from_t, 0) != from_at || !LLVMIsAConstantInt(LLVMGetOperand(from_t, 2)) ||
          LLVMConstIntGetZExtValue(LLVMGetOperand(from_t, 2)) != k)
        return 0;
      if (k ? from_at != acc : !(LLVMIsUndef(from_at) || LLVMIsPoison(from_at)))
        return 0;
      phi[k] = fi;
      ins[k] = from_t;
      lane_val[k] = LLVMGetOperand(from_t, 1);
    }
  phi_done:;
    /* the blocks between two tests hold the test only (and the phi) */
    LLVMValueRef lead = LLVMGetFirstInstruction(at);
    if (k && phi[k - 1])
      lead = LLVMGetNextInstruction(lead);
    if (k && (lead != cond[k] || used_outside(cond[k], at) ||
              LLVMGetNextInstruction(cond[k]) != LLVMGetBasicBlockTerminator(at)))
      return 0;
    if (!k && (used_outside(cond[0], head) || !single_use(cond[0])))
      return 0;
    unsigned m = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(t); i != tb; i = LLVMGetNextInstruction(i)) {
      if (ins[k] && i == ins[k])
        continue;
      if (m >= CHAIN_INSTS || !chain_op_ok(i, x->td) || (used_outside(i, t) && i != lane_val[k]))
        return 0;
      body[k][m++] = i;
    }
    if (!k)
      n = m;
    else if (m != n)
      return 0;
    if (phi[k]) { /* the value collected: at the same place in every block */
      LLVMValueRef v = lane_val[k];
      unsigned p = 0;
      while (p < m && body[k][p] != v)
        p++;
      if (p == m || (k && p != ins_at))
        return 0;
      ins_at = p;
    }
    ifb[k] = t;
    cont[k] = f;
    at = f;
    if (k + 1 == W)
      break;
  }
  if (!n)
    return 0;
  /* lane k's block is lane 0's with element k of the same vectors */
  int any_mem = 0;
  for (unsigned j = 0; j < n; j++) {
    LLVMValueRef i0 = body[0][j];
    LLVMOpcode op = LLVMGetInstructionOpcode(i0);
    any_mem |= op == LLVMLoad || op == LLVMStore;
    for (unsigned k = 1; k < W; k++) {
      LLVMValueRef ik = body[k][j];
      if (LLVMGetInstructionOpcode(ik) != op || LLVMTypeOf(ik) != LLVMTypeOf(i0) ||
          LLVMGetNumOperands(ik) != LLVMGetNumOperands(i0))
        return 0;
      if (op == LLVMExtractElement) {
        if (extract_of(i0, 0) != LLVMGetOperand(i0, 0) || extract_of(ik, k) != LLVMGetOperand(i0, 0))
          return 0;
        continue;
      }
      if (op == LLVMGetElementPtr && LLVMGetGEPSourceElementType(ik) != LLVMGetGEPSourceElementType(i0))
        return 0;
      if ((op == LLVMLoad || op == LLVMStore) && LLVMGetAlignment(ik) != LLVMGetAlignment(i0))
        return 0;
      if (LLVMGetInstructionOpcode(i0) == LLVMICmp || LLVMGetInstructionOpcode(i0) == LLVMFCmp)
        return 0;
      for (int o = 0; o < LLVMGetNumOperands(i0); o++) {
        LLVMValueRef a0 = LLVMGetOperand(i0, o), ak = LLVMGetOperand(ik, o);
        int in0 = LLVMIsAInstruction(a0) && LLVMGetInstructionParent(a0) == ifb[0];
        LLVMValueRef ev = in0 ? NULL : extract_of(a0, 0);
        if (ev && ak != a0 && extract_of(ak, k) == ev && LLVMGetVectorSize(LLVMTypeOf(ev)) == W &&
            defined_before(ev, LLVMGetBasicBlockTerminator(head)))
          continue; /* element k of one vector, defined before the chain */
        if (!in0 ? ak != a0 : !(LLVMIsAInstruction(ak) && LLVMGetInstructionParent(ak) == ifb[k]))
          return 0;
        if (in0) { /* the same position in both blocks */
          unsigned p = 0;
          while (p < j && body[0][p] != a0)
            p++;
          if (p == j || body[k][p] != ak)
            return 0;
        }
      }
    }
  }
  if (!any_mem)
    return 0;
  /* Lane k's loads then lane k's stores, for all lanes at once: a load
   * that could read what an earlier lane stored (the blocks may also be
   * one work-item's code over the elements of a vector) would change.
   * Loads and stores together (or two stores) only in different address
   * spaces. */
  for (unsigned j = 0; j < n; j++) {
    int ld = LLVMIsALoadInst(body[0][j]) != NULL;
    if (!ld && !LLVMIsAStoreInst(body[0][j]))
      continue;
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(body[0][j], ld ? 0 : 1)));
    for (unsigned q = 0; q < n; q++) {
      if (q == j || !LLVMIsAStoreInst(body[0][q]))
        continue;
      unsigned sas = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(body[0][q], 1)));
      /* global 1, constant 2, local 3 are disjoint; private 0 and generic 4 are not known to be */
      if (sas == as || sas < 1 || sas > 3 || as < 1 || as > 3)
        return 0;
    }
  }
  /* the vector code, where lane 0 is tested */
  LLVMValueRef term = LLVMGetBasicBlockTerminator(head), vec[CHAIN_INSTS];
  LLVMPositionBuilderBefore(x->b, term);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(x->c);
  for (unsigned j = 0; j < n; j++) {
    LLVMValueRef i0 = body[0][j];
    LLVMOpcode op = LLVMGetInstructionOpcode(i0);
    LLVMValueRef ops[4];
    int no = LLVMGetNumOperands(i0);
    for (int o = 0; o < no && o < 4; o++) {
      LLVMValueRef a = LLVMGetOperand(i0, o);
      unsigned p = 0;
      while (p < j && body[0][p] != a)
        p++;
      ops[o] = p < j ? vec[p] : LLVMGetOperand(body[1][j], o) != a ? extract_of(a, 0) : a;
    }
    if (op != LLVMGetElementPtr && no > 4)
      return 0; /* cannot happen: checked ops have at most 3 */
    if (op == LLVMExtractElement) {
      vec[j] = LLVMGetOperand(i0, 0);
    } else if (op == LLVMGetElementPtr) {
      LLVMValueRef idx[8];
      if (no > 9)
        return 0;
      for (int o = 1; o < no; o++) {
        LLVMValueRef a = LLVMGetOperand(i0, o);
        unsigned p = 0;
        while (p < j && body[0][p] != a)
          p++;
        idx[o - 1] = p < j ? vec[p] : LLVMGetOperand(body[1][j], o) != a ? extract_of(a, 0) : a;
      }
      LLVMValueRef base = ops[0];
      int vbase = LLVMGetTypeKind(LLVMTypeOf(base)) == LLVMVectorTypeKind, vidx = 0;
      for (int o = 0; o < no - 1; o++)
        vidx |= LLVMGetTypeKind(LLVMTypeOf(idx[o])) == LLVMVectorTypeKind;
      if (!vbase && !vidx)
        base = cc_build_splat(x->b, base, W, "");
      vec[j] = LLVMBuildGEP2(x->b, LLVMGetGEPSourceElementType(i0), base, idx, (unsigned)(no - 1), "");
    } else if (op == LLVMLoad || op == LLVMStore) {
      LLVMValueRef ptr = ops[op == LLVMLoad ? 0 : 1];
      if (LLVMGetTypeKind(LLVMTypeOf(ptr)) != LLVMVectorTypeKind)
        ptr = cc_build_splat(x->b, ptr, W, "");
      LLVMValueRef al = LLVMConstInt(i32, LLVMGetAlignment(i0) ? LLVMGetAlignment(i0) : 1, 0);
      if (op == LLVMLoad) {
        LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(i0), W);
        LLVMTypeRef ot[2] = {vt, LLVMTypeOf(ptr)};
        LLVMValueRef args[4] = {ptr, al, mask, LLVMGetPoison(vt)};
        vec[j] = cc_build_intrinsic(x->b, x->m, "llvm.masked.gather", ot, 2, args, 4, "lanes.gather");
      } else {
        LLVMValueRef v = ops[0];
        if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
          v = cc_build_splat(x->b, v, W, "");
        LLVMTypeRef ot[2] = {LLVMTypeOf(v), LLVMTypeOf(ptr)};
        LLVMValueRef args[4] = {v, ptr, al, mask};
        vec[j] = cc_build_intrinsic(x->b, x->m, "llvm.masked.scatter", ot, 2, args, 4, "");
      }
      cc_copy_metadata(i0, vec[j]);
    } else if (op >= LLVMTrunc && op <= LLVMAddrSpaceCast) {
      LLVMValueRef v = ops[0];
      if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
        v = cc_build_splat(x->b, v, W, "");
      vec[j] = LLVMBuildCast(x->b, op, v, LLVMVectorType(LLVMTypeOf(i0), W), "");
    } else {
      LLVMValueRef a = ops[0], b = ops[1];
      if (LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMVectorTypeKind)
        a = cc_build_splat(x->b, a, W, "");
      if (LLVMGetTypeKind(LLVMTypeOf(b)) != LLVMVectorTypeKind)
        b = cc_build_splat(x->b, b, W, "");
      vec[j] = LLVMBuildBinOp(x->b, op, a, b, "");
    }
  }
  /* each lane's value alone: element k of the vector value */
  if (scalar_phis) {
    for (unsigned k = 0; k < W; k++) {
      LLVMValueRef e = LLVMBuildExtractElement(x->b, vec[ins_at], LLVMConstInt(i32, k, 0), "");
      LLVMReplaceAllUsesWith(phi[k], e);
      LLVMInstructionEraseFromParent(phi[k]);
    }
  } else if (phi[0]) {
  /* the lanes loaded, collected: the vector value */
    LLVMReplaceAllUsesWith(phi[W - 1], vec[ins_at]);
    for (unsigned k = 0; k < W; k++) {
      LLVMReplaceAllUsesWith(phi[k], LLVMGetPoison(LLVMTypeOf(phi[k])));
      LLVMReplaceAllUsesWith(ins[k], LLVMGetPoison(LLVMTypeOf(ins[k])));
    }
    for (unsigned k = 0; k < W; k++) {
      LLVMInstructionEraseFromParent(phi[k]);
      LLVMInstructionEraseFromParent(ins[k]);
    }
  }
  /* head goes straight to the last block; the chain's blocks go */
  LLVMBasicBlockRef last = cont[W - 1];
  LLVMInstructionEraseFromParent(term);
  LLVMInstructionEraseFromParent(cond[0]);
  LLVMPositionBuilderAtEnd(x->b, head);
  LLVMBuildBr(x->b, last);
  for (unsigned k = 0; k < W; k++) {
    LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(ifb[k]));
    if (k + 1 < W)
      LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(cont[k]));
  }
  for (unsigned k = 0; k < W; k++) {
    for (unsigned j = n; j-- > 0;)
      LLVMInstructionEraseFromParent(body[k][j]);
    LLVMDeleteBasicBlock(ifb[k]);
    if (k + 1 < W) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(cont[k]), nx; i; i = nx) {
        nx = LLVMGetNextInstruction(i);
        LLVMInstructionEraseFromParent(i);
      }
      LLVMDeleteBasicBlock(cont[k]);
    }
  }
  return 1;
}

static unsigned revectorize_chains(LLVMValueRef fn)
{
  unsigned done = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMBasicBlockRef t, f;
    LLVMValueRef mask = NULL;
    if (!lane_test(bb, 0, &mask, &t, &f))
      continue;
    aff_ctx x = {0};
    x.m = LLVMGetGlobalParent(fn);
    x.c = LLVMGetModuleContext(x.m);
    x.td = LLVMGetModuleDataLayout(x.m);
    x.b = LLVMCreateBuilderInContext(x.c);
    done += (unsigned)revectorize_chain(&x, bb);
    LLVMDisposeBuilder(x.b);
  }
  return done;
}

/* The tops of such chains in fn (insertelements of a constant lane W - 1
 * whose vector is not put into another insertelement). */
static unsigned regather_scalarized(LLVMValueRef fn)
{
  LLVMValueRef *tops = NULL;
  unsigned n = 0, cap = 0, done = revectorize_chains(fn), ninst = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      ninst++;
      if (LLVMGetInstructionOpcode(i) != LLVMInsertElement || !LLVMIsALoadInst(LLVMGetOperand(i, 1)))
        continue;
      LLVMValueRef k = LLVMGetOperand(i, 2);
      if (!LLVMIsAConstantInt(k) || LLVMConstIntGetZExtValue(k) + 1 != LLVMGetVectorSize(LLVMTypeOf(i)))
        continue;
      if (cc_values_push(&tops, &n, &cap, i)) {
        free(tops);
        return 0;
      }
    }
  /* a fresh context (memo) for each chain: the erased instructions'
   * addresses may come back as new ones */
  for (unsigned k = 0; k < n; k++) {
    aff_ctx x = {0};
    x.m = LLVMGetGlobalParent(fn);
    x.c = LLVMGetModuleContext(x.m);
    x.td = LLVMGetModuleDataLayout(x.m);
    x.cap = ninst + 16;
    x.ent = malloc(x.cap * sizeof(*x.ent));
    x.key = malloc(x.cap * sizeof(*x.key));
    if (x.ent && x.key && !cc_ptrmap_init(&x.memo, x.cap)) {
      x.b = LLVMCreateBuilderInContext(x.c);
      done += (unsigned)regather(&x, tops[k]);
      LLVMDisposeBuilder(x.b);
      cc_ptrmap_free(&x.memo);
    }
    free(x.ent);
    free(x.key);
  }
  free(tops);
  return done;
}

/* A guard of an access in a one-block inner loop that is computed outside
 * the loop (the no-wrap test of an index extended before the loop: SYR2K's
 * c[i * n + j]) would put a branch in every iteration, which
 * O3's unswitching leaves where the loop is large (its cost threshold), and
 * a loop of several blocks keeps cc_wg_rows.c from reading its gathers as
 * rows.  Such a loop is versioned here instead: a copy taken when every such
 * guard of its accesses holds, where they are plain accesses without a
 * test; the loop as written keeps its gathers for the chunks where one does
 * not hold.  The copy's accesses are rewritten here; calls[] loses the
 * original's that the copy took over. */
static unsigned version_guarded_loops(aff_ctx *x, LLVMValueRef *calls, unsigned ncalls)
{
  unsigned done = 0;
  LLVMValueRef guards[8];
  for (unsigned k = 0; k < ncalls; k++) {
    if (!calls[k])
      continue;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(calls[k]);
    LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
    if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br) ||
        (LLVMGetSuccessor(br, 0) != bb && LLVMGetSuccessor(br, 1) != bb))
      continue;
    unsigned ng = 0;
    int mine = 0;
    for (unsigned j = k; j < ncalls; j++) {
      if (!calls[j] || LLVMGetInstructionParent(calls[j]) != bb)
        continue;
      int plain;
      aff a = access_form(x, calls[j], is_gather_call(calls[j]), &plain);
      if (!plain || !a.guard)
        continue;
      if (LLVMIsAInstruction(a.guard) && LLVMGetInstructionParent(a.guard) == bb)
        continue; /* computed in the loop: the test stays at the access */
      unsigned g;
      for (g = 0; g < ng && guards[g] != a.guard; g++)
        ;
      if (g == ng && ng < sizeof(guards) / sizeof(guards[0]))
        guards[ng++] = a.guard;
      mine = 1;
    }
    if (!mine || !ng)
      continue;
    cc_vmap map = {0};
    if (!cc_version_self_loop(bb, guards, ng, "lanes.guarded", &map)) {
      cc_vmap_free(&map);
      continue;
    }
    for (unsigned j = k; j < ncalls; j++) {
      if (!calls[j] || LLVMGetInstructionParent(calls[j]) != bb)
        continue;
      LLVMValueRef c = cc_vmap_get(&map, calls[j]);
      int is_gather = is_gather_call(calls[j]), plain;
      aff a = access_form(x, calls[j], is_gather, &plain);
      int assumed = 0;
      for (unsigned g = 0; g < ng && plain && a.guard; g++)
        assumed |= a.guard == guards[g];
      if (c != calls[j])
        done += (unsigned)rewrite(x, c, is_gather, guards, ng);
      if (assumed)
        calls[j] = NULL; /* the loop as written keeps it */
    }
    cc_vmap_free(&map);
  }
  return done;
}

/* The gathers and scatters of fn rewritten (strided: only those of a few
 * elements' stride; else the outer-loop path's rewrites, loops versioned on
 * their guards first).  Returns how many. */
static unsigned rewrite_accesses(LLVMValueRef fn, int strided)
{
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  unsigned ninst = 0, ncalls = 0, cap = 0;
  LLVMValueRef *calls = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      ninst++;
      if ((is_gather_call(i) || is_scatter_call(i)) && cc_values_push(&calls, &ncalls, &cap, i)) {
        free(calls);
        return 0;
      }
    }
  if (!ncalls)
    return 0;
  aff_ctx x = {0};
  x.m = m;
  x.c = LLVMGetModuleContext(m);
  x.td = LLVMGetModuleDataLayout(m);
  x.strided = strided;
  x.cap = ninst + 16;
  x.ent = malloc(x.cap * sizeof(*x.ent));
  x.key = malloc(x.cap * sizeof(*x.key));
  unsigned done = 0;
  if (x.ent && x.key && !cc_ptrmap_init(&x.memo, x.cap)) {
    x.b = LLVMCreateBuilderInContext(x.c);
    if (!strided)
      done += version_guarded_loops(&x, calls, ncalls);
    for (unsigned k = 0; k < ncalls; k++)
      if (calls[k])
        done += (unsigned)rewrite(&x, calls[k], is_gather_call(calls[k]), NULL, 0);
    LLVMDisposeBuilder(x.b);
  }
  cc_ptrmap_free(&x.memo);
  free(x.ent);
  free(x.key);
  free(calls);
  return done;
}

unsigned wg_plain_accesses(LLVMValueRef fn)
{
  regather_scalarized(fn);
  return rewrite_accesses(fn, 0);
}

/* ---- uniform values under a mask ----
 * A load from one address in a masked region (a uniform value read under a
 * guard: `if (i < n) out[i] = a[i] + bias[0]`) leaves the loop vectorizer
 * as a masked gather of a splat of that address: W loads.  It becomes one
 * scalar load, when a lane is on, and a broadcast; the lanes that are off
 * get the gather's pass-through as before.  Runs after O3 on every
 * work-group function (cc_wg_late_shuffles). */

/* p when ptrs is a splat of p (shufflevector of insertelement at 0, all
 * zeros), else NULL. */
static LLVMValueRef splat_of(LLVMValueRef ptrs)
{
  if (!LLVMIsAShuffleVectorInst(ptrs))
    return NULL;
  unsigned n = LLVMGetNumMaskElements(ptrs);
  for (unsigned i = 0; i < n; i++)
    if (LLVMGetMaskValue(ptrs, i) != 0)
      return NULL;
  LLVMValueRef ins = LLVMGetOperand(ptrs, 0);
  if (!LLVMIsAInsertElementInst(ins))
    return NULL;
  LLVMValueRef k = LLVMGetOperand(ins, 2);
  if (!LLVMIsAConstantInt(k) || LLVMConstIntGetZExtValue(k) != 0)
    return NULL;
  return LLVMGetOperand(ins, 1);
}

static int one_address_gather(aff_ctx *x, LLVMValueRef call, LLVMValueRef addr, unsigned W)
{
  LLVMValueRef mask = LLVMGetOperand(call, 2), pass = LLVMGetOperand(call, 3);
  LLVMTypeRef vt = LLVMTypeOf(call), et = LLVMGetElementType(vt);
  LLVMBasicBlockRef rest = LLVMGetInstructionParent(call);
  LLVMValueRef bits;
  LLVMBasicBlockRef ld = if_any_lane(x, call, mask, W, "uni.head", "uni.load", "uni.bits", &bits);
  if (!ld)
    return 0;
  LLVMBasicBlockRef head = LLVMGetPreviousBasicBlock(ld);
  LLVMPositionBuilderAtEnd(x->b, ld);
  LLVMValueRef v = LLVMBuildLoad2(x->b, et, addr, "uni.val");
  like_access(call, v, access_align(call, 1));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(x->c);
  LLVMValueRef one = LLVMBuildInsertElement(x->b, LLVMGetPoison(vt), v, LLVMConstInt(i32, 0, 0), "");
  LLVMValueRef splat = LLVMBuildShuffleVector(x->b, one, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(i32, W)),
                                              "uni.splat");
  LLVMBuildBr(x->b, rest);
  LLVMPositionBuilderBefore(x->b, LLVMGetFirstInstruction(rest));
  LLVMValueRef phi = LLVMBuildPhi(x->b, vt, "uni.vec");
  LLVMValueRef vals[2] = {splat, pass};
  LLVMBasicBlockRef from[2] = {ld, head};
  LLVMAddIncoming(phi, vals, from, 2);
  LLVMValueRef r = phi;
  if (!LLVMIsUndef(pass) && !LLVMIsPoison(pass)) {
    LLVMPositionBuilderBefore(x->b, call);
    r = LLVMBuildSelect(x->b, mask, phi, pass, "uni.sel");
  }
  LLVMReplaceAllUsesWith(call, r);
  LLVMInstructionEraseFromParent(call);
  return 1;
}

unsigned wg_uniform_gathers(LLVMValueRef fn)
{
  unsigned ncalls = 0, cap = 0, done = 0;
  LLVMValueRef *calls = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (is_gather_call(i) && !all_true(LLVMGetOperand(i, 2)) && splat_of(LLVMGetOperand(i, 0)) &&
          cc_values_push(&calls, &ncalls, &cap, i)) {
        free(calls);
        return 0;
      }
  if (!ncalls)
    return 0;
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  aff_ctx x = {0};
  x.m = m;
  x.c = LLVMGetModuleContext(m);
  x.td = LLVMGetModuleDataLayout(m);
  x.b = LLVMCreateBuilderInContext(x.c);
  for (unsigned k = 0; k < ncalls; k++) {
    unsigned W = (unsigned)vec_elems(LLVMGetOperand(calls[k], 0));
    if (W)
      done += (unsigned)one_address_gather(&x, calls[k], splat_of(LLVMGetOperand(calls[k], 0)), W);
  }
  LLVMDisposeBuilder(x.b);
  free(calls);
  return done;
}

/* After O3, on every work-group function (cc_wg_late_shuffles): the
 * gathers and scatters of s = 2 to 4 elements' stride as masked loads or
 * stores and shuffles (see "strides of a few elements" above). */
unsigned wg_strided_accesses(LLVMValueRef fn)
{
  return rewrite_accesses(fn, 1);
}

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
 * of uniform values (an inner loop's counter).  Sign and zero extensions and
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

/* Lane k of vector v, built at the builder. */
static LLVMValueRef lane(aff_ctx *x, LLVMValueRef v, unsigned k)
{
  return LLVMBuildExtractElement(x->b, v, LLVMConstInt(LLVMInt32TypeInContext(x->c), k, 0), "");
}

/* The first and last lanes of the wide vector w (built from v) differ by
 * (W - 1) * stride: no lane of v wrapped on the way. */
static LLVMValueRef no_wrap_guard(aff_ctx *x, LLVMValueRef w, unsigned W, int64_t stride)
{
  LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(w));
  LLVMValueRef d = LLVMBuildSub(x->b, lane(x, w, W - 1), lane(x, w, 0), "");
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
 * (stride 0), the lane loop's vector of ids (stride 1).  Optimistic over
 * the cycle: the scalar phi is in the memo, with the stride of the first
 * constant incoming value (else 0), before the incoming values are. */
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
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef in = LLVMGetIncomingValue(v, k);
    aff c = LLVMIsAConstant(in) ? analyze_constant(in) : unknown;
    if (c.ok) {
      stride = c.stride;
      break;
    }
  }
  LLVMPositionBuilderBefore(x->b, LLVMGetFirstInstruction(bb));
  LLVMValueRef s = LLVMBuildPhi(x->b, LLVMGetElementType(LLVMTypeOf(v)), "lane0");
  unsigned mark = x->n;
  memo_put(x, v, (aff){1, s, stride, NULL});
  int ok = 1;
  for (unsigned k = 0; k < n && ok; k++) {
    aff a = analyze(x, LLVMGetIncomingValue(v, k), depth + 1);
    ok = a.ok && a.stride == stride && !a.guard;
    vals[k] = a.base;
    from[k] = LLVMGetIncomingBlock(v, k);
  }
  if (!ok) {
    /* Forget what was built on the guess; keep the phi valid (dead code). */
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
  return ok ? (aff){1, s, stride, NULL} : unknown;
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
    a = analyze_binop(x, v, op, depth);
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

static LLVMValueRef splat(aff_ctx *x, LLVMValueRef s, unsigned W)
{
  LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(s), W);
  LLVMValueRef ins = LLVMBuildInsertElement(x->b, LLVMGetPoison(vt), s, LLVMConstInt(LLVMInt32TypeInContext(x->c), 0, 0), "");
  return LLVMBuildShuffleVector(x->b, ins, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(LLVMInt32TypeInContext(x->c), W)),
                                "bcast");
}

static void copy_md(LLVMValueRef from, LLVMValueRef to)
{
  size_t n = 0;
  LLVMValueMetadataEntry *e = LLVMInstructionGetAllMetadataOtherThanDebugLoc(from, &n);
  for (size_t i = 0; i < n; i++)
    LLVMSetMetadata(to, LLVMValueMetadataEntriesGetKind(e, (unsigned)i),
                    LLVMMetadataAsValue(LLVMGetModuleContext(LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(from)))),
                                        LLVMValueMetadataEntriesGetMetadata(e, (unsigned)i)));
  if (e)
    LLVMDisposeValueMetadataEntries(e);
}

/* The plain access for call (a gather or scatter whose addresses are a),
 * at the builder; NULL (nothing built) when there is none. */
static LLVMValueRef plain_access(aff_ctx *x, LLVMValueRef call, int is_gather, const aff *a, unsigned W)
{
  LLVMValueRef data = is_gather ? call : LLVMGetOperand(call, 0);
  LLVMTypeRef vt = LLVMTypeOf(data), et = LLVMGetElementType(vt);
  int64_t esize = (int64_t)LLVMABISizeOfType(x->td, et);
  LLVMValueRef al = LLVMGetOperand(call, is_gather ? 1 : 2);
  unsigned align = LLVMIsAConstantInt(al) ? (unsigned)LLVMConstIntGetZExtValue(al) : 1;
  LLVMValueRef r;
  if (is_gather && a->stride == 0) {
    r = LLVMBuildLoad2(x->b, et, a->base, "uniform");
    LLVMSetAlignment(r, align ? align : 1);
    copy_md(call, r);
    return splat(x, r, W);
  }
  if (a->stride != esize)
    return NULL;
  if (is_gather) {
    r = LLVMBuildLoad2(x->b, vt, a->base, "lanes");
    LLVMSetAlignment(r, align ? align : 1);
  } else {
    r = LLVMBuildStore(x->b, data, a->base);
    LLVMSetAlignment(r, align ? align : 1);
  }
  copy_md(call, r);
  return r;
}

/* Replaces one gather or scatter; 1 when it did. */
static int rewrite(aff_ctx *x, LLVMValueRef call, int is_gather)
{
  LLVMValueRef ptrs = LLVMGetOperand(call, is_gather ? 0 : 1);
  LLVMValueRef mask = LLVMGetOperand(call, is_gather ? 2 : 3);
  unsigned W = (unsigned)vec_elems(ptrs);
  if (!W || !all_true(mask))
    return 0;
  aff a = analyze(x, ptrs, 0);
  if (!a.ok || (!is_gather && a.stride == 0))
    return 0;
  LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(is_gather ? call : LLVMGetOperand(call, 0)));
  if (a.stride != 0 && a.stride != (int64_t)LLVMABISizeOfType(x->td, et))
    return 0;
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
  LLVMBasicBlockRef head = LLVMGetInstructionParent(call);
  LLVMValueRef fn = LLVMGetBasicBlockParent(head);
  LLVMBasicBlockRef join = cc_split_block_before(call, "lanes.join");
  LLVMValueRef after = LLVMGetNextInstruction(call);
  cc_split_block_before(after, "lanes.rest");
  LLVMBasicBlockRef slow = join; /* holds the call alone now */
  LLVMBasicBlockRef rest = LLVMGetNextBasicBlock(slow);
  LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(x->c, fn, "lanes.plain");
  LLVMMoveBasicBlockAfter(fast, head);
  LLVMValueRef br = LLVMGetBasicBlockTerminator(head);
  LLVMPositionBuilderBefore(x->b, br);
  LLVMBuildCondBr(x->b, a.guard, fast, slow);
  LLVMInstructionEraseFromParent(br);
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

unsigned wg_plain_accesses(LLVMValueRef fn)
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
  x.cap = ninst + 16;
  x.ent = malloc(x.cap * sizeof(*x.ent));
  x.key = malloc(x.cap * sizeof(*x.key));
  unsigned done = 0;
  if (x.ent && x.key && !cc_ptrmap_init(&x.memo, x.cap)) {
    x.b = LLVMCreateBuilderInContext(x.c);
    for (unsigned k = 0; k < ncalls; k++)
      done += (unsigned)rewrite(&x, calls[k], is_gather_call(calls[k]));
    LLVMDisposeBuilder(x.b);
  }
  cc_ptrmap_free(&x.memo);
  free(x.ent);
  free(x.key);
  free(calls);
  return done;
}

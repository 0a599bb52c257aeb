/* Inner-loop gathers read as rows: after O3 (from cc_wg_late_shuffles), in
 * lane loops that outer-loop vectorization widened (cc_wg_outer.c,
 * cc_wg_affine.c's plain accesses), once O3 has unswitched their inner loops
 * into single blocks.
 *
 * The row dot product `for (j = 0; j < n; j++) s += A[i * n + j] * x[j]`
 * vectorized across work-items reads, in each iteration of j, one element
 * of each of W rows: a gather whose lanes lie n elements apart.  Each of the
 * W cache lines it touches is used again in the next 15 iterations, but with
 * n a multiple of 1024 floats all of them (and those of a second matrix)
 * fall into one set of the L1 cache, are evicted before their next use, and
 * every element comes from L2; even without that, a gather costs one load
 * per lane.
 *
 * Here such an inner loop (one block, a count by 1 to a bound, the gather's
 * address growing by one element per iteration in every lane) gets a second
 * form that runs W iterations at a time: at the start of each run, lane l's
 * W next elements are one vector load from lane l's address, the W x W block
 * is transposed in registers (log2 W rounds of interleaves), and iteration k
 * of the run takes column k where it took the gather.  The loop's body is
 * copied W times into that block loop (the values each iteration hands the
 * next in the same order, so every lane computes what it computed before, to
 * the bit); the iterations left over, and every chunk where the new form
 * does not apply, run the loop as it was.
 *
 * The new form reads an element before the stores of the iterations that
 * precede it in its run.  Stores in the loop must have addresses that do not
 * change in it (tmp[i] += ..., y[i] = ...), and before the loop the chunk
 * compares the spans of the lanes' bytes over the whole loop: the rows', the
 * other loads whose address moves by a constant, and each store address's
 * (those must be apart from one another too).  Any overlap (tmp the same
 * buffer as A, or as y) and the loop runs as it was.  Where they are apart,
 * the copies' accesses get alias scopes that say so, and GVN and DSE (run
 * from cc_wg_late_shuffles) keep tmp[i] in a register through a run: one
 * load and one store per W iterations, not a round trip through memory per
 * iteration.  (Two work-items' accesses that meet are a data race, so the
 * check looks at one chunk's.)
 *
 * The verdict goes into the kernel's report through a remark on the lane
 * loop ("rows: ..."); cc_wg_verdicts prints it with the region.  Measured
 * (GESUMMV, N = 1024, two cores with AVX-512): 1.1-1.3 ms before, 0.2-0.35
 * after; docs/design-notes.md has the figures.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

#define ROWS_MAX_BODY 96    /* instructions of the loop's block (copied W times) */
#define ROWS_MAX_GATHERS 4  /* gathers read as rows in one loop (W registers each) */
#define ROWS_MAX_STORES 8
#define ROWS_MAX_PHIS 32
#define ROWS_DEPTH 24

typedef struct rows_loop {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMTargetDataRef td;
  LLVMBuilderRef b;
  LLVMBasicBlockRef bb, pre, exit;
  LLVMValueRef *inst;  /* the block's instructions but its phis and branch */
  unsigned ninst;
  LLVMValueRef *phi;
  int64_t *step;       /* per phi: its increment per iteration (0: not an induction) */
  int *is_iv;
  unsigned nphi;
  unsigned ctrl;       /* the phi whose next value the exit compares */
  LLVMValueRef end;    /* what it is compared with (defined before the loop) */
  LLVMValueRef gather[ROWS_MAX_GATHERS];
  unsigned ngather, W;
  LLVMValueRef store[ROWS_MAX_STORES];
  unsigned nstore;
} rows_loop;

static int64_t const_int_lanes(LLVMValueRef v, int *ok)
{
  *ok = 0;
  if (LLVMIsAConstantInt(v)) {
    *ok = 1;
    return LLVMConstIntGetSExtValue(v);
  }
  if (LLVMIsAConstantDataVector(v) || LLVMIsAConstantVector(v)) {
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
    int64_t first = 0;
    for (unsigned k = 0; k < n; k++) {
      LLVMValueRef e = LLVMIsAConstantDataVector(v) ? LLVMGetAggregateElement(v, k) : LLVMGetOperand(v, k);
      if (!e || !LLVMIsAConstantInt(e))
        return 0;
      int64_t x = LLVMConstIntGetSExtValue(e);
      if (k && x != first)
        return 0;
      first = x;
    }
    *ok = 1;
    return first;
  }
  if (LLVMIsAConstantAggregateZero(v)) {
    *ok = 1;
    return 0;
  }
  return 0;
}

static int in_loop(const rows_loop *L, LLVMValueRef v)
{
  return LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == L->bb;
}

static int phi_index(const rows_loop *L, LLVMValueRef v)
{
  for (unsigned i = 0; i < L->nphi; i++)
    if (L->phi[i] == v)
      return (int)i;
  return -1;
}

/* ---- what an iteration adds to a value ----
 * *d: how much v grows from one iteration to the next, the same in every
 * lane (in v's units; bytes for pointers).  wrap: 1 when the operations
 * must not wrap as signed (under a sext), 2 as unsigned (under a zext).
 * Returns 0 when that can't be shown. */
#define ANY INT64_MIN  /* an undefined value: any increment */

static int lin(const rows_loop *L, LLVMValueRef v, int wrap, unsigned depth, int64_t *d);

static int lin2(const rows_loop *L, LLVMValueRef a, LLVMValueRef b, int wrap, unsigned depth, int64_t *da, int64_t *db)
{
  return lin(L, a, wrap, depth + 1, da) && lin(L, b, wrap, depth + 1, db);
}

static int wrap_ok(LLVMValueRef v, int wrap)
{
  return wrap == 0 || (wrap == 1 && LLVMGetNSW(v)) || (wrap == 2 && LLVMGetNUW(v));
}

static int merge(int64_t a, int64_t b, int64_t *d)
{
  if (a == ANY) {
    *d = b;
    return 1;
  }
  if (b == ANY || a == b) {
    *d = a;
    return 1;
  }
  return 0;
}

static int lin(const rows_loop *L, LLVMValueRef v, int wrap, unsigned depth, int64_t *d)
{
  if (depth > ROWS_DEPTH)
    return 0;
  if (LLVMIsAUndefValue(v) || LLVMIsAPoisonValue(v)) {
    *d = ANY;
    return 1;
  }
  if (!in_loop(L, v)) {
    *d = 0;
    return 1;
  }
  int p = phi_index(L, v);
  if (p >= 0) {
    if (!L->is_iv[p])
      return 0;
    /* under an extension the counter's own step must not wrap either */
    LLVMValueRef next = LLVMGetIncomingValue(v, LLVMGetIncomingBlock(v, 0) == L->bb ? 0 : 1);
    if (wrap && !wrap_ok(next, wrap))
      return 0;
    *d = L->step[p];
    return 1;
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  int64_t a, b;
  int ok;
  switch (op) {
  case LLVMAdd:
  case LLVMSub:
    if (!lin2(L, LLVMGetOperand(v, 0), LLVMGetOperand(v, 1), wrap, depth, &a, &b) || a == ANY || b == ANY)
      return 0;
    if ((a || b) && !wrap_ok(v, wrap))
      return 0;
    *d = op == LLVMAdd ? a + b : a - b;
    return 1;
  case LLVMMul:
  case LLVMShl: {
    int64_t k = const_int_lanes(LLVMGetOperand(v, 1), &ok);
    LLVMValueRef x = LLVMGetOperand(v, 0);
    if (!ok && op == LLVMMul) {
      k = const_int_lanes(x, &ok);
      x = LLVMGetOperand(v, 1);
    }
    if (!lin(L, x, wrap, depth + 1, &a) || a == ANY)
      return 0;
    if (!a) {
      *d = 0;
      return ok || (!in_loop(L, LLVMGetOperand(v, 0)) && !in_loop(L, LLVMGetOperand(v, 1)));
    }
    if (!ok || !wrap_ok(v, wrap) || (op == LLVMShl && (k < 0 || k > 32)))
      return 0;
    *d = op == LLVMMul ? a * k : a * ((int64_t)1 << k);
    return 1;
  }
  case LLVMSExt:
  case LLVMZExt:
    return lin(L, LLVMGetOperand(v, 0), op == LLVMSExt ? 1 : 2, depth + 1, d) && *d != ANY;
  case LLVMTrunc:
    if (!lin(L, LLVMGetOperand(v, 0), 0, depth + 1, &a))
      return 0;
    *d = a;
    return a == 0;
  case LLVMFreeze:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
    return lin(L, LLVMGetOperand(v, 0), wrap, depth + 1, d);
  case LLVMExtractElement:
    return lin(L, LLVMGetOperand(v, 0), wrap, depth + 1, d);
  case LLVMInsertElement:
    return lin2(L, LLVMGetOperand(v, 0), LLVMGetOperand(v, 1), wrap, depth, &a, &b) && merge(a, b, d);
  case LLVMShuffleVector:
    return lin2(L, LLVMGetOperand(v, 0), LLVMGetOperand(v, 1), wrap, depth, &a, &b) && merge(a, b, d);
  case LLVMGetElementPtr: {
    if (wrap)
      return 0;
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    if (!lin(L, LLVMGetOperand(v, 0), 0, depth + 1, &a) || a == ANY)
      return 0;
    int64_t sum = a;
    for (unsigned k = 1; k < n; k++) {
      if (!lin(L, LLVMGetOperand(v, k), 0, depth + 1, &b) || b == ANY)
        return 0;
      if (!b)
        continue;
      if (k != 1)
        return 0; /* a field or inner array index that moves: not followed */
      sum += b * (int64_t)LLVMABISizeOfType(L->td, LLVMGetGEPSourceElementType(v));
    }
    *d = sum;
    return 1;
  }
  default:
    return 0;
  }
}

/* ---- the loop ---- */

static int is_call_to(LLVMValueRef i, const char *prefix)
{
  return LLVMIsACallInst(i) && cc_callee_has_prefix(i, prefix);
}

/* Pointer operand of a store-like instruction (NULL: not one). */
static LLVMValueRef store_address(LLVMValueRef i)
{
  if (LLVMIsAStoreInst(i))
    return LLVMGetOperand(i, 1);
  if (is_call_to(i, "llvm.masked.store.") || is_call_to(i, "llvm.masked.scatter."))
    return LLVMGetOperand(i, 1);
  return NULL;
}

static int allowed_call(LLVMValueRef i)
{
  return wg_lanewise_intrinsic(i) || is_call_to(i, "llvm.masked.gather.") || is_call_to(i, "llvm.masked.load.") ||
         is_call_to(i, "llvm.masked.store.") || is_call_to(i, "llvm.masked.scatter.") ||
         is_call_to(i, "llvm.vector.reduce.") || is_call_to(i, "llvm.experimental.noalias.scope.decl");
}

/* The loop's form; NULL when it has one (L filled), else why not ("" when
 * it has no gather this applies to: nothing to report). */
static const char *examine(rows_loop *L)
{
  LLVMBasicBlockRef bb = L->bb;
  LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br))
    return "";
  LLVMBasicBlockRef s0 = LLVMGetSuccessor(br, 0), s1 = LLVMGetSuccessor(br, 1);
  if ((s0 == bb) == (s1 == bb))
    return "";
  L->exit = s0 == bb ? s1 : s0;
  /* the preheader: the one other predecessor, which only branches here */
  L->pre = NULL;
  unsigned npred = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef t = LLVMGetUser(u);
    if (!LLVMIsATerminatorInst(t))
      continue;
    LLVMBasicBlockRef from = LLVMGetInstructionParent(t);
    if (from == bb)
      continue;
    npred++;
    L->pre = from;
    if (!LLVMIsABranchInst(t) || (LLVMIsConditional(t) && LLVMGetSuccessor(t, 0) == LLVMGetSuccessor(t, 1)))
      return "";
  }
  if (npred != 1)
    return "";
  L->ninst = L->nphi = L->ngather = L->nstore = 0;
  L->W = 0;
  unsigned nbody = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    nbody++;
  L->inst = calloc(nbody, sizeof(*L->inst));
  L->phi = calloc(nbody, sizeof(*L->phi));
  L->step = calloc(nbody, sizeof(*L->step));
  L->is_iv = calloc(nbody, sizeof(*L->is_iv));
  if (!L->inst || !L->phi || !L->step || !L->is_iv)
    return "";
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    if (LLVMIsAPHINode(i))
      L->phi[L->nphi++] = i;
    else if (i != br)
      L->inst[L->ninst++] = i;
  }
  /* inductions: phi = [start, pre], [phi + c, loop] */
  for (unsigned p = 0; p < L->nphi; p++) {
    LLVMValueRef phi = L->phi[p];
    if (LLVMCountIncoming(phi) != 2)
      return "a phi of the inner loop has other predecessors";
    unsigned back = LLVMGetIncomingBlock(phi, 0) == bb ? 0 : 1;
    LLVMValueRef next = LLVMGetIncomingValue(phi, back);
    if (LLVMIsAInstruction(next) && LLVMGetInstructionOpcode(next) == LLVMAdd &&
        (LLVMGetOperand(next, 0) == phi || LLVMGetOperand(next, 1) == phi)) {
      int ok;
      int64_t c = const_int_lanes(LLVMGetOperand(next, LLVMGetOperand(next, 0) == phi ? 1 : 0), &ok);
      if (ok && c) {
        L->is_iv[p] = 1;
        L->step[p] = c;
      }
    }
  }
  /* gathers that move one element per iteration: none, nothing to say */
  unsigned candidates = 0;
  for (unsigned k = 0; k < L->ninst; k++) {
    LLVMValueRef i = L->inst[k];
    int64_t d;
    if (is_call_to(i, "llvm.masked.gather.") && in_loop(L, LLVMGetOperand(i, 0)) &&
        cc_mask_all_true(LLVMGetOperand(i, 2)) && lin(L, LLVMGetOperand(i, 0), 0, 0, &d) &&
        d == (int64_t)LLVMABISizeOfType(L->td, LLVMGetElementType(LLVMTypeOf(i))))
      candidates++;
  }
  if (!candidates)
    return "";
  /* the exit: next == end (leave) or next != end (stay), on a scalar or lane 0 */
  LLVMValueRef cond = LLVMGetCondition(br);
  if (LLVMIsAExtractElementInst(cond)) {
    int ok;
    if (const_int_lanes(LLVMGetOperand(cond, 1), &ok) != 0 || !ok)
      return "the inner loop's exit is not a count";
    cond = LLVMGetOperand(cond, 0);
  }
  if (!LLVMIsAICmpInst(cond))
    return "the inner loop's exit is not a count";
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cond);
  if (!((pred == LLVMIntEQ && s1 == bb) || (pred == LLVMIntNE && s0 == bb)))
    return "the inner loop's exit is not a count";
  int found = 0;
  for (unsigned side = 0; side < 2 && !found; side++) {
    LLVMValueRef nx = LLVMGetOperand(cond, side), e = LLVMGetOperand(cond, 1 - side);
    if (in_loop(L, e))
      continue;
    for (unsigned p = 0; p < L->nphi; p++) {
      LLVMValueRef phi = L->phi[p];
      unsigned back = LLVMGetIncomingBlock(phi, 0) == bb ? 0 : 1;
      if (L->is_iv[p] && L->step[p] == 1 && LLVMGetIncomingValue(phi, back) == nx &&
          LLVMGetTypeKind(LLVMTypeOf(nx)) == (LLVMGetTypeKind(LLVMTypeOf(phi)))) {
        L->ctrl = p;
        L->end = e;
        found = 1;
        break;
      }
    }
  }
  if (!found)
    return "the inner loop's exit is not a count by 1";
  if (L->ninst > ROWS_MAX_BODY || L->nphi > ROWS_MAX_PHIS)
    return "the inner loop is too long to copy";
  /* values used after the loop get a phi in its exit, which the loop
   * alone must reach */
  unsigned exit_preds = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(L->exit)); u; u = LLVMGetNextUse(u))
    exit_preds += LLVMIsATerminatorInst(LLVMGetUser(u)) != NULL;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      LLVMBasicBlockRef ub = LLVMGetInstructionParent(user);
      if (ub != bb && !(ub == L->exit && LLVMIsAPHINode(user)) && exit_preds != 1)
        return "a value of the inner loop is used after it";
    }
  /* the body: gathers to read as rows, stores at fixed addresses, no other effects */
  for (unsigned k = 0; k < L->ninst; k++) {
    LLVMValueRef i = L->inst[k];
    if (LLVMIsALoadInst(i)) {
      if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
        return "an atomic or volatile access in the inner loop";
      continue;
    }
    LLVMValueRef sa = store_address(i);
    if (sa) {
      if (LLVMIsAStoreInst(i) && (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic))
        return "an atomic or volatile access in the inner loop";
      if (in_loop(L, sa))
        return "a store's address changes in the inner loop";
      if (L->nstore == ROWS_MAX_STORES)
        return "too many stores in the inner loop";
      L->store[L->nstore++] = i;
      continue;
    }
    if (LLVMIsACallInst(i) && !allowed_call(i))
      return "a call in the inner loop";
    if (LLVMIsAFenceInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))
      return "an atomic access in the inner loop";
    if (!is_call_to(i, "llvm.masked.gather.") || !in_loop(L, LLVMGetOperand(i, 0)))
      continue;
    LLVMTypeRef vt = LLVMTypeOf(i);
    unsigned W = LLVMGetVectorSize(vt);
    uint64_t esize = LLVMABISizeOfType(L->td, LLVMGetElementType(vt));
    int64_t d;
    if (!cc_mask_all_true(LLVMGetOperand(i, 2)))
      continue; /* a masked gather: lanes may be off */
    if (!lin(L, LLVMGetOperand(i, 0), 0, 0, &d) || d != (int64_t)esize)
      continue; /* not one element further per iteration */
    if (W < 4 || (W & (W - 1)) || W * esize > 64 || LLVMStoreSizeOfType(L->td, LLVMGetElementType(vt)) != esize)
      return "the gathered vector is wider than 64 bytes";
    if (L->W && W != L->W)
      return "gathers of different widths";
    if (L->ngather == ROWS_MAX_GATHERS)
      return "too many strided gathers in the inner loop";
    L->W = W;
    L->gather[L->ngather++] = i;
  }
  if (!L->ngather)
    return "";
  return NULL;
}

/* ---- the new form ---- */

/* v (of the loop, not a phi) cloned at the builder with operands through m,
 * recursively for those of the loop not yet in m (for the preheader's copy
 * of an address). */
static LLVMValueRef clone_slice(rows_loop *L, cc_vmap *m, LLVMValueRef v)
{
  int oom = 0;
  return cc_clone_slice(L->b, m, v, L->bb, ROWS_DEPTH * 2 + 1, &oom);
}

static LLVMValueRef lane0(rows_loop *L, LLVMValueRef v)
{
  if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
    return v;
  return LLVMBuildExtractElement(L->b, v, LLVMConstInt(LLVMInt32TypeInContext(L->c), 0, 0), "");
}

static LLVMValueRef reduce(rows_loop *L, const char *name, LLVMValueRef v)
{
  if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
    return v;
  LLVMTypeRef t = LLVMTypeOf(v);
  return cc_build_intrinsic(L->b, L->m, name, &t, 1, &v, 1, "");
}

/* [lo, hi) of the bytes an access at address a (a pointer or a vector of
 * them) of `bytes` bytes per lane covers. */
static void span(rows_loop *L, LLVMValueRef a, uint64_t bytes, LLVMValueRef *lo, LLVMValueRef *hi)
{
  LLVMTypeRef i64 = LLVMInt64TypeInContext(L->c);
  LLVMTypeRef at = LLVMTypeOf(a);
  LLVMTypeRef it = LLVMGetTypeKind(at) == LLVMVectorTypeKind ? LLVMVectorType(i64, LLVMGetVectorSize(at)) : i64;
  LLVMValueRef x = LLVMBuildPtrToInt(L->b, a, it, "");
  *lo = reduce(L, "llvm.vector.reduce.umin", x);
  *hi = LLVMBuildAdd(L->b, reduce(L, "llvm.vector.reduce.umax", x), LLVMConstInt(i64, bytes, 0), "");
}

/* The W x W block rows[] transposed into cols[]: log2 W rounds in which
 * output 2i and 2i + 1 interleave the low and high halves of inputs i and
 * i + W/2. */
static void transpose(rows_loop *L, LLVMValueRef *rows, LLVMValueRef *cols)
{
  unsigned W = L->W;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(L->c);
  LLVMValueRef lo[64], hi[64], cur[64], nxt[64];
  for (unsigned k = 0; k < W / 2; k++) {
    lo[2 * k] = LLVMConstInt(i32, k, 0);
    lo[2 * k + 1] = LLVMConstInt(i32, W + k, 0);
    hi[2 * k] = LLVMConstInt(i32, W / 2 + k, 0);
    hi[2 * k + 1] = LLVMConstInt(i32, W + W / 2 + k, 0);
  }
  LLVMValueRef mlo = LLVMConstVector(lo, W), mhi = LLVMConstVector(hi, W);
  memcpy(cur, rows, W * sizeof(*rows));
  for (unsigned s = W; s > 1; s /= 2) {
    for (unsigned i = 0; i < W / 2; i++) {
      nxt[2 * i] = LLVMBuildShuffleVector(L->b, cur[i], cur[i + W / 2], mlo, "rows.t");
      nxt[2 * i + 1] = LLVMBuildShuffleVector(L->b, cur[i], cur[i + W / 2], mhi, "rows.t");
    }
    memcpy(cur, nxt, W * sizeof(*cur));
  }
  memcpy(cols, cur, W * sizeof(*cols));
}

/* Bytes one lane's access at address a of value type vt covers. */
static uint64_t access_bytes(rows_loop *L, LLVMValueRef a, LLVMTypeRef vt)
{
  if (LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMVectorTypeKind)
    return LLVMABISizeOfType(L->td, LLVMGetElementType(vt));
  return LLVMStoreSizeOfType(L->td, vt);
}

/* Address and value type of a load-like instruction of the body (NULL: not one). */
static LLVMValueRef load_address(LLVMValueRef i, LLVMTypeRef *vt)
{
  *vt = LLVMTypeOf(i);
  if (LLVMIsALoadInst(i) || is_call_to(i, "llvm.masked.gather.") || is_call_to(i, "llvm.masked.load."))
    return LLVMGetOperand(i, 0);
  return NULL;
}

static LLVMValueRef disjoint(rows_loop *L, LLVMValueRef alo, LLVMValueRef ahi, LLVMValueRef blo, LLVMValueRef bhi)
{
  return LLVMBuildOr(L->b, LLVMBuildICmp(L->b, LLVMIntULE, ahi, blo, ""), LLVMBuildICmp(L->b, LLVMIntULE, bhi, alo, ""),
                     "rows.apart");
}

/* inst's metadata `kind` (a list of scopes) with node added. */
static void md_add(LLVMContextRef c, LLVMValueRef inst, unsigned kind, LLVMMetadataRef *add, unsigned nadd)
{
  LLVMValueRef old = LLVMGetMetadata(inst, kind);
  unsigned n = old ? LLVMGetMDNodeNumOperands(old) : 0;
  LLVMMetadataRef ops[ROWS_MAX_STORES + 8];
  LLVMValueRef vals[64];
  if (n > 64 || n + nadd > sizeof(ops) / sizeof(ops[0]))
    return;
  if (old)
    LLVMGetMDNodeOperands(old, vals);
  for (unsigned k = 0; k < n; k++)
    ops[k] = LLVMValueAsMetadata(vals[k]);
  for (unsigned k = 0; k < nadd; k++)
    ops[n + k] = add[k];
  LLVMSetMetadata(inst, kind, LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, ops, n + nadd)));
}

static int transform(rows_loop *L)
{
  LLVMContextRef c = L->c;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i32 = LLVMInt32TypeInContext(c);
  LLVMValueRef fn = LLVMGetBasicBlockParent(L->bb);
  unsigned W = L->W;
  int rc = 1;
  cc_vmap pm = {0}, m = {0};
  int *klass = NULL;
  LLVMValueRef cols[ROWS_MAX_GATHERS][64];

  /* the loop's values used after it: through a phi of the exit (the loop
   * is its one predecessor, see examine) */
  for (LLVMValueRef i = LLVMGetFirstInstruction(L->bb); i; i = LLVMGetNextInstruction(i)) {
    unsigned nu = 0;
    LLVMValueRef *users = cc_collect_users(i, &nu);
    LLVMValueRef lc = NULL;
    for (unsigned k = 0; k < nu; k++) {
      LLVMValueRef user = users[k];
      LLVMBasicBlockRef ub = LLVMGetInstructionParent(user);
      if (ub == L->bb)
        continue;
      int isphi = LLVMIsAPHINode(user) != NULL;
      unsigned no = (unsigned)LLVMGetNumOperands(user);
      for (unsigned o = 0; o < no; o++) {
        if (LLVMGetOperand(user, o) != i)
          continue;
        if (isphi && ub == L->exit && LLVMGetIncomingBlock(user, o) == L->bb)
          continue;
        if (!lc) {
          LLVMPositionBuilderBefore(L->b, LLVMGetFirstInstruction(L->exit));
          lc = LLVMBuildPhi(L->b, LLVMTypeOf(i), "rows.out");
          LLVMAddIncoming(lc, &i, &L->bb, 1);
        }
        LLVMSetOperand(user, o, lc);
      }
    }
    free(users);
  }

  /* preheader: the trip count, the spans, the choice (in a block of its
   * own on the edge into the loop) */
  LLVMValueRef pbr = LLVMGetBasicBlockTerminator(L->pre);
  if (LLVMIsConditional(pbr)) {
    LLVMBasicBlockRef np = LLVMAppendBasicBlockInContext(c, fn, "rows.check");
    LLVMMoveBasicBlockAfter(np, L->pre);
    for (unsigned k = 0; k < 2; k++)
      if (LLVMGetSuccessor(pbr, k) == L->bb)
        LLVMSetSuccessor(pbr, k, np);
    cc_phi_retarget(L->bb, L->pre, np); /* (new phis, in the same order) */
    unsigned p = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(L->bb); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i))
      L->phi[p++] = i;
    LLVMPositionBuilderAtEnd(L->b, np);
    pbr = LLVMBuildBr(L->b, L->bb);
    L->pre = np;
  }
  LLVMPositionBuilderBefore(L->b, pbr);
  for (unsigned p = 0; p < L->nphi; p++)
    if (cc_vmap_put(&pm, L->phi[p], cc_incoming_from(L->phi[p], L->pre)))
      goto out;
  LLVMValueRef ctrl = L->phi[L->ctrl];
  LLVMValueRef start = lane0(L, cc_incoming_from(ctrl, L->pre));
  LLVMValueRef end = lane0(L, L->end);
  LLVMTypeRef ct = LLVMTypeOf(start);
  LLVMValueRef cW = LLVMConstInt(ct, W, 0);
  LLVMValueRef trip = LLVMBuildSub(L->b, end, start, "rows.trip");
  /* (the exit is next == end: end - start iterations, modulo the width) */
  LLVMValueRef fast = LLVMBuildICmp(L->b, LLVMIntUGE, trip, cW, "rows.enough");
  LLVMValueRef trip64 = LLVMBuildZExtOrBitCast(L->b, trip, i64, "");
  /* The stores' addresses: groups of one address value each, [lo, hi) over
   * the loop (they do not move).  A load of a group's address belongs to it;
   * the rows and the other loads whose address moves by a constant >= 0
   * per iteration are read-only ("ro", their span over the loop).  The new
   * form runs where every ro span and every group are apart: each access
   * then gets its alias scope, and GVN keeps a group's value in a register
   * from one copy to the next (tmp[i] += ...: no round trip through memory). */
  LLVMValueRef gaddr[ROWS_MAX_STORES], glo[ROWS_MAX_STORES], ghi[ROWS_MAX_STORES];
  uint64_t gbytes[ROWS_MAX_STORES];
  unsigned ng = 0;
  for (unsigned x = 0; x < L->nstore; x++) {
    LLVMValueRef a = store_address(L->store[x]);
    unsigned g = 0;
    while (g < ng && gaddr[g] != a)
      g++;
    if (g == ng) {
      gaddr[ng] = a;
      gbytes[ng++] = 0;
    }
  }
  for (unsigned x = 0; x < L->ninst; x++) {
    LLVMValueRef i = L->inst[x], a;
    LLVMTypeRef vt;
    uint64_t bytes;
    if ((a = store_address(i)))
      bytes = access_bytes(L, a, LLVMTypeOf(LLVMGetOperand(i, 0)));
    else if ((a = load_address(i, &vt)))
      bytes = access_bytes(L, a, vt);
    else
      continue;
    for (unsigned g = 0; g < ng; g++)
      if (gaddr[g] == a && bytes > gbytes[g])
        gbytes[g] = bytes;
  }
  for (unsigned g = 0; g < ng; g++) {
    span(L, gaddr[g], gbytes[g], &glo[g], &ghi[g]);
    for (unsigned h = 0; h < g; h++)
      fast = LLVMBuildAnd(L->b, fast, disjoint(L, glo[g], ghi[g], glo[h], ghi[h]), "rows.fast");
  }
  /* class[x]: the group of instruction x, ng for ro, -1 for none */
  klass = calloc(L->ninst, sizeof(*klass));
  if (!klass)
    goto out;
  for (unsigned x = 0; x < L->ninst; x++) {
    LLVMValueRef i = L->inst[x], a;
    LLVMTypeRef vt;
    klass[x] = -1;
    a = store_address(i);
    if (!a)
      a = load_address(i, &vt);
    if (!a)
      continue;
    for (unsigned g = 0; g < ng; g++)
      if (gaddr[g] == a)
        klass[x] = (int)g;
    if (klass[x] >= 0 || store_address(i))
      continue;
    int64_t d;
    if (!lin(L, a, 0, 0, &d) || d < 0 || d == ANY)
      continue;
    /* lanes' first addresses, then d bytes further each iteration */
    LLVMValueRef lo, hi;
    span(L, clone_slice(L, &pm, a), access_bytes(L, a, vt), &lo, &hi);
    if (d)
      hi = LLVMBuildAdd(L->b, hi, LLVMBuildMul(L->b, LLVMBuildSub(L->b, trip64, LLVMConstInt(i64, 1, 0), ""),
                                                LLVMConstInt(i64, (uint64_t)d, 0), ""), "");
    for (unsigned g = 0; g < ng; g++)
      fast = LLVMBuildAnd(L->b, fast, disjoint(L, lo, hi, glo[g], ghi[g]), "rows.fast");
    klass[x] = (int)ng;
  }
  /* the scopes: one per group, one for ro */
  LLVMMetadataRef scope[ROWS_MAX_STORES + 1], dom = cc_md_loop_id(c, NULL, 0);
  for (unsigned g = 0; g <= ng; g++)
    scope[g] = cc_md_loop_id(c, &dom, 1);
  unsigned k_scope = LLVMGetMDKindIDInContext(c, "alias.scope", 11), k_noalias = LLVMGetMDKindIDInContext(c, "noalias", 7);

  LLVMBasicBlockRef H = LLVMAppendBasicBlockInContext(c, fn, "rows.block");
  LLVMBasicBlockRef D = LLVMAppendBasicBlockInContext(c, fn, "rows.done");
  LLVMMoveBasicBlockAfter(H, L->pre);
  LLVMMoveBasicBlockAfter(D, H);
  LLVMBuildCondBr(L->b, fast, H, L->bb);
  LLVMInstructionEraseFromParent(pbr);

  /* the block loop: W copies of the body */
  LLVMPositionBuilderAtEnd(L->b, H);
  LLVMValueRef hphi[ROWS_MAX_PHIS], last[ROWS_MAX_PHIS];
  for (unsigned p = 0; p < L->nphi; p++) {
    hphi[p] = LLVMBuildPhi(L->b, LLVMTypeOf(L->phi[p]), "rows.phi");
    LLVMValueRef v = cc_incoming_from(L->phi[p], L->pre);
    LLVMBasicBlockRef from = L->pre;
    LLVMAddIncoming(hphi[p], &v, &from, 1);
    if (cc_vmap_put(&m, L->phi[p], hphi[p]))
      goto out;
  }
  for (unsigned k = 0; k < W; k++) {
    for (unsigned x = 0; x < L->ninst; x++) {
      LLVMValueRef i = L->inst[x];
      int g = -1;
      for (unsigned q = 0; q < L->ngather; q++)
        if (L->gather[q] == i)
          g = (int)q;
      if (g >= 0) {
        if (k == 0) {
          /* lane l's next W elements, one load each, transposed */
          LLVMValueRef addr = cc_vmap_get(&m, LLVMGetOperand(i, 0));
          LLVMTypeRef vt = LLVMTypeOf(i);
          unsigned align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(i, 1));
          LLVMValueRef rows[64];
          for (unsigned l = 0; l < W; l++) {
            LLVMValueRef p = LLVMBuildExtractElement(L->b, addr, LLVMConstInt(i32, l, 0), "");
            rows[l] = LLVMBuildLoad2(L->b, vt, p, "rows.row");
            LLVMSetAlignment(rows[l], align ? align : 1);
            cc_copy_metadata(i, rows[l]);
            md_add(c, rows[l], k_scope, &scope[ng], 1);
            md_add(c, rows[l], k_noalias, scope, ng);
          }
          transpose(L, rows, cols[g]);
        }
        if (cc_vmap_put(&m, i, cols[g][k]))
          goto out;
        continue;
      }
      LLVMValueRef cl = LLVMInstructionClone(i);
      unsigned n = (unsigned)LLVMGetNumOperands(i);
      for (unsigned o = 0; o < n; o++)
        LLVMSetOperand(cl, o, cc_vmap_get(&m, LLVMGetOperand(i, o)));
      LLVMInsertIntoBuilder(L->b, cl);
      if (klass[x] >= 0) {
        LLVMMetadataRef others[ROWS_MAX_STORES + 1];
        unsigned no = 0;
        for (unsigned g = 0; g <= ng; g++)
          if ((int)g != klass[x])
            others[no++] = scope[g];
        md_add(c, cl, k_scope, &scope[klass[x]], 1);
        md_add(c, cl, k_noalias, others, no);
      }
      if (cc_vmap_put(&m, i, cl))
        goto out;
    }
    /* the next copy's phis */
    LLVMValueRef nv[ROWS_MAX_PHIS];
    for (unsigned p = 0; p < L->nphi; p++)
      last[p] = cc_vmap_get(&m, L->phi[p]);
    for (unsigned p = 0; p < L->nphi; p++)
      nv[p] = cc_vmap_get(&m, cc_incoming_from(L->phi[p], L->bb));
    for (unsigned p = 0; p < L->nphi; p++)
      if (cc_vmap_put(&m, L->phi[p], nv[p]))
        goto out;
  }
  /* m now maps each phi to its value after the run, each instruction to its last copy */
  LLVMValueRef after = lane0(L, cc_vmap_get(&m, ctrl));
  LLVMValueRef left = LLVMBuildSub(L->b, end, after, "rows.left");
  LLVMValueRef more = LLVMBuildICmp(L->b, LLVMIntUGE, left, cW, "rows.more");
  LLVMValueRef hbr = LLVMBuildCondBr(L->b, more, H, D);
  for (unsigned p = 0; p < L->nphi; p++) {
    LLVMValueRef v = cc_vmap_get(&m, L->phi[p]);
    LLVMAddIncoming(hphi[p], &v, &H, 1);
  }
  LLVMMetadataRef props[2] = {cc_md_prop_bool(c, "llvm.loop.isvectorized", 1),
                              cc_md_prop_bool(c, "llvm.loop.unroll.disable", 1)};
  cc_md_set(hbr, "llvm.loop", cc_md_loop_id(c, props, 2));

  /* rest: done, or the loop as it was from where the runs stopped */
  LLVMPositionBuilderAtEnd(L->b, D);
  LLVMValueRef done = LLVMBuildICmp(L->b, LLVMIntEQ, left, LLVMConstInt(ct, 0, 0), "rows.none.left");
  LLVMBuildCondBr(L->b, done, L->exit, L->bb);
  for (unsigned p = 0; p < L->nphi; p++) {
    LLVMValueRef v = cc_vmap_get(&m, L->phi[p]);
    LLVMAddIncoming(L->phi[p], &v, &D, 1);
  }
  for (LLVMValueRef x = LLVMGetFirstInstruction(L->exit); x && LLVMIsAPHINode(x); x = LLVMGetNextInstruction(x)) {
    LLVMValueRef v = cc_incoming_from(x, L->bb);
    if (!v)
      continue;
    /* the value in the loop's last iteration: the last copy's */
    int p = phi_index(L, v);
    LLVMValueRef w = p >= 0 ? last[p] : cc_vmap_get(&m, v);
    LLVMAddIncoming(x, &w, &D, 1);
  }
  rc = 0;
out:
  free(klass);
  free(pm.from), free(pm.to), free(m.from), free(m.to);
  return rc;
}

/* The debug location of the innermost loop with one (a lane loop) around
 * block bb, or NULL. */
static LLVMMetadataRef lane_loop_loc(const cc_cfg *cfg, LLVMBasicBlockRef bb, unsigned char *in)
{
  int target = cc_cfg_find(cfg, bb);
  if (target < 0)
    return NULL;
  LLVMMetadataRef best = NULL;
  unsigned best_n = ~0u;
  for (unsigned i = 0; i < cfg->n; i++) {
    LLVMValueRef br = LLVMGetBasicBlockTerminator(cfg->block[i]);
    if (!br || !LLVMIsABranchInst(br) || !LLVMGetMetadata(br, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(br)), "llvm.loop", 9)))
      continue;
    LLVMMetadataRef loc = cc_loop_debug_loc(br);
    if (!loc)
      continue;
    unsigned ns = LLVMGetNumSuccessors(br);
    for (unsigned s = 0; s < ns; s++) {
      int h = cc_cfg_find(cfg, LLVMGetSuccessor(br, s));
      if (h < 0 || !cc_cfg_dominates(cfg, (unsigned)h, i))
        continue;
      memset(in, 0, cfg->n);
      unsigned n = cc_cfg_loop(cfg, (unsigned)h, i, in);
      if (in[target] && n < best_n) {
        best = loc;
        best_n = n;
      }
    }
  }
  return best;
}

static void rows_note(LLVMValueRef fn, LLVMMetadataRef loc, const char *what)
{
  unsigned col, len;
  const char *file;
  unsigned line = cc_dbg_loc_line(loc, &col, &file, &len);
  cc_diag_note(LLVMGetModuleContext(LLVMGetGlobalParent(fn)), "%.*s:%u:%u: rows: %s", (int)len, file ? file : "", line,
               col, what);
}

unsigned wg_rows(LLVMValueRef fn)
{
  LLVMModuleRef mod = LLVMGetGlobalParent(fn);
  cc_cfg cfg;
  if (cc_cfg_build(&cfg, fn))
    return 0;
  unsigned char *in = malloc(cfg.n + 1);
  LLVMBasicBlockRef *loops = malloc((cfg.n + 1) * sizeof(*loops));
  LLVMMetadataRef *locs = malloc((cfg.n + 1) * sizeof(*locs));
  unsigned nloops = 0, done = 0;
  if (!in || !loops || !locs)
    goto out;
  /* the one-block loops, found before any is changed */
  for (unsigned i = 0; i < cfg.n; i++) {
    LLVMValueRef br = LLVMGetBasicBlockTerminator(cfg.block[i]);
    if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br))
      continue;
    if (LLVMGetSuccessor(br, 0) != cfg.block[i] && LLVMGetSuccessor(br, 1) != cfg.block[i])
      continue;
    loops[nloops] = cfg.block[i];
    locs[nloops++] = lane_loop_loc(&cfg, cfg.block[i], in);
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));
  for (unsigned k = 0; k < nloops; k++) {
    rows_loop L;
    memset(&L, 0, sizeof(L));
    L.m = mod;
    L.c = LLVMGetModuleContext(mod);
    L.td = LLVMGetModuleDataLayout(mod);
    L.b = b;
    L.bb = loops[k];
    const char *why = examine(&L);
    char msg[200];
    if (!why && transform(&L))
      why = "out of memory";
    if (!why) {
      done++;
      snprintf(msg, sizeof(msg),
               "inner loop reads %u strided gather%s as rows, %u iterations at a time (%u vector loads each, "
               "transposed in registers; as written where rows and stores overlap, and for the last iterations)",
               L.ngather, L.ngather > 1 ? "s" : "", L.W, L.W);
    } else if (*why) {
      snprintf(msg, sizeof(msg), "inner loop keeps its strided gathers: %s", why);
    }
    if (why && !*why)
      msg[0] = 0;
    if (msg[0] && locs[k])
      rows_note(fn, locs[k], msg);
    free(L.inst), free(L.phi), free(L.step), free(L.is_iv);
  }
  LLVMDisposeBuilder(b);
out:
  free(in), free(loops), free(locs);
  cc_cfg_free(&cfg);
  return done;
}

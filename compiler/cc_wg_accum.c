/* Accumulators in memory kept in registers, under a run-time check: for
 * lane loops that go to masked widening (cc_wg_diverge.c), before it runs.
 *
 * The covariance kernel of PolyBench, and most code written for GPUs that
 * sums into its output, accumulates through memory in an inner loop:
 *
 *     symmat[j1 * m + j2] = 0;
 *     for (i = 0; i < n; i++)
 *       symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
 *
 * LLVM cannot keep symmat[j1 * m + j2] in a register: symmat and data may
 * be one buffer.  Each iteration loads and stores it, a round trip through
 * memory; widened across W work-items those are a gather and a scatter per
 * iteration (the lanes' addresses are m + 1 elements apart), and masked
 * widening's cost estimate keeps the lane loop scalar.  LLVM's
 * loop-versioning-licm pass versions such loops on a check, but its checks
 * also assume that every symbolic stride (m here) is 1, so the fast copy
 * never runs.
 *
 * Here a one-block inner loop that stores to one address p that does not
 * change in it, and loads p at most once, before that store, gets a second
 * copy in which p is not stored in the loop but once after it, and its
 * load, if any, is a phi (loaded before the loop).  After O3 the load is
 * usually gone already (GVN forwards each iteration's store to the next),
 * and the store is what is left.  The
 * copy runs when, before the loop, the bytes of p are apart from the bytes
 * every other load of the loop reads over the whole loop: each of those
 * loads' addresses is affine in the loop's counter (add, sub, multiply by a
 * value of outside the loop, shifts, extensions of non-wrapping values,
 * getelementptr), so its lowest and highest addresses are those of the
 * first and the last iteration, computed before the loop from the
 * counter's start and bound.  Else the loop runs as written.  In the lanes,
 * the check is each work-item's own (two work-items' accesses that meet
 * without a barrier are a data race), and masked widening runs each copy for
 * the lanes that take it, skipping a copy no lane takes.
 *
 * The loop as written is marked lanecl.accum.fallback: the cost estimate of
 * masked widening does not count it (it runs only where the buffers
 * overlap), and neither copy is versioned again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"
#include "compiler/cc_wg_diverge.h"

#define ACC_DEPTH 24       /* operations followed in an address */
#define ACC_MAX_LOADS 16   /* other loads checked against p */
#define ACC_MAX_BODY 512   /* instructions of the loop's block */
#define ACC_MAX_LOOPS 32   /* loops versioned in one lane loop */

#define MD_FALLBACK "lanecl.accum.fallback"
#define MD_PROMOTED "lanecl.accum.promoted"

typedef struct acc_loop {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMTargetDataRef td;
  LLVMBuilderRef b;
  LLVMBasicBlockRef bb, pre, exit;
  LLVMValueRef br;          /* the loop's branch */
  LLVMValueRef iv, start;   /* the counter: start, start + 1, ... */
  LLVMValueRef bound;       /* ... while next (pred) bound */
  LLVMIntPredicate pred;    /* LLVMIntNE, LLVMIntSLT or LLVMIntULT */
  LLVMValueRef ld, st, p;   /* the load and the store of p */
  LLVMValueRef load[ACC_MAX_LOADS];
  unsigned nload;
} acc_loop;

static int in_loop(const acc_loop *L, LLVMValueRef v)
{
  return LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == L->bb;
}

static int has_md(LLVMValueRef inst, const char *kind)
{
  return LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(inst)), kind,
                                                        (unsigned)strlen(kind))) != NULL;
}

int wg_accum_is_fallback(LLVMBasicBlockRef bb)
{
  LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
  return t && has_md(t, MD_FALLBACK);
}

/* ---- addresses affine in the counter ----
 * 0: not shown affine; 1: the same in every iteration; 2: affine, moving.
 * wrap: 1 when the operations must not wrap as signed (under a sext), 2 as
 * unsigned (under a zext). */
static int wrap_ok(LLVMValueRef v, int wrap)
{
  return wrap == 0 || (wrap == 1 && LLVMGetNSW(v)) || (wrap == 2 && LLVMGetNUW(v));
}

static int affine(const acc_loop *L, LLVMValueRef v, int wrap, unsigned depth)
{
  if (!in_loop(L, v))
    return 1;
  if (depth > ACC_DEPTH)
    return 0;
  if (v == L->iv) {
    if (!wrap)
      return 2;
    /* under an extension, the counter's own step must not wrap */
    for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
      if (LLVMGetIncomingBlock(v, k) == L->bb && !wrap_ok(LLVMGetIncomingValue(v, k), wrap))
        return 0;
    return 2;
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  int a, b;
  switch (op) {
  case LLVMAdd:
  case LLVMSub:
    a = affine(L, LLVMGetOperand(v, 0), wrap, depth + 1);
    b = affine(L, LLVMGetOperand(v, 1), wrap, depth + 1);
    if (!a || !b || ((a == 2 || b == 2) && !wrap_ok(v, wrap)))
      return 0;
    return a > b ? a : b;
  case LLVMMul:
  case LLVMShl:
    a = affine(L, LLVMGetOperand(v, 0), wrap, depth + 1);
    b = affine(L, LLVMGetOperand(v, 1), wrap, depth + 1);
    if (!a || !b || (a == 2 && b == 2) || (op == LLVMShl && b == 2))
      return 0;
    if ((a == 2 || b == 2) && !wrap_ok(v, wrap))
      return 0;
    return a > b ? a : b;
  case LLVMSExt:
  case LLVMZExt:
    return affine(L, LLVMGetOperand(v, 0), op == LLVMSExt ? 1 : 2, depth + 1);
  case LLVMFreeze:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
    return affine(L, LLVMGetOperand(v, 0), wrap, depth + 1);
  case LLVMGetElementPtr: {
    if (wrap)
      return 0;
    int r = 1;
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    for (unsigned k = 0; k < n; k++) {
      a = affine(L, LLVMGetOperand(v, k), 0, depth + 1);
      if (!a)
        return 0;
      r = a > r ? a : r;
    }
    return r;
  }
  default:
    return 0;
  }
}

/* ---- the loop ---- */

static int harmless_call(LLVMValueRef i)
{
  return dv_is_dropped(i) || wg_lanewise_intrinsic(i);
}

static LLVMIntPredicate inverse(LLVMIntPredicate p)
{
  switch (p) {
  case LLVMIntEQ: return LLVMIntNE;
  case LLVMIntNE: return LLVMIntEQ;
  case LLVMIntSLT: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLT;
  case LLVMIntULT: return LLVMIntUGE;
  case LLVMIntUGE: return LLVMIntULT;
  case LLVMIntSGT: return LLVMIntSLE;
  case LLVMIntSLE: return LLVMIntSGT;
  case LLVMIntUGT: return LLVMIntULE;
  default: return LLVMIntUGT;
  }
}

static LLVMIntPredicate swapped(LLVMIntPredicate p)
{
  switch (p) {
  case LLVMIntSLT: return LLVMIntSGT;
  case LLVMIntSGT: return LLVMIntSLT;
  case LLVMIntULT: return LLVMIntUGT;
  case LLVMIntUGT: return LLVMIntULT;
  case LLVMIntSLE: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLE;
  case LLVMIntULE: return LLVMIntUGE;
  case LLVMIntUGE: return LLVMIntULE;
  default: return p;
  }
}

/* The counter: a phi start -> next = phi + 1, the loop going on while
 * next != bound, next < bound (signed or not). */
static int find_counter(acc_loop *L)
{
  LLVMValueRef cond = LLVMGetCondition(L->br);
  if (!LLVMIsAICmpInst(cond) || !in_loop(L, cond))
    return 0;
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cond);
  if (LLVMGetSuccessor(L->br, 0) != L->bb)
    pred = inverse(pred);
  LLVMValueRef next = LLVMGetOperand(cond, 0), bound = LLVMGetOperand(cond, 1);
  if (!in_loop(L, next)) {
    LLVMValueRef t = next;
    next = bound, bound = t;
    pred = swapped(pred);
  }
  if (in_loop(L, bound) || (pred != LLVMIntNE && pred != LLVMIntSLT && pred != LLVMIntULT))
    return 0;
  if (LLVMGetInstructionOpcode(next) != LLVMAdd)
    return 0;
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef phi = LLVMGetOperand(next, k), one = LLVMGetOperand(next, 1 - k);
    if (!LLVMIsAPHINode(phi) || !in_loop(L, phi) || !LLVMIsAConstantInt(one) || LLVMConstIntGetZExtValue(one) != 1 ||
        LLVMCountIncoming(phi) != 2 || cc_incoming_from(phi, L->bb) != next)
      continue;
    L->iv = phi;
    L->start = cc_incoming_from(phi, L->pre);
    L->bound = bound;
    L->pred = pred;
    return L->start != NULL;
  }
  return 0;
}

/* NULL when the loop can be versioned, else why not ("" for loops not of
 * the shape at all). */
static const char *examine(acc_loop *L)
{
  /* one block coming in, one going out, each only to the loop */
  if (!cc_self_loop(L->bb, &L->pre, &L->exit))
    return "";
  L->br = LLVMGetBasicBlockTerminator(L->bb);
  if (has_md(L->br, MD_FALLBACK) || has_md(L->br, MD_PROMOTED))
    return "";
  unsigned n = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(L->bb); i; i = LLVMGetNextInstruction(i)) {
    if (++n > ACC_MAX_BODY)
      return "";
    if (LLVMIsAStoreInst(i)) {
      if (L->st || LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
        return "";
      L->st = i;
      L->p = LLVMGetOperand(i, 1);
    } else if (LLVMIsACallInst(i)) {
      if (!harmless_call(i))
        return "";
    } else if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i)) {
      return "";
    } else if (LLVMIsALoadInst(i) && (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)) {
      return "";
    }
  }
  if (!L->st || in_loop(L, L->p))
    return "";
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(L->st, 0));
  LLVMTypeKind tk = LLVMGetTypeKind(t);
  if (tk != LLVMIntegerTypeKind && tk != LLVMFloatTypeKind && tk != LLVMDoubleTypeKind && tk != LLVMHalfTypeKind)
    return "";
  /* p loaded at most once, before the store; every other load at an affine address */
  int stored = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(L->bb); i; i = LLVMGetNextInstruction(i)) {
    if (i == L->st)
      stored = 1;
    if (!LLVMIsALoadInst(i))
      continue;
    if (LLVMGetOperand(i, 0) == L->p) {
      if (L->ld || stored || LLVMTypeOf(i) != t)
        return "";
      L->ld = i;
      continue;
    }
    if (L->nload == ACC_MAX_LOADS)
      return "too many other loads";
    L->load[L->nload++] = i;
  }
  if (!find_counter(L))
    return "the inner loop's counter is not a count by 1 to a bound";
  for (unsigned k = 0; k < L->nload; k++)
    if (!affine(L, LLVMGetOperand(L->load[k], 0), 0, 0))
      return "a load's address is not affine in the inner loop's counter";
  return NULL;
}

/* ---- the copy ---- */

static LLVMValueRef as_int(acc_loop *L, LLVMValueRef ptr)
{
  return LLVMBuildPtrToInt(L->b, ptr, LLVMInt64TypeInContext(L->c), "");
}

static LLVMValueRef umin_max(acc_loop *L, LLVMValueRef a, LLVMValueRef b, int max)
{
  LLVMValueRef lt = LLVMBuildICmp(L->b, LLVMIntULT, a, b, "");
  return max ? LLVMBuildSelect(L->b, lt, b, a, "") : LLVMBuildSelect(L->b, lt, a, b, "");
}

/* The counter's value in the last iteration (computed at the builder). */
static LLVMValueRef last_count(acc_loop *L)
{
  LLVMValueRef one = LLVMConstInt(LLVMTypeOf(L->bound), 1, 0);
  LLVMValueRef before = LLVMBuildSub(L->b, L->bound, one, "acc.last");
  if (L->pred == LLVMIntNE)
    return before;
  /* next < bound: at least one iteration, start's, even when start >= bound */
  LLVMValueRef runs = LLVMBuildICmp(L->b, L->pred, L->start, L->bound, "");
  return LLVMBuildSelect(L->b, runs, before, L->start, "acc.last");
}

static void set_fallback_md(acc_loop *L, LLVMValueRef br, const char *kind)
{
  cc_md_set(br, kind, LLVMMDNodeInContext2(L->c, NULL, 0));
}

/* Rewrites the loop; 1 when out of memory (the function may then be half
 * rewritten: the caller fails the build). */
static int transform(acc_loop *L)
{
  LLVMValueRef fn = LLVMGetBasicBlockParent(L->bb);
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(L->st, 0));
  uint64_t tbytes = LLVMStoreSizeOfType(L->td, t);
  int oom = 0;
  cc_vmap first = {0}, last = {0};

  /* the check, at the end of the preheader */
  LLVMValueRef pt = LLVMGetBasicBlockTerminator(L->pre);
  LLVMPositionBuilderBefore(L->b, pt);
  LLVMValueRef lastc = last_count(L);
  oom |= cc_vmap_put(&first, L->iv, L->start) | cc_vmap_put(&last, L->iv, lastc);
  LLVMValueRef plo = as_int(L, L->p);
  LLVMValueRef pend = LLVMBuildAdd(L->b, plo, LLVMConstInt(LLVMInt64TypeInContext(L->c), tbytes, 0), "");
  LLVMValueRef safe = LLVMConstInt(LLVMInt1TypeInContext(L->c), 1, 0);
  for (unsigned k = 0; k < L->nload && !oom; k++) {
    LLVMValueRef a = LLVMGetOperand(L->load[k], 0);
    uint64_t bytes = LLVMStoreSizeOfType(L->td, LLVMTypeOf(L->load[k]));
    LLVMValueRef a0 = as_int(L, cc_clone_slice(L->b, &first, a, L->bb, 2 * ACC_DEPTH + 1, &oom));
    LLVMValueRef a1 = as_int(L, cc_clone_slice(L->b, &last, a, L->bb, 2 * ACC_DEPTH + 1, &oom));
    LLVMValueRef lo = umin_max(L, a0, a1, 0);
    LLVMValueRef hi = LLVMBuildAdd(L->b, umin_max(L, a0, a1, 1),
                                   LLVMConstInt(LLVMInt64TypeInContext(L->c), bytes, 0), "");
    LLVMValueRef apart = LLVMBuildOr(L->b, LLVMBuildICmp(L->b, LLVMIntULE, hi, plo, ""),
                                     LLVMBuildICmp(L->b, LLVMIntULE, pend, lo, ""), "");
    safe = LLVMBuildAnd(L->b, safe, apart, "acc.apart");
  }
  cc_vmap_free(&first);
  cc_vmap_free(&last);
  if (oom)
    return 1;

  /* p's value before the loop, where the loop loads it (its first
   * iteration loads it before any store: the same value) */
  LLVMValueRef init = NULL;
  if (L->ld) {
    init = LLVMBuildLoad2(L->b, t, L->p, "acc.init");
    LLVMSetAlignment(init, LLVMGetAlignment(L->ld));
    cc_copy_metadata(L->ld, init);
  }
  cc_vmap map = {0};
  LLVMBasicBlockRef nb = cc_version_self_loop(L->bb, &safe, 1, "acc.loop", &map);
  LLVMValueRef cst = cc_vmap_get(&map, L->st), cld = L->ld ? cc_vmap_get(&map, L->ld) : NULL,
               cbr = cc_vmap_get(&map, L->br);
  cc_vmap_free(&map);
  if (!nb)
    return 1; /* examine saw the shape: only memory can be missing */
  /* in the copy: the load a phi of what the last iteration stored */
  LLVMValueRef stored = LLVMGetOperand(cst, 0);
  if (cld) {
    LLVMPositionBuilderBefore(L->b, LLVMGetFirstInstruction(nb));
    LLVMValueRef acc = LLVMBuildPhi(L->b, t, "acc");
    LLVMValueRef v2[2] = {init, stored};
    LLVMBasicBlockRef b2[2] = {L->pre, nb};
    LLVMAddIncoming(acc, v2, b2, 2);
    LLVMReplaceAllUsesWith(cld, acc);
    LLVMInstructionEraseFromParent(cld);
    stored = LLVMGetOperand(cst, 0); /* acc itself where the loop stores what it loaded */
  }
  /* ... and the store after it, on the copy's way to the exit */
  LLVMInstructionEraseFromParent(cst);
  LLVMBasicBlockRef nx = LLVMAppendBasicBlockInContext(L->c, fn, "acc.exit");
  for (unsigned k = 0; k < 2; k++)
    if (LLVMGetSuccessor(cbr, k) == L->exit)
      LLVMSetSuccessor(cbr, k, nx);
  LLVMPositionBuilderAtEnd(L->b, nx);
  LLVMValueRef st = LLVMBuildStore(L->b, stored, L->p);
  LLVMSetAlignment(st, LLVMGetAlignment(L->st));
  cc_copy_metadata(L->st, st);
  LLVMBuildBr(L->b, L->exit);
  cc_phi_retarget(L->exit, nb, nx);
  set_fallback_md(L, cbr, MD_PROMOTED);
  set_fallback_md(L, L->br, MD_FALLBACK);
  return 0;
}

int wg_accum_version(LLVMValueRef fn, LLVMValueRef lane_br, unsigned *count, char *why, size_t why_size)
{
  LLVMModuleRef mod = LLVMGetGlobalParent(fn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));
  int rc = CC_OK;
  *count = 0;
  if (why_size)
    why[0] = 0;
  for (unsigned round = 0; round < ACC_MAX_LOOPS && rc == CC_OK; round++) {
    cc_cfg cfg;
    if (cc_cfg_build(&cfg, fn)) {
      rc = CC_OUT_OF_MEMORY;
      break;
    }
    int latch = cc_cfg_find(&cfg, LLVMGetInstructionParent(lane_br)), header = -1;
    unsigned char *in = calloc(cfg.n + 1, 1);
    if (!in) {
      cc_cfg_free(&cfg);
      rc = CC_OUT_OF_MEMORY;
      break;
    }
    for (unsigned s = 0; latch >= 0 && s < LLVMGetNumSuccessors(lane_br); s++) {
      int si = cc_cfg_find(&cfg, LLVMGetSuccessor(lane_br, s));
      if (si >= 0 && cc_cfg_dominates(&cfg, (unsigned)si, (unsigned)latch))
        header = si;
    }
    int changed = 0;
    if (header >= 0) {
      cc_cfg_loop(&cfg, (unsigned)header, (unsigned)latch, in);
      for (unsigned i = 0; i < cfg.n && !changed && rc == CC_OK; i++) {
        if (!in[i] || (int)i == latch)
          continue;
        acc_loop L;
        memset(&L, 0, sizeof(L));
        L.m = mod;
        L.c = LLVMGetModuleContext(mod);
        L.td = LLVMGetModuleDataLayout(mod);
        L.b = b;
        L.bb = cfg.block[i];
        const char *no = examine(&L);
        if (no) {
          if (*no && why_size && !why[0])
            snprintf(why, why_size, "%s", no);
          continue;
        }
        if (transform(&L))
          rc = CC_OUT_OF_MEMORY;
        changed = 1;
        (*count)++;
      }
    }
    free(in);
    cc_cfg_free(&cfg);
    if (!changed)
      break;
  }
  LLVMDisposeBuilder(b);
  return rc;
}

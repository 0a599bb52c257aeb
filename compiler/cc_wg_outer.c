/* Lane loops around inner loops: outer-loop vectorization through LLVM's
 * VPlan-native path (-enable-vplan-native-path, set in cc_util.c), and the
 * vectorizer's verdicts in the kernels' reports.
 *
 * A region with a loop inside (nbody's j loop, sgemm's k loop) gets its
 * lane loop marked llvm.loop.vectorize.enable like any other (cc_wg.c).
 * LLVM's usual loop vectorizer only takes innermost loops; the native path
 * takes an outer loop with that hint when its inner loops are uniform: each
 * a count from 0 by 1 to a bound computed outside the lane loop, no other
 * branch on a work-item-dependent value.  It then runs every inner loop
 * once for W work-items, each value a vector.
 *
 * The native path is experimental and checks much less than the usual one:
 * a call it cannot widen crashes it, an instruction it has no recipe for
 * (vector or aggregate values, atomics) crashes it, and a value used after
 * the loop leaves broken IR (the exit's phi gets no value from the vector
 * loop).  So before it runs, wg_outer_vectorize:
 *  1. optimizes the module as default<O3> does, without vectorization or
 *     unrolling (inlining the builtins, canonical inner loops, invariant
 *     trip counts hoisted out of the lane loop), and gives the scope
 *     declarations that inlining a restrict kernel's body left in the lane
 *     loops their access group (cc_tag_scope_decls);
 *  2. checks each marked lane loop that still has inner loops for what the
 *     native path gets wrong (and for divergence, to report a reason of
 *     our own); a lane loop that fails goes to masked widening
 *     (cc_wg_diverge.c: inner loops with a trip count per work-item,
 *     branches on the work-item), which rewrites it into a vector loop
 *     marked vectorized, or leaves it as it was; then it loses its
 *     vectorize hint, and the reasons go into the remarks (cc_diag_note);
 *  3. runs the loop vectorizer on those work-group functions, then takes
 *     the hint off every lane loop that is still not vectorized, so that
 *     cc_optimize's default<O3> treats it as an ordinary loop (it may then
 *     vectorize its inner loops);
 *  4. turns the gathers and scatters of one address or of consecutive
 *     addresses back into plain loads and stores (cc_wg_affine.c): the
 *     native path makes every access a gather.
 * Vectorized loops are marked so, and cc_optimize's O3 leaves them.
 *
 * Verdicts: every lane loop's id carries a debug location (file = kernel,
 * line = state + 1), so LLVM's loop-vectorize remarks name the loop;
 * cc_wg_verdicts turns them into the report's words.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"
#include "compiler/cc_wg_diverge.h"

#include <llvm-c/Transforms/PassBuilder.h>

/* ---- 2. what the native path cannot do ---- */

/* Intrinsics it widens (LLVM's "trivially vectorizable" ones, a subset). */
static const char *const widenable[] = {
    "llvm.fmuladd.", "llvm.fma.", "llvm.sqrt.", "llvm.fabs.", "llvm.minnum.", "llvm.maxnum.",
    "llvm.minimum.", "llvm.maximum.", "llvm.copysign.", "llvm.floor.", "llvm.ceil.", "llvm.trunc.",
    "llvm.rint.", "llvm.nearbyint.", "llvm.round.", "llvm.roundeven.", "llvm.smin.", "llvm.smax.",
    "llvm.umin.", "llvm.umax.", "llvm.abs.", "llvm.ctpop.", "llvm.ctlz.", "llvm.cttz.", "llvm.bswap.",
    "llvm.bitreverse.", "llvm.fshl.", "llvm.fshr.", "llvm.sadd.sat.", "llvm.uadd.sat.", "llvm.ssub.sat.",
    "llvm.usub.sat.", "llvm.exp.", "llvm.exp2.", "llvm.log.", "llvm.log2.", "llvm.log10.", "llvm.sin.",
    "llvm.cos.", "llvm.pow.",
};

int wg_lanewise_intrinsic(LLVMValueRef call)
{
  for (size_t i = 0; i < sizeof(widenable) / sizeof(widenable[0]); i++)
    if (cc_callee_has_prefix(call, widenable[i]))
      return 1;
  return 0;
}

typedef struct outer_loop {
  const cc_cfg *cfg;
  unsigned header, latch;
  const unsigned char *in;  /* in[i]: block i belongs to the lane loop */
} outer_loop;

static int block_in(const outer_loop *L, LLVMBasicBlockRef bb)
{
  int i = cc_cfg_find(L->cfg, bb);
  return i >= 0 && L->in[i];
}

/* v is computed inside the lane loop (else it is the same for every work-item of the loop). */
static int defined_in(const outer_loop *L, LLVMValueRef v)
{
  return LLVMIsAInstruction(v) && block_in(L, LLVMGetInstructionParent(v));
}

int wg_lanewise_opcode(LLVMOpcode op)
{
  switch (op) {
  case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub: case LLVMMul: case LLVMFMul: case LLVMUDiv:
  case LLVMSDiv: case LLVMFDiv: case LLVMURem: case LLVMSRem: case LLVMFRem: case LLVMShl: case LLVMLShr:
  case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMFNeg: case LLVMTrunc: case LLVMZExt:
  case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc:
  case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast: case LLVMAddrSpaceCast:
  case LLVMICmp: case LLVMFCmp: case LLVMSelect: case LLVMGetElementPtr: case LLVMPHI: case LLVMFreeze:
    return 1;
  default:
    return 0;
  }
}

int wg_scalar_type(LLVMTypeRef t)
{
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: case LLVMHalfTypeKind: case LLVMBFloatTypeKind: case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind: case LLVMPointerTypeKind:
    return 1;
  default:
    return 0;
  }
}

const char *wg_shared_problem(LLVMValueRef i, int (*call_ok)(LLVMValueRef), char *buf, size_t size, int *known)
{
  *known = 1;
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMBr:
    return NULL;
  case LLVMLoad: case LLVMStore:
    if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
      return "a volatile or atomic memory access";
    if (LLVMIsAStoreInst(i) && !wg_scalar_type(LLVMTypeOf(LLVMGetOperand(i, 0))))
      return "vector or aggregate values";
    return NULL;
  case LLVMCall: {
    if (call_ok(i))
      return NULL;
    size_t len;
    const char *name = cc_callee_name(i, &len);
    if (!name)
      return "an indirect call";
    snprintf(buf, size, "a call of %.*s", (int)(len < 64 ? len : 64), name);
    return buf;
  }
  case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMFence:
    return "atomics";
  default:
    *known = 0;
    return NULL;
  }
}

static int widenable_call(LLVMValueRef call)
{
  LLVMValueRef f = cc_called_function(call);
  if (!f || !LLVMGetIntrinsicID(f))
    return 0;
  unsigned n = LLVMGetNumArgOperands(call);
  for (unsigned a = 0; a < n; a++)
    if (!wg_scalar_type(LLVMTypeOf(LLVMGetOperand(call, a))))
      return 0;
  return wg_lanewise_intrinsic(call);
}

static const char *opcode_problem(LLVMValueRef i, char *buf, size_t size)
{
  int known;
  const char *why = wg_shared_problem(i, widenable_call, buf, size, &known);
  if (known)
    return why;
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  switch (op) {
  case LLVMExtractElement: case LLVMInsertElement: case LLVMShuffleVector:
    return "vector values";
  case LLVMExtractValue: case LLVMInsertValue:
    return "aggregate values";
  case LLVMSwitch:
    return "a switch";
  default:
    if (wg_lanewise_opcode(op))
      return NULL;
    snprintf(buf, size, "an instruction the native path cannot widen (opcode %d)", (int)op);
    return buf;
  }
}

/* The lane loop's own induction: a phi of its header, or what the latch feeds it. */
static int is_lane_induction(const outer_loop *L, LLVMValueRef v)
{
  LLVMBasicBlockRef h = L->cfg->block[L->header], t = L->cfg->block[L->latch];
  if (LLVMIsAPHINode(v) && LLVMGetInstructionParent(v) == h)
    return 1;
  for (LLVMValueRef p = LLVMGetFirstInstruction(h); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
    unsigned n = LLVMCountIncoming(p);
    for (unsigned k = 0; k < n; k++)
      if (LLVMGetIncomingBlock(p, k) == t && LLVMGetIncomingValue(p, k) == v)
        return 1;
  }
  return 0;
}

/* The start value of the inner loop headed by h (from outside it: a
 * predecessor that h does not dominate), NULL when not a single one. */
static LLVMValueRef inner_start(const outer_loop *L, LLVMValueRef phi, unsigned h)
{
  LLVMValueRef start = NULL;
  unsigned n = LLVMCountIncoming(phi);
  for (unsigned k = 0; k < n; k++) {
    int p = cc_cfg_find(L->cfg, LLVMGetIncomingBlock(phi, k));
    if (p < 0 || cc_cfg_dominates(L->cfg, h, (unsigned)p))
      continue;
    if (start && start != LLVMGetIncomingValue(phi, k))
      return NULL;
    start = LLVMGetIncomingValue(phi, k);
  }
  return start;
}

/* The latch branch of an inner loop (header h): its trip count must be the
 * same for every work-item, and in the form the native path takes: the
 * header's counter from 0 by 1, compared after the increment with a bound
 * computed outside the lane loop. */
static const char *inner_latch_problem(const outer_loop *L, LLVMValueRef cond, unsigned h)
{
  static const char varying[] = "the trip count of an inner loop depends on the work-item";
  static const char form[] = "an inner loop is not a count from 0 by 1 to a bound (what the native path takes)";
  if (!LLVMIsAICmpInst(cond))
    return varying;
  LLVMValueRef a = LLVMGetOperand(cond, 0), b = LLVMGetOperand(cond, 1);
  if (defined_in(L, a) && defined_in(L, b))
    return varying;
  LLVMValueRef next = defined_in(L, a) ? a : b;
  if (LLVMGetInstructionOpcode(next) != LLVMAdd)
    return form;
  LLVMValueRef phi = LLVMGetOperand(next, 0), step = LLVMGetOperand(next, 1);
  if (!LLVMIsAPHINode(phi)) {
    LLVMValueRef t = phi;
    phi = step;
    step = t;
  }
  if (!LLVMIsAPHINode(phi) || LLVMGetInstructionParent(phi) != L->cfg->block[h])
    return form;
  LLVMValueRef start = inner_start(L, phi, h);
  if (!start || defined_in(L, start))
    return start ? varying : form;
  if (!LLVMIsAConstantInt(step) || LLVMConstIntGetZExtValue(step) != 1 || !LLVMIsAConstantInt(start) ||
      LLVMConstIntGetZExtValue(start) != 0)
    return form;
  return NULL;
}

/* NULL when the native path can take the lane loop L, else why not (what
 * it would get wrong first, then an inner loop's trip count, then other
 * divergent branches, often the guards of such loops). */
static const char *outer_problem(const outer_loop *L, char *buf, size_t size)
{
  const cc_cfg *cfg = L->cfg;
  const char *trip = NULL, *branch = NULL;
  for (unsigned bi = 0; bi < cfg->n; bi++) {
    if (!L->in[bi])
      continue;
    LLVMBasicBlockRef bb = cfg->block[bi];
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      const char *why = opcode_problem(i, buf, size);
      if (!why && LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind && !wg_scalar_type(LLVMTypeOf(i)))
        why = "vector or aggregate values";
      if (why)
        return why;
      for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user) && !block_in(L, LLVMGetInstructionParent(user)) && !is_lane_induction(L, i))
          return "a value of the lane loop is used after it (the region ends at more than one boundary)";
      }
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (bi == L->latch || !t || !LLVMIsABranchInst(t) || !LLVMIsConditional(t) ||
        !defined_in(L, LLVMGetCondition(t)))
      continue;
    /* A branch on a value of the work-item: fine only as an inner loop's latch. */
    int inner = -1;
    for (unsigned s = 0; s < 2; s++) {
      int si = cc_cfg_find(cfg, LLVMGetSuccessor(t, s));
      if (si >= 0 && (unsigned)si != L->header && L->in[si] && cc_cfg_dominates(cfg, (unsigned)si, bi))
        inner = si;
    }
    if (inner < 0 && !branch)
      branch = "a branch depends on the work-item (divergent control flow around an inner loop)";
    if (inner >= 0 && !trip)
      trip = inner_latch_problem(L, LLVMGetCondition(t), (unsigned)inner);
  }
  return trip ? trip : branch;
}

/* The lane loop has a loop inside it: a back edge between two of its blocks
 * other than its own. */
static int has_inner_loop(const outer_loop *L)
{
  const cc_cfg *cfg = L->cfg;
  for (unsigned bi = 0; bi < cfg->n; bi++) {
    if (!L->in[bi] || bi == L->latch)
      continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[bi]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns; s++) {
      int si = cc_cfg_find(cfg, LLVMGetSuccessor(t, s));
      if (si >= 0 && L->in[si] && cc_cfg_dominates(cfg, (unsigned)si, bi))
        return 1;
    }
  }
  return 0;
}

/* The vectorize hint of a latch branch is on. */
static int asks_vectorization(LLVMValueRef br)
{
  LLVMValueRef v = cc_loop_prop(br, "llvm.loop.vectorize.enable");
  return v && LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v);
}

static int is_vectorized(LLVMValueRef br)
{
  LLVMValueRef v = cc_loop_prop(br, "llvm.loop.isvectorized");
  return v && LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v);
}

/* A note for the report in the remarks' format, at the loop's location. */
static void note(LLVMValueRef br, const char *prefix, const char *why)
{
  LLVMMetadataRef loc = cc_loop_debug_loc(br);
  if (!loc)
    return;
  unsigned col, len;
  const char *file;
  unsigned line = cc_dbg_loc_line(loc, &col, &file, &len);
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(br));
  cc_diag_note(LLVMGetModuleContext(LLVMGetGlobalParent(fn)), "%.*s:%u:%u: %s%s", (int)len, file ? file : "", line,
               col, prefix, why);
}

/* Vector bits / 32 from the work-group function's prefer-vector-width. */
static unsigned lane_width(LLVMValueRef fn)
{
  static const char k[] = "prefer-vector-width";
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, k, sizeof(k) - 1);
  unsigned len = 0, bits = 128;
  const char *v = a ? LLVMGetStringAttributeValue(a, &len) : NULL;
  if (v && len && len < 8) {
    char tmp[8];
    memcpy(tmp, v, len);
    tmp[len] = 0;
    bits = (unsigned)strtoul(tmp, NULL, 10);
  }
  return bits / 32;
}

/* A lane loop the native path refused, for masked widening. */
typedef struct refused {
  LLVMValueRef br;
  char why[160];
} refused;

/* Masked widening (cc_wg_diverge.c) of each refused lane loop; those it
 * cannot take lose the hint, with both reasons. */
static int widen_refused(LLVMValueRef fn, refused *r, unsigned nr, char **err)
{
  unsigned W = lane_width(fn);
  int rc = CC_OK;
  for (unsigned k = 0; k < nr && rc == CC_OK; k++) {
    /* accumulators in memory first (cc_wg_accum.c): its copies are loops
     * masked widening takes */
    unsigned naccum = 0;
    char accum_why[120];
    if (W >= 2 && wg_accum_version(fn, r[k].br, &naccum, accum_why, sizeof(accum_why)))
      return CC_OUT_OF_MEMORY;
    if (naccum) {
      char msg[160];
      snprintf(msg, sizeof(msg),
               "%u inner loop%s keep%s the sum it stores in a register (as written where what it reads overlaps it)",
               naccum, naccum > 1 ? "s" : "", naccum > 1 ? "" : "s");
      note(r[k].br, "accum: ", msg);
    } else if (accum_why[0]) {
      note(r[k].br, "accum: an inner loop stores through memory in each iteration: ", accum_why);
    }
    cc_cfg cfg;
    if (cc_cfg_build(&cfg, fn))
      return CC_OUT_OF_MEMORY;
    int latch = cc_cfg_find(&cfg, LLVMGetInstructionParent(r[k].br)), header = -1;
    unsigned char *in = calloc(cfg.n + 1, 1);
    if (!in) {
      cc_cfg_free(&cfg);
      return CC_OUT_OF_MEMORY;
    }
    for (unsigned s = 0; latch >= 0 && s < LLVMGetNumSuccessors(r[k].br); s++) {
      int si = cc_cfg_find(&cfg, LLVMGetSuccessor(r[k].br, s));
      if (si >= 0 && cc_cfg_dominates(&cfg, (unsigned)si, (unsigned)latch))
        header = si;
    }
    int done = 0;
    char why[160] = "the lane loop changed";
    if (header >= 0) {
      cc_cfg_loop(&cfg, (unsigned)header, (unsigned)latch, in);
      rc = wg_diverge_widen(fn, &cfg, (unsigned)header, (unsigned)latch, in, W, &done, why, sizeof(why));
    }
    free(in);
    cc_cfg_free(&cfg);
    if (rc == CC_INTERNAL)
      cc_set_err(err, "%s", why);
    if (done) {
      char msg[64];
      snprintf(msg, sizeof(msg), "(vectorization width: %u)", W);
      note(r[k].br, "vectorized masked lane-varying loops ", msg);
    } else if (rc == CC_OK) {
      char msg[340];
      if (!strcmp(r[k].why, why))
        snprintf(msg, sizeof(msg), "%s", why);
      else
        snprintf(msg, sizeof(msg), "%s (masked widening: %s)", r[k].why, why);
      note(r[k].br, "loop not vectorized: ", msg);
      cc_loop_drop_props(r[k].br, "llvm.loop.vectorize.");
    }
  }
  return rc;
}

/* Step 2 on one function: each lane loop with the hint and inner loops
 * that the native path would get wrong loses the hint. */
static int check_function(LLVMValueRef fn, char **err)
{
  cc_cfg cfg;
  if (cc_cfg_build(&cfg, fn))
    return CC_OUT_OF_MEMORY;
  unsigned char *in = malloc(cfg.n + 1);
  if (!in) {
    cc_cfg_free(&cfg);
    return CC_OUT_OF_MEMORY;
  }
  refused *ref = NULL;
  unsigned nref = 0;
  int rc = CC_OK;
  for (unsigned bi = 0; bi < cfg.n; bi++) {
    LLVMValueRef br = LLVMGetBasicBlockTerminator(cfg.block[bi]);
    if (!br || !LLVMIsABranchInst(br) || !asks_vectorization(br))
      continue;
    int header = -1;
    for (unsigned s = 0; s < LLVMGetNumSuccessors(br); s++) {
      int si = cc_cfg_find(&cfg, LLVMGetSuccessor(br, s));
      if (si >= 0 && cc_cfg_dominates(&cfg, (unsigned)si, bi))
        header = si;
    }
    if (header < 0)
      continue;
    memset(in, 0, cfg.n + 1);
    cc_cfg_loop(&cfg, (unsigned)header, bi, in);
    outer_loop L = {&cfg, (unsigned)header, bi, in};
    if (!has_inner_loop(&L))
      continue; /* innermost: the vectorizer's usual path */
    char buf[160];
    const char *why = outer_problem(&L, buf, sizeof(buf));
    if (why) {
      refused *grown = realloc(ref, (nref + 1) * sizeof(*ref));
      if (!grown) {
        rc = CC_OUT_OF_MEMORY;
        break;
      }
      ref = grown;
      ref[nref].br = br;
      snprintf(ref[nref++].why, sizeof(ref->why), "%s", why);
    }
  }
  free(in);
  cc_cfg_free(&cfg);
  if (rc == CC_OK)
    rc = widen_refused(fn, ref, nref, err);
  free(ref);
  return rc;
}

/* Step 3's end: lane loops still asking for vectorization were refused. */
static void drop_refused_hints(LLVMValueRef fn)
{
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
    if (br && LLVMIsABranchInst(br) && asks_vectorization(br) && !is_vectorized(br))
      cc_loop_drop_props(br, "llvm.loop.vectorize.");
  }
}

static int run_pipeline(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, int vectorize, char **err)
{
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(opts, vectorize);
  LLVMPassBuilderOptionsSetSLPVectorization(opts, 0);
  LLVMPassBuilderOptionsSetLoopInterleaving(opts, vectorize);
  LLVMPassBuilderOptionsSetLoopUnrolling(opts, 0);
  LLVMErrorRef e = LLVMRunPasses(m, passes, tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (!e)
    return CC_OK;
  char *msg = LLVMGetErrorMessage(e);
  cc_set_err(err, "internal error: %s before outer-loop vectorization: %s", passes, msg);
  LLVMDisposeErrorMessage(msg);
  return CC_INTERNAL;
}

/* The vectorize hints of fn's loops renamed from `from` to `to`: default<O3>
 * vectorizes the loops that ask for it even with vectorization off, so
 * step 1 runs with the hints out of its sight. */
static void rename_hints(LLVMValueRef fn, const char *from, const char *to)
{
  LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
    LLVMValueRef v = br && LLVMIsABranchInst(br) ? cc_loop_prop(br, from) : NULL;
    if (v && LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v))
      cc_loop_replace_prop(br, from, cc_md_prop_bool(ctx, to, 1));
  }
}

#define HIDDEN_HINT "lanecl.vectorize"

int wg_outer_vectorize(LLVMModuleRef m, LLVMTargetMachineRef tm, char **err)
{
  unsigned n;
  int oom;
  LLVMValueRef *fns = cc_take_attributed_functions(m, WG_OUTER_ATTR, &n, &oom);
  if (oom)
    return CC_OUT_OF_MEMORY;
  if (!n)
    return CC_OK;
  double t0 = cc_now_ms();
  for (unsigned i = 0; i < n; i++)
    rename_hints(fns[i], "llvm.loop.vectorize.enable", HIDDEN_HINT);
  int rc = run_pipeline(m, tm, "thinlto-pre-link<O3>", 0, err);
  int native_half = cc_native_half(tm);
  for (unsigned i = 0; i < n; i++) {
    rename_hints(fns[i], HIDDEN_HINT, "llvm.loop.vectorize.enable");
    cc_half_lane_widths(fns[i], 0, native_half);
  }
  cc_tag_scope_decls(m); /* the bodies are inlined now */
  for (unsigned i = 0; i < n && rc == CC_OK; i++)
    rc = check_function(fns[i], err);
  char *msg = NULL;
  if (rc == CC_OK && cc_run_passes_on(m, tm, "function(loop-vectorize)", fns, n, &msg)) {
    cc_set_err(err, "internal error: outer-loop vectorization: %s", msg);
    rc = CC_INTERNAL;
  }
  free(msg);
  for (unsigned i = 0; i < n && rc == CC_OK; i++) {
    drop_refused_hints(fns[i]);
    wg_plain_accesses(fns[i]);
  }
  free(fns);
  cc_timing("outer loops", t0);
  return rc;
}

/* ---- verdicts ---- */

typedef struct verdict {
  unsigned width;   /* widest vectorization of the loop (0: none) */
  int outer;        /* vectorized as an outer loop */
  int masked;       /* by masked widening (cc_wg_diverge.c) */
  int refused;      /* some copy of the loop was not vectorized */
  char why[360];    /* the first reason given (both widenings' reasons: up to 340 bytes) */
  int why_rank;     /* 2 a reason, 1 only "loop not vectorized" */
  char rows[240];   /* what cc_wg_rows.c made of its inner loop's gathers ("" nothing) */
  char accum[200];  /* what cc_wg_accum.c made of its inner loops' stores ("" nothing) */
  int rows_done;    /* ... it read some as rows */
} verdict;

/* The remarks located at name:line:... */
static void collect_verdict(const char *remarks, const char *name, unsigned line, verdict *v)
{
  size_t nlen = strlen(name);
  memset(v, 0, sizeof(*v));
  for (const char *p = remarks; p && *p;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    const char *next = eol ? eol + 1 : p + len;
    char *end;
    if (len <= nlen || memcmp(p, name, nlen) || p[nlen] != ':' ||
        strtoul(p + nlen + 1, &end, 10) != line || *end != ':') {
      p = next;
      continue;
    }
    const char *msg = memmem(end + 1, (size_t)(p + len - (end + 1)), ": ", 2);
    if (!msg) {
      p = next;
      continue;
    }
    msg += 2;
    size_t mlen = (size_t)(p + len - msg);
    const char *w = memmem(msg, mlen, "(vectorization width: ", 22);
    if (mlen > 7 && !strncmp(msg, "accum: ", 7)) {
      if (!v->accum[0])
        snprintf(v->accum, sizeof(v->accum), "%.*s", (int)(mlen - 7), msg + 7);
    } else if (mlen > 6 && !strncmp(msg, "rows: ", 6)) {
      /* one verdict per lane loop: a form taken wins over one refused */
      int done = mlen > 22 && !strncmp(msg + 6, "inner loop reads ", 17);
      if (!v->rows[0] || (done && !v->rows_done)) {
        snprintf(v->rows, sizeof(v->rows), "%.*s", (int)(mlen - 6), msg + 6);
        v->rows_done = done;
      }
    } else if (!strncmp(msg, "vectorized ", 11) && w) {
      unsigned width = (unsigned)strtoul(w + 22, NULL, 10);
      if (width > v->width)
        v->width = width;
      v->outer |= !strncmp(msg, "vectorized outer loop", 21);
      v->masked |= !strncmp(msg, "vectorized masked", 17);
    } else if ((!strncmp(msg, "loop not vectorized", 19) && !memmem(msg, mlen, "already been vectorized", 23)) ||
               !strncmp(msg, "the cost-model indicates that vectorization", 43)) {
      /* (remarks about interleaving, unrolling or deleting a copy of the loop say nothing here) */
      static const char lnv[] = "loop not vectorized";
      int rank = 2;
      const char *why = msg;
      size_t wlen = mlen;
      if (mlen >= sizeof(lnv) - 1 && !memcmp(msg, lnv, sizeof(lnv) - 1)) {
        why = msg + sizeof(lnv) - 1;
        wlen = mlen - (sizeof(lnv) - 1);
        if (wlen >= 2 && why[0] == ':' && why[1] == ' ') {
          why += 2;
          wlen -= 2;
        } else {
          rank = 1;
        }
      }
      v->refused = 1;
      if (rank > v->why_rank) {
        v->why_rank = rank;
        snprintf(v->why, sizeof(v->why), "%.*s", (int)wlen, why);
      }
    }
    p = next;
  }
}

static void put_verdict(cc_str *out, const verdict *v)
{
  if (v->width > 1) {
    cc_str_printf(out, "lane loop vectorized%s, width %u",
                  v->masked && v->outer ? " (outer loop; a copy of it masked: inner loops run while any lane is active)"
                  : v->masked           ? " (masked: inner loops run while any lane is active)"
                  : v->outer            ? " (outer loop)"
                                        : "",
                  v->width);
    if (v->refused && v->why_rank == 2)
      cc_str_printf(out, " (a copy of it not: %s)", v->why);
  } else if (v->why_rank == 2) {
    cc_str_printf(out, "lane loop not vectorized: %s", v->why);
  } else if (v->refused) {
    cc_str_printf(out, "lane loop not vectorized");
  } else {
    cc_str_printf(out, "lane loop not vectorized (no remark from LLVM: the loop was removed or merged)");
  }
}

void cc_wg_verdicts(cc_kernel_info *kinfo, uint32_t nkernels, const char *remarks)
{
  size_t plen = strlen(CC_LANE_LOOP_PENDING);
  for (uint32_t k = 0; k < nkernels; k++) {
    cc_kernel_info *ki = &kinfo[k];
    if (!ki->report || !ki->name || !strstr(ki->report, CC_LANE_LOOP_PENDING))
      continue;
    cc_str out = {0};
    unsigned asked = 0, done = 0, widest = 0;
    for (const char *p = ki->report; *p;) {
      const char *eol = strchr(p, '\n');
      size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
      const char *hit = strstr(p, CC_LANE_LOOP_PENDING);
      unsigned region;
      if (hit && hit < p + len && sscanf(p, "  region %u:", &region) == 1) {
        verdict v;
        collect_verdict(remarks, ki->name, region + 1, &v);
        cc_str_append(&out, p, (size_t)(hit - p));
        put_verdict(&out, &v);
        cc_str_append(&out, hit + plen, len - (size_t)(hit - p) - plen);
        if (v.accum[0]) /* cc_wg_accum.c's, before widening */
          cc_str_printf(&out, "%s    %s\n", p[len - 1] == '\n' ? "" : "\n", v.accum);
        if (v.rows[0]) /* cc_wg_rows.c's verdict on the inner loop, a line of its own */
          cc_str_printf(&out, "%s    %s\n", p[len - 1] == '\n' || v.accum[0] ? "" : "\n", v.rows);
        asked++;
        if (v.width > 1) {
          done++;
          widest = v.width > widest ? v.width : widest;
        }
      } else {
        cc_str_append(&out, p, len);
      }
      p += len;
    }
    cc_str_printf(&out, "  lane loops vectorized: %u of %u", done, asked);
    if (widest)
      cc_str_printf(&out, ", widest %u lanes", widest);
    cc_str_append(&out, "\n", 1);
    free(ki->report);
    ki->report = cc_str_take(&out);
    ki->simd_width = widest ? widest : 1;
  }
}

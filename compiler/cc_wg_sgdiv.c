/* Sub-group operations in divergent control flow, and the non-uniform
 * sub-group functions (cl_khr_subgroup_ballot, cl_khr_subgroup_non_uniform_vote,
 * cl_khr_subgroup_non_uniform_arithmetic).
 *
 * A sub-group operation is a boundary of the work-group function: every
 * work-item of the group must reach it (cc_wg.c).  One under a branch that
 * differs between work-items (`if (get_sub_group_id() == 0)
 * sub_group_barrier(...)`, `if (lid % 3 == 0) x =
 * sub_group_non_uniform_reduce_add(v)`) is moved out of the branch by
 * predication of the single-entry, single-exit region around it:
 *
 *   F: the nearest dominator of the operation every work-item runs;
 *   J: the nearest post-dominator of the operation every work-item runs
 *      (and that post-dominates F);
 *   POST: the blocks after the operation, up to J.
 *
 * Each work-item runs the region's blocks before the operation as it would
 * (its own path), then every one of them goes through one block P holding
 * the operation, then on along its own path: the work-item that was to run
 * the operation into the blocks after it, any other one to the block it was
 * going to when it left the blocks before.  Every path from F to J crosses
 * from the blocks before into POST or J exactly once, so each such edge
 * stores where it was going (a per-work-item value, `target`) and goes to
 * P, and P's switch on `target` goes there after the operation.  A
 * per-work-item flag `act`, cleared in F and set where the path reaches the
 * operation, is the active mask: a non-uniform operation in P folds only
 * the lanes with `act` set.  `act`, `target` and every value that crosses
 * a block (demoted to allocas first) live in the work-group's frame across
 * the boundary like any other value.  P is on every path from F, so a second
 * operation in the same branch finds a smaller region after it.
 *
 * The non-uniform functions become the uniform ones on masked operands:
 * reduce and scan of an operation fold its identity for the inactive lanes
 * (an exclusive scan's first active lane gets the identity); all, any,
 * elect, ballot and broadcast_first reduce the mask itself; the ballot bit
 * functions and the sub-group masks are arithmetic on the lane's local id.
 * Sub-groups are at most 32 work-items (cc_wg_subgroup.c), so a ballot is
 * its first 32-bit component.
 *
 * A loop whose trip count may differ between the work-items (a divergent
 * branch leaves it) and that holds a sub-group operation runs while any
 * work-item of the group is in it, one iteration per trip for the
 * work-items still in it (see "loops" below); inside a trip the operation
 * is predicated as in a branch, so a non-uniform function folds exactly
 * the work-items that reach it in that trip.  A uniform one is right where
 * every work-item of its sub-group reaches it in the trip (a trip count
 * the same in a sub-group), as the spec requires.
 *
 * What is not lowered: a loop that also holds a barrier, a work-group
 * function or an async copy (every work-item of the group must reach those
 * as often), an irreducible cycle, code whose paths may end without
 * reaching a common post-dominator.  A non-uniform function there is a
 * build error naming it (and, for a loop, what is in the way); a uniform
 * one stays where it is, a boundary every work-item of the group must
 * reach.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

enum { SK_NONE, SK_UNIFORM, SK_NONUNI, SK_PURE };

static int sg_kind(LLVMValueRef call, wg_mangled *mg)
{
  size_t r;
  if (!LLVMIsACallInst(call) || !wg_demangle(call, mg))
    return SK_NONE;
  if (wg_ident_is(mg, "get_sub_group_eq_mask") || wg_ident_is(mg, "get_sub_group_ge_mask") ||
      wg_ident_is(mg, "get_sub_group_gt_mask") || wg_ident_is(mg, "get_sub_group_le_mask") ||
      wg_ident_is(mg, "get_sub_group_lt_mask") || wg_ident_is(mg, "sub_group_inverse_ballot") ||
      wg_ident_starts(mg, "sub_group_ballot_", &r))
    return SK_PURE;
  if (wg_ident_is(mg, "sub_group_elect") || wg_ident_is(mg, "sub_group_ballot") ||
      wg_ident_is(mg, "sub_group_broadcast_first") || wg_ident_starts(mg, "sub_group_non_uniform_", &r))
    return SK_NONUNI;
  if (wg_ident_is(mg, "sub_group_barrier") || wg_ident_is(mg, "sub_group_all") || wg_ident_is(mg, "sub_group_any") ||
      wg_ident_is(mg, "sub_group_broadcast") || wg_ident_starts(mg, "sub_group_reduce_", &r) ||
      wg_ident_starts(mg, "sub_group_scan_", &r) || wg_ident_starts(mg, "sub_group_clustered_", &r) ||
      wg_ident_starts(mg, "sub_group_shuffle", &r) || wg_ident_is(mg, "sub_group_rotate"))
    return SK_UNIFORM;
  return SK_NONE;
}

typedef struct sg_op {
  LLVMValueRef call;
  int kind;
  LLVMValueRef act; /* the active flag (an i32 alloca), NULL: every work-item */
  int done;
  int noloop;       /* its loop can't run while any work-item is in it: why */
  char why[112];
} sg_op;

/* ---- predication ---- */

/* Every `ret` of the body in one block (the post-dominators then meet). */
static void unify_returns(wg_gen *g)
{
  LLVMValueRef rets[64];
  unsigned n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMGetInstructionOpcode(t) == LLVMRet && n < 64)
      rets[n++] = t;
  }
  if (n < 2)
    return;
  LLVMBasicBlockRef one = LLVMAppendBasicBlockInContext(g->c, g->body, "ret.all");
  LLVMPositionBuilderAtEnd(g->b, one);
  LLVMBuildRet(g->b, LLVMConstInt(g->t_i32, (unsigned long long)-1, 1));
  for (unsigned i = 0; i < n; i++) {
    LLVMPositionBuilderBefore(g->b, rets[i]);
    LLVMBuildBr(g->b, one);
    LLVMInstructionEraseFromParent(rets[i]);
  }
}

static LLVMValueRef entry_alloca(wg_gen *g, const char *name)
{
  LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(g->body);
  LLVMPositionBuilderBefore(g->b, LLVMGetFirstInstruction(e));
  return LLVMBuildAlloca(g->b, g->t_i32, name);
}

static void store_before_term(wg_gen *g, LLVMBasicBlockRef bb, LLVMValueRef v, LLVMValueRef p)
{
  LLVMPositionBuilderBefore(g->b, LLVMGetBasicBlockTerminator(bb));
  LLVMBuildStore(g->b, v, p);
}

/* Predication of the unit XE..XX: XE's one predecessor is the path's way
 * in, XX's one successor its way on; a unit is one operation's block
 * (XE == XX) or a loop run while any work-item is in it (below), whose
 * blocks reach the rest only through XX.  *act_out: the active flag.
 * 1: predicated; 0: the region is not one predication handles (a loop, no
 * common post-dominator); <0: out of memory. */
static int predicate_unit(wg_gen *g, LLVMBasicBlockRef XE, LLVMBasicBlockRef XX, LLVMValueRef *act_out,
                          const wg_uni *u, const unsigned *ipdom)
{
  const cc_cfg *cfg = &u->cfg;
  unsigned n = cfg->n;
  int xe = cc_cfg_find(cfg, XE), xc = cc_cfg_find(cfg, XX);
  if (xe < 0 || xc < 0 || cfg->pred_start[xe + 1] - cfg->pred_start[xe] != 1)
    return 0;
  unsigned xpre = cfg->pred[cfg->pred_start[xe]];
  LLVMValueRef xterm = LLVMGetBasicBlockTerminator(XX);
  if (!xterm || LLVMGetNumSuccessors(xterm) != 1)
    return 0;
  LLVMBasicBlockRef Xpost = LLVMGetSuccessor(xterm, 0);
  int xpost = cc_cfg_find(cfg, Xpost);
  unsigned f = (unsigned)xe;
  while (u->div_block[f] && f)
    f = cfg->idom[f];
  if (u->div_block[f])
    return 0;
  unsigned j = ipdom[xc];
  while (j < n && u->div_block[j])
    j = ipdom[j];
  if (j >= n || xpost < 0)
    return 0;
  unsigned k = f;
  while (k < n && k != j)
    k = ipdom[k];
  if (k != j)
    return 0;
  unsigned char *inR = malloc(n + 1), *post = malloc(n + 1);
  unsigned *stack = malloc((n + 1) * sizeof(*stack));
  LLVMBasicBlockRef *targets = malloc((n + 2) * sizeof(*targets));
  int rc = -1;
  if (!inR || !post || !stack || !targets)
    goto done;
  rc = 0;
  cc_cfg_reach(cfg, f, (int)j, inR, stack);
  cc_cfg_reach(cfg, (unsigned)xc, (int)j, post, stack); /* from XX's successor, X_post */
  if (inR[f] || post[xc] || post[xe] || post[xpre] || post[f])
    goto done; /* a cycle through the unit or F: a loop */

  LLVMValueRef act = entry_alloca(g, "sg.act");
  LLVMValueRef tgt = entry_alloca(g, "sg.target");
  store_before_term(g, cfg->block[f], wg_c32(g, 0), act);
  store_before_term(g, cfg->block[xpre], wg_c32(g, 1), act);
  store_before_term(g, cfg->block[xpre], wg_c32(g, 0), tgt);
  unsigned nt = 0;
  targets[nt++] = Xpost;
  /* The edges from the blocks before into POST or J: through the unit. */
  for (unsigned b = 0; b < n; b++) {
    if (!(b == f || inR[b]) || post[b] || b == (unsigned)xc)
      continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[b]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns; s++) {
      LLVMBasicBlockRef S = LLVMGetSuccessor(t, s);
      int si = cc_cfg_find(cfg, S);
      if (si < 0 || !((unsigned)si == j || post[si]))
        continue;
      unsigned id = 0;
      while (id < nt && targets[id] != S)
        id++;
      if (id == nt)
        targets[nt++] = S;
      LLVMBasicBlockRef e = LLVMAppendBasicBlockInContext(g->c, g->body, "sg.skip");
      LLVMPositionBuilderAtEnd(g->b, e);
      LLVMBuildStore(g->b, wg_c32(g, id), tgt);
      LLVMBuildBr(g->b, XE);
      LLVMSetSuccessor(t, s, e);
    }
  }
  /* XX: on where each work-item was going. */
  LLVMPositionBuilderBefore(g->b, xterm);
  LLVMValueRef tv = LLVMBuildLoad2(g->b, g->t_i32, tgt, "sg.target");
  LLVMValueRef sw = LLVMBuildSwitch(g->b, tv, Xpost, nt - 1);
  for (unsigned i = 1; i < nt; i++)
    LLVMAddCase(sw, wg_c32(g, i), targets[i]);
  LLVMInstructionEraseFromParent(xterm);
  *act_out = act;
  rc = 1;
done:
  free(inR);
  free(post);
  free(stack);
  free(targets);
  return rc;
}

static int predicate_one(wg_gen *g, sg_op *op, const wg_uni *u, const unsigned *ipdom)
{
  LLVMBasicBlockRef XC = LLVMGetInstructionParent(op->call);
  return predicate_unit(g, XC, XC, &op->act, u, ipdom);
}

/* ---- loops whose trip count differs between work-items ----
 *
 * The natural loop L (header H) that holds a sub-group operation and that a
 * divergent branch leaves becomes a loop that runs while any work-item of
 * the group is in it, one iteration of L per trip:
 *
 *   UP -> UE:  in = 1 (or, if the loop is itself predicated, its act)
 *   NH:        if (in) H else NL
 *   L's blocks as they were, but: a back edge to H goes to NL; an edge out
 *              of L stores in = 0 and which exit it was (exit) and goes to NL
 *   NL:        if (work_group_any(in)) NH else UX
 *   UX -> EXD: switch (exit) to L's exits
 *
 * Inside a trip every work-item runs NH and NL, so NH..NL is an acyclic
 * region of one iteration and the operations in it are predicated as in a
 * branch (F = NH at the outermost, J = NL): the active set of an operation
 * is the work-items that reach it in that trip.  A work-item that left
 * waits (in = 0, inactive) until every work-item of the group has left.
 * Until every operation is predicated, NL branches on a placeholder the
 * uniformity analysis takes as uniform; then it becomes the group's any
 * (a boundary, uniform).  UE..UX is one unit for the predication of the
 * code around it (a loop in a divergent branch or in another loop): UP
 * sets its act, and in starts as act. */
typedef struct sg_loop {
  LLVMValueRef in;          /* i32 alloca: the work-item is still in the loop */
  LLVMValueRef in_init;     /* the store of in's first value in UE */
  LLVMValueRef cond;        /* the placeholder NL branches on */
  LLVMBasicBlockRef ue, ux, nl, nh;
  LLVMValueRef op;          /* the first sub-group operation in it (for messages) */
  int done;
} sg_loop;

/* The blocks of the natural loop of header h (every back edge to it) in
 * in[]; the count (0: h heads no loop). */
static unsigned natural_loop(const cc_cfg *cfg, unsigned h, unsigned char *in)
{
  unsigned cnt = 0;
  memset(in, 0, cfg->n + 1);
  for (unsigned k = cfg->pred_start[h]; k < cfg->pred_start[h + 1]; k++)
    if (cc_cfg_dominates(cfg, h, cfg->pred[k]))
      cc_cfg_loop(cfg, h, cfg->pred[k], in);
  for (unsigned b = 0; b < cfg->n; b++)
    cnt += in[b];
  return cnt;
}

static int loop_exit_divergent(const wg_uni *u, const unsigned char *in)
{
  const cc_cfg *cfg = &u->cfg;
  for (unsigned b = 0; b < cfg->n; b++) {
    if (!in[b] || !u->div_term[b])
      continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[b]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns; s++) {
      int x = cc_cfg_find(cfg, LLVMGetSuccessor(t, s));
      if (x >= 0 && !in[x])
        return 1;
    }
  }
  return 0;
}

/* What in the loop keeps it from being run while any work-item is in it:
 * a boundary that is no sub-group operation (a barrier, a work-group
 * function, an async copy: every work-item of the group must reach it as
 * often), or a block ending in `unreachable`.  NULL: nothing. */
static const char *loop_obstacle(const cc_cfg *cfg, const unsigned char *in, char *buf, size_t cap)
{
  for (unsigned b = 0; b < cfg->n; b++) {
    if (!in[b])
      continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[b]); i; i = LLVMGetNextInstruction(i)) {
      wg_mangled mg;
      wg_boundary bd;
      const char *why = NULL;
      if (!LLVMIsACallInst(i) || sg_kind(i, &mg) != SK_NONE)
        continue;
      if (wg_classify_boundary(i, &bd, &why) && wg_demangle(i, &mg)) {
        snprintf(buf, cap, "the loop also holds %.*s, which every work-item of the group must reach as often",
                 (int)mg.ilen, mg.ident);
        return buf;
      }
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[b]);
    if (t && LLVMGetInstructionOpcode(t) == LLVMUnreachable) {
      snprintf(buf, cap, "a path in the loop ends in unreachable code");
      return buf;
    }
  }
  return NULL;
}

static LLVMBasicBlockRef new_block(wg_gen *g, const char *name)
{
  return LLVMAppendBasicBlockInContext(g->c, g->body, name);
}

/* Rewrites the loop of header h (blocks in[]) as described above. */
static int transform_loop(wg_gen *g, const cc_cfg *cfg, unsigned h, const unsigned char *in, sg_loop *lp)
{
  LLVMBasicBlockRef H = cfg->block[h];
  unsigned n = cfg->n;
  LLVMBasicBlockRef *exits = malloc((n + 2) * sizeof(*exits));
  if (!exits)
    return CC_OUT_OF_MEMORY;
  LLVMValueRef inp = entry_alloca(g, "sg.in");
  LLVMValueRef exitp = entry_alloca(g, "sg.exit");
  LLVMBasicBlockRef UP = new_block(g, "sg.loop.pre"), UE = new_block(g, "sg.loop.entry"),
                    NH = new_block(g, "sg.loop.head"), NL = new_block(g, "sg.loop.latch"),
                    UX = new_block(g, "sg.loop.exit"), EXD = new_block(g, "sg.loop.dispatch");
  /* The way in: every edge into H from outside the loop. */
  for (unsigned k = cfg->pred_start[h]; k < cfg->pred_start[h + 1]; k++) {
    unsigned p = cfg->pred[k];
    if (in[p])
      continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[p]);
    unsigned ns = LLVMGetNumSuccessors(t);
    for (unsigned s = 0; s < ns; s++)
      if (LLVMGetSuccessor(t, s) == H)
        LLVMSetSuccessor(t, s, UP);
  }
  /* Back edges to NL; the ways out through NL, noting which. */
  unsigned nx = 0;
  for (unsigned b = 0; b < n; b++) {
    if (!in[b])
      continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[b]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns; s++) {
      LLVMBasicBlockRef S = LLVMGetSuccessor(t, s);
      int si = cc_cfg_find(cfg, S);
      if (S == H) {
        LLVMSetSuccessor(t, s, NL);
        continue;
      }
      if (si >= 0 && in[si])
        continue;
      unsigned id = 0;
      while (id < nx && exits[id] != S)
        id++;
      if (id == nx)
        exits[nx++] = S;
      LLVMBasicBlockRef e = new_block(g, "sg.loop.leave");
      LLVMPositionBuilderAtEnd(g->b, e);
      LLVMBuildStore(g->b, wg_c32(g, 0), inp);
      LLVMBuildStore(g->b, wg_c32(g, id), exitp);
      LLVMBuildBr(g->b, NL);
      LLVMSetSuccessor(t, s, e);
    }
  }
  LLVMPositionBuilderAtEnd(g->b, UP);
  LLVMBuildBr(g->b, UE);
  LLVMPositionBuilderAtEnd(g->b, UE);
  lp->in_init = LLVMBuildStore(g->b, wg_c32(g, 1), inp);
  LLVMBuildStore(g->b, wg_c32(g, 0), exitp);
  LLVMBuildBr(g->b, NH);
  LLVMPositionBuilderAtEnd(g->b, NH);
  LLVMValueRef iv = LLVMBuildLoad2(g->b, g->t_i32, inp, "sg.in");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, iv, wg_c32(g, 0), ""), H, NL);
  LLVMPositionBuilderAtEnd(g->b, NL);
  lp->cond = LLVMBuildFreeze(g->b, LLVMGetPoison(g->t_i1), "sg.any");
  LLVMBuildCondBr(g->b, lp->cond, NH, UX);
  LLVMPositionBuilderAtEnd(g->b, UX);
  LLVMBuildBr(g->b, EXD);
  LLVMPositionBuilderAtEnd(g->b, EXD);
  if (nx <= 1) {
    if (nx)
      LLVMBuildBr(g->b, exits[0]);
    else
      LLVMBuildUnreachable(g->b); /* a loop no work-item leaves */
  } else {
    LLVMValueRef xv = LLVMBuildLoad2(g->b, g->t_i32, exitp, "sg.exit");
    LLVMValueRef sw = LLVMBuildSwitch(g->b, xv, exits[0], nx - 1);
    for (unsigned i = 1; i < nx; i++)
      LLVMAddCase(sw, wg_c32(g, i), exits[i]);
  }
  free(exits);
  lp->in = inp;
  lp->ue = UE;
  lp->ux = UX;
  lp->nl = NL;
  lp->nh = NH;
  lp->done = 0;
  return CC_OK;
}

/* NL's placeholder becomes the group's any of in. */
static void finish_loop(wg_gen *g, sg_loop *lp)
{
  LLVMPositionBuilderBefore(g->b, LLVMGetBasicBlockTerminator(lp->nl));
  LLVMValueRef iv = LLVMBuildLoad2(g->b, g->t_i32, lp->in, "sg.in");
  LLVMTypeRef fty = LLVMFunctionType(g->t_i32, &g->t_i32, 1, 0);
  const char *name = "_Z14work_group_anyi";
  LLVMValueRef f = LLVMGetNamedFunction(g->m, name);
  if (!f) {
    f = LLVMAddFunction(g->m, name, fty);
    cc_add_fn_attr(f, "convergent");
    cc_add_fn_attr(f, "nounwind");
  }
  LLVMValueRef any = LLVMBuildCall2(g->b, fty, f, &iv, 1, "sg.any");
  LLVMValueRef c = LLVMBuildICmp(g->b, LLVMIntNE, any, wg_c32(g, 0), "");
  LLVMReplaceAllUsesWith(lp->cond, c);
  LLVMInstructionEraseFromParent(lp->cond);
}

/* ---- lowering the non-uniform functions ---- */

static LLVMValueRef sg_call(wg_gen *g, const char *ident, const char *params, LLVMTypeRef ret, LLVMValueRef *args,
                            unsigned nargs)
{
  char name[160];
  snprintf(name, sizeof(name), "_Z%zu%s%s", strlen(ident), ident, params);
  LLVMTypeRef pt[4];
  for (unsigned a = 0; a < nargs && a < 4; a++)
    pt[a] = LLVMTypeOf(args[a]);
  LLVMTypeRef fty = LLVMFunctionType(ret, pt, nargs, 0);
  LLVMValueRef f = LLVMGetNamedFunction(g->m, name);
  if (!f) {
    f = LLVMAddFunction(g->m, name, fty);
    cc_add_fn_attr(f, "convergent");
    cc_add_fn_attr(f, "nounwind");
  }
  return LLVMBuildCall2(g->b, fty, f, args, nargs, "");
}

static LLVMValueRef lid32(wg_gen *g)
{
  return LLVMBuildTrunc(g->b, wg_sg_local_id(g), g->t_i32, "sg.lid");
}

/* The lane of the sub-group's first active work-item (i32). */
static LLVMValueRef first_active(wg_gen *g, LLVMValueRef act)
{
  LLVMValueRef v = LLVMBuildSelect(g->b, act, lid32(g), wg_c32(g, 0xffffffffu), "");
  return sg_call(g, "sub_group_reduce_min", "j", g->t_i32, &v, 1);
}

/* The bits below n (i64, at most 32) of a 32-bit mask. */
static LLVMValueRef low_bits(wg_gen *g, LLVMValueRef n64)
{
  LLVMValueRef m = LLVMBuildSub(g->b, LLVMBuildShl(g->b, wg_c64(g, 1), n64, ""), wg_c64(g, 1), "");
  return LLVMBuildTrunc(g->b, m, g->t_i32, "");
}

static LLVMValueRef uint4_of(wg_gen *g, LLVMValueRef x)
{
  LLVMTypeRef v4 = LLVMVectorType(g->t_i32, 4);
  return LLVMBuildInsertElement(g->b, LLVMConstNull(v4), x, wg_c32(g, 0), "");
}

static LLVMValueRef popcount(wg_gen *g, LLVMValueRef x)
{
  LLVMTypeRef t = g->t_i32;
  return cc_build_intrinsic(g->b, g->m, "llvm.ctpop", &t, 1, &x, 1, "");
}

/* The identity of op for an operand of type ty (mangled as c). */
static LLVMValueRef identity(wg_gen *g, const char *op, size_t oplen, LLVMTypeRef ty, char c)
{
#define OPIS(s) (strlen(s) == oplen && !memcmp(op, s, oplen))
  if (LLVMGetTypeKind(ty) != LLVMIntegerTypeKind) {
    if (OPIS("add"))
      return LLVMConstReal(ty, -0.0);
    if (OPIS("mul"))
      return LLVMConstReal(ty, 1.0);
    if (OPIS("min"))
      return LLVMConstReal(ty, __builtin_inf());
    if (OPIS("max"))
      return LLVMConstReal(ty, -__builtin_inf());
    return NULL;
  }
  unsigned bits = LLVMGetIntTypeWidth(ty);
  int sgn = c == 'c' || c == 'a' || c == 's' || c == 'i' || c == 'l';
  uint64_t ones = bits == 64 ? ~0ull : (1ull << bits) - 1;
  if (OPIS("add") || OPIS("or") || OPIS("xor") || OPIS("logical_or") || OPIS("logical_xor"))
    return LLVMConstInt(ty, 0, 0);
  if (OPIS("mul") || OPIS("logical_and"))
    return LLVMConstInt(ty, 1, 0);
  if (OPIS("and"))
    return LLVMConstInt(ty, ones, 0);
  if (OPIS("min"))
    return LLVMConstInt(ty, sgn ? ones >> 1 : ones, 0);
  if (OPIS("max"))
    return LLVMConstInt(ty, sgn ? (ones >> 1) + 1 : 0, 0);
  return NULL;
#undef OPIS
}

static int lower_op(wg_gen *g, sg_op *op, char **err)
{
  wg_mangled mg;
  LLVMValueRef call = op->call;
  if (!wg_demangle(call, &mg))
    return CC_OK;
  if (op->kind == SK_UNIFORM)
    return CC_OK; /* as it is: a uniform operation's sub-group is active or not as a whole */
  LLVMPositionBuilderBefore(g->b, call);
  LLVMValueRef act = op->act ? LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildLoad2(g->b, g->t_i32, op->act, "sg.act"),
                                             wg_c32(g, 0), "sg.active")
                             : LLVMConstInt(g->t_i1, 1, 0);
  unsigned nargs = LLVMGetNumArgOperands(call);
  LLVMValueRef a0 = nargs ? LLVMGetOperand(call, 0) : NULL;
  char params[64];
  snprintf(params, sizeof(params), "%.*s", (int)mg.plen, mg.params);
  LLVMValueRef r = NULL;
  size_t rest;
  char ident[96];
  if (wg_ident_is(&mg, "sub_group_elect")) {
    LLVMValueRef first = LLVMBuildICmp(g->b, LLVMIntEQ, lid32(g), first_active(g, act), "");
    r = LLVMBuildZExt(g->b, LLVMBuildAnd(g->b, act, first, ""), g->t_i32, "");
  } else if (wg_ident_is(&mg, "sub_group_non_uniform_all") || wg_ident_is(&mg, "sub_group_non_uniform_any")) {
    int all = wg_ident_is(&mg, "sub_group_non_uniform_all");
    LLVMValueRef v = LLVMBuildSelect(g->b, act, a0, wg_c32(g, all), "");
    r = sg_call(g, all ? "sub_group_all" : "sub_group_any", "i", g->t_i32, &v, 1);
  } else if (wg_ident_is(&mg, "sub_group_non_uniform_all_equal") || wg_ident_is(&mg, "sub_group_broadcast_first")) {
    LLVMValueRef args[2] = {a0, first_active(g, act)};
    snprintf(params, sizeof(params), "%.*sj", (int)mg.plen, mg.params);
    LLVMValueRef first = sg_call(g, "sub_group_broadcast", params, LLVMTypeOf(a0), args, 2);
    if (wg_ident_is(&mg, "sub_group_broadcast_first")) {
      r = first;
    } else {
      LLVMValueRef eq = LLVMGetTypeKind(LLVMTypeOf(a0)) == LLVMIntegerTypeKind
                            ? LLVMBuildICmp(g->b, LLVMIntEQ, a0, first, "")
                            : LLVMBuildFCmp(g->b, LLVMRealOEQ, a0, first, "");
      LLVMValueRef v = LLVMBuildZExt(g->b, LLVMBuildOr(g->b, eq, LLVMBuildNot(g->b, act, ""), ""), g->t_i32, "");
      r = sg_call(g, "sub_group_all", "i", g->t_i32, &v, 1);
    }
  } else if (wg_ident_is(&mg, "sub_group_non_uniform_broadcast")) {
    LLVMValueRef args[2] = {a0, LLVMGetOperand(call, 1)};
    r = sg_call(g, "sub_group_broadcast", params, LLVMTypeOf(call), args, 2);
  } else if (wg_ident_is(&mg, "sub_group_ballot")) {
    LLVMValueRef on = LLVMBuildAnd(g->b, act, LLVMBuildICmp(g->b, LLVMIntNE, a0, wg_c32(g, 0), ""), "");
    LLVMValueRef bit = LLVMBuildSelect(g->b, on, LLVMBuildShl(g->b, wg_c32(g, 1), lid32(g), ""), wg_c32(g, 0), "");
    r = uint4_of(g, sg_call(g, "sub_group_reduce_or", "j", g->t_i32, &bit, 1));
  } else if (wg_ident_starts(&mg, "sub_group_non_uniform_", &rest)) {
    /* reduce / scan_inclusive / scan_exclusive _<op> */
    const char *tail = mg.ident + rest;
    size_t tlen = mg.ilen - rest, klen = 0;
    if (tlen > 7 && !memcmp(tail, "reduce_", 7))
      klen = 7;
    else if (tlen > 15 && (!memcmp(tail, "scan_inclusive_", 15) || !memcmp(tail, "scan_exclusive_", 15)))
      klen = 15;
    char c = mg.plen ? mg.params[0] : 0;
    LLVMValueRef id = klen && a0 ? identity(g, tail + klen, tlen - klen, LLVMTypeOf(a0), c) : NULL;
    if (!id) {
      cc_set_err(err, "error: kernel %s: %.*s is not supported", g->ki->name, (int)mg.ilen, mg.ident);
      return CC_BUILD_FAILED;
    }
    snprintf(ident, sizeof(ident), "sub_group_%.*s", (int)tlen, tail);
    LLVMValueRef v = LLVMBuildSelect(g->b, act, a0, id, "");
    r = sg_call(g, ident, params, LLVMTypeOf(call), &v, 1);
  } else if (wg_ident_is(&mg, "sub_group_inverse_ballot") || wg_ident_is(&mg, "sub_group_ballot_bit_extract")) {
    LLVMValueRef idx = wg_ident_is(&mg, "sub_group_inverse_ballot") ? lid32(g) : LLVMGetOperand(call, 1);
    LLVMValueRef w = LLVMBuildExtractElement(
        g->b, a0, LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, idx, wg_c32(g, 5), ""), wg_c32(g, 3), ""), "");
    r = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, w, LLVMBuildAnd(g->b, idx, wg_c32(g, 31), ""), ""), wg_c32(g, 1), "");
  } else if (wg_ident_starts(&mg, "sub_group_ballot_", &rest)) {
    LLVMValueRef x = LLVMBuildExtractElement(g->b, a0, wg_c32(g, 0), "");
    LLVMValueRef lid = wg_sg_local_id(g);
    if (wg_ident_is(&mg, "sub_group_ballot_bit_count")) {
      r = popcount(g, LLVMBuildAnd(g->b, x, low_bits(g, wg_sg_max_size(g)), ""));
    } else if (wg_ident_is(&mg, "sub_group_ballot_inclusive_scan")) {
      r = popcount(g, LLVMBuildAnd(g->b, x, low_bits(g, LLVMBuildAdd(g->b, lid, wg_c64(g, 1), "")), ""));
    } else if (wg_ident_is(&mg, "sub_group_ballot_exclusive_scan")) {
      r = popcount(g, LLVMBuildAnd(g->b, x, low_bits(g, lid), ""));
    } else if (wg_ident_is(&mg, "sub_group_ballot_find_lsb") || wg_ident_is(&mg, "sub_group_ballot_find_msb")) {
      int lsb = wg_ident_is(&mg, "sub_group_ballot_find_lsb");
      LLVMValueRef m = LLVMBuildAnd(g->b, x, low_bits(g, wg_sg_max_size(g)), "");
      LLVMTypeRef t = g->t_i32;
      LLVMValueRef args[2] = {m, LLVMConstInt(g->t_i1, 0, 0)};
      LLVMValueRef z = cc_build_intrinsic(g->b, g->m, lsb ? "llvm.cttz" : "llvm.ctlz", &t, 1, args, 2, "");
      r = lsb ? z : LLVMBuildSub(g->b, wg_c32(g, 31), z, "");
    }
  } else if (wg_ident_starts(&mg, "get_sub_group_", &rest)) {
    LLVMValueRef lid = wg_sg_local_id(g), one = wg_c64(g, 1);
    LLVMValueRef le = low_bits(g, LLVMBuildAdd(g->b, lid, one, "")), lt = low_bits(g, lid);
    LLVMValueRef all = low_bits(g, wg_sg_max_size(g));
    const char *w = mg.ident + rest;
    if (!memcmp(w, "eq", 2))
      r = LLVMBuildXor(g->b, le, lt, "");
    else if (!memcmp(w, "ge", 2))
      r = LLVMBuildAnd(g->b, all, LLVMBuildNot(g->b, lt, ""), "");
    else if (!memcmp(w, "gt", 2))
      r = LLVMBuildAnd(g->b, all, LLVMBuildNot(g->b, le, ""), "");
    else if (!memcmp(w, "le", 2))
      r = le;
    else
      r = lt;
    r = uint4_of(g, r);
  }
  if (!r) {
    cc_set_err(err, "error: kernel %s: %.*s is not supported", g->ki->name, (int)mg.ilen, mg.ident);
    return CC_BUILD_FAILED;
  }
  if (LLVMTypeOf(r) != LLVMTypeOf(call)) {
    cc_set_err(err, "error: kernel %s: %.*s: unexpected signature", g->ki->name, (int)mg.ilen, mg.ident);
    return CC_BUILD_FAILED;
  }
  LLVMReplaceAllUsesWith(call, r);
  LLVMInstructionEraseFromParent(call);
  return CC_OK;
}

/* Rewrites, outermost first, each loop that holds a sub-group operation
 * and that a divergent branch leaves or that is under divergent control
 * (*loops, in that order). */
static int run_loops(wg_gen *g, sg_op *ops, unsigned nops, sg_loop **loops, unsigned *nloops)
{
  unsigned cap = 0;
  for (;;) {
    wg_uni u;
    if (wg_uniformity(g, &u))
      return CC_OUT_OF_MEMORY;
    const cc_cfg *cfg = &u.cfg;
    unsigned n = cfg->n;
    unsigned char *in = malloc(n + 1), *best = malloc(n + 1);
    int *opb = malloc((nops + 1) * sizeof(*opb));
    if (!in || !best || !opb) {
      free(in);
      free(best);
      free(opb);
      wg_uni_free(&u);
      return CC_OUT_OF_MEMORY;
    }
    for (unsigned o = 0; o < nops; o++)
      opb[o] = ops[o].done || ops[o].noloop ? -1 : cc_cfg_find(cfg, LLVMGetInstructionParent(ops[o].call));
    int bh = -1;
    unsigned bsize = 0;
    for (unsigned h = 1; h < n; h++) {
      int done = 0;
      for (unsigned l = 0; l < *nloops && !done; l++)
        done = (*loops)[l].nh == cfg->block[h];
      unsigned size = done ? 0 : natural_loop(cfg, h, in);
      if (size <= bsize)
        continue;
      int holds = 0;
      for (unsigned o = 0; o < nops && !holds; o++)
        holds = opb[o] >= 0 && in[opb[o]];
      /* (a loop under divergent control is one too: the work-items that
       * don't run it must go through it, inactive) */
      if (!holds || !(u.div_block[h] || loop_exit_divergent(&u, in)))
        continue;
      bh = (int)h;
      bsize = size;
      memcpy(best, in, n + 1);
    }
    int rc = CC_OK;
    if (bh >= 0) {
      char why[112];
      LLVMValueRef first = NULL;
      for (unsigned o = 0; o < nops && !first; o++)
        if (opb[o] >= 0 && best[opb[o]])
          first = ops[o].call;
      if (loop_obstacle(cfg, best, why, sizeof(why))) {
        for (unsigned o = 0; o < nops; o++)
          if (opb[o] >= 0 && best[opb[o]]) {
            ops[o].noloop = 1;
            memcpy(ops[o].why, why, sizeof(why));
          }
      } else {
        if (*nloops == cap) {
          cap = cap ? 2 * cap : 4;
          sg_loop *nl = realloc(*loops, cap * sizeof(*nl));
          if (!nl)
            rc = CC_OUT_OF_MEMORY;
          else
            *loops = nl;
        }
        if (!rc) {
          sg_loop *lp = &(*loops)[(*nloops)++];
          lp->op = first;
          rc = transform_loop(g, cfg, (unsigned)bh, best, lp);
        }
      }
    }
    free(in);
    free(best);
    free(opb);
    wg_uni_free(&u);
    if (rc || bh < 0)
      return rc;
  }
}

/* ---- the pass ---- */

int wg_predicate_sub_groups(wg_gen *g, char **err)
{
  sg_op *ops = NULL;
  unsigned nops = 0, cap = 0;
  int any_nested = 0, rc = CC_OK;
  sg_loop *loops = NULL;
  unsigned nloops = 0;
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(g->body);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      wg_mangled mg;
      int k = sg_kind(i, &mg);
      if (k == SK_NONE)
        continue;
      if (nops == cap) {
        cap = cap ? 2 * cap : 16;
        sg_op *n = realloc(ops, cap * sizeof(*n));
        if (!n) {
          free(ops);
          return CC_OUT_OF_MEMORY;
        }
        ops = n;
      }
      ops[nops++] = (sg_op){i, k, NULL, k == SK_PURE, 0, ""};
      any_nested |= k != SK_PURE && bb != entry;
    }
  if (any_nested) {
    /* Only where some operation is under divergent control (the analysis
     * also reads the body in SSA form): the demotion below costs the
     * rematerialization of values after the boundaries. */
    wg_uni u0;
    if (wg_uniformity(g, &u0)) {
      free(ops);
      return CC_OUT_OF_MEMORY;
    }
    any_nested = 0;
    for (unsigned o = 0; o < nops; o++)
      any_nested |= !ops[o].done && wg_block_divergent(&u0, LLVMGetInstructionParent(ops[o].call));
    wg_uni_free(&u0);
  }
  if (any_nested) {
    /* Each operation in a block of its own; every value that crosses a
     * block through an alloca (the predication moves blocks apart). */
    unify_returns(g);
    for (unsigned o = 0; o < nops; o++) {
      if (ops[o].done)
        continue;
      cc_split_block_before(ops[o].call, "sg.op");
      cc_split_block_after(ops[o].call, "sg.after");
    }
    cc_demote_cross_block(g->body, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(g->body)));
    rc = run_loops(g, ops, nops, &loops, &nloops);
    for (;;) {
      if (rc)
        break;
      wg_uni u;
      if (wg_uniformity(g, &u)) {
        rc = CC_OUT_OF_MEMORY;
        break;
      }
      unsigned *ipdom = malloc((u.cfg.n + 1) * sizeof(*ipdom));
      if (!ipdom || cc_cfg_postdom(&u.cfg, ipdom)) {
        free(ipdom);
        wg_uni_free(&u);
        rc = CC_OUT_OF_MEMORY;
        break;
      }
      /* Loops first, outer ones before the ones inside them (the order
       * they were rewritten in): one in divergent code is a unit. */
      sg_loop *lp = NULL;
      for (unsigned l = 0; l < nloops && !lp; l++)
        if (!loops[l].done)
          lp = &loops[l];
      if (lp) {
        int r = 1;
        lp->done = 1;
        if (wg_block_divergent(&u, lp->ue)) {
          LLVMValueRef act = NULL;
          r = predicate_unit(g, lp->ue, lp->ux, &act, &u, ipdom);
          if (r > 0) {
            /* in starts as the unit's act */
            LLVMPositionBuilderBefore(g->b, lp->in_init);
            LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->t_i32, act, "sg.act"), lp->in);
            LLVMInstructionEraseFromParent(lp->in_init);
            lp->in_init = NULL;
          }
        }
        free(ipdom);
        wg_uni_free(&u);
        if (r < 0) {
          rc = CC_OUT_OF_MEMORY;
        } else if (!r) {
          wg_mangled mg;
          wg_demangle(lp->op, &mg);
          cc_set_err(err,
                     "error: kernel %s: %.*s in a loop whose trip count may differ between work-items, in code "
                     "whose paths do not meet again, is not supported",
                     g->ki->name, (int)mg.ilen, mg.ident);
          rc = CC_BUILD_FAILED;
        }
        continue;
      }
      /* the first operation (in block order) under divergent control */
      sg_op *next = NULL;
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb && !next; bb = LLVMGetNextBasicBlock(bb)) {
        if (!wg_block_divergent(&u, bb))
          continue;
        for (unsigned o = 0; o < nops && !next; o++)
          if (!ops[o].done && LLVMGetInstructionParent(ops[o].call) == bb)
            next = &ops[o];
      }
      int r = next ? predicate_one(g, next, &u, ipdom) : 1;
      free(ipdom);
      wg_uni_free(&u);
      if (!next)
        break;
      if (r < 0) {
        rc = CC_OUT_OF_MEMORY;
        break;
      }
      next->done = 1;
      if (!r && next->kind == SK_NONUNI) {
        wg_mangled mg;
        wg_demangle(next->call, &mg);
        unsigned line = LLVMGetDebugLocLine(next->call);
        char at[32] = "";
        if (line)
          snprintf(at, sizeof(at), " (line %u)", line);
        if (next->why[0])
          cc_set_err(err,
                     "error: kernel %s: %.*s%s in a loop whose trip count may differ between work-items is not "
                     "supported: %s",
                     g->ki->name, (int)mg.ilen, mg.ident, at, next->why);
        else
          cc_set_err(err,
                     "error: kernel %s: %.*s%s in a loop whose trip count may differ between work-items (or in code "
                     "whose paths do not meet again) is not supported",
                     g->ki->name, (int)mg.ilen, mg.ident, at);
        rc = CC_BUILD_FAILED;
        break;
      }
    }
    for (unsigned l = 0; l < nloops && !rc; l++)
      finish_loop(g, &loops[l]);
    free(loops);
  }
  for (unsigned o = 0; o < nops && !rc; o++)
    rc = lower_op(g, &ops[o], err);
  free(ops);
  return rc;
}

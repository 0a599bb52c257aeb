/* Which values of a kernel body are the same in every work-item of a group
 * (uniform) and which may differ (divergent), on the body in memory form
 * (after cc_demote_cross_block: values cross blocks only through simple
 * allocas).
 *
 * Divergence starts at the local ids (and the parameters computed from
 * them: gx, coll_idx) and at loads of memory the work-items
 * may see differently (anything but a simple alloca, a field of ctx and the
 * uniform values the work-group function hands in), and at calls.  It
 * flows through operands; into a simple alloca by a store of a divergent
 * value or a store under divergent control; and into control: a branch on
 * a divergent value puts the blocks between it and its immediate
 * post-dominator under divergent control.  Iterated to the fixed point.
 *
 * Barriers and the collectives need every work-item to take the same path
 * to them, so the loops and branches around them are uniform here whenever
 * their conditions are: e.g. the loop counters of a tree reduction or of a
 * Blelloch scan.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

/* Pure intrinsics: uniform when their operands are. */
static const char *const pure_intrinsics[] = {
    "llvm.umax.", "llvm.umin.", "llvm.smax.", "llvm.smin.", "llvm.abs.", "llvm.ctpop.", "llvm.ctlz.",
    "llvm.cttz.", "llvm.fshl.", "llvm.fshr.", "llvm.bswap.", "llvm.bitreverse.", "llvm.fabs.", "llvm.sqrt.",
    "llvm.fmuladd.", "llvm.fma.", "llvm.minnum.", "llvm.maxnum.", "llvm.minimum.", "llvm.maximum.",
    "llvm.copysign.", "llvm.floor.", "llvm.ceil.", "llvm.trunc.", "llvm.rint.", "llvm.nearbyint.",
    "llvm.round.", "llvm.roundeven.", "llvm.threadlocal.address.", "llvm.sadd.sat.", "llvm.uadd.sat.",
    "llvm.ssub.sat.", "llvm.usub.sat.",
};

static int is_div(const wg_uni *u, LLVMValueRef v)
{
  unsigned x;
  return cc_ptrmap_get(&u->div, v, &x);
}

/* p is the uniform-value area the work-group function passes (p_uval) or an address in it. */
static int in_uval(const wg_gen *g, LLVMValueRef p)
{
  for (unsigned depth = 0; depth < 4 && p; depth++) {
    if (p == g->p_uval)
      return 1;
    if (!LLVMIsAGetElementPtrInst(p))
      return 0;
    p = LLVMGetOperand(p, 0);
  }
  return 0;
}

static int operands_div(const wg_uni *u, LLVMValueRef i, unsigned n)
{
  for (unsigned k = 0; k < n; k++)
    if (is_div(u, LLVMGetOperand(i, k)))
      return 1;
  return 0;
}

/* The instruction's value differs between work-items (given what is known so far). */
static int inst_div(const wg_gen *g, const wg_uni *u, LLVMValueRef i, int block_div)
{
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  switch (op) {
  case LLVMAlloca:
    /* Private to each work-item.  A simple alloca's address is only loaded
     * from and stored to: its entry in the set stands for its contents. */
    return !wg_alloca_is_simple(i);
  case LLVMLoad: {
    LLVMValueRef p = LLVMGetOperand(i, 0);
    if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
      return 1;
    if (LLVMIsAAllocaInst(p) && wg_alloca_is_simple(p))
      return is_div(u, p);
    if (LLVMGetMetadata(i, g->kind_invariant) || in_uval(g, p))
      return is_div(u, p);
    return 1;
  }
  case LLVMCall: {
    for (unsigned b = 0; b < g->nbnd; b++)
      if (g->bnd[b].call == i)
        return !(g->bnd[b].kind == WB_ALL || g->bnd[b].kind == WB_ANY || g->bnd[b].kind == WB_BCAST ||
                 g->bnd[b].kind == WB_REDUCE);
    if (cc_callee_has_prefix(i, "__lanecl_tls."))
      return 0;
    for (size_t k = 0; k < sizeof(pure_intrinsics) / sizeof(pure_intrinsics[0]); k++)
      if (cc_callee_has_prefix(i, pure_intrinsics[k]))
        return operands_div(u, i, LLVMGetNumArgOperands(i));
    return 1;
  }
  case LLVMPHI: {
    /* Also divergent where paths of a divergent branch join. */
    if (block_div || operands_div(u, i, LLVMCountIncoming(i)))
      return 1;
    unsigned n = LLVMCountIncoming(i);
    for (unsigned k = 0; k < n; k++) {
      int b = cc_cfg_find(&u->cfg, LLVMGetIncomingBlock(i, k));
      if (b < 0 || u->div_block[b] || u->div_term[b])
        return 1;
    }
    return 0;
  }
  case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMVAArg: case LLVMLandingPad:
    return 1;
  default:
    return operands_div(u, i, (unsigned)LLVMGetNumOperands(i));
  }
}

static void mark(wg_uni *u, LLVMValueRef v, int *changed)
{
  if (!is_div(u, v)) {
    cc_ptrmap_put(&u->div, v, 1);
    *changed = 1;
  }
}

/* The blocks after divergent branch X up to (not including) its immediate
 * post-dominator: under divergent control. */
static void mark_region(wg_uni *u, unsigned x, const unsigned *ipdom, unsigned *stack, unsigned char *seen,
                        int *changed)
{
  const cc_cfg *cfg = &u->cfg;
  unsigned stop = ipdom[x], sp = 0;
  memset(seen, 0, cfg->n);
  LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[x]);
  unsigned ns = LLVMGetNumSuccessors(t);
  for (unsigned s = 0; s < ns; s++) {
    int si = cc_cfg_find(cfg, LLVMGetSuccessor(t, s));
    if (si >= 0 && (unsigned)si != stop && !seen[si]) {
      seen[si] = 1;
      stack[sp++] = (unsigned)si;
    }
  }
  while (sp) {
    unsigned b = stack[--sp];
    if (!u->div_block[b]) {
      u->div_block[b] = 1;
      *changed = 1;
    }
    LLVMValueRef bt = LLVMGetBasicBlockTerminator(cfg->block[b]);
    unsigned bn = bt ? LLVMGetNumSuccessors(bt) : 0;
    for (unsigned s = 0; s < bn; s++) {
      int si = cc_cfg_find(cfg, LLVMGetSuccessor(bt, s));
      if (si >= 0 && (unsigned)si != stop && !seen[si]) {
        seen[si] = 1;
        stack[sp++] = (unsigned)si;
      }
    }
  }
}

int wg_uniformity(wg_gen *g, wg_uni *u)
{
  memset(u, 0, sizeof(*u));
  if (cc_cfg_build(&u->cfg, g->body))
    return CC_OUT_OF_MEMORY;
  unsigned n = u->cfg.n, ninst = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      ninst++;
  unsigned *ipdom = malloc((n + 1) * sizeof(*ipdom)), *stack = malloc((n + 1) * sizeof(*stack));
  unsigned char *seen = malloc(n + 1);
  u->div_block = calloc(n + 1, 1);
  u->div_term = calloc(n + 1, 1);
  unsigned char *div_term = u->div_term;
  int rc = CC_OUT_OF_MEMORY;
  if (!ipdom || !stack || !seen || !div_term || !u->div_block || cc_ptrmap_init(&u->div, ninst + 8) ||
      cc_cfg_postdom(&u->cfg, ipdom))
    goto done;
  /* The body's parameters that differ between work-items: the local ids,
   * gx (get_global_id(0) is computed from it, not from lx) and the
   * collective index. */
  for (unsigned d = 0; d < 3; d++)
    cc_ptrmap_put(&u->div, g->p_lid[d], 1);
  if (g->p_gx)
    cc_ptrmap_put(&u->div, g->p_gx, 1);
  if (g->p_cidx)
    cc_ptrmap_put(&u->div, g->p_cidx, 1);
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned b = 0; b < n; b++) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(u->cfg.block[b]); i; i = LLVMGetNextInstruction(i)) {
        if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind && !is_div(u, i) &&
            inst_div(g, u, i, u->div_block[b]))
          mark(u, i, &changed);
        if (LLVMIsAStoreInst(i)) {
          LLVMValueRef p = LLVMGetOperand(i, 1);
          if (LLVMIsAAllocaInst(p) && wg_alloca_is_simple(p) &&
              (u->div_block[b] || is_div(u, LLVMGetOperand(i, 0))))
            mark(u, p, &changed);
        }
      }
      LLVMValueRef t = LLVMGetBasicBlockTerminator(u->cfg.block[b]);
      int cond_div = 0;
      if (t && LLVMIsABranchInst(t) && LLVMIsConditional(t))
        cond_div = is_div(u, LLVMGetCondition(t));
      else if (t && LLVMIsASwitchInst(t))
        cond_div = is_div(u, LLVMGetOperand(t, 0));
      if (cond_div && !div_term[b]) {
        div_term[b] = 1;
        changed = 1;
        if (ipdom[b] == ~0u) {
          /* no way out: everything after it */
          unsigned saved = ipdom[b];
          ipdom[b] = n;
          mark_region(u, b, ipdom, stack, seen, &changed);
          ipdom[b] = saved;
        } else {
          mark_region(u, b, ipdom, stack, seen, &changed);
        }
      }
    }
  }
  rc = CC_OK;
done:
  free(ipdom);
  free(stack);
  free(seen);
  if (rc)
    wg_uni_free(u);
  return rc;
}

int wg_is_uniform(const wg_uni *u, LLVMValueRef v)
{
  return !is_div(u, v);
}

int wg_block_divergent(const wg_uni *u, LLVMBasicBlockRef bb)
{
  int i = cc_cfg_find(&u->cfg, bb);
  return i < 0 || u->div_block[i];
}

void wg_uni_free(wg_uni *u)
{
  cc_cfg_free(&u->cfg);
  cc_ptrmap_free(&u->div);
  free(u->div_block);
  free(u->div_term);
  memset(u, 0, sizeof(*u));
}

/* A loop reachable from start (up to the boundaries' returns) leaves on a
 * branch that differs between work-items: its trip count is per work-item,
 * which no optimization changes (LLVM's VPlan-native path needs it
 * uniform, see cc_wg_outer.c). */
int wg_region_has_divergent_loop(const wg_uni *u, LLVMBasicBlockRef start)
{
  const cc_cfg *cfg = &u->cfg;
  int s0 = cc_cfg_find(cfg, start), found = 0;
  unsigned char *reg = calloc(cfg->n + 1, 1), *in = calloc(cfg->n + 1, 1);
  unsigned *stack = malloc((cfg->n + 1) * sizeof(*stack));
  if (s0 < 0 || !reg || !in || !stack)
    goto done;
  cc_cfg_reach(cfg, (unsigned)s0, -1, reg, stack);
  reg[s0] = 1;
  for (unsigned l = 0; l < cfg->n && !found; l++) {
    if (!reg[l])
      continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[l]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns && !found; s++) {
      int h = cc_cfg_find(cfg, LLVMGetSuccessor(t, s));
      if (h < 0 || !reg[h] || !cc_cfg_dominates(cfg, (unsigned)h, l))
        continue;
      /* back edge l -> h: does a divergent branch leave the loop? */
      memset(in, 0, cfg->n + 1);
      cc_cfg_loop(cfg, (unsigned)h, l, in);
      for (unsigned b = 0; b < cfg->n && !found; b++) {
        if (!in[b] || !u->div_term[b])
          continue;
        LLVMValueRef bt = LLVMGetBasicBlockTerminator(cfg->block[b]);
        unsigned bn = LLVMGetNumSuccessors(bt);
        for (unsigned k = 0; k < bn; k++) {
          int x = cc_cfg_find(cfg, LLVMGetSuccessor(bt, k));
          if (x >= 0 && !in[x])
            found = 1;
        }
      }
    }
  }
done:
  free(reg);
  free(in);
  free(stack);
  return found;
}

/* Lane loops shortened to the work-items that do something.
 *
 * Tree reductions and scans run log2(L) regions in which only the first d
 * work-items work:  if (l < d) { t[...] += t[...]; }  barrier.  A lane loop
 * over all L work-items spends most of its time on work-items that only
 * check the condition.  When every effect of a region (stores, calls, and
 * changes to the values a work-item keeps across the boundary) sits under
 * a branch that only work-items with a local id x below a uniform bound
 * take (lx < u, lx <= u, lx == 0), the work-items from the bound on would
 * change nothing: the region's lane loop runs x over [0, max(1, min(L, u)))
 * instead of [0, L).  Work-item 0 always runs: it saves the uniform values
 * (the others restore work-item 0's copy, cc_wg_frame.c) and its return
 * value says which boundary the group reached.
 *
 * The bound is computed by the work-group function before the lane loop:
 * a copy of the body's expression for u, from the kernel's arguments, ctx,
 * the collective result and the uniform values (through the stores that
 * put them in allocas within the region).
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

#define TRIM_BUDGET 48

typedef struct trim_ctx {
  wg_gen *g;
  wg_uni *u;
  unsigned char *in;  /* by cfg index: block of the region */
} trim_ctx;

/* The value a load of simple alloca a sees at `at`: the last store to a
 * before it in its block, else in its single predecessor within the region,
 * and so on.  NULL when that is not one store. */
static LLVMValueRef reaching_store(const trim_ctx *t, LLVMValueRef a, LLVMValueRef at)
{
  const cc_cfg *cfg = &t->u->cfg;
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
  LLVMValueRef i = LLVMGetPreviousInstruction(at);
  for (unsigned steps = 0; steps < 64; steps++) {
    for (; i; i = LLVMGetPreviousInstruction(i))
      if (LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == a)
        return LLVMGetOperand(i, 0);
    int b = cc_cfg_find(cfg, bb);
    if (b < 0)
      return NULL;
    int pred = -1;
    for (unsigned k = cfg->pred_start[b]; k < cfg->pred_start[b + 1]; k++) {
      unsigned p = cfg->pred[k];
      if (!t->in[p])
        continue;
      if (pred >= 0 && (unsigned)pred != p)
        return NULL;
      pred = (int)p;
    }
    if (pred < 0)
      return NULL;
    bb = cfg->block[pred];
    i = LLVMGetLastInstruction(bb);
  }
  return NULL;
}

/* Can v be computed in the work-group function (before the lane loop)? */
static int clonable(const trim_ctx *t, LLVMValueRef v, unsigned *budget)
{
  wg_gen *g = t->g;
  if (LLVMIsAConstant(v))
    return 1;
  if (LLVMIsAArgument(v)) {
    for (unsigned d = 0; d < 3; d++)
      if (v == g->p_lid[d])
        return 0;
    return v != g->p_uval;
  }
  if (!LLVMIsAInstruction(v) || !*budget)
    return 0;
  (*budget)--;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op == LLVMLoad) {
    LLVMValueRef p = LLVMGetOperand(v, 0);
    if (LLVMIsAAllocaInst(p)) {
      LLVMValueRef s = reaching_store(t, p, v);
      return s && clonable(t, s, budget);
    }
    if (p == g->p_uval || (LLVMIsAGetElementPtrInst(p) && LLVMGetOperand(p, 0) == g->p_uval &&
                           LLVMGetNumOperands(p) == 2 && LLVMIsAConstantInt(LLVMGetOperand(p, 1))))
      return 1;
    if (!LLVMGetMetadata(v, g->kind_invariant))
      return 0;
    return clonable(t, p, budget);
  }
  switch (op) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMUDiv: case LLVMSDiv: case LLVMShl: case LLVMLShr:
  case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMTrunc: case LLVMZExt: case LLVMSExt:
  case LLVMICmp: case LLVMSelect: case LLVMGetElementPtr: case LLVMPtrToInt: case LLVMIntToPtr:
  case LLVMBitCast: {
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    for (unsigned k = 0; k < n; k++)
      if (!clonable(t, LLVMGetOperand(v, k), budget))
        return 0;
    return 1;
  }
  default:
    return 0;
  }
}

/* ---- the guards ---- */

/* v is the x local id, maybe truncated or extended once. */
static int is_lx(const wg_gen *g, LLVMValueRef v)
{
  if (LLVMIsATruncInst(v) || LLVMIsAZExtInst(v) || LLVMIsASExtInst(v))
    v = LLVMGetOperand(v, 0);
  if (LLVMIsATruncInst(v))
    v = LLVMGetOperand(v, 0);
  return v == g->p_lid[0];
}

static LLVMIntPredicate swapped(LLVMIntPredicate p)
{
  switch (p) {
  case LLVMIntUGT: return LLVMIntULT;
  case LLVMIntUGE: return LLVMIntULE;
  case LLVMIntULT: return LLVMIntUGT;
  case LLVMIntULE: return LLVMIntUGE;
  case LLVMIntSGT: return LLVMIntSLT;
  case LLVMIntSGE: return LLVMIntSLE;
  case LLVMIntSLT: return LLVMIntSGT;
  case LLVMIntSLE: return LLVMIntSGE;
  default: return p;
  }
}

static LLVMIntPredicate inverse(LLVMIntPredicate p)
{
  switch (p) {
  case LLVMIntEQ: return LLVMIntNE;
  case LLVMIntNE: return LLVMIntEQ;
  case LLVMIntUGT: return LLVMIntULE;
  case LLVMIntUGE: return LLVMIntULT;
  case LLVMIntULT: return LLVMIntUGE;
  case LLVMIntULE: return LLVMIntUGT;
  case LLVMIntSGT: return LLVMIntSLE;
  case LLVMIntSGE: return LLVMIntSLT;
  case LLVMIntSLT: return LLVMIntSGE;
  case LLVMIntSLE: return LLVMIntSGT;
  default: return p;
  }
}

/* The edge from block x to its successor `succ` (0 or 1) is taken only by
 * work-items with lx below a bound: fills *b and returns 1. */
static int edge_bound(const trim_ctx *t, LLVMValueRef br, unsigned succ, wg_trim_bound *b)
{
  LLVMValueRef c = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(c))
    return 0;
  LLVMValueRef lhs = LLVMGetOperand(c, 0), rhs = LLVMGetOperand(c, 1);
  LLVMIntPredicate p = LLVMGetICmpPredicate(c);
  if (!is_lx(t->g, lhs)) {
    if (!is_lx(t->g, rhs))
      return 0;
    LLVMValueRef x = lhs;
    lhs = rhs;
    rhs = x;
    p = swapped(p);
  }
  if (succ)
    p = inverse(p);
  if (p == LLVMIntEQ) {
    if (!LLVMIsAConstantInt(rhs) || LLVMConstIntGetZExtValue(rhs) != 0)
      return 0;
    b->kind = WG_TRIM_ONE;
    b->u = NULL;
    return 1;
  }
  if (p != LLVMIntULT && p != LLVMIntULE && p != LLVMIntSLT && p != LLVMIntSLE)
    return 0;
  unsigned budget = TRIM_BUDGET;
  if (!wg_is_uniform(t->u, rhs) || !clonable(t, rhs, &budget))
    return 0;
  b->u = rhs;
  b->kind = p == LLVMIntULT ? WG_TRIM_ULT : p == LLVMIntULE ? WG_TRIM_ULE : p == LLVMIntSLT ? WG_TRIM_SLT : WG_TRIM_SLE;
  return 1;
}

/* Block bi is only reached by work-items below a bound: the nearest
 * dominating edge that says so. */
static int block_bound(const trim_ctx *t, unsigned bi, wg_trim_bound *b)
{
  const cc_cfg *cfg = &t->u->cfg;
  for (unsigned x = bi; x != 0 && t->in[x]; x = cfg->idom[x]) {
    if (cfg->pred_start[x + 1] - cfg->pred_start[x] != 1)
      continue;
    unsigned p = cfg->pred[cfg->pred_start[x]];
    LLVMValueRef br = LLVMGetBasicBlockTerminator(cfg->block[p]);
    if (!t->in[p] || !br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br) ||
        LLVMGetSuccessor(br, 0) == LLVMGetSuccessor(br, 1))
      continue;
    for (unsigned s = 0; s < 2; s++)
      if (LLVMGetSuccessor(br, s) == cfg->block[x] && edge_bound(t, br, s, b))
        return 1;
  }
  return 0;
}

static const wg_slot *slot_of_alloca(const wg_gen *g, LLVMValueRef a)
{
  for (unsigned j = g->first_simple; j < g->nslots; j++)
    if (g->slots[j].alloca == a)
      return &g->slots[j];
  return NULL;
}

static const wg_slot *slot_of_addr(const wg_gen *g, LLVMValueRef p)
{
  for (unsigned j = g->first_simple; j < g->nslots; j++)
    if (g->slots[j].addr == p)
      return &g->slots[j];
  return NULL;
}

static int pure_call(LLVMValueRef call)
{
  static const char *const pure[] = {"__lanecl_tls.", "llvm.umax.", "llvm.umin.", "llvm.smax.", "llvm.smin.",
                                     "llvm.abs.", "llvm.ctpop.", "llvm.ctlz.", "llvm.cttz.", "llvm.fabs.",
                                     "llvm.sqrt.", "llvm.fmuladd.", "llvm.fma.", "llvm.minnum.", "llvm.maxnum."};
  for (size_t i = 0; i < sizeof(pure) / sizeof(pure[0]); i++)
    if (cc_callee_has_prefix(call, pure[i]))
      return 1;
  return 0;
}

static int add_bound(wg_trim *tr, const wg_trim_bound *b)
{
  for (unsigned i = 0; i < tr->n; i++)
    if (tr->b[i].kind == b->kind && tr->b[i].u == b->u)
      return 1;
  if (tr->n == WG_TRIM_MAX)
    return 0;
  tr->b[tr->n++] = *b;
  return 1;
}

/* t->in: the blocks of the region from start (reachable from it up to the
 * boundaries' returns).  0 when out of memory or start is unreachable. */
static int region_blocks(trim_ctx *t, LLVMBasicBlockRef start)
{
  const cc_cfg *cfg = &t->u->cfg;
  memset(t->in, 0, cfg->n + 1);
  int s0 = cc_cfg_find(cfg, start);
  unsigned *stack = malloc((cfg->n + 1) * sizeof(*stack));
  if (s0 < 0 || !stack) {
    free(stack);
    return 0;
  }
  cc_cfg_reach(cfg, (unsigned)s0, -1, t->in, stack);
  t->in[s0] = 1;
  free(stack);
  return 1;
}

/* Region `state`, from block start: the bounds every effect sits under.  A
 * region without effects runs work-item 0 alone. */
static int trim_region(trim_ctx *t, LLVMBasicBlockRef start, wg_trim *tr)
{
  const cc_cfg *cfg = &t->u->cfg;
  wg_gen *g = t->g;
  memset(tr, 0, sizeof(*tr));
  if (!region_blocks(t, start))
    return 0;
  int ok = 1;
  for (unsigned bi = 0; bi < cfg->n && ok; bi++) {
    if (!t->in[bi])
      continue;
    wg_trim_bound b;
    int have = -1; /* not looked up yet */
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[bi]); i && ok; i = LLVMGetNextInstruction(i)) {
      int effect = 0;
      if (LLVMIsAStoreInst(i)) {
        LLVMValueRef p = LLVMGetOperand(i, 1), v = LLVMGetOperand(i, 0);
        const wg_slot *sl;
        if (LLVMIsAAllocaInst(p) && wg_alloca_is_simple(p)) {
          /* a value kept across the boundary by each work-item changes:
           * an effect, unless it is the restore of its own copy */
          sl = slot_of_alloca(g, p);
          effect = sl && !sl->uniform && !(LLVMIsALoadInst(v) && LLVMGetOperand(v, 0) == sl->addr);
        } else if ((sl = slot_of_addr(g, p)) != NULL) {
          effect = 0; /* a save: checked through the stores to its alloca */
        } else {
          effect = 1;
        }
      } else if (LLVMIsACallInst(i)) {
        effect = !pure_call(i);
      } else {
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        effect = op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg || op == LLVMFence ||
                 (op == LLVMLoad && LLVMGetVolatile(i));
      }
      if (!effect)
        continue;
      if (have < 0)
        have = block_bound(t, bi, &b);
      ok = have && add_bound(tr, &b);
    }
  }
  if (ok && !tr->n) {
    tr->b[0].kind = WG_TRIM_ONE;
    tr->n = 1;
  }
  if (!ok)
    tr->n = 0;
  return tr->n > 0;
}

int wg_trim_regions(wg_gen *g)
{
  wg_uni u;
  int rc = wg_uniformity(g, &u);
  if (rc)
    return rc;
  trim_ctx t = {g, &u, calloc(u.cfg.n + 1, 1)};
  g->trim = calloc(g->nbnd + 1, sizeof(*g->trim));
  if (!t.in || !g->trim) {
    free(t.in);
    wg_uni_free(&u);
    return CC_OUT_OF_MEMORY;
  }
  for (unsigned s = 0; s <= g->nbnd; s++)
    trim_region(&t, s == 0 ? g->start : g->bnd[s - 1].resume, &g->trim[s]);
  free(t.in);
  wg_uni_free(&u);
  return CC_OK;
}

/* ---- the bound in the work-group function ---- */

typedef struct clone_map {
  LLVMValueRef from[TRIM_BUDGET * 2 + 8], to[TRIM_BUDGET * 2 + 8];
  unsigned n;
} clone_map;

/* A copy of v at the builder (in the work-group function); argv: the
 * body's arguments there (uniform area included), state: this region. */
static LLVMValueRef clone_into_wg(trim_ctx *t, LLVMValueRef v, LLVMValueRef *argv, clone_map *map)
{
  wg_gen *g = t->g;
  if (LLVMIsAConstant(v))
    return v;
  if (LLVMIsAArgument(v)) {
    unsigned n = LLVMCountParams(g->body);
    for (unsigned i = 0; i < n; i++)
      if (LLVMGetParam(g->body, i) == v)
        return argv[i];
    return NULL;
  }
  for (unsigned i = 0; i < map->n; i++)
    if (map->from[i] == v)
      return map->to[i];
  LLVMValueRef r = NULL;
  if (LLVMIsALoadInst(v) && LLVMIsAAllocaInst(LLVMGetOperand(v, 0))) {
    LLVMValueRef s = reaching_store(t, LLVMGetOperand(v, 0), v);
    r = s ? clone_into_wg(t, s, argv, map) : NULL;
  } else {
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    LLVMValueRef ops[8];
    if (n > 8)
      return NULL;
    for (unsigned k = 0; k < n; k++)
      if (!(ops[k] = clone_into_wg(t, LLVMGetOperand(v, k), argv, map)))
        return NULL;
    r = LLVMInstructionClone(v);
    LLVMInsertIntoBuilderWithName(g->b, r, "");
    for (unsigned k = 0; k < n; k++)
      LLVMSetOperand(r, k, ops[k]);
  }
  if (r && map->n < sizeof(map->from) / sizeof(map->from[0])) {
    map->from[map->n] = v;
    map->to[map->n++] = r;
  }
  return r;
}

/* The number of work-items of x the lane loop of state s runs:
 * max(1, min(ls0, bound)), at the builder; ls0 itself when not trimmed. */
LLVMValueRef wg_trimmed_size(wg_gen *g, unsigned s, LLVMValueRef *argv, LLVMValueRef ls0)
{
  const wg_trim *tr = g->trim ? &g->trim[s] : NULL;
  if (!tr || !tr->n)
    return ls0;
  /* The region's cfg for reaching_store: rebuilt here (the body is final). */
  wg_uni u;
  memset(&u, 0, sizeof(u));
  if (cc_cfg_build(&u.cfg, g->body))
    return ls0;
  trim_ctx t = {g, &u, calloc(u.cfg.n + 1, 1)};
  LLVMValueRef bound = NULL, one = wg_c64(g, 1);
  if (t.in && region_blocks(&t, s == 0 ? g->start : g->bnd[s - 1].resume)) {
    for (unsigned i = 0; i < tr->n; i++) {
      const wg_trim_bound *b = &tr->b[i];
      LLVMValueRef v;
      if (b->kind == WG_TRIM_ONE) {
        v = one;
      } else {
        clone_map map;
        map.n = 0;
        LLVMValueRef c = clone_into_wg(&t, b->u, argv, &map);
        if (!c) {
          bound = NULL;
          break;
        }
        LLVMTypeRef ty = LLVMTypeOf(c);
        int is_signed = b->kind == WG_TRIM_SLT || b->kind == WG_TRIM_SLE;
        if (is_signed) /* negative: no work-item */
          c = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, c, LLVMConstNull(ty), ""), LLVMConstNull(ty), c, "");
        v = LLVMGetIntTypeWidth(ty) < 64 ? LLVMBuildZExt(g->b, c, g->t_i64, "") : c;
        if (b->kind == WG_TRIM_ULE || b->kind == WG_TRIM_SLE) /* v + 1, or ls0 when v >= ls0 */
          v = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, v, ls0, ""), ls0, LLVMBuildNUWAdd(g->b, v, one, ""), "");
      }
      bound = !bound ? v : LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntUGT, v, bound, ""), v, bound, "");
    }
  }
  free(t.in);
  cc_cfg_free(&u.cfg);
  if (!bound)
    return ls0;
  LLVMValueRef m = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, bound, ls0, ""), bound, ls0, "");
  return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, m, wg_c64(g, 0), ""), one, m, "lanes.active");
}

/* ---- lane loops split at a guard (kernels without boundaries) ----
 *
 * Almost every application kernel starts with  if (i < n)  or
 * if (i >= n) return;  where i is the global id.  Left as it is, the guard
 * is a branch on a work-item value: the loop vectorizer if-converts the
 * whole kernel under a mask (masked loads and stores), and an inner loop
 * under it goes to masked widening (cc_wg_diverge.c), many times slower
 * than the same loop without the guard.
 *
 * When the compare's work-item side is x's global or local id plus uniform
 * values (wrapping in no narrower type than the compare's), it is e0 + x
 * modulo the compare's width, e0 its value at x = 0.  The work-group
 * function computes e0 and the bound, and from them b, where the compare
 * changes value: it has one value for x in [0, b) and the other for x in
 * [b, L), as long as e0 + L - 1 does not pass the type's largest value
 * (split_bound checks that).  Each of the two ranges then runs a copy of
 * the body in which the compare is that constant (the body's `fast`
 * argument: 1 true, 2 false), so that O3 deletes the guard, and the lane
 * loops are unmasked ones (the range that skips the work is an empty loop
 * that O3 deletes).  Where e0 + x could wrap, the group runs the body as
 * written (fast 0).  A second such compare (a halo guard  x > 0 &&
 * x < w - 1) splits the lanes at its own bound too: three ranges, each with
 * both compares constant, the middle one in two copies (which bound comes
 * first is known only in the work-group function). */

/* One compare the lane loop is split at. */
typedef struct split_cmp {
  LLVMValueRef cmp;       /* the guard's compare in the body */
  LLVMValueRef e, u;      /* its work-item side (x-affine) and its uniform side */
  LLVMIntPredicate pred;  /* e pred u on [0, b): ULT, ULE, SLT or SLE */
  int prefix_true;        /* the compare is true on [0, b) (else false) */
} split_cmp;

/* Up to two compares (a halo guard  x > 0 && x < w - 1  has two); bits
 * 2j..2j+1 of the body's fast argument are compare j's value: 0 as
 * written, 1 true, 2 false. */
#define SPLIT_MAX 2
typedef struct wg_split {
  unsigned n;
  split_cmp c[SPLIT_MAX];
} wg_split;

/* Bodies larger than this are not copied (the copies' compile time): one
 * compare; two. */
#define SPLIT_MAX_INSTRUCTIONS 4000
#define SPLIT2_MAX_INSTRUCTIONS 1500

/* v is x's global or local id plus uniform values, with no value on the way
 * narrower than `bits`. */
static int x_affine(trim_ctx *t, LLVMValueRef v, unsigned bits, unsigned depth)
{
  wg_gen *g = t->g;
  if (v == g->p_lid[0] || v == g->p_gx)
    return 1;
  if (depth > 8 || !LLVMIsAInstruction(v) || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(LLVMTypeOf(v)) < bits)
    return 0;
  unsigned budget = TRIM_BUDGET;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMTrunc: case LLVMZExt: case LLVMSExt:
    return x_affine(t, LLVMGetOperand(v, 0), bits, depth + 1);
  case LLVMAdd:
    for (unsigned k = 0; k < 2; k++) {
      LLVMValueRef o = LLVMGetOperand(v, 1 - k);
      if (x_affine(t, LLVMGetOperand(v, k), bits, depth + 1) && wg_is_uniform(t->u, o) && clonable(t, o, &budget))
        return 1;
    }
    return 0;
  case LLVMSub: {
    LLVMValueRef o = LLVMGetOperand(v, 1);
    return x_affine(t, LLVMGetOperand(v, 0), bits, depth + 1) && wg_is_uniform(t->u, o) && clonable(t, o, &budget);
  }
  default:
    return 0;
  }
}

/* c is a guard to split at: fills *s. */
static int split_compare(trim_ctx *t, LLVMValueRef c, split_cmp *s)
{
  if (!LLVMIsAICmpInst(c))
    return 0;
  LLVMTypeRef ty = LLVMTypeOf(LLVMGetOperand(c, 0));
  if (LLVMGetTypeKind(ty) != LLVMIntegerTypeKind)
    return 0;
  unsigned bits = LLVMGetIntTypeWidth(ty);
  if (bits != 32 && bits != 64)
    return 0;
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef e = LLVMGetOperand(c, k), u = LLVMGetOperand(c, 1 - k);
    unsigned budget = TRIM_BUDGET;
    if (!x_affine(t, e, bits, 0) || !wg_is_uniform(t->u, u) || !clonable(t, u, &budget))
      continue;
    LLVMIntPredicate p = LLVMGetICmpPredicate(c);
    if (k)
      p = swapped(p);
    /* e p u: true on [0, b) (<, <=) or false there (>, >=) */
    s->prefix_true = !(p == LLVMIntUGT || p == LLVMIntUGE || p == LLVMIntSGT || p == LLVMIntSGE);
    if (!s->prefix_true)
      p = inverse(p);
    if (p != LLVMIntULT && p != LLVMIntULE && p != LLVMIntSLT && p != LLVMIntSLE)
      return 0;
    s->cmp = c;
    s->e = e;
    s->u = u;
    s->pred = p;
    return 1;
  }
  return 0;
}

/* The guards among the i1 values a branch condition is made of, added to
 * s (up to SPLIT_MAX, each compare once). */
static void split_in(trim_ctx *t, LLVMValueRef c, wg_split *s, unsigned depth)
{
  if (s->n == SPLIT_MAX)
    return;
  split_cmp sc;
  if (split_compare(t, c, &sc)) {
    for (unsigned j = 0; j < s->n; j++)
      if (s->c[j].cmp == c)
        return;
    s->c[s->n++] = sc;
    return;
  }
  if (depth >= 3 || !LLVMIsAInstruction(c) || LLVMTypeOf(c) != t->g->t_i1)
    return;
  LLVMOpcode op = LLVMGetInstructionOpcode(c);
  if (op != LLVMAnd && op != LLVMOr && op != LLVMSelect)
    return;
  for (unsigned k = 0; k < (op == LLVMSelect ? 3u : 2u); k++)
    split_in(t, LLVMGetOperand(c, k), s, depth + 1);
}

int wg_split_guard(wg_gen *g)
{
  if (g->nbnd || g->opt_disable)
    return 0;
  size_t size = cc_function_size(g->body);
  wg_uni u;
  if (size > SPLIT_MAX_INSTRUCTIONS || wg_uniformity(g, &u))
    return 0;
  trim_ctx t = {g, &u, calloc(u.cfg.n + 1, 1)};
  wg_split s;
  s.n = 0;
  if (t.in && region_blocks(&t, LLVMGetEntryBasicBlock(g->body))) {
    for (unsigned bi = 0; bi < u.cfg.n && s.n < SPLIT_MAX; bi++) {
      LLVMValueRef br = LLVMGetBasicBlockTerminator(u.cfg.block[bi]);
      if (br && LLVMIsABranchInst(br) && LLVMIsConditional(br))
        split_in(&t, LLVMGetCondition(br), &s, 0);
    }
  }
  free(t.in);
  wg_uni_free(&u);
  if (s.n == 2 && size > SPLIT2_MAX_INSTRUCTIONS)
    s.n = 1;
  if (!s.n || !(g->split = malloc(sizeof(*g->split))))
    return 0;
  *g->split = s;
  /* Every use of compare j reads  f == 0 ? c : f == 1  with f its bits of
   * the fast argument. */
  for (unsigned j = 0; j < s.n; j++) {
    LLVMValueRef c = s.c[j].cmp;
    LLVMPositionBuilderBefore(g->b, LLVMGetNextInstruction(c));
    LLVMValueRef f = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, g->p_fast, wg_c32(g, 2 * j), ""), wg_c32(g, 3), "");
    LLVMValueRef r = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, f, wg_c32(g, 0), ""), c,
                                     LLVMBuildICmp(g->b, LLVMIntEQ, f, wg_c32(g, 1), ""), "guard.split");
    LLVMReplaceAllUsesWith(c, r);
    LLVMSetOperand(r, 1, c);
  }
  cc_str_printf(&g->report, "  lane loop split where the guard%s on x's id change%s value: no mask on either side\n",
                s.n > 1 ? "s" : "", s.n > 1 ? "" : "s");
  return 1;
}

/* At the builder: b, where the compare changes value (in [0, L]), and
 * *nowrap, whether e0 + L - 1 stays below the type's largest value (else
 * the compare may change value again).  NULL when the compare's sides
 * can't be computed here. */
static LLVMValueRef split_bound(wg_gen *g, const split_cmp *s, LLVMValueRef *argv, LLVMValueRef ls0,
                                LLVMValueRef *nowrap)
{
  unsigned n = g->nparams;
  wg_uni u;
  memset(&u, 0, sizeof(u));
  if (cc_cfg_build(&u.cfg, g->body))
    return NULL;
  trim_ctx t = {g, &u, calloc(u.cfg.n + 1, 1)};
  LLVMValueRef e0 = NULL, uv = NULL;
  LLVMValueRef saved_lx = argv[n + WG_P_LX], saved_gx = argv[n + WG_P_GX];
  argv[n + WG_P_LX] = wg_c64(g, 0);
  argv[n + WG_P_GX] = LLVMBuildNUWMul(g->b, argv[n + WG_P_GOFF], g->wg_els0, "gx0");
  if (t.in && region_blocks(&t, LLVMGetEntryBasicBlock(g->body))) {
    clone_map map;
    map.n = 0;
    e0 = clone_into_wg(&t, s->e, argv, &map);
    uv = e0 ? clone_into_wg(&t, s->u, argv, &map) : NULL;
  }
  argv[n + WG_P_LX] = saved_lx;
  argv[n + WG_P_GX] = saved_gx;
  free(t.in);
  cc_cfg_free(&u.cfg);
  if (!e0 || !uv)
    return NULL;
  LLVMTypeRef ty = LLVMTypeOf(e0);
  int sgn = s->pred == LLVMIntSLT || s->pred == LLVMIntSLE;
  int strict = s->pred == LLVMIntULT || s->pred == LLVMIntSLT;
  unsigned bits = LLVMGetIntTypeWidth(ty);
  LLVMValueRef l = bits < 64 ? LLVMBuildTrunc(g->b, ls0, ty, "") : ls0;
  LLVMValueRef lm1 = LLVMBuildSub(g->b, l, LLVMConstInt(ty, 1, 0), "");
  LLVMValueRef max = sgn ? LLVMConstInt(ty, (bits == 64 ? ~0ull : 0xffffffffull) >> 1, 0) : LLVMConstAllOnes(ty);
  *nowrap = LLVMBuildICmp(g->b, sgn ? LLVMIntSLE : LLVMIntULE, e0, LLVMBuildSub(g->b, max, lm1, ""), "guard.nowrap");
  /* [0, b): e0 + x < u (<= u); e0 + x does not wrap there whatever *nowrap */
  LLVMValueRef has = LLVMBuildICmp(g->b, strict ? (sgn ? LLVMIntSGT : LLVMIntUGT) : (sgn ? LLVMIntSGE : LLVMIntUGE),
                                   uv, e0, "");
  LLVMValueRef d = LLVMBuildSub(g->b, uv, e0, ""); /* u - e0 >= 0 when has */
  LLVMValueRef cnt;
  if (strict)
    cnt = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, d, l, ""), d, l, "");
  else
    cnt = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, d, lm1, ""), l,
                          LLVMBuildAdd(g->b, d, LLVMConstInt(ty, 1, 0), ""), "");
  cnt = LLVMBuildSelect(g->b, has, cnt, LLVMConstNull(ty), "");
  return bits < 64 ? LLVMBuildZExt(g->b, cnt, g->t_i64, "guard.bound") : cnt;
}

/* Lane loops over x in [from, from + count) (from NULL: 0) with fast, when
 * count is not 0. */
static void split_range(wg_gen *g, LLVMValueRef *argv, const wg_lanes *ln, LLVMValueRef from, LLVMValueRef count,
                        unsigned fast)
{
  LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.split");
  LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.split.next");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, count, wg_c64(g, 0), ""), run, after);
  LLVMPositionBuilderAtEnd(g->b, run);
  LLVMValueRef ls[3] = {count, ln->ls[1], ln->ls[2]};
  wg_lanes r = *ln;
  r.ls = ls;
  r.xbase = from;
  r.range = 1;
  argv[g->nparams + WG_P_FAST] = wg_c32(g, fast);
  wg_build_lane_loops(g, argv, &r);
  argv[g->nparams + WG_P_FAST] = wg_c32(g, 0);
  LLVMBuildBr(g->b, after);
  LLVMPositionBuilderAtEnd(g->b, after);
}

/* The fast argument for compare values v[j] (1 true, 2 false). */
static unsigned fast_bits(const unsigned *v, unsigned n)
{
  unsigned f = 0;
  for (unsigned j = 0; j < n; j++)
    f |= v[j] << (2 * j);
  return f;
}

void wg_build_split_lanes(wg_gen *g, LLVMValueRef *argv, const wg_lanes *ln)
{
  const wg_split *s = g->split;
  LLVMValueRef ls0 = ln->ls[0], nowrap = NULL, b[SPLIT_MAX];
  for (unsigned j = 0; j < s->n; j++) {
    LLVMValueRef nw;
    b[j] = split_bound(g, &s->c[j], argv, ls0, &nw);
    if (!b[j]) {
      wg_build_lane_loops(g, argv, ln);
      return;
    }
    nowrap = nowrap ? LLVMBuildAnd(g->b, nowrap, nw, "") : nw;
  }
  LLVMBasicBlockRef split = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.split.guard");
  LLVMBasicBlockRef whole = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.as.written");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.split.end");
  LLVMBuildCondBr(g->b, nowrap, split, whole);
  LLVMPositionBuilderAtEnd(g->b, split);
  /* Compare j is p[j] on [0, b[j]) and the other value from there. */
  unsigned p[SPLIT_MAX], q[SPLIT_MAX], v[SPLIT_MAX];
  for (unsigned j = 0; j < s->n; j++) {
    p[j] = s->c[j].prefix_true ? 1 : 2;
    q[j] = 3 - p[j];
  }
  if (s->n == 1) {
    split_range(g, argv, ln, NULL, b[0], fast_bits(p, 1));
    split_range(g, argv, ln, b[0], LLVMBuildNUWSub(g->b, ls0, b[0], ""), fast_bits(q, 1));
  } else {
    /* [0, lo): both as on the prefix; [hi, L): both flipped; [lo, hi): the
     * compare with the lower bound flipped, the other not. */
    LLVMValueRef first = LLVMBuildICmp(g->b, LLVMIntULE, b[0], b[1], "");
    LLVMValueRef lo = LLVMBuildSelect(g->b, first, b[0], b[1], "");
    LLVMValueRef hi = LLVMBuildSelect(g->b, first, b[1], b[0], "");
    split_range(g, argv, ln, NULL, lo, fast_bits(p, 2));
    LLVMBasicBlockRef m0 = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.split.mid0");
    LLVMBasicBlockRef m1 = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.split.mid1");
    LLVMBasicBlockRef mj = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.split.mid.end");
    LLVMValueRef mid = LLVMBuildNUWSub(g->b, hi, lo, "");
    LLVMBuildCondBr(g->b, first, m0, m1);
    LLVMPositionBuilderAtEnd(g->b, m0);
    v[0] = q[0], v[1] = p[1];
    split_range(g, argv, ln, lo, mid, fast_bits(v, 2));
    LLVMBuildBr(g->b, mj);
    LLVMPositionBuilderAtEnd(g->b, m1);
    v[0] = p[0], v[1] = q[1];
    split_range(g, argv, ln, lo, mid, fast_bits(v, 2));
    LLVMBuildBr(g->b, mj);
    LLVMPositionBuilderAtEnd(g->b, mj);
    split_range(g, argv, ln, hi, LLVMBuildNUWSub(g->b, ls0, hi, ""), fast_bits(q, 2));
  }
  LLVMBuildBr(g->b, done);
  LLVMPositionBuilderAtEnd(g->b, whole);
  wg_build_lane_loops(g, argv, ln);
  LLVMBuildBr(g->b, done);
  LLVMPositionBuilderAtEnd(g->b, done);
}

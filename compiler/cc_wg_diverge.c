/* Masked widening of lane loops whose inner loops run a different number
 * of times in each work-item (mandelbrot's escape loop, a search that
 * breaks on data): the case LLVM's loop vectorizer and its VPlan-native
 * path refuse (they need a uniform inner trip count, see cc_wg_outer.c).
 *
 * wg_diverge_widen rewrites one lane loop (the x loop of a region, after
 * cc_wg_outer.c's step 1 optimized the module) into a loop over chunks of
 * W work-items, W = the target's vector bits / 32, each SSA value of the
 * region a vector of W lanes:
 *   - every block of the region runs for the whole chunk under a mask (the
 *     lanes whose work-item would run it); a branch on a value of the
 *     work-item (or a switch) becomes the masks of its edges, a phi a
 *     chain of selects on the masks of its incoming edges.  Outside inner
 *     loops, a block that post-dominates its nearest dominator there has
 *     its mask (the store after mandelbrot's loop is unmasked).
 *   - an inner loop becomes a loop that runs while any lane is active (a
 *     reduction of the mask); the masks of its exits and the values used
 *     after it accumulate, per lane, from the iteration in which that lane
 *     left; the lanes that left keep what they had.
 *   - a private array of the work-item that the scalar loop keeps on the
 *     stack (one alloca the work-items reuse in turn) gets W copies side by
 *     side, one per lane, when it is static, at most 64 KiB in all and used
 *     by the region alone;
 *   - loads and stores become masked gathers and scatters (cc_wg_affine.c
 *     turns those of consecutive or one address under an all-true mask into
 *     plain ones), an integer division divides the masked-off lanes by 1,
 *     arithmetic, compares, selects, casts, getelementptr and the pure math
 *     intrinsics widen lane by lane.  A value computed only from values of
 *     the group (arguments, ids of y and z) stays scalar.
 * Full chunks run the vector loop; the rest of the work-items (a local size
 * that is not a multiple of W) run the original loop, which is kept for
 * them.  Anything else in the region (other calls, atomics, vector values,
 * irreducible control flow, a value used after the lane loop, other stack
 * memory)
 * leaves the lane loop as it was, with the reason for the report; so does
 * a region that a cost estimate says runs slower widened than scalar:
 * integer divisions or gathers and scatters dominate (cost_problem).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"
#include "compiler/cc_wg_diverge.h"

#include <llvm-c/Analysis.h>

typedef struct dv_loop {
  unsigned header;
  int parent;            /* enclosing loop (-1 for loops[0], the lane loop) */
  unsigned char *in;     /* in[b]: block b is in the loop */
  unsigned *order;       /* its nodes in topological order: block b, or n + loop */
  unsigned norder;
} dv_loop;

/* A header phi of the lane loop other than its counter. */
typedef struct dv_iv {
  LLVMValueRef phi, start, step, next;
  LLVMTypeRef gep_ty;  /* next = getelementptr gep_ty, phi, step (else phi + step) */
} dv_iv;

typedef struct dv {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMBuilderRef b;
  LLVMValueRef fn;
  const cc_cfg *cfg;
  unsigned n, W;
  unsigned latch;          /* the lane loop's latch */
  dv_loop *loops;          /* loops[0]: the lane loop */
  unsigned nloops;
  int *inner;              /* innermost loop of each block, -1 outside the lane loop */
  unsigned *ipdom;
  cc_ptrmap map;           /* instruction of the region -> 1 + index in val */
  LLVMValueRef *val;
  unsigned char *vec;      /* val[i] is a vector (else a value of the group) */
  unsigned nval, capval;
  LLVMValueRef *bmask;     /* mask of each block */
  LLVMValueRef *emask;     /* mask of edge s of block b: emask[eoff[b] + s] */
  unsigned *eoff;
  LLVMTypeRef t_i1, t_i32, t_vi1;
  LLVMValueRef ones, zero;
  LLVMValueRef lx;         /* the lane loop's counter */
  dv_iv *iv;               /* its other header phis */
  unsigned niv;
  LLVMValueRef *priv;      /* allocas the region uses: priv[k], lanes' copies priv[cappriv + k] */
  unsigned npriv, cappriv;
  int broken;              /* a value was missing while building (a bug) */
  char buf[160];
} dv;

/* ---- checks ---- */

/* Intrinsics with no effect on the values: dropped. */
static const char *const dropped_intrinsics[] = {
    "llvm.lifetime.", "llvm.assume", "llvm.dbg.", "llvm.experimental.noalias.scope.decl",
};

static int has_prefix_in(LLVMValueRef call, const char *const *list, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (cc_callee_has_prefix(call, list[i]))
      return 1;
  return 0;
}

static int is_dropped(LLVMValueRef i)
{
  return LLVMIsACallInst(i) && cc_called_function(i) && LLVMGetIntrinsicID(cc_called_function(i)) &&
         has_prefix_in(i, dropped_intrinsics, sizeof(dropped_intrinsics) / sizeof(dropped_intrinsics[0]));
}

/* A pure intrinsic whose arguments are of its result type, or i1 constants. */
static int is_pure_call(LLVMValueRef i)
{
  LLVMValueRef f = cc_called_function(i);
  if (!f || !LLVMGetIntrinsicID(f) || !wg_lanewise_intrinsic(i))
    return 0;
  LLVMTypeRef rt = LLVMTypeOf(i);
  if (!wg_scalar_type(rt))
    return 0;
  unsigned n = LLVMGetNumArgOperands(i);
  for (unsigned a = 0; a < n; a++) {
    LLVMValueRef v = LLVMGetOperand(i, a);
    int flag = LLVMIsAConstantInt(v) && LLVMTypeOf(v) == LLVMInt1TypeInContext(LLVMGetTypeContext(rt));
    if (LLVMTypeOf(v) != rt && !flag)
      return 0;
  }
  return 1;
}

static int widens_call(LLVMValueRef call)
{
  return is_dropped(call) || is_pure_call(call);
}

/* NULL when the widening takes instruction i, else why not. */
static const char *inst_problem(dv *d, LLVMValueRef i)
{
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  LLVMTypeRef t = LLVMTypeOf(i);
  if (LLVMGetTypeKind(t) != LLVMVoidTypeKind && !wg_scalar_type(t))
    return "vector or aggregate values";
  int known;
  const char *why = wg_shared_problem(i, widens_call, d->buf, sizeof(d->buf), &known);
  if (known)
    return why;
  switch (op) {
  case LLVMSwitch:
    if (!wg_scalar_type(LLVMTypeOf(LLVMGetOperand(i, 0))))
      return "vector or aggregate values";
    return NULL;
  case LLVMAlloca:
    return "a stack allocation";
  default:
    if (wg_lanewise_opcode(op))
      break;
    snprintf(d->buf, sizeof(d->buf), "an instruction it cannot widen (opcode %d)", (int)op);
    return d->buf;
  }
  unsigned n = (unsigned)LLVMGetNumOperands(i);
  for (unsigned k = 0; k < n; k++)
    if (!wg_scalar_type(LLVMTypeOf(LLVMGetOperand(i, k))))
      return "vector or aggregate values";
  return NULL;
}

static int block_index(const dv *d, LLVMBasicBlockRef bb)
{
  return cc_cfg_find(d->cfg, bb);
}

/* v is computed in the lane loop (else it is the group's). */
static int in_region(const dv *d, LLVMValueRef v)
{
  if (!LLVMIsAInstruction(v))
    return 0;
  int bi = block_index(d, LLVMGetInstructionParent(v));
  return bi >= 0 && d->loops[0].in[bi];
}

/* The node of block b in loop R's order: b itself, or n + the child loop
 * of R that holds it. */
static unsigned node_of(const dv *d, unsigned R, unsigned b)
{
  int l = d->inner[b];
  if (l == (int)R)
    return b;
  while (d->loops[l].parent != (int)R)
    l = d->loops[l].parent;
  return d->n + (unsigned)l;
}

/* The node of loop R that successor s of terminator t leads to; ~0u for an
 * edge out of R or back to its header. */
static unsigned edge_node(const dv *d, unsigned R, LLVMValueRef t, unsigned s)
{
  const dv_loop *L = &d->loops[R];
  int si = block_index(d, LLVMGetSuccessor(t, s));
  if (si < 0 || !L->in[si] || (unsigned)si == L->header)
    return ~0u;
  return node_of(d, R, (unsigned)si);
}

/* The loop with the fewest blocks among loops[from..] but loops[skip]
 * that holds block b (the first of them on a tie); none when no loop does. */
static int smallest_loop(const dv *d, unsigned from, unsigned skip, unsigned b, int none)
{
  int best = none;
  unsigned best_size = ~0u;
  for (unsigned l = from; l < d->nloops; l++) {
    if (l == skip || !d->loops[l].in[b])
      continue;
    unsigned size = 0;
    for (unsigned k = 0; k < d->n; k++)
      size += d->loops[l].in[k];
    if (size < best_size) {
      best_size = size;
      best = (int)l;
    }
  }
  return best;
}

/* Nesting and topological order of each loop's nodes (its own blocks and
 * its child loops, back edges to its header left out); NULL or why not. */
static const char *order_loops(dv *d)
{
  unsigned n = d->n;
  for (unsigned l = 1; l < d->nloops; l++)
    d->loops[l].parent = smallest_loop(d, 1, l, d->loops[l].header, 0);
  for (unsigned b = 0; b < n; b++)
    d->inner[b] = smallest_loop(d, 0, ~0u, b, -1);
  unsigned *indeg = calloc(n + d->nloops, sizeof(*indeg));
  unsigned *queue = malloc((n + d->nloops) * sizeof(*queue));
  if (!indeg || !queue) {
    free(indeg);
    free(queue);
    return "out of memory";
  }
  const char *why = NULL;
  for (unsigned R = 0; R < d->nloops && !why; R++) {
    dv_loop *L = &d->loops[R];
    memset(indeg, 0, (n + d->nloops) * sizeof(*indeg));
    unsigned nnodes = 0;
    for (unsigned b = 0; b < n; b++) {
      if (!L->in[b])
        continue;
      unsigned src = node_of(d, R, b);
      if (src == b || (src >= n && d->loops[src - n].header == b))
        nnodes++;
      LLVMValueRef t = LLVMGetBasicBlockTerminator(d->cfg->block[b]);
      for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++) {
        unsigned dst = edge_node(d, R, t, s);
        if (dst != ~0u && dst != src)
          indeg[dst]++;
      }
    }
    L->order = malloc(nnodes * sizeof(*L->order));
    if (!L->order) {
      why = "out of memory";
      break;
    }
    unsigned qh = 0, qt = 0;
    queue[qt++] = L->header;
    while (qh < qt) {
      unsigned node = queue[qh++];
      L->order[L->norder++] = node;
      /* the edges out of the node: of its block, or of every block of its loop */
      for (unsigned b = 0; b < n; b++) {
        if (!L->in[b])
          continue;
        if (node < n ? b != node : !d->loops[node - n].in[b])
          continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(d->cfg->block[b]);
        for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++) {
          unsigned dst = edge_node(d, R, t, s);
          if (dst != ~0u && dst != node && --indeg[dst] == 0)
            queue[qt++] = dst;
        }
      }
    }
    if (L->norder != nnodes)
      why = "irreducible control flow";
  }
  free(indeg);
  free(queue);
  return why;
}

/* The recurrence of a header phi of the lane loop: start from the entry
 * edge, next = phi + step or getelementptr (phi, step), step the group's.
 * 0 when it is not one. */
static int recurrence(dv *d, LLVMValueRef phi, dv_iv *iv)
{
  if (LLVMCountIncoming(phi) != 2)
    return 0;
  memset(iv, 0, sizeof(*iv));
  iv->phi = phi;
  LLVMValueRef next = NULL;
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef v = LLVMGetIncomingValue(phi, k);
    int p = block_index(d, LLVMGetIncomingBlock(phi, k));
    if (p >= 0 && d->loops[0].in[p])
      next = v;
    else
      iv->start = v;
  }
  if (!next || !iv->start || in_region(d, iv->start) || !LLVMIsAInstruction(next))
    return 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(next);
  if (op == LLVMAdd && LLVMGetTypeKind(LLVMTypeOf(phi)) == LLVMIntegerTypeKind) {
    LLVMValueRef a = LLVMGetOperand(next, 0), c = LLVMGetOperand(next, 1);
    if (a != phi)
      a = c, c = LLVMGetOperand(next, 0);
    iv->step = c;
    iv->next = next;
    return a == phi && !in_region(d, c);
  }
  if (op == LLVMGetElementPtr && LLVMGetNumOperands(next) == 2 && LLVMGetOperand(next, 0) == phi &&
      !in_region(d, LLVMGetOperand(next, 1))) {
    iv->step = LLVMGetOperand(next, 1);
    iv->gep_ty = LLVMGetGEPSourceElementType(next);
    iv->next = next;
    return 1;
  }
  return 0;
}

/* The lane loop's shape: one entry edge, one exit (the latch's), the
 * counter lx from 0 by 1 that the latch tests against a bound of the
 * group, any other header phi a recurrence (recurrence()).  Sets d->lx
 * and d->iv. */
static const char *lane_loop_problem(dv *d, LLVMValueRef *bound)
{
  const cc_cfg *cfg = d->cfg;
  dv_loop *L = &d->loops[0];
  LLVMBasicBlockRef H = cfg->block[L->header];
  LLVMValueRef br = LLVMGetBasicBlockTerminator(cfg->block[d->latch]);
  static const char shape[] = "the lane loop is not in the expected form";
  unsigned outside = 0;
  for (unsigned k = cfg->pred_start[L->header]; k < cfg->pred_start[L->header + 1]; k++)
    outside += !L->in[cfg->pred[k]];
  if (outside != 1 || !LLVMIsABranchInst(br) || !LLVMIsConditional(br))
    return shape;
  LLVMValueRef cond = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(cond))
    return shape;
  LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
  LLVMValueRef x1 = LLVMGetOperand(cond, 0), r = LLVMGetOperand(cond, 1);
  if (!in_region(d, x1)) {
    LLVMValueRef t = x1;
    x1 = r, r = t;
    p = p == LLVMIntUGT ? LLVMIntULT : p == LLVMIntULT ? LLVMIntUGT : p == LLVMIntULE ? LLVMIntUGE
      : p == LLVMIntUGE ? LLVMIntULE : p;
  }
  if (in_region(d, r) || !LLVMIsAInstruction(x1) || LLVMGetInstructionOpcode(x1) != LLVMAdd)
    return shape;
  /* the test to go on: x + 1 < bound or x + 1 != bound */
  int goes_on = LLVMGetSuccessor(br, 0) == H ? p == LLVMIntULT || p == LLVMIntNE : p == LLVMIntUGE || p == LLVMIntEQ;
  if (!goes_on)
    return shape;
  LLVMValueRef lx = LLVMGetOperand(x1, 0), c = LLVMGetOperand(x1, 1);
  if (!LLVMIsAPHINode(lx))
    lx = c, c = LLVMGetOperand(x1, 0);
  if (!LLVMIsAPHINode(lx) || LLVMGetInstructionParent(lx) != H || !LLVMIsAConstantInt(c) ||
      LLVMConstIntGetZExtValue(c) != 1)
    return shape;
  unsigned nphi = 0;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(H); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
    nphi++;
  d->iv = calloc(nphi + 1, sizeof(*d->iv));
  if (!d->iv)
    return "out of memory";
  for (LLVMValueRef phi = LLVMGetFirstInstruction(H); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
    dv_iv iv;
    if (!recurrence(d, phi, &iv))
      return "a phi of the lane loop is not a recurrence";
    if (phi == lx) {
      if (iv.next != x1 || !LLVMIsAConstantInt(iv.start) || LLVMConstIntGetZExtValue(iv.start) != 0)
        return shape;
      continue;
    }
    d->iv[d->niv++] = iv;
  }
  /* the exit */
  LLVMBasicBlockRef E = LLVMGetSuccessor(br, LLVMGetSuccessor(br, 0) == H ? 1 : 0);
  for (LLVMValueRef phi = LLVMGetFirstInstruction(E); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
    for (unsigned k = 0; k < LLVMCountIncoming(phi); k++)
      if (LLVMGetIncomingBlock(phi, k) == cfg->block[d->latch] && in_region(d, LLVMGetIncomingValue(phi, k)))
        return "a value of the lane loop is used after it";
  d->lx = lx;
  *bound = r;
  return NULL;
}

/* v (a value of the group) points into a stack allocation: private memory
 * that every work-item of the scalar loop reuses in turn, which lanes
 * running together would share. */
static int stack_memory(const dv *d, LLVMValueRef v, unsigned depth)
{
  if (depth > 8 || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMPointerTypeKind || !LLVMIsAInstruction(v))
    return 0;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAlloca:
    return 1;
  case LLVMGetElementPtr: case LLVMBitCast: case LLVMAddrSpaceCast:
    return stack_memory(d, LLVMGetOperand(v, 0), depth + 1);
  case LLVMSelect:
    return stack_memory(d, LLVMGetOperand(v, 1), depth + 1) || stack_memory(d, LLVMGetOperand(v, 2), depth + 1);
  case LLVMPHI:
    for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
      if (stack_memory(d, LLVMGetIncomingValue(v, k), depth + 1))
        return 1;
    return 0;
  default:
    return 0;
  }
}

/* The alloca v points into through getelementptr and casts outside the
 * region, NULL if none. */
static LLVMValueRef stack_root(const dv *d, LLVMValueRef v)
{
  for (unsigned depth = 0; depth < 16 && LLVMIsAInstruction(v) && !in_region(d, v); depth++) {
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAlloca:
      return v;
    case LLVMGetElementPtr: case LLVMBitCast: case LLVMAddrSpaceCast:
      v = LLVMGetOperand(v, 0);
      break;
    default:
      return NULL;
    }
  }
  return NULL;
}

/* Every use of v (an alloca or a pointer the group derives from it) is in
 * the region, or marks a lifetime. */
static int only_region_uses(const dv *d, LLVMValueRef v, unsigned depth)
{
  if (depth > 16)
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (in_region(d, user) || is_dropped(user))
      continue;
    if (!LLVMIsAInstruction(user))
      return 0;
    LLVMOpcode op = LLVMGetInstructionOpcode(user);
    if ((op != LLVMGetElementPtr && op != LLVMBitCast && op != LLVMAddrSpaceCast) || LLVMGetOperand(user, 0) != v ||
        !only_region_uses(d, user, depth + 1))
      return 0;
  }
  return 1;
}

/* Stack memory used by the region (private arrays of the work-item, which
 * the scalar loop reuses for each work-item in turn): each lane gets its
 * own copy when the alloca is static, small, and used by the region only;
 * NULL or why not. */
static const char *private_copies(dv *d, LLVMValueRef v)
{
  LLVMValueRef a = stack_root(d, v);
  if (!a)
    return stack_memory(d, v, 0) ? "private memory on the stack" : NULL;
  for (unsigned k = 0; k < d->npriv; k++)
    if (d->priv[k] == a)
      return NULL;
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(d->m);
  LLVMValueRef count = LLVMGetOperand(a, 0);
  LLVMTypeRef t = LLVMGetAllocatedType(a);
  if (LLVMGetInstructionParent(a) != LLVMGetEntryBasicBlock(d->fn) || !LLVMIsAConstantInt(count) ||
      LLVMConstIntGetZExtValue(count) != 1 || !LLVMTypeIsSized(t) ||
      LLVMABISizeOfType(td, t) * d->W > 65536 || !only_region_uses(d, a, 0))
    return "private memory on the stack";
  if (d->npriv == d->cappriv) {
    unsigned cap = d->cappriv ? 2 * d->cappriv : 4;
    LLVMValueRef *p = realloc(d->priv, 2 * cap * sizeof(*p));
    if (!p)
      return "out of memory";
    memmove(p + cap, p + d->cappriv, d->npriv * sizeof(*p));
    d->priv = p;
    d->cappriv = cap;
  }
  d->priv[d->npriv++] = a;
  return NULL;
}

/* ---- cost ----
 * Masked widening divides lane by lane (x86 has no vector integer
 * division: W scalar divisions, and the masked-off lanes divide by 1 too),
 * makes each load or store whose lanes' addresses are not one address nor
 * consecutive elements a gather or scatter (an access per lane), and runs
 * each inner loop as often as its longest-running lane.  Where those
 * dominate, the widened loop is slower than the scalar one.  Estimate, per
 * W work-items, each instruction weighted by 8 per inner loop around it:
 *   scalar:  W * (DV_DIV for a division by a non-constant, else 1);
 *   widened: 2 for most (one vector instruction, wide ones take two),
 *            W * (DV_DIV + 2) for a division (extract, divide, insert),
 *            W * DV_GATHER for a gather, W * DV_SCATTER for a scatter,
 *            times DV_SPREAD / 2 in inner loops (lanes wait for the
 *            longest trip count);
 * and keep the loop scalar when widened > scalar and it has divisions or
 * gathers/scatters (plain instructions alone always gain).  The constants
 * come from timings (W = 16, AVX-512 on an AMD EPYC, per-work-item trip
 * counts of 0-63, medians of interleaved runs, CPU time; widened over
 * scalar): a division and ~8 other instructions per iteration 1.5-1.8, with
 * two hash rounds more 0.9, with four 0.46; a pointer chase (load, and,
 * add) 1.31; a gather at a hashed address 1.30; with a hash round chained
 * through the iterations 0.50; a gather and scatter into 16 MiB 1.50; a
 * private array of 256 ints filled and read (lanes' copies 1 KiB apart) 19;
 * a float loop 0.35.  The estimate keeps all of those right but the hashed
 * gather (it cannot see that the scalar loop overlaps its iterations). */
#define DV_DIV 32
#define DV_GATHER 8
#define DV_SCATTER 8
#define DV_SPREAD 3
#define DV_STRIDE_UNKNOWN INT64_MIN

/* How lanes' values of v differ: lane k's is lane 0's + k * stride (bytes
 * for pointers), or DV_STRIDE_UNKNOWN.  A value of the group: 0 (unless it
 * points into a private array, of which each lane has its own copy); an
 * inner loop's phi: as its start (its counter from a value of the group
 * stays one value for the lanes in the loop). */
static int64_t lane_stride(const dv *d, LLVMValueRef v, unsigned depth)
{
  if (!in_region(d, v))
    return d->npriv && stack_root(d, v) ? DV_STRIDE_UNKNOWN : 0;
  if (depth > 16)
    return DV_STRIDE_UNKNOWN;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  int64_t a = 0, c = 0;
  if (op == LLVMPHI) {
    if (v == d->lx)
      return 1;
    for (unsigned k = 0; k < d->niv; k++)
      if (d->iv[k].phi == v) {
        if (!LLVMIsAConstantInt(d->iv[k].step))
          return DV_STRIDE_UNKNOWN;
        int64_t step = LLVMConstIntGetSExtValue(d->iv[k].step);
        LLVMTargetDataRef td = LLVMGetModuleDataLayout(d->m);
        return d->iv[k].gep_ty ? step * (int64_t)LLVMABISizeOfType(td, d->iv[k].gep_ty) : step;
      }
    int b = block_index(d, LLVMGetInstructionParent(v)), l = d->inner[b];
    int64_t s = DV_STRIDE_UNKNOWN;
    for (unsigned k = 0; k < LLVMCountIncoming(v); k++) {
      int p = block_index(d, LLVMGetIncomingBlock(v, k));
      if (l > 0 && d->loops[l].header == (unsigned)b && p >= 0 && d->loops[l].in[p])
        continue; /* around the inner loop */
      int64_t t = lane_stride(d, LLVMGetIncomingValue(v, k), depth + 1);
      if (s != DV_STRIDE_UNKNOWN && t != s)
        return DV_STRIDE_UNKNOWN;
      s = t;
    }
    return s;
  }
  switch (op) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMAShr: case LLVMLShr:
    a = lane_stride(d, LLVMGetOperand(v, 0), depth + 1);
    c = lane_stride(d, LLVMGetOperand(v, 1), depth + 1);
    if (a == DV_STRIDE_UNKNOWN || c == DV_STRIDE_UNKNOWN)
      return DV_STRIDE_UNKNOWN;
    if (op == LLVMAdd || op == LLVMSub)
      return op == LLVMAdd ? a + c : a - c;
    if (!a && !c)
      return 0;
    LLVMValueRef k = LLVMGetOperand(v, 1);
    if (op == LLVMMul && !c && LLVMIsAConstantInt(k))
      return a * LLVMConstIntGetSExtValue(k);
    if (op == LLVMMul && !a && LLVMIsAConstantInt(LLVMGetOperand(v, 0)))
      return c * LLVMConstIntGetSExtValue(LLVMGetOperand(v, 0));
    if (c || !LLVMIsAConstantInt(k) || LLVMConstIntGetZExtValue(k) > 40 || a > ((int64_t)1 << 40) ||
        -a > ((int64_t)1 << 40))
      return DV_STRIDE_UNKNOWN;
    /* shifts by constants: (x << 32) >> 30 is x * 4 (sext(trunc(x)) * 4, no lane wraps) */
    int64_t p2 = (int64_t)1 << LLVMConstIntGetZExtValue(k);
    if (op == LLVMShl)
      return a * p2;
    return a % p2 ? DV_STRIDE_UNKNOWN : a / p2;
  case LLVMSExt: case LLVMZExt: case LLVMTrunc: case LLVMBitCast: case LLVMAddrSpaceCast:
    return lane_stride(d, LLVMGetOperand(v, 0), depth + 1);
  case LLVMGetElementPtr: {
    a = lane_stride(d, LLVMGetOperand(v, 0), depth + 1);
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    LLVMTypeRef st = LLVMGetGEPSourceElementType(v);
    for (unsigned i = 1; i < n && a != DV_STRIDE_UNKNOWN; i++) {
      c = lane_stride(d, LLVMGetOperand(v, i), depth + 1);
      if (c && (i > 1 || c == DV_STRIDE_UNKNOWN || !LLVMTypeIsSized(st)))
        return DV_STRIDE_UNKNOWN;
      a += c * (int64_t)LLVMABISizeOfType(LLVMGetModuleDataLayout(d->m), st);
    }
    return a;
  }
  default: {
    /* anything else keeps the lanes apart unless its operands are the same in every lane */
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    if (op == LLVMLoad || op == LLVMCall || n > 4)
      return DV_STRIDE_UNKNOWN;
    for (unsigned i = 0; i < n; i++)
      if (lane_stride(d, LLVMGetOperand(v, i), depth + 1))
        return DV_STRIDE_UNKNOWN;
    return 0;
  }
  }
}

/* Load or store i becomes a gather or scatter: its lanes' addresses are
 * neither one address nor consecutive elements. */
static int scattered_access(const dv *d, LLVMValueRef i)
{
  int store = LLVMIsAStoreInst(i) != NULL;
  LLVMTypeRef t = LLVMTypeOf(store ? LLVMGetOperand(i, 0) : i);
  int64_t s = lane_stride(d, LLVMGetOperand(i, store ? 1 : 0), 0);
  return s && s != (int64_t)LLVMABISizeOfType(LLVMGetModuleDataLayout(d->m), t);
}

/* NULL when widening pays, else why not (d->buf). */
static const char *cost_problem(dv *d)
{
  const cc_cfg *cfg = d->cfg;
  double scalar = 0, widened = 0;
  unsigned ndiv = 0, ngather = 0;
  for (unsigned b = 0; b < d->n; b++) {
    if (!d->loops[0].in[b])
      continue;
    unsigned depth = 0;
    for (int l = d->inner[b]; l > 0 && depth < 6; l = d->loops[l].parent)
      depth++;
    double w = 1, spread = depth ? DV_SPREAD / 2.0 : 1;
    for (unsigned k = 0; k < depth; k++)
      w *= 8;
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[b]); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      double s = 1, v = 2;
      if (is_dropped(i))
        continue;
      if ((op == LLVMUDiv || op == LLVMSDiv || op == LLVMURem || op == LLVMSRem) &&
          !LLVMIsAConstantInt(LLVMGetOperand(i, 1))) {
        s = DV_DIV;
        v = d->W * (DV_DIV + 2);
        ndiv++;
      } else if ((op == LLVMLoad || op == LLVMStore) && scattered_access(d, i)) {
        v = d->W * (op == LLVMLoad ? DV_GATHER : DV_SCATTER);
        ngather++;
      }
      scalar += w * d->W * s;
      widened += w * spread * v;
    }
  }
  if (widened <= scalar || (!ndiv && !ngather))
    return NULL;
  snprintf(d->buf, sizeof(d->buf), "slower than scalar: %s dominate (%.0f vs %.0f)",
           ndiv && ngather ? "divisions, gathers" : ndiv ? "divisions" : "gathers/scatters", widened, scalar);
  return d->buf;
}

/* Finds the inner loops and checks every instruction; NULL or why not. */
static const char *analyze(dv *d, LLVMValueRef *bound)
{
  const cc_cfg *cfg = d->cfg;
  unsigned n = d->n;
  dv_loop *L0 = &d->loops[0];
  unsigned ninst = 0;
  for (unsigned b = 0; b < n; b++) {
    if (!L0->in[b])
      continue;
    LLVMBasicBlockRef bb = cfg->block[b];
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      ninst++;
      const char *why = inst_problem(d, i);
      if (why)
        return why;
      for (int k = 0; k < LLVMGetNumOperands(i) && !why; k++)
        if (!in_region(d, LLVMGetOperand(i, k)) && !is_dropped(i))
          why = private_copies(d, LLVMGetOperand(i, k));
      if (why)
        return why;
      for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!in_region(d, user) && !(b == d->latch && user == LLVMGetBasicBlockTerminator(bb)))
          return "a value of the lane loop is used after it";
      }
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || (!LLVMIsABranchInst(t) && !LLVMIsASwitchInst(t)))
      return "a block that does not end in a branch";
    for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++) {
      int si = block_index(d, LLVMGetSuccessor(t, s));
      if (si < 0)
        return "an edge to an unreachable block";
      if (!L0->in[si]) {
        if (b != d->latch)
          return "the lane loop has more than one exit";
        continue;
      }
      if (!cc_cfg_dominates(cfg, (unsigned)si, b))
        continue;
      if ((unsigned)si == L0->header) {
        if (b != d->latch)
          return "the lane loop has more than one latch";
        continue;
      }
      /* a back edge of an inner loop */
      unsigned l;
      for (l = 1; l < d->nloops && d->loops[l].header != (unsigned)si; l++)
        ;
      if (l == d->nloops) {
        d->loops[l].in = calloc(n, 1);
        if (!d->loops[l].in)
          return "out of memory";
        d->loops[l].header = (unsigned)si;
        d->nloops++;
      }
      cc_cfg_loop(cfg, (unsigned)si, b, d->loops[l].in);
    }
  }
  for (unsigned l = 1; l < d->nloops; l++)
    for (unsigned b = 0; b < n; b++)
      if (d->loops[l].in[b] && !L0->in[b])
        return "irreducible control flow";
  const char *why = lane_loop_problem(d, bound);
  if (!why)
    why = order_loops(d);
  if (!why)
    why = cost_problem(d);
  if (!why) {
    d->capval = ninst + 1;
    if (cc_ptrmap_init(&d->map, d->capval))
      return "out of memory";
    d->val = calloc(d->capval, sizeof(*d->val));
    d->vec = calloc(d->capval, 1);
    d->bmask = calloc(n, sizeof(*d->bmask));
    d->eoff = malloc((n + 1) * sizeof(*d->eoff));
    unsigned nedges = 0;
    for (unsigned b = 0; d->eoff && b < n; b++) {
      d->eoff[b] = nedges;
      LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[b]);
      nedges += t ? LLVMGetNumSuccessors(t) : 0;
    }
    d->emask = calloc(nedges + 1, sizeof(*d->emask));
    d->ipdom = malloc(n * sizeof(*d->ipdom));
    if (!d->val || !d->vec || !d->bmask || !d->eoff || !d->emask || !d->ipdom || cc_cfg_postdom(cfg, d->ipdom))
      return "out of memory";
  }
  return why;
}

/* ---- building ---- */

static LLVMTypeRef vty(dv *d, LLVMTypeRef t)
{
  return LLVMVectorType(t, d->W);
}

static LLVMValueRef splat(dv *d, LLVMValueRef s)
{
  return cc_build_splat(d->b, s, d->W, "");
}

static void put(dv *d, LLVMValueRef old, LLVMValueRef nv, int is_vec)
{
  unsigned i;
  if (cc_ptrmap_get(&d->map, old, &i) && i) {
    d->val[i - 1] = nv;
    d->vec[i - 1] = (unsigned char)is_vec;
    return;
  }
  if (d->nval >= d->capval) {
    d->broken = 1;
    return;
  }
  d->val[d->nval] = nv;
  d->vec[d->nval] = (unsigned char)is_vec;
  cc_ptrmap_put(&d->map, old, ++d->nval);
}

/* A value of the group that points into one of the allocas the lanes
 * have copies of: the lanes' pointers (else v itself). */
static LLVMValueRef lane_private(dv *d, LLVMValueRef v, int *is_vec)
{
  LLVMValueRef a = stack_root(d, v);
  unsigned k;
  for (k = 0; a && k < d->npriv && d->priv[k] != a; k++)
    ;
  if (!a || k == d->npriv)
    return v;
  *is_vec = 1;
  if (v == a)
    return d->priv[d->cappriv + k];
  int base_vec;
  LLVMValueRef base = lane_private(d, LLVMGetOperand(v, 0), &base_vec);
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op != LLVMGetElementPtr)
    return LLVMBuildCast(d->b, op, base, vty(d, LLVMTypeOf(v)), "");
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  LLVMValueRef idx[16];
  if (n > 17) {
    d->broken = 1;
    return LLVMGetPoison(vty(d, LLVMTypeOf(v)));
  }
  for (unsigned i = 1; i < n; i++)
    idx[i - 1] = LLVMGetOperand(v, i);
  return cc_build_gep_like(d->b, v, base, idx, n - 1, "");
}

/* The new value of v (a value of the group stays itself); *is_vec says
 * whether it is a vector. */
static LLVMValueRef get(dv *d, LLVMValueRef v, int *is_vec)
{
  *is_vec = 0;
  if (!in_region(d, v))
    return d->npriv ? lane_private(d, v, is_vec) : v;
  unsigned i;
  if (cc_ptrmap_get(&d->map, v, &i) && i) {
    *is_vec = d->vec[i - 1];
    return d->val[i - 1];
  }
  d->broken = 1;
  *is_vec = 1;
  return LLVMGetPoison(vty(d, LLVMTypeOf(v)));
}

static LLVMValueRef getv(dv *d, LLVMValueRef v)
{
  int is_vec;
  LLVMValueRef r = get(d, v, &is_vec);
  return is_vec ? r : splat(d, r);
}

/* Mask logic as selects: a lane the mask leaves out may hold poison. */
static LLVMValueRef m_and(dv *d, LLVMValueRef a, LLVMValueRef b)
{
  if (a == d->zero || b == d->zero)
    return d->zero;
  if (a == d->ones)
    return b;
  if (b == d->ones)
    return a;
  return LLVMBuildSelect(d->b, a, b, d->zero, "");
}

static LLVMValueRef m_or(dv *d, LLVMValueRef a, LLVMValueRef b)
{
  if (!a || a == d->zero)
    return b;
  if (b == d->zero)
    return a;
  if (a == d->ones || b == d->ones)
    return d->ones;
  return LLVMBuildSelect(d->b, a, d->ones, b, "");
}

static LLVMValueRef m_not(dv *d, LLVMValueRef a)
{
  return LLVMBuildXor(d->b, a, d->ones, "");
}

static LLVMValueRef any_lane(dv *d, LLVMValueRef m)
{
  if (m == d->zero)
    return LLVMConstInt(d->t_i1, 0, 0);
  if (m == d->ones)
    return LLVMConstInt(d->t_i1, 1, 0);
  return cc_build_intrinsic(d->b, d->m, "llvm.vector.reduce.or", &d->t_vi1, 1, &m, 1, "any");
}

/* Mask of the edge from block p to block b (both of them, if p has two). */
static LLVMValueRef edge_mask(dv *d, unsigned p, unsigned b)
{
  LLVMValueRef t = LLVMGetBasicBlockTerminator(d->cfg->block[p]), m = NULL;
  for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++)
    if (LLVMGetSuccessor(t, s) == d->cfg->block[b])
      m = m_or(d, m, d->emask[d->eoff[p] + s] ? d->emask[d->eoff[p] + s] : d->zero);
  return m ? m : d->zero;
}

/* The mask of the edges into block b from its predecessors p with in[p]
 * == inside (from all of them: in NULL). */
static LLVMValueRef preds_mask(dv *d, unsigned b, const unsigned char *in, int inside)
{
  const cc_cfg *cfg = d->cfg;
  LLVMValueRef m = NULL;
  for (unsigned k = cfg->pred_start[b]; k < cfg->pred_start[b + 1]; k++) {
    unsigned p = cfg->pred[k];
    if ((k > cfg->pred_start[b] && p == cfg->pred[k - 1]) || (in && in[p] != inside))
      continue;
    m = m_or(d, m, edge_mask(d, p, b));
  }
  return m ? m : d->zero;
}

/* b post-dominates a (indices). */
static int postdominates(const dv *d, unsigned b, unsigned a)
{
  unsigned x = a;
  for (unsigned steps = 0; steps <= d->n && x < d->n; steps++) {
    if (x == b)
      return 1;
    x = d->ipdom[x];
  }
  return 0;
}

/* The mask of block b of loop R (not its header). */
static LLVMValueRef block_mask(dv *d, unsigned R, unsigned b)
{
  const cc_cfg *cfg = d->cfg;
  /* In the lane loop (whose only exit is its latch, and the code after it
   * can end without coming back), a block that post-dominates its nearest
   * dominator outside inner loops runs for the same lanes.  Not so in an inner loop:
   * a lane can leave it before the block and come back to it later. */
  unsigned dom = cfg->idom[b];
  while (R == 0 && d->inner[dom] != 0 && dom != cfg->idom[dom])
    dom = cfg->idom[dom]; /* out of the inner loops that dominate b */
  if (R == 0 && d->inner[dom] == 0 && d->bmask[dom] && postdominates(d, b, dom))
    return d->bmask[dom];
  return preds_mask(d, b, NULL, 0);
}

/* A select chain over the incoming edges of phi whose blocks are (inside
 * = 1) or are not (inside = 0) in loop `in` (NULL: all of them). */
static LLVMValueRef phi_select(dv *d, LLVMValueRef phi, const unsigned char *in, int inside)
{
  unsigned b = (unsigned)block_index(d, LLVMGetInstructionParent(phi));
  LLVMValueRef r = NULL, first = NULL;
  for (unsigned k = 0; k < LLVMCountIncoming(phi); k++) {
    int p = block_index(d, LLVMGetIncomingBlock(phi, k));
    if (p < 0 || (in && (int)in[p] != inside))
      continue;
    LLVMValueRef v = LLVMGetIncomingValue(phi, k);
    if (!first) {
      first = v;
      r = getv(d, v);
      continue;
    }
    if (v == first)
      continue;
    r = LLVMBuildSelect(d->b, edge_mask(d, (unsigned)p, b), getv(d, v), r, "");
  }
  return r ? r : LLVMGetPoison(vty(d, LLVMTypeOf(phi)));
}

static void copy_fmf(LLVMValueRef from, LLVMValueRef to)
{
  if (LLVMIsAInstruction(to) && LLVMCanValueUseFastMathFlags(from) && LLVMCanValueUseFastMathFlags(to))
    LLVMSetFastMathFlags(to, LLVMGetFastMathFlags(from));
}

/* Instruction i (not a phi, not a branch) of a block with mask `mask`. */
static void widen(dv *d, LLVMValueRef i, LLVMValueRef mask)
{
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  if (is_dropped(i))
    return;
  unsigned nops = (unsigned)LLVMGetNumOperands(i);
  int uniform = op != LLVMLoad && op != LLVMStore && op != LLVMUDiv && op != LLVMSDiv && op != LLVMURem &&
                op != LLVMSRem;
  unsigned nargs = op == LLVMCall ? nops - 1 : nops;
  for (unsigned k = 0; k < nargs && uniform; k++) {
    int is_vec;
    get(d, LLVMGetOperand(i, k), &is_vec);
    uniform = !is_vec;
  }
  if (uniform) {
    /* the same in every lane: the instruction itself on the new operands */
    LLVMValueRef c = LLVMInstructionClone(i);
    for (unsigned k = 0; k < nargs; k++) {
      int is_vec;
      LLVMSetOperand(c, k, get(d, LLVMGetOperand(i, k), &is_vec));
    }
    LLVMInsertIntoBuilder(d->b, c);
    put(d, i, c, 0);
    return;
  }
  LLVMTypeRef t = LLVMTypeOf(i);
  LLVMValueRef r = NULL;
  switch (op) {
  case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem: {
    LLVMValueRef den = getv(d, LLVMGetOperand(i, 1));
    if (mask != d->ones)
      den = LLVMBuildSelect(d->b, mask, den, splat(d, LLVMConstInt(t, 1, 0)), "");
    r = LLVMBuildBinOp(d->b, op, getv(d, LLVMGetOperand(i, 0)), den, "");
    break;
  }
  case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub: case LLVMMul: case LLVMFMul: case LLVMFDiv:
  case LLVMFRem: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
    r = LLVMBuildBinOp(d->b, op, getv(d, LLVMGetOperand(i, 0)), getv(d, LLVMGetOperand(i, 1)), "");
    copy_fmf(i, r);
    break;
  case LLVMFNeg:
    r = LLVMBuildFNeg(d->b, getv(d, LLVMGetOperand(i, 0)), "");
    copy_fmf(i, r);
    break;
  case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI: case LLVMUIToFP:
  case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast:
  case LLVMAddrSpaceCast:
    r = LLVMBuildCast(d->b, op, getv(d, LLVMGetOperand(i, 0)), vty(d, t), "");
    copy_fmf(i, r);
    break;
  case LLVMICmp:
    r = LLVMBuildICmp(d->b, LLVMGetICmpPredicate(i), getv(d, LLVMGetOperand(i, 0)), getv(d, LLVMGetOperand(i, 1)), "");
    break;
  case LLVMFCmp:
    r = LLVMBuildFCmp(d->b, LLVMGetFCmpPredicate(i), getv(d, LLVMGetOperand(i, 0)), getv(d, LLVMGetOperand(i, 1)), "");
    copy_fmf(i, r);
    break;
  case LLVMSelect: {
    int is_vec;
    LLVMValueRef cond = get(d, LLVMGetOperand(i, 0), &is_vec);
    r = LLVMBuildSelect(d->b, cond, getv(d, LLVMGetOperand(i, 1)), getv(d, LLVMGetOperand(i, 2)), "");
    copy_fmf(i, r);
    break;
  }
  case LLVMFreeze:
    r = LLVMBuildFreeze(d->b, getv(d, LLVMGetOperand(i, 0)), "");
    break;
  case LLVMGetElementPtr: {
    LLVMValueRef *ops = malloc(nops * sizeof(*ops));
    if (!ops) {
      d->broken = 1;
      return;
    }
    for (unsigned k = 0; k < nops; k++) {
      int is_vec;
      ops[k] = get(d, LLVMGetOperand(i, k), &is_vec);
    }
    r = cc_build_gep_like(d->b, i, ops[0], ops + 1, nops - 1, "");
    free(ops);
    if (LLVMGetTypeKind(LLVMTypeOf(r)) != LLVMVectorTypeKind)
      r = splat(d, r);
    break;
  }
  case LLVMLoad: {
    LLVMTypeRef tys[2] = {vty(d, t), vty(d, LLVMTypeOf(LLVMGetOperand(i, 0)))};
    unsigned align = LLVMGetAlignment(i);
    LLVMValueRef args[4] = {getv(d, LLVMGetOperand(i, 0)), LLVMConstInt(d->t_i32, align ? align : 1, 0), mask,
                            LLVMGetPoison(tys[0])};
    r = cc_build_intrinsic(d->b, d->m, "llvm.masked.gather", tys, 2, args, 4, "");
    break;
  }
  case LLVMStore: {
    LLVMValueRef v = LLVMGetOperand(i, 0), p = LLVMGetOperand(i, 1);
    LLVMTypeRef tys[2] = {vty(d, LLVMTypeOf(v)), vty(d, LLVMTypeOf(p))};
    unsigned align = LLVMGetAlignment(i);
    LLVMValueRef args[4] = {getv(d, v), getv(d, p), LLVMConstInt(d->t_i32, align ? align : 1, 0), mask};
    cc_build_intrinsic(d->b, d->m, "llvm.masked.scatter", tys, 2, args, 4, "");
    return;
  }
  case LLVMCall: {
    LLVMValueRef args[8];
    if (nargs > 8) {
      d->broken = 1;
      return;
    }
    for (unsigned k = 0; k < nargs; k++) {
      LLVMValueRef a = LLVMGetOperand(i, k);
      args[k] = LLVMTypeOf(a) == t ? getv(d, a) : a; /* i1 flags stay */
    }
    LLVMTypeRef vt = vty(d, t);
    r = cc_build_intrinsic_id(d->b, d->m, LLVMGetIntrinsicID(cc_called_function(i)), &vt, 1, args, nargs, "");
    copy_fmf(i, r);
    break;
  }
  default:
    d->broken = 1;
    return;
  }
  put(d, i, r, 1);
}

static void emit_loop(dv *d, unsigned l);
static LLVMMetadataRef vectorized_loop_id(dv *d, LLVMValueRef old_br);

/* The nodes of loop R in order, the header's mask being `entry` (its phis
 * already have their new values). */
static void emit_region(dv *d, unsigned R, LLVMValueRef entry)
{
  dv_loop *L = &d->loops[R];
  for (unsigned k = 0; k < L->norder && !d->broken; k++) {
    unsigned node = L->order[k];
    if (node >= d->n) {
      emit_loop(d, node - d->n);
      continue;
    }
    unsigned b = node;
    LLVMValueRef mask = b == L->header ? entry : block_mask(d, R, b);
    d->bmask[b] = mask;
    LLVMBasicBlockRef bb = d->cfg->block[b];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && i != t; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAPHINode(i)) {
        if (b != L->header)
          put(d, i, phi_select(d, i, NULL, 0), 1);
        continue;
      }
      widen(d, i, mask);
    }
    if (R == 0 && b == d->latch)
      continue; /* the lane loop's own test */
    LLVMValueRef *em = d->emask + d->eoff[b];
    if (LLVMIsASwitchInst(t)) {
      /* successor 0 the default, k + 1 for case k (operand 2 + 2k) */
      LLVMValueRef c = getv(d, LLVMGetOperand(t, 0)), some = NULL;
      unsigned ns = LLVMGetNumSuccessors(t);
      for (unsigned s = 1; s < ns; s++) {
        LLVMValueRef eq = LLVMBuildICmp(d->b, LLVMIntEQ, c, splat(d, LLVMGetOperand(t, 2 * s)), "");
        em[s] = m_and(d, mask, eq);
        some = m_or(d, some, eq);
      }
      em[0] = some ? m_and(d, mask, m_not(d, some)) : mask;
      continue;
    }
    if (!LLVMIsConditional(t)) {
      em[0] = mask;
      continue;
    }
    LLVMValueRef c = getv(d, LLVMGetCondition(t));
    em[0] = m_and(d, mask, c);
    em[1] = m_and(d, mask, m_not(d, c));
  }
}

typedef struct dv_exit {
  unsigned b, s;
  LLVMValueRef acc, next;
} dv_exit;

typedef struct dv_live {
  LLVMValueRef old, lo, next;
} dv_live;

/* The exits of loop L (edges from its blocks to blocks out of it): their
 * count, and each one in ex[] (when not NULL). */
static unsigned loop_exits(const dv *d, const dv_loop *L, dv_exit *ex)
{
  unsigned nexit = 0;
  for (unsigned b = 0; b < d->n; b++) {
    LLVMValueRef t = L->in[b] ? LLVMGetBasicBlockTerminator(d->cfg->block[b]) : NULL;
    for (unsigned s = 0; t && s < LLVMGetNumSuccessors(t); s++) {
      int si = block_index(d, LLVMGetSuccessor(t, s));
      if (si >= 0 && !L->in[si]) {
        if (ex)
          ex[nexit] = (dv_exit){b, s, NULL, NULL};
        nexit++;
      }
    }
  }
  return nexit;
}

/* Inner loop l: runs while any lane is in it. */
static void emit_loop(dv *d, unsigned l)
{
  const cc_cfg *cfg = d->cfg;
  dv_loop *L = &d->loops[l];
  unsigned h = L->header, n = d->n;
  LLVMBasicBlockRef H = cfg->block[h];
  LLVMValueRef entry = preds_mask(d, h, L->in, 0);
  unsigned nphi = 0, nexit = loop_exits(d, L, NULL), nlive = 0;
  for (LLVMValueRef p = LLVMGetFirstInstruction(H); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p))
    nphi++;
  for (unsigned b = 0; b < n; b++)
    for (LLVMValueRef i = L->in[b] ? LLVMGetFirstInstruction(cfg->block[b]) : NULL; i; i = LLVMGetNextInstruction(i))
      nlive++;
  LLVMValueRef *init = calloc(nphi + 1, sizeof(*init)), *vphi = calloc(nphi + 1, sizeof(*vphi));
  dv_exit *ex = calloc(nexit + 1, sizeof(*ex));
  dv_live *lv = calloc(nlive + 1, sizeof(*lv));
  if (!init || !vphi || !ex || !lv) {
    d->broken = 1;
    goto done;
  }
  unsigned j = 0;
  for (LLVMValueRef p = LLVMGetFirstInstruction(H); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p))
    init[j++] = phi_select(d, p, L->in, 0);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(d->b);
  LLVMBasicBlockRef vh = LLVMAppendBasicBlockInContext(d->c, d->fn, "dv.loop");
  LLVMBasicBlockRef vx = LLVMAppendBasicBlockInContext(d->c, d->fn, "dv.loop.exit");
  LLVMBuildCondBr(d->b, any_lane(d, entry), vh, vx);
  LLVMPositionBuilderAtEnd(d->b, vh);
  LLVMValueRef active = LLVMBuildPhi(d->b, d->t_vi1, "active");
  j = 0;
  for (LLVMValueRef p = LLVMGetFirstInstruction(H); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
    vphi[j] = LLVMBuildPhi(d->b, vty(d, LLVMTypeOf(p)), "");
    put(d, p, vphi[j++], 1);
  }
  loop_exits(d, L, ex);
  for (unsigned e = 0; e < nexit; e++)
    ex[e].acc = LLVMBuildPhi(d->b, d->t_vi1, "exited");
  emit_region(d, l, active);
  if (d->broken)
    goto done;
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(d->b);
  LLVMValueRef cont = preds_mask(d, h, L->in, 1), now = NULL;
  for (unsigned e = 0; e < nexit; e++) {
    LLVMValueRef m = d->emask[d->eoff[ex[e].b] + ex[e].s];
    m = m ? m : d->zero;
    ex[e].next = m_or(d, ex[e].acc, m);
    now = m_or(d, now, m);
  }
  if (!now)
    now = d->zero;
  /* values used after the loop: each lane's from the iteration it left in */
  nlive = 0;
  for (unsigned b = 0; b < n; b++) {
    if (!L->in[b])
      continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[b]); i; i = LLVMGetNextInstruction(i)) {
      int used_after = 0;
      for (LLVMUseRef u = LLVMGetFirstUse(i); u && !used_after; u = LLVMGetNextUse(u)) {
        int ub = block_index(d, LLVMGetInstructionParent(LLVMGetUser(u)));
        used_after = ub >= 0 && !L->in[ub];
      }
      int is_vec;
      if (!used_after || LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind)
        continue;
      LLVMValueRef v = get(d, i, &is_vec);
      if (!is_vec)
        continue; /* the group's value: the same in every iteration */
      lv[nlive].old = i;
      LLVMPositionBuilderBefore(d->b, LLVMGetFirstInstruction(vh));
      lv[nlive].lo = LLVMBuildPhi(d->b, LLVMTypeOf(v), "");
      LLVMPositionBuilderAtEnd(d->b, cur);
      lv[nlive].next = now == d->zero ? lv[nlive].lo : LLVMBuildSelect(d->b, now, v, lv[nlive].lo, "");
      nlive++;
    }
  }
  LLVMValueRef *next = calloc(nphi + 1, sizeof(*next));
  if (!next) {
    d->broken = 1;
    goto done;
  }
  j = 0;
  for (LLVMValueRef p = LLVMGetFirstInstruction(H); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p), j++)
    next[j] = phi_select(d, p, L->in, 1);
  LLVMValueRef br = LLVMBuildCondBr(d->b, any_lane(d, cont), vh, vx);
  cc_md_set(br, "llvm.loop", vectorized_loop_id(d, NULL));
  LLVMBasicBlockRef from[2] = {pre, cur};
  LLVMValueRef v2[2] = {entry, cont};
  LLVMAddIncoming(active, v2, from, 2);
  for (j = 0; j < nphi; j++) {
    v2[0] = init[j], v2[1] = next[j];
    LLVMAddIncoming(vphi[j], v2, from, 2);
  }
  for (unsigned e = 0; e < nexit; e++) {
    v2[0] = d->zero, v2[1] = ex[e].next;
    LLVMAddIncoming(ex[e].acc, v2, from, 2);
  }
  for (unsigned k = 0; k < nlive; k++) {
    v2[0] = LLVMGetPoison(LLVMTypeOf(lv[k].lo)), v2[1] = lv[k].next;
    LLVMAddIncoming(lv[k].lo, v2, from, 2);
  }
  free(next);
  /* after the loop */
  LLVMPositionBuilderAtEnd(d->b, vx);
  for (unsigned e = 0; e < nexit; e++) {
    LLVMValueRef m = LLVMBuildPhi(d->b, d->t_vi1, "left");
    v2[0] = d->zero, v2[1] = ex[e].next;
    LLVMAddIncoming(m, v2, from, 2);
    d->emask[d->eoff[ex[e].b] + ex[e].s] = m;
  }
  for (unsigned k = 0; k < nlive; k++) {
    LLVMValueRef m = LLVMBuildPhi(d->b, LLVMTypeOf(lv[k].lo), "");
    v2[0] = LLVMGetPoison(LLVMTypeOf(lv[k].lo)), v2[1] = lv[k].next;
    LLVMAddIncoming(m, v2, from, 2);
    put(d, lv[k].old, m, 1);
  }
done:
  free(init);
  free(vphi);
  free(ex);
  free(lv);
}

/* The value of recurrence iv when the counter is x (a scalar or lanes):
 * start + x * step. */
static LLVMValueRef iv_at(dv *d, const dv_iv *iv, LLVMValueRef x)
{
  int lanes = LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMVectorTypeKind;
  LLVMTypeRef st = LLVMTypeOf(iv->step);
  LLVMTypeRef t = lanes ? vty(d, st) : st;
  LLVMValueRef xs = LLVMBuildIntCast2(d->b, x, t, 0, "");
  LLVMValueRef step = lanes ? splat(d, iv->step) : iv->step;
  LLVMValueRef off = LLVMBuildMul(d->b, xs, step, "");
  if (iv->gep_ty)
    return LLVMBuildGEP2(d->b, iv->gep_ty, iv->start, &off, 1, "");
  return LLVMBuildAdd(d->b, lanes ? splat(d, iv->start) : iv->start, off, "");
}

static LLVMMetadataRef vectorized_loop_id(dv *d, LLVMValueRef old_br)
{
  LLVMMetadataRef ops[3];
  unsigned n = 0;
  LLVMMetadataRef loc = old_br ? cc_loop_debug_loc(old_br) : NULL;
  if (loc)
    ops[n++] = loc;
  ops[n++] = cc_md_prop_bool(d->c, "llvm.loop.isvectorized", 1);
  /* each copy of a widened body costs compile time and code for little */
  ops[n++] = cc_md_prop_bool(d->c, "llvm.loop.unroll.disable", 1);
  return cc_md_loop_id(d->c, ops, n);
}

/* The chunk loop around the widened region; the original loop runs the
 * rest. */
static void emit_lane_loop(dv *d, LLVMValueRef bound)
{
  const cc_cfg *cfg = d->cfg;
  dv_loop *L = &d->loops[0];
  LLVMBasicBlockRef H = cfg->block[L->header], T = cfg->block[d->latch];
  LLVMValueRef tbr = LLVMGetBasicBlockTerminator(T);
  LLVMBasicBlockRef E = LLVMGetSuccessor(tbr, LLVMGetSuccessor(tbr, 0) == H ? 1 : 0);
  LLVMBasicBlockRef P = NULL;
  for (unsigned k = cfg->pred_start[L->header]; k < cfg->pred_start[L->header + 1]; k++)
    if (!L->in[cfg->pred[k]])
      P = cfg->block[cfg->pred[k]];
  LLVMTypeRef it = LLVMTypeOf(d->lx);
  LLVMBasicBlockRef dpre = LLVMInsertBasicBlockInContext(d->c, H, "dv.pre");
  LLVMBasicBlockRef vh = LLVMInsertBasicBlockInContext(d->c, H, "dv.lanes");
  LLVMBasicBlockRef mid = LLVMInsertBasicBlockInContext(d->c, H, "dv.rest");
  LLVMValueRef pt = LLVMGetBasicBlockTerminator(P);
  for (unsigned s = 0; s < LLVMGetNumSuccessors(pt); s++)
    if (LLVMGetSuccessor(pt, s) == H)
      LLVMSetSuccessor(pt, s, dpre);
  for (unsigned k = 0; k < d->npriv; k++) {
    /* W copies side by side at the function's entry; lane l's is element l */
    LLVMValueRef a = d->priv[k];
    LLVMPositionBuilderBefore(d->b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(d->fn)));
    LLVMTypeRef at = LLVMArrayType2(LLVMGetAllocatedType(a), d->W);
    LLVMValueRef copies = LLVMBuildAlloca(d->b, at, "dv.private");
    LLVMSetAlignment(copies, LLVMGetAlignment(a));
    LLVMPositionBuilderAtEnd(d->b, dpre);
    LLVMTypeRef t64 = LLVMInt64TypeInContext(d->c);
    LLVMValueRef idx[2] = {LLVMConstInt(t64, 0, 0), cc_const_iota(t64, d->W)};
    if (!idx[1]) {
      d->broken = 1;
      return;
    }
    d->priv[d->cappriv + k] = LLVMBuildInBoundsGEP2(d->b, at, copies, idx, 2, "dv.lanes.private");
  }
  LLVMPositionBuilderAtEnd(d->b, dpre);
  LLVMValueRef zero = LLVMConstInt(it, 0, 0);
  LLVMValueRef N = LLVMBuildSelect(d->b, LLVMBuildICmp(d->b, LLVMIntEQ, bound, zero, ""), LLVMConstInt(it, 1, 0),
                                   bound, "dv.n");
  LLVMValueRef full = LLVMBuildAnd(d->b, N, LLVMConstInt(it, ~(unsigned long long)(d->W - 1), 0), "dv.full");
  LLVMValueRef *rest = calloc(d->niv + 1, sizeof(*rest));
  if (!rest) {
    d->broken = 1;
    return;
  }
  for (unsigned k = 0; k < d->niv; k++)
    rest[k] = iv_at(d, &d->iv[k], full);
  LLVMBuildCondBr(d->b, LLVMBuildICmp(d->b, LLVMIntNE, full, zero, ""), vh, mid);
  LLVMPositionBuilderAtEnd(d->b, vh);
  LLVMValueRef vx = LLVMBuildPhi(d->b, it, "dv.x");
  LLVMValueRef iota = cc_const_iota(it, d->W);
  if (!iota) {
    d->broken = 1;
    return;
  }
  LLVMValueRef lanes = LLVMBuildAdd(d->b, splat(d, vx), iota, "dv.lx");
  put(d, d->lx, lanes, 1);
  for (unsigned k = 0; k < d->niv; k++)
    put(d, d->iv[k].phi, iv_at(d, &d->iv[k], lanes), 1);
  emit_region(d, 0, d->ones);
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(d->b);
  LLVMValueRef vx1 = LLVMBuildNUWAdd(d->b, vx, LLVMConstInt(it, d->W, 0), "");
  LLVMValueRef br = LLVMBuildCondBr(d->b, LLVMBuildICmp(d->b, LLVMIntULT, vx1, full, ""), vh, mid);
  cc_md_set(br, "llvm.loop", vectorized_loop_id(d, tbr));
  LLVMValueRef v2[2] = {zero, vx1};
  LLVMBasicBlockRef from[2] = {dpre, cur};
  LLVMAddIncoming(vx, v2, from, 2);
  /* the rest: the original loop from `full` on */
  LLVMPositionBuilderAtEnd(d->b, mid);
  LLVMBuildCondBr(d->b, LLVMBuildICmp(d->b, LLVMIntULT, full, N, ""), H, E);
  for (unsigned k = 0; k < LLVMCountIncoming(d->lx); k++)
    if (LLVMGetIncomingBlock(d->lx, k) == P)
      LLVMSetOperand(d->lx, k, full);
  for (unsigned j = 0; j < d->niv; j++)
    for (unsigned k = 0; k < LLVMCountIncoming(d->iv[j].phi); k++)
      if (LLVMGetIncomingBlock(d->iv[j].phi, k) == P)
        LLVMSetOperand(d->iv[j].phi, k, rest[j]);
  free(rest);
  cc_phi_retarget(H, P, mid);
  for (LLVMValueRef phi = LLVMGetFirstInstruction(E); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
    for (unsigned k = 0; k < LLVMCountIncoming(phi); k++)
      if (LLVMGetIncomingBlock(phi, k) == T) {
        LLVMValueRef v = LLVMGetIncomingValue(phi, k);
        LLVMAddIncoming(phi, &v, &mid, 1);
        break;
      }
  /* The original loop runs fewer than W work-items now: not to be
   * vectorized again, nor unrolled, nor its inner loops. */
  cc_md_set(tbr, "llvm.loop", vectorized_loop_id(d, tbr));
  for (unsigned l = 1; l < d->nloops; l++) {
    unsigned h = d->loops[l].header;
    for (unsigned k = cfg->pred_start[h]; k < cfg->pred_start[h + 1]; k++) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[cfg->pred[k]]);
      if (d->loops[l].in[cfg->pred[k]] && LLVMIsABranchInst(t)) {
        LLVMMetadataRef op = cc_md_prop_bool(d->c, "llvm.loop.unroll.disable", 1);
        cc_md_set(t, "llvm.loop", cc_md_loop_id(d->c, &op, 1));
      }
    }
  }
}

static void dv_free(dv *d)
{
  for (unsigned l = 0; l < d->nloops; l++) {
    if (l)
      free(d->loops[l].in);
    free(d->loops[l].order);
  }
  free(d->loops);
  free(d->inner);
  free(d->ipdom);
  cc_ptrmap_free(&d->map);
  free(d->val);
  free(d->vec);
  free(d->bmask);
  free(d->emask);
  free(d->eoff);
  free(d->iv);
  free(d->priv);
  if (d->b)
    LLVMDisposeBuilder(d->b);
}

int wg_diverge_widen(LLVMValueRef fn, const cc_cfg *cfg, unsigned header, unsigned latch, const unsigned char *in,
                     unsigned width, int *done, char *why, size_t why_size)
{
  *done = 0;
  if (width < 2) {
    snprintf(why, why_size, "no vector unit");
    return CC_OK;
  }
  dv d;
  memset(&d, 0, sizeof(d));
  d.fn = fn;
  d.m = LLVMGetGlobalParent(fn);
  d.c = LLVMGetModuleContext(d.m);
  d.cfg = cfg;
  d.n = cfg->n;
  d.W = width;
  d.latch = latch;
  d.t_i1 = LLVMInt1TypeInContext(d.c);
  d.t_i32 = LLVMInt32TypeInContext(d.c);
  d.t_vi1 = LLVMVectorType(d.t_i1, width);
  d.ones = LLVMConstAllOnes(d.t_vi1);
  d.zero = LLVMConstNull(d.t_vi1);
  unsigned nheaders = 1;
  for (unsigned b = 0; b < cfg->n; b++)
    nheaders += in[b];
  if (nheaders > 4096 || cfg->n > 65536) {
    /* the analysis is quadratic in the blocks */
    snprintf(why, why_size, "the region has too many blocks");
    return CC_OK;
  }
  d.loops = calloc(nheaders + 1, sizeof(*d.loops));
  d.inner = malloc((cfg->n + 1) * sizeof(*d.inner));
  if (!d.loops || !d.inner) {
    dv_free(&d);
    return CC_OUT_OF_MEMORY;
  }
  d.loops[0].header = header;
  d.loops[0].parent = -1;
  d.loops[0].in = (unsigned char *)in;
  d.nloops = 1;
  LLVMValueRef bound = NULL;
  const char *problem = analyze(&d, &bound);
  if (problem) {
    int oom = !strcmp(problem, "out of memory");
    snprintf(why, why_size, "%s", problem);
    dv_free(&d);
    return oom ? CC_OUT_OF_MEMORY : CC_OK;
  }
  d.b = LLVMCreateBuilderInContext(d.c);
  emit_lane_loop(&d, bound);
  int broken = d.broken;
  dv_free(&d);
  /* A bug here would otherwise surface as a crash in a later pass. */
  if (broken || LLVMVerifyFunction(fn, LLVMReturnStatusAction)) {
    snprintf(why, why_size, "internal error: masked widening of a lane loop of %s left broken IR",
             LLVMGetValueName2(fn, &(size_t){0}));
    return CC_INTERNAL;
  }
  *done = 1;
  return CC_OK;
}

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

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
 *
 * This file: the checks, the inner loops found, the recurrences, private
 * memory, the cost estimate (dv_analyze); cc_wg_diverge_emit.c builds the
 * widened loop.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"
#include "compiler/cc_wg_diverge.h"

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

int dv_is_dropped(LLVMValueRef i)
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
  return dv_is_dropped(call) || is_pure_call(call);
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

int dv_block_index(const dv *d, LLVMBasicBlockRef bb)
{
  return cc_cfg_find(d->cfg, bb);
}

/* v is computed in the lane loop (else it is the group's). */
int dv_in_region(const dv *d, LLVMValueRef v)
{
  if (!LLVMIsAInstruction(v))
    return 0;
  int bi = dv_block_index(d, LLVMGetInstructionParent(v));
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
  int si = dv_block_index(d, LLVMGetSuccessor(t, s));
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

/* The dv_recurrence of a header phi of the lane loop: start from the entry
 * edge, next = phi + step or getelementptr (phi, step), step the group's.
 * 0 when it is not one. */
int dv_recurrence(dv *d, LLVMValueRef phi, dv_iv *iv)
{
  if (LLVMCountIncoming(phi) != 2)
    return 0;
  memset(iv, 0, sizeof(*iv));
  iv->phi = phi;
  LLVMValueRef next = NULL;
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef v = LLVMGetIncomingValue(phi, k);
    int p = dv_block_index(d, LLVMGetIncomingBlock(phi, k));
    if (p >= 0 && d->loops[0].in[p])
      next = v;
    else
      iv->start = v;
  }
  if (!next || !iv->start || dv_in_region(d, iv->start) || !LLVMIsAInstruction(next))
    return 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(next);
  if (op == LLVMAdd && LLVMGetTypeKind(LLVMTypeOf(phi)) == LLVMIntegerTypeKind) {
    LLVMValueRef a = LLVMGetOperand(next, 0), c = LLVMGetOperand(next, 1);
    if (a != phi)
      a = c, c = LLVMGetOperand(next, 0);
    iv->step = c;
    iv->next = next;
    return a == phi && !dv_in_region(d, c);
  }
  if (op == LLVMGetElementPtr && LLVMGetNumOperands(next) == 2 && LLVMGetOperand(next, 0) == phi &&
      !dv_in_region(d, LLVMGetOperand(next, 1))) {
    iv->step = LLVMGetOperand(next, 1);
    iv->gep_ty = LLVMGetGEPSourceElementType(next);
    iv->next = next;
    return 1;
  }
  return 0;
}

/* The lane loop's shape: one entry edge, one exit (the latch's), the
 * counter lx from 0 by 1 that the latch tests against a bound of the
 * group, any other header phi a dv_recurrence (dv_recurrence()).  Sets d->lx
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
  if (!dv_in_region(d, x1)) {
    LLVMValueRef t = x1;
    x1 = r, r = t;
    p = p == LLVMIntUGT ? LLVMIntULT : p == LLVMIntULT ? LLVMIntUGT : p == LLVMIntULE ? LLVMIntUGE
      : p == LLVMIntUGE ? LLVMIntULE : p;
  }
  if (dv_in_region(d, r) || !LLVMIsAInstruction(x1) || LLVMGetInstructionOpcode(x1) != LLVMAdd)
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
    if (!dv_recurrence(d, phi, &iv))
      return "a phi of the lane loop is not a dv_recurrence";
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
      if (LLVMGetIncomingBlock(phi, k) == cfg->block[d->latch] && dv_in_region(d, LLVMGetIncomingValue(phi, k)))
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
LLVMValueRef dv_stack_root(const dv *d, LLVMValueRef v)
{
  for (unsigned depth = 0; depth < 16 && LLVMIsAInstruction(v) && !dv_in_region(d, v); depth++) {
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
    if (dv_in_region(d, user) || dv_is_dropped(user))
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
  LLVMValueRef a = dv_stack_root(d, v);
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
  if (!dv_in_region(d, v))
    return d->npriv && dv_stack_root(d, v) ? DV_STRIDE_UNKNOWN : 0;
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
    int b = dv_block_index(d, LLVMGetInstructionParent(v)), l = d->inner[b];
    int64_t s = DV_STRIDE_UNKNOWN;
    for (unsigned k = 0; k < LLVMCountIncoming(v); k++) {
      int p = dv_block_index(d, LLVMGetIncomingBlock(v, k));
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
    if (!d->loops[0].in[b] || wg_accum_is_fallback(cfg->block[b]))
      continue; /* (the loop as written of cc_wg_accum.c's pair runs where buffers overlap) */
    unsigned depth = 0;
    for (int l = d->inner[b]; l > 0 && depth < 6; l = d->loops[l].parent)
      depth++;
    double w = 1, spread = depth ? DV_SPREAD / 2.0 : 1;
    for (unsigned k = 0; k < depth; k++)
      w *= 8;
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[b]); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      double s = 1, v = 2;
      if (dv_is_dropped(i))
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
const char *dv_analyze(dv *d, LLVMValueRef *bound)
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
        if (!dv_in_region(d, LLVMGetOperand(i, k)) && !dv_is_dropped(i))
          why = private_copies(d, LLVMGetOperand(i, k));
      if (why)
        return why;
      for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!dv_in_region(d, user) && !(b == d->latch && user == LLVMGetBasicBlockTerminator(bb)))
          return "a value of the lane loop is used after it";
      }
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || (!LLVMIsABranchInst(t) && !LLVMIsASwitchInst(t)))
      return "a block that does not end in a branch";
    for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++) {
      int si = dv_block_index(d, LLVMGetSuccessor(t, s));
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

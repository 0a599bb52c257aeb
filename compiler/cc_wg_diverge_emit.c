/* Masked widening of a lane loop (see cc_wg_diverge.c): building the
 * loop over chunks of W work-items once dv_analyze has taken the region,
 * and wg_diverge_widen, which does both. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"
#include "compiler/cc_wg_diverge.h"

#include <llvm-c/Analysis.h>

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
  LLVMValueRef a = dv_stack_root(d, v);
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
  if (!dv_in_region(d, v))
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
  unsigned b = (unsigned)dv_block_index(d, LLVMGetInstructionParent(phi));
  LLVMValueRef r = NULL, first = NULL;
  for (unsigned k = 0; k < LLVMCountIncoming(phi); k++) {
    int p = dv_block_index(d, LLVMGetIncomingBlock(phi, k));
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
  if (dv_is_dropped(i))
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
      int si = dv_block_index(d, LLVMGetSuccessor(t, s));
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
        int ub = dv_block_index(d, LLVMGetInstructionParent(LLVMGetUser(u)));
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

/* The value of dv_recurrence iv when the counter is x (a scalar or lanes):
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
  const char *problem = dv_analyze(&d, &bound);
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

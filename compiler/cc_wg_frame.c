/* Regions and the frame (see cc_wg.c for the whole design).
 *
 * With boundaries in a kernel, values live across them are recomputed when
 * they are pure functions of ids and arguments (rematerialization), else
 * kept in the frame: ctx->frame holds slot j of work-item w at
 * frame + off_j * nwi + w * size_j (structure of arrays: a scalar slot is
 * contiguous across work-items, so saving and restoring vectorize).  Every
 * other value crossing a block goes through an alloca (our reg2mem); a
 * liveness pass over the simple allocas decides which are saved at each
 * boundary.  Private memory with an address lives in the frame for the
 * whole kernel instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

/* Simple: a scalar (integer, float, pointer, vector) alloca used only by
 * loads and stores of its own type.  SROA promotes it; across boundaries it
 * is saved and restored by value.  Any other alloca is private memory with
 * an address. */
int wg_alloca_is_simple(LLVMValueRef a)
{
  LLVMTypeRef ty = LLVMGetAllocatedType(a);
  switch (LLVMGetTypeKind(ty)) {
  case LLVMIntegerTypeKind: case LLVMHalfTypeKind: case LLVMBFloatTypeKind: case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind: case LLVMPointerTypeKind: case LLVMVectorTypeKind:
    break;
  default:
    return 0;
  }
  LLVMValueRef n = LLVMGetOperand(a, 0);
  if (!LLVMIsAConstantInt(n) || LLVMConstIntGetZExtValue(n) != 1)
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) {
      if (LLVMTypeOf(user) != ty || LLVMGetVolatile(user))
        return 0;
    } else if (LLVMIsAStoreInst(user)) {
      if (LLVMGetOperand(user, 1) != a || LLVMGetOperand(user, 0) == a ||
          LLVMTypeOf(LLVMGetOperand(user, 0)) != ty || LLVMGetVolatile(user))
        return 0;
    } else {
      return 0;
    }
  }
  return 1;
}

/* ---- rematerialization: recompute instead of saving ----
 * A value that is a pure function of the kernel's arguments, the local ids
 * and ctx (get_global_id(0), &a[i], get_local_size(0) - 1 - l, ...) is
 * computed again where it is used in another block instead of going through
 * memory: it then never needs a frame slot, and optimization merges the
 * copies inside a region. */

#define WG_REMAT_BUDGET 48 /* instructions per rematerialized tree */

enum { RM_YES = 1, RM_NO = 2 };

static int remat_opcode_ok(LLVMOpcode op)
{
  switch (op) {
  case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub: case LLVMMul: case LLVMFMul:
  case LLVMUDiv: case LLVMSDiv: case LLVMFDiv: case LLVMURem: case LLVMSRem: case LLVMFRem:
  case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMFNeg:
  case LLVMGetElementPtr: case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI:
  case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr:
  case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMICmp: case LLVMFCmp: case LLVMSelect:
  case LLVMExtractElement: case LLVMInsertElement: case LLVMShuffleVector: case LLVMExtractValue:
  case LLVMInsertValue:
    return 1;
  default:
    return 0;
  }
}

static int remat_ok(wg_gen *g, LLVMValueRef v, cc_ptrmap *memo, unsigned *budget)
{
  unsigned known;
  if (LLVMIsAArgument(v))
    return v != g->p_state && v != g->p_coll;
  if (LLVMIsAConstant(v))
    return 1;
  if (!LLVMIsAInstruction(v))
    return 0;
  if (cc_ptrmap_get(memo, v, &known))
    return known == RM_YES;
  if (*budget == 0)
    return 0;
  (*budget)--;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  int ok = remat_opcode_ok(op);
  if (op == LLVMLoad)
    ok = LLVMGetMetadata(v, g->kind_invariant) != NULL;  /* ctx fields */
  if (op == LLVMCall)
    ok = cc_callee_has_prefix(v, "llvm.threadlocal.address");
  unsigned n = ok ? (unsigned)LLVMGetNumOperands(v) : 0;
  if (op == LLVMCall && n)
    n--; /* the callee */
  for (unsigned i = 0; i < n && ok; i++)
    ok = remat_ok(g, LLVMGetOperand(v, i), memo, budget);
  cc_ptrmap_put(memo, v, ok ? RM_YES : RM_NO);
  return ok;
}

typedef struct remat_map {
  LLVMValueRef from[WG_REMAT_BUDGET + 1], to[WG_REMAT_BUDGET + 1];
  unsigned n;
} remat_map;

/* A copy of v's tree at the builder's position. */
static LLVMValueRef remat_clone(wg_gen *g, LLVMValueRef v, remat_map *map)
{
  if (!LLVMIsAInstruction(v))
    return v;
  for (unsigned i = 0; i < map->n; i++)
    if (map->from[i] == v)
      return map->to[i];
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  LLVMValueRef ops[8], *opv = n <= 8 ? ops : malloc(n * sizeof(*opv));
  if (!opv)
    return NULL;
  int bad = 0;
  for (unsigned i = 0; i < n; i++)
    bad |= !(opv[i] = remat_clone(g, LLVMGetOperand(v, i), map));
  LLVMValueRef c = bad ? NULL : LLVMInstructionClone(v);
  if (c) {
    LLVMInsertIntoBuilderWithName(g->b, c, "");
    for (unsigned i = 0; i < n; i++)
      LLVMSetOperand(c, i, opv[i]);
    if (map->n <= WG_REMAT_BUDGET) {
      map->from[map->n] = v;
      map->to[map->n++] = c;
    }
  }
  if (opv != ops)
    free(opv);
  return c;
}

static int rematerialize(wg_gen *g)
{
  unsigned ninst = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      ninst++;
  cc_ptrmap memo = {0};
  if (cc_ptrmap_init(&memo, ninst))
    return CC_OUT_OF_MEMORY;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef v = LLVMGetFirstInstruction(bb); v; v = LLVMGetNextInstruction(v)) {
      unsigned budget = WG_REMAT_BUDGET;
      if (LLVMIsAAllocaInst(v) || LLVMIsAPHINode(v) || !cc_value_escapes(v) || !remat_ok(g, v, &memo, &budget))
        continue;
      /* Every use in another block (or in a phi) gets its own copy. */
      unsigned nusers;
      LLVMValueRef *users = cc_collect_users(v, &nusers);
      for (unsigned ui = 0; ui < nusers; ui++) {
        LLVMValueRef user = users[ui];
        int is_phi = LLVMIsAPHINode(user) != NULL;
        if (!LLVMIsAInstruction(user) || (!is_phi && LLVMGetInstructionParent(user) == bb))
          continue;
        unsigned nops = (unsigned)LLVMGetNumOperands(user);
        for (unsigned k = 0; k < nops; k++) {
          if (LLVMGetOperand(user, k) != v || (is_phi && LLVMGetIncomingBlock(user, k) == bb))
            continue;
          remat_map map;
          map.n = 0;
          if (is_phi)
            LLVMPositionBuilderBefore(g->b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(user, k)));
          else
            LLVMPositionBuilderBefore(g->b, user);
          LLVMValueRef c = remat_clone(g, v, &map);
          if (c)
            LLVMSetOperand(user, k, c);
        }
      }
      free(users);
    }
  cc_ptrmap_free(&memo);
  return CC_OK;
}

/* A new first block holding every alloca (static ones hoisted out of loops);
 * the old entry becomes state 0's first block. */
static int hoist_allocas(wg_gen *g, char **err)
{
  LLVMBasicBlockRef old = LLVMGetEntryBasicBlock(g->body);
  g->entry = LLVMInsertBasicBlockInContext(g->c, old, "allocas");
  g->start = old;
  LLVMPositionBuilderAtEnd(g->b, g->entry);
  LLVMValueRef br = LLVMBuildBr(g->b, old);
  for (LLVMBasicBlockRef bb = old; bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i) {
      LLVMValueRef next = LLVMGetNextInstruction(i);
      if (LLVMIsAAllocaInst(i)) {
        if (!LLVMIsAConstantInt(LLVMGetOperand(i, 0))) {
          cc_set_err(err, "kernel %s: variable-sized private arrays are not supported with barriers",
                     g->ki->name);
          return CC_BUILD_FAILED;
        }
        size_t len;
        const char *n = LLVMGetValueName2(i, &len);
        char *copy = strndup(n, len);
        LLVMInstructionRemoveFromParent(i);
        LLVMPositionBuilderBefore(g->b, br);
        LLVMInsertIntoBuilderWithName(g->b, i, copy ? copy : "");
        free(copy);
      }
      i = next;
    }
  }
  return CC_OK;
}

/* Lifetime markers would end a saved value's life at a boundary. */
static void drop_lifetime_markers(wg_gen *g)
{
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i) {
      LLVMValueRef next = LLVMGetNextInstruction(i);
      if (cc_callee_has_prefix(i, "llvm.lifetime."))
        LLVMInstructionEraseFromParent(i);
      i = next;
    }
  }
}

/* The allocas (all in the entry block by now): each non-simple one becomes a
 * resident slot of g->slots; the simple ones go to *simple, for liveness to
 * decide which need a slot. */
static int collect_allocas(wg_gen *g, LLVMValueRef **simple, unsigned *nsimple)
{
  unsigned n = 0, ns = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(g->entry); i; i = LLVMGetNextInstruction(i))
    n += LLVMIsAAllocaInst(i) != NULL;
  LLVMValueRef *s = malloc((n + 1) * sizeof(*s));
  g->slots = calloc(n + 2, sizeof(*g->slots));
  g->nslots = 0;
  if (!s || !g->slots) {
    free(s);
    return CC_OUT_OF_MEMORY;
  }
  for (LLVMValueRef i = LLVMGetFirstInstruction(g->entry); i; i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsAAllocaInst(i))
      continue;
    if (wg_alloca_is_simple(i)) {
      s[ns++] = i;
      continue;
    }
    wg_slot *sl = &g->slots[g->nslots++];
    LLVMTypeRef ty = LLVMGetAllocatedType(i);
    uint64_t count = LLVMConstIntGetZExtValue(LLVMGetOperand(i, 0));
    uint64_t align = LLVMGetAlignment(i);
    if (align < LLVMABIAlignmentOfType(g->td, ty))
      align = LLVMABIAlignmentOfType(g->td, ty);
    if (align > WG_MAX_SLOT_ALIGN)
      align = WG_MAX_SLOT_ALIGN;
    sl->alloca = i;
    sl->ty = ty;
    sl->align = align;
    sl->size = (LLVMABISizeOfType(g->td, ty) * count + align - 1) / align * align;
    sl->resident = 1;
  }
  *simple = s;
  *nsimple = ns;
  return CC_OK;
}

/* Backward liveness of the simple allocas over the body's blocks; live[b]
 * gets the set live at the continuation of boundary b. */
static int alloca_liveness(wg_gen *g, LLVMValueRef *simple, unsigned nsimple, uint64_t **live_out)
{
  unsigned nb = LLVMCountBasicBlocks(g->body);
  size_t W = (nsimple + 63) / 64;
  cc_ptrmap bidx = {0}, sidx = {0};
  LLVMBasicBlockRef *blocks = malloc(nb * sizeof(*blocks));
  uint64_t *gen = calloc((size_t)nb * W + 1, 8), *kill = calloc((size_t)nb * W + 1, 8);
  uint64_t *in = calloc((size_t)nb * W + 1, 8), *live = calloc((size_t)g->nbnd * W + 1, 8);
  unsigned *succ_start = calloc(nb + 1, sizeof(unsigned)), *succ = NULL, nsucc = 0;
  int rc = CC_OUT_OF_MEMORY;
  if (!blocks || !gen || !kill || !in || !live || !succ_start || cc_ptrmap_init(&bidx, nb) ||
      cc_ptrmap_init(&sidx, nsimple))
    goto free_all;
  for (unsigned i = 0; i < nsimple; i++)
    cc_ptrmap_put(&sidx, simple[i], i);
  unsigned k = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
    blocks[k] = bb;
    cc_ptrmap_put(&bidx, bb, k);
    nsucc += LLVMGetNumSuccessors(LLVMGetBasicBlockTerminator(bb));
    k++;
  }
  succ = malloc((nsucc + 1) * sizeof(*succ));
  if (!succ)
    goto free_all;
  nsucc = 0;
  for (unsigned bi = 0; bi < nb; bi++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(blocks[bi]);
    unsigned ns = LLVMGetNumSuccessors(t), v;
    succ_start[bi] = nsucc;
    for (unsigned s = 0; s < ns; s++)
      if (cc_ptrmap_get(&bidx, LLVMGetSuccessor(t, s), &v))
        succ[nsucc++] = v;
    uint64_t *gb = gen + bi * W, *kb = kill + bi * W;
    for (LLVMValueRef i = LLVMGetFirstInstruction(blocks[bi]); i; i = LLVMGetNextInstruction(i)) {
      unsigned s;
      if (LLVMIsALoadInst(i) && cc_ptrmap_get(&sidx, LLVMGetOperand(i, 0), &s)) {
        if (!(kb[s / 64] >> (s % 64) & 1))
          gb[s / 64] |= 1ull << (s % 64);
      } else if (LLVMIsAStoreInst(i) && cc_ptrmap_get(&sidx, LLVMGetOperand(i, 1), &s)) {
        kb[s / 64] |= 1ull << (s % 64);
      }
    }
  }
  succ_start[nb] = nsucc;
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned bi = nb; bi-- > 0;) {
      for (size_t w = 0; w < W; w++) {
        uint64_t out = 0;
        for (unsigned s = succ_start[bi]; s < succ_start[bi + 1]; s++)
          out |= in[(size_t)succ[s] * W + w];
        uint64_t nin = gen[bi * W + w] | (out & ~kill[bi * W + w]);
        if (nin != in[bi * W + w]) {
          in[bi * W + w] = nin;
          changed = 1;
        }
      }
    }
  }
  for (unsigned b = 0; b < g->nbnd; b++) {
    unsigned bi;
    if (cc_ptrmap_get(&bidx, g->bnd[b].cont, &bi))
      memcpy(live + (size_t)b * W, in + (size_t)bi * W, W * 8);
  }
  *live_out = live;
  live = NULL;
  rc = CC_OK;
free_all:
  cc_ptrmap_free(&bidx);
  cc_ptrmap_free(&sidx);
  free(blocks);
  free(gen);
  free(kill);
  free(in);
  free(live);
  free(succ_start);
  free(succ);
  return rc;
}

/* Slots whose value is the same in every work-item (a loop counter around
 * a barrier, a size): each work-item still saves its copy, but all restore
 * work-item 0's, which the work-group function reads once before the lane
 * loop (into the area p_uval points to): the value is then one scalar for
 * the whole lane loop.  (Work-item 0's copy cannot be read from the frame
 * inside the lane loop: work-item 0 saves the next value before the others
 * restore.) */
static int classify_uniform_slots(wg_gen *g, unsigned first_simple)
{
  wg_uni u;
  int rc = wg_uniformity(g, &u);
  if (rc)
    return rc;
  uint64_t off = 0;
  for (unsigned j = first_simple; j < g->nslots; j++) {
    wg_slot *s = &g->slots[j];
    s->uniform = wg_is_uniform(&u, s->alloca);
    if (!s->uniform)
      continue;
    off = (off + s->align - 1) / s->align * s->align;
    s->voff = off;
    off += s->size;
  }
  g->uval_bytes = off;
  wg_uni_free(&u);
  return CC_OK;
}

static void layout_frame(wg_gen *g)
{
  uint64_t off = 0;
  for (unsigned j = 0; j < g->nslots; j++) {
    wg_slot *s = &g->slots[j];
    off = (off + s->align - 1) / s->align * s->align;
    s->off = off;
    off += s->size;
  }
  off = (off + 7) / 8 * 8;
  if (g->has_bcast) {
    g->bcast_off = off;
    off += 8;
  }
  if (g->has_copy) {
    g->copy_off = off;
    off += 4 * 8;
  }
  g->frame_bytes = (off + 7) / 8 * 8;
}

/* This work-item's element of an array of per-work-item values of type ty
 * (size bytes each) starting at base. */
static LLVMValueRef lane_elem(wg_gen *g, LLVMValueRef base, LLVMTypeRef ty, uint64_t size)
{
  LLVMValueRef idx = g->lin;
  if (ty)
    return LLVMBuildInBoundsGEP2(g->b, ty, base, &idx, 1, "");
  idx = LLVMBuildMul(g->b, g->lin, wg_c64(g, size), "");
  return LLVMBuildInBoundsGEP2(g->b, g->t_i8, base, &idx, 1, "");
}

/* This work-item's element of a collective buffer: at its linear id, or
 * where the lane loop says (coll_idx, all ones when it says nothing;
 * packed small groups, cc_wg.c). */
static LLVMValueRef coll_elem(wg_gen *g, LLVMValueRef base, LLVMTypeRef ty)
{
  LLVMValueRef none = LLVMBuildICmp(g->b, LLVMIntEQ, g->p_cidx, LLVMConstAllOnes(g->t_i64), "");
  LLVMValueRef idx = LLVMBuildSelect(g->b, none, g->lin, g->p_cidx, "coll_idx");
  return LLVMBuildInBoundsGEP2(g->b, ty, base, &idx, 1, "");
}

static LLVMValueRef frame_base(wg_gen *g, uint64_t off)
{
  LLVMValueRef o = LLVMBuildMul(g->b, wg_c64(g, off), g->nwi, "");
  return LLVMBuildInBoundsGEP2(g->b, g->t_i8, g->frame, &o, 1, "");
}



/* Raw bits (i64) of a uniform collective result back to its type. */
static LLVMValueRef bits_to_type(wg_gen *g, LLVMValueRef bits, LLVMTypeRef ty, unsigned size)
{
  if (LLVMGetTypeKind(ty) == LLVMIntegerTypeKind)
    return LLVMBuildTrunc(g->b, bits, ty, "");
  LLVMValueRef v = size == 8 ? bits : LLVMBuildTrunc(g->b, bits, LLVMIntTypeInContext(g->c, size * 8), "");
  return LLVMBuildBitCast(g->b, v, ty, "");
}

/* The body's entry: frame addresses, resident allocas replaced, the state switch. */
static void build_body_entry(wg_gen *g)
{
  LLVMValueRef br = LLVMGetBasicBlockTerminator(g->entry);
  LLVMPositionBuilderBefore(g->b, br);
  for (unsigned d = 0; d < 3; d++)
    g->ls[d] = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, local_size), d, "local_size");
  g->nwi = LLVMBuildMul(g->b, LLVMBuildMul(g->b, g->ls[0], g->ls[1], ""), g->ls[2], "nwi");
  LLVMValueRef v = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, g->p_lid[2], g->ls[1], ""), g->p_lid[1], "");
  g->lin = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, v, g->ls[0], ""), g->p_lid[0], "lin");
  g->frame = wg_ctx_load(g, g->p_ctx, offsetof(lanecl_wg_ctx, frame), g->t_ptr, "frame");
  /* ctx->coll_buf, or a fused scan's chunk (cc_wg.c build_fused_scan) */
  g->coll_buf = g->p_cbuf;
  g->coll_out = g->p_cbuf_out;
  for (unsigned j = 0; j < g->nslots; j++) {
    wg_slot *s = &g->slots[j];
    LLVMValueRef base = frame_base(g, s->off);
    s->addr = lane_elem(g, base, s->resident ? NULL : s->ty, s->size);
    s->uaddr = s->uniform ? base : NULL;
    if (s->resident) {
      LLVMReplaceAllUsesWith(s->alloca, s->addr);
      LLVMInstructionEraseFromParent(s->alloca);
      s->alloca = NULL;
    }
  }
  LLVMValueRef sw = LLVMBuildSwitch(g->b, g->p_state, g->start, g->nbnd);
  for (unsigned b = 0; b < g->nbnd; b++)
    LLVMAddCase(sw, wg_c32(g, b + 1), g->bnd[b].resume);
  LLVMInstructionEraseFromParent(br);
}

static void rewrite_boundary(wg_gen *g, unsigned bi, const uint64_t *live, unsigned first_simple)
{
  wg_boundary *bd = &g->bnd[bi];
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(bd->call);
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  LLVMValueRef res = NULL;

  /* Resume: restore what is live, then the collective's result. */
  LLVMPositionBuilderAtEnd(g->b, bd->resume);
  for (unsigned j = first_simple; j < g->nslots; j++) {
    wg_slot *s = &g->slots[j];
    unsigned k = j - first_simple;
    if (!(live[k / 64] >> (k % 64) & 1))
      continue;
    LLVMValueRef from = s->addr;
    if (s->uniform) {
      LLVMValueRef o = wg_c64(g, s->voff);
      from = LLVMBuildInBoundsGEP2(g->b, g->t_i8, g->p_uval, &o, 1, "");
    }
    LLVMValueRef v = wg_build_load(g, s->ty, from, (unsigned)s->align, 1);
    LLVMBuildStore(g->b, v, s->alloca);
  }
  switch (bd->kind) {
  case WB_SCAN_INC:
  case WB_SCAN_EXC:
    res = wg_build_load(g, bd->ty, coll_elem(g, g->coll_buf, bd->ty), bd->esize, 1);
    break;
  case WB_ALL:
  case WB_ANY:
  case WB_BCAST:
  case WB_REDUCE:
    res = bits_to_type(g, g->p_coll, bd->ty, bd->esize);
    break;
  case WB_SG_XCHG: /* where the work-item's own operand is among the exchanged ones */
    res = coll_elem(g, g->coll_buf, bd->ty);
    break;
  default:
    break;
  }
  LLVMBuildBr(g->b, bd->cont);

  /* The boundary: publish the operand, save what is live, return the id. */
  LLVMPositionBuilderBefore(g->b, term);
  if (bd->kind == WB_COPY) {
    /* The arguments are the same in every work-item: the work-group
     * function reads work-item 0's copy. */
    LLVMValueRef v[4] = {LLVMGetOperand(bd->call, 0), LLVMGetOperand(bd->call, 1), LLVMGetOperand(bd->call, 2),
                         bd->stride_side ? LLVMGetOperand(bd->call, 3) : wg_c64(g, 1)};
    for (unsigned a = 0; a < 4; a++) {
      LLVMValueRef x = v[a];
      if (LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMPointerTypeKind)
        x = LLVMBuildPtrToInt(g->b, x, g->t_i64, "");
      else
        x = LLVMBuildZExtOrBitCast(g->b, x, g->t_i64, "");
      wg_build_store(g, x, lane_elem(g, frame_base(g, g->copy_off + 8 * a), g->t_i64, 8), 8, 1);
    }
  } else if (bd->kind != WB_BARRIER) {
    LLVMValueRef op = LLVMGetOperand(bd->call, 0);
    wg_build_store(g, op, coll_elem(g, g->coll_out, bd->ty), bd->esize, 1);
  }
  if (bd->kind == WB_BCAST && !bd->bcast_const) {
    unsigned nargs = LLVMGetNumArgOperands(bd->call);
    LLVMValueRef id[3];
    for (unsigned d = 0; d < 3; d++)
      id[d] = d + 1 < nargs ? LLVMBuildZExtOrBitCast(g->b, LLVMGetOperand(bd->call, d + 1), g->t_i64, "")
                            : wg_c64(g, 0);
    LLVMValueRef t = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, id[2], g->ls[1], ""), id[1], "");
    t = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, t, g->ls[0], ""), id[0], "bcast_lin");
    wg_build_store(g, t, lane_elem(g, frame_base(g, g->bcast_off), g->t_i64, 8), 8, 1);
  }
  for (unsigned j = first_simple; j < g->nslots; j++) {
    wg_slot *s = &g->slots[j];
    unsigned k = j - first_simple;
    /* a uniform value is saved in one block for all boundaries, once the
     * regions are analysed (wg_merge_uniform_saves) */
    if (s->uniform || !(live[k / 64] >> (k % 64) & 1))
      continue;
    LLVMValueRef v = LLVMBuildLoad2(g->b, s->ty, s->alloca, "");
    wg_build_store(g, v, s->addr, (unsigned)s->align, 1);
  }
  LLVMBuildRet(g->b, wg_c32(g, bi + 1));
  LLVMInstructionEraseFromParent(term);
  if (res)
    LLVMReplaceAllUsesWith(bd->call, res);
  LLVMInstructionEraseFromParent(bd->call);
  bd->call = NULL;
}

int wg_build_regions(wg_gen *g, char **err)
{
  int rc = hoist_allocas(g, err);
  if (rc)
    return rc;
  drop_lifetime_markers(g);
  for (unsigned b = 0; b < g->nbnd; b++) {
    g->bnd[b].cont = cc_split_block_after(g->bnd[b].call, "cont");
    if (g->bnd[b].kind == WB_BCAST) {
      /* Constant ids (broadcast(x, 0), the common case): the work-group
       * function knows them; no frame slot, no store per work-item. */
      wg_boundary *bd = &g->bnd[b];
      unsigned nargs = LLVMGetNumArgOperands(bd->call);
      bd->bcast_const = 1;
      for (unsigned d = 0; d < 3; d++) {
        LLVMValueRef x = d + 1 < nargs ? LLVMGetOperand(bd->call, d + 1) : NULL;
        if (x && !LLVMIsAConstantInt(x))
          bd->bcast_const = 0;
        bd->bcast_id[d] = x && LLVMIsAConstantInt(x) ? LLVMConstIntGetZExtValue(x) : 0;
      }
      g->has_bcast |= !bd->bcast_const;
    }
    g->has_coll |= g->bnd[b].kind != WB_BARRIER && g->bnd[b].kind != WB_COPY;
    g->has_copy |= g->bnd[b].kind == WB_COPY;
  }
  rc = rematerialize(g);
  if (rc)
    return rc;
  wg_mark_accesses(g);
  cc_demote_cross_block(g->body, LLVMGetBasicBlockTerminator(g->entry));
  /* Demotion stored collective results right after their calls: those
   * stores go on in a block of their own, after the resume point. */
  for (unsigned b = 0; b < g->nbnd; b++) {
    LLVMValueRef next = LLVMGetNextInstruction(g->bnd[b].call);
    if (next != LLVMGetBasicBlockTerminator(LLVMGetInstructionParent(g->bnd[b].call)))
      g->bnd[b].cont = cc_split_block_after(g->bnd[b].call, "cont");
  }

  LLVMValueRef *simple = NULL;
  unsigned nsimple = 0;
  uint64_t *live = NULL;
  rc = collect_allocas(g, &simple, &nsimple);
  if (!rc)
    rc = alloca_liveness(g, simple, nsimple, &live);
  if (rc) {
    free(simple);
    return rc;
  }
  size_t W = (nsimple + 63) / 64;
  /* Keep only the simple allocas live across some boundary; compact the bitsets. */
  unsigned first_simple = g->nslots;
  wg_slot *grown = realloc(g->slots, (g->nslots + nsimple + 1) * sizeof(*g->slots));
  uint64_t *live2 = calloc((size_t)g->nbnd * W + 1, 8);
  if (!grown || !live2) {
    if (grown)
      g->slots = grown;
    free(live2);
    free(live);
    free(simple);
    return CC_OUT_OF_MEMORY;
  }
  g->slots = grown;
  for (unsigned i = 0; i < nsimple; i++) {
    int any = 0;
    for (unsigned b = 0; b < g->nbnd && !any; b++)
      any = live[(size_t)b * W + i / 64] >> (i % 64) & 1;
    if (!any)
      continue;
    unsigned k = g->nslots - first_simple;
    for (unsigned b = 0; b < g->nbnd; b++)
      if (live[(size_t)b * W + i / 64] >> (i % 64) & 1)
        live2[(size_t)b * W + k / 64] |= 1ull << (k % 64);
    wg_slot *s = &g->slots[g->nslots++];
    memset(s, 0, sizeof(*s));
    s->alloca = simple[i];
    s->ty = LLVMGetAllocatedType(simple[i]);
    s->size = LLVMABISizeOfType(g->td, s->ty);
    s->align = LLVMABIAlignmentOfType(g->td, s->ty);
  }
  free(live);
  free(simple);
  rc = classify_uniform_slots(g, first_simple);
  if (rc) {
    free(live2);
    return rc;
  }
  layout_frame(g);

  for (unsigned b = 0; b < g->nbnd; b++) {
    char name[32];
    snprintf(name, sizeof(name), "resume.%u", b + 1);
    g->bnd[b].resume = LLVMAppendBasicBlockInContext(g->c, g->body, name);
  }
  build_body_entry(g);
  for (unsigned b = 0; b < g->nbnd; b++)
    rewrite_boundary(g, b, live2 + (size_t)b * W, first_simple);
  g->live = live2;
  g->live_words = W;
  g->first_simple = first_simple;
  return CC_OK;
}

/* Simple slot j is live after some boundary (saved there). */
int wg_slot_live_somewhere(const wg_gen *g, unsigned j)
{
  unsigned k = j - g->first_simple;
  for (unsigned b = 0; b < g->nbnd; b++)
    if (g->live[(size_t)b * g->live_words + k / 64] >> (k % 64) & 1)
      return 1;
  return 0;
}

/* Every work-item saves a uniform value in work-item 0's copy (uaddr), the
 * only one read (load_uniform_values).  The saves are not in the boundaries'
 * blocks (rewrite_boundary leaves them out) but, once the regions have been
 * analysed (their walks read each boundary's `ret id`), in one block that
 * every return of the body goes through.  In a vectorized lane loop a save
 * in a boundary's own block would be predicated on the path taken, and LLVM
 * makes that a masked scatter of equal values to one address; in a block
 * every lane reaches it is one scalar store per vector iteration, and a
 * scalar lane loop keeps it out of the loop.  A value live after some
 * boundary is then saved at every return, also where it is not live:
 * nothing reads it there, and the next boundary where it is live saves it
 * again. */
void wg_merge_uniform_saves(wg_gen *g)
{
  unsigned nsaved = 0;
  for (unsigned j = g->first_simple; j < g->nslots; j++)
    nsaved += g->slots[j].uniform && wg_slot_live_somewhere(g, j);
  if (!nsaved)
    return;
  LLVMBasicBlockRef exitb = LLVMAppendBasicBlockInContext(g->c, g->body, "uniform.save");
  LLVMPositionBuilderAtEnd(g->b, exitb);
  LLVMValueRef id = LLVMBuildPhi(g->b, g->t_i32, "ret.id");
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (bb == exitb || !t || LLVMGetInstructionOpcode(t) != LLVMRet)
      continue;
    LLVMValueRef rv = LLVMGetOperand(t, 0);
    LLVMPositionBuilderBefore(g->b, t);
    LLVMBuildBr(g->b, exitb);
    LLVMInstructionEraseFromParent(t);
    LLVMAddIncoming(id, &rv, &bb, 1);
  }
  LLVMPositionBuilderAtEnd(g->b, exitb);
  for (unsigned j = g->first_simple; j < g->nslots; j++) {
    wg_slot *s = &g->slots[j];
    if (!s->uniform || !wg_slot_live_somewhere(g, j))
      continue;
    LLVMValueRef v = LLVMBuildLoad2(g->b, s->ty, s->alloca, "");
    wg_build_store(g, v, s->uaddr, (unsigned)s->align, 1);
  }
  LLVMBuildRet(g->b, id);
}

/* The frame is memory of its own (a worker's arena, reached only through
 * ctx->frame), and each uniform value's copy in it (uaddr) is touched by
 * nothing but its saves and load_uniform_values.  Alias scopes say so: one
 * per uniform value, one for the rest of the frame; every load and store of
 * the body whose object is known to be another one (a kernel argument, a
 * global, an alloca, the collective buffers) is noalias with all of them.
 * LLVM may then keep a uniform value in a register across a lane loop that
 * also writes __local or __global memory (LICM's promotion of the saves)
 * and hand it to the next lane loop without the frame (GVN, through the
 * state machine's direct edges).  Pointers whose object is not known
 * (loaded, selected, through a phi) and calls stay unmarked: they may alias
 * anything. */
int wg_frame_scopes(wg_gen *g)
{
  unsigned n = 1;
  for (unsigned j = 0; j < g->nslots; j++)
    n += g->slots[j].uaddr != NULL;
  LLVMMetadataRef *scope = calloc(2 * n, sizeof(*scope)), *others = scope + n;
  if (!scope)
    return CC_OUT_OF_MEMORY;
  g->kind_scope = LLVMGetMDKindIDInContext(g->c, "alias.scope", 11);
  g->kind_noalias = LLVMGetMDKindIDInContext(g->c, "noalias", 7);
  LLVMMetadataRef dname = LLVMMDStringInContext2(g->c, "lanecl.wg", 9);
  LLVMMetadataRef dom = LLVMMDNodeInContext2(g->c, &dname, 1);
  /* scope[0]: the frame; scope[k]: the k-th uniform value (k >= 1) */
  for (unsigned k = 0; k < n; k++) {
    char name[40];
    int len = k ? snprintf(name, sizeof(name), "lanecl.uniform.%u", k - 1) : snprintf(name, sizeof(name), "lanecl.frame");
    LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(g->c, name, (size_t)len), dom};
    scope[k] = LLVMMDNodeInContext2(g->c, ops, 2);
  }
  for (unsigned k = 0, j = 0; k < n; k++) {
    LLVMValueRef self = LLVMMetadataAsValue(g->c, LLVMMDNodeInContext2(g->c, &scope[k], 1));
    unsigned m = 0;
    for (unsigned q = 0; q < n; q++)
      if (q != k)
        others[m++] = scope[q];
    LLVMValueRef rest = LLVMMetadataAsValue(g->c, LLVMMDNodeInContext2(g->c, others, m));
    if (k == 0) {
      g->md_frame = self;
      g->md_frame_noalias = rest;
      continue;
    }
    while (!g->slots[j].uaddr)
      j++;
    g->slots[j].md_scope = self;
    g->slots[j++].md_noalias = rest;
  }
  g->md_frame_all = LLVMMetadataAsValue(g->c, LLVMMDNodeInContext2(g->c, scope, n));
  free(scope);
  return CC_OK;
}

void wg_set_frame_scope(wg_gen *g, LLVMValueRef inst, const wg_slot *s)
{
  if (!g->md_frame)
    return;
  LLVMSetMetadata(inst, g->kind_scope, s && s->md_scope ? s->md_scope : g->md_frame);
  LLVMSetMetadata(inst, g->kind_noalias, s && s->md_scope ? s->md_noalias : g->md_frame_noalias);
}

void wg_scope_frame(wg_gen *g)
{
  if (!g->md_frame)
    return;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef p;
      if (LLVMIsALoadInst(i))
        p = LLVMGetOperand(i, 0);
      else if (LLVMIsAStoreInst(i))
        p = LLVMGetOperand(i, 1);
      else
        continue;
      const wg_slot *us = NULL;
      for (unsigned j = 0; j < g->nslots && !us; j++)
        if (g->slots[j].uaddr && g->slots[j].uaddr == p)
          us = &g->slots[j];
      LLVMValueRef o = wg_ptr_base(p);
      if (us || o == g->frame)
        wg_set_frame_scope(g, i, us);
      else if (LLVMIsAArgument(o) || LLVMIsAGlobalValue(o) || LLVMIsAAllocaInst(o) || o == g->coll_buf ||
               o == g->coll_out)
        LLVMSetMetadata(i, g->kind_noalias, g->md_frame_all);
    }
}

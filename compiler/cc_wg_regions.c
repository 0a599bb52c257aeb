/* The regions of a body (step 2 of cc_wg.c): the boundaries found, and per
 * region what it reaches, whether it has an inner loop, what keeps it
 * scalar, and the plan for its lane loop (vectorized, fused with a scan,
 * packed small groups); the report says what the plan is. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

static int add_boundary(wg_gen *g, const wg_boundary *bd, unsigned *cap)
{
  if (g->nbnd == *cap) {
    unsigned ncap = *cap ? 2 * *cap : 8;
    wg_boundary *nb = realloc(g->bnd, ncap * sizeof(*nb));
    if (!nb)
      return CC_OUT_OF_MEMORY;
    g->bnd = nb;
    *cap = ncap;
  }
  g->bnd[g->nbnd++] = *bd;
  return CC_OK;
}

int wg_find_boundaries(wg_gen *g, char **err)
{
  unsigned cap = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      wg_boundary bd;
      const char *why = "";
      int r = wg_classify_boundary(i, &bd, &why);
      if (r < 0) {
        size_t len;
        const char *name = cc_callee_name(i, &len);
        cc_set_err(err, "kernel %s: work-group function %.*s: %s", g->ki->name, (int)len, name, why);
        return CC_BUILD_FAILED;
      }
      if (r > 0 && bd.kind == WB_COPY) {
        /* The event handed back is the one passed in. */
        LLVMValueRef ev = LLVMGetOperand(i, LLVMGetNumArgOperands(i) - 1);
        if (LLVMTypeOf(ev) == LLVMTypeOf(i))
          LLVMReplaceAllUsesWith(i, ev);
        else
          LLVMReplaceAllUsesWith(i, LLVMGetUndef(LLVMTypeOf(i)));
      }
      if (r > 0) {
        if (bd.kind != WB_COPY && bd.ty && LLVMGetTypeKind(bd.ty) != LLVMVoidTypeKind)
          bd.esize = (unsigned)LLVMABISizeOfType(g->td, bd.ty);
        if (add_boundary(g, &bd, &cap) != CC_OK)
          return CC_OUT_OF_MEMORY;
      }
    }
  return CC_OK;
}

/* ---- the report: what each region reaches, whether it has a loop ---- */

unsigned wg_lane_width(wg_gen *g)
{
  unsigned bits = g->dev && g->dev->simd_bits ? g->dev->simd_bits : 128;
  return bits / 32 ? bits / 32 : 1;
}

/* What keeps a lane loop scalar whatever the vectorizer does: atomics
 * (read-modify-write of memory) and printf. */
static const char *scalar_reason(LLVMBasicBlockRef bb)
{
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    wg_mangled mg;
    size_t rest;
    if (op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg)
      return "atomics";
    if (!LLVMIsACallInst(i))
      continue;
    if (cc_callee_has_prefix(i, "printf"))
      return "printf";
    if (wg_demangle(i, &mg) && (wg_ident_starts(&mg, "atomic_", &rest) || wg_ident_starts(&mg, "atom_", &rest)))
      return "atomics";
  }
  return NULL;
}

/* Stores through p reach only this work-item's private memory, the frame or
 * the collective buffer (the body's own bookkeeping). */
static int ptr_is_bookkeeping(wg_gen *g, LLVMValueRef p)
{
  LLVMValueRef o = wg_ptr_base(p);
  return LLVMIsAAllocaInst(o) || (g->frame && o == g->frame) || (g->coll_buf && o == g->coll_buf) ||
         (g->coll_out && o == g->coll_out);
}

/* The function never writes memory (its memory attribute has no Mod bit:
 * LLVM's MemoryEffects, two bits per location, Mod = 2). */
static int fn_no_writes(LLVMValueRef fn)
{
  LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, cc_attr_kind("memory"));
  return a && !(LLVMGetEnumAttributeValue(a) & 0x2a);
}

/* bb writes memory that other work-items may read: __local or __global
 * memory (stores, atomics, calls that may write). */
static int block_writes_shared(wg_gen *g, LLVMBasicBlockRef bb)
{
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if (op == LLVMStore && !ptr_is_bookkeeping(g, LLVMGetOperand(i, 1)))
      return 1;
    if (op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg || op == LLVMFence)
      return 1;
    if (op != LLVMCall)
      continue;
    LLVMValueRef fn = LLVMGetCalledValue(i);
    if (!LLVMIsAFunction(fn))
      return 1;
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    if (len >= 9 && !strncmp(name, "llvm.mem", 8)) {
      if (!ptr_is_bookkeeping(g, LLVMGetOperand(i, 0)))
        return 1;
      continue;
    }
    if ((len >= 13 && !strncmp(name, "llvm.lifetime", 13)) || (len >= 8 && !strncmp(name, "llvm.dbg", 8)))
      continue;
    if (!fn_no_writes(fn))
      return 1;
  }
  return 0;
}

/* Depth-first walk from start over the body's CFG; *has_loop when a cycle is
 * reachable, *why_scalar when something in it can't be vectorized; ends
 * gets the boundaries met, "end" for the end of the kernel; *only_end (when
 * not NULL) the id of the boundary when the region can end at that one
 * only, UINT32_MAX when only at the end of the kernel, else 0; *writes (when
 * not NULL) whether it may write memory that other work-items see
 * (block_writes_shared). */
static int region_walk(wg_gen *g, LLVMBasicBlockRef start, int *has_loop, const char **why_scalar, cc_str *ends,
                       unsigned *only_end, int *writes)
{
  int ends_at_boundary = 0;
  unsigned nb = LLVMCountBasicBlocks(g->body);
  cc_ptrmap idx = {0};
  unsigned char *color = calloc(nb + 1, 1);
  LLVMBasicBlockRef *blocks = malloc((nb + 1) * sizeof(*blocks));
  struct frame { unsigned b, next; } *stack = malloc((nb + 1) * sizeof(*stack));
  char *seen_end = calloc(g->nbnd + 2, 1);
  int rc = CC_OUT_OF_MEMORY;
  if (!color || !blocks || !stack || !seen_end || cc_ptrmap_init(&idx, nb))
    goto free_all;
  unsigned k = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
    blocks[k] = bb;
    cc_ptrmap_put(&idx, bb, k++);
  }
  unsigned sp = 0, s0;
  *has_loop = 0;
  *why_scalar = NULL;
  if (only_end)
    *only_end = 0;
  if (writes)
    *writes = 0;
  if (!cc_ptrmap_get(&idx, start, &s0))
    goto done;
  stack[sp++] = (struct frame){s0, 0};
  color[s0] = 1;
  while (sp) {
    struct frame *f = &stack[sp - 1];
    if (f->next == 0 && !*why_scalar)
      *why_scalar = scalar_reason(blocks[f->b]);
    if (f->next == 0 && writes && !*writes)
      *writes = block_writes_shared(g, blocks[f->b]);
    LLVMValueRef t = LLVMGetBasicBlockTerminator(blocks[f->b]);
    unsigned ns = LLVMGetNumSuccessors(t);
    if (f->next == 0 && LLVMGetInstructionOpcode(t) == LLVMRet && LLVMGetNumOperands(t) == 1) {
      LLVMValueRef rv = LLVMGetOperand(t, 0);
      if (LLVMIsAConstantInt(rv)) {
        long long id = LLVMConstIntGetSExtValue(rv);
        if (id >= -1 && id <= (long long)g->nbnd)
          seen_end[id < 0 ? 0 : id] = 1;
      }
    }
    if (f->next < ns) {
      unsigned v;
      LLVMBasicBlockRef sb = LLVMGetSuccessor(t, f->next++);
      if (!cc_ptrmap_get(&idx, sb, &v))
        continue;
      if (color[v] == 1)
        *has_loop = 1;
      if (color[v] == 0) {
        color[v] = 1;
        stack[sp++] = (struct frame){v, 0};
      }
    } else {
      color[f->b] = 2;
      sp--;
    }
  }
done:
  for (unsigned id = 1, nend = seen_end[0]; id <= g->nbnd; id++)
    if (seen_end[id]) {
      ends_at_boundary = 1;
      cc_str_printf(ends, "%s%s #%u", ends->len ? ", " : "", g->bnd[id - 1].what, id);
      if (only_end)
        *only_end = ++nend == 1 ? id : 0;
    }
  if (seen_end[0])
    cc_str_printf(ends, "%send", ends->len ? ", " : "");
  if (only_end && seen_end[0] && !ends_at_boundary)
    *only_end = UINT32_MAX;
  rc = CC_OK;
free_all:
  cc_ptrmap_free(&idx);
  free(color);
  free(blocks);
  free(stack);
  free(seen_end);
  return rc;
}

/* Some uniform value is live both into state s and after boundary b: the
 * uniform values' area can't serve both lane loops of a fused scan. */
static int uniform_live_overlap(wg_gen *g, unsigned s, unsigned b)
{
  if (s == 0 || !g->live)
    return 0;
  const uint64_t *ls = g->live + (size_t)(s - 1) * g->live_words;
  const uint64_t *lb = g->live + (size_t)(b - 1) * g->live_words;
  for (unsigned j = g->first_simple; j < g->nslots; j++) {
    unsigned k = j - g->first_simple;
    if (g->slots[j].uniform && (ls[k / 64] & lb[k / 64]) >> (k % 64) & 1)
      return 1;
  }
  return 0;
}

/* Region r, which can only end at boundary b, runs fused with it: b is a
 * scan, the lanes are 16 x 32-bit, and nothing in the region publishes
 * memory to other work-items.  (The spec does not make a collective a
 * memory barrier, so the region after the scan may run for the first 16
 * work-items before the region before it runs for the next 16; a region
 * that writes __local or __global memory keeps the unfused order anyway,
 * for kernels that assume more.) */
static int scan_fusable(wg_gen *g, unsigned r, unsigned b, int writes)
{
  if (g->opt_disable || !b || b > g->nbnd || b == r || writes || wg_lane_width(g) != 16)
    return 0;
  const wg_boundary *bd = &g->bnd[b - 1];
  if ((bd->kind != WB_SCAN_INC && bd->kind != WB_SCAN_EXC) || (bd->esize != 4 && bd->esize != 8) || !bd->helper[0])
    return 0;
  /* A sub-group collective fuses when a chunk is one sub-group (cc_wg_subgroup.c). */
  if (bd->sg && (g->sg_size != 16 || bd->sg_cluster))
    return 0;
  return !uniform_live_overlap(g, r, b);
}

/* Region 0, which can only end at boundary b, can run packed small groups
 * through a reduce, all, any or a 1D broadcast with a constant id
 * (wg_build_packed_groups): the same conditions as a fused scan.  Larger
 * groups keep the unfused path. */
static int reduce_packable(wg_gen *g, unsigned b, int writes)
{
  if (g->opt_disable || !b || b > g->nbnd || writes || wg_lane_width(g) != 16)
    return 0;
  const wg_boundary *bd = &g->bnd[b - 1];
  int bcast = bd->kind == WB_BCAST && bd->bcast_const && !bd->bcast_id[1] && !bd->bcast_id[2] &&
              bd->bcast_id[0] < 0xffff;
  if ((bd->kind != WB_REDUCE && bd->kind != WB_ALL && bd->kind != WB_ANY && !bcast) ||
      (bd->esize != 4 && bd->esize != 8) || (!bcast && !bd->helper[0]))
    return 0;
  return !uniform_live_overlap(g, 0, b);
}

/* The kernel keeps nothing per group but the collective buffer (no frame,
 * no uniform values, no __local memory): the work-items of several small
 * groups can share one chunk of a fused scan. */
static int kernel_packable(wg_gen *g)
{
  if (g->frame_bytes || g->uval_bytes || g->ki->local_mem_bytes)
    return 0;
  for (uint32_t i = 0; i < g->ki->nargs; i++)
    if (g->ki->args[i].kind == CC_ARG_LOCAL)
      return 0;
  return 1;
}

/* ---- which kernels go through the access rewrite (cc_wg_affine.c) ----
 * The rewrite runs on vectorized code, so the lane loops of a kernel that
 * needs it are vectorized before the module's optimization (with the outer
 * lane loops, cc_wg_outer.c), at the cost of one more optimization pass over
 * the module: only for bodies where the loop vectorizer will leave gathers
 * or masked accesses that can be better.  Those are the accesses whose
 * address goes through a call or a select (a clamp(), min(), max() builtin,
 * an intrinsic) and the accesses under `lx == c` (halo cells). */

#define EARLY_DEPTH 16

/* A call that computes an index: a builtin (clamp, min, max, abs, ...; not
 * linked yet) or a min/max intrinsic.  (The getters of __local variables are
 * calls too: their addresses vectorize well.) */
static int index_call(LLVMValueRef v)
{
  static const char *const prefix[] = {"_Z", "llvm.smin.", "llvm.smax.", "llvm.umin.", "llvm.umax.", "llvm.abs."};
  if (!LLVMIsACallInst(v))
    return 0;
  for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
    if (cc_callee_has_prefix(v, prefix[i]))
      return 1;
  return 0;
}

static int reaches(const wg_gen *g, LLVMValueRef v, int want_lx, unsigned depth)
{
  if (want_lx && (v == g->p_lid[0] || (g->p_gx && v == g->p_gx)))
    return 1; /* the local id x, or gx (the global id x comes from it) */
  if (!LLVMIsAInstruction(v) || depth > EARLY_DEPTH || LLVMIsAPHINode(v) || LLVMIsALoadInst(v) ||
      LLVMIsAAllocaInst(v))
    return 0;
  if (!want_lx && (LLVMIsASelectInst(v) || index_call(v)))
    return 1;
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  if (LLVMIsACallInst(v) && n)
    n--;
  for (unsigned i = 0; i < n; i++)
    if (reaches(g, LLVMGetOperand(v, i), want_lx, depth + 1))
      return 1;
  return 0;
}

/* c is lx == e or lx != e, or an and, or or select of such tests. */
static int lane_equality(const wg_gen *g, LLVMValueRef c, unsigned depth)
{
  if (depth > 4 || !LLVMIsAInstruction(c))
    return 0;
  if (LLVMIsAICmpInst(c))
    return (LLVMGetICmpPredicate(c) == LLVMIntEQ || LLVMGetICmpPredicate(c) == LLVMIntNE) &&
           (reaches(g, LLVMGetOperand(c, 0), 1, 0) || reaches(g, LLVMGetOperand(c, 1), 1, 0));
  LLVMOpcode op = LLVMGetInstructionOpcode(c);
  if (op != LLVMAnd && op != LLVMOr && op != LLVMSelect)
    return 0;
  unsigned n = (unsigned)LLVMGetNumOperands(c);
  for (unsigned i = 0; i < n; i++)
    if (lane_equality(g, LLVMGetOperand(c, i), depth + 1))
      return 1;
  return 0;
}

/* The address of i when it is a load or store of the kernel (in its access
 * group), else NULL. */
static LLVMValueRef kernel_access(const wg_gen *g, LLVMValueRef i)
{
  LLVMValueRef p = LLVMIsALoadInst(i) ? LLVMGetOperand(i, 0) : LLVMIsAStoreInst(i) ? LLVMGetOperand(i, 1) : NULL;
  return p && LLVMGetMetadata(i, g->kind_ag) ? p : NULL;
}

/* bb accesses memory at an address that depends on lx (a uniform address
 * under lx == 0, t[L - 1] = 0, vectorizes well as it is). */
static int lane_access(const wg_gen *g, LLVMBasicBlockRef bb)
{
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    LLVMValueRef p = kernel_access(g, i);
    if (p && reaches(g, p, 1, 0))
      return 1;
  }
  return 0;
}

int wg_wants_plain_accesses(const wg_gen *g)
{
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMIsABranchInst(t) && LLVMIsConditional(t) && lane_equality(g, LLVMGetCondition(t), 0) &&
        (lane_access(g, LLVMGetSuccessor(t, 0)) || lane_access(g, LLVMGetSuccessor(t, 1))))
      return 1;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef p = kernel_access(g, i);
      if (p && reaches(g, p, 0, 0))
        return 1;
    }
  }
  return 0;
}

/* What the walk of one region found (wg_plan_regions). */
typedef struct wg_region {
  char *ends;          /* the boundaries it reaches, for the report */
  int loop;            /* it has an inner loop */
  int divergent_loop;  /* ... one whose trip count is per work-item */
  const char *why;     /* what keeps its lane loop scalar (NULL: nothing) */
  unsigned only_end;   /* the one boundary it can end at (UINT32_MAX: the end) */
  int writes;          /* it writes memory other work-items may read */
} wg_region;

/* ---- a row of each work-item's own ----
 * A kernel whose work-item reads and writes a row of its own,
 * `for (j = 0; j < 16; j++) w[i * 17 + j] += b[j]` (the front end unrolls
 * the loop), vectorized across work-items turns each element of the row
 * into a gather and a scatter over W rows: 16 of each per chunk, and every
 * line of the rows touched W times.  A region of no inner loop and no
 * calls, a few instructions per access (it moves data), whose every access
 * with a varying address is an element of such a row, ROW_MIN_STORES
 * stores or more to one of them (so rows at least 8 elements apart, past
 * the loop vectorizer's interleave groups), runs one work-item at a time
 * (llvm.loop.vectorize.enable false: left to its cost model, the loop
 * vectorizer still chose gathers and scatters of 8 lanes).  The bench's
 * "rmw row loop": 13.3 ms before against PoCL's 2.4, 2.1 ms after.  The
 * row itself is vector code where the launch's buffers are disjoint
 * (LANECL_WG_DISJOINT, cc_wg_state.c: 1.06 ms); else the SLP vectorizer
 * leaves it scalar, its loads and stores interleaved through pointers that
 * may alias.  The
 * same row in a loop of a uniform trip count (`j < n`: the outer-loop path
 * made it strided gathers and scatters per iteration) counts as a row when
 * a store's offset is a uniform value that is not a constant and the rows
 * are 8 elements apart or more: 10.0-10.5 ms before, 2.0 after (PoCL
 * 1.0-1.15: it vectorizes the row). */
#define ROW_MIN_STORES 8
#define ROW_MAX_BASES 8
#define ROW_INSTS_PER_ACCESS 4
#define ROW_INSTS_EXTRA 16  /* the work-item's index, a loop's control */

typedef struct row_base {
  LLVMValueRef root, idx;      /* the row is gep(root, idx), idx = X * C or X << k */
  uint64_t esize;              /* bytes per element of that gep */
  uint64_t stride;             /* bytes between consecutive work-items' rows (at least) */
  int64_t lo, hi;              /* offsets of the accesses at constant offsets: [lo, hi) */
  unsigned stores;             /* at constant offsets */
  unsigned walking;            /* stores at a uniform offset that is not a constant (a loop's counter) */
} row_base;

/* v without sext/zext. */
static LLVMValueRef strip_ext(LLVMValueRef v)
{
  while (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v))
    v = LLVMGetOperand(v, 0);
  return v;
}

/* The bytes between two work-items' rows of gep(root, idx) with elements of
 * esize bytes, idx = X * C (X varying, C constant) or X << k, root uniform;
 * 0 when the row is not of that form. */
static uint64_t row_stride(const wg_uni *u, LLVMValueRef root, LLVMValueRef idx, uint64_t esize)
{
  if (!wg_is_uniform(u, root) || !LLVMIsABinaryOperator(idx))
    return 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(idx);
  LLVMValueRef x = LLVMGetOperand(idx, 0), c = LLVMGetOperand(idx, 1);
  if (op == LLVMMul && LLVMIsAConstantInt(x)) {
    LLVMValueRef t = x;
    x = c;
    c = t;
  }
  if (!LLVMIsAConstantInt(c) || wg_is_uniform(u, x))
    return 0;
  int64_t k = LLVMConstIntGetSExtValue(c);
  if (op == LLVMMul && k > 0)
    return (uint64_t)k * esize;
  if (op == LLVMShl && k > 0 && k < 32)
    return ((uint64_t)1 << k) * esize;
  return 0;
}

/* The index of a row's gep without a constant it adds (A[i * 17 + 3]: the
 * front end's form of an unrolled loop's element), that constant into *off
 * in bytes. */
static LLVMValueRef row_index(LLVMValueRef idx, uint64_t esize, int64_t *off)
{
  idx = strip_ext(idx);
  if (LLVMIsABinaryOperator(idx) && LLVMGetInstructionOpcode(idx) == LLVMAdd) {
    LLVMValueRef a = LLVMGetOperand(idx, 0), c = LLVMGetOperand(idx, 1);
    if (LLVMIsAConstantInt(a)) {
      LLVMValueRef t = a;
      a = c;
      c = t;
    }
    if (LLVMIsAConstantInt(c)) {
      *off += LLVMConstIntGetSExtValue(c) * (int64_t)esize;
      idx = strip_ext(a);
    }
  }
  return idx;
}

static int rows_of_their_own(wg_gen *g, const wg_uni *u)
{
  LLVMTargetDataRef td = g->td;
  row_base rb[ROW_MAX_BASES];
  unsigned nb = 0, ninst = 0, naccess = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      ninst++;
      LLVMValueRef f;
      if (LLVMIsACallInst(i) && (!(f = cc_called_function(i)) || !LLVMGetIntrinsicID(f)))
        return 0; /* math and the like: across work-items they are vector code */
      int st = LLVMIsAStoreInst(i) != NULL;
      if (!st && !LLVMIsALoadInst(i))
        continue;
      naccess++;
      LLVMValueRef ptr = LLVMGetOperand(i, st ? 1 : 0);
      if (wg_is_uniform(u, ptr))
        continue;
      /* offsets from a base: constant, or uniform (a uniform loop's counter) */
      int64_t off = 0;
      int walks = 0;
      while (LLVMIsAGetElementPtrInst(ptr) && LLVMGetNumOperands(ptr) == 2 &&
             (LLVMIsAConstantInt(LLVMGetOperand(ptr, 1)) || wg_is_uniform(u, LLVMGetOperand(ptr, 1)))) {
        if (LLVMIsAConstantInt(LLVMGetOperand(ptr, 1)))
          off += LLVMConstIntGetSExtValue(LLVMGetOperand(ptr, 1)) *
                 (int64_t)LLVMABISizeOfType(td, LLVMGetGEPSourceElementType(ptr));
        else
          walks = 1;
        ptr = LLVMGetOperand(ptr, 0);
      }
      if (!LLVMIsAGetElementPtrInst(ptr) || LLVMGetNumOperands(ptr) != 2)
        return 0; /* a varying access not in a row */
      uint64_t esize = LLVMABISizeOfType(td, LLVMGetGEPSourceElementType(ptr));
      LLVMValueRef root = LLVMGetOperand(ptr, 0), idx = row_index(LLVMGetOperand(ptr, 1), esize, &off);
      unsigned k = 0;
      while (k < nb && !(rb[k].root == root && rb[k].idx == idx && rb[k].esize == esize))
        k++;
      if (k == nb) {
        uint64_t stride = row_stride(u, root, idx, esize);
        if (!stride || nb == ROW_MAX_BASES)
          return 0; /* a varying access not in a row */
        rb[nb++] = (row_base){root, idx, esize, stride, INT64_MAX, INT64_MIN, 0, 0};
      }
      if (walks) {
        rb[k].walking += (unsigned)st;
        continue;
      }
      int64_t size = (int64_t)LLVMABISizeOfType(td, LLVMTypeOf(st ? LLVMGetOperand(i, 0) : i));
      rb[k].lo = off < rb[k].lo ? off : rb[k].lo;
      rb[k].hi = off + size > rb[k].hi ? off + size : rb[k].hi;
      rb[k].stores += (unsigned)st;
    }
  /* Moving data, not computing: arithmetic across work-items is vector
   * code, in one work-item's row scalar code here. */
  if (ninst > ROW_INSTS_PER_ACCESS * naccess + ROW_INSTS_EXTRA)
    return 0;
  int rows = 0;
  for (unsigned k = 0; k < nb; k++) {
    if (rb[k].lo < rb[k].hi && (uint64_t)(rb[k].hi - rb[k].lo) > rb[k].stride)
      return 0; /* rows that overlap: leave it */
    rows |= rb[k].stores >= ROW_MIN_STORES || (rb[k].walking && rb[k].stride >= ROW_MIN_STORES * 4);
  }
  return rows;
}

/* The plan of each region, from what its walk finds: vec_state[r], how the
 * lane loop of state r goes to the loop vectorizer: WG_VEC_NONE (kept
 * scalar), WG_VEC_LANES (no loop in the region: the vectorizer's usual
 * path) or WG_VEC_OUTER (inner loops: the VPlan-native path for outer
 * loops, see cc_wg_outer.c); g->fuse_to, the scans fused with the regions
 * around them; g->packable and g->pack_to, small groups packed into one
 * chunk.  g->regions keeps the walks for wg_report_regions. */
int wg_plan_regions(wg_gen *g, int *vec_state)
{
  g->fuse_to = calloc(g->nbnd + 1, sizeof(*g->fuse_to));
  wg_region *rg = g->regions = calloc(g->nbnd + 1, sizeof(*rg));
  if (!g->fuse_to || !rg)
    return CC_OUT_OF_MEMORY;
  wg_uni u;
  int have_uni = 0;
  for (unsigned r = 0; r <= g->nbnd; r++) {
    cc_str ends = {0};
    LLVMBasicBlockRef start = r == 0 ? g->start : g->bnd[r - 1].resume;
    int rc = region_walk(g, start, &rg[r].loop, &rg[r].why, &ends, &rg[r].only_end, &rg[r].writes);
    rg[r].ends = cc_str_take(&ends);
    if (rc)
      return rc;
    if (rg[r].loop && !rg[r].why && !g->opt_disable) {
      /* A trip count per work-item: the native path refuses it, masked
       * widening (cc_wg_diverge.c) takes it after the same checks. */
      if (!have_uni && wg_uniformity(g, &u) == CC_OK)
        have_uni = 1;
      rg[r].divergent_loop = have_uni && wg_region_has_divergent_loop(&u, start);
    }
    if (g->nbnd == 0 && !rg[r].divergent_loop && !rg[r].why && !g->opt_disable) {
      if (!have_uni && wg_uniformity(g, &u) == CC_OK)
        have_uni = 1;
      if (have_uni && rows_of_their_own(g, &u)) {
        rg[r].why = "each work-item reads and writes a row of its own, 8 elements or more from the next one's "
                    "(one work-item at a time, not gathers and scatters)";
        g->rows_own = 1;
      }
    }
    if (scan_fusable(g, r, rg[r].only_end, rg[r].writes))
      g->fuse_to[r] = rg[r].only_end;
    vec_state[r] = g->opt_disable || rg[r].why ? WG_VEC_NONE : rg[r].loop ? WG_VEC_OUTER : WG_VEC_LANES;
  }
  if (have_uni)
    wg_uni_free(&u);
  unsigned b = g->fuse_to[0] ? g->fuse_to[0] : reduce_packable(g, rg[0].only_end, rg[0].writes) ? rg[0].only_end : 0;
  if (b && rg[b].only_end == UINT32_MAX && kernel_packable(g)) {
    g->packable = 1;
    g->pack_to = b;
  }
  return CC_OK;
}

/* One line per region in the report, from its plan.  The line ends in
 * CC_LANE_LOOP_PENDING for the lane loops handed to the vectorizer: the
 * back end puts LLVM's verdict there (cc_wg_verdicts). */
void wg_report_regions(wg_gen *g)
{
  const wg_region *rg = g->regions;
  for (unsigned r = 0; r <= g->nbnd; r++) {
    if (r == 0)
      cc_str_printf(&g->report, "  region 0: start -> %s: ", rg[r].ends);
    else
      cc_str_printf(&g->report, "  region %u: after %s #%u -> %s: ", r, g->bnd[r - 1].what, r, rg[r].ends);
    if (rg[r].loop)
      cc_str_printf(&g->report, "inner loop, ");
    if (rg[r].divergent_loop)
      cc_str_printf(&g->report, "trip count per work-item, ");
    if (g->opt_disable)
      cc_str_printf(&g->report, "scalar (-cl-opt-disable)\n");
    else if (rg[r].why)
      cc_str_printf(&g->report, "%s, scalar\n", rg[r].why);
    else
      cc_str_printf(&g->report, "%s\n", CC_LANE_LOOP_PENDING);
    if (g->trim && g->trim[r].n) {
      const wg_trim *tr = &g->trim[r];
      int only0 = tr->n == 1 && tr->b[0].kind == WG_TRIM_ONE;
      cc_str_printf(&g->report, "    region %u's lane loop runs %s\n", r,
                    only0 ? "work-item 0 alone (the others would change nothing)"
                          : "only the work-items below its uniform bound (lx < u guards every effect)");
    }
    unsigned e = g->fuse_to[r];
    int half = e && g->half_shuffles && !g->bnd[e - 1].sg;
    if (e)
      cc_str_printf(&g->report,
                    "    region %u, %s #%u and region %u run fused, %u work-items at a time (groups of one "
                    "dimension, or of rows of a multiple of %u)%s\n",
                    r, g->bnd[e - 1].what, e, e, half ? 8 : 16, half ? 8 : 16,
                    half ? ", the scan in 256-bit pieces" : g->bnd[e - 1].sg ? ", one sub-group per chunk" : "");
  }
  if (g->packable) {
    unsigned b = g->pack_to;
    cc_str_printf(&g->report,
                  "    groups of %s work-items run 16 / size at a time through region 0, %s #%u "
                  "and region %u (in spans of groups)\n",
                  g->bnd[b - 1].esize <= 4 ? "1, 2, 4, 8 or 16" : "1, 2, 4 or 8", g->bnd[b - 1].what, b, b);
    if (g->fuse_to[0] == b)
      cc_str_printf(&g->report,
                    "    larger groups of a multiple of %u work-items run their chunks one group after the other "
                    "(in spans of groups)\n",
                    g->half_shuffles && !g->bnd[b - 1].sg ? 8 : 16);
  }
}

void wg_free_regions(wg_gen *g)
{
  for (unsigned r = 0; g->regions && r <= g->nbnd; r++)
    free(g->regions[r].ends);
  free(g->regions);
  g->regions = NULL;
}

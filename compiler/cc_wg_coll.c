/* The work-group collectives and async copies in the work-group function:
 * the combine of a whole group at a boundary, a scan fused with the lane
 * loops around it chunk by chunk, and small groups packed into one chunk. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

/* An async copy, once for the group, from work-item 0's arguments: one
 * memcpy, or an element loop for a strided one. */
static void build_group_copy(wg_gen *g, const wg_boundary *bd, LLVMValueRef frame, LLVMValueRef nwi)
{
  LLVMValueRef v[4];
  for (unsigned a = 0; a < 4; a++) {
    LLVMValueRef o = LLVMBuildMul(g->b, wg_c64(g, g->copy_off + 8 * a), nwi, "");
    v[a] = wg_build_load(g, g->t_i64, LLVMBuildInBoundsGEP2(g->b, g->t_i8, frame, &o, 1, ""), 8, 0);
  }
  LLVMValueRef dst = LLVMBuildIntToPtr(g->b, v[0], g->t_ptr, "copy.dst");
  LLVMValueRef src = LLVMBuildIntToPtr(g->b, v[1], g->t_ptr, "copy.src");
  LLVMValueRef es = wg_c64(g, bd->esize);
  unsigned align = bd->esize & -bd->esize;
  if (!bd->stride_side) {
    LLVMBuildMemCpy(g->b, dst, align, src, align, LLVMBuildMul(g->b, v[2], es, ""));
    return;
  }
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->c, g->wg, "copy.elem");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->c, g->wg, "copy.done");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, v[2], wg_c64(g, 0), ""), done, body);
  LLVMPositionBuilderAtEnd(g->b, body);
  LLVMValueRef i = LLVMBuildPhi(g->b, g->t_i64, "i");
  LLVMValueRef far = LLVMBuildMul(g->b, LLVMBuildMul(g->b, i, v[3], ""), es, "");
  LLVMValueRef near = LLVMBuildMul(g->b, i, es, "");
  LLVMValueRef d = LLVMBuildInBoundsGEP2(g->b, g->t_i8, dst, bd->stride_side == 2 ? &far : &near, 1, "");
  LLVMValueRef s = LLVMBuildInBoundsGEP2(g->b, g->t_i8, src, bd->stride_side == 1 ? &far : &near, 1, "");
  LLVMBuildMemCpy(g->b, d, align, s, align, es);
  LLVMValueRef i1 = LLVMBuildNUWAdd(g->b, i, wg_c64(g, 1), "");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, i1, v[2], ""), body, done);
  LLVMValueRef zero = wg_c64(g, 0);
  LLVMAddIncoming(i, &zero, &pre, 1);
  LLVMAddIncoming(i, &i1, &body, 1);
  LLVMPositionBuilderAtEnd(g->b, done);
}

/* The helpers of builtins/collectives.cl take generic pointers (OpenCL C
 * 2.0 and later): declared alike, so that calls to them can be inlined. */
static LLVMTypeRef generic_ptr(wg_gen *g)
{
  return LLVMPointerTypeInContext(g->c, CC_AS_GENERIC);
}

static LLVMValueRef to_generic(wg_gen *g, LLVMValueRef p)
{
  return LLVMBuildAddrSpaceCast(g->b, p, generic_ptr(g), "");
}

/* A combine helper taking nptr generic pointers and the group's size. */
static LLVMValueRef helper_decl(wg_gen *g, const char *name, unsigned nptr)
{
  LLVMValueRef f = LLVMGetNamedFunction(g->m, name);
  if (f)
    return f;
  LLVMTypeRef p[3] = {generic_ptr(g), generic_ptr(g), g->t_i64};
  p[nptr] = g->t_i64;
  f = LLVMAddFunction(g->m, name, LLVMFunctionType(g->t_void, p, nptr + 1, 0));
  cc_add_fn_attr(f, "nounwind");
  return f;
}

/* Some uniform value is live after boundary b (restored from the uniform
 * values' area by the state b's lane loop). */
static int uniform_live_after(wg_gen *g, unsigned b)
{
  const uint64_t *lb = g->live ? g->live + (size_t)(b - 1) * g->live_words : NULL;
  for (unsigned j = g->first_simple; lb && j < g->nslots; j++) {
    unsigned k = j - g->first_simple;
    if (g->slots[j].uniform && lb[k / 64] >> (k % 64) & 1)
      return 1;
  }
  return 0;
}

/* One chunk of a fused scan at the builder: the chunk helper of
 * builtins/collectives.cl on the chunk's 16 operands (in place, continuing
 * the carry), after the uniform values of state b are read when this is the
 * first chunk (work-item 0 has just reached the scan). */
static void fused_chunk_combine(wg_gen *g, LLVMValueRef *argv, unsigned b, LLVMValueRef helper, LLVMValueRef chunk,
                                LLVMValueRef carry, LLVMValueRef first, LLVMValueRef frame)
{
  if (uniform_live_after(g, b)) {
    LLVMBasicBlockRef ub = LLVMAppendBasicBlockInContext(g->c, g->wg, "fused.uniform");
    LLVMBasicBlockRef cb = LLVMAppendBasicBlockInContext(g->c, g->wg, "fused.combine");
    LLVMBuildCondBr(g->b, first, ub, cb);
    LLVMPositionBuilderAtEnd(g->b, ub);
    wg_load_uniform_values(g, b, frame, argv[g->nparams + WG_P_UVAL]);
    LLVMBuildBr(g->b, cb);
    LLVMPositionBuilderAtEnd(g->b, cb);
  }
  LLVMValueRef args[3] = {to_generic(g, chunk), to_generic(g, carry), LLVMBuildZExt(g->b, first, g->t_i64, "")};
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(helper), helper, args, 3, "");
}

/* The address that work-item base's element of the collective buffer has
 * when the chunk from base is at `chunk`. */
static LLVMValueRef chunk_origin(wg_gen *g, LLVMValueRef chunk, LLVMValueRef base, unsigned esize)
{
  LLVMValueRef off = LLVMBuildNeg(g->b, LLVMBuildMul(g->b, base, wg_c64(g, esize), ""), "");
  return LLVMBuildGEP2(g->b, g->t_i8, chunk, &off, 1, "chunk.origin");
}

/* The lane loop of state s fused with the scan it reaches (boundary b =
 * g->fuse_to[s]) and the region after it, in a group of one dimension: per
 * chunk of 16 work-items, state s's lanes publish their operands, the chunk
 * helper scans them in registers with the running carry, and state b's
 * lanes go on with the results; the tail chunk (local size % 16) the same
 * with fewer lanes.  The chunk's operands and results go through a
 * 16-element buffer on the stack, not ctx->coll_buf (the body's coll_out
 * for state s and its coll_buf for state b point base elements before it):
 * a full chunk's lane loops have the constant trip count 16, so once
 * vectorized everything is one straight run of vector code in which the
 * buffer is only a register.  Returns the boundary that state b reaches. */
/* Where the chunk from linear id base starts: ln's x, and in a group of two
 * or three dimensions (ls; NULL for one) its y and z.  A chunk never
 * straddles a row there: lx is a multiple of the chunk (build_state_machine
 * checks). */
static void chunk_start(wg_gen *g, LLVMValueRef base, const LLVMValueRef *ls, wg_lanes *ln)
{
  if (!ls) {
    ln->xbase = base;
    return;
  }
  LLVMValueRef row = LLVMBuildUDiv(g->b, base, ls[0], "chunk.row");
  ln->ybase = LLVMBuildURem(g->b, row, ls[1], "chunk.y");
  ln->zbase = LLVMBuildUDiv(g->b, row, ls[1], "chunk.z");
  ln->xbase = LLVMBuildURem(g->b, base, ls[0], "chunk.x");
  ln->cidx_base = base;
}

LLVMValueRef wg_build_fused_scan(wg_gen *g, LLVMValueRef *argv, unsigned s, LLVMValueRef coll, LLVMValueRef n,
                                 LLVMValueRef frame, const int *vec_state, const LLVMValueRef *ls)
{
  unsigned b = g->fuse_to[s];
  const wg_boundary *bd = &g->bnd[b - 1];
  /* A chunk's lane loop that only moves operands would become a memcpy
   * into the chunk buffer before the loop vectorizer runs, and the buffer
   * would stay in memory. */
  wg_add_string_attr(g, g->wg, "no-builtin-memcpy", "");
  wg_add_string_attr(g, g->wg, "no-builtin-memset", "");
  wg_add_string_attr(g, g->wg, CC_ATTR_CHUNK_LOOPS, "");
  char name[96];
  if (bd->sg) /* a chunk is one sub-group: no carry, 16 lanes (cc_wg_subgroup.c) */
    snprintf(name, sizeof(name), "__lanecl_sg_chunk_%s", bd->helper + strlen("__lanecl_sg_"));
  else
    snprintf(name, sizeof(name), "__lanecl_wg_chunk_%s%s", g->half_shuffles ? "h" : "",
             bd->helper + strlen("__lanecl_wg_"));
  LLVMValueRef helper = helper_decl(g, name, 2);
  /* The carry: one register's worth, in the function's entry block. */
  LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
  LLVMValueRef carry = wg_entry_alloca(g, 64, "carry");
  LLVMValueRef chunk = wg_entry_alloca(g, 16 * bd->esize, "chunk");
  /* (the tail chunk's own: the full chunks' buffer is then dead after them) */
  LLVMValueRef tchunk = wg_entry_alloca(g, 16 * bd->esize, "chunk.tail");
  unsigned in = g->nparams + WG_P_CBUF, out = g->nparams + WG_P_CBUF_OUT;
  LLVMValueRef saved_in = argv[in], saved_out = argv[out];

  /* Chunks of 16 lanes, or of 8 where 256-bit shuffles run at twice the
   * rate (g->half_shuffles): the lane loops then vectorize 8 wide and the
   * helper scans 256 bits at a time. */
  unsigned lg = g->half_shuffles && !bd->sg ? 3 : 4;
  LLVMValueRef zero = wg_c64(g, 0);
  LLVMValueRef nfull = LLVMBuildLShr(g->b, n, wg_c64(g, lg), "chunks");
  LLVMValueRef tail = LLVMBuildAnd(g->b, n, wg_c64(g, (1u << lg) - 1), "tail");
  const LLVMValueRef w16[3] = {wg_c64(g, 1u << lg), wg_c64(g, 1), wg_c64(g, 1)};
  LLVMBasicBlockRef full = LLVMAppendBasicBlockInContext(g->c, g->wg, "fused.chunk");
  LLVMBasicBlockRef tchk = LLVMAppendBasicBlockInContext(g->c, g->wg, "fused.tail.check");
  LLVMBasicBlockRef tb = LLVMAppendBasicBlockInContext(g->c, g->wg, "fused.tail");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->c, g->wg, "fused.done");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, nfull, zero, ""), full, tchk);

  LLVMPositionBuilderAtEnd(g->b, full);
  LLVMValueRef c = LLVMBuildPhi(g->b, g->t_i64, "chunk");
  /* In 2D/3D the chunk's x, y, z step along with it (no division per chunk). */
  LLVMValueRef pos[3] = {NULL, NULL, NULL};
  if (ls) {
    pos[0] = LLVMBuildPhi(g->b, g->t_i64, "chunk.x");
    pos[1] = LLVMBuildPhi(g->b, g->t_i64, "chunk.y");
    pos[2] = LLVMBuildPhi(g->b, g->t_i64, "chunk.z");
  }
  LLVMValueRef base = LLVMBuildShl(g->b, c, wg_c64(g, lg), "");
  wg_lanes ln = {.state = s, .coll = coll, .ls = w16, .xbase = ls ? pos[0] : base, .ybase = pos[1], .zbase = pos[2],
                 .cidx_base = ls ? base : NULL, .vectorize = vec_state[s]};
  LLVMValueRef origin = chunk_origin(g, chunk, base, bd->esize);
  argv[out] = origin; /* state s: the operands into the chunk */
  wg_build_lane_loops(g, argv, &ln);
  if (bd->sg) /* the lanes of the chunk, for a sub-group reduction */
    LLVMBuildStore(g->b, wg_c64(g, 16), carry);
  fused_chunk_combine(g, argv, b, helper, chunk, carry, LLVMBuildICmp(g->b, LLVMIntEQ, c, zero, ""), frame);
  argv[in] = origin, argv[out] = saved_out; /* state b: the results from it */
  ln.state = b, ln.vectorize = vec_state[b];
  LLVMValueRef r2 = wg_build_lane_loops(g, argv, &ln);
  argv[in] = saved_in;
  LLVMValueRef c1 = LLVMBuildNUWAdd(g->b, c, wg_c64(g, 1), "");
  LLVMValueRef next[3];
  if (ls) {
    LLVMValueRef x1 = LLVMBuildNUWAdd(g->b, pos[0], wg_c64(g, 1u << lg), "");
    LLVMValueRef wx = LLVMBuildICmp(g->b, LLVMIntEQ, x1, ls[0], "");
    next[0] = LLVMBuildSelect(g->b, wx, zero, x1, "");
    LLVMValueRef y1 = LLVMBuildNUWAdd(g->b, pos[1], LLVMBuildZExt(g->b, wx, g->t_i64, ""), "");
    LLVMValueRef wy = LLVMBuildICmp(g->b, LLVMIntEQ, y1, ls[1], "");
    next[1] = LLVMBuildSelect(g->b, wy, zero, y1, "");
    next[2] = LLVMBuildNUWAdd(g->b, pos[2], LLVMBuildZExt(g->b, wy, g->t_i64, ""), "");
  }
  LLVMBasicBlockRef latch =
      wg_close_loop(g, c, zero, here, c1, LLVMBuildICmp(g->b, LLVMIntULT, c1, nfull, ""), full, tchk);
  LLVMBasicBlockRef cfrom[2] = {here, latch};
  for (unsigned d = 0; ls && d < 3; d++) {
    LLVMValueRef v[2] = {zero, next[d]};
    LLVMAddIncoming(pos[d], v, cfrom, 2);
  }

  LLVMPositionBuilderAtEnd(g->b, tchk);
  LLVMValueRef rf = LLVMBuildPhi(g->b, g->t_i32, "");
  LLVMValueRef rv[2] = {wg_c32(g, 0), r2};
  LLVMAddIncoming(rf, rv, cfrom, 2);
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, tail, zero, ""), tb, done);

  LLVMPositionBuilderAtEnd(g->b, tb);
  const LLVMValueRef wt[3] = {tail, wg_c64(g, 1), wg_c64(g, 1)};
  base = LLVMBuildShl(g->b, nfull, wg_c64(g, lg), "");
  origin = chunk_origin(g, tchunk, base, bd->esize);
  argv[out] = origin;
  wg_lanes tln = {.state = s, .coll = coll, .ls = wt, .vectorize = vec_state[s]};
  chunk_start(g, base, ls, &tln);
  wg_build_lane_loops(g, argv, &tln);
  if (bd->sg)
    LLVMBuildStore(g->b, tail, carry);
  fused_chunk_combine(g, argv, b, helper, tchunk, carry, LLVMBuildICmp(g->b, LLVMIntEQ, nfull, zero, ""), frame);
  argv[in] = origin, argv[out] = saved_out;
  tln.state = b, tln.vectorize = vec_state[b];
  LLVMValueRef r2t = wg_build_lane_loops(g, argv, &tln);
  argv[in] = saved_in;
  LLVMBasicBlockRef tend = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, done);

  LLVMPositionBuilderAtEnd(g->b, done);
  LLVMValueRef r = LLVMBuildPhi(g->b, g->t_i32, "fused.next");
  LLVMValueRef dv[2] = {rf, r2t};
  LLVMBasicBlockRef dfrom[2] = {tchk, tend};
  LLVMAddIncoming(r, dv, dfrom, 2);
  return r;
}

/* The combine at boundary bd of a whole group, at the builder: the helper
 * over the group's operands (ops; a scan's results to coll_buf), then the
 * value the region after gets as coll (the result of a reduce, all, any or
 * broadcast; 0 otherwise). */
LLVMValueRef wg_build_combine(wg_gen *g, const wg_boundary *bd, LLVMValueRef ops, LLVMValueRef coll_buf,
                              LLVMValueRef frame, LLVMValueRef nwi, const LLVMValueRef ls[3])
{
  LLVMValueRef cv = wg_c64(g, 0);
  LLVMTypeRef ety = bd->esize ? LLVMIntTypeInContext(g->c, bd->esize * 8) : NULL;
  if (bd->helper[0]) {
    int scan = bd->kind == WB_SCAN_INC || bd->kind == WB_SCAN_EXC;
    LLVMValueRef f = helper_decl(g, bd->helper, scan ? 2 : 1);
    LLVMValueRef n = nwi;
    if (bd->sg) /* sub-groups: n | lx << 24 | S << 48 (cc_wg_subgroup.c) */
      n = LLVMBuildOr(g->b, LLVMBuildOr(g->b, nwi, LLVMBuildShl(g->b, ls[0], wg_c64(g, 24), ""), ""),
                      wg_c64(g, (uint64_t)(bd->sg_cluster && bd->sg_cluster < g->sg_size ? bd->sg_cluster : g->sg_size) << 48), "sg.n");
    LLVMValueRef hargs[3] = {to_generic(g, ops), scan ? to_generic(g, coll_buf) : n, n};
    LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, hargs, scan ? 3 : 2, "");
  }
  if (bd->kind == WB_SG_XCHG) /* the operands where the region after reads them */
    LLVMBuildMemCpy(g->b, coll_buf, 8, ops, 8, LLVMBuildMul(g->b, nwi, wg_c64(g, bd->esize), ""));
  if (bd->kind == WB_COPY)
    build_group_copy(g, bd, frame, nwi);
  if (bd->kind == WB_ALL || bd->kind == WB_ANY || bd->kind == WB_REDUCE) {
    cv = LLVMBuildZExt(g->b, wg_build_load(g, ety, ops, bd->esize, 0), g->t_i64, "");
  } else if (bd->kind == WB_BCAST) {
    /* The ids are uniform: work-item 0's copy says which element, or
     * they are constants: (z * ly + y) * lx + x here. */
    LLVMValueRef t;
    if (bd->bcast_const) {
      t = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, wg_c64(g, bd->bcast_id[2]), ls[1], ""), wg_c64(g, bd->bcast_id[1]),
                       "");
      t = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, t, ls[0], ""), wg_c64(g, bd->bcast_id[0]), "bcast_lin");
    } else {
      LLVMValueRef o = LLVMBuildMul(g->b, wg_c64(g, g->bcast_off), nwi, "");
      t = wg_build_load(g, g->t_i64, LLVMBuildInBoundsGEP2(g->b, g->t_i8, frame, &o, 1, ""), 8, 0);
    }
    /* An id outside the group is undefined behaviour: read work-item 0's
     * operand rather than memory past the buffer. */
    t = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, t, nwi, ""), t, wg_c64(g, 0), "");
    LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, ety, ops, &t, 1, "");
    cv = LLVMBuildZExt(g->b, wg_build_load(g, ety, p, bd->esize, 0), g->t_i64, "");
  }
  return cv;
}

/* Groups of 1, 2, 4, 8 or (32-bit operands) 16 work-items (the size ls0,
 * full-size ones), when at least 16 / size are left in this call (gk the first): 16 / size of them
 * run as one chunk of the fused scan of state 0.  The lane loops run x over
 * 16 lanes, lane x being work-item x % size of group gk + x / size; the
 * body gets gx and coll_idx consecutive in x (pack_lane), so its loads and
 * stores stay vector ones; the segmented chunk helper scans each group's
 * lanes on its own; then to gnext, past the last of them.  Otherwise the
 * builder is left where the usual path goes on. */
void wg_build_packed_groups(wg_gen *g, const LLVMValueRef *argv, LLVMValueRef ls0, LLVMValueRef gk, LLVMValueRef count,
                            LLVMBasicBlockRef gnext, const int *vec_state)
{
  unsigned b = g->pack_to;
  const wg_boundary *bd = &g->bnd[b - 1];
  int scan = bd->kind == WB_SCAN_INC || bd->kind == WB_SCAN_EXC;
  char name[96];
  /* (a sub-group collective on groups of at most 16: each group is one sub-group) */
  if (bd->sg && !strncmp(bd->helper, "__lanecl_sg_reduce", 18))
    snprintf(name, sizeof(name), "__lanecl_wg_chunk_segreduce%s", bd->helper + 18);
  else if (bd->sg && strncmp(bd->helper, "__lanecl_sg_scan", 16))
    snprintf(name, sizeof(name), "__lanecl_wg_chunk_seg%s", bd->helper + strlen("__lanecl_sg_"));
  else if (scan)
    snprintf(name, sizeof(name), "__lanecl_wg_chunk_segscan%s", bd->helper + strlen("__lanecl_wg_scan"));
  else if (bd->kind == WB_REDUCE)
    snprintf(name, sizeof(name), "__lanecl_wg_chunk_segreduce%s", bd->helper + strlen("__lanecl_wg_reduce"));
  else if (bd->kind == WB_BCAST)
    snprintf(name, sizeof(name), "__lanecl_wg_chunk_segbcast_i%u", bd->esize * 8);
  else
    snprintf(name, sizeof(name), "__lanecl_wg_chunk_seg%s", bd->kind == WB_ALL ? "all" : "any");
  LLVMValueRef helper = helper_decl(g, name, 1);
  wg_add_string_attr(g, g->wg, "no-builtin-memcpy", "");
  wg_add_string_attr(g, g->wg, "no-builtin-memset", "");
  wg_add_string_attr(g, g->wg, CC_ATTR_CHUNK_LOOPS, "");
  LLVMValueRef chunk = wg_entry_alloca(g, 16 * bd->esize, "pack.chunk");

  /* Larger groups pass one test. */
  LLVMBasicBlockRef small = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.small");
  LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.unpacked");
  /* 16 work-items of 32 bits are one register: one group per chunk, but the
   * lane loops still run on across the groups of the span. */
  unsigned top = bd->esize <= 4 ? 4 : 3;
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULE, ls0, wg_c64(g, 1u << top), ""), small, cont);
  LLVMPositionBuilderAtEnd(g->b, small);
  LLVMValueRef avail = LLVMBuildSub(g->b, count, gk, "groups.left");
  const LLVMValueRef w16[3] = {wg_c64(g, 16), wg_c64(g, 1), wg_c64(g, 1)};
  for (unsigned shift = top; shift + 1 > 0; shift--) {
    unsigned size = 1u << shift, per = 16 / size;
    LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.packed");
    LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.pack.next");
    LLVMValueRef ok = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, ls0, wg_c64(g, size), ""),
                                   LLVMBuildICmp(g->b, LLVMIntEQ, g->wg_els0, wg_c64(g, size), ""), "");
    ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntUGE, avail, wg_c64(g, per), ""), "");
    LLVMBuildCondBr(g->b, ok, yes, no);
    /* Chunk after chunk while 16 / size groups are left, without going
     * back through the group loop's dispatch. */
    LLVMPositionBuilderAtEnd(g->b, yes);
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.packed.chunk");
    LLVMBuildBr(g->b, body);
    LLVMPositionBuilderAtEnd(g->b, body);
    LLVMValueRef gi = LLVMBuildPhi(g->b, g->t_i64, "pack.group");
    struct wg_pack pk = {shift, gi, chunk, bd->esize, 0, 1, 0};
    wg_lanes ln = {.state = 0, .coll = wg_c64(g, 0), .ls = w16, .pack = &pk, .vectorize = vec_state[0]};
    wg_build_lane_loops(g, argv, &ln);
    uint64_t arg = bd->kind == WB_BCAST ? size | bd->bcast_id[0] << 16 : size;
    LLVMValueRef hargs[2] = {to_generic(g, chunk), wg_c64(g, arg)};
    LLVMBuildCall2(g->b, LLVMGlobalGetValueType(helper), helper, hargs, 2, "");
    pk.in = 1, pk.out = 0, pk.coll_lane = !scan;
    ln.state = b, ln.vectorize = vec_state[b];
    wg_build_lane_loops(g, argv, &ln);
    LLVMValueRef gn = LLVMBuildNUWAdd(g->b, gi, wg_c64(g, per), "pack.group.next");
    LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.packed.done");
    LLVMValueRef more = LLVMBuildICmp(g->b, LLVMIntULE, LLVMBuildNUWAdd(g->b, gn, wg_c64(g, per), ""), count, "");
    wg_close_loop(g, gi, gk, yes, gn, more, body, out);
    LLVMPositionBuilderAtEnd(g->b, out);
    g->pk_from[g->npk] = out;
    g->pk_last[g->npk++] = LLVMBuildSub(g->b, gn, wg_c64(g, 1), "");
    LLVMBuildBr(g->b, gnext);
    LLVMPositionBuilderAtEnd(g->b, no);
  }
  LLVMBuildBr(g->b, cont);
  LLVMPositionBuilderAtEnd(g->b, cont);
}

/* Groups larger than the packed ones (wg_build_packed_groups) in a packable
 * kernel (nothing kept per group: region 0, the collective, the last
 * region), full-size: every group left in this call runs here, one after the
 * other, without going back through the group loop and the state machine,
 * whose dispatch and reloads cost about as much as a chunk of 8 or 16 lanes
 * per group.  A fused scan runs its chunks (the size a multiple of the
 * chunk); the other collectives run region 0's lane loop, the combine and
 * the last region's.  Then to gnext.  Otherwise the builder is left where
 * the usual path goes on. */
void wg_build_spanned_groups(wg_gen *g, LLVMValueRef *argv, LLVMValueRef ls0, LLVMValueRef gk, LLVMValueRef count,
                             LLVMBasicBlockRef gnext, LLVMValueRef frame, LLVMValueRef coll_buf,
                             const int *vec_state)
{
  unsigned n = g->nparams, b = g->pack_to;
  const wg_boundary *bd = &g->bnd[b - 1];
  unsigned cw = g->half_shuffles && !bd->sg ? 8 : 16;
  int fused = g->fuse_to[0] == b;
  unsigned top = bd->esize <= 4 ? 16 : 8; /* the packed path's largest size */
  LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.spanned");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.spanned.group");
  LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.spanned.done");
  LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.unspanned");
  LLVMValueRef ok = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntUGT, ls0, wg_c64(g, top), ""),
                                 LLVMBuildICmp(g->b, LLVMIntEQ, ls0, g->wg_els0, ""), "");
  if (fused)
    ok = LLVMBuildAnd(g->b, ok,
                      LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, ls0, wg_c64(g, cw - 1), ""), wg_c64(g, 0), ""),
                      "");
  LLVMBuildCondBr(g->b, ok, yes, no);
  LLVMPositionBuilderAtEnd(g->b, yes);
  LLVMBuildBr(g->b, body);
  LLVMPositionBuilderAtEnd(g->b, body);
  LLVMValueRef gi = LLVMBuildPhi(g->b, g->t_i64, "span.group");
  const unsigned keep[4] = {n + WG_P_COLL, n + WG_P_GOFF, n + WG_P_CBUF, n + WG_P_CBUF_OUT};
  LLVMValueRef saved[4];
  for (unsigned k = 0; k < 4; k++)
    saved[k] = argv[keep[k]];
  argv[n + WG_P_GOFF] = gi;
  if (fused) {
    wg_build_fused_scan(g, argv, 0, wg_c64(g, 0), ls0, frame, vec_state, NULL);
  } else {
    /* as the state machine: operands after the results in coll_buf */
    LLVMValueRef o = LLVMBuildMul(g->b, ls0, wg_c64(g, 8), "");
    LLVMValueRef ops = LLVMBuildInBoundsGEP2(g->b, g->t_i8, coll_buf, &o, 1, "coll_ops");
    argv[n + WG_P_CBUF] = coll_buf;
    argv[n + WG_P_CBUF_OUT] = ops;
    const LLVMValueRef one = wg_c64(g, 1), ls1d[3] = {ls0, one, one};
    argv[n + WG_P_COLL] = wg_c64(g, 0);
    LLVMValueRef l0[3] = {wg_trimmed_size(g, 0, argv, ls0), one, one};
    wg_lanes ln = {.state = 0, .coll = wg_c64(g, 0), .ls = l0, .vectorize = vec_state[0]};
    wg_build_lane_loops(g, argv, &ln);
    LLVMValueRef cv = wg_build_combine(g, bd, ops, coll_buf, frame, ls0, ls1d);
    argv[n + WG_P_COLL] = cv;
    LLVMValueRef lb[3] = {wg_trimmed_size(g, b, argv, ls0), one, one};
    ln = (wg_lanes){.state = b, .coll = cv, .ls = lb, .vectorize = vec_state[b]};
    wg_build_lane_loops(g, argv, &ln);
  }
  for (unsigned k = 0; k < 4; k++)
    argv[keep[k]] = saved[k];
  LLVMValueRef gn = LLVMBuildNUWAdd(g->b, gi, wg_c64(g, 1), "span.group.next");
  wg_close_loop(g, gi, gk, yes, gn, LLVMBuildICmp(g->b, LLVMIntULT, gn, count, ""), body, out);
  LLVMPositionBuilderAtEnd(g->b, out);
  g->pk_from[g->npk] = out;
  g->pk_last[g->npk++] = gi;
  LLVMBuildBr(g->b, gnext);
  LLVMPositionBuilderAtEnd(g->b, no);
}

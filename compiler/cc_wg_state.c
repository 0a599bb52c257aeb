/* The work-group function (step 3 of cc_wg.c): the kernel's arguments
 * unpacked, the loop over the call's groups, the z/y/x lane loops around
 * the body, and the state machine that runs state after state through the
 * boundaries' combines (cc_wg_coll.c). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

/* Above this many instructions in the body, the work-group function has
 * one copy of its lane loops (see one_copy below). */
#define WG_ONE_COPY_INSTRUCTIONS 2500u

static void pack_lane(wg_gen *g, const struct wg_pack *pk, LLVMValueRef *argv, LLVMValueRef x)
{
  unsigned n = g->nparams;
  uint64_t mask = (1u << pk->shift) - 1;
  argv[n + WG_P_LX] = LLVMBuildAnd(g->b, x, wg_c64(g, mask), "");
  argv[n + WG_P_GOFF] = LLVMBuildNUWAdd(g->b, pk->gk, LLVMBuildLShr(g->b, x, wg_c64(g, pk->shift), ""), "");
  argv[n + WG_P_CIDX] = x;
  if (pk->in)
    argv[n + WG_P_CBUF] = pk->chunk;
  if (pk->out)
    argv[n + WG_P_CBUF_OUT] = pk->chunk;
}

/* Parameter i of the body is a __global or __constant buffer argument. */
static int buffer_param(const wg_gen *g, unsigned i)
{
  return g->ki->args[i].kind == CC_ARG_BUFFER && LLVMGetTypeKind(g->ptypes[i]) == LLVMPointerTypeKind;
}

/* Whether the body may take its buffer arguments as noalias when the launch's
 * buffers are disjoint: every pointer it uses comes from its parameters
 * (no pointer loaded from memory, as an SVM structure would hold, and none
 * made from an integer), and it has two buffer arguments or more. */
static int disjoint_copy_applies(const wg_gen *g)
{
  unsigned nbuf = 0;
  for (unsigned i = 0; i < g->nparams; i++)
    nbuf += (unsigned)buffer_param(g, i);
  if (nbuf < 2)
    return 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsAIntToPtrInst(i) || (LLVMIsALoadInst(i) && LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMPointerTypeKind))
        return 0;
  return 1;
}

/* What the loop vectorizer gives the scalar loop it leaves after a lane
 * loop's vector loops (llvm.loop.vectorize.followup_epilogue): the work-items
 * that the vector epilogue of W/2 lanes leaves over, fewer than W/2.  Not
 * unrolled at run time: the prologue and unrolled copies O3 made of it
 * were a quarter of the code generation time of a kernel like PolyBench's
 * 2DCONV (47 -> 36 ms, its code 1163 -> 962 lines), for at most W/2 - 1
 * iterations. */
static LLVMMetadataRef scalar_remainder_props(wg_gen *g)
{
  static const char done[] = "llvm.loop.isvectorized", no_unroll[] = "llvm.loop.unroll.runtime.disable",
                    followup[] = "llvm.loop.vectorize.followup_epilogue";
  LLVMMetadataRef one = LLVMValueAsMetadata(LLVMConstInt(g->t_i32, 1, 0));
  LLVMMetadataRef d[2] = {LLVMMDStringInContext2(g->c, done, sizeof(done) - 1), one};
  LLVMMetadataRef u = LLVMMDStringInContext2(g->c, no_unroll, sizeof(no_unroll) - 1);
  LLVMMetadataRef f[3] = {LLVMMDStringInContext2(g->c, followup, sizeof(followup) - 1), LLVMMDNodeInContext2(g->c, d, 2),
                          LLVMMDNodeInContext2(g->c, &u, 1)};
  return LLVMMDNodeInContext2(g->c, f, 3);
}

LLVMValueRef wg_build_lane_loops(wg_gen *g, const LLVMValueRef *args, const wg_lanes *ln)
{
  if (g->img_nver && !g->img_busy) /* a copy per image format (cc_wg_image.c) */
    return wg_image_lane_loops(g, args, ln);
  const LLVMValueRef *ls = ln->ls;
  LLVMValueRef xbase = ln->xbase;
  const struct wg_pack *pk = ln->pack;
  unsigned state = ln->state;
  int vectorize = ln->vectorize;
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef zh = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.z");
  LLVMBasicBlockRef yh = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.y");
  LLVMBasicBlockRef xb = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.x");
  LLVMBasicBlockRef xe = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.x.end");
  LLVMBasicBlockRef ye = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.y.end");
  LLVMBasicBlockRef dn = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.done");
  LLVMValueRef zero = wg_c64(g, 0), one = wg_c64(g, 1);
  unsigned n = g->nparams;
  LLVMValueRef *argv = g->lane_argv;
  memcpy(argv, args, (n + WG_NBODY_PARAMS) * sizeof(*argv));
  LLVMBuildBr(g->b, zh);

  LLVMPositionBuilderAtEnd(g->b, zh);
  LLVMValueRef z = LLVMBuildPhi(g->b, g->t_i64, "lz");
  LLVMBuildBr(g->b, yh);
  LLVMPositionBuilderAtEnd(g->b, yh);
  LLVMValueRef y = LLVMBuildPhi(g->b, g->t_i64, "ly");
  LLVMBuildBr(g->b, xb);
  LLVMPositionBuilderAtEnd(g->b, xb);
  LLVMValueRef x = LLVMBuildPhi(g->b, g->t_i64, "lx");
  argv[n + WG_P_LX] = xbase ? LLVMBuildNUWAdd(g->b, xbase, x, "") : x;
  if (ln->cidx_base) /* a chunk in 2D/3D: its element x, in a form LLVM sees is x */
    argv[n + WG_P_CIDX] = LLVMBuildNUWAdd(g->b, ln->cidx_base, x, "coll_idx");
  if (pk)
    pack_lane(g, pk, argv, x);
  /* gx = group_off * enqueued size + local id; packed: consecutive in x. */
  argv[n + WG_P_GX] = LLVMBuildNUWAdd(g->b, LLVMBuildMul(g->b, pk ? pk->gk : argv[n + WG_P_GOFF], g->wg_els0, ""),
                                      pk ? x : argv[n + WG_P_LX], "gx");
  argv[n + WG_P_LY] = ln->ybase ? LLVMBuildNUWAdd(g->b, ln->ybase, y, "") : y;
  argv[n + WG_P_LZ] = ln->zbase ? LLVMBuildNUWAdd(g->b, ln->zbase, z, "") : z;
  argv[n + WG_P_STATE] = wg_c32(g, state);
  argv[n + WG_P_COLL] = ln->coll;
  if (pk && pk->coll_lane) {
    LLVMTypeRef ety = LLVMIntTypeInContext(g->c, pk->esize * 8);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, ety, pk->chunk, &x, 1, "");
    argv[n + WG_P_COLL] = LLVMBuildZExt(g->b, wg_build_load(g, ety, p, pk->esize, 0), g->t_i64, "coll.lane");
  }
  LLVMValueRef r;
  LLVMBasicBlockRef latch = xb;
  if (g->disjoint) {
    /* The launch's buffers don't overlap: a call that says so, which LLVM
     * inlines with alias scopes (the work-item's row moves as vectors). */
    LLVMBasicBlockRef xr = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.x.disjoint");
    LLVMBasicBlockRef xp = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.x.may_overlap");
    latch = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.x.next");
    LLVMBuildCondBr(g->b, g->disjoint, xr, xp);
    LLVMValueRef rv[2];
    LLVMBasicBlockRef rb[2] = {xr, xp};
    for (int k = 0; k < 2; k++) {
      LLVMPositionBuilderAtEnd(g->b, rb[k]);
      rv[k] = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(g->body), g->body, argv, n + WG_NBODY_PARAMS, "next");
      if (k == 0)
        for (unsigned i = 0; i < n; i++)
          if (buffer_param(g, i))
            LLVMAddCallSiteAttribute(rv[k], i + 1, LLVMCreateEnumAttribute(g->c, cc_attr_kind("noalias"), 0));
      LLVMBuildBr(g->b, latch);
    }
    LLVMPositionBuilderAtEnd(g->b, latch);
    r = LLVMBuildPhi(g->b, LLVMTypeOf(rv[0]), "next");
    LLVMAddIncoming(r, rv, rb, 2);
  } else {
    r = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(g->body), g->body, argv, n + WG_NBODY_PARAMS, "next");
  }
  LLVMValueRef x1 = LLVMBuildNUWAdd(g->b, x, one, "");
  LLVMValueRef br = LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, x1, ls[0], ""), xb, xe);
  if (!g->opt_disable) {
    /* The location names the loop in LLVM's remarks: file = kernel, line = state + 1. */
    LLVMMetadataRef ops[8];
    unsigned nops = 0;
    LLVMMetadataRef loc = cc_dbg_loc(g->c, g->dbg_scope, state + 1, 1);
    if (loc)
      ops[nops++] = loc;
    ops[nops++] = cc_md_prop_node(g->c, "llvm.loop.parallel_accesses", g->ag);
    if (vectorize != WG_VEC_NONE) {
      ops[nops++] = cc_md_prop_bool(g->c, "llvm.loop.vectorize.enable", 1);
      ops[nops++] = scalar_remainder_props(g);
    } else if (g->rows_own) /* each work-item's row: one work-item at a time (cc_wg_regions.c) */
      ops[nops++] = cc_md_prop_bool(g->c, "llvm.loop.vectorize.enable", 0);
    /* A fused scan's chunk: 16 lanes, which the full unroller would turn
     * into 16 scalar copies before the loop vectorizer saw the loop. */
    if ((xbase && !ln->range) || pk) {
      LLVMMetadataRef k = LLVMMDStringInContext2(g->c, "llvm.loop.unroll.disable", 24);
      ops[nops++] = LLVMMDNodeInContext2(g->c, &k, 1);
    }
    /* ... and its tail chunk (fewer than 16 lanes): one masked vector
     * iteration rather than a scalar loop. */
    if (xbase && !ln->range && vectorize != WG_VEC_NONE && !LLVMIsAConstantInt(ls[0]))
      ops[nops++] = cc_md_prop_bool(g->c, "llvm.loop.vectorize.predicate.enable", 1);
    cc_md_set(br, "llvm.loop", cc_md_loop_id(g->c, ops, nops));
  }
  LLVMPositionBuilderAtEnd(g->b, xe);
  LLVMValueRef y1 = LLVMBuildNUWAdd(g->b, y, one, "");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, y1, ls[1], ""), yh, ye);
  LLVMPositionBuilderAtEnd(g->b, ye);
  LLVMValueRef z1 = LLVMBuildNUWAdd(g->b, z, one, "");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, z1, ls[2], ""), zh, dn);

  LLVMValueRef v[2];
  LLVMBasicBlockRef from[2];
  v[0] = zero, v[1] = z1, from[0] = pre, from[1] = ye;
  LLVMAddIncoming(z, v, from, 2);
  v[1] = y1, from[0] = zh, from[1] = xe;
  LLVMAddIncoming(y, v, from, 2);
  v[1] = x1, from[0] = yh, from[1] = latch;
  LLVMAddIncoming(x, v, from, 2);
  LLVMPositionBuilderAtEnd(g->b, dn);
  return r;
}

/* Before the lane loop of state s (after boundary s): the uniform slots live
 * there, from work-item 0's copy in the frame into the uniform values' area. */
void wg_load_uniform_values(wg_gen *g, unsigned s, LLVMValueRef frame, LLVMValueRef area)
{
  const uint64_t *live = g->live + (size_t)(s - 1) * g->live_words;
  for (unsigned j = g->first_simple; j < g->nslots; j++) {
    const wg_slot *sl = &g->slots[j];
    unsigned k = j - g->first_simple;
    if (!sl->uniform || !(live[k / 64] >> (k % 64) & 1))
      continue;
    /* The body's own expression for the address (its nwi, from ctx), not
     * this copy's (y and z constant 1): after inlining it is the address
     * the body saved to, and LLVM forwards the saved value. */
    LLVMValueRef o = LLVMBuildMul(g->b, wg_c64(g, sl->off), g->frame_nwi, "");
    LLVMValueRef v = wg_build_load(g, sl->ty, LLVMBuildInBoundsGEP2(g->b, g->t_i8, frame, &o, 1, ""),
                                   (unsigned)sl->align, 0);
    wg_set_frame_scope(g, v, sl);
    LLVMValueRef vo = wg_c64(g, sl->voff);
    wg_build_store(g, v, LLVMBuildInBoundsGEP2(g->b, g->t_i8, area, &vo, 1, ""), (unsigned)sl->align, 0);
  }
}

/* A 64-byte aligned stack buffer of the work-group function (in its entry
 * block); the builder stays where it was. */
LLVMValueRef wg_entry_alloca(wg_gen *g, unsigned bytes, const char *name)
{
  LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
  LLVMPositionBuilderBefore(g->b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(g->wg)));
  LLVMValueRef a = LLVMBuildAlloca(g->b, LLVMArrayType2(g->t_i8, bytes), name);
  LLVMSetAlignment(a, 64);
  LLVMPositionBuilderAtEnd(g->b, here);
  return a;
}

/* Gives the back edge term of a loop of the work-group function that is not
 * a lane loop (the state machine's loops of a barrier in a loop, the fused
 * scan's chunks, the groups of one call) a loop id that forbids vectorizing
 * it.  LLVM names a loop by the metadata on its latch's terminator, and a
 * branch can be the latch of two loops: when SimplifyCFG folds the empty
 * block after a lane loop into the lane loop's latch, that latch also
 * becomes the back edge of the loop around it, which then carried the lane
 * loop's llvm.loop.vectorize.enable and parallel_accesses.  The loop
 * vectorizer's VPlan-native path (-enable-vplan-native-path) widened that
 * serial outer loop: a loop of barriers `for (y = 0; y < get_local_size(0);
 * y++)` ran y 16 at a time.  SimplifyCFG does not fold a block whose
 * terminator has loop metadata into a predecessor that has some, so with
 * this id neither loop takes the other's.  The state loop's back edges also
 * get a block of their own that is never empty (build_state_machine): jump
 * threading bypassed the block after the lane loop and its metadata went with
 * it. */
void wg_mark_serial_loop(wg_gen *g, LLVMValueRef term)
{
  if (g->opt_disable)
    return;
  LLVMMetadataRef op = cc_md_prop_bool(g->c, "llvm.loop.vectorize.enable", 0);
  cc_md_set(term, "llvm.loop", cc_md_loop_id(g->c, &op, 1));
}

/* Closes the loop whose header phi is iv (init from pre): the builder's
 * block branches back to body while more, else to exit; iv takes next from
 * there.  Returns that latch block. */
LLVMBasicBlockRef wg_close_loop(wg_gen *g, LLVMValueRef iv, LLVMValueRef init, LLVMBasicBlockRef pre,
                                LLVMValueRef next, LLVMValueRef more, LLVMBasicBlockRef body,
                                LLVMBasicBlockRef exit)
{
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
  wg_mark_serial_loop(g, LLVMBuildCondBr(g->b, more, body, exit));
  LLVMValueRef v[2] = {init, next};
  LLVMBasicBlockRef from[2] = {pre, latch};
  LLVMAddIncoming(iv, v, from, 2);
  return latch;
}

/* The state machine: from the builder's block, state 0's lane loops; after
 * each state's, a switch on the boundary reached goes through its combine
 * to that state's lane loops, until the end (exitb).
 * ls: the local size as the lane loops see it (y and z constant 1 in the
 * one-dimensional copy). */
static int build_state_machine(wg_gen *g, LLVMValueRef *argv, const LLVMValueRef ls[3], LLVMValueRef frame,
                               LLVMValueRef coll_buf, LLVMBasicBlockRef exitb, const int *vec_state)
{
  unsigned n = g->nparams;
  LLVMValueRef nwi = LLVMBuildMul(g->b, LLVMBuildMul(g->b, ls[0], ls[1], ""), ls[2], "nwi");
  /* The operands' buffer: after the results' (ctx->coll_buf holds both). */
  LLVMValueRef ops = coll_buf;
  if (coll_buf) {
    LLVMValueRef o = LLVMBuildMul(g->b, nwi, wg_c64(g, 8), "");
    ops = LLVMBuildInBoundsGEP2(g->b, g->t_i8, coll_buf, &o, 1, "coll_ops");
  }
  argv[n + WG_P_CBUF] = coll_buf ? coll_buf : LLVMConstNull(g->t_ptr);
  argv[n + WG_P_CBUF_OUT] = ops ? ops : LLVMConstNull(g->t_ptr);
  int one_dim = 1;
  for (unsigned d = 1; d < 3; d++)
    one_dim &= LLVMIsAConstantInt(ls[d]) && LLVMConstIntGetZExtValue(ls[d]) == 1;
  /* Each state's lane loops end in a switch on the boundary reached, whose
   * case goes through that boundary's combine straight to the next state:
   * no shared dispatch block.  The uniform values that a lane loop leaves
   * in the frame (its saves, which LLVM sinks out of the loop) then reach
   * the next state's loads along every path, and LLVM hands them over in
   * registers instead of through memory. */
  LLVMBasicBlockRef *sblock = calloc(2 * (g->nbnd + 1), sizeof(*sblock)), *cblock = sblock + g->nbnd + 1;
  LLVMValueRef *cvals = calloc(g->nbnd + 1, sizeof(*cvals));
  if (!sblock || !cvals) {
    free(sblock);
    free(cvals);
    return CC_OUT_OF_MEMORY;
  }
  for (unsigned s = 0; s <= g->nbnd; s++) {
    char name[32];
    snprintf(name, sizeof(name), "state.%u", s);
    sblock[s] = LLVMAppendBasicBlockInContext(g->c, g->wg, name);
  }
  LLVMBuildBr(g->b, sblock[0]);
  for (unsigned b = 0; b < g->nbnd; b++) {
    char name[32];
    snprintf(name, sizeof(name), "combine.%u", b + 1);
    cblock[b] = LLVMAppendBasicBlockInContext(g->c, g->wg, name);
    LLVMPositionBuilderAtEnd(g->b, cblock[b]);
    cvals[b + 1] = wg_build_combine(g, &g->bnd[b], ops, coll_buf, frame, nwi, ls);
    LLVMBuildBr(g->b, sblock[b + 1]);
  }
  cvals[0] = wg_c64(g, 0);
  for (unsigned s = 0; s <= g->nbnd; s++) {
    LLVMValueRef coll = cvals[s];
    LLVMPositionBuilderAtEnd(g->b, sblock[s]);
    if (s > 0)
      wg_load_uniform_values(g, s, frame, argv[n + WG_P_UVAL]);
    argv[n + WG_P_COLL] = coll;
    LLVMValueRef r;
    if (g->fuse_to[s] && one_dim) {
      r = wg_build_fused_scan(g, argv, s, coll, ls[0], frame, vec_state, NULL);
    } else if (g->fuse_to[s]) {
      /* Two or three dimensions: fused when rows are whole chunks (lx a
       * multiple of the chunk), else the lane loops and the combine. */
      unsigned cw = g->half_shuffles && !g->bnd[g->fuse_to[s] - 1].sg ? 8 : 16;
      LLVMBasicBlockRef fb = LLVMAppendBasicBlockInContext(g->c, g->wg, "fused.nd");
      LLVMBasicBlockRef ub = LLVMAppendBasicBlockInContext(g->c, g->wg, "unfused.nd");
      LLVMBasicBlockRef jb = LLVMAppendBasicBlockInContext(g->c, g->wg, "fused.nd.join");
      LLVMValueRef whole = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, ls[0], wg_c64(g, cw - 1), ""),
                                         wg_c64(g, 0), "rows_whole_chunks");
      LLVMBuildCondBr(g->b, whole, fb, ub);
      LLVMPositionBuilderAtEnd(g->b, fb);
      LLVMValueRef rf = wg_build_fused_scan(g, argv, s, coll, nwi, frame, vec_state, ls);
      LLVMBasicBlockRef fe = LLVMGetInsertBlock(g->b);
      LLVMBuildBr(g->b, jb);
      LLVMPositionBuilderAtEnd(g->b, ub);
      LLVMValueRef lsx[3] = {wg_trimmed_size(g, s, argv, ls[0]), ls[1], ls[2]};
      wg_lanes ln = {.state = s, .coll = coll, .ls = lsx, .vectorize = vec_state[s]};
      LLVMValueRef ru = wg_build_lane_loops(g, argv, &ln);
      LLVMBasicBlockRef ue = LLVMGetInsertBlock(g->b);
      LLVMBuildBr(g->b, jb);
      LLVMPositionBuilderAtEnd(g->b, jb);
      r = LLVMBuildPhi(g->b, g->t_i32, "fused.nd.next");
      LLVMValueRef rv[2] = {rf, ru};
      LLVMBasicBlockRef rb[2] = {fe, ue};
      LLVMAddIncoming(r, rv, rb, 2);
    } else {
      LLVMValueRef lsx[3] = {wg_trimmed_size(g, s, argv, ls[0]), ls[1], ls[2]};
      wg_lanes ln = {.state = s, .coll = coll, .ls = lsx, .vectorize = vec_state[s]};
      r = wg_build_lane_loops(g, argv, &ln);
    }
    LLVMValueRef sw = LLVMBuildSwitch(g->b, r, exitb, g->nbnd);
    wg_mark_serial_loop(g, sw);
    for (unsigned b = 0; b < g->nbnd; b++) {
      LLVMBasicBlockRef to = cblock[b];
      if (b + 1 <= s && !g->opt_disable) {
        /* Back to an earlier state: a latch of the state loop of its own,
         * never empty (llvm.sideeffect emits no code), so that neither
         * SimplifyCFG nor jump threading turns the lane loop's latch into
         * the state loop's back edge (see wg_mark_serial_loop). */
        LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
        to = LLVMAppendBasicBlockInContext(g->c, g->wg, "state.latch");
        LLVMPositionBuilderAtEnd(g->b, to);
        cc_build_intrinsic(g->b, g->m, "llvm.sideeffect", NULL, 0, NULL, 0, "");
        wg_mark_serial_loop(g, LLVMBuildBr(g->b, cblock[b]));
        LLVMPositionBuilderAtEnd(g->b, here);
      }
      LLVMAddCase(sw, wg_c32(g, b + 1), to);
    }
  }
  free(sblock);
  free(cvals);
  return CC_OK;
}

/* -cl-denorms-are-zero: the kernel (its functions carry
 * "denormal-fp-math-f32"="preserve-sign,preserve-sign") runs with the SSE
 * unit flushing denormal inputs and results to zero (MXCSR DAZ and FTZ),
 * and the thread's own mode comes back when the call returns.  The option
 * allows flushing; an application that asks for it may expect it (piglit's
 * amdgcn-f32-inline-immediates adds a denormal to 0 and expects 0).  Returns
 * the slot holding the caller's MXCSR, NULL when the kernel keeps
 * denormals. */
static LLVMValueRef flush_denormals(wg_gen *g)
{
  const char *k = "denormal-fp-math-f32";
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(g->wg, LLVMAttributeFunctionIndex, k, (unsigned)strlen(k));
  unsigned len = 0;
  const char *v = a ? LLVMGetStringAttributeValue(a, &len) : NULL;
  if (!v || len < 13 || memcmp(v, "preserve-sign", 13))
    return NULL;
  LLVMValueRef saved = LLVMBuildAlloca(g->b, g->t_i32, "mxcsr.saved");
  LLVMValueRef mode = LLVMBuildAlloca(g->b, g->t_i32, "mxcsr.flush");
  cc_build_intrinsic(g->b, g->m, "llvm.x86.sse.stmxcsr", NULL, 0, &saved, 1, "");
  LLVMValueRef old = LLVMBuildLoad2(g->b, g->t_i32, saved, "");
  LLVMBuildStore(g->b, LLVMBuildOr(g->b, old, wg_c32(g, 0x8040), ""), mode); /* FTZ | DAZ */
  cc_build_intrinsic(g->b, g->m, "llvm.x86.sse.ldmxcsr", NULL, 0, &mode, 1, "");
  return saved;
}

/* From the end of a group's run (the builder's block): the next group of
 * the call, or the return. */
static void next_group(wg_gen *g, LLVMBasicBlockRef gpre, LLVMBasicBlockRef gloop, LLVMBasicBlockRef gnext,
                       LLVMValueRef gk, LLVMValueRef count)
{
  LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, gnext);
  LLVMPositionBuilderAtEnd(g->b, gnext);
  LLVMValueRef last = gk;
  if (g->npk) { /* packed groups went on past gk */
    last = LLVMBuildPhi(g->b, g->t_i64, "group_last");
    LLVMAddIncoming(last, &gk, &from, 1);
    LLVMAddIncoming(last, g->pk_last, g->pk_from, g->npk);
  }
  LLVMValueRef k1 = LLVMBuildNUWAdd(g->b, last, wg_c64(g, 1), "");
  LLVMBasicBlockRef gret = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.end");
  wg_mark_serial_loop(g, LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, k1, count, ""), gloop, gret));
  LLVMValueRef v[2] = {wg_c64(g, 0), k1};
  LLVMBasicBlockRef vfrom[2] = {gpre, gnext};
  LLVMAddIncoming(gk, v, vfrom, 2);
  LLVMPositionBuilderAtEnd(g->b, gret);
  if (g->mxcsr_saved)
    cc_build_intrinsic(g->b, g->m, "llvm.x86.sse.ldmxcsr", NULL, 0, &g->mxcsr_saved, 1, "");
  LLVMBuildRetVoid(g->b);
}

/* The lane loops of a kernel that is not split at a guard (the alternative
 * to wg_build_split_lanes). */
static void build_lanes(wg_gen *g, LLVMValueRef *argv, const wg_lanes *ln)
{
  wg_build_lane_loops(g, argv, ln);
}

/* The regions' vectorizability, per state (index 0 = state 0). */
int wg_build_wg_function(wg_gen *g, const int *vec_state)
{
  unsigned n = g->nparams;
  LLVMValueRef args = LLVMGetParam(g->wg, 0), ctxp = LLVMGetParam(g->wg, 1);
  LLVMValueRef *argv = calloc(2 * (n + WG_NBODY_PARAMS), sizeof(*argv));
  if (!argv)
    return CC_OUT_OF_MEMORY;
  g->lane_argv = argv + n + WG_NBODY_PARAMS;
  LLVMSetValueName2(args, "args", 4);
  LLVMSetValueName2(ctxp, "ctx", 3);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->c, g->wg, "entry");
  LLVMPositionBuilderAtEnd(g->b, entry);
  g->mxcsr_saved = flush_denormals(g);
  LLVMValueRef local_args = NULL;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef idx = wg_c64(g, i), v;
    if (g->ki->args[i].kind == CC_ARG_LOCAL) {
      if (!local_args)
        local_args = wg_ctx_load(g, ctxp, offsetof(lanecl_wg_ctx, local_args), g->t_ptr, "local_args");
      v = wg_build_load(g, g->ptypes[i], LLVMBuildInBoundsGEP2(g->b, g->t_ptr, local_args, &idx, 1, ""), 8, 0);
    } else {
      LLVMValueRef ap = wg_build_load(g, g->t_ptr, LLVMBuildInBoundsGEP2(g->b, g->t_ptr, args, &idx, 1, ""), 8, 0);
      if (!g->byval[i])
        v = wg_build_load(g, g->ptypes[i], ap, 1, 0);
      else if (g->ptypes[i] != g->t_ptr)
        v = LLVMBuildAddrSpaceCast(g->b, ap, g->ptypes[i], "");
      else
        v = ap;
    }
    argv[i] = v;
  }
  argv[n + WG_P_CTX] = ctxp;
  if (g->rows_own && disjoint_copy_applies(g)) {
    LLVMValueRef flags = wg_ctx_load(g, ctxp, offsetof(lanecl_wg_ctx, flags), g->t_i32, "flags");
    LLVMValueRef bit = LLVMBuildAnd(g->b, flags, wg_c32(g, LANECL_WG_DISJOINT), "");
    g->disjoint = LLVMBuildICmp(g->b, LLVMIntNE, bit, wg_c32(g, 0), "disjoint");
  }
  argv[n + WG_P_UVAL] = LLVMConstNull(g->t_ptr);
  if (g->uval_bytes) {
    LLVMValueRef area = LLVMBuildAlloca(g->b, LLVMArrayType2(g->t_i8, g->uval_bytes), "uval");
    LLVMSetAlignment(area, 16);
    argv[n + WG_P_UVAL] = area;
  }
  LLVMValueRef ls[3];
  for (unsigned d = 0; d < 3; d++)
    ls[d] = wg_ctx_load(g, ctxp, offsetof(lanecl_wg_ctx, local_size) + 8 * d, g->t_i64, "local_size");
  g->wg_els0 = wg_ctx_load(g, ctxp, offsetof(lanecl_wg_ctx, enqueued_local_size), g->t_i64, "enq_local_size");
  g->frame_nwi = LLVMBuildMul(g->b, LLVMBuildMul(g->b, ls[0], ls[1], ""), ls[2], "frame_nwi");

  /* With reqd_work_group_size, full groups (all but maybe the last of a
   * non-uniform NDRange) run a copy where the local size is a constant:
   * the lane loops' trip counts, and everything the body computes from
   * the size, fold (the body's own loads of it are the same invariant
   * loads, equal to the constant on that branch). */
  LLVMValueRef coll_buf = NULL, frame = NULL;
  if (g->nbnd) {
    coll_buf = wg_ctx_load(g, ctxp, offsetof(lanecl_wg_ctx, coll_buf), g->t_ptr, "coll_buf");
    frame = wg_ctx_load(g, ctxp, offsetof(lanecl_wg_ctx, frame), g->t_ptr, "frame");
  }
  /* The call runs ctx->group_count groups along x (0 means 1), one after
   * the other with the same frame, buffers and local memory. */
  LLVMValueRef count = wg_ctx_load(g, ctxp, offsetof(lanecl_wg_ctx, group_count), g->t_i64, "group_count");
  count = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, count, wg_c64(g, 0), ""), wg_c64(g, 1), count, "");
  LLVMBasicBlockRef gpre = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef gloop = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups");
  LLVMBasicBlockRef gnext = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.next");
  LLVMBuildBr(g->b, gloop);
  LLVMPositionBuilderAtEnd(g->b, gloop);
  LLVMValueRef gk = LLVMBuildPhi(g->b, g->t_i64, "group_off");
  argv[n + WG_P_GOFF] = gk;
  argv[n + WG_P_CIDX] = LLVMConstAllOnes(g->t_i64);
  argv[n + WG_P_FAST] = wg_c32(g, 0);
  argv[n + WG_P_CBUF] = argv[n + WG_P_CBUF_OUT] = coll_buf ? coll_buf : LLVMConstNull(g->t_ptr);

  const uint64_t *reqd = g->ki->reqd_work_group_size;
  LLVMValueRef lsc[3];
  /* A big body gets one copy of the lane loops: the copies for groups of
   * one dimension and for full groups of a reqd_work_group_size save loop
   * overhead that is small beside a big body, and each copy costs its
   * share of O3 and code generation (OpenCV's radix-FFT kernels: 2 of the
   * 4 seconds of their code). */
  unsigned body_size = (unsigned)cc_function_size(g->body);
  int one_copy = body_size > WG_ONE_COPY_INSTRUCTIONS;
  int specialize = reqd[0] && reqd[1] && reqd[2] && !one_copy;
  if (one_copy && (g->nbnd || (reqd[0] && reqd[1] && reqd[2])))
    cc_str_printf(&g->report, "  one copy of the lane loops for every group shape: a body of %u instructions "
                              "(over %u, no copies for groups of one dimension or of the required size)\n",
                  body_size, WG_ONE_COPY_INSTRUCTIONS);
  LLVMBasicBlockRef bfull = NULL, bpart = NULL;
  if (specialize) {
    LLVMValueRef full = NULL;
    for (unsigned d = 0; d < 3; d++) {
      lsc[d] = wg_c64(g, reqd[d]);
      LLVMValueRef e = LLVMBuildICmp(g->b, LLVMIntEQ, ls[d], lsc[d], "");
      full = full ? LLVMBuildAnd(g->b, full, e, "") : e;
    }
    bfull = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.full");
    bpart = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.partial");
    LLVMBuildCondBr(g->b, full, bfull, bpart);
  }

  if (g->nbnd == 0) {
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.done");
    LLVMValueRef ls1d[3] = {ls[0], wg_c64(g, 1), wg_c64(g, 1)};
    wg_lanes ln = {.state = 0, .coll = wg_c64(g, 0), .ls = ls, .vectorize = vec_state[0]};
    void (*lanes)(wg_gen *, LLVMValueRef *, const wg_lanes *) = g->split ? wg_build_split_lanes : build_lanes;
    if (specialize) {
      LLVMPositionBuilderAtEnd(g->b, bfull);
      ln.ls = lsc;
      lanes(g, argv, &ln);
      LLVMBuildBr(g->b, done);
      LLVMPositionBuilderAtEnd(g->b, bpart);
      ln.ls = reqd[1] == 1 && reqd[2] == 1 ? ls1d : ls;
      lanes(g, argv, &ln);
    } else {
      lanes(g, argv, &ln);
    }
    LLVMBuildBr(g->b, done);
    LLVMPositionBuilderAtEnd(g->b, done);
    next_group(g, gpre, gloop, gnext, gk, count);
    free(argv);
    g->lane_argv = NULL;
    return CC_OK;
  }

  LLVMBasicBlockRef exitb = LLVMAppendBasicBlockInContext(g->c, g->wg, "exit");
  /* Groups of one dimension (y and z sizes 1) get a copy of the state
   * machine without the y and z lane loops: for small groups the loop nest
   * costs more than the work (with reqd_work_group_size: the copy for full
   * groups, and one for a smaller last group). */
  LLVMValueRef ls1d[3] = {ls[0], wg_c64(g, 1), wg_c64(g, 1)};
  int rc;
  if (one_copy) {
    rc = build_state_machine(g, argv, ls, frame, coll_buf, exitb, vec_state);
  } else if (specialize) {
    LLVMPositionBuilderAtEnd(g->b, bfull);
    rc = build_state_machine(g, argv, lsc, frame, coll_buf, exitb, vec_state);
    LLVMPositionBuilderAtEnd(g->b, bpart);
    if (!rc)
      rc = build_state_machine(g, argv, reqd[1] == 1 && reqd[2] == 1 ? ls1d : ls, frame, coll_buf, exitb, vec_state);
  } else {
    LLVMBasicBlockRef b1 = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.1d");
    LLVMBasicBlockRef bn = LLVMAppendBasicBlockInContext(g->c, g->wg, "groups.nd");
    LLVMValueRef flat = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildOr(g->b, LLVMBuildXor(g->b, ls[1], wg_c64(g, 1), ""),
                                                                    LLVMBuildXor(g->b, ls[2], wg_c64(g, 1), ""), ""),
                                      wg_c64(g, 0), "one_dim");
    LLVMValueRef br = LLVMBuildCondBr(g->b, flat, b1, bn);
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(g->c, WG_ONE_DIM_MD, strlen(WG_ONE_DIM_MD)),
                    LLVMMetadataAsValue(g->c, g->empty));
    LLVMPositionBuilderAtEnd(g->b, b1);
    if (g->packable)
      wg_build_packed_groups(g, argv, ls[0], gk, count, gnext, vec_state);
    if (g->packable)
      wg_build_spanned_groups(g, argv, ls[0], gk, count, gnext, frame, coll_buf, vec_state);
    rc = build_state_machine(g, argv, ls1d, frame, coll_buf, exitb, vec_state);
    LLVMPositionBuilderAtEnd(g->b, bn);
    if (!rc)
      rc = build_state_machine(g, argv, ls, frame, coll_buf, exitb, vec_state);
  }
  free(argv);
  g->lane_argv = NULL;
  if (rc)
    return rc;
  LLVMPositionBuilderAtEnd(g->b, exitb);
  next_group(g, gpre, gloop, gnext, gk, count);
  return CC_OK;
}

int wg_drop_one_dim_copy(LLVMModuleRef m, const char *kernel)
{
  size_t n = strlen(LANECL_WG_PREFIX) + strlen(kernel) + 1;
  char *name = malloc(n);
  if (!name)
    return 0;
  snprintf(name, n, LANECL_WG_PREFIX "%s", kernel);
  LLVMValueRef wg = LLVMGetNamedFunction(m, name);
  free(name);
  if (!wg)
    return 0;
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned kind = LLVMGetMDKindIDInContext(c, WG_ONE_DIM_MD, strlen(WG_ONE_DIM_MD));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wg); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMIsABranchInst(t) && LLVMIsConditional(t) && LLVMGetMetadata(t, kind)) {
      /* never taken: O3 deletes the copy */
      LLVMSetCondition(t, LLVMConstInt(LLVMInt1TypeInContext(c), 0, 0));
      return 1;
    }
  }
  return 0;
}

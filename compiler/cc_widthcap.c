/* A cap on the vector width of big lane loops over narrow types, and no
 * forced vectorization for big lane loops of one work-item's work (see
 * "big lane loops of one work-item's work" below).
 *
 * A lane loop carries llvm.loop.vectorize.enable and no width: the loop
 * vectorizer picks the width from the narrowest type that the loop loads
 * or stores, 64 lanes for char on AVX-512.  A loop of a few instructions
 * gains from that; a big one (the CTS's test_relationals shuffle_* kernels:
 * char16 shuffles and selects, thousands of instructions once scalarized)
 * becomes thousands of 64-lane values, and O3 (mostly the SLP vectorizer)
 * and code generation take seconds: the CTS test times out.
 *
 * cc_cap_lane_widths runs before default<O3>: for each lane loop whose
 * instructions (with those of the functions it calls, which O3 inlines)
 * times the width the vectorizer may pick exceed CC_WIDTH_BUDGET, it sets
 * llvm.loop.vectorize.width to the largest power of two that keeps the
 * product within the budget, never below the width of 32-bit lanes
 * (simd_bits / 32): loops over int and float, and small loops over char
 * and short, keep the vectorizer's choice.
 */
#include "compiler/cc_internal.h"
#include "compiler/cc_llvm_util.h"
#include "config/lanecl_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* instructions x lanes: above it, a lane loop's width is capped */
#define CC_WIDTH_BUDGET (32u * 1024u)
/* instructions from which a lane loop storing to a lane-invariant address
 * under a condition is no longer forced to vectorize */
#define CC_UNFORCE_INSTS 256u
/* calls followed when counting (O3's inliner goes about as deep) */
#define CC_SIZE_DEPTH 4

typedef struct {
  unsigned insts;     /* instructions, callees' included */
  unsigned min_bits;  /* narrowest loaded or stored scalar (0: none) */
  int half_math;      /* arithmetic or a compare on half values */
} loop_size;

static int is_half(LLVMTypeRef t)
{
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  return LLVMGetTypeKind(t) == LLVMHalfTypeKind;
}

/* Arithmetic done on half values: the operators, compares and the
 * intrinsics that return half (fmuladd, fma, sqrt, fabs, min/max...). */
static int half_arith(LLVMValueRef in, LLVMOpcode op)
{
  switch (op) {
  case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem: case LLVMFNeg:
    return is_half(LLVMTypeOf(in));
  case LLVMFCmp:
    return is_half(LLVMTypeOf(LLVMGetOperand(in, 0)));
  case LLVMCall: {
    LLVMValueRef f = cc_called_function(in);
    return f && LLVMGetIntrinsicID(f) && is_half(LLVMTypeOf(in));
  }
  default:
    return 0;
  }
}

static unsigned type_bits(LLVMTypeRef t)
{
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(t);
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind:
    return 16;
  case LLVMFloatTypeKind:
    return 32;
  case LLVMDoubleTypeKind:
  case LLVMPointerTypeKind:
    return 64;
  default:
    return 0;
  }
}

static void count_inst(LLVMValueRef in, loop_size *s, unsigned depth);

static void count_function(LLVMValueRef f, loop_size *s, unsigned depth)
{
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
      count_inst(in, s, depth);
}

static void count_inst(LLVMValueRef in, loop_size *s, unsigned depth)
{
  s->insts++;
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  unsigned bits = 0;
  if (op == LLVMLoad)
    bits = type_bits(LLVMTypeOf(in));
  else if (op == LLVMStore)
    bits = type_bits(LLVMTypeOf(LLVMGetOperand(in, 0)));
  if (bits && (!s->min_bits || bits < s->min_bits))
    s->min_bits = bits;
  if (!s->half_math && (half_arith(in, op) || ((op == LLVMLoad || op == LLVMStore) && bits == 16 &&
                                               is_half(op == LLVMLoad ? LLVMTypeOf(in)
                                                                      : LLVMTypeOf(LLVMGetOperand(in, 0))))))
    s->half_math = 1;
  if (op == LLVMCall && depth < CC_SIZE_DEPTH) {
    LLVMValueRef f = cc_called_function(in);
    if (f && !LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f))
      count_function(f, s, depth + 1);
  }
}

unsigned cc_lane_width_cap(unsigned insts, unsigned min_bits, unsigned simd_bits)
{
  if (!min_bits || !simd_bits || min_bits >= 32)
    return 0;
  unsigned floor = simd_bits / 32, w = simd_bits / min_bits;
  if (!floor || (unsigned long long)insts * w <= CC_WIDTH_BUDGET)
    return 0;
  while (w > floor && (unsigned long long)insts * w > CC_WIDTH_BUDGET)
    w /= 2;
  return w;
}

/* The lane loop whose latch ends in br, in f (cfg): its blocks (in[], the
 * caller frees it), header and latch.  0 when br closes no natural loop. */
static int lane_loop_blocks(const cc_cfg *cfg, LLVMValueRef br, unsigned char **in_out, unsigned *header_out,
                            unsigned *latch_out)
{
  int latch = cc_cfg_find(cfg, LLVMGetInstructionParent(br));
  if (latch < 0)
    return 0;
  int header = -1;
  for (unsigned i = 0; i < LLVMGetNumSuccessors(br) && header < 0; i++) {
    int h = cc_cfg_find(cfg, LLVMGetSuccessor(br, i));
    if (h >= 0 && cc_cfg_dominates(cfg, (unsigned)h, (unsigned)latch))
      header = h;
  }
  if (header < 0)
    return 0;
  unsigned char *in = calloc(cfg->n, 1);
  if (!in)
    return 0;
  cc_cfg_loop(cfg, (unsigned)header, (unsigned)latch, in);
  *in_out = in;
  *header_out = (unsigned)header;
  *latch_out = (unsigned)latch;
  return 1;
}

static void lane_loop_size(const cc_cfg *cfg, const unsigned char *in, loop_size *s)
{
  for (unsigned i = 0; i < cfg->n; i++)
    if (in[i])
      for (LLVMValueRef x = LLVMGetFirstInstruction(cfg->block[i]); x; x = LLVMGetNextInstruction(x))
        count_inst(x, s, 0);
}

/* ---- big lane loops of one work-item's work: no forced vectorization ----
 *
 * A lane loop whose body stores to an address that is the same for every
 * work-item (lane-invariant), under a condition (the CTS's
 * test_relationals shuffle_* kernels: `if (get_global_id(0) != 0) return;`
 * then 32 stores to dest[0..31]), and to no lane-varying one, is vectorized with each such store
 * predicated and replicated once per lane: the body, thousands of
 * instructions, once per lane.  O3 (the SLP vectorizer on the replicas)
 * then takes seconds, code generation as much again, for code no faster
 * than the scalar loop.  Such a loop, when big, loses its
 * llvm.loop.vectorize.enable: the loop vectorizer's cost model decides
 * (it keeps it scalar).
 *
 * Lane-varying values: the loop header's phis (the lane index), what is
 * computed from them, and in a called function what is computed from the
 * parameters that get varying arguments.  A load is varying when its
 * address is (memory is taken as the same for all lanes: this is a
 * heuristic for a hint, not a correctness question). */

typedef struct {
  unsigned budget;  /* functions still to visit (calls followed) */
  int found;        /* a conditional store to a lane-invariant address */
  int varying;      /* a store to a lane-varying address */
} uni_walk;

static int operand_varying(LLVMValueRef v, const cc_ptrmap *var, const unsigned char *param_var)
{
  if (LLVMIsAArgument(v)) {
    LLVMValueRef f = LLVMGetParamParent(v);
    unsigned n = LLVMCountParams(f);
    for (unsigned i = 0; i < n && param_var; i++)
      if (LLVMGetParam(f, i) == v)
        return param_var[i];
    return 0;
  }
  unsigned x;
  return LLVMIsAInstruction(v) && cc_ptrmap_get(var, v, &x) && x;
}

static int inst_varying(LLVMValueRef in, const cc_ptrmap *var, const unsigned char *param_var)
{
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  if (op == LLVMLoad)
    return operand_varying(LLVMGetOperand(in, 0), var, param_var);
  int n = LLVMGetNumOperands(in);
  if (op == LLVMCall)
    n--;  /* the callee */
  for (int i = 0; i < n; i++)
    if (operand_varying(LLVMGetOperand(in, i), var, param_var))
      return 1;
  return 0;
}

static void walk_function(LLVMValueRef f, const unsigned char *param_var, int cond, unsigned depth, uni_walk *w);

/* The blocks in[] of cfg (all when in is NULL): varying values to a fixed
 * point (seeds: the phis of block `seed_block`, or none), then the stores
 * and calls; a block is conditional when cond_of says so. */
static void walk_blocks(const cc_cfg *cfg, const unsigned char *in, int seed_block, const unsigned char *param_var,
                        const unsigned char *conditional, unsigned depth, uni_walk *w)
{
  size_t count = 0;
  for (unsigned b = 0; b < cfg->n; b++)
    if (!in || in[b])
      for (LLVMValueRef x = LLVMGetFirstInstruction(cfg->block[b]); x; x = LLVMGetNextInstruction(x))
        count++;
  cc_ptrmap var;
  if (cc_ptrmap_init(&var, count + 1))
    return;
  for (int changed = 1, rounds = 0; changed && rounds < 8; rounds++) {
    changed = 0;
    for (unsigned b = 0; b < cfg->n; b++) {
      if (in && !in[b])
        continue;
      for (LLVMValueRef x = LLVMGetFirstInstruction(cfg->block[b]); x; x = LLVMGetNextInstruction(x)) {
        unsigned old = 0;
        if (cc_ptrmap_get(&var, x, &old) && old)
          continue;
        int v = ((int)b == seed_block && LLVMIsAPHINode(x)) || inst_varying(x, &var, param_var);
        if (v || !cc_ptrmap_get(&var, x, &old)) {
          cc_ptrmap_put(&var, x, (unsigned)v);
          changed |= v;
        }
      }
    }
  }
  for (unsigned b = 0; b < cfg->n && !w->varying; b++) {
    if (in && !in[b])
      continue;
    for (LLVMValueRef x = LLVMGetFirstInstruction(cfg->block[b]); x && !w->varying; x = LLVMGetNextInstruction(x)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(x);
      if (op == LLVMStore && operand_varying(LLVMGetOperand(x, 1), &var, param_var))
        w->varying = 1;
      else if (op == LLVMStore && conditional[b])
        w->found = 1;
      if (op != LLVMCall || depth >= CC_SIZE_DEPTH || !w->budget)
        continue;
      LLVMValueRef f = cc_called_function(x);
      if (!f || LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f))
        continue;
      unsigned np = LLVMCountParams(f);
      unsigned char *pv = calloc(np + 1, 1);
      if (!pv)
        continue;
      for (unsigned i = 0; i < np && i < (unsigned)LLVMGetNumArgOperands(x); i++)
        pv[i] = (unsigned char)operand_varying(LLVMGetOperand(x, i), &var, param_var);
      w->budget--;
      walk_function(f, pv, conditional[b], depth + 1, w);
      free(pv);
    }
  }
  cc_ptrmap_free(&var);
}

/* A called function: a block is conditional when the call is, or when the
 * block does not post-dominate the entry. */
static void walk_function(LLVMValueRef f, const unsigned char *param_var, int cond, unsigned depth, uni_walk *w)
{
  cc_cfg cfg;
  if (cc_cfg_build(&cfg, f))
    return;
  unsigned *ipdom = malloc((cfg.n + 1) * sizeof(*ipdom));
  unsigned char *conditional = malloc(cfg.n + 1);
  if (ipdom && conditional && !cc_cfg_postdom(&cfg, ipdom)) {
    memset(conditional, 1, cfg.n);
    if (!cond)
      for (unsigned b = 0, steps = 0; b < cfg.n && steps <= cfg.n; b = ipdom[b], steps++)
        conditional[b] = 0;
    walk_blocks(&cfg, NULL, -1, param_var, conditional, depth, w);
  }
  free(ipdom);
  free(conditional);
  cc_cfg_free(&cfg);
}

/* The lane loop (blocks in[] of cfg, header, latch) stores to a
 * lane-invariant address under a condition, maybe in a function it calls,
 * and to no lane-varying address (a region that also does per-work-item
 * work, e.g. `t[l] = ...; if (l == 0) out[g] = ...`, stays forced). */
static int has_uniform_conditional_store(const cc_cfg *cfg, const unsigned char *in, unsigned header, unsigned latch)
{
  unsigned char *conditional = calloc(cfg->n + 1, 1);
  if (!conditional)
    return 0;
  for (unsigned b = 0; b < cfg->n; b++)
    conditional[b] = in[b] && !cc_cfg_dominates(cfg, b, latch);
  uni_walk w = {64, 0, 0};
  walk_blocks(cfg, in, (int)header, NULL, conditional, 0, &w);
  free(conditional);
  return w.found && !w.varying;
}

static int is_lane_loop(LLVMValueRef br)
{
  LLVMValueRef en = cc_loop_prop(br, "llvm.loop.vectorize.enable");
  return en && LLVMIsAConstantInt(en) && LLVMConstIntGetZExtValue(en) &&
         !cc_loop_prop(br, "llvm.loop.vectorize.width");
}

/* One lane loop of a function: its latch's branch, its blocks in[] of the
 * function's cfg, header, latch, and its size. */
typedef struct lane_loop {
  LLVMValueRef br;
  const unsigned char *in;
  unsigned header, latch;
  loop_size size;
} lane_loop;

/* act(cfg, loop, arg) on each lane loop of f whose latch's branch passes
 * is_loop; the sum of what act returns.  No cfg is built for a function
 * without one. */
static unsigned each_lane_loop(LLVMValueRef f, int (*is_loop)(LLVMValueRef),
                               unsigned (*act)(const cc_cfg *cfg, const lane_loop *l, void *arg), void *arg)
{
  int any = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !any; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    any = t && LLVMGetInstructionOpcode(t) == LLVMBr && is_loop(t);
  }
  cc_cfg cfg;
  if (!any || cc_cfg_build(&cfg, f))
    return 0;
  unsigned n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || LLVMGetInstructionOpcode(t) != LLVMBr || !is_loop(t))
      continue;
    lane_loop l = {t, NULL, 0, 0, {0, 0, 0}};
    unsigned char *in;
    if (!lane_loop_blocks(&cfg, t, &in, &l.header, &l.latch))
      continue;
    l.in = in;
    lane_loop_size(&cfg, in, &l.size);
    n += act(&cfg, &l, arg);
    free(in);
  }
  cc_cfg_free(&cfg);
  return n;
}

static unsigned cap_width(const cc_cfg *cfg, const lane_loop *l, void *arg)
{
  unsigned simd_bits = *(const unsigned *)arg;
  const loop_size *s = &l->size;
  int unforce = s->insts >= CC_UNFORCE_INSTS && has_uniform_conditional_store(cfg, l->in, l->header, l->latch);
  unsigned w = unforce ? 0 : cc_lane_width_cap(s->insts, s->min_bits, simd_bits);
  if (lc_config_num(LC_CC_TIMING))
    fprintf(stderr, "lanecl-cc: lane loop: %u instructions, narrowest %u bits, %s %u\n", s->insts, s->min_bits,
            unforce ? "conditional lane-invariant stores: vectorization not forced" : "width cap", w);
  if (unforce) {
    cc_loop_drop_props(l->br, "llvm.loop.vectorize.enable");
    return 1;
  }
  if (!w)
    return 0;
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(l->br));
  cc_loop_set_prop(l->br, "llvm.loop.vectorize.width", cc_md_prop_i32(ctx, "llvm.loop.vectorize.width", w));
  return 1;
}

unsigned cc_cap_lane_widths(LLVMModuleRef m, unsigned simd_bits)
{
  unsigned n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      n += each_lane_loop(f, is_lane_loop, cap_width, &simd_bits);
  return n;
}

/* ---- lane loops computing in half: the width of 32-bit lanes ----
 *
 * The loop vectorizer picks the width from the narrowest type loaded or
 * stored: a lane loop over half gets twice the lanes of one over float (32
 * on AVX-512).  Without native half arithmetic (x86 without AVX512-FP16)
 * every half operation is computed in float lanes and rounded back, so the
 * wider loop computes no faster; but a lane loop runs get_local_size(0)
 * times, often 16 in 2D kernels, and a 32-lane loop then never runs its
 * vector body: the work goes to the 8-lane epilogue, half the speed of the
 * float kernel.  Such a loop gets llvm.loop.vectorize.width = simd_bits / 32,
 * the chunk (and sub-group) width of the float kernels, and
 * llvm.loop.interleave.count = 1: with the width fixed the vectorizer has
 * no W/2-lane plan for the epilogue (-epilogue-vectorization-force-VF,
 * cc_util.c), so a small loop's body interleaved 4 times (4W work-items per
 * iteration) left a 16-wide row to the scalar remainder: a 2D half kernel
 * at 16x16 ran 1.6-3.5x slower than its float form (out = 0.5h * in: 5.1
 * against 3.1 ms at 4096^2 on Zen 5), and now runs faster (2.4).  Loops
 * that only move half values (loads, stores, conversions) keep the
 * vectorizer's choice. */

static unsigned fn_simd_bits(LLVMValueRef f)
{
  static const char k[] = "prefer-vector-width";
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, k, sizeof(k) - 1);
  unsigned len = 0;
  const char *v = a ? LLVMGetStringAttributeValue(a, &len) : NULL;
  char tmp[8];
  if (!v || !len || len >= sizeof(tmp))
    return 0;
  memcpy(tmp, v, len);
  tmp[len] = 0;
  return (unsigned)strtoul(tmp, NULL, 10);
}

int cc_native_half(LLVMTargetMachineRef tm)
{
  char *feat = tm ? LLVMGetTargetMachineFeatureString(tm) : NULL;
  int native = feat && (strstr(feat, "+avx512fp16") || strstr(feat, "+fullfp16"));
  LLVMDisposeMessage(feat);
  return native;
}

unsigned cc_half_lane_width(int half_math, unsigned min_bits, unsigned simd_bits, int native_half)
{
  if (!half_math || native_half || !min_bits || min_bits >= 32 || simd_bits < 64)
    return 0;
  return simd_bits / 32;
}

static int unvectorized_lane_loop(LLVMValueRef br)
{
  LLVMValueRef v = cc_loop_prop(br, "llvm.loop.isvectorized");
  return is_lane_loop(br) && !(v && LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v));
}

typedef struct half_width_arg {
  unsigned simd_bits;
  int native_half;
} half_width_arg;

static unsigned half_width(const cc_cfg *cfg, const lane_loop *l, void *arg)
{
  (void)cfg;
  const half_width_arg *a = arg;
  unsigned w = cc_half_lane_width(l->size.half_math, l->size.min_bits, a->simd_bits, a->native_half);
  if (lc_config_num(LC_CC_TIMING))
    fprintf(stderr, "lanecl-cc: lane loop: half arithmetic %d, narrowest %u bits, width %u\n", l->size.half_math,
            l->size.min_bits, w);
  if (!w)
    return 0;
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(l->br));
  cc_loop_set_prop(l->br, "llvm.loop.vectorize.width", cc_md_prop_i32(ctx, "llvm.loop.vectorize.width", w));
  cc_loop_set_prop(l->br, "llvm.loop.interleave.count", cc_md_prop_i32(ctx, "llvm.loop.interleave.count", 1));
  return 1;
}

unsigned cc_half_lane_widths(LLVMValueRef f, unsigned simd_bits, int native_half)
{
  if (native_half || LLVMIsDeclaration(f))
    return 0;
  half_width_arg a = {simd_bits ? simd_bits : fn_simd_bits(f), native_half};
  return a.simd_bits ? each_lane_loop(f, unvectorized_lane_loop, half_width, &a) : 0;
}

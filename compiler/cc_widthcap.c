/* A cap on the vector width of big lane loops over narrow types.
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* instructions x lanes: above it, a lane loop's width is capped */
#define CC_WIDTH_BUDGET (32u * 1024u)
/* calls followed when counting (O3's inliner goes about as deep) */
#define CC_SIZE_DEPTH 4

typedef struct {
  unsigned insts;     /* instructions, callees' included */
  unsigned min_bits;  /* narrowest loaded or stored scalar (0: none) */
} loop_size;

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

/* The lane loop whose latch ends in br, in f (cfg): its size. */
static int lane_loop_size(const cc_cfg *cfg, LLVMValueRef br, loop_size *s)
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
  for (unsigned i = 0; i < cfg->n; i++)
    if (in[i])
      for (LLVMValueRef x = LLVMGetFirstInstruction(cfg->block[i]); x; x = LLVMGetNextInstruction(x))
        count_inst(x, s, 0);
  free(in);
  return 1;
}

static int is_lane_loop(LLVMValueRef br)
{
  LLVMValueRef en = cc_loop_prop(br, "llvm.loop.vectorize.enable");
  return en && LLVMIsAConstantInt(en) && LLVMConstIntGetZExtValue(en) &&
         !cc_loop_prop(br, "llvm.loop.vectorize.width");
}

unsigned cc_cap_lane_widths(LLVMModuleRef m, unsigned simd_bits)
{
  unsigned capped = 0;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    int any = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !any; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
      any = t && LLVMGetInstructionOpcode(t) == LLVMBr && is_lane_loop(t);
    }
    if (!any)
      continue;
    cc_cfg cfg;
    if (cc_cfg_build(&cfg, f))
      continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
      if (!t || LLVMGetInstructionOpcode(t) != LLVMBr || !is_lane_loop(t))
        continue;
      loop_size s = {0, 0};
      if (!lane_loop_size(&cfg, t, &s))
        continue;
      unsigned w = cc_lane_width_cap(s.insts, s.min_bits, simd_bits);
      if (getenv("LANECL_CC_TIMING"))
        fprintf(stderr, "lanecl-cc: lane loop: %u instructions, narrowest %u bits, width cap %u\n",
                s.insts, s.min_bits, w);
      if (!w)
        continue;
      cc_loop_set_prop(t, "llvm.loop.vectorize.width", cc_md_prop_i32(ctx, "llvm.loop.vectorize.width", w));
      capped++;
    }
    cc_cfg_free(&cfg);
  }
  return capped;
}

/* Masked widening of lane loops with lane-varying inner loops
 * (cc_wg_diverge.c), called by cc_wg_outer.c.  Internal to compiler/. */
#ifndef LANECL_CC_WG_DIVERGE_H
#define LANECL_CC_WG_DIVERGE_H

#include <stddef.h>

#include "compiler/cc_llvm_util.h"

/* Masked widening of the lane loop header -> latch of fn (blocks in[] of
 * cfg), W = width lanes: for inner loops whose trip count is the
 * work-item's own.  *done = 1 when rewritten (cfg is stale then); else
 * why (why_size bytes) says why not and fn is unchanged.  CC_INTERNAL when
 * fn was left half rewritten (a bug, why says so), CC_OUT_OF_MEMORY. */
int wg_diverge_widen(LLVMValueRef fn, const cc_cfg *cfg, unsigned header, unsigned latch, const unsigned char *in,
                     unsigned width, int *done, char *why, size_t why_size);

#endif

/* Masked widening of lane loops with lane-varying inner loops
 * (cc_wg_diverge.c), called by cc_wg_outer.c, and the checks the two
 * share.  Internal to compiler/. */
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

/* cc_wg_outer.c: what both widenings of a lane loop (the native path's,
 * masked widening) say alike.  wg_scalar_type: an integer, floating-point
 * or pointer type (the values they widen into vectors).
 * wg_shared_problem: for a branch, a load or store (refused when volatile,
 * atomic, or storing a vector or aggregate), a call (refused unless
 * call_ok, with the callee's name in buf of size bytes) and atomics
 * (refused), *known = 1 and NULL or why not; *known = 0 for the other
 * instructions. */
int wg_scalar_type(LLVMTypeRef t);
const char *wg_shared_problem(LLVMValueRef i, int (*call_ok)(LLVMValueRef), char *buf, size_t size, int *known);

#endif

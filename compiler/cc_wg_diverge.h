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

/* ---- between cc_wg_diverge.c (analysis) and cc_wg_diverge_emit.c ---- */

typedef struct dv_loop {
  unsigned header;
  int parent;            /* enclosing loop (-1 for loops[0], the lane loop) */
  unsigned char *in;     /* in[b]: block b is in the loop */
  unsigned *order;       /* its nodes in topological order: block b, or n + loop */
  unsigned norder;
} dv_loop;

/* A header phi of the lane loop other than its counter. */
typedef struct dv_iv {
  LLVMValueRef phi, start, step, next;
  LLVMTypeRef gep_ty;  /* next = getelementptr gep_ty, phi, step (else phi + step) */
} dv_iv;

typedef struct dv {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMBuilderRef b;
  LLVMValueRef fn;
  const cc_cfg *cfg;
  unsigned n, W;
  unsigned latch;          /* the lane loop's latch */
  dv_loop *loops;          /* loops[0]: the lane loop */
  unsigned nloops;
  int *inner;              /* innermost loop of each block, -1 outside the lane loop */
  unsigned *ipdom;
  cc_ptrmap map;           /* instruction of the region -> 1 + index in val */
  LLVMValueRef *val;
  unsigned char *vec;      /* val[i] is a vector (else a value of the group) */
  unsigned nval, capval;
  LLVMValueRef *bmask;     /* mask of each block */
  LLVMValueRef *emask;     /* mask of edge s of block b: emask[eoff[b] + s] */
  unsigned *eoff;
  LLVMTypeRef t_i1, t_i32, t_vi1;
  LLVMValueRef ones, zero;
  LLVMValueRef lx;         /* the lane loop's counter */
  dv_iv *iv;               /* its other header phis */
  unsigned niv;
  LLVMValueRef *priv;      /* allocas the region uses: priv[k], lanes' copies priv[cappriv + k] */
  unsigned npriv, cappriv;
  int broken;              /* a value was missing while building (a bug) */
  char buf[160];
} dv;

/* Finds the inner loops and checks every instruction; NULL or why not
 * (*bound: the lane loop's trip count). */
const char *dv_analyze(dv *d, LLVMValueRef *bound);
/* An intrinsic with no effect on the values (dropped when widening). */
int dv_is_dropped(LLVMValueRef i);
int dv_block_index(const dv *d, LLVMBasicBlockRef bb);
/* v is computed in the lane loop (else it is the group's). */
int dv_in_region(const dv *d, LLVMValueRef v);
/* The recurrence of a header phi of the lane loop (start, step, next); 0
 * when it is not one. */
int dv_recurrence(dv *d, LLVMValueRef phi, dv_iv *iv);
/* The alloca v points into through getelementptr and casts outside the
 * region, NULL if none. */
LLVMValueRef dv_stack_root(const dv *d, LLVMValueRef v);

#endif

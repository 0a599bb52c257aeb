/* Internal to the work-group function generator (cc_wg.c: kernels, work-item
 * builtins, access groups, the work-group function; cc_wg_frame.c: regions,
 * the frame, boundaries).  See cc_wg.c for the design. */
#ifndef LANECL_CC_WG_H
#define LANECL_CC_WG_H

#include <stdint.h>

#include "compiler/cc_internal.h"
#include "compiler/cc_llvm_util.h"

#define WG_MAX_SLOT_ALIGN 64 /* the frame must be this aligned */

/* How a region's lane loop goes to LLVM's loop vectorizer. */
enum { WG_VEC_NONE, WG_VEC_LANES, WG_VEC_OUTER };
/* Function attribute of work-group functions with WG_VEC_OUTER lane loops. */
#define WG_OUTER_ATTR "lanecl-outer"

enum wg_bkind {
  WB_BARRIER,   /* barrier, work_group_barrier, wait_group_events */
  WB_COPY,      /* async_work_group_(strided_)copy: done once per group */
  WB_ALL,
  WB_ANY,
  WB_BCAST,
  WB_REDUCE,
  WB_SCAN_INC,
  WB_SCAN_EXC,
};

typedef struct wg_boundary {
  LLVMValueRef call;
  enum wg_bkind kind;
  char what[48];    /* for the report */
  char helper[64];  /* combine helper, "" when none */
  LLVMTypeRef ty;   /* collective operand and result type */
  unsigned esize;   /* bytes of one coll_buf element / of one copied element */
  int stride_side;  /* WB_COPY: 0 contiguous, 1 source strided, 2 destination strided */
  int bcast_const;  /* WB_BCAST: its local ids are constants, bcast_id; nothing in the frame */
  uint64_t bcast_id[3];
  LLVMBasicBlockRef cont;    /* where the work-item goes on after it */
  LLVMBasicBlockRef resume;  /* the body's entry for its state */
} wg_boundary;

typedef struct wg_slot {
  LLVMValueRef alloca;
  LLVMTypeRef ty;     /* allocated type (simple slots: the type loaded/stored) */
  uint64_t size;      /* bytes per work-item, a multiple of align */
  uint64_t align;
  uint64_t off;       /* slot j of work-item w: frame + off * nwi + w * size */
  int resident;       /* lives in the frame for the whole kernel */
  int uniform;        /* the same in every work-item: restored from work-item 0's copy */
  uint64_t voff;      /* uniform: its place in the work-group function's uniform values */
  LLVMValueRef addr;  /* this work-item's copy (computed in the body's entry) */
  LLVMValueRef uaddr; /* uniform: work-item 0's copy, where every work-item saves it */
  LLVMValueRef md_scope, md_noalias; /* uniform: its alias scope, and the others (wg_frame_scopes) */
} wg_slot;

/* A bound on the work-items of x a region needs (cc_wg_trim.c). */
enum wg_trim_kind { WG_TRIM_ONE, WG_TRIM_ULT, WG_TRIM_ULE, WG_TRIM_SLT, WG_TRIM_SLE };
typedef struct wg_trim_bound {
  enum wg_trim_kind kind;  /* lx == 0, lx < u, lx <= u (unsigned, signed) */
  LLVMValueRef u;          /* the uniform bound in the body */
} wg_trim_bound;
#define WG_TRIM_MAX 4
typedef struct wg_trim {
  unsigned n;              /* 0: the region runs every work-item */
  wg_trim_bound b[WG_TRIM_MAX];  /* it needs x below the largest */
} wg_trim;

typedef struct wg_gen {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMTargetDataRef td;
  LLVMBuilderRef b;
  const cc_device_desc *dev;
  cc_kernel_info *ki;
  int half_shuffles;           /* scan chunks in 256-bit pieces (cc_wg_half_shuffles) */
  int opt_disable;
  LLVMTypeRef t_i1, t_i8, t_i32, t_i64, t_ptr, t_void;
  LLVMMetadataRef ag;     /* the kernel's access group */
  LLVMMetadataRef empty;  /* !{} */
  unsigned kind_ag, kind_invariant;

  LLVMValueRef body, wg;
  unsigned nparams;
  LLVMTypeRef *ptypes;    /* the kernel's parameter types */
  int *byval;             /* parameter i was passed byval */
  LLVMValueRef p_ctx, p_lid[3], p_state, p_coll, p_uval, p_goff;
  /* The collective buffers the lane loop hands the body: where a work-item
   * finds its scan result after a boundary, where it puts its operand at
   * one (both ctx->coll_buf but in a fused scan, see cc_wg.c). */
  LLVMValueRef p_cbuf, p_cbuf_out;
  LLVMValueRef p_cidx;  /* the element of them, all ones: the linear id */
  LLVMValueRef p_gx;    /* group_off * enqueued local size + local id x */
  LLVMValueRef wg_els0; /* in the work-group function: the enqueued local size x */
  LLVMValueRef frame_nwi; /* ... and the work-items of the group, as the body computes them */
  LLVMBasicBlockRef entry, start;  /* body: alloca block, state 0's first block */

  wg_boundary *bnd;
  unsigned nbnd;
  wg_slot *slots;
  unsigned nslots;
  uint64_t frame_bytes;
  uint64_t bcast_off;  /* frame slot (i64) of the broadcast's linear id, when used */
  uint64_t copy_off;   /* frame slots (4 x 8 bytes) of an async copy's dst, src, n, stride */
  int has_bcast, has_coll, has_copy;
  /* Simple slots live after each boundary: bit k of live[b * live_words ...]
   * for slot first_simple + k. */
  uint64_t *live;
  size_t live_words;
  unsigned first_simple;
  uint64_t uval_bytes;  /* the uniform values' area (p_uval), 0 when none */
  wg_trim *trim;        /* per state (nbnd + 1), NULL when none is trimmed */
  /* Per state (nbnd + 1): the scan boundary (its id) that the state's lane
   * loop runs fused with, 16 work-items at a time, in groups of one
   * dimension (see build_fused_scan); 0 when none. */
  unsigned *fuse_to;
  /* Groups of 1, 2, 4, 8 or 16 work-items run 16 / size per chunk of a fused
   * scan, or of a reduce, all or any, after state 0 (build_packed_groups):
   * 0 when the kernel can't. */
  int packable;
  unsigned pack_to;               /* the collective they run through (boundary index) */
  const struct wg_pack *cur_pack; /* the lane loops being built run packed groups */
  LLVMValueRef ybase, zbase;      /* the lane loops' y and z start there (NULL: 0) */
  LLVMValueRef cidx_base;         /* coll_idx = cidx_base + x (NULL: the body's linear id) */
  LLVMBasicBlockRef pk_from[6];  /* those runs' last blocks (and build_spanned_groups'), */
  LLVMValueRef pk_last[6];       /* the last group each ran (group_off) */
  unsigned npk;
  LLVMValueRef ls[3], nwi, lin, frame, coll_buf, coll_out;  /* body entry values */
  int scalarize;  /* vector-typed code in a body whose lane loop should vectorize */
  LLVMMetadataRef dbg_scope;  /* the kernel's scope for the lane loops' debug locations */
  /* Alias scopes of the frame (wg_frame_scopes): the frame but the uniform
   * values' copies, everything else in the frame, all of them (NULL: none). */
  LLVMValueRef md_frame, md_frame_noalias, md_frame_all;
  unsigned kind_scope, kind_noalias;

  cc_str report;
} wg_gen;

static inline LLVMValueRef wg_c64(wg_gen *g, uint64_t v)
{
  return LLVMConstInt(g->t_i64, v, 0);
}

static inline LLVMValueRef wg_c32(wg_gen *g, uint64_t v)
{
  return LLVMConstInt(g->t_i32, v, 0);
}

static inline void wg_mark_parallel(wg_gen *g, LLVMValueRef inst)
{
  LLVMSetMetadata(inst, g->kind_ag, LLVMMetadataAsValue(g->c, g->ag));
}

static inline LLVMValueRef wg_build_load(wg_gen *g, LLVMTypeRef ty, LLVMValueRef p, unsigned align, int parallel)
{
  LLVMValueRef v = LLVMBuildLoad2(g->b, ty, p, "");
  LLVMSetAlignment(v, align);
  if (parallel)
    wg_mark_parallel(g, v);
  return v;
}

static inline void wg_build_store(wg_gen *g, LLVMValueRef v, LLVMValueRef p, unsigned align, int parallel)
{
  LLVMValueRef s = LLVMBuildStore(g->b, v, p);
  LLVMSetAlignment(s, align);
  if (parallel)
    wg_mark_parallel(g, s);
}

/* cc_wg.c */
/* A field of *ctxp (never written while a work-group runs): an invariant load. */
LLVMValueRef wg_ctx_load(wg_gen *g, LLVMValueRef ctxp, size_t off, LLVMTypeRef ty, const char *name);
LLVMValueRef wg_ctx_dim(wg_gen *g, size_t field, unsigned d, const char *name);
/* The object a pointer points into, through GEPs and casts. */
LLVMValueRef wg_ptr_base(LLVMValueRef p);
/* The access group on every access to memory that is not private stack memory. */
void wg_mark_accesses(wg_gen *g);

/* cc_wg_frame.c */
/* A scalar alloca used only by whole loads and stores: saved by value. */
int wg_alloca_is_simple(LLVMValueRef a);
/* Regions of a body with boundaries: the frame, the state switch, each
 * boundary saving and returning its id, each resume point restoring. */
int wg_build_regions(wg_gen *g, char **err);
/* The uniform values' saves, in one block every return goes through (after
 * the regions' analyses). */
void wg_merge_uniform_saves(wg_gen *g);
/* Simple slot j (>= first_simple) is live after some boundary. */
int wg_slot_live_somewhere(const wg_gen *g, unsigned j);
/* Alias scopes: one per uniform value's copy, one for the rest of the frame
 * (before the work-group function is built: load_uniform_values uses them). */
int wg_frame_scopes(wg_gen *g);
/* The body's loads and stores of the frame in those scopes, the others that
 * provably reach other memory marked noalias with them. */
void wg_scope_frame(wg_gen *g);
/* Puts inst (a load or store of the frame) in the scope of slot s (NULL:
 * the rest of the frame). */
void wg_set_frame_scope(wg_gen *g, LLVMValueRef inst, const wg_slot *s);

/* cc_wg_uniform.c: uniform and divergent values of the body in memory form. */
typedef struct wg_uni {
  cc_cfg cfg;                /* of the body */
  cc_ptrmap div;             /* divergent instructions, arguments and simple allocas */
  unsigned char *div_block;  /* by cfg index: reached under divergent control */
  unsigned char *div_term;   /* by cfg index: ends in a branch on a divergent value */
} wg_uni;
int wg_uniformity(wg_gen *g, wg_uni *u);
int wg_is_uniform(const wg_uni *u, LLVMValueRef v);
/* bb is under divergent control (or unreachable). */
int wg_block_divergent(const wg_uni *u, LLVMBasicBlockRef bb);
/* A loop of the region from start leaves on a divergent branch. */
int wg_region_has_divergent_loop(const wg_uni *u, LLVMBasicBlockRef start);
void wg_uni_free(wg_uni *u);

/* cc_wg_trim.c */
/* g->trim: for each region, the bounds below which the work-items that do
 * something lie (the body is final: regions rewritten, in memory form). */
int wg_trim_regions(wg_gen *g);
/* At the builder in the work-group function, before the lane loop of state
 * s (uniform values loaded, argv the body's arguments): how many work-items
 * of x it runs. */
LLVMValueRef wg_trimmed_size(wg_gen *g, unsigned s, LLVMValueRef *argv, LLVMValueRef ls0);

/* cc_wg_outer.c */
/* Lane loops with inner loops (WG_VEC_OUTER) in the work-group functions
 * marked WG_OUTER_ATTR: the module optimized without vectorization, each
 * such lane loop checked for what the VPlan-native path would get wrong,
 * then vectorized; what is left keeps only its parallel-access hint. */
int wg_outer_vectorize(LLVMModuleRef m, LLVMTargetMachineRef tm, char **err);
/* call is to an intrinsic that vectorizes lane by lane (fmuladd, sqrt,
 * min/max, ...): the native path and the masked widening take it. */
int wg_lanewise_intrinsic(LLVMValueRef call);
/* op computes each lane from the same lane's operands (arithmetic, casts,
 * compares, select, gep, phi, freeze): both take it as it is. */
int wg_lanewise_opcode(LLVMOpcode op);

/* cc_wg_affine.c */
/* Gathers and scatters of fn whose addresses are one address or consecutive
 * ones become a scalar load and a broadcast, or a vector load or store
 * (behind a test of the lanes where that needs no wrap-around).  Returns
 * how many. */
unsigned wg_plain_accesses(LLVMValueRef fn);
/* The body has accesses the rewrite may improve (clamped addresses, halo
 * branches): its lane loops are then vectorized with the outer ones. */
int wg_wants_plain_accesses(const wg_gen *g);

#endif

/* Internal to the work-group function generator.  See cc_wg.c for the
 * design; one file per concern:
 *   cc_wg.c          per kernel and per module: the steps in order
 *   cc_wg_mangle.c   mangled builtin names; which calls are boundaries
 *   cc_wg_body.c     K.body, the work-item builtins, access groups
 *   cc_wg_tls.c      __local variables (thread-local) through a getter
 *   cc_wg_regions.c  boundaries found, each region's plan and the report
 *   cc_wg_frame.c    regions rewritten: the frame, saves and restores
 *   cc_wg_uniform.c  uniform and divergent values of the body
 *   cc_wg_trim.c     lane loops that need only the work-items below a bound,
 *                    and lane loops split where a guard on x changes value
 *   cc_wg_state.c    the work-group function: lane loops, state machine
 *   cc_wg_coll.c     collectives and async copies in it: combines, fused
 *                    scans, packed and spanned small groups
 *   cc_wg_outer.c, cc_wg_diverge*.c, cc_wg_affine.c   lane loops with inner
 *                    loops, divergence, affine accesses (after linking)
 *   cc_wg_accum.c    inner loops summing into one address: a copy that keeps
 *                    it in a register, under a check that nothing it reads overlaps
 *   cc_wg_rows.c     inner-loop gathers along rows read as vectors and transposed
 *   cc_wg_image.c    lane loops specialized for the images' formats
 *   cc_wg_late.c     after linking and after O3 */
#ifndef LANECL_CC_WG_H
#define LANECL_CC_WG_H

#include <stdint.h>

#include "compiler/cc_internal.h"
#include "compiler/cc_llvm_util.h"

#define WG_MAX_SLOT_ALIGN 64 /* the frame must be this aligned */

/* The body's parameters after the kernel's own (g->nparams of them): the
 * body's argument k is argv[g->nparams + k] in the work-group function. */
enum wg_body_param {
  WG_P_CTX,      /* const lanecl_wg_ctx * */
  WG_P_LX,       /* i64 local ids */
  WG_P_LY,
  WG_P_LZ,
  WG_P_STATE,    /* i32: the region to run */
  WG_P_COLL,     /* i64: the raw bits of a uniform collective result */
  WG_P_UVAL,     /* the uniform values' area */
  WG_P_GOFF,     /* i64: the group's place in the call's run of groups */
  WG_P_CBUF,     /* where a work-item finds its scan result (coll_buf) */
  WG_P_CBUF_OUT, /* where it puts its operand (coll_out) */
  WG_P_CIDX,     /* i64: its element of them, all ones: the linear id */
  WG_P_GX,       /* i64: group_off * enqueued local size + lx */
  WG_P_FAST,     /* i32: bits 2j..2j+1, the split guard's compare j
                  * (cc_wg_trim.c) as written (0), true (1) or false (2) */
  WG_NBODY_PARAMS
};

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
  WB_SG_XCHG,   /* a sub-group exchange: the operands copied; the result is where they are */
};

typedef struct wg_boundary {
  LLVMValueRef call;
  enum wg_bkind kind;
  int sg;           /* a sub-group collective (cc_wg_subgroup.c): per sub-group of g->sg_size,
                       every work-item's result in coll_buf as for a scan */
  unsigned sg_cluster; /* a clustered reduction: its cluster size (0: none) */
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

/* Lane x of a chunk of packed small groups (wg_build_packed_groups): work-item
 * x % size of group group_off + x / size, its collective element at
 * chunk[x] (the body's coll_idx). */
struct wg_pack {
  unsigned shift;     /* log2 of the groups' size */
  LLVMValueRef gk;    /* group_off of the chunk's first group */
  LLVMValueRef chunk;
  unsigned esize;
  int in, out;        /* the chunk is the body's coll_buf / coll_out */
  int coll_lane;      /* the body's coll is lane x's element of the chunk (reduce, all, any, broadcast) */
};

/* One z/y/x lane-loop nest around a call of the body (wg_build_lane_loops):
 * x runs from xbase (NULL: 0), y from ybase, z from zbase, below ls. */
typedef struct wg_lanes {
  unsigned state;              /* the region it runs: a constant state */
  LLVMValueRef coll;           /* the body's coll */
  const LLVMValueRef *ls;      /* the trip counts of x, y, z */
  LLVMValueRef xbase, ybase, zbase;
  LLVMValueRef cidx_base;      /* coll_idx = cidx_base + x (NULL: as the caller's argv has it) */
  const struct wg_pack *pack;  /* lane x of packed small groups (NULL: none) */
  int vectorize;               /* WG_VEC_* */
  int range;                   /* x from xbase is a range of the group, not a
                                * fused scan's chunk: no chunk hints */
} wg_lanes;

/* Images whose accesses the lane loops are specialized for (cc_wg_image.c). */
#define WG_IMG_MAX 8
#define WG_IMG_COPIES 3

typedef struct wg_gen {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMTargetDataRef td;
  LLVMBuilderRef b;
  const cc_device_desc *dev;
  cc_kernel_info *ki;
  int half_shuffles;           /* scan chunks in 256-bit pieces (cc_wg_half_shuffles) */
  unsigned sg_size;            /* work-items per sub-group: chunks of a row of x (cc_wg_subgroup.c) */
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
  LLVMValueRef p_fast;  /* the split guards' values in the lane loop (WG_P_FAST) */
  struct wg_split *split; /* the guards the lane loop is split at (cc_wg_trim.c), NULL when none */
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
  struct wg_region *regions;  /* per state (nbnd + 1): what its walk found (cc_wg_regions.c) */
  /* Groups of 1, 2, 4, 8 or 16 work-items run 16 / size per chunk of a fused
   * scan, or of a reduce, all or any, after state 0 (build_packed_groups):
   * 0 when the kernel can't. */
  int packable;
  unsigned pack_to;               /* the collective they run through (boundary index) */
  LLVMValueRef mxcsr_saved;       /* -cl-denorms-are-zero: the caller's MXCSR (else NULL) */
  LLVMValueRef *lane_argv;        /* scratch: the body's arguments in a lane loop */
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

  /* cc_wg_image.c: the image arguments read or written (kernel parameter,
   * kind of access), the specialized copies of each lane loop (0: none),
   * and whether one copy is being built. */
  unsigned img_n, img_nver;
  unsigned img_param[WG_IMG_MAX];
  int img_kind[WG_IMG_MAX];
  unsigned img_nch[WG_IMG_MAX];  /* channels its accesses use: 1 (R), 2 (RG) or 4 (RGBA) */
  int rows_own;   /* each work-item's row (cc_wg_regions.c): the lane loop not vectorized */
  /* rows_own: ctx->flags & LANECL_WG_DISJOINT (an i1 at the entry), on
   * which each work-item's call of the body takes its buffer arguments as
   * noalias (wg_build_lane_loops); NULL: one call, as for every other body. */
  LLVMValueRef disjoint;
  int img_plain;  /* copies of narrow texels: the access rewrite (cc_wg_affine.c) */
  int img_busy;
  uint64_t img_states;  /* bit s: the lane loop of state s has copies */
  /* the sampler arguments of the reads that take the copies: each copy is
   * built once per class of the samplers' bits (cc_wg_image.c,
   * smp_classes), which depend on whether some such read takes float
   * coordinates (img_smp_float) */
  unsigned img_smp_n, img_smp_param[WG_IMG_MAX];
  int img_smp_float;

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

/* cc_wg_mangle.c */
/* A mangled builtin name: _Z<ilen><ident><params>. */
typedef struct wg_mangled {
  const char *ident;
  size_t ilen;
  const char *params;
  size_t plen;
} wg_mangled;
/* call is to a function with a mangled name (mg filled). */
int wg_demangle(LLVMValueRef call, wg_mangled *mg);
int wg_ident_is(const wg_mangled *mg, const char *s);
/* The identifier starts with s: *rest its length. */
int wg_ident_starts(const wg_mangled *mg, const char *s, size_t *rest);
/* 1 when call is a boundary (bd filled), 0 when not, -1 on a collective
 * LaneCL can't lower (*why says what). */
int wg_classify_boundary(LLVMValueRef call, wg_boundary *bd, const char **why);

/* cc_wg_subgroup.c */
/* g->sg_size from the kernel's intel_reqd_sub_group_size or the lane width;
 * CC_BUILD_FAILED for a size the device does not list. */
int wg_sub_group_size(wg_gen *g, char **err);
/* Sub-group broadcasts, shuffles and rotates become an exchange boundary
 * (WB_SG_XCHG) and a load from the exchanged operands. */
int wg_lower_sub_group_exchanges(wg_gen *g, char **err);
/* A sub-group work-item function (get_sub_group_id, ...) at the builder, or NULL. */
LLVMValueRef wg_sub_group_value(wg_gen *g, const wg_mangled *mg);
/* call is a sub-group boundary (bd filled, 1), not one (0), or unsupported (-1, *why). */
int wg_classify_sub_group(LLVMValueRef call, const wg_mangled *mg, wg_boundary *bd, const char **why);
/* At the builder: the work-item's sub-group local id, its sub-group's size,
 * the dispatch's maximum sub-group size (i64). */
LLVMValueRef wg_sg_local_id(wg_gen *g);
LLVMValueRef wg_sg_size_here(wg_gen *g);
LLVMValueRef wg_sg_max_size(wg_gen *g);

/* cc_wg_sgdiv.c */
/* Sub-group operations in divergent control flow: each one under a branch
 * that differs between work-items moves out of it (predication), and the
 * non-uniform functions (cl_khr_subgroup_ballot, _non_uniform_vote,
 * _non_uniform_arithmetic) become the uniform ones on operands masked by
 * the work-items that are active.  Before wg_lower_sub_group_exchanges. */
int wg_predicate_sub_groups(wg_gen *g, char **err);

/* cc_wg_body.c */
/* A field of *ctxp (never written while a work-group runs): an invariant load. */
LLVMValueRef wg_ctx_load(wg_gen *g, LLVMValueRef ctxp, size_t off, LLVMTypeRef ty, const char *name);
LLVMValueRef wg_ctx_dim(wg_gen *g, size_t field, unsigned d, const char *name);
void wg_add_string_attr(wg_gen *g, LLVMValueRef fn, const char *k, const char *v);
/* The kernel's blocks move into g->body (its parameters, then enum
 * wg_body_param's); g->wg declared; the kernel deleted. */
int wg_make_body(wg_gen *g, LLVMValueRef kernel, char **err);
/* Work-item functions and to_global/to_local/to_private lowered. */
void wg_lower_workitem_calls(wg_gen *g);
/* The object a pointer points into, through GEPs and casts. */
LLVMValueRef wg_ptr_base(LLVMValueRef p);
/* The access group on every access to memory that is not private stack memory. */
void wg_mark_accesses(wg_gen *g);

/* cc_wg_tls.c */
/* Every use of a thread-local global in the body through its getter. */
int wg_isolate_tls(wg_gen *g);

/* cc_wg_regions.c */
/* g->bnd: the body's boundaries, in block order. */
int wg_find_boundaries(wg_gen *g, char **err);
/* The lane loops' width in 32-bit lanes for the device. */
unsigned wg_lane_width(wg_gen *g);
/* Each region's plan: vec_state[r] (WG_VEC_*), g->fuse_to, g->packable;
 * what the regions' walks found stays in g->regions for the report. */
int wg_plan_regions(wg_gen *g, int *vec_state);
/* The report's lines for the regions and their plan. */
void wg_report_regions(wg_gen *g);
void wg_free_regions(wg_gen *g);
/* The body has accesses cc_wg_affine.c's rewrite may improve (clamped addresses, halo
 * branches): its lane loops are then vectorized with the outer ones. */
int wg_wants_plain_accesses(const wg_gen *g);

/* cc_wg_state.c */
/* The work-group function g->wg around g->body; vec_state per state. */
int wg_build_wg_function(wg_gen *g, const int *vec_state);
/* The lane loops of ln around the body called with argv, as the lane loop
 * changes it (argv itself stays as it is); the builder is left after the
 * nest.  Returns the call's value (the boundary reached: the same for every
 * work-item). */
LLVMValueRef wg_build_lane_loops(wg_gen *g, const LLVMValueRef *argv, const wg_lanes *ln);
void wg_load_uniform_values(wg_gen *g, unsigned s, LLVMValueRef frame, LLVMValueRef area);
/* A 64-byte aligned stack buffer in the work-group function's entry block. */
LLVMValueRef wg_entry_alloca(wg_gen *g, unsigned bytes, const char *name);
/* A loop of the work-group function that is not a lane loop: never vectorized. */
void wg_mark_serial_loop(wg_gen *g, LLVMValueRef term);
LLVMBasicBlockRef wg_close_loop(wg_gen *g, LLVMValueRef iv, LLVMValueRef init, LLVMBasicBlockRef pre,
                                LLVMValueRef next, LLVMValueRef more, LLVMBasicBlockRef body, LLVMBasicBlockRef exit);

/* cc_wg_coll.c */
LLVMValueRef wg_build_combine(wg_gen *g, const wg_boundary *bd, LLVMValueRef ops, LLVMValueRef coll_buf,
                              LLVMValueRef frame, LLVMValueRef nwi, const LLVMValueRef ls[3]);
LLVMValueRef wg_build_fused_scan(wg_gen *g, LLVMValueRef *argv, unsigned s, LLVMValueRef coll, LLVMValueRef n,
                                 LLVMValueRef frame, const int *vec_state, const LLVMValueRef *ls);
void wg_build_packed_groups(wg_gen *g, const LLVMValueRef *argv, LLVMValueRef ls0, LLVMValueRef gk, LLVMValueRef count,
                            LLVMBasicBlockRef gnext, const int *vec_state);
void wg_build_spanned_groups(wg_gen *g, LLVMValueRef *argv, LLVMValueRef ls0, LLVMValueRef gk, LLVMValueRef count,
                             LLVMBasicBlockRef gnext, LLVMValueRef frame, LLVMValueRef coll_buf,
                             const int *vec_state);

/* cc_wg_state.c, at a kernel's first launch (cc_api.compile_kernels):
 * when that launch's groups have more than one dimension, the copy of the
 * state machine for groups of one dimension goes (its branch, marked
 * WG_ONE_DIM_MD, is never taken; the copy for every shape runs such groups
 * too, with the y and z loops).  1 when it did, 0 when there is none. */
#define WG_ONE_DIM_MD "lanecl.one_dim"
int wg_drop_one_dim_copy(LLVMModuleRef m, const char *kernel);

/* cc_wg_image.c */
/* Before linking: the body's reads and writes of image arguments call the
 * builtins' __lanecl_imgk_* with the format of the lane loop's copy
 * (g->img_nver copies, 0 when none), the general path out of line. */
int wg_image_specialize(wg_gen *g);
/* The report's line on them. */
void wg_image_report(wg_gen *g);
/* From wg_build_lane_loops: the nest built once per copy, the copy chosen by
 * the images' formats; the general copy last. */
LLVMValueRef wg_image_lane_loops(wg_gen *g, const LLVMValueRef *args, const wg_lanes *ln);
/* Function attribute of the work-group functions that have such copies. */
#define WG_IMG_ATTR "lanecl-image-copies"
/* After O3, in those: the masked stores and the per-channel scatters of a
 * texel run as plain stores for the chunks whose lanes are all on (and,
 * for scatters, write consecutive texels).  Returns how many. */
unsigned wg_image_stores(LLVMValueRef fn);
/* At a kernel's first launch (cc_api.compile_kernels with the formats of
 * its arguments, fmts[i] = order << 16 | type for an image argument i, 0
 * otherwise): when the copy those formats select holds no general path,
 * the general path the kernel kept inline (IMG_INLINE_MAX) goes out of
 * line in m.  1 when it did, 0 when nothing changed. */
int wg_image_general_out_of_line(LLVMModuleRef m, const char *kernel, const uint32_t *fmts, uint32_t nargs);

/* cc_wg_late.c */
/* Function attribute of work-group functions whose builtins on vectors
 * cc_wg_finish scalarizes once they are inlined. */
#define WG_SCALARIZE_ATTR "lanecl-scalarize"

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
/* A kernel without boundaries: g->split, the first (up to two) compares in
 * branch conditions of x's global or local id (plus uniform values) with a
 * uniform bound, and every use of each in the body made to read the
 * constant the body's fast argument says.  0 when there is none. */
int wg_split_guard(wg_gen *g);
/* The lane loops of ln for a kernel with g->split: x in ranges between the
 * compares' bounds, each with every compare a constant; the body as written
 * in a group where a compare's side could wrap. */
void wg_build_split_lanes(wg_gen *g, LLVMValueRef *argv, const wg_lanes *ln);

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
/* Masked gathers from one address (a uniform load under a guard) become a
 * scalar load when a lane is on, and a broadcast (after O3).  Returns how
 * many. */
unsigned wg_uniform_gathers(LLVMValueRef fn);
/* Gathers and scatters whose lanes are 2 to 4 elements apart become masked
 * loads or stores of the span and shuffles (after O3).  Returns how many. */
unsigned wg_strided_accesses(LLVMValueRef fn);

/* cc_wg_accum.c */
/* Before masked widening of the lane loop whose branch is lane_br: each
 * one-block inner loop that loads and stores one address p that does not
 * change in it gets a copy keeping p in a register, run when p's bytes are
 * apart from those the loop's other loads read (a check before the loop).
 * *count: loops versioned; why (why_size bytes): why a loop that stores
 * was not ("" if none).  CC_OK or CC_OUT_OF_MEMORY. */
int wg_accum_version(LLVMValueRef fn, LLVMValueRef lane_br, unsigned *count, char *why, size_t why_size);
/* bb is the loop as written of such a pair (run only where they overlap). */
int wg_accum_is_fallback(LLVMBasicBlockRef bb);

/* cc_wg_rows.c */
/* After O3 (cc_wg_late_shuffles): an inner loop of a vectorized lane loop whose
 * gathers move one element per iteration (a row dot product, A[i * n + j])
 * gets a form that loads W iterations of each lane at once and transposes
 * them, chosen per chunk by the stores' spans.  Returns how many loops. */
unsigned wg_rows(LLVMValueRef fn);

#endif

/* Sub-groups in the work-group function.
 *
 * A sub-group is a run of sub_group_size (S) consecutive work-items of one
 * row of x: a row of lx work-items holds ceil(lx / S) sub-groups, the last
 * one shorter when S does not divide lx.  S is the lane width the lane loops
 * are vectorized to (16 x 32-bit lanes on AVX-512, 8 on AVX2), or the
 * kernel's intel_reqd_sub_group_size.  The work-item functions are
 * arithmetic on the local ids; the collectives are boundaries of the
 * work-group function like the work-group collectives, whose combine
 * (__lanecl_sg_* of builtins/collectives.cl) scans or reduces each
 * sub-group's operands in registers on its own, with no carry from one
 * sub-group to the next.  Broadcasts, shuffles and rotates are an exchange:
 * the operands are published at a boundary and each work-item then loads
 * the element of the lane it asked for.
 *
 * The sub-group size does not depend on how a lane loop is compiled: a
 * kernel built with -cl-opt-disable, whose lane loops stay scalar, has the
 * same sub-groups (the combine makes them), so clGetKernelSubGroupInfo's
 * answer, which comes from the kernel's metadata (sub_group_size), holds
 * for every build. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

/* The sizes intel_reqd_sub_group_size may ask for: powers of two from 4 to
 * twice the lane width (ballots are 32 bits wide: at most 32). */
static unsigned max_reqd_size(wg_gen *g)
{
  unsigned w = wg_lane_width(g) * 2;
  return w > 32 ? 32 : w < 4 ? 4 : w;
}

int wg_sub_group_size(wg_gen *g, char **err)
{
  uint32_t r = g->ki->reqd_sub_group_size;
  if (r) {
    unsigned top = max_reqd_size(g);
    if (r < 4 || r > top || (r & (r - 1))) {
      cc_set_err(err, "error: kernel %s: intel_reqd_sub_group_size(%u): the device's sub-group sizes are 4 to %u "
                 "(powers of two)", g->ki->name, (unsigned)r, top);
      return CC_BUILD_FAILED;
    }
    g->sg_size = r;
  } else {
    g->sg_size = wg_lane_width(g);
  }
  g->ki->sub_group_size = g->sg_size;
  return CC_OK;
}

/* ---- work-item functions ---- */

static LLVMValueRef sg_div_up(wg_gen *g, LLVMValueRef x)
{
  unsigned sh = 0;
  while ((1u << sh) < g->sg_size)
    sh++;
  return LLVMBuildLShr(g->b, LLVMBuildAdd(g->b, x, wg_c64(g, g->sg_size - 1), ""), wg_c64(g, sh), "");
}

LLVMValueRef wg_sg_local_id(wg_gen *g)
{
  return LLVMBuildAnd(g->b, g->p_lid[0], wg_c64(g, g->sg_size - 1), "sg_local_id");
}

/* min(S, lx - start of the work-item's sub-group) */
LLVMValueRef wg_sg_size_here(wg_gen *g)
{
  LLVMValueRef lx = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, local_size), 0, "local_size");
  LLVMValueRef start = LLVMBuildAnd(g->b, g->p_lid[0], wg_c64(g, ~(uint64_t)(g->sg_size - 1)), "");
  LLVMValueRef left = LLVMBuildSub(g->b, lx, start, "");
  LLVMValueRef s = wg_c64(g, g->sg_size);
  return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, left, s, ""), left, s, "sg_size");
}

/* min(S, the enqueued lx): the same in every group of the dispatch */
LLVMValueRef wg_sg_max_size(wg_gen *g)
{
  LLVMValueRef el = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, enqueued_local_size), 0, "enq_local_size");
  LLVMValueRef s = wg_c64(g, g->sg_size);
  return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, el, s, ""), el, s, "max_sg_size");
}

static LLVMValueRef sg_count(wg_gen *g, size_t field)
{
  LLVMValueRef l[3];
  for (unsigned d = 0; d < 3; d++)
    l[d] = wg_ctx_dim(g, field, d, "");
  return LLVMBuildMul(g->b, LLVMBuildMul(g->b, sg_div_up(g, l[0]), l[1], ""), l[2], "num_sub_groups");
}

LLVMValueRef wg_sub_group_value(wg_gen *g, const wg_mangled *mg)
{
  if (mg->plen != 1 || mg->params[0] != 'v' || mg->ilen < 12)
    return NULL;
  if (wg_ident_is(mg, "get_sub_group_local_id"))
    return wg_sg_local_id(g);
  if (wg_ident_is(mg, "get_sub_group_size"))
    return wg_sg_size_here(g);
  if (wg_ident_is(mg, "get_max_sub_group_size"))
    return wg_sg_max_size(g);
  if (wg_ident_is(mg, "get_num_sub_groups"))
    return sg_count(g, offsetof(lanecl_wg_ctx, local_size));
  if (wg_ident_is(mg, "get_enqueued_num_sub_groups"))
    return sg_count(g, offsetof(lanecl_wg_ctx, enqueued_local_size));
  if (wg_ident_is(mg, "get_sub_group_id")) {
    LLVMValueRef lx = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, local_size), 0, "local_size");
    LLVMValueRef ly = wg_ctx_dim(g, offsetof(lanecl_wg_ctx, local_size), 1, "local_size");
    LLVMValueRef row = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, g->p_lid[2], ly, ""), g->p_lid[1], "");
    unsigned sh = 0;
    while ((1u << sh) < g->sg_size)
      sh++;
    return LLVMBuildAdd(g->b, LLVMBuildMul(g->b, row, sg_div_up(g, lx), ""),
                        LLVMBuildLShr(g->b, g->p_lid[0], wg_c64(g, sh), ""), "sg_id");
  }
  return NULL;
}

/* ---- boundaries ---- */

static const char *const sg_ops[] = {"add", "min", "max", "mul", "and", "or",
                                     "xor", "logical_and", "logical_or", "logical_xor"};

static const char *type_suffix(const wg_mangled *mg)
{
  if (mg->plen >= 2 && mg->params[0] == 'D' && mg->params[1] == 'h')
    return "h16";
  switch (mg->plen ? mg->params[0] : 0) {
  case 'i': return "i32";
  case 'j': return "u32";
  case 'l': return "i64";
  case 'm': return "u64";
  case 'f': return "f32";
  case 'd': return "f64";
  default: return NULL;
  }
}

/* The exchanges (broadcast, shuffles, rotates): lowered by
 * wg_lower_sub_group_exchanges before the boundaries are found. */
static const char *const sg_xchg[] = {"sub_group_broadcast", "sub_group_shuffle", "sub_group_shuffle_xor",
                                      "sub_group_shuffle_up", "sub_group_shuffle_down", "sub_group_rotate",
                                      "sub_group_clustered_rotate"};
enum { SGX_BCAST, SGX_SHUFFLE, SGX_XOR, SGX_UP, SGX_DOWN, SGX_ROTATE, SGX_CROTATE, SGX_N };

static int xchg_kind(const wg_mangled *mg)
{
  for (int k = 0; k < SGX_N; k++)
    if (wg_ident_is(mg, sg_xchg[k]))
      return k;
  return -1;
}

#define XCHG_IDENT "__lanecl_sg_xchg"

int wg_classify_sub_group(LLVMValueRef call, const wg_mangled *mg, wg_boundary *bd, const char **why)
{
  size_t r2 = 0;
  if (wg_ident_is(mg, "sub_group_barrier")) {
    /* The lanes of a sub-group run one region at a time like the rest of the
     * group: a sub-group barrier is a barrier of the group.  (One that only
     * some sub-groups reach is moved out of its branch first, see
     * cc_wg_sgdiv.c.) */
    bd->kind = WB_BARRIER;
    snprintf(bd->what, sizeof(bd->what), "sub_group_barrier");
    return 1;
  }
  if (wg_ident_is(mg, XCHG_IDENT)) {
    bd->kind = WB_SG_XCHG;
    bd->sg = 1;
    bd->ty = LLVMTypeOf(LLVMGetOperand(call, 0));
    snprintf(bd->what, sizeof(bd->what), "sub-group exchange");
    return 1;
  }
  if (xchg_kind(mg) >= 0) {
    /* (until wg_lower_sub_group_exchanges: a boundary, so that it stays convergent) */
    bd->kind = WB_SG_XCHG;
    bd->sg = 1;
    return 1;
  }
  const char *what = NULL;
  bd->sg = 1;
  bd->ty = LLVMTypeOf(call);
  if (wg_ident_is(mg, "sub_group_all") || wg_ident_is(mg, "sub_group_any")) {
    bd->kind = WB_SCAN_INC;
    snprintf(bd->what, sizeof(bd->what), "%.*s", (int)mg->ilen, mg->ident);
    snprintf(bd->helper, sizeof(bd->helper), "__lanecl_sg_%s", wg_ident_is(mg, "sub_group_all") ? "all" : "any");
    return 1;
  }
  if (wg_ident_starts(mg, "sub_group_reduce_", &r2)) {
    bd->kind = WB_SCAN_INC;
    what = "reduce";
  } else if (wg_ident_starts(mg, "sub_group_clustered_reduce_", &r2)) {
    /* (cl_khr_subgroup_clustered_reduce) clusters of a constant power of two
     * at most S: a sub-group reduction with sub-groups of that size */
    LLVMValueRef cs = LLVMGetNumArgOperands(call) > 1 ? LLVMGetOperand(call, 1) : NULL;
    if (!cs || !LLVMIsAConstantInt(cs)) {
      *why = "the cluster size must be a constant";
      return -1;
    }
    /* A size that is not a power of two, or larger than the sub-group, is
     * undefined behaviour when it runs, but the kernel must build (the CTS
     * switches over sizes up to 128 and runs only the valid ones): such a
     * cluster is the whole sub-group. */
    uint64_t v = LLVMConstIntGetZExtValue(cs);
    if (!v || (v & (v - 1)) || v > 64)
      v = 64;
    bd->kind = WB_SCAN_INC;
    bd->sg_cluster = (unsigned)v;
    what = "reduce";
  } else if (wg_ident_starts(mg, "sub_group_scan_inclusive_", &r2)) {
    bd->kind = WB_SCAN_INC;
    what = "scan_inclusive";
  } else if (wg_ident_starts(mg, "sub_group_scan_exclusive_", &r2)) {
    bd->kind = WB_SCAN_EXC;
    what = "scan_exclusive";
  } else {
    bd->sg = 0;
    return 0; /* sub-group pipes and the like: not a boundary */
  }
  snprintf(bd->what, sizeof(bd->what), "%.*s", (int)mg->ilen, mg->ident);
  const char *op = mg->ident + r2;
  size_t oplen = mg->ilen - r2;
  int known = 0;
  for (size_t i = 0; i < sizeof(sg_ops) / sizeof(sg_ops[0]) && !known; i++)
    known = strlen(sg_ops[i]) == oplen && !memcmp(sg_ops[i], op, oplen);
  const char *ty = type_suffix(mg);
  if (!known || !ty) {
    *why = !known ? "unknown operation" : "unsupported operand type";
    return -1;
  }
  snprintf(bd->helper, sizeof(bd->helper), "__lanecl_sg_%s_%.*s_%s", what, (int)oplen, op, ty);
  return 1;
}

/* ---- exchanges ---- */

/* The exchange boundary for one scalar x: returns where work-item's own
 * element of the exchanged operands is (after the boundary), from which the
 * element of lane src is (src - own lane) elements away. */
static LLVMValueRef xchg_scalar(wg_gen *g, LLVMValueRef x, LLVMValueRef rel)
{
  LLVMTypeRef ty = LLVMTypeOf(x);
  char tname[24];
  unsigned bits = (unsigned)LLVMABISizeOfType(g->td, ty) * 8;
  snprintf(tname, sizeof(tname), "%c%u", LLVMGetTypeKind(ty) == LLVMIntegerTypeKind ? 'i'
                                          : LLVMGetTypeKind(ty) == LLVMPointerTypeKind ? 'p' : 'f', bits);
  char name[64];
  snprintf(name, sizeof(name), "_Z%zu" XCHG_IDENT "%s", strlen(XCHG_IDENT), tname);
  LLVMValueRef f = LLVMGetNamedFunction(g->m, name);
  LLVMTypeRef fty = LLVMFunctionType(g->t_ptr, &ty, 1, 0);
  if (!f) {
    f = LLVMAddFunction(g->m, name, fty);
    cc_add_fn_attr(f, "convergent");
    cc_add_fn_attr(f, "nounwind");
  }
  LLVMValueRef own = LLVMBuildCall2(g->b, fty, f, &x, 1, "sg.own");
  LLVMValueRef off = LLVMBuildMul(g->b, rel, wg_c64(g, bits / 8), "");
  LLVMValueRef p = LLVMBuildGEP2(g->b, g->t_i8, own, &off, 1, "sg.src");
  LLVMValueRef v = wg_build_load(g, ty, p, bits / 8, 1);
  return v;
}

static int lower_xchg(wg_gen *g, LLVMValueRef call, int kind, char **err)
{
  unsigned nargs = LLVMGetNumArgOperands(call);
  if (nargs < 2 || (kind == SGX_CROTATE && nargs < 3)) {
    cc_set_err(err, "error: kernel %s: unexpected sub-group function", g->ki->name);
    return CC_BUILD_FAILED;
  }
  LLVMPositionBuilderBefore(g->b, call);
  LLVMValueRef x = LLVMGetOperand(call, 0);
  LLVMValueRef id = LLVMBuildZExtOrBitCast(g->b, LLVMGetOperand(call, 1), g->t_i64, "");
  LLVMValueRef lid = wg_sg_local_id(g), size = wg_sg_size_here(g), src;
  switch (kind) {
  case SGX_XOR: src = LLVMBuildXor(g->b, lid, id, ""); break;
  case SGX_UP: src = LLVMBuildSub(g->b, lid, id, ""); break;
  case SGX_DOWN: src = LLVMBuildAdd(g->b, lid, id, ""); break;
  case SGX_ROTATE: {
    /* (lid + delta) mod size, delta signed */
    LLVMValueRef d = LLVMBuildSExtOrBitCast(g->b, LLVMGetOperand(call, 1), g->t_i64, "");
    LLVMValueRef t = LLVMBuildSRem(g->b, LLVMBuildAdd(g->b, lid, d, ""), size, "");
    LLVMValueRef neg = LLVMBuildICmp(g->b, LLVMIntSLT, t, wg_c64(g, 0), "");
    src = LLVMBuildSelect(g->b, neg, LLVMBuildAdd(g->b, t, size, ""), t, "");
    break;
  }
  case SGX_CROTATE: {
    /* clusters of cs (a power of two, at most S) */
    LLVMValueRef cs = LLVMBuildZExtOrBitCast(g->b, LLVMGetOperand(call, 2), g->t_i64, "");
    LLVMValueRef m = LLVMBuildSub(g->b, cs, wg_c64(g, 1), "");
    LLVMValueRef d = LLVMBuildSExtOrBitCast(g->b, LLVMGetOperand(call, 1), g->t_i64, "");
    LLVMValueRef base = LLVMBuildAnd(g->b, lid, LLVMBuildNot(g->b, m, ""), "");
    src = LLVMBuildOr(g->b, base, LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, lid, d, ""), m, ""), "");
    break;
  }
  default: src = id; break;
  }
  /* A lane outside the sub-group (undefined behaviour) reads its own operand
   * rather than another sub-group's or memory past the buffer. */
  src = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, src, size, ""), src, lid, "sg.lane");
  LLVMValueRef rel = LLVMBuildSub(g->b, src, lid, "sg.rel");
  LLVMTypeRef ty = LLVMTypeOf(x);
  LLVMValueRef r;
  if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind) {
    /* Vectors (cl_khr_subgroup_extended_types) element by element. */
    unsigned n = LLVMGetVectorSize(ty);
    r = LLVMGetUndef(ty);
    for (unsigned e = 0; e < n; e++) {
      LLVMValueRef ei = wg_c32(g, e);
      LLVMValueRef v = xchg_scalar(g, LLVMBuildExtractElement(g->b, x, ei, ""), rel);
      r = LLVMBuildInsertElement(g->b, r, v, ei, "");
    }
  } else if (LLVMABISizeOfType(g->td, ty) <= 8) {
    r = xchg_scalar(g, x, rel);
  } else {
    cc_set_err(err, "error: kernel %s: sub-group exchange of an unsupported type", g->ki->name);
    return CC_BUILD_FAILED;
  }
  LLVMReplaceAllUsesWith(call, r);
  LLVMInstructionEraseFromParent(call);
  return CC_OK;
}

/* A sub-group reduction or scan of char, uchar, short or ushort
 * (cl_khr_subgroup_extended_types) becomes the one of int or uint on the
 * operand sign- or zero-extended, its result truncated: exact for every op
 * (add and mul wrap alike, min and max keep the order, the bitwise ops the
 * low bits). */
static int promote_narrow(wg_gen *g, LLVMValueRef call, const wg_mangled *mg)
{
  size_t r2;
  if (!(wg_ident_starts(mg, "sub_group_reduce_", &r2) || wg_ident_starts(mg, "sub_group_scan_", &r2) ||
        wg_ident_starts(mg, "sub_group_clustered_reduce_", &r2)) ||
      !mg->plen)
    return 0;
  char c = mg->params[0];
  int sgn = c == 'c' || c == 'a' || c == 's';
  if (!sgn && c != 'h' && c != 't')
    return 0;
  char name[128];
  size_t head = (size_t)(mg->params - cc_callee_name(call, &r2));
  snprintf(name, sizeof(name), "%.*s%c%.*s", (int)head, cc_callee_name(call, &r2), sgn ? 'i' : 'j',
           (int)(mg->plen - 1), mg->params + 1);
  unsigned nargs = LLVMGetNumArgOperands(call);
  LLVMTypeRef pt[4];
  LLVMValueRef args[4];
  if (nargs > 4)
    return 0;
  LLVMPositionBuilderBefore(g->b, call);
  for (unsigned a = 0; a < nargs; a++) {
    args[a] = LLVMGetOperand(call, a);
    if (a == 0)
      args[a] = sgn ? LLVMBuildSExt(g->b, args[a], g->t_i32, "") : LLVMBuildZExt(g->b, args[a], g->t_i32, "");
    pt[a] = LLVMTypeOf(args[a]);
  }
  LLVMTypeRef fty = LLVMFunctionType(g->t_i32, pt, nargs, 0);
  LLVMValueRef f = LLVMGetNamedFunction(g->m, name);
  if (!f) {
    f = LLVMAddFunction(g->m, name, fty);
    cc_add_fn_attr(f, "convergent");
    cc_add_fn_attr(f, "nounwind");
  }
  LLVMValueRef r = LLVMBuildCall2(g->b, fty, f, args, nargs, "");
  LLVMTypeRef nt = LLVMTypeOf(call);
  r = LLVMBuildTrunc(g->b, r, nt, "");
  /* An exclusive min or max scan starts at the narrow type's identity
   * (INT_MAX and INT_MIN truncate to -1 and 0; UINT_MAX and 0 are right). */
  int mn = wg_ident_is(mg, "sub_group_scan_exclusive_min");
  if (sgn && (mn || wg_ident_is(mg, "sub_group_scan_exclusive_max"))) {
    unsigned bits = LLVMGetIntTypeWidth(nt);
    uint64_t idv = mn ? (1ull << (bits - 1)) - 1 : 1ull << (bits - 1);
    LLVMValueRef first = LLVMBuildICmp(g->b, LLVMIntEQ, wg_sg_local_id(g), wg_c64(g, 0), "");
    r = LLVMBuildSelect(g->b, first, LLVMConstInt(nt, idv, 0), r, "");
  }
  LLVMReplaceAllUsesWith(call, r);
  LLVMInstructionEraseFromParent(call);
  return 1;
}

int wg_lower_sub_group_exchanges(wg_gen *g, char **err)
{
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i) {
      LLVMValueRef next = LLVMGetNextInstruction(i);
      wg_mangled mg;
      int k;
      if (LLVMIsACallInst(i) && wg_demangle(i, &mg) && (k = xchg_kind(&mg)) >= 0) {
        int rc = lower_xchg(g, i, k, err);
        if (rc)
          return rc;
      } else if (LLVMIsACallInst(i) && wg_demangle(i, &mg)) {
        promote_narrow(g, i, &mg);
      }
      i = next;
    }
  }
  return CC_OK;
}

/* Lane loops specialized for the formats of a kernel's images.
 *
 * A read or write of an image (builtins/image.cl) dispatches on the image's
 * channel order and type, which the builtins read from the image's
 * descriptor.  The descriptor is the same for every work-item, so the
 * dispatch is uniform, but a lane loop that holds the general path of even
 * one read (a switch over the channel types) is not vectorized, and LLVM
 * does not unswitch a loop that large.  So the lane loops are versioned:
 *
 *  - before linking (wg_image_specialize, on the body): every call of an
 *    image builtin F on an image that is a kernel argument becomes a call of
 *    __lanecl_imgk_F (the same builtin with the format as a last argument,
 *    k, see image.cl), with k = the format this image has in copy c of the
 *    lane loop, c = bits 8-9 of the body's fast argument (0: the general
 *    copy, k = 0, the format read from the descriptor).  Such a call also
 *    gets the kernel's access group: its image is a kernel argument and the
 *    sampler and coordinates are values (a sampler_t constant is an
 *    inttoptr, which the access marking does not take for memory).
 *  - in the work-group function (wg_image_lane_loops, from
 *    wg_build_lane_loops): each lane loop nest is built once per copy, the
 *    copy chosen once per work-group by comparing the descriptors' formats
 *    (invariant loads: LICM takes them out of the group loop) with the
 *    copy's.  After inlining, k is a constant in each copy and the builtin is
 *    a few loads, converts and selects.
 *
 * The copies: copy c gives each image its kind's c-th common format, of
 * the order its accesses suggest (R, RG or RGBA: the channels they use, see
 * lanes_used): color images read or written as float: float, unorm8 (RGBA:
 * or BGRA), unorm16/snorm16/half (one copy: the builtins select the
 * conversion by the descriptor's type); as integers, signed or unsigned:
 * 32-, 8- and 16-bit channels; depth images: DEPTH float, DEPTH unorm16.
 * Kernels with copies of R or RG images go through the access rewrite of
 * cc_wg_affine.c (img_plain): their 1- and 2-byte texels are loads the loop
 * vectorizer scalarizes (x86 has no such gathers), under a write's bounds
 * check one branch per lane, which the rewrite makes gathers again, and
 * plain vector loads where a row is read contiguously.  Reads through a
 * sampler argument take the copies once per class of its bits (see
 * smp_classes).  An image read both ways, or through a sampler that is
 * neither a constant nor a kernel argument, keeps the general path in every
 * copy (as do the images after the first WG_IMG_MAX).
 *
 * The general path stays out of line: inlined, a read's dispatch on the
 * descriptor is some 700 instructions and 18 switches, at every access of
 * the general copy, which is scalar anyway (the switches) and runs only
 * for the uncommon formats; O3 and code generation grew faster than
 * linearly with it (a kernel of 100 reads: two minutes and 1.9 GB).  So the
 * body calls __lanecl_imgd.F (alwaysinline, see imgd_fn) with the copy
 * number and each copy's format: after inlining, a format copy holds its
 * call of __lanecl_imgk_F with a constant format (a few loads and
 * converts), the general copy a call of __lanecl_imgg.F (noinline, the
 * builtin with k = 0, once per overload in the program: the image builtins
 * hold no barrier, nothing the work-group function has to see), and so
 * does every copy for the accesses that keep the general path.  The body
 * itself, inlined into the copies, holds the format paths of each access,
 * not the general one.  A kernel of IMG_INLINE_MAX accesses or fewer keeps
 * the general path inline (__lanecl_imgd.i.F): its size does not matter
 * there, and where the general copy is what runs (FFmpeg reads float4s of
 * CL_R images) a call per access costs more than the dispatch. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/lanecl_image.h"
#include "compiler/cc_wg.h"

/* cl_channel_order / cl_channel_type values (CL/cl.h). */
enum {
  IMG_R = 0x10B0,
  IMG_RG = 0x10B2,
  IMG_RGBA = 0x10B5,
  IMG_BGRA = 0x10B6,
  IMG_DEPTH = 0x10BD,
  IMG_UNORM_INT8 = 0x10D2,
  IMG_UNORM_INT16 = 0x10D3,
  IMG_SNORM_INT16 = 0x10D1,
  IMG_SIGNED_INT8 = 0x10D7,
  IMG_SIGNED_INT16 = 0x10D8,
  IMG_SIGNED_INT32 = 0x10D9,
  IMG_UNSIGNED_INT8 = 0x10DA,
  IMG_UNSIGNED_INT16 = 0x10DB,
  IMG_UNSIGNED_INT32 = 0x10DC,
  IMG_HALF_FLOAT = 0x10DD,
  IMG_FLOAT = 0x10DE,
};
#define IMG_FMT(o, t) ((uint32_t)(o) << 16 | (uint32_t)(t))

enum { K_NONE, K_FLOAT, K_SINT, K_UINT, K_DEPTH, K_MIXED };

/* The order of an image whose accesses use nch channels (1, 2 or 4). */
static unsigned order_of(unsigned nch)
{
  return nch == 1 ? IMG_R : nch == 2 ? IMG_RG : IMG_RGBA;
}

/* Copy c's format (1 to 3) for an image of kind k whose accesses use nch
 * channels (R, RG or RGBA); 0 when none.  Copy 1 has 32-bit channels,
 * copy 2 8-bit ones (depth: float, unorm16), copy 3 16-bit ones. */
static uint32_t cand(int k, unsigned nch, unsigned c)
{
  unsigned o = order_of(nch);
  if (c == 3) {
    switch (k) {
    case K_FLOAT:
      return nch == 4 ? LANECL_IMG_FMT_RGBA16_FLOAT : nch == 2 ? LANECL_IMG_FMT_RG16_FLOAT : LANECL_IMG_FMT_R16_FLOAT;
    case K_SINT:
      return IMG_FMT(o, IMG_SIGNED_INT16);
    case K_UINT:
      return IMG_FMT(o, IMG_UNSIGNED_INT16);
    default:
      return 0;
    }
  }
  switch (k) {
  case K_FLOAT:
    return c == 1 ? IMG_FMT(o, IMG_FLOAT) : nch == 4 ? LANECL_IMG_FMT_RGBA8_OR_BGRA8 : IMG_FMT(o, IMG_UNORM_INT8);
  case K_SINT:
    return IMG_FMT(o, c == 1 ? IMG_SIGNED_INT32 : IMG_SIGNED_INT8);
  case K_UINT:
    return IMG_FMT(o, c == 1 ? IMG_UNSIGNED_INT32 : IMG_UNSIGNED_INT8);
  case K_DEPTH:
    return IMG_FMT(IMG_DEPTH, c == 1 ? IMG_FLOAT : IMG_UNORM_INT16);
  default:
    return 0;
  }
}

static const char *cand_name(int k, unsigned nch, unsigned c)
{
  static const char *const n[][3] = {{"", "", ""},
                                     {"float", "unorm8", "unorm16/snorm16/half"},
                                     {"int32", "int8", "int16"},
                                     {"uint32", "uint8", "uint16"},
                                     {"float", "unorm16", ""}};
  static char buf[32];
  snprintf(buf, sizeof(buf), "%s %s",
           k == K_DEPTH                                       ? "DEPTH"
           : cand(k, nch, c) == LANECL_IMG_FMT_RGBA8_OR_BGRA8 ? "RGBA/BGRA"
           : nch == 4                                         ? "RGBA"
           : nch == 2                                         ? "RG"
                                                              : "R",
           n[k][c - 1]);
  return buf;
}

/* The formats a copy's format f stands for (up to 3, the rest 0): the
 * builtins swizzle (RGBA8_OR_BGRA8) or select the conversion (*16_FLOAT)
 * by the descriptor. */
static void cand_formats(uint32_t f, uint32_t fs[3])
{
  fs[0] = f, fs[1] = fs[2] = 0;
  if (f == LANECL_IMG_FMT_RGBA8_OR_BGRA8) {
    fs[0] = IMG_FMT(IMG_RGBA, IMG_UNORM_INT8);
    fs[1] = IMG_FMT(IMG_BGRA, IMG_UNORM_INT8);
  } else if (f >> 31) {
    unsigned o = (f >> 16) & 0x7fff;
    fs[0] = IMG_FMT(o, IMG_UNORM_INT16);
    fs[1] = IMG_FMT(o, IMG_SNORM_INT16);
    fs[2] = IMG_FMT(o, IMG_HALF_FLOAT);
  }
}

/* ---- which channels an access uses ----
 * Only a guess of the image's order (R, RG or RGBA), which picks the
 * copies' formats: each copy runs only on images of its formats, so a
 * wrong guess costs the copy, not the result.  Reads: the lanes of the
 * result that something uses, through element-wise operations, phis,
 * selects, shuffles and insertions (the front end and the early passes
 * add .x of two reads as an extract of their vector sum, carry a float4
 * through a loop's phi, ...) up to extracts of constant lanes; anything
 * else uses every lane.  Writes: the lanes of the value that are not
 * constants. */

#define LANES_MAX_NODES 48
#define LANES_ALL (~0ull)

/* An intrinsic or builtin whose lane i depends on lane i of its vector
 * arguments only. */
static int elementwise_call(LLVMValueRef call)
{
  static const char *const intr[] = {"llvm.fmuladd.", "llvm.fma.",    "llvm.fabs.",    "llvm.minnum.", "llvm.maxnum.",
                                     "llvm.sqrt.",    "llvm.floor.",  "llvm.ceil.",    "llvm.rint.",   "llvm.trunc.",
                                     "llvm.round.",   "llvm.copysign.", "llvm.smin.",  "llvm.smax.",   "llvm.umin.",
                                     "llvm.umax.",    "llvm.minimum.", "llvm.maximum.", "llvm.exp.",   "llvm.log.",
                                     "llvm.exp2.",    "llvm.log2.",   "llvm.pow.",     "llvm.abs."};
  static const char *const fns[] = {"fabs", "fmin", "fmax", "fma", "mad", "mix", "clamp", "min", "max", "sqrt", "rsqrt",
                                    "native_sqrt", "native_rsqrt", "native_recip", "native_divide", "native_exp",
                                    "native_log", "native_powr", "half_sqrt", "hypot", "floor", "ceil", "rint", "round",
                                    "trunc", "exp", "exp2", "log", "log2", "pow", "powr", "pown", "sin", "cos", "atan2",
                                    "step", "smoothstep", "sign", "copysign", "fdim", "fmod", "abs", "select",
                                    "bitselect", "mul24", "mad24", "add_sat", "sub_sat", "hadd", "rhadd"};
  for (unsigned i = 0; i < sizeof(intr) / sizeof(intr[0]); i++)
    if (cc_callee_has_prefix(call, intr[i]))
      return 1;
  wg_mangled mg;
  if (!wg_demangle(call, &mg))
    return 0;
  size_t rest;
  if (wg_ident_starts(&mg, "convert_", &rest))
    return 1;
  for (unsigned i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
    if (wg_ident_is(&mg, fns[i]))
      return 1;
  return 0;
}

static unsigned vec_lanes(LLVMValueRef v)
{
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 0;
}

static uint64_t lanes_below(unsigned n)
{
  return n >= 64 ? LANES_ALL : (1ull << n) - 1;
}

/* user, a user of the vector v, passes lane i of v to its lane i (an
 * element-wise operation of as many lanes). */
static int lanewise_user(LLVMValueRef user, LLVMValueRef v)
{
  unsigned n = vec_lanes(v);
  if (!n || vec_lanes(user) != n)
    return 0;
  if (LLVMIsABinaryOperator(user) || LLVMIsAUnaryOperator(user) || LLVMIsACmpInst(user) || LLVMIsAPHINode(user) ||
      LLVMIsASelectInst(user) || LLVMIsAFreezeInst(user))
    return 1;
  if (LLVMIsACastInst(user))
    return 1; /* the same number of lanes */
  if (LLVMIsACallInst(user) && elementwise_call(user)) {
    /* v an argument, not the callee */
    return LLVMGetCalledValue(user) != v;
  }
  return 0;
}

/* The lanes of v that user uses, given the lanes of user that are used
 * (um); LANES_ALL where it can't tell. */
static uint64_t lanes_through(LLVMValueRef user, LLVMValueRef v, uint64_t um)
{
  unsigned n = vec_lanes(v);
  if (LLVMIsAExtractElementInst(user)) {
    LLVMValueRef idx = LLVMGetOperand(user, 1);
    if (LLVMIsAConstantInt(idx) && LLVMConstIntGetZExtValue(idx) < n && n <= 64)
      return 1ull << LLVMConstIntGetZExtValue(idx);
    return lanes_below(n);
  }
  if (LLVMIsAInsertElementInst(user) && LLVMGetOperand(user, 0) == v && LLVMGetOperand(user, 1) != v) {
    LLVMValueRef idx = LLVMGetOperand(user, 2);
    if (LLVMIsAConstantInt(idx) && LLVMConstIntGetZExtValue(idx) < 64)
      um &= ~(1ull << LLVMConstIntGetZExtValue(idx));
    return um & lanes_below(n);
  }
  if (LLVMIsAShuffleVectorInst(user)) {
    unsigned out = LLVMGetNumMaskElements(user);
    uint64_t m = 0;
    for (unsigned j = 0; j < out && j < 64; j++) {
      if (!(um >> j & 1))
        continue;
      int e = LLVMGetMaskValue(user, j);
      if (e < 0)
        continue;
      if (LLVMGetOperand(user, 0) == v && (unsigned)e < n)
        m |= 1ull << e;
      if (LLVMGetOperand(user, 1) == v && (unsigned)e >= n && (unsigned)e - n < 64)
        m |= 1ull << (e - n);
    }
    return out > 64 ? lanes_below(n) : m;
  }
  if (lanewise_user(user, v))
    return um & lanes_below(n);
  return lanes_below(n);
}

/* A user whose used lanes lanes_through needs (its own node). */
static int lanes_node(LLVMValueRef user, LLVMValueRef v)
{
  if (LLVMIsAExtractElementInst(user))
    return 0;
  if (LLVMIsAInsertElementInst(user))
    return LLVMGetOperand(user, 0) == v && LLVMGetOperand(user, 1) != v;
  if (LLVMIsAShuffleVectorInst(user))
    return LLVMGetNumMaskElements(user) <= 64;
  return lanewise_user(user, v);
}

/* The lanes of v (a read's result) that are used: the least fixed point
 * over the values v reaches through lane-preserving users. */
static uint64_t lanes_used(LLVMValueRef v)
{
  LLVMValueRef node[LANES_MAX_NODES];
  uint64_t used[LANES_MAX_NODES];
  unsigned n = 0;
  node[n] = v, used[n++] = 0;
  for (unsigned i = 0; i < n; i++)
    for (LLVMUseRef u = LLVMGetFirstUse(node[i]); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (!lanes_node(user, node[i]))
        continue;
      unsigned j = 0;
      while (j < n && node[j] != user)
        j++;
      if (j < n)
        continue;
      if (n == LANES_MAX_NODES)
        return LANES_ALL;
      node[n] = user, used[n++] = 0;
    }
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned i = n; i-- > 0;) {
      uint64_t m = 0;
      for (LLVMUseRef u = LLVMGetFirstUse(node[i]); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        uint64_t um = LANES_ALL;
        for (unsigned j = 0; j < n; j++)
          if (node[j] == user && lanes_node(user, node[i]))
            um = used[j];
        m |= lanes_through(user, node[i], um);
      }
      if (m != used[i])
        used[i] = m, changed = 1;
    }
  }
  return used[0];
}

/* The lanes of v (a value written to an image) that are not constants:
 * (float4)(x, 0, 0, 1) has lane 0. */
static uint64_t lanes_varying(LLVMValueRef v, unsigned depth)
{
  unsigned n = vec_lanes(v);
  if (LLVMIsAConstant(v))
    return 0;
  if (!n || n > 64 || !depth)
    return LANES_ALL;
  if (LLVMIsAInsertElementInst(v)) {
    LLVMValueRef idx = LLVMGetOperand(v, 2);
    uint64_t m = lanes_varying(LLVMGetOperand(v, 0), depth - 1);
    if (!LLVMIsAConstantInt(idx) || LLVMConstIntGetZExtValue(idx) >= n)
      return LANES_ALL;
    uint64_t bit = 1ull << LLVMConstIntGetZExtValue(idx);
    return (m & ~bit) | (LLVMIsAConstant(LLVMGetOperand(v, 1)) ? 0 : bit);
  }
  if (LLVMIsAShuffleVectorInst(v)) {
    LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
    unsigned na = vec_lanes(a);
    uint64_t ma = lanes_varying(a, depth - 1), mb = lanes_varying(b, depth - 1), m = 0;
    for (unsigned j = 0; j < n; j++) {
      int e = LLVMGetMaskValue(v, j);
      if (e >= 0 && ((unsigned)e < na ? ma >> e & 1 : (unsigned)e - na >= 64 || mb >> (e - na) & 1))
        m |= 1ull << j;
    }
    return m;
  }
  if (LLVMIsABinaryOperator(v) || LLVMIsAUnaryOperator(v) || (LLVMIsACastInst(v) && vec_lanes(LLVMGetOperand(v, 0)) == n)) {
    uint64_t m = 0;
    for (int i = 0; i < LLVMGetNumOperands(v); i++)
      m |= lanes_varying(LLVMGetOperand(v, i), depth - 1);
    return m;
  }
  return LANES_ALL;
}

/* The constant at lane j of v (a value written), NULL when not known. */
static LLVMValueRef lane_constant(LLVMValueRef v, unsigned j, unsigned depth)
{
  unsigned n = vec_lanes(v);
  if (!n || j >= n || !depth)
    return NULL;
  if (LLVMIsAConstant(v))
    return LLVMGetAggregateElement(v, j);
  if (LLVMIsAInsertElementInst(v)) {
    LLVMValueRef idx = LLVMGetOperand(v, 2);
    if (!LLVMIsAConstantInt(idx))
      return NULL;
    if (LLVMConstIntGetZExtValue(idx) == j)
      return LLVMIsAConstant(LLVMGetOperand(v, 1)) ? LLVMGetOperand(v, 1) : NULL;
    return lane_constant(LLVMGetOperand(v, 0), j, depth - 1);
  }
  if (LLVMIsAShuffleVectorInst(v)) {
    int e = LLVMGetMaskValue(v, j);
    unsigned na = vec_lanes(LLVMGetOperand(v, 0));
    if (e < 0)
      return NULL;
    return (unsigned)e < na ? lane_constant(LLVMGetOperand(v, 0), (unsigned)e, depth - 1)
                            : lane_constant(LLVMGetOperand(v, 1), (unsigned)e - na, depth - 1);
  }
  return NULL;
}

/* Channels of an order that covers the lanes m: 1, 2 or 4. */
static unsigned nch_of(uint64_t m)
{
  return !(m & ~1ull) ? 1 : !(m & ~3ull) ? 2 : 4;
}

static const char *const img_fns[] = {"read_imagef", "read_imageh", "read_imagei", "read_imageui",
                                      "write_imagef", "write_imageh", "write_imagei", "write_imageui"};
#define IMGK_PREFIX "__lanecl_imgk_"

/* The kind of image builtin call (K_NONE: not one). */
static int image_call_kind(const wg_mangled *mg)
{
  for (unsigned i = 0; i < sizeof(img_fns) / sizeof(img_fns[0]); i++)
    if (wg_ident_is(mg, img_fns[i])) {
      /* the first parameter is the image type: ..ocl_image2d_depth_ro.. */
      size_t plen = mg->plen < 40 ? mg->plen : 40;
      for (size_t j = 0; j + 5 <= plen; j++)
        if (!memcmp(mg->params + j, "depth", 5))
          return K_DEPTH;
      const char *id = img_fns[i];
      size_t l = strlen(id);
      return id[l - 1] == 'f' || id[l - 1] == 'h' ? K_FLOAT : id[l - 2] == 'u' ? K_UINT : K_SINT;
    }
  return K_NONE;
}

/* The image's slot in g->img (its kernel parameter p), added when new; -1
 * when full. */
static int img_slot(wg_gen *g, unsigned p)
{
  for (unsigned i = 0; i < g->img_n; i++)
    if (g->img_param[i] == p)
      return (int)i;
  if (g->img_n == WG_IMG_MAX)
    return -1;
  g->img_param[g->img_n] = p;
  g->img_kind[g->img_n] = K_NONE;
  g->img_nch[g->img_n] = 1;
  return (int)g->img_n++;
}

/* The declaration of __lanecl_imgk_F for a call of F: F's mangled name with
 * the identifier prefixed and a uint parameter appended, F's attributes. */
static LLVMValueRef imgk_decl(wg_gen *g, LLVMValueRef call, const wg_mangled *mg)
{
  char name[256];
  int len = snprintf(name, sizeof(name), "_Z%zu" IMGK_PREFIX "%.*s%.*sj", mg->ilen + strlen(IMGK_PREFIX),
                     (int)mg->ilen, mg->ident, (int)mg->plen, mg->params);
  if (len <= 0 || (size_t)len >= sizeof(name))
    return NULL;
  LLVMValueRef f = LLVMGetNamedFunction(g->m, name);
  if (f)
    return f;
  LLVMValueRef old = cc_called_function(call);
  LLVMTypeRef ft = LLVMGlobalGetValueType(old);
  unsigned np = LLVMCountParamTypes(ft);
  LLVMTypeRef pt[16];
  if (np + 1 > sizeof(pt) / sizeof(pt[0]) || LLVMIsFunctionVarArg(ft))
    return NULL;
  LLVMGetParamTypes(ft, pt);
  pt[np] = g->t_i32;
  f = LLVMAddFunction(g->m, name, LLVMFunctionType(LLVMGetReturnType(ft), pt, np + 1, 0));
  LLVMSetFunctionCallConv(f, LLVMGetFunctionCallConv(old));
  for (int idx = -1; idx <= (int)np; idx++) {
    unsigned k = (unsigned)idx, na = LLVMGetAttributeCountAtIndex(old, k);
    if (!na)
      continue;
    LLVMAttributeRef *at = malloc(na * sizeof(*at));
    if (!at)
      continue;
    LLVMGetAttributesAtIndex(old, k, at);
    for (unsigned a = 0; a < na; a++)
      LLVMAddAttributeAtIndex(f, k, at[a]);
    free(at);
  }
  return f;
}

/* ---- the general path out of line ---- */

#define IMGD_PREFIX "__lanecl_imgd."
#define IMGG_PREFIX "__lanecl_imgg."
#define IMGD_MAX_PARAMS 16
/* Kernels of at most this many image accesses keep the general path
 * inline (__lanecl_imgd.i.F): a call per access costs more than its
 * dispatch where the general copy is what runs (a float4 read of a CL_R
 * image: FFmpeg's avgblur took 1.45 times as long with it out of line). */
#define IMG_INLINE_MAX 16

/* The function prefix + fk's name, *np its parameters (fk's less k) and
 * pt their types; NULL when not there yet (name set) or too long. */
static LLVMValueRef img_fn_named(LLVMModuleRef m, const char *prefix, LLVMValueRef fk, char *name, size_t cap,
                                 unsigned *np, LLVMTypeRef *pt)
{
  size_t len;
  const char *kn = LLVMGetValueName2(fk, &len);
  LLVMTypeRef kt = LLVMGlobalGetValueType(fk);
  *np = LLVMCountParamTypes(kt) - 1;
  name[0] = 0;
  if (strlen(prefix) + len >= cap || *np + 1 > IMGD_MAX_PARAMS)
    return NULL;
  snprintf(name, cap, "%s%.*s", prefix, (int)len, kn);
  LLVMGetParamTypes(kt, pt);
  return LLVMGetNamedFunction(m, name);
}

/* A new internal function of fk's result and calling convention; its
 * return and first np parameters get fk's attributes. */
static LLVMValueRef img_fn_new(LLVMModuleRef m, LLVMValueRef fk, const char *name, LLVMTypeRef *pt, unsigned n,
                               unsigned np)
{
  LLVMValueRef f =
      LLVMAddFunction(m, name, LLVMFunctionType(LLVMGetReturnType(LLVMGlobalGetValueType(fk)), pt, n, 0));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  LLVMSetFunctionCallConv(f, LLVMGetFunctionCallConv(fk));
  for (unsigned idx = 0; idx <= np; idx++) {
    unsigned na = LLVMGetAttributeCountAtIndex(fk, idx);
    LLVMAttributeRef at[32];
    if (!na || na > 32)
      continue;
    LLVMGetAttributesAtIndex(fk, idx, at);
    for (unsigned a = 0; a < na; a++)
      LLVMAddAttributeAtIndex(f, idx, at[a]);
  }
  cc_add_fn_attr(f, "nounwind");
  return f;
}

/* b's call of callee with f's first np parameters and, unless NULL, k; its
 * result returned. */
static void img_fn_ret_call(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef callee, unsigned np, LLVMValueRef k)
{
  LLVMValueRef a[IMGD_MAX_PARAMS];
  for (unsigned i = 0; i < np; i++)
    a[i] = LLVMGetParam(f, i);
  a[np] = k;
  LLVMValueRef r = LLVMBuildCall2(b, LLVMGlobalGetValueType(callee), callee, a, k ? np + 1 : np, "");
  LLVMSetInstructionCallConv(r, LLVMGetFunctionCallConv(callee));
  if (LLVMGetTypeKind(LLVMTypeOf(r)) == LLVMVoidTypeKind)
    LLVMBuildRetVoid(b);
  else
    LLVMBuildRet(b, r);
}

/* __lanecl_imgg.<fk>(F's parameters): the general path, fk with k = 0, a
 * function of its own (noinline; not convergent: no work-item waits on
 * another in an image builtin). */
static LLVMValueRef imgg_fn(LLVMModuleRef m, LLVMValueRef fk)
{
  char name[320];
  unsigned np;
  LLVMTypeRef pt[IMGD_MAX_PARAMS];
  LLVMValueRef f = img_fn_named(m, IMGG_PREFIX, fk, name, sizeof(name), &np, pt);
  if (f || !name[0])
    return f;
  f = img_fn_new(m, fk, name, pt, np, np);
  cc_add_fn_attr(f, "noinline");
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, f, "entry"));
  img_fn_ret_call(b, f, fk, np, LLVMConstInt(LLVMInt32TypeInContext(c), 0, 0));
  LLVMDisposeBuilder(b);
  return f;
}

/* __lanecl_imgd.<fk>(F's parameters, c, f1, f2, f3) (alwaysinline): in copy
 * c > 0 of an image whose format there is fc != 0, fk with k = fc; else the
 * general path's call.  Inlined with constant formats, each copy's path
 * folds as fk's does with a constant k, and the body holds no general path. */
static LLVMValueRef imgd_fn(wg_gen *g, LLVMValueRef fk, int inline_general)
{
  char name[320];
  unsigned np;
  LLVMTypeRef pt[IMGD_MAX_PARAMS + 1 + WG_IMG_COPIES];
  LLVMValueRef f = img_fn_named(g->m, inline_general ? IMGD_PREFIX "i." : IMGD_PREFIX, fk, name, sizeof(name), &np, pt);
  if (f || !name[0])
    return f;
  LLVMValueRef gen = inline_general ? fk : imgg_fn(g->m, fk);
  if (!gen)
    return NULL;
  for (unsigned v = 0; v <= WG_IMG_COPIES; v++)
    pt[np + v] = g->t_i32;
  f = img_fn_new(g->m, fk, name, pt, np + 1 + WG_IMG_COPIES, np);
  cc_add_fn_attr(f, "alwaysinline");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->c);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->c, f, "entry");
  LLVMBasicBlockRef general = LLVMAppendBasicBlockInContext(g->c, f, "general");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef sw = LLVMBuildSwitch(b, LLVMGetParam(f, np), general, WG_IMG_COPIES);
  for (unsigned v = 1; v <= WG_IMG_COPIES; v++) {
    LLVMBasicBlockRef copy = LLVMAppendBasicBlockInContext(g->c, f, "copy");
    LLVMBasicBlockRef fmt = LLVMAppendBasicBlockInContext(g->c, f, "format");
    LLVMAddCase(sw, wg_c32(g, v), copy);
    LLVMPositionBuilderAtEnd(b, copy);
    LLVMValueRef k = LLVMGetParam(f, np + v);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, k, wg_c32(g, 0), ""), general, fmt);
    LLVMPositionBuilderAtEnd(b, fmt);
    img_fn_ret_call(b, f, fk, np, k);
  }
  LLVMPositionBuilderAtEnd(b, general);
  img_fn_ret_call(b, f, gen, np, inline_general ? wg_c32(g, 0) : NULL);
  LLVMDisposeBuilder(b);
  return f;
}

/* ---- at the first launch: the general path out of line where it won't run ----
 * A kernel of IMG_INLINE_MAX accesses or fewer keeps the general path
 * inline, for the images whose format no copy has (FFmpeg's float4 reads of
 * CL_R planes), and pays for it in every build: inlined, the general copy
 * and the general path of each access are most of a small image kernel's
 * code (darktable's basic.cl: 53.6 s of CPU to compile, 28.8 s with the
 * general path out of line).  A kernel's code is made at its first launch,
 * so the formats of that launch's images are known: when they select a copy
 * (the first one, in the order the work-group function tests them, whose
 * formats they all have) in which every access has a format, the general
 * path runs only for other formats at later launches, and goes out of line.
 * A later launch with such formats runs the same results a call away. */

/* Whether format have is one of those copy format f stands for. */
static int fmt_in(uint32_t f, uint32_t have)
{
  uint32_t fs[3];
  cand_formats(f, fs);
  for (unsigned i = 0; i < 3 && fs[i]; i++)
    if (fs[i] == have)
      return 1;
  return 0;
}

/* The last call in f of a function with a constant 0 as its last argument:
 * the general block's call of __lanecl_imgk_F(args, 0) (see imgd_fn). */
static LLVMValueRef general_call(LLVMValueRef f)
{
  LLVMValueRef found = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      unsigned na;
      LLVMValueRef k;
      if (LLVMIsACallInst(i) && cc_called_function(i) && (na = LLVMGetNumArgOperands(i)) > 0 &&
          LLVMIsAConstantInt(k = LLVMGetOperand(i, na - 1)) && LLVMConstIntGetZExtValue(k) == 0)
        found = i;
    }
  return found;
}

int wg_image_general_out_of_line(LLVMModuleRef m, const char *kernel, const uint32_t *fmts, uint32_t nargs)
{
  size_t klen = strlen(kernel), plen = strlen(IMGD_PREFIX "i.");
  char *bname = malloc(klen + 6);
  if (!bname)
    return 0;
  snprintf(bname, klen + 6, "%s.body", kernel);
  LLVMValueRef body = LLVMGetNamedFunction(m, bname);
  free(bname);
  if (!body || !fmts)
    return 0;
  unsigned nbody = LLVMCountParams(body), sites = 0;
  int any[WG_IMG_COPIES + 1] = {0}, match[WG_IMG_COPIES + 1], full[WG_IMG_COPIES + 1];
  for (unsigned c = 0; c <= WG_IMG_COPIES; c++)
    match[c] = full[c] = 1;
  /* Every access through an inline dispatcher: its image and its formats. */
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    if (n <= plen || memcmp(name, IMGD_PREFIX "i.", plen))
      continue;
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      if (!LLVMIsACallInst(call) || cc_called_function(call) != f)
        return 0;
      if (LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)) != body)
        continue; /* another kernel's */
      unsigned na = LLVMGetNumArgOperands(call), p = 0;
      if (na < 2 + WG_IMG_COPIES)
        return 0;
      LLVMValueRef im = LLVMGetOperand(call, 0);
      while (p < nbody && p < nargs && LLVMGetParam(body, p) != im)
        p++;
      if (p == nbody || p == nargs || !fmts[p])
        return 0; /* not an argument's image, or one the launch did not say */
      sites++;
      for (unsigned c = 1; c <= WG_IMG_COPIES; c++) {
        LLVMValueRef fc = LLVMGetOperand(call, na - WG_IMG_COPIES + c - 1);
        if (!LLVMIsAConstantInt(fc))
          return 0;
        uint32_t f32 = (uint32_t)LLVMConstIntGetZExtValue(fc);
        if (!f32) {
          full[c] = 0; /* in copy c this access takes the general path */
          continue;
        }
        any[c] = 1;
        match[c] &= fmt_in(f32, fmts[p]);
      }
    }
  }
  unsigned chosen = 0;
  for (unsigned c = 1; c <= WG_IMG_COPIES && !chosen; c++)
    if (any[c] && match[c])
      chosen = c;
  if (!sites || !chosen || !full[chosen])
    return 0;
  /* Each inline dispatcher's general call becomes a call of
   * __lanecl_imgg.F, the same builtin out of line. */
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  int done = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    const char *name = LLVMGetValueName2(f, &n);
    LLVMValueRef call, g;
    if (n <= plen || memcmp(name, IMGD_PREFIX "i.", plen) || LLVMIsDeclaration(f) || !(call = general_call(f)) ||
        !(g = imgg_fn(m, cc_called_function(call))))
      continue;
    unsigned np = LLVMCountParams(g);
    LLVMValueRef a[IMGD_MAX_PARAMS];
    for (unsigned i = 0; i < np; i++)
      a[i] = LLVMGetOperand(call, i);
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef r = LLVMBuildCall2(b, LLVMGlobalGetValueType(g), g, a, np, "");
    LLVMSetInstructionCallConv(r, LLVMGetFunctionCallConv(g));
    if (LLVMGetTypeKind(LLVMTypeOf(r)) != LLVMVoidTypeKind)
      LLVMReplaceAllUsesWith(call, r);
    LLVMInstructionEraseFromParent(call);
    done = 1;
  }
  LLVMDisposeBuilder(b);
  return done;
}

/* call (an image builtin's) replaced by a call of f with args; its
 * function attributes, name and the kernel's access group. */
static void img_replace_call(wg_gen *g, LLVMValueRef call, LLVMValueRef f, LLVMValueRef *args, unsigned n)
{
  LLVMValueRef nc = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, args, n, "");
  LLVMSetInstructionCallConv(nc, LLVMGetInstructionCallConv(call));
  unsigned nfa = LLVMGetCallSiteAttributeCount(call, LLVMAttributeFunctionIndex);
  if (nfa) {
    LLVMAttributeRef *at = malloc(nfa * sizeof(*at));
    if (at) {
      LLVMGetCallSiteAttributes(call, LLVMAttributeFunctionIndex, at);
      for (unsigned a = 0; a < nfa; a++)
        LLVMAddCallSiteAttribute(nc, LLVMAttributeFunctionIndex, at[a]);
      free(at);
    }
  }
  /* The image is a kernel argument: its accesses are the work-item's own. */
  wg_mark_parallel(g, nc);
  if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind) {
    LLVMReplaceAllUsesWith(call, nc);
    size_t nl;
    const char *nm = LLVMGetValueName2(call, &nl);
    LLVMSetValueName2(nc, nm, nl);
  }
  LLVMInstructionEraseFromParent(call);
}

/* Appends access i of image slot s (-1: none) to calls[] and slot[]; out of
 * memory: both freed, 1. */
static int push_access(LLVMValueRef **calls, int **slot, unsigned *n, unsigned *cap, LLVMValueRef i, int s)
{
  if (cc_values_push(calls, n, cap, i)) {
    free(*calls);
    free(*slot);
    return 1;
  }
  int *ns = realloc(*slot, *cap * sizeof(**slot));
  if (!ns) {
    free(*calls);
    free(*slot);
    return 1;
  }
  *slot = ns;
  (*slot)[*n - 1] = s;
  return 0;
}

/* A block of the body that accesses an image in the copies (calls an
 * __lanecl_imgd. function). */
static int block_has_imgk(LLVMBasicBlockRef bb)
{
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    if (LLVMIsACallInst(i)) {
      size_t len;
      const char *name = cc_callee_name(i, &len);
      if (name && len > strlen(IMGD_PREFIX) && !memcmp(name, IMGD_PREFIX, strlen(IMGD_PREFIX)))
        return 1;
    }
  return 0;
}

/* With boundaries: g->img_states, the regions (states below 64) whose
 * blocks access images; the others' lane loops get no copies. */
static void img_regions(wg_gen *g)
{
  cc_cfg cfg;
  if (g->nbnd >= 63 || cc_cfg_build(&cfg, g->body))
    return;
  unsigned char *in = malloc(cfg.n + 1), *has = calloc(cfg.n + 1, 1);
  unsigned *stack = malloc((cfg.n + 1) * sizeof(*stack));
  if (in && has && stack) {
    for (unsigned b = 0; b < cfg.n; b++)
      has[b] = (unsigned char)block_has_imgk(cfg.block[b]);
    uint64_t states = 0;
    for (unsigned st = 0; st <= g->nbnd; st++) {
      LLVMBasicBlockRef start = st ? g->bnd[st - 1].resume : g->start ? g->start : LLVMGetEntryBasicBlock(g->body);
      int from = cc_cfg_find(&cfg, start);
      if (from < 0)
        continue;
      cc_cfg_reach(&cfg, (unsigned)from, -1, in, stack);
      in[from] = 1;
      for (unsigned b = 0; b < cfg.n; b++)
        if (in[b] && has[b])
          states |= 1ull << st;
    }
    g->img_states = states;
  }
  free(in);
  free(has);
  free(stack);
  cc_cfg_free(&cfg);
}

/* The slot of sampler argument v of a read in g->img_smp_param, added when
 * new; -1 when v is no kernel argument or the slots are full. */
static int smp_param(wg_gen *g, LLVMValueRef v)
{
  unsigned p = 0;
  if (!LLVMIsAArgument(v))
    return -1;
  while (p < g->nparams && LLVMGetParam(g->body, p) != v)
    p++;
  if (p == g->nparams || g->ki->args[p].kind != CC_ARG_SAMPLER)
    return -1;
  for (unsigned i = 0; i < g->img_smp_n; i++)
    if (g->img_smp_param[i] == p)
      return (int)i;
  if (g->img_smp_n == WG_IMG_MAX)
    return -1;
  g->img_smp_param[g->img_smp_n] = p;
  return (int)g->img_smp_n++;
}

/* ---- sampler arguments ----
 *
 * A sampler argument's bits are the same for the whole launch, so the
 * copies of the lane loop are built once per class of them, chosen once per
 * work-group with the format, and in each class's copy the reads see bits
 * that fold as far as the class allows (bit 10 of fast: the class):
 *  - when every read through a sampler argument takes integer coordinates,
 *    only CLAMP (its border color outside the image) tells the samplers
 *    apart (filter and normalized coordinates do not apply, every other
 *    addressing mode clamps to the edge): class 0 for an addressing mode
 *    other than CLAMP, class 1 for CLAMP, each a constant sampler (without
 *    them the border's select stayed in the lane loop, a blend or, in the
 *    RGBA float copy, which stays scalar, a branch per texel);
 *  - with float coordinates: class 0 for the nearest filter, 1 for the
 *    linear one, the other bits as passed.  (Classes per filter for NONE
 *    and CLAMP_TO_EDGE as well, the addressing mode constant, doubled the
 *    copies and made such kernels' compile time 1.5 times as long, for a
 *    gain on the bilinear resize benchmark within its noise.)
 * The first class that holds for every sampler argument (and the first
 * copy whose formats match) runs; the general copy takes the rest. */

static unsigned smp_classes(const wg_gen *g)
{
  return g->img_smp_n ? 2 : 1;
}

/* The bits the reads of class v's copy see for a sampler argument's bits
 * (i64). */
static LLVMValueRef smp_class_bits(wg_gen *g, unsigned v, LLVMValueRef bits)
{
  if (!g->img_smp_float)
    return wg_c64(g, (v ? LANECL_SAMPLER_ADDRESS_CLAMP : LANECL_SAMPLER_ADDRESS_CLAMP_TO_EDGE) |
                         LANECL_SAMPLER_FILTER_NEAREST);
  uint64_t filt = v ? LANECL_SAMPLER_FILTER_LINEAR : LANECL_SAMPLER_FILTER_NEAREST;
  return LLVMBuildOr(g->b, LLVMBuildAnd(g->b, bits, wg_c64(g, ~(uint64_t)LANECL_SAMPLER_FILTER_MASK), ""),
                     wg_c64(g, filt), "");
}

/* Whether a sampler argument's bits (i64) are of class v (i1). */
static LLVMValueRef smp_class_holds(wg_gen *g, unsigned v, LLVMValueRef bits)
{
  if (!g->img_smp_float)
    return LLVMBuildICmp(g->b, v ? LLVMIntEQ : LLVMIntNE,
                         LLVMBuildAnd(g->b, bits, wg_c64(g, LANECL_SAMPLER_ADDRESS_MASK), ""),
                         wg_c64(g, LANECL_SAMPLER_ADDRESS_CLAMP), "img.smp.clamp");
  return LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, bits, wg_c64(g, LANECL_SAMPLER_FILTER_MASK), ""),
                       wg_c64(g, v ? LANECL_SAMPLER_FILTER_LINEAR : LANECL_SAMPLER_FILTER_NEAREST), "img.filter");
}

int wg_image_specialize(wg_gen *g)
{
  g->img_n = 0;
  g->img_plain = 0;
  g->img_nver = 0;
  g->img_smp_n = 0;
  g->img_smp_float = 0;
  LLVMValueRef *calls = NULL;
  int *slot = NULL;
  unsigned ncalls = 0, cap = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->body); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      wg_mangled mg;
      if (!LLVMIsACallInst(i) || !wg_demangle(i, &mg) || LLVMGetNumArgOperands(i) < 2)
        continue;
      int kind = image_call_kind(&mg);
      if (kind == K_NONE)
        continue;
      LLVMValueRef im = LLVMGetOperand(i, 0);
      unsigned p = 0;
      if (!LLVMIsAArgument(im))
        continue;
      while (p < g->nparams && LLVMGetParam(g->body, p) != im)
        p++;
      if (p == g->nparams || g->ki->args[p].kind != CC_ARG_IMAGE)
        continue;
      int s = img_slot(g, p);
      if (s < 0) {
        /* past WG_IMG_MAX: the general path in every copy */
        if (push_access(&calls, &slot, &ncalls, &cap, i, -1))
          return CC_OUT_OF_MEMORY;
        continue;
      }
      /* A sampler that is not a constant must be a kernel argument: its
       * filter then picks the copy too (see smp_param). */
      int runtime_sampler = memmem(mg.params, mg.plen, "ocl_sampler", 11) && !LLVMIsAConstant(LLVMGetOperand(i, 1));
      int other_sampler = runtime_sampler && smp_param(g, LLVMGetOperand(i, 1)) < 0;
      if (runtime_sampler && !other_sampler) {
        LLVMTypeRef ct = LLVMTypeOf(LLVMGetOperand(i, 2));
        if (LLVMGetTypeKind(ct) == LLVMVectorTypeKind)
          ct = LLVMGetElementType(ct);
        if (LLVMGetTypeKind(ct) != LLVMIntegerTypeKind)
          g->img_smp_float = 1;
      }
      int write = mg.ident[0] == 'w';
      if (kind != K_DEPTH) {
        LLVMValueRef val = LLVMGetOperand(i, LLVMGetNumArgOperands(i) - 1);
        unsigned nch = nch_of(write ? lanes_varying(val, 8) : lanes_used(i));
        /* a write guesses RG from (x, y, 0, a) only: (x, y, 0.5, 1) is
         * more likely an RGBA pixel */
        if (write && nch == 2) {
          LLVMValueRef z = lane_constant(val, 2, 8);
          if (!z || !LLVMIsNull(z))
            nch = 4;
        }
        g->img_nch[s] = nch > g->img_nch[s] ? nch : g->img_nch[s];
      }
      g->img_kind[s] = other_sampler ? K_MIXED
                       : g->img_kind[s] == K_NONE || g->img_kind[s] == kind ? kind
                                                                            : K_MIXED;
      if (push_access(&calls, &slot, &ncalls, &cap, i, s))
        return CC_OUT_OF_MEMORY;
    }
  /* The copies some image has a format for. */
  for (unsigned c = 0; c < WG_IMG_COPIES; c++)
    for (unsigned s = 0; s < g->img_n; s++)
      if (cand(g->img_kind[s], g->img_nch[s], c + 1))
        g->img_nver = c + 1;
  int any = 0, inline_general = ncalls <= IMG_INLINE_MAX;
  for (unsigned j = 0; j < ncalls; j++) {
    LLVMValueRef call = calls[j];
    wg_mangled mg;
    wg_demangle(call, &mg);
    int s = slot[j];
    if (s < 0 || g->img_kind[s] == K_MIXED || !g->img_nver)
      continue;
    int kind = g->img_kind[s];
    LLVMValueRef fk = imgk_decl(g, call, &mg);
    LLVMValueRef f = fk ? imgd_fn(g, fk, inline_general) : NULL;
    unsigned na = LLVMGetNumArgOperands(call);
    LLVMValueRef args[IMGD_MAX_PARAMS + 1 + WG_IMG_COPIES];
    if (!f || na + 1 > IMGD_MAX_PARAMS)
      continue;
    LLVMPositionBuilderBefore(g->b, call);
    for (unsigned a = 0; a < na; a++)
      args[a] = LLVMGetOperand(call, a);
    /* the copy, c = bits 8-9 of fast, and each copy's format for this
     * image (0: none, the general path) */
    LLVMValueRef c = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, g->p_fast, wg_c32(g, 8), ""), wg_c32(g, 3), "img.copy");
    args[na] = c;
    for (unsigned v = 1; v <= WG_IMG_COPIES; v++)
      args[na + v] = wg_c32(g, v <= g->img_nver ? cand(kind, g->img_nch[s], v) : 0);
    if (memmem(mg.params, mg.plen, "ocl_sampler", 11) && !LLVMIsAConstant(args[1])) {
      /* in copy c > 0 the bits of the sampler's class, bit 10 of fast
       * (see smp_classes); as passed in the general copy */
      LLVMTypeRef st = LLVMTypeOf(args[1]);
      LLVMValueRef bits = LLVMBuildPtrToInt(g->b, args[1], g->t_i64, "");
      LLVMValueRef cls = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, g->p_fast, wg_c32(g, 10), ""), wg_c32(g, 1), "img.smp.class");
      LLVMValueRef nb = bits;
      for (unsigned v = smp_classes(g); v-- > 0;)
        nb = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, cls, wg_c32(g, v), ""), smp_class_bits(g, v, bits), nb,
                             "");
      nb = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, c, wg_c32(g, 0), ""), bits, nb, "img.smp");
      args[1] = LLVMBuildIntToPtr(g->b, nb, st, "");
    }
    img_replace_call(g, call, f, args, na + 1 + WG_IMG_COPIES);
    calls[j] = NULL;
    any = 1;
  }
  /* With copies, the accesses that keep the general path in every copy
   * call it out of line too (beyond IMG_INLINE_MAX accesses). */
  for (unsigned j = 0; any && !inline_general && j < ncalls; j++) {
    LLVMValueRef call = calls[j];
    if (!call)
      continue;
    wg_mangled mg;
    wg_demangle(call, &mg);
    LLVMValueRef fk = imgk_decl(g, call, &mg);
    LLVMValueRef f = fk ? imgg_fn(g->m, fk) : NULL;
    unsigned na = LLVMGetNumArgOperands(call);
    LLVMValueRef args[IMGD_MAX_PARAMS];
    if (!f || na + 1 > IMGD_MAX_PARAMS)
      continue;
    LLVMPositionBuilderBefore(g->b, call);
    for (unsigned a = 0; a < na; a++)
      args[a] = LLVMGetOperand(call, a);
    img_replace_call(g, call, f, args, na);
  }
  free(calls);
  free(slot);
  if (!any)
    g->img_nver = 0;
  /* R and RG images of 8- and 16-bit channels: texels the loop vectorizer
   * scalarizes (x86 has no gathers of bytes or halves), under a write's
   * bounds check a branch per lane; the access rewrite (cc_wg_affine.c)
   * makes them gathers again, and clamped rows plain loads. */
  g->img_plain = 0;
  for (unsigned s = 0; g->img_nver && s < g->img_n; s++)
    if (g->img_nch[s] < 4 && (g->img_kind[s] == K_FLOAT || g->img_kind[s] == K_SINT || g->img_kind[s] == K_UINT))
      g->img_plain = 1;
  g->img_states = ~0ull;
  if (g->img_nver && g->nbnd)
    img_regions(g);
  return CC_OK;
}

/* The report's line on the copies (after the kernel's first line). */
void wg_image_report(wg_gen *g)
{
  if (g->img_nver) {
    cc_str_printf(&g->report, "  image accesses: the lane loop in %u cop%s specialized for the images' formats (",
                  g->img_nver, g->img_nver == 1 ? "y" : "ies");
    for (unsigned c = 0; c < g->img_nver; c++) {
      cc_str_printf(&g->report, "%s", c ? "; " : "");
      int first = 1;
      for (unsigned s = 0; s < g->img_n; s++) {
        int kind = g->img_kind[s];
        if (!cand(kind, g->img_nch[s], c + 1))
          continue;
        cc_str_printf(&g->report, "%s%s %s", first ? "" : ", ", g->ki->args[g->img_param[s]].name,
                      cand_name(kind, g->img_nch[s], c + 1));
        first = 0;
      }
    }
    cc_str_printf(&g->report, ")%s and one general\n",
                  !g->img_smp_n        ? ""
                  : g->img_smp_float ? ", each once per filter of the sampler argument (nearest, linear),"
                                     : ", each once for a sampler argument with addressing mode CLAMP and once with "
                                       "another,");
  }
}

/* The format of image argument v (in the work-group function), as the
 * builtins compare it: order << 16 | type. */
static LLVMValueRef load_fmt(wg_gen *g, LLVMValueRef v)
{
  LLVMValueRef f[2];
  size_t off[2] = {offsetof(struct lanecl_image, channel_order), offsetof(struct lanecl_image, channel_data_type)};
  for (unsigned i = 0; i < 2; i++) {
    LLVMValueRef idx = wg_c64(g, off[i]);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, g->t_i8, v, &idx, 1, "");
    f[i] = wg_build_load(g, g->t_i32, p, 4, 0);
    LLVMSetMetadata(f[i], g->kind_invariant, LLVMMetadataAsValue(g->c, g->empty));
  }
  return LLVMBuildOr(g->b, LLVMBuildShl(g->b, f[0], wg_c32(g, 16), ""), f[1], "img.fmt");
}

LLVMValueRef wg_image_lane_loops(wg_gen *g, const LLVMValueRef *args, const wg_lanes *ln)
{
  unsigned n = g->nparams, nargs = n + WG_NBODY_PARAMS;
  LLVMValueRef *av = malloc(nargs * sizeof(*av));
  if (!av || (ln->state < 64 && !(g->img_states >> ln->state & 1)) || !LLVMIsAConstantInt(args[n + WG_P_FAST])) {
    free(av);
    g->img_busy = 1; /* a region without image accesses (or no memory): one copy, the general one */
    LLVMValueRef r = wg_build_lane_loops(g, args, ln);
    g->img_busy = 0;
    return r;
  }
  memcpy(av, args, nargs * sizeof(*av));
  unsigned base = (unsigned)LLVMConstIntGetZExtValue(args[n + WG_P_FAST]);
  /* The descriptors can be read anywhere: their fields' loads leave the
   * lane loop also from under a branch (a write's bounds check, where
   * LLVM sinks the reads whose values only the write uses). */
  for (unsigned s = 0; s < g->img_n; s++) {
    LLVMValueRef v = args[g->img_param[s]];
    if (LLVMIsALoadInst(v) && !LLVMGetMetadata(v, LLVMGetMDKindIDInContext(g->c, "dereferenceable", 15))) {
      LLVMMetadataRef sz = LLVMValueAsMetadata(wg_c64(g, sizeof(struct lanecl_image)));
      LLVMSetMetadata(v, LLVMGetMDKindIDInContext(g->c, "dereferenceable", 15),
                      LLVMMetadataAsValue(g->c, LLVMMDNodeInContext2(g->c, &sz, 1)));
      LLVMMetadataRef al = LLVMValueAsMetadata(wg_c64(g, 8));
      LLVMSetMetadata(v, LLVMGetMDKindIDInContext(g->c, "align", 5),
                      LLVMMetadataAsValue(g->c, LLVMMDNodeInContext2(g->c, &al, 1)));
      LLVMSetMetadata(v, LLVMGetMDKindIDInContext(g->c, "noundef", 7), LLVMMetadataAsValue(g->c, g->empty));
    }
  }
  LLVMAddAttributeAtIndex(g->wg, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(g->c, WG_IMG_ATTR, strlen(WG_IMG_ATTR), "", 0));
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.img.done");
  LLVMValueRef rv[2 * WG_IMG_COPIES + 1];
  LLVMBasicBlockRef rb[2 * WG_IMG_COPIES + 1];
  unsigned nr = 0;
  g->img_busy = 1;
  /* With sampler arguments: each copy once per class of their bits (the
   * same for the whole launch), every sampler of that class. */
  unsigned ncls = smp_classes(g);
  for (unsigned c = 1; c <= g->img_nver; c++)
    for (unsigned v = 0; v < ncls; v++) {
      LLVMValueRef ok = NULL;
      for (unsigned s = 0; s < g->img_n; s++) {
        int kind = g->img_kind[s];
        uint32_t f = cand(kind, g->img_nch[s], c);
        if (!f)
          continue;
        LLVMValueRef have = load_fmt(g, args[g->img_param[s]]);
        uint32_t fs[3];
        cand_formats(f, fs);
        LLVMValueRef e = NULL;
        for (unsigned i = 0; i < 3 && fs[i]; i++) {
          LLVMValueRef q = LLVMBuildICmp(g->b, LLVMIntEQ, have, wg_c32(g, fs[i]), "");
          e = e ? LLVMBuildOr(g->b, e, q, "") : q;
        }
        ok = ok ? LLVMBuildAnd(g->b, ok, e, "") : e;
      }
      if (!ok)
        continue;
      for (unsigned j = 0; j < g->img_smp_n; j++) {
        LLVMValueRef bits = LLVMBuildPtrToInt(g->b, args[g->img_smp_param[j]], g->t_i64, "");
        ok = LLVMBuildAnd(g->b, ok, smp_class_holds(g, v, bits), "");
      }
      LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.img.copy");
      LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(g->c, g->wg, "lanes.img.next");
      LLVMBuildCondBr(g->b, ok, yes, no);
      LLVMPositionBuilderAtEnd(g->b, yes);
      av[n + WG_P_FAST] = wg_c32(g, base | c << 8 | v << 10);
      rv[nr] = wg_build_lane_loops(g, av, ln);
      rb[nr++] = LLVMGetInsertBlock(g->b);
      LLVMBuildBr(g->b, done);
      LLVMPositionBuilderAtEnd(g->b, no);
    }
  av[n + WG_P_FAST] = wg_c32(g, base);
  rv[nr] = wg_build_lane_loops(g, av, ln);
  rb[nr++] = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, done);
  g->img_busy = 0;
  free(av);
  LLVMPositionBuilderAtEnd(g->b, done);
  LLVMValueRef phi = LLVMBuildPhi(g->b, LLVMTypeOf(rv[0]), "next");
  LLVMAddIncoming(phi, rv, rb, nr);
  return phi;
}

/* ---- after O3: the whole chunks of a row written with plain stores ----
 *
 * A write's bounds check makes the texel store conditional, so the loop
 * vectorizer masks it: an RGBA texel of 32-bit channels becomes one masked
 * scatter per channel (x86's cost model does not widen a masked interleaved
 * store), an R or RGBA8 texel (a word) a masked vector store.  When W
 * work-items write W neighbouring pixels of a row, every chunk but the one
 * at the image's edge has all lanes on and consecutive addresses, so in the
 * work-group functions of kernels with image copies:
 *  - the scatters of one texel (same mask, addresses base + c * size for
 *    channels c = 0..k-1, k = 1, 2 or 4) run as one store of the k channels
 *    interleaved at base[0] when every lane is on and base[i] = base[0] +
 *    i * k * size (a test on the vectors themselves: nothing to show about
 *    wrap-around); the scatters stay for the other chunks;
 *  - a masked vector store runs as a plain store when every lane is on.
 * A group is rewritten only when nothing between its first and last access
 * touches memory and its values, mask and addresses come from before it. */

#define WG_IMG_EDGE_MD "lanecl.img.edge"

static unsigned elem_bytes(LLVMTypeRef t)
{
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(t) % 8 ? 0 : LLVMGetIntTypeWidth(t) / 8;
  case LLVMHalfTypeKind:
    return 2;
  case LLVMFloatTypeKind:
    return 4;
  case LLVMDoubleTypeKind:
    return 8;
  default:
    return 0;
  }
}

/* The addresses of a scatter as base + off bytes (a getelementptr of a
 * vector of pointers by a constant), else ptrs + 0. */
static LLVMValueRef scatter_base(LLVMValueRef ptrs, int64_t *off)
{
  *off = 0;
  if (LLVMIsAGetElementPtrInst(ptrs) && LLVMGetNumOperands(ptrs) == 2 &&
      LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(ptrs, 0))) == LLVMVectorTypeKind &&
      LLVMIsAConstantInt(LLVMGetOperand(ptrs, 1))) {
    unsigned sz = elem_bytes(LLVMGetGEPSourceElementType(ptrs));
    if (sz) {
      *off = LLVMConstIntGetSExtValue(LLVMGetOperand(ptrs, 1)) * (int64_t)sz;
      return LLVMGetOperand(ptrs, 0);
    }
  }
  return ptrs;
}

static int is_edge_access(LLVMValueRef i, LLVMMetadataRef *unused)
{
  (void)unused;
  return LLVMGetMetadata(i, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(i)), WG_IMG_EDGE_MD,
                                                     strlen(WG_IMG_EDGE_MD))) != NULL;
}

/* An instruction that may touch memory or have effects. */
static int touches_memory(LLVMValueRef i)
{
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMLoad:
  case LLVMStore:
  case LLVMCall:
  case LLVMInvoke:
  case LLVMFence:
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
  case LLVMVAArg:
    return 1;
  default:
    return 0;
  }
}

/* v is an instruction of the range [first, last] of one block. */
static int in_range(LLVMValueRef v, LLVMValueRef first, LLVMValueRef last)
{
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != LLVMGetInstructionParent(first))
    return 0;
  for (LLVMValueRef i = first; i; i = LLVMGetNextInstruction(i)) {
    if (i == v)
      return 1;
    if (i == last)
      break;
  }
  return 0;
}

/* The split: head tests cond, the fast block (returned, builder at its
 * end) and the slow one, which gets moved[0..n) in order, both go on to the
 * block of first. */
static LLVMBasicBlockRef img_branch(LLVMBuilderRef b, LLVMValueRef first, LLVMValueRef cond_of(LLVMBuilderRef, void *),
                                    void *arg, LLVMValueRef *moved, unsigned n)
{
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(first);
  LLVMBasicBlockRef head = cc_split_head(b, first, "img.chunk");
  if (!head)
    return NULL;
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(first));
  LLVMValueRef cond = cond_of(b, arg);
  LLVMBasicBlockRef fast = LLVMInsertBasicBlockInContext(c, bb, "img.chunk.whole");
  LLVMBasicBlockRef slow = LLVMInsertBasicBlockInContext(c, bb, "img.chunk.edge");
  LLVMBuildCondBr(b, cond, fast, slow);
  LLVMPositionBuilderAtEnd(b, slow);
  unsigned kind = LLVMGetMDKindIDInContext(c, WG_IMG_EDGE_MD, strlen(WG_IMG_EDGE_MD));
  for (unsigned k = 0; k < n; k++) {
    cc_move_to_builder(b, moved[k]);
    if (LLVMIsACallInst(moved[k]))
      LLVMSetMetadata(moved[k], kind, LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0)));
  }
  LLVMBuildBr(b, bb);
  LLVMPositionBuilderAtEnd(b, fast);
  LLVMValueRef br = LLVMBuildBr(b, bb);
  LLVMPositionBuilderBefore(b, br);
  return fast;
}

/* Every lane of the i1 vector m on. */
static LLVMValueRef every_lane(LLVMBuilderRef b, LLVMValueRef m)
{
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(m));
  LLVMTypeRef it = LLVMIntTypeInContext(LLVMGetTypeContext(LLVMTypeOf(m)), n);
  return LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildBitCast(b, m, it, ""), LLVMConstAllOnes(it), "img.whole");
}

static LLVMValueRef masked_store_cond(LLVMBuilderRef b, void *arg)
{
  return every_lane(b, LLVMGetOperand((LLVMValueRef)arg, 3));
}

/* A masked store whose mask is not a constant: plain when every lane is on. */
static int whole_chunk_store(LLVMBuilderRef b, LLVMValueRef call)
{
  LLVMValueRef val = LLVMGetOperand(call, 0), ptr = LLVMGetOperand(call, 1), al = LLVMGetOperand(call, 2),
               mask = LLVMGetOperand(call, 3);
  if (LLVMIsAConstant(mask) || !LLVMIsAConstantInt(al))
    return 0;
  LLVMValueRef moved[1] = {call};
  if (!img_branch(b, call, masked_store_cond, call, moved, 1))
    return 0;
  LLVMValueRef st = LLVMBuildStore(b, val, ptr);
  LLVMSetAlignment(st, (unsigned)LLVMConstIntGetZExtValue(al));
  return 1;
}

typedef struct img_group {
  LLVMValueRef call[4]; /* by channel */
  LLVMValueRef base, mask;
  unsigned k, n, stride;
} img_group;

/* base[i] = base[0] + i * stride on every lane of the mask. */
static LLVMValueRef group_cond(LLVMBuilderRef b, void *arg)
{
  img_group *g = arg;
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(g->base));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), vt = LLVMVectorType(i64, g->n);
  LLVMValueRef pi = LLVMBuildPtrToInt(b, g->base, vt, "");
  LLVMValueRef p0 = LLVMBuildExtractElement(b, pi, LLVMConstInt(LLVMInt32TypeInContext(c), 0, 0), "");
  LLVMValueRef d = LLVMBuildSub(b, pi, cc_build_splat(b, p0, g->n, ""), "");
  LLVMValueRef *lanes = malloc(g->n * sizeof(*lanes));
  if (!lanes)
    return LLVMConstInt(LLVMInt1TypeInContext(c), 0, 0);
  for (unsigned i = 0; i < g->n; i++)
    lanes[i] = LLVMConstInt(i64, (unsigned long long)i * g->stride, 0);
  LLVMValueRef eq = LLVMBuildICmp(b, LLVMIntEQ, d, LLVMConstVector(lanes, g->n), "img.rowaddr");
  free(lanes);
  if (!cc_mask_all_true(g->mask))
    eq = LLVMBuildAnd(b, eq, g->mask, "");
  return every_lane(b, eq);
}

static LLVMValueRef shuffle(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y, const unsigned *idx, unsigned n)
{
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(x)));
  LLVMValueRef *m = malloc(n * sizeof(*m));
  if (!m)
    return NULL;
  for (unsigned i = 0; i < n; i++)
    m[i] = LLVMConstInt(i32, idx[i], 0);
  LLVMValueRef r = LLVMBuildShuffleVector(b, x, y, LLVMConstVector(m, n), "");
  free(m);
  return r;
}

/* The k channel vectors interleaved: lane i * k + c = channel c's lane i. */
static LLVMValueRef interleave(LLVMBuilderRef b, LLVMValueRef *v, unsigned k, unsigned n)
{
  if (k == 1)
    return v[0];
  unsigned *idx = malloc(4 * n * sizeof(*idx));
  if (!idx)
    return NULL;
  LLVMValueRef lo = v[0], hi = v[1];
  if (k == 4) {
    for (unsigned i = 0; i < 2 * n; i++)
      idx[i] = i;
    lo = shuffle(b, v[0], v[1], idx, 2 * n);
    hi = shuffle(b, v[2], v[3], idx, 2 * n);
  }
  for (unsigned i = 0; i < n; i++)
    for (unsigned c = 0; c < k; c++)
      idx[i * k + c] = c * n + i;
  LLVMValueRef r = lo && hi ? shuffle(b, lo, hi, idx, k * n) : NULL;
  free(idx);
  return r;
}

/* The group of scatters that s (not an edge access) belongs to, rewritten;
 * 1 when it was. */
static int whole_chunk_scatters(LLVMBuilderRef b, LLVMValueRef s)
{
  img_group g;
  memset(&g, 0, sizeof(g));
  LLVMValueRef val = LLVMGetOperand(s, 0);
  LLVMTypeRef vt = LLVMTypeOf(val);
  unsigned es = elem_bytes(LLVMGetElementType(vt));
  int64_t off;
  g.base = scatter_base(LLVMGetOperand(s, 1), &off);
  g.mask = LLVMGetOperand(s, 3);
  g.n = LLVMGetVectorSize(vt);
  if (!es || LLVMGetTypeKind(LLVMTypeOf(g.base)) != LLVMVectorTypeKind)
    return 0;
  /* the members: the scatters of this block with the same base, mask and
   * type, one per channel offset */
  LLVMValueRef first = NULL, last = NULL;
  unsigned found = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetInstructionParent(s)); i; i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsACallInst(i) || !cc_callee_has_prefix(i, "llvm.masked.scatter.") || is_edge_access(i, NULL))
      continue;
    if (LLVMGetOperand(i, 3) != g.mask || LLVMTypeOf(LLVMGetOperand(i, 0)) != vt ||
        scatter_base(LLVMGetOperand(i, 1), &off) != g.base)
      continue;
    if (off < 0 || off % es || off / es >= 4 || g.call[off / es])
      return 0;
    g.call[off / es] = i;
    found++;
    first = first ? first : i;
    last = i;
  }
  while (g.k < 4 && g.call[g.k])
    g.k++;
  if (g.k != found || (g.k != 1 && g.k != 2 && g.k != 4))
    return 0;
  g.stride = g.k * es;
  /* what lies between the first and the last: nothing else touching memory;
   * the addresses of channels > 0 move with their scatters (used by nothing
   * else); values, mask and base from before */
  LLVMValueRef moved[8];
  unsigned nm = 0;
  for (LLVMValueRef i = first;; i = LLVMGetNextInstruction(i)) {
    int member = 0;
    for (unsigned c = 0; c < g.k; c++)
      member |= g.call[c] == i;
    if (member) {
      moved[nm++] = i;
    } else if (touches_memory(i)) {
      return 0;
    }
    if (i == last)
      break;
  }
  /* The values of channels > 0 may be computed between the scatters (an
   * RGBA texel of 16-bit channels is two words, the second packed after the
   * first is stored): everything else in the range touches no memory, so
   * it all goes before the first, in order, and depends only on what is
   * before it or moved with it. */
  LLVMPositionBuilderBefore(b, first);
  for (LLVMValueRef i = first == last ? NULL : LLVMGetNextInstruction(first); i && i != last;) {
    LLVMValueRef nx = LLVMGetNextInstruction(i);
    int member = 0;
    for (unsigned c = 0; c < g.k; c++)
      member |= g.call[c] == i;
    if (!member)
      cc_move_to_builder(b, i);
    i = nx;
  }
  if (in_range(g.base, first, last) || in_range(g.mask, first, last))
    return 0;
  LLVMValueRef v[4];
  for (unsigned c = 0; c < g.k; c++) {
    v[c] = LLVMGetOperand(g.call[c], 0);
    if (in_range(v[c], first, last))
      return 0;
    LLVMValueRef p = LLVMGetOperand(g.call[c], 1);
    if (p != g.base && in_range(p, first, last)) {
      if (LLVMGetNumOperands(p) != 2 || !LLVMGetFirstUse(p) || LLVMGetNextUse(LLVMGetFirstUse(p)) ||
          in_range(LLVMGetOperand(p, 0), first, last) || nm >= 8)
        return 0;
      /* before its scatter */
      for (unsigned k = 0; k < nm; k++)
        if (moved[k] == g.call[c]) {
          memmove(moved + k + 1, moved + k, (nm - k) * sizeof(*moved));
          moved[k] = p;
          nm++;
          break;
        }
    }
  }
  unsigned al = 0;
  for (unsigned c = 0; c < g.k; c++) {
    LLVMValueRef a = LLVMGetOperand(g.call[c], 2);
    unsigned x = LLVMIsAConstantInt(a) ? (unsigned)LLVMConstIntGetZExtValue(a) : 1;
    al = c == 0 || x < al ? x : al;
  }
  if (!img_branch(b, first, group_cond, &g, moved, nm))
    return 0;
  LLVMValueRef w = interleave(b, v, g.k, g.n);
  LLVMValueRef p0 = LLVMBuildExtractElement(b, g.base, LLVMConstInt(LLVMInt32TypeInContext(LLVMGetTypeContext(vt)), 0, 0),
                                            "img.row");
  LLVMValueRef st = LLVMBuildStore(b, w, p0);
  LLVMSetAlignment(st, al ? al : 1);
  return 1;
}

unsigned wg_image_stores(LLVMValueRef fn)
{
  if (!LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, WG_IMG_ATTR, strlen(WG_IMG_ATTR)))
    return 0;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(fn)));
  unsigned n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
  again:
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i) || is_edge_access(i, NULL))
        continue;
      int done = 0;
      if (cc_callee_has_prefix(i, "llvm.masked.scatter."))
        done = whole_chunk_scatters(b, i);
      else if (cc_callee_has_prefix(i, "llvm.masked.store."))
        done = whole_chunk_store(b, i);
      if (done) {
        n++;
        goto again; /* bb keeps what followed the group */
      }
    }
  }
  LLVMDisposeBuilder(b);
  return n;
}

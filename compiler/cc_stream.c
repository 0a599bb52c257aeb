/* Streaming stores (see cc_stream.h).
 *
 * Why: a regular store to a line that is not in cache reads the line first
 * (write-allocate); a non-temporal store does not.  A kernel that writes an
 * output larger than the last-level cache (vecadd, saxpy, copy over 16M
 * floats) moves a quarter to a third fewer bytes through memory with them.
 * An output that the next command reads back from cache must not stream, so
 * the runtime decides per launch (runtime/ndrange.c, from stream_bytes
 * below and the cache size) and passes the decision in ctx->flags.
 *
 * What: after O3 the lane loops' widened stores are vector stores to
 * address space 1 (LaneCL's IR keeps OpenCL's numbering after lowering:
 * __global 1, __local 3, __constant 2, private 0).  Each one of 32 bytes or
 * more becomes
 *     if (stream && (addr & (size - 1)) == 0)  store, align size, !nontemporal
 *     else                                     the original store
 * `stream` is ctx->flags & LANECL_WG_STREAM, loaded once at the entry.  The
 * alignment test is needed: buffers are aligned, but a lane loop's rows
 * start where the group starts (a local size that is not a multiple of 16)
 * and a kernel may store at c + 1; an unaligned vmovntps faults.  The x86
 * back end selects vmovntps/vmovntdq only for an aligned non-temporal store,
 * hence align size on the streaming side.
 *
 * Kernels with atomics or fences (in the work-group function or anything it
 * calls) are left alone: streaming stores are weakly ordered, so another
 * work-group (on another core) that synchronizes through an atomic could see
 * the atomic before the data.  Work-group barriers are gone by then (a group
 * runs on one thread, which sees its own stores in order).
 *
 * The fence: see add_sfence.
 */
#include "compiler/cc_stream.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STREAM_MIN_BYTES 32u   /* 256-bit stores and wider */
#define STREAM_MAX_ALIGN 64u   /* a store wider than a register is split into 64-byte ones */
#define SCAN_DEPTH 8           /* call depth searched for atomics */

static int is_wg_function_of(LLVMValueRef f, const char *kernel)
{
  size_t n = 0;
  const char *name = LLVMGetValueName2(f, &n);
  size_t p = strlen(LANECL_WG_PREFIX);
  return n == p + strlen(kernel) && !memcmp(name, LANECL_WG_PREFIX, p) && !memcmp(name + p, kernel, n - p);
}

/* 1 when f, or a function it calls (to depth), has an atomic access or a
 * fence: cross-thread ordering that streaming stores would break. */
static int has_ordering(LLVMValueRef f, int depth)
{
  if (LLVMIsDeclaration(f))
    return 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      switch (LLVMGetInstructionOpcode(i)) {
      case LLVMFence:
      case LLVMAtomicRMW:
      case LLVMAtomicCmpXchg:
        return 1;
      case LLVMLoad:
      case LLVMStore:
        if (LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
          return 1;
        break;
      case LLVMCall: {
        LLVMValueRef callee = LLVMGetCalledValue(i);
        if (!LLVMIsAFunction(callee))
          return 1;  /* indirect call or inline asm: unknown */
        if (callee != f && !LLVMGetIntrinsicID(callee) && (depth <= 0 || has_ordering(callee, depth - 1)))
          return 1;
        break;
      }
      default:
        break;
      }
    }
  return 0;
}

/* The store size in bytes of a candidate store, 0 if not one. */
static unsigned candidate_size(LLVMValueRef i, LLVMTargetDataRef td)
{
  if (LLVMGetInstructionOpcode(i) != LLVMStore || LLVMGetVolatile(i) ||
      LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
    return 0;
  LLVMValueRef ptr = LLVMGetOperand(i, 1);
  if (LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)) != CC_AS_GLOBAL)
    return 0;
  LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(i, 0));
  if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind)
    return 0;
  unsigned long long size = LLVMStoreSizeOfType(td, vt);
  if (size < STREAM_MIN_BYTES || (size & (size - 1)))
    return 0;
  /* An element that is not a whole number of bytes (i1 masks): leave it. */
  if (LLVMABISizeOfType(td, vt) != size || size % LLVMGetVectorSize(vt))
    return 0;
  return (unsigned)size;
}

/* The object a pointer is derived from through GEPs and casts. */
static LLVMValueRef base_object(LLVMValueRef p)
{
  for (int guard = 0; guard < 64; guard++) {
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
      p = LLVMGetOperand(p, 0);
    else if (LLVMIsAConstantExpr(p) &&
             (LLVMGetConstOpcode(p) == LLVMGetElementPtr || LLVMGetConstOpcode(p) == LLVMBitCast))
      p = LLVMGetOperand(p, 0);
    else
      break;
  }
  return p;
}

/* ---------------------------------------------------------------------------
 * Which stores pay (issue: streaming stores only where they pay)
 *
 * A streaming store pays only where it replaces the read of a line that a
 * regular store would do (write-allocate) and the line is written whole.
 * Two shapes lose instead:
 *  - a store to a buffer the kernel also reads (a[i] += b[i], w[i*17+j] +=):
 *    the line is in cache already, there is no read to save, and the
 *    non-temporal store evicts it and goes to memory on its own;
 *  - a store that does not fill whole lines along its loop (a work-item's
 *    16 floats every 17 or every 24): the
 *    write-combining buffer leaves with part of a line, which memory takes
 *    as a read-modify-write.
 * So a candidate streams only when (1) its buffer is a kernel argument that
 * no load (nor call) of the work-group function reads, and no load reads
 * through a pointer of unknown origin, and (2) it sits in a loop that moves
 * it by exactly the bytes that the loop's stores to the same row write:
 * the loop's stores at the same base, at constant offsets, tile the step
 * without a gap.  Arguments are told apart by their slot in the argument
 * array: two arguments that name the same buffer are taken as different
 * (a kernel that reads one and writes the other keeps streaming; that is
 * slower, never wrong).
 * ------------------------------------------------------------------------- */

#define ROOT_UNKNOWN (-1)  /* a pointer of unknown origin */
#define ROOT_PRIVATE (-2)  /* the argument array, the context, an alloca, a global variable */

/* Strips GEPs (of any index, vector ones included) and casts. */
static LLVMValueRef strip_to_base(LLVMValueRef p)
{
  for (int guard = 0; guard < 64; guard++) {
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
      p = LLVMGetOperand(p, 0);
    else if (LLVMIsAConstantExpr(p) && (LLVMGetConstOpcode(p) == LLVMGetElementPtr ||
                                        LLVMGetConstOpcode(p) == LLVMBitCast ||
                                        LLVMGetConstOpcode(p) == LLVMAddrSpaceCast))
      p = LLVMGetOperand(p, 0);
    else
      break;
  }
  return p;
}

/* The byte offset of a pointer into f's argument array (param 0): 0 for the
 * parameter, C for a constant GEP of it; -1 otherwise. */
static long long args_slot_offset(LLVMValueRef f, LLVMValueRef p, LLVMTargetDataRef td)
{
  long long off = 0;
  for (int guard = 0; guard < 8; guard++) {
    if (p == LLVMGetParam(f, 0))
      return off;
    if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2)
      return -1;
    LLVMValueRef idx = LLVMGetOperand(p, 1);
    if (!LLVMIsAConstantInt(idx))
      return -1;
    unsigned long long esz = LLVMABISizeOfType(td, LLVMGetGEPSourceElementType(p));
    off += LLVMConstIntGetSExtValue(idx) * (long long)esz;
    p = LLVMGetOperand(p, 0);
  }
  return -1;
}

/* Which argument a memory pointer of f points into: its slot (>= 0, the
 * byte offset of its entry in the argument array: a buffer argument's value
 * is `load (load args[k])`), ROOT_PRIVATE for memory that is no buffer, or
 * ROOT_UNKNOWN. */
static long long root_of(LLVMValueRef f, LLVMValueRef ptr, LLVMTargetDataRef td)
{
  LLVMTypeRef pt = LLVMTypeOf(ptr);
  if (LLVMGetTypeKind(pt) == LLVMVectorTypeKind)
    pt = LLVMGetElementType(pt);
  if (LLVMGetTypeKind(pt) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(pt) == CC_AS_LOCAL)
    return ROOT_PRIVATE;
  LLVMValueRef v = strip_to_base(ptr);
  if (LLVMIsAArgument(v) || LLVMIsAAllocaInst(v) || LLVMIsAGlobalVariable(v))
    return ROOT_PRIVATE;
  if (LLVMIsALoadInst(v)) {
    LLVMValueRef from = strip_to_base(LLVMGetOperand(v, 0));
    /* the entry of the argument array itself, or a value stored behind it
     * (a scalar argument, a buffer's pointer) */
    if (from == LLVMGetParam(f, 0) || from == LLVMGetParam(f, 1))
      return ROOT_PRIVATE;
    if (LLVMIsALoadInst(from)) {
      long long slot = args_slot_offset(f, LLVMGetOperand(from, 0), td);
      if (slot >= 0)
        return slot;
    }
  }
  return ROOT_UNKNOWN;
}

#define MAX_SLOTS 64

typedef struct {
  int unknown;                  /* a read through a pointer of unknown origin */
  unsigned n;
  long long slot[MAX_SLOTS];    /* arguments read */
} read_set;

static void read_add(read_set *r, long long root)
{
  if (root == ROOT_PRIVATE)
    return;
  if (root == ROOT_UNKNOWN || r->n == MAX_SLOTS) {
    r->unknown = 1;
    return;
  }
  for (unsigned k = 0; k < r->n; k++)
    if (r->slot[k] == root)
      return;
  r->slot[r->n++] = root;
}

static int read_has(const read_set *r, long long root)
{
  if (r->unknown)
    return 1;
  for (unsigned k = 0; k < r->n; k++)
    if (r->slot[k] == root)
      return 1;
  return 0;
}

static int name_is(LLVMValueRef callee, const char *prefix)
{
  size_t n = 0;
  const char *name = LLVMGetValueName2(callee, &n);
  size_t p = strlen(prefix);
  return n >= p && !memcmp(name, prefix, p);
}

/* Every buffer f reads: the address of each load, and each pointer operand
 * of a call but for the calls that only write through it. */
static void collect_reads(LLVMValueRef f, read_set *r, LLVMTargetDataRef td)
{
  memset(r, 0, sizeof(*r));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if (op == LLVMLoad) {
        read_add(r, root_of(f, LLVMGetOperand(i, 0), td));
      } else if (op == LLVMCall) {
        LLVMValueRef callee = LLVMGetCalledValue(i);
        if (LLVMIsAFunction(callee) &&
            (name_is(callee, "llvm.masked.store") || name_is(callee, "llvm.masked.scatter") ||
             name_is(callee, "llvm.masked.compressstore") || name_is(callee, "llvm.memset") ||
             name_is(callee, "llvm.lifetime") || name_is(callee, "llvm.assume")))
          continue;
        unsigned nops = (unsigned)LLVMGetNumArgOperands(i);
        for (unsigned k = 0; k < nops; k++) {
          LLVMValueRef a = LLVMGetOperand(i, k);
          LLVMTypeRef t = LLVMTypeOf(a);
          if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
            t = LLVMGetElementType(t);
          if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
            read_add(r, root_of(f, a, td));
        }
      }
    }
}

/* v without zext, sext and trunc. */
static LLVMValueRef strip_ext(LLVMValueRef v)
{
  while (LLVMIsAZExtInst(v) || LLVMIsASExtInst(v) || LLVMIsATruncInst(v))
    v = LLVMGetOperand(v, 0);
  return v;
}

/* c as an integer when it is one, or a vector of one integer in every
 * lane; 0 (with *ok 0) otherwise. */
static long long splat_int(LLVMValueRef c, int *ok)
{
  *ok = 0;
  if (LLVMIsAConstantInt(c)) {
    *ok = 1;
    return LLVMConstIntGetSExtValue(c);
  }
  LLVMTypeRef t = LLVMTypeOf(c);
  if (!LLVMIsAConstant(c) || LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return 0;
  unsigned n = LLVMGetVectorSize(t);
  LLVMValueRef e0 = LLVMGetAggregateElement(c, 0);
  if (!e0 || !LLVMIsAConstantInt(e0))
    return 0;
  for (unsigned k = 1; k < n; k++)
    if (LLVMGetAggregateElement(c, k) != e0)
      return 0;
  *ok = 1;
  return LLVMConstIntGetSExtValue(e0);
}

/* The constant step of an induction phi (phi = phi + step on the back
 * edge; a vector induction steps every lane alike), 0 if it is not one. */
static long long phi_step(LLVMValueRef phi)
{
  LLVMTypeRef t = LLVMTypeOf(phi);
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMCountIncoming(phi) != 2)
    return 0;
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef v = LLVMGetIncomingValue(phi, k);
    if (LLVMIsAInstruction(v) && (LLVMGetInstructionOpcode(v) == LLVMAdd)) {
      LLVMValueRef a = LLVMGetOperand(v, 0), c = LLVMGetOperand(v, 1);
      if (LLVMIsAConstant(a)) {
        LLVMValueRef t2 = a;
        a = c;
        c = t2;
      }
      int ok = 0;
      long long step = splat_int(c, &ok);
      if (a == phi && ok)
        return step;
    }
  }
  return 0;
}

/* An address as an affine form: cst + sum of coef[k] * leaf[k] bytes, over
 * the values it adds up (through add, disjoint or, sub, mul and shl by a
 * constant, zext/sext/trunc, lane 0 of a vector, GEPs); leaves are the
 * values it does not look into (inductions, loads, the base pointer). */
#define LIN_MAX 16
#define MAX_ROW 64     /* stores on one row */
typedef struct {
  int ok;
  unsigned n;
  LLVMValueRef leaf[LIN_MAX];
  long long coef[LIN_MAX];
  long long cst;
} lin_form;

static void lin_leaf(lin_form *l, LLVMValueRef v, long long coef)
{
  for (unsigned k = 0; k < l->n; k++)
    if (l->leaf[k] == v) {
      l->coef[k] += coef;
      return;
    }
  if (l->n == LIN_MAX) {
    l->ok = 0;
    return;
  }
  l->leaf[l->n] = v;
  l->coef[l->n++] = coef;
}

/* Adds coef * v to l; lane >= 0: lane `lane` of the vector v. */
static void lin_val(lin_form *l, LLVMValueRef v, long long coef, int lane, int depth)
{
  v = strip_ext(v);
  int ok = 0;
  long long c;
  if (LLVMIsAConstant(v)) {
    LLVMValueRef e = lane >= 0 && LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind
                         ? LLVMGetAggregateElement(v, (unsigned)lane) : v;
    c = e ? splat_int(e, &ok) : 0;
    if (ok)
      l->cst += coef * c;
    else
      l->ok = 0;
    return;
  }
  if (!coef)
    return;
  int vec = LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind;
  if (depth > 16 || !LLVMIsAInstruction(v)) {
    if (vec && lane != 0)
      l->ok = 0;
    else
      lin_leaf(l, v, coef);
    return;
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  switch (op) {
  case LLVMAdd:
    lin_val(l, LLVMGetOperand(v, 0), coef, lane, depth + 1);
    lin_val(l, LLVMGetOperand(v, 1), coef, lane, depth + 1);
    return;
  case LLVMOr:
    if (!LLVMGetIsDisjoint(v))
      break;
    lin_val(l, LLVMGetOperand(v, 0), coef, lane, depth + 1);
    lin_val(l, LLVMGetOperand(v, 1), coef, lane, depth + 1);
    return;
  case LLVMSub:
    lin_val(l, LLVMGetOperand(v, 0), coef, lane, depth + 1);
    lin_val(l, LLVMGetOperand(v, 1), -coef, lane, depth + 1);
    return;
  case LLVMMul:
  case LLVMShl: {
    LLVMValueRef k = LLVMGetOperand(v, 1);
    if (!LLVMIsAConstant(k))
      break;
    LLVMValueRef e = lane >= 0 && LLVMGetTypeKind(LLVMTypeOf(k)) == LLVMVectorTypeKind
                         ? LLVMGetAggregateElement(k, (unsigned)lane) : k;
    c = e ? splat_int(e, &ok) : 0;
    if (ok && op == LLVMShl)
      c = c >= 0 && c < 32 ? 1ll << c : 0;
    if (!ok || !c)
      break;
    lin_val(l, LLVMGetOperand(v, 0), coef * c, lane, depth + 1);
    return;
  }
  case LLVMExtractElement:
    c = splat_int(LLVMGetOperand(v, 1), &ok);
    if (!ok || c < 0)
      break;
    lin_val(l, LLVMGetOperand(v, 0), coef, (int)c, depth + 1);
    return;
  case LLVMInsertElement:
    if (lane < 0)
      break;
    c = splat_int(LLVMGetOperand(v, 2), &ok);
    if (!ok)
      break;
    if (c == lane)
      lin_val(l, LLVMGetOperand(v, 1), coef, -1, depth + 1);
    else
      lin_val(l, LLVMGetOperand(v, 0), coef, lane, depth + 1);
    return;
  case LLVMShuffleVector: {
    if (lane < 0)
      break;
    int m = LLVMGetMaskValue(v, (unsigned)lane);
    if (m < 0)
      break;
    LLVMValueRef a = LLVMGetOperand(v, 0);
    int na = (int)LLVMGetVectorSize(LLVMTypeOf(a));
    if (m < na)
      lin_val(l, a, coef, m, depth + 1);
    else
      lin_val(l, LLVMGetOperand(v, 1), coef, m - na, depth + 1);
    return;
  }
  default:
    break;
  }
  if (vec && lane != 0)
    l->ok = 0;   /* a lane other than the first of a value not looked into */
  else
    lin_leaf(l, v, coef);
}

static void lin_int(lin_form *l, LLVMValueRef v, long long coef, int depth)
{
  lin_val(l, v, coef, -1, depth);
}

static lin_form lin_addr(LLVMValueRef ptr, LLVMTargetDataRef td)
{
  lin_form l;
  memset(&l, 0, sizeof(l));
  l.ok = 1;
  for (int guard = 0; guard < 16 && l.ok; guard++) {
    if (LLVMIsABitCastInst(ptr) || LLVMIsAAddrSpaceCastInst(ptr)) {
      ptr = LLVMGetOperand(ptr, 0);
      continue;
    }
    if (!LLVMIsAGetElementPtrInst(ptr))
      break;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(ptr);
    unsigned nidx = (unsigned)LLVMGetNumOperands(ptr) - 1;
    for (unsigned k = 0; k < nidx && l.ok; k++) {
      LLVMValueRef idx = LLVMGetOperand(ptr, k + 1);
      if (LLVMGetTypeKind(LLVMTypeOf(idx)) == LLVMVectorTypeKind) {
        l.ok = 0;   /* a vector of addresses */
        break;
      }
      if (k == 0) {
        lin_int(&l, idx, (long long)LLVMABISizeOfType(td, t), 0);
        continue;
      }
      if (LLVMGetTypeKind(t) == LLVMStructTypeKind && LLVMIsAConstantInt(idx)) {
        unsigned f = (unsigned)LLVMConstIntGetZExtValue(idx);
        l.cst += (long long)LLVMOffsetOfElement(td, t, f);
        t = LLVMStructGetTypeAtIndex(t, f);
      } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
        t = LLVMGetElementType(t);
        lin_int(&l, idx, (long long)LLVMABISizeOfType(td, t), 0);
      } else {
        l.ok = 0;
      }
    }
    ptr = LLVMGetOperand(ptr, 0);
  }
  if (l.ok)
    lin_leaf(&l, ptr, 1);  /* the base */
  return l;
}

/* Whether a and b differ in their constant only. */
static int lin_same_row(const lin_form *a, const lin_form *b)
{
  unsigned na = 0, nb = 0;
  for (unsigned k = 0; k < a->n; k++)
    na += a->coef[k] != 0;
  for (unsigned k = 0; k < b->n; k++)
    nb += b->coef[k] != 0;
  if (na != nb)
    return 0;
  for (unsigned k = 0; k < a->n; k++) {
    if (!a->coef[k])
      continue;
    unsigned j = 0;
    while (j < b->n && b->leaf[j] != a->leaf[k])
      j++;
    if (j == b->n || b->coef[j] != a->coef[k])
      return 0;
  }
  return 1;
}

static int cmp_ll(const void *x, const void *y)
{
  long long a = *(const long long *)x, b = *(const long long *)y;
  return a < b ? -1 : a > b;
}

/* Whether stores[s] writes whole consecutive runs: in a loop whose
 * induction moves it by exactly the bytes that the candidate stores on the
 * same row (the same address but for a constant) write together, without
 * a gap or an overlap: the iterations write one run of bytes, so whole lines
 * but at the ends of the loop; and outer loops move that run by whole
 * lines. */
static int fills_lines(const lin_form *forms, const unsigned *sizes, unsigned n, unsigned s)
{
  const lin_form *me = &forms[s];
  if (!me->ok)
    return 0;
  long long offs[MAX_ROW];
  unsigned no = 0;
  for (unsigned t = 0; t < n; t++) {
    if (!forms[t].ok || !lin_same_row(me, &forms[t]))
      continue;
    if (sizes[t] != sizes[s] || no == MAX_ROW)
      return 0;
    offs[no++] = forms[t].cst;
  }
  qsort(offs, no, sizeof(offs[0]), cmp_ll);
  for (unsigned k = 1; k < no; k++)
    if (offs[k] != offs[0] + (long long)k * sizes[s])
      return 0;   /* a gap or an overlap */
  long long run = (long long)no * sizes[s];
  int inner = -1;
  for (unsigned k = 0; k < me->n && inner < 0; k++)
    if (me->coef[k] && LLVMIsAPHINode(me->leaf[k]) && phi_step(me->leaf[k]) * me->coef[k] == run)
      inner = (int)k;
  if (inner < 0)
    return 0;
  /* An outer loop (the rows of a 2D range, the groups) that moves the run
   * by a constant that is not whole lines starts each run mid-line after a
   * gap: rows of 16 floats every 17 (w[i*17 + j]) write parts of lines at
   * both ends of every row.  (A row pitch the runtime gives, get_global_size,
   * is no constant: rows that follow each other stay streamed.) */
  for (unsigned k = 0; k < me->n; k++)
    if ((int)k != inner && me->coef[k] && LLVMIsAPHINode(me->leaf[k]) &&
        (phi_step(me->leaf[k]) * me->coef[k]) % 64)
      return 0;
  return 1;
}

/* Moves everything from `at` to the end of at's block into a new block
 * after it and returns the new block; phis of the old block's successors
 * that named the old block now name the new one.  at's block is left
 * without a terminator. */
static LLVMBasicBlockRef split_before(LLVMBuilderRef b, LLVMValueRef at, const char *name)
{
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(at));
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
  LLVMBasicBlockRef next = LLVMGetNextBasicBlock(bb);
  LLVMBasicBlockRef tail = next ? LLVMInsertBasicBlockInContext(ctx, next, name)
                                : LLVMAppendBasicBlockInContext(ctx, LLVMGetBasicBlockParent(bb), name);
  LLVMPositionBuilderAtEnd(b, tail);
  for (LLVMValueRef i = at, nx; i; i = nx) {
    nx = LLVMGetNextInstruction(i);
    LLVMInstructionRemoveFromParent(i);
    LLVMInsertIntoBuilder(b, i);
  }
  LLVMValueRef term = LLVMGetBasicBlockTerminator(tail);
  unsigned nsucc = term ? LLVMGetNumSuccessors(term) : 0;
  for (unsigned s = 0; s < nsucc; s++) {
    LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
    int seen = 0;   /* a block may be a successor twice (both arms) */
    for (unsigned t = 0; t < s; t++)
      seen |= LLVMGetSuccessor(term, t) == succ;
    if (seen)
      continue;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(succ); phi && LLVMIsAPHINode(phi);) {
      LLVMValueRef nextphi = LLVMGetNextInstruction(phi);
      unsigned n = LLVMCountIncoming(phi);
      int named = 0;
      for (unsigned k = 0; k < n; k++)
        named |= LLVMGetIncomingBlock(phi, k) == bb;
      if (named) {
        /* The C API cannot set an incoming block: rebuild the phi. */
        LLVMPositionBuilderBefore(b, phi);
        LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
        for (unsigned k = 0; k < n; k++) {
          LLVMValueRef v = LLVMGetIncomingValue(phi, k);
          LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, k);
          if (from == bb)
            from = tail;
          LLVMAddIncoming(np, &v, &from, 1);
        }
        size_t len = 0;
        const char *pn = LLVMGetValueName2(phi, &len);
        char nm[128];
        snprintf(nm, sizeof(nm), "%.*s", (int)(len < 120 ? len : 120), pn);
        LLVMReplaceAllUsesWith(phi, np);
        LLVMInstructionEraseFromParent(phi);
        LLVMSetValueName2(np, nm, strlen(nm));
      }
      phi = nextphi;
    }
  }
  return tail;
}

/* Copies every metadata kind of from (tbaa, access groups, ...) onto to. */
static void copy_metadata(LLVMValueRef from, LLVMValueRef to)
{
  size_t n = 0;
  LLVMValueMetadataEntry *md = LLVMInstructionGetAllMetadataOtherThanDebugLoc(from, &n);
  for (size_t k = 0; k < n; k++)
    LLVMSetMetadata(to, LLVMValueMetadataEntriesGetKind(md, (unsigned)k),
                    LLVMMetadataAsValue(LLVMGetTypeContext(LLVMTypeOf(from)), LLVMValueMetadataEntriesGetMetadata(md, (unsigned)k)));
  if (md)
    LLVMDisposeValueMetadataEntries(md);
}

/* st (size bytes) becomes the conditional streaming store described at the
 * top. */
static void make_conditional(LLVMBuilderRef b, LLVMValueRef st, unsigned size, LLVMValueRef stream)
{
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(st));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMBasicBlockRef head = LLVMGetInstructionParent(st);
  LLVMBasicBlockRef tail = split_before(b, st, "nt.cont");
  /* The operands only now: in a loop of one block (the store's block is its
   * own successor) split_before rebuilds that block's phis, and the value or
   * the address may be one of them (a vectorized `dst[i] = i` stores its
   * induction vector). */
  LLVMValueRef val = LLVMGetOperand(st, 0), ptr = LLVMGetOperand(st, 1);
  LLVMBasicBlockRef check = LLVMInsertBasicBlockInContext(ctx, tail, "nt.check");
  LLVMBasicBlockRef nt = LLVMInsertBasicBlockInContext(ctx, tail, "nt.store");
  LLVMBasicBlockRef plain = LLVMInsertBasicBlockInContext(ctx, tail, "nt.plain");
  /* head: the launch's flag first, weighted towards the plain store: where
   * the loop runs on data in cache (the flag off) that is one predicted
   * branch and the plain store falls through (the fused scan's chunk loop
   * was 10-25% slower in lanecl-wgdirect with the flag and the alignment
   * tested together and the plain store out of line); where it streams,
   * memory hides the rest. */
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef br = LLVMBuildCondBr(b, stream, check, plain);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMMetadataRef w[3] = {LLVMMDStringInContext2(ctx, "branch_weights", 14),
                          LLVMValueAsMetadata(LLVMConstInt(i32, 1, 0)), LLVMValueAsMetadata(LLVMConstInt(i32, 64, 0))};
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(ctx, "prof", 4), LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, w, 3)));
  /* check: the alignment (an unaligned vmovntps faults) */
  LLVMPositionBuilderAtEnd(b, check);
  unsigned align = size < STREAM_MAX_ALIGN ? size : STREAM_MAX_ALIGN;
  LLVMValueRef addr = LLVMBuildPtrToInt(b, ptr, i64, "nt.addr");
  LLVMValueRef low = LLVMBuildAnd(b, addr, LLVMConstInt(i64, align - 1, 0), "nt.low");
  LLVMValueRef aligned = LLVMBuildICmp(b, LLVMIntEQ, low, LLVMConstInt(i64, 0, 0), "nt.aligned");
  LLVMBuildCondBr(b, aligned, nt, plain);
  /* nt: the streaming store */
  LLVMPositionBuilderAtEnd(b, nt);
  LLVMValueRef ns = LLVMBuildStore(b, val, ptr);
  copy_metadata(st, ns);
  LLVMSetAlignment(ns, align);
  LLVMValueRef one = LLVMConstInt(LLVMInt32TypeInContext(ctx), 1, 0);
  LLVMSetMetadata(ns, LLVMGetMDKindIDInContext(ctx, "nontemporal", 11),
                  LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, (LLVMMetadataRef[]){LLVMValueAsMetadata(one)}, 1)));
  LLVMBuildBr(b, tail);
  /* plain: the original store */
  LLVMPositionBuilderAtEnd(b, plain);
  LLVMInstructionRemoveFromParent(st);
  LLVMInsertIntoBuilder(b, st);
  LLVMBuildBr(b, tail);
}

/* Streaming stores are weakly ordered: x86 orders a core's ordinary stores
 * (TSO), but a later ordinary store (the worker's release of its part of the
 * job in scheduler/pool.c, a user event, the host thread's own flag) may
 * become visible before earlier non-temporal ones.  So every return of a
 * work-group function that streamed ends with an sfence: every store of the
 * call is globally visible before anything the caller does next, and a
 * caller (pool.c, the host thread taking part in the job, a future
 * scheduler) needs to know nothing of streaming.  The fence is here and not
 * per store or per group: one per call, and a call runs a whole span of
 * groups (lanecl_wg_ctx.group_count), so a few per launch and worker; it
 * costs only the drain of the write-combining buffers, which the bytes need
 * anyway.  (The pool's lock-prefixed fetch_add would order them on x86 too,
 * but that is an implementation detail of pool.c, not a contract.)  The
 * fence runs only when the flag is set. */
static void add_sfence(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef f, LLVMValueRef stream)
{
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  unsigned id = LLVMLookupIntrinsicID("llvm.x86.sse.sfence", 19);
  LLVMValueRef sf = LLVMGetIntrinsicDeclaration(m, id, NULL, 0);
  LLVMTypeRef sft = LLVMIntrinsicGetType(ctx, id, NULL, 0);
  LLVMValueRef rets[64];
  unsigned nret = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMGetInstructionOpcode(t) == LLVMRet && nret < 64)
      rets[nret++] = t;
  }
  for (unsigned r = 0; r < nret; r++) {
    LLVMBasicBlockRef head = LLVMGetInstructionParent(rets[r]);
    LLVMBasicBlockRef tail = split_before(b, rets[r], "nt.ret");
    LLVMBasicBlockRef fence = LLVMInsertBasicBlockInContext(ctx, tail, "nt.sfence");
    LLVMPositionBuilderAtEnd(b, head);
    LLVMBuildCondBr(b, stream, fence, tail);
    LLVMPositionBuilderAtEnd(b, fence);
    LLVMBuildCall2(b, sft, sf, NULL, 0, "");
    LLVMBuildBr(b, tail);
  }
}

/* ctx->flags & LANECL_WG_STREAM, at f's entry. */
static LLVMValueRef load_stream_flag(LLVMBuilderRef b, LLVMValueRef f)
{
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(f));
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  while (first && LLVMIsAPHINode(first))
    first = LLVMGetNextInstruction(first);
  LLVMPositionBuilderBefore(b, first);
  LLVMValueRef off = LLVMConstInt(i64, offsetof(lanecl_wg_ctx, flags), 0);
  LLVMValueRef p = LLVMBuildInBoundsGEP2(b, i8, LLVMGetParam(f, 1), &off, 1, "stream.flags.p");
  LLVMValueRef flags = LLVMBuildLoad2(b, i32, p, "stream.flags");
  LLVMSetAlignment(flags, 4);
  LLVMSetMetadata(flags, LLVMGetMDKindIDInContext(ctx, "invariant.load", 14), LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, NULL, 0)));
  LLVMValueRef bit = LLVMBuildAnd(b, flags, LLVMConstInt(i32, LANECL_WG_STREAM, 0), "");
  return LLVMBuildICmp(b, LLVMIntNE, bit, LLVMConstInt(i32, 0, 0), "stream");
}

/* Bytes per work-item of f's candidate stores: per base object (an
 * argument's buffer) the widest element stored to it.  An estimate for the
 * runtime's decision: a kernel storing a float4 per work-item through a
 * vector the vectorizer interleaved counts 4 bytes, not 16 (it errs towards
 * not streaming). */
static uint64_t bytes_per_item(LLVMValueRef *stores, unsigned n, LLVMTargetDataRef td)
{
  uint64_t total = 0;
  for (unsigned s = 0; s < n; s++) {
    LLVMValueRef base = base_object(LLVMGetOperand(stores[s], 1));
    int first = 1;
    uint64_t widest = 0;
    for (unsigned t = 0; t < n; t++) {
      if (base_object(LLVMGetOperand(stores[t], 1)) != base)
        continue;
      if (t < s) {
        first = 0;
        break;
      }
      LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(stores[t], 0));
      uint64_t elt = LLVMStoreSizeOfType(td, vt) / LLVMGetVectorSize(vt);
      if (elt > widest)
        widest = elt;
    }
    if (first)
      total += widest;
  }
  return total;
}

#define MAX_STORES 256

int cc_stream_stores(LLVMModuleRef m, LLVMTargetMachineRef tm, cc_kernel_info *kinfo, uint32_t nkernels)
{
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  int total = 0;
  for (uint32_t k = 0; k < nkernels; k++) {
    kinfo[k].stream_bytes = 0;
    LLVMValueRef f = NULL;
    for (LLVMValueRef g = LLVMGetFirstFunction(m); g && !f; g = LLVMGetNextFunction(g))
      if (!LLVMIsDeclaration(g) && is_wg_function_of(g, kinfo[k].name))
        f = g;
    if (!f || LLVMCountParams(f) != 2 || has_ordering(f, SCAN_DEPTH) ||
        LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, CC_ATTR_CHUNK_LOOPS,
                                      (unsigned)strlen(CC_ATTR_CHUNK_LOOPS)))
      continue;
    LLVMValueRef stores[MAX_STORES];
    unsigned sizes[MAX_STORES], n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        unsigned size = candidate_size(i, td);
        if (size && n < MAX_STORES) {
          sizes[n] = size;
          stores[n++] = i;
        }
      }
    /* Only the stores that pay (see above). */
    read_set reads;
    collect_reads(f, &reads, td);
    unsigned char pays[MAX_STORES];
    lin_form *forms = malloc(n * sizeof(*forms));
    for (unsigned s = 0; s < n && forms; s++)
      forms[s] = lin_addr(LLVMGetOperand(stores[s], 1), td);
    for (unsigned s = 0; s < n; s++) {
      long long root = root_of(f, LLVMGetOperand(stores[s], 1), td);
      pays[s] = forms && root >= 0 && !read_has(&reads, root) && fills_lines(forms, sizes, n, s);
    }
    free(forms);
    unsigned kept = 0;
    for (unsigned s = 0; s < n; s++)
      if (pays[s]) {
        stores[kept] = stores[s];
        sizes[kept++] = sizes[s];
      }
    n = kept;
    if (!n)
      continue;
    kinfo[k].stream_bytes = bytes_per_item(stores, n, td);
    LLVMValueRef stream = load_stream_flag(b, f);
    for (unsigned s = 0; s < n; s++)
      make_conditional(b, stores[s], sizes[s], stream);
    add_sfence(b, m, f, stream);
    total += (int)n;
  }
  LLVMDisposeBuilder(b);
  LLVMDisposeTargetData(td);
  return total;
}

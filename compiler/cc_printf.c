/* OpenCL C printf on the host's printf.
 *
 * A kernel's printf calls the host C library's printf (the kernel's shared
 * object leaves `printf` undefined; the process has it).  Two things differ
 * from C (OpenCL C 3.0, "printf"):
 *  - printf returns 0 when it succeeds and -1 when it doesn't, not a count;
 *  - a conversion may print a vector: a vector specifier `vN` (N = 2, 3, 4,
 *    8, 16) before the length modifier, which for vectors is hh (char),
 *    h (short, half), hl (int, float) or l (long, double); the elements print
 *    with the conversion, separated by commas ("%v4hlf" -> "1.0,2.0,3.0,4.0").
 * The format is a string literal, so every call is rewritten here, before the
 * work-group functions: a vector conversion becomes N conversions of the
 * elements (extracted, widened as C's variadic promotions would: integers
 * below 32 bits to int, float to double) in a new format string, and the
 * whole call stays one call of the C printf (one work-item's line stays
 * whole).  The result becomes 0 or -1.  A call whose format isn't a constant
 * string, or doesn't match its arguments, keeps its arguments.
 */
#include "compiler/cc_printf.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/cc_llvm_util.h"

typedef struct strbuf {
  char *p;
  size_t n, cap;
  int oom;
} strbuf;

static void sb_add(strbuf *s, const char *t, size_t n)
{
  if (s->oom)
    return;
  if (s->n + n + 1 > s->cap) {
    size_t cap = (s->n + n + 1) * 2;
    char *p = realloc(s->p, cap);
    if (!p) {
      s->oom = 1;
      return;
    }
    s->p = p;
    s->cap = cap;
  }
  memcpy(s->p + s->n, t, n);
  s->n += n;
  s->p[s->n] = 0;
}

/* The bytes of a constant string global that v points to (NUL excluded). */
static const char *const_string(LLVMValueRef v, size_t *len)
{
  while (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMGetElementPtr ||
                                    LLVMGetConstOpcode(v) == LLVMAddrSpaceCast ||
                                    LLVMGetConstOpcode(v) == LLVMBitCast)) {
    if (LLVMGetConstOpcode(v) == LLVMGetElementPtr)
      for (unsigned i = 1; i < (unsigned)LLVMGetNumOperands(v); i++) {
        LLVMValueRef ix = LLVMGetOperand(v, i);
        if (!LLVMIsAConstantInt(ix) || LLVMConstIntGetZExtValue(ix) != 0)
          return NULL;
      }
    v = LLVMGetOperand(v, 0);
  }
  if (!LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v))
    return NULL;
  LLVMValueRef init = LLVMGetInitializer(v);
  if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init))
    return NULL;
  size_t n;
  const char *s = LLVMGetAsString(init, &n);
  if (n && s[n - 1] == 0)
    n--;
  if (memchr(s, 0, n))
    n = strlen(s);
  *len = n;
  return s;
}

typedef struct rewrite {
  strbuf fmt;
  LLVMValueRef *args;
  unsigned nargs, cap;
} rewrite;

static int push_arg(rewrite *r, LLVMValueRef v)
{
  return cc_values_push(&r->args, &r->nargs, &r->cap, v);
}

/* Elements of the vector v printed with spec (flags, width, precision in
 * [sp, sp+splen)), length lm ("hh" "h" "hl" "l"), conversion c. */
static int expand_vector(LLVMBuilderRef b, rewrite *r, LLVMValueRef v, unsigned n, const char *sp,
                         size_t splen, const char *lm, char c)
{
  LLVMTypeRef ty = LLVMTypeOf(v);
  if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind || LLVMGetVectorSize(ty) != n)
    return 1;
  LLVMTypeRef et = LLVMGetElementType(ty);
  LLVMContextRef ctx = LLVMGetTypeContext(ty);
  int is_float = strchr("fFeEgGaA", c) != NULL, is_int = strchr("diouxXc", c) != NULL;
  const char *cl;  /* the C length modifier for one element */
  if (is_int && LLVMGetTypeKind(et) == LLVMIntegerTypeKind) {
    unsigned w = LLVMGetIntTypeWidth(et), want = !strcmp(lm, "hh") ? 8 : !strcmp(lm, "h") ? 16
                                                 : !strcmp(lm, "hl") ? 32 : 64;
    if (w != want)
      return 1;
    cl = w == 8 ? "hh" : w == 16 ? "h" : w == 32 ? "" : "l";
  } else if (is_float && (LLVMGetTypeKind(et) == LLVMFloatTypeKind ||
                          LLVMGetTypeKind(et) == LLVMDoubleTypeKind ||
                          LLVMGetTypeKind(et) == LLVMHalfTypeKind)) {
    LLVMTypeKind k = LLVMGetTypeKind(et);
    if ((k == LLVMHalfTypeKind) != !strcmp(lm, "h") || (k == LLVMFloatTypeKind) != !strcmp(lm, "hl") ||
        (k == LLVMDoubleTypeKind) != !strcmp(lm, "l"))
      return 1;
    cl = "";
  } else {
    return 1;
  }
  for (unsigned i = 0; i < n; i++) {
    if (i)
      sb_add(&r->fmt, ",", 1);
    sb_add(&r->fmt, "%", 1);
    sb_add(&r->fmt, sp, splen);
    sb_add(&r->fmt, cl, strlen(cl));
    sb_add(&r->fmt, &c, 1);
    LLVMValueRef e = LLVMBuildExtractElement(b, v, LLVMConstInt(LLVMInt32TypeInContext(ctx), i, 0), "pf.e");
    if (is_float) {
      if (LLVMGetTypeKind(et) != LLVMDoubleTypeKind)
        e = LLVMBuildFPExt(b, e, LLVMDoubleTypeInContext(ctx), "pf.d");
    } else if (LLVMGetIntTypeWidth(et) < 32) {
      int sgn = c == 'd' || c == 'i';
      e = sgn ? LLVMBuildSExt(b, e, LLVMInt32TypeInContext(ctx), "pf.i")
              : LLVMBuildZExt(b, e, LLVMInt32TypeInContext(ctx), "pf.u");
    }
    if (push_arg(r, e))
      return 1;
  }
  return 0;
}

/* Builds the new format and arguments of call; 1 when it keeps its own. */
static int plan(LLVMBuilderRef b, LLVMValueRef call, rewrite *r, int *any_vector)
{
  size_t len;
  const char *f = const_string(LLVMGetOperand(call, 0), &len);
  if (!f)
    return 1;
  unsigned nops = LLVMGetNumArgOperands(call), next = 1;
  size_t lit = 0;  /* start of the literal text not yet copied */
  for (size_t i = 0; i < len; i++) {
    if (f[i] != '%')
      continue;
    if (i + 1 < len && f[i + 1] == '%') {
      i++;
      continue;
    }
    size_t j = i + 1;
    while (j < len && strchr("-+ #0", f[j]))
      j++;
    while (j < len && f[j] >= '0' && f[j] <= '9')
      j++;
    if (j < len && f[j] == '.') {
      j++;
      while (j < len && f[j] >= '0' && f[j] <= '9')
        j++;
    }
    size_t spec_end = j;  /* flags, width, precision: [i+1, spec_end) */
    unsigned vn = 0;
    if (j < len && f[j] == 'v') {
      j++;
      while (j < len && f[j] >= '0' && f[j] <= '9')
        vn = vn * 10 + (unsigned)(f[j++] - '0');
      if (vn != 2 && vn != 3 && vn != 4 && vn != 8 && vn != 16)
        return 1;
    }
    char lm[3] = "";
    if (j + 1 < len && f[j] == 'h' && (f[j + 1] == 'h' || f[j + 1] == 'l')) {
      lm[0] = 'h', lm[1] = f[j + 1];
      j += 2;
    } else if (j < len && (f[j] == 'h' || f[j] == 'l')) {
      lm[0] = f[j++];
    }
    if (j >= len || next >= nops)
      return 1;
    char c = f[j];
    LLVMValueRef arg = LLVMGetOperand(call, next++);
    if (vn) {
      sb_add(&r->fmt, f + lit, i - lit);
      if (!lm[0] || expand_vector(b, r, arg, vn, f + i + 1, spec_end - (i + 1), lm, c))
        return 1;
      *any_vector = 1;
    } else {
      if (!strcmp(lm, "hl"))
        return 1;  /* hl is for vectors only */
      sb_add(&r->fmt, f + lit, j + 1 - lit);
      if (push_arg(r, arg))
        return 1;
    }
    lit = j + 1;
    i = j;
  }
  if (next != nops)
    return 1;
  sb_add(&r->fmt, f + lit, len - lit);
  return r->fmt.oom;
}

static void rewrite_call(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call)
{
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMValueRef fn = cc_called_function(call);
  LLVMPositionBuilderBefore(b, call);
  rewrite r = {0};
  int any_vector = 0;
  LLVMValueRef result = call;
  if (!plan(b, call, &r, &any_vector) && any_vector && r.nargs + 1 <= 256) {
    LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
    LLVMValueRef str = LLVMConstStringInContext(ctx, r.fmt.p, (unsigned)r.fmt.n, 0);
    LLVMTypeRef pty = LLVMTypeOf(LLVMGetOperand(call, 0));
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(m, LLVMTypeOf(str), ".lanecl.printf",
                                                 LLVMGetPointerAddressSpace(pty));
    LLVMSetInitializer(g, str);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    LLVMValueRef args[257];
    args[0] = g;
    memcpy(args + 1, r.args, r.nargs * sizeof(*args));
    result = LLVMBuildCall2(b, fty, fn, args, r.nargs + 1, "");
    LLVMSetInstructionCallConv(result, LLVMGetInstructionCallConv(call));
  }
  free(r.fmt.p);
  free(r.args);
  /* 0 on success, -1 on failure. */
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(result));
  LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, result, LLVMConstNull(i32), "pf.neg");
  LLVMValueRef ret = LLVMBuildSelect(b, neg, LLVMConstAllOnes(i32), LLVMConstNull(i32), "pf.ret");
  LLVMReplaceAllUsesWith(call, ret);
  LLVMSetOperand(neg, 0, result);
  if (result != call)
    LLVMInstructionEraseFromParent(call);
}

unsigned cc_printf_calls(LLVMModuleRef m)
{
  LLVMValueRef fn = LLVMGetNamedFunction(m, "printf");
  if (!fn)
    return 0;
  unsigned n = 0;
  LLVMValueRef *calls = NULL;
  unsigned cap = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef c = LLVMGetUser(u);
    if (LLVMIsACallInst(c) && cc_called_function(c) == fn &&
        LLVMGetTypeKind(LLVMTypeOf(c)) == LLVMIntegerTypeKind && LLVMGetNumArgOperands(c) >= 1 &&
        cc_values_push(&calls, &n, &cap, c))
      break;
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (unsigned i = 0; i < n; i++)
    rewrite_call(m, b, calls[i]);
  LLVMDisposeBuilder(b);
  free(calls);
  return n;
}

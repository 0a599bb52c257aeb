/* The kernel's __local variables (thread-local globals) reached through a
 * getter called once per group, not through __tls_get_addr in the lane
 * loops. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

/* ---- thread-local globals: the kernel's __local variables ----
 * cc_prepare makes them thread_local (a worker runs one group at a time).
 * Their address comes from __tls_get_addr, which LLVM's x86 back end assumes
 * preserves zmm16-zmm31; glibc's slow path (the first access of a thread:
 * it allocates and clears the block, with an AVX-512 memset) does not.  In
 * a vectorized lane loop that corrupts live registers.  So the body reads
 * each address once, through a small function of its own: an ordinary call,
 * after which the back end assumes every vector register clobbered, and
 * one that LICM hoists out of the lane loops. */

static int refers_to_tls(LLVMValueRef v, unsigned depth)
{
  if (LLVMIsAGlobalVariable(v))
    return LLVMIsThreadLocal(v);
  if (!LLVMIsAConstantExpr(v) || depth > 8)
    return 0;
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  for (unsigned i = 0; i < n; i++)
    if (refers_to_tls(LLVMGetOperand(v, i), depth + 1))
      return 1;
  return 0;
}

/* The function returning this thread's address of the thread-local gv. */
static LLVMValueRef tls_getter(wg_gen *g, LLVMValueRef gv)
{
  size_t len;
  const char *gname = LLVMGetValueName2(gv, &len);
  char name[256];
  snprintf(name, sizeof(name), "__lanecl_tls.%.*s", (int)(len < 200 ? len : 200), gname);
  LLVMValueRef f = LLVMGetNamedFunction(g->m, name);
  if (f)
    return f;
  f = LLVMAddFunction(g->m, name, LLVMFunctionType(LLVMTypeOf(gv), NULL, 0, 0));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  cc_add_fn_attr(f, "noinline");
  cc_add_fn_attr(f, "nounwind");
  cc_add_fn_attr(f, "willreturn");
  cc_add_fn_attr(f, "memory"); /* memory(none) */
  /* Through the intrinsic, not `ret @gv`: a constant return value would be
   * propagated back into the callers. */
  LLVMTypeRef pty = LLVMTypeOf(gv);
  unsigned id = LLVMLookupIntrinsicID("llvm.threadlocal.address", 24);
  LLVMValueRef intr = LLVMGetIntrinsicDeclaration(g->m, id, &pty, 1);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(g->c, f, "entry"));
  LLVMBuildRet(b, LLVMBuildCall2(b, LLVMIntrinsicGetType(g->c, id, &pty, 1), intr, &gv, 1, ""));
  LLVMDisposeBuilder(b);
  return f;
}

typedef struct tls_map {
  LLVMValueRef *gv, *addr;  /* parallel arrays */
  unsigned n, cap_gv, cap_addr;
} tls_map;

/* v with each thread-local global replaced by its address from the map;
 * constant expressions over one become instructions at the builder. */
static LLVMValueRef tls_subst(wg_gen *g, const tls_map *map, LLVMValueRef v, unsigned depth)
{
  if (depth > 8 || !refers_to_tls(v, 0))
    return v;
  if (LLVMIsAGlobalVariable(v)) {
    for (unsigned i = 0; i < map->n; i++)
      if (map->gv[i] == v)
        return map->addr[i];
    return v;
  }
  LLVMOpcode op = LLVMGetConstOpcode(v);
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  LLVMValueRef ops[16];
  if (n > 16)
    return v;
  for (unsigned i = 0; i < n; i++)
    ops[i] = tls_subst(g, map, LLVMGetOperand(v, i), depth + 1);
  switch (op) {
  case LLVMGetElementPtr:
    return LLVMIsInBounds(v) ? LLVMBuildInBoundsGEP2(g->b, LLVMGetGEPSourceElementType(v), ops[0], ops + 1, n - 1, "")
                             : LLVMBuildGEP2(g->b, LLVMGetGEPSourceElementType(v), ops[0], ops + 1, n - 1, "");
  case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMPtrToInt: case LLVMIntToPtr:
    return LLVMBuildCast(g->b, op, ops[0], LLVMTypeOf(v), "");
  default:
    return v; /* left as it is: the back end reaches the variable directly */
  }
}

/* Every use of a thread-local global in the body goes through the address
 * read once at the body's entry. */
int wg_isolate_tls(wg_gen *g)
{
  tls_map map = {0};
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(g->body);
  LLVMValueRef at = LLVMGetFirstInstruction(entry);
  while (at && LLVMIsAAllocaInst(at))
    at = LLVMGetNextInstruction(at);
  int rc = CC_OK;
  for (LLVMValueRef gv = LLVMGetFirstGlobal(g->m); gv && rc == CC_OK; gv = LLVMGetNextGlobal(gv)) {
    if (!LLVMIsThreadLocal(gv) || !LLVMGetFirstUse(gv))
      continue;
    LLVMValueRef f = tls_getter(g, gv);
    LLVMPositionBuilderBefore(g->b, at);
    LLVMValueRef addr = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, NULL, 0, "tls");
    unsigned naddr = map.n;
    if (cc_values_push(&map.gv, &map.n, &map.cap_gv, gv) || cc_values_push(&map.addr, &naddr, &map.cap_addr, addr))
      rc = CC_OUT_OF_MEMORY;
  }
  for (LLVMBasicBlockRef bb = entry; bb && rc == CC_OK && map.n; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (cc_callee_has_prefix(i, "llvm.threadlocal.address")) {
        /* Its operand must stay a global: the call itself goes. */
        LLVMPositionBuilderBefore(g->b, i);
        LLVMReplaceAllUsesWith(i, tls_subst(g, &map, LLVMGetOperand(i, 0), 0));
        LLVMInstructionEraseFromParent(i);
        continue;
      }
      unsigned n = (unsigned)LLVMGetNumOperands(i);
      for (unsigned k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k);
        if (!refers_to_tls(op, 0))
          continue;
        if (LLVMIsAPHINode(i))
          LLVMPositionBuilderBefore(g->b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(i, k)));
        else
          LLVMPositionBuilderBefore(g->b, i);
        LLVMSetOperand(i, k, tls_subst(g, &map, op, 0));
      }
    }
  /* Getters nobody calls (a variable only other kernels use) go. */
  for (unsigned i = 0; i < map.n; i++)
    if (!LLVMGetFirstUse(map.addr[i]))
      LLVMInstructionEraseFromParent(map.addr[i]);
  free(map.gv);
  free(map.addr);
  return rc;
}

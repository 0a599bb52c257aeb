/* Helpers over the LLVM-C API (see cc_llvm_util.h). */
#include "compiler/cc_llvm_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Transforms/PassBuilder.h>

static LLVMContextRef inst_context(LLVMValueRef inst)
{
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  return LLVMGetModuleContext(LLVMGetGlobalParent(fn));
}

LLVMValueRef cc_first_non_phi(LLVMBasicBlockRef bb)
{
  LLVMValueRef i = LLVMGetFirstInstruction(bb);
  while (i && LLVMIsAPHINode(i))
    i = LLVMGetNextInstruction(i);
  return i;
}

void cc_phi_retarget(LLVMBasicBlockRef bb, LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
  LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(LLVMGetBasicBlockParent(bb)));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMValueRef phi = LLVMGetFirstInstruction(bb);
  while (phi && LLVMIsAPHINode(phi)) {
    LLVMValueRef next = LLVMGetNextInstruction(phi);
    unsigned n = LLVMCountIncoming(phi), hit = 0;
    for (unsigned i = 0; i < n; i++)
      hit |= LLVMGetIncomingBlock(phi, i) == from;
    if (hit) {
      /* The C API cannot set an incoming block: build the phi again. */
      LLVMPositionBuilderBefore(b, phi);
      LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
      for (unsigned i = 0; i < n; i++) {
        LLVMValueRef v = LLVMGetIncomingValue(phi, i);
        LLVMBasicBlockRef in = LLVMGetIncomingBlock(phi, i);
        if (in == from)
          in = to;
        LLVMAddIncoming(np, &v, &in, 1);
      }
      LLVMReplaceAllUsesWith(phi, np);
      size_t len;
      const char *name = LLVMGetValueName2(phi, &len);
      char *copy = strndup(name, len);
      LLVMInstructionEraseFromParent(phi);
      if (copy)
        LLVMSetValueName2(np, copy, strlen(copy));
      free(copy);
    }
    phi = next;
  }
  LLVMDisposeBuilder(b);
}

LLVMBasicBlockRef cc_split_block_before(LLVMValueRef inst, const char *name)
{
  LLVMContextRef ctx = inst_context(inst);
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  LLVMBasicBlockRef next = LLVMGetNextBasicBlock(bb);
  LLVMBasicBlockRef nb = next ? LLVMInsertBasicBlockInContext(ctx, next, name)
                              : LLVMAppendBasicBlockInContext(ctx, fn, name);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, nb);
  LLVMValueRef i = inst;
  while (i) {
    LLVMValueRef next_i = LLVMGetNextInstruction(i);
    size_t len;
    const char *n = LLVMGetValueName2(i, &len);
    char *copy = strndup(n, len);
    LLVMInstructionRemoveFromParent(i);
    LLVMInsertIntoBuilderWithName(b, i, copy ? copy : "");
    free(copy);
    i = next_i;
  }
  LLVMValueRef term = LLVMGetBasicBlockTerminator(nb);
  if (term) {
    unsigned ns = LLVMGetNumSuccessors(term);
    for (unsigned s = 0; s < ns; s++)
      cc_phi_retarget(LLVMGetSuccessor(term, s), bb, nb);
  }
  LLVMPositionBuilderAtEnd(b, bb);
  LLVMBuildBr(b, nb);
  LLVMDisposeBuilder(b);
  return nb;
}

LLVMBasicBlockRef cc_split_block_after(LLVMValueRef inst, const char *name)
{
  return cc_split_block_before(LLVMGetNextInstruction(inst), name);
}

/* ---- demotion ---- */

int cc_value_escapes(LLVMValueRef inst)
{
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
  for (LLVMUseRef u = LLVMGetFirstUse(inst); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user))
      continue;
    if (LLVMIsAPHINode(user) || LLVMGetInstructionParent(user) != bb)
      return 1;
  }
  return 0;
}

int cc_values_push(LLVMValueRef **v, unsigned *n, unsigned *cap, LLVMValueRef x)
{
  if (*n == *cap) {
    unsigned ncap = *cap ? 2 * *cap : 16;
    LLVMValueRef *grown = realloc(*v, ncap * sizeof(**v));
    if (!grown)
      return 1;
    *v = grown;
    *cap = ncap;
  }
  (*v)[(*n)++] = x;
  return 0;
}

LLVMValueRef *cc_collect_users(LLVMValueRef v, unsigned *n)
{
  unsigned cap = 0, cnt = 0;
  LLVMValueRef *users = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    int seen = 0;
    for (unsigned i = 0; i < cnt && !seen; i++)
      seen = users[i] == user;
    if (!seen && cc_values_push(&users, &cnt, &cap, user)) {
      free(users);
      *n = 0;
      return NULL;
    }
  }
  *n = cnt;
  return users;
}

static void demote_value(LLVMBuilderRef b, LLVMValueRef inst, LLVMValueRef alloca_pos)
{
  LLVMTypeRef ty = LLVMTypeOf(inst);
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
  LLVMPositionBuilderBefore(b, alloca_pos);
  LLVMValueRef slot = LLVMBuildAlloca(b, ty, "reg2mem");

  LLVMValueRef after = LLVMIsAPHINode(inst) ? cc_first_non_phi(bb) : LLVMGetNextInstruction(inst);
  LLVMPositionBuilderBefore(b, after);
  LLVMValueRef store = LLVMBuildStore(b, inst, slot);

  unsigned nusers;
  LLVMValueRef *users = cc_collect_users(inst, &nusers);
  for (unsigned u = 0; u < nusers; u++) {
    LLVMValueRef user = users[u];
    if (!LLVMIsAInstruction(user) || user == store)
      continue;
    int is_phi = LLVMIsAPHINode(user) != NULL;
    if (!is_phi && LLVMGetInstructionParent(user) == bb)
      continue;
    unsigned nops = LLVMGetNumOperands(user);
    LLVMBasicBlockRef cached_bb = NULL;
    LLVMValueRef cached = NULL;
    for (unsigned k = 0; k < nops; k++) {
      if (LLVMGetOperand(user, k) != inst)
        continue;
      if (is_phi) {
        LLVMBasicBlockRef in = LLVMGetIncomingBlock(user, k);
        if (in != cached_bb) {
          LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(in));
          cached = LLVMBuildLoad2(b, ty, slot, "reload");
          cached_bb = in;
        }
        LLVMSetOperand(user, k, cached);
      } else {
        LLVMPositionBuilderBefore(b, user);
        LLVMSetOperand(user, k, LLVMBuildLoad2(b, ty, slot, "reload"));
      }
    }
  }
  free(users);
}

static void demote_phi(LLVMBuilderRef b, LLVMValueRef phi, LLVMValueRef alloca_pos)
{
  LLVMTypeRef ty = LLVMTypeOf(phi);
  LLVMPositionBuilderBefore(b, alloca_pos);
  LLVMValueRef slot = LLVMBuildAlloca(b, ty, "phi2mem");
  unsigned n = LLVMCountIncoming(phi);
  for (unsigned i = 0; i < n; i++) {
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(phi, i)));
    LLVMBuildStore(b, LLVMGetIncomingValue(phi, i), slot);
  }
  LLVMPositionBuilderBefore(b, cc_first_non_phi(LLVMGetInstructionParent(phi)));
  LLVMValueRef ld = LLVMBuildLoad2(b, ty, slot, "phi.reload");
  LLVMReplaceAllUsesWith(phi, ld);
  LLVMInstructionEraseFromParent(phi);
}

/* Instructions of fn matching pred, malloc'd (*n of them; none when out of memory). */
static LLVMValueRef *collect_insts(LLVMValueRef fn, int (*pred)(LLVMValueRef), unsigned *n)
{
  unsigned cap = 0, cnt = 0;
  LLVMValueRef *v = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (pred(i) && cc_values_push(&v, &cnt, &cap, i)) {
        free(v);
        *n = 0;
        return NULL;
      }
  *n = cnt;
  return v;
}

static int needs_value_demotion(LLVMValueRef i)
{
  if (LLVMIsAAllocaInst(i) || LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind ||
      LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMTokenTypeKind || LLVMIsATerminatorInst(i))
    return 0;
  return cc_value_escapes(i);
}

static int is_phi(LLVMValueRef i)
{
  return LLVMIsAPHINode(i) != NULL;
}

unsigned cc_demote_cross_block(LLVMValueRef fn, LLVMValueRef alloca_pos)
{
  LLVMBuilderRef b = LLVMCreateBuilderInContext(inst_context(alloca_pos));
  unsigned n, total = 0;
  LLVMValueRef *v = collect_insts(fn, needs_value_demotion, &n);
  for (unsigned i = 0; i < n; i++)
    demote_value(b, v[i], alloca_pos);
  total += n;
  free(v);
  v = collect_insts(fn, is_phi, &n);
  for (unsigned i = 0; i < n; i++)
    demote_phi(b, v[i], alloca_pos);
  total += n;
  free(v);
  LLVMDisposeBuilder(b);
  return total;
}

/* ---- a pointer -> index map ---- */

int cc_ptrmap_init(cc_ptrmap *pm, size_t n)
{
  size_t cap = 16;
  while (cap < 2 * n + 16)
    cap *= 2;
  pm->keys = calloc(cap, sizeof(*pm->keys));
  pm->vals = calloc(cap, sizeof(*pm->vals));
  pm->mask = cap - 1;
  return pm->keys && pm->vals ? 0 : 1;
}

void cc_ptrmap_free(cc_ptrmap *pm)
{
  free(pm->keys);
  free(pm->vals);
  pm->keys = NULL;
  pm->vals = NULL;
}

static size_t ptrmap_pos(const cc_ptrmap *pm, const void *key)
{
  size_t h = ((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull;
  size_t i = (h >> 20) & pm->mask;
  while (pm->keys[i] && pm->keys[i] != key)
    i = (i + 1) & pm->mask;
  return i;
}

void cc_ptrmap_put(cc_ptrmap *pm, const void *key, unsigned val)
{
  size_t i = ptrmap_pos(pm, key);
  pm->keys[i] = key;
  pm->vals[i] = val;
}

int cc_ptrmap_get(const cc_ptrmap *pm, const void *key, unsigned *val)
{
  if (!pm->keys)
    return 0;
  size_t i = ptrmap_pos(pm, key);
  if (!pm->keys[i])
    return 0;
  *val = pm->vals[i];
  return 1;
}

/* ---- calls ---- */

LLVMValueRef cc_called_function(LLVMValueRef call)
{
  if (!LLVMIsACallInst(call))
    return NULL;
  LLVMValueRef f = LLVMGetCalledValue(call);
  return f && LLVMIsAFunction(f) ? f : NULL;
}

const char *cc_callee_name(LLVMValueRef call, size_t *len)
{
  LLVMValueRef f = cc_called_function(call);
  *len = 0;
  return f ? LLVMGetValueName2(f, len) : NULL;
}

int cc_callee_has_prefix(LLVMValueRef call, const char *prefix)
{
  size_t len, plen = strlen(prefix);
  const char *name = cc_callee_name(call, &len);
  return name && len >= plen && !memcmp(name, prefix, plen);
}

/* ---- metadata ---- */

LLVMMetadataRef cc_md_distinct_empty(LLVMContextRef ctx)
{
  static const char src[] = "!lanecl.tmp = !{!0}\n!0 = distinct !{}\n";
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(src, sizeof(src) - 1, "ag");
  LLVMModuleRef tmp = NULL;
  char *msg = NULL;
  if (LLVMParseIRInContext(ctx, buf, &tmp, &msg)) {
    LLVMDisposeMessage(msg);
    return NULL;
  }
  LLVMValueRef op = NULL;
  if (LLVMGetNamedMetadataNumOperands(tmp, "lanecl.tmp") == 1)
    LLVMGetNamedMetadataOperands(tmp, "lanecl.tmp", &op);
  /* Distinct nodes belong to the context: the node outlives the module. */
  LLVMMetadataRef md = op ? LLVMValueAsMetadata(op) : NULL;
  LLVMDisposeModule(tmp);
  return md;
}

LLVMMetadataRef cc_md_loop_id(LLVMContextRef ctx, LLVMMetadataRef *ops, unsigned n)
{
  LLVMMetadataRef all[16];
  if (n + 1 > sizeof(all) / sizeof(all[0]))
    n = sizeof(all) / sizeof(all[0]) - 1;
  LLVMMetadataRef tmp = LLVMTemporaryMDNode(ctx, NULL, 0);
  all[0] = tmp;
  for (unsigned i = 0; i < n; i++)
    all[i + 1] = ops[i];
  LLVMMetadataRef node = LLVMMDNodeInContext2(ctx, all, n + 1);
  /* Self-reference makes the node distinct; this also frees tmp. */
  LLVMMetadataReplaceAllUsesWith(tmp, node);
  return node;
}

static LLVMMetadataRef md_prop(LLVMContextRef ctx, const char *name, LLVMMetadataRef v)
{
  LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(ctx, name, strlen(name)), v};
  return LLVMMDNodeInContext2(ctx, ops, 2);
}

LLVMMetadataRef cc_md_prop_bool(LLVMContextRef ctx, const char *name, int v)
{
  return md_prop(ctx, name, LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(ctx), v != 0, 0)));
}

LLVMMetadataRef cc_md_prop_i32(LLVMContextRef ctx, const char *name, unsigned v)
{
  return md_prop(ctx, name, LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), v, 0)));
}

LLVMMetadataRef cc_md_prop_node(LLVMContextRef ctx, const char *name, LLVMMetadataRef node)
{
  return md_prop(ctx, name, node);
}

void cc_md_set(LLVMValueRef inst, const char *kind, LLVMMetadataRef node)
{
  LLVMContextRef ctx = inst_context(inst);
  LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(ctx, kind, strlen(kind)), LLVMMetadataAsValue(ctx, node));
}

unsigned cc_attr_kind(const char *name)
{
  return LLVMGetEnumAttributeKindForName(name, strlen(name));
}

/* ---- vector loads and stores, element by element ---- */

static int splittable_vector(LLVMTypeRef ty)
{
  if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
    return 0;
  LLVMTypeRef e = LLVMGetElementType(ty);
  switch (LLVMGetTypeKind(e)) {
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(e) % 8 == 0;
  case LLVMHalfTypeKind: case LLVMBFloatTypeKind: case LLVMFloatTypeKind: case LLVMDoubleTypeKind:
  case LLVMPointerTypeKind:
    return 1;
  default:
    return 0;
  }
}

static int is_split_candidate(LLVMValueRef i)
{
  if (LLVMIsALoadInst(i))
    return !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic && splittable_vector(LLVMTypeOf(i));
  if (LLVMIsAStoreInst(i))
    return !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic &&
           splittable_vector(LLVMTypeOf(LLVMGetOperand(i, 0)));
  return 0;
}

/* The alignment known at byte offset off from an address aligned to align. */
static unsigned offset_align(unsigned align, uint64_t off)
{
  while (align > 1 && off % align)
    align /= 2;
  return align ? align : 1;
}

unsigned cc_split_vector_memory(LLVMValueRef fn)
{
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  unsigned ag = LLVMGetMDKindIDInContext(ctx, "llvm.access.group", 17);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  unsigned n;
  LLVMValueRef *v = collect_insts(fn, is_split_candidate, &n);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef i = v[k];
    int is_load = LLVMIsALoadInst(i) != NULL;
    LLVMTypeRef vty = is_load ? LLVMTypeOf(i) : LLVMTypeOf(LLVMGetOperand(i, 0));
    LLVMTypeRef ety = LLVMGetElementType(vty);
    LLVMValueRef ptr = LLVMGetOperand(i, is_load ? 0 : 1);
    LLVMValueRef group = LLVMGetMetadata(i, ag);
    unsigned count = LLVMGetVectorSize(vty), align = LLVMGetAlignment(i);
    uint64_t esize = LLVMABISizeOfType(td, ety);
    LLVMValueRef acc = LLVMGetPoison(vty);
    LLVMPositionBuilderBefore(b, i);
    for (unsigned e = 0; e < count; e++) {
      LLVMValueRef idx = LLVMConstInt(i32, e, 0);
      LLVMValueRef p = LLVMBuildInBoundsGEP2(b, ety, ptr, &idx, 1, "");
      LLVMValueRef mem;
      if (is_load) {
        mem = LLVMBuildLoad2(b, ety, p, "");
        acc = LLVMBuildInsertElement(b, acc, mem, idx, "");
      } else {
        mem = LLVMBuildStore(b, LLVMBuildExtractElement(b, LLVMGetOperand(i, 0), idx, ""), p);
      }
      LLVMSetAlignment(mem, offset_align(align, e * esize));
      if (group)
        LLVMSetMetadata(mem, ag, group);
    }
    if (is_load)
      LLVMReplaceAllUsesWith(i, acc);
    LLVMInstructionEraseFromParent(i);
  }
  LLVMDisposeBuilder(b);
  free(v);
  return n;
}

/* ---- passes on some functions ---- */

int cc_run_passes_on(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, LLVMValueRef *fns, unsigned n,
                     char **err)
{
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  unsigned optnone = cc_attr_kind("optnone"), noinline = cc_attr_kind("noinline");
  unsigned count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    count++;
  /* Per function: bit 0 = we added optnone, bit 1 = we added noinline. */
  unsigned char *added = calloc(count + 1, 1);
  if (!added) {
    *err = strdup("out of memory");
    return 1;
  }
  unsigned i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f), i++) {
    int chosen = 0;
    for (unsigned k = 0; k < n && !chosen; k++)
      chosen = fns[k] == f;
    if (chosen || LLVMIsDeclaration(f))
      continue;
    if (!LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone)) {
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, optnone, 0));
      added[i] |= 1;
    }
    if (!LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline)) {
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, noinline, 0));
      added[i] |= 2;
    }
  }
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m, passes, tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && i < count; f = LLVMGetNextFunction(f), i++) {
    if (added[i] & 1)
      LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone);
    if (added[i] & 2)
      LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline);
  }
  free(added);
  if (!e)
    return 0;
  char *msg = LLVMGetErrorMessage(e);
  *err = strdup(msg ? msg : "pass pipeline failed");
  LLVMDisposeErrorMessage(msg);
  return 1;
}

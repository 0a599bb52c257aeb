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

void cc_move_to_builder(LLVMBuilderRef b, LLVMValueRef inst)
{
  size_t len;
  const char *n = LLVMGetValueName2(inst, &len);
  char *copy = strndup(n, len);
  LLVMInstructionRemoveFromParent(inst);
  LLVMInsertIntoBuilderWithName(b, inst, copy ? copy : "");
  free(copy);
}

LLVMBasicBlockRef cc_split_head(LLVMBuilderRef b, LLVMValueRef inst, const char *name)
{
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
  /* the branches into bb, collected first: retargeting them changes bb's
   * list of uses */
  unsigned nuse;
  LLVMValueRef *users = cc_collect_users(LLVMBasicBlockAsValue(bb), &nuse);
  if (!users)
    return NULL;
  LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(LLVMGetTypeContext(LLVMTypeOf(inst)), bb, name);
  for (unsigned k = 0; k < nuse; k++) {
    if (!LLVMIsAInstruction(users[k]) || !LLVMIsATerminatorInst(users[k]))
      continue;
    for (unsigned s = 0; s < LLVMGetNumSuccessors(users[k]); s++)
      if (LLVMGetSuccessor(users[k], s) == bb)
        LLVMSetSuccessor(users[k], s, head);
  }
  free(users);
  LLVMPositionBuilderAtEnd(b, head);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i != inst;) {
    LLVMValueRef next = LLVMGetNextInstruction(i);
    cc_move_to_builder(b, i);
    i = next;
  }
  return head;
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
    cc_move_to_builder(b, i);
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

int cc_mask_all_true(LLVMValueRef mask)
{
  if (!LLVMIsAConstant(mask))
    return 0;
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(mask));
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef e = LLVMGetAggregateElement(mask, k);
    if (!e || !LLVMIsAConstantInt(e) || !LLVMConstIntGetZExtValue(e))
      return 0;
  }
  return 1;
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

void cc_add_fn_attr(LLVMValueRef f, const char *name)
{
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(f));
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, cc_attr_kind(name), 0));
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

/* ---- control-flow graph and dominators ---- */

static unsigned cfg_intersect(const unsigned *idom, unsigned a, unsigned b)
{
  while (a != b) {
    while (a > b)
      a = idom[a];
    while (b > a)
      b = idom[b];
  }
  return a;
}

int cc_cfg_build(cc_cfg *cfg, LLVMValueRef fn)
{
  memset(cfg, 0, sizeof(*cfg));
  unsigned nb = LLVMCountBasicBlocks(fn);
  if (!nb)
    return 0;
  LLVMBasicBlockRef *post = malloc(nb * sizeof(*post));
  struct dfs { LLVMBasicBlockRef bb; unsigned next; } *stack = malloc(nb * sizeof(*stack));
  cc_ptrmap seen = {0};
  cfg->block = malloc(nb * sizeof(*cfg->block));
  cfg->idom = malloc(nb * sizeof(*cfg->idom));
  cfg->pred_start = calloc(nb + 1, sizeof(*cfg->pred_start));
  int rc = 1;
  if (!post || !stack || !cfg->block || !cfg->idom || !cfg->pred_start || cc_ptrmap_init(&seen, nb) ||
      cc_ptrmap_init(&cfg->index, nb))
    goto done;
  /* Post-order by an explicit depth-first search. */
  unsigned sp = 0, np = 0;
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  stack[sp++] = (struct dfs){entry, 0};
  cc_ptrmap_put(&seen, entry, 1);
  while (sp) {
    struct dfs *f = &stack[sp - 1];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(f->bb);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0, v;
    if (f->next < ns) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(t, f->next++);
      if (!cc_ptrmap_get(&seen, s, &v)) {
        cc_ptrmap_put(&seen, s, 1);
        stack[sp++] = (struct dfs){s, 0};
      }
    } else {
      post[np++] = f->bb;
      sp--;
    }
  }
  cfg->n = np;
  for (unsigned i = 0; i < np; i++) {
    cfg->block[i] = post[np - 1 - i];
    cc_ptrmap_put(&cfg->index, cfg->block[i], i);
  }
  /* Predecessors (reachable ones only). */
  unsigned total = 0, v;
  for (unsigned i = 0; i < np; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[i]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns; s++)
      if (cc_ptrmap_get(&cfg->index, LLVMGetSuccessor(t, s), &v)) {
        cfg->pred_start[v + 1]++;
        total++;
      }
  }
  for (unsigned i = 0; i < np; i++)
    cfg->pred_start[i + 1] += cfg->pred_start[i];
  cfg->pred = malloc((total + 1) * sizeof(*cfg->pred));
  unsigned *fill = calloc(np + 1, sizeof(*fill));
  if (!cfg->pred || !fill) {
    free(fill);
    goto done;
  }
  for (unsigned i = 0; i < np; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[i]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns; s++)
      if (cc_ptrmap_get(&cfg->index, LLVMGetSuccessor(t, s), &v))
        cfg->pred[cfg->pred_start[v] + fill[v]++] = i;
  }
  free(fill);
  /* Immediate dominators: iterate to the fixed point in reverse post-order. */
  const unsigned undef = ~0u;
  for (unsigned i = 0; i < np; i++)
    cfg->idom[i] = undef;
  cfg->idom[0] = 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned i = 1; i < np; i++) {
      unsigned nd = undef;
      for (unsigned k = cfg->pred_start[i]; k < cfg->pred_start[i + 1]; k++) {
        unsigned p = cfg->pred[k];
        if (cfg->idom[p] == undef)
          continue;
        nd = nd == undef ? p : cfg_intersect(cfg->idom, p, nd);
      }
      if (nd != cfg->idom[i]) {
        cfg->idom[i] = nd;
        changed = 1;
      }
    }
  }
  rc = 0;
done:
  free(post);
  free(stack);
  cc_ptrmap_free(&seen);
  if (rc)
    cc_cfg_free(cfg);
  return rc;
}

void cc_cfg_free(cc_cfg *cfg)
{
  free(cfg->block);
  free(cfg->idom);
  free(cfg->pred_start);
  free(cfg->pred);
  cc_ptrmap_free(&cfg->index);
  memset(cfg, 0, sizeof(*cfg));
}

int cc_cfg_find(const cc_cfg *cfg, LLVMBasicBlockRef bb)
{
  unsigned v;
  return cc_ptrmap_get(&cfg->index, bb, &v) ? (int)v : -1;
}

int cc_cfg_dominates(const cc_cfg *cfg, unsigned a, unsigned b)
{
  while (b != a && b != 0)
    b = cfg->idom[b];
  return b == a;
}

int cc_cfg_postdom(const cc_cfg *cfg, unsigned *ipdom)
{
  unsigned n = cfg->n, V = n;
  /* Reverse graph: node V's successors are the exit blocks, block b's are
   * its predecessors.  Post-order of a depth-first search from V. */
  unsigned *order = malloc((n + 1) * sizeof(*order)), *num = malloc((n + 1) * sizeof(*num));
  unsigned *exits = malloc((n + 1) * sizeof(*exits));
  struct dfs { unsigned b, next; } *stack = malloc((n + 1) * sizeof(*stack));
  unsigned *pd = malloc((n + 1) * sizeof(*pd));
  int rc = 1;
  if (!order || !num || !exits || !stack || !pd)
    goto done;
  const unsigned undef = ~0u;
  unsigned nexit = 0;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[i]);
    if (!t || LLVMGetNumSuccessors(t) == 0)
      exits[nexit++] = i;
  }
  for (unsigned i = 0; i <= n; i++)
    num[i] = undef;
  unsigned sp = 0, np = 0;
  stack[sp++] = (struct dfs){V, 0};
  num[V] = 0;
  while (sp) {
    struct dfs *f = &stack[sp - 1];
    unsigned cnt = f->b == V ? nexit : cfg->pred_start[f->b + 1] - cfg->pred_start[f->b];
    if (f->next < cnt) {
      unsigned s = f->b == V ? exits[f->next] : cfg->pred[cfg->pred_start[f->b] + f->next];
      f->next++;
      if (num[s] == undef) {
        num[s] = 0;
        stack[sp++] = (struct dfs){s, 0};
      }
    } else {
      order[np++] = f->b;
      sp--;
    }
  }
  /* num: reverse post-order index (V is 0). */
  for (unsigned i = 0; i < np; i++)
    num[order[i]] = np - 1 - i;
  for (unsigned i = 0; i <= n; i++)
    pd[i] = undef;
  pd[V] = V;
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned k = np; k-- > 0;) {
      unsigned b = order[k];
      if (b == V)
        continue;
      /* Its "predecessors" in the reverse graph: its successors, and V for an exit. */
      unsigned nd = undef;
      LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[b]);
      unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
      for (unsigned s = 0; s <= ns; s++) {
        unsigned p;
        if (s == ns) {
          if (ns)
            break;
          p = V;
        } else {
          int pi = cc_cfg_find(cfg, LLVMGetSuccessor(t, s));
          if (pi < 0)
            continue;
          p = (unsigned)pi;
        }
        if (pd[p] == undef)
          continue;
        if (nd == undef) {
          nd = p;
          continue;
        }
        unsigned a = p, c = nd;
        while (a != c) {
          while (num[a] > num[c])
            a = pd[a];
          while (num[c] > num[a])
            c = pd[c];
        }
        nd = a;
      }
      if (nd != pd[b]) {
        pd[b] = nd;
        changed = 1;
      }
    }
  }
  for (unsigned i = 0; i < n; i++)
    ipdom[i] = pd[i];
  rc = 0;
done:
  free(order);
  free(num);
  free(exits);
  free(stack);
  free(pd);
  return rc;
}

void cc_cfg_reach(const cc_cfg *cfg, unsigned from, int stop, unsigned char *in, unsigned *stack)
{
  unsigned sp = 0;
  memset(in, 0, cfg->n + 1);
  stack[sp++] = from;
  while (sp) {
    unsigned b = stack[--sp];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[b]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns; s++) {
      int si = cc_cfg_find(cfg, LLVMGetSuccessor(t, s));
      if (si < 0 || si == stop || in[si])
        continue;
      in[si] = 1;
      stack[sp++] = (unsigned)si;
    }
  }
}

unsigned cc_cfg_loop(const cc_cfg *cfg, unsigned header, unsigned latch, unsigned char *in)
{
  unsigned *stack = malloc((cfg->n + 1) * sizeof(*stack)), sp = 0, count = 0;
  if (!stack)
    return 0;
  if (!in[header]) {
    in[header] = 1;
    count++;
  }
  if (!in[latch]) {
    in[latch] = 1;
    count++;
    stack[sp++] = latch;
  }
  while (sp) {
    unsigned b = stack[--sp];
    for (unsigned k = cfg->pred_start[b]; k < cfg->pred_start[b + 1]; k++) {
      unsigned p = cfg->pred[k];
      if (!in[p]) {
        in[p] = 1;
        count++;
        stack[sp++] = p;
      }
    }
  }
  free(stack);
  return count;
}

/* ---- loop metadata ---- */

/* The operands of br's loop id (malloc'd, *n of them, the self reference
 * first); NULL when br has none. */
static LLVMValueRef *loop_id_ops(LLVMValueRef br, unsigned *n)
{
  LLVMContextRef ctx = inst_context(br);
  LLVMValueRef id = LLVMGetMetadata(br, LLVMGetMDKindIDInContext(ctx, "llvm.loop", 9));
  *n = 0;
  if (!id)
    return NULL;
  unsigned k = LLVMGetMDNodeNumOperands(id);
  LLVMValueRef *ops = malloc((k + 1) * sizeof(*ops));
  if (!ops)
    return NULL;
  LLVMGetMDNodeOperands(id, ops);
  *n = k;
  return ops;
}

/* The property name of a loop id operand ({!"name", value...}), or NULL. */
static const char *loop_op_name(LLVMValueRef op, unsigned *len)
{
  if (!op || !LLVMIsAMDNode(op) || LLVMGetMDNodeNumOperands(op) < 1)
    return NULL;
  LLVMValueRef first[8];
  if (LLVMGetMDNodeNumOperands(op) > 8)
    return NULL;
  LLVMGetMDNodeOperands(op, first);
  return first[0] && LLVMIsAMDString(first[0]) ? LLVMGetMDString(first[0], len) : NULL;
}

LLVMValueRef cc_loop_prop(LLVMValueRef br, const char *name)
{
  unsigned n, len;
  LLVMValueRef *ops = loop_id_ops(br, &n), res = NULL;
  for (unsigned i = 1; i < n && !res; i++) {
    const char *s = loop_op_name(ops[i], &len);
    if (s && len == strlen(name) && !memcmp(s, name, len) && LLVMGetMDNodeNumOperands(ops[i]) >= 2) {
      LLVMValueRef two[8];
      LLVMGetMDNodeOperands(ops[i], two);
      res = two[1];
    }
  }
  free(ops);
  return res;
}

LLVMMetadataRef cc_loop_debug_loc(LLVMValueRef br)
{
  unsigned n;
  LLVMValueRef *ops = loop_id_ops(br, &n);
  LLVMMetadataRef res = NULL;
  for (unsigned i = 1; i < n && !res; i++) {
    if (!ops[i] || !LLVMIsAMDNode(ops[i]))
      continue;
    LLVMMetadataRef md = LLVMValueAsMetadata(ops[i]);
    if (LLVMGetMetadataKind(md) == LLVMDILocationMetadataKind)
      res = md;
  }
  free(ops);
  return res;
}

/* A new loop id for br: its properties but those named name (prefix: or
 * starting with name) replaced by node (dropped when node is NULL). */
static void loop_id_rebuild(LLVMValueRef br, const char *name, int prefix, LLVMMetadataRef node, int append)
{
  unsigned n, len, k = 0;
  LLVMValueRef *ops = loop_id_ops(br, &n);
  LLVMMetadataRef *keep = malloc((n + 2) * sizeof(*keep));
  if (ops && keep) {
    size_t nlen = strlen(name);
    for (unsigned i = 1; i < n; i++) {
      if (!ops[i])
        continue;
      const char *s = loop_op_name(ops[i], &len);
      if (s && (prefix ? len >= nlen : len == nlen) && !memcmp(s, name, nlen)) {
        if (node)
          keep[k++] = node;
        node = NULL;
        continue;
      }
      keep[k++] = LLVMValueAsMetadata(ops[i]);
    }
    if (append && node)
      keep[k++] = node;
    cc_md_set(br, "llvm.loop", cc_md_loop_id(inst_context(br), keep, k));
  }
  free(ops);
  free(keep);
}

void cc_loop_drop_props(LLVMValueRef br, const char *prefix)
{
  loop_id_rebuild(br, prefix, 1, NULL, 0);
}

void cc_loop_replace_prop(LLVMValueRef br, const char *name, LLVMMetadataRef node)
{
  loop_id_rebuild(br, name, 0, node, 0);
}

void cc_loop_set_prop(LLVMValueRef br, const char *name, LLVMMetadataRef node)
{
  loop_id_rebuild(br, name, 0, node, 1);
}

/* ---- debug locations for remarks ---- */

LLVMMetadataRef cc_dbg_scope(cc_dbg *d, LLVMModuleRef m, const char *name)
{
  size_t n = strlen(name);
  if (!d->b) {
    d->b = LLVMCreateDIBuilderDisallowUnresolved(m);
    if (!d->b)
      return NULL;
    static const char producer[] = "LaneCL";
    LLVMMetadataRef file = LLVMDIBuilderCreateFile(d->b, "lanecl", 6, "", 0);
    d->cu = LLVMDIBuilderCreateCompileUnit(d->b, LLVMDWARFSourceLanguageOpenCL, file, producer,
                                           sizeof(producer) - 1, 1, "", 0, 0, "", 0, LLVMDWARFEmissionNone, 0, 0,
                                           0, "", 0, "", 0);
  }
  if (!d->cu)
    return NULL;
  LLVMMetadataRef file = LLVMDIBuilderCreateFile(d->b, name, n, "", 0);
  LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(d->b, file, NULL, 0, LLVMDIFlagZero);
  return LLVMDIBuilderCreateFunction(d->b, file, name, n, name, n, file, 1, ty, 1, 1, 1, LLVMDIFlagZero, 1);
}

LLVMMetadataRef cc_dbg_loc(LLVMContextRef ctx, LLVMMetadataRef scope, unsigned line, unsigned column)
{
  return scope ? LLVMDIBuilderCreateDebugLocation(ctx, line, column, scope, NULL) : NULL;
}

void cc_dbg_finish(cc_dbg *d)
{
  if (d->b) {
    LLVMDIBuilderFinalize(d->b);
    LLVMDisposeDIBuilder(d->b);
  }
  memset(d, 0, sizeof(*d));
}

unsigned cc_dbg_loc_line(LLVMMetadataRef loc, unsigned *column, const char **file, unsigned *len)
{
  *column = LLVMDILocationGetColumn(loc);
  *file = NULL;
  *len = 0;
  LLVMMetadataRef scope = LLVMDILocationGetScope(loc);
  LLVMMetadataRef f = scope ? LLVMDIScopeGetFile(scope) : NULL;
  if (f)
    *file = LLVMDIFileGetFilename(f, len);
  return LLVMDILocationGetLine(loc);
}

/* ---- building ---- */

void cc_copy_metadata(LLVMValueRef from, LLVMValueRef to)
{
  size_t n = 0;
  LLVMValueMetadataEntry *e = LLVMInstructionGetAllMetadataOtherThanDebugLoc(from, &n);
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(from));
  for (size_t i = 0; i < n; i++)
    LLVMSetMetadata(to, LLVMValueMetadataEntriesGetKind(e, (unsigned)i),
                    LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(e, (unsigned)i)));
  if (e)
    LLVMDisposeValueMetadataEntries(e);
}

LLVMValueRef cc_build_splat(LLVMBuilderRef b, LLVMValueRef s, unsigned width, const char *name)
{
  LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(s), width);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(vt));
  LLVMValueRef ins = LLVMBuildInsertElement(b, LLVMGetPoison(vt), s, LLVMConstInt(i32, 0, 0), "");
  return LLVMBuildShuffleVector(b, ins, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(i32, width)), name);
}

LLVMValueRef cc_build_intrinsic_id(LLVMBuilderRef b, LLVMModuleRef m, unsigned id, LLVMTypeRef *tys, unsigned ntys,
                                   LLVMValueRef *args, unsigned nargs, const char *name)
{
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(m, id, tys, ntys);
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, nargs, name);
}

LLVMValueRef cc_build_intrinsic(LLVMBuilderRef b, LLVMModuleRef m, const char *intrinsic, LLVMTypeRef *tys,
                                unsigned ntys, LLVMValueRef *args, unsigned nargs, const char *name)
{
  unsigned id = LLVMLookupIntrinsicID(intrinsic, strlen(intrinsic));
  return cc_build_intrinsic_id(b, m, id, tys, ntys, args, nargs, name);
}

LLVMValueRef cc_build_gep_like(LLVMBuilderRef b, LLVMValueRef gep, LLVMValueRef base, LLVMValueRef *idx, unsigned n,
                               const char *name)
{
  LLVMTypeRef st = LLVMGetGEPSourceElementType(gep);
  return LLVMIsInBounds(gep) ? LLVMBuildInBoundsGEP2(b, st, base, idx, n, name)
                             : LLVMBuildGEP2(b, st, base, idx, n, name);
}

LLVMValueRef cc_const_iota(LLVMTypeRef t, unsigned width)
{
  LLVMValueRef *lane = malloc((width + 1) * sizeof(*lane));
  if (!lane)
    return NULL;
  for (unsigned k = 0; k < width; k++)
    lane[k] = LLVMConstInt(t, k, 0);
  LLVMValueRef v = LLVMConstVector(lane, width);
  free(lane);
  return v;
}

LLVMValueRef *cc_take_attributed_functions(LLVMModuleRef m, const char *attr, unsigned *n, int *oom)
{
  unsigned cap = 0;
  LLVMValueRef *fns = NULL;
  unsigned alen = (unsigned)strlen(attr);
  *n = 0;
  *oom = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, attr, alen))
      continue;
    LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, attr, alen);
    if (!*oom && cc_values_push(&fns, n, &cap, f)) {
      free(fns);
      fns = NULL;
      *n = 0;
      *oom = 1;
    }
  }
  return fns;
}

/* Inlining a function whose parameters are noalias (the work-group
 * function's body, for a kernel with restrict pointers) leaves a call to
 * llvm.experimental.noalias.scope.decl where the call was: inside the lane
 * loop, and without the lane loop's access group, since the inliner creates
 * it after it has passed the call's access group on to the inlined accesses.
 * The lane loop is then no longer "annotated parallel", its accesses need
 * run-time pointer checks, and -vectorize-memory-check-threshold=0 (cc_util.c)
 * makes LLVM 19 drop every run-time check of a loop whose vectorization is
 * forced, the SCEV checks included: `y[i * inc]` became `y[i]` (a stride
 * speculated to be 1 with no check of inc).  Each such call gets the access
 * group of the function it is in (one per kernel, on every access of its
 * lane loops). */
void cc_tag_scope_decls(LLVMModuleRef m)
{
  LLVMValueRef decl = LLVMGetNamedFunction(m, "llvm.experimental.noalias.scope.decl");
  if (!decl)
    return;
  unsigned ag = LLVMGetMDKindIDInContext(LLVMGetModuleContext(m), "llvm.access.group", 17);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    LLVMValueRef group = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !group; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !group; i = LLVMGetNextInstruction(i))
        group = LLVMGetMetadata(i, ag);
    if (!group)
      continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsACallInst(i) && LLVMGetCalledValue(i) == decl && !LLVMGetMetadata(i, ag))
          LLVMSetMetadata(i, ag, group);
  }
}

size_t cc_function_size(LLVMValueRef f)
{
  size_t n = 0;
  for (LLVMBasicBlockRef bb = f ? LLVMGetFirstBasicBlock(f) : NULL; bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
      n++;
  return n;
}

/* ---- value maps ---- */

LLVMValueRef cc_vmap_get(const cc_vmap *m, LLVMValueRef v)
{
  for (unsigned k = m->n; k-- > 0;)
    if (m->from[k] == v)
      return m->to[k];
  return v;
}

int cc_vmap_reserve(cc_vmap *m, unsigned more)
{
  if (m->n + more <= m->cap)
    return 0;
  unsigned cap = m->cap ? m->cap * 2 : 64;
  while (cap < m->n + more)
    cap *= 2;
  LLVMValueRef *f = realloc(m->from, cap * sizeof(*f));
  if (!f)
    return 1;
  m->from = f;
  LLVMValueRef *t = realloc(m->to, cap * sizeof(*t));
  if (!t)
    return 1;
  m->to = t;
  m->cap = cap;
  return 0;
}

int cc_vmap_put(cc_vmap *m, LLVMValueRef from, LLVMValueRef to)
{
  if (cc_vmap_reserve(m, 1))
    return 1;
  m->from[m->n] = from;
  m->to[m->n++] = to;
  return 0;
}

void cc_vmap_free(cc_vmap *m)
{
  free(m->from);
  free(m->to);
  m->from = m->to = NULL;
  m->n = m->cap = 0;
}

LLVMValueRef cc_clone_slice(LLVMBuilderRef b, cc_vmap *m, LLVMValueRef v, LLVMBasicBlockRef bb, unsigned depth,
                            int *oom)
{
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != bb)
    return v;
  LLVMValueRef have = cc_vmap_get(m, v);
  if (have != v || !depth)
    return have;
  LLVMValueRef c = LLVMInstructionClone(v);
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  for (unsigned k = 0; k < n; k++)
    LLVMSetOperand(c, k, cc_clone_slice(b, m, LLVMGetOperand(v, k), bb, depth - 1, oom));
  LLVMInsertIntoBuilder(b, c);
  *oom |= cc_vmap_put(m, v, c);
  return c;
}

/* ---- a one-block loop versioned on a condition ---- */

/* The one predecessor of bb other than `not` (NULL: none or several). */
static LLVMBasicBlockRef only_pred_but(LLVMBasicBlockRef bb, LLVMBasicBlockRef not, int *others)
{
  LLVMBasicBlockRef p = NULL;
  *others = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user) || !LLVMIsATerminatorInst(user)) {
      (*others)++;
      continue;
    }
    LLVMBasicBlockRef from = LLVMGetInstructionParent(user);
    if (from == not)
      continue;
    if (p && p != from)
      (*others)++;
    p = from;
  }
  return p;
}

LLVMValueRef cc_incoming_from(LLVMValueRef phi, LLVMBasicBlockRef bb)
{
  for (unsigned k = 0; k < LLVMCountIncoming(phi); k++)
    if (LLVMGetIncomingBlock(phi, k) == bb)
      return LLVMGetIncomingValue(phi, k);
  return NULL;
}

int cc_self_loop(LLVMBasicBlockRef bb, LLVMBasicBlockRef *pre_out, LLVMBasicBlockRef *exit_out)
{
  LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br))
    return 0;
  unsigned s = LLVMGetSuccessor(br, 0) == bb ? 1 : 0;
  LLVMBasicBlockRef exit = LLVMGetSuccessor(br, s);
  if (LLVMGetSuccessor(br, 1 - s) != bb || exit == bb)
    return 0;
  int others;
  LLVMBasicBlockRef pre = only_pred_but(bb, bb, &others);
  if (!pre || others)
    return 0;
  LLVMValueRef pt = LLVMGetBasicBlockTerminator(pre);
  if (!pt || !LLVMIsABranchInst(pt) || LLVMIsConditional(pt))
    return 0;
  if (only_pred_but(exit, NULL, &others) != bb || others)
    return 0;
  *pre_out = pre;
  *exit_out = exit;
  return 1;
}

LLVMBasicBlockRef cc_version_self_loop(LLVMBasicBlockRef bb, const LLVMValueRef *conds, unsigned nconds,
                                       const char *name, cc_vmap *map)
{
  LLVMBasicBlockRef pre, exit;
  if (!cc_self_loop(bb, &pre, &exit))
    return NULL;
  LLVMValueRef br = LLVMGetBasicBlockTerminator(bb), pt = LLVMGetBasicBlockTerminator(pre);
  unsigned n = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    n++;
  if (cc_vmap_reserve(map, n))
    return NULL; /* before any change: the puts below cannot fail */
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(c, fn, name);
  /* the choice at the end of the preheader */
  LLVMInstructionEraseFromParent(pt);
  LLVMPositionBuilderAtEnd(b, pre);
  LLVMValueRef cond = nconds ? conds[0] : LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
  for (unsigned k = 1; k < nconds; k++)
    cond = LLVMBuildAnd(b, cond, conds[k], "");
  LLVMBuildCondBr(b, cond, nb, bb);
  /* the copy: phis first, then the rest in order (operands of earlier ones) */
  LLVMPositionBuilderAtEnd(b, nb);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i))
    cc_vmap_put(map, i, LLVMBuildPhi(b, LLVMTypeOf(i), ""));
  for (LLVMValueRef i = cc_first_non_phi(bb); i; i = LLVMGetNextInstruction(i)) {
    LLVMValueRef cl = LLVMInstructionClone(i);
    unsigned no = (unsigned)LLVMGetNumOperands(i);
    for (unsigned k = 0; k < no; k++) {
      LLVMValueRef o = LLVMGetOperand(i, k);
      if (!LLVMIsABasicBlock(o))
        LLVMSetOperand(cl, k, cc_vmap_get(map, o));
    }
    LLVMInsertIntoBuilder(b, cl);
    LLVMSetValueName2(cl, "", 0);
    cc_vmap_put(map, i, cl);
    if (i == br) {
      for (unsigned k = 0; k < 2; k++)
        LLVMSetSuccessor(cl, k, LLVMGetSuccessor(br, k) == bb ? nb : exit);
      LLVMSetMetadata(cl, LLVMGetMDKindIDInContext(c, "llvm.loop", 9), NULL);
    }
  }
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
    LLVMValueRef v2[2] = {cc_incoming_from(i, pre), cc_vmap_get(map, cc_incoming_from(i, bb))};
    LLVMBasicBlockRef b2[2] = {pre, nb};
    LLVMAddIncoming(cc_vmap_get(map, i), v2, b2, 2);
  }
  /* the exit: its phis, and the loop's values used past it */
  for (LLVMValueRef ph = LLVMGetFirstInstruction(exit); ph && LLVMIsAPHINode(ph); ph = LLVMGetNextInstruction(ph)) {
    LLVMValueRef v = cc_vmap_get(map, cc_incoming_from(ph, bb));
    LLVMAddIncoming(ph, &v, &nb, 1);
  }
  LLVMValueRef first = cc_first_non_phi(exit);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    if (LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind)
      continue;
    /* one use at a time (no allocation: nothing can fail half way); each
     * moves to the merging phi, so the search ends */
    LLVMValueRef merged = NULL, user;
    do {
      user = NULL;
      for (LLVMUseRef u = LLVMGetFirstUse(i); u && !user; u = LLVMGetNextUse(u)) {
        LLVMValueRef w = LLVMGetUser(u);
        LLVMBasicBlockRef ub = LLVMGetInstructionParent(w);
        if (ub != bb && ub != nb && !(ub == exit && LLVMIsAPHINode(w)))
          user = w;
      }
      if (!user)
        break;
      if (!merged) {
        LLVMPositionBuilderBefore(b, first);
        merged = LLVMBuildPhi(b, LLVMTypeOf(i), "");
        LLVMValueRef v2[2] = {i, cc_vmap_get(map, i)};
        LLVMBasicBlockRef b2[2] = {bb, nb};
        LLVMAddIncoming(merged, v2, b2, 2);
      }
      unsigned no = (unsigned)LLVMGetNumOperands(user);
      for (unsigned q = 0; q < no; q++)
        if (LLVMGetOperand(user, q) == i)
          LLVMSetOperand(user, q, merged);
    } while (user);
  }
  LLVMDisposeBuilder(b);
  return nb;
}

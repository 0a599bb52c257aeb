/* Small helpers over the LLVM-C API for what it lacks: splitting a block,
 * demoting SSA values to memory, distinct metadata nodes, call inspection.
 * Internal to compiler/. */
#ifndef LANECL_CC_LLVM_UTIL_H
#define LANECL_CC_LLVM_UTIL_H

#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

/* Moves inst and every instruction after it (the terminator included) into a
 * new block placed right after inst's block, which then ends with `br` to the
 * new block.  Phi nodes of the moved terminator's successors are retargeted.
 * Returns the new block. */
LLVMBasicBlockRef cc_split_block_before(LLVMValueRef inst, const char *name);
/* The same, splitting after inst (inst stays, the rest moves). */
LLVMBasicBlockRef cc_split_block_after(LLVMValueRef inst, const char *name);

/* In block bb, every phi entry that comes from `from` comes from `to` instead. */
void cc_phi_retarget(LLVMBasicBlockRef bb, LLVMBasicBlockRef from, LLVMBasicBlockRef to);

/* The first instruction of bb that is not a phi (the terminator at worst). */
LLVMValueRef cc_first_non_phi(LLVMBasicBlockRef bb);

/* True when inst is used outside its own block or by a phi node. */
int cc_value_escapes(LLVMValueRef inst);

/* Appends x to the malloc'd array *v (*n used of *cap); returns 1 when out
 * of memory (the array is left as it was). */
int cc_values_push(LLVMValueRef **v, unsigned *n, unsigned *cap, LLVMValueRef x);

/* The distinct users of v in a malloc'd array (*n of them; NULL and 0 when
 * out of memory). */
LLVMValueRef *cc_collect_users(LLVMValueRef v, unsigned *n);

/* Demotes to allocas (placed before alloca_pos, which must be in the entry
 * block) every value of fn used outside its own block or by a phi node, then
 * every phi node.  Afterwards no SSA value crosses a block boundary: values
 * flow between blocks only through memory (LLVM's reg2mem, on one function).
 * Allocas are not demoted.  Returns the number of allocas created. */
unsigned cc_demote_cross_block(LLVMValueRef fn, LLVMValueRef alloca_pos);

/* The function a call instruction calls directly (NULL for indirect calls). */
LLVMValueRef cc_called_function(LLVMValueRef call);
/* Its name (NULL for indirect calls), length in *len. */
const char *cc_callee_name(LLVMValueRef call, size_t *len);
/* True when the directly called function's name starts with prefix. */
int cc_callee_has_prefix(LLVMValueRef call, const char *prefix);

/* A distinct metadata node without operands (an access group).  The C API
 * has no constructor for it; it comes from a parsed snippet of IR. */
LLVMMetadataRef cc_md_distinct_empty(LLVMContextRef ctx);
/* A distinct node whose operand 0 is itself followed by ops[0..n): a loop id. */
LLVMMetadataRef cc_md_loop_id(LLVMContextRef ctx, LLVMMetadataRef *ops, unsigned n);
/* !{!"name", i1 v} / !{!"name", i32 v} / !{!"name", !node}. */
LLVMMetadataRef cc_md_prop_bool(LLVMContextRef ctx, const char *name, int v);
LLVMMetadataRef cc_md_prop_i32(LLVMContextRef ctx, const char *name, unsigned v);
LLVMMetadataRef cc_md_prop_node(LLVMContextRef ctx, const char *name, LLVMMetadataRef node);
/* Attaches node as metadata `kind` of instruction inst. */
void cc_md_set(LLVMValueRef inst, const char *kind, LLVMMetadataRef node);

/* Splits every simple load and store of a fixed vector of byte-sized
 * elements in fn into element accesses (with insertelement/extractelement),
 * keeping alignment and access groups: what LLVM's scalarizer does with
 * its load-store option, which the C API cannot set.  Returns the count. */
unsigned cc_split_vector_memory(LLVMValueRef fn);

/* Runs the pass pipeline `passes` (e.g. "function(scalarizer)") on the
 * functions fns[0..n) of m only: every other function with a body is
 * optnone while it runs (the pass manager skips those).  Returns 0, or 1
 * with a malloc'd message in *err. */
int cc_run_passes_on(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, LLVMValueRef *fns, unsigned n,
                     char **err);

/* A pointer -> unsigned map (open addressing), sized for all its keys up
 * front: n keys at most.  init returns nonzero when out of memory. */
typedef struct cc_ptrmap {
  const void **keys;
  unsigned *vals;
  size_t mask;
} cc_ptrmap;
int cc_ptrmap_init(cc_ptrmap *pm, size_t n);
void cc_ptrmap_free(cc_ptrmap *pm);
void cc_ptrmap_put(cc_ptrmap *pm, const void *key, unsigned val);
int cc_ptrmap_get(const cc_ptrmap *pm, const void *key, unsigned *val);  /* 1 when found */

/* The enum attribute kind id of name (e.g. "alwaysinline"). */
unsigned cc_attr_kind(const char *name);

#endif

/* Small helpers over the LLVM-C API for what it lacks: splitting a block,
 * demoting SSA values to memory, distinct metadata nodes, call inspection.
 * Internal to compiler/. */
#ifndef LANECL_CC_LLVM_UTIL_H
#define LANECL_CC_LLVM_UTIL_H

#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/TargetMachine.h>

/* Moves inst and every instruction after it (the terminator included) into a
 * new block placed right after inst's block, which then ends with `br` to the
 * new block.  Phi nodes of the moved terminator's successors are retargeted.
 * Returns the new block. */
LLVMBasicBlockRef cc_split_block_before(LLVMValueRef inst, const char *name);
/* The same, splitting after inst (inst stays, the rest moves). */
LLVMBasicBlockRef cc_split_block_after(LLVMValueRef inst, const char *name);

/* Moves inst from its block to the builder's position, keeping its name. */
void cc_move_to_builder(LLVMBuilderRef b, LLVMValueRef inst);
/* Moves the instructions of inst's block before inst (its phis among them)
 * to a new block `name` in front of it, which every branch to the block
 * (its own back edge too) now reaches; the builder is left at the new
 * block's end, with no terminator (the caller branches).  NULL when out of
 * memory. */
LLVMBasicBlockRef cc_split_head(LLVMBuilderRef b, LLVMValueRef inst, const char *name);

/* In block bb, every phi entry that comes from `from` comes from `to` instead. */
void cc_phi_retarget(LLVMBasicBlockRef bb, LLVMBasicBlockRef from, LLVMBasicBlockRef to);

/* A map of values (an instruction to its copy), looked up last entry first;
 * start zeroed.  get returns v itself when it has no entry; put returns 1
 * when out of memory (the entry is not added). */
typedef struct cc_vmap {
  LLVMValueRef *from, *to;
  unsigned n, cap;
} cc_vmap;
LLVMValueRef cc_vmap_get(const cc_vmap *m, LLVMValueRef v);
int cc_vmap_put(cc_vmap *m, LLVMValueRef from, LLVMValueRef to);
/* Room for `more` entries: puts up to that many cannot fail.  1 when out of memory. */
int cc_vmap_reserve(cc_vmap *m, unsigned more);
void cc_vmap_free(cc_vmap *m);
/* v cloned at the builder with its operands through m, recursively (up to
 * depth levels) for those of block bb not in m yet: a value of a loop's
 * block computed elsewhere with some of its inputs replaced (m's entries,
 * e.g. the counter at its first value).  Values not of bb are themselves;
 * *oom is set when an entry could not be added. */
LLVMValueRef cc_clone_slice(LLVMBuilderRef b, cc_vmap *m, LLVMValueRef v, LLVMBasicBlockRef bb, unsigned depth,
                            int *oom);

/* bb is a one-block loop: its branch goes back to it or to an exit whose
 * only predecessor it is, and it is entered from one block (*pre) ending in
 * `br bb`; *pre and *exit set when it is. */
int cc_self_loop(LLVMBasicBlockRef bb, LLVMBasicBlockRef *pre, LLVMBasicBlockRef *exit);
/* Versions such a loop bb: a copy of bb, block `name`, runs instead when
 * conds[0..n) (values available at the end of the entry block) are all
 * true.  Values of bb used past the loop come through phis of the exit.
 * map (zeroed by the caller, who frees it) gets bb's instructions to the
 * copy's.  Returns the copy; NULL, with nothing changed, when bb is not of
 * that shape or memory ran out. */
LLVMBasicBlockRef cc_version_self_loop(LLVMBasicBlockRef bb, const LLVMValueRef *conds, unsigned nconds,
                                       const char *name, cc_vmap *map);

/* The value phi takes from block bb (NULL when bb is not one of its blocks). */
LLVMValueRef cc_incoming_from(LLVMValueRef phi, LLVMBasicBlockRef bb);

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
/* True when mask (a vector of i1) is a constant with every element true. */
int cc_mask_all_true(LLVMValueRef mask);

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

/* A function's control-flow graph: its blocks reachable from the entry in
 * reverse post-order (the entry is 0), their predecessors and immediate
 * dominators (Cooper, Harvey and Kennedy's iteration). */
typedef struct cc_cfg {
  unsigned n;
  LLVMBasicBlockRef *block;     /* by index */
  unsigned *idom;               /* index of the immediate dominator; idom[0] == 0 */
  unsigned *pred_start, *pred;  /* predecessors of i: pred[pred_start[i] .. pred_start[i + 1]) */
  cc_ptrmap index;              /* block -> index */
} cc_cfg;
/* 0, or nonzero when out of memory (nothing to free then). */
int cc_cfg_build(cc_cfg *cfg, LLVMValueRef fn);
void cc_cfg_free(cc_cfg *cfg);
/* Index of bb, or -1 when it is not reachable from the entry. */
int cc_cfg_find(const cc_cfg *cfg, LLVMBasicBlockRef bb);
/* Block a dominates block b (indices). */
int cc_cfg_dominates(const cc_cfg *cfg, unsigned a, unsigned b);
/* Immediate post-dominators: ipdom[i] is the index of block i's, cfg->n
 * for the virtual exit (after every block ending in ret or unreachable),
 * ~0u when block i reaches no exit.  ipdom has cfg->n entries.  0, or
 * nonzero when out of memory. */
int cc_cfg_postdom(const cc_cfg *cfg, unsigned *ipdom);
/* The natural loop of the back edge latch -> header (header dominates
 * latch): in[i] is set to 1 for each of its blocks.  Returns their count. */
unsigned cc_cfg_loop(const cc_cfg *cfg, unsigned header, unsigned latch, unsigned char *in);
/* The blocks reachable from the successors of block `from` without entering
 * block `stop` (-1: none): in[] (cfg->n + 1 bytes) cleared, then set to 1
 * for each (`from` itself only when a cycle leads back to it).  stack has
 * room for cfg->n + 1 indices. */
void cc_cfg_reach(const cc_cfg *cfg, unsigned from, int stop, unsigned char *in, unsigned *stack);

/* The number of instructions in f's body (0 for a declaration or NULL). */
size_t cc_function_size(LLVMValueRef f);

/* Loop metadata (llvm.loop) of a latch branch: the value of property name
 * (e.g. "llvm.loop.vectorize.enable"), NULL when absent.  Operand values are
 * as LLVMGetMDNodeOperands gives them (an i1 true is a ConstantInt). */
LLVMValueRef cc_loop_prop(LLVMValueRef br, const char *name);
/* The first debug location among the loop id's operands (NULL if none). */
LLVMMetadataRef cc_loop_debug_loc(LLVMValueRef br);
/* Gives br a new loop id without the properties whose names start with prefix. */
void cc_loop_drop_props(LLVMValueRef br, const char *prefix);
/* Gives br a new loop id where property name becomes node (or goes, node NULL). */
void cc_loop_replace_prop(LLVMValueRef br, const char *name, LLVMMetadataRef node);
/* The same, but node is added when br's loop id has no property name
 * (br must have a loop id). */
void cc_loop_set_prop(LLVMValueRef br, const char *name, LLVMMetadataRef node);

/* Debug locations for loop ids, so that LLVM's remarks about a loop say
 * which loop it is (a remark prints "file:line:column: message").  They live
 * in subprograms of a compile unit that emits no debug information; no
 * function gets a subprogram and no instruction a location.  Start zeroed;
 * cc_dbg_scope makes the compile unit at the first call.  NULL when the
 * C API cannot make it. */
typedef struct cc_dbg {
  LLVMDIBuilderRef b;
  LLVMMetadataRef cu;
} cc_dbg;
/* A subprogram named name in a file named name. */
LLVMMetadataRef cc_dbg_scope(cc_dbg *d, LLVMModuleRef m, const char *name);
LLVMMetadataRef cc_dbg_loc(LLVMContextRef ctx, LLVMMetadataRef scope, unsigned line, unsigned column);
/* Finalizes and frees the builder (the metadata stays). */
void cc_dbg_finish(cc_dbg *d);
/* Line, column and file name (*len bytes, not NUL-terminated) of a debug location. */
unsigned cc_dbg_loc_line(LLVMMetadataRef loc, unsigned *column, const char **file, unsigned *len);

/* The enum attribute kind id of name (e.g. "alwaysinline"). */
unsigned cc_attr_kind(const char *name);
/* Function attribute `name` (an enum attribute without a value) on f. */
void cc_add_fn_attr(LLVMValueRef f, const char *name);

/* Every metadata kind of instruction from but its debug location (tbaa,
 * access groups, ...) set on instruction to. */
void cc_copy_metadata(LLVMValueRef from, LLVMValueRef to);

/* Building, at the builder: a vector of width copies of s; a call of an
 * intrinsic (by id or name) overloaded on tys[0..ntys); a getelementptr
 * of base with gep's source element type and inbounds flag. */
LLVMValueRef cc_build_splat(LLVMBuilderRef b, LLVMValueRef s, unsigned width, const char *name);
LLVMValueRef cc_build_intrinsic_id(LLVMBuilderRef b, LLVMModuleRef m, unsigned id, LLVMTypeRef *tys, unsigned ntys,
                                   LLVMValueRef *args, unsigned nargs, const char *name);
LLVMValueRef cc_build_intrinsic(LLVMBuilderRef b, LLVMModuleRef m, const char *intrinsic, LLVMTypeRef *tys,
                                unsigned ntys, LLVMValueRef *args, unsigned nargs, const char *name);
LLVMValueRef cc_build_gep_like(LLVMBuilderRef b, LLVMValueRef gep, LLVMValueRef base, LLVMValueRef *idx, unsigned n,
                               const char *name);
/* The constant vector <0, 1, ..., width - 1> of integer type t (NULL when
 * out of memory). */
LLVMValueRef cc_const_iota(LLVMTypeRef t, unsigned width);

/* The functions of m that carry the string attribute attr, which they
 * lose, in a malloc'd array (*n of them).  Out of memory: NULL, *oom set,
 * and the attribute is still taken off every function. */
LLVMValueRef *cc_take_attributed_functions(LLVMModuleRef m, const char *attr, unsigned *n, int *oom);

/* Calls of llvm.experimental.noalias.scope.decl that inlining left in a
 * work-group function get the function's access group (see the .c). */
void cc_tag_scope_decls(LLVMModuleRef m);

#endif

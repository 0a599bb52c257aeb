/* Internal interfaces between the compiler's own files (never included
 * outside compiler/ and tools/lanecl-cc). */
#ifndef LANECL_CC_INTERNAL_H
#define LANECL_CC_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "compiler/lanecl_cc.h"

/* Pipeline (cc_api.c orchestrates):
 *   cc_frontend   OpenCL C -> SPIR-flavoured bitcode (clang-19 -cc1, spir64 triple)
 *   cc_meta       kernel metadata (args, attributes) from the SPIR module
 *   cc_prepare    retarget to the host (triple, datalayout, C calling convention
 *                 everywhere), strip target-cpu/features, every non-kernel function
 *                 internal + alwaysinline, run always-inline so each kernel is one function
 *   cc_wg_generate  per kernel: work-item builtins lowered, barrier/collective regions,
 *                 frame, the exported work-group function __lanecl_wg_<name>
 *   cc_link_builtins  lazy link of lanecl_builtins.bc (already prepared at build time)
 *   cc_optimize   internalize all but __lanecl_wg_*, default<O3> (loop vectorizer on)
 *   cc_emit_shared_object  object file -> ld -shared -> ELF bytes
 */

/* The host target machine for dev (cpu name / features / prefer-vector-width). */
LLVMTargetMachineRef cc_target_machine(const cc_device_desc *dev, int opt_level);

/* Retarget a SPIR module to the host in place (also used for the builtins at build time). */
int cc_prepare(LLVMModuleRef m, LLVMTargetMachineRef tm, char **err);

/* Work-group function generation (cc_wg.c).  m is prepared (host triple, each
 * kernel fully inlined).  For each kernel in kinfo[0..nkernels) emits
 *   void __lanecl_wg_<name>(void *const *args, const lanecl_wg_ctx *ctx)
 * and fills kinfo[i].frame_bytes, nregions, uses_barriers, simd_width (the
 * width the lane loop is asked to vectorize at) and report.  Leaves calls to
 * the collective combine helpers of builtins/ (see builtins/collectives.cl)
 * as declarations for cc_link_builtins to resolve.  opt_disable: -cl-opt-disable. */
int cc_wg_generate(LLVMModuleRef m, LLVMTargetMachineRef tm, const cc_device_desc *dev,
                   cc_kernel_info *kinfo, uint32_t nkernels, int opt_disable, char **err);

/* Names the generated code calls in the builtins library (builtins/collectives.cl):
 *   void __lanecl_wg_scan_inclusive_<op>_<ty>(__local-or-private void *buf, ulong n)  in place
 *   void __lanecl_wg_scan_exclusive_<op>_<ty>(void *buf, ulong n)                     in place
 *   void __lanecl_wg_reduce_<op>_<ty>(void *buf, ulong n)          result in element 0
 *   void __lanecl_wg_all(int *buf, ulong n), __lanecl_wg_any(int *buf, ulong n): result in buf[0]
 * op: add min max mul and or xor logical_and logical_or logical_xor
 * ty: i32 u32 i64 u64 f32 f64 (h16 with cl_khr_fp16); buf holds n elements of ty,
 * packed (4 bytes for i32/u32/f32, 8 for the others), in linear local id order.
 * After cc_prepare these are plain C-convention functions taking (ptr, i64). */

#endif

/* Streaming (non-temporal) stores for the lane loops' wide __global stores
 * (cc_stream.c).  Internal to the compiler. */
#ifndef LANECL_CC_STREAM_H
#define LANECL_CC_STREAM_H

#include "compiler/cc_internal.h"

/* After cc_optimize, before code generation.  In each kernel's work-group
 * function, every vector store of 32 bytes or more to __global memory
 * (address space 1) becomes: if ctx->flags has LANECL_WG_STREAM and the
 * address is aligned to the store's size, the same store with !nontemporal
 * (vmovntps / vmovntdq), else the original store.  The function then ends
 * with an sfence when the flag is set.  Kernels with atomics or fences are
 * left alone, and so are those with collective chunk loops
 * (CC_ATTR_CHUNK_LOOPS): those loops are cache-resident work (a fused scan
 * runs 10-25% slower with the test per store), and they are at memory
 * speed already on data that is not.  Of the other stores, only those that
 * pay: not to a buffer argument the kernel also reads, and only in a loop
 * that moves the store by exactly the bytes its row of stores writes (no
 * strided or gapped stores).  Fills kinfo[i].stream_bytes (0 when untouched).  Returns the
 * number of stores rewritten. */
int cc_stream_stores(LLVMModuleRef m, LLVMTargetMachineRef tm, cc_kernel_info *kinfo, uint32_t nkernels);

#endif

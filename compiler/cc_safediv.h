/* Integer division that cannot trap (cc_safediv.c).  Internal to compiler/. */
#ifndef LANECL_CC_SAFEDIV_H
#define LANECL_CC_SAFEDIV_H

#include <llvm-c/Core.h>

/* Every sdiv/udiv/srem/urem of m whose divisor may be 0 (or, signed, whose
 * operands may be INT_MIN and -1) divides by 1 in that case instead.  OpenCL C
 * leaves the result undefined there, but the kernel must not die: on x86 the
 * division instruction raises SIGFPE, which kills the host process.  Returns
 * the number of divisions guarded. */
unsigned cc_safe_divisions(LLVMModuleRef m);

#endif

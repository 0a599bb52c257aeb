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

/* Every 32-bit sdiv/udiv/srem/urem of fn (after cc_safe_divisions) whose
 * divisor is the same for every work-item and computed outside the body's
 * loops (is_uniform(arg, d, 1)), and whose dividend is not the same for
 * every work-item (!is_uniform(arg, a, 0)), becomes a multiplication by a magic number computed by a
 * helper call that loop-invariant code motion hoists out of the lane loop.
 * Results are those of the guarded division, 0 divisors and INT_MIN / -1
 * included.  Returns how many. */
unsigned cc_uniform_divisions(LLVMValueRef fn, int (*is_uniform)(void *arg, LLVMValueRef v, int divisor), void *arg);

#endif

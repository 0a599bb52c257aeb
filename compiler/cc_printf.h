/* OpenCL C printf on the host's printf (cc_printf.c).  Internal to compiler/. */
#ifndef LANECL_CC_PRINTF_H
#define LANECL_CC_PRINTF_H

#include <llvm-c/Core.h>

/* Rewrites every call of printf in m: vector conversions ("%v4hlf") become
 * conversions of the elements, and the result is 0 on success, -1 on failure
 * (not C's count).  Returns the number of calls seen. */
unsigned cc_printf_calls(LLVMModuleRef m);

#endif

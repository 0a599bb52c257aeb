/* The prelude every OpenCL C program is compiled with (written into the build's
 * temp dir and passed to clang with -include).  It declares what clang 19's
 * default header lacks: cl_khr_work_group_uniform_arithmetic (mul, and, or,
 * xor, logical_and, logical_or, logical_xor reductions and scans), which the
 * device advertises.  The work-group function generator lowers these calls
 * like the core collectives. */
#include "compiler/cc_internal.h"

const char cc_prelude_src[] =
  "#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200\n"
  "#define cl_khr_work_group_uniform_arithmetic 1\n"
  "#define LANECL_WGUA_OV __attribute__((overloadable, convergent))\n"
  "#define LANECL_WGUA_FN(T, OP) \\\n"
  "  T LANECL_WGUA_OV work_group_reduce_##OP(T); \\\n"
  "  T LANECL_WGUA_OV work_group_scan_inclusive_##OP(T); \\\n"
  "  T LANECL_WGUA_OV work_group_scan_exclusive_##OP(T);\n"
  "#define LANECL_WGUA_INT(T) LANECL_WGUA_FN(T, mul) LANECL_WGUA_FN(T, and) LANECL_WGUA_FN(T, or) LANECL_WGUA_FN(T, xor)\n"
  "LANECL_WGUA_INT(int) LANECL_WGUA_INT(uint) LANECL_WGUA_INT(long) LANECL_WGUA_INT(ulong)\n"
  "LANECL_WGUA_FN(float, mul)\n"
  "#ifdef cl_khr_fp64\n"
  "LANECL_WGUA_FN(double, mul)\n"
  "#endif\n"
  "LANECL_WGUA_FN(int, logical_and) LANECL_WGUA_FN(int, logical_or) LANECL_WGUA_FN(int, logical_xor)\n"
  "#undef LANECL_WGUA_INT\n"
  "#undef LANECL_WGUA_FN\n"
  "#undef LANECL_WGUA_OV\n"
  "#endif\n";

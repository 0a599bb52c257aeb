/* The prelude every OpenCL C program is compiled with (written into the build's
 * temp dir and passed to clang with -include, after clang's default header).
 * It removes the feature macros clang predefines for SPIR that the device
 * doesn't have (the image ones on a device without images),
 * and declares what clang 19's default header lacks:
 * cl_khr_work_group_uniform_arithmetic (mul, and, or, xor, logical_and, logical_or, logical_xor reductions and scans), which the
 * device advertises.  The work-group function generator lowers these calls
 * like the core collectives.
 *
 * It also declares min, max, clamp and select, every overload.  With
 * -fdeclare-opencl-builtins clang finds a builtin only when the ordinary
 * lookup fails, and then creates the declaration of every overload of that
 * name for that one call: about 120 for min, max and clamp, 130 for select,
 * each time the name is used.  Declared once here, the ordinary lookup finds
 * them.  A program calling clamp 1,000 times: 0.64 s of front end before,
 * 0.22 s after; an empty one: unchanged.  (As with a full declaration header,
 * a program can no longer define a function of one of these names without
 * the overloadable attribute; macros of these names are left alone.) */
#include "compiler/cc_internal.h"

const char cc_prelude_src[] =
  /* clang defines these for the SPIR target whatever -cl-ext says; the device
   * has none of them, so kernels must not see them (the CTS compares).  (The
   * sub-group extensions the device has stay: clang declares their builtins
   * where the macro is defined.) */
  "#undef cl_khr_extended_bit_ops\n"
  "#undef cl_khr_integer_dot_product\n"
  "#undef cl_khr_kernel_clock\n"
  "#undef __opencl_c_ext_fp32_global_atomic_add\n"
  "#undef __opencl_c_ext_fp32_global_atomic_min_max\n"
  "#undef __opencl_c_ext_fp32_local_atomic_add\n"
  "#undef __opencl_c_ext_fp32_local_atomic_min_max\n"
  "#undef __opencl_c_ext_fp64_global_atomic_add\n"
  "#undef __opencl_c_ext_fp64_global_atomic_min_max\n"
  "#undef __opencl_c_ext_fp64_local_atomic_add\n"
  "#undef __opencl_c_ext_fp64_local_atomic_min_max\n"
  "#undef __opencl_c_ext_fp16_global_atomic_add\n"
  "#undef __opencl_c_ext_fp16_global_atomic_min_max\n"
  "#undef __opencl_c_ext_fp16_local_atomic_add\n"
  "#undef __opencl_c_ext_fp16_local_atomic_min_max\n"
  "#undef __opencl_c_ext_fp16_global_atomic_load_store\n"
  "#undef __opencl_c_ext_fp16_local_atomic_load_store\n"
  "#undef __opencl_c_ext_image_raw10_raw12\n"
  "#undef __opencl_c_integer_dot_product_input_4x8bit\n"
  "#undef __opencl_c_integer_dot_product_input_4x8bit_packed\n"
  "#undef __opencl_c_kernel_clock_scope_device\n"
  "#undef __opencl_c_kernel_clock_scope_sub_group\n"
  "#undef __opencl_c_kernel_clock_scope_work_group\n"
  /* Images follow the device: clang defines __IMAGE_SUPPORT__ and
   * __opencl_c_read_write_images for every SPIR target; the front end
   * defines __LANECL_NO_IMAGES when the device's -cl-ext lacks
   * __opencl_c_images. */
  "#ifdef __LANECL_NO_IMAGES\n"
  "#undef __IMAGE_SUPPORT__\n"
  "#undef __opencl_c_images\n"
  "#undef __opencl_c_read_write_images\n"
  "#undef __opencl_c_3d_image_writes\n"
  "#endif\n"
  /* The OpenCL version of the device (clang leaves it to the platform);
   * __OPENCL_C_VERSION__ is clang's, from -cl-std. */
  "#define __OPENCL_VERSION__ 300\n"
  /* (clang 19 does not know this extension's macro; the attribute it knows) */
  "#define cl_intel_required_subgroup_size 1\n"
  "#undef __opencl_c_pipes\n"
  "#undef __opencl_c_device_enqueue\n"
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
  "#endif\n"
  /* min, max, clamp, select (see above).  The names are in parentheses so
   * that no function-like macro applies; an object-like macro of one of
   * them leaves the declarations out. */
  "#if !defined(min) && !defined(max) && !defined(clamp) && !defined(select)\n"
  "#ifdef cl_khr_fp16\n"
  "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
  "#endif\n"
  "#ifdef cl_khr_fp64\n"
  "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
  "#endif\n"
  "#define LANECL_OVC __attribute__((overloadable, const))\n"
  /* V: the type, T its element type, S and U the signed and unsigned
   * integer types of select's third argument */
  "#define LANECL_MM(V, T, S, U) V LANECL_OVC (min)(V, V); V LANECL_OVC (max)(V, V); \\\n"
  "  V LANECL_OVC (clamp)(V, V, V); V LANECL_OVC (select)(V, V, S); V LANECL_OVC (select)(V, V, U);\n"
  "#define LANECL_MMS(V, T) V LANECL_OVC (min)(V, T); V LANECL_OVC (max)(V, T); V LANECL_OVC (clamp)(V, T, T);\n"
  "#define LANECL_MMT(T, S, U) LANECL_MM(T, T, S, U) \\\n"
  "  LANECL_MM(T##2, T, S##2, U##2) LANECL_MM(T##3, T, S##3, U##3) LANECL_MM(T##4, T, S##4, U##4) \\\n"
  "  LANECL_MM(T##8, T, S##8, U##8) LANECL_MM(T##16, T, S##16, U##16) \\\n"
  "  LANECL_MMS(T##2, T) LANECL_MMS(T##3, T) LANECL_MMS(T##4, T) LANECL_MMS(T##8, T) LANECL_MMS(T##16, T)\n"
  "LANECL_MMT(char, char, uchar) LANECL_MMT(uchar, char, uchar) LANECL_MMT(short, short, ushort)\n"
  "LANECL_MMT(ushort, short, ushort) LANECL_MMT(int, int, uint) LANECL_MMT(uint, int, uint)\n"
  "LANECL_MMT(long, long, ulong) LANECL_MMT(ulong, long, ulong) LANECL_MMT(float, int, uint)\n"
  "#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)\n"
  "LANECL_MMT(double, long, ulong)\n"
  "#endif\n"
  "#ifdef cl_khr_fp16\n"
  "LANECL_MMT(half, short, ushort)\n"
  "#pragma OPENCL EXTENSION cl_khr_fp16 : disable\n"
  "#endif\n"
  "#ifdef cl_khr_fp64\n"
  "#pragma OPENCL EXTENSION cl_khr_fp64 : disable\n"
  "#endif\n"
  "#undef LANECL_MMT\n"
  "#undef LANECL_MMS\n"
  "#undef LANECL_MM\n"
  "#undef LANECL_OVC\n"
  "#endif\n";

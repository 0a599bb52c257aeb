/* The prelude every OpenCL C program is compiled with (written into the build's
 * temp dir and passed to clang with -include, after clang's default header).
 * It removes the feature macros clang predefines for SPIR that the device
 * doesn't have (the image ones on a device without images),
 * and declares what clang 19's default header lacks:
 * cl_khr_work_group_uniform_arithmetic (mul, and, or, xor, logical_and, logical_or, logical_xor reductions and scans), which the
 * device advertises.  The work-group function generator lowers these calls
 * like the core collectives. */
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
  "#endif\n";

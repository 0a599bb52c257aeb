/* Shared macros of the LaneCL builtins library (the .cl files of builtins/ only).
 *
 * Every .cl file is compiled on its own with
 *   clang-19 -cc1 -triple spir64-unknown-unknown -cl-std=CL3.0
 *            -finclude-default-header -cl-ext=+all -emit-llvm-bc -O2
 * so opencl-c.h declares the overloads and our definitions get the same
 * mangled names as the calls in user kernels.  Definitions carry
 * __attribute__((overloadable)) (OVLD) themselves: the explicit address
 * space overloads that CL1.2 kernels call (__global, __local, __private,
 * __constant) are not declared by opencl-c.h in CL3.0 mode, so they are new
 * overloads here.
 */
#ifndef LANECL_BUILTINS_H
#define LANECL_BUILTINS_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#define OVLD __attribute__((overloadable))
#define CONSTFN __attribute__((const))
#define INLINE static inline __attribute__((always_inline))

/* Token pasting through one level of expansion. */
#define CAT(a, b) CAT_(a, b)
#define CAT_(a, b) a##b
#define CAT3(a, b, c) CAT(CAT(a, b), c)

/* Vector widths: F(<args>, width suffix, lane count). */
#define FOR_VEC_WIDTHS(F, ...)                                                       \
  F(__VA_ARGS__, 2, 2) F(__VA_ARGS__, 3, 3) F(__VA_ARGS__, 4, 4) F(__VA_ARGS__, 8, 8) \
  F(__VA_ARGS__, 16, 16)
#define FOR_ALL_WIDTHS(F, ...) F(__VA_ARGS__, , 1) FOR_VEC_WIDTHS(F, __VA_ARGS__)

/* Address spaces of pointer parameters: generic (CL2.0+) and the named ones
 * CL1.2 kernels call.  The constant space only for loads. */
#define FOR_WRITABLE_AS(F, ...) \
  F(__VA_ARGS__, __generic) F(__VA_ARGS__, __global) F(__VA_ARGS__, __local) F(__VA_ARGS__, __private)
#define FOR_READABLE_AS(F, ...) FOR_WRITABLE_AS(F, __VA_ARGS__) F(__VA_ARGS__, __constant)

#endif

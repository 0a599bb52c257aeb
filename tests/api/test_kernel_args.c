/* Argument information and the argument kinds a device without images still
 * compiles: clGetKernelArgInfo answers only for kernels compiled with
 * -cl-kernel-arg-info (every query, the qualifiers too), and clSetKernelArg
 * on a sampler or image argument checks the size before the value. */
#include <stdbool.h>

#include "tests/testlib.h"

static const char src[] = "__kernel void k(__global int *o, __local float *l, int n, __constant int *c)\n"
                          "{ o[get_global_id(0)] = n + c[0] + (int)l[0]; }\n";

static const cl_kernel_arg_info params[] = {
    CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_ACCESS_QUALIFIER, CL_KERNEL_ARG_TYPE_NAME,
    CL_KERNEL_ARG_TYPE_QUALIFIER,    CL_KERNEL_ARG_NAME,
};
#define NPARAMS (sizeof(params) / sizeof(params[0]))

static cl_kernel kernel_of(cl_program p, const char *name)
{
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  ASSERT_OK(err);
  return k;
}

/* Every query of every argument of k gives want (sizes, then values). */
static void every_query(cl_kernel k, cl_uint nargs, cl_int want)
{
  for (cl_uint a = 0; a < nargs; a++)
    for (size_t i = 0; i < NPARAMS; i++) {
      size_t size = 0;
      char value[64];
      ASSERT_CL(clGetKernelArgInfo(k, a, params[i], 0, NULL, &size), want);
      ASSERT_CL(clGetKernelArgInfo(k, a, params[i], sizeof(value), value, NULL), want);
    }
}

TEST(arg_info_not_available_without_the_option)
{
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, src, NULL);
  cl_kernel k = kernel_of(p, "k");
  every_query(k, 4, CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  /* The argument index and param_name are still checked first. */
  char s[64];
  ASSERT_CL(clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_NAME, sizeof(s), s, NULL), CL_INVALID_ARG_INDEX);
  ASSERT_CL(clGetKernelArgInfo(k, 0, 0x7fff, sizeof(s), s, NULL), CL_INVALID_VALUE);
  /* A clone of it neither. */
  cl_int err;
  cl_kernel c = clCloneKernel(k, &err);
  ASSERT_OK(err);
  every_query(c, 4, CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  clReleaseKernel(c);
  clReleaseKernel(k);
  clReleaseProgram(p);
  /* Other options don't stand in for it. */
  p = tl_build(ctx, src, "-cl-std=CL3.0 -cl-opt-disable");
  k = kernel_of(p, "k");
  every_query(k, 4, CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  clReleaseKernel(k);
  clReleaseProgram(p);
  /* The same source built with it answers. */
  p = tl_build(ctx, src, "-cl-kernel-arg-info");
  k = kernel_of(p, "k");
  every_query(k, 4, CL_SUCCESS);
  ASSERT_OK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, sizeof(s), s, NULL));
  ASSERT_STREQ(s, "n");
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* clCompileProgram + clLinkProgram: the option given to the compile step. */
static cl_kernel compiled_and_linked(cl_context ctx, const char *options)
{
  cl_int err;
  const char *s = src;
  cl_program obj = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clCompileProgram(obj, 0, NULL, options, 0, NULL, NULL, NULL, NULL));
  cl_program exe = clLinkProgram(ctx, 0, NULL, NULL, 1, &obj, NULL, NULL, &err);
  ASSERT_OK(err);
  cl_kernel k = kernel_of(exe, "k");
  clReleaseProgram(exe);
  clReleaseProgram(obj);
  return k;
}

TEST(arg_info_follows_the_compile_option_through_link)
{
  cl_context ctx = tl_context();
  cl_kernel without = compiled_and_linked(ctx, NULL), with = compiled_and_linked(ctx, "-cl-kernel-arg-info");
  every_query(without, 4, CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  every_query(with, 4, CL_SUCCESS);
  cl_kernel_arg_address_qualifier aq = 0;
  ASSERT_OK(clGetKernelArgInfo(with, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, NULL));
  ASSERT_EQ(aq, CL_KERNEL_ARG_ADDRESS_LOCAL);
  clReleaseKernel(without);
  clReleaseKernel(with);
  clReleaseContext(ctx);
}

/* clSetKernelArg on a sampler_t argument checks arg_size
 * (CL_INVALID_ARG_SIZE) before the value (CL_INVALID_SAMPLER for a NULL
 * arg_value and for anything but a sampler). */
TEST(set_arg_sampler_checks_size_first)
{
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, "__kernel void k(__global int *o, sampler_t s, float f) { o[0] = (int)f; }\n",
                          NULL);
  cl_kernel k = kernel_of(p, "k");
  cl_sampler none = NULL;
  ASSERT_CL(clSetKernelArg(k, 1, sizeof(cl_sampler) + 1, &none), CL_INVALID_ARG_SIZE);
  ASSERT_CL(clSetKernelArg(k, 1, sizeof(cl_sampler) - 1, &none), CL_INVALID_ARG_SIZE);
  ASSERT_CL(clSetKernelArg(k, 1, 0, NULL), CL_INVALID_ARG_SIZE);
  ASSERT_CL(clSetKernelArg(k, 1, sizeof(cl_sampler), NULL), CL_INVALID_SAMPLER);
  ASSERT_CL(clSetKernelArg(k, 1, sizeof(cl_sampler), &none), CL_INVALID_SAMPLER);
  cl_sampler not_sampler = (cl_sampler)ctx;
  ASSERT_CL(clSetKernelArg(k, 1, sizeof(cl_sampler), &not_sampler), CL_INVALID_SAMPLER);
  /* The other arguments are unaffected. */
  cl_float f = 1.0f;
  ASSERT_OK(clSetKernelArg(k, 2, sizeof(f), &f));
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), NULL));
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

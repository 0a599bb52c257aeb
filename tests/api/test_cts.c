/* What the Khronos OpenCL CTS found wrong, pinned through the ICD loader as an
 * application sees it.  Each test names the behaviour and, in its comment,
 * the CTS binary and sub-test that found it (docs/conformance.md). */
#include <stdbool.h>

#include "tests/testlib.h"

/* test_compiler kernel_name_size: kernel names of any length (the CTS goes
 * from 32 to 2048 characters) build, are found by clCreateKernel, report
 * their name and run. */
TEST(kernel_names_of_any_length)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_int err;
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &err);
  ASSERT_OK(err);
  for (size_t len = 32; len <= 2048; len *= 2) {
    char *name = malloc(len + 1);
    for (size_t i = 0; i < len; i++)
      name[i] = (char)('a' + i % 26);
    name[len] = 0;
    size_t srclen = len + 128;
    char *src = malloc(srclen);
    snprintf(src, srclen, "__kernel void %s(int v, __global int *o) { o[0] = v; }\n", name);
    cl_program p = tl_build(ctx, src, NULL);
    cl_kernel k = clCreateKernel(p, name, &err);
    ASSERT_OK(err);
    size_t size = 0;
    ASSERT_OK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, NULL, &size));
    ASSERT_EQ(size, len + 1);
    char *got = malloc(size);
    ASSERT_OK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, size, got, NULL));
    ASSERT_STREQ(got, name);
    cl_int v = (cl_int)len;
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(v), &v));
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(out), &out));
    size_t one = 1;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_int r = 0;
    ASSERT_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(r), &r, 0, NULL, NULL));
    ASSERT_EQ(r, (cl_int)len);
    free(got);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(src);
    free(name);
  }
  clReleaseMemObject(out);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

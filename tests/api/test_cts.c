/* What the Khronos OpenCL CTS found wrong, pinned through the ICD loader as an
 * application sees it.  Each test names the behaviour and, in its comment,
 * the CTS binary and sub-test that found it (docs/conformance.md). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* test_basic kernel_preprocessor_macros: __OPENCL_VERSION__ is the device's
 * OpenCL version (300, "OpenCL 3.0" in CL_DEVICE_VERSION) whatever -cl-std;
 * __OPENCL_C_VERSION__ follows -cl-std; __ENDIAN_LITTLE__ is 1. */
TEST(preprocessor_version_macros)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  const char *src = "__kernel void k(__global int *o)\n"
                    "{\n"
                    "#ifdef __OPENCL_VERSION__\n"
                    "  o[0] = __OPENCL_VERSION__;\n"
                    "#else\n"
                    "  o[0] = -1;\n"
                    "#endif\n"
                    "  o[1] = __OPENCL_C_VERSION__;\n"
                    "#ifdef __ENDIAN_LITTLE__\n"
                    "  o[2] = __ENDIAN_LITTLE__;\n"
                    "#else\n"
                    "  o[2] = -1;\n"
                    "#endif\n"
                    "}\n";
  const char *opts[] = {"-cl-std=CL1.1", "-cl-std=CL1.2", "-cl-std=CL3.0"};
  int c_version[] = {110, 120, 300};
  cl_int err;
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 3 * sizeof(cl_int), NULL, &err);
  ASSERT_OK(err);
  for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
    cl_program p = tl_build(ctx, src, opts[i]);
    cl_kernel k = clCreateKernel(p, "k", &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(out), &out));
    size_t one = 1;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_int r[3];
    ASSERT_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(r), r, 0, NULL, NULL));
    ASSERT_EQ(r[0], 300);
    ASSERT_EQ(r[1], c_version[i]);
    ASSERT_EQ(r[2], 1);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  clReleaseMemObject(out);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* test_basic kernel_preprocessor_macros, kernel_numeric_constants:
 * __IMAGE_SUPPORT__ is defined exactly when the device supports images
 * (clang defines it for every SPIR target), whatever the OpenCL C version. */
TEST(image_support_macro_follows_the_device)
{
  cl_bool images = CL_FALSE;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_IMAGE_SUPPORT, sizeof(images), &images, NULL));
  cl_context ctx = tl_context();
  const char *src = images ? "#ifndef __IMAGE_SUPPORT__\n#error no __IMAGE_SUPPORT__ with images\n#endif\n"
                             "__kernel void k(__global int *o) { o[0] = 1; }\n"
                           : "#ifdef __IMAGE_SUPPORT__\n#error __IMAGE_SUPPORT__ without images\n#endif\n"
                             "__kernel void k(__global int *o) { o[0] = 1; }\n";
  const char *opts[] = {NULL, "-cl-std=CL1.1", "-cl-std=CL1.2", "-cl-std=CL3.0"};
  for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
    cl_program p = tl_build(ctx, src, opts[i]);
    clReleaseProgram(p);
  }
  /* Also for a separately compiled program. */
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clCompileProgram(p, 0, NULL, "-cl-std=CL3.0", 0, NULL, NULL, NULL, NULL));
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* test_basic kernel_memory_alignment_local: every __local argument starts at
 * the alignment of its type, 128 bytes for long16 and double16, whatever the
 * sizes of the arguments before it. */
TEST(local_args_aligned_to_their_type)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  const char *src =
      "__kernel void k(__global ulong *o, __local char *a, __local long16 *b, __local double16 *c,\n"
      "                __local char3 *d, __local long8 *e, __local ulong16 *f)\n"
      "{\n"
      "  if (get_local_id(0) == 0) {\n"
      "    o[0] = (ulong)a; o[1] = (ulong)b; o[2] = (ulong)c; o[3] = (ulong)d; o[4] = (ulong)e; o[5] = (ulong)f;\n"
      "    b[0] = (long16)(1); c[0] = (double16)(2.0); e[0] = (long8)(3); f[0] = (ulong16)(4);\n"
      "  }\n"
      "}\n";
  cl_program p = tl_build(ctx, src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 6 * sizeof(cl_ulong), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(out), &out));
  size_t sizes[] = {1, 128, 3 * 128, 4, 64, 128};
  size_t align[] = {1, 128, 128, 4, 64, 128};
  for (size_t shift = 0; shift < 3; shift++) {
    /* Odd sizes in front move the later arguments unless each is aligned. */
    ASSERT_OK(clSetKernelArg(k, 1, sizes[0] + shift * 40, NULL));
    for (cl_uint i = 2; i <= 6; i++)
      ASSERT_OK(clSetKernelArg(k, i, sizes[i - 1] * (1 + shift), NULL));
    for (size_t local = 1; local <= 16; local *= 4) {
      size_t global = local * 3;
      ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
      cl_ulong addr[6];
      ASSERT_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(addr), addr, 0, NULL, NULL));
      for (int i = 0; i < 6; i++) {
        if (addr[i] % align[i])
          tl_fail(__FILE__, __LINE__, "__local argument %d at 0x%llx is not %zu-byte aligned", i + 1,
                  (unsigned long long)addr[i], align[i]);
      }
    }
  }
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* test_printf return_value, vector: OpenCL printf returns 0 (not C's count of
 * characters), and a vector conversion ("%v4hlf") prints the elements with
 * the conversion, separated by commas.  The kernel's output is captured from
 * file descriptor 1. */
TEST(printf_returns_zero_and_prints_vectors)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  const char *src =
      "__kernel void k(__global int *o, __global float4 *f)\n"
      "{\n"
      "  uchar2 c = (uchar2)(0xfa, 0xfb);\n"
      "  short3 s = (short3)(-1, 2, -3);\n"
      "  long2 l = (long2)(12345678901L, -2);\n"
      "  double2 d = (double2)(0.5, -1.25);\n"
      "  o[0] = printf(\"v=%2.2v4hlf c=%#v2hhx s=%v3hd l=%v2ld d=%v2lf i=%d|\\n\",\n"
      "                f[0], c, s, l, d, 5);\n"
      "  o[1] = printf(\"plain %d %s\\n\", 7, \"text\");\n"
      "}\n";
  const char *want = "v=1.00,2.00,3.00,4.00 c=0xfa,0xfb s=-1,2,-3 l=12345678901,-2 "
                     "d=0.500000,-1.250000 i=5|\nplain 7 text\n";
  cl_int err;
  cl_float fv[4] = {1, 2, 3, 4};
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * sizeof(cl_int), NULL, &err);
  ASSERT_OK(err);
  cl_mem fb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(fv), fv, &err);
  ASSERT_OK(err);
  cl_program p = tl_build(ctx, src, NULL);
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(out), &out));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(fb), &fb));

  FILE *cap = tmpfile();
  ASSERT_TRUE(cap != NULL);
  fflush(stdout);
  int saved = dup(1);
  ASSERT_TRUE(saved >= 0);
  ASSERT_TRUE(dup2(fileno(cap), 1) == 1);
  size_t one = 1;
  err = clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL);
  cl_int fin = clFinish(q);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  ASSERT_OK(err);
  ASSERT_OK(fin);

  char got[512] = {0};
  rewind(cap);
  size_t n = fread(got, 1, sizeof(got) - 1, cap);
  got[n] = 0;
  fclose(cap);
  ASSERT_STREQ(got, want);
  cl_int r[2];
  ASSERT_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(r), r, 0, NULL, NULL));
  ASSERT_EQ(r[0], 0);
  ASSERT_EQ(r[1], 0);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(out);
  clReleaseMemObject(fb);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

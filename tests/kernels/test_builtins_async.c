/* async_work_group_copy, async_work_group_strided_copy, wait_group_events and
 * prefetch through the whole stack: global -> local, work on the local copy,
 * local -> global, for scalar, vector and 3-element vector types, element
 * counts that are not multiples of the work-group size, 1D and 2D groups. */
#include <stdint.h>

#include "tests/testlib.h"

static const char *src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void copy(global const T *in, global T *out, local T *lb, int n)\n{\n"
    "  size_t grp = get_group_id(0) + get_num_groups(0) * get_group_id(1);\n"
    "  size_t lid = get_local_id(1) * get_local_size(0) + get_local_id(0), lsz = get_local_size(0) * get_local_size(1);\n"
    "  prefetch(in + grp * n, n);\n"
    "  event_t e = async_work_group_copy(lb, in + grp * n, (size_t)n, 0);\n"
    "  wait_group_events(1, &e);\n"
    "  for (size_t i = lid; i < (size_t)n; i += lsz)\n"
    "    lb[i] = lb[i] * (T)2 + (T)1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  e = async_work_group_copy(out + grp * n, lb, (size_t)n, 0);\n"
    "  wait_group_events(1, &e);\n"
    "}\n"
    "kernel void strided(global const T *in, global T *out, local T *lb, int n)\n{\n"
    "  size_t grp = get_group_id(0);\n"
    "  /* every third element in, every second element out */\n"
    "  event_t e = async_work_group_strided_copy(lb, in + grp * n * 3, (size_t)n, 3, 0);\n"
    "  wait_group_events(1, &e);\n"
    "  e = async_work_group_strided_copy(out + grp * n * 2, lb, (size_t)n, 2, 0);\n"
    "  wait_group_events(1, &e);\n"
    "}\n";

/* ek: element kind, 0 int32, 1 double, 2 int64, 3 float */
static void run(const char *type, int lanes, int ek, size_t lx, size_t ly, int n)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char opts[64];
  snprintf(opts, sizeof(opts), "-DT=%s", type);
  cl_program p = tl_build(ctx, src, opts);
  cl_int err;
  size_t groups = 6, es = ek == 1 || ek == 2 ? 8 : 4;
  size_t stride_lanes = lanes == 3 ? 4 : (size_t)lanes; /* 3-vectors occupy four elements */
  size_t elem = stride_lanes * es, nel = groups * (size_t)n * 3;
  unsigned char *in = malloc(nel * elem), *out = malloc(nel * elem);
  for (size_t i = 0; i < nel * stride_lanes; i++) {
    if (ek == 1) { double v = (double)(i % 1000); memcpy(in + i * 8, &v, 8); }
    else if (ek == 2) { int64_t v = (int64_t)(i % 1000) << 20; memcpy(in + i * 8, &v, 8); }
    else if (ek == 3) { float v = (float)(i % 1000); memcpy(in + i * 4, &v, 4); }
    else { int v = (int)(i % 1000); memcpy(in + i * 4, &v, 4); }
  }
  cl_mem bi = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nel * elem, in, &err);
  ASSERT_OK(err);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nel * elem, NULL, &err);
  ASSERT_OK(err);
  for (int kind = 0; kind < 2; kind++) {
    cl_kernel k = clCreateKernel(p, kind ? "strided" : "copy", &err);
    ASSERT_OK(err);
    memset(out, 0, nel * elem);
    ASSERT_OK(clEnqueueWriteBuffer(q, bo, CL_TRUE, 0, nel * elem, out, 0, NULL, NULL));
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bi));
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bo));
    ASSERT_OK(clSetKernelArg(k, 2, (size_t)n * elem, NULL));
    ASSERT_OK(clSetKernelArg(k, 3, sizeof(int), &n));
    size_t g2[2] = {lx * (kind ? groups : 3), kind ? 1 : ly * 2}, l2[2] = {lx, kind ? 1 : ly};
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g2, l2, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, nel * elem, out, 0, NULL, NULL));
    for (size_t gi = 0; gi < groups; gi++)
      for (size_t i = 0; i < (size_t)n; i++)
        for (size_t l = 0; l < (size_t)lanes; l++) {
          size_t src_el = kind ? gi * (size_t)n * 3 + i * 3 : gi * (size_t)n + i;
          size_t dst_el = kind ? gi * (size_t)n * 2 + i * 2 : gi * (size_t)n + i;
          size_t si = src_el * stride_lanes + l, di = dst_el * stride_lanes + l;
          double want, got;
          if (ek == 1) { double a, b; memcpy(&a, in + si * 8, 8); memcpy(&b, out + di * 8, 8); want = a; got = b; }
          else if (ek == 2) { int64_t a, b; memcpy(&a, in + si * 8, 8); memcpy(&b, out + di * 8, 8); want = (double)a; got = (double)b; }
          else if (ek == 3) { float a, b; memcpy(&a, in + si * 4, 4); memcpy(&b, out + di * 4, 4); want = a; got = b; }
          else { int a, b; memcpy(&a, in + si * 4, 4); memcpy(&b, out + di * 4, 4); want = a; got = b; }
          if (!kind)
            want = want * 2 + 1;
          if (got != want) {
            printf("  %s %s (local %zux%zu, n %d): group %zu element %zu lane %zu: got %g want %g\n", type,
                   kind ? "strided" : "copy", lx, ly, n, gi, i, l, got, want);
            ASSERT_TRUE(0);
          }
        }
    clReleaseKernel(k);
  }
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
  free(in);
  free(out);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(int_1d) { run("int", 1, 0, 16, 1, 100); }
TEST(int_fewer_elements_than_items) { run("int", 1, 0, 64, 1, 5); }
TEST(float4_1d) { run("float4", 4, 3, 32, 1, 77); }
TEST(int3_2d) { run("int3", 3, 0, 4, 4, 50); }
TEST(double_2d) { run("double", 1, 1, 8, 2, 129); }
TEST(long16_1d) { run("long16", 16, 2, 8, 1, 9); }

/* Programs of several kernels built in parts, one thread each
 * (compiler/cc_backend.c, LANECL_CC_THREADS): every kernel right whatever
 * part it landed in; variables shared between kernels of different parts
 * (program scope, __local, static) are one object; parts built from several
 * host threads at once; the serial build gives the same results. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "tests/testlib.h"

enum { NKERNELS = 8, N = 1000 };

/* Kernel j: out[i] = in[i] * (j + 1) + helper(i, j), over int, int4 (one
 * in four) or float8 (one in four) values; helper is called by every
 * kernel, so each part compiles its own copy. */
static char *many_kernels_source(void)
{
  static atomic_uint serial;
  size_t cap = 64 << 10, len = 0;
  char *s = malloc(cap);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  len += snprintf(s + len, cap - len, "// unique %d %ld %u\n", (int)getpid(), ts.tv_nsec,
                  atomic_fetch_add(&serial, 1));
  len += snprintf(s + len, cap - len, "int helper(int i, int j) { return (i ^ j) & 7; }\n");
  for (int j = 0; j < NKERNELS; j++) {
    if (j % 4 == 1)
      len += snprintf(s + len, cap - len,
                      "kernel void k%d(global const int *in, global int *out) {\n"
                      "  size_t g = get_global_id(0);\n"
                      "  if (g * 4 >= %d) return;\n"
                      "  int4 v = vload4(g, in) * %d;\n"
                      "  int4 h = (int4)(helper(g * 4, %d), helper(g * 4 + 1, %d), helper(g * 4 + 2, %d), "
                      "helper(g * 4 + 3, %d));\n"
                      "  vstore4(v + h, g, out);\n}\n",
                      j, N, j + 1, j, j, j, j);
    else if (j % 4 == 3)
      len += snprintf(s + len, cap - len,
                      "kernel void k%d(global const int *in, global int *out) {\n"
                      "  size_t g = get_global_id(0);\n"
                      "  if (g * 8 >= %d) return;\n"
                      "  float8 v = convert_float8(vload8(g, in)) * %d.0f;\n"
                      "  int8 h;\n"
                      "  for (int e = 0; e < 8; e++) h[e] = helper(g * 8 + e, %d);\n"
                      "  vstore8(convert_int8(v) + h, g, out);\n}\n",
                      j, N, j + 1, j);
    else
      len += snprintf(s + len, cap - len,
                      "kernel void k%d(global const int *in, global int *out) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  out[i] = in[i] * %d + helper(i, %d);\n}\n",
                      j, j + 1, j);
  }
  return s;
}

static cl_mem buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host)
{
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
  ASSERT_OK(err);
  return m;
}

/* Runs every kernel of a many_kernels_source program and checks its output. */
static void check_many_kernels(cl_context ctx, cl_program p)
{
  int *in = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int));
  for (int i = 0; i < N; i++)
    in[i] = i * 7 - 300;
  cl_mem din = buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(int), in);
  cl_mem dout = buffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
  cl_command_queue q = tl_queue(ctx, 0);
  cl_uint nk = 0;
  ASSERT_OK(clCreateKernelsInProgram(p, 0, NULL, &nk));
  ASSERT_EQ(nk, NKERNELS);
  for (int j = 0; j < NKERNELS; j++) {
    char name[16];
    snprintf(name, sizeof(name), "k%d", j);
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &din));
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &dout));
    int fill = -1;
    ASSERT_OK(clEnqueueFillBuffer(q, dout, &fill, sizeof(fill), 0, N * sizeof(int), 0, NULL, NULL));
    size_t global = j % 4 == 1 ? N / 4 : j % 4 == 3 ? N / 8 : N;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
      int want = in[i] * (j + 1) + ((i ^ j) & 7);
      if (out[i] != want)
        tl_fail(__FILE__, __LINE__, "kernel k%d: out[%d] = %d, expected %d", j, i, out[i], want);
    }
    ASSERT_OK(clReleaseKernel(k));
  }
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseMemObject(din));
  ASSERT_OK(clReleaseMemObject(dout));
  free(in);
  free(out);
}

static void build_and_check(const char *threads)
{
  setenv("LANECL_CC_THREADS", threads, 1);
  cl_context ctx = tl_context();
  char *src = many_kernels_source();
  cl_program p = tl_build(ctx, src, NULL);
  check_many_kernels(ctx, p);
  ASSERT_OK(clReleaseProgram(p));
  ASSERT_OK(clReleaseContext(ctx));
  free(src);
}

TEST(many_kernels_in_parts)
{
  build_and_check("4");
}

TEST(many_kernels_one_part_each)
{
  build_and_check("64");
}

TEST(many_kernels_serial)
{
  build_and_check("1");
}

/* Each kernel its own part: the writer, the readers and the variables'
 * definitions (part 0) all in different objects. */
static const char shared_src[] =
    "global int counter = 5;\n"
    "global int table[4] = {1, 2, 3, 4};\n"
    "constant int factor[2] = {10, 100};\n"
    "kernel void first(global int *out) { out[0] = counter + table[3]; }\n"
    "kernel void set(int v) {\n"
    "  size_t i = get_global_id(0);\n"
    "  table[i] = v + (int)i;\n"
    "  if (i == 0) counter = v * factor[0];\n"
    "}\n"
    "kernel void get(global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = table[i] + counter * factor[1];\n"
    "}\n"
    "kernel void bump(void) { static global int calls; calls++; counter += calls; }\n"
    "kernel void scan_local(global const int *in, global int *out) {\n"
    "  local int tmp[64];\n"
    "  size_t l = get_local_id(0);\n"
    "  tmp[l] = in[l];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[l] = tmp[63 - l] + counter;\n"
    "}\n";

static void run(cl_command_queue q, cl_program p, const char *name, cl_mem arg, int v, size_t global,
                size_t local)
{
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  ASSERT_OK(err);
  if (arg)
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &arg));
  else if (strcmp(name, "set") == 0)
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(int), &v));
  if (strcmp(name, "scan_local") == 0)
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &arg));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  ASSERT_OK(clReleaseKernel(k));
}

static void check_shared_variables(const char *threads)
{
  setenv("LANECL_CC_THREADS", threads, 1);
  cl_context ctx = tl_context();
  char src[sizeof(shared_src) + 64];
  snprintf(src, sizeof(src), "// %d %s %ld\n%s", (int)getpid(), threads, (long)time(NULL), shared_src);
  cl_program p = tl_build(ctx, src, "-cl-std=CL3.0");
  cl_command_queue q = tl_queue(ctx, 0);
  int out[64];
  cl_mem dout = buffer(ctx, CL_MEM_READ_WRITE, sizeof(out), NULL);
  run(q, p, "first", dout, 0, 1, 0);
  ASSERT_OK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof(int), out, 0, NULL, NULL));
  ASSERT_EQ(out[0], 5 + 4);  /* part 0's initializers */
  run(q, p, "set", NULL, 7, 4, 0);
  run(q, p, "get", dout, 0, 4, 0);
  ASSERT_OK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, 4 * sizeof(int), out, 0, NULL, NULL));
  for (int i = 0; i < 4; i++)
    ASSERT_EQ(out[i], 7 + i + 70 * 100);
  run(q, p, "bump", NULL, 0, 1, 0);
  run(q, p, "bump", NULL, 0, 1, 0);  /* calls 1 then 2: counter 70 + 3 */
  run(q, p, "first", dout, 0, 1, 0);
  ASSERT_OK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof(int), out, 0, NULL, NULL));
  ASSERT_EQ(out[0], 73 + 10);
  int in[64];
  for (int i = 0; i < 64; i++)
    in[i] = i * i;
  cl_mem din = buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "scan_local", &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &din));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &dout));
  size_t global = 64, local = 64;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  for (int i = 0; i < 64; i++)
    ASSERT_EQ(out[i], (63 - i) * (63 - i) + 73);
  ASSERT_OK(clReleaseKernel(k));
  ASSERT_OK(clReleaseMemObject(din));
  ASSERT_OK(clReleaseMemObject(dout));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseProgram(p));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(variables_shared_between_parts)
{
  check_shared_variables("64");
}

TEST(variables_shared_serial)
{
  check_shared_variables("1");
}

/* Several host threads build many-kernel programs at once, each build
 * in parts on threads of its own. */
static void *build_worker(void *arg)
{
  cl_context ctx = arg;
  char *src = many_kernels_source();
  cl_program p = tl_build(ctx, src, NULL);
  check_many_kernels(ctx, p);
  ASSERT_OK(clReleaseProgram(p));
  free(src);
  return NULL;
}

TEST(parts_built_from_several_threads)
{
  setenv("LANECL_CC_THREADS", "3", 1);
  cl_context ctx = tl_context();
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    ASSERT_EQ(pthread_create(&t[i], NULL, build_worker, ctx), 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  ASSERT_OK(clReleaseContext(ctx));
}

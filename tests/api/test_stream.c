/* The runtime's per-launch decision on streaming stores (runtime/ndrange.c,
 * compiler/cc_stream.c): with LANECL_STREAM_STORES unset (auto) a launch
 * whose output fits in the last-level cache does not stream and one that
 * writes more than the cache does; LANECL_STREAM_STORES=0 and =1 override.
 * The decision is read from the queue log (LANECL_DEBUG=queue), which must
 * be set before the library loads: each test runs in a fresh forked process
 * (skipped under TL_NOFORK, where the library is already loaded). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/testlib.h"

static const char src[] =
    "kernel void fill(global float *c) { size_t i = get_global_id(0); c[i] = (float)i * 0.5f; }\n";

/* Runs k over global (dim dimensions) with stderr going to a file and
 * returns what the queue log said of kernel `name`: 1 streaming, 0 not,
 * -1 no log line. */
static int logged_launch(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *global, const char *name)
{
  fflush(stderr);
  char path[] = "/tmp/lanecl-test-stream-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(fd >= 0);
  int saved = dup(2);
  dup2(fd, 2);
  cl_int err = clEnqueueNDRangeKernel(q, k, dim, NULL, global, NULL, 0, NULL, NULL);
  cl_int fin = clFinish(q);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  ASSERT_OK(err);
  ASSERT_OK(fin);

  char log[8192] = "";
  ssize_t got = pread(fd, log, sizeof(log) - 1, 0);
  close(fd);
  unlink(path);
  log[got > 0 ? got : 0] = 0;
  char key[128];
  snprintf(key, sizeof(key), "kernel %s:", name);
  const char *line = strstr(log, key);
  if (!line)
    return -1;
  const char *end = strchr(line, '\n');
  const char *on = strstr(line, "streaming stores on"), *off = strstr(line, "streaming stores off");
  if (on && (!end || on < end))
    return 1;
  if (off && (!end || off < end))
    return 0;
  return -1;
}

/* Runs fill over n work-items with stderr going to a file and returns what
 * the log said about it: 1 streaming, 0 not, -1 no log line.  Checks the
 * output. */
static int launch(size_t n)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src, "");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "fill", &err);
  ASSERT_OK(err);
  cl_mem c = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(c), &c));

  int verdict = logged_launch(q, k, 1, &n, "fill");

  float *out = malloc(n * sizeof(float));
  ASSERT_TRUE(out != NULL);
  ASSERT_OK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, n * sizeof(float), out, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++)
    if (out[i] != (float)i * 0.5f)
      tl_fail(__FILE__, __LINE__, "n %zu: c[%zu] = %g", n, i, (double)out[i]);
  free(out);
  clReleaseMemObject(c);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return verdict;
}

/* Work-items whose 4-byte outputs exceed the last-level cache. */
static size_t past_cache(void)
{
  cl_ulong cache = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cache), &cache, NULL));
  ASSERT_TRUE(cache > 0);
  return (size_t)(cache / sizeof(float)) + 4096;
}

static int fresh_process(const char *mode)
{
  if (getenv("TL_NOFORK")) {
    fprintf(stderr, "TL_NOFORK: the library is loaded already; not checked\n");
    return 0;
  }
  setenv("LANECL_DEBUG", "queue", 1);
  if (mode)
    setenv("LANECL_STREAM_STORES", mode, 1);
  else
    unsetenv("LANECL_STREAM_STORES");
  return 1;
}

/* Whether the device's kernels have wide stores at all (256-bit vectors). */
static int wide_device(void)
{
  cl_uint w = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(w), &w, NULL));
  return w >= 8;
}

TEST(auto_streams_only_past_the_cache)
{
  if (!fresh_process(NULL))
    return;
  ASSERT_EQ(launch(1000), 0);       /* 4 KB: stays in cache */
  ASSERT_EQ(launch(1 << 16), 0);    /* 256 KB: L2-sized */
  if (wide_device())
    ASSERT_EQ(launch(past_cache()), 1);
}

TEST(zero_never_streams)
{
  if (!fresh_process("0"))
    return;
  ASSERT_EQ(launch(past_cache()), 0);
}

TEST(one_always_streams)
{
  if (!fresh_process("1"))
    return;
  if (!wide_device())
    return;
  ASSERT_EQ(launch(1000), 1);
  ASSERT_EQ(launch(37), 1);
}

/* A read-modify-write never streams, forced or not (issue 13): its
 * kernel's stream_bytes is 0, so even LANECL_STREAM_STORES=1 leaves the flag
 * off.  Rows of 16 floats every 17 (w[i*17 + j] += b[j]), checked. */
static const char rmw_src[] =
    "kernel void rows_rmw(global float *w, global const float *b) {\n"
    "  size_t j = get_global_id(0), i = get_global_id(1);\n"
    "  w[i * 17 + j] += b[j];\n"
    "}\n";

/* 1 streaming, 0 not, -1 no log line */
static int launch_rmw(size_t rows)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, rmw_src, "");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "rows_rmw", &err);
  ASSERT_OK(err);
  size_t n = rows * 17;
  float *host = malloc(n * sizeof(float)), b[16];
  ASSERT_TRUE(host != NULL);
  for (size_t i = 0; i < n; i++)
    host[i] = (float)(i % 1000);
  for (int j = 0; j < 16; j++)
    b[j] = (float)(j + 1);
  cl_mem w = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), host, &err);
  ASSERT_OK(err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(b), b, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(w), &w));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(db), &db));

  size_t global[2] = {16, rows};
  int verdict = logged_launch(q, k, 2, global, "rows_rmw");

  float *out = malloc(n * sizeof(float));
  ASSERT_TRUE(out != NULL);
  ASSERT_OK(clEnqueueReadBuffer(q, w, CL_TRUE, 0, n * sizeof(float), out, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++) {
    float want = (float)(i % 1000) + (i % 17 < 16 ? b[i % 17] : 0.0f);
    if (out[i] != want)
      tl_fail(__FILE__, __LINE__, "w[%zu] = %g, expected %g", i, (double)out[i], (double)want);
  }
  free(out);
  free(host);
  clReleaseMemObject(w);
  clReleaseMemObject(db);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return verdict;
}

TEST(read_modify_write_never_streams)
{
  if (!fresh_process("1"))
    return;
  if (!wide_device())
    tl_skip("the device has no 256-bit vectors: no wide stores");
  ASSERT_EQ(launch(1000), 1);  /* the flag is forced: a pure write streams */
  ASSERT_EQ(launch_rmw(past_cache() / 16), 0);
  ASSERT_EQ(launch_rmw(777), 0);
}

/* Stress: several host threads on one context, each with its own queue and one
 * shared queue, enqueueing kernels with barriers and collectives, buffer
 * copies and user-event-gated work at once; every result is checked. */
#include <pthread.h>

#include "tests/testlib.h"

static const char src[] =
  "__kernel void scan(__global const int *in, __global int *out) {\n"
  "  size_t i = get_global_id(0); out[i] = work_group_scan_inclusive_add(in[i]); }\n"
  "__kernel void rev(__global const int *in, __global int *out, __local int *t) {\n"
  "  size_t l = get_local_id(0), L = get_local_size(0);\n"
  "  t[l] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  out[get_global_id(0)] = t[L - 1 - l]; }\n";

enum { NTHREADS = 6, ITERS = 40, N = 4096, L = 128 };

typedef struct {
  cl_context ctx;
  cl_program prog;
  cl_command_queue shared;
  int id;
  int failures;
} worker_arg;

static void *worker(void *p)
{
  worker_arg *a = p;
  cl_int err;
  cl_command_queue own = clCreateCommandQueueWithProperties(a->ctx, tl_device(), NULL, &err);
  cl_kernel scan = clCreateKernel(a->prog, "scan", &err);
  cl_kernel rev = clCreateKernel(a->prog, "rev", &err);
  int *in = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int));
  cl_mem din = clCreateBuffer(a->ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  cl_mem dmid = clCreateBuffer(a->ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  cl_mem dout = clCreateBuffer(a->ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  clSetKernelArg(scan, 0, sizeof(cl_mem), &din);
  clSetKernelArg(scan, 1, sizeof(cl_mem), &dmid);
  clSetKernelArg(rev, 0, sizeof(cl_mem), &dmid);
  clSetKernelArg(rev, 1, sizeof(cl_mem), &dout);
  clSetKernelArg(rev, 2, L * sizeof(int), NULL);
  size_t g = N, l = L;
  for (int it = 0; it < ITERS; it++) {
    for (int i = 0; i < N; i++)
      in[i] = (a->id * 131 + it * 7 + i) % 17 - 8;
    cl_command_queue q = (it & 1) ? a->shared : own;
    /* Gate the work behind a user event set from this thread after enqueueing. */
    cl_event gate = clCreateUserEvent(a->ctx, &err), done;
    err |= clEnqueueWriteBuffer(q, din, CL_FALSE, 0, N * sizeof(int), in, 1, &gate, NULL);
    err |= clEnqueueNDRangeKernel(q, scan, 1, NULL, &g, &l, 0, NULL, NULL);
    err |= clEnqueueNDRangeKernel(q, rev, 1, NULL, &g, &l, 0, NULL, &done);
    err |= clSetUserEventStatus(gate, CL_COMPLETE);
    err |= clEnqueueReadBuffer(q, dout, CL_TRUE, 0, N * sizeof(int), out, 1, &done, NULL);
    clReleaseEvent(gate);
    clReleaseEvent(done);
    if (err != CL_SUCCESS) {
      a->failures++;
      continue;
    }
    for (int grp = 0; grp < N / L; grp++) {
      int scanv[L], acc = 0;
      for (int i = 0; i < L; i++)
        scanv[i] = acc += in[grp * L + i];
      for (int i = 0; i < L; i++)
        if (out[grp * L + i] != scanv[L - 1 - i]) {
          a->failures++;
          grp = N / L;
          break;
        }
    }
  }
  clReleaseMemObject(din);
  clReleaseMemObject(dmid);
  clReleaseMemObject(dout);
  clReleaseKernel(scan);
  clReleaseKernel(rev);
  clReleaseCommandQueue(own);
  free(in);
  free(out);
  return NULL;
}

TEST(threads_queues_kernels_user_events)
{
  cl_context ctx = tl_context();
  cl_program prog = tl_build(ctx, src, "-cl-std=CL3.0");
  cl_command_queue shared = tl_queue(ctx, 0);
  pthread_t th[NTHREADS];
  worker_arg args[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    args[i] = (worker_arg){ctx, prog, shared, i, 0};
    ASSERT_EQ(pthread_create(&th[i], NULL, worker, &args[i]), 0);
  }
  int failures = 0;
  for (int i = 0; i < NTHREADS; i++) {
    pthread_join(th[i], NULL);
    failures += args[i].failures;
  }
  ASSERT_EQ(failures, 0);
  ASSERT_OK(clFinish(shared));
  clReleaseCommandQueue(shared);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
}

/* Many programs built and released from several threads while kernels run. */
static void *builder(void *p)
{
  cl_context ctx = p;
  for (int i = 0; i < 5; i++) {
    char s[256];
    snprintf(s, sizeof(s), "__kernel void k(__global int *o) { o[get_global_id(0)] = %d; }\n", i);
    cl_int err;
    cl_program pr = clCreateProgramWithSource(ctx, 1, (const char *[]){s}, NULL, &err);
    cl_device_id dev = tl_device();
    if (clBuildProgram(pr, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS) {
      clReleaseProgram(pr);
      return (void *)1;
    }
    cl_kernel k = clCreateKernel(pr, "k", &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    int out[64] = {0};
    cl_mem m = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &err);
    clSetKernelArg(k, 0, sizeof(m), &m);
    size_t g = 64;
    clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
    clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL);
    int bad = 0;
    for (int j = 0; j < 64; j++)
      bad |= out[j] != i;
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    clReleaseKernel(k);
    clReleaseProgram(pr);
    if (bad)
      return (void *)1;
  }
  return NULL;
}

TEST(threads_build_while_running)
{
  cl_context ctx = tl_context();
  pthread_t th[4];
  for (int i = 0; i < 4; i++)
    ASSERT_EQ(pthread_create(&th[i], NULL, builder, ctx), 0);
  int bad = 0;
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(th[i], &r);
    bad += r != NULL;
  }
  ASSERT_EQ(bad, 0);
  clReleaseContext(ctx);
}

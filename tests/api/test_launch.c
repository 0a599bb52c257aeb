/* The kernel launch path under load: many tiny NDRanges from several host
 * threads on one queue (the queue's thread spins between commands and
 * sleeps after LANECL_SPIN_US), clFinish and event waits right after an
 * enqueue, queues released while their thread spins, and events without
 * profiling.  ctest also runs this file with LANECL_SPIN_US=0 (every wait
 * goes straight to sleep) and with long spins. */
#define _GNU_SOURCE 1 /* pthread_setattr_default_np */
#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

#include "tests/testlib.h"

static const char src[] = "kernel void bump(global int *p, int i) { atomic_inc(&p[i + get_global_id(0)]); }\n";

enum { NTHREADS = 4, PER_THREAD = 1500 };

typedef struct launcher {
  cl_command_queue q;
  cl_kernel k;      /* each thread's own kernel object (clSetKernelArg is not thread-safe per kernel) */
  int slot;
  cl_int err;
} launcher;

static void *launch_many(void *arg)
{
  launcher *l = arg;
  for (int i = 0; i < PER_THREAD && l->err == CL_SUCCESS; i++) {
    size_t g = 1;
    cl_event e = NULL;
    bool wait = i % 97 == 0, finish = i % 211 == 0;
    l->err = clEnqueueNDRangeKernel(l->q, l->k, 1, NULL, &g, &g, 0, NULL, wait ? &e : NULL);
    if (l->err == CL_SUCCESS && wait) {
      l->err = clWaitForEvents(1, &e);
      cl_int st = 1;
      if (l->err == CL_SUCCESS)
        l->err = clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
      if (l->err == CL_SUCCESS && st != CL_COMPLETE)
        l->err = -9999;
      clReleaseEvent(e);
    }
    if (l->err == CL_SUCCESS && finish)
      l->err = clFinish(l->q);
  }
  return NULL;
}

static void shared_queue_many_threads(cl_command_queue_properties props)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, props);
  cl_program p = tl_build(ctx, src, NULL);
  cl_int err;
  int zero[NTHREADS] = {0};
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(zero), zero, &err);
  ASSERT_OK(err);
  launcher l[NTHREADS];
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    l[i].q = q;
    l[i].slot = i;
    l[i].err = CL_SUCCESS;
    l[i].k = clCreateKernel(p, "bump", &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(l[i].k, 0, sizeof(buf), &buf));
    ASSERT_OK(clSetKernelArg(l[i].k, 1, sizeof(int), &l[i].slot));
  }
  for (int i = 0; i < NTHREADS; i++)
    ASSERT_EQ(pthread_create(&t[i], NULL, launch_many, &l[i]), 0);
  for (int i = 0; i < NTHREADS; i++)
    ASSERT_EQ(pthread_join(t[i], NULL), 0);
  ASSERT_OK(clFinish(q));
  int back[NTHREADS];
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL));
  for (int i = 0; i < NTHREADS; i++) {
    ASSERT_OK(l[i].err);
    ASSERT_EQ(back[i], PER_THREAD);
    ASSERT_OK(clReleaseKernel(l[i].k));
  }
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseProgram(p));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(tiny_kernels_from_threads_on_one_in_order_queue)
{
  shared_queue_many_threads(0);
}

TEST(tiny_kernels_from_threads_on_one_out_of_order_queue)
{
  shared_queue_many_threads(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

TEST(async_then_finish_and_finish_each)
{
  /* Runs of async launches with one clFinish, then a clFinish after each:
   * every kernel runs once, in order. */
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "bump", &err);
  ASSERT_OK(err);
  int zero[2] = {0, 0}, slot = 0;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(zero), zero, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(buf), &buf));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &slot));
  size_t g = 1;
  for (int round = 0; round < 5; round++) {
    for (int i = 0; i < 1000; i++)
      ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL));
    ASSERT_OK(clFinish(q));
  }
  slot = 1;
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &slot));
  for (int i = 0; i < 2000; i++) {
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL));
    ASSERT_OK(clFinish(q));
  }
  int back[2];
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL));
  ASSERT_EQ(back[0], 5000);
  ASSERT_EQ(back[1], 2000);
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseKernel(k));
  ASSERT_OK(clReleaseProgram(p));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(queue_released_right_after_its_commands)
{
  /* The queue's thread may still be spinning for more work when the last
   * reference goes (or still running the kernel: a release only flushes);
   * the kernel's event completes either way. */
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "bump", &err);
  ASSERT_OK(err);
  int zero = 0, slot = 0;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(zero), &zero, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(buf), &buf));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &slot));
  size_t g = 1;
  for (int i = 0; i < 50; i++) {
    cl_command_queue q = tl_queue(ctx, 0);
    cl_event e;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, &e));
    if (i % 2)
      ASSERT_OK(clFinish(q));
    ASSERT_OK(clReleaseCommandQueue(q));
    ASSERT_OK(clWaitForEvents(1, &e));
    ASSERT_OK(clReleaseEvent(e));
  }
  cl_command_queue q = tl_queue(ctx, 0);
  int back = 0;
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(back), &back, 0, NULL, NULL));
  ASSERT_EQ(back, 50);
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseKernel(k));
  ASSERT_OK(clReleaseProgram(p));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(events_without_profiling_have_no_timestamps)
{
  /* Timestamps are only taken on profiling queues; the other events still
   * go through every status. */
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "bump", &err);
  ASSERT_OK(err);
  int zero = 0, slot = 0;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(zero), &zero, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(buf), &buf));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &slot));
  size_t g = 1;
  for (int prof = 0; prof < 2; prof++) {
    cl_command_queue q = tl_queue(ctx, prof ? CL_QUEUE_PROFILING_ENABLE : 0);
    cl_event e;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, &e));
    ASSERT_OK(clWaitForEvents(1, &e));
    cl_ulong t[4] = {0};
    static const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                              CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; i++) {
      err = clGetEventProfilingInfo(e, what[i], sizeof(t[i]), &t[i], NULL);
      ASSERT_EQ(err, prof ? CL_SUCCESS : CL_PROFILING_INFO_NOT_AVAILABLE);
    }
    if (prof)
      ASSERT_TRUE(t[0] && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]);
    ASSERT_OK(clReleaseEvent(e));
    ASSERT_OK(clReleaseCommandQueue(q));
  }
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseKernel(k));
  ASSERT_OK(clReleaseProgram(p));
  ASSERT_OK(clReleaseContext(ctx));
}

/* Private memory lives on the stack of the thread that runs a work-group.
 * A kernel whose private variables no worker's stack can hold fails the
 * enqueue with CL_OUT_OF_RESOURCES (it crashed); one that fits a worker's
 * stack runs even when every other thread (the application's, the queue's
 * runtime thread) has a stack far too small for it. */
static const char priv_src[] =
    "kernel void priv(global const int *in, global int *out)\n"
    "{\n"
    "  int a[N];\n"
    "  int n = in[0];\n"
    "  for (int i = 0; i < N; i++)\n"
    "    a[i] = in[(i + n) & 3] + i;\n"
    "  out[get_global_id(0)] = a[(n * 7 + (int)get_global_id(0)) % N];\n"
    "}\n";

typedef struct priv_run {
  cl_context ctx;
  cl_kernel k;
  cl_mem in, out;
  size_t global;
  cl_int enqueue_err;
  int out0;
} priv_run;

static void *priv_launch(void *arg)
{
  priv_run *r = arg;
  cl_command_queue q = tl_queue(r->ctx, 0);
  r->enqueue_err = clEnqueueNDRangeKernel(q, r->k, 1, NULL, &r->global, NULL, 0, NULL, NULL);
  ASSERT_OK(clFinish(q));
  ASSERT_OK(clEnqueueReadBuffer(q, r->out, CL_TRUE, 0, sizeof(int), &r->out0, 0, NULL, NULL));
  ASSERT_OK(clReleaseCommandQueue(q));
  return NULL;
}

static void priv_case(long ints, size_t stack, size_t global, priv_run *r)
{
  char opts[64];
  snprintf(opts, sizeof(opts), "-DN=%ld", ints);
  r->ctx = tl_context();
  cl_program p = tl_build(r->ctx, priv_src, opts);
  cl_int err;
  r->k = clCreateKernel(p, "priv", &err);
  ASSERT_OK(err);
  int in[4] = {0, 1, 2, 3};
  r->in = clCreateBuffer(r->ctx, CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
  ASSERT_OK(err);
  r->out = clCreateBuffer(r->ctx, 0, global * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(r->k, 0, sizeof(cl_mem), &r->in));
  ASSERT_OK(clSetKernelArg(r->k, 1, sizeof(cl_mem), &r->out));
  r->global = global;
  r->out0 = -1;
  /* Every thread created from here on (this test's, the queue's runtime
   * thread) gets this stack unless it asks for another. */
  pthread_attr_t a;
  pthread_attr_init(&a);
  ASSERT_EQ(pthread_attr_setstacksize(&a, stack), 0);
  ASSERT_EQ(pthread_setattr_default_np(&a), 0);
  pthread_t t;
  ASSERT_EQ(pthread_create(&t, &a, priv_launch, r), 0);
  pthread_join(t, NULL);
  pthread_attr_destroy(&a);
  clReleaseMemObject(r->in);
  clReleaseMemObject(r->out);
  clReleaseKernel(r->k);
  clReleaseProgram(p);
  clReleaseContext(r->ctx);
}

TEST(private_memory_beyond_the_stack)
{
  alarm(120);
  priv_run r;
  /* 16 MiB per work-item: more than any worker's stack. */
  priv_case(4 << 20, 256 << 10, 4, &r);
  ASSERT_CL(r.enqueue_err, CL_OUT_OF_RESOURCES);
  /* 192 KiB per work-item from threads with 128 KiB stacks: one group (the
   * caller would run it itself) and several. */
  for (size_t global = 1; global <= 8; global *= 8) {
    priv_case(48 << 10, 128 << 10, global, &r);
    ASSERT_OK(r.enqueue_err);
    ASSERT_EQ(r.out0, 0); /* a[0] = in[0] + 0 */
  }
}

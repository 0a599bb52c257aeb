/* Out of host memory in the middle of an API call: every allocation an
 * enqueue, a callback registration or a user event makes is failed in turn
 * (tests/api/failalloc.h); each call then either fails cleanly with
 * CL_OUT_OF_HOST_MEMORY, leaving the command graph as it was, or succeeds
 * and does what it says.  Never a hang, a crash, a command run out of order
 * or an event completed twice.  Also the memory a marker costs in a deep
 * out-of-order queue. */
#define _GNU_SOURCE 1
#include <unistd.h>

#include "tests/api/failalloc.h"
#include "tests/testlib.h"

/* a[0] = a[0] * 10 + v: the result spells the order the commands ran in. */
static const char *step_src = "kernel void step(global int *a, int v) { a[0] = a[0] * 10 + v; }\n";

typedef struct fixture {
  cl_context ctx;
  cl_command_queue q;
  cl_program prog;
  cl_kernel k;
  cl_mem a;
} fixture;

static void setup(fixture *f, cl_command_queue_properties props)
{
  cl_int err;
  f->ctx = tl_context();
  f->q = tl_queue(f->ctx, props);
  f->prog = tl_build(f->ctx, step_src, "");
  f->k = clCreateKernel(f->prog, "step", &err);
  ASSERT_OK(err);
  int zero = 0;
  f->a = clCreateBuffer(f->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(int), &zero, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(f->k, 0, sizeof(cl_mem), &f->a));
}

static int result(fixture *f)
{
  int v = -1;
  ASSERT_OK(clFinish(f->q));
  ASSERT_OK(clEnqueueReadBuffer(f->q, f->a, CL_TRUE, 0, sizeof(v), &v, 0, NULL, NULL));
  return v;
}

static void teardown(fixture *f)
{
  ASSERT_OK(clReleaseMemObject(f->a));
  ASSERT_OK(clReleaseKernel(f->k));
  ASSERT_OK(clReleaseProgram(f->prog));
  ASSERT_OK(clReleaseCommandQueue(f->q));
  ASSERT_OK(clReleaseContext(f->ctx));
}

static cl_int step(fixture *f, int v, cl_uint nwait, const cl_event *wait, cl_event *ev)
{
  static const size_t one = 1;
  ASSERT_OK(clSetKernelArg(f->k, 1, sizeof(v), &v));
  return clEnqueueNDRangeKernel(f->q, f->k, 1, NULL, &one, &one, nwait, wait, ev);
}

static cl_int status_of(cl_event e)
{
  cl_int st = 12345;
  ASSERT_OK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL));
  return st;
}

/* Each allocation of one kernel enqueue with a wait list, failed in turn, on
 * an in-order queue whose previous command waits for a user event: the
 * enqueue fails cleanly (nothing runs) or succeeds; the commands that were
 * enqueued run in order, once, after the user event. */
TEST(enqueue_out_of_memory_keeps_the_order)
{
  alarm(60); /* a host-side wait for the user event would hang */
  fixture f;
  setup(&f, 0);
  cl_int err;
  cl_event u = clCreateUserEvent(f.ctx, &err);
  ASSERT_OK(err);
  ASSERT_OK(step(&f, 1, 1, &u, NULL));
  int failures = 0, enqueued_2 = 0;
  for (long n = 1; !enqueued_2; n++) {
    cl_event ev = NULL;
    ASSERT_OK(clSetKernelArg(f.k, 1, sizeof(int), &(int){2}));
    static const size_t one = 1;
    fa_arm(n);
    err = clEnqueueNDRangeKernel(f.q, f.k, 1, NULL, &one, &one, 1, &u, &ev);
    int hit = fa_disarm();
    if (err == CL_SUCCESS) {
      enqueued_2 = 1;
      /* Nothing before it has run: it waits for the user event. */
      ASSERT_TRUE(ev != NULL);
      ASSERT_EQ(status_of(ev), CL_QUEUED);
      ASSERT_OK(clReleaseEvent(ev));
    } else {
      ASSERT_TRUE(hit);
      ASSERT_CL(err, CL_OUT_OF_HOST_MEMORY);
      ASSERT_TRUE(ev == NULL);
      failures++;
    }
  }
  ASSERT_TRUE(failures >= 2); /* the command, the event, the edges */
  ASSERT_OK(step(&f, 3, 0, NULL, NULL));
  ASSERT_OK(clSetUserEventStatus(u, CL_COMPLETE));
  ASSERT_EQ(result(&f), 123);
  ASSERT_OK(clReleaseEvent(u));
  teardown(&f);
}

/* The same for markers and barriers with and without wait lists on an
 * out-of-order queue, and for user events and callbacks. */
static atomic_int callbacks_fired;
static void CL_CALLBACK count_callback(cl_event e, cl_int st, void *data)
{
  (void)e, (void)st, (void)data;
  atomic_fetch_add(&callbacks_fired, 1);
}

TEST(markers_callbacks_out_of_memory)
{
  alarm(60);
  fixture f;
  setup(&f, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err;
  cl_event u = clCreateUserEvent(f.ctx, &err);
  ASSERT_OK(err);
  cl_event k1;
  ASSERT_OK(step(&f, 1, 1, &u, &k1));
  for (int what = 0; what < 5; what++) {
    int done = 0, failures = 0;
    for (long n = 1; !done; n++) {
      cl_event ev = NULL, ue = NULL;
      fa_arm(n);
      switch (what) {
      case 0: err = clEnqueueMarkerWithWaitList(f.q, 1, &k1, &ev); break;
      case 1: err = clEnqueueMarkerWithWaitList(f.q, 0, NULL, &ev); break;
      case 2: err = clEnqueueBarrierWithWaitList(f.q, 0, NULL, &ev); break;
      case 3: err = clSetEventCallback(k1, CL_COMPLETE, count_callback, NULL); break;
      default: ue = clCreateUserEvent(f.ctx, &err); break;
      }
      int hit = fa_disarm();
      if (err == CL_SUCCESS) {
        done = 1;
        if (what < 3) {
          ASSERT_EQ(status_of(ev), CL_QUEUED);
          ASSERT_OK(clReleaseEvent(ev));
        }
        if (ue)
          ASSERT_OK(clReleaseEvent(ue));
      } else {
        ASSERT_TRUE(hit);
        ASSERT_CL(err, CL_OUT_OF_HOST_MEMORY);
        ASSERT_TRUE(ev == NULL && ue == NULL);
        failures++;
      }
    }
    ASSERT_TRUE(failures >= 1);
  }
  /* After the barrier: runs last. */
  ASSERT_OK(step(&f, 2, 0, NULL, NULL));
  ASSERT_EQ(atomic_load(&callbacks_fired), 0);
  ASSERT_OK(clSetUserEventStatus(u, CL_COMPLETE));
  ASSERT_EQ(result(&f), 12);
  ASSERT_OK(clWaitForEvents(1, &k1));
  for (int i = 0; i < 1000 && atomic_load(&callbacks_fired) == 0; i++)
    usleep(1000);
  ASSERT_EQ(atomic_load(&callbacks_fired), 1);
  ASSERT_OK(clReleaseEvent(k1));
  ASSERT_OK(clReleaseEvent(u));
  teardown(&f);
}

/* A marker without a wait list on an out-of-order queue waits for every
 * command before it, at a cost that does not grow with their number: 4,000
 * gated commands, then 400 markers, each with a few allocations (one edge
 * per unfinished command made it 4,000 each, quadratic memory). */
TEST(marker_memory_is_linear)
{
  alarm(120);
  fixture f;
  setup(&f, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err;
  cl_event u1 = clCreateUserEvent(f.ctx, &err);
  ASSERT_OK(err);
  cl_event u2 = clCreateUserEvent(f.ctx, &err);
  ASSERT_OK(err);
  enum { GATED = 4000, MARKERS = 400 };
  cl_event first, second;
  ASSERT_OK(step(&f, 1, 1, &u1, &first));
  for (int i = 0; i < GATED; i++)
    ASSERT_OK(clEnqueueMarkerWithWaitList(f.q, 1, &u2, NULL));
  cl_event m[MARKERS];
  fa_count_start();
  for (int i = 0; i < MARKERS; i++)
    ASSERT_OK(clEnqueueMarkerWithWaitList(f.q, 0, NULL, &m[i]));
  long allocs = fa_count();
  printf("%ld allocations for %d markers behind %d commands\n", allocs, MARKERS, GATED);
  ASSERT_TRUE(allocs < 8 * MARKERS);
  ASSERT_OK(step(&f, 2, 0, NULL, &second));  /* not after the markers (no barrier): runs now */
  /* The markers wait for both user events, whichever comes last. */
  ASSERT_OK(clSetUserEventStatus(u2, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &second));
  ASSERT_EQ(status_of(m[0]), CL_QUEUED);
  ASSERT_EQ(status_of(m[MARKERS - 1]), CL_QUEUED);
  ASSERT_OK(clSetUserEventStatus(u1, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(MARKERS, m));
  ASSERT_EQ(result(&f), 21);
  for (int i = 0; i < MARKERS; i++)
    ASSERT_EQ(status_of(m[i]), CL_COMPLETE);
  for (int i = 0; i < MARKERS; i++)
    ASSERT_OK(clReleaseEvent(m[i]));
  ASSERT_OK(clReleaseEvent(first));
  ASSERT_OK(clReleaseEvent(second));
  ASSERT_OK(clReleaseEvent(u1));
  ASSERT_OK(clReleaseEvent(u2));
  teardown(&f);
}

/* The compiler asks LLVM for the host's CPU name once (a strdup'ed string):
 * when that allocation fails the build fails cleanly, and the next build
 * asks again and succeeds (a NULL CPU name kept for the life of the process
 * crashed every later build). */
TEST(host_cpu_name_out_of_memory)
{
  alarm(120);
  setenv("LANECL_CACHE_DIR", "off", 1); /* the builds must reach the compiler */
  unsetenv("LANECL_CPU");
  cl_context ctx = tl_context();
  const char *src = step_src;
  cl_int err;
  /* The name LLVM will give: asked of the same library first. */
  void *llvm = dlopen("libLLVM.so.19.1", RTLD_NOW | RTLD_LOCAL);
  ASSERT_TRUE(llvm != NULL);
  char *(*host_cpu_name)(void) = (char *(*)(void))dlsym(llvm, "LLVMGetHostCPUName");
  ASSERT_TRUE(host_cpu_name != NULL);
  char *name = host_cpu_name();
  ASSERT_TRUE(name && name[0]);
  fa_fail_strdup_of = name;
  fa_fail_strdup_from = "lanecl_cc";
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ASSERT_OK(err);
  err = clBuildProgram(p, 0, NULL, "", NULL, NULL);
  fa_fail_strdup_of = NULL;
  ASSERT_TRUE(atomic_load(&fa_strdup_failed) >= 1);
  ASSERT_TRUE(err == CL_BUILD_PROGRAM_FAILURE || err == CL_OUT_OF_HOST_MEMORY || err == CL_SUCCESS);
  ASSERT_OK(clReleaseProgram(p));
  /* A build after it works, and its kernel runs. */
  fixture f;
  f.ctx = ctx;
  f.q = tl_queue(ctx, 0);
  f.prog = tl_build(ctx, "kernel void step(global int *a, int v) { a[0] = a[0] * 10 + v + 1; }\n", "");
  f.k = clCreateKernel(f.prog, "step", &err);
  ASSERT_OK(err);
  int zero = 0;
  f.a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(int), &zero, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(f.k, 0, sizeof(cl_mem), &f.a));
  ASSERT_OK(step(&f, 4, 0, NULL, NULL));
  ASSERT_EQ(result(&f), 5);
  teardown(&f);
}

/* A build served by the cache (no compiler: every allocation is the
 * runtime's), each allocation failed in turn: the build fails with
 * CL_OUT_OF_HOST_MEMORY or a build error whose log says what happened
 * (running out of memory reading the container was reported as "not a
 * valid program container"), or succeeds and the kernel runs. */
TEST(build_from_cache_out_of_memory)
{
  alarm(300);
  const char *src = "kernel void step(global int *a, int v) { a[0] = a[0] * 10 + v + 7; }\n";
  cl_context ctx = tl_context();
  cl_program warm = tl_build(ctx, src, ""); /* the entry is in the cache now */
  ASSERT_OK(clReleaseProgram(warm));
  int failures = 0;
  for (long n = 1;; n++) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    ASSERT_OK(err);
    fa_arm(n);
    err = clBuildProgram(p, 0, NULL, "", NULL, NULL);
    int hit = fa_disarm();
    if (err != CL_SUCCESS) {
      ASSERT_TRUE(hit);
      failures++;
      size_t len = 0;
      ASSERT_OK(clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BUILD_LOG, 0, NULL, &len));
      char *log = calloc(1, len + 1);
      ASSERT_OK(clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BUILD_LOG, len, log, NULL));
      if (err != CL_OUT_OF_HOST_MEMORY) {
        ASSERT_CL(err, CL_BUILD_PROGRAM_FAILURE);
        if (!strstr(log, "out of host memory") && !strstr(log, "memory")) {
          printf("allocation %ld: %s\n", n, log);
          ASSERT_TRUE(!"the log says why");
        }
      }
      ASSERT_TRUE(!strstr(log, "not a valid program container"));
      free(log);
      ASSERT_OK(clReleaseProgram(p));
      continue;
    }
    fixture f = {.ctx = ctx, .prog = p};
    f.q = tl_queue(ctx, 0);
    f.k = clCreateKernel(p, "step", &err);
    ASSERT_OK(err);
    int zero = 0;
    f.a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(int), &zero, &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(f.k, 0, sizeof(cl_mem), &f.a));
    ASSERT_OK(step(&f, 1, 0, NULL, NULL));
    ASSERT_EQ(result(&f), 8);
    clReleaseMemObject(f.a);
    clReleaseKernel(f.k);
    clReleaseCommandQueue(f.q);
    ASSERT_OK(clReleaseProgram(p));
    if (!hit)
      break;
  }
  printf("%d allocations of a cached build failed in turn\n", failures);
  ASSERT_TRUE(failures >= 3);
  ASSERT_OK(clReleaseContext(ctx));
}

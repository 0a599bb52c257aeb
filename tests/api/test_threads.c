/* Host threads on one context: private and shared queues (in-order and
 * out-of-order) with reads, writes, copies and fills checked for every
 * byte; concurrent clFinish, waits on one user event, callbacks and
 * reference counting from several threads; first launches of the kernels
 * of one program from several threads. */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "tests/testlib.h"

enum { NTHREADS = 4, CHUNK = 1 << 14, ITERS = 400 };

struct shared {
  cl_context ctx;
  cl_command_queue shared_q;     /* in-order */
  cl_command_queue shared_ooo;   /* out-of-order */
  cl_mem big;                    /* NTHREADS * CHUNK ints, one slice per thread */
  cl_event gate;
  atomic_int counter;
};

struct worker {
  struct shared *s;
  int id;
};

static unsigned next_rand(unsigned *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state;
}

static cl_mem buffer(cl_context ctx, size_t size)
{
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
  ASSERT_OK(err);
  return m;
}

/* Each thread: its own queue and buffers, plus its slice of a shared
 * buffer; write, copy, fill, read, check. */
static void *private_queue_worker(void *arg)
{
  struct worker *w = arg;
  struct shared *s = w->s;
  cl_command_queue q = tl_queue(s->ctx, w->id % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
  cl_mem a = buffer(s->ctx, CHUNK * sizeof(int)), b = buffer(s->ctx, CHUNK * sizeof(int));
  int *src = malloc(CHUNK * sizeof(int)), *back = malloc(CHUNK * sizeof(int));
  unsigned rnd = 12345u + (unsigned)w->id;
  size_t slice = (size_t)w->id * CHUNK * sizeof(int);
  for (int it = 0; it < ITERS; it++) {
    for (int i = 0; i < CHUNK; i++)
      src[i] = (int)next_rand(&rnd);
    cl_event e1, e2, e3;
    ASSERT_OK(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, CHUNK * sizeof(int), src, 0, NULL, &e1));
    ASSERT_OK(clEnqueueCopyBuffer(q, a, b, 0, 0, CHUNK * sizeof(int), 1, &e1, &e2));
    ASSERT_OK(clEnqueueCopyBuffer(q, b, s->big, 0, slice, CHUNK * sizeof(int), 1, &e2, &e3));
    int marker = it * 1000 + w->id;
    /* The fill overwrites the first 16 ints of the copy in b, after it. */
    ASSERT_OK(clEnqueueFillBuffer(q, b, &marker, sizeof(marker), 0, 16 * sizeof(int), 1, &e3, NULL));
    ASSERT_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, s->big, CL_TRUE, slice, CHUNK * sizeof(int), back, 0, NULL, NULL));
    ASSERT_TRUE(memcmp(src, back, CHUNK * sizeof(int)) == 0);
    ASSERT_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, CHUNK * sizeof(int), back, 0, NULL, NULL));
    for (int i = 0; i < CHUNK; i++)
      ASSERT_EQ(back[i], i < 16 ? marker : src[i]);
    ASSERT_OK(clReleaseEvent(e1));
    ASSERT_OK(clReleaseEvent(e2));
    ASSERT_OK(clReleaseEvent(e3));
  }
  free(src);
  free(back);
  ASSERT_OK(clReleaseMemObject(a));
  ASSERT_OK(clReleaseMemObject(b));
  ASSERT_OK(clReleaseCommandQueue(q));
  return NULL;
}

static struct shared make_shared(void)
{
  struct shared s;
  s.ctx = tl_context();
  s.shared_q = tl_queue(s.ctx, 0);
  s.shared_ooo = tl_queue(s.ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  s.big = buffer(s.ctx, NTHREADS * CHUNK * sizeof(int));
  cl_int err;
  s.gate = clCreateUserEvent(s.ctx, &err);
  ASSERT_OK(err);
  atomic_init(&s.counter, 0);
  return s;
}

static void free_shared(struct shared *s)
{
  clSetUserEventStatus(s->gate, CL_COMPLETE); /* may already be set */
  ASSERT_OK(clReleaseEvent(s->gate));
  ASSERT_OK(clReleaseMemObject(s->big));
  ASSERT_OK(clReleaseCommandQueue(s->shared_q));
  ASSERT_OK(clReleaseCommandQueue(s->shared_ooo));
  ASSERT_OK(clReleaseContext(s->ctx));
}

static void run_threads(struct shared *s, void *(*fn)(void *))
{
  pthread_t t[NTHREADS];
  struct worker w[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    w[i].s = s;
    w[i].id = i;
    ASSERT_EQ(pthread_create(&t[i], NULL, fn, &w[i]), 0);
  }
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], NULL);
}

TEST(threads_private_queues)
{
  struct shared s = make_shared();
  run_threads(&s, private_queue_worker);
  free_shared(&s);
}

/* Each thread: blocking writes and reads of its slice through the one
 * in-order queue every thread uses. */
static void *shared_queue_worker(void *arg)
{
  struct worker *w = arg;
  struct shared *s = w->s;
  int *src = malloc(CHUNK * sizeof(int)), *back = malloc(CHUNK * sizeof(int));
  unsigned rnd = 777u * (unsigned)(w->id + 1);
  size_t slice = (size_t)w->id * CHUNK * sizeof(int);
  for (int it = 0; it < ITERS; it++) {
    for (int i = 0; i < CHUNK; i++)
      src[i] = (int)next_rand(&rnd);
    size_t off = (next_rand(&rnd) % 64) * sizeof(int);
    size_t len = CHUNK * sizeof(int) - off;
    ASSERT_OK(clEnqueueWriteBuffer(s->shared_q, s->big, it % 2 == 0, slice + off, len, src, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(s->shared_q, s->big, CL_TRUE, slice + off, len, back, 0, NULL, NULL));
    ASSERT_TRUE(memcmp(src, back, len) == 0);
  }
  free(src);
  free(back);
  return NULL;
}

TEST(threads_shared_in_order_queue)
{
  struct shared s = make_shared();
  run_threads(&s, shared_queue_worker);
  free_shared(&s);
}

/* Each thread: an event chain on the shared out-of-order queue. */
static void *shared_ooo_worker(void *arg)
{
  struct worker *w = arg;
  struct shared *s = w->s;
  cl_mem tmp = buffer(s->ctx, CHUNK * sizeof(int));
  int *src = malloc(CHUNK * sizeof(int)), *back = malloc(CHUNK * sizeof(int));
  unsigned rnd = 99u + (unsigned)w->id;
  size_t slice = (size_t)w->id * CHUNK * sizeof(int);
  for (int it = 0; it < ITERS; it++) {
    for (int i = 0; i < CHUNK; i++)
      src[i] = (int)next_rand(&rnd);
    cl_event e[3];
    ASSERT_OK(clEnqueueWriteBuffer(s->shared_ooo, tmp, CL_FALSE, 0, CHUNK * sizeof(int), src, 0, NULL, &e[0]));
    ASSERT_OK(clEnqueueCopyBuffer(s->shared_ooo, tmp, s->big, 0, slice, CHUNK * sizeof(int), 1, &e[0], &e[1]));
    ASSERT_OK(clEnqueueReadBuffer(s->shared_ooo, s->big, CL_FALSE, slice, CHUNK * sizeof(int), back, 1, &e[1],
                                  &e[2]));
    ASSERT_OK(clWaitForEvents(3, e));
    ASSERT_TRUE(memcmp(src, back, CHUNK * sizeof(int)) == 0);
    for (int i = 0; i < 3; i++)
      ASSERT_OK(clReleaseEvent(e[i]));
  }
  free(src);
  free(back);
  ASSERT_OK(clReleaseMemObject(tmp));
  return NULL;
}

TEST(threads_shared_out_of_order_queue)
{
  struct shared s = make_shared();
  run_threads(&s, shared_ooo_worker);
  free_shared(&s);
}

/* Threads waiting at once: on the same user event, on commands gated by it
 * in the shared queues, and in clFinish. */
static void *gate_waiter(void *arg)
{
  struct worker *w = arg;
  struct shared *s = w->s;
  switch (w->id % 4) {
  case 0:
    ASSERT_OK(clWaitForEvents(1, &s->gate));
    break;
  case 1:
  case 2: {
    cl_event m;
    ASSERT_OK(clEnqueueMarkerWithWaitList(w->id == 1 ? s->shared_q : s->shared_ooo, 1, &s->gate, &m));
    ASSERT_OK(clWaitForEvents(1, &m));
    ASSERT_OK(clReleaseEvent(m));
    break;
  }
  default:
    ASSERT_OK(clFinish(s->shared_q));
    break;
  }
  atomic_fetch_add(&s->counter, 1);
  return NULL;
}

TEST(threads_wait_on_one_user_event)
{
  struct shared s = make_shared();
  cl_event m;
  ASSERT_OK(clEnqueueMarkerWithWaitList(s.shared_q, 1, &s.gate, &m)); /* makes clFinish wait too */
  pthread_t t[NTHREADS];
  struct worker w[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    w[i].s = &s;
    w[i].id = i;
    ASSERT_EQ(pthread_create(&t[i], NULL, gate_waiter, &w[i]), 0);
  }
  usleep(20000);
  ASSERT_EQ(atomic_load(&s.counter), 0);
  ASSERT_OK(clSetUserEventStatus(s.gate, CL_COMPLETE));
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], NULL);
  ASSERT_EQ(atomic_load(&s.counter), NTHREADS);
  ASSERT_OK(clReleaseEvent(m));
  free_shared(&s);
}

/* Concurrent clFinish while other threads enqueue on the same queue. */
static void *finisher(void *arg)
{
  struct worker *w = arg;
  struct shared *s = w->s;
  static const int ids[NTHREADS] = {0, 1, 2, 3};
  for (int it = 0; it < 500; it++) {
    /* Commands of an out-of-order queue may run at once: each its own int. */
    size_t at = ((size_t)w->id * 500 + (size_t)it) * sizeof(int);
    ASSERT_OK(clEnqueueWriteBuffer(s->shared_ooo, s->big, CL_FALSE, at, sizeof(int), &ids[w->id], 0, NULL, NULL));
    if (it % 3 == 0)
      ASSERT_OK(clFinish(s->shared_ooo));
    else
      ASSERT_OK(clFlush(s->shared_ooo));
  }
  ASSERT_OK(clFinish(s->shared_ooo));
  return NULL;
}

TEST(threads_concurrent_finish)
{
  struct shared s = make_shared();
  run_threads(&s, finisher);
  static int back[NTHREADS * 500];
  ASSERT_OK(clEnqueueReadBuffer(s.shared_q, s.big, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL));
  for (int i = 0; i < NTHREADS * 500; i++)
    ASSERT_EQ(back[i], i / 500);
  free_shared(&s);
}

/* Callbacks and references from several threads. */
static void CL_CALLBACK count_cb(cl_event e, cl_int status, void *user_data)
{
  struct shared *s = user_data;
  ASSERT_EQ(status, CL_COMPLETE);
  atomic_fetch_add(&s->counter, 1);
  ASSERT_OK(clReleaseEvent(e)); /* the reference the worker handed over */
}

static void *callback_worker(void *arg)
{
  struct worker *w = arg;
  struct shared *s = w->s;
  cl_command_queue q = tl_queue(s->ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  for (int it = 0; it < ITERS; it++) {
    cl_event e;
    ASSERT_OK(clEnqueueMarkerWithWaitList(q, 1, &s->gate, &e));
    ASSERT_OK(clRetainEvent(s->gate));
    ASSERT_OK(clSetEventCallback(e, CL_COMPLETE, count_cb, s));
    ASSERT_OK(clReleaseEvent(s->gate));
  }
  ASSERT_OK(clReleaseCommandQueue(q)); /* commands still pending on the gate */
  return NULL;
}

TEST(threads_callbacks_and_references)
{
  struct shared s = make_shared();
  run_threads(&s, callback_worker);
  ASSERT_EQ(atomic_load(&s.counter), 0);
  ASSERT_OK(clSetUserEventStatus(s.gate, CL_COMPLETE));
  for (int i = 0; i < 10000 && atomic_load(&s.counter) < NTHREADS * ITERS; i++)
    usleep(1000);
  ASSERT_EQ(atomic_load(&s.counter), NTHREADS * ITERS);
  free_shared(&s);
}

/* Buffers created, used and released by every thread at once, with their
 * last release racing the command that uses them. */
static void *churn_worker(void *arg)
{
  struct worker *w = arg;
  struct shared *s = w->s;
  for (int it = 0; it < 300; it++) {
    cl_mem m = buffer(s->ctx, 4096 + (size_t)it);
    int v = it;
    ASSERT_OK(clEnqueueFillBuffer(s->shared_ooo, m, &v, sizeof(v), 0, 4096, 0, NULL, NULL));
    ASSERT_OK(clReleaseMemObject(m));
    cl_event ue;
    cl_int err;
    ue = clCreateUserEvent(s->ctx, &err);
    ASSERT_OK(err);
    ASSERT_OK(clRetainEvent(ue));
    ASSERT_OK(clReleaseEvent(ue));
    ASSERT_OK(clSetUserEventStatus(ue, CL_COMPLETE));
    ASSERT_OK(clReleaseEvent(ue));
  }
  return NULL;
}

TEST(threads_object_churn)
{
  struct shared s = make_shared();
  run_threads(&s, churn_worker);
  ASSERT_OK(clFinish(s.shared_ooo));
  free_shared(&s);
}

/* Sub-devices made and released by one thread while another runs kernels
 * on their parent (its first launch creates the parent's worker pool).  A
 * sub-device copies the parent's description only, not the fields other
 * threads change meanwhile: the ThreadSanitizer build (label tsan) fails
 * this test on such a race. */
static void *partition_worker(void *arg)
{
  cl_device_id parent = arg;
  for (int it = 0; it < 200; it++) {
    const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id sub[64];
    cl_uint n = 0;
    ASSERT_OK(clCreateSubDevices(parent, props, 64, sub, &n));
    ASSERT_TRUE(n >= 2 && n <= 64);
    for (cl_uint i = 0; i < n; i++) {
      cl_uint cu = 0;
      cl_device_id p = NULL;
      ASSERT_OK(clGetDeviceInfo(sub[i], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cu), &cu, NULL));
      ASSERT_OK(clGetDeviceInfo(sub[i], CL_DEVICE_PARENT_DEVICE, sizeof(p), &p, NULL));
      ASSERT_EQ(cu, 1);
      ASSERT_TRUE(p == parent);
      ASSERT_OK(clReleaseDevice(sub[i]));
    }
  }
  return NULL;
}

TEST(threads_sub_devices_while_the_parent_runs)
{
  cl_device_id dev = tl_device();
  cl_uint cu = 0;
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cu), &cu, NULL));
  if (cu < 2)
    tl_skip("the device has %u compute unit: no sub-devices", cu);
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, "kernel void k(global int *p) { p[get_global_id(0)] += 1; }", NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  enum { N = 4096, LAUNCHES = 50 };
  cl_mem m = buffer(ctx, N * sizeof(int));
  int zero = 0;
  ASSERT_OK(clEnqueueFillBuffer(q, m, &zero, sizeof(zero), 0, N * sizeof(int), 0, NULL, NULL));
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(m), &m));
  pthread_t t;
  ASSERT_EQ(pthread_create(&t, NULL, partition_worker, dev), 0);
  for (int i = 0; i < LAUNCHES; i++) {
    size_t global = N, local = 64;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    ASSERT_OK(clFinish(q));
  }
  pthread_join(t, NULL);
  int *back = malloc(N * sizeof(int));
  ASSERT_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, N * sizeof(int), back, 0, NULL, NULL));
  for (int i = 0; i < N; i++)
    ASSERT_EQ(back[i], LAUNCHES);
  free(back);
  ASSERT_OK(clReleaseMemObject(m));
  ASSERT_OK(clReleaseKernel(k));
  ASSERT_OK(clReleaseProgram(p));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

/* A staged program's kernels get their code at their first launch, under
 * the program's lock, and a launch reads the function without it
 * (runtime/kernel.c, rt_kernel_code): threads launch the kernels of one
 * program for the first time at once, each with kernel objects of its own,
 * in different orders, while one asks for the program's binary (a copy
 * taken at the first query, the same bytes afterwards). */
enum { FL_KERNELS = 3, FL_N = 4096 };
static const char first_launch_src[] =
    "kernel void k0(global int *o, int v) { o[get_global_id(0)] = v + (int)get_global_id(0); }\n"
    "kernel void k1(global int *o, int v) { o[get_global_id(0)] = v * 3 - (int)get_global_id(0); }\n"
    "kernel void k2(global int *o, int v) {\n"
    "  local int t[64];\n"
    "  t[get_local_id(0)] = v ^ (int)get_global_id(0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[get_global_id(0)] = t[get_local_size(0) - 1 - get_local_id(0)];\n"
    "}\n";

struct first_launch {
  cl_context ctx;
  cl_program p;
  pthread_barrier_t start;
};

struct first_launch_thread {
  struct first_launch *f;
  int id;
};

static int first_launch_want(int k, int v, size_t i)
{
  int g = (int)i;
  return k == 0 ? v + g : k == 1 ? v * 3 - g : v ^ (int)(i / 64 * 64 + 63 - i % 64);
}

static void *first_launch_worker(void *arg)
{
  struct first_launch_thread *w = arg;
  struct first_launch *f = w->f;
  cl_command_queue q = tl_queue(f->ctx, 0);
  cl_mem o = buffer(f->ctx, FL_N * sizeof(int));
  cl_kernel k[FL_KERNELS];
  cl_int err;
  for (int j = 0; j < FL_KERNELS; j++) {
    char name[4] = {'k', (char)('0' + j), 0};
    k[j] = clCreateKernel(f->p, name, &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(k[j], 0, sizeof(o), &o));
  }
  int *back = malloc(FL_N * sizeof(int));
  pthread_barrier_wait(&f->start);
  if (w->id == NTHREADS - 1) {  /* the binary, while the others launch */
    size_t size = 0, again = 0;
    ASSERT_OK(clGetProgramInfo(f->p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL));
    unsigned char *bin = malloc(size);
    ASSERT_OK(clGetProgramInfo(f->p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL));
    ASSERT_OK(clGetProgramInfo(f->p, CL_PROGRAM_BINARY_SIZES, sizeof(again), &again, NULL));
    ASSERT_EQ(again, size);
    free(bin);
  }
  for (int it = 0; it < 6; it++) {
    int j = (it + w->id) % FL_KERNELS, v = w->id * 100 + it;
    ASSERT_OK(clSetKernelArg(k[j], 1, sizeof(v), &v));
    size_t g = FL_N, l = 64;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k[j], 1, NULL, &g, &l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, FL_N * sizeof(int), back, 0, NULL, NULL));
    for (size_t i = 0; i < FL_N; i++)
      if (back[i] != first_launch_want(j, v, i))
        tl_fail(__FILE__, __LINE__, "thread %d, k%d: o[%zu] = %d, want %d", w->id, j, i, back[i],
                first_launch_want(j, v, i));
  }
  free(back);
  for (int j = 0; j < FL_KERNELS; j++)
    ASSERT_OK(clReleaseKernel(k[j]));
  ASSERT_OK(clReleaseMemObject(o));
  ASSERT_OK(clReleaseCommandQueue(q));
  return NULL;
}

TEST(threads_first_launches_of_one_program)
{
  setenv("LANECL_CACHE_DIR", "off", 1);
  setenv("LANECL_CC_LAZY", "1", 1);
  struct first_launch f;
  f.ctx = tl_context();
  f.p = tl_build(f.ctx, first_launch_src, NULL);
  ASSERT_EQ(pthread_barrier_init(&f.start, NULL, NTHREADS), 0);
  pthread_t t[NTHREADS];
  struct first_launch_thread w[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    w[i] = (struct first_launch_thread){&f, i};
    ASSERT_EQ(pthread_create(&t[i], NULL, first_launch_worker, &w[i]), 0);
  }
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], NULL);
  pthread_barrier_destroy(&f.start);
  ASSERT_OK(clReleaseProgram(f.p));
  ASSERT_OK(clReleaseContext(f.ctx));
}

/* Event family through the ICD loader: user events, clWaitForEvents,
 * clGetEventInfo, clSetEventCallback, clGetEventProfilingInfo,
 * clRetain/ReleaseEvent, markers and barriers; the asynchronous execution
 * they observe (status transitions, error propagation, out-of-order and
 * cross-queue dependencies). */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "tests/testlib.h"

static cl_int status_of(cl_event e)
{
  cl_int st = 12345;
  size_t size = 0;
  ASSERT_OK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, &size));
  ASSERT_EQ(size, sizeof(st));
  return st;
}

static cl_uint event_refcount(cl_event e)
{
  cl_uint n = 0;
  ASSERT_OK(clGetEventInfo(e, CL_EVENT_REFERENCE_COUNT, sizeof(n), &n, NULL));
  return n;
}

static cl_event user_event(cl_context ctx)
{
  cl_int err;
  cl_event e = clCreateUserEvent(ctx, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(e != NULL);
  return e;
}

static cl_mem buffer(cl_context ctx, size_t size)
{
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
  ASSERT_OK(err);
  return m;
}

TEST(user_event_basics)
{
  cl_context ctx = tl_context();
  cl_event e = user_event(ctx);
  ASSERT_EQ(status_of(e), CL_SUBMITTED);
  cl_command_type type = 0;
  ASSERT_OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
  ASSERT_EQ(type, CL_COMMAND_USER);
  cl_command_queue q = (cl_command_queue)1;
  ASSERT_OK(clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, NULL));
  ASSERT_TRUE(q == NULL);
  cl_context c = NULL;
  ASSERT_OK(clGetEventInfo(e, CL_EVENT_CONTEXT, sizeof(c), &c, NULL));
  ASSERT_TRUE(c == ctx);
  ASSERT_EQ(event_refcount(e), 1);

  /* Only CL_COMPLETE or a negative value; only once. */
  ASSERT_CL(clSetUserEventStatus(e, CL_RUNNING), CL_INVALID_VALUE);
  ASSERT_CL(clSetUserEventStatus(e, CL_SUBMITTED), CL_INVALID_VALUE);
  ASSERT_CL(clSetUserEventStatus(e, 5), CL_INVALID_VALUE);
  ASSERT_OK(clSetUserEventStatus(e, CL_COMPLETE));
  ASSERT_EQ(status_of(e), CL_COMPLETE);
  ASSERT_CL(clSetUserEventStatus(e, CL_COMPLETE), CL_INVALID_OPERATION);
  ASSERT_CL(clSetUserEventStatus(e, -1), CL_INVALID_OPERATION);
  ASSERT_OK(clWaitForEvents(1, &e));
  ASSERT_OK(clReleaseEvent(e));

  cl_event f = user_event(ctx);
  ASSERT_OK(clSetUserEventStatus(f, -77));
  ASSERT_EQ(status_of(f), -77);
  ASSERT_CL(clWaitForEvents(1, &f), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ASSERT_OK(clReleaseEvent(f));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(user_event_errors)
{
  cl_context ctx = tl_context();
  cl_int err;
  ASSERT_TRUE(clCreateUserEvent(NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_CL(clSetUserEventStatus(NULL, CL_COMPLETE), CL_INVALID_EVENT);
  /* An event of a command is not a user event. */
  cl_command_queue q = tl_queue(ctx, 0);
  cl_event m;
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
  ASSERT_CL(clSetUserEventStatus(m, CL_COMPLETE), CL_INVALID_EVENT);
  ASSERT_CL(clSetUserEventStatus((cl_event)ctx, CL_COMPLETE), CL_INVALID_EVENT);
  ASSERT_OK(clReleaseEvent(m));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(user_event_gates_a_command)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_mem buf = buffer(ctx, 16);
  cl_event gate = user_event(ctx);
  static int v = 1234, back = 0;
  cl_event w, r;
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(v), &v, 1, &gate, &w));
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof(back), &back, 0, NULL, &r));
  ASSERT_OK(clFlush(q));
  usleep(20000);
  ASSERT_EQ(status_of(w), CL_QUEUED);
  ASSERT_EQ(status_of(r), CL_QUEUED); /* in order: behind the write */
  ASSERT_EQ(back, 0);
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &r));
  ASSERT_EQ(status_of(w), CL_COMPLETE);
  ASSERT_EQ(status_of(r), CL_COMPLETE);
  ASSERT_EQ(back, 1234);
  cl_command_type type;
  ASSERT_OK(clGetEventInfo(w, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
  ASSERT_EQ(type, CL_COMMAND_WRITE_BUFFER);
  cl_command_queue eq;
  ASSERT_OK(clGetEventInfo(r, CL_EVENT_COMMAND_QUEUE, sizeof(eq), &eq, NULL));
  ASSERT_TRUE(eq == q);
  ASSERT_OK(clReleaseEvent(w));
  ASSERT_OK(clReleaseEvent(r));
  ASSERT_OK(clReleaseEvent(gate));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(error_propagates_through_wait_lists)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_mem buf = buffer(ctx, 16);
  cl_event gate = user_event(ctx);
  static int v = 5, back = 0;
  cl_event w, m, r, after;
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(v), &v, 1, &gate, &w));
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 1, &w, &m));         /* fails with w */
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof(back), &back, 1, &m, &r)); /* fails with m */
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 4, sizeof(v), &v, 0, NULL, &after)); /* queue order only */
  ASSERT_OK(clSetUserEventStatus(gate, -42));
  ASSERT_OK(clFinish(q));
  ASSERT_EQ(status_of(w), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ASSERT_EQ(status_of(m), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ASSERT_EQ(status_of(r), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ASSERT_EQ(status_of(after), CL_COMPLETE);
  ASSERT_EQ(back, 0); /* the read never ran */
  ASSERT_CL(clWaitForEvents(1, &r), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_event both[] = {after, r};
  ASSERT_CL(clWaitForEvents(2, both), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ASSERT_OK(clWaitForEvents(1, &after));

  /* A blocking call whose wait list holds a failed event returns the error
   * and creates no event. */
  cl_event none = (cl_event)1;
  ASSERT_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(back), &back, 1, &gate, &none),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ASSERT_TRUE(none == (cl_event)1);
  ASSERT_EQ(back, 0);
  for (cl_event *e = (cl_event[]){w, m, r, after, gate}, *end = e + 5; e < end; e++)
    ASSERT_OK(clReleaseEvent(*e));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(wait_for_events_errors)
{
  cl_context ctx = tl_context();
  cl_context ctx2 = tl_context();
  cl_event a = user_event(ctx), b = user_event(ctx2);
  ASSERT_CL(clWaitForEvents(0, &a), CL_INVALID_VALUE);
  ASSERT_CL(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
  cl_event bad[] = {a, NULL};
  ASSERT_CL(clWaitForEvents(2, bad), CL_INVALID_EVENT);
  cl_event bad2[] = {(cl_event)ctx};
  ASSERT_CL(clWaitForEvents(1, bad2), CL_INVALID_EVENT);
  cl_event mixed[] = {a, b};
  ASSERT_CL(clWaitForEvents(2, mixed), CL_INVALID_CONTEXT);
  ASSERT_OK(clSetUserEventStatus(a, CL_COMPLETE));
  ASSERT_OK(clSetUserEventStatus(b, CL_COMPLETE));
  ASSERT_OK(clReleaseEvent(a));
  ASSERT_OK(clReleaseEvent(b));
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_OK(clReleaseContext(ctx2));
}

struct setter {
  cl_event e;
  cl_int status;
  int delay_us;
};

static void *set_later(void *arg)
{
  struct setter *s = arg;
  usleep(s->delay_us);
  ASSERT_OK(clSetUserEventStatus(s->e, s->status));
  return NULL;
}

TEST(wait_for_events_blocks_until_set)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_event gate = user_event(ctx);
  cl_event m;
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 1, &gate, &m));
  struct setter s = {gate, CL_COMPLETE, 30000};
  pthread_t t;
  pthread_create(&t, NULL, set_later, &s);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  cl_event both[] = {gate, m};
  ASSERT_OK(clWaitForEvents(2, both));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  ASSERT_TRUE(ms >= 20);
  ASSERT_EQ(status_of(m), CL_COMPLETE);
  pthread_join(t, NULL);
  ASSERT_OK(clReleaseEvent(m));
  ASSERT_OK(clReleaseEvent(gate));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(event_info_errors_and_refcount)
{
  cl_context ctx = tl_context();
  cl_event e = user_event(ctx);
  cl_int st;
  size_t size;
  ASSERT_CL(clGetEventInfo(NULL, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL), CL_INVALID_EVENT);
  ASSERT_CL(clGetEventInfo((cl_event)ctx, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL),
            CL_INVALID_EVENT);
  ASSERT_CL(clGetEventInfo(e, 0x7777, sizeof(st), &st, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, 1, &st, NULL), CL_INVALID_VALUE);
  ASSERT_OK(clGetEventInfo(e, CL_EVENT_CONTEXT, 0, NULL, &size));
  ASSERT_EQ(size, sizeof(cl_context));
  ASSERT_OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, 0, NULL, &size));
  ASSERT_EQ(size, sizeof(cl_command_type));
  ASSERT_OK(clRetainEvent(e));
  ASSERT_EQ(event_refcount(e), 2);
  ASSERT_OK(clReleaseEvent(e));
  ASSERT_EQ(event_refcount(e), 1);
  ASSERT_CL(clRetainEvent(NULL), CL_INVALID_EVENT);
  ASSERT_CL(clReleaseEvent(NULL), CL_INVALID_EVENT);
  ASSERT_CL(clRetainEvent((cl_event)ctx), CL_INVALID_EVENT);
  ASSERT_CL(clReleaseEvent((cl_event)ctx), CL_INVALID_EVENT);
  ASSERT_OK(clSetUserEventStatus(e, CL_COMPLETE));
  ASSERT_OK(clReleaseEvent(e));
  ASSERT_OK(clReleaseContext(ctx));
}

/* ---- callbacks ---- */

#define MAX_CALLS 64
static struct {
  atomic_int n;                  /* entries written */
  atomic_int reserved;           /* entries claimed */
  struct {
    cl_event e;
    cl_int registered, got;
    pthread_t thread;
  } calls[MAX_CALLS];
} cb_log;

static void CL_CALLBACK record_cb(cl_event e, cl_int status, void *user_data)
{
  int i = atomic_fetch_add(&cb_log.reserved, 1);
  if (i < MAX_CALLS) {
    cb_log.calls[i].e = e;
    cb_log.calls[i].registered = (cl_int)(intptr_t)user_data;
    cb_log.calls[i].got = status;
    cb_log.calls[i].thread = pthread_self();
  }
  atomic_fetch_add(&cb_log.n, 1); /* publishes the entry */
}

/* Tests share the log when they run in one process (TL_NOFORK=1). */
static void reset_calls(void)
{
  atomic_store(&cb_log.n, 0);
  atomic_store(&cb_log.reserved, 0);
}

static void wait_calls(int n)
{
  for (int i = 0; i < 5000 && atomic_load(&cb_log.n) < n; i++)
    usleep(1000);
  ASSERT_EQ(atomic_load(&cb_log.n), n);
}

static void set_callbacks(cl_event e)
{
  /* Registered in reverse order of the statuses: they still fire in the
   * order of the status changes. */
  ASSERT_OK(clSetEventCallback(e, CL_COMPLETE, record_cb, (void *)(intptr_t)CL_COMPLETE));
  ASSERT_OK(clSetEventCallback(e, CL_RUNNING, record_cb, (void *)(intptr_t)CL_RUNNING));
  ASSERT_OK(clSetEventCallback(e, CL_SUBMITTED, record_cb, (void *)(intptr_t)CL_SUBMITTED));
}

TEST(callbacks_each_status_once_in_order)
{
  reset_calls();
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_mem buf = buffer(ctx, 1 << 16);
  cl_event gate = user_event(ctx);
  static char data[1 << 16];
  cl_event w;
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(data), data, 1, &gate, &w));
  set_callbacks(w);
  usleep(10000);
  ASSERT_EQ(atomic_load(&cb_log.n), 0); /* still QUEUED */
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &w));
  wait_calls(3);
  usleep(10000);
  ASSERT_EQ(atomic_load(&cb_log.n), 3); /* once each */
  static const cl_int order[] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
  for (int i = 0; i < 3; i++) {
    ASSERT_TRUE(cb_log.calls[i].e == w);
    ASSERT_EQ(cb_log.calls[i].registered, order[i]);
    ASSERT_EQ(cb_log.calls[i].got, order[i]);
    /* From a runtime thread, not the application's. */
    ASSERT_TRUE(!pthread_equal(cb_log.calls[i].thread, pthread_self()));
  }
  ASSERT_OK(clReleaseEvent(w));
  ASSERT_OK(clReleaseEvent(gate));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(callbacks_on_complete_and_failed_events)
{
  reset_calls();
  cl_context ctx = tl_context();
  /* Registered after completion: fires at once (from the runtime). */
  cl_event done = user_event(ctx);
  ASSERT_OK(clSetUserEventStatus(done, CL_COMPLETE));
  set_callbacks(done);
  wait_calls(3);
  for (int i = 0; i < 3; i++)
    ASSERT_EQ(cb_log.calls[i].got, cb_log.calls[i].registered);

  /* A failed command: every callback gets the error code. */
  reset_calls();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_event gate = user_event(ctx);
  cl_event m;
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 1, &gate, &m));
  set_callbacks(m);
  ASSERT_OK(clSetUserEventStatus(gate, -9));
  wait_calls(3);
  static const cl_int order[] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
  for (int i = 0; i < 3; i++) {
    ASSERT_EQ(cb_log.calls[i].registered, order[i]);
    ASSERT_EQ(cb_log.calls[i].got, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  }
  /* A user event set to an error: its callbacks get that error. */
  reset_calls();
  ASSERT_OK(clSetEventCallback(gate, CL_COMPLETE, record_cb, (void *)(intptr_t)CL_COMPLETE));
  wait_calls(1);
  ASSERT_EQ(cb_log.calls[0].got, -9);
  ASSERT_OK(clReleaseEvent(m));
  ASSERT_OK(clReleaseEvent(gate));
  ASSERT_OK(clReleaseEvent(done));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(set_event_callback_errors)
{
  cl_context ctx = tl_context();
  cl_event e = user_event(ctx);
  ASSERT_CL(clSetEventCallback(e, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clSetEventCallback(e, CL_QUEUED, record_cb, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clSetEventCallback(e, -1, record_cb, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clSetEventCallback(NULL, CL_COMPLETE, record_cb, NULL), CL_INVALID_EVENT);
  ASSERT_CL(clSetEventCallback((cl_event)ctx, CL_COMPLETE, record_cb, NULL), CL_INVALID_EVENT);
  ASSERT_OK(clSetUserEventStatus(e, CL_COMPLETE));
  ASSERT_OK(clReleaseEvent(e));
  ASSERT_OK(clReleaseContext(ctx));
}

/* A callback that calls the API: releases its event, sets the next user
 * event of a chain, and enqueues on another queue. */
struct chain {
  cl_command_queue q;
  cl_mem buf;
  cl_event next_gate;
  atomic_int done;
  int value;
};

static void CL_CALLBACK chain_cb(cl_event e, cl_int status, void *user_data)
{
  struct chain *c = user_data;
  ASSERT_EQ(status, CL_COMPLETE);
  ASSERT_OK(clReleaseEvent(e));
  ASSERT_OK(clEnqueueWriteBuffer(c->q, c->buf, CL_FALSE, 0, sizeof(c->value), &c->value, 0, NULL, NULL));
  ASSERT_OK(clFlush(c->q));
  atomic_store(&c->done, 1);
  ASSERT_OK(clSetUserEventStatus(c->next_gate, CL_COMPLETE));
}

TEST(callbacks_may_call_the_api)
{
  cl_context ctx = tl_context();
  cl_command_queue q1 = tl_queue(ctx, 0), q2 = tl_queue(ctx, 0);
  cl_mem buf = buffer(ctx, 16);
  cl_event gate = user_event(ctx), next = user_event(ctx);
  static struct chain c;
  c.q = q2;
  c.buf = buf;
  c.next_gate = next;
  c.value = 77;
  cl_event m;
  ASSERT_OK(clEnqueueMarkerWithWaitList(q1, 1, &gate, &m));
  ASSERT_OK(clSetEventCallback(m, CL_COMPLETE, chain_cb, &c)); /* the callback releases m */
  cl_event after;
  ASSERT_OK(clEnqueueMarkerWithWaitList(q1, 1, &next, &after));
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &after)); /* set by the callback */
  ASSERT_EQ(atomic_load(&c.done), 1);
  ASSERT_OK(clFinish(q2));
  int back = 0;
  ASSERT_OK(clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, sizeof(back), &back, 0, NULL, NULL));
  ASSERT_EQ(back, 77);
  ASSERT_OK(clReleaseEvent(after));
  ASSERT_OK(clReleaseEvent(gate));
  ASSERT_OK(clReleaseEvent(next));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q1));
  ASSERT_OK(clReleaseCommandQueue(q2));
  ASSERT_OK(clReleaseContext(ctx));
}

/* ---- profiling ---- */

static cl_ulong prof(cl_event e, cl_profiling_info p)
{
  cl_ulong v = 0;
  size_t size = 0;
  ASSERT_OK(clGetEventProfilingInfo(e, p, sizeof(v), &v, &size));
  ASSERT_EQ(size, sizeof(v));
  return v;
}

static cl_ulong mono_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}

TEST(profiling_timestamps)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, CL_QUEUE_PROFILING_ENABLE);
  cl_mem buf = buffer(ctx, 1 << 20);
  static char data[1 << 20];
  cl_event gate = user_event(ctx);
  cl_ulong before = mono_ns();
  cl_event w, m;
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(data), data, 1, &gate, &w));
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
  /* Not complete yet. */
  cl_ulong v;
  ASSERT_CL(clGetEventProfilingInfo(w, CL_PROFILING_COMMAND_QUEUED, sizeof(v), &v, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  usleep(2000);
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &m));
  cl_ulong after = mono_ns();
  cl_event evs[] = {w, m};
  for (int i = 0; i < 2; i++) {
    cl_ulong qd = prof(evs[i], CL_PROFILING_COMMAND_QUEUED), sb = prof(evs[i], CL_PROFILING_COMMAND_SUBMIT),
             st = prof(evs[i], CL_PROFILING_COMMAND_START), en = prof(evs[i], CL_PROFILING_COMMAND_END),
             co = prof(evs[i], CL_PROFILING_COMMAND_COMPLETE);
    ASSERT_TRUE(before <= qd);
    ASSERT_TRUE(qd <= sb && sb <= st && st <= en && en <= co);
    ASSERT_TRUE(co <= after);
  }
  /* The write waited on the gate: its submit is about 2 ms after queued. */
  ASSERT_TRUE(prof(w, CL_PROFILING_COMMAND_SUBMIT) - prof(w, CL_PROFILING_COMMAND_QUEUED) >= 1000000);
  /* The marker followed the write. */
  ASSERT_TRUE(prof(m, CL_PROFILING_COMMAND_START) >= prof(w, CL_PROFILING_COMMAND_END));

  ASSERT_CL(clGetEventProfilingInfo(w, 0x7777, sizeof(v), &v, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetEventProfilingInfo(w, CL_PROFILING_COMMAND_END, 4, &v, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetEventProfilingInfo(NULL, CL_PROFILING_COMMAND_END, sizeof(v), &v, NULL), CL_INVALID_EVENT);
  /* User events have none. */
  ASSERT_CL(clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_END, sizeof(v), &v, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  ASSERT_OK(clReleaseEvent(w));
  ASSERT_OK(clReleaseEvent(m));
  ASSERT_OK(clReleaseEvent(gate));

  /* A queue without profiling has none either. */
  cl_command_queue q2 = tl_queue(ctx, 0);
  ASSERT_OK(clEnqueueWriteBuffer(q2, buf, CL_TRUE, 0, 64, data, 0, NULL, &w));
  ASSERT_CL(clGetEventProfilingInfo(w, CL_PROFILING_COMMAND_END, sizeof(v), &v, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  ASSERT_OK(clReleaseEvent(w));
  ASSERT_OK(clReleaseCommandQueue(q2));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

/* ---- markers, barriers, out-of-order and cross-queue ---- */

TEST(marker_and_barrier_errors)
{
  cl_context ctx = tl_context(), ctx2 = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_event e = NULL, other = user_event(ctx2), mine = user_event(ctx);
  ASSERT_CL(clEnqueueMarkerWithWaitList(NULL, 0, NULL, &e), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueBarrierWithWaitList(NULL, 0, NULL, &e), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueMarkerWithWaitList(q, 1, &other, &e), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueBarrierWithWaitList(q, 1, &other, &e), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueMarkerWithWaitList(q, 1, NULL, &e), CL_INVALID_EVENT_WAIT_LIST);
  ASSERT_CL(clEnqueueMarkerWithWaitList(q, 0, &mine, &e), CL_INVALID_EVENT_WAIT_LIST);
  cl_event nul[] = {NULL};
  ASSERT_CL(clEnqueueMarkerWithWaitList(q, 1, nul, &e), CL_INVALID_EVENT_WAIT_LIST);
  ASSERT_CL(clEnqueueBarrierWithWaitList(q, 1, nul, &e), CL_INVALID_EVENT_WAIT_LIST);
  ASSERT_TRUE(e == NULL); /* no event on failure */
  ASSERT_CL(clEnqueueMarker(NULL, &e), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueMarker(q, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueBarrier(NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueWaitForEvents(NULL, 1, &mine), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueWaitForEvents(q, 0, &mine), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueWaitForEvents(q, 1, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueWaitForEvents(q, 1, &other), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueWaitForEvents(q, 1, nul), CL_INVALID_EVENT);
  ASSERT_OK(clSetUserEventStatus(other, CL_COMPLETE));
  ASSERT_OK(clSetUserEventStatus(mine, CL_COMPLETE));
  ASSERT_OK(clReleaseEvent(other));
  ASSERT_OK(clReleaseEvent(mine));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_OK(clReleaseContext(ctx2));
}

TEST(markers_and_barriers_1x)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem buf = buffer(ctx, 64);
  cl_event gate = user_event(ctx);
  static int v = 3;
  cl_event w;
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(v), &v, 1, &gate, &w));
  cl_event m;
  ASSERT_OK(clEnqueueMarker(q, &m)); /* waits for the write */
  cl_command_type type;
  ASSERT_OK(clGetEventInfo(m, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
  ASSERT_EQ(type, CL_COMMAND_MARKER);
  cl_event gate2 = user_event(ctx);
  ASSERT_OK(clEnqueueWaitForEvents(q, 1, &gate2)); /* later commands wait for gate2 */
  ASSERT_OK(clEnqueueBarrier(q));
  cl_event m2;
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m2));
  usleep(10000);
  ASSERT_TRUE(status_of(m) > CL_COMPLETE);
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &m));
  ASSERT_EQ(status_of(w), CL_COMPLETE);
  usleep(10000);
  ASSERT_TRUE(status_of(m2) > CL_COMPLETE);
  ASSERT_OK(clSetUserEventStatus(gate2, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &m2));
  ASSERT_OK(clFinish(q));
  for (cl_event *e = (cl_event[]){w, m, m2, gate, gate2}, *end = e + 5; e < end; e++)
    ASSERT_OK(clReleaseEvent(*e));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(out_of_order_queue_runs_ready_commands_first)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem buf = buffer(ctx, 64);
  cl_event gate = user_event(ctx);
  static int a = 1, b = 2;
  cl_event wa, wb;
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(a), &a, 1, &gate, &wa));
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 4, sizeof(b), &b, 0, NULL, &wb));
  ASSERT_OK(clWaitForEvents(1, &wb)); /* does not wait for wa */
  ASSERT_EQ(status_of(wa), CL_QUEUED);

  /* A marker with a wait list waits for that list only. */
  cl_event ml;
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 1, &wb, &ml));
  ASSERT_OK(clWaitForEvents(1, &ml));
  /* Without a list: for everything before it. */
  cl_event mall;
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &mall));
  /* A barrier blocks what follows. */
  cl_event bar, after;
  ASSERT_OK(clEnqueueBarrierWithWaitList(q, 0, NULL, &bar));
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 8, sizeof(b), &b, 0, NULL, &after));
  usleep(10000);
  ASSERT_EQ(status_of(mall), CL_QUEUED);
  ASSERT_EQ(status_of(bar), CL_QUEUED);
  ASSERT_EQ(status_of(after), CL_QUEUED);
  cl_command_type type;
  ASSERT_OK(clGetEventInfo(bar, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
  ASSERT_EQ(type, CL_COMMAND_BARRIER);
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &after));
  ASSERT_EQ(status_of(mall), CL_COMPLETE);
  ASSERT_EQ(status_of(bar), CL_COMPLETE);
  int back[3];
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(back), back, 1, &after, NULL));
  ASSERT_EQ(back[0], 1);
  ASSERT_EQ(back[1], 2);
  ASSERT_EQ(back[2], 2);
  for (cl_event *e = (cl_event[]){wa, wb, ml, mall, bar, after, gate}, *end = e + 7; e < end; e++)
    ASSERT_OK(clReleaseEvent(*e));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(barrier_with_wait_list_out_of_order)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_event g1 = user_event(ctx), g2 = user_event(ctx);
  cl_event m1, bar, m2;
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 1, &g1, &m1));  /* pending on g1 */
  ASSERT_OK(clEnqueueBarrierWithWaitList(q, 1, &g2, &bar)); /* waits for g2 only */
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m2));  /* after the barrier, and after m1 */
  ASSERT_OK(clSetUserEventStatus(g2, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &bar));
  ASSERT_EQ(status_of(m1), CL_QUEUED);
  ASSERT_OK(clSetUserEventStatus(g1, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &m2));
  for (cl_event *e = (cl_event[]){g1, g2, m1, bar, m2}, *end = e + 5; e < end; e++)
    ASSERT_OK(clReleaseEvent(*e));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(cross_queue_dependencies)
{
  cl_context ctx = tl_context();
  cl_command_queue q1 = tl_queue(ctx, 0), q2 = tl_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem buf = buffer(ctx, 1 << 20);
  static int src[1 << 18], back[1 << 18];
  for (int i = 0; i < (1 << 18); i++)
    src[i] = i ^ 0x5a5a;
  cl_event gate = user_event(ctx);
  cl_event w, r;
  ASSERT_OK(clEnqueueWriteBuffer(q1, buf, CL_FALSE, 0, sizeof(src), src, 1, &gate, &w));
  ASSERT_OK(clFlush(q1));
  ASSERT_OK(clEnqueueReadBuffer(q2, buf, CL_FALSE, 0, sizeof(back), back, 1, &w, &r));
  ASSERT_OK(clFlush(q2));
  usleep(10000);
  ASSERT_EQ(status_of(r), CL_QUEUED);
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clFinish(q2));
  ASSERT_EQ(status_of(w), CL_COMPLETE);
  ASSERT_TRUE(memcmp(src, back, sizeof(src)) == 0);
  ASSERT_OK(clReleaseEvent(w));
  ASSERT_OK(clReleaseEvent(r));
  ASSERT_OK(clReleaseEvent(gate));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q1));
  ASSERT_OK(clReleaseCommandQueue(q2));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(status_transitions_are_observed)
{
  /* A long command is seen RUNNING before COMPLETE. */
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
#ifdef __SANITIZE_THREAD__
  /* ThreadSanitizer checks every byte a copy touches: 32 MiB take longer
   * there than 256 MiB here (and 256 would take most of a minute). */
  size_t size = 32u << 20;
#else
  size_t size = 256u << 20;
#endif
  cl_int err;
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
  ASSERT_OK(err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
  ASSERT_OK(err);
  cl_event gate = user_event(ctx), c;
  ASSERT_OK(clEnqueueCopyBuffer(q, a, b, 0, 0, size, 1, &gate, &c));
  ASSERT_EQ(status_of(c), CL_QUEUED);
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  cl_int seen_min = CL_QUEUED;
  int saw_running = 0;
  for (;;) {
    cl_int st = status_of(c);
    ASSERT_TRUE(st <= seen_min); /* never goes back */
    seen_min = st;
    saw_running |= st == CL_RUNNING;
    if (st == CL_COMPLETE)
      break;
  }
  ASSERT_TRUE(saw_running);
  ASSERT_OK(clReleaseEvent(c));
  ASSERT_OK(clReleaseEvent(gate));
  ASSERT_OK(clReleaseMemObject(a));
  ASSERT_OK(clReleaseMemObject(b));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(event_outlives_its_queue)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_event gate = user_event(ctx), m;
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 1, &gate, &m));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &m));
  cl_context c;
  ASSERT_OK(clGetEventInfo(m, CL_EVENT_CONTEXT, sizeof(c), &c, NULL));
  ASSERT_TRUE(c == ctx);
  ASSERT_OK(clReleaseEvent(m));
  ASSERT_OK(clReleaseEvent(gate));
}

TEST(released_user_event_never_set)
{
  /* Releasing an unset user event that nothing waits for frees it (no leak
   * under valgrind), callbacks included. */
  cl_context ctx = tl_context();
  cl_event e = user_event(ctx);
  ASSERT_OK(clSetEventCallback(e, CL_COMPLETE, record_cb, NULL));
  ASSERT_OK(clReleaseEvent(e));
  ASSERT_OK(clReleaseContext(ctx));
}

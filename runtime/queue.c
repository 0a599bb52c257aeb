/* Command queues: enqueue (building the edges of the graph), the ready list,
 * the runtime thread of each queue, flush and finish.  See
 * runtime/rt_queue.h for the design and the lock rules. */
#include <stdlib.h>
#include <string.h>

#include "runtime/rt_queue.h"

enum enqueue_kind { KIND_COMMAND, KIND_MARKER, KIND_BARRIER };

static void queue_free(cl_command_queue q)
{
  pthread_cond_destroy(&q->work_cv);
  free(q->props_array);
  cl_context ctx = q->ctx;
  cl_device_id dev = q->dev;
  q->obj.magic = 0;
  free(q);
  rt_context_release(ctx);
  rt_device_release(dev);
}

void rt_queue_unref(cl_command_queue q)
{
  if (atomic_fetch_sub_explicit(&q->iref, 1, memory_order_acq_rel) == 1)
    queue_free(q);
}

cl_command_queue rt_queue_create(cl_context ctx, cl_device_id dev, cl_command_queue_properties props,
                                 const cl_queue_properties *props_array, size_t nprops, cl_int *err)
{
  cl_command_queue q = calloc(1, sizeof(*q));
  if (!q) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  if (props_array && nprops) {
    q->props_array = malloc(nprops * sizeof(*props_array));
    if (!q->props_array) {
      free(q);
      *err = CL_OUT_OF_HOST_MEMORY;
      return NULL;
    }
    memcpy(q->props_array, props_array, nprops * sizeof(*props_array));
    q->nprops = nprops;
  }
  rt_object_init(&q->obj, RT_QUEUE);
  atomic_init(&q->iref, 1);
  q->ctx = ctx;
  q->dev = dev;
  q->props = props;
  pthread_cond_init(&q->work_cv, NULL);
  rt_context_retain(ctx);
  rt_device_retain(dev);
  rt_log(RT_LOG_QUEUE, "queue %llu created (%s%s)", (unsigned long long)q->obj.id,
         (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) ? "out-of-order" : "in-order",
         (props & CL_QUEUE_PROFILING_ENABLE) ? ", profiling" : "");
  *err = CL_SUCCESS;
  return q;
}

void rt_queue_retain(cl_command_queue q)
{
  rt_retain(&q->obj);
}

void rt_queue_release(cl_command_queue q)
{
  if (!rt_release(&q->obj))
    return;
  /* The last API reference: commands already enqueued still run (they are
   * all submitted already); the worker leaves once they are done. */
  pthread_mutex_lock(&rt_graph_lock);
  q->released = true;
  /* With nothing left to run, the worker leaves now and this call joins it,
   * so the queue's references (context, device) are gone when it returns;
   * else the worker leaves by itself after the last command. */
  bool join = q->worker_started && !q->head && !pthread_equal(q->worker, pthread_self());
  q->worker_joined = join;
  pthread_t worker = q->worker;
  if (q->worker_started && q->worker_idle) {
    q->worker_idle = false;
    pthread_cond_signal(&q->work_cv);
  }
  pthread_mutex_unlock(&rt_graph_lock);
  rt_queue_unref(q);
  if (join)
    pthread_join(worker, NULL);
}

cl_uint rt_queue_refcount(cl_command_queue q)
{
  return atomic_load(&q->obj.refcount);
}

cl_context rt_queue_context(cl_command_queue q)
{
  return q->ctx;
}

cl_device_id rt_queue_device(cl_command_queue q)
{
  return q->dev;
}

cl_command_queue_properties rt_queue_properties(cl_command_queue q)
{
  return q->props;
}

const cl_queue_properties *rt_queue_properties_array(cl_command_queue q, size_t *nprops)
{
  *nprops = q->nprops;
  return q->props_array;
}

/* ---- execution ---- */

/* Runs the ready event e (popped from its queue's ready list).  Called and
 * returns with rt_graph_lock held; drops it while the command runs. */
static void execute_locked(cl_event e, rt_defer *d)
{
  rt_command *cmd = e->cmd;
  bool failed = e->dep_failed;
  if (!failed)
    rt_event_set_status_locked(e, CL_RUNNING, d);
  pthread_mutex_unlock(&rt_graph_lock);
  rt_defer_run(d);

  cl_int status = failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_COMPLETE;
  if (!failed && cmd->run) {
    cl_int err = cmd->run(cmd);
    if (err != CL_SUCCESS) {
      rt_err("command %#x (event %llu) failed with %d", (unsigned)e->type, (unsigned long long)e->obj.id, err);
      status = err < 0 ? err : CL_OUT_OF_RESOURCES;
    }
  }
  if (e->timed) {
    e->t_end = rt_time_ns();
    if (!e->t_start)
      e->t_start = e->t_end;
  }
  rt_command_free(cmd);
  e->cmd = NULL;

  pthread_mutex_lock(&rt_graph_lock);
  rt_event_complete_locked(e, status, d);
}

bool rt_queue_run_one_locked(cl_command_queue q, rt_defer *d)
{
  cl_event e = q->ready_head;
  if (!e)
    return false;
  q->ready_head = e->rnext;
  if (!q->ready_head)
    q->ready_tail = NULL;
  e->rnext = NULL;
  execute_locked(e, d);
  return true;
}

/* The runtime thread of a queue.  Holds an internal reference on q; leaves
 * when the application has released q and every command is complete. */
static void *worker_main(void *arg)
{
  cl_command_queue q = arg;
  rt_defer d = {0};
  bool spun = false;
  pthread_mutex_lock(&rt_graph_lock);
  for (;;) {
    if (rt_queue_run_one_locked(q, &d)) {
      spun = false;
      continue;
    }
    if (q->released && !q->head)
      break;
    if (d.free) {
      pthread_mutex_unlock(&rt_graph_lock);
      rt_defer_run(&d);
      pthread_mutex_lock(&rt_graph_lock);
      continue;
    }
    if (!spun) {
      /* Spin a while before sleeping: an application enqueueing small
       * commands one after the other then needs no wake-up per command.
       * Not idle meanwhile, so pushes don't signal; the loop re-checks
       * the ready list under the lock afterwards. */
      spun = true;
      unsigned gen = atomic_load_explicit(&q->ready_gen, memory_order_relaxed);
      pthread_mutex_unlock(&rt_graph_lock);
      rt_spin_until_changed(&q->ready_gen, gen);
      pthread_mutex_lock(&rt_graph_lock);
      continue;
    }
    q->worker_idle = true;
    pthread_cond_wait(&q->work_cv, &rt_graph_lock);
    q->worker_idle = false;
  }
  q->worker_started = false;
  q->worker_idle = false;
  bool joined = q->worker_joined;
  pthread_mutex_unlock(&rt_graph_lock);
  if (!joined)
    pthread_detach(pthread_self());
  rt_defer_run(&d);
  rt_log(RT_LOG_QUEUE, "queue %llu: worker leaves", (unsigned long long)q->obj.id);
  rt_queue_unref(q);
  return NULL;
}

/* The worker is joinable: the last clReleaseCommandQueue joins it when the
 * queue is idle, else it detaches itself when it leaves. */
static void worker_start_locked(cl_command_queue q)
{
  atomic_fetch_add(&q->iref, 1);
  q->worker_started = true;
  q->worker_idle = false;
  q->worker_joined = false;
  if (pthread_create(&q->worker, NULL, worker_main, q) != 0) {
    /* Waiting host threads still run the commands (clFinish, blocking
     * calls); the next push tries again. */
    rt_err("queue %llu: cannot start its runtime thread", (unsigned long long)q->obj.id);
    q->worker_started = false;
    atomic_fetch_sub(&q->iref, 1);
  }
}

void rt_queue_push_ready_locked(cl_event e, bool wake)
{
  cl_command_queue q = e->q;
  e->rnext = NULL;
  if (q->ready_tail)
    q->ready_tail->rnext = e;
  else
    q->ready_head = e;
  q->ready_tail = e;
  atomic_fetch_add_explicit(&q->ready_gen, 1, memory_order_release);
  atomic_fetch_add_explicit(&rt_graph_gen, 1, memory_order_release);
  if (wake) {
    if (!q->worker_started) {
      worker_start_locked(q);
    } else if (q->worker_idle) {
      q->worker_idle = false;
      pthread_cond_signal(&q->work_cv);
    }
  }
  if (rt_graph_waiters)
    pthread_cond_broadcast(&rt_graph_done);
}

void rt_queue_retire_locked(cl_event e, cl_event *work, rt_defer *d)
{
  cl_command_queue q = e->q;
  bool was_oldest = !e->qprev;
  if (e->qprev)
    e->qprev->qnext = e->qnext;
  else
    q->head = e->qnext;
  if (e->qnext)
    e->qnext->qprev = e->qprev;
  else
    q->tail = e->qprev;
  e->qprev = e->qnext = NULL;
  if (q->barrier == e)
    q->barrier = NULL;
  /* The new oldest command: every command before it is complete. */
  cl_event h = q->head;
  if (was_oldest && h && h->waits_prior) {
    h->waits_prior = false;
    if (--h->npending == 0)
      rt_event_now_ready_locked(h, work, d);
  }
  if (q->released && !q->head && q->worker_started && q->worker_idle) {
    q->worker_idle = false;
    pthread_cond_signal(&q->work_cv);
  }
  rt_event_unref_locked(e, d); /* the queue list's reference */
}

/* ---- enqueue ---- */

rt_command *rt_command_new(cl_command_type type, cl_int (*run)(rt_command *), void (*destroy)(rt_command *),
                           void *payload)
{
  rt_command *cmd = malloc(sizeof(*cmd));
  if (!cmd)
    return NULL;
  rt_command_init(cmd, type, run, destroy, payload);
  cmd->embedded = false;
  return cmd;
}

void rt_command_init(rt_command *cmd, cl_command_type type, cl_int (*run)(rt_command *),
                     void (*destroy)(rt_command *), void *payload)
{
  cmd->type = type;
  cmd->run = run;
  cmd->destroy = destroy;
  cmd->payload = payload;
  cmd->embedded = true;
}

void rt_command_free(rt_command *cmd)
{
  bool embedded = cmd->embedded;
  if (cmd->destroy)
    cmd->destroy(cmd);
  if (!embedded)
    free(cmd);
}

/* Builds the event of a command, its edges, and makes it ready when it has
 * no unfinished predecessor.  *out receives an internal reference to the
 * event when out is not NULL (else the API reference is dropped). */
static cl_int enqueue(cl_command_queue q, rt_command *cmd, cl_command_type type, enum enqueue_kind kind,
                      cl_uint nwait, const cl_event *wait, bool wake, cl_event *out)
{
  cl_event e = rt_event_alloc(q->ctx, q, type, cmd);
  if (!e) {
    if (cmd)
      rt_command_free(cmd);
    return CL_OUT_OF_HOST_MEMORY;
  }
  /* Every edge this command may get, allocated before the graph is touched:
   * one per wait list event and one for the queue order (the previous
   * command, or the last barrier).  A marker or barrier without a wait
   * list waits for the commands before it through waits_prior, no edge. */
  struct rt_edge *spare;
  if (!rt_edges_alloc(e, (size_t)nwait + 1, &spare)) {
    rt_err("out of host memory for the dependencies of a command");
    rt_event_unref(e); /* frees the command */
    return CL_OUT_OF_HOST_MEMORY;
  }
  atomic_fetch_add(&e->iref, 1); /* the queue list's reference */

  rt_defer d = {0};
  pthread_mutex_lock(&rt_graph_lock);
  e->seq = ++q->seq;
  if (e->timed)
    e->t_queued = rt_time_ns();
  for (cl_uint i = 0; i < nwait; i++)
    rt_event_add_dep_locked(wait[i], e, true, &spare);
  if (!(q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    if (q->tail)
      rt_event_add_dep_locked(q->tail, e, false, &spare);
  } else {
    if (q->barrier)
      rt_event_add_dep_locked(q->barrier, e, false, &spare);
    if (kind != KIND_COMMAND && nwait == 0 && q->tail) {
      e->waits_prior = true;
      e->npending++;
    }
    if (kind == KIND_BARRIER)
      q->barrier = e;
  }
  e->qprev = q->tail;
  e->qnext = NULL;
  if (q->tail)
    q->tail->qnext = e;
  else
    q->head = e;
  q->tail = e;
  if (out) {
    atomic_fetch_add(&e->iref, 1);
    *out = e;
  }
  /* edge0 comes first: if it is left, nothing was taken; the rest (plain
   * mallocs) are freed after the lock. */
  if (spare == &e->edge0)
    spare = spare->next;
  if (e->npending == 0)
    rt_event_ready_locked(e, wake, &d);
  pthread_mutex_unlock(&rt_graph_lock);
  rt_edges_free(spare);
  rt_defer_run(&d);
  return CL_SUCCESS;
}

/* Hands the API reference of e to the caller, or drops it. */
static void give_event(cl_event e, cl_event *event_out)
{
  if (event_out) {
    *event_out = e;
    rt_event_unref(e); /* the internal reference enqueue gave us */
  } else {
    rt_event_release(e);
    rt_event_unref(e);
  }
}

cl_int rt_enqueue(cl_command_queue q, rt_command *cmd, cl_uint nwait, const cl_event *wait, cl_event *event_out)
{
  if (!cmd)
    return CL_OUT_OF_HOST_MEMORY;
  cl_event e;
  cl_int err = enqueue(q, cmd, cmd->type, KIND_COMMAND, nwait, wait, true, &e);
  if (err != CL_SUCCESS)
    return err;
  give_event(e, event_out);
  return CL_SUCCESS;
}

cl_int rt_enqueue_maybe_blocking(cl_command_queue q, rt_command *cmd, cl_bool blocking, cl_uint nwait,
                                 const cl_event *wait, cl_event *event_out)
{
  if (!cmd)
    return CL_OUT_OF_HOST_MEMORY;
  if (!blocking)
    return rt_enqueue(q, cmd, nwait, wait, event_out);
  /* The caller runs the command itself when it is ready: no need to wake
   * the queue's thread for it. */
  cl_event e;
  cl_int err = enqueue(q, cmd, cmd->type, KIND_COMMAND, nwait, wait, false, &e);
  if (err != CL_SUCCESS)
    return err;
  rt_defer d = {0};
  pthread_mutex_lock(&rt_graph_lock);
  rt_event_wait_locked(e, &d);
  pthread_mutex_unlock(&rt_graph_lock);
  rt_defer_run(&d);
  cl_int status = atomic_load(&e->status);
  if (status < 0) {
    rt_event_release(e);
    rt_event_unref(e);
    return status;
  }
  give_event(e, event_out);
  return CL_SUCCESS;
}

cl_int rt_enqueue_marker(cl_command_queue q, bool barrier, cl_uint nwait, const cl_event *wait,
                         cl_event *event_out)
{
  cl_event e;
  cl_int err = enqueue(q, NULL, barrier ? CL_COMMAND_BARRIER : CL_COMMAND_MARKER,
                       barrier ? KIND_BARRIER : KIND_MARKER, nwait, wait, true, &e);
  if (err != CL_SUCCESS)
    return err;
  give_event(e, event_out);
  return CL_SUCCESS;
}

cl_int rt_queue_flush(cl_command_queue q)
{
  /* Commands are submitted as soon as they are enqueued; nothing waits for
   * a flush. */
  (void)q;
  return CL_SUCCESS;
}

cl_int rt_queue_finish(cl_command_queue q)
{
  rt_defer d = {0};
  pthread_mutex_lock(&rt_graph_lock);
  uint64_t target = q->seq;
  while (q->head && q->head->seq <= target) {
    if (rt_queue_run_one_locked(q, &d))
      continue;
    rt_graph_wait_locked();
  }
  pthread_mutex_unlock(&rt_graph_lock);
  rt_defer_run(&d);
  return CL_SUCCESS;
}

/* Events: the nodes of the command graph, their status changes, callbacks,
 * user events, waiting and profiling.  See runtime/rt_queue.h for the design
 * and the lock rules. */
#include <stdlib.h>
#include <time.h>

#include "runtime/rt_queue.h"

pthread_mutex_t rt_graph_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t rt_graph_done = PTHREAD_COND_INITIALIZER;
unsigned rt_graph_waiters;
atomic_uint rt_graph_gen;

static uint64_t spin_ns;
static pthread_once_t spin_once = PTHREAD_ONCE_INIT;

static void spin_init(void)
{
  /* The worker pool gets the same value (rt_device_pool). */
  spin_ns = (uint64_t)lc_config_num(LC_SPIN_US) * 1000;
}

uint64_t rt_spin_ns(void)
{
  pthread_once(&spin_once, spin_init);
  return spin_ns;
}

bool rt_spin_until_changed(atomic_uint *word, unsigned seen)
{
  uint64_t limit = rt_spin_ns(), deadline = 0;
  if (!limit)
    return false;
  for (unsigned i = 0;; i++) {
    if (atomic_load_explicit(word, memory_order_acquire) != seen)
      return true;
    __builtin_ia32_pause();
    if ((i & 15) == 0) {
      uint64_t now = rt_time_ns();
      if (!deadline)
        deadline = now + limit;
      else if (now >= deadline)
        return false;
    }
  }
}

void rt_graph_wait_locked(void)
{
  unsigned gen = atomic_load_explicit(&rt_graph_gen, memory_order_relaxed);
  if (rt_spin_ns()) {
    pthread_mutex_unlock(&rt_graph_lock);
    rt_spin_until_changed(&rt_graph_gen, gen);
    pthread_mutex_lock(&rt_graph_lock);
    /* Every change bumps the counter under the lock: one we missed shows
     * here, and a later one finds us in the wait below. */
    if (atomic_load_explicit(&rt_graph_gen, memory_order_relaxed) != gen)
      return;
  }
  rt_graph_waiters++;
  pthread_cond_wait(&rt_graph_done, &rt_graph_lock);
  rt_graph_waiters--;
}

/* The callback thread: one per process, started with the first callback to
 * fire.  Callbacks fire in the order they were queued, so the callbacks of
 * one event come in the order of its status changes.  Under rt_graph_lock. */
static struct rt_callback *cb_head, *cb_tail;
static bool cb_started, cb_idle;
static pthread_cond_t cb_cv = PTHREAD_COND_INITIALIZER;

uint64_t rt_time_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

cl_event rt_event_alloc(cl_context ctx, cl_command_queue q, cl_command_type type, rt_command *cmd)
{
  cl_event e = calloc(1, sizeof(*e));
  if (!e)
    return NULL;
  rt_object_init(&e->obj, RT_EVENT);
  atomic_init(&e->iref, 1);
  e->ctx = ctx;
  e->q = q;
  e->type = type;
  e->cmd = cmd;
  atomic_init(&e->status, q ? CL_QUEUED : CL_SUBMITTED);
  /* Timestamps only where they can be asked for (a clock read costs tens of
   * nanoseconds, several per command). */
  e->timed = q && (q->props & CL_QUEUE_PROFILING_ENABLE);
  if (q)
    atomic_fetch_add(&q->iref, 1);
  else
    rt_context_retain(ctx);
  return e;
}

static void event_free(cl_event e)
{
  /* Callbacks left here belong to an event that never completed (a user
   * event released unset): they can never fire. */
  for (struct rt_callback *cb = e->callbacks, *next; cb; cb = next) {
    next = cb->next;
    free(cb);
  }
  rt_edges_free(e->succ);
  if (e->cmd)
    rt_command_free(e->cmd);
  e->obj.magic = 0;
  if (e->q)
    rt_queue_unref(e->q);
  else
    rt_context_release(e->ctx);
  free(e);
}

void rt_event_unref(cl_event e)
{
  if (atomic_fetch_sub_explicit(&e->iref, 1, memory_order_acq_rel) == 1)
    event_free(e);
}

void rt_event_unref_locked(cl_event e, rt_defer *d)
{
  if (atomic_fetch_sub_explicit(&e->iref, 1, memory_order_acq_rel) == 1) {
    e->dnext = d->free;
    d->free = e;
  }
}

void rt_defer_run(rt_defer *d)
{
  while (d->free) {
    cl_event e = d->free;
    d->free = e->dnext;
    event_free(e);
  }
}

/* ---- callbacks ---- */

static void *callback_main(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&rt_graph_lock);
  for (;;) {
    while (!cb_head) {
      cb_idle = true;
      pthread_cond_wait(&cb_cv, &rt_graph_lock);
    }
    cb_idle = false;
    struct rt_callback *cb = cb_head;
    cb_head = cb->next;
    if (!cb_head)
      cb_tail = NULL;
    pthread_mutex_unlock(&rt_graph_lock);
    rt_log(RT_LOG_QUEUE, "event %llu: callback for status %d gets %d", (unsigned long long)cb->event->obj.id,
           cb->status, cb->fire_status);
    cb->fn(cb->event, cb->fire_status, cb->user_data);
    rt_event_unref(cb->event);
    free(cb);
    pthread_mutex_lock(&rt_graph_lock);
  }
  return NULL;
}

static void callback_queue_locked(cl_event e, struct rt_callback *cb, cl_int fire_status)
{
  cb->fire_status = fire_status;
  cb->event = e;
  cb->next = NULL;
  atomic_fetch_add(&e->iref, 1);
  if (cb_tail)
    cb_tail->next = cb;
  else
    cb_head = cb;
  cb_tail = cb;
  if (!cb_started) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, callback_main, NULL) == 0)
      cb_started = true;
    else
      rt_err("cannot start the event callback thread; callbacks are delayed");
    pthread_attr_destroy(&attr);
  } else if (cb_idle) {
    cb_idle = false;
    pthread_cond_signal(&cb_cv);
  }
}

/* Fires the callbacks the event's current status reaches, by status
 * (SUBMITTED, RUNNING, COMPLETE), each in registration order. */
static void callbacks_fire_locked(cl_event e)
{
  static const cl_int order[] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
  cl_int status = atomic_load_explicit(&e->status, memory_order_relaxed);
  for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && e->callbacks; i++) {
    if (order[i] < status)
      break;
    struct rt_callback **pp = &e->callbacks;
    while (*pp) {
      struct rt_callback *cb = *pp;
      if (cb->status != order[i]) {
        pp = &cb->next;
        continue;
      }
      *pp = cb->next;
      callback_queue_locked(e, cb, status < 0 ? status : cb->status);
    }
  }
}

cl_int rt_event_set_callback(cl_event e, cl_int status, rt_event_notify_fn fn, void *user_data)
{
  struct rt_callback *cb = calloc(1, sizeof(*cb));
  if (!cb)
    return CL_OUT_OF_HOST_MEMORY;
  cb->status = status;
  cb->fn = fn;
  cb->user_data = user_data;
  pthread_mutex_lock(&rt_graph_lock);
  struct rt_callback **pp = &e->callbacks;
  while (*pp)
    pp = &(*pp)->next;
  *pp = cb;
  callbacks_fire_locked(e);
  pthread_mutex_unlock(&rt_graph_lock);
  return CL_SUCCESS;
}

/* ---- status changes and the graph ---- */

void rt_event_set_status_locked(cl_event e, cl_int status, rt_defer *d)
{
  (void)d;
  if (e->timed && status == CL_SUBMITTED)
    e->t_submit = rt_time_ns();
  else if (e->timed && status == CL_RUNNING)
    e->t_start = rt_time_ns();
  atomic_store(&e->status, status);
  rt_log(RT_LOG_QUEUE, "event %llu: status %d", (unsigned long long)e->obj.id, status);
  if (e->callbacks)
    callbacks_fire_locked(e);
}

bool rt_edges_alloc(cl_event to, size_t n, struct rt_edge **out)
{
  struct rt_edge *list = NULL;
  for (size_t i = 1; i < n; i++) {
    struct rt_edge *edge = malloc(sizeof(*edge));
    if (!edge) {
      rt_edges_free(list);
      *out = NULL;
      return false;
    }
    edge->embedded = false;
    edge->next = list;
    list = edge;
  }
  if (n) {
    to->edge0.embedded = true;
    to->edge0.next = list;
    list = &to->edge0;
  }
  *out = list;
  return true;
}

void rt_edges_free(struct rt_edge *list)
{
  for (struct rt_edge *next; list; list = next) {
    next = list->next;
    if (!list->embedded)
      free(list);
  }
}

void rt_event_add_dep_locked(cl_event from, cl_event to, bool propagate, struct rt_edge **spare)
{
  cl_int st = atomic_load_explicit(&from->status, memory_order_relaxed);
  if (st <= CL_COMPLETE) {
    if (st < 0 && propagate)
      to->dep_failed = true;
    return;
  }
  struct rt_edge *edge = *spare;
  if (!edge) {
    /* The caller counts the edges it may add: a bug, never out of memory. */
    rt_err("internal error: no edge allocated for a dependency");
    abort();
  }
  *spare = edge->next;
  edge->to = to;
  edge->propagate = propagate;
  edge->next = from->succ;
  from->succ = edge;
  to->npending++;
}

static bool runs_inline(cl_event e)
{
  return !e->cmd || (!e->cmd->run && !e->cmd->destroy);
}

void rt_event_now_ready_locked(cl_event e, cl_event *work, rt_defer *d)
{
  /* A command whose wait list failed is never submitted: its status goes
   * from CL_QUEUED to the error. */
  if (!e->dep_failed)
    rt_event_set_status_locked(e, CL_SUBMITTED, d);
  if (runs_inline(e)) {
    e->rnext = *work;
    *work = e;
  } else {
    rt_queue_push_ready_locked(e, true);
  }
}

/* Completes every event on the work list (linked through rnext) and those
 * it makes ready that have nothing to run. */
static void complete_work_locked(cl_event work, rt_defer *d)
{
  while (work) {
    cl_event e = work;
    work = e->rnext;
    e->rnext = NULL;
    cl_int status = atomic_load_explicit(&e->status, memory_order_relaxed);
    if (status > CL_COMPLETE) {
      /* Ready event with nothing to run: RUNNING then done. */
      if (status > CL_RUNNING && !e->dep_failed)
        rt_event_set_status_locked(e, CL_RUNNING, d);
      if (e->timed) {
        e->t_end = rt_time_ns();
        if (!e->t_start)
          e->t_start = e->t_end;
      }
      rt_event_set_status_locked(e, e->dep_failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_COMPLETE, d);
      status = atomic_load_explicit(&e->status, memory_order_relaxed);
    }
    struct rt_edge *edge = e->succ;
    e->succ = NULL;
    while (edge) {
      struct rt_edge *next = edge->next;
      cl_event to = edge->to;
      if (status < 0 && edge->propagate)
        to->dep_failed = true;
      if (--to->npending == 0)
        rt_event_now_ready_locked(to, &work, d);
      if (!edge->embedded)
        free(edge);
      edge = next;
    }
    if (e->q)
      rt_queue_retire_locked(e, &work, d);
  }
  atomic_fetch_add_explicit(&rt_graph_gen, 1, memory_order_release);
  if (rt_graph_waiters)
    pthread_cond_broadcast(&rt_graph_done);
}

void rt_event_complete_locked(cl_event e, cl_int status, rt_defer *d)
{
  if (status <= CL_COMPLETE) {
    if (e->timed && !e->t_end) {
      e->t_end = rt_time_ns();
      if (!e->t_start)
        e->t_start = e->t_end;
    }
    rt_event_set_status_locked(e, status, d);
  }
  e->rnext = NULL;
  complete_work_locked(e, d);
}

void rt_event_ready_locked(cl_event e, bool wake, rt_defer *d)
{
  if (!e->dep_failed)
    rt_event_set_status_locked(e, CL_SUBMITTED, d);
  if (runs_inline(e)) {
    e->rnext = NULL;
    complete_work_locked(e, d);
  } else {
    rt_queue_push_ready_locked(e, wake);
  }
}

void rt_event_wait_locked(cl_event e, rt_defer *d)
{
  atomic_fetch_add(&e->iref, 1);
  while (atomic_load(&e->status) > CL_COMPLETE) {
    if (e->q && rt_queue_run_one_locked(e->q, d))
      continue;
    rt_graph_wait_locked();
  }
  rt_event_unref_locked(e, d);
}

cl_int rt_events_wait(cl_uint n, const cl_event *events)
{
  rt_defer d = {0};
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&rt_graph_lock);
  for (cl_uint i = 0; i < n; i++) {
    rt_event_wait_locked(events[i], &d);
    if (atomic_load(&events[i]->status) < 0)
      err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  pthread_mutex_unlock(&rt_graph_lock);
  rt_defer_run(&d);
  return err;
}

/* ---- user events ---- */

cl_event rt_user_event_create(cl_context ctx, cl_int *err)
{
  cl_event e = rt_event_alloc(ctx, NULL, CL_COMMAND_USER, NULL);
  *err = e ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  return e;
}

bool rt_event_is_user(cl_event e)
{
  return e->q == NULL;
}

cl_int rt_user_event_set_status(cl_event e, cl_int status)
{
  rt_defer d = {0};
  pthread_mutex_lock(&rt_graph_lock);
  if (atomic_load(&e->status) <= CL_COMPLETE) {
    pthread_mutex_unlock(&rt_graph_lock);
    return CL_INVALID_OPERATION;
  }
  rt_event_complete_locked(e, status, &d);
  pthread_mutex_unlock(&rt_graph_lock);
  rt_defer_run(&d);
  return CL_SUCCESS;
}

/* ---- queries and references ---- */

void rt_event_retain(cl_event e)
{
  rt_retain(&e->obj);
}

void rt_event_release(cl_event e)
{
  if (rt_release(&e->obj))
    rt_event_unref(e);
}

cl_uint rt_event_refcount(cl_event e)
{
  return atomic_load(&e->obj.refcount);
}

cl_context rt_event_context(cl_event e)
{
  return e->ctx;
}

cl_command_queue rt_event_queue(cl_event e)
{
  return e->q;
}

cl_command_type rt_event_command_type(cl_event e)
{
  return e->type;
}

cl_int rt_event_status(cl_event e)
{
  return atomic_load(&e->status);
}

cl_int rt_event_profiling(cl_event e, cl_profiling_info param, cl_ulong *value)
{
  if (!e->q || !(rt_queue_properties(e->q) & CL_QUEUE_PROFILING_ENABLE))
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  if (atomic_load(&e->status) != CL_COMPLETE)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (param) {
  case CL_PROFILING_COMMAND_QUEUED:
    *value = e->t_queued;
    break;
  case CL_PROFILING_COMMAND_SUBMIT:
    *value = e->t_submit;
    break;
  case CL_PROFILING_COMMAND_START:
    *value = e->t_start;
    break;
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE:
    *value = e->t_end;
    break;
  default:
    return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

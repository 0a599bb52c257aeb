/* Command queues, events and commands: runtime internals (icd/ calls the
 * queue and event functions declared in runtime/rt.h).
 *
 * A queue is an event graph.  Every enqueued command is an event node; an
 * edge A -> B means "B may not start before A is complete".  Edges come from
 * the wait list (these carry errors: B fails with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when A failed), from the queue
 * order (in-order queue: the previous command; out-of-order queue: the last
 * barrier).  A marker or barrier without a wait list on an out-of-order
 * queue waits for every unfinished command before it through one count
 * (waits_prior), given back when it becomes the oldest unfinished command of
 * its queue: no edge per command.  An enqueue allocates its edges before it
 * takes the lock, so it either fails with nothing changed or builds them
 * all.  A command whose predecessors are all complete is
 * "ready": it is SUBMITTED and put on its queue's ready list, from which the
 * queue's runtime thread takes it (RUNNING, run(), COMPLETE).  A host thread
 * blocked in clFinish, clWaitForEvents or a blocking enqueue takes ready
 * commands of the queue it waits for and runs them itself, so a blocking
 * round trip needs no thread switch.  Event callbacks run on one runtime
 * callback thread, in the order of the status changes.
 *
 * A thread that finds nothing to do (a queue's thread between commands, a
 * host thread in clFinish or an event wait) first spins for LANECL_SPIN_US
 * without the lock, watching a counter that changes under the lock, then
 * sleeps: a stream of small commands then costs no futex wake-up each.
 *
 * Lock rules: one process-wide mutex (rt_graph_lock) guards every event's
 * status, edges and callbacks and every queue's lists.  It is never held
 * while a command runs, a command is destroyed, an object is freed or user
 * code (callbacks) runs, so commands and callbacks may call the whole API.
 */
#ifndef LANECL_RT_QUEUE_H
#define LANECL_RT_QUEUE_H

#include "runtime/rt.h"

/* A command: what an enqueue call asks for, executed later on a runtime
 * thread (or a host thread waiting for it) once its wait list is complete.
 * Each enqueue family builds one (memcmd.c: read/write/copy/fill/map...,
 * ndrange.c: NDRange) and hands it to rt_enqueue, which takes ownership. */
typedef struct rt_command rt_command;
struct rt_command {
  cl_command_type type;
  /* Runs on a runtime thread (or a waiting host thread), without locks held.
   * Returns CL_SUCCESS, or a negative CL error that becomes the event's
   * execution status.  May be NULL.  A command with neither run nor
   * destroy (migrate, map of host memory) completes as soon as it is ready,
   * on the thread that made it ready, without a thread switch. */
  cl_int (*run)(rt_command *cmd);
  /* Frees the payload and releases what the command retained.  May be NULL.
   * Called once, without locks held, whether run was called or not (a
   * command whose wait list failed is destroyed without running), before
   * its event becomes complete, so memory objects it retained are released
   * by the time a waiter returns. */
  void (*destroy)(rt_command *cmd);
  void *payload;
  bool embedded;                 /* lives inside its payload (rt_command_init): destroy frees it */
};

/* Enqueue cmd on q after the events in wait (already validated by icd/).  On
 * success *event_out (if not NULL) receives a new event the caller owns.
 * cmd must come from rt_command_new; rt_enqueue takes ownership of it in
 * every case (destroys and frees it on failure); a NULL cmd (rt_command_new
 * out of memory) gives CL_OUT_OF_HOST_MEMORY.  Returns at once; the
 * command runs asynchronously. */
cl_int rt_enqueue(cl_command_queue q, rt_command *cmd, cl_uint nwait, const cl_event *wait,
                  cl_event *event_out);

/* rt_enqueue, then if blocking wait for it (running it on this thread when it
 * is ready).  When blocking and the command ended in an error, returns that
 * error (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when an event of the
 * wait list failed) and creates no event. */
cl_int rt_enqueue_maybe_blocking(cl_command_queue q, rt_command *cmd, cl_bool blocking, cl_uint nwait,
                                 const cl_event *wait, cl_event *event_out);

/* malloc'ed command; NULL on out-of-memory (then destroy is not called). */
rt_command *rt_command_new(cl_command_type type, cl_int (*run)(rt_command *), void (*destroy)(rt_command *),
                           void *payload);
/* A command inside its payload's own allocation (one malloc per enqueue
 * instead of two): destroy (not NULL) frees the payload and with it cmd. */
void rt_command_init(rt_command *cmd, cl_command_type type, cl_int (*run)(rt_command *),
                     void (*destroy)(rt_command *), void *payload);

/* ---------------------------------------------------------------------------
 * Internals shared by runtime/queue.c and runtime/event.c only.
 * ------------------------------------------------------------------------- */
struct rt_edge {                 /* "to" waits for the event that owns the edge */
  cl_event to;
  bool propagate;                /* an error of the owner fails "to" */
  bool embedded;                 /* "to"'s own edge0: not freed */
  struct rt_edge *next;
};

struct rt_callback {
  cl_int status;                 /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
  cl_int fire_status;            /* what the callback receives */
  rt_event_notify_fn fn;
  void *user_data;
  cl_event event;                /* holds an internal reference while queued to fire */
  struct rt_callback *next;
};

struct _cl_event {
  rt_object obj;                 /* API references */
  atomic_uint iref;              /* internal references; the API references hold one */
  cl_context ctx;
  cl_command_queue q;            /* NULL for user events; the event holds an internal ref */
  cl_command_type type;
  rt_command *cmd;               /* NULL for markers, barriers, user events, or once destroyed */
  _Atomic cl_int status;         /* written under rt_graph_lock, read anywhere */
  /* Under rt_graph_lock: */
  unsigned npending;             /* predecessors not yet complete */
  bool dep_failed;               /* a propagating predecessor failed */
  struct rt_edge *succ;          /* events waiting for this one */
  struct rt_callback *callbacks; /* not yet fired, in registration order */
  cl_event qprev, qnext;         /* the queue's unfinished commands, enqueue order */
  cl_event rnext;                /* the queue's ready list */
  cl_event dnext;                /* a deferred-work list (rt_defer) */
  uint64_t seq;                  /* enqueue number within the queue */
  /* A marker or barrier without a wait list on an out-of-order queue: one
   * count of npending stands for "every command enqueued before it", given
   * back when it becomes the oldest unfinished command of its queue (no
   * edge per command: memory stays linear however deep the queue). */
  bool waits_prior;
  struct rt_edge edge0;          /* the first edge to this event, without a malloc */
  bool timed;                    /* its queue has CL_QUEUE_PROFILING_ENABLE: the t_* are kept */
  uint64_t t_queued, t_submit, t_start, t_end;
};

struct _cl_command_queue {
  rt_object obj;                 /* API references */
  atomic_uint iref;              /* internal: API refs (1), each event (1), the worker (1) */
  cl_context ctx;
  cl_device_id dev;
  cl_command_queue_properties props;
  cl_queue_properties *props_array;
  size_t nprops;
  /* Under rt_graph_lock: */
  cl_event head, tail;           /* unfinished commands in enqueue order */
  cl_event ready_head, ready_tail;
  cl_event barrier;              /* newest unfinished barrier (out-of-order queues) */
  uint64_t seq;                  /* last enqueue number given */
  bool worker_started, worker_idle, released;
  atomic_uint ready_gen;         /* bumped by every ready push (a spinning worker watches it) */
  bool worker_joined;            /* the last clReleaseCommandQueue joins the worker */
  pthread_t worker;
  pthread_cond_t work_cv;        /* the worker sleeps here */
};

/* Work found under the lock, done after it is released: events whose last
 * internal reference went away (freeing one may free its queue and context,
 * which may run user destructor callbacks). */
typedef struct rt_defer {
  cl_event free;                 /* dnext list */
} rt_defer;

extern pthread_mutex_t rt_graph_lock;
extern pthread_cond_t rt_graph_done;   /* broadcast on every completion and ready push when waiters */
extern unsigned rt_graph_waiters;
extern atomic_uint rt_graph_gen;       /* bumped (under the lock) where rt_graph_done is broadcast */

/* How long a thread that finds nothing to do spins before it sleeps
 * (LANECL_SPIN_US, default 20 us, as the worker pool's): a futex wake costs
 * microseconds, a tiny command less than one. */
uint64_t rt_spin_ns(void);
/* With rt_graph_lock held: returns once the graph may have changed (a
 * completion or a ready push since the call): spins up to rt_spin_ns without
 * the lock, then sleeps on rt_graph_done.  Callers re-check their condition. */
void rt_graph_wait_locked(void);
/* Spins up to rt_spin_ns (lock not held) until *word differs from seen;
 * true when it did. */
bool rt_spin_until_changed(atomic_uint *word, unsigned seen);

/* event.c, called with rt_graph_lock held: */
void rt_event_set_status_locked(cl_event e, cl_int status, rt_defer *d);
/* Completes e (status CL_COMPLETE or negative) and every event this makes
 * ready that has nothing to run; ready commands go to their queue. */
void rt_event_complete_locked(cl_event e, cl_int status, rt_defer *d);
/* e's predecessors are complete: SUBMITTED, then completed at once when it
 * has nothing to run, else onto its queue's ready list (waking the queue's
 * thread when wake). */
void rt_event_ready_locked(cl_event e, bool wake, rt_defer *d);
/* Adds the edge from -> to (to must be unfinished and not yet ready),
 * taking the edge from *spare (allocated before the lock was taken with
 * rt_edges_alloc): an enqueue never runs out of memory half way through
 * building its edges. */
void rt_event_add_dep_locked(cl_event from, cl_event to, bool propagate, struct rt_edge **spare);
/* Without the lock: n edges for "to", the first its edge0, linked through
 * next; false (nothing allocated) when out of memory. */
bool rt_edges_alloc(cl_event to, size_t n, struct rt_edge **out);
void rt_edges_free(struct rt_edge *list);
/* e has no unfinished predecessor left: SUBMITTED (unless its wait list
 * failed), then onto *work (to complete inline) or its queue's ready list. */
void rt_event_now_ready_locked(cl_event e, cl_event *work, rt_defer *d);
void rt_event_unref_locked(cl_event e, rt_defer *d);
/* Waits until e is complete, running ready commands of e's queue meanwhile. */
void rt_event_wait_locked(cl_event e, rt_defer *d);
/* Called without the lock: */
void rt_defer_run(rt_defer *d);
/* Destroys cmd and frees it (unless it is embedded in its payload). */
void rt_command_free(rt_command *cmd);
void rt_event_unref(cl_event e);
cl_event rt_event_alloc(cl_context ctx, cl_command_queue q, cl_command_type type, rt_command *cmd);

/* queue.c, called with rt_graph_lock held: */
void rt_queue_push_ready_locked(cl_event e, bool wake);
/* Removes a completed e from its queue's unfinished list; an event this
 * makes ready (a marker waiting for every earlier command) goes onto *work
 * or its queue's ready list. */
void rt_queue_retire_locked(cl_event e, cl_event *work, rt_defer *d);
/* Pops one ready command of q and runs it (drops the lock while running).
 * Returns false when q had none. */
bool rt_queue_run_one_locked(cl_command_queue q, rt_defer *d);
void rt_queue_unref(cl_command_queue q);       /* without the lock */

#endif

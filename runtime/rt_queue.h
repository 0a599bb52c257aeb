/* Command queues, events and commands. */
#ifndef LANECL_RT_QUEUE_H
#define LANECL_RT_QUEUE_H

#include "runtime/rt.h"

/* A command: what an enqueue call asks for, executed later on the queue's
 * runtime thread once its wait list is complete.  Each enqueue family builds
 * one (mem.c: read/write/copy/fill/map..., kernel.c: NDRange) and hands it to
 * rt_enqueue, which takes ownership. */
typedef struct rt_command rt_command;
struct rt_command {
  cl_command_type type;
  /* Runs on a runtime thread.  Returns CL_SUCCESS, or a negative CL error that
   * becomes the event's execution status. */
  cl_int (*run)(rt_command *cmd);
  /* Frees the payload and releases what the command retained.  May be NULL. */
  void (*destroy)(rt_command *cmd);
  void *payload;
};

/* Enqueue cmd on q after the events in wait (already validated by icd/).  On
 * success *event_out (if not NULL) receives a new event the caller owns.
 * Takes ownership of cmd in every case (destroys it on failure).  Blocking
 * variants call rt_event_wait on the returned event. */
cl_int rt_enqueue(cl_command_queue q, rt_command *cmd, cl_uint nwait, const cl_event *wait,
                  cl_event *event_out);

/* Convenience: rt_enqueue, then if blocking wait for it; returns the command's
 * error (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it failed) when blocking. */
cl_int rt_enqueue_maybe_blocking(cl_command_queue q, rt_command *cmd, cl_bool blocking, cl_uint nwait,
                                 const cl_event *wait, cl_event *event_out);

rt_command *rt_command_new(cl_command_type type, cl_int (*run)(rt_command *), void (*destroy)(rt_command *),
                           void *payload);

/* Waits for every event; CL_SUCCESS, or CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
 * when one of them ended in an error. */
cl_int rt_events_wait(cl_uint n, const cl_event *events);

/* The queue and event structs are private to runtime/queue.c and event.c; the
 * accessors below are all other files need. */
cl_context rt_queue_context(cl_command_queue q);
cl_device_id rt_queue_device(cl_command_queue q);
cl_context rt_event_context(cl_event e);

#endif

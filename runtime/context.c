/* Contexts: a set of devices (each retained), the properties they were made
 * with, and the destructor callbacks run when the last reference goes. */
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

cl_context rt_context_create(const cl_device_id *devices, cl_uint n, const cl_context_properties *props,
                             rt_ctx_notify_fn notify, void *user_data, cl_int *err)
{
  struct _cl_context *c = calloc(1, sizeof(*c));
  if (!c)
    goto fail;
  c->devices = malloc(n * sizeof(cl_device_id));
  if (!c->devices)
    goto fail_context;
  if (props) {
    size_t nprops = 0;
    while (props[nprops] != 0)
      nprops += 2;  /* name, value */
    c->nprops = nprops + 1;
    c->props = malloc(c->nprops * sizeof(cl_context_properties));
    if (!c->props)
      goto fail_devices;
    memcpy(c->props, props, c->nprops * sizeof(cl_context_properties));
  }
  if (pthread_mutex_init(&c->lock, NULL) != 0)
    goto fail_props;
  c->ndevices = n;
  for (cl_uint i = 0; i < n; i++) {
    c->devices[i] = devices[i];
    rt_device_retain(devices[i]);
  }
  c->notify = notify;
  c->notify_data = user_data;
  c->destructors = NULL;
  rt_object_init(&c->obj, RT_CONTEXT);
  *err = CL_SUCCESS;
  return c;

fail_props:
  free(c->props);
fail_devices:
  free(c->devices);
fail_context:
  free(c);
fail:
  *err = CL_OUT_OF_HOST_MEMORY;
  return NULL;
}

void rt_context_retain(cl_context c)
{
  rt_retain(&c->obj);
}

void rt_context_release(cl_context c)
{
  if (!rt_release(&c->obj))
    return;
  /* Nobody else holds the context now: no lock needed.  The callbacks were
   * pushed at the head, so this walk runs them in the reverse order of their
   * registration, as the spec asks. */
  struct rt_ctx_destructor *cb = c->destructors;
  while (cb) {
    struct rt_ctx_destructor *next = cb->next;
    cb->fn(c, cb->user_data);
    free(cb);
    cb = next;
  }
  for (cl_uint i = 0; i < c->ndevices; i++)
    rt_device_release(c->devices[i]);
  pthread_mutex_destroy(&c->lock);
  free(c->devices);
  free(c->props);
  free(c);
}

cl_int rt_context_add_destructor(cl_context c, rt_ctx_destructor_fn fn, void *user_data)
{
  struct rt_ctx_destructor *cb = malloc(sizeof(*cb));
  if (!cb)
    return CL_OUT_OF_HOST_MEMORY;
  cb->fn = fn;
  cb->user_data = user_data;
  pthread_mutex_lock(&c->lock);
  cb->next = c->destructors;
  c->destructors = cb;
  pthread_mutex_unlock(&c->lock);
  return CL_SUCCESS;
}

bool rt_context_has_device(cl_context c, cl_device_id dev)
{
  for (cl_uint i = 0; i < c->ndevices; i++)
    if (c->devices[i] == dev)
      return true;
  return false;
}

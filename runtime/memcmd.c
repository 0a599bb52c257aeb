/* Memory commands: read, write, copy and fill of buffers (linear and
 * rectangular), map, unmap and migrate.  icd/enqueue_mem.c validates the
 * arguments (ranges inside the buffers, pitches resolved, no forbidden
 * overlap, the wait list) and calls in here.
 *
 * A buffer's device memory is host memory (rt_mem_ptr), so every command is
 * a memmove or a fill on a runtime thread, or on the calling thread of a
 * blocking call; map, unmap and migrate only order the queue. */
#include <stdlib.h>
#include <string.h>

#include "runtime/rt_queue.h"

/* ---------------------------------------------------------------------------
 * Payloads and their run functions
 * ------------------------------------------------------------------------- */

/* A copy of a 3D box of bytes: region[0] bytes per row, region[1] rows per
 * slice, region[2] slices.  Pointers are final (host = device memory); the
 * command holds internal references on the buffers involved. */
struct copy_payload {
  cl_mem mem[2];
  char *dst;
  const char *src;
  size_t region[3];
  size_t dst_row, dst_slice, src_row, src_slice;
};

static cl_int copy_run(rt_command *cmd)
{
  struct copy_payload *p = cmd->payload;
  if (p->region[1] == 1 && p->region[2] == 1) {
    memmove(p->dst, p->src, p->region[0]);
    return CL_SUCCESS;
  }
  /* Rows and slices back to back on both sides (whole tight images): one
   * block. */
  size_t plane = p->region[0] * p->region[1];
  if (p->dst_row == p->region[0] && p->src_row == p->region[0] &&
      (p->region[2] == 1 || (p->dst_slice == plane && p->src_slice == plane))) {
    memmove(p->dst, p->src, plane * p->region[2]);
    return CL_SUCCESS;
  }
  for (size_t z = 0; z < p->region[2]; z++)
    for (size_t y = 0; y < p->region[1]; y++)
      memmove(p->dst + z * p->dst_slice + y * p->dst_row, p->src + z * p->src_slice + y * p->src_row,
              p->region[0]);
  return CL_SUCCESS;
}

struct fill_payload {
  cl_mem mem;
  char *dst;
  size_t size;
  size_t pattern_size;
  unsigned char pattern[128];
};

static cl_int fill_run(rt_command *cmd)
{
  struct fill_payload *p = cmd->payload;
  if (p->pattern_size == 1) {
    memset(p->dst, p->pattern[0], p->size);
    return CL_SUCCESS;
  }
  /* One pattern, then double the filled part until it covers the region. */
  memcpy(p->dst, p->pattern, p->pattern_size);
  size_t done = p->pattern_size;
  while (done < p->size) {
    size_t n = done < p->size - done ? done : p->size - done;
    memcpy(p->dst + done, p->dst, n);
    done += n;
  }
  return CL_SUCCESS;
}

/* Payloads start with the buffers they hold (NULL when unused). */
static void mem_payload_destroy(rt_command *cmd, cl_mem *mems, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (mems[i])
      rt_mem_release(mems[i]);
  free(cmd->payload);
}

static void copy_destroy(rt_command *cmd)
{
  struct copy_payload *p = cmd->payload;
  mem_payload_destroy(cmd, p->mem, 2);
}

static void fill_destroy(rt_command *cmd)
{
  struct fill_payload *p = cmd->payload;
  mem_payload_destroy(cmd, &p->mem, 1);
}

/* ---------------------------------------------------------------------------
 * Command construction
 * ------------------------------------------------------------------------- */

/* Enqueues a copy command; holds a for the command's lifetime (b too when
 * not NULL). */
static cl_int enqueue_copy(cl_command_queue q, cl_command_type type, cl_bool blocking, cl_mem a, cl_mem b,
                           const struct copy_payload *tmpl, cl_uint nwait, const cl_event *wait, cl_event *event)
{
  struct copy_payload *p = malloc(sizeof(*p));
  if (!p)
    return CL_OUT_OF_HOST_MEMORY;
  *p = *tmpl;
  p->mem[0] = a;
  p->mem[1] = b;
  rt_command *cmd = rt_command_new(type, copy_run, copy_destroy, p);
  if (!cmd) {
    free(p);
    return CL_OUT_OF_HOST_MEMORY;
  }
  rt_mem_retain(a);
  if (b)
    rt_mem_retain(b);
  return rt_enqueue_maybe_blocking(q, cmd, blocking, nwait, wait, event);
}

/* A command that only orders the queue (nothing to run). */
static cl_int enqueue_order(cl_command_queue q, cl_command_type type, cl_bool blocking, cl_uint nwait,
                            const cl_event *wait, cl_event *event)
{
  return rt_enqueue_maybe_blocking(q, rt_command_new(type, NULL, NULL, NULL), blocking, nwait, wait, event);
}

cl_int rt_enqueue_read_write(cl_command_queue q, bool write, cl_mem buffer, cl_bool blocking, size_t offset,
                             size_t size, void *ptr, cl_uint nwait, const cl_event *wait, cl_event *event)
{
  char *dev = (char *)rt_mem_ptr(buffer) + offset;
  struct copy_payload p = {
    .dst = write ? dev : ptr,
    .src = write ? ptr : dev,
    .region = {size, 1, 1},
  };
  return enqueue_copy(q, write ? CL_COMMAND_WRITE_BUFFER : CL_COMMAND_READ_BUFFER, blocking, buffer, NULL, &p,
                      nwait, wait, event);
}

cl_int rt_enqueue_read_write_rect(cl_command_queue q, bool write, cl_mem buffer, cl_bool blocking,
                                  const rt_box *buffer_box, void *ptr, const rt_box *host_box,
                                  const size_t region[3], cl_uint nwait, const cl_event *wait, cl_event *event)
{
  char *dev = (char *)rt_mem_ptr(buffer) + buffer_box->offset;
  char *host = (char *)ptr + host_box->offset;
  const rt_box *dst = write ? buffer_box : host_box, *src = write ? host_box : buffer_box;
  struct copy_payload p = {
    .dst = write ? dev : host,
    .src = write ? host : dev,
    .region = {region[0], region[1], region[2]},
    .dst_row = dst->row_pitch,
    .dst_slice = dst->slice_pitch,
    .src_row = src->row_pitch,
    .src_slice = src->slice_pitch,
  };
  return enqueue_copy(q, write ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_READ_BUFFER_RECT, blocking, buffer,
                      NULL, &p, nwait, wait, event);
}

cl_int rt_enqueue_copy(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                       size_t size, cl_uint nwait, const cl_event *wait, cl_event *event)
{
  if (size == 0) /* nothing to copy: a marker keeps the ordering */
    return enqueue_order(q, CL_COMMAND_COPY_BUFFER, CL_FALSE, nwait, wait, event);
  struct copy_payload p = {
    .dst = (char *)rt_mem_ptr(dst) + dst_offset,
    .src = (char *)rt_mem_ptr(src) + src_offset,
    .region = {size, 1, 1},
  };
  return enqueue_copy(q, CL_COMMAND_COPY_BUFFER, CL_FALSE, src, dst, &p, nwait, wait, event);
}

cl_int rt_enqueue_copy_rect(cl_command_queue q, cl_mem src, cl_mem dst, const rt_box *src_box,
                            const rt_box *dst_box, const size_t region[3], cl_uint nwait, const cl_event *wait,
                            cl_event *event)
{
  struct copy_payload p = {
    .dst = (char *)rt_mem_ptr(dst) + dst_box->offset,
    .src = (char *)rt_mem_ptr(src) + src_box->offset,
    .region = {region[0], region[1], region[2]},
    .dst_row = dst_box->row_pitch,
    .dst_slice = dst_box->slice_pitch,
    .src_row = src_box->row_pitch,
    .src_slice = src_box->slice_pitch,
  };
  return enqueue_copy(q, CL_COMMAND_COPY_BUFFER_RECT, CL_FALSE, src, dst, &p, nwait, wait, event);
}

cl_int rt_enqueue_fill(cl_command_queue q, cl_mem buffer, const void *pattern, size_t pattern_size,
                       size_t offset, size_t size, cl_uint nwait, const cl_event *wait, cl_event *event)
{
  if (size == 0)
    return enqueue_order(q, CL_COMMAND_FILL_BUFFER, CL_FALSE, nwait, wait, event);
  struct fill_payload *p = malloc(sizeof(*p));
  if (!p)
    return CL_OUT_OF_HOST_MEMORY;
  p->mem = buffer;
  p->dst = (char *)rt_mem_ptr(buffer) + offset;
  p->size = size;
  p->pattern_size = pattern_size;
  memcpy(p->pattern, pattern, pattern_size);
  rt_command *cmd = rt_command_new(CL_COMMAND_FILL_BUFFER, fill_run, fill_destroy, p);
  if (!cmd) {
    free(p);
    return CL_OUT_OF_HOST_MEMORY;
  }
  rt_mem_retain(buffer);
  return rt_enqueue(q, cmd, nwait, wait, event);
}

cl_int rt_enqueue_map(cl_command_queue q, cl_mem buffer, cl_bool blocking, cl_map_flags flags, size_t offset,
                      size_t size, cl_uint nwait, const cl_event *wait, cl_event *event, void **ptr)
{
  void *p;
  cl_int err = rt_mem_map_add(buffer, offset, size, flags, &p);
  if (err != CL_SUCCESS)
    return err;
  /* The memory is the host's: the command only orders the queue. */
  err = enqueue_order(q, CL_COMMAND_MAP_BUFFER, blocking, nwait, wait, event);
  if (err != CL_SUCCESS) {
    rt_mem_map_remove(buffer, p);
    return err;
  }
  *ptr = p;
  return CL_SUCCESS;
}

cl_int rt_enqueue_unmap(cl_command_queue q, cl_mem m, void *ptr, cl_uint nwait, const cl_event *wait,
                        cl_event *event)
{
  if (rt_mem_map_remove(m, ptr) != CL_SUCCESS) {
    rt_err("clEnqueueUnmapMemObject: %p is not a pointer mapped from this memory object", ptr);
    return CL_INVALID_VALUE;
  }
  return rt_enqueue(q, rt_command_new(CL_COMMAND_UNMAP_MEM_OBJECT, NULL, NULL, NULL), nwait, wait, event);
}

cl_int rt_enqueue_migrate(cl_command_queue q, cl_uint nwait, const cl_event *wait, cl_event *event)
{
  /* Host memory is the device's: nothing moves. */
  return rt_enqueue(q, rt_command_new(CL_COMMAND_MIGRATE_MEM_OBJECTS, NULL, NULL, NULL), nwait, wait, event);
}

/* ---------------------------------------------------------------------------
 * Image commands: boxes of bytes (icd/ turned pixels into bytes)
 * ------------------------------------------------------------------------- */

cl_int rt_enqueue_box_copy(cl_command_queue q, cl_command_type type, cl_bool blocking, cl_mem a, cl_mem b,
                           void *dst, const rt_box *dst_box, const void *src, const rt_box *src_box,
                           const size_t region[3], cl_uint nwait, const cl_event *wait, cl_event *event)
{
  struct copy_payload p = {
    .dst = (char *)dst + dst_box->offset,
    .src = (const char *)src + src_box->offset,
    .region = {region[0], region[1], region[2]},
    .dst_row = dst_box->row_pitch,
    .dst_slice = dst_box->slice_pitch,
    .src_row = src_box->row_pitch,
    .src_slice = src_box->slice_pitch,
  };
  return enqueue_copy(q, type, blocking, a, b, &p, nwait, wait, event);
}

/* One pixel repeated over a box of an image. */
struct box_fill_payload {
  cl_mem mem;
  char *dst;
  size_t region[3];
  size_t row, slice;
  size_t elem_size;
  unsigned char pixel[16];
};

static cl_int box_fill_run(rt_command *cmd)
{
  struct box_fill_payload *p = cmd->payload;
  /* The first row once, then copied to every other row of the box. */
  char *first = p->dst;
  for (size_t x = 0; x < p->region[0]; x += p->elem_size)
    memcpy(first + x, p->pixel, p->elem_size);
  for (size_t z = 0; z < p->region[2]; z++)
    for (size_t y = 0; y < p->region[1]; y++) {
      char *row = p->dst + z * p->slice + y * p->row;
      if (row != first)
        memcpy(row, first, p->region[0]);
    }
  return CL_SUCCESS;
}

static void box_fill_destroy(rt_command *cmd)
{
  struct box_fill_payload *p = cmd->payload;
  mem_payload_destroy(cmd, &p->mem, 1);
}

cl_int rt_enqueue_box_fill(cl_command_queue q, cl_mem image, const void *pixel, size_t elem_size,
                           const rt_box *box, const size_t region[3], cl_uint nwait, const cl_event *wait,
                           cl_event *event)
{
  struct box_fill_payload *p = malloc(sizeof(*p));
  if (!p)
    return CL_OUT_OF_HOST_MEMORY;
  p->mem = image;
  p->dst = (char *)rt_mem_ptr(image) + box->offset;
  memcpy(p->region, region, sizeof(p->region));
  p->row = box->row_pitch;
  p->slice = box->slice_pitch;
  p->elem_size = elem_size;
  memcpy(p->pixel, pixel, elem_size);
  rt_command *cmd = rt_command_new(CL_COMMAND_FILL_IMAGE, box_fill_run, box_fill_destroy, p);
  if (!cmd) {
    free(p);
    return CL_OUT_OF_HOST_MEMORY;
  }
  rt_mem_retain(image);
  return rt_enqueue(q, cmd, nwait, wait, event);
}

cl_int rt_enqueue_map_image(cl_command_queue q, cl_mem image, cl_bool blocking, cl_map_flags flags,
                            const size_t origin[3], const size_t region[3], size_t offset, size_t size,
                            cl_uint nwait, const cl_event *wait, cl_event *event, void **ptr)
{
  void *p;
  cl_int err = rt_mem_map_add_box(image, offset, size, origin, region, flags, &p);
  if (err != CL_SUCCESS)
    return err;
  err = enqueue_order(q, CL_COMMAND_MAP_IMAGE, blocking, nwait, wait, event);
  if (err != CL_SUCCESS) {
    rt_mem_map_remove(image, p);
    return err;
  }
  *ptr = p;
  return CL_SUCCESS;
}

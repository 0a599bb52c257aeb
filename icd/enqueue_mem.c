/* Enqueue entry points that move memory without a kernel: read, write, copy
 * and fill of buffers (linear and rectangular), map and unmap, migrate; the
 * SVM enqueues, which LaneCL's device does not support (the image
 * enqueues: icd/enqueue_image.c).
 *
 * This file only validates (the spec's error sentence above each check);
 * the commands themselves are made and run by runtime/memcmd.c. */
#include "icd/icd.h"

/* ---- shared checks ---- */

/* CL_INVALID_MEM_OBJECT if memobj is not a valid memory object, then
 * CL_INVALID_CONTEXT if the context associated with command_queue and memobj
 * are not the same. */
static cl_int check_mem(const char *func, const char *name, cl_command_queue q, cl_mem m)
{
  if (!rt_object_is(m, RT_MEM)) {
    rt_err("%s: %s %p is not a valid memory object", func, name, (void *)m);
    return CL_INVALID_MEM_OBJECT;
  }
  if (rt_mem_context(m) != rt_queue_context(q)) {
    rt_err("%s: %s belongs to another context than the command queue", func, name);
    return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

/* CL_INVALID_VALUE if the region specified by offset and size is out of
 * bounds. */
static bool range_valid(const char *func, const char *name, cl_mem m, size_t offset, size_t size)
{
  size_t total = rt_mem_size(m);
  if (offset > total || size > total - offset) {
    rt_err("%s: [%zu, +%zu) is out of the %zu bytes of %s", func, offset, size, total, name);
    return false;
  }
  return true;
}

/* The pitch rules of the *Rect calls for one side (buffer or host): pitches
 * of 0 become the tight ones; with mem != NULL the box must also lie inside
 * the buffer.  *offset receives the byte offset of origin. */
static bool rect_side_valid(const char *func, const char *side, cl_mem mem, const size_t origin[3],
                            const size_t region[3], size_t *row_pitch, size_t *slice_pitch, size_t *offset)
{
  /* CL_INVALID_VALUE if row_pitch is not equal to zero and is less than
   * region[0]. */
  if (*row_pitch == 0)
    *row_pitch = region[0];
  else if (*row_pitch < region[0]) {
    rt_err("%s: %s row pitch %zu is less than region[0] %zu", func, side, *row_pitch, region[0]);
    return false;
  }
  /* CL_INVALID_VALUE if slice_pitch is not equal to zero and is less than
   * region[1] times row_pitch, or is not a multiple of row_pitch. */
  size_t tight;
  if (__builtin_mul_overflow(region[1], *row_pitch, &tight)) {
    rt_err("%s: %s region[1] * row pitch overflows", func, side);
    return false;
  }
  if (*slice_pitch == 0)
    *slice_pitch = tight;
  else if (*slice_pitch < tight || *slice_pitch % *row_pitch) {
    rt_err("%s: %s slice pitch %zu is less than region[1] * row pitch (%zu) or not a multiple of the row pitch",
           func, side, *slice_pitch, tight);
    return false;
  }
  /* Byte offset of the origin and of the end of the box. */
  size_t a, b, start, last, end;
  bool ovf = __builtin_mul_overflow(origin[2], *slice_pitch, &a) ||
             __builtin_mul_overflow(origin[1], *row_pitch, &b) || __builtin_add_overflow(a, b, &start) ||
             __builtin_add_overflow(start, origin[0], &start);
  ovf = ovf || __builtin_mul_overflow(region[2] - 1, *slice_pitch, &a) ||
        __builtin_mul_overflow(region[1] - 1, *row_pitch, &b) || __builtin_add_overflow(a, b, &last) ||
        __builtin_add_overflow(last, region[0], &last) || __builtin_add_overflow(start, last, &end);
  if (ovf) {
    rt_err("%s: %s origin and region overflow", func, side);
    return false;
  }
  /* CL_INVALID_VALUE if the region specified by origin, region, row_pitch
   * and slice_pitch is out of bounds. */
  if (mem && end > rt_mem_size(mem)) {
    rt_err("%s: the %s box ends at byte %zu, past the %zu bytes of the buffer", func, side, end,
           rt_mem_size(mem));
    return false;
  }
  *offset = start;
  return true;
}

/* CL_INVALID_VALUE if origin or region is NULL, or if any region array
 * element is zero. */
static bool region_valid(const char *func, const size_t *o1, const size_t *o2, const size_t *region)
{
  if (!o1 || !o2 || !region) {
    rt_err("%s: an origin or the region is NULL", func);
    return false;
  }
  if (!region[0] || !region[1] || !region[2]) {
    rt_err("%s: region {%zu, %zu, %zu} has a zero element", func, region[0], region[1], region[2]);
    return false;
  }
  return true;
}

/* CL_INVALID_OPERATION if clEnqueueRead* is called on a buffer created with
 * CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS; if clEnqueueWrite* is
 * called on a buffer created with CL_MEM_HOST_READ_ONLY or
 * CL_MEM_HOST_NO_ACCESS. */
static bool host_access_valid(const char *func, cl_mem m, bool write)
{
  cl_mem_flags deny = write ? (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
                            : (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
  if (rt_mem_flags(m) & deny) {
    rt_err("%s: the buffer's host access flags forbid host %s", func, write ? "writes" : "reads");
    return false;
  }
  return true;
}

/* ---- read and write ---- */

static cl_int read_write(const char *func, bool write, cl_command_queue q, cl_mem buffer, cl_bool blocking,
                         size_t offset, size_t size, void *ptr, cl_uint nwait, const cl_event *wait,
                         cl_event *event)
{
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = icd_check_buffer(func, "buffer", q, buffer);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if the region being read or written specified by
   * offset and size is out of bounds, or if ptr is NULL. */
  if (!range_valid(func, "the buffer", buffer, offset, size))
    return CL_INVALID_VALUE;
  if (!ptr) {
    rt_err("%s: ptr is NULL", func);
    return CL_INVALID_VALUE;
  }
  err = icd_check_wait_list(func, rt_queue_context(q), nwait, wait);
  if (err != CL_SUCCESS)
    return err;
  err = icd_check_sub_buffer_align(func, q, buffer);
  if (err != CL_SUCCESS)
    return err;
  if (!host_access_valid(func, buffer, write))
    return CL_INVALID_OPERATION;
  return rt_enqueue_read_write(q, write, buffer, blocking, offset, size, ptr, nwait, wait, event);
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                                       size_t offset, size_t size, void *ptr, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event)
{
  return read_write("clEnqueueReadBuffer", false, command_queue, buffer, blocking_read, offset, size, ptr,
                    num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                        size_t offset, size_t size, const void *ptr,
                                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                        cl_event *event)
{
  return read_write("clEnqueueWriteBuffer", true, command_queue, buffer, blocking_write, offset, size,
                    (void *)ptr, num_events_in_wait_list, event_wait_list, event);
}

static cl_int read_write_rect(const char *func, bool write, cl_command_queue q, cl_mem buffer, cl_bool blocking,
                              const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                              size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                              size_t host_slice_pitch, void *ptr, cl_uint nwait, const cl_event *wait,
                              cl_event *event)
{
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = icd_check_buffer(func, "buffer", q, buffer);
  if (err != CL_SUCCESS)
    return err;
  if (!region_valid(func, buffer_origin, host_origin, region))
    return CL_INVALID_VALUE;
  size_t boff, hoff;
  if (!rect_side_valid(func, "buffer", buffer, buffer_origin, region, &buffer_row_pitch, &buffer_slice_pitch,
                       &boff) ||
      !rect_side_valid(func, "host", NULL, host_origin, region, &host_row_pitch, &host_slice_pitch, &hoff))
    return CL_INVALID_VALUE;
  /* CL_INVALID_VALUE if ptr is NULL. */
  if (!ptr) {
    rt_err("%s: ptr is NULL", func);
    return CL_INVALID_VALUE;
  }
  err = icd_check_wait_list(func, rt_queue_context(q), nwait, wait);
  if (err != CL_SUCCESS)
    return err;
  err = icd_check_sub_buffer_align(func, q, buffer);
  if (err != CL_SUCCESS)
    return err;
  if (!host_access_valid(func, buffer, write))
    return CL_INVALID_OPERATION;
  rt_box buffer_box = {boff, buffer_row_pitch, buffer_slice_pitch};
  rt_box host_box = {hoff, host_row_pitch, host_slice_pitch};
  return rt_enqueue_read_write_rect(q, write, buffer, blocking, &buffer_box, ptr, &host_box, region, nwait, wait,
                                    event);
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                                           const size_t *buffer_origin, const size_t *host_origin,
                                           const size_t *region, size_t buffer_row_pitch,
                                           size_t buffer_slice_pitch, size_t host_row_pitch,
                                           size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event)
{
  return read_write_rect("clEnqueueReadBufferRect", false, command_queue, buffer, blocking_read, buffer_origin,
                         host_origin, region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                         host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                            const size_t *buffer_origin, const size_t *host_origin,
                                            const size_t *region, size_t buffer_row_pitch,
                                            size_t buffer_slice_pitch, size_t host_row_pitch,
                                            size_t host_slice_pitch, const void *ptr,
                                            cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                            cl_event *event)
{
  return read_write_rect("clEnqueueWriteBufferRect", true, command_queue, buffer, blocking_write, buffer_origin,
                         host_origin, region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                         host_slice_pitch, (void *)ptr, num_events_in_wait_list, event_wait_list, event);
}

/* ---- copy ---- */

/* Whether two byte ranges [a, a + n) and [b, b + m) intersect. */
static bool ranges_overlap(size_t a, size_t n, size_t b, size_t m)
{
  return a < b + m && b < a + n;
}

/* CL_MEM_COPY_OVERLAP for copies within one buffer's storage: when src and
 * dst are the same buffer or sub-buffer, or different sub-buffers of one
 * buffer.  Offsets are relative to each object.  A copy between a buffer and
 * its own sub-buffer is not listed by the spec; memmove keeps it defined. */
static bool same_storage(cl_mem a, cl_mem b)
{
  return a == b || (rt_mem_parent(a) && rt_mem_parent(a) == rt_mem_parent(b));
}

/* The checks both buffer copies start with: the queue, then each buffer (a
 * buffer of the queue's context; a sub-buffer aligned for the device). */
static cl_int check_copy_pair(const char *func, cl_command_queue q, cl_mem src_buffer, cl_mem dst_buffer)
{
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = icd_check_buffer(func, "src_buffer", q, src_buffer);
  if (err == CL_SUCCESS)
    err = icd_check_buffer(func, "dst_buffer", q, dst_buffer);
  if (err == CL_SUCCESS)
    err = icd_check_sub_buffer_align(func, q, src_buffer);
  if (err == CL_SUCCESS)
    err = icd_check_sub_buffer_align(func, q, dst_buffer);
  return err;
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                       size_t src_offset, size_t dst_offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                       cl_event *event)
{
  const char *func = "clEnqueueCopyBuffer";
  cl_command_queue q = command_queue;
  cl_int err = check_copy_pair(func, q, src_buffer, dst_buffer);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if the region specified by src_offset and size is out
   * of bounds of src_buffer, or by dst_offset and size of dst_buffer. */
  if (!range_valid(func, "src_buffer", src_buffer, src_offset, size) ||
      !range_valid(func, "dst_buffer", dst_buffer, dst_offset, size))
    return CL_INVALID_VALUE;
  err = icd_check_wait_list(func, rt_queue_context(q), num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or
   * sub-buffer object and the source and destination regions overlap, or if
   * src_buffer and dst_buffer are different sub-buffers of the same
   * associated buffer object and they overlap. */
  if (same_storage(src_buffer, dst_buffer) &&
      ranges_overlap(rt_mem_offset(src_buffer) + src_offset, size, rt_mem_offset(dst_buffer) + dst_offset, size)) {
    rt_err("%s: source and destination regions overlap", func);
    return CL_MEM_COPY_OVERLAP;
  }
  return rt_enqueue_copy(q, src_buffer, dst_buffer, src_offset, dst_offset, size, num_events_in_wait_list,
                         event_wait_list, event);
}

/* Overlap of two boxes with the same pitches in one storage (Appendix D of
 * the spec: the boxes are apart when their byte spans are, or when one's
 * rows fit in the gaps between the other's rows, or one's slices in the gaps
 * between the other's slices). */
static bool boxes_overlap(size_t src, size_t dst, const size_t region[3], size_t row, size_t slice)
{
  size_t slice_bytes = (region[1] - 1) * row + region[0];
  size_t span = (region[2] - 1) * slice + slice_bytes;
  if (!ranges_overlap(src, span, dst, span))
    return false;
  size_t sx = src % row, dx = dst % row;
  if ((dx >= sx + region[0] && dx + region[0] <= sx + row) || (sx >= dx + region[0] && sx + region[0] <= dx + row))
    return false;
  size_t sy = src % slice, dy = dst % slice;
  if ((dy >= sy + slice_bytes && dy + slice_bytes <= sy + slice) ||
      (sy >= dy + slice_bytes && sy + slice_bytes <= dy + slice))
    return false;
  return true;
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                           const size_t *src_origin, const size_t *dst_origin,
                                           const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
                                           size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                           cl_event *event)
{
  const char *func = "clEnqueueCopyBufferRect";
  cl_command_queue q = command_queue;
  cl_int err = check_copy_pair(func, q, src_buffer, dst_buffer);
  if (err != CL_SUCCESS)
    return err;
  if (!region_valid(func, src_origin, dst_origin, region))
    return CL_INVALID_VALUE;
  size_t soff, doff;
  if (!rect_side_valid(func, "source", src_buffer, src_origin, region, &src_row_pitch, &src_slice_pitch, &soff) ||
      !rect_side_valid(func, "destination", dst_buffer, dst_origin, region, &dst_row_pitch, &dst_slice_pitch,
                       &doff))
    return CL_INVALID_VALUE;
  /* CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer object
   * and src_row_pitch is not equal to dst_row_pitch, or src_slice_pitch is
   * not equal to dst_slice_pitch. */
  if (src_buffer == dst_buffer && (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch)) {
    rt_err("%s: a copy within one buffer needs equal source and destination pitches", func);
    return CL_INVALID_VALUE;
  }
  err = icd_check_wait_list(func, rt_queue_context(q), num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or
   * sub-buffer object and the source and destination regions overlap, or if
   * they are different sub-buffers of the same buffer and they overlap. */
  if (same_storage(src_buffer, dst_buffer)) {
    size_t s = rt_mem_offset(src_buffer) + soff, d = rt_mem_offset(dst_buffer) + doff;
    bool overlap;
    if (src_row_pitch == dst_row_pitch && src_slice_pitch == dst_slice_pitch)
      overlap = boxes_overlap(s, d, region, src_row_pitch, src_slice_pitch);
    else /* different pitches (two sub-buffers): compare the byte spans */
      overlap = ranges_overlap(s, (region[2] - 1) * src_slice_pitch + (region[1] - 1) * src_row_pitch + region[0],
                               d, (region[2] - 1) * dst_slice_pitch + (region[1] - 1) * dst_row_pitch + region[0]);
    if (overlap) {
      rt_err("%s: source and destination regions overlap", func);
      return CL_MEM_COPY_OVERLAP;
    }
  }
  rt_box src_box = {soff, src_row_pitch, src_slice_pitch};
  rt_box dst_box = {doff, dst_row_pitch, dst_slice_pitch};
  return rt_enqueue_copy_rect(q, src_buffer, dst_buffer, &src_box, &dst_box, region, num_events_in_wait_list,
                              event_wait_list, event);
}

/* ---- fill ---- */

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void *pattern,
                                       size_t pattern_size, size_t offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                       cl_event *event)
{
  const char *func = "clEnqueueFillBuffer";
  cl_command_queue q = command_queue;
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = icd_check_buffer(func, "buffer", q, buffer);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if the region being filled specified by offset and size
   * is out of bounds; if pattern is NULL; if pattern_size is zero, not a
   * power of two or greater than 128; if offset or size is not a multiple of
   * pattern_size. */
  if (!range_valid(func, "the buffer", buffer, offset, size))
    return CL_INVALID_VALUE;
  if (!pattern) {
    rt_err("%s: pattern is NULL", func);
    return CL_INVALID_VALUE;
  }
  if (pattern_size == 0 || (pattern_size & (pattern_size - 1)) || pattern_size > 128) {
    rt_err("%s: pattern_size %zu is not a power of two between 1 and 128", func, pattern_size);
    return CL_INVALID_VALUE;
  }
  if (offset % pattern_size || size % pattern_size) {
    rt_err("%s: offset %zu or size %zu is not a multiple of pattern_size %zu", func, offset, size, pattern_size);
    return CL_INVALID_VALUE;
  }
  err = icd_check_wait_list(func, rt_queue_context(q), num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  err = icd_check_sub_buffer_align(func, q, buffer);
  if (err != CL_SUCCESS)
    return err;
  return rt_enqueue_fill(q, buffer, pattern, pattern_size, offset, size, num_events_in_wait_list, event_wait_list,
                         event);
}

/* ---- map, unmap, migrate ---- */

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                     cl_map_flags map_flags, size_t offset, size_t size,
                                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                     cl_event *event, cl_int *errcode_ret)
{
  const char *func = "clEnqueueMapBuffer";
  cl_command_queue q = command_queue;
  cl_int err;
  if (!icd_queue_valid(func, q)) {
    err = CL_INVALID_COMMAND_QUEUE;
    goto fail;
  }
  err = icd_check_buffer(func, "buffer", q, buffer);
  if (err != CL_SUCCESS)
    goto fail;
  /* CL_INVALID_VALUE if the region being mapped specified by offset and size
   * is out of bounds, if size is zero, or if values specified in map_flags
   * are not valid (CL_MAP_READ or CL_MAP_WRITE and
   * CL_MAP_WRITE_INVALIDATE_REGION are mutually exclusive). */
  err = CL_INVALID_VALUE;
  if (!range_valid(func, "the buffer", buffer, offset, size))
    goto fail;
  if (size == 0) {
    rt_err("%s: size is 0", func);
    goto fail;
  }
  if ((map_flags & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ||
      ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE)))) {
    rt_err("%s: map_flags %#llx are not valid", func, (unsigned long long)map_flags);
    goto fail;
  }
  err = icd_check_wait_list(func, rt_queue_context(q), num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    goto fail;
  err = icd_check_sub_buffer_align(func, q, buffer);
  if (err != CL_SUCCESS)
    goto fail;
  /* CL_INVALID_OPERATION if buffer was created with CL_MEM_HOST_WRITE_ONLY
   * or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags; or with
   * CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or
   * CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags. */
  err = CL_INVALID_OPERATION;
  if ((map_flags & CL_MAP_READ) && !host_access_valid(func, buffer, false))
    goto fail;
  if ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !host_access_valid(func, buffer, true))
    goto fail;
  /* CL_INVALID_OPERATION if mapping would lead to overlapping regions being
   * mapped for writing: the runtime keeps the mappings and tells. */
  void *ptr;
  err = rt_enqueue_map(q, buffer, blocking_map, map_flags, offset, size, num_events_in_wait_list,
                       event_wait_list, event, &ptr);
  if (err != CL_SUCCESS)
    goto fail;
  icd_set_err(errcode_ret, CL_SUCCESS);
  return ptr;

fail:
  icd_set_err(errcode_ret, err);
  return NULL;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void *mapped_ptr,
                                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                           cl_event *event)
{
  const char *func = "clEnqueueUnmapMemObject";
  cl_command_queue q = command_queue;
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  /* CL_INVALID_MEM_OBJECT if memobj is not a valid memory object; then
   * CL_INVALID_CONTEXT if context associated with command_queue and memobj
   * are not the same. */
  cl_int err = check_mem(func, "memobj", q, memobj);
  if (err != CL_SUCCESS)
    return err;
  err = icd_check_wait_list(func, rt_queue_context(q), num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  /* CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
   * clEnqueueMapBuffer or clEnqueueMapImage for memobj: the runtime keeps
   * the mappings and tells. */
  return rt_enqueue_unmap(q, memobj, mapped_ptr, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                              const cl_mem *mem_objects, cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                              cl_event *event)
{
  const char *func = "clEnqueueMigrateMemObjects";
  cl_command_queue q = command_queue;
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  /* CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL. */
  if (num_mem_objects == 0 || !mem_objects) {
    rt_err("%s: num_mem_objects is %u and mem_objects is %p", func, num_mem_objects, (void *)mem_objects);
    return CL_INVALID_VALUE;
  }
  /* CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not
   * a valid memory object; CL_INVALID_CONTEXT if the context associated with
   * command_queue and memory objects in mem_objects are not the same. */
  for (cl_uint i = 0; i < num_mem_objects; i++) {
    cl_int err = check_mem(func, "mem_objects[i]", q, mem_objects[i]);
    if (err != CL_SUCCESS)
      return err;
  }
  /* CL_INVALID_VALUE if flags is not 0 or is not any of the values described
   * in the table above. */
  if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)) {
    rt_err("%s: flags %#llx are not valid", func, (unsigned long long)flags);
    return CL_INVALID_VALUE;
  }
  cl_int err = icd_check_wait_list(func, rt_queue_context(q), num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  return rt_enqueue_migrate(q, num_events_in_wait_list, event_wait_list, event);
}

/* ---- SVM: CL_DEVICE_SVM_CAPABILITIES is 0 ---- */

/* CL_INVALID_COMMAND_QUEUE for a bad queue, else CL_INVALID_OPERATION if
 * the device associated with command_queue does not support SVM. */
static cl_int no_svm(const char *func, cl_command_queue q)
{
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  rt_err("%s: the queue's device does not support SVM", func);
  return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void *svm_pointers[],
                                    void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue,
                                                                     cl_uint num_svm_pointers,
                                                                     void *svm_pointers[], void *user_data),
                                    void *user_data, cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event)
{
  return no_svm("clEnqueueSVMFree", command_queue);
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr,
                                      const void *src_ptr, size_t size, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event)
{
  return no_svm("clEnqueueSVMMemcpy", command_queue);
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern,
                                       size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event)
{
  return no_svm("clEnqueueSVMMemFill", command_queue);
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags,
                                   void *svm_ptr, size_t size, cl_uint num_events_in_wait_list,
                                   const cl_event *event_wait_list, cl_event *event)
{
  return no_svm("clEnqueueSVMMap", command_queue);
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event)
{
  return no_svm("clEnqueueSVMUnmap", command_queue);
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                          const void **svm_pointers, const size_t *sizes,
                                          cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event)
{
  return no_svm("clEnqueueSVMMigrateMem", command_queue);
}

/* Image enqueue entry points: read, write, copy and fill of images, copies
 * between images and buffers, and map.  This file validates (the spec's
 * error sentence above each check), turns origins and regions of pixels
 * into boxes of bytes, converts fill colors into pixels, and calls
 * runtime/memcmd.c.  Unmapping an image is clEnqueueUnmapMemObject
 * (icd/enqueue_mem.c). */
#include <math.h>
#include <string.h>

#include "icd/icd.h"

/* ---- shared checks ---- */

/* CL_INVALID_MEM_OBJECT if image is not a valid image object; then
 * CL_INVALID_CONTEXT if the context associated with command_queue and image
 * are not the same. */
static cl_int check_image(const char *func, const char *name, cl_command_queue q, cl_mem m)
{
  if (!rt_object_is(m, RT_MEM) || !rt_mem_image(m)) {
    rt_err("%s: %s %p is not a valid image", func, name, (void *)m);
    return CL_INVALID_MEM_OBJECT;
  }
  if (rt_mem_context(m) != rt_queue_context(q)) {
    rt_err("%s: %s belongs to another context than the command queue", func, name);
    return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

static bool has_slices(cl_mem_object_type t)
{
  return t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

/* CL_INVALID_VALUE if origin or region is NULL, if the region given by
 * (origin, region) is out of bounds, or if values in origin and region do
 * not follow the rules of the image type: a 1D image (or 1D image buffer)
 * has origin[1] = origin[2] = 0 and region[1] = region[2] = 1; a 2D image
 * and a 1D array (whose layers are origin[1] / region[1]) have origin[2] = 0
 * and region[2] = 1; a 2D array's layers are origin[2] / region[2]; and no
 * region element is 0. */
static bool origin_region_valid(const char *func, const char *name, const rt_image *img, const size_t *origin,
                                const size_t *region)
{
  if (!origin || !region) {
    rt_err("%s: %s origin or region is NULL", func, name);
    return false;
  }
  if (!region[0] || !region[1] || !region[2]) {
    rt_err("%s: region {%zu, %zu, %zu} has a zero element", func, region[0], region[1], region[2]);
    return false;
  }
  cl_mem_object_type t = img->type;
  size_t lim[3] = {img->width, img->height, img->depth};
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    lim[1] = lim[2] = 1;
    break;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    lim[1] = img->array_size;
    lim[2] = 1;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    lim[2] = 1;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    lim[2] = img->array_size;
    break;
  default:
    break;
  }
  for (int i = 0; i < 3; i++) {
    if (origin[i] >= lim[i] || region[i] > lim[i] - origin[i]) {
      rt_err("%s: %s origin {%zu, %zu, %zu} + region {%zu, %zu, %zu} is out of the image's {%zu, %zu, %zu} "
             "(or breaks the origin and region rules of its type)",
             func, name, origin[0], origin[1], origin[2], region[0], region[1], region[2], lim[0], lim[1], lim[2]);
      return false;
    }
  }
  return true;
}

/* The byte box of (origin) in an image: dimension 1 steps by the row pitch
 * (a 1D array's layers by the slice pitch), dimension 2 by the slice
 * pitch. */
static rt_box image_box(const rt_image *img, const size_t origin[3])
{
  rt_box b;
  b.row_pitch = img->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? img->slice_pitch : img->row_pitch;
  b.slice_pitch = img->slice_pitch ? img->slice_pitch : b.row_pitch;
  b.offset = origin[0] * img->elem_size + origin[1] * b.row_pitch + origin[2] * img->slice_pitch;
  return b;
}

/* The byte extent of a box of region (bytes of its last row included). */
static size_t box_extent(const rt_box *b, const size_t region[3])
{
  return (region[2] - 1) * b->slice_pitch + (region[1] - 1) * b->row_pitch + region[0];
}

/* CL_INVALID_OPERATION if a read is called on an image created with
 * CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS, a write on one created
 * with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS. */
static bool host_access_valid(const char *func, cl_mem m, bool write)
{
  cl_mem_flags deny = write ? (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
                            : (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
  if (rt_mem_flags(m) & deny) {
    rt_err("%s: the image's host access flags forbid host %s", func, write ? "writes" : "reads");
    return false;
  }
  return true;
}

/* ---- read and write ---- */

static cl_int read_write(const char *func, bool write, cl_command_queue q, cl_mem image, cl_bool blocking,
                         const size_t *origin, const size_t *region, size_t row_pitch, size_t slice_pitch,
                         void *ptr, cl_uint nwait, const cl_event *wait, cl_event *event)
{
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = check_image(func, "image", q, image);
  if (err != CL_SUCCESS)
    return err;
  const rt_image *img = rt_mem_image(image);
  if (!origin_region_valid(func, "image", img, origin, region))
    return CL_INVALID_VALUE;
  /* The host pitches: row_pitch 0 means region[0] x element size, else it
   * must be at least that; slice_pitch 0 means row_pitch x region[1] (a 1D
   * array: row_pitch), else at least that; CL_INVALID_VALUE if image is a
   * 1D or 2D image and slice_pitch is not 0. */
  size_t row_bytes = region[0] * img->elem_size;
  if (row_pitch == 0)
    row_pitch = row_bytes;
  else if (row_pitch < row_bytes) {
    rt_err("%s: row_pitch %zu is less than region[0] x element size (%zu)", func, row_pitch, row_bytes);
    return CL_INVALID_VALUE;
  }
  size_t min_slice = img->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row_pitch : row_pitch * region[1];
  if (!has_slices(img->type)) {
    if (slice_pitch != 0) {
      rt_err("%s: slice_pitch must be 0 for a 1D or 2D image (it is %zu)", func, slice_pitch);
      return CL_INVALID_VALUE;
    }
    slice_pitch = min_slice;
  } else if (slice_pitch == 0) {
    slice_pitch = min_slice;
  } else if (slice_pitch < min_slice) {
    rt_err("%s: slice_pitch %zu is less than %zu", func, slice_pitch, min_slice);
    return CL_INVALID_VALUE;
  }
  /* CL_INVALID_VALUE if ptr is NULL. */
  if (!ptr) {
    rt_err("%s: ptr is NULL", func);
    return CL_INVALID_VALUE;
  }
  err = icd_check_wait_list(func, rt_queue_context(q), nwait, wait);
  if (err != CL_SUCCESS)
    return err;
  if (!host_access_valid(func, image, write))
    return CL_INVALID_OPERATION;
  rt_box ibox = image_box(img, origin);
  rt_box hbox = {0, img->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice_pitch : row_pitch, slice_pitch};
  size_t bytes[3] = {row_bytes, region[1], region[2]};
  char *data = rt_mem_ptr(image);
  if (write)
    return rt_enqueue_box_copy(q, CL_COMMAND_WRITE_IMAGE, blocking, image, NULL, data, &ibox, ptr, &hbox, bytes,
                               nwait, wait, event);
  return rt_enqueue_box_copy(q, CL_COMMAND_READ_IMAGE, blocking, image, NULL, ptr, &hbox, data, &ibox, bytes,
                             nwait, wait, event);
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                                      const size_t *origin, const size_t *region, size_t row_pitch,
                                      size_t slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event)
{
  return read_write("clEnqueueReadImage", false, command_queue, image, blocking_read, origin, region, row_pitch,
                    slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                                       const size_t *origin, const size_t *region, size_t input_row_pitch,
                                       size_t input_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event)
{
  return read_write("clEnqueueWriteImage", true, command_queue, image, blocking_write, origin, region,
                    input_row_pitch, input_slice_pitch, (void *)ptr, num_events_in_wait_list, event_wait_list,
                    event);
}

/* ---- copy ---- */

/* Whether two boxes of pixels of one image intersect: pixels are a grid
 * (a row is never longer than the pitch), so only where they intersect in
 * every dimension. */
static bool pixel_boxes_overlap(const size_t a[3], const size_t b[3], const size_t region[3])
{
  for (int i = 0; i < 3; i++)
    if (a[i] >= b[i] + region[i] || b[i] >= a[i] + region[i])
      return false;
  return true;
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                                      const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                      cl_event *event)
{
  const char *func = "clEnqueueCopyImage";
  cl_command_queue q = command_queue;
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = check_image(func, "src_image", q, src_image);
  if (err == CL_SUCCESS)
    err = check_image(func, "dst_image", q, dst_image);
  if (err != CL_SUCCESS)
    return err;
  const rt_image *si = rt_mem_image(src_image), *di = rt_mem_image(dst_image);
  /* CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same
   * image format. */
  if (si->format.image_channel_order != di->format.image_channel_order ||
      si->format.image_channel_data_type != di->format.image_channel_data_type) {
    rt_err("%s: the images' formats differ", func);
    return CL_IMAGE_FORMAT_MISMATCH;
  }
  /* CL_INVALID_VALUE if src_origin, dst_origin or region is NULL, if the 2D
   * or 3D rectangular region specified by src_origin and region is out of
   * bounds of src_image, or dst_origin and region of dst_image, or if
   * values in src_origin, dst_origin and region do not follow the rules of
   * the image types. */
  if (!origin_region_valid(func, "src_image", si, src_origin, region) ||
      !origin_region_valid(func, "dst_image", di, dst_origin, region))
    return CL_INVALID_VALUE;
  err = icd_check_wait_list(func, rt_queue_context(q), num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  rt_box sbox = image_box(si, src_origin), dbox = image_box(di, dst_origin);
  size_t bytes[3] = {region[0] * si->elem_size, region[1], region[2]};
  /* CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object
   * and the source and destination regions overlap (or two images of one
   * storage, a 2D image and the 2D image made from it). */
  if (rt_mem_ptr(src_image) == rt_mem_ptr(dst_image) && pixel_boxes_overlap(src_origin, dst_origin, region)) {
    rt_err("%s: source and destination regions overlap", func);
    return CL_MEM_COPY_OVERLAP;
  }
  return rt_enqueue_box_copy(q, CL_COMMAND_COPY_IMAGE, CL_FALSE, src_image, dst_image, rt_mem_ptr(dst_image),
                             &dbox, rt_mem_ptr(src_image), &sbox, bytes, num_events_in_wait_list,
                             event_wait_list, event);
}

/* ---- copies between images and buffers ---- */

static cl_int image_buffer_copy(const char *func, bool to_buffer, cl_command_queue q, cl_mem image, cl_mem buffer,
                                const size_t *origin, const size_t *region, size_t offset, cl_uint nwait,
                                const cl_event *wait, cl_event *event)
{
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = check_image(func, to_buffer ? "src_image" : "dst_image", q, image);
  if (err == CL_SUCCESS)
    err = icd_check_buffer(func, to_buffer ? "dst_buffer" : "src_buffer", q, buffer);
  if (err != CL_SUCCESS)
    return err;
  const rt_image *img = rt_mem_image(image);
  /* CL_INVALID_VALUE if the 1D, 2D or 3D rectangular region specified by
   * the image origin and region is out of bounds of the image, or if the
   * region specified by the buffer offset and the region's size in bytes
   * (region[0] x region[1] x region[2] x element size) is out of bounds of
   * the buffer; or if origin and region do not follow the rules of the
   * image type. */
  if (!origin_region_valid(func, to_buffer ? "src_image" : "dst_image", img, origin, region))
    return CL_INVALID_VALUE;
  size_t total, bsize = rt_mem_size(buffer);
  if (__builtin_mul_overflow(region[0] * img->elem_size, region[1] * region[2], &total) || offset > bsize ||
      total > bsize - offset) {
    rt_err("%s: %zu bytes at offset %zu do not fit in the buffer's %zu", func, total, offset, bsize);
    return CL_INVALID_VALUE;
  }
  err = icd_check_wait_list(func, rt_queue_context(q), nwait, wait);
  if (err != CL_SUCCESS)
    return err;
  err = icd_check_sub_buffer_align(func, q, buffer);
  if (err != CL_SUCCESS)
    return err;
  rt_box ibox = image_box(img, origin);
  size_t row = region[0] * img->elem_size;
  rt_box bbox = {offset, row, row * region[1]};
  size_t bytes[3] = {row, region[1], region[2]};
  if (to_buffer)
    return rt_enqueue_box_copy(q, CL_COMMAND_COPY_IMAGE_TO_BUFFER, CL_FALSE, image, buffer, rt_mem_ptr(buffer),
                               &bbox, rt_mem_ptr(image), &ibox, bytes, nwait, wait, event);
  return rt_enqueue_box_copy(q, CL_COMMAND_COPY_BUFFER_TO_IMAGE, CL_FALSE, image, buffer, rt_mem_ptr(image), &ibox,
                             rt_mem_ptr(buffer), &bbox, bytes, nwait, wait, event);
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer,
                                              const size_t *src_origin, const size_t *region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                              cl_event *event)
{
  return image_buffer_copy("clEnqueueCopyImageToBuffer", true, command_queue, src_image, dst_buffer, src_origin,
                           region, dst_offset, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
                                              size_t src_offset, const size_t *dst_origin, const size_t *region,
                                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                              cl_event *event)
{
  return image_buffer_copy("clEnqueueCopyBufferToImage", false, command_queue, dst_image, src_buffer, dst_origin,
                           region, src_offset, num_events_in_wait_list, event_wait_list, event);
}

/* ---- fill ---- */

/* float -> half, round to nearest even (what a write_imagef of a half
 * channel does). */
static uint16_t half_rte(float f)
{
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) /* inf, NaN (kept quiet) */
    return sign | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0);
  if (a >= 0x477ff000u) /* 65520 and up round to infinity */
    return sign | 0x7c00u;
  if (a < 0x38800000u) { /* below 2^-14: a half subnormal, in units of 2^-24 */
    float v;
    memcpy(&v, &a, 4);
    return sign | (uint16_t)rintf(v * 16777216.0f);
  }
  uint32_t h = (((a >> 23) - 112u) << 10) | ((a & 0x7fffffu) >> 13);
  uint32_t rest = a & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
    h++;
  return sign | (uint16_t)h;
}

/* Normalized: clamp, scale, round to nearest even (NaN gives 0). */
static long unorm(float f, float scale)
{
  if (!(f > 0.0f))
    return 0;
  if (f > 1.0f)
    f = 1.0f;
  return lrintf(f * scale);
}

static long snorm(float f, float scale)
{
  if (f != f)
    return 0;
  if (f < -1.0f)
    f = -1.0f;
  if (f > 1.0f)
    f = 1.0f;
  return lrintf(f * scale);
}

/* Linear to sRGB (the spec's conversion for writes of sRGB channels). */
static float to_srgb(float c)
{
  if (!(c > 0.0f))
    return 0.0f;
  if (c >= 1.0f)
    return 1.0f;
  return c < 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static long clampl(long long v, long long lo, long long hi)
{
  return (long)(v < lo ? lo : v > hi ? hi : v);
}

/* The pixel a fill color gives: color is a float[4] for normalized, half
 * and float channels (one float for CL_DEPTH), an int[4] for signed and a
 * uint[4] for unsigned integer channels, in (r, g, b, a) order; the image
 * stores the channels in its channel order. */
static void fill_pixel(const rt_image *img, const void *color, unsigned char out[16])
{
  cl_channel_order order = img->format.image_channel_order;
  cl_channel_type type = img->format.image_channel_data_type;
  const float *cf = color;
  const cl_int *ci = color;
  const cl_uint *cu = color;
  memset(out, 0, 16);
  /* Packed formats: r, g, b in one word, r in the high bits. */
  if (type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555) {
    uint16_t w = type == CL_UNORM_SHORT_565
                     ? (uint16_t)(unorm(cf[0], 31) << 11 | unorm(cf[1], 63) << 5 | unorm(cf[2], 31))
                     : (uint16_t)(unorm(cf[0], 31) << 10 | unorm(cf[1], 31) << 5 | unorm(cf[2], 31));
    memcpy(out, &w, 2);
    return;
  }
  if (type == CL_UNORM_INT_101010) {
    uint32_t w = (uint32_t)(unorm(cf[0], 1023) << 20 | unorm(cf[1], 1023) << 10 | unorm(cf[2], 1023));
    memcpy(out, &w, 4);
    return;
  }
  /* Which color component each stored channel holds. */
  static const int rgba[4] = {0, 1, 2, 3}, bgra[4] = {2, 1, 0, 3}, argb[4] = {3, 0, 1, 2},
                   abgr[4] = {3, 2, 1, 0}, ra[2] = {0, 3}, a_only[1] = {3};
  const int *map = rgba;
  switch (order) {
  case CL_BGRA:
  case CL_sBGRA: map = bgra; break;
  case CL_ARGB: map = argb; break;
  case CL_ABGR: map = abgr; break;
  case CL_RA: map = ra; break;
  case CL_A: map = a_only; break;
  default: break;
  }
  bool srgb = order == CL_sRGBA || order == CL_sBGRA || order == CL_sRGB || order == CL_sRGBx;
  unsigned n = rt_image_channels(order);
  for (unsigned k = 0; k < n; k++) {
    int c = map[k];
    switch (type) {
    case CL_UNORM_INT8: {
      float v = srgb && c != 3 ? to_srgb(cf[c]) : cf[c];
      out[k] = (unsigned char)unorm(v, 255);
      break;
    }
    case CL_UNORM_INT16: {
      uint16_t v = (uint16_t)unorm(cf[c], 65535);
      memcpy(out + 2 * k, &v, 2);
      break;
    }
    case CL_SNORM_INT8: out[k] = (unsigned char)(int8_t)snorm(cf[c], 127); break;
    case CL_SNORM_INT16: {
      int16_t v = (int16_t)snorm(cf[c], 32767);
      memcpy(out + 2 * k, &v, 2);
      break;
    }
    case CL_SIGNED_INT8: out[k] = (unsigned char)(int8_t)clampl(ci[c], -128, 127); break;
    case CL_SIGNED_INT16: {
      int16_t v = (int16_t)clampl(ci[c], -32768, 32767);
      memcpy(out + 2 * k, &v, 2);
      break;
    }
    case CL_SIGNED_INT32: memcpy(out + 4 * k, &ci[c], 4); break;
    case CL_UNSIGNED_INT8: out[k] = (unsigned char)(cu[c] > 255 ? 255 : cu[c]); break;
    case CL_UNSIGNED_INT16: {
      uint16_t v = (uint16_t)(cu[c] > 65535 ? 65535 : cu[c]);
      memcpy(out + 2 * k, &v, 2);
      break;
    }
    case CL_UNSIGNED_INT32: memcpy(out + 4 * k, &cu[c], 4); break;
    case CL_HALF_FLOAT: {
      uint16_t v = half_rte(cf[c]);
      memcpy(out + 2 * k, &v, 2);
      break;
    }
    case CL_FLOAT: memcpy(out + 4 * k, &cf[c], 4); break;
    default: break;
    }
  }
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color,
                                      const size_t *origin, const size_t *region, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event)
{
  const char *func = "clEnqueueFillImage";
  cl_command_queue q = command_queue;
  if (!icd_queue_valid(func, q))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = check_image(func, "image", q, image);
  if (err != CL_SUCCESS)
    return err;
  const rt_image *img = rt_mem_image(image);
  /* CL_INVALID_VALUE if fill_color is NULL, if origin or region is NULL, if
   * the region being filled as specified by origin and region is out of
   * bounds, or if values in origin and region do not follow the rules of
   * the image type. */
  if (!fill_color) {
    rt_err("%s: fill_color is NULL", func);
    return CL_INVALID_VALUE;
  }
  if (!origin_region_valid(func, "image", img, origin, region))
    return CL_INVALID_VALUE;
  err = icd_check_wait_list(func, rt_queue_context(q), num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  unsigned char pixel[16];
  fill_pixel(img, fill_color, pixel);
  rt_box box = image_box(img, origin);
  size_t bytes[3] = {region[0] * img->elem_size, region[1], region[2]};
  return rt_enqueue_box_fill(q, image, pixel, img->elem_size, &box, bytes, num_events_in_wait_list,
                             event_wait_list, event);
}

/* ---- map ---- */

void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                                    cl_map_flags map_flags, const size_t *origin, const size_t *region,
                                    size_t *image_row_pitch, size_t *image_slice_pitch,
                                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                    cl_event *event, cl_int *errcode_ret)
{
  const char *func = "clEnqueueMapImage";
  cl_command_queue q = command_queue;
  cl_int err;
  if (!icd_queue_valid(func, q)) {
    err = CL_INVALID_COMMAND_QUEUE;
    goto fail;
  }
  err = check_image(func, "image", q, image);
  if (err != CL_SUCCESS)
    goto fail;
  const rt_image *img = rt_mem_image(image);
  /* CL_INVALID_VALUE if origin or region is NULL, if the region being
   * mapped given by (origin, origin + region) is out of bounds, if values
   * in origin and region do not follow the rules of the image type, if
   * image_row_pitch is NULL, if image is a 3D image, 1D or 2D image array
   * object and image_slice_pitch is NULL, or if map_flags are not valid. */
  err = CL_INVALID_VALUE;
  if (!origin_region_valid(func, "image", img, origin, region))
    goto fail;
  if (!image_row_pitch) {
    rt_err("%s: image_row_pitch is NULL", func);
    goto fail;
  }
  if (has_slices(img->type) && !image_slice_pitch) {
    rt_err("%s: image_slice_pitch is NULL for an image with slices or layers", func);
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
  /* CL_INVALID_OPERATION if image has been created with
   * CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set
   * in map_flags, or with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and
   * CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags. */
  err = CL_INVALID_OPERATION;
  if ((map_flags & CL_MAP_READ) && !host_access_valid(func, image, false))
    goto fail;
  if ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !host_access_valid(func, image, true))
    goto fail;
  /* The image's memory is host memory: the mapping is the image itself, at
   * its pitches.  CL_INVALID_OPERATION if mapping would lead to overlapping
   * regions being mapped for writing: the runtime keeps the mappings (their
   * boxes) and tells. */
  rt_box box = image_box(img, origin);
  size_t bytes[3] = {region[0] * img->elem_size, region[1], region[2]};
  void *ptr;
  err = rt_enqueue_map_image(q, image, blocking_map, map_flags, origin, region, box.offset,
                             box_extent(&box, bytes), num_events_in_wait_list, event_wait_list, event, &ptr);
  if (err != CL_SUCCESS)
    goto fail;
  *image_row_pitch = img->row_pitch;
  if (image_slice_pitch)
    *image_slice_pitch = img->slice_pitch; /* 0 for 1D and 2D images */
  icd_set_err(errcode_ret, CL_SUCCESS);
  return ptr;

fail:
  icd_set_err(errcode_ret, err);
  return NULL;
}

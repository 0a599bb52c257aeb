/* Image entry points: creation (clCreateImage, clCreateImageWithProperties,
 * the 1.x clCreateImage2D / clCreateImage3D), the supported formats and the
 * image queries.  Every check has the spec's error sentence above it; the
 * image itself is made by runtime/image.c.  The image enqueues are in
 * icd/enqueue_image.c, samplers in icd/sampler.c. */
#include "icd/icd.h"

/* ---- formats ---- */

/* The twelve channel types of the plain orders (CL_R, CL_RG, CL_RGBA). */
static const cl_channel_type plain_types[] = {
  CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SNORM_INT8,     CL_SNORM_INT16, CL_SIGNED_INT8, CL_SIGNED_INT16,
  CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT,
};
#define NPLAIN (sizeof(plain_types) / sizeof(plain_types[0]))

static bool type_in(cl_channel_type t, const cl_channel_type *list, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (list[i] == t)
      return true;
  return false;
}

/* Whether the format is one the Image Format Descriptor section allows: a
 * known order, a known type, and a pair the Image Channel Order table
 * permits.  Validity only: what LaneCL supports is format_supported. */
static bool format_valid(const cl_image_format *f)
{
  static const cl_channel_type norm_float[] = {CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8,
                                               CL_SNORM_INT16, CL_HALF_FLOAT, CL_FLOAT};
  static const cl_channel_type bytes[] = {CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8, CL_UNSIGNED_INT8};
  static const cl_channel_type packed_rgb[] = {CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010};
  static const cl_channel_type depth[] = {CL_UNORM_INT16, CL_FLOAT};
  static const cl_channel_type depth_stencil[] = {CL_UNORM_INT24, CL_FLOAT};
  cl_channel_type t = f->image_channel_data_type;
  switch (f->image_channel_order) {
  case CL_R:
  case CL_A:
  case CL_Rx:
  case CL_RG:
  case CL_RA:
  case CL_RGx:
    return type_in(t, plain_types, NPLAIN);
  case CL_RGBA:
    return type_in(t, plain_types, NPLAIN) || t == CL_UNORM_INT_101010_2;
  case CL_INTENSITY:
  case CL_LUMINANCE:
    return type_in(t, norm_float, 6);
  case CL_RGB:
  case CL_RGBx:
    return type_in(t, packed_rgb, 3);
  case CL_ARGB:
  case CL_BGRA:
  case CL_ABGR:
    return type_in(t, bytes, 4);
  case CL_sRGB:
  case CL_sRGBx:
  case CL_sRGBA:
  case CL_sBGRA:
    return t == CL_UNORM_INT8;
  case CL_DEPTH:
    return type_in(t, depth, 2);
  case CL_DEPTH_STENCIL:
    return type_in(t, depth_stencil, 2);
  default:
    return false;
  }
}

/* The formats LaneCL supports for an image type and kernel access: CL_R,
 * CL_RG and CL_RGBA with every plain type, CL_BGRA 8-bit, CL_RGB packed
 * 565 / 555 / 101010, for every access; CL_sRGBA and CL_sBGRA 8-bit for
 * reading only (no cl_khr_srgb_image_writes); CL_DEPTH 16-bit and float for
 * 2D images and 2D arrays (cl_khr_depth_images).  This covers every list of
 * the spec's Minimum List of Supported Image Formats.  out NULL: counts. */
static cl_uint supported_formats(cl_mem_flags flags, cl_mem_object_type type, cl_image_format *out, cl_uint max)
{
  cl_uint n = 0;
#define ADD(o, t)                                                                                  \
  do {                                                                                             \
    if (out && n < max)                                                                            \
      out[n] = (cl_image_format){(o), (t)};                                                        \
    n++;                                                                                           \
  } while (0)
  static const cl_channel_order plain_orders[] = {CL_R, CL_RG, CL_RGBA};
  for (size_t o = 0; o < 3; o++)
    for (size_t t = 0; t < NPLAIN; t++)
      ADD(plain_orders[o], plain_types[t]);
  ADD(CL_BGRA, CL_UNORM_INT8);
  ADD(CL_RGB, CL_UNORM_SHORT_565);
  ADD(CL_RGB, CL_UNORM_SHORT_555);
  ADD(CL_RGB, CL_UNORM_INT_101010);
  bool read_only = (flags & CL_MEM_READ_ONLY) && !(flags & CL_MEM_KERNEL_READ_AND_WRITE);
  if (read_only) {
    ADD(CL_sRGBA, CL_UNORM_INT8);
    ADD(CL_sBGRA, CL_UNORM_INT8);
  }
  if (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY) {
    ADD(CL_DEPTH, CL_UNORM_INT16);
    ADD(CL_DEPTH, CL_FLOAT);
  }
#undef ADD
  return n;
}

static bool format_supported(cl_mem_flags flags, cl_mem_object_type type, const cl_image_format *f)
{
  cl_image_format all[64];
  cl_uint n = supported_formats(flags, type, all, 64);
  for (cl_uint i = 0; i < n && i < 64; i++)
    if (all[i].image_channel_order == f->image_channel_order &&
        all[i].image_channel_data_type == f->image_channel_data_type)
      return true;
  return false;
}

static bool image_type_valid(cl_mem_object_type t)
{
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return true;
  default:
    return false;
  }
}

/* The channel orders a 2D image made from another may view its pixels
 * with (Compatible Image Channel Orders). */
static bool orders_compatible(cl_channel_order view, cl_channel_order of)
{
  if (view == of)
    return true;
  static const cl_channel_order pairs[][2] = {
    {CL_sBGRA, CL_BGRA}, {CL_sRGBA, CL_RGBA}, {CL_sRGB, CL_RGB}, {CL_sRGBx, CL_RGBx}, {CL_DEPTH, CL_R},
  };
  for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
    if ((view == pairs[i][0] && of == pairs[i][1]) || (view == pairs[i][1] && of == pairs[i][0] && of != CL_DEPTH))
      return true;
  return false;
}

/* ---- creation ---- */

static const cl_mem_flags image_flags = RT_MEM_ACCESS_FLAGS | RT_MEM_HOST_FLAGS | RT_MEM_PTR_FLAGS;

/* The flags an image made from mem_object reports: its own plus what it
 * inherits. */
static cl_mem_flags inherited_flags(cl_mem_flags of, cl_mem_flags flags)
{
  cl_mem_flags out = flags;
  if (!(flags & RT_MEM_ACCESS_FLAGS))
    out |= of & RT_MEM_ACCESS_FLAGS;
  out |= of & RT_MEM_PTR_FLAGS;
  if (!(flags & RT_MEM_HOST_FLAGS))
    out |= of & RT_MEM_HOST_FLAGS;
  return out;
}

/* legacy: clCreateImage2D / clCreateImage3D, whose pitch errors are
 * CL_INVALID_IMAGE_SIZE (clCreateImage's: CL_INVALID_IMAGE_DESCRIPTOR). */
static cl_mem create_image(const char *func, bool legacy, cl_context context, const cl_mem_properties *properties,
                           cl_mem_flags flags, const cl_image_format *image_format, const cl_image_desc *image_desc,
                           void *host_ptr, cl_int *errcode_ret)
{
  icd_init();
  cl_int err;
  const cl_int pitch_err = legacy ? CL_INVALID_IMAGE_SIZE : CL_INVALID_IMAGE_DESCRIPTOR;
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("%s: context %p is not a valid context", func, (void *)context);
    err = CL_INVALID_CONTEXT;
    goto fail;
  }
  /* CL_INVALID_PROPERTY if a property name in properties is not a supported
   * property name: OpenCL defines none for images, and LaneCL supports no
   * extension that does. */
  size_t nprops = 0;
  if (properties) {
    if (properties[0] != 0) {
      rt_err("%s: image property %#llx is not supported", func, (unsigned long long)properties[0]);
      err = CL_INVALID_PROPERTY;
      goto fail;
    }
    nprops = 1;
  }
  /* CL_INVALID_VALUE if values specified in flags are not valid as defined
   * in the Memory Flags table (CL_MEM_KERNEL_READ_AND_WRITE is only for
   * clGetSupportedImageFormats). */
  if (!icd_mem_flags_valid(func, flags, image_flags)) {
    err = CL_INVALID_VALUE;
    goto fail;
  }
  /* CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format
   * are not valid or if image_format is NULL. */
  if (!image_format) {
    rt_err("%s: image_format is NULL", func);
    err = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    goto fail;
  }
  if (!format_valid(image_format)) {
    rt_err("%s: image format {order %#x, type %#x} is not a valid format", func,
           (unsigned)image_format->image_channel_order, (unsigned)image_format->image_channel_data_type);
    err = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    goto fail;
  }
  /* CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not
   * valid or if image_desc is NULL. */
  err = CL_INVALID_IMAGE_DESCRIPTOR;
  if (!image_desc) {
    rt_err("%s: image_desc is NULL", func);
    goto fail;
  }
  cl_image_desc desc = *image_desc;
  cl_mem_object_type type = desc.image_type;
  if (!image_type_valid(type)) {
    rt_err("%s: image_type %#x is not an image type", func, (unsigned)type);
    goto fail;
  }
  /* num_mip_levels and num_samples must be 0 (no cl_khr_mipmap_image). */
  if (desc.num_mip_levels != 0 || desc.num_samples != 0) {
    rt_err("%s: num_mip_levels %u and num_samples %u must be 0", func, desc.num_mip_levels, desc.num_samples);
    goto fail;
  }
  /* mem_object: a buffer for a 1D image buffer (required) or a 2D image
   * (cl_khr_image2d_from_buffer), an image for a 2D image; NULL otherwise. */
  cl_mem mo = desc.mem_object;
  const rt_image *mo_img = NULL;
  if (mo) {
    if (type != CL_MEM_OBJECT_IMAGE1D_BUFFER && type != CL_MEM_OBJECT_IMAGE2D) {
      rt_err("%s: mem_object must be NULL for image type %#x", func, (unsigned)type);
      goto fail;
    }
    if (!rt_object_is(mo, RT_MEM) || rt_mem_context(mo) != context) {
      rt_err("%s: mem_object %p is not a memory object of the context", func, (void *)mo);
      goto fail;
    }
    mo_img = rt_mem_image(mo);
    if (mo_img && (type != CL_MEM_OBJECT_IMAGE2D || mo_img->type != CL_MEM_OBJECT_IMAGE2D)) {
      rt_err("%s: an image can be made only from a buffer or, for a 2D image, from a 2D image", func);
      goto fail;
    }
    cl_mem_flags of = rt_mem_flags(mo);
    /* CL_INVALID_VALUE if an image is being created from another memory
     * object (buffer or image) and mem_object was created with
     * CL_MEM_WRITE_ONLY and flags specifies CL_MEM_READ_WRITE or
     * CL_MEM_READ_ONLY, or with CL_MEM_READ_ONLY and flags specifies
     * CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY, or flags specifies
     * CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR. */
    err = CL_INVALID_VALUE;
    if (((of & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((of & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))) {
      rt_err("%s: kernel access flags %#llx are wider than mem_object's %#llx", func,
             (unsigned long long)(flags & RT_MEM_ACCESS_FLAGS), (unsigned long long)(of & RT_MEM_ACCESS_FLAGS));
      goto fail;
    }
    if (flags & RT_MEM_PTR_FLAGS) {
      rt_err("%s: an image made from mem_object may not have CL_MEM_USE/ALLOC/COPY_HOST_PTR", func);
      goto fail;
    }
    /* ... mem_object was created with CL_MEM_HOST_WRITE_ONLY and flags
     * specifies CL_MEM_HOST_READ_ONLY, with CL_MEM_HOST_READ_ONLY and flags
     * specifies CL_MEM_HOST_WRITE_ONLY, or with CL_MEM_HOST_NO_ACCESS and
     * flags specifies CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY. */
    if (((of & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
        ((of & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
        ((of & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))) {
      rt_err("%s: host access flags %#llx are wider than mem_object's %#llx", func,
             (unsigned long long)(flags & RT_MEM_HOST_FLAGS), (unsigned long long)(of & RT_MEM_HOST_FLAGS));
      goto fail;
    }
    flags = inherited_flags(of, flags);
    err = CL_INVALID_IMAGE_DESCRIPTOR;
  } else if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    rt_err("%s: a 1D image buffer needs a buffer in mem_object", func);
    goto fail;
  }
  bool from_buffer = mo && !mo_img;

  /* CL_INVALID_IMAGE_SIZE if the image dimensions specified in image_desc
   * are not valid (0) or exceed the maximum image dimensions of the Device
   * Queries table for all devices in context. */
  size_t max_w = RT_IMAGE2D_MAX, max_h = 1, max_d = 1, max_a = 1;
  uint64_t max_alloc = 0;
  for (cl_uint i = 0; i < context->ndevices; i++)
    if (context->devices[i]->max_alloc > max_alloc)
      max_alloc = context->devices[i]->max_alloc;
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: max_w = (size_t)(max_alloc / 16); break;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: max_a = RT_IMAGE_MAX_ARRAY; break;
  case CL_MEM_OBJECT_IMAGE2D: max_h = RT_IMAGE2D_MAX; break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: max_h = RT_IMAGE2D_MAX; max_a = RT_IMAGE_MAX_ARRAY; break;
  case CL_MEM_OBJECT_IMAGE3D: max_w = max_h = max_d = RT_IMAGE3D_MAX; break;
  default: break;
  }
  if (max_h == 1)
    desc.image_height = 1;
  if (max_d == 1)
    desc.image_depth = 1;
  if (max_a == 1)
    desc.image_array_size = 1;
  if (desc.image_width == 0 || desc.image_width > max_w || desc.image_height == 0 || desc.image_height > max_h ||
      desc.image_depth == 0 || desc.image_depth > max_d || (legacy && type == CL_MEM_OBJECT_IMAGE3D &&
                                                            desc.image_depth < 2) ||
      desc.image_array_size == 0 || desc.image_array_size > max_a) {
    rt_err("%s: image size %zu x %zu x %zu (array %zu) is 0 or above the device's limits %zu x %zu x %zu (array %zu)",
           func, image_desc->image_width, image_desc->image_height, image_desc->image_depth,
           image_desc->image_array_size, max_w, max_h, max_d, max_a);
    err = CL_INVALID_IMAGE_SIZE;
    goto fail;
  }

  /* The pitches.  image_row_pitch must be 0 if host_ptr is NULL and the
   * image is not a 2D image created from a buffer; else 0 or at least
   * image_width times the element size and a multiple of it. */
  size_t elem = rt_image_elem_size(image_format);
  size_t tight_row = desc.image_width * elem;
  bool has_slices = type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                    type == CL_MEM_OBJECT_IMAGE3D;
  if (!host_ptr && !from_buffer && desc.image_row_pitch != 0 &&
      !(mo_img && desc.image_row_pitch == mo_img->row_pitch)) {
    rt_err("%s: image_row_pitch %zu must be 0 without host_ptr", func, desc.image_row_pitch);
    err = pitch_err;
    goto fail;
  }
  if (desc.image_row_pitch != 0 && (desc.image_row_pitch < tight_row || desc.image_row_pitch % elem)) {
    rt_err("%s: image_row_pitch %zu is below image_width x element size (%zu) or not a multiple of %zu", func,
           desc.image_row_pitch, tight_row, elem);
    err = pitch_err;
    goto fail;
  }
  size_t row = desc.image_row_pitch ? desc.image_row_pitch : tight_row;
  if (has_slices) {
    /* image_slice_pitch must be 0 if host_ptr is NULL; else 0 or at least
     * the row pitch (1D array) or row pitch x height (2D array, 3D), and a
     * multiple of the row pitch. */
    size_t min_slice = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row : row * desc.image_height;
    if (!host_ptr && desc.image_slice_pitch != 0) {
      rt_err("%s: image_slice_pitch %zu must be 0 without host_ptr", func, desc.image_slice_pitch);
      err = pitch_err;
      goto fail;
    }
    if (desc.image_slice_pitch != 0 && (desc.image_slice_pitch < min_slice || desc.image_slice_pitch % row)) {
      rt_err("%s: image_slice_pitch %zu is below %zu or not a multiple of the row pitch %zu", func,
             desc.image_slice_pitch, min_slice, row);
      err = pitch_err;
      goto fail;
    }
  } else {
    desc.image_slice_pitch = 0; /* not used by this type */
  }

  if (from_buffer) {
    size_t bsize = rt_mem_size(mo);
    if (type == CL_MEM_OBJECT_IMAGE2D) {
      /* CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is created from a
       * buffer and the row pitch and base address alignment does not follow
       * the rules described for creating a 2D image from a buffer. */
      if (row % (RT_IMAGE_PITCH_ALIGN * elem)) {
        rt_err("%s: row pitch %zu is not a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT (%u pixels)", func, row,
               RT_IMAGE_PITCH_ALIGN);
        err = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
        goto fail;
      }
      if ((uintptr_t)rt_mem_ptr(mo) % (RT_IMAGE_BASE_ALIGN * elem)) {
        rt_err("%s: the buffer's address %p is not aligned to CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT (%u pixels)",
               func, rt_mem_ptr(mo), RT_IMAGE_BASE_ALIGN);
        err = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
        goto fail;
      }
    }
    /* The image's pixels must lie inside the buffer: image_width x element
     * size (1D image buffer) or image_row_pitch x image_height (2D). */
    size_t need = type == CL_MEM_OBJECT_IMAGE2D ? row * desc.image_height : tight_row;
    if (need > bsize) {
      rt_err("%s: the image needs %zu bytes, the buffer has %zu", func, need, bsize);
      err = CL_INVALID_IMAGE_SIZE;
      goto fail;
    }
  }
  if (mo_img) {
    /* Every value of image_desc but mem_object must match mem_object's;
     * the channel data type must match and the channel orders be
     * compatible (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR). */
    if (desc.image_width != mo_img->width || desc.image_height != mo_img->height) {
      rt_err("%s: image_desc does not match the image in mem_object", func);
      err = CL_INVALID_IMAGE_DESCRIPTOR;
      goto fail;
    }
    if (image_format->image_channel_data_type != mo_img->format.image_channel_data_type ||
        !orders_compatible(image_format->image_channel_order, mo_img->format.image_channel_order)) {
      rt_err("%s: format {%#x, %#x} is not a view of mem_object's {%#x, %#x}", func,
             (unsigned)image_format->image_channel_order, (unsigned)image_format->image_channel_data_type,
             (unsigned)mo_img->format.image_channel_order, (unsigned)mo_img->format.image_channel_data_type);
      err = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
      goto fail;
    }
  }

  /* CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
   * CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
   * CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags (an
   * image made from mem_object inherits these flags and takes no
   * host_ptr). */
  bool wants_ptr = !mo && (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  if (wants_ptr != (host_ptr != NULL)) {
    rt_err("%s: host_ptr is %p but CL_MEM_USE_HOST_PTR / CL_MEM_COPY_HOST_PTR are %s", func, host_ptr,
           wants_ptr ? "set" : "not set (or the image is made from mem_object)");
    err = CL_INVALID_HOST_PTR;
    goto fail;
  }

  /* CL_IMAGE_FORMAT_NOT_SUPPORTED if there are no devices in context that
   * support image_format (for the image type and the kernel access). */
  cl_mem_flags access = flags & RT_MEM_ACCESS_FLAGS ? flags & RT_MEM_ACCESS_FLAGS : CL_MEM_READ_WRITE;
  if (!format_supported(access, type, image_format)) {
    rt_err("%s: format {order %#x, type %#x} is not supported for image type %#x with access %#llx", func,
           (unsigned)image_format->image_channel_order, (unsigned)image_format->image_channel_data_type,
           (unsigned)type, (unsigned long long)access);
    err = CL_IMAGE_FORMAT_NOT_SUPPORTED;
    goto fail;
  }

  /* The bytes of the image's own storage must be allocatable
   * (CL_INVALID_IMAGE_SIZE: dimensions the device can't hold). */
  if (!mo) {
    size_t slice = desc.image_slice_pitch ? desc.image_slice_pitch
                   : type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row
                                                         : row * desc.image_height;
    size_t count = type == CL_MEM_OBJECT_IMAGE3D ? desc.image_depth : desc.image_array_size, total;
    if (__builtin_mul_overflow(slice, count, &total) || total > max_alloc) {
      rt_err("%s: the image needs more than CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu) bytes", func,
             (unsigned long long)max_alloc);
      err = CL_INVALID_IMAGE_SIZE;
      goto fail;
    }
  }

  cl_mem m = rt_image_create(context, flags, image_format, &desc, host_ptr, mo, properties, nprops, &err);
  icd_set_err(errcode_ret, err);
  return m;

fail:
  icd_set_err(errcode_ret, err);
  return NULL;
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                                 const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
{
  return create_image("clCreateImage", false, context, NULL, flags, image_format, image_desc, host_ptr,
                      errcode_ret);
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
                                               cl_mem_flags flags, const cl_image_format *image_format,
                                               const cl_image_desc *image_desc, void *host_ptr,
                                               cl_int *errcode_ret)
{
  return create_image("clCreateImageWithProperties", false, context, properties, flags, image_format, image_desc,
                      host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                                   size_t image_width, size_t image_height, size_t image_row_pitch,
                                   void *host_ptr, cl_int *errcode_ret)
{
  cl_image_desc desc = {0};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = image_width;
  desc.image_height = image_height;
  desc.image_row_pitch = image_row_pitch;
  return create_image("clCreateImage2D", true, context, NULL, flags, image_format, &desc, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                                   size_t image_width, size_t image_height, size_t image_depth,
                                   size_t image_row_pitch, size_t image_slice_pitch, void *host_ptr,
                                   cl_int *errcode_ret)
{
  cl_image_desc desc = {0};
  desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  desc.image_width = image_width;
  desc.image_height = image_height;
  desc.image_depth = image_depth;
  desc.image_row_pitch = image_row_pitch;
  desc.image_slice_pitch = image_slice_pitch;
  return create_image("clCreateImage3D", true, context, NULL, flags, image_format, &desc, host_ptr, errcode_ret);
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                              cl_uint num_entries, cl_image_format *image_formats,
                                              cl_uint *num_image_formats)
{
  icd_init();
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  if (!rt_object_is(context, RT_CONTEXT)) {
    rt_err("clGetSupportedImageFormats: context %p is not a valid context", (void *)context);
    return CL_INVALID_CONTEXT;
  }
  /* CL_INVALID_VALUE if flags is not valid. */
  if (!icd_mem_flags_valid("clGetSupportedImageFormats", flags, image_flags | CL_MEM_KERNEL_READ_AND_WRITE))
    return CL_INVALID_VALUE;
  /* CL_INVALID_VALUE if image_type is not valid. */
  if (!image_type_valid(image_type)) {
    rt_err("clGetSupportedImageFormats: image_type %#x is not an image type", (unsigned)image_type);
    return CL_INVALID_VALUE;
  }
  /* CL_INVALID_VALUE if num_entries is zero and image_formats is not NULL. */
  if (num_entries == 0 && image_formats) {
    rt_err("clGetSupportedImageFormats: num_entries is 0 but image_formats is not NULL");
    return CL_INVALID_VALUE;
  }
  /* Flags without a kernel access flag mean CL_MEM_READ_WRITE. */
  cl_mem_flags access = flags & (RT_MEM_ACCESS_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE);
  if (!access)
    access = CL_MEM_READ_WRITE;
  cl_uint n = supported_formats(access, image_type, image_formats, image_formats ? num_entries : 0);
  if (num_image_formats)
    *num_image_formats = n;
  return CL_SUCCESS;
}

/* ---- queries ---- */

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret)
{
  /* CL_INVALID_MEM_OBJECT if image is a not a valid image object. */
  const rt_image *img = rt_object_is(image, RT_MEM) ? rt_mem_image(image) : NULL;
  if (!img) {
    rt_err("clGetImageInfo: %p is not a valid image", (void *)image);
    return CL_INVALID_MEM_OBJECT;
  }
  void *v = param_value;
  size_t n = param_value_size;
  size_t *ret = param_value_size_ret;
  cl_mem_object_type t = img->type;
  bool is_array = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  bool is_2d = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
  switch (param_name) {
  case CL_IMAGE_FORMAT:
    return ICD_INFO_VAL(v, n, ret, cl_image_format, img->format);
  case CL_IMAGE_ELEMENT_SIZE:
    return ICD_INFO_VAL(v, n, ret, size_t, img->elem_size);
  case CL_IMAGE_ROW_PITCH:
    return ICD_INFO_VAL(v, n, ret, size_t, img->row_pitch);
  case CL_IMAGE_SLICE_PITCH:
    /* 0 for a 1D image, 1D image buffer and 2D image. */
    return ICD_INFO_VAL(v, n, ret, size_t, img->slice_pitch);
  case CL_IMAGE_WIDTH:
    return ICD_INFO_VAL(v, n, ret, size_t, img->width);
  case CL_IMAGE_HEIGHT:
    /* 0 for 1D images, 1D image buffers and 1D arrays. */
    return ICD_INFO_VAL(v, n, ret, size_t, is_2d ? img->height : 0);
  case CL_IMAGE_DEPTH:
    /* 0 unless a 3D image. */
    return ICD_INFO_VAL(v, n, ret, size_t, t == CL_MEM_OBJECT_IMAGE3D ? img->depth : 0);
  case CL_IMAGE_ARRAY_SIZE:
    /* 0 unless an image array. */
    return ICD_INFO_VAL(v, n, ret, size_t, is_array ? img->array_size : 0);
  case CL_IMAGE_BUFFER:
    /* The buffer of a 1D image buffer or of a 2D image made from one. */
    return ICD_INFO_VAL(v, n, ret, cl_mem, img->assoc && !rt_mem_image(img->assoc) ? img->assoc : NULL);
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES:
    return ICD_INFO_VAL(v, n, ret, cl_uint, 0);
  default:
    /* CL_INVALID_VALUE if param_name is not valid. */
    rt_err("clGetImageInfo: unknown param_name %#x", (unsigned)param_name);
    return CL_INVALID_VALUE;
  }
}

/* Images and samplers: the memory object of an image and the descriptor a
 * kernel receives (builtins/lanecl_image.h), and sampler objects.  icd/
 * validates every argument (icd/image.c, icd/sampler.c); the image
 * commands are box copies and fills of runtime/memcmd.c. */
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

unsigned rt_image_channels(cl_channel_order order)
{
  switch (order) {
  case CL_R:
  case CL_A:
  case CL_INTENSITY:
  case CL_LUMINANCE:
  case CL_DEPTH:
    return 1;
  case CL_RG:
  case CL_RA:
  case CL_Rx:
    return 2;
  case CL_RGB:
  case CL_RGx:
  case CL_sRGB:
    return 3;
  case CL_RGBA:
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
  case CL_RGBx:
  case CL_sRGBA:
  case CL_sBGRA:
  case CL_sRGBx:
    return 4;
  default:
    return 0;
  }
}

size_t rt_image_elem_size(const cl_image_format *f)
{
  unsigned n = rt_image_channels(f->image_channel_order);
  switch (f->image_channel_data_type) {
  case CL_SNORM_INT8:
  case CL_UNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return n;
  case CL_SNORM_INT16:
  case CL_UNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2 * (size_t)n;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT:
    return 4 * (size_t)n;
  /* Packed: every channel of a pixel in one 16- or 32-bit word. */
  case CL_UNORM_SHORT_565:
  case CL_UNORM_SHORT_555:
    return 2;
  case CL_UNORM_INT_101010:
  case CL_UNORM_INT_101010_2:
  case CL_UNORM_INT24:
    return 4;
  default:
    return 0;
  }
}

static bool image_is_array(cl_mem_object_type t)
{
  return t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

cl_mem rt_image_create(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                       const cl_image_desc *desc, void *host_ptr, cl_mem assoc, const cl_mem_properties *props,
                       size_t nprops, cl_int *err)
{
  rt_image *img = calloc(1, sizeof(*img));
  if (!img) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  cl_mem_object_type t = desc->image_type;
  img->type = t;
  img->format = *format;
  img->elem_size = rt_image_elem_size(format);
  img->width = desc->image_width;
  img->height = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D
                    ? desc->image_height
                    : 1;
  img->depth = t == CL_MEM_OBJECT_IMAGE3D ? desc->image_depth : 1;
  img->array_size = image_is_array(t) ? desc->image_array_size : 1;
  img->assoc = assoc;

  /* The image's own pitches: those of the application's memory
   * (CL_MEM_USE_HOST_PTR), of the object it is made from, or tight. */
  size_t tight_row = img->width * img->elem_size;
  size_t tight_slice = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? tight_row : tight_row * img->height;
  size_t host_row = desc->image_row_pitch ? desc->image_row_pitch : tight_row;
  size_t host_slice = desc->image_slice_pitch ? desc->image_slice_pitch
                      : t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? host_row
                                                          : host_row * img->height;
  const rt_image *src = assoc ? rt_mem_image(assoc) : NULL;
  bool own_pitch = !(flags & CL_MEM_USE_HOST_PTR) && !assoc;
  if (src) {
    img->row_pitch = src->row_pitch;
    img->slice_pitch = src->slice_pitch;
  } else if (own_pitch) {
    img->row_pitch = tight_row;
    img->slice_pitch = tight_slice;
  } else {
    img->row_pitch = host_row;
    img->slice_pitch = host_slice;
  }
  bool has_slices = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                    t == CL_MEM_OBJECT_IMAGE3D;
  if (!has_slices)
    img->slice_pitch = 0;
  /* Bytes of the data: up to the end of the last row, slice or layer. */
  size_t size;
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    size = t == CL_MEM_OBJECT_IMAGE1D_BUFFER ? tight_row : img->row_pitch;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    size = img->row_pitch * img->height;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    size = img->slice_pitch * img->depth;
    break;
  default:
    size = img->slice_pitch * img->array_size;
    break;
  }

  cl_mem m;
  if (assoc)
    m = rt_mem_alias_create(assoc, flags, size, props, nprops, err);
  else
    m = rt_mem_create_storage(ctx, flags, size, host_ptr, props, nprops, err);
  if (!m) {
    free(img);
    return NULL;
  }
  if ((flags & CL_MEM_COPY_HOST_PTR) && !assoc) {
    /* The application's rows, at its pitches, into the image's. */
    char *dst = rt_mem_ptr(m);
    const char *hp = host_ptr;
    size_t rows = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : img->height;
    size_t slices = has_slices ? (t == CL_MEM_OBJECT_IMAGE3D ? img->depth : img->array_size) : 1;
    for (size_t z = 0; z < slices; z++)
      for (size_t y = 0; y < rows; y++)
        memcpy(dst + z * img->slice_pitch + y * img->row_pitch, hp + z * host_slice + y * host_row, tight_row);
  }

  struct lanecl_image *d = &img->dev;
  d->data = rt_mem_ptr(m);
  /* A 1D array's layers are the descriptor's rows. */
  d->row_pitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? img->slice_pitch : img->row_pitch;
  d->slice_pitch = img->slice_pitch;
  d->width = (lanecl_u32)img->width;
  d->height = (lanecl_u32)img->height;
  d->depth = (lanecl_u32)img->depth;
  d->array_size = (lanecl_u32)img->array_size;
  d->image_type = (lanecl_u32)t;
  d->channel_order = (lanecl_u32)format->image_channel_order;
  d->channel_data_type = (lanecl_u32)format->image_channel_data_type;
  d->elem_size = (lanecl_u32)img->elem_size;
  d->num_channels = rt_image_channels(format->image_channel_order);
  rt_mem_attach_image(m, img);
  rt_log(RT_LOG_MEM, "image: type %#x, %zu x %zu x %zu (x %zu), %zu-byte pixels, pitches %zu / %zu, data %p",
         (unsigned)t, img->width, img->height, img->depth, img->array_size, img->elem_size, img->row_pitch,
         img->slice_pitch, (void *)d->data);
  *err = CL_SUCCESS;
  return m;
}

/* ---- samplers ---- */

cl_sampler rt_sampler_create(cl_context ctx, cl_bool normalized, cl_addressing_mode addressing,
                             cl_filter_mode filter, const cl_sampler_properties *props, size_t nprops,
                             cl_int *err)
{
  cl_sampler s = calloc(1, sizeof(*s));
  if (!s) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  if (props && nprops) {
    s->props = malloc(nprops * sizeof(*props));
    if (!s->props) {
      free(s);
      *err = CL_OUT_OF_HOST_MEMORY;
      return NULL;
    }
    memcpy(s->props, props, nprops * sizeof(*props));
    s->nprops = nprops;
  }
  rt_object_init(&s->obj, RT_SAMPLER);
  s->ctx = ctx;
  s->normalized = normalized;
  s->addressing = addressing;
  s->filter = filter;
  rt_context_retain(ctx);
  *err = CL_SUCCESS;
  return s;
}

void rt_sampler_retain(cl_sampler s)
{
  rt_retain(&s->obj);
}

void rt_sampler_release(cl_sampler s)
{
  if (!rt_release(&s->obj))
    return;
  cl_context ctx = s->ctx;
  s->obj.magic = 0;
  free(s->props);
  free(s);
  rt_context_release(ctx);
}

cl_uint rt_sampler_refcount(cl_sampler s)
{
  return atomic_load(&s->obj.refcount);
}

uintptr_t rt_sampler_bits(cl_sampler s)
{
  uintptr_t bits = s->normalized ? LANECL_SAMPLER_NORMALIZED : 0;
  switch (s->addressing) {
  case CL_ADDRESS_CLAMP_TO_EDGE: bits |= LANECL_SAMPLER_ADDRESS_CLAMP_TO_EDGE; break;
  case CL_ADDRESS_CLAMP: bits |= LANECL_SAMPLER_ADDRESS_CLAMP; break;
  case CL_ADDRESS_REPEAT: bits |= LANECL_SAMPLER_ADDRESS_REPEAT; break;
  case CL_ADDRESS_MIRRORED_REPEAT: bits |= LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT; break;
  default: bits |= LANECL_SAMPLER_ADDRESS_NONE; break;
  }
  bits |= s->filter == CL_FILTER_LINEAR ? LANECL_SAMPLER_FILTER_LINEAR : LANECL_SAMPLER_FILTER_NEAREST;
  return bits;
}

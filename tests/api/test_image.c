/* Images through the API: every image type x every format the device must
 * list, created with and without host memory, queried, read, written,
 * copied (to images and buffers), filled and mapped.  Every result is
 * compared with the test's own model of the image: a tight host copy of
 * its pixels, updated by the test as each command says, and the test's own
 * conversion of fill colors (the spec's rules, written here, not taken from
 * the driver). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "tests/testlib.h"

/* ---- the formats and types under test ---- */

typedef struct fmt_case {
  cl_image_format f;
  size_t elem;       /* bytes per pixel */
  bool read_only;    /* sRGB: no writes (no cl_khr_srgb_image_writes) */
  bool depth;        /* 2D images and 2D arrays only */
} fmt_case;

static const cl_channel_type plain_types[] = {
  CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SNORM_INT8,     CL_SNORM_INT16, CL_SIGNED_INT8, CL_SIGNED_INT16,
  CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT,
};

static size_t type_bytes(cl_channel_type t)
{
  switch (t) {
  case CL_UNORM_INT8: case CL_SNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
  case CL_UNORM_INT16: case CL_SNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT:
    return 2;
  default: return 4;
  }
}

/* Every format the tests expect: R, RG, RGBA x the 12 plain types (the
 * spec's minimum lists for every access), BGRA 8-bit, RGB packed, sRGBA and
 * sBGRA 8-bit (read only), DEPTH 16-bit and float. */
static size_t all_formats(fmt_case *out)
{
  size_t n = 0;
  static const cl_channel_order orders[] = {CL_R, CL_RG, CL_RGBA};
  static const size_t chans[] = {1, 2, 4};
  for (size_t o = 0; o < 3; o++)
    for (size_t t = 0; t < 12; t++)
      out[n++] = (fmt_case){{orders[o], plain_types[t]}, chans[o] * type_bytes(plain_types[t]), false, false};
  out[n++] = (fmt_case){{CL_BGRA, CL_UNORM_INT8}, 4, false, false};
  out[n++] = (fmt_case){{CL_RGB, CL_UNORM_SHORT_565}, 2, false, false};
  out[n++] = (fmt_case){{CL_RGB, CL_UNORM_SHORT_555}, 2, false, false};
  out[n++] = (fmt_case){{CL_RGB, CL_UNORM_INT_101010}, 4, false, false};
  out[n++] = (fmt_case){{CL_sRGBA, CL_UNORM_INT8}, 4, true, false};
  out[n++] = (fmt_case){{CL_sBGRA, CL_UNORM_INT8}, 4, true, false};
  out[n++] = (fmt_case){{CL_DEPTH, CL_UNORM_INT16}, 2, false, true};
  out[n++] = (fmt_case){{CL_DEPTH, CL_FLOAT}, 4, false, true};
  return n;
}

static const cl_mem_object_type all_types[] = {
  CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
  CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D,
};

static bool type_allows(cl_mem_object_type t, const fmt_case *fc)
{
  return !fc->depth || t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

static bool in_list(const cl_image_format *list, cl_uint n, cl_image_format f)
{
  for (cl_uint i = 0; i < n; i++)
    if (list[i].image_channel_order == f.image_channel_order &&
        list[i].image_channel_data_type == f.image_channel_data_type)
      return true;
  return false;
}

TEST(supported_formats_cover_the_required_lists)
{
  cl_context ctx = tl_context();
  fmt_case fc[64];
  size_t nf = all_formats(fc);
  static const cl_mem_flags flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE,
                                       CL_MEM_KERNEL_READ_AND_WRITE, 0};
  for (size_t t = 0; t < 6; t++)
    for (size_t fl = 0; fl < 5; fl++) {
      cl_uint n = 0;
      ASSERT_OK(clGetSupportedImageFormats(ctx, flags[fl], all_types[t], 0, NULL, &n));
      ASSERT_TRUE(n > 0 && n < 256);
      cl_image_format list[256];
      cl_uint n2 = 0;
      ASSERT_OK(clGetSupportedImageFormats(ctx, flags[fl], all_types[t], n, list, &n2));
      ASSERT_EQ(n2, n);
      for (size_t i = 0; i < nf; i++) {
        bool want = type_allows(all_types[t], &fc[i]) && (!fc[i].read_only || flags[fl] == CL_MEM_READ_ONLY);
        if (in_list(list, n, fc[i].f) != want)
          tl_fail(__FILE__, __LINE__, "format {%#x, %#x}: listed %d, expected %d (type %#x, flags %#llx)",
                  fc[i].f.image_channel_order, fc[i].f.image_channel_data_type, !want, want, all_types[t],
                  (unsigned long long)flags[fl]);
      }
      /* A short array receives the first entries, the count stays whole. */
      cl_image_format two[3] = {{0, 0}, {0, 0}, {0x1234, 0x5678}};
      ASSERT_OK(clGetSupportedImageFormats(ctx, flags[fl], all_types[t], 2, two, &n2));
      ASSERT_EQ(n2, n);
      ASSERT_EQ(two[0].image_channel_order, list[0].image_channel_order);
      ASSERT_EQ(two[1].image_channel_data_type, list[1].image_channel_data_type);
      ASSERT_EQ(two[2].image_channel_order, 0x1234);
    }
  ASSERT_OK(clReleaseContext(ctx));
}

/* ---- the model of an image ---- */

typedef struct model {
  cl_mem_object_type type;
  fmt_case fc;
  size_t dim[3];       /* width, height or 1D-array layers, depth or 2D-array layers */
  unsigned char *px;   /* tight: dim[0] * elem per row, dim[1] rows, dim[2] slices */
} model;

static size_t model_bytes(const model *m)
{
  return m->dim[0] * m->dim[1] * m->dim[2] * m->fc.elem;
}

static unsigned char *model_at(const model *m, size_t x, size_t y, size_t z)
{
  return m->px + ((z * m->dim[1] + y) * m->dim[0] + x) * m->fc.elem;
}

static uint32_t rng_state = 12345;
static unsigned char rnd(void)
{
  rng_state = rng_state * 1103515245u + 12345u;
  return (unsigned char)(rng_state >> 16);
}

static void dims_of(cl_mem_object_type t, size_t dim[3])
{
  dim[0] = 7;
  dim[1] = dim[2] = 1;
  if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
      t == CL_MEM_OBJECT_IMAGE3D)
    dim[1] = 5;
  if (t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D)
    dim[2] = 3;
}

static cl_image_desc desc_of(cl_mem_object_type t, const size_t dim[3])
{
  cl_image_desc d = {0};
  d.image_type = t;
  d.image_width = dim[0];
  if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    d.image_array_size = dim[1];
  else
    d.image_height = dim[1];
  if (t == CL_MEM_OBJECT_IMAGE2D_ARRAY)
    d.image_array_size = dim[2];
  else
    d.image_depth = dim[2];
  if (t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER)
    d.image_height = 0;
  if (t != CL_MEM_OBJECT_IMAGE3D)
    d.image_depth = 0;
  return d;
}

/* Padded host pitches for type t: rows of (width + 3) pixels; a 1D array's
 * layers two rows apart, slices one row more than their rows. */
static void host_pitches(cl_mem_object_type t, const model *m, size_t *row, size_t *slice)
{
  *row = (m->dim[0] + 3) * m->fc.elem;
  if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    *slice = 2 * *row;
  else if (t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D)
    *slice = *row * (m->dim[1] + 1);
  else
    *slice = 0;
}

/* Host memory of the model's pixels at the given pitches (garbage between). */
static unsigned char *to_host(const model *m, size_t row, size_t slice, size_t *size)
{
  size_t step1 = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
  size_t step2 = slice ? slice : row * m->dim[1];
  *size = step2 * m->dim[2] + step1 * m->dim[1];
  unsigned char *h = malloc(*size);
  ASSERT_TRUE(h != NULL);
  for (size_t i = 0; i < *size; i++)
    h[i] = 0xee;
  for (size_t z = 0; z < m->dim[2]; z++)
    for (size_t y = 0; y < m->dim[1]; y++)
      memcpy(h + z * step2 + y * step1, model_at(m, 0, y, z), m->dim[0] * m->fc.elem);
  return h;
}

static void check_whole(cl_command_queue q, cl_mem img, const model *m, const char *what)
{
  size_t o[3] = {0, 0, 0};
  unsigned char *got = malloc(model_bytes(m));
  ASSERT_TRUE(got != NULL);
  ASSERT_OK(clEnqueueReadImage(q, img, CL_TRUE, o, m->dim, 0, 0, got, 0, NULL, NULL));
  for (size_t z = 0; z < m->dim[2]; z++)
    for (size_t y = 0; y < m->dim[1]; y++)
      for (size_t x = 0; x < m->dim[0]; x++)
        if (memcmp(got + ((z * m->dim[1] + y) * m->dim[0] + x) * m->fc.elem, model_at(m, x, y, z), m->fc.elem))
          tl_fail(__FILE__, __LINE__, "%s: type %#x format {%#x, %#x}: pixel (%zu, %zu, %zu) differs", what,
                  m->type, m->fc.f.image_channel_order, m->fc.f.image_channel_data_type, x, y, z);
  free(got);
}

static size_t info_size(cl_mem img, cl_image_info p)
{
  size_t v = 12345;
  ASSERT_OK(clGetImageInfo(img, p, sizeof(v), &v, NULL));
  return v;
}

static void check_info(cl_mem img, const model *m, size_t row, size_t slice)
{
  cl_mem_object_type t = m->type;
  cl_image_format f;
  ASSERT_OK(clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof(f), &f, NULL));
  ASSERT_EQ(f.image_channel_order, m->fc.f.image_channel_order);
  ASSERT_EQ(f.image_channel_data_type, m->fc.f.image_channel_data_type);
  ASSERT_EQ(info_size(img, CL_IMAGE_ELEMENT_SIZE), m->fc.elem);
  ASSERT_EQ(info_size(img, CL_IMAGE_WIDTH), m->dim[0]);
  bool two_d = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
  ASSERT_EQ(info_size(img, CL_IMAGE_HEIGHT), two_d ? m->dim[1] : 0);
  ASSERT_EQ(info_size(img, CL_IMAGE_DEPTH), t == CL_MEM_OBJECT_IMAGE3D ? m->dim[2] : 0);
  size_t arr = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? m->dim[1] : t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? m->dim[2] : 0;
  ASSERT_EQ(info_size(img, CL_IMAGE_ARRAY_SIZE), arr);
  ASSERT_EQ(info_size(img, CL_IMAGE_ROW_PITCH), row);
  ASSERT_EQ(info_size(img, CL_IMAGE_SLICE_PITCH), slice);
  cl_uint u = 99;
  ASSERT_OK(clGetImageInfo(img, CL_IMAGE_NUM_MIP_LEVELS, sizeof(u), &u, NULL));
  ASSERT_EQ(u, 0);
  ASSERT_OK(clGetImageInfo(img, CL_IMAGE_NUM_SAMPLES, sizeof(u), &u, NULL));
  ASSERT_EQ(u, 0);
  cl_mem_object_type mt = 0;
  ASSERT_OK(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof(mt), &mt, NULL));
  ASSERT_EQ(mt, t);
  size_t sz = 0, ret = 0;
  ASSERT_OK(clGetImageInfo(img, CL_IMAGE_FORMAT, 0, NULL, &ret));
  ASSERT_EQ(ret, sizeof(cl_image_format));
  ASSERT_CL(clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof(size_t) - 1, &sz, NULL), CL_INVALID_VALUE);
}

/* An image of the model: flags CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR
 * (padded host pitches) or neither (then written with clEnqueueWriteImage);
 * a 1D image buffer is made from a buffer holding the pixels.  *host and
 * *buf receive what must outlive the image. */
static cl_mem make_image(cl_context ctx, cl_command_queue q, model *m, cl_mem_flags ptr_flag, unsigned char **host,
                         cl_mem *buf)
{
  cl_mem_object_type t = m->type;
  cl_image_desc d = desc_of(t, m->dim);
  cl_mem_flags access = m->fc.read_only ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
  cl_int err;
  *host = NULL;
  *buf = NULL;
  cl_mem img;
  if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    *buf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR | access, model_bytes(m), m->px, &err);
    ASSERT_OK(err);
    d.buffer = *buf;
    img = clCreateImage(ctx, 0, &m->fc.f, &d, NULL, &err);
    ASSERT_OK(err);
    cl_mem assoc = NULL;
    ASSERT_OK(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL));
    ASSERT_TRUE(assoc == *buf);
    ASSERT_OK(clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof(assoc), &assoc, NULL));
    ASSERT_TRUE(assoc == *buf);
    cl_mem_flags fl = 0;
    ASSERT_OK(clGetMemObjectInfo(img, CL_MEM_FLAGS, sizeof(fl), &fl, NULL));
    ASSERT_TRUE(fl & access); /* inherited */
    check_info(img, m, m->dim[0] * m->fc.elem, 0);
    return img;
  }
  if (ptr_flag) {
    size_t row, slice, size;
    host_pitches(t, m, &row, &slice);
    d.image_row_pitch = row;
    d.image_slice_pitch = slice;
    *host = to_host(m, row, slice, &size);
    img = clCreateImage(ctx, access | ptr_flag, &m->fc.f, &d, *host, &err);
    ASSERT_OK(err);
    if (ptr_flag == CL_MEM_USE_HOST_PTR) {
      /* The application's memory is the image: its pitches are the image's. */
      check_info(img, m, row, slice);
      void *hp = NULL;
      ASSERT_OK(clGetMemObjectInfo(img, CL_MEM_HOST_PTR, sizeof(hp), &hp, NULL));
      ASSERT_TRUE(hp == *host);
    } else {
      free(*host);
      *host = NULL;
    }
  } else {
    img = clCreateImage(ctx, access, &m->fc.f, &d, NULL, &err);
    ASSERT_OK(err);
    size_t o[3] = {0, 0, 0};
    ASSERT_OK(clEnqueueWriteImage(q, img, CL_TRUE, o, m->dim, 0, 0, m->px, 0, NULL, NULL));
  }
  if (ptr_flag != CL_MEM_USE_HOST_PTR) {
    /* Own storage: tightly pitched. */
    size_t row = m->dim[0] * m->fc.elem;
    size_t slice = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row : (t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                                                            t == CL_MEM_OBJECT_IMAGE3D) ? row * m->dim[1] : 0;
    check_info(img, m, row, slice);
  }
  cl_mem assoc = (cl_mem)1;
  ASSERT_OK(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL));
  ASSERT_TRUE(assoc == NULL);
  return img;
}

/* A sub-box inside the model: origin (1, y0, z0), region (w - 3, ...). */
static void sub_box(const model *m, size_t o[3], size_t r[3])
{
  o[0] = 1;
  r[0] = m->dim[0] - 3;
  o[1] = m->dim[1] > 1 ? 1 : 0;
  r[1] = m->dim[1] > 1 ? m->dim[1] - 2 : 1;
  o[2] = m->dim[2] > 1 ? 1 : 0;
  r[2] = m->dim[2] > 1 ? m->dim[2] - 1 : 1;
}

/* Writes a box of new pixels through clEnqueueWriteImage with padded host
 * pitches and reads it back through clEnqueueReadImage with other ones. */
static void write_read_box(cl_command_queue q, cl_mem img, model *m)
{
  size_t o[3], r[3];
  sub_box(m, o, r);
  size_t e = m->fc.elem;
  size_t row = (r[0] + 2) * e;
  size_t slice = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row * 3
                 : (m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || m->type == CL_MEM_OBJECT_IMAGE3D) ? row * (r[1] + 2)
                                                                                                 : 0;
  size_t step1 = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
  size_t step2 = slice ? slice : row * r[1];
  size_t size = step2 * r[2] + step1 * r[1] + row;
  unsigned char *in = malloc(size), *out = malloc(size);
  ASSERT_TRUE(in && out);
  for (size_t i = 0; i < size; i++)
    in[i] = rnd();
  ASSERT_OK(clEnqueueWriteImage(q, img, CL_FALSE, o, r, row, slice, in, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  for (size_t z = 0; z < r[2]; z++)
    for (size_t y = 0; y < r[1]; y++)
      memcpy(model_at(m, o[0], o[1] + y, o[2] + z), in + z * step2 + y * step1, r[0] * e);
  check_whole(q, img, m, "clEnqueueWriteImage");
  /* Read the box back at tight pitches (0, 0). */
  ASSERT_OK(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL));
  for (size_t z = 0; z < r[2]; z++)
    for (size_t y = 0; y < r[1]; y++)
      ASSERT_TRUE(!memcmp(out + (z * r[1] + y) * r[0] * e, model_at(m, o[0], o[1] + y, o[2] + z), r[0] * e));
  free(in);
  free(out);
}

/* ---- the test's own fill color conversion (the spec's write rules) ---- */

static float clampf01(float v, float lo)
{
  return isnan(v) ? 0.0f : v < lo ? lo : v > 1.0f ? 1.0f : v;
}

static uint32_t ref_unorm(float v, uint32_t max)
{
  return (uint32_t)nearbyintf(clampf01(v, 0.0f) * (float)max);
}

static int32_t ref_snorm(float v, int32_t max)
{
  return (int32_t)nearbyintf(clampf01(v, -1.0f) * (float)max);
}

static float ref_srgb(float v)
{
  v = clampf01(v, 0.0f);
  return v <= 0.0031308f ? v * 12.92f : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
}

/* The stored pixel for color (float[4] / int[4] / uint[4] by type). */
static void ref_pixel(const fmt_case *fc, const void *color, unsigned char *out)
{
  const float *cf = color;
  const int32_t *ci = color;
  const uint32_t *cu = color;
  cl_channel_type t = fc->f.image_channel_data_type;
  cl_channel_order o = fc->f.image_channel_order;
  memset(out, 0, 16);
  if (t == CL_UNORM_SHORT_565) {
    uint16_t w = (uint16_t)((ref_unorm(cf[0], 31) << 11) | (ref_unorm(cf[1], 63) << 5) | ref_unorm(cf[2], 31));
    memcpy(out, &w, 2);
    return;
  }
  if (t == CL_UNORM_SHORT_555) {
    uint16_t w = (uint16_t)((ref_unorm(cf[0], 31) << 10) | (ref_unorm(cf[1], 31) << 5) | ref_unorm(cf[2], 31));
    memcpy(out, &w, 2);
    return;
  }
  if (t == CL_UNORM_INT_101010) {
    uint32_t w = (ref_unorm(cf[0], 1023) << 20) | (ref_unorm(cf[1], 1023) << 10) | ref_unorm(cf[2], 1023);
    memcpy(out, &w, 4);
    return;
  }
  int src[4];
  size_t n;
  switch (o) {
  case CL_R: case CL_DEPTH: n = 1; src[0] = 0; break;
  case CL_RG: n = 2; src[0] = 0; src[1] = 1; break;
  case CL_BGRA: case CL_sBGRA: n = 4; src[0] = 2; src[1] = 1; src[2] = 0; src[3] = 3; break;
  default: n = 4; src[0] = 0; src[1] = 1; src[2] = 2; src[3] = 3; break;
  }
  bool srgb = o == CL_sRGBA || o == CL_sBGRA;
  for (size_t k = 0; k < n; k++) {
    int c = src[k];
    unsigned char *p = out + k * type_bytes(t);
    switch (t) {
    case CL_UNORM_INT8: *p = (uint8_t)ref_unorm(srgb && c < 3 ? ref_srgb(cf[c]) : cf[c], 255); break;
    case CL_UNORM_INT16: { uint16_t v = (uint16_t)ref_unorm(cf[c], 65535); memcpy(p, &v, 2); break; }
    case CL_SNORM_INT8: *p = (uint8_t)(int8_t)ref_snorm(cf[c], 127); break;
    case CL_SNORM_INT16: { int16_t v = (int16_t)ref_snorm(cf[c], 32767); memcpy(p, &v, 2); break; }
    case CL_SIGNED_INT8: *p = (uint8_t)(int8_t)(ci[c] < -128 ? -128 : ci[c] > 127 ? 127 : ci[c]); break;
    case CL_SIGNED_INT16: {
      int16_t v = (int16_t)(ci[c] < -32768 ? -32768 : ci[c] > 32767 ? 32767 : ci[c]);
      memcpy(p, &v, 2);
      break;
    }
    case CL_SIGNED_INT32: memcpy(p, &ci[c], 4); break;
    case CL_UNSIGNED_INT8: *p = (uint8_t)(cu[c] > 255 ? 255 : cu[c]); break;
    case CL_UNSIGNED_INT16: { uint16_t v = (uint16_t)(cu[c] > 65535 ? 65535 : cu[c]); memcpy(p, &v, 2); break; }
    case CL_UNSIGNED_INT32: memcpy(p, &cu[c], 4); break;
    case CL_HALF_FLOAT: { _Float16 h = (_Float16)cf[c]; memcpy(p, &h, 2); break; }
    case CL_FLOAT: memcpy(p, &cf[c], 4); break;
    default: break;
    }
  }
}

static bool is_int_type(cl_channel_type t, bool *is_signed)
{
  *is_signed = t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32;
  return *is_signed || t == CL_UNSIGNED_INT8 || t == CL_UNSIGNED_INT16 || t == CL_UNSIGNED_INT32;
}

static void fill_box(cl_command_queue q, cl_mem img, model *m, int variant)
{
  size_t o[3], r[3];
  sub_box(m, o, r);
  /* Values inside, outside and on the edges of each range, and ones that
   * round halfway. */
  static const float fcol[3][4] = {{0.25f, 0.5f, 0.75f, 1.0f},
                                   {-0.5f, 1.5f, 0.00196078f, 0.50196f},
                                   {0.1f, 0.9f, 70000.0f, -3.3e-5f}};
  static const int32_t icol[3][4] = {{1, -2, 300, -70000}, {-129, 127, 40000, 5}, {2147483647, -2147483647, 0, -1}};
  static const uint32_t ucol[3][4] = {{1, 2, 300, 70000}, {255, 256, 65535, 65536}, {0, 4294967295u, 7, 128}};
  bool sgn;
  const void *color = is_int_type(m->fc.f.image_channel_data_type, &sgn) ? (sgn ? (const void *)icol[variant]
                                                                                : (const void *)ucol[variant])
                                                                         : (const void *)fcol[variant];
  unsigned char px[16];
  ref_pixel(&m->fc, color, px);
  ASSERT_OK(clEnqueueFillImage(q, img, color, o, r, 0, NULL, NULL));
  for (size_t z = 0; z < r[2]; z++)
    for (size_t y = 0; y < r[1]; y++)
      for (size_t x = 0; x < r[0]; x++)
        memcpy(model_at(m, o[0] + x, o[1] + y, o[2] + z), px, m->fc.elem);
  check_whole(q, img, m, "clEnqueueFillImage");
}

/* Copies a box to another image of the same type and format and back to
 * another place of the first. */
static void copy_boxes(cl_context ctx, cl_command_queue q, cl_mem img, model *m)
{
  cl_image_desc d = desc_of(m->type, m->dim);
  cl_int err;
  cl_mem other;
  cl_mem obuf = NULL;
  if (m->type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    obuf = clCreateBuffer(ctx, 0, model_bytes(m), NULL, &err);
    ASSERT_OK(err);
    d.buffer = obuf;
  }
  other = clCreateImage(ctx, m->fc.read_only ? CL_MEM_READ_ONLY : 0, &m->fc.f, &d, NULL, &err);
  ASSERT_OK(err);
  size_t zero[3] = {0, 0, 0};
  ASSERT_OK(clEnqueueCopyImage(q, img, other, zero, zero, m->dim, 0, NULL, NULL));
  model m2 = *m;
  m2.px = malloc(model_bytes(m));
  memcpy(m2.px, m->px, model_bytes(m));
  check_whole(q, other, &m2, "clEnqueueCopyImage (whole)");
  /* Box (0, 0, 0) of size r from the copy to (2, y, z) of the image. */
  size_t r[3] = {m->dim[0] - 2, m->dim[1] > 1 ? m->dim[1] - 1 : 1, m->dim[2] > 1 ? m->dim[2] - 1 : 1};
  size_t dst[3] = {2, m->dim[1] > 1 ? 1 : 0, m->dim[2] > 1 ? 1 : 0};
  /* Make the copy differ first. */
  float c[4] = {0.3f, 0.6f, 0.9f, 0.1f};
  uint32_t ci[4] = {9, 8, 7, 6};
  bool sgn;
  const void *color = is_int_type(m->fc.f.image_channel_data_type, &sgn) ? (const void *)ci : (const void *)c;
  ASSERT_OK(clEnqueueFillImage(q, other, color, zero, m->dim, 0, NULL, NULL));
  unsigned char px[16];
  ref_pixel(&m->fc, color, px);
  ASSERT_OK(clEnqueueCopyImage(q, other, img, zero, dst, r, 0, NULL, NULL));
  for (size_t z = 0; z < r[2]; z++)
    for (size_t y = 0; y < r[1]; y++)
      for (size_t x = 0; x < r[0]; x++)
        memcpy(model_at(m, dst[0] + x, dst[1] + y, dst[2] + z), px, m->fc.elem);
  check_whole(q, img, m, "clEnqueueCopyImage (box)");
  /* Within one image: disjoint boxes copy, overlapping ones are refused. */
  size_t a[3] = {0, 0, 0}, b[3] = {4, 0, 0}, r1[3] = {3, 1, 1};
  ASSERT_OK(clEnqueueCopyImage(q, img, img, a, b, r1, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  for (size_t x = 0; x < 3; x++)
    memcpy(model_at(m, 4 + x, 0, 0), model_at(m, x, 0, 0), m->fc.elem);
  check_whole(q, img, m, "clEnqueueCopyImage (same image)");
  size_t b2[3] = {2, 0, 0};
  ASSERT_CL(clEnqueueCopyImage(q, img, img, a, b2, r1, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  free(m2.px);
  ASSERT_OK(clReleaseMemObject(other));
  if (obuf)
    ASSERT_OK(clReleaseMemObject(obuf));
}

/* Image -> buffer -> image, through a box and an offset. */
static void copy_through_buffer(cl_context ctx, cl_command_queue q, cl_mem img, model *m)
{
  size_t o[3], r[3];
  sub_box(m, o, r);
  size_t e = m->fc.elem, bytes = r[0] * r[1] * r[2] * e, off = 3 * e;
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, 0, bytes + off + 8, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clEnqueueCopyImageToBuffer(q, img, buf, o, r, off, 0, NULL, NULL));
  unsigned char *got = malloc(bytes);
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, off, bytes, got, 0, NULL, NULL));
  for (size_t z = 0; z < r[2]; z++)
    for (size_t y = 0; y < r[1]; y++)
      ASSERT_TRUE(!memcmp(got + (z * r[1] + y) * r[0] * e, model_at(m, o[0], o[1] + y, o[2] + z), r[0] * e));
  /* New bytes in the buffer, copied to the image at the origin. */
  for (size_t i = 0; i < bytes; i++)
    got[i] = rnd();
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_TRUE, off, bytes, got, 0, NULL, NULL));
  size_t zero[3] = {0, 0, 0};
  ASSERT_OK(clEnqueueCopyBufferToImage(q, buf, img, off, zero, r, 0, NULL, NULL));
  for (size_t z = 0; z < r[2]; z++)
    for (size_t y = 0; y < r[1]; y++)
      memcpy(model_at(m, 0, y, z), got + (z * r[1] + y) * r[0] * e, r[0] * e);
  check_whole(q, img, m, "clEnqueueCopyBufferToImage");
  free(got);
  ASSERT_OK(clReleaseMemObject(buf));
}

/* Maps a box for reading and writing, checks the pitches and the pixels,
 * writes through the mapping, unmaps, reads back. */
static void map_box(cl_command_queue q, cl_mem img, model *m)
{
  size_t o[3], r[3];
  sub_box(m, o, r);
  size_t rp = 0, sp = 77;
  cl_int err;
  cl_mem_object_type t = m->type;
  bool slices = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
  unsigned char *p = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o, r, &rp, &sp, 0, NULL, NULL,
                                       &err);
  ASSERT_OK(err);
  ASSERT_EQ(rp, info_size(img, CL_IMAGE_ROW_PITCH));
  ASSERT_EQ(sp, slices ? info_size(img, CL_IMAGE_SLICE_PITCH) : 0);
  cl_uint count = 0;
  ASSERT_OK(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof(count), &count, NULL));
  ASSERT_EQ(count, 1);
  size_t step1 = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? sp : rp, e = m->fc.elem;
  for (size_t z = 0; z < r[2]; z++)
    for (size_t y = 0; y < r[1]; y++) {
      unsigned char *row = p + z * sp + y * step1;
      ASSERT_TRUE(!memcmp(row, model_at(m, o[0], o[1] + y, o[2] + z), r[0] * e));
      for (size_t i = 0; i < r[0] * e; i++)
        row[i] = rnd();
      memcpy(model_at(m, o[0], o[1] + y, o[2] + z), row, r[0] * e);
    }
  ASSERT_OK(clEnqueueUnmapMemObject(q, img, p, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  ASSERT_OK(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof(count), &count, NULL));
  ASSERT_EQ(count, 0);
  check_whole(q, img, m, "clEnqueueMapImage");
  /* A 1D or 2D image needs no slice pitch pointer. */
  if (!slices) {
    p = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ, o, r, &rp, NULL, 0, NULL, NULL, &err);
    ASSERT_OK(err);
    ASSERT_OK(clEnqueueUnmapMemObject(q, img, p, 0, NULL, NULL));
  }
}

static void every_operation(cl_mem_flags ptr_flag)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  fmt_case fc[64];
  size_t nf = all_formats(fc);
  for (size_t t = 0; t < 6; t++)
    for (size_t i = 0; i < nf; i++) {
      if (!type_allows(all_types[t], &fc[i]))
        continue;
      model m = {all_types[t], fc[i], {0, 0, 0}, NULL};
      dims_of(m.type, m.dim);
      m.px = malloc(model_bytes(&m));
      for (size_t b = 0; b < model_bytes(&m); b++)
        m.px[b] = rnd();
      unsigned char *host;
      cl_mem buf;
      cl_mem img = make_image(ctx, q, &m, ptr_flag, &host, &buf);
      check_whole(q, img, &m, "creation");
      write_read_box(q, img, &m);
      if (host) /* CL_MEM_USE_HOST_PTR: the application's memory is the image */
        for (size_t z = 0; z < m.dim[2]; z++)
          for (size_t y = 0; y < m.dim[1]; y++) {
            size_t row, slice;
            host_pitches(m.type, &m, &row, &slice);
            size_t at = (m.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? y * slice : y * row) + z * slice;
            ASSERT_TRUE(!memcmp(host + at, model_at(&m, 0, y, z), m.dim[0] * m.fc.elem));
          }
      for (int v = 0; v < 3; v++)
        fill_box(q, img, &m, v);
      copy_boxes(ctx, q, img, &m);
      copy_through_buffer(ctx, q, img, &m);
      map_box(q, img, &m);
      ASSERT_OK(clReleaseMemObject(img));
      if (buf)
        ASSERT_OK(clReleaseMemObject(buf));
      free(host);
      free(m.px);
    }
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(every_type_and_format_own_memory)
{
  every_operation(0);
}

TEST(every_type_and_format_copy_host_ptr)
{
  every_operation(CL_MEM_COPY_HOST_PTR);
}

TEST(every_type_and_format_use_host_ptr)
{
  every_operation(CL_MEM_USE_HOST_PTR);
}

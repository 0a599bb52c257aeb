/* The image tests' reference (tests/compiler/test_image.c runs the builtins
 * on hand-built descriptors, tests/api/test_image_kernels.c through the
 * API): test images in host memory, the OpenCL C spec's conversion rules
 * ("Image read and write functions") and the API spec's addressing and
 * filtering rules, written here from the specs, and the kernels both run. */
#ifndef LANECL_TEST_IMAGE_REF_H
#define LANECL_TEST_IMAGE_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/lanecl_image.h"
#include "tests/testlib.h"

/* ---- kernels ---- */

static const char src[] =
    "kernel void rf1(read_only image1d_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i].x); }\n"
    "kernel void rf1a(read_only image1d_array_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i].xy); }\n"
    "kernel void rf2(read_only image2d_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i].xy); }\n"
    "kernel void rf2a(read_only image2d_array_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
    "kernel void rf3(read_only image3d_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
    "kernel void rd2(read_only image2d_depth_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = (float4)(read_imagef(im, s, c[i].xy), 0, 0, 1); }\n"
    "kernel void rd2a(read_only image2d_array_depth_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = (float4)(read_imagef(im, s, c[i]), 0, 0, 1); }\n"
    /* integer coordinates */
    "kernel void rfi1(read_only image1d_t im, sampler_t s, global const int4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i].x); }\n"
    "kernel void rfi1a(read_only image1d_array_t im, sampler_t s, global const int4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i].xy); }\n"
    "kernel void rfi2(read_only image2d_t im, sampler_t s, global const int4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i].xy); }\n"
    "kernel void rfi2a(read_only image2d_array_t im, sampler_t s, global const int4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
    "kernel void rfi3(read_only image3d_t im, sampler_t s, global const int4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
    /* integer channels */
    "kernel void ri2(read_only image2d_t im, sampler_t s, global const float4 *c, global int4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagei(im, s, c[i].xy); }\n"
    "kernel void rui2(read_only image2d_t im, sampler_t s, global const float4 *c, global uint4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imageui(im, s, c[i].xy); }\n"
    "kernel void rii3(read_only image3d_t im, sampler_t s, global const int4 *c, global int4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagei(im, s, c[i]); }\n"
    "kernel void ruii1a(read_only image1d_array_t im, sampler_t s, global const int4 *c, global uint4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imageui(im, s, c[i].xy); }\n"
    /* samplerless */
    "kernel void lf1b(read_only image1d_buffer_t im, global const int4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, c[i].x); }\n"
    "kernel void lf2a(read_only image2d_array_t im, global const int4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, c[i]); }\n"
    "kernel void li3(read_only image3d_t im, global const int4 *c, global int4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagei(im, c[i]); }\n"
    /* writes */
    "kernel void wf1(write_only image1d_t im, global const int4 *c, global const float4 *v)\n"
    "{ size_t i = get_global_id(0); write_imagef(im, c[i].x, v[i]); }\n"
    "kernel void wf1b(write_only image1d_buffer_t im, global const int4 *c, global const float4 *v)\n"
    "{ size_t i = get_global_id(0); write_imagef(im, c[i].x, v[i]); }\n"
    "kernel void wf1a(write_only image1d_array_t im, global const int4 *c, global const float4 *v)\n"
    "{ size_t i = get_global_id(0); write_imagef(im, c[i].xy, v[i]); }\n"
    "kernel void wf2(write_only image2d_t im, global const int4 *c, global const float4 *v)\n"
    "{ size_t i = get_global_id(0); write_imagef(im, c[i].xy, v[i]); }\n"
    "kernel void wf2a(write_only image2d_array_t im, global const int4 *c, global const float4 *v)\n"
    "{ size_t i = get_global_id(0); write_imagef(im, c[i], v[i]); }\n"
    "kernel void wf3(write_only image3d_t im, global const int4 *c, global const float4 *v)\n"
    "{ size_t i = get_global_id(0); write_imagef(im, c[i], v[i]); }\n"
    "kernel void wd2(write_only image2d_depth_t im, global const int4 *c, global const float4 *v)\n"
    "{ size_t i = get_global_id(0); write_imagef(im, c[i].xy, v[i].x); }\n"
    "kernel void wi2(write_only image2d_t im, global const int4 *c, global const int4 *v)\n"
    "{ size_t i = get_global_id(0); write_imagei(im, c[i].xy, v[i]); }\n"
    "kernel void wui3(write_only image3d_t im, global const int4 *c, global const uint4 *v)\n"
    "{ size_t i = get_global_id(0); write_imageui(im, c[i], v[i]); }\n"
    /* read_write: each work-item its own pixel */
    "kernel void rw2(read_write image2d_t im, global const int4 *c)\n"
    "{ size_t i = get_global_id(0); float4 v = read_imagef(im, c[i].xy);\n"
    "  write_imagef(im, c[i].xy, v * 0.5f + 0.25f); }\n"
    /* queries */
    "kernel void q(read_only image3d_t a, write_only image2d_array_t b, read_write image1d_array_t c,\n"
    "              read_only image2d_depth_t d, global int *o)\n"
    "{ int4 da = get_image_dim(a); int2 db = get_image_dim(b);\n"
    "  o[0] = get_image_width(a); o[1] = get_image_height(a); o[2] = get_image_depth(a);\n"
    "  o[3] = da.x; o[4] = da.y; o[5] = da.z; o[6] = da.w;\n"
    "  o[7] = get_image_width(b); o[8] = get_image_height(b); o[9] = db.x; o[10] = db.y;\n"
    "  o[11] = (int)get_image_array_size(b); o[12] = get_image_width(c); o[13] = (int)get_image_array_size(c);\n"
    "  o[14] = get_image_channel_data_type(a); o[15] = get_image_channel_order(a);\n"
    "  o[16] = get_image_channel_data_type(d); o[17] = get_image_channel_order(d);\n"
    "  o[18] = get_image_width(d); o[19] = get_image_height(d); }\n"
    /* constant samplers: kernel scope and program scope */
    "constant sampler_t ps = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n"
    "kernel void cs2(read_only image2d_t im, global const float4 *c, global float4 *o)\n"
    "{ const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;\n"
    "  size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i].xy); }\n"
    "kernel void ps2(read_only image2d_t im, global const float4 *c, global float4 *o)\n"
    "{ size_t i = get_global_id(0); o[i] = read_imagef(im, ps, c[i].xy); }\n";

/* Every overload, built (not run). */
/* ---- formats ---- */

typedef struct fmt {
  unsigned order, type;
} fmt;

static inline int is_packed(unsigned type)
{
  return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010;
}

static inline int chan_count(unsigned order)
{
  switch (order) {
  case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: case CL_DEPTH: return 1;
  case CL_RG: case CL_RA: case CL_Rx: return 2;
  case CL_RGB: case CL_RGx: case CL_sRGB: return 3;
  default: return 4;
  }
}

static inline int type_size(unsigned type)
{
  switch (type) {
  case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
  case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return 4;
  default: return 2;
  }
}

static inline int elem_size(fmt f)
{
  if (is_packed(f.type))
    return f.type == CL_UNORM_INT_101010 ? 4 : 2;
  return chan_count(f.order) * type_size(f.type);
}

static inline int is_srgb(unsigned o)
{
  return o == CL_sRGB || o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA;
}

/* The formats read and written with float values. */
static const fmt float_fmts[] = {
    {CL_R, CL_UNORM_INT8},        {CL_R, CL_UNORM_INT16},       {CL_R, CL_SNORM_INT8},
    {CL_R, CL_SNORM_INT16},       {CL_R, CL_HALF_FLOAT},        {CL_R, CL_FLOAT},
    {CL_A, CL_UNORM_INT8},        {CL_A, CL_FLOAT},             {CL_RG, CL_UNORM_INT8},
    {CL_RG, CL_SNORM_INT16},      {CL_RG, CL_FLOAT},            {CL_RA, CL_UNORM_INT16},
    {CL_RA, CL_HALF_FLOAT},       {CL_RGBA, CL_UNORM_INT8},     {CL_RGBA, CL_UNORM_INT16},
    {CL_RGBA, CL_SNORM_INT8},     {CL_RGBA, CL_SNORM_INT16},    {CL_RGBA, CL_HALF_FLOAT},
    {CL_RGBA, CL_FLOAT},          {CL_BGRA, CL_UNORM_INT8},     {CL_BGRA, CL_SNORM_INT8},
    {CL_ARGB, CL_UNORM_INT8},     {CL_ABGR, CL_UNORM_INT8},     {CL_INTENSITY, CL_UNORM_INT8},
    {CL_INTENSITY, CL_FLOAT},     {CL_INTENSITY, CL_HALF_FLOAT}, {CL_LUMINANCE, CL_UNORM_INT16},
    {CL_LUMINANCE, CL_FLOAT},     {CL_Rx, CL_UNORM_INT8},       {CL_RGx, CL_FLOAT},
    {CL_RGB, CL_UNORM_SHORT_565}, {CL_RGB, CL_UNORM_SHORT_555}, {CL_RGB, CL_UNORM_INT_101010},
    {CL_RGBx, CL_UNORM_SHORT_565}, {CL_RGBx, CL_UNORM_INT_101010}, {CL_sRGBA, CL_UNORM_INT8},
    {CL_sBGRA, CL_UNORM_INT8},    {CL_sRGB, CL_UNORM_INT8},     {CL_sRGBx, CL_UNORM_INT8},
};
#define N_FLOAT_FMTS (sizeof(float_fmts) / sizeof(float_fmts[0]))

static const fmt int_fmts[] = {
    {CL_R, CL_SIGNED_INT8},     {CL_R, CL_UNSIGNED_INT8},    {CL_R, CL_SIGNED_INT16},
    {CL_R, CL_UNSIGNED_INT16},  {CL_R, CL_SIGNED_INT32},     {CL_R, CL_UNSIGNED_INT32},
    {CL_RG, CL_SIGNED_INT16},   {CL_RG, CL_UNSIGNED_INT32},  {CL_RA, CL_SIGNED_INT8},
    {CL_A, CL_UNSIGNED_INT16},  {CL_RGBA, CL_SIGNED_INT8},   {CL_RGBA, CL_UNSIGNED_INT8},
    {CL_RGBA, CL_SIGNED_INT16}, {CL_RGBA, CL_UNSIGNED_INT16}, {CL_RGBA, CL_SIGNED_INT32},
    {CL_RGBA, CL_UNSIGNED_INT32}, {CL_BGRA, CL_UNSIGNED_INT8}, {CL_ARGB, CL_SIGNED_INT8},
    {CL_ABGR, CL_UNSIGNED_INT8}, {CL_Rx, CL_SIGNED_INT16},    {CL_RGx, CL_UNSIGNED_INT8},
};
#define N_INT_FMTS (sizeof(int_fmts) / sizeof(int_fmts[0]))

/* ---- test images ---- */

enum { T1D, T1DB, T1DA, T2D, T2DA, T3D, T2DD, T2DAD };

typedef struct timg {
  struct lanecl_image d;
  fmt f;
  int kind, dims, arr;
  unsigned char *mem;
  size_t bytes;
} timg;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static inline uint32_t rnd(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}
static inline float rndf(float lo, float hi)
{
  return lo + (hi - lo) * (float)(rnd() & 0xffffff) / 16777216.0f;
}

static inline void timg_make(timg *t, int kind, fmt f, int w, int h, int d, int layers)
{
  static const unsigned types[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                   CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D,
                                   CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY};
  memset(t, 0, sizeof(*t));
  t->f = f;
  t->kind = kind;
  t->dims = kind == T3D ? 3 : (kind == T2D || kind == T2DA || kind == T2DD || kind == T2DAD) ? 2 : 1;
  t->arr = kind == T1DA || kind == T2DA || kind == T2DAD;
  if (t->dims < 2)
    h = 1;
  if (t->dims < 3)
    d = 1;
  if (!t->arr)
    layers = 1;
  int es = elem_size(f);
  size_t row = (size_t)(w + 3) * es; /* padded rows */
  size_t rows = kind == T1DA ? (size_t)layers : (size_t)h;
  size_t slice = t->dims == 2 && t->arr ? row * (h + 1) : t->dims == 3 ? row * (h + 2) : 0;
  size_t nslices = kind == T3D ? (size_t)d : t->arr && t->dims == 2 ? (size_t)layers : 1;
  t->bytes = nslices > 1 ? slice * nslices : row * rows;
  t->mem = malloc(t->bytes);
  ASSERT_TRUE(t->mem != NULL);
  t->d.data = t->mem;
  t->d.row_pitch = row;
  t->d.slice_pitch = slice;
  t->d.width = (uint32_t)w;
  t->d.height = (uint32_t)h;
  t->d.depth = (uint32_t)d;
  t->d.array_size = (uint32_t)layers;
  t->d.image_type = types[kind];
  t->d.channel_order = f.order;
  t->d.channel_data_type = f.type;
  t->d.elem_size = (uint32_t)es;
  t->d.num_channels = (uint32_t)chan_count(f.order);
  /* Random contents; floats and halves finite, in [-4, 4]. */
  for (size_t i = 0; i < t->bytes; i++)
    t->mem[i] = (unsigned char)rnd();
  if (f.type == CL_FLOAT)
    for (size_t i = 0; i + 4 <= t->bytes; i += 4) {
      float v = rndf(-4.0f, 4.0f);
      memcpy(t->mem + i, &v, 4);
    }
  if (f.type == CL_HALF_FLOAT)
    for (size_t i = 0; i + 2 <= t->bytes; i += 2) {
      _Float16 v = (_Float16)rndf(-4.0f, 4.0f);
      memcpy(t->mem + i, &v, 2);
    }
}

static inline unsigned char *pixel(const timg *t, int x, int y, int z)
{
  return t->mem + (size_t)z * t->d.slice_pitch + (size_t)y * t->d.row_pitch + (size_t)x * t->d.elem_size;
}

/* ---- the reference ---- */

static inline float srgb_lin(float c)
{
  return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static inline void ref_texel_f(const timg *t, int x, int y, int z, float o[4])
{
  const unsigned char *p = pixel(t, x, y, z);
  float r[4] = {0, 0, 0, 0};
  int n = chan_count(t->f.order);
  uint32_t v32 = 0;
  uint16_t v16 = 0;
  for (int i = 0; i < n && !is_packed(t->f.type); i++) {
    switch (t->f.type) {
    case CL_UNORM_INT8: r[i] = p[i] / 255.0f; break;
    case CL_SNORM_INT8: r[i] = fmaxf((signed char)p[i] / 127.0f, -1.0f); break;
    case CL_UNORM_INT16: memcpy(&v16, p + 2 * i, 2); r[i] = v16 / 65535.0f; break;
    case CL_SNORM_INT16: memcpy(&v16, p + 2 * i, 2); r[i] = fmaxf((int16_t)v16 / 32767.0f, -1.0f); break;
    case CL_HALF_FLOAT: { _Float16 h; memcpy(&h, p + 2 * i, 2); r[i] = (float)h; break; }
    case CL_FLOAT: memcpy(&r[i], p + 4 * i, 4); break;
    }
  }
  if (t->f.type == CL_UNORM_SHORT_565) {
    memcpy(&v16, p, 2);
    r[0] = (v16 >> 11) / 31.0f, r[1] = ((v16 >> 5) & 0x3f) / 63.0f, r[2] = (v16 & 0x1f) / 31.0f;
  } else if (t->f.type == CL_UNORM_SHORT_555) {
    memcpy(&v16, p, 2);
    r[0] = ((v16 >> 10) & 0x1f) / 31.0f, r[1] = ((v16 >> 5) & 0x1f) / 31.0f, r[2] = (v16 & 0x1f) / 31.0f;
  } else if (t->f.type == CL_UNORM_INT_101010) {
    memcpy(&v32, p, 4);
    r[0] = ((v32 >> 20) & 0x3ff) / 1023.0f, r[1] = ((v32 >> 10) & 0x3ff) / 1023.0f, r[2] = (v32 & 0x3ff) / 1023.0f;
  }
  float R = r[0], G = 0, B = 0, A = 1;
  switch (t->f.order) {
  case CL_A: R = 0, A = r[0]; break;
  case CL_RG: case CL_RGx: G = r[1]; break;
  case CL_RA: A = r[1]; break;
  case CL_RGB: case CL_RGBx: case CL_sRGB: case CL_sRGBx: G = r[1], B = r[2]; break;
  case CL_RGBA: case CL_sRGBA: G = r[1], B = r[2], A = r[3]; break;
  case CL_BGRA: case CL_sBGRA: R = r[2], G = r[1], B = r[0], A = r[3]; break;
  case CL_ARGB: A = r[0], R = r[1], G = r[2], B = r[3]; break;
  case CL_ABGR: A = r[0], B = r[1], G = r[2], R = r[3]; break;
  case CL_INTENSITY: G = B = A = r[0]; break;
  case CL_LUMINANCE: G = B = r[0]; break;
  }
  if (is_srgb(t->f.order))
    R = srgb_lin(R), G = srgb_lin(G), B = srgb_lin(B);
  o[0] = R, o[1] = G, o[2] = B, o[3] = A;
}

static inline void ref_texel_i(const timg *t, int x, int y, int z, int64_t o[4])
{
  const unsigned char *p = pixel(t, x, y, z);
  int64_t r[4] = {0, 0, 0, 0};
  int n = chan_count(t->f.order);
  for (int i = 0; i < n; i++) {
    int16_t s16;
    uint16_t u16;
    int32_t s32;
    switch (t->f.type) {
    case CL_SIGNED_INT8: r[i] = (signed char)p[i]; break;
    case CL_UNSIGNED_INT8: r[i] = p[i]; break;
    case CL_SIGNED_INT16: memcpy(&s16, p + 2 * i, 2); r[i] = s16; break;
    case CL_UNSIGNED_INT16: memcpy(&u16, p + 2 * i, 2); r[i] = u16; break;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: memcpy(&s32, p + 4 * i, 4); r[i] = s32; break;
    }
  }
  int64_t R = r[0], G = 0, B = 0, A = 1;
  switch (t->f.order) {
  case CL_A: R = 0, A = r[0]; break;
  case CL_RG: case CL_RGx: G = r[1]; break;
  case CL_RA: A = r[1]; break;
  case CL_RGBA: G = r[1], B = r[2], A = r[3]; break;
  case CL_BGRA: R = r[2], G = r[1], B = r[0], A = r[3]; break;
  case CL_ARGB: A = r[0], R = r[1], G = r[2], B = r[3]; break;
  case CL_ABGR: A = r[0], B = r[1], G = r[2], R = r[3]; break;
  }
  o[0] = R, o[1] = G, o[2] = B, o[3] = A;
}

static inline int border_alpha(unsigned order)
{
  return order == CL_R || order == CL_RG || order == CL_RGB || order == CL_LUMINANCE || order == CL_sRGB;
}

/* Texel (i[0], i[1], i[2]) of the filtered axes, with the sampler's
 * addressing outside: 1 if it is the border color. */
static inline int addressed(const timg *t, unsigned s, const int *i, int layer, int *x, int *y, int *z)
{
  int n[3] = {(int)t->d.width, (int)t->d.height, (int)t->d.depth}, c[3] = {0, 0, 0}, out = 0;
  for (int a = 0; a < t->dims; a++) {
    c[a] = i[a];
    if (c[a] < 0 || c[a] >= n[a]) {
      out = 1;
      c[a] = c[a] < 0 ? 0 : n[a] - 1;
    }
  }
  if (t->arr)
    c[t->dims] = layer;
  *x = c[0], *y = c[1], *z = c[2];
  return out && (s & LANECL_SAMPLER_ADDRESS_MASK) == LANECL_SAMPLER_ADDRESS_CLAMP;
}

static inline void ref_read_f(const timg *t, unsigned s, const float *c, float o[4])
{
  unsigned am = s & LANECL_SAMPLER_ADDRESS_MASK;
  int norm = s & LANECL_SAMPLER_NORMALIZED, lin = (s & LANECL_SAMPLER_FILTER_MASK) == LANECL_SAMPLER_FILTER_LINEAR;
  int n[3] = {(int)t->d.width, (int)t->d.height, (int)t->d.depth};
  int layer = 0;
  if (t->arr) {
    float l = rintf(c[t->dims]);
    layer = l < 0 ? 0 : l > (float)t->d.array_size - 1 ? (int)t->d.array_size - 1 : (int)l;
  }
  int i0[3], i1[3];
  float w[3];
  for (int a = 0; a < t->dims; a++) {
    float u = c[a], x;
    if (am == LANECL_SAMPLER_ADDRESS_REPEAT)
      x = (u - floorf(u)) * (float)n[a];
    else if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT)
      x = fabsf(u - 2.0f * rintf(0.5f * u)) * (float)n[a];
    else
      x = norm ? u * (float)n[a] : u;
    if (!lin) {
      int i = (int)floorf(x);
      if (am == LANECL_SAMPLER_ADDRESS_REPEAT && i > n[a] - 1)
        i -= n[a];
      if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT && i > n[a] - 1)
        i = n[a] - 1;
      i0[a] = i1[a] = i;
      w[a] = 0;
    } else {
      float f = floorf(x - 0.5f);
      w[a] = (x - 0.5f) - f;
      i0[a] = (int)f, i1[a] = (int)f + 1;
      if (am == LANECL_SAMPLER_ADDRESS_REPEAT) {
        if (i0[a] < 0)
          i0[a] += n[a];
        if (i1[a] > n[a] - 1)
          i1[a] -= n[a];
      } else if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
        if (i0[a] < 0)
          i0[a] = 0;
        if (i1[a] > n[a] - 1)
          i1[a] = n[a] - 1;
      }
    }
  }
  o[0] = o[1] = o[2] = o[3] = 0;
  int corners = lin ? 1 << t->dims : 1;
  for (int k = 0; k < corners; k++) {
    int idx[3];
    float wt = 1;
    for (int a = 0; a < t->dims; a++) {
      int hi = (k >> a) & 1;
      idx[a] = hi ? i1[a] : i0[a];
      if (lin)
        wt *= hi ? w[a] : 1 - w[a];
    }
    int x, y, z;
    float v[4];
    if (addressed(t, s, idx, layer, &x, &y, &z)) {
      v[0] = v[1] = v[2] = 0;
      v[3] = border_alpha(t->f.order) ? 1.0f : 0.0f;
    } else {
      ref_texel_f(t, x, y, z, v);
    }
    for (int j = 0; j < 4; j++)
      o[j] += wt * v[j];
  }
}

/* read_image{i,ui} with sampler s at float coordinates c (nearest). */
static inline void ref_read_i(const timg *t, unsigned s, const float *c, int64_t o[4])
{
  unsigned am = s & LANECL_SAMPLER_ADDRESS_MASK;
  int n[3] = {(int)t->d.width, (int)t->d.height, (int)t->d.depth}, idx[3] = {0, 0, 0}, layer = 0;
  if (t->arr) {
    float l = rintf(c[t->dims]);
    layer = l < 0 ? 0 : l > (float)t->d.array_size - 1 ? (int)t->d.array_size - 1 : (int)l;
  }
  for (int a = 0; a < t->dims; a++) {
    float x = am == LANECL_SAMPLER_ADDRESS_REPEAT            ? (c[a] - floorf(c[a])) * n[a]
              : am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT ? fabsf(c[a] - 2.0f * rintf(0.5f * c[a])) * n[a]
              : s & LANECL_SAMPLER_NORMALIZED                ? c[a] * n[a]
                                                             : c[a];
    idx[a] = (int)floorf(x);
    if ((am == LANECL_SAMPLER_ADDRESS_REPEAT) && idx[a] > n[a] - 1)
      idx[a] -= n[a];
    if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT && idx[a] > n[a] - 1)
      idx[a] = n[a] - 1;
  }
  int x, y, z;
  if (addressed(t, s, idx, layer, &x, &y, &z)) {
    o[0] = o[1] = o[2] = 0;
    o[3] = border_alpha(t->f.order);
  } else {
    ref_texel_i(t, x, y, z, o);
  }
}

#define NW 37 /* work-items: a vector remainder */
static inline const char *sampler_name(unsigned s, char *buf)
{
  static const char *am[] = {"none", "?", "clamp_to_edge", "?", "clamp", "?", "repeat", "?", "mirrored"};
  sprintf(buf, "%s|%s|%s", s & 1 ? "norm" : "unnorm", am[s & 0xe], s & 0x20 ? "linear" : "nearest");
  return buf;
}

/* Coordinates for sampler s on image t: spread over the image and around
 * it (in range only for ADDRESS_NONE). */
static inline void make_coords(const timg *t, unsigned s, float c[NW][4])
{
  unsigned am = s & LANECL_SAMPLER_ADDRESS_MASK;
  int norm = s & 1, lin = (s & 0x30) == 0x20;
  int n[3] = {(int)t->d.width, (int)t->d.height, (int)t->d.depth};
  for (int i = 0; i < NW; i++) {
    for (int a = 0; a < 4; a++)
      c[i][a] = 0;
    for (int a = 0; a < t->dims; a++) {
      float lo = -1.5f * n[a], hi = 2.5f * n[a];
      if (am == LANECL_SAMPLER_ADDRESS_NONE)
        lo = lin ? 0.5f : 0.0f, hi = lin ? n[a] - 0.5f : n[a] - 0.01f;
      float u = rndf(lo, hi);
      c[i][a] = norm ? u / (float)n[a] : u;
    }
    if (t->arr)
      c[i][t->dims] = rndf(-1.4f, (float)t->d.array_size + 0.4f);
  }
}

static inline int close_enough(float got, float want)
{
  return fabsf(got - want) <= 2e-4f * (1.0f + fabsf(want));
}

static const unsigned samplers[] = {
    0x10 | 0x0, 0x10 | 0x2, 0x10 | 0x4, 0x20 | 0x0, 0x20 | 0x2, 0x20 | 0x4,              /* unnormalized */
    0x11 | 0x0, 0x11 | 0x2, 0x11 | 0x4, 0x11 | 0x6, 0x11 | 0x8,                          /* normalized, nearest */
    0x21 | 0x0, 0x21 | 0x2, 0x21 | 0x4, 0x21 | 0x6, 0x21 | 0x8};                         /* normalized, linear */
#define N_SAMPLERS (sizeof(samplers) / sizeof(samplers[0]))
/* ---- writes ---- */

static inline float srgb_enc(float c)
{
  if (!(c > 0.0f))
    return 0.0f;
  if (c >= 1.0f)
    return 1.0f;
  return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static inline int64_t sat_rte(float v, int64_t lo, int64_t hi)
{
  if (v != v)
    return 0;
  float r = rintf(v);
  return r < (float)lo ? lo : r > (float)hi ? hi : (int64_t)r;
}

/* The bytes write_imagef stores for RGBA c. */
static inline void ref_encode_f(fmt f, const float *c, unsigned char *p)
{
  float R = c[0], G = c[1], B = c[2], A = c[3];
  if (is_srgb(f.order))
    R = srgb_enc(R), G = srgb_enc(G), B = srgb_enc(B);
  float m[4] = {R, G, B, A};
  int n = chan_count(f.order);
  switch (f.order) {
  case CL_A: m[0] = A; break;
  case CL_RA: m[1] = A; break;
  case CL_BGRA: case CL_sBGRA: m[0] = B, m[2] = R; break;
  case CL_ARGB: m[0] = A, m[1] = R, m[2] = G, m[3] = B; break;
  case CL_ABGR: m[0] = A, m[1] = B, m[2] = G, m[3] = R; break;
  }
  if (f.type == CL_UNORM_SHORT_565 || f.type == CL_UNORM_SHORT_555) {
    int g6 = f.type == CL_UNORM_SHORT_565;
    uint16_t v = (uint16_t)(sat_rte(m[0] * 31.0f, 0, 31) << (g6 ? 11 : 10) |
                            sat_rte(m[1] * (g6 ? 63.0f : 31.0f), 0, g6 ? 63 : 31) << 5 | sat_rte(m[2] * 31.0f, 0, 31));
    memcpy(p, &v, 2);
    return;
  }
  if (f.type == CL_UNORM_INT_101010) {
    uint32_t v = (uint32_t)(sat_rte(m[0] * 1023.0f, 0, 1023) << 20 | sat_rte(m[1] * 1023.0f, 0, 1023) << 10 |
                            sat_rte(m[2] * 1023.0f, 0, 1023));
    memcpy(p, &v, 4);
    return;
  }
  for (int i = 0; i < n; i++) {
    int16_t s16;
    uint16_t u16;
    switch (f.type) {
    case CL_UNORM_INT8: p[i] = (unsigned char)sat_rte(m[i] * 255.0f, 0, 255); break;
    case CL_SNORM_INT8: p[i] = (unsigned char)(signed char)sat_rte(m[i] * 127.0f, -127, 127); break;
    case CL_UNORM_INT16: u16 = (uint16_t)sat_rte(m[i] * 65535.0f, 0, 65535); memcpy(p + 2 * i, &u16, 2); break;
    case CL_SNORM_INT16: s16 = (int16_t)sat_rte(m[i] * 32767.0f, -32767, 32767); memcpy(p + 2 * i, &s16, 2); break;
    case CL_HALF_FLOAT: { _Float16 h = (_Float16)m[i]; memcpy(p + 2 * i, &h, 2); break; }
    case CL_FLOAT: memcpy(p + 4 * i, &m[i], 4); break;
    }
  }
}

static inline void ref_encode_i(fmt f, const int32_t *c, int is_signed, unsigned char *p)
{
  int64_t v[4];
  for (int i = 0; i < 4; i++)
    v[i] = is_signed ? (int64_t)c[i] : (int64_t)(uint32_t)c[i];
  int64_t m[4] = {v[0], v[1], v[2], v[3]};
  switch (f.order) {
  case CL_A: m[0] = v[3]; break;
  case CL_RA: m[1] = v[3]; break;
  case CL_BGRA: m[0] = v[2], m[2] = v[0]; break;
  case CL_ARGB: m[0] = v[3], m[1] = v[0], m[2] = v[1], m[3] = v[2]; break;
  case CL_ABGR: m[0] = v[3], m[1] = v[2], m[2] = v[1], m[3] = v[0]; break;
  }
  int n = chan_count(f.order);
  for (int i = 0; i < n; i++) {
    int64_t lo, hi;
    int sz = type_size(f.type);
    switch (f.type) {
    case CL_SIGNED_INT8: lo = -128, hi = 127; break;
    case CL_UNSIGNED_INT8: lo = 0, hi = 255; break;
    case CL_SIGNED_INT16: lo = -32768, hi = 32767; break;
    case CL_UNSIGNED_INT16: lo = 0, hi = 65535; break;
    case CL_SIGNED_INT32: lo = INT32_MIN, hi = INT32_MAX; break;
    default: lo = 0, hi = UINT32_MAX; break;
    }
    int64_t x = m[i] < lo ? lo : m[i] > hi ? hi : m[i];
    uint32_t u = (uint32_t)x;
    memcpy(p + sz * i, &u, (size_t)sz); /* little endian */
  }
}

/* Distinct in-range coordinates for NW work-items (the image has >= NW
 * pixels). */
static inline void write_coords(const timg *t, int c[NW][4])
{
  int n[4] = {(int)t->d.width, t->kind == T1DA ? (int)t->d.array_size : (int)t->d.height,
              t->arr && t->dims == 2 ? (int)t->d.array_size : (int)t->d.depth, 1};
  int total = n[0] * n[1] * n[2], start = (int)(rnd() % (unsigned)(total - NW + 1));
  for (int i = 0; i < NW; i++) {
    int k = (start + i * 7) % total; /* 7 and the sizes used are coprime */
    c[i][0] = k % n[0], c[i][1] = k / n[0] % n[1], c[i][2] = k / (n[0] * n[1]), c[i][3] = 0;
  }
}

#endif

/* Image built-in functions (OpenCL C 3.0 section 6.15.15): read_image{f,i,ui,h}
 * with and without a sampler, write_image{f,i,ui,h}, the get_image_* queries,
 * for image1d, image1d_buffer, image1d_array, image2d, image2d_array, image3d,
 * image2d_depth and image2d_array_depth, every access qualifier.
 *
 * An image is a `struct lanecl_image *` (lanecl_image.h), a sampler its CLK_*
 * bits.  OpenCL C cannot convert an image or a sampler value, so two helpers
 * are declared here and never defined: __lanecl_image_desc(image) and
 * __lanecl_sampler_bits(sampler).  The compiler (cc_prepare.c) replaces every
 * call to them by the argument itself, the image/sampler handle being a
 * pointer there.  Everything here is inlined into the kernel.
 *
 * Pixels: row r of slice/layer z at data + z * slice_pitch + r * row_pitch (a
 * 1D array's layers are rows).  Reads decode the channel type (normalized
 * integers divided by their maximum, snorm clamped to -1, half and float as
 * they are, the packed 565/555/101010) and map the channel order onto RGBA
 * (missing color channels 0, missing alpha 1; INTENSITY to all four,
 * LUMINANCE to RGB); sRGB orders convert R, G, B to linear.  Writes do the
 * reverse (round to nearest even, saturate; linear to sRGB).
 *
 * Samplers: nearest: i = floor(u) (u = s * size for normalized coordinates),
 * repeat and mirrored repeat as the spec's formulas; linear: i0 = floor(u -
 * 0.5), i1 = i0 + 1, weight frac(u - 0.5), bilinear over 4 and trilinear over
 * 8 texels.  CLAMP gives the border color outside the image ((0,0,0,1) for
 * orders without alpha, R, RG, RGB, LUMINANCE, else 0); CLAMP_TO_EDGE and
 * NONE (whose result outside the image is undefined) clamp to the edge, so
 * that no access leaves the image.  Integer coordinates take the texel as
 * they are (the sampler must be unnormalized and nearest).  Array layers:
 * rint(coordinate) clamped to the layers.  Samplerless reads and writes
 * outside the image are undefined: reads clamp to the edge, writes are
 * dropped.
 *
 * Lanes: descriptor fields and sampler bits are the same for every
 * work-item, so the branches on them are uniform (constant samplers fold
 * away entirely); the per-pixel code is arithmetic, min/max and selects,
 * and the texel loads index typed rows by x (a constant stride per format).
 */

#include "lanecl_builtins.h"
#include "lanecl_image.h"

typedef const __global struct lanecl_image *img_t;

/* ---- handles (lowered by the compiler) ---- */

#define DECL_DESC(ACC)                                                                     \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image1d_t);                    \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image1d_buffer_t);             \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image1d_array_t);              \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image2d_t);                    \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image2d_array_t);              \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image3d_t);                    \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image2d_depth_t);              \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image2d_array_depth_t);
DECL_DESC(read_only)
DECL_DESC(write_only)
DECL_DESC(read_write)
uint OVLD __attribute__((const)) __lanecl_sampler_bits(sampler_t);

#define DESC(i) __lanecl_image_desc(i)
#define SMP(s) __lanecl_sampler_bits(s)

/* ---- texels ---- */

INLINE __global uchar *row_of(img_t im, int y, int z)
{
  return im->data + (ulong)(uint)z * im->slice_pitch + (ulong)(uint)y * im->row_pitch;
}

/* n channels of type T at pixel x of row, converted by CV to a 4-vector of
 * R (float/int), missing ones 0. */
#define LOADN(T, R, row, x, n)                                                             \
  ((n) == 4   ? convert_##R##4(vload4((x), (__global const T *)(row)))                      \
   : (n) == 1 ? (R##4)(convert_##R(((__global const T *)(row))[(x)]), 0, 0, 0)              \
   : (n) == 2 ? (R##4)(convert_##R##2(vload2((x), (__global const T *)(row))), 0, 0)        \
              : (R##4)(convert_##R##3(vload3((x), (__global const T *)(row))), 0))

/* The channels in memory order, decoded to float. */
INLINE float4 raw_f(img_t im, __global const uchar *row, int x)
{
  uint n = im->num_channels;
  switch (im->channel_data_type) {
  case CLK_UNORM_INT8:
    return LOADN(uchar, float, row, x, n) / 255.0f;
  case CLK_FLOAT:
    return LOADN(float, float, row, x, n);
  case CLK_UNORM_INT16:
    return LOADN(ushort, float, row, x, n) / 65535.0f;
  case CLK_SNORM_INT8:
    return fmax(LOADN(char, float, row, x, n) / 127.0f, -1.0f);
  case CLK_SNORM_INT16:
    return fmax(LOADN(short, float, row, x, n) / 32767.0f, -1.0f);
  case CLK_HALF_FLOAT:
    return LOADN(half, float, row, x, n);
  case CLK_UNORM_SHORT_565: {
    uint v = ((__global const ushort *)row)[x];
    return (float4)((float)(v >> 11) / 31.0f, (float)((v >> 5) & 63) / 63.0f, (float)(v & 31) / 31.0f, 0.0f);
  }
  case CLK_UNORM_SHORT_555: {
    uint v = ((__global const ushort *)row)[x];
    return (float4)((float)((v >> 10) & 31) / 31.0f, (float)((v >> 5) & 31) / 31.0f, (float)(v & 31) / 31.0f,
                    0.0f);
  }
  case CLK_UNORM_INT_101010: {
    uint v = ((__global const uint *)row)[x];
    return (float4)((float)((v >> 20) & 1023) / 1023.0f, (float)((v >> 10) & 1023) / 1023.0f,
                    (float)(v & 1023) / 1023.0f, 0.0f);
  }
  case CLK_UNORM_INT24: {
    uint v = ((__global const uint *)row)[x];
    return (float4)((float)(v & 0xffffff) / 16777215.0f, 0.0f, 0.0f, 0.0f);
  }
  default: /* integer channels: undefined for read_imagef */
    return 0.0f;
  }
}

/* The channels in memory order, as integers (sign- or zero-extended). */
INLINE int4 raw_i(img_t im, __global const uchar *row, int x)
{
  uint n = im->num_channels;
  switch (im->channel_data_type) {
  case CLK_UNSIGNED_INT8:
    return LOADN(uchar, int, row, x, n);
  case CLK_SIGNED_INT8:
    return LOADN(char, int, row, x, n);
  case CLK_UNSIGNED_INT16:
    return LOADN(ushort, int, row, x, n);
  case CLK_SIGNED_INT16:
    return LOADN(short, int, row, x, n);
  case CLK_SIGNED_INT32:
    return LOADN(int, int, row, x, n);
  case CLK_UNSIGNED_INT32:
    return as_int4(LOADN(uint, uint, row, x, n));
  default: /* normalized and float channels: undefined for read_image{i,ui} */
    return 0;
  }
}

/* Memory order -> RGBA. */
#define DEF_SWZ(T, ONE)                                                                    \
  INLINE T##4 swz_##T(uint order, T##4 r)                                                  \
  {                                                                                        \
    switch (order) {                                                                       \
    case CLK_R:                                                                            \
    case CLK_Rx:                                                                           \
    case CLK_DEPTH:                                                                        \
      return (T##4)(r.x, 0, 0, ONE);                                                       \
    case CLK_A:                                                                            \
      return (T##4)(0, 0, 0, r.x);                                                         \
    case CLK_RG:                                                                           \
    case CLK_RGx:                                                                          \
      return (T##4)(r.x, r.y, 0, ONE);                                                     \
    case CLK_RA:                                                                           \
      return (T##4)(r.x, 0, 0, r.y);                                                       \
    case CLK_RGB:                                                                          \
    case CLK_RGBx:                                                                         \
    case CLK_sRGB:                                                                         \
    case CLK_sRGBx:                                                                        \
      return (T##4)(r.x, r.y, r.z, ONE);                                                   \
    case CLK_BGRA:                                                                         \
    case CLK_sBGRA:                                                                        \
      return r.zyxw;                                                                       \
    case CLK_ARGB:                                                                         \
      return r.yzwx;                                                                       \
    case CLK_ABGR:                                                                         \
      return r.wzyx;                                                                       \
    case CLK_INTENSITY:                                                                    \
      return r.xxxx;                                                                       \
    case CLK_LUMINANCE:                                                                    \
      return (T##4)(r.x, r.x, r.x, ONE);                                                   \
    default: /* RGBA, sRGBA */                                                             \
      return r;                                                                            \
    }                                                                                      \
  }
DEF_SWZ(float, 1.0f)
DEF_SWZ(int, 1)

INLINE int is_srgb(uint order)
{
  return order == CLK_sRGB || order == CLK_sRGBx || order == CLK_sRGBA || order == CLK_sBGRA;
}

INLINE float srgb_to_linear(float c)
{
  return c <= 0.04045f ? c / 12.92f : powr((c + 0.055f) / 1.055f, 2.4f);
}

INLINE float linear_to_srgb(float c)
{
  if (!(c > 0.0f)) /* NaN and <= 0 */
    return 0.0f;
  if (c >= 1.0f)
    return 1.0f;
  return c <= 0.0031308f ? c * 12.92f : 1.055f * powr(c, 1.0f / 2.4f) - 0.055f;
}

/* The texel at (x, y, z), inside the image, as RGBA. */
INLINE float4 fetch_f(img_t im, int x, int y, int z)
{
  uint order = im->channel_order;
  float4 c = swz_float(order, raw_f(im, row_of(im, y, z), x));
  if (is_srgb(order))
    c = (float4)(srgb_to_linear(c.x), srgb_to_linear(c.y), srgb_to_linear(c.z), c.w);
  return c;
}

INLINE int4 fetch_i(img_t im, int x, int y, int z)
{
  return swz_int(im->channel_order, raw_i(im, row_of(im, y, z), x));
}

/* The border color of CLAMP. */
INLINE float4 border_f(img_t im)
{
  uint o = im->channel_order;
  float a = o == CLK_R || o == CLK_RG || o == CLK_RGB || o == CLK_LUMINANCE || o == CLK_sRGB ? 1.0f : 0.0f;
  return (float4)(0.0f, 0.0f, 0.0f, a);
}

INLINE int4 border_i(img_t im)
{
  uint o = im->channel_order;
  int a = o == CLK_R || o == CLK_RG || o == CLK_RGB || o == CLK_LUMINANCE || o == CLK_sRGB ? 1 : 0;
  return (int4)(0, 0, 0, a);
}

/* ---- addressing ---- */

#define ADDR(s) ((s) & LANECL_SAMPLER_ADDRESS_MASK)
#define IS_LINEAR(s) (((s) & LANECL_SAMPLER_FILTER_MASK) == LANECL_SAMPLER_FILTER_LINEAR)
#define IS_NORM(s) ((s) & LANECL_SAMPLER_NORMALIZED)

/* Coordinate u on an axis of n texels -> texel position (unclamped), for
 * nearest filtering.  The result lies in [-1, n]. */
INLINE int nearest_index(float u, int n, uint s)
{
  float fn = (float)n, x;
  uint am = ADDR(s);
  if (am == LANECL_SAMPLER_ADDRESS_REPEAT) {
    x = (u - floor(u)) * fn;
  } else if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    float m = fabs(u - 2.0f * rint(0.5f * u));
    x = m * fn;
  } else {
    x = IS_NORM(s) ? u * fn : u;
  }
  x = fmin(fmax(floor(x), -1.0f), fn); /* NaN -> -1 */
  int i = (int)x;
  if (am == LANECL_SAMPLER_ADDRESS_REPEAT)
    i = i > n - 1 ? i - n : i;
  else if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT)
    i = min(i, n - 1);
  return i;
}

/* For linear filtering: the two texel positions (unclamped, in [-2, n + 1])
 * and the weight of the second. */
INLINE int linear_index(float u, int n, uint s, int *i1, float *w)
{
  float fn = (float)n, x;
  uint am = ADDR(s);
  if (am == LANECL_SAMPLER_ADDRESS_REPEAT) {
    x = (u - floor(u)) * fn;
  } else if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    float m = fabs(u - 2.0f * rint(0.5f * u));
    x = m * fn;
  } else {
    x = IS_NORM(s) ? u * fn : u;
  }
  x = fmin(fmax(x, -1.0f), fn + 1.0f) - 0.5f; /* NaN -> -1.5 */
  float f = floor(x);
  *w = x - f;
  int i0 = (int)f, j = i0 + 1;
  if (am == LANECL_SAMPLER_ADDRESS_REPEAT) {
    i0 = i0 < 0 ? i0 + n : i0;
    j = j > n - 1 ? j - n : j;
  } else if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    i0 = max(i0, 0);
    j = min(j, n - 1);
  }
  *i1 = j;
  return i0;
}

INLINE int outside(int i, int n)
{
  return (uint)i >= (uint)n;
}

INLINE int edge(int i, int n)
{
  return clamp(i, 0, n - 1);
}

INLINE int layer_of_f(img_t im, float c)
{
  float l = fmin(fmax(rint(c), 0.0f), (float)im->array_size - 1.0f); /* NaN -> 0 */
  return (int)l;
}

INLINE int layer_of_i(img_t im, int c)
{
  return clamp(c, 0, (int)im->array_size - 1);
}

/* One texel of a sampled read: border outside for CLAMP, else the edge. */
INLINE float4 texel_f(img_t im, uint s, int x, int y, int z, int dims, int layer)
{
  int w = im->width, h = im->height, d = im->depth;
  int out = outside(x, w);
  x = edge(x, w);
  if (dims >= 2) {
    out |= outside(y, h);
    y = edge(y, h);
  }
  if (dims == 3) {
    out |= outside(z, d);
    z = edge(z, d);
  }
  if (dims == 1)
    y = layer;
  else if (dims == 2)
    z = layer;
  float4 t = fetch_f(im, x, y, z);
  return ADDR(s) == LANECL_SAMPLER_ADDRESS_CLAMP && out ? border_f(im) : t;
}

INLINE int4 texel_i(img_t im, uint s, int x, int y, int z, int dims, int layer)
{
  int w = im->width, h = im->height, d = im->depth;
  int out = outside(x, w);
  x = edge(x, w);
  if (dims >= 2) {
    out |= outside(y, h);
    y = edge(y, h);
  }
  if (dims == 3) {
    out |= outside(z, d);
    z = edge(z, d);
  }
  if (dims == 1)
    y = layer;
  else if (dims == 2)
    z = layer;
  int4 t = fetch_i(im, x, y, z);
  return ADDR(s) == LANECL_SAMPLER_ADDRESS_CLAMP && out ? border_i(im) : t;
}

/* Sampled read at float coordinates (u, v, w); dims filtered axes, the
 * layer (arrays) already resolved. */
INLINE float4 sample_f(img_t im, uint s, float u, float v, float t, int dims, int layer)
{
  if (!IS_LINEAR(s)) {
    int x = nearest_index(u, im->width, s);
    int y = dims >= 2 ? nearest_index(v, im->height, s) : 0;
    int z = dims == 3 ? nearest_index(t, im->depth, s) : 0;
    return texel_f(im, s, x, y, z, dims, layer);
  }
  int x1, y1 = 0, z1 = 0;
  float a, b = 0.0f, c = 0.0f;
  int x0 = linear_index(u, im->width, s, &x1, &a);
  if (dims == 1)
    return (1.0f - a) * texel_f(im, s, x0, 0, 0, 1, layer) + a * texel_f(im, s, x1, 0, 0, 1, layer);
  int y0 = linear_index(v, im->height, s, &y1, &b);
  float4 r0 = (1.0f - a) * (1.0f - b) * texel_f(im, s, x0, y0, 0, dims, layer) +
              a * (1.0f - b) * texel_f(im, s, x1, y0, 0, dims, layer) +
              (1.0f - a) * b * texel_f(im, s, x0, y1, 0, dims, layer) +
              a * b * texel_f(im, s, x1, y1, 0, dims, layer);
  if (dims == 2)
    return r0;
  int z0 = linear_index(t, im->depth, s, &z1, &c);
  float4 p0 = (1.0f - a) * (1.0f - b) * (1.0f - c) * texel_f(im, s, x0, y0, z0, 3, 0) +
              a * (1.0f - b) * (1.0f - c) * texel_f(im, s, x1, y0, z0, 3, 0) +
              (1.0f - a) * b * (1.0f - c) * texel_f(im, s, x0, y1, z0, 3, 0) +
              a * b * (1.0f - c) * texel_f(im, s, x1, y1, z0, 3, 0);
  float4 p1 = (1.0f - a) * (1.0f - b) * c * texel_f(im, s, x0, y0, z1, 3, 0) +
              a * (1.0f - b) * c * texel_f(im, s, x1, y0, z1, 3, 0) +
              (1.0f - a) * b * c * texel_f(im, s, x0, y1, z1, 3, 0) +
              a * b * c * texel_f(im, s, x1, y1, z1, 3, 0);
  return p0 + p1;
}

INLINE int4 sample_i(img_t im, uint s, float u, float v, float t, int dims, int layer)
{
  int x = nearest_index(u, im->width, s);
  int y = dims >= 2 ? nearest_index(v, im->height, s) : 0;
  int z = dims == 3 ? nearest_index(t, im->depth, s) : 0;
  return texel_i(im, s, x, y, z, dims, layer);
}

/* Samplerless: the texel, coordinates clamped to the image. */
INLINE float4 load_f(img_t im, int x, int y, int z, int dims)
{
  x = edge(x, im->width);
  y = dims >= 2 ? edge(y, im->height) : y;
  z = dims == 3 ? edge(z, im->depth) : z;
  return fetch_f(im, x, y, z);
}

INLINE int4 load_i(img_t im, int x, int y, int z, int dims)
{
  x = edge(x, im->width);
  y = dims >= 2 ? edge(y, im->height) : y;
  z = dims == 3 ? edge(z, im->depth) : z;
  return fetch_i(im, x, y, z);
}

/* ---- writes ---- */

#define STOREN(T, v, row, x, n)                                                            \
  do {                                                                                     \
    if ((n) == 4)                                                                          \
      vstore4((v), (x), (__global T *)(row));                                              \
    else if ((n) == 1)                                                                     \
      ((__global T *)(row))[(x)] = (v).x;                                                  \
    else if ((n) == 2)                                                                     \
      vstore2((v).xy, (x), (__global T *)(row));                                           \
    else                                                                                   \
      vstore3((v).xyz, (x), (__global T *)(row));                                          \
  } while (0)

/* RGBA -> memory order. */
#define DEF_UNSWZ(T)                                                                       \
  INLINE T##4 unswz_##T(uint order, T##4 c)                                                \
  {                                                                                        \
    switch (order) {                                                                       \
    case CLK_A:                                                                            \
      return c.wwww;                                                                       \
    case CLK_RA:                                                                           \
      return c.xwzw;                                                                       \
    case CLK_BGRA:                                                                         \
    case CLK_sBGRA:                                                                        \
      return c.zyxw;                                                                       \
    case CLK_ARGB:                                                                         \
      return c.wxyz;                                                                       \
    case CLK_ABGR:                                                                         \
      return c.wzyx;                                                                       \
    default:                                                                               \
      return c;                                                                            \
    }                                                                                      \
  }
DEF_UNSWZ(float)
DEF_UNSWZ(int)

INLINE int write_outside(img_t im, int x, int y, int z, int dims)
{
  int out = outside(x, im->width);
  if (dims >= 2)
    out |= outside(y, im->height);
  if (dims == 3)
    out |= outside(z, im->depth);
  return out;
}

INLINE void store_f(img_t im, int x, int y, int z, int dims, float4 c)
{
  if (write_outside(im, x, y, z, dims))
    return;
  __global uchar *row = row_of(im, y, z);
  uint order = im->channel_order, n = im->num_channels;
  if (is_srgb(order))
    c = (float4)(linear_to_srgb(c.x), linear_to_srgb(c.y), linear_to_srgb(c.z), c.w);
  float4 m = unswz_float(order, c);
  switch (im->channel_data_type) {
  case CLK_UNORM_INT8: {
    uchar4 v = convert_uchar4_sat_rte(m * 255.0f);
    STOREN(uchar, v, row, x, n);
    break;
  }
  case CLK_FLOAT:
    STOREN(float, m, row, x, n);
    break;
  case CLK_UNORM_INT16: {
    ushort4 v = convert_ushort4_sat_rte(m * 65535.0f);
    STOREN(ushort, v, row, x, n);
    break;
  }
  case CLK_SNORM_INT8: {
    char4 v = convert_char4_sat_rte(fmax(m * 127.0f, -127.0f));
    STOREN(char, v, row, x, n);
    break;
  }
  case CLK_SNORM_INT16: {
    short4 v = convert_short4_sat_rte(fmax(m * 32767.0f, -32767.0f));
    STOREN(short, v, row, x, n);
    break;
  }
  case CLK_HALF_FLOAT: {
    half4 v = convert_half4_rte(m);
    STOREN(half, v, row, x, n);
    break;
  }
  case CLK_UNORM_SHORT_565: {
    uint4 v = convert_uint4_sat_rte(m * (float4)(31.0f, 63.0f, 31.0f, 0.0f));
    ((__global ushort *)row)[x] = (ushort)(min(v.x, 31u) << 11 | min(v.y, 63u) << 5 | min(v.z, 31u));
    break;
  }
  case CLK_UNORM_SHORT_555: {
    uint4 v = min(convert_uint4_sat_rte(m * 31.0f), 31u);
    ((__global ushort *)row)[x] = (ushort)(v.x << 10 | v.y << 5 | v.z);
    break;
  }
  case CLK_UNORM_INT_101010: {
    uint4 v = min(convert_uint4_sat_rte(m * 1023.0f), 1023u);
    ((__global uint *)row)[x] = v.x << 20 | v.y << 10 | v.z;
    break;
  }
  case CLK_UNORM_INT24: {
    uint v = min(convert_uint_sat_rte(m.x * 16777215.0f), 16777215u);
    ((__global uint *)row)[x] = v;
    break;
  }
  default:
    break;
  }
}

/* write_imagei (sign = 1) and write_imageui (sign = 0): saturate to the
 * channel type. */
INLINE void store_i(img_t im, int x, int y, int z, int dims, int4 c, int sign)
{
  if (write_outside(im, x, y, z, dims))
    return;
  __global uchar *row = row_of(im, y, z);
  uint n = im->num_channels;
  int4 m = unswz_int(im->channel_order, c);
  uint4 u = as_uint4(m);
  switch (im->channel_data_type) {
  case CLK_SIGNED_INT8: {
    char4 v = sign ? convert_char4_sat(m) : convert_char4_sat(u);
    STOREN(char, v, row, x, n);
    break;
  }
  case CLK_UNSIGNED_INT8: {
    uchar4 v = sign ? convert_uchar4_sat(m) : convert_uchar4_sat(u);
    STOREN(uchar, v, row, x, n);
    break;
  }
  case CLK_SIGNED_INT16: {
    short4 v = sign ? convert_short4_sat(m) : convert_short4_sat(u);
    STOREN(short, v, row, x, n);
    break;
  }
  case CLK_UNSIGNED_INT16: {
    ushort4 v = sign ? convert_ushort4_sat(m) : convert_ushort4_sat(u);
    STOREN(ushort, v, row, x, n);
    break;
  }
  case CLK_SIGNED_INT32: {
    int4 v = sign ? m : convert_int4_sat(u);
    STOREN(int, v, row, x, n);
    break;
  }
  case CLK_UNSIGNED_INT32: {
    uint4 v = sign ? convert_uint4_sat(m) : u;
    STOREN(uint, v, row, x, n);
    break;
  }
  default:
    break;
  }
}

/* ---- the overloads ----
 * Per image type: COORD_x(c) gives x, y, z of integer coordinates (the layer
 * of an array in the row (1D) or slice (2D) position); DIMS the filtered
 * axes; ARR whether it is an array. */

#define IMG1D image1d_t, int, float, 1, 0, c, 0, 0
#define IMG1DB image1d_buffer_t, int, float, 1, 0, c, 0, 0
#define IMG1DA image1d_array_t, int2, float2, 1, 1, c.x, c.y, 0
#define IMG2D image2d_t, int2, float2, 2, 0, c.x, c.y, 0
#define IMG2DA image2d_array_t, int4, float4, 2, 1, c.x, c.y, c.z
#define IMG3D image3d_t, int4, float4, 3, 0, c.x, c.y, c.z
#define IMG2DD image2d_depth_t, int2, float2, 2, 0, c.x, c.y, 0
#define IMG2DAD image2d_array_depth_t, int4, float4, 2, 1, c.x, c.y, c.z

/* Arguments of a sampled read: layer and float/int coordinates. */
#define LAYER_F(ARR, DIMS, cy, cz) ((ARR) ? layer_of_f(im, (DIMS) == 1 ? (float)(cy) : (float)(cz)) : 0)
#define LAYER_I(ARR, DIMS, cy, cz) ((ARR) ? layer_of_i(im, (DIMS) == 1 ? (int)(cy) : (int)(cz)) : 0)

/* Sampled reads (read_only images only). */
#define DEF_SAMPLED(IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                                   \
  OVLD float4 read_imagef(read_only IT img, sampler_t smp, FCT c)                          \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return sample_f(im, SMP(smp), (float)(cx), (float)(cy), (float)(cz), DIMS,             \
                    LAYER_F(ARR, DIMS, cy, cz));                                           \
  }                                                                                        \
  OVLD float4 read_imagef(read_only IT img, sampler_t smp, ICT c)                          \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return texel_f(im, SMP(smp), cx, (DIMS) >= 2 ? (int)(cy) : 0, (DIMS) == 3 ? (int)(cz) : 0, DIMS, \
                   LAYER_I(ARR, DIMS, cy, cz));                                            \
  }                                                                                        \
  OVLD int4 read_imagei(read_only IT img, sampler_t smp, FCT c)                            \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return sample_i(im, SMP(smp), (float)(cx), (float)(cy), (float)(cz), DIMS,             \
                    LAYER_F(ARR, DIMS, cy, cz));                                           \
  }                                                                                        \
  OVLD int4 read_imagei(read_only IT img, sampler_t smp, ICT c)                            \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return texel_i(im, SMP(smp), cx, (DIMS) >= 2 ? (int)(cy) : 0, (DIMS) == 3 ? (int)(cz) : 0, DIMS, \
                   LAYER_I(ARR, DIMS, cy, cz));                                            \
  }                                                                                        \
  OVLD uint4 read_imageui(read_only IT img, sampler_t smp, FCT c)                          \
  {                                                                                        \
    return as_uint4(read_imagei(img, smp, c));                                             \
  }                                                                                        \
  OVLD uint4 read_imageui(read_only IT img, sampler_t smp, ICT c)                          \
  {                                                                                        \
    return as_uint4(read_imagei(img, smp, c));                                             \
  }                                                                                        \
  OVLD half4 read_imageh(read_only IT img, sampler_t smp, FCT c)                           \
  {                                                                                        \
    return convert_half4(read_imagef(img, smp, c));                                        \
  }                                                                                        \
  OVLD half4 read_imageh(read_only IT img, sampler_t smp, ICT c)                           \
  {                                                                                        \
    return convert_half4(read_imagef(img, smp, c));                                        \
  }

#define DEF_SAMPLED_DEPTH(IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                             \
  OVLD float read_imagef(read_only IT img, sampler_t smp, FCT c)                           \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return sample_f(im, SMP(smp), (float)(cx), (float)(cy), (float)(cz), DIMS,             \
                    LAYER_F(ARR, DIMS, cy, cz))                                            \
        .x;                                                                                \
  }                                                                                        \
  OVLD float read_imagef(read_only IT img, sampler_t smp, ICT c)                           \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return texel_f(im, SMP(smp), cx, (int)(cy), 0, DIMS, LAYER_I(ARR, DIMS, cy, cz)).x;    \
  }

/* Samplerless reads (read_only and read_write). */
#define DEF_LOAD(ACC, IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                                 \
  OVLD float4 read_imagef(ACC IT img, ICT c)                                               \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return load_f(im, cx, (DIMS) == 1 && (ARR) ? layer_of_i(im, (int)(cy)) : (int)(cy),    \
                  (DIMS) == 2 && (ARR) ? layer_of_i(im, (int)(cz)) : (int)(cz), DIMS);     \
  }                                                                                        \
  OVLD int4 read_imagei(ACC IT img, ICT c)                                                 \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return load_i(im, cx, (DIMS) == 1 && (ARR) ? layer_of_i(im, (int)(cy)) : (int)(cy),    \
                  (DIMS) == 2 && (ARR) ? layer_of_i(im, (int)(cz)) : (int)(cz), DIMS);     \
  }                                                                                        \
  OVLD uint4 read_imageui(ACC IT img, ICT c)                                               \
  {                                                                                        \
    return as_uint4(read_imagei(img, c));                                                  \
  }                                                                                        \
  OVLD half4 read_imageh(ACC IT img, ICT c)                                                \
  {                                                                                        \
    return convert_half4(read_imagef(img, c));                                             \
  }

#define DEF_LOAD_DEPTH(ACC, IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                           \
  OVLD float read_imagef(ACC IT img, ICT c)                                                \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return load_f(im, cx, (int)(cy), (ARR) ? layer_of_i(im, (int)(cz)) : 0, DIMS).x;       \
  }

/* Writes (write_only and read_write).  The layer of an array outside the
 * array drops the write, as any coordinate outside. */
#define WDIMS(DIMS, ARR) ((ARR) ? (DIMS) + 1 : (DIMS))
#define WOUT(ACC, DIMS, ARR, cy, cz)                                                       \
  ((ARR) && (DIMS) == 1 ? outside((int)(cy), (int)im->array_size)                         \
   : (ARR)              ? outside((int)(cz), (int)im->array_size)                         \
                        : 0)
#define DEF_WRITE(ACC, IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                                \
  OVLD void write_imagef(ACC IT img, ICT c, float4 v)                                      \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    if (WOUT(ACC, DIMS, ARR, cy, cz))                                                      \
      return;                                                                              \
    store_f(im, cx, (int)(cy), (int)(cz), DIMS, v);                                        \
  }                                                                                        \
  OVLD void write_imagei(ACC IT img, ICT c, int4 v)                                        \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    if (WOUT(ACC, DIMS, ARR, cy, cz))                                                      \
      return;                                                                              \
    store_i(im, cx, (int)(cy), (int)(cz), DIMS, v, 1);                                     \
  }                                                                                        \
  OVLD void write_imageui(ACC IT img, ICT c, uint4 v)                                      \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    if (WOUT(ACC, DIMS, ARR, cy, cz))                                                      \
      return;                                                                              \
    store_i(im, cx, (int)(cy), (int)(cz), DIMS, as_int4(v), 0);                            \
  }                                                                                        \
  OVLD void write_imageh(ACC IT img, ICT c, half4 v)                                       \
  {                                                                                        \
    write_imagef(img, c, convert_float4(v));                                               \
  }

#define DEF_WRITE_DEPTH(ACC, IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                          \
  OVLD void write_imagef(ACC IT img, ICT c, float v)                                       \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    if (WOUT(ACC, DIMS, ARR, cy, cz))                                                      \
      return;                                                                              \
    store_f(im, cx, (int)(cy), (int)(cz), DIMS, (float4)(v, 0.0f, 0.0f, 1.0f));            \
  }

/* Queries. */
#define DEF_Q_ALL(ACC, IT, ...)                                                            \
  OVLD int get_image_width(ACC IT img)                                                     \
  {                                                                                        \
    return (int)DESC(img)->width;                                                          \
  }                                                                                        \
  OVLD int get_image_channel_data_type(ACC IT img)                                         \
  {                                                                                        \
    return (int)DESC(img)->channel_data_type;                                              \
  }                                                                                        \
  OVLD int get_image_channel_order(ACC IT img)                                             \
  {                                                                                        \
    return (int)DESC(img)->channel_order;                                                  \
  }
#define DEF_Q_2D(ACC, IT, ...)                                                             \
  OVLD int get_image_height(ACC IT img)                                                    \
  {                                                                                        \
    return (int)DESC(img)->height;                                                         \
  }                                                                                        \
  OVLD int2 get_image_dim(ACC IT img)                                                      \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return (int2)((int)im->width, (int)im->height);                                        \
  }
#define DEF_Q_ARR(ACC, IT, ...)                                                            \
  OVLD size_t get_image_array_size(ACC IT img)                                             \
  {                                                                                        \
    return DESC(img)->array_size;                                                          \
  }
#define DEF_Q_3D(ACC, IT, ...)                                                             \
  OVLD int get_image_height(ACC IT img)                                                    \
  {                                                                                        \
    return (int)DESC(img)->height;                                                         \
  }                                                                                        \
  OVLD int get_image_depth(ACC IT img)                                                     \
  {                                                                                        \
    return (int)DESC(img)->depth;                                                          \
  }                                                                                        \
  OVLD int4 get_image_dim(ACC IT img)                                                      \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return (int4)((int)im->width, (int)im->height, (int)im->depth, 0);                     \
  }

#define APPLY(F, ...) F(__VA_ARGS__)

/* Color images. */
#define FOR_COLOR(F, ACC)                                                                  \
  APPLY(F, ACC, IMG1D) APPLY(F, ACC, IMG1DB) APPLY(F, ACC, IMG1DA) APPLY(F, ACC, IMG2D)   \
  APPLY(F, ACC, IMG2DA) APPLY(F, ACC, IMG3D)
#define FOR_DEPTH(F, ACC) APPLY(F, ACC, IMG2DD) APPLY(F, ACC, IMG2DAD)
#define NOACC(F, ACC, ...) F(__VA_ARGS__)

APPLY(DEF_SAMPLED, IMG1D)
APPLY(DEF_SAMPLED, IMG1DA)
APPLY(DEF_SAMPLED, IMG2D)
APPLY(DEF_SAMPLED, IMG2DA)
APPLY(DEF_SAMPLED, IMG3D)
APPLY(DEF_SAMPLED_DEPTH, IMG2DD)
APPLY(DEF_SAMPLED_DEPTH, IMG2DAD)

FOR_COLOR(DEF_LOAD, read_only)
FOR_COLOR(DEF_LOAD, read_write)
FOR_DEPTH(DEF_LOAD_DEPTH, read_only)
FOR_DEPTH(DEF_LOAD_DEPTH, read_write)

FOR_COLOR(DEF_WRITE, write_only)
FOR_COLOR(DEF_WRITE, read_write)
FOR_DEPTH(DEF_WRITE_DEPTH, write_only)
FOR_DEPTH(DEF_WRITE_DEPTH, read_write)

#define FOR_ACC(F, IT) F(read_only, IT) F(write_only, IT) F(read_write, IT)
#define Q_ALL(ACC, IT) DEF_Q_ALL(ACC, IT)
#define Q_2D(ACC, IT) DEF_Q_2D(ACC, IT)
#define Q_ARR(ACC, IT) DEF_Q_ARR(ACC, IT)
#define Q_3D(ACC, IT) DEF_Q_3D(ACC, IT)
FOR_ACC(Q_ALL, image1d_t)
FOR_ACC(Q_ALL, image1d_buffer_t)
FOR_ACC(Q_ALL, image1d_array_t)
FOR_ACC(Q_ALL, image2d_t)
FOR_ACC(Q_ALL, image2d_array_t)
FOR_ACC(Q_ALL, image3d_t)
FOR_ACC(Q_ALL, image2d_depth_t)
FOR_ACC(Q_ALL, image2d_array_depth_t)
FOR_ACC(Q_2D, image2d_t)
FOR_ACC(Q_2D, image2d_array_t)
FOR_ACC(Q_2D, image2d_depth_t)
FOR_ACC(Q_2D, image2d_array_depth_t)
FOR_ACC(Q_3D, image3d_t)
FOR_ACC(Q_ARR, image1d_array_t)
FOR_ACC(Q_ARR, image2d_array_t)
FOR_ACC(Q_ARR, image2d_array_depth_t)

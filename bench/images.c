/* Image kernels (bench/README.md "images"): a 2D 5x5 convolution, a bilinear
 * resize and a 3D 3x3x3 box filter, each through images (read_imagef with a
 * constant sampler, write_imagef) and the same algorithm through buffers
 * (clamped indices, the bilinear weights computed by hand).  Every result is
 * checked against C.  The layout probe: the buffer forms again with their
 * input in 8x8 tiles of pixels instead of rows (the index computed by hand),
 * which is what a tiled image layout would cost and save.  The convolution
 * again on RGBA half images and the resize on RGBA unorm16 ones: the same
 * kernels, other formats.  A 3x3 box blur of a one-channel plane (CL_R, unorm8 or
 * unorm16, `.x` reads), the planes of video code, beside the same through a
 * buffer of uchar or ushort. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define CW 2048  /* convolution: CW x CW float4 */
#define RW 1024  /* resize: RW x RW RGBA8 to RO x RO */
#define RO 1536
#define BW 128   /* box filter: BW^3 floats */
#define PW 2048  /* plane blur: PW x PW, one channel */

static const char images_src[] =
    "constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
    "kernel void conv_img(read_only image2d_t in, write_only image2d_t out, constant float *w) {\n"
    "  int x = get_global_id(0), y = get_global_id(1); float4 s = 0.0f;\n"
    "  for (int j = -2; j <= 2; j++) for (int i = -2; i <= 2; i++)\n"
    "    s += w[(j + 2) * 5 + i + 2] * read_imagef(in, nearest, (int2)(x + i, y + j));\n"
    "  write_imagef(out, (int2)(x, y), s); }\n"
    "kernel void conv_buf(global const float4 *in, global float4 *out, constant float *w, int W, int H) {\n"
    "  int x = get_global_id(0), y = get_global_id(1); float4 s = 0.0f;\n"
    "  for (int j = -2; j <= 2; j++) for (int i = -2; i <= 2; i++)\n"
    "    s += w[(j + 2) * 5 + i + 2] * in[clamp(y + j, 0, H - 1) * W + clamp(x + i, 0, W - 1)];\n"
    "  out[y * W + x] = s; }\n"
    "kernel void resize_img(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float2 c = ((float2)(x, y) + 0.5f) / (float2)(get_image_width(out), get_image_height(out));\n"
    "  write_imagef(out, (int2)(x, y), read_imagef(in, bilinear, c)); }\n"
    "kernel void resize_buf(global const uchar4 *in, global uchar4 *out, int W, int H, int OW, int OH) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float u = ((float)x + 0.5f) / (float)OW * (float)W - 0.5f, v = ((float)y + 0.5f) / (float)OH * (float)H - 0.5f;\n"
    "  float fu = floor(u), fv = floor(v), a = u - fu, b = v - fv;\n"
    "  int x0 = clamp((int)fu, 0, W - 1), x1 = clamp((int)fu + 1, 0, W - 1);\n"
    "  int y0 = clamp((int)fv, 0, H - 1), y1 = clamp((int)fv + 1, 0, H - 1);\n"
    "  float4 p = (1 - a) * (1 - b) * convert_float4(in[y0 * W + x0]) + a * (1 - b) * convert_float4(in[y0 * W + x1])\n"
    "           + (1 - a) * b * convert_float4(in[y1 * W + x0]) + a * b * convert_float4(in[y1 * W + x1]);\n"
    "  out[y * OW + x] = convert_uchar4_sat_rte(p); }\n"
    "kernel void box_img(read_only image3d_t in, global float *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  int W = get_image_width(in), H = get_image_height(in); float s = 0.0f;\n"
    "  for (int k = -1; k <= 1; k++) for (int j = -1; j <= 1; j++) for (int i = -1; i <= 1; i++)\n"
    "    s += read_imagef(in, nearest, (int4)(x + i, y + j, z + k, 0)).x;\n"
    "  out[(z * H + y) * W + x] = s * (1.0f / 27.0f); }\n"
    "kernel void box_buf(global const float *in, global float *out, int W, int H, int D) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2); float s = 0.0f;\n"
    "  for (int k = -1; k <= 1; k++) for (int j = -1; j <= 1; j++) for (int i = -1; i <= 1; i++)\n"
    "    s += in[(clamp(z + k, 0, D - 1) * H + clamp(y + j, 0, H - 1)) * W + clamp(x + i, 0, W - 1)];\n"
    "  out[(z * H + y) * W + x] = s * (1.0f / 27.0f); }\n"
    "int tiled(int x, int y, int W) { return ((((y >> 3) * (W >> 3) + (x >> 3)) << 6) | ((y & 7) << 3) | (x & 7)); }\n"
    "kernel void conv_tile(global const float4 *in, global float4 *out, constant float *w, int W, int H) {\n"
    "  int x = get_global_id(0), y = get_global_id(1); float4 s = 0.0f;\n"
    "  for (int j = -2; j <= 2; j++) for (int i = -2; i <= 2; i++)\n"
    "    s += w[(j + 2) * 5 + i + 2] * in[tiled(clamp(x + i, 0, W - 1), clamp(y + j, 0, H - 1), W)];\n"
    "  out[y * W + x] = s; }\n"
    "kernel void resize_tile(global const uchar4 *in, global uchar4 *out, int W, int H, int OW, int OH) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float u = ((float)x + 0.5f) / (float)OW * (float)W - 0.5f, v = ((float)y + 0.5f) / (float)OH * (float)H - 0.5f;\n"
    "  float fu = floor(u), fv = floor(v), a = u - fu, b = v - fv;\n"
    "  int x0 = clamp((int)fu, 0, W - 1), x1 = clamp((int)fu + 1, 0, W - 1);\n"
    "  int y0 = clamp((int)fv, 0, H - 1), y1 = clamp((int)fv + 1, 0, H - 1);\n"
    "  float4 p = (1 - a) * (1 - b) * convert_float4(in[tiled(x0, y0, W)]) + a * (1 - b) * convert_float4(in[tiled(x1, y0, W)])\n"
    "           + (1 - a) * b * convert_float4(in[tiled(x0, y1, W)]) + a * b * convert_float4(in[tiled(x1, y1, W)]);\n"
    "  out[y * OW + x] = convert_uchar4_sat_rte(p); }\n"
    "kernel void conv_arg(read_only image2d_t in, write_only image2d_t out, constant float *w, sampler_t smp) {\n"
    "  int x = get_global_id(0), y = get_global_id(1); float4 s = 0.0f;\n"
    "  for (int j = -2; j <= 2; j++) for (int i = -2; i <= 2; i++)\n"
    "    s += w[(j + 2) * 5 + i + 2] * read_imagef(in, smp, (int2)(x + i, y + j));\n"
    "  write_imagef(out, (int2)(x, y), s); }\n"
    "kernel void resize_arg(read_only image2d_t in, write_only image2d_t out, sampler_t smp) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float2 c = ((float2)(x, y) + 0.5f) / (float2)(get_image_width(out), get_image_height(out));\n"
    "  write_imagef(out, (int2)(x, y), read_imagef(in, smp, c)); }\n"
    "kernel void gen_img(write_only image2d_t out, float a) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imagef(out, (int2)(x, y), (float4)(x * a, y * a, (x + y) * a, 1.0f)); }\n"
    "kernel void gen_buf(global float4 *out, float a, int W) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * W + x] = (float4)(x * a, y * a, (x + y) * a, 1.0f); }\n"
    "kernel void blur_img(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1); float s = 0.0f;\n"
    "  for (int j = -1; j <= 1; j++) for (int i = -1; i <= 1; i++)\n"
    "    s += read_imagef(in, nearest, (int2)(x + i, y + j)).x;\n"
    "  write_imagef(out, (int2)(x, y), (float4)(s * (1.0f / 9.0f), 0.0f, 0.0f, 1.0f)); }\n"
    "kernel void blur8_buf(global const uchar *in, global uchar *out, int W, int H) {\n"
    "  int x = get_global_id(0), y = get_global_id(1); float s = 0.0f;\n"
    "  for (int j = -1; j <= 1; j++) for (int i = -1; i <= 1; i++)\n"
    "    s += in[clamp(y + j, 0, H - 1) * W + clamp(x + i, 0, W - 1)];\n"
    "  out[y * W + x] = convert_uchar_sat_rte(s * (1.0f / 9.0f)); }\n"
    "kernel void blur16_buf(global const ushort *in, global ushort *out, int W, int H) {\n"
    "  int x = get_global_id(0), y = get_global_id(1); float s = 0.0f;\n"
    "  for (int j = -1; j <= 1; j++) for (int i = -1; i <= 1; i++)\n"
    "    s += in[clamp(y + j, 0, H - 1) * W + clamp(x + i, 0, W - 1)];\n"
    "  out[y * W + x] = convert_ushort_sat_rte(s * (1.0f / 9.0f)); }\n";

enum { CONV_IMG, CONV_BUF, RESIZE_IMG, RESIZE_BUF, BOX_IMG, BOX_BUF, CONV_TILE, RESIZE_TILE, GEN_IMG, GEN_BUF,
       CONV_ARG, RESIZE_ARG, CONV_HALF, RESIZE_16, BLUR8_IMG, BLUR8_BUF, BLUR16_IMG, BLUR16_BUF };
static const char *const names[] = {"conv_img",  "conv_buf",    "resize_img", "resize_buf", "box_img",
                                    "box_buf",   "conv_tile",   "resize_tile", "gen_img",   "gen_buf",
                                    "conv_arg",  "resize_arg",  "conv_img",   "resize_img",
                                    "blur_img",  "blur8_buf",   "blur_img",   "blur16_buf"};

static int is_blur(long kind)
{
  return kind == BLUR8_IMG || kind == BLUR8_BUF || kind == BLUR16_IMG || kind == BLUR16_BUF;
}

/* IEEE half bits -> float. */
static float half_value(cl_half h)
{
  int e = (h >> 10) & 31, m = h & 1023;
  float v = e == 31 ? INFINITY : e ? ldexpf((float)(m | 1024), e - 25) : ldexpf((float)m, -24);
  return h & 0x8000 ? -v : v;
}

/* The half bits of k / 1024 (k < 2048): exact. */
static cl_half half_of_k1024(unsigned k)
{
  if (!k)
    return 0;
  int e = 0;
  while ((k >> (e + 1)) != 0)
    e++;
  return (cl_half)((e + 5) << 10 | ((k << (10 - e)) & 1023));
}

/* A copy of row-major pixels (elem bytes each, w and h multiples of 8) in
 * 8x8 tiles, the tiles row by row. */
static void *to_tiles(const void *rows, size_t w, size_t h, size_t elem)
{
  unsigned char *t = malloc(w * h * elem);
  for (size_t y = 0; t && y < h; y++)
    for (size_t x = 0; x < w; x++) {
      size_t at = (((y >> 3) * (w >> 3) + (x >> 3)) << 6) | ((y & 7) << 3) | (x & 7);
      memcpy(t + at * elem, (const unsigned char *)rows + (y * w + x) * elem, elem);
    }
  return t;
}

typedef struct images_st {
  long kind;
  size_t w, h, d, ow, oh;
  void *in, *out;
  float wts[25];
  cl_mem din, dout, dw;
  cl_sampler smp;
  cl_program p;
  cl_kernel k;
} images_st;

static int is_image(long kind)
{
  return kind == CONV_IMG || kind == RESIZE_IMG || kind == BOX_IMG || kind == GEN_IMG || kind == CONV_ARG ||
         kind == RESIZE_ARG || kind == CONV_HALF || kind == RESIZE_16 || kind == BLUR8_IMG || kind == BLUR16_IMG;
}

static cl_mem image(bench_env *e, cl_mem_object_type type, cl_channel_order order, cl_channel_type ctype,
                    size_t w, size_t h, size_t d, cl_mem_flags flags, void *host)
{
  cl_image_format f = {order, ctype};
  cl_image_desc desc;
  memset(&desc, 0, sizeof(desc));
  desc.image_type = type;
  desc.image_width = w, desc.image_height = h, desc.image_depth = d;
  cl_int err;
  cl_mem m = clCreateImage(e->ctx, flags, &f, &desc, host, &err);
  bench_check(err, "clCreateImage");
  return m;
}

static void *images_setup(bench_env *e, long kind)
{
  images_st *s = calloc(1, sizeof(*s));
  s->kind = kind;
  cl_bool img = CL_FALSE;
  clGetDeviceInfo(e->dev, CL_DEVICE_IMAGE_SUPPORT, sizeof(img), &img, NULL);
  if (is_image(kind) && !img) {
    free(s);
    return NULL;
  }
  double lin = sqrt(e->scale);
  size_t n;
  switch (kind) {
  case CONV_IMG: case CONV_BUF: case CONV_TILE: case CONV_ARG: case CONV_HALF:
    s->w = s->h = (size_t)(CW * lin) / 16 * 16, s->d = 1;
    n = s->w * s->h * 4;
    s->in = malloc(n * 4), s->out = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
      ((float *)s->in)[i] = (float)(i % 1013) * 0.001f;
    for (int i = 0; i < 25; i++)
      s->wts[i] = (float)(i % 7) * 0.03f - 0.05f;
    s->dw = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(s->wts), s->wts);
    if (kind == CONV_HALF) {
      /* the same values, as halves: k / 1024 for k < 1013, exact */
      cl_half *h = malloc(n * 2);
      for (size_t i = 0; i < n; i++)
        h[i] = half_of_k1024((unsigned)(i % 1013));
      for (size_t i = 0; i < n; i++)
        ((float *)s->in)[i] = half_value(h[i]);
      s->din = image(e, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_HALF_FLOAT, s->w, s->h, 1,
                     CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, h);
      s->dout = image(e, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_HALF_FLOAT, s->w, s->h, 1, CL_MEM_WRITE_ONLY, NULL);
      free(h);
    } else if (kind == CONV_IMG || kind == CONV_ARG) {
      s->din = image(e, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, s->w, s->h, 1,
                     CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->in);
      s->dout = image(e, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, s->w, s->h, 1, CL_MEM_WRITE_ONLY, NULL);
    } else {
      void *t = kind == CONV_TILE ? to_tiles(s->in, s->w, s->h, 16) : NULL;
      s->din = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, t ? t : s->in);
      free(t);
      s->dout = bench_buffer(e, CL_MEM_WRITE_ONLY, n * 4, NULL);
    }
    break;
  case RESIZE_IMG: case RESIZE_BUF: case RESIZE_TILE: case RESIZE_ARG:
    s->w = s->h = (size_t)(RW * lin) / 16 * 16, s->d = 1;
    s->ow = s->oh = s->w * RO / RW;
    s->in = malloc(s->w * s->h * 4), s->out = malloc(s->ow * s->oh * 4);
    for (size_t i = 0; i < s->w * s->h * 4; i++)
      ((unsigned char *)s->in)[i] = (unsigned char)((i * 2654435761u) >> 24);
    if (kind == RESIZE_IMG || kind == RESIZE_ARG) {
      s->din = image(e, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, s->w, s->h, 1,
                     CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->in);
      s->dout = image(e, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, s->ow, s->oh, 1, CL_MEM_WRITE_ONLY, NULL);
    } else {
      void *t = kind == RESIZE_TILE ? to_tiles(s->in, s->w, s->h, 4) : NULL;
      s->din = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->w * s->h * 4, t ? t : s->in);
      free(t);
      s->dout = bench_buffer(e, CL_MEM_WRITE_ONLY, s->ow * s->oh * 4, NULL);
    }
    break;
  case RESIZE_16:
    s->w = s->h = (size_t)(RW * lin) / 16 * 16, s->d = 1;
    s->ow = s->oh = s->w * RO / RW;
    s->in = malloc(s->w * s->h * 8), s->out = malloc(s->ow * s->oh * 8);
    for (size_t i = 0; i < s->w * s->h * 4; i++)
      ((cl_ushort *)s->in)[i] = (cl_ushort)((i * 2654435761u) >> 16);
    s->din = image(e, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT16, s->w, s->h, 1,
                   CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->in);
    s->dout = image(e, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT16, s->ow, s->oh, 1, CL_MEM_WRITE_ONLY, NULL);
    break;
  case BLUR8_IMG: case BLUR8_BUF: case BLUR16_IMG: case BLUR16_BUF: {
    size_t b = kind == BLUR16_IMG || kind == BLUR16_BUF ? 2 : 1;
    s->w = s->h = (size_t)(PW * lin) / 16 * 16, s->d = 1;
    n = s->w * s->h;
    s->in = malloc(n * b), s->out = malloc(n * b);
    for (size_t i = 0; i < n; i++)
      if (b == 2)
        ((cl_ushort *)s->in)[i] = (cl_ushort)((i * 2654435761u) >> 16);
      else
        ((unsigned char *)s->in)[i] = (unsigned char)((i * 2654435761u) >> 24);
    if (is_image(kind)) {
      cl_channel_type t = b == 2 ? CL_UNORM_INT16 : CL_UNORM_INT8;
      s->din = image(e, CL_MEM_OBJECT_IMAGE2D, CL_R, t, s->w, s->h, 1, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->in);
      s->dout = image(e, CL_MEM_OBJECT_IMAGE2D, CL_R, t, s->w, s->h, 1, CL_MEM_WRITE_ONLY, NULL);
    } else {
      s->din = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * b, s->in);
      s->dout = bench_buffer(e, CL_MEM_WRITE_ONLY, n * b, NULL);
    }
    break;
  }
  case GEN_IMG: case GEN_BUF:
    s->w = s->h = (size_t)(CW * lin) / 16 * 16, s->d = 1;
    s->out = malloc(s->w * s->h * 16);
    if (kind == GEN_IMG)
      s->dout = image(e, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, s->w, s->h, 1, CL_MEM_WRITE_ONLY, NULL);
    else
      s->dout = bench_buffer(e, CL_MEM_WRITE_ONLY, s->w * s->h * 16, NULL);
    break;
  default:
    s->w = s->h = s->d = (size_t)(BW * cbrt(e->scale)) / 16 * 16;
    n = s->w * s->h * s->d;
    s->in = malloc(n * 4), s->out = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
      ((float *)s->in)[i] = (float)(i % 997) * 0.01f;
    if (kind == BOX_IMG)
      s->din = image(e, CL_MEM_OBJECT_IMAGE3D, CL_R, CL_FLOAT, s->w, s->h, s->d,
                     CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->in);
    else
      s->din = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, s->in);
    s->dout = bench_buffer(e, CL_MEM_WRITE_ONLY, n * 4, NULL);
    break;
  }
  s->p = bench_build(e, images_src, NULL);
  s->k = bench_kernel(s->p, names[kind]);
  int W = (int)s->w, H = (int)s->h, D = (int)s->d, OW = (int)s->ow, OH = (int)s->oh;
  switch (kind) {
  case CONV_IMG: case CONV_HALF:
    bench_args(s->k, 3, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, sizeof(cl_mem), &s->dw);
    break;
  case CONV_BUF: case CONV_TILE: case BLUR8_BUF: case BLUR16_BUF:
    if (is_blur(kind)) {
      bench_args(s->k, 4, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, sizeof(int), &W, sizeof(int), &H);
      break;
    }
    bench_args(s->k, 5, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, sizeof(cl_mem), &s->dw, sizeof(int), &W,
               sizeof(int), &H);
    break;
  case RESIZE_IMG: case RESIZE_16: case BOX_IMG: case BLUR8_IMG: case BLUR16_IMG:
    bench_args(s->k, 2, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout);
    break;
  case CONV_ARG: case RESIZE_ARG: {
    cl_int err;
    s->smp = clCreateSampler(e->ctx, kind == RESIZE_ARG, CL_ADDRESS_CLAMP_TO_EDGE,
                             kind == RESIZE_ARG ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &err);
    bench_check(err, "clCreateSampler");
    if (kind == CONV_ARG)
      bench_args(s->k, 4, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, sizeof(cl_mem), &s->dw,
                 sizeof(cl_sampler), &s->smp);
    else
      bench_args(s->k, 3, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, sizeof(cl_sampler), &s->smp);
    break;
  }
  case GEN_IMG: case GEN_BUF: {
    float a = 1.0f / 1024.0f;
    if (kind == GEN_IMG)
      bench_args(s->k, 2, sizeof(cl_mem), &s->dout, sizeof(float), &a);
    else
      bench_args(s->k, 3, sizeof(cl_mem), &s->dout, sizeof(float), &a, sizeof(int), &W);
    break;
  }
  case RESIZE_BUF: case RESIZE_TILE:
    bench_args(s->k, 6, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, sizeof(int), &W, sizeof(int), &H,
               sizeof(int), &OW, sizeof(int), &OH);
    break;
  default:
    bench_args(s->k, 5, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, sizeof(int), &W, sizeof(int), &H,
               sizeof(int), &D);
    break;
  }
  return s;
}

static double images_run(bench_env *e, void *p)
{
  images_st *s = p;
  size_t local[3] = {16, 16, 1};
  if (s->kind == RESIZE_IMG || s->kind == RESIZE_BUF || s->kind == RESIZE_TILE || s->kind == RESIZE_ARG ||
      s->kind == RESIZE_16) {
    size_t g[2] = {s->ow, s->oh};
    return bench_ndrange_time(e, s->k, 2, g, local);
  }
  if (s->kind == BOX_IMG || s->kind == BOX_BUF) {
    size_t g[3] = {s->w, s->h, s->d};
    return bench_ndrange_time(e, s->k, 3, g, local);
  }
  size_t g[2] = {s->w, s->h};
  return bench_ndrange_time(e, s->k, 2, g, local);
}

static int clampi(int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* Channel i of an RGBA image of 8-bit (bytes 1) or 16-bit channels. */
static float channel(const void *p, size_t i, int bytes)
{
  return bytes == 2 ? (float)((const cl_ushort *)p)[i] : (float)((const unsigned char *)p)[i];
}

/* The bilinear resize against C (every 5th row, 3rd column), within tol. */
static int resize_ok(const images_st *s, int bytes, float tol)
{
  int W = (int)s->w, H = (int)s->h;
  for (size_t y = 0; y < s->oh; y += 5)
    for (size_t x = 0; x < s->ow; x += 3) {
      float u = ((float)x + 0.5f) / (float)s->ow * (float)W - 0.5f, v = ((float)y + 0.5f) / (float)s->oh * (float)H - 0.5f;
      float fu = floorf(u), fv = floorf(v), a = u - fu, b = v - fv;
      int x0 = clampi((int)fu, 0, W - 1), x1 = clampi((int)fu + 1, 0, W - 1);
      int y0 = clampi((int)fv, 0, H - 1), y1 = clampi((int)fv + 1, 0, H - 1);
      for (int c = 0; c < 4; c++) {
        float want = (1 - a) * (1 - b) * channel(s->in, ((size_t)y0 * W + x0) * 4 + c, bytes) +
                     a * (1 - b) * channel(s->in, ((size_t)y0 * W + x1) * 4 + c, bytes) +
                     (1 - a) * b * channel(s->in, ((size_t)y1 * W + x0) * 4 + c, bytes) +
                     a * b * channel(s->in, ((size_t)y1 * W + x1) * 4 + c, bytes);
        if (fabsf(channel(s->out, (y * s->ow + x) * 4 + c, bytes) - want) > tol)
          return 0;
      }
    }
  return 1;
}

static int images_verify(bench_env *e, void *p)
{
  images_st *s = p;
  int W = (int)s->w, H = (int)s->h, D = (int)s->d;
  int resize = s->kind == RESIZE_IMG || s->kind == RESIZE_BUF || s->kind == RESIZE_TILE || s->kind == RESIZE_ARG ||
               s->kind == RESIZE_16;
  if (is_image(s->kind) && s->kind != BOX_IMG) {
    size_t origin[3] = {0, 0, 0}, region[3] = {resize ? s->ow : s->w, resize ? s->oh : s->h, 1};
    bench_check(clEnqueueReadImage(e->q, s->dout, CL_TRUE, origin, region, 0, 0, s->out, 0, NULL, NULL), "read");
  } else {
    size_t bytes = s->kind == RESIZE_BUF || s->kind == RESIZE_TILE ? s->ow * s->oh * 4
                   : s->kind == CONV_BUF || s->kind == CONV_TILE || s->kind == GEN_BUF ? s->w * s->h * 16
                                                                   : s->w * s->h * s->d * 4;
    if (is_blur(s->kind))
      bytes = s->w * s->h * (s->kind == BLUR16_BUF ? 2 : 1);
    bench_check(clEnqueueReadBuffer(e->q, s->dout, CL_TRUE, 0, bytes, s->out, 0, NULL, NULL), "read");
  }
  if (s->kind == CONV_IMG || s->kind == CONV_BUF || s->kind == CONV_TILE || s->kind == CONV_ARG ||
      s->kind == CONV_HALF) {
    const float *in = s->in, *out = s->out;
    const cl_half *hout = s->out;
    float tol = s->kind == CONV_HALF ? 1e-3f : 1e-4f; /* the result rounded to half */
    for (int y = 0; y < H; y += 7)
      for (int x = 0; x < W; x += 3)
        for (int c = 0; c < 4; c++) {
          float sum = 0;
          for (int j = -2; j <= 2; j++)
            for (int i = -2; i <= 2; i++)
              sum += s->wts[(j + 2) * 5 + i + 2] * in[((size_t)clampi(y + j, 0, H - 1) * W + clampi(x + i, 0, W - 1)) * 4 + c];
          size_t at = ((size_t)y * W + x) * 4 + c;
          if (fabsf((s->kind == CONV_HALF ? half_value(hout[at]) : out[at]) - sum) > tol * (1 + fabsf(sum)))
            return 0;
        }
    return 1;
  }
  if (is_blur(s->kind)) {
    /* unorm: the image divides by the maximum and multiplies back, so the
     * two forms may round the ninth apart: a step of 1 */
    int b16 = s->kind == BLUR16_IMG || s->kind == BLUR16_BUF;
    for (int y = 0; y < H; y += 3)
      for (int x = 0; x < W; x++) {
        float sum = 0;
        for (int j = -1; j <= 1; j++)
          for (int i = -1; i <= 1; i++)
            sum += channel(s->in, (size_t)clampi(y + j, 0, H - 1) * W + clampi(x + i, 0, W - 1), b16 ? 2 : 1);
        if (fabsf(channel(s->out, (size_t)y * W + x, b16 ? 2 : 1) - sum / 9.0f) > 1.0f)
          return 0;
      }
    return 1;
  }
  if (s->kind == GEN_IMG || s->kind == GEN_BUF) {
    const float *out = s->out, a = 1.0f / 1024.0f;
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        const float *o = out + ((size_t)y * W + x) * 4;
        if (o[0] != x * a || o[1] != y * a || o[2] != (x + y) * a || o[3] != 1.0f)
          return 0;
      }
    return 1;
  }
  if (s->kind == RESIZE_16) /* coarser weights (8 bits) as for RGBA8: 2.5 steps of 8 bits */
    return resize_ok(s, 2, 2.5f * 257.0f);
  if (resize) /* an image's weights may be coarser (PoCL, GPUs: 8 bits): a step of 2 */
    return resize_ok(s, 1, 2.5f);
  const float *in = s->in, *out = s->out;
  for (int z = 0; z < D; z += 5)
    for (int y = 0; y < H; y += 3)
      for (int x = 0; x < W; x++) {
        float sum = 0;
        for (int k = -1; k <= 1; k++)
          for (int j = -1; j <= 1; j++)
            for (int i = -1; i <= 1; i++)
              sum += in[((size_t)clampi(z + k, 0, D - 1) * H + clampi(y + j, 0, H - 1)) * W + clampi(x + i, 0, W - 1)];
        sum *= 1.0f / 27.0f;
        if (fabsf(out[((size_t)z * H + y) * W + x] - sum) > 1e-4f * (1 + fabsf(sum)))
          return 0;
      }
  return 1;
}

static void images_teardown(bench_env *e, void *p)
{
  (void)e;
  images_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  if (s->din)
    clReleaseMemObject(s->din);
  clReleaseMemObject(s->dout);
  if (s->dw)
    clReleaseMemObject(s->dw);
  if (s->smp)
    clReleaseSampler(s->smp);
  free(s->in), free(s->out);
  free(s);
}

#define I(name, kind) {name, images_setup, images_run, images_verify, images_teardown, NULL, kind, 0}
const bench_def bench_images_defs[] = {
  I("image conv 5x5 RGBA float 2048^2 (images)", CONV_IMG),
  I("image conv 5x5 RGBA float 2048^2 (buffers)", CONV_BUF),
  I("image conv 5x5 RGBA float 2048^2 (images, sampler argument)", CONV_ARG),
  I("image conv 5x5 RGBA half 2048^2 (images)", CONV_HALF),
  I("image bilinear resize RGBA8 1024^2->1536^2 (images)", RESIZE_IMG),
  I("image bilinear resize RGBA8 1024^2->1536^2 (images, sampler argument)", RESIZE_ARG),
  I("image bilinear resize RGBA8 1024^2->1536^2 (buffers)", RESIZE_BUF),
  I("image bilinear resize RGBA unorm16 1024^2->1536^2 (images)", RESIZE_16),
  I("image 3D box 3x3x3 float 128^3 (images)", BOX_IMG),
  I("image 3D box 3x3x3 float 128^3 (buffers)", BOX_BUF),
  I("image blur 3x3 R unorm8 2048^2 (images)", BLUR8_IMG),
  I("image blur 3x3 R unorm8 2048^2 (buffers)", BLUR8_BUF),
  I("image blur 3x3 R unorm16 2048^2 (images)", BLUR16_IMG),
  I("image blur 3x3 R unorm16 2048^2 (buffers)", BLUR16_BUF),
  I("image write RGBA float 2048^2 (images)", GEN_IMG),
  I("image write RGBA float 2048^2 (buffers)", GEN_BUF),
  I("image layout probe: conv 5x5 (buffers, input in 8x8 tiles)", CONV_TILE),
  I("image layout probe: bilinear resize (buffers, input in 8x8 tiles)", RESIZE_TILE),
};
const size_t bench_images_count = sizeof(bench_images_defs) / sizeof(bench_images_defs[0]);

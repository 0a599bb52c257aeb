/* The image builtins (builtins/image.cl) through the whole compiler, run on
 * hand-built image descriptors (builtins/lanecl_image.h) and compared with a
 * reference written here from the OpenCL C spec ("Image read and write
 * functions") and the API spec's addressing, filtering and conversion rules:
 * every image type, channel order and channel type, every addressing mode,
 * both filters, normalized and unnormalized coordinates, integer and float
 * coordinates, samplerless reads, writes (3D and read_write included), the
 * queries, kernel-argument, kernel-scope and program-scope samplers.  Every
 * builtin overload is also built into one program (a call the library does
 * not define fails the build at dlopen). */
#include "tests/compiler/wg_harness.h"

#include <math.h>

#include "builtins/lanecl_image.h"

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
static const char all_src[] =
    /* read_imageh/write_imageh: only where the device has cl_khr_fp16. */
    "#ifdef cl_khr_fp16\n"
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#define HALF(...) __VA_ARGS__\n"
    "#else\n"
    "#define HALF(...)\n"
    "#endif\n"
    "#define RD(IT, IC, FC) \\\n"
    "kernel void r_##IT(read_only IT im, sampler_t s, global float4 *f, global int4 *i, global uint4 *u) {\\\n"
    "  f[0] = read_imagef(im, s, (IC)0); f[1] = read_imagef(im, s, (FC)0.5f); f[2] = read_imagef(im, (IC)0);\\\n"
    "  i[0] = read_imagei(im, s, (IC)0); i[1] = read_imagei(im, s, (FC)0.5f); i[2] = read_imagei(im, (IC)0);\\\n"
    "  u[0] = read_imageui(im, s, (IC)0); u[1] = read_imageui(im, s, (FC)0.5f); u[2] = read_imageui(im, (IC)0);\\\n"
    "  HALF(f[3] = convert_float4(read_imageh(im, s, (IC)0)) + convert_float4(read_imageh(im, s, (FC)0.5f))\\\n"
    "         + convert_float4(read_imageh(im, (IC)0));)\\\n"
    "  i[3] = (int4)(get_image_width(im), get_image_channel_data_type(im), get_image_channel_order(im), 0); }\\\n"
    "kernel void rw_##IT(read_write IT im, global float4 *f, global int4 *i, global uint4 *u) {\\\n"
    "  f[0] = read_imagef(im, (IC)0); i[0] = read_imagei(im, (IC)0); u[0] = read_imageui(im, (IC)0);\\\n"
    "  HALF(f[1] = convert_float4(read_imageh(im, (IC)0));)\\\n"
    "  write_imagef(im, (IC)0, f[2]); write_imagei(im, (IC)0, i[2]); write_imageui(im, (IC)0, u[2]);\\\n"
    "  HALF(write_imageh(im, (IC)0, convert_half4(f[3]));)\\\n"
    "  i[3] = (int4)(get_image_width(im), get_image_channel_data_type(im), get_image_channel_order(im), 0); }\\\n"
    "kernel void w_##IT(write_only IT im, global float4 *f, global int4 *i, global uint4 *u) {\\\n"
    "  write_imagef(im, (IC)0, f[2]); write_imagei(im, (IC)0, i[2]); write_imageui(im, (IC)0, u[2]);\\\n"
    "  HALF(write_imageh(im, (IC)0, convert_half4(f[3]));)\\\n"
    "  i[3] = (int4)(get_image_width(im), get_image_channel_data_type(im), get_image_channel_order(im), 0); }\n"
    "RD(image1d_t, int, float)\n"
    "RD(image1d_array_t, int2, float2)\n"
    "RD(image2d_t, int2, float2)\n"
    "RD(image2d_array_t, int4, float4)\n"
    "RD(image3d_t, int4, float4)\n"
    "kernel void r_b(read_only image1d_buffer_t im, global float4 *f, global int4 *i, global uint4 *u) {\n"
    "  f[0] = read_imagef(im, 0); i[0] = read_imagei(im, 0); u[0] = read_imageui(im, 0);\n"
    "  HALF(f[1] = convert_float4(read_imageh(im, 0));)\n"
    "  i[3] = (int4)(get_image_width(im), get_image_channel_data_type(im), get_image_channel_order(im), 0); }\n"
    "kernel void rw_b(read_write image1d_buffer_t im, global float4 *f, global int4 *i, global uint4 *u) {\n"
    "  f[0] = read_imagef(im, 0); i[0] = read_imagei(im, 0); u[0] = read_imageui(im, 0);\n"
    "  write_imagef(im, 1, f[2]); write_imagei(im, 1, i[2]); write_imageui(im, 1, u[2]);\n"
    "  HALF(write_imageh(im, 1, convert_half4(f[3]));) i[3].x = get_image_width(im); }\n"
    "kernel void w_b(write_only image1d_buffer_t im, global float4 *f, global int4 *i, global uint4 *u) {\n"
    "  write_imagef(im, 1, f[2]); write_imagei(im, 1, i[2]); write_imageui(im, 1, u[2]);\n"
    "  HALF(write_imageh(im, 1, convert_half4(f[3]));) i[3].x = get_image_width(im); }\n"
    "#define DEPTH(IT, IC, FC) \\\n"
    "kernel void d_##IT(read_only IT im, write_only IT wo, read_write IT rw, sampler_t s, global float *f) {\\\n"
    "  f[0] = read_imagef(im, s, (IC)0) + read_imagef(im, s, (FC)0.5f) + read_imagef(im, (IC)0) + read_imagef(rw, (IC)0);\\\n"
    "  write_imagef(wo, (IC)0, f[1]); write_imagef(rw, (IC)1, f[2]);\\\n"
    "  int2 d = get_image_dim(im) + get_image_dim(wo) + get_image_dim(rw);\\\n"
    "  f[3] = d.x + d.y + get_image_width(im) + get_image_height(wo) + get_image_channel_order(rw)\\\n"
    "         + get_image_channel_data_type(im); }\n"
    "DEPTH(image2d_depth_t, int2, float2)\n"
    "DEPTH(image2d_array_depth_t, int4, float4)\n"
    "kernel void arr(read_only image1d_array_t a, write_only image2d_array_t b, read_write image2d_array_depth_t c,\n"
    "                global long *o) { o[0] = get_image_array_size(a) + get_image_array_size(b)\n"
    "  + get_image_array_size(c); }\n"
    "kernel void dims(read_only image3d_t a, write_only image3d_t b, read_write image3d_t c, global int4 *o) {\n"
    "  o[0] = get_image_dim(a) + get_image_dim(b) + get_image_dim(c);\n"
    "  o[1] = (int4)(get_image_depth(a), get_image_depth(b), get_image_depth(c), get_image_height(c)); }\n";

/* ---- formats ---- */

typedef struct fmt {
  unsigned order, type;
} fmt;

static int is_packed(unsigned type)
{
  return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010;
}

static int chan_count(unsigned order)
{
  switch (order) {
  case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: case CL_DEPTH: return 1;
  case CL_RG: case CL_RA: case CL_Rx: return 2;
  case CL_RGB: case CL_RGx: case CL_sRGB: return 3;
  default: return 4;
  }
}

static int type_size(unsigned type)
{
  switch (type) {
  case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
  case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return 4;
  default: return 2;
  }
}

static int elem_size(fmt f)
{
  if (is_packed(f.type))
    return f.type == CL_UNORM_INT_101010 ? 4 : 2;
  return chan_count(f.order) * type_size(f.type);
}

static int is_srgb(unsigned o)
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
static uint32_t rnd(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}
static float rndf(float lo, float hi)
{
  return lo + (hi - lo) * (float)(rnd() & 0xffffff) / 16777216.0f;
}

static void timg_make(timg *t, int kind, fmt f, int w, int h, int d, int layers)
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

static unsigned char *pixel(const timg *t, int x, int y, int z)
{
  return t->mem + (size_t)z * t->d.slice_pitch + (size_t)y * t->d.row_pitch + (size_t)x * t->d.elem_size;
}

/* ---- the reference ---- */

static float srgb_lin(float c)
{
  return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static void ref_texel_f(const timg *t, int x, int y, int z, float o[4])
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

static void ref_texel_i(const timg *t, int x, int y, int z, int64_t o[4])
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

static int border_alpha(unsigned order)
{
  return order == CL_R || order == CL_RG || order == CL_RGB || order == CL_LUMINANCE || order == CL_sRGB;
}

/* Texel (i[0], i[1], i[2]) of the filtered axes, with the sampler's
 * addressing outside: 1 if it is the border color. */
static int addressed(const timg *t, unsigned s, const int *i, int layer, int *x, int *y, int *z)
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

static void ref_read_f(const timg *t, unsigned s, const float *c, float o[4])
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

/* ---- running ---- */

#define NW 37 /* work-items: a vector remainder */

static wg_prog prog;
static int prog_built;

static void build_once(void)
{
  if (!prog_built) {
    wg_build(src, levels[0], &prog);
    prog_built = 1;
  }
}

static const char *sampler_name(unsigned s, char *buf)
{
  static const char *am[] = {"none", "?", "clamp_to_edge", "?", "clamp", "?", "repeat", "?", "mirrored"};
  sprintf(buf, "%s|%s|%s", s & 1 ? "norm" : "unnorm", am[s & 0xe], s & 0x20 ? "linear" : "nearest");
  return buf;
}

/* Coordinates for sampler s on image t: spread over the image and around
 * it (in range only for ADDRESS_NONE). */
static void make_coords(const timg *t, unsigned s, float c[NW][4])
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

static int close_enough(float got, float want)
{
  return fabsf(got - want) <= 2e-4f * (1.0f + fabsf(want));
}

static void check_read_f(timg *t, const char *kernel, unsigned s, float c[NW][4])
{
  float out[NW][4];
  struct lanecl_image *dp = &t->d;
  uintptr_t sb = s;
  void *cp = c, *op = out;
  void *args[] = {&dp, &sb, &cp, &op};
  wg_range r = range1(NW, 16, NULL);
  wg_run(&prog, kernel, args, &r);
  for (int i = 0; i < NW; i++) {
    float want[4];
    ref_read_f(t, s, c[i], want);
    int depth = t->kind == T2DD || t->kind == T2DAD;
    for (int j = 0; j < (depth ? 1 : 4); j++)
      if (!close_enough(out[i][j], want[j])) {
        char b[64];
        tl_fail(__FILE__, __LINE__,
                "%s order 0x%x type 0x%x sampler %s, coords (%g, %g, %g, %g): channel %d is %.8g, want %.8g", kernel,
                t->f.order, t->f.type, sampler_name(s, b), c[i][0], c[i][1], c[i][2], c[i][3], j, out[i][j],
                want[j]);
      }
  }
}

static const unsigned samplers[] = {
    0x10 | 0x0, 0x10 | 0x2, 0x10 | 0x4, 0x20 | 0x0, 0x20 | 0x2, 0x20 | 0x4,              /* unnormalized */
    0x11 | 0x0, 0x11 | 0x2, 0x11 | 0x4, 0x11 | 0x6, 0x11 | 0x8,                          /* normalized, nearest */
    0x21 | 0x0, 0x21 | 0x2, 0x21 | 0x4, 0x21 | 0x6, 0x21 | 0x8};                         /* normalized, linear */
#define N_SAMPLERS (sizeof(samplers) / sizeof(samplers[0]))

TEST(every_overload_builds)
{
  wg_prog p;
  wg_build(all_src, levels[0], &p);
  wg_free(&p);
}

TEST(sampled_float_reads_match_the_reference)
{
  build_once();
  static const int kinds[] = {T1D, T1DA, T2D, T2DA, T3D};
  static const char *const kern[] = {"rf1", "?", "rf1a", "rf2", "rf2a", "rf3"};
  for (unsigned k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
    for (unsigned f = 0; f < N_FLOAT_FMTS; f++) {
      timg t;
      timg_make(&t, kinds[k], float_fmts[f], 7, 5, 3, 4);
      for (unsigned s = 0; s < N_SAMPLERS; s++) {
        float c[NW][4];
        make_coords(&t, samplers[s], c);
        check_read_f(&t, kern[kinds[k]], samplers[s], c);
      }
      free(t.mem);
    }
}

TEST(depth_reads_match_the_reference)
{
  build_once();
  static const fmt depth[] = {{CL_DEPTH, CL_FLOAT}, {CL_DEPTH, CL_UNORM_INT16}};
  for (int kind = T2DD; kind <= T2DAD; kind++)
    for (unsigned f = 0; f < 2; f++) {
      timg t;
      timg_make(&t, kind, depth[f], 6, 5, 1, 3);
      for (unsigned s = 0; s < N_SAMPLERS; s++) {
        float c[NW][4];
        make_coords(&t, samplers[s], c);
        check_read_f(&t, kind == T2DD ? "rd2" : "rd2a", samplers[s], c);
      }
      free(t.mem);
    }
}

TEST(integer_coordinate_reads_match_the_reference)
{
  build_once();
  static const int kinds[] = {T1D, T1DA, T2D, T2DA, T3D};
  static const char *const kern[] = {"rfi1", "?", "rfi1a", "rfi2", "rfi2a", "rfi3"};
  static const unsigned smp[] = {0x10, 0x12, 0x14};
  for (unsigned k = 0; k < 5; k++)
    for (unsigned f = 0; f < N_FLOAT_FMTS; f++) {
      timg t;
      timg_make(&t, kinds[k], float_fmts[f], 6, 4, 3, 3);
      for (unsigned s = 0; s < 3; s++) {
        int ic[NW][4];
        float fc[NW][4];
        int sizes[4] = {(int)t.d.width, (int)t.d.height, (int)t.d.depth, 1};
        if (t.arr)
          sizes[t.dims] = (int)t.d.array_size;
        for (int i = 0; i < NW; i++)
          for (int a = 0; a < 4; a++) {
            int n = sizes[a];
            int inside = smp[s] == 0x10 || (a == t.dims && t.arr);
            ic[i][a] = inside ? (int)(rnd() % (unsigned)n) : (int)(rnd() % (unsigned)(n + 4)) - 2;
            /* The float coordinates at the texel's center sample the same texel. */
            fc[i][a] = a == t.dims && t.arr ? (float)ic[i][a] : (float)ic[i][a] + 0.5f;
          }
        float out[NW][4];
        struct lanecl_image *dp = &t.d;
        uintptr_t sb = smp[s];
        void *cp = ic, *op = out;
        void *args[] = {&dp, &sb, &cp, &op};
        wg_range r = range1(NW, 16, NULL);
        wg_run(&prog, kern[kinds[k]], args, &r);
        for (int i = 0; i < NW; i++) {
          float want[4];
          ref_read_f(&t, smp[s], fc[i], want);
          for (int j = 0; j < 4; j++)
            if (!close_enough(out[i][j], want[j]))
              tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x sampler 0x%x (%d, %d, %d, %d) ch %d: %g, want %g",
                      kern[kinds[k]], t.f.order, t.f.type, smp[s], ic[i][0], ic[i][1], ic[i][2], ic[i][3], j,
                      out[i][j], want[j]);
        }
      }
      free(t.mem);
    }
}

TEST(integer_channel_reads_match_the_reference)
{
  build_once();
  static const unsigned smp[] = {0x10, 0x12, 0x14, 0x11 | 0x6, 0x11 | 0x8, 0x11 | 0x4};
  for (unsigned f = 0; f < N_INT_FMTS; f++) {
    timg t;
    timg_make(&t, T2D, int_fmts[f], 7, 5, 1, 1);
    for (unsigned s = 0; s < sizeof(smp) / sizeof(smp[0]); s++)
      for (int u = 0; u < 2; u++) {
        float c[NW][4];
        make_coords(&t, smp[s], c);
        int32_t out[NW][4];
        struct lanecl_image *dp = &t.d;
        uintptr_t sb = smp[s];
        void *cp = c, *op = out;
        void *args[] = {&dp, &sb, &cp, &op};
        wg_range r = range1(NW, 16, NULL);
        wg_run(&prog, u ? "rui2" : "ri2", args, &r);
        for (int i = 0; i < NW; i++) {
          /* The reference's nearest texel, through the float path's addressing. */
          float cc[4] = {c[i][0], c[i][1], 0, 0};
          unsigned am = smp[s] & 0xe;
          int n[2] = {7, 5}, idx[2];
          for (int a = 0; a < 2; a++) {
            float x = am == 6   ? (cc[a] - floorf(cc[a])) * n[a]
                      : am == 8 ? fabsf(cc[a] - 2.0f * rintf(0.5f * cc[a])) * n[a]
                      : smp[s] & 1 ? cc[a] * n[a]
                                   : cc[a];
            idx[a] = (int)floorf(x);
            if (am == 6 && idx[a] > n[a] - 1)
              idx[a] -= n[a];
            if (am == 8 && idx[a] > n[a] - 1)
              idx[a] = n[a] - 1;
          }
          int x, y, z;
          int64_t want[4];
          if (addressed(&t, smp[s], idx, 0, &x, &y, &z)) {
            want[0] = want[1] = want[2] = 0;
            want[3] = border_alpha(t.f.order);
          } else {
            ref_texel_i(&t, x, y, z, want);
          }
          for (int j = 0; j < 4; j++)
            if (out[i][j] != (int32_t)want[j])
              tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x sampler 0x%x (%g, %g) ch %d: %d, want %d",
                      u ? "rui2" : "ri2", t.f.order, t.f.type, smp[s], c[i][0], c[i][1], j, out[i][j],
                      (int32_t)want[j]);
        }
      }
    free(t.mem);
  }
}

TEST(samplerless_and_3d_integer_reads_match_the_reference)
{
  build_once();
  for (unsigned f = 0; f < N_FLOAT_FMTS; f++) {
    timg t;
    timg_make(&t, T1DB, float_fmts[f], 40, 1, 1, 1);
    int ic[NW][4];
    float out[NW][4];
    for (int i = 0; i < NW; i++)
      ic[i][0] = (int)(rnd() % 40u), ic[i][1] = ic[i][2] = ic[i][3] = 0;
    struct lanecl_image *dp = &t.d;
    void *cp = ic, *op = out;
    void *args[] = {&dp, &cp, &op};
    wg_range r = range1(NW, 16, NULL);
    wg_run(&prog, "lf1b", args, &r);
    for (int i = 0; i < NW; i++) {
      float want[4];
      ref_texel_f(&t, ic[i][0], 0, 0, want);
      for (int j = 0; j < 4; j++)
        if (!close_enough(out[i][j], want[j]))
          tl_fail(__FILE__, __LINE__, "lf1b order 0x%x type 0x%x x %d ch %d: %g, want %g", t.f.order, t.f.type,
                  ic[i][0], j, out[i][j], want[j]);
    }
    free(t.mem);
    timg_make(&t, T2DA, float_fmts[f], 5, 4, 1, 3);
    for (int i = 0; i < NW; i++)
      ic[i][0] = (int)(rnd() % 5u), ic[i][1] = (int)(rnd() % 4u), ic[i][2] = (int)(rnd() % 3u);
    dp = &t.d;
    wg_run(&prog, "lf2a", args, &r);
    for (int i = 0; i < NW; i++) {
      float want[4];
      ref_texel_f(&t, ic[i][0], ic[i][1], ic[i][2], want);
      for (int j = 0; j < 4; j++)
        if (!close_enough(out[i][j], want[j]))
          tl_fail(__FILE__, __LINE__, "lf2a order 0x%x type 0x%x ch %d: %g, want %g", t.f.order, t.f.type, j,
                  out[i][j], want[j]);
    }
    free(t.mem);
  }
  for (unsigned f = 0; f < N_INT_FMTS; f++) {
    timg t;
    timg_make(&t, T3D, int_fmts[f], 5, 4, 3, 1);
    int ic[NW][4];
    int32_t out[NW][4];
    for (int i = 0; i < NW; i++)
      ic[i][0] = (int)(rnd() % 5u), ic[i][1] = (int)(rnd() % 4u), ic[i][2] = (int)(rnd() % 3u), ic[i][3] = 0;
    struct lanecl_image *dp = &t.d;
    uintptr_t sb = 0x10;
    void *cp = ic, *op = out;
    void *args[] = {&dp, &cp, &op};
    void *sargs[] = {&dp, &sb, &cp, &op};
    wg_range r = range1(NW, 16, NULL);
    for (int pass = 0; pass < 2; pass++) {
      wg_run(&prog, pass ? "rii3" : "li3", pass ? sargs : args, &r);
      for (int i = 0; i < NW; i++) {
        int64_t want[4];
        ref_texel_i(&t, ic[i][0], ic[i][1], ic[i][2], want);
        for (int j = 0; j < 4; j++)
          if (out[i][j] != (int32_t)want[j])
            tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x ch %d: %d, want %d", pass ? "rii3" : "li3",
                    t.f.order, t.f.type, j, out[i][j], (int32_t)want[j]);
      }
    }
    free(t.mem);
  }
}

/* ---- writes ---- */

static float srgb_enc(float c)
{
  if (!(c > 0.0f))
    return 0.0f;
  if (c >= 1.0f)
    return 1.0f;
  return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static int64_t sat_rte(float v, int64_t lo, int64_t hi)
{
  if (v != v)
    return 0;
  float r = rintf(v);
  return r < (float)lo ? lo : r > (float)hi ? hi : (int64_t)r;
}

/* The bytes write_imagef stores for RGBA c. */
static void ref_encode_f(fmt f, const float *c, unsigned char *p)
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

static void ref_encode_i(fmt f, const int32_t *c, int is_signed, unsigned char *p)
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
static void write_coords(const timg *t, int c[NW][4])
{
  int n[4] = {(int)t->d.width, t->kind == T1DA ? (int)t->d.array_size : (int)t->d.height,
              t->arr && t->dims == 2 ? (int)t->d.array_size : (int)t->d.depth, 1};
  int total = n[0] * n[1] * n[2], start = (int)(rnd() % (unsigned)(total - NW + 1));
  for (int i = 0; i < NW; i++) {
    int k = (start + i * 7) % total; /* 7 and the sizes used are coprime */
    c[i][0] = k % n[0], c[i][1] = k / n[0] % n[1], c[i][2] = k / (n[0] * n[1]), c[i][3] = 0;
  }
}

TEST(float_writes_match_the_reference)
{
  build_once();
  static const int kinds[] = {T1D, T1DB, T1DA, T2D, T2DA, T3D};
  static const char *const kern[] = {"wf1", "wf1b", "wf1a", "wf2", "wf2a", "wf3"};
  for (unsigned k = 0; k < 6; k++)
    for (unsigned f = 0; f < N_FLOAT_FMTS; f++) {
      timg t;
      int w = kinds[k] == T1D || kinds[k] == T1DB ? 41 : 9;
      timg_make(&t, kinds[k], float_fmts[f], w, 5, 3, 5);
      unsigned char *before = malloc(t.bytes);
      ASSERT_TRUE(before != NULL);
      memcpy(before, t.mem, t.bytes);
      int c[NW][4];
      float v[NW][4];
      write_coords(&t, c);
      for (int i = 0; i < NW; i++)
        for (int j = 0; j < 4; j++)
          v[i][j] = rndf(-1.3f, 1.3f);
      struct lanecl_image *dp = &t.d;
      void *cp = c, *vp = v;
      void *args[] = {&dp, &cp, &vp};
      wg_range r = range1(NW, 16, NULL);
      wg_run(&prog, kern[k], args, &r);
      int es = elem_size(t.f);
      for (int i = 0; i < NW; i++) {
        int y = c[i][1], z = c[i][2];
        unsigned char want[16];
        memcpy(want, pixel(&t, c[i][0], y, z), (size_t)es);
        ref_encode_f(t.f, v[i], want);
        const unsigned char *got = pixel(&t, c[i][0], y, z);
        for (int b = 0; b < es; b++) {
          int d = got[b] - want[b];
          /* sRGB: powf and the builtins' powr may round to either side. */
          if (d && !(is_srgb(t.f.order) && (d == 1 || d == -1)))
            tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x (%d,%d,%d) value (%g,%g,%g,%g): byte %d is 0x%02x, want 0x%02x",
                    kern[k], t.f.order, t.f.type, c[i][0], y, z, v[i][0], v[i][1], v[i][2], v[i][3], b, got[b],
                    want[b]);
        }
        memcpy(before + (pixel(&t, c[i][0], y, z) - t.mem), got, (size_t)es);
      }
      /* Nothing else changed (the padding of rows and slices included). */
      ASSERT_EQ(memcmp(before, t.mem, t.bytes), 0);
      free(before);
      free(t.mem);
    }
}

TEST(depth_and_integer_writes_match_the_reference)
{
  build_once();
  static const fmt depth[] = {{CL_DEPTH, CL_FLOAT}, {CL_DEPTH, CL_UNORM_INT16}};
  for (unsigned f = 0; f < 2; f++) {
    timg t;
    timg_make(&t, T2DD, depth[f], 9, 5, 1, 1);
    int c[NW][4];
    float v[NW][4];
    write_coords(&t, c);
    for (int i = 0; i < NW; i++)
      v[i][0] = rndf(-0.2f, 1.2f), v[i][1] = v[i][2] = v[i][3] = 0;
    struct lanecl_image *dp = &t.d;
    void *cp = c, *vp = v;
    void *args[] = {&dp, &cp, &vp};
    wg_range r = range1(NW, 16, NULL);
    wg_run(&prog, "wd2", args, &r);
    for (int i = 0; i < NW; i++) {
      unsigned char want[4];
      ref_encode_f(t.f, v[i], want);
      ASSERT_EQ(memcmp(pixel(&t, c[i][0], c[i][1], 0), want, (size_t)elem_size(t.f)), 0);
    }
    free(t.mem);
  }
  for (unsigned f = 0; f < N_INT_FMTS; f++)
    for (int u = 0; u < 2; u++) {
      timg t;
      timg_make(&t, u ? T3D : T2D, int_fmts[f], 9, 5, 3, 1);
      int c[NW][4];
      int32_t v[NW][4];
      write_coords(&t, c);
      for (int i = 0; i < NW; i++)
        for (int j = 0; j < 4; j++)
          v[i][j] = (int32_t)rnd() >> (rnd() % 24);
      struct lanecl_image *dp = &t.d;
      void *cp = c, *vp = v;
      void *args[] = {&dp, &cp, &vp};
      wg_range r = range1(NW, 16, NULL);
      wg_run(&prog, u ? "wui3" : "wi2", args, &r);
      int es = elem_size(t.f);
      for (int i = 0; i < NW; i++) {
        unsigned char want[16];
        ref_encode_i(t.f, v[i], !u, want);
        const unsigned char *got = pixel(&t, c[i][0], c[i][1], c[i][2]);
        if (memcmp(got, want, (size_t)es))
          tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x value (%d,%d,%d,%d): pixel differs", u ? "wui3" : "wi2",
                  t.f.order, t.f.type, v[i][0], v[i][1], v[i][2], v[i][3]);
      }
      free(t.mem);
    }
}

TEST(read_write_image_reads_then_writes_each_pixel)
{
  build_once();
  static const fmt fm[] = {{CL_RGBA, CL_FLOAT}, {CL_RGBA, CL_UNORM_INT8}, {CL_R, CL_HALF_FLOAT}};
  for (unsigned f = 0; f < 3; f++) {
    timg t;
    timg_make(&t, T2D, fm[f], 9, 5, 1, 1);
    timg orig = t;
    orig.mem = malloc(t.bytes);
    ASSERT_TRUE(orig.mem != NULL);
    memcpy(orig.mem, t.mem, t.bytes);
    int c[NW][4];
    write_coords(&t, c);
    struct lanecl_image *dp = &t.d;
    void *cp = c;
    void *args[] = {&dp, &cp};
    wg_range r = range1(NW, 16, NULL);
    wg_run(&prog, "rw2", args, &r);
    for (int i = 0; i < NW; i++) {
      float in[4], v[4];
      ref_texel_f(&orig, c[i][0], c[i][1], 0, in);
      for (int j = 0; j < 4; j++)
        v[j] = in[j] * 0.5f + 0.25f;
      unsigned char want[16];
      memcpy(want, pixel(&orig, c[i][0], c[i][1], 0), 16 < orig.d.elem_size ? 16 : orig.d.elem_size);
      ref_encode_f(t.f, v, want);
      ASSERT_EQ(memcmp(pixel(&t, c[i][0], c[i][1], 0), want, t.d.elem_size), 0);
    }
    free(orig.mem);
    free(t.mem);
  }
}

TEST(queries_return_the_descriptor)
{
  build_once();
  timg a, b, c, d;
  timg_make(&a, T3D, (fmt){CL_RGBA, CL_UNORM_INT8}, 7, 5, 3, 1);
  timg_make(&b, T2DA, (fmt){CL_R, CL_FLOAT}, 6, 4, 1, 9);
  timg_make(&c, T1DA, (fmt){CL_RG, CL_HALF_FLOAT}, 11, 1, 1, 13);
  timg_make(&d, T2DD, (fmt){CL_DEPTH, CL_UNORM_INT16}, 3, 2, 1, 1);
  int out[20];
  struct lanecl_image *pa = &a.d, *pb = &b.d, *pc = &c.d, *pd = &d.d;
  void *op = out;
  void *args[] = {&pa, &pb, &pc, &pd, &op};
  wg_range r = range1(1, 1, NULL);
  wg_run(&prog, "q", args, &r);
  const int want[20] = {7, 5, 3, 7, 5, 3, 0, 6, 4, 6, 4, 9, 11, 13, CL_UNORM_INT8, CL_RGBA, CL_UNORM_INT16, CL_DEPTH, 3, 2};
  for (int i = 0; i < 20; i++)
    if (out[i] != want[i])
      tl_fail(__FILE__, __LINE__, "query %d: %d, want %d", i, out[i], want[i]);
  free(a.mem), free(b.mem), free(c.mem), free(d.mem);
}

TEST(constant_samplers_match_the_reference)
{
  build_once();
  for (unsigned f = 0; f < N_FLOAT_FMTS; f += 3) {
    timg t;
    timg_make(&t, T2D, float_fmts[f], 7, 5, 1, 1);
    for (int k = 0; k < 2; k++) {
      unsigned s = k ? 0x10 | 0x4 : 0x21 | 0x8;
      float c[NW][4], out[NW][4];
      make_coords(&t, s, c);
      struct lanecl_image *dp = &t.d;
      void *cp = c, *op = out;
      void *args[] = {&dp, &cp, &op};
      wg_range r = range1(NW, 16, NULL);
      wg_run(&prog, k ? "ps2" : "cs2", args, &r);
      for (int i = 0; i < NW; i++) {
        float want[4];
        ref_read_f(&t, s, c[i], want);
        for (int j = 0; j < 4; j++)
          if (!close_enough(out[i][j], want[j]))
            tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x ch %d: %g, want %g", k ? "ps2" : "cs2", t.f.order,
                    t.f.type, j, out[i][j], want[j]);
      }
    }
    free(t.mem);
  }
}

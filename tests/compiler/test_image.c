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
#include "tests/image_ref.h"

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

static wg_prog prog;

/* The kernels are built once, before the tests fork (a build per test cost
 * most of the file's time). */
__attribute__((constructor(200))) static void build_kernels(void)
{
  wg_build(src, levels[0], &prog);
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

TEST(every_overload_builds)
{
  wg_prog p;
  wg_build(all_src, levels[0], &p);
  wg_free(&p);
}

TEST(sampled_float_reads_match_the_reference)
{
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
          int64_t want[4];
          ref_read_i(&t, smp[s], c[i], want);
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

TEST(float_writes_match_the_reference)
{
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

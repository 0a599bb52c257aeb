/* Lane loops specialized for the images' formats (compiler/cc_wg_image.c):
 * a kernel that reads and writes images with a constant sampler gets a copy
 * of its lane loop per common format, where the builtins fold to loads and
 * arithmetic that the loop vectorizer widens, and the general copy for the
 * other formats.  Checked: the copy of an RGBA float read is vector code
 * (the general path alone never was: its switch over the channel types kept
 * the lane loop scalar); every constant sampler and every format, through
 * the copies and the general path, against the reference of
 * tests/image_ref.h; images of different formats in one kernel; the same
 * reads through a sampler argument (copies per class of its bits: the
 * filter, or CLAMP or not) and their copy's vector code; at integer
 * coordinates, one or two sampler arguments, the border's select only in
 * the copies for CLAMP; rows of writes from offsets (whole chunks stored with one
 * plain store, the edge chunk masked) against the reference; the copy of
 * RGBA images of 16-bit channels (unorm16, snorm16, half; int16, uint16)
 * is vector code, its values byte for byte the reference's; R and RG images
 * of 8- and 16-bit channels (a `.x` read summed as vectors by the early
 * passes still an R read) have copies of vector code, their values the
 * reference's through copies between formats and sampler arguments. */
#include "tests/compiler/wg_harness.h"
#include "tests/image_ref.h"

static const char *const addr_names[] = {"CLK_ADDRESS_NONE", "", "CLK_ADDRESS_CLAMP_TO_EDGE", "",
                                         "CLK_ADDRESS_CLAMP", "", "CLK_ADDRESS_REPEAT", "",
                                         "CLK_ADDRESS_MIRRORED_REPEAT"};

/* The program: per sampler j of samplers[], a sampler_t constant sj, a
 * kernel wj reading all four channels (the RGBA copies); integer-coordinate
 * and 3D reads for some; two images of their own formats.  The R and RG
 * copies: copyx, copyxy, copyix, copyixy (one or two channels read and
 * written), wax and waxy (through a sampler argument). */
static char *lanes_src(void)
{
  size_t cap = 64 * 1024, len = 0;
  char *s = malloc(cap);
  ASSERT_TRUE(s != NULL);
  for (unsigned j = 0; j < N_SAMPLERS; j++) {
    unsigned b = samplers[j];
    len += (size_t)snprintf(s + len, cap - len, "constant sampler_t s%u = %s | %s | %s;\n", j,
                            b & 1 ? "CLK_NORMALIZED_COORDS_TRUE" : "CLK_NORMALIZED_COORDS_FALSE", addr_names[b & 0xe],
                            (b & 0x30) == 0x20 ? "CLK_FILTER_LINEAR" : "CLK_FILTER_NEAREST");
    len += (size_t)snprintf(s + len, cap - len,
                            "kernel void w%u(read_only image2d_t im, global const float4 *c, global float4 *o)\n"
                            "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s%u, c[i].xy); }\n"
                            "kernel void t%u(read_only image3d_t im, global const float4 *c, global float4 *o)\n"
                            "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s%u, c[i]); }\n",
                            j, j, j, j);
    if (!(b & 1) && (b & 0x30) == 0x10)
      len += (size_t)snprintf(s + len, cap - len,
                              "kernel void i%u(read_only image2d_t im, global const int4 *c, global float4 *o)\n"
                              "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s%u, c[i].xy); }\n",
                              j, j);
  }
  len += (size_t)snprintf(s + len, cap - len,
                          "kernel void copy(read_only image2d_t a, write_only image2d_t b) {\n"
                          "  int x = get_global_id(0), y = get_global_id(1);\n"
                          "  write_imagef(b, (int2)(x, y), read_imagef(a, s1, (int2)(x, y))); }\n"
                          "kernel void copyi(read_only image2d_t a, write_only image2d_t b) {\n"
                          "  int x = get_global_id(0), y = get_global_id(1);\n"
                          "  write_imagei(b, (int2)(x, y), read_imagei(a, s1, (int2)(x, y))); }\n"
                          "kernel void copyx(read_only image2d_t a, write_only image2d_t b) {\n"
                          "  int x = get_global_id(0), y = get_global_id(1);\n"
                          "  write_imagef(b, (int2)(x, y), (float4)(read_imagef(a, s1, (int2)(x, y)).x, 0, 0, 1)); }\n"
                          "kernel void copyxy(read_only image2d_t a, write_only image2d_t b) {\n"
                          "  int x = get_global_id(0), y = get_global_id(1);\n"
                          "  write_imagef(b, (int2)(x, y), (float4)(read_imagef(a, s1, (int2)(x, y)).xy, 0, 1)); }\n"
                          "kernel void copyix(read_only image2d_t a, write_only image2d_t b) {\n"
                          "  int x = get_global_id(0), y = get_global_id(1);\n"
                          "  write_imagei(b, (int2)(x, y), (int4)(read_imagei(a, s1, (int2)(x, y)).x, 0, 0, 1)); }\n"
                          "kernel void copyixy(read_only image2d_t a, write_only image2d_t b) {\n"
                          "  int x = get_global_id(0), y = get_global_id(1);\n"
                          "  write_imagei(b, (int2)(x, y), (int4)(read_imagei(a, s1, (int2)(x, y)).xy, 0, 1)); }\n"
                          "kernel void wax(read_only image2d_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
                          "{ size_t i = get_global_id(0); o[i] = (float4)(read_imagef(im, s, c[i].xy).x, 0, 0, 0); }\n"
                          "kernel void waxy(read_only image2d_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
                          "{ size_t i = get_global_id(0); o[i] = (float4)(read_imagef(im, s, c[i].xy).xy, 0, 0); }\n"
                          /* lane loops on both sides of a barrier and a collective */
                          "kernel void bar(read_only image2d_t a, global float4 *o) {\n"
                          "  local float4 t[64]; int x = get_global_id(0), lx = get_local_id(0);\n"
                          "  t[lx] = read_imagef(a, s1, (int2)(x, 1)); barrier(CLK_LOCAL_MEM_FENCE);\n"
                          "  float s = work_group_reduce_add(t[lx].x);\n"
                          "  o[x] = t[(lx + 1) %% get_local_size(0)] + s * read_imagef(a, s1, (int2)(x, 0)); }\n"
                          /* the same reads through a sampler argument */
                          "kernel void wa(read_only image2d_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
                          "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i].xy); }\n"
                          "kernel void ta(read_only image3d_t im, sampler_t s, global const float4 *c, global float4 *o)\n"
                          "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
                          "kernel void ia(read_only image2d_t im, sampler_t s, global const int4 *c, global float4 *o)\n"
                          "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i].xy); }\n"
                          /* two sampler arguments, integer coordinates; one at both kinds of coordinates */
                          "kernel void ib(read_only image2d_t im, sampler_t s, sampler_t t, global const int4 *c,\n"
                          "               global float4 *o)\n"
                          "{ size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i].xy) + 2.0f * read_imagef(im, t, c[i].xy); }\n"
                          "kernel void im(read_only image2d_t im, sampler_t s, global const int4 *c, global float4 *o)\n"
                          "{ size_t i = get_global_id(0); float2 f = convert_float2(c[i].xy) + (float2)(0.25f, 0.75f);\n"
                          "  o[i] = read_imagef(im, s, c[i].xy) + 2.0f * read_imagef(im, s, f.yx); }\n"
                          /* rows of pixels written from an offset: whole chunks and edge chunks */
                          "kernel void rowf(write_only image2d_t o, int off) {\n"
                          "  int x = get_global_id(0) + off, y = get_global_id(1);\n"
                          "  write_imagef(o, (int2)(x, y), (float4)(x * 0.03125f, y * 0.25f, 0.5f - x * 0.0625f, 0.75f)); }\n"
                          /* a column: each texel one scatter of its own */
                          "kernel void colr(write_only image2d_t o) {\n"
                          "  int x = get_global_id(0), y = get_global_id(1);\n"
                          "  write_imagef(o, (int2)(y, x), (float4)(x * 0.03125f, 0, 0, 1)); }\n"
                          "kernel void rowr(write_only image2d_t o, int off) {\n"
                          "  int x = get_global_id(0) + off, y = get_global_id(1);\n"
                          "  write_imagef(o, (int2)(x, y), (float4)(x * 0.03125f, 0, 0, 1)); }\n"
                          "kernel void rowi(write_only image2d_t o, int off) {\n"
                          "  int x = get_global_id(0) + off, y = get_global_id(1);\n"
                          "  write_imagei(o, (int2)(x, y), (int4)(x * 3, y - 2, -x, 100000 + x)); }\n"
                          "kernel void rowui(write_only image2d_t o, int off) {\n"
                          "  int x = get_global_id(0) + off, y = get_global_id(1);\n"
                          "  write_imageui(o, (int2)(x, y), (uint4)(x * 5, y, 300 - x, 70000)); }\n");
  ASSERT_TRUE(len < cap);
  return s;
}

static wg_prog prog;

__attribute__((constructor(200))) static void build_kernels(void)
{
  char *s = lanes_src();
  wg_build(s, levels[0], &prog);
  free(s);
}

/* An RGBA float read with a constant nearest sampler and integer
 * coordinates, written to an RGBA float image: in its copy the texel is
 * loaded and scaled W lanes at a time.  The same with integers (i16), for
 * the RGBA 16-bit copies.  Optimized once, for the tests that look at it. */
static const char pin_src[] =
    "constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "kernel void scale(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imagef(out, (int2)(x, y), 3.0f * read_imagef(in, nearest, (int2)(x, y))); }\n"
    "kernel void i16(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imagei(out, (int2)(x, y), 3 * read_imagei(in, nearest, (int2)(x, y))); }\n"
    /* R and RG: the early passes add the three .x as an extract of the
     * reads' vector sum */
    "float px(read_only image2d_t im, int x, int y) { return read_imagef(im, nearest, (int2)(x, y)).x; }\n"
    "kernel void rblur(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float s = px(in, x - 1, y) + px(in, x, y) + px(in, x + 1, y);\n"
    "  write_imagef(out, (int2)(x, y), (float4)(s * (1.0f / 3.0f), 0.0f, 0.0f, 1.0f)); }\n"
    "kernel void rg(read_only image2d_t in, write_only image2d_t out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  int2 v = read_imagei(in, nearest, (int2)(x - 1, y)).xy + read_imagei(in, nearest, (int2)(x + 1, y)).xy;\n"
    "  write_imagei(out, (int2)(x, y), (int4)(v, 0, 1)); }\n";

static char *pin_ir;

/* The general path's functions, called by the general copy (cc_wg_image.c). */
#define GENERAL_PATH "__lanecl_imgg."

__attribute__((constructor(201))) static void optimize_pin(void)
{
  pin_ir = optimized_ir(pin_src);
}

/* The lane count W of the format copies' vector code, or the test skips
 * where that code cannot be told from the general path: W < 8 (float4 code
 * is already 4 lanes wide), or a target whose loop vectorizer makes no
 * gathers (the clamped texel loads stay scalar). */
static unsigned copy_lanes_or_skip(void)
{
  unsigned W = ct_target_simd_bits() / 32;
  if (W < 8)
    tl_skip("%u-bit SIMD: float4 code is already 4 lanes wide, no telling the copies apart", ct_target_simd_bits());
  if (!ct_target_vectorizes(0))
    tl_skip("the target's loop vectorizer makes no gathers (%u-bit SIMD, CPU model's tuning): the clamped texel "
            "loads stay scalar",
            ct_target_simd_bits());
  return W;
}

/* The lane loop of kernel (in ir) reads RGBA float texels as vector code in
 * its copy: W-lane multiplies and gathers, and the general copy beside it
 * for the other formats (its dispatch inline in a kernel of few accesses,
 * a call of the general path in one of many). */
static void rgba_float_read_is_vector_code(const char *ir, const char *kernel)
{
  unsigned W = copy_lanes_or_skip();
  char fn[64], want[64];
  snprintf(fn, sizeof(fn), "__lanecl_wg_%s", kernel);
  snprintf(want, sizeof(want), "fmul <%u x float>", W);
  unsigned vec = count_in_function(ir, fn, want);
  snprintf(want, sizeof(want), "masked.gather.v%uf32", W);
  unsigned gathers = count_in_function(ir, fn, want);
  unsigned gen = count_in_function(ir, fn, " @" GENERAL_PATH), sw = count_in_function(ir, fn, " switch i32 ");
  if (vec < 4 || gathers < 4 || (!gen && !sw))
    tl_fail(__FILE__, __LINE__, "the lane loop of %s: %u \"fmul <%u x float>\", %u gathers of %u floats, %u calls of "
            "the general path, %u switches (want >= 4, >= 4, one of them >= 1)",
            kernel, vec, W, gathers, W, gen, sw);
}

TEST(an_rgba_float_read_is_vector_code_in_its_copy)
{
  (void)src;
  rgba_float_read_is_vector_code(pin_ir, "scale");
}

static void check(const char *kernel, timg *t, unsigned s, const void *coords, const float (*fc)[4], int nch)
{
  float out[NW][4];
  struct lanecl_image *dp = &t->d;
  const void *cp = coords;
  void *op = out;
  uintptr_t sv = s; /* a sampler argument: its CLK_* bits */
  void *args3[] = {&dp, &cp, &op}, *args4[] = {&dp, &sv, &cp, &op};
  void *const *args = kernel[1] == 'a' ? args4 : args3;
  wg_range r = range1(NW, 16, NULL);
  wg_run(&prog, kernel, args, &r);
  /* nearest texels of the RGBA 16-bit copy: the reference's bits */
  int exact = (s & 0x30) == 0x10 && t->f.order == CL_RGBA &&
              (t->f.type == CL_UNORM_INT16 || t->f.type == CL_SNORM_INT16 || t->f.type == CL_HALF_FLOAT);
  for (int i = 0; i < NW; i++) {
    float want[4];
    ref_read_f(t, s, fc[i], want);
    for (int j = 0; j < nch; j++)
      if (exact ? memcmp(&out[i][j], &want[j], sizeof(float)) != 0 : !close_enough(out[i][j], want[j])) {
        char b[64];
        tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x sampler %s, coords (%g, %g, %g): channel %d is %.8g, "
                "want %.8g",
                kernel, t->f.order, t->f.type, sampler_name(s, b), fc[i][0], fc[i][1], fc[i][2], j, out[i][j],
                want[j]);
      }
  }
}

TEST(constant_sampler_reads_of_every_format_match_the_reference)
{
  for (unsigned f = 0; f < N_FLOAT_FMTS; f++)
    for (unsigned j = 0; j < N_SAMPLERS; j++) {
      char name[16];
      timg t;
      float c[NW][4];
      timg_make(&t, T2D, float_fmts[f], 40, 5, 1, 1);
      make_coords(&t, samplers[j], c);
      snprintf(name, sizeof(name), "w%u", j);
      check(name, &t, samplers[j], c, (const float(*)[4])c, 4);
      free(t.mem);
      timg_make(&t, T3D, float_fmts[f], 20, 4, 3, 1);
      make_coords(&t, samplers[j], c);
      snprintf(name, sizeof(name), "t%u", j);
      check(name, &t, samplers[j], c, (const float(*)[4])c, 4);
      free(t.mem);
      unsigned b = samplers[j];
      if ((b & 1) || (b & 0x30) != 0x10)
        continue;
      timg_make(&t, T2D, float_fmts[f], 40, 5, 1, 1);
      int ic[NW][4];
      for (int i = 0; i < NW; i++) {
        int inside = (b & 0xe) == 0;
        ic[i][0] = inside ? (int)(rnd() % 40u) : (int)(rnd() % 46u) - 3;
        ic[i][1] = inside ? (int)(rnd() % 5u) : (int)(rnd() % 9u) - 2;
        ic[i][2] = ic[i][3] = 0;
        c[i][0] = (float)ic[i][0] + 0.5f, c[i][1] = (float)ic[i][1] + 0.5f, c[i][2] = c[i][3] = 0.0f;
      }
      snprintf(name, sizeof(name), "i%u", j);
      check(name, &t, b, ic, (const float(*)[4])c, 4);
      free(t.mem);
    }
}

/* wa, ta, ia: the constant sampler test's kernels with the sampler an
 * argument, each sampler and format (the copy is chosen per work-group by
 * the formats and the sampler's filter). */
TEST(sampler_argument_reads_of_every_format_match_the_reference)
{
  for (unsigned f = 0; f < N_FLOAT_FMTS; f++)
    for (unsigned j = 0; j < N_SAMPLERS; j++) {
      timg t;
      float c[NW][4];
      unsigned b = samplers[j];
      timg_make(&t, T2D, float_fmts[f], 40, 5, 1, 1);
      make_coords(&t, b, c);
      check("wa", &t, b, c, (const float(*)[4])c, 4);
      free(t.mem);
      timg_make(&t, T3D, float_fmts[f], 20, 4, 3, 1);
      make_coords(&t, b, c);
      check("ta", &t, b, c, (const float(*)[4])c, 4);
      free(t.mem);
      if ((b & 1) || (b & 0x30) != 0x10)
        continue;
      timg_make(&t, T2D, float_fmts[f], 40, 5, 1, 1);
      int ic[NW][4];
      for (int i = 0; i < NW; i++) {
        int inside = (b & 0xe) == 0;
        ic[i][0] = inside ? (int)(rnd() % 40u) : (int)(rnd() % 46u) - 3;
        ic[i][1] = inside ? (int)(rnd() % 5u) : (int)(rnd() % 9u) - 2;
        ic[i][2] = ic[i][3] = 0;
        c[i][0] = (float)ic[i][0] + 0.5f, c[i][1] = (float)ic[i][1] + 0.5f, c[i][2] = c[i][3] = 0.0f;
      }
      check("ia", &t, b, ic, (const float(*)[4])c, 4);
      free(t.mem);
    }
}

/* ib and im (sampler arguments at integer coordinates: the copies per
 * CLAMP or not; two of them, of the same class or not; one sampler at
 * integer and float coordinates, the copies per filter) for each
 * unnormalized nearest sampler (integer coordinates take no other) and
 * formats of each copy and of the general path. */
TEST(sampler_arguments_at_integer_coordinates_match_the_reference)
{
  static const fmt fmts[] = {{CL_RGBA, CL_FLOAT}, {CL_RGBA, CL_UNORM_INT8}, {CL_BGRA, CL_UNORM_INT8},
                             {CL_RGBA, CL_UNORM_INT16}, {CL_RGBA, CL_HALF_FLOAT}, {CL_RG, CL_FLOAT}};
  static const unsigned smp[] = {0x10 | 0x0, 0x10 | 0x2, 0x10 | 0x4}; /* NONE, CLAMP_TO_EDGE, CLAMP */
  for (unsigned f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
    for (unsigned a = 0; a < 3; a++)
      for (unsigned b = 0; b < 4; b++) {
        /* b < 3: ib with samplers a and b; b == 3: im with sampler a */
        unsigned sa = smp[a], sb = smp[b < 3 ? b : a];
        timg t;
        timg_make(&t, T2D, fmts[f], 40, 5, 1, 1);
        int ic[NW][4];
        int inside = !(sa & 0xe) || !(sb & 0xe); /* NONE: undefined outside */
        for (int i = 0; i < NW; i++) {
          ic[i][0] = inside ? (int)(rnd() % 40u) : (int)(rnd() % 46u) - 3;
          ic[i][1] = inside ? (int)(rnd() % 5u) : (int)(rnd() % 9u) - 2;
          ic[i][2] = ic[i][3] = 0;
        }
        float out[NW][4];
        struct lanecl_image *dp = &t.d;
        const void *cp = ic;
        void *op = out;
        uintptr_t va = sa, vb = sb;
        void *argsb[] = {&dp, &va, &vb, &cp, &op}, *argsm[] = {&dp, &va, &cp, &op};
        wg_range r = range1(NW, 16, NULL);
        wg_run(&prog, b < 3 ? "ib" : "im", b < 3 ? argsb : argsm, &r);
        for (int i = 0; i < NW; i++) {
          float c0[4] = {(float)ic[i][0] + 0.5f, (float)ic[i][1] + 0.5f, 0.0f, 0.0f}, w0[4], w1[4];
          /* im's second read: (y + 0.75, x + 0.25) */
          float c1[4] = {(float)ic[i][1] + 0.75f, (float)ic[i][0] + 0.25f, 0.0f, 0.0f};
          ref_read_f(&t, sa, c0, w0);
          ref_read_f(&t, sb, b < 3 ? c0 : c1, w1);
          for (int j = 0; j < 4; j++) {
            float want = w0[j] + 2.0f * w1[j];
            if (!close_enough(out[i][j], want)) {
              char n0[64], n1[64];
              tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x samplers %s, %s, (%d, %d): channel %d is %.8g, "
                      "want %.8g",
                      b < 3 ? "ib" : "im", t.f.order, t.f.type, sampler_name(sa, n0), sampler_name(sb, n1), ic[i][0],
                      ic[i][1], j, out[i][j], want);
            }
          }
        }
        free(t.mem);
      }
}

/* A read through a sampler argument at integer coordinates: the copies for
 * an addressing mode other than CLAMP are those of a constant CLAMP_TO_EDGE
 * sampler, without the border color's select; those for CLAMP a constant
 * CLAMP sampler's.  Counted: the selects of the border color (RGBA: 0, a
 * zeroinitializer) and all selects, against the same kernel with each
 * constant sampler.  (Built per filter, the copies each kept the border's
 * select on the sampler's bits: a blend per texel, in the scalar RGBA float
 * copy a branch, the 5x5 convolution of bench/images.c 2.4 times slower
 * than with a constant sampler.) */
static const char border_src[] =
    "constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "constant sampler_t bord = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n"
    "kernel void ke(read_only image2d_t in, global float4 *o) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  o[y * get_image_width(in) + x] = 3.0f * read_imagef(in, edge, (int2)(x, y)); }\n"
    "kernel void kc(read_only image2d_t in, global float4 *o) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  o[y * get_image_width(in) + x] = 3.0f * read_imagef(in, bord, (int2)(x, y)); }\n"
    "kernel void ka(read_only image2d_t in, sampler_t s, global float4 *o) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  o[y * get_image_width(in) + x] = 3.0f * read_imagef(in, s, (int2)(x, y)); }\n";

/* Lines of function fn of the IR that hold both a and b. */
static unsigned lines_with(const char *ir, const char *fn, const char *a, const char *b)
{
  char def[160];
  snprintf(def, sizeof(def), "define void @%s(", fn);
  const char *p = strstr(ir, def);
  if (!p)
    tl_fail(__FILE__, __LINE__, "no %s in the IR", fn);
  const char *end = strstr(p, "\n}\n");
  unsigned n = 0;
  for (const char *nl; p && (!end || p < end); p = nl ? nl + 1 : NULL) {
    nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    char line[1024];
    if (len >= sizeof(line))
      continue;
    memcpy(line, p, len);
    line[len] = 0;
    n += strstr(line, a) && strstr(line, b);
  }
  return n;
}

TEST(a_sampler_argument_at_integer_coordinates_selects_the_border_only_for_clamp)
{
  char *ir = optimized_ir(border_src);
  static const char *const fn[] = {"__lanecl_wg_ke", "__lanecl_wg_kc", "__lanecl_wg_ka"};
  unsigned border[3], all[3];
  for (int k = 0; k < 3; k++) {
    border[k] = lines_with(ir, fn[k], " = select ", " zeroinitializer");
    all[k] = lines_with(ir, fn[k], " = select ", "");
  }
  /* the border is counted: none with CLAMP_TO_EDGE, some with CLAMP */
  if (border[0] || !border[1])
    tl_fail(__FILE__, __LINE__, "border selects: %u with CLAMP_TO_EDGE, %u with CLAMP (want 0, > 0)", border[0],
            border[1]);
  if (border[2] > border[1] || all[2] > all[0] + all[1])
    tl_fail(__FILE__, __LINE__, "the sampler argument's kernel: %u border selects, %u selects (want <= %u, the "
            "constant CLAMP sampler's, and <= %u + %u, the constant samplers')",
            border[2], all[2], border[1], all[0], all[1]);
  free(ir);
}

/* An RGBA float read through a sampler argument: the copy for its format
 * and a nearest filter is vector code, as with a constant sampler (the
 * general path, which a sampler argument kept in every copy, never was). */
static const char arg_src[] =
    "kernel void sarg(read_only image2d_t in, sampler_t s, global float4 *o) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  o[y * get_image_width(in) + x] = 3.0f * read_imagef(in, s, (int2)(x, y)); }\n";

TEST(an_rgba_float_read_through_a_sampler_argument_is_vector_code)
{
  char *ir = optimized_ir(arg_src);
  rgba_float_read_is_vector_code(ir, "sarg");
  free(ir);
}

/* RGBA images of 16-bit channels, read and written (scale and i16 of
 * pin_src): their copy of the lane loop (unorm16, snorm16 and half in one,
 * the conversion a select on the descriptor's type; int16 for integers)
 * loads each texel as two words, W lanes at a time, converts halves W lanes
 * at a time, and stores whole chunks of a row with one store of the 2W
 * words (the general path alone, where these formats ran before, was
 * scalar code). */
TEST(rgba_16_bit_reads_and_writes_are_vector_code_in_their_copy)
{
  unsigned W = copy_lanes_or_skip();
  const char *ir = pin_ir, *h16 = "__lanecl_wg_scale";
  char want[64];
  snprintf(want, sizeof(want), "masked.gather.v%ui32", W);
  unsigned gathers = count_in_function(ir, h16, want);
  snprintf(want, sizeof(want), "fpext <%u x half>", W);
  unsigned ext = count_in_function(ir, h16, want);
  snprintf(want, sizeof(want), "fptrunc <%u x float>", W);
  unsigned trunc = count_in_function(ir, h16, want);
  /* no calls in the lane loops but of intrinsics and, in the general copy,
   * of the general path */
  unsigned calls = count_in_function(ir, h16, " call "),
           intr = count_in_function(ir, h16, " @llvm.") + count_in_function(ir, h16, " @" GENERAL_PATH);
  if (gathers < 2 || ext < 4 || trunc < 4 || calls > intr)
    tl_fail(__FILE__, __LINE__, "scale: %u gathers of %u words, %u \"fpext <%u x half>\", %u \"fptrunc <%u x float>\", %u "
            "calls, %u intrinsics named (want >= 2, >= 4, >= 4, calls <= intrinsics)",
            gathers, W, ext, W, trunc, W, calls, intr);
  if (ct_target_vectorizes(1)) {
    /* the two words of W texels: one store of 2W words in each kernel */
    snprintf(want, sizeof(want), "store <%u x i32>", 2 * W);
    unsigned hs = count_in_function(ir, h16, want), is = count_in_function(ir, "__lanecl_wg_i16", want);
    if (hs < 1 || is < 1)
      tl_fail(__FILE__, __LINE__, "%u and %u \"store <%u x i32>\" in scale and i16 (want >= 1 each)", hs, is, 2 * W);
  }
}

/* Vector accesses of elements of type ty (i8, i16) in function fn of ir:
 * loads, masked loads and gathers (stores: stores and masked stores) of W,
 * 2W or 4W lanes. */
static unsigned narrow_accesses(const char *ir, const char *fn, const char *ty, unsigned W, int stores)
{
  unsigned n = 0;
  char want[64];
  for (unsigned m = 1; m <= 4; m *= 2) {
    snprintf(want, sizeof(want), "%s <%u x %s>", stores ? "store" : "load", m * W, ty);
    n += count_in_function(ir, fn, want);
    snprintf(want, sizeof(want), "masked.%s.v%u%s", stores ? "store" : "load", m * W, ty);
    n += count_in_function(ir, fn, want);
    if (!stores) {
      snprintf(want, sizeof(want), "masked.gather.v%u%s", m * W, ty);
      n += count_in_function(ir, fn, want);
    }
  }
  return n;
}

/* R and RG images of 8- and 16-bit channels (rblur and rg of pin_src):
 * rblur's reads of one channel (summed as vectors by the early passes,
 * which once made them reads of all four, the RGBA copies) run in the R
 * unorm8 and R unorm16 (snorm16, half) copies, whose texels are loaded and
 * stored as vectors of bytes and halves (the loop vectorizer's scalarized
 * loads made gathers again, or plain loads where the row is contiguous),
 * without a branch per lane; rg's RG int8 copy loads and stores its 2-byte
 * texels the same way.  Before, R 16-bit images had no copy, RG images
 * none at all, and such a read of an R image took the general path. */
TEST(r_and_rg_reads_and_writes_are_vector_code_in_their_copies)
{
  unsigned W = copy_lanes_or_skip();
  const char *ir = pin_ir;
  static const char *const fns[] = {"__lanecl_wg_rblur", "__lanecl_wg_rg"};
  unsigned l8 = narrow_accesses(ir, fns[0], "i8", W, 0), l16 = narrow_accesses(ir, fns[0], "i16", W, 0);
  unsigned s8 = narrow_accesses(ir, fns[0], "i8", W, 1), s16 = narrow_accesses(ir, fns[0], "i16", W, 1);
  unsigned g16 = narrow_accesses(ir, fns[1], "i16", W, 0), t16 = narrow_accesses(ir, fns[1], "i16", W, 1);
  if (l8 < 3 || l16 < 3 || s8 < 1 || s16 < 1 || g16 < 2 || t16 < 1)
    tl_fail(__FILE__, __LINE__, "rblur: %u and %u vector loads of bytes and halves, %u and %u stores (want >= 3, >= 3, "
            ">= 1, >= 1); rg: %u vector loads of 16-bit texels, %u stores (want >= 2, >= 1)",
            l8, l16, s8, s16, g16, t16);
  for (unsigned k = 0; k < 2; k++) {
    unsigned pred = count_in_function(ir, fns[k], "pred.load.if:"), calls = count_in_function(ir, fns[k], " call "),
             intr = count_in_function(ir, fns[k], " @llvm.") + count_in_function(ir, fns[k], " @" GENERAL_PATH);
    if (pred || calls > intr)
      tl_fail(__FILE__, __LINE__, "%s: %u per-lane blocks of loads, %u calls, %u intrinsics named (want 0, calls <= "
              "intrinsics)", fns[k], pred, calls, intr);
  }
}

/* The bytes a copy kernel must write at pixel (x, y) of an image of format
 * f, read from pixel (x, y) of in, by the reference. */
typedef void (*copy_expect)(const timg *in, fmt f, int x, int y, unsigned char *want);

static void expect_copy(const timg *in, fmt f, int x, int y, unsigned char *want)
{
  float c[4];
  ref_texel_f(in, x, y, 0, c);
  ref_encode_f(f, c, want);
}

/* copyx: the first channel only */
static void expect_copyx(const timg *in, fmt f, int x, int y, unsigned char *want)
{
  float c[4];
  ref_texel_f(in, x, y, 0, c);
  c[1] = c[2] = 0.0f, c[3] = 1.0f;
  ref_encode_f(f, c, want);
}

/* copyxy: the first two channels */
static void expect_copyxy(const timg *in, fmt f, int x, int y, unsigned char *want)
{
  float c[4];
  ref_texel_f(in, x, y, 0, c);
  c[2] = 0.0f, c[3] = 1.0f;
  ref_encode_f(f, c, want);
}

/* copyix, copyixy: one or two channels */
static void expect_copyin(const timg *in, fmt f, int x, int y, unsigned char *want, int n)
{
  int64_t c[4];
  int32_t c32[4] = {0, 0, 0, 1};
  ref_texel_i(in, x, y, 0, c);
  for (int j = 0; j < n; j++)
    c32[j] = (int32_t)c[j];
  ref_encode_i(f, c32, 1, want);
}

static void expect_copyix(const timg *in, fmt f, int x, int y, unsigned char *want)
{
  expect_copyin(in, f, x, y, want, 1);
}

static void expect_copyixy(const timg *in, fmt f, int x, int y, unsigned char *want)
{
  expect_copyin(in, f, x, y, want, 2);
}

static void expect_copyi(const timg *in, fmt f, int x, int y, unsigned char *want)
{
  int64_t c[4];
  int32_t c32[4];
  ref_texel_i(in, x, y, 0, c);
  for (int j = 0; j < 4; j++)
    c32[j] = (int32_t)c[j];
  ref_encode_i(f, c32, 1, want);
}

/* kernel (in, out) over every pair of fmts, 37 x 3 pixels in groups of 16:
 * every pixel byte for byte what expect says. */
static void copy_every_pair(const char *kernel, const fmt *fmts, unsigned n, copy_expect expect)
{
  enum { W = 37, H = 3 };
  for (unsigned a = 0; a < n; a++)
    for (unsigned b = 0; b < n; b++) {
      timg in, out;
      timg_make(&in, T2D, fmts[a], W, H, 1, 1);
      timg_make(&out, T2D, fmts[b], W, H, 1, 1);
      memset(out.mem, 0, out.bytes);
      struct lanecl_image *ip = &in.d, *op = &out.d;
      void *args[] = {&ip, &op};
      wg_range r = {2, {W, H, 1}, {16, 1, 1}, {0, 0, 0}, NULL};
      wg_run(&prog, kernel, args, &r);
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
          unsigned char want[16];
          expect(&in, fmts[b], x, y, want);
          if (memcmp(pixel(&out, x, y, 0), want, (size_t)elem_size(fmts[b])))
            tl_fail(__FILE__, __LINE__, "%s from order 0x%x type 0x%x to order 0x%x type 0x%x: pixel (%d, %d) differs",
                    kernel, fmts[a].order, fmts[a].type, fmts[b].order, fmts[b].type, x, y);
        }
      free(in.mem);
      free(out.mem);
    }
}

/* copy and copyx over every pair of these formats: the copy of the lane
 * loop runs only when both images have its formats. */
TEST(images_of_different_formats_in_one_kernel_match_the_reference)
{
  static const fmt fmts[] = {{CL_RGBA, CL_FLOAT},       {CL_RGBA, CL_UNORM_INT8}, {CL_R, CL_FLOAT},
                             {CL_R, CL_UNORM_INT8},     {CL_RGBA, CL_UNORM_INT16}, {CL_BGRA, CL_UNORM_INT8},
                             {CL_RGBA, CL_SNORM_INT16}, {CL_RGBA, CL_HALF_FLOAT}};
  copy_every_pair("copy", fmts, sizeof(fmts) / sizeof(fmts[0]), expect_copy);
  copy_every_pair("copyx", fmts, sizeof(fmts) / sizeof(fmts[0]), expect_copyx);
}

/* copyx and copyxy (one and two channels: the R and RG copies) over every
 * pair of R, RG and other formats, and copyix, copyixy for integers: every
 * pixel byte for byte the reference's (37 x 3 pixels in groups of 16: the
 * chunk at the row's end is masked). */
TEST(r_and_rg_copies_between_formats_match_the_reference)
{
  static const fmt ffmts[] = {{CL_R, CL_UNORM_INT8},  {CL_R, CL_UNORM_INT16},  {CL_R, CL_SNORM_INT16},
                              {CL_R, CL_HALF_FLOAT},  {CL_R, CL_FLOAT},        {CL_RG, CL_UNORM_INT8},
                              {CL_RG, CL_UNORM_INT16}, {CL_RG, CL_SNORM_INT16}, {CL_RG, CL_HALF_FLOAT},
                              {CL_RG, CL_FLOAT},      {CL_RGBA, CL_UNORM_INT8}, {CL_R, CL_SNORM_INT8}};
  static const fmt ifmts[] = {{CL_R, CL_SIGNED_INT8},    {CL_R, CL_UNSIGNED_INT8},  {CL_R, CL_SIGNED_INT16},
                              {CL_R, CL_UNSIGNED_INT16}, {CL_R, CL_SIGNED_INT32},   {CL_RG, CL_SIGNED_INT8},
                              {CL_RG, CL_UNSIGNED_INT8}, {CL_RG, CL_SIGNED_INT16},  {CL_RG, CL_UNSIGNED_INT16},
                              {CL_RG, CL_SIGNED_INT32},  {CL_RGBA, CL_SIGNED_INT16}};
  unsigned nf = sizeof(ffmts) / sizeof(ffmts[0]), ni = sizeof(ifmts) / sizeof(ifmts[0]);
  copy_every_pair("copyx", ffmts, nf, expect_copyx);
  copy_every_pair("copyxy", ffmts, nf, expect_copyxy);
  copy_every_pair("copyix", ifmts, ni, expect_copyix);
  copy_every_pair("copyixy", ifmts, ni, expect_copyixy);
}

/* wax and waxy: one and two channels through a sampler argument, every
 * sampler (addressing mode, filter, normalization) on R and RG images of
 * each copy's formats and of the general path's. */
TEST(r_and_rg_reads_through_a_sampler_argument_match_the_reference)
{
  static const fmt fmts[] = {{CL_R, CL_UNORM_INT8},  {CL_R, CL_UNORM_INT16},   {CL_R, CL_SNORM_INT16},
                             {CL_R, CL_HALF_FLOAT},  {CL_R, CL_FLOAT},         {CL_RG, CL_UNORM_INT8},
                             {CL_RG, CL_UNORM_INT16}, {CL_RG, CL_SNORM_INT16}, {CL_RG, CL_HALF_FLOAT},
                             {CL_RG, CL_FLOAT},      {CL_R, CL_SNORM_INT8}};
  for (unsigned f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
    for (unsigned j = 0; j < N_SAMPLERS; j++)
      for (int n = 1; n <= 2; n++) {
        timg t;
        float c[NW][4];
        timg_make(&t, T2D, fmts[f], 40, 5, 1, 1);
        make_coords(&t, samplers[j], c);
        check(n == 1 ? "wax" : "waxy", &t, samplers[j], c, (const float(*)[4])c, n);
        free(t.mem);
      }
}

/* copyi over every pair of these formats (integer reads and writes, the
 * RGBA int16 copy among them): every pixel byte for byte the reference's. */
TEST(integer_copies_between_formats_match_the_reference)
{
  static const fmt fmts[] = {{CL_RGBA, CL_SIGNED_INT16}, {CL_RGBA, CL_SIGNED_INT32}, {CL_RGBA, CL_SIGNED_INT8},
                             {CL_R, CL_SIGNED_INT32},    {CL_RGBA, CL_UNSIGNED_INT16}};
  copy_every_pair("copyi", fmts, sizeof(fmts) / sizeof(fmts[0]), expect_copyi);
}

/* bar: each lane loop of the state machine has its copies. */
TEST(image_reads_around_a_barrier_match_the_reference)
{
  static const fmt fmts[] = {{CL_RGBA, CL_FLOAT}, {CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_HALF_FLOAT}};
  enum { W = 48, L = 16 };
  for (unsigned f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
    timg in;
    timg_make(&in, T2D, fmts[f], W, 2, 1, 1);
    float out[W][4];
    struct lanecl_image *ip = &in.d;
    void *op = out;
    void *args[] = {&ip, &op};
    size_t local_bytes[] = {0, 0};
    wg_range r = range1(W, L, local_bytes);
    wg_run(&prog, "bar", args, &r);
    for (int g = 0; g < W / L; g++) {
      float sum = 0.0f, c[4];
      for (int i = 0; i < L; i++) {
        ref_texel_f(&in, g * L + i, 1, 0, c);
        sum += c[0];
      }
      for (int i = 0; i < L; i++) {
        float nb[4], own[4];
        ref_texel_f(&in, g * L + (i + 1) % L, 1, 0, nb);
        ref_texel_f(&in, g * L + i, 0, 0, own);
        for (int j = 0; j < 4; j++) {
          float want = nb[j] + sum * own[j];
          if (fabsf(out[g * L + i][j] - want) > 1e-3f * (1.0f + fabsf(want)))
            tl_fail(__FILE__, __LINE__, "bar order 0x%x type 0x%x work-item %d channel %d: %g, want %g", fmts[f].order,
                    fmts[f].type, g * L + i, j, out[g * L + i][j], want);
        }
      }
    }
    free(in.mem);
  }
}

/* A row of RGBA pixels written by W neighbouring work-items
 * (x = get_global_id(0) + off): the whole chunks store the texels with one
 * wide store (the channels interleaved), not with a scatter per channel;
 * the scatters stay for the chunk at the image's edge.  Made where the
 * loop vectorizer makes scatters (AVX-512): elsewhere the conditional
 * store is not a scatter in the first place. */
static const char rows_src[] =
    "kernel void wf(write_only image2d_t o, int off) {\n"
    "  int x = get_global_id(0) + off, y = get_global_id(1);\n"
    "  write_imagef(o, (int2)(x, y), (float4)(x, y, 0.5f, 1.0f)); }\n"
    "kernel void wi(write_only image2d_t o, int off) {\n"
    "  int x = get_global_id(0) + off, y = get_global_id(1);\n"
    "  write_imagei(o, (int2)(x, y), (int4)(x, y, 7, -1)); }\n";

TEST(whole_chunks_of_a_row_write_store_contiguously)
{
  unsigned W = ct_target_simd_bits() / 32;
  if (W < 8)
    tl_skip("%u-bit SIMD: the lane loop of a float4 write is not widened", ct_target_simd_bits());
  if (!ct_target_vectorizes(1))
    tl_skip("the target's loop vectorizer makes no scatters (%u-bit SIMD): a conditional texel store is not a "
            "scatter to begin with",
            ct_target_simd_bits());
  char *ir = optimized_ir(rows_src);
  char want[64];
  static const char *const kern[] = {"__lanecl_wg_wf", "__lanecl_wg_wi"}, *const ty[] = {"float", "i32"};
  for (unsigned k = 0; k < 2; k++) {
    /* RGBA 32-bit: W texels of 4 channels, one store */
    snprintf(want, sizeof(want), "store <%u x %s>", 4 * W, ty[k]);
    unsigned wide = count_in_function(ir, kern[k], want);
    snprintf(want, sizeof(want), "masked.scatter.v%u%s", W, k ? "i32" : "f32");
    unsigned sc = count_in_function(ir, kern[k], want);
    if (wide < 1 || sc < 4)
      tl_fail(__FILE__, __LINE__, "%s: %u \"store <%u x %s>\", %u scatters of %u lanes (want >= 1, >= 4: the edge)",
              kern[k], wide, 4 * W, ty[k], sc, W);
  }
  free(ir);
}

/* RGBA unorm8 (wf's second copy): a word per texel, a masked vector store
 * (AVX2 and AVX-512), which runs as a plain store for a whole chunk. */
TEST(whole_chunks_of_an_rgba8_row_write_store_unmasked)
{
  unsigned W = ct_target_simd_bits() / 32;
  if (W < 8)
    tl_skip("%u-bit SIMD: the lane loop of a float4 write is not widened", ct_target_simd_bits());
  char *ir = optimized_ir(rows_src);
  char want[64];
  snprintf(want, sizeof(want), "masked.store.v%ui32", W);
  unsigned masked = count_in_function(ir, "__lanecl_wg_wf", want);
  if (!masked) {
    free(ir);
    tl_skip("the loop vectorizer made no masked store of %u words here", W);
  }
  snprintf(want, sizeof(want), "store <%u x i32>", W);
  unsigned plain = count_in_function(ir, "__lanecl_wg_wf", want);
  if (plain < 1)
    tl_fail(__FILE__, __LINE__, "wf, RGBA unorm8: %u \"store <%u x i32>\" beside %u masked stores (want >= 1)", plain, W,
            masked);
  free(ir);
}

/* colr: work-items along x write down a column of the image, so W lanes'
 * texels are W scatters of one channel (a group of one for the whole-chunk
 * rewrite, which once took the rest of the block for the instructions
 * between a group's scatters and broke the function): every pixel as the
 * reference encodes it. */
TEST(column_writes_match_the_reference)
{
  static const fmt fmts[] = {{CL_R, CL_FLOAT}, {CL_R, CL_UNORM_INT8}, {CL_RGBA, CL_FLOAT}, {CL_RGBA, CL_HALF_FLOAT}};
  enum { IW = 19, IH = 40 };
  for (unsigned f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
    timg t;
    timg_make(&t, T2D, fmts[f], IW, IH, 1, 1);
    struct lanecl_image *op = &t.d;
    void *args[] = {&op};
    wg_range r = {2, {IH, IW, 1}, {16, 1, 1}, {0, 0, 0}, NULL};
    wg_run(&prog, "colr", args, &r);
    for (int y = 0; y < IH; y++)
      for (int x = 0; x < IW; x++) {
        float c[4] = {y * 0.03125f, 0.0f, 0.0f, 1.0f};
        unsigned char want[16];
        ref_encode_f(fmts[f], c, want);
        if (memcmp(pixel(&t, x, y, 0), want, (size_t)elem_size(fmts[f])))
          tl_fail(__FILE__, __LINE__, "colr order 0x%x type 0x%x: pixel (%d, %d) differs", fmts[f].order, fmts[f].type,
                  x, y);
      }
    free(t.mem);
  }
}

/* rowf/rowr/rowi/rowui over rows of several widths from offsets that put
 * the row's ends inside chunks, before and after the image: every pixel of
 * the image as the reference encodes it, nothing written outside (the
 * padding of each row and the pixels not written keep their bytes). */
TEST(row_writes_from_offsets_match_the_reference)
{
  static const fmt ffmts[] = {{CL_RGBA, CL_FLOAT},       {CL_RGBA, CL_UNORM_INT8}, {CL_R, CL_FLOAT},
                              {CL_R, CL_UNORM_INT8},     {CL_BGRA, CL_UNORM_INT8}, {CL_RGBA, CL_UNORM_INT16},
                              {CL_RGBA, CL_HALF_FLOAT},  {CL_RGBA, CL_SNORM_INT16}, {CL_R, CL_UNORM_INT16},
                              {CL_R, CL_SNORM_INT16},    {CL_R, CL_HALF_FLOAT}};
  static const fmt ifmts[] = {{CL_RGBA, CL_SIGNED_INT32}, {CL_RGBA, CL_UNSIGNED_INT32}, {CL_R, CL_SIGNED_INT32},
                              {CL_R, CL_UNSIGNED_INT32},  {CL_RGBA, CL_UNSIGNED_INT8},  {CL_RGBA, CL_SIGNED_INT8},
                              {CL_RGBA, CL_SIGNED_INT16}, {CL_RGBA, CL_UNSIGNED_INT16}};
  static const int widths[] = {37, 48, 53}, offs[] = {-21, -5, 0, 3, 16, 29};
  enum { H = 3, L = 16 };
  for (unsigned kk = 0; kk < 4; kk++) {
    const fmt *fmts = kk < 2 ? ffmts : ifmts;
    unsigned nf = kk < 2 ? sizeof(ffmts) / sizeof(ffmts[0]) : sizeof(ifmts) / sizeof(ifmts[0]);
    const char *kname = kk == 0 ? "rowf" : kk == 1 ? "rowr" : kk == 2 ? "rowi" : "rowui";
    for (unsigned f = 0; f < nf; f++) {
      if (kk == 2 && fmts[f].type == CL_UNSIGNED_INT32)
        continue;
      if (kk == 3 && (fmts[f].type == CL_SIGNED_INT32 || fmts[f].type == CL_SIGNED_INT8 || fmts[f].type == CL_SIGNED_INT16))
        continue;
      for (unsigned wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++)
        for (unsigned oi = 0; oi < sizeof(offs) / sizeof(offs[0]); oi++) {
          int W = widths[wi], off = offs[oi];
          timg t;
          timg_make(&t, T2D, fmts[f], W, H, 1, 1);
          unsigned char *before = malloc(t.bytes);
          ASSERT_TRUE(before != NULL);
          memcpy(before, t.mem, t.bytes);
          struct lanecl_image *op = &t.d;
          void *args[] = {&op, &off};
          /* work-items for x = off .. off + G - 1, G a multiple of L past
           * the row's end */
          size_t G = ((size_t)(W + 21) + L - 1) / L * L;
          wg_range r = {2, {G, H, 1}, {L, 1, 1}, {0, 0, 0}, NULL};
          wg_run(&prog, kname, args, &r);
          unsigned char *want = malloc(t.bytes);
          ASSERT_TRUE(want != NULL);
          memcpy(want, before, t.bytes);
          for (int y = 0; y < H; y++)
            for (int x = off; x < off + (int)G; x++) {
              if (x < 0 || x >= W)
                continue;
              unsigned char *p = want + (size_t)y * t.d.row_pitch + (size_t)x * t.d.elem_size;
              if (kk == 0) {
                float c[4] = {x * 0.03125f, y * 0.25f, 0.5f - x * 0.0625f, 0.75f};
                ref_encode_f(fmts[f], c, p);
              } else if (kk == 1) {
                float c[4] = {x * 0.03125f, 0.0f, 0.0f, 1.0f};
                ref_encode_f(fmts[f], c, p);
              } else if (kk == 2) {
                int32_t c[4] = {x * 3, y - 2, -x, 100000 + x};
                ref_encode_i(fmts[f], c, 1, p);
              } else {
                int32_t c[4] = {x * 5, y, 300 - x, 70000};
                ref_encode_i(fmts[f], c, 0, p);
              }
            }
          for (size_t i = 0; i < t.bytes; i++)
            if (t.mem[i] != want[i]) {
              size_t y = i / t.d.row_pitch, x = i % t.d.row_pitch / t.d.elem_size;
              tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x width %d offset %d: byte %zu (pixel (%zu, %zu)%s) "
                      "is 0x%02x, want 0x%02x",
                      kname, fmts[f].order, fmts[f].type, W, off, i, x, y, x >= (size_t)W ? ", outside" : "",
                      t.mem[i], want[i]);
            }
          free(before);
          free(want);
          free(t.mem);
        }
    }
  }
}

/* ---- many reads: the general path out of line ----
 * A kernel of MANY_IMAGES images (more than the compiler specializes,
 * WG_IMG_MAX = 8) read three times each, darktable's laplacian_assemble in
 * small: 30 reads of `.x` through a constant sampler summed.  Inlined, the
 * general path is some 700 instructions and 18 switches per read in the
 * general copy (and per read of the images past the eighth in every copy);
 * O3 and code generation took minutes for such kernels of some hundred
 * reads.  Each access of the general path is a call now (in kernels of
 * more than 16 image accesses: cc_wg_image.c's IMG_INLINE_MAX). */
#define MANY_IMAGES 10
#define MANY_READS (3 * MANY_IMAGES)

static char *many_src(void)
{
  size_t cap = 4096, len = 0;
  char *s = malloc(cap);
  ASSERT_TRUE(s != NULL);
  len += (size_t)snprintf(s + len, cap - len,
                          "constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |"
                          " CLK_FILTER_NEAREST;\n"
                          "float taps(read_only image2d_t im, int x, int y) {\n"
                          "  return read_imagef(im, nearest, (int2)(x - 1, y)).x + 2.0f * read_imagef(im, nearest,"
                          " (int2)(x, y)).x\n"
                          "         + 4.0f * read_imagef(im, nearest, (int2)(x + 1, y)).x; }\n"
                          "kernel void many(");
  for (unsigned k = 0; k < MANY_IMAGES; k++)
    len += (size_t)snprintf(s + len, cap - len, "read_only image2d_t i%u, ", k);
  len += (size_t)snprintf(s + len, cap - len, "global float *o) {\n  int x = get_global_id(0);\n  float s = 0.0f;\n");
  for (unsigned k = 0; k < MANY_IMAGES; k++)
    len += (size_t)snprintf(s + len, cap - len, "  s = s * 0.5f + taps(i%u, x, %u);\n", k, k);
  len += (size_t)snprintf(s + len, cap - len, "  o[x] = s; }\n");
  ASSERT_TRUE(len < cap);
  return s;
}

/* The work-group function of many: no switch (each inlined general path
 * had 18) and no more than 100 instructions per read over all its copies
 * (the general path inlined: some 700 in the general copy alone), the
 * general path called instead. */
TEST(many_reads_call_the_general_path_instead_of_inlining_it)
{
  char *src = many_src();
  char *ir = optimized_ir(src);
  const char *fn = "__lanecl_wg_many";
  unsigned sw = count_in_function(ir, fn, " switch "), gen = count_in_function(ir, fn, " @" GENERAL_PATH);
  /* instructions: the lines that assign a value or store, branch or call */
  unsigned insts = count_in_function(ir, fn, " = ") + count_in_function(ir, fn, "  store ") +
                   count_in_function(ir, fn, "  br ") + count_in_function(ir, fn, "  call ") +
                   count_in_function(ir, fn, "  tail call ");
  if (sw || gen < MANY_READS || insts > 100 * MANY_READS)
    tl_fail(__FILE__, __LINE__, "%s: %u switches, %u calls of the general path, %u instructions (want 0, >= %u, <= %u)",
            fn, sw, gen, insts, MANY_READS, 100 * MANY_READS);
  free(ir);
  free(src);
}

/* many's sums against the reference: every image R float (the R float
 * copy, the last two images through the general path in it), R unorm8
 * (its copy), and one image of another format (the general copy). */
TEST(many_reads_match_the_reference_in_every_copy)
{
  char *src = many_src();
  wg_prog p;
  wg_build(src, levels[0], &p);
  static const fmt base[] = {{CL_R, CL_FLOAT}, {CL_R, CL_UNORM_INT8}, {CL_R, CL_FLOAT}};
  const int W = NW + 3, H = MANY_IMAGES;
  for (unsigned v = 0; v < sizeof(base) / sizeof(base[0]); v++) {
    timg t[MANY_IMAGES];
    struct lanecl_image *dp[MANY_IMAGES];
    for (unsigned k = 0; k < MANY_IMAGES; k++) {
      fmt f = base[v];
      if (v == 2 && k == 3)
        f = (fmt){CL_RGBA, CL_UNORM_INT16};
      timg_make(&t[k], T2D, f, W, H, 1, 1);
      dp[k] = &t[k].d;
    }
    float out[NW];
    void *op = out;
    void *args[MANY_IMAGES + 1];
    for (unsigned k = 0; k < MANY_IMAGES; k++)
      args[k] = &dp[k];
    args[MANY_IMAGES] = &op;
    wg_range r = range1(NW, 16, NULL);
    wg_run(&p, "many", args, &r);
    for (int x = 0; x < NW; x++) {
      float s = 0.0f;
      for (unsigned k = 0; k < MANY_IMAGES; k++) {
        float tap[3];
        for (int d = -1; d <= 1; d++) {
          float c[4] = {(float)(x + d) + 0.5f, (float)k + 0.5f, 0.0f, 0.0f}, want[4];
          ref_read_f(&t[k], 0x10 | 0x2, c, want);
          tap[d + 1] = want[0];
        }
        s = s * 0.5f + (tap[0] + 2.0f * tap[1] + 4.0f * tap[2]);
      }
      if (!close_enough(out[x], s))
        tl_fail(__FILE__, __LINE__, "many, images of order 0x%x type 0x%x%s: o[%d] is %.8g, want %.8g", base[v].order,
                base[v].type, v == 2 ? " (the fourth RGBA unorm16)" : "", x, out[x], s);
    }
    for (unsigned k = 0; k < MANY_IMAGES; k++)
      free(t[k].mem);
  }
  wg_free(&p);
  free(src);
}

/* Image kernels through the API: images made by clCreateImage (host pitches,
 * 1D image buffers over a buffer), samplers made by clCreateSampler, set by
 * clSetKernelArg, read and written by kernels, for every image type and
 * every format the device lists that the reference knows, with every
 * sampler (addressing x filter x normalized coordinates); results compared
 * with tests/image_ref.h (the specs' rules, the test's own code). */
#include "tests/image_ref.h"

static const cl_mem_object_type cl_types[] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                              CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                              CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D,
                                              CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE2D_ARRAY};

typedef struct ctx {
  cl_context c;
  cl_command_queue q;
  cl_program p;
} ctx;

static ctx setup(void)
{
  ctx x;
  x.c = tl_context();
  x.q = tl_queue(x.c, 0);
  x.p = tl_build(x.c, src, "-cl-std=CL3.0");
  return x;
}

static void teardown(ctx *x)
{
  clReleaseProgram(x->p);
  clReleaseCommandQueue(x->q);
  clReleaseContext(x->c);
}

/* Whether the device lists f for kind with flags. */
static int listed(ctx *x, int kind, fmt f, cl_mem_flags flags)
{
  cl_uint n = 0;
  ASSERT_OK(clGetSupportedImageFormats(x->c, flags, cl_types[kind], 0, NULL, &n));
  cl_image_format *list = malloc(sizeof(*list) * (n + 1));
  ASSERT_TRUE(list != NULL);
  ASSERT_OK(clGetSupportedImageFormats(x->c, flags, cl_types[kind], n, list, NULL));
  int found = 0;
  for (cl_uint i = 0; i < n; i++)
    found |= list[i].image_channel_order == f.order && list[i].image_channel_data_type == f.type;
  free(list);
  return found;
}

/* The CL image of t (its host pixels and pitches copied), access
 * CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY; *buf: the buffer under a 1D image
 * buffer. */
static cl_mem make_image(ctx *x, const timg *t, cl_mem_flags access, cl_mem *buf)
{
  cl_image_format f = {t->f.order, t->f.type};
  cl_image_desc d;
  memset(&d, 0, sizeof(d));
  d.image_type = cl_types[t->kind];
  d.image_width = t->d.width;
  d.image_height = t->dims >= 2 ? t->d.height : 0;
  d.image_depth = t->dims == 3 ? t->d.depth : 0;
  d.image_array_size = t->arr ? t->d.array_size : 0;
  cl_int err;
  *buf = NULL;
  if (t->kind == T1DB) {
    *buf = clCreateBuffer(x->c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)t->d.width * t->d.elem_size, t->mem,
                          &err);
    ASSERT_OK(err);
    d.buffer = *buf;
    cl_mem m = clCreateImage(x->c, access, &f, &d, NULL, &err);
    ASSERT_OK(err);
    return m;
  }
  d.image_row_pitch = t->d.row_pitch;
  d.image_slice_pitch = t->kind == T1DA ? t->d.row_pitch : t->d.slice_pitch;
  cl_mem m = clCreateImage(x->c, access | CL_MEM_COPY_HOST_PTR, &f, &d, t->mem, &err);
  ASSERT_OK(err);
  return m;
}

/* The image's pixels back into t->mem (its pitches). */
static void read_back(ctx *x, const timg *t, cl_mem m, cl_mem buf)
{
  if (buf) {
    ASSERT_OK(clEnqueueReadBuffer(x->q, buf, CL_TRUE, 0, (size_t)t->d.width * t->d.elem_size, t->mem, 0, NULL, NULL));
    return;
  }
  size_t origin[3] = {0, 0, 0};
  size_t region[3] = {t->d.width, t->kind == T1DA ? t->d.array_size : t->d.height,
                      t->kind == T2DA || t->kind == T2DAD ? t->d.array_size : t->d.depth};
  ASSERT_OK(clEnqueueReadImage(x->q, m, CL_TRUE, origin, region, t->d.row_pitch,
                               t->kind == T1DA ? 0 : t->d.slice_pitch, t->mem, 0, NULL, NULL));
}

static cl_sampler make_sampler(ctx *x, unsigned s)
{
  static const cl_addressing_mode am[] = {CL_ADDRESS_NONE, 0, CL_ADDRESS_CLAMP_TO_EDGE, 0, CL_ADDRESS_CLAMP,
                                          0, CL_ADDRESS_REPEAT, 0, CL_ADDRESS_MIRRORED_REPEAT};
  cl_int err;
  cl_sampler smp = clCreateSampler(x->c, (s & 1) ? CL_TRUE : CL_FALSE, am[s & 0xe],
                                   (s & 0x30) == 0x20 ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &err);
  ASSERT_OK(err);
  return smp;
}

/* Runs kernel(image, sampler, coords, out) over NW work-items. */
static void run_sampled(ctx *x, const char *kernel, cl_mem img, cl_sampler smp, const void *coords, void *out)
{
  cl_int err;
  cl_kernel k = clCreateKernel(x->p, kernel, &err);
  ASSERT_OK(err);
  cl_mem dc = clCreateBuffer(x->c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NW * 16, (void *)coords, &err);
  ASSERT_OK(err);
  cl_mem dout = clCreateBuffer(x->c, CL_MEM_WRITE_ONLY, NW * 16, NULL, &err);
  ASSERT_OK(err);
  cl_uint a = 0;
  ASSERT_OK(clSetKernelArg(k, a++, sizeof(cl_mem), &img));
  if (smp)
    ASSERT_OK(clSetKernelArg(k, a++, sizeof(cl_sampler), &smp));
  ASSERT_OK(clSetKernelArg(k, a++, sizeof(cl_mem), &dc));
  ASSERT_OK(clSetKernelArg(k, a++, sizeof(cl_mem), &dout));
  size_t g = NW;
  ASSERT_OK(clEnqueueNDRangeKernel(x->q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(x->q, dout, CL_TRUE, 0, NW * 16, out, 0, NULL, NULL));
  clReleaseMemObject(dc);
  clReleaseMemObject(dout);
  clReleaseKernel(k);
}

TEST(sampled_reads_of_every_listed_format_match_the_reference)
{
  ctx x = setup();
  static const int kinds[] = {T1D, T1DA, T2D, T2DA, T3D, T2DD, T2DAD};
  static const char *const kern[] = {"rf1", "?", "rf1a", "rf2", "rf2a", "rf3", "rd2", "rd2a"};
  static const fmt depth[] = {{CL_DEPTH, CL_FLOAT}, {CL_DEPTH, CL_UNORM_INT16}};
  unsigned checked = 0;
  for (unsigned k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
    int is_depth = kinds[k] == T2DD || kinds[k] == T2DAD;
    unsigned nf = is_depth ? 2 : N_FLOAT_FMTS;
    for (unsigned f = 0; f < nf; f++) {
      fmt fm = is_depth ? depth[f] : float_fmts[f];
      if (!listed(&x, kinds[k], fm, CL_MEM_READ_ONLY))
        continue;
      timg t;
      timg_make(&t, kinds[k], fm, 7, 5, 3, 4);
      cl_mem buf, img = make_image(&x, &t, CL_MEM_READ_ONLY, &buf);
      for (unsigned s = 0; s < N_SAMPLERS; s++) {
        float c[NW][4], out[NW][4];
        make_coords(&t, samplers[s], c);
        cl_sampler smp = make_sampler(&x, samplers[s]);
        run_sampled(&x, kern[kinds[k]], img, smp, c, out);
        clReleaseSampler(smp);
        for (int i = 0; i < NW; i++) {
          float want[4];
          ref_read_f(&t, samplers[s], c[i], want);
          for (int j = 0; j < (is_depth ? 1 : 4); j++)
            if (!close_enough(out[i][j], want[j])) {
              char b[64];
              tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x sampler %s (%g, %g, %g, %g) ch %d: %.8g, want %.8g",
                      kern[kinds[k]], fm.order, fm.type, sampler_name(samplers[s], b), c[i][0], c[i][1], c[i][2],
                      c[i][3], j, out[i][j], want[j]);
            }
        }
        checked++;
      }
      clReleaseMemObject(img);
      if (buf)
        clReleaseMemObject(buf);
      free(t.mem);
    }
  }
  /* The required formats are listed: this compared something. */
  ASSERT_TRUE(checked >= 5 * 10 * N_SAMPLERS);
  teardown(&x);
}

TEST(integer_reads_of_every_listed_format_match_the_reference)
{
  ctx x = setup();
  static const unsigned smp_bits[] = {0x10, 0x12, 0x14, 0x11 | 0x6, 0x11 | 0x8};
  unsigned checked = 0;
  for (unsigned f = 0; f < N_INT_FMTS; f++) {
    if (!listed(&x, T2D, int_fmts[f], CL_MEM_READ_ONLY))
      continue;
    timg t;
    timg_make(&t, T2D, int_fmts[f], 7, 5, 1, 1);
    cl_mem buf, img = make_image(&x, &t, CL_MEM_READ_ONLY, &buf);
    for (unsigned s = 0; s < sizeof(smp_bits) / sizeof(smp_bits[0]); s++)
      for (int u = 0; u < 2; u++) {
        float c[NW][4];
        int32_t out[NW][4];
        make_coords(&t, smp_bits[s], c);
        cl_sampler smp = make_sampler(&x, smp_bits[s]);
        run_sampled(&x, u ? "rui2" : "ri2", img, smp, c, out);
        clReleaseSampler(smp);
        for (int i = 0; i < NW; i++) {
          int64_t want[4];
          ref_read_i(&t, smp_bits[s], c[i], want);
          for (int j = 0; j < 4; j++)
            if (out[i][j] != (int32_t)want[j])
              tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x sampler 0x%x ch %d: %d, want %d", u ? "rui2" : "ri2",
                      t.f.order, t.f.type, smp_bits[s], j, out[i][j], (int32_t)want[j]);
        }
        checked++;
      }
    clReleaseMemObject(img);
    free(t.mem);
  }
  ASSERT_TRUE(checked >= 6 * 5 * 2);
  teardown(&x);
}

TEST(samplerless_reads_of_1d_image_buffers_match_the_reference)
{
  ctx x = setup();
  unsigned checked = 0;
  for (unsigned f = 0; f < N_FLOAT_FMTS; f++) {
    if (!listed(&x, T1DB, float_fmts[f], CL_MEM_READ_ONLY))
      continue;
    timg t;
    timg_make(&t, T1DB, float_fmts[f], 40, 1, 1, 1);
    cl_mem buf, img = make_image(&x, &t, CL_MEM_READ_ONLY, &buf);
    int ic[NW][4];
    float out[NW][4];
    for (int i = 0; i < NW; i++)
      ic[i][0] = (int)(rnd() % 40u), ic[i][1] = ic[i][2] = ic[i][3] = 0;
    run_sampled(&x, "lf1b", img, NULL, ic, out);
    for (int i = 0; i < NW; i++) {
      float want[4];
      ref_texel_f(&t, ic[i][0], 0, 0, want);
      for (int j = 0; j < 4; j++)
        if (!close_enough(out[i][j], want[j]))
          tl_fail(__FILE__, __LINE__, "lf1b order 0x%x type 0x%x x %d ch %d: %g, want %g", t.f.order, t.f.type,
                  ic[i][0], j, out[i][j], want[j]);
    }
    checked++;
    clReleaseMemObject(img);
    clReleaseMemObject(buf);
    free(t.mem);
  }
  ASSERT_TRUE(checked >= 10);
  teardown(&x);
}

TEST(writes_of_every_listed_format_match_the_reference)
{
  ctx x = setup();
  static const int kinds[] = {T1D, T1DB, T1DA, T2D, T2DA, T3D};
  static const char *const kern[] = {"wf1", "wf1b", "wf1a", "wf2", "wf2a", "wf3"};
  unsigned checked = 0;
  for (unsigned k = 0; k < 6; k++)
    for (unsigned f = 0; f < N_FLOAT_FMTS; f++) {
      if (!listed(&x, kinds[k], float_fmts[f], CL_MEM_WRITE_ONLY))
        continue;
      timg t;
      int w = kinds[k] == T1D || kinds[k] == T1DB ? 41 : 9;
      timg_make(&t, kinds[k], float_fmts[f], w, 5, 3, 5);
      cl_mem buf, img = make_image(&x, &t, CL_MEM_WRITE_ONLY, &buf);
      unsigned char *before = malloc(t.bytes);
      ASSERT_TRUE(before != NULL);
      memcpy(before, t.mem, t.bytes);
      int c[NW][4];
      float v[NW][4];
      write_coords(&t, c);
      for (int i = 0; i < NW; i++)
        for (int j = 0; j < 4; j++)
          v[i][j] = rndf(-1.3f, 1.3f);
      cl_int err;
      cl_kernel kk = clCreateKernel(x.p, kern[k], &err);
      ASSERT_OK(err);
      cl_mem dc = clCreateBuffer(x.c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(c), c, &err);
      ASSERT_OK(err);
      cl_mem dv = clCreateBuffer(x.c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(v), v, &err);
      ASSERT_OK(err);
      ASSERT_OK(clSetKernelArg(kk, 0, sizeof(cl_mem), &img));
      ASSERT_OK(clSetKernelArg(kk, 1, sizeof(cl_mem), &dc));
      ASSERT_OK(clSetKernelArg(kk, 2, sizeof(cl_mem), &dv));
      size_t g = NW;
      ASSERT_OK(clEnqueueNDRangeKernel(x.q, kk, 1, NULL, &g, NULL, 0, NULL, NULL));
      read_back(&x, &t, img, buf);
      int es = elem_size(t.f);
      for (int i = 0; i < NW; i++) {
        unsigned char *at = pixel(&t, c[i][0], c[i][1], c[i][2]);
        unsigned char want[16];
        memcpy(want, before + (at - t.mem), (size_t)es);
        ref_encode_f(t.f, v[i], want);
        for (int b = 0; b < es; b++) {
          int d = at[b] - want[b];
          if (d && !(is_srgb(t.f.order) && (d == 1 || d == -1)))
            tl_fail(__FILE__, __LINE__, "%s order 0x%x type 0x%x (%d,%d,%d): byte %d is 0x%02x, want 0x%02x", kern[k],
                    t.f.order, t.f.type, c[i][0], c[i][1], c[i][2], b, at[b], want[b]);
        }
        memcpy(before + (at - t.mem), at, (size_t)es);
      }
      /* The other pixels kept their values (the pitches' padding is not
       * the image's: read_back leaves it as it was). */
      ASSERT_EQ(memcmp(before, t.mem, t.bytes), 0);
      checked++;
      clReleaseMemObject(dc);
      clReleaseMemObject(dv);
      clReleaseKernel(kk);
      clReleaseMemObject(img);
      if (buf)
        clReleaseMemObject(buf);
      free(before);
      free(t.mem);
    }
  ASSERT_TRUE(checked >= 6 * 8);
  teardown(&x);
}

/* The first launch of a small image kernel makes its code for the formats
 * of that launch: RGBA float here, which has a copy, so the general path
 * goes out of line (cc_wg_image.c).  Later launches with formats that no
 * copy has (an R float image read as float4, R unorm8 read as float4)
 * take the general path out of line: the same values as inline. */
TEST(later_launches_of_other_formats_after_the_first_launch)
{
  static const char ksrc[] =
      "constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
      "kernel void pair(read_only image2d_t in, global float4 *out) {\n"
      "  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);\n"
      "  out[y * w + x] = read_imagef(in, s, (int2)(x, y)) + 2.0f * read_imagef(in, s, (int2)(x + 1, y));\n"
      "}\n";
  enum { W = 37, H = 5 };
  cl_context c = tl_context();
  cl_command_queue q = tl_queue(c, 0);
  cl_program p = tl_build(c, ksrc, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "pair", &err);
  ASSERT_OK(err);
  cl_mem out = clCreateBuffer(c, CL_MEM_WRITE_ONLY, W * H * 16, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(out), &out));
  static const cl_image_format fmts[] = {{CL_RGBA, CL_FLOAT}, {CL_R, CL_FLOAT}, {CL_R, CL_UNORM_INT8},
                                         {CL_RGBA, CL_FLOAT}, {CL_RG, CL_FLOAT}};
  for (unsigned f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
    unsigned nch = fmts[f].image_channel_order == CL_RGBA ? 4 : fmts[f].image_channel_order == CL_RG ? 2 : 1;
    int u8 = fmts[f].image_channel_data_type == CL_UNORM_INT8;
    static float texf[W * H * 4];
    static unsigned char texb[W * H * 4];
    for (int i = 0; i < W * H * (int)nch; i++) {
      texb[i] = (unsigned char)(i * 37 + f * 11);
      texf[i] = (float)(i % 97) * 0.25f - 3.0f;
    }
    cl_image_desc d = {0};
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = W;
    d.image_height = H;
    cl_mem img = clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmts[f], &d,
                               u8 ? (void *)texb : (void *)texf, &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(img), &img));
    size_t g[2] = {W, H};
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL));
    static float got[W * H * 4];
    ASSERT_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(got), got, 0, NULL, NULL));
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
        for (unsigned ch = 0; ch < 4; ch++) {
          float t[2];
          for (int j = 0; j < 2; j++) {
            int xx = x + j < W ? x + j : W - 1, i = (y * W + xx) * (int)nch + (int)ch;
            t[j] = ch < nch ? (u8 ? texb[i] / 255.0f : texf[i]) : ch == 3 ? 1.0f : 0.0f;
          }
          float want = t[0] + 2.0f * t[1], have = got[(y * W + x) * 4 + ch];
          if (fabsf(have - want) > 1e-5f * (1.0f + fabsf(want)))
            tl_fail(__FILE__, __LINE__, "format %u, (%d, %d) channel %u: %g, want %g", f, x, y, ch, have, want);
        }
    clReleaseMemObject(img);
    if (f == 0) /* the code made for this launch says so in its report */
      ASSERT_TRUE(tl_binary_contains(p, "image accesses: the general path out of line"));
  }
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(c);
}

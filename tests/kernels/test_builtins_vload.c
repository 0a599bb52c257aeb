/* vload/vstore for every element type and n = 2, 3, 4, 8, 16 through the
 * __global, __constant, __local and __private overloads (OpenCL C 1.2) and
 * the __generic ones (OpenCL C 3.0), at element-aligned offsets; vstore3
 * leaves the fourth element alone; vload_half/vstore_half[_rte|_rtz|_rtp|
 * _rtn] and the vloada/vstorea forms from float and double against a C
 * reference; the math functions with pointer arguments (fract, modf,
 * sincos, frexp, remquo, lgamma_r) with each address space. */
#include <math.h>
#include <stdint.h>

#include "tests/testlib.h"

#define NVEC 64 /* vectors per work-group (the local buffer holds one group's) */

static const char *types[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"};
static const int tsz[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};

static const char *vl_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define VL(i, p) CAT(vload, N)(i, p)\n#define VS(v, i, p) CAT(vstore, N)(v, i, p)\n"
    "#define CAT(a, b) CAT_(a, b)\n#define CAT_(a, b) a##b\n#define TN CAT(T, N)\n"
    "kernel void k(global const T *src, constant T *csrc, global T *dst, global T *dst3, local T *lbuf)\n{\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  TN v = VL(i, src + 1);                 /* global, element-aligned */\n"
    "  TN c = VL(i, csrc);                    /* constant */\n"
    "  VS(v, l, lbuf);                        /* local */\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  TN w = VL(l, lbuf);\n"
    "  T priv[2 * N];\n"
    "  VS(w, 1, priv);                        /* private */\n"
    "  TN x = VL(1, priv);\n"
    "#if GENERIC\n"
    "  generic T *g = (l & 1) ? (generic T *)priv : (generic T *)lbuf + l * N;\n"
    "  if (l & 1) VS(x, 0, g); else VS(x, 0, g); /* generic */\n"
    "  x = (l & 1) ? VL(0, (generic const T *)g) : VL(0, (generic const T *)g);\n"
    "#endif\n"
    "  VS(x + c, i, dst + 2);\n"
    "#if N == 2\n  vstore3((CAT(T, 3))(x, x.s0), 0, dst3 + 4 * i);\n#else\n"
    "  vstore3(x.s012, 0, dst3 + 4 * i);     /* must leave dst3[4i+3] */\n#endif\n"
    "}\n";

static void run_vload(int t, int n, int generic)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char opts[128];
  snprintf(opts, sizeof(opts), "-DT=%s -DN=%d -DGENERIC=%d%s", types[t], n, generic,
           generic ? " -cl-std=CL3.0" : "");
  cl_program p = tl_build(ctx, vl_source, opts);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  size_t es = (size_t)tsz[t], nel = (size_t)(NVEC * 2) * (size_t)n + 4;
  unsigned char *src = malloc(nel * es), *csrc = malloc(nel * es), *dst = malloc(nel * es), *dst3 = malloc(NVEC * 2 * 4 * es);
  for (size_t i = 0; i < nel; i++)
    for (size_t b = 0; b < es; b++) {
      /* small integer values (exact in float/double too) */
      int64_t v = (int64_t)(i % 50) - 20, c = (int64_t)(i % 7);
      if (t >= 8) {
        if (es == 4) { float f = (float)v, g = (float)c; memcpy(src + i * es, &f, 4); memcpy(csrc + i * es, &g, 4); }
        else { double f = (double)v, g = (double)c; memcpy(src + i * es, &f, 8); memcpy(csrc + i * es, &g, 8); }
        break;
      }
      memcpy(src + i * es, &v, es);
      memcpy(csrc + i * es, &c, es);
      break;
    }
  memset(dst, 0x5a, nel * es);
  memset(dst3, 0x5a, NVEC * 2 * 4 * es);
  cl_mem bs = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nel * es, src, &err);
  ASSERT_OK(err);
  cl_mem bc = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nel * es, csrc, &err);
  ASSERT_OK(err);
  cl_mem bd = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nel * es, dst, &err);
  ASSERT_OK(err);
  cl_mem bd3 = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NVEC * 2 * 4 * es, dst3, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bs));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bc));
  ASSERT_OK(clSetKernelArg(k, 2, sizeof(cl_mem), &bd));
  ASSERT_OK(clSetKernelArg(k, 3, sizeof(cl_mem), &bd3));
  ASSERT_OK(clSetKernelArg(k, 4, NVEC * (size_t)n * es, NULL));
  size_t g = NVEC * 2, l = NVEC;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, bd, CL_TRUE, 0, nel * es, dst, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, bd3, CL_TRUE, 0, NVEC * 2 * 4 * es, dst3, 0, NULL, NULL));
  for (size_t i = 0; i < nel; i++) {
    unsigned char want[8];
    size_t j = i - 2; /* dst + 2 */
    if (i < 2 || i >= 2 + (size_t)(NVEC * 2) * (size_t)n) {
      memset(want, 0x5a, es);
    } else if (t >= 8) {
      double a, c;
      if (es == 4) { float fa, fc; memcpy(&fa, src + (j + 1) * es, 4); memcpy(&fc, csrc + j * es, 4); a = fa; c = fc; float r = (float)(a + c); memcpy(want, &r, 4); }
      else { memcpy(&a, src + (j + 1) * es, 8); memcpy(&c, csrc + j * es, 8); double r = a + c; memcpy(want, &r, 8); }
    } else {
      int64_t a = 0, c = 0;
      memcpy(&a, src + (j + 1) * es, es);
      memcpy(&c, csrc + j * es, es);
      int64_t r = a + c;
      memcpy(want, &r, es);
    }
    if (memcmp(dst + i * es, want, es)) {
      printf("  %s%d (%s): element %zu wrong\n", types[t], n, generic ? "generic" : "named", i);
      ASSERT_TRUE(0);
    }
  }
  for (size_t i = 0; i < NVEC * 2; i++) {
    for (int e = 0; e < 3; e++) /* n == 2 stores (x0, x1, x0) */
      ASSERT_TRUE(!memcmp(dst3 + (4 * i + (size_t)e) * es,
                          src + (i * (size_t)n + 1 + (size_t)(n == 2 && e == 2 ? 0 : e)) * es, es));
    unsigned char sentinel[8];
    memset(sentinel, 0x5a, sizeof(sentinel));
    ASSERT_TRUE(!memcmp(dst3 + (4 * i + 3) * es, sentinel, es)); /* vstore3 wrote only three */
  }
  clReleaseMemObject(bs);
  clReleaseMemObject(bc);
  clReleaseMemObject(bd);
  clReleaseMemObject(bd3);
  free(src);
  free(csrc);
  free(dst);
  free(dst3);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

static void run_type(int t)
{
  static const int ns[] = {2, 3, 4, 8, 16};
  for (int i = 0; i < 5; i++) {
    run_vload(t, ns[i], 0);
    run_vload(t, ns[i], 1);
  }
}

TEST(vload_char) { run_type(0); }
TEST(vload_uchar) { run_type(1); }
TEST(vload_short) { run_type(2); }
TEST(vload_ushort) { run_type(3); }
TEST(vload_int) { run_type(4); }
TEST(vload_uint) { run_type(5); }
TEST(vload_long) { run_type(6); }
TEST(vload_ulong) { run_type(7); }
TEST(vload_float) { run_type(8); }
TEST(vload_double) { run_type(9); }

/* ------------------------------------------------------------------------ */
/* half                                                                     */

static double h2d(uint16_t h)
{
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
  if (e == 31)
    v = m ? NAN : INFINITY;
  return (h & 0x8000) ? -v : v;
}

/* the half nearest x in mode (0 rte, 1 rtz, 2 rtp, 3 rtn), by search */
static uint16_t d2h_ref(double x, int mode)
{
  if (isnan(x))
    return 0x7e00;
  uint16_t s = signbit(x) ? 0x8000 : 0;
  double a = fabs(x);
  if (isinf(x))
    return s | 0x7c00;
  int lo = 0, hi = 0x7bff;
  if (a >= h2d(0x7bff)) {
    lo = 0x7bff;
  } else {
    while (lo < hi) {
      int mid = (lo + hi + 1) / 2;
      if (h2d((uint16_t)mid) <= a) lo = mid; else hi = mid - 1;
    }
  }
  if (h2d((uint16_t)lo) == a)
    return s | (uint16_t)lo;
  double upv = lo == 0x7bff ? 65536.0 : h2d((uint16_t)(lo + 1));
  int up;
  switch (mode) {
  case 0: { double mid = (h2d((uint16_t)lo) + upv) / 2; up = a > mid || (a == mid && (lo & 1)); break; }
  case 1: up = 0; break;
  case 2: up = !s; break;
  default: up = !!s; break;
  }
  return s | (uint16_t)(up ? lo + 1 : lo);
}

static const char *half_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void st(global const float *f, global const double *d, global half *o, local half *lh)\n{\n"
    "  size_t i = get_global_id(0);\n  float x = f[i]; double y = d[i];\n"
    "  vstore_half(x, i, o); vstore_half_rte(x, i, o + 64); vstore_half_rtz(x, i, o + 128);\n"
    "  vstore_half_rtp(x, i, o + 192); vstore_half_rtn(x, i, o + 256);\n"
    "  vstore_half(y, i, o + 320); vstore_half_rte(y, i, o + 384); vstore_half_rtz(y, i, o + 448);\n"
    "  vstore_half_rtp(y, i, o + 512); vstore_half_rtn(y, i, o + 576);\n"
    "  ushort ph[4];\n  vstore_half_rtz(x, 1, (half *)ph);          /* private */\n"
    "  vstore_half_rtz(x, i, lh);                   /* local */\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  ((global ushort *)o)[640 + i] = ((local ushort *)lh)[i];\n  ((global ushort *)o)[704 + i] = ph[1];\n}\n"
    "kernel void ld(global const half *h, global float *o)\n{\n"
    "  size_t i = get_global_id(0);\n"
    "  o[i] = vload_half(i, h);\n"
    "  vstore4(vload_half4(i, h), i, o + 64);       /* unaligned allowed */\n"
    "  vstore4(vloada_half4(i, h), i, o + 320);\n"
    "  vstore3(vload_half3(i, h), i, o + 576);\n"
    "  vstore3(vloada_half3(i, h), i, o + 768);     /* stride 4 */\n"
    "  vstore_half4_rtp(vload_half4(i, h), i, (global half *)(o + 1024)); /* round trip */\n"
    "  vstorea_half3_rtn(vload_half3(i, h), i, (global half *)(o + 1280));\n"
    "}\n";

TEST(half_load_store)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, half_source, "");
  cl_int err;
  float f[64];
  double d[64];
  static const double vals[] = {0.0, -0.0, 1.0, -1.0, 1.0 / 3, -1.0 / 3, 65504.0, 65519.99, 65520.0, -65520.0,
                                1e-8, -1e-8, 6e-8, 3e-8, 2.98023223876953125e-08, 1e10, -1e10, INFINITY,
                                -INFINITY, NAN, 0.1, 2049.0, 2051.0, 1.00048828125, 1.000244140625,
                                6.103515625e-05, 6.0975552e-05, 1.0000000000000002, 3.14159265358979};
  int nv = (int)(sizeof(vals) / sizeof(vals[0]));
  for (int i = 0; i < 64; i++) {
    d[i] = i < nv ? vals[i] : (double)(i * 37 % 200 - 100) / 7.0 * ldexp(1.0, i % 40 - 20);
    f[i] = (float)d[i];
  }
  cl_mem bf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(f), f, &err);
  ASSERT_OK(err);
  cl_mem bd = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(d), d, &err);
  ASSERT_OK(err);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 768 * 2, NULL, &err);
  ASSERT_OK(err);
  cl_kernel k = clCreateKernel(p, "st", &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bf));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bd));
  ASSERT_OK(clSetKernelArg(k, 2, sizeof(cl_mem), &bo));
  ASSERT_OK(clSetKernelArg(k, 3, 64 * 2, NULL));
  size_t g = 64;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL));
  uint16_t h[768];
  ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL));
  static const int modes[5] = {0, 0, 1, 2, 3};
  for (int i = 0; i < 64; i++) {
    for (int m = 0; m < 5; m++) {
      uint16_t wf = d2h_ref(f[i], modes[m]), wd = d2h_ref(d[i], modes[m]);
      uint16_t gf = h[m * 64 + i], gd = h[320 + m * 64 + i];
      int fnan = (wf & 0x7fff) > 0x7c00, dnan = (wd & 0x7fff) > 0x7c00;
      if (!(fnan ? (gf & 0x7fff) > 0x7c00 : gf == wf) || !(dnan ? (gd & 0x7fff) > 0x7c00 : gd == wd)) {
        printf("  vstore_half mode %d: %a: float -> %04x (want %04x), double -> %04x (want %04x)\n", m, d[i], gf,
               wf, gd, wd);
        ASSERT_TRUE(0);
      }
    }
    uint16_t wz = d2h_ref(f[i], 1);
    if ((wz & 0x7fff) <= 0x7c00) {
      ASSERT_EQ(h[640 + i], wz); /* local */
      ASSERT_EQ(h[704 + i], wz); /* private */
    }
  }
  clReleaseKernel(k);

  /* loads: all the halves of a table */
  uint16_t hs[256 * 4 + 8];
  for (int i = 0; i < 256 * 4 + 8; i++)
    hs[i] = (uint16_t)(i * 251 + 7);
  hs[5] = 0x7c00;
  hs[6] = 0xfc00;
  hs[7] = 0x7e01;
  hs[8] = 0x0001;
  hs[9] = 0x8000;
  cl_mem bh = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(hs), hs, &err);
  ASSERT_OK(err);
  cl_mem bl = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1536 * 4, NULL, &err);
  ASSERT_OK(err);
  k = clCreateKernel(p, "ld", &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bh));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bl));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  float o[1536];
  ASSERT_OK(clEnqueueReadBuffer(q, bl, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
#define SAMEF(a, b) ((isnan(a) && isnan(b)) || ((a) == (b) && !!signbit(a) == !!signbit(b)))
  for (int i = 0; i < 64; i++) {
    ASSERT_TRUE(SAMEF(o[i], (float)h2d(hs[i])));
    for (int e = 0; e < 4; e++) {
      ASSERT_TRUE(SAMEF(o[64 + 4 * i + e], (float)h2d(hs[4 * i + e])));
      ASSERT_TRUE(SAMEF(o[320 + 4 * i + e], (float)h2d(hs[4 * i + e])));
    }
    for (int e = 0; e < 3; e++) {
      ASSERT_TRUE(SAMEF(o[576 + 3 * i + e], (float)h2d(hs[3 * i + e])));
      ASSERT_TRUE(SAMEF(o[768 + 3 * i + e], (float)h2d(hs[4 * i + e])));
    }
  }
  const uint16_t *rt = (const uint16_t *)(o + 1024), *rta = (const uint16_t *)(o + 1280);
  for (int i = 0; i < 256; i++) {
    uint16_t x = hs[i];
    ASSERT_TRUE(rt[i] == x || ((x & 0x7fff) > 0x7c00 && (rt[i] & 0x7fff) > 0x7c00));
  }
  for (int i = 0; i < 64; i++)
    for (int e = 0; e < 3; e++) {
      uint16_t x = hs[3 * i + e];
      ASSERT_TRUE(rta[4 * i + e] == x || ((x & 0x7fff) > 0x7c00 && (rta[4 * i + e] & 0x7fff) > 0x7c00));
    }
  clReleaseKernel(k);
  clReleaseMemObject(bf);
  clReleaseMemObject(bd);
  clReleaseMemObject(bo);
  clReleaseMemObject(bh);
  clReleaseMemObject(bl);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* ------------------------------------------------------------------------ */
/* math functions with pointer arguments, every address space               */

static const char *ptr_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void k(global const T *x, global const T *y, global T *o, global int *oi, local T *lt, local int *li)\n{\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  T a = x[i], b = y[i], pt; int pi;\n"
    "  o[8 * i + 0] = fract(a, o + 8 * i + 1);          /* global */\n"
    "  o[8 * i + 2] = modf(a, &pt); o[8 * i + 3] = pt;  /* private */\n"
    "  o[8 * i + 4] = sincos(a, lt + l); o[8 * i + 5] = lt[l]; /* local */\n"
    "  o[8 * i + 6] = frexp(a, li + l); oi[4 * i + 0] = li[l];\n"
    "  o[8 * i + 7] = remquo(a, b, &pi); oi[4 * i + 1] = pi;\n"
    "  T lg = lgamma_r(a, oi + 4 * i + 2);\n"
    "#if GENERIC\n"
    "  generic T *gp = (l & 1) ? (generic T *)&pt : (generic T *)(lt + l);\n"
    "  T f2 = fract(a, gp);\n"
    "#define SAME(u, v) ((u) == (v) || (isnan(u) && isnan(v)))\n"
    "  oi[4 * i + 3] = !SAME(f2, o[8 * i]) || !SAME(*gp, o[8 * i + 1]);\n"
    "#else\n"
    "  oi[4 * i + 3] = 0;\n"
    "#endif\n"
    "  (void)lg;\n"
    "}\n";

static void run_ptr(int dbl, int generic)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char opts[96];
  snprintf(opts, sizeof(opts), "-DT=%s -DGENERIC=%d%s", dbl ? "double" : "float", generic,
           generic ? " -cl-std=CL3.0" : "");
  cl_program p = tl_build(ctx, ptr_source, opts);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  enum { N = 64 };
  double xs[N], ys[N];
  static const double sp[] = {0.0, -0.0, 1.5, -1.5, 7.25, -7.75, INFINITY, -INFINITY, NAN, 1e-3, 1e20, 3.0, -2.5};
  for (int i = 0; i < N; i++) {
    xs[i] = i < 13 ? sp[i] : (double)(i * 97 % 401 - 200) / 8.3;
    ys[i] = i % 5 == 0 ? 0.75 : (double)(i % 11 + 1) / 3.0;
    if (!dbl) { xs[i] = (float)xs[i]; ys[i] = (float)ys[i]; }
  }
  size_t es = dbl ? 8 : 4;
  char hx[N * 8], hy[N * 8];
  for (int i = 0; i < N; i++) {
    if (dbl) { memcpy(hx + i * 8, &xs[i], 8); memcpy(hy + i * 8, &ys[i], 8); }
    else { float a = (float)xs[i], b = (float)ys[i]; memcpy(hx + i * 4, &a, 4); memcpy(hy + i * 4, &b, 4); }
  }
  cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * es, hx, &err);
  ASSERT_OK(err);
  cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * es, hy, &err);
  ASSERT_OK(err);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 8 * es, NULL, &err);
  ASSERT_OK(err);
  cl_mem boi = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4 * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bx));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &by));
  ASSERT_OK(clSetKernelArg(k, 2, sizeof(cl_mem), &bo));
  ASSERT_OK(clSetKernelArg(k, 3, sizeof(cl_mem), &boi));
  ASSERT_OK(clSetKernelArg(k, 4, 16 * es, NULL));
  ASSERT_OK(clSetKernelArg(k, 5, 16 * sizeof(int), NULL));
  size_t g = N, l = 16;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  char ho[N * 8 * 8];
  int hi[N * 4];
  ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, N * 8 * es, ho, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, boi, CL_TRUE, 0, sizeof(hi), hi, 0, NULL, NULL));
  for (int i = 0; i < N; i++) {
    double r[8], x = xs[i], y = ys[i];
    for (int j = 0; j < 8; j++) {
      if (dbl) memcpy(&r[j], ho + (i * 8 + j) * 8, 8);
      else { float f; memcpy(&f, ho + (i * 8 + j) * 4, 4); r[j] = f; }
    }
    /* fract: fmin(x - floor(x), nextbelow 1); +-0 and +-inf give +-0 */
    double fl = floor(x), fr = isnan(x) ? x : isinf(x) ? copysign(0.0, x) : x == 0 ? x : fmin(x - fl, dbl ? 0x1.fffffffffffffp-1 : 0x1.fffffep-1);
    ASSERT_TRUE(SAMEF(r[0], fr) && SAMEF(r[1], fl));
    double ip, mf = modf(x, &ip);
    ASSERT_TRUE(SAMEF(r[2], mf) && SAMEF(r[3], ip));
    double sn = dbl ? sin(x) : sinf((float)x), cs = dbl ? cos(x) : cosf((float)x);
    ASSERT_TRUE((isnan(sn) && isnan(r[4])) || fabs(r[4] - sn) <= 4e-7 * fabs(sn) + 1e-300);
    ASSERT_TRUE((isnan(cs) && isnan(r[5])) || fabs(r[5] - cs) <= 4e-7 * fabs(cs) + 1e-300);
    int e;
    double m = frexp(x, &e);
    ASSERT_TRUE(SAMEF(r[6], m));
    if (isfinite(x))
      ASSERT_EQ(hi[4 * i + 0], e);
    int qq;
    double rq = remquo(x, y, &qq);
    ASSERT_TRUE(SAMEF(r[7], rq));
    if (!isnan(rq))
      ASSERT_EQ(hi[4 * i + 1] & 7, qq & 7); /* glibc gives 3 bits; ours 7 */
    if (isfinite(x) && x > 0) {
      int s;
      lgamma_r(x, &s);
      ASSERT_EQ(hi[4 * i + 2], s);
    }
    ASSERT_EQ(hi[4 * i + 3], 0);
  }
  clReleaseMemObject(bx);
  clReleaseMemObject(by);
  clReleaseMemObject(bo);
  clReleaseMemObject(boi);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(pointer_math_float_named) { run_ptr(0, 0); }
TEST(pointer_math_float_generic) { run_ptr(0, 1); }
TEST(pointer_math_double_named) { run_ptr(1, 0); }
TEST(pointer_math_double_generic) { run_ptr(1, 1); }

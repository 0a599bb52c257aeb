/* Math built-ins through the whole stack: every function of the table below,
 * float and double, every vector width (1, 2, 3, 4, 8, 16), on special values
 * and random inputs, compared with a long double reference in ULPs against
 * the OpenCL C 3.0 bounds; special cases the spec pins are checked exactly.
 * One program per (type, width); a kernel argument picks the function. */
#define _GNU_SOURCE /* exp10l */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "tests/testlib.h"

#define NELEM 1536 /* divisible by every width */

typedef long double ld;

/* ---- reference functions ---- */
static ld pi_l(void) { return 3.141592653589793238462643383279502884L; }
static ld sinpi_l(ld x)
{
  if (isinf(x) || isnan(x))
    return NAN;
  ld r = fmodl(x, 2.0L); /* exact */
  if (r > 1.0L) r -= 2.0L;
  if (r < -1.0L) r += 2.0L;
  ld a = fabsl(r);
  if (a > 0.5L) a = 1.0L - a;
  if (a == 0.0L) return copysignl(0.0L, x);
  return copysignl(sinl(pi_l() * a), r);
}
static ld cospi_l(ld x)
{
  if (isinf(x) || isnan(x))
    return NAN;
  ld a = fabsl(fmodl(x, 2.0L));
  if (a > 1.0L) a = 2.0L - a;
  ld t = 0.5L - a;
  if (t == 0.0L) return 0.0L;
  return sinl(pi_l() * t);
}
static ld tanpi_l(ld x)
{
  if (isinf(x) || isnan(x))
    return NAN;
  ld k = rintl(x), r = x - k, a = fabsl(r);
  if (r == 0.0L) return fmodl(k, 2.0L) != 0.0L ? copysignl(0.0L, -x) : copysignl(0.0L, x);
  if (a == 0.5L) return fmodl(floorl(x), 2.0L) != 0.0L ? -INFINITY : INFINITY;
  ld t = a <= 0.25L ? tanl(pi_l() * a) : 1.0L / tanl(pi_l() * (0.5L - a));
  return copysignl(t, r);
}
static ld asinpi_l(ld x) { return asinl(x) / pi_l(); }
static ld acospi_l(ld x) { return acosl(x) / pi_l(); }
static ld atanpi_l(ld x) { return atanl(x) / pi_l(); }
static ld atan2pi_l(ld y, ld x) { return atan2l(y, x) / pi_l(); }
static ld rsqrt_l(ld x) { return 1.0L / sqrtl(x); }
static ld fdim_l(ld x, ld y) { return isnan(x) || isnan(y) ? NAN : x > y ? x - y : 0.0L; }
static ld maxmag_l(ld x, ld y) { return fabsl(x) > fabsl(y) ? x : fabsl(y) > fabsl(x) ? y : fmaxl(x, y); }
static ld minmag_l(ld x, ld y) { return fabsl(x) < fabsl(y) ? x : fabsl(y) < fabsl(x) ? y : fminl(x, y); }
static ld powr_l(ld x, ld y)
{
  if (x < 0 || isnan(x) || isnan(y)) return NAN;
  if (x == 0 && y == 0) return NAN;
  if (isinf(x) && y == 0) return NAN;
  if (x == 1 && isinf(y)) return NAN;
  return powl(fabsl(x), y);
}
static ld mad_l(ld a, ld b, ld c) { return a * b + c; }
static ld fma_l(ld a, ld b, ld c) { return fmal(a, b, c); }

/* ---- the function table ---- */
typedef enum { K_UN, K_BIN, K_TERN } kind_t;
typedef enum { D_ANY, D_UNIT, D_POS, D_SMALL, D_POW } dom_t;
typedef struct {
  const char *expr; /* OpenCL C, operands a b c */
  kind_t kind;
  ld (*r1)(ld);
  ld (*r2)(ld, ld);
  ld (*r3)(ld, ld, ld);
  double ulp_f, ulp_d; /* spec bounds; < 0: checked only for sign and finiteness */
  dom_t dom;
} fn_t;

#define UN(e, f, uf, ud, d) {e, K_UN, f, NULL, NULL, uf, ud, d}
#define BIN(e, f, uf, ud, d) {e, K_BIN, NULL, f, NULL, uf, ud, d}
#define TERN(e, f, uf, ud, d) {e, K_TERN, NULL, NULL, f, uf, ud, d}

static const fn_t fns[] = {
    UN("sin(a)", sinl, 4, 4, D_ANY), UN("cos(a)", cosl, 4, 4, D_ANY),
    UN("tan(a)", tanl, 5, 5, D_ANY), UN("asin(a)", asinl, 4, 4, D_UNIT),
    UN("acos(a)", acosl, 4, 4, D_UNIT), UN("atan(a)", atanl, 5, 5, D_ANY),
    UN("sinh(a)", sinhl, 4, 4, D_SMALL), UN("cosh(a)", coshl, 4, 4, D_SMALL),
    UN("tanh(a)", tanhl, 5, 5, D_SMALL), UN("asinh(a)", asinhl, 4, 4, D_ANY),
    UN("acosh(a)", acoshl, 4, 4, D_POS), UN("atanh(a)", atanhl, 5, 5, D_UNIT),
    UN("exp(a)", expl, 3, 3, D_SMALL), UN("exp2(a)", exp2l, 3, 3, D_SMALL),
    UN("exp10(a)", exp10l, 3, 3, D_SMALL), UN("expm1(a)", expm1l, 3, 3, D_SMALL),
    UN("log(a)", logl, 3, 3, D_POS), UN("log2(a)", log2l, 3, 3, D_POS),
    UN("log10(a)", log10l, 3, 3, D_POS), UN("log1p(a)", log1pl, 2, 2, D_POS),
    UN("cbrt(a)", cbrtl, 2, 2, D_ANY), UN("sqrt(a)", sqrtl, 3, 0, D_POS),
    UN("rsqrt(a)", rsqrt_l, 2, 2, D_POS), UN("erf(a)", erfl, 16, 16, D_SMALL),
    UN("erfc(a)", erfcl, 16, 16, D_SMALL), UN("tgamma(a)", tgammal, 16, 16, D_SMALL),
    UN("lgamma(a)", lgammal, -1, -1, D_POS), UN("logb(a)", logbl, 0, 0, D_ANY),
    UN("fabs(a)", fabsl, 0, 0, D_ANY), UN("floor(a)", floorl, 0, 0, D_ANY),
    UN("ceil(a)", ceill, 0, 0, D_ANY), UN("trunc(a)", truncl, 0, 0, D_ANY),
    UN("round(a)", roundl, 0, 0, D_ANY), UN("rint(a)", rintl, 0, 0, D_ANY),
    UN("sinpi(a)", sinpi_l, 4, 4, D_ANY), UN("cospi(a)", cospi_l, 4, 4, D_ANY),
    UN("tanpi(a)", tanpi_l, 6, 6, D_ANY), UN("asinpi(a)", asinpi_l, 5, 5, D_UNIT),
    UN("acospi(a)", acospi_l, 5, 5, D_UNIT), UN("atanpi(a)", atanpi_l, 5, 5, D_ANY),
    UN("native_sqrt(a)", sqrtl, 3, -2, D_POS), UN("half_exp(a)", expl, 8192, -2, D_SMALL),
    UN("native_sin(a)", sinl, 4, -2, D_SMALL), UN("native_recip(a)", rsqrt_l, -1, -2, D_POS),
    BIN("atan2(a, b)", atan2l, 6, 6, D_ANY), BIN("atan2pi(a, b)", atan2pi_l, 6, 6, D_ANY),
    BIN("pow(a, b)", powl, 16, 16, D_POW), BIN("powr(a, b)", powr_l, 16, 16, D_POW),
    BIN("hypot(a, b)", hypotl, 4, 4, D_ANY), BIN("fmod(a, b)", fmodl, 0, 0, D_ANY),
    BIN("remainder(a, b)", remainderl, 0, 0, D_ANY), BIN("fdim(a, b)", fdim_l, 0, 0, D_ANY),
    BIN("fmin(a, b)", fminl, 0, 0, D_ANY), BIN("fmax(a, b)", fmaxl, 0, 0, D_ANY),
    BIN("copysign(a, b)", copysignl, 0, 0, D_ANY), BIN("maxmag(a, b)", maxmag_l, 0, 0, D_ANY),
    BIN("minmag(a, b)", minmag_l, 0, 0, D_ANY), BIN("fmin(a, b.s0)", NULL, 0, 0, D_ANY),
    TERN("fma(a, b, c)", fma_l, 0, 0, D_ANY), TERN("mad(a, b, c)", mad_l, -1, -1, D_SMALL),
};
#define NFNS (sizeof(fns) / sizeof(fns[0]))

/* ---- random inputs ---- */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static double uni(double lo, double hi) { return lo + (hi - lo) * (double)(rnd() >> 11) / 9007199254740992.0; }

static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 0.25, 1.5, -2.5,
                                  INFINITY, -INFINITY, NAN, 1e-40, -1e-310, 1e30, -1e300, 100.5, 7.0};

#define NSPEC ((int)(sizeof(specials) / sizeof(specials[0])))

/* input j of element i: the first NSPEC*NSPEC elements pair every special
 * value with every other, the rest are random in the function's domain */
static double gen(dom_t d, int dbl, int j, int i)
{
  if (i < NSPEC * NSPEC)
    return specials[j == 0 ? i % NSPEC : j == 1 ? i / NSPEC : (i * 7) % NSPEC];
  int r = (int)(rnd() % 8);
  if (r == 0) { /* any bit pattern */
    uint64_t b = rnd();
    if (dbl) { double v; memcpy(&v, &b, 8); return v; }
    uint32_t b32 = (uint32_t)b; float v; memcpy(&v, &b32, 4); return v;
  }
  switch (d) {
  case D_UNIT: return uni(-1.0, 1.0);
  case D_POS: return r < 4 ? uni(0.0, 4.0) : exp(uni(-80.0, 80.0));
  case D_SMALL: return uni(-30.0, 30.0);
  case D_POW: return r < 5 ? uni(0.0, 8.0) : uni(-30.0, 30.0);
  default: return r < 4 ? uni(-10.0, 10.0) : uni(-1e4, 1e4);
  }
}

/* ---- ULP error of got against ref, in type (dbl ? double : float) ---- */
static double ulp_err(ld ref, double got, int dbl)
{
  int p = dbl ? 53 : 24, emin = dbl ? -1022 : -126, emax = dbl ? 1023 : 127;
  if (isnan(ref))
    return isnan(got) ? 0.0 : INFINITY;
  if (isnan(got))
    return INFINITY;
  ld refr = dbl ? (ld)(double)ref : (ld)(float)ref;
  if (isinf(got) || isinf(refr))
    return (ld)got == refr ? 0.0 : INFINITY;
  if ((ld)got == ref)
    return 0.0;
  int e = ref == 0 ? emin : ilogbl(ref);
  if (e < emin) e = emin;
  if (e > emax) e = emax;
  ld ulp = ldexpl(1.0L, e - (p - 1));
  return (double)(fabsl((ld)got - ref) / ulp);
}

/* ---- kernels ---- */
static char *kernel_source(int dbl, int w)
{
  const char *T = dbl ? "double" : "float";
  char tn[16];
  snprintf(tn, sizeof(tn), "%s%s", T, w == 1 ? "" : (w == 2 ? "2" : w == 3 ? "3" : w == 4 ? "4" : w == 8 ? "8" : "16"));
  size_t cap = 1 << 16, len = 0;
  char *s = malloc(cap);
  len += (size_t)snprintf(s + len, cap - len,
                          "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                          "#define T %s\n#define TN %s\n",
                          T, tn);
  if (w == 1)
    len += (size_t)snprintf(s + len, cap - len, "#define LD(i, p) ((p)[i])\n#define ST(v, i, p) ((p)[i] = (v))\n");
  else
    len += (size_t)snprintf(s + len, cap - len, "#define LD(i, p) vload%d(i, p)\n#define ST(v, i, p) vstore%d(v, i, p)\n", w, w);
  len += (size_t)snprintf(s + len, cap - len,
                          "kernel void m(global const T *x, global const T *y, global const T *z, global T *out, int f)\n"
                          "{\n  size_t i = get_global_id(0);\n  TN a = LD(i, x), b = LD(i, y), c = LD(i, z), r;\n"
                          "  switch (f) {\n");
  for (size_t f = 0; f < NFNS; f++) {
    const char *e = fns[f].expr;
    /* b.s0 is only valid for vectors: scalars use b */
    if (w == 1 && strstr(e, "b.s0"))
      e = "fmin(a, b)";
    if (!dbl || (strncmp(e, "native_", 7) && strncmp(e, "half_", 5)))
      len += (size_t)snprintf(s + len, cap - len, "  case %zu: r = %s; break;\n", f, e);
  }
  len += (size_t)snprintf(s + len, cap - len, "  default: r = a; break;\n  }\n  ST(r, i, out);\n}\n");
  return s;
}

static void run_type_width(int dbl, int w)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char *src = kernel_source(dbl, w);
  cl_program p = tl_build(ctx, src, "");
  free(src);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "m", &err);
  ASSERT_OK(err);
  size_t es = dbl ? 8 : 4;
  double *in[3], *res = malloc(NELEM * sizeof(double));
  void *hb[3], *ho = malloc(NELEM * es);
  cl_mem b[3], bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NELEM * es, NULL, &err);
  ASSERT_OK(err);
  for (int j = 0; j < 3; j++) {
    in[j] = malloc(NELEM * sizeof(double));
    hb[j] = malloc(NELEM * es);
    b[j] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NELEM * es, NULL, &err);
    ASSERT_OK(err);
  }
  int failures = 0;
  for (size_t f = 0; f < NFNS; f++) {
    const fn_t *fn = &fns[f];
    double bound = dbl ? fn->ulp_d : fn->ulp_f;
    if (bound == -2)
      continue; /* not for this type (native_ and half_ are float only) */
    for (int j = 0; j < 3; j++)
      for (int i = 0; i < NELEM; i++) {
        double v = gen(fn->dom, dbl, j, i);
        in[j][i] = dbl ? v : (double)(float)v;
        if (dbl)
          ((double *)hb[j])[i] = in[j][i];
        else
          ((float *)hb[j])[i] = (float)in[j][i];
      }
    for (int j = 0; j < 3; j++) {
      ASSERT_OK(clEnqueueWriteBuffer(q, b[j], CL_TRUE, 0, NELEM * es, hb[j], 0, NULL, NULL));
      ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &b[j]));
    }
    int fi = (int)f;
    ASSERT_OK(clSetKernelArg(k, 3, sizeof(cl_mem), &bo));
    ASSERT_OK(clSetKernelArg(k, 4, sizeof(int), &fi));
    size_t gsz = NELEM / (size_t)w;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, NELEM * es, ho, 0, NULL, NULL));
    double worst = 0;
    int worst_i = -1;
    for (int i = 0; i < NELEM; i++) {
      double got = dbl ? ((double *)ho)[i] : (double)((float *)ho)[i];
      ld a = in[0][i], bb = in[1][i], c = in[2][i];
      if (strstr(fn->expr, "b.s0"))
        bb = in[1][w == 1 ? i : i - i % w]; /* the first lane of b's vector */
      ld ref = fn->kind == K_UN ? (fn->r1 ? fn->r1(a) : 0)
               : fn->kind == K_BIN ? (fn->r2 ? fn->r2(a, bb) : fminl(a, bb))
                                   : fn->r3(a, bb, c);
      if (!strcmp(fn->expr, "native_recip(a)"))
        ref = 1.0L / a;
      if (!strcmp(fn->expr, "lgamma(a)") && (a <= 0 || a > 1e30))
        continue; /* near the poles lgamma has no useful bound */
      double e;
      if (bound < 0) { /* any precision: a sanity check only */
        ld rr = dbl ? (ld)(double)ref : (ld)(float)ref;
        e = (isnan(rr) && isnan(got)) || (ld)got == rr || fabsl((ld)got - rr) <= 1e-3L * fabsl(rr) ? 0 : INFINITY;
      } else {
        e = ulp_err(ref, got, dbl);
      }
      /* sign-of-zero slack where the spec leaves it open (fmin/fmax of +-0) */
      if (e == INFINITY && got == 0 && ref == 0 && (strstr(fn->expr, "fmin") || strstr(fn->expr, "fmax") ||
                                                    strstr(fn->expr, "mag(")))
        e = 0;
      if (e > worst || (e == INFINITY && worst_i < 0)) {
        worst = e;
        worst_i = i;
      }
    }
    /* a bound of 0 ulp means correctly rounded: half an ulp from the exact value */
    if (worst > (bound < 0 ? 0 : bound == 0 ? 0.5 : bound)) {
      int i = worst_i;
      printf("  %s %s%d: %.3g ulp (bound %g) at a=%a b=%a c=%a: got %a\n", dbl ? "double" : "float", fn->expr,
             w, worst, bound, in[0][i], in[1][i], in[2][i],
             dbl ? ((double *)ho)[i] : (double)((float *)ho)[i]);
      failures++;
    }
  }
  for (int j = 0; j < 3; j++) {
    clReleaseMemObject(b[j]);
    free(in[j]);
    free(hb[j]);
  }
  clReleaseMemObject(bo);
  free(ho);
  free(res);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  ASSERT_EQ(failures, 0);
}

TEST(float_scalar) { run_type_width(0, 1); }
TEST(float2) { run_type_width(0, 2); }
TEST(float3) { run_type_width(0, 3); }
TEST(float4) { run_type_width(0, 4); }
TEST(float8) { run_type_width(0, 8); }
TEST(float16) { run_type_width(0, 16); }
TEST(double_scalar) { run_type_width(1, 1); }
TEST(double2) { run_type_width(1, 2); }
TEST(double3) { run_type_width(1, 3); }
TEST(double4) { run_type_width(1, 4); }
TEST(double8) { run_type_width(1, 8); }
TEST(double16) { run_type_width(1, 16); }

/* ---- functions with integer operands or results: ldexp (vector and scalar
 * exponent), pown, rootn, ilogb, nan, nextafter; float and double, widths 1
 * and 4 ---- */
static const char *int_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define CAT(a, b) CAT_(a, b)\n#define CAT_(a, b) a##b\n"
    "#if W == 1\n#define LD(i, p) ((p)[i])\n#define ST(v, i, p) ((p)[i] = (v))\n#define S0(v) (v)\n"
    "#else\n#define LD(i, p) CAT(vload, W)(i, p)\n#define ST(v, i, p) CAT(vstore, W)(v, i, p)\n#define S0(v) ((v).s0)\n#endif\n"
    "#define TN CAT(T, WS)\n#define IN CAT(int, WS)\n#define UN CAT(U, WS)\n"
    "kernel void k(global const T *x, global const T *y, global const int *n, global T *o, global int *oi,\n"
    "              global const U *code)\n{\n"
    "  size_t i = get_global_id(0);\n"
    "  TN a = LD(i, x), b = LD(i, y);\n  IN k = LD(i, n);\n"
    "  ST(ldexp(a, k), i, o);\n"
    "  ST(ldexp(a, S0(k)), i, o + NE);\n"
    "  ST(pown(a, k), i, o + 2 * NE);\n"
    "  ST(rootn(a, k), i, o + 3 * NE);\n"
    "  ST(nextafter(a, b), i, o + 4 * NE);\n"
    "  ST(nan(LD(i, code)), i, o + 5 * NE);\n"
    "  ST(ilogb(a), i, oi);\n"
    "}\n";

static void run_int_args(int dbl, int w)
{
  enum { NE = 512 };
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char opts[160];
  snprintf(opts, sizeof(opts), "-DT=%s -DU=%s -DW=%d -DWS=%s -DNE=%d", dbl ? "double" : "float",
           dbl ? "ulong" : "uint", w, w == 1 ? "" : "4", NE);
  cl_program p = tl_build(ctx, int_source, opts);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  size_t es = dbl ? 8 : 4;
  double xs[NE], ys[NE];
  int ns[NE];
  char hx[NE * 8], hy[NE * 8], hc[NE * 8], ho[6 * NE * 8];
  int hoi[NE];
  static const double sp[] = {0.0, -0.0, 1.0, -1.0, 3.5, -27.0, 8.0, 1e-39, -1e-310, INFINITY, -INFINITY, NAN, 1e30, 0.1};
  for (int i = 0; i < NE; i++) {
    xs[i] = i < 14 * 4 ? sp[i % 14] : (double)((int)(rnd() % 20001) - 10000) / 97.0;
    ys[i] = i % 3 == 0 ? xs[i] : (i % 3 == 1 ? INFINITY : -INFINITY);
    if (i % 7 == 0) ys[i] = 0.0;
    ns[i] = i < 14 * 4 ? (i / 14) * 3 - 4 : (int)(rnd() % 41) - 20;
    if (i % 50 == 3) ns[i] = (i % 100 == 3) ? 300 : -300;
    if (!dbl) { xs[i] = (float)xs[i]; ys[i] = (float)ys[i]; }
    uint64_t code = rnd() & (dbl ? 0x7ffffffffffffull : 0x3fffffull);
    if (dbl) { memcpy(hx + i * 8, &xs[i], 8); memcpy(hy + i * 8, &ys[i], 8); memcpy(hc + i * 8, &code, 8); }
    else { float a = (float)xs[i], b = (float)ys[i]; uint32_t c = (uint32_t)code; memcpy(hx + i * 4, &a, 4); memcpy(hy + i * 4, &b, 4); memcpy(hc + i * 4, &c, 4); }
  }
  cl_mem m[6];
  m[0] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NE * es, hx, &err);
  m[1] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NE * es, hy, &err);
  m[2] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NE * sizeof(int), ns, &err);
  m[3] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 6 * NE * es, NULL, &err);
  m[4] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NE * sizeof(int), NULL, &err);
  m[5] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NE * es, hc, &err);
  ASSERT_OK(err);
  for (int j = 0; j < 6; j++)
    ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &m[j]));
  size_t g = NE / (size_t)w;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[3], CL_TRUE, 0, 6 * NE * es, ho, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[4], CL_TRUE, 0, sizeof(hoi), hoi, 0, NULL, NULL));
#define GOT(j, i) (dbl ? ((double *)ho)[(j) * NE + (i)] : (double)((float *)ho)[(j) * NE + (i)])
#define SAME(a, b) ((isnan(a) && isnan(b)) || ((a) == (b) && !!signbit(a) == !!signbit(b)))
  for (int i = 0; i < NE; i++) {
    double x = xs[i], y = ys[i];
    int n = ns[i], n0 = ns[i - i % w];
    double want_ld = dbl ? ldexp(x, n) : (double)ldexpf((float)x, n);
    double want_ld0 = dbl ? ldexp(x, n0) : (double)ldexpf((float)x, n0);
    double want_na = dbl ? nextafter(x, y) : (double)nextafterf((float)x, (float)y);
    if (!SAME(GOT(0, i), want_ld) || !SAME(GOT(1, i), want_ld0) || !SAME(GOT(4, i), want_na)) {
      printf("  %s%d x=%a n=%d y=%a: ldexp %a (%a) ldexp-scalar %a (%a) nextafter %a (%a)\n", dbl ? "double" : "float",
             w, x, n, y, GOT(0, i), want_ld, GOT(1, i), want_ld0, GOT(4, i), want_na);
      ASSERT_TRUE(0);
    }
    /* pown: 16 ulp; pown(x, 0) = 1 for any x */
    long double pw = n == 0 ? 1.0L : powl(x, n);
    double e = ulp_err(pw, GOT(2, i), dbl);
    if (e > 16) {
      printf("  %s%d pown(%a, %d) = %a: %.3g ulp\n", dbl ? "double" : "float", w, x, n, GOT(2, i), e);
      ASSERT_TRUE(0);
    }
    /* rootn: 16 ulp; NaN for n = 0 and for x < 0 with n even */
    long double rn;
    if (n == 0 || (x < 0 && n % 2 == 0) || isnan(x)) rn = NAN;
    else { rn = powl(fabsl(x), 1.0L / n); if (n % 2) rn = copysignl(rn, x); }
    e = ulp_err(rn, GOT(3, i), dbl);
    if (e > 16) {
      printf("  %s%d rootn(%a, %d) = %a: %.3g ulp\n", dbl ? "double" : "float", w, x, n, GOT(3, i), e);
      ASSERT_TRUE(0);
    }
    ASSERT_TRUE(isnan(GOT(5, i))); /* nan(code) */
    int il = isnan(x) ? INT32_MAX : x == 0 ? INT32_MIN : isinf(x) ? INT32_MAX : ilogb(x);
    if (!dbl && isfinite(x) && x != 0) il = ilogbf((float)x);
    ASSERT_EQ(hoi[i], il);
  }
  for (int j = 0; j < 6; j++)
    clReleaseMemObject(m[j]);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(integer_operands_float) { run_int_args(0, 1); run_int_args(0, 4); }
TEST(integer_operands_double) { run_int_args(1, 1); run_int_args(1, 4); }

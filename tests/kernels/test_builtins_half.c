/* cl_khr_fp16 through the whole stack.
 *  - math, common and arithmetic on half and halfn (n = 1, 2, 3, 4, 8, 16):
 *    the unary functions on all 65536 half inputs, the binary and ternary
 *    ones on special pairs and random inputs, against a long double
 *    reference in half ULPs with the OpenCL C 3.0 full-profile bounds for
 *    half (0 = correctly rounded);
 *  - conversions: half <-> every integer type (every rounding mode, _sat),
 *    float/double -> half in every mode, half -> float/double, against a C
 *    reference that brackets the value between two adjacent halves;
 *  - relational, select/bitselect, geometric, vloadn/vstoren on half
 *    pointers, work-group collectives on half, half kernel arguments;
 *  - the device's report: cl_khr_fp16 in both extension queries,
 *    CL_DEVICE_HALF_FP_CONFIG (and that subnormal halves are really kept),
 *    the half vector widths, the cl_khr_fp16 macro and pragma.
 * Run also with LANECL_SIMD_BITS=256 (AVX2 with F16C) and 128 (SSE, no F16C:
 * half goes through libgcc's conversions): see tests/CMakeLists.txt. */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "tests/testlib.h"

#define NH 65536

typedef long double ld;

/* ---- the half encoding ---- */
static double hval[NH]; /* value of every bit pattern */

static double h2d(uint16_t h)
{
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

static void init_hval(void)
{
  static int done;
  if (done)
    return;
  for (int i = 0; i < NH; i++)
    hval[i] = h2d((uint16_t)i);
  done = 1;
}

enum { RTE, RTZ, RTP, RTN };

/* v rounded to half by mode: the two adjacent halves around |v| (with
 * infinity standing for 2^16 above 65504, as IEEE's unbounded exponent
 * rounds) and the mode's choice. */
static uint16_t ld2h(ld v, int mode)
{
  init_hval();
  if (isnan(v))
    return 0x7e00;
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  ld m = fabsl(v);
  /* toward zero / away from zero for the magnitude */
  int up = mode == RTP ? !sign : mode == RTN ? !!sign : 0;
  int near = mode == RTE;
  if (isinf(m))
    return sign | 0x7c00;
  int lo = 0, hi = 0x7c00; /* val(lo) <= m < val(hi) */
  if (m >= 65536.0L)
    return sign | ((near || up) ? 0x7c00 : 0x7bff);
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if ((ld)hval[mid] <= m)
      lo = mid;
    else
      hi = mid;
  }
  ld a = hval[lo], b = hi == 0x7c00 ? 65536.0L : (ld)hval[hi];
  if (m == a)
    return sign | (uint16_t)lo;
  int pick_hi;
  if (near) {
    ld mid = (a + b) / 2;
    pick_hi = m > mid || (m == mid && (lo & 1));
  } else
    pick_hi = up;
  return sign | (uint16_t)(pick_hi ? hi : lo);
}

/* error of the half got against the exact ref, in half ulps */
static double ulp_h(ld ref, uint16_t gotb)
{
  double got = hval[gotb];
  if (isnan(ref))
    return isnan(got) ? 0.0 : INFINITY;
  if (isnan(got))
    return INFINITY;
  double refr = hval[ld2h(ref, RTE)];
  if (isinf(got) || isinf(refr))
    return got == refr ? 0.0 : INFINITY;
  if ((ld)got == ref)
    return 0.0;
  int e = ref == 0 ? -14 : ilogbl(ref);
  if (e < -14) e = -14;
  if (e > 15) e = 15;
  return (double)(fabsl((ld)got - ref) / ldexpl(1.0L, e - 10));
}

/* ---- reference functions ---- */
static ld pi_l(void) { return 3.141592653589793238462643383279502884L; }
static ld sinpi_l(ld x)
{
  if (isinf(x) || isnan(x)) return NAN;
  ld r = fmodl(x, 2.0L);
  if (r > 1.0L) r -= 2.0L;
  if (r < -1.0L) r += 2.0L;
  ld a = fabsl(r);
  if (a > 0.5L) a = 1.0L - a;
  if (a == 0.0L) return copysignl(0.0L, x);
  return copysignl(sinl(pi_l() * a), r);
}
static ld cospi_l(ld x)
{
  if (isinf(x) || isnan(x)) return NAN;
  ld a = fabsl(fmodl(x, 2.0L));
  if (a > 1.0L) a = 2.0L - a;
  ld t = 0.5L - a;
  if (t == 0.0L) return 0.0L;
  return sinl(pi_l() * t);
}
static ld tanpi_l(ld x)
{
  if (isinf(x) || isnan(x)) return NAN;
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
static ld exp10_l(ld x) { return powl(10.0L, x); }
static ld degrees_l(ld x) { return x * (180.0L / pi_l()); }
static ld radians_l(ld x) { return x * (pi_l() / 180.0L); }
static ld sign_l(ld x) { return isnan(x) ? 0.0L : x > 0 ? 1.0L : x < 0 ? -1.0L : x; }
static ld fdim_l(ld x, ld y) { return isnan(x) || isnan(y) ? NAN : x > y ? x - y : 0.0L; }
static ld maxmag_l(ld x, ld y) { return fabsl(x) > fabsl(y) ? x : fabsl(y) > fabsl(x) ? y : fmaxl(x, y); }
static ld minmag_l(ld x, ld y) { return fabsl(x) < fabsl(y) ? x : fabsl(y) < fabsl(x) ? y : fminl(x, y); }
static ld powr_l(ld x, ld y)
{
  if (x < 0 || isnan(x) || isnan(y)) return NAN;
  if (x == 0 && y == 0) return NAN;
  if (isinf(x) && y == 0) return NAN;
  if (x == 1 && isinf(y)) return NAN;
  return powl(fabsl(x), y); /* powr(-0, y) is powr(+0, y) */
}
static ld add_l(ld a, ld b) { return a + b; }
static ld sub_l(ld a, ld b) { return a - b; }
static ld mul_l(ld a, ld b) { return a * b; }
static ld div_l(ld a, ld b) { return a / b; }
static ld step_l(ld edge, ld x) { return x < edge ? 0.0L : 1.0L; }
static ld max_l(ld a, ld b) { return a > b ? a : b; } /* max/min: NaN operands are undefined (skipped) */
static ld min_l(ld a, ld b) { return b < a ? b : a; }
static ld nextafter_l(ld x, ld y)
{
  if (isnan(x) || isnan(y)) return NAN;
  if (x == y) return y;
  if (x == 0) return copysignl(ldexpl(1.0L, -24), y);
  uint16_t b = ld2h(x, RTE);
  b += ((x < y) == (x > 0)) ? 1 : -1;
  return hval[b];
}
static ld fma_l(ld a, ld b, ld c) { return fmal(a, b, c); } /* a*b is exact in long double */
static ld clamp_l(ld x, ld lo, ld hi) { return fminl(fmaxl(x, lo), hi); }
static ld mix_l(ld x, ld y, ld a) { return x + (y - x) * a; }
static ld smoothstep_l(ld e0, ld e1, ld x)
{
  ld t = (x - e0) / (e1 - e0);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return t * t * (3 - 2 * t);
}

/* ---- the function table ---- */
typedef enum { K_UN, K_BIN, K_TERN } kind_t;
typedef struct {
  const char *expr; /* OpenCL C on operands a b c */
  kind_t kind;
  ld (*r1)(ld);
  ld (*r2)(ld, ld);
  ld (*r3)(ld, ld, ld);
  double ulp; /* the bound; 0: correctly rounded; < 0: implementation-defined (sanity check) */
} fn_t;
#define UN(e, f, u) {e, K_UN, f, NULL, NULL, u}
#define BIN(e, f, u) {e, K_BIN, NULL, f, NULL, u}
#define TERN(e, f, u) {e, K_TERN, NULL, NULL, f, u}

static const fn_t fns[] = {
    UN("sin(a)", sinl, 2), UN("cos(a)", cosl, 2), UN("tan(a)", tanl, 2),
    UN("asin(a)", asinl, 2), UN("acos(a)", acosl, 2), UN("atan(a)", atanl, 2),
    UN("sinh(a)", sinhl, 2), UN("cosh(a)", coshl, 2), UN("tanh(a)", tanhl, 2),
    UN("asinh(a)", asinhl, 2), UN("acosh(a)", acoshl, 2), UN("atanh(a)", atanhl, 2),
    UN("exp(a)", expl, 2), UN("exp2(a)", exp2l, 2), UN("exp10(a)", exp10_l, 2),
    UN("expm1(a)", expm1l, 2), UN("log(a)", logl, 2), UN("log2(a)", log2l, 2),
    UN("log10(a)", log10l, 2), UN("log1p(a)", log1pl, 2), UN("cbrt(a)", cbrtl, 2),
    UN("sqrt(a)", sqrtl, 0), UN("rsqrt(a)", rsqrt_l, 1), UN("erf(a)", erfl, 4),
    UN("erfc(a)", erfcl, 4), UN("tgamma(a)", tgammal, 4), UN("lgamma(a)", lgammal, -1),
    UN("logb(a)", logbl, 0), UN("fabs(a)", fabsl, 0), UN("floor(a)", floorl, 0),
    UN("ceil(a)", ceill, 0), UN("trunc(a)", truncl, 0), UN("round(a)", roundl, 0),
    UN("rint(a)", rintl, 0), UN("sinpi(a)", sinpi_l, 2), UN("cospi(a)", cospi_l, 2),
    UN("tanpi(a)", tanpi_l, 2), UN("asinpi(a)", asinpi_l, 2), UN("acospi(a)", acospi_l, 2),
    UN("atanpi(a)", atanpi_l, 2), UN("degrees(a)", degrees_l, 2), UN("radians(a)", radians_l, 2),
    UN("sign(a)", sign_l, 0), UN("-a", NULL, 0), UN("(half)1 / a", NULL, 0),
    BIN("a + b", add_l, 0), BIN("a - b", sub_l, 0), BIN("a * b", mul_l, 0), BIN("a / b", div_l, 0),
    BIN("atan2(a, b)", atan2l, 2), BIN("atan2pi(a, b)", atan2pi_l, 2), BIN("pow(a, b)", powl, 4),
    BIN("powr(a, b)", powr_l, 4), BIN("hypot(a, b)", hypotl, 2), BIN("fmod(a, b)", fmodl, 0),
    BIN("remainder(a, b)", remainderl, 0), BIN("fdim(a, b)", fdim_l, 0), BIN("fmin(a, b)", fminl, 0),
    BIN("fmax(a, b)", fmaxl, 0), BIN("copysign(a, b)", copysignl, 0), BIN("maxmag(a, b)", maxmag_l, 0),
    BIN("minmag(a, b)", minmag_l, 0), BIN("nextafter(a, b)", nextafter_l, 0), BIN("step(a, b)", step_l, 0),
    BIN("max(a, b)", max_l, 0), BIN("min(a, b)", min_l, 0), BIN("fmin(a, b.s0)", fminl, 0),
    BIN("step(a.s0, b)", step_l, 0),
    TERN("fma(a, b, c)", fma_l, 0), TERN("mad(a, b, c)", fma_l, 0), TERN("a * b + c", fma_l, 0),
    TERN("clamp(a, fmin(b, c), fmax(b, c))", clamp_l, 0), TERN("mix(a, b, c)", mix_l, -1),
    TERN("smoothstep(fmin(a, b), fmax(a, b), c)", smoothstep_l, -1),
};
#define NFNS (sizeof(fns) / sizeof(fns[0]))

/* ---- inputs ---- */
static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t rnd(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static const uint16_t hspec[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0xb800, 0x4000, 0xc000, 0x4200, 0x3400,
                                 0x3e00, 0xc100, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff,
                                 0xfbff, 0x5640, 0x4a40, 0x4700, 0x1400, 0x6c00};
#define NHSPEC ((int)(sizeof(hspec) / sizeof(hspec[0])))

/* half operand j of element i for a binary/ternary function */
static uint16_t gen2(int j, int i)
{
  if (i < NHSPEC * NHSPEC)
    return hspec[j == 0 ? i % NHSPEC : j == 1 ? i / NHSPEC : (i * 7) % NHSPEC];
  int r = (int)(rnd() % 4);
  if (r == 0)
    return (uint16_t)rnd(); /* any pattern */
  if (r == 1)
    return ld2h((ld)((int)(rnd() % 2001) - 1000) / 64.0L, RTE);
  return (uint16_t)((rnd() & 0x8000) | (0x2000 + rnd() % 0x2800)); /* |x| in [2^-6, 2^4) */
}

static const char *wsuf(int w)
{
  return w == 1 ? "" : w == 2 ? "2" : w == 3 ? "3" : w == 4 ? "4" : w == 8 ? "8" : "16";
}

static const char *half_prelude =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define CAT(a, b) CAT_(a, b)\n#define CAT_(a, b) a##b\n";

static char *math_source(int w)
{
  size_t cap = 1 << 16, len = 0;
  char *s = malloc(cap);
  len += (size_t)snprintf(s + len, cap - len, "%s#define TN half%s\n", half_prelude, wsuf(w));
  if (w == 1)
    len += (size_t)snprintf(s + len, cap - len, "#define LD(i, p) ((p)[i])\n#define ST(v, i, p) ((p)[i] = (v))\n");
  else
    len += (size_t)snprintf(s + len, cap - len, "#define LD(i, p) vload%d(i, p)\n#define ST(v, i, p) vstore%d(v, i, p)\n",
                            w, w);
  len += (size_t)snprintf(s + len, cap - len,
                          "kernel void m(global const half *x, global const half *y, global const half *z, global half *out, int f)\n"
                          "{\n  size_t i = get_global_id(0);\n  TN a = LD(i, x), b = LD(i, y), c = LD(i, z), r;\n"
                          "  switch (f) {\n");
  for (size_t f = 0; f < NFNS; f++) {
    char e[128];
    snprintf(e, sizeof(e), "%s", fns[f].expr);
    if (w == 1) { /* .s0 is for vectors */
      char *p = strstr(e, ".s0");
      if (p)
        memmove(p, p + 3, strlen(p + 3) + 1);
    }
    len += (size_t)snprintf(s + len, cap - len, "  case %zu: r = %s; break;\n", f, e);
  }
  len += (size_t)snprintf(s + len, cap - len, "  default: r = a; break;\n  }\n  ST(r, i, out);\n}\n");
  return s;
}

static int run_math(int w, int verbose)
{
  init_hval();
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char *src = math_source(w);
  cl_program p = tl_build(ctx, src, "");
  free(src);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "m", &err);
  ASSERT_OK(err);
  uint16_t *in[3], *out = malloc(NH * 2);
  cl_mem b[3], bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NH * 2, NULL, &err);
  ASSERT_OK(err);
  for (int j = 0; j < 3; j++) {
    in[j] = malloc(NH * 2);
    b[j] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NH * 2, NULL, &err);
    ASSERT_OK(err);
  }
  int failures = 0;
  for (size_t f = 0; f < NFNS; f++) {
    const fn_t *fn = &fns[f];
    for (int i = 0; i < NH; i++) {
      if (fn->kind == K_UN) { /* every half */
        in[0][i] = (uint16_t)i;
        in[1][i] = in[2][i] = 0;
      } else
        for (int j = 0; j < 3; j++)
          in[j][i] = gen2(j, i);
    }
    if (fn->kind == K_TERN) { /* fma's double-rounding trap: 1.5 * (683/1024) + 2^-24 */
      in[0][NH - 1] = 0x3e00; in[1][NH - 1] = 0x3957; in[2][NH - 1] = 0x0001;
      in[0][NH - 2] = 0xbe00; in[1][NH - 2] = 0x3957; in[2][NH - 2] = 0x8001;
    }
    for (int j = 0; j < 3; j++) {
      ASSERT_OK(clEnqueueWriteBuffer(q, b[j], CL_TRUE, 0, NH * 2, in[j], 0, NULL, NULL));
      ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &b[j]));
    }
    int fi = (int)f;
    ASSERT_OK(clSetKernelArg(k, 3, sizeof(cl_mem), &bo));
    ASSERT_OK(clSetKernelArg(k, 4, sizeof(int), &fi));
    size_t gsz = NH / (size_t)w;
    if (w == 3)
      gsz = (NH - 1) / 3;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, gsz * (size_t)w * 2, out, 0, NULL, NULL));
    double worst = 0;
    int worst_i = -1;
    for (int i = 0; i < (int)gsz * w; i++) {
      ld a = hval[in[0][i]], bb = hval[in[1][i]], c = hval[in[2][i]];
      if (strstr(fn->expr, "b.s0"))
        bb = hval[in[1][w == 1 ? i : i - i % w]];
      if (strstr(fn->expr, "a.s0"))
        a = hval[in[0][w == 1 ? i : i - i % w]];
      ld ref;
      if (!strcmp(fn->expr, "-a"))
        ref = -a;
      else if (!strcmp(fn->expr, "(half)1 / a"))
        ref = 1.0L / a;
      else if (fn->kind == K_UN)
        ref = fn->r1(a);
      else if (fn->kind == K_BIN)
        ref = fn->r2(a, bb);
      else if (!strncmp(fn->expr, "clamp", 5))
        ref = clamp_l(a, fminl(bb, c), fmaxl(bb, c));
      else if (!strncmp(fn->expr, "smoothstep", 10))
        ref = smoothstep_l(fminl(a, bb), fmaxl(a, bb), c);
      else
        ref = fn->r3(a, bb, c);
      uint16_t g = out[i];
      double e;
      if ((!strncmp(fn->expr, "max", 3) || !strncmp(fn->expr, "min", 3)) && (isnan(a) || isnan(bb)))
        continue; /* max/min: undefined for NaN operands */
      if ((!strncmp(fn->expr, "clamp", 5) || !strncmp(fn->expr, "smoothstep", 10) || !strncmp(fn->expr, "mix", 3) ||
           !strncmp(fn->expr, "step", 4)) &&
          (isnan(a) || isnan(bb) || isnan(c) || isinf(a) || isinf(bb) || isinf(c)))
        continue; /* undefined for NaN, infinities of no interest */
      if (!strcmp(fn->expr, "lgamma(a)") && a <= 0)
        continue; /* near the poles lgamma has no useful bound */
      if (!strcmp(fn->expr, "mix(a, b, c)") && (c < 0 || c > 1))
        continue; /* a outside [0, 1]: undefined */
      if (!strncmp(fn->expr, "smoothstep", 10) && fminl(a, bb) >= fmaxl(a, bb))
        continue; /* edge0 >= edge1: undefined */
      if (fn->ulp < 0) { /* implementation-defined: within 1e-3 relative, or 2^-14 absolute */
        double rr = hval[ld2h(ref, RTE)], gv = hval[g];
        e = (isnan(rr) && isnan(gv)) || gv == rr || fabs(gv - rr) <= 1e-3 * fabs(rr) || fabs(gv - rr) <= 0x1p-14
                ? 0
                : INFINITY;
      } else if (!strcmp(fn->expr, "mad(a, b, c)") || !strcmp(fn->expr, "a * b + c")) {
        /* a correctly rounded fma, or a correctly rounded multiply then add */
        uint16_t m = ld2h(a * bb, RTE);
        ld ref2 = hval[m] + c;
        double e1 = ulp_h(ref, g), e2 = isnan(hval[m]) ? e1 : ulp_h(ref2, g);
        e = e1 < e2 ? e1 : e2;
      } else
        e = ulp_h(ref, g);
      /* fmin/fmax/mag of +-0 and -+0: either zero */
      if (e == INFINITY && hval[g] == 0 && ref == 0 && (strstr(fn->expr, "fm") || strstr(fn->expr, "mag(")))
        e = 0;
      if (e > worst || (e == INFINITY && worst_i < 0)) {
        worst = e;
        worst_i = i;
      }
    }
    double bound = fn->ulp < 0 ? 0 : fn->ulp == 0 ? 0.5 : fn->ulp;
    if (worst > bound) {
      int i = worst_i;
      printf("  half%s %s: %.3g ulp (bound %g) at a=%a b=%a c=%a: got %a (0x%04x)\n", wsuf(w), fn->expr, worst,
             fn->ulp, hval[in[0][i]], hval[in[1][i]], hval[in[2][i]], hval[out[i]], out[i]);
      failures++;
    } else if (verbose)
      printf("  half%s %s: worst %.3g ulp\n", wsuf(w), fn->expr, worst);
  }
  for (int j = 0; j < 3; j++) {
    clReleaseMemObject(b[j]);
    free(in[j]);
  }
  clReleaseMemObject(bo);
  free(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return failures;
}

TEST(math_half) { ASSERT_EQ(run_math(1, getenv("HALF_VERBOSE") != NULL), 0); }
TEST(math_half2) { ASSERT_EQ(run_math(2, 0), 0); }
TEST(math_half3) { ASSERT_EQ(run_math(3, 0), 0); }
TEST(math_half4) { ASSERT_EQ(run_math(4, 0), 0); }
TEST(math_half8) { ASSERT_EQ(run_math(8, 0), 0); }
TEST(math_half16) { ASSERT_EQ(run_math(16, 0), 0); }

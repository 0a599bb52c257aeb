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
#define _DEFAULT_SOURCE /* lgamma_r */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "tests/testlib.h"

#include <CL/cl_ext.h> /* CL_DEVICE_HALF_FP_CONFIG (cl_khr_fp16) */

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

/* ---- conversions ---- */
typedef struct {
  const char *name;
  int size, is_signed, is_float;
} ctype_t;
static const ctype_t ctypes[] = {{"char", 1, 1, 0},  {"uchar", 1, 0, 0}, {"short", 2, 1, 0}, {"ushort", 2, 0, 0},
                                 {"int", 4, 1, 0},   {"uint", 4, 0, 0},  {"long", 8, 1, 0},  {"ulong", 8, 0, 0},
                                 {"float", 4, 1, 1}, {"double", 8, 1, 1}};
#define NCT 10
static const char *cmodes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

typedef struct {
  int to_half; /* 1: ctypes[t] -> half, 0: half -> ctypes[t] */
  int t, mode, sat;
} conv_t;
static conv_t convs[256];
static int nconvs;

static void init_convs(void)
{
  if (nconvs)
    return;
  for (int t = 0; t < NCT; t++)
    for (int m = 0; m < 5; m++) {
      convs[nconvs++] = (conv_t){1, t, m, 0};
      for (int sat = 0; sat < 2; sat++)
        if (!ctypes[t].is_float || (!sat && m == 0))
          convs[nconvs++] = (conv_t){0, t, m, sat};
    }
}

static char *conv_source(int w)
{
  init_convs();
  size_t cap = 1 << 16, len = 0;
  char *s = malloc(cap);
  len += (size_t)snprintf(s + len, cap - len, "%s", half_prelude);
  if (w == 1)
    len += (size_t)snprintf(s + len, cap - len, "#define LD(i, p) ((p)[i])\n#define ST(v, i, p) ((p)[i] = (v))\n");
  else
    len += (size_t)snprintf(s + len, cap - len, "#define LD(i, p) vload%d(i, p)\n#define ST(v, i, p) vstore%d(v, i, p)\n",
                            w, w);
  len += (size_t)snprintf(s + len, cap - len,
                          "kernel void c(global const uchar *in, global uchar *out, int f)\n"
                          "{\n  size_t i = get_global_id(0);\n  switch (f) {\n");
  for (int c = 0; c < nconvs; c++) {
    const conv_t *cv = &convs[c];
    const char *st = cv->to_half ? ctypes[cv->t].name : "half", *dt = cv->to_half ? "half" : ctypes[cv->t].name;
    len += (size_t)snprintf(s + len, cap - len, "  case %d: ST(convert_%s%s%s%s(LD(i, (global const %s *)in)), i, (global %s *)out); break;\n",
                            c, dt, wsuf(w), cv->sat ? "_sat" : "", cmodes[cv->mode], st, dt);
  }
  len += (size_t)snprintf(s + len, cap - len, "  }\n}\n");
  return s;
}

/* a value of type t, as its bits (little endian, t's size) and as a long double */
static ld gen_src(const ctype_t *ct, int i, unsigned char *bits)
{
  if (!ct->is_float) {
    uint64_t u;
    if (ct->size <= 2)
      u = (uint64_t)i; /* every value (8 bits: each 256 times) */
    else {
      int r = (int)(rnd() % 4);
      u = rnd();
      if (r == 0)
        u >>= rnd() % 64; /* all magnitudes */
      else if (r == 1)
        u = (uint64_t)((int64_t)(rnd() % 140000) - 70000); /* around the half range */
      else if (r == 2) /* near a half-rounding boundary: a half value plus a few */
        u = (uint64_t)(int64_t)hval[0x6000 + rnd() % 0x1bff] + (rnd() % 9) - 4;
      if (i < 8)
        u = ct->size == 4 ? (uint64_t[]){0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 65504, 65519, 65520}[i]
                          : (uint64_t[]){0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, 65504, 65520, 65536}[i];
    }
    memcpy(bits, &u, (size_t)ct->size);
    if (ct->size == 1)
      return ct->is_signed ? (ld)(int8_t)u : (ld)(uint8_t)u;
    if (ct->size == 2)
      return ct->is_signed ? (ld)(int16_t)u : (ld)(uint16_t)u;
    if (ct->size == 4)
      return ct->is_signed ? (ld)(int32_t)u : (ld)(uint32_t)u;
    return ct->is_signed ? (ld)(int64_t)u : (ld)u;
  }
  /* float / double: halves, midpoints, their neighbours (one float or
   * double ulp away: double rounding through float shows there), random */
  double v;
  int r = (int)(rnd() % 6);
  uint16_t hb = (uint16_t)(rnd() % 0x7c00);
  double a = hval[hb], b = hb == 0x7bff ? 65536.0 : hval[hb + 1], mid = (a + b) / 2;
  if (r == 0)
    v = a;
  else if (r == 1)
    v = mid;
  else if (r == 2)
    v = ct->size == 4 ? (double)nextafterf((float)mid, (rnd() & 1) ? INFINITY : 0.0f)
                      : nextafter(mid, (rnd() & 1) ? INFINITY : 0.0);
  else if (r == 3) {
    uint64_t u = rnd();
    if (ct->size == 4) { uint32_t u32 = (uint32_t)u; float f; memcpy(&f, &u32, 4); v = f; }
    else memcpy(&v, &u, 8);
  } else if (r == 4)
    v = ldexp((double)(rnd() % 1000000), (int)(rnd() % 60) - 50);
  else
    v = mid + (b - a) * ((double)(rnd() % 1000) / 1000.0 - 0.5) / 8;
  if (i < 12)
    v = (double[]){0.0, -0.0, INFINITY, -INFINITY, NAN, 65504, 65519.99, 65520, 1e10, 0x1p-25, 0x1.0000001p-25, 0x1p-26}[i];
  if (rnd() & 1)
    v = -v;
  if (ct->size == 4) {
    float f = (float)v;
    memcpy(bits, &f, 4);
    return f;
  }
  memcpy(bits, &v, 8);
  return v;
}

static int run_conv(int w)
{
  init_hval();
  init_convs();
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char *src = conv_source(w);
  cl_program p = tl_build(ctx, src, "");
  free(src);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "c", &err);
  ASSERT_OK(err);
  unsigned char *in = malloc(NH * 8), *out = malloc(NH * 8);
  ld *vals = malloc(NH * sizeof(ld));
  cl_mem bi = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NH * 8, NULL, &err);
  ASSERT_OK(err);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NH * 8, NULL, &err);
  ASSERT_OK(err);
  int failures = 0;
  for (int c = 0; c < nconvs; c++) {
    const conv_t *cv = &convs[c];
    const ctype_t *ct = &ctypes[cv->t];
    int ssz = cv->to_half ? ct->size : 2, dsz = cv->to_half ? 2 : ct->size;
    for (int i = 0; i < NH; i++) {
      if (cv->to_half)
        vals[i] = gen_src(ct, i, in + (size_t)i * (size_t)ssz);
      else {
        uint16_t h = (uint16_t)i;
        memcpy(in + (size_t)i * 2, &h, 2);
        vals[i] = hval[h];
      }
    }
    ASSERT_OK(clEnqueueWriteBuffer(q, bi, CL_TRUE, 0, NH * (size_t)ssz, in, 0, NULL, NULL));
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bi));
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bo));
    ASSERT_OK(clSetKernelArg(k, 2, sizeof(int), &c));
    size_t gsz = w == 3 ? (NH - 1) / 3 : NH / (size_t)w;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, gsz * (size_t)w * (size_t)dsz, out, 0, NULL, NULL));
    int bad = -1;
    char want_s[64] = "", got_s[64] = "";
    for (int i = 0; i < (int)gsz * w && bad < 0; i++) {
      ld v = vals[i];
      if (cv->to_half) {
        uint16_t got, want = ld2h(v, cv->mode == 0 ? RTE : cv->mode - 1);
        memcpy(&got, out + (size_t)i * 2, 2);
        if (got != want && !(isnan(hval[got]) && isnan(hval[want]))) {
          bad = i;
          snprintf(want_s, sizeof(want_s), "0x%04x", want);
          snprintf(got_s, sizeof(got_s), "0x%04x", got);
        }
      } else if (ct->is_float) { /* exact */
        double got;
        if (ct->size == 4) { float f; memcpy(&f, out + (size_t)i * 4, 4); got = f; }
        else memcpy(&got, out + (size_t)i * 8, 8);
        if (!(got == (double)v && !!signbit(got) == !!signbit(v)) && !(isnan(got) && isnan(v))) {
          bad = i;
          snprintf(want_s, sizeof(want_s), "%La", v);
          snprintf(got_s, sizeof(got_s), "%a", got);
        }
      } else {
        int mode = cv->mode == 0 ? RTZ : cv->mode - 1; /* to integers: _rtz by default */
        ld r = mode == RTE ? rintl(v) : mode == RTZ ? truncl(v) : mode == RTP ? ceill(v) : floorl(v);
        ld lo = ct->is_signed ? -ldexpl(1.0L, ct->size * 8 - 1) : 0.0L;
        ld hi = ldexpl(1.0L, ct->size * 8 - ct->is_signed) - 1.0L;
        if (!cv->sat && (isnan(v) || r < lo || r > hi))
          continue; /* undefined */
        if (isnan(v))
          r = 0;
        r = r < lo ? lo : r > hi ? hi : r;
        uint64_t u = 0;
        memcpy(&u, out + (size_t)i * (size_t)ct->size, (size_t)ct->size);
        ld got = ct->size == 1 ? (ct->is_signed ? (ld)(int8_t)u : (ld)(uint8_t)u)
                 : ct->size == 2 ? (ct->is_signed ? (ld)(int16_t)u : (ld)(uint16_t)u)
                 : ct->size == 4 ? (ct->is_signed ? (ld)(int32_t)u : (ld)(uint32_t)u)
                                 : (ct->is_signed ? (ld)(int64_t)u : (ld)u);
        if (got != r) {
          bad = i;
          snprintf(want_s, sizeof(want_s), "%.0Lf", r);
          snprintf(got_s, sizeof(got_s), "%.0Lf", got);
        }
      }
    }
    if (bad >= 0) {
      printf("  convert_%s%s%s%s(%s%s) of %La: got %s, want %s\n", cv->to_half ? "half" : ct->name, wsuf(w),
             cv->sat ? "_sat" : "", cmodes[cv->mode], cv->to_half ? ct->name : "half", wsuf(w), vals[bad], got_s,
             want_s);
      failures++;
    }
  }
  free(in);
  free(out);
  free(vals);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return failures;
}

TEST(convert_half) { ASSERT_EQ(run_conv(1), 0); }
TEST(convert_half3) { ASSERT_EQ(run_conv(3), 0); }
TEST(convert_half4) { ASSERT_EQ(run_conv(4), 0); }
TEST(convert_half16) { ASSERT_EQ(run_conv(16), 0); }

/* ---- relational, select, bitselect: all 65536 a against random b ---- */
static const char *rel_source =
    "#define TN CAT(half, WS)\n#define SN CAT(short, WS)\n"
    "#if W == 1\n#define LD(i, p) ((p)[i])\n#define ST(v, i, p) ((p)[i] = (v))\n#define R(x) (short)(x)\n"
    "#else\n#define LD(i, p) CAT(vload, W)(i, p)\n#define ST(v, i, p) CAT(vstore, W)(v, i, p)\n#define R(x) (x)\n#endif\n"
    "kernel void r(global const half *x, global const half *y, global const short *sel, global short *o, global half *oh, int f)\n{\n"
    "  size_t i = get_global_id(0), n = get_global_size(0) * W;\n"
    "  TN a = LD(i, x), b = LD(i, y);\n  SN s = LD(i, sel);\n"
    "  switch (f) {\n"
    "  case 0: ST(R(isequal(a, b)), i, o + 0 * n); break;\n"
    "  case 1: ST(R(isnotequal(a, b)), i, o + 1 * n); break;\n"
    "  case 2: ST(R(isgreater(a, b)), i, o + 2 * n); break;\n"
    "  case 3: ST(R(isgreaterequal(a, b)), i, o + 3 * n); break;\n"
    "  case 4: ST(R(isless(a, b)), i, o + 4 * n); break;\n"
    "  case 5: ST(R(islessequal(a, b)), i, o + 5 * n); break;\n"
    "  case 6: ST(R(islessgreater(a, b)), i, o + 6 * n); break;\n"
    "  case 7: ST(R(isfinite(a)), i, o + 7 * n); break;\n"
    "  case 8: ST(R(isinf(a)), i, o + 8 * n); break;\n"
    "  case 9: ST(R(isnan(a)), i, o + 9 * n); break;\n"
    "  case 10: ST(R(isnormal(a)), i, o + 10 * n); break;\n"
    "  case 11: ST(R(isordered(a, b)), i, o + 11 * n); break;\n"
    "  case 12: ST(R(isunordered(a, b)), i, o + 12 * n); break;\n"
    "  case 13: ST(R(signbit(a)), i, o + 13 * n); break;\n"
    "  }\n"
    "  ST(select(a, b, s), i, oh);\n  ST(select(a, b, CAT(convert_ushort, WS)(s)), i, oh + n);\n"
    "  ST(bitselect(a, b, CAT(as_half, WS)(s)), i, oh + 2 * n);\n"
    "  ST(CAT(as_half, WS)((SN)(CAT(as_short, WS)(a) ^ s)), i, oh + 3 * n);\n"
    "}\n";

static void run_rel(int w)
{
  init_hval();
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char opts[96], *src = malloc(strlen(rel_source) + strlen(half_prelude) + 1);
  strcpy(src, half_prelude);
  strcat(src, rel_source);
  snprintf(opts, sizeof(opts), "-DW=%d -DWS=%s", w, wsuf(w));
  cl_program p = tl_build(ctx, src, opts);
  free(src);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "r", &err);
  ASSERT_OK(err);
  int n = w == 3 ? NH - 1 : NH;
  uint16_t *x = malloc(NH * 2), *y = malloc(NH * 2), *s = malloc(NH * 2), *oh = malloc(4 * NH * 2);
  int16_t *o = malloc(14 * NH * 2);
  for (int i = 0; i < NH; i++) {
    x[i] = (uint16_t)i;
    y[i] = (rnd() % 4) == 0 ? (uint16_t)i : gen2(1, i % 1000 + NHSPEC * NHSPEC);
    if (i % 7 == 0)
      y[i] = hspec[i % NHSPEC];
    s[i] = (uint16_t)rnd();
  }
  cl_mem m[5];
  m[0] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NH * 2, x, &err);
  m[1] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NH * 2, y, &err);
  m[2] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NH * 2, s, &err);
  m[3] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 14 * NH * 2, NULL, &err);
  m[4] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * NH * 2, NULL, &err);
  ASSERT_OK(err);
  for (int j = 0; j < 5; j++)
    ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &m[j]));
  size_t g = (size_t)n / (size_t)w;
  /* one launch per function (one kernel storing all 14 results, 16 wide,
   * takes the code generator half a minute) */
  for (int f = 0; f < 14; f++) {
    ASSERT_OK(clSetKernelArg(k, 5, sizeof(int), &f));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  }
  ASSERT_OK(clEnqueueReadBuffer(q, m[3], CL_TRUE, 0, 14 * (size_t)n * 2, o, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[4], CL_TRUE, 0, 4 * (size_t)n * 2, oh, 0, NULL, NULL));
  static const char *names[] = {"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
                                "islessgreater", "isfinite", "isinf", "isnan", "isnormal", "isordered",
                                "isunordered", "signbit"};
  int t = w == 1 ? 1 : -1; /* scalars: 1, vectors: -1 (all bits) */
  for (int i = 0; i < n; i++) {
    double a = hval[x[i]], b = hval[y[i]];
    int want[14] = {a == b, isnan(a) || isnan(b) || a != b, a > b, a >= b, a < b, a <= b, a < b || a > b,
                    isfinite(a), isinf(a), isnan(a), ((x[i] >> 10) & 31) != 0 && ((x[i] >> 10) & 31) != 31, !isnan(a) && !isnan(b), isnan(a) || isnan(b),
                    !!(x[i] & 0x8000)};
    for (int f = 0; f < 14; f++)
      if (o[f * n + i] != (want[f] ? t : 0)) {
        printf("  %s(half%s %a, %a) = %d, want %d\n", names[f], wsuf(w), a, b, o[f * n + i], want[f] ? t : 0);
        ASSERT_TRUE(0);
      }
    /* select: scalars on c != 0, vectors on the sign bit of c */
    int pick = w == 1 ? s[i] != 0 : (s[i] & 0x8000) != 0;
    uint16_t ws = pick ? y[i] : x[i], wb = (uint16_t)((x[i] & ~s[i]) | (y[i] & s[i]));
    if (oh[i] != ws || oh[n + i] != ws || oh[2 * n + i] != wb || oh[3 * n + i] != (uint16_t)(x[i] ^ s[i])) {
      printf("  half%s a=0x%04x b=0x%04x c=0x%04x: select %04x %04x (want %04x), bitselect %04x (want %04x), as_half %04x\n",
             wsuf(w), x[i], y[i], s[i], oh[i], oh[n + i], ws, oh[2 * n + i], wb, oh[3 * n + i]);
      ASSERT_TRUE(0);
    }
  }
  for (int j = 0; j < 5; j++)
    clReleaseMemObject(m[j]);
  free(x); free(y); free(s); free(o); free(oh);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(relational_half) { run_rel(1); }
TEST(relational_half2) { run_rel(2); }
TEST(relational_half3) { run_rel(3); }
TEST(relational_half4) { run_rel(4); }
TEST(relational_half8) { run_rel(8); }
TEST(relational_half16) { run_rel(16); }

/* ---- geometric: dot, cross, length, distance, normalize (widths 1-4) ----
 * Bounds (OpenCL C 3.0, half): dot max*max*(2n-1)*HALF_EPSILON absolute
 * (the table prints FLT_EPSILON in the half column and HLF_EPSILON in the
 * double one, swapped), plus the half rounding of the result; cross
 * max*max*3*HALF_EPSILON; length 2*(3 + 0.5*(0.5n + 0.5(n-1))) ulp,
 * distance 2*(3 + 0.5*(1.5n + 0.5(n-1))), normalize 2*(2.5 + 0.5*(0.5n +
 * 0.5(n-1))). */
static const char *geo_source =
    "#define TN CAT(half, WS)\n"
    "#if W == 1\n#define LD(i, p) ((p)[i])\n#define ST(v, i, p) ((p)[i] = (v))\n"
    "#else\n#define LD(i, p) CAT(vload, W)(i, p)\n#define ST(v, i, p) CAT(vstore, W)(v, i, p)\n#endif\n"
    "kernel void g(global const half *x, global const half *y, global half *o)\n{\n"
    "  size_t i = get_global_id(0), n = get_global_size(0);\n"
    "  TN a = LD(i, x), b = LD(i, y);\n"
    "  o[i] = dot(a, b);\n  o[n + i] = length(a);\n  o[2 * n + i] = distance(a, b);\n"
    "  ST(normalize(a), i, o + 3 * n);\n"
    "#if W == 3 || W == 4\n  ST(cross(a, b), i, o + (3 + W) * n);\n#endif\n"
    "}\n";

static void run_geo(int w)
{
  init_hval();
  enum { NG = 4096 };
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char opts[96], *src = malloc(strlen(geo_source) + strlen(half_prelude) + 1);
  strcpy(src, half_prelude);
  strcat(src, geo_source);
  snprintf(opts, sizeof(opts), "-DW=%d -DWS=%s", w, wsuf(w));
  cl_program p = tl_build(ctx, src, opts);
  free(src);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "g", &err);
  ASSERT_OK(err);
  uint16_t *x = malloc(NG * 4 * 2), *y = malloc(NG * 4 * 2), *o = malloc(NG * 11 * 2);
  for (int i = 0; i < NG * w; i++) {
    int sc = (i / w) % 3; /* per vector: small, ordinary, large magnitudes */
    double r = ((double)(rnd() % 20001) - 10000) / 10000.0;
    double v = sc == 0 ? r * 1e-3 : sc == 1 ? r * 4 : r * 200;
    x[i] = ld2h(v, RTE);
    y[i] = ld2h(((double)(rnd() % 20001) - 10000) / 2500.0 * (sc == 2 ? 50 : 1), RTE);
  }
  cl_mem m[3];
  m[0] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NG * 4 * 2, x, &err);
  m[1] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NG * 4 * 2, y, &err);
  m[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NG * 11 * 2, NULL, &err);
  ASSERT_OK(err);
  for (int j = 0; j < 3; j++)
    ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &m[j]));
  size_t g = NG;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[2], CL_TRUE, 0, NG * 11 * 2, o, 0, NULL, NULL));
  double n = w;
  double b_len = 2 * (3 + 0.5 * (0.5 * n + 0.5 * (n - 1))), b_dist = 2 * (3 + 0.5 * (1.5 * n + 0.5 * (n - 1)));
  double b_norm = 2 * (2.5 + 0.5 * (0.5 * n + 0.5 * (n - 1)));
  for (int i = 0; i < NG; i++) {
    ld a[4], b[4], dot = 0, ss = 0, dd = 0, mx = 0;
    for (int j = 0; j < w; j++) {
      a[j] = hval[x[i * w + j]];
      b[j] = hval[y[i * w + j]];
      dot += a[j] * b[j];
      ss += a[j] * a[j];
      dd += (a[j] - b[j]) * (a[j] - b[j]);
      mx = fmaxl(mx, fmaxl(fabsl(a[j]), fabsl(b[j])));
    }
    double hulp = ldexp(1.0, (dot == 0 ? -14 : ilogbl(dot) < -14 ? -14 : ilogbl(dot)) - 10);
    double tol = (double)(mx * mx) * (2 * n - 1) * 0x1p-10 + 0.5 * hulp;
    int overflow = isinf(hval[o[i]]) && fabsl(dot) + tol >= 65520 && (hval[o[i]] > 0) == (dot > 0);
    if (!overflow && !(fabs(hval[o[i]] - (double)dot) <= tol)) {
      printf("  dot(half%s) #%d = %a, want %La (tol %g)\n", wsuf(w), i, hval[o[i]], dot, tol);
      ASSERT_TRUE(0);
    }
    double e1 = ulp_h(sqrtl(ss), o[NG + i]), e2 = ulp_h(sqrtl(dd), o[2 * NG + i]);
    if (e1 > b_len || e2 > b_dist) {
      printf("  half%s #%d: length %a (%.3g ulp, want %La), distance %a (%.3g ulp, want %La)\n", wsuf(w), i,
             hval[o[NG + i]], e1, sqrtl(ss), hval[o[2 * NG + i]], e2, sqrtl(dd));
      ASSERT_TRUE(0);
    }
    for (int j = 0; j < w && ss > 0; j++) {
      double e = ulp_h(a[j] / sqrtl(ss), o[3 * NG + i * w + j]);
      if (e > b_norm) {
        printf("  normalize(half%s) #%d lane %d: %a, %.3g ulp (want %La)\n", wsuf(w), i, j,
               hval[o[3 * NG + i * w + j]], e, a[j] / sqrtl(ss));
        ASSERT_TRUE(0);
      }
    }
    if (w >= 3) {
      ld c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
      for (int j = 0; j < w; j++) {
        double got = hval[o[(3 + w) * NG + i * w + j]];
        ld want = j < 3 ? c[j] : 0;
        double ctol = (double)(mx * mx) * 3 * 0x1p-10;
        int ovf = isinf(got) && fabsl(want) + ctol >= 65520 && (got > 0) == (want > 0);
        if (!ovf && !(fabs(got - (double)want) <= ctol)) {
          printf("  cross(half%s) #%d lane %d: %a, want %La\n", wsuf(w), i, j, got, want);
          ASSERT_TRUE(0);
        }
      }
    }
  }
  for (int j = 0; j < 3; j++)
    clReleaseMemObject(m[j]);
  free(x); free(y); free(o);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(geometric_half) { run_geo(1); }
TEST(geometric_half2) { run_geo(2); }
TEST(geometric_half3) { run_geo(3); }
TEST(geometric_half4) { run_geo(4); }

/* ---- vloadn / vstoren on half pointers (global, local, private,
 * constant), vstore3 leaving the fourth half alone, vload_half /
 * vstore_half_rt* between float and half storage ---- */
static const char *vl_source =
    "#define TN CAT(half, N)\n#define VL(i, p) CAT(vload, N)(i, p)\n#define VS(v, i, p) CAT(vstore, N)(v, i, p)\n"
    "kernel void v(global const half *src, constant half *csrc, global half *dst, global half *dst3,\n"
    "              local half *lbuf, global float *f, global half *hs)\n{\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  TN a = VL(i, src + 1);\n  TN c = VL(i, csrc);\n"
    "  VS(a, l, lbuf);\n  barrier(CLK_LOCAL_MEM_FENCE);\n  TN w = VL(l, lbuf);\n"
    "  half priv[2 * N];\n  VS(w, 1, priv);\n  TN x = VL(1, priv);\n"
    "  VS(x + c, i, dst + 2);\n"
    "#if N == 2\n  vstore3((half3)(x, x.s0), 0, dst3 + 4 * i);\n#else\n  vstore3(x.s012, 0, dst3 + 4 * i);\n#endif\n"
    "  float fv = vload_half(i, src);\n  f[i] = fv;\n"
    "  vstore_half_rtz(fv * 1.0009765625f, i, hs);\n  vstore_half_rtp(fv * 1.0009765625f, i, hs + get_global_size(0));\n"
    "}\n";

static void run_vload(int n)
{
  init_hval();
  enum { NV = 128, LOCAL = 64 };
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char opts[64], *src = malloc(strlen(vl_source) + strlen(half_prelude) + 1);
  strcpy(src, half_prelude);
  strcat(src, vl_source);
  snprintf(opts, sizeof(opts), "-DN=%d", n);
  cl_program p = tl_build(ctx, src, opts);
  free(src);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "v", &err);
  ASSERT_OK(err);
  size_t nel = (size_t)NV * (size_t)n + 4;
  uint16_t *s = malloc(nel * 2), *c = malloc(nel * 2), *d = malloc(nel * 2), *d3 = malloc(NV * 4 * 2), *hs = malloc(NV * 2 * 2);
  float *f = malloc(NV * 4);
  for (size_t i = 0; i < nel; i++) {
    s[i] = ld2h((ld)((int)(i % 50) - 20) / 4, RTE);
    c[i] = ld2h((ld)(i % 7), RTE);
    d[i] = 0x7e00;
  }
  for (int i = 0; i < NV * 4; i++)
    d3[i] = 0x5555;
  cl_mem m[6];
  m[0] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nel * 2, s, &err);
  m[1] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nel * 2, c, &err);
  m[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nel * 2, d, &err);
  m[3] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NV * 4 * 2, d3, &err);
  m[4] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NV * 4, NULL, &err);
  m[5] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NV * 2 * 2, NULL, &err);
  ASSERT_OK(err);
  for (int j = 0; j < 4; j++)
    ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &m[j]));
  ASSERT_OK(clSetKernelArg(k, 4, LOCAL * (size_t)n * 2, NULL));
  ASSERT_OK(clSetKernelArg(k, 5, sizeof(cl_mem), &m[4]));
  ASSERT_OK(clSetKernelArg(k, 6, sizeof(cl_mem), &m[5]));
  size_t g = NV, lsz = LOCAL;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &lsz, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[2], CL_TRUE, 0, nel * 2, d, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[3], CL_TRUE, 0, NV * 4 * 2, d3, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[4], CL_TRUE, 0, NV * 4, f, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[5], CL_TRUE, 0, NV * 2 * 2, hs, 0, NULL, NULL));
  for (size_t i = 0; i < (size_t)NV * (size_t)n; i++) {
    uint16_t want = ld2h((ld)hval[s[i + 1]] + hval[c[i]], RTE);
    if (d[i + 2] != want) {
      printf("  vload%d/vstore%d half: element %zu = %a, want %a\n", n, n, i, hval[d[i + 2]], hval[want]);
      ASSERT_TRUE(0);
    }
  }
  ASSERT_EQ(d[0], 0x7e00);
  ASSERT_EQ(d[1], 0x7e00);
  for (int i = 0; i < NV; i++) {
    for (int j = 0; j < 3; j++) {
      size_t e = (size_t)i * (size_t)n + (size_t)(n == 2 && j == 2 ? 0 : j);
      uint16_t want = ld2h((ld)hval[s[e + 1]], RTE);
      if (d3[4 * i + j] != want) {
        printf("  vstore3 half (n=%d) #%d lane %d: %04x, want %04x\n", n, i, j, d3[4 * i + j], want);
        ASSERT_TRUE(0);
      }
    }
    ASSERT_EQ(d3[4 * i + 3], 0x5555);
    ASSERT_TRUE(f[i] == (float)hval[s[i]]);
    ld x = (ld)f[i] * (ld)1.0009765625f;
    ASSERT_EQ(hs[i], ld2h(x, RTZ));
    ASSERT_EQ(hs[NV + i], ld2h(x, RTP));
  }
  for (int j = 0; j < 6; j++)
    clReleaseMemObject(m[j]);
  free(s); free(c); free(d); free(d3); free(hs); free(f);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(vload_half2) { run_vload(2); }
TEST(vload_half3) { run_vload(3); }
TEST(vload_half4) { run_vload(4); }
TEST(vload_half8) { run_vload(8); }
TEST(vload_half16) { run_vload(16); }

/* ---- work-group collectives on half, and a half kernel argument ----
 * Small integers: every order of the additions is exact. */
static const char *coll_source =
    "kernel void w(global const half *x, global half *o, half scale)\n{\n"
    "  size_t i = get_global_id(0), n = get_global_size(0);\n"
    "  half v = x[i] * scale;\n"
    "  o[i] = work_group_reduce_add(v);\n  o[n + i] = work_group_reduce_min(v);\n"
    "  o[2 * n + i] = work_group_reduce_max(v);\n  o[3 * n + i] = work_group_scan_inclusive_add(v);\n"
    "  o[4 * n + i] = work_group_scan_exclusive_add(v);\n  o[5 * n + i] = work_group_scan_inclusive_min(v);\n"
    "  o[6 * n + i] = work_group_scan_exclusive_max(v);\n  o[7 * n + i] = work_group_broadcast(v, 3);\n"
    "}\n";

TEST(collectives_half)
{
  init_hval();
  enum { NW = 1024 };
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char *src = malloc(strlen(coll_source) + strlen(half_prelude) + 1);
  strcpy(src, half_prelude);
  strcat(src, coll_source);
  cl_program p = tl_build(ctx, src, "-cl-std=CL3.0");
  free(src);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "w", &err);
  ASSERT_OK(err);
  uint16_t x[NW], o[8 * NW];
  for (int i = 0; i < NW; i++)
    x[i] = ld2h((ld)((int)(rnd() % 9) - 4), RTE);
  cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(x), x, &err);
  ASSERT_OK(err);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(o), NULL, &err);
  ASSERT_OK(err);
  cl_half scale = 0x4000; /* 2.0 */
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bx));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bo));
  ASSERT_OK(clSetKernelArg(k, 2, sizeof(cl_half), &scale));
  static const size_t lszs[] = {256, 64, 100};
  for (int li = 0; li < 3; li++) {
    size_t lsz = lszs[li], g = NW / lsz * lsz;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &lsz, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
    for (size_t gs = 0; gs < g; gs += lsz) {
      double sum = 0, mn = INFINITY, mx = -INFINITY, run = 0, rmin = INFINITY, rmax = -INFINITY;
      for (size_t j = 0; j < lsz; j++) {
        double v = 2 * hval[x[gs + j]];
        sum += v;
        mn = fmin(mn, v);
        mx = fmax(mx, v);
      }
      for (size_t j = 0; j < lsz; j++) {
        size_t i = gs + j;
        double v = 2 * hval[x[i]];
        double want[8] = {sum, mn, mx, run + v, run, fmin(rmin, v), rmax, 2 * hval[x[gs + 3]]};
        run += v;
        rmin = fmin(rmin, v);
        for (int f = 0; f < 8; f++)
          if (hval[o[(size_t)f * g + i]] != want[f]) {
            printf("  local size %zu, item %zu, collective %d: %a, want %a\n", lsz, i, f, hval[o[(size_t)f * g + i]],
                   want[f]);
            ASSERT_TRUE(0);
          }
        rmax = fmax(rmax, v);
      }
    }
  }
  clReleaseMemObject(bx);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* ---- the device's report ---- */
TEST(device_info)
{
  cl_device_id d = tl_device();
  char ext[4096];
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL));
  ASSERT_TRUE(strstr(ext, "cl_khr_fp16") != NULL);
  size_t sz;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &sz));
  cl_name_version *nv = malloc(sz);
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, sz, nv, NULL));
  int found = 0;
  for (size_t i = 0; i < sz / sizeof(*nv); i++)
    if (!strcmp(nv[i].name, "cl_khr_fp16") && nv[i].version == CL_MAKE_VERSION(1, 0, 0))
      found = 1;
  free(nv);
  ASSERT_TRUE(found);
  char pext[4096];
  ASSERT_OK(clGetPlatformInfo(tl_platform(), CL_PLATFORM_EXTENSIONS, sizeof(pext), pext, NULL));
  ASSERT_TRUE(strstr(pext, "cl_khr_fp16") != NULL);
  cl_device_fp_config fp;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_HALF_FP_CONFIG, sizeof(fp), &fp, NULL));
  /* the minimum of cl_khr_fp16 (round to nearest or to zero, and INF_NAN),
   * and what LaneCL does: round to nearest, subnormals kept, fma exact */
  ASSERT_EQ(fp & (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA),
            CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);
  cl_uint wp, wn, wf;
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof(wp), &wp, NULL));
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof(wn), &wn, NULL));
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(wf), &wf, NULL));
  ASSERT_TRUE(wp >= 1 && wn >= 1 && wn == wf); /* half is computed in float lanes */
}

/* The kernel sees cl_khr_fp16 (macro, pragma without a warning), keeps
 * subnormal halves (CL_FP_DENORM is honest), rounds to nearest even, and
 * printf prints a half (promoted to double) and half vectors (%v2hf). */
TEST(kernel_view)
{
  static const char *src =
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
      "#ifndef cl_khr_fp16\n#error no cl_khr_fp16\n#endif\n"
      "kernel void k(global const half *x, global half *o)\n{\n"
      "  half t = x[0] * x[0];                 /* 2^-12 * 2^-12 = 2^-24, the smallest subnormal */\n"
      "  o[0] = t;\n  o[1] = x[1] + x[2];   /* 1 + 2^-11: a tie, to even (1) */\n"
      "  o[2] = x[3] / x[4];                   /* subnormal quotient */\n"
      "  o[3] = (half)HALF_MAX * (half)2;      /* inf */\n"
      "  printf(\"h=%f v=%v2hf\\n\", x[1], (half2)(x[1], x[4]));\n"
      "}\n";
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src, "");
  char log[4096] = "";
  ASSERT_OK(clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL));
  if (strstr(log, "warning")) {
    printf("  build log: %s\n", log);
    ASSERT_TRUE(0);
  }
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  uint16_t x[5] = {0x0c00 /* 2^-12 */, 0x3c00, 0x1000 /* 2^-11 */, 0x0400 /* 2^-14 */, 0x4400 /* 4 */}, o[4];
  cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(x), x, &err);
  ASSERT_OK(err);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(o), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bx));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bo));
  size_t g = 1;
  fflush(stdout);
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  ASSERT_EQ(o[0], 0x0001);
  ASSERT_EQ(o[1], 0x3c00);
  ASSERT_EQ(o[2], 0x0100); /* 2^-16 */
  ASSERT_EQ(o[3], 0x7c00);
  clReleaseMemObject(bx);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* ---- the functions with pointer arguments: fract, modf, frexp, sincos,
 * remquo, lgamma_r, on every half (remquo against a random divisor) ---- */
static const char *ptr_source =
    "#define TN CAT(half, WS)\n#define IN CAT(int, WS)\n"
    "#if W == 1\n#define LD(i, p) ((p)[i])\n#define ST(v, i, p) ((p)[i] = (v))\n"
    "#else\n#define LD(i, p) CAT(vload, W)(i, p)\n#define ST(v, i, p) CAT(vstore, W)(v, i, p)\n#endif\n"
    "kernel void p(global const half *x, global const half *y, global half *o, global int *oi)\n{\n"
    "  size_t i = get_global_id(0), n = get_global_size(0) * W;\n"
    "  TN a = LD(i, x), b = LD(i, y), t;\n  IN k;\n"
    "  ST(fract(a, &t), i, o);\n  ST(t, i, o + n);\n"
    "  ST(modf(a, &t), i, o + 2 * n);\n  ST(t, i, o + 3 * n);\n"
    "  ST(frexp(a, &k), i, o + 4 * n);\n  ST(k, i, oi);\n"
    "  ST(sincos(a, &t), i, o + 5 * n);\n  ST(t, i, o + 6 * n);\n"
    "  ST(remquo(a, b, &k), i, o + 7 * n);\n  ST(k, i, oi + n);\n"
    "  ST(lgamma_r(a, &k), i, o + 8 * n);\n  ST(k, i, oi + 2 * n);\n"
    "}\n";

static void run_ptr(int w)
{
  init_hval();
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char opts[64], *src = malloc(strlen(ptr_source) + strlen(half_prelude) + 1);
  strcpy(src, half_prelude);
  strcat(src, ptr_source);
  snprintf(opts, sizeof(opts), "-DW=%d -DWS=%s", w, wsuf(w));
  cl_program p = tl_build(ctx, src, opts);
  free(src);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "p", &err);
  ASSERT_OK(err);
  uint16_t *x = malloc(NH * 2), *y = malloc(NH * 2), *o = malloc(9 * NH * 2);
  int32_t *oi = malloc(3 * NH * 4);
  for (int i = 0; i < NH; i++) {
    x[i] = (uint16_t)i;
    y[i] = gen2(1, NHSPEC * NHSPEC + i);
  }
  cl_mem m[4];
  m[0] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NH * 2, x, &err);
  m[1] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NH * 2, y, &err);
  m[2] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 9 * NH * 2, NULL, &err);
  m[3] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 3 * NH * 4, NULL, &err);
  ASSERT_OK(err);
  for (int j = 0; j < 4; j++)
    ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &m[j]));
  size_t g = NH / (size_t)w;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[2], CL_TRUE, 0, 9 * NH * 2, o, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[3], CL_TRUE, 0, 3 * NH * 4, oi, 0, NULL, NULL));
#define SAMEH(g, want) ((g) == (want) || (isnan(hval[g]) && isnan(hval[want])))
  for (int i = 0; i < NH; i++) {
    double a = hval[x[i]], b = hval[y[i]];
    /* fract: min(x - floor(x), 0x1.ffcp-1), +-0 for +-0 and +-inf, NaN for NaN */
    double fl = floor(a), fr = isnan(a) ? a : isinf(a) || a == 0 ? copysign(0.0, a) : fmin(a - fl, 0x1.ffcp-1);
    if (!SAMEH(o[i], ld2h(fr, RTE)) || !SAMEH(o[NH + i], ld2h(fl, RTE))) {
      printf("  fract(half%s %a) = %a, %a\n", wsuf(w), a, hval[o[i]], hval[o[NH + i]]);
      ASSERT_TRUE(0);
    }
    double ip, mf = modf(a, &ip);
    if (!SAMEH(o[2 * NH + i], ld2h(mf, RTE)) || !SAMEH(o[3 * NH + i], ld2h(ip, RTE))) {
      printf("  modf(half%s %a) = %a, %a\n", wsuf(w), a, hval[o[2 * NH + i]], hval[o[3 * NH + i]]);
      ASSERT_TRUE(0);
    }
    int e;
    double fm = frexp(a, &e);
    if (!SAMEH(o[4 * NH + i], ld2h(fm, RTE)) || (isfinite(a) && oi[i] != e)) {
      printf("  frexp(half%s %a) = %a, %d\n", wsuf(w), a, hval[o[4 * NH + i]], oi[i]);
      ASSERT_TRUE(0);
    }
    if (ulp_h(sinl(a), o[5 * NH + i]) > 2 || ulp_h(cosl(a), o[6 * NH + i]) > 2) {
      printf("  sincos(half%s %a) = %a, %a\n", wsuf(w), a, hval[o[5 * NH + i]], hval[o[6 * NH + i]]);
      ASSERT_TRUE(0);
    }
    /* remquo: the exact remainder, and the quotient's sign with at least its low 7 bits */
    double r = remainder(a, b);
    int okq = 1;
    if (!isnan(r)) {
      double qv = rint((a - r) / b); /* exact enough: |quotient| < 2^40 for halves */
      long qi = (long)fabs(fmod(qv, 128.0));
      okq = (abs(oi[NH + i]) & 127) == qi && (qi == 0 || (oi[NH + i] < 0) == (qv < 0));
    }
    if (!SAMEH(o[7 * NH + i], ld2h(r, RTE)) || !okq) {
      printf("  remquo(half%s %a, %a) = %a, quotient %d\n", wsuf(w), a, b, hval[o[7 * NH + i]], oi[NH + i]);
      ASSERT_TRUE(0);
    }
    /* lgamma_r: the sign of gamma (accuracy of lgamma is implementation-defined) */
    if (isfinite(a) && a != 0 && !(a < 0 && a == floor(a))) {
      int want;
      lgamma_r(a, &want); /* glibc's sign of gamma */
      if (oi[2 * NH + i] != want) {
        printf("  lgamma_r(half%s %a): sign %d, want %d\n", wsuf(w), a, oi[2 * NH + i], want);
        ASSERT_TRUE(0);
      }
    }
  }
  for (int j = 0; j < 4; j++)
    clReleaseMemObject(m[j]);
  free(x); free(y); free(o); free(oi);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(pointer_fns_half) { run_ptr(1); }
TEST(pointer_fns_half4) { run_ptr(4); }
TEST(pointer_fns_half16) { run_ptr(16); }

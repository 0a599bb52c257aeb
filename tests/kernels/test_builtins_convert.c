/* convert_<dst><n>[_sat][_rte|_rtz|_rtp|_rtn] through the whole stack: every
 * source and destination of char uchar short ushort int uint long ulong float
 * double, widths 1, 3, 4 and 16, on edge values (range ends, values beyond
 * them, halfway cases, NaN, infinities) and random ones, against a C
 * reference (the host's conversions under fesetround for the directed
 * roundings to floating point). */
#include <fenv.h>
#include <math.h>
#include <stdint.h>

#include "tests/testlib.h"

#define NELEM 768

typedef struct {
  const char *name;
  int fp;   /* 0 integer, 1 float, 2 double */
  int bits; /* integers */
  int sgn;
} cty_t;
static const cty_t types[] = {
    {"char", 0, 8, 1}, {"uchar", 0, 8, 0}, {"short", 0, 16, 1}, {"ushort", 0, 16, 0}, {"int", 0, 32, 1},
    {"uint", 0, 32, 0}, {"long", 0, 64, 1}, {"ulong", 0, 64, 0}, {"float", 1, 32, 1}, {"double", 2, 64, 1},
};
#define NTYPES 10
static const char *modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
static size_t tsize(const cty_t *t) { return (size_t)t->bits / 8; }

/* a value of any source type, carried exactly */
typedef struct {
  int64_t i;  /* integers (ulong as its bit pattern) */
  uint64_t u;
  double d;   /* float and double */
} val_t;

static uint64_t rng = 0xdeadbeefcafef00dull;
static uint64_t rnd(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void gen(const cty_t *t, int i, void *buf)
{
  if (!t->fp) {
    static const int64_t e[] = {0, 1, -1, 2, 127, 128, 255, 256, -128, -129, 32767, 32768, 65535, 65536,
                                -32768, -32769, 2147483647, 2147483648LL, -2147483648LL, 4294967295LL,
                                4294967296LL, 16777217, 16777219, -16777217, 33554435, 9007199254740993LL,
                                INT64_MAX, INT64_MIN, INT64_MAX - 511, INT64_MIN + 1, 2049, 4097, 65519, 65520};
    int64_t v = i < (int)(sizeof(e) / sizeof(e[0])) ? e[i] : (int64_t)rnd() >> (rnd() % 64);
    switch (t->bits) {
    case 8: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    case 16: ((uint16_t *)buf)[i] = (uint16_t)v; break;
    case 32: ((uint32_t *)buf)[i] = (uint32_t)v; break;
    default: ((uint64_t *)buf)[i] = (uint64_t)v; break;
    }
    return;
  }
  static const double e[] = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, 127.5, 128.0, -128.5,
                             -129.0, 255.5, 256.0, 32767.5, 32768.0, -32768.5, -32769.0, 65535.5, 65536.0,
                             2147483520.0, 2147483647.5, 2147483648.0, -2147483648.0, -2147483904.0,
                             4294967295.0, 4294967296.0, 9.2233720368547758e18, 9.223372036854775e18,
                             -9.2233720368547758e18, 1.8446744073709552e19, 1.8446744073709550e19, INFINITY,
                             -INFINITY, NAN, 1e-45, -1e-320, 3.4028235677973366e38, 3.4028236e38, 1e300,
                             -1e300, 1e-300, 16777217.0, 0.1, -0.7, 1e10, -1e10};
  double v;
  int ne = (int)(sizeof(e) / sizeof(e[0]));
  if (i < ne) {
    v = e[i];
  } else {
    uint64_t r = rnd();
    switch (r % 4) {
    case 0: v = ldexp((double)(int64_t)rnd(), -(int)(r >> 8) % 70); break;
    case 1: v = (double)((int64_t)(r >> 2) % 100000) / 8.0; break;
    case 2: { uint64_t b = rnd(); memcpy(&v, &b, 8); if (t->fp == 1) { uint32_t b32 = (uint32_t)b; float f; memcpy(&f, &b32, 4); v = f; } break; }
    default: v = ldexp((double)(r >> 11), -(int)(r % 40)); break;
    }
  }
  if (t->fp == 1)
    ((float *)buf)[i] = (float)v;
  else
    ((double *)buf)[i] = v;
}

static val_t load(const cty_t *t, const void *buf, int i)
{
  val_t v = {0, 0, 0};
  if (t->fp == 1) { v.d = ((const float *)buf)[i]; return v; }
  if (t->fp == 2) { v.d = ((const double *)buf)[i]; return v; }
  switch (t->bits) {
  case 8: v.u = ((const uint8_t *)buf)[i]; v.i = t->sgn ? (int8_t)v.u : (int64_t)v.u; break;
  case 16: v.u = ((const uint16_t *)buf)[i]; v.i = t->sgn ? (int16_t)v.u : (int64_t)v.u; break;
  case 32: v.u = ((const uint32_t *)buf)[i]; v.i = t->sgn ? (int32_t)v.u : (int64_t)v.u; break;
  default: v.u = ((const uint64_t *)buf)[i]; v.i = (int64_t)v.u; break;
  }
  return v;
}

/* integer range of t as long doubles */
static long double imin(const cty_t *t) { return t->sgn ? -ldexpl(1, t->bits - 1) : 0; }
static long double imax(const cty_t *t) { return t->sgn ? ldexpl(1, t->bits - 1) - 1 : ldexpl(1, t->bits) - 1; }

/* The expected result bits (dst integer: the value; dst fp: double/float
 * bits), or 0 with *skip set when the spec leaves it undefined. */
static uint64_t expect(const cty_t *s, const cty_t *d, int sat, int mode, val_t v, int *skip)
{
  static const int fe[] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
  *skip = 0;
  if (!d->fp) {
    long double x;
    if (s->fp) {
      if (isnan(v.d)) {
        if (!sat) { *skip = 1; return 0; }
        return 0;
      }
      long double r = v.d;
      switch (mode) { /* default and _rtz truncate */
      case 1: r = rintl(r); break;
      case 3: r = ceill(r); break;
      case 4: r = floorl(r); break;
      default: r = truncl(r); break;
      }
      x = r;
      if (!sat && (x < imin(d) || x > imax(d))) { *skip = 1; return 0; }
    } else {
      x = s->sgn ? (long double)v.i : (long double)v.u;
      if (!sat) /* modular: the low bits */
        return s->sgn ? (uint64_t)v.i : v.u;
    }
    if (x < imin(d)) x = imin(d);
    if (x > imax(d)) x = imax(d);
    return x < 0 ? (uint64_t)(int64_t)x : (uint64_t)x;
  }
  /* fp destination: the host converts under the rounding mode */
  fesetround(fe[mode]);
  uint64_t bits = 0;
  if (d->fp == 1) {
    volatile float f;
    if (s->fp == 2) { volatile double dv = v.d; f = (float)dv; }
    else if (s->fp == 1) f = (float)v.d;
    else if (s->sgn) { volatile int64_t iv = v.i; f = (float)iv; }
    else { volatile uint64_t uv = v.u; f = (float)uv; }
    float ff = f;
    uint32_t b;
    memcpy(&b, &ff, 4);
    bits = b;
  } else {
    volatile double g;
    if (s->fp) g = v.d;
    else if (s->sgn) { volatile int64_t iv = v.i; g = (double)iv; }
    else { volatile uint64_t uv = v.u; g = (double)uv; }
    double gg = g;
    memcpy(&bits, &gg, 8);
  }
  fesetround(FE_TONEAREST);
  return bits;
}

static uint64_t got_bits(const cty_t *d, const void *buf, int i)
{
  switch (d->bits) {
  case 8: return d->sgn ? (uint64_t)(int64_t)((const int8_t *)buf)[i] : ((const uint8_t *)buf)[i];
  case 16: return d->sgn ? (uint64_t)(int64_t)((const int16_t *)buf)[i] : ((const uint16_t *)buf)[i];
  case 32:
    if (d->fp) return ((const uint32_t *)buf)[i];
    return d->sgn ? (uint64_t)(int64_t)((const int32_t *)buf)[i] : ((const uint32_t *)buf)[i];
  default: return ((const uint64_t *)buf)[i];
  }
}

static int is_nan_bits(const cty_t *d, uint64_t b)
{
  if (d->fp == 1) return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu);
  if (d->fp == 2) return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0xfffffffffffffull);
  return 0;
}

static char *kernel_source(const cty_t *s, int w)
{
  const char *suf = w == 1 ? "" : w == 3 ? "3" : w == 4 ? "4" : "16";
  size_t cap = 1 << 17, len = 0;
  char *src = malloc(cap);
  len += (size_t)snprintf(src + len, cap - len, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  if (w == 1)
    len += (size_t)snprintf(src + len, cap - len, "#define LD(i, p) ((p)[i])\n#define ST(v, i, p) ((p)[i] = (v))\n");
  else
    len += (size_t)snprintf(src + len, cap - len, "#define LD(i, p) vload%d(i, p)\n#define ST(v, i, p) vstore%d(v, i, p)\n",
                            w, w);
  len += (size_t)snprintf(src + len, cap - len,
                          "kernel void k(global const %s *x, global void *out, int f)\n{\n"
                          "  size_t i = get_global_id(0);\n  %s%s a = LD(i, x);\n  switch (f) {\n",
                          s->name, s->name, suf);
  for (int d = 0; d < NTYPES; d++)
    for (int sat = 0; sat < 2; sat++)
      for (int m = 0; m < 5; m++) {
        if (sat && types[d].fp)
          continue;
        len += (size_t)snprintf(src + len, cap - len,
                                "  case %d: ST(convert_%s%s%s%s(a), i, (global %s *)out); break;\n",
                                (d * 2 + sat) * 5 + m, types[d].name, suf, sat ? "_sat" : "", modes[m],
                                types[d].name);
      }
  len += (size_t)snprintf(src + len, cap - len, "  }\n}\n");
  return src;
}

static void run_source(int si, int w)
{
  const cty_t *s = &types[si];
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char *src = kernel_source(s, w);
  cl_program p = tl_build(ctx, src, "");
  free(src);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  void *in = malloc(NELEM * 8), *out = malloc(NELEM * 8);
  for (int i = 0; i < NELEM; i++)
    gen(s, i, in);
  cl_mem bi = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NELEM * tsize(s), in, &err);
  ASSERT_OK(err);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NELEM * 8, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bi));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bo));
  size_t gsz = NELEM / (size_t)w;
  int failures = 0;
  for (int d = 0; d < NTYPES; d++)
    for (int sat = 0; sat < 2; sat++)
      for (int m = 0; m < 5; m++) {
        const cty_t *dt = &types[d];
        if (sat && dt->fp)
          continue;
        int f = (d * 2 + sat) * 5 + m;
        ASSERT_OK(clSetKernelArg(k, 2, sizeof(int), &f));
        ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL));
        ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, NELEM * tsize(dt), out, 0, NULL, NULL));
        for (int i = 0; i < NELEM; i++) {
          int skip;
          val_t v = load(s, in, i);
          uint64_t want = expect(s, dt, sat, m, v, &skip), got = got_bits(dt, out, i);
          if (skip)
            continue;
          if (dt->bits < 64 && !dt->fp)
            want = dt->sgn ? want : want & ((1ull << dt->bits) - 1);
          if (dt->bits < 64 && !dt->fp && dt->sgn) /* compare sign-extended */
            want = (uint64_t)(((int64_t)(want << (64 - dt->bits))) >> (64 - dt->bits));
          if (got != want && !(is_nan_bits(dt, got) && is_nan_bits(dt, want))) {
            printf("  convert_%s%d%s%s(%s): input %lld / %a: got 0x%llx want 0x%llx\n", dt->name, w,
                   sat ? "_sat" : "", modes[m], s->name, (long long)v.i, v.d, (unsigned long long)got,
                   (unsigned long long)want);
            failures++;
            break;
          }
        }
      }
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
  free(in);
  free(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  ASSERT_EQ(failures, 0);
}

static void run_all_widths(int si)
{
  static const int widths[] = {1, 3, 4, 16};
  for (int i = 0; i < 4; i++)
    run_source(si, widths[i]);
}

TEST(from_char) { run_all_widths(0); }
TEST(from_uchar) { run_all_widths(1); }
TEST(from_short) { run_all_widths(2); }
TEST(from_ushort) { run_all_widths(3); }
TEST(from_int) { run_all_widths(4); }
TEST(from_uint) { run_all_widths(5); }
TEST(from_long) { run_all_widths(6); }
TEST(from_ulong) { run_all_widths(7); }
TEST(from_float) { run_all_widths(8); }
TEST(from_double) { run_all_widths(9); }

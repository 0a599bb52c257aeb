/* Relational, common and geometric built-ins, select/bitselect/any/all and
 * shuffle/shuffle2 through the whole stack, against C references: every
 * width for float and double (geometric: 1-4), NaN/infinity/zero cases, the
 * scalar-operand overloads, and vector results of -1/0 (scalars 1/0). */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "tests/testlib.h"

#define NELEM 960 /* divisible by 1, 2, 3, 4, 8, 16 */

static uint64_t rng = 0x853c49e6748fea9bull;
static uint64_t rnd(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static const char *wsuf(int w)
{
  return w == 1 ? "" : w == 2 ? "2" : w == 3 ? "3" : w == 4 ? "4" : w == 8 ? "8" : "16";
}

/* ------------------------------------------------------------------------ */
/* float / double                                                           */

enum {
  R_ISEQUAL, R_ISNOTEQUAL, R_ISGREATER, R_ISGREATEREQUAL, R_ISLESS, R_ISLESSEQUAL, R_ISLESSGREATER,
  R_ISFINITE, R_ISINF, R_ISNAN, R_ISNORMAL, R_ISORDERED, R_ISUNORDERED, R_SIGNBIT, R_COUNT
};
static const char *rel_expr[] = {"isequal(a, b)", "isnotequal(a, b)", "isgreater(a, b)", "isgreaterequal(a, b)",
                                 "isless(a, b)", "islessequal(a, b)", "islessgreater(a, b)", "isfinite(a)",
                                 "isinf(a)", "isnan(a)", "isnormal(a)", "isordered(a, b)", "isunordered(a, b)",
                                 "signbit(a)"};
static int rel_ref(int f, double a, double b, int dbl)
{
  double mn = dbl ? DBL_MIN : FLT_MIN;
  switch (f) {
  case R_ISEQUAL: return a == b;
  case R_ISNOTEQUAL: return a != b;
  case R_ISGREATER: return a > b;
  case R_ISGREATEREQUAL: return a >= b;
  case R_ISLESS: return a < b;
  case R_ISLESSEQUAL: return a <= b;
  case R_ISLESSGREATER: return a < b || a > b;
  case R_ISFINITE: return isfinite(a);
  case R_ISINF: return isinf(a);
  case R_ISNAN: return isnan(a);
  case R_ISNORMAL: return isfinite(a) && fabs(a) >= mn;
  case R_ISORDERED: return !isnan(a) && !isnan(b);
  case R_ISUNORDERED: return isnan(a) || isnan(b);
  default: return signbit(a) != 0;
  }
}

enum {
  C_CLAMP, C_DEGREES, C_RADIANS, C_MAX, C_MIN, C_MIX, C_STEP, C_SMOOTHSTEP, C_SIGN, C_BITSELECT, C_SELECT,
  C_CLAMP_S, C_MAX_S, C_MIN_S, C_MIX_S, C_STEP_S, C_SMOOTHSTEP_S, C_COUNT
};
static const char *com_expr[] = {
    "clamp(a, fmin(b, c), fmax(b, c))", "degrees(a)", "radians(a)", "max(a, b)", "min(a, b)", "mix(a, b, c)",
    "step(b, a)", "smoothstep(fmin(b, c), fmax(b, c), a)", "sign(a)", "bitselect(a, b, c)",
    "select(a, b, AS_I(c))", "clamp(a, fmin(S0(b), S0(c)), fmax(S0(b), S0(c)))", "max(a, S0(b))",
    "min(a, S0(b))", "mix(a, b, S0(c))", "step(S0(b), a)", "smoothstep(fmin(S0(b), S0(c)), fmax(S0(b), S0(c)), a)"};

static uint64_t dbits(double v, int dbl)
{
  if (dbl) { uint64_t b; memcpy(&b, &v, 8); return b; }
  float f = (float)v;
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static double bitsd(uint64_t b, int dbl)
{
  if (dbl) { double v; memcpy(&v, &b, 8); return v; }
  uint32_t b32 = (uint32_t)b;
  float f;
  memcpy(&f, &b32, 4);
  return f;
}

/* common references; *tol gets the allowed relative error (0: exact) */
static double com_ref(int f, double a, double b, double c, int dbl, int lane0_b, int lane0_c, double *tol,
                      int vec)
{
  (void)lane0_b;
  (void)lane0_c;
  *tol = 0;
  double eps = dbl ? 1e-15 : 3e-7;
  switch (f) {
  case C_CLAMP: case C_CLAMP_S: return fmin(fmax(a, fmin(b, c)), fmax(b, c));
  case C_DEGREES: *tol = 2 * eps; return a * (180.0 / M_PI);
  case C_RADIANS: *tol = 2 * eps; return a * (M_PI / 180.0);
  case C_MAX: case C_MAX_S: return fmax(a, b);
  case C_MIN: case C_MIN_S: return fmin(a, b);
  case C_MIX: case C_MIX_S: *tol = -1; return a + (b - a) * c; /* absolute check below */
  case C_STEP: case C_STEP_S: return a < b ? 0.0 : 1.0;
  case C_SMOOTHSTEP: case C_SMOOTHSTEP_S: {
    double e0 = fmin(b, c), e1 = fmax(b, c);
    double t = (a - e0) / (e1 - e0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    *tol = -1;
    return t * t * (3 - 2 * t);
  }
  case C_SIGN: return isnan(a) ? 0.0 : a > 0 ? 1.0 : a < 0 ? -1.0 : a;
  case C_BITSELECT: {
    uint64_t ua = dbits(a, dbl), ub = dbits(b, dbl), uc = dbits(c, dbl);
    return bitsd((ua & ~uc) | (ub & uc), dbl);
  }
  default: /* select: vectors by the sign bit of c's lane, scalars by c != 0 */
    if (vec) return signbit(c) ? b : a;
    return dbits(c, dbl) << 1 != 0 || signbit(c) ? b : a; /* c != 0 as an integer */
  }
}

static double fp_gen(int i, int dbl)
{
  static const double e[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 1e-40, 2.5, -3.0, 1e-310, 0.75};
  int ne = (int)(sizeof(e) / sizeof(e[0]));
  if (i < ne * ne)
    return dbl ? e[i % ne] : (double)(float)e[i % ne];
  uint64_t r = rnd();
  double v = (double)((int64_t)(r >> 11) % 20000) / 1000.0;
  if (r % 7 == 0)
    v = ldexp(v, (int)(r % 200) - 100);
  return dbl ? v : (double)(float)v;
}

static char *fp_source(int dbl, int w)
{
  const char *T = dbl ? "double" : "float", *IT = dbl ? "long" : "int", *s = wsuf(w);
  size_t cap = 1 << 16, len = 0;
  char *src = malloc(cap);
  len += (size_t)snprintf(src + len, cap - len, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#define T %s\n#define TN %s%s\n#define RTN %s%s\n#define AS_I(v) as_%s%s(v)\n#define S0(v) %s\n",
                          T, T, s, w == 1 ? "int" : IT, s, IT, s, w == 1 ? "(v)" : "((v).s0)");
  if (w == 1)
    len += (size_t)snprintf(src + len, cap - len, "#define LD(i, p) ((p)[i])\n#define ST(v, i, p) ((p)[i] = (v))\n");
  else
    len += (size_t)snprintf(src + len, cap - len, "#define LD(i, p) vload%d(i, p)\n#define ST(v, i, p) vstore%d(v, i, p)\n", w, w);
  len += (size_t)snprintf(src + len, cap - len,
                          "kernel void rel(global const T *x, global const T *y, global %s *out, int f)\n{\n"
                          "  size_t i = get_global_id(0);\n  TN a = LD(i, x), b = LD(i, y);\n  RTN r;\n  switch (f) {\n",
                          w == 1 ? "int" : IT);
  for (int f = 0; f < R_COUNT; f++)
    len += (size_t)snprintf(src + len, cap - len, "  case %d: r = %s; break;\n", f, rel_expr[f]);
  len += (size_t)snprintf(src + len, cap - len, "  default: r = 0; break;\n  }\n  ST(r, i, out);\n}\n");
  len += (size_t)snprintf(src + len, cap - len,
                          "kernel void com(global const T *x, global const T *y, global const T *z, global T *out, int f)\n{\n"
                          "  size_t i = get_global_id(0);\n  TN a = LD(i, x), b = LD(i, y), c = LD(i, z), r;\n  switch (f) {\n");
  for (int f = 0; f < C_COUNT; f++)
    if (w > 1 || f < C_CLAMP_S)
      len += (size_t)snprintf(src + len, cap - len, "  case %d: r = %s; break;\n", f, com_expr[f]);
  len += (size_t)snprintf(src + len, cap - len, "  default: r = a; break;\n  }\n  ST(r, i, out);\n}\n");
  if (w <= 4) { /* geometric: scalar results per vector, and normalize/cross */
    len += (size_t)snprintf(src + len, cap - len,
                            "kernel void geo(global const T *x, global const T *y, global T *out, global T *vout, int f)\n{\n"
                            "  size_t i = get_global_id(0);\n  TN a = LD(i, x), b = LD(i, y);\n  switch (f) {\n"
                            "  case 0: out[i] = dot(a, b); break;\n  case 1: out[i] = length(a); break;\n"
                            "  case 2: out[i] = distance(a, b); break;\n  case 3: ST(normalize(a), i, vout); break;\n");
    if (w >= 3)
      len += (size_t)snprintf(src + len, cap - len, "  case 4: ST(cross(a, b), i, vout); break;\n");
    if (!dbl)
      len += (size_t)snprintf(src + len, cap - len,
                              "  case 5: out[i] = fast_length(a); break;\n  case 6: out[i] = fast_distance(a, b); break;\n"
                              "  case 7: ST(fast_normalize(a), i, vout); break;\n");
    len += (size_t)snprintf(src + len, cap - len, "  }\n}\n");
  }
  return src;
}

static void set_args(cl_kernel k, int n, cl_mem *m)
{
  for (int i = 0; i < n; i++)
    ASSERT_OK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &m[i]));
}

static void run_fp(int dbl, int w)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char *src = fp_source(dbl, w);
  cl_program p = tl_build(ctx, src, "");
  free(src);
  cl_int err;
  size_t es = dbl ? 8 : 4, gsz = NELEM / (size_t)w;
  double *in[3];
  void *hin[3], *hout = malloc(NELEM * 8);
  cl_mem b[5];
  for (int j = 0; j < 3; j++) {
    in[j] = malloc(NELEM * sizeof(double));
    hin[j] = malloc(NELEM * es);
    for (int i = 0; i < NELEM; i++) {
      in[j][i] = fp_gen(j == 0 ? i : j == 1 ? (i < 144 ? i / 12 : i) : (i * 7) % NELEM, dbl);
      if (dbl) ((double *)hin[j])[i] = in[j][i];
      else ((float *)hin[j])[i] = (float)in[j][i];
    }
    b[j] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NELEM * es, hin[j], &err);
    ASSERT_OK(err);
  }
  b[3] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NELEM * 8, NULL, &err);
  ASSERT_OK(err);
  b[4] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NELEM * 8, NULL, &err);
  ASSERT_OK(err);
  int failures = 0;

  /* relational */
  cl_kernel k = clCreateKernel(p, "rel", &err);
  ASSERT_OK(err);
  cl_mem ra[3] = {b[0], b[1], b[3]};
  set_args(k, 3, ra);
  for (int f = 0; f < R_COUNT; f++) {
    ASSERT_OK(clSetKernelArg(k, 3, sizeof(int), &f));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, b[3], CL_TRUE, 0, NELEM * (w == 1 ? 4 : es), hout, 0, NULL, NULL));
    for (int i = 0; i < NELEM; i++) {
      int64_t got = w == 1 || !dbl ? ((int32_t *)hout)[i] : ((int64_t *)hout)[i];
      int64_t want = rel_ref(f, in[0][i], in[1][i], dbl) ? (w == 1 ? 1 : -1) : 0;
      if (got != want) {
        printf("  %s%d %s: a=%a b=%a: got %lld want %lld\n", dbl ? "double" : "float", w, rel_expr[f], in[0][i],
               in[1][i], (long long)got, (long long)want);
        failures++;
        break;
      }
    }
  }
  clReleaseKernel(k);

  /* common */
  k = clCreateKernel(p, "com", &err);
  ASSERT_OK(err);
  cl_mem ca[4] = {b[0], b[1], b[2], b[3]};
  set_args(k, 4, ca);
  for (int f = 0; f < C_COUNT; f++) {
    if (w == 1 && f >= C_CLAMP_S)
      continue;
    ASSERT_OK(clSetKernelArg(k, 4, sizeof(int), &f));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, b[3], CL_TRUE, 0, NELEM * es, hout, 0, NULL, NULL));
    for (int i = 0; i < NELEM; i++) {
      int l0 = i - i % w; /* the first lane of this vector */
      int scal = f >= C_CLAMP_S;
      /* the S0() operands are the first lane of their vector (mix: only c) */
      double a = in[0][i], bb = scal && f != C_MIX_S ? in[1][l0] : in[1][i], cc = scal ? in[2][l0] : in[2][i], tol;
      double want = com_ref(f, a, bb, cc, dbl, 0, 0, &tol, w > 1);
      double got = dbl ? ((double *)hout)[i] : ((float *)hout)[i];
      if (!dbl) want = (float)want;
      int ok;
      if (isnan(want) || isnan(got))
        ok = isnan(want) && isnan(got);
      else if (tol < 0) /* mix, smoothstep: any reasonable precision */
        ok = !isfinite(want) || fabs(got - want) <= (dbl ? 1e-12 : 1e-5) * (1 + fabs(a) + fabs(bb) + fabs(want));
      else if (tol > 0)
        ok = fabs(got - want) <= tol * fabs(want) || got == want;
      else
        ok = got == want && (f == C_MAX || f == C_MIN || f == C_MAX_S || f == C_MIN_S || f == C_CLAMP ||
                             f == C_CLAMP_S || !!signbit(got) == !!signbit(want));
      if (f == C_SMOOTHSTEP || f == C_SMOOTHSTEP_S || f == C_MIX || f == C_MIX_S) /* undefined for inf/nan edges */
        if (!isfinite(a) || !isfinite(bb) || !isfinite(cc) || fmin(bb, cc) == fmax(bb, cc))
          ok = 1;
      if (!ok) {
        printf("  %s%d %s: a=%a b=%a c=%a: got %a want %a\n", dbl ? "double" : "float", w, com_expr[f], a, bb, cc,
               got, want);
        failures++;
        break;
      }
    }
  }
  clReleaseKernel(k);

  /* geometric */
  if (w <= 4) {
    k = clCreateKernel(p, "geo", &err);
    ASSERT_OK(err);
    cl_mem ga[4] = {b[0], b[1], b[3], b[4]};
    set_args(k, 4, ga);
    /* vectors of moderate values, plus huge, tiny and zero ones */
    double *g0 = malloc(NELEM * sizeof(double)), *g1 = malloc(NELEM * sizeof(double));
    for (int i = 0; i < NELEM; i++) {
      int v = i / w;
      double scale = v % 5 == 0 ? (dbl ? 1e300 : 1e30) : v % 5 == 1 ? (dbl ? 1e-300 : 1e-30) : v % 5 == 2 ? 0 : 1;
      g0[i] = ((double)((int64_t)(rnd() >> 11) % 2000) / 100.0) * scale;
      g1[i] = ((double)((int64_t)(rnd() >> 11) % 2000) / 100.0);
      if (!dbl) { g0[i] = (float)g0[i]; g1[i] = (float)g1[i]; }
      if (dbl) { ((double *)hin[0])[i] = g0[i]; ((double *)hin[1])[i] = g1[i]; }
      else { ((float *)hin[0])[i] = (float)g0[i]; ((float *)hin[1])[i] = (float)g1[i]; }
    }
    ASSERT_OK(clEnqueueWriteBuffer(q, b[0], CL_TRUE, 0, NELEM * es, hin[0], 0, NULL, NULL));
    ASSERT_OK(clEnqueueWriteBuffer(q, b[1], CL_TRUE, 0, NELEM * es, hin[1], 0, NULL, NULL));
    void *hv = malloc(NELEM * 8);
    for (int f = 0; f < 8; f++) {
      if ((f == 4 && w < 3) || (f >= 5 && dbl))
        continue;
      ASSERT_OK(clSetKernelArg(k, 4, sizeof(int), &f));
      size_t nv = NELEM / (size_t)w;
      ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &nv, NULL, 0, NULL, NULL));
      ASSERT_OK(clEnqueueReadBuffer(q, b[3], CL_TRUE, 0, NELEM * es, hout, 0, NULL, NULL));
      ASSERT_OK(clEnqueueReadBuffer(q, b[4], CL_TRUE, 0, NELEM * es, hv, 0, NULL, NULL));
      for (size_t v = 0; v < nv; v++) {
        const double *p0 = g0 + v * (size_t)w, *p1 = g1 + v * (size_t)w;
        long double dot = 0, ss = 0, dd = 0;
        for (int l = 0; l < w; l++) {
          dot += (long double)p0[l] * p1[l];
          ss += (long double)p0[l] * p0[l];
          dd += ((long double)p0[l] - p1[l]) * ((long double)p0[l] - p1[l]);
        }
        double rtol = f >= 5 ? 1e-3 : dbl ? 1e-14 : 1e-6;
        int fast = f >= 5, ok = 1;
        double got = dbl ? ((double *)hout)[v] : ((float *)hout)[v], want = 0;
        if (f == 0 || f == 1 || f == 2 || f == 5 || f == 6) {
          if (f == 0) want = (double)dot;
          else if (f == 1 || f == 5) want = (double)sqrtl(ss);
          else want = (double)sqrtl(dd);
          if (!dbl) want = (float)want;
          if (fast && (ss > 1e37L || dd > 1e37L || ss < 1e-37L))
            continue; /* fast_ variants may overflow/underflow */
          if (f == 0 && !isfinite(got) && !isfinite(want))
            continue;
          ok = fabs(got - want) <= rtol * fabs(want) + (f == 0 ? rtol * (double)ss : 0);
          if (!ok)
            printf("  %s%d geometric %d (vector %zu, p0[0]=%a): got %a want %a\n", dbl ? "double" : "float", w, f,
                   v, p0[0], got, want);
        } else {
          for (int l = 0; l < w && ok; l++) {
            double gl = dbl ? ((double *)hv)[v * (size_t)w + (size_t)l] : ((float *)hv)[v * (size_t)w + (size_t)l];
            double wl;
            if (f == 4) { /* cross */
              int i1 = (l + 1) % 3, i2 = (l + 2) % 3;
              wl = l == 3 ? 0 : (double)((long double)p0[i1] * p1[i2] - (long double)p0[i2] * p1[i1]);
              ok = fabs(gl - wl) <= rtol * (fabs(p0[i1] * p1[i2]) + fabs(p0[i2] * p1[i1])) + (dbl ? 0 : 1e-30);
            } else {
              if (ss == 0) { wl = p0[l]; ok = gl == wl; }
              else if (fast && (ss > 1e30 || ss < 1e-30)) continue;
              else { wl = (double)(p0[l] / sqrtl(ss)); ok = fabs(gl - wl) <= rtol; }
            }
            if (!ok)
              printf("  %s%d geometric %d (vector %zu lane %d, p0[0]=%a): got %a want %a\n", dbl ? "double" : "float",
                     w, f, v, l, p0[0], gl, wl);
          }
        }
        if (!ok) {
          failures++;
          break;
        }
      }
    }
    free(hv);
    free(g0);
    free(g1);
    clReleaseKernel(k);
  }

  for (int j = 0; j < 5; j++)
    clReleaseMemObject(b[j]);
  for (int j = 0; j < 3; j++) {
    free(in[j]);
    free(hin[j]);
  }
  free(hout);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  ASSERT_EQ(failures, 0);
}

TEST(float_all_widths)
{
  static const int ws[] = {1, 2, 3, 4, 8, 16};
  for (int i = 0; i < 6; i++)
    run_fp(0, ws[i]);
}
TEST(double_all_widths)
{
  static const int ws[] = {1, 2, 3, 4, 8, 16};
  for (int i = 0; i < 6; i++)
    run_fp(1, ws[i]);
}

/* Special cases of normalize and length the spec spells out. */
TEST(normalize_and_length_special)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  const char *src =
      "kernel void k(global float4 *v, global float *len)\n"
      "{\n  size_t i = get_global_id(0);\n  len[i] = length(v[i]);\n  v[i] = normalize(v[i]);\n}\n";
  cl_program p = tl_build(ctx, src, "");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  float v[4][4] = {{0, 0, 0, 0}, {INFINITY, 1, -INFINITY, 2}, {3e37f, 4e37f, 0, 0}, {3e-39f, 4e-39f, 0, 0}};
  float len[4];
  cl_mem bv = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(v), v, &err);
  ASSERT_OK(err);
  cl_mem bl = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(len), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bv));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bl));
  size_t g = 4;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, bv, CL_TRUE, 0, sizeof(v), v, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, bl, CL_TRUE, 0, sizeof(len), len, 0, NULL, NULL));
  /* zero stays zero */
  ASSERT_TRUE(v[0][0] == 0 && v[0][1] == 0 && v[0][2] == 0 && v[0][3] == 0 && len[0] == 0);
  /* infinities become +-1, the rest 0, then normalized */
  ASSERT_TRUE(fabsf(v[1][0] - 0.70710677f) < 1e-6f && v[1][1] == 0 && fabsf(v[1][2] + 0.70710677f) < 1e-6f &&
              v[1][3] == 0 && isinf(len[1]));
  /* huge: 3-4-5 without overflow */
  ASSERT_TRUE(fabsf(v[2][0] - 0.6f) < 1e-6f && fabsf(v[2][1] - 0.8f) < 1e-6f && fabsf(len[2] / 5e37f - 1) < 1e-6f);
  ASSERT_TRUE(isinf(len[2]) == 0);
  /* tiny (subnormal): no underflow to 0 */
  ASSERT_TRUE(fabsf(v[3][0] - 0.6f) < 1e-5f && fabsf(v[3][1] - 0.8f) < 1e-5f && fabsf(len[3] / 5e-39f - 1) < 1e-5f);
  clReleaseMemObject(bv);
  clReleaseMemObject(bl);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* ------------------------------------------------------------------------ */
/* integer select / bitselect / any / all, and shuffle                      */

TEST(integer_select_any_all)
{
  static const char *ts[] = {"char", "short", "int", "long"};
  static const int bits[] = {8, 16, 32, 64};
  static const int ws[] = {1, 2, 3, 4, 8, 16};
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  for (int t = 0; t < 4; t++)
    for (int wi = 0; wi < 6; wi++) {
      int w = ws[wi];
      const char *s = wsuf(w);
      char src[2048];
      snprintf(src, sizeof(src),
               "#define LD(i, p) %s\n#define ST(v, i, p) %s\n"
               "kernel void k(global const %s *x, global const %s *y, global const %s *z, global %s *o, global int *o2)\n{\n"
               "  size_t i = get_global_id(0);\n  %s%s a = LD(i, x), b = LD(i, y), c = LD(i, z);\n"
               "  ST(select(a, b, c), i, o);\n  ST(select(a, b, as_u%s%s(c)), i, o + %d);\n"
               "  ST(bitselect(a, b, c), i, o + %d);\n  o2[2 * i] = any(c);\n  o2[2 * i + 1] = all(c);\n}\n",
               w == 1 ? "((p)[i])" : (w == 2 ? "vload2(i, p)" : w == 3 ? "vload3(i, p)" : w == 4 ? "vload4(i, p)" : w == 8 ? "vload8(i, p)" : "vload16(i, p)"),
               w == 1 ? "((p)[i] = (v))" : (w == 2 ? "vstore2(v, i, p)" : w == 3 ? "vstore3(v, i, p)" : w == 4 ? "vstore4(v, i, p)" : w == 8 ? "vstore8(v, i, p)" : "vstore16(v, i, p)"),
               ts[t], ts[t], ts[t], ts[t], ts[t], s, ts[t], s, NELEM, 2 * NELEM);
      cl_program p = tl_build(ctx, src, "");
      cl_int err;
      cl_kernel k = clCreateKernel(p, "k", &err);
      ASSERT_OK(err);
      int64_t *in[3];
      cl_mem m[5];
      size_t es = (size_t)bits[t] / 8;
      for (int j = 0; j < 3; j++) {
        in[j] = malloc(NELEM * sizeof(int64_t));
        void *h = malloc(NELEM * es);
        for (int i = 0; i < NELEM; i++) {
          uint64_t r = rnd();
          int64_t v = j < 2 ? (int64_t)r : (r % 3 == 0 ? 0 : r % 3 == 1 ? -1 - (int64_t)(r >> 40) : (int64_t)(r >> 40));
          if (j == 2 && (i / w) % 4 == 0) v = (int64_t)(r % 2) - 1; /* whole vectors of 0 / -1 for any/all */
          v = (int64_t)((uint64_t)v << (64 - bits[t])) >> (64 - bits[t]);
          in[j][i] = v;
          memcpy((char *)h + (size_t)i * es, &v, es);
        }
        m[j] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NELEM * es, h, &err);
        ASSERT_OK(err);
        free(h);
      }
      m[3] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 3 * NELEM * es, NULL, &err);
      ASSERT_OK(err);
      m[4] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * NELEM * sizeof(int), NULL, &err);
      ASSERT_OK(err);
      for (int j = 0; j < 5; j++)
        ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &m[j]));
      size_t g = NELEM / (size_t)w;
      ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
      char *o = malloc(3 * NELEM * es);
      int *o2 = malloc(2 * NELEM * sizeof(int));
      ASSERT_OK(clEnqueueReadBuffer(q, m[3], CL_TRUE, 0, 3 * NELEM * es, o, 0, NULL, NULL));
      ASSERT_OK(clEnqueueReadBuffer(q, m[4], CL_TRUE, 0, 2 * NELEM * sizeof(int), o2, 0, NULL, NULL));
      for (int i = 0; i < NELEM; i++) {
        int64_t a = in[0][i], b = in[1][i], c = in[2][i], g0 = 0, g1 = 0, g2 = 0;
        memcpy(&g0, o + (size_t)i * es, es);
        memcpy(&g1, o + (size_t)(NELEM + i) * es, es);
        memcpy(&g2, o + (size_t)(2 * NELEM + i) * es, es);
        g0 = (int64_t)((uint64_t)g0 << (64 - bits[t])) >> (64 - bits[t]);
        g1 = (int64_t)((uint64_t)g1 << (64 - bits[t])) >> (64 - bits[t]);
        g2 = (int64_t)((uint64_t)g2 << (64 - bits[t])) >> (64 - bits[t]);
        int64_t sel = (w == 1 ? c != 0 : c < 0) ? b : a, bs = (a & ~c) | (b & c);
        ASSERT_EQ(g0, sel);
        ASSERT_EQ(g1, sel);
        ASSERT_EQ(g2, bs);
      }
      for (int v = 0; v < NELEM / w; v++) {
        int any = 0, all = 1;
        for (int l = 0; l < w; l++) {
          any |= in[2][v * w + l] < 0;
          all &= in[2][v * w + l] < 0;
        }
        ASSERT_EQ(o2[2 * v], any);
        ASSERT_EQ(o2[2 * v + 1], all);
      }
      free(o);
      free(o2);
      for (int j = 0; j < 3; j++)
        free(in[j]);
      for (int j = 0; j < 5; j++)
        clReleaseMemObject(m[j]);
      clReleaseKernel(k);
      clReleaseProgram(p);
    }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(shuffle_and_shuffle2)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  const char *src =
      "kernel void k(global int *o, global float *f)\n{\n"
      "  int4 a = (int4)(10, 11, 12, 13), b = (int4)(20, 21, 22, 23);\n"
      "  vstore8(shuffle(a, (uint8)(3, 2, 1, 0, 7, 6, 5, 4)), 0, o);\n"
      "  vstore8(shuffle2(a, b, (uint8)(0, 4, 1, 5, 2, 6, 15, 7)), 1, o);\n"
      "  vstore2(shuffle((int16)(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15), (uint2)(15, 17)), 8, o);\n"
      "  float8 x = (float8)(0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f);\n"
      "  vstore4(shuffle2(x, -x, (uint4)(8, 1, 14, 7)), 0, f);\n}\n";
  cl_program p = tl_build(ctx, src, "");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  cl_mem mo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  cl_mem mf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * sizeof(float), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &mo));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &mf));
  size_t g = 1;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  int o[18];
  float f[4];
  ASSERT_OK(clEnqueueReadBuffer(q, mo, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, mf, CL_TRUE, 0, sizeof(f), f, 0, NULL, NULL));
  static const int want[18] = {13, 12, 11, 10, 13, 12, 11, 10, 10, 20, 11, 21, 12, 22, 23, 23, 15, 1};
  for (int i = 0; i < 18; i++)
    ASSERT_EQ(o[i], want[i]);
  ASSERT_TRUE(f[0] == -0.5f && f[1] == 1.5f && f[2] == -6.5f && f[3] == 7.5f);
  clReleaseMemObject(mo);
  clReleaseMemObject(mf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

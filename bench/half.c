/* Half precision (cl_khr_fp16) beside the float rows of kernels.c: saxpy
 * over 16M halves and the 2D 5-point stencil staged in local memory, the
 * same kernels with half storage and half arithmetic.  A platform without
 * cl_khr_fp16 gets no row (setup returns NULL).  Checked against C in
 * float with a half-sized tolerance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

#define NHALF (16u << 20)

static int has_fp16(bench_env *e)
{
  char ext[8192] = "";
  clGetDeviceInfo(e->dev, CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL);
  return strstr(ext, "cl_khr_fp16") != NULL;
}

/* IEEE half <-> float on the host (round to nearest even; no NaN inputs here) */
static float h2f(cl_half h)
{
  int e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? INFINITY : ldexpf((float)(1024 + m), e - 25);
  return (h & 0x8000) ? -v : v;
}
static cl_half f2h(float f)
{
  cl_half s = signbit(f) ? 0x8000 : 0;
  f = fabsf(f);
  if (f >= 65520.0f)
    return s | 0x7c00;
  int e;
  frexpf(f, &e); /* f = m 2^e, m in [0.5, 1) */
  int q = e - 11 < -24 ? -24 : e - 11; /* the half ulp */
  float k = rintf(ldexpf(f, -q));      /* exact: fewer than 24 bits */
  float r = ldexpf(k, q);
  int be, bm;
  frexpf(r, &be);
  if (r == 0)
    return s;
  if (be - 1 < -14) { /* subnormal */
    bm = (int)ldexpf(r, 24);
    return s | (cl_half)bm;
  }
  bm = (int)ldexpf(r, 11 - be) - 1024;
  return s | (cl_half)(((be - 1 + 15) << 10) | bm);
}

static size_t scaled(bench_env *e, size_t n)
{
  size_t s = (size_t)(n * e->scale);
  return s < 1024 ? 1024 : s & ~(size_t)1023;
}

/* ---- saxpy ---- */
static const char saxpy_src[] =
  "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
  "__kernel void saxpy(__global const half *a, __global const half *b, __global half *c, half s)"
  "{ size_t i = get_global_id(0); c[i] = s * a[i] + b[i]; }\n";

typedef struct {
  size_t n;
  cl_half *a, *b, *c;
  cl_mem da, db, dc;
  cl_program p;
  cl_kernel k;
} hsaxpy_st;

static void *hsaxpy_setup(bench_env *e, long param)
{
  (void)param;
  if (!has_fp16(e))
    return NULL;
  hsaxpy_st *s = calloc(1, sizeof(*s));
  s->n = scaled(e, NHALF);
  s->a = malloc(s->n * 2);
  s->b = malloc(s->n * 2);
  s->c = malloc(s->n * 2);
  for (size_t i = 0; i < s->n; i++) {
    s->a[i] = f2h((float)(i % 1000) * 0.5f);
    s->b[i] = f2h((float)(i % 77));
  }
  s->da = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 2, s->a);
  s->db = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 2, s->b);
  s->dc = bench_buffer(e, CL_MEM_READ_WRITE, s->n * 2, NULL);
  s->p = bench_build(e, saxpy_src, NULL);
  s->k = bench_kernel(s->p, "saxpy");
  cl_half f = f2h(2.5f);
  bench_args(s->k, 4, sizeof(cl_mem), &s->da, sizeof(cl_mem), &s->db, sizeof(cl_mem), &s->dc, sizeof(cl_half), &f);
  return s;
}

static double hsaxpy_run(bench_env *e, void *p)
{
  hsaxpy_st *s = p;
  return bench_ndrange_time(e, s->k, 1, &s->n, NULL);
}

static int hsaxpy_verify(bench_env *e, void *p)
{
  hsaxpy_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dc, CL_TRUE, 0, s->n * 2, s->c, 0, NULL, NULL), "read");
  for (size_t i = 0; i < s->n; i++) {
    float want = 2.5f * h2f(s->a[i]) + h2f(s->b[i]);
    if (fabsf(h2f(s->c[i]) - want) > 2e-3f * fabsf(want) + 1e-3f)
      return 0;
  }
  return 1;
}

static void hsaxpy_teardown(bench_env *e, void *p)
{
  (void)e;
  hsaxpy_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->da);
  clReleaseMemObject(s->db);
  clReleaseMemObject(s->dc);
  free(s->a);
  free(s->b);
  free(s->c);
  free(s);
}

/* the same traffic as memcpy: 3 halves moved per element, read + write / 2 */
static double hsaxpy_native(long param, double scale)
{
  (void)param;
  return bench_memcpy_time((size_t)(NHALF * scale) * 3);
}

/* ---- stencil ---- */
static const char hstencil_src[] =
  "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
  "#define T 16\n"
  "__kernel void stencil(__global const half *in, __global half *out, int w, int h) {\n"
  "  __local half tile[T + 2][T + 2];\n"
  "  int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0) + 1, ly = get_local_id(1) + 1;\n"
  "  #define AT(xx, yy) in[clamp(yy, 0, h - 1) * w + clamp(xx, 0, w - 1)]\n"
  "  tile[ly][lx] = AT(x, y);\n"
  "  if (lx == 1) tile[ly][0] = AT(x - 1, y);\n"
  "  if (lx == T) tile[ly][T + 1] = AT(x + 1, y);\n"
  "  if (ly == 1) tile[0][lx] = AT(x, y - 1);\n"
  "  if (ly == T) tile[T + 1][lx] = AT(x, y + 1);\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  out[y * w + x] = 0.5h * tile[ly][lx] + 0.125h * (tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx]);\n"
  "}\n";
#define HSW 4096
#define HSH 4096
typedef struct {
  cl_half *in, *out;
  cl_mem din, dout;
  cl_program p;
  cl_kernel k;
} hstencil_st;

static void *hstencil_setup(bench_env *e, long param)
{
  (void)param;
  if (!has_fp16(e))
    return NULL;
  hstencil_st *s = calloc(1, sizeof(*s));
  size_t n = (size_t)HSW * HSH;
  s->in = malloc(n * 2);
  s->out = malloc(n * 2);
  for (size_t i = 0; i < n; i++)
    s->in[i] = f2h((float)(i % 101));
  s->din = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 2, s->in);
  s->dout = bench_buffer(e, CL_MEM_READ_WRITE, n * 2, NULL);
  s->p = bench_build(e, hstencil_src, NULL);
  s->k = bench_kernel(s->p, "stencil");
  int w = HSW, h = HSH;
  bench_args(s->k, 4, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, sizeof(int), &w, sizeof(int), &h);
  return s;
}

static double hstencil_run(bench_env *e, void *p)
{
  hstencil_st *s = p;
  size_t g[2] = {HSW, HSH}, l[2] = {16, 16};
  return bench_ndrange_time(e, s->k, 2, g, l);
}

static float hat(const cl_half *in, int x, int y)
{
  x = x < 0 ? 0 : x >= HSW ? HSW - 1 : x;
  y = y < 0 ? 0 : y >= HSH ? HSH - 1 : y;
  return h2f(in[(size_t)y * HSW + x]);
}

static int hstencil_verify(bench_env *e, void *p)
{
  hstencil_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dout, CL_TRUE, 0, (size_t)HSW * HSH * 2, s->out, 0, NULL, NULL), "read");
  for (int y = 0; y < HSH; y += 13)
    for (int x = 0; x < HSW; x++) {
      float want = 0.5f * hat(s->in, x, y) + 0.125f * (hat(s->in, x - 1, y) + hat(s->in, x + 1, y) +
                                                       hat(s->in, x, y - 1) + hat(s->in, x, y + 1));
      if (fabsf(want - h2f(s->out[(size_t)y * HSW + x])) > 0.25f) /* a few half ulps at 100 */
        return 0;
    }
  return 1;
}

static void hstencil_teardown(bench_env *e, void *p)
{
  (void)e;
  hstencil_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->din);
  clReleaseMemObject(s->dout);
  free(s->in);
  free(s->out);
  free(s);
}

static double hstencil_native(long param, double scale)
{
  (void)param;
  (void)scale;
  return bench_memcpy_time((size_t)HSW * HSH * 2);
}

const bench_def bench_half_defs[] = {
  {"saxpy 16M half", hsaxpy_setup, hsaxpy_run, hsaxpy_verify, hsaxpy_teardown, hsaxpy_native, 0},
  {"stencil2d local 4096^2 half", hstencil_setup, hstencil_run, hstencil_verify, hstencil_teardown, hstencil_native, 0},
};
const size_t bench_half_count = sizeof(bench_half_defs) / sizeof(bench_half_defs[0]);

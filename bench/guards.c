/* Application shapes (bench/README.md "guards"): the bounds check almost
 * every real kernel starts with, a uniform value read under it, a runtime
 * divisor, a 2D guard and matrix-vector products in a guard, each beside
 * the same kernel without the guard (global size n rounded up to the local
 * size 256, so the guard is false in the last group only). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define N (2u << 20)      /* elements of the 1D shapes */
#define MV 2048           /* matrix-vector products: MV x MV */
#define PER 100           /* the runtime divisor's value */

static const char guards_src[] =
    "kernel void plain(global float *o, global const float *a, global const float *b, int n, int per) {\n"
    "  int i = get_global_id(0); o[i] = a[i] * 2.0f + b[i]; }\n"
    "kernel void guard(global float *o, global const float *a, global const float *b, int n, int per) {\n"
    "  int i = get_global_id(0); if (i < n) o[i] = a[i] * 2.0f + b[i]; }\n"
    "kernel void guard_ret(global float *o, global const float *a, global const float *b, int n, int per) {\n"
    "  uint i = get_global_id(0); if (i >= n) return; o[i] = a[i] * 2.0f + b[i]; }\n"
    "kernel void plain_bias(global float *o, global const float *a, global const float *b, int n, int per) {\n"
    "  int i = get_global_id(0); o[i] = a[i] * 2.0f + b[0]; }\n"
    "kernel void guard_bias(global float *o, global const float *a, global const float *b, int n, int per) {\n"
    "  int i = get_global_id(0); if (i < n) o[i] = a[i] * 2.0f + b[0]; }\n"
    "kernel void guard_bias_group(global float *o, global const float *a, global const float *b, int n, int per) {\n"
    "  int i = get_global_id(0); if (i < n) o[i] = a[i] * 2.0f + b[get_group_id(0)]; }\n"
    "kernel void plain_div(global float *o, global const float *a, global const float *b, int n, int per) {\n"
    "  int i = get_global_id(0); o[i] = a[i] * 2.0f + b[i / per]; }\n"
    "kernel void guard_div(global float *o, global const float *a, global const float *b, int n, int per) {\n"
    "  int i = get_global_id(0); if (i < n) o[i] = a[i] * 2.0f + b[i / per]; }\n"
    "kernel void guard_div64(global float *o, global const float *a, global const float *b, int n, int per) {\n"
    "  size_t i = get_global_id(0); if (i < (size_t)n) o[i] = a[i] * 2.0f + b[i / (size_t)per]; }\n"
    "kernel void mv_col(global float *y, global const float *A, global const float *x, int n, int per) {\n"
    "  int i = get_global_id(0); float s = 0.0f;\n"
    "  for (int j = 0; j < n; j++) s += A[j * n + i] * x[j]; y[i] = s; }\n"
    "kernel void mv_col_guard(global float *y, global const float *A, global const float *x, int n, int per) {\n"
    "  int i = get_global_id(0); if (i < n) { float s = 0.0f;\n"
    "  for (int j = 0; j < n; j++) s += A[j * n + i] * x[j]; y[i] = s; } }\n"
    "kernel void mv_row(global float *y, global const float *A, global const float *x, int n, int per) {\n"
    "  int i = get_global_id(0); float s = 0.0f;\n"
    "  for (int j = 0; j < n; j++) s += A[i * n + j] * x[j]; y[i] = s; }\n"
    "kernel void mv_row_guard(global float *y, global const float *A, global const float *x, int n, int per) {\n"
    "  int i = get_global_id(0); if (i < n) { float s = 0.0f;\n"
    "  for (int j = 0; j < n; j++) s += A[i * n + j] * x[j]; y[i] = s; } }\n"
    /* PolyBench's covariance: a trip count per work-item, a sum kept in memory */
    "kernel void tri_sum(global float *y, global const float *A, global const float *x, int n, int per) {\n"
    "  int i = get_global_id(0); if (i < n) { y[i] = 0.0f;\n"
    "  for (int j = i; j < n; j += per) for (int k = 0; k < 256; k++) y[i] += A[k * n + i] * A[k * n + j]; } }\n";

enum { K_PLAIN, K_GUARD, K_GUARD_RET, K_PLAIN_BIAS, K_GUARD_BIAS, K_GUARD_BIAS_GROUP, K_PLAIN_DIV, K_GUARD_DIV,
       K_MV_COL, K_MV_COL_GUARD, K_MV_ROW, K_MV_ROW_GUARD, K_GUARD_DIV64, K_TRI_SUM };
static const char *const names[] = {"plain",    "guard",     "guard_ret", "plain_bias", "guard_bias", "guard_bias_group",
                                    "plain_div", "guard_div", "mv_col",    "mv_col_guard", "mv_row", "mv_row_guard", "guard_div64",
                                    "tri_sum"};

typedef struct guards_st {
  long kind;
  size_t n, global, nb;
  float *a, *b, *o;
  cl_mem da, db, dout;
  cl_program p;
  cl_kernel k;
} guards_st;

static int is_mv(long kind)
{
  return (kind >= K_MV_COL && kind <= K_MV_ROW_GUARD) || kind == K_TRI_SUM;
}

static void *guards_setup(bench_env *e, long kind)
{
  guards_st *s = calloc(1, sizeof(*s));
  s->kind = kind;
  size_t n = is_mv(kind) ? MV : (size_t)(N * e->scale);
  if (n < 1024)
    n = 1024;
  /* The guarded kernels get n - 7 elements: the last group is partial. */
  int guarded = kind == K_GUARD || kind == K_GUARD_RET || kind == K_GUARD_BIAS || kind == K_GUARD_BIAS_GROUP ||
                kind == K_GUARD_DIV || kind == K_MV_COL_GUARD || kind == K_MV_ROW_GUARD || kind == K_GUARD_DIV64 ||
                kind == K_TRI_SUM;
  s->n = guarded ? n - 7 : n;
  s->global = (n + 255) / 256 * 256;
  size_t na = is_mv(kind) ? n * n : s->global;
  s->nb = is_mv(kind) ? n : s->global;
  s->a = malloc(na * 4);
  s->b = malloc(s->nb * 4);
  s->o = malloc(s->global * 4);
  for (size_t i = 0; i < na; i++)
    s->a[i] = (float)(i % 1000) * 0.001f;
  for (size_t i = 0; i < s->nb; i++)
    s->b[i] = (float)(i % 77) * 0.25f;
  s->da = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, na * 4, s->a);
  s->db = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->nb * 4, s->b);
  s->dout = bench_buffer(e, CL_MEM_READ_WRITE, s->global * 4, NULL);
  s->p = bench_build(e, guards_src, NULL);
  s->k = bench_kernel(s->p, names[kind]);
  int ni = (int)s->n, per = PER;
  bench_args(s->k, 5, sizeof(cl_mem), &s->dout, sizeof(cl_mem), &s->da, sizeof(cl_mem), &s->db, sizeof(int), &ni,
             sizeof(int), &per);
  return s;
}

static double guards_run(bench_env *e, void *p)
{
  guards_st *s = p;
  size_t local = 256;
  return bench_ndrange_time(e, s->k, 1, &s->global, &local);
}

static float expect(const guards_st *s, size_t i)
{
  switch (s->kind) {
  case K_PLAIN: case K_GUARD: case K_GUARD_RET:
    return s->a[i] * 2.0f + s->b[i];
  case K_PLAIN_BIAS: case K_GUARD_BIAS:
    return s->a[i] * 2.0f + s->b[0];
  case K_GUARD_BIAS_GROUP:
    return s->a[i] * 2.0f + s->b[i / 256];
  case K_PLAIN_DIV: case K_GUARD_DIV: case K_GUARD_DIV64:
    return s->a[i] * 2.0f + s->b[i / PER];
  case K_TRI_SUM: {
    size_t n = s->n;
    float sum = 0.0f;
    for (size_t j = i; j < n; j += PER)
      for (size_t k = 0; k < 256; k++)
        sum += s->a[k * n + i] * s->a[k * n + j];
    return sum;
  }
  default: {
    size_t n = s->n; /* the matrix's size: the guarded kernels' is not a multiple of the group */
    double sum = 0;
    for (size_t j = 0; j < n; j++)
      sum += (double)(s->kind <= K_MV_COL_GUARD ? s->a[j * n + i] : s->a[i * n + j]) * s->b[j];
    return (float)sum;
  }
  }
}

static int guards_verify(bench_env *e, void *p)
{
  guards_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dout, CL_TRUE, 0, s->n * 4, s->o, 0, NULL, NULL), "read");
  size_t step = is_mv(s->kind) ? 37 : 1;
  for (size_t i = 0; i < s->n; i += step) {
    float want = expect(s, i);
    if (fabsf(s->o[i] - want) > 1e-3f * fabsf(want) + 1e-4f)
      return 0;
  }
  return 1;
}

static void guards_teardown(bench_env *e, void *p)
{
  (void)e;
  guards_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->da);
  clReleaseMemObject(s->db);
  clReleaseMemObject(s->dout);
  free(s->a), free(s->b), free(s->o);
  free(s);
}

#define G(name, kind) {name, guards_setup, guards_run, guards_verify, guards_teardown, NULL, kind, 0}
const bench_def bench_guards_defs[] = {
  G("shape o=a*2+b 2M (no guard)", K_PLAIN),
  G("shape if (i<n) o=a*2+b 2M", K_GUARD),
  G("shape if (i>=n) return; uint i 2M", K_GUARD_RET),
  G("shape o=a*2+b[0] 2M (no guard)", K_PLAIN_BIAS),
  G("shape if (i<n) o=a*2+b[0] 2M", K_GUARD_BIAS),
  G("shape if (i<n) o=a*2+b[group] 2M", K_GUARD_BIAS_GROUP),
  G("shape o=a*2+b[i/per] 2M (no guard)", K_PLAIN_DIV),
  G("shape if (i<n) o=a*2+b[i/per] 2M", K_GUARD_DIV),
  G("shape if (i<n) o=a*2+b[i/per] size_t 2M", K_GUARD_DIV64),
  G("shape column dot A[j*n+i] 2048 (no guard)", K_MV_COL),
  G("shape if (i<n) column dot 2048", K_MV_COL_GUARD),
  G("shape row dot A[i*n+j] 2048 (no guard)", K_MV_ROW),
  G("shape if (i<n) row dot 2048", K_MV_ROW_GUARD),
  G("shape if (i<n) for (j=i..n) sum in y[i] 2048", K_TRI_SUM),
};
const size_t bench_guards_count = sizeof(bench_guards_defs) / sizeof(bench_guards_defs[0]);

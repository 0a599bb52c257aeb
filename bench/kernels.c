/* The kernels of the benchmark suite (issue: kernels run).  Each has a C
 * reference check and a native baseline measured in the same run. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"

#define NBIG (16u << 20) /* 16M elements for memory-bound kernels */

static size_t scaled(bench_env *e, size_t n)
{
  size_t s = (size_t)(n * e->scale);
  return s < 1024 ? 1024 : s & ~(size_t)1023;
}

/* ------------------------------------------------------------------------
 * Streaming kernels: copy, vecadd, saxpy.  param: 0 copy, 1 vecadd, 2 saxpy.
 * ---------------------------------------------------------------------- */
static const char stream_src[] =
  "__kernel void copy(__global const float *a, __global const float *b, __global float *c, float s)"
  "{ size_t i = get_global_id(0); c[i] = a[i]; }\n"
  "__kernel void vecadd(__global const float *a, __global const float *b, __global float *c, float s)"
  "{ size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
  "__kernel void saxpy(__global const float *a, __global const float *b, __global float *c, float s)"
  "{ size_t i = get_global_id(0); c[i] = s * a[i] + b[i]; }\n";
static const char *stream_names[] = {"copy", "vecadd", "saxpy"};

typedef struct {
  size_t n;
  long kind;
  float *a, *b, *c;
  cl_mem da, db, dc;
  cl_program p;
  cl_kernel k;
} stream_st;

static void *stream_setup(bench_env *e, long kind)
{
  stream_st *s = calloc(1, sizeof(*s));
  s->kind = kind;
  s->n = scaled(e, NBIG);
  s->a = malloc(s->n * 4);
  s->b = malloc(s->n * 4);
  s->c = malloc(s->n * 4);
  for (size_t i = 0; i < s->n; i++) {
    s->a[i] = (float)(i % 1000) * 0.5f;
    s->b[i] = (float)(i % 77);
  }
  s->da = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 4, s->a);
  s->db = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 4, s->b);
  s->dc = bench_buffer(e, CL_MEM_READ_WRITE, s->n * 4, NULL);
  s->p = bench_build(e, stream_src, NULL);
  s->k = bench_kernel(s->p, stream_names[kind]);
  float f = 2.5f;
  bench_args(s->k, 4, sizeof(cl_mem), &s->da, sizeof(cl_mem), &s->db, sizeof(cl_mem), &s->dc, sizeof(float), &f);
  return s;
}

static double stream_run(bench_env *e, void *p)
{
  stream_st *s = p;
  return bench_ndrange_time(e, s->k, 1, &s->n, NULL);
}

static int stream_verify(bench_env *e, void *p)
{
  stream_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dc, CL_TRUE, 0, s->n * 4, s->c, 0, NULL, NULL), "read");
  for (size_t i = 0; i < s->n; i++) {
    float want = s->kind == 0 ? s->a[i] : s->kind == 1 ? s->a[i] + s->b[i] : 2.5f * s->a[i] + s->b[i];
    if (fabsf(s->c[i] - want) > 1e-5f * fabsf(want) + 1e-6f)
      return 0;
  }
  return 1;
}

static void stream_teardown(bench_env *e, void *p)
{
  stream_st *s = p;
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

/* Native baseline for memory-bound kernels: memcpy of the bytes the kernel moves
 * (reads + writes) / 2, i.e. the same traffic. */
static double stream_native(long kind, double scale)
{
  size_t n = (size_t)(NBIG * scale);
  size_t bytes = n * 4 * (kind == 0 ? 1 : 1.5);
  return bench_memcpy_time(bytes);
}

/* ------------------------------------------------------------------------
 * Stores that must not stream (issue 13): a read-modify-write of rows at a
 * stride, a read-modify-write in place, a strided store, and a pure write of
 * rows at a stride (partial lines).  param: 0 rows +=, 1 a[i] += b[i],
 * 2 out[i*2] =, 3 rows =, 4 rows += with the row a loop of one work-item,
 * 5 out[i] = in[i*2] (a strided read: downsampling).
 * Rows: ROW_W floats every ROW_PITCH over 64 MB, a 2D launch of ROW_W x
 * rows (param 4: a 1D launch of rows).  The read-modify-writes accumulate: the
 * check counts the runs (small integers: exact in float).
 * ---------------------------------------------------------------------- */
#define ROW_W 16
#define ROW_PITCH 17
static const char rmw_src[] =
  "__kernel void rows_rmw(__global float *w, __global const float *b)"
  "{ size_t j = get_global_id(0), i = get_global_id(1); w[i * 17 + j] += b[j]; }\n"
  "__kernel void inc(__global float *w, __global const float *b)"
  "{ size_t i = get_global_id(0); w[i] += b[i]; }\n"
  "__kernel void stride2(__global float *w, __global const float *b)"
  "{ size_t i = get_global_id(0); w[i * 2] = b[i] * 3.0f; }\n"
  "__kernel void rows_set(__global float *w, __global const float *b)"
  "{ size_t j = get_global_id(0), i = get_global_id(1); w[i * 17 + j] = b[j] + (float)i; }\n"
  "__kernel void row_loop(__global float *w, __global const float *b)"
  "{ size_t i = get_global_id(0); for (int j = 0; j < 16; j++) w[i * 17 + j] += b[j]; }\n"
  "__kernel void down2(__global float *w, __global const float *b)"
  "{ size_t i = get_global_id(0); w[i] = b[i * 2] * 3.0f; }\n";
static const char *rmw_names[] = {"rows_rmw", "inc", "stride2", "rows_set", "row_loop", "down2"};

typedef struct {
  long kind;
  size_t n, nb, global[2];   /* n floats in w, nb in b */
  unsigned dim, runs;
  float *w, *b, *out;
  cl_mem dw, db;
  cl_program p;
  cl_kernel k;
} rmw_st;

static void *rmw_setup(bench_env *e, long kind)
{
  rmw_st *s = calloc(1, sizeof(*s));
  s->kind = kind;
  size_t big = scaled(e, NBIG);
  if (kind == 0 || kind == 3) {
    s->dim = 2;
    s->global[0] = ROW_W;
    s->global[1] = big / ROW_PITCH;
    s->n = s->global[1] * ROW_PITCH;
    s->nb = ROW_W;
  } else if (kind == 4) {
    s->dim = 1;
    s->global[0] = big / ROW_PITCH;
    s->n = s->global[0] * ROW_PITCH;
    s->nb = ROW_W;
  } else if (kind == 5) {
    s->dim = 1;
    s->global[0] = big / 2;
    s->n = big / 2;
    s->nb = big;
  } else {
    s->dim = 1;
    s->global[0] = kind == 2 ? big / 2 : big;
    s->n = big;
    s->nb = s->global[0];
  }
  s->w = malloc(s->n * 4);
  s->out = malloc(s->n * 4);
  s->b = malloc(s->nb * 4);
  for (size_t i = 0; i < s->n; i++)
    s->w[i] = (float)(i % 1000);
  for (size_t i = 0; i < s->nb; i++)
    s->b[i] = (float)(i % 13);
  s->dw = bench_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, s->n * 4, s->w);
  s->db = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->nb * 4, s->b);
  s->p = bench_build(e, rmw_src, NULL);
  s->k = bench_kernel(s->p, rmw_names[kind]);
  bench_args(s->k, 2, sizeof(cl_mem), &s->dw, sizeof(cl_mem), &s->db);
  return s;
}

static double rmw_run(bench_env *e, void *p)
{
  rmw_st *s = p;
  s->runs++;
  return bench_ndrange_time(e, s->k, s->dim, s->global, NULL);
}

static int rmw_verify(bench_env *e, void *p)
{
  rmw_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dw, CL_TRUE, 0, s->n * 4, s->out, 0, NULL, NULL), "read");
  for (size_t i = 0; i < s->n; i++) {
    float want = s->w[i];
    size_t r = i / ROW_PITCH, j = i % ROW_PITCH;
    if ((s->kind == 0 || s->kind == 4) && j < ROW_W)
      want += (float)s->runs * s->b[j];
    else if (s->kind == 1)
      want += (float)s->runs * s->b[i];
    else if (s->kind == 2 && i % 2 == 0)
      want = s->b[i / 2] * 3.0f;
    else if (s->kind == 3 && j < ROW_W)
      want = s->b[j] + (float)r;
    else if (s->kind == 5)
      want = s->b[i * 2] * 3.0f;
    if (s->out[i] != want)
      return 0;
  }
  return 1;
}

static void rmw_teardown(bench_env *e, void *p)
{
  rmw_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->dw);
  clReleaseMemObject(s->db);
  free(s->w);
  free(s->b);
  free(s->out);
  free(s);
}

/* memcpy of the bytes each kernel moves (reads + writes) / 2 */
static double rmw_native(long kind, double scale)
{
  size_t n = (size_t)(NBIG * scale);
  /* kind 5 reads every other float of n (whole lines: n * 4 bytes) and writes n / 2 */
  double bytes = kind == 0 || kind == 4 ? n * 4.0 * ROW_W / ROW_PITCH : kind == 1 ? n * 4.0 * 1.5 : kind == 2 ? n * 4.0 * 0.75
                 : kind == 5 ? n * 4.0 * 0.75
                             : n * 4.0 * ROW_W / ROW_PITCH / 2;
  return bench_memcpy_time((size_t)bytes);
}

/* ------------------------------------------------------------------------
 * Local-memory tree reduction (sum of 16M floats, 256-wide groups).
 * ---------------------------------------------------------------------- */
static const char reduce_src[] =
  "__kernel void reduce(__global const float *in, __global float *out, __local float *tmp) {\n"
  "  size_t l = get_local_id(0), L = get_local_size(0);\n"
  "  tmp[l] = in[get_global_id(0)];\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  for (size_t s = L / 2; s > 0; s >>= 1) {\n"
  "    if (l < s) tmp[l] += tmp[l + s];\n"
  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  }\n"
  "  if (l == 0) out[get_group_id(0)] = tmp[0];\n"
  "}\n";

typedef struct {
  size_t n, local, groups;
  float *in, *out;
  cl_mem din, dout;
  cl_program p;
  cl_kernel k;
} red_st;

static void *reduce_setup(bench_env *e, long param)
{
  red_st *s = calloc(1, sizeof(*s));
  s->n = scaled(e, NBIG);
  s->local = 256;
  s->groups = s->n / s->local;
  s->in = malloc(s->n * 4);
  s->out = malloc(s->groups * 4);
  for (size_t i = 0; i < s->n; i++)
    s->in[i] = (float)(i % 13);
  s->din = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 4, s->in);
  s->dout = bench_buffer(e, CL_MEM_READ_WRITE, s->groups * 4, NULL);
  s->p = bench_build(e, reduce_src, NULL);
  s->k = bench_kernel(s->p, "reduce");
  bench_args(s->k, 3, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, s->local * 4, NULL);
  return s;
}

static double reduce_run(bench_env *e, void *p)
{
  red_st *s = p;
  return bench_ndrange_time(e, s->k, 1, &s->n, &s->local);
}

static int reduce_verify(bench_env *e, void *p)
{
  red_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dout, CL_TRUE, 0, s->groups * 4, s->out, 0, NULL, NULL), "read");
  for (size_t g = 0; g < s->groups; g++) {
    float want = 0;
    for (size_t i = 0; i < s->local; i++)
      want += s->in[g * s->local + i];
    if (fabsf(s->out[g] - want) > 1e-3f)
      return 0;
  }
  return 1;
}

static void reduce_teardown(bench_env *e, void *p)
{
  red_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->din);
  clReleaseMemObject(s->dout);
  free(s->in);
  free(s->out);
  free(s);
}

static double reduce_native(long param, double scale)
{
  return bench_memcpy_time((size_t)(NBIG * scale) * 4 / 2); /* read-only traffic: half a copy */
}

/* ------------------------------------------------------------------------
 * Blelloch scan in local memory (barriers in loops): exclusive scan of each
 * 256-element block of 16M ints.  Also used by the collectives comparison
 * (bench/collectives.c) with other block sizes.
 * ---------------------------------------------------------------------- */
const char bench_blelloch_src[] =
  "__kernel void blelloch(__global const int *in, __global int *out, __local int *t) {\n"
  "  size_t l = get_local_id(0), L = get_local_size(0), g = get_global_id(0);\n"
  "  t[l] = in[g];\n"
  "  size_t off = 1;\n"
  "  for (size_t d = L >> 1; d > 0; d >>= 1) {\n"
  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
  "    if (l < d) { size_t ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1; t[bi] += t[ai]; }\n"
  "    off <<= 1;\n"
  "  }\n"
  "  if (l == 0) t[L - 1] = 0;\n"
  "  for (size_t d = 1; d < L; d <<= 1) {\n"
  "    off >>= 1;\n"
  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
  "    if (l < d) { size_t ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;\n"
  "      int x = t[ai]; t[ai] = t[bi]; t[bi] += x; }\n"
  "  }\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  out[g] = t[l];\n"
  "}\n";

typedef struct {
  size_t n, local;
  int *in, *out;
  cl_mem din, dout;
  cl_program p;
  cl_kernel k;
} scan_st;

void *bench_blelloch_setup(bench_env *e, long local)
{
  scan_st *s = calloc(1, sizeof(*s));
  s->n = scaled(e, NBIG);
  s->local = local ? (size_t)local : 256;
  if (s->local > e->max_wg) {
    free(s);
    return NULL;
  }
  s->in = malloc(s->n * 4);
  s->out = malloc(s->n * 4);
  for (size_t i = 0; i < s->n; i++)
    s->in[i] = (int)(i % 7) - 3;
  s->din = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 4, s->in);
  s->dout = bench_buffer(e, CL_MEM_READ_WRITE, s->n * 4, NULL);
  s->p = bench_build(e, bench_blelloch_src, NULL);
  s->k = bench_kernel(s->p, "blelloch");
  bench_args(s->k, 3, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, s->local * 4, NULL);
  return s;
}

double bench_blelloch_run(bench_env *e, void *p)
{
  scan_st *s = p;
  return bench_ndrange_time(e, s->k, 1, &s->n, &s->local);
}

int bench_blelloch_verify(bench_env *e, void *p)
{
  scan_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dout, CL_TRUE, 0, s->n * 4, s->out, 0, NULL, NULL), "read");
  for (size_t g = 0; g < s->n; g += s->local) {
    int acc = 0;
    for (size_t i = 0; i < s->local; i++) {
      if (s->out[g + i] != acc)
        return 0;
      acc += s->in[g + i];
    }
  }
  return 1;
}

void bench_blelloch_teardown(bench_env *e, void *p)
{
  scan_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->din);
  clReleaseMemObject(s->dout);
  free(s->in);
  free(s->out);
  free(s);
}

double bench_copy_native(long param, double scale)
{
  return bench_memcpy_time((size_t)(NBIG * scale) * 4);
}

/* ------------------------------------------------------------------------
 * SGEMM: naive and 16x16 tiled in local memory.  param 0 naive, 1 tiled.
 * ---------------------------------------------------------------------- */
static const char sgemm_src[] =
  "__kernel void naive(int N, __global const float *A, __global const float *B, __global float *C) {\n"
  "  int c = get_global_id(0), r = get_global_id(1); float acc = 0.0f;\n"
  "  for (int k = 0; k < N; k++) acc += A[r * N + k] * B[k * N + c];\n"
  "  C[r * N + c] = acc;\n}\n"
  "#define TS 16\n"
  "__kernel void tiled(int N, __global const float *A, __global const float *B, __global float *C) {\n"
  "  __local float As[TS][TS], Bs[TS][TS];\n"
  "  int lc = get_local_id(0), lr = get_local_id(1);\n"
  "  int c = get_global_id(0), r = get_global_id(1); float acc = 0.0f;\n"
  "  for (int t = 0; t < N / TS; t++) {\n"
  "    As[lr][lc] = A[r * N + t * TS + lc]; Bs[lr][lc] = B[(t * TS + lr) * N + c];\n"
  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
  "    for (int k = 0; k < TS; k++) acc += As[lr][k] * Bs[k][lc];\n"
  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  }\n"
  "  C[r * N + c] = acc;\n}\n";

typedef struct {
  int N;
  long kind;
  float *A, *B, *C;
  cl_mem dA, dB, dC;
  cl_program p;
  cl_kernel k;
} sgemm_st;

#define SGEMM_N 512

static void *sgemm_setup(bench_env *e, long kind)
{
  sgemm_st *s = calloc(1, sizeof(*s));
  s->kind = kind;
  s->N = SGEMM_N;
  size_t nn = (size_t)s->N * s->N;
  s->A = malloc(nn * 4);
  s->B = malloc(nn * 4);
  s->C = malloc(nn * 4);
  for (size_t i = 0; i < nn; i++) {
    s->A[i] = (float)((i * 7) % 17) / 16.0f;
    s->B[i] = (float)((i * 3) % 11) / 8.0f;
  }
  s->dA = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * 4, s->A);
  s->dB = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * 4, s->B);
  s->dC = bench_buffer(e, CL_MEM_READ_WRITE, nn * 4, NULL);
  s->p = bench_build(e, sgemm_src, NULL);
  s->k = bench_kernel(s->p, kind ? "tiled" : "naive");
  bench_args(s->k, 4, sizeof(int), &s->N, sizeof(cl_mem), &s->dA, sizeof(cl_mem), &s->dB, sizeof(cl_mem), &s->dC);
  return s;
}

static double sgemm_run(bench_env *e, void *p)
{
  sgemm_st *s = p;
  size_t g[2] = {(size_t)s->N, (size_t)s->N}, l[2] = {16, 16};
  return bench_ndrange_time(e, s->k, 2, g, s->kind ? l : NULL);
}

static int sgemm_verify(bench_env *e, void *p)
{
  sgemm_st *s = p;
  int N = s->N;
  bench_check(clEnqueueReadBuffer(e->q, s->dC, CL_TRUE, 0, (size_t)N * N * 4, s->C, 0, NULL, NULL), "read");
  for (int r = 0; r < N; r += 37)
    for (int c = 0; c < N; c++) {
      float acc = 0;
      for (int k = 0; k < N; k++)
        acc += s->A[r * N + k] * s->B[k * N + c];
      if (fabsf(acc - s->C[r * N + c]) > 1e-3f * fabsf(acc) + 1e-3f)
        return 0;
    }
  return 1;
}

static void sgemm_teardown(bench_env *e, void *p)
{
  sgemm_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->dA);
  clReleaseMemObject(s->dB);
  clReleaseMemObject(s->dC);
  free(s->A);
  free(s->B);
  free(s->C);
  free(s);
}

/* Native: a cache-friendly C sgemm (i-k-j order, the compiler vectorizes the j loop). */
typedef struct { int N; const float *A, *B; float *C; } gemm_arg;
static void gemm_rows(void *a, size_t b, size_t e)
{
  gemm_arg *g = a;
  int N = g->N;
  for (size_t r = b; r < e; r++) {
    float *c = g->C + r * N;
    memset(c, 0, N * 4);
    for (int k = 0; k < N; k++) {
      float x = g->A[r * N + k];
      const float *brow = g->B + (size_t)k * N;
      for (int j = 0; j < N; j++)
        c[j] += x * brow[j];
    }
  }
}
static double sgemm_native(long kind, double scale)
{
  static float *A, *B, *C;
  int N = SGEMM_N;
  if (!A) {
    A = calloc((size_t)N * N, 4);
    B = calloc((size_t)N * N, 4);
    C = calloc((size_t)N * N, 4);
  }
  gemm_arg g = {N, A, B, C};
  double t0 = bench_now();
  bench_parallel(gemm_rows, &g, N);
  return bench_now() - t0;
}

/* ------------------------------------------------------------------------
 * N-body (float4, rsqrt): one step of accelerations.
 * ---------------------------------------------------------------------- */
static const char nbody_src[] =
  "__kernel void nbody(__global const float4 *pos, __global float4 *acc, int n, float eps) {\n"
  "  size_t i = get_global_id(0); float4 p = pos[i]; float4 a = (float4)(0.0f);\n"
  "  for (int j = 0; j < n; j++) {\n"
  "    float4 q = pos[j]; float4 d = q - p; d.w = 0.0f;\n"
  "    float r2 = dot(d, d) + eps; float inv = rsqrt(r2); float s = q.w * inv * inv * inv;\n"
  "    a += s * d;\n"
  "  }\n"
  "  acc[i] = a;\n}\n";

#define NBODY_N 8192
typedef struct {
  int n;
  float *pos, *acc;
  cl_mem dpos, dacc;
  cl_program p;
  cl_kernel k;
} nbody_st;

static void *nbody_setup(bench_env *e, long param)
{
  nbody_st *s = calloc(1, sizeof(*s));
  s->n = NBODY_N;
  s->pos = malloc(s->n * 16);
  s->acc = malloc(s->n * 16);
  for (int i = 0; i < s->n; i++) {
    s->pos[4 * i + 0] = (float)((i * 37) % 101) / 10.0f;
    s->pos[4 * i + 1] = (float)((i * 53) % 103) / 10.0f;
    s->pos[4 * i + 2] = (float)((i * 71) % 107) / 10.0f;
    s->pos[4 * i + 3] = 1.0f + (i % 3);
  }
  s->dpos = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 16, s->pos);
  s->dacc = bench_buffer(e, CL_MEM_READ_WRITE, s->n * 16, NULL);
  s->p = bench_build(e, nbody_src, NULL);
  s->k = bench_kernel(s->p, "nbody");
  float eps = 0.01f;
  bench_args(s->k, 4, sizeof(cl_mem), &s->dpos, sizeof(cl_mem), &s->dacc, sizeof(int), &s->n, sizeof(float), &eps);
  return s;
}

static double nbody_run(bench_env *e, void *p)
{
  nbody_st *s = p;
  size_t g = s->n;
  return bench_ndrange_time(e, s->k, 1, &g, NULL);
}

static void nbody_ref(const float *pos, int n, int i, float out[3])
{
  float ax = 0, ay = 0, az = 0;
  for (int j = 0; j < n; j++) {
    float dx = pos[4 * j] - pos[4 * i], dy = pos[4 * j + 1] - pos[4 * i + 1], dz = pos[4 * j + 2] - pos[4 * i + 2];
    float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
    float inv = 1.0f / sqrtf(r2);
    float s = pos[4 * j + 3] * inv * inv * inv;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  out[0] = ax;
  out[1] = ay;
  out[2] = az;
}

static int nbody_verify(bench_env *e, void *p)
{
  nbody_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dacc, CL_TRUE, 0, s->n * 16, s->acc, 0, NULL, NULL), "read");
  for (int i = 0; i < s->n; i += 97) {
    float r[3];
    nbody_ref(s->pos, s->n, i, r);
    for (int d = 0; d < 3; d++)
      if (fabsf(r[d] - s->acc[4 * i + d]) > 1e-2f * (fabsf(r[d]) + 1.0f))
        return 0;
  }
  return 1;
}

static void nbody_teardown(bench_env *e, void *p)
{
  nbody_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->dpos);
  clReleaseMemObject(s->dacc);
  free(s->pos);
  free(s->acc);
  free(s);
}

typedef struct { const float *pos; float *acc; int n; } nb_arg;
static void nbody_part(void *a, size_t b, size_t e)
{
  nb_arg *g = a;
  for (size_t i = b; i < e; i++)
    nbody_ref(g->pos, g->n, (int)i, g->acc + 4 * i);
}
static double nbody_native(long param, double scale)
{
  static float *pos, *acc;
  if (!pos) {
    pos = calloc(NBODY_N, 16);
    acc = calloc(NBODY_N, 16);
    for (int i = 0; i < NBODY_N * 4; i++)
      pos[i] = (float)(i % 13);
  }
  nb_arg g = {pos, acc, NBODY_N};
  double t0 = bench_now();
  bench_parallel(nbody_part, &g, NBODY_N);
  return bench_now() - t0;
}

/* ------------------------------------------------------------------------
 * Mandelbrot (divergent inner loop), 2048x1024, 256 iterations max.
 * ---------------------------------------------------------------------- */
static const char mandel_src[] =
  "__kernel void mandel(__global int *out, int w, int h, int maxit) {\n"
  "  int x = get_global_id(0), y = get_global_id(1);\n"
  "  float cr = -2.0f + 3.0f * x / w, ci = -1.0f + 2.0f * y / h, zr = 0.0f, zi = 0.0f; int it = 0;\n"
  "  while (it < maxit && zr * zr + zi * zi < 4.0f) { float t = zr * zr - zi * zi + cr; zi = 2.0f * zr * zi + ci; zr = t; it++; }\n"
  "  out[y * w + x] = it;\n}\n";
#define MW 2048
#define MH 1024
#define MIT 256
typedef struct {
  int *out;
  cl_mem dout;
  cl_program p;
  cl_kernel k;
} mandel_st;

static void *mandel_setup(bench_env *e, long param)
{
  mandel_st *s = calloc(1, sizeof(*s));
  s->out = malloc(MW * MH * 4);
  s->dout = bench_buffer(e, CL_MEM_WRITE_ONLY, MW * MH * 4, NULL);
  s->p = bench_build(e, mandel_src, NULL);
  s->k = bench_kernel(s->p, "mandel");
  int w = MW, h = MH, it = MIT;
  bench_args(s->k, 4, sizeof(cl_mem), &s->dout, sizeof(int), &w, sizeof(int), &h, sizeof(int), &it);
  return s;
}

static double mandel_run(bench_env *e, void *p)
{
  mandel_st *s = p;
  size_t g[2] = {MW, MH};
  return bench_ndrange_time(e, s->k, 2, g, NULL);
}

static int mandel_px(int x, int y)
{
  float cr = -2.0f + 3.0f * x / MW, ci = -1.0f + 2.0f * y / MH, zr = 0, zi = 0;
  int it = 0;
  while (it < MIT && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    it++;
  }
  return it;
}

static int mandel_verify(bench_env *e, void *p)
{
  mandel_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dout, CL_TRUE, 0, MW * MH * 4, s->out, 0, NULL, NULL), "read");
  int bad = 0;
  for (int y = 0; y < MH; y += 7)
    for (int x = 0; x < MW; x += 3)
      bad += abs(s->out[y * MW + x] - mandel_px(x, y)) > 2; /* fp contraction may shift the edge */
  return bad < MW * MH / 21 / 100;
}

static void mandel_teardown(bench_env *e, void *p)
{
  mandel_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->dout);
  free(s->out);
  free(s);
}

typedef struct { int *out; } mb_arg;
static void mandel_rows(void *a, size_t b, size_t e)
{
  mb_arg *m = a;
  for (size_t y = b; y < e; y++)
    for (int x = 0; x < MW; x++)
      m->out[y * MW + x] = mandel_px(x, (int)y);
}
static double mandel_native(long param, double scale)
{
  static int *out;
  if (!out)
    out = malloc(MW * MH * 4);
  mb_arg m = {out};
  double t0 = bench_now();
  bench_parallel(mandel_rows, &m, MH);
  return bench_now() - t0;
}

/* ------------------------------------------------------------------------
 * 2D 5-point stencil staged in local memory (16x16 tiles + halo).
 * ---------------------------------------------------------------------- */
static const char stencil_src[] =
  "#define T 16\n"
  "__kernel void stencil(__global const float *in, __global float *out, int w, int h) {\n"
  "  __local float tile[T + 2][T + 2];\n"
  "  int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0) + 1, ly = get_local_id(1) + 1;\n"
  "  #define AT(xx, yy) in[clamp(yy, 0, h - 1) * w + clamp(xx, 0, w - 1)]\n"
  "  tile[ly][lx] = AT(x, y);\n"
  "  if (lx == 1) tile[ly][0] = AT(x - 1, y);\n"
  "  if (lx == T) tile[ly][T + 1] = AT(x + 1, y);\n"
  "  if (ly == 1) tile[0][lx] = AT(x, y - 1);\n"
  "  if (ly == T) tile[T + 1][lx] = AT(x, y + 1);\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  out[y * w + x] = 0.5f * tile[ly][lx] + 0.125f * (tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx]);\n"
  "}\n";
#define SW 4096
#define SH 4096
typedef struct {
  float *in, *out;
  cl_mem din, dout;
  cl_program p;
  cl_kernel k;
} stencil_st;

static void *stencil_setup(bench_env *e, long param)
{
  stencil_st *s = calloc(1, sizeof(*s));
  s->in = malloc((size_t)SW * SH * 4);
  s->out = malloc((size_t)SW * SH * 4);
  for (size_t i = 0; i < (size_t)SW * SH; i++)
    s->in[i] = (float)(i % 101);
  s->din = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)SW * SH * 4, s->in);
  s->dout = bench_buffer(e, CL_MEM_READ_WRITE, (size_t)SW * SH * 4, NULL);
  s->p = bench_build(e, stencil_src, NULL);
  s->k = bench_kernel(s->p, "stencil");
  int w = SW, h = SH;
  bench_args(s->k, 4, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout, sizeof(int), &w, sizeof(int), &h);
  return s;
}

static double stencil_run(bench_env *e, void *p)
{
  stencil_st *s = p;
  size_t g[2] = {SW, SH}, l[2] = {16, 16};
  return bench_ndrange_time(e, s->k, 2, g, l);
}

static float stencil_at(const float *in, int x, int y)
{
  x = x < 0 ? 0 : x >= SW ? SW - 1 : x;
  y = y < 0 ? 0 : y >= SH ? SH - 1 : y;
  return in[(size_t)y * SW + x];
}

static int stencil_verify(bench_env *e, void *p)
{
  stencil_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dout, CL_TRUE, 0, (size_t)SW * SH * 4, s->out, 0, NULL, NULL), "read");
  for (int y = 0; y < SH; y += 13)
    for (int x = 0; x < SW; x++) {
      float want = 0.5f * stencil_at(s->in, x, y) + 0.125f * (stencil_at(s->in, x - 1, y) + stencil_at(s->in, x + 1, y) +
                                                             stencil_at(s->in, x, y - 1) + stencil_at(s->in, x, y + 1));
      if (fabsf(want - s->out[(size_t)y * SW + x]) > 1e-3f)
        return 0;
    }
  return 1;
}

static void stencil_teardown(bench_env *e, void *p)
{
  stencil_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->din);
  clReleaseMemObject(s->dout);
  free(s->in);
  free(s->out);
  free(s);
}

static double stencil_native(long param, double scale)
{
  return bench_memcpy_time((size_t)SW * SH * 4);
}

/* ------------------------------------------------------------------------
 * Launch overhead: 10,000 tiny kernels, async (one clFinish at the end) and
 * with a clFinish each.  Reported in microseconds per kernel.
 * ---------------------------------------------------------------------- */
static const char tiny_src[] = "__kernel void tiny(__global int *p) { p[get_global_id(0)] += 1; }\n";
typedef struct {
  cl_mem d;
  cl_program p;
  cl_kernel k;
  long each;
} tiny_st;
#define NLAUNCH 10000

static void *tiny_setup(bench_env *e, long each)
{
  tiny_st *s = calloc(1, sizeof(*s));
  s->each = each;
  int zero[16] = {0};
  s->d = bench_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(zero), zero);
  s->p = bench_build(e, tiny_src, NULL);
  s->k = bench_kernel(s->p, "tiny");
  bench_args(s->k, 1, sizeof(cl_mem), &s->d);
  return s;
}

static double tiny_run(bench_env *e, void *p)
{
  tiny_st *s = p;
  size_t g = 1;
  double t0 = bench_now();
  for (int i = 0; i < NLAUNCH; i++) {
    bench_check(clEnqueueNDRangeKernel(e->q, s->k, 1, NULL, &g, &g, 0, NULL, NULL), "ndrange");
    if (s->each)
      clFinish(e->q);
  }
  clFinish(e->q);
  return (bench_now() - t0) / NLAUNCH;
}

static int tiny_verify(bench_env *e, void *p)
{
  tiny_st *s = p;
  int v = 0;
  bench_check(clEnqueueReadBuffer(e->q, s->d, CL_TRUE, 0, 4, &v, 0, NULL, NULL), "read");
  return v == NLAUNCH;
}

static void tiny_teardown(bench_env *e, void *p)
{
  tiny_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->d);
  free(s);
}

/* ------------------------------------------------------------------------
 * Float transcendentals, guarded as applications write them (4M floats):
 * 0 = one sin per element; 1 = sin, cos, exp and pow once each; 2 = a
 * chain of four sin calls.  The compiler keeps a transcendental called
 * from several places out of line (one vector function per width), one
 * called once inlined: these rows show what each costs at run time.
 * ---------------------------------------------------------------------- */
static const char math_src[] =
  "__kernel void m0(__global const float *a, __global const float *b, __global float *c, int n)"
  "{ int i = get_global_id(0); if (i < n) c[i] = sin(a[i]); }\n"
  "__kernel void m1(__global const float *a, __global const float *b, __global float *c, int n)"
  "{ int i = get_global_id(0); if (i < n) { float x = a[i];"
  " c[i] = sin(x) + cos(x * 0.5f) + exp(x * 0.01f) + pow(b[i], 0.75f); } }\n"
  "__kernel void m2(__global const float *a, __global const float *b, __global float *c, int n)"
  "{ int i = get_global_id(0); if (i < n) { float x = a[i];"
  " x = sin(x) * 3.0f + b[i]; x = sin(x) * 2.0f + 1.0f; x = sin(x * 1.5f) + x; c[i] = sin(x); } }\n";

/* The state, the run and the teardown are the stream rows' */
static void *math_setup(bench_env *e, long kind)
{
  stream_st *s = calloc(1, sizeof(*s));
  s->kind = kind;
  s->n = scaled(e, NBIG / 4);
  s->a = malloc(s->n * 4);
  s->b = malloc(s->n * 4);
  s->c = malloc(s->n * 4);
  for (size_t i = 0; i < s->n; i++) {
    s->a[i] = (float)(i % 2000) * 0.01f - 10.0f;
    s->b[i] = (float)(i % 97) * 0.125f;
  }
  s->da = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 4, s->a);
  s->db = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 4, s->b);
  s->dc = bench_buffer(e, CL_MEM_READ_WRITE, s->n * 4, NULL);
  s->p = bench_build(e, math_src, NULL);
  s->k = bench_kernel(s->p, kind == 0 ? "m0" : kind == 1 ? "m1" : "m2");
  int n = (int)s->n;
  bench_args(s->k, 4, sizeof(cl_mem), &s->da, sizeof(cl_mem), &s->db, sizeof(cl_mem), &s->dc, sizeof(int), &n);
  return s;
}

static double math_ref(long kind, double x, double b)
{
  if (kind == 0)
    return sin(x);
  if (kind == 1)
    return sin(x) + cos(x * 0.5) + exp(x * 0.01) + pow(b, 0.75);
  x = sin(x) * 3.0 + b;
  x = sin(x) * 2.0 + 1.0;
  x = sin(x * 1.5) + x;
  return sin(x);
}

static int math_verify(bench_env *e, void *p)
{
  stream_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dc, CL_TRUE, 0, s->n * 4, s->c, 0, NULL, NULL), "read");
  for (size_t i = 0; i < s->n; i += 7) {
    double want = math_ref(s->kind, s->a[i], s->b[i]);
    if (fabs(s->c[i] - want) > 1e-4 * fabs(want) + 1e-4)
      return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * Build time: param 0 = first build of a new source, 1 = cached rebuild of the
 * same source in a new program object, 2 = first build and then one small
 * launch of the kernel to its end (clCreateKernel, 16x16 work-items,
 * clFinish), 3 = the same for one kernel of a program of 24 (1,921
 * lines).  Rows 2 and 3 are the fair ones across drivers: LaneCL makes a
 * kernel's code when the kernel is created, PoCL at its first launch.
 * A new source differs in a program-scope constant, not in a comment: PoCL's
 * cache is keyed by the preprocessed source, so a new comment is a hit.
 * ---------------------------------------------------------------------- */
#define BIG_KERNELS 24
typedef struct {
  long mode;
  char *src;      /* the source of the last run (mode 1 builds it twice) */
} build_st;

static void *build_setup(bench_env *e, long mode)
{
  build_st *s = calloc(1, sizeof(*s));
  s->mode = mode;
  return s;
}

/* BIG_KERNELS kernels of 80 lines each: stencils, a loop with a
 * data-dependent trip count, integer hashing, a local-memory reduction. */
static char *big_source(unsigned nonce)
{
  size_t cap = 1 << 20, n = 0;
  char *s = malloc(cap);
  n += snprintf(s + n, cap - n, "__constant int bench_nonce_%u = %u;\n", nonce, nonce);
  for (int k = 0; k < BIG_KERNELS; k++) {
    n += snprintf(s + n, cap - n,
                  "__kernel void k%d(__global float *out, __global const float *in, int w, int h) {\n"
                  "  int x = get_global_id(0), y = get_global_id(1);\n"
                  "  if (x >= w || y >= h) return;\n"
                  "  float acc = 0.0f;\n",
                  k);
    for (int l = 0; l < 26; l++)
      n += snprintf(s + n, cap - n,
                    "  acc += %d.5f * in[clamp(y + %d, 0, h - 1) * w + clamp(x + %d, 0, w - 1)];\n"
                    "  acc = fma(acc, %d.25f, sin(acc * 0.%d1f));\n",
                    (k + l) % 7, l % 5 - 2, (l * 3) % 5 - 2, l % 3, l % 9);
    n += snprintf(s + n, cap - n,
                  "  uint hsh = (uint)(x * 73856093) ^ (uint)(y * 19349663) ^ %uu;\n"
                  "  for (int i = 0; i < (int)(hsh & 15u); i++) { hsh = hsh * 1664525u + 1013904223u; acc += (float)(hsh >> 24); }\n",
                  (unsigned)k * 2654435761u);
    for (int l = 0; l < 12; l++)
      n += snprintf(s + n, cap - n, "  if (acc > %d.0f) acc = native_sqrt(acc) + %d.0f; else acc = acc * 1.%df;\n",
                    100 + l * 10, l, l);
    n += snprintf(s + n, cap - n,
                  "  __local float part[64];\n"
                  "  int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);\n"
                  "  part[lid & 63] = acc;\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  for (int st = 32; st > 0; st >>= 1) {\n"
                  "    if (lid < st) part[lid] += part[lid + st];\n"
                  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  }\n"
                  "  out[y * w + x] = acc + part[0] * 1e-6f;\n"
                  "}\n");
  }
  return s;
}

static double build_run(bench_env *e, void *p)
{
  build_st *s = p;
  static unsigned nonce;
  unsigned id = nonce++ * 7919u + (unsigned)getpid();
  if (s->mode != 1 || !s->src) {
    free(s->src);
    if (s->mode == 3) {
      s->src = big_source(id);
    } else {
      size_t n = strlen(mandel_src) + 64;
      s->src = malloc(n);
      snprintf(s->src, n, "__constant int bench_nonce_%u = %u;\n%s", id, id, mandel_src);
    }
  }
  if (s->mode == 1) { /* make sure it is in the cache, then time a rebuild */
    cl_program p0 = bench_build(e, s->src, NULL);
    clReleaseProgram(p0);
  }
  double t0 = bench_now();
  cl_program pr = bench_build(e, s->src, NULL);
  if (s->mode >= 2) {
    cl_int err;
    cl_kernel k = clCreateKernel(pr, s->mode == 3 ? "k7" : "mandel", &err);
    bench_check(err, "clCreateKernel");
    cl_mem out = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, 16 * 16 * sizeof(float), NULL, &err);
    bench_check(err, "clCreateBuffer");
    int w = 16, h = 16, maxit = 4;
    bench_check(clSetKernelArg(k, 0, sizeof(out), &out), "arg 0");
    if (s->mode == 3) {
      bench_check(clSetKernelArg(k, 1, sizeof(out), &out), "arg 1");
    } else {
      bench_check(clSetKernelArg(k, 1, sizeof(int), &w), "arg 1");
    }
    bench_check(clSetKernelArg(k, 2, sizeof(int), s->mode == 3 ? &w : &h), "arg 2");
    bench_check(clSetKernelArg(k, 3, sizeof(int), s->mode == 3 ? &h : &maxit), "arg 3");
    size_t g[2] = {16, 16}, l[2] = {8, 8};
    bench_check(clEnqueueNDRangeKernel(e->q, k, 2, NULL, g, s->mode == 3 ? l : NULL, 0, NULL, NULL),
                "clEnqueueNDRangeKernel");
    bench_check(clFinish(e->q), "clFinish");
    clReleaseMemObject(out);
    clReleaseKernel(k);
  }
  double t = bench_now() - t0;
  clReleaseProgram(pr);
  return t;
}

static void build_teardown(bench_env *e, void *p)
{
  build_st *s = p;
  free(s->src);
  free(s);
}

const bench_def bench_kernels_defs[] = {
  {"copy 16M float", stream_setup, stream_run, stream_verify, stream_teardown, stream_native, 0},
  {"vecadd 16M float", stream_setup, stream_run, stream_verify, stream_teardown, stream_native, 1},
  {"saxpy 16M float", stream_setup, stream_run, stream_verify, stream_teardown, stream_native, 2},
  {"rmw rows w[i*17+j] += 64MB", rmw_setup, rmw_run, rmw_verify, rmw_teardown, rmw_native, 0},
  {"rmw row loop w[i*17+j] += 64MB", rmw_setup, rmw_run, rmw_verify, rmw_teardown, rmw_native, 4},
  {"rmw a[i] += b[i] 16M float", rmw_setup, rmw_run, rmw_verify, rmw_teardown, rmw_native, 1},
  {"strided out[i*2] = 8M float", rmw_setup, rmw_run, rmw_verify, rmw_teardown, rmw_native, 2},
  {"strided rows w[i*17+j] = 64MB", rmw_setup, rmw_run, rmw_verify, rmw_teardown, rmw_native, 3},
  {"strided read out[i] = in[i*2] 8M float", rmw_setup, rmw_run, rmw_verify, rmw_teardown, rmw_native, 5},
  {"reduce local-mem tree 16M", reduce_setup, reduce_run, reduce_verify, reduce_teardown, reduce_native, 0},
  {"scan local-mem Blelloch 16M (L=256)", bench_blelloch_setup, bench_blelloch_run, bench_blelloch_verify,
   bench_blelloch_teardown, bench_copy_native, 256},
  {"sgemm naive 512", sgemm_setup, sgemm_run, sgemm_verify, sgemm_teardown, sgemm_native, 0},
  {"sgemm tiled16 512", sgemm_setup, sgemm_run, sgemm_verify, sgemm_teardown, sgemm_native, 1},
  {"nbody 8192 float4", nbody_setup, nbody_run, nbody_verify, nbody_teardown, nbody_native, 0},
  {"math sin 4M float (guarded)", math_setup, stream_run, math_verify, stream_teardown, NULL, 0},
  {"math sin+cos+exp+pow 4M float (guarded)", math_setup, stream_run, math_verify, stream_teardown, NULL, 1},
  {"math 4 chained sin 4M float (guarded)", math_setup, stream_run, math_verify, stream_teardown, NULL, 2},
  {"mandelbrot 2048x1024", mandel_setup, mandel_run, mandel_verify, mandel_teardown, mandel_native, 0},
  {"stencil2d local 4096^2", stencil_setup, stencil_run, stencil_verify, stencil_teardown, stencil_native, 0},
  {"launch async (per kernel)", tiny_setup, tiny_run, tiny_verify, tiny_teardown, NULL, 0, 0, "us", 1e6},
  {"launch + clFinish each (per kernel)", tiny_setup, tiny_run, tiny_verify, tiny_teardown, NULL, 1, 0, "us", 1e6},
  {"build first (mandelbrot src)", build_setup, build_run, NULL, build_teardown, NULL, 0},
  {"build cached (mandelbrot src)", build_setup, build_run, NULL, build_teardown, NULL, 1},
  {"build first + first launch (mandelbrot src)", build_setup, build_run, NULL, build_teardown, NULL, 2},
  {"build first + first launch (1 of 24 kernels, 1,921 lines)", build_setup, build_run, NULL, build_teardown, NULL, 3},
};
const size_t bench_kernels_count = sizeof(bench_kernels_defs) / sizeof(bench_kernels_defs[0]);

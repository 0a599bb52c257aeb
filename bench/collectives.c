/* Work-group collectives benchmarks (issue: collectives): 16M-element scans,
 * reductions and broadcasts with the built-in collectives on LaneCL, the
 * classic local-memory Blelloch scan on LaneCL and PoCL, and a native memcpy of
 * the same bytes (the memory bound: one read and one write per element). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

#define N (16u << 20)
#define NCACHE (128u << 10) /* 512 KiB of ints in + 512 KiB out: L2 resident on 2 cores (1 MiB L2 each) */
#define NL3 (2u << 20)        /* 8 MiB in + 8 MiB out: L3 resident (32 MiB), enough work per launch */

/* param encodes: low 8 bits the op (see below), bits 8..23 the local size, bit 24 float, bits 25..26 the
 * data set: 0 16M elements (DRAM), 1 NCACHE (L2), 2 NL3 (L3) */
enum { C_SCAN_INCL_ADD, C_SCAN_EXCL_ADD, C_SCAN_INCL_MIN, C_SCAN_INCL_MAX, C_REDUCE_ADD, C_BROADCAST };
#define P(op, local, isfloat, cache) ((long)(op) | ((long)(local) << 8) | ((long)(isfloat) << 24) | ((long)(cache) << 25))

static const char *op_expr[] = {
  "work_group_scan_inclusive_add(x)", "work_group_scan_exclusive_add(x)", "work_group_scan_inclusive_min(x)",
  "work_group_scan_inclusive_max(x)", "work_group_reduce_add(x)", "work_group_broadcast(x, (size_t)3)",
};

typedef struct {
  long param;
  size_t n, local;
  int isfloat, op, reps_inner;
  void *in, *out;
  cl_mem din, dout;
  cl_program p;
  cl_kernel k;
} coll_st;

static void *coll_setup(bench_env *e, long param)
{
  coll_st *s = calloc(1, sizeof(*s));
  s->param = param;
  s->op = param & 0xff;
  s->local = (param >> 8) & 0xffff;
  s->isfloat = (param >> 24) & 1;
  int cache = (param >> 25) & 3;
  if (s->local == 0)
    s->local = e->max_wg;
  if (s->local > e->max_wg) {
    free(s);
    return NULL;
  }
  s->n = cache == 1 ? NCACHE : cache == 2 ? NL3 : (size_t)(N * e->scale);
  s->n -= s->n % s->local;
  s->reps_inner = cache == 1 ? 200 : cache == 2 ? 20 : 1;
  const char *ty = s->isfloat ? "float" : "int";
  char src[1024];
  snprintf(src, sizeof(src),
           "__kernel void k(__global const %s *in, __global %s *out) {\n"
           "  size_t i = get_global_id(0); %s x = in[i]; out[i] = %s;\n}\n",
           ty, ty, ty, op_expr[s->op]);
  s->in = malloc(s->n * 4);
  s->out = malloc(s->n * 4);
  for (size_t i = 0; i < s->n; i++) {
    if (s->isfloat)
      ((float *)s->in)[i] = (float)((int)(i % 9) - 4);
    else
      ((int *)s->in)[i] = (int)(i * 2654435761u % 1000) - 500;
  }
  s->din = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 4, s->in);
  s->dout = bench_buffer(e, CL_MEM_READ_WRITE, s->n * 4, NULL);
  s->p = bench_build(e, src, "-cl-std=CL3.0");
  s->k = bench_kernel(s->p, "k");
  bench_args(s->k, 2, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout);
  return s;
}

static double coll_run(bench_env *e, void *p)
{
  coll_st *s = p;
  double t0 = bench_now();
  for (int r = 0; r < s->reps_inner; r++)
    bench_check(clEnqueueNDRangeKernel(e->q, s->k, 1, NULL, &s->n, &s->local, 0, NULL, NULL), "ndrange");
  bench_check(clFinish(e->q), "finish");
  double t = bench_now() - t0;
  /* report in G elements/s: the driver prints time * unit_scale, so return elements per second inverted */
  return t / s->reps_inner;
}

static int coll_verify(bench_env *e, void *p)
{
  coll_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dout, CL_TRUE, 0, s->n * 4, s->out, 0, NULL, NULL), "read");
  for (size_t g = 0; g < s->n; g += s->local) {
    double acc = s->op == C_SCAN_INCL_MIN ? INFINITY : s->op == C_SCAN_INCL_MAX ? -INFINITY : 0;
    long long iacc = s->op == C_SCAN_INCL_MIN ? INT_MAX : s->op == C_SCAN_INCL_MAX ? INT_MIN : 0;
    double total = 0;
    long long itotal = 0;
    for (size_t i = 0; i < s->local; i++) {
      total += s->isfloat ? ((float *)s->in)[g + i] : 0;
      itotal += s->isfloat ? 0 : ((int *)s->in)[g + i];
    }
    for (size_t i = 0; i < s->local; i++) {
      double x = s->isfloat ? ((float *)s->in)[g + i] : 0;
      long long ix = s->isfloat ? 0 : ((int *)s->in)[g + i];
      double want;
      long long iwant;
      switch (s->op) {
      case C_SCAN_INCL_ADD: acc += x; iacc += ix; want = acc; iwant = iacc; break;
      case C_SCAN_EXCL_ADD: want = acc; iwant = iacc; acc += x; iacc += ix; break;
      case C_SCAN_INCL_MIN: acc = fmin(acc, x); iacc = ix < iacc ? ix : iacc; want = acc; iwant = iacc; break;
      case C_SCAN_INCL_MAX: acc = fmax(acc, x); iacc = ix > iacc ? ix : iacc; want = acc; iwant = iacc; break;
      case C_REDUCE_ADD: want = total; iwant = itotal; break;
      default:
        want = s->isfloat ? ((float *)s->in)[g + 3] : 0;
        iwant = s->isfloat ? 0 : ((int *)s->in)[g + 3];
        break;
      }
      if (s->isfloat ? fabs(((float *)s->out)[g + i] - want) > 1e-3 : ((int *)s->out)[g + i] != (int)iwant)
        return 0;
    }
  }
  return 1;
}

static void coll_teardown(bench_env *e, void *p)
{
  coll_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->din);
  clReleaseMemObject(s->dout);
  free(s->in);
  free(s->out);
  free(s);
}

static double coll_native(long param, double scale)
{
  int cache = (param >> 25) & 3;
  if (cache) {
    size_t n = cache == 1 ? NCACHE : NL3;
    int reps = cache == 1 ? 200 : 20;
    double t = 0;
    for (int r = 0; r < reps; r++)
      t += bench_memcpy_time(n * 4);
    return t / reps;
  }
  return bench_memcpy_time((size_t)(N * scale) * 4);
}

extern void *bench_blelloch_setup(bench_env *e, long local);
extern double bench_blelloch_run(bench_env *e, void *p);
extern int bench_blelloch_verify(bench_env *e, void *p);
extern void bench_blelloch_teardown(bench_env *e, void *p);
extern double bench_copy_native(long param, double scale);

#define COLL(name, param) {name, coll_setup, coll_run, coll_verify, coll_teardown, coll_native, param, 1}
const bench_def bench_collective_defs[] = {
  COLL("wg scan_inclusive_add int 16M L=256", P(C_SCAN_INCL_ADD, 256, 0, 0)),
  COLL("wg scan_exclusive_add int 16M L=256", P(C_SCAN_EXCL_ADD, 256, 0, 0)),
  COLL("wg scan_inclusive_min int 16M L=256", P(C_SCAN_INCL_MIN, 256, 0, 0)),
  COLL("wg scan_inclusive_max int 16M L=256", P(C_SCAN_INCL_MAX, 256, 0, 0)),
  COLL("wg scan_inclusive_add float 16M L=256", P(C_SCAN_INCL_ADD, 256, 1, 0)),
  COLL("wg scan_exclusive_add float 16M L=256", P(C_SCAN_EXCL_ADD, 256, 1, 0)),
  COLL("wg scan_inclusive_min float 16M L=256", P(C_SCAN_INCL_MIN, 256, 1, 0)),
  COLL("wg scan_inclusive_max float 16M L=256", P(C_SCAN_INCL_MAX, 256, 1, 0)),
  COLL("wg reduce_add int 16M L=256", P(C_REDUCE_ADD, 256, 0, 0)),
  COLL("wg broadcast int 16M L=256", P(C_BROADCAST, 256, 0, 0)),
  COLL("wg scan_inclusive_add int 16M L=8", P(C_SCAN_INCL_ADD, 8, 0, 0)),
  COLL("wg scan_inclusive_add int 16M L=16", P(C_SCAN_INCL_ADD, 16, 0, 0)),
  COLL("wg scan_inclusive_add int 16M L=64", P(C_SCAN_INCL_ADD, 64, 0, 0)),
  COLL("wg scan_inclusive_add int 16M L=1024", P(C_SCAN_INCL_ADD, 1024, 0, 0)),
  COLL("wg scan_inclusive_add int 16M L=max", P(C_SCAN_INCL_ADD, 0, 0, 0)),
  COLL("wg scan_inclusive_add int 128K L2-resident L=1024", P(C_SCAN_INCL_ADD, 1024, 0, 1)),
  COLL("wg scan_inclusive_add int 128K L2-resident L=256", P(C_SCAN_INCL_ADD, 256, 0, 1)),
  COLL("wg scan_inclusive_add int 2M L3-resident L=256", P(C_SCAN_INCL_ADD, 256, 0, 2)),
  {"local-mem Blelloch scan int 16M L=8", bench_blelloch_setup, bench_blelloch_run, bench_blelloch_verify,
   bench_blelloch_teardown, bench_copy_native, 8},
  {"local-mem Blelloch scan int 16M L=64", bench_blelloch_setup, bench_blelloch_run, bench_blelloch_verify,
   bench_blelloch_teardown, bench_copy_native, 64},
  {"local-mem Blelloch scan int 16M L=1024", bench_blelloch_setup, bench_blelloch_run, bench_blelloch_verify,
   bench_blelloch_teardown, bench_copy_native, 1024},
};
const size_t bench_collective_count = sizeof(bench_collective_defs) / sizeof(bench_collective_defs[0]);

/* Sub-group benchmarks: an inclusive add scan and an add reduction of 16M
 * ints in sub-groups (one sub-group per S work-items, S the kernel's
 * sub-group size), against the same results computed with work-group
 * collectives (work-groups of S work-items) and with __local memory and
 * barriers (a Hillis-Steele scan per segment of S in groups of 256); a
 * native memcpy of the same bytes is the memory bound.  LaneCL only: the
 * sub-group size comes from clGetKernelSubGroupInfo. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl_ext.h>

#include "bench/bench.h"

#define N (16u << 20)
#define L 256

enum { V_SG_SCAN, V_SG_REDUCE, V_WG_SCAN, V_WG_REDUCE, V_LOCAL_SCAN, V_LOCAL_REDUCE };

static const char *const src_of[] = {
    "kernel void k(global const int *in, global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = sub_group_scan_inclusive_add(in[i]);\n}\n",
    "kernel void k(global const int *in, global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = sub_group_reduce_add(in[i]);\n}\n",
    "kernel void k(global const int *in, global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_scan_inclusive_add(in[i]);\n}\n",
    "kernel void k(global const int *in, global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_reduce_add(in[i]);\n}\n",
    "kernel void k(global const int *in, global int *out) {\n"
    "  local int t[256];\n"
    "  size_t i = get_global_id(0), l = get_local_id(0), p = l % S;\n"
    "  t[l] = in[i];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint d = 1; d < S; d <<= 1) {\n"
    "    int v = p >= d ? t[l - d] : 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    t[l] += v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  out[i] = t[l];\n}\n",
    "kernel void k(global const int *in, global int *out) {\n"
    "  local int t[256];\n"
    "  size_t i = get_global_id(0), l = get_local_id(0), p = l % S;\n"
    "  t[l] = in[i];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint d = S / 2; d > 0; d >>= 1) {\n"
    "    if (p < d) t[l] += t[l + d];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  out[i] = t[l - p];\n}\n",
};

typedef struct {
  int v;
  size_t n, local, S;
  int *in, *out;
  cl_mem din, dout;
  cl_program p;
  cl_kernel k;
} sg_st;

/* The sub-group size LaneCL gives a kernel like these. */
static size_t sg_size(bench_env *e)
{
  cl_program p = bench_build(e, src_of[V_SG_SCAN], "-cl-std=CL3.0");
  cl_kernel k = bench_kernel(p, "k");
  size_t local = L, s = 0;
  bench_check(clGetKernelSubGroupInfo(k, e->dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local), &local,
                                      sizeof(s), &s, NULL),
              "clGetKernelSubGroupInfo");
  clReleaseKernel(k);
  clReleaseProgram(p);
  return s;
}

static void *sg_setup(bench_env *e, long param)
{
  sg_st *s = calloc(1, sizeof(*s));
  s->v = (int)param;
  s->S = sg_size(e);
  s->local = s->v == V_WG_SCAN || s->v == V_WG_REDUCE ? s->S : L;
  s->n = (size_t)(N * e->scale);
  s->n -= s->n % L;
  s->in = malloc(s->n * 4);
  s->out = malloc(s->n * 4);
  for (size_t i = 0; i < s->n; i++)
    s->in[i] = (int)(i * 2654435761u % 1000) - 500;
  s->din = bench_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->n * 4, s->in);
  s->dout = bench_buffer(e, CL_MEM_READ_WRITE, s->n * 4, NULL);
  char opts[64];
  snprintf(opts, sizeof(opts), "-cl-std=CL3.0 -DS=%zuu", s->S);
  s->p = bench_build(e, src_of[s->v], opts);
  s->k = bench_kernel(s->p, "k");
  bench_args(s->k, 2, sizeof(cl_mem), &s->din, sizeof(cl_mem), &s->dout);
  return s;
}

static double sg_run(bench_env *e, void *p)
{
  sg_st *s = p;
  double t0 = bench_now();
  bench_check(clEnqueueNDRangeKernel(e->q, s->k, 1, NULL, &s->n, &s->local, 0, NULL, NULL), "ndrange");
  bench_check(clFinish(e->q), "finish");
  return bench_now() - t0;
}

static int sg_verify(bench_env *e, void *p)
{
  sg_st *s = p;
  bench_check(clEnqueueReadBuffer(e->q, s->dout, CL_TRUE, 0, s->n * 4, s->out, 0, NULL, NULL), "read");
  int reduce = s->v == V_SG_REDUCE || s->v == V_WG_REDUCE || s->v == V_LOCAL_REDUCE;
  for (size_t g = 0; g < s->n; g += s->S) {
    int acc = 0, total = 0;
    for (size_t i = 0; i < s->S; i++)
      total += s->in[g + i];
    for (size_t i = 0; i < s->S; i++) {
      acc += s->in[g + i];
      if (s->out[g + i] != (reduce ? total : acc))
        return 0;
    }
  }
  return 1;
}

static void sg_teardown(bench_env *e, void *p)
{
  (void)e;
  sg_st *s = p;
  clReleaseKernel(s->k);
  clReleaseProgram(s->p);
  clReleaseMemObject(s->din);
  clReleaseMemObject(s->dout);
  free(s->in);
  free(s->out);
  free(s);
}

static double sg_native(long param, double scale)
{
  (void)param;
  return bench_memcpy_time((size_t)(N * scale) * 4);
}

#define SG(name, v) {name, sg_setup, sg_run, sg_verify, sg_teardown, sg_native, v, 1, NULL, 0}
const bench_def bench_subgroup_defs[] = {
    SG("sg scan: sub_group_scan_inclusive_add int 16M L=256", V_SG_SCAN),
    SG("sg scan: work_group_scan_inclusive_add int 16M L=S", V_WG_SCAN),
    SG("sg scan: __local memory and barriers int 16M L=256", V_LOCAL_SCAN),
    SG("sg reduce: sub_group_reduce_add int 16M L=256", V_SG_REDUCE),
    SG("sg reduce: work_group_reduce_add int 16M L=S", V_WG_REDUCE),
    SG("sg reduce: __local memory and barriers int 16M L=256", V_LOCAL_REDUCE),
};
const size_t bench_subgroup_count = sizeof(bench_subgroup_defs) / sizeof(bench_subgroup_defs[0]);

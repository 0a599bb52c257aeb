/* LaneCL benchmark suite: the same kernels and host code on LaneCL and on
 * PoCL in one process (the ICD loader loads both: OCL_ICD_VENDORS names a
 * directory holding both .icd files), interleaved repetitions, medians, the
 * LaneCL/PoCL ratio and the fraction of a native C baseline measured in the
 * same run.  Every kernel's result is checked against C.
 *
 *   lanecl-bench [--reps N] [--filter substr] [--size-scale F] [--csv out.csv] [--only LaneCL|PoCL]
 */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double bench_now(void) { return now(); }

void bench_die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "lanecl-bench: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(1);
}

void bench_check(cl_int err, const char *what)
{
  if (err != CL_SUCCESS)
    bench_die("%s failed: %d", what, err);
}

cl_program bench_build(bench_env *e, const char *src, const char *opts)
{
  cl_int err;
  cl_program p = clCreateProgramWithSource(e->ctx, 1, &src, NULL, &err);
  bench_check(err, "clCreateProgramWithSource");
  err = clBuildProgram(p, 1, &e->dev, opts, NULL, NULL);
  if (err != CL_SUCCESS) {
    static char log[65536];
    clGetProgramBuildInfo(p, e->dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
    bench_die("%s: build failed (%d):\n%s", e->name, err, log);
  }
  return p;
}

cl_kernel bench_kernel(cl_program p, const char *name)
{
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  bench_check(err, name);
  return k;
}

cl_mem bench_buffer(bench_env *e, cl_mem_flags flags, size_t size, void *host)
{
  cl_int err;
  cl_mem m = clCreateBuffer(e->ctx, flags, size, host, &err);
  bench_check(err, "clCreateBuffer");
  return m;
}

void bench_args(cl_kernel k, int n, ...)
{
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    size_t sz = va_arg(ap, size_t);
    const void *v = va_arg(ap, const void *);
    bench_check(clSetKernelArg(k, i, sz, v), "clSetKernelArg");
  }
  va_end(ap);
}

double bench_ndrange_time(bench_env *e, cl_kernel k, cl_uint dim, const size_t *global, const size_t *local)
{
  double t0 = now();
  bench_check(clEnqueueNDRangeKernel(e->q, k, dim, NULL, global, local, 0, NULL, NULL), "ndrange");
  bench_check(clFinish(e->q), "finish");
  return now() - t0;
}

/* ---- native baseline helpers: run fn over [0, n) split across threads ---- */
typedef struct { void (*fn)(void *, size_t, size_t); void *arg; size_t b, e; } part_t;
static void *part_main(void *p)
{
  part_t *t = p;
  t->fn(t->arg, t->b, t->e);
  return NULL;
}
int bench_native_threads = 2;
void bench_parallel(void (*fn)(void *, size_t, size_t), void *arg, size_t n)
{
  int nt = bench_native_threads;
  pthread_t th[64];
  part_t parts[64];
  for (int i = 0; i < nt; i++) {
    parts[i] = (part_t){fn, arg, n * i / nt, n * (i + 1) / nt};
    if (i)
      pthread_create(&th[i], NULL, part_main, &parts[i]);
  }
  part_main(&parts[0]);
  for (int i = 1; i < nt; i++)
    pthread_join(th[i], NULL);
}

typedef struct { char *dst; const char *src; } memcpy_arg;
static void memcpy_part(void *a, size_t b, size_t e)
{
  memcpy_arg *m = a;
  memcpy(m->dst + b, m->src + b, e - b);
}
/* Seconds for a 2-thread memcpy of bytes (buffers allocated once, reused). */
double bench_memcpy_time(size_t bytes)
{
  static char *s, *d;
  static size_t cap;
  if (bytes > cap) {
    free(s);
    free(d);
    s = aligned_alloc(4096, (bytes + 4095) & ~(size_t)4095);
    d = aligned_alloc(4096, (bytes + 4095) & ~(size_t)4095);
    memset(s, 1, bytes);
    memset(d, 2, bytes);
    cap = bytes;
  }
  memcpy_arg m = {d, s};
  double t0 = now();
  bench_parallel(memcpy_part, &m, bytes);
  return now() - t0;
}

/* ---- the registry ---- */
extern const bench_def bench_kernels_defs[];
extern const size_t bench_kernels_count;
extern const bench_def bench_collective_defs[];
extern const size_t bench_collective_count;
extern const bench_def bench_guards_defs[];
extern const size_t bench_guards_count;
extern const bench_def bench_half_defs[];
extern const size_t bench_half_count;
extern const bench_def bench_images_defs[];
extern const size_t bench_images_count;
extern const bench_def bench_subgroup_defs[];
extern const size_t bench_subgroup_count;

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static double median(double *v, int n)
{
  if (n == 0)
    return NAN;
  qsort(v, n, sizeof(double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int open_platform(const char *want, bench_env *e)
{
  cl_platform_id ids[16];
  cl_uint n = 0;
  if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS)
    return 0;
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[256] = "";
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
    if (strstr(name, want) || (strstr(want, "PoCL") && strstr(name, "Portable Computing Language"))) {
      e->plat = ids[i];
      if (clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_CPU, 1, &e->dev, NULL) != CL_SUCCESS)
        return 0;
      cl_int err;
      e->ctx = clCreateContext(NULL, 1, &e->dev, NULL, NULL, &err);
      if (err != CL_SUCCESS)
        return 0;
      e->q = clCreateCommandQueueWithProperties(e->ctx, e->dev, NULL, &err);
      if (err != CL_SUCCESS)
        return 0;
      snprintf(e->name, sizeof(e->name), "%s", want);
      clGetDeviceInfo(e->dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(e->max_wg), &e->max_wg, NULL);
      clGetDeviceInfo(e->dev, CL_DEVICE_NAME, sizeof(e->devname), e->devname, NULL);
      char ver[256] = "";
      clGetPlatformInfo(ids[i], CL_PLATFORM_VERSION, sizeof(ver), ver, NULL);
      fprintf(stderr, "platform %-6s: %s | %s\n", want, ver, e->devname);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv)
{
  int reps = 7;
  const char *filter = NULL, *csv = NULL, *only = NULL;
  double scale = 1.0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
    else if (!strcmp(argv[i], "--size-scale") && i + 1 < argc) scale = atof(argv[++i]);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!strcmp(argv[i], "--native-threads") && i + 1 < argc) bench_native_threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: lanecl-bench [--reps N] [--filter SUBSTR] [--size-scale F] [--csv OUT.csv]\n"
             "                    [--only LaneCL|PoCL] [--native-threads N]\n"
             "  --reps N            interleaved repetitions per benchmark (default 7; medians)\n"
             "  --filter SUBSTR     only the benchmarks whose name holds SUBSTR\n"
             "  --size-scale F      scale the problem sizes (quick runs: 0.1)\n"
             "  --csv FILE          also write the table as CSV\n"
             "  --only NAME         run one platform\n"
             "  --native-threads N  threads of the native C baselines\n"
             "OCL_ICD_VENDORS must name a directory holding lanecl.icd and pocl.icd (bench/run.sh\n"
             "makes one); the benchmarks are listed in bench/README.md.\n");
      return 0;
    }
    else bench_die("unknown argument %s (--help lists them)", argv[i]);
  }
  bench_env envs[2];
  memset(envs, 0, sizeof(envs));
  int nenv = 0;
  const char *names[2] = {"LaneCL", "PoCL"};
  for (int i = 0; i < 2; i++) {
    if (only && strcmp(only, names[i]))
      continue;
    if (open_platform(names[i], &envs[nenv]))
      envs[nenv++].scale = scale;
    else
      fprintf(stderr, "platform %s not found (set OCL_ICD_VENDORS to a directory with both .icd files)\n", names[i]);
  }
  if (!nenv)
    bench_die("no platform");
  FILE *out = csv ? fopen(csv, "w") : NULL;
  if (out)
    fprintf(out, "benchmark,unit,lanecl,pocl,native,lanecl_over_pocl_speedup,lanecl_fraction_of_native\n");

  printf("| benchmark | LaneCL | PoCL | PoCL/LaneCL time | native | LaneCL/native | unit |\n");
  printf("| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
  const bench_def *lists[6] = {bench_kernels_defs, bench_half_defs, bench_collective_defs, bench_guards_defs,
                               bench_images_defs, bench_subgroup_defs};
  size_t counts[6] = {bench_kernels_count, bench_half_count, bench_collective_count, bench_guards_count,
                      bench_images_count, bench_subgroup_count};
  for (int li = 0; li < 6; li++)
    for (size_t bi = 0; bi < counts[li]; bi++) {
      const bench_def *b = &lists[li][bi];
      if (filter && !strstr(b->name, filter))
        continue;
      void *st[2] = {NULL, NULL};
      int ok[2] = {0, 0};
      for (int e = 0; e < nenv; e++) {
        if (b->needs_collectives && strcmp(envs[e].name, "LaneCL"))
          continue;
        st[e] = b->setup(&envs[e], b->param);
        ok[e] = st[e] != NULL;
      }
      double *t[3];
      int nt[3] = {0, 0, 0};
      for (int e = 0; e < 3; e++)
        t[e] = calloc(reps, sizeof(double));
      for (int e = 0; e < nenv; e++) /* warm-up + correctness */
        if (ok[e]) {
          b->run(&envs[e], st[e]);
          if (b->verify && !b->verify(&envs[e], st[e])) {
            fprintf(stderr, "%s: %s: WRONG RESULT\n", b->name, envs[e].name);
            ok[e] = 0;
          }
        }
      for (int r = 0; r < reps; r++) {
        for (int e = 0; e < nenv; e++)
          if (ok[e])
            t[e][nt[e]++] = b->run(&envs[e], st[e]);
        if (b->native)
          t[2][nt[2]++] = b->native(b->param, envs[0].scale);
      }
      double m[3];
      for (int e = 0; e < 3; e++)
        m[e] = median(t[e], nt[e]);
      double lane = nenv > 0 && !strcmp(envs[0].name, "LaneCL") ? m[0] : NAN;
      double pocl = NAN;
      for (int e = 0; e < nenv; e++)
        if (!strcmp(envs[e].name, "PoCL"))
          pocl = m[e];
      double native = m[2];
      double k = b->unit_scale > 0 ? b->unit_scale : 1e3; /* default: ms */
      const char *unit = b->unit ? b->unit : "ms";
      printf("| %s | %.3f | %.3f | %.2f | %.3f | %.2f | %s |\n", b->name, lane * k, pocl * k, pocl / lane,
             native * k, native / lane, unit);
      fflush(stdout);
      if (out) {
        /* the name quoted (RFC 4180): some hold commas */
        fputc('"', out);
        for (const char *c = b->name; *c; c++) {
          if (*c == '"')
            fputc('"', out);
          fputc(*c, out);
        }
        fprintf(out, "\",%s,%g,%g,%g,%g,%g\n", unit, lane * k, pocl * k, native * k, pocl / lane, native / lane);
      }
      for (int e = 0; e < nenv; e++)
        if (st[e])
          b->teardown(&envs[e], st[e]);
      for (int e = 0; e < 3; e++)
        free(t[e]);
    }
  if (out)
    fclose(out);
  for (int e = 0; e < nenv; e++) {
    clReleaseCommandQueue(envs[e].q);
    clReleaseContext(envs[e].ctx);
  }
  return 0;
}

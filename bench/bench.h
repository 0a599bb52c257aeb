/* LaneCL benchmark suite: shared declarations. */
#ifndef LANECL_BENCH_H
#define LANECL_BENCH_H

#include <CL/cl.h>
#include <stddef.h>

typedef struct bench_env {
  char name[16];          /* "LaneCL" or "PoCL" */
  cl_platform_id plat;
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q;
  size_t max_wg;
  char devname[256];
  double scale;           /* problem size scale */
} bench_env;

typedef struct bench_def {
  const char *name;
  /* Build, allocate, set arguments; NULL when the platform can't run it. */
  void *(*setup)(bench_env *e, long param);
  /* One timed repetition: enqueue + clFinish; returns seconds. */
  double (*run)(bench_env *e, void *st);
  /* After the warm-up run: compare with C; 1 = correct. */
  int (*verify)(bench_env *e, void *st);
  void (*teardown)(bench_env *e, void *st);
  /* Native C baseline of the same work (memcpy of the same bytes for memory-bound kernels); seconds. */
  double (*native)(long param, double scale);
  long param;
  int needs_collectives;  /* PoCL 3.1 has no work-group collectives: LaneCL only */
  const char *unit;       /* default "ms" */
  double unit_scale;      /* seconds -> unit (default 1e3) */
} bench_def;

double bench_now(void);
void bench_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void bench_check(cl_int err, const char *what);
cl_program bench_build(bench_env *e, const char *src, const char *opts);
cl_kernel bench_kernel(cl_program p, const char *name);
cl_mem bench_buffer(bench_env *e, cl_mem_flags flags, size_t size, void *host);
/* bench_args(k, n, size0, ptr0, size1, ptr1, ...) */
void bench_args(cl_kernel k, int n, ...);
/* One NDRange of k on e's queue, enqueue to clFinish; seconds. */
double bench_ndrange_time(bench_env *e, cl_kernel k, cl_uint dim, const size_t *global, const size_t *local);
double bench_memcpy_time(size_t bytes);
void bench_parallel(void (*fn)(void *, size_t, size_t), void *arg, size_t n);
extern int bench_native_threads;

#endif

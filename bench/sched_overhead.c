/* Launch cost of empty scheduler jobs: the median time of one sched_run of
 * 1, 2, 1000 and 100000 groups that do nothing, back to back ("hot": the
 * workers still spin from the last job) and after 2 ms idle ("cold": they
 * sleep).  Not a test.  Usage: sched_overhead [rounds]; LANECL_NUM_THREADS,
 * LANECL_SPIN_US and LANECL_AFFINITY apply. */
#define _GNU_SOURCE 1
#include "scheduler/pool.c"
#include "scheduler/topology.c"
#include "config/lanecl_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void bench_empty_group(void *data, const uint64_t gid[3], sched_worker *w)
{
  (void)data, (void)gid, (void)w;
}

static double bench_now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int bench_cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median over `rounds` of the mean time of `batch` launches of n groups. */
static double bench_median(sched_pool *pool, uint64_t n, int rounds, int batch, unsigned idle_us)
{
  double *t = malloc(sizeof(double) * (size_t)rounds);
  sched_job job = {{n, 1, 1}, bench_empty_group, NULL};
  if (!t)
    return -1;
  for (int r = 0; r < rounds; r++) {
    if (idle_us) {
      struct timespec ts = {0, (long)idle_us * 1000};
      nanosleep(&ts, NULL);
    }
    double t0 = bench_now_us();
    for (int i = 0; i < batch; i++)
      sched_run(pool, &job);
    t[r] = (bench_now_us() - t0) / batch;
  }
  qsort(t, (size_t)rounds, sizeof(double), bench_cmp);
  double m = t[rounds / 2];
  free(t);
  return m;
}

int main(int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 200;
  if (rounds < 1)
    rounds = 1;
  double t0 = bench_now_us();
  const sched_topology *topo = sched_topology_get();
  double t_topo = bench_now_us() - t0;
  t0 = bench_now_us();
  /* The runtime's settings (runtime/device.c, rt_device_pool). */
  sched_config cfg = {.pin = (int)lc_config_num(LC_AFFINITY),
                      .nthreads = (unsigned)lc_config_num(LC_NUM_THREADS),
                      .spin_us = (int)lc_config_num(LC_SPIN_US)};
  sched_pool *pool = sched_pool_create(&cfg);
  double t_create = bench_now_us() - t0;
  if (!pool)
    return 1;
  printf("cores %u, workers %u; topology %.0f us, pool create %.0f us\n", topo->ncores,
         sched_pool_size(pool), t_topo, t_create);
  static const uint64_t sizes[] = {1, 2, 1000, 100000};
  for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
    uint64_t n = sizes[i];
    int batch = n >= 100000 ? 1 : 20;
    double hot = bench_median(pool, n, rounds, batch, 0);
    double cold = bench_median(pool, n, rounds / 4 + 1, 1, 2000);
    printf("%7llu groups: hot %8.2f us   cold %8.2f us   (%.1f ns/group hot)\n",
           (unsigned long long)n, hot, cold, hot * 1000 / (double)n);
  }
  sched_pool_destroy(pool);
  return 0;
}

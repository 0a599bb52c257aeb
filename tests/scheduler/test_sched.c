/* The scheduler on its own: topology, every group exactly once in 1D/2D/3D,
 * concurrent callers, arenas, the pool's life cycle and its environment
 * variables.  The scheduler's sources are compiled into this test directly
 * (liblanecl.so keeps them hidden). */
#define _GNU_SOURCE 1
#include "scheduler/pool.c"
#include "scheduler/topology.c"
#include "tests/testlib.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- a job that counts how often each group runs ---- */

typedef struct count_job {
  uint64_t n[3];
  _Atomic uint32_t *count;          /* per linear group id */
  _Atomic uint32_t bad_id;          /* group ids out of range */
  _Atomic uint32_t bad_index;       /* worker index out of range */
  unsigned slots;
} count_job;

static void count_group(void *data, const uint64_t gid[3], sched_worker *w)
{
  count_job *c = data;
  if (gid[0] >= c->n[0] || gid[1] >= c->n[1] || gid[2] >= c->n[2]) {
    atomic_fetch_add(&c->bad_id, 1);
    return;
  }
  if (sched_worker_index(w) >= c->slots)
    atomic_fetch_add(&c->bad_index, 1);
  atomic_fetch_add_explicit(&c->count[gid[0] + c->n[0] * (gid[1] + c->n[1] * gid[2])], 1,
                            memory_order_relaxed);
}

/* Runs an nx x ny x nz job on pool and asserts each group ran exactly once. */
static void run_counted(sched_pool *pool, uint64_t nx, uint64_t ny, uint64_t nz)
{
  count_job c = {{nx, ny, nz}, NULL, 0, 0, sched_pool_slots(pool)};
  uint64_t total = nx * ny * nz;
  c.count = calloc(total, sizeof(*c.count));
  ASSERT_TRUE(c.count != NULL);
  sched_job job = {{nx, ny, nz}, count_group, &c};
  sched_run(pool, &job);
  ASSERT_EQ(atomic_load(&c.bad_id), 0);
  ASSERT_EQ(atomic_load(&c.bad_index), 0);
  for (uint64_t i = 0; i < total; i++)
    if (atomic_load(&c.count[i]) != 1)
      tl_fail(__FILE__, __LINE__, "job %llux%llux%llu: group %llu ran %u times",
              (unsigned long long)nx, (unsigned long long)ny, (unsigned long long)nz,
              (unsigned long long)i, atomic_load(&c.count[i]));
  free(c.count);
}

/* ---- the same with run_span: row pieces, one call per claimed range ---- */

typedef struct span_job {
  count_job c;
  _Atomic uint32_t calls;
  _Atomic uint32_t bad_span;        /* a span of 0 groups, or past its row */
} span_job;

static void count_span(void *data, const uint64_t gid[3], uint64_t count, sched_worker *w)
{
  span_job *s = data;
  atomic_fetch_add(&s->calls, 1);
  if (count == 0 || gid[0] + count > s->c.n[0] || gid[0] + count < gid[0]) {
    atomic_fetch_add(&s->bad_span, 1);
    return;
  }
  for (uint64_t k = 0; k < count; k++) {
    const uint64_t id[3] = {gid[0] + k, gid[1], gid[2]};
    count_group(&s->c, id, w);
  }
}

/* Runs an nx x ny x nz job through run_span; each group exactly once, and
 * returns the number of calls. */
static uint32_t run_spans_counted(sched_pool *pool, uint64_t nx, uint64_t ny, uint64_t nz)
{
  span_job s = {{{nx, ny, nz}, NULL, 0, 0, sched_pool_slots(pool)}, 0, 0};
  uint64_t total = nx * ny * nz;
  s.c.count = calloc(total, sizeof(*s.c.count));
  ASSERT_TRUE(s.c.count != NULL);
  sched_job job = {.num_groups = {nx, ny, nz}, .run_span = count_span, .data = &s};
  sched_run(pool, &job);
  ASSERT_EQ(atomic_load(&s.bad_span), 0);
  ASSERT_EQ(atomic_load(&s.c.bad_id), 0);
  ASSERT_EQ(atomic_load(&s.c.bad_index), 0);
  for (uint64_t i = 0; i < total; i++)
    if (atomic_load(&s.c.count[i]) != 1)
      tl_fail(__FILE__, __LINE__, "spans %llux%llux%llu: group %llu ran %u times",
              (unsigned long long)nx, (unsigned long long)ny, (unsigned long long)nz,
              (unsigned long long)i, atomic_load(&s.c.count[i]));
  free(s.c.count);
  return atomic_load(&s.calls);
}

/* A pool over every core, pinned, with nthreads workers (0: one per core). */
static sched_pool *pool_threads(unsigned nthreads)
{
  sched_config cfg = {.pin = 1, .nthreads = nthreads, .spin_us = -1};
  sched_pool *pool = sched_pool_create(&cfg);
  ASSERT_TRUE(pool != NULL);
  return pool;
}

static sched_pool *pool_default(void)
{
  sched_config cfg = {.pin = 1, .spin_us = -1};
  sched_pool *pool = sched_pool_create(&cfg);
  ASSERT_TRUE(pool != NULL);
  return pool;
}

/* ---- topology ---- */

TEST(topology_sane)
{
  const sched_topology *t = sched_topology_get();
  ASSERT_TRUE(t == sched_topology_get());
  ASSERT_TRUE(t->ncores >= 1 && t->ncores <= SCHED_MAX_CORES);
  ASSERT_TRUE(t->npus >= t->ncores);
  ASSERT_TRUE(t->nnuma >= 1);
  for (unsigned i = 0; i < t->ncores; i++) {
    ASSERT_TRUE(t->core_pu[i] >= 0);
    ASSERT_EQ(sched_pu_core(t->core_pu[i]), i);
    ASSERT_TRUE(t->core_numa[i] >= 0 && (unsigned)t->core_numa[i] < t->nnuma);
  }
  ASSERT_EQ(sched_pu_core(-1), -1);
  ASSERT_TRUE(t->l1d.line_size >= 16);
  ASSERT_TRUE(t->total_memory > (64u << 20));
}

/* ---- every group exactly once ---- */

TEST(groups_1d_exactly_once)
{
  sched_pool *pool = pool_default();
  static const uint64_t sizes[] = {1, 2, 3, 1000, 100000};
  for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
    run_counted(pool, sizes[i], 1, 1);
  sched_pool_destroy(pool);
}

TEST(groups_2d_exactly_once)
{
  sched_pool *pool = pool_default();
  run_counted(pool, 1, 2, 1);
  run_counted(pool, 2, 1, 1);
  run_counted(pool, 3, 1, 1);
  run_counted(pool, 31, 17, 1);
  run_counted(pool, 1, 1000, 1);
  run_counted(pool, 300, 333, 1);
  sched_pool_destroy(pool);
}

TEST(groups_3d_exactly_once)
{
  sched_pool *pool = pool_default();
  run_counted(pool, 1, 1, 1);
  run_counted(pool, 1, 1, 2);
  run_counted(pool, 1, 3, 1);
  run_counted(pool, 7, 5, 3);
  run_counted(pool, 10, 10, 10);
  run_counted(pool, 1, 1, 100000);
  run_counted(pool, 100, 10, 100);
  sched_pool_destroy(pool);
}

TEST(spans_every_group_exactly_once)
{
  sched_pool *pool = pool_default();
  static const uint64_t sizes[][3] = {{1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {1000, 1, 1}, {1, 1000, 1},
                                      {31, 17, 1}, {7, 5, 3}, {1, 3, 100}, {300, 33, 3}};
  for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
    run_spans_counted(pool, sizes[i][0], sizes[i][1], sizes[i][2]);
  /* Ranges reach run_span as one call per row piece: a row of 200000 groups
   * takes far fewer calls than groups (claims shrink geometrically). */
  uint32_t calls = run_spans_counted(pool, 200000, 1, 1);
  ASSERT_TRUE(calls >= 1 && calls < 2000);
  sched_pool_destroy(pool);
}

static void never_group(void *data, const uint64_t gid[3], sched_worker *w)
{
  atomic_fetch_add((_Atomic uint32_t *)data, 1);
}

TEST(zero_groups_run_nothing)
{
  sched_pool *pool = pool_default();
  _Atomic uint32_t calls = 0;
  sched_job job = {{0, 5, 5}, never_group, (void *)&calls};
  sched_run(pool, &job);
  job.num_groups[0] = 5;
  job.num_groups[2] = 0;
  sched_run(pool, &job);
  ASSERT_EQ(atomic_load(&calls), 0);
  sched_run(pool, NULL);
  sched_run(NULL, &job);
  sched_pool_destroy(pool);
  sched_pool_destroy(NULL);
}

TEST(many_small_jobs_back_to_back)
{
  sched_pool *pool = pool_default();
  for (int i = 0; i < 5000; i++)
    run_counted(pool, 1 + (uint64_t)(i % 5), 1, 1);
  sched_pool_destroy(pool);
}

/* ---- concurrent callers ---- */

static void *caller_thread(void *arg)
{
  sched_pool *pool = arg;
  static const uint64_t shapes[][3] = {{1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {1000, 1, 1},
                                       {17, 3, 2}, {5, 1, 7}, {10000, 1, 1}};
  for (int i = 0; i < 40; i++) {
    const uint64_t *s = shapes[i % 7];
    run_counted(pool, s[0], s[1], s[2]);
  }
  return NULL;
}

TEST(concurrent_callers)
{
  sched_pool *pool = pool_default();
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    ASSERT_EQ(pthread_create(&t[i], NULL, caller_thread, pool), 0);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  sched_pool_destroy(pool);
}

/* A pool on the last core only: callers on other cores wait while the
 * worker runs their jobs, a caller on that core runs them itself; both at
 * once here. */
TEST(concurrent_callers_sub_pool)
{
  const sched_topology *t = sched_topology_get();
  int core = (int)t->ncores - 1;
  sched_config cfg = {.ncores = 1, .cores = &core, .pin = 1, .spin_us = -1};
  sched_pool *pool = sched_pool_create(&cfg);
  ASSERT_TRUE(pool != NULL);
  pthread_t th[4];
  for (int i = 0; i < 4; i++)
    ASSERT_EQ(pthread_create(&th[i], NULL, caller_thread, pool), 0);
  for (int i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  sched_pool_destroy(pool);
}

/* ---- nesting ---- */

typedef struct nest_job {
  sched_pool *pool;
  _Atomic uint32_t inner;
  _Atomic uint32_t outer;
} nest_job;

static void nest_inner(void *data, const uint64_t gid[3], sched_worker *w)
{
  nest_job *n = data;
  atomic_fetch_add(&n->inner, 1);
  ASSERT_TRUE(sched_worker_arena(w, SCHED_ARENA_SCRATCH, 128) != NULL);
}

static void nest_outer(void *data, const uint64_t gid[3], sched_worker *w)
{
  nest_job *n = data;
  void *mine = sched_worker_arena(w, SCHED_ARENA_SCRATCH, 64);
  sched_job inner = {{10, 1, 1}, nest_inner, n};
  sched_run(n->pool, &inner);
  /* The inner groups had arenas of their own. */
  ASSERT_TRUE(sched_worker_arena(w, SCHED_ARENA_SCRATCH, 64) == mine);
  atomic_fetch_add(&n->outer, 1);
}

TEST(nested_run_inside_group)
{
  sched_pool *pool = pool_default();
  nest_job n = {pool, 0, 0};
  sched_job job = {{8, 1, 1}, nest_outer, &n};
  sched_run(pool, &job);
  ASSERT_EQ(atomic_load(&n.outer), 8);
  ASSERT_EQ(atomic_load(&n.inner), 80);
  sched_pool_destroy(pool);
}

/* ---- arenas ---- */

typedef struct arena_job {
  _Atomic uint32_t bad_align, bad_content, bad_null;
  void *scratch[SCHED_MAX_CORES + 1];
  _Atomic uint32_t used[SCHED_MAX_CORES + 1];
} arena_job;

static void arena_group(void *data, const uint64_t gid[3], sched_worker *w)
{
  arena_job *a = data;
  unsigned idx = sched_worker_index(w);
  size_t size = 256 + (size_t)(gid[0] % 7) * 1000;
  unsigned char *p = sched_worker_arena(w, SCHED_ARENA_LOCAL, size);
  unsigned char *f = sched_worker_arena(w, SCHED_ARENA_FRAME, 100);
  if (!p || !f) {
    atomic_fetch_add(&a->bad_null, 1);
    return;
  }
  if (((uintptr_t)p | (uintptr_t)f) % 64)
    atomic_fetch_add(&a->bad_align, 1);
  unsigned char tag = (unsigned char)(gid[0] * 31 + idx);
  memset(p, tag, size);
  memset(f, (unsigned char)~tag, 100);
  sched_yield();                     /* let another worker run in between */
  for (size_t i = 0; i < size; i++)
    if (p[i] != tag) {
      atomic_fetch_add(&a->bad_content, 1);
      break;
    }
  for (size_t i = 0; i < 100; i++)
    if (f[i] != (unsigned char)~tag) {
      atomic_fetch_add(&a->bad_content, 1);
      break;
    }
  a->scratch[idx] = sched_worker_arena(w, SCHED_ARENA_SCRATCH, 4096);
  atomic_store(&a->used[idx], 1);
}

TEST(arenas_aligned_and_per_worker)
{
  sched_pool *pool = pool_default();
  arena_job *a = calloc(1, sizeof(*a));
  ASSERT_TRUE(a != NULL);
  sched_job job = {{2000, 1, 1}, arena_group, a};
  sched_run(pool, &job);
  sched_run(pool, &job);
  ASSERT_EQ(atomic_load(&a->bad_null), 0);
  ASSERT_EQ(atomic_load(&a->bad_align), 0);
  ASSERT_EQ(atomic_load(&a->bad_content), 0);
  unsigned slots = sched_pool_slots(pool);
  for (unsigned i = 0; i < slots; i++)
    for (unsigned k = i + 1; k < slots; k++)
      if (atomic_load(&a->used[i]) && atomic_load(&a->used[k]))
        ASSERT_TRUE(a->scratch[i] != a->scratch[k]);
  free(a);
  sched_pool_destroy(pool);
}

static void arena_bad_group(void *data, const uint64_t gid[3], sched_worker *w)
{
  _Atomic uint32_t *bad = data;
  if (sched_worker_arena(w, -1, 10) || sched_worker_arena(w, SCHED_NARENAS, 10))
    atomic_fetch_add(bad, 1);
  if (sched_worker_arena(w, SCHED_ARENA_COLL, SIZE_MAX - 10))
    atomic_fetch_add(bad, 1);
  void *p = sched_worker_arena(w, SCHED_ARENA_COLL, 0);
  if (!p || (uintptr_t)p % 64)
    atomic_fetch_add(bad, 1);
}

TEST(arena_bad_requests)
{
  sched_pool *pool = pool_default();
  _Atomic uint32_t bad = 0;
  sched_job job = {{3, 1, 1}, arena_bad_group, (void *)&bad};
  sched_run(pool, &job);
  ASSERT_EQ(atomic_load(&bad), 0);
  ASSERT_TRUE(sched_worker_arena(NULL, 0, 10) == NULL);
  sched_pool_destroy(pool);
}

/* ---- life cycle ---- */

TEST(create_destroy_100_times)
{
  for (int i = 0; i < 100; i++) {
    sched_pool *pool = pool_default();
    if (i % 2)
      run_counted(pool, 10, 1, 1);
    sched_pool_destroy(pool);
  }
}

TEST(create_rejects_bad_cores)
{
  const sched_topology *t = sched_topology_get();
  int bad[1] = {(int)t->ncores};
  sched_config cfg = {.ncores = 1, .cores = bad, .pin = 1, .spin_us = -1};
  ASSERT_TRUE(sched_pool_create(&cfg) == NULL);
  bad[0] = -1;
  ASSERT_TRUE(sched_pool_create(&cfg) == NULL);
  sched_pool *pool = sched_pool_create(NULL);
  ASSERT_TRUE(pool != NULL);
  ASSERT_EQ(sched_pool_size(pool), t->ncores);
  ASSERT_EQ(sched_pool_slots(pool), t->ncores + 1);
  sched_pool_destroy(pool);
}

/* ---- concurrency observed inside groups ---- */

typedef struct conc_job {
  _Atomic int now, max;
  _Atomic uint32_t index_seen[SCHED_MAX_CORES + 1];
  pthread_t caller;
  _Atomic uint32_t on_caller, off_caller;
  _Atomic int cpu_bad;
  int want_cpu;                        /* -1: don't check */
  unsigned sleep_us;
} conc_job;

static void conc_group(void *data, const uint64_t gid[3], sched_worker *w)
{
  conc_job *c = data;
  int now = atomic_fetch_add(&c->now, 1) + 1;
  int max = atomic_load(&c->max);
  while (now > max && !atomic_compare_exchange_weak(&c->max, &max, now))
    ;
  atomic_store(&c->index_seen[sched_worker_index(w)], 1);
  if (pthread_equal(pthread_self(), c->caller))
    atomic_fetch_add(&c->on_caller, 1);
  else
    atomic_fetch_add(&c->off_caller, 1);
  if (c->want_cpu >= 0 && sched_getcpu() != c->want_cpu)
    atomic_fetch_add(&c->cpu_bad, 1);
  if (c->sleep_us)
    usleep(c->sleep_us);
  atomic_fetch_sub(&c->now, 1);
}

static conc_job *conc_run(sched_pool *pool, uint64_t groups, unsigned sleep_us, int want_cpu)
{
  conc_job *c = calloc(1, sizeof(*c));
  ASSERT_TRUE(c != NULL);
  c->caller = pthread_self();
  c->sleep_us = sleep_us;
  c->want_cpu = want_cpu;
  sched_job job = {{groups, 1, 1}, conc_group, c};
  sched_run(pool, &job);
  ASSERT_EQ(atomic_load(&c->on_caller) + atomic_load(&c->off_caller), groups);
  return c;
}

static unsigned conc_indexes(const conc_job *c)
{
  unsigned n = 0;
  for (unsigned i = 0; i <= SCHED_MAX_CORES; i++)
    n += atomic_load(&c->index_seen[i]);
  return n;
}

/* sched_config.nthreads (the runtime's LANECL_NUM_THREADS). */
TEST(num_threads_config_respected)
{
  sched_pool *pool = pool_threads(3);
  ASSERT_EQ(sched_pool_size(pool), 3);
  ASSERT_EQ(sched_pool_slots(pool), 4);
  conc_job *c = conc_run(pool, 200, 200, -1);
  ASSERT_TRUE(atomic_load(&c->max) <= 3);
  ASSERT_TRUE(atomic_load(&c->max) >= 2);        /* the workers did take part */
  ASSERT_TRUE(conc_indexes(c) <= 4);
  free(c);
  sched_pool_destroy(pool);

  pool = pool_threads(1);
  ASSERT_EQ(sched_pool_size(pool), 1);
  c = conc_run(pool, 50, 100, -1);
  ASSERT_EQ(atomic_load(&c->max), 1);
  free(c);
  sched_pool_destroy(pool);

  pool = pool_threads(0);                           /* one per core */
  ASSERT_EQ(sched_pool_size(pool), sched_topology_get()->ncores);
  sched_pool_destroy(pool);
  /* Out of range: refused (the runtime's config never asks for it). */
  sched_config cfg = {.pin = 1, .nthreads = SCHED_MAX_CORES + 1, .spin_us = -1};
  ASSERT_TRUE(sched_pool_create(&cfg) == NULL);
  /* The environment is not the scheduler's to read. */
  setenv("LANECL_NUM_THREADS", "1", 1);
  pool = pool_default();
  ASSERT_EQ(sched_pool_size(pool), sched_topology_get()->ncores);
  sched_pool_destroy(pool);
  unsetenv("LANECL_NUM_THREADS");
}

static void pin_self(int pu);

TEST(one_group_runs_on_one_thread)
{
  pin_self(sched_topology_get()->core_pu[0]);     /* on a core of the pool */
  sched_pool *pool = pool_threads(4);
  for (int i = 0; i < 50; i++) {
    conc_job *c = conc_run(pool, 1, i % 2 ? 100 : 0, -1);
    ASSERT_EQ(atomic_load(&c->max), 1);
    ASSERT_EQ(conc_indexes(c), 1);
    /* This thread runs on a core of the pool: it runs the group itself. */
    ASSERT_EQ(atomic_load(&c->on_caller), 1);
    free(c);
  }
  /* Small jobs: no more threads than groups. */
  for (int i = 0; i < 20; i++) {
    conc_job *c = conc_run(pool, 2, 500, -1);
    ASSERT_TRUE(atomic_load(&c->max) <= 2);
    ASSERT_TRUE(conc_indexes(c) <= 2);
    free(c);
  }
  sched_pool_destroy(pool);
}

static void pin_self(int pu)
{
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(pu, &set);
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof(set), &set), 0);
}

TEST(sub_pool_runs_on_its_core)
{
  const sched_topology *t = sched_topology_get();
  if (t->ncores < 2) {
    printf("  (skipped: one core)\n");
    return;
  }
  pin_self(t->core_pu[0]);
  int core = 1;
  sched_config cfg = {.ncores = 1, .cores = &core, .pin = 1, .spin_us = -1};
  sched_pool *pool = sched_pool_create(&cfg);
  ASSERT_TRUE(pool != NULL);
  ASSERT_EQ(sched_pool_size(pool), 1);
  for (int i = 0; i < 20; i++) {
    conc_job *c = conc_run(pool, i % 3 ? 100 : 1, 0, t->core_pu[1]);
    ASSERT_EQ(atomic_load(&c->on_caller), 0);    /* the caller is not on the pool's core */
    ASSERT_EQ(atomic_load(&c->cpu_bad), 0);
    ASSERT_EQ(atomic_load(&c->max), 1);
    free(c);
  }
  sched_pool_destroy(pool);

  /* pin 0 (the runtime's LANECL_AFFINITY=0): the worker floats. */
  cfg.pin = 0;
  pool = sched_pool_create(&cfg);
  ASSERT_TRUE(pool != NULL);
  conc_job *c = conc_run(pool, 1, 0, -1);
  ASSERT_EQ(atomic_load(&c->on_caller), 0);
  free(c);
  sched_pool_destroy(pool);
}

/* Counts, among groups run by workers (not the caller), those whose thread
 * may run on more than one CPU. */
typedef struct affinity_job {
  pthread_t caller;
  _Atomic uint32_t on_workers, floating;
} affinity_job;

static void affinity_group(void *data, const uint64_t gid[3], sched_worker *w)
{
  affinity_job *a = data;
  cpu_set_t set;
  usleep(200);
  if (pthread_equal(pthread_self(), a->caller))
    return;
  atomic_fetch_add(&a->on_workers, 1);
  if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) == 0 && CPU_COUNT(&set) > 1)
    atomic_fetch_add(&a->floating, 1);
}

/* Runs 100 groups on a pool over every core, from a thread pinned to core 0;
 * returns the share of worker-run groups on floating threads (0 or 1). */
static int affinity_floating(int pin)
{
  sched_config cfg = {.pin = pin, .spin_us = -1};
  affinity_job a = {pthread_self(), 0, 0};
  sched_job job = {{100, 1, 1}, affinity_group, &a};
  sched_pool *pool = sched_pool_create(&cfg);
  ASSERT_TRUE(pool != NULL);
  sched_run(pool, &job);
  sched_pool_destroy(pool);
  ASSERT_TRUE(atomic_load(&a.on_workers) > 0);
  if (atomic_load(&a.floating) == 0)
    return 0;
  ASSERT_EQ(atomic_load(&a.floating), atomic_load(&a.on_workers));
  return 1;
}

/* pin 0 (the runtime's LANECL_AFFINITY=0): workers float, over every
 * core, not the caller's one CPU.  The environment is not the scheduler's
 * to read. */
TEST(affinity_config_unpins)
{
  const sched_topology *t = sched_topology_get();
  if (t->ncores < 2) {
    printf("  (skipped: one core)\n");
    return;
  }
  pin_self(t->core_pu[0]);
  ASSERT_EQ(affinity_floating(1), 0);
  ASSERT_EQ(affinity_floating(0), 1);
  setenv("LANECL_AFFINITY", "0", 1);
  ASSERT_EQ(affinity_floating(1), 0);
  unsetenv("LANECL_AFFINITY");
}

/* ---- home ranges: the same part of a job on the same core each time ---- */

typedef struct home_job {
  unsigned *who;                  /* per group: the worker index that ran it */
} home_job;

static void home_group(void *data, const uint64_t gid[3], sched_worker *w)
{
  home_job *h = data;
  h->who[gid[0]] = w->index;
  uint64_t until = pool_now_ns() + 20000; /* 20 us: nobody finishes early and steals */
  while (pool_now_ns() < until)
    pool_relax();
}

/* A job with a range for every worker: worker i starts on range i, and the
 * caller, standing in for the worker of its core, on that worker's range. */
TEST(home_ranges_follow_the_workers)
{
  const sched_topology *t = sched_topology_get();
  if (t->ncores < 2) {
    printf("  (skipped: one core)\n");
    return;
  }
  sched_pool *pool = pool_default();
  unsigned n = sched_pool_size(pool), per = 64;
  /* The mapping itself. */
  pool->job.nranges = n;
  for (unsigned i = 0; i < n; i++)
    ASSERT_EQ(job_home_range(pool, 0, i), i);
  pool->job.nranges = n - 1; /* fewer ranges than workers: by arrival */
  ASSERT_EQ(job_home_range(pool, 0, n - 1), 0);
  /* The caller on the core of the last worker runs the start of that
   * worker's range, in every run. */
  unsigned k = n - 1;
  pin_self(pool->workers[k].pu >= 0 ? pool->workers[k].pu : t->core_pu[k]);
  home_job h = {calloc((size_t)n * per, sizeof(unsigned))};
  sched_job job = {.num_groups = {(uint64_t)n * per, 1, 1}, .run_group = home_group, .data = &h};
  for (int run = 0; run < 3; run++) {
    sched_run(pool, &job);
    ASSERT_EQ(h.who[(size_t)k * per], n); /* the caller's slot */
  }
  free(h.who);
  sched_pool_destroy(pool);
}

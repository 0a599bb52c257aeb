/* LaneCL scheduler: hwloc topology and a pool of pinned workers that run the
 * work-groups of an NDRange.  Plain C, knows nothing of CL types or LLVM. */
#ifndef LANECL_SCHED_H
#define LANECL_SCHED_H

#include <stddef.h>
#include <stdint.h>

#define SCHED_MAX_CORES 1024
#define SCHED_MAX_NUMA 64

/* ---- topology (hwloc at start-up) ---- */
typedef struct sched_cache {
  uint64_t size;       /* bytes, 0 if unknown */
  uint32_t line_size;
  uint32_t associativity;
} sched_cache;

typedef struct sched_topology {
  unsigned ncores;                 /* physical cores (or PUs if hwloc can't tell) */
  unsigned npus;
  unsigned nnuma;
  int core_pu[SCHED_MAX_CORES];    /* OS index of the first PU of each core */
  int core_numa[SCHED_MAX_CORES];  /* NUMA node logical index of each core */
  int numa_os[SCHED_MAX_NUMA];     /* OS index (mbind's node number) of each NUMA node */
  int core_l3[SCHED_MAX_CORES];    /* L3 domain logical index of each core (-1 none) */
  int core_l2[SCHED_MAX_CORES];
  sched_cache l1d, l2, l3;
  uint64_t total_memory;           /* bytes of RAM */
} sched_topology;

/* Fills *out once per process (cached); never fails (falls back to sysconf). */
const sched_topology *sched_topology_get(void);
/* The core index (into sched_topology) of an OS PU index, -1 if none. */
int sched_pu_core(int os_pu);

/* ---- worker pool ---- */
typedef struct sched_pool sched_pool;
typedef struct sched_worker sched_worker;

#define SCHED_DEFAULT_SPIN_US 20

/* The scheduler reads no environment: the runtime fills this from
 * LANECL_NUM_THREADS, LANECL_AFFINITY and LANECL_SPIN_US. */
typedef struct sched_config {
  unsigned ncores;           /* number of cores; 0 = the machine */
  const int *cores;          /* core indexes into sched_topology (NULL = 0..ncores-1) */
  int pin;                   /* pin each worker to its core's PU; 0: workers float over the pool's cores */
  unsigned nthreads;         /* workers over the cores, round robin (1..SCHED_MAX_CORES); 0: one per core */
  int spin_us;               /* how long an idle worker, or a caller waiting for its job, spins before it
                              * sleeps, in us (0..1000000); <0: SCHED_DEFAULT_SPIN_US */
} sched_config;

/* cfg NULL: every core, pinned, the default spin.  NULL when a core index
 * or nthreads is out of range, or on failure. */
sched_pool *sched_pool_create(const sched_config *cfg);
/* Joins the workers.  The pool must be idle: not from inside a group. */
void sched_pool_destroy(sched_pool *pool);
unsigned sched_pool_size(const sched_pool *pool);
/* Number of distinct sched_worker_index values: the workers plus one slot for
 * the thread that called sched_run and takes part in its job.  Size per-worker
 * tables with this, not with sched_pool_size. */
unsigned sched_pool_slots(const sched_pool *pool);

typedef struct sched_job {
  uint64_t num_groups[3];                  /* groups in x, y, z (>= 1 each) */
  /* Runs one work-group; called concurrently from workers. */
  void (*run_group)(void *data, const uint64_t group_id[3], sched_worker *w);
  void *data;
  /* Optional, used instead of run_group when set: runs the count >= 1
   * consecutive groups group_id, group_id + (1, 0, 0), ... of one row of x
   * (group_id[0] + count <= num_groups[0]).  Each range a participant claims
   * reaches it as one call per row it touches, so a job of many small groups
   * costs one call per claim, not one per group. */
  void (*run_span)(void *data, const uint64_t group_id[3], uint64_t count, sched_worker *w);
  /* Bytes of stack a group may use (0: little).  The caller of sched_run
   * takes part only while it has that much stack left; the workers have
   * sched_worker_stack_size. */
  size_t stack_need;
} sched_job;

/* The stack size of every worker thread. */
size_t sched_worker_stack_size(void);

/* Runs every group of job and returns when all are done.  Groups are handed out
 * in ranges through atomics; idle workers steal.  run_group or run_span must
 * be set.  A job of one group runs on
 * one worker (or the caller).  Thread-safe: jobs from several callers are
 * served in turn.
 * (The caller takes part when it runs on a core of the pool, standing in for
 * that core's worker, so at most sched_pool_size threads run a job.  Called
 * from inside a group, of any pool, it runs the job inline on that thread.) */
void sched_run(sched_pool *pool, const sched_job *job);

/* Per-worker arenas, valid until the next call with the same index on the same
 * worker; grown on demand, 128-byte aligned (the alignment of long16 and
 * double16, so __local arguments of any type can start at the arena).  NULL
 * on out-of-memory. */
enum { SCHED_ARENA_LOCAL = 0, SCHED_ARENA_FRAME = 1, SCHED_ARENA_COLL = 2, SCHED_ARENA_SCRATCH = 3, SCHED_NARENAS = 4 };
void *sched_worker_arena(sched_worker *w, int which, size_t size);
/* 0..sched_pool_size-1 for the workers (worker i runs on core i of the pool),
 * sched_pool_size for the calling thread of sched_run; < sched_pool_slots. */
unsigned sched_worker_index(const sched_worker *w);

#endif

/* The worker pool: one worker thread per core of the pool, pinned to the
 * core's first PU, shared by every queue of a device.  sched_run hands the
 * work-groups of a job out in ranges through atomics, one range per
 * participant; a participant that runs dry steals from the fullest range.
 *
 * Who runs a job
 *   The calling thread takes part when it runs on a core of the pool: it
 *   stands in for that core's worker (which stays out of the job), so a job
 *   never runs on more threads than the pool has workers.  A job of one group
 *   then runs on the caller alone, without touching the workers.  A caller on
 *   another core (a sub-device's pool, say) only waits, and the workers run
 *   every group.  A job of n groups asks for at most n participants: it wakes
 *   sleeping workers only for the seats that spinning workers won't take.
 *
 * Locks and shared words (the rules, as libuv's threadpool.c writes them)
 *   run_lock    held by sched_run for the whole of a job, publication to
 *               completion: one job at a time per pool, jobs of several
 *               callers served in turn.  Its holder owns pool->job,
 *               pool->ranges and the caller's worker slot
 *               (workers[nworkers]).  Workers never take it, and no code
 *               running inside a group takes it (a sched_run from inside a
 *               group runs inline, see pool_run_nested), so it can't deadlock.
 *   seat_word   the workers' seats in the current job: OPEN, the number
 *               of seats, tickets drawn.  A worker takes a seat with one
 *               fetch_add (no CAS loop: 16 spinners would retry each other
 *               for microseconds); a ticket below the number of seats while
 *               OPEN is a seat.  Spinners poll this line only.
 *   done_word   CLOSED with the number of workers that took a seat, and the
 *               number that left (one release fetch_add each), on a line of
 *               its own that only the waiting caller polls.  A worker may
 *               read pool->job and pool->ranges only between taking its seat
 *               and leaving.  The first participant that finds every range
 *               dry clears OPEN and posts CLOSED with the count; the job is
 *               complete when CLOSED and leaves == entered, and only then
 *               may the run_lock holder rewrite pool->job for the next job.
 *   w->state    the worker's own futex word (W_*).  A worker about to sleep
 *               stores W_SLEEP and then re-reads seat_word and shutdown; a
 *               waker stores seat_word (or shutdown) and then reads the
 *               states (all seq_cst).  Whichever goes second sees the
 *               other, so no wake-up is lost.  Only a CAS W_SLEEP -> W_WAKE
 *               counts as waking a worker, so each sleeper is woken once.
 *   nspin       workers spinning (polling seat_word) or between leaving a job
 *               and polling; only a worker changes its own contribution.  A
 *               publisher wakes seats - nspin sleepers: spinners take seats
 *               by themselves.  It is a hint: a worker it counted that
 *               stops spinning re-reads seat_word first and takes the seat.
 */
#define _GNU_SOURCE 1
#include "scheduler/sched.h"

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define POOL_LINE 64
#define POOL_ARENA_ALIGN 128           /* the largest OpenCL C type, long16/double16 */
#define POOL_STACK_SIZE (8u << 20)
#define POOL_STACK_RESERVE (64u << 10)  /* stack the runtime's own frames keep below a group's need */
#define POOL_NONE UINT32_MAX
#define POOL_WAKE_FANOUT 4
#define POOL_MAX_PU 8192         /* OS PU indexes sched_pu_core can map */

/* seat_word: OPEN, the workers' seats, tickets taken (one fetch_add each) */
#define SEAT_OPEN (1u << 31)
#define SEAT_SEATS_SHIFT 16
#define SEAT_SEATS_MASK (0x7ffu << SEAT_SEATS_SHIFT)
#define SEAT_TICKETS_MASK 0xffffu

/* done_word: CLOSED with the number of workers that entered, leaves so far,
 * WAITER (the run_lock holder sleeps on done_word) */
#define DONE_CLOSED (1u << 31)
#define DONE_ENTERED_SHIFT 16
#define DONE_ENTERED_MASK (0x7fffu << DONE_ENTERED_SHIFT)
#define DONE_WAITER (1u << 15)
#define DONE_LEAVES_MASK 0x7fffu

/* sched_worker.state */
enum { W_WAKE = 0, W_SPIN = 1, W_WORK = 2, W_SLEEP = 3 };

/* One participant's share of the groups: [next, end), taken from the front
 * by its owner and by thieves alike (fetch_add, so a claim never overlaps). */
typedef struct pool_range {
  _Alignas(POOL_LINE) _Atomic uint64_t next;
  uint64_t end;
} pool_range;

struct sched_worker {
  _Alignas(POOL_LINE) _Atomic uint32_t state;   /* W_*, futex word */
  unsigned index;
  int pu;                                       /* OS PU to pin to, -1 none */
  sched_pool *pool;
  pthread_t thread;
  void *arena[SCHED_NARENAS];
  size_t arena_size[SCHED_NARENAS];
};

typedef struct pool_job {
  void (*run_group)(void *data, const uint64_t group_id[3], sched_worker *w);
  void (*run_span)(void *data, const uint64_t group_id[3], uint64_t count, sched_worker *w);
  void *data;
  uint64_t nx, ny;
  unsigned nranges;              /* seats, caller's included */
} pool_job;

struct sched_pool {
  unsigned nworkers;
  sched_worker *workers;         /* nworkers + 1; the last is the caller's slot */
  int *core_worker;              /* topology core -> first worker on it, -1 */
  unsigned ncore_map;
  uint64_t spin_ns;
  cpu_set_t *float_set;          /* PUs of the pool's cores, for unpinned workers */
  size_t float_size;
  pthread_mutex_t run_lock;
  pool_job job;                  /* see run_lock and seat_word above */
  pool_range *ranges;            /* nworkers of them */

  _Alignas(POOL_LINE) _Atomic uint32_t seat_word;   /* polled by spinners */
  _Atomic uint32_t avoid;        /* worker the calling thread stands in for */
  _Atomic uint32_t shutdown;
  _Alignas(POOL_LINE) _Atomic uint32_t done_word;   /* polled by the caller */
  _Alignas(POOL_LINE) _Atomic uint32_t nspin;
};

/* The worker this thread is (or stands in for) while it runs groups.
 * initial-exec: static TLS (8 bytes of the surplus glibc keeps for
 * dlopen'd libraries), read straight off %fs.  In the default model every
 * thread that touches it (each worker, each sched_run caller) gets a
 * malloc'd dynamic TLS block through __tls_get_addr.  ASan's interceptor
 * of __tls_get_addr (GCC <= 13, LLVM <= 16) takes a block that starts 16
 * bytes into a page for a glibc 2.19-2.24 one and records the two words
 * before it (ASan's chunk header) as the block's range; at exit,
 * LeakSanitizer's tracer scans that range for every live thread (the
 * pool's workers live until exit) and dies on it ("Tracer caught signal
 * 11", google/sanitizers#1322). */
static _Thread_local sched_worker *pool_tls_worker __attribute__((tls_model("initial-exec")));

/* ---- small helpers ---- */

static void pool_futex_wait(_Atomic uint32_t *addr, uint32_t val)
{
  syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void pool_futex_wake(_Atomic uint32_t *addr, int n)
{
  syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static uint64_t pool_now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void pool_relax(void)
{
  __builtin_ia32_pause();
}

/* ---- arenas ---- */

void *sched_worker_arena(sched_worker *w, int which, size_t size)
{
  if (!w || which < 0 || which >= SCHED_NARENAS)
    return NULL;
  if (size <= w->arena_size[which] && w->arena[which])
    return w->arena[which];
  /* Grow geometrically, in whole aligned blocks; the old contents are not
   * kept. */
  size_t want = size > 2 * w->arena_size[which] ? size : 2 * w->arena_size[which];
  if (want < POOL_ARENA_ALIGN)
    want = POOL_ARENA_ALIGN;
  if (want > SIZE_MAX - POOL_ARENA_ALIGN)
    return NULL;
  want = (want + POOL_ARENA_ALIGN - 1) & ~(size_t)(POOL_ARENA_ALIGN - 1);
  free(w->arena[which]);
  w->arena[which] = aligned_alloc(POOL_ARENA_ALIGN, want);
  w->arena_size[which] = w->arena[which] ? want : 0;
  return w->arena[which];
}

unsigned sched_worker_index(const sched_worker *w)
{
  return w ? w->index : 0;
}

static void worker_free_arenas(sched_worker *w)
{
  for (int i = 0; i < SCHED_NARENAS; i++) {
    free(w->arena[i]);
    w->arena[i] = NULL;
    w->arena_size[i] = 0;
  }
}

/* ---- running groups ---- */

/* Runs the groups of linear ids [a, b): x fastest, then y, then z. */
static void job_run_span(const pool_job *j, uint64_t a, uint64_t b, sched_worker *w)
{
  uint64_t gid[3], t = a / j->nx;
  gid[0] = a % j->nx;
  gid[1] = t % j->ny;
  gid[2] = t / j->ny;
  if (j->run_span) {
    /* One call per row piece. */
    while (a < b) {
      uint64_t n = j->nx - gid[0] < b - a ? j->nx - gid[0] : b - a;
      const uint64_t id[3] = {gid[0], gid[1], gid[2]};
      j->run_span(j->data, id, n, w);
      a += n;
      gid[0] = 0;
      if (++gid[1] == j->ny) {
        gid[1] = 0;
        gid[2]++;
      }
    }
    return;
  }
  for (uint64_t i = a; i < b; i++) {
    const uint64_t id[3] = {gid[0], gid[1], gid[2]};
    j->run_group(j->data, id, w);
    if (++gid[0] == j->nx) {
      gid[0] = 0;
      if (++gid[1] == j->ny) {
        gid[1] = 0;
        gid[2]++;
      }
    }
  }
}

/* Claims a chunk of r: a quarter of what is left for its owner (guided, so
 * the tail comes in small chunks), half of it for a thief. */
static bool range_take(pool_range *r, bool own, uint64_t *a, uint64_t *b)
{
  uint64_t cur = atomic_load_explicit(&r->next, memory_order_relaxed);
  if (cur >= r->end)
    return false;
  uint64_t c = (r->end - cur) / (own ? 4 : 2);
  if (c == 0)
    c = 1;
  uint64_t start = atomic_fetch_add_explicit(&r->next, c, memory_order_relaxed);
  if (start >= r->end)
    return false;
  *a = start;
  *b = r->end - start > c ? start + c : r->end;
  return true;
}

/* The range with the most groups left, NULL when all are dry. */
static pool_range *range_fullest(sched_pool *pool)
{
  pool_range *best = NULL;
  uint64_t most = 0;
  for (unsigned i = 0; i < pool->job.nranges; i++) {
    pool_range *r = &pool->ranges[i];
    uint64_t cur = atomic_load_explicit(&r->next, memory_order_relaxed);
    if (cur < r->end && r->end - cur > most) {
      most = r->end - cur;
      best = r;
    }
  }
  return best;
}

static bool seat_can_enter(uint32_t s)
{
  return (s & SEAT_OPEN) && (s & SEAT_TICKETS_MASK) < (s & SEAT_SEATS_MASK) >> SEAT_SEATS_SHIFT;
}

static bool done_complete(uint32_t d)
{
  return (d & DONE_CLOSED) && (d & DONE_LEAVES_MASK) == (d & DONE_ENTERED_MASK) >> DONE_ENTERED_SHIFT;
}

/* Closes the job to newcomers (the first caller only): the workers that got
 * a seat so far are all that will, and done_word learns how many. */
static void job_close(sched_pool *pool)
{
  if (!(atomic_load_explicit(&pool->seat_word, memory_order_relaxed) & SEAT_OPEN))
    return;
  uint32_t old = atomic_fetch_and_explicit(&pool->seat_word, ~SEAT_OPEN, memory_order_relaxed);
  if (!(old & SEAT_OPEN))
    return;
  uint32_t seats = (old & SEAT_SEATS_MASK) >> SEAT_SEATS_SHIFT, tickets = old & SEAT_TICKETS_MASK;
  uint32_t add = DONE_CLOSED | (tickets < seats ? tickets : seats) << DONE_ENTERED_SHIFT;
  uint32_t d = atomic_fetch_add_explicit(&pool->done_word, add, memory_order_acq_rel) + add;
  if (done_complete(d) && (d & DONE_WAITER))
    pool_futex_wake(&pool->done_word, 1);
}

/* The range a participant starts on.  A job with a range for every worker
 * gives worker i range i, and the caller, standing in for the worker of its
 * core, that worker's range: a kernel run again over the same data (an
 * iterative solver, a benchmark) finds each part in the caches of the core
 * that ran it last time, instead of wherever the seats happened to fall.
 * Smaller jobs go by arrival.  Two participants on one range (a stale read
 * of avoid lets the stood-in worker enter too) only share it: claims are
 * fetch_adds. */
static unsigned job_home_range(const sched_pool *pool, unsigned seat, unsigned index)
{
  return pool->job.nranges == pool->nworkers && index < pool->nworkers ? index : seat;
}

/* A participant's part of the job: its own range, then others' until every
 * range is dry; then closes the job to newcomers.  Called between entry and
 * leave (workers) or by the run_lock holder (the caller). */
static void job_work(sched_pool *pool, unsigned seat, sched_worker *w)
{
  const pool_job *j = &pool->job;
  pool_range *own = &pool->ranges[seat];
  uint64_t a, b;
  while (range_take(own, true, &a, &b))
    job_run_span(j, a, b, w);
  for (;;) {
    pool_range *victim = range_fullest(pool);
    if (!victim)
      break;
    if (range_take(victim, false, &a, &b))
      job_run_span(j, a, b, w);
  }
  job_close(pool);
}

/* ---- the worker side ---- */

static void pool_wake(sched_pool *pool, unsigned seats, unsigned avoid);

/* Takes a seat in the open job (a ticket below the number of seats); false
 * when there is none to take.  A ticket drawn too late is void and harmless:
 * job_close counts at most the seats. */
static bool job_try_enter(sched_pool *pool, unsigned *seat, unsigned *seats_left)
{
  if (!seat_can_enter(atomic_load_explicit(&pool->seat_word, memory_order_relaxed)))
    return false;
  uint32_t old = atomic_fetch_add_explicit(&pool->seat_word, 1, memory_order_acquire);
  if (!seat_can_enter(old))
    return false;
  unsigned seats = (old & SEAT_SEATS_MASK) >> SEAT_SEATS_SHIFT, ticket = old & SEAT_TICKETS_MASK;
  *seat = pool->job.nranges - seats + ticket;
  *seats_left = seats - ticket - 1;
  return true;
}

/* Leaves the job: after this the worker doesn't touch pool->job or ranges. */
static void job_leave(sched_pool *pool)
{
  uint32_t d = atomic_fetch_add_explicit(&pool->done_word, 1, memory_order_release) + 1;
  if (done_complete(d) && (d & DONE_WAITER))
    pool_futex_wake(&pool->done_word, 1);
}

/* Whether w should be up: shutdown, or a seat it may take. */
static bool worker_wanted(sched_pool *pool, sched_worker *w)
{
  if (atomic_load(&pool->shutdown))
    return true;
  return seat_can_enter(atomic_load(&pool->seat_word)) && atomic_load(&pool->avoid) != w->index;
}

enum { POLL_ENTERED, POLL_EXIT, POLL_SLEEP };

/* Spins up to spin_ns waiting for a seat.  Goes to sleep at once when the
 * open job's caller stands in for this worker (it runs on our core). */
static int worker_poll(sched_pool *pool, sched_worker *w, unsigned *seat, unsigned *seats_left)
{
  uint64_t deadline = 0;
  for (unsigned i = 0;; i++) {
    if (atomic_load_explicit(&pool->shutdown, memory_order_relaxed))
      return POLL_EXIT;
    if (seat_can_enter(atomic_load_explicit(&pool->seat_word, memory_order_relaxed))) {
      if (atomic_load_explicit(&pool->avoid, memory_order_relaxed) == w->index)
        return POLL_SLEEP;
      if (job_try_enter(pool, seat, seats_left))
        return POLL_ENTERED;
    }
    pool_relax();
    if ((i & 15) == 0) {
      uint64_t now = pool_now_ns();
      if (deadline == 0)
        deadline = now + pool->spin_ns;
      else if (now >= deadline)
        return POLL_SLEEP;
    }
  }
}

/* Sleeps until a waker's CAS W_SLEEP -> W_WAKE, unless a re-read after
 * announcing the sleep shows a seat or shutdown (see w->state above). */
static void worker_sleep(sched_pool *pool, sched_worker *w)
{
  atomic_store(&w->state, W_SLEEP);
  if (worker_wanted(pool, w)) {
    uint32_t s = W_SLEEP;
    atomic_compare_exchange_strong(&w->state, &s, W_WAKE);
    return;
  }
  while (atomic_load(&w->state) == W_SLEEP)
    pool_futex_wait(&w->state, W_SLEEP);
}

/* Pins w to its PU, or lets it float over the pool's cores (not over the
 * creating thread's mask, which it inherits and which may be one CPU). */
static void worker_pin(const sched_worker *w)
{
  if (w->pu < 0) {
    if (w->pool->float_set)
      pthread_setaffinity_np(pthread_self(), w->pool->float_size, w->pool->float_set);
    return;
  }
  cpu_set_t *set = CPU_ALLOC((size_t)w->pu + 1);
  if (!set)
    return;
  size_t size = CPU_ALLOC_SIZE((size_t)w->pu + 1);
  CPU_ZERO_S(size, set);
  CPU_SET_S((size_t)w->pu, size, set);
  /* Fails when this process may not use the PU: then the worker floats. */
  pthread_setaffinity_np(pthread_self(), size, set);
  CPU_FREE(set);
}

static void *worker_main(void *arg)
{
  sched_worker *w = arg;
  sched_pool *pool = w->pool;
  worker_pin(w);
  pool_tls_worker = w;
  /* State before count, here and after a sleep: a publisher that sees W_SPIN
   * before the count may wake one worker too many, never one too few. */
  atomic_store(&w->state, W_SPIN);
  atomic_fetch_add(&pool->nspin, 1);
  bool woken = false;
  for (;;) {
    unsigned seat, seats_left;
    int r = worker_poll(pool, w, &seat, &seats_left);
    if (r == POLL_EXIT)
      break;
    if (r == POLL_ENTERED) {
      atomic_store_explicit(&w->state, W_WORK, memory_order_relaxed);
      atomic_fetch_sub(&pool->nspin, 1);
      if (woken && seats_left)
        pool_wake(pool, seats_left, atomic_load_explicit(&pool->avoid, memory_order_relaxed));
      woken = false;
      job_work(pool, job_home_range(pool, seat, w->index), w);
      /* Counted as spinning again before leaving, so a publisher that saw
       * this job complete counts this worker. */
      atomic_fetch_add(&pool->nspin, 1);
      atomic_store_explicit(&w->state, W_SPIN, memory_order_relaxed);
      job_leave(pool);
      continue;
    }
    atomic_fetch_sub(&pool->nspin, 1);
    worker_sleep(pool, w);
    woken = true;
    atomic_store(&w->state, W_SPIN);
    atomic_fetch_add(&pool->nspin, 1);
  }
  atomic_fetch_sub(&pool->nspin, 1);
  pool_tls_worker = NULL;
  return NULL;
}

/* ---- the caller side ---- */

/* Wakes sleepers, at most POOL_WAKE_FANOUT, for the seats that spinning
 * workers won't take; the worker `avoid` is neither counted nor woken.
 * Called by the run_lock holder after it opened the job, and by each worker
 * that a wake brought into the job: a wake costs a system call (several us
 * on a VM), so a job that needs many sleepers wakes them as a tree. */
static void pool_wake(sched_pool *pool, unsigned seats, unsigned avoid)
{
  unsigned spinning = atomic_load(&pool->nspin);
  if (avoid < pool->nworkers && spinning && atomic_load(&pool->workers[avoid].state) == W_SPIN)
    spinning--;
  if (spinning >= seats)
    return;
  unsigned want = seats - spinning;
  if (want > POOL_WAKE_FANOUT)
    want = POOL_WAKE_FANOUT;
  unsigned start = avoid < pool->nworkers ? avoid + 1 : 0;
  for (unsigned i = 0; i < pool->nworkers && want; i++) {
    unsigned k = (start + i) % pool->nworkers;
    sched_worker *x = &pool->workers[k];
    uint32_t s = W_SLEEP;
    if (k == avoid || atomic_load(&x->state) != W_SLEEP)
      continue;
    if (atomic_compare_exchange_strong(&x->state, &s, W_WAKE)) {
      pool_futex_wake(&x->state, 1);
      want--;
    }
  }
}

/* Whether the job is complete (closed, and every worker that entered has
 * left), after up to spin_ns of spinning. */
static bool pool_spin_done(sched_pool *pool)
{
  uint64_t deadline = 0;
  for (unsigned i = 0;; i++) {
    if (done_complete(atomic_load_explicit(&pool->done_word, memory_order_acquire)))
      return true;
    pool_relax();
    if ((i & 15) == 0) {
      uint64_t now = pool_now_ns();
      if (deadline == 0)
        deadline = now + pool->spin_ns;
      else if (now >= deadline)
        return false;
    }
  }
}

/* Waits until the job is complete: spins, then sleeps with DONE_WAITER set
 * (whoever completes the job wakes us). */
static void pool_wait_done(sched_pool *pool)
{
  bool done = pool_spin_done(pool);
  while (!done) {
    uint32_t d = atomic_load_explicit(&pool->done_word, memory_order_acquire);
    done = done_complete(d);
    if (done)
      break;
    if (!(d & DONE_WAITER)) {
      if (!atomic_compare_exchange_weak_explicit(&pool->done_word, &d, d | DONE_WAITER,
                                                 memory_order_acquire, memory_order_relaxed))
        continue;
      d |= DONE_WAITER;
    }
    pool_futex_wait(&pool->done_word, d);
  }
}

/* The worker whose core the calling thread runs on, POOL_NONE if none. */
size_t sched_worker_stack_size(void)
{
  return POOL_STACK_SIZE;
}

/* Bytes of stack left below this point on the calling thread (SIZE_MAX when
 * the system won't say). */
static size_t pool_stack_room(void)
{
  static _Thread_local const char *lo __attribute__((tls_model("initial-exec")));
  static _Thread_local bool known __attribute__((tls_model("initial-exec")));
  if (!known) {
    pthread_attr_t a;
    void *addr = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
      if (pthread_attr_getstack(&a, &addr, &size) != 0)
        addr = NULL;
      pthread_attr_destroy(&a);
    }
    lo = addr;
    known = true;
  }
  const char *here = __builtin_frame_address(0);
  if (!lo || here < lo)
    return SIZE_MAX;
  return (size_t)(here - lo);
}

static unsigned pool_caller_worker(const sched_pool *pool)
{
  int cpu = sched_getcpu();
  int core = cpu >= 0 ? sched_pu_core(cpu) : -1;
  if (core < 0 || (unsigned)core >= pool->ncore_map || pool->core_worker[core] < 0)
    return POOL_NONE;
  return (unsigned)pool->core_worker[core];
}

/* A sched_run from inside a group (of any pool): runs every group here, in
 * order, on a worker slot of its own (same index as the thread's, arenas
 * apart), without run_lock, so nesting can't deadlock. */
static void pool_run_nested(sched_pool *pool, const pool_job *j, uint64_t total)
{
  sched_worker *outer = pool_tls_worker;
  sched_worker tmp;
  memset(&tmp, 0, sizeof(tmp));
  tmp.pool = pool;
  tmp.pu = -1;
  tmp.index = outer->pool == pool ? outer->index : pool->nworkers;
  pool_tls_worker = &tmp;
  job_run_span(j, 0, total, &tmp);
  pool_tls_worker = outer;
  worker_free_arenas(&tmp);
}

void sched_run(sched_pool *pool, const sched_job *job)
{
  if (!pool || !job || (!job->run_group && !job->run_span))
    return;
  uint64_t nx = job->num_groups[0], ny = job->num_groups[1], nz = job->num_groups[2], nxy, total;
  if (!nx || !ny || !nz)
    return;
  if (__builtin_mul_overflow(nx, ny, &nxy) || __builtin_mul_overflow(nxy, nz, &total)) {
    fprintf(stderr, "LaneCL: sched_run: %llu x %llu x %llu groups is too many\n",
            (unsigned long long)nx, (unsigned long long)ny, (unsigned long long)nz);
    return;
  }
  pool_job j = {job->run_group, job->run_span, job->data, nx, ny, 0};
  if (pool_tls_worker) {
    pool_run_nested(pool, &j, total);
    return;
  }

  pthread_mutex_lock(&pool->run_lock);
  sched_worker *me = &pool->workers[pool->nworkers];
  unsigned stand_in = pool_caller_worker(pool);
  unsigned seats = total < pool->nworkers ? (unsigned)total : pool->nworkers;
  /* A caller whose stack can't hold a group (an application thread with a
   * small stack waiting in clFinish) leaves the groups to the workers. */
  bool take_part = stand_in != POOL_NONE && pool_stack_room() >= job->stack_need + POOL_STACK_RESERVE;
  if (take_part && seats == 1) {
    /* One seat and we sit on it: no worker hears of this job. */
    pool_tls_worker = me;
    job_run_span(&j, 0, total, me);
    pool_tls_worker = NULL;
    pthread_mutex_unlock(&pool->run_lock);
    return;
  }

  j.nranges = seats;
  pool->job = j;
  uint64_t base = total / seats, extra = total % seats;
  for (unsigned s = 0; s < seats; s++) {
    uint64_t begin = s * base + (s < extra ? s : extra);
    atomic_store_explicit(&pool->ranges[s].next, begin, memory_order_relaxed);
    pool->ranges[s].end = begin + base + (s < extra);
  }
  unsigned worker_seats = take_part ? seats - 1 : seats;
  atomic_store_explicit(&pool->avoid, take_part ? stand_in : POOL_NONE, memory_order_relaxed);
  /* Publish: the job, ranges and done_word above become visible to whoever
   * takes a seat (its fetch_add on seat_word reads this store). */
  atomic_store_explicit(&pool->done_word, 0, memory_order_relaxed);
  atomic_store(&pool->seat_word, SEAT_OPEN | worker_seats << SEAT_SEATS_SHIFT);
  pool_wake(pool, worker_seats, take_part ? stand_in : POOL_NONE);
  if (take_part) {
    pool_tls_worker = me;
    job_work(pool, job_home_range(pool, 0, stand_in), me);
    pool_tls_worker = NULL;
  }
  pool_wait_done(pool);
  pthread_mutex_unlock(&pool->run_lock);
}

/* ---- create / destroy ---- */

unsigned sched_pool_size(const sched_pool *pool)
{
  return pool ? pool->nworkers : 0;
}

unsigned sched_pool_slots(const sched_pool *pool)
{
  return pool ? pool->nworkers + 1 : 0;
}

/* Stops and joins the first n workers, frees everything. */
static void pool_free(sched_pool *pool, unsigned started)
{
  atomic_store(&pool->shutdown, 1);
  for (unsigned i = 0; i < started; i++) {
    uint32_t s = W_SLEEP;
    if (atomic_compare_exchange_strong(&pool->workers[i].state, &s, W_WAKE))
      pool_futex_wake(&pool->workers[i].state, 1);
  }
  for (unsigned i = 0; i < started; i++)
    pthread_join(pool->workers[i].thread, NULL);
  for (unsigned i = 0; i <= pool->nworkers; i++)
    worker_free_arenas(&pool->workers[i]);
  pthread_mutex_destroy(&pool->run_lock);
  free(pool->ranges);
  free(pool->core_worker);
  free(pool->workers);
  if (pool->float_set)
    CPU_FREE(pool->float_set);
  free(pool);
}

/* The set of every PU of the cores that have a worker (SMT siblings too). */
static void pool_make_float_set(sched_pool *pool)
{
  int top = -1;
  for (int p = 0; p < POOL_MAX_PU; p++) {
    int core = sched_pu_core(p);
    if (core >= 0 && pool->core_worker[core] >= 0)
      top = p;
  }
  if (top < 0 || !(pool->float_set = CPU_ALLOC((size_t)top + 1)))
    return;
  pool->float_size = CPU_ALLOC_SIZE((size_t)top + 1);
  CPU_ZERO_S(pool->float_size, pool->float_set);
  for (int p = 0; p <= top; p++) {
    int core = sched_pu_core(p);
    if (core >= 0 && pool->core_worker[core] >= 0)
      CPU_SET_S((size_t)p, pool->float_size, pool->float_set);
  }
}

sched_pool *sched_pool_create(const sched_config *cfg)
{
  const sched_topology *topo = sched_topology_get();
  sched_config def = {.pin = 1, .spin_us = -1};
  if (!cfg)
    cfg = &def;
  unsigned ncores = cfg->ncores ? cfg->ncores : topo->ncores;
  const int *cores = cfg->ncores ? cfg->cores : NULL;   /* ncores 0: the machine */
  if (ncores > SCHED_MAX_CORES)
    return NULL;
  for (unsigned i = 0; cores && i < ncores; i++)
    if (cores[i] < 0 || (unsigned)cores[i] >= topo->ncores)
      return NULL;
  if (cfg->nthreads > SCHED_MAX_CORES || cfg->spin_us > 1000000)
    return NULL;
  unsigned n = cfg->nthreads ? cfg->nthreads : ncores;
  bool pin = cfg->pin;
  unsigned long spin_us = cfg->spin_us < 0 ? SCHED_DEFAULT_SPIN_US : (unsigned long)cfg->spin_us;

  sched_pool *pool = aligned_alloc(POOL_LINE, (sizeof(sched_pool) + POOL_LINE - 1) & ~(size_t)(POOL_LINE - 1));
  if (!pool)
    return NULL;
  memset(pool, 0, sizeof(*pool));
  pool->nworkers = n;
  pool->spin_ns = (uint64_t)spin_us * 1000;
  pool->ncore_map = topo->ncores;
  atomic_init(&pool->avoid, POOL_NONE);
  pool->workers = aligned_alloc(POOL_LINE, (size_t)(n + 1) * sizeof(sched_worker));
  pool->ranges = aligned_alloc(POOL_LINE, (size_t)n * sizeof(pool_range));
  pool->core_worker = malloc(topo->ncores * sizeof(int));
  if (!pool->workers || !pool->ranges || !pool->core_worker || pthread_mutex_init(&pool->run_lock, NULL)) {
    free(pool->workers);
    free(pool->ranges);
    free(pool->core_worker);
    free(pool);
    return NULL;
  }
  memset(pool->workers, 0, (size_t)(n + 1) * sizeof(sched_worker));
  memset(pool->ranges, 0, (size_t)n * sizeof(pool_range));
  for (unsigned c = 0; c < topo->ncores; c++)
    pool->core_worker[c] = -1;
  for (unsigned i = 0; i <= n; i++) {
    sched_worker *w = &pool->workers[i];
    w->pool = pool;
    w->index = i;
    w->pu = -1;
    atomic_init(&w->state, W_WAKE);
    if (i == n)
      break;                                   /* the caller's slot */
    int core = cores ? cores[i % ncores] : (int)(i % ncores);
    if (pin)
      w->pu = topo->core_pu[core];
    if (pool->core_worker[core] < 0)
      pool->core_worker[core] = (int)i;
  }

  if (!pin)
    pool_make_float_set(pool);

  pthread_attr_t attr;
  unsigned started = 0;
  if (pthread_attr_init(&attr) == 0) {
    pthread_attr_setstacksize(&attr, POOL_STACK_SIZE);
    for (; started < n; started++)
      if (pthread_create(&pool->workers[started].thread, &attr, worker_main, &pool->workers[started]))
        break;
    pthread_attr_destroy(&attr);
  }
  if (started < n) {
    pool_free(pool, started);
    return NULL;
  }
  return pool;
}

/* The pool must be idle: no sched_run in progress or to come. */
void sched_pool_destroy(sched_pool *pool)
{
  if (!pool)
    return;
  pthread_mutex_lock(&pool->run_lock);
  pthread_mutex_unlock(&pool->run_lock);
  pool_free(pool, pool->nworkers);
}

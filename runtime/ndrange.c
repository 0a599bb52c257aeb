/* NDRange commands: the local size chosen for a NULL local_work_size, the
 * command that snapshots a kernel's arguments at enqueue time, and its run:
 * every work-group through the device's worker pool, each worker with its
 * own work-group context, frame, collective buffer and __local blocks.  The
 * groups a worker claims reach the work-group function as runs of
 * consecutive full-size groups along x, one call each
 * (lanecl_wg_ctx.group_count), so small groups cost a loop iteration of
 * the compiled code each, not a call through the runtime. */
#define _GNU_SOURCE 1 /* pthread_getattr_np */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt_program.h"
#include "runtime/rt_queue.h"

#define LOCAL_ALIGN 128u /* __local arguments: long16/double16 need 128 (the arena is aligned so) */
#define VALUES_ALIGN 128u
#define STACK_RESERVE (256u << 10) /* a worker's stack beyond private variables: runtime, builtins, spills */
#define FRAME_TARGET (256u << 10) /* bytes of frame a chosen local size aims at */
/* Groups per core a chosen local size aims at: enough that a core slowed
 * down by something else (another process, a lower clock) leaves groups for
 * the others to steal.  nbody (8192 items) on a 16-core machine at 16
 * threads: local 128 (4 per core) 3.4-3.7 ms, 64 (8 per core) 2.6-3.0 ms,
 * 32: 2.8-3.1 ms (bench/results/scaling-2026-11-22-s5.md). */
#define GROUPS_PER_CORE 8

/* ---------------------------------------------------------------------------
 * Local size for a NULL local_work_size
 * ------------------------------------------------------------------------- */

/* The largest divisor of g that is <= cap and a multiple of m (0 if none). */
static size_t divisor_multiple(size_t g, size_t cap, size_t m)
{
  for (size_t d = cap / m * m; d >= m; d -= m)
    if (g % d == 0)
      return d;
  return 0;
}

/* The largest divisor of g that is <= cap (at least 1). */
static size_t divisor_at_most(size_t g, size_t cap)
{
  for (size_t d = cap < g ? cap : g; d > 1; d--)
    if (g % d == 0)
      return d;
  return 1;
}

/* Local size for a NULL local_work_size: the required work-group size when
 * the kernel has one; else divides the global size when uniform groups are
 * required, vectorizes (x a multiple of the SIMD width where possible) and
 * gives every core work.  icd/ checked that a required size fits. */
static void pick_local(cl_kernel k, cl_device_id dev, cl_uint work_dim, const size_t *global, size_t *local)
{
  const uint64_t *reqd = k->info->reqd_work_group_size;
  for (cl_uint d = 0; d < 3; d++)
    local[d] = 1;
  if (reqd[0] && reqd[1] && reqd[2]) {
    for (cl_uint d = 0; d < work_dim; d++)
      local[d] = (size_t)reqd[d];
    return;
  }
  size_t lanes = dev->simd_bits >= 64 ? dev->simd_bits / 32 : 1;
  size_t maxwg = rt_kernel_max_work_group_size(k, dev);
  bool nonuniform = rt_kernel_nonuniform_ok(k, dev);
  size_t total = 1;
  for (cl_uint d = 0; d < work_dim; d++)
    total *= global[d];
  /* Aim at about GROUPS_PER_CORE groups per core, and at least one SIMD
   * width of work-items per group. */
  size_t cores = dev->compute_units ? dev->compute_units : 1;
  size_t target = total / (cores * GROUPS_PER_CORE);
  /* A group's frame (values live across barriers) should stay cache-sized. */
  uint64_t frame = k->info->frame_bytes;
  if (frame && target > FRAME_TARGET / frame)
    target = (size_t)(FRAME_TARGET / frame);
  if (target < lanes)
    target = lanes;
  if (target > maxwg)
    target = maxwg;

  /* x: a multiple of the SIMD width dividing global[0]; else, where groups
   * may be non-uniform, the SIMD multiple itself; else any divisor. */
  size_t g0 = global[0], x = 0;
  size_t cap = target < g0 ? target : g0;
  if (cap >= lanes)
    x = divisor_multiple(g0, cap, lanes);
  if (!x && nonuniform && g0 >= lanes)
    x = cap / lanes * lanes;
  if (!x)
    x = divisor_at_most(g0, cap);
  local[0] = x;
  /* y, z: fill the rest of the target with divisors. */
  size_t used = x;
  for (cl_uint d = 1; d < work_dim; d++) {
    size_t room = target / used;
    local[d] = room > 1 ? divisor_at_most(global[d], room) : 1;
    used *= local[d];
  }
}

/* ---------------------------------------------------------------------------
 * Streaming stores (compiler/cc_stream.c)
 * ------------------------------------------------------------------------- */

/* LANECL_STREAM_STORES: 0 never, 1 always (tests), auto (default): when
 * the launch writes more than the last-level cache holds. */
enum { STREAM_AUTO = -1, STREAM_OFF = 0, STREAM_ON = 1 };
static int stream_env = STREAM_AUTO;
static pthread_once_t stream_env_once = PTHREAD_ONCE_INIT;

static void stream_env_read(void)
{
  const char *v = lc_config_str(LC_STREAM_STORES); /* 0, 1 or auto (a bad value: auto) */
  if (!strcmp(v, "0"))
    stream_env = STREAM_OFF;
  else if (!strcmp(v, "1"))
    stream_env = STREAM_ON;
}

/* Whether a launch of nwi work-items of a kernel whose wide __global stores
 * write info->stream_bytes per work-item streams them.  A regular store to
 * a line not in cache reads the line first; a streaming store skips that
 * read but leaves the data out of cache.  So stream only an output larger
 * than the last-level cache, which would not be in cache for the next
 * command anyway; a smaller one (a result read back, the input of the next
 * kernel) stays cached. */
static bool stream_decide(const cc_kernel_info *info, cl_device_id dev, uint64_t nwi)
{
  pthread_once(&stream_env_once, stream_env_read);
  if (!info->stream_bytes || stream_env == STREAM_OFF)
    return false;
  if (stream_env == STREAM_ON)
    return true;
  uint64_t bytes = nwi > UINT64_MAX / info->stream_bytes ? UINT64_MAX : nwi * info->stream_bytes;
  return dev->cache_size && bytes > dev->cache_size;
}

/* ---------------------------------------------------------------------------
 * The command
 * ------------------------------------------------------------------------- */
typedef struct ndr_cmd {
  rt_command cmd;                /* this block is the command (rt_command_init) */
  cl_kernel kernel;              /* retained */
  cl_device_id dev;
  lanecl_wg_fn fn;
  const cc_kernel_info *info;
  uint32_t work_dim;
  bool empty;                    /* a zero global size: nothing runs */
  uint64_t global[3], offset[3], local[3], groups[3];
  uint64_t last_local[3];        /* the size of the last group (smaller where non-uniform) */
  uint64_t full_x;               /* groups of full size in x */
  lanecl_wg_ctx ctx;             /* what every group's context shares */
  unsigned char *values;         /* the arguments as set at enqueue time */
  void **argp;                   /* per argument: its value in values */
  cl_mem *mems;                  /* per argument: the buffer, retained (NULL elsewhere) */
  uint64_t *local_off;           /* per __local argument: its offset in the group's block */
  uint64_t local_bytes;          /* the group's __local block */
  size_t frame_bytes;            /* the group's frame */
  size_t coll_bytes;
  size_t stack_need;             /* stack bytes a group may use (its private variables) */
  _Atomic cl_int status;         /* the first failure of a group */
} ndr_cmd;

static void ndr_destroy(rt_command *cmd)
{
  ndr_cmd *c = cmd->payload;
  for (uint32_t i = 0; i < c->info->nargs; i++)
    if (c->mems[i])
      rt_mem_release(c->mems[i]);
  rt_kernel_release(c->kernel);
  free(c);
}

static void ndr_fail(ndr_cmd *c, cl_int err)
{
  cl_int expected = CL_SUCCESS;
  atomic_compare_exchange_strong(&c->status, &expected, err);
}

/* The running thread's stack, [*lo, *hi): where its private variables are
 * (to_private).  Read once per thread; empty if the system won't say. */
static void thread_stack(const void **lo, const void **hi)
{
  /* initial-exec, as scheduler/pool.c's: the driver imports no __tls_get_addr */
  static _Thread_local const char *s_lo __attribute__((tls_model("initial-exec")));
  static _Thread_local const char *s_hi __attribute__((tls_model("initial-exec")));
  static _Thread_local bool known __attribute__((tls_model("initial-exec")));
  if (!known) {
    pthread_attr_t a;
    void *addr = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
      if (pthread_attr_getstack(&a, &addr, &size) != 0)
        addr = NULL, size = 0;
      pthread_attr_destroy(&a);
    }
    if (!addr)
      rt_err("to_private: the stack of this thread is not known; private pointers read as global");
    s_lo = addr;
    s_hi = addr ? (const char *)addr + size : NULL;
    known = true;
  }
  *lo = s_lo;
  *hi = s_hi;
}

/* Runs the count groups gid, gid + (1, 0, 0), ... of one row of x.  The
 * full-size ones go to the work-group function in one call (group_count;
 * the compiled function takes the local size once per call, so a smaller
 * group of a non-uniform NDRange runs in a call of its own). */
static void run_span(void *data, const uint64_t gid[3], uint64_t count, sched_worker *w)
{
  ndr_cmd *c = data;
  lanecl_wg_ctx ctx = c->ctx;
  bool rest_full = true;   /* y and z full-size */
  for (int d = 1; d < 3; d++) {
    ctx.group_id[d] = gid[d];
    if (gid[d] == c->groups[d] - 1 && c->last_local[d] != c->local[d]) {
      ctx.local_size[d] = c->last_local[d];
      rest_full = false;
    }
  }
  if (c->frame_bytes && !(ctx.frame = sched_worker_arena(w, SCHED_ARENA_FRAME, c->frame_bytes)))
    goto oom;
  ctx.frame_size = ctx.frame ? c->frame_bytes : 0;
  thread_stack(&ctx.stack_lo, &ctx.stack_hi);
  if (!(ctx.coll_buf = sched_worker_arena(w, SCHED_ARENA_COLL, c->coll_bytes)))
    goto oom;
  if (c->local_bytes) {
    uint32_t nargs = c->info->nargs;
    void **la = sched_worker_arena(w, SCHED_ARENA_SCRATCH, nargs * sizeof(void *));
    unsigned char *block = sched_worker_arena(w, SCHED_ARENA_LOCAL, c->local_bytes);
    if (!la || !block)
      goto oom;
    for (uint32_t i = 0; i < nargs; i++)
      la[i] = c->info->args[i].kind == CC_ARG_LOCAL ? block + c->local_off[i] : NULL;
    ctx.local_args = la;
    ctx.local_lo = block;
    ctx.local_hi = block + c->local_bytes;
  }
  uint64_t x = gid[0], end = gid[0] + count;
  /* Groups [x, full_end) are full-size in x. */
  uint64_t full_end = end < c->full_x ? end : c->full_x;
  if (rest_full && x < full_end) {
    ctx.group_id[0] = x;
    ctx.group_count = full_end - x;
    c->fn(c->argp, &ctx);
    x = full_end;
  }
  /* One by one: a row whose y or z size is smaller, and the smaller last
   * group in x. */
  ctx.group_count = 1;
  for (; x < end; x++) {
    ctx.group_id[0] = x;
    ctx.local_size[0] = x < c->full_x ? c->local[0] : c->last_local[0];
    c->fn(c->argp, &ctx);
  }
  return;
oom:
  ndr_fail(c, CL_OUT_OF_RESOURCES);
}

/* Whether c's buffer arguments are pairwise disjoint memory
 * (LANECL_WG_DISJOINT): no two of them overlap (the same buffer twice, a
 * sub-buffer and its parent, sub-buffers that share bytes do) and none is an
 * SVM pointer, whose allocation the launch doesn't know.  NULL arguments
 * don't count.  A kernel keeps its accesses inside each argument's buffer
 * (beyond it is undefined), so accesses through two disjoint arguments
 * never meet. */
static bool args_disjoint(const ndr_cmd *c)
{
  for (uint32_t i = 0; i < c->info->nargs; i++) {
    if (c->info->args[i].kind != CC_ARG_BUFFER)
      continue;
    if (!c->mems[i]) {
      if (*(void *const *)c->argp[i])
        return false; /* an SVM pointer */
      continue;
    }
    uintptr_t lo = (uintptr_t)rt_mem_ptr(c->mems[i]), hi = lo + rt_mem_size(c->mems[i]);
    for (uint32_t j = 0; j < i; j++) {
      if (c->info->args[j].kind != CC_ARG_BUFFER || !c->mems[j])
        continue;
      uintptr_t lo2 = (uintptr_t)rt_mem_ptr(c->mems[j]), hi2 = lo2 + rt_mem_size(c->mems[j]);
      if (lo < hi2 && lo2 < hi)
        return false;
    }
  }
  return true;
}

static cl_int ndr_run(rt_command *cmd)
{
  ndr_cmd *c = cmd->payload;
  if (c->empty)
    return CL_SUCCESS;
  for (uint32_t i = 0; i < c->info->nargs; i++) {
    if (c->info->args[i].kind == CC_ARG_BUFFER)
      *(void **)c->argp[i] = c->mems[i] ? rt_mem_ptr(c->mems[i]) : NULL;
    else if (c->info->args[i].kind == CC_ARG_IMAGE) /* the image's descriptor (builtins/lanecl_image.h) */
      *(const void **)c->argp[i] = c->mems[i] ? &rt_mem_image(c->mems[i])->dev : NULL;
  }
  if (args_disjoint(c))
    c->ctx.flags |= LANECL_WG_DISJOINT;
  sched_pool *pool = rt_device_pool(c->dev);
  if (!pool) {
    rt_err("clEnqueueNDRangeKernel: the device's worker pool can't be created");
    return CL_OUT_OF_RESOURCES;
  }
  sched_job job = {.num_groups = {c->groups[0], c->groups[1], c->groups[2]}, .run_span = run_span, .data = c,
                   .stack_need = c->stack_need};
  rt_log(RT_LOG_QUEUE, "kernel %s: %llu x %llu x %llu groups of %llu x %llu x %llu, streaming stores %s, "
         "buffer arguments %sdisjoint",
         c->info->name, (unsigned long long)c->groups[0], (unsigned long long)c->groups[1],
         (unsigned long long)c->groups[2], (unsigned long long)c->local[0], (unsigned long long)c->local[1],
         (unsigned long long)c->local[2], c->ctx.flags & LANECL_WG_STREAM ? "on" : "off",
         c->ctx.flags & LANECL_WG_DISJOINT ? "" : "not ");
  sched_run(pool, &job);
  return atomic_load(&c->status);
}

/* Copies k's arguments into c: values, pointers, retained buffers and the
 * layout of the __local block.  k->lock held.  False when the __local
 * arguments need more than the device's local memory (sizes are whatever
 * the application set: the arithmetic is checked). */
static bool snapshot_args(ndr_cmd *c, cl_kernel k)
{
  bool fits = true;
  memcpy(c->values, k->values, k->values_size);
  for (uint32_t i = 0; i < c->info->nargs; i++) {
    const rt_kernel_arg *a = &k->args[i];
    c->argp[i] = c->values + a->offset;
    switch (c->info->args[i].kind) {
    case CC_ARG_BUFFER:
    case CC_ARG_IMAGE:
      c->mems[i] = a->mem;
      if (a->mem)
        rt_mem_retain(a->mem);
      break;
    case CC_ARG_LOCAL: {
      c->local_off[i] = c->local_bytes;
      uint64_t size = a->local_size;
      if (size > c->dev->local_mem_size || c->local_bytes > c->dev->local_mem_size) {
        fits = false;
        break;
      }
      /* Both below the device's local memory (far below 2^63): no wrap. */
      c->local_bytes += (size + LOCAL_ALIGN - 1) / LOCAL_ALIGN * LOCAL_ALIGN;
      break;
    }
    default:
      break;
    }
  }
  return fits && c->local_bytes <= c->dev->local_mem_size + (uint64_t)c->info->nargs * LOCAL_ALIGN;
}

/* One allocation per command: the ndr_cmd, its per-argument arrays and the
 * argument values (VALUES_ALIGN-aligned), zeroed up to the values. */
static ndr_cmd *ndr_alloc(uint32_t nargs, size_t values_size)
{
  size_t head = sizeof(ndr_cmd) + (size_t)nargs * (sizeof(void *) + sizeof(cl_mem) + sizeof(uint64_t));
  head = (head + VALUES_ALIGN - 1) / VALUES_ALIGN * VALUES_ALIGN;
  size_t vsize = (values_size + VALUES_ALIGN - 1) / VALUES_ALIGN * VALUES_ALIGN;
  unsigned char *p = aligned_alloc(VALUES_ALIGN, head + vsize);
  if (!p)
    return NULL;
  memset(p, 0, head);
  ndr_cmd *c = (ndr_cmd *)p;
  c->argp = (void **)(c + 1);
  c->mems = (cl_mem *)(c->argp + nargs);
  c->local_off = (uint64_t *)(c->mems + nargs);
  c->values = p + head;
  return c;
}

cl_int rt_enqueue_ndrange(cl_command_queue q, cl_command_type type, cl_kernel k, cl_uint work_dim,
                          const size_t *offset, const size_t *global, const size_t *local, cl_uint nwait,
                          const cl_event *wait, cl_event *event)
{
  cl_device_id dev = rt_queue_device(q);
  const rt_build *b = rt_program_executable_for(k->program, dev);
  uint32_t ki = rt_build_find_kernel(b, k->info->name);
  size_t picked[3] = {1, 1, 1};
  if (!local) {
    /* global_work_size NULL or a zero size: nothing runs, groups of 1. */
    bool empty = !global;
    for (cl_uint d = 0; global && d < work_dim; d++)
      empty |= global[d] == 0;
    if (!empty)
      pick_local(k, dev, work_dim, global, picked);
    local = picked;
  }
  uint64_t group[3] = {1, 1, 1};
  for (cl_uint d = 0; global && d < work_dim; d++)
    group[d] = local[d];
  lanecl_wg_fn fn;
  cl_int err = rt_kernel_code(k, b, ki, group, &fn);
  if (err != CL_SUCCESS)
    return err;
  ndr_cmd *c = ndr_alloc(b->bin.kernels[ki].nargs, k->values_size);
  if (!c)
    return CL_OUT_OF_HOST_MEMORY;
  rt_command_init(&c->cmd, type, ndr_run, ndr_destroy, c);
  c->kernel = k;
  rt_kernel_retain(k);
  c->dev = dev;
  c->fn = fn;
  c->info = &b->bin.kernels[ki];
  c->work_dim = work_dim;
  atomic_init(&c->status, CL_SUCCESS);
  uint64_t nwi = 1, total = 1;
  for (cl_uint d = 0; d < 3; d++) {
    bool used = d < work_dim;
    c->global[d] = used && global ? global[d] : 1;
    c->offset[d] = used && offset ? offset[d] : 0;
    c->local[d] = used && global ? local[d] : 1;
    c->empty |= used && (!global || !global[d]);
    c->groups[d] = c->local[d] ? (c->global[d] + c->local[d] - 1) / c->local[d] : 1;
    nwi *= c->local[d];
    total *= c->global[d];
  }
  for (int d = 0; d < 3; d++) {
    uint64_t rem = c->local[d] ? c->global[d] % c->local[d] : 0;
    c->last_local[d] = rem ? rem : c->local[d];
    c->ctx.local_size[d] = c->local[d];
    c->ctx.enqueued_local_size[d] = c->local[d];
    c->ctx.num_groups[d] = c->groups[d];
    c->ctx.global_size[d] = c->global[d];
    c->ctx.global_offset[d] = c->offset[d];
  }
  c->ctx.work_dim = work_dim;
  if (stream_decide(c->info, dev, total))
    c->ctx.flags |= LANECL_WG_STREAM;
  c->full_x = c->local[0] ? c->global[0] / c->local[0] : 0;
  uint64_t frame;
  if (__builtin_mul_overflow(c->info->frame_bytes, nwi, &frame) || frame > SIZE_MAX / 2) {
    rt_err("clEnqueueNDRangeKernel: kernel %s: a work-group of %llu work-items needs a frame beyond the "
           "address space", c->info->name, (unsigned long long)nwi);
    rt_command_free(&c->cmd);
    return CL_OUT_OF_RESOURCES;
  }
  c->frame_bytes = (size_t)frame;
  /* Private variables live on the stack of the thread that runs the group:
   * one copy per SIMD lane where the vectorizer widened them.  What a
   * worker's stack can't hold fails here rather than crash there. */
  uint64_t lanes = c->info->simd_width > 1 ? c->info->simd_width : 1, stack;
  if (__builtin_mul_overflow(c->info->private_mem_bytes, lanes, &stack) ||
      stack > sched_worker_stack_size() - STACK_RESERVE) {
    rt_err("clEnqueueNDRangeKernel: kernel %s needs about %llu bytes of private memory per work-item (x %llu "
           "lanes); the threads that run work-groups have %zu bytes of stack",
           c->info->name, (unsigned long long)c->info->private_mem_bytes, (unsigned long long)lanes,
           sched_worker_stack_size() - STACK_RESERVE);
    rt_command_free(&c->cmd);
    return CL_OUT_OF_RESOURCES;
  }
  c->stack_need = (size_t)stack;
  c->coll_bytes = 16 * (dev->max_work_group_size > nwi ? dev->max_work_group_size : nwi);
  pthread_mutex_lock(&k->lock);
  bool fits = snapshot_args(c, k);
  pthread_mutex_unlock(&k->lock);
  if (!fits) {
    /* The check of the enqueue saw sizes that fit: another thread changed
     * them since, or they wrapped there. */
    rt_err("clEnqueueNDRangeKernel: the __local arguments of kernel %s need more than the device's %llu "
           "bytes of local memory", c->info->name, (unsigned long long)dev->local_mem_size);
    rt_command_free(&c->cmd);
    return CL_OUT_OF_RESOURCES;
  }
  return rt_enqueue(q, &c->cmd, nwait, wait, event);
}

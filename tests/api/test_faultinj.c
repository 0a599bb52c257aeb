/* Fault injection: a representative program (build, buffers, kernels,
 * the binary of the built program, enqueues with wait lists on in-order and
 * out-of-order queues, user
 * events, markers, barriers, callbacks, blocking reads) runs once per
 * allocation site of the driver (the first allocation made there; see
 * sweep), in a fresh process each time, with that one
 * allocation failing (tests/api/failalloc.h: the allocations made straight
 * from liblanecl.so's code, and liblanecl_cc.so's when the program is
 * compiled, on any thread).  Every run must end cleanly: each call succeeds
 * or returns an error, the results are right when every call succeeded,
 * nothing crashes or hangs (and, in the ASan build, nothing leaks: each run
 * ends with exit(), LeakSanitizer checks it). */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/api/failalloc.h"
#include "tests/testlib.h"

static const char *prog_src =
    "kernel void scale(global int *a, int f) { a[get_global_id(0)] *= f; }\n"
    "kernel void add(global int *a, global const int *b) { a[get_global_id(0)] += b[get_global_id(0)]; }\n";

enum { N = 64 };

static atomic_int callbacks;
static void CL_CALLBACK on_complete(cl_event e, cl_int st, void *data)
{
  (void)e, (void)st, (void)data;
  atomic_fetch_add(&callbacks, 1);
}

#define STEP(call)                                                         \
  do {                                                                     \
    cl_int step_err_ = (call);                                             \
    if (step_err_ != CL_SUCCESS) {                                         \
      failed = step_err_;                                                  \
      goto cleanup;                                                        \
    }                                                                      \
  } while (0)
#define MAKE(var, call)                                                    \
  do {                                                                     \
    cl_int make_err_ = CL_SUCCESS;                                         \
    var = (call);                                                          \
    if (make_err_ == CL_SUCCESS && !var)                                   \
      make_err_ = CL_OUT_OF_HOST_MEMORY;                                   \
    if (make_err_ != CL_SUCCESS) {                                         \
      failed = make_err_;                                                  \
      goto cleanup;                                                        \
    }                                                                      \
  } while (0)

/* The program; 0 when every call succeeded and the results are right, 1
 * when a call failed (cleanly), 2 when the results are wrong. */
static int representative(cl_context ctx)
{
  cl_int failed = CL_SUCCESS, err;
  cl_command_queue q = NULL, ooo = NULL;
  cl_program p = NULL;
  cl_kernel scale = NULL, add = NULL;
  cl_mem a = NULL, b = NULL;
  cl_event u = NULL, w = NULL, k1 = NULL, k2 = NULL, m = NULL;
  unsigned char *bin = NULL;
  int host_a[N], host_b[N], out[N];
  for (int i = 0; i < N; i++)
    host_a[i] = i, host_b[i] = 1000;
  const cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  const cl_queue_properties op[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_device_id dev = tl_device();
  MAKE(q, clCreateCommandQueueWithProperties(ctx, dev, qp, &make_err_));
  MAKE(ooo, clCreateCommandQueueWithProperties(ctx, dev, op, &make_err_));
  MAKE(p, clCreateProgramWithSource(ctx, 1, &prog_src, NULL, &make_err_));
  STEP(clBuildProgram(p, 0, NULL, "", NULL, NULL));
  /* the binary before any launch: a staged build's copy taken at the first query */
  size_t bin_size = 0;
  STEP(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(bin_size), &bin_size, NULL));
  MAKE(bin, malloc(bin_size ? bin_size : 1));
  STEP(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL));
  MAKE(scale, clCreateKernel(p, "scale", &make_err_));
  MAKE(add, clCreateKernel(p, "add", &make_err_));
  MAKE(a, clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(host_a), NULL, &make_err_));
  MAKE(b, clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(host_b), host_b, &make_err_));
  MAKE(u, clCreateUserEvent(ctx, &make_err_));
  int f = 3;
  STEP(clSetKernelArg(scale, 0, sizeof(a), &a));
  STEP(clSetKernelArg(scale, 1, sizeof(f), &f));
  STEP(clSetKernelArg(add, 0, sizeof(a), &a));
  STEP(clSetKernelArg(add, 1, sizeof(b), &b));
  size_t g = N;
  /* in order: write (after the user event), scale, then on the other queue
   * add after scale, a marker and a barrier there, callbacks. */
  STEP(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, sizeof(host_a), host_a, 1, &u, &w));
  STEP(clEnqueueNDRangeKernel(q, scale, 1, NULL, &g, NULL, 0, NULL, &k1));
  STEP(clSetEventCallback(k1, CL_COMPLETE, on_complete, NULL));
  STEP(clFlush(q));
  STEP(clEnqueueNDRangeKernel(ooo, add, 1, NULL, &g, NULL, 1, &k1, &k2));
  STEP(clEnqueueMarkerWithWaitList(ooo, 0, NULL, &m));
  STEP(clEnqueueBarrierWithWaitList(ooo, 1, &m, NULL));
  STEP(clSetUserEventStatus(u, CL_COMPLETE));
  STEP(clWaitForEvents(1, &m));
  STEP(clEnqueueReadBuffer(ooo, a, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  STEP(clFinish(q));
  STEP(clFinish(ooo));
  /* A marker completes when the commands before it do, failed or not: the
   * kernels' own events say whether they ran. */
  cl_event kernels[2] = {k1, k2};
  STEP(clWaitForEvents(2, kernels));
  for (int i = 0; i < N; i++)
    if (out[i] != i * 3 + 1000)
      return 2;
  cl_ulong t0 = 0, t1 = 0;
  STEP(clGetEventProfilingInfo(k1, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL));
  STEP(clGetEventProfilingInfo(k1, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL));
  if (t1 < t0)
    return 2;
cleanup:
  free(bin);
  /* A failed call leaves the user event unset: set it so everything
   * enqueued drains (an error status: what waited on it fails). */
  if (u && clGetEventInfo(u, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(err), &err, NULL) == CL_SUCCESS &&
      err > CL_COMPLETE)
    clSetUserEventStatus(u, -1);
  if (q)
    clFinish(q);
  if (ooo)
    clFinish(ooo);
  cl_event evs[] = {u, w, k1, k2, m};
  for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
    if (evs[i])
      clReleaseEvent(evs[i]);
  if (a)
    clReleaseMemObject(a);
  if (b)
    clReleaseMemObject(b);
  if (scale)
    clReleaseKernel(scale);
  if (add)
    clReleaseKernel(add);
  if (p)
    clReleaseProgram(p);
  if (ooo)
    clReleaseCommandQueue(ooo);
  if (q)
    clReleaseCommandQueue(q);
  return failed != CL_SUCCESS;
}

static int find_driver(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
  if (!slash || strcmp(slash, "/liblanecl.so") != 0)
    return 0;
  snprintf(data, PATH_MAX, "%.*s/liblanecl_cc.so", (int)(slash - info->dlpi_name), info->dlpi_name);
  return 1;
}

/* dlopen of the path the driver loads its compiler from (the same object
 * then: the driver's own dlopen finds it loaded). */
static bool load_compiler_beside_driver(void)
{
  char path[PATH_MAX];
  return dl_iterate_phdr(find_driver, path) && dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

/* One run in a child: fail the n-th watched allocation (0: none).  The
 * child writes how many watched allocations it saw to *seen; with n = 0 and
 * sites, also the site of each (fa_global_site), at most FA_MAX_SITES. */
static int run_child_sites(long n, bool compile, long *seen, int *outcome, uint64_t *sites)
{
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    alarm(30);
    if (compile)
      setenv("LANECL_CACHE_DIR", "off", 1);
    cl_context ctx = tl_context();
    if (!fa_watch_object("liblanecl.so"))
      _exit(90);
    /* The compiler loaded (as the driver would load it, from beside the
     * driver) and watched too: its first build's set-up is in the sweep. */
    if (compile && (!load_compiler_beside_driver() || !fa_watch_object("liblanecl_cc.so")))
      _exit(91);
    fa_global_arm(n);
    int r = representative(ctx);
    long count = fa_global_count();
    fa_global_arm(-1);
    clReleaseContext(ctx);
    if (write(fds[1], &count, sizeof(count)) != sizeof(count))
      _exit(92);
    for (long i = 1; sites && i <= count && i <= FA_MAX_SITES; i++) {
      uint64_t site = fa_global_site(i);
      if (write(fds[1], &site, sizeof(site)) != sizeof(site))
        _exit(92);
    }
    int code = r == 2 ? 2 : 10 + r;
    exit(code); /* exit(): LeakSanitizer runs in the ASan build */
  }
  close(fds[1]);
  long count = -1;
  ssize_t got = read(fds[0], &count, sizeof(count));
  for (long i = 0; sites && got == sizeof(count) && i < count && i < FA_MAX_SITES; i++) {
    size_t have = 0;
    while (have < sizeof(sites[i])) {
      ssize_t r = read(fds[0], (char *)&sites[i] + have, sizeof(sites[i]) - have);
      if (r <= 0)
        break;
      have += (size_t)r;
    }
    if (have != sizeof(sites[i]))
      got = -1;
  }
  close(fds[0]);
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  *seen = got == sizeof(count) ? count : -1;
  if (WIFSIGNALED(st)) {
    *outcome = -WTERMSIG(st);
    return 0;
  }
  *outcome = WEXITSTATUS(st);
  return WEXITSTATUS(st) == 10 || WEXITSTATUS(st) == 11;
}

static int run_child(long n, bool compile, long *seen, int *outcome)
{
  return run_child_sites(n, compile, seen, outcome, NULL);
}

/* The positions to fail: each allocation site's first per_site occurrences
 * (a site: the allocation's caller and the three callers above it, so the
 * sites of an allocating helper are told apart by who called it).  The
 * later occurrences of a site, in the loops of the driver and the compiler,
 * take the same error paths with more of the same state to unwind.
 * LANECL_TEST_FI_PER_SITE=k sets per_site (default 1; 0: every position);
 * LANECL_TEST_FI_STRIDE=k instead fails every k-th position (the sanitizer
 * build: 5, its leak checks on positions of every kind). */
static void sweep(bool compile)
{
  static uint64_t sites[FA_MAX_SITES];
  long total = 0;
  int outcome = 0;
  fa_site_prime();
  ASSERT_TRUE(run_child_sites(0, compile, &total, &outcome, sites));
  ASSERT_EQ(outcome, 10); /* no failure: every call succeeds, results right */
  ASSERT_TRUE(total > 10);
  ASSERT_TRUE(total <= FA_MAX_SITES);
  const char *per_site_env = getenv("LANECL_TEST_FI_PER_SITE");
  const char *stride_env = getenv("LANECL_TEST_FI_STRIDE");
  long per_site = per_site_env ? atol(per_site_env) : 1;
  long stride = stride_env ? atol(stride_env) : 0;
  int clean_errors = 0, completed = 0, bad = 0, tried = 0, distinct = 0;
  for (long n = 1; n <= total; n++) {
    long before = 0;
    for (long i = 1; i < n; i++)
      before += sites[i - 1] == sites[n - 1];
    distinct += before == 0;
    if (stride > 0 ? (n - 1) % stride != 0 : per_site > 0 && before >= per_site)
      continue;
    long seen = 0;
    tried++;
    if (run_child(n, compile, &seen, &outcome)) {
      outcome == 10 ? completed++ : clean_errors++;
    } else {
      bad++;
      printf("allocation %ld of %ld: %s %d\n", n, total, outcome < 0 ? "killed by signal" : "exit code",
             outcome < 0 ? -outcome : outcome);
    }
  }
  printf("%s: %ld allocation positions at %d sites, %d failed in turn (", compile ? "compiled program" : "cached program",
         total, distinct, tried);
  printf(stride > 0 ? "one position in %ld" : "the first %ld of each site", stride > 0 ? stride : per_site);
  printf("): %d clean errors, %d completed correctly, %d bad\n", clean_errors, completed, bad);
  ASSERT_EQ(bad, 0);
}

/* The driver and its compiler loaded (relocated) once, here, before the
 * children are forked: each child's own dlopen of them through the ICD
 * loader then finds them loaded.  Only the dynamic linker's work is shared:
 * no OpenCL call is made here, so every allocation of the driver and of the
 * compiler's first build is still the child's own. */
static void preload_driver_and_compiler(void)
{
  const char *dir = getenv("LANECL_BUILD_DIR");
  char path[PATH_MAX];
  if (!dir)
    return;
  snprintf(path, sizeof(path), "%s/liblanecl.so", dir);
  if (!dlopen(path, RTLD_NOW | RTLD_LOCAL))
    return;
  snprintf(path, sizeof(path), "%s/liblanecl_cc.so", dir);
  (void)dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

TEST(every_runtime_allocation_failed_in_turn)
{
  preload_driver_and_compiler();
  /* The program's entry in the cache first: the sweep's runs load it. */
  long seen;
  int outcome;
  ASSERT_TRUE(run_child(0, false, &seen, &outcome));
  sweep(false);
}

TEST(every_compiler_allocation_failed_in_turn)
{
  preload_driver_and_compiler();
  sweep(true);
}

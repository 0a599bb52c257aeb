/* lanecl-wgdirect: the collective scan's work-group function alone, on one
 * core, on data that stays in cache: no queue, no pool, no launch.
 *
 *   lanecl-wgdirect [--items N] [--sweeps S] [--span G] [--check scan|reduce|bcast3]
 *                   prog.bin kernel L...
 *
 * prog.bin is an executable program binary (lanecl-cc -o, or
 * lanecl-scaling --save-binary) whose kernel is
 *     kernel(__global const int *in, __global int *out)
 * computing out[i] = work_group_scan_inclusive_add(in[i]) (--check scan, the
 * default), work_group_reduce_add(in[i]) (reduce) or
 * work_group_broadcast(in[i], 3) (bcast3).  For each local
 * size L the tool calls the kernel's work-group function (the ABI of
 * compiler/lanecl_cc.h) over N ints (default 64K: 512 KB in and out, an L2
 * of 1 MB or more holds them), in calls of G full groups (group_count, as the
 * runtime's spans run them; default 4096 items' worth), S sweeps (default
 * 300), checks the result against C, and prints the best and the median
 * sweep as G elements/s.  Pin it with taskset for a per-core figure.
 *
 * It measures what the runtime adds nothing to: the inner loop of the scan.
 * The runtime's own figure comes from lanecl-scaling --scan (scan64Kper) and
 * lanecl-bench's collective rows. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "compiler/lanecl_cc.h"

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void *read_file(const char *path, size_t *size)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  void *d = n > 0 ? malloc((size_t)n) : NULL;
  if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
    free(d);
    d = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return d;
}

/* The native module of bin, loaded through a memfd (*fd: close it after
 * dlclose; -1 when none was opened). */
static void *load_native(const cc_binary *bin, int *fd)
{
  *fd = memfd_create("lanecl-wgdirect", MFD_CLOEXEC);
  if (*fd < 0 || write(*fd, bin->native.data, bin->native.size) != (ssize_t)bin->native.size)
    return NULL;
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/fd/%d", *fd);
  return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

static int usage(void)
{
  fprintf(stderr, "usage: lanecl-wgdirect [--items N] [--sweeps S] [--span G] [--check scan|reduce|bcast3] "
                  "prog.bin kernel L...\n");
  return 2;
}

/* A whole positive number (at most max), or 0. */
static size_t count_arg(const char *s, size_t max)
{
  char *end;
  unsigned long long v = strtoull(s, &end, 0);
  return *s && *s != '-' && !*end && v <= max ? (size_t)v : 0;
}

#define MAX_LOCAL 4096 /* the device maximum: coll and the frame below are sized for it */

/* Runs local size l; 0 when the results are right, 1 when not. */
static int run_local(lanecl_wg_fn fn, size_t l, size_t n, size_t span_items, int sweeps, int kind, int *in,
                     int *out, void *frame, void *coll, double *t)
{
  size_t groups = n / l, per = span_items / l ? span_items / l : 1;
  void *a0 = in, *a1 = out;
  void *args[2] = {&a0, &a1};
  lanecl_wg_ctx c;
  memset(&c, 0, sizeof(c));
  for (int d = 0; d < 3; d++)
    c.local_size[d] = c.enqueued_local_size[d] = c.num_groups[d] = c.global_size[d] = 1;
  c.local_size[0] = c.enqueued_local_size[0] = l;
  c.num_groups[0] = groups;
  c.global_size[0] = n;
  c.work_dim = 1;
  c.frame = frame;
  c.coll_buf = coll;
  memset(out, 0, n * 4);
  for (int s = -10; s < sweeps; s++) { /* 10 warm-up sweeps */
    double t0 = now();
    for (size_t g = 0; g < groups; g += per) {
      c.group_id[0] = g;
      c.group_count = groups - g < per ? groups - g : per;
      fn((void *const *)args, &c);
    }
    if (s >= 0)
      t[s] = now() - t0;
  }
  size_t bad = 0;
  for (size_t g = 0; g < n; g += l) {
    unsigned acc = 0, sum = 0;
    for (size_t k = g; k < g + l; k++)
      sum += (unsigned)in[k];
    for (size_t k = g; k < g + l; k++) {
      acc += (unsigned)in[k];
      int want = kind == 0 ? (int)acc : kind == 1 ? (int)sum : in[g + 3];
      bad += out[k] != want;
    }
  }
  qsort(t, (size_t)sweeps, sizeof(double), cmp_double);
  printf("local=%zu best_us=%.2f median_us=%.2f best_Gelem_s=%.2f median_Gelem_s=%.2f verify=%s\n", l, t[0] * 1e6,
         t[sweeps / 2] * 1e6, (double)n / t[0] * 1e-9, (double)n / t[sweeps / 2] * 1e-9, bad ? "WRONG" : "ok");
  return bad != 0;
}

int main(int argc, char **argv)
{
  size_t n = 64 * 1024, span_items = 4096, sweeps = 300;
  int i = 1;
  const char *check = "scan";
  for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
    if (!strcmp(argv[i], "--items"))
      n = count_arg(argv[i + 1], (size_t)1 << 30);
    else if (!strcmp(argv[i], "--sweeps"))
      sweeps = count_arg(argv[i + 1], 1000000);
    else if (!strcmp(argv[i], "--span"))
      span_items = count_arg(argv[i + 1], (size_t)1 << 30);
    else if (!strcmp(argv[i], "--check"))
      check = argv[i + 1];
    else
      return usage();
  }
  int kind = !strcmp(check, "scan") ? 0 : !strcmp(check, "reduce") ? 1 : !strcmp(check, "bcast3") ? 2 : -1;
  if (argc - i < 3 || !n || !sweeps || !span_items || kind < 0)
    return usage();
  /* Every local size is checked before anything runs. */
  for (int a = i + 2; a < argc; a++) {
    size_t l = count_arg(argv[a], MAX_LOCAL);
    if (!l || n % l || (kind == 2 && l <= 3)) {
      fprintf(stderr, "local size %s: not 1 to %d, or doesn't divide %zu (bcast3: more than 3)\n", argv[a],
              MAX_LOCAL, n);
      return 2;
    }
  }
  size_t size = 0;
  void *data = read_file(argv[i], &size);
  cc_binary bin;
  memset(&bin, 0, sizeof(bin));
  if (!data || cc_binary_read(data, size, &bin) != CC_OK || bin.kind != CC_BIN_EXECUTABLE) {
    fprintf(stderr, "%s: not an executable LaneCL program binary\n", argv[i]);
    cc_binary_free(&bin);
    free(data);
    return 1;
  }
  int fd;
  void *h = load_native(&bin, &fd);
  char sym[160];
  snprintf(sym, sizeof(sym), "__lanecl_wg_%.120s", argv[i + 1]);
  lanecl_wg_fn fn = h ? (lanecl_wg_fn)dlsym(h, sym) : NULL;
  int rc = 1;
  int *in = NULL, *out = NULL;
  void *frame = NULL, *coll = NULL;
  double *t = NULL;
  if (!fn) {
    fprintf(stderr, "%s: no work-group function %s (%s)\n", argv[i], sym, h ? "" : dlerror());
    goto done;
  }
  in = aligned_alloc(64, (n * 4 + 63) & ~(size_t)63);
  out = aligned_alloc(64, (n * 4 + 63) & ~(size_t)63);
  frame = aligned_alloc(64, 1 << 22);
  coll = aligned_alloc(64, 16 * 2 * MAX_LOCAL);
  t = malloc(sweeps * sizeof(double));
  if (!in || !out || !frame || !coll || !t) {
    fprintf(stderr, "out of memory\n");
    goto done;
  }
  for (size_t k = 0; k < n; k++)
    in[k] = (int)(k * 2654435761u % 1000) - 500;
  printf("# %zu ints per sweep, %zu sweeps, calls of %zu items\n", n, sweeps, span_items);
  rc = 0;
  for (int a = i + 2; a < argc; a++)
    rc |= run_local(fn, count_arg(argv[a], MAX_LOCAL), n, span_items, (int)sweeps, kind, in, out, frame, coll, t);
done:
  free(t);
  free(in);
  free(out);
  free(frame);
  free(coll);
  if (h)
    dlclose(h);
  if (fd >= 0)
    close(fd);
  cc_binary_free(&bin);
  free(data);
  return rc;
}

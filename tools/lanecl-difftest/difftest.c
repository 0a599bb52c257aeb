/* lanecl-difftest: random kernels run on several OpenCL implementations.
 *
 *   lanecl-difftest gen SEED [SIZE]            print the program of SEED
 *   lanecl-difftest gen-dir DIR FIRST COUNT [SIZE]
 *                                              write DIR/pSEED.cl for COUNT seeds
 *   lanecl-difftest run [--full] [--emulate-wg] [--no-switch] [--options OPTS] [-o DIR] FILE.cl...
 *        run each program on the first device of the first platform the
 *        ICD loader offers (choose it with OCL_ICD_VENDORS) and print its
 *        results, or write them to DIR/NAME.out (one file per program,
 *        written as soon as it ran, so a crash leaves the earlier ones);
 *        --emulate-wg builds with -DDIFFTEST_EMULATE_WG: the programs then
 *        use work-group functions of their own (__local memory, barriers)
 *        in place of OpenCL 2.0's, for implementations without them;
 *        --no-switch builds with -DDIFFTEST_NO_SWITCH: chains of ifs in
 *        place of switch statements (Oclgrind 21.10 runs some switches
 *        whose cases fall through wrongly)
 *   lanecl-difftest check [--emulate-wg] [--no-switch] [--options OPTS] FILE.cl...
 *        run each program and compare its results with FILE.ref next to
 *        it; exit status 1 when one differs
 *
 * A program's header says how to run it:
 *   //@ options OPTS...                 build options
 *   //@ native-options OPTS...          build options unless --emulate-wg
 *   //@ args STRIDE N P0 P1             the scalar arguments
 *   //@ cfg DIMS GX GY LX LY            one NDRange (several lines: several runs)
 * The kernel is k(out, in, cnt, scratch, ostride, stride, n, p0, p1): out
 * has DIFFTEST_NOUT uints per work-item, in DIFFTEST_NIN uints of a fixed
 * pattern, cnt DIFFTEST_NCNT atomic counters, scratch one uint per
 * work-item.  The results of a run: per config a line with a 64-bit FNV-1a
 * digest of each output slot over all work-items and one of the counters
 * (--full: every value). */
#include "difftest.h"

#include <CL/cl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
  int dims;
  unsigned gx, gy, lx, ly;
} config;

typedef struct {
  char options[600], native_options[600];
  unsigned args[4];
  config cfg[8];
  int ncfg;
} header;

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue queue;

static void fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "lanecl-difftest: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(2);
}

static char *read_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n)
    n = 0;
  s[n] = 0;
  fclose(f);
  return s;
}

static void parse_header(const char *src, header *h, const char *path)
{
  memset(h, 0, sizeof(*h));
  for (const char *p = src; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
    if (strncmp(p, "//@ ", 4))
      continue;
    p += 4;
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char ln[600];
    if (len >= sizeof(ln))
      fail("%s: header line too long", path);
    memcpy(ln, p, len);
    ln[len] = 0;
    if (!strncmp(ln, "options ", 8)) {
      snprintf(h->options, sizeof(h->options), "%s", ln + 8);
    } else if (!strncmp(ln, "native-options ", 15)) {
      snprintf(h->native_options, sizeof(h->native_options), "%s", ln + 15);
    } else if (!strncmp(ln, "args ", 5)) {
      if (sscanf(ln + 5, "%u %u %u %u", &h->args[0], &h->args[1], &h->args[2], &h->args[3]) != 4)
        fail("%s: bad args line", path);
    } else if (!strncmp(ln, "cfg ", 4)) {
      config *c = &h->cfg[h->ncfg];
      if (h->ncfg == 8 || sscanf(ln + 4, "%d %u %u %u %u", &c->dims, &c->gx, &c->gy, &c->lx, &c->ly) != 5 ||
          c->dims < 1 || c->dims > 2 || !c->lx || !c->ly || c->gx % c->lx || c->gy % c->ly ||
          c->lx * c->ly > DIFFTEST_MAX_GROUP)
        fail("%s: bad cfg line", path);
      h->ncfg++;
    }
  }
  if (!h->ncfg)
    fail("%s: no cfg line", path);
}

static uint32_t in_value(uint32_t i)
{
  if (i % 5 == 0)
    return i & 63; /* small values too, for loops and gathers */
  uint32_t x = i * 0x9e3779b9u + 0x7f4a7c15u;
  x ^= x >> 16;
  x *= 0x21f0aaadu;
  x ^= x >> 15;
  x *= 0x735a2d97u;
  x ^= x >> 15;
  return x;
}

static uint64_t fnv(uint64_t h, uint32_t v)
{
  for (int i = 0; i < 4; i++) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= 0x100000001b3ull;
  }
  return h;
}

static void setup(void)
{
  cl_platform_id plat;
  cl_uint n = 0;
  if (clGetPlatformIDs(1, &plat, &n) != CL_SUCCESS || !n)
    fail("no OpenCL platform (set OCL_ICD_VENDORS)");
  if (clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
    fail("no device");
  cl_int err;
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (err)
    fail("clCreateContext: %d", err);
  queue = clCreateCommandQueue(ctx, dev, 0, &err);
  if (err)
    fail("clCreateCommandQueue: %d", err);
}

typedef struct {
  char *s;
  size_t len, cap;
} sbuf;

static void sb(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb(sbuf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (b->len + (size_t)n + 1 > b->cap) {
    b->cap = (b->len + (size_t)n + 1) * 2;
    b->s = realloc(b->s, b->cap);
  }
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

/* Runs the program; its results as text (malloc'd). */
static char *run_program(const char *path, const char *extra_options, bool full, bool emulate, bool no_switch)
{
  sbuf r = {0};
  char *src = read_file(path);
  if (!src)
    fail("cannot read %s", path);
  header h;
  parse_header(src, &h, path);
  char opts[2000];
  snprintf(opts, sizeof(opts), "%s %s %s %s", h.options, emulate ? "-DDIFFTEST_EMULATE_WG" : h.native_options,
           no_switch ? "-DDIFFTEST_NO_SWITCH" : "", extra_options ? extra_options : "");
  cl_int err;
  const char *srcs[] = {src};
  cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, NULL, &err);
  if (err)
    fail("clCreateProgramWithSource: %d", err);
  err = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
  if (err) {
    size_t n = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(1, n + 1);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    fprintf(stderr, "%s: build failed (%d):\n%s\n", path, err, log);
    sb(&r, "build error %d\n", err);
    free(log);
    clReleaseProgram(prog);
    free(src);
    return r.s;
  }
  cl_kernel k = clCreateKernel(prog, "k", &err);
  if (err)
    fail("%s: clCreateKernel: %d", path, err);
  static uint32_t in[DIFFTEST_NIN];
  for (uint32_t i = 0; i < DIFFTEST_NIN; i++)
    in[i] = in_value(i);
  for (int c = 0; c < h.ncfg; c++) {
    const config *cf = &h.cfg[c];
    size_t nwi = (size_t)cf->gx * cf->gy;
    size_t nout = nwi * DIFFTEST_NOUT;
    uint32_t *outv = calloc(nout, 4), *scratch = calloc(nwi, 4), cnt[DIFFTEST_NCNT];
    for (uint32_t i = 0; i < DIFFTEST_NCNT; i++)
      cnt[i] = i == 14 ? 0 : in_value(1000 + i);
    cl_mem b_out = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nout * 4, outv, &err);
    cl_mem b_in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
    cl_mem b_cnt = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cnt), cnt, &err);
    cl_mem b_scr = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nwi * 4, scratch, &err);
    unsigned ostride = DIFFTEST_NOUT;
    clSetKernelArg(k, 0, sizeof(cl_mem), &b_out);
    clSetKernelArg(k, 1, sizeof(cl_mem), &b_in);
    clSetKernelArg(k, 2, sizeof(cl_mem), &b_cnt);
    clSetKernelArg(k, 3, sizeof(cl_mem), &b_scr);
    clSetKernelArg(k, 4, 4, &ostride);
    for (int a = 0; a < 4; a++)
      clSetKernelArg(k, 5 + (cl_uint)a, 4, &h.args[a]);
    size_t gsz[2] = {cf->gx, cf->gy}, lsz[2] = {cf->lx, cf->ly};
    sb(&r, "cfg %ux%u/%ux%u:", cf->gx, cf->gy, cf->lx, cf->ly);
    err = clEnqueueNDRangeKernel(queue, k, (cl_uint)cf->dims, NULL, gsz, lsz, 0, NULL, NULL);
    if (!err)
      err = clEnqueueReadBuffer(queue, b_out, CL_TRUE, 0, nout * 4, outv, 0, NULL, NULL);
    if (!err)
      err = clEnqueueReadBuffer(queue, b_cnt, CL_TRUE, 0, sizeof(cnt), cnt, 0, NULL, NULL);
    if (err) {
      sb(&r, " error %d\n", err);
    } else if (full) {
      sb(&r, "\n");
      for (size_t w = 0; w < nwi; w++) {
        sb(&r, "  wi %zu:", w);
        for (int j = 0; j < DIFFTEST_NOUT; j++)
          sb(&r, " %u", outv[w * DIFFTEST_NOUT + (size_t)j]);
        sb(&r, "\n");
      }
      sb(&r, "  cnt:");
      for (int j = 0; j < DIFFTEST_NCNT; j++)
        sb(&r, " %u", cnt[j]);
      sb(&r, "\n");
    } else {
      for (int j = 0; j < DIFFTEST_NOUT; j++) {
        uint64_t d = 0xcbf29ce484222325ull;
        for (size_t w = 0; w < nwi; w++)
          d = fnv(d, outv[w * DIFFTEST_NOUT + (size_t)j]);
        sb(&r, " %08x", (unsigned)(d ^ (d >> 32)));
      }
      uint64_t d = 0xcbf29ce484222325ull;
      for (int j = 0; j < DIFFTEST_NCNT; j++)
        d = fnv(d, cnt[j]);
      sb(&r, " cnt %08x\n", (unsigned)(d ^ (d >> 32)));
    }
    clReleaseMemObject(b_out);
    clReleaseMemObject(b_in);
    clReleaseMemObject(b_cnt);
    clReleaseMemObject(b_scr);
    free(outv);
    free(scratch);
  }
  clReleaseKernel(k);
  clReleaseProgram(prog);
  free(src);
  return r.s;
}

static const char *base_name(const char *path, char *buf, size_t cap)
{
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  snprintf(buf, cap, "%s", b);
  char *dot = strrchr(buf, '.');
  if (dot)
    *dot = 0;
  return buf;
}

int main(int argc, char **argv)
{
  if (argc < 2)
    fail("usage: lanecl-difftest gen|gen-dir|run|check ...");
  const char *cmd = argv[1];
  if (!strcmp(cmd, "gen")) {
    if (argc < 3)
      fail("usage: lanecl-difftest gen SEED [SIZE]");
    int size = argc > 3 ? atoi(argv[3]) : 24;
    fputs(difftest_generate(strtoull(argv[2], NULL, 0), size), stdout);
    return 0;
  }
  if (!strcmp(cmd, "gen-dir")) {
    if (argc < 5)
      fail("usage: lanecl-difftest gen-dir DIR FIRST COUNT [SIZE]");
    int size = argc > 5 ? atoi(argv[5]) : 24;
    unsigned long long first = strtoull(argv[3], NULL, 0), count = strtoull(argv[4], NULL, 0);
    mkdir(argv[2], 0777);
    for (unsigned long long s = first; s < first + count; s++) {
      char path[4096];
      snprintf(path, sizeof(path), "%s/p%llu.cl", argv[2], s);
      FILE *f = fopen(path, "w");
      if (!f)
        fail("cannot write %s: %s", path, strerror(errno));
      char *src = difftest_generate(s, size);
      fputs(src, f);
      free(src);
      fclose(f);
    }
    return 0;
  }
  bool full = false, emulate = false, no_switch = false, check = !strcmp(cmd, "check");
  if (!check && strcmp(cmd, "run"))
    fail("unknown command %s", cmd);
  const char *options = "", *outdir = NULL;
  int i = 2;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--full"))
      full = true;
    else if (!strcmp(argv[i], "--emulate-wg"))
      emulate = true;
    else if (!strcmp(argv[i], "--no-switch"))
      no_switch = true;
    else if (!strcmp(argv[i], "--options") && i + 1 < argc)
      options = argv[++i];
    else if (!strcmp(argv[i], "-o") && i + 1 < argc)
      outdir = argv[++i];
    else
      fail("unknown option %s", argv[i]);
  }
  setup();
  int bad = 0, total = 0;
  for (; i < argc; i++) {
    char *res = run_program(argv[i], options, full, emulate, no_switch);
    total++;
    if (check) {
      char refpath[4096];
      snprintf(refpath, sizeof(refpath), "%.*s.ref", (int)(strrchr(argv[i], '.') ? strrchr(argv[i], '.') - argv[i] : (long)strlen(argv[i])), argv[i]);
      char *ref = read_file(refpath);
      if (!ref)
        fail("cannot read %s", refpath);
      if (strcmp(ref, res)) {
        bad++;
        printf("MISMATCH %s (options '%s')\n--- expected\n%s--- got\n%s", argv[i], options, ref, res);
      }
      free(ref);
    } else if (outdir) {
      char name[1024], path[4096];
      snprintf(path, sizeof(path), "%s/%s.out", outdir, base_name(argv[i], name, sizeof(name)));
      FILE *f = fopen(path, "w");
      if (!f)
        fail("cannot write %s", path);
      fputs(res, f);
      fclose(f);
    } else {
      printf("# %s\n%s", argv[i], res);
      fflush(stdout);
    }
    free(res);
  }
  if (check) {
    printf("%d of %d programs match their reference\n", total - bad, total);
    return bad ? 1 : 0;
  }
  return 0;
}

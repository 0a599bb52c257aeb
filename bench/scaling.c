/* Thread scaling of two compute-bound kernels on LaneCL, run from program
 * binaries, so that the machine that runs it needs no LLVM (the runtime loads
 * the native code of an executable binary without its compiler).
 *
 *   lanecl-scaling --print-source mandel|nbody|scan  the kernel's OpenCL C
 *   lanecl-scaling --save-binary prog.cl out.bin   clBuildProgram, write CL_PROGRAM_BINARIES
 *   lanecl-scaling --rekey in.bin out.bin KEY      set a container's device key (hex), new checksum
 *   lanecl-scaling [--reps N] [--c-baseline] [--nbody-local L] [--mandel m.bin] [--nbody n.bin] [--scan s.bin]
 *
 * The run mode loads each binary with clCreateProgramWithBinary, runs the
 * kernel once (warm-up, checked against C), then N timed repetitions
 * (enqueue + clFinish) and prints one RESULT line per kernel with the median.
 * The worker count is the runtime's: LANECL_NUM_THREADS, else every core.
 * The kernels are those of bench/kernels.c: mandelbrot 2048x1024, 256
 * iterations at most; nbody 8192 bodies, float4 and rsqrt; and the collective
 * scan of bench/collectives.c (work_group_scan_inclusive_add, local size 256)
 * over 16M ints ("scan16M": memory-bound) and over 64K ints per worker
 * ("scan64Kper": L2-resident, 50 kernels per timed run, time per kernel).
 */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char mandel_src[] =
  "__kernel void mandel(__global int *out, int w, int h, int maxit) {\n"
  "  int x = get_global_id(0), y = get_global_id(1);\n"
  "  float cr = -2.0f + 3.0f * x / w, ci = -1.0f + 2.0f * y / h, zr = 0.0f, zi = 0.0f; int it = 0;\n"
  "  while (it < maxit && zr * zr + zi * zi < 4.0f) { float t = zr * zr - zi * zi + cr; zi = 2.0f * zr * zi + ci; zr = t; it++; }\n"
  "  out[y * w + x] = it;\n}\n";

static const char nbody_src[] =
  "__kernel void nbody(__global const float4 *pos, __global float4 *acc, int n, float eps) {\n"
  "  size_t i = get_global_id(0); float4 p = pos[i]; float4 a = (float4)(0.0f);\n"
  "  for (int j = 0; j < n; j++) {\n"
  "    float4 q = pos[j]; float4 d = q - p; d.w = 0.0f;\n"
  "    float r2 = dot(d, d) + eps; float inv = rsqrt(r2); float s = q.w * inv * inv * inv;\n"
  "    a += s * d;\n"
  "  }\n"
  "  acc[i] = a;\n}\n";

static const char scan_src[] =
  "__kernel void scan(__global const int *in, __global int *out) {\n"
  "  size_t i = get_global_id(0); out[i] = work_group_scan_inclusive_add(in[i]);\n}\n";

#define MW 2048
#define MH 1024
#define MIT 256
#define NBODY_N 8192
#define NBODY_EPS 0.01f

typedef struct env {
  cl_platform_id plat;
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q;
} env;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "lanecl-scaling: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(1);
}

static void check(cl_int err, const char *what)
{
  if (err != CL_SUCCESS)
    die("%s failed: %d", what, err);
}

static void *read_file(const char *path, size_t *size)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    die("can't open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
    die("can't read %s", path);
  buf[n] = 0;
  fclose(f);
  *size = (size_t)n;
  return buf;
}

static void write_file(const char *path, const void *data, size_t size)
{
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f))
    die("can't write %s", path);
}

/* The first platform whose name contains "LaneCL" (with OCL_ICD_VENDORS
 * naming lanecl.icd it is the only one), its first CPU device. */
static void env_open(env *e)
{
  cl_platform_id plats[16];
  cl_uint n = 0;
  check(clGetPlatformIDs(16, plats, &n), "clGetPlatformIDs");
  e->plat = NULL;
  for (cl_uint i = 0; i < n && !e->plat; i++) {
    char name[256] = "";
    clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
    if (strstr(name, "LaneCL"))
      e->plat = plats[i];
  }
  if (!e->plat)
    die("no LaneCL platform among %u (is OCL_ICD_VENDORS set?)", n);
  check(clGetDeviceIDs(e->plat, CL_DEVICE_TYPE_ALL, 1, &e->dev, NULL), "clGetDeviceIDs");
  cl_int err;
  e->ctx = clCreateContext(NULL, 1, &e->dev, NULL, NULL, &err);
  check(err, "clCreateContext");
  e->q = clCreateCommandQueueWithProperties(e->ctx, e->dev, NULL, &err);
  check(err, "clCreateCommandQueueWithProperties");
}

static void env_close(env *e)
{
  clReleaseCommandQueue(e->q);
  clReleaseContext(e->ctx);
}

/* --save-binary: build the source on LaneCL, write its one binary.  It
 * runs on a machine without LLVM: a whole build (LANECL_CC_LAZY=0), whose
 * binary holds every kernel's code (a staged build's holds the code of the
 * kernels launched before it was asked for). */
static int save_binary(const char *src_path, const char *out_path)
{
  env e;
  setenv("LANECL_CC_LAZY", "0", 1);
  env_open(&e);
  size_t len;
  char *src = read_file(src_path, &len);
  const char *srcs[1] = {src};
  cl_int err;
  cl_program p = clCreateProgramWithSource(e.ctx, 1, srcs, NULL, &err);
  check(err, "clCreateProgramWithSource");
  err = clBuildProgram(p, 1, &e.dev, "-cl-std=CL3.0", NULL, NULL);
  if (err != CL_SUCCESS) {
    static char log[65536];
    clGetProgramBuildInfo(p, e.dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
    die("%s: build failed (%d):\n%s", src_path, err, log);
  }
  size_t size = 0;
  check(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL), "CL_PROGRAM_BINARY_SIZES");
  unsigned char *bin = malloc(size);
  unsigned char *bins[1] = {bin};
  check(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bins), bins, NULL), "CL_PROGRAM_BINARIES");
  write_file(out_path, bin, size);
  printf("%s: %zu bytes, device key %016llx\n", out_path, size,
         size >= 24 ? (unsigned long long)((uint64_t)bin[16] | (uint64_t)bin[17] << 8 | (uint64_t)bin[18] << 16 |
                                           (uint64_t)bin[19] << 24 | (uint64_t)bin[20] << 32 | (uint64_t)bin[21] << 40 |
                                           (uint64_t)bin[22] << 48 | (uint64_t)bin[23] << 56)
                    : 0ull);
  free(bin);
  free(src);
  clReleaseProgram(p);
  env_close(&e);
  return 0;
}

/* --rekey: the container (lanecl_cc.h) holds the device key at byte 16 and
 * ends with an FNV-1a 64 checksum of every byte before it.  For running
 * code built for another target name (lanecl-cc --cpu x86-64-v3) on a device
 * whose key is that of the host. */
static int rekey(const char *in, const char *out, const char *hex)
{
  size_t size;
  unsigned char *b = read_file(in, &size);
  if (size < 32 || memcmp(b, "LANECLB", 8))
    die("%s is not a LaneCL program binary", in);
  uint64_t key = strtoull(hex, NULL, 16);
  for (int i = 0; i < 8; i++)
    b[16 + i] = (unsigned char)(key >> (8 * i));
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size - 8; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  for (int i = 0; i < 8; i++)
    b[size - 8 + i] = (unsigned char)(h >> (8 * i));
  write_file(out, b, size);
  free(b);
  return 0;
}

static cl_kernel load_kernel(env *e, const char *path, const char *name, cl_program *prog)
{
  size_t size;
  unsigned char *bin = read_file(path, &size);
  const unsigned char *bins[1] = {bin};
  cl_int status = CL_SUCCESS, err;
  cl_program p = clCreateProgramWithBinary(e->ctx, 1, &e->dev, &size, bins, &status, &err);
  if (err != CL_SUCCESS)
    die("clCreateProgramWithBinary(%s) failed: %d (binary status %d; LANECL_DEBUG=err says why)", path, err, status);
  err = clBuildProgram(p, 1, &e->dev, NULL, NULL, NULL);
  if (err != CL_SUCCESS) {
    static char log[65536];
    clGetProgramBuildInfo(p, e->dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
    die("clBuildProgram(%s) failed: %d:\n%s", path, err, log);
  }
  cl_kernel k = clCreateKernel(p, name, &err);
  check(err, name);
  free(bin);
  *prog = p;
  return k;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* ---- C references (compiled without -march: scalar code) ---- */

static int mandel_px(int x, int y)
{
  float cr = -2.0f + 3.0f * x / MW, ci = -1.0f + 2.0f * y / MH, zr = 0, zi = 0;
  int it = 0;
  while (it < MIT && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    it++;
  }
  return it;
}

static void nbody_ref(const float *pos, int n, int i, float out[3])
{
  float ax = 0, ay = 0, az = 0;
  for (int j = 0; j < n; j++) {
    float dx = pos[4 * j] - pos[4 * i], dy = pos[4 * j + 1] - pos[4 * i + 1], dz = pos[4 * j + 2] - pos[4 * i + 2];
    float r2 = dx * dx + dy * dy + dz * dz + NBODY_EPS;
    float inv = 1.0f / sqrtf(r2);
    float s = pos[4 * j + 3] * inv * inv * inv;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  out[0] = ax;
  out[1] = ay;
  out[2] = az;
}

/* Sampled check, as bench/kernels.c: fp contraction may move the set's edge. */
static bool mandel_ok(const int *out)
{
  int bad = 0;
  for (int y = 0; y < MH; y += 7)
    for (int x = 0; x < MW; x += 3)
      bad += abs(out[y * MW + x] - mandel_px(x, y)) > 2;
  return bad < MW * MH / 21 / 100;
}

static bool nbody_ok(const float *pos, const float *acc)
{
  for (int i = 0; i < NBODY_N; i += 97) {
    float r[3];
    nbody_ref(pos, NBODY_N, i, r);
    for (int d = 0; d < 3; d++)
      if (!(fabsf(r[d] - acc[4 * i + d]) <= 1e-2f * (fabsf(r[d]) + 1.0f)))
        return false;
  }
  return true;
}

/* One whole single-thread C run of each kernel, for scale. */
static double mandel_c_time(int *out)
{
  double t0 = now();
  for (int y = 0; y < MH; y++)
    for (int x = 0; x < MW; x++)
      out[y * MW + x] = mandel_px(x, y);
  return now() - t0;
}

static double nbody_c_time(const float *pos, float *acc)
{
  double t0 = now();
  for (int i = 0; i < NBODY_N; i++)
    nbody_ref(pos, NBODY_N, i, acc + 4 * i);
  return now() - t0;
}

/* ---- the timed runs ---- */

typedef struct run_desc {
  cl_uint dims;
  size_t global[2];
  size_t local[2];               /* {0, 0}: the runtime picks */
} run_desc;

/* reps runs of k, each enqueue + clFinish; seconds into t. */
static void time_kernel(env *e, cl_kernel k, const run_desc *r, int reps, double *t)
{
  for (int i = 0; i < reps; i++) {
    double t0 = now();
    check(clEnqueueNDRangeKernel(e->q, k, r->dims, NULL, r->global, r->local[0] ? r->local : NULL, 0, NULL, NULL),
          "clEnqueueNDRangeKernel");
    check(clFinish(e->q), "clFinish");
    t[i] = now() - t0;
  }
}

static void report(const char *kernel, const char *threads, cl_uint cu, size_t local, int reps, double *t, bool ok,
                   double c_s)
{
  qsort(t, (size_t)reps, sizeof(*t), cmp_double);
  double med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
  char lbuf[32] = "auto";
  if (local)
    snprintf(lbuf, sizeof(lbuf), "%zu", local);
  printf("RESULT kernel=%s threads=%s compute_units=%u local=%s reps=%d median_ms=%.4f min_ms=%.4f max_ms=%.4f "
         "verify=%s",
         kernel, threads, cu, lbuf, reps, med * 1e3, t[0] * 1e3, t[reps - 1] * 1e3, ok ? "ok" : "FAIL");
  if (c_s > 0)
    printf(" c_1thread_ms=%.3f", c_s * 1e3);
  printf("\n");
  fflush(stdout);
}

static void run_mandel(env *e, const char *path, int reps, bool c_base, const char *threads, cl_uint cu)
{
  cl_program p;
  cl_kernel k = load_kernel(e, path, "mandel", &p);
  cl_int err;
  cl_mem dout = clCreateBuffer(e->ctx, CL_MEM_WRITE_ONLY, (size_t)MW * MH * 4, NULL, &err);
  check(err, "clCreateBuffer");
  int w = MW, h = MH, it = MIT;
  check(clSetKernelArg(k, 0, sizeof(cl_mem), &dout), "arg 0");
  check(clSetKernelArg(k, 1, sizeof(int), &w), "arg 1");
  check(clSetKernelArg(k, 2, sizeof(int), &h), "arg 2");
  check(clSetKernelArg(k, 3, sizeof(int), &it), "arg 3");
  run_desc r = {2, {MW, MH}, {0, 0}};
  int *out = calloc((size_t)MW * MH, 4);
  double warm, *t = calloc((size_t)reps, sizeof(double));
  time_kernel(e, k, &r, 1, &warm);
  check(clEnqueueReadBuffer(e->q, dout, CL_TRUE, 0, (size_t)MW * MH * 4, out, 0, NULL, NULL), "read");
  bool ok = mandel_ok(out);
  time_kernel(e, k, &r, reps, t);
  double c_s = c_base ? mandel_c_time(out) : 0;
  report("mandel", threads, cu, 0, reps, t, ok, c_s);
  free(t);
  free(out);
  clReleaseMemObject(dout);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void run_nbody(env *e, const char *path, int reps, bool c_base, const char *threads, cl_uint cu, size_t local)
{
  cl_program p;
  cl_kernel k = load_kernel(e, path, "nbody", &p);
  float *pos = malloc((size_t)NBODY_N * 16), *acc = calloc((size_t)NBODY_N, 16);
  for (int i = 0; i < NBODY_N; i++) {
    pos[4 * i + 0] = (float)((i * 37) % 101) / 10.0f;
    pos[4 * i + 1] = (float)((i * 53) % 103) / 10.0f;
    pos[4 * i + 2] = (float)((i * 71) % 107) / 10.0f;
    pos[4 * i + 3] = 1.0f + (i % 3);
  }
  cl_int err;
  cl_mem dpos = clCreateBuffer(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)NBODY_N * 16, pos, &err);
  check(err, "clCreateBuffer");
  cl_mem dacc = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, (size_t)NBODY_N * 16, NULL, &err);
  check(err, "clCreateBuffer");
  int n = NBODY_N;
  float eps = NBODY_EPS;
  check(clSetKernelArg(k, 0, sizeof(cl_mem), &dpos), "arg 0");
  check(clSetKernelArg(k, 1, sizeof(cl_mem), &dacc), "arg 1");
  check(clSetKernelArg(k, 2, sizeof(int), &n), "arg 2");
  check(clSetKernelArg(k, 3, sizeof(float), &eps), "arg 3");
  run_desc r = {1, {NBODY_N, 1}, {local, 1}};
  double warm, *t = calloc((size_t)reps, sizeof(double));
  time_kernel(e, k, &r, 1, &warm);
  check(clEnqueueReadBuffer(e->q, dacc, CL_TRUE, 0, (size_t)NBODY_N * 16, acc, 0, NULL, NULL), "read");
  bool ok = nbody_ok(pos, acc);
  time_kernel(e, k, &r, reps, t);
  double c_s = c_base ? nbody_c_time(pos, acc) : 0;
  report("nbody", threads, cu, local, reps, t, ok, c_s);
  free(t);
  free(pos);
  free(acc);
  clReleaseMemObject(dpos);
  clReleaseMemObject(dacc);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* The inclusive add scan of groups of 256 over n ints (reps runs of inner
 * kernels each, time per kernel), checked against C. */
static void run_scan_size(env *e, cl_kernel k, const char *name, size_t n, int inner, int reps, const char *threads,
                          cl_uint cu)
{
  const size_t local = 256;
  int *in = malloc(n * 4), *out = malloc(n * 4);
  for (size_t i = 0; i < n; i++)
    in[i] = (int)(i * 2654435761u % 1000) - 500;
  cl_int err;
  cl_mem din = clCreateBuffer(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, in, &err);
  check(err, "clCreateBuffer");
  cl_mem dout = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err);
  check(err, "clCreateBuffer");
  check(clSetKernelArg(k, 0, sizeof(cl_mem), &din), "arg 0");
  check(clSetKernelArg(k, 1, sizeof(cl_mem), &dout), "arg 1");
  double *t = calloc((size_t)reps, sizeof(double));
  for (int r = -1; r < reps; r++) {
    double t0 = now();
    for (int i = 0; i < inner; i++)
      check(clEnqueueNDRangeKernel(e->q, k, 1, NULL, &n, &local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
    check(clFinish(e->q), "clFinish");
    if (r >= 0)
      t[r] = (now() - t0) / inner;
  }
  check(clEnqueueReadBuffer(e->q, dout, CL_TRUE, 0, n * 4, out, 0, NULL, NULL), "read");
  bool ok = true;
  for (size_t g = 0; g < n && ok; g += local * 31) {
    int acc = 0;
    for (size_t i = g; i < g + local; i++)
      ok &= out[i] == (acc += in[i]);
  }
  report(name, threads, cu, local, reps, t, ok, 0);
  free(t);
  free(in);
  free(out);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
}

static void run_scan(env *e, const char *path, int reps, const char *threads, cl_uint cu)
{
  cl_program p;
  cl_kernel k = load_kernel(e, path, "scan", &p);
  run_scan_size(e, k, "scan16M", (size_t)16 << 20, 1, reps, threads, cu);
  size_t workers = strcmp(threads, "all") ? strtoul(threads, NULL, 10) : cu;
  run_scan_size(e, k, "scan64Kper", (size_t)64 * 1024 * (workers ? workers : 1), 50, reps, threads, cu);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* Which of LLVM, the LaneCL compiler and the LaneCL runtime this process has mapped. */
static void report_maps(void)
{
  FILE *f = fopen("/proc/self/maps", "r");
  bool llvm = false, cc = false, rt = false;
  char line[4096];
  while (f && fgets(line, sizeof(line), f)) {
    llvm |= strstr(line, "libLLVM") != NULL;
    cc |= strstr(line, "liblanecl_cc") != NULL;
    rt |= strstr(line, "liblanecl.so") != NULL;
  }
  if (f)
    fclose(f);
  printf("MAPS libLLVM=%s liblanecl_cc=%s liblanecl=%s%s\n", llvm ? "loaded" : "no", cc ? "loaded" : "no",
         rt ? "loaded" : "no", f ? "" : " (no /proc/self/maps)");
}

static int usage(void)
{
  fprintf(stderr, "usage: lanecl-scaling --print-source mandel|nbody|scan\n"
                  "       lanecl-scaling --save-binary prog.cl out.bin\n"
                  "       lanecl-scaling --rekey in.bin out.bin HEXKEY\n"
                  "       lanecl-scaling [--reps N] [--c-baseline] [--nbody-local L] [--mandel m.bin] [--nbody n.bin] "
                  "[--scan s.bin]\n");
  return 2;
}

int main(int argc, char **argv)
{
  if (argc == 3 && !strcmp(argv[1], "--print-source")) {
    const char *s = !strcmp(argv[2], "mandel") ? mandel_src
                    : !strcmp(argv[2], "nbody")  ? nbody_src
                    : !strcmp(argv[2], "scan")   ? scan_src
                                                 : NULL;
    if (!s)
      return usage();
    fputs(s, stdout);
    return 0;
  }
  if (argc == 4 && !strcmp(argv[1], "--save-binary"))
    return save_binary(argv[2], argv[3]);
  if (argc == 5 && !strcmp(argv[1], "--rekey"))
    return rekey(argv[2], argv[3], argv[4]);

  int reps = 5;
  size_t nbody_local = 0;
  bool c_base = false;
  const char *mandel = NULL, *nbody = NULL, *scan = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--nbody-local") && i + 1 < argc)
      nbody_local = strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--c-baseline"))
      c_base = true;
    else if (!strcmp(argv[i], "--mandel") && i + 1 < argc)
      mandel = argv[++i];
    else if (!strcmp(argv[i], "--nbody") && i + 1 < argc)
      nbody = argv[++i];
    else if (!strcmp(argv[i], "--scan") && i + 1 < argc)
      scan = argv[++i];
    else
      return usage();
  }
  if (reps < 1 || (!mandel && !nbody && !scan) || (nbody_local && NBODY_N % nbody_local))
    return usage();

  env e;
  env_open(&e);
  char devname[256] = "";
  cl_uint cu = 0, vw = 0;
  clGetDeviceInfo(e.dev, CL_DEVICE_NAME, sizeof(devname), devname, NULL);
  clGetDeviceInfo(e.dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cu), &cu, NULL);
  clGetDeviceInfo(e.dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(vw), &vw, NULL);
  const char *threads = getenv("LANECL_NUM_THREADS");
  threads = threads && *threads ? threads : "all";
  printf("DEVICE name=\"%s\" compute_units=%u native_float_width=%u LANECL_NUM_THREADS=%s\n", devname, cu, vw,
         threads);
  if (mandel)
    run_mandel(&e, mandel, reps, c_base, threads, cu);
  if (nbody)
    run_nbody(&e, nbody, reps, c_base, threads, cu, nbody_local);
  if (scan)
    run_scan(&e, scan, reps, threads, cu);
  report_maps();
  env_close(&e);
  return 0;
}

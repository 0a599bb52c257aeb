/* Program family through the ICD loader: create (source, binary, built-in
 * kernels, IL), build (sync and with a callback), compile with embedded
 * headers, link (objects, libraries, failures), every program query, binaries
 * loaded in another process, damaged binaries, the on-disk cache (hits
 * without loading LLVM, damaged entries, concurrent processes, no compiler),
 * and several host threads building and running at once. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/testlib.h"

static const char vadd_src[] =
    "__kernel void vadd(__global const float *a, __global const float *b, __global float *c)\n"
    "{\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";

static const char two_kernels_src[] =
    "__kernel void first(__global int *o) { o[get_global_id(0)] = 1; }\n"
    "__kernel void second(__global int *o, int v) { o[get_global_id(0)] = v; }\n";

/* A source no cache holds yet: body behind a comment unique to this run. */
static char *unique_source(const char *body)
{
  static atomic_uint serial;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  size_t n = strlen(body) + 128;
  char *s = malloc(n);
  snprintf(s, n, "// unique %d %lld %ld %u\n%s", (int)getpid(), (long long)ts.tv_sec, ts.tv_nsec,
           atomic_fetch_add(&serial, 1), body);
  return s;
}

static cl_program source_program(cl_context ctx, const char *src)
{
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(p != NULL);
  return p;
}

static char *build_log(cl_program p)
{
  size_t size = 0;
  ASSERT_OK(clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BUILD_LOG, 0, NULL, &size));
  char *log = malloc(size);
  ASSERT_OK(clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BUILD_LOG, size, log, NULL));
  ASSERT_EQ(strlen(log) + 1, size);
  return log;
}

static cl_build_status build_status(cl_program p)
{
  cl_build_status st = 0;
  ASSERT_OK(clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL));
  return st;
}

static cl_program_binary_type binary_type(cl_program p)
{
  cl_program_binary_type t = 0;
  ASSERT_OK(clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BINARY_TYPE, sizeof(t), &t, NULL));
  return t;
}

/* Runs vadd of p over n floats on a new queue and checks c = a + b. */
static void run_vadd(cl_context ctx, cl_program p, size_t n)
{
  cl_int err;
  cl_kernel k = clCreateKernel(p, "vadd", &err);
  ASSERT_OK(err);
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)), *c = malloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) {
    a[i] = (float)i;
    b[i] = (float)(3 * i + 1);
    c[i] = -1;
  }
  cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), a, &err);
  ASSERT_OK(err);
  cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), b, &err);
  ASSERT_OK(err);
  cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &ba));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bb));
  ASSERT_OK(clSetKernelArg(k, 2, sizeof(cl_mem), &bc));
  cl_command_queue q = tl_queue(ctx, 0);
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, n * sizeof(float), c, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++)
    if (c[i] != a[i] + b[i])
      tl_fail(__FILE__, __LINE__, "vadd: c[%zu] = %g, expected %g", i, c[i], a[i] + b[i]);
  clReleaseCommandQueue(q);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  clReleaseKernel(k);
  free(a);
  free(b);
  free(c);
}

static bool maps_contain(const char *needle)
{
  FILE *f = fopen("/proc/self/maps", "r");
  ASSERT_TRUE(f != NULL);
  char line[4096];
  bool found = false;
  while (!found && fgets(line, sizeof(line), f))
    found = strstr(line, needle) != NULL;
  fclose(f);
  return found;
}

/* The program's binary for tl_device(). */
static unsigned char *program_binary(cl_program p, size_t *size)
{
  cl_uint ndev = 0;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof(ndev), &ndev, NULL));
  ASSERT_EQ(ndev, 1);
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(*size), size, NULL));
  ASSERT_TRUE(*size > 0);
  unsigned char *bin = malloc(*size);
  unsigned char *bins[1] = {bin};
  size_t ret = 0;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bins), bins, &ret));
  ASSERT_EQ(ret, sizeof(bins));
  return bin;
}

static cl_program binary_program(cl_context ctx, const unsigned char *bin, size_t size, cl_int *status,
                                 cl_int *err)
{
  cl_device_id dev = tl_device();
  return clCreateProgramWithBinary(ctx, 1, &dev, &size, &bin, status, err);
}

/* ---------------------------------------------------------------------------
 * Creation
 * ------------------------------------------------------------------------- */

TEST(create_with_source_errors)
{
  cl_context ctx = tl_context();
  const char *src = vadd_src, *null_entry[2] = {vadd_src, NULL};
  cl_int err;
  ASSERT_TRUE(clCreateProgramWithSource(NULL, 1, &src, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clCreateProgramWithSource((cl_context)tl_device(), 1, &src, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clCreateProgramWithSource(ctx, 0, &src, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateProgramWithSource(ctx, 1, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateProgramWithSource(ctx, 2, null_entry, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  clReleaseContext(ctx);
}

/* Lengths: 0 means NUL-terminated, n > 0 counts n chars (no NUL needed). */
TEST(create_with_source_lengths)
{
  cl_context ctx = tl_context();
  const char *parts[3] = {"abcXXXX", "def", "ghi"};
  size_t lengths[3] = {3, 0, 2};
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 3, parts, lengths, &err);
  ASSERT_OK(err);
  char src[64];
  size_t size = 0;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof(src), src, &size));
  ASSERT_STREQ(src, "abcdefgh");
  ASSERT_EQ(size, 9);
  /* lengths NULL: all NUL-terminated */
  cl_program q = clCreateProgramWithSource(ctx, 3, parts, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clGetProgramInfo(q, CL_PROGRAM_SOURCE, sizeof(src), src, NULL));
  ASSERT_STREQ(src, "abcXXXXdefghi");
  clReleaseProgram(p);
  clReleaseProgram(q);
  clReleaseContext(ctx);
}

TEST(create_builtin_kernels_and_il_unsupported)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_int err;
  ASSERT_TRUE(clCreateProgramWithBuiltInKernels(ctx, 1, &dev, "anything", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateProgramWithBuiltInKernels(ctx, 1, &dev, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateProgramWithBuiltInKernels(ctx, 0, &dev, "x", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateProgramWithBuiltInKernels(ctx, 1, NULL, "x", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_device_id not_dev = (cl_device_id)ctx;
  ASSERT_TRUE(clCreateProgramWithBuiltInKernels(ctx, 1, &not_dev, "x", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);
  ASSERT_TRUE(clCreateProgramWithBuiltInKernels(NULL, 1, &dev, "x", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);

  static const unsigned char il[16] = {0x03, 0x02, 0x23, 0x07};
  ASSERT_TRUE(clCreateProgramWithIL(ctx, il, sizeof(il), &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  ASSERT_TRUE(clCreateProgramWithIL(NULL, il, sizeof(il), &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  clReleaseContext(ctx);
}

TEST(retain_release_and_callbacks)
{
  cl_context ctx = tl_context();
  cl_program p = source_program(ctx, vadd_src);
  cl_uint rc = 0;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(rc), &rc, NULL));
  ASSERT_EQ(rc, 1);
  ASSERT_OK(clRetainProgram(p));
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(rc), &rc, NULL));
  ASSERT_EQ(rc, 2);
  ASSERT_OK(clReleaseProgram(p));
  ASSERT_CL(clRetainProgram(NULL), CL_INVALID_PROGRAM);
  ASSERT_CL(clReleaseProgram(NULL), CL_INVALID_PROGRAM);
  ASSERT_CL(clRetainProgram((cl_program)ctx), CL_INVALID_PROGRAM);
  /* No program scope destructors, no IL: both are CL_INVALID_OPERATION (3.0). */
  ASSERT_CL(clSetProgramReleaseCallback(p, (void(CL_CALLBACK *)(cl_program, void *))1, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clSetProgramReleaseCallback(NULL, NULL, NULL), CL_INVALID_PROGRAM);
  cl_int v = 1;
  ASSERT_CL(clSetProgramSpecializationConstant(p, 0, sizeof(v), &v), CL_INVALID_OPERATION);
  ASSERT_CL(clSetProgramSpecializationConstant(NULL, 0, sizeof(v), &v), CL_INVALID_PROGRAM);
  ASSERT_OK(clUnloadPlatformCompiler(tl_platform()));
  ASSERT_CL(clUnloadPlatformCompiler((cl_platform_id)ctx), CL_INVALID_PLATFORM);
  ASSERT_OK(clReleaseProgram(p));
  clReleaseContext(ctx);
}

/* ---------------------------------------------------------------------------
 * Queries before and after a build
 * ------------------------------------------------------------------------- */

TEST(program_info_before_build)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_program p = source_program(ctx, vadd_src);
  cl_context c = NULL;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof(c), &c, NULL));
  ASSERT_TRUE(c == ctx);
  cl_uint n = 0;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof(n), &n, NULL));
  ASSERT_EQ(n, 1);
  cl_device_id d = NULL;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof(d), &d, NULL));
  ASSERT_TRUE(d == dev);
  /* No IL: the value stays unchanged, the size is 0. */
  char il = 'x';
  size_t size = 99;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_IL, sizeof(il), &il, &size));
  ASSERT_EQ(size, 0);
  ASSERT_EQ(il, 'x');
  size_t bsize = 99;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(bsize), &bsize, NULL));
  ASSERT_EQ(bsize, 0);
  size_t nk;
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(nk), &nk, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size), CL_INVALID_PROGRAM_EXECUTABLE);
  cl_bool b;
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof(b), &b, NULL),
            CL_INVALID_PROGRAM_EXECUTABLE);
  /* errors */
  ASSERT_CL(clGetProgramInfo(p, 0x7fff, sizeof(n), &n, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, 1, &n, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetProgramInfo(NULL, CL_PROGRAM_NUM_DEVICES, sizeof(n), &n, NULL), CL_INVALID_PROGRAM);

  ASSERT_EQ(build_status(p), CL_BUILD_NONE);
  ASSERT_EQ(binary_type(p), CL_PROGRAM_BINARY_TYPE_NONE);
  char s[8] = "zzz";
  ASSERT_OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof(s), s, &size));
  ASSERT_STREQ(s, "");
  ASSERT_EQ(size, 1);
  ASSERT_OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof(s), s, &size));
  ASSERT_STREQ(s, "");
  ASSERT_CL(clGetProgramBuildInfo(p, dev, 0x7fff, sizeof(s), s, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetProgramBuildInfo(p, NULL, CL_PROGRAM_BUILD_STATUS, sizeof(s), s, NULL), CL_INVALID_DEVICE);
  ASSERT_CL(clGetProgramBuildInfo(p, (cl_device_id)ctx, CL_PROGRAM_BUILD_STATUS, sizeof(s), s, NULL),
            CL_INVALID_DEVICE);
  ASSERT_CL(clGetProgramBuildInfo(NULL, dev, CL_PROGRAM_BUILD_STATUS, sizeof(s), s, NULL), CL_INVALID_PROGRAM);
  cl_build_status st;
  ASSERT_CL(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, 1, &st, NULL), CL_INVALID_VALUE);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

TEST(build_success_and_queries)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_program p = source_program(ctx, two_kernels_src);
  ASSERT_OK(clBuildProgram(p, 1, &dev, "-DUNUSED=1  -cl-mad-enable", NULL, NULL));
  ASSERT_EQ(build_status(p), CL_BUILD_SUCCESS);
  ASSERT_EQ(binary_type(p), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  char opts[64];
  ASSERT_OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof(opts), opts, NULL));
  ASSERT_STREQ(opts, "-DUNUSED=1  -cl-mad-enable");
  size_t nk = 0;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(nk), &nk, NULL));
  ASSERT_EQ(nk, 2);
  char names[64];
  size_t size = 0;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names, &size));
  ASSERT_EQ(size, strlen(names) + 1);
  ASSERT_TRUE(!strcmp(names, "first;second") || !strcmp(names, "second;first"));
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 3, names, NULL), CL_INVALID_VALUE);
  cl_bool ctors = CL_TRUE, dtors = CL_TRUE;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof(ctors), &ctors, NULL));
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof(dtors), &dtors, NULL));
  ASSERT_EQ(ctors, CL_FALSE);
  ASSERT_EQ(dtors, CL_FALSE);
  /* The source stays; binaries are the container, with the LaneCL magic. */
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &size));
  ASSERT_EQ(size, sizeof(two_kernels_src));
  size_t bsize;
  unsigned char *bin = program_binary(p, &bsize);
  ASSERT_TRUE(!memcmp(bin, "LANECLB", 8));
  /* CL_PROGRAM_BINARIES needs room for one pointer per device. */
  unsigned char *bins[1] = {bin};
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, 1, bins, NULL), CL_INVALID_VALUE);
  /* A NULL entry skips the device. */
  bins[0] = NULL;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bins), bins, NULL));
  free(bin);
  /* No program scope variables here. */
  size_t gsize = 99;
  ASSERT_OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof(gsize), &gsize, NULL));
  ASSERT_EQ(gsize, 0);
  /* A NULL device list builds for all devices; a rebuild is allowed. */
  ASSERT_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  ASSERT_OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof(opts), opts, NULL));
  ASSERT_STREQ(opts, "");
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

TEST(program_scope_globals_size)
{
  cl_context ctx = tl_context();
  const char *src =
      "__global int table[100] = {1};\n"
      "__global float scale;\n"
      "__kernel void k(__global int *o)\n"
      "{\n"
      "  size_t i = get_global_id(0);\n"
      "  table[i % 100] += o[i];\n"
      "  scale += (float)o[i];\n"
      "  o[i] = table[(i + 1) % 100] + (int)scale;\n"
      "}\n";
  cl_program p = tl_build(ctx, src, "-cl-std=CL3.0");
  size_t gsize = 0;
  ASSERT_OK(clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof(gsize),
                                  &gsize, NULL));
  ASSERT_TRUE(gsize >= 100 * sizeof(int) + sizeof(float));
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

TEST(build_failure_log)
{
  cl_context ctx = tl_context();
  cl_program p = source_program(ctx, "__kernel void bad(__global int *o) { o[0] = undefined_identifier_xyz; }\n");
  ASSERT_CL(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  ASSERT_EQ(build_status(p), CL_BUILD_ERROR);
  char *log = build_log(p);
  ASSERT_TRUE(strstr(log, "undefined_identifier_xyz") != NULL);
  ASSERT_TRUE(strstr(log, "error") != NULL);
  free(log);
  size_t nk;
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(nk), &nk, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
  cl_int err;
  ASSERT_TRUE(clCreateKernel(p, "bad", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

TEST(build_invalid_options)
{
  cl_context ctx = tl_context();
  cl_program p = source_program(ctx, vadd_src);
  ASSERT_CL(clBuildProgram(p, 0, NULL, "-cl-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
  ASSERT_EQ(build_status(p), CL_BUILD_ERROR);
  /* The program builds afterwards with valid options. */
  ASSERT_OK(clBuildProgram(p, 0, NULL, "-cl-opt-disable", NULL, NULL));
  run_vadd(ctx, p, 100);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* -cl-std names an OpenCL C version: one of CL_DEVICE_OPENCL_C_ALL_VERSIONS
 * builds; another (CL2.0 on a device without OpenCL C 2.0) is
 * CL_INVALID_BUILD_OPTIONS (CL_INVALID_COMPILER_OPTIONS for clCompileProgram)
 * with a build log that says why. */
TEST(build_std_the_device_does_not_offer)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_name_version vers[16];
  size_t size = 0;
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof(vers), vers, &size));
  size_t nvers = size / sizeof(vers[0]);
  ASSERT_TRUE(nvers >= 1);
  bool has20 = false;
  for (size_t i = 0; i < nvers; i++) {
    char opt[32];
    snprintf(opt, sizeof(opt), "-cl-std=CL%u.%u", CL_VERSION_MAJOR(vers[i].version),
             CL_VERSION_MINOR(vers[i].version));
    cl_program p = source_program(ctx, vadd_src);
    ASSERT_OK(clBuildProgram(p, 0, NULL, opt, NULL, NULL));
    clReleaseProgram(p);
    has20 |= vers[i].version == CL_MAKE_VERSION(2, 0, 0);
  }
  ASSERT_TRUE(!has20); /* an OpenCL 3.0 CPU device without OpenCL C 2.0 */
  const char *bad[] = {"-cl-std=CL2.0", "-cl-std=CL2.2", "-cl-std=CL3.0 -cl-std=CL2.0", "-DX=1 -cl-std=CL2.0 -w"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    cl_program p = source_program(ctx, vadd_src);
    ASSERT_CL(clBuildProgram(p, 0, NULL, bad[i], NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    ASSERT_EQ(build_status(p), CL_BUILD_ERROR);
    char *log = build_log(p);
    ASSERT_TRUE(strstr(log, "-cl-std=CL2.") != NULL);
    ASSERT_TRUE(strstr(log, "not support") != NULL);
    free(log);
    cl_int err;
    ASSERT_TRUE(clCreateKernel(p, "vadd", &err) == NULL);
    ASSERT_CL(err, CL_INVALID_PROGRAM_EXECUTABLE);
    ASSERT_CL(clCompileProgram(p, 0, NULL, bad[i], 0, NULL, NULL, NULL, NULL), CL_INVALID_COMPILER_OPTIONS);
    ASSERT_EQ(build_status(p), CL_BUILD_ERROR);
    /* The program builds afterwards with a version the device has. */
    ASSERT_OK(clBuildProgram(p, 0, NULL, "-cl-std=CL3.0", NULL, NULL));
    run_vadd(ctx, p, 64);
    clReleaseProgram(p);
  }
  clReleaseContext(ctx);
}

TEST(build_errors)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device(), not_dev = (cl_device_id)ctx;
  cl_program p = source_program(ctx, vadd_src);
  ASSERT_CL(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  ASSERT_CL(clBuildProgram((cl_program)ctx, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  ASSERT_CL(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clBuildProgram(p, 0, &dev, NULL, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clBuildProgram(p, 0, NULL, NULL, NULL, &dev), CL_INVALID_VALUE);
  ASSERT_CL(clBuildProgram(p, 1, &not_dev, NULL, NULL, NULL), CL_INVALID_DEVICE);
  ASSERT_EQ(build_status(p), CL_BUILD_NONE);
  /* Kernels attached: no rebuild until they are released. */
  ASSERT_OK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
  cl_int err;
  cl_kernel k = clCreateKernel(p, "vadd", &err);
  ASSERT_OK(err);
  ASSERT_CL(clBuildProgram(p, 1, &dev, NULL, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clCompileProgram(p, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_EQ(build_status(p), CL_BUILD_SUCCESS);
  clReleaseKernel(k);
  ASSERT_OK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* ---- builds with a callback ---- */

typedef struct notify_state {
  pthread_mutex_t lock;
  pthread_cond_t cv;
  int calls;
  cl_program program;
  cl_build_status status_seen;
} notify_state;

static void CL_CALLBACK on_built(cl_program p, void *user_data)
{
  notify_state *s = user_data;
  cl_build_status st = 0;
  clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL);
  pthread_mutex_lock(&s->lock);
  s->calls++;
  s->program = p;
  s->status_seen = st;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->lock);
}

static void wait_notify(notify_state *s)
{
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 120;
  pthread_mutex_lock(&s->lock);
  while (!s->calls)
    ASSERT_TRUE(pthread_cond_timedwait(&s->cv, &s->lock, &until) == 0);
  pthread_mutex_unlock(&s->lock);
}

TEST(build_with_callback)
{
  cl_context ctx = tl_context();
  char *src = unique_source(vadd_src);
  cl_program p = source_program(ctx, src);
  notify_state s = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, 0};
  ASSERT_OK(clBuildProgram(p, 0, NULL, NULL, on_built, &s));
  /* While the build runs: another build is refused, no kernel yet. */
  pthread_mutex_lock(&s.lock);
  bool running = s.calls == 0 && build_status(p) == CL_BUILD_IN_PROGRESS;
  if (running) {
    ASSERT_CL(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    cl_int err;
    ASSERT_TRUE(clCreateKernel(p, "vadd", &err) == NULL);
    ASSERT_CL(err, CL_INVALID_PROGRAM_EXECUTABLE);
  }
  pthread_mutex_unlock(&s.lock);
  wait_notify(&s);
  ASSERT_EQ(s.calls, 1);
  ASSERT_TRUE(s.program == p);
  ASSERT_EQ(s.status_seen, CL_BUILD_SUCCESS);
  run_vadd(ctx, p, 64);
  /* A failing build with a callback: success returned, failure observed. */
  cl_program bad = source_program(ctx, "__kernel void k( { }");
  notify_state s2 = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, 0};
  ASSERT_OK(clBuildProgram(bad, 0, NULL, NULL, on_built, &s2));
  wait_notify(&s2);
  ASSERT_EQ(s2.status_seen, CL_BUILD_ERROR);
  char *log = build_log(bad);
  ASSERT_TRUE(strlen(log) > 0);
  free(log);
  clReleaseProgram(bad);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  free(src);
}

/* ---------------------------------------------------------------------------
 * Compile and link
 * ------------------------------------------------------------------------- */

static const char header_src[] = "#define OFFSET 3\nfloat scale(float x);\n";
static const char user_src[] =
    "#include \"my/scale.h\"\n"
    "__kernel void vadd(__global const float *a, __global const float *b, __global float *c)\n"
    "{\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = scale(a[i]) + b[i] + OFFSET;\n"
    "}\n";
static const char lib_src[] = "float scale(float x) { return 2.0f * x; }\n";

/* Runs vadd of a linked program: c = 2a + b + 3. */
static void run_linked(cl_context ctx, cl_program p)
{
  cl_int err;
  enum { N = 77 };
  cl_kernel k = clCreateKernel(p, "vadd", &err);
  ASSERT_OK(err);
  float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)i;
    b[i] = (float)(100 - i);
  }
  cl_mem ba = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(a), a, &err);
  cl_mem bb = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(b), b, &err);
  cl_mem bc = clCreateBuffer(ctx, 0, sizeof(c), NULL, &err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &ba));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bb));
  ASSERT_OK(clSetKernelArg(k, 2, sizeof(cl_mem), &bc));
  cl_command_queue q = tl_queue(ctx, 0);
  size_t n = N;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof(c), c, 0, NULL, NULL));
  for (int i = 0; i < N; i++)
    ASSERT_EQ(c[i], 2 * a[i] + b[i] + 3);
  clReleaseCommandQueue(q);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  clReleaseKernel(k);
}

static cl_program compiled_user(cl_context ctx)
{
  cl_program user = source_program(ctx, user_src), header = source_program(ctx, header_src);
  const char *names[1] = {"my/scale.h"};
  ASSERT_OK(clCompileProgram(user, 0, NULL, "-DUNUSED", 1, &header, names, NULL, NULL));
  ASSERT_EQ(build_status(user), CL_BUILD_SUCCESS);
  ASSERT_EQ(binary_type(user), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  clReleaseProgram(header);
  return user;
}

TEST(compile_and_link)
{
  cl_context ctx = tl_context();
  cl_program user = compiled_user(ctx), lib = source_program(ctx, lib_src);
  ASSERT_OK(clCompileProgram(lib, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  /* A compiled object has no kernels to create yet. */
  size_t nk;
  ASSERT_CL(clGetProgramInfo(user, CL_PROGRAM_NUM_KERNELS, sizeof(nk), &nk, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
  size_t osize;
  free(program_binary(user, &osize));
  cl_program inputs[2] = {user, lib};
  cl_int err;
  cl_program exe = clLinkProgram(ctx, 0, NULL, NULL, 2, inputs, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_EQ(build_status(exe), CL_BUILD_SUCCESS);
  ASSERT_EQ(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  ASSERT_OK(clGetProgramInfo(exe, CL_PROGRAM_NUM_KERNELS, sizeof(nk), &nk, NULL));
  ASSERT_EQ(nk, 1);
  run_linked(ctx, exe);
  /* A linked program can't be built (only source, IL or binary programs). */
  ASSERT_CL(clBuildProgram(exe, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clCompileProgram(exe, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseProgram(exe);

  /* Through a library. */
  cl_program library = clLinkProgram(ctx, 0, NULL, "-create-library -enable-link-options", 1, &lib, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_EQ(binary_type(library), CL_PROGRAM_BINARY_TYPE_LIBRARY);
  inputs[1] = library;
  exe = clLinkProgram(ctx, 0, NULL, "-cl-fast-relaxed-math", 2, inputs, NULL, NULL, &err);
  ASSERT_OK(err);
  run_linked(ctx, exe);
  clReleaseProgram(exe);
  clReleaseProgram(library);
  clReleaseProgram(user);
  clReleaseProgram(lib);
  clReleaseContext(ctx);
}

TEST(compile_errors)
{
  cl_context ctx = tl_context(), other = tl_context();
  cl_device_id dev = tl_device();
  cl_program p = source_program(ctx, user_src), h = source_program(ctx, header_src);
  cl_program h_other = source_program(other, header_src);
  const char *names[1] = {"my/scale.h"};
  ASSERT_CL(clCompileProgram(NULL, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  ASSERT_CL(clCompileProgram(p, 1, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clCompileProgram(p, 0, &dev, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clCompileProgram(p, 0, NULL, NULL, 0, &h, NULL, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clCompileProgram(p, 0, NULL, NULL, 0, NULL, names, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clCompileProgram(p, 0, NULL, NULL, 1, NULL, names, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clCompileProgram(p, 0, NULL, NULL, 1, &h, NULL, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clCompileProgram(p, 0, NULL, NULL, 1, &h_other, names, NULL, NULL), CL_INVALID_CONTEXT);
  cl_program not_program = (cl_program)ctx;
  ASSERT_CL(clCompileProgram(p, 0, NULL, NULL, 1, &not_program, names, NULL, NULL), CL_INVALID_PROGRAM);
  const char *null_name[1] = {NULL};
  ASSERT_CL(clCompileProgram(p, 0, NULL, NULL, 1, &h, null_name, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, &dev), CL_INVALID_VALUE);
  ASSERT_CL(clCompileProgram(p, 1, (cl_device_id *)&ctx, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_DEVICE);
  /* Without the header the include fails. */
  ASSERT_CL(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
  ASSERT_EQ(build_status(p), CL_BUILD_ERROR);
  char *log = build_log(p);
  ASSERT_TRUE(strstr(log, "scale.h") != NULL);
  free(log);
  ASSERT_CL(clCompileProgram(p, 0, NULL, "-cl-no-such-option", 1, &h, names, NULL, NULL),
            CL_INVALID_COMPILER_OPTIONS);
  /* A program from a binary has no source to compile. */
  ASSERT_OK(clCompileProgram(p, 0, NULL, NULL, 1, &h, names, NULL, NULL));
  size_t size;
  unsigned char *bin = program_binary(p, &size);
  cl_int err, status;
  cl_program fromb = binary_program(ctx, bin, size, &status, &err);
  ASSERT_OK(err);
  ASSERT_OK(status);
  ASSERT_EQ(binary_type(fromb), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  ASSERT_CL(clCompileProgram(fromb, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  free(bin);
  clReleaseProgram(fromb);
  clReleaseProgram(p);
  clReleaseProgram(h);
  clReleaseProgram(h_other);
  clReleaseContext(ctx);
  clReleaseContext(other);
}

TEST(link_errors)
{
  cl_context ctx = tl_context(), other = tl_context();
  cl_device_id dev = tl_device();
  cl_program user = compiled_user(ctx);
  cl_program uncompiled = source_program(ctx, lib_src);
  cl_program foreign = source_program(other, lib_src);
  ASSERT_OK(clCompileProgram(foreign, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  cl_int err;
  ASSERT_TRUE(clLinkProgram(NULL, 0, NULL, NULL, 1, &user, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clLinkProgram(ctx, 1, NULL, NULL, 1, &user, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clLinkProgram(ctx, 0, &dev, NULL, 1, &user, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clLinkProgram(ctx, 0, NULL, NULL, 0, &user, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clLinkProgram(ctx, 0, NULL, NULL, 0, NULL, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clLinkProgram(ctx, 0, NULL, NULL, 1, NULL, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_program not_program = (cl_program)ctx;
  ASSERT_TRUE(clLinkProgram(ctx, 0, NULL, NULL, 1, &not_program, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROGRAM);
  ASSERT_TRUE(clLinkProgram(ctx, 0, NULL, NULL, 1, &foreign, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clLinkProgram(ctx, 0, NULL, NULL, 1, &user, NULL, &dev, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_device_id not_dev = (cl_device_id)ctx;
  ASSERT_TRUE(clLinkProgram(ctx, 1, &not_dev, NULL, 1, &user, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);
  ASSERT_TRUE(clLinkProgram(ctx, 0, NULL, "-no-such-link-option", 1, &user, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_LINKER_OPTIONS);
  ASSERT_TRUE(clLinkProgram(ctx, 0, NULL, "-enable-link-options", 1, &user, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_LINKER_OPTIONS);
  /* One input with an object, one without: the device rule is broken. */
  cl_program mixed[2] = {user, uncompiled};
  ASSERT_TRUE(clLinkProgram(ctx, 0, NULL, NULL, 2, mixed, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  /* scale() is missing: the link fails, and still gives a program. */
  cl_program failed = clLinkProgram(ctx, 0, NULL, NULL, 1, &user, NULL, NULL, &err);
  ASSERT_CL(err, CL_LINK_PROGRAM_FAILURE);
  ASSERT_TRUE(failed != NULL);
  ASSERT_EQ(build_status(failed), CL_BUILD_ERROR);
  char *log = build_log(failed);
  ASSERT_TRUE(strlen(log) > 0);
  free(log);
  ASSERT_TRUE(clCreateKernel(failed, "vadd", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(failed);
  clReleaseProgram(user);
  clReleaseProgram(uncompiled);
  clReleaseProgram(foreign);
  clReleaseContext(ctx);
  clReleaseContext(other);
}

/* The compile runs in the background; the callback may release the
 * program (the build holds its own reference meanwhile). */
static void CL_CALLBACK release_on_notify(cl_program p, void *user_data)
{
  on_built(p, user_data);
  clReleaseProgram(p);
}

TEST(compile_with_callback)
{
  cl_context ctx = tl_context();
  char *src = unique_source(lib_src);
  cl_program p = source_program(ctx, src);
  notify_state s = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, 0};
  ASSERT_OK(clRetainProgram(p)); /* the callback's */
  ASSERT_OK(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, release_on_notify, &s));
  wait_notify(&s);
  ASSERT_TRUE(s.program == p);
  ASSERT_EQ(s.status_seen, CL_BUILD_SUCCESS);
  ASSERT_EQ(binary_type(p), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  free(src);
}

TEST(link_with_callback)
{
  cl_context ctx = tl_context();
  cl_program user = compiled_user(ctx), lib = source_program(ctx, lib_src);
  ASSERT_OK(clCompileProgram(lib, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  cl_program inputs[2] = {user, lib};
  notify_state s = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, 0};
  cl_int err;
  cl_program exe = clLinkProgram(ctx, 0, NULL, NULL, 2, inputs, on_built, &s, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(exe != NULL);
  wait_notify(&s);
  ASSERT_TRUE(s.program == exe);
  ASSERT_EQ(s.status_seen, CL_BUILD_SUCCESS);
  run_linked(ctx, exe);
  clReleaseProgram(exe);
  clReleaseProgram(user);
  clReleaseProgram(lib);
  clReleaseContext(ctx);
}

/* ---------------------------------------------------------------------------
 * Binaries
 * ------------------------------------------------------------------------- */

/* Run by binary_round_trip in another process (the test binary again). */
TEST(binary_child)
{
  const char *path = getenv("LANECL_TEST_BINARY_FILE");
  if (!path)
    return; /* only meaningful when started by binary_round_trip */
  FILE *f = fopen(path, "rb");
  ASSERT_TRUE(f != NULL);
  static unsigned char bin[1 << 24];
  size_t size = fread(bin, 1, sizeof(bin), f);
  fclose(f);
  ASSERT_TRUE(size > 0 && size < sizeof(bin));
  cl_context ctx = tl_context();
  cl_int err, status = -1;
  cl_program p = binary_program(ctx, bin, size, &status, &err);
  ASSERT_OK(err);
  ASSERT_OK(status);
  ASSERT_EQ(build_status(p), CL_BUILD_NONE);
  ASSERT_EQ(binary_type(p), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  /* Kernels need clBuildProgram first. */
  ASSERT_TRUE(clCreateKernel(p, "vadd", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROGRAM_EXECUTABLE);
  ASSERT_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  ASSERT_EQ(build_status(p), CL_BUILD_SUCCESS);
  run_vadd(ctx, p, 1000);
  /* An executable binary that holds its kernels' code runs without the compiler. */
  ASSERT_TRUE(!maps_contain("libLLVM"));
  ASSERT_TRUE(!maps_contain("liblanecl_cc"));
  /* Its own binary is the same bytes. */
  size_t size2;
  unsigned char *again = program_binary(p, &size2);
  ASSERT_EQ(size2, size);
  ASSERT_TRUE(!memcmp(again, bin, size));
  free(again);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

TEST(binary_round_trip_in_another_process)
{
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, vadd_src, NULL);
  run_vadd(ctx, p, 1000);  /* launched: a staged build's binary has its code */
  size_t size;
  unsigned char *bin = program_binary(p, &size);
  char path[] = "/tmp/lanecl-binary-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(fd >= 0);
  ASSERT_EQ(write(fd, bin, size), (ssize_t)size);
  close(fd);
  /* Resolve the executable before fork: under valgrind, exec of the magic
   * /proc/self/exe link would start the tool instead of this test. */
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
  ASSERT_TRUE(len > 0);
  self[len] = 0;
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    setenv("LANECL_TEST_BINARY_FILE", path, 1);
    char *args[] = {"test_program", "binary_child", NULL};
    execv(self, args);
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  unlink(path);
  ASSERT_TRUE(WIFEXITED(st));
  ASSERT_EQ(WEXITSTATUS(st), 0);
  free(bin);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* FNV-1a 64, the container's checksum (compiler/lanecl_cc.h). */
static uint64_t fnv1a(const unsigned char *p, size_t n)
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

TEST(binary_invalid)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_program good = tl_build(ctx, vadd_src, NULL);
  size_t size;
  unsigned char *bin = program_binary(good, &size);
  cl_int err, status;

  /* garbage */
  unsigned char garbage[256];
  for (size_t i = 0; i < sizeof(garbage); i++)
    garbage[i] = (unsigned char)(i * 37 + 11);
  status = 12345;
  ASSERT_TRUE(binary_program(ctx, garbage, sizeof(garbage), &status, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_BINARY);
  ASSERT_CL(status, CL_INVALID_BINARY);
  /* the magic alone, a truncated container, one flipped byte */
  ASSERT_TRUE(binary_program(ctx, (const unsigned char *)"LANECLB", 8, &status, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_BINARY);
  ASSERT_TRUE(binary_program(ctx, bin, size / 2, &status, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_BINARY);
  ASSERT_CL(status, CL_INVALID_BINARY);
  ASSERT_TRUE(binary_program(ctx, bin, size - 1, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_BINARY);
  unsigned char *copy = malloc(size);
  memcpy(copy, bin, size);
  copy[size / 3] ^= 0x40;
  ASSERT_TRUE(binary_program(ctx, copy, size, &status, &err) == NULL);
  ASSERT_CL(status, CL_INVALID_BINARY);
  /* a well-formed container for another device: other device key (bytes
   * 16..23), checksum recomputed */
  memcpy(copy, bin, size);
  copy[16] ^= 0x5a;
  uint64_t h = fnv1a(copy, size - 8);
  for (int i = 0; i < 8; i++)
    copy[size - 8 + i] = (unsigned char)(h >> (8 * i));
  ASSERT_TRUE(binary_program(ctx, copy, size, &status, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_BINARY);
  ASSERT_CL(status, CL_INVALID_BINARY);
  free(copy);

  /* argument errors */
  size_t zero = 0;
  const unsigned char *null_bin = NULL;
  ASSERT_TRUE(clCreateProgramWithBinary(ctx, 1, &dev, &zero, (const unsigned char **)&bin, &status, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_CL(status, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateProgramWithBinary(ctx, 1, &dev, &size, &null_bin, &status, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_CL(status, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateProgramWithBinary(ctx, 1, &dev, NULL, (const unsigned char **)&bin, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateProgramWithBinary(ctx, 1, &dev, &size, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateProgramWithBinary(ctx, 0, &dev, &size, (const unsigned char **)&bin, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateProgramWithBinary(ctx, 1, NULL, &size, (const unsigned char **)&bin, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_device_id not_dev = (cl_device_id)ctx;
  ASSERT_TRUE(clCreateProgramWithBinary(ctx, 1, &not_dev, &size, (const unsigned char **)&bin, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);
  ASSERT_TRUE(clCreateProgramWithBinary(NULL, 1, &dev, &size, (const unsigned char **)&bin, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);

  /* The good one still loads (and has no source). */
  cl_program p = binary_program(ctx, bin, size, &status, &err);
  ASSERT_OK(err);
  char src[4] = "x";
  size_t ssize;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof(src), src, &ssize));
  ASSERT_EQ(ssize, 1);
  ASSERT_STREQ(src, "");
  ASSERT_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  run_vadd(ctx, p, 33);
  clReleaseProgram(p);
  free(bin);
  clReleaseProgram(good);
  clReleaseContext(ctx);
}

/* A compiled object loaded as a binary links into an executable. */
TEST(binary_object_links)
{
  cl_context ctx = tl_context();
  cl_program user = compiled_user(ctx), lib = source_program(ctx, lib_src);
  ASSERT_OK(clCompileProgram(lib, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  size_t usize, lsize;
  unsigned char *ubin = program_binary(user, &usize), *lbin = program_binary(lib, &lsize);
  cl_int err, status;
  cl_program ub = binary_program(ctx, ubin, usize, &status, &err);
  ASSERT_OK(err);
  cl_program lb = binary_program(ctx, lbin, lsize, &status, &err);
  ASSERT_OK(err);
  cl_program inputs[2] = {ub, lb};
  cl_program exe = clLinkProgram(ctx, 0, NULL, NULL, 2, inputs, NULL, NULL, &err);
  ASSERT_OK(err);
  run_linked(ctx, exe);
  clReleaseProgram(exe);
  clReleaseProgram(ub);
  clReleaseProgram(lb);
  clReleaseProgram(user);
  clReleaseProgram(lib);
  free(ubin);
  free(lbin);
  clReleaseContext(ctx);
}

/* ---------------------------------------------------------------------------
 * The on-disk cache.  Each test sets its own cache directory before the first
 * OpenCL call of its process (the runtime reads it once).
 * ------------------------------------------------------------------------- */

static char *private_cache_dir(void)
{
  /* Static, not malloc'ed: forked children that _exit must not leak it. */
  static char dir[64];
  snprintf(dir, sizeof(dir), "/tmp/lanecl-cache-test-XXXXXX");
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  setenv("LANECL_CACHE_DIR", dir, 1);
  return dir;
}

/* The cache entries in dir (names into out, at most max); returns how many. */
static int cache_entries(const char *dir, char out[][512], int max)
{
  DIR *d = opendir(dir);
  ASSERT_TRUE(d != NULL);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len > 5 && !strcmp(e->d_name + len - 5, ".lclb")) {
      if (n < max)
        snprintf(out[n], 512, "%s/%s", dir, e->d_name);
      n++;
    }
  }
  closedir(d);
  return n;
}

static void remove_dir(const char *dir)
{
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  char path[1024];
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  rmdir(dir);
}

/* In a child process (its own runtime, LANECL_LLVM_ARGS set to llvm_args
 * unless NULL): build src and run it; exits 0 on success. */
static pid_t build_in_child_with(const char *src, const char *llvm_args)
{
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    if (llvm_args)
      setenv("LANECL_LLVM_ARGS", llvm_args, 1);
    cl_context ctx = tl_context();
    cl_program p = tl_build(ctx, src, NULL);
    run_vadd(ctx, p, 256);
    clReleaseProgram(p);
    clReleaseContext(ctx);
    _exit(0);
  }
  return pid;
}

static pid_t build_in_child(const char *src)
{
  return build_in_child_with(src, NULL);
}

static void wait_ok(pid_t pid)
{
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  ASSERT_TRUE(WIFEXITED(st));
  ASSERT_EQ(WEXITSTATUS(st), 0);
}

TEST(cache_hit_builds_without_llvm)
{
  char *dir = private_cache_dir();
  char *src = unique_source(vadd_src);
  wait_ok(build_in_child(src));
  char entries[4][512];
  ASSERT_EQ(cache_entries(dir, entries, 4), 1);
  /* Same source, options, device: the cache answers, LLVM never loads. */
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, src, NULL);
  run_vadd(ctx, p, 1000);
  ASSERT_TRUE(!maps_contain("libLLVM"));
  ASSERT_TRUE(!maps_contain("liblanecl_cc"));
  /* Other options are another entry (and need the compiler). */
  cl_program q = tl_build(ctx, src, "-cl-opt-disable");
  run_vadd(ctx, q, 10);
  ASSERT_EQ(cache_entries(dir, entries, 4), 2);
  ASSERT_TRUE(maps_contain("libLLVM"));
  clReleaseProgram(p);
  clReleaseProgram(q);
  clReleaseContext(ctx);
  remove_dir(dir);
  (void)dir;
  free(src);
}

/* ---- A staged build: each kernel's code made at its first launch ---- */

/* Runs kernel `name` of two_kernels_src's program over 64 work-items and
 * returns what its last one wrote ("first": 1, "second": 42). */
static int run_one_of_two(cl_context ctx, cl_program p, const char *name)
{
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  ASSERT_OK(err);
  cl_mem buf = clCreateBuffer(ctx, 0, 64 * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(buf), &buf));
  int v = 42, out[64] = {0};
  if (!strcmp(name, "second"))
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(v), &v));
  cl_command_queue q = tl_queue(ctx, 0);
  size_t n = 64;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  for (int i = 0; i < 63; i++)
    ASSERT_EQ(out[i], out[63]);
  clReleaseCommandQueue(q);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  return out[63];
}

/* A kernel gets its code at its first launch, and the cache entry keeps it:
 * the next process runs that kernel without LLVM, and compiles only a kernel
 * that no process had launched (created is not enough: applications create
 * every kernel of their programs at start-up and use a few). */
TEST(staged_build_makes_code_for_the_kernels_launched)
{
  setenv("LANECL_CC_LAZY", "1", 1);
  char *dir = private_cache_dir();
  char *src = unique_source(two_kernels_src);
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {  /* builds, creates both kernels, runs "first" only */
    cl_context ctx = tl_context();
    cl_program p = tl_build(ctx, src, NULL);
    cl_int err;
    cl_kernel second = clCreateKernel(p, "second", &err);
    if (!second || err != CL_SUCCESS)
      _exit(4);
    if (run_one_of_two(ctx, p, "first") != 1)
      _exit(2);
    clReleaseKernel(second);
    _exit(0);
  }
  wait_ok(pid);
  char entries[4][512];
  ASSERT_EQ(cache_entries(dir, entries, 4), 1);
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, src, NULL);
  ASSERT_EQ(run_one_of_two(ctx, p, "first"), 1);
  ASSERT_TRUE(!maps_contain("libLLVM"));  /* "first" had its code in the entry */
  clReleaseProgram(p);
  pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {  /* "second" has no code in the entry: made here */
    cl_context c2 = tl_context();
    cl_program p2 = tl_build(c2, src, NULL);
    if (run_one_of_two(c2, p2, "second") != 42)
      _exit(2);
    _exit(maps_contain("libLLVM") ? 0 : 3);
  }
  wait_ok(pid);
  /* and stored: now this process runs both without LLVM */
  p = tl_build(ctx, src, NULL);
  ASSERT_EQ(run_one_of_two(ctx, p, "second"), 42);
  ASSERT_EQ(run_one_of_two(ctx, p, "first"), 1);
  ASSERT_TRUE(!maps_contain("libLLVM"));
  clReleaseProgram(p);
  clReleaseContext(ctx);
  ASSERT_EQ(cache_entries(dir, entries, 4), 1);
  remove_dir(dir);
  free(src);
}

/* Run by run_binary_in_child in a new process (the test binary again, so
 * that no compiler is loaded yet): loads the binary of
 * LANECL_TEST_STAGED_BINARY, launches "first" and "second" (only "first"
 * under LANECL_TEST_STAGED_FIRST_ONLY); writes to
 * LANECL_TEST_STAGED_RESULT a bit per kernel that ran right (1: first,
 * 2: second), 8 when a launch failed other than with CL_OUT_OF_RESOURCES,
 * 16 when LLVM was loaded (a kernel's code was made). */
TEST(staged_binary_child)
{
  const char *path = getenv("LANECL_TEST_STAGED_BINARY");
  if (!path)
    return; /* only meaningful when started by run_binary_in_child */
  FILE *f = fopen(path, "rb");
  ASSERT_TRUE(f != NULL);
  static unsigned char bin[1 << 24];
  size_t size = fread(bin, 1, sizeof(bin), f);
  fclose(f);
  const unsigned char *bp = bin;
  cl_context c2 = tl_context();
  cl_device_id dev = tl_device();
  cl_int err, status;
  cl_program b = clCreateProgramWithBinary(c2, 1, &dev, &size, &bp, &status, &err);
  ASSERT_OK(err);
  ASSERT_OK(clBuildProgram(b, 0, NULL, NULL, NULL, NULL));
  cl_command_queue q = tl_queue(c2, 0);
  cl_mem buf = clCreateBuffer(c2, 0, 64 * sizeof(int), NULL, &err);
  int code = 0;
  int nk = getenv("LANECL_TEST_STAGED_FIRST_ONLY") ? 1 : 2;
  for (int k = 0; k < nk; k++) {
    cl_kernel kk = clCreateKernel(b, k ? "second" : "first", &err);
    ASSERT_OK(err);
    int v = 42, out[64] = {0};
    clSetKernelArg(kk, 0, sizeof(buf), &buf);
    if (k)
      clSetKernelArg(kk, 1, sizeof(v), &v);
    size_t n = 64;
    err = clEnqueueNDRangeKernel(q, kk, 1, NULL, &n, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS) {
      clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL);
      if (out[0] == (k ? 42 : 1) && out[63] == out[0])
        code |= 1 << k;
    } else if (err != CL_OUT_OF_RESOURCES) {
      code |= 8;
    }
    clReleaseKernel(kk);
  }
  if (maps_contain("libLLVM"))
    code |= 16;
  FILE *r = fopen(getenv("LANECL_TEST_STAGED_RESULT"), "w");
  ASSERT_TRUE(r != NULL);
  fprintf(r, "%d\n", code);
  fclose(r);
}

/* staged_binary_child's result for the binary, in a new process whose
 * compiler is unusable when without_cc, launching "first" alone when
 * first_only. */
static int run_binary_in_child(const unsigned char *bin, size_t size, bool without_cc, bool first_only)
{
  char path[] = "/tmp/lanecl-binary-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(fd >= 0);
  ASSERT_EQ(write(fd, bin, size), (ssize_t)size);
  close(fd);
  char self[4096];  /* resolved before fork: see binary_round_trip_in_another_process */
  ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
  ASSERT_TRUE(len > 0);
  self[len] = 0;
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  char result[sizeof(path) + 4];
  snprintf(result, sizeof(result), "%s.out", path);
  if (pid == 0) {
    setenv("LANECL_TEST_STAGED_BINARY", path, 1);
    setenv("LANECL_TEST_STAGED_RESULT", result, 1);
    if (without_cc)
      setenv("LANECL_COMPILER", "/nonexistent/liblanecl_cc.so", 1);
    if (first_only)
      setenv("LANECL_TEST_STAGED_FIRST_ONLY", "1", 1);
    char *args[] = {"test_program", "staged_binary_child", NULL};
    execv(self, args);
    _exit(127);
  }
  int st, code = -1;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  unlink(path);
  ASSERT_TRUE(WIFEXITED(st));
  ASSERT_EQ(WEXITSTATUS(st), 0);
  FILE *r = fopen(result, "r");
  ASSERT_TRUE(r != NULL);
  ASSERT_EQ(fscanf(r, "%d", &code), 1);
  fclose(r);
  unlink(result);
  return code;
}

/* CL_PROGRAM_BINARIES of a whole build (LANECL_CC_LAZY=0) holds every
 * kernel's code: it runs in a process without the compiler.  A staged
 * build's binary holds the code of the kernels launched before it was
 * first asked for, and the same bytes afterwards (an application sizes its
 * buffer, then copies: a launch in between must not change it); the
 * process that loads it makes the other kernels' code at their launch. */
TEST(program_binaries_hold_the_code_made_so_far)
{
  setenv("LANECL_CACHE_DIR", "off", 1);
  setenv("LANECL_CC_LAZY", "0", 1);
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, two_kernels_src, NULL);
  size_t size;
  unsigned char *bin = program_binary(p, &size);
  ASSERT_EQ(run_binary_in_child(bin, size, true, false), 3);
  free(bin);
  clReleaseProgram(p);

  setenv("LANECL_CC_LAZY", "1", 1);
  p = tl_build(ctx, two_kernels_src, NULL);  /* no kernel launched */
  bin = program_binary(p, &size);
  ASSERT_EQ(run_binary_in_child(bin, size, true, false), 0);
  ASSERT_EQ(run_binary_in_child(bin, size, false, false), 3 | 16);
  free(bin);
  clReleaseProgram(p);

  p = tl_build(ctx, two_kernels_src, NULL);
  ASSERT_EQ(run_one_of_two(ctx, p, "first"), 1);
  bin = program_binary(p, &size);  /* "first" has code */
  ASSERT_EQ(run_binary_in_child(bin, size, true, false), 1);
  ASSERT_EQ(run_one_of_two(ctx, p, "second"), 42);
  size_t again = 0;  /* "second" got its code since: the binary is the same */
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(again), &again, NULL));
  ASSERT_EQ(again, size);
  unsigned char *bin2 = program_binary(p, &again);
  ASSERT_EQ(again, size);
  ASSERT_TRUE(!memcmp(bin, bin2, size));
  free(bin2);
  free(bin);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* The code made for a staged binary's kernels, in the process that took
 * the binary (after it did) or in one that loaded it, goes to the cache
 * entry of that binary: the next process that loads the same binary runs
 * them without LLVM.  darktable keeps its programs as binaries taken right
 * after the build, and its sources #include headers, which no source key
 * covers: without this, every start compiled again what it launched. */
TEST(staged_binary_code_is_cached)
{
  setenv("LANECL_CC_LAZY", "1", 1);
  char *dir = private_cache_dir();
  char *src = unique_source(two_kernels_src);
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, src, NULL);
  size_t size;
  unsigned char *bin = program_binary(p, &size);  /* no code yet */
  ASSERT_EQ(run_one_of_two(ctx, p, "first"), 1);  /* code made here, after */
  clReleaseProgram(p);
  clReleaseContext(ctx);
  ASSERT_EQ(run_binary_in_child(bin, size, false, true), 1);        /* "first" from the cache */
  ASSERT_EQ(run_binary_in_child(bin, size, false, false), 3 | 16);  /* "second" made, stored */
  ASSERT_EQ(run_binary_in_child(bin, size, false, false), 3);       /* both from the cache */
  free(bin);
  remove_dir(dir);
  free(src);
}

/* A staged executable given as a binary (here the container of a cache
 * entry, which has no kernel's code) in a process without the compiler: the
 * kernels are created, and the launch of one without code fails with
 * CL_OUT_OF_RESOURCES and says why, in the build log too. */
TEST(staged_kernel_without_the_compiler_fails_cleanly)
{
  setenv("LANECL_CC_LAZY", "1", 1);
  char *dir = private_cache_dir();
  char *src = unique_source(two_kernels_src);
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {  /* builds, creates no kernel: the entry has no code */
    cl_context ctx = tl_context();
    cl_program p = tl_build(ctx, src, NULL);
    clReleaseProgram(p);
    _exit(0);
  }
  wait_ok(pid);
  char entries[1][512];
  ASSERT_EQ(cache_entries(dir, entries, 1), 1);
  FILE *f = fopen(entries[0], "rb");
  ASSERT_TRUE(f != NULL);
  static unsigned char entry[1 << 22];
  size_t size = fread(entry, 1, sizeof(entry), f);
  fclose(f);
  ASSERT_TRUE(size > 16 && size < sizeof(entry));
  /* the entry's header length is the u32 at byte 12 (runtime/cache.c) */
  uint32_t hdr = entry[12] | entry[13] << 8 | entry[14] << 16 | (uint32_t)entry[15] << 24;
  ASSERT_TRUE(hdr < size);
  const unsigned char *bin = entry + hdr;
  size_t bin_size = size - hdr;
  setenv("LANECL_CACHE_DIR", "off", 1);
  setenv("LANECL_COMPILER", "/nonexistent/liblanecl_cc.so", 1);
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_int err, status;
  cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &bin_size, &bin, &status, &err);
  ASSERT_OK(err);
  ASSERT_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  cl_kernel k = clCreateKernel(p, "first", &err);
  ASSERT_OK(err);
  cl_mem buf = clCreateBuffer(ctx, 0, 64 * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(buf), &buf));
  cl_command_queue q = tl_queue(ctx, 0);
  size_t n = 64;
  for (int i = 0; i < 2; i++) {  /* and again: the same answer, no crash */
    cl_event ev = NULL;
    ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &ev), CL_OUT_OF_RESOURCES);
    ASSERT_TRUE(ev == NULL);
  }
  ASSERT_OK(clFinish(q));
  char *log = build_log(p);
  ASSERT_TRUE(strstr(log, "not available") != NULL);
  ASSERT_TRUE(strstr(log, "first") != NULL);
  free(log);
  cl_kernel ks[2];
  cl_uint nks = 0;
  ASSERT_OK(clCreateKernelsInProgram(p, 2, ks, &nks));
  ASSERT_EQ(nks, 2);
  size_t sizes[1];  /* its binary: the container as given */
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(sizes), sizes, NULL));
  ASSERT_EQ(sizes[0], bin_size);
  for (int i = 0; i < 2; i++) {
    cl_uint nargs = 0;
    int v = 7;
    ASSERT_OK(clGetKernelInfo(ks[i], CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
    ASSERT_OK(clSetKernelArg(ks[i], 0, sizeof(buf), &buf));
    if (nargs == 2)
      ASSERT_OK(clSetKernelArg(ks[i], 1, sizeof(v), &v));
    ASSERT_CL(clEnqueueTask(q, ks[i], 0, NULL, NULL), CL_OUT_OF_RESOURCES);
  }
  clReleaseKernel(ks[0]);
  clReleaseKernel(ks[1]);
  clReleaseKernel(k);
  clReleaseMemObject(buf);
  clReleaseCommandQueue(q);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  remove_dir(dir);
  free(src);
}

/* A writable program-scope variable is one object for every kernel of the
 * program, whichever kernel was created first. */
TEST(staged_build_shares_program_scope_variables)
{
  setenv("LANECL_CACHE_DIR", "off", 1);
  setenv("LANECL_CC_LAZY", "1", 1);
  static const char src[] =
      "global int shared_value;\n"
      "__kernel void set(int v) { if (get_global_id(0) == 0) shared_value = v; }\n"
      "__kernel void get(__global int *o) { o[get_global_id(0)] = shared_value; }\n";
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, src, "-cl-std=CL3.0");
  cl_command_queue q = tl_queue(ctx, 0);
  cl_int err;
  cl_kernel set = clCreateKernel(p, "set", &err);
  ASSERT_OK(err);
  int v = 1234;
  ASSERT_OK(clSetKernelArg(set, 0, sizeof(v), &v));
  size_t one = 1, n = 16;
  ASSERT_OK(clEnqueueNDRangeKernel(q, set, 1, NULL, &one, NULL, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  cl_kernel get = clCreateKernel(p, "get", &err);  /* created after "set" ran */
  ASSERT_OK(err);
  cl_mem buf = clCreateBuffer(ctx, 0, n * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(get, 0, sizeof(buf), &buf));
  ASSERT_OK(clEnqueueNDRangeKernel(q, get, 1, NULL, &n, NULL, 0, NULL, NULL));
  int out[16];
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  ASSERT_EQ(out[0], 1234);
  ASSERT_EQ(out[15], 1234);
  clReleaseMemObject(buf);
  clReleaseKernel(get);
  clReleaseKernel(set);
  clReleaseCommandQueue(q);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

typedef struct {
  cl_context ctx;
  cl_program p;
  const char *name;
  int got;
} kernel_maker;

static void *make_and_run(void *arg)
{
  kernel_maker *m = arg;
  m->got = run_one_of_two(m->ctx, m->p, m->name);
  return NULL;
}

/* Host threads creating the kernels of one staged program at once. */
TEST(staged_build_kernels_created_by_several_threads)
{
  setenv("LANECL_CACHE_DIR", "off", 1);
  setenv("LANECL_CC_LAZY", "1", 1);
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, two_kernels_src, NULL);
  enum { T = 4 };
  pthread_t t[T];
  kernel_maker m[T];
  for (int i = 0; i < T; i++) {
    m[i] = (kernel_maker){ctx, p, i % 2 ? "second" : "first", 0};
    ASSERT_EQ(pthread_create(&t[i], NULL, make_and_run, &m[i]), 0);
  }
  for (int i = 0; i < T; i++) {
    pthread_join(t[i], NULL);
    ASSERT_EQ(m[i].got, i % 2 ? 42 : 1);
  }
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* Without the compiler a build says why it can't. */
TEST(compiler_not_available)
{
  setenv("LANECL_CACHE_DIR", "off", 1);
  setenv("LANECL_COMPILER", "/nonexistent/liblanecl_cc.so", 1);
  cl_context ctx = tl_context();
  cl_program q = source_program(ctx, vadd_src);
  ASSERT_CL(clBuildProgram(q, 0, NULL, NULL, NULL, NULL), CL_COMPILER_NOT_AVAILABLE);
  ASSERT_EQ(build_status(q), CL_BUILD_ERROR);
  char *log = build_log(q);
  ASSERT_TRUE(strstr(log, "not available") != NULL);
  ASSERT_TRUE(strstr(log, "/nonexistent/liblanecl_cc.so") != NULL);
  free(log);
  ASSERT_CL(clCompileProgram(q, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_COMPILER_NOT_AVAILABLE);
  clReleaseProgram(q);
  clReleaseContext(ctx);
}

static void damage_and_rebuild(bool truncate_it)
{
  char *dir = private_cache_dir();
  char *src = unique_source(vadd_src);
  wait_ok(build_in_child(src));
  char entries[4][512];
  ASSERT_EQ(cache_entries(dir, entries, 4), 1);
  struct stat st;
  ASSERT_EQ(stat(entries[0], &st), 0);
  off_t full = st.st_size;
  if (truncate_it) {
    ASSERT_EQ(truncate(entries[0], full / 2), 0);
  } else {
    int fd = open(entries[0], O_WRONLY);
    ASSERT_TRUE(fd >= 0);
    ASSERT_EQ(pwrite(fd, "garbage!", 8, full / 2), 8);
    close(fd);
  }
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, src, NULL);
  run_vadd(ctx, p, 999);
  /* It was rebuilt (the compiler ran) and the entry is whole again. */
  ASSERT_TRUE(maps_contain("libLLVM"));
  ASSERT_EQ(cache_entries(dir, entries, 4), 1);
  ASSERT_EQ(stat(entries[0], &st), 0);
  ASSERT_EQ(st.st_size, full);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  remove_dir(dir);
  (void)dir;
  free(src);
}

/* LANECL_LLVM_ARGS changes the code: a process with other LLVM options
 * compiles the program anew, and one with the same options hits. */
TEST(cache_key_follows_llvm_args)
{
  char *dir = private_cache_dir();
  char *src = unique_source(vadd_src);
  char entries[4][512];
  const char *args[] = {NULL, "-unroll-threshold=10", "-unroll-threshold=10"};
  const int want[] = {1, 2, 2};
  for (int i = 0; i < 3; i++) {
    wait_ok(build_in_child_with(src, args[i]));
    ASSERT_EQ(cache_entries(dir, entries, 4), want[i]);
  }
  remove_dir(dir);
  free(src);
}

TEST(cache_truncated_entry_is_rebuilt)
{
  damage_and_rebuild(true);
}

TEST(cache_corrupt_entry_is_rebuilt)
{
  damage_and_rebuild(false);
}

TEST(cache_concurrent_processes)
{
  char *dir = private_cache_dir();
  char *src = unique_source(vadd_src);
  pid_t pids[3];
  for (int i = 0; i < 3; i++)
    pids[i] = build_in_child(src);
  for (int i = 0; i < 3; i++)
    wait_ok(pids[i]);
  char entries[4][512];
  ASSERT_EQ(cache_entries(dir, entries, 4), 1);
  /* No temporary file left behind, and the entry is good. */
  DIR *d = opendir(dir);
  int files = 0;
  for (struct dirent *e; (e = readdir(d));)
    files += e->d_name[0] != '.';
  closedir(d);
  ASSERT_EQ(files, 1);
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, src, NULL);
  run_vadd(ctx, p, 64);
  ASSERT_TRUE(!maps_contain("libLLVM"));
  clReleaseProgram(p);
  clReleaseContext(ctx);
  remove_dir(dir);
  (void)dir;
  free(src);
}

TEST(cache_off)
{
  char *dir = private_cache_dir();
  setenv("LANECL_CACHE_DIR", "off", 1);
  cl_context ctx = tl_context();
  char *src = unique_source(vadd_src);
  cl_program p = tl_build(ctx, src, NULL);
  run_vadd(ctx, p, 64);
  char entries[4][512];
  ASSERT_EQ(cache_entries(dir, entries, 4), 0);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  remove_dir(dir);
  (void)dir;
  free(src);
}

/* One int from kernel k of p (o[0] = ...). */
static int run_int_kernel(cl_context ctx, cl_program p)
{
  cl_int err;
  cl_command_queue q = tl_queue(ctx, 0);
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(b), &b));
  size_t one = 1;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
  int v = 0;
  ASSERT_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(v), &v, 0, NULL, NULL));
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  return v;
}

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  ASSERT_TRUE(f != NULL);
  fputs(text, f);
  fclose(f);
}

/* A program that reads other files (#include, __has_include)
 * built again after those files changed is the new program: the cache key
 * holds the source and options, not the files. */
TEST(cache_edited_header_gives_the_new_program)
{
  char *dir = private_cache_dir();
  char hdr_dir[128], hdr[192], opts[256];
  snprintf(hdr_dir, sizeof(hdr_dir), "%s/inc", dir);
  ASSERT_EQ(mkdir(hdr_dir, 0700), 0);
  snprintf(hdr, sizeof(hdr), "%s/v.h", hdr_dir);
  snprintf(opts, sizeof(opts), "-I%s", hdr_dir);
  cl_context ctx = tl_context();
  static const char *const srcs[] = {
      "#include \"v.h\"\nkernel void k(global int *o) { o[0] = V; }\n",
      "  /* a directive after blanks and a comment */ # /**/ include <v.h>\nkernel void k(global int *o) { o[0] = V + 10; }\n",
      "#if __has_include(\"v.h\")\n#include \"v.h\"\n#else\n#define V 7\n#endif\nkernel void k(global int *o) { o[0] = V + 20; }\n",
  };
  for (int s = 0; s < 3; s++)
    for (int v = 1; v <= 2; v++) {
      char text[32];
      snprintf(text, sizeof(text), "#define V %d\n", v);
      write_file(hdr, text);
      cl_program p = tl_build(ctx, srcs[s], opts);
      int got = run_int_kernel(ctx, p);
      if (got != v + 10 * s)
        tl_fail(__FILE__, __LINE__, "source %d with the header at V %d: got %d, want %d (an old program from the cache?)",
                s, v, got, v + 10 * s);
      clReleaseProgram(p);
    }
  /* __has_include follows the file's existence */
  unlink(hdr);
  cl_program p = tl_build(ctx, srcs[2], opts);
  ASSERT_EQ(run_int_kernel(ctx, p), 27);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  rmdir(hdr_dir);
  remove_dir(dir);
}

/* clGetPlatformIDs and device queries never load the compiler. */
TEST(platform_queries_do_not_load_llvm)
{
  cl_context ctx = tl_context();
  char name[256];
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_NAME, sizeof(name), name, NULL));
  cl_program p = source_program(ctx, vadd_src);
  ASSERT_TRUE(!maps_contain("libLLVM"));
  ASSERT_TRUE(!maps_contain("liblanecl_cc"));
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* ---------------------------------------------------------------------------
 * Several host threads building and running at once
 * ------------------------------------------------------------------------- */

typedef struct thread_arg {
  cl_context ctx;
  cl_command_queue shared_q;
  int index;
} thread_arg;

static void *builder_thread(void *p)
{
  thread_arg *a = p;
  cl_int err;
  char body[512];
  snprintf(body, sizeof(body),
           "__kernel void fill(__global int *o, int v) { o[get_global_id(0)] = v + %d * (int)get_global_id(0); }\n",
           a->index % 2);
  /* Half the threads build the same source, half distinct ones. */
  char *src = a->index % 2 ? strdup(body) : unique_source(body);
  for (int round = 0; round < 3; round++) {
    cl_program prog = tl_build(a->ctx, src, NULL);
    cl_kernel k = clCreateKernel(prog, "fill", &err);
    ASSERT_OK(err);
    enum { N = 4096 };
    cl_mem buf = clCreateBuffer(a->ctx, 0, N * sizeof(int), NULL, &err);
    ASSERT_OK(err);
    int v = a->index * 1000 + round;
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
    size_t n = N;
    cl_command_queue q = round == 1 ? tl_queue(a->ctx, 0) : a->shared_q;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    static __thread int out[N];
    ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
      ASSERT_EQ(out[i], v + (a->index % 2) * i);
    if (q != a->shared_q)
      clReleaseCommandQueue(q);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
  }
  free(src);
  return NULL;
}

TEST(threads_build_and_enqueue)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  enum { T = 6 };
  pthread_t t[T];
  thread_arg args[T];
  for (int i = 0; i < T; i++) {
    args[i] = (thread_arg){ctx, q, i};
    ASSERT_EQ(pthread_create(&t[i], NULL, builder_thread, &args[i]), 0);
  }
  for (int i = 0; i < T; i++)
    pthread_join(t[i], NULL);
  ASSERT_OK(clFinish(q));
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* One program built by several threads at once: one build runs, the others
 * are refused while it does, and it ends built. */
static void *racing_build(void *p)
{
  cl_program prog = p;
  cl_int err = clBuildProgram(prog, 0, NULL, NULL, NULL, NULL);
  ASSERT_TRUE(err == CL_SUCCESS || err == CL_INVALID_OPERATION);
  return NULL;
}

TEST(threads_build_one_program)
{
  cl_context ctx = tl_context();
  char *src = unique_source(vadd_src);
  cl_program p = source_program(ctx, src);
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    ASSERT_EQ(pthread_create(&t[i], NULL, racing_build, p), 0);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  ASSERT_EQ(build_status(p), CL_BUILD_SUCCESS);
  run_vadd(ctx, p, 128);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  free(src);
}

/* Regression: each executable's native code is its own module, also when
 * the file descriptor it was loaded through would be reused (glibc knows a
 * module by its path /proc/self/fd/N). */
TEST(many_programs_loaded_at_once)
{
  cl_context ctx = tl_context();
  enum { P = 6 };
  cl_program progs[P];
  for (int i = 0; i < P; i++) {
    char src[256];
    snprintf(src, sizeof(src), "__kernel void k%d(__global int *o) { o[get_global_id(0)] = %d; }\n", i, i * 11);
    progs[i] = tl_build(ctx, src, NULL);
  }
  cl_command_queue q = tl_queue(ctx, 0);
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, 0, 16 * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  for (int i = P - 1; i >= 0; i--) {
    char name[16];
    snprintf(name, sizeof(name), "k%d", i);
    cl_kernel k = clCreateKernel(progs[i], name, &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
    size_t n = 16;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    int out[16];
    ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    ASSERT_EQ(out[15], i * 11);
    clReleaseKernel(k);
  }
  for (int i = 0; i < P; i++)
    clReleaseProgram(progs[i]);
  clReleaseMemObject(buf);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

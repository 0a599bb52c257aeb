#include "tests/testlib.h"

#include <setjmp.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

#define TL_MAX 512
static struct { const char *name; tl_fn fn; } tests[TL_MAX];
static int ntests;

void tl_register(const char *name, tl_fn fn)
{
  if (ntests < TL_MAX) {
    tests[ntests].name = name;
    tests[ntests].fn = fn;
    ntests++;
  }
}

void tl_fail(const char *file, int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  fflush(stderr);
  exit(1);
}

/* Under TL_NOFORK a skip returns to main (the other tests still run). */
static jmp_buf skip_jmp;
static int skip_jmp_set;

void tl_skip(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "  skipped: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  fflush(stdout);
  fflush(stderr);
  if (skip_jmp_set)
    longjmp(skip_jmp, 1);
  _exit(TL_SKIP_CODE);
}

/* Runs fn in this process; 1 if it skipped. */
static int run_here(tl_fn fn)
{
  skip_jmp_set = 1;
  if (setjmp(skip_jmp)) {
    skip_jmp_set = 0;
    return 1;
  }
  fn();
  skip_jmp_set = 0;
  return 0;
}

const char *tl_cl_error_name(cl_int err)
{
  switch (err) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH)
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
    E(CL_DEVICE_PARTITION_FAILED) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
    E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR)
    E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE)
    E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL_DEFINITION)
    E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT) E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_MIP_LEVEL) E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY)
    E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS) E(CL_INVALID_LINKER_OPTIONS)
    E(CL_INVALID_DEVICE_PARTITION_COUNT) E(CL_INVALID_PIPE_SIZE) E(CL_INVALID_DEVICE_QUEUE)
    E(CL_INVALID_SPEC_ID) E(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef E
  default: return "(unknown CL error)";
  }
}

int tl_sweep_type(const char *type)
{
  const char *mode = getenv("TL_TYPES");
  return !(mode && !strcmp(mode, "signed") && type[0] == 'u');
}

cl_platform_id tl_platform(void)
{
  static cl_platform_id found;
  if (found)
    return found;
  cl_uint n = 0;
  cl_platform_id ids[16];
  cl_int err = clGetPlatformIDs(16, ids, &n);
  if (err != CL_SUCCESS)
    tl_fail(__FILE__, __LINE__, "clGetPlatformIDs: %s", tl_cl_error_name(err));
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[256] = "";
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
    if (!strcmp(name, "LaneCL"))
      return found = ids[i];
  }
  tl_fail(__FILE__, __LINE__, "no LaneCL platform among %u (is OCL_ICD_VENDORS set?)", n);
}

cl_device_id tl_device(void)
{
  cl_device_id dev;
  cl_int err = clGetDeviceIDs(tl_platform(), CL_DEVICE_TYPE_CPU, 1, &dev, NULL);
  if (err != CL_SUCCESS)
    tl_fail(__FILE__, __LINE__, "clGetDeviceIDs: %s", tl_cl_error_name(err));
  /* A run for a target of LANECL_SIMD_BITS that the device is not (wider
   * than the host: an AVX-512 target on an AVX2 host) checks nothing. */
  const char *sb = getenv("LANECL_SIMD_BITS");
  cl_uint lanes = 0;
  if (sb && *sb && clGetDeviceInfo(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof(lanes), &lanes, NULL) == CL_SUCCESS &&
      lanes * 32 != (cl_uint)atoi(sb))
    tl_skip("LANECL_SIMD_BITS=%s: the device runs %u-bit vectors on this host", sb, lanes * 32);
  return dev;
}

cl_context tl_context(void)
{
  cl_int err;
  cl_device_id dev = tl_device();
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (err != CL_SUCCESS || !ctx)
    tl_fail(__FILE__, __LINE__, "clCreateContext: %s", tl_cl_error_name(err));
  return ctx;
}

cl_command_queue tl_queue(cl_context ctx, cl_command_queue_properties props)
{
  cl_int err;
  cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, props, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, tl_device(), props ? qp : NULL, &err);
  if (err != CL_SUCCESS || !q)
    tl_fail(__FILE__, __LINE__, "clCreateCommandQueueWithProperties: %s", tl_cl_error_name(err));
  return q;
}

cl_program tl_build(cl_context ctx, const char *src, const char *options)
{
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  if (err != CL_SUCCESS)
    tl_fail(__FILE__, __LINE__, "clCreateProgramWithSource: %s", tl_cl_error_name(err));
  cl_device_id dev = tl_device();
  err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
    tl_fail(__FILE__, __LINE__, "clBuildProgram: %s\n%s", tl_cl_error_name(err), log);
  }
  return p;
}

int tl_binary_contains(cl_program p, const char *text)
{
  size_t size = 0, tl = strlen(text);
  cl_int err = clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL);
  if (err != CL_SUCCESS)
    tl_fail(__FILE__, __LINE__, "CL_PROGRAM_BINARY_SIZES: %s", tl_cl_error_name(err));
  unsigned char *bin = malloc(size ? size : 1);
  if (!bin)
    tl_fail(__FILE__, __LINE__, "out of memory");
  if ((err = clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL)) != CL_SUCCESS)
    tl_fail(__FILE__, __LINE__, "CL_PROGRAM_BINARIES: %s", tl_cl_error_name(err));
  int found = 0;
  for (size_t k = 0; !found && k + tl <= size; k++)
    found = !memcmp(bin + k, text, tl);
  free(bin);
  return found;
}

/* Runs every registered test (or those named on the command line) in a forked
 * child; prints one line per test and the closing "N passed, N failed". */
int main(int argc, char **argv)
{
  int passed = 0, failed = 0, skipped = 0;
  int nofork = getenv("TL_NOFORK") != NULL;
  /* TL_SKIP=name,name: tests that can't run in this mode (e.g. those that need
   * a fresh process per test, under TL_NOFORK). */
  const char *skip = getenv("TL_SKIP");
  for (int i = 0; i < ntests; i++) {
    if (argc > 1) {
      int want = 0;
      for (int a = 1; a < argc; a++)
        want |= !strcmp(argv[a], tests[i].name);
      if (!want)
        continue;
    }
    if (skip) {
      size_t len = strlen(tests[i].name);
      const char *p = skip;
      int listed = 0;
      while ((p = strstr(p, tests[i].name))) {
        if ((p == skip || p[-1] == ',') && (p[len] == ',' || p[len] == 0))
          listed = 1;
        p += len;
      }
      if (listed) {
        printf("SKIP %s\n", tests[i].name);
        skipped++;
        continue;
      }
    }
    int ok, skip = 0;
    if (nofork) {
      skip = run_here(tests[i].fn);
      ok = 1;
    } else {
      fflush(stdout);
      fflush(stderr);
      pid_t pid = fork();
      if (pid == 0) {
        tests[i].fn();
        fflush(stdout);
        _exit(0);
      }
      int st = 0;
      waitpid(pid, &st, 0);
      skip = WIFEXITED(st) && WEXITSTATUS(st) == TL_SKIP_CODE;
      ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
      if (WIFSIGNALED(st))
        fprintf(stderr, "  (killed by signal %d)\n", WTERMSIG(st));
    }
    if (skip) {
      printf("SKIP %s\n", tests[i].name);
      skipped++;
      continue;
    }
    printf("%s %s\n", ok ? "PASS" : "FAIL", tests[i].name);
    ok ? passed++ : failed++;
  }
  printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? 1 : !passed && skipped ? TL_SKIP_CODE : 0;
}

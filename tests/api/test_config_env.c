/* The LANECL_* variables through the ICD, as an application sets them: at
 * start-up the runtime reports a bad value under LANECL_DEBUG=err and uses
 * the default, and warns about a LANECL_* name it does not read. */
#define _GNU_SOURCE 1
#include <sys/wait.h>
#include <unistd.h>

#include "tests/testlib.h"

/* Runs LaneCL's start-up in a child with the given environment and
 * stderr into a file; returns what it wrote, and the device's native int
 * vector width in *lanes. */
static char *start_child(const char *const *env, cl_uint *lanes)
{
  static char out[65536];
  if (getenv("TL_NOFORK"))
    tl_skip("TL_NOFORK: the runtime may already run in this process");
  char path[] = "/tmp/lanecl-config-env-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(fd >= 0);
  unlink(path);
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  fflush(stderr);
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    dup2(fd, 2);
    for (size_t i = 0; env[i]; i += 2)
      setenv(env[i], env[i + 1], 1);
    cl_device_id dev; /* not tl_device(): it skips a run for another LANECL_SIMD_BITS */
    cl_uint n = 0;
    if (clGetDeviceIDs(tl_platform(), CL_DEVICE_TYPE_CPU, 1, &dev, NULL) != CL_SUCCESS)
      _exit(4);
    if (clGetDeviceInfo(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof(n), &n, NULL) != CL_SUCCESS)
      _exit(2);
    if (write(pipefd[1], &n, sizeof(n)) != sizeof(n))
      _exit(3);
    fflush(stderr);
    _exit(0);
  }
  close(pipefd[1]);
  int st = 0;
  waitpid(pid, &st, 0);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    ssize_t n = pread(fd, out, sizeof(out) - 1, 0);
    out[n > 0 ? n : 0] = 0;
    tl_fail(__FILE__, __LINE__, "child failed (status %d):\n%s", st, out);
  }
  ASSERT_EQ(read(pipefd[0], lanes, sizeof(*lanes)), sizeof(*lanes));
  close(pipefd[0]);
  ssize_t n = pread(fd, out, sizeof(out) - 1, 0);
  close(fd);
  out[n > 0 ? n : 0] = 0;
  return out;
}

static unsigned count(const char *hay, const char *needle)
{
  unsigned n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

TEST(bad_value_reported_once_and_default_used)
{
  cl_uint lanes_default = 0, lanes = 0;
  static const char *const plain[] = {NULL};
  start_child(plain, &lanes_default);
  static const char *const env[] = {"LANECL_DEBUG", "err", "LANECL_SIMD_BITS", "300",
                                    "LANECL_MEM_PLACE", "sometimes", NULL};
  char *log = start_child(env, &lanes);
  /* LANECL_SIMD_BITS=300: not a width; the device keeps its own. */
  ASSERT_EQ(lanes, lanes_default);
  if (count(log, "LaneCL: LANECL_SIMD_BITS=300: not one of 128/256/512; the default, the host's, is used\n") != 1 ||
      count(log, "LaneCL: LANECL_MEM_PLACE=sometimes: not one of 0/auto/always; the default, auto, is used\n") != 1)
    tl_fail(__FILE__, __LINE__, "expected each bad value reported once, log:\n%s", log);
  /* Without LANECL_DEBUG=err: not a word. */
  static const char *const quiet[] = {"LANECL_DEBUG", "api", "LANECL_SIMD_BITS", "300", NULL};
  log = start_child(quiet, &lanes);
  ASSERT_EQ(lanes, lanes_default);
  if (strstr(log, "LANECL_SIMD_BITS"))
    tl_fail(__FILE__, __LINE__, "reported without LANECL_DEBUG=err:\n%s", log);
}

TEST(unknown_name_warned)
{
  cl_uint lanes;
  static const char *const env[] = {"LANECL_DEBUG", "api", "LANECL_NUM_THREDS", "2", "LANECL_TEST_WHATEVER", "1", NULL};
  char *log = start_child(env, &lanes);
  if (count(log, "LaneCL: warning: LANECL_NUM_THREDS is not a LaneCL variable") != 1)
    tl_fail(__FILE__, __LINE__, "expected one warning about LANECL_NUM_THREDS, log:\n%s", log);
  if (strstr(log, "LANECL_TEST_WHATEVER"))
    tl_fail(__FILE__, __LINE__, "warned about a LANECL_TEST_ name:\n%s", log);
  static const char *const quiet[] = {"LANECL_NUM_THREDS", "2", NULL};
  log = start_child(quiet, &lanes);
  if (strstr(log, "LANECL_NUM_THREDS"))
    tl_fail(__FILE__, __LINE__, "warned without LANECL_DEBUG:\n%s", log);
}

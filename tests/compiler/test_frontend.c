/* The front end's clang processes (compiler/cc_frontend.c): after a build a
 * spare clang waits for the next one's arguments; builds from it give the
 * same results and logs; a spare that died is replaced without a SIGPIPE; a
 * spare exits with the process that started it; a process forked by the
 * application holds none of the spare's pipes (or the next build would wait
 * for that process to exit).  Each test runs in its own forked process
 * (testlib), so each starts without a spare. */
#define _GNU_SOURCE
#include "tests/compiler/cc_test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static const char good[] = "kernel void k(global int *p) { p[get_global_id(0)] = 7; }\n";
static const char bad[] = "kernel void k(global int *p)\n{\n  p[0] = undeclared_thing;\n}\n";
static const char bad_diag[] = "<source>:3:10: error: use of undeclared identifier 'undeclared_thing'";

static int build(const char *src, char **log)
{
  cc_blob out = {0};
  int rc = ct_api()->build(ct_dev(), src, "", &out, log);
  cc_blob_free(&out);
  return rc;
}

/* State letter of process pid ('R', 'S', 'Z', ...), its parent and command
 * name; 0 when there is no such process. */
static char proc_state(pid_t pid, pid_t *ppid, char *comm, size_t ncomm)
{
  char path[64], buf[512];
  snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  size_t n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = 0;
  char *open = strchr(buf, '('), *close = strrchr(buf, ')');
  if (!open || !close || close[1] != ' ')
    return 0;
  if (comm)
    snprintf(comm, ncomm, "%.*s", (int)(close - open - 1), open + 1);
  char state = close[2];
  if (ppid)
    *ppid = (pid_t)atoi(close + 4);
  return state;
}

/* The live (not zombie) clang children of this process: how many, the last
 * one's pid in *pid. */
static int live_clang_children(pid_t *pid)
{
  int count = 0;
  DIR *d = opendir("/proc");
  if (!d)
    tl_fail(__FILE__, __LINE__, "no /proc");
  struct dirent *e;
  while ((e = readdir(d))) {
    pid_t p = (pid_t)atoi(e->d_name);
    pid_t ppid = 0;
    char comm[64] = "";
    if (p <= 0)
      continue;
    char st = proc_state(p, &ppid, comm, sizeof(comm));
    if (st && st != 'Z' && st != 'X' && ppid == getpid() && !strncmp(comm, "clang", 5)) {
      count++;
      *pid = p;
    }
  }
  closedir(d);
  return count;
}

/* Waits up to 10 s for exactly one live clang child; returns its pid. */
static pid_t the_spare(void)
{
  pid_t pid = 0;
  for (int i = 0; i < 1000; i++) {
    if (live_clang_children(&pid) == 1)
      return pid;
    usleep(10000);
  }
  tl_fail(__FILE__, __LINE__, "no spare clang process (%d live clang children)", live_clang_children(&pid));
}

TEST(a_spare_waits_after_each_build)
{
  pid_t none = 0;
  ASSERT_EQ(live_clang_children(&none), 0);
  char *log = NULL;
  ASSERT_EQ(build(good, &log), CC_OK);
  free(log);
  pid_t first = the_spare();
  ASSERT_EQ(build(good, &log), CC_OK);
  free(log);
  /* the build used the spare (reaped since), and left another */
  ASSERT_EQ(proc_state(first, NULL, NULL, 0), 0);
  pid_t second = the_spare();
  ASSERT_NE(second, first);
}

TEST(logs_from_a_spare_are_the_same)
{
  char *first = NULL;
  ASSERT_EQ(build(bad, &first), CC_BUILD_FAILED);  /* a clang started for it */
  ASSERT_CONTAINS(first, bad_diag);
  for (int i = 0; i < 3; i++) {
    the_spare();
    char *log = NULL;
    ASSERT_EQ(build(bad, &log), CC_BUILD_FAILED);
    ASSERT_STREQ(log, first);
    free(log);
    ASSERT_EQ(build(good, &log), CC_OK);
    free(log);
  }
  free(first);
}

TEST(a_dead_spare_is_replaced)
{
  char *log = NULL;
  ASSERT_EQ(build(good, &log), CC_OK);
  free(log);
  pid_t spare = the_spare();
  ASSERT_EQ(kill(spare, SIGKILL), 0);
  for (int i = 0; i < 1000 && proc_state(spare, NULL, NULL, 0) != 'Z'; i++)
    usleep(10000);
  ASSERT_EQ(proc_state(spare, NULL, NULL, 0), 'Z');
  /* Writing the arguments to the dead spare fails (EPIPE, and no SIGPIPE
   * ends this process): a new clang builds, with its log. */
  ASSERT_EQ(build(bad, &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, bad_diag);
  free(log);
  ASSERT_EQ(proc_state(spare, NULL, NULL, 0), 0);  /* reaped */
  ASSERT_EQ(build(good, &log), CC_OK);
  free(log);
}

TEST(a_spare_exits_with_its_process)
{
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  pid_t child = fork();
  ASSERT_TRUE(child >= 0);
  if (child == 0) {
    char *log = NULL;
    pid_t spare = build(good, &log) == CC_OK ? the_spare() : 0;
    if (write(fds[1], &spare, sizeof(spare)) != sizeof(spare))
      _exit(2);
    _exit(0);
  }
  close(fds[1]);
  pid_t spare = 0;
  ASSERT_EQ(read(fds[0], &spare, sizeof(spare)), (ssize_t)sizeof(spare));
  close(fds[0]);
  int st = 0;
  ASSERT_EQ(waitpid(child, &st, 0), child);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  ASSERT_TRUE(spare > 0);
  /* Orphaned, it reads end-of-file instead of arguments and exits. */
  char state = 'S';
  for (int i = 0; i < 1000 && (state = proc_state(spare, NULL, NULL, 0)) && state != 'Z'; i++)
    usleep(10000);
  if (state && state != 'Z')
    tl_fail(__FILE__, __LINE__, "the orphaned spare clang %d is still running (state %c)", (int)spare, state);
}

TEST(a_forked_process_does_not_hold_up_builds)
{
  char *log = NULL;
  ASSERT_EQ(build(good, &log), CC_OK);
  free(log);
  the_spare();
  int go[2];
  ASSERT_EQ(pipe2(go, O_CLOEXEC), 0);
  pid_t child = fork();
  ASSERT_TRUE(child >= 0);
  if (child == 0) {
    /* Builds with its own clang, then stays until told (at most 20 s)
     * with whatever it inherited open. */
    close(go[1]);
    char *clog = NULL;
    int rc = build(good, &clog);
    struct pollfd p = {go[0], POLLIN, 0};
    poll(&p, 1, 20000);
    _exit(rc == CC_OK ? 0 : 1);
  }
  close(go[0]);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int rc = build(good, &log);  /* from the spare the child inherited */
  clock_gettime(CLOCK_MONOTONIC, &t1);
  close(go[1]);
  free(log);
  int st = 0;
  ASSERT_EQ(waitpid(child, &st, 0), child);
  ASSERT_EQ(rc, CC_OK);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  if (s > 10.0)
    tl_fail(__FILE__, __LINE__, "the build waited %.1f s for the forked process", s);
}

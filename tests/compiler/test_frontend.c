/* The front end's clang fork server (compiler/cc_frontend.c,
 * compiler/forkserver/): one clang process, with liblanecl_forkserver.so
 * loaded, serves every build of the process that started it; builds through
 * it give the same results and logs; a compile killed by a signal fails its
 * build and leaves the server; a server that died is replaced without a
 * SIGPIPE; the server exits with the process that started it; a process
 * forked by the application holds none of its pipes or its socket (or the
 * next build would wait for that process to exit).  Each test runs in its
 * own forked process (testlib), so each starts without a server. */
#define _GNU_SOURCE
#include "tests/compiler/cc_test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
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
static pid_t the_server(void)
{
  pid_t pid = 0;
  for (int i = 0; i < 1000; i++) {
    if (live_clang_children(&pid) == 1)
      return pid;
    usleep(10000);
  }
  tl_fail(__FILE__, __LINE__, "no clang fork server (%d live clang children)", live_clang_children(&pid));
}

/* Whether process pid has liblanecl_forkserver.so mapped. */
static int has_server_library(pid_t pid)
{
  char path[64], line[1024];
  snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  int found = 0;
  while (!found && fgets(line, sizeof(line), f))
    found = strstr(line, "/liblanecl_forkserver.so") != NULL;
  fclose(f);
  return found;
}

TEST(one_server_serves_every_build)
{
  pid_t none = 0;
  ASSERT_EQ(live_clang_children(&none), 0);
  char *log = NULL;
  ASSERT_EQ(build(good, &log), CC_OK);
  free(log);
  pid_t server = the_server();
  ASSERT_TRUE(has_server_library(server));
  for (int i = 0; i < 3; i++) {
    ASSERT_EQ(build(good, &log), CC_OK);
    free(log);
    /* the compile was the server's grandchild: still one clang child, the same */
    ASSERT_EQ(the_server(), server);
  }
}

TEST(logs_through_the_server_are_the_same)
{
  char *first = NULL;
  ASSERT_EQ(build(bad, &first), CC_BUILD_FAILED);
  ASSERT_CONTAINS(first, bad_diag);
  for (int i = 0; i < 3; i++) {
    the_server();
    char *log = NULL;
    ASSERT_EQ(build(bad, &log), CC_BUILD_FAILED);
    ASSERT_STREQ(log, first);
    free(log);
    ASSERT_EQ(build(good, &log), CC_OK);
    free(log);
  }
  free(first);
}

/* clang's own debugging pragma: the compile crashes. */
TEST(a_compile_killed_by_a_signal_fails_its_build_only)
{
  char *log = NULL;
  ASSERT_EQ(build(good, &log), CC_OK);
  free(log);
  pid_t server = the_server();
  ASSERT_EQ(build("#pragma clang __debug crash\nkernel void k(global int *p) { }\n", &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "killed by signal");
  free(log);
  ASSERT_EQ(build(bad, &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, bad_diag);
  free(log);
  ASSERT_EQ(the_server(), server);
}

TEST(a_dead_server_is_replaced)
{
  char *log = NULL;
  ASSERT_EQ(build(good, &log), CC_OK);
  free(log);
  pid_t server = the_server();
  ASSERT_EQ(kill(server, SIGKILL), 0);
  for (int i = 0; i < 1000 && proc_state(server, NULL, NULL, 0) != 'Z'; i++)
    usleep(10000);
  ASSERT_EQ(proc_state(server, NULL, NULL, 0), 'Z');
  /* Handing the build to the dead server fails (EPIPE, and no SIGPIPE ends
   * this process): a new server builds, with its log. */
  ASSERT_EQ(build(bad, &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, bad_diag);
  free(log);
  ASSERT_EQ(proc_state(server, NULL, NULL, 0), 0);  /* reaped */
  pid_t next = the_server();
  ASSERT_NE(next, server);
  ASSERT_EQ(build(good, &log), CC_OK);
  free(log);
  ASSERT_EQ(the_server(), next);
}

/* A clang that never serves (tests/compiler/server_refuses.c, preloaded
 * beside the server library, exits before the server's loop, maybe after
 * the build was handed to it): every build still succeeds or fails on its
 * own source, through a new server or a clang of its own; after three
 * servers lost in a row the process starts no more. */
TEST(a_process_gives_up_the_server_after_three_lost)
{
  const char *dir = getenv("LANECL_BUILD_DIR");
  if (!dir)
    tl_skip("LANECL_BUILD_DIR is not set");
  char lib[PATH_MAX], starts[] = "/tmp/lanecl-test-starts-XXXXXX";
  snprintf(lib, sizeof(lib), "%s/liblanecl_test_server_refuses.so", dir);
  ASSERT_EQ(access(lib, R_OK), 0);
  int fd = mkstemp(starts);
  ASSERT_TRUE(fd >= 0);
  close(fd);
  /* for the clang processes this one starts (this process is running) */
  setenv("LD_PRELOAD", lib, 1);
  setenv("LANECL_TEST_SERVER_STARTS", starts, 1);
  for (int i = 0; i < 6; i++) {
    char *log = NULL;
    if (i & 1) {
      ASSERT_EQ(build(bad, &log), CC_BUILD_FAILED);
      ASSERT_CONTAINS(log, bad_diag);
    } else if (build(good, &log) != CC_OK) {
      tl_fail(__FILE__, __LINE__, "build %d failed:\n%s", i, log ? log : "(no log)");
    }
    free(log);
  }
  struct stat st;
  ASSERT_EQ(stat(starts, &st), 0);
  unlink(starts);
  ASSERT_EQ((long)st.st_size, 3L);
  pid_t any;
  ASSERT_EQ(live_clang_children(&any), 0);
}

TEST(a_server_exits_with_its_process)
{
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  pid_t child = fork();
  ASSERT_TRUE(child >= 0);
  if (child == 0) {
    char *log = NULL;
    pid_t server = build(good, &log) == CC_OK ? the_server() : 0;
    if (write(fds[1], &server, sizeof(server)) != sizeof(server))
      _exit(2);
    _exit(0);
  }
  close(fds[1]);
  pid_t server = 0;
  ASSERT_EQ(read(fds[0], &server, sizeof(server)), (ssize_t)sizeof(server));
  close(fds[0]);
  int st = 0;
  ASSERT_EQ(waitpid(child, &st, 0), child);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  ASSERT_TRUE(server > 0);
  /* Orphaned, it reads end-of-file on its socket and exits. */
  char state = 'S';
  for (int i = 0; i < 1000 && (state = proc_state(server, NULL, NULL, 0)) && state != 'Z'; i++)
    usleep(10000);
  if (state && state != 'Z')
    tl_fail(__FILE__, __LINE__, "the orphaned clang fork server %d is still running (state %c)", (int)server, state);
}

TEST(a_forked_process_does_not_hold_up_builds)
{
  char *log = NULL;
  ASSERT_EQ(build(good, &log), CC_OK);
  free(log);
  the_server();
  int go[2];
  ASSERT_EQ(pipe2(go, O_CLOEXEC), 0);
  pid_t child = fork();
  ASSERT_TRUE(child >= 0);
  if (child == 0) {
    /* Builds with its own server, then stays until told (at most 20 s)
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
  int rc = build(good, &log);  /* through the server the child inherited (and closed) */
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

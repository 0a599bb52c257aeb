/* The compiler's temporary directories (they hold the program's source):
 * none is left behind when the process exits in the middle of a build, and
 * those of processes that died without exiting are removed later. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/testlib.h"

static char *private_tmpdir(void)
{
  static char dir[64];
  snprintf(dir, sizeof(dir), "/tmp/lanecl-tmpdir-test-XXXXXX");
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  return dir;
}

/* Entries of dir whose name starts with prefix. */
static int count_prefixed(const char *dir, const char *prefix)
{
  DIR *d = opendir(dir);
  ASSERT_TRUE(d != NULL);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += !strncmp(e->d_name, prefix, strlen(prefix));
  closedir(d);
  return n;
}

static void remove_tree(const char *dir)
{
  char cmd[256];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  ASSERT_EQ(system(cmd), 0);
}

static cl_context build_ctx;

/* Builds programs until the process ends. */
static void *build_forever(void *arg)
{
  (void)arg;
  for (unsigned i = 0;; i++) {
    char src[512];
    snprintf(src, sizeof(src),
             "kernel void k%u(global float *o) { float s = 0; for (int j = 0; j < 100; j++) s += sin(o[j] * %u.0f);"
             " o[get_global_id(0)] = s; }\n", i, i);
    const char *s = src;
    cl_int err;
    cl_program p = clCreateProgramWithSource(build_ctx, 1, &s, NULL, &err);
    clBuildProgram(p, 0, NULL, "", NULL, NULL);
    clReleaseProgram(p);
  }
  return NULL;
}

TEST(exit_during_a_build_leaves_no_temporary_directory)
{
  char *tmp = private_tmpdir();
  for (int round = 0; round < 3; round++) {
    pid_t pid = fork();
    ASSERT_TRUE(pid >= 0);
    if (pid == 0) {
      alarm(60);
      setenv("TMPDIR", tmp, 1);
      setenv("LANECL_CACHE_DIR", "off", 1);
      build_ctx = tl_context();
      pthread_t t;
      pthread_create(&t, NULL, build_forever, NULL);
      /* Exit as soon as a build has made its directory. */
      for (int i = 0; i < 600000; i++) {
        if (count_prefixed(tmp, "lanecl-"))
          exit(0);
        usleep(50);
      }
      _exit(5);
    }
    int st = 0;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    /* Whatever happened to the build thread, the process exited, once it
     * saw the directory. */
    ASSERT_TRUE(!WIFEXITED(st) || WEXITSTATUS(st) != 5);
    ASSERT_EQ(count_prefixed(tmp, "lanecl-"), 0);
  }
  remove_tree(tmp);
}

/* A directory of a process that is gone and that hasn't changed for a
 * while (the process was killed during a build) is removed by the next
 * build; a recent one, or one of a live process, stays. */
TEST(directories_of_dead_processes_are_removed)
{
  char *tmp = private_tmpdir();
  pid_t dead = fork();
  ASSERT_TRUE(dead >= 0);
  if (dead == 0)
    _exit(0);
  ASSERT_EQ(waitpid(dead, NULL, 0), dead);
  char old_dead[256], new_dead[256], live[256], file[300];
  snprintf(old_dead, sizeof(old_dead), "%s/lanecl-%d-aaaaaa", tmp, (int)dead);
  snprintf(new_dead, sizeof(new_dead), "%s/lanecl-%d-bbbbbb", tmp, (int)dead);
  snprintf(live, sizeof(live), "%s/lanecl-%d-cccccc", tmp, (int)getppid());
  const char *dirs[] = {old_dead, new_dead, live};
  for (int i = 0; i < 3; i++) {
    ASSERT_EQ(mkdir(dirs[i], 0700), 0);
    snprintf(file, sizeof(file), "%s/program.cl", dirs[i]);
    FILE *f = fopen(file, "w");
    ASSERT_TRUE(f != NULL);
    fputs("kernel void secret(void) {}\n", f);
    fclose(f);
  }
  time_t hour_ago = time(NULL) - 3600;
  struct timespec old[2] = {{hour_ago, 0}, {hour_ago, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, old_dead, old, 0), 0);
  ASSERT_EQ(utimensat(AT_FDCWD, live, old, 0), 0);
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    setenv("TMPDIR", tmp, 1);
    setenv("LANECL_CACHE_DIR", "off", 1);
    cl_context ctx = tl_context();
    cl_program p = tl_build(ctx, "kernel void k(global int *o) { o[0] = 1; }\n", "");
    clReleaseProgram(p);
    clReleaseContext(ctx);
    _exit(0);
  }
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  struct stat sb;
  ASSERT_TRUE(stat(old_dead, &sb) != 0);
  ASSERT_EQ(stat(new_dead, &sb), 0);
  ASSERT_EQ(stat(live, &sb), 0);
  ASSERT_EQ(count_prefixed(tmp, "lanecl-"), 2);
  remove_tree(tmp);
}

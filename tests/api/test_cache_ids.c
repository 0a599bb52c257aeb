/* The on-disk cache's key follows the builtins library's content: the
 * runtime reads the checksum that ends a library in shards (it does not
 * hash the 5 MB file), so a library with other content, even of the same
 * size and modification time, is another key.  Runs a private copy of the
 * driver, compiler and builtins from a temporary directory, each build in a
 * child process (the runtime reads its identities once per process). */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/testlib.h"

static const char src[] = "__kernel void k(__global int *o) { o[get_global_id(0)] = 5; }\n";

static void copy_file(const char *from, const char *to)
{
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  if (!in || !out)
    tl_fail(__FILE__, __LINE__, "copy %s -> %s", from, to);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
    ASSERT_EQ(fwrite(buf, 1, n, out), n);
  fclose(in);
  ASSERT_EQ(fclose(out), 0);
}

static int count_entries(const char *dir)
{
  DIR *d = opendir(dir);
  ASSERT_TRUE(d != NULL);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    n += len > 5 && !strcmp(e->d_name + len - 5, ".lclb");
  }
  closedir(d);
  return n;
}

/* Builds src with the driver in lib/ and the cache in cache/, in a child. */
static void build_in_child(const char *lib, const char *cache)
{
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    /* the copy is the only driver the ICD loader sees */
    char vendors[700], icd[720];
    snprintf(vendors, sizeof(vendors), "%s/vendors", lib);
    snprintf(icd, sizeof(icd), "%s/lanecl.icd", vendors);
    mkdir(vendors, 0700);
    FILE *f = fopen(icd, "w");
    if (!f)
      _exit(3);
    fprintf(f, "%s/liblanecl.so\n", lib);
    fclose(f);
    unsetenv("OCL_ICD_FILENAMES");
    setenv("OCL_ICD_VENDORS", vendors, 1);
    setenv("LANECL_CACHE_DIR", cache, 1);
    cl_context ctx = tl_context();
    cl_program p = tl_build(ctx, src, NULL);
    clReleaseProgram(p);
    clReleaseContext(ctx);
    _exit(0);
  }
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

TEST(cache_key_follows_the_builtins_checksum)
{
  const char *build = getenv("LANECL_BUILD_DIR");
  ASSERT_TRUE(build != NULL);
  char dir[] = "/tmp/lanecl-cache-ids-XXXXXX";
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  char lib[600], cache[600], from[600], to[700], bc[700];
  snprintf(lib, sizeof(lib), "%s/lib", dir);
  snprintf(cache, sizeof(cache), "%s/cache", dir);
  ASSERT_EQ(mkdir(lib, 0700), 0);
  ASSERT_EQ(mkdir(cache, 0700), 0);
  static const char *const files[] = {"liblanecl.so", "liblanecl_cc.so", "lanecl_builtins.bc"};
  for (size_t i = 0; i < 3; i++) {
    snprintf(from, sizeof(from), "%s/%s", build, files[i]);
    snprintf(to, sizeof(to), "%s/%s", lib, files[i]);
    copy_file(from, to);
  }
  snprintf(bc, sizeof(bc), "%s/lanecl_builtins.bc", lib);
  FILE *f = fopen(bc, "rb");
  char magic[8];
  ASSERT_EQ(fread(magic, 1, 8, f), 8u);
  fclose(f);
  ASSERT_TRUE(!memcmp(magic, "LANECLBS", 8));  /* the library in shards */

  build_in_child(lib, cache);
  ASSERT_EQ(count_entries(cache), 1);
  build_in_child(lib, cache);  /* same library: a hit */
  ASSERT_EQ(count_entries(cache), 1);

  /* Another checksum, same size and modification time: another key. */
  struct stat st;
  ASSERT_EQ(stat(bc, &st), 0);
  int fd = open(bc, O_WRONLY);
  ASSERT_TRUE(fd >= 0);
  unsigned char tail[8];
  int rfd = open(bc, O_RDONLY);
  ASSERT_EQ(pread(rfd, tail, 8, st.st_size - 8), 8);
  close(rfd);
  tail[0] ^= 0x5a;
  ASSERT_EQ(pwrite(fd, tail, 8, st.st_size - 8), 8);
  close(fd);
  struct timespec times[2] = {st.st_atim, st.st_mtim};
  ASSERT_EQ(utimensat(AT_FDCWD, bc, times, 0), 0);
  build_in_child(lib, cache);
  ASSERT_EQ(count_entries(cache), 2);

  char cmd[700];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  ASSERT_EQ(system(cmd), 0);
}

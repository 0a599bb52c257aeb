/* The on-disk cache's key and what it trusts.  The key follows the builtins
 * library's content (the runtime reads the checksum that ends a library in
 * shards; it does not hash the 5 MB file) and the compiler's build id, not
 * sizes and modification times.  An entry is used only when it names the
 * key asked for, is whole and is a regular file: another program's entry
 * under this name, a FIFO, a link, an entry that doesn't install are
 * ignored, compiled again and replaced.  The directory is bounded.  Builds
 * run in child processes (the runtime reads its identities, and the cache
 * directory, once per process); some run a private copy of the driver,
 * compiler and builtins from a temporary directory. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <elf.h>

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

/* ---- what an entry may be ---- */

static const char *value_src_fmt = "__kernel void k(__global int *o) { o[get_global_id(0)] = %d; }\n";

/* In a child with the build directory's driver and cache dir: builds the
 * program that writes value, runs it; exits 0 when it wrote value without
 * loading the compiler, 1 when it did with the compiler, 2 when it wrote
 * something else, 3 when the build failed. */
static int run_value_in_child(const char *cache, int value, const char *extra_env)
{
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    alarm(60); /* a build blocked on a FIFO fails here */
    setenv("LANECL_CACHE_DIR", cache, 1);
    if (extra_env)
      putenv((char *)extra_env);
    char src[256];
    snprintf(src, sizeof(src), value_src_fmt, value);
    const char *s = src;
    cl_int err;
    cl_context ctx = tl_context();
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
    if (clBuildProgram(p, 0, NULL, NULL, NULL, NULL) != CL_SUCCESS)
      _exit(3);
    cl_kernel k = clCreateKernel(p, "k", &err);
    cl_command_queue q = tl_queue(ctx, 0);
    cl_mem o = clCreateBuffer(ctx, 0, 4 * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof(o), &o);
    size_t g = 4;
    int out[4] = {0};
    if (clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL) != CL_SUCCESS)
      _exit(3);
    for (int i = 0; i < 4; i++)
      if (out[i] != value)
        _exit(2);
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096];
    int compiler = 0;
    while (maps && fgets(line, sizeof(line), maps))
      compiler |= strstr(line, "liblanecl_cc") != NULL;
    _exit(compiler);
  }
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  if (!WIFEXITED(st))
    tl_fail(__FILE__, __LINE__, "the build in the child did not finish (signal %d)", WTERMSIG(st));
  return WEXITSTATUS(st);
}

/* The one entry of dir (fails unless there is exactly one) into path. */
static void only_entry(const char *dir, char *path, size_t size)
{
  ASSERT_EQ(count_entries(dir), 1);
  DIR *d = opendir(dir);
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len > 5 && !strcmp(e->d_name + len - 5, ".lclb"))
      snprintf(path, size, "%s/%s", dir, e->d_name);
  }
  closedir(d);
}

static char *private_dir(void)
{
  static char dir[64];
  snprintf(dir, sizeof(dir), "/tmp/lanecl-cache-safe-XXXXXX");
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  return dir;
}

static void remove_tree(const char *dir)
{
  char cmd[700];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  ASSERT_EQ(system(cmd), 0);
}

static unsigned char *slurp(const char *path, size_t *size)
{
  FILE *f = fopen(path, "rb");
  ASSERT_TRUE(f != NULL);
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(*size);
  ASSERT_EQ(fread(b, 1, *size, f), *size);
  fclose(f);
  return b;
}

static void spill(const char *path, const unsigned char *b, size_t size)
{
  FILE *f = fopen(path, "wb");
  ASSERT_TRUE(f != NULL);
  ASSERT_EQ(fwrite(b, 1, size, f), size);
  ASSERT_EQ(fclose(f), 0);
}

/* Another program's entry copied under this program's name: this program
 * must still run its own kernel (it ran the other's, on every build). */
TEST(cache_entry_of_another_program_is_not_used)
{
  char *dir = private_dir();
  char a[600], b[600];
  ASSERT_EQ(run_value_in_child(dir, 1, NULL), 1);
  only_entry(dir, a, sizeof(a));
  char moved[700];
  snprintf(moved, sizeof(moved), "%s.keep", a);
  ASSERT_EQ(rename(a, moved), 0);
  ASSERT_EQ(run_value_in_child(dir, 2, NULL), 1);
  only_entry(dir, b, sizeof(b));
  copy_file(moved, b);  /* program 1's entry, named as program 2's */
  ASSERT_EQ(run_value_in_child(dir, 2, NULL), 1);  /* compiled again */
  ASSERT_EQ(run_value_in_child(dir, 2, NULL), 0);  /* and the entry replaced */
  remove_tree(dir);
}

/* A FIFO or a symbolic link in place of an entry: never opened as one (a
 * FIFO hung clBuildProgram), the program compiled and the entry replaced by
 * a regular file. */
TEST(cache_fifo_or_link_in_place_of_an_entry)
{
  char *dir = private_dir();
  char path[600], other[600], moved[700];
  ASSERT_EQ(run_value_in_child(dir, 3, NULL), 1);
  only_entry(dir, path, sizeof(path));
  ASSERT_EQ(unlink(path), 0);
  ASSERT_EQ(mkfifo(path, 0600), 0);
  ASSERT_EQ(run_value_in_child(dir, 3, NULL), 1);
  struct stat st;
  ASSERT_EQ(lstat(path, &st), 0);
  ASSERT_TRUE(S_ISREG(st.st_mode));
  ASSERT_EQ(run_value_in_child(dir, 3, NULL), 0);
  /* A link to another program's entry. */
  snprintf(moved, sizeof(moved), "%s.keep", path);
  ASSERT_EQ(rename(path, moved), 0);
  ASSERT_EQ(run_value_in_child(dir, 4, NULL), 1);
  only_entry(dir, other, sizeof(other));
  ASSERT_EQ(unlink(other), 0);
  ASSERT_EQ(symlink(moved, other), 0);
  ASSERT_EQ(run_value_in_child(dir, 4, NULL), 1);
  ASSERT_EQ(lstat(other, &st), 0);
  ASSERT_TRUE(S_ISREG(st.st_mode));
  remove_tree(dir);
}

static uint64_t fnv(const unsigned char *p, size_t n, uint64_t seed)
{
  uint64_t h = 0xcbf29ce484222325ull ^ seed;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

static void put64(unsigned char *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* An entry whose checksums are right but whose native code does not load
 * (a damaged ELF header, as a faulty disk or compiler could leave): the
 * build compiles again instead of failing every time, and replaces it. */
TEST(cache_entry_that_does_not_install_is_replaced)
{
  char *dir = private_dir();
  char path[600];
  ASSERT_EQ(run_value_in_child(dir, 5, NULL), 1);
  only_entry(dir, path, sizeof(path));
  size_t size;
  unsigned char *e = slurp(path, &size);
  /* The container: after the entry's header (if the entry has one); it
   * ends with its own checksum. */
  size_t start = 0;
  if (size > 16 && !memcmp(e, "LCLCACHE", 8))
    start = e[12] | e[13] << 8 | e[14] << 16 | (size_t)e[15] << 24;
  ASSERT_TRUE(!memcmp(e + start, "LANECLB", 8));
  unsigned char *elf = memmem(e + start, size - start, ELFMAG, SELFMAG);
  ASSERT_TRUE(elf != NULL);
  memcpy(elf, "JUNK", 4);
  put64(e + size - 8, fnv(e + start, size - start - 8, 0));
  if (start)  /* the entry's checksum: its key words, then the container */
    put64(e + 24, fnv(e + start, size - start, fnv(e + 32, start - 32, 0)));
  spill(path, e, size);
  free(e);
  ASSERT_EQ(run_value_in_child(dir, 5, NULL), 1);  /* compiled, not failed */
  ASSERT_EQ(run_value_in_child(dir, 5, NULL), 0);  /* the new entry */
  remove_tree(dir);
}

/* The cache stays within LANECL_CACHE_MAX_MB: a store evicts the least
 * recently used entries. */
TEST(cache_is_bounded)
{
  char *dir = private_dir();
  char path[700];
  static unsigned char junk[400 << 10];
  memset(junk, 0x5a, sizeof(junk));
  for (int i = 0; i < 6; i++) {
    snprintf(path, sizeof(path), "%s/%032d.lclb", dir, i);
    spill(path, junk, sizeof(junk));
    struct timespec old[2] = {{1000000000 + i, 0}, {1000000000 + i, 0}};
    ASSERT_EQ(utimensat(AT_FDCWD, path, old, 0), 0);
  }
  ASSERT_EQ(count_entries(dir), 6);  /* 2.4 MB */
  ASSERT_EQ(run_value_in_child(dir, 6, "LANECL_CACHE_MAX_MB=1"), 1);
  /* Down to 3/4 MiB: the new entry and at most one old file, the newest. */
  int left = count_entries(dir);
  ASSERT_TRUE(left >= 1 && left <= 2);
  snprintf(path, sizeof(path), "%s/%032d.lclb", dir, 0);
  ASSERT_TRUE(access(path, F_OK) != 0);
  ASSERT_EQ(run_value_in_child(dir, 6, "LANECL_CACHE_MAX_MB=1"), 0);  /* the new entry stayed */
  remove_tree(dir);
}

/* The compiler's identity is its build id: a compiler of the same size and
 * modification time but another build id is another key. */
TEST(cache_key_follows_the_compiler_build_id)
{
  const char *build = getenv("LANECL_BUILD_DIR");
  ASSERT_TRUE(build != NULL);
  char dir[] = "/tmp/lanecl-cache-ids-XXXXXX";
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  char lib[600], cache[600], from[600], to[700], cc[700];
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
  build_in_child(lib, cache);
  ASSERT_EQ(count_entries(cache), 1);
  /* Flip a byte of the build id note (the code stays as it is). */
  snprintf(cc, sizeof(cc), "%s/liblanecl_cc.so", lib);
  struct stat st;
  ASSERT_EQ(stat(cc, &st), 0);
  size_t size;
  unsigned char *b = slurp(cc, &size);
  unsigned char *note = memmem(b, size, "GNU", 4);
  while (note && !(note >= b + 12 && note[-4] == NT_GNU_BUILD_ID && note[-8] == 20))
    note = memmem(note + 1, size - (size_t)(note + 1 - b), "GNU", 4);
  ASSERT_TRUE(note != NULL);
  note[4] ^= 0xff;
  spill(cc, b, size);
  free(b);
  struct timespec times[2] = {st.st_atim, st.st_mtim};
  ASSERT_EQ(utimensat(AT_FDCWD, cc, times, 0), 0);
  build_in_child(lib, cache);
  ASSERT_EQ(count_entries(cache), 2);
  remove_tree(dir);
}

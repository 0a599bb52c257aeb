/* tools/lanecl-cc from the build tree: build, report, emit, link, and the
 * build-time --prepare-builtins step. */
#include "tests/compiler/cc_test.h"

#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs the tool with a shell-free argv; returns its exit status, output in *out. */
static int run_tool(const char *const *args, char **out)
{
  char tool[4096];
  snprintf(tool, sizeof(tool), "%s/bin/lanecl-cc", ct_build_dir());
  const char *argv[32] = {tool};
  int n = 1;
  for (; args[n - 1] && n < 31; n++)
    argv[n] = args[n - 1];
  argv[n] = NULL;
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    execv(tool, (char *const *)argv);
    _exit(127);
  }
  close(fds[1]);
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  ssize_t r;
  while ((r = read(fds[0], buf + len, cap - len - 1)) > 0) {
    len += (size_t)r;
    if (cap - len < 1024)
      buf = realloc(buf, cap *= 2);
  }
  buf[len] = 0;
  close(fds[0]);
  int st;
  waitpid(pid, &st, 0);
  *out = buf;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char dir[] = "/tmp/lanecl-tool-XXXXXX";

static const char *path(const char *name)
{
  static char p[4][512];
  static int i;
  i = (i + 1) % 4;
  snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
  return p[i];
}

static int have_dir;

static void teardown(void)
{
  if (!have_dir)
    return;
  have_dir = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      unlink(path(e->d_name));
  if (d)
    closedir(d);
  rmdir(dir);
}

/* The files go at the end of each test, and when it fails (tl_fail exits).
 * The tests that set LANECL_BUILTINS rely on running in their own process
 * (the default; not with TL_NOFORK): the library is read once per process. */
static void setup(void)
{
  strcpy(dir, "/tmp/lanecl-tool-XXXXXX");
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  have_dir = 1;
  static int registered;
  if (!registered++)
    atexit(teardown);
  FILE *f = fopen(path("k.cl"), "w");
  fputs("kernel void scale(global float *x, float a, local float *tmp)\n"
        "{ size_t i = get_global_id(0); tmp[get_local_id(0)] = x[i]; barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  x[i] = a * tmp[get_local_id(0)] * FACTOR; }\n",
        f);
  fclose(f);
}

TEST(build_and_report)
{
  setup();
  char *out;
  const char *a1[] = {"--report", "-D", "FACTOR=2", path("k.cl"), "-o", path("k.bin"), NULL};
  int rc = run_tool(a1, &out);
  if (rc)
    tl_fail(__FILE__, __LINE__, "lanecl-cc: %d\n%s", rc, out);
  ASSERT_CONTAINS(out, "executable, 1 kernel");
  ASSERT_CONTAINS(out, "kernel scale");
  ASSERT_CONTAINS(out, "vector width:");
  ASSERT_CONTAINS(out, "regions:");
  ASSERT_CONTAINS(out, "context bytes kept across barriers");
  ASSERT_CONTAINS(out, "arg 0: float* x  [buffer, global, 8 bytes, align 8]");
  ASSERT_CONTAINS(out, "arg 2: float* tmp  [local, local");
  free(out);
  FILE *f = fopen(path("k.bin"), "rb");
  ASSERT_TRUE(f != NULL);
  char magic[8];
  ASSERT_EQ(fread(magic, 1, 8, f), 8);
  fclose(f);
  ASSERT_TRUE(!memcmp(magic, "LANECLB", 8));
  /* Errors: the build log on stderr, status 1. */
  const char *a2[] = {"--build-options", "-DFACTOR=", path("k.cl"), "-o", path("bad.bin"), NULL};
  ASSERT_EQ(run_tool(a2, &out), 1);
  ASSERT_CONTAINS(out, "<source>:3:");
  free(out);
  const char *a3[] = {"--build-options", "-unknown", path("k.cl"), NULL};
  ASSERT_EQ(run_tool(a3, &out), 1);
  ASSERT_CONTAINS(out, "-unknown");
  free(out);
  const char *a4[] = {"--no-such-flag", NULL};
  ASSERT_EQ(run_tool(a4, &out), 2);
  free(out);
  teardown();
}

TEST(emit_ir_and_asm)
{
  setup();
  char *out;
  const char *a1[] = {"--emit-llvm", "-DFACTOR=1", path("k.cl"), NULL};
  ASSERT_EQ(run_tool(a1, &out), 0);
  ASSERT_CONTAINS(out, "spir_kernel void @scale(");
  free(out);
  const char *a2[] = {"--emit-asm", "-DFACTOR=1", path("k.cl"), NULL};
  ASSERT_EQ(run_tool(a2, &out), 0);
  ASSERT_CONTAINS(out, LANECL_WG_PREFIX "scale:");
  free(out);
  const char *a3[] = {"--emit-llvm-opt", "-DFACTOR=1", path("k.cl"), NULL};
  ASSERT_EQ(run_tool(a3, &out), 0);
  ASSERT_CONTAINS(out, "@" LANECL_WG_PREFIX "scale(");
  free(out);
  teardown();
}

TEST(damaged_builtins_library)
{
  setup();
  FILE *f = fopen(path("junk.bc"), "wb");
  fputs("LANECLBS this is not a shard index at all", f);
  fclose(f);
  ASSERT_EQ(setenv("LANECL_BUILTINS", path("junk.bc"), 1), 0);
  cc_blob bin = {0};
  char *log = NULL;
  const char *src = "kernel void k(global float *p) { p[0] = sin(p[1]); }\n";
  ASSERT_EQ(ct_api()->build(ct_dev(), src, "", &bin, &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "undefined function _Z3sinf");
  ASSERT_TRUE(bin.data == NULL);
  free(log);
  teardown();
}

TEST(compile_then_link)
{
  setup();
  char *out;
  const char *a1[] = {"-c", "-DFACTOR=3", path("k.cl"), "-o", path("k.obj"), NULL};
  ASSERT_EQ(run_tool(a1, &out), 0);
  free(out);
  const char *a2[] = {"--link", path("k.obj"), "--create-library", "-o", path("k.lib"), NULL};
  ASSERT_EQ(run_tool(a2, &out), 0);
  free(out);
  const char *a3[] = {"--link", path("k.lib"), "--report", "-o", path("k.exe"), NULL};
  int rc = run_tool(a3, &out);
  if (rc)
    tl_fail(__FILE__, __LINE__, "%s", out);
  ASSERT_CONTAINS(out, "executable, 1 kernel");
  free(out);
  teardown();
}

TEST(prepare_builtins)
{
  setup();
  /* A SPIR module from clang, as builtins/CMakeLists.txt makes them. */
  FILE *f = fopen(path("b.cl"), "w");
  fputs("float __attribute__((overloadable)) my_builtin(float x) { return x * 2.0f; }\n"
        "static float helper(float x) { return x + 1.0f; }\n"
        "float other(float x) { return helper(x); }\n"
        "int f0(int x) { return x; }\n",
        f);
  /* A chain across many shards: f199 -> f198 -> ... -> f0. */
  for (int i = 1; i < 200; i++)
    fprintf(f, "int __attribute__((noinline)) f%d(int x) { return f%d(x) + 1; }\n", i, i - 1);
  fclose(f);
  pid_t pid = fork();
  if (pid == 0) {
    execlp("clang-19", "clang-19", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL3.0",
          "-finclude-default-header", "-emit-llvm-bc", "-O2", "-x", "cl", path("b.cl"), "-o", path("b.spir.bc"),
          (char *)NULL);
    _exit(127);
  }
  int st;
  waitpid(pid, &st, 0);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  char *out;
  const char *a1[] = {"--prepare-builtins", path("b.spir.bc"), "-o", path("b.bc"), NULL};
  int rc = run_tool(a1, &out);
  if (rc)
    tl_fail(__FILE__, __LINE__, "%s", out);
  free(out);
  /* The prepared library is host code that the back end links lazily. */
  FILE *bc = fopen(path("b.bc"), "rb");
  ASSERT_TRUE(bc != NULL);
  fclose(bc);
  ASSERT_EQ(setenv("LANECL_BUILTINS", path("b.bc"), 1), 0);
  cc_blob bin;
  char *log = NULL;
  const char *src = "float __attribute__((overloadable)) my_builtin(float x);\n"
                    "kernel void k(global float *p) { p[get_global_id(0)] = my_builtin(p[get_global_id(0)]); }\n";
  rc = ct_api()->build(ct_dev(), src, "", &bin, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "%d\n%s", rc, log);
  free(log);
  char *text = NULL;
  ASSERT_EQ(ct_api()->disassemble(ct_dev(), &bin, 2, &text), CC_OK);
  /* Linked in and inlined; the unused "other" was not linked at all. */
  ASSERT_TRUE(strstr(text, "my_builtin") == NULL);
  ASSERT_TRUE(strstr(text, "other") == NULL);
  free(text);
  cc_blob_free(&bin);
  /* The chain is found shard by shard. */
  const char *chain = "int f199(int x);\nkernel void k(global int *p) { p[get_global_id(0)] = f199(p[0]); }\n";
  rc = ct_api()->build(ct_dev(), chain, "", &bin, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "%d\n%s", rc, log);
  free(log);
  cc_blob_free(&bin);
  /* Garbage in: an error, no output. */
  const char *a2[] = {"--prepare-builtins", path("b.cl"), "-o", path("bad.bc"), NULL};
  ASSERT_EQ(run_tool(a2, &out), 1);
  free(out);
  teardown();
}

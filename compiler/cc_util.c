/* The helpers every file of the compiler shares: growing strings, error
 * messages, timing, LLVM's one-time set-up and contexts with captured
 * diagnostics, temporary directories, files and subprocesses.  Nothing
 * here calls back into the compiler's passes or entry points.
 *
 * Thread safety: the process-wide state is initialised once (pthread_once:
 * LLVM's options and targets) or under tmpdir_lock (the live temporary
 * directories).
 */
#define _GNU_SOURCE
#include "compiler/cc_internal.h"
#include "config/lanecl_config.h"

#include <llvm-c/Support.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ---- strings ---- */

void cc_str_append(cc_str *b, const char *text, size_t n)
{
  if (b->oom)
    return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
      cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
      b->oom = 1;
      return;
    }
    b->s = s;
    b->cap = cap;
  }
  memcpy(b->s + b->len, text, n);
  b->len += n;
  b->s[b->len] = 0;
}

void cc_str_printf(cc_str *b, const char *fmt, ...)
{
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof(small), fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n < sizeof(small)) {
    cc_str_append(b, small, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big) {
    b->oom = 1;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  cc_str_append(b, big, (size_t)n);
  free(big);
}

char *cc_str_take(cc_str *b)
{
  char *s = b->s;
  if (!s || b->oom) {
    free(s);
    s = strdup("");
  }
  memset(b, 0, sizeof(*b));
  return s;
}

void cc_set_err(char **err, const char *fmt, ...)
{
  if (!err)
    return;
  char *s = NULL;
  va_list ap;
  va_start(ap, fmt);
  if (vasprintf(&s, fmt, ap) < 0)
    s = NULL;
  va_end(ap);
  free(*err);
  *err = s;
}

double cc_now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void cc_timing(const char *what, double since_ms)
{
  if (lc_config_num(LC_CC_TIMING))
    fprintf(stderr, "lanecl-cc: %-12s %7.2f ms\n", what, cc_now_ms() - since_ms);
}

/* Appends a message and a newline (when it lacks one) to a log. */
void cc_log_line(cc_str *log, const char *text)
{
  if (!text || !text[0])
    return;
  size_t n = strlen(text);
  cc_str_append(log, text, n);
  if (text[n - 1] != '\n')
    cc_str_append(log, "\n", 1);
}

/* ---- LLVM ---- */

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;

/* LLVM options set once per process.  -enable-vplan-native-path lets the loop
 * vectorizer take an outer loop that carries llvm.loop.vectorize.enable: the
 * lane loop of a region whose inner loops have a uniform trip count (nbody,
 * sgemm) then runs W work-items per iteration instead of staying scalar
 * (cc_wg_outer.c).  The loop vectorizer's remarks (vectorized, missed and
 * why) come to each context's diagnostic handler, which keeps those about
 * the lane loops for the kernels' reports (cc_wg_verdicts).
 *
 * -epilogue-vectorization-force-VF: a lane loop's work-items that the main
 * vector loop (W lanes, often interleaved 2-4 times) leaves over run in a
 * vector epilogue of W/2 lanes, whatever the cost model would pick (often
 * none).  Small work-groups (local size 8 or 16: no main-loop iteration at
 * all) then run vectorized instead of one work-item at a time.  Measured
 * on Zen 4 (CPU time per run, 16M ints): the Blelloch scan of lanecl-bench
 * at L=8 70 -> 61 ms, at L=16 92 -> 68 ms, a local-memory tree reduction at
 * L=16 33 -> 18 ms; L=64 and L=256 unchanged.
 *
 * -vectorize-memory-check-threshold=0: no loop that needs run-time memory
 * checks is vectorized.  With -enable-vplan-native-path on, LLVM 19's loop
 * vectorizer vectorizes an innermost loop that needs them (pointers that
 * may overlap) without them: it builds the checks, never branches on them
 * and deletes them again, and a value that other code took from them (the
 * expansion of the inner trip count reuses the outer loop's induction
 * variable that the checks created) becomes poison.  Both are wrong code:
 * the first when the accesses do overlap, the second always (CTS test_basic
 * kernel_call_kernel_function at local sizes 1 to 8 lost its inner loop).
 * Loops without such checks (lane loops, which are parallel; reductions;
 * loops over one array with constant distances) vectorize as before; the
 * native path itself never builds memory checks.  A loop that forces
 * vectorization (#pragma clang loop vectorize(enable)) has a limit of its
 * own, -pragma-vectorize-memory-check-threshold (128 by default): 0 too, or
 * such a loop is vectorized without its checks in the same way (@forced in
 * the reproducer).  LaneCL's lane loops carry the same hint but need no
 * checks (parallel accesses): the bench kernels' code is byte-identical.
 * Minimal reproducer: tests/kernels/llvm/native_path_memchecks.ll.
 * LANECL_LLVM_ARGS adds options (space separated), for experiments. */
static void llvm_init_once(void)
{
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  LLVMInitializeNativeAsmParser();
  const char *argv[32] = {"lanecl", "-enable-vplan-native-path", "-pass-remarks=loop-vectorize",
                          "-pass-remarks-missed=loop-vectorize", "-pass-remarks-analysis=loop-vectorize"};
  int argc = 5;
  static char extra[1024];
  const char *env = lc_config_str(LC_LLVM_ARGS);
  /* W/2 32-bit lanes of the device's vectors (AVX-512: 8, AVX2: 4): the
   * host's, or LANECL_SIMD_BITS's (the option is one per process); not when
   * LANECL_LLVM_ARGS sets it (an option given twice is a fatal error). */
  if (!(env && strstr(env, "epilogue-vectorization-force-VF"))) {
    char *features = LLVMGetHostCPUFeatures();
    const char *sb = lc_config_str(LC_SIMD_BITS); /* 128, 256, 512 or NULL */
    unsigned bits = features && strstr(features, "+avx512f") ? 512 : features && strstr(features, "+avx2") ? 256 : 128;
    if (sb)
      bits = (unsigned)atoi(sb);
    if (bits == 512)
      argv[argc++] = "-epilogue-vectorization-force-VF=8";
    else if (bits == 256)
      argv[argc++] = "-epilogue-vectorization-force-VF=4";
    LLVMDisposeMessage(features);
  }
  if (!(env && strstr(env, " -vectorize-memory-check-threshold")) &&
      !(env && !strncmp(env, "-vectorize-memory-check-threshold", 33)))
    argv[argc++] = "-vectorize-memory-check-threshold=0";
  if (!(env && strstr(env, "-pragma-vectorize-memory-check-threshold")))
    argv[argc++] = "-pragma-vectorize-memory-check-threshold=0";
  if (env && *env) {
    snprintf(extra, sizeof(extra), "%s", env);
    for (char *save = NULL, *tok = strtok_r(extra, " ", &save); tok && argc < 31; tok = strtok_r(NULL, " ", &save))
      argv[argc++] = tok;
  }
  LLVMParseCommandLineOptions(argc, argv, "LaneCL compiler options");
}

void cc_llvm_init(void)
{
  pthread_once(&llvm_once, llvm_init_once);
}

static void diag_handler(LLVMDiagnosticInfoRef di, void *ctx)
{
  cc_diag *d = ctx;
  LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(di);
  if (sev == LLVMDSRemark) {
    /* "file:line:column: message"; only the lane loops have a location. */
    char *text = LLVMGetDiagInfoDescription(di);
    if (text && strncmp(text, "<unknown>:", 10))
      cc_log_line(&d->remarks, text);
    LLVMDisposeMessage(text);
    return;
  }
  if (sev != LLVMDSError && sev != LLVMDSWarning)
    return;
  char *text = LLVMGetDiagInfoDescription(di);
  /* The optimizer's "loop not vectorized/unrolled: ..." warnings tell the
   * user nothing about their program (the vectorizer's report does). */
  if (sev == LLVMDSWarning && text && strstr(text, "loop not ")) {
    LLVMDisposeMessage(text);
    return;
  }
  cc_str_printf(&d->text, "%s: %s\n", sev == LLVMDSError ? "error" : "warning", text ? text : "");
  LLVMDisposeMessage(text);
  if (sev == LLVMDSError)
    d->errors++;
}

void cc_diag_note(LLVMContextRef ctx, const char *fmt, ...)
{
  if (LLVMContextGetDiagnosticHandler(ctx) != diag_handler)
    return;
  cc_diag *d = LLVMContextGetDiagnosticContext(ctx);
  char *s = NULL;
  va_list ap;
  va_start(ap, fmt);
  if (vasprintf(&s, fmt, ap) < 0)
    s = NULL;
  va_end(ap);
  if (d && s)
    cc_log_line(&d->remarks, s);
  free(s);
}

cc_diag *cc_context_diag(LLVMContextRef ctx)
{
  return LLVMContextGetDiagnosticHandler(ctx) == diag_handler ? LLVMContextGetDiagnosticContext(ctx) : NULL;
}

LLVMContextRef cc_context_create(cc_diag *d)
{
  cc_llvm_init();
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(ctx, diag_handler, d);
  return ctx;
}

/* ---- files and processes ---- */

/* Temporary directories (the source, headers and objects of a build):
 * <TMPDIR>/lanecl-<pid>-XXXXXX.  Those of this process are listed while
 * they exist, and removed when the process exits (exit() while another
 * thread builds; the library's destructor runs then), after which no new
 * one is made.  Those of processes that died without exiting (killed,
 * crashed) are removed by the next process that makes one: owned by this
 * user, their process gone, unchanged for STALE_TMPDIR_SECONDS. */
#define STALE_TMPDIR_SECONDS 600

typedef struct live_tmpdir {
  struct live_tmpdir *next;
  char path[];
} live_tmpdir;

static pthread_mutex_t tmpdir_lock = PTHREAD_MUTEX_INITIALIZER;
static live_tmpdir *live_tmpdirs;
static bool tmpdirs_closed;
static pthread_once_t tmpdir_sweep_once = PTHREAD_ONCE_INIT;

static const char *tmp_base(void)
{
  const char *base = getenv("TMPDIR");
  return base && base[0] ? base : "/tmp";
}

/* The files in path (one level), then path. */
static void remove_dir_files(const char *path)
{
  DIR *d = opendir(path);
  if (d) {
    int fd = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)))
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
        unlinkat(fd, e->d_name, 0);
    closedir(d);
  }
  rmdir(path);
}

static void sweep_stale_tmpdirs(void)
{
  const char *base = tmp_base();
  DIR *d = opendir(base);
  if (!d)
    return;
  time_t now = time(NULL);
  for (struct dirent *e; (e = readdir(d));) {
    char *end = NULL;
    if (strncmp(e->d_name, "lanecl-", 7))
      continue;
    long pid = strtol(e->d_name + 7, &end, 10);
    if (end == e->d_name + 7 || *end != '-' || pid <= 0 || pid == (long)getpid())
      continue;
    struct stat st;
    if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != geteuid() || now - st.st_mtim.tv_sec < STALE_TMPDIR_SECONDS)
      continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
      continue;
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof(path), "%s/%s", base, e->d_name) < sizeof(path))
      remove_dir_files(path);
  }
  closedir(d);
}

/* At exit another thread (or the clang server's compile) may still be
 * writing into a directory: removing its files, then the directory, lost
 * that race now and then (a file made in between, rmdir refused: the
 * directory stayed, api/test_tmpdir).  Renamed first, the directory takes
 * no new file by its path, and its files are removed under the new name
 * (lanecl-<pid>-XXXXXX.gone: a later process's sweep still knows it). */
__attribute__((destructor)) static void remove_live_tmpdirs(void)
{
  pthread_mutex_lock(&tmpdir_lock);
  tmpdirs_closed = true;
  while (live_tmpdirs) {
    live_tmpdir *t = live_tmpdirs;
    live_tmpdirs = t->next;
    char gone[PATH_MAX];
    if ((size_t)snprintf(gone, sizeof(gone), "%s.gone", t->path) < sizeof(gone) && rename(t->path, gone) == 0)
      remove_dir_files(gone);
    else
      remove_dir_files(t->path);
    free(t);
  }
  pthread_mutex_unlock(&tmpdir_lock);
}

int cc_tmpdir_create(char *path, size_t size)
{
  pthread_once(&tmpdir_sweep_once, sweep_stale_tmpdirs);
  if ((size_t)snprintf(path, size, "%s/lanecl-%ld-XXXXXX", tmp_base(), (long)getpid()) >= size) {
    errno = ENAMETOOLONG;
    return CC_INTERNAL;
  }
  live_tmpdir *t = malloc(sizeof(*t) + strlen(path) + 1);
  if (!t) {
    errno = ENOMEM;
    return CC_OUT_OF_MEMORY;
  }
  int rc = CC_INTERNAL;
  pthread_mutex_lock(&tmpdir_lock);
  if (tmpdirs_closed) {
    errno = ESHUTDOWN;
  } else if (mkdtemp(path)) {
    strcpy(t->path, path);
    t->next = live_tmpdirs;
    live_tmpdirs = t;
    t = NULL;
    rc = CC_OK;
  }
  pthread_mutex_unlock(&tmpdir_lock);
  free(t);
  return rc;
}

void cc_tmpdir_remove(const char *path)
{
  pthread_mutex_lock(&tmpdir_lock);
  for (live_tmpdir **pp = &live_tmpdirs; *pp; pp = &(*pp)->next) {
    if (!strcmp((*pp)->path, path)) {
      live_tmpdir *t = *pp;
      *pp = t->next;
      remove_dir_files(path);
      free(t);
      break;
    }
  }
  pthread_mutex_unlock(&tmpdir_lock);
}

int cc_write_file(const char *path, const void *data, size_t size)
{
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    return CC_INTERNAL;
  const char *p = data;
  while (size) {
    ssize_t n = write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      close(fd);
      return CC_INTERNAL;
    }
    p += n;
    size -= (size_t)n;
  }
  return close(fd) ? CC_INTERNAL : CC_OK;
}

int cc_read_file(const char *path, cc_blob *out)
{
  out->data = NULL;
  out->size = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return CC_INTERNAL;
  struct stat st;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    close(fd);
    return CC_INTERNAL;
  }
  size_t size = (size_t)st.st_size;
  char *buf = malloc(size ? size : 1);
  if (!buf) {
    close(fd);
    return CC_OUT_OF_MEMORY;
  }
  size_t got = 0;
  while (got < size) {
    ssize_t n = read(fd, buf + got, size - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += (size_t)n;
  }
  close(fd);
  if (got != size) {
    free(buf);
    return CC_INTERNAL;
  }
  out->data = buf;
  out->size = size;
  return CC_OK;
}

int cc_spawn(const char *const *argv, const char *cwd, char **output)
{
  cc_str out = {0};
  int fds[2];
  *output = NULL;
  /* O_CLOEXEC: a child that another thread spawns at the same time must not
   * inherit our write end, or we would wait for its end too. */
  if (pipe2(fds, O_CLOEXEC)) {
    cc_str_printf(&out, "error: cannot run %s: %s\n", argv[0], strerror(errno));
    *output = cc_str_take(&out);
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  if (cwd)
    posix_spawn_file_actions_addchdir_np(&fa, cwd);
  pid_t pid;
  int err = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (err) {
    close(fds[0]);
    cc_str_printf(&out, "error: cannot run %s: %s\n", argv[0], strerror(err));
    *output = cc_str_take(&out);
    return -1;
  }
  char buf[4096];
  for (;;) {
    ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    cc_str_append(&out, buf, (size_t)n);
  }
  close(fds[0]);
  int st = 0, rc;
  while ((rc = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
    ;
  int status;
  if (rc < 0)
    status = 0;  /* SIGCHLD ignored by the application: the caller checks the output files */
  else if (WIFEXITED(st))
    status = WEXITSTATUS(st);
  else {
    cc_str_printf(&out, "error: %s killed by signal %d\n", argv[0], WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    status = -1;
  }
  *output = cc_str_take(&out);
  return status;
}

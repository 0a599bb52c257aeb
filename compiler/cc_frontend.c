/* Front end: OpenCL build options, and OpenCL C -> SPIR bitcode through a
 * clang-19 -cc1 subprocess.
 *
 * clang runs on the spir64 triple (address spaces stay distinct, the device's
 * feature macros come from -cl-ext=) with a private temporary directory as
 * its working directory (-working-directory), which holds the source as
 * "<source>" (the name diagnostics show) and the embedded headers of
 * clCompileProgram under their include names; clang's stderr is the build
 * log, verbatim.
 *
 * Most of a clang run is its start: the dynamic linker relocating
 * libclang-cpp and libLLVM, and their static constructors (about 25 of 35 ms
 * for a small kernel).  So clang is started before it is needed, with one
 * argument, the response file @/proc/self/fd/0: it loads, then blocks
 * reading its arguments from a pipe.  A build takes that spare process,
 * writes the -cc1 arguments into the pipe and closes it; clang runs them as
 * if they were its command line.  Then the next spare is started, so that it
 * loads while this build's back end runs.  A spare whose owner process is
 * gone reads end-of-file, finds no arguments, and exits.  LANECL_CLANG_SPARE=0
 * (or no /proc) starts clang per build with its arguments on the command line.
 */
#define _GNU_SOURCE
#include "compiler/cc_internal.h"
#include "config/lanecl_config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define CC_SOURCE_NAME "<source>"
#define CC_PRELUDE_NAME "lanecl-prelude.h"
#define CC_OUTPUT_NAME "program.bc"

/* Used when the device gives no -cl-ext list: an OpenCL 3.0 full-profile CPU
 * with images. */
static const char default_cl_ext[] =
    "-all,+cl_khr_fp64,+__opencl_c_fp64,+cl_khr_fp16,+__opencl_c_int64,+cl_khr_byte_addressable_store,"
    "+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,"
    "+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics,"
    "+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,"
    "+__opencl_c_generic_address_space,+__opencl_c_program_scope_global_variables,"
    "+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst,"
    "+__opencl_c_atomic_scope_device,+__opencl_c_atomic_scope_all_devices,"
    "+__opencl_c_work_group_collective_functions,+__opencl_c_subgroups,"
    "+__opencl_c_images,+__opencl_c_read_write_images,+__opencl_c_3d_image_writes,"
    "+cl_khr_3d_image_writes,+cl_khr_depth_images,+cl_khr_image2d_from_buffer,"
    "+cl_khr_subgroup_shuffle,+cl_khr_subgroup_shuffle_relative,+cl_khr_subgroup_clustered_reduce,"
    "+cl_khr_subgroup_extended_types,+cl_khr_subgroup_rotate,+cl_khr_subgroup_ballot,"
    "+cl_khr_subgroup_non_uniform_vote,+cl_khr_subgroup_non_uniform_arithmetic,+cl_intel_required_subgroup_size";

/* ---- option strings ---- */

/* Splits an option string at blanks, as a shell would: "..." groups (with
 * \" and \\ inside), a backslash outside quotes takes the next character
 * as it is (-DS=\"text\" defines S as a string literal). */
static int tokenize(const char *s, char ***out, size_t *n)
{
  char **v = NULL;
  size_t count = 0, cap = 0;
  size_t len = s ? strlen(s) : 0;
  char *tok = malloc(len + 1);
  if (!tok)
    return CC_OUT_OF_MEMORY;
  while (s && *s) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')
      s++;
    if (!*s)
      break;
    size_t t = 0;
    while (*s && !(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')) {
      if (*s == '"') {
        s++;
        while (*s && *s != '"') {
          if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
            s++;
          tok[t++] = *s++;
        }
        if (*s == '"')
          s++;
      } else if (*s == '\\' && s[1]) {
        tok[t++] = s[1];
        s += 2;
      } else {
        tok[t++] = *s++;
      }
    }
    tok[t] = 0;
    if (count == cap) {
      cap = cap ? cap * 2 : 16;
      char **nv = realloc(v, cap * sizeof(*v));
      if (!nv)
        goto fail_oom;
      v = nv;
    }
    if (!(v[count] = strdup(tok)))
      goto fail_oom;
    count++;
  }
  free(tok);
  *out = v;
  *n = count;
  return CC_OK;

fail_oom:
  for (size_t i = 0; i < count; i++)
    free(v[i]);
  free(v);
  free(tok);
  return CC_OUT_OF_MEMORY;
}

static void free_tokens(char **v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

static int add_arg(cc_options *o, const char *a, const char *b)
{
  char **nv = realloc(o->clang_args, (o->nclang_args + 2) * sizeof(*nv));
  if (!nv)
    return CC_OUT_OF_MEMORY;
  o->clang_args = nv;
  size_t la = strlen(a), lb = b ? strlen(b) : 0;
  char *s = malloc(la + lb + 1);
  if (!s)
    return CC_OUT_OF_MEMORY;
  memcpy(s, a, la);
  if (b)
    memcpy(s + la, b, lb);
  s[la + lb] = 0;
  o->clang_args[o->nclang_args++] = s;
  return CC_OK;
}

void cc_options_free(cc_options *o)
{
  for (size_t i = 0; i < o->nclang_args; i++)
    free(o->clang_args[i]);
  free(o->clang_args);
  memset(o, 0, sizeof(*o));
}

/* Options passed to clang -cc1 unchanged. */
static const char *const passthrough[] = {
    "-cl-opt-disable", "-cl-mad-enable", "-cl-single-precision-constant",
    "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-uniform-work-group-size", "-Werror", "-w",
    "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
};
/* Accepted, and nothing to do for them on a CPU: -cl-strict-aliasing is a
 * deprecated hint, -g has no use without a debugger for JIT code, sub-groups
 * are never independent forward progress. */
static const char *const ignored[] = {"-cl-strict-aliasing", "-g", "-cl-no-subgroup-ifp"};

static int in_list(const char *s, const char *const *list, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!strcmp(s, list[i]))
      return 1;
  return 0;
}

static int parse_std(const char *v, int *std)
{
  static const struct { const char *name; int value; } stds[] = {
      {"CL1.0", 100}, {"CL1.1", 110}, {"CL1.2", 120}, {"CL2.0", 200}, {"CL3.0", 300}};
  for (size_t i = 0; i < sizeof(stds) / sizeof(stds[0]); i++)
    if (!strcmp(v, stds[i].name)) {
      *std = stds[i].value;
      return 1;
    }
  return 0;
}

static void note_math(cc_options *o, const char *t)
{
  if (!strcmp(t, "-cl-denorms-are-zero"))
    o->denorms_are_zero = 1;
  else if (!strcmp(t, "-cl-no-signed-zeros"))
    o->no_signed_zeros = 1;
  else if (!strcmp(t, "-cl-unsafe-math-optimizations"))
    o->unsafe_math = o->no_signed_zeros = 1;
  else if (!strcmp(t, "-cl-finite-math-only"))
    o->finite_math = 1;
  else if (!strcmp(t, "-cl-fast-relaxed-math"))
    o->fast_relaxed_math = o->unsafe_math = o->finite_math = o->no_signed_zeros = 1;
}

/* -I dir is made absolute: clang runs in its temporary directory. */
static int add_include(cc_options *o, const char *dir)
{
  if (dir[0] == '/')
    return add_arg(o, "-I", dir);
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof(cwd)))
    return add_arg(o, "-I", dir);
  size_t n = strlen(cwd);
  char *abs = malloc(n + strlen(dir) + 2);
  if (!abs)
    return CC_OUT_OF_MEMORY;
  sprintf(abs, "%s/%s", cwd, dir);
  int rc = add_arg(o, "-I", abs);
  free(abs);
  return rc;
}

static int ident_start(char c)
{
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int cc_parse_compile_options(const char *options, cc_options *o, char **log)
{
  memset(o, 0, sizeof(*o));
  o->cl_std = 120;  /* no -cl-std: the highest OpenCL C 1.x */
  char **tok;
  size_t ntok;
  cc_str msg = {0};
  int rc = tokenize(options, &tok, &ntok);
  if (rc != CC_OK)
    return rc;
  for (size_t i = 0; i < ntok && rc == CC_OK; i++) {
    const char *t = tok[i];
    if (!strncmp(t, "-D", 2) || !strncmp(t, "-I", 2)) {
      const char *v = t[2] ? t + 2 : (i + 1 < ntok ? tok[++i] : NULL);
      if (!v || !v[0] || (t[1] == 'D' && !ident_start(v[0]))) {
        cc_str_printf(&msg, "error: option '%s' needs %s\n", t, t[1] == 'D' ? "a macro name" : "a directory");
        rc = CC_INVALID_OPTIONS;
      } else if (t[1] == 'D') {
        rc = add_arg(o, "-D", v);
      } else {
        rc = add_include(o, v);
      }
    } else if (!strncmp(t, "-cl-std=", 8)) {
      if (!parse_std(t + 8, &o->cl_std)) {
        cc_str_printf(&msg, "error: invalid option '%s' (expected -cl-std=CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0)\n", t);
        rc = CC_INVALID_OPTIONS;
      }
    } else if (!strcmp(t, "-cl-kernel-arg-info")) {
      o->kernel_arg_info = 1;
    } else if (!strcmp(t, "-cl-denorms-are-zero")) {
      note_math(o, t);
      rc = add_arg(o, "-fdenormal-fp-math-f32=preserve-sign,preserve-sign", NULL);
    } else if (in_list(t, passthrough, sizeof(passthrough) / sizeof(passthrough[0]))) {
      note_math(o, t);
      if (!strcmp(t, "-cl-opt-disable"))
        o->opt_disable = 1;
      rc = add_arg(o, t, NULL);
    } else if (in_list(t, ignored, sizeof(ignored) / sizeof(ignored[0]))) {
      continue;
    } else {
      cc_str_printf(&msg, "error: invalid build option '%s'\n", t);
      rc = CC_INVALID_OPTIONS;
    }
  }
  free_tokens(tok, ntok);
  if (rc != CC_OK)
    cc_options_free(o);
  if (log)
    *log = cc_str_take(&msg);
  else
    free(msg.s);
  return rc;
}

int cc_parse_link_options(const char *options, cc_options *o, int *create_library, char **log)
{
  static const char *const accepted[] = {
      "-create-library", "-enable-link-options", "-cl-denorms-are-zero", "-cl-no-signed-zeros",
      "-cl-unsafe-math-optimizations", "-cl-finite-math-only", "-cl-fast-relaxed-math",
      "-cl-no-subgroup-ifp",
  };
  memset(o, 0, sizeof(*o));
  o->cl_std = 120;
  char **tok;
  size_t ntok;
  cc_str msg = {0};
  int rc = tokenize(options, &tok, &ntok);
  if (rc != CC_OK)
    return rc;
  for (size_t i = 0; i < ntok; i++) {
    if (!in_list(tok[i], accepted, sizeof(accepted) / sizeof(accepted[0]))) {
      cc_str_printf(&msg, "error: invalid link option '%s'\n", tok[i]);
      rc = CC_INVALID_OPTIONS;
      break;
    }
    if (!strcmp(tok[i], "-create-library"))
      *create_library = 1;
    note_math(o, tok[i]);
  }
  free_tokens(tok, ntok);
  if (log)
    *log = cc_str_take(&msg);
  else
    free(msg.s);
  return rc;
}

/* ---- the clang processes ---- */

/* A clang process reading its arguments from args_fd (the write end of its
 * stdin); its stdout and stderr come to out_fd. */
typedef struct clang_proc {
  pid_t pid;
  int args_fd, out_fd;
  struct clang_proc *next;  /* in `procs` while a pipe end is open here */
} clang_proc;

/* procs_lock guards `procs` (every clang_proc with a pipe end open in this
 * process, the spare included) and `spare`.  A process that the
 * application forks must not keep a pipe end of ours: clang would not see
 * the end of its arguments until that process exits.  So pipes are made
 * and closed under procs_lock, fork takes it too (pthread_atfork), and the
 * child closes them.  posix_spawn runs no fork handlers. */
static pthread_mutex_t procs_lock = PTHREAD_MUTEX_INITIALIZER;
static clang_proc *procs;
static clang_proc spare_proc;
static clang_proc *spare;        /* &spare_proc or NULL */
static pid_t spare_owner;        /* getpid() of the process that started it */
static pthread_once_t procs_once = PTHREAD_ONCE_INIT;
static int spare_mode;           /* 0: clang's arguments on its command line */

static void atfork_prepare(void)
{
  pthread_mutex_lock(&procs_lock);
}

static void atfork_parent(void)
{
  pthread_mutex_unlock(&procs_lock);
}

static void atfork_child(void)
{
  for (clang_proc *p = procs; p; p = p->next) {
    if (p->args_fd >= 0)
      close(p->args_fd);
    if (p->out_fd >= 0)
      close(p->out_fd);
  }
  procs = NULL;
  spare = NULL;
  pthread_mutex_unlock(&procs_lock);
}

static void procs_init(void)
{
  spare_mode = lc_config_num(LC_CLANG_SPARE) != 0 && access("/proc/self/fd", F_OK) == 0;
  if (spare_mode && pthread_atfork(atfork_prepare, atfork_parent, atfork_child))
    spare_mode = 0;
}

/* Under procs_lock. */
static void procs_unlink(clang_proc *p)
{
  for (clang_proc **q = &procs; *q; q = &(*q)->next)
    if (*q == p) {
      *q = p->next;
      break;
    }
  p->next = NULL;
}

/* Starts clang reading its arguments from a pipe.  Under procs_lock. */
static int proc_start(clang_proc *p, char **why)
{
  static const char *const argv[] = {LANECL_CLANG, "@/proc/self/fd/0", NULL};
  int in[2], out[2];
  p->pid = -1;
  p->args_fd = p->out_fd = -1;
  p->next = NULL;
  if (pipe2(in, O_CLOEXEC)) {
    cc_set_err(why, "error: cannot run %s: %s\n", LANECL_CLANG, strerror(errno));
    return -1;
  }
  if (pipe2(out, O_CLOEXEC)) {
    cc_set_err(why, "error: cannot run %s: %s\n", LANECL_CLANG, strerror(errno));
    close(in[0]);
    close(in[1]);
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, out[1], 2);
  pid_t pid;
  int err = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  if (err) {
    cc_set_err(why, "error: cannot run %s: %s\n", LANECL_CLANG, strerror(err));
    close(in[1]);
    close(out[0]);
    return -1;
  }
  p->pid = pid;
  p->args_fd = in[1];
  p->out_fd = out[0];
  p->next = procs;
  procs = p;
  return 0;
}

/* Writes all of text to fd: 0, or -1 with errno (EPIPE when nobody reads;
 * no SIGPIPE reaches the application). */
static int write_args(int fd, const char *text, size_t n)
{
  sigset_t pipe_set, old, pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigpending(&pending);
  int was_pending = sigismember(&pending, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  int rc = 0, saved = 0;
  while (n) {
    ssize_t w = write(fd, text, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      rc = -1;
      saved = w < 0 ? errno : EIO;
      break;
    }
    text += w;
    n -= (size_t)w;
  }
  if (rc && saved == EPIPE && !was_pending) {
    struct timespec zero = {0, 0};
    sigtimedwait(&pipe_set, NULL, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = saved;
  return rc;
}

/* Closes p's pipe ends here (args, out: which ones), under procs_lock. */
static void proc_close(clang_proc *p, int args, int out)
{
  pthread_mutex_lock(&procs_lock);
  if (args && p->args_fd >= 0) {
    close(p->args_fd);
    p->args_fd = -1;
  }
  if (out && p->out_fd >= 0) {
    close(p->out_fd);
    p->out_fd = -1;
  }
  if (p->args_fd < 0 && p->out_fd < 0)
    procs_unlink(p);
  pthread_mutex_unlock(&procs_lock);
}

/* clang's exit status: 0 when it succeeded, or when its status is unknown
 * (SIGCHLD ignored by the application: the caller checks the output file). */
static int proc_wait(clang_proc *p, cc_str *out)
{
  int st = 0, rc;
  while ((rc = waitpid(p->pid, &st, 0)) < 0 && errno == EINTR)
    ;
  if (rc < 0)
    return 0;
  if (WIFEXITED(st))
    return WEXITSTATUS(st);
  cc_str_printf(out, "error: %s killed by signal %d\n", LANECL_CLANG, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  return -1;
}

/* Gives p its arguments and collects its output; *sent = 0 when p never got
 * them (it had exited: a spare killed meanwhile), its output dropped. */
static int proc_run(clang_proc *p, const char *args, size_t nargs, cc_str *out, int *sent)
{
  *sent = write_args(p->args_fd, args, nargs) == 0;
  proc_close(p, 1, 0);
  cc_str dropped = {0};
  cc_str *to = *sent ? out : &dropped;
  char buf[4096];
  for (;;) {
    ssize_t n = read(p->out_fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    cc_str_append(to, buf, (size_t)n);
  }
  proc_close(p, 0, 1);
  int status = proc_wait(p, to);
  free(dropped.s);
  return status;
}

/* Makes sure this process has a spare, loading or waiting. */
static void spare_refill(void)
{
  pthread_mutex_lock(&procs_lock);
  if (!spare || spare_owner != getpid()) {
    spare = NULL;
    if (proc_start(&spare_proc, NULL) == 0) {
      spare = &spare_proc;
      spare_owner = getpid();
    }
  }
  pthread_mutex_unlock(&procs_lock);
}

/* Appends arg to a response file, quoted for clang's GNU tokenizer. */
static void quote_arg(cc_str *rsp, const char *arg)
{
  cc_str_append(rsp, "\"", 1);
  for (const char *c = arg; *c; c++) {
    if (*c == '"' || *c == '\\')
      cc_str_append(rsp, "\\", 1);
    cc_str_append(rsp, c, 1);
  }
  cc_str_append(rsp, "\" ", 2);
}

/* Runs clang with argv (argv[0] is LANECL_CLANG, NULL-terminated): its
 * stdout and stderr in *output.  Returns clang's exit status, or -1 when it
 * could not run or was killed. */
static int clang_run(const char *const *argv, char **output)
{
  pthread_once(&procs_once, procs_init);
  if (!spare_mode)
    return cc_spawn(argv, NULL, output);
  cc_str rsp = {0}, out = {0};
  for (size_t i = 1; argv[i]; i++)
    quote_arg(&rsp, argv[i]);
  if (rsp.oom || !rsp.s) {
    free(rsp.s);
    *output = strdup("error: out of host memory\n");
    return -1;
  }
  clang_proc own;
  int status = -1, sent = 0, taken = 0;
  pthread_mutex_lock(&procs_lock);
  if (spare && spare_owner == getpid()) {
    /* `procs` holds spare_proc: it becomes `own`, and spare_proc is free
     * for the next spare. */
    procs_unlink(spare);
    own = *spare;
    own.next = procs;
    procs = &own;
    spare = NULL;
    taken = 1;
  }
  pthread_mutex_unlock(&procs_lock);
  if (taken)
    status = proc_run(&own, rsp.s, rsp.len, &out, &sent);
  if (!sent) {  /* no spare, or it had died: a new clang */
    char *why = NULL;
    pthread_mutex_lock(&procs_lock);
    int started = proc_start(&own, &why) == 0;
    pthread_mutex_unlock(&procs_lock);
    if (started)
      status = proc_run(&own, rsp.s, rsp.len, &out, &sent);
    else
      cc_str_printf(&out, "%s", why ? why : "error: cannot run clang\n");
    free(why);
  }
  free(rsp.s);
  spare_refill();
  *output = cc_str_take(&out);
  return status;
}

/* ---- running clang ---- */

/* An include name must stay inside the directory: relative, no "..". */
static int safe_header_name(const char *name)
{
  if (!name || !name[0] || name[0] == '/' || !strcmp(name, CC_SOURCE_NAME) ||
      !strcmp(name, CC_OUTPUT_NAME) || !strcmp(name, CC_PRELUDE_NAME))
    return 0;
  for (const char *p = name; *p;) {
    const char *slash = strchr(p, '/');
    size_t n = slash ? (size_t)(slash - p) : strlen(p);
    if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
      return 0;
    p += n + (slash ? 1 : 0);
    if (slash && !*p)
      return 0;
  }
  return 1;
}

/* Writes dir/name, creating the sub-directories of name. */
static int write_header(const char *dir, const char *name, const char *text)
{
  char path[PATH_MAX];
  if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
    return -1;
  for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
    *p = 0;
    int r = mkdir(path, 0700);
    *p = '/';
    if (r && errno != EEXIST)
      return -1;
  }
  return cc_write_file(path, text, strlen(text));
}

/* Removes what write_header created (files and their sub-directories). */
static void remove_headers(const char *dir, const cc_header *headers, size_t n)
{
  char path[PATH_MAX];
  for (size_t i = 0; i < n; i++) {
    if (!safe_header_name(headers[i].name) ||
        (size_t)snprintf(path, sizeof(path), "%s/%s", dir, headers[i].name) >= sizeof(path))
      continue;
    unlink(path);
    for (char *p; (p = strrchr(path + strlen(dir), '/')) && p != path + strlen(dir);) {
      *p = 0;
      rmdir(path);
    }
  }
}

int cc_frontend(const cc_device_desc *dev, const char *source, const cc_options *o,
                const cc_header *headers, size_t nheaders, cc_blob *bitcode, char **log)
{
  char dir[PATH_MAX], path[PATH_MAX + 32];
  cc_str msg = {0};
  int rc = CC_OK;
  bitcode->data = NULL;
  bitcode->size = 0;
  if (cc_tmpdir_create(dir, sizeof(dir)) != CC_OK) {
    cc_str_printf(&msg, "error: cannot create a temporary directory: %s\n", strerror(errno));
    *log = cc_str_take(&msg);
    return CC_INTERNAL;
  }
  snprintf(path, sizeof(path), "%s/%s", dir, CC_SOURCE_NAME);
  if (cc_write_file(path, source, strlen(source)) != CC_OK) {
    cc_str_printf(&msg, "error: cannot write %s: %s\n", path, strerror(errno));
    rc = CC_INTERNAL;
    goto out_dir;
  }
  for (size_t i = 0; i < nheaders; i++) {
    if (!safe_header_name(headers[i].name)) {
      cc_str_printf(&msg, "error: embedded header name '%s' is not a relative path inside the program\n",
                    headers[i].name ? headers[i].name : "(null)");
      rc = CC_BUILD_FAILED;
      goto out_headers;
    }
    if (write_header(dir, headers[i].name, headers[i].source ? headers[i].source : "")) {
      cc_str_printf(&msg, "error: cannot write embedded header '%s': %s\n", headers[i].name, strerror(errno));
      rc = CC_INTERNAL;
      goto out_headers;
    }
  }

  snprintf(path, sizeof(path), "%s/%s", dir, CC_PRELUDE_NAME);
  if (cc_write_file(path, cc_prelude_src, strlen(cc_prelude_src)) != CC_OK) {
    cc_str_printf(&msg, "error: cannot write %s: %s\n", path, strerror(errno));
    rc = CC_INTERNAL;
    goto out_headers;
  }

  char std[32], *ext = NULL;
  snprintf(std, sizeof(std), "-cl-std=CL%d.%d", o->cl_std / 100, o->cl_std / 10 % 10);
  const char *cl_ext = dev && dev->cl_ext ? dev->cl_ext : default_cl_ext;
  if (asprintf(&ext, "-cl-ext=%s", cl_ext) < 0) {
    rc = CC_OUT_OF_MEMORY;
    goto out_headers;
  }
  /* -fgnu89-inline: see keep_inline_definitions (cc_api.c).
   * The working directory is absolute: a spare clang was started before
   * the application's current directory was last changed, maybe.
   * -disable-free: clang exits without freeing its AST (as its driver asks). */
  char wd[PATH_MAX * 2 + 2];
  if (dir[0] == '/' || !getcwd(wd, PATH_MAX))
    snprintf(wd, sizeof(wd), "%s", dir);
  else
    snprintf(wd + strlen(wd), sizeof(wd) - strlen(wd), "/%s", dir);
  const char *fixed[] = {LANECL_CLANG, "-cc1", "-disable-free", "-working-directory", wd,
                         "-triple", "spir64-unknown-unknown", std, "-fdeclare-opencl-builtins",
                         "-finclude-default-header", "-cl-kernel-arg-info", "-fgnu89-inline", "-emit-llvm-bc",
                         "-o", CC_OUTPUT_NAME, ext, "-include", CC_PRELUDE_NAME, "-I", ".", "-x", "cl"};
  size_t nfixed = sizeof(fixed) / sizeof(fixed[0]);
  const char **argv = malloc((nfixed + o->nclang_args + 3) * sizeof(*argv));
  if (!argv) {
    free(ext);
    rc = CC_OUT_OF_MEMORY;
    goto out_headers;
  }
  size_t argc = 0;
  for (size_t i = 0; i < nfixed; i++)
    argv[argc++] = fixed[i];
  /* A device without images: the prelude takes back the image macros clang
   * defines for every SPIR target (in OpenCL C 1.x no feature macro tells). */
  if (!strstr(cl_ext, "+__opencl_c_images"))
    argv[argc++] = "-D__LANECL_NO_IMAGES";
  for (size_t i = 0; i < o->nclang_args; i++)
    argv[argc++] = o->clang_args[i];
  argv[argc++] = CC_SOURCE_NAME;
  argv[argc] = NULL;

  char *output = NULL;
  int status = clang_run(argv, &output);
  free(argv);
  free(ext);
  if (output)
    cc_str_append(&msg, output, strlen(output));
  free(output);
  snprintf(path, sizeof(path), "%s/%s", dir, CC_OUTPUT_NAME);
  if (status != 0 || cc_read_file(path, bitcode) != CC_OK) {
    if (status == 0)
      cc_str_printf(&msg, "error: the front end (%s) wrote no output\n", LANECL_CLANG);
    rc = CC_BUILD_FAILED;
  }
  unlink(path);

out_headers:
  remove_headers(dir, headers, nheaders);
  snprintf(path, sizeof(path), "%s/%s", dir, CC_PRELUDE_NAME);
  unlink(path);
  snprintf(path, sizeof(path), "%s/%s", dir, CC_SOURCE_NAME);
  unlink(path);
out_dir:
  cc_tmpdir_remove(dir);
  *log = cc_str_take(&msg);
  return rc;
}

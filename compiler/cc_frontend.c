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
 * libclang-cpp and libLLVM, their static constructors, the pages they touch
 * (about 100 ms of CPU per process on a loaded 2-core VM, several times a
 * small kernel's front end).  So clang is started once per process, with
 * liblanecl_forkserver.so preloaded (compiler/forkserver/forkserver.c): it
 * waits on a socket, and each build hands it three pipes (the -cc1
 * arguments as a response file read from @/proc/self/fd/0, clang's output,
 * its exit status); the server forks a compile that runs clang's main() on
 * them, from the server's relocated and initialized pages.  A server that
 * died is replaced at the next build; a server whose owner process is gone
 * reads end-of-file and exits.  LANECL_CLANG_SERVER=0 (or no /proc, or no
 * library) starts clang per build with its arguments on the command line.
 */
#define _GNU_SOURCE
#include "compiler/cc_internal.h"
#include "compiler/forkserver/forkserver.h"
#include "config/lanecl_config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

/* ---- the clang fork server ---- */

/* One build's pipes on this side: its arguments (write end), clang's
 * stdout and stderr (read end), its wait status (read end). */
typedef struct clang_req {
  int args_fd, out_fd, status_fd;
  struct clang_req *next;  /* in `reqs` while a pipe end is open here */
} clang_req;

/* procs_lock guards `reqs` (every clang_req with a pipe end open in this
 * process) and `server`.  A process that the application forks must not
 * keep a pipe end of ours (clang would not see the end of its arguments
 * until that process exits) nor the server's socket.  So pipes are made
 * and closed under procs_lock, fork takes it too (pthread_atfork), and the
 * child closes them; a child starts its own server.  posix_spawn runs no
 * fork handlers, and every descriptor here is close-on-exec. */
static pthread_mutex_t procs_lock = PTHREAD_MUTEX_INITIALIZER;
static clang_req *reqs;
static struct {
  pid_t pid;    /* the server process, 0: none */
  pid_t owner;  /* getpid() of the process that started it */
  int sock;     /* this side of its socket, -1: none */
  int served;   /* it has run a build */
  int lost;     /* servers in a row that could not start or died before serving one */
} server = {0, 0, -1, 0, 0};
static pthread_once_t procs_once = PTHREAD_ONCE_INIT;
static int server_mode;          /* 0: one clang process per build */
static char server_lib[PATH_MAX];

static void close_fd(int *fd)
{
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

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
  for (clang_req *r = reqs; r; r = r->next) {
    close_fd(&r->args_fd);
    close_fd(&r->out_fd);
    close_fd(&r->status_fd);
  }
  reqs = NULL;
  close_fd(&server.sock);
  server.pid = 0;
  pthread_mutex_unlock(&procs_lock);
}

/* The server library: beside liblanecl_cc.so, or in its lanecl/. */
static int find_server_lib(void)
{
  Dl_info info;
  if (!dladdr((void *)find_server_lib, &info) || !info.dli_fname)
    return 0;
  char dir[PATH_MAX];
  snprintf(dir, sizeof(dir), "%s", info.dli_fname);
  char *slash = strrchr(dir, '/');
  if (!slash)
    return 0;
  *slash = 0;
  static const char *const where[] = {"%s/liblanecl_forkserver.so", "%s/lanecl/liblanecl_forkserver.so"};
  for (size_t i = 0; i < 2; i++)
    if ((size_t)snprintf(server_lib, sizeof(server_lib), where[i], dir) < sizeof(server_lib) &&
        access(server_lib, R_OK) == 0)
      return 1;
  return 0;
}

static void procs_init(void)
{
  server_mode = lc_config_num(LC_CLANG_SERVER) != 0 && access("/proc/self/fd", F_OK) == 0 && find_server_lib();
  if (server_mode && pthread_atfork(atfork_prepare, atfork_parent, atfork_child))
    server_mode = 0;
}

/* Under procs_lock. */
static void reqs_unlink(clang_req *r)
{
  for (clang_req **q = &reqs; *q; q = &(*q)->next)
    if (*q == r) {
      *q = r->next;
      break;
    }
  r->next = NULL;
}

/* The server gone: its socket closed, the process reaped if it exited.
 * Under procs_lock. */
static void server_drop(void)
{
  if (server.sock >= 0 && server.owner == getpid())
    server.lost = server.served ? 0 : server.lost + 1;
  close_fd(&server.sock);
  if (server.pid > 0 && server.owner == getpid())
    waitpid(server.pid, NULL, WNOHANG);
  server.pid = 0;
}

/* Starts the server: clang with the library preloaded, its socket on
 * descriptor 3, /dev/null for the others.  Under procs_lock. */
static int server_start(void)
{
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
    return -1;
  size_t n = 0;
  while (environ[n])
    n++;
  char **envp = malloc((n + 3) * sizeof(*envp));
  char *preload = NULL;
  const char *old = getenv("LD_PRELOAD");
  if (!envp || asprintf(&preload, "LD_PRELOAD=%s%s%s", server_lib, old && *old ? ":" : "", old ? old : "") < 0) {
    free(envp);
    close(sv[0]);
    close(sv[1]);
    return -1;
  }
  size_t k = 0;
  envp[k++] = preload;
  envp[k++] = "LANECL_FORKSERVER_FD=3";
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], "LD_PRELOAD=", 11) && strncmp(environ[i], "LANECL_FORKSERVER_FD=", 21))
      envp[k++] = environ[i];
  envp[k] = NULL;
  static const char *const argv[] = {LANECL_CLANG, "@/proc/self/fd/0", NULL};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 3);
  for (int fd = 0; fd < 3; fd++)
    posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0);
  pid_t pid;
  int err = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, envp);
  posix_spawn_file_actions_destroy(&fa);
  free(preload);
  free(envp);
  close(sv[1]);
  if (err) {
    close(sv[0]);
    return -1;
  }
  server.pid = pid;
  server.owner = getpid();
  server.sock = sv[0];
  server.served = 0;
  return 0;
}

/* Hands the server a build's three pipe ends; 0 when sent.  Under
 * procs_lock. */
static int server_send(const int fds[FS_NFDS])
{
  fs_msg x;
  fs_msg_init(&x);
  struct cmsghdr *c = CMSG_FIRSTHDR(&x.m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(FS_NFDS * sizeof(int));
  memcpy(CMSG_DATA(c), fds, FS_NFDS * sizeof(int));
  ssize_t w;
  while ((w = sendmsg(server.sock, &x.m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
    ;
  return w == 1 ? 0 : -1;
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

/* Closes one of r's pipe ends here, under procs_lock; r leaves `reqs` with
 * its last. */
static void req_close(clang_req *r, int *fd)
{
  pthread_mutex_lock(&procs_lock);
  close_fd(fd);
  if (r->args_fd < 0 && r->out_fd < 0 && r->status_fd < 0)
    reqs_unlink(r);
  pthread_mutex_unlock(&procs_lock);
}

/* Reads fd to its end, appending to *to. */
static void read_all(int fd, cc_str *to)
{
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    cc_str_append(to, buf, (size_t)n);
  }
}

/* One build through the server: its arguments (a response file's text),
 * its output in *out.  Returns clang's exit status, or -1 when it was
 * killed; *sent = 0 when the server never got the build (none could be
 * started, or it had exited: a new one is started at the next build). */
static int server_run(const char *args, size_t nargs, cc_str *out, int *sent)
{
  clang_req r = {-1, -1, -1, NULL};
  int in[2] = {-1, -1}, outp[2] = {-1, -1}, st[2] = {-1, -1};
  size_t mark = out->len;
  *sent = 0;
  pthread_mutex_lock(&procs_lock);
  if (server.sock < 0 || server.owner != getpid()) {
    server_drop();
    /* Three servers lost in a row (clang would not load the library, say):
     * this process builds without one. */
    if (server.lost < 3 && server_start())
      server.lost++;
  }
  pid_t used = server.pid;
  int ok = server.sock >= 0 && !pipe2(in, O_CLOEXEC) && !pipe2(outp, O_CLOEXEC) && !pipe2(st, O_CLOEXEC);
  if (ok) {
    int fds[FS_NFDS] = {in[0], outp[1], st[1]};
    ok = server_send(fds) == 0;
    if (!ok)
      server_drop(); /* it exited (killed?): the next build starts another */
  }
  close_fd(&in[0]);
  close_fd(&outp[1]);
  close_fd(&st[1]);
  if (ok) {
    r.args_fd = in[1];
    r.out_fd = outp[0];
    r.status_fd = st[0];
    r.next = reqs;
    reqs = &r;
  } else {
    close_fd(&in[1]);
    close_fd(&outp[0]);
    close_fd(&st[0]);
  }
  pthread_mutex_unlock(&procs_lock);
  if (!ok)
    return -1;
  /* The server may exit with the build in its socket: then the pipe's
   * read end is closed with the message, and writing fails (EPIPE). */
  *sent = write_args(r.args_fd, args, nargs) == 0;
  req_close(&r, &r.args_fd);
  cc_str dropped = {0};
  cc_str *to = *sent ? out : &dropped;
  read_all(r.out_fd, to);
  req_close(&r, &r.out_fd);
  int status = 0;
  ssize_t got;
  while ((got = read(r.status_fd, &status, sizeof(status))) < 0 && errno == EINTR)
    ;
  req_close(&r, &r.status_fd);
  free(dropped.s);
  /* No exit status: the server ended before its waiter reported one, most
   * often a server that exited before it read the build (its socket closed
   * with the message in it, whose pipe ends kept the arguments and output
   * pipes open until then).  The build was not run to its end: like one the
   * server never got, it goes to a new server or to a clang of its own, and
   * what it wrote is dropped. */
  if (*sent && got != (ssize_t)sizeof(status)) {
    *sent = 0;
    out->len = mark;
    if (out->s)
      out->s[mark] = 0;
  }
  pthread_mutex_lock(&procs_lock);
  if (*sent)
    server.served = 1;
  else if (server.owner == getpid() && server.pid == used)
    server_drop(); /* it went with the build: the next one starts another */
  pthread_mutex_unlock(&procs_lock);
  if (!*sent)
    return -1;
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  cc_str_printf(out, "error: %s killed by signal %d\n", LANECL_CLANG, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return -1;
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
 * could not run or was killed.  Through the fork server where there is
 * one; a build the server never got (it had exited) goes to a new server,
 * then to a clang process of its own. */
static int clang_run(const char *const *argv, char **output)
{
  pthread_once(&procs_once, procs_init);
  if (!server_mode)
    return cc_spawn(argv, NULL, output);
  cc_str rsp = {0}, out = {0};
  for (size_t i = 1; argv[i]; i++)
    quote_arg(&rsp, argv[i]);
  if (rsp.oom || !rsp.s) {
    free(rsp.s);
    *output = strdup("error: out of host memory\n");
    return -1;
  }
  int sent = 0, status = -1;
  for (int attempt = 0; attempt < 2 && !sent; attempt++)
    status = server_run(rsp.s, rsp.len, &out, &sent);
  free(rsp.s);
  if (!sent) {
    free(out.s);
    return cc_spawn(argv, NULL, output);
  }
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
   * The working directory is absolute: the fork server was started before
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

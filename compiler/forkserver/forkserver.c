/* liblanecl_forkserver.so: makes a clang process a fork server for the
 * front end (compiler/cc_frontend.c).
 *
 * Starting clang costs more than a small kernel's front end: the dynamic
 * linker relocates libclang-cpp and libLLVM, their static constructors run,
 * and every page they touch is faulted in (about 100 ms of CPU per process
 * on a loaded 2-core VM, half of it in the kernel).  The front end starts
 * clang once, with this library preloaded (LD_PRELOAD) and
 * LANECL_FORKSERVER_FD naming one end of a socket.  Where clang's main()
 * would run, this library's loop runs instead: each message on the socket
 * carries three descriptors (the read end of a pipe holding the build's
 * arguments, the write end of the pipe for its output, the write end of a
 * pipe for its status).  For each, the server forks a waiter, the waiter
 * forks the compile, which runs clang's own main() with the arguments file
 * @/proc/self/fd/0 on the descriptors given, and the waiter writes the
 * compile's wait status (an int) to the status pipe.  The compile shares
 * the server's relocated and initialized pages: a build costs a fork
 * instead of a process start.  The server exits when the socket's other
 * end is closed (its owner exited).
 *
 * Without LANECL_FORKSERVER_FD, clang runs as it would without this
 * library.  Built without sanitizers: it is loaded into clang. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/forkserver/forkserver.h"

typedef int (*main_fn)(int, char **, char **);
typedef int (*start_fn)(main_fn, int, char **, void (*)(void), void (*)(void), void (*)(void), void *);

static main_fn clang_main;

/* One request: 1 with its three descriptors in fds, 0 for a message
 * without them, -1 when the socket is closed. */
static int receive(int sock, int fds[FS_NFDS])
{
  fs_msg x;
  fs_msg_init(&x);
  ssize_t n;
  while ((n = recvmsg(sock, &x.m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
    ;
  if (n <= 0)
    return -1;
  struct cmsghdr *c = CMSG_FIRSTHDR(&x.m);
  if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(FS_NFDS * sizeof(int))) {
    if (c && c->cmsg_type == SCM_RIGHTS) /* close what came */
      for (int *fd = (int *)CMSG_DATA(c); (char *)(fd + 1) <= (char *)c + c->cmsg_len; fd++)
        close(*fd);
    return 0;
  }
  memcpy(fds, CMSG_DATA(c), FS_NFDS * sizeof(int));
  return 1;
}

/* The waiter: forks the compile, writes its wait status. */
static void serve(int sock, const int fds[3], int argc, char **argv, char **envp)
{
  close(sock);
  pid_t compile = fork();
  if (compile == 0) {
    close(fds[2]);
    if (dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0)
      _exit(127);
    close(fds[0]);
    close(fds[1]);
    int rc = clang_main(argc, argv, envp);
    /* clang has written its output file and its diagnostics; the static
     * destructors of LLVM would only cost time. */
    fflush(NULL);
    _exit(rc);
  }
  close(fds[0]);
  close(fds[1]);
  signal(SIGPIPE, SIG_IGN);
  int st = -1;
  if (compile > 0)
    while (waitpid(compile, &st, 0) < 0 && errno == EINTR)
      ;
  while (write(fds[2], &st, sizeof(st)) < 0 && errno == EINTR)
    ;
  _exit(0);
}

static int server_main(int argc, char **argv, char **envp)
{
  const char *fd_env = getenv("LANECL_FORKSERVER_FD");
  if (!fd_env)
    return clang_main(argc, argv, envp);
  int sock = atoi(fd_env);
  unsetenv("LANECL_FORKSERVER_FD");
  unsetenv("LD_PRELOAD");
  for (;;) {
    while (waitpid(-1, NULL, WNOHANG) > 0) /* waiters that are done */
      ;
    int fds[3];
    int r = receive(sock, fds);
    if (r < 0) {
      while (waitpid(-1, NULL, WNOHANG) > 0) /* (not left to init) */
        ;
      _exit(0);
    }
    if (r == 0)
      continue;
    pid_t waiter = fork();
    if (waiter == 0)
      serve(sock, fds, argc, argv, envp);
    /* (no waiter: the requester reads end-of-file, no status) */
    close(fds[0]);
    close(fds[1]);
    close(fds[2]);
  }
}

/* The C library's entry calls this instead of main() (the preloaded
 * definition comes first); main runs after every constructor. */
int __libc_start_main(main_fn main, int argc, char **argv, void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void *stack_end)
{
  start_fn next = (start_fn)dlsym(RTLD_NEXT, "__libc_start_main");
  if (!next)
    _exit(127);
  clang_main = main;
  return next(server_main, argc, argv, init, fini, rtld_fini, stack_end);
}

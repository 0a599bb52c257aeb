/* The clang fork server's message (compiler/cc_frontend.c sends it,
 * compiler/forkserver/forkserver.c receives it): one byte, and as
 * SCM_RIGHTS the build's FS_NFDS descriptors: the read end of the pipe of
 * its arguments, the write end of the pipe of its output, the write end of
 * the pipe of its wait status.  Shared by both sides as a header: the
 * server library links nothing of the compiler's. */
#ifndef LANECL_FORKSERVER_H
#define LANECL_FORKSERVER_H

#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#define FS_NFDS 3

typedef struct fs_msg {
  struct msghdr m;
  struct iovec iov;
  char byte;
  union {
    struct cmsghdr h;
    char buf[CMSG_SPACE(FS_NFDS * sizeof(int))];
  } control;
} fs_msg;

/* x as an empty message with room for the descriptors. */
static inline void fs_msg_init(fs_msg *x)
{
  memset(x, 0, sizeof(*x));
  x->iov.iov_base = &x->byte;
  x->iov.iov_len = 1;
  x->m.msg_iov = &x->iov;
  x->m.msg_iovlen = 1;
  x->m.msg_control = x->control.buf;
  x->m.msg_controllen = sizeof(x->control.buf);
}

#endif

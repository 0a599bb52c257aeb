/* Preloaded into clang by compiler/test_frontend's test of the give-up path
 * (a_process_gives_up_the_server_after_three_lost): in a clang started as
 * the fork server (LANECL_FORKSERVER_FD set) it exits at once, before the
 * server library's loop, and appends one byte to the file named by
 * LANECL_TEST_SERVER_STARTS; in any other clang it does nothing.  Runs in
 * clang: no sanitizer, the C library only. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void refuse_to_serve(void)
{
  if (!getenv("LANECL_FORKSERVER_FD"))
    return;
  const char *log = getenv("LANECL_TEST_SERVER_STARTS");
  if (log) {
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd >= 0) {
      (void)!write(fd, "s", 1);
      close(fd);
    }
  }
  _exit(7);
}

/* NUMA placement of buffers (runtime/mem.c mem_place): a buffer's whole
 * pages get the memory policy of the nodes its context's devices run on,
 * read back with get_mempolicy(MPOL_F_ADDR).  On a machine of one node
 * placement is off unless LANECL_MEM_PLACE=always, which these tests set to
 * check the mechanism anywhere. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/mempolicy.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/testlib.h"

#define BYTES (1u << 20)
#define MAXNODE 1024

/* The policy of the page holding p: its mode, and the node mask. */
static int page_policy(const void *p, unsigned long *mask)
{
  int mode = -1;
  memset(mask, 0, MAXNODE / 8);
  if (syscall(SYS_get_mempolicy, &mode, mask, (unsigned long)MAXNODE + 1, p, (unsigned long)MPOL_F_ADDR) != 0)
    tl_fail(__FILE__, __LINE__, "get_mempolicy failed");
  return mode;
}

static unsigned bits(const unsigned long *mask)
{
  unsigned n = 0;
  for (unsigned i = 0; i < MAXNODE / (8 * sizeof(long)); i++)
    n += (unsigned)__builtin_popcountl(mask[i]);
  return n;
}

/* A buffer of BYTES on ctx (device dev) with flags, filled from host data
 * when COPY_HOST_PTR; returns the policy of a page inside it and checks the
 * data through a map. */
static int buffer_policy(cl_context ctx, cl_device_id dev, cl_mem_flags flags, unsigned long *mask)
{
  static unsigned char host[BYTES];
  for (unsigned i = 0; i < BYTES; i++)
    host[i] = (unsigned char)(i * 7 + 1);
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, flags, BYTES, flags & CL_MEM_COPY_HOST_PTR ? host : NULL, &err);
  ASSERT_OK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  ASSERT_OK(err);
  unsigned char *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, BYTES, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  int mode = page_policy(p + BYTES / 2, mask);
  if (flags & CL_MEM_COPY_HOST_PTR)
    ASSERT_EQ(memcmp(p, host, BYTES), 0);
  ASSERT_OK(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  clReleaseCommandQueue(q);
  clReleaseMemObject(m);
  return mode;
}

/* Sub-devices of dev, one per NUMA domain (n of them, at most max), or,
 * where the device is on one node (the partition fails: there is nothing
 * to split), one of a single core, on that node too. */
static cl_uint numa_subdevices(cl_device_id dev, cl_uint max, cl_device_id *subs)
{
  cl_device_partition_property numa[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                         CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0};
  cl_uint n = 0;
  cl_int err = clCreateSubDevices(dev, numa, max, subs, &n);
  if (err == CL_DEVICE_PARTITION_FAILED) {
    cl_device_partition_property one[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
                                          0};
    ASSERT_OK(clCreateSubDevices(dev, one, max, subs, &n));
    ASSERT_EQ(n, 1);
    return n;
  }
  ASSERT_OK(err);
  return n;
}

/* How many NUMA nodes the device spans. */
static cl_uint numa_domains(cl_device_id dev)
{
  cl_device_id subs[64];
  cl_uint n = numa_subdevices(dev, 64, subs);
  for (cl_uint i = 0; i < n; i++)
    clReleaseDevice(subs[i]);
  return n;
}

TEST(buffer_pages_follow_the_device_nodes)
{
  setenv("LANECL_MEM_PLACE", "always", 1);
  cl_device_id dev = tl_device();
  cl_uint nodes = numa_domains(dev);
  ASSERT_TRUE(nodes >= 1);
  cl_context ctx = tl_context();
  unsigned long mask[MAXNODE / (8 * sizeof(long))];
  int mode = buffer_policy(ctx, dev, CL_MEM_READ_WRITE, mask);
  /* One node: preferably there; several: interleaved over all of them. */
  ASSERT_EQ(mode, nodes == 1 ? MPOL_PREFERRED : MPOL_INTERLEAVE);
  ASSERT_EQ(bits(mask), nodes);
  /* The data copied in at creation is there (the policy comes first). */
  mode = buffer_policy(ctx, dev, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, mask);
  ASSERT_EQ(mode, nodes == 1 ? MPOL_PREFERRED : MPOL_INTERLEAVE);
  clReleaseContext(ctx);
  unsetenv("LANECL_MEM_PLACE");
}

/* A sub-device of one NUMA domain (or of one core): its buffers go to that
 * one node. */
TEST(sub_device_of_a_numa_domain_owns_its_buffers)
{
  setenv("LANECL_MEM_PLACE", "always", 1);
  cl_device_id subs[64];
  cl_uint n = numa_subdevices(tl_device(), 64, subs);
  ASSERT_TRUE(n >= 1 && n <= 64);
  unsigned long seen[MAXNODE / (8 * sizeof(long))] = {0};
  for (cl_uint i = 0; i < n; i++) {
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &subs[i], NULL, NULL, &err);
    ASSERT_OK(err);
    unsigned long mask[MAXNODE / (8 * sizeof(long))];
    ASSERT_EQ(buffer_policy(ctx, subs[i], CL_MEM_READ_WRITE, mask), MPOL_PREFERRED);
    ASSERT_EQ(bits(mask), 1);
    /* Each domain has a node of its own. */
    for (unsigned w = 0; w < MAXNODE / (8 * sizeof(long)); w++) {
      ASSERT_EQ(seen[w] & mask[w], 0);
      seen[w] |= mask[w];
    }
    clReleaseContext(ctx);
    clReleaseDevice(subs[i]);
  }
  unsetenv("LANECL_MEM_PLACE");
}

/* LANECL_MEM_PLACE=0: no policy, pages go where they are first touched. */
TEST(placement_can_be_turned_off)
{
  setenv("LANECL_MEM_PLACE", "0", 1);
  cl_context ctx = tl_context();
  unsigned long mask[MAXNODE / (8 * sizeof(long))];
  ASSERT_EQ(buffer_policy(ctx, tl_device(), CL_MEM_READ_WRITE, mask), MPOL_DEFAULT);
  clReleaseContext(ctx);
  unsetenv("LANECL_MEM_PLACE");
}

/* The default on a machine of one node: nothing to place. */
TEST(one_node_machines_place_nothing)
{
  unsetenv("LANECL_MEM_PLACE");
  if (numa_domains(tl_device()) != 1) {
    fprintf(stderr, "several NUMA nodes: not checked\n");
    return;
  }
  cl_context ctx = tl_context();
  unsigned long mask[MAXNODE / (8 * sizeof(long))];
  ASSERT_EQ(buffer_policy(ctx, tl_device(), CL_MEM_READ_WRITE, mask), MPOL_DEFAULT);
  clReleaseContext(ctx);
}

/* mbind refused (a seccomp filter makes it fail with EPERM, as a container
 * may): buffers are made all the same, with the default policy, and the
 * debug log says why.  In a child process of its own: the filter stays for
 * the rest of a process. */
TEST(mbind_failure_leaves_buffers_working)
{
  if (getenv("TL_NOFORK")) {
    fprintf(stderr, "TL_NOFORK: the runtime may already run in this process; not checked\n");
    return;
  }
  char log[] = "/tmp/lanecl-numa-XXXXXX";
  int fd = mkstemp(log);
  ASSERT_TRUE(fd >= 0);
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mbind, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
      _exit(3);
    dup2(fd, 2);
    setenv("LANECL_DEBUG", "mem", 1);
    setenv("LANECL_MEM_PLACE", "always", 1);
    cl_context ctx = tl_context();
    unsigned long mask[MAXNODE / (8 * sizeof(long))];
    ASSERT_EQ(buffer_policy(ctx, tl_device(), CL_MEM_READ_WRITE, mask), MPOL_DEFAULT);
    ASSERT_EQ(buffer_policy(ctx, tl_device(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, mask), MPOL_DEFAULT);
    clReleaseContext(ctx);
    _exit(0);
  }
  int st;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  char text[4096] = {0};
  ssize_t r = pread(fd, text, sizeof(text) - 1, 0);
  close(fd);
  unlink(log);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
    tl_fail(__FILE__, __LINE__, "child: status %d, log:\n%s", st, r > 0 ? text : "");
  ASSERT_TRUE(strstr(text, "mbind failed (Operation not permitted)") != NULL);
}

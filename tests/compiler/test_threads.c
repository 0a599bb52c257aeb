/* Several host threads compile and build at once (each build has its own
 * LLVM context and temporary directory); every result is right. */
#include "tests/compiler/cc_test.h"

#include <pthread.h>

#define NTHREADS 4
#define NBUILDS 3

typedef struct job {
  int id;
  int failures;
  char msg[512];
} job;

static void *worker(void *p)
{
  job *j = p;
  for (int b = 0; b < NBUILDS; b++) {
    char src[512];
    int value = j->id * 100 + b;
    snprintf(src, sizeof(src),
             "kernel void k%d(global int *p, int x) { p[get_global_id(0)] = x + %d; }\n"
             "#if VALUE != %d\n#error wrong macro\n#endif\n",
             value, value, value);
    char opts[64];
    snprintf(opts, sizeof(opts), "-DVALUE=%d%s", value, b == 1 ? " -cl-opt-disable" : "");
    cc_blob out = {0};
    char *log = NULL;
    int rc = b == 2 ? ct_api()->compile(ct_dev(), src, opts, NULL, 0, &out, &log)
                    : ct_api()->build(ct_dev(), src, opts, &out, &log);
    cc_binary bin;
    char name[32];
    snprintf(name, sizeof(name), "k%d", value);
    if (rc != CC_OK || cc_binary_read(out.data, out.size, &bin) != CC_OK) {
      snprintf(j->msg, sizeof(j->msg), "thread %d build %d: %d\n%s", j->id, b, rc, log ? log : "");
      j->failures++;
    } else {
      if (bin.nkernels != 1 || strcmp(bin.kernels[0].name, name) ||
          bin.kind != (b == 2 ? CC_BIN_OBJECT : CC_BIN_EXECUTABLE) ||
          (b != 2 && !bin.native.size)) {
        snprintf(j->msg, sizeof(j->msg), "thread %d build %d: wrong result", j->id, b);
        j->failures++;
      }
      cc_binary_free(&bin);
    }
    free(log);
    cc_blob_free(&out);
  }
  return NULL;
}

TEST(parallel_builds)
{
  ct_api();
  ct_dev(); /* filled here, once: the threads only read it */
  pthread_t t[NTHREADS];
  job jobs[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    jobs[i] = (job){.id = i};
    ASSERT_EQ(pthread_create(&t[i], NULL, worker, &jobs[i]), 0);
  }
  int failures = 0;
  for (int i = 0; i < NTHREADS; i++) {
    pthread_join(t[i], NULL);
    if (jobs[i].failures)
      fprintf(stderr, "%s\n", jobs[i].msg);
    failures += jobs[i].failures;
  }
  ASSERT_EQ(failures, 0);
}

static void *bad_worker(void *p)
{
  job *j = p;
  cc_blob out = {0};
  char *log = NULL;
  int rc = ct_api()->build(ct_dev(), "kernel void k(global int *p) { p[0] = nope; }", "", &out, &log);
  if (rc != CC_BUILD_FAILED || !strstr(log, "nope")) {
    snprintf(j->msg, sizeof(j->msg), "thread %d: status %d log %s", j->id, rc, log);
    j->failures++;
  }
  free(log);
  rc = ct_api()->build(ct_dev(), "kernel void k(global int *p) { p[0] = 1; }", "-bad-option", &out, &log);
  if (rc != CC_INVALID_OPTIONS) {
    snprintf(j->msg, sizeof(j->msg), "thread %d: status %d for a bad option", j->id, rc);
    j->failures++;
  }
  free(log);
  return NULL;
}

TEST(parallel_failures_keep_their_own_logs)
{
  ct_api();
  ct_dev();
  pthread_t t[NTHREADS];
  job jobs[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    jobs[i] = (job){.id = i};
    ASSERT_EQ(pthread_create(&t[i], NULL, bad_worker, &jobs[i]), 0);
  }
  int failures = 0;
  for (int i = 0; i < NTHREADS; i++) {
    pthread_join(t[i], NULL);
    if (jobs[i].failures)
      fprintf(stderr, "%s\n", jobs[i].msg);
    failures += jobs[i].failures;
  }
  ASSERT_EQ(failures, 0);
}

/* LaneCL test harness: tests register with TEST(), each runs in a forked
 * child (a crash fails one test, not the suite), typed asserts print both
 * sides.  API tests reach LaneCL through the system ICD loader, as an
 * application does (ctest sets OCL_ICD_VENDORS to the build's lanecl.icd). */
#ifndef LANECL_TESTLIB_H
#define LANECL_TESTLIB_H

#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*tl_fn)(void);
void tl_register(const char *name, tl_fn fn);

#define TEST(name)                                                          \
  static void test_##name(void);                                            \
  __attribute__((constructor)) static void tl_reg_##name(void)              \
  {                                                                         \
    tl_register(#name, test_##name);                                        \
  }                                                                         \
  static void test_##name(void)

void tl_fail(const char *file, int line, const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));
const char *tl_cl_error_name(cl_int err);
/* Ends the running test as skipped: a check that does not apply here (e.g.
 * to the target's ISA), with the reason.  A test file whose tests all
 * skip exits with TL_SKIP_CODE (ctest's SKIP_RETURN_CODE); one with tests
 * that passed and tests that skipped passes, and lists each skip. */
#define TL_SKIP_CODE 77
void tl_skip(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Whether a sweep over OpenCL C types takes `type` (its name).  With
 * TL_TYPES=signed (the per-ISA runs, tests/CMakeLists.txt) the unsigned
 * integer types are left out: they take the lowering of the signed type of
 * their width, other compare predicates and extensions, which the host's
 * own run checks for every type. */
int tl_sweep_type(const char *type);

#define ASSERT_TRUE(c)                                                      \
  do {                                                                      \
    if (!(c))                                                               \
      tl_fail(__FILE__, __LINE__, "ASSERT_TRUE(%s)", #c);                   \
  } while (0)
#define ASSERT_EQ(a, b)                                                     \
  do {                                                                      \
    long long tl_a_ = (long long)(a), tl_b_ = (long long)(b);               \
    if (tl_a_ != tl_b_)                                                     \
      tl_fail(__FILE__, __LINE__, "ASSERT_EQ(%s, %s): %lld != %lld", #a, #b, tl_a_, tl_b_); \
  } while (0)
#define ASSERT_NE(a, b)                                                     \
  do {                                                                      \
    long long tl_a_ = (long long)(a), tl_b_ = (long long)(b);               \
    if (tl_a_ == tl_b_)                                                     \
      tl_fail(__FILE__, __LINE__, "ASSERT_NE(%s, %s): both %lld", #a, #b, tl_a_); \
  } while (0)
#define ASSERT_STREQ(a, b)                                                  \
  do {                                                                      \
    const char *tl_a_ = (a), *tl_b_ = (b);                                  \
    if (!tl_a_ || !tl_b_ || strcmp(tl_a_, tl_b_))                           \
      tl_fail(__FILE__, __LINE__, "ASSERT_STREQ(%s, %s): \"%s\" != \"%s\"", #a, #b, \
              tl_a_ ? tl_a_ : "(null)", tl_b_ ? tl_b_ : "(null)");          \
  } while (0)
/* ASSERT_CL(call_or_err, CL_EXPECTED): compares CL error codes by name. */
#define ASSERT_CL(e, expected)                                              \
  do {                                                                      \
    cl_int tl_e_ = (e), tl_x_ = (expected);                                 \
    if (tl_e_ != tl_x_)                                                     \
      tl_fail(__FILE__, __LINE__, "%s: got %s (%d), expected %s (%d)", #e,  \
              tl_cl_error_name(tl_e_), tl_e_, tl_cl_error_name(tl_x_), tl_x_); \
  } while (0)
#define ASSERT_OK(e) ASSERT_CL(e, CL_SUCCESS)

/* The LaneCL platform and its device (fails the test if the loader doesn't
 * offer a platform named "LaneCL"). */
cl_platform_id tl_platform(void);
cl_device_id tl_device(void);
/* A new context on tl_device(); the caller releases it. */
cl_context tl_context(void);
/* A new in-order queue (props may be 0) on ctx; the caller releases it. */
cl_command_queue tl_queue(cl_context ctx, cl_command_queue_properties props);
/* Builds src for tl_device() with options; fails the test with the build log
 * if the build fails.  The caller releases the program. */
cl_program tl_build(cl_context ctx, const char *src, const char *options);
/* Whether p's binary for tl_device() (CL_PROGRAM_BINARIES) holds text: a
 * kernel's report is kept there in plain text, so a test can see what the
 * compiler did with a kernel launched through the API. */
int tl_binary_contains(cl_program p, const char *text);

#endif

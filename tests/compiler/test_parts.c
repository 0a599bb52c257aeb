/* A program of several kernels built in parts, one thread each
 * (compiler/cc_backend.c): the kernels, their vectorizer verdicts (the
 * remarks of each part's context, merged), their streaming stores and the
 * build log are those of the serial build; the lane loops' locations survive the parts' bitcode. */
#include "tests/compiler/cc_test.h"

static const char src[] =
    "float helper(float x) { return x * x + 1.0f; }\n"
    "kernel void plain(global const float *b, global float *a) { size_t i = get_global_id(0); a[i] = helper(b[i]); }\n"
    "kernel void vec4(global float4 *a) { size_t i = get_global_id(0); a[i] = a[i] * 2.0f + 1.0f; }\n"
    "kernel void inner(global float *a, int n) {\n"
    "  size_t i = get_global_id(0); float s = 0.0f;\n"
    "  for (int j = 0; j < n; j++) s += a[j] * (float)i;\n"
    "  a[i] = s;\n}\n"
    "kernel void diverge(global int *a, int n) {\n"
    "  size_t i = get_global_id(0); int k = 0;\n"
    "  while (k < n && a[i] > k) k++;\n"
    "  a[i] = k;\n}\n"
    "kernel void barriers(global int *a, local int *t) {\n"
    "  size_t l = get_local_id(0); t[l] = a[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[get_global_id(0)] = t[get_local_size(0) - 1 - l];\n}\n";

static void build(const char *threads, cc_binary *bin, char **log)
{
  setenv("LANECL_CC_THREADS", threads, 1);
  cc_blob out = {0};
  int rc = ct_api()->build(ct_dev(), src, "", &out, log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "build with LANECL_CC_THREADS=%s failed (%d):\n%s", threads, rc, *log);
  ASSERT_EQ(cc_binary_read(out.data, out.size, bin), CC_OK);
  cc_blob_free(&out);
}

static void check_same_as_serial(const char *threads)
{
  cc_binary serial, parts;
  char *serial_log = NULL, *parts_log = NULL;
  build("1", &serial, &serial_log);
  build(threads, &parts, &parts_log);
  ASSERT_STREQ(parts_log ? parts_log : "", serial_log ? serial_log : "");
  ASSERT_EQ(parts.nkernels, 5);
  ASSERT_EQ(parts.nkernels, serial.nkernels);
  ASSERT_TRUE(parts.native.size > 0);
  for (uint32_t i = 0; i < serial.nkernels; i++) {
    const cc_kernel_info *a = &serial.kernels[i], *b = &parts.kernels[i];
    ASSERT_STREQ(b->name, a->name);
    ASSERT_EQ(b->simd_width, a->simd_width);
    ASSERT_EQ(b->frame_bytes, a->frame_bytes);
    ASSERT_STREQ(b->report, a->report);
    ASSERT_EQ(b->stream_bytes, a->stream_bytes);
  }
  /* cc_stream_stores ran in the parts too (plain writes a buffer it does
   * not read: its stores stream) */
  ASSERT_TRUE(ct_kernel(&parts, "plain")->stream_bytes > 0);
  /* the verdicts came through: the plain kernel's lane loop is vectorized */
  ASSERT_CONTAINS(ct_kernel(&parts, "plain")->report, "lane loop vectorized");
  ASSERT_TRUE(ct_kernel(&parts, "plain")->simd_width > 1);
  cc_binary_free(&serial);
  cc_binary_free(&parts);
  free(serial_log);
  free(parts_log);
}

TEST(two_parts_report_as_serial)
{
  check_same_as_serial("2");
}

TEST(one_part_per_kernel_report_as_serial)
{
  check_same_as_serial("16");
}

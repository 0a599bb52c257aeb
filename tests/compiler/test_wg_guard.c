/* Application shapes in the code (compiler/cc_wg_trim.c wg_split_guard,
 * compiler/cc_safediv.c cc_uniform_divisions, compiler/cc_wg_affine.c
 * wg_uniform_gathers): an affine guard leaves unmasked vector loads and
 * stores in the main body, an inner loop under it is vectorized as without
 * it, a uniform load under it is one scalar load, and a uniform divisor
 * leaves no division in the lane loop.  Their results are checked in
 * tests/kernels/cases (guard_split_*, uniform_div_*). */
#include "tests/compiler/wg_harness.h"

static unsigned lanes(void)
{
  return ct_target_simd_bits() / 32;
}

TEST(affine_guard_leaves_unmasked_vector_loads_and_stores)
{
  unsigned W = lanes();
  if (W < 4)
    tl_skip("no vector lanes on this target");
  const char *src =
      "kernel void guard(global float *o, global const float *a, global const float *b, int n) {\n"
      "  int i = get_global_id(0); if (i < n) o[i] = a[i] * 2.0f + b[i]; }\n"
      "kernel void ret(global float *o, global const float *a, uint n) {\n"
      "  uint i = get_global_id(0); if (i >= n) return; o[i] = a[i] + 1.0f; }\n";
  char *ir = optimized_ir(src);
  char load[64], store[64];
  snprintf(load, sizeof(load), "load <%u x float>, ptr", W);
  snprintf(store, sizeof(store), "store <%u x float> ", W);
  unsigned gl = count_in_function(ir, "__lanecl_wg_guard", load);
  unsigned gs = count_in_function(ir, "__lanecl_wg_guard", store);
  unsigned rl = count_in_function(ir, "__lanecl_wg_ret", load);
  unsigned rs = count_in_function(ir, "__lanecl_wg_ret", store);
  free(ir);
  ASSERT_TRUE(gl >= 2); /* a[i], b[i] without a mask */
  ASSERT_TRUE(gs >= 1);
  ASSERT_TRUE(rl >= 1);
  ASSERT_TRUE(rs >= 1);

  wg_prog p;
  wg_build(src, levels[0], &p);
  ASSERT_CONTAINS(ct_kernel(&p.bin, "guard")->report, "lane loop split where the guard on x's id changes value");
  ASSERT_CONTAINS(ct_kernel(&p.bin, "ret")->report, "lane loop split where the guard on x's id changes value");
  wg_free(&p);
}

TEST(inner_loop_under_a_guard_is_an_outer_loop_with_plain_loads)
{
  unsigned W = lanes();
  if (W < 4)
    tl_skip("no vector lanes on this target");
  const char *src =
      "kernel void col(global float *y, global const float *A, global const float *x, int n) {\n"
      "  int i = get_global_id(0); if (i < n) { float s = 0.0f;\n"
      "  for (int j = 0; j < n; j++) s += A[j * n + i] * x[j]; y[i] = s; } }\n";
  wg_prog p;
  wg_build(src, levels[0], &p);
  const char *rep = ct_kernel(&p.bin, "col")->report;
  ASSERT_CONTAINS(rep, "lane loop split where the guard on x's id changes value");
  wg_free(&p);
  char *ir = optimized_ir(src);
  char load[64];
  snprintf(load, sizeof(load), "load <%u x float>, ptr", W);
  /* A[j * n + i], consecutive across the lanes: a plain vector load in the
   * copy without the guard (masked widening had masked gathers) */
  unsigned plain = count_in_function(ir, "__lanecl_wg_col", load);
  free(ir);
  ASSERT_TRUE(plain >= 1);
}

TEST(uniform_load_under_a_guard_is_no_gather)
{
  unsigned W = lanes();
  if (W < 4)
    tl_skip("no vector lanes on this target");
  const char *src =
      "kernel void bias(global float *o, global const float *a, global const float *b, int n) {\n"
      "  int i = get_global_id(0); if (i < n) o[i] = a[i] * 2.0f + b[0]; }\n"
      "kernel void group(global float *o, global const float *a, global const float *b, int n) {\n"
      "  int i = get_global_id(0); if (i < n) o[i] = a[i] * 2.0f + b[get_group_id(0)]; }\n";
  char *ir = optimized_ir(src);
  unsigned g1 = count_in_function(ir, "__lanecl_wg_bias", "@llvm.masked.gather");
  unsigned g2 = count_in_function(ir, "__lanecl_wg_group", "@llvm.masked.gather");
  free(ir);
  ASSERT_EQ(g1, 0);
  ASSERT_EQ(g2, 0);
}

/* 64-bit: a size_t index divided by a ulong size, a long by a long */
TEST(uniform_64_bit_divisor_leaves_no_division_in_the_lane_loop)
{
  if (lanes() < 4)
    tl_skip("no vector lanes on this target");
  const char *src =
      "kernel void idx(global float *o, global const float *b, ulong n, ulong per) {\n"
      "  size_t i = get_global_id(0); if (i < n) o[i] = b[i / per] + (float)(i % per); }\n"
      "kernel void sl(global long *o, global const long *a, long d) {\n"
      "  size_t i = get_global_id(0); o[i] = a[i] / d - a[i] % d; }\n";
  wg_prog p;
  wg_build(src, levels[0], &p);
  ASSERT_CONTAINS(ct_kernel(&p.bin, "idx")->report, "by a uniform value: multiplication by a magic number");
  ASSERT_CONTAINS(ct_kernel(&p.bin, "sl")->report, "by a uniform value: multiplication by a magic number");
  wg_free(&p);
  char *ir = optimized_ir(src);
  unsigned udiv = count_in_function(ir, "__lanecl_wg_idx", "udiv ") + count_in_function(ir, "__lanecl_wg_idx", "urem ");
  unsigned umagic = count_in_function(ir, "__lanecl_wg_idx", "@__lanecl_divmagic_u64(");
  unsigned sdiv = count_in_function(ir, "__lanecl_wg_sl", "sdiv ") + count_in_function(ir, "__lanecl_wg_sl", "srem ");
  unsigned smagic = count_in_function(ir, "__lanecl_wg_sl", "@__lanecl_divmagic_s64(");
  free(ir);
  ASSERT_EQ(udiv, 0);
  ASSERT_TRUE(umagic >= 1);
  ASSERT_EQ(sdiv, 0);
  ASSERT_TRUE(smagic >= 1);
}

TEST(uniform_divisor_leaves_no_division_in_the_lane_loop)
{
  if (lanes() < 4)
    tl_skip("no vector lanes on this target");
  const char *src =
      "kernel void idx(global float *o, global const float *a, global const float *b, int n, int per) {\n"
      "  int i = get_global_id(0); if (i < n) o[i] = a[i] * 2.0f + b[i / per]; }\n"
      "kernel void rem(global uint *o, global const uint *a, uint cols) {\n"
      "  int i = get_global_id(0); o[i] = a[i] % cols + a[i] / cols; }\n";
  wg_prog p;
  wg_build(src, levels[0], &p);
  ASSERT_CONTAINS(ct_kernel(&p.bin, "idx")->report, "1 division by a uniform value: multiplication by a magic number");
  ASSERT_CONTAINS(ct_kernel(&p.bin, "rem")->report, "by a uniform value: multiplication by a magic number");
  wg_free(&p);
  char *ir = optimized_ir(src);
  unsigned sdiv = count_in_function(ir, "__lanecl_wg_idx", "sdiv ");
  unsigned magic = count_in_function(ir, "__lanecl_wg_idx", "@__lanecl_divmagic_s32(");
  unsigned udiv = count_in_function(ir, "__lanecl_wg_rem", "udiv ") + count_in_function(ir, "__lanecl_wg_rem", "urem ");
  unsigned umagic = count_in_function(ir, "__lanecl_wg_rem", "@__lanecl_divmagic_u32(");
  free(ir);
  ASSERT_EQ(sdiv, 0);
  ASSERT_TRUE(magic >= 1);
  ASSERT_EQ(udiv, 0);
  ASSERT_TRUE(umagic >= 1);
}


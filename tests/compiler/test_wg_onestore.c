/* Stores of many lanes to one address (compiler/cc_wg_affine.c,
 * one_address_scatter) in inner loops of one block, the shape that crashed
 * the compiler (CTS test_basic kernel_preprocessor_macros: every lane on) and
 * stored nothing (CTS test_basic vload_local: a masked copy into __local):
 * splitting such a block rebuilt its phis, which the rewrite still held.
 * Running them is in tests/kernels/cases (one_address_*, vload_local_copy);
 * here the code: the scatter becomes one store with every lane on, its mask
 * test is on the mask, and a region that stores to __local is widened. */
#include "tests/compiler/wg_harness.h"

TEST(every_lane_to_one_address_in_a_loop_of_one_block_is_one_store)
{
  const char *src =
      "kernel void pre(global int *res, global char *out) {\n"
      "  res[0] = 0xf00baa; res[1] = 1; res[2] = 300; res[4] = 7;\n"
      "  int i;\n"
      "  constant char *f = \"a string long enough for the copy to stay a loop: /work/cts/src/test_conformance\";\n"
      "  for (i = 0; f[i] != 0 && i < 512; i++)\n"
      "    out[i] = f[i];\n"
      "  out[i] = 0;\n"
      "}\n"
      "kernel void status(global float *out, global const float *in, global int *st, int n) {\n"
      "  int g = get_global_id(0); float acc = 0.0f;\n"
      "  for (int i = 0; i < n; i++) { acc += in[i] * (float)g; st[i & 15] = i; }\n"
      "  out[g] = acc;\n"
      "}\n";
  char *ir = optimized_ir(src); /* crashed in one_address_scatter before */
  unsigned W = ct_target_simd_bits() / 32;
  unsigned sp = count_in_function(ir, "__lanecl_wg_pre", "@llvm.masked.scatter");
  /* (out[g] keeps a scatter behind its test that no lane wraps: a float one) */
  char want[64];
  snprintf(want, sizeof(want), "@llvm.masked.scatter.v%ui32", W);
  unsigned ss = count_in_function(ir, "__lanecl_wg_status", want);
  unsigned branch = count_in_function(ir, "__lanecl_wg_status", "one.bits");
  free(ir);
  if (W >= 4) {
    ASSERT_EQ(sp, 0);
    ASSERT_EQ(ss, 0);
    ASSERT_EQ(branch, 0); /* every lane on: no test of the mask */
  }
}

TEST(masked_copy_into_local_is_widened_and_tests_its_own_mask)
{
  const char *src =
      "kernel void test_fn(local int *sh, global int *src, global uint *offsets, global uint *al,\n"
      "                    global int2 *results) {\n"
      "  int tid = get_global_id(0), lid = get_local_id(0);\n"
      "  if (lid == 0) {\n"
      "    for (int i = 0; i < 200; i++)\n"
      "      sh[i] = src[i];\n"
      "  }\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  results[tid] = vload2(offsets[tid], sh + al[tid]);\n"
      "}\n";
  unsigned W = ct_target_simd_bits() / 32;
  if (W < 4)
    return;
  wg_prog p;
  wg_build(src, levels[0], &p);
  const cc_kernel_info *k = ct_kernel(&p.bin, "test_fn");
  ASSERT_CONTAINS(k->report, "region 0: start -> barrier #1: inner loop, trip count per work-item, lane loop "
                             "vectorized (masked: inner loops run while any lane is active)");
  wg_free(&p);
  char *ir = optimized_ir(src);
  /* each one.bits is a bitcast of a mask of W lanes (it was a bitcast of
   * whatever value had taken the freed mask's place: <16 x i64>) */
  char want[64];
  snprintf(want, sizeof(want), "bitcast <%u x i1> ", W);
  unsigned bits = count_in_function(ir, "__lanecl_wg_test_fn", "%one.bits = bitcast ");
  unsigned good = count_in_function(ir, "__lanecl_wg_test_fn", want);
  free(ir);
  ASSERT_TRUE(bits > 0);
  ASSERT_TRUE(good >= bits);
}

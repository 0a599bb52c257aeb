/* The cap on the vector width of big lane loops over narrow types
 * (compiler/cc_widthcap.c): a lane loop of thousands of char operations
 * gets the width of 32-bit lanes (simd_bits / 32) instead of the loop
 * vectorizer's simd_bits / 8 (64 lanes on AVX-512: seconds of O3 and code
 * generation, the CTS's test_relationals shuffle_* timing out); a small
 * char loop and a big int loop keep the vectorizer's choice.  The kernels
 * run and are checked against C. */
#include "tests/compiler/wg_harness.h"

#include <stdint.h>

#define REPS 20

/* 2 x REPS char16 statements: about 3000 instructions once scalarized;
 * guarded 1: under `if (i < n)` (a store to a different address per
 * work-item under a condition); 2: also `if (i == 0) out[n] = v` (a store
 * to one address for all work-items, under a condition). */
static char *big_src(const char *t, int guarded)
{
  size_t cap = 8192, len = 0;
  char *s = malloc(cap);
  len += (size_t)snprintf(s + len, cap - len,
                          "kernel void big(global const %s16 *in, global %s16 *out, uint n) {\n"
                          "  size_t i = get_global_id(0);\n"
                          "  if (%s) return;\n"
                          "  %s16 v = in[i], w = in[i + 1];\n",
                          t, t, guarded == 1 ? "i >= n" : "0", t);
  for (int k = 0; k < REPS; k++)
    len += (size_t)snprintf(s + len, cap - len,
                            "  v = (v * (%s)%d + (w >> (%s)%d)) ^ (v - w);\n"
                            "  w = select(w, v, v > w);\n",
                            t, k + 3, t, k % 7 + 1);
  snprintf(s + len, cap - len, "  out[i] = v + w;\n%s}\n", guarded == 2 ? "  if (i == 0) out[n] = v;\n" : "");
  return s;
}

/* The same in C, element e of work-item i. */
static int8_t big_ref_char(const int8_t *in, size_t i, int e)
{
  int8_t v = in[16 * i + e], w = in[16 * (i + 1) + e];
  for (int k = 0; k < REPS; k++) {
    v = (int8_t)((int8_t)((int8_t)(v * (k + 3)) + (int8_t)(w >> (k % 7 + 1))) ^ (int8_t)(v - w));
    w = v > w ? v : w;
  }
  return (int8_t)(v + w);
}

TEST(big_char_lane_loop_is_capped_to_32_bit_lanes)
{
  char *src = big_src("char", 0);
  wg_prog p;
  wg_build(src, levels[0], &p);
  enum { N = 256 };
  int8_t *in = malloc(16 * (N + 1)), *out = calloc(N, 16);
  for (int i = 0; i < 16 * (N + 1); i++)
    in[i] = (int8_t)(i * 37 + 11);
  unsigned n = N;
  void *args[] = {&in, &out, &n};
  wg_range r = range1(N, 64, NULL);
  wg_run(&p, "big", args, &r);
  for (size_t i = 0; i < N; i++)
    for (int e = 0; e < 16; e++)
      ASSERT_EQ(out[16 * i + e], big_ref_char(in, i, e));
  const cc_kernel_info *k = ct_kernel(&p.bin, "big");
  ASSERT_EQ(k->simd_width, ct_target_simd_bits() / 32);
  free(in), free(out), free(src);
  wg_free(&p);
}

TEST(small_char_lane_loop_keeps_the_vectorizers_width)
{
  const char *src = "kernel void inc(global const char *a, global char *b) {\n"
                    "  size_t i = get_global_id(0); b[i] = a[i] + 1; }\n";
  wg_prog p;
  wg_build(src, levels[0], &p);
  enum { N = 1024 };
  int8_t *a = malloc(N), *b = calloc(N, 1);
  for (int i = 0; i < N; i++)
    a[i] = (int8_t)i;
  void *args[] = {&a, &b};
  wg_range r = range1(N, 256, NULL);
  wg_run(&p, "inc", args, &r);
  for (int i = 0; i < N; i++)
    ASSERT_EQ(b[i], (int8_t)(i + 1));
  const cc_kernel_info *k = ct_kernel(&p.bin, "inc");
  ASSERT_EQ(k->simd_width, ct_target_simd_bits() / 8);
  free(a), free(b);
  wg_free(&p);
}

/* The vector width reported for big_src(t, guarded)'s kernel. */
static uint32_t big_width(const char *t, int guarded)
{
  char *src = big_src(t, guarded);
  wg_prog p;
  wg_build(src, levels[0], &p);
  uint32_t w = ct_kernel(&p.bin, "big")->simd_width;
  free(src);
  wg_free(&p);
  return w;
}

TEST(big_int_lane_loop_keeps_the_vectorizers_width)
{
  ASSERT_EQ(big_width("int", 1), ct_target_simd_bits() / 32);
}

/* The CTS's test_relationals shuffle_built_in shape: work-item 0 alone
 * stores 32 results to fixed addresses.  Forced vectorization made each
 * store predicated and replicated per lane (int16: 7 s of code generation);
 * the lane loop stays scalar now, and the results are right. */
#define NSHUF 32
static unsigned shuf_mask(int t, int e)
{
  return (unsigned)(t * 7 + e * 5 + 3) % 16;
}

TEST(one_work_item_shuffles_are_not_forced_to_vectorize)
{
  size_t cap = 1 << 16, len = 0;
  char *src = malloc(cap);
  len += (size_t)snprintf(src + len, cap - len,
                          "kernel void sample_test(global int16 *source, global int16 *dest) {\n"
                          "  if (get_global_id(0) != 0) return;\n");
  for (int t = 0; t < NSHUF; t++) {
    len += (size_t)snprintf(src + len, cap - len, "  { int16 s = source[%d]; uint16 m = (uint16)(", t);
    for (int e = 0; e < 16; e++)
      len += (size_t)snprintf(src + len, cap - len, "%s%u", e ? ", " : "", shuf_mask(t, e));
    len += (size_t)snprintf(src + len, cap - len, "); dest[%d] = shuffle(s, m); }\n", t);
  }
  snprintf(src + len, cap - len, "}\n");
  wg_prog p;
  wg_build(src, levels[0], &p);
  /* int16 is 64-byte aligned */
  int32_t *in = aligned_alloc(64, NSHUF * 16 * 4), *out = aligned_alloc(64, NSHUF * 16 * 4);
  memset(out, 0, NSHUF * 16 * 4);
  for (int i = 0; i < NSHUF * 16; i++)
    in[i] = i * 101 - 7;
  void *args[] = {&in, &out};
  wg_range r = range1(64, 64, NULL);
  wg_run(&p, "sample_test", args, &r);
  for (int t = 0; t < NSHUF; t++)
    for (int e = 0; e < 16; e++)
      ASSERT_EQ(out[16 * t + e], in[16 * t + (int)shuf_mask(t, e)]);
  const cc_kernel_info *k = ct_kernel(&p.bin, "sample_test");
  ASSERT_EQ(k->simd_width, 1);
  free(in), free(out), free(src);
  wg_free(&p);
}

/* A conditional store to one address next to per-work-item stores: the
 * lane loop does each work-item's work, and stays forced (char: capped). */
TEST(per_work_item_stores_keep_forced_vectorization)
{
  ASSERT_EQ(big_width("char", 2), ct_target_simd_bits() / 32);
}

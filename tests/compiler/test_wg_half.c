/* Lane loops over half and other 8- and 16-bit types after vectorization:
 *  - a lane loop that computes in half, on a target without native half
 *    arithmetic (no AVX512-FP16), is vectorized at the width of 32-bit
 *    lanes (compiler/cc_widthcap.c): the loop vectorizer's own choice,
 *    twice that, never ran its vector body for a local size of 16; nor
 *    interleaved (the body of a small loop, 4W work-items, ran none of a
 *    16-wide row: the fixed width leaves no W/2-lane epilogue);
 *  - x86 has no gather or scatter of 16-bit elements: the vectorizer's
 *    scalarized loads (the stencil's clamped in[...]) and its chains of
 *    one-lane blocks under a mask (the halo stores) are written back as
 *    gathers and scatters, which the affine rewrite (compiler/cc_wg_affine.c)
 *    makes plain or one-lane accesses, as for float.
 *  - a half multiply-add by a power of two (the stencil's 0.5h * c + ...)
 *    is one fma in float and one rounding (compiler/cc_half_fma.c), not a
 *    multiply and an add each rounded to half: a pair of conversions less,
 *    and exactly the fused result.
 * The kernels run at both levels against C (half: each operation rounded
 * to half; ushort: scatters under a condition that stay scatters). */
#include "tests/compiler/wg_harness.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ct_dev() with cl_khr_fp16 (the runtime's device has it). */
static const cc_device_desc *half_dev(void)
{
  static cc_device_desc dev;
  if (!dev.simd_bits) {
    dev = *ct_dev();
    dev.cl_ext = CT_CL_EXT ",+cl_khr_fp16";
  }
  return &dev;
}

static const char half_src[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#define T 16\n"
    "kernel void hstencil(global const half *in, global half *out, int w, int h) {\n"
    "  local half tile[T + 2][T + 2];\n"
    "  int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0) + 1, ly = get_local_id(1) + 1;\n"
    "  #define AT(xx, yy) in[clamp(yy, 0, h - 1) * w + clamp(xx, 0, w - 1)]\n"
    "  tile[ly][lx] = AT(x, y);\n"
    "  if (lx == 1) tile[ly][0] = AT(x - 1, y);\n"
    "  if (lx == T) tile[ly][T + 1] = AT(x + 1, y);\n"
    "  if (ly == 1) tile[0][lx] = AT(x, y - 1);\n"
    "  if (ly == T) tile[T + 1][lx] = AT(x, y + 1);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[y * w + x] = 0.5h * tile[ly][lx] + 0.125h * (tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] +\n"
    "                   tile[ly + 1][lx]);\n"
    "}\n"
    /* Scattered 16-bit stores of the edge work-items (no affine form: a
     * store per lane on), and a gather of clamped consecutive ushorts. */
    "kernel void uscatter(global const ushort *in, global const int *idx, global ushort *out, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  size_t l = get_local_id(0), m = get_local_size(0);\n"
    "  ushort v = in[clamp(i - 3, 0, n - 1)];\n"
    "  if (l == 0 || l == m - 1) out[idx[i]] = (ushort)(v * 3 + 1);\n"
    "}\n";

/* Round to half and back (a float holds every half exactly; one float
 * operation on halves rounded once to half is the half operation). */
static float rh(float x)
{
  return (float)(_Float16)x;
}

static float hat(const _Float16 *in, int x, int y, int w, int h)
{
  x = x < 0 ? 0 : x > w - 1 ? w - 1 : x;
  y = y < 0 ? 0 : y > h - 1 ? h - 1 : y;
  return (float)in[y * w + x];
}

TEST(half_lane_loops_are_vectorized_like_float)
{
  if (ct_target_has("avx512fp16"))
    tl_skip("the target computes in half natively: the vectorizer's width stands");
  char *ir = optimized_ir_for(half_dev(), half_src);
  unsigned W = ct_target_simd_bits() / 32;
  char narrow[64], wide[64], chain[64];
  snprintf(narrow, sizeof(narrow), "load <%u x half>, ptr addrspace(1)", W);
  snprintf(wide, sizeof(wide), "<%u x half>", 2 * W);
  snprintf(chain, sizeof(chain), "insertelement <%u x half> poison", W);
  unsigned plain = count_in_function(ir, "__lanecl_wg_hstencil", narrow);
  unsigned twice = count_in_function(ir, "__lanecl_wg_hstencil", wide);
  unsigned pred = count_in_function(ir, "__lanecl_wg_hstencil", "pred.store.if") +
                  count_in_function(ir, "__lanecl_wg_hstencil", "pred.load.if");
  unsigned scalarized = count_in_function(ir, "__lanecl_wg_hstencil", chain);
  unsigned sparse = count_in_function(ir, "__lanecl_wg_uscatter", "sparse.lane");
  unsigned upred = count_in_function(ir, "__lanecl_wg_uscatter", "pred.store.if");
  free(ir);
  ASSERT_TRUE(W >= 4);
  ASSERT_EQ(twice, 0); /* the width of 32-bit lanes */
  /* The rest is the float stencil's rewrite (test_wg_stencil.c), which
   * needs addresses in vector form: a target whose vectorizer makes no
   * gathers computes them lane by lane. */
  if (!ct_target_vectorizes(0))
    tl_skip("the target's loop vectorizer makes no gathers (%u-bit SIMD, CPU model's tuning)", ct_target_simd_bits());
  ASSERT_TRUE(plain > 0);     /* the clamped loads: vector loads behind a test */
  ASSERT_EQ(scalarized, 0);   /* no vector put together from W scalar loads */
  ASSERT_EQ(pred, 0);         /* no chain of one-lane blocks */
  ASSERT_EQ(upred, 0);
  ASSERT_TRUE(sparse > 0);    /* a loop over the lanes on */
}

/* A small lane loop over half: the loop vectorizer would interleave its
 * W-lane body 4 times (4W work-items per iteration), and a loop held to W
 * lanes has no W/2-lane epilogue (the width hint leaves no other plan), so
 * a local size of 16 ran every work-item in the scalar remainder: 2D half
 * kernels at 16x16 ran 1.5-3x slower than float.  The vector body must run
 * for W work-items: each lane loop's minimum-iterations test compares the
 * local size with W or less. */
static const char hsmall_src[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void hscale(global const half *in, global half *out, int w) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * w + x] = 0.5h * in[y * w + x] + 1.0h;\n"
    "}\n";

/* The largest constant N of "%min.iters.check... = icmp ult i64 %..., N" in
 * fn's body; 0 when there is none (no fn: the test fails). */
__attribute__((noinline)) static unsigned long max_min_iters(const char *ir, const char *fn)
{
  size_t len;
  const char *f = function_text(ir, fn, &len), *end = f + len;
  unsigned long most = 0;
  for (const char *q = f; (q = strstr(q, "%min.iters.check")) && q < end; q++) {
    const char *eol = strchr(q, '\n'), *comma = eol;
    while (comma > q && *comma != ',')
      comma--;
    if (comma > q && strstr(q, "= icmp ult") && strstr(q, "= icmp ult") < eol) {
      unsigned long n = strtoul(comma + 1, NULL, 10);
      most = n > most ? n : most;
    }
  }
  return most;
}

TEST(small_half_lane_loops_run_their_vector_body_for_w_work_items)
{
  if (ct_target_has("avx512fp16"))
    tl_skip("the target computes in half natively: the vectorizer's width stands");
  if (!ct_target_vectorizes(0))
    tl_skip("the target's loop vectorizer makes no gathers (%u-bit SIMD, CPU model's tuning)", ct_target_simd_bits());
  char *ir = optimized_ir_for(half_dev(), hsmall_src);
  unsigned W = ct_target_simd_bits() / 32;
  char narrow[64];
  snprintf(narrow, sizeof(narrow), "load <%u x half>", W);
  unsigned loads = count_in_function(ir, "__lanecl_wg_hscale", narrow);
  unsigned long most = max_min_iters(ir, "__lanecl_wg_hscale");
  free(ir);
  ASSERT_TRUE(loads > 0);
  ASSERT_TRUE(most > 0);
  if (most > W)
    tl_fail(__FILE__, __LINE__, "a lane loop's vector body needs %lu work-items, W = %u", most, W);
  /* the results at local size 16 and a remainder */
  enum { SW = 40, SH = 20 };
  _Float16 in[SW * SH], out[SW * SH];
  for (int i = 0; i < SW * SH; i++)
    in[i] = (_Float16)((float)((i * 29) % 97) * 0.71f - 30.0f);
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build_for(half_dev(), hsmall_src, levels[lv], &p);
    _Float16 *pi = in, *po = out;
    int w = SW;
    void *args[] = {&pi, &po, &w};
    wg_range r = {2, {SW, SH, 1}, {16, 4, 1}, {0, 0, 0}, NULL};
    memset(out, 0, sizeof(out));
    wg_run(&p, "hscale", args, &r);
    for (int i = 0; i < SW * SH; i++)
      ASSERT_TRUE((float)out[i] == rh(rh(0.5f * (float)in[i]) + 1.0f) ||
                  (float)out[i] == rh(0.5f * (float)in[i] + 1.0f));
    wg_free(&p);
  }
}

TEST(half_stencil_and_ushort_scatters_compute_right)
{
  enum { SW = 45, SH = 35, N = 200 };
  _Float16 *in = malloc(SW * SH * 2), *out = malloc(SW * SH * 2);
  for (int i = 0; i < SW * SH; i++)
    in[i] = (_Float16)((float)((i * 37) % 101) * 0.37f - 11.0f);
  uint16_t uin[N], uout[N + 8];
  int idx[N];
  for (int i = 0; i < N; i++) {
    uin[i] = (uint16_t)(i * 7919 + 13);
    idx[i] = (i * 73) % N; /* a permutation: 73 is prime to 200 */
  }
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build_for(half_dev(), half_src, levels[lv], &p);
    int w = SW, h = SH;
    void *args[] = {&in, &out, &w, &h};
    wg_range r = {2, {SW, SH, 1}, {16, 16, 1}, {0, 0, 0}, NULL};
    memset(out, 0, SW * SH * 2);
    wg_run(&p, "hstencil", args, &r);
    for (int y = 0; y < SH; y++)
      for (int x = 0; x < SW; x++) {
        int lx = x % 16, ly = y % 16, nx = x / 16 == SW / 16 ? SW % 16 : 16, ny = y / 16 == SH / 16 ? SH % 16 : 16;
        if ((lx == nx - 1 && nx != 16) || (ly == ny - 1 && ny != 16))
          continue; /* a smaller last group leaves halo cells unloaded */
        float s = rh(hat(in, x - 1, y, w, h) + hat(in, x + 1, y, w, h));
        s = rh(s + hat(in, x, y - 1, w, h));
        s = rh(s + hat(in, x, y + 1, w, h));
        float want = rh(rh(0.5f * hat(in, x, y, w, h)) + rh(0.125f * s));
        ASSERT_TRUE((float)out[y * SW + x] == want);
      }
    /* uscatter: groups of 24 (a vector and a remainder) over 200 */
    memset(uout, 0xab, sizeof(uout));
    uint16_t *pu = uin, *po = uout;
    int *pi = idx, n = N;
    void *uargs[] = {&pu, &pi, &po, &n};
    wg_range ru = range1(N, 24, NULL);
    wg_run(&p, "uscatter", uargs, &ru);
    for (int i = 0; i < N; i++) {
      int k = i - 3 < 0 ? 0 : i - 3, l = i % 24, m = i / 24 == N / 24 ? N % 24 : 24;
      uint16_t want = l == 0 || l == m - 1 ? (uint16_t)(uin[k] * 3 + 1) : 0xabab;
      ASSERT_EQ(uout[idx[i]], want);
    }
    for (int i = N; i < N + 8; i++)
      ASSERT_EQ(uout[i], 0xabab);
    wg_free(&p);
  }
  free(in);
  free(out);
}

/* The clamped loads' test that no lane's index wrapped (first and last
 * lanes of the 64-bit indices) reads the lanes of the 32-bit indices and
 * extends them (compiler/cc_wg_affine.c): the 64-bit vectors (two registers
 * each on AVX-512) are left to the gathers that the test guards, off the
 * plain path that every row of the half stencil runs. */
TEST(half_stencil_no_wrap_tests_read_32_bit_lanes)
{
  if (!ct_target_vectorizes(0))
    tl_skip("the target's loop vectorizer makes no gathers (%u-bit SIMD, CPU model's tuning)", ct_target_simd_bits());
  char *ir = optimized_ir_for(half_dev(), half_src);
  unsigned W = ct_target_simd_bits() / 32;
  char wide[64], narrow[64];
  snprintf(wide, sizeof(wide), "extractelement <%u x i64>", W);
  snprintf(narrow, sizeof(narrow), "extractelement <%u x i32>", W);
  unsigned nwide = count_in_function(ir, "__lanecl_wg_hstencil", wide);
  unsigned nnarrow = count_in_function(ir, "__lanecl_wg_hstencil", narrow);
  unsigned tests = count_in_function(ir, "__lanecl_wg_hstencil", "lanes.nowrap");
  free(ir);
  ASSERT_TRUE(tests > 0);
  ASSERT_EQ(nwide, 0);
  ASSERT_TRUE(nnarrow > 0);
}

/* a * 2^k + c for half a and c, contracted (fmuladd) and explicit (fma). */
static const char madd_src[] =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void hmadd(global const half *a, global const half *c, global half *out, global half *out2) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a[i] * 0.5h + c[i];\n"
    "  out2[i] = fma(a[i], -0.25h, c[i]);\n"
    "}\n";

TEST(half_pow2_multiply_add_is_one_float_fma)
{
  if (ct_target_has("avx512fp16"))
    tl_skip("the target computes in half natively: the code generator keeps the half fmuladd");
  char *ir = optimized_ir_for(half_dev(), half_src);
  char *ir2 = optimized_ir_for(half_dev(), madd_src);
  /* the stencil's 0.5h * tile[ly][lx] + 0.125h * (...) */
  /* "half @llvm.fma": a call of llvm.fma or llvm.fmuladd returning half
   * or a vector of half */
  unsigned left = count_in_function(ir, "__lanecl_wg_hstencil", "half @llvm.fma");
  unsigned fused = count_in_function(ir, "__lanecl_wg_hstencil", "half.fma");
  unsigned left2 = count_in_function(ir2, "__lanecl_wg_hmadd", "half @llvm.fma");
  unsigned fused2 = count_in_function(ir2, "__lanecl_wg_hmadd", "half.fma");
  free(ir);
  free(ir2);
  ASSERT_EQ(left, 0);
  ASSERT_TRUE(fused > 0);
  ASSERT_EQ(left2, 0);
  ASSERT_TRUE(fused2 >= 2);
}

/* The half bits of every class: zeros, subnormals (odd and even: half of
 * an odd one is a tie), normals near 1, the largest, infinities. */
static _Float16 madd_val(int i)
{
  static const uint16_t bits[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x0003, 0x0005, 0x03ff, 0x83ff, 0x0400, 0x0401,
                                  0x0403, 0x3c00, 0x3c01, 0x3c03, 0xbc01, 0x4000, 0x4001, 0x7bff, 0xfbff, 0x7bfe,
                                  0x1401, 0x9403, 0x7c00, 0xfc00};
  enum { NB = sizeof(bits) / sizeof(bits[0]) };
  uint16_t b = bits[i % NB];
  _Float16 h;
  memcpy(&h, &b, 2);
  return h;
}

/* The same half bits, or both NaN. */
static int half_same(_Float16 a, _Float16 b)
{
  return !memcmp(&a, &b, 2) || (isnan((float)a) && isnan((float)b));
}

TEST(half_pow2_multiply_add_rounds_once)
{
  enum { NB = 24, N = NB * NB };
  _Float16 a[N], c[N], out[N], out2[N];
  for (int i = 0; i < N; i++) {
    a[i] = madd_val(i % NB);
    c[i] = madd_val(i / NB);
  }
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build_for(half_dev(), madd_src, levels[lv], &p);
    _Float16 *pa = a, *pc = c, *po = out, *po2 = out2;
    void *args[] = {&pa, &pc, &po, &po2};
    wg_range r = range1(N, 64, NULL);
    wg_run(&p, "hmadd", args, &r);
    for (int i = 0; i < N; i++) {
      double x = (double)a[i], y = (double)c[i];
      /* fused: the exact value (a * 2^k and c fit a double's 53 bits
       * together) rounded once; unfused: the product rounded first */
      _Float16 fused = (_Float16)(x * 0.5 + y), unfused = (_Float16)((double)(_Float16)(x * 0.5) + y);
      _Float16 fused2 = (_Float16)(x * -0.25 + y);
      /* -cl-opt-disable leaves the fmuladd to the code generator (either is
       * a valid contraction); optimized, it is the fused one */
      if (!half_same(out[i], fused) && !(lv == 1 && half_same(out[i], unfused)))
        tl_fail(__FILE__, __LINE__, "level %d: %a * 0.5 + %a = %a, want %a", lv, x, y, (double)out[i], (double)fused);
      if (!half_same(out2[i], fused2))
        tl_fail(__FILE__, __LINE__, "level %d: fma(%a, -0.25, %a) = %a, want %a", lv, x, y, (double)out2[i],
                (double)fused2);
    }
    wg_free(&p);
  }
}

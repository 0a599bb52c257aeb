/* Lane loops around inner loops (compiler/cc_wg_outer.c): LLVM's VPlan-native
 * path vectorizes the lane loop when the inner loops have a uniform trip
 * count; a trip count per work-item or divergent branches go to masked
 * widening (compiler/cc_wg_diverge.c); anything neither takes (calls,
 * values used after the loop) stays scalar and says why in the report.  Each kernel runs at the default level and with
 * -cl-opt-disable and is checked against C, with group sizes that leave a
 * remainder of the vector width. */
#include "tests/compiler/wg_harness.h"

#include <math.h>

static const cc_kernel_info *built(wg_prog *p, const char *kernel, int lv)
{
  const cc_kernel_info *k = ct_kernel(&p->bin, kernel);
  if (lv == 1) {
    ASSERT_EQ(k->simd_width, 1);
    ASSERT_CONTAINS(k->report, "scalar (-cl-opt-disable)");
  }
  return k;
}

/* The report says the lane loop of region 0 was widened with masks. */
static void assert_masked(const cc_kernel_info *k)
{
  ASSERT_CONTAINS(k->report, "lane loop vectorized (masked: inner loops run while any lane is active), width");
  ASSERT_TRUE(k->simd_width > 1);
  ASSERT_TRUE(k->simd_width <= ct_target_simd_bits() / 32);
}

/* The report says the lane loop of region 0 went through the native path at full width. */
static void assert_outer_vectorized(const cc_kernel_info *k)
{
  ASSERT_CONTAINS(k->report, "inner loop, lane loop vectorized (outer loop), width");
  ASSERT_TRUE(k->simd_width > 1);
  ASSERT_TRUE(k->simd_width <= ct_target_simd_bits() / 32);
}

TEST(nbody_lane_loop_vectorizes_around_its_inner_loop)
{
  const char *src =
      "kernel void nbody(global const float4 *pos, global float4 *acc, int n, float eps) {\n"
      "  size_t i = get_global_id(0); float4 p = pos[i]; float4 a = (float4)(0.0f);\n"
      "  for (int j = 0; j < n; j++) {\n"
      "    float4 q = pos[j]; float4 d = q - p; d.w = 0.0f;\n"
      "    float r2 = dot(d, d) + eps; float inv = rsqrt(r2); float s = q.w * inv * inv * inv;\n"
      "    a += s * d;\n"
      "  }\n"
      "  acc[i] = a;\n"
      "}\n";
  enum { N = 300 }; /* groups of 64: the last one has 44 work-items */
  float *pos = malloc(N * 16), *acc = malloc(N * 16);
  for (int i = 0; i < N; i++) {
    pos[4 * i] = (float)(i % 17) * 0.25f;
    pos[4 * i + 1] = (float)(i % 5) - 2.0f;
    pos[4 * i + 2] = (float)(i % 11) * 0.5f;
    pos[4 * i + 3] = 1.0f + (float)(i % 3);
  }
  int n = N;
  float eps = 0.01f;
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    memset(acc, 0, N * 16);
    void *args[] = {&pos, &acc, &n, &eps};
    wg_range r = range1(N, 64, NULL);
    wg_run(&p, "nbody", args, &r);
    for (int i = 0; i < N; i++) {
      double a[3] = {0, 0, 0};
      for (int j = 0; j < N; j++) {
        double d[3], r2 = eps;
        for (int c = 0; c < 3; c++) {
          d[c] = (double)pos[4 * j + c] - pos[4 * i + c];
          r2 += d[c] * d[c];
        }
        double s = pos[4 * j + 3] / (r2 * sqrt(r2));
        for (int c = 0; c < 3; c++)
          a[c] += s * d[c];
      }
      for (int c = 0; c < 3; c++)
        ASSERT_TRUE(fabs(acc[4 * i + c] - a[c]) <= 1e-3 * fabs(a[c]) + 1e-2);
      ASSERT_TRUE(acc[4 * i + 3] == 0.0f);
    }
    const cc_kernel_info *k = built(&p, "nbody", lv);
    if (lv == 0) {
      assert_outer_vectorized(k);
      ASSERT_CONTAINS(k->report, "lane loops vectorized: 1 of 1");
      if (ct_target_simd_bits() == 512)
        ASSERT_CONTAINS(p.asm_text, "zmm");
      else if (strstr(p.asm_text, "zmm"))
        tl_fail(__FILE__, __LINE__, "zmm registers in code for a %u-bit target", ct_target_simd_bits());
    }
    wg_free(&p);
  }
  free(pos), free(acc);
}

TEST(sgemm_lane_loop_vectorizes_in_2d_groups)
{
  const char *src =
      "kernel void naive(int N, int K, global const float *A, global const float *B, global float *C) {\n"
      "  int c = get_global_id(0), r = get_global_id(1); float acc = 0.0f;\n"
      "  for (int k = 0; k < K; k++) acc += A[r * K + k] * B[k * N + c];\n"
      "  C[r * N + c] = acc;\n"
      "}\n"
      "kernel void dnaive(int N, int K, global const double *A, global const double *B, global double *C) {\n"
      "  int c = get_global_id(0), r = get_global_id(1); double acc = 0.0;\n"
      "  for (int k = 0; k < K; k++) acc += A[r * K + k] * B[k * N + c];\n"
      "  C[r * N + c] = acc;\n"
      "}\n";
  enum { N = 37, M = 10, K = 23 }; /* C is M x N; groups 16 x 4: remainders in x and y */
  float *A = malloc(M * K * 4), *B = malloc(K * N * 4), *C = malloc(M * N * 4);
  double *dA = malloc(M * K * 8), *dB = malloc(K * N * 8), *dC = malloc(M * N * 8);
  for (int i = 0; i < M * K; i++)
    dA[i] = A[i] = (float)((i * 7) % 13) / 8.0f;
  for (int i = 0; i < K * N; i++)
    dB[i] = B[i] = (float)((i * 5) % 9) / 4.0f - 1.0f;
  int n = N, kk = K;
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    wg_range r = {2, {N, M, 1}, {16, 4, 1}, {0, 0, 0}, NULL};
    void *args[] = {&n, &kk, &A, &B, &C};
    void *dargs[] = {&n, &kk, &dA, &dB, &dC};
    wg_run(&p, "naive", args, &r);
    wg_run(&p, "dnaive", dargs, &r);
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        double want = 0;
        for (int k = 0; k < K; k++)
          want += (double)A[i * K + k] * B[k * N + j];
        ASSERT_TRUE(fabs(C[i * N + j] - want) <= 1e-4 * fabs(want) + 1e-4);
        ASSERT_TRUE(fabs(dC[i * N + j] - want) <= 1e-12 * fabs(want) + 1e-12);
      }
    const cc_kernel_info *k = built(&p, "naive", lv), *dk = built(&p, "dnaive", lv);
    if (lv == 0) {
      assert_outer_vectorized(k);
      assert_outer_vectorized(dk);
    }
    wg_free(&p);
  }
  free(A), free(B), free(C), free(dA), free(dB), free(dC);
}

TEST(inner_loop_trip_count_per_work_item_vectorizes_masked)
{
  /* j runs to the work-item's own id: no uniform trip count.  With a libm
   * call in the loop (lg) neither path takes it. */
  const char *src = "kernel void tri(global const int *a, global int *out) {\n"
                    "  int l = get_local_id(0), s = 0;\n"
                    "  for (int j = 0; j <= l; j++) s += a[j] * (j + 1);\n"
                    "  out[get_global_id(0)] = s;\n"
                    "}\n"
                    "kernel void lg(global float *out) {\n"
                    "  int l = get_local_id(0); float s = 0;\n"
                    "  for (int j = 0; j <= l; j++) s += lgamma((float)j + 0.5f);\n"
                    "  out[get_global_id(0)] = s;\n"
                    "}\n";
  enum { N = 200, L = 40 };
  int *a = malloc(N * 4), *out = malloc(N * 4);
  for (int i = 0; i < N; i++)
    a[i] = i % 7 - 3;
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    void *args[] = {&a, &out};
    wg_range r = range1(N, L, NULL);
    wg_run(&p, "tri", args, &r);
    for (int g = 0; g < N; g++) {
      int s = 0;
      for (int j = 0; j <= g % L; j++)
        s += a[j] * (j + 1);
      ASSERT_EQ(out[g], s);
    }
    const cc_kernel_info *k = built(&p, "tri", lv);
    if (lv == 0) {
      ASSERT_CONTAINS(k->report, "inner loop, trip count per work-item, lane loop vectorized (masked");
      assert_masked(k);
      ASSERT_CONTAINS(built(&p, "lg", lv)->report,
                      "inner loop, trip count per work-item, lane loop not vectorized: a call of lgamma");
      ASSERT_EQ(built(&p, "lg", lv)->simd_width, 1);
    }
    wg_free(&p);
  }
  free(a), free(out);
}

TEST(division_and_scatter_bound_lane_varying_loops_stay_scalar)
{
  /* Loops whose trip count is the work-item's own, bound by integer
   * divisions (dl: no vector division, so widened each iteration divides
   * W lanes one by one, for as long as the longest lane runs) or by
   * accesses 128 bytes apart from lane to lane (rows: a gather and a
   * scatter per iteration, where the scalar loop's inner loop reads
   * consecutive ints) or a chase of pointers (chase: a gather an
   * iteration, little else): masked widening's cost model keeps them
   * scalar, with its reason.  fl, as divergent with float work, still widens. */
  const char *src = "kernel void dl(global int *out) {\n"
                    "  int i = get_global_id(0), n = i % 29, s = 0;\n"
                    "  for (int j = 0; j < n; j++) s += (s + i * 3 + j) / (1 + ((i + j) & 15));\n"
                    "  out[i] = s;\n"
                    "}\n"
                    "kernel void rows(global int *b) {\n"
                    "  int i = get_global_id(0); global int *row = b + i * 32;\n"
                    "  for (int j = 0; j < i % 31; j++) row[j] = row[j] * 3 + j;\n"
                    "}\n"
                    "kernel void chase(global const int *a, global int *out) {\n"
                    "  int i = get_global_id(0), p = i & 63, s = 0;\n"
                    "  for (int j = 0; j < i % 29; j++) { p = a[p] & 63; s += p; }\n"
                    "  out[i] = s;\n"
                    "}\n"
                    "kernel void fw(global int *b, int n, int k) {\n"
                    "  global int *row = b + get_global_id(0) * 32, *dst = row + k;\n"
                    "#pragma clang loop vectorize(enable) vectorize_width(8)\n"
                    "  for (int j = 0; j < n; j++) dst[j] = row[j] * 2 + 1;\n"
                    "}\n"
                    "kernel void fl(global float *out) {\n"
                    "  int i = get_global_id(0), n = i % 29; float x = i * 0.5f, y = 0.0f;\n"
                    "  for (int j = 0; j < n; j++) { y = y * 0.5f + x; x = x * 0.25f + 1.0f; }\n"
                    "  out[i] = y;\n"
                    "}\n";
  enum { N = 200, L = 40 };
  int *out = malloc(N * 4), *b = malloc(N * 32 * 4);
  float *f = malloc(N * 4);
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    wg_range r = range1(N, L, NULL);
    void *dargs[] = {&out};
    wg_run(&p, "dl", dargs, &r);
    for (int i = 0; i < N; i++) {
      int s = 0;
      for (int j = 0; j < i % 29; j++)
        s += (s + i * 3 + j) / (1 + ((i + j) & 15));
      ASSERT_EQ(out[i], s);
    }
    for (int i = 0; i < N * 32; i++)
      b[i] = i % 13;
    void *rargs[] = {&b};
    wg_run(&p, "rows", rargs, &r);
    for (int i = 0; i < N * 32; i++)
      ASSERT_EQ(b[i], i % 32 < (i / 32) % 31 ? (i % 13) * 3 + i % 32 : i % 13);
    for (int i = 0; i < N; i++)
      b[i] = (i * 37 + 11) % 97;
    void *cargs[] = {&b, &out};
    wg_run(&p, "chase", cargs, &r);
    for (int i = 0; i < N; i++) {
      int q = i & 63, s = 0;
      for (int j = 0; j < i % 29; j++) {
        q = b[q] & 63;
        s += q;
      }
      ASSERT_EQ(out[i], s);
    }
    void *fargs[] = {&f};
    wg_run(&p, "fl", fargs, &r);
    for (int i = 0; i < N; i++) {
      float x = i * 0.5f, y = 0.0f;
      for (int j = 0; j < i % 29; j++) {
        y = y * 0.5f + x;
        x = x * 0.25f + 1.0f;
      }
      ASSERT_TRUE(fabsf(f[i] - y) <= 1e-5f * fabsf(y));
    }
    if (lv == 0) {
      const cc_kernel_info *k = built(&p, "dl", lv);
      ASSERT_CONTAINS(k->report, "lane loop not vectorized: the trip count of an inner loop depends on the "
                                 "work-item (masked widening: slower than scalar: divisions dominate (");
      ASSERT_EQ(k->simd_width, 1);
      k = built(&p, "rows", lv);
      ASSERT_CONTAINS(k->report, "(masked widening: slower than scalar: gathers/scatters dominate (");
      k = built(&p, "chase", lv);
      ASSERT_CONTAINS(k->report, "(masked widening: slower than scalar: ");
      ASSERT_EQ(k->simd_width, 1);
      /* the whole line, both reasons: the native path's here is a long one
       * (the copy of the lane loop that the inner loop's pragma leaves) */
      k = built(&p, "fw", lv);
      const char *at = strstr(k->report, "(a copy of it not: an inner loop is not a count from 0 by 1 to a bound "
                                         "(what the native path takes) (masked widening: slower than scalar: "
                                         "gathers/scatters dominate (");
      ASSERT_TRUE(at != NULL);
      at = strchr(at, '\n');
      ASSERT_TRUE(at && at[-1] == ')' && at[-2] == ')' && at[-3] == ')');
      assert_masked(built(&p, "fl", lv));
    }
    wg_free(&p);
  }
  free(out), free(b), free(f);
}

TEST(divergent_branches_in_inner_loops_stay_correct)
{
  /* A store under a per-work-item condition inside the inner loop (it can't
   * become a select), and a break on loaded data. */
  const char *src = "kernel void div(global const int *a, global int *out, int n) {\n"
                    "  int g = get_global_id(0), s = 0;\n"
                    "  for (int j = 0; j < n; j++) {\n"
                    "    if ((g + j) % 3 == 0) out[g * n + j] = a[j] + g; else s += a[j];\n"
                    "  }\n"
                    "  out[g * n] += s;\n"
                    "}\n"
                    "kernel void brk(global const int *a, global int *out, int n) {\n"
                    "  int g = get_global_id(0), s = 0;\n"
                    "  for (int j = 0; j < n; j++) { if (a[j] + g > 20) break; s += a[j]; }\n"
                    "  out[g] = s;\n"
                    "}\n";
  enum { N = 70, NN = 9 };
  int *a = malloc(NN * 4), *out = malloc(N * NN * 4), n = NN;
  for (int j = 0; j < NN; j++)
    a[j] = j * 2 - 1;
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    for (int i = 0; i < N * NN; i++)
      out[i] = -7;
    void *args[] = {&a, &out, &n};
    wg_range r = range1(N, 32, NULL);
    wg_run(&p, "div", args, &r);
    for (int g = 0; g < N; g++) {
      int s = 0, row[NN];
      for (int j = 0; j < NN; j++)
        row[j] = -7;
      for (int j = 0; j < NN; j++) {
        if ((g + j) % 3 == 0)
          row[j] = a[j] + g;
        else
          s += a[j];
      }
      row[0] += s;
      for (int j = 0; j < NN; j++)
        ASSERT_EQ(out[g * NN + j], row[j]);
    }
    wg_run(&p, "brk", args, &r);
    for (int g = 0; g < N; g++) {
      int s = 0;
      for (int j = 0; j < NN && a[j] + g <= 20; j++)
        s += a[j];
      ASSERT_EQ(out[g], s);
    }
    if (lv == 0) {
      /* a branch on the work-item in the inner loop: the native path refuses
       * it; masked widening turns the store under it into a scatter, which
       * only AVX-512 has: elsewhere the cost model may keep the loop scalar,
       * and says so */
      const cc_kernel_info *kd = built(&p, "div", lv);
      if (ct_target_vectorizes(1) || strstr(kd->report, "lane loop vectorized (masked"))
        assert_masked(kd);
      else
        ASSERT_CONTAINS(kd->report, "lane loop not vectorized: a branch depends on the work-item (divergent control "
                                    "flow around an inner loop) (masked widening: slower than scalar: gathers/scatters "
                                    "dominate");
      /* a break on loaded data: the trip count is per work-item */
      ASSERT_CONTAINS(built(&p, "brk", lv)->report, "trip count per work-item, lane loop vectorized (masked");
    }
    wg_free(&p);
  }
  free(a), free(out);
}

TEST(calls_and_idioms_in_inner_loops_stay_scalar)
{
  /* A libm call the native path cannot widen (it would crash LLVM), and a
   * zeroing loop that becomes a memset. */
  const char *src = "kernel void lg(global const float *a, global float *b, int n) {\n"
                    "  size_t i = get_global_id(0); float s = 0;\n"
                    "  for (int j = 0; j < n; j++) s += lgamma(a[j] + (float)i);\n"
                    "  b[i] = s;\n"
                    "}\n"
                    "kernel void zero(global int *o, int n) {\n"
                    "  int i = get_global_id(0);\n"
                    "  for (int j = 0; j < n; j++) o[i * n + j] = 0;\n"
                    "  o[i * n] = i;\n"
                    "}\n";
  enum { N = 50, NN = 6 };
  float *a = malloc(NN * 4), *b = malloc(N * 4);
  int *o = malloc(N * NN * 4), n = NN;
  for (int j = 0; j < NN; j++)
    a[j] = 0.5f + (float)j;
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    void *args[] = {&a, &b, &n};
    wg_range r = range1(N, 16, NULL);
    wg_run(&p, "lg", args, &r);
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int j = 0; j < NN; j++)
        s += lgamma((double)a[j] + i);
      ASSERT_TRUE(fabs(b[i] - s) <= 1e-4 * fabs(s) + 1e-3);
    }
    for (int i = 0; i < N * NN; i++)
      o[i] = 5;
    void *zargs[] = {&o, &n};
    wg_run(&p, "zero", zargs, &r);
    for (int i = 0; i < N * NN; i++)
      ASSERT_EQ(o[i], i % NN ? 0 : i / NN);
    if (lv == 0)
      ASSERT_CONTAINS(built(&p, "lg", lv)->report, "lane loop not vectorized: a call of");
    wg_free(&p);
  }
  free(a), free(b), free(o);
}

TEST(inner_loops_in_regions_between_barriers)
{
  /* A region with an inner loop that ends at either of two boundaries (the
   * barrier again, or the end): the boundary reached is a value used after
   * the lane loop.  And a nest of two uniform inner loops. */
  const char *src = "kernel void two(global const float *a, global float *b, local float *t, int n, int T) {\n"
                    "  size_t i = get_global_id(0), l = get_local_id(0); float s = 0;\n"
                    "  for (int u = 0; u < T; u++) {\n"
                    "    for (int j = 0; j < n; j++) s += a[j] * (float)(u + 1);\n"
                    "    t[l] = s;\n"
                    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "    s += t[get_local_size(0) - 1 - l];\n"
                    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "  }\n"
                    "  b[i] = s;\n"
                    "}\n"
                    "kernel void nest(global const int *a, global int *b, int n, int m) {\n"
                    "  int i = get_global_id(0), s = 0;\n"
                    "  for (int x = 0; x < n; x++) for (int y = 0; y < m; y++) s += a[x * m + y] * (i + x - y);\n"
                    "  b[i] = s;\n"
                    "}\n";
  enum { N = 90, L = 30, NA = 5, T = 3 };
  float *a = malloc(NA * NA * 4), *b = malloc(N * 4), want[N];
  int *ia = malloc(NA * NA * 4), *ib = malloc(N * 4);
  for (int j = 0; j < NA * NA; j++) {
    a[j] = (float)(j % 4) - 1.5f;
    ia[j] = j % 6 - 2;
  }
  /* The C model of "two": per group, s after each round. */
  for (int g0 = 0; g0 < N; g0 += L) {
    float s[L];
    for (int l = 0; l < L; l++)
      s[l] = 0;
    for (int u = 0; u < T; u++) {
      float t[L];
      for (int l = 0; l < L; l++) {
        for (int j = 0; j < NA; j++)
          s[l] += a[j] * (float)(u + 1);
        t[l] = s[l];
      }
      for (int l = 0; l < L; l++)
        s[l] += t[L - 1 - l];
    }
    for (int l = 0; l < L; l++)
      want[g0 + l] = s[l];
  }
  int n = NA, m = NA, tt = T;
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    size_t lb[] = {0, 0, L * 4, 0, 0};
    void *args[] = {&a, &b, NULL, &n, &tt};
    wg_range r = range1(N, L, lb);
    wg_run(&p, "two", args, &r);
    for (int i = 0; i < N; i++)
      ASSERT_TRUE(fabsf(b[i] - want[i]) <= 1e-4f * fabsf(want[i]) + 1e-4f);
    void *nargs[] = {&ia, &ib, &n, &m};
    wg_range r2 = range1(N, 32, NULL);
    wg_run(&p, "nest", nargs, &r2);
    for (int i = 0; i < N; i++) {
      int s = 0;
      for (int x = 0; x < NA; x++)
        for (int y = 0; y < NA; y++)
          s += ia[x * NA + y] * (i + x - y);
      ASSERT_EQ(ib[i], s);
    }
    if (lv == 0)
      assert_outer_vectorized(built(&p, "nest", lv));
    wg_free(&p);
  }
  free(a), free(b), free(ia), free(ib);
}

TEST(gathers_of_one_or_consecutive_addresses_become_plain_loads)
{
  /* The native path makes every access a gather or scatter: a[j] (one
   * address for all work-items), a[i + j] and b[i] (consecutive) must come
   * out as a broadcast load, vector loads and a vector store.  With int ids
   * (a sign extension of a truncation) the plain access sits behind a test
   * that no lane wraps ("lanes.nowrap"), the gather kept for that case.
   * c[2 * i] (stride 2) becomes masked loads of the span and a shuffle
   * after O3 (wg_strided_accesses). */
  const char *src = "kernel void corr(global const float *a, global float *b, int n) {\n"
                    "  size_t i = get_global_id(0); float s = 0;\n"
                    "  for (int j = 0; j < n; j++) s += a[j] * a[i + j];\n"
                    "  b[i] = s;\n"
                    "}\n"
                    "kernel void icorr(global const float *a, global float *b, int n) {\n"
                    "  int i = get_global_id(0); float s = 0;\n"
                    "  for (int j = 0; j < n; j++) s += a[j] * a[i + j];\n"
                    "  b[i] = s;\n"
                    "}\n"
                    "kernel void str(global const float *a, global float *b, global const float *c, int n) {\n"
                    "  size_t i = get_global_id(0); float s = 0;\n"
                    "  for (int j = 0; j < n; j++) s += a[j] * c[2 * i + j];\n"
                    "  b[i] = s;\n"
                    "}\n";
  char *ir = optimized_ir(src);
  unsigned W = ct_target_simd_bits() / 32;
  char want[64];
  snprintf(want, sizeof(want), "load <%u x float>", W);
  ASSERT_CONTAINS(ir, want);
  snprintf(want, sizeof(want), "store <%u x float>", W);
  ASSERT_CONTAINS(ir, want);
  unsigned cg = count_in_function(ir, "__lanecl_wg_corr", "@llvm.masked.gather");
  unsigned cs = count_in_function(ir, "__lanecl_wg_corr", "@llvm.masked.scatter");
  unsigned ig = count_in_function(ir, "__lanecl_wg_icorr", "lanes.nowrap");
  unsigned sg = count_in_function(ir, "__lanecl_wg_str", "@llvm.masked.gather");
  unsigned sl = count_in_function(ir, "__lanecl_wg_str", "@llvm.masked.load");
  free(ir);
  ASSERT_EQ(cg, 0);
  ASSERT_EQ(cs, 0);
  ASSERT_TRUE(ig > 0);
  ASSERT_EQ(sg, 0);
  ASSERT_TRUE(sl > 0);

  enum { N = 100, NN = 7 };
  float *a = malloc((N + NN) * 4), *b = malloc(N * 4), *c = malloc((2 * N + NN) * 4);
  for (int i = 0; i < N + NN; i++)
    a[i] = (float)(i % 9) - 4.0f;
  for (int i = 0; i < 2 * N + NN; i++)
    c[i] = (float)(i % 13);
  int n = NN;
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    void *args[] = {&a, &b, &n};
    wg_range r = range1(N, 48, NULL);
    for (int k = 0; k < 2; k++) {
      wg_run(&p, k ? "icorr" : "corr", args, &r);
      for (int i = 0; i < N; i++) {
        float s = 0;
        for (int j = 0; j < NN; j++)
          s += a[j] * a[i + j];
        ASSERT_TRUE(fabsf(b[i] - s) <= 1e-4f);
      }
    }
    void *sargs[] = {&a, &b, &c, &n};
    wg_run(&p, "str", sargs, &r);
    for (int i = 0; i < N; i++) {
      float s = 0;
      for (int j = 0; j < NN; j++)
        s += a[j] * c[2 * i + j];
      ASSERT_TRUE(fabsf(b[i] - s) <= 1e-4f);
    }
    if (lv == 0) {
      assert_outer_vectorized(built(&p, "corr", lv));
      assert_outer_vectorized(built(&p, "icorr", lv));
      assert_outer_vectorized(built(&p, "str", lv));
    }
    wg_free(&p);
  }
  free(a), free(b), free(c);
}

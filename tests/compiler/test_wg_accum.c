/* Inner loops that sum into memory (compiler/cc_wg_accum.c): PolyBench's
 * covariance kernel, whose inner loop stores symmat[j1 * m + j2] in every
 * iteration and whose outer loop's trip count is the work-item's own, is
 * widened with masks (it stayed scalar before: a gather and a scatter per
 * iteration), and the results are those of the loop as written: at sizes
 * and local sizes that are and aren't multiples of the vector width, at
 * -cl-opt-disable, where the stored address lies inside what the loop reads
 * for some work-items of a chunk and not for others (each lane takes its own
 * copy), and where the index arithmetic may wrap (no copy). */
#include "tests/compiler/wg_harness.h"

static unsigned lanes(void)
{
  return ct_target_simd_bits() / 32;
}

static const char src[] =
    "kernel void covar(global float *symmat, global const float *data, int m, int n) {\n"
    "  int j1 = get_global_id(0);\n"
    "  if (j1 < m) for (int j2 = j1; j2 < m; j2++) {\n"
    "    symmat[j1 * m + j2] = 0.0f;\n"
    "    for (int i = 0; i < n; i++) symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];\n"
    "    symmat[j2 * m + j1] = symmat[j1 * m + j2]; } }\n"
    /* work-item i sums into A[i * n + c] from its own row A[i * n + j..]:
     * what it reads overlaps what it stores where i <= c */
    "kernel void own_tail(global int *A, global const int *x, int n, int c, int reps) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) for (int r = i % 3; r < reps; r++)\n"
    "    for (int j = i; j < n; j++) A[i * n + c] += A[i * n + j] * x[j] + r; }\n"
    /* unsigned indices wrap: not shown affine, the loop stays as written */
    "kernel void wrapping(global uint *out, global const uint *a, uint m, uint n) {\n"
    "  uint j = get_global_id(0);\n"
    "  if (j < m) for (uint k = j; k < m; k++) {\n"
    "    out[j * m + k] = 1u;\n"
    "    for (uint i = 0; i < n; i++) out[j * m + k] += a[i * m + j] * a[i * m + k]; } }\n";

/* src built once per level */
static wg_prog *built(unsigned level)
{
  static wg_prog progs[2];
  static int done[2];
  if (!done[level]) {
    wg_build(src, levels[level], &progs[level]);
    done[level] = 1;
  }
  return &progs[level];
}

TEST(covariance_keeps_its_sum_in_a_register_and_is_widened)
{
  if (lanes() < 4)
    tl_skip("no vector lanes on this target");
  const cc_kernel_info *k = ct_kernel(&built(0)->bin, "covar");
  ASSERT_CONTAINS(k->report, "1 inner loop keeps the sum it stores in a register");
  ASSERT_CONTAINS(k->report, "trip count per work-item, lane loop vectorized (masked");
}

/* The covariance's inner loop reads data[i * m + j2], where j2 starts at the
 * work-item's id and steps by 1: consecutive across the lanes, so a vector
 * load in the loop's fast copy, as data[i * m + j1] is (it was a gather:
 * the counter's start, a sign extension, holds only under a no-wrap test,
 * which the counter now keeps). */
TEST(covariance_reads_the_moving_column_as_vectors)
{
  if (lanes() < 4)
    tl_skip("no vector lanes on this target");
  char *ir = optimized_ir(src);
  /* the inner loops whose accesses cc_wg_affine.c made plain, behind their no-wrap test */
  unsigned blocks, plain = blocks_without_gathers(ir, LANECL_WG_PREFIX "covar", "lanes.guarded", "load", 0, &blocks);
  free(ir);
  unsigned with_gathers = blocks - plain;
  if (!blocks || with_gathers)
    tl_fail(__FILE__, __LINE__, "covar: %u fast inner loops, %u of them with a gather", blocks, with_gathers);
}

/* Small integers: every sum is exact in float. */
static float dv(size_t k) { return (float)((int)(k % 7) - 3); }

static void run_covar(unsigned level, int m, int n, size_t local)
{
  size_t mm = (size_t)m * m, mn = (size_t)m * n;
  float *sym = malloc(mm * 4), *data = malloc((mn ? mn : 1) * 4);
  ASSERT_TRUE(sym && data);
  for (size_t k = 0; k < mn; k++)
    data[k] = dv(k * 5 + 1);
  for (size_t k = 0; k < mm; k++)
    sym[k] = -99.0f;
  void *args[] = {&sym, &data, &m, &n};
  wg_range r = range1((m + local - 1) / local * local, local, NULL);
  wg_run(built(level), "covar", args, &r);
  for (int j1 = 0; j1 < m; j1++)
    for (int j2 = j1; j2 < m; j2++) {
      float want = 0.0f;
      for (int i = 0; i < n; i++)
        want += data[(size_t)i * m + j1] * data[(size_t)i * m + j2];
      float got1 = sym[(size_t)j1 * m + j2], got2 = sym[(size_t)j2 * m + j1];
      if (got1 != want || got2 != want)
        tl_fail(__FILE__, __LINE__, "%s m=%d n=%d local=%zu: symmat[%d][%d] = %g and [%d][%d] = %g, want %g",
                levels[level], m, n, local, j1, j2, got1, j2, j1, got2, want);
    }
  free(sym), free(data);
}

TEST(covariance_results_at_every_size)
{
  static const int ms[] = {1, 5, 16, 33, 100};
  static const int ns[] = {0, 1, 7, 64};
  static const size_t locals[] = {64, 20, 16};
  for (unsigned o = 0; o < 2; o++)
    for (unsigned a = 0; a < sizeof(ms) / sizeof(ms[0]); a++)
      for (unsigned b = 0; b < sizeof(ns) / sizeof(ns[0]); b++)
        for (unsigned l = 0; l < sizeof(locals) / sizeof(locals[0]); l++)
          run_covar(o, ms[a], ns[b], locals[l]);
}

/* The stored address inside what the loop reads, in some lanes of a chunk:
 * those lanes run the loop as written (each later iteration reads the sum
 * so far), the others their register copy. */
TEST(lanes_whose_sum_overlaps_what_they_read_run_the_loop_as_written)
{
  static const int ns[] = {9, 40, 77};
  for (unsigned o = 0; o < 2; o++)
    for (unsigned k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
      int n = ns[k], c = n / 2, reps = 3;
      size_t nn = (size_t)n * n;
      int *A = malloc(nn * 4), *want = malloc(nn * 4), *x = malloc((size_t)n * 4);
      ASSERT_TRUE(A && want && x);
      for (size_t q = 0; q < nn; q++)
        A[q] = want[q] = (int)(q % 11) - 5;
      for (int q = 0; q < n; q++)
        x[q] = q % 3 - 1;
      for (int i = 0; i < n; i++)
        for (int r = i % 3; r < reps; r++)
          for (int j = i; j < n; j++)
            want[(size_t)i * n + c] += want[(size_t)i * n + j] * x[j] + r;
      void *args[] = {&A, &x, &n, &c, &reps};
      wg_range r = range1((n + 31) / 32 * 32, 32, NULL);
      wg_run(built(o), "own_tail", args, &r);
      for (size_t q = 0; q < nn; q++)
        if (A[q] != want[q])
          tl_fail(__FILE__, __LINE__, "%s n=%d: A[%zu] = %d, want %d", levels[o], n, q, A[q], want[q]);
      free(A), free(want), free(x);
    }
}

TEST(wrapping_unsigned_indices_keep_the_loop_as_written)
{
  if (lanes() >= 4)
    ASSERT_TRUE(!strstr(ct_kernel(&built(0)->bin, "wrapping")->report, "keeps the sum it stores in a register"));
  for (unsigned o = 0; o < 2; o++) {
    unsigned m = 37, n = 13;
    unsigned *out = malloc((size_t)m * m * 4), *a = malloc((size_t)m * n * 4);
    ASSERT_TRUE(out && a);
    for (size_t q = 0; q < (size_t)m * n; q++)
      a[q] = (unsigned)(q * 2654435761u >> 5);
    memset(out, 0, (size_t)m * m * 4);
    void *args[] = {&out, &a, &m, &n};
    wg_range r = range1(48, 16, NULL);
    wg_run(built(o), "wrapping", args, &r);
    for (unsigned j = 0; j < m; j++)
      for (unsigned k = j; k < m; k++) {
        unsigned s = 1u;
        for (unsigned i = 0; i < n; i++)
          s += a[i * m + j] * a[i * m + k];
        if (out[j * m + k] != s)
          tl_fail(__FILE__, __LINE__, "%s: out[%u][%u] = %u, want %u", levels[o], j, k, out[j * m + k], s);
      }
    free(out), free(a);
  }
}

/* A phi whose incoming values are both loaded (the offsets a work-item
 * stores at, read in each arm of a branch) has no lane form.  The phi
 * analysis (compiler/cc_wg_affine.c analyze_phi) guessed stride 0 for it
 * while asking its incoming values, and on failure left that guess in its
 * memo: the next access through the phi read it as one address, and the
 * third element of each vstore3 (its own scatter) became a store of one
 * lane.  CTS test_basic vstore_global: int3, uint3, float3, long3, ulong3,
 * double3 lost their third component in groups of 8 or more. */
static const char st3_src[] =
    "kernel void st3(global const int *src, global const uint *off, global int *dst) {\n"
    "  int t = get_global_id(0);\n"
    "  if ((t & 3) == 0)\n"
    "    vstore3(vload3(t >> 2, src + 600), off[t], dst);\n"
    "  else\n"
    "    vstore3(vload3(t, src), off[t], dst);\n"
    "}\n";

TEST(stores_through_offsets_loaded_in_both_arms_keep_every_lane)
{
  enum { N = 64 };
  static int src[800], dst[3 * N + 8];
  static unsigned off[N];
  for (int i = 0; i < 800; i++)
    src[i] = i * 7 + 1;
  for (int i = 0; i < N; i++)
    off[i] = (unsigned)((i * 37) % N); /* a permutation: 37 is prime to 64 */
  static const size_t locals[] = {4, 8, 16, 64};
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(st3_src, levels[lv], &p);
    for (unsigned li = 0; li < sizeof(locals) / sizeof(locals[0]); li++) {
      memset(dst, 0xff, sizeof(dst));
      int *ps = src, *pd = dst;
      unsigned *po = off;
      void *args[] = {&ps, &po, &pd};
      wg_range r = range1(N, locals[li], NULL);
      wg_run(&p, "st3", args, &r);
      for (int t = 0; t < N; t++)
        for (int c = 0; c < 3; c++) {
          int want = (t & 3) == 0 ? src[600 + 3 * (t >> 2) + c] : src[3 * t + c];
          int got = dst[3 * off[t] + c];
          if (got != want)
            tl_fail(__FILE__, __LINE__, "level %d, local %zu: work-item %d element %d = %d, want %d", lv, locals[li], t,
                    c, got, want);
        }
    }
    wg_free(&p);
  }
}

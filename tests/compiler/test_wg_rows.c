/* Inner-loop gathers read as rows (compiler/cc_wg_rows.c): the row dot
 * product A[i * n + j] vectorized across work-items reads, in its new form,
 * each lane's next W elements with one vector load and transposes them, with
 * no gather in that loop; the results are those of the loop as written, also
 * where stores overlap the rows (the loop as written then runs), where
 * arguments are the same buffer, for trip counts and local sizes that are
 * and aren't multiples of the vector width, and at -cl-opt-disable. */
#include "tests/compiler/wg_harness.h"

static unsigned lanes(void)
{
  return ct_target_simd_bits() / 32;
}

static const char src[] =
    "kernel void gesummv(global float *a, global float *b, global float *x, global float *y, global float *tmp,\n"
    "                    float alpha, float beta, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) { for (int j = 0; j < n; j++) { tmp[i] += a[i * n + j] * x[j]; y[i] += b[i * n + j] * x[j]; }\n"
    "               y[i] = alpha * tmp[i] + beta * y[i]; } }\n"
    "kernel void own_row(global float *A, global const float *x, int n, int c) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) for (int j = 0; j < n; j++) A[i * n + c] += A[i * n + j] * x[j]; }\n"
    "kernel void irow(global uint *y, global const uint *A, global const uint *x, int n) {\n"
    "  int i = get_global_id(0); if (i < n) { uint s = 0;\n"
    "  for (int j = 0; j < n; j++) s += A[i * n + j] * x[j]; y[i] = s; } }\n"
    /* PolyBench's SYR2K: c[i * n + j] stored in every iteration behind the
     * test that its extended index did not wrap (computed before the loop) */
    "kernel void syr2k(global float *a, global float *b, global float *c, float alpha, float beta, int ni, int nj) {\n"
    "  int j = get_global_id(0), i = get_global_id(1);\n"
    "  if (i < nj && j < nj) { c[i * nj + j] *= beta;\n"
    "    for (int k = 0; k < ni; k++)\n"
    "      c[i * nj + j] += alpha * a[i * ni + k] * b[j * ni + k] + alpha * b[i * ni + k] * a[j * ni + k]; } }\n";

TEST(row_dot_product_reads_rows_without_gathers)
{
  unsigned W = lanes();
  if (W < 4)
    tl_skip("no vector lanes on this target");
  char *ir = optimized_ir(src);
  char fload[64], iload[64];
  snprintf(fload, sizeof(fload), "load <%u x float>, ptr", W);
  snprintf(iload, sizeof(iload), "load <%u x i32>, ptr", W);
  unsigned seen, seen_i;
  /* W rows of a and W of b per run of W iterations, no gather */
  unsigned g = blocks_without_gathers(ir, "__lanecl_wg_gesummv", "rows.block", fload, 2 * W, &seen);
  unsigned gi = blocks_without_gathers(ir, "__lanecl_wg_irow", "rows.block", iload, W, &seen_i);
  free(ir);
  ASSERT_TRUE(seen >= 1);
  ASSERT_TRUE(g >= 1);
  ASSERT_TRUE(gi >= 1);

  wg_prog p;
  wg_build(src, levels[0], &p);
  ASSERT_CONTAINS(ct_kernel(&p.bin, "gesummv")->report, "inner loop reads 2 strided gathers as rows");
  ASSERT_CONTAINS(ct_kernel(&p.bin, "own_row")->report, "inner loop reads 1 strided gather as rows");
  ASSERT_CONTAINS(ct_kernel(&p.bin, "irow")->report, "inner loop reads 1 strided gather as rows");
  /* the store's no-wrap test versions the loop (cc_wg_affine.c), so its copy is one block */
  ASSERT_CONTAINS(ct_kernel(&p.bin, "syr2k")->report, "inner loop reads 2 strided gathers as rows");
  wg_free(&p);
}

/* Small integers: every sum is exact in float, whatever the rounding of
 * each step, so the reference is exact. */
static float av(size_t k) { return (float)((int)(k % 7) - 3); }
static float bv(size_t k) { return (float)((int)(k % 3) - 1); }
static float xv(size_t k) { return (float)((int)(k % 5) - 2); }

enum { PLAIN, TMP_IS_Y, X_IS_A };

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

static void run_gesummv(unsigned level, int n, size_t local, int alias)
{
  size_t nn = (size_t)n * n;
  float *a = malloc(nn * 4), *b = malloc(nn * 4), *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4),
        *tmp = malloc((size_t)n * 4), *want = malloc((size_t)n * 4);
  ASSERT_TRUE(a && b && x && y && tmp && want);
  for (size_t k = 0; k < nn; k++)
    a[k] = av(k), b[k] = bv(k);
  for (int k = 0; k < n; k++)
    x[k] = xv((size_t)k), y[k] = (float)(k % 4), tmp[k] = (float)(k % 3);
  float alpha = 2.0f, beta = 3.0f;
  float *xp = alias == X_IS_A ? a : x, *tp = alias == TMP_IS_Y ? y : tmp;
  for (int i = 0; i < n; i++) {
    float t = tp[i], s = y[i];
    if (alias == TMP_IS_Y) {
      for (int j = 0; j < n; j++) {
        t += a[(size_t)i * n + j] * xp[j];
        t += b[(size_t)i * n + j] * xp[j];
      }
      want[i] = alpha * t + beta * t;
    } else {
      for (int j = 0; j < n; j++) {
        t += a[(size_t)i * n + j] * xp[j];
        s += b[(size_t)i * n + j] * xp[j];
      }
      want[i] = alpha * t + beta * s;
    }
  }
  void *args[] = {&a, &b, &xp, &y, &tp, &alpha, &beta, &n};
  wg_range r = range1((n + local - 1) / local * local, local, NULL);
  wg_run(built(level), "gesummv", args, &r);
  for (int i = 0; i < n; i++)
    if (y[i] != want[i])
      tl_fail(__FILE__, __LINE__, "%s n=%d local=%zu alias=%d: y[%d] = %g, want %g", levels[level], n, local, alias,
              i, y[i], want[i]);
  free(a), free(b), free(x), free(y), free(tmp), free(want);
}

TEST(row_dot_product_results_at_every_size)
{
  static const int ns[] = {3, 16, 37, 100, 256, 400};
  static const size_t locals[] = {256, 20, 16};
  for (unsigned o = 0; o < 2; o++)
    for (unsigned k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
      for (unsigned l = 0; l < sizeof(locals) / sizeof(locals[0]); l++)
        run_gesummv(o, ns[k], locals[l], PLAIN);
}

TEST(row_dot_product_results_with_arguments_that_are_one_buffer)
{
  static const int ns[] = {37, 300};
  for (unsigned o = 0; o < 2; o++)
    for (unsigned k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
      run_gesummv(o, ns[k], 64, TMP_IS_Y); /* two stores to one place: the loop as written */
      run_gesummv(o, ns[k], 64, X_IS_A);   /* x is A's first row: both only read */
    }
}

/* A[i * n + c] += A[i * n + j] * x[j]: each work-item stores into the row
 * it reads, so a run of W iterations would read A[i * n + c] before the
 * stores that precede it: the chunk's overlap check takes the loop as
 * written (every work-item touches only its own row: no race). */
TEST(row_dot_product_storing_into_its_rows_runs_as_written)
{
  static const int ns[] = {40, 129};
  for (unsigned o = 0; o < 2; o++)
    for (unsigned k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
      int n = ns[k];
      size_t nn = (size_t)n * n;
      float *A = malloc(nn * 4), *want = malloc(nn * 4), *x = malloc((size_t)n * 4);
      ASSERT_TRUE(A && want && x);
      for (size_t q = 0; q < nn; q++)
        A[q] = want[q] = av(q);
      for (int q = 0; q < n; q++)
        x[q] = xv((size_t)q);
      int c = n / 2 + 1;
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          want[(size_t)i * n + c] += want[(size_t)i * n + j] * x[j];
      void *args[] = {&A, &x, &n, &c};
      wg_range r = range1((n + 63) / 64 * 64, 64, NULL);
      wg_run(built(o), "own_row", args, &r);
      for (size_t q = 0; q < nn; q++)
        if (A[q] != want[q])
          tl_fail(__FILE__, __LINE__, "%s n=%d: A[%zu] = %g, want %g", levels[o], n, q, A[q], want[q]);
      free(A), free(want), free(x);
    }
}

/* uint: wrapping products and sums, exact */
TEST(integer_row_dot_product_results)
{
  static const int ns[] = {7, 33, 250};
  for (unsigned o = 0; o < 2; o++)
    for (unsigned k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
      int n = ns[k];
      size_t nn = (size_t)n * n;
      unsigned *A = malloc(nn * 4), *x = malloc((size_t)n * 4), *y = calloc((size_t)n, 4);
      ASSERT_TRUE(A && x && y);
      for (size_t q = 0; q < nn; q++)
        A[q] = (unsigned)(q * 2654435761u >> 3);
      for (int q = 0; q < n; q++)
        x[q] = (unsigned)q * 40503u - 77u;
      void *args[] = {&y, &A, &x, &n};
      wg_range r = range1((n + 47) / 48 * 48, 48, NULL);
      wg_run(built(o), "irow", args, &r);
      for (int i = 0; i < n; i++) {
        unsigned s = 0;
        for (int j = 0; j < n; j++)
          s += A[(size_t)i * n + j] * x[j];
        if (y[i] != s)
          tl_fail(__FILE__, __LINE__, "%s n=%d: y[%d] = %u, want %u", levels[o], n, i, y[i], s);
      }
      free(A), free(x), free(y);
    }
}

/* SYR2K: the versioned loop (plain store of c) and its rows, against C */
TEST(syr2k_results_at_every_size)
{
  static const int ns[] = {5, 33, 100};
  static const size_t locals[] = {32, 20};
  for (unsigned o = 0; o < 2; o++)
    for (unsigned q = 0; q < sizeof(ns) / sizeof(ns[0]); q++)
      for (unsigned l = 0; l < sizeof(locals) / sizeof(locals[0]); l++) {
        int n = ns[q], ni = n + 3;
        size_t na = (size_t)n * ni, nc = (size_t)n * n;
        float *a = malloc(na * 4), *b = malloc(na * 4), *c = malloc(nc * 4), *want = malloc(nc * 4);
        ASSERT_TRUE(a && b && c && want);
        for (size_t k = 0; k < na; k++)
          a[k] = av(k), b[k] = bv(k * 3 + 1);
        for (size_t k = 0; k < nc; k++)
          c[k] = want[k] = xv(k);
        float alpha = 2.0f, beta = 3.0f;
        for (int i = 0; i < n; i++)
          for (int j = 0; j < n; j++) {
            float t = want[(size_t)i * n + j] * beta;
            for (int k = 0; k < ni; k++)
              t += alpha * a[(size_t)i * ni + k] * b[(size_t)j * ni + k] +
                   alpha * b[(size_t)i * ni + k] * a[(size_t)j * ni + k];
            want[(size_t)i * n + j] = t;
          }
        void *args[] = {&a, &b, &c, &alpha, &beta, &ni, &n};
        size_t local = locals[l], g = (n + local - 1) / local * local;
        wg_range r = range1(g, local, NULL);
        r.dim = 2, r.global[1] = (size_t)n, r.local[1] = 1;
        wg_run(built(o), "syr2k", args, &r);
        for (size_t k = 0; k < nc; k++)
          if (c[k] != want[k])
            tl_fail(__FILE__, __LINE__, "%s n=%d local=%zu: c[%zu] = %g, want %g", levels[o], n, local, k, c[k],
                    want[k]);
        free(a), free(b), free(c), free(want);
      }
}

/* A work-item that reads and writes a row of its own (cc_wg_regions.c,
 * rows_of_their_own): 16 elements 17 apart ran as 16 gathers and 16
 * scatters per chunk, and the same in a loop of a launch-time length as
 * strided gathers and scatters per iteration; both run one work-item at a
 * time.  Not so: rows of 4
 * (RGBA pixels: the loop vectorizer's interleave groups), rows whose
 * elements go through math, rows of different work-items that overlap. */
static const char own_src[] =
    "kernel void own16(global float *w, global const float *b)\n"
    "{ size_t i = get_global_id(0); for (int j = 0; j < 16; j++) w[i * 17 + j] += b[j]; }\n"
    "kernel void own4(global float *w, global const float *b)\n"
    "{ size_t i = get_global_id(0); for (int j = 0; j < 4; j++) w[i * 4 + j] += b[j]; }\n"
    "kernel void own16sin(global float *w, global const float *b)\n"
    "{ size_t i = get_global_id(0); for (int j = 0; j < 16; j++) w[i * 17 + j] = sin(w[i * 17 + j] + b[j]); }\n"
    "kernel void overlap(global float *w, global const float *b)\n"
    "{ size_t i = get_global_id(0); for (int j = 0; j < 16; j++) w[i * 8 + j] = b[j] + (float)i; }\n"
    /* the row's length a launch value: a loop the front end keeps */
    "kernel void own_n(global float *w, global const float *b, int n)\n"
    "{ size_t i = get_global_id(0); for (int j = 0; j < n; j++) w[i * 17 + j] += b[j]; }\n";

TEST(rows_of_their_own_run_one_work_item_at_a_time)
{
  static const char own[] = "each work-item reads and writes a row of its own";
  for (unsigned level = 0; level < 2; level++) {
    wg_prog p;
    wg_build(own_src, levels[level], &p);
    const char *r16 = ct_kernel(&p.bin, "own16")->report;
    if (level == 0) {
      ASSERT_CONTAINS(r16, own);
      ASSERT_CONTAINS(ct_kernel(&p.bin, "own_n")->report, own);
    }
    ASSERT_TRUE(!strstr(ct_kernel(&p.bin, "own4")->report, own));
    ASSERT_TRUE(!strstr(ct_kernel(&p.bin, "own16sin")->report, own));
    ASSERT_TRUE(!strstr(ct_kernel(&p.bin, "overlap")->report, own));
    /* results: rows 17 apart, n work-items in groups of `local` */
    static const size_t ns[] = {1, 15, 16, 33, 100};
    static const size_t locals[] = {16, 20, 1};
    for (unsigned a = 0; a < 5; a++)
      for (unsigned l = 0; l < 3; l++) {
        size_t n = ns[a], local = locals[l];
        size_t gsz = (n + local - 1) / local * local;
        float *w = malloc(gsz * 17 * 4), *want = malloc(gsz * 17 * 4), b[16];
        ASSERT_TRUE(w && want);
        for (int j = 0; j < 16; j++)
          b[j] = (float)(j * 3 - 7);
        for (size_t k = 0; k < gsz * 17; k++)
          w[k] = want[k] = (float)(k % 11);
        for (size_t i = 0; i < gsz; i++)
          for (int j = 0; j < 16; j++)
            want[i * 17 + j] += b[j];
        float *bp = b;
        int len = 16;
        void *args[] = {&w, &bp, &len};
        wg_range r = range1(gsz, local, NULL);
        for (int kern = 0; kern < 2; kern++) {  /* own16, then own_n: each adds b once more */
          wg_run(&p, kern ? "own_n" : "own16", args, &r);
          for (size_t k = 0; k < gsz * 17; k++)
            if (w[k] != want[k] + (kern && k % 17 < 16 ? b[k % 17] : 0.0f))
              tl_fail(__FILE__, __LINE__, "%s %s n=%zu local=%zu: w[%zu] = %g, want %g", levels[level],
                      kern ? "own_n" : "own16", n, local, k, w[k], want[k] + (kern && k % 17 < 16 ? b[k % 17] : 0.0f));
        }
        free(w), free(want);
      }
    wg_free(&p);
  }
}

/* A row of each work-item's own, when the launch's buffers are disjoint
 * (LANECL_WG_DISJOINT): the work-item's call of the body takes its buffer
 * arguments as noalias, and its row moves as vector loads and stores.  When
 * they are not, the body runs as written: `chain` with w and b the same
 * buffer carries each element into the next. */
static const char disjoint_src[] =
    "kernel void own16(global float *w, global const float *b)\n"
    "{ size_t i = get_global_id(0); for (int j = 0; j < 16; j++) w[i * 17 + j] += b[j]; }\n"
    "kernel void chain(global float *w, global const float *b)\n"
    "{ size_t i = get_global_id(0); for (int j = 0; j < 16; j++) w[i * 17 + j + 1] = b[i * 17 + j] + 1.0f; }\n"
    "kernel void one_buffer(global float *w)\n"
    "{ size_t i = get_global_id(0); for (int j = 0; j < 16; j++) w[i * 17 + j + 1] = w[i * 17 + j] + 1.0f; }\n";

TEST(rows_of_their_own_move_as_vectors_when_the_buffers_are_disjoint)
{
  char *ir = optimized_ir(disjoint_src);
  static const char *const names[] = {"own16", "chain", "one_buffer"};
  for (unsigned k = 0; k < 3; k++) {
    char fn[64];
    snprintf(fn, sizeof(fn), LANECL_WG_PREFIX "%s", names[k]);
    unsigned flag = count_in_function(ir, fn, "%disjoint"), scoped = count_in_function(ir, fn, "!alias.scope"),
             vstores = count_in_function(ir, fn, "store <");
    if (k < 2 && (!flag || !scoped || (lanes() > 1 && !vstores))) /* two buffers: a scoped call, vectors */
      tl_fail(__FILE__, __LINE__, "%s: %u uses of the disjoint flag, %u scoped accesses, %u vector stores", names[k],
              flag, scoped, vstores);
    if (k == 2 && (flag || scoped)) /* one buffer: one call, as written */
      tl_fail(__FILE__, __LINE__, "one_buffer: %u uses of the disjoint flag, %u scoped accesses", flag, scoped);
  }
  free(ir);
  for (unsigned level = 0; level < 2; level++) {
    wg_prog p;
    wg_build(disjoint_src, levels[level], &p);
    static const size_t ns[] = {1, 16, 33, 100};
    static const size_t locals[] = {16, 20};
    for (unsigned a = 0; a < 4; a++)
      for (unsigned l = 0; l < 2; l++)
        for (int same = 0; same < 2; same++) {
          size_t n = ns[a], local = locals[l];
          size_t gsz = (n + local - 1) / local * local, nel = gsz * 17 + 1;
          float *w = malloc(nel * 4), *b = malloc(nel * 4), *want = malloc(nel * 4);
          ASSERT_TRUE(w && b && want);
          for (size_t k = 0; k < nel; k++)
            w[k] = want[k] = (float)(k % 11), b[k] = (float)(k % 7) - 3.0f;
          float *bp = same ? w : b;
          for (size_t i = 0; i < gsz; i++) /* as written, one element after the other */
            for (int j = 0; j < 16; j++)
              want[i * 17 + j + 1] = (same ? want : b)[i * 17 + j] + 1.0f;
          void *args[] = {&w, &bp};
          wg_range r = range1(gsz, local, NULL);
          r.flags = same ? 0 : LANECL_WG_DISJOINT;
          wg_run(&p, "chain", args, &r);
          for (size_t k = 0; k < nel; k++)
            if (w[k] != want[k])
              tl_fail(__FILE__, __LINE__, "%s chain n=%zu local=%zu same=%d: w[%zu] = %g, want %g", levels[level], n,
                      local, same, k, w[k], want[k]);
          /* own16 on distinct buffers, flagged */
          for (size_t k = 0; k < nel; k++)
            want[k] = w[k] + (k % 17 < 16 && k < gsz * 17 ? b[k % 17] : 0.0f);
          bp = b;
          r.flags = LANECL_WG_DISJOINT;
          wg_run(&p, "own16", args, &r);
          for (size_t k = 0; k < nel; k++)
            if (w[k] != want[k])
              tl_fail(__FILE__, __LINE__, "%s own16 n=%zu local=%zu: w[%zu] = %g, want %g", levels[level], n, local,
                      k, w[k], want[k]);
          free(w), free(b), free(want);
        }
    wg_free(&p);
  }
}

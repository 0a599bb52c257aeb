/* Stencil-shaped kernels after vectorization (compiler/cc_wg_affine.c):
 * clamped loads that are consecutive wherever the clamp does not bite
 * become vector loads behind a test of the lanes; the halo work of the
 * edge work-items (`lx == 0`, `lx == nx - 1`), one gather and one scatter
 * whose addresses pick x - 1 or x + 1 per lane, splits into two masked
 * loads and stores of one lane to one address; other gathers with few
 * lanes on become a loop over those lanes.  The kernels run at both levels against C
 * with group sizes that leave vector remainders and clamps that bite inside
 * the image. */
#include "tests/compiler/wg_harness.h"

/* Gathers that are not the fallback of a test (in a block of their own,
 * "lanes.join..."). */
static unsigned unguarded_gathers(const char *ir, const char *fn)
{
  char def[160];
  snprintf(def, sizeof(def), "define void @%s(", fn);
  const char *p = strstr(ir, def), *end = p ? strstr(p, "\n}\n") : NULL;
  ASSERT_TRUE(p && end);
  const char *block = "";
  unsigned n = 0;
  for (const char *line = p; line && line < end; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    if (line[0] != ' ' && line[0] != '\n' && strchr(line, ':') && strchr(line, ':') < strchr(line, '\n'))
      block = line;
    const char *eol = strchr(line, '\n');
    const char *g = strstr(line, "= tail call");
    if (g && eol && g < eol && strstr(line, "@llvm.masked.gather") && strstr(line, "@llvm.masked.gather") < eol &&
        strncmp(block, "lanes.join", 10))
      n++;
  }
  return n;
}

static const char stencil_src[] =
    "#define T 16\n"
    "kernel void stencil(global const float *in, global float *out, int w, int h) {\n"
    "  local float tile[T + 2][T + 2];\n"
    "  int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0) + 1, ly = get_local_id(1) + 1;\n"
    "  #define AT(xx, yy) in[clamp(yy, 0, h - 1) * w + clamp(xx, 0, w - 1)]\n"
    "  tile[ly][lx] = AT(x, y);\n"
    "  if (lx == 1) tile[ly][0] = AT(x - 1, y);\n"
    "  if (lx == T) tile[ly][T + 1] = AT(x + 1, y);\n"
    "  if (ly == 1) tile[0][lx] = AT(x, y - 1);\n"
    "  if (ly == T) tile[T + 1][lx] = AT(x, y + 1);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[y * w + x] = 0.5f * tile[ly][lx] + 0.125f * (tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] +\n"
    "                   tile[ly + 1][lx]);\n"
    "}\n"
    /* No local memory: five clamped loads per work-item, in 64 bits. */
    "kernel void direct(global const float *in, global float *out, long w, long h) {\n"
    "  long x = get_global_id(0), y = get_global_id(1);\n"
    "  #define AT64(xx, yy) in[clamp(yy, 1L, h - 2) * w + clamp(xx, 2L, w - 3)]\n"
    "  out[y * w + x] = AT64(x, y) + 2 * AT64(x - 1, y) + 3 * AT64(x + 1, y) + 4 * AT64(x, y - 1) + 5 * AT64(x, y + 1);\n"
    "}\n"
    /* The edge work-items gather from a table: two lanes on per vector. */
    "kernel void edges(global const int *idx, global const float *tab, global float *out) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0), i = get_global_id(0);\n"
    "  float v = 0.0f;\n"
    "  if (l == 0 || l == n - 1) v = tab[idx[i]];\n"
    "  out[i] = v;\n"
    "}\n";

static float at(const float *in, long x, long y, long w, long h, long x0, long y0)
{
  x = x < x0 ? x0 : x > w - 1 - x0 ? w - 1 - x0 : x;
  y = y < y0 ? y0 : y > h - 1 - y0 ? h - 1 - y0 : y;
  return in[y * w + x];
}

/* The rewrites start from the loop vectorizer's gathers: a target without
 * them (AVX2 on a CPU of slow gathers: LLVM loads the lanes one by one)
 * has nothing to rewrite. */
TEST(clamped_loads_and_halos_become_vector_loads_and_lane_loops)
{
  if (!ct_target_vectorizes(0))
    tl_skip("the target's loop vectorizer makes no gathers (%u-bit SIMD, CPU model's tuning)", ct_target_simd_bits());
  char *ir = optimized_ir(stencil_src);
  unsigned W = ct_target_simd_bits() / 32;
  char want[64];
  snprintf(want, sizeof(want), "load <%u x float>, ptr addrspace(1)", W);
  unsigned plain_stencil = count_in_function(ir, "__lanecl_wg_stencil", want);
  unsigned plain_direct = count_in_function(ir, "__lanecl_wg_direct", want);
  unsigned sc = count_in_function(ir, "__lanecl_wg_stencil", "@llvm.masked.scatter");
  unsigned sparse = count_in_function(ir, "__lanecl_wg_stencil", "sparse.lane");
  unsigned split = count_in_function(ir, "__lanecl_wg_stencil", "side.val");
  unsigned one = count_in_function(ir, "__lanecl_wg_stencil", "one.store");
  unsigned gs = unguarded_gathers(ir, "__lanecl_wg_stencil");
  unsigned gd = unguarded_gathers(ir, "__lanecl_wg_direct");
  unsigned ge = count_in_function(ir, "__lanecl_wg_edges", "@llvm.masked.gather");
  unsigned se = count_in_function(ir, "__lanecl_wg_edges", "sparse.lane");
  free(ir);
  {
    ASSERT_TRUE(W >= 4);
    ASSERT_TRUE(plain_stencil > 0);
    ASSERT_TRUE(plain_direct >= 5);
    ASSERT_EQ(sc, 0);
    ASSERT_TRUE(sparse > 0); /* where a clamp bites in the halo */
    ASSERT_TRUE(split > 0);
    ASSERT_TRUE(one > 0);
    ASSERT_EQ(gs, 0);
    ASSERT_EQ(gd, 0);
    ASSERT_EQ(ge, 0);
    ASSERT_TRUE(se > 0);
  }
}

/* The same kernels, whatever the target made of them, against C. */
TEST(clamped_loads_and_halos_compute_right)
{
  enum { SW = 45, SH = 35 };
  float *in = malloc(SW * SH * 4), *out = malloc(SW * SH * 4);
  for (int i = 0; i < SW * SH; i++)
    in[i] = (float)((i * 37) % 101);
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(stencil_src, levels[lv], &p);
    /* 16 x 16 (what the kernel is written for; the last groups smaller). */
    int w = SW, h = SH;
    void *args[] = {&in, &out, &w, &h};
    wg_range r = {2, {SW, SH, 1}, {16, 16, 1}, {0, 0, 0}, NULL};
    memset(out, 0, SW * SH * 4);
    wg_run(&p, "stencil", args, &r);
    for (long y = 0; y < SH; y++)
      for (long x = 0; x < SW; x++) {
        long lx = x % 16, ly = y % 16, nx = x / 16 == SW / 16 ? SW % 16 : 16, ny = y / 16 == SH / 16 ? SH % 16 : 16;
        /* The halo comes from T + 1 = 17: a smaller last group leaves
         * tile cells it does not load; only the cells it loads count. */
        if (lx == nx - 1 && nx != 16)
          continue;
        if (ly == ny - 1 && ny != 16)
          continue;
        float want_v = 0.5f * at(in, x, y, SW, SH, 0, 0) +
                       0.125f * (at(in, x - 1, y, SW, SH, 0, 0) + at(in, x + 1, y, SW, SH, 0, 0) +
                                 at(in, x, y - 1, SW, SH, 0, 0) + at(in, x, y + 1, SW, SH, 0, 0));
        ASSERT_TRUE(out[y * SW + x] == want_v);
      }
    /* direct: 13 x 5 groups, clamps that bite at x < 2, x > w - 3 */
    long lw = SW, lh = SH;
    void *dargs[] = {&in, &out, &lw, &lh};
    wg_range rd = {2, {SW, SH, 1}, {13, 5, 1}, {0, 0, 0}, NULL};
    wg_run(&p, "direct", dargs, &rd);
    for (long y = 0; y < SH; y++)
      for (long x = 0; x < SW; x++) {
        float want_v = at(in, x, y, SW, SH, 2, 1) + 2 * at(in, x - 1, y, SW, SH, 2, 1) +
                       3 * at(in, x + 1, y, SW, SH, 2, 1) + 4 * at(in, x, y - 1, SW, SH, 2, 1) +
                       5 * at(in, x, y + 1, SW, SH, 2, 1);
        ASSERT_TRUE(out[y * SW + x] == want_v);
      }
    /* edges: groups of 24 (a vector and an 8-lane epilogue) over 100 */
    enum { N = 100 };
    int idx[N];
    for (int i = 0; i < N; i++)
      idx[i] = (i * 7) % N;
    int *pidx = idx;
    void *eargs[] = {&pidx, &in, &out};
    wg_range re = range1(N, 24, NULL);
    wg_run(&p, "edges", eargs, &re);
    for (int i = 0; i < N; i++) {
      int l = i % 24, n = i / 24 == N / 24 ? N % 24 : 24;
      ASSERT_TRUE(out[i] == (l == 0 || l == n - 1 ? in[idx[i]] : 0.0f));
    }
    wg_free(&p);
  }
  free(in);
  free(out);
}

/* A uniform value read under a guard (`if (i < n) ... bias[0]`): the loop
 * vectorizer's masked gather of a splat of the address becomes one scalar
 * load, when a lane is on, and a broadcast (wg_uniform_gathers). */
static const char guard_src[] =
    "kernel void gbias(global float *out, global const float *a, global const float *bias, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) out[i] = a[i] * 2.0f + bias[0];\n"
    "}\n";

TEST(uniform_load_under_a_guard_is_one_scalar_load)
{
  if (!ct_target_vectorizes(0))
    tl_skip("the target's loop vectorizer makes no gathers (%u-bit SIMD, CPU model's tuning)", ct_target_simd_bits());
  char *ir = optimized_ir(guard_src);
  unsigned gathers = count_in_function(ir, "__lanecl_wg_gbias", "@llvm.masked.gather");
  unsigned scalar = count_in_function(ir, "__lanecl_wg_gbias", "%uni.val = load float");
  free(ir);
  ASSERT_EQ(gathers, 0);
  ASSERT_TRUE(scalar > 0);
}

/* Barrier kernels (compiler/cc_wg_uniform.c, cc_wg_trim.c, cc_wg_frame.c):
 * values the same in every work-item restored from work-item 0's copy,
 * lane loops shortened to the work-items a region's guards let through
 * (if (l < d) ... barrier), groups of one dimension in a copy of the state
 * machine without y and z loops.  Each kernel runs at the default level and
 * with -cl-opt-disable, at several local sizes (powers of two and not, a
 * smaller last group) and in 2D groups, checked against C. */
#include "tests/compiler/wg_harness.h"

#include <math.h>

static const char tree_src[] =
    "kernel void tree(global const float *in, global float *out, local float *tmp) {\n"
    "  size_t l = get_local_id(0), L = get_local_size(0);\n"
    "  tmp[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = L / 2; s > 0; s >>= 1) {\n"
    "    if (l < s) tmp[l] += tmp[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n"
    /* int ids, <= and a signed bound */
    "kernel void itree(global const int *in, global int *out, local int *tmp) {\n"
    "  int l = get_local_id(0), L = get_local_size(0);\n"
    "  tmp[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int s = L / 2; s > 0; s /= 2) {\n"
    "    if (l <= s - 1) tmp[l] += tmp[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n";

static const char scan_src[] =
    "kernel void bscan(global const int *in, global int *out, local int *t) {\n"
    "  size_t l = get_local_id(0), L = get_local_size(0), g = get_global_id(0);\n"
    "  t[l] = in[g];\n"
    "  size_t off = 1;\n"
    "  for (size_t d = L >> 1; d > 0; d >>= 1) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < d) { size_t ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1; t[bi] += t[ai]; }\n"
    "    off <<= 1;\n"
    "  }\n"
    "  if (l == 0) t[L - 1] = 0;\n"
    "  for (size_t d = 1; d < L; d <<= 1) {\n"
    "    off >>= 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < d) { size_t ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;\n"
    "      int x = t[ai]; t[ai] = t[bi]; t[bi] += x; }\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g] = t[l];\n"
    "}\n";

TEST(tree_reduction_runs_only_the_working_lanes)
{
  static const size_t sizes[] = {1, 2, 8, 16, 64, 256, 1024};
  enum { N = 4096 };
  float *in = malloc(N * 4), *out = malloc(N * 4);
  int *iin = malloc(N * 4), *iout = malloc(N * 4);
  for (int i = 0; i < N; i++) {
    in[i] = (float)(i % 13);
    iin[i] = i % 29 - 9;
  }
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(tree_src, levels[lv], &p);
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
      size_t L = sizes[si];
      size_t lb[] = {0, 0, L * 4};
      wg_range r = range1(N, L, lb);
      void *args[] = {&in, &out, NULL};
      void *iargs[] = {&iin, &iout, NULL};
      wg_run(&p, "tree", args, &r);
      wg_run(&p, "itree", iargs, &r);
      for (size_t g = 0; g < N / L; g++) {
        float want = 0;
        int iwant = 0;
        for (size_t i = 0; i < L; i++) {
          want += in[g * L + i];
          iwant += iin[g * L + i];
        }
        ASSERT_TRUE(out[g] == want);
        ASSERT_EQ(iout[g], iwant);
      }
    }
    if (lv == 0)
      for (int k = 0; k < 2; k++) {
        const cc_kernel_info *ki = ct_kernel(&p.bin, k ? "itree" : "tree");
        ASSERT_CONTAINS(ki->report, "uniform value");
        ASSERT_CONTAINS(ki->report, "region 1's lane loop runs only the work-items below its uniform bound");
        ASSERT_CONTAINS(ki->report, "region 2's lane loop runs only the work-items below its uniform bound");
      }
    wg_free(&p);
  }
  free(in), free(out), free(iin), free(iout);
}

TEST(blelloch_scan_at_every_local_size)
{
  static const size_t sizes[] = {2, 4, 8, 32, 128, 512, 1024};
  enum { N = 8192 };
  int *in = malloc(N * 4), *out = malloc(N * 4);
  for (int i = 0; i < N; i++)
    in[i] = i % 7 - 3;
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(scan_src, levels[lv], &p);
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
      size_t L = sizes[si];
      size_t lb[] = {0, 0, L * 4};
      wg_range r = range1(N, L, lb);
      void *args[] = {&in, &out, NULL};
      wg_run(&p, "bscan", args, &r);
      for (size_t g0 = 0; g0 < N; g0 += L) {
        int acc = 0;
        for (size_t i = 0; i < L; i++) {
          ASSERT_EQ(out[g0 + i], acc);
          acc += in[g0 + i];
        }
      }
    }
    if (lv == 0) {
      const cc_kernel_info *k = ct_kernel(&p.bin, "bscan");
      /* the loop counters d and off are the same in every work-item */
      ASSERT_CONTAINS(k->report, "uniform values");
      ASSERT_CONTAINS(k->report, "region 1's lane loop runs only the work-items below its uniform bound");
      ASSERT_CONTAINS(k->report, "region 3's lane loop runs only the work-items below its uniform bound");
    }
    wg_free(&p);
  }
  free(in), free(out);
}

TEST(values_set_under_divergent_control_stay_per_work_item)
{
  /* x: set by some work-items only; i: a loop with a per-item trip count;
   * u: uniform but changed under a guard.  All live across a barrier. */
  const char *src = "kernel void dv(global int *out, local int *t, int n) {\n"
                    "  int l = get_local_id(0), x = 0, i = 0, u = n;\n"
                    "  if (l & 1) x = 3 * l;\n"
                    "  while (i < l % 5) i++;\n"
                    "  if (l < 2) u = 7;\n"
                    "  t[l] = l;\n"
                    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "  out[get_global_id(0)] = x + 100 * i + 1000 * u + t[get_local_size(0) - 1 - l];\n"
                    "}\n";
  enum { N = 100, L = 20 };
  int *out = malloc(N * 4), n = 9;
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    size_t lb[] = {0, L * 4, 0};
    wg_range r = range1(N, L, lb);
    void *args[] = {&out, NULL, &n};
    wg_run(&p, "dv", args, &r);
    for (int g = 0; g < N; g++) {
      int l = g % L;
      ASSERT_EQ(out[g], ((l & 1) ? 3 * l : 0) + 100 * (l % 5) + 1000 * (l < 2 ? 7 : n) + (L - 1 - l));
    }
    wg_free(&p);
  }
  free(out);
}

TEST(effects_outside_the_guard_keep_every_lane)
{
  /* Each region writes something for every work-item besides its guarded
   * work (c counts the rounds per work-item, kept across the barriers):
   * no region can skip work-items. */
  const char *src = "kernel void eff(global int *out, local int *t) {\n"
                    "  int l = get_local_id(0), L = get_local_size(0), c = l;\n"
                    "  t[l] = l;\n"
                    "  for (int s = L / 2; s > 0; s >>= 1) {\n"
                    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "    if (l < s) t[l] += t[l + s];\n"
                    "    c += 2;\n"
                    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "    out[get_global_id(0)] = c;\n"
                    "  }\n"
                    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "  out[get_global_id(0)] += t[0] * 1000;\n"
                    "}\n";
  enum { N = 96, L = 32 };
  int *out = malloc(N * 4);
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    size_t lb[] = {0, L * 4};
    wg_range r = range1(N, L, lb);
    void *args[] = {&out, NULL};
    wg_run(&p, "eff", args, &r);
    int rounds = 0;
    for (int s = L / 2; s > 0; s >>= 1)
      rounds++;
    for (int g = 0; g < N; g++)
      ASSERT_EQ(out[g], g % L + 2 * rounds + 1000 * (L * (L - 1) / 2));
    wg_free(&p);
  }
  free(out);
}

TEST(guards_on_x_in_2d_groups)
{
  /* Rows of a 2D group reduce along x; the y loop stays whole. */
  const char *src = "kernel void rows(global const int *in, global int *out, local int *t) {\n"
                    "  size_t x = get_local_id(0), y = get_local_id(1), X = get_local_size(0);\n"
                    "  size_t gx = get_global_id(0), gy = get_global_id(1), W = get_global_size(0);\n"
                    "  t[y * X + x] = in[gy * W + gx];\n"
                    "  for (size_t s = X / 2; s > 0; s >>= 1) {\n"
                    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "    if (x < s) t[y * X + x] += t[y * X + x + s];\n"
                    "  }\n"
                    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "  if (x == 0) out[gy * get_num_groups(0) + get_group_id(0)] = t[y * X];\n"
                    "}\n";
  enum { W = 64, H = 12, LX = 16, LY = 4 };
  int *in = malloc(W * H * 4), *out = malloc(H * (W / LX) * 4);
  for (int i = 0; i < W * H; i++)
    in[i] = i % 11 - 5;
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    size_t lb[] = {0, 0, LX * LY * 4};
    wg_range r = {2, {W, H, 1}, {LX, LY, 1}, {0, 0, 0}, lb};
    void *args[] = {&in, &out, NULL};
    wg_run(&p, "rows", args, &r);
    for (int y = 0; y < H; y++)
      for (int gx = 0; gx < W / LX; gx++) {
        int want = 0;
        for (int i = 0; i < LX; i++)
          want += in[y * W + gx * LX + i];
        ASSERT_EQ(out[y * (W / LX) + gx], want);
      }
    if (lv == 0)
      ASSERT_CONTAINS(ct_kernel(&p.bin, "rows")->report, "runs only the work-items below its uniform bound");
    wg_free(&p);
  }
  free(in), free(out);
}

TEST(reqd_work_group_size_full_groups_run_a_constant_size_copy)
{
  /* Full groups take the copy where the local size is a constant; the
   * smaller last group of a non-uniform NDRange takes the general one. */
  const char *src = "__attribute__((reqd_work_group_size(8, 1, 1)))\n"
                    "kernel void rev(global int *a, local int *t) {\n"
                    "  size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);\n"
                    "  t[l] = a[g]; barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "  int s = 0;\n"
                    "  for (size_t i = 0; i < n; i++) s += t[i];\n"
                    "  a[g] = t[n - 1 - l] + 1000 * (int)n + 100000 * s; }\n"
                    "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
                    "kernel void ids(global int *o) {\n"
                    "  size_t x = get_global_id(0), y = get_global_id(1);\n"
                    "  o[y * get_global_size(0) + x] = (int)(get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_id(1));\n"
                    "}\n";
  enum { N = 8 * 12 + 5, L = 8, W = 10, H = 5 };
  int *a = malloc(N * 4), *o = malloc(W * H * 4);
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    for (int i = 0; i < N; i++)
      a[i] = i % 17;
    size_t lb[] = {0, L * 4};
    wg_range r = range1(N, L, lb);
    void *args[] = {&a, NULL};
    wg_run(&p, "rev", args, &r);
    for (int i = 0; i < N; i++) {
      int g0 = i / L * L, n = N - g0 < L ? N - g0 : L, s = 0;
      for (int k = 0; k < n; k++)
        s += (g0 + k) % 17;
      ASSERT_EQ(a[i], (g0 + n - 1 - (i - g0)) % 17 + 1000 * n + 100000 * s);
    }
    wg_range r2 = {2, {W, H, 1}, {4, 2, 1}, {0, 0, 0}, NULL};
    void *oargs[] = {&o};
    wg_run(&p, "ids", oargs, &r2);
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        int lx = x / 4 * 4 + 4 <= W ? 4 : W % 4, ly = y / 2 * 2 + 2 <= H ? 2 : H % 2;
        ASSERT_EQ(o[y * W + x], lx * 100 + ly * 10 + y % 2);
      }
    wg_free(&p);
  }
  free(a), free(o);
}

/* Runs 1D full groups of L, `batch` consecutive groups per call
 * (lanecl_wg_ctx.group_count). */
static void run_batched(wg_prog *p, const char *kernel, void *const *args, size_t n, size_t L, size_t batch,
                        const size_t *local_bytes)
{
  const cc_kernel_info *k = ct_kernel(&p->bin, kernel);
  char name[256];
  snprintf(name, sizeof(name), LANECL_WG_PREFIX "%s", kernel);
  lanecl_wg_fn fn = (lanecl_wg_fn)dlsym(p->dl, name);
  ASSERT_TRUE(fn != NULL);
  void *frame = aligned_alloc(64, (k->frame_bytes * L + 64) / 64 * 64);
  void *coll = aligned_alloc(64, (16 * L + 64) / 64 * 64);
  void *locals[8] = {0};
  for (uint32_t i = 0; i < k->nargs && local_bytes; i++)
    if (local_bytes[i])
      locals[i] = aligned_alloc(64, (local_bytes[i] + 63) / 64 * 64);
  lanecl_wg_ctx ctx;
  memset(&ctx, 0, sizeof(ctx));
  for (int d = 0; d < 3; d++)
    ctx.local_size[d] = ctx.enqueued_local_size[d] = ctx.num_groups[d] = ctx.global_size[d] = 1;
  ctx.local_size[0] = ctx.enqueued_local_size[0] = L;
  ctx.num_groups[0] = n / L;
  ctx.global_size[0] = n;
  ctx.work_dim = 1;
  ctx.frame = frame;
  ctx.coll_buf = coll;
  ctx.local_args = locals;
  for (size_t g = 0; g < n / L; g += batch) {
    ctx.group_id[0] = g;
    ctx.group_count = g + batch <= n / L ? batch : n / L - g;
    fn(args, &ctx);
  }
  for (int i = 0; i < 8; i++)
    free(locals[i]);
  free(frame);
  free(coll);
}

/* A body over the compiler's size bound (3,072 FMAs) gets one copy of its lane loops
 * (no copy for groups of one dimension, none for full groups of
 * reqd_work_group_size); that copy runs every group shape: 1D, 2D, 3D, a
 * smaller last group, and the required size. */
#define BIG_S(k) acc = fma(acc, 0.5f, x * (float)((k) % 7));
#define BIG_S4(k) BIG_S(k) BIG_S(k + 1) BIG_S(k + 2) BIG_S(k + 3)
#define BIG_S16(k) BIG_S4(k) BIG_S4(k + 4) BIG_S4(k + 8) BIG_S4(k + 12)
#define BIG_S64(k) BIG_S16(k) BIG_S16(k + 16) BIG_S16(k + 32) BIG_S16(k + 48)
#define BIG_S256(k) BIG_S64(k) BIG_S64(k + 64) BIG_S64(k + 128) BIG_S64(k + 192)
#define BIG_STR2(x) #x
#define BIG_STR(x) BIG_STR2(x)
#define BIG_BODY(name, attr)                                                                                        \
  attr "kernel void " name "(global const float *in, global float *out) {\n"                                     \
  "  local float t[64];\n"                                                                                        \
  "  size_t l = get_local_linear_id(), n = get_local_size(0) * get_local_size(1) * get_local_size(2);\n"         \
  "  size_t g = get_global_linear_id();\n"                                                                        \
  "  t[l] = in[g]; barrier(CLK_LOCAL_MEM_FENCE);\n"                                                               \
  "  float acc = 0.0f, x = t[(l + 1) % n];\n"                                                                      \
  BIG_STR(BIG_S256(0) BIG_S256(256) BIG_S256(512) BIG_S256(768) BIG_S256(1024) BIG_S256(1280) BIG_S256(1536)       \
          BIG_S256(1792) BIG_S256(2048) BIG_S256(2304) BIG_S256(2560) BIG_S256(2816)) "\n"                         \
  "  barrier(CLK_LOCAL_MEM_FENCE); t[l] = acc; barrier(CLK_LOCAL_MEM_FENCE);\n"                                  \
  "  out[g] = acc + t[(l + 1) % n]; }\n"

/* work-item l's acc in a group of n whose values are t[0..n) */
static float big_ref(const float *t, size_t n, size_t l)
{
  float acc = 0.0f, x = t[(l + 1) % n];
  for (int k = 0; k < 3072; k++)
    acc = fmaf(acc, 0.5f, x * (float)(k % 7));
  return acc;
}

TEST(a_big_body_gets_one_copy_of_its_lane_loops)
{
  const char *src = BIG_BODY("big", "") BIG_BODY("big_reqd", "__attribute__((reqd_work_group_size(8, 2, 1)))\n")
      "kernel void small(global const float *in, global float *out) {\n"
      "  local float t[64]; size_t l = get_local_id(0);\n"
      "  t[l] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  out[get_global_id(0)] = t[(l + 1) % get_local_size(0)]; }\n";
  enum { N = 64 * 12 };
  float *in = malloc(N * 4), *out = malloc(N * 4);
  for (int i = 0; i < N; i++)
    in[i] = (float)(i % 17) * 0.25f - 1.0f;
  wg_prog p;
  wg_build(src, levels[0], &p);
  ASSERT_CONTAINS(ct_kernel(&p.bin, "big")->report, "one copy of the lane loops for every group shape");
  ASSERT_CONTAINS(ct_kernel(&p.bin, "big_reqd")->report, "one copy of the lane loops for every group shape");
  ASSERT_TRUE(!strstr(ct_kernel(&p.bin, "small")->report, "one copy"));
  /* group shapes: 1D of 64 and of 48 with a smaller last group, 2D 16x4, 3D 4x2x8, and the required 8x2 */
  static const struct { unsigned dim; size_t g[3], l[3]; int reqd; } shapes[] = {
      {1, {N, 1, 1}, {64, 1, 1}, 0},   {1, {N - 20, 1, 1}, {48, 1, 1}, 0}, {2, {64, 12, 1}, {16, 4, 1}, 0},
      {3, {16, 6, 8}, {4, 2, 8}, 0},   {2, {64, 12, 1}, {8, 2, 1}, 1},     {2, {60, 12, 1}, {8, 2, 1}, 1},
  };
  for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
    wg_range r = {shapes[si].dim, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, NULL};
    size_t total = 1;
    for (unsigned d = 0; d < 3; d++) {
      r.global[d] = shapes[si].g[d];
      r.local[d] = shapes[si].l[d];
      total *= r.global[d];
    }
    for (size_t i = 0; i < N; i++)
      out[i] = -99.0f;
    void *args[] = {&in, &out};
    wg_run(&p, shapes[si].reqd ? "big_reqd" : "big", args, &r);
    /* work-item (x, y, z): group g, local id l, the group's actual size n */
    size_t gx = r.global[0], gy = r.global[1];
    for (size_t z = 0; z < r.global[2]; z++)
      for (size_t y = 0; y < gy; y++)
        for (size_t x = 0; x < gx; x++) {
          size_t id[3] = {x, y, z}, ls[3], lid[3], base[3];
          for (unsigned d = 0; d < 3; d++) {
            size_t grp = id[d] / r.local[d];
            base[d] = grp * r.local[d];
            size_t left = r.global[d] - base[d];
            ls[d] = left < r.local[d] ? left : r.local[d];
            lid[d] = id[d] - base[d];
          }
          size_t n = ls[0] * ls[1] * ls[2], l = lid[0] + ls[0] * (lid[1] + ls[1] * lid[2]);
          size_t g = x + gx * (y + gy * z);
          /* in[] of the group's work-items by local linear id: t[m] = in[global linear id of m] */
          float tin[64];
          for (size_t m = 0; m < n; m++) {
            size_t mx = m % ls[0], my = m / ls[0] % ls[1], mz = m / (ls[0] * ls[1]);
            tin[m] = in[(base[0] + mx) + gx * ((base[1] + my) + gy * (base[2] + mz))];
          }
          float want = big_ref(tin, n, l);
          float next = big_ref(tin, n, (l + 1) % n);
          float w = want + next;
          if (!(fabsf(out[g] - w) <= 1e-4f * fabsf(w) + 1e-5f))
            tl_fail(__FILE__, __LINE__, "shape %zu, work-item (%zu, %zu, %zu): %g, want %g", si, x, y, z,
                    (double)out[g], (double)w);
        }
  }
  wg_free(&p);
  free(in);
  free(out);
}

TEST(several_groups_per_call)
{
  /* group_count > 1: the work-group function runs consecutive groups (ids,
   * barriers, uniform values, trimmed loops and collectives per group). */
  static const char src[] =
      "kernel void ids(global int *o) {\n"
      "  o[get_global_id(0)] = (int)(get_group_id(0) * 1000 + get_local_id(0) * 10 + get_global_linear_id() % 7); }\n"
      "kernel void scan(global const int *in, global int *out) {\n"
      "  size_t i = get_global_id(0); out[i] = work_group_scan_inclusive_add(in[i]) + (int)get_group_id(0); }\n";
  enum { N = 96, L = 8 };
  int *in = malloc(N * 4), *out = malloc(N * 4);
  for (int i = 0; i < N; i++)
    in[i] = i % 5 - 1;
  char *full = malloc(strlen(src) + strlen(scan_src) + 1);
  strcpy(full, src);
  strcat(full, scan_src);
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(full, levels[lv], &p);
    for (size_t batch = 1; batch <= 5; batch += 2) {
      void *oargs[] = {&out};
      run_batched(&p, "ids", oargs, N, L, batch, NULL);
      for (int i = 0; i < N; i++)
        ASSERT_EQ(out[i], i / L * 1000 + i % L * 10 + i % 7);
      void *sargs[] = {&in, &out};
      run_batched(&p, "scan", sargs, N, L, batch, NULL);
      for (int g = 0; g < N / L; g++) {
        int acc = 0;
        for (int i = 0; i < L; i++) {
          acc += in[g * L + i];
          ASSERT_EQ(out[g * L + i], acc + g);
        }
      }
      size_t lb[] = {0, 0, L * 4};
      run_batched(&p, "bscan", sargs, N, L, batch, lb);
      for (int g = 0; g < N / L; g++) {
        int acc = 0;
        for (int i = 0; i < L; i++) {
          ASSERT_EQ(out[g * L + i], acc);
          acc += in[g * L + i];
        }
      }
    }
    wg_free(&p);
  }
  free(full), free(in), free(out);
}

/* The metadata ids (in "!N", N >= 0) of ir's alias scope lists that name
 * one of the uniform values' scopes (cc_wg_frame.c wg_frame_scopes):
 * ids[k] = 1 for list node !k. */
static unsigned char *uniform_scope_lists(const char *ir, size_t max)
{
  unsigned char *scope = calloc(max, 1), *list = calloc(max, 1);
  for (const char *p = strstr(ir, "\n!"); p; p = strstr(p + 1, "\n!")) {
    unsigned long id = strtoul(p + 2, NULL, 10);
    const char *eol = strchr(p + 1, '\n');
    const char *hit = strstr(p, "\"lanecl.uniform.");
    if (id < max && hit && (!eol || hit < eol))
      scope[id] = 1;
  }
  for (const char *p = strstr(ir, "\n!"); p; p = strstr(p + 1, "\n!")) {
    unsigned long id = strtoul(p + 2, NULL, 10), ref;
    const char *body = strstr(p, "= !{!");
    const char *eol = strchr(p + 1, '\n');
    if (id < max && body && (!eol || body < eol) && sscanf(body, "= !{!%lu}", &ref) == 1 && ref < max && scope[ref])
      list[id] = 1;
  }
  free(scope);
  return list;
}

/* Loads (want_store 0) or stores (1) of ir in the uniform values' scopes;
 * with in_loops, only those in the blocks of lane loops (their scalar,
 * vector and epilogue bodies). */
static int uniform_accesses(const char *ir, int want_store, int in_loops)
{
  enum { MAX = 1 << 16 };
  unsigned char *list = uniform_scope_lists(ir, MAX);
  int n = 0, in_loop = 0;
  for (const char *line = ir; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    const char *eol = strchr(line, '\n');
    size_t len = eol ? (size_t)(eol - line) : strlen(line);
    /* a block's label: "name:" at the start of a line */
    const char *colon = memchr(line, ':', len);
    if (colon && line[0] != ' ' && line[0] != '!' && line[0] != ';' && !memchr(line, ' ', (size_t)(colon - line))) {
      in_loop = !strncmp(line, "lanes.x", 7) || !strncmp(line, "vector.body", 11) ||
                !strncmp(line, "vec.epilog.vector.body", 22);
    }
    const char *sc = strstr(line, "!alias.scope !");
    if (!sc || (eol && sc > eol))
      continue;
    int is_store = !strncmp(line, "  store ", 8);
    int is_load = strstr(line, " = load ") && strstr(line, " = load ") < sc;
    unsigned long id = strtoul(sc + 14, NULL, 10);
    if (id < MAX && list[id] && (want_store ? is_store : is_load) && (!in_loops || in_loop))
      n++;
  }
  free(list);
  return n;
}

/* The Blelloch scan's loop counters d and off are uniform values: each
 * lane loop saves them once, after the loop (every work-item saves them to
 * work-item 0's copy, in alias scopes of their own, so LLVM moves the
 * saves out of the loop), and the next lane loop gets them in registers
 * (each state's lane loops branch straight to the next state, and the
 * work-group function reads them at the address the body saved them to, so
 * LLVM forwards the saved values instead of loading them from the frame). */
TEST(uniform_values_stay_out_of_lane_loops_and_memory)
{
  cc_blob out;
  char *log = NULL;
  ASSERT_EQ(ct_api()->build(ct_dev(), scan_src, "-cl-std=CL3.0", &out, &log), CC_OK);
  free(log);
  char *ir = NULL;
  ASSERT_EQ(ct_api()->disassemble(ct_dev(), &out, 2, &ir), CC_OK);
  cc_blob_free(&out);
  ASSERT_CONTAINS(ir, "\"lanecl.uniform.0\"");
  int saves = uniform_accesses(ir, 1, 0), saves_in_loops = uniform_accesses(ir, 1, 1);
  int loads = uniform_accesses(ir, 0, 0);
  printf("uniform values: %d saves (%d in lane loops), %d loads\n", saves, saves_in_loops, loads);
  ASSERT_TRUE(saves > 0);
  ASSERT_EQ(saves_in_loops, 0);
  /* 3 states after a barrier, each restoring up to 5 values, in the 1D and
   * the 3D copy of the state machine: 30 loads without any forwarding, 10
   * with a shared dispatch block, 4 when the work-group function addressed
   * the copies with its own work-item count instead of the body's. */
  ASSERT_EQ(loads, 0);
  free(ir);
}

/* Work-group functions (compiler/cc_wg.c) through the whole compiler: OpenCL C
 * -> cc_api build -> the ELF object -> __lanecl_wg_<kernel> run here over an
 * NDRange with a hand-built lanecl_wg_ctx, checked against C.  Each kernel
 * runs at the default level and with -cl-opt-disable. */
#include "tests/compiler/wg_harness.h"

TEST(lane_loop_vectorizes_vector_add)
{
  const char *src = "kernel void vadd(global const int *a, global const int *b, global int *c) {\n"
                    "  size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    enum { N = 1000 };
    int *a = malloc(N * 4), *b = malloc(N * 4), *c = calloc(N, 4);
    for (int i = 0; i < N; i++)
      a[i] = i, b[i] = 3 * i + 1;
    void *args[] = {&a, &b, &c};
    wg_range r = range1(N, 64, NULL); /* the last group has 40 work-items */
    wg_run(&p, "vadd", args, &r);
    for (int i = 0; i < N; i++)
      ASSERT_EQ(c[i], 4 * i + 1);
    const cc_kernel_info *k = ct_kernel(&p.bin, "vadd");
    ASSERT_EQ(k->nregions, 1);
    ASSERT_EQ(k->uses_barriers, 0);
    ASSERT_EQ(k->frame_bytes, 0);
    if (lv == 0) {
      /* LLVM's verdict, from its remarks: the width it reached. */
      ASSERT_EQ(k->simd_width, ct_target_simd_bits() / 32);
      char want[96];
      snprintf(want, sizeof(want), "region 0: start -> end: lane loop vectorized, width %u", k->simd_width);
      ASSERT_CONTAINS(k->report, want);
      ASSERT_CONTAINS(k->report, "lane loops vectorized: 1 of 1");
      /* The lane loop became full-width vector code. */
      ASSERT_CONTAINS(p.asm_text, ct_target_simd_bits() == 512 ? "zmm" : ct_target_simd_bits() == 256 ? "ymm" : "xmm");
    } else {
      ASSERT_EQ(k->simd_width, 1);
      ASSERT_CONTAINS(k->report, "scalar (-cl-opt-disable)");
    }
    free(a), free(b), free(c);
    wg_free(&p);
  }
}

TEST(barrier_reverses_through_local_memory)
{
  const char *src = "kernel void rev(global int *a, local int *t) {\n"
                    "  size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);\n"
                    "  t[l] = a[g]; barrier(CLK_LOCAL_MEM_FENCE); a[g] = t[n - 1 - l]; }\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    enum { N = 1000, L = 128 };
    int *a = malloc(N * 4);
    for (int i = 0; i < N; i++)
      a[i] = i;
    void *args[] = {&a, NULL};
    size_t lb[] = {0, L * 4};
    wg_range r = range1(N, L, lb);
    wg_run(&p, "rev", args, &r);
    for (int i = 0; i < N; i++) {
      int g0 = i / L * L, n = N - g0 < L ? N - g0 : L;
      ASSERT_EQ(a[i], g0 + n - 1 - (i - g0));
    }
    const cc_kernel_info *k = ct_kernel(&p.bin, "rev");
    ASSERT_EQ(k->nregions, 2);
    ASSERT_EQ(k->uses_barriers, 1);
    if (lv == 0) {
      /* Ids and sizes are recomputed after the barrier, not saved. */
      ASSERT_EQ(k->frame_bytes, 0);
      ASSERT_CONTAINS(k->report, "region 1: after barrier #1 -> end: lane loop vectorized, width");
    }
    free(a);
    wg_free(&p);
  }
}

TEST(barriers_in_loops_blelloch_scan)
{
  const char *src =
      "kernel void bscan(global int *a, local int *t) {\n"
      "  int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);\n"
      "  t[l] = a[g];\n"
      "  int off = 1;\n"
      "  for (int d = n >> 1; d > 0; d >>= 1) {\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "    if (l < d) { int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1; t[bi] += t[ai]; }\n"
      "    off *= 2;\n"
      "  }\n"
      "  if (l == 0) t[n - 1] = 0;\n"
      "  for (int d = 1; d < n; d *= 2) {\n"
      "    off >>= 1;\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "    if (l < d) { int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;\n"
      "      int x = t[ai]; t[ai] = t[bi]; t[bi] += x; }\n"
      "  }\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  a[g] = t[l];\n"
      "}\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    enum { N = 1024, L = 256 };
    int *a = malloc(N * 4);
    for (int i = 0; i < N; i++)
      a[i] = (i * 7) % 13;
    void *args[] = {&a, NULL};
    size_t lb[] = {0, L * 4};
    wg_range r = range1(N, L, lb);
    wg_run(&p, "bscan", args, &r);
    for (int g = 0; g < N / L; g++) {
      int acc = 0;
      for (int i = 0; i < L; i++) {
        ASSERT_EQ(a[g * L + i], acc);
        acc += ((g * L + i) * 7) % 13;
      }
    }
    ASSERT_EQ(ct_kernel(&p.bin, "bscan")->nregions, 4);
    free(a);
    wg_free(&p);
  }
}

TEST(private_array_kept_across_barrier_at_local_size_1024)
{
  const char *src = "kernel void priv(global int *out, local int *t) {\n"
                    "  int p[256]; int l = get_local_id(0), g = get_global_id(0);\n"
                    "  for (int i = 0; i < 256; i++) p[i] = g * 3 + i;\n"
                    "  t[l] = g;\n"
                    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "  int s = t[get_local_size(0) - 1 - l];\n"
                    "  for (int i = 0; i < 256; i++) s += p[(i * 7 + l) & 255];\n"
                    "  out[g] = s;\n"
                    "}\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    enum { N = 2048, L = 1024 };
    int *o = calloc(N, 4);
    void *args[] = {&o, NULL};
    size_t lb[] = {0, L * 4};
    wg_range r = range1(N, L, lb);
    wg_run(&p, "priv", args, &r);
    for (int g = 0; g < N; g++) {
      int l = g % L, s = g - l + L - 1 - l;
      for (int i = 0; i < 256; i++)
        s += g * 3 + ((i * 7 + l) & 255);
      ASSERT_EQ(o[g], s);
    }
    const cc_kernel_info *k = ct_kernel(&p.bin, "priv");
    /* The array lives in the group's frame, one copy per work-item. */
    ASSERT_TRUE(k->frame_bytes >= 1024);
    /* Both regions have inner loops with a uniform trip count: outer-loop vectorization. */
    if (lv == 0)
      ASSERT_CONTAINS(k->report, "region 0: start -> barrier #1: inner loop, lane loop vectorized (outer loop)");
    free(o);
    wg_free(&p);
  }
}

TEST(collectives_spec_example)
{
  const char *src =
      "kernel void coll(global const int *a, global int *inc, global int *exc, global int *red, global int *bc,\n"
      "                 global int *all, global float *fs) {\n"
      "  size_t g = get_global_id(0);\n"
      "  int x = a[g];\n"
      "  inc[g] = work_group_scan_inclusive_add(x);\n"
      "  exc[g] = work_group_scan_exclusive_add(x);\n"
      "  red[g] = work_group_reduce_max(x) * 1000 + work_group_reduce_min(x);\n"
      "  bc[g] = work_group_broadcast(x, 2) + work_group_broadcast(x + 1, 0);\n"
      "  all[g] = (work_group_all(x >= 0) ? 1 : 0) + (work_group_any(x == 7) ? 2 : 0) + (work_group_all(x > 0) ? 4 : 0);\n"
      "  fs[g] = work_group_scan_inclusive_add((float)x * 0.5f);\n"
      "}\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    int a[8] = {3, 1, 7, 0, 4, 1, 6, 3}, inc[8], exc[8], red[8], bc[8], all[8];
    float fs[8];
    int *pa = a, *pi = inc, *pe = exc, *pr = red, *pb = bc, *pl = all;
    float *pf = fs;
    void *args[] = {&pa, &pi, &pe, &pr, &pb, &pl, &pf};
    wg_range r = range1(8, 8, NULL);
    wg_run(&p, "coll", args, &r);
    const int want_inc[8] = {3, 4, 11, 11, 15, 16, 22, 25}, want_exc[8] = {0, 3, 4, 11, 11, 15, 16, 22};
    for (int i = 0; i < 8; i++) {
      ASSERT_EQ(inc[i], want_inc[i]);
      ASSERT_EQ(exc[i], want_exc[i]);
      ASSERT_EQ(red[i], 7000);
      ASSERT_EQ(bc[i], 7 + 4);
      ASSERT_EQ(all[i], 3);
      ASSERT_TRUE(fs[i] == want_inc[i] * 0.5f);
    }
    const cc_kernel_info *k = ct_kernel(&p.bin, "coll");
    ASSERT_EQ(k->nregions, 11);
    ASSERT_CONTAINS(k->report, "region 1: after work_group_scan_inclusive_add #1");
    wg_free(&p);
  }
}

TEST(scan_uses_actual_size_of_last_group)
{
  const char *src = "kernel void scan2(global int *a) {\n"
                    "  size_t g = get_global_id(0);\n"
                    "  a[g] = work_group_scan_inclusive_add(a[g]) + 100000 * (int)get_local_size(0);\n"
                    "}\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    enum { N = 1000, L = 384 };
    int *a = malloc(N * 4);
    for (int i = 0; i < N; i++)
      a[i] = i % 5;
    void *args[] = {&a};
    wg_range r = range1(N, L, NULL);
    wg_run(&p, "scan2", args, &r);
    for (int g0 = 0; g0 < N; g0 += L) {
      int n = N - g0 < L ? N - g0 : L, acc = 0;
      for (int i = 0; i < n; i++) {
        acc += (g0 + i) % 5;
        ASSERT_EQ(a[g0 + i], acc + 100000 * n);
      }
    }
    free(a);
    wg_free(&p);
  }
}

TEST(ids_in_2d_and_3d_groups)
{
  const char *src =
      "kernel void ids(global long *o, global int *s, uint dyn) {\n"
      "  size_t gl = get_global_linear_id();\n"
      "  o[gl * 4 + 0] = get_global_id(0) + 1000 * get_global_id(1) + 1000000 * get_global_id(2);\n"
      "  o[gl * 4 + 1] = get_local_linear_id() + 10000 * get_group_id(0) + 100000 * get_group_id(1)\n"
      "                  + 1000000 * get_group_id(2);\n"
      "  o[gl * 4 + 2] = get_local_size(dyn) * 100 + get_local_id(dyn) + 10000 * get_global_size(3)\n"
      "                  + 100000 * get_global_id(7);\n"
      "  o[gl * 4 + 3] = get_work_dim() + 10 * get_num_groups(1) + 100 * get_enqueued_local_size(2);\n"
      "  s[gl] = work_group_scan_inclusive_add(1);\n"
      "}\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    enum { X = 6, Y = 5, Z = 4 };
    long *o = calloc(X * Y * Z * 4, 8);
    int *s = calloc(X * Y * Z, 4);
    unsigned dyn = 1;
    void *args[] = {&o, &s, &dyn};
    wg_range r = {3, {X, Y, Z}, {4, 2, 3}, {0, 0, 0}, NULL};
    wg_run(&p, "ids", args, &r);
    for (size_t z = 0; z < Z; z++)
      for (size_t y = 0; y < Y; y++)
        for (size_t x = 0; x < X; x++) {
          size_t gl = (z * Y + y) * X + x;
          size_t lx = x % 4, ly = y % 2, lz = z % 3;
          size_t lsx = x / 4 * 4 + 4 <= X ? 4 : X % 4, lsy = y / 2 * 2 + 2 <= Y ? 2 : Y % 2;
          long ll = (long)((lz * lsy + ly) * lsx + lx);
          ASSERT_EQ(o[gl * 4], (long)(x + 1000 * y + 1000000 * z));
          ASSERT_EQ(o[gl * 4 + 1], ll + 10000 * (long)(x / 4) + 100000 * (long)(y / 2) + 1000000 * (long)(z / 3));
          ASSERT_EQ(o[gl * 4 + 2], (long)(lsy * 100 + ly + 10000));
          ASSERT_EQ(o[gl * 4 + 3], 3 + 10 * 3 + 100 * 3);
          /* Scan order is the linear local id; n is this group's size. */
          ASSERT_EQ(s[gl], ll + 1);
        }
    free(o), free(s);
    wg_free(&p);
  }
}

TEST(barriers_under_uniform_control_flow)
{
  /* Loops with break/continue, a switch, an early uniform return, a
   * kernel-scope __local array, and a struct argument, a float4, a
   * private array and a pointer into it kept across barriers. */
  const char *src =
      "typedef struct { int k; float f[3]; } P;\n"
      "kernel void ctl(global int *o, P prm, int mode, global float4 *v4) {\n"
      "  local int t[64];\n"
      "  int l = get_local_id(0), n = get_local_size(0); size_t g = get_global_id(0) - get_global_offset(0);\n"
      "  int acc = 0; int priv[4] = {l, 2 * l, 3 * l, 4 * l}; int *pp = &priv[l & 3];\n"
      "  float4 vv = v4[g] * 2.0f;\n"
      "  prm.k += l;\n"
      "  if (mode > 100) return;\n"
      "  for (int it = 0; it < 10; it++) {\n"
      "    if (it == 7) break;\n"
      "    if (it % 3 == 1) continue;\n"
      "    t[l] = l * it + acc;\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "    acc += t[(l + 1) % n];\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  }\n"
      "  switch (mode) {\n"
      "  case 1: t[l] = 1; barrier(CLK_LOCAL_MEM_FENCE); acc += t[n - 1 - l]; break;\n"
      "  case 2: t[l] = 2; work_group_barrier(CLK_LOCAL_MEM_FENCE); acc += 2 * t[n - 1 - l]; break;\n"
      "  default: break;\n"
      "  }\n"
      "  *pp += 1000;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  o[g] = acc + prm.k + (int)prm.f[1] + *pp + (int)(vv.y + vv.w);\n"
      "}\n";
  typedef struct { int k; float f[3]; } P;
  enum { N = 256, L = 64 };
  float *v4 = malloc(N * 16);
  for (int i = 0; i < N * 4; i++)
    v4[i] = (float)(i % 7);
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    for (int mode = 0; mode <= 101; mode += mode == 3 ? 98 : 1) {
      int *o = malloc(N * 4);
      for (int i = 0; i < N; i++)
        o[i] = -7;
      P prm = {5, {1, 20, 3}};
      void *args[] = {&o, &prm, &mode, &v4};
      wg_range r = {1, {N, 1, 1}, {L, 1, 1}, {1000, 0, 0}, NULL};
      wg_run(&p, "ctl", args, &r);
      /* The caller's copy of a by-value argument is never written. */
      ASSERT_EQ(prm.k, 5);
      for (int gr = 0; gr < N / L; gr++) {
        int acc[L], t[L];
        for (int l = 0; l < L; l++)
          acc[l] = 0;
        for (int it = 0; it < 7; it++) {
          if (it % 3 == 1)
            continue;
          for (int l = 0; l < L; l++)
            t[l] = l * it + acc[l];
          for (int l = 0; l < L; l++)
            acc[l] += t[(l + 1) % L];
        }
        for (int l = 0; l < L; l++) {
          int g = gr * L + l;
          if (mode > 100) {
            ASSERT_EQ(o[g], -7);
            continue;
          }
          int a = acc[l] + (mode == 1 ? 1 : mode == 2 ? 4 : 0);
          int priv[4] = {l, 2 * l, 3 * l, 4 * l};
          ASSERT_EQ(o[g], a + 5 + l + 20 + priv[l & 3] + 1000 + (int)(2 * v4[g * 4 + 1] + 2 * v4[g * 4 + 3]));
        }
      }
      free(o);
    }
    wg_free(&p);
  }
  free(v4);
}

TEST(collectives_of_each_type_in_loops)
{
  const char *src =
      "kernel void ty(global long *ol, global ulong *oul, global double *od, global uint *ou, global float *of,\n"
      "               int iters) {\n"
      "  size_t g = get_global_linear_id(); int l = get_local_linear_id();\n"
      "  long x = (long)l * 3000000000L - 5; ulong ux = (ulong)l * 7 + 1; double d = l * 0.25; uint u = 100 - l;\n"
      "  long s = 0;\n"
      "  for (int i = 0; i < iters; i++) s += work_group_reduce_add(x + i);\n"
      "  ol[g * 3] = s; ol[g * 3 + 1] = work_group_scan_exclusive_min(x); ol[g * 3 + 2] = work_group_broadcast(x, 1, 1);\n"
      "  oul[g] = work_group_scan_inclusive_add(ux);\n"
      "  od[g] = work_group_scan_inclusive_add(d) + work_group_reduce_max(d) * 1000;\n"
      "  ou[g] = work_group_reduce_min(u);\n"
      "  of[g] = work_group_broadcast((float)l * 1.5f, 2, 1, 0);\n"
      "}\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    for (int three = 0; three < 2; three++) {
      wg_range r = {three ? 3 : 2, {4, 3, three ? 2 : 1}, {4, 3, three ? 2 : 1}, {0, 0, 0}, NULL};
      size_t n = 12 * (three ? 2 : 1);
      long *ol = calloc(n * 3, 8);
      unsigned long *oul = calloc(n, 8);
      double *od = calloc(n, 8);
      unsigned *ou = calloc(n, 4);
      float *of = calloc(n, 4);
      int iters = 3;
      void *args[] = {&ol, &oul, &od, &ou, &of, &iters};
      wg_run(&p, "ty", args, &r);
      long sumx = 0, minx = 0;
      unsigned long us = 0;
      double ds = 0;
      for (size_t l = 0; l < n; l++)
        sumx += (long)l * 3000000000L - 5;
      for (size_t l = 0; l < n; l++) {
        long x = (long)l * 3000000000L - 5;
        ASSERT_EQ(ol[l * 3], iters * sumx + (long)n * (0 + 1 + 2));
        if (l)
          ASSERT_EQ(ol[l * 3 + 1], minx);
        else
          ASSERT_TRUE(ol[1] == LONG_MAX);
        ASSERT_EQ(ol[l * 3 + 2], 5 * 3000000000L - 5); /* (1, 1) is linear id 5 */
        minx = l == 0 || x < minx ? x : minx;
        us += (unsigned long)l * 7 + 1;
        ASSERT_TRUE(oul[l] == us);
        ds += l * 0.25;
        ASSERT_TRUE(od[l] == ds + (n - 1) * 0.25 * 1000);
        ASSERT_EQ(ou[l], 100 - (unsigned)(n - 1));
        ASSERT_TRUE(of[l] == 6 * 1.5f); /* (2, 1, 0) is linear id 6 */
      }
      free(ol), free(oul), free(od), free(ou), free(of);
    }
    wg_free(&p);
  }
}

TEST(vector_types_widen_across_work_items)
{
  /* float4 code is split into scalars so the loop vectorizer can widen the
   * lane loop: full-width registers, not one float4 per work-item. */
  const char *src = "kernel void v4(global float4 *a, global const float4 *b) {\n"
                    "  size_t i = get_global_id(0); a[i] = a[i] * b[i] + (float4)(1.0f, 2.0f, 3.0f, 4.0f); }\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    enum { N = 300 };
    float *a = malloc(N * 16), *b = malloc(N * 16);
    for (int i = 0; i < N * 4; i++)
      a[i] = (float)i, b[i] = (float)(i % 5);
    void *args[] = {&a, &b};
    wg_range r = range1(N, 64, NULL);
    wg_run(&p, "v4", args, &r);
    for (int i = 0; i < N * 4; i++)
      ASSERT_TRUE(a[i] == (float)i * (float)(i % 5) + (float)(i % 4 + 1));
    if (lv == 0 && ct_target_simd_bits() == 512)
      ASSERT_CONTAINS(p.asm_text, "zmm");
    else if (lv == 0 && strstr(p.asm_text, "zmm"))
      tl_fail(__FILE__, __LINE__, "zmm registers in code for a %u-bit target", ct_target_simd_bits());
    free(a), free(b);
    wg_free(&p);
  }
}

TEST(atomics_and_private_scratch_in_a_region)
{
  /* Atomics keep the lane loop scalar (never wrong); a private array that
   * lives on the stack of one work-item is not shared with the next. */
  const char *src = "kernel void at(global int *cnt, global int *o) {\n"
                    "  int tmp[8]; size_t g = get_global_id(0);\n"
                    "  for (int i = 0; i < 8; i++) tmp[i] = (int)g + i;\n"
                    "  atomic_add(&cnt[g % 4], 1);\n"
                    "  o[g] = tmp[g % 8] + tmp[(g + 3) % 8];\n"
                    "}\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    enum { N = 1000 };
    int cnt[4] = {0}, *o = calloc(N, 4), *pc = cnt;
    void *args[] = {&pc, &o};
    wg_range r = range1(N, 128, NULL);
    wg_run(&p, "at", args, &r);
    for (int i = 0; i < 4; i++)
      ASSERT_EQ(cnt[i], N / 4);
    for (int g = 0; g < N; g++)
      ASSERT_EQ(o[g], g + g % 8 + g + (g + 3) % 8);
    free(o);
    wg_free(&p);
  }
}

TEST(async_copies_and_wait)
{
  /* Copies between global and local memory, contiguous and strided both
   * ways, scalar and float4 elements; complete after wait_group_events. */
  const char *src =
      "kernel void cp(global int *g, global int *out, global float4 *v, local int *l, local float4 *lv) {\n"
      "  size_t grp = get_group_id(0), n = get_local_size(0), i = get_local_id(0);\n"
      "  event_t e = async_work_group_copy(l, g + 64 * grp, 64, 0);\n"
      "  e = async_work_group_copy(lv, v + 8 * grp, 8, e);\n"
      "  wait_group_events(1, &e);\n"
      "  out[get_global_id(0)] = l[63 - i] * 2 + (int)lv[i % 8].z;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  l[i] = (int)i * 10;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  e = async_work_group_strided_copy(g + 64 * grp, l, 32, 2, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  e = async_work_group_strided_copy(l, g + 64 * grp, 16, 3, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  out[256 + get_global_id(0)] = i < 16 ? l[i] : -1;\n"
      "}\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    enum { G = 4, L = 64 };
    int *g = malloc(G * 64 * 4), *out = malloc(2 * G * L * 4);
    float *v = malloc(G * 8 * 16);
    for (int i = 0; i < G * 64; i++)
      g[i] = i;
    for (int i = 0; i < G * 8 * 4; i++)
      v[i] = (float)(i * 3);
    void *args[] = {&g, &out, &v, NULL, NULL};
    size_t lb[] = {0, 0, 0, 64 * 4, 8 * 16};
    wg_range r = range1(G * L, L, lb);
    wg_run(&p, "cp", args, &r);
    for (int grp = 0; grp < G; grp++)
      for (int i = 0; i < L; i++) {
        ASSERT_EQ(out[grp * L + i], (grp * 64 + 63 - i) * 2 + (grp * 8 + i % 8) * 4 * 3 + 2 * 3);
        /* g[64 grp + 2 k] = 10 k (k < 32), the odd ones unchanged; then l[k] = g[64 grp + 3 k] */
        int gi = 3 * i, want = gi % 2 == 0 && gi / 2 < 32 ? 10 * (gi / 2) : grp * 64 + gi;
        ASSERT_EQ(out[256 + grp * L + i], i < 16 ? want : -1);
      }
    ASSERT_CONTAINS(ct_kernel(&p.bin, "cp")->report, "after async_work_group_copy #1");
    free(g), free(out), free(v);
    wg_free(&p);
  }
}

typedef struct tls_job {
  wg_prog *p;
  void *const *args;
  wg_range r;
} tls_job;

static void *tls_job_run(void *arg)
{
  tls_job *j = arg;
  wg_run(j->p, "lt", j->args, &j->r);
  return NULL;
}

static int count_of(const char *hay, const char *needle)
{
  int n = 0;
  for (const char *s = hay; s && (s = strstr(s, needle)); s += strlen(needle))
    n++;
  return n;
}

TEST(local_variables_reached_outside_the_lane_loops)
{
  /* Kernel-scope __local variables are thread_local; glibc's
   * __tls_get_addr may clobber zmm16-31 on a thread's first access, which
   * LLVM assumes it preserves: the address is read once per group, through
   * an ordinary call, never inside a vectorized lane loop.  Each run below
   * is on a fresh thread, so that first access happens during the kernel. */
  const char *src = "kernel void lt(global int *a, global float *f) {\n"
                    "  local int t[256]; local float u[256];\n"
                    "  size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);\n"
                    "  t[l] = a[g] * 3; u[l] = f[g] + 1.0f;\n"
                    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "  a[g] = t[n - 1 - l] + (int)u[(l + 1) % n]; f[g] = u[l] * 2.0f;\n"
                    "}\n";
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(src, levels[lv], &p);
    if (lv == 0)
      ASSERT_EQ(count_of(p.asm_text, "__tls_get_addr"), 2); /* one getter per variable */
    enum { N = 1024, L = 256 };
    int *a = malloc(N * 4);
    float *f = malloc(N * 4);
    for (int run = 0; run < 4; run++) {
      for (int i = 0; i < N; i++)
        a[i] = i, f[i] = (float)(i % 10);
      void *args[] = {&a, &f};
      tls_job j = {&p, args, range1(N, L, NULL)};
      pthread_t th;
      ASSERT_EQ(pthread_create(&th, NULL, tls_job_run, &j), 0);
      ASSERT_EQ(pthread_join(th, NULL), 0);
      for (int i = 0; i < N; i++) {
        int g0 = i / L * L, l = i - g0;
        ASSERT_EQ(a[i], (g0 + L - 1 - l) * 3 + (int)((float)((g0 + (l + 1) % L) % 10) + 1.0f));
        ASSERT_TRUE(f[i] == ((float)(i % 10) + 1.0f) * 2.0f);
      }
    }
    free(a), free(f);
    wg_free(&p);
  }
}

TEST(unknown_work_group_function_is_a_build_error)
{
  const char *src = "int __attribute__((overloadable)) work_group_reduce_median(int x);\n"
                    "kernel void k(global int *p) { p[get_global_id(0)] = work_group_reduce_median(p[0]); }\n";
  cc_blob out = {0};
  char *log = NULL;
  ASSERT_EQ(ct_api()->build(ct_dev(), src, "-cl-std=CL3.0", &out, &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "work_group_reduce_median");
  ASSERT_CONTAINS(log, "unknown operation");
  ASSERT_TRUE(out.data == NULL);
  free(log);
}

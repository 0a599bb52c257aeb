/* Accesses whose lanes are 2 to 4 elements apart (compiler/cc_wg_affine.c,
 * wg_strided_accesses): a downsampling read in[2 * i], a store to every
 * other element, their 3- and 4-element forms, over 1- to 8-byte types,
 * under a guard (lanes off) and in 2D with an int index (a no-wrap test in
 * front of the plain path).  The loop vectorizer leaves those of 4- and
 * 8-byte elements as gathers and scatters (a group of one access is not an
 * interleave group; 8- and 16-bit lanes it loads one by one); they become
 * masked loads or stores of the span and shuffles, which read and write no
 * element other than the lanes' own.  The results at both levels against C,
 * local sizes with remainders; the elements between the stored ones keep
 * their values. */
#include "tests/compiler/wg_harness.h"

#include <stdint.h>
#include <string.h>

static const char strided_src[] =
    "kernel void down2(global float *o, global const float *b, uint n) {\n"
    "  size_t i = get_global_id(0); if (i < n) o[i] = b[i * 2] * 3.0f; }\n"
    "kernel void down3(global int *o, global const int *b) {\n"
    "  size_t i = get_global_id(0); o[i] = b[i * 3] + 1; }\n"
    "kernel void down4(global short *o, global const short *b) {\n"
    "  size_t i = get_global_id(0); o[i] = (short)(b[i * 4] - 7); }\n"
    "kernel void down2c(global char *o, global const char *b) {\n"
    "  size_t i = get_global_id(0); o[i] = (char)(b[i * 2] ^ 0x55); }\n"
    "kernel void down2d(global double *o, global const double *b) {\n"
    "  size_t i = get_global_id(0); o[i] = b[i * 2] * 0.5; }\n"
    "kernel void up2(global float *w, global const float *b, uint n) {\n"
    "  size_t i = get_global_id(0); if (i < n) w[i * 2] = b[i] * 3.0f; }\n"
    "kernel void up3(global int *w, global const int *b) {\n"
    "  size_t i = get_global_id(0); w[i * 3 + 1] = b[i] - 5; }\n"
    "kernel void pyr(global float *o, global const float *b, int w) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  o[y * w + x] = b[(2 * y) * (2 * w) + 2 * x]; }\n";

/* Each kernel: the access the vectorizer left and what must replace it.
 * (8- and 16-bit elements have no x86 gather: the vectorizer loads their
 * lanes one by one, which stays; down4 and down2c are checked for results.) */
static const struct {
  const char *kernel, *gone, *made;
} rewritten[] = {{"down2", "@llvm.masked.gather", "@llvm.masked.load"},
                 {"down3", "@llvm.masked.gather", "@llvm.masked.load"},
                 {"down2d", "@llvm.masked.gather", "@llvm.masked.load"},
                 {"up2", "@llvm.masked.scatter", "@llvm.masked.store"},
                 {"up3", "@llvm.masked.scatter", "@llvm.masked.store"}};

TEST(strided_accesses_are_masked_loads_and_stores)
{
  if (!ct_target_vectorizes(0) || !ct_target_vectorizes(1))
    tl_skip("the target's loop vectorizer makes no gathers or scatters (%u-bit SIMD)", ct_target_simd_bits());
  char *ir = optimized_ir(strided_src);
  for (unsigned k = 0; k < sizeof(rewritten) / sizeof(rewritten[0]); k++) {
    char fn[64];
    snprintf(fn, sizeof(fn), "__lanecl_wg_%s", rewritten[k].kernel);
    unsigned left = count_in_function(ir, fn, rewritten[k].gone), made = count_in_function(ir, fn, rewritten[k].made);
    if (left || !made)
      tl_fail(__FILE__, __LINE__, "%s: %u %s left, %u %s", rewritten[k].kernel, left, rewritten[k].gone, made,
              rewritten[k].made);
  }
  /* the int index: masked loads behind the no-wrap test, the gather kept
   * for the lanes that wrap */
  ASSERT_TRUE(count_in_function(ir, "__lanecl_wg_pyr", "lanes.nowrap") > 0);
  ASSERT_TRUE(count_in_function(ir, "__lanecl_wg_pyr", "@llvm.masked.load") > 0);
  free(ir);
}

enum { N = 301, NW = N * 4 + 64 };

TEST(strided_accesses_compute_right)
{
  static float fb[NW], fo[NW], fw[NW];
  static int ib[NW], io[NW], iw[NW];
  static short sb[NW], so[NW];
  static signed char cb[NW], co[NW];
  static double db[NW], dout[NW];
  for (int i = 0; i < NW; i++) {
    fb[i] = (float)(i % 97) - 13.5f;
    ib[i] = i * 7 - 300;
    sb[i] = (short)(i * 5 - 999);
    cb[i] = (signed char)(i * 3);
    db[i] = (double)i * 1.25 - 7;
  }
  static const size_t locals[] = {1, 7, 16, 24, 64};
  for (int lv = 0; lv < 2; lv++) {
    wg_prog p;
    wg_build(strided_src, levels[lv], &p);
    for (unsigned li = 0; li < sizeof(locals) / sizeof(locals[0]); li++) {
      wg_range r = range1(N, locals[li], NULL);
      unsigned n = N - 20; /* the guard turns the last lanes off */
      /* gathers */
      float *pfo = fo, *pfb = fb;
      memset(fo, 0, sizeof(fo));
      void *a0[] = {&pfo, &pfb, &n};
      wg_run(&p, "down2", a0, &r);
      for (unsigned i = 0; i < N; i++)
        ASSERT_TRUE(fo[i] == (i < n ? fb[i * 2] * 3.0f : 0.0f));
      int *pio = io, *pib = ib;
      void *a1[] = {&pio, &pib};
      wg_run(&p, "down3", a1, &r);
      for (unsigned i = 0; i < N; i++)
        ASSERT_EQ(io[i], ib[i * 3] + 1);
      short *pso = so, *psb = sb;
      void *a2[] = {&pso, &psb};
      wg_run(&p, "down4", a2, &r);
      for (unsigned i = 0; i < N; i++)
        ASSERT_EQ(so[i], (short)(sb[i * 4] - 7));
      signed char *pco = co, *pcb = cb;
      void *a3[] = {&pco, &pcb};
      wg_run(&p, "down2c", a3, &r);
      for (unsigned i = 0; i < N; i++)
        ASSERT_EQ(co[i], (signed char)(cb[i * 2] ^ 0x55));
      double *pdo = dout, *pdb = db;
      void *a4[] = {&pdo, &pdb};
      wg_run(&p, "down2d", a4, &r);
      for (unsigned i = 0; i < N; i++)
        ASSERT_TRUE(dout[i] == db[i * 2] * 0.5);
      /* scatters: the elements between keep their values */
      for (int i = 0; i < NW; i++)
        fw[i] = -1.0f, iw[i] = -77;
      float *pfw = fw;
      void *a5[] = {&pfw, &pfb, &n};
      wg_run(&p, "up2", a5, &r);
      for (unsigned i = 0; i < NW; i++) {
        float want = i % 2 == 0 && i / 2 < n ? fb[i / 2] * 3.0f : -1.0f;
        if (fw[i] != want)
          tl_fail(__FILE__, __LINE__, "level %d, local %zu: up2 w[%u] = %g, want %g", lv, locals[li], i,
                  (double)fw[i], (double)want);
      }
      int *piw = iw;
      void *a6[] = {&piw, &pib};
      wg_run(&p, "up3", a6, &r);
      for (unsigned i = 0; i < NW; i++) {
        int want = i % 3 == 1 && i / 3 < N ? ib[i / 3] - 5 : -77;
        if (iw[i] != want)
          tl_fail(__FILE__, __LINE__, "level %d, local %zu: up3 w[%u] = %d, want %d", lv, locals[li], i, iw[i], want);
      }
    }
    /* 2D: every other element of every other row */
    enum { PW = 37, PH = 11 };
    static float pin[4 * PW * PH], pout[PW * PH];
    for (int i = 0; i < 4 * PW * PH; i++)
      pin[i] = (float)i;
    float *ppo = pout, *ppi = pin;
    int w = PW;
    void *a7[] = {&ppo, &ppi, &w};
    wg_range r2 = {2, {PW, PH, 1}, {16, 4, 1}, {0, 0, 0}, NULL, 0};
    memset(pout, 0, sizeof(pout));
    wg_run(&p, "pyr", a7, &r2);
    for (int y = 0; y < PH; y++)
      for (int x = 0; x < PW; x++)
        ASSERT_TRUE(pout[y * PW + x] == pin[(2 * y) * (2 * PW) + 2 * x]);
    wg_free(&p);
  }
}

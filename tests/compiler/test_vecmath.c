/* Vector math out of line (compiler/cc_vecmath.c): a float transcendental
 * called from four places or more is one vector function per width, called from
 * the widened lane loops (masked where the call is in a predicated block),
 * and the results are those of the inlined code, bit for bit, in uniform,
 * guarded and divergent code and in an inner loop.  LANECL_CC_VECMATH=0
 * (the inlined form) is the reference: the compiler reads it at each build. */
#include <math.h>

#include "tests/compiler/wg_harness.h"

static unsigned lanes(void)
{
  return ct_target_simd_bits() / 32;
}

static const char calls_src[] =
    "kernel void k(global float *o, global const float *a, float s, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) { float x = a[i]; o[i] = sin(x) + sin(x * s) * exp(x * 0.25f) + sin(x * x) + sin(x + s)\n"
    "                + pow(x, 0.75f) + pow(x * s, 0.75f) + pow(x + 1.0f, 0.75f) + pow(x * x, 0.75f); }\n"
    "}\n"
    "kernel void div(global float *o, global const float *a) {\n"
    "  int i = get_global_id(0); float x = a[i];\n"
    "  if (x > 0.5f) o[i] = sin(x) * exp(x * 0.1f); else o[i] = cos(x) + sin(x * 3.0f);\n"
    "}\n"
    "kernel void loop(global float *o, global const float *a, int m) {\n"
    "  int i = get_global_id(0); float acc = 0.0f;\n"
    "  for (int j = 0; j < m; j++) acc = fma(acc, 0.5f, sin(a[i] + (float)j));\n"
    "  o[i] = acc + sin(acc);\n"
    "}\n"
    "kernel void once(global float *o, global const float *a) {\n"
    "  int i = get_global_id(0); o[i] = tanh(a[i]);\n"
    "}\n";

static char *ir_with(const char *vecmath)
{
  setenv("LANECL_CC_VECMATH", vecmath, 1);
  char *ir = optimized_ir(calls_src);
  unsetenv("LANECL_CC_VECMATH");
  return ir;
}

/* Definitions of name in the IR ("define ... @name("). */
static unsigned definitions(const char *ir, const char *name)
{
  char pat[128];
  snprintf(pat, sizeof(pat), " @%s(", name);
  unsigned n = 0;
  for (const char *p = ir; (p = strstr(p, "\ndefine ")); p++) {
    const char *eol = strchr(p + 1, '\n');
    const char *at = strstr(p, pat);
    n += at && eol && at < eol;
  }
  return n;
}

TEST(repeated_calls_are_one_vector_function_per_width)
{
  unsigned W = lanes();
  if (W < 4)
    tl_skip("no vector lanes on this target");
  char vsin[64], msin[64], call[96], mcall[96];
  snprintf(vsin, sizeof(vsin), "_Z3sinDv%u_f", W);
  snprintf(msin, sizeof(msin), "__lanecl_vm%u__Z3sinf", W);
  snprintf(call, sizeof(call), "call <%u x float> @%s(", W, vsin);
  snprintf(mcall, sizeof(mcall), "call <%u x float> @%s(", W, msin);
  char *ir = ir_with("1");
  /* one definition of the vector sine, called from the lane loops of k
   * (unmasked: the guard is split) and div (masked: divergent branches) */
  ASSERT_EQ(definitions(ir, vsin), 1);
  unsigned kc = count_in_function(ir, "__lanecl_wg_k", call) + count_in_function(ir, "__lanecl_wg_k", mcall);
  /* (div's loop may be narrower: cos, inlined, computes in double) */
  unsigned dc = count_in_function(ir, "__lanecl_wg_div", "__Z3sinf(");
  ASSERT_TRUE(kc >= 4);
  ASSERT_TRUE(dc >= 1);
  /* pow's second argument is the same constant at each call: the scalar
   * function keeps it (the mappings name two arguments), k's loop calls the
   * vector pow */
  char pcall[96], pmcall[96];
  snprintf(pcall, sizeof(pcall), "call <%u x float> @_Z3powDv%u_fS_(", W, W);
  snprintf(pmcall, sizeof(pmcall), "call <%u x float> @__lanecl_vm%u__Z3powff(", W, W);
  ASSERT_TRUE(count_in_function(ir, "__lanecl_wg_k", pcall) + count_in_function(ir, "__lanecl_wg_k", pmcall) >= 1);
  /* a function called once stays inlined (tanh, and exp in k; the copies
   * of the work-group body don't count) */
  ASSERT_EQ(count_in_function(ir, "__lanecl_wg_once", "@_Z4tanh"), 0);
  ASSERT_EQ(count_in_function(ir, "__lanecl_wg_k", "@_Z3exp"), 0);
  free(ir);

  /* the inlined form: no vector function at all */
  ir = ir_with("0");
  ASSERT_EQ(definitions(ir, vsin), 0);
  ASSERT_EQ(count_in_function(ir, "__lanecl_wg_k", "@_Z3sin"), 0);
  free(ir);
}

/* Outputs of the four kernels over n inputs, built with LANECL_CC_VECMATH
 * set to vecmath; the inputs include signed zeros, infinities, NaN, huge
 * arguments (the sine's long reduction) and denormals. */
static void run_all(const char *vecmath, const float *in, size_t n, size_t local, float *out /* 4 * n */)
{
  setenv("LANECL_CC_VECMATH", vecmath, 1);
  wg_prog p;
  wg_build(calls_src, levels[0], &p);
  unsetenv("LANECL_CC_VECMATH");
  float s = 1.25f;
  int ni = (int)n - 3, m = 5;  /* k's guard cuts the last three */
  float *o = out;
  const float *a = in;
  for (size_t i = 0; i < 4 * n; i++)
    out[i] = -7.0f;
  void *ka[] = {&o, &a, &s, &ni};
  wg_range r = range1(n, local, NULL);
  wg_run(&p, "k", ka, &r);
  o = out + n;
  void *da[] = {&o, &a};
  wg_run(&p, "div", da, &r);
  o = out + 2 * n;
  void *la[] = {&o, &a, &m};
  wg_run(&p, "loop", la, &r);
  o = out + 3 * n;
  wg_run(&p, "once", da, &r);
  wg_free(&p);
}

TEST(out_of_line_results_are_the_inlined_ones_bit_for_bit)
{
  enum { N = 1000 };
  static float in[N], ref[4 * N], got[4 * N];
  static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e30f, -3e38f, 1e-40f, 0.5f, 1e6f};
  unsigned seed = 12345;
  for (size_t i = 0; i < N; i++) {
    seed = seed * 1103515245u + 12345u;
    in[i] = i % 17 == 0 ? special[(i / 17) % 10] : ((float)(seed >> 8) / (float)(1u << 24) - 0.5f) * 20.0f;
  }
  /* local sizes: a multiple of every width, and one that leaves a tail */
  static const size_t locals[] = {64, 37};
  for (size_t l = 0; l < 2; l++) {
    run_all("0", in, N, locals[l], ref);
    run_all("1", in, N, locals[l], got);
    for (size_t i = 0; i < 4 * N; i++) {
      uint32_t a, b;
      memcpy(&a, &ref[i], 4);
      memcpy(&b, &got[i], 4);
      if (a != b && !(isnan(ref[i]) && isnan(got[i])))
        tl_fail(__FILE__, __LINE__, "local %zu, kernel %zu, input %a: inlined %a, out of line %a", locals[l], i / N,
                in[i % N], ref[i], got[i]);
    }
    /* and the guard kept: k wrote nothing past n - 3 */
    for (size_t i = N - 3; i < N; i++)
      ASSERT_TRUE(got[i] == -7.0f);
    /* a sanity check against the C library: sin of the plain inputs */
    for (size_t i = 0; i < N; i++)
      if (in[i] > 0.5f && in[i] < 10.0f) {
        float want = (float)(sin((double)in[i]) * exp((double)in[i] * 0.1));
        ASSERT_TRUE(fabsf(got[N + i] - want) <= 1e-5f * fabsf(want) + 1e-6f);
      }
  }
}

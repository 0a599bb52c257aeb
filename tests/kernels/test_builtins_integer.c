/* Integer built-ins through the whole stack: abs abs_diff add_sat sub_sat
 * hadd rhadd clamp clz ctz popcount mad_hi mad_sat max min mul_hi rotate
 * (and the scalar-operand forms of min max clamp), upsample, mul24 mad24, for
 * char .. ulong at every vector width, on edge values and random inputs,
 * against a 128-bit C reference. */
#include <stdint.h>

#include "tests/testlib.h"

#define NELEM 1536

typedef __int128 i128;

typedef struct {
  const char *name, *uname, *wname; /* type, its unsigned type, the upsample result */
  int bits, sgn;
} ity_t;
static const ity_t types[] = {
    {"char", "uchar", "short", 8, 1},   {"uchar", "uchar", "ushort", 8, 0}, {"short", "ushort", "int", 16, 1},
    {"ushort", "ushort", "uint", 16, 0}, {"int", "uint", "long", 32, 1},    {"uint", "uint", "ulong", 32, 0},
    {"long", "ulong", NULL, 64, 1},     {"ulong", "ulong", NULL, 64, 0},
};

enum {
  F_ABS, F_ABS_DIFF, F_ADD_SAT, F_SUB_SAT, F_HADD, F_RHADD, F_CLAMP, F_CLZ, F_CTZ, F_POPCOUNT, F_MAD_HI,
  F_MAD_SAT, F_MAX, F_MIN, F_MUL_HI, F_ROTATE, F_MAX_S, F_MIN_S, F_CLAMP_S, F_MUL24, F_MAD24, F_UPSAMPLE, F_COUNT
};
static const char *fexpr[] = {
    "AS(abs(a))", "AS(abs_diff(a, b))", "add_sat(a, b)", "sub_sat(a, b)", "hadd(a, b)", "rhadd(a, b)",
    "clamp(a, min(b, c), max(b, c))", "clz(a)", "ctz(a)", "popcount(a)", "mad_hi(a, b, c)", "mad_sat(a, b, c)",
    "max(a, b)", "min(a, b)", "mul_hi(a, b)", "rotate(a, b)", "max(a, S0(b))", "min(a, S0(b))",
    "clamp(a, min(S0(b), S0(c)), max(S0(b), S0(c)))", "mul24(M24(a), M24(b))", "mad24(M24(a), M24(b), c)", NULL,
};

/* ---- values as int64 bit patterns of the type ---- */
static i128 tmin(const ity_t *t) { return t->sgn ? -((i128)1 << (t->bits - 1)) : 0; }
static i128 tmax(const ity_t *t) { return t->sgn ? ((i128)1 << (t->bits - 1)) - 1 : ((i128)1 << t->bits) - 1; }
/* the value of the low bits of v as the type */
static i128 wrap(const ity_t *t, i128 v)
{
  unsigned __int128 m = ((unsigned __int128)1 << t->bits) - 1;
  unsigned __int128 u = (unsigned __int128)v & m;
  if (t->sgn && (u >> (t->bits - 1)) & 1)
    return (i128)u - ((i128)1 << t->bits);
  return (i128)u;
}
static i128 sat(const ity_t *t, i128 v) { return v < tmin(t) ? tmin(t) : v > tmax(t) ? tmax(t) : v; }
static uint64_t ubits(const ity_t *t, i128 v) { return (uint64_t)((unsigned __int128)v & (((unsigned __int128)1 << t->bits) - 1)); }
static i128 m24(const ity_t *t, i128 v) { return t->sgn ? wrap(t, (i128)(int32_t)((uint32_t)v << 8) >> 8) : (i128)((uint64_t)v & 0xffffff); }

/* the high half of the double-width product */
static i128 mulhi(const ity_t *t, i128 a, i128 b)
{
  if (!t->sgn && t->bits == 64)
    return (i128)(((unsigned __int128)a * (unsigned __int128)b) >> 64);
  return (a * b) >> t->bits;
}

static i128 ref(const ity_t *t, int f, i128 a, i128 b, i128 c)
{
  int n = t->bits;
  switch (f) {
  case F_ABS: return wrap(t, a < 0 ? -a : a);
  case F_ABS_DIFF: return wrap(t, a > b ? a - b : b - a);
  case F_ADD_SAT: return sat(t, a + b);
  case F_SUB_SAT: return sat(t, a - b);
  case F_HADD: return (a + b) >> 1;
  case F_RHADD: return (a + b + 1) >> 1;
  case F_CLAMP: case F_CLAMP_S: {
    i128 lo = b < c ? b : c, hi = b < c ? c : b;
    return a < lo ? lo : a > hi ? hi : a;
  }
  case F_CLZ: {
    uint64_t u = ubits(t, a);
    int k = 0;
    for (int i = n - 1; i >= 0 && !((u >> i) & 1); i--) k++;
    return k;
  }
  case F_CTZ: {
    uint64_t u = ubits(t, a);
    int k = 0;
    for (int i = 0; i < n && !((u >> i) & 1); i++) k++;
    return k;
  }
  case F_POPCOUNT: return __builtin_popcountll(ubits(t, a));
  case F_MUL_HI: return wrap(t, mulhi(t, a, b));
  case F_MAD_HI: return wrap(t, mulhi(t, a, b) + c);
  case F_MAD_SAT:
    if (!t->sgn && n == 64) { /* the product needs all 128 bits unsigned */
      unsigned __int128 p = (unsigned __int128)a * (unsigned __int128)b + (unsigned __int128)c;
      return p > (unsigned __int128)UINT64_MAX ? tmax(t) : (i128)p;
    }
    return sat(t, a * b + c);
  case F_MAX: case F_MAX_S: return a > b ? a : b;
  case F_MIN: case F_MIN_S: return a < b ? a : b;
  case F_ROTATE: {
    uint64_t u = ubits(t, a);
    int s = (int)(ubits(t, b) % (uint64_t)n);
    uint64_t mask = n == 64 ? ~0ull : ((1ull << n) - 1);
    uint64_t r = s ? ((u << s) | (u >> (n - s))) & mask : u;
    return wrap(t, (i128)r);
  }
  case F_MUL24: return wrap(t, m24(t, a) * m24(t, b));
  case F_MAD24: return wrap(t, m24(t, a) * m24(t, b) + c);
  default: return 0;
  }
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static i128 gen(const ity_t *t, int i)
{
  i128 edges[] = {0, 1, 2, -1, -2, tmin(t), tmax(t), tmin(t) + 1, tmax(t) - 1, 3, 64, -64};
  int ne = (int)(sizeof(edges) / sizeof(edges[0]));
  if (i < ne * ne) /* with the other operands' index, every pair of edges */
    return wrap(t, edges[i % ne]);
  uint64_t r = rnd();
  if (r % 4 == 0)
    return wrap(t, (i128)(int64_t)(r >> 2) % 100);
  return wrap(t, (i128)(int64_t)r);
}

static void store(const ity_t *t, void *buf, int i, i128 v)
{
  switch (t->bits) {
  case 8: ((uint8_t *)buf)[i] = (uint8_t)v; break;
  case 16: ((uint16_t *)buf)[i] = (uint16_t)v; break;
  case 32: ((uint32_t *)buf)[i] = (uint32_t)v; break;
  default: ((uint64_t *)buf)[i] = (uint64_t)v; break;
  }
}
static i128 load(const ity_t *t, const void *buf, int i)
{
  switch (t->bits) {
  case 8: return wrap(t, ((const uint8_t *)buf)[i]);
  case 16: return wrap(t, ((const uint16_t *)buf)[i]);
  case 32: return wrap(t, ((const uint32_t *)buf)[i]);
  default: return wrap(t, (i128)((const uint64_t *)buf)[i]);
  }
}

static char *kernel_source(const ity_t *t, int w)
{
  static const char *suf[] = {"", "", "2", "3", "4", "", "", "", "8", "", "", "", "", "", "", "", "16"};
  size_t cap = 1 << 15, len = 0;
  char *s = malloc(cap);
  len += (size_t)snprintf(s + len, cap - len, "#define T %s\n#define TN %s%s\n#define UTN %s%s\n", t->name, t->name,
                          suf[w], t->uname, suf[w]);
  len += (size_t)snprintf(s + len, cap - len, "#define AS(v) as_%s%s(v)\n", t->name, suf[w]);
  len += (size_t)snprintf(s + len, cap - len, w == 1 ? "#define S0(v) (v)\n" : "#define S0(v) ((v).s0)\n");
  len += (size_t)snprintf(s + len, cap - len, "#define ASU(v) as_%s%s(v)\n", t->uname, suf[w]);
  len += (size_t)snprintf(s + len, cap - len, "#define M24(v) %s\n",
                          t->sgn ? "(AS(ASU(v) << 8) >> 8)" : "((v) & (TN)0xffffff)");
  if (w == 1)
    len += (size_t)snprintf(s + len, cap - len, "#define LD(i, p) ((p)[i])\n#define ST(v, i, p) ((p)[i] = (v))\n");
  else
    len += (size_t)snprintf(s + len, cap - len, "#define LD(i, p) vload%d(i, p)\n#define ST(v, i, p) vstore%d(v, i, p)\n",
                            w, w);
  len += (size_t)snprintf(s + len, cap - len,
                          "kernel void k(global const T *x, global const T *y, global const T *z, global T *out, int f)\n"
                          "{\n  size_t i = get_global_id(0);\n  TN a = LD(i, x), b = LD(i, y), c = LD(i, z), r;\n"
                          "  switch (f) {\n");
  for (int f = 0; f < F_COUNT; f++) {
    if (!fexpr[f] || (w == 1 && (f == F_MAX_S || f == F_MIN_S || f == F_CLAMP_S)))
      continue;
    if ((f == F_MUL24 || f == F_MAD24) && t->bits != 32)
      continue;
    len += (size_t)snprintf(s + len, cap - len, "  case %d: r = %s; break;\n", f, fexpr[f]);
  }
  len += (size_t)snprintf(s + len, cap - len, "  default: r = a; break;\n  }\n  ST(r, i, out);\n}\n");
  if (t->wname)
    len += (size_t)snprintf(s + len, cap - len,
                            "kernel void u(global const T *x, global const %s *y, global %s *out)\n"
                            "{\n  size_t i = get_global_id(0);\n  ST(upsample(LD(i, x), LD(i, y)), i, out);\n}\n",
                            t->uname, t->wname);
  return s;
}

static void run_type_width(const ity_t *t, int w)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char *src = kernel_source(t, w);
  cl_program p = tl_build(ctx, src, "-cl-std=CL3.0"); /* ctz is OpenCL C 2.0+ */
  free(src);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  size_t es = (size_t)t->bits / 8;
  i128 *in[3];
  void *hb[3], *ho = malloc(NELEM * 16);
  cl_mem b[3], bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NELEM * 16, NULL, &err);
  ASSERT_OK(err);
  for (int j = 0; j < 3; j++) {
    in[j] = malloc(NELEM * sizeof(i128));
    hb[j] = malloc(NELEM * es);
    for (int i = 0; i < NELEM; i++) {
      in[j][i] = gen(t, j == 0 ? i : j == 1 ? (i < 144 ? i / 12 : i) : (i * 5) % NELEM);
      store(t, hb[j], i, in[j][i]);
    }
    b[j] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NELEM * es, hb[j], &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &b[j]));
  }
  ASSERT_OK(clSetKernelArg(k, 3, sizeof(cl_mem), &bo));
  size_t gsz = NELEM / (size_t)w;
  int failures = 0;
  for (int f = 0; f < F_COUNT; f++) {
    if (!fexpr[f] || (w == 1 && (f == F_MAX_S || f == F_MIN_S || f == F_CLAMP_S)))
      continue;
    if ((f == F_MUL24 || f == F_MAD24) && t->bits != 32)
      continue;
    ASSERT_OK(clSetKernelArg(k, 4, sizeof(int), &f));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, NELEM * es, ho, 0, NULL, NULL));
    for (int i = 0; i < NELEM; i++) {
      i128 bb = in[1][i], cc = in[2][i];
      if (f == F_MAX_S || f == F_MIN_S || f == F_CLAMP_S) { /* the first lane of b and c */
        bb = in[1][i - i % w];
        cc = in[2][i - i % w];
      }
      i128 want = wrap(t, ref(t, f, in[0][i], bb, cc)), got = load(t, ho, i);
      if (got != want) {
        printf("  %s%d %s: a=%lld b=%lld c=%lld: got %lld want %lld\n", t->name, w, fexpr[f],
               (long long)in[0][i], (long long)bb, (long long)cc, (long long)got, (long long)want);
        failures++;
        break;
      }
    }
  }
  if (t->wname) {
    const ity_t *wt = NULL, *ut = NULL;
    for (size_t j = 0; j < sizeof(types) / sizeof(types[0]); j++) {
      if (!strcmp(types[j].name, t->wname)) wt = &types[j];
      if (!strcmp(types[j].name, t->uname)) ut = &types[j];
    }
    cl_kernel ku = clCreateKernel(p, "u", &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(ku, 0, sizeof(cl_mem), &b[0]));
    ASSERT_OK(clSetKernelArg(ku, 1, sizeof(cl_mem), &b[1]));
    ASSERT_OK(clSetKernelArg(ku, 2, sizeof(cl_mem), &bo));
    ASSERT_OK(clEnqueueNDRangeKernel(q, ku, 1, NULL, &gsz, NULL, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, NELEM * es * 2, ho, 0, NULL, NULL));
    for (int i = 0; i < NELEM; i++) {
      i128 want = wrap(wt, (in[0][i] * ((i128)1 << t->bits)) + (i128)ubits(ut, in[1][i])), got = load(wt, ho, i);
      if (got != want) {
        printf("  %s%d upsample: hi=%lld lo=%lld: got %lld want %lld\n", t->name, w, (long long)in[0][i],
               (long long)in[1][i], (long long)got, (long long)want);
        failures++;
        break;
      }
    }
    clReleaseKernel(ku);
  }
  for (int j = 0; j < 3; j++) {
    clReleaseMemObject(b[j]);
    free(in[j]);
    free(hb[j]);
  }
  clReleaseMemObject(bo);
  free(ho);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  ASSERT_EQ(failures, 0);
}

static void run_type(int ti)
{
  static const int widths[] = {1, 2, 3, 4, 8, 16};
  for (int i = 0; i < 6; i++)
    run_type_width(&types[ti], widths[i]);
}

TEST(char_all_widths) { run_type(0); }
TEST(uchar_all_widths) { run_type(1); }
TEST(short_all_widths) { run_type(2); }
TEST(ushort_all_widths) { run_type(3); }
TEST(int_all_widths) { run_type(4); }
TEST(uint_all_widths) { run_type(5); }
TEST(long_all_widths) { run_type(6); }
TEST(ulong_all_widths) { run_type(7); }

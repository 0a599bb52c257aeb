/* Work-group collectives: every function x op x type x a set of work-group
 * sizes and dimensions, compared with a C reference, at the default level and
 * with -cl-opt-disable.  Order is the linear local id; n is the actual size of
 * the group (the last group of a non-uniform NDRange is smaller). */
#include <float.h>
#include <limits.h>
#include <math.h>

#include "tests/testlib.h"

typedef enum { T_INT, T_UINT, T_LONG, T_ULONG, T_FLOAT, T_DOUBLE, T_COUNT } ty_t;
static const char *ty_name[] = {"int", "uint", "long", "ulong", "float", "double"};
static const size_t ty_size[] = {4, 4, 8, 8, 4, 8};

typedef enum { OP_ADD, OP_MIN, OP_MAX, OP_MUL, OP_AND, OP_OR, OP_XOR, OP_LAND, OP_LOR, OP_LXOR, OP_COUNT } op_t;
static const char *op_name[] = {"add", "min", "max", "mul", "and", "or", "xor", "logical_and", "logical_or", "logical_xor"};

typedef enum { F_REDUCE, F_SCAN_INCL, F_SCAN_EXCL, F_COUNT } fn_t;
static const char *fn_name[] = {"reduce", "scan_inclusive", "scan_exclusive"};

static int is_float(ty_t t) { return t == T_FLOAT || t == T_DOUBLE; }
static int is_signed(ty_t t) { return t == T_INT || t == T_LONG; }

/* Which (op, type) pairs exist: add/min/max for all (OpenCL C 2.0); mul for all and
 * and/or/xor for integers (cl_khr_work_group_uniform_arithmetic); logical ops take int. */
static int op_valid(op_t op, ty_t t)
{
  switch (op) {
  case OP_ADD: case OP_MIN: case OP_MAX: case OP_MUL: return 1;
  case OP_AND: case OP_OR: case OP_XOR: return !is_float(t);
  default: return t == T_INT;
  }
}

/* Values are carried as doubles for floats and as uint64 bit patterns for integers. */
typedef union { uint64_t u; double d; } val_t;

static val_t load(const void *buf, size_t i, ty_t t)
{
  val_t v;
  switch (t) {
  case T_INT: v.u = (uint64_t)(int64_t)((const int32_t *)buf)[i]; break;
  case T_UINT: v.u = ((const uint32_t *)buf)[i]; break;
  case T_LONG: case T_ULONG: v.u = ((const uint64_t *)buf)[i]; break;
  case T_FLOAT: v.d = ((const float *)buf)[i]; break;
  default: v.d = ((const double *)buf)[i]; break;
  }
  return v;
}

static val_t identity(op_t op, ty_t t)
{
  val_t v = {0};
  switch (op) {
  case OP_ADD: case OP_OR: case OP_XOR: case OP_LOR: case OP_LXOR:
    if (is_float(t)) v.d = 0.0;
    return v;
  case OP_MUL:
    if (is_float(t)) v.d = 1.0; else v.u = 1;
    return v;
  case OP_AND: v.u = ~0ull; return v;
  case OP_LAND: v.u = 1; return v;
  case OP_MIN:
    switch (t) {
    case T_INT: v.u = (uint64_t)(int64_t)INT_MAX; break;
    case T_UINT: v.u = UINT_MAX; break;
    case T_LONG: v.u = (uint64_t)LLONG_MAX; break;
    case T_ULONG: v.u = ULLONG_MAX; break;
    default: v.d = INFINITY; break;
    }
    return v;
  default: /* max */
    switch (t) {
    case T_INT: v.u = (uint64_t)(int64_t)INT_MIN; break;
    case T_UINT: v.u = 0; break;
    case T_LONG: v.u = (uint64_t)LLONG_MIN; break;
    case T_ULONG: v.u = 0; break;
    default: v.d = -INFINITY; break;
    }
    return v;
  }
}

/* Normalise an integer value to the type's width (wrapping). */
static val_t wrap(val_t v, ty_t t)
{
  if (t == T_INT) v.u = (uint64_t)(int64_t)(int32_t)(uint32_t)v.u;
  if (t == T_UINT) v.u = (uint32_t)v.u;
  return v;
}

static val_t apply(op_t op, ty_t t, val_t a, val_t b)
{
  val_t r = {0};
  if (is_float(t)) {
    switch (op) {
    case OP_ADD: r.d = a.d + b.d; break;
    case OP_MUL: r.d = a.d * b.d; break;
    case OP_MIN: r.d = fmin(a.d, b.d); break;
    default: r.d = fmax(a.d, b.d); break;
    }
    if (t == T_FLOAT) r.d = (float)r.d;
    return r;
  }
  switch (op) {
  case OP_ADD: r.u = a.u + b.u; break;
  case OP_MUL: r.u = a.u * b.u; break;
  case OP_AND: r.u = a.u & b.u; break;
  case OP_OR: r.u = a.u | b.u; break;
  case OP_XOR: r.u = a.u ^ b.u; break;
  case OP_LAND: r.u = (a.u != 0) && (b.u != 0); break;
  case OP_LOR: r.u = (a.u != 0) || (b.u != 0); break;
  case OP_LXOR: r.u = (a.u != 0) != (b.u != 0); break;
  case OP_MIN:
    r = is_signed(t) ? ((int64_t)a.u < (int64_t)b.u ? a : b) : (a.u < b.u ? a : b);
    break;
  default:
    r = is_signed(t) ? ((int64_t)a.u > (int64_t)b.u ? a : b) : (a.u > b.u ? a : b);
    break;
  }
  return wrap(r, t);
}

/* ---- one NDRange geometry ---- */
typedef struct geom {
  cl_uint dim;
  size_t global[3], local[3];
} geom;

/* Linear index of global id g in a buffer laid out x fastest. */
static size_t lin(const geom *G, const size_t g[3])
{
  return g[0] + G->global[0] * (g[1] + G->global[1] * g[2]);
}

/* Visits the work-groups of G; for each, the buffer indexes of its work-items
 * in linear local id order (idx[0..n)). */
static size_t group_items(const geom *G, const size_t grp[3], size_t *idx)
{
  size_t base[3], sz[3], n = 0;
  for (int d = 0; d < 3; d++) {
    size_t gl = d < (int)G->dim ? G->global[d] : 1, lo = d < (int)G->dim ? G->local[d] : 1;
    base[d] = grp[d] * lo;
    sz[d] = base[d] + lo <= gl ? lo : gl - base[d];
  }
  for (size_t z = 0; z < sz[2]; z++)
    for (size_t y = 0; y < sz[1]; y++)
      for (size_t x = 0; x < sz[0]; x++) {
        size_t g[3] = {base[0] + x, base[1] + y, base[2] + z};
        idx[n++] = lin(G, g);
      }
  return n;
}

static size_t ngroups(const geom *G, int d)
{
  if (d >= (int)G->dim)
    return 1;
  return (G->global[d] + G->local[d] - 1) / G->local[d];
}

static size_t total(const geom *G)
{
  size_t t = 1;
  for (cl_uint d = 0; d < G->dim; d++)
    t *= G->global[d];
  return t;
}

/* Deterministic inputs: small values so float adds are nearly exact; float
 * products of powers of two are exact in any order. */
static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void fill(void *buf, size_t n, ty_t t, op_t op)
{
  for (size_t i = 0; i < n; i++) {
    uint64_t r = rnd();
    switch (t) {
    case T_INT: ((int32_t *)buf)[i] = op == OP_MUL ? (r % 8 == 0 ? 3 : r % 8 == 1 ? -1 : 1) : (op >= OP_LAND ? (int32_t)(r % 3 == 0 ? 0 : (int32_t)(r >> 8)) : (int32_t)r); break;
    case T_UINT: ((uint32_t *)buf)[i] = op == OP_MUL ? (r % 8 == 0 ? 3u : r % 8 == 1 ? 0xFFFFFFFFu : 1u) : (uint32_t)r; break;
    case T_LONG: ((int64_t *)buf)[i] = op == OP_MUL ? (r % 8 == 0 ? 3 : r % 8 == 1 ? -1 : 1) : (int64_t)r; break;
    case T_ULONG: ((uint64_t *)buf)[i] = op == OP_MUL ? (r % 8 == 0 ? 3 : r % 8 == 1 ? ~0ull : 1) : r; break;
    case T_FLOAT: ((float *)buf)[i] = op == OP_MUL ? (r % 8 == 0 ? 0.5f : r % 8 == 1 ? 2.0f : 1.0f) : (float)((int64_t)(r % 2001) - 1000) / 64.0f; break;
    default: ((double *)buf)[i] = op == OP_MUL ? (r % 8 == 0 ? 0.5 : r % 8 == 1 ? 2.0 : 1.0) : (double)((int64_t)(r % 2001) - 1000) / 64.0; break;
    }
  }
}

static int same(val_t want, val_t got, ty_t t, op_t op, double tol)
{
  if (!is_float(t))
    return wrap(want, t).u == wrap(got, t).u;
  if (isnan(want.d))
    return isnan(got.d);
  if (op != OP_ADD && op != OP_MUL)
    return want.d == got.d && signbit(want.d) == signbit(got.d);
  if (isinf(want.d))
    return want.d == got.d;
  return fabs(want.d - got.d) <= tol;
}

/* Checks out[] of fn/op/t for geometry G with input in[]. Returns the number of mismatches. */
static int check(const geom *G, fn_t fn, op_t op, ty_t t, const void *in, const void *out, const char *what)
{
  size_t *idx = malloc(sizeof(size_t) * 65536);
  int bad = 0;
  size_t grp[3];
  for (grp[2] = 0; grp[2] < ngroups(G, 2); grp[2]++)
    for (grp[1] = 0; grp[1] < ngroups(G, 1); grp[1]++)
      for (grp[0] = 0; grp[0] < ngroups(G, 0); grp[0]++) {
        size_t n = group_items(G, grp, idx);
        val_t acc = identity(op, t), total_v = identity(op, t);
        double absacc = 0, abstotal = 0;
        for (size_t i = 0; i < n; i++) {
          total_v = apply(op, t, total_v, load(in, idx[i], t));
          abstotal += is_float(t) ? fabs(load(in, idx[i], t).d) : 0;
        }
        for (size_t i = 0; i < n && bad < 5; i++) {
          val_t x = load(in, idx[i], t), want;
          double tol;
          if (fn == F_REDUCE) {
            want = total_v;
            tol = abstotal;
          } else if (fn == F_SCAN_INCL) {
            acc = apply(op, t, acc, x);
            absacc += is_float(t) ? fabs(x.d) : 0;
            want = acc;
            tol = absacc;
          } else {
            want = acc;
            tol = absacc;
            acc = apply(op, t, acc, x);
            absacc += is_float(t) ? fabs(x.d) : 0;
          }
          tol = tol * (t == T_FLOAT ? 1e-6 : 1e-14) * (double)(n + 1) + 1e-30;
          val_t got = load(out, idx[i], t);
          if (!same(want, got, t, op, tol)) {
            if (is_float(t))
              fprintf(stderr, "%s dim %u global %zux%zux%zu local %zux%zux%zu group (%zu,%zu,%zu) item %zu: want %.17g got %.17g\n",
                      what, G->dim, G->global[0], G->global[1], G->global[2], G->local[0], G->local[1], G->local[2],
                      grp[0], grp[1], grp[2], i, want.d, got.d);
            else
              fprintf(stderr, "%s dim %u global %zux%zux%zu local %zux%zux%zu group (%zu,%zu,%zu) item %zu: want 0x%llx got 0x%llx\n",
                      what, G->dim, G->global[0], G->global[1], G->global[2], G->local[0], G->local[1], G->local[2],
                      grp[0], grp[1], grp[2], i, (unsigned long long)want.u, (unsigned long long)got.u);
            bad++;
          }
        }
      }
  free(idx);
  return bad;
}

static const char kernel_prelude[] =
  "#define LIN() (get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2)))\n";

static char *program_source(ty_t t)
{
  size_t cap = 1 << 16, len = 0;
  char *s = malloc(cap);
  len += snprintf(s + len, cap - len, "%s", kernel_prelude);
  if (t == T_DOUBLE)
    len += snprintf(s + len, cap - len, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  for (int fn = 0; fn < F_COUNT; fn++)
    for (int op = 0; op < OP_COUNT; op++) {
      if (!op_valid(op, t))
        continue;
      len += snprintf(s + len, cap - len,
                      "__kernel void k_%s_%s(__global const %s *in, __global %s *out) {\n"
                      "  size_t i = LIN(); out[i] = work_group_%s_%s(in[i]);\n}\n",
                      fn_name[fn], op_name[op], ty_name[t], ty_name[t], fn_name[fn], op_name[op]);
    }
  return s;
}

static const geom geoms[] = {
  {1, {1}, {1}},          {1, {6}, {2}},          {1, {9}, {3}},          {1, {21}, {7}},
  {1, {64}, {8}},         {1, {51}, {17}},        {1, {192}, {64}},       {1, {768}, {256}},
  {1, {2000}, {1000}},    {1, {2048}, {1024}},    {1, {100}, {64}},        /* non-uniform last group */
  {1, {1500}, {1024}},    {1, {37}, {16}},
  {2, {24, 16}, {8, 8}},  {2, {9, 10}, {3, 5}},   {2, {20, 7}, {16, 4}},   /* 2D, non-uniform in both */
  {3, {8, 8, 8}, {4, 4, 4}}, {3, {4, 6, 10}, {2, 3, 5}}, {3, {5, 7, 3}, {4, 2, 2}},
  /* rows of whole chunks (8 or 16 lanes): the fused scan in 2D and 3D;
   * non-uniform: a last column of groups 8 wide */
  {2, {64, 6}, {32, 3}},  {2, {40, 9}, {16, 4}},  {2, {256, 4}, {64, 4}},
  {3, {32, 4, 6}, {16, 2, 3}}, {3, {48, 2, 2}, {24, 2, 2}},
};

static void run_type(ty_t t, const char *options)
{
  if (!tl_sweep_type(ty_name[t]))
    tl_skip("TL_TYPES=signed: %s takes the lowering of the signed type of its width", ty_name[t]);
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_device_id dev = tl_device();
  char *src = program_source(t);
  cl_program prog = tl_build(ctx, src, options);
  free(src);
  size_t maxwg = 0;
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(maxwg), &maxwg, NULL));

  geom all[sizeof(geoms) / sizeof(geoms[0]) + 1];
  size_t ng = sizeof(geoms) / sizeof(geoms[0]);
  memcpy(all, geoms, sizeof(geoms));
  all[ng++] = (geom){1, {maxwg * 2}, {maxwg}}; /* the device maximum */

  size_t maxn = 0;
  for (size_t g = 0; g < ng; g++)
    if (total(&all[g]) > maxn)
      maxn = total(&all[g]);
  size_t bytes = maxn * ty_size[t];
  void *in = malloc(bytes), *out = malloc(bytes);
  cl_int err;
  cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
  ASSERT_OK(err);
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  ASSERT_OK(err);

  int bad = 0, runs = 0;
  for (int fn = 0; fn < F_COUNT; fn++)
    for (int op = 0; op < OP_COUNT; op++) {
      if (!op_valid(op, t))
        continue;
      char kname[128];
      snprintf(kname, sizeof(kname), "k_%s_%s", fn_name[fn], op_name[op]);
      cl_kernel k = clCreateKernel(prog, kname, &err);
      ASSERT_OK(err);
      ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &din));
      ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &dout));
      for (size_t g = 0; g < ng; g++) {
        const geom *G = &all[g];
        size_t n = total(G);
        fill(in, n, t, op);
        memset(out, 0xA5, n * ty_size[t]);
        ASSERT_OK(clEnqueueWriteBuffer(q, din, CL_TRUE, 0, n * ty_size[t], in, 0, NULL, NULL));
        ASSERT_OK(clEnqueueNDRangeKernel(q, k, G->dim, NULL, G->global, G->local, 0, NULL, NULL));
        ASSERT_OK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, n * ty_size[t], out, 0, NULL, NULL));
        char what[256];
        snprintf(what, sizeof(what), "%s %s %s", kname, ty_name[t], options ? options : "");
        bad += check(G, fn, op, t, in, out, what);
        runs++;
      }
      clReleaseKernel(k);
    }
  fprintf(stderr, "%s%s: %d runs, %d mismatches\n", ty_name[t], options ? options : "", runs, bad);
  ASSERT_EQ(bad, 0);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(in);
  free(out);
}

TEST(int_default) { run_type(T_INT, "-cl-std=CL3.0"); }
TEST(int_opt_disable) { run_type(T_INT, "-cl-std=CL3.0 -cl-opt-disable"); }
TEST(uint_default) { run_type(T_UINT, "-cl-std=CL3.0"); }
TEST(uint_opt_disable) { run_type(T_UINT, "-cl-std=CL3.0 -cl-opt-disable"); }
TEST(long_default) { run_type(T_LONG, "-cl-std=CL3.0"); }
TEST(long_opt_disable) { run_type(T_LONG, "-cl-std=CL3.0 -cl-opt-disable"); }
TEST(ulong_default) { run_type(T_ULONG, "-cl-std=CL3.0"); }
TEST(ulong_opt_disable) { run_type(T_ULONG, "-cl-std=CL3.0 -cl-opt-disable"); }
TEST(float_default) { run_type(T_FLOAT, "-cl-std=CL3.0"); }
TEST(float_opt_disable) { run_type(T_FLOAT, "-cl-std=CL3.0 -cl-opt-disable"); }
TEST(double_default) { run_type(T_DOUBLE, "-cl-std=CL3.0"); }
TEST(double_opt_disable) { run_type(T_DOUBLE, "-cl-std=CL3.0 -cl-opt-disable"); }

/* ---- the spec's example and the edge cases, pinned exactly ---- */

static cl_program build_one(cl_context ctx, const char *src, const char *opts)
{
  return tl_build(ctx, src, opts);
}

static void run_1d(cl_context ctx, cl_command_queue q, cl_program p, const char *name, void *in, void *out,
                   size_t elem, size_t n, size_t local)
{
  cl_int err;
  cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * elem, in, &err);
  ASSERT_OK(err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * elem, NULL, &err);
  ASSERT_OK(err);
  cl_kernel k = clCreateKernel(p, name, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(b), &b));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, n * elem, out, 0, NULL, NULL));
  clReleaseKernel(k);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

TEST(spec_example_scan)
{
  static const char src[] =
    "__kernel void incl(__global const int *in, __global int *out) {"
    "  out[get_global_id(0)] = work_group_scan_inclusive_add(in[get_global_id(0)]); }\n"
    "__kernel void excl(__global const int *in, __global int *out) {"
    "  out[get_global_id(0)] = work_group_scan_exclusive_add(in[get_global_id(0)]); }\n"
    "__kernel void red(__global const int *in, __global int *out) {"
    "  out[get_global_id(0)] = work_group_reduce_add(in[get_global_id(0)]); }\n";
  const char *opts[] = {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"};
  for (int o = 0; o < 2; o++) {
    cl_context ctx = tl_context();
    cl_command_queue q = tl_queue(ctx, 0);
    cl_program p = build_one(ctx, src, opts[o]);
    int in[8] = {3, 1, 7, 0, 4, 1, 6, 3}, out[8];
    const int incl[8] = {3, 4, 11, 11, 15, 16, 22, 25}, excl[8] = {0, 3, 4, 11, 11, 15, 16, 22};
    run_1d(ctx, q, p, "incl", in, out, 4, 8, 8);
    for (int i = 0; i < 8; i++)
      ASSERT_EQ(out[i], incl[i]);
    run_1d(ctx, q, p, "excl", in, out, 4, 8, 8);
    for (int i = 0; i < 8; i++)
      ASSERT_EQ(out[i], excl[i]);
    run_1d(ctx, q, p, "red", in, out, 4, 8, 8);
    for (int i = 0; i < 8; i++)
      ASSERT_EQ(out[i], 25);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
  }
}

TEST(float_edge_cases)
{
  static const char src[] =
    "__kernel void smin(__global const float *in, __global float *out) {"
    "  out[get_global_id(0)] = work_group_scan_inclusive_min(in[get_global_id(0)]); }\n"
    "__kernel void smax(__global const float *in, __global float *out) {"
    "  out[get_global_id(0)] = work_group_scan_inclusive_max(in[get_global_id(0)]); }\n"
    "__kernel void xmin(__global const float *in, __global float *out) {"
    "  out[get_global_id(0)] = work_group_scan_exclusive_min(in[get_global_id(0)]); }\n"
    "__kernel void xmax(__global const float *in, __global float *out) {"
    "  out[get_global_id(0)] = work_group_scan_exclusive_max(in[get_global_id(0)]); }\n"
    "__kernel void xadd(__global const float *in, __global float *out) {"
    "  out[get_global_id(0)] = work_group_scan_exclusive_add(in[get_global_id(0)]); }\n"
    "__kernel void radd(__global const float *in, __global float *out) {"
    "  out[get_global_id(0)] = work_group_reduce_add(in[get_global_id(0)]); }\n";
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = build_one(ctx, src, "-cl-std=CL3.0");
  float in[8] = {-0.0f, 2.0f, INFINITY, 1.0f, NAN, -INFINITY, 0.0f, 5.0f}, out[8];
  /* exclusive scans start with the identity */
  run_1d(ctx, q, p, "xmin", in, out, 4, 8, 8);
  ASSERT_TRUE(isinf(out[0]) && out[0] > 0);
  run_1d(ctx, q, p, "xmax", in, out, 4, 8, 8);
  ASSERT_TRUE(isinf(out[0]) && out[0] < 0);
  run_1d(ctx, q, p, "xadd", in, out, 4, 8, 8);
  ASSERT_TRUE(out[0] == 0.0f);
  /* min/max ignore a NaN operand like fmin/fmax; +-INF are ordinary values */
  run_1d(ctx, q, p, "smin", in, out, 4, 8, 8);
  ASSERT_TRUE(out[1] == -0.0f || out[1] == 0.0f);
  ASSERT_TRUE(out[5] == -INFINITY && out[7] == -INFINITY);
  run_1d(ctx, q, p, "smax", in, out, 4, 8, 8);
  ASSERT_TRUE(out[1] == 2.0f);
  ASSERT_TRUE(out[2] == INFINITY && out[7] == INFINITY);
  /* INF + -INF is NaN: the reduction of the whole group is NaN */
  run_1d(ctx, q, p, "radd", in, out, 4, 8, 8);
  ASSERT_TRUE(isnan(out[0]) && isnan(out[7]));
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(integer_overflow_wraps)
{
  static const char src[] =
    "__kernel void r(__global const int *in, __global int *out) {"
    "  out[get_global_id(0)] = work_group_reduce_add(in[get_global_id(0)]); }\n"
    "__kernel void s(__global const int *in, __global int *out) {"
    "  out[get_global_id(0)] = work_group_scan_inclusive_add(in[get_global_id(0)]); }\n";
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = build_one(ctx, src, "-cl-std=CL3.0");
  int in[4] = {INT_MAX, 1, INT_MAX, 2}, out[4];
  run_1d(ctx, q, p, "s", in, out, 4, 4, 4);
  ASSERT_EQ(out[0], INT_MAX);
  ASSERT_EQ(out[1], INT_MIN);
  ASSERT_EQ(out[2], -1); /* INT_MIN + INT_MAX */
  ASSERT_EQ(out[3], 1);
  run_1d(ctx, q, p, "r", in, out, 4, 4, 4);
  ASSERT_EQ(out[0], 1);
  ASSERT_EQ(out[3], 1);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* broadcast (1D/2D/3D forms), all, any; several collectives and a barrier in
 * one kernel, a collective inside a uniform loop, values live across them. */
TEST(broadcast_all_any_and_mixes)
{
  static const char src[] =
    "__kernel void b1(__global const int *in, __global int *out, uint src) {"
    "  out[get_global_id(0)] = work_group_broadcast(in[get_global_id(0)], (size_t)src); }\n"
    "__kernel void b2(__global const long *in, __global long *out) {"
    "  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);"
    "  out[i] = work_group_broadcast(in[i], (size_t)1, (size_t)2); }\n"
    "__kernel void b3(__global const double *in, __global double *out) {"
    "  size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));"
    "  out[i] = work_group_broadcast(in[i], (size_t)1, (size_t)0, (size_t)1); }\n"
    "__kernel void aa(__global const int *in, __global int *out) {"
    "  size_t i = get_global_id(0);"
    "  out[2 * i] = work_group_all(in[i]); out[2 * i + 1] = work_group_any(in[i]); }\n"
    "__kernel void mix(__global const int *in, __global int *out) {"
    "  size_t i = get_global_id(0); int x = in[i]; int keep = x * 3;"
    "  int s = work_group_scan_inclusive_add(x);"
    "  barrier(CLK_GLOBAL_MEM_FENCE);"
    "  int m = work_group_reduce_max(s);"
    "  int acc = 0;"
    "  for (int it = 0; it < 3; it++) acc += work_group_reduce_add(x + it);"
    "  out[i] = s + m + acc + keep; }\n";
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = build_one(ctx, src, "-cl-std=CL3.0");
  cl_int err;
  /* b1: 1D, groups of 8, source 5 */
  {
    int in[24], out[24];
    for (int i = 0; i < 24; i++) in[i] = 100 + i;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(out), NULL, &err);
    cl_kernel k = clCreateKernel(p, "b1", &err);
    ASSERT_OK(err);
    cl_uint srcid = 5;
    clSetKernelArg(k, 0, sizeof(a), &a);
    clSetKernelArg(k, 1, sizeof(b), &b);
    clSetKernelArg(k, 2, sizeof(srcid), &srcid);
    size_t g = 24, l = 8;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    for (int i = 0; i < 24; i++)
      ASSERT_EQ(out[i], 100 + (i / 8) * 8 + 5);
    /* An id outside the group is undefined behaviour; LaneCL reads
     * work-item 0's operand, never memory past its buffer. */
    srcid = 1000000;
    clSetKernelArg(k, 2, sizeof(srcid), &srcid);
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    for (int i = 0; i < 24; i++)
      ASSERT_EQ(out[i], 100 + (i / 8) * 8);
    clReleaseKernel(k);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
  }
  /* b2: 2D 8x4 global, 4x4 local: source (1,2) of each group */
  {
    cl_long in[32], out[32];
    for (int i = 0; i < 32; i++) in[i] = 1000 + i;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(out), NULL, &err);
    cl_kernel k = clCreateKernel(p, "b2", &err);
    ASSERT_OK(err);
    clSetKernelArg(k, 0, sizeof(a), &a);
    clSetKernelArg(k, 1, sizeof(b), &b);
    size_t g[2] = {8, 4}, l[2] = {4, 4};
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    for (int y = 0; y < 4; y++)
      for (int x = 0; x < 8; x++)
        ASSERT_EQ(out[y * 8 + x], 1000 + 2 * 8 + (x / 4) * 4 + 1);
    clReleaseKernel(k);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
  }
  /* b3: 3D 4x2x2 global, 2x2x2 local: source (1,0,1) */
  {
    double in[16], out[16];
    for (int i = 0; i < 16; i++) in[i] = 0.5 * i;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(out), NULL, &err);
    cl_kernel k = clCreateKernel(p, "b3", &err);
    ASSERT_OK(err);
    clSetKernelArg(k, 0, sizeof(a), &a);
    clSetKernelArg(k, 1, sizeof(b), &b);
    size_t g[3] = {4, 2, 2}, l[3] = {2, 2, 2};
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 3, NULL, g, l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    for (int i = 0; i < 16; i++) {
      int x = i % 4;
      int srcx = (x / 2) * 2 + 1, srcy = 0, srcz = 1;
      ASSERT_TRUE(out[i] == in[srcx + 4 * (srcy + 2 * srcz)]);
    }
    clReleaseKernel(k);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
  }
  /* all / any over groups of 7 with a trailing group of 3 */
  {
    int in[17], out[34];
    for (int i = 0; i < 17; i++) in[i] = 1;
    in[2] = 0;            /* group 0: not all, any */
    for (int i = 7; i < 14; i++) in[i] = 0;  /* group 1: none */
    in[15] = -4;          /* group 2 (14..16): all nonzero */
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(out), NULL, &err);
    cl_kernel k = clCreateKernel(p, "aa", &err);
    ASSERT_OK(err);
    clSetKernelArg(k, 0, sizeof(a), &a);
    clSetKernelArg(k, 1, sizeof(b), &b);
    size_t g = 17, l = 7;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    for (int i = 0; i < 17; i++) {
      int grp = i / 7;
      ASSERT_EQ(out[2 * i] != 0, grp == 2);
      ASSERT_EQ(out[2 * i + 1] != 0, grp != 1);
    }
    clReleaseKernel(k);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
  }
  /* several collectives, a barrier and a loop of collectives in one kernel */
  {
    enum { N = 96, L = 32 };
    int in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = (i * 7) % 11 - 5;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(out), NULL, &err);
    cl_kernel k = clCreateKernel(p, "mix", &err);
    ASSERT_OK(err);
    clSetKernelArg(k, 0, sizeof(a), &a);
    clSetKernelArg(k, 1, sizeof(b), &b);
    size_t g = N, l = L;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    for (int grp = 0; grp < N / L; grp++) {
      int s[L], m = INT_MIN, sum = 0;
      for (int i = 0; i < L; i++) {
        sum += in[grp * L + i];
        s[i] = sum;
        if (s[i] > m) m = s[i];
      }
      int acc = 3 * sum + L * (0 + 1 + 2);
      for (int i = 0; i < L; i++)
        ASSERT_EQ(out[grp * L + i], s[i] + m + acc + in[grp * L + i] * 3);
    }
    clReleaseKernel(k);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
  }
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* The device reports the collectives. */
/* Scans that run fused with the regions around them (16 work-items at a
 * time): values live across them, a uniform value loaded before the scan and
 * used after it, a second scan right after the first, a scan in a loop; local
 * sizes below, at and above 16, not multiples of it, non-uniform last groups,
 * many groups of 1, 2, 4 and 8 work-items (run 16 / size per chunk when the
 * kernel allows).
 * The same kernel at -cl-opt-disable runs unfused: both must agree with C. */
TEST(scan_fusion_shapes)
{
  static const char src[] =
    "__kernel void f(__global const int *in, __global int *out, __global long *out2, int reps) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int x = in[i];\n"
    "  int u = in[get_group_id(0)];\n"
    "  int sq = x * x + 1;\n"
    "  int a = work_group_scan_inclusive_add(x);\n"
    "  int b = work_group_scan_exclusive_max(a - sq);\n"
    "  long c = 0;\n"
    "  for (int r = 0; r < reps; r++)\n"
    "    c += work_group_scan_inclusive_min((long)(x ^ r)) + r;\n"
    "  out[i] = (int)((uint)a + (uint)b * 3u + (uint)sq + (uint)u);\n" /* b may be INT_MIN */
    "  out2[i] = c;\n"
    "}\n";
  static const size_t locals[] = {1, 2, 4, 5, 8, 16, 17, 33, 64, 250, 1024};
  const char *opts[] = {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"};
  const size_t maxn = 4 * 1024 + 7;
  int *in = malloc(maxn * sizeof(int)), *out = malloc(maxn * sizeof(int));
  long *out2 = malloc(maxn * sizeof(long));
  for (size_t i = 0; i < maxn; i++)
    in[i] = (int)((i * 2654435761u) % 101) - 50;
  int bad = 0;
  for (int o = 0; o < 2; o++) {
    cl_context ctx = tl_context();
    cl_command_queue q = tl_queue(ctx, 0);
    cl_program p = build_one(ctx, src, opts[o]);
    cl_int err;
    cl_mem din = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, maxn * sizeof(int), in, &err);
    ASSERT_OK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, maxn * sizeof(int), NULL, &err);
    ASSERT_OK(err);
    cl_mem dout2 = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, maxn * sizeof(long), NULL, &err);
    ASSERT_OK(err);
    cl_kernel k = clCreateKernel(p, "f", &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(din), &din));
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(dout), &dout));
    ASSERT_OK(clSetKernelArg(k, 2, sizeof(dout2), &dout2));
    for (size_t li = 0; li < sizeof(locals) / sizeof(locals[0]); li++)
      for (int reps = 0; reps < 3; reps += 2) {
        /* a smaller last group; groups of 1, 2, 4 and 8: enough of them to
         * run 16 / size per chunk (in spans of full groups) */
        size_t l = locals[li], n = l > 8 || l == 5 ? 3 * l + l / 2 + 1 : 40 * l + l / 2;
        ASSERT_OK(clSetKernelArg(k, 3, sizeof(int), &reps));
        ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &l, 0, NULL, NULL));
        ASSERT_OK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL));
        ASSERT_OK(clEnqueueReadBuffer(q, dout2, CL_TRUE, 0, n * sizeof(long), out2, 0, NULL, NULL));
        for (size_t g0 = 0; g0 < n; g0 += l) {
          size_t m = n - g0 < l ? n - g0 : l;
          int a = 0, vmax = INT_MIN;
          for (size_t j = 0; j < m; j++) {
            int x = in[g0 + j], sq = x * x + 1, u = in[g0 / l];
            a += x;
            int b = vmax;
            if (a - sq > vmax)
              vmax = a - sq;
            long c = 0;
            for (int r = 0; r < reps; r++) {
              long mn = LONG_MAX;
              for (size_t t = 0; t <= j; t++)
                if ((long)(in[g0 + t] ^ r) < mn)
                  mn = (long)(in[g0 + t] ^ r);
              c += mn + r;
            }
            /* wrapping, as the kernel's int arithmetic (b starts at INT_MIN) */
            int want = (int)((unsigned)a + (unsigned)b * 3u + (unsigned)sq + (unsigned)u);
            if (out[g0 + j] != want || out2[g0 + j] != c) {
              if (bad++ < 10)
                fprintf(stderr, "%s local %zu reps %d item %zu: want %d %ld got %d %ld\n", opts[o], l, reps,
                        g0 + j, want, c, out[g0 + j], out2[g0 + j]);
            }
          }
        }
      }
    clReleaseKernel(k);
    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseMemObject(dout2);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
  }
  free(in);
  free(out);
  free(out2);
  ASSERT_EQ(bad, 0);
}

/* Groups of 1, 2, 4 and 8 work-items, many per call of the work-group
 * function: kernels that keep nothing per group run 16 / size groups per
 * chunk, each group's lanes scanned on their own (int, long, float; 16: int, float). */
TEST(scan_small_groups_packed)
{
  static const char src[] =
    "__kernel void fi(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = work_group_scan_exclusive_add(in[i]) * 1000 + work_group_scan_inclusive_min(in[i]); }\n"
    "__kernel void fl(__global const long *in, __global long *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = work_group_scan_inclusive_add(in[i]) * 1000 + work_group_scan_exclusive_max(in[i]) % 1000; }\n"
    "__kernel void ff(__global const float *in, __global float *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_scan_inclusive_add(in[i]); }\n";
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = build_one(ctx, src, "-cl-std=CL3.0");
  enum { N = 1000 };
  int in[N], out[N];
  long lin[N], lout[N];
  float fin[N], fout[N];
  for (int i = 0; i < N; i++) {
    in[i] = i % 37 - 18;
    lin[i] = (long)(i % 41) - 20;
    fin[i] = (float)(i % 7) - 3.0f;
  }
  int bad = 0;
  for (size_t l = 1; l <= 16; l *= 2)
    for (size_t trim = 0; trim < 2; trim++) {
      size_t n = (N - trim * l) / l * l; /* whole groups only: no smaller last group */
      run_1d(ctx, q, p, "fi", in, out, 4, n, l);
      run_1d(ctx, q, p, "fl", lin, lout, 8, n, l);
      run_1d(ctx, q, p, "ff", fin, fout, 4, n, l);
      for (size_t g0 = 0; g0 < n; g0 += l) {
        int ex = 0, mn = INT_MAX;
        long la = 0, lmx = LONG_MIN;
        float fa = 0;
        for (size_t j = g0; j < g0 + l; j++) {
          mn = in[j] < mn ? in[j] : mn;
          la += lin[j];
          fa += fin[j];
          long want_l = la * 1000 + lmx % 1000;
          if (out[j] != ex * 1000 + mn || lout[j] != want_l || fout[j] != fa) {
            if (bad++ < 10)
              fprintf(stderr, "local %zu item %zu: int %d/%d long %ld/%ld float %g/%g\n", l, j, out[j],
                      ex * 1000 + mn, lout[j], want_l, fout[j], fa);
          }
          ex += in[j];
          lmx = lin[j] > lmx ? lin[j] : lmx;
        }
      }
    }
  ASSERT_EQ(bad, 0);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* Reduce, all, any and broadcast in groups of 1 to 16 (spans of full
 * groups): the packed path folds each group's lanes of a chunk on their own
 * (butterfly), and every work-item of a group reads the same value, floats
 * included; a broadcast with a constant id takes its group's element (with
 * a computed id, the unpacked path). */
TEST(reduce_small_groups_packed)
{
  static const char src[] =
    "__kernel void ri(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_reduce_add(in[i]) * 3 + 1; }\n"
    "__kernel void rmin(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_reduce_min(in[i]); }\n"
    "__kernel void rl(__global const long *in, __global long *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_reduce_max(in[i]) - in[i]; }\n"
    "__kernel void rf(__global const float *in, __global float *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_reduce_add(in[i]); }\n"
    "__kernel void al(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_all(in[i] > -17) * 2 + work_group_any(in[i] == 5); }\n"
    "__kernel void b0(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_broadcast(in[i] * 2, 0) - in[i]; }\n"
    "__kernel void bl(__global const long *in, __global long *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_broadcast(in[i], get_local_size(0) - 1); }\n"
    "__kernel void b3(__global const float *in, __global float *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_broadcast(in[i], 3); }\n"
    "__kernel void bbig(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_broadcast(in[i], 100000); }\n";
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = build_one(ctx, src, "-cl-std=CL3.0");
  enum { N = 1008 };
  static int in[N], out[N], outm[N], outa[N], outb[N];
  static long lin[N], lout[N], loutb[N];
  static float fin[N], fout[N], foutb[N];
  for (int i = 0; i < N; i++) {
    in[i] = (i * 7919) % 37 - 18;
    lin[i] = (long)((i * 104729) % 41) - 20 + ((long)(i % 3) << 40);
    fin[i] = (float)((i * 31) % 9) * 0.37f - 1.1f;
  }
  int bad = 0;
  for (size_t l = 1; l <= 16; l *= 2) {
    run_1d(ctx, q, p, "ri", in, out, 4, N, l);
    run_1d(ctx, q, p, "rmin", in, outm, 4, N, l);
    run_1d(ctx, q, p, "al", in, outa, 4, N, l);
    run_1d(ctx, q, p, "rl", lin, lout, 8, N, l);
    run_1d(ctx, q, p, "rf", fin, fout, 4, N, l);
    run_1d(ctx, q, p, "b0", in, outb, 4, N, l);
    run_1d(ctx, q, p, "bl", lin, loutb, 8, N, l);
    if (l > 3)
      run_1d(ctx, q, p, "b3", fin, foutb, 4, N, l);
    for (size_t g0 = 0; g0 < N; g0 += l) {
      int sum = 0, mn = INT_MAX, all = 1, any = 0;
      long mx = LONG_MIN;
      double fsum = 0, fabs_sum = 0;
      for (size_t j = g0; j < g0 + l; j++) {
        sum += in[j];
        mn = in[j] < mn ? in[j] : mn;
        all &= in[j] > -17;
        any |= in[j] == 5;
        mx = lin[j] > mx ? lin[j] : mx;
        fsum += fin[j];
        fabs_sum += fabsf(fin[j]);
      }
      for (size_t j = g0; j < g0 + l; j++) {
        /* float add: any order of the operations (bound), one value per group */
        int fok = fabs(fout[j] - fsum) <= 1e-6 * fabs_sum * (double)l + 1e-30 && fout[j] == fout[g0];
        int bok = outb[j] == in[g0] * 2 - in[j] && loutb[j] == lin[g0 + l - 1] && (l <= 3 || foutb[j] == fin[g0 + 3]);
        if (out[j] != sum * 3 + 1 || outm[j] != mn || outa[j] != all * 2 + any || lout[j] != mx - lin[j] || !fok ||
            !bok) {
          if (bad++ < 10)
            fprintf(stderr, "local %zu item %zu: add %d/%d min %d/%d all+any %d/%d max %ld/%ld float %g/%g\n", l, j,
                    out[j], sum * 3 + 1, outm[j], mn, outa[j], all * 2 + any, lout[j], mx - lin[j], fout[j], fsum);
        }
      }
    }
  }
  ASSERT_EQ(bad, 0);
  /* A constant id outside the group (undefined behaviour): work-item 0's
   * operand, packed (L <= 16) or not. */
  for (size_t l = 4; l <= 64; l *= 4) {
    run_1d(ctx, q, p, "bbig", in, outb, 4, N / 64 * 64, l);
    for (size_t j = 0; j < N / 64 * 64; j++)
      ASSERT_EQ(outb[j], in[j / l * l]);
  }
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(device_reports_collectives)
{
  cl_device_id dev = tl_device();
  cl_bool wgc = CL_FALSE;
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, sizeof(wgc), &wgc, NULL));
  ASSERT_EQ(wgc, CL_TRUE);
  size_t sz = 0;
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &sz));
  cl_name_version *nv = malloc(sz);
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, sz, nv, NULL));
  int found = 0;
  for (size_t i = 0; i < sz / sizeof(*nv); i++)
    found |= !strcmp(nv[i].name, "__opencl_c_work_group_collective_functions");
  free(nv);
  ASSERT_TRUE(found);
  char ext[8192] = "";
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL));
  ASSERT_TRUE(strstr(ext, "cl_khr_work_group_uniform_arithmetic") != NULL);
  /* and it is defined for kernels */
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx,
    "#ifndef __opencl_c_work_group_collective_functions\n#error no collectives\n#endif\n"
    "#ifndef cl_khr_work_group_uniform_arithmetic\n#error no uniform arithmetic\n#endif\n"
    "__kernel void k(__global int *o) { o[0] = 1; }\n", "-cl-std=CL3.0");
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

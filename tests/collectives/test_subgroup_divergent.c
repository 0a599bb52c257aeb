/* Sub-group functions in divergent control flow, against a C reference:
 * the non-uniform functions (cl_khr_subgroup_non_uniform_arithmetic,
 * _non_uniform_vote, _ballot) fold only the work-items that are active,
 * for every type and op (half included), under several patterns (every
 * third work-item, a prefix and a suffix of each sub-group, whole
 * sub-groups, nested ifs, an early return) and sub-group sizes
 * (intel_reqd_sub_group_size 4, 8, 16 and the default), also under a
 * branch inside a loop every work-item runs as often, and in loops whose
 * trip count differs between work-items (bounds from the lane, a per
 * work-item count, break, continue, the loop in a divergent branch, a loop
 * in such a loop), where each trip folds the work-items still in the loop
 * that reach the function; uniform functions and sub_group_barrier in a
 * loop whose trip count is the same in a sub-group only; sub_group_barrier
 * under a branch that is the same in a sub-group but not in the group; and
 * a non-uniform function the compiler cannot lower (in such a loop with a
 * work-group barrier) is a build error. */
#include "tests/collectives/subgroups.h"

#include <string.h>

/* ---- types ---- */

typedef struct {
  const char *name;
  size_t size;
  int isfloat, issigned;
} nty;
static const nty ntys[] = {{"char", 1, 0, 1}, {"uchar", 1, 0, 0}, {"short", 2, 0, 1}, {"ushort", 2, 0, 0},
                           {"int", 4, 0, 1},  {"uint", 4, 0, 0},  {"long", 8, 0, 1},  {"ulong", 8, 0, 0},
                           {"float", 4, 1, 1}, {"double", 8, 1, 1}, {"half", 2, 1, 1}};
#define NNTY (sizeof(ntys) / sizeof(ntys[0]))

static const char *const nops[] = {"add", "min", "max", "mul", "and", "or", "xor", "logical_and", "logical_or",
                                   "logical_xor"};
static const char *const nkinds[] = {"reduce", "scan_inclusive", "scan_exclusive"};
/* ops of a type: floats add, min, max, mul; integers all ten */
static int nop_count(const nty *t)
{
  return t->isfloat ? 4 : !strcmp(t->name, "int") ? 10 : 7; /* the logical ones: int only */
}
/* The functions a kernel of type t has: every kind and op in a program
 * built with -cl-opt-disable (cheap to build), a few in an optimized one
 * (each sub-group function is a boundary of the work-group function, and
 * each boundary a vectorized lane loop to build). */
static int fn_tested(int full, int kind, int op)
{
  static const unsigned char few[3][10] = {{1, 0, 1, 0, 0, 0, 1, 0, 0, 1}, {1, 1, 0, 0, 0, 0, 0, 1, 0, 0},
                                           {0, 0, 1, 1, 0, 1, 0, 0, 0, 0}};
  return full || few[kind][op];
}

/* outputs of type T per work-item: 3 kinds x ops (all of them, the
 * untested ones left 0), broadcast_first, non_uniform_broadcast */
static int nouts(const nty *t)
{
  return 3 * nop_count(t) + 2;
}

/* An integer value normalized to its type (sign- or zero-extended) in 64 bits. */
static uint64_t norm(uint64_t v, const nty *t)
{
  switch (t->size) {
  case 1: return t->issigned ? (uint64_t)(int64_t)(int8_t)v : (uint8_t)v;
  case 2: return t->issigned ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
  case 4: return t->issigned ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
  default: return v;
  }
}

static uint64_t iget(const void *b, size_t i, const nty *t)
{
  uint64_t v = 0;
  memcpy(&v, (const char *)b + i * t->size, t->size);
  return norm(v, t);
}

/* half <-> double, for the values these tests use (exact in half) */
static double h2d(uint16_t h)
{
  int e = h >> 10 & 31, m = h & 1023;
  double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
  return h & 0x8000 ? -v : v;
}

static uint16_t d2h(double v)
{
  uint16_t s = signbit(v) ? 0x8000 : 0;
  v = fabs(v);
  if (v == 0)
    return s;
  if (v >= 65520.0)
    return s | 0x7c00;
  int e;
  double m = frexp(v, &e); /* v = m * 2^e, m in [0.5, 1) */
  if (e - 1 + 15 <= 0)
    return s | (uint16_t)lround(ldexp(v, 24));
  return s | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)lround((m * 2 - 1) * 1024);
}

static double fget(const void *b, size_t i, const nty *t)
{
  return t->size == 2 ? h2d(((const uint16_t *)b)[i]) : t->size == 4 ? ((const float *)b)[i] : ((const double *)b)[i];
}

static int sless(uint64_t a, uint64_t b, const nty *t)
{
  return t->issigned ? (int64_t)a < (int64_t)b : a < b;
}

static uint64_t iop(int op, uint64_t a, uint64_t b, const nty *t)
{
  switch (op) {
  case 0: return norm(a + b, t);
  case 1: return sless(a, b, t) ? a : b;
  case 2: return sless(a, b, t) ? b : a;
  case 3: return norm(a * b, t);
  case 4: return a & b;
  case 5: return a | b;
  case 6: return a ^ b;
  case 7: return a && b;
  case 8: return a || b;
  default: return !a != !b;
  }
}

static uint64_t iident(int op, const nty *t)
{
  uint64_t ones = norm(~0ull, t);
  uint64_t smax = t->size == 8 ? (uint64_t)INT64_MAX : (1ull << (8 * t->size - 1)) - 1;
  switch (op) {
  case 1: return t->issigned ? smax : ones;
  case 2: return t->issigned ? norm(smax + 1, t) : 0;
  case 3: case 7: return 1;
  case 4: return ones;
  default: return 0;
  }
}

static double fop(int op, double a, double b)
{
  switch (op) {
  case 0: return a + b;
  case 1: return a < b ? a : b;
  case 2: return a > b ? a : b;
  default: return a * b;
  }
}

static double fident(int op)
{
  switch (op) {
  case 0: return 0.0;
  case 1: return INFINITY;
  case 2: return -INFINITY;
  default: return 1.0;
  }
}

/* ---- the patterns: which work-items are active ---- */

enum { P_MOD3, P_PREFIX, P_SUFFIX, P_SUBGROUP, P_NESTED, P_ALL, P_RETURN, P_N };
static const char *const pnames[] = {"lid%3", "prefix", "suffix", "per-sub-group", "nested", "all", "return"};

/* The same conditions in OpenCL C (c1 the outer if, c2 the inner one; the
 * early return leaves where c1 is false). */
static const char *pattern_src =
    "#define C1(p, lid, l, sg) ((p) == 4 ? ((lid) & 1) == 0 : (p) == 6 ? (lid) % 5 != 2 : 1)\n"
    "#define C2(p, lid, l, sg) ((p) == 0 ? (lid) % 3 == 0 : (p) == 1 ? (l) < 3 : (p) == 2 ? (l) >= 5 : \\\n"
    "                           (p) == 3 ? ((sg) & 1) == 0 : (p) == 4 ? (l) < 6 : 1)\n";

static int active(int p, size_t lid, size_t l, size_t sg)
{
  int c1 = p == P_NESTED ? (lid & 1) == 0 : p == P_RETURN ? lid % 5 != 2 : 1;
  int c2 = p == P_MOD3 ? lid % 3 == 0 : p == P_PREFIX ? l < 3 : p == P_SUFFIX ? l >= 5 : p == P_SUBGROUP ? (sg & 1) == 0
         : p == P_NESTED ? l < 6 : 1;
  return c1 && c2;
}

static void local_ids(const geom *G, const size_t gid[3], size_t lid[3])
{
  for (int d = 0; d < 3; d++)
    lid[d] = d < (int)G->dim ? gid[d] % G->local[d] : 0;
}

/* ---- sources ---- */

static size_t emit_arith(char *s, size_t cap, const nty *t, int full)
{
  size_t n = 0;
  int no = nouts(t);
  n += (size_t)snprintf(s + n, cap - n,
                        "ATTR kernel void nu_%s(global const %s *a, global %s *o, global int *oi, int p) {\n"
                        "  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
                        "  size_t lid = get_local_id(0); uint l = get_sub_group_local_id(), sg = get_sub_group_id();\n"
                        "  %s x = a[i];\n  oi[2 * i] = 0;\n"
                        "  if (!C1(p, lid, l, sg)) { oi[2 * i] = 3; if (p == 6) return; }\n"
                        "  else {\n  %s y = x + (%s)1;\n  if (C2(p, lid, l, sg)) {\n",
                        t->name, t->name, t->name, t->name, t->name, t->name);
  int k = 0;
  for (int kind = 0; kind < 3; kind++)
    for (int op = 0; op < nop_count(t); op++, k++)
      if (fn_tested(full, kind, op))
        n += (size_t)snprintf(s + n, cap - n, "    o[%d * i + %d] = sub_group_non_uniform_%s_%s(x);\n", no, k,
                              nkinds[kind], nops[op]);
  n += (size_t)snprintf(s + n, cap - n,
                        "    o[%d * i + %d] = sub_group_broadcast_first(x);\n"
                        "    uint first = sub_group_ballot_find_lsb(sub_group_ballot(1));\n"
                        "    o[%d * i + %d] = sub_group_non_uniform_broadcast(x, first);\n"
                        "    oi[2 * i + 1] = sub_group_non_uniform_all_equal(x) | "
                        "sub_group_non_uniform_all_equal((%s)(y - x)) << 1;\n"
                        "    oi[2 * i] = 1 + (y == (%s)(x + (%s)1));\n"
                        "  } else {\n    oi[2 * i] = 4;\n  }\n  }\n}\n",
                        no, k, no, k + 1, t->name, t->name, t->name);
  return n;
}

/* elect, all, any, ballot and its bit functions, the masks: ints */
#define NV 16
/* the vote functions of x into r[1..15] */
#define VOTE_BODY \
    "    r[1] = sub_group_elect();\n" \
    "    r[2] = sub_group_non_uniform_all(x & 1);\n" \
    "    r[3] = sub_group_non_uniform_any(x & 1);\n" \
    "    uint4 b = sub_group_ballot(x & 1);\n" \
    "    r[4] = b.x; r[5] = b.y | b.z | b.w;\n" \
    "    uint4 v = (uint4)(x * 2654435761u, x, x ^ 0x5555u, 0);\n" \
    "    r[6] = sub_group_inverse_ballot(v);\n" \
    "    r[7] = sub_group_ballot_bit_extract(v, (x >> 3) % 40u);\n" \
    "    r[8] = sub_group_ballot_bit_count(v);\n" \
    "    r[9] = sub_group_ballot_inclusive_scan(v);\n" \
    "    r[10] = sub_group_ballot_exclusive_scan(v);\n" \
    "    r[11] = sub_group_ballot_find_lsb(v | 1u);\n" \
    "    r[12] = sub_group_ballot_find_msb(v | 1u);\n" \
    "    r[13] = get_sub_group_eq_mask().x ^ get_sub_group_lt_mask().x << 1;\n" \
    "    r[14] = get_sub_group_ge_mask().x;\n" \
    "    r[15] = get_sub_group_gt_mask().x ^ get_sub_group_le_mask().x * 3u;\n"
static const char *vote_src =
    "ATTR kernel void vote(global const uint *a, global uint *o, int p) {\n"
    "  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
    "  size_t lid = get_local_id(0); uint l = get_sub_group_local_id(), sg = get_sub_group_id();\n"
    "  uint x = a[i];\n  global uint *r = o + 16 * i;\n  r[0] = 0;\n"
    "  if (!C1(p, lid, l, sg)) { r[0] = 3; if (p == 6) return; }\n"
    "  else if (C2(p, lid, l, sg)) {\n"
    "    r[0] = 1;\n"
    VOTE_BODY
    "  } else {\n    r[0] = 4;\n  }\n}\n";

/* Non-uniform functions under a branch in a loop that every work-item runs
 * as many times (the branch's region is inside one iteration). */
static const char *loop_src =
    "ATTR kernel void loopy(global const int *a, global int *o, int p) {\n"
    "  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
    "  size_t lid = get_local_id(0); uint l = get_sub_group_local_id(), sg = get_sub_group_id();\n"
    "  int x = a[i], s = 0;\n"
    "  for (int j = 0; j < 3; j++) {\n"
    "    if (C1(p, lid, l, sg) && C2(p, lid, l, sg))\n"
    "      s += sub_group_non_uniform_reduce_add(x + j) * 4 + sub_group_elect();\n"
    "    s += j;\n"
    "  }\n"
    "  o[i] = s;\n}\n";

/* sub_group_barrier under a branch the same in a sub-group: each active
 * sub-group reverses its operands through __local memory */
static const char *sbar_src =
    "ATTR kernel void sbar(global const int *a, global int *o) {\n"
    "  local int tmp[256];\n"
    "  size_t i = get_global_id(0);\n"
    "  uint l = get_sub_group_local_id(), n = get_sub_group_size(), s0 = get_local_id(0) - l;\n"
    "  if ((get_sub_group_id() & 1) == 0) {\n"
    "    tmp[s0 + l] = a[i];\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int v = tmp[s0 + n - 1 - l];\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);\n"
    "    tmp[s0 + l] = v * 2;\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    o[i] = tmp[s0 + (l + 1) % n];\n"
    "  } else {\n"
    "    o[i] = -a[i];\n"
    "  }\n}\n";

/* ---- the checks ---- */

static geom test_shapes[4];
static int nshapes(size_t S)
{
  test_shapes[0] = (geom){1, {S * 6 + 9, 1, 1}, {3 * S + 3, 1, 1}}; /* partial sub-groups, a smaller last group */
  test_shapes[1] = (geom){1, {128, 1, 1}, {64, 1, 1}};
  test_shapes[2] = (geom){2, {(S + 3) * 2, 4, 1}, {S + 3, 2, 1}};
  test_shapes[3] = (geom){1, {7, 1, 1}, {7, 1, 1}};
  return 4;
}

static void fill(void *b, size_t n, const nty *t)
{
  /* floats: powers of two and small sums, so that every fold is exact in
   * every order; integers: random bits, some lanes equal */
  for (size_t i = 0; i < n; i++) {
    uint64_t r = rnd();
    if (t->isfloat) {
      static const double fv[] = {-2.0, -1.0, -0.5, 0.5, 1.0, 2.0, 4.0, -4.0};
      /* half: the products of a sub-group's operands stay in its range
       * (but for sixteen 2s in one sub-group) */
      static const double hv[] = {-1.0, -0.5, 0.5, 1.0, 2.0, -2.0, 1.0, -1.0};
      double v = t->size == 2 ? hv[r % 8] : fv[r % 8];
      if (t->size == 2)
        ((uint16_t *)b)[i] = d2h(v);
      else if (t->size == 4)
        ((float *)b)[i] = (float)v;
      else
        ((double *)b)[i] = v;
    } else {
      if (r % 4 == 0)
        r = 7;
      memcpy((char *)b + i * t->size, &r, t->size);
    }
  }
}

/* The lanes of work-item i's sub-group (global indices) and which are active. */
typedef struct {
  sg_pos ps;
  size_t item[64];
  int act[64];
} sg_lanes;

static void lanes_of(const geom *G, size_t i, size_t S, int p, sg_lanes *L)
{
  size_t gid[3];
  gid_of(G, i, gid);
  L->ps = position(G, gid, S);
  for (size_t l = 0; l < L->ps.sg_size; l++) {
    size_t g = global_of_local(G, gid, L->ps.first + l), gg[3], lid[3];
    gid_of(G, g, gg);
    local_ids(G, gg, lid);
    sg_pos q = position(G, gg, S);
    L->item[l] = g;
    L->act[l] = active(p, lid[0], q.sg_lid, q.sg_id);
  }
}

static void check_arith(cl_context ctx, cl_command_queue q, cl_program prog, size_t S, size_t reqd, int full,
                        const nty *t)
{
  char name[32];
  snprintf(name, sizeof(name), "nu_%s", t->name);
  cl_int err;
  cl_kernel k = clCreateKernel(prog, name, &err);
  ASSERT_OK(err);
  ASSERT_EQ(sub_group_size(k), S);
  int no = nouts(t);
  size_t maxn = 512;
  void *in = malloc(maxn * t->size), *out = malloc(maxn * t->size * no);
  int *oi = malloc(maxn * 2 * sizeof(int));
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * t->size, NULL, &err);
  ASSERT_OK(err);
  cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * t->size * no, NULL, &err);
  ASSERT_OK(err);
  cl_mem ob = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * 2 * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  int ns = nshapes(S);
  for (int s = 0; s < ns; s++)
    for (int p = 0; p < P_N; p++) {
      const geom *G = &test_shapes[s];
      size_t n = total(G);
      ASSERT_TRUE(n <= maxn);
      fill(in, n, t);
      ASSERT_OK(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n * t->size, in, 0, NULL, NULL));
      ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
      ASSERT_OK(clSetKernelArg(k, 1, sizeof(o), &o));
      ASSERT_OK(clSetKernelArg(k, 2, sizeof(ob), &ob));
      ASSERT_OK(clSetKernelArg(k, 3, sizeof(int), &p));
      ASSERT_OK(clEnqueueNDRangeKernel(q, k, G->dim, NULL, G->global, G->local, 0, NULL, NULL));
      ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * t->size * no, out, 0, NULL, NULL));
      ASSERT_OK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, n * 2 * sizeof(int), oi, 0, NULL, NULL));
      for (size_t i = 0; i < n; i++) {
        sg_lanes L;
        lanes_of(G, i, S, p, &L);
        size_t me = L.ps.sg_lid;
        size_t gid[3], lid[3];
        gid_of(G, i, gid);
        local_ids(G, gid, lid);
        int c1 = p == P_NESTED ? (lid[0] & 1) == 0 : p == P_RETURN ? lid[0] % 5 != 2 : 1;
        int flag = !c1 ? 3 : L.act[me] ? 2 : 4;
        if (oi[2 * i] != flag)
          tl_fail(__FILE__, __LINE__, "%s size %zu shape %d pattern %s item %zu: path flag %d, want %d", name, reqd,
                  s, pnames[p], i, oi[2 * i], flag);
        if (!L.act[me])
          continue;
        size_t first = 0;
        while (!L.act[first])
          first++;
        int kx = 0;
        for (int kind = 0; kind < 3; kind++)
          for (int op = 0; op < nop_count(t); op++, kx++) {
            if (!fn_tested(full, kind, op))
              continue;
            int ok;
            double gf = 0, wf = 0;
            uint64_t gi = 0, wi = 0;
            if (t->isfloat) {
              double acc = fident(op);
              for (size_t l = 0; l < L.ps.sg_size; l++) {
                if (!L.act[l] || (kind == 1 && l > me) || (kind == 2 && l >= me))
                  continue;
                acc = fop(op, acc, fget(in, L.item[l], t));
              }
              wf = acc;
              gf = fget(out, (size_t)no * i + kx, t);
              ok = gf == wf;
            } else {
              uint64_t acc = iident(op, t);
              for (size_t l = 0; l < L.ps.sg_size; l++) {
                if (!L.act[l] || (kind == 1 && l > me) || (kind == 2 && l >= me))
                  continue;
                acc = iop(op, acc, iget(in, L.item[l], t), t);
              }
              wi = acc;
              gi = iget(out, (size_t)no * i + kx, t);
              ok = gi == wi;
            }
            if (!ok)
              tl_fail(__FILE__, __LINE__,
                      "sub_group_non_uniform_%s_%s(%s) size %zu shape %d pattern %s item %zu (lane %zu of %zu): got "
                      "%g / %llu, want %g / %llu%s",
                      nkinds[kind], nops[op], t->name, reqd, s, pnames[p], i, me, L.ps.sg_size, gf,
                      (unsigned long long)gi, wf, (unsigned long long)wi, full ? " (-cl-opt-disable)" : "");
          }
        for (int b = 0; b < 2; b++) {
          int ok = t->isfloat ? fget(out, (size_t)no * i + kx + b, t) == fget(in, L.item[first], t)
                              : iget(out, (size_t)no * i + kx + b, t) == iget(in, L.item[first], t);
          if (!ok)
            tl_fail(__FILE__, __LINE__, "%s(%s) size %zu shape %d pattern %s item %zu: not the first active lane's",
                    b ? "sub_group_non_uniform_broadcast" : "sub_group_broadcast_first", t->name, reqd, s, pnames[p],
                    i);
        }
        int eq = 1;
        for (size_t l = 0; l < L.ps.sg_size; l++)
          if (L.act[l])
            eq &= t->isfloat ? fget(in, L.item[l], t) == fget(in, L.item[first], t)
                             : iget(in, L.item[l], t) == iget(in, L.item[first], t);
        if (oi[2 * i + 1] != (eq | 2))
          tl_fail(__FILE__, __LINE__, "sub_group_non_uniform_all_equal(%s) size %zu shape %d pattern %s item %zu: "
                  "got %d, want %d", t->name, reqd, s, pnames[p], i, oi[2 * i + 1], eq | 2);
      }
    }
  free(in);
  free(out);
  free(oi);
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseMemObject(ob);
  clReleaseKernel(k);
}

static uint32_t lowbits(size_t n)
{
  return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* What the vote functions give lane me of a sub-group of n lanes whose
 * operands are xs[] and active lanes act[] (maxs: get_max_sub_group_size). */
static void vote_want(const uint32_t *xs, const int *act, size_t n, size_t me, size_t maxs, uint32_t want[NV])
{
  size_t first = 0;
  while (!act[first])
    first++;
  uint32_t all = 1, any = 0, ballot = 0;
  for (size_t l = 0; l < n; l++)
    if (act[l]) {
      all &= xs[l] & 1;
      any |= xs[l] & 1;
      ballot |= (xs[l] & 1) << l;
    }
  uint32_t x = xs[me];
  uint32_t v[4] = {x * 2654435761u, x, x ^ 0x5555u, 0};
  uint32_t bi = (x >> 3) % 40u;
  uint32_t w[NV] = {1,
                    me == first,
                    all,
                    any,
                    ballot,
                    0,
                    v[0] >> me & 1,
                    v[bi / 32] >> (bi % 32) & 1,
                    (uint32_t)__builtin_popcount(v[0] & lowbits(maxs)),
                    (uint32_t)__builtin_popcount(v[0] & lowbits(me + 1)),
                    (uint32_t)__builtin_popcount(v[0] & lowbits(me)),
                    (uint32_t)__builtin_ctz((v[0] | 1u) & lowbits(maxs)),
                    31u - (uint32_t)__builtin_clz((v[0] | 1u) & lowbits(maxs)),
                    (1u << me) ^ lowbits(me) << 1,
                    lowbits(maxs) & ~lowbits(me),
                    (lowbits(maxs) & ~lowbits(me + 1)) ^ lowbits(me + 1) * 3u};
  memcpy(want, w, sizeof(w));
}

static const char *const vote_what[NV] = {"path", "elect", "all", "any", "ballot", "ballot.yzw", "inverse_ballot",
                                          "bit_extract", "bit_count", "inclusive_scan", "exclusive_scan",
                                          "find_lsb", "find_msb", "eq/lt mask", "ge mask", "gt/le mask"};

static void check_vote(cl_context ctx, cl_command_queue q, cl_program prog, size_t S, size_t reqd)
{
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "vote", &err);
  ASSERT_OK(err);
  ASSERT_EQ(sub_group_size(k), S);
  size_t maxn = 512;
  uint32_t *in = malloc(maxn * 4), *out = malloc(maxn * 4 * NV);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * 4, NULL, &err);
  ASSERT_OK(err);
  cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * 4 * NV, NULL, &err);
  ASSERT_OK(err);
  int ns = nshapes(S);
  for (int s = 0; s < ns; s++)
    for (int p = 0; p < P_N; p++) {
      const geom *G = &test_shapes[s];
      size_t n = total(G);
      for (size_t i = 0; i < n; i++)
        in[i] = (uint32_t)rnd();
      if (p == P_ALL) /* all set: sub_group_non_uniform_all true somewhere */
        for (size_t i = 0; i < n; i++)
          in[i] |= 1;
      ASSERT_OK(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n * 4, in, 0, NULL, NULL));
      ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
      ASSERT_OK(clSetKernelArg(k, 1, sizeof(o), &o));
      ASSERT_OK(clSetKernelArg(k, 2, sizeof(int), &p));
      ASSERT_OK(clEnqueueNDRangeKernel(q, k, G->dim, NULL, G->global, G->local, 0, NULL, NULL));
      ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * 4 * NV, out, 0, NULL, NULL));
      for (size_t i = 0; i < n; i++) {
        sg_lanes L;
        lanes_of(G, i, S, p, &L);
        size_t me = L.ps.sg_lid;
        const uint32_t *r = out + NV * i;
        if (!L.act[me]) {
          if (r[0] == 1)
            tl_fail(__FILE__, __LINE__, "vote size %zu shape %d pattern %s item %zu: ran while inactive", reqd, s,
                    pnames[p], i);
          continue;
        }
        uint32_t xs[64], want[NV];
        for (size_t l = 0; l < L.ps.sg_size; l++)
          xs[l] = in[L.item[l]];
        vote_want(xs, L.act, L.ps.sg_size, me, G->local[0] < S ? G->local[0] : S, want);
        for (int j = 0; j < NV; j++)
          if ((j == 2 || j == 3) ? !r[j] != !want[j] : r[j] != want[j])
            tl_fail(__FILE__, __LINE__, "%s size %zu shape %d pattern %s item %zu (lane %zu of %zu): got %#x, want %#x",
                    vote_what[j], reqd, s, pnames[p], i, me, L.ps.sg_size, r[j], want[j]);
      }
    }
  free(in);
  free(out);
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}

static void check_loop(cl_context ctx, cl_command_queue q, cl_program prog, size_t S, size_t reqd)
{
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "loopy", &err);
  ASSERT_OK(err);
  size_t maxn = 512;
  int *in = malloc(maxn * sizeof(int)), *out = malloc(maxn * sizeof(int));
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  int ns = nshapes(S);
  for (int s = 0; s < ns; s++)
    for (int p = 0; p < P_N; p++) {
      const geom *G = &test_shapes[s];
      size_t n = total(G);
      for (size_t i = 0; i < n; i++)
        in[i] = (int)(rnd() % 100);
      ASSERT_OK(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n * sizeof(int), in, 0, NULL, NULL));
      ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
      ASSERT_OK(clSetKernelArg(k, 1, sizeof(o), &o));
      ASSERT_OK(clSetKernelArg(k, 2, sizeof(int), &p));
      ASSERT_OK(clEnqueueNDRangeKernel(q, k, G->dim, NULL, G->global, G->local, 0, NULL, NULL));
      ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL));
      for (size_t i = 0; i < n; i++) {
        sg_lanes L;
        lanes_of(G, i, S, p, &L);
        size_t me = L.ps.sg_lid, first = 0;
        int want = 3;
        if (L.act[me]) {
          while (!L.act[first])
            first++;
          for (int j = 0; j < 3; j++) {
            int sum = 0;
            for (size_t l = 0; l < L.ps.sg_size; l++)
              if (L.act[l])
                sum += in[L.item[l]] + j;
            want += sum * 4 + (me == first);
          }
        }
        if (out[i] != want)
          tl_fail(__FILE__, __LINE__, "loop size %zu shape %d pattern %s item %zu: got %d want %d", reqd, s,
                  pnames[p], i, out[i], want);
      }
    }
  free(in);
  free(out);
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
}

static void check_barrier(cl_context ctx, cl_command_queue q, cl_program prog, size_t S, size_t reqd)
{
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "sbar", &err);
  ASSERT_OK(err);
  size_t locals[] = {S, 3 * S + 2, 64, 5};
  for (size_t li = 0; li < 4; li++) {
    size_t Lx = locals[li], n = 3 * Lx;
    int *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++)
      in[i] = (int)(rnd() % 1000);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), in, &err);
    ASSERT_OK(err);
    cl_mem o = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(o), &o));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &Lx, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL));
    geom G = {1, {n, 1, 1}, {Lx, 1, 1}};
    for (size_t i = 0; i < n; i++) {
      size_t gid[3] = {i, 0, 0};
      sg_pos ps = position(&G, gid, S);
      int want;
      if (ps.sg_id & 1) {
        want = -in[i];
      } else {
        size_t l2 = (ps.sg_lid + 1) % ps.sg_size; /* reads lane l2's v: lane (size-1-l2)'s operand */
        want = 2 * in[global_of_local(&G, gid, ps.first + ps.sg_size - 1 - l2)];
      }
      if (out[i] != want)
        tl_fail(__FILE__, __LINE__, "sub_group_barrier size %zu local %zu item %zu: got %d want %d", reqd, Lx, i,
                out[i], want);
    }
    free(in);
    free(out);
    clReleaseMemObject(a);
    clReleaseMemObject(o);
  }
  clReleaseKernel(k);
}

/* ---- loops whose trip count differs between the work-items ----
 *
 * Each trip of such a loop is one iteration for every work-item still in
 * it, and a non-uniform function folds the work-items that reach it in
 * that trip; a work-item that left waits for the others, then all go on
 * after the loop.  The patterns (the kernels' p): t from the sub-group
 * local id below 13 by 3 (for (t = lid; t < n; t += 8)), t below a
 * per-work-item count (0 to MAXT), a `break` at t == count, a `continue`
 * where (t + lid) % 3 == 1, and (the arithmetic kernels) the loop inside a
 * branch that differs between work-items. */
#define MAXT 6
enum { L_STRIDE, L_COUNT, L_BREAK, L_CONTINUE, L_BRANCH, L_N };
static const char *const lnames[] = {"t = l; t < 13; t += 3", "t < count", "break", "continue", "branch"};

static const char *loop_pattern_src =
    "#define MAXT 6\n"
    "#define LT0(p, l) ((p) == 0 ? (int)(l) : 0)\n"
    "#define LTS(p) ((p) == 0 ? 3 : 1)\n"
    "#define LTC(p, t, c) ((p) == 0 ? (t) < 13 : (p) == 2 ? (t) < 5 : (t) < (c))\n"
    "#define LBRK(p, t, c) ((p) == 2 && (t) == (c))\n"
    "#define LSKIP(p, t, lid) ((p) == 3 && ((t) + (int)(lid)) % 3 == 1)\n"
    "#define LGUARD(p, lid) ((p) != 4 || (lid) % 3 != 0)\n";

/* Whether the work-item (local id lid, sub-group local id l, count c) runs
 * the body of trip `it` (guarded: the loop is in the L_BRANCH branch). */
static int ltrip(int p, size_t lid, size_t l, int c, int it, int guarded)
{
  if (guarded && p == L_BRANCH && lid % 3 == 0)
    return 0;
  int t0 = p == L_STRIDE ? (int)l : 0, ts = p == L_STRIDE ? 3 : 1;
  for (int k = 0; k <= it; k++) {
    int t = t0 + k * ts;
    if (!(p == L_STRIDE ? t < 13 : p == L_BREAK ? t < 5 : t < c) || (p == L_BREAK && t == c))
      return 0;
  }
  return !(p == L_CONTINUE && (t0 + it * ts + (int)lid) % 3 == 1);
}

/* The trips it started: `it` after the loop. */
static int ltrips(int p, size_t l, int c)
{
  int t0 = p == L_STRIDE ? (int)l : 0, ts = p == L_STRIDE ? 3 : 1;
  for (int k = 0;; k++) {
    int t = t0 + k * ts;
    if (!(p == L_STRIDE ? t < 13 : p == L_BREAK ? t < 5 : t < c) || (p == L_BREAK && t == c))
      return k;
  }
}

/* Every non-uniform function of type t in a loop, trip `it`'s results in
 * o[(MAXT * i + it) * nouts ..], its path flag and all_equal in oi. */
static size_t emit_loop_arith(char *s, size_t cap, const nty *t, int full)
{
  size_t n = 0;
  int no = nouts(t);
  char y[64];
  if (t->isfloat)
    snprintf(y, sizeof(y), "(it & 1) ? -x : x");
  else
    snprintf(y, sizeof(y), "x + (%s)(it * 7)", t->name);
  n += (size_t)snprintf(s + n, cap - n,
                        "ATTR kernel void lp_%s(global const %s *a, global %s *o, global int *oi, global const int "
                        "*cnt, int p) {\n"
                        "  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
                        "  size_t lid = get_local_id(0); uint l = get_sub_group_local_id();\n"
                        "  %s x = a[i];\n  int c = cnt[i], it = 0;\n"
                        "  oi[(2 * MAXT + 1) * i + 2 * MAXT] = -1;\n"
                        "  if (LGUARD(p, lid)) {\n"
                        "    for (int t = LT0(p, l); LTC(p, t, c); t += LTS(p), it++) {\n"
                        "      if (LBRK(p, t, c)) break;\n"
                        "      if (LSKIP(p, t, lid)) continue;\n"
                        "      %s y = %s;\n"
                        "      global %s *r = o + (MAXT * i + it) * %d;\n"
                        "      global int *f = oi + (2 * MAXT + 1) * i + 2 * it;\n",
                        t->name, t->name, t->name, t->name, t->name,
                        y, t->name, no);
  int k = 0;
  for (int kind = 0; kind < 3; kind++)
    for (int op = 0; op < nop_count(t); op++, k++)
      if (fn_tested(full, kind, op))
        n += (size_t)snprintf(s + n, cap - n, "      r[%d] = sub_group_non_uniform_%s_%s(y);\n", k, nkinds[kind],
                              nops[op]);
  n += (size_t)snprintf(s + n, cap - n,
                        "      r[%d] = sub_group_broadcast_first(y);\n"
                        "      uint first = sub_group_ballot_find_lsb(sub_group_ballot(1));\n"
                        "      r[%d] = sub_group_non_uniform_broadcast(y, first);\n"
                        "      f[1] = sub_group_non_uniform_all_equal(y);\n"
                        "      f[0] = 1;\n"
                        "    }\n"
                        "    oi[(2 * MAXT + 1) * i + 2 * MAXT] = it;\n"
                        "  }\n}\n",
                        k, k + 1);
  return n;
}

/* The vote and ballot functions in a `while` loop, trip it's in
 * o[16 * (MAXT * i + it) ..]. */
static const char *loop_vote_src =
    "ATTR kernel void lvote(global const uint *a, global uint *o, global const int *cnt, int p) {\n"
    "  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
    "  size_t lid = get_local_id(0); uint l = get_sub_group_local_id();\n"
    "  uint x0 = a[i];\n  int c = cnt[i], t = LT0(p, l), it = 0;\n"
    "  while (LTC(p, t, c)) {\n"
    "    if (LBRK(p, t, c)) break;\n"
    "    int k = it;\n    t += LTS(p);\n    it++;\n"
    "    if (LSKIP(p, t - LTS(p), lid)) continue;\n"
    "    uint x = x0 + (uint)k * 0x9e3779b9u;\n"
    "    global uint *r = o + 16 * (MAXT * i + k);\n"
    "    r[0] = 1;\n"
    VOTE_BODY
    "  }\n}\n";

/* A loop in a loop in a branch, each trip count per work-item, a function
 * after the outer loop and a loop of one trip (its exit uniform) in the
 * branch: o[65 * i + 4 * (4 * u + v) ..] for trip v of the inner loop in
 * trip u of the outer one, o[65 * i + 64] the sum. */
static const char *loop_nest_src =
    "ATTR kernel void lnest(global const int *a, global int *o, global const int *cnt, int one) {\n"
    "  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
    "  size_t lid = get_local_id(0);\n"
    "  int x = a[i], c = cnt[i], s = 0;\n"
    "  if (lid % 4 != 1) {\n"
    "    for (int u = 0; u < (c & 3); u++) {\n"
    "      for (int v = 0; v < (c >> 2) + u - 1; v++) {\n"
    "        global int *r = o + 65 * i + 4 * (4 * u + v);\n"
    "        r[0] = 1;\n"
    "        r[1] = sub_group_non_uniform_reduce_add(x + v);\n"
    "        r[2] = sub_group_non_uniform_scan_inclusive_max(x - u * 3);\n"
    "        r[3] = sub_group_ballot(1).x;\n"
    "      }\n"
    "      s += sub_group_non_uniform_reduce_add(u + 1) * 1000;\n"
    "    }\n"
    "    s += sub_group_elect();\n"
    "    while (1) {\n"
    "      s += sub_group_non_uniform_reduce_add(2) * 100000;\n"
    "      if (one) break;\n"
    "    }\n"
    "  }\n"
    "  o[65 * i + 64] = s;\n}\n";

/* A do-while loop left three ways: `return`, `break` or its condition (e
 * = count % 7: break or return, by bit 3 of the count, at trip e < 5;
 * else after trip 4), and a function after it (the work-items that did not
 * return): o[8 * i + t] for trip t, o[8 * i + 6] the elect, o[8 * i + 7]
 * how it left. */
static const char *loop_exit_src =
    "ATTR kernel void lexit(global const int *a, global int *o, global const int *cnt) {\n"
    "  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
    "  int x = a[i], c = cnt[i], e = c % 7, t = 0;\n"
    "  do {\n"
    "    o[8 * i + t] = sub_group_non_uniform_reduce_add(x + t);\n"
    "    if (t == e && (c & 8)) { o[8 * i + 7] = 100 + t; return; }\n"
    "    if (t == e) break;\n"
    "    t++;\n"
    "  } while (t < 5);\n"
    "  o[8 * i + 6] = sub_group_elect();\n"
    "  o[8 * i + 7] = t;\n}\n";

/* Uniform functions and sub_group_barrier in a loop whose trip count is
 * the same in a sub-group but not in the group (each sub-group's first
 * work-item's count). */
static const char *loop_uniform_src =
    "ATTR kernel void lsgu(global const int *a, global int *o, global const int *cnt) {\n"
    "  local int tmp[256];\n"
    "  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
    "  uint l = get_sub_group_local_id(), n = get_sub_group_size();\n"
    "  size_t s0 = get_local_id(1) * get_local_size(0) + get_local_id(0) - l;\n"
    "  int x = a[i], s = 0, trips = cnt[i - l];\n"
    "  for (int t = 0; t < trips; t++) {\n"
    "    s += sub_group_reduce_add(x + t) + sub_group_scan_exclusive_max(x - t) * 3;\n"
    "    tmp[s0 + l] = x + t;\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    s += tmp[s0 + (l + 1) % n] * 7;\n"
    "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  o[i] = s;\n}\n";

/* The arithmetic kernels' types: int, uint, float, half (optimized: int, half). */
static int loop_type_tested(int full, const nty *t)
{
  return tl_sweep_type(t->name) && (!strcmp(t->name, "int") || !strcmp(t->name, "half") ||
                                    (full && (!strcmp(t->name, "uint") || !strcmp(t->name, "float"))));
}

/* Whether out[idx] is sub_group_non_uniform_<kind>_<op> for lane me of a
 * sub-group of n lanes, active act[], operands vi[] (integers) or vf[]. */
static int fold_ok(const nty *t, int kind, int op, const uint64_t *vi, const double *vf, const int *act, size_t n,
                   size_t me, const void *out, size_t idx, char *msg, size_t cap)
{
  if (t->isfloat) {
    double acc = fident(op);
    for (size_t l = 0; l < n; l++)
      if (act[l] && !(kind == 1 && l > me) && !(kind == 2 && l >= me))
        acc = fop(op, acc, vf[l]);
    double got = fget(out, idx, t);
    snprintf(msg, cap, "got %g, want %g", got, acc);
    return got == acc;
  }
  uint64_t acc = iident(op, t);
  for (size_t l = 0; l < n; l++)
    if (act[l] && !(kind == 1 && l > me) && !(kind == 2 && l >= me))
      acc = iop(op, acc, vi[l], t);
  uint64_t got = iget(out, idx, t);
  snprintf(msg, cap, "got %llu, want %llu", (unsigned long long)got, (unsigned long long)acc);
  return got == acc;
}

/* The local ids x of the lanes of work-item i's sub-group. */
static void lane_lids(const geom *G, const sg_lanes *L, size_t *lidv)
{
  for (size_t l = 0; l < L->ps.sg_size; l++) {
    size_t gg[3], lid[3];
    gid_of(G, L->item[l], gg);
    local_ids(G, gg, lid);
    lidv[l] = lid[0];
  }
}

static cl_mem zeroed(cl_context ctx, cl_command_queue q, size_t bytes)
{
  cl_int err, zero = 0;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clEnqueueFillBuffer(q, m, &zero, sizeof(zero), 0, bytes, 0, NULL, NULL));
  return m;
}

static cl_mem from_host(cl_context ctx, const void *p, size_t bytes)
{
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)p, &err);
  ASSERT_OK(err);
  return m;
}

/* Runs kernel k over G with buffers args[0..na) (then p when p >= 0) and
 * reads buffer rd into out. */
static void run_read(cl_command_queue q, cl_kernel k, const geom *G, cl_mem *args, int na, int p, cl_mem rd,
                     void *out, size_t bytes)
{
  for (int j = 0; j < na; j++)
    ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &args[j]));
  if (p >= 0)
    ASSERT_OK(clSetKernelArg(k, (cl_uint)na, sizeof(int), &p));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, G->dim, NULL, G->global, G->local, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, rd, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
}

static void check_loop_arith(cl_context ctx, cl_command_queue q, cl_program prog, size_t S, size_t reqd, int full,
                             const nty *t)
{
  char name[32];
  snprintf(name, sizeof(name), "lp_%s", t->name);
  cl_int err;
  cl_kernel k = clCreateKernel(prog, name, &err);
  ASSERT_OK(err);
  ASSERT_EQ(sub_group_size(k), S);
  int no = nouts(t);
  size_t maxn = 512, nf = 2 * MAXT + 1, obytes = maxn * MAXT * no * t->size;
  void *in = malloc(maxn * t->size), *out = malloc(obytes);
  int *oi = malloc(maxn * nf * sizeof(int)), *cnt = malloc(maxn * sizeof(int));
  int ns = nshapes(S);
  for (int s = 0; s < ns; s++)
    for (int p = 0; p < L_N; p++) {
      const geom *G = &test_shapes[s];
      size_t n = total(G);
      fill(in, n, t);
      for (size_t i = 0; i < n; i++)
        cnt[i] = (int)(rnd() % (MAXT + 1));
      cl_mem m[4] = {from_host(ctx, in, n * t->size), zeroed(ctx, q, obytes), zeroed(ctx, q, maxn * nf * sizeof(int)),
                     from_host(ctx, cnt, n * sizeof(int))};
      run_read(q, k, G, m, 4, p, m[1], out, n * MAXT * no * t->size);
      ASSERT_OK(clEnqueueReadBuffer(q, m[2], CL_TRUE, 0, n * nf * sizeof(int), oi, 0, NULL, NULL));
      for (size_t i = 0; i < n; i++) {
        sg_lanes L;
        size_t lidv[64];
        lanes_of(G, i, S, P_ALL, &L);
        lane_lids(G, &L, lidv);
        size_t me = L.ps.sg_lid, sn = L.ps.sg_size;
        int guard = !(p == L_BRANCH && lidv[me] % 3 == 0);
        int end = guard ? ltrips(p, me, cnt[i]) : -1;
        if (oi[nf * i + 2 * MAXT] != end)
          tl_fail(__FILE__, __LINE__, "%s size %zu shape %d loop %s item %zu: trips %d after the loop, want %d", name,
                  reqd, s, lnames[p], i, oi[nf * i + 2 * MAXT], end);
        for (int it = 0; it < MAXT; it++) {
          int act[64];
          uint64_t vi[64];
          double vf[64];
          for (size_t l = 0; l < sn; l++) {
            act[l] = ltrip(p, lidv[l], l, cnt[L.item[l]], it, 1);
            if (t->isfloat)
              vf[l] = (it & 1) ? -fget(in, L.item[l], t) : fget(in, L.item[l], t);
            else
              vi[l] = norm(iget(in, L.item[l], t) + (uint64_t)it * 7, t);
          }
          if (oi[nf * i + 2 * it] != act[me])
            tl_fail(__FILE__, __LINE__, "%s size %zu shape %d loop %s item %zu trip %d: ran %d, want %d", name, reqd,
                    s, lnames[p], i, it, oi[nf * i + 2 * it], act[me]);
          if (!act[me])
            continue;
          size_t first = 0;
          while (!act[first])
            first++;
          size_t base = ((size_t)MAXT * i + (size_t)it) * (size_t)no;
          int kx = 0;
          char msg[96];
          for (int kind = 0; kind < 3; kind++)
            for (int op = 0; op < nop_count(t); op++, kx++)
              if (fn_tested(full, kind, op) && !fold_ok(t, kind, op, vi, vf, act, sn, me, out, base + kx, msg,
                                                        sizeof(msg)))
                tl_fail(__FILE__, __LINE__,
                        "sub_group_non_uniform_%s_%s(%s) size %zu shape %d loop %s item %zu (lane %zu of %zu) trip "
                        "%d: %s%s",
                        nkinds[kind], nops[op], t->name, reqd, s, lnames[p], i, me, sn, it, msg,
                        full ? " (-cl-opt-disable)" : "");
          int eq = 1;
          for (size_t l = 0; l < sn; l++)
            if (act[l])
              eq &= t->isfloat ? vf[l] == vf[first] : vi[l] == vi[first];
          for (int b = 0; b < 2; b++) {
            int ok = t->isfloat ? fget(out, base + kx + b, t) == vf[first] : iget(out, base + kx + b, t) == vi[first];
            if (!ok)
              tl_fail(__FILE__, __LINE__, "%s(%s) size %zu shape %d loop %s item %zu trip %d: not the first active "
                      "lane's", b ? "sub_group_non_uniform_broadcast" : "sub_group_broadcast_first", t->name, reqd, s,
                      lnames[p], i, it);
          }
          if (!oi[nf * i + 2 * it + 1] != !eq)
            tl_fail(__FILE__, __LINE__, "sub_group_non_uniform_all_equal(%s) size %zu shape %d loop %s item %zu trip "
                    "%d: got %d, want %d", t->name, reqd, s, lnames[p], i, it, oi[nf * i + 2 * it + 1], eq);
        }
      }
      for (int j = 0; j < 4; j++)
        clReleaseMemObject(m[j]);
    }
  free(in);
  free(out);
  free(oi);
  free(cnt);
  clReleaseKernel(k);
}

static void check_loop_vote(cl_context ctx, cl_command_queue q, cl_program prog, size_t S, size_t reqd)
{
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "lvote", &err);
  ASSERT_OK(err);
  size_t maxn = 512, obytes = maxn * MAXT * NV * 4;
  uint32_t *in = malloc(maxn * 4), *out = malloc(obytes);
  int *cnt = malloc(maxn * sizeof(int));
  int ns = nshapes(S);
  for (int s = 0; s < ns; s++)
    for (int p = 0; p < L_BRANCH; p++) {
      const geom *G = &test_shapes[s];
      size_t n = total(G);
      for (size_t i = 0; i < n; i++) {
        in[i] = (uint32_t)rnd();
        cnt[i] = (int)(rnd() % (MAXT + 1));
      }
      cl_mem m[3] = {from_host(ctx, in, n * 4), zeroed(ctx, q, obytes), from_host(ctx, cnt, n * sizeof(int))};
      run_read(q, k, G, m, 3, p, m[1], out, n * MAXT * NV * 4);
      for (size_t i = 0; i < n; i++) {
        sg_lanes L;
        size_t lidv[64];
        lanes_of(G, i, S, P_ALL, &L);
        lane_lids(G, &L, lidv);
        size_t me = L.ps.sg_lid, sn = L.ps.sg_size;
        for (int it = 0; it < MAXT; it++) {
          int act[64];
          uint32_t xs[64], want[NV];
          for (size_t l = 0; l < sn; l++) {
            act[l] = ltrip(p, lidv[l], l, cnt[L.item[l]], it, 0);
            xs[l] = in[L.item[l]] + (uint32_t)it * 0x9e3779b9u;
          }
          const uint32_t *r = out + NV * (MAXT * i + (size_t)it);
          if (r[0] != (uint32_t)act[me])
            tl_fail(__FILE__, __LINE__, "loop vote size %zu shape %d loop %s item %zu trip %d: ran %u, want %d", reqd,
                    s, lnames[p], i, it, r[0], act[me]);
          if (!act[me])
            continue;
          vote_want(xs, act, sn, me, G->local[0] < S ? G->local[0] : S, want);
          for (int j = 1; j < NV; j++)
            if ((j == 2 || j == 3) ? !r[j] != !want[j] : r[j] != want[j])
              tl_fail(__FILE__, __LINE__,
                      "%s in a loop, size %zu shape %d loop %s item %zu (lane %zu of %zu) trip %d: got %#x, want %#x",
                      vote_what[j], reqd, s, lnames[p], i, me, sn, it, r[j], want[j]);
        }
      }
      for (int j = 0; j < 3; j++)
        clReleaseMemObject(m[j]);
    }
  free(in);
  free(out);
  free(cnt);
  clReleaseKernel(k);
}

static void check_loop_nest(cl_context ctx, cl_command_queue q, cl_program prog, size_t S, size_t reqd)
{
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "lnest", &err);
  ASSERT_OK(err);
  size_t maxn = 512, obytes = maxn * 65 * sizeof(int);
  int *in = malloc(maxn * sizeof(int)), *out = malloc(obytes), *cnt = malloc(maxn * sizeof(int));
  int ns = nshapes(S);
  for (int s = 0; s < ns; s++) {
    const geom *G = &test_shapes[s];
    size_t n = total(G);
    for (size_t i = 0; i < n; i++) {
      in[i] = (int)(rnd() % 1000) - 500;
      cnt[i] = (int)(rnd() % 16);
    }
    cl_mem m[3] = {from_host(ctx, in, n * sizeof(int)), zeroed(ctx, q, obytes), from_host(ctx, cnt, n * sizeof(int))};
    run_read(q, k, G, m, 3, 1, m[1], out, n * 65 * sizeof(int));
    for (size_t i = 0; i < n; i++) {
      sg_lanes L;
      size_t lidv[64];
      lanes_of(G, i, S, P_ALL, &L);
      lane_lids(G, &L, lidv);
      size_t me = L.ps.sg_lid, sn = L.ps.sg_size;
      int guard[64], c[64];
      for (size_t l = 0; l < sn; l++) {
        guard[l] = lidv[l] % 4 != 1;
        c[l] = cnt[L.item[l]];
      }
      uint32_t sum = 0;
      for (int u = 0; u < 3; u++) {
        for (int v = 0; v < 4; v++) {
          int act[64];
          uint32_t add = 0, ballot = 0;
          int mx = INT_MIN;
          for (size_t l = 0; l < sn; l++) {
            act[l] = guard[l] && u < (c[l] & 3) && v < (c[l] >> 2) + u - 1;
            if (act[l]) {
              add += (uint32_t)(in[L.item[l]] + v);
              ballot |= 1u << l;
              if (l <= me && in[L.item[l]] - u * 3 > mx)
                mx = in[L.item[l]] - u * 3;
            }
          }
          const int *r = out + 65 * i + 4 * (4 * u + v);
          int want[4] = {act[me], (int)add, mx, (int)ballot};
          for (int j = 0; j < (act[me] ? 4 : 1); j++)
            if (r[j] != want[j])
              tl_fail(__FILE__, __LINE__, "nested loops size %zu shape %d item %zu (lane %zu) trip %d.%d, value %d: "
                      "got %d, want %d", reqd, s, i, me, u, v, j, r[j], want[j]);
        }
        uint32_t outer = 0;
        for (size_t l = 0; l < sn; l++)
          outer += guard[l] && u < (c[l] & 3) ? (uint32_t)(u + 1) : 0;
        if (guard[me] && u < (c[me] & 3))
          sum += outer * 1000;
      }
      if (guard[me]) {
        size_t first = 0, ng = 0;
        while (!guard[first])
          first++;
        for (size_t l = 0; l < sn; l++)
          ng += guard[l];
        sum += (me == first) + 200000u * (uint32_t)ng;
      }
      if (out[65 * i + 64] != (int)sum)
        tl_fail(__FILE__, __LINE__, "nested loops size %zu shape %d item %zu: after the loops %d, want %d", reqd, s,
                i, out[65 * i + 64], (int)sum);
    }
    for (int j = 0; j < 3; j++)
      clReleaseMemObject(m[j]);
  }
  free(in);
  free(out);
  free(cnt);
  clReleaseKernel(k);
}

static void check_loop_exits(cl_context ctx, cl_command_queue q, cl_program prog, size_t S, size_t reqd)
{
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "lexit", &err);
  ASSERT_OK(err);
  size_t maxn = 512, obytes = maxn * 8 * sizeof(int);
  int *in = malloc(maxn * sizeof(int)), *out = malloc(obytes), *cnt = malloc(maxn * sizeof(int));
  int ns = nshapes(S);
  for (int s = 0; s < ns; s++) {
    const geom *G = &test_shapes[s];
    size_t n = total(G);
    for (size_t i = 0; i < n; i++) {
      in[i] = (int)(rnd() % 1000) - 500;
      cnt[i] = (int)(rnd() % 16);
    }
    cl_mem m[3] = {from_host(ctx, in, n * sizeof(int)), zeroed(ctx, q, obytes), from_host(ctx, cnt, n * sizeof(int))};
    run_read(q, k, G, m, 3, -1, m[1], out, n * 8 * sizeof(int));
    for (size_t i = 0; i < n; i++) {
      sg_lanes L;
      lanes_of(G, i, S, P_ALL, &L);
      size_t me = L.ps.sg_lid, sn = L.ps.sg_size;
      int last[64], ret[64];
      for (size_t l = 0; l < sn; l++) {
        int c = cnt[L.item[l]], e = c % 7;
        last[l] = e < 5 ? e : 4; /* its last trip */
        ret[l] = e < 5 && (c & 8);
      }
      for (int t = 0; t < 6; t++) {
        int want = 0;
        for (size_t l = 0; l < sn && t <= last[me]; l++)
          want += t <= last[l] ? in[L.item[l]] + t : 0;
        if (out[8 * i + t] != want)
          tl_fail(__FILE__, __LINE__, "loop exits size %zu shape %d item %zu (lane %zu of %zu) trip %d: got %d, want "
                  "%d", reqd, s, i, me, sn, t, out[8 * i + t], want);
      }
      size_t first = 0;
      while (first < sn && ret[first])
        first++;
      int e = cnt[i] % 7;
      int want6 = ret[me] ? 0 : me == first, want7 = ret[me] ? 100 + e : e < 5 ? e : 5;
      if (out[8 * i + 6] != want6 || out[8 * i + 7] != want7)
        tl_fail(__FILE__, __LINE__, "loop exits size %zu shape %d item %zu: after the loop %d %d, want %d %d", reqd, s,
                i, out[8 * i + 6], out[8 * i + 7], want6, want7);
    }
    for (int j = 0; j < 3; j++)
      clReleaseMemObject(m[j]);
  }
  free(in);
  free(out);
  free(cnt);
  clReleaseKernel(k);
}

static void check_loop_uniform(cl_context ctx, cl_command_queue q, cl_program prog, size_t S, size_t reqd)
{
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "lsgu", &err);
  ASSERT_OK(err);
  size_t maxn = 512;
  int *in = malloc(maxn * sizeof(int)), *out = malloc(maxn * sizeof(int)), *cnt = malloc(maxn * sizeof(int));
  int ns = nshapes(S);
  for (int s = 0; s < ns; s++) {
    const geom *G = &test_shapes[s];
    size_t n = total(G);
    for (size_t i = 0; i < n; i++) {
      in[i] = (int)(rnd() % 1000) - 500;
      cnt[i] = (int)(rnd() % 5);
    }
    cl_mem m[3] = {from_host(ctx, in, n * sizeof(int)), zeroed(ctx, q, maxn * sizeof(int)),
                   from_host(ctx, cnt, n * sizeof(int))};
    run_read(q, k, G, m, 3, -1, m[1], out, n * sizeof(int));
    for (size_t i = 0; i < n; i++) {
      sg_lanes L;
      lanes_of(G, i, S, P_ALL, &L);
      size_t me = L.ps.sg_lid, sn = L.ps.sg_size;
      int trips = cnt[L.item[0]];
      uint32_t want = 0;
      for (int t = 0; t < trips; t++) {
        uint32_t add = 0;
        int mx = INT_MIN;
        for (size_t l = 0; l < sn; l++) {
          add += (uint32_t)(in[L.item[l]] + t);
          if (l < me && in[L.item[l]] - t > mx)
            mx = in[L.item[l]] - t;
        }
        want += add + (uint32_t)mx * 3u + (uint32_t)(in[L.item[(me + 1) % sn]] + t) * 7u;
      }
      if (out[i] != (int)want)
        tl_fail(__FILE__, __LINE__, "uniform functions and sub_group_barrier in a loop of per-sub-group trips, size "
                "%zu shape %d item %zu (lane %zu of %zu, %d trips): got %d, want %d", reqd, s, i, me, sn, trips,
                out[i], (int)want);
    }
    for (int j = 0; j < 3; j++)
      clReleaseMemObject(m[j]);
  }
  free(in);
  free(out);
  free(cnt);
  clReleaseKernel(k);
}

/* The types whose arithmetic kernels a program of sub-group size reqd has:
 * with -cl-opt-disable (full), every one at the default size, int, uchar
 * and float at the others; optimized, int. */
static int type_tested(size_t reqd, int full, const nty *t)
{
  return tl_sweep_type(t->name) &&
         ((full && !reqd) || !strcmp(t->name, "int") ||
          (full && (!strcmp(t->name, "uchar") || !strcmp(t->name, "float") || !strcmp(t->name, "half"))));
}

static char *program_source(size_t reqd, int full)
{
  size_t cap = 256 * 1024, n = 0;
  char *s = malloc(cap);
  n += (size_t)snprintf(s + n, cap - n, "%s", pattern_src);
  if (reqd)
    n += (size_t)snprintf(s + n, cap - n, "#define ATTR __attribute__((intel_reqd_sub_group_size(%zu)))\n", reqd);
  else
    n += (size_t)snprintf(s + n, cap - n, "#define ATTR\n");
  n += (size_t)snprintf(s + n, cap - n, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n%s%s%s%s%s%s%s", vote_src, loop_src,
                        loop_pattern_src, loop_vote_src, loop_nest_src, loop_uniform_src, loop_exit_src);
  for (size_t t = 0; t < NNTY; t++)
    if (type_tested(reqd, full, &ntys[t]))
      n += emit_arith(s + n, cap - n, &ntys[t], full);
  for (size_t t = 0; t < NNTY; t++)
    if (loop_type_tested(full, &ntys[t]))
      n += emit_loop_arith(s + n, cap - n, &ntys[t], full);
  return s;
}

static void device_reports_extensions(void)
{
  char ext[8192] = "";
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL));
  ASSERT_TRUE(strstr(ext, "cl_khr_subgroup_ballot") != NULL);
  ASSERT_TRUE(strstr(ext, "cl_khr_subgroup_non_uniform_vote") != NULL);
  ASSERT_TRUE(strstr(ext, "cl_khr_subgroup_non_uniform_arithmetic") != NULL);
}

/* The sizes: the default, and 4, 8, 16 where the device lists them; one
 * program each, optimized or with -cl-opt-disable (the predication is the
 * same, before either). */
static void every_size(int full)
{
  device_reports_extensions();
  size_t sizes[16] = {0}, ns = 0, bytes = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof(sizes), sizes, &bytes));
  ns = bytes / sizeof(size_t);
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  size_t want[] = {0, 4, 8, 16};
  for (size_t w = 0; w < 4; w++) {
    int listed = !want[w];
    for (size_t i = 0; i < ns; i++)
      listed |= sizes[i] == want[w];
    if (!listed || (want[w] && want[w] == lane_width()) || (!full && want[w]))
      continue; /* (the default is the lane width) */
    char *src = program_source(want[w], full);
    cl_program p = tl_build(ctx, src, full ? CL_OPTS " -cl-opt-disable" : CL_OPTS);
    free(src);
    cl_int err;
    cl_kernel k0 = clCreateKernel(p, "vote", &err);
    ASSERT_OK(err);
    size_t S = sub_group_size(k0);
    clReleaseKernel(k0);
    ASSERT_TRUE(!want[w] || S == want[w]);
    check_vote(ctx, q, p, S, want[w]);
    check_loop(ctx, q, p, S, want[w]);
    check_loop_vote(ctx, q, p, S, want[w]);
    check_loop_nest(ctx, q, p, S, want[w]);
    check_loop_uniform(ctx, q, p, S, want[w]);
    check_loop_exits(ctx, q, p, S, want[w]);
    for (size_t t = 0; t < NNTY; t++)
      if (loop_type_tested(full, &ntys[t]))
        check_loop_arith(ctx, q, p, S, want[w], full, &ntys[t]);
    for (size_t t = 0; t < NNTY; t++)
      if (type_tested(want[w], full, &ntys[t]))
        check_arith(ctx, q, p, S, want[w], full, &ntys[t]);
    clReleaseProgram(p);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(divergent_sub_group_barrier)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  for (size_t reqd = 0; reqd <= 4; reqd += 4) {
    char src[2048];
    snprintf(src, sizeof(src), "#define ATTR %s\n%s",
             reqd ? "__attribute__((intel_reqd_sub_group_size(4)))" : "", sbar_src);
    cl_program p = tl_build(ctx, src, CL_OPTS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "sbar", &err);
    ASSERT_OK(err);
    size_t S = sub_group_size(k);
    clReleaseKernel(k);
    ASSERT_TRUE(!reqd || S == reqd);
    check_barrier(ctx, q, p, S, reqd);
    clReleaseProgram(p);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(divergent_sub_group_functions_optimized)
{
  every_size(0);
}

TEST(divergent_sub_group_functions_every_type_opt_disable)
{
  every_size(1);
}

/* A non-uniform function in a loop whose trip count differs between the
 * work-items and that also holds a work-group barrier (every work-item of
 * the group must reach it as often, so the loop can't run while any
 * work-item is in it): a build error that says so, never a wrong answer. */
TEST(non_uniform_function_in_divergent_loop_with_barrier_is_a_build_error)
{
  const char *src = "kernel void k(global const int *a, global int *o) {\n"
                    "  int s = 0;\n"
                    "  for (int j = 0; j < a[get_global_id(0)]; j++) {\n"
                    "    s += sub_group_non_uniform_reduce_add(j);\n"
                    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "  }\n"
                    "  o[get_global_id(0)] = s;\n}\n";
  cl_context ctx = tl_context();
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ASSERT_OK(err);
  ASSERT_CL(clBuildProgram(p, 0, NULL, CL_OPTS, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  char log[4096] = "";
  ASSERT_OK(clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL));
  ASSERT_TRUE(strstr(log, "sub_group_non_uniform_reduce_add") != NULL);
  ASSERT_TRUE(strstr(log, "loop") != NULL);
  ASSERT_TRUE(strstr(log, "barrier") != NULL);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* (helpers of subgroups.h this file does not use) */
static void __attribute__((unused)) unused_helpers(void)
{
  geom g[32];
  (void)ids_src;
  (void)shapes(8, g);
}

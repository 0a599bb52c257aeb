/* The khr sub-group extensions (cl_khr_subgroup_shuffle, _shuffle_relative,
 * _rotate, _clustered_reduce, _extended_types), cl_intel_required_subgroup_size
 * and sub_group_barrier, against a C reference; the sub-group size is asked
 * of the runtime (tests/collectives/subgroups.h). */
#include "tests/collectives/subgroups.h"

/* ---- the khr sub-group extensions ---- */

/* Element types of the extension tests, values carried as int64 (integers)
 * or double (floats). */
typedef struct {
  const char *name;
  size_t size;
  int isfloat, issigned;
} xty;
static const xty xtys[] = {{"char", 1, 0, 1},  {"uchar", 1, 0, 0}, {"short", 2, 0, 1}, {"ushort", 2, 0, 0},
                           {"int", 4, 0, 1},   {"uint", 4, 0, 0},  {"long", 8, 0, 1},  {"ulong", 8, 0, 0},
                           {"float", 4, 1, 1}, {"double", 8, 1, 1}};
#define NXTY (sizeof(xtys) / sizeof(xtys[0]))

static long double xget(const void *b, size_t i, const xty *t)
{
  if (t->isfloat)
    return t->size == 4 ? ((const float *)b)[i] : ((const double *)b)[i];
  switch (t->size) {
  case 1: return t->issigned ? (long double)((const int8_t *)b)[i] : (long double)((const uint8_t *)b)[i];
  case 2: return t->issigned ? (long double)((const int16_t *)b)[i] : (long double)((const uint16_t *)b)[i];
  case 4: return t->issigned ? (long double)((const int32_t *)b)[i] : (long double)((const uint32_t *)b)[i];
  default: return t->issigned ? (long double)((const int64_t *)b)[i] : (long double)((const uint64_t *)b)[i];
  }
}

/* Random bytes; floats small integers. */
static void xfill(void *b, size_t n, const xty *t)
{
  for (size_t i = 0; i < n; i++) {
    if (t->isfloat && t->size == 4)
      ((float *)b)[i] = (float)((int)(rnd() % 200) - 100);
    else if (t->isfloat)
      ((double *)b)[i] = (double)((int)(rnd() % 200) - 100) * 0.5;
    else
      for (size_t k = 0; k < t->size; k++)
        ((uint8_t *)b)[i * t->size + k] = (uint8_t)rnd();
  }
}

/* Lane src of the sub-group of item (gid), or -1 when src is outside it. */
static long lane_item(const geom *G, const size_t gid[3], const sg_pos *ps, long src)
{
  if (src < 0 || (size_t)src >= ps->sg_size)
    return -1;
  return (long)global_of_local(G, gid, ps->first + (size_t)src);
}

enum { X_SHUFFLE, X_XOR, X_UP, X_DOWN, X_ROTATE, X_CROTATE, X_N };
static const char *const x_expr[] = {
    "sub_group_shuffle(x, (get_sub_group_local_id() * 5u + 3u) %% get_sub_group_size())",
    "sub_group_shuffle_xor(x, %uu)", "sub_group_shuffle_up(x, %uu)", "sub_group_shuffle_down(x, %uu)",
    "sub_group_rotate(x, %d)", "sub_group_clustered_rotate(x, %d, 4u)"};

TEST(shuffles_and_rotates_every_type)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char *src = malloc(256 * 1024);
  size_t len = 0;
  unsigned arg[X_N] = {0, 3, 2, 5, 3, 5};
  for (size_t t = 0; t < NXTY; t++)
    for (int x = 0; x < X_N && tl_sweep_type(xtys[t].name); x++) {
      char e[256];
      snprintf(e, sizeof(e), x_expr[x], arg[x]);
      len += (size_t)snprintf(src + len, 256 * 1024 - len,
                              "kernel void x%d_%s(global const %s *a, global %s *o) {\n"
                              "  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
                              "  %s x = a[i];\n  o[i] = %s;\n}\n",
                              x, xtys[t].name, xtys[t].name, xtys[t].name, xtys[t].name, e);
    }
  cl_program p = tl_build(ctx, src, CL_OPTS);
  free(src);
  cl_int err;
  cl_kernel k0 = clCreateKernel(p, "x0_int", &err);
  ASSERT_OK(err);
  size_t S = sub_group_size(k0);
  clReleaseKernel(k0);
  geom G[32];
  int ng = shapes(S, G);
  size_t maxn = 0;
  for (int s = 0; s < ng; s++)
    maxn = total(&G[s]) > maxn ? total(&G[s]) : maxn;
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * 8, NULL, &err);
  ASSERT_OK(err);
  cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * 8, NULL, &err);
  ASSERT_OK(err);
  void *in = malloc(maxn * 8), *out = malloc(maxn * 8);
  long checked = 0;
  for (size_t t = 0; t < NXTY; t++)
    for (int x = 0; x < X_N && tl_sweep_type(xtys[t].name); x++) {
      char name[64];
      snprintf(name, sizeof(name), "x%d_%s", x, xtys[t].name);
      cl_kernel k = clCreateKernel(p, name, &err);
      ASSERT_OK(err);
      for (int s = 0; s < ng; s++) {
        if (G[s].dim > 2)
          continue;
        size_t n = total(&G[s]);
        xfill(in, n, &xtys[t]);
        ASSERT_OK(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n * xtys[t].size, in, 0, NULL, NULL));
        ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
        ASSERT_OK(clSetKernelArg(k, 1, sizeof(o), &o));
        ASSERT_OK(clEnqueueNDRangeKernel(q, k, G[s].dim, NULL, G[s].global, G[s].local, 0, NULL, NULL));
        ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * xtys[t].size, out, 0, NULL, NULL));
        for (size_t i = 0; i < n; i++) {
          size_t gid[3];
          gid_of(&G[s], i, gid);
          sg_pos ps = position(&G[s], gid, S);
          long l = (long)ps.sg_lid, sz = (long)ps.sg_size, from;
          switch (x) {
          case X_SHUFFLE: from = (l * 5 + 3) % sz; break;
          case X_XOR: from = l ^ (long)arg[x]; break;
          case X_UP: from = l - (long)arg[x]; break;
          case X_DOWN: from = l + (long)arg[x]; break;
          case X_ROTATE: from = (l + (long)arg[x]) % sz; break;
          default:
            from = sz % 4 ? -1 : (l & ~3l) | ((l + (long)arg[x]) & 3); /* whole clusters only */
            break;
          }
          long item = lane_item(&G[s], gid, &ps, from);
          if (item < 0)
            continue; /* undefined */
          long double want = xget(in, (size_t)item, &xtys[t]), got = xget(out, i, &xtys[t]);
          if (want != got)
            tl_fail(__FILE__, __LINE__, "%s shape %d (local %zu %zu) item %zu (lane %ld of %ld): got %Lg, want %Lg "
                    "(lane %ld)", name, s, G[s].local[0], G[s].local[1], i, l, sz, got, want, from);
          checked++;
        }
      }
      clReleaseKernel(k);
    }
  ASSERT_TRUE(checked > 1000);
  free(in);
  free(out);
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* cl_khr_subgroup_clustered_reduce (every op x type, cluster sizes 1, 2,
 * 4 and S) and cl_khr_subgroup_extended_types (reduce and scans of char,
 * uchar, short, ushort; broadcasts of vectors). */
static const char *const cops[] = {"add", "min", "max", "mul", "and", "or", "xor", "logical_and", "logical_or",
                                   "logical_xor"};

static long double cop(int op, long double a, long double b, const xty *t)
{
  switch (op) {
  case 0: return a + b;
  case 1: return a < b ? a : b;
  case 2: return a > b ? a : b;
  case 3: return a * b;
  case 4: return (long double)((int64_t)a & (int64_t)b);
  case 5: return (long double)((int64_t)a | (int64_t)b);
  case 6: return (long double)((int64_t)a ^ (int64_t)b);
  case 7: return (a != 0) && (b != 0);
  case 8: return (a != 0) || (b != 0);
  default: return (a != 0) != (b != 0);
  }
  (void)t;
}

/* The value as the type holds it (integers wrap). */
static long double wrapv(long double v, const xty *t)
{
  if (t->isfloat)
    return t->size == 4 ? (long double)(float)v : (long double)(double)v;
  uint64_t u = (uint64_t)(int64_t)v;
  if (v >= 9223372036854775808.0L)
    u = (uint64_t)v;
  switch (t->size) {
  case 1: return t->issigned ? (long double)(int8_t)u : (long double)(uint8_t)u;
  case 2: return t->issigned ? (long double)(int16_t)u : (long double)(uint16_t)u;
  case 4: return t->issigned ? (long double)(int32_t)u : (long double)(uint32_t)u;
  default: return t->issigned ? (long double)(int64_t)u : (long double)u;
  }
}

TEST(clustered_reductions_and_extended_types)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  size_t cap = 512 * 1024, len = 0;
  char *src = malloc(cap);
  for (size_t t = 0; t < NXTY; t++)
    for (int op = 0; op < 10; op++) {
      if ((xtys[t].isfloat && op >= 4) || (op >= 7 && strcmp(xtys[t].name, "int")) || !tl_sweep_type(xtys[t].name))
        continue;
      len += (size_t)snprintf(src + len, cap - len,
                              "kernel void c%d_%s(global const %s *a, global %s *o, global %s *o2, global %s *o4, "
                              "global %s *os) {\n  size_t i = get_global_id(0);\n"
                              "  o[i] = sub_group_clustered_reduce_%s(a[i], 1u);\n"
                              "  o2[i] = sub_group_clustered_reduce_%s(a[i], 2u);\n"
                              "  o4[i] = sub_group_clustered_reduce_%s(a[i], 4u);\n"
                              "  os[i] = sub_group_clustered_reduce_%s(a[i], SGS);\n}\n",
                              op, xtys[t].name, xtys[t].name, xtys[t].name, xtys[t].name, xtys[t].name,
                              xtys[t].name, cops[op], cops[op], cops[op], cops[op]);
    }
  for (size_t t = 0; t < 4; t++) /* char, uchar, short, ushort: the uniform reduce and scans */
    for (int op = 0; op < 3 && tl_sweep_type(xtys[t].name); op++)
      len += (size_t)snprintf(src + len, cap - len,
                              "kernel void e%d_%s(global const %s *a, global %s *o, global %s *o2, global %s *o4, "
                              "global %s *os) {\n  size_t i = get_global_id(0);\n"
                              "  o[i] = sub_group_reduce_%s(a[i]);\n"
                              "  o2[i] = sub_group_scan_inclusive_%s(a[i]);\n"
                              "  o4[i] = sub_group_scan_exclusive_%s(a[i]);\n  os[i] = 0;\n}\n",
                              op, xtys[t].name, xtys[t].name, xtys[t].name, xtys[t].name, xtys[t].name,
                              xtys[t].name, cops[op], cops[op], cops[op]);
  len += (size_t)snprintf(src + len, cap - len,
                          "kernel void vb(global const int4 *a, global int4 *o, global const float3 *b, "
                          "global float3 *p, global const char16 *c, global char16 *r) {\n"
                          "  size_t i = get_global_id(0);\n"
                          "  o[i] = sub_group_broadcast(a[i], 1u);\n"
                          "  p[i] = sub_group_broadcast(b[i], 0u);\n"
                          "  r[i] = sub_group_broadcast(c[i], get_sub_group_size() - 1);\n}\n");
  /* the sub-group size, for the cluster of a whole sub-group */
  cl_program p0 = tl_build(ctx, ids_src, CL_OPTS);
  cl_int err;
  cl_kernel k0 = clCreateKernel(p0, "ids", &err);
  ASSERT_OK(err);
  size_t S = sub_group_size(k0);
  clReleaseKernel(k0);
  clReleaseProgram(p0);
  char opts[64];
  snprintf(opts, sizeof(opts), CL_OPTS " -DSGS=%zuu", S);
  cl_program p = tl_build(ctx, src, opts);
  free(src);
  size_t locals[] = {S, 2 * S + 6, 7, 3 * S - 1};
  size_t maxn = 3 * (3 * S) * 16;
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * 8, NULL, &err), ob[4];
  ASSERT_OK(err);
  for (int j = 0; j < 4; j++) {
    ob[j] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxn * 8, NULL, &err);
    ASSERT_OK(err);
  }
  void *in = malloc(maxn * 8), *out[4];
  for (int j = 0; j < 4; j++)
    out[j] = malloc(maxn * 8);
  long checked = 0;
  for (int kind = 0; kind < 2; kind++)
    for (size_t t = 0; t < (kind ? 4 : NXTY); t++)
      for (int op = 0; op < (kind ? 3 : 10); op++) {
        if ((!kind && ((xtys[t].isfloat && op >= 4) || (op >= 7 && strcmp(xtys[t].name, "int")))) ||
            !tl_sweep_type(xtys[t].name))
          continue;
        char name[64];
        snprintf(name, sizeof(name), "%c%d_%s", kind ? 'e' : 'c', op, xtys[t].name);
        cl_kernel k = clCreateKernel(p, name, &err);
        ASSERT_OK(err);
        for (size_t li = 0; li < sizeof(locals) / sizeof(locals[0]); li++) {
          size_t L = locals[li], n = 3 * L;
          geom G = {1, {n, 1, 1}, {L, 1, 1}};
          xfill(in, n, &xtys[t]);
          if (xtys[t].size == 8 && !xtys[t].isfloat) /* 48-bit values: sums exact in a long double */
            for (size_t i = 0; i < n; i++)
              ((int64_t *)in)[i] = xtys[t].issigned ? ((int64_t *)in)[i] >> 16 : (int64_t)(((uint64_t *)in)[i] >> 16);
          if (op == 3 && !xtys[t].isfloat) /* mul: small factors, so products stay exact in a long double */
            for (size_t i = 0; i < n; i++)
              memset((char *)in + i * xtys[t].size, 0, xtys[t].size), *((uint8_t *)in + i * xtys[t].size) = (uint8_t)(rnd() % 4);
          if (op == 3 && xtys[t].isfloat)
            for (size_t i = 0; i < n; i++) {
              if (xtys[t].size == 4)
                ((float *)in)[i] = (float)(rnd() % 3) - 1;
              else
                ((double *)in)[i] = (double)(rnd() % 3) - 1;
            }
          ASSERT_OK(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n * xtys[t].size, in, 0, NULL, NULL));
          ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
          for (int j = 0; j < 4; j++)
            ASSERT_OK(clSetKernelArg(k, 1 + j, sizeof(cl_mem), &ob[j]));
          ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &L, 0, NULL, NULL));
          for (int j = 0; j < 4; j++)
            ASSERT_OK(clEnqueueReadBuffer(q, ob[j], CL_TRUE, 0, n * xtys[t].size, out[j], 0, NULL, NULL));
          for (size_t i = 0; i < n; i++) {
            size_t gid[3] = {i, 0, 0};
            sg_pos ps = position(&G, gid, S);
            for (int j = 0; j < (kind ? 3 : 4); j++) {
              size_t lo, hi; /* lanes folded, in the sub-group */
              if (!kind) {
                size_t cs = j == 0 ? 1 : j == 1 ? 2 : j == 2 ? 4 : S;
                lo = ps.sg_lid / cs * cs;
                hi = lo + cs < ps.sg_size ? lo + cs : ps.sg_size;
              } else {
                lo = 0;
                hi = j == 0 ? ps.sg_size : j == 1 ? ps.sg_lid + 1 : ps.sg_lid;
              }
              long double acc = 0;
              int first = 1;
              for (size_t l = lo; l < hi; l++) {
                long double v = xget(in, global_of_local(&G, gid, ps.first + l), &xtys[t]);
                if (op >= 7)
                  v = v != 0;
                acc = first ? v : cop(op, acc, v, &xtys[t]);
                acc = wrapv(acc, &xtys[t]);
                first = 0;
              }
              if (first) /* empty exclusive scan: the identity */
                acc = op == 0 ? 0 : op == 1 ? (xtys[t].issigned ? (xtys[t].size == 1 ? 127 : 32767) : (xtys[t].size == 1 ? 255 : 65535))
                                            : (xtys[t].issigned ? (xtys[t].size == 1 ? -128 : -32768) : 0);
              long double got = xget(out[j], i, &xtys[t]);
              if (got != acc)
                tl_fail(__FILE__, __LINE__, "%s output %d, local %zu, item %zu (lane %zu of %zu): got %Lg, want %Lg",
                        name, j, L, i, ps.sg_lid, ps.sg_size, got, acc);
              checked++;
            }
          }
        }
        clReleaseKernel(k);
      }
  /* vector broadcasts */
  cl_kernel k = clCreateKernel(p, "vb", &err);
  ASSERT_OK(err);
  for (size_t li = 0; li < sizeof(locals) / sizeof(locals[0]); li++) {
    size_t L = locals[li], n = 3 * L;
    geom G = {1, {n, 1, 1}, {L, 1, 1}};
    int32_t *ai = in;
    for (size_t i = 0; i < n * 16; i++)
      ai[i] = (int32_t)rnd();
    cl_mem bufs[6];
    size_t es[3] = {16, 16, 16};
    for (int j = 0; j < 3; j++) {
      bufs[2 * j] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * es[j], in, &err);
      ASSERT_OK(err);
      bufs[2 * j + 1] = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * es[j], NULL, &err);
      ASSERT_OK(err);
    }
    for (int j = 0; j < 6; j++)
      ASSERT_OK(clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &bufs[j]));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &L, 0, NULL, NULL));
    for (int j = 0; j < 3; j++) {
      ASSERT_OK(clEnqueueReadBuffer(q, bufs[2 * j + 1], CL_TRUE, 0, n * es[j], out[j], 0, NULL, NULL));
      for (size_t i = 0; i < n; i++) {
        size_t gid[3] = {i, 0, 0};
        sg_pos ps = position(&G, gid, S);
        size_t lane = j == 0 ? 1 : j == 1 ? 0 : ps.sg_size - 1;
        if (lane >= ps.sg_size)
          continue;
        size_t from = global_of_local(&G, gid, ps.first + lane);
        size_t nb = j == 1 ? 12 : 16; /* float3: 3 elements of 4 bytes in 16 */
        if (memcmp((char *)out[j] + i * 16, (char *)in + from * 16, nb))
          tl_fail(__FILE__, __LINE__, "vector broadcast %d, local %zu, item %zu: wrong bytes", j, L, i);
        checked++;
      }
    }
    for (int j = 0; j < 6; j++)
      clReleaseMemObject(bufs[j]);
  }
  clReleaseKernel(k);
  ASSERT_TRUE(checked > 1000);
  free(in);
  for (int j = 0; j < 4; j++) {
    free(out[j]);
    clReleaseMemObject(ob[j]);
  }
  clReleaseMemObject(a);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* cl_intel_required_subgroup_size: every size the device lists, in kernels
 * that scan, reduce, broadcast and shuffle; a size it does not list fails
 * the build. */
TEST(intel_required_sub_group_sizes)
{
  char ext[4096];
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL));
  ASSERT_TRUE(strstr(ext, "cl_intel_required_subgroup_size") != NULL);
  size_t sizes[16], nb = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof(sizes), sizes, &nb));
  size_t ns = nb / sizeof(size_t);
  ASSERT_TRUE(ns >= 3); /* 4, 8, 16 at least: more than one size */
  size_t W = lane_width();
  int have_w = 0;
  for (size_t i = 0; i < ns; i++)
    have_w |= sizes[i] == W;
  ASSERT_TRUE(have_w);
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  for (size_t si = 0; si < ns; si++) {
    size_t R = sizes[si];
    char src[2048];
    snprintf(src, sizeof(src),
             "#ifndef cl_intel_required_subgroup_size\n#error no cl_intel_required_subgroup_size\n#endif\n"
             "__attribute__((intel_reqd_sub_group_size(%zu)))\n"
             "kernel void k(global const int *a, global int *o) {\n"
             "  size_t i = get_global_id(0);\n"
             "  int x = a[i];\n"
             "  o[6 * i] = sub_group_scan_inclusive_add(x);\n"
             "  o[6 * i + 1] = sub_group_reduce_max(x);\n"
             "  o[6 * i + 2] = sub_group_broadcast(x, 1u);\n"
             "  o[6 * i + 3] = sub_group_shuffle_xor(x, 1u);\n"
             "  o[6 * i + 4] = get_sub_group_size();\n"
             "  o[6 * i + 5] = get_sub_group_id();\n}\n",
             R);
    cl_program p = tl_build(ctx, src, CL_OPTS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    ASSERT_OK(err);
    size_t got = 0, local = 4096;
    ASSERT_OK(clGetKernelSubGroupInfo(k, tl_device(), CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL, sizeof(got), &got,
                                      NULL));
    ASSERT_EQ(got, R);
    ASSERT_EQ(sub_group_size(k), R);
    (void)local;
    size_t locals[] = {R, 3 * R + 2, 64, 5};
    for (size_t li = 0; li < 4; li++) {
      size_t L = locals[li], n = 4 * L;
      int *in = malloc(n * sizeof(int)), *out = malloc(6 * n * sizeof(int));
      for (size_t i = 0; i < n; i++)
        in[i] = (int)(rnd() % 1000) - 500;
      cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), in, &err);
      ASSERT_OK(err);
      cl_mem o = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 6 * n * sizeof(int), NULL, &err);
      ASSERT_OK(err);
      ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
      ASSERT_OK(clSetKernelArg(k, 1, sizeof(o), &o));
      ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &L, 0, NULL, NULL));
      ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, 6 * n * sizeof(int), out, 0, NULL, NULL));
      geom G = {1, {n, 1, 1}, {L, 1, 1}};
      for (size_t i = 0; i < n; i++) {
        size_t gid[3] = {i, 0, 0};
        sg_pos ps = position(&G, gid, R);
        int scan = 0, mx = INT_MIN;
        for (size_t l = 0; l < ps.sg_size; l++) {
          int v = in[global_of_local(&G, gid, ps.first + l)];
          if (l <= ps.sg_lid)
            scan += v;
          mx = v > mx ? v : mx;
        }
        int bc = ps.sg_size > 1 ? in[global_of_local(&G, gid, ps.first + 1)] : 0;
        size_t xl = ps.sg_lid ^ 1;
        int sx = xl < ps.sg_size ? in[global_of_local(&G, gid, ps.first + xl)] : 0;
        const int *r = out + 6 * i;
        if (r[0] != scan || r[1] != mx || (ps.sg_size > 1 && r[2] != bc) || (xl < ps.sg_size && r[3] != sx) ||
            r[4] != (int)ps.sg_size || r[5] != (int)ps.sg_id)
          tl_fail(__FILE__, __LINE__, "size %zu local %zu item %zu: got %d %d %d %d %d %d, want %d %d %d %d %zu %zu", R,
                  L, i, r[0], r[1], r[2], r[3], r[4], r[5], scan, mx, bc, sx, ps.sg_size, ps.sg_id);
      }
      free(in);
      free(out);
      clReleaseMemObject(a);
      clReleaseMemObject(o);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  /* a size the device does not list */
  const char *bad = "__attribute__((intel_reqd_sub_group_size(3))) kernel void k(global int *o) { o[0] = 1; }\n";
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &bad, NULL, &err);
  ASSERT_OK(err);
  ASSERT_CL(clBuildProgram(p, 0, NULL, CL_OPTS, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  char log[4096] = "";
  ASSERT_OK(clGetProgramBuildInfo(p, tl_device(), CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL));
  ASSERT_TRUE(strstr(log, "intel_reqd_sub_group_size") != NULL);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* sub_group_barrier (both forms) orders __local memory between the lanes
 * of a sub-group. */
TEST(sub_group_barrier_orders_local_memory)
{
  const char *src =
      "kernel void k(global const int *a, global int *o, local int *t) {\n"
      "  size_t i = get_global_id(0), l = get_local_id(0);\n"
      "  uint s = get_sub_group_size(), p = get_sub_group_local_id();\n"
      "  size_t base = l - p;\n"
      "  t[l] = a[i];\n"
      "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  int x = t[base + (p + 1) % s];\n"
      "  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);\n"
      "  t[l] = x * 2;\n"
      "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  o[i] = t[base + (p + s - 1) % s];\n"
      "}\n";
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src, CL_OPTS);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  size_t S = sub_group_size(k);
  size_t locals[] = {S, 2 * S + 3, 5};
  for (size_t li = 0; li < 3; li++) {
    size_t L = locals[li], n = 4 * L;
    int *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++)
      in[i] = (int)(rnd() % 1000);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), in, &err);
    ASSERT_OK(err);
    cl_mem o = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(o), &o));
    ASSERT_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &L, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL));
    for (size_t i = 0; i < n; i++) {
      /* lane p reads lane p - 1's x, which is lane p's own a, doubled */
      if (out[i] != 2 * in[i])
        tl_fail(__FILE__, __LINE__, "local %zu item %zu: got %d want %d", L, i, out[i], 2 * in[i]);
    }
    free(in);
    free(out);
    clReleaseMemObject(a);
    clReleaseMemObject(o);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* A switch over cluster sizes up to 128 (CTS test_subgroups
 * subgroup_functions_clustered_reduce): the sizes above the sub-group's are
 * undefined only when they run, so the kernel builds (it failed to build),
 * and the size that runs reduces its clusters. */
TEST(clustered_reduce_sizes_beyond_the_sub_group_build)
{
  const char *src =
      "kernel void k(global const int *a, global int *o, uint cs) {\n"
      "  size_t i = get_global_id(0); int v = a[i], r = 0;\n"
      "  switch (cs) {\n"
      "  case 1: r = sub_group_clustered_reduce_add(v, 1); break;\n"
      "  case 2: r = sub_group_clustered_reduce_add(v, 2); break;\n"
      "  case 4: r = sub_group_clustered_reduce_add(v, 4); break;\n"
      "  case 64: r = sub_group_clustered_reduce_add(v, 64); break;\n"
      "  case 128: r = sub_group_clustered_reduce_add(v, 128); break;\n"
      "  }\n"
      "  o[i] = r;\n"
      "}\n";
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src, CL_OPTS);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  size_t S = sub_group_size(k), L = 4 * S, n = 2 * L;
  int *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
  for (size_t i = 0; i < n; i++)
    in[i] = (int)(rnd() % 1000);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), in, &err);
  ASSERT_OK(err);
  cl_mem o = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  cl_uint cs = 4;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(o), &o));
  ASSERT_OK(clSetKernelArg(k, 2, sizeof(cs), &cs));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &L, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++) {
    int want = 0;
    for (size_t j = i - i % 4; j < i - i % 4 + 4; j++)
      want += in[j];
    if (out[i] != want)
      tl_fail(__FILE__, __LINE__, "item %zu: got %d want %d", i, out[i], want);
  }
  free(in);
  free(out);
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

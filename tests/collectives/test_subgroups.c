/* Sub-groups (OpenCL C 3.0 __opencl_c_subgroups): the
 * work-item functions, every sub-group collective x op x type, broadcast,
 * all and any, against a C reference, for work-group sizes that are
 * multiples of the sub-group size and sizes that are not (the last
 * sub-group of each row of x is then smaller), in 1, 2 and 3 dimensions and
 * with a non-uniform NDRange; at the default level and with -cl-opt-disable;
 * and clGetKernelSubGroupInfo's queries and errors.
 *
 * The sub-group size S is never assumed: it is asked of the runtime
 * (clGetKernelSubGroupInfo) and checked against the device's preferred
 * work-group size multiple (the lane width) and the kernel's own
 * get_max_sub_group_size(). */
#include "tests/collectives/subgroups.h"

TEST(device_reports_sub_groups)
{
  char ext[4096];
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_EXTENSIONS, sizeof(ext), ext, NULL));
  /* Not cl_khr_subgroups: it requires independent forward progress of the
   * sub-groups of a group, and a group's sub-groups run one after the other
   * on one thread (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS false). */
  ASSERT_TRUE(strstr(ext, "cl_khr_subgroups") == NULL);
  cl_name_version f[64];
  size_t sz = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_OPENCL_C_FEATURES, sizeof(f), f, &sz));
  int have = 0;
  for (size_t i = 0; i < sz / sizeof(f[0]); i++)
    have |= !strcmp(f[i].name, "__opencl_c_subgroups");
  ASSERT_TRUE(have);
  cl_uint maxsg = 0;
  size_t maxwg = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(maxsg), &maxsg, NULL));
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(maxwg), &maxwg, NULL));
  ASSERT_EQ(maxsg, maxwg); /* rows of one work-item: one sub-group each */
  cl_bool ifp = CL_TRUE;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof(ifp), &ifp, NULL));
  ASSERT_EQ(ifp, CL_FALSE);
}

static void check_ids(const char *opts)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, ids_src, opts);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "ids", &err);
  ASSERT_OK(err);
  size_t S = sub_group_size(k);
  ASSERT_EQ(S, lane_width());
  geom G[32];
  int ng = shapes(S, G);
  for (int s = 0; s < ng; s++) {
    size_t n = total(&G[s]);
    cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 6 * sizeof(cl_uint), NULL, &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(o), &o));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, G[s].dim, NULL, G[s].global, G[s].local, 0, NULL, NULL));
    cl_uint *r = malloc(n * 6 * sizeof(cl_uint));
    ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * 6 * sizeof(cl_uint), r, 0, NULL, NULL));
    size_t enq = ((G[s].local[0] + S - 1) / S) * (G[s].dim > 1 ? G[s].local[1] : 1) * (G[s].dim > 2 ? G[s].local[2] : 1);
    size_t maxsg = G[s].local[0] < S ? G[s].local[0] : S;
    for (size_t i = 0; i < n; i++) {
      size_t gid[3];
      gid_of(&G[s], i, gid);
      sg_pos ps = position(&G[s], gid, S);
      const cl_uint *v = r + 6 * i;
      if (v[0] != ps.sg_size || v[1] != maxsg || v[2] != ps.num || v[3] != enq || v[4] != ps.sg_id ||
          v[5] != ps.sg_lid)
        tl_fail(__FILE__, __LINE__,
                "shape %d (local %zu %zu %zu) item %zu: got size %u max %u num %u enq %u id %u lid %u, "
                "want %zu %zu %zu %zu %zu %zu",
                s, G[s].local[0], G[s].local[1], G[s].local[2], i, v[0], v[1], v[2], v[3], v[4], v[5], ps.sg_size,
                maxsg, ps.num, enq, ps.sg_id, ps.sg_lid);
    }
    /* clGetKernelSubGroupInfo agrees with the kernel */
    size_t cnt = 0, mx = 0;
    ASSERT_OK(clGetKernelSubGroupInfo(k, tl_device(), CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                      G[s].dim * sizeof(size_t), G[s].local, sizeof(cnt), &cnt, NULL));
    ASSERT_OK(clGetKernelSubGroupInfo(k, tl_device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                      G[s].dim * sizeof(size_t), G[s].local, sizeof(mx), &mx, NULL));
    ASSERT_EQ(cnt, enq);
    ASSERT_EQ(mx, maxsg);
    free(r);
    clReleaseMemObject(o);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(work_item_functions)
{
  check_ids(CL_OPTS);
}

TEST(work_item_functions_opt_disable)
{
  check_ids(CL_OPTS " -cl-opt-disable");
}

/* ---- collectives ---- */

typedef enum { T_INT, T_UINT, T_LONG, T_ULONG, T_FLOAT, T_DOUBLE, T_COUNT } ty_t;
static const char *ty_name[] = {"int", "uint", "long", "ulong", "float", "double"};
static const size_t ty_size[] = {4, 4, 8, 8, 4, 8};
typedef enum { OP_ADD, OP_MIN, OP_MAX, OP_COUNT } op_t;
static const char *op_name[] = {"add", "min", "max"};
typedef enum { F_REDUCE, F_INCL, F_EXCL, F_COUNT } fn_t;
static const char *fn_name[] = {"reduce", "scan_inclusive", "scan_exclusive"};

/* Values as long double (exact for every int, uint, long and ulong used here:
 * operands are small enough that no sum overflows 64 bits). */
typedef long double num;

static num get(const void *b, size_t i, ty_t t)
{
  switch (t) {
  case T_INT: return ((const int32_t *)b)[i];
  case T_UINT: return ((const uint32_t *)b)[i];
  case T_LONG: return ((const int64_t *)b)[i];
  case T_ULONG: return ((const uint64_t *)b)[i];
  case T_FLOAT: return ((const float *)b)[i];
  default: return ((const double *)b)[i];
  }
}

static num ident(op_t op, ty_t t)
{
  if (op == OP_ADD)
    return 0;
  int mn = op == OP_MIN;
  switch (t) {
  case T_INT: return mn ? INT_MAX : INT_MIN;
  case T_UINT: return mn ? UINT_MAX : 0;
  case T_LONG: return mn ? LONG_MAX : LONG_MIN;
  case T_ULONG: return mn ? ULONG_MAX : 0;
  default: return mn ? INFINITY : -INFINITY;
  }
}

static num apply(op_t op, num a, num b)
{
  return op == OP_ADD ? a + b : op == OP_MIN ? (a < b ? a : b) : (a > b ? a : b);
}

/* Small integers (exact float sums), negative ones for signed types, and now
 * and then the type's extremes for min and max. */
static void fill(void *b, size_t n, ty_t t, op_t op)
{
  for (size_t i = 0; i < n; i++) {
    int64_t v = (int64_t)(rnd() % 2001) - (t == T_UINT || t == T_ULONG ? 0 : 1000);
    int ext = op != OP_ADD && rnd() % 17 == 0;
    switch (t) {
    case T_INT: ((int32_t *)b)[i] = ext ? (rnd() & 1 ? INT_MIN : INT_MAX) : (int32_t)v; break;
    case T_UINT: ((uint32_t *)b)[i] = ext ? (rnd() & 1 ? 0 : UINT_MAX) : (uint32_t)v; break;
    case T_LONG: ((int64_t *)b)[i] = ext ? (rnd() & 1 ? LONG_MIN : LONG_MAX) : v * 4000000000ll; break;
    case T_ULONG: ((uint64_t *)b)[i] = ext ? (rnd() & 1 ? 0 : ULONG_MAX) : (uint64_t)v * 4000000000ull; break;
    case T_FLOAT: ((float *)b)[i] = (float)v * 0.5f; break;
    default: ((double *)b)[i] = (double)v * 0.25; break;
    }
  }
}

static char *collective_source(void)
{
  size_t cap = 64 * 1024, len = 0;
  char *s = malloc(cap);
  for (int f = 0; f < F_COUNT; f++)
    for (int o = 0; o < OP_COUNT; o++)
      for (int t = 0; t < T_COUNT; t++)
        if (tl_sweep_type(ty_name[t]))
          len += (size_t)snprintf(s + len, cap - len,
                                "kernel void %s_%s_%s(global const %s *a, global %s *o) {\n"
                                "  size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + "
                                "get_global_size(1) * get_global_id(2));\n"
                                "  o[i] = sub_group_%s_%s(a[i]);\n}\n",
                                fn_name[f], op_name[o], ty_name[t], ty_name[t], ty_name[t], fn_name[f], op_name[o]);
  for (int t = 0; t < T_COUNT; t++)
    if (tl_sweep_type(ty_name[t]))
      len += (size_t)snprintf(s + len, cap - len,
                            "kernel void bcast_%s(global const %s *a, global %s *o, uint id) {\n"
                            "  size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + "
                            "get_global_size(1) * get_global_id(2));\n"
                            "  uint l = id %% get_sub_group_size();\n"
                            "  o[i] = sub_group_broadcast(a[i], l);\n}\n",
                            ty_name[t], ty_name[t], ty_name[t]);
  len += (size_t)snprintf(s + len, cap - len,
                          "kernel void vote(global const int *a, global int *o) {\n"
                          "  size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + "
                          "get_global_size(1) * get_global_id(2));\n"
                          "  o[2 * i] = sub_group_all(a[i]);\n"
                          "  o[2 * i + 1] = sub_group_any(a[i]);\n}\n");
  return s;
}

static void run(cl_command_queue q, cl_kernel k, const geom *G, cl_mem a, cl_mem o, cl_uint id, int bcast)
{
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(o), &o));
  if (bcast)
    ASSERT_OK(clSetKernelArg(k, 2, sizeof(id), &id));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, G->dim, NULL, G->global, G->local, 0, NULL, NULL));
}

static void check_collectives(const char *opts)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  char *src = collective_source();
  cl_program p = tl_build(ctx, src, opts);
  free(src);
  cl_int err;
  cl_kernel k0 = clCreateKernel(p, "vote", &err);
  ASSERT_OK(err);
  size_t S = sub_group_size(k0);
  ASSERT_EQ(S, lane_width());
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
  int checked = 0;
  for (int f = 0; f < F_COUNT; f++)
    for (int op = 0; op < OP_COUNT; op++)
      for (int t = 0; t < T_COUNT; t++) {
        if (!tl_sweep_type(ty_name[t]))
          continue;
        char name[64];
        snprintf(name, sizeof(name), "%s_%s_%s", fn_name[f], op_name[op], ty_name[t]);
        cl_kernel k = clCreateKernel(p, name, &err);
        ASSERT_OK(err);
        for (int s = 0; s < ng; s++) {
          size_t n = total(&G[s]);
          fill(in, n, (ty_t)t, (op_t)op);
          ASSERT_OK(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n * ty_size[t], in, 0, NULL, NULL));
          run(q, k, &G[s], a, o, 0, 0);
          ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * ty_size[t], out, 0, NULL, NULL));
          for (size_t i = 0; i < n; i++) {
            size_t gid[3];
            gid_of(&G[s], i, gid);
            sg_pos ps = position(&G[s], gid, S);
            size_t upto = f == F_REDUCE ? ps.sg_size : f == F_INCL ? ps.sg_lid + 1 : ps.sg_lid;
            num want = ident((op_t)op, (ty_t)t);
            for (size_t j = 0; j < upto; j++)
              want = apply((op_t)op, want, get(in, global_of_local(&G[s], gid, ps.first + j), (ty_t)t));
            if (t == T_FLOAT)
              want = (float)want;
            else if (t == T_DOUBLE)
              want = (double)want;
            num got = get(out, i, (ty_t)t);
            if (got != want)
              tl_fail(__FILE__, __LINE__, "%s (%s), shape %d (local %zu %zu %zu), item %zu (sub-group %zu lane %zu "
                      "of %zu): got %Lg, want %Lg", name, opts, s, G[s].local[0], G[s].local[1], G[s].local[2], i,
                      ps.sg_id, ps.sg_lid, ps.sg_size, got, want);
            checked++;
          }
        }
        clReleaseKernel(k);
      }
  /* broadcast: lane id % size of each sub-group */
  for (int t = 0; t < T_COUNT; t++) {
    if (!tl_sweep_type(ty_name[t]))
      continue;
    char name[64];
    snprintf(name, sizeof(name), "bcast_%s", ty_name[t]);
    cl_kernel k = clCreateKernel(p, name, &err);
    ASSERT_OK(err);
    for (int s = 0; s < ng; s++)
      for (cl_uint id = 0; id < 3; id++) {
        cl_uint lane = id == 0 ? 0 : id == 1 ? 2 : (cl_uint)S - 1;
        size_t n = total(&G[s]);
        fill(in, n, (ty_t)t, OP_ADD);
        ASSERT_OK(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n * ty_size[t], in, 0, NULL, NULL));
        run(q, k, &G[s], a, o, lane, 1);
        ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * ty_size[t], out, 0, NULL, NULL));
        for (size_t i = 0; i < n; i++) {
          size_t gid[3];
          gid_of(&G[s], i, gid);
          sg_pos ps = position(&G[s], gid, S);
          num want = get(in, global_of_local(&G[s], gid, ps.first + lane % ps.sg_size), (ty_t)t);
          num got = get(out, i, (ty_t)t);
          if (got != want)
            tl_fail(__FILE__, __LINE__, "%s (%s) lane %u, shape %d (local %zu %zu %zu), item %zu: got %Lg, want %Lg",
                    name, opts, lane, s, G[s].local[0], G[s].local[1], G[s].local[2], i, got, want);
          checked++;
        }
      }
    clReleaseKernel(k);
  }
  /* all / any: inputs all nonzero, all zero, one of each kind */
  for (int s = 0; s < ng; s++)
    for (int pat = 0; pat < 4; pat++) {
      size_t n = total(&G[s]);
      int32_t *iv = in;
      for (size_t i = 0; i < n; i++)
        iv[i] = pat == 0 ? (int32_t)(rnd() % 5 + 1) : pat == 1 ? 0 : pat == 2 ? (rnd() % 9 == 0) : (rnd() % 9 != 0);
      ASSERT_OK(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n * 4, in, 0, NULL, NULL));
      run(q, k0, &G[s], a, o, 0, 0);
      ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * 8, out, 0, NULL, NULL));
      const int32_t *ov = out;
      for (size_t i = 0; i < n; i++) {
        size_t gid[3];
        gid_of(&G[s], i, gid);
        sg_pos ps = position(&G[s], gid, S);
        int all = 1, any = 0;
        for (size_t j = 0; j < ps.sg_size; j++) {
          int v = iv[global_of_local(&G[s], gid, ps.first + j)] != 0;
          all &= v;
          any |= v;
        }
        if ((ov[2 * i] != 0) != all || (ov[2 * i + 1] != 0) != any)
          tl_fail(__FILE__, __LINE__, "all/any (%s) pattern %d shape %d item %zu: got %d %d want %d %d", opts, pat, s,
                  i, ov[2 * i], ov[2 * i + 1], all, any);
        checked++;
      }
    }
  ASSERT_TRUE(checked > 0);
  free(in);
  free(out);
  clReleaseMemObject(a);
  clReleaseMemObject(o);
  clReleaseKernel(k0);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(collectives_every_function_op_and_type)
{
  check_collectives(CL_OPTS);
}

TEST(collectives_every_function_op_and_type_opt_disable)
{
  check_collectives(CL_OPTS " -cl-opt-disable");
}

/* Sub-group collectives in a loop with a trip count from an argument, after
 * a work-group barrier, and mixed with a work-group collective. */
TEST(collectives_in_loops_and_with_barriers)
{
  const char *src =
      "kernel void k(global const int *a, global int *o, int iters, local int *tmp) {\n"
      "  size_t i = get_global_id(0), l = get_local_id(0);\n"
      "  int x = a[i];\n"
      "  for (int r = 0; r < iters; r++) {\n"
      "    tmp[l] = x;\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "    x = sub_group_scan_inclusive_add(tmp[get_local_size(0) - 1 - l]);\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  }\n"
      "  o[i] = x + work_group_reduce_add(sub_group_reduce_max(x)) * 0 + sub_group_broadcast(x, 0);\n"
      "}\n";
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src, CL_OPTS);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  size_t S = sub_group_size(k);
  size_t locals[] = {S, 2 * S + 3, 5, 64};
  for (size_t li = 0; li < sizeof(locals) / sizeof(locals[0]); li++) {
    size_t L = locals[li], n = L * 3;
    int *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int)), *ref = malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++)
      in[i] = (int)(rnd() % 100) - 50;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), in, &err);
    ASSERT_OK(err);
    cl_mem o = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &err);
    ASSERT_OK(err);
    int iters = 3;
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(a), &a));
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(o), &o));
    ASSERT_OK(clSetKernelArg(k, 2, sizeof(iters), &iters));
    ASSERT_OK(clSetKernelArg(k, 3, L * sizeof(int), NULL));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &L, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL));
    for (size_t g0 = 0; g0 < n; g0 += L) {
      int *x = ref + g0, tmp[4096];
      memcpy(x, in + g0, L * sizeof(int));
      for (int r = 0; r < iters; r++) {
        memcpy(tmp, x, L * sizeof(int));
        for (size_t l = 0; l < L; l++) {
          size_t st = l - l % S;
          int acc = 0;
          for (size_t j = st; j <= l; j++)
            acc += tmp[L - 1 - j];
          x[l] = acc;
        }
      }
      int b[4096];
      for (size_t l = 0; l < L; l++)
        b[l] = x[l - l % S];
      for (size_t l = 0; l < L; l++)
        x[l] += b[l];
    }
    for (size_t i = 0; i < n; i++)
      if (out[i] != ref[i])
        tl_fail(__FILE__, __LINE__, "local %zu item %zu: got %d want %d", L, i, out[i], ref[i]);
    free(in);
    free(out);
    free(ref);
    clReleaseMemObject(a);
    clReleaseMemObject(o);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(kernel_sub_group_info_queries_and_errors)
{
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, ids_src, CL_OPTS);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "ids", &err);
  ASSERT_OK(err);
  cl_device_id dev = tl_device();
  size_t S = sub_group_size(k), maxwg = 0, v = 0, ret = 0;
  ASSERT_OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(maxwg), &maxwg, NULL));
  size_t l3[3] = {S + 1, 2, 3};
  ASSERT_OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(l3), l3, sizeof(v), &v, &ret));
  ASSERT_EQ(v, 2 * 2 * 3);
  ASSERT_EQ(ret, sizeof(size_t));
  size_t one = 3;
  ASSERT_OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(one), &one, sizeof(v), &v,
                                    NULL));
  ASSERT_EQ(v, S < 3 ? S : 3);
  /* the local size for a count: one dimension, exact, no partial sub-group */
  size_t want = 3, loc[3] = {9, 9, 9};
  ASSERT_OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(want), &want, sizeof(loc),
                                    loc, &ret));
  ASSERT_EQ(loc[0], 3 * S);
  ASSERT_EQ(loc[1], 1);
  ASSERT_EQ(loc[2], 1);
  ASSERT_EQ(ret, sizeof(loc));
  size_t loc1 = 9;
  ASSERT_OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(want), &want, sizeof(loc1),
                                    &loc1, NULL));
  ASSERT_EQ(loc1, 3 * S);
  want = maxwg / S + 1; /* too many: zeros */
  ASSERT_OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(want), &want, sizeof(loc),
                                    loc, NULL));
  ASSERT_EQ(loc[0] + loc[1] + loc[2], 0);
  ASSERT_OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof(v), &v, NULL));
  ASSERT_EQ(v, (maxwg + S - 1) / S);
  ASSERT_OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL, sizeof(v), &v, NULL));
  ASSERT_EQ(v, 0);
  /* the KHR entry point answers the same */
  ASSERT_OK(clGetKernelSubGroupInfoKHR(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(l3), l3, sizeof(v), &v,
                                       NULL));
  ASSERT_EQ(v, S);
  /* errors */
  ASSERT_CL(clGetKernelSubGroupInfo(NULL, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof(v), &v, NULL),
            CL_INVALID_KERNEL);
  ASSERT_CL(clGetKernelSubGroupInfo(k, (cl_device_id)ctx, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof(v), &v, NULL),
            CL_INVALID_DEVICE);
  ASSERT_CL(clGetKernelSubGroupInfo(k, dev, 0x4242, 0, NULL, sizeof(v), &v, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, 1, &v, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(l3), NULL, sizeof(v), &v,
                                    NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 4 * sizeof(size_t), l3, sizeof(v),
                                    &v, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 5, l3, sizeof(v), &v, NULL),
            CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, 0, NULL, sizeof(loc), loc, NULL),
            CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(want), &want, 4 * sizeof(size_t),
                                    loc, NULL), CL_INVALID_VALUE);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

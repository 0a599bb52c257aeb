/* Atomic built-ins through the whole stack, with many work-groups (run by
 * several worker threads) hitting the same words: the OpenCL 1.x atomic_*
 * and atom_* functions on __global and __local int/uint/long/ulong, the
 * C11-style functions of OpenCL C 3.0 (fetch ops with orders and scopes,
 * load/store/exchange, compare_exchange strong and weak, atomic_flag as a
 * lock, float exchange and compare-exchange), and the fences. */
#include <stdint.h>

#include "tests/testlib.h"

#define GROUPS 64
#define LOCAL 32
#define ITEMS (GROUPS * LOCAL)

static const char *src_1x =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "kernel void k(global int *c, global uint *u, global long *cl, global ulong *cu, global int *per_group,\n"
    "              global float *fx)\n{\n"
    "  local int lc[4];\n"
    "  int g = (int)get_global_id(0), l = (int)get_local_id(0);\n"
    "  if (l == 0) { lc[0] = 0; lc[1] = 1000; lc[2] = 0; lc[3] = 0; }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  atomic_add(&c[0], 1);\n"
    "  atomic_sub(&c[1], 2);\n"
    "  atomic_inc(&c[2]);\n"
    "  atomic_dec(&c[3]);\n"
    "  atomic_min(&c[4], g - 7);\n"
    "  atomic_max(&c[5], g * 3);\n"
    "  atomic_and(&u[0], ~(1u << (g % 32)) | (g < 32 ? 0u : 0xffffffffu));\n"
    "  atomic_or(&u[1], 1u << (g % 32));\n"
    "  atomic_xor(&u[2], (uint)g);\n"
    "  atomic_min(&u[3], (uint)(g + 5));\n"
    "  atomic_max(&u[4], (uint)g);\n"
    "  int old;\n"
    "  do { old = c[6]; } while (atomic_cmpxchg(&c[6], old, old + 3) != old);\n"
    "  atomic_xchg(&c[7], g);                 /* some g ends there */\n"
    "  atom_add(&cl[0], (long)g << 33);\n"
    "  atom_sub(&cl[1], 5L);\n"
    "  atom_inc(&cl[2]);\n"
    "  atom_min(&cl[3], -(long)g);\n"
    "  atom_max(&cu[0], (ulong)g << 40);\n"
    "  atom_or(&cu[1], 1ul << (g % 64));\n"
    "  atom_xor(&cu[2], (ulong)g * 0x100000001ul);\n"
    "  ulong o2;\n"
    "  do { o2 = cu[3]; } while (atom_cmpxchg(&cu[3], o2, o2 + 7) != o2);\n"
    "  atom_xchg(&cu[4], (ulong)g);\n"
    "  atomic_xchg(&fx[g], 1.5f);\n"
    "  /* local */\n"
    "  atomic_add(&lc[0], l);\n"
    "  atomic_dec(&lc[1]);\n"
    "  atomic_max(&lc[2], l);\n"
    "  atomic_inc(&lc[3]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) { per_group[4 * get_group_id(0) + 0] = lc[0]; per_group[4 * get_group_id(0) + 1] = lc[1];\n"
    "                per_group[4 * get_group_id(0) + 2] = lc[2]; per_group[4 * get_group_id(0) + 3] = lc[3]; }\n"
    "  mem_fence(CLK_GLOBAL_MEM_FENCE); read_mem_fence(CLK_LOCAL_MEM_FENCE); write_mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
    "}\n";

static cl_mem mkbuf(cl_context ctx, size_t size, const void *init)
{
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)init, &err);
  ASSERT_OK(err);
  return m;
}

TEST(atomics_1x)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src_1x, "");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  int c[8] = {0, 0, 0, 0, 1000, -5, 10, -1};
  uint32_t u[5] = {0xffffffffu, 0, 0, 0xffffffffu, 0};
  int64_t cl[4] = {0, 0, 0, 0};
  uint64_t cu[5] = {0, 0, 0, 0, 0};
  int per_group[4 * GROUPS];
  float fx[ITEMS];
  cl_mem m[6] = {mkbuf(ctx, sizeof(c), c), mkbuf(ctx, sizeof(u), u), mkbuf(ctx, sizeof(cl), cl),
                 mkbuf(ctx, sizeof(cu), cu), mkbuf(ctx, sizeof(per_group), NULL), mkbuf(ctx, sizeof(fx), NULL)};
  for (int i = 0; i < 6; i++)
    ASSERT_OK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &m[i]));
  size_t g = ITEMS, l = LOCAL;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[0], CL_TRUE, 0, sizeof(c), c, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[1], CL_TRUE, 0, sizeof(u), u, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[2], CL_TRUE, 0, sizeof(cl), cl, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[3], CL_TRUE, 0, sizeof(cu), cu, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[4], CL_TRUE, 0, sizeof(per_group), per_group, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[5], CL_TRUE, 0, sizeof(fx), fx, 0, NULL, NULL));
  ASSERT_EQ(c[0], ITEMS);
  ASSERT_EQ(c[1], -2 * ITEMS);
  ASSERT_EQ(c[2], ITEMS);
  ASSERT_EQ(c[3], -ITEMS);
  ASSERT_EQ(c[4], -7);
  ASSERT_EQ(c[5], (ITEMS - 1) * 3);
  ASSERT_EQ(c[6], 10 + 3 * ITEMS);
  ASSERT_TRUE(c[7] >= 0 && c[7] < ITEMS);
  ASSERT_EQ(u[0], 0u);          /* the first 32 items clear every bit */
  ASSERT_EQ(u[1], 0xffffffffu); /* every bit set */
  uint32_t x = 0;
  for (int i = 0; i < ITEMS; i++)
    x ^= (uint32_t)i;
  ASSERT_EQ(u[2], x);
  ASSERT_EQ(u[3], 5u);
  ASSERT_EQ(u[4], (uint32_t)(ITEMS - 1));
  int64_t sum = 0;
  uint64_t x64 = 0;
  for (int i = 0; i < ITEMS; i++) {
    sum += (int64_t)i << 33;
    x64 ^= (uint64_t)i * 0x100000001ull;
  }
  ASSERT_EQ(cl[0], sum);
  ASSERT_EQ(cl[1], -5LL * ITEMS);
  ASSERT_EQ(cl[2], ITEMS);
  ASSERT_EQ(cl[3], -(ITEMS - 1));
  ASSERT_EQ(cu[0], (uint64_t)(ITEMS - 1) << 40);
  ASSERT_EQ(cu[1], ~0ull);
  ASSERT_EQ(cu[2], x64);
  ASSERT_EQ(cu[3], 7ull * ITEMS);
  ASSERT_TRUE(cu[4] < ITEMS);
  for (int i = 0; i < ITEMS; i++)
    ASSERT_TRUE(fx[i] == 1.5f);
  for (int gi = 0; gi < GROUPS; gi++) {
    ASSERT_EQ(per_group[4 * gi + 0], LOCAL * (LOCAL - 1) / 2);
    ASSERT_EQ(per_group[4 * gi + 1], 1000 - LOCAL);
    ASSERT_EQ(per_group[4 * gi + 2], LOCAL - 1);
    ASSERT_EQ(per_group[4 * gi + 3], LOCAL);
  }
  for (int i = 0; i < 6; i++)
    clReleaseMemObject(m[i]);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

static const char *src_c11 =
    "kernel void k(global atomic_int *ai, global atomic_uint *au, global atomic_long *al, global atomic_ulong *aul,\n"
    "              global atomic_float *af, global int *plain, global int *res)\n{\n"
    "  local atomic_int lai;\n"
    "  int g = (int)get_global_id(0), l = (int)get_local_id(0);\n"
    "  if (l == 0) atomic_init(&lai, 0);\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  atomic_fetch_add(&ai[0], 1);\n"
    "  atomic_fetch_add_explicit(&ai[1], 2, memory_order_relaxed);\n"
    "  atomic_fetch_sub_explicit(&ai[2], 1, memory_order_acq_rel, memory_scope_device);\n"
    "  atomic_fetch_min(&ai[3], -g);\n"
    "  atomic_fetch_max_explicit(&ai[4], g, memory_order_seq_cst, memory_scope_work_group);\n"
    "  atomic_fetch_or(&au[0], 1u << (g % 32));\n"
    "  atomic_fetch_xor_explicit(&au[1], (uint)g, memory_order_release);\n"
    "  atomic_fetch_and(&au[2], ~(1u << (g % 32)));\n"
    "  atomic_fetch_add(&al[0], (long)g << 32);\n"
    "  atomic_fetch_max(&aul[0], (ulong)g);\n"
    "  int e = atomic_load(&ai[5]);\n"
    "  while (!atomic_compare_exchange_weak(&ai[5], &e, e + 1)) ;\n"
    "  int e2 = atomic_load_explicit(&ai[6], memory_order_acquire, memory_scope_device);\n"
    "  while (!atomic_compare_exchange_strong_explicit(&ai[6], &e2, e2 + 2, memory_order_acq_rel,\n"
    "                                                 memory_order_acquire, memory_scope_device)) ;\n"
    "  atomic_exchange(&ai[7], g);\n"
    "  atomic_fetch_add_explicit(&lai, 1, memory_order_relaxed, memory_scope_work_group);\n"
    "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);\n"
    "  /* float: exchange and compare-exchange (fetch ops need cl_ext_float_atomics) */\n"
    "  atomic_exchange(&af[0], 0.5f);\n"
    "  float fe = atomic_load(&af[1]);\n"
    "  while (!atomic_compare_exchange_weak(&af[1], &fe, fe + 1.0f)) ;\n"
    "  if (g == 0) atomic_store(&af[2], -2.5f);\n"
    "  /* a lock between work-groups (one item each holds it) */\n"
    "  if (l == 0) {\n"
    "    while (atomic_flag_test_and_set_explicit((global atomic_flag *)&ai[8], memory_order_acquire)) ;\n"
    "    plain[0] += 1;\n"
    "    atomic_flag_clear_explicit((global atomic_flag *)&ai[8], memory_order_release);\n"
    "  }\n"
    "  atomic_store_explicit(&ai[9], 42, memory_order_release, memory_scope_device);\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) res[get_group_id(0)] = atomic_load(&lai);\n"
    "}\n";

TEST(atomics_c11)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src_c11, "-cl-std=CL3.0");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  int ai[10] = {0, 0, 0, 5, -3, 100, 0, -1, 0, 0};
  uint32_t au[3] = {0, 0, 0xffffffffu};
  int64_t al[1] = {0};
  uint64_t aul[1] = {0};
  float af[3] = {0, 0, 0};
  int plain[1] = {0}, res[GROUPS];
  cl_mem m[7] = {mkbuf(ctx, sizeof(ai), ai), mkbuf(ctx, sizeof(au), au), mkbuf(ctx, sizeof(al), al),
                 mkbuf(ctx, sizeof(aul), aul), mkbuf(ctx, sizeof(af), af), mkbuf(ctx, sizeof(plain), plain),
                 mkbuf(ctx, sizeof(res), NULL)};
  for (int i = 0; i < 7; i++)
    ASSERT_OK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &m[i]));
  size_t g = ITEMS, l = LOCAL;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[0], CL_TRUE, 0, sizeof(ai), ai, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[1], CL_TRUE, 0, sizeof(au), au, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[2], CL_TRUE, 0, sizeof(al), al, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[3], CL_TRUE, 0, sizeof(aul), aul, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[4], CL_TRUE, 0, sizeof(af), af, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[5], CL_TRUE, 0, sizeof(plain), plain, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, m[6], CL_TRUE, 0, sizeof(res), res, 0, NULL, NULL));
  ASSERT_EQ(ai[0], ITEMS);
  ASSERT_EQ(ai[1], 2 * ITEMS);
  ASSERT_EQ(ai[2], -ITEMS);
  ASSERT_EQ(ai[3], -(ITEMS - 1));
  ASSERT_EQ(ai[4], ITEMS - 1);
  ASSERT_EQ(ai[5], 100 + ITEMS);
  ASSERT_EQ(ai[6], 2 * ITEMS);
  ASSERT_TRUE(ai[7] >= 0 && ai[7] < ITEMS);
  ASSERT_EQ(ai[8], 0); /* the flag is clear */
  ASSERT_EQ(ai[9], 42);
  ASSERT_EQ(au[0], 0xffffffffu);
  uint32_t x = 0;
  for (int i = 0; i < ITEMS; i++)
    x ^= (uint32_t)i;
  ASSERT_EQ(au[1], x);
  ASSERT_EQ(au[2], 0u);
  ASSERT_EQ(al[0], (int64_t)ITEMS * (ITEMS - 1) / 2 << 32);
  ASSERT_EQ(aul[0], (uint64_t)(ITEMS - 1));
  ASSERT_TRUE(af[0] == 0.5f);
  ASSERT_TRUE(af[1] == (float)ITEMS);
  ASSERT_TRUE(af[2] == -2.5f);
  ASSERT_EQ(plain[0], GROUPS);
  for (int i = 0; i < GROUPS; i++)
    ASSERT_EQ(res[i], LOCAL);
  for (int i = 0; i < 7; i++)
    clReleaseMemObject(m[i]);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* Streaming stores (compiler/cc_stream.c): the wide __global stores of a
 * lane loop get a !nontemporal twin behind the launch's flag and an
 * alignment test, the work-group function ends with an sfence when the flag
 * is set, kernels with atomics or fences are left alone, and stream_bytes
 * tells the runtime the bytes per work-item.  The work-group function is
 * also run here with the flag set, aligned and misaligned. */
#include "tests/compiler/wg_harness.h"

static const char vecadd[] =
    "kernel void vecadd(global const float *a, global const float *b, global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";

/* Wide stores need 256-bit vectors. */
static int wide(void)
{
  return ct_target_simd_bits() >= 256;
}

TEST(vecadd_stores_stream_behind_the_flag)
{
  if (!wide())
    tl_skip("wide stores need 256-bit vectors; the target has %u bits", ct_target_simd_bits());
  char *ir = optimized_ir(vecadd);
  unsigned nt = count_in_function(ir, "__lanecl_wg_vecadd", "!nontemporal");
  unsigned sfence = count_in_function(ir, "__lanecl_wg_vecadd", "@llvm.x86.sse.sfence");
  unsigned flag = count_in_function(ir, "__lanecl_wg_vecadd", "%stream.flags = load i32");
  unsigned test = count_in_function(ir, "__lanecl_wg_vecadd", "%nt.aligned");
  free(ir);
  ASSERT_TRUE(nt >= 1);
  ASSERT_TRUE(sfence >= 1);
  ASSERT_EQ(flag, 1);
  ASSERT_TRUE(test >= nt);  /* every streaming store behind an alignment test */

  wg_prog p;
  wg_build(vecadd, levels[0], &p);
  ASSERT_EQ(ct_kernel(&p.bin, "vecadd")->stream_bytes, 4);
  ASSERT_TRUE(p.asm_text && strstr(p.asm_text, "vmovntps"));
  ASSERT_TRUE(strstr(p.asm_text, "sfence") != NULL);
  wg_free(&p);
}

TEST(kernels_with_atomics_or_fences_do_not_stream)
{
  if (!wide())
    tl_skip("wide stores need 256-bit vectors; the target has %u bits", ct_target_simd_bits());
  const char *src =
      "kernel void withatomic(global const float *a, global float *c, global int *n) {\n"
      "  size_t i = get_global_id(0);\n"
      "  c[i] = a[i] * 2.0f;\n"
      "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
      "  if (get_local_id(0) == 0) atomic_inc(n);\n"
      "}\n"
      "kernel void withfence(global const float *a, global float *c) {\n"
      "  size_t i = get_global_id(0);\n"
      "  c[i] = a[i] * 2.0f;\n"
      "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
      "  if (get_local_id(0) == 0) { mem_fence(CLK_GLOBAL_MEM_FENCE); c[0] = 1.0f; }\n"
      "}\n"
      "kernel void tolocal(global const float *a, local float *t, global float *c) {\n"
      "  size_t l = get_local_id(0);\n"
      "  t[l] = a[get_global_id(0)];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  if (l == 0) c[get_group_id(0)] = t[get_local_size(0) - 1];\n"
      "}\n";
  char *ir = optimized_ir(src);
  unsigned a = count_in_function(ir, "__lanecl_wg_withatomic", "!nontemporal");
  unsigned a_rmw = count_in_function(ir, "__lanecl_wg_withatomic", "atomicrmw");
  unsigned a_wide = count_in_function(ir, "__lanecl_wg_withatomic", "store <");
  unsigned f = count_in_function(ir, "__lanecl_wg_withfence", "!nontemporal");
  unsigned f_fence = count_in_function(ir, "__lanecl_wg_withfence", "fence ");
  unsigned f_wide = count_in_function(ir, "__lanecl_wg_withfence", "store <");
  unsigned l = count_in_function(ir, "__lanecl_wg_tolocal", "!nontemporal");
  unsigned l_wide = count_in_function(ir, "__lanecl_wg_tolocal", "store <");
  free(ir);
  ASSERT_TRUE(a_rmw >= 1);
  ASSERT_TRUE(a_wide >= 1);  /* there was a wide store to stream */
  ASSERT_EQ(a, 0);
  ASSERT_TRUE(f_fence >= 1);
  ASSERT_TRUE(f_wide >= 1);
  ASSERT_EQ(f, 0);
  ASSERT_TRUE(l_wide >= 1);  /* the wide stores go to __local: not streamed */
  ASSERT_EQ(l, 0);

  wg_prog p;
  wg_build(src, levels[0], &p);
  ASSERT_EQ(ct_kernel(&p.bin, "withatomic")->stream_bytes, 0);
  ASSERT_EQ(ct_kernel(&p.bin, "withfence")->stream_bytes, 0);
  ASSERT_EQ(ct_kernel(&p.bin, "tolocal")->stream_bytes, 0);
  wg_free(&p);
}

/* A collective's chunk loops (fused scan, packed and spanned groups) stay
 * plain: they are cache-resident work that the test per store slowed, and at
 * memory speed already on larger data.  A kernel beside them in the program
 * still streams. */
TEST(collective_chunk_loops_do_not_stream)
{
  if (ct_target_simd_bits() != 512)
    tl_skip("the chunk loops need 16 x 32-bit lanes; the target has %u", ct_target_simd_bits() / 32);
  const char *src =
      "kernel void scan(global const int *a, global int *c) {\n"
      "  size_t i = get_global_id(0);\n"
      "  c[i] = work_group_scan_inclusive_add(a[i]);\n"
      "}\n"
      "kernel void red(global const int *a, global int *c) {\n"
      "  size_t i = get_global_id(0);\n"
      "  c[i] = work_group_reduce_add(a[i]);\n"
      "}\n"
      "kernel void add1(global const int *a, global int *c) {\n"
      "  size_t i = get_global_id(0);\n"
      "  c[i] = a[i] + 1;\n"
      "}\n";
  char *ir = optimized_ir(src);
  const char *names[] = {"scan", "red"};
  for (unsigned k = 0; k < 2; k++) {
    char fn[64];
    snprintf(fn, sizeof(fn), "__lanecl_wg_%s", names[k]);
    ASSERT_TRUE(count_in_function(ir, fn, "store <") >= 1); /* wide stores it would stream */
    ASSERT_EQ(count_in_function(ir, fn, "!nontemporal"), 0);
  }
  ASSERT_TRUE(count_in_function(ir, "__lanecl_wg_add1", "!nontemporal") >= 1);
  free(ir);
  wg_prog p;
  wg_build(src, levels[0], &p);
  ASSERT_EQ(ct_kernel(&p.bin, "scan")->stream_bytes, 0);
  ASSERT_EQ(ct_kernel(&p.bin, "red")->stream_bytes, 0);
  ASSERT_EQ(ct_kernel(&p.bin, "add1")->stream_bytes, 4);
  wg_free(&p);
}

TEST(opt_disable_does_not_stream)
{
  wg_prog p;
  wg_build(vecadd, levels[1], &p);
  ASSERT_EQ(ct_kernel(&p.bin, "vecadd")->stream_bytes, 0);
  ASSERT_TRUE(!p.asm_text || !strstr(p.asm_text, "vmovnt"));
  wg_free(&p);
}

TEST(two_outputs_count_both)
{
  if (!wide())
    tl_skip("wide stores need 256-bit vectors; the target has %u bits", ct_target_simd_bits());
  const char *src =
      "kernel void two(global const float *a, global float *c, global int *d) {\n"
      "  size_t i = get_global_id(0);\n"
      "  c[i] = a[i] + 1.0f;\n"
      "  d[i] = (int)a[i];\n"
      "}\n";
  wg_prog p;
  wg_build(src, levels[0], &p);
  ASSERT_EQ(ct_kernel(&p.bin, "two")->stream_bytes, 8);
  wg_free(&p);
}

/* Streaming stores only where they pay (issue 13).  A store to a buffer the
 * kernel also reads has no line read to save: the line is in cache, and a
 * streaming store evicts it (a read-modify-write of rows at a stride ran
 * 11x PoCL's time streamed, 4x faster without).  Each kernel here has a
 * wide store that streamed before; a plain copy beside them still does. */
TEST(read_modify_write_does_not_stream)
{
  if (!wide())
    tl_skip("wide stores need 256-bit vectors; the target has %u bits", ct_target_simd_bits());
  const char *src =
      "kernel void rows_rmw(global float *w, global const float *b) {\n"
      "  size_t j = get_global_id(0), i = get_global_id(1);\n"
      "  w[i * 17 + j] += b[j];\n"
      "}\n"
      "kernel void inc(global float *a, global const float *b) {\n"
      "  size_t i = get_global_id(0);\n"
      "  a[i] += b[i];\n"
      "}\n"
      "kernel void reread(global float *a, global float *c) {\n"
      "  size_t i = get_global_id(0);\n"
      "  c[i] = 2.0f * c[get_global_size(0) - 1 - i] + a[i];\n"
      "}\n"
      "kernel void copy(global const float *a, global float *c) {\n"
      "  size_t i = get_global_id(0);\n"
      "  c[i] = a[i];\n"
      "}\n";
  char *ir = optimized_ir(src);
  const char *rmw[] = {"__lanecl_wg_rows_rmw", "__lanecl_wg_inc", "__lanecl_wg_reread"};
  for (unsigned k = 0; k < 3; k++) {
    ASSERT_TRUE(count_in_function(ir, rmw[k], "store <") >= 1); /* a wide store it could stream */
    if (count_in_function(ir, rmw[k], "!nontemporal"))
      tl_fail(__FILE__, __LINE__, "%s streams a store to a buffer it reads", rmw[k]);
  }
  ASSERT_TRUE(count_in_function(ir, "__lanecl_wg_copy", "!nontemporal") >= 1);
  free(ir);

  wg_prog p;
  wg_build(src, levels[0], &p);
  ASSERT_EQ(ct_kernel(&p.bin, "rows_rmw")->stream_bytes, 0);
  ASSERT_EQ(ct_kernel(&p.bin, "inc")->stream_bytes, 0);
  ASSERT_EQ(ct_kernel(&p.bin, "reread")->stream_bytes, 0);
  ASSERT_EQ(ct_kernel(&p.bin, "copy")->stream_bytes, 4);
  wg_free(&p);
}

/* A store that does not fill whole lines along its loop does not stream: a
 * work-item's 16 floats every 17, or every 24 (the vectorizer makes them one
 * wide store per work-item: a gap after each, so the write-combining buffer
 * would leave with part of a line), nor rows of a 2D range that are 16
 * floats every 17 (each row starts mid-line after a gap).  Two stores that
 * fill a line between them (w[2i], w[2i+1]) and the rows of an image whose
 * pitch is the global size still stream. */
TEST(strided_and_partial_line_stores_do_not_stream)
{
  if (!wide())
    tl_skip("wide stores need 256-bit vectors; the target has %u bits", ct_target_simd_bits());
  const char *src =
      "kernel void st17(global const float *a, global float *w) {\n"
      "  size_t i = get_global_id(0);\n"
      "  float v = a[i];\n"
      "  for (int j = 0; j < 16; j++) w[i * 17 + j] = v + (float)j;\n"
      "}\n"
      "kernel void st24(global const float *a, global float *w) {\n"
      "  size_t i = get_global_id(0);\n"
      "  float v = a[i];\n"
      "  for (int j = 0; j < 16; j++) w[i * 24 + j] = v * (float)j;\n"
      "}\n"
      "kernel void rows(global float *w, global const float *b) {\n"
      "  size_t j = get_global_id(0), i = get_global_id(1);\n"
      "  w[i * 17 + j] = b[j] + (float)i;\n"
      "}\n"
      "kernel void pair(global const float *a, global float *w) {\n"
      "  size_t i = get_global_id(0);\n"
      "  w[2 * i] = a[i];\n"
      "  w[2 * i + 1] = -a[i];\n"
      "}\n"
      "kernel void image(global const float *a, global float *o) {\n"
      "  size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);\n"
      "  o[y * w + x] = a[y * w + x] * 2.0f;\n"
      "}\n";
  char *ir = optimized_ir(src);
  const char *strided[] = {"__lanecl_wg_st17", "__lanecl_wg_st24", "__lanecl_wg_rows"};
  for (unsigned k = 0; k < 3; k++) {
    ASSERT_TRUE(count_in_function(ir, strided[k], "store <") >= 1);
    if (count_in_function(ir, strided[k], "!nontemporal"))
      tl_fail(__FILE__, __LINE__, "%s streams a strided store", strided[k]);
  }
  unsigned pair_nt = count_in_function(ir, "__lanecl_wg_pair", "!nontemporal");
  unsigned image_nt = count_in_function(ir, "__lanecl_wg_image", "!nontemporal");
  free(ir);
  ASSERT_TRUE(pair_nt >= 1);
  ASSERT_TRUE(image_nt >= 1);

  wg_prog p;
  wg_build(src, levels[0], &p);
  ASSERT_EQ(ct_kernel(&p.bin, "st17")->stream_bytes, 0);
  ASSERT_EQ(ct_kernel(&p.bin, "st24")->stream_bytes, 0);
  ASSERT_EQ(ct_kernel(&p.bin, "rows")->stream_bytes, 0);
  ASSERT_EQ(ct_kernel(&p.bin, "pair")->stream_bytes, 4);
  ASSERT_EQ(ct_kernel(&p.bin, "image")->stream_bytes, 4);
  wg_free(&p);
}

/* Runs vecadd's work-group function with ctx.flags = LANECL_WG_STREAM over
 * n work-items in groups of local, storing at c + shift (shift 1: every
 * streaming store's address is misaligned, so each must take the plain
 * path; an unaligned vmovntps would fault). */
static void run_streaming(wg_prog *p, size_t n, size_t local, size_t shift)
{
  lanecl_wg_fn fn = (lanecl_wg_fn)dlsym(p->dl, LANECL_WG_PREFIX "vecadd");
  ASSERT_TRUE(fn != NULL);
  /* (aligned_alloc wants a size that is a multiple of the alignment) */
  size_t bytes = ((n + 64) * 4 + 63) & ~(size_t)63;
  float *a = aligned_alloc(64, bytes), *b = aligned_alloc(64, bytes);
  float *c = aligned_alloc(64, bytes);
  ASSERT_TRUE(a && b && c);
  for (size_t i = 0; i < n; i++) {
    a[i] = (float)i;
    b[i] = 0.5f * (float)(i % 1000);
  }
  memset(c, 0, (n + 64) * 4);
  float *cs = c + shift;
  void *va = a, *vb = b, *vc = cs;
  void *args[3] = {&va, &vb, &vc};
  size_t groups = (n + local - 1) / local;
  for (size_t g = 0; g < groups; g++) {
    lanecl_wg_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    ctx.group_id[0] = g;
    ctx.local_size[0] = n - g * local < local ? n - g * local : local;
    ctx.enqueued_local_size[0] = local;
    ctx.local_size[1] = ctx.local_size[2] = ctx.enqueued_local_size[1] = ctx.enqueued_local_size[2] = 1;
    ctx.num_groups[0] = groups;
    ctx.num_groups[1] = ctx.num_groups[2] = 1;
    ctx.global_size[0] = n;
    ctx.global_size[1] = ctx.global_size[2] = 1;
    ctx.work_dim = 1;
    ctx.flags = LANECL_WG_STREAM;
    ctx.group_count = 1;
    fn(args, &ctx);
  }
  for (size_t i = 0; i < shift; i++)
    ASSERT_TRUE(c[i] == 0.0f);
  for (size_t i = 0; i < n; i++)
    if (cs[i] != a[i] + b[i])
      tl_fail(__FILE__, __LINE__, "n %zu local %zu shift %zu: c[%zu] = %g, expected %g", n, local, shift, i,
              (double)cs[i], (double)(a[i] + b[i]));
  ASSERT_TRUE(cs[n] == 0.0f);
  free(a);
  free(b);
  free(c);
}

TEST(streaming_work_group_function_is_correct_aligned_or_not)
{
  wg_prog p;
  wg_build(vecadd, levels[0], &p);
  static const size_t cases[][2] = {{4096, 256}, {1000, 48}, {777, 13}, {5, 5}, {64, 64}, {100000, 1024}};
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
    for (size_t shift = 0; shift < 3; shift++)
      run_streaming(&p, cases[k][0], cases[k][1], shift);
  wg_free(&p);
}

/* Work-group collectives are lowered to in-register scans, not to a loop of
 * one work-item over the others: the optimized host IR of a scan kernel holds
 * the W-lane shuffle + op sequence of the combine helper, vectorized lane loops
 * around it, and no call to a work_group_* function is left. */
#include "tests/compiler/cc_test.h"

/* The optimized host IR (disassemble what = 2) of src, and the report of
 * its kernel k, built for dev (the test device, or another CPU model). */
static char *optimized_ir_for(const cc_device_desc *dev, const char *src)
{
  cc_blob out;
  char *log = NULL;
  int rc = ct_api()->build(dev, src, "-cl-std=CL2.0", &out, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "build failed (%d):\n%s", rc, log);
  free(log);
  char *text = NULL;
  ASSERT_EQ(ct_api()->disassemble(dev, &out, 2, &text), CC_OK);
  cc_blob_free(&out);
  return text;
}

static char *kernel_report_for(const cc_device_desc *dev, const char *src, const char *options)
{
  cc_blob out;
  char *log = NULL;
  int rc = ct_api()->build(dev, src, options, &out, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "build failed (%d):\n%s", rc, log);
  free(log);
  cc_binary bin;
  ASSERT_EQ(cc_binary_read(out.data, out.size, &bin), CC_OK);
  char *r = strdup(ct_kernel(&bin, "k")->report);
  cc_binary_free(&bin);
  cc_blob_free(&out);
  return r;
}

static char *optimized_ir(const char *src)
{
  return optimized_ir_for(ct_dev(), src);
}

static char *kernel_report(const char *src, const char *options)
{
  return kernel_report_for(ct_dev(), src, options);
}

/* The text of function name's definition in ir (NULL if not defined there). */
__attribute__((noinline)) static char *function_text(const char *ir, const char *name)
{
  char pat[256];
  snprintf(pat, sizeof(pat), "@%s(", name);
  for (const char *p = strstr(ir, "define "); p; p = strstr(p + 1, "\ndefine ")) {
    const char *eol = strchr(p, '\n');
    const char *hit = strstr(p, pat);
    if (hit && eol && hit < eol) {
      const char *end = strstr(p, "\n}\n");
      size_t n = end ? (size_t)(end - p) + 2 : strlen(p);
      char *f = malloc(n + 1);
      memcpy(f, p, n);
      f[n] = 0;
      return f;
    }
  }
  return NULL;
}

/* The combine helpers work on chunks of one 512-bit vector (16 x 32-bit,
 * 8 x 64-bit: builtins/collectives.cl) whatever the target; a scan fused
 * into the lane loops on a CPU of slow 512-bit shuffles (znver4) scans
 * 256 bits at a time.  The lane loops around them are as wide as the
 * target's vectors; the back end puts the chunk in one zmm register on
 * AVX-512 and in two ymm registers on AVX2. */
static void check_type(const char *ty, const char *llty, unsigned bits, const char *op)
{
  char src[512];
  snprintf(src, sizeof(src),
           "%s__kernel void k(__global const %s *in, __global %s *out) {\n"
           "  size_t i = get_global_id(0); out[i] = work_group_scan_inclusive_add(in[i]); }\n",
           !strcmp(ty, "double") ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "", ty, ty);
  char *ir = optimized_ir(src);
  char *rep = kernel_report(src, "-cl-std=CL2.0");
  unsigned tbits = ct_target_simd_bits();
  unsigned w = tbits / bits, chunk = (strstr(rep, "in 256-bit pieces") ? 256 : 512) / bits;
  char vec[64], shuf[96], vop[96];
  snprintf(vec, sizeof(vec), "<%u x %s>", w, llty);
  snprintf(shuf, sizeof(shuf), "shufflevector <%u x %s>", chunk, llty);
  snprintf(vop, sizeof(vop), "%s <%u x %s>", op, chunk, llty);
  /* The kernel's call is gone. */
  if (strstr(ir, "work_group_scan"))
    tl_fail(__FILE__, __LINE__, "%s: a work_group_* call is left in the optimized IR", ty);
  /* The combine code (inlined or a helper): chunk-wide shuffles and vector ops. */
  ASSERT_CONTAINS(ir, shuf);
  ASSERT_CONTAINS(ir, vop);
  /* The work-group function's lane loops are vector loops of the target's width. */
  char *wg = function_text(ir, "__lanecl_wg_k");
  ASSERT_TRUE(wg != NULL);
  ASSERT_CONTAINS(wg, vec);
  free(wg);
  free(ir);
  free(rep);
  /* In the target's registers: zmm with AVX-512, else ymm and no zmm. */
  cc_blob out;
  char *log = NULL, *text = NULL;
  ASSERT_EQ(ct_api()->build(ct_dev(), src, "-cl-std=CL2.0", &out, &log), CC_OK);
  free(log);
  ASSERT_EQ(ct_api()->disassemble(ct_dev(), &out, 1, &text), CC_OK);
  cc_blob_free(&out);
  if (tbits >= 512) {
    ASSERT_CONTAINS(text, "zmm");
  } else {
    ASSERT_CONTAINS(text, tbits == 256 ? "ymm" : "xmm");
    if (strstr(text, "zmm"))
      tl_fail(__FILE__, __LINE__, "%s: zmm registers in code for a %u-bit target", ty, tbits);
  }
  free(text);
}

TEST(scan_int_is_in_register) { check_type("int", "i32", 32, "add"); }
TEST(scan_long_is_in_register) { check_type("long", "i64", 64, "add"); }
TEST(scan_float_is_in_register) { check_type("float", "float", 32, "fadd"); }
TEST(scan_double_is_in_register) { check_type("double", "double", 64, "fadd"); }

/* A scan whose region before it writes nothing that other work-items can see
 * runs fused with it, chunk by chunk: the chunk helper is inlined into the
 * work-group function (no call left), and the chunk's operands never go
 * through ctx->coll_buf.  Tuned for a CPU that runs 512-bit shuffles at full
 * rate (skylake-avx512), a chunk is 16 lanes; for znver4 (512-bit shuffles
 * at half the rate of 256-bit ones) 8 lanes, scanned in 256-bit registers.
 * Either way the carry advances by one vpermd of the chunk's last lane
 * (cc_wg_late_shuffles), not the two shuffles x86 lowering picks. */
TEST(scan_fused_into_lane_loops)
{
  /* Each CPU with its own features (AVX-512), whatever the host: the code
   * is only built and read. */
  static const char src[] = "__kernel void k(__global const int *in, __global int *out) {\n"
                            "  size_t i = get_global_id(0); out[i] = work_group_scan_exclusive_min(in[i] * 3); }\n";
  static const struct {
    const char *cpu, *report, *vec, *permd, *spanned;
  } cases[] = {
    {"skylake-avx512", "region 1 run fused, 16 work-items at a time (groups of one dimension, or of rows of a multiple of 16)\n",
     "shufflevector <16 x i32>", "@llvm.x86.avx512.permvar.si.512(<16 x i32>",
     "larger groups of a multiple of 16 work-items run their chunks one group after the other"},
    {"znver4", "region 1 run fused, 8 work-items at a time (groups of one dimension, or of rows of a multiple of 8), the scan "
     "in 256-bit pieces\n",
     "shufflevector <8 x i32>", "@llvm.x86.avx2.permd(<8 x i32>",
     "larger groups of a multiple of 8 work-items run their chunks one group after the other"},
  };
  for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    cc_device_desc dev = *ct_dev();
    dev.cpu_name = cases[c].cpu;
    dev.cpu_features = CT_AVX512_FEATURES;
    dev.simd_bits = 512;
    char *rep = kernel_report_for(&dev, src, "-cl-std=CL2.0");
    ASSERT_CONTAINS(rep, "region 0, work_group_scan_exclusive_min #1 and ");
    ASSERT_CONTAINS(rep, cases[c].report);
    ASSERT_CONTAINS(rep, "groups of 1, 2, 4, 8 or 16 work-items run 16 / size at a time");
    ASSERT_CONTAINS(rep, cases[c].spanned);
    free(rep);
    char *ir = optimized_ir_for(&dev, src);
    char *wg = function_text(ir, "__lanecl_wg_k");
    ASSERT_TRUE(wg != NULL);
    if (strstr(wg, "call void @__lanecl_wg_"))
      tl_fail(__FILE__, __LINE__, "%s: a combine helper is still called:\n%s", cases[c].cpu, wg);
    ASSERT_CONTAINS(wg, cases[c].vec);
    ASSERT_CONTAINS(wg, cases[c].permd);
    free(wg);
    free(ir);
    /* Not at -cl-opt-disable (that level runs the unfused form). */
    rep = kernel_report_for(&dev, src, "-cl-std=CL2.0 -cl-opt-disable");
    if (strstr(rep, "run fused"))
      tl_fail(__FILE__, __LINE__, "fused at -cl-opt-disable:\n%s", rep);
    free(rep);
  }
}

/* Reduce, all and any run packed small groups too (no fused path for large
 * groups: every operand comes before any result). */
TEST(reduce_packs_small_groups)
{
  if (ct_target_simd_bits() != 512)
    tl_skip("packed groups need 16 x 32-bit lanes; the target has %u", ct_target_simd_bits() / 32);
  static const char *srcs[] = {
    "__kernel void k(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_reduce_add(in[i]); }\n",
    "__kernel void k(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0); out[i] = work_group_any(in[i] > 3); }\n",
  };
  static const char *what[] = {"work_group_reduce_add #1", "work_group_any #1"};
  for (unsigned i = 0; i < 2; i++) {
    char *rep = kernel_report(srcs[i], "-cl-std=CL2.0");
    char want[160];
    snprintf(want, sizeof(want), "work-items run 16 / size at a time through region 0, %s and region 1", what[i]);
    ASSERT_CONTAINS(rep, want);
    ASSERT_CONTAINS(rep, "groups of 1, 2, 4, 8 or 16 work-items");
    if (strstr(rep, "run fused"))
      tl_fail(__FILE__, __LINE__, "a reduce fused for large groups:\n%s", rep);
    free(rep);
  }
  /* 64-bit operands: 8 per register, so groups of up to 8. */
  char *rep = kernel_report("__kernel void k(__global const long *in, __global long *out) {\n"
                            "  size_t i = get_global_id(0); out[i] = work_group_reduce_max(in[i]); }\n",
                            "-cl-std=CL2.0");
  ASSERT_CONTAINS(rep, "groups of 1, 2, 4 or 8 work-items run 16 / size at a time");
  free(rep);
}

/* A broadcast whose local ids are constants keeps nothing per work-item
 * (the work-group function knows the ids); one with a computed id keeps
 * each work-item's copy of it in the frame. */
TEST(broadcast_constant_id_keeps_no_frame)
{
  char *rep = kernel_report("__kernel void k(__global const int *in, __global int *out) {\n"
                            "  size_t i = get_global_id(0); out[i] = work_group_broadcast(in[i], 3); }\n",
                            "-cl-std=CL2.0");
  ASSERT_CONTAINS(rep, "frame 0 bytes per work-item");
  free(rep);
  rep = kernel_report("__kernel void k(__global const int *in, __global int *out, uint s) {\n"
                      "  size_t i = get_global_id(0); out[i] = work_group_broadcast(in[i], s); }\n",
                      "-cl-std=CL2.0");
  ASSERT_CONTAINS(rep, "frame 8 bytes per work-item");
  free(rep);
}

/* Regions that write __local or __global memory before a scan keep the
 * unfused order: every work-item reaches the scan before any goes on. */
TEST(scan_not_fused_after_shared_writes)
{
  static const char *srcs[] = {
    "__kernel void k(__global const int *in, __global int *out) {\n"
    "  __local int t[64]; size_t l = get_local_id(0); t[l] = in[l];\n"
    "  int s = work_group_scan_inclusive_add(t[l]); out[l] = s + t[63 - l]; }\n",
    "__kernel void k(__global int *io) {\n"
    "  size_t i = get_global_id(0); io[i + 1] = 1;\n"
    "  io[i] = work_group_scan_inclusive_add((int)i); }\n",
    "__kernel void k(__global int *io) {\n"
    "  size_t i = get_global_id(0); atomic_inc(io);\n"
    "  io[i + 1] = work_group_scan_inclusive_add((int)i); }\n",
  };
  for (unsigned i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
    char *rep = kernel_report(srcs[i], "-cl-std=CL2.0");
    if (strstr(rep, "run fused"))
      tl_fail(__FILE__, __LINE__, "kernel %u fused:\n%s", i, rep);
    ASSERT_CONTAINS(rep, "work_group_scan_inclusive_add #1");
    free(rep);
  }
}

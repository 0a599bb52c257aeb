/* Work-group collectives are lowered to in-register scans, not to a loop of
 * one work-item over the others: the optimized host IR of a scan kernel holds
 * the W-lane shuffle + op sequence of the combine helper, vectorized lane loops
 * around it, and no call to a work_group_* function is left. */
#include "tests/compiler/cc_test.h"

/* The optimized host IR (disassemble what = 2) of src. */
static char *optimized_ir(const char *src)
{
  cc_blob out;
  char *log = NULL;
  int rc = ct_api()->build(ct_dev(), src, "-cl-std=CL2.0", &out, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "build failed (%d):\n%s", rc, log);
  free(log);
  char *text = NULL;
  ASSERT_EQ(ct_api()->disassemble(ct_dev(), &out, 2, &text), CC_OK);
  cc_blob_free(&out);
  return text;
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

static void check_type(const char *ty, const char *llty, unsigned bits, const char *op)
{
  char src[512];
  snprintf(src, sizeof(src),
           "%s__kernel void k(__global const %s *in, __global %s *out) {\n"
           "  size_t i = get_global_id(0); out[i] = work_group_scan_inclusive_add(in[i]); }\n",
           !strcmp(ty, "double") ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "", ty, ty);
  char *ir = optimized_ir(src);
  unsigned w = ct_dev()->simd_bits / bits;
  char vec[64], shuf[96], vop[96];
  snprintf(vec, sizeof(vec), "<%u x %s>", w, llty);
  snprintf(shuf, sizeof(shuf), "shufflevector <%u x %s>", w, llty);
  snprintf(vop, sizeof(vop), "%s <%u x %s>", op, w, llty);
  /* The kernel's call is gone. */
  if (strstr(ir, "work_group_scan"))
    tl_fail(__FILE__, __LINE__, "%s: a work_group_* call is left in the optimized IR", ty);
  /* The combine code (inlined or a helper): W-lane shuffles and vector ops. */
  ASSERT_CONTAINS(ir, shuf);
  ASSERT_CONTAINS(ir, vop);
  /* The work-group function's lane loops are vector loops. */
  char *wg = function_text(ir, "__lanecl_wg_k");
  ASSERT_TRUE(wg != NULL);
  ASSERT_CONTAINS(wg, vec);
  free(wg);
  free(ir);
}

TEST(scan_int_is_in_register) { check_type("int", "i32", 32, "add"); }
TEST(scan_long_is_in_register) { check_type("long", "i64", 64, "add"); }
TEST(scan_float_is_in_register) { check_type("float", "float", 32, "fadd"); }
TEST(scan_double_is_in_register) { check_type("double", "double", 64, "fadd"); }

/* Build and link through the cc API down to native code: the executable
 * container, its ELF shared object with __lanecl_wg_<kernel>, one work-group
 * run through the work-group ABI, link errors, disassembly, build time. */
#include "tests/compiler/cc_test.h"

#include <unistd.h>

static int build(const char *src, const char *options, cc_blob *out, char **log)
{
  return ct_api()->build(ct_dev(), src, options, out, log);
}

static void build_read(const char *src, const char *options, cc_binary *bin)
{
  cc_blob out;
  char *log = NULL;
  int rc = build(src, options, &out, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "build failed (%d):\n%s", rc, log);
  free(log);
  ASSERT_EQ(cc_binary_read(out.data, out.size, bin), CC_OK);
  cc_blob_free(&out);
}

/* Loads the container's shared object; returns the dlopen handle. */
static void *load_native(const cc_binary *bin)
{
  char path[] = "/tmp/lanecl-test-native-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(fd >= 0);
  ASSERT_EQ(write(fd, bin->native.data, bin->native.size), (long long)bin->native.size);
  close(fd);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  unlink(path);
  if (!h)
    tl_fail(__FILE__, __LINE__, "dlopen of the kernels' shared object: %s", dlerror());
  return h;
}

static lanecl_wg_fn wg_function(void *h, const char *kernel)
{
  char name[256];
  snprintf(name, sizeof(name), LANECL_WG_PREFIX "%s", kernel);
  lanecl_wg_fn fn = (lanecl_wg_fn)dlsym(h, name);
  if (!fn)
    tl_fail(__FILE__, __LINE__, "%s is not exported", name);
  return fn;
}

/* One 1-D work-group of n work-items, group 0. */
static void run_group(lanecl_wg_fn fn, void *const *args, size_t n, void *const *local_args)
{
  static uint64_t frame[1 << 16];
  static uint64_t coll[1 << 14];
  lanecl_wg_ctx ctx = {0};
  for (int d = 0; d < 3; d++) {
    ctx.local_size[d] = ctx.enqueued_local_size[d] = d ? 1 : n;
    ctx.num_groups[d] = 1;
    ctx.global_size[d] = d ? 1 : n;
  }
  ctx.work_dim = 1;
  ctx.frame = frame;
  ctx.coll_buf = coll;
  ctx.local_args = local_args;
  fn(args, &ctx);
}

TEST(executable_with_native_code)
{
  const char *src = "typedef struct { int a; float b; } S;\n"
                    "kernel void fill(global int *out, int v, S s) { out[get_global_id(0)] = v + s.a + get_global_id(0); }\n"
                    "kernel void twice(global float *x) { x[get_global_id(0)] *= 2.0f; }\n";
  cc_binary bin;
  build_read(src, "", &bin);
  ASSERT_EQ(bin.kind, CC_BIN_EXECUTABLE);
  ASSERT_EQ(bin.nkernels, 2);
  ASSERT_TRUE(bin.bitcode.size > 0);
  ASSERT_TRUE(bin.native.size > 64);
  ASSERT_TRUE(!memcmp(bin.native.data, "\x7f" "ELF", 4));
  for (uint32_t i = 0; i < bin.nkernels; i++)
    ASSERT_TRUE(bin.kernels[i].simd_width >= 1);
  void *h = load_native(&bin);
  int out[16] = {0};
  int *outp = out, v = 100;
  struct { int a; float b; } s = {5, 0};
  void *args[] = {&outp, &v, &s};
  run_group(wg_function(h, "fill"), args, 16, NULL);
  for (int i = 0; i < 16; i++)
    ASSERT_EQ(out[i], 105 + i);
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  float *xp = x;
  void *args2[] = {&xp};
  run_group(wg_function(h, "twice"), args2, 8, NULL);
  for (int i = 0; i < 8; i++)
    ASSERT_EQ(x[i], 2 * (i + 1));
  /* Only the work-group functions leave the object. */
  ASSERT_TRUE(dlsym(h, "fill") == NULL);
  dlclose(h);
  cc_binary_free(&bin);
}

TEST(static_local_memory_is_per_group)
{
  const char *src = "kernel void rev(global int *p) {\n"
                    "  local int t[64];\n"
                    "  size_t i = get_local_id(0), n = get_local_size(0);\n"
                    "  t[i] = p[i]; barrier(CLK_LOCAL_MEM_FENCE); p[i] = t[n - 1 - i];\n"
                    "}\n";
  cc_binary bin;
  build_read(src, "", &bin);
  ASSERT_EQ(bin.kernels[0].local_mem_bytes, 256);
  void *h = load_native(&bin);
  int p[64];
  for (int i = 0; i < 64; i++)
    p[i] = i;
  int *pp = p;
  void *args[] = {&pp};
  run_group(wg_function(h, "rev"), args, 64, NULL);
  for (int i = 0; i < 64; i++)
    ASSERT_EQ(p[i], 63 - i);
  dlclose(h);
  cc_binary_free(&bin);
}

TEST(opaque_types_are_handles)
{
  /* Events (async copies) and samplers/images are clang target types on
   * SPIR; they must reach native code as pointers. */
  const char *src = "kernel void cp(global int *g, local int *l) {\n"
                    "  event_t e = async_work_group_copy(l, g, 16, 0);\n"
                    "  wait_group_events(1, &e);\n"
                    "  g[get_local_id(0)] = l[15 - get_local_id(0)];\n"
                    "}\n"
                    "kernel void img(read_only image2d_t im, sampler_t s, global float4 *o) {\n"
                    "  o[0] = read_imagef(im, s, (int2)(0, 0));\n"
                    "}\n";
  cc_blob out;
  char *log = NULL;
  int rc = build(src, "-cl-std=CL3.0", &out, &log);
  /* The builtins library may not implement these yet: then the log names them. */
  if (rc != CC_OK) {
    ASSERT_EQ(rc, CC_BUILD_FAILED);
    ASSERT_CONTAINS(log, "undefined function");
    ASSERT_TRUE(strstr(log, "internal error") == NULL);
  } else {
    cc_blob_free(&out);
  }
  free(log);
}

TEST(undefined_function_is_a_build_error)
{
  const char *src = "float my_missing(float x);\n"
                    "float __attribute__((overloadable)) ovl(float x);\n"
                    "kernel void k(global float *p) { p[0] = my_missing(p[1]) + ovl(p[2]); }\n";
  cc_blob out = {0};
  char *log = NULL;
  ASSERT_EQ(build(src, "", &out, &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "undefined function my_missing: not provided by LaneCL's builtins library");
  ASSERT_CONTAINS(log, "undefined function _Z3ovlf: not provided");
  ASSERT_TRUE(out.data == NULL);
  free(log);
}

TEST(libm_functions_may_stay_undefined)
{
  /* The builtins library may call libm (erf, erff, modf, sinf, ...): the
   * kernels' shared object names libm, and dlopen resolves them. */
  const char *src = "double erf(double); float erff(float); double modf(double, double *);\n"
                    "kernel void k(global double *p, global float *q) {\n"
                    "  double i; p[0] = erf(p[1]) + modf(p[2], &i) + i; q[0] = erff(q[1]);\n"
                    "}\n";
  cc_binary bin;
  build_read(src, "-cl-std=CL3.0", &bin);
  void *h = load_native(&bin);
  double p[3] = {0, 0.5, 2.25};
  float q[2] = {0, 0.5f};
  double *pp = p;
  float *qp = q;
  void *args[] = {&pp, &qp};
  run_group(wg_function(h, "k"), args, 1, NULL);
  ASSERT_TRUE(p[0] > 0.5204 + 2.25 - 1e-3 && p[0] < 0.5205 + 2.25 + 1e-3);
  ASSERT_TRUE(q[0] > 0.5204f && q[0] < 0.5205f);
  dlclose(h);
  cc_binary_free(&bin);
}

/* min, max, clamp and select are declared by the front end's prelude
 * (compiler/cc_prelude.c), every overload: the vector-with-scalar forms, both
 * signednesses of select's mask, char to double, resolve to the builtins and
 * compute what the spec says. */
TEST(min_max_clamp_select_every_form)
{
  const char *src =
    "kernel void k(global int *o, global float *f, global double *d, global long *l) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  int4 v = (int4)(i - 8, i, 2 * i, -i);\n"
    "  int4 a = clamp(v, -3, 5) + min(v, 4) + max(v, (int4)(1)) + clamp(v, (int4)(-1), (int4)(2));\n"
    "  o[i * 8 + 0] = a.x; o[i * 8 + 1] = a.y; o[i * 8 + 2] = a.z; o[i * 8 + 3] = a.w;\n"
    "  o[i * 8 + 4] = clamp((uchar)(i * 20), (uchar)10, (uchar)200);\n"
    "  o[i * 8 + 5] = max((char)(i - 8), (char)-3) + min((short)(i * 1000), (short)9000);\n"
    "  int4 s = select(v, -v, v > 4) + select((int4)(7), (int4)(9), (uint4)(i & 1 ? 0x80000000u : 0u));\n"
    "  o[i * 8 + 6] = s.x + s.y * 3 + s.z * 5 + s.w * 7;\n"
    "  o[i * 8 + 7] = select(11, 22, i - 5) + (int)select((ushort)3, (ushort)4, (ushort)(i & 2));\n"
    "  float4 fv = (float4)(i) * 0.5f;\n"
    "  float4 fc = clamp(fv, 1.0f, 3.0f) + min(fv, 2.0f) + max(fv, (float4)(0.75f)) + select(fv, -fv, v > 4);\n"
    "  f[i] = fc.x + fc.y * 10.0f + fc.z * 100.0f + fc.w * 1000.0f;\n"
    "  d[i] = clamp((double)i * 0.25, 0.5, 2.0) + min((double2)(i), 3.0).y;\n"
    "  l[i] = max((long)i << 40, 3L) + min((ulong)i, 5UL) + clamp((long2)(i), -1L, 4L).x;\n"
    "}\n";
  cc_binary bin;
  build_read(src, "-cl-std=CL3.0", &bin);
  void *h = load_native(&bin);
  enum { N = 16 };
  int o[N * 8];
  float f[N];
  double d[N];
  long long l[N];
  int *op = o;
  float *fp = f;
  double *dp = d;
  long long *lp = l;
  void *args[] = {&op, &fp, &dp, &lp};
  run_group(wg_function(h, "k"), args, N, NULL);
#define CLAMP(x, a, b) ((x) < (a) ? (a) : (x) > (b) ? (b) : (x))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
  for (int i = 0; i < N; i++) {
    int v[4] = {i - 8, i, 2 * i, -i}, s[4];
    for (int c = 0; c < 4; c++) {
      ASSERT_EQ(o[i * 8 + c], CLAMP(v[c], -3, 5) + MIN(v[c], 4) + MAX(v[c], 1) + CLAMP(v[c], -1, 2));
      s[c] = (v[c] > 4 ? -v[c] : v[c]) + (i & 1 ? 9 : 7);
    }
    ASSERT_EQ(o[i * 8 + 4], CLAMP((i * 20) & 255, 10, 200));
    ASSERT_EQ(o[i * 8 + 5], MAX(i - 8, -3) + MIN(i * 1000, 9000));
    ASSERT_EQ(o[i * 8 + 6], s[0] + s[1] * 3 + s[2] * 5 + s[3] * 7);
    /* scalar select: b where c is not zero */
    ASSERT_EQ(o[i * 8 + 7], (i - 5 ? 22 : 11) + (i & 2 ? 4 : 3));
    float fc[4];
    for (int c = 0; c < 4; c++) {
      float x = i * 0.5f;
      fc[c] = CLAMP(x, 1.0f, 3.0f) + MIN(x, 2.0f) + MAX(x, 0.75f) + (v[c] > 4 ? -x : x);
    }
    ASSERT_EQ(f[i], fc[0] + fc[1] * 10.0f + fc[2] * 100.0f + fc[3] * 1000.0f);
    ASSERT_EQ(d[i], CLAMP(i * 0.25, 0.5, 2.0) + MIN((double)i, 3.0));
    ASSERT_EQ(l[i], MAX((long long)i << 40, 3LL) + MIN(i, 5) + CLAMP(i, -1, 4));
  }
#undef CLAMP
#undef MIN
#undef MAX
  dlclose(h);
  cc_binary_free(&bin);
}

/* What the prelude's declarations change for programs: a function of one of
 * these names must be overloadable (as with any full declaration header);
 * macros of these names, in the source or on the command line, still work. */
TEST(functions_and_macros_named_min_max_clamp_select)
{
  cc_blob out = {0};
  char *log = NULL;
  ASSERT_EQ(build("int max(int a, int b) { return a > b ? a : b; }\n"
                  "kernel void k(global int *p) { p[0] = max(p[1], 3); }\n",
                  "", &out, &log),
            CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "redeclaration of 'max' must have the 'overloadable' attribute");
  free(log);
  const char *ok[][2] = {
    {"int __attribute__((overloadable)) max(int a, int b, int c) { return max(max(a, b), c); }\n"
     "kernel void k(global int *p) { p[0] = max(p[1], 3, p[2]); }\n", ""},
    {"#define min(a, b) ((a) < (b) ? (a) : (b))\n"
     "kernel void k(global int *p) { p[0] = min(p[1], 3) + clamp(p[2], 0, 4); }\n", ""},
    {"int my_select(int a, int b, int c) { return c ? b : a; }\n"
     "kernel void k(global int *p) { p[0] = select(p[1], 3, p[2]) + max(p[1], 1); }\n", "-Dselect=my_select"},
    {"kernel void k(global int *p) { p[0] = clamp(p[1], 1, 2); }\n", "-Dclamp(x,a,b)=((x)+(a)+(b))"},
  };
  for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
    cc_binary bin;
    build_read(ok[i][0], ok[i][1], &bin);
    void *h = load_native(&bin);
    int p[3] = {0, 5, 7};
    int *pp = p;
    void *args[] = {&pp};
    run_group(wg_function(h, "k"), args, 1, NULL);
    static const int want[] = {7, 3 + 4, 3 + 5, 5 + 1 + 2};
    ASSERT_EQ(p[0], want[i]);
    dlclose(h);
    cc_binary_free(&bin);
  }
}

TEST(front_end_errors_fail_the_build)
{
  cc_blob out = {0};
  char *log = NULL;
  ASSERT_EQ(build("kernel void k(global int *p) { p[0] = ; }", "", &out, &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "<source>:1:39: error");
  free(log);
}

TEST(opt_disable_builds_and_runs)
{
  const char *src = "int sq(int x) { return x * x; }\n"
                    "kernel void k(global int *p) { size_t i = get_global_id(0); p[i] = sq((int)i); }\n";
  cc_binary bin;
  build_read(src, "-cl-opt-disable", &bin);
  ASSERT_EQ(bin.kernels[0].flags & CC_KFLAG_OPT_DISABLE, CC_KFLAG_OPT_DISABLE);
  void *h = load_native(&bin);
  int p[32] = {0};
  int *pp = p;
  void *args[] = {&pp};
  run_group(wg_function(h, "k"), args, 32, NULL);
  for (int i = 0; i < 32; i++)
    ASSERT_EQ(p[i], i * i);
  dlclose(h);
  cc_binary_free(&bin);
}

static void compile_ok(const char *src, const char *opts, cc_blob *out)
{
  char *log = NULL;
  int rc = ct_compile(src, opts, out, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "compile: %d\n%s", rc, log);
  free(log);
}

TEST(link_objects_library_and_executable)
{
  cc_blob objs[2], lib, exe;
  compile_ok("int helper(int x) { return x + 1000; }\n", "", &objs[0]);
  compile_ok("int helper(int x);\nkernel void k(global int *p) { p[get_global_id(0)] = helper((int)get_global_id(0)); }\n",
             "-cl-kernel-arg-info", &objs[1]);
  char *log = NULL;
  /* objects -> library */
  ASSERT_EQ(ct_api()->link(ct_dev(), objs, 2, "-create-library", 1, &lib, &log), CC_OK);
  free(log);
  cc_binary bin;
  ASSERT_EQ(cc_binary_read(lib.data, lib.size, &bin), CC_OK);
  ASSERT_EQ(bin.kind, CC_BIN_LIBRARY);
  ASSERT_EQ(bin.nkernels, 1);
  ASSERT_EQ(bin.native.size, 0);
  ASSERT_EQ(bin.kernels[0].flags & CC_KFLAG_ARG_INFO, CC_KFLAG_ARG_INFO);
  cc_binary_free(&bin);
  /* library -> executable */
  int rc = ct_api()->link(ct_dev(), &lib, 1, "", 0, &exe, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "link: %d\n%s", rc, log);
  free(log);
  ASSERT_EQ(cc_binary_read(exe.data, exe.size, &bin), CC_OK);
  ASSERT_EQ(bin.kind, CC_BIN_EXECUTABLE);
  void *h = load_native(&bin);
  int p[8] = {0};
  int *pp = p;
  void *args[] = {&pp};
  run_group(wg_function(h, "k"), args, 8, NULL);
  for (int i = 0; i < 8; i++)
    ASSERT_EQ(p[i], 1000 + i);
  dlclose(h);
  cc_binary_free(&bin);
  cc_blob_free(&exe);
  /* -create-library in the options also makes a library */
  ASSERT_EQ(ct_api()->link(ct_dev(), objs, 2, "-create-library", 0, &exe, &log), CC_OK);
  ASSERT_EQ(cc_binary_read(exe.data, exe.size, &bin), CC_OK);
  ASSERT_EQ(bin.kind, CC_BIN_LIBRARY);
  cc_binary_free(&bin);
  cc_blob_free(&exe);
  free(log);
  cc_blob_free(&lib);
  cc_blob_free(&objs[0]);
  cc_blob_free(&objs[1]);
}

TEST(link_errors)
{
  cc_blob a, b, c, out = {0};
  compile_ok("int helper(int x) { return x; }\nkernel void k1(global int *p) { p[0] = helper(1); }\n", "", &a);
  compile_ok("int helper(int x) { return -x; }\nkernel void k2(global int *p) { p[0] = 2; }\n", "", &b);
  compile_ok("int absent(int x);\nkernel void k3(global int *p) { p[0] = absent(3); }\n", "", &c);
  char *log = NULL;
  cc_blob ab[2] = {a, b};
  ASSERT_EQ(ct_api()->link(ct_dev(), ab, 2, "", 0, &out, &log), CC_LINK_FAILED);
  ASSERT_CONTAINS(log, "helper");
  ASSERT_TRUE(out.data == NULL);
  free(log);
  ASSERT_EQ(ct_api()->link(ct_dev(), ab, 2, "-create-library", 1, &out, &log), CC_LINK_FAILED);
  free(log);
  /* A library may leave functions undefined; an executable may not. */
  ASSERT_EQ(ct_api()->link(ct_dev(), &c, 1, "-create-library", 1, &out, &log), CC_OK);
  cc_blob_free(&out);
  free(log);
  ASSERT_EQ(ct_api()->link(ct_dev(), &c, 1, "", 0, &out, &log), CC_LINK_FAILED);
  ASSERT_CONTAINS(log, "undefined function absent:");
  free(log);
  ASSERT_EQ(ct_api()->link(ct_dev(), NULL, 0, "", 0, &out, &log), CC_LINK_FAILED);
  free(log);
  cc_blob_free(&a);
  cc_blob_free(&b);
  cc_blob_free(&c);
}

TEST(link_time_math_options)
{
  cc_blob obj, out;
  compile_ok("kernel void k(global float *p) { p[0] = p[1] * p[2] + p[3]; }\n", "", &obj);
  char *log = NULL, *text = NULL;
  ASSERT_EQ(ct_api()->link(ct_dev(), &obj, 1, "-cl-fast-relaxed-math -create-library", 1, &out, &log), CC_OK);
  free(log);
  ASSERT_EQ(ct_api()->disassemble(ct_dev(), &out, 0, &text), CC_OK);
  ASSERT_CONTAINS(text, "call fast float @llvm.fmuladd.f32");
  ASSERT_CONTAINS(text, "\"unsafe-fp-math\"=\"true\"");
  free(text);
  cc_blob_free(&out);
  cc_blob_free(&obj);
}

TEST(disassemble_ir_and_assembly)
{
  cc_blob out;
  char *log = NULL, *text = NULL;
  ASSERT_EQ(build("kernel void k(global int *p) { p[get_global_id(0)] = 7; }", "", &out, &log), CC_OK);
  free(log);
  ASSERT_EQ(ct_api()->disassemble(ct_dev(), &out, 0, &text), CC_OK);
  ASSERT_CONTAINS(text, "spir_kernel void @k(");
  ASSERT_CONTAINS(text, "spir64");
  free(text);
  ASSERT_EQ(ct_api()->disassemble(ct_dev(), &out, 1, &text), CC_OK);
  ASSERT_CONTAINS(text, LANECL_WG_PREFIX "k:");
  free(text);
  ASSERT_EQ(ct_api()->disassemble(ct_dev(), &out, 2, &text), CC_OK);
  ASSERT_CONTAINS(text, "define void @" LANECL_WG_PREFIX "k(");
  free(text);
  cc_blob_free(&out);
}

/* The same source built again gives the same container, byte for byte (the
 * program cache and CL_PROGRAM_BINARIES rely on it).  The build times are
 * printed for information only: speed is the benchmark suite's business. */
TEST(a_small_kernel_builds_the_same_each_time)
{
  const char *src = "kernel void saxpy(global float *y, global const float *x, float a)\n"
                    "{ size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n";
  cc_blob first = {0}, out;
  char *log = NULL;
  double best_c = 1e9, best_b = 1e9;
  for (int i = 0; i < 3; i++) {
    double t0 = ct_now_ms();
    ASSERT_EQ(ct_compile(src, "", &out, &log), CC_OK);
    double t1 = ct_now_ms();
    cc_blob_free(&out);
    free(log);
    ASSERT_EQ(build(src, "", &out, &log), CC_OK);
    double t2 = ct_now_ms();
    free(log);
    if (!first.data) {
      first = out;
    } else {
      ASSERT_EQ(out.size, first.size);
      ASSERT_TRUE(memcmp(out.data, first.data, out.size) == 0);
      cc_blob_free(&out);
    }
    best_c = t1 - t0 < best_c ? t1 - t0 : best_c;
    best_b = t2 - t1 < best_b ? t2 - t1 : best_b;
  }
  printf("  saxpy: compile %.1f ms, build %.1f ms (best of 3)\n", best_c, best_b);
  cc_blob_free(&first);
}

/* The report of kernel 0 of staged's code made for a launch (cc_launch_hint);
 * the caller frees it. */
static char *report_for_launch(const cc_blob *staged, const cc_launch_hint *launch)
{
  cc_blob out;
  char *log = NULL;
  uint32_t which = 0;
  int rc = ct_api()->compile_kernels(ct_dev(), staged, &which, 1, launch, &out, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "compile_kernels failed (%d):\n%s", rc, log);
  free(log);
  cc_binary bin;
  ASSERT_EQ(cc_binary_read(out.data, out.size, &bin), CC_OK);
  ASSERT_EQ(bin.nkernels, 1);
  char *rep = strdup(bin.kernels[0].report ? bin.kernels[0].report : "");
  cc_binary_free(&bin);
  cc_blob_free(&out);
  return rep;
}

static void build_staged(const char *src, cc_blob *staged)
{
  char *log = NULL;
  int rc = ct_api()->build_staged(ct_dev(), src, "", staged, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "build failed (%d):\n%s", rc, log);
  free(log);
}

/* A staged kernel's code made for its first launch (compile_kernels with
 * the launch's image formats): a small image kernel keeps the general path
 * inline, unless the formats of that launch select a copy in which every
 * access has a format (cc_wg_image.c, wg_image_general_out_of_line); the
 * report says so.  Without formats, or with one no copy has (an R float
 * image read as float4: the general copy runs), it stays inline. */
TEST(first_launch_formats_put_the_general_image_path_out_of_line)
{
  static const char src[] =
      "constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
      "kernel void blur(read_only image2d_t in, write_only image2d_t out, float k) {\n"
      "  int x = get_global_id(0), y = get_global_id(1);\n"
      "  float4 v = read_imagef(in, s, (int2)(x - 1, y)) + read_imagef(in, s, (int2)(x + 1, y));\n"
      "  write_imagef(out, (int2)(x, y), v * k);\n"
      "}\n";
  cc_blob staged;
  build_staged(src, &staged);
  const uint32_t rgba_float = 0x10B5u << 16 | 0x10DEu, r_float = 0x10B0u << 16 | 0x10DEu;
  const uint32_t rgba[3] = {rgba_float, rgba_float, 0}, r[3] = {r_float, rgba_float, 0};
  const cc_launch_hint hints[3] = {{rgba, {0, 0, 0}}, {r, {0, 0, 0}}, {NULL, {0, 0, 0}}};
  const int want[3] = {1, 0, 0};
  for (int c = 0; c < 3; c++) {
    char *rep = report_for_launch(&staged, &hints[c]);
    if (!strstr(rep, "image accesses: the lane loop in") || (strstr(rep, "general path out of line") != NULL) != want[c])
      tl_fail(__FILE__, __LINE__, "case %d: the report should %ssay the general path is out of line:\n%s", c,
              want[c] ? "" : "not ", rep);
    free(rep);
  }
  cc_blob_free(&staged);
}

/* A kernel with barriers has a copy of its state machine for groups of one
 * dimension; made for a first launch of 2D groups it has none (the copy for
 * every shape runs 1D groups too), and the report says so.  Made for 1D
 * groups, or without a launch, it keeps the copy. */
TEST(a_2d_first_launch_leaves_out_the_copy_for_1d_groups)
{
  static const char src[] =
      "kernel void sum(global const int *in, global int *out) {\n"
      "  local int part[256];\n"
      "  int l = get_local_id(1) * get_local_size(0) + get_local_id(0);\n"
      "  int n = get_local_size(0) * get_local_size(1);\n"
      "  part[l] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  if (l == 0) { int s = 0; for (int i = 0; i < n; i++) s += part[i]; out[get_group_id(1) * "
      "get_num_groups(0) + get_group_id(0)] = s; }\n"
      "}\n";
  cc_blob staged;
  build_staged(src, &staged);
  const cc_launch_hint hints[3] = {{NULL, {8, 8, 1}}, {NULL, {64, 1, 1}}, {NULL, {0, 0, 0}}};
  const int want[3] = {1, 0, 0};
  for (int c = 0; c < 3; c++) {
    char *rep = report_for_launch(&staged, &hints[c]);
    if ((strstr(rep, "no copy for groups of one dimension (the first launch's groups are 8x8x1)") != NULL) != want[c])
      tl_fail(__FILE__, __LINE__, "case %d: the report should %ssay there is no 1D copy:\n%s", c,
              want[c] ? "" : "not ", rep);
    free(rep);
  }
  cc_blob_free(&staged);
}

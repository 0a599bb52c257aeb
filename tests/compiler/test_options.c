/* Compiler options: what is accepted, what is rejected (CC_INVALID_OPTIONS
 * naming the option), what they do (-D, -I, embedded headers, -cl-std, the
 * device's extension list), and clang's diagnostics in the build log. */
#include "tests/compiler/cc_test.h"

#include <sys/stat.h>
#include <unistd.h>

static const char plain[] = "kernel void k(global int *p) { p[0] = 1; }\n";

static int compile_status(const char *src, const char *options, char **log)
{
  cc_blob out = {0};
  int rc = ct_compile(src, options, &out, log);
  if (rc == CC_OK && (!out.data || !out.size))
    tl_fail(__FILE__, __LINE__, "CC_OK without a binary");
  if (rc != CC_OK && out.data)
    tl_fail(__FILE__, __LINE__, "a binary with status %d", rc);
  cc_blob_free(&out);
  return rc;
}

TEST(every_spec_option_is_accepted)
{
  static const char *const ok[] = {
      "", "   ", "-D FOO", "-DFOO", "-D FOO=1", "-DFOO=1", "-D FOO(x)=x", "-I /tmp", "-I/tmp",
      "-cl-std=CL1.0", "-cl-std=CL1.1", "-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0",
      "-cl-opt-disable", "-cl-fast-relaxed-math", "-cl-mad-enable", "-cl-finite-math-only",
      "-cl-denorms-are-zero", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
      "-cl-single-precision-constant", "-cl-fp32-correctly-rounded-divide-sqrt",
      "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp", "-cl-strict-aliasing",
      "-cl-kernel-arg-info", "-Werror", "-w", "-g",
      "-cl-std=CL3.0 -cl-fast-relaxed-math -DN=4 -w -cl-kernel-arg-info",
  };
  for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
    char *log = NULL;
    int rc = compile_status(plain, ok[i], &log);
    if (rc != CC_OK)
      tl_fail(__FILE__, __LINE__, "options \"%s\": status %d\n%s", ok[i], rc, log);
    free(log);
  }
}

TEST(unknown_options_are_rejected_by_name)
{
  static const struct { const char *options, *named; } bad[] = {
      {"-foo", "-foo"}, {"-O3", "-O3"}, {"-cl-std=CL4.0", "-cl-std=CL4.0"},
      {"-cl-std=CL2.2", "-cl-std=CL2.2"}, {"-D", "-D"}, {"-I", "-I"}, {"-D 1X", "-D"},
      {"-cl-fast-relaxed-math -bogus", "-bogus"}, {"-create-library", "-create-library"},
      {"-x spir", "-x"}, {"--", "--"}, {"-Dok -cl-mad-enable=1", "-cl-mad-enable=1"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    char *log = NULL;
    int rc = compile_status(plain, bad[i].options, &log);
    if (rc != CC_INVALID_OPTIONS)
      tl_fail(__FILE__, __LINE__, "options \"%s\": status %d, expected CC_INVALID_OPTIONS", bad[i].options, rc);
    ASSERT_CONTAINS(log, bad[i].named);
    free(log);
  }
}

TEST(build_rejects_options_like_compile)
{
  cc_blob out = {0};
  char *log = NULL;
  ASSERT_EQ(ct_api()->build(ct_dev(), plain, "-cl-bogus", &out, &log), CC_INVALID_OPTIONS);
  ASSERT_CONTAINS(log, "-cl-bogus");
  ASSERT_TRUE(out.data == NULL);
  free(log);
}

TEST(link_options)
{
  cc_blob obj, out = {0};
  char *log = NULL;
  ASSERT_EQ(ct_compile(plain, "", &obj, &log), CC_OK);
  free(log);
  static const char *const ok[] = {"", "-create-library", "-enable-link-options -create-library",
                                   "-cl-denorms-are-zero -cl-no-signed-zeros -create-library",
                                   "-cl-unsafe-math-optimizations -cl-finite-math-only -create-library",
                                   "-cl-fast-relaxed-math -cl-no-subgroup-ifp -create-library"};
  for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
    int rc = ct_api()->link(ct_dev(), &obj, 1, ok[i], 1, &out, &log);
    if (rc != CC_OK)
      tl_fail(__FILE__, __LINE__, "link options \"%s\": %d\n%s", ok[i], rc, log);
    free(log);
    cc_blob_free(&out);
  }
  static const char *const bad[] = {"-cl-opt-disable", "-DX", "-cl-std=CL3.0", "-foo", "-cl-mad-enable"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    int rc = ct_api()->link(ct_dev(), &obj, 1, bad[i], 1, &out, &log);
    if (rc != CC_INVALID_OPTIONS)
      tl_fail(__FILE__, __LINE__, "link options \"%s\": %d, expected CC_INVALID_OPTIONS", bad[i], rc);
    ASSERT_CONTAINS(log, bad[i]);
    free(log);
  }
  cc_blob_free(&obj);
}

TEST(macros_from_D)
{
  const char *src = "#if !defined(A) || B != 7 || C != 3 || !defined(D)\n#error macros\n#endif\n"
                    "kernel void k(global int *p) { p[0] = B + C + E(2); }\n";
  char *log = NULL;
  ASSERT_EQ(compile_status(src, "-D A -DB=7 -D C=3 -DD -D \"E(x)=(x*2)\"", &log), CC_OK);
  free(log);
  ASSERT_EQ(compile_status(src, "-D A -DB=7", &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "error: macros");
  free(log);
}

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  ASSERT_TRUE(f != NULL);
  fputs(text, f);
  fclose(f);
}

TEST(quoted_and_escaped_option_values)
{
  const char *src = "constant char s[] = S;\n"
                    "kernel void k(global char *p) { p[0] = s[0] + sizeof(s) + T; }\n"
                    "#if T != 12\n#error T\n#endif\n";
  char *log = NULL;
  int rc = compile_status(src, "-DS=\\\"text\\\" \"-DT=1\"2", &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "%d\n%s", rc, log);
  free(log);
  ASSERT_EQ(compile_status(src, "-DS=\"text\" -DT=12", &log), CC_BUILD_FAILED);
  free(log);
}

TEST(include_dirs_from_I)
{
  char dir[] = "/tmp/lanecl-test-XXXXXX";
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  char sub[256], hdr[300], hdr2[300];
  snprintf(sub, sizeof(sub), "%s/with space", dir);
  ASSERT_EQ(mkdir(sub, 0700), 0);
  snprintf(hdr, sizeof(hdr), "%s/inc1.h", dir);
  snprintf(hdr2, sizeof(hdr2), "%s/inc2.h", sub);
  write_file(hdr, "#define ONE 1\n");
  write_file(hdr2, "#define TWO 2\n");
  const char *src = "#include \"inc1.h\"\n#include <inc2.h>\nkernel void k(global int *p) { p[0] = ONE + TWO; }\n";
  char opts[700];
  snprintf(opts, sizeof(opts), "-I %s -I\"%s\"", dir, sub);
  char *log = NULL;
  int rc = compile_status(src, opts, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "%s: %d\n%s", opts, rc, log);
  free(log);
  /* A relative -I is relative to the application's working directory. */
  ASSERT_EQ(chdir(dir), 0);
  snprintf(opts, sizeof(opts), "-I . -I \"with space\"");
  rc = compile_status(src, opts, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "%s: %d\n%s", opts, rc, log);
  free(log);
  ASSERT_EQ(compile_status(src, "", &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "inc1.h");
  free(log);
  unlink(hdr);
  unlink(hdr2);
  rmdir(sub);
  rmdir(dir);
}

TEST(embedded_headers)
{
  const cc_header h[] = {
      {"defs.h", "#define SCALE 3\n#include \"sub/more.h\"\n"},
      {"sub/more.h", "#define MORE 4\n"},
      {"sub/deeper/x.h", "int twice(int x) { return 2 * x; }\n"},
  };
  const char *src = "#include \"defs.h\"\n#include \"sub/deeper/x.h\"\n"
                    "kernel void k(global int *p) { p[0] = twice(SCALE + MORE); }\n";
  cc_blob out = {0};
  char *log = NULL;
  int rc = ct_api()->compile(ct_dev(), src, "", h, 3, &out, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "%d\n%s", rc, log);
  free(log);
  cc_blob_free(&out);
  /* Without the headers the include fails, with the name in the log. */
  ASSERT_EQ(ct_api()->compile(ct_dev(), src, "", NULL, 0, &out, &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "defs.h");
  free(log);
  /* A header name may not leave the program's directory. */
  static const char *const bad[] = {"../evil.h", "/etc/evil.h", "a/../../evil.h", "", "a//b.h", "dir/"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    cc_header e = {bad[i], "#define X 1\n"};
    rc = ct_api()->compile(ct_dev(), plain, "", &e, 1, &out, &log);
    if (rc != CC_BUILD_FAILED)
      tl_fail(__FILE__, __LINE__, "header name \"%s\": %d", bad[i], rc);
    free(log);
  }
}

TEST(diagnostics_keep_line_and_column)
{
  const char *src = "kernel void k(global int *p)\n{\n  p[0] = undeclared_thing;\n}\n";
  char *log = NULL;
  ASSERT_EQ(compile_status(src, "", &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "<source>:3:10: error: use of undeclared identifier 'undeclared_thing'");
  free(log);
}

TEST(warnings_Werror_and_w)
{
  const char *src = "kernel void k(global int *p) { if (p[1] = 2) p[0] = 1; }\n";
  char *log = NULL;
  ASSERT_EQ(compile_status(src, "", &log), CC_OK);
  ASSERT_CONTAINS(log, "<source>:1:");
  ASSERT_CONTAINS(log, "warning:");
  free(log);
  ASSERT_EQ(compile_status(src, "-Werror", &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "error:");
  free(log);
  ASSERT_EQ(compile_status(src, "-w", &log), CC_OK);
  ASSERT_TRUE(strstr(log, "warning") == NULL);
  free(log);
}

TEST(cl_std_default_is_1_2)
{
  const char *src = "#if __OPENCL_C_VERSION__ != WANT\n#error version\n#endif\n"
                    "kernel void k(global int *p) { p[0] = __OPENCL_C_VERSION__; }\n";
  static const struct { const char *opt; int want; } v[] = {
      {"", 120}, {"-cl-std=CL1.0", 100}, {"-cl-std=CL1.1", 110}, {"-cl-std=CL1.2", 120},
      {"-cl-std=CL2.0", 200}, {"-cl-std=CL3.0", 300}, {"-cl-std=CL1.1 -cl-std=CL3.0", 300}};
  for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
    char opts[128];
    snprintf(opts, sizeof(opts), "%s -DWANT=%d", v[i].opt, v[i].want);
    char *log = NULL;
    int rc = compile_status(src, opts, &log);
    if (rc != CC_OK)
      tl_fail(__FILE__, __LINE__, "%s: %d\n%s", opts, rc, log);
    free(log);
  }
  /* OpenCL C 3.0 builtins are not there by default (1.2). */
  char *log = NULL;
  const char *wg = "kernel void k(global int *p) { p[0] = work_group_reduce_add(p[1]); }\n";
  ASSERT_EQ(compile_status(wg, "", &log), CC_BUILD_FAILED);
  free(log);
  ASSERT_EQ(compile_status(wg, "-cl-std=CL3.0", &log), CC_OK);
  free(log);
}

TEST(feature_macros_follow_the_device)
{
  const char *src = "kernel void k(global double *p) { p[0] = 1.0; }\n";
  const char *feat = "#ifndef __opencl_c_generic_address_space\n#error no generic\n#endif\n"
                     "kernel void k(global int *p) { p[0] = 1; }\n";
  cc_device_desc dev = *ct_dev();
  cc_blob out = {0};
  char *log = NULL;
  ASSERT_EQ(ct_api()->compile(&dev, src, "-cl-std=CL3.0", NULL, 0, &out, &log), CC_OK);
  cc_blob_free(&out);
  free(log);
  ASSERT_EQ(ct_api()->compile(&dev, feat, "-cl-std=CL3.0", NULL, 0, &out, &log), CC_OK);
  cc_blob_free(&out);
  free(log);
  dev.cl_ext = "-all";
  ASSERT_EQ(ct_api()->compile(&dev, src, "-cl-std=CL3.0", NULL, 0, &out, &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "cl_khr_fp64");
  free(log);
  ASSERT_EQ(ct_api()->compile(&dev, feat, "-cl-std=CL3.0", NULL, 0, &out, &log), CC_BUILD_FAILED);
  ASSERT_CONTAINS(log, "no generic");
  free(log);
}

TEST(option_macros)
{
  const char *src = "#ifndef __FAST_RELAXED_MATH__\n#error fast\n#endif\n"
                    "kernel void k(global float *p) { p[0] = p[1] / p[2]; }\n";
  char *log = NULL;
  ASSERT_EQ(compile_status(src, "-cl-fast-relaxed-math", &log), CC_OK);
  free(log);
  ASSERT_EQ(compile_status(src, "", &log), CC_BUILD_FAILED);
  free(log);
}

TEST(kernel_arg_info_and_opt_disable_are_recorded)
{
  cc_binary bin;
  ct_compile_read(plain, "", &bin);
  ASSERT_EQ(bin.kind, CC_BIN_OBJECT);
  ASSERT_EQ(bin.nkernels, 1);
  ASSERT_EQ(bin.kernels[0].flags & (CC_KFLAG_ARG_INFO | CC_KFLAG_OPT_DISABLE), 0);
  /* Names are there anyway (clang always records them). */
  ASSERT_STREQ(bin.kernels[0].args[0].name, "p");
  cc_binary_free(&bin);
  ct_compile_read(plain, "-cl-kernel-arg-info -cl-opt-disable", &bin);
  ASSERT_EQ(bin.kernels[0].flags & (CC_KFLAG_ARG_INFO | CC_KFLAG_OPT_DISABLE),
            CC_KFLAG_ARG_INFO | CC_KFLAG_OPT_DISABLE);
  cc_binary_free(&bin);
}

TEST(empty_and_null_source)
{
  char *log = NULL;
  cc_binary bin;
  ct_compile_read("", "", &bin);
  ASSERT_EQ(bin.nkernels, 0);
  cc_binary_free(&bin);
  cc_blob out = {0};
  ASSERT_EQ(ct_api()->compile(ct_dev(), NULL, "", NULL, 0, &out, &log), CC_OK);
  cc_blob_free(&out);
  free(log);
  ASSERT_EQ(ct_api()->compile(ct_dev(), plain, NULL, NULL, 0, &out, &log), CC_OK);
  cc_blob_free(&out);
  free(log);
}

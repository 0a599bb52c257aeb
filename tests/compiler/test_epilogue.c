/* The LLVM options the compiler sets for itself (compiler/cc_api.c,
 * llvm_init_once): a lane loop's leftover work-items run in a vector
 * epilogue of half the width (small work-groups), and LANECL_LLVM_ARGS may
 * set the same option without LLVM's fatal "may only occur once".  Each
 * case runs lanecl-cc in a child process, since the options are set once
 * per process. */
#include "tests/compiler/cc_test.h"

#include <sys/wait.h>
#include <unistd.h>

/* A tree reduction in local memory: its lane loops run the work-items below
 * a halving bound, few of them at a time. */
static const char tree_src[] =
    "kernel void tree(global const int *in, global int *out, local int *t) {\n"
    "  size_t l = get_local_id(0), g = get_global_id(0);\n"
    "  t[l] = in[g];\n"
    "  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < s) t[l] += t[l + s];\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g] = t[0];\n"
    "}\n";

/* A division per work-item: LLVM's own cost model gives its lane loop no
 * vector epilogue (the tree reduction's lane loops get one either way since
 * the uniform values stay in registers between lane loops). */
static const char div_src[] =
    "kernel void dv(global const int *a, global const int *b, global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a[i] / b[i];\n"
    "}\n";

/* lanecl-cc --emit-llvm-opt of src with LANECL_LLVM_ARGS=llvm_args (NULL:
 * unset); its exit status, the output in *out. */
static int emit_opt(const char *src, const char *llvm_args, char **out)
{
  char dir[] = "/tmp/lanecl-epilogue-XXXXXX";
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  char file[600], tool[4096];
  snprintf(file, sizeof(file), "%s/k.cl", dir);
  snprintf(tool, sizeof(tool), "%s/bin/lanecl-cc", ct_build_dir());
  FILE *f = fopen(file, "w");
  ASSERT_TRUE(f != NULL);
  fputs(src, f);
  fclose(f);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    if (llvm_args)
      setenv("LANECL_LLVM_ARGS", llvm_args, 1);
    else
      unsetenv("LANECL_LLVM_ARGS");
    execl(tool, tool, "--emit-llvm-opt", file, (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  ssize_t r;
  while ((r = read(fds[0], buf + len, cap - len - 1)) > 0) {
    len += (size_t)r;
    if (cap - len < 1024)
      buf = realloc(buf, cap *= 2);
  }
  buf[len] = 0;
  close(fds[0]);
  int st;
  waitpid(pid, &st, 0);
  unlink(file);
  rmdir(dir);
  *out = buf;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Vector epilogue loops in optimized IR (their header blocks). */
static int epilogues(const char *ir)
{
  int n = 0;
  for (const char *s = ir; (s = strstr(s, "\nvec.epilog.vector.body")); s++)
    n++;
  return n;
}

TEST(small_groups_get_vector_epilogues)
{
  if (ct_target_simd_bits() < 256)
    tl_skip("no AVX2 or AVX-512 in the target");
  char *ours = NULL, *llvms = NULL;
  ASSERT_EQ(emit_opt(div_src, NULL, &ours), 0);
  /* LLVM's own choice: its default value, given through LANECL_LLVM_ARGS
   * (which then replaces ours instead of repeating the option). */
  ASSERT_EQ(emit_opt(div_src, "-epilogue-vectorization-force-VF=1", &llvms), 0);
  int a = epilogues(ours), b = epilogues(llvms);
  printf("vector epilogues: %d with LaneCL's options, %d with LLVM's default\n", a, b);
  ASSERT_TRUE(a > b);
  free(ours);
  free(llvms);
  /* Half the width: 8 x i32 on AVX-512, 4 x i32 on AVX2. */
  ASSERT_EQ(emit_opt(tree_src, NULL, &ours), 0);
  ASSERT_TRUE(epilogues(ours) > 0);
  ASSERT_CONTAINS(ours, ct_target_simd_bits() >= 512 ? "<8 x i32>" : "<4 x i32>");
  free(ours);
}

TEST(llvm_args_may_set_the_epilogue_width)
{
  char *out = NULL;
  ASSERT_EQ(emit_opt(tree_src, "-epilogue-vectorization-force-VF=4", &out), 0);
  ASSERT_CONTAINS(out, "define");
  free(out);
  ASSERT_EQ(emit_opt(tree_src, "", &out), 0);
  ASSERT_CONTAINS(out, "define");
  free(out);
}

/* A guarded 3x3 stencil (the shape of PolyBench's 2DCONV): the scalar loop
 * the loop vectorizer leaves after a lane loop's vector loops runs fewer
 * than W/2 work-items, and is not unrolled at run time (no `.prol`
 * prologue, no unrolled copies): those were a quarter of the kernel's code
 * generation time (compiler/cc_wg_state.c, scalar_remainder_props). */
static const char stencil_src[] =
    "kernel void st(global const float *a, global float *b, int h, int w) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (y > 0 && x > 0 && y < h - 1 && x < w - 1)\n"
    "    b[y * w + x] = 0.2f * a[(y - 1) * w + x - 1] + 0.5f * a[(y - 1) * w + x] - 0.8f * a[(y - 1) * w + x + 1]\n"
    "                 - 0.3f * a[y * w + x - 1] + 0.6f * a[y * w + x] - 0.9f * a[y * w + x + 1]\n"
    "                 + 0.4f * a[(y + 1) * w + x - 1] + 0.7f * a[(y + 1) * w + x] + 0.1f * a[(y + 1) * w + x + 1];\n"
    "}\n";

TEST(the_scalar_remainder_is_not_unrolled)
{
  if (ct_target_simd_bits() < 256)
    tl_skip("no AVX2 or AVX-512 in the target");
  char *ir = NULL;
  ASSERT_EQ(emit_opt(stencil_src, NULL, &ir), 0);
  ASSERT_TRUE(epilogues(ir) > 0);
  ASSERT_CONTAINS(ir, "llvm.loop.unroll.runtime.disable");
  if (strstr(ir, ".prol"))
    tl_fail(__FILE__, __LINE__, "a lane loop's scalar remainder was unrolled at run time (a .prol block)");
  free(ir);
}

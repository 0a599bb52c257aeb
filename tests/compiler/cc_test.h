/* Helpers for the compiler tests: the cc API of the build tree's
 * liblanecl_cc.so ($LANECL_BUILD_DIR), a device description, and the
 * LLVM-free container code compiled into the test itself. */
#ifndef LANECL_CC_TEST_H
#define LANECL_CC_TEST_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/cc_binary.c" /* the LLVM-free container code, built into the test */
#include "compiler/lanecl_cc.h"
#include "tests/testlib.h"

/* The extension list a LaneCL CPU device gives the compiler (images on, so
 * that image and sampler arguments can be tested). */
#define CT_CL_EXT                                                                               \
  "-all,+cl_khr_fp64,+__opencl_c_fp64,+__opencl_c_int64,+cl_khr_byte_addressable_store,"       \
  "+cl_khr_global_int32_base_atomics,+cl_khr_local_int32_base_atomics,"                        \
  "+__opencl_c_images,+__opencl_c_read_write_images,+__opencl_c_3d_image_writes,+cl_khr_3d_image_writes,+cl_khr_depth_images,"           \
  "+__opencl_c_generic_address_space,+__opencl_c_program_scope_global_variables,"             \
  "+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst,"                        \
  "+__opencl_c_atomic_scope_device,+__opencl_c_work_group_collective_functions,"              \
  "+__opencl_c_subgroups"

static inline const char *ct_build_dir(void)
{
  const char *d = getenv("LANECL_BUILD_DIR");
  if (!d || !d[0])
    tl_fail(__FILE__, __LINE__, "LANECL_BUILD_DIR is not set (run through ctest)");
  return d;
}

static inline const cc_api *ct_api(void)
{
  static const cc_api *api;
  if (api)
    return api;
  char path[4096];
  snprintf(path, sizeof(path), "%s/liblanecl_cc.so", ct_build_dir());
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    tl_fail(__FILE__, __LINE__, "dlopen %s: %s", path, dlerror());
  cc_get_api_fn get = (cc_get_api_fn)dlsym(h, "cc_get_api");
  if (!get)
    tl_fail(__FILE__, __LINE__, "cc_get_api not exported: %s", dlerror());
  api = get();
  if (!api || api->api_version != CC_API_VERSION)
    tl_fail(__FILE__, __LINE__, "cc API version mismatch");
  return api;
}

/* The host's SIMD width as the runtime's device sees it (runtime/device.c). */
static inline unsigned ct_host_simd_bits(void)
{
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    return 512;
  return __builtin_cpu_supports("avx2") ? 256 : 128;
}

/* The device the tests compile for: the runtime's (the host; LANECL_CPU
 * names the CPU model, LANECL_SIMD_BITS a narrower SIMD width, the host's
 * features less the wider ones).  A LANECL_SIMD_BITS wider than the host
 * (an AVX-512 target on an AVX2 host) takes LANECL_CPU's own features and
 * AVX-512: the code is compiled and checked, not run (ct_can_run). */
/* A device's features for a named CPU of AVX-512, whatever the host: the
 * CPU's own (LLVM applies the CPU's, then these) and, said explicitly for
 * the compiler's own checks of the feature string, AVX-512. */
#define CT_AVX512_FEATURES "+avx512f,+avx512bw,+avx512dq,+avx512vl"

static inline const cc_device_desc *ct_dev(void)
{
  static cc_device_desc dev = {NULL, NULL, 0, 1024, CT_CL_EXT};
  if (!dev.simd_bits) {
    const char *cpu = getenv("LANECL_CPU"), *sb = getenv("LANECL_SIMD_BITS");
    unsigned host = ct_host_simd_bits(), want = sb && *sb ? (unsigned)atoi(sb) : 0;
    if (cpu && *cpu)
      dev.cpu_name = cpu;
    if (want > host) {
      if (!dev.cpu_name)
        tl_fail(__FILE__, __LINE__, "LANECL_SIMD_BITS=%u is wider than the host's %u: name the CPU (LANECL_CPU)",
                want, host);
      dev.cpu_features = want >= 512 ? CT_AVX512_FEATURES : ""; /* the named CPU's own, and the width asked for */
    }
    dev.simd_bits = want == 128 || want == 256 || want == 512 ? want : host;
  }
  return &dev;
}

/* Whether code built for ct_dev() runs on this host. */
static inline int ct_can_run(void)
{
  return ct_dev()->cpu_features == NULL;
}

/* The target the compiler chose for ct_dev(): CPU name and features. */
static inline void ct_target(const char **cpu, const char **features)
{
  static char *c, *f;
  if (!c && ct_api()->target(ct_dev(), &c, &f) != 0)
    tl_fail(__FILE__, __LINE__, "cc target query failed");
  if (cpu)
    *cpu = c;
  if (features)
    *features = f;
}

/* Whether the chosen target has LLVM feature name: the last +name / -name
 * of its feature string (a named CPU's own features are not listed). */
static inline int ct_target_has(const char *name)
{
  const char *f;
  ct_target(NULL, &f);
  int has = 0;
  size_t n = strlen(name);
  for (const char *p = f; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n + 1 && !memcmp(p + 1, name, n))
      has = p[0] == '+';
    p += len + (e != NULL);
  }
  return has;
}

/* The SIMD width of the chosen target: 512 with AVX-512 (F, BW, DQ, VL),
 * 256 with AVX2, else 128; and at most the device's simd_bits. */
static inline unsigned ct_target_simd_bits(void)
{
  unsigned bits = ct_target_has("avx512f") && ct_target_has("avx512bw") && ct_target_has("avx512dq") &&
                   ct_target_has("avx512vl")
               ? 512
           : ct_target_has("avx2") ? 256
                                   : 128;
  return bits < ct_dev()->simd_bits ? bits : ct_dev()->simd_bits;
}

/* The chosen CPU model is name. */
static inline int ct_target_cpu_is(const char *name)
{
  const char *c;
  ct_target(&c, NULL);
  return !strcmp(c, name);
}

/* Whether the target's loop vectorizer makes gathers (scatter 0) or
 * scatters (scatter 1) of 32-bit lanes: LLVM's X86 cost model allows
 * gathers with AVX-512, or AVX2 on a CPU of fast gathers (the CPU model's
 * tuning, not a feature); scatters with AVX-512 only.  Asked of the compiler
 * with a probe kernel, not guessed from the CPU. */
static inline int ct_target_vectorizes(int scatter)
{
  static int known[2], has[2];
  if (known[scatter])
    return has[scatter];
  const char *src = scatter ? "kernel void k(global const int *i, global float *a, global const float *b) {\n"
                              "  size_t x = get_global_id(0); a[i[x]] = b[x]; }\n"
                            : "kernel void k(global const int *i, global const float *a, global float *b) {\n"
                              "  size_t x = get_global_id(0); b[x] = a[i[x]]; }\n";
  cc_blob out;
  char *log = NULL, *ir = NULL;
  if (ct_api()->build(ct_dev(), src, "", &out, &log) != CC_OK)
    tl_fail(__FILE__, __LINE__, "probe build failed:\n%s", log);
  free(log);
  if (ct_api()->disassemble(ct_dev(), &out, 2, &ir) != CC_OK)
    tl_fail(__FILE__, __LINE__, "probe disassembly failed");
  cc_blob_free(&out);
  has[scatter] = strstr(ir, scatter ? "@llvm.masked.scatter" : "@llvm.masked.gather") != NULL;
  known[scatter] = 1;
  free(ir);
  return has[scatter];
}

/* Compiles src with options; returns the status, the log in *log (freed by the caller). */
static inline int ct_compile(const char *src, const char *options, cc_blob *out, char **log)
{
  return ct_api()->compile(ct_dev(), src, options, NULL, 0, out, log);
}

/* Compiles src (must succeed) and reads the container into *bin. */
static inline void ct_compile_read(const char *src, const char *options, cc_binary *bin)
{
  cc_blob out;
  char *log = NULL;
  int rc = ct_compile(src, options, &out, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "compile failed (%d):\n%s", rc, log);
  free(log);
  if (cc_binary_read(out.data, out.size, bin) != CC_OK)
    tl_fail(__FILE__, __LINE__, "cc_binary_read of a fresh container failed");
  cc_blob_free(&out);
}

static inline const cc_kernel_info *ct_kernel(const cc_binary *bin, const char *name)
{
  for (uint32_t i = 0; i < bin->nkernels; i++)
    if (!strcmp(bin->kernels[i].name, name))
      return &bin->kernels[i];
  tl_fail(__FILE__, __LINE__, "no kernel %s among %u", name, bin->nkernels);
}

#define ASSERT_CONTAINS(hay, needle)                                                             \
  do {                                                                                         \
    const char *ct_h_ = (hay), *ct_n_ = (needle);                                              \
    if (!ct_h_ || !strstr(ct_h_, ct_n_))                                                       \
      tl_fail(__FILE__, __LINE__, "\"%s\" not found in:\n%s", ct_n_, ct_h_ ? ct_h_ : "(null)"); \
  } while (0)

static inline double ct_now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

#endif

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
  "+__opencl_c_images,+__opencl_c_read_write_images,+__opencl_c_3d_image_writes,+cl_khr_3d_image_writes,"             \
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

static inline const cc_device_desc *ct_dev(void)
{
  static cc_device_desc dev = {NULL, NULL, 0, 1024, CT_CL_EXT};
  if (!dev.simd_bits) {
    __builtin_cpu_init();
    dev.simd_bits = __builtin_cpu_supports("avx512f") ? 512 : __builtin_cpu_supports("avx2") ? 256 : 128;
  }
  return &dev;
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

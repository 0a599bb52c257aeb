/* The work-group function harness of the compiler tests (test_wg*.c):
 * build OpenCL C through the whole compiler, load the ELF object, and run
 * __lanecl_wg_<kernel> over an NDRange with a hand-built lanecl_wg_ctx, as
 * the runtime does.  Code built for a target wider than the host is built
 * and checked but not run (wg_run skips the test there). */
#ifndef LANECL_WG_HARNESS_H
#define LANECL_WG_HARNESS_H

#include "tests/compiler/cc_test.h"

#include <limits.h>
#include <pthread.h>
#include <unistd.h>

typedef struct wg_prog {
  cc_binary bin;
  void *dl;
  char *asm_text;
} wg_prog;

static const char *const levels[] = {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"};

/* Builds src for dev (ct_dev() in wg_build), reads and loads the code. */
static inline void wg_build_for(const cc_device_desc *dev, const char *src, const char *options, wg_prog *p)
{
  cc_blob out;
  char *log = NULL;
  int rc = ct_api()->build(dev, src, options, &out, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "build (%s) failed (%d):\n%s", options, rc, log);
  free(log);
  ASSERT_EQ(cc_binary_read(out.data, out.size, &p->bin), CC_OK);
  /* The tests look for instructions in it: no assembly is a failure, never
   * a pass of a check that found nothing. */
  p->asm_text = NULL;
  if (ct_api()->disassemble(dev, &out, 1, &p->asm_text) != CC_OK || !p->asm_text)
    tl_fail(__FILE__, __LINE__, "disassembly (%s) failed", options);
  cc_blob_free(&out);
  char path[] = "/tmp/lanecl-test-wg-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(fd >= 0);
  ASSERT_EQ(write(fd, p->bin.native.data, p->bin.native.size), (long long)p->bin.native.size);
  close(fd);
  p->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  unlink(path);
  if (!p->dl)
    tl_fail(__FILE__, __LINE__, "dlopen of the kernels' object: %s", dlerror());
}

static inline void wg_build(const char *src, const char *options, wg_prog *p)
{
  wg_build_for(ct_dev(), src, options, p);
}

static inline void wg_free(wg_prog *p)
{
  dlclose(p->dl);
  free(p->asm_text);
  cc_binary_free(&p->bin);
}

typedef struct wg_range {
  unsigned dim;
  size_t global[3], local[3], offset[3];
  const size_t *local_bytes;  /* per argument: size of its __local block, or NULL */
  uint32_t flags;             /* lanecl_wg_ctx.flags (LANECL_WG_*) */
} wg_range;

/* Runs every work-group of r (the last ones smaller when local doesn't divide
 * global), as the runtime does: a frame of frame_bytes per enqueued
 * work-item, a collective buffer of 8 bytes per work-item. */
static inline void wg_run(wg_prog *p, const char *kernel, void *const *args, const wg_range *r)
{
  if (!ct_can_run())
    tl_skip("the code for %s (%u-bit SIMD) does not run on this host; what was built was checked", ct_dev()->cpu_name,
            ct_dev()->simd_bits);
  const cc_kernel_info *k = ct_kernel(&p->bin, kernel);
  char name[256];
  snprintf(name, sizeof(name), LANECL_WG_PREFIX "%s", kernel);
  lanecl_wg_fn fn = (lanecl_wg_fn)dlsym(p->dl, name);
  if (!fn)
    tl_fail(__FILE__, __LINE__, "%s is not exported", name);
  size_t gs[3] = {1, 1, 1}, ls[3] = {1, 1, 1}, off[3] = {0, 0, 0}, ng[3];
  for (unsigned d = 0; d < r->dim; d++) {
    gs[d] = r->global[d];
    ls[d] = r->local[d];
    off[d] = r->offset[d];
  }
  size_t nwi = ls[0] * ls[1] * ls[2];
  for (int d = 0; d < 3; d++)
    ng[d] = (gs[d] + ls[d] - 1) / ls[d];
  void *frame = aligned_alloc(64, (k->frame_bytes * nwi + 64) / 64 * 64);
  void *coll = aligned_alloc(64, (16 * nwi + 64) / 64 * 64);
  void *locals[32] = {0};
  ASSERT_TRUE(frame && coll && k->nargs <= 32);
  for (uint32_t i = 0; i < k->nargs && r->local_bytes; i++)
    if (r->local_bytes[i])
      ASSERT_TRUE((locals[i] = aligned_alloc(64, (r->local_bytes[i] + 63) / 64 * 64)) != NULL);
  for (size_t gz = 0; gz < ng[2]; gz++)
    for (size_t gy = 0; gy < ng[1]; gy++)
      for (size_t gx = 0; gx < ng[0]; gx++) {
        size_t gid[3] = {gx, gy, gz};
        lanecl_wg_ctx ctx;
        memset(&ctx, 0, sizeof(ctx));
        for (int d = 0; d < 3; d++) {
          size_t left = gs[d] - gid[d] * ls[d];
          ctx.group_id[d] = gid[d];
          ctx.local_size[d] = left < ls[d] ? left : ls[d];
          ctx.enqueued_local_size[d] = ls[d];
          ctx.num_groups[d] = ng[d];
          ctx.global_size[d] = gs[d];
          ctx.global_offset[d] = off[d];
        }
        ctx.work_dim = r->dim;
        ctx.flags = r->flags;
        ctx.frame = frame;
        ctx.coll_buf = coll;
        ctx.local_args = locals;
        fn(args, &ctx);
      }
  for (int i = 0; i < 32; i++)
    free(locals[i]);
  free(frame);
  free(coll);
}

static inline wg_range range1(size_t global, size_t local, const size_t *local_bytes)
{
  wg_range r = {1, {global, 1, 1}, {local, 1, 1}, {0, 0, 0}, local_bytes};
  return r;
}

/* The optimized LLVM IR of src for dev (the default level). */
static inline char *optimized_ir_for(const cc_device_desc *dev, const char *src)
{
  cc_blob out;
  char *log = NULL, *ir = NULL;
  int rc = ct_api()->build(dev, src, levels[0], &out, &log);
  if (rc != CC_OK)
    tl_fail(__FILE__, __LINE__, "build failed (%d):\n%s", rc, log);
  free(log);
  ASSERT_EQ(ct_api()->disassemble(dev, &out, 2, &ir), CC_OK);
  cc_blob_free(&out);
  return ir;
}

static inline char *optimized_ir(const char *src)
{
  return optimized_ir_for(ct_dev(), src);
}

/* Occurrences of s in text[0..len). */
__attribute__((unused)) static unsigned count_in(const char *text, size_t len, const char *s)
{
  unsigned n = 0;
  size_t sl = strlen(s);
  for (size_t k = 0; k + sl <= len; k++)
    n += !strncmp(text + k, s, sl);
  return n;
}

/* The text of function fn of the IR (from its "define" to its closing
 * brace, *len bytes); the test fails when there is none.  Its callers are
 * not inlined: GCC 12 then warns of a dangling pointer into ir that is not
 * there. */
__attribute__((unused)) static const char *function_text(const char *ir, const char *fn, size_t *len)
{
  char def[160];
  snprintf(def, sizeof(def), "define void @%s(", fn);
  const char *body = strstr(ir, def);
  if (!body)
    tl_fail(__FILE__, __LINE__, "no %s in the IR", fn);
  const char *end = strstr(body, "\n}\n");
  *len = end ? (size_t)(end - body) : strlen(body);
  return body;
}

/* Occurrences of name in the text of function fn of the IR. */
__attribute__((noinline, unused)) static unsigned count_in_function(const char *ir, const char *fn, const char *name)
{
  size_t len;
  const char *body = function_text(ir, fn, &len);
  return count_in(body, len, name);
}

/* The blocks of fn whose label starts with `label`: how many have no gather
 * and at least `loads` occurrences of `load`. */
__attribute__((noinline, unused)) static unsigned blocks_without_gathers(const char *ir, const char *fn, const char *label, const char *load,
                                       unsigned loads, unsigned *seen)
{
  char lab[64];
  size_t blen;
  const char *body = function_text(ir, fn, &blen), *end = body + blen;
  snprintf(lab, sizeof(lab), "\n%s", label);
  unsigned good = 0;
  *seen = 0;
  for (const char *p = strstr(body, lab); p && p < end; p = strstr(p + 1, lab)) {
    const char *next = strstr(p + 1, "\n\n");
    if (!next || next > end)
      next = end;
    size_t len = (size_t)(next - p);
    (*seen)++;
    if (!count_in(p, len, "llvm.masked.gather") && count_in(p, len, load) >= loads)
      good++;
  }
  return good;
}

#endif

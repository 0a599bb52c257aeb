/* The LaneCL program binary container (format in lanecl_cc.h).
 *
 * LLVM-free: linked into liblanecl_cc.so and liblanecl.so (and lanecl-cc).
 * Every integer is little-endian.  A string is u32 length + bytes (no NUL,
 * none inside).  Per kernel the record is
 *   str name, str attributes, u32 nargs,
 *   nargs x { str name, str type_name, u32 kind, addr_space, access_qual,
 *             type_qual, size, align },
 *   u64 reqd_work_group_size[3], u64 work_group_size_hint[3], str vec_type_hint,
 *   u64 local_mem_bytes, private_mem_bytes, frame_bytes,
 *   u32 simd_width, nregions, uses_barriers, flags, u64 stream_bytes,
 *   u32 sub_group_size, reqd_sub_group_size, str report
 * (version 2 added stream_bytes, version 3 the sub-group sizes, version 4
 * the stage and the parts of a staged executable; an older container is
 * rejected, so a cached one is rebuilt).  A part's kernel indices are in
 * range and each kernel is in at most one part; a whole executable has no
 * stage and no parts.
 * The reader trusts nothing: every count and size is checked against the
 * bytes that are left before anything is allocated, the checksum covers the
 * whole container, and the record must end exactly at the checksum.
 */
#include "compiler/lanecl_cc.h"

#include <stdlib.h>
#include <string.h>

#define CC_BIN_MAGIC "LANECLB"   /* 8 bytes with its NUL */
#define CC_BIN_VERSION 4u
#define CC_BIN_HEADER (8 + 4 + 4 + 8 + 4)
/* Smallest encodings, used to bound counts before allocating. */
#define CC_MIN_ARG (4 + 4 + 6 * 4)
#define CC_MIN_KERNEL (4 + 4 + 4 + 6 * 8 + 4 + 3 * 8 + 4 * 4 + 8 + 2 * 4 + 4)

uint64_t cc_hash64(const void *data, size_t size, uint64_t seed)
{
  const unsigned char *p = data;
  uint64_t h = 0xcbf29ce484222325ull ^ seed;
  for (size_t i = 0; i < size; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
  if (!s)
    s = "(host)";
  return cc_hash64(s, strlen(s) + 1, h);
}

uint64_t cc_device_key(const cc_device_desc *dev)
{
  uint64_t h = cc_hash64("lanecl-device", 13, CC_BIN_VERSION);
  h = hash_str(h, dev->cpu_name);
  h = hash_str(h, dev->cpu_features);
  h = hash_str(h, dev->cl_ext);
  uint64_t bits = dev->simd_bits;
  return cc_hash64(&bits, sizeof(bits), h);
}

void cc_blob_free(cc_blob *b)
{
  if (!b)
    return;
  free(b->data);
  b->data = NULL;
  b->size = 0;
}

static void kernel_free(cc_kernel_info *k)
{
  free(k->name);
  free(k->attributes);
  for (uint32_t a = 0; k->args && a < k->nargs; a++) {
    free(k->args[a].name);
    free(k->args[a].type_name);
  }
  free(k->args);
  free(k->vec_type_hint);
  free(k->report);
  memset(k, 0, sizeof(*k));
}

void cc_kernel_infos_free(cc_kernel_info *k, uint32_t n)
{
  for (uint32_t i = 0; k && i < n; i++)
    kernel_free(&k[i]);
  free(k);
}

void cc_binary_free(cc_binary *bin)
{
  if (!bin)
    return;
  cc_kernel_infos_free(bin->kernels, bin->nkernels);
  cc_blob_free(&bin->bitcode);
  cc_blob_free(&bin->native);
  cc_blob_free(&bin->stage);
  for (uint32_t i = 0; i < bin->nparts; i++) {
    free(bin->parts[i].kernels);
    cc_blob_free(&bin->parts[i].code);
  }
  free(bin->parts);
  memset(bin, 0, sizeof(*bin));
}

/* ---- writer ---- */

typedef struct wbuf {
  unsigned char *p;
  size_t len, cap;
  int oom;
} wbuf;

static void put(wbuf *w, const void *src, size_t n)
{
  if (w->oom)
    return;
  if (w->len + n > w->cap) {
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < w->len + n)
      cap *= 2;
    unsigned char *p = realloc(w->p, cap);
    if (!p) {
      w->oom = 1;
      return;
    }
    w->p = p;
    w->cap = cap;
  }
  if (n)
    memcpy(w->p + w->len, src, n);
  w->len += n;
}

static void put_u32(wbuf *w, uint32_t v)
{
  unsigned char b[4];
  for (int i = 0; i < 4; i++)
    b[i] = (unsigned char)(v >> (8 * i));
  put(w, b, 4);
}

static void put_u64(wbuf *w, uint64_t v)
{
  unsigned char b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (unsigned char)(v >> (8 * i));
  put(w, b, 8);
}

static void put_str(wbuf *w, const char *s)
{
  size_t n = s ? strlen(s) : 0;
  put_u32(w, (uint32_t)n);
  put(w, s, n);
}

static void put_kernel(wbuf *w, const cc_kernel_info *k)
{
  put_str(w, k->name);
  put_str(w, k->attributes);
  put_u32(w, k->nargs);
  for (uint32_t a = 0; a < k->nargs; a++) {
    const cc_kernel_arg *arg = &k->args[a];
    put_str(w, arg->name);
    put_str(w, arg->type_name);
    put_u32(w, arg->kind);
    put_u32(w, arg->addr_space);
    put_u32(w, arg->access_qual);
    put_u32(w, arg->type_qual);
    put_u32(w, arg->size);
    put_u32(w, arg->align);
  }
  for (int d = 0; d < 3; d++)
    put_u64(w, k->reqd_work_group_size[d]);
  for (int d = 0; d < 3; d++)
    put_u64(w, k->work_group_size_hint[d]);
  put_str(w, k->vec_type_hint);
  put_u64(w, k->local_mem_bytes);
  put_u64(w, k->private_mem_bytes);
  put_u64(w, k->frame_bytes);
  put_u32(w, k->simd_width);
  put_u32(w, k->nregions);
  put_u32(w, k->uses_barriers);
  put_u32(w, k->flags);
  put_u64(w, k->stream_bytes);
  put_u32(w, k->sub_group_size);
  put_u32(w, k->reqd_sub_group_size);
  put_str(w, k->report);
}

int cc_binary_write(const cc_binary *bin, cc_blob *out)
{
  wbuf w = {0};
  out->data = NULL;
  out->size = 0;
  put(&w, CC_BIN_MAGIC, 8);
  put_u32(&w, CC_BIN_VERSION);
  put_u32(&w, bin->kind);
  put_u64(&w, bin->device_key);
  put_u32(&w, bin->nkernels);
  for (uint32_t i = 0; i < bin->nkernels; i++)
    put_kernel(&w, &bin->kernels[i]);
  put_u64(&w, bin->bitcode.size);
  put(&w, bin->bitcode.data, bin->bitcode.size);
  put_u64(&w, bin->native.size);
  put(&w, bin->native.data, bin->native.size);
  put_u64(&w, bin->stage.size);
  put(&w, bin->stage.data, bin->stage.size);
  put_u32(&w, bin->nparts);
  for (uint32_t i = 0; i < bin->nparts; i++) {
    const cc_native_part *pt = &bin->parts[i];
    put_u32(&w, pt->nkernels);
    for (uint32_t k = 0; k < pt->nkernels; k++)
      put_u32(&w, pt->kernels[k]);
    put_u64(&w, pt->code.size);
    put(&w, pt->code.data, pt->code.size);
  }
  if (!w.oom)
    put_u64(&w, cc_hash64(w.p, w.len, 0));
  if (w.oom) {
    free(w.p);
    return CC_OUT_OF_MEMORY;
  }
  out->data = w.p;
  out->size = w.len;
  return CC_OK;
}

/* ---- reader ---- */

typedef struct rbuf {
  const unsigned char *p;
  size_t left;
  int bad;     /* truncated or malformed */
  int oom;
} rbuf;

static const unsigned char *take(rbuf *r, size_t n)
{
  if (r->bad || n > r->left) {
    r->bad = 1;
    return NULL;
  }
  const unsigned char *p = r->p;
  r->p += n;
  r->left -= n;
  return p;
}

static uint32_t get_u32(rbuf *r)
{
  const unsigned char *b = take(r, 4);
  uint32_t v = 0;
  for (int i = 0; b && i < 4; i++)
    v |= (uint32_t)b[i] << (8 * i);
  return v;
}

static uint64_t get_u64(rbuf *r)
{
  const unsigned char *b = take(r, 8);
  uint64_t v = 0;
  for (int i = 0; b && i < 8; i++)
    v |= (uint64_t)b[i] << (8 * i);
  return v;
}

static char *get_str(rbuf *r)
{
  uint32_t n = get_u32(r);
  const unsigned char *s = take(r, n);
  if (!s)
    return NULL;
  if (memchr(s, 0, n)) {
    r->bad = 1;
    return NULL;
  }
  char *c = malloc((size_t)n + 1);
  if (!c) {
    r->oom = r->bad = 1;
    return NULL;
  }
  memcpy(c, s, n);
  c[n] = 0;
  return c;
}

static int get_blob(rbuf *r, cc_blob *b)
{
  uint64_t n = get_u64(r);
  if (r->bad || n > r->left) {
    r->bad = 1;
    return 0;
  }
  const unsigned char *s = take(r, (size_t)n);
  b->data = malloc(n ? (size_t)n : 1);
  if (!b->data) {
    r->oom = r->bad = 1;
    return 0;
  }
  memcpy(b->data, s, (size_t)n);
  b->size = (size_t)n;
  return 1;
}

static int valid_arg(const cc_kernel_arg *a)
{
  return a->kind <= CC_ARG_IMAGE && a->addr_space <= CC_AS_GENERIC &&
         a->access_qual <= CC_ACCESS_READ_WRITE && a->type_qual < 16 &&
         (a->align == 0 || (a->align & (a->align - 1)) == 0);
}

static void get_kernel(rbuf *r, cc_kernel_info *k)
{
  k->name = get_str(r);
  k->attributes = get_str(r);
  uint32_t nargs = get_u32(r);
  if (r->bad)
    return;
  if (nargs > r->left / CC_MIN_ARG) {
    r->bad = 1;
    return;
  }
  if (nargs) {
    k->args = calloc(nargs, sizeof(*k->args));
    if (!k->args) {
      r->oom = r->bad = 1;
      return;
    }
  }
  k->nargs = nargs;
  for (uint32_t a = 0; a < nargs && !r->bad; a++) {
    cc_kernel_arg *arg = &k->args[a];
    arg->name = get_str(r);
    arg->type_name = get_str(r);
    arg->kind = get_u32(r);
    arg->addr_space = get_u32(r);
    arg->access_qual = get_u32(r);
    arg->type_qual = get_u32(r);
    arg->size = get_u32(r);
    arg->align = get_u32(r);
    if (!r->bad && !valid_arg(arg))
      r->bad = 1;
  }
  for (int d = 0; d < 3; d++)
    k->reqd_work_group_size[d] = get_u64(r);
  for (int d = 0; d < 3; d++)
    k->work_group_size_hint[d] = get_u64(r);
  k->vec_type_hint = get_str(r);
  k->local_mem_bytes = get_u64(r);
  k->private_mem_bytes = get_u64(r);
  k->frame_bytes = get_u64(r);
  k->simd_width = get_u32(r);
  k->nregions = get_u32(r);
  k->uses_barriers = get_u32(r);
  k->flags = get_u32(r);
  k->stream_bytes = get_u64(r);
  k->sub_group_size = get_u32(r);
  k->reqd_sub_group_size = get_u32(r);
  k->report = get_str(r);
  if (!r->bad && !k->name[0])
    r->bad = 1;
}

/* The parts of a staged executable: each kernel in at most one, none in a
 * whole executable or a non-executable. */
static void get_parts(rbuf *r, cc_binary *out)
{
  uint32_t np = get_u32(r);
  if (r->bad || !np)
    return;
  if (out->kind != CC_BIN_EXECUTABLE || out->native.size || np > out->nkernels || np > r->left / 12) {
    r->bad = 1;
    return;
  }
  unsigned char *seen = calloc(out->nkernels, 1);
  out->parts = calloc(np, sizeof(*out->parts));
  if (!seen || !out->parts) {
    free(seen);
    r->oom = r->bad = 1;
    return;
  }
  out->nparts = np;
  for (uint32_t i = 0; i < np && !r->bad; i++) {
    cc_native_part *pt = &out->parts[i];
    uint32_t nk = get_u32(r);
    if (r->bad || !nk || nk > out->nkernels || nk > r->left / 4) {
      r->bad = 1;
      break;
    }
    if (!(pt->kernels = malloc(nk * sizeof(*pt->kernels)))) {
      r->oom = r->bad = 1;
      break;
    }
    pt->nkernels = nk;
    for (uint32_t k = 0; k < nk && !r->bad; k++) {
      uint32_t x = get_u32(r);
      if (r->bad || x >= out->nkernels || seen[x])
        r->bad = 1;
      else
        seen[x] = 1;
      pt->kernels[k] = x;
    }
    if (!r->bad)
      get_blob(r, &pt->code);
    if (!r->bad && !pt->code.size)
      r->bad = 1;
  }
  free(seen);
}

int cc_binary_read(const void *data, size_t size, cc_binary *out)
{
  memset(out, 0, sizeof(*out));
  if (!data || size < CC_BIN_HEADER + 8 + 8 + 8 + 4 + 8)
    return CC_INVALID_BINARY;
  const unsigned char *bytes = data;
  if (memcmp(bytes, CC_BIN_MAGIC, 8))
    return CC_INVALID_BINARY;
  /* The checksum first: a damaged container is rejected before any count in
   * it is believed. */
  rbuf tail = {bytes + size - 8, 8, 0, 0};
  if (get_u64(&tail) != cc_hash64(bytes, size - 8, 0))
    return CC_INVALID_BINARY;

  rbuf r = {bytes + 8, size - 8 - 8, 0, 0};
  uint32_t version = get_u32(&r);
  out->kind = get_u32(&r);
  out->device_key = get_u64(&r);
  uint32_t nk = get_u32(&r);
  if (version != CC_BIN_VERSION || out->kind < CC_BIN_OBJECT || out->kind > CC_BIN_EXECUTABLE ||
      nk > r.left / CC_MIN_KERNEL)
    r.bad = 1;
  if (!r.bad && nk) {
    out->kernels = calloc(nk, sizeof(*out->kernels));
    if (!out->kernels)
      r.oom = r.bad = 1;
    else
      out->nkernels = nk;
  }
  for (uint32_t i = 0; i < out->nkernels && !r.bad; i++)
    get_kernel(&r, &out->kernels[i]);
  if (!r.bad)
    get_blob(&r, &out->bitcode);
  if (!r.bad)
    get_blob(&r, &out->native);
  if (!r.bad)
    get_blob(&r, &out->stage);
  get_parts(&r, out);
  if (!r.bad && r.left != 0)
    r.bad = 1;
  if (!r.bad && out->kind == CC_BIN_EXECUTABLE && !out->native.size && !out->stage.size) {
    /* staged, and no stage left: every kernel must have its code */
    uint32_t have = 0;
    for (uint32_t i = 0; i < out->nparts; i++)
      have += out->parts[i].nkernels;
    if (have != out->nkernels || !out->nparts)
      r.bad = 1;
  }
  if (r.bad) {
    int oom = r.oom;
    cc_binary_free(out);
    return oom ? CC_OUT_OF_MEMORY : CC_INVALID_BINARY;
  }
  return CC_OK;
}

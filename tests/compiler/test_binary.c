/* The binary container: round trip, and every damaged container is either
 * rejected with CC_INVALID_BINARY or read correctly, never a crash or a huge
 * allocation. */
#include "tests/compiler/cc_test.h"

#include <dlfcn.h>
#include <sys/resource.h>

static char *dup_s(const char *s)
{
  char *d = strdup(s);
  ASSERT_TRUE(d != NULL);
  return d;
}

/* A container with two kernels, some args, bitcode and native bytes. */
static void make_binary(cc_binary *b)
{
  memset(b, 0, sizeof(*b));
  b->kind = CC_BIN_EXECUTABLE;
  b->device_key = 0x1122334455667788ull;
  b->nkernels = 2;
  b->kernels = calloc(2, sizeof(cc_kernel_info));
  cc_kernel_info *k = b->kernels;
  k[0].name = dup_s("alpha");
  k[0].attributes = dup_s("reqd_work_group_size(8,1,1)");
  k[0].nargs = 2;
  k[0].args = calloc(2, sizeof(cc_kernel_arg));
  k[0].args[0] = (cc_kernel_arg){dup_s("a"), dup_s("float*"), CC_ARG_BUFFER, CC_AS_GLOBAL, CC_ACCESS_NONE,
                                 CC_TQ_RESTRICT | CC_TQ_CONST, 8, 8};
  k[0].args[1] = (cc_kernel_arg){dup_s("n"), dup_s("int"), CC_ARG_SCALAR, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 4, 4};
  k[0].reqd_work_group_size[0] = 8;
  k[0].reqd_work_group_size[1] = k[0].reqd_work_group_size[2] = 1;
  k[0].vec_type_hint = dup_s("float4");
  k[0].local_mem_bytes = 256;
  k[0].private_mem_bytes = 12;
  k[0].frame_bytes = 24;
  k[0].simd_width = 16;
  k[0].stream_bytes = 0x100000004ull;
  k[0].sub_group_size = 16;
  k[0].reqd_sub_group_size = 8;
  k[0].nregions = 3;
  k[0].uses_barriers = 1;
  k[0].flags = CC_KFLAG_ARG_INFO;
  k[0].report = dup_s("region 1: vectorized\nregion 2: scalar (reason)\n");
  k[1].name = dup_s("beta");
  k[1].attributes = dup_s("");
  k[1].vec_type_hint = dup_s("");
  k[1].report = NULL;  /* written as "" */
  k[1].work_group_size_hint[0] = 4;
  b->bitcode.size = 100;
  b->bitcode.data = malloc(100);
  for (int i = 0; i < 100; i++)
    ((unsigned char *)b->bitcode.data)[i] = (unsigned char)(i * 7);
  b->native.size = 37;
  b->native.data = malloc(37);
  memset(b->native.data, 0x7f, 37);
}

static void same_binary(const cc_binary *a, const cc_binary *b)
{
  ASSERT_EQ(a->kind, b->kind);
  ASSERT_TRUE(a->device_key == b->device_key);
  ASSERT_EQ(a->nkernels, b->nkernels);
  for (uint32_t i = 0; i < a->nkernels; i++) {
    const cc_kernel_info *x = &a->kernels[i], *y = &b->kernels[i];
    ASSERT_STREQ(x->name, y->name);
    ASSERT_STREQ(x->attributes, y->attributes);
    ASSERT_STREQ(x->vec_type_hint, y->vec_type_hint);
    ASSERT_STREQ(x->report ? x->report : "", y->report ? y->report : "");
    ASSERT_EQ(x->nargs, y->nargs);
    for (uint32_t j = 0; j < x->nargs; j++) {
      ASSERT_STREQ(x->args[j].name, y->args[j].name);
      ASSERT_STREQ(x->args[j].type_name, y->args[j].type_name);
      ASSERT_EQ(x->args[j].kind, y->args[j].kind);
      ASSERT_EQ(x->args[j].addr_space, y->args[j].addr_space);
      ASSERT_EQ(x->args[j].access_qual, y->args[j].access_qual);
      ASSERT_EQ(x->args[j].type_qual, y->args[j].type_qual);
      ASSERT_EQ(x->args[j].size, y->args[j].size);
      ASSERT_EQ(x->args[j].align, y->args[j].align);
    }
    for (int d = 0; d < 3; d++) {
      ASSERT_EQ(x->reqd_work_group_size[d], y->reqd_work_group_size[d]);
      ASSERT_EQ(x->work_group_size_hint[d], y->work_group_size_hint[d]);
    }
    ASSERT_EQ(x->local_mem_bytes, y->local_mem_bytes);
    ASSERT_EQ(x->private_mem_bytes, y->private_mem_bytes);
    ASSERT_EQ(x->frame_bytes, y->frame_bytes);
    ASSERT_EQ(x->simd_width, y->simd_width);
    ASSERT_EQ(x->stream_bytes, y->stream_bytes);
    ASSERT_EQ(x->sub_group_size, y->sub_group_size);
    ASSERT_EQ(x->reqd_sub_group_size, y->reqd_sub_group_size);
    ASSERT_EQ(x->nregions, y->nregions);
    ASSERT_EQ(x->uses_barriers, y->uses_barriers);
    ASSERT_EQ(x->flags, y->flags);
  }
  ASSERT_EQ(a->bitcode.size, b->bitcode.size);
  ASSERT_TRUE(!memcmp(a->bitcode.data, b->bitcode.data, a->bitcode.size));
  ASSERT_EQ(a->native.size, b->native.size);
  ASSERT_TRUE(!a->native.size || !memcmp(a->native.data, b->native.data, a->native.size));
}

TEST(round_trip)
{
  cc_binary b, r;
  cc_blob blob;
  make_binary(&b);
  ASSERT_EQ(cc_binary_write(&b, &blob), CC_OK);
  ASSERT_TRUE(!memcmp(blob.data, "LANECLB", 8));
  ASSERT_EQ(cc_binary_read(blob.data, blob.size, &r), CC_OK);
  same_binary(&b, &r);
  /* Writing what was read gives the same bytes. */
  cc_blob again;
  ASSERT_EQ(cc_binary_write(&r, &again), CC_OK);
  ASSERT_EQ(again.size, blob.size);
  ASSERT_TRUE(!memcmp(again.data, blob.data, blob.size));
  cc_blob_free(&again);
  cc_blob_free(&blob);
  cc_binary_free(&r);
  cc_binary_free(&b);
  ASSERT_TRUE(b.kernels == NULL && b.nkernels == 0);
}

TEST(round_trip_of_a_compiled_program)
{
  cc_blob out;
  char *log = NULL;
  ASSERT_EQ(ct_compile("kernel void k(global int *p, int v) { p[get_global_id(0)] = v; }", "", &out, &log), CC_OK);
  free(log);
  cc_binary r;
  ASSERT_EQ(cc_binary_read(out.data, out.size, &r), CC_OK);
  ASSERT_EQ(r.kind, CC_BIN_OBJECT);
  ASSERT_TRUE(r.device_key == cc_device_key(ct_dev()));
  cc_blob again;
  ASSERT_EQ(cc_binary_write(&r, &again), CC_OK);
  ASSERT_EQ(again.size, out.size);
  ASSERT_TRUE(!memcmp(again.data, out.data, out.size));
  cc_blob_free(&again);
  cc_binary_free(&r);
  cc_blob_free(&out);
}

TEST(empty_binary_round_trip)
{
  cc_binary b = {.kind = CC_BIN_OBJECT}, r;
  cc_blob blob;
  ASSERT_EQ(cc_binary_write(&b, &blob), CC_OK);
  ASSERT_EQ(cc_binary_read(blob.data, blob.size, &r), CC_OK);
  ASSERT_EQ(r.nkernels, 0);
  ASSERT_EQ(r.bitcode.size, 0);
  cc_binary_free(&r);
  cc_blob_free(&blob);
}

/* Caps the address space so that a huge allocation fails the test.  Not under
 * AddressSanitizer, whose shadow memory needs terabytes of address space (its
 * allocator reports a huge allocation by itself). */
static void limit_memory(void)
{
  if (dlsym(RTLD_DEFAULT, "__asan_init"))
    return;
  struct rlimit rl = {512u << 20, 512u << 20};
  setrlimit(RLIMIT_AS, &rl);
}

TEST(truncated_at_every_length)
{
  cc_binary b, r;
  cc_blob blob;
  make_binary(&b);
  ASSERT_EQ(cc_binary_write(&b, &blob), CC_OK);
  limit_memory();
  for (size_t n = 0; n < blob.size; n++) {
    int rc = cc_binary_read(blob.data, n, &r);
    if (rc != CC_INVALID_BINARY)
      tl_fail(__FILE__, __LINE__, "truncated to %zu of %zu bytes: status %d", n, blob.size, rc);
    ASSERT_TRUE(r.kernels == NULL && r.bitcode.data == NULL);
  }
  ASSERT_EQ(cc_binary_read(NULL, 0, &r), CC_INVALID_BINARY);
  /* Extra bytes are damage too. */
  unsigned char *longer = malloc(blob.size + 1);
  memcpy(longer, blob.data, blob.size);
  longer[blob.size] = 0;
  ASSERT_EQ(cc_binary_read(longer, blob.size + 1, &r), CC_INVALID_BINARY);
  free(longer);
  cc_blob_free(&blob);
  cc_binary_free(&b);
}

TEST(every_flipped_byte)
{
  cc_binary b, r;
  cc_blob blob;
  make_binary(&b);
  ASSERT_EQ(cc_binary_write(&b, &blob), CC_OK);
  limit_memory();
  unsigned char *copy = malloc(blob.size);
  for (size_t i = 0; i < blob.size; i++) {
    static const unsigned char flips[] = {0x01, 0x80, 0xff};
    for (size_t f = 0; f < sizeof(flips); f++) {
      memcpy(copy, blob.data, blob.size);
      copy[i] ^= flips[f];
      int rc = cc_binary_read(copy, blob.size, &r);
      if (rc != CC_INVALID_BINARY)
        tl_fail(__FILE__, __LINE__, "byte %zu ^ 0x%02x: status %d", i, flips[f], rc);
    }
  }
  free(copy);
  cc_blob_free(&blob);
  cc_binary_free(&b);
}

/* Damage with a valid checksum: the parser itself must hold. */
static int read_resealed(unsigned char *p, size_t n, cc_binary *r)
{
  uint64_t h = cc_hash64(p, n - 8, 0);
  for (int i = 0; i < 8; i++)
    p[n - 8 + i] = (unsigned char)(h >> (8 * i));
  return cc_binary_read(p, n, r);
}

TEST(resealed_damage_is_rejected_or_read)
{
  cc_binary b, r;
  cc_blob blob;
  make_binary(&b);
  ASSERT_EQ(cc_binary_write(&b, &blob), CC_OK);
  limit_memory();
  unsigned char *copy = malloc(blob.size);
  unsigned ok = 0, bad = 0;
  for (size_t i = 0; i + 8 < blob.size; i++) {
    static const unsigned char values[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
    for (size_t v = 0; v < sizeof(values); v++) {
      memcpy(copy, blob.data, blob.size);
      if (copy[i] == values[v])
        continue;
      copy[i] = values[v];
      int rc = read_resealed(copy, blob.size, &r);
      if (rc == CC_OK) {
        /* Read correctly: well-formed strings and counts. */
        for (uint32_t k = 0; k < r.nkernels; k++) {
          ASSERT_TRUE(r.kernels[k].name && r.kernels[k].name[0]);
          for (uint32_t a = 0; a < r.kernels[k].nargs; a++)
            ASSERT_TRUE(r.kernels[k].args[a].kind <= CC_ARG_IMAGE);
        }
        cc_binary_free(&r);
        ok++;
      } else {
        if (rc != CC_INVALID_BINARY)
          tl_fail(__FILE__, __LINE__, "byte %zu = 0x%02x: status %d", i, values[v], rc);
        bad++;
      }
    }
  }
  printf("  %u damaged containers read, %u rejected\n", ok, bad);
  ASSERT_TRUE(bad > 0);
  free(copy);
  cc_blob_free(&blob);
  cc_binary_free(&b);
}

TEST(wrong_magic_version_kind_and_huge_counts)
{
  cc_binary b, r;
  cc_blob blob;
  make_binary(&b);
  ASSERT_EQ(cc_binary_write(&b, &blob), CC_OK);
  limit_memory();
  unsigned char *p = malloc(blob.size);
  /* magic */
  memcpy(p, blob.data, blob.size);
  p[0] = 'X';
  ASSERT_EQ(read_resealed(p, blob.size, &r), CC_INVALID_BINARY);
  /* versions 1 to 3 (before stream_bytes, the sub-group sizes, the stage
   * and parts: a cached one is rebuilt) and 5 */
  memcpy(p, blob.data, blob.size);
  ASSERT_EQ(p[8], 4);
  for (unsigned char v = 1; v <= 5; v++) {
    if (v == 4)
      continue;
    p[8] = v;
    ASSERT_EQ(read_resealed(p, blob.size, &r), CC_INVALID_BINARY);
  }
  /* kind 0 and 4 */
  memcpy(p, blob.data, blob.size);
  p[12] = 0;
  ASSERT_EQ(read_resealed(p, blob.size, &r), CC_INVALID_BINARY);
  p[12] = 4;
  ASSERT_EQ(read_resealed(p, blob.size, &r), CC_INVALID_BINARY);
  /* nkernels 0xffffffff: no 4-billion-entry allocation */
  memcpy(p, blob.data, blob.size);
  memset(p + 24, 0xff, 4);
  ASSERT_EQ(read_resealed(p, blob.size, &r), CC_INVALID_BINARY);
  /* first kernel name length 0xffffffff */
  memcpy(p, blob.data, blob.size);
  memset(p + 28, 0xff, 4);
  ASSERT_EQ(read_resealed(p, blob.size, &r), CC_INVALID_BINARY);
  free(p);
  /* garbage of every small size */
  unsigned char junk[512];
  for (size_t i = 0; i < sizeof(junk); i++)
    junk[i] = (unsigned char)(i * 131 + 17);
  for (size_t n = 0; n <= sizeof(junk); n++)
    ASSERT_EQ(cc_binary_read(junk, n, &r), CC_INVALID_BINARY);
  memcpy(junk, "LANECLB", 8);
  for (size_t n = 0; n <= sizeof(junk); n++)
    ASSERT_EQ(cc_binary_read(junk, n, &r), CC_INVALID_BINARY);
  cc_blob_free(&blob);
  cc_binary_free(&b);
}

/* make_binary as a staged executable: no native code, a stage, and kernel
 * 1's code in a part. */
static void make_staged(cc_binary *b)
{
  make_binary(b);
  cc_blob_free(&b->native);
  b->stage.size = 50;
  b->stage.data = malloc(50);
  memset(b->stage.data, 0x42, 50);
  b->nparts = 1;
  b->parts = calloc(1, sizeof(*b->parts));
  b->parts[0].nkernels = 1;
  b->parts[0].kernels = malloc(sizeof(uint32_t));
  b->parts[0].kernels[0] = 1;
  b->parts[0].code.size = 20;
  b->parts[0].code.data = malloc(20);
  memset(b->parts[0].code.data, 0x7f, 20);
}

TEST(staged_round_trip_and_damage)
{
  cc_binary b, r;
  cc_blob blob;
  make_staged(&b);
  ASSERT_EQ(cc_binary_write(&b, &blob), CC_OK);
  ASSERT_EQ(cc_binary_read(blob.data, blob.size, &r), CC_OK);
  same_binary(&b, &r);
  ASSERT_EQ(r.stage.size, 50);
  ASSERT_EQ(((unsigned char *)r.stage.data)[49], 0x42);
  ASSERT_EQ(r.nparts, 1);
  ASSERT_EQ(r.parts[0].nkernels, 1);
  ASSERT_EQ(r.parts[0].kernels[0], 1);
  ASSERT_EQ(r.parts[0].code.size, 20);
  cc_binary_free(&r);
  limit_memory();
  for (size_t n = 0; n < blob.size; n++)
    ASSERT_EQ(cc_binary_read(blob.data, n, &r), CC_INVALID_BINARY);
  /* damage under a valid checksum: rejected, or read with every part's
   * kernels in range and each kernel in one part at most */
  unsigned char *copy = malloc(blob.size);
  unsigned read_ok = 0;
  for (size_t i = 0; i + 8 < blob.size; i++) {
    static const unsigned char values[] = {0x00, 0x01, 0x02, 0xff};
    for (size_t v = 0; v < sizeof(values); v++) {
      memcpy(copy, blob.data, blob.size);
      if (copy[i] == values[v])
        continue;
      copy[i] = values[v];
      int rc = read_resealed(copy, blob.size, &r);
      if (rc != CC_OK) {
        ASSERT_EQ(rc, CC_INVALID_BINARY);
        continue;
      }
      read_ok++;
      unsigned char seen[2] = {0, 0};
      for (uint32_t q = 0; q < r.nparts; q++)
        for (uint32_t k = 0; k < r.parts[q].nkernels; k++) {
          ASSERT_TRUE(r.parts[q].kernels[k] < r.nkernels);
          ASSERT_TRUE(!seen[r.parts[q].kernels[k]]);
          seen[r.parts[q].kernels[k]] = 1;
        }
      cc_binary_free(&r);
    }
  }
  printf("  %u damaged staged containers read\n", read_ok);
  free(copy);
  cc_blob_free(&blob);
  cc_binary_free(&b);
}

/* What the writer would write but the reader must refuse: a part's kernel
 * out of range or in two parts, an empty part, parts beside whole native
 * code, a kernel with neither code nor stage. */
TEST(staged_rules)
{
  cc_binary b, r;
  cc_blob blob;
  for (int c = 0; c < 6; c++) {
    make_staged(&b);
    int want = CC_INVALID_BINARY;
    switch (c) {
    case 0: b.parts[0].kernels[0] = 2; break;
    case 1: {  /* kernel 1 in a second part too */
      b.parts = realloc(b.parts, 2 * sizeof(*b.parts));
      b.parts[1].nkernels = 1;
      b.parts[1].kernels = malloc(sizeof(uint32_t));
      b.parts[1].kernels[0] = 1;
      b.parts[1].code.size = 4;
      b.parts[1].code.data = calloc(1, 4);
      b.nparts = 2;
      break;
    }
    case 2: b.parts[0].nkernels = 0; break;
    case 3:
      b.native.size = 8;
      b.native.data = calloc(1, 8);
      break;
    case 4: cc_blob_free(&b.stage); break;  /* kernel 0 has no code, and no stage is left */
    case 5:  /* no stage, every kernel in a part: valid */
      cc_blob_free(&b.stage);
      b.parts[0].nkernels = 2;
      b.parts[0].kernels = realloc(b.parts[0].kernels, 2 * sizeof(uint32_t));
      b.parts[0].kernels[1] = 0;
      want = CC_OK;
      break;
    }
    ASSERT_EQ(cc_binary_write(&b, &blob), CC_OK);
    int rc = cc_binary_read(blob.data, blob.size, &r);
    if (rc != want)
      tl_fail(__FILE__, __LINE__, "case %d: status %d, want %d", c, rc, want);
    if (rc == CC_OK)
      cc_binary_free(&r);
    cc_blob_free(&blob);
    cc_binary_free(&b);
  }
}

TEST(hash_and_device_key)
{
  /* FNV-1a 64 reference values */
  ASSERT_TRUE(cc_hash64("", 0, 0) == 0xcbf29ce484222325ull);
  ASSERT_TRUE(cc_hash64("a", 1, 0) == 0xaf63dc4c8601ec8cull);
  ASSERT_TRUE(cc_hash64("foobar", 6, 0) == 0x85944171f73967e8ull);
  cc_device_desc a = {NULL, NULL, 512, 1024, "-all"}, b = a;
  ASSERT_TRUE(cc_device_key(&a) == cc_device_key(&b));
  b.simd_bits = 256;
  ASSERT_TRUE(cc_device_key(&a) != cc_device_key(&b));
  b = a;
  b.cpu_name = "znver4";
  ASSERT_TRUE(cc_device_key(&a) != cc_device_key(&b));
  b = a;
  b.cl_ext = "-all,+cl_khr_fp64";
  ASSERT_TRUE(cc_device_key(&a) != cc_device_key(&b));
}

TEST(api_rejects_damaged_inputs)
{
  cc_blob junk = {"LANECLB\0garbage-garbage-garbage-garbage-garbage", 48}, out = {0};
  char *log = NULL, *text = NULL;
  ASSERT_EQ(ct_api()->link(ct_dev(), &junk, 1, "", 0, &out, &log), CC_INVALID_BINARY);
  ASSERT_TRUE(out.data == NULL);
  free(log);
  ASSERT_EQ(ct_api()->disassemble(ct_dev(), &junk, 0, &text), CC_INVALID_BINARY);
  free(text);
  /* A well-formed container whose bitcode is not bitcode. */
  cc_binary b;
  make_binary(&b);
  cc_blob blob;
  ASSERT_EQ(cc_binary_write(&b, &blob), CC_OK);
  ASSERT_EQ(ct_api()->link(ct_dev(), &blob, 1, "", 1, &out, &log), CC_INVALID_BINARY);
  free(log);
  ASSERT_EQ(ct_api()->disassemble(ct_dev(), &blob, 0, &text), CC_INVALID_BINARY);
  free(text);
  cc_blob_free(&blob);
  cc_binary_free(&b);
}

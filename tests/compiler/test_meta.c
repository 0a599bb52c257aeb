/* Kernel metadata: every argument kind, qualifiers, names, sizes and
 * alignments, attributes, static local memory. */
#include "tests/compiler/cc_test.h"

static const char args_src[] =
    "typedef struct { int a; float4 b; char c; } S;\n"
    "typedef union { int i; float f; double d; } U;\n"
    "kernel void all_args(global float4 *restrict a, local int *l, constant float *c, const int x,\n"
    "                     S s, sampler_t smp, read_only image2d_t img, write_only image1d_t img2,\n"
    "                     read_write image3d_t img3, float3 v, global const volatile int *q,\n"
    "                     uchar u, global half *hp, long lg, double8 d8, U un, char3 c3, short sh,\n"
    "                     ulong ul, global uint *gu, local float4 *l4)\n"
    "{ a[0].x = (float)(c[0] + x + s.b.x + v.x + u + lg + d8.s0 + un.f + c3.x + sh + ul + l[0] + q[0]) + l4[0].y; }\n";

static void check_arg(const cc_kernel_arg *a, const char *name, const char *type, uint32_t kind,
                      uint32_t as, uint32_t access, uint32_t tq, uint32_t size, uint32_t align)
{
  if (strcmp(a->name, name) || strcmp(a->type_name, type) || a->kind != kind || a->addr_space != as ||
      a->access_qual != access || a->type_qual != tq || a->size != size || a->align != align)
    tl_fail(__FILE__, __LINE__,
            "arg %s: got name %s type %s kind %u as %u access %u tq %u size %u align %u; "
            "expected %s %s %u %u %u %u %u %u",
            name, a->name, a->type_name, a->kind, a->addr_space, a->access_qual, a->type_qual, a->size,
            a->align, name, type, kind, as, access, tq, size, align);
}

TEST(every_argument_kind)
{
  cc_binary bin;
  ct_compile_read(args_src, "-cl-std=CL3.0 -cl-kernel-arg-info", &bin);
  const cc_kernel_info *k = ct_kernel(&bin, "all_args");
  ASSERT_EQ(k->nargs, 21);
  const cc_kernel_arg *a = k->args;
  check_arg(&a[0], "a", "float4*", CC_ARG_BUFFER, CC_AS_GLOBAL, CC_ACCESS_NONE, CC_TQ_RESTRICT, 8, 8);
  check_arg(&a[1], "l", "int*", CC_ARG_LOCAL, CC_AS_LOCAL, CC_ACCESS_NONE, 0, 8, 8);
  check_arg(&a[2], "c", "float*", CC_ARG_BUFFER, CC_AS_CONSTANT, CC_ACCESS_NONE, CC_TQ_CONST, 8, 8);
  /* const on a by-value argument is no pointee qualifier */
  ASSERT_EQ(a[3].kind, CC_ARG_SCALAR);
  ASSERT_EQ(a[3].size, 4);
  ASSERT_EQ(a[3].align, 4);
  ASSERT_STREQ(a[3].type_name, "int");
  check_arg(&a[4], "s", "S", CC_ARG_SCALAR, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 48, 16);
  check_arg(&a[5], "smp", "sampler_t", CC_ARG_SAMPLER, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 8, 8);
  check_arg(&a[6], "img", "image2d_t", CC_ARG_IMAGE, CC_AS_GLOBAL, CC_ACCESS_READ_ONLY, 0, 8, 8);
  check_arg(&a[7], "img2", "image1d_t", CC_ARG_IMAGE, CC_AS_GLOBAL, CC_ACCESS_WRITE_ONLY, 0, 8, 8);
  check_arg(&a[8], "img3", "image3d_t", CC_ARG_IMAGE, CC_AS_GLOBAL, CC_ACCESS_READ_WRITE, 0, 8, 8);
  check_arg(&a[9], "v", "float3", CC_ARG_SCALAR, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 16, 16);
  check_arg(&a[10], "q", "int*", CC_ARG_BUFFER, CC_AS_GLOBAL, CC_ACCESS_NONE, CC_TQ_CONST | CC_TQ_VOLATILE, 8, 8);
  check_arg(&a[11], "u", "uchar", CC_ARG_SCALAR, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 1, 1);
  check_arg(&a[12], "hp", "half*", CC_ARG_BUFFER, CC_AS_GLOBAL, CC_ACCESS_NONE, 0, 8, 8);
  check_arg(&a[13], "lg", "long", CC_ARG_SCALAR, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 8, 8);
  check_arg(&a[14], "d8", "double8", CC_ARG_SCALAR, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 64, 64);
  check_arg(&a[15], "un", "U", CC_ARG_SCALAR, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 8, 8);
  check_arg(&a[16], "c3", "char3", CC_ARG_SCALAR, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 4, 4);
  check_arg(&a[17], "sh", "short", CC_ARG_SCALAR, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 2, 2);
  check_arg(&a[18], "ul", "ulong", CC_ARG_SCALAR, CC_AS_PRIVATE, CC_ACCESS_NONE, 0, 8, 8);
  check_arg(&a[19], "gu", "uint*", CC_ARG_BUFFER, CC_AS_GLOBAL, CC_ACCESS_NONE, 0, 8, 8);
  check_arg(&a[20], "l4", "float4*", CC_ARG_LOCAL, CC_AS_LOCAL, CC_ACCESS_NONE, 0, 8, 8);
  ASSERT_STREQ(k->attributes, "");
  ASSERT_STREQ(k->vec_type_hint, "");
  ASSERT_EQ(k->reqd_work_group_size[0], 0);
  ASSERT_EQ(k->work_group_size_hint[0], 0);
  ASSERT_EQ(k->simd_width, 1);
  cc_binary_free(&bin);
}

TEST(attributes)
{
  const char *src =
      "__attribute__((reqd_work_group_size(8, 4, 2))) __attribute__((vec_type_hint(float4)))\n"
      "kernel void a(global int *p) { p[0] = 1; }\n"
      "__attribute__((work_group_size_hint(16, 1, 1))) __attribute__((vec_type_hint(uint)))\n"
      "kernel void b(global int *p) { p[0] = 2; }\n"
      "__attribute__((vec_type_hint(char16))) kernel void c(global int *p) { p[0] = 3; }\n"
      "__attribute__((vec_type_hint(double2))) kernel void d(global int *p) { p[0] = 4; }\n"
      "kernel void e(void) { }\n";
  cc_binary bin;
  ct_compile_read(src, "", &bin);
  ASSERT_EQ(bin.nkernels, 5);
  const cc_kernel_info *a = ct_kernel(&bin, "a"), *b = ct_kernel(&bin, "b");
  ASSERT_EQ(a->reqd_work_group_size[0], 8);
  ASSERT_EQ(a->reqd_work_group_size[1], 4);
  ASSERT_EQ(a->reqd_work_group_size[2], 2);
  ASSERT_EQ(a->work_group_size_hint[0], 0);
  ASSERT_STREQ(a->vec_type_hint, "float4");
  ASSERT_STREQ(a->attributes, "reqd_work_group_size(8,4,2) vec_type_hint(float4)");
  ASSERT_EQ(b->work_group_size_hint[0], 16);
  ASSERT_EQ(b->work_group_size_hint[1], 1);
  ASSERT_EQ(b->reqd_work_group_size[0], 0);
  ASSERT_STREQ(b->vec_type_hint, "uint");
  ASSERT_STREQ(b->attributes, "work_group_size_hint(16,1,1) vec_type_hint(uint)");
  ASSERT_STREQ(ct_kernel(&bin, "c")->vec_type_hint, "char16");
  ASSERT_STREQ(ct_kernel(&bin, "d")->vec_type_hint, "double2");
  ASSERT_EQ(ct_kernel(&bin, "e")->nargs, 0);
  ASSERT_STREQ(ct_kernel(&bin, "e")->attributes, "");
  cc_binary_free(&bin);
}

TEST(static_local_memory)
{
  const char *src =
      "int helper(local int *t, int i) { return t[i]; }\n"
      "kernel void uses(global int *p) {\n"
      "  local int tile[64]; local double d[3];\n"
      "  tile[get_local_id(0)] = p[get_global_id(0)]; d[get_local_id(0) % 3] = 1.0;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  p[get_global_id(0)] = helper(tile, 63 - get_local_id(0)) + d[1];\n"
      "}\n"
      "kernel void none(global int *p) { p[0] = 1; }\n";
  cc_binary bin;
  ct_compile_read(src, "", &bin);
  ASSERT_EQ(ct_kernel(&bin, "uses")->local_mem_bytes, 64 * 4 + 3 * 8);
  ASSERT_EQ(ct_kernel(&bin, "none")->local_mem_bytes, 0);
  cc_binary_free(&bin);
  /* Unoptimized code too (the locals are reached through a call). */
  ct_compile_read(src, "-cl-opt-disable", &bin);
  ASSERT_EQ(ct_kernel(&bin, "uses")->local_mem_bytes, 64 * 4 + 3 * 8);
  ASSERT_EQ(ct_kernel(&bin, "none")->local_mem_bytes, 0);
  cc_binary_free(&bin);
}

TEST(kernels_in_source_order_with_names)
{
  const char *src = "kernel void first(global int *x) { *x = 1; }\n"
                    "void not_a_kernel(global int *x) { *x = 2; }\n"
                    "kernel void second(global int *y, int z) { *y = z; }\n";
  cc_binary bin;
  ct_compile_read(src, "", &bin);
  ASSERT_EQ(bin.nkernels, 2);
  ASSERT_STREQ(bin.kernels[0].name, "first");
  ASSERT_STREQ(bin.kernels[1].name, "second");
  ASSERT_STREQ(bin.kernels[1].args[0].name, "y");
  ASSERT_STREQ(bin.kernels[1].args[1].name, "z");
  ASSERT_TRUE(bin.bitcode.size > 0);
  ASSERT_EQ(bin.native.size, 0);
  cc_binary_free(&bin);
}

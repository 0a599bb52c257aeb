/* Kernel family through the ICD loader: create (one, all, clone), retain and
 * release (a kernel keeps its program), every argument kind of clSetKernelArg
 * and its errors, SVM and exec info (no SVM), and the kernel, argument,
 * work-group and sub-group queries. */
#include <stdbool.h>

#include "tests/testlib.h"

static const char args_src[] =
    "typedef struct { int a; float b; long c; char d; } pod;\n"
    "__kernel void all_kinds(__global float *restrict out, __constant int *table,\n"
    "                        __local float *scratch, int n, float4 v, pod s,\n"
    "                        __global const volatile int *in)\n"
    "{\n"
    "  size_t i = get_global_id(0);\n"
    "  scratch[get_local_id(0)] = v.x + (float)n;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[i] = scratch[get_local_id(0)] + (float)table[0] + s.b + (float)s.c + (float)in[0];\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(4, 2, 1))) void fixed(__global int *o)\n"
    "{\n"
    "  __local int tmp[64];\n"
    "  tmp[get_local_id(1) * 4 + get_local_id(0)] = 1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[get_global_id(1) * get_global_size(0) + get_global_id(0)] = tmp[0];\n"
    "}\n"
    "__kernel void add(__global int *o, int v) { o[get_global_id(0)] += v; }\n";

enum { ARG_OUT, ARG_TABLE, ARG_SCRATCH, ARG_N, ARG_V, ARG_S, ARG_IN, NARGS };

typedef struct {
  cl_int a;
  cl_float b;
  cl_long c;
  cl_char d;
} pod;

static cl_kernel kernel_of(cl_program p, const char *name)
{
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(k != NULL);
  return k;
}

static cl_uint refcount(cl_kernel k)
{
  cl_uint rc = 0;
  ASSERT_OK(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof(rc), &rc, NULL));
  return rc;
}

/* Runs `add` (o[i] += v) over n ints of buf on q. */
static void run_add(cl_command_queue q, cl_kernel k, size_t n)
{
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
}

TEST(create_kernel_errors)
{
  cl_context ctx = tl_context();
  cl_int err;
  const char *src = args_src;
  cl_program unbuilt = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ASSERT_TRUE(clCreateKernel(unbuilt, "add", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROGRAM_EXECUTABLE);
  ASSERT_TRUE(clCreateKernel(unbuilt, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program p = tl_build(ctx, args_src, NULL);
  ASSERT_TRUE(clCreateKernel(p, "no_such_kernel", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_KERNEL_NAME);
  ASSERT_TRUE(clCreateKernel(p, "ad", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_KERNEL_NAME);
  ASSERT_TRUE(clCreateKernel(p, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateKernel(NULL, "add", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROGRAM);
  ASSERT_TRUE(clCreateKernel((cl_program)ctx, "add", &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROGRAM);
  /* errcode_ret may be NULL */
  ASSERT_TRUE(clCreateKernel(p, "no_such_kernel", NULL) == NULL);
  clReleaseProgram(unbuilt);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

TEST(create_kernels_in_program)
{
  cl_context ctx = tl_context();
  cl_int err;
  const char *src = args_src;
  cl_program unbuilt = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  cl_uint n = 99;
  ASSERT_CL(clCreateKernelsInProgram(unbuilt, 0, NULL, &n), CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program p = tl_build(ctx, args_src, NULL);
  ASSERT_OK(clCreateKernelsInProgram(p, 0, NULL, &n));
  ASSERT_EQ(n, 3);
  cl_kernel ks[4] = {NULL, NULL, NULL, NULL};
  ASSERT_CL(clCreateKernelsInProgram(p, 2, ks, &n), CL_INVALID_VALUE);
  ASSERT_TRUE(ks[0] == NULL);
  ASSERT_OK(clCreateKernelsInProgram(p, 4, ks, &n));
  ASSERT_EQ(n, 3);
  ASSERT_TRUE(ks[3] == NULL);
  int seen = 0;
  for (int i = 0; i < 3; i++) {
    char name[64];
    ASSERT_OK(clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL));
    seen |= !strcmp(name, "all_kinds") ? 1 : !strcmp(name, "fixed") ? 2 : !strcmp(name, "add") ? 4 : 0;
    clReleaseKernel(ks[i]);
  }
  ASSERT_EQ(seen, 7);
  ASSERT_OK(clCreateKernelsInProgram(p, 3, ks, NULL));
  for (int i = 0; i < 3; i++)
    clReleaseKernel(ks[i]);
  ASSERT_CL(clCreateKernelsInProgram(NULL, 0, NULL, &n), CL_INVALID_PROGRAM);
  clReleaseProgram(unbuilt);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

TEST(kernel_info)
{
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, args_src, NULL);
  cl_kernel k = kernel_of(p, "all_kinds"), f = kernel_of(p, "fixed");
  char name[64];
  size_t size = 0;
  ASSERT_OK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, &size));
  ASSERT_STREQ(name, "all_kinds");
  ASSERT_EQ(size, strlen("all_kinds") + 1);
  cl_uint nargs = 0;
  ASSERT_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
  ASSERT_EQ(nargs, NARGS);
  ASSERT_EQ(refcount(k), 1);
  cl_context c = NULL;
  ASSERT_OK(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof(c), &c, NULL));
  ASSERT_TRUE(c == ctx);
  cl_program kp = NULL;
  ASSERT_OK(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(kp), &kp, NULL));
  ASSERT_TRUE(kp == p);
  char attrs[256];
  ASSERT_OK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof(attrs), attrs, NULL));
  ASSERT_STREQ(attrs, "");
  ASSERT_OK(clGetKernelInfo(f, CL_KERNEL_ATTRIBUTES, sizeof(attrs), attrs, NULL));
  ASSERT_TRUE(strstr(attrs, "reqd_work_group_size(4,2,1)") != NULL);
  /* errors */
  ASSERT_CL(clGetKernelInfo(k, 0x7fff, sizeof(name), name, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 4, name, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, 1, &nargs, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelInfo(NULL, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL), CL_INVALID_KERNEL);
  ASSERT_CL(clGetKernelInfo((cl_kernel)p, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL), CL_INVALID_KERNEL);
  clReleaseKernel(k);
  clReleaseKernel(f);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* A kernel keeps its program: released program, the kernel still runs;
 * a released kernel is no longer a valid handle's owner. */
TEST(retain_release_kernel_keeps_program)
{
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, args_src, NULL);
  cl_kernel k = kernel_of(p, "add");
  ASSERT_OK(clRetainKernel(k));
  ASSERT_EQ(refcount(k), 2);
  ASSERT_OK(clReleaseKernel(k));
  ASSERT_EQ(refcount(k), 1);
  ASSERT_CL(clRetainKernel(NULL), CL_INVALID_KERNEL);
  ASSERT_CL(clReleaseKernel(NULL), CL_INVALID_KERNEL);
  ASSERT_CL(clReleaseKernel((cl_kernel)ctx), CL_INVALID_KERNEL);
  ASSERT_OK(clReleaseProgram(p));
  cl_int err;
  int data[16] = {0};
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(data), data, &err);
  ASSERT_OK(err);
  int v = 5;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  cl_command_queue q = tl_queue(ctx, 0);
  run_add(q, k, 16);
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(data), data, 0, NULL, NULL));
  for (int i = 0; i < 16; i++)
    ASSERT_EQ(data[i], 5);
  cl_program kp;
  ASSERT_OK(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(kp), &kp, NULL));
  ASSERT_TRUE(kp == p);
  ASSERT_OK(clReleaseKernel(k));
  clReleaseCommandQueue(q);
  clReleaseMemObject(buf);
  clReleaseContext(ctx);
}

TEST(set_arg_every_kind)
{
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, args_src, NULL);
  cl_kernel k = kernel_of(p, "all_kinds");
  cl_int err;
  enum { N = 32 };
  float out[N];
  int table[4] = {10, 0, 0, 0}, in[1] = {1000};
  cl_mem bout = clCreateBuffer(ctx, 0, sizeof(out), NULL, &err);
  cl_mem btable = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(table), table, &err);
  cl_mem bin = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
  ASSERT_OK(err);
  int n = 3;
  cl_float4 v = {{0.5f, 0, 0, 0}};
  pod s = {1, 2.0f, 100, 'x'};
  ASSERT_OK(clSetKernelArg(k, ARG_OUT, sizeof(cl_mem), &bout));
  ASSERT_OK(clSetKernelArg(k, ARG_TABLE, sizeof(cl_mem), &btable));
  ASSERT_OK(clSetKernelArg(k, ARG_SCRATCH, 16 * sizeof(float), NULL));
  ASSERT_OK(clSetKernelArg(k, ARG_N, sizeof(n), &n));
  ASSERT_OK(clSetKernelArg(k, ARG_V, sizeof(v), &v));
  ASSERT_OK(clSetKernelArg(k, ARG_S, sizeof(s), &s));
  ASSERT_OK(clSetKernelArg(k, ARG_IN, sizeof(cl_mem), &bin));
  cl_command_queue q = tl_queue(ctx, 0);
  size_t global = N, local = 16;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  for (int i = 0; i < N; i++)
    ASSERT_EQ(out[i], 0.5f + 3 + 10 + 2.0f + 100 + 1000);
  clReleaseCommandQueue(q);
  clReleaseMemObject(bout);
  clReleaseMemObject(btable);
  clReleaseMemObject(bin);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

TEST(set_arg_errors)
{
  cl_context ctx = tl_context(), other = tl_context();
  cl_program p = tl_build(ctx, args_src, NULL);
  cl_kernel k = kernel_of(p, "all_kinds");
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, 0, 64, NULL, &err);
  cl_mem foreign = clCreateBuffer(other, 0, 64, NULL, &err);
  ASSERT_OK(err);
  cl_mem null_mem = NULL;
  int n = 1;
  pod s = {0};
  ASSERT_CL(clSetKernelArg(NULL, 0, sizeof(cl_mem), &buf), CL_INVALID_KERNEL);
  ASSERT_CL(clSetKernelArg((cl_kernel)ctx, 0, sizeof(cl_mem), &buf), CL_INVALID_KERNEL);
  ASSERT_CL(clSetKernelArg(k, NARGS, sizeof(cl_mem), &buf), CL_INVALID_ARG_INDEX);
  ASSERT_CL(clSetKernelArg(k, 1000, sizeof(cl_mem), &buf), CL_INVALID_ARG_INDEX);
  /* buffers */
  ASSERT_CL(clSetKernelArg(k, ARG_OUT, sizeof(cl_mem) - 1, &buf), CL_INVALID_ARG_SIZE);
  cl_context not_mem = ctx;
  ASSERT_CL(clSetKernelArg(k, ARG_OUT, sizeof(cl_mem), &not_mem), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clSetKernelArg(k, ARG_OUT, sizeof(cl_mem), &foreign), CL_INVALID_CONTEXT);
  ASSERT_OK(clSetKernelArg(k, ARG_OUT, sizeof(cl_mem), &null_mem));
  ASSERT_OK(clSetKernelArg(k, ARG_OUT, sizeof(cl_mem), NULL));
  ASSERT_OK(clSetKernelArg(k, ARG_TABLE, sizeof(cl_mem), &buf));
  /* __local */
  ASSERT_CL(clSetKernelArg(k, ARG_SCRATCH, 64, &buf), CL_INVALID_ARG_VALUE);
  ASSERT_CL(clSetKernelArg(k, ARG_SCRATCH, 0, NULL), CL_INVALID_ARG_SIZE);
  ASSERT_OK(clSetKernelArg(k, ARG_SCRATCH, 64, NULL));
  /* by value */
  ASSERT_CL(clSetKernelArg(k, ARG_N, sizeof(n) + 1, &n), CL_INVALID_ARG_SIZE);
  ASSERT_CL(clSetKernelArg(k, ARG_N, 2, &n), CL_INVALID_ARG_SIZE);
  ASSERT_CL(clSetKernelArg(k, ARG_N, sizeof(n), NULL), CL_INVALID_ARG_VALUE);
  ASSERT_CL(clSetKernelArg(k, ARG_V, sizeof(cl_float3) - 4, &s), CL_INVALID_ARG_SIZE);
  ASSERT_CL(clSetKernelArg(k, ARG_S, sizeof(s) - 8, &s), CL_INVALID_ARG_SIZE);
  ASSERT_OK(clSetKernelArg(k, ARG_S, sizeof(s), &s));
  /* A rejected call leaves the argument unset: enqueue says so. */
  cl_command_queue q = tl_queue(ctx, 0);
  size_t global = 16;
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  clReleaseCommandQueue(q);
  /* no SVM */
  ASSERT_CL(clSetKernelArgSVMPointer(k, 0, &n), CL_INVALID_OPERATION);
  ASSERT_CL(clSetKernelArgSVMPointer(NULL, 0, &n), CL_INVALID_KERNEL);
  void *ptrs[1] = {&n};
  ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(ptrs), ptrs), CL_INVALID_OPERATION);
  cl_bool yes = CL_TRUE, no = CL_FALSE;
  ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(yes), &yes),
            CL_INVALID_OPERATION);
  ASSERT_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(no), &no));
  ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &no), CL_INVALID_VALUE);
  ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(no), NULL), CL_INVALID_VALUE);
  ASSERT_CL(clSetKernelExecInfo(k, 0x7fff, sizeof(no), &no), CL_INVALID_VALUE);
  ASSERT_CL(clSetKernelExecInfo(NULL, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(no), &no), CL_INVALID_KERNEL);
  clReleaseMemObject(buf);
  clReleaseMemObject(foreign);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  clReleaseContext(other);
}

/* A clone has the arguments of its source; later changes stay apart. */
TEST(clone_kernel)
{
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, args_src, NULL);
  cl_kernel k = kernel_of(p, "add");
  cl_int err;
  int zero[8] = {0}, out[8];
  cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(zero), zero, &err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(zero), zero, &err);
  int v = 7;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &a));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  cl_kernel c = clCloneKernel(k, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(c != k);
  ASSERT_EQ(refcount(c), 1);
  ASSERT_EQ(refcount(k), 1);
  int w = 100;
  ASSERT_OK(clSetKernelArg(c, 0, sizeof(cl_mem), &b));
  ASSERT_OK(clSetKernelArg(c, 1, sizeof(int), &w));
  cl_command_queue q = tl_queue(ctx, 0);
  run_add(q, k, 8);
  run_add(q, c, 8);
  ASSERT_OK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  ASSERT_EQ(out[3], 7);
  ASSERT_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  ASSERT_EQ(out[3], 100);
  /* a clone of a kernel with unset arguments is just as unready */
  cl_kernel fresh = kernel_of(p, "add");
  cl_kernel fresh_clone = clCloneKernel(fresh, &err);
  ASSERT_OK(err);
  size_t n = 8;
  ASSERT_CL(clEnqueueNDRangeKernel(q, fresh_clone, 1, NULL, &n, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  ASSERT_TRUE(clCloneKernel(NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_KERNEL);
  /* a clone counts as a kernel of the program: no rebuild */
  clReleaseKernel(k);
  clReleaseKernel(fresh);
  ASSERT_CL(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseKernel(fresh_clone);
  clReleaseKernel(c);
  ASSERT_OK(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  clReleaseCommandQueue(q);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

static cl_uint arg_uint(cl_kernel k, cl_uint i, cl_kernel_arg_info param)
{
  cl_uint v = 0;
  ASSERT_OK(clGetKernelArgInfo(k, i, param, sizeof(v), &v, NULL));
  return v;
}

static void arg_string(cl_kernel k, cl_uint i, cl_kernel_arg_info param, char *out, size_t size)
{
  size_t ret = 0;
  ASSERT_OK(clGetKernelArgInfo(k, i, param, size, out, &ret));
  ASSERT_EQ(ret, strlen(out) + 1);
}

TEST(kernel_arg_info)
{
  cl_context ctx = tl_context();
  cl_program p = tl_build(ctx, args_src, "-cl-kernel-arg-info");
  cl_kernel k = kernel_of(p, "all_kinds");
  ASSERT_EQ(arg_uint(k, ARG_OUT, CL_KERNEL_ARG_ADDRESS_QUALIFIER), CL_KERNEL_ARG_ADDRESS_GLOBAL);
  ASSERT_EQ(arg_uint(k, ARG_TABLE, CL_KERNEL_ARG_ADDRESS_QUALIFIER), CL_KERNEL_ARG_ADDRESS_CONSTANT);
  ASSERT_EQ(arg_uint(k, ARG_SCRATCH, CL_KERNEL_ARG_ADDRESS_QUALIFIER), CL_KERNEL_ARG_ADDRESS_LOCAL);
  ASSERT_EQ(arg_uint(k, ARG_N, CL_KERNEL_ARG_ADDRESS_QUALIFIER), CL_KERNEL_ARG_ADDRESS_PRIVATE);
  ASSERT_EQ(arg_uint(k, ARG_S, CL_KERNEL_ARG_ADDRESS_QUALIFIER), CL_KERNEL_ARG_ADDRESS_PRIVATE);
  for (cl_uint i = 0; i < NARGS; i++)
    ASSERT_EQ(arg_uint(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER), CL_KERNEL_ARG_ACCESS_NONE);
  cl_ulong tq = 0;
  ASSERT_OK(clGetKernelArgInfo(k, ARG_OUT, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq), &tq, NULL));
  ASSERT_EQ(tq, CL_KERNEL_ARG_TYPE_RESTRICT);
  ASSERT_OK(clGetKernelArgInfo(k, ARG_TABLE, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq), &tq, NULL));
  ASSERT_EQ(tq, CL_KERNEL_ARG_TYPE_CONST);
  ASSERT_OK(clGetKernelArgInfo(k, ARG_IN, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq), &tq, NULL));
  ASSERT_EQ(tq, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_VOLATILE);
  ASSERT_OK(clGetKernelArgInfo(k, ARG_N, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq), &tq, NULL));
  ASSERT_EQ(tq, CL_KERNEL_ARG_TYPE_NONE);
  char s[64];
  arg_string(k, ARG_OUT, CL_KERNEL_ARG_TYPE_NAME, s, sizeof(s));
  ASSERT_STREQ(s, "float*");
  arg_string(k, ARG_N, CL_KERNEL_ARG_TYPE_NAME, s, sizeof(s));
  ASSERT_STREQ(s, "int");
  arg_string(k, ARG_V, CL_KERNEL_ARG_TYPE_NAME, s, sizeof(s));
  ASSERT_STREQ(s, "float4");
  arg_string(k, ARG_OUT, CL_KERNEL_ARG_NAME, s, sizeof(s));
  ASSERT_STREQ(s, "out");
  arg_string(k, ARG_SCRATCH, CL_KERNEL_ARG_NAME, s, sizeof(s));
  ASSERT_STREQ(s, "scratch");
  /* errors */
  ASSERT_CL(clGetKernelArgInfo(k, NARGS, CL_KERNEL_ARG_NAME, sizeof(s), s, NULL), CL_INVALID_ARG_INDEX);
  ASSERT_CL(clGetKernelArgInfo(k, 0, 0x7fff, sizeof(s), s, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, 2, s, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelArgInfo(NULL, 0, CL_KERNEL_ARG_NAME, sizeof(s), s, NULL), CL_INVALID_KERNEL);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* A binary built without -cl-kernel-arg-info carries no argument info; one
 * built with it does. */
static cl_kernel kernel_from_binary(cl_context ctx, const char *options)
{
  cl_program p = tl_build(ctx, args_src, options);
  size_t size;
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL));
  unsigned char *bin = malloc(size);
  ASSERT_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL));
  cl_device_id dev = tl_device();
  cl_int err, status;
  cl_program b = clCreateProgramWithBinary(ctx, 1, &dev, &size, (const unsigned char **)&bin, &status, &err);
  ASSERT_OK(err);
  ASSERT_OK(clBuildProgram(b, 0, NULL, NULL, NULL, NULL));
  cl_kernel k = kernel_of(b, "all_kinds");
  clReleaseProgram(b);
  clReleaseProgram(p);
  free(bin);
  return k;
}

TEST(kernel_arg_info_from_binary)
{
  cl_context ctx = tl_context();
  cl_kernel without = kernel_from_binary(ctx, NULL), with = kernel_from_binary(ctx, "-cl-kernel-arg-info");
  char s[64];
  ASSERT_CL(clGetKernelArgInfo(without, 0, CL_KERNEL_ARG_NAME, sizeof(s), s, NULL), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  ASSERT_CL(clGetKernelArgInfo(without, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(s), s, NULL),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  arg_string(with, ARG_IN, CL_KERNEL_ARG_NAME, s, sizeof(s));
  ASSERT_STREQ(s, "in");
  /* The kernel itself is whole either way. */
  cl_uint nargs = 0;
  ASSERT_OK(clGetKernelInfo(without, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
  ASSERT_EQ(nargs, NARGS);
  clReleaseKernel(without);
  clReleaseKernel(with);
  clReleaseContext(ctx);
}

TEST(kernel_work_group_info)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_program p = tl_build(ctx, args_src, NULL);
  cl_kernel k = kernel_of(p, "all_kinds"), f = kernel_of(p, "fixed");
  size_t dev_max = 0, dev_multiple = 0;
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(dev_max), &dev_max, NULL));
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(dev_multiple), &dev_multiple,
                            NULL));
  size_t wg = 0;
  ASSERT_OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL));
  ASSERT_EQ(wg, dev_max);
  ASSERT_OK(clGetKernelWorkGroupInfo(f, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL));
  ASSERT_EQ(wg, 8);
  /* device may be NULL: one device */
  ASSERT_OK(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL));
  ASSERT_EQ(wg, dev_max);
  size_t cwg[3] = {9, 9, 9};
  ASSERT_OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(cwg), cwg, NULL));
  ASSERT_TRUE(cwg[0] == 0 && cwg[1] == 0 && cwg[2] == 0);
  ASSERT_OK(clGetKernelWorkGroupInfo(f, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(cwg), cwg, NULL));
  ASSERT_TRUE(cwg[0] == 4 && cwg[1] == 2 && cwg[2] == 1);
  size_t multiple = 0;
  ASSERT_OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(multiple), &multiple,
                                     NULL));
  ASSERT_TRUE(multiple >= 1);
  ASSERT_EQ(multiple, dev_multiple);
  /* local memory: static (fixed: 64 ints) and __local arguments as set */
  cl_ulong lmem = 0;
  ASSERT_OK(clGetKernelWorkGroupInfo(f, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL));
  ASSERT_TRUE(lmem >= 64 * sizeof(int));
  ASSERT_OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL));
  cl_ulong before = lmem;
  ASSERT_OK(clSetKernelArg(k, ARG_SCRATCH, 1000, NULL));
  ASSERT_OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL));
  ASSERT_TRUE(lmem >= before + 1000);
  cl_ulong pmem = 0;
  ASSERT_OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(pmem), &pmem, NULL));
  /* errors */
  size_t gws[3];
  ASSERT_CL(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof(gws), gws, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelWorkGroupInfo(k, dev, 0x7fff, sizeof(wg), &wg, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, 1, &wg, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetKernelWorkGroupInfo(k, (cl_device_id)ctx, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL),
            CL_INVALID_DEVICE);
  ASSERT_CL(clGetKernelWorkGroupInfo(NULL, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL), CL_INVALID_KERNEL);
  clReleaseKernel(k);
  clReleaseKernel(f);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

TEST(kernel_sub_group_info)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_program p = tl_build(ctx, args_src, NULL);
  cl_kernel k = kernel_of(p, "add");
  size_t local[2] = {64, 2}, out = 0;
  cl_int err = clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local), local,
                                       sizeof(out), &out, NULL);
  cl_uint max_sg = 0;
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(max_sg), &max_sg, NULL));
  if (!max_sg) {
    /* CL_INVALID_OPERATION if device does not support sub-groups. */
    ASSERT_CL(err, CL_INVALID_OPERATION);
  } else {
    ASSERT_OK(err);
    ASSERT_TRUE(out >= 1 && out <= 64);
    size_t count = 0;
    ASSERT_OK(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(local), local,
                                      sizeof(count), &count, NULL));
    ASSERT_EQ(count, (64 + out - 1) / out * 2);
    ASSERT_CL(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, NULL, sizeof(count),
                                      &count, NULL),
              CL_INVALID_VALUE);
  }
  ASSERT_CL(clGetKernelSubGroupInfo(NULL, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local), local,
                                    sizeof(out), &out, NULL),
            CL_INVALID_KERNEL);
  ASSERT_CL(clGetKernelSubGroupInfo(k, (cl_device_id)ctx, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local),
                                    local, sizeof(out), &out, NULL),
            CL_INVALID_DEVICE);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

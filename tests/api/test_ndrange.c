/* Kernel execution through the ICD loader: clEnqueueNDRangeKernel (every
 * error code, empty ranges, offsets, 1D/2D/3D ids, uniform and non-uniform
 * groups, the local size chosen for NULL, reqd_work_group_size), clEnqueueTask,
 * clEnqueueNativeKernel, argument snapshots at enqueue time, what a pending
 * command keeps alive, and programs built for another (sub-)device. */
#include <stdbool.h>
#include <unistd.h>

#include "tests/testlib.h"

/* One record of 24 ulongs per work-item: global id, local id, group id, local
 * size, enqueued local size, global size, offset, number of groups (3 each). */
static const char ids_src[] =
    "__kernel void ids(__global ulong *o)\n"
    "{\n"
    "  size_t lin = 0;\n"
    "  for (int d = get_work_dim() - 1; d >= 0; d--)\n"
    "    lin = lin * get_global_size(d) + (get_global_id(d) - get_global_offset(d));\n"
    "  __global ulong *r = o + lin * 24;\n"
    "  for (uint d = 0; d < 3; d++) {\n"
    "    r[0 + d] = get_global_id(d);\n"
    "    r[3 + d] = get_local_id(d);\n"
    "    r[6 + d] = get_group_id(d);\n"
    "    r[9 + d] = get_local_size(d);\n"
    "    r[12 + d] = get_enqueued_local_size(d);\n"
    "    r[15 + d] = get_global_size(d);\n"
    "    r[18 + d] = get_global_offset(d);\n"
    "    r[21 + d] = get_num_groups(d);\n"
    "  }\n"
    "}\n";

static const char misc_src[] =
    "__kernel void add(__global int *o, int v) { o[get_global_id(0)] += v; }\n"
    "__kernel void lsize(__global int *o) { o[get_global_id(0)] = (int)get_local_size(0); }\n"
    "__kernel void scratch(__global int *o, __local int *tmp)\n"
    "{\n"
    "  tmp[get_local_id(0)] = (int)get_global_id(0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[get_global_id(0)] = tmp[get_local_size(0) - 1 - get_local_id(0)];\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(4, 2, 1))) void fixed(__global int *o)\n"
    "{\n"
    "  o[get_global_id(1) * get_global_size(0) + get_global_id(0)] =\n"
    "      (int)(get_local_size(0) * 10 + get_local_size(1));\n"
    "}\n";

static cl_kernel kernel_of(cl_program p, const char *name)
{
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  ASSERT_OK(err);
  return k;
}

static cl_mem buffer(cl_context ctx, size_t size, const void *init)
{
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, init ? CL_MEM_COPY_HOST_PTR : 0, size, (void *)init, &err);
  ASSERT_OK(err);
  return m;
}

static size_t device_size(cl_device_id dev, cl_device_info param)
{
  size_t v = 0;
  ASSERT_OK(clGetDeviceInfo(dev, param, sizeof(v), &v, NULL));
  return v;
}

/* Runs ids over the range and checks every record against the range. */
static void check_ids(cl_context ctx, cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                      const size_t *global, const size_t *local)
{
  size_t g[3] = {1, 1, 1}, off[3] = {0, 0, 0}, l[3] = {1, 1, 1}, total = 1;
  for (cl_uint d = 0; d < dims; d++) {
    g[d] = global[d];
    off[d] = offset ? offset[d] : 0;
    l[d] = local[d];
    total *= g[d];
  }
  size_t bytes = total * 24 * sizeof(cl_ulong);
  cl_ulong *out = malloc(bytes);
  cl_mem buf = buffer(ctx, bytes, NULL);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, dims, offset, global, local, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
  for (size_t z = 0; z < g[2]; z++)
    for (size_t y = 0; y < g[1]; y++)
      for (size_t x = 0; x < g[0]; x++) {
        size_t idx[3] = {x, y, z};
        const cl_ulong *r = out + ((z * g[1] + y) * g[0] + x) * 24;
        for (int d = 0; d < 3; d++) {
          size_t groups = (g[d] + l[d] - 1) / l[d], grp = idx[d] / l[d];
          size_t lsize = grp == groups - 1 ? g[d] - grp * l[d] : l[d];
          cl_ulong want[8] = {idx[d] + off[d], idx[d] % l[d], grp, lsize, l[d], g[d], off[d], groups};
          for (int f = 0; f < 8; f++)
            if (r[f * 3 + d] != want[f])
              tl_fail(__FILE__, __LINE__, "item (%zu,%zu,%zu) field %d dim %d: %llu, expected %llu", x, y, z, f,
                      d, (unsigned long long)r[f * 3 + d], (unsigned long long)want[f]);
        }
      }
  clReleaseMemObject(buf);
  free(out);
}

TEST(ids_1d_2d_3d_with_offsets)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, ids_src, "-cl-std=CL3.0");
  cl_kernel k = kernel_of(p, "ids");
  size_t g1 = 100, o1 = 5, l1 = 10;
  check_ids(ctx, q, k, 1, &o1, &g1, &l1);
  check_ids(ctx, q, k, 1, NULL, &g1, &l1);
  size_t g2[2] = {6, 4}, o2[2] = {2, 3}, l2[2] = {3, 2};
  check_ids(ctx, q, k, 2, o2, g2, l2);
  size_t g3[3] = {4, 3, 2}, o3[3] = {1, 2, 3}, l3[3] = {2, 3, 1};
  check_ids(ctx, q, k, 3, o3, g3, l3);
  size_t g3b[3] = {8, 8, 8}, l3b[3] = {4, 2, 8};
  check_ids(ctx, q, k, 3, NULL, g3b, l3b);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* OpenCL 2.0 programs: the last group of a dimension is smaller. */
TEST(non_uniform_groups)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, ids_src, "-cl-std=CL3.0");
  cl_kernel k = kernel_of(p, "ids");
  size_t g1 = 1000, l1 = 64;
  check_ids(ctx, q, k, 1, NULL, &g1, &l1);
  size_t g2[2] = {10, 7}, o2[2] = {100, 0}, l2[2] = {4, 3};
  check_ids(ctx, q, k, 2, o2, g2, l2);
  size_t g3[3] = {5, 5, 5}, l3[3] = {2, 3, 4};
  check_ids(ctx, q, k, 3, NULL, g3, l3);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* Uniform groups: OpenCL C 1.x programs and -cl-uniform-work-group-size. */
TEST(uniform_groups_required)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p12 = tl_build(ctx, misc_src, NULL);
  cl_program puni = tl_build(ctx, misc_src, "-cl-std=CL3.0 -cl-uniform-work-group-size");
  cl_program p20 = tl_build(ctx, misc_src, "-cl-std=CL3.0");
  cl_mem buf = buffer(ctx, 64 * sizeof(int), NULL);
  size_t global = 10, local = 4;
  cl_program progs[3] = {p12, puni, p20};
  for (int i = 0; i < 3; i++) {
    cl_kernel k = kernel_of(progs[i], "lsize");
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
    cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    ASSERT_CL(err, i < 2 ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS);
    clReleaseKernel(k);
  }
  int out[10];
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  for (int i = 0; i < 10; i++)
    ASSERT_EQ(out[i], i < 8 ? 4 : 2);
  clReleaseMemObject(buf);
  clReleaseProgram(p12);
  clReleaseProgram(puni);
  clReleaseProgram(p20);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* NULL local size: uniform programs get a divisor of the global size, a
 * multiple of the preferred multiple where one divides, and at least 8
 * groups per compute unit where the size allows (a slowed-down core leaves
 * groups to steal); every item runs. */
TEST(null_local_size_choice)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p12 = tl_build(ctx, misc_src, NULL), p20 = tl_build(ctx, misc_src, "-cl-std=CL3.0");
  size_t multiple = device_size(dev, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
  size_t maxwg = device_size(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  cl_uint cus = 0;
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cus), &cus, NULL));
  static const size_t sizes[] = {4096, 1000, 1009, 3, 1, 100000};
  for (int prog = 0; prog < 2; prog++) {
    cl_kernel k = kernel_of(prog ? p20 : p12, "lsize");
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
      size_t n = sizes[s];
      int *out = malloc(n * sizeof(int));
      cl_mem buf = buffer(ctx, n * sizeof(int), NULL);
      ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
      ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
      ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL));
      size_t l = (size_t)out[0];
      ASSERT_TRUE(l >= 1 && l <= maxwg);
      if (!prog)
        ASSERT_EQ(n % l, 0);
      if (n % multiple == 0 && n >= multiple)
        ASSERT_EQ(l % multiple, 0);
      if (prog && n >= multiple)
        ASSERT_EQ(l % multiple, 0); /* non-uniform allowed: always vectorizable */
      if (n % multiple == 0 && n >= 8 * (size_t)cus * multiple && (n + l - 1) / l < 8 * (size_t)cus)
        tl_fail(__FILE__, __LINE__, "n %zu: local size %zu gives %zu groups for %u compute units", n, l,
                (n + l - 1) / l, cus);
      for (size_t i = 0; i < n; i++) {
        size_t last_start = (n - 1) / l * l;
        size_t want = i >= last_start ? n - last_start : l;
        if ((size_t)out[i] != want)
          tl_fail(__FILE__, __LINE__, "n %zu: item %zu saw local size %d, expected %zu", n, i, out[i], want);
      }
      clReleaseMemObject(buf);
      free(out);
    }
    clReleaseKernel(k);
  }
  /* 2D and 3D too */
  cl_program pids = tl_build(ctx, ids_src, "-cl-std=CL3.0");
  cl_kernel k = kernel_of(pids, "ids");
  size_t g2[2] = {64, 30}, g3[3] = {7, 5, 3};
  cl_mem buf = buffer(ctx, 64 * 30 * 24 * sizeof(cl_ulong), NULL);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g2, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 3, NULL, g3, NULL, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(pids);
  clReleaseProgram(p12);
  clReleaseProgram(p20);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(reqd_work_group_size)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, misc_src, NULL);
  cl_kernel k = kernel_of(p, "fixed");
  int out[8 * 4];
  cl_mem buf = buffer(ctx, sizeof(out), NULL);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  size_t global[2] = {8, 4}, good[2] = {4, 2}, bad[2] = {2, 4}, odd[2] = {6, 4};
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  for (int i = 0; i < 32; i++)
    ASSERT_EQ(out[i], 42);
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, good, 0, NULL, NULL));
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, global, bad, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  /* 1D: local (4) and the implied 1 of y don't match (4, 2, 1) */
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, global, good, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  /* NULL local: the required size, which must divide the global size */
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, odd, NULL, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  ASSERT_CL(clEnqueueTask(q, k, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(ndrange_errors)
{
  cl_context ctx = tl_context(), other = tl_context();
  cl_device_id dev = tl_device();
  cl_command_queue q = tl_queue(ctx, 0), other_q = tl_queue(other, 0);
  cl_program p = tl_build(ctx, misc_src, "-cl-std=CL3.0");
  cl_kernel k = kernel_of(p, "add"), unset = kernel_of(p, "add"), s = kernel_of(p, "scratch");
  static const int zeros[4096];
  cl_mem buf = buffer(ctx, sizeof(zeros), zeros);
  int v = 1;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  size_t g = 64, l = 8, maxwg = device_size(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t items[3];
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(items), items, NULL));
  ASSERT_CL(clEnqueueNDRangeKernel(NULL, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueNDRangeKernel((cl_command_queue)k, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueNDRangeKernel(q, NULL, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL);
  ASSERT_CL(clEnqueueNDRangeKernel(q, (cl_kernel)buf, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL);
  ASSERT_CL(clEnqueueNDRangeKernel(other_q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueNDRangeKernel(q, unset, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 0, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 4, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  size_t huge_off = SIZE_MAX - 10;
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, &huge_off, &g, &l, 0, NULL, NULL), CL_INVALID_GLOBAL_OFFSET);
  size_t zero_l = 0;
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &zero_l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  size_t too_many = items[0] + 1, g_big = items[0] + 1;
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g_big, &too_many, 0, NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
  size_t g2[2] = {maxwg, 4}, l2[2] = {maxwg, 2};
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, g2, l2, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  /* the wait list */
  cl_event ev = NULL;
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, &ev, NULL), CL_INVALID_EVENT_WAIT_LIST);
  cl_event not_event = (cl_event)ctx;
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, &not_event, NULL), CL_INVALID_EVENT_WAIT_LIST);
  cl_int err;
  cl_event foreign = clCreateUserEvent(other, &err);
  ASSERT_OK(err);
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, &foreign, NULL), CL_INVALID_CONTEXT);
  clSetUserEventStatus(foreign, CL_COMPLETE);
  clReleaseEvent(foreign);
  /* local memory beyond the device's */
  cl_ulong lmem = 0;
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL));
  ASSERT_OK(clSetKernelArg(s, 0, sizeof(cl_mem), &buf));
  ASSERT_OK(clSetKernelArg(s, 1, (size_t)lmem + 1, NULL));
  ASSERT_CL(clEnqueueNDRangeKernel(q, s, 1, NULL, &g, &l, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
  /* none of that ran */
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  int out[64];
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  for (int i = 0; i < 64; i++)
    ASSERT_EQ(out[i], 1);
  /* no native kernels */
  ASSERT_CL(clEnqueueNativeKernel(q, (void(CL_CALLBACK *)(void *))1, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
            CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueNativeKernel(NULL, (void(CL_CALLBACK *)(void *))1, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseKernel(unset);
  clReleaseKernel(s);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseCommandQueue(other_q);
  clReleaseContext(ctx);
  clReleaseContext(other);
}

/* A zero global size or a NULL global_work_size (OpenCL 2.1+): the command
 * succeeds and does nothing. */
TEST(empty_ranges)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, misc_src, NULL);
  cl_kernel k = kernel_of(p, "add");
  int init[4] = {1, 2, 3, 4}, out[4];
  cl_mem buf = buffer(ctx, sizeof(init), init);
  int v = 100;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  size_t zero = 0, g2[2] = {4, 0}, l2[2] = {2, 1};
  cl_event ev[3];
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &zero, NULL, 0, NULL, &ev[0]));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, g2, l2, 0, NULL, &ev[1]));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, NULL, 0, NULL, &ev[2]));
  ASSERT_OK(clWaitForEvents(3, ev));
  for (int i = 0; i < 3; i++) {
    cl_int st = 1;
    ASSERT_OK(clGetEventInfo(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL));
    ASSERT_EQ(st, CL_COMPLETE);
    clReleaseEvent(ev[i]);
  }
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  ASSERT_TRUE(!memcmp(out, init, sizeof(out)));
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST(enqueue_task)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, misc_src, NULL);
  cl_kernel k = kernel_of(p, "add");
  int init[4] = {0}, out[4];
  cl_mem buf = buffer(ctx, sizeof(init), init);
  int v = 9;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  cl_event ev, ev2;
  ASSERT_OK(clEnqueueTask(q, k, 0, NULL, &ev));
  size_t one = 1;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 1, &ev, &ev2));
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  ASSERT_EQ(out[0], 18);
  ASSERT_EQ(out[1], 0);
  cl_command_type type = 0;
  ASSERT_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
  ASSERT_EQ(type, CL_COMMAND_TASK);
  ASSERT_OK(clGetEventInfo(ev2, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
  ASSERT_EQ(type, CL_COMMAND_NDRANGE_KERNEL);
  ASSERT_CL(clEnqueueTask(NULL, k, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueTask(q, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
  clReleaseEvent(ev);
  clReleaseEvent(ev2);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* The arguments are taken at enqueue time; a pending command keeps its
 * kernel, program and buffers alive. */
TEST(args_snapshot_and_lifetime)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, misc_src, NULL);
  cl_kernel k = kernel_of(p, "add");
  int zero[16] = {0}, out[16];
  cl_mem a = buffer(ctx, sizeof(zero), zero), b = buffer(ctx, sizeof(zero), zero);
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  ASSERT_OK(err);
  size_t n = 16;
  int v = 1;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &a));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 1, &gate, NULL));
  v = 20;
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  v = 300;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &b));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  /* Everything but a (still read below) goes away before the gate opens. */
  ASSERT_OK(clReleaseKernel(k));
  ASSERT_OK(clReleaseProgram(p));
  ASSERT_OK(clReleaseMemObject(b));
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  for (int i = 0; i < 16; i++)
    ASSERT_EQ(out[i], 21);
  ASSERT_OK(clFinish(q));
  clReleaseEvent(gate);
  clReleaseMemObject(a);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* A failed wait list: the kernel does not run. */
TEST(failed_dependency_skips_kernel)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, misc_src, NULL);
  cl_kernel k = kernel_of(p, "add");
  int zero[4] = {0}, out[4];
  cl_mem a = buffer(ctx, sizeof(zero), zero);
  int v = 5;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &a));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err), ev;
  size_t n = 4;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 1, &gate, &ev));
  ASSERT_OK(clSetUserEventStatus(gate, -1));
  ASSERT_CL(clWaitForEvents(1, &ev), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ASSERT_OK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  ASSERT_EQ(out[0], 0);
  clReleaseEvent(ev);
  clReleaseEvent(gate);
  clReleaseMemObject(a);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* __local arguments: each group its own block, of the size set. */
TEST(local_argument_blocks)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, misc_src, NULL);
  cl_kernel k = kernel_of(p, "scratch");
  enum { N = 4096 };
  static int out[N];
  cl_mem buf = buffer(ctx, sizeof(out), NULL);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  static const size_t locals[] = {1, 7, 64, 256, 1024, 4096};
  for (size_t t = 0; t < sizeof(locals) / sizeof(locals[0]); t++) {
    size_t l = locals[t], g = N / l * l;
    ASSERT_OK(clSetKernelArg(k, 1, l * sizeof(int), NULL));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, g * sizeof(int), out, 0, NULL, NULL));
    for (size_t i = 0; i < g; i++) {
      size_t base = i / l * l;
      ASSERT_EQ(out[i], base + (l - 1 - (i - base)));
    }
  }
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* A program built for one sub-device doesn't run on its sibling; one built
 * for the parent runs on its sub-devices. */
TEST(program_built_for_another_device)
{
  cl_device_id root = tl_device(), subs[2];
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint nsub = 0;
  cl_uint cus = 0;
  ASSERT_OK(clGetDeviceInfo(root, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cus), &cus, NULL));
  if (cus < 2 || clCreateSubDevices(root, props, 2, subs, &nsub) != CL_SUCCESS || nsub < 2) {
    printf("  (skipped: the device can't be split in two)\n");
    return;
  }
  cl_int err;
  cl_device_id devs[3] = {root, subs[0], subs[1]};
  cl_context ctx = clCreateContext(NULL, 3, devs, NULL, NULL, &err);
  ASSERT_OK(err);
  cl_queue_properties none[] = {0};
  cl_command_queue q0 = clCreateCommandQueueWithProperties(ctx, subs[0], none, &err);
  ASSERT_OK(err);
  cl_command_queue q1 = clCreateCommandQueueWithProperties(ctx, subs[1], none, &err);
  ASSERT_OK(err);
  const char *src = misc_src;
  cl_program only0 = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ASSERT_OK(clBuildProgram(only0, 1, &subs[0], NULL, NULL, NULL));
  cl_build_status st;
  ASSERT_OK(clGetProgramBuildInfo(only0, subs[1], CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL));
  ASSERT_EQ(st, CL_BUILD_NONE);
  cl_kernel k = kernel_of(only0, "add");
  /* three devices in the context: a per-device query must name one */
  size_t wg;
  ASSERT_CL(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL), CL_INVALID_DEVICE);
  ASSERT_OK(clGetKernelWorkGroupInfo(k, subs[1], CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL));
  int zero[8] = {0}, out[8];
  cl_mem buf = buffer(ctx, sizeof(zero), zero);
  int v = 3;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  size_t n = 8;
  ASSERT_OK(clEnqueueNDRangeKernel(q0, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  ASSERT_OK(clFinish(q0));
  ASSERT_CL(clEnqueueNDRangeKernel(q1, k, 1, NULL, &n, NULL, 0, NULL, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseKernel(k);
  /* Built for the root only: the sub-devices use the root's binary. */
  cl_program only_root = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  ASSERT_OK(clBuildProgram(only_root, 1, &root, NULL, NULL, NULL));
  /* ... and report the root's build (the CTS's test_device_partition checks
   * the status and log of every device of the program). */
  for (int s = 0; s < 2; s++) {
    ASSERT_OK(clGetProgramBuildInfo(only_root, subs[s], CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL));
    ASSERT_EQ(st, CL_BUILD_SUCCESS);
    cl_program_binary_type bt;
    ASSERT_OK(clGetProgramBuildInfo(only_root, subs[s], CL_PROGRAM_BINARY_TYPE, sizeof(bt), &bt, NULL));
    ASSERT_EQ(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    size_t root_log = 0, sub_log = 0;
    ASSERT_OK(clGetProgramBuildInfo(only_root, root, CL_PROGRAM_BUILD_LOG, 0, NULL, &root_log));
    ASSERT_OK(clGetProgramBuildInfo(only_root, subs[s], CL_PROGRAM_BUILD_LOG, 0, NULL, &sub_log));
    ASSERT_EQ(sub_log, root_log);
  }
  k = kernel_of(only_root, "add");
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &v));
  ASSERT_OK(clEnqueueNDRangeKernel(q1, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q1, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  for (int i = 0; i < 8; i++)
    ASSERT_EQ(out[i], 6);
  clReleaseKernel(k);
  clReleaseMemObject(buf);
  clReleaseProgram(only0);
  clReleaseProgram(only_root);
  clReleaseCommandQueue(q0);
  clReleaseCommandQueue(q1);
  clReleaseContext(ctx);
  clReleaseDevice(subs[0]);
  clReleaseDevice(subs[1]);
}

/* Many small kernels with event chains on an out-of-order queue. */
TEST(event_chains_out_of_order)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_program p = tl_build(ctx, misc_src, NULL);
  cl_kernel k = kernel_of(p, "add");
  enum { N = 1000, R = 50 };
  static int zero[N], out[N];
  cl_mem buf = buffer(ctx, sizeof(zero), zero);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  cl_event prev = NULL;
  size_t n = N;
  for (int r = 1; r <= R; r++) {
    cl_event ev;
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(int), &r));
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, prev ? 1 : 0, prev ? &prev : NULL, &ev));
    if (prev)
      clReleaseEvent(prev);
    prev = ev;
  }
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 1, &prev, NULL));
  for (int i = 0; i < N; i++)
    ASSERT_EQ(out[i], R * (R + 1) / 2);
  clReleaseEvent(prev);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* __local sizes come from the application: any size_t.  A size (or a sum)
 * beyond the device's local memory fails the enqueue with
 * CL_OUT_OF_RESOURCES (clSetKernelArg lists no error for it); sizes near
 * SIZE_MAX must not wrap into a small block where the arguments alias. */
TEST(local_sizes_that_would_wrap)
{
  static const char src[] =
      "__kernel void two(__global int *o, __local int *a, __local int *b)\n"
      "{\n"
      "  a[get_local_id(0)] = 1; b[get_local_id(0)] = 2;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  o[get_global_id(0)] = a[get_local_id(0)] * 10 + b[get_local_id(0)];\n"
      "}\n";
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src, "");
  cl_kernel k = kernel_of(p, "two");
  cl_ulong lmem = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL));
  cl_mem o = buffer(ctx, 64 * sizeof(int), NULL);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(o), &o));
  size_t g = 64, l = 16;
  const size_t huge[][2] = {
      {SIZE_MAX, 64},           {SIZE_MAX - 10, 64},      {64, SIZE_MAX - 62},
      {SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 1}, {(size_t)lmem + 1, 64}, {(size_t)lmem / 2 + 64, (size_t)lmem / 2 + 64},
  };
  for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
    ASSERT_OK(clSetKernelArg(k, 1, huge[i][0], NULL));
    ASSERT_OK(clSetKernelArg(k, 2, huge[i][1], NULL));
    ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
  }
  ASSERT_OK(clFinish(q));
  /* Sizes that fit still run, the blocks apart. */
  ASSERT_OK(clSetKernelArg(k, 1, l * sizeof(int), NULL));
  ASSERT_OK(clSetKernelArg(k, 2, l * sizeof(int), NULL));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  int out[64];
  ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  for (int i = 0; i < 64; i++)
    ASSERT_EQ(out[i], 12);
  clReleaseMemObject(o);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* reqd_work_group_size beyond the device's limits (a dimension above
 * CL_DEVICE_MAX_WORK_ITEM_SIZES, a product above
 * CL_DEVICE_MAX_WORK_GROUP_SIZE, a product that wraps 64 bits to 0): the
 * program builds (the attribute is legal OpenCL C), CL_KERNEL_WORK_GROUP_SIZE
 * stays within the device, and no enqueue runs it: CL_INVALID_WORK_GROUP_SIZE
 * for a NULL local size, the local size's own error otherwise. */
TEST(reqd_work_group_size_beyond_the_device)
{
  static const char src[] =
      "__kernel __attribute__((reqd_work_group_size(8192, 1, 1))) void wide(__global int *o) { o[0] = 1; }\n"
      "__kernel __attribute__((reqd_work_group_size(1024, 1024, 1))) void square(__global int *o) { o[0] = 1; }\n"
      "__kernel __attribute__((reqd_work_group_size(65536, 65536, 65536))) void huge(__global int *o) { o[0] = 1; }\n"
      "__kernel __attribute__((reqd_work_group_size(2147483648, 2147483648, 2147483648))) void wraps(__global int *o)"
      " { o[0] = 1; }\n";
  alarm(60);
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src, "");
  size_t maxwg = device_size(tl_device(), CL_DEVICE_MAX_WORK_GROUP_SIZE);
  int zero = 0;
  cl_mem o = buffer(ctx, sizeof(int), &zero);
  static const struct {
    const char *name;
    size_t reqd[3], global[3];
    cl_int with_reqd_local;
  } cases[] = {
      {"wide", {8192, 1, 1}, {8192, 1, 1}, CL_INVALID_WORK_ITEM_SIZE},
      {"square", {1024, 1024, 1}, {1024, 1024, 1}, CL_INVALID_WORK_GROUP_SIZE},
      {"huge", {65536, 65536, 65536}, {65536, 65536, 65536}, CL_INVALID_WORK_ITEM_SIZE},
      {"wraps", {(size_t)1 << 31, (size_t)1 << 31, (size_t)1 << 31}, {(size_t)1 << 31, (size_t)1 << 31, 1},
       CL_INVALID_WORK_ITEM_SIZE},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    cl_kernel k = kernel_of(p, cases[i].name);
    size_t wg = 0, compiled[3] = {0};
    ASSERT_OK(clGetKernelWorkGroupInfo(k, tl_device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL));
    ASSERT_TRUE(wg >= 1 && wg <= maxwg);
    ASSERT_OK(clGetKernelWorkGroupInfo(k, tl_device(), CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(compiled),
                                       compiled, NULL));
    ASSERT_EQ(compiled[0], cases[i].reqd[0]);
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(o), &o));
    const size_t *g = cases[i].global;
    ASSERT_CL(clEnqueueNDRangeKernel(q, k, 3, NULL, g, NULL, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    ASSERT_CL(clEnqueueNDRangeKernel(q, k, 3, NULL, g, cases[i].reqd, 0, NULL, NULL), cases[i].with_reqd_local);
    ASSERT_OK(clFinish(q));
    clReleaseKernel(k);
  }
  int v = -1;
  ASSERT_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof(v), &v, 0, NULL, NULL));
  ASSERT_EQ(v, 0); /* none ran */
  clReleaseMemObject(o);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* An NDRange of more than 2^64 work-items (and work-groups) can't be
 * counted: CL_INVALID_GLOBAL_WORK_SIZE, not CL_SUCCESS with nothing run. */
TEST(global_size_beyond_64_bits)
{
  alarm(60);
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, misc_src, "");
  cl_kernel k = kernel_of(p, "add");
  cl_mem o = buffer(ctx, sizeof(int), NULL);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(o), &o));
  int one = 1;
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(one), &one));
  const size_t big[][3] = {
      {(size_t)1 << 32, (size_t)1 << 32, 2}, {SIZE_MAX, SIZE_MAX, 1}, {SIZE_MAX, 2, 1}, {(size_t)1 << 40, (size_t)1 << 40, 1}};
  const size_t ones[3] = {1, 1, 1};
  for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
    ASSERT_CL(clEnqueueNDRangeKernel(q, k, 3, NULL, big[i], ones, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
    ASSERT_CL(clEnqueueNDRangeKernel(q, k, 3, NULL, big[i], NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
  }
  ASSERT_OK(clFinish(q));
  clReleaseMemObject(o);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* A kernel with a barrier whose first launch has 2D groups gets no copy for
 * groups of one dimension (cc_wg_state.c, wg_drop_one_dim_copy): its later
 * 1D launches run in the copy for every shape, with the same results, at
 * local sizes below, at and above the SIMD width, and a smaller last group. */
TEST(first_launch_2d_then_1d_groups)
{
  static const char src[] =
      "kernel void sums(global const int *in, global int *out) {\n"
      "  local int part[512];\n"
      "  int l = get_local_id(1) * get_local_size(0) + get_local_id(0);\n"
      "  int n = get_local_size(0) * get_local_size(1);\n"
      "  int g = get_group_id(1) * get_num_groups(0) + get_group_id(0);\n"
      "  part[l] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)] * (l + 1);\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  int s = 0;\n"
      "  for (int i = 0; i <= l; i++) s += part[i];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = s + g;\n"
      "}\n";
  enum { N = 1000 };
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src, "-cl-std=CL3.0");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "sums", &err);
  ASSERT_OK(err);
  static int in[N], out[N], want[N];
  for (int i = 0; i < N; i++)
    in[i] = (i * 7919) % 23 - 11;
  cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
  ASSERT_OK(err);
  cl_mem bout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(bin), &bin));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(bout), &bout));
  /* {global x, y, local x, y}: the 2D launch first, then 1D ones (y 1) */
  static const size_t runs[][4] = {{40, 25, 8, 5}, {1000, 1, 4, 1}, {1000, 1, 16, 1}, {1000, 1, 20, 1},
                                   {1000, 1, 200, 1}, {990, 1, 64, 1}};
  for (unsigned r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
    size_t gx = runs[r][0], gy = runs[r][1], lx = runs[r][2], ly = runs[r][3];
    size_t g[2] = {gx, gy}, l[2] = {lx, ly};
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, gy > 1 ? 2 : 1, NULL, g, l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, gx * gy * sizeof(int), out, 0, NULL, NULL));
    size_t ngx = (gx + lx - 1) / lx;
    for (size_t y = 0; y < gy; y++)
      for (size_t x = 0; x < gx; x++) {
        size_t x0 = x / lx * lx, y0 = y / ly * ly, w = gx - x0 < lx ? gx - x0 : lx;
        size_t lid = (y - y0) * w + (x - x0);
        int s = 0;
        for (size_t i = 0; i <= lid; i++) {
          size_t yy = y0 + i / w, xx = x0 + i % w;
          s += in[yy * gx + xx] * (int)(i + 1);
        }
        want[y * gx + x] = s + (int)((y / ly) * ngx + x / lx);
      }
    for (size_t i = 0; i < gx * gy; i++)
      if (out[i] != want[i])
        tl_fail(__FILE__, __LINE__, "run %u (%zux%zu in %zux%zu): out[%zu] = %d, want %d", r, gx, gy, lx, ly, i,
                out[i], want[i]);
    if (r == 0) /* the code made for the 2D launch says it has no 1D copy */
      ASSERT_TRUE(tl_binary_contains(p, "no copy for groups of one dimension (the first launch's groups are 8x5x1)"));
  }
  clReleaseMemObject(bin);
  clReleaseMemObject(bout);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* A row of each work-item's own runs with its buffer arguments as restrict
 * when the launch's buffers are disjoint (runtime/ndrange.c, args_disjoint;
 * compiler/cc_wg_state.c).  `chain` reads b[i*17 + j] and writes
 * w[i*17 + j + 1]: with w and b one memory, each element carries into the
 * next, which only the code as written computes.  Launched on two buffers,
 * one buffer twice, a buffer and a sub-buffer of it, two sub-buffers that
 * share bytes and two that don't. */
TEST(rows_of_their_own_with_buffers_that_overlap)
{
  static const char src[] =
      "kernel void chain(global float *w, global const float *b)\n"
      "{ size_t i = get_global_id(0); for (int j = 0; j < 16; j++) w[i * 17 + j + 1] = b[i * 17 + j] + 1.0f; }\n";
  enum { N = 200, EL = N * 17 + 1 };
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, src, "-cl-std=CL3.0");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "chain", &err);
  ASSERT_OK(err);
  cl_uint align_bits = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits), &align_bits, NULL));
  size_t half = ((size_t)EL * 4 + align_bits / 8 - 1) / (align_bits / 8) * (align_bits / 8);
  static float init[EL], got[EL], want[EL];
  for (int i = 0; i < EL; i++)
    init[i] = (float)(i % 13) - 6.0f;
  /* a parent of two halves, each EL floats and more */
  cl_mem parent = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * half, NULL, &err);
  ASSERT_OK(err);
  cl_mem other = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(init), NULL, &err);
  ASSERT_OK(err);
  cl_buffer_region r0 = {0, sizeof(init)}, r1 = {half, sizeof(init)}, r2 = {0, half + sizeof(init)};
  cl_mem sub0 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
  ASSERT_OK(err);
  cl_mem sub1 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  ASSERT_OK(err);
  cl_mem sub2 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
  ASSERT_OK(err);
  /* {w, b, whether they are one memory} */
  struct { cl_mem w, b; int same; const char *what; } runs[] = {
      {parent, other, 0, "two buffers"},          {parent, parent, 1, "one buffer twice"},
      {parent, sub0, 1, "a buffer and its sub-buffer"}, {sub0, sub2, 1, "sub-buffers that share bytes"},
      {sub0, sub1, 0, "sub-buffers that don't"}};
  for (unsigned r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
    /* w's bytes and b's bytes start as init (b from `other` or the second half) */
    ASSERT_OK(clEnqueueWriteBuffer(q, parent, CL_TRUE, 0, sizeof(init), init, 0, NULL, NULL));
    ASSERT_OK(clEnqueueWriteBuffer(q, parent, CL_TRUE, half, sizeof(init), init, 0, NULL, NULL));
    ASSERT_OK(clEnqueueWriteBuffer(q, other, CL_TRUE, 0, sizeof(init), init, 0, NULL, NULL));
    memcpy(want, init, sizeof(init));
    for (int i = 0; i < N; i++)
      for (int j = 0; j < 16; j++)
        want[i * 17 + j + 1] = (runs[r].same ? want : init)[i * 17 + j] + 1.0f;
    ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &runs[r].w));
    ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &runs[r].b));
    size_t g = N, l = 20;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueReadBuffer(q, runs[r].w, CL_TRUE, 0, sizeof(got), got, 0, NULL, NULL));
    for (int i = 0; i < EL; i++)
      if (got[i] != want[i])
        tl_fail(__FILE__, __LINE__, "%s: w[%d] = %g, want %g", runs[r].what, i, got[i], want[i]);
  }
  /* SVM pointers: the launch doesn't know their allocations (one, here) */
  cl_device_svm_capabilities svm = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_SVM_CAPABILITIES, sizeof(svm), &svm, NULL));
  if (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) {
    float *s = clSVMAlloc(ctx, CL_MEM_READ_WRITE, sizeof(init), 0);
    ASSERT_TRUE(s != NULL);
    ASSERT_OK(clEnqueueSVMMemcpy(q, CL_TRUE, s, init, sizeof(init), 0, NULL, NULL));
    memcpy(want, init, sizeof(init));
    for (int i = 0; i < N; i++)
      for (int j = 0; j < 16; j++)
        want[i * 17 + j + 1] = want[i * 17 + j] + 1.0f;
    ASSERT_OK(clSetKernelArgSVMPointer(k, 0, s));
    ASSERT_OK(clSetKernelArgSVMPointer(k, 1, s));
    size_t g = N, l = 20;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    ASSERT_OK(clEnqueueSVMMemcpy(q, CL_TRUE, got, s, sizeof(got), 0, NULL, NULL));
    for (int i = 0; i < EL; i++)
      if (got[i] != want[i])
        tl_fail(__FILE__, __LINE__, "one SVM allocation twice: w[%d] = %g, want %g", i, got[i], want[i]);
    clSVMFree(ctx, s);
  }
  cl_mem all[] = {sub0, sub1, sub2, parent, other};
  for (unsigned i = 0; i < 5; i++)
    clReleaseMemObject(all[i]);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

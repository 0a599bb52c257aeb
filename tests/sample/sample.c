/* lanecl-sample: a vector add through the OpenCL ICD loader.
 *
 * Picks the platform named "LaneCL" (or the first one), builds a kernel,
 * adds two vectors of a million floats, checks the result on the host and
 * prints the platform and device it ran on, then "PASS" (exit 0) or "FAIL". */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char source[] =
    "__kernel void vadd(__global const float *a, __global const float *b, __global float *c)\n"
    "{\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";

static int check(cl_int err, const char *what)
{
  if (err != CL_SUCCESS)
    fprintf(stderr, "lanecl-sample: %s failed: error %d\n", what, err);
  return err == CL_SUCCESS;
}

static cl_platform_id pick_platform(void)
{
  cl_platform_id ids[16];
  cl_uint n = 0;
  if (!check(clGetPlatformIDs(16, ids, &n), "clGetPlatformIDs") || n == 0)
    return NULL;
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[256] = "";
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
    if (!strcmp(name, "LaneCL"))
      return ids[i];
  }
  return ids[0];
}

int main(void)
{
  enum { N = 1 << 20 };
  cl_int err;
  int ok = 0;
  cl_platform_id platform = pick_platform();
  cl_device_id dev;
  if (!platform || !check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), "clGetDeviceIDs"))
    goto done;
  char pname[256] = "", pversion[256] = "", dname[256] = "";
  cl_uint units = 0;
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(pname), pname, NULL);
  clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof(pversion), pversion, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, NULL);
  printf("platform: %s (%s)\n", pname, pversion);
  printf("device:   %s, %u compute units\n", dname, units);

  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (!check(err, "clCreateContext"))
    goto done;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  if (!check(err, "clCreateCommandQueueWithProperties"))
    goto release_context;
  const char *src = source;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  if (!check(err, "clCreateProgramWithSource"))
    goto release_queue;
  err = clBuildProgram(prog, 1, &dev, NULL, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
    fprintf(stderr, "lanecl-sample: clBuildProgram failed: error %d\n%s\n", err, log);
    goto release_program;
  }
  cl_kernel k = clCreateKernel(prog, "vadd", &err);
  if (!check(err, "clCreateKernel"))
    goto release_program;

  float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float)), *c = malloc(N * sizeof(float));
  if (!a || !b || !c)
    goto free_host;
  for (int i = 0; i < N; i++) {
    a[i] = (float)i;
    b[i] = (float)(2 * (N - i));
  }
  cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), a, &err);
  cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), b, &err);
  cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL, &err);
  if (!check(err, "clCreateBuffer"))
    goto release_buffers;
  size_t global = N;
  if (check(clSetKernelArg(k, 0, sizeof(cl_mem), &ba), "clSetKernelArg") &&
      check(clSetKernelArg(k, 1, sizeof(cl_mem), &bb), "clSetKernelArg") &&
      check(clSetKernelArg(k, 2, sizeof(cl_mem), &bc), "clSetKernelArg") &&
      check(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel") &&
      check(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, N * sizeof(float), c, 0, NULL, NULL), "clEnqueueReadBuffer")) {
    ok = 1;
    for (int i = 0; i < N && ok; i++) {
      if (c[i] != a[i] + b[i]) {
        fprintf(stderr, "lanecl-sample: c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
        ok = 0;
      }
    }
    printf("vector add of %d floats: %s\n", N, ok ? "correct" : "wrong");
  }
release_buffers:
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
free_host:
  free(a);
  free(b);
  free(c);
  clReleaseKernel(k);
release_program:
  clReleaseProgram(prog);
release_queue:
  clReleaseCommandQueue(q);
release_context:
  clReleaseContext(ctx);
done:
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

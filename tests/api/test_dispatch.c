/* The ICD front end as the loader sees it: every slot of the dispatch table a
 * LaneCL handle points at is filled, the extension functions are found, the
 * "not implemented" stubs answer without crashing, and a handle of the wrong
 * type is rejected with the family's CL_INVALID_* instead of a crash. */
#include <CL/cl_icd.h>

#include "tests/testlib.h"

/* cl_khr_icd: the first field of every handle is its dispatch table. */
static const struct _cl_icd_dispatch *table_of(const void *handle)
{
  return *(const struct _cl_icd_dispatch *const *)handle;
}

TEST(every_dispatch_slot_filled)
{
  const struct _cl_icd_dispatch *t = table_of(tl_platform());
  ASSERT_TRUE(t != NULL);
  /* By name, from the list the table is made of (icd/entrypoints.def). */
  int missing = 0, listed = 0;
#define ICD_ENTRY(kind, ret, name, params)                                                        \
  listed++;                                                                                       \
  if (!t->name) {                                                                                 \
    fprintf(stderr, "dispatch slot %s is NULL\n", #name);                                        \
    missing++;                                                                                    \
  }
#define ICD_ENTRY_OTHER_OS(kind, ret, name, params) ICD_ENTRY(kind, ret, name, params)
#include "icd/entrypoints.def"
  ASSERT_EQ(missing, 0);
  /* The list names every member of the header's struct ... */
  ASSERT_EQ((size_t)listed, sizeof(*t) / sizeof(void *));
  /* ... and no slot of the struct is empty. */
  const void *const *slots = (const void *const *)t;
  for (size_t i = 0; i < sizeof(*t) / sizeof(void *); i++)
    if (!slots[i])
      tl_fail(__FILE__, __LINE__, "dispatch slot %zu is NULL", i);

  /* Every kind of handle points at the same table. */
  ASSERT_TRUE(table_of(tl_device()) == t);
  cl_context ctx = tl_context();
  ASSERT_TRUE(table_of(ctx) == t);
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(extension_functions)
{
  cl_platform_id p = tl_platform();
  int n = 0;
#define ICD_EXTENSION_FN(name)                                                                    \
  n++;                                                                                            \
  if (!clGetExtensionFunctionAddressForPlatform(p, #name))                                        \
    tl_fail(__FILE__, __LINE__, "clGetExtensionFunctionAddressForPlatform(\"%s\") is NULL", #name);
#include "icd/entrypoints.def"
  ASSERT_TRUE(n >= 1);
  /* The loader's entry, through the table. */
  clIcdGetPlatformIDsKHR_fn icd_ids =
      (clIcdGetPlatformIDsKHR_fn)clGetExtensionFunctionAddressForPlatform(p, "clIcdGetPlatformIDsKHR");
  cl_platform_id got = NULL;
  ASSERT_OK(icd_ids(1, &got, NULL));
  ASSERT_TRUE(got == p);
  /* A function LaneCL doesn't have, and core functions (not extensions). */
  ASSERT_TRUE(clGetExtensionFunctionAddressForPlatform(p, "clNoSuchFunctionKHR") == NULL);
  ASSERT_TRUE(clGetExtensionFunctionAddressForPlatform(p, "clGetPlatformInfo") == NULL);
  ASSERT_TRUE(clGetExtensionFunctionAddressForPlatform(p, "") == NULL);
  /* Through the table with a platform that is not one: NULL. */
  const struct _cl_icd_dispatch *t = table_of(p);
  ASSERT_TRUE(t->clGetExtensionFunctionAddressForPlatform((cl_platform_id)tl_device(), "clIcdGetPlatformIDsKHR") ==
              NULL);
  ASSERT_TRUE(t->clGetExtensionFunctionAddressForPlatform(p, "clIcdGetPlatformIDsKHR") == (void *)icd_ids);
}

/* Entry points LaneCL will never implement on Linux answer through the stubs:
 * an error, never a crash. */
TEST(stubs_answer_invalid_operation)
{
  const struct _cl_icd_dispatch *t = table_of(tl_platform());
  cl_context ctx = tl_context();

  typedef cl_int(CL_API_CALL * d3d10_ids_fn)(cl_platform_id, cl_uint, void *, cl_uint, cl_uint, cl_device_id *,
                                             cl_uint *);
  d3d10_ids_fn d3d10_ids = (d3d10_ids_fn)t->clGetDeviceIDsFromD3D10KHR;
  cl_device_id dev;
  cl_uint n;
  ASSERT_CL(d3d10_ids(tl_platform(), 0, NULL, 0, 1, &dev, &n), CL_INVALID_OPERATION);

  typedef cl_mem(CL_API_CALL * d3d11_buf_fn)(cl_context, cl_mem_flags, void *, cl_int *);
  d3d11_buf_fn d3d11_buf = (d3d11_buf_fn)t->clCreateFromD3D11BufferKHR;
  cl_int err = CL_SUCCESS;
  ASSERT_TRUE(d3d11_buf(ctx, CL_MEM_READ_WRITE, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  ASSERT_TRUE(d3d11_buf(ctx, CL_MEM_READ_WRITE, NULL, NULL) == NULL);  /* errcode_ret may be NULL */

  err = CL_SUCCESS;
  ASSERT_TRUE(t->clCreateFromEGLImageKHR(ctx, NULL, NULL, CL_MEM_READ_ONLY, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  err = CL_SUCCESS;
  ASSERT_TRUE(t->clCreateFromGLBuffer(ctx, CL_MEM_READ_WRITE, 1, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  ASSERT_CL(t->clRetainDeviceEXT(tl_device()), CL_INVALID_OPERATION);
  ASSERT_OK(clReleaseContext(ctx));
}

/* A handle of another type reaches LaneCL through its own (valid) dispatch
 * pointer: the entry point must tell it from its own type. */
TEST(wrong_type_handles_are_rejected)
{
  cl_platform_id p = tl_platform();
  cl_device_id dev = tl_device();
  cl_context ctx = tl_context();
  char buf[64];
  cl_uint u;
  ASSERT_CL(clGetDeviceInfo((cl_device_id)ctx, CL_DEVICE_NAME, sizeof(buf), buf, NULL), CL_INVALID_DEVICE);
  ASSERT_CL(clGetDeviceInfo((cl_device_id)p, CL_DEVICE_NAME, sizeof(buf), buf, NULL), CL_INVALID_DEVICE);
  ASSERT_CL(clRetainDevice((cl_device_id)ctx), CL_INVALID_DEVICE);
  ASSERT_CL(clReleaseDevice((cl_device_id)ctx), CL_INVALID_DEVICE);
  ASSERT_CL(clGetContextInfo((cl_context)dev, CL_CONTEXT_NUM_DEVICES, sizeof(u), &u, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clRetainContext((cl_context)p), CL_INVALID_CONTEXT);
  ASSERT_CL(clReleaseContext((cl_context)dev), CL_INVALID_CONTEXT);
  ASSERT_CL(clGetPlatformInfo((cl_platform_id)ctx, CL_PLATFORM_NAME, sizeof(buf), buf, NULL), CL_INVALID_PLATFORM);
  ASSERT_CL(clUnloadPlatformCompiler((cl_platform_id)dev), CL_INVALID_PLATFORM);
  cl_device_partition_property eq[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  ASSERT_CL(clCreateSubDevices((cl_device_id)ctx, eq, 0, NULL, &u), CL_INVALID_DEVICE);
  /* The other families, one entry point each. */
  ASSERT_CL(clFinish((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clReleaseMemObject((cl_mem)ctx), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clGetMemObjectInfo((cl_mem)dev, CL_MEM_SIZE, sizeof(buf), buf, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clReleaseProgram((cl_program)ctx), CL_INVALID_PROGRAM);
  ASSERT_CL(clReleaseKernel((cl_kernel)ctx), CL_INVALID_KERNEL);
  ASSERT_CL(clReleaseEvent((cl_event)ctx), CL_INVALID_EVENT);
  ASSERT_CL(clGetEventInfo((cl_event)dev, CL_EVENT_COMMAND_TYPE, sizeof(buf), buf, NULL), CL_INVALID_EVENT);
  ASSERT_CL(clReleaseSampler((cl_sampler)ctx), CL_INVALID_SAMPLER);
  cl_event as_event = (cl_event)ctx;
  ASSERT_CL(clWaitForEvents(1, &as_event), CL_INVALID_EVENT);
  cl_int err = CL_SUCCESS;
  ASSERT_TRUE(clCreateBuffer((cl_context)dev, CL_MEM_READ_WRITE, 16, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, (cl_device_id)ctx, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);
  const char *src = "kernel void k(void) {}";
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateProgramWithSource((cl_context)dev, 1, &src, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  /* The context is untouched by all this. */
  ASSERT_OK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof(u), &u, NULL));
  ASSERT_EQ(u, 1);
  ASSERT_OK(clReleaseContext(ctx));
}

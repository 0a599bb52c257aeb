/* Memory object family through the ICD loader: clCreateBuffer(WithProperties)
 * over every flag combination, clCreateSubBuffer, clRetain/ReleaseMemObject,
 * clGetMemObjectInfo, clSetMemObjectDestructorCallback; and the families the
 * device does not support: images, samplers, pipes, SVM. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "tests/testlib.h"

static const cl_mem_flags access_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags host_flags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

static cl_mem buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr)
{
  cl_int err = 1;
  cl_mem m = clCreateBuffer(ctx, flags, size, host_ptr, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(m != NULL);
  return m;
}

static size_t mem_size_t(cl_mem m, cl_mem_info p)
{
  size_t v = 0, size = 0;
  ASSERT_OK(clGetMemObjectInfo(m, p, sizeof(v), &v, &size));
  ASSERT_EQ(size, sizeof(v));
  return v;
}

static cl_uint mem_uint(cl_mem m, cl_mem_info p)
{
  cl_uint v = 0;
  size_t size = 0;
  ASSERT_OK(clGetMemObjectInfo(m, p, sizeof(v), &v, &size));
  ASSERT_EQ(size, sizeof(v));
  return v;
}

static cl_mem_flags mem_flags(cl_mem m)
{
  cl_mem_flags v = 0;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof(v), &v, NULL));
  return v;
}

static void *mem_ptr(cl_mem m, cl_mem_info p)
{
  void *v = (void *)1;
  ASSERT_OK(clGetMemObjectInfo(m, p, sizeof(v), &v, NULL));
  return v;
}

static int popcount(cl_mem_flags f)
{
  return __builtin_popcountll(f);
}

TEST(create_buffer_every_flag_combination)
{
  cl_context ctx = tl_context();
  static const cl_mem_flags bits[] = {CL_MEM_READ_WRITE,     CL_MEM_WRITE_ONLY,      CL_MEM_READ_ONLY,
                                      CL_MEM_USE_HOST_PTR,   CL_MEM_ALLOC_HOST_PTR,  CL_MEM_COPY_HOST_PTR,
                                      CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS};
  enum { NB = sizeof(bits) / sizeof(bits[0]) };
  static char host[4096];
  int valid_count = 0;
  for (unsigned mask = 0; mask < (1u << NB); mask++) {
    cl_mem_flags flags = 0;
    for (int b = 0; b < NB; b++)
      if (mask & (1u << b))
        flags |= bits[b];
    bool valid = popcount(flags & access_flags) <= 1 && popcount(flags & host_flags) <= 1 &&
                 !((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)));
    bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    for (int give_ptr = 0; give_ptr < 2; give_ptr++) {
      cl_int err = 1;
      cl_mem m = clCreateBuffer(ctx, flags, sizeof(host), give_ptr ? host : NULL, &err);
      cl_int want = !valid ? CL_INVALID_VALUE : (wants_ptr != give_ptr) ? CL_INVALID_HOST_PTR : CL_SUCCESS;
      if (err != want)
        tl_fail(__FILE__, __LINE__, "flags %#llx host_ptr %s: got %s, expected %s", (unsigned long long)flags,
                give_ptr ? "set" : "NULL", tl_cl_error_name(err), tl_cl_error_name(want));
      if (want == CL_SUCCESS) {
        valid_count++;
        ASSERT_TRUE(m != NULL);
        ASSERT_EQ(mem_flags(m), flags);
        ASSERT_EQ(mem_size_t(m, CL_MEM_SIZE), sizeof(host));
        ASSERT_TRUE(mem_ptr(m, CL_MEM_HOST_PTR) == ((flags & CL_MEM_USE_HOST_PTR) ? host : NULL));
        ASSERT_OK(clReleaseMemObject(m));
      } else {
        ASSERT_TRUE(m == NULL);
      }
    }
  }
  /* (1 + 3 access) x (1 + 3 host) x {none, USE, ALLOC, COPY, ALLOC|COPY} */
  ASSERT_EQ(valid_count, 4 * 4 * 5);
  /* Unknown bits, and KERNEL_READ_AND_WRITE (for image format queries only). */
  cl_int err;
  ASSERT_TRUE(clCreateBuffer(ctx, (cl_mem_flags)1 << 40, 64, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateBuffer(ctx, CL_MEM_KERNEL_READ_AND_WRITE, 64, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(create_buffer_errors)
{
  cl_context ctx = tl_context();
  cl_int err;
  ASSERT_TRUE(clCreateBuffer(NULL, 0, 64, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clCreateBuffer((cl_context)tl_device(), 0, 64, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clCreateBuffer(ctx, 0, 0, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_BUFFER_SIZE);
  cl_ulong max_alloc = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc), &max_alloc, NULL));
  ASSERT_TRUE(clCreateBuffer(ctx, 0, (size_t)max_alloc + 1, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_BUFFER_SIZE);
  ASSERT_TRUE(clCreateBuffer(ctx, 0, SIZE_MAX, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_BUFFER_SIZE);
  char host[64];
  ASSERT_TRUE(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_HOST_PTR);
  ASSERT_TRUE(clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 64, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_HOST_PTR);
  ASSERT_TRUE(clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, 64, host, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_HOST_PTR);
  ASSERT_TRUE(clCreateBuffer(ctx, 0, 64, host, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_HOST_PTR);
  /* errcode_ret may be NULL. */
  ASSERT_TRUE(clCreateBuffer(ctx, 0, 0, NULL, NULL) == NULL);
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(create_buffer_with_properties)
{
  cl_context ctx = tl_context();
  cl_int err;
  cl_mem m = clCreateBufferWithProperties(ctx, NULL, CL_MEM_READ_ONLY, 256, NULL, &err);
  ASSERT_OK(err);
  size_t size = 99;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size));
  ASSERT_EQ(size, 0);
  ASSERT_EQ(mem_flags(m), CL_MEM_READ_ONLY);
  ASSERT_OK(clReleaseMemObject(m));

  cl_mem_properties empty[] = {0};
  m = clCreateBufferWithProperties(ctx, empty, 0, 256, NULL, &err);
  ASSERT_OK(err);
  cl_mem_properties got[4] = {7, 7, 7, 7};
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof(got), got, &size));
  ASSERT_EQ(size, sizeof(cl_mem_properties));
  ASSERT_EQ(got[0], 0);
  ASSERT_OK(clReleaseMemObject(m));

  cl_mem_properties unknown[] = {0x12345, 1, 0};
  ASSERT_TRUE(clCreateBufferWithProperties(ctx, unknown, 0, 256, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROPERTY);
  ASSERT_TRUE(clCreateBufferWithProperties(NULL, NULL, 0, 256, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clCreateBufferWithProperties(ctx, NULL, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 256, NULL, &err) ==
              NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateBufferWithProperties(ctx, NULL, 0, 0, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_BUFFER_SIZE);
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(use_host_ptr_is_zero_copy)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  static int host[1024];
  for (int i = 0; i < 1024; i++)
    host[i] = i;
  cl_mem m = buffer(ctx, CL_MEM_USE_HOST_PTR, sizeof(host), host);
  ASSERT_TRUE(mem_ptr(m, CL_MEM_HOST_PTR) == host);
  /* The device sees host writes, the host sees device writes. */
  host[5] = 555;
  int v = 0;
  ASSERT_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 5 * sizeof(int), sizeof(int), &v, 0, NULL, NULL));
  ASSERT_EQ(v, 555);
  v = 777;
  ASSERT_OK(clEnqueueWriteBuffer(q, m, CL_TRUE, 9 * sizeof(int), sizeof(int), &v, 0, NULL, NULL));
  ASSERT_EQ(host[9], 777);
  /* Mapping gives host_ptr + offset. */
  cl_int err;
  int *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 16 * sizeof(int), 16, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(p == host + 16);
  ASSERT_OK(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  ASSERT_OK(clReleaseMemObject(m));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(copy_host_ptr_copies_and_allocations_are_aligned)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  int host[16];
  for (int i = 0; i < 16; i++)
    host[i] = i * 11;
  cl_mem m = buffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(host), host);
  ASSERT_TRUE(mem_ptr(m, CL_MEM_HOST_PTR) == NULL);
  host[3] = -1; /* the buffer has its own copy */
  int back[16];
  ASSERT_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL));
  for (int i = 0; i < 16; i++)
    ASSERT_EQ(back[i], i * 11);
  cl_uint align_bits = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits), &align_bits, NULL));
  ASSERT_TRUE(align_bits >= 512);
  cl_mem flags_list[] = {m, buffer(ctx, 0, 3, NULL), buffer(ctx, CL_MEM_ALLOC_HOST_PTR, 1000, NULL)};
  for (int i = 0; i < 3; i++) {
    cl_int err;
    void *p = clEnqueueMapBuffer(q, flags_list[i], CL_TRUE, CL_MAP_READ, 0, 1, 0, NULL, NULL, &err);
    ASSERT_OK(err);
    ASSERT_EQ((uintptr_t)p % (align_bits / 8), 0);
    ASSERT_OK(clEnqueueUnmapMemObject(q, flags_list[i], p, 0, NULL, NULL));
  }
  ASSERT_OK(clFinish(q));
  for (int i = 0; i < 3; i++)
    ASSERT_OK(clReleaseMemObject(flags_list[i]));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(mem_object_info)
{
  cl_context ctx = tl_context();
  cl_mem m = buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 512, NULL);
  cl_mem_object_type type = 0;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof(type), &type, NULL));
  ASSERT_EQ(type, CL_MEM_OBJECT_BUFFER);
  ASSERT_EQ(mem_flags(m), CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY);
  ASSERT_EQ(mem_size_t(m, CL_MEM_SIZE), 512);
  ASSERT_TRUE(mem_ptr(m, CL_MEM_HOST_PTR) == NULL);
  ASSERT_EQ(mem_uint(m, CL_MEM_MAP_COUNT), 0);
  ASSERT_EQ(mem_uint(m, CL_MEM_REFERENCE_COUNT), 1);
  ASSERT_TRUE(mem_ptr(m, CL_MEM_CONTEXT) == ctx);
  ASSERT_TRUE(mem_ptr(m, CL_MEM_ASSOCIATED_MEMOBJECT) == NULL);
  ASSERT_EQ(mem_size_t(m, CL_MEM_OFFSET), 0);
  cl_bool svm = CL_TRUE;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof(svm), &svm, NULL));
  ASSERT_EQ(svm, CL_FALSE);
  size_t size = 99;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size));
  ASSERT_EQ(size, 0);
  /* Errors. */
  cl_uint u;
  ASSERT_CL(clGetMemObjectInfo(m, 0x7777, sizeof(u), &u, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetMemObjectInfo(m, CL_MEM_SIZE, 1, &u, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof(size), &size, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clGetMemObjectInfo((cl_mem)ctx, CL_MEM_SIZE, sizeof(size), &size, NULL), CL_INVALID_MEM_OBJECT);
  /* References. */
  ASSERT_OK(clRetainMemObject(m));
  ASSERT_EQ(mem_uint(m, CL_MEM_REFERENCE_COUNT), 2);
  ASSERT_OK(clReleaseMemObject(m));
  ASSERT_EQ(mem_uint(m, CL_MEM_REFERENCE_COUNT), 1);
  ASSERT_CL(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clRetainMemObject((cl_mem)ctx), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clReleaseMemObject((cl_mem)ctx), CL_INVALID_MEM_OBJECT);
  ASSERT_OK(clReleaseMemObject(m));
  ASSERT_OK(clReleaseContext(ctx));
}

static size_t base_align(void)
{
  cl_uint bits = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(bits), &bits, NULL));
  return bits / 8;
}

TEST(sub_buffer_info_and_inherited_flags)
{
  cl_context ctx = tl_context();
  size_t align = base_align();
  static char host[1 << 16] __attribute__((aligned(4096)));
  static const cl_mem_flags parents[] = {
      0,
      CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
      CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY,
      CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_NO_ACCESS,
  };
  static const cl_mem_flags subs[] = {0, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE,
                                      CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_NO_ACCESS};
  for (size_t i = 0; i < sizeof(parents) / sizeof(parents[0]); i++) {
    cl_mem_flags pf = parents[i];
    cl_mem m = buffer(ctx, pf, 4 * align, (pf & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) ? host : NULL);
    for (size_t j = 0; j < sizeof(subs) / sizeof(subs[0]); j++) {
      cl_mem_flags sf = subs[j];
      bool ok = !((pf & CL_MEM_WRITE_ONLY) && (sf & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) &&
                !((pf & CL_MEM_READ_ONLY) && (sf & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) &&
                !((pf & CL_MEM_HOST_WRITE_ONLY) && (sf & CL_MEM_HOST_READ_ONLY)) &&
                !((pf & CL_MEM_HOST_READ_ONLY) && (sf & CL_MEM_HOST_WRITE_ONLY)) &&
                !((pf & CL_MEM_HOST_NO_ACCESS) && (sf & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)));
      cl_buffer_region region = {align, 2 * align};
      cl_int err;
      cl_mem s = clCreateSubBuffer(m, sf, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
      if (!ok) {
        ASSERT_CL(err, CL_INVALID_VALUE);
        ASSERT_TRUE(s == NULL);
        continue;
      }
      ASSERT_OK(err);
      cl_mem_flags want = sf;
      if (!(sf & access_flags))
        want |= pf & access_flags;
      want |= pf & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
      if (!(sf & host_flags))
        want |= pf & host_flags;
      ASSERT_EQ(mem_flags(s), want);
      ASSERT_EQ(mem_size_t(s, CL_MEM_SIZE), 2 * align);
      ASSERT_EQ(mem_size_t(s, CL_MEM_OFFSET), align);
      ASSERT_TRUE(mem_ptr(s, CL_MEM_ASSOCIATED_MEMOBJECT) == m);
      ASSERT_TRUE(mem_ptr(s, CL_MEM_CONTEXT) == ctx);
      ASSERT_TRUE(mem_ptr(s, CL_MEM_HOST_PTR) == ((pf & CL_MEM_USE_HOST_PTR) ? host + align : NULL));
      ASSERT_EQ(mem_uint(s, CL_MEM_REFERENCE_COUNT), 1);
      cl_mem_object_type type = 0;
      ASSERT_OK(clGetMemObjectInfo(s, CL_MEM_TYPE, sizeof(type), &type, NULL));
      ASSERT_EQ(type, CL_MEM_OBJECT_BUFFER);
      ASSERT_OK(clReleaseMemObject(s));
    }
    ASSERT_OK(clReleaseMemObject(m));
  }
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(sub_buffer_errors)
{
  cl_context ctx = tl_context();
  size_t align = base_align();
  cl_mem m = buffer(ctx, 0, 8 * align, NULL);
  cl_int err;
  cl_buffer_region r = {align, align};
  cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  ASSERT_OK(err);
  /* A sub-buffer of a sub-buffer. */
  cl_buffer_region r0 = {0, 16};
  ASSERT_TRUE(clCreateSubBuffer(s, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_MEM_OBJECT);
  ASSERT_TRUE(clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_MEM_OBJECT);
  /* Origin not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN. */
  cl_buffer_region mis = {align / 2, 16};
  ASSERT_TRUE(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &mis, &err) == NULL);
  ASSERT_CL(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  cl_buffer_region mis1 = {1, 16};
  ASSERT_TRUE(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &mis1, &err) == NULL);
  ASSERT_CL(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  /* Out of bounds. */
  cl_buffer_region oob = {4 * align, 4 * align + 1};
  ASSERT_TRUE(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &oob, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_buffer_region oob2 = {16 * align, 16};
  ASSERT_TRUE(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &oob2, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_buffer_region wrap = {align, SIZE_MAX};
  ASSERT_TRUE(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &wrap, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  /* Size 0. */
  cl_buffer_region zero = {align, 0};
  ASSERT_TRUE(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &zero, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_BUFFER_SIZE);
  /* Type and info. */
  ASSERT_TRUE(clCreateSubBuffer(m, 0, 0x7777, &r, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  /* Host pointer flags, exclusive flags. */
  static const cl_mem_flags bad[] = {CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                     CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                     CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, (cl_mem_flags)1 << 40};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    ASSERT_TRUE(clCreateSubBuffer(m, bad[i], CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
    ASSERT_CL(err, CL_INVALID_VALUE);
  }
  /* A region that ends exactly at the end is fine. */
  cl_buffer_region tail = {7 * align, align};
  cl_mem t = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &tail, &err);
  ASSERT_OK(err);
  ASSERT_OK(clReleaseMemObject(t));
  ASSERT_OK(clReleaseMemObject(s));
  ASSERT_OK(clReleaseMemObject(m));
  ASSERT_OK(clReleaseContext(ctx));
}

/* ---- destructor callbacks ---- */

static struct {
  atomic_int n;
  int order[16];
} dtor_log;

/* Tests share the log when they run in one process (TL_NOFORK=1). */
static void reset_dtor_log(void)
{
  atomic_store(&dtor_log.n, 0);
}

static void CL_CALLBACK dtor_cb(cl_mem m, void *user_data)
{
  int i = atomic_fetch_add(&dtor_log.n, 1);
  if (i < 16)
    dtor_log.order[i] = (int)(intptr_t)user_data;
}

TEST(destructor_callbacks_lifo_once)
{
  reset_dtor_log();
  cl_context ctx = tl_context();
  cl_mem m = buffer(ctx, 0, 64, NULL);
  for (int i = 1; i <= 3; i++)
    ASSERT_OK(clSetMemObjectDestructorCallback(m, dtor_cb, (void *)(intptr_t)i));
  ASSERT_OK(clRetainMemObject(m));
  ASSERT_OK(clReleaseMemObject(m));
  ASSERT_EQ(atomic_load(&dtor_log.n), 0);
  ASSERT_OK(clReleaseMemObject(m));
  ASSERT_EQ(atomic_load(&dtor_log.n), 3);
  ASSERT_EQ(dtor_log.order[0], 3);
  ASSERT_EQ(dtor_log.order[1], 2);
  ASSERT_EQ(dtor_log.order[2], 1);
  ASSERT_CL(clSetMemObjectDestructorCallback(NULL, dtor_cb, NULL), CL_INVALID_MEM_OBJECT);
  cl_mem m2 = buffer(ctx, 0, 64, NULL);
  ASSERT_CL(clSetMemObjectDestructorCallback(m2, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_OK(clReleaseMemObject(m2));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(memory_lives_until_commands_finish)
{
  reset_dtor_log();
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_mem m = buffer(ctx, 0, 1 << 20, NULL);
  ASSERT_OK(clSetMemObjectDestructorCallback(m, dtor_cb, (void *)(intptr_t)9));
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  ASSERT_OK(err);
  static char data[1 << 20], back[1 << 20];
  memset(data, 0x3c, sizeof(data));
  cl_event w, r;
  ASSERT_OK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof(data), data, 1, &gate, &w));
  ASSERT_OK(clEnqueueReadBuffer(q, m, CL_FALSE, 0, sizeof(back), back, 0, NULL, &r));
  ASSERT_OK(clReleaseMemObject(m)); /* commands still use it */
  usleep(10000);
  ASSERT_EQ(atomic_load(&dtor_log.n), 0);
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &r));
  ASSERT_TRUE(memcmp(data, back, sizeof(data)) == 0);
  /* The read released the buffer before its event completed. */
  ASSERT_EQ(atomic_load(&dtor_log.n), 1);
  ASSERT_EQ(dtor_log.order[0], 9);
  ASSERT_OK(clReleaseEvent(w));
  ASSERT_OK(clReleaseEvent(r));
  ASSERT_OK(clReleaseEvent(gate));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(sub_buffer_keeps_parent_alive)
{
  reset_dtor_log();
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  size_t align = base_align();
  cl_mem m = buffer(ctx, 0, 4 * align, NULL);
  ASSERT_OK(clSetMemObjectDestructorCallback(m, dtor_cb, (void *)(intptr_t)1));
  cl_buffer_region r = {2 * align, align};
  cl_int err;
  cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetMemObjectDestructorCallback(s, dtor_cb, (void *)(intptr_t)2));
  /* The sub-buffer's reference does not show in the parent's count. */
  ASSERT_EQ(mem_uint(m, CL_MEM_REFERENCE_COUNT), 1);
  int v = 4242, back = 0;
  ASSERT_OK(clEnqueueWriteBuffer(q, m, CL_TRUE, 2 * align + 8, sizeof(v), &v, 0, NULL, NULL));
  ASSERT_OK(clReleaseMemObject(m));
  ASSERT_EQ(atomic_load(&dtor_log.n), 0);
  ASSERT_OK(clEnqueueReadBuffer(q, s, CL_TRUE, 8, sizeof(back), &back, 0, NULL, NULL));
  ASSERT_EQ(back, 4242);
  ASSERT_OK(clReleaseMemObject(s));
  /* The sub-buffer goes first, then its parent. */
  ASSERT_EQ(atomic_load(&dtor_log.n), 2);
  ASSERT_EQ(dtor_log.order[0], 2);
  ASSERT_EQ(dtor_log.order[1], 1);
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

/* ---- unsupported families ---- */

TEST(pipes_and_svm_are_not_supported)
{
  cl_context ctx = tl_context();
  cl_int err;
  ASSERT_TRUE(clCreatePipe(ctx, CL_MEM_HOST_NO_ACCESS, 4, 4, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  ASSERT_TRUE(clCreatePipe(NULL, CL_MEM_HOST_NO_ACCESS, 4, 4, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  cl_mem buf = buffer(ctx, 0, 64, NULL);
  cl_uint u;
  ASSERT_CL(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof(u), &u, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_OK(clReleaseMemObject(buf));

  cl_device_svm_capabilities caps = 1;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_SVM_CAPABILITIES, sizeof(caps), &caps, NULL));
  ASSERT_EQ(caps, 0);
  ASSERT_TRUE(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0) == NULL);
  clSVMFree(ctx, NULL);
  ASSERT_OK(clReleaseContext(ctx));
}

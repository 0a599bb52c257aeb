/* Kernel-less enqueues through the ICD loader: read, write, copy and fill of
 * buffers and sub-buffers (linear and rectangular), map and unmap, migrate,
 * with each error code of the spec; the image enqueues given buffers; and
 * the SVM enqueues the device does not support. */
#include <stdint.h>
#include <unistd.h>

#include "tests/testlib.h"

struct fixture {
  cl_context ctx;
  cl_command_queue q;
};

static struct fixture setup(cl_command_queue_properties props)
{
  struct fixture f;
  f.ctx = tl_context();
  f.q = tl_queue(f.ctx, props);
  return f;
}

static void teardown(struct fixture f)
{
  ASSERT_OK(clFinish(f.q));
  ASSERT_OK(clReleaseCommandQueue(f.q));
  ASSERT_OK(clReleaseContext(f.ctx));
}

static cl_mem buffer(cl_context ctx, cl_mem_flags flags, size_t size)
{
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, flags, size, NULL, &err);
  ASSERT_OK(err);
  return m;
}

static cl_command_type type_of(cl_event e)
{
  cl_command_type t = 0;
  ASSERT_OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof(t), &t, NULL));
  return t;
}

static size_t base_align(void)
{
  cl_uint bits = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(bits), &bits, NULL));
  return bits / 8;
}

TEST(read_write_blocking_and_not)
{
  struct fixture f = setup(0);
  enum { N = 1 << 16 };
  cl_mem m = buffer(f.ctx, 0, N * sizeof(int));
  static int src[N], back[N];
  for (int i = 0; i < N; i++)
    src[i] = i * 31 + 7;
  cl_event w, r;
  ASSERT_OK(clEnqueueWriteBuffer(f.q, m, CL_FALSE, 0, sizeof(src), src, 0, NULL, &w));
  ASSERT_EQ(type_of(w), CL_COMMAND_WRITE_BUFFER);
  ASSERT_OK(clEnqueueReadBuffer(f.q, m, CL_FALSE, 0, sizeof(back), back, 1, &w, &r));
  ASSERT_EQ(type_of(r), CL_COMMAND_READ_BUFFER);
  ASSERT_OK(clWaitForEvents(1, &r));
  ASSERT_TRUE(memcmp(src, back, sizeof(src)) == 0);
  /* Offsets, blocking. */
  int part[100];
  ASSERT_OK(clEnqueueReadBuffer(f.q, m, CL_TRUE, 1000 * sizeof(int), sizeof(part), part, 0, NULL, NULL));
  for (int i = 0; i < 100; i++)
    ASSERT_EQ(part[i], src[1000 + i]);
  for (int i = 0; i < 100; i++)
    part[i] = -i;
  ASSERT_OK(clEnqueueWriteBuffer(f.q, m, CL_TRUE, (N - 100) * sizeof(int), sizeof(part), part, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL));
  for (int i = 0; i < N; i++)
    ASSERT_EQ(back[i], i >= N - 100 ? -(i - (N - 100)) : src[i]);
  /* Zero bytes is fine. */
  ASSERT_OK(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 0, back, 0, NULL, NULL));
  ASSERT_OK(clReleaseEvent(w));
  ASSERT_OK(clReleaseEvent(r));
  ASSERT_OK(clReleaseMemObject(m));
  teardown(f);
}

TEST(read_write_errors)
{
  struct fixture f = setup(0);
  cl_context ctx2 = tl_context();
  cl_mem m = buffer(f.ctx, 0, 256);
  cl_mem other = buffer(ctx2, 0, 256);
  char data[256];
  cl_int err;
  cl_event ue = clCreateUserEvent(f.ctx, &err), ue2 = clCreateUserEvent(ctx2, &err);
  ASSERT_CL(clEnqueueReadBuffer(NULL, m, CL_TRUE, 0, 4, data, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueWriteBuffer(NULL, m, CL_TRUE, 0, 4, data, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueReadBuffer((cl_command_queue)m, m, CL_TRUE, 0, 4, data, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueReadBuffer(f.q, other, CL_TRUE, 0, 4, data, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueWriteBuffer(f.q, other, CL_TRUE, 0, 4, data, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 4, data, 1, &ue2, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueReadBuffer(f.q, NULL, CL_TRUE, 0, 4, data, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueWriteBuffer(f.q, (cl_mem)f.q, CL_TRUE, 0, 4, data, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueReadBuffer(f.q, m, CL_TRUE, 250, 7, data, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueWriteBuffer(f.q, m, CL_TRUE, 257, 0, data, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueReadBuffer(f.q, m, CL_TRUE, 8, SIZE_MAX, data, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueWriteBuffer(f.q, m, CL_TRUE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 4, data, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  ASSERT_CL(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 4, data, 0, &ue, NULL), CL_INVALID_EVENT_WAIT_LIST);
  cl_event nul[] = {NULL};
  ASSERT_CL(clEnqueueWriteBuffer(f.q, m, CL_TRUE, 0, 4, data, 1, nul, NULL), CL_INVALID_EVENT_WAIT_LIST);

  /* Host access flags. */
  cl_mem wo = buffer(f.ctx, CL_MEM_HOST_WRITE_ONLY, 64), ro = buffer(f.ctx, CL_MEM_HOST_READ_ONLY, 64),
         na = buffer(f.ctx, CL_MEM_HOST_NO_ACCESS, 64);
  ASSERT_CL(clEnqueueReadBuffer(f.q, wo, CL_TRUE, 0, 4, data, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueReadBuffer(f.q, na, CL_TRUE, 0, 4, data, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueWriteBuffer(f.q, ro, CL_TRUE, 0, 4, data, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueWriteBuffer(f.q, na, CL_TRUE, 0, 4, data, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_OK(clEnqueueWriteBuffer(f.q, wo, CL_TRUE, 0, 4, data, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(f.q, ro, CL_TRUE, 0, 4, data, 0, NULL, NULL));
  /* Copies and fills ignore host access flags. */
  ASSERT_OK(clEnqueueCopyBuffer(f.q, na, wo, 0, 0, 64, 0, NULL, NULL));
  int zero = 0;
  ASSERT_OK(clEnqueueFillBuffer(f.q, na, &zero, 4, 0, 64, 0, NULL, NULL));

  /* Blocking, with a failed event in the wait list. */
  cl_event bad = clCreateUserEvent(f.ctx, &err);
  ASSERT_OK(clSetUserEventStatus(bad, -3));
  ASSERT_CL(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 4, data, 1, &bad, NULL),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ASSERT_CL(clEnqueueWriteBuffer(f.q, m, CL_TRUE, 0, 4, data, 1, &bad, NULL),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  /* Non-blocking: the command fails, the call succeeds. */
  cl_event e;
  ASSERT_OK(clEnqueueReadBuffer(f.q, m, CL_FALSE, 0, 4, data, 1, &bad, &e));
  ASSERT_CL(clWaitForEvents(1, &e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  ASSERT_OK(clReleaseEvent(e));

  ASSERT_OK(clSetUserEventStatus(ue, CL_COMPLETE));
  ASSERT_OK(clSetUserEventStatus(ue2, CL_COMPLETE));
  for (cl_event *p = (cl_event[]){ue, ue2, bad}, *end = p + 3; p < end; p++)
    ASSERT_OK(clReleaseEvent(*p));
  for (cl_mem *p = (cl_mem[]){m, other, wo, ro, na}, *end = p + 5; p < end; p++)
    ASSERT_OK(clReleaseMemObject(*p));
  ASSERT_OK(clReleaseContext(ctx2));
  teardown(f);
}

TEST(copy_buffer_and_overlap)
{
  struct fixture f = setup(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  size_t align = base_align();
  enum { N = 4096 };
  cl_mem a = buffer(f.ctx, 0, N), b = buffer(f.ctx, 0, N);
  static unsigned char src[N], back[N];
  for (int i = 0; i < N; i++)
    src[i] = (unsigned char)(i * 13);
  ASSERT_OK(clEnqueueWriteBuffer(f.q, a, CL_TRUE, 0, N, src, 0, NULL, NULL));
  cl_event c;
  ASSERT_OK(clEnqueueCopyBuffer(f.q, a, b, 100, 200, 1000, 0, NULL, &c));
  ASSERT_EQ(type_of(c), CL_COMMAND_COPY_BUFFER);
  ASSERT_OK(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, N, back, 1, &c, NULL));
  ASSERT_TRUE(memcmp(back + 200, src + 100, 1000) == 0);
  ASSERT_OK(clReleaseEvent(c));
  /* Within one buffer, apart: fine. */
  ASSERT_OK(clEnqueueCopyBuffer(f.q, a, a, 0, 2048, 2048, 0, NULL, &c));
  ASSERT_OK(clEnqueueReadBuffer(f.q, a, CL_TRUE, 0, N, back, 1, &c, NULL));
  ASSERT_TRUE(memcmp(back + 2048, src, 2048) == 0);
  ASSERT_OK(clReleaseEvent(c));
  /* Overlapping within one buffer, or between sub-buffers of one buffer. */
  ASSERT_CL(clEnqueueCopyBuffer(f.q, a, a, 0, 100, 200, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  ASSERT_CL(clEnqueueCopyBuffer(f.q, a, a, 100, 0, 200, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  cl_int err;
  cl_buffer_region r1 = {0, 2 * align}, r2 = {align, 2 * align};
  cl_mem s1 = clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  ASSERT_OK(err);
  cl_mem s2 = clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
  ASSERT_OK(err);
  ASSERT_CL(clEnqueueCopyBuffer(f.q, s1, s2, align, 0, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  ASSERT_OK(clEnqueueCopyBuffer(f.q, s1, s2, 0, align, align, 0, NULL, NULL)); /* bytes apart */
  ASSERT_CL(clEnqueueCopyBuffer(f.q, s1, s1, 0, 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  ASSERT_OK(clFinish(f.q));
  /* Errors. */
  cl_context ctx2 = tl_context();
  cl_mem other = buffer(ctx2, 0, 64);
  ASSERT_CL(clEnqueueCopyBuffer(NULL, a, b, 0, 0, 4, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueCopyBuffer(f.q, other, b, 0, 0, 4, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueCopyBuffer(f.q, a, other, 0, 0, 4, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueCopyBuffer(f.q, NULL, b, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyBuffer(f.q, a, NULL, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyBuffer(f.q, a, b, N - 2, 0, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyBuffer(f.q, a, b, 0, N - 2, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyBuffer(f.q, a, b, 0, 0, 4, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  for (cl_mem *p = (cl_mem[]){a, b, s1, s2, other}, *end = p + 5; p < end; p++)
    ASSERT_OK(clReleaseMemObject(*p));
  ASSERT_OK(clReleaseContext(ctx2));
  teardown(f);
}

TEST(fill_buffer_every_pattern_size)
{
  struct fixture f = setup(0);
  enum { N = 4096 };
  cl_mem m = buffer(f.ctx, 0, N);
  static unsigned char back[N], expect[N];
  unsigned char pattern[128];
  for (int i = 0; i < 128; i++)
    pattern[i] = (unsigned char)(i * 7 + 1);
  for (size_t ps = 1; ps <= 128; ps *= 2) {
    memset(expect, 0xee, N);
    ASSERT_OK(clEnqueueFillBuffer(f.q, m, expect, 1, 0, N, 0, NULL, NULL)); /* 0xee */
    size_t off = ps * 3, size = ps * 21;
    cl_event e;
    ASSERT_OK(clEnqueueFillBuffer(f.q, m, pattern, ps, off, size, 0, NULL, &e));
    ASSERT_EQ(type_of(e), CL_COMMAND_FILL_BUFFER);
    for (size_t i = 0; i < size; i++)
      expect[off + i] = pattern[i % ps];
    ASSERT_OK(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, N, back, 0, NULL, NULL));
    ASSERT_TRUE(memcmp(back, expect, N) == 0);
    ASSERT_OK(clReleaseEvent(e));
  }
  /* Errors. */
  ASSERT_CL(clEnqueueFillBuffer(NULL, m, pattern, 4, 0, 16, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueFillBuffer(f.q, NULL, pattern, 4, 0, 16, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueFillBuffer(f.q, m, NULL, 4, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueFillBuffer(f.q, m, pattern, 0, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueFillBuffer(f.q, m, pattern, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueFillBuffer(f.q, m, pattern, 256, 0, 256, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueFillBuffer(f.q, m, pattern, 4, 2, 16, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueFillBuffer(f.q, m, pattern, 4, 0, 18, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueFillBuffer(f.q, m, pattern, 4, N - 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueFillBuffer(f.q, m, pattern, 4, 0, 16, 0, (cl_event[]){NULL}, NULL), CL_INVALID_EVENT_WAIT_LIST);
  ASSERT_OK(clReleaseMemObject(m));
  teardown(f);
}

/* Host reference of a rectangular copy. */
static void rect_copy(unsigned char *dst, const size_t dorg[3], size_t drow, size_t dslice, const unsigned char *src,
                      const size_t sorg[3], size_t srow, size_t sslice, const size_t region[3])
{
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memcpy(dst + (dorg[2] + z) * dslice + (dorg[1] + y) * drow + dorg[0],
             src + (sorg[2] + z) * sslice + (sorg[1] + y) * srow + sorg[0], region[0]);
}

TEST(rect_read_write_copy)
{
  struct fixture f = setup(0);
  enum { N = 64 * 32 * 8 };
  cl_mem a = buffer(f.ctx, 0, N), b = buffer(f.ctx, 0, N);
  static unsigned char host[N], shadow_a[N], shadow_b[N], back[N];
  for (int i = 0; i < N; i++)
    host[i] = (unsigned char)(i * 5 + 3);
  memset(shadow_a, 0, N);
  memset(shadow_b, 0, N);
  ASSERT_OK(clEnqueueWriteBuffer(f.q, a, CL_TRUE, 0, N, shadow_a, 0, NULL, NULL));
  ASSERT_OK(clEnqueueWriteBuffer(f.q, b, CL_TRUE, 0, N, shadow_b, 0, NULL, NULL));

  /* Write a 3D box: buffer pitches 64 / 2048, host pitches 48 / 1536. */
  size_t borg[3] = {5, 3, 1}, horg[3] = {2, 1, 0}, region[3] = {20, 7, 3};
  cl_event e;
  ASSERT_OK(clEnqueueWriteBufferRect(f.q, a, CL_FALSE, borg, horg, region, 64, 2048, 48, 1536, host, 0, NULL, &e));
  ASSERT_EQ(type_of(e), CL_COMMAND_WRITE_BUFFER_RECT);
  ASSERT_OK(clReleaseEvent(e));
  rect_copy(shadow_a, borg, 64, 2048, host, horg, 48, 1536, region);
  ASSERT_OK(clEnqueueReadBuffer(f.q, a, CL_TRUE, 0, N, back, 0, NULL, NULL));
  ASSERT_TRUE(memcmp(back, shadow_a, N) == 0);

  /* Read a 2D box back with default (0) pitches on the host side. */
  size_t borg2[3] = {4, 2, 0}, horg2[3] = {0, 0, 0}, region2[3] = {30, 10, 1};
  memset(back, 0, N);
  ASSERT_OK(clEnqueueReadBufferRect(f.q, a, CL_FALSE, borg2, horg2, region2, 64, 0, 0, 0, back, 0, NULL, &e));
  ASSERT_EQ(type_of(e), CL_COMMAND_READ_BUFFER_RECT);
  ASSERT_OK(clWaitForEvents(1, &e));
  ASSERT_OK(clReleaseEvent(e));
  static unsigned char expect[N];
  memset(expect, 0, N);
  rect_copy(expect, horg2, 30, 300, shadow_a, borg2, 64, 64 * 10, region2);
  ASSERT_TRUE(memcmp(back, expect, N) == 0);

  /* Copy a box from a to b with different pitches. */
  size_t sorg[3] = {1, 1, 1}, dorg[3] = {3, 0, 2}, region3[3] = {16, 5, 2};
  ASSERT_OK(clEnqueueCopyBufferRect(f.q, a, b, sorg, dorg, region3, 64, 2048, 32, 512, 0, NULL, &e));
  ASSERT_EQ(type_of(e), CL_COMMAND_COPY_BUFFER_RECT);
  ASSERT_OK(clReleaseEvent(e));
  rect_copy(shadow_b, dorg, 32, 512, shadow_a, sorg, 64, 2048, region3);
  ASSERT_OK(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, N, back, 0, NULL, NULL));
  ASSERT_TRUE(memcmp(back, shadow_b, N) == 0);

  /* Within one buffer: rows interleaved (x apart) do not overlap. */
  size_t s4[3] = {0, 0, 0}, d4[3] = {32, 0, 0}, region4[3] = {32, 8, 1};
  ASSERT_OK(clEnqueueCopyBufferRect(f.q, a, a, s4, d4, region4, 64, 0, 64, 0, 0, NULL, NULL));
  rect_copy(shadow_a, d4, 64, 512, shadow_a, s4, 64, 512, region4);
  ASSERT_OK(clEnqueueReadBuffer(f.q, a, CL_TRUE, 0, N, back, 0, NULL, NULL));
  ASSERT_TRUE(memcmp(back, shadow_a, N) == 0);
  teardown(f);
  ASSERT_OK(clReleaseMemObject(a));
  ASSERT_OK(clReleaseMemObject(b));
}

TEST(rect_errors)
{
  struct fixture f = setup(0);
  cl_mem a = buffer(f.ctx, 0, 4096), b = buffer(f.ctx, 0, 4096);
  unsigned char host[4096];
  size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1};
  /* NULL origin or region, zero region. */
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, NULL, o, r, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueWriteBufferRect(f.q, a, CL_TRUE, o, NULL, r, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyBufferRect(f.q, a, b, o, o, NULL, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t r0[3] = {8, 0, 1};
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, o, o, r0, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t rz[3] = {8, 8, 0};
  ASSERT_CL(clEnqueueCopyBufferRect(f.q, a, b, o, o, rz, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  /* Pitches. */
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, o, o, r, 4, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, o, o, r, 16, 100, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, o, o, r, 16, 136, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, o, o, r, 0, 0, 7, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, o, o, r, 0, 0, 16, 120, host, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, o, o, r, 0, 0, 16, 130, host, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyBufferRect(f.q, a, b, o, o, r, 4, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyBufferRect(f.q, a, b, o, o, r, 0, 0, 16, 100, 0, NULL, NULL), CL_INVALID_VALUE);
  /* Out of bounds. */
  size_t far[3] = {0, 0, 1};
  size_t big[3] = {64, 65, 1};
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, o, o, big, 64, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueWriteBufferRect(f.q, a, CL_TRUE, far, o, r, 0, 4096, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyBufferRect(f.q, a, b, far, o, r, 0, 4096, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyBufferRect(f.q, a, b, o, far, r, 0, 0, 0, 4096, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t huge[3] = {SIZE_MAX / 2, 0, 0};
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, huge, o, r, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  /* NULL ptr; bad handles; wait list; host flags. */
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, o, o, r, 0, 0, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueReadBufferRect(NULL, a, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueWriteBufferRect(f.q, NULL, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyBufferRect(f.q, a, NULL, o, o, r, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueReadBufferRect(f.q, a, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 1, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_mem na = buffer(f.ctx, CL_MEM_HOST_NO_ACCESS, 4096);
  ASSERT_CL(clEnqueueReadBufferRect(f.q, na, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueWriteBufferRect(f.q, na, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_OPERATION);
  /* One buffer: pitches must match; overlapping boxes. */
  size_t d[3] = {0, 8, 0};
  ASSERT_CL(clEnqueueCopyBufferRect(f.q, a, a, o, d, r, 16, 0, 32, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t d2[3] = {4, 4, 0};
  ASSERT_CL(clEnqueueCopyBufferRect(f.q, a, a, o, d2, r, 16, 0, 16, 0, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  ASSERT_OK(clEnqueueCopyBufferRect(f.q, a, a, o, d, r, 16, 0, 16, 0, 0, NULL, NULL)); /* rows 8.. apart */
  ASSERT_OK(clReleaseMemObject(a));
  ASSERT_OK(clReleaseMemObject(b));
  ASSERT_OK(clReleaseMemObject(na));
  teardown(f);
}

TEST(map_unmap)
{
  struct fixture f = setup(0);
  enum { N = 8192 };
  cl_mem m = buffer(f.ctx, 0, N);
  cl_int err;
  cl_event e;
  /* Non-blocking map for writing, then unmap; the data is there. */
  unsigned char *p = clEnqueueMapBuffer(f.q, m, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, 0, N, 0, NULL, &e, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(p != NULL);
  ASSERT_EQ(type_of(e), CL_COMMAND_MAP_BUFFER);
  ASSERT_OK(clWaitForEvents(1, &e));
  ASSERT_OK(clReleaseEvent(e));
  cl_uint count = 0;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof(count), &count, NULL));
  ASSERT_EQ(count, 1);
  for (int i = 0; i < N; i++)
    p[i] = (unsigned char)(i ^ 0x55);
  ASSERT_OK(clEnqueueUnmapMemObject(f.q, m, p, 0, NULL, &e));
  ASSERT_EQ(type_of(e), CL_COMMAND_UNMAP_MEM_OBJECT);
  ASSERT_OK(clReleaseEvent(e));
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof(count), &count, NULL));
  ASSERT_EQ(count, 0);
  static unsigned char back[N];
  ASSERT_OK(clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, N, back, 0, NULL, NULL));
  for (int i = 0; i < N; i++)
    ASSERT_EQ(back[i], (unsigned char)(i ^ 0x55));
  /* Blocking map for reading at an offset, twice (reads may overlap). */
  unsigned char *r1 = clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ, 100, 50, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  unsigned char *r2 = clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ, 120, 50, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_EQ(r1[0], (unsigned char)(100 ^ 0x55));
  ASSERT_EQ(r2[0], (unsigned char)(120 ^ 0x55));
  /* Overlapping a read mapping for writing: an error. */
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_WRITE, 140, 10, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  /* Apart is fine. */
  unsigned char *w = clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 4096, 64, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof(count), &count, NULL));
  ASSERT_EQ(count, 3);
  /* Unmapping a pointer that is not mapped. */
  ASSERT_CL(clEnqueueUnmapMemObject(f.q, m, r1 + 1, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_OK(clEnqueueUnmapMemObject(f.q, m, r1, 0, NULL, NULL));
  ASSERT_CL(clEnqueueUnmapMemObject(f.q, m, r1, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_OK(clEnqueueUnmapMemObject(f.q, m, r2, 0, NULL, NULL));
  ASSERT_OK(clEnqueueUnmapMemObject(f.q, m, w, 0, NULL, NULL));
  ASSERT_OK(clReleaseMemObject(m));
  teardown(f);
}

TEST(map_errors)
{
  struct fixture f = setup(0);
  cl_context ctx2 = tl_context();
  cl_mem m = buffer(f.ctx, 0, 256), other = buffer(ctx2, 0, 256);
  cl_int err;
  ASSERT_TRUE(clEnqueueMapBuffer(NULL, m, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_COMMAND_QUEUE);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, other, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, NULL, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_MEM_OBJECT);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ, 250, 8, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0, NULL, NULL,
                                 &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, m, CL_TRUE, 0x100, 0, 4, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ, 0, 4, 1, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_EVENT_WAIT_LIST);
  /* Host access flags. */
  cl_mem wo = buffer(f.ctx, CL_MEM_HOST_WRITE_ONLY, 64), ro = buffer(f.ctx, CL_MEM_HOST_READ_ONLY, 64),
         na = buffer(f.ctx, CL_MEM_HOST_NO_ACCESS, 64);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, wo, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, na, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, ro, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, ro, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0, NULL, NULL, &err) ==
              NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, na, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  void *p = clEnqueueMapBuffer(f.q, wo, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clEnqueueUnmapMemObject(f.q, wo, p, 0, NULL, NULL));
  p = clEnqueueMapBuffer(f.q, ro, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  /* Unmap errors. */
  ASSERT_CL(clEnqueueUnmapMemObject(NULL, ro, p, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueUnmapMemObject(f.q, NULL, p, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueUnmapMemObject(f.q, other, p, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueUnmapMemObject(f.q, wo, p, 0, NULL, NULL), CL_INVALID_VALUE); /* mapped from ro */
  ASSERT_CL(clEnqueueUnmapMemObject(f.q, ro, p, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  ASSERT_OK(clEnqueueUnmapMemObject(f.q, ro, p, 0, NULL, NULL));
  /* Blocking map after a failed event: the error, NULL, nothing mapped. */
  cl_event bad = clCreateUserEvent(f.ctx, &err);
  ASSERT_OK(clSetUserEventStatus(bad, -1));
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ, 0, 4, 1, &bad, NULL, &err) == NULL);
  ASSERT_CL(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_uint count = 9;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof(count), &count, NULL));
  ASSERT_EQ(count, 0);
  ASSERT_OK(clReleaseEvent(bad));
  for (cl_mem *q = (cl_mem[]){m, other, wo, ro, na}, *end = q + 5; q < end; q++)
    ASSERT_OK(clReleaseMemObject(*q));
  ASSERT_OK(clReleaseContext(ctx2));
  teardown(f);
}

TEST(sub_buffer_read_write_map)
{
  struct fixture f = setup(0);
  size_t align = base_align();
  cl_mem m = buffer(f.ctx, 0, 4 * align);
  cl_int err;
  cl_buffer_region r = {align, 2 * align};
  cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  ASSERT_OK(err);
  unsigned char *zero = calloc(1, 4 * align);
  ASSERT_OK(clEnqueueWriteBuffer(f.q, m, CL_TRUE, 0, 4 * align, zero, 0, NULL, NULL));
  free(zero);
  int v = 0x1234567;
  ASSERT_OK(clEnqueueWriteBuffer(f.q, s, CL_TRUE, 4, sizeof(v), &v, 0, NULL, NULL));
  int back = 0;
  ASSERT_OK(clEnqueueReadBuffer(f.q, m, CL_TRUE, align + 4, sizeof(back), &back, 0, NULL, NULL));
  ASSERT_EQ(back, 0x1234567);
  /* Out of the sub-buffer's bounds even though inside the parent. */
  ASSERT_CL(clEnqueueReadBuffer(f.q, s, CL_TRUE, 2 * align, 4, &back, 0, NULL, NULL), CL_INVALID_VALUE);
  /* Mapping the sub-buffer for writing overlaps a write mapping of the parent. */
  void *pm = clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_WRITE, align, 16, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(clEnqueueMapBuffer(f.q, s, CL_TRUE, CL_MAP_WRITE, 0, 16, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_OPERATION);
  int *ps = clEnqueueMapBuffer(f.q, s, CL_TRUE, CL_MAP_WRITE, 64, 16, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_TRUE((char *)ps == (char *)pm + 64);
  ASSERT_CL(clEnqueueUnmapMemObject(f.q, m, ps, 0, NULL, NULL), CL_INVALID_VALUE); /* mapped from s */
  ASSERT_OK(clEnqueueUnmapMemObject(f.q, s, ps, 0, NULL, NULL));
  ASSERT_OK(clEnqueueUnmapMemObject(f.q, m, pm, 0, NULL, NULL));
  ASSERT_OK(clReleaseMemObject(s));
  ASSERT_OK(clReleaseMemObject(m));
  teardown(f);
}

TEST(migrate_mem_objects)
{
  struct fixture f = setup(0);
  cl_context ctx2 = tl_context();
  cl_mem a = buffer(f.ctx, 0, 64), b = buffer(f.ctx, 0, 64), other = buffer(ctx2, 0, 64);
  cl_mem both[] = {a, b};
  cl_event e;
  ASSERT_OK(clEnqueueMigrateMemObjects(f.q, 2, both, 0, 0, NULL, &e));
  ASSERT_EQ(type_of(e), CL_COMMAND_MIGRATE_MEM_OBJECTS);
  ASSERT_OK(clWaitForEvents(1, &e));
  ASSERT_OK(clReleaseEvent(e));
  ASSERT_OK(clEnqueueMigrateMemObjects(f.q, 1, &a, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
  ASSERT_OK(clEnqueueMigrateMemObjects(f.q, 1, &a, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
  ASSERT_CL(clEnqueueMigrateMemObjects(NULL, 1, &a, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueMigrateMemObjects(f.q, 0, &a, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueMigrateMemObjects(f.q, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueMigrateMemObjects(f.q, 1, &a, 0x100, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_mem bad[] = {a, NULL};
  ASSERT_CL(clEnqueueMigrateMemObjects(f.q, 2, bad, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueMigrateMemObjects(f.q, 1, &other, 0, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueMigrateMemObjects(f.q, 1, &a, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  for (cl_mem *p = (cl_mem[]){a, b, other}, *end = p + 3; p < end; p++)
    ASSERT_OK(clReleaseMemObject(*p));
  ASSERT_OK(clReleaseContext(ctx2));
  teardown(f);
}

/* A buffer is not an image: every image enqueue rejects it
 * (CL_INVALID_MEM_OBJECT); the queue is checked first. */
TEST(image_enqueues_reject_buffers)
{
  struct fixture f = setup(0);
  cl_mem buf = buffer(f.ctx, 0, 256);
  size_t o[3] = {0, 0, 0}, r[3] = {1, 1, 1};
  char data[256];
  float color[4] = {0};
  cl_int err;
  ASSERT_CL(clEnqueueReadImage(f.q, buf, CL_TRUE, o, r, 0, 0, data, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueWriteImage(f.q, buf, CL_TRUE, o, r, 0, 0, data, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyImage(f.q, buf, buf, o, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueFillImage(f.q, buf, color, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyImageToBuffer(f.q, buf, buf, o, r, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyBufferToImage(f.q, buf, buf, 0, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  size_t rp, sp;
  ASSERT_TRUE(clEnqueueMapImage(f.q, buf, CL_TRUE, CL_MAP_READ, o, r, &rp, &sp, 0, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueReadImage(NULL, buf, CL_TRUE, o, r, 0, 0, data, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_OK(clReleaseMemObject(buf));
  teardown(f);
}

TEST(svm_enqueues_are_not_supported)
{
  struct fixture f = setup(0);
  void *bogus0 = (void *)0xDEAD0000, *bogus1 = (void *)0xBEEF0000;
  cl_uint pattern = 0xAAAAAAAA;
  ASSERT_CL(clEnqueueSVMMemFill(f.q, bogus0, &pattern, sizeof(pattern), 16, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueSVMMemcpy(f.q, CL_TRUE, bogus1, bogus0, 16, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueSVMMap(f.q, CL_TRUE, CL_MAP_READ, bogus1, 16, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueSVMUnmap(f.q, bogus1, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueSVMMigrateMem(f.q, 1, (const void **)&bogus1, NULL, 0, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueSVMFree(f.q, 1, &bogus0, NULL, NULL, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueSVMMemcpy(NULL, CL_TRUE, bogus1, bogus0, 16, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  teardown(f);
}

TEST(large_transfers)
{
  /* Bigger than any cache: copies and fills of 64 MiB stay correct. */
  struct fixture f = setup(0);
  size_t n = 64u << 20;
  cl_mem a = buffer(f.ctx, 0, n), b = buffer(f.ctx, 0, n);
  unsigned pat = 0xdeadbeef;
  ASSERT_OK(clEnqueueFillBuffer(f.q, a, &pat, sizeof(pat), 0, n, 0, NULL, NULL));
  ASSERT_OK(clEnqueueCopyBuffer(f.q, a, b, 0, 0, n, 0, NULL, NULL));
  cl_int err;
  unsigned *p = clEnqueueMapBuffer(f.q, b, CL_TRUE, CL_MAP_READ, 0, n, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  for (size_t i = 0; i < n / 4; i += 4093)
    ASSERT_EQ(p[i], 0xdeadbeef);
  ASSERT_EQ(p[n / 4 - 1], 0xdeadbeef);
  ASSERT_OK(clEnqueueUnmapMemObject(f.q, b, p, 0, NULL, NULL));
  ASSERT_OK(clReleaseMemObject(a));
  ASSERT_OK(clReleaseMemObject(b));
  teardown(f);
}

/* Command-queue family through the ICD loader: clCreateCommandQueue,
 * clCreateCommandQueueWithProperties, clRetain/ReleaseCommandQueue,
 * clGetCommandQueueInfo, clSetCommandQueueProperty,
 * clSetDefaultDeviceCommandQueue, clFlush, clFinish; queue lifetime and the
 * launch overhead of an empty command. */
#include <time.h>
#include <unistd.h>

#include "tests/testlib.h"

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static cl_uint queue_refcount(cl_command_queue q)
{
  cl_uint n = 0;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof(n), &n, NULL));
  return n;
}

TEST(create_command_queue_1x)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_int err = 1;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(q != NULL);

  cl_context qctx = NULL;
  cl_device_id qdev = NULL;
  cl_command_queue_properties props = 99;
  size_t size = 0;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(qctx), &qctx, &size));
  ASSERT_EQ(size, sizeof(cl_context));
  ASSERT_TRUE(qctx == ctx);
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof(qdev), &qdev, &size));
  ASSERT_TRUE(qdev == dev);
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(props), &props, &size));
  ASSERT_EQ(size, sizeof(props));
  ASSERT_EQ(props, 0);
  ASSERT_EQ(queue_refcount(q), 1);
  /* Created with clCreateCommandQueue: no properties array. */
  size = 99;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size));
  ASSERT_EQ(size, 0);
  ASSERT_OK(clReleaseCommandQueue(q));

  q = clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, &err);
  ASSERT_OK(err);
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(props), &props, NULL));
  ASSERT_EQ(props, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  ASSERT_OK(clReleaseCommandQueue(q));

  /* errcode_ret may be NULL. */
  q = clCreateCommandQueue(ctx, dev, 0, NULL);
  ASSERT_TRUE(q != NULL);
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(create_command_queue_1x_errors)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_int err;
  ASSERT_TRUE(clCreateCommandQueue(NULL, dev, 0, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clCreateCommandQueue((cl_context)dev, dev, 0, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clCreateCommandQueue(ctx, NULL, 0, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);
  ASSERT_TRUE(clCreateCommandQueue(ctx, (cl_device_id)ctx, 0, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);
  ASSERT_TRUE(clCreateCommandQueue(ctx, dev, (cl_command_queue_properties)-1, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  /* CL_QUEUE_ON_DEVICE is not a property of clCreateCommandQueue. */
  ASSERT_TRUE(clCreateCommandQueue(ctx, dev, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err) ==
              NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(create_queue_not_in_context)
{
  /* A sub-device is a valid device that a root-device context lacks. */
  cl_device_id dev = tl_device();
  cl_uint cus = 0;
  ASSERT_OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cus), &cus, NULL));
  if (cus < 2)
    return;
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id sub[64];
  cl_uint n = 0;
  if (clCreateSubDevices(dev, props, 64, sub, &n) != CL_SUCCESS)
    return;
  cl_context ctx = tl_context();
  cl_int err;
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, sub[0], NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);
  ASSERT_TRUE(clCreateCommandQueue(ctx, sub[0], 0, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);
  ASSERT_OK(clReleaseContext(ctx));
  /* A context on the sub-device takes a queue on it. */
  ctx = clCreateContext(NULL, 1, &sub[0], NULL, NULL, &err);
  ASSERT_OK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, sub[0], NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clFinish(q));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
  for (cl_uint i = 0; i < n; i++)
    ASSERT_OK(clReleaseDevice(sub[i]));
}

TEST(create_queue_with_properties)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_int err;

  /* NULL properties: in-order, no properties array. */
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  ASSERT_OK(err);
  cl_command_queue_properties props = 99;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(props), &props, NULL));
  ASSERT_EQ(props, 0);
  size_t size = 99;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size));
  ASSERT_EQ(size, 0);
  ASSERT_OK(clReleaseCommandQueue(q));

  /* An empty list is returned as given: just the 0. */
  cl_queue_properties empty[] = {0};
  q = clCreateCommandQueueWithProperties(ctx, dev, empty, &err);
  ASSERT_OK(err);
  cl_queue_properties got[8];
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof(got), got, &size));
  ASSERT_EQ(size, sizeof(cl_queue_properties));
  ASSERT_EQ(got[0], 0);
  ASSERT_OK(clReleaseCommandQueue(q));

  cl_queue_properties list[] = {CL_QUEUE_PROPERTIES,
                                CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
  q = clCreateCommandQueueWithProperties(ctx, dev, list, &err);
  ASSERT_OK(err);
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(props), &props, NULL));
  ASSERT_EQ(props, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size));
  ASSERT_EQ(size, sizeof(list));
  memset(got, 0xff, sizeof(got));
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof(got), got, &size));
  ASSERT_EQ(got[0], CL_QUEUE_PROPERTIES);
  ASSERT_EQ(got[1], list[1]);
  ASSERT_EQ(got[2], 0);
  /* Too small a buffer. */
  ASSERT_CL(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof(cl_queue_properties), got, NULL),
            CL_INVALID_VALUE);
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(create_queue_with_properties_errors)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_int err;
  ASSERT_TRUE(clCreateCommandQueueWithProperties(NULL, dev, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);

  /* Not valid: unknown names, unknown bits, repeated names, device-queue
   * rules broken. */
  cl_queue_properties bad_name[] = {(cl_queue_properties)-1, (cl_queue_properties)-1, 0, 0, 0};
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, dev, bad_name, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_queue_properties bad_bits[] = {CL_QUEUE_PROPERTIES, 1u << 20, 0};
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, dev, bad_bits, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_queue_properties twice[] = {CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0};
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, dev, twice, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_queue_properties on_dev_in_order[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, dev, on_dev_in_order, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_queue_properties default_alone[] = {CL_QUEUE_PROPERTIES,
                                         CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, dev, default_alone, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  cl_queue_properties size_host[] = {CL_QUEUE_SIZE, 1024, 0};
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, dev, size_host, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);

  /* Valid but unsupported: device queues. */
  cl_queue_properties on_dev[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                  0};
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, dev, on_dev, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_QUEUE_PROPERTIES);
  cl_queue_properties on_dev_size[] = {CL_QUEUE_PROPERTIES,
                                       CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_SIZE,
                                       1024, 0};
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, dev, on_dev_size, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_QUEUE_PROPERTIES);
  cl_queue_properties on_dev_default[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
      0};
  ASSERT_TRUE(clCreateCommandQueueWithProperties(ctx, dev, on_dev_default, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_QUEUE_PROPERTIES);
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(queue_info_queries)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_uint u;
  /* A host queue is not valid for CL_QUEUE_SIZE. */
  ASSERT_CL(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof(u), &u, NULL), CL_INVALID_COMMAND_QUEUE);
  /* No device queues: no default one. */
  cl_command_queue dq = (cl_command_queue)1;
  size_t size = 0;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof(dq), &dq, &size));
  ASSERT_EQ(size, sizeof(dq));
  ASSERT_TRUE(dq == NULL);
  /* Size only. */
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, 0, NULL, &size));
  ASSERT_EQ(size, sizeof(cl_context));
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, 0, NULL, &size));
  ASSERT_EQ(size, sizeof(cl_uint));
  /* Too small, unknown param, bad queue. */
  cl_context c;
  ASSERT_CL(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(c) - 1, &c, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetCommandQueueInfo(q, 0x7777, sizeof(u), &u, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetCommandQueueInfo(NULL, CL_QUEUE_CONTEXT, sizeof(c), &c, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clGetCommandQueueInfo((cl_command_queue)ctx, CL_QUEUE_CONTEXT, sizeof(c), &c, NULL),
            CL_INVALID_COMMAND_QUEUE);
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(retain_release_queue)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  ASSERT_EQ(queue_refcount(q), 1);
  ASSERT_OK(clRetainCommandQueue(q));
  ASSERT_EQ(queue_refcount(q), 2);
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_EQ(queue_refcount(q), 1);
  ASSERT_CL(clRetainCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clRetainCommandQueue((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clReleaseCommandQueue((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(queue_retains_context)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  /* The application's last context reference goes; the queue still works. */
  ASSERT_OK(clReleaseContext(ctx));
  cl_context qctx;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(qctx), &qctx, NULL));
  ASSERT_TRUE(qctx == ctx);
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  ASSERT_OK(err);
  int v = 7, back = 0;
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof(v), &v, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(v), &back, 0, NULL, NULL));
  ASSERT_EQ(back, 7);
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
}

TEST(set_command_queue_property)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_command_queue_properties old = 0;
  ASSERT_CL(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old), CL_INVALID_OPERATION);
  ASSERT_CL(clSetCommandQueueProperty(NULL, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old), CL_INVALID_COMMAND_QUEUE);
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(set_default_device_command_queue)
{
  cl_context ctx = tl_context();
  cl_device_id dev = tl_device();
  cl_command_queue q = tl_queue(ctx, 0);
  ASSERT_CL(clSetDefaultDeviceCommandQueue(ctx, dev, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clSetDefaultDeviceCommandQueue(ctx, dev, q), CL_INVALID_OPERATION);
  ASSERT_CL(clSetDefaultDeviceCommandQueue(NULL, dev, q), CL_INVALID_CONTEXT);
  ASSERT_CL(clSetDefaultDeviceCommandQueue(ctx, NULL, q), CL_INVALID_DEVICE);
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(flush_finish)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  ASSERT_OK(clFlush(q));
  ASSERT_OK(clFinish(q)); /* an empty queue */
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
  ASSERT_OK(err);
  static unsigned char data[1 << 20], back[1 << 20];
  for (size_t i = 0; i < sizeof(data); i++)
    data[i] = (unsigned char)(i * 7);
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(data), data, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof(back), back, 0, NULL, NULL));
  ASSERT_OK(clFlush(q));
  ASSERT_OK(clFinish(q));
  ASSERT_TRUE(memcmp(data, back, sizeof(data)) == 0);
  ASSERT_CL(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clFlush((cl_command_queue)buf), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clFinish((cl_command_queue)buf), CL_INVALID_COMMAND_QUEUE);
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(finish_waits_for_out_of_order_commands)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err;
  enum { N = 64 };
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4096, NULL, &err);
  ASSERT_OK(err);
  static int src[N][1024], back[N][1024];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < 1024; j++)
      src[i][j] = i * 1000 + j;
  for (int i = 0; i < N; i++)
    ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, (size_t)i * 4096, 4096, src[i], 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  for (int i = 0; i < N; i++)
    ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_FALSE, (size_t)i * 4096, 4096, back[i], 0, NULL, NULL));
  ASSERT_OK(clFinish(q));
  ASSERT_TRUE(memcmp(src, back, sizeof(src)) == 0);
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(release_queue_with_pending_commands)
{
  /* The last release flushes; the queue lives until its commands are done. */
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  ASSERT_OK(err);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
  ASSERT_OK(err);
  static int v = 42; /* read by the command after this function's frame could change */
  static int back = 0;
  cl_event w, r;
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(v), &v, 1, &gate, &w));
  ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof(back), &back, 0, NULL, &r));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseMemObject(buf));
  usleep(10000);
  cl_int st;
  ASSERT_OK(clGetEventInfo(r, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL));
  ASSERT_TRUE(st > CL_COMPLETE);
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &r));
  ASSERT_EQ(back, 42);
  ASSERT_OK(clReleaseEvent(w));
  ASSERT_OK(clReleaseEvent(r));
  ASSERT_OK(clReleaseEvent(gate));
  ASSERT_OK(clReleaseContext(ctx));
}

static int ctx_destroyed;

static void CL_CALLBACK ctx_destructor(cl_context ctx, void *user_data)
{
  ctx_destroyed = 1;
}

TEST(released_idle_queue_lets_its_context_go_at_once)
{
  /* The last clReleaseCommandQueue of an idle queue drops its context
   * reference before it returns: the context's destructors run in the
   * application's clReleaseContext. */
  ctx_destroyed = 0;
  cl_context ctx = tl_context();
  ASSERT_OK(clSetContextDestructorCallback(ctx, ctx_destructor, NULL));
  cl_command_queue q = tl_queue(ctx, 0);
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  ASSERT_OK(err);
  int v = 1;
  ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(v), &v, 0, NULL, NULL)); /* starts its thread */
  ASSERT_OK(clFinish(q));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_EQ(ctx_destroyed, 0);
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_EQ(ctx_destroyed, 1);
}

TEST(many_queues)
{
  cl_context ctx = tl_context();
  enum { N = 32 };
  cl_command_queue qs[N];
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  ASSERT_OK(err);
  for (int i = 0; i < N; i++)
    qs[i] = tl_queue(ctx, i % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
  static int vals[N];
  for (int i = 0; i < N; i++) {
    vals[i] = i * 3;
    ASSERT_OK(clEnqueueWriteBuffer(qs[i], buf, CL_FALSE, i * sizeof(int), sizeof(int), &vals[i], 0, NULL, NULL));
  }
  for (int i = 0; i < N; i++)
    ASSERT_OK(clReleaseCommandQueue(qs[i])); /* implicit flush; commands still complete */
  cl_command_queue q = tl_queue(ctx, 0);
  /* The writes above run on other queues: wait until they are visible. */
  int back[N];
  for (int tries = 0;; tries++) {
    ASSERT_OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL));
    int ok = 1;
    for (int i = 0; i < N; i++)
      ok &= back[i] == i * 3;
    if (ok)
      break;
    ASSERT_TRUE(tries < 1000);
    usleep(1000);
  }
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(launch_overhead)
{
  /* The round trip of an empty command and clFinish: prints the figures,
   * fails only when something is badly off (a sleep in the path). */
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  ASSERT_OK(err);
  int v = 1;
  enum { N = 2000 };
  for (int i = 0; i < 100; i++) { /* warm up: the runtime thread starts */
    ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(v), &v, 0, NULL, NULL));
    ASSERT_OK(clFinish(q));
  }
  double t0 = now_us();
  for (int i = 0; i < N; i++) {
    ASSERT_OK(clEnqueueMarkerWithWaitList(q, 0, NULL, NULL));
    ASSERT_OK(clFinish(q));
  }
  double marker = (now_us() - t0) / N;
  t0 = now_us();
  for (int i = 0; i < N; i++) {
    ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(v), &v, 0, NULL, NULL));
    ASSERT_OK(clFinish(q));
  }
  double write_finish = (now_us() - t0) / N;
  t0 = now_us();
  for (int i = 0; i < N; i++)
    ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof(v), &v, 0, NULL, NULL));
  double blocking = (now_us() - t0) / N;
  t0 = now_us();
  for (int i = 0; i < N; i++) {
    cl_event e;
    ASSERT_OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(v), &v, 0, NULL, &e));
    ASSERT_OK(clWaitForEvents(1, &e));
    ASSERT_OK(clReleaseEvent(e));
  }
  double wait_event = (now_us() - t0) / N;
  printf("launch overhead (us): marker+finish %.2f, write+finish %.2f, blocking write %.2f, write+wait %.2f\n",
         marker, write_finish, blocking, wait_event);
  ASSERT_TRUE(marker < 200 && write_finish < 200 && blocking < 200 && wait_event < 200);
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

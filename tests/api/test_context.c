/* Context family through the ICD loader: clCreateContext,
 * clCreateContextFromType, clRetainContext, clReleaseContext,
 * clGetContextInfo, clSetContextDestructorCallback. */
#include <pthread.h>
#include <stdatomic.h>

#include "tests/testlib.h"

static cl_uint ctx_refcount(cl_context c)
{
  cl_uint refs = 0;
  size_t size = 0;
  ASSERT_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs), &refs, &size));
  ASSERT_EQ(size, sizeof(cl_uint));
  return refs;
}

static void CL_CALLBACK notify_fn(const char *errinfo, const void *private_info, size_t cb, void *user_data)
{
}

TEST(create_context_and_query)
{
  cl_device_id dev = tl_device();
  cl_int err = 1;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(ctx != NULL);
  ASSERT_EQ(ctx_refcount(ctx), 1);
  cl_uint ndev = 0;
  size_t size = 0;
  ASSERT_OK(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof(ndev), &ndev, &size));
  ASSERT_EQ(size, sizeof(cl_uint));
  ASSERT_EQ(ndev, 1);
  cl_device_id got = NULL;
  ASSERT_OK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(got), &got, &size));
  ASSERT_EQ(size, sizeof(cl_device_id));
  ASSERT_TRUE(got == dev);
  /* Created with NULL properties: nothing to return. */
  ASSERT_OK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, 0, NULL, &size));
  ASSERT_EQ(size, 0);
  ASSERT_OK(clReleaseContext(ctx));

  /* errcode_ret may be NULL; pfn_notify with user_data. */
  int data = 0;
  ctx = clCreateContext(NULL, 1, &dev, notify_fn, &data, NULL);
  ASSERT_TRUE(ctx != NULL);
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(create_context_with_properties)
{
  cl_device_id dev = tl_device();
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)tl_platform(),
                                   CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
  cl_int err;
  cl_context ctx = clCreateContext(props, 1, &dev, NULL, NULL, &err);
  ASSERT_OK(err);
  size_t size = 0;
  ASSERT_OK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, 0, NULL, &size));
  ASSERT_EQ(size, sizeof(props));
  cl_context_properties got[5];
  ASSERT_OK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof(got), got, NULL));
  for (int i = 0; i < 5; i++)
    ASSERT_EQ(got[i], props[i]);
  ASSERT_OK(clReleaseContext(ctx));

  cl_context_properties sync_off[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
  ctx = clCreateContext(sync_off, 1, &dev, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(create_context_errors)
{
  cl_device_id dev = tl_device();
  cl_int err;
  /* CL_INVALID_VALUE if devices is NULL. */
  ASSERT_TRUE(clCreateContext(NULL, 1, NULL, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  /* CL_INVALID_VALUE if num_devices is equal to zero. */
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateContext(NULL, 0, &dev, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  /* CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL. */
  int data;
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateContext(NULL, 1, &dev, NULL, &data, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  /* CL_INVALID_DEVICE if any device in devices is not a valid device: a
   * context handle; the same device twice (devices must be unique). */
  cl_context other = tl_context();
  cl_device_id bad[2] = {dev, (cl_device_id)other};
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateContext(NULL, 2, bad, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);
  cl_device_id twice[2] = {dev, dev};
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateContext(NULL, 2, twice, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE);
  ASSERT_OK(clReleaseContext(other));
  /* CL_INVALID_PROPERTY if a property name is not supported, a value is not
   * valid, or a name is given twice. */
  cl_context_properties unknown[] = {0x7777, 1, 0};
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateContext(unknown, 1, &dev, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROPERTY);
  cl_context_properties bad_sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, 5, 0};
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateContext(bad_sync, 1, &dev, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROPERTY);
  cl_context_properties sync_twice[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_INTEROP_USER_SYNC,
                                        CL_TRUE, 0};
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateContext(sync_twice, 1, &dev, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROPERTY);
  cl_context_properties plat_twice[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)tl_platform(),
                                        CL_CONTEXT_PLATFORM, (cl_context_properties)tl_platform(), 0};
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateContext(plat_twice, 1, &dev, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROPERTY);
  /* CL_INVALID_PLATFORM if the platform value in properties is not a valid
   * platform (the loader may answer this one itself). */
  cl_context_properties bad_plat[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev, 0};
  err = CL_SUCCESS;
  ASSERT_TRUE(clCreateContext(bad_plat, 1, &dev, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PLATFORM);
}

TEST(create_context_from_type)
{
  cl_device_type ok_types[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL};
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)tl_platform(), 0};
  for (size_t i = 0; i < sizeof(ok_types) / sizeof(ok_types[0]); i++) {
    cl_int err = 1;
    cl_context ctx = clCreateContextFromType(props, ok_types[i], NULL, NULL, &err);
    ASSERT_OK(err);
    cl_device_id got = NULL;
    ASSERT_OK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(got), &got, NULL));
    ASSERT_TRUE(got == tl_device());
    ASSERT_OK(clReleaseContext(ctx));
  }
  cl_int err;
  /* CL_DEVICE_NOT_FOUND if no devices that match device_type were found. */
  ASSERT_TRUE(clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_DEVICE_NOT_FOUND);
  ASSERT_TRUE(clCreateContextFromType(props, CL_DEVICE_TYPE_ACCELERATOR, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_DEVICE_NOT_FOUND);
  /* CL_INVALID_DEVICE_TYPE if device_type is not a valid value. */
  ASSERT_TRUE(clCreateContextFromType(props, (cl_device_type)1 << 30, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_DEVICE_TYPE);
  /* CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL. */
  int data;
  ASSERT_TRUE(clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, &data, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  /* CL_INVALID_PROPERTY: an unknown property name. */
  cl_context_properties bad[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)tl_platform(), 0x7777, 0, 0};
  ASSERT_TRUE(clCreateContextFromType(bad, CL_DEVICE_TYPE_CPU, NULL, NULL, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_PROPERTY);
}

TEST(retain_release_context)
{
  cl_context ctx = tl_context();
  ASSERT_OK(clRetainContext(ctx));
  ASSERT_EQ(ctx_refcount(ctx), 2);
  ASSERT_OK(clRetainContext(ctx));
  ASSERT_EQ(ctx_refcount(ctx), 3);
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_EQ(ctx_refcount(ctx), 1);
  ASSERT_OK(clReleaseContext(ctx));
  /* CL_INVALID_CONTEXT if context is not a valid OpenCL context. */
  ASSERT_CL(clRetainContext((cl_context)tl_device()), CL_INVALID_CONTEXT);
  ASSERT_CL(clReleaseContext((cl_context)tl_device()), CL_INVALID_CONTEXT);
  ASSERT_CL(clReleaseContext((cl_context)tl_platform()), CL_INVALID_CONTEXT);
}

TEST(context_info_errors)
{
  cl_context ctx = tl_context();
  cl_uint v;
  /* CL_INVALID_VALUE if param_name is not one of the supported values ... */
  ASSERT_CL(clGetContextInfo(ctx, 0x7777, sizeof(v), &v, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetContextInfo(ctx, CL_DEVICE_NAME, sizeof(v), &v, NULL), CL_INVALID_VALUE);
  /* ... or if param_value_size is < size of return type and param_value is not NULL. */
  ASSERT_CL(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof(v) - 1, &v, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, 0, &v, NULL), CL_INVALID_VALUE);
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  ASSERT_CL(clGetContextInfo((cl_context)tl_device(), CL_CONTEXT_NUM_DEVICES, sizeof(v), &v, NULL),
            CL_INVALID_CONTEXT);
  ASSERT_OK(clReleaseContext(ctx));
}

/* ---- destructor callbacks ---- */

static int calls[8];
static int ncalls;
static cl_context destroyed_ctx;

static void CL_CALLBACK record_destruction(cl_context ctx, void *user_data)
{
  destroyed_ctx = ctx;
  calls[ncalls++] = (int)(intptr_t)user_data;
}

TEST(context_destructor_callbacks_lifo_once)
{
  ncalls = 0;
  cl_context ctx = tl_context();
  ASSERT_OK(clSetContextDestructorCallback(ctx, record_destruction, (void *)1));
  ASSERT_OK(clSetContextDestructorCallback(ctx, record_destruction, (void *)2));
  ASSERT_OK(clSetContextDestructorCallback(ctx, record_destruction, (void *)3));
  ASSERT_OK(clRetainContext(ctx));
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_EQ(ncalls, 0);  /* not destroyed yet */
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_EQ(ncalls, 3);
  ASSERT_EQ(calls[0], 3);  /* in the reverse order of registration */
  ASSERT_EQ(calls[1], 2);
  ASSERT_EQ(calls[2], 1);
  ASSERT_TRUE(destroyed_ctx == ctx);
}

TEST(context_destructor_callback_errors)
{
  ncalls = 0;
  cl_context ctx = tl_context();
  /* CL_INVALID_VALUE if pfn_notify is NULL. */
  ASSERT_CL(clSetContextDestructorCallback(ctx, NULL, NULL), CL_INVALID_VALUE);
  /* CL_INVALID_CONTEXT if context is not a valid context. */
  ASSERT_CL(clSetContextDestructorCallback((cl_context)tl_device(), record_destruction, NULL), CL_INVALID_CONTEXT);
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_EQ(ncalls, 0);
}

/* ---- several host threads on one context ---- */

#define NTHREADS 8
#define NITER 2000

static atomic_int destructor_count;

static void CL_CALLBACK count_destruction(cl_context ctx, void *user_data)
{
  atomic_fetch_add(&destructor_count, 1);
}

static void *hammer(void *arg)
{
  cl_context ctx = arg;
  for (int i = 0; i < NITER; i++) {
    if (clRetainContext(ctx) != CL_SUCCESS)
      return (void *)1;
    cl_uint n;
    if (clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n, NULL) != CL_SUCCESS || n != 1)
      return (void *)1;
    if (i % 100 == 0 && clSetContextDestructorCallback(ctx, count_destruction, NULL) != CL_SUCCESS)
      return (void *)1;
    if (clReleaseContext(ctx) != CL_SUCCESS)
      return (void *)1;
  }
  return NULL;
}

TEST(context_threads)
{
  atomic_store(&destructor_count, 0);
  cl_context ctx = tl_context();
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    ASSERT_EQ(pthread_create(&t[i], NULL, hammer, ctx), 0);
  for (int i = 0; i < NTHREADS; i++) {
    void *r;
    ASSERT_EQ(pthread_join(t[i], &r), 0);
    ASSERT_TRUE(r == NULL);
  }
  ASSERT_EQ(ctx_refcount(ctx), 1);
  ASSERT_EQ(atomic_load(&destructor_count), 0);
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_EQ(atomic_load(&destructor_count), NTHREADS * (NITER / 100));
}

/* The image and sampler API's error paths, each with the exact code of the
 * OpenCL 3.0 spec: image creation (clCreateImage, WithProperties, the 1.x
 * 2D/3D calls, images made from buffers and images), the queries, every
 * image enqueue, samplers, and image and sampler kernel arguments. */
#include <stdint.h>

#include "tests/testlib.h"

static const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};

static cl_image_desc desc2d(size_t w, size_t h)
{
  cl_image_desc d = {0};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w;
  d.image_height = h;
  return d;
}

static cl_image_desc desc_t(cl_mem_object_type t, size_t w, size_t h, size_t d, size_t a)
{
  cl_image_desc x = {0};
  x.image_type = t;
  x.image_width = w;
  x.image_height = h;
  x.image_depth = d;
  x.image_array_size = a;
  return x;
}

/* clCreateImage must fail with want (and return NULL). */
#define CREATE_FAILS(ctx, flags, fmt, desc, host, want)                                      \
  do {                                                                                       \
    cl_int e_ = CL_SUCCESS;                                                                  \
    cl_mem m_ = clCreateImage((ctx), (flags), (fmt), (desc), (host), &e_);                   \
    ASSERT_TRUE(m_ == NULL);                                                                 \
    ASSERT_CL(e_, (want));                                                                   \
  } while (0)

static cl_mem image(cl_context ctx, cl_mem_flags flags, const cl_image_format *f, const cl_image_desc *d,
                    void *host)
{
  cl_int err;
  cl_mem m = clCreateImage(ctx, flags, f, d, host, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(m != NULL);
  return m;
}

static cl_mem buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host)
{
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
  ASSERT_OK(err);
  return m;
}

TEST(create_image_errors)
{
  cl_context ctx = tl_context();
  cl_image_desc d = desc2d(8, 4);
  unsigned char host[8 * 4 * 4 * 4 * 3];
  cl_int err;
  /* CL_INVALID_CONTEXT */
  CREATE_FAILS(NULL, 0, &rgba8, &d, NULL, CL_INVALID_CONTEXT);
  CREATE_FAILS((cl_context)tl_device(), 0, &rgba8, &d, NULL, CL_INVALID_CONTEXT);
  /* CL_INVALID_VALUE: flags */
  CREATE_FAILS(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &rgba8, &d, NULL, CL_INVALID_VALUE);
  CREATE_FAILS(ctx, CL_MEM_KERNEL_READ_AND_WRITE, &rgba8, &d, NULL, CL_INVALID_VALUE);
  CREATE_FAILS(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, CL_INVALID_VALUE);
  CREATE_FAILS(ctx, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, &rgba8, &d, NULL, CL_INVALID_VALUE);
  CREATE_FAILS(ctx, (cl_mem_flags)1 << 40, &rgba8, &d, NULL, CL_INVALID_VALUE);
  /* CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: NULL or not a valid format */
  CREATE_FAILS(ctx, 0, NULL, &d, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  static const cl_image_format bad[] = {
    {CL_RGB, CL_UNORM_INT8},    {0x1234, CL_FLOAT},       {CL_R, 0x9999},           {CL_BGRA, CL_FLOAT},
    {CL_INTENSITY, CL_SIGNED_INT8}, {CL_sRGBA, CL_UNORM_INT16}, {CL_DEPTH, CL_UNORM_INT8},
    {CL_RGBA, CL_UNORM_SHORT_565},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    CREATE_FAILS(ctx, 0, &bad[i], &d, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  /* CL_IMAGE_FORMAT_NOT_SUPPORTED: valid formats the device doesn't list
   * (for the type or the access) */
  static const cl_image_format unsupported[] = {{CL_A, CL_UNORM_INT8}, {CL_INTENSITY, CL_FLOAT},
                                                {CL_ARGB, CL_UNORM_INT8}, {CL_sRGBA, CL_UNORM_INT8}};
  for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
    CREATE_FAILS(ctx, CL_MEM_READ_WRITE, &unsupported[i], &d, NULL, CL_IMAGE_FORMAT_NOT_SUPPORTED);
  cl_image_format srgb = {CL_sRGBA, CL_UNORM_INT8};
  CREATE_FAILS(ctx, CL_MEM_WRITE_ONLY, &srgb, &d, NULL, CL_IMAGE_FORMAT_NOT_SUPPORTED);
  CREATE_FAILS(ctx, 0, &srgb, &d, NULL, CL_IMAGE_FORMAT_NOT_SUPPORTED); /* 0 is CL_MEM_READ_WRITE */
  ASSERT_OK(clReleaseMemObject(image(ctx, CL_MEM_READ_ONLY, &srgb, &d, NULL)));
  cl_image_format depth = {CL_DEPTH, CL_FLOAT};
  cl_image_desc d3 = desc_t(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, 0);
  CREATE_FAILS(ctx, 0, &depth, &d3, NULL, CL_IMAGE_FORMAT_NOT_SUPPORTED);
  cl_image_desc d1 = desc_t(CL_MEM_OBJECT_IMAGE1D, 4, 0, 0, 0);
  CREATE_FAILS(ctx, 0, &depth, &d1, NULL, CL_IMAGE_FORMAT_NOT_SUPPORTED);
  ASSERT_OK(clReleaseMemObject(image(ctx, 0, &depth, &d, NULL)));
  /* CL_INVALID_IMAGE_DESCRIPTOR: NULL, type, mip levels, samples, mem_object */
  CREATE_FAILS(ctx, 0, &rgba8, NULL, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc x = d;
  x.image_type = CL_MEM_OBJECT_BUFFER;
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  x.image_type = CL_MEM_OBJECT_PIPE;
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  x = d;
  x.num_mip_levels = 1;
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  x = d;
  x.num_samples = 2;
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  cl_mem buf = buffer(ctx, 0, 4096, NULL);
  x = d3;
  x.mem_object = buf; /* a 3D image can't be made from a buffer */
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  x = desc_t(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0); /* without a buffer */
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  x.mem_object = (cl_mem)ctx;
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  /* CL_INVALID_IMAGE_SIZE: 0 or above the limits */
  x = desc2d(0, 4);
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_SIZE);
  x = desc2d(4, 0);
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_SIZE);
  size_t max2d = 0, max3d = 0, maxarr = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(size_t), &max2d, NULL));
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof(size_t), &max3d, NULL));
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof(size_t), &maxarr, NULL));
  x = desc2d(max2d + 1, 1);
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_SIZE);
  x = desc2d(1, max2d + 1);
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_SIZE);
  x = desc_t(CL_MEM_OBJECT_IMAGE3D, 1, 1, max3d + 1, 0);
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_SIZE);
  x = desc_t(CL_MEM_OBJECT_IMAGE3D, 4, 4, 0, 0);
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_SIZE);
  x = desc_t(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 0);
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_SIZE);
  x = desc_t(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, maxarr + 1);
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_SIZE);
  x = desc_t(CL_MEM_OBJECT_IMAGE1D, max2d + 1, 0, 0, 0);
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_SIZE);
  /* Unused dimensions are ignored: a 2D image's depth and array size. */
  x = desc_t(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  ASSERT_OK(clReleaseMemObject(image(ctx, 0, &rgba8, &x, NULL)));
  x = desc_t(CL_MEM_OBJECT_IMAGE2D, 4, 4, 7, 9);
  ASSERT_OK(clReleaseMemObject(image(ctx, 0, &rgba8, &x, NULL)));
  /* Pitches (CL_INVALID_IMAGE_DESCRIPTOR): not 0 without host_ptr, below
   * the row, not a multiple of the element; slices below the rows or not a
   * multiple of the row pitch. */
  x = d;
  x.image_row_pitch = 64;
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  x.image_row_pitch = 28;
  CREATE_FAILS(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &x, host, CL_INVALID_IMAGE_DESCRIPTOR);
  x.image_row_pitch = 34;
  CREATE_FAILS(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &x, host, CL_INVALID_IMAGE_DESCRIPTOR);
  x.image_row_pitch = 36;
  ASSERT_OK(clReleaseMemObject(image(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &x, host)));
  x = desc_t(CL_MEM_OBJECT_IMAGE3D, 8, 4, 3, 0);
  x.image_slice_pitch = 256;
  CREATE_FAILS(ctx, 0, &rgba8, &x, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  x.image_slice_pitch = 96; /* < 32 x 4 */
  CREATE_FAILS(ctx, CL_MEM_USE_HOST_PTR, &rgba8, &x, host, CL_INVALID_IMAGE_DESCRIPTOR);
  x.image_slice_pitch = 144; /* not a multiple of 32 */
  CREATE_FAILS(ctx, CL_MEM_USE_HOST_PTR, &rgba8, &x, host, CL_INVALID_IMAGE_DESCRIPTOR);
  x.image_slice_pitch = 160;
  ASSERT_OK(clReleaseMemObject(image(ctx, CL_MEM_USE_HOST_PTR, &rgba8, &x, host)));
  x = desc_t(CL_MEM_OBJECT_IMAGE1D_ARRAY, 8, 0, 0, 3);
  x.image_slice_pitch = 16; /* < the row */
  CREATE_FAILS(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &x, host, CL_INVALID_IMAGE_DESCRIPTOR);
  /* CL_INVALID_HOST_PTR */
  CREATE_FAILS(ctx, CL_MEM_USE_HOST_PTR, &rgba8, &d, NULL, CL_INVALID_HOST_PTR);
  CREATE_FAILS(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &d, NULL, CL_INVALID_HOST_PTR);
  CREATE_FAILS(ctx, 0, &rgba8, &d, host, CL_INVALID_HOST_PTR);
  CREATE_FAILS(ctx, CL_MEM_ALLOC_HOST_PTR, &rgba8, &d, host, CL_INVALID_HOST_PTR);
  ASSERT_OK(clReleaseMemObject(image(ctx, CL_MEM_ALLOC_HOST_PTR, &rgba8, &d, NULL)));

  /* clCreateImageWithProperties: no property is supported; an empty list
   * is kept (CL_MEM_PROPERTIES). */
  cl_mem_properties props[] = {0x4242, 1, 0};
  cl_mem m = clCreateImageWithProperties(ctx, props, 0, &rgba8, &d, NULL, &err);
  ASSERT_TRUE(m == NULL);
  ASSERT_CL(err, CL_INVALID_PROPERTY);
  cl_mem_properties empty[] = {0};
  m = clCreateImageWithProperties(ctx, empty, 0, &rgba8, &d, NULL, &err);
  ASSERT_OK(err);
  size_t sz = 99;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &sz));
  ASSERT_EQ(sz, sizeof(cl_mem_properties));
  ASSERT_OK(clReleaseMemObject(m));
  m = clCreateImageWithProperties(ctx, NULL, 0, &rgba8, &d, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &sz));
  ASSERT_EQ(sz, 0);
  ASSERT_OK(clReleaseMemObject(m));
  m = clCreateImageWithProperties(NULL, NULL, 0, &rgba8, &d, NULL, &err);
  ASSERT_CL(err, CL_INVALID_CONTEXT);

  /* The 1.x calls: pitch errors are CL_INVALID_IMAGE_SIZE; a 3D image has
   * a depth above 1. */
  m = clCreateImage2D(ctx, 0, &rgba8, 8, 4, 64, NULL, &err);
  ASSERT_TRUE(m == NULL);
  ASSERT_CL(err, CL_INVALID_IMAGE_SIZE);
  m = clCreateImage2D(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, 8, 4, 20, host, &err);
  ASSERT_CL(err, CL_INVALID_IMAGE_SIZE);
  m = clCreateImage2D(ctx, 0, NULL, 8, 4, 0, NULL, &err);
  ASSERT_CL(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  m = clCreateImage2D(ctx, 0, &rgba8, 0, 4, 0, NULL, &err);
  ASSERT_CL(err, CL_INVALID_IMAGE_SIZE);
  m = clCreateImage2D(ctx, 0, &rgba8, 8, 4, 0, NULL, &err);
  ASSERT_OK(err);
  cl_mem_object_type mt;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof(mt), &mt, NULL));
  ASSERT_EQ(mt, CL_MEM_OBJECT_IMAGE2D);
  ASSERT_OK(clReleaseMemObject(m));
  m = clCreateImage3D(ctx, 0, &rgba8, 8, 4, 1, 0, 0, NULL, &err);
  ASSERT_TRUE(m == NULL);
  ASSERT_CL(err, CL_INVALID_IMAGE_SIZE);
  m = clCreateImage3D(ctx, 0, &rgba8, 8, 4, 2, 0, 64, NULL, &err);
  ASSERT_CL(err, CL_INVALID_IMAGE_SIZE);
  m = clCreateImage3D(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, 8, 4, 2, 32, 160, host, &err);
  ASSERT_OK(err);
  ASSERT_EQ(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof(mt), &mt, NULL), CL_SUCCESS);
  ASSERT_EQ(mt, CL_MEM_OBJECT_IMAGE3D);
  ASSERT_OK(clReleaseMemObject(m));
  m = clCreateImage3D(NULL, 0, &rgba8, 8, 4, 2, 0, 0, NULL, &err);
  ASSERT_CL(err, CL_INVALID_CONTEXT);

  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(images_from_buffers)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  unsigned char data[64 * 4];
  for (int i = 0; i < 256; i++)
    data[i] = (unsigned char)i;
  cl_mem ro = buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_READ_ONLY, sizeof(data), data);
  cl_image_desc d = desc_t(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 0, 0, 0);
  d.buffer = ro;
  /* CL_INVALID_VALUE: wider kernel or host access than the buffer's, or a
   * host pointer flag. */
  CREATE_FAILS(ctx, CL_MEM_WRITE_ONLY, &rgba8, &d, NULL, CL_INVALID_VALUE);
  CREATE_FAILS(ctx, CL_MEM_READ_WRITE, &rgba8, &d, NULL, CL_INVALID_VALUE);
  CREATE_FAILS(ctx, CL_MEM_HOST_WRITE_ONLY, &rgba8, &d, NULL, CL_INVALID_VALUE);
  CREATE_FAILS(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &d, data, CL_INVALID_VALUE);
  CREATE_FAILS(ctx, CL_MEM_ALLOC_HOST_PTR, &rgba8, &d, NULL, CL_INVALID_VALUE);
  /* CL_INVALID_HOST_PTR: no host_ptr for an image made from a buffer. */
  CREATE_FAILS(ctx, 0, &rgba8, &d, data, CL_INVALID_HOST_PTR);
  /* CL_INVALID_IMAGE_SIZE: more pixels than the buffer holds. */
  d.image_width = 65;
  CREATE_FAILS(ctx, 0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
  d.image_width = 64;
  cl_mem img = image(ctx, 0, &rgba8, &d, NULL);
  /* The flags are inherited, the pixels are the buffer's. */
  cl_mem_flags fl = 0;
  ASSERT_OK(clGetMemObjectInfo(img, CL_MEM_FLAGS, sizeof(fl), &fl, NULL));
  ASSERT_TRUE((fl & CL_MEM_READ_ONLY) && (fl & CL_MEM_COPY_HOST_PTR) && (fl & CL_MEM_HOST_READ_ONLY));
  unsigned char got[256];
  size_t o[3] = {0, 0, 0}, r[3] = {64, 1, 1};
  ASSERT_OK(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
  ASSERT_TRUE(!memcmp(got, data, sizeof(data)));
  /* CL_MEM_HOST_READ_ONLY inherited: no host writes. */
  ASSERT_CL(clEnqueueWriteImage(q, img, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL), CL_INVALID_OPERATION);
  /* The buffer outlives its release while the image uses it. */
  ASSERT_OK(clReleaseMemObject(ro));
  ASSERT_OK(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
  ASSERT_TRUE(!memcmp(got, data, sizeof(data)));
  ASSERT_OK(clReleaseMemObject(img));

  /* cl_khr_image2d_from_buffer: a 2D image with a row pitch over a buffer;
   * writes through the image are the buffer's bytes. */
  cl_mem rw = buffer(ctx, 0, 4096, NULL);
  d = desc2d(5, 6);
  d.buffer = rw;
  d.image_row_pitch = 6 * 4;
  img = image(ctx, 0, &rgba8, &d, NULL);
  size_t v = 0;
  ASSERT_OK(clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof(v), &v, NULL));
  ASSERT_EQ(v, 24);
  cl_mem assoc = NULL;
  ASSERT_OK(clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof(assoc), &assoc, NULL));
  ASSERT_TRUE(assoc == rw);
  ASSERT_OK(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL));
  ASSERT_TRUE(assoc == rw);
  size_t r2[3] = {5, 6, 1};
  ASSERT_OK(clEnqueueWriteImage(q, img, CL_TRUE, o, r2, 0, 0, data, 0, NULL, NULL));
  unsigned char all[6 * 24];
  ASSERT_OK(clEnqueueReadBuffer(q, rw, CL_TRUE, 0, sizeof(all), all, 0, NULL, NULL));
  for (int y = 0; y < 6; y++)
    ASSERT_TRUE(!memcmp(all + y * 24, data + y * 20, 20));
  ASSERT_OK(clReleaseMemObject(img));
  /* Row pitch not a multiple of the element size; a row pitch too small;
   * a buffer too small. */
  d.image_row_pitch = 22;
  CREATE_FAILS(ctx, 0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_row_pitch = 16;
  CREATE_FAILS(ctx, 0, &rgba8, &d, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  d = desc2d(64, 17);
  d.buffer = rw;
  CREATE_FAILS(ctx, 0, &rgba8, &d, NULL, CL_INVALID_IMAGE_SIZE);
  /* A sub-buffer of a buffer can't be made from an image, nor can a buffer
   * entry point take one. */
  d = desc2d(4, 4);
  img = image(ctx, 0, &rgba8, &d, NULL);
  cl_buffer_region reg = {0, 16};
  cl_int err;
  ASSERT_TRUE(clCreateSubBuffer(img, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueReadBuffer(q, img, CL_TRUE, 0, 16, got, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyBuffer(q, rw, img, 0, 0, 16, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_OK(clEnqueueMigrateMemObjects(q, 1, &img, 0, 0, NULL, NULL));
  ASSERT_OK(clReleaseMemObject(img));
  ASSERT_OK(clReleaseMemObject(rw));
  ASSERT_OK(clFinish(q));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(images_from_images)
{
  cl_context ctx = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_image_desc d = desc2d(4, 3);
  cl_mem rgba = image(ctx, CL_MEM_READ_ONLY, &rgba8, &d, NULL);
  /* An sRGB view of a linear image: the same pixels. */
  cl_image_format srgb = {CL_sRGBA, CL_UNORM_INT8};
  cl_image_desc v = d;
  v.mem_object = rgba;
  cl_mem view = image(ctx, 0, &srgb, &v, NULL);
  unsigned char px[48], got[48];
  for (int i = 0; i < 48; i++)
    px[i] = (unsigned char)(3 * i + 1);
  size_t o[3] = {0, 0, 0}, r[3] = {4, 3, 1};
  ASSERT_OK(clEnqueueWriteImage(q, rgba, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
  ASSERT_OK(clEnqueueReadImage(q, view, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
  ASSERT_TRUE(!memcmp(got, px, sizeof(px)));
  cl_mem assoc = NULL;
  ASSERT_OK(clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL));
  ASSERT_TRUE(assoc == rgba);
  ASSERT_OK(clGetImageInfo(view, CL_IMAGE_BUFFER, sizeof(assoc), &assoc, NULL));
  ASSERT_TRUE(assoc == NULL);
  cl_mem_flags fl = 0;
  ASSERT_OK(clGetMemObjectInfo(view, CL_MEM_FLAGS, sizeof(fl), &fl, NULL));
  ASSERT_TRUE(fl & CL_MEM_READ_ONLY);
  /* Same pixels: copying between the two overlapping boxes is refused. */
  size_t o2[3] = {1, 1, 0}, r2[3] = {2, 2, 1};
  ASSERT_CL(clEnqueueCopyImage(q, rgba, view, o, o2, r2, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
  /* Not a compatible order, another data type (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
   * other dimensions (CL_INVALID_IMAGE_DESCRIPTOR). */
  cl_image_format bgra = {CL_BGRA, CL_UNORM_INT8}, rgba16 = {CL_RGBA, CL_UNORM_INT16};
  CREATE_FAILS(ctx, 0, &bgra, &v, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  CREATE_FAILS(ctx, 0, &rgba16, &v, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_image_desc w = v;
  w.image_width = 5;
  CREATE_FAILS(ctx, 0, &srgb, &w, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  /* Wider access than the image's. */
  CREATE_FAILS(ctx, CL_MEM_READ_WRITE, &srgb, &v, NULL, CL_INVALID_VALUE);
  /* A 3D image or an array can't be a view's source. */
  cl_image_desc d3 = desc_t(CL_MEM_OBJECT_IMAGE3D, 4, 3, 2, 0);
  cl_mem vol = image(ctx, 0, &rgba8, &d3, NULL);
  v.mem_object = vol;
  CREATE_FAILS(ctx, 0, &rgba8, &v, NULL, CL_INVALID_IMAGE_DESCRIPTOR);
  /* A depth view of an R image, not the reverse. */
  cl_image_format r16 = {CL_R, CL_UNORM_INT16}, depth16 = {CL_DEPTH, CL_UNORM_INT16};
  cl_mem red = image(ctx, 0, &r16, &d, NULL);
  v.mem_object = red;
  cl_mem dv = image(ctx, 0, &depth16, &v, NULL);
  cl_mem dimg = image(ctx, 0, &depth16, &d, NULL);
  v.mem_object = dimg;
  CREATE_FAILS(ctx, 0, &r16, &v, NULL, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  /* The view keeps its image alive. */
  ASSERT_OK(clReleaseMemObject(rgba));
  ASSERT_OK(clEnqueueReadImage(q, view, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
  ASSERT_TRUE(!memcmp(got, px, sizeof(px)));
  for (cl_mem *p = (cl_mem[]){view, vol, red, dv, dimg}, *end = p + 5; p < end; p++)
    ASSERT_OK(clReleaseMemObject(*p));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(query_errors)
{
  cl_context ctx = tl_context();
  cl_mem buf = buffer(ctx, 0, 64, NULL);
  size_t v;
  ASSERT_CL(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof(v), &v, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof(v), &v, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clGetImageInfo((cl_mem)ctx, CL_IMAGE_WIDTH, sizeof(v), &v, NULL), CL_INVALID_MEM_OBJECT);
  cl_image_desc d = desc2d(4, 4);
  cl_mem img = image(ctx, 0, &rgba8, &d, NULL);
  ASSERT_CL(clGetImageInfo(img, CL_MEM_SIZE, sizeof(v), &v, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof(cl_image_format) - 1, &v, NULL), CL_INVALID_VALUE);
  ASSERT_OK(clGetMemObjectInfo(img, CL_MEM_SIZE, sizeof(v), &v, NULL));
  ASSERT_TRUE(v >= 4 * 4 * 4);
  cl_mem_object_type t = 0;
  ASSERT_OK(clGetMemObjectInfo(buf, CL_MEM_TYPE, sizeof(t), &t, NULL));
  ASSERT_EQ(t, CL_MEM_OBJECT_BUFFER);
  /* clGetSupportedImageFormats */
  cl_uint n;
  cl_image_format out[4];
  ASSERT_CL(clGetSupportedImageFormats(NULL, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
            CL_INVALID_CONTEXT);
  ASSERT_CL(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 0, NULL, &n), CL_INVALID_VALUE);
  ASSERT_CL(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL,
                                       &n),
            CL_INVALID_VALUE);
  ASSERT_CL(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, out, &n), CL_INVALID_VALUE);
  ASSERT_OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, NULL));
  ASSERT_OK(clReleaseMemObject(img));
  ASSERT_OK(clReleaseMemObject(buf));
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(enqueue_errors)
{
  cl_context ctx = tl_context(), ctx2 = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_image_desc d = desc2d(8, 4), d3 = desc_t(CL_MEM_OBJECT_IMAGE3D, 8, 4, 2, 0),
                d1 = desc_t(CL_MEM_OBJECT_IMAGE1D, 8, 0, 0, 0), da = desc_t(CL_MEM_OBJECT_IMAGE1D_ARRAY, 8, 0, 0, 3);
  cl_mem img = image(ctx, 0, &rgba8, &d, NULL), vol = image(ctx, 0, &rgba8, &d3, NULL);
  cl_mem line = image(ctx, 0, &rgba8, &d1, NULL), arr = image(ctx, 0, &rgba8, &da, NULL);
  cl_mem other = image(ctx2, 0, &rgba8, &d, NULL);
  cl_mem buf = buffer(ctx, 0, 1024, NULL);
  unsigned char p[1024];
  size_t o[3] = {0, 0, 0}, r[3] = {8, 4, 1};
  cl_event bad_ev = (cl_event)ctx;
  /* Read and write. */
  cl_int (*const rw[2])(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, size_t, size_t, void *,
                        cl_uint, const cl_event *, cl_event *) = {clEnqueueReadImage,
                                                                 (void *)clEnqueueWriteImage};
  for (int w = 0; w < 2; w++) {
    ASSERT_CL(rw[w](NULL, img, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    ASSERT_CL(rw[w](q, buf, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    ASSERT_CL(rw[w](q, NULL, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    ASSERT_CL(rw[w](q, other, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL), CL_INVALID_CONTEXT);
    ASSERT_CL(rw[w](q, img, CL_TRUE, NULL, r, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, img, CL_TRUE, o, NULL, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    size_t zero[3] = {8, 0, 1}, big[3] = {9, 4, 1}, o1[3] = {1, 0, 0}, oz[3] = {0, 0, 1}, r2[3] = {8, 4, 2};
    ASSERT_CL(rw[w](q, img, CL_TRUE, o, zero, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, img, CL_TRUE, o, big, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, img, CL_TRUE, o1, r, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    /* A 2D image: origin[2] 0, region[2] 1; a 1D image: region[1] 1. */
    size_t r1[3] = {1, 1, 1};
    ASSERT_CL(rw[w](q, img, CL_TRUE, oz, r1, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, img, CL_TRUE, o, r2, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    size_t r12[3] = {8, 2, 1}, o10[3] = {0, 1, 0};
    ASSERT_CL(rw[w](q, line, CL_TRUE, o, r12, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, line, CL_TRUE, o10, r1, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    /* A 1D array: layers in origin[1] / region[1]; origin[2] 0. */
    size_t ra[3] = {8, 3, 1}, ra4[3] = {8, 4, 1};
    ASSERT_OK(rw[w](q, arr, CL_TRUE, o, ra, 0, 0, p, 0, NULL, NULL));
    ASSERT_CL(rw[w](q, arr, CL_TRUE, o, ra4, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, arr, CL_TRUE, oz, r1, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, arr, CL_TRUE, o, ra, 32, 16, p, 0, NULL, NULL), CL_INVALID_VALUE); /* slice < row */
    /* Pitches: row below the region's bytes; a slice pitch for a 2D image;
     * a slice below row x height for a 3D image. */
    ASSERT_CL(rw[w](q, img, CL_TRUE, o, r, 31, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, img, CL_TRUE, o, r, 0, 128, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, line, CL_TRUE, o, r1, 0, 4, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, vol, CL_TRUE, o, r2, 32, 64, p, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_OK(rw[w](q, vol, CL_TRUE, o, r2, 32, 128, p, 0, NULL, NULL));
    ASSERT_CL(rw[w](q, img, CL_TRUE, o, r, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    ASSERT_CL(rw[w](q, img, CL_TRUE, o, r, 0, 0, p, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    ASSERT_CL(rw[w](q, img, CL_TRUE, o, r, 0, 0, p, 1, &bad_ev, NULL), CL_INVALID_EVENT_WAIT_LIST);
  }
  /* Host access flags (CL_INVALID_OPERATION). */
  cl_mem wonly = image(ctx, CL_MEM_HOST_WRITE_ONLY, &rgba8, &d, NULL);
  cl_mem ronly = image(ctx, CL_MEM_HOST_READ_ONLY, &rgba8, &d, NULL);
  cl_mem none = image(ctx, CL_MEM_HOST_NO_ACCESS, &rgba8, &d, NULL);
  ASSERT_CL(clEnqueueReadImage(q, wonly, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_OK(clEnqueueWriteImage(q, wonly, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL));
  ASSERT_CL(clEnqueueWriteImage(q, ronly, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_OK(clEnqueueReadImage(q, ronly, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL));
  ASSERT_CL(clEnqueueReadImage(q, none, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL), CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueWriteImage(q, none, CL_TRUE, o, r, 0, 0, p, 0, NULL, NULL), CL_INVALID_OPERATION);
  /* The events say what the commands were. */
  cl_event ev;
  cl_command_type ct;
  ASSERT_OK(clEnqueueReadImage(q, img, CL_FALSE, o, r, 0, 0, p, 0, NULL, &ev));
  ASSERT_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(ct), &ct, NULL));
  ASSERT_EQ(ct, CL_COMMAND_READ_IMAGE);
  ASSERT_OK(clWaitForEvents(1, &ev));
  ASSERT_OK(clReleaseEvent(ev));

  /* Copy. */
  cl_image_format bgra = {CL_BGRA, CL_UNORM_INT8};
  cl_mem img_bgra = image(ctx, 0, &bgra, &d, NULL);
  size_t r11[3] = {1, 1, 1};
  ASSERT_CL(clEnqueueCopyImage(NULL, img, img, o, o, r11, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueCopyImage(q, buf, img, o, o, r11, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyImage(q, img, buf, o, o, r11, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyImage(q, img, other, o, o, r11, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueCopyImage(q, img, img_bgra, o, o, r11, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
  ASSERT_CL(clEnqueueCopyImage(q, img, vol, NULL, o, r11, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyImage(q, img, vol, o, NULL, r11, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyImage(q, img, vol, o, o, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t r8[3] = {8, 4, 2};
  ASSERT_CL(clEnqueueCopyImage(q, img, vol, o, o, r8, 0, NULL, NULL), CL_INVALID_VALUE); /* 2D: region[2] 1 */
  size_t o71[3] = {7, 1, 1};
  ASSERT_CL(clEnqueueCopyImage(q, img, vol, o, o71, r, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_OK(clEnqueueCopyImage(q, img, vol, o, o, r, 0, NULL, NULL)); /* 2D into a 3D slice */
  ASSERT_CL(clEnqueueCopyImage(q, img, vol, o, o, r, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  ASSERT_CL(clEnqueueCopyImage(q, img, img, o, o, r11, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  /* Fill. */
  float color[4] = {0};
  ASSERT_CL(clEnqueueFillImage(NULL, img, color, o, r, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueFillImage(q, buf, color, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueFillImage(q, other, color, o, r, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueFillImage(q, img, NULL, o, r, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueFillImage(q, img, color, NULL, r, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueFillImage(q, img, color, o, r8, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueFillImage(q, img, color, o, r, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  /* Image <-> buffer. */
  ASSERT_CL(clEnqueueCopyImageToBuffer(NULL, img, buf, o, r, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueCopyImageToBuffer(q, buf, buf, o, r, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyImageToBuffer(q, img, img, o, r, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyImageToBuffer(q, other, buf, o, r, 0, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueCopyImageToBuffer(q, img, buf, o, r, 1024 - 127, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_OK(clEnqueueCopyImageToBuffer(q, img, buf, o, r, 1024 - 128, 0, NULL, NULL));
  ASSERT_CL(clEnqueueCopyImageToBuffer(q, img, buf, o, r8, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyImageToBuffer(q, img, buf, NULL, r, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyImageToBuffer(q, img, buf, o, r, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  ASSERT_CL(clEnqueueCopyBufferToImage(NULL, buf, img, 0, o, r, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  ASSERT_CL(clEnqueueCopyBufferToImage(q, img, img, 0, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyBufferToImage(q, buf, buf, 0, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clEnqueueCopyBufferToImage(q, buf, other, 0, o, r, 0, NULL, NULL), CL_INVALID_CONTEXT);
  ASSERT_CL(clEnqueueCopyBufferToImage(q, buf, img, 1024 - 127, o, r, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueCopyBufferToImage(q, buf, img, 0, o, r8, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_OK(clEnqueueCopyBufferToImage(q, buf, img, 1024 - 128, o, r, 0, NULL, NULL));
  /* Map. */
  size_t rp, sp;
  cl_int err;
#define MAP_FAILS(queue, im, flags, org, reg, rpp, spp, want)                                             \
  do {                                                                                                    \
    err = CL_SUCCESS;                                                                                     \
    ASSERT_TRUE(clEnqueueMapImage((queue), (im), CL_TRUE, (flags), (org), (reg), (rpp), (spp), 0, NULL, NULL, \
                                  &err) == NULL);                                                        \
    ASSERT_CL(err, (want));                                                                               \
  } while (0)
  MAP_FAILS(NULL, img, CL_MAP_READ, o, r, &rp, &sp, CL_INVALID_COMMAND_QUEUE);
  MAP_FAILS(q, buf, CL_MAP_READ, o, r, &rp, &sp, CL_INVALID_MEM_OBJECT);
  MAP_FAILS(q, other, CL_MAP_READ, o, r, &rp, &sp, CL_INVALID_CONTEXT);
  MAP_FAILS(q, img, CL_MAP_READ, NULL, r, &rp, &sp, CL_INVALID_VALUE);
  MAP_FAILS(q, img, CL_MAP_READ, o, r8, &rp, &sp, CL_INVALID_VALUE);
  MAP_FAILS(q, img, CL_MAP_READ, o, r, NULL, &sp, CL_INVALID_VALUE);
  MAP_FAILS(q, vol, CL_MAP_READ, o, r, &rp, NULL, CL_INVALID_VALUE);
  MAP_FAILS(q, arr, CL_MAP_READ, o, r11, &rp, NULL, CL_INVALID_VALUE);
  MAP_FAILS(q, img, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, o, r, &rp, &sp, CL_INVALID_VALUE);
  MAP_FAILS(q, img, (cl_map_flags)1 << 10, o, r, &rp, &sp, CL_INVALID_VALUE);
  MAP_FAILS(q, wonly, CL_MAP_READ, o, r, &rp, &sp, CL_INVALID_OPERATION);
  MAP_FAILS(q, ronly, CL_MAP_WRITE, o, r, &rp, &sp, CL_INVALID_OPERATION);
  MAP_FAILS(q, none, CL_MAP_WRITE_INVALIDATE_REGION, o, r, &rp, &sp, CL_INVALID_OPERATION);
  /* Overlapping regions mapped for writing. */
  void *m1 = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_WRITE, o, r11, &rp, &sp, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  MAP_FAILS(q, img, CL_MAP_READ, o, r, &rp, &sp, CL_INVALID_OPERATION);
  ASSERT_CL(clEnqueueUnmapMemObject(q, img, (char *)m1 + 1, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clEnqueueUnmapMemObject(q, vol, m1, 0, NULL, NULL), CL_INVALID_VALUE);
  ASSERT_OK(clEnqueueUnmapMemObject(q, img, m1, 0, NULL, NULL));
  /* Boxes mapped for writing conflict only where they intersect: the left
   * and right halves of a 2D image (whose byte spans interleave) both map;
   * a box across both does not. */
  size_t left_o[3] = {0, 0, 0}, right_o[3] = {4, 0, 0}, half[3] = {4, 4, 1}, mid_o[3] = {3, 2, 0}, mid[3] = {2, 1, 1};
  void *ml = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_WRITE, left_o, half, &rp, &sp, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  void *mr = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_WRITE, right_o, half, &rp, &sp, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  MAP_FAILS(q, img, CL_MAP_READ, mid_o, mid, &rp, &sp, CL_INVALID_OPERATION);
  ASSERT_OK(clEnqueueUnmapMemObject(q, img, ml, 0, NULL, NULL));
  ASSERT_OK(clEnqueueUnmapMemObject(q, img, mr, 0, NULL, NULL));
  /* Reading maps may overlap. */
  void *m2 = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ, o, r, &rp, &sp, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  void *m3 = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ, o, r11, &rp, &sp, 0, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_OK(clEnqueueUnmapMemObject(q, img, m2, 0, NULL, NULL));
  ASSERT_OK(clEnqueueUnmapMemObject(q, img, m3, 0, NULL, NULL));
  ASSERT_OK(clFinish(q));

  for (cl_mem *pm = (cl_mem[]){img, vol, line, arr, other, buf, wonly, ronly, none, img_bgra}, *end = pm + 10;
       pm < end; pm++)
    ASSERT_OK(clReleaseMemObject(*pm));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_OK(clReleaseContext(ctx2));
}

/* ---- samplers ---- */

static cl_uint sampler_uint(cl_sampler s, cl_sampler_info p)
{
  cl_uint v = 12345;
  ASSERT_OK(clGetSamplerInfo(s, p, sizeof(v), &v, NULL));
  return v;
}

TEST(samplers)
{
  cl_context ctx = tl_context();
  cl_int err;
  /* clCreateSampler and its errors. */
  ASSERT_TRUE(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_TRUE(clCreateSampler(ctx, 2, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateSampler(ctx, CL_TRUE, 0x9999, CL_FILTER_LINEAR, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  ASSERT_TRUE(clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x9999, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_VALUE);
  static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                             CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  for (int n = 0; n < 2; n++)
    for (int a = 0; a < 5; a++)
      for (int f = 0; f < 2; f++) {
        cl_filter_mode fm = f ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
        cl_sampler s = clCreateSampler(ctx, (cl_bool)n, modes[a], fm, &err);
        ASSERT_OK(err);
        ASSERT_EQ(sampler_uint(s, CL_SAMPLER_NORMALIZED_COORDS), n);
        ASSERT_EQ(sampler_uint(s, CL_SAMPLER_ADDRESSING_MODE), modes[a]);
        ASSERT_EQ(sampler_uint(s, CL_SAMPLER_FILTER_MODE), fm);
        ASSERT_OK(clReleaseSampler(s));
      }
  cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err);
  ASSERT_OK(err);
  cl_context c = NULL;
  ASSERT_OK(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof(c), &c, NULL));
  ASSERT_TRUE(c == ctx);
  ASSERT_EQ(sampler_uint(s, CL_SAMPLER_REFERENCE_COUNT), 1);
  ASSERT_OK(clRetainSampler(s));
  ASSERT_EQ(sampler_uint(s, CL_SAMPLER_REFERENCE_COUNT), 2);
  ASSERT_OK(clReleaseSampler(s));
  size_t sz = 99;
  ASSERT_OK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &sz));
  ASSERT_EQ(sz, 0);
  ASSERT_CL(clGetSamplerInfo(s, 0x7777, sizeof(sz), &sz, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof(c) - 1, &c, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetSamplerInfo(NULL, CL_SAMPLER_CONTEXT, sizeof(c), &c, NULL), CL_INVALID_SAMPLER);
  ASSERT_CL(clGetSamplerInfo((cl_sampler)ctx, CL_SAMPLER_CONTEXT, sizeof(c), &c, NULL), CL_INVALID_SAMPLER);
  ASSERT_CL(clRetainSampler(NULL), CL_INVALID_SAMPLER);
  ASSERT_CL(clReleaseSampler((cl_sampler)ctx), CL_INVALID_SAMPLER);
  /* A sampler keeps its context. */
  cl_uint refs = 0;
  ASSERT_OK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
  ASSERT_EQ(refs, 2);
  ASSERT_OK(clReleaseSampler(s));
  ASSERT_OK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
  ASSERT_EQ(refs, 1);

  /* clCreateSamplerWithProperties: defaults (normalized, clamp, nearest),
   * the properties as given, and the errors. */
  s = clCreateSamplerWithProperties(ctx, NULL, &err);
  ASSERT_OK(err);
  ASSERT_EQ(sampler_uint(s, CL_SAMPLER_NORMALIZED_COORDS), CL_TRUE);
  ASSERT_EQ(sampler_uint(s, CL_SAMPLER_ADDRESSING_MODE), CL_ADDRESS_CLAMP);
  ASSERT_EQ(sampler_uint(s, CL_SAMPLER_FILTER_MODE), CL_FILTER_NEAREST);
  ASSERT_OK(clReleaseSampler(s));
  cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
                                   CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_MIRRORED_REPEAT, 0};
  s = clCreateSamplerWithProperties(ctx, props, &err);
  ASSERT_OK(err);
  ASSERT_EQ(sampler_uint(s, CL_SAMPLER_NORMALIZED_COORDS), CL_FALSE);
  ASSERT_EQ(sampler_uint(s, CL_SAMPLER_ADDRESSING_MODE), CL_ADDRESS_MIRRORED_REPEAT);
  ASSERT_EQ(sampler_uint(s, CL_SAMPLER_FILTER_MODE), CL_FILTER_LINEAR);
  cl_sampler_properties got[8];
  ASSERT_OK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof(got), got, &sz));
  ASSERT_EQ(sz, sizeof(props));
  ASSERT_TRUE(!memcmp(got, props, sizeof(props)));
  ASSERT_OK(clReleaseSampler(s));
  cl_sampler_properties empty[] = {0};
  s = clCreateSamplerWithProperties(ctx, empty, &err);
  ASSERT_OK(err);
  ASSERT_OK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &sz));
  ASSERT_EQ(sz, sizeof(cl_sampler_properties));
  ASSERT_OK(clReleaseSampler(s));
  cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
                                   CL_FILTER_LINEAR, 0};
  cl_sampler_properties unknown[] = {0x4321, 1, 0};
  cl_sampler_properties bad_value[] = {CL_SAMPLER_ADDRESSING_MODE, 0x9999, 0};
  cl_sampler_properties bad_bool[] = {CL_SAMPLER_NORMALIZED_COORDS, 7, 0};
  cl_sampler_properties *bad[] = {twice, unknown, bad_value, bad_bool};
  for (int i = 0; i < 4; i++) {
    ASSERT_TRUE(clCreateSamplerWithProperties(ctx, bad[i], &err) == NULL);
    ASSERT_CL(err, CL_INVALID_VALUE);
  }
  ASSERT_TRUE(clCreateSamplerWithProperties(NULL, props, &err) == NULL);
  ASSERT_CL(err, CL_INVALID_CONTEXT);
  ASSERT_OK(clReleaseContext(ctx));
}

/* ---- kernel arguments ---- */

static const char kernel_src[] =
    "__kernel void k(read_only image2d_t r, write_only image2d_t w, sampler_t s, __global int *o,\n"
    "                read_write image3d_t rw, read_only image1d_buffer_t b)\n"
    "{ o[get_global_id(0)] = 7; }\n";

TEST(image_and_sampler_kernel_arguments)
{
  cl_context ctx = tl_context(), ctx2 = tl_context();
  cl_command_queue q = tl_queue(ctx, 0);
  cl_program p = tl_build(ctx, kernel_src, "-cl-std=CL3.0 -cl-kernel-arg-info");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_OK(err);
  cl_image_desc d = desc2d(4, 4), d3 = desc_t(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2, 0);
  cl_mem ro = image(ctx, CL_MEM_READ_ONLY, &rgba8, &d, NULL);
  cl_mem wo = image(ctx, CL_MEM_WRITE_ONLY, &rgba8, &d, NULL);
  cl_mem rw = image(ctx, 0, &rgba8, &d, NULL);
  cl_mem vol = image(ctx, 0, &rgba8, &d3, NULL);
  cl_mem other = image(ctx2, 0, &rgba8, &d, NULL);
  cl_mem out = buffer(ctx, 0, 64, NULL);
  cl_mem pixels = buffer(ctx, 0, 256, NULL);
  cl_image_desc db = desc_t(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 0, 0, 0);
  db.buffer = pixels;
  cl_mem line = image(ctx, 0, &rgba8, &db, NULL);
  cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
  ASSERT_OK(err);
  cl_sampler s2 = clCreateSampler(ctx2, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
  ASSERT_OK(err);
  /* Images: size first, then value. */
  ASSERT_CL(clSetKernelArg(k, 0, sizeof(cl_mem) - 1, &ro), CL_INVALID_ARG_SIZE);
  ASSERT_CL(clSetKernelArg(k, 0, sizeof(cl_mem), NULL), CL_INVALID_ARG_VALUE);
  cl_mem null_mem = NULL;
  ASSERT_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &null_mem), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &out), CL_INVALID_MEM_OBJECT);
  ASSERT_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &other), CL_INVALID_CONTEXT);
  /* read_only argument, CL_MEM_WRITE_ONLY image; write_only, CL_MEM_READ_ONLY. */
  ASSERT_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &wo), CL_INVALID_ARG_VALUE);
  ASSERT_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &ro), CL_INVALID_ARG_VALUE);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &ro));
  ASSERT_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &rw));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &wo));
  ASSERT_OK(clSetKernelArg(k, 4, sizeof(cl_mem), &vol));
  ASSERT_OK(clSetKernelArg(k, 5, sizeof(cl_mem), &line));
  /* Samplers. */
  ASSERT_CL(clSetKernelArg(k, 2, sizeof(cl_sampler) + 1, &s), CL_INVALID_ARG_SIZE);
  /* A NULL arg_value is no sampler object: CL_INVALID_SAMPLER (the CTS's
   * test_api negative_invalid_arg_sampler expects this error). */
  ASSERT_CL(clSetKernelArg(k, 2, sizeof(cl_sampler), NULL), CL_INVALID_SAMPLER);
  ASSERT_CL(clSetKernelArg(k, 2, sizeof(cl_sampler), &ro), CL_INVALID_SAMPLER);
  ASSERT_CL(clSetKernelArg(k, 2, sizeof(cl_sampler), &s2), CL_INVALID_CONTEXT);
  ASSERT_OK(clSetKernelArg(k, 2, sizeof(cl_sampler), &s));
  /* A buffer argument takes no image. */
  ASSERT_CL(clSetKernelArg(k, 3, sizeof(cl_mem), &ro), CL_INVALID_MEM_OBJECT);
  ASSERT_OK(clSetKernelArg(k, 3, sizeof(cl_mem), &out));
  /* The kernel runs with its image and sampler arguments; the images and
   * the sampler may be released once it is enqueued. */
  size_t g = 16;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  ASSERT_OK(clReleaseMemObject(rw));
  ASSERT_OK(clReleaseMemObject(vol));
  ASSERT_OK(clReleaseSampler(s));
  cl_int res[16];
  ASSERT_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof(res), res, 0, NULL, NULL));
  for (int i = 0; i < 16; i++)
    ASSERT_EQ(res[i], 7);
  /* Argument information of image and sampler arguments. */
  cl_kernel_arg_address_qualifier aq;
  cl_kernel_arg_access_qualifier acc;
  char name[64];
  static const cl_kernel_arg_access_qualifier want_acc[] = {
    CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_ACCESS_NONE,
    CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_ACCESS_READ_WRITE, CL_KERNEL_ARG_ACCESS_READ_ONLY};
  static const char *const want_type[] = {"image2d_t", "image2d_t", "sampler_t", "int*", "image3d_t",
                                          "image1d_buffer_t"};
  for (cl_uint i = 0; i < 6; i++) {
    ASSERT_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, NULL));
    ASSERT_EQ(aq, i == 2 ? CL_KERNEL_ARG_ADDRESS_PRIVATE : CL_KERNEL_ARG_ADDRESS_GLOBAL);
    ASSERT_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(acc), &acc, NULL));
    ASSERT_EQ(acc, want_acc[i]);
    ASSERT_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof(name), name, NULL));
    ASSERT_STREQ(name, want_type[i]);
  }
  ASSERT_OK(clReleaseKernel(k));
  ASSERT_OK(clReleaseProgram(p));
  for (cl_mem *pm = (cl_mem[]){ro, wo, other, out, line, pixels}, *end = pm + 6; pm < end; pm++)
    ASSERT_OK(clReleaseMemObject(*pm));
  ASSERT_OK(clReleaseSampler(s2));
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_OK(clReleaseContext(ctx));
  ASSERT_OK(clReleaseContext(ctx2));
}

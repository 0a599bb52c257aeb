/* Platform family through the ICD loader: clGetPlatformIDs,
 * clIcdGetPlatformIDsKHR, clGetPlatformInfo (every query), clUnloadPlatformCompiler,
 * the host timers. */
#include <CL/cl_ext.h>

#include "tests/testlib.h"

/* Reads a string query, checking that the size query and the value agree. */
static char *platform_string(cl_platform_id p, cl_platform_info param)
{
  size_t size = 0;
  ASSERT_OK(clGetPlatformInfo(p, param, 0, NULL, &size));
  ASSERT_TRUE(size >= 1);
  char *s = malloc(size);
  size_t size2 = 0;
  ASSERT_OK(clGetPlatformInfo(p, param, size, s, &size2));
  ASSERT_EQ(size2, size);
  ASSERT_EQ(strlen(s) + 1, size);
  return s;
}

TEST(platform_ids)
{
  cl_uint n = 0;
  ASSERT_OK(clGetPlatformIDs(0, NULL, &n));
  ASSERT_TRUE(n >= 1);
  cl_platform_id ids[16];
  ASSERT_OK(clGetPlatformIDs(16, ids, NULL));
  cl_platform_id p = tl_platform();
  int found = 0;
  for (cl_uint i = 0; i < n && i < 16; i++)
    found |= ids[i] == p;
  ASSERT_TRUE(found);
}

TEST(platform_ids_errors)
{
  cl_platform_id p;
  cl_uint n;
  ASSERT_CL(clGetPlatformIDs(0, &p, &n), CL_INVALID_VALUE);
  ASSERT_CL(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
}

/* The loader's entry into LaneCL, called directly. */
TEST(icd_get_platform_ids)
{
  cl_platform_id p = tl_platform();
  clIcdGetPlatformIDsKHR_fn fn =
      (clIcdGetPlatformIDsKHR_fn)clGetExtensionFunctionAddressForPlatform(p, "clIcdGetPlatformIDsKHR");
  ASSERT_TRUE(fn != NULL);
  cl_platform_id got = NULL;
  cl_uint n = 0;
  ASSERT_OK(fn(0, NULL, &n));
  ASSERT_EQ(n, 1);
  n = 0;
  ASSERT_OK(fn(1, &got, &n));
  ASSERT_TRUE(got == p);
  ASSERT_EQ(n, 1);
  /* CL_INVALID_VALUE if num_entries is 0 and platforms is not NULL, or both
   * num_platforms and platforms are NULL. */
  ASSERT_CL(fn(0, &got, &n), CL_INVALID_VALUE);
  ASSERT_CL(fn(1, NULL, NULL), CL_INVALID_VALUE);
}

TEST(platform_strings)
{
  cl_platform_id p = tl_platform();
  char *s = platform_string(p, CL_PLATFORM_NAME);
  ASSERT_STREQ(s, "LaneCL");
  free(s);
  s = platform_string(p, CL_PLATFORM_PROFILE);
  ASSERT_STREQ(s, "FULL_PROFILE");
  free(s);
  s = platform_string(p, CL_PLATFORM_VERSION);
  ASSERT_TRUE(!strncmp(s, "OpenCL 3.0 LaneCL ", 18));
  free(s);
  s = platform_string(p, CL_PLATFORM_VENDOR);
  ASSERT_TRUE(s[0] != '\0');
  free(s);
  s = platform_string(p, CL_PLATFORM_ICD_SUFFIX_KHR);
  ASSERT_STREQ(s, "LaneCL");
  free(s);
}

TEST(platform_extensions)
{
  cl_platform_id p = tl_platform();
  char *ext = platform_string(p, CL_PLATFORM_EXTENSIONS);
  ASSERT_TRUE(strstr(ext, "cl_khr_icd") != NULL);
  /* Every device extension is a platform extension (one device). */
  size_t dsize = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_EXTENSIONS, 0, NULL, &dsize));
  char *dext = malloc(dsize);
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_EXTENSIONS, dsize, dext, NULL));
  for (char *save = NULL, *tok = strtok_r(dext, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
    ASSERT_TRUE(strstr(ext, tok) != NULL);
  free(dext);

  /* The versioned list names exactly the extensions of the string. */
  size_t size = 0;
  ASSERT_OK(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &size));
  ASSERT_EQ(size % sizeof(cl_name_version), 0);
  size_t count = size / sizeof(cl_name_version);
  cl_name_version *nv = malloc(size);
  ASSERT_OK(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size, nv, NULL));
  size_t words = 0;
  for (char *save = NULL, *tok = strtok_r(ext, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    int found = 0;
    for (size_t i = 0; i < count; i++)
      found |= !strcmp(nv[i].name, tok);
    ASSERT_TRUE(found);
    words++;
  }
  ASSERT_EQ(words, count);
  for (size_t i = 0; i < count; i++)
    ASSERT_TRUE(CL_VERSION_MAJOR(nv[i].version) >= 1);
  free(nv);
  free(ext);
}

TEST(platform_numeric_version_and_timer)
{
  cl_platform_id p = tl_platform();
  cl_version v = 0;
  size_t size = 0;
  ASSERT_OK(clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, sizeof(v), &v, &size));
  ASSERT_EQ(size, sizeof(cl_version));
  ASSERT_EQ(v, CL_MAKE_VERSION(3, 0, 0));
  cl_ulong res = 0;
  ASSERT_OK(clGetPlatformInfo(p, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof(res), &res, &size));
  ASSERT_EQ(size, sizeof(cl_ulong));
  ASSERT_TRUE(res >= 1 && res <= 1000000);
}

TEST(platform_info_errors)
{
  cl_platform_id p = tl_platform();
  char small[3];
  /* CL_INVALID_VALUE if param_name is not one of the supported values ... */
  ASSERT_CL(clGetPlatformInfo(p, 0x1234, sizeof(small), small, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetPlatformInfo(p, CL_DEVICE_NAME, 0, NULL, NULL), CL_INVALID_VALUE);
  /* ... or if param_value_size is < size of return type and param_value is not NULL. */
  ASSERT_CL(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(small), small, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetPlatformInfo(p, CL_PLATFORM_NAME, 0, small, NULL), CL_INVALID_VALUE);
  cl_version v;
  ASSERT_CL(clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, sizeof(v) - 1, &v, NULL), CL_INVALID_VALUE);
  /* CL_INVALID_PLATFORM if platform is not a valid platform: a device and a
   * context handle (LaneCL's dispatch, wrong type). */
  ASSERT_CL(clGetPlatformInfo((cl_platform_id)tl_device(), CL_PLATFORM_NAME, 0, NULL, NULL), CL_INVALID_PLATFORM);
  cl_context ctx = tl_context();
  ASSERT_CL(clGetPlatformInfo((cl_platform_id)ctx, CL_PLATFORM_NAME, 0, NULL, NULL), CL_INVALID_PLATFORM);
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(unload_platform_compiler)
{
  ASSERT_OK(clUnloadPlatformCompiler(tl_platform()));
  /* CL_INVALID_PLATFORM if platform is not a valid platform. */
  ASSERT_CL(clUnloadPlatformCompiler((cl_platform_id)tl_device()), CL_INVALID_PLATFORM);
  /* Still usable afterwards. */
  cl_context ctx = tl_context();
  ASSERT_OK(clReleaseContext(ctx));
}

TEST(host_timers)
{
  cl_device_id dev = tl_device();
  cl_ulong h1 = 0, h2 = 0, d2 = 0, h3 = 0;
  ASSERT_OK(clGetHostTimer(dev, &h1));
  ASSERT_OK(clGetDeviceAndHostTimer(dev, &d2, &h2));
  ASSERT_OK(clGetHostTimer(dev, &h3));
  ASSERT_TRUE(h1 > 0);
  ASSERT_TRUE(h1 <= h2 && h2 <= h3);
  ASSERT_TRUE(d2 >= h1 && d2 <= h3);  /* one clock */

  /* CL_INVALID_VALUE if host_timestamp (or device_timestamp) is NULL. */
  ASSERT_CL(clGetHostTimer(dev, NULL), CL_INVALID_VALUE);
  ASSERT_CL(clGetDeviceAndHostTimer(dev, NULL, &h1), CL_INVALID_VALUE);
  ASSERT_CL(clGetDeviceAndHostTimer(dev, &d2, NULL), CL_INVALID_VALUE);
  /* CL_INVALID_DEVICE if device is not a valid device. */
  cl_context ctx = tl_context();
  ASSERT_CL(clGetHostTimer((cl_device_id)ctx, &h1), CL_INVALID_DEVICE);
  ASSERT_CL(clGetDeviceAndHostTimer((cl_device_id)ctx, &d2, &h2), CL_INVALID_DEVICE);
  ASSERT_OK(clReleaseContext(ctx));
}

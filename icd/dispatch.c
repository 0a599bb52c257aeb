/* The ICD front end's tables, all made from icd/entrypoints.def:
 *   - the dispatch table every LaneCL handle points at (every slot filled:
 *     the ICD loaders call through it without a NULL check);
 *   - a weak stub for every entry point: it answers CL_INVALID_OPERATION and
 *     logs "clFoo: not implemented in LaneCL yet" until a family file defines
 *     the real clFoo, whose strong symbol replaces the stub at link time;
 *   - clGetExtensionFunctionAddress(ForPlatform) and clIcdGetPlatformIDsKHR,
 *     which the loaders look up with dlsym (icd/lanecl.map exports them).
 *
 * LANECL_DEBUG=api lists at start-up the entry points that are still stubs,
 * and logs every call of a stub. */
#include <stdio.h>
#include <string.h>

#include "icd/icd.h"

#define ICD_EXPORT __attribute__((visibility("default")))

/* ---- the stubs ---- */

static void icd_stub_called(const char *name)
{
  icd_init();
  rt_log(RT_LOG_ERR | RT_LOG_API, "%s: not implemented in LaneCL yet", name);
}

static cl_int icd_stub_err(const char *name)
{
  icd_stub_called(name);
  return CL_INVALID_OPERATION;
}

static void *icd_stub_obj(const char *name, cl_int *errcode_ret)
{
  icd_stub_called(name);
  icd_set_err(errcode_ret, CL_INVALID_OPERATION);
  return NULL;
}

static void *icd_stub_ptr(const char *name)
{
  icd_stub_called(name);
  return NULL;
}

/* icd_stub_clFoo is the stub's body; clFoo is a weak alias of it, so a strong
 * clFoo elsewhere in the library wins and &clFoo != &icd_stub_clFoo tells
 * which entry points are real.  Default visibility on the alias keeps a strong
 * exported definition (clGetPlatformInfo) exported; lanecl.map still hides
 * every name it does not list. */
#define ICD_WEAK_STUB(ret, name, params, body)                                                   \
  static ret icd_stub_##name params                                                              \
  {                                                                                              \
    body                                                                                         \
  }                                                                                              \
  ret CL_API_CALL name params __attribute__((weak, alias("icd_stub_" #name), visibility("default")));

#define ICD_STUB_ERR(ret, name, params) ICD_WEAK_STUB(ret, name, params, return icd_stub_err(#name);)
#define ICD_STUB_OBJ(ret, name, params) ICD_WEAK_STUB(ret, name, params, return icd_stub_obj(#name, errcode_ret);)
#define ICD_STUB_PTR(ret, name, params) ICD_WEAK_STUB(ret, name, params, return icd_stub_ptr(#name);)
#define ICD_STUB_VOID(ret, name, params) ICD_WEAK_STUB(ret, name, params, icd_stub_called(#name);)
#define ICD_STUB_SELF(ret, name, params)

#define ICD_ENTRY(kind, ret, name, params) ICD_STUB_##kind(ret, name, params)
#define ICD_ENTRY_OTHER_OS(kind, ret, name, params) ICD_STUB_##kind(ret, name, params)
#include "icd/entrypoints.def"

/* ---- the dispatch table ---- */

const struct _cl_icd_dispatch icd_dispatch = {
#define ICD_ENTRY(kind, ret, name, params) .name = name,
/* These slots are typed void * off Windows. */
#define ICD_ENTRY_OTHER_OS(kind, ret, name, params) .name = (void *)name,
#include "icd/entrypoints.def"
};

/* ---- which entry points are still stubs ---- */

struct icd_entry_state {
  const char *name;
  void (*fn)(void);
  void (*stub)(void);   /* NULL: defined in this file, never a stub */
};

#define ICD_STATE_ERR(name) {#name, (void (*)(void))name, (void (*)(void))icd_stub_##name},
#define ICD_STATE_OBJ ICD_STATE_ERR
#define ICD_STATE_PTR ICD_STATE_ERR
#define ICD_STATE_VOID ICD_STATE_ERR
#define ICD_STATE_SELF(name) {#name, (void (*)(void))name, NULL},

static const struct icd_entry_state icd_entries[] = {
#define ICD_ENTRY(kind, ret, name, params) ICD_STATE_##kind(name)
#define ICD_ENTRY_OTHER_OS(kind, ret, name, params) ICD_STATE_##kind(name)
#include "icd/entrypoints.def"
};

void icd_log_stubs(void)
{
  if (!(rt_log_mask & RT_LOG_API))
    return;
  rt_str list = {0};
  unsigned nstubs = 0, n = sizeof(icd_entries) / sizeof(icd_entries[0]);
  for (unsigned i = 0; i < n; i++) {
    if (icd_entries[i].stub && icd_entries[i].fn == icd_entries[i].stub) {
      rt_str_add(&list, " %s", icd_entries[i].name);
      nstubs++;
    }
  }
  rt_log(RT_LOG_API, "%u of %u entry points are still stubs:%s", nstubs, n, list.s ? list.s : " none");
  rt_str_free(&list);
}

/* ---- extension functions ---- */

static const struct {
  const char *name;
  void *fn;
} icd_extension_fns[] = {
#define ICD_EXTENSION_FN(name) {#name, (void *)name},
#include "icd/entrypoints.def"
};

/* Returns the extension function called name, NULL when LaneCL has none. */
static void *icd_find_extension_fn(const char *name)
{
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof(icd_extension_fns) / sizeof(icd_extension_fns[0]); i++)
    if (!strcmp(name, icd_extension_fns[i].name))
      return icd_extension_fns[i].fn;
  return NULL;
}

ICD_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name)
{
  icd_init();
  return icd_find_extension_fn(func_name);
}

ICD_EXPORT void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                      const char *func_name)
{
  icd_init();
  /* The function is looked up for `platform`: nothing for a platform that is
   * not LaneCL's (the spec returns NULL rather than an error code here). */
  if (!rt_object_is(platform, RT_PLATFORM)) {
    rt_err("clGetExtensionFunctionAddressForPlatform: platform %p is not the LaneCL platform",
           (void *)platform);
    return NULL;
  }
  return icd_find_extension_fn(func_name);
}

/* cl_khr_icd: the ICD loader enumerates our platforms through this one. */
ICD_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                     cl_uint *num_platforms)
{
  return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

/* Kernels: creation from a built program, argument storage, the kernel queries. */
#include <stdlib.h>
#include <string.h>

#include "runtime/rt_program.h"

#define ARG_ALIGN 16u

/* Same number, kinds and sizes of arguments. */
static bool same_definition(const cc_kernel_info *a, const cc_kernel_info *b)
{
  if (a->nargs != b->nargs)
    return false;
  for (uint32_t i = 0; i < a->nargs; i++)
    if (a->args[i].kind != b->args[i].kind || a->args[i].size != b->args[i].size ||
        a->args[i].addr_space != b->args[i].addr_space)
      return false;
  return true;
}

static uint32_t value_size(const cc_kernel_arg *a)
{
  switch (a->kind) {
  case CC_ARG_SCALAR: return a->size;
  case CC_ARG_LOCAL: return 0;
  default: return sizeof(void *);
  }
}

static uint32_t value_align(const cc_kernel_arg *a)
{
  uint32_t al = a->align > ARG_ALIGN ? a->align : ARG_ALIGN;
  return al > 128 ? 128 : al;
}

/* Argument information is available only where the kernel was compiled with
 * -cl-kernel-arg-info (from source, or a binary of such a build); without it
 * every query, the address and access qualifiers too, gives
 * CL_KERNEL_ARG_INFO_NOT_AVAILABLE. */
static bool arg_info_available(const cc_kernel_info *info)
{
  if (!(info->flags & CC_KFLAG_ARG_INFO))
    return false;
  for (uint32_t i = 0; i < info->nargs; i++)
    if (!info->args[i].type_name || !info->args[i].type_name[0])
      return false;
  return true;
}

/* True when every executable of p defines the kernel as info does (p->lock held). */
static bool defined_alike(cl_program p, const cc_kernel_info *info)
{
  for (cl_uint d = 0; d < p->ndevices; d++) {
    const rt_build *b = &p->builds[d];
    if (!rt_build_is_executable(b))
      continue;
    uint32_t i = rt_build_find_kernel(b, info->name);
    if (i == UINT32_MAX || !same_definition(info, &b->bin.kernels[i]))
      return false;
  }
  return true;
}

/* A kernel object for info, a kernel of p's first executable (p->lock held). */
static cl_kernel kernel_new(cl_program p, const cc_kernel_info *info, cl_int *err)
{
  /* CL_INVALID_KERNEL_DEFINITION if the function definition ... is not the
   * same for all devices for which the program executable has been built. */
  if (!defined_alike(p, info)) {
    rt_err("clCreateKernel: kernel %s differs between the devices of the program", info->name);
    *err = CL_INVALID_KERNEL_DEFINITION;
    return NULL;
  }
  cl_kernel k = calloc(1, sizeof(*k));
  if (!k)
    goto fail;
  k->args = calloc(info->nargs ? info->nargs : 1, sizeof(*k->args));
  if (!k->args)
    goto free_kernel;
  size_t at = 0;
  for (uint32_t i = 0; i < info->nargs; i++) {
    uint32_t al = value_align(&info->args[i]);
    at = (at + al - 1) / al * al;
    k->args[i].offset = (uint32_t)at;
    k->args[i].size = value_size(&info->args[i]);
    at += k->args[i].size;
  }
  k->values_size = at;
  k->values = calloc(1, at ? at : 1);
  if (!k->values)
    goto free_args;
  rt_object_init(&k->obj, RT_KERNEL);
  pthread_mutex_init(&k->lock, NULL);
  k->info = info;
  k->arg_info = arg_info_available(info);
  k->program = p;
  p->nkernels++;
  rt_program_retain(p);
  *err = CL_SUCCESS;
  return k;
free_args:
  free(k->args);
free_kernel:
  free(k);
fail:
  *err = CL_OUT_OF_HOST_MEMORY;
  return NULL;
}

cl_kernel rt_kernel_create(cl_program p, const char *name, cl_int *err)
{
  cl_kernel k = NULL;
  pthread_mutex_lock(&p->lock);
  const rt_build *b = rt_program_first_executable(p);
  uint32_t i;
  if (!b) {
    /* CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for program. */
    rt_err("clCreateKernel: the program has no successfully built executable");
    *err = CL_INVALID_PROGRAM_EXECUTABLE;
  } else if ((i = rt_build_find_kernel(b, name)) == UINT32_MAX) {
    /* CL_INVALID_KERNEL_NAME if kernel_name is not found in program. */
    rt_err("clCreateKernel: no kernel named \"%s\" in the program", name);
    *err = CL_INVALID_KERNEL_NAME;
  } else {
    /* (a staged build makes the kernel's code at its first launch) */
    k = kernel_new(p, &b->bin.kernels[i], err);
  }
  pthread_mutex_unlock(&p->lock);
  return k;
}

cl_int rt_kernels_create_all(cl_program p, cl_uint n, cl_kernel *out, cl_uint *nret)
{
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&p->lock);
  const rt_build *b = rt_program_first_executable(p);
  cl_uint made = 0;
  /* icd/ checked that p has an executable and that n covers its kernels;
   * only a build racing with this call (the application's error) changes
   * that since, and then nothing is made rather than too much written. */
  if (!b) {
    err = CL_INVALID_PROGRAM_EXECUTABLE;
    goto unlock;
  }
  if (out && n < b->bin.nkernels) {
    err = CL_INVALID_VALUE;
    goto unlock;
  }
  for (uint32_t i = 0; out && i < b->bin.nkernels; i++) {
    cl_int e;
    cl_kernel k = kernel_new(p, &b->bin.kernels[i], &e);
    if (k) {
      out[made++] = k;
    } else if (e != CL_INVALID_KERNEL_DEFINITION) {
      err = e;
      break;
    }
  }
  if (!out)
    made = b->bin.nkernels;
unlock:
  pthread_mutex_unlock(&p->lock);
  if (err != CL_SUCCESS) {
    for (cl_uint i = 0; out && i < made; i++)
      rt_kernel_release(out[i]);
    return err;
  }
  if (nret)
    *nret = made;
  return CL_SUCCESS;
}

/* The kernel's work-group function in build b (of k's program for the
 * queue's device), made now if a staged build has none yet: its first
 * launch, with local size local.  Without the lock while the code exists (the function is
 * published last, after the record's values: build_compile_kernels). */
cl_int rt_kernel_code(cl_kernel k, const rt_build *b, uint32_t ki, const uint64_t local[3], lanecl_wg_fn *fn)
{
  if ((*fn = __atomic_load_n(&b->fns[ki], __ATOMIC_ACQUIRE)))
    return CL_SUCCESS;
  /* The launch's local size and the formats of its images: the compiler
   * makes the code cheapest to build for them (cc_launch_hint). */
  uint32_t nargs = k->info->nargs, *formats = calloc(nargs ? nargs : 1, sizeof(*formats));
  pthread_mutex_lock(&k->lock);
  for (uint32_t a = 0; formats && a < nargs; a++) {
    const rt_image *img;
    if (k->info->args[a].kind == CC_ARG_IMAGE && k->args[a].mem && (img = rt_mem_image(k->args[a].mem)))
      formats[a] = (uint32_t)img->format.image_channel_order << 16 | (uint32_t)img->format.image_channel_data_type;
  }
  pthread_mutex_unlock(&k->lock);
  cl_program p = k->program;
  pthread_mutex_lock(&p->lock);
  const rt_build *first = rt_program_first_executable(p);
  uint32_t i = rt_build_find_kernel(first, k->info->name);
  cc_launch_hint launch = {formats, {local[0], local[1], local[2]}};
  cl_int err = rt_program_compile_kernels(p, &i, 1, &launch);
  pthread_mutex_unlock(&p->lock);
  free(formats);
  if (err == CL_SUCCESS && !(*fn = __atomic_load_n(&b->fns[ki], __ATOMIC_ACQUIRE))) {
    rt_err("the code of kernel %s was not made", k->info->name);
    err = CL_OUT_OF_RESOURCES;
  }
  return err;
}

cl_program rt_kernel_program(cl_kernel k)
{
  return k->program;
}

const cc_kernel_info *rt_kernel_meta(cl_kernel k)
{
  return k->info;
}

cl_kernel rt_kernel_clone(cl_kernel src, cl_int *err)
{
  cl_program p = src->program;
  pthread_mutex_lock(&p->lock);
  cl_kernel k = kernel_new(p, src->info, err);
  pthread_mutex_unlock(&p->lock);
  if (!k)
    return NULL;
  pthread_mutex_lock(&src->lock);
  memcpy(k->args, src->args, src->info->nargs * sizeof(*k->args));
  memcpy(k->values, src->values, src->values_size);
  pthread_mutex_unlock(&src->lock);
  return k;
}

void rt_kernel_retain(cl_kernel k)
{
  rt_retain(&k->obj);
}

void rt_kernel_release(cl_kernel k)
{
  if (!rt_release(&k->obj))
    return;
  cl_program p = k->program;
  pthread_mutex_lock(&p->lock);
  p->nkernels--;
  pthread_mutex_unlock(&p->lock);
  pthread_mutex_destroy(&k->lock);
  free(k->values);
  free(k->args);
  free(k);
  rt_program_release(p);
}

/* ---- arguments ---- */

void rt_kernel_set_arg_mem(cl_kernel k, cl_uint i, cl_mem m)
{
  pthread_mutex_lock(&k->lock);
  k->args[i].mem = m;
  k->args[i].set = true;
  pthread_mutex_unlock(&k->lock);
}

void rt_kernel_set_arg_local(cl_kernel k, cl_uint i, size_t size)
{
  pthread_mutex_lock(&k->lock);
  k->args[i].local_size = size;
  k->args[i].set = true;
  pthread_mutex_unlock(&k->lock);
}

void rt_kernel_set_arg_bytes(cl_kernel k, cl_uint i, const void *value, size_t size)
{
  pthread_mutex_lock(&k->lock);
  if (size > k->args[i].size)
    size = k->args[i].size;
  memcpy(k->values + k->args[i].offset, value, size);
  k->args[i].set = true;
  pthread_mutex_unlock(&k->lock);
}

int rt_kernel_first_unset_arg(cl_kernel k)
{
  int first = -1;
  pthread_mutex_lock(&k->lock);
  for (uint32_t i = 0; i < k->info->nargs && first < 0; i++)
    if (!k->args[i].set)
      first = (int)i;
  pthread_mutex_unlock(&k->lock);
  return first;
}

uint64_t rt_kernel_local_mem(cl_kernel k)
{
  /* The sizes come from the application (any size_t): saturate, never wrap. */
  uint64_t total = k->info->local_mem_bytes;
  pthread_mutex_lock(&k->lock);
  for (uint32_t i = 0; i < k->info->nargs; i++) {
    if (k->info->args[i].kind != CC_ARG_LOCAL || !k->args[i].set)
      continue;
    uint64_t size = k->args[i].local_size;
    if (size > UINT64_MAX - 63 || __builtin_add_overflow(total, (size + 63) / 64 * 64, &total))
      total = UINT64_MAX;
  }
  pthread_mutex_unlock(&k->lock);
  return total;
}

/* ---- queries ---- */

/* The metadata of k as built for dev (falls back to the kernel's own). */
static const cc_kernel_info *info_for(cl_kernel k, cl_device_id dev)
{
  const rt_build *b = rt_program_executable_for(k->program, dev);
  if (b) {
    uint32_t i = rt_build_find_kernel(b, k->info->name);
    if (i != UINT32_MAX)
      return &b->bin.kernels[i];
  }
  return k->info;
}

bool rt_kernel_reqd_fits(cl_kernel k, cl_device_id dev)
{
  const uint64_t *r = k->info->reqd_work_group_size;
  if (!(r[0] && r[1] && r[2]))
    return true;
  uint64_t n;
  if (__builtin_mul_overflow(r[0], r[1], &n) || __builtin_mul_overflow(n, r[2], &n))
    return false;
  /* CL_DEVICE_MAX_WORK_ITEM_SIZES is max_work_group_size in each dimension. */
  return n <= dev->max_work_group_size && r[0] <= dev->max_work_group_size &&
         r[1] <= dev->max_work_group_size && r[2] <= dev->max_work_group_size;
}

size_t rt_kernel_max_work_group_size(cl_kernel k, cl_device_id dev)
{
  /* A required size the device can't run leaves the device's limit (the
   * enqueue refuses the required size, CL_INVALID_WORK_GROUP_SIZE). */
  const uint64_t *r = k->info->reqd_work_group_size;
  if (r[0] && r[1] && r[2] && rt_kernel_reqd_fits(k, dev))
    return (size_t)(r[0] * r[1] * r[2]);
  return dev->max_work_group_size;
}

bool rt_kernel_nonuniform_ok(cl_kernel k, cl_device_id dev)
{
  const rt_build *b = rt_program_executable_for(k->program, dev);
  return b && b->nonuniform;
}

bool rt_device_has_subgroups(cl_device_id dev)
{
  (void)dev;
  for (size_t i = 0; i < rt_num_opencl_c_features; i++)
    if (!strcmp(rt_opencl_c_features[i].name, "__opencl_c_subgroups"))
      return true;
  return false;
}

const cc_kernel_info *rt_kernel_meta_for(cl_kernel k, cl_device_id dev)
{
  return info_for(k, dev);
}

bool rt_kernel_has_arg_info(cl_kernel k)
{
  return k->arg_info;
}

cl_uint rt_kernel_refcount(cl_kernel k)
{
  return atomic_load(&k->obj.refcount);
}

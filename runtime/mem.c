/* Buffers and sub-buffers: allocation, references, destructor callbacks and
 * the bookkeeping of mappings.  See runtime/rt.h. */
#include <errno.h>
#include <linux/mempolicy.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/rt.h"
#include "scheduler/sched.h"

struct rt_mem_destructor {
  rt_mem_destructor_fn fn;
  void *user_data;
  struct rt_mem_destructor *next;
};

struct rt_mapping {
  cl_mem mem;                    /* the object mapped (the root or a sub-buffer) */
  size_t start, size;            /* bytes, relative to the root's storage */
  void *ptr;
  bool write;
  bool box;                      /* an image's box of pixels: */
  size_t origin[3], region[3];   /* mappings of one image overlap where their boxes do */
  struct rt_mapping *next;
};

/* Whether two mappings of one storage share a byte: boxes of pixels of
 * one image where they intersect in every dimension, else where the byte
 * spans do. */
static bool mappings_overlap(const struct rt_mapping *a, const struct rt_mapping *b)
{
  if (a->box && b->box && a->mem == b->mem) {
    for (int i = 0; i < 3; i++)
      if (a->origin[i] >= b->origin[i] + b->region[i] || b->origin[i] >= a->origin[i] + a->region[i])
        return false;
    return true;
  }
  return a->start < b->start + b->size && b->start < a->start + a->size;
}

struct _cl_mem {
  rt_object obj;                 /* API references */
  atomic_uint iref;              /* internal references; the API references hold one */
  cl_context ctx;
  cl_mem_flags flags;
  size_t size;
  void *ptr;                     /* byte 0 of this object */
  void *storage;                 /* what mem_free frees (NULL: host or parent memory) */
  void *host_ptr;                /* CL_MEM_HOST_PTR */
  cl_mem parent;                 /* sub-buffers: holds an internal reference */
  size_t offset;
  cl_mem_properties *props;
  size_t nprops;
  pthread_mutex_t lock;          /* destructors; on the root also the mappings */
  struct rt_mem_destructor *destructors; /* pushed at the head: run LIFO */
  struct rt_mapping *mappings;   /* root only: mappings of the root and its sub-buffers */
  void *placed;                  /* whole pages given a NUMA policy (mem_place), */
  size_t placed_len;             /* reset to the default when freed */
  cl_mem alias;                  /* the object whose memory this one uses (images), internal ref */
  rt_image *image;               /* NULL for buffers */
};

static cl_mem mem_root(cl_mem m)
{
  return m->parent ? m->parent : m;
}

/* ---- NUMA placement ----
 * A buffer's pages go to the NUMA nodes of the cores of the context's
 * devices (DESIGN.md "Scheduler"): the one node of a sub-device partitioned
 * by NUMA domain gets them all (MPOL_PREFERRED: memory pressure may still
 * take pages elsewhere rather than fail); a device on several nodes gets
 * them interleaved, so that no node's memory serves every worker.  The
 * policy is set before the first byte is written (CL_MEM_COPY_HOST_PTR's
 * copy included); only the whole pages inside the buffer are bound.
 * On a machine of one node nothing is done, unless LANECL_MEM_PLACE=always
 * (tests); LANECL_MEM_PLACE=0 turns placement off. */
#define MEM_PLACE_MAXNODE 1024 /* bits of the mbind node mask */

/* The mbind mode and node mask (OS indexes) for ctx's devices; 0: none. */
static int mem_place_policy(cl_context ctx, unsigned long *mask)
{
  const char *env = lc_config_str(LC_MEM_PLACE); /* 0, auto or always; read at each use */
  bool always = !strcmp(env, "always");
  if (!strcmp(env, "0"))
    return 0;
  const sched_topology *t = sched_topology_get();
  if (t->nnuma < 2 && !always)
    return 0;
  uint64_t nodes = 0;
  for (cl_uint i = 0; i < ctx->ndevices; i++) {
    cl_device_id d = ctx->devices[i];
    for (cl_uint c = 0; c < d->compute_units; c++) {
      int core = d->cores ? d->cores[c] : (int)c;
      int node = core >= 0 && core < (int)t->ncores ? t->core_numa[core] : 0;
      if (node >= 0 && node < SCHED_MAX_NUMA)
        nodes |= 1ull << node;
    }
  }
  unsigned count = 0;
  for (unsigned k = 0; k < t->nnuma && k < SCHED_MAX_NUMA; k++) {
    int os = t->numa_os[k];
    if (!(nodes >> k & 1) || os < 0 || os >= MEM_PLACE_MAXNODE)
      continue;
    mask[os / (8 * sizeof(long))] |= 1ul << (os % (8 * sizeof(long)));
    count++;
  }
  return count == 0 ? 0 : count == 1 ? MPOL_PREFERRED : MPOL_INTERLEAVE;
}

static void mem_place(cl_mem m, void *p, size_t size)
{
  unsigned long mask[MEM_PLACE_MAXNODE / (8 * sizeof(long))] = {0};
  int mode = mem_place_policy(m->ctx, mask);
  long page = sysconf(_SC_PAGESIZE);
  if (!mode || page <= 0)
    return;
  uintptr_t a = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
  uintptr_t b = ((uintptr_t)p + size) & ~((uintptr_t)page - 1);
  if (b <= a)
    return; /* no whole page of its own */
  /* maxnode + 1: the kernel reads one bit less than it is told. */
  if (syscall(SYS_mbind, (void *)a, (unsigned long)(b - a), (unsigned long)mode, mask,
              (unsigned long)MEM_PLACE_MAXNODE + 1, 0ul) != 0)
    rt_log(RT_LOG_MEM, "buffer %llu: mbind failed (%s); pages go where they are first touched",
           (unsigned long long)m->obj.id, strerror(errno));
  else {
    m->placed = (void *)a;
    m->placed_len = (size_t)(b - a);
  }
  if (m->placed)
    rt_log(RT_LOG_MEM, "buffer %llu: %zu pages %s NUMA node mask %#lx", (unsigned long long)m->obj.id,
           (size_t)(b - a) / (size_t)page, mode == MPOL_PREFERRED ? "preferably on" : "interleaved over",
           mask[0]);
}

static cl_mem mem_new(cl_context ctx, cl_mem_flags flags, size_t size)
{
  cl_mem m = calloc(1, sizeof(*m));
  if (!m)
    return NULL;
  rt_object_init(&m->obj, RT_MEM);
  atomic_init(&m->iref, 1);
  m->ctx = ctx;
  m->flags = flags;
  m->size = size;
  pthread_mutex_init(&m->lock, NULL);
  return m;
}

static cl_mem mem_create(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                         const cl_mem_properties *props, size_t nprops, bool copy, cl_int *err);

cl_mem rt_buffer_create(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                        const cl_mem_properties *props, size_t nprops, cl_int *err)
{
  return mem_create(ctx, flags, size, host_ptr, props, nprops, true, err);
}

cl_mem rt_mem_create_storage(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                             const cl_mem_properties *props, size_t nprops, cl_int *err)
{
  return mem_create(ctx, flags, size, host_ptr, props, nprops, false, err);
}

/* copy: CL_MEM_COPY_HOST_PTR copies size bytes of host_ptr (a buffer);
 * without, the caller fills the memory (an image's rows). */
static cl_mem mem_create(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                         const cl_mem_properties *props, size_t nprops, bool copy, cl_int *err)
{
  cl_mem m = mem_new(ctx, flags, size);
  if (!m) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  if (props && nprops) {
    m->props = malloc(nprops * sizeof(*props));
    if (!m->props) {
      *err = CL_OUT_OF_HOST_MEMORY;
      goto free_mem;
    }
    memcpy(m->props, props, nprops * sizeof(*props));
    m->nprops = nprops;
  }
  if (flags & CL_MEM_USE_HOST_PTR) {
    /* Zero copy: the application's memory is the buffer. */
    m->ptr = host_ptr;
    m->host_ptr = host_ptr;
  } else {
    /* Round up so vector loads past the end of a small buffer stay inside
     * the allocation. */
    size_t alloc = (size + RT_MEM_ALIGN - 1) & ~(size_t)(RT_MEM_ALIGN - 1);
    if (alloc < size || posix_memalign(&m->storage, RT_MEM_ALIGN, alloc) != 0) {
      rt_err("cannot allocate %zu bytes for a buffer", size);
      *err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
      goto free_props;
    }
    m->ptr = m->storage;
    mem_place(m, m->storage, alloc);
    if ((flags & CL_MEM_COPY_HOST_PTR) && copy)
      memcpy(m->ptr, host_ptr, size);
  }
  rt_context_retain(ctx);
  rt_log(RT_LOG_MEM, "buffer %llu: %zu bytes at %p, flags %#llx", (unsigned long long)m->obj.id, size, m->ptr,
         (unsigned long long)flags);
  *err = CL_SUCCESS;
  return m;

free_props:
  free(m->props);
free_mem:
  pthread_mutex_destroy(&m->lock);
  free(m);
  return NULL;
}

cl_mem rt_sub_buffer_create(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size, cl_int *err)
{
  cl_mem m = mem_new(parent->ctx, flags, size);
  if (!m) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  m->parent = parent;
  m->offset = origin;
  m->ptr = (char *)parent->ptr + origin;
  if (parent->host_ptr)
    m->host_ptr = (char *)parent->host_ptr + origin;
  rt_mem_retain(parent);
  rt_context_retain(m->ctx);
  rt_log(RT_LOG_MEM, "sub-buffer %llu of %llu: [%zu, +%zu)", (unsigned long long)m->obj.id,
         (unsigned long long)parent->obj.id, origin, size);
  *err = CL_SUCCESS;
  return m;
}

cl_mem rt_mem_alias_create(cl_mem of, cl_mem_flags flags, size_t size, const cl_mem_properties *props,
                           size_t nprops, cl_int *err)
{
  cl_mem m = mem_new(of->ctx, flags, size);
  if (!m) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  if (props && nprops) {
    m->props = malloc(nprops * sizeof(*props));
    if (!m->props) {
      pthread_mutex_destroy(&m->lock);
      free(m);
      *err = CL_OUT_OF_HOST_MEMORY;
      return NULL;
    }
    memcpy(m->props, props, nprops * sizeof(*props));
    m->nprops = nprops;
  }
  m->alias = of;
  m->ptr = of->ptr;
  m->host_ptr = of->host_ptr;
  rt_mem_retain(of);
  rt_context_retain(m->ctx);
  rt_log(RT_LOG_MEM, "mem %llu uses the memory of %llu", (unsigned long long)m->obj.id,
         (unsigned long long)of->obj.id);
  *err = CL_SUCCESS;
  return m;
}

void rt_mem_attach_image(cl_mem m, rt_image *img)
{
  m->image = img;
}

const rt_image *rt_mem_image(cl_mem m)
{
  return m->image;
}

cl_mem_object_type rt_mem_type(cl_mem m)
{
  return m->image ? m->image->type : CL_MEM_OBJECT_BUFFER;
}

static void mem_free(cl_mem m)
{
  /* The callbacks come first; then the memory goes. */
  struct rt_mem_destructor *dt = m->destructors;
  m->destructors = NULL;
  while (dt) {
    struct rt_mem_destructor *next = dt->next;
    dt->fn(m, dt->user_data);
    free(dt);
    dt = next;
  }
  cl_mem root = mem_root(m);
  pthread_mutex_lock(&root->lock);
  for (struct rt_mapping **pp = &root->mappings; *pp;) {
    struct rt_mapping *mp = *pp;
    if (mp->mem == m) {
      *pp = mp->next;
      free(mp);
    } else {
      pp = &mp->next;
    }
  }
  pthread_mutex_unlock(&root->lock);
  rt_log(RT_LOG_MEM, "mem %llu freed", (unsigned long long)m->obj.id);
  cl_context ctx = m->ctx;
  cl_mem parent = m->parent, alias = m->alias;
  m->obj.magic = 0;
  /* The heap may hand these pages to anything next. */
  if (m->placed)
    syscall(SYS_mbind, m->placed, (unsigned long)m->placed_len, (unsigned long)MPOL_DEFAULT, NULL, 0ul, 0ul);
  free(m->storage);
  free(m->props);
  free(m->image);
  pthread_mutex_destroy(&m->lock);
  free(m);
  if (parent)
    rt_mem_release(parent);
  if (alias)
    rt_mem_release(alias);
  rt_context_release(ctx);
}

void rt_mem_retain(cl_mem m)
{
  atomic_fetch_add_explicit(&m->iref, 1, memory_order_relaxed);
}

void rt_mem_release(cl_mem m)
{
  if (atomic_fetch_sub_explicit(&m->iref, 1, memory_order_acq_rel) == 1)
    mem_free(m);
}

void rt_mem_api_retain(cl_mem m)
{
  rt_retain(&m->obj);
}

void rt_mem_api_release(cl_mem m)
{
  if (rt_release(&m->obj))
    rt_mem_release(m);
}

cl_uint rt_mem_refcount(cl_mem m)
{
  return atomic_load(&m->obj.refcount);
}

void *rt_mem_ptr(cl_mem m)
{
  return m->ptr;
}

size_t rt_mem_size(cl_mem m)
{
  return m->size;
}

cl_context rt_mem_context(cl_mem m)
{
  return m->ctx;
}

cl_mem_flags rt_mem_flags(cl_mem m)
{
  return m->flags;
}

cl_mem rt_mem_parent(cl_mem m)
{
  return m->parent;
}

size_t rt_mem_offset(cl_mem m)
{
  return m->offset;
}

void *rt_mem_host_ptr(cl_mem m)
{
  return m->host_ptr;
}

const cl_mem_properties *rt_mem_properties(cl_mem m, size_t *nprops)
{
  *nprops = m->nprops;
  return m->props;
}

cl_int rt_mem_add_destructor(cl_mem m, rt_mem_destructor_fn fn, void *user_data)
{
  struct rt_mem_destructor *dt = malloc(sizeof(*dt));
  if (!dt)
    return CL_OUT_OF_HOST_MEMORY;
  dt->fn = fn;
  dt->user_data = user_data;
  pthread_mutex_lock(&m->lock);
  dt->next = m->destructors;
  m->destructors = dt;
  pthread_mutex_unlock(&m->lock);
  return CL_SUCCESS;
}

/* ---- mappings ---- */

cl_int rt_mem_map_add(cl_mem m, size_t offset, size_t size, cl_map_flags flags, void **ptr)
{
  return rt_mem_map_add_box(m, offset, size, NULL, NULL, flags, ptr);
}

cl_int rt_mem_map_add_box(cl_mem m, size_t offset, size_t size, const size_t *origin, const size_t *region,
                          cl_map_flags flags, void **ptr)
{
  cl_mem root = mem_root(m);
  struct rt_mapping *mp = malloc(sizeof(*mp));
  if (!mp)
    return CL_OUT_OF_HOST_MEMORY;
  mp->box = origin != NULL;
  for (int i = 0; i < 3; i++) {
    mp->origin[i] = origin ? origin[i] : 0;
    mp->region[i] = region ? region[i] : 0;
  }
  mp->mem = m;
  mp->start = m->offset + offset;
  mp->size = size;
  mp->ptr = (char *)m->ptr + offset;
  mp->write = (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
  pthread_mutex_lock(&root->lock);
  for (struct rt_mapping *o = root->mappings; o; o = o->next) {
    if (mappings_overlap(mp, o) && (mp->write || o->write)) {
      pthread_mutex_unlock(&root->lock);
      rt_err("clEnqueueMap*: bytes [%zu, +%zu) overlap a region already mapped and one of them is for writing",
             mp->start, size);
      free(mp);
      return CL_INVALID_OPERATION;
    }
  }
  mp->next = root->mappings;
  root->mappings = mp;
  pthread_mutex_unlock(&root->lock);
  *ptr = mp->ptr;
  return CL_SUCCESS;
}

cl_int rt_mem_map_remove(cl_mem m, void *ptr)
{
  cl_mem root = mem_root(m);
  pthread_mutex_lock(&root->lock);
  /* Mappings are pushed at the head; drop the oldest of m at ptr. */
  struct rt_mapping **found = NULL;
  for (struct rt_mapping **pp = &root->mappings; *pp; pp = &(*pp)->next)
    if ((*pp)->mem == m && (*pp)->ptr == ptr)
      found = pp;
  if (!found) {
    pthread_mutex_unlock(&root->lock);
    return CL_INVALID_VALUE;
  }
  struct rt_mapping *mp = *found;
  *found = mp->next;
  pthread_mutex_unlock(&root->lock);
  free(mp);
  return CL_SUCCESS;
}

cl_uint rt_mem_map_count(cl_mem m)
{
  cl_mem root = mem_root(m);
  cl_uint n = 0;
  pthread_mutex_lock(&root->lock);
  for (struct rt_mapping *mp = root->mappings; mp; mp = mp->next)
    n += mp->mem == m;
  pthread_mutex_unlock(&root->lock);
  return n;
}

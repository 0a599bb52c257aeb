/* The machine as the scheduler sees it: cores, their first PU, NUMA node and
 * cache domains, and the cache and memory sizes.  Read once per process from
 * hwloc (the PUs this process may use); when hwloc can't load a topology, from
 * sysconf, so sched_topology_get() never fails.  The hwloc topology is dropped
 * after the read: workers are pinned with pthread_setaffinity_np to the OS
 * index of a PU, which needs nothing of hwloc. */
#define _GNU_SOURCE 1
#include "scheduler/sched.h"

#include <hwloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

/* OS PU indexes above this are not mapped back to a core by sched_pu_core. */
#define TOPO_MAX_PU 8192

static sched_topology topo_machine;
static int16_t topo_pu_core_map[TOPO_MAX_PU];   /* OS PU index -> core index + 1, 0 none */
static pthread_once_t topo_once = PTHREAD_ONCE_INIT;

static uint64_t topo_sysconf_u64(int name)
{
  long v = sysconf(name);
  return v > 0 ? (uint64_t)v : 0;
}

/* Fills what hwloc left at 0 (or everything when hwloc failed) from sysconf. */
static void topo_fill_gaps(sched_topology *t)
{
  if (t->ncores == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
      n = 1;
    if (n > SCHED_MAX_CORES)
      n = SCHED_MAX_CORES;
    t->ncores = (unsigned)n;
    t->npus = (unsigned)n;
    t->nnuma = 1;
    t->numa_os[0] = 0;
    for (unsigned i = 0; i < t->ncores; i++) {
      t->core_pu[i] = (int)i;
      t->core_numa[i] = 0;
      t->core_l3[i] = -1;
      t->core_l2[i] = -1;
    }
  }
  if (t->npus < t->ncores)
    t->npus = t->ncores;
  if (t->nnuma == 0)
    t->nnuma = 1;
  if (t->l1d.size == 0)
    t->l1d.size = topo_sysconf_u64(_SC_LEVEL1_DCACHE_SIZE);
  if (t->l1d.line_size == 0)
    t->l1d.line_size = (uint32_t)topo_sysconf_u64(_SC_LEVEL1_DCACHE_LINESIZE);
  if (t->l1d.associativity == 0)
    t->l1d.associativity = (uint32_t)topo_sysconf_u64(_SC_LEVEL1_DCACHE_ASSOC);
  if (t->l2.size == 0)
    t->l2.size = topo_sysconf_u64(_SC_LEVEL2_CACHE_SIZE);
  if (t->l2.line_size == 0)
    t->l2.line_size = (uint32_t)topo_sysconf_u64(_SC_LEVEL2_CACHE_LINESIZE);
  if (t->l2.associativity == 0)
    t->l2.associativity = (uint32_t)topo_sysconf_u64(_SC_LEVEL2_CACHE_ASSOC);
  if (t->l3.size == 0)
    t->l3.size = topo_sysconf_u64(_SC_LEVEL3_CACHE_SIZE);
  if (t->l3.line_size == 0)
    t->l3.line_size = (uint32_t)topo_sysconf_u64(_SC_LEVEL3_CACHE_LINESIZE);
  if (t->l3.associativity == 0)
    t->l3.associativity = (uint32_t)topo_sysconf_u64(_SC_LEVEL3_CACHE_ASSOC);
  /* A line size is never unknown to our callers (CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE). */
  if (t->l1d.line_size == 0)
    t->l1d.line_size = 64;
  if (t->l2.size && t->l2.line_size == 0)
    t->l2.line_size = t->l1d.line_size;
  if (t->l3.size && t->l3.line_size == 0)
    t->l3.line_size = t->l1d.line_size;
  if (t->total_memory == 0)
    t->total_memory = topo_sysconf_u64(_SC_PHYS_PAGES) * topo_sysconf_u64(_SC_PAGESIZE);
}

static void topo_cache_from(sched_cache *c, hwloc_obj_t o)
{
  if (!o || !o->attr)
    return;
  c->size = o->attr->cache.size;
  c->line_size = o->attr->cache.linesize;
  if (o->attr->cache.associativity > 0)
    c->associativity = (uint32_t)o->attr->cache.associativity;
  else if (o->attr->cache.associativity < 0 && o->attr->cache.linesize)  /* fully associative */
    c->associativity = (uint32_t)(o->attr->cache.size / o->attr->cache.linesize);
}

/* The first cache of type `type` that holds data (hwloc lists L1i apart). */
static hwloc_obj_t topo_first_data_cache(hwloc_topology_t h, hwloc_obj_type_t type)
{
  int n = hwloc_get_nbobjs_by_type(h, type);
  for (int i = 0; i < n; i++) {
    hwloc_obj_t o = hwloc_get_obj_by_type(h, type, (unsigned)i);
    if (o && o->attr && o->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION)
      return o;
  }
  return NULL;
}

static int topo_ancestor_index(hwloc_topology_t h, hwloc_obj_type_t type, hwloc_obj_t o)
{
  hwloc_obj_t a = hwloc_get_ancestor_obj_by_type(h, type, o);
  return a ? (int)a->logical_index : -1;
}

/* Reads the topology from hwloc into *t; returns false (t untouched beyond
 * zeros) when hwloc can't load one. */
static bool topo_read_hwloc(sched_topology *t)
{
  hwloc_topology_t h;
  if (hwloc_topology_init(&h) != 0)
    return false;
  /* Cores, caches and NUMA nodes only: no I/O discovery, whose plugins cost
   * milliseconds, and whose OpenCL plugin would call the ICD loader from
   * inside our own ICD. */
  hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
  static const char *const skip[] = {"opencl", "gl", "pci", "cuda", "nvml", "rsmi", "levelzero"};
  for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
    hwloc_topology_set_components(h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, skip[i]);
  if (hwloc_topology_load(h) != 0) {
    hwloc_topology_destroy(h);
    return false;
  }
  hwloc_obj_type_t unit = HWLOC_OBJ_CORE;
  int n = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_CORE);
  if (n <= 0) {
    unit = HWLOC_OBJ_PU;
    n = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
  }
  if (n <= 0) {
    hwloc_topology_destroy(h);
    return false;
  }
  if (n > SCHED_MAX_CORES)
    n = SCHED_MAX_CORES;
  int npus = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
  int nnuma = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);
  t->ncores = (unsigned)n;
  t->npus = npus > 0 ? (unsigned)npus : (unsigned)n;
  t->nnuma = nnuma > 0 ? (unsigned)nnuma : 1;
  if (t->nnuma > SCHED_MAX_NUMA)
    t->nnuma = SCHED_MAX_NUMA;
  for (unsigned k = 0; k < t->nnuma; k++) {
    hwloc_obj_t node = nnuma > 0 ? hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, k) : NULL;
    t->numa_os[k] = node ? (int)node->os_index : (int)k;
  }

  for (int i = 0; i < n; i++) {
    hwloc_obj_t core = hwloc_get_obj_by_type(h, unit, (unsigned)i);
    int pu = core && core->cpuset ? hwloc_bitmap_first(core->cpuset) : -1;
    t->core_pu[i] = pu >= 0 ? pu : i;
    t->core_numa[i] = 0;
    for (int k = 0; core && k < (int)t->nnuma; k++) {
      hwloc_obj_t node = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, (unsigned)k);
      if (node && node->cpuset && hwloc_bitmap_intersects(node->cpuset, core->cpuset)) {
        t->core_numa[i] = (int)node->logical_index;
        break;
      }
    }
    t->core_l3[i] = core ? topo_ancestor_index(h, HWLOC_OBJ_L3CACHE, core) : -1;
    t->core_l2[i] = core ? topo_ancestor_index(h, HWLOC_OBJ_L2CACHE, core) : -1;
    /* Every PU of the core maps back to it (SMT siblings included). */
    if (core && core->cpuset) {
      for (int p = hwloc_bitmap_first(core->cpuset); p >= 0; p = hwloc_bitmap_next(core->cpuset, p))
        if (p < TOPO_MAX_PU)
          topo_pu_core_map[p] = (int16_t)(i + 1);
    }
  }
  topo_cache_from(&t->l1d, topo_first_data_cache(h, HWLOC_OBJ_L1CACHE));
  topo_cache_from(&t->l2, topo_first_data_cache(h, HWLOC_OBJ_L2CACHE));
  topo_cache_from(&t->l3, topo_first_data_cache(h, HWLOC_OBJ_L3CACHE));
  /* With one NUMA node, the kernel's count of RAM (some VMs give the node
   * only part of it); with several, the nodes this process may use. */
  hwloc_obj_t root = hwloc_get_root_obj(h);
  t->total_memory = root && t->nnuma > 1 ? root->total_memory : 0;
  hwloc_topology_destroy(h);
  return true;
}

static void topo_init(void)
{
  sched_topology *t = &topo_machine;
  if (!topo_read_hwloc(t)) {
    memset(t, 0, sizeof(*t));
    memset(topo_pu_core_map, 0, sizeof(topo_pu_core_map));
  }
  topo_fill_gaps(t);
  /* Without hwloc, core i is PU i. */
  bool mapped = false;
  for (int p = 0; p < TOPO_MAX_PU && !mapped; p++)
    mapped = topo_pu_core_map[p] != 0;
  for (unsigned i = 0; !mapped && i < t->ncores; i++)
    if (t->core_pu[i] >= 0 && t->core_pu[i] < TOPO_MAX_PU)
      topo_pu_core_map[t->core_pu[i]] = (int16_t)(i + 1);
}

const sched_topology *sched_topology_get(void)
{
  pthread_once(&topo_once, topo_init);
  return &topo_machine;
}

int sched_pu_core(int os_pu)
{
  sched_topology_get();
  if (os_pu < 0 || os_pu >= TOPO_MAX_PU)
    return -1;
  return topo_pu_core_map[os_pu] - 1;
}

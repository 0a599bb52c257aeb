/* The platform and its CPU device: what the device is (hwloc through
 * sched_topology_get, CPUID), what it supports (the one list below), its
 * worker pool, and its sub-devices. */
#include <cpuid.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/rt.h"

/* ---------------------------------------------------------------------------
 * What LaneCL supports: the one list every report is made from.
 * X(name, major, minor, patch); SEP goes between two entries.
 * ------------------------------------------------------------------------- */

/* Device extensions (CL_DEVICE_EXTENSIONS, and clang's -cl-ext). */
#define RT_DEVICE_EXTENSIONS(X, SEP)                                                             \
  X(cl_khr_byte_addressable_store, 1, 0, 0) SEP                                                  \
  X(cl_khr_global_int32_base_atomics, 1, 0, 0) SEP                                               \
  X(cl_khr_global_int32_extended_atomics, 1, 0, 0) SEP                                           \
  X(cl_khr_local_int32_base_atomics, 1, 0, 0) SEP                                                \
  X(cl_khr_local_int32_extended_atomics, 1, 0, 0) SEP                                            \
  X(cl_khr_int64_base_atomics, 1, 0, 0) SEP                                                      \
  X(cl_khr_int64_extended_atomics, 1, 0, 0) SEP                                                  \
  X(cl_khr_fp64, 1, 0, 0) SEP                                                                    \
  X(cl_khr_fp16, 1, 0, 0) SEP                                                                    \
  X(cl_khr_work_group_uniform_arithmetic, 1, 0, 0) SEP                                           \
  X(cl_khr_3d_image_writes, 1, 0, 0) SEP                                                         \
  X(cl_khr_image2d_from_buffer, 1, 0, 0) SEP                                                     \
  X(cl_khr_depth_images, 1, 0, 0) SEP                                                            \
  X(cl_khr_subgroup_shuffle, 1, 0, 0) SEP                                                       \
  X(cl_khr_subgroup_shuffle_relative, 1, 0, 0) SEP                                              \
  X(cl_khr_subgroup_clustered_reduce, 1, 0, 0) SEP                                              \
  X(cl_khr_subgroup_extended_types, 1, 0, 0) SEP                                                \
  X(cl_khr_subgroup_rotate, 1, 0, 0) SEP                                                        \
  X(cl_khr_subgroup_ballot, 1, 0, 0) SEP                                                        \
  X(cl_khr_subgroup_non_uniform_vote, 1, 0, 0) SEP                                              \
  X(cl_khr_subgroup_non_uniform_arithmetic, 1, 0, 0) SEP                                        \
  X(cl_intel_required_subgroup_size, 1, 0, 0)

/* Extensions of the platform alone; the platform also reports every device
 * extension (the spec: those all its devices support). */
#define RT_PLATFORM_ONLY_EXTENSIONS(X, SEP) X(cl_khr_icd, 1, 0, 0)

/* OpenCL C 3.0 optional features the compiler and builtins provide
 * (CL_DEVICE_OPENCL_C_FEATURES, and clang's -cl-ext). */
#define RT_OPENCL_C_FEATURES(X, SEP)                                                             \
  X(__opencl_c_fp64, 3, 0, 0) SEP                                                                \
  X(__opencl_c_int64, 3, 0, 0) SEP                                                               \
  X(__opencl_c_atomic_order_acq_rel, 3, 0, 0) SEP                                                \
  X(__opencl_c_atomic_order_seq_cst, 3, 0, 0) SEP                                                \
  X(__opencl_c_atomic_scope_device, 3, 0, 0) SEP                                                 \
  X(__opencl_c_atomic_scope_all_devices, 3, 0, 0) SEP                                            \
  X(__opencl_c_generic_address_space, 3, 0, 0) SEP                                              \
  X(__opencl_c_program_scope_global_variables, 3, 0, 0) SEP                                      \
  X(__opencl_c_work_group_collective_functions, 3, 0, 0) SEP                                     \
  X(__opencl_c_images, 3, 0, 0) SEP                                                              \
  X(__opencl_c_read_write_images, 3, 0, 0) SEP                                                   \
  X(__opencl_c_3d_image_writes, 3, 0, 0) SEP                                                    \
  X(__opencl_c_subgroups, 3, 0, 0)

#define RT_COMMA ,
#define RT_AS_NAME(name, major, minor, patch) #name
#define RT_AS_NAME_VERSION(name, major, minor, patch) {CL_MAKE_VERSION(major, minor, patch), #name}
#define RT_AS_CL_EXT(name, major, minor, patch) "+" #name

const char rt_extensions[] = RT_DEVICE_EXTENSIONS(RT_AS_NAME, " ");
const char rt_platform_extensions[] =
    RT_PLATFORM_ONLY_EXTENSIONS(RT_AS_NAME, " ") " " RT_DEVICE_EXTENSIONS(RT_AS_NAME, " ");

const cl_name_version rt_extensions_with_version[] = {RT_DEVICE_EXTENSIONS(RT_AS_NAME_VERSION, RT_COMMA)};
const size_t rt_num_extensions = sizeof(rt_extensions_with_version) / sizeof(rt_extensions_with_version[0]);

const cl_name_version rt_platform_extensions_with_version[] = {
    RT_PLATFORM_ONLY_EXTENSIONS(RT_AS_NAME_VERSION, RT_COMMA),
    RT_DEVICE_EXTENSIONS(RT_AS_NAME_VERSION, RT_COMMA)};
const size_t rt_num_platform_extensions =
    sizeof(rt_platform_extensions_with_version) / sizeof(rt_platform_extensions_with_version[0]);

const cl_name_version rt_opencl_c_features[] = {RT_OPENCL_C_FEATURES(RT_AS_NAME_VERSION, RT_COMMA)};
const size_t rt_num_opencl_c_features = sizeof(rt_opencl_c_features) / sizeof(rt_opencl_c_features[0]);

const cl_name_version rt_opencl_c_versions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
    {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
};
const size_t rt_num_opencl_c_versions = sizeof(rt_opencl_c_versions) / sizeof(rt_opencl_c_versions[0]);

/* clang -cl-ext=<this>: nothing but the list above. */
const char rt_cl_ext_option[] =
    "-all," RT_DEVICE_EXTENSIONS(RT_AS_CL_EXT, ",") "," RT_OPENCL_C_FEATURES(RT_AS_CL_EXT, ",");

/* ---------------------------------------------------------------------------
 * Platform and root device
 * ------------------------------------------------------------------------- */
struct _cl_platform_id rt_platform;
struct _cl_device_id rt_root_device;

#define RT_MAX_WORK_GROUP_SIZE 4096
#define RT_LOCAL_MEM_SIZE (64u * 1024)
#define RT_MIN_MAX_ALLOC (128ull * 1024 * 1024)
#define RT_MEM_BASE_ADDR_ALIGN_BITS 1024   /* 128 bytes: the largest OpenCL C type, long16 */

static int rt_root_cores[SCHED_MAX_CORES];
static pthread_once_t rt_once = PTHREAD_ONCE_INIT;

cl_ulong rt_host_time_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (cl_ulong)ts.tv_sec * 1000000000ull + (cl_ulong)ts.tv_nsec;
}

/* Copies s into dst without the leading and trailing blanks CPUID pads with. */
static void cpu_copy_trimmed(char *dst, size_t dst_size, const char *s)
{
  while (*s == ' ')
    s++;
  snprintf(dst, dst_size, "%s", s);
  for (size_t n = strlen(dst); n > 0 && dst[n - 1] == ' '; n--)
    dst[n - 1] = '\0';
}

/* Maximum clock in MHz: cpufreq, else CPUID leaf 0x16, else /proc/cpuinfo;
 * 0 when none of them tells. */
static cl_uint cpu_clock_mhz(unsigned max_leaf)
{
  FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
  if (f) {
    unsigned long khz = 0;
    int ok = fscanf(f, "%lu", &khz) == 1;
    fclose(f);
    if (ok && khz >= 1000)
      return (cl_uint)(khz / 1000);
  }
  unsigned a, b, c, d;
  if (max_leaf >= 0x16 && __get_cpuid(0x16, &a, &b, &c, &d) && (b & 0xffff))
    return b & 0xffff;  /* maximum frequency, MHz */
  f = fopen("/proc/cpuinfo", "r");
  if (!f)
    return 0;
  char line[256];
  double mhz = 0;
  while (fgets(line, sizeof(line), f))
    if (sscanf(line, "cpu MHz : %lf", &mhz) == 1)
      break;
  fclose(f);
  return mhz > 0 ? (cl_uint)(mhz + 0.5) : 0;
}

/* What the compiler's view of the host depends on when the device names
 * no CPU or features of its own (LLVM reads the host's model and features
 * from CPUID and XCR0): vendor, family/model/stepping and every feature
 * leaf, hashed.  Two machines (or a machine and an emulator such as
 * valgrind, which reports fewer features) that differ here get code of
 * their own from the cache: the key of an entry holds this signature. */
static uint64_t host_cpu_signature;

static void sig_mix(uint64_t *h, int n, const unsigned *v)
{
  for (int k = 0; k < n; k++) /* FNV-1a over the registers' bytes */
    for (int i = 0; i < 4; i++)
      *h = (*h ^ ((v[k] >> (8 * i)) & 0xff)) * 0x100000001b3ull;
}

static uint64_t cpu_signature(void)
{
  uint64_t h = 0xcbf29ce484222325ull;
  unsigned r[4], max_leaf = 0, max_ext = 0;
  if (__get_cpuid(0, &r[0], &r[1], &r[2], &r[3])) {
    max_leaf = r[0];
    sig_mix(&h, 3, r + 1); /* the vendor */
  }
  if (max_leaf >= 1 && __get_cpuid(1, &r[0], &r[1], &r[2], &r[3])) {
    r[1] = 0; /* ebx: the APIC id of the core that answered, not the CPU's */
    sig_mix(&h, 4, r);
  }
  for (unsigned sub = 0; sub < 2 && max_leaf >= 7; sub++)
    if (__get_cpuid_count(7, sub, &r[0], &r[1], &r[2], &r[3]))
      sig_mix(&h, 4, r);
  if (max_leaf >= 0xd && __get_cpuid_count(0xd, 1, &r[0], &r[1], &r[2], &r[3]))
    sig_mix(&h, 1, r);
  if (max_leaf >= 0x14 && __get_cpuid_count(0x14, 0, &r[0], &r[1], &r[2], &r[3]))
    sig_mix(&h, 1, r + 1);
  if (max_leaf >= 0x19 && __get_cpuid_count(0x19, 0, &r[0], &r[1], &r[2], &r[3]))
    sig_mix(&h, 1, r + 1);
  if (__get_cpuid(0x80000000, &r[0], &r[1], &r[2], &r[3]))
    max_ext = r[0];
  if (max_ext >= 0x80000001 && __get_cpuid(0x80000001, &r[0], &r[1], &r[2], &r[3]))
    sig_mix(&h, 2, r + 2);
  if (max_ext >= 0x80000008 && __get_cpuid(0x80000008, &r[0], &r[1], &r[2], &r[3]))
    sig_mix(&h, 1, r + 1);
  /* XCR0: the register states the OS saves (AVX, AVX-512, AMX) */
  if (max_leaf >= 1 && __get_cpuid(1, &r[0], &r[1], &r[2], &r[3]) && (r[2] & (1u << 27))) {
    unsigned x[2];
    __asm__ volatile("xgetbv" : "=a"(x[0]), "=d"(x[1]) : "c"(0));
    sig_mix(&h, 2, x);
  }
  return h;
}

uint64_t rt_host_cpu_signature(void)
{
  rt_init();
  return host_cpu_signature;
}

/* Vendor, brand string, SIMD width, FMA and clock from CPUID. */
static void cpu_describe(struct _cl_device_id *d)
{
  host_cpu_signature = cpu_signature();
  unsigned a = 0, b = 0, c = 0, dx = 0;
  unsigned max_leaf = 0;
  char vendor[13] = "";
  if (__get_cpuid(0, &a, &b, &c, &dx)) {
    max_leaf = a;
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &dx, 4);
    memcpy(vendor + 8, &c, 4);
  }
  snprintf(d->vendor, sizeof(d->vendor), "%s", vendor[0] ? vendor : "unknown");
  if (!strcmp(vendor, "GenuineIntel"))
    d->vendor_id = 0x8086;
  else if (!strcmp(vendor, "AuthenticAMD"))
    d->vendor_id = 0x1022;

  char brand[49] = "";
  if (__get_cpuid(0x80000000, &a, &b, &c, &dx) && a >= 0x80000004) {
    for (unsigned i = 0; i < 3; i++) {
      __get_cpuid(0x80000002 + i, &a, &b, &c, &dx);
      memcpy(brand + 16 * i, &a, 4);
      memcpy(brand + 16 * i + 4, &b, 4);
      memcpy(brand + 16 * i + 8, &c, 4);
      memcpy(brand + 16 * i + 12, &dx, 4);
    }
  }
  cpu_copy_trimmed(d->name, sizeof(d->name), brand);
  if (!d->name[0])
    snprintf(d->name, sizeof(d->name), "%s CPU", d->vendor);

  /* __builtin_cpu_supports also checks that the OS saves the wide registers. */
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    d->simd_bits = 512;
  else if (__builtin_cpu_supports("avx2"))
    d->simd_bits = 256;
  else
    d->simd_bits = 128;
  d->has_fma = __builtin_cpu_supports("fma");
  d->max_clock_mhz = cpu_clock_mhz(max_leaf);
}

static void rt_init_once(void)
{
  rt_object_init(&rt_platform.obj, RT_PLATFORM);

  struct _cl_device_id *d = &rt_root_device;
  const sched_topology *t = sched_topology_get();
  rt_object_init(&d->obj, RT_DEVICE);
  d->parent = NULL;
  d->compute_units = t->ncores ? t->ncores : 1;
  for (unsigned i = 0; i < d->compute_units; i++)
    rt_root_cores[i] = (int)i;
  d->cores = rt_root_cores;
  d->pool = NULL;
  pthread_mutex_init(&d->pool_lock, NULL);
  d->partition_props = NULL;
  d->npartition_props = 0;
  d->affinity_domain = 0;

  cpu_describe(d);
  d->llvm_cpu[0] = '\0';        /* the compiler targets the host */
  d->llvm_features[0] = '\0';

  d->global_mem_size = t->total_memory;
  d->max_alloc = d->global_mem_size / 4;
  if (d->max_alloc < RT_MIN_MAX_ALLOC)
    d->max_alloc = RT_MIN_MAX_ALLOC;
  if (d->max_alloc > d->global_mem_size)
    d->max_alloc = d->global_mem_size;
  d->local_mem_size = RT_LOCAL_MEM_SIZE;
  const sched_cache *llc = t->l3.size ? &t->l3 : t->l2.size ? &t->l2 : &t->l1d;
  d->cache_size = llc->size;
  d->cacheline = llc->line_size ? llc->line_size : (t->l1d.line_size ? t->l1d.line_size : 64);
  d->max_work_group_size = RT_MAX_WORK_GROUP_SIZE;
  d->mem_base_addr_align = RT_MEM_BASE_ADDR_ALIGN_BITS;
  d->queue_props = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

  /* LANECL_CPU: the LLVM CPU model code is tuned for (scheduling and the
   * choices that follow it, e.g. scan chunks of 256 bits on znver4), with the
   * host's features; unset or empty: the host's. */
  d->cc.cpu_name = lc_config_str(LC_CPU);
  /* LANECL_SIMD_BITS=256 (128): the device is an x86-64 of that SIMD width,
   * e.g. an AVX2-only one on an AVX-512 host; the compiler leaves out the
   * host's wider features (cc_target_features).  Never wider than the host. */
  const char *sb = lc_config_str(LC_SIMD_BITS); /* 128, 256, 512 or NULL */
  unsigned bits = sb ? (unsigned)strtoul(sb, NULL, 10) : 0;
  if ((bits == 128 || bits == 256) && bits < d->simd_bits) {
    d->simd_bits = bits;
    if (bits < 256)
      d->has_fma = 0;
  }
  d->cc.cpu_features = NULL;
  d->cc.simd_bits = d->simd_bits;
  d->cc.max_work_group_size = d->max_work_group_size;
  d->cc.cl_ext = rt_cl_ext_option;

  rt_log(RT_LOG_API, "device \"%s\": %u cores, %u-bit SIMD, %llu MiB, LLC %llu KiB, code tuned for %s, host CPU signature %016llx",
         d->name, d->compute_units, d->simd_bits, (unsigned long long)(d->global_mem_size >> 20),
         (unsigned long long)(d->cache_size >> 10), d->cc.cpu_name ? d->cc.cpu_name : "the host CPU",
         (unsigned long long)host_cpu_signature);
}

void rt_init(void)
{
  pthread_once(&rt_once, rt_init_once);
}

sched_pool *rt_device_pool(cl_device_id dev)
{
  pthread_mutex_lock(&dev->pool_lock);
  if (!dev->pool) {
    /* LANECL_NUM_THREADS, LANECL_AFFINITY, LANECL_SPIN_US: the scheduler's
     * settings come from here, it reads no environment. */
    sched_config cfg = {.ncores = dev->compute_units,
                        .cores = dev->cores,
                        .pin = (int)lc_config_num(LC_AFFINITY),
                        .nthreads = (unsigned)lc_config_num(LC_NUM_THREADS),
                        .spin_us = (int)lc_config_num(LC_SPIN_US)};
    dev->pool = sched_pool_create(&cfg);
  }
  sched_pool *pool = dev->pool;
  pthread_mutex_unlock(&dev->pool_lock);
  return pool;
}

/* ---------------------------------------------------------------------------
 * Sub-devices
 * ------------------------------------------------------------------------- */

void rt_device_retain(cl_device_id d)
{
  if (d->parent)
    rt_retain(&d->obj);
}

void rt_device_release(cl_device_id d)
{
  while (d->parent && rt_release(&d->obj)) {
    cl_device_id parent = d->parent;
    if (d->pool)
      sched_pool_destroy(d->pool);
    pthread_mutex_destroy(&d->pool_lock);
    free(d->cores);
    free(d->partition_props);
    free(d);
    d = parent;  /* the sub-device held a reference on its parent */
  }
}

/* The cache or NUMA domain of topology core `core` at one affinity level;
 * -1 when hwloc did not tell (all such cores count as one domain). */
static int domain_of_core(cl_device_affinity_domain level, int core)
{
  const sched_topology *t = sched_topology_get();
  switch (level) {
  case CL_DEVICE_AFFINITY_DOMAIN_NUMA:
    return t->core_numa[core];
  case CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE:
    return t->core_l3[core];
  case CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE:
    return t->core_l2[core];
  case CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE:
    return core;  /* every core has its own L1 */
  default:
    return -1;
  }
}

/* Groups dev's cores by their domain at `level`, in the order of first
 * appearance: group[i] (when group is not NULL) is the group of dev->cores[i].
 * Returns the number of groups. */
static unsigned domain_groups(cl_device_id dev, cl_device_affinity_domain level, unsigned *group)
{
  int seen[SCHED_MAX_CORES];
  unsigned ngroups = 0;
  for (unsigned i = 0; i < dev->compute_units; i++) {
    int dom = domain_of_core(level, dev->cores[i]);
    unsigned g = 0;
    while (g < ngroups && seen[g] != dom)
      g++;
    if (g == ngroups)
      seen[ngroups++] = dom;
    if (group)
      group[i] = g;
  }
  return ngroups;
}

/* The levels NEXT_PARTITIONABLE tries, in the spec's order (no L4 on CPUs
 * hwloc describes to us). */
static const cl_device_affinity_domain affinity_levels[] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

cl_device_affinity_domain rt_device_affinity_domains(cl_device_id dev)
{
  cl_device_affinity_domain doms = 0;
  for (size_t i = 0; i < sizeof(affinity_levels) / sizeof(affinity_levels[0]); i++)
    if (domain_groups(dev, affinity_levels[i], NULL) >= 2)
      doms |= affinity_levels[i];
  return doms ? doms | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

size_t rt_device_partition_types(cl_device_id dev, cl_device_partition_property props[3])
{
  if (dev->compute_units < 2)
    return 0;  /* no scheme gives two sub-devices */
  size_t n = 0;
  props[n++] = CL_DEVICE_PARTITION_EQUALLY;
  props[n++] = CL_DEVICE_PARTITION_BY_COUNTS;
  if (rt_device_affinity_domains(dev))
    props[n++] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
  return n;
}

cl_device_affinity_domain rt_device_next_affinity_domain(cl_device_id dev)
{
  for (size_t i = 0; i < sizeof(affinity_levels) / sizeof(affinity_levels[0]); i++)
    if (domain_groups(dev, affinity_levels[i], NULL) >= 2)
      return affinity_levels[i];
  return 0;
}

unsigned rt_device_affinity_groups(cl_device_id dev, cl_device_affinity_domain domain)
{
  return domain_groups(dev, domain, NULL);
}

/* A partition worked out but not yet made: the sub-device of core i.  The
 * properties were checked by icd/ (clCreateSubDevices). */
typedef struct partition_plan {
  unsigned nsub;
  unsigned *sub_of_core;       /* compute_units entries; nsub = unused core */
  cl_device_affinity_domain domain;
  size_t nprops;               /* property entries through the terminating 0 */
} partition_plan;

static void plan_equally(cl_device_id dev, const cl_device_partition_property *props, partition_plan *p)
{
  unsigned n = (unsigned)props[1];
  p->nprops = 3;
  p->nsub = dev->compute_units / n;
  for (unsigned i = 0; i < dev->compute_units; i++)
    p->sub_of_core[i] = i / n < p->nsub ? i / n : p->nsub;
}

static void plan_by_counts(cl_device_id dev, const cl_device_partition_property *props, partition_plan *p)
{
  unsigned core = 0, nsub = 0;
  size_t i = 1;
  for (; props[i] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; i++) {
    for (cl_device_partition_property k = 0; k < props[i]; k++)
      p->sub_of_core[core++] = nsub;
    nsub++;
  }
  for (; core < dev->compute_units; core++)
    p->sub_of_core[core] = nsub;  /* left unused */
  p->nsub = nsub;
  p->nprops = i + 2;  /* the list, its LIST_END and the terminating 0 */
}

static void plan_by_affinity(cl_device_id dev, const cl_device_partition_property *props, partition_plan *p)
{
  cl_device_affinity_domain want = (cl_device_affinity_domain)props[1];
  p->nprops = 3;
  p->domain = want == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE ? rt_device_next_affinity_domain(dev) : want;
  p->nsub = domain_groups(dev, p->domain, p->sub_of_core);
}

/* A sub-device of parent made of the parent's cores whose plan entry is sub. */
static cl_device_id device_new_sub(cl_device_id parent, const partition_plan *plan, unsigned sub,
                                   const cl_device_partition_property *props)
{
  struct _cl_device_id *d = malloc(sizeof(*d));
  if (!d)
    return NULL;
  /* The description: every field from `name` on, which no thread changes
   * once the device is handed out.  Not `*d = *parent`: other threads may
   * meanwhile retain or release the parent, create its worker pool
   * (rt_device_pool, under pool_lock) or hold pool_lock; what differs is
   * set below. */
  const size_t desc = offsetof(struct _cl_device_id, name);
  memset(d, 0, desc);
  memcpy((char *)d + desc, (const char *)parent + desc, sizeof(*d) - desc);
  d->cores = malloc(parent->compute_units * sizeof(int));
  d->partition_props = malloc(plan->nprops * sizeof(cl_device_partition_property));
  if (!d->cores || !d->partition_props) {
    free(d->cores);
    free(d->partition_props);
    free(d);
    return NULL;
  }
  d->compute_units = 0;
  for (unsigned i = 0; i < parent->compute_units; i++)
    if (plan->sub_of_core[i] == sub)
      d->cores[d->compute_units++] = parent->cores[i];
  memcpy(d->partition_props, props, plan->nprops * sizeof(cl_device_partition_property));
  if (props[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN)
    d->partition_props[1] = (cl_device_partition_property)plan->domain;  /* NEXT_PARTITIONABLE resolved */
  d->npartition_props = plan->nprops;
  d->affinity_domain = props[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN ? plan->domain : 0;
  d->parent = parent;
  d->pool = NULL;
  pthread_mutex_init(&d->pool_lock, NULL);
  rt_object_init(&d->obj, RT_DEVICE);
  rt_device_retain(parent);
  return d;
}

cl_int rt_device_partition(cl_device_id dev, const cl_device_partition_property *props, cl_device_id *out)
{
  partition_plan plan = {0};
  cl_int err = CL_SUCCESS;
  plan.sub_of_core = malloc(dev->compute_units * sizeof(unsigned));
  if (!plan.sub_of_core)
    return CL_OUT_OF_HOST_MEMORY;
  if (props[0] == CL_DEVICE_PARTITION_EQUALLY)
    plan_equally(dev, props, &plan);
  else if (props[0] == CL_DEVICE_PARTITION_BY_COUNTS)
    plan_by_counts(dev, props, &plan);
  else
    plan_by_affinity(dev, props, &plan);
  for (unsigned s = 0; s < plan.nsub; s++) {
    out[s] = device_new_sub(dev, &plan, s, props);
    if (!out[s]) {
      for (unsigned k = 0; k < s; k++)
        rt_device_release(out[k]);
      err = CL_OUT_OF_HOST_MEMORY;
      break;
    }
  }
  free(plan.sub_of_core);
  return err;
}

/* Allocation failures on demand, for the tests that include this header
 * (once per executable): the executable's malloc, calloc, realloc,
 * aligned_alloc, posix_memalign and memalign take precedence over the C
 * library's for every object of the process (the driver and the loader
 * included) and pass through to the next definition (the C library's, or
 * the sanitizer's).  The C library's strdup and friends allocate through
 * them too.
 *
 * fa_arm(n): the n-th allocation this thread makes from now on fails (n >= 1);
 * fa_disarm(): stops, and says whether an allocation failed meanwhile.
 * fa_count_start() / fa_count(): allocations made by any thread since.
 * fa_fail_strdup_of / _from: strdup of one string from one object fails. */
#ifndef LANECL_TESTS_FAILALLOC_H
#define LANECL_TESTS_FAILALLOC_H

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

static void *(*fa_real_malloc)(size_t);
static void *(*fa_real_calloc)(size_t, size_t);
static void *(*fa_real_realloc)(void *, size_t);
static void (*fa_real_free)(void *);
static void *(*fa_real_aligned_alloc)(size_t, size_t);
static int (*fa_real_posix_memalign)(void **, size_t, size_t);
static void *(*fa_real_memalign)(size_t, size_t);

/* dlsym may allocate while the pointers above are being looked up: those
 * allocations come from here and are never freed. */
static _Alignas(64) unsigned char fa_boot[1 << 16];
static size_t fa_boot_used;
static _Thread_local int fa_resolving;

static _Thread_local long fa_fail_at, fa_seen;
static _Thread_local int fa_hit;
static atomic_long fa_total;
static atomic_long fa_g_fail_at = -1, fa_g_seen;
static atomic_int fa_g_hit;

static void *fa_boot_alloc(size_t n)
{
  n = (n + 63) & ~(size_t)63;
  if (fa_boot_used + n > sizeof(fa_boot))
    return NULL;
  void *p = fa_boot + fa_boot_used;
  fa_boot_used += n;
  return p;
}

static int fa_is_boot(const void *p)
{
  return (const unsigned char *)p >= fa_boot && (const unsigned char *)p < fa_boot + sizeof(fa_boot);
}

static int fa_resolve(void)
{
  if (fa_real_memalign)
    return 1;
  if (fa_resolving)
    return 0;
  fa_resolving = 1;
  fa_real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
  fa_real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
  fa_real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
  fa_real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
  fa_real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
  fa_real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
  fa_real_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
  fa_resolving = 0;
  return 1;
}

/* Process-wide mode (fa_global_arm): the n-th allocation made straight
 * from the code of chosen objects (fa_watch_object), by any thread, fails. */
#define FA_MAX_RANGES 16
static uintptr_t fa_range_lo[FA_MAX_RANGES], fa_range_hi[FA_MAX_RANGES];
static atomic_int fa_nranges;

static int fa_watched(const void *ret)
{
  uintptr_t a = (uintptr_t)ret;
  int n = atomic_load_explicit(&fa_nranges, memory_order_acquire);
  for (int i = 0; i < n; i++)
    if (a >= fa_range_lo[i] && a < fa_range_hi[i])
      return 1;
  return 0;
}

/* The site of each watched allocation of a counting run (armed with 0), by
 * position: a hash of the return addresses of the allocation function
 * (which of them) and of the FA_SITE_FRAMES frames above it (its caller,
 * and the callers of an allocating helper).  The addresses are those of
 * this process: children forked from one parent share them.  Neither
 * function below is inlined, so the frames keep their places. */
#define FA_MAX_SITES 8192
#define FA_SITE_FRAMES 4
static uint64_t fa_g_site[FA_MAX_SITES];
static _Thread_local int fa_in_backtrace;

__attribute__((noinline)) static uint64_t fa_site_hash(void)
{
  void *frames[FA_SITE_FRAMES + 3];
  if (fa_in_backtrace)
    return 0;
  fa_in_backtrace = 1;
  int n = backtrace(frames, FA_SITE_FRAMES + 3);
  fa_in_backtrace = 0;
  uint64_t h = 1469598103934665603ull;
  for (int i = 2; i < n; i++) /* 0: this function, 1: fa_fail_at_ret, 2: malloc, ... */
    h = (h ^ (uint64_t)(uintptr_t)frames[i]) * 1099511628211ull;
  return h;
}

/* True when this allocation (called from ret) is to fail. */
__attribute__((noinline)) static int fa_fail_at_ret(const void *ret)
{
  atomic_fetch_add_explicit(&fa_total, 1, memory_order_relaxed);
  if (atomic_load_explicit(&fa_g_fail_at, memory_order_relaxed) >= 0 && fa_watched(ret)) {
    long n = atomic_fetch_add(&fa_g_seen, 1) + 1;
    if (atomic_load(&fa_g_fail_at) == 0 && n <= FA_MAX_SITES)
      fa_g_site[n - 1] = fa_site_hash();
    if (n == atomic_load(&fa_g_fail_at)) {
      atomic_store(&fa_g_hit, 1);
      return 1;
    }
  }
  if (!fa_fail_at)
    return 0;
  if (++fa_seen != fa_fail_at)
    return 0;
  fa_hit = 1;
  return 1;
}
#define fa_fail_now() fa_fail_at_ret(__builtin_return_address(0))

void *malloc(size_t n)
{
  if (!fa_resolve())
    return fa_boot_alloc(n);
  if (fa_fail_now()) {
    errno = ENOMEM;
    return NULL;
  }
  return fa_real_malloc(n);
}

void *calloc(size_t n, size_t size)
{
  if (!fa_resolve())
    return fa_boot_alloc(n * size); /* zero: static storage */
  if (fa_fail_now()) {
    errno = ENOMEM;
    return NULL;
  }
  return fa_real_calloc(n, size);
}

void free(void *p)
{
  if (!p || fa_is_boot(p))
    return;
  fa_resolve();
  fa_real_free(p);
}

void *realloc(void *p, size_t n)
{
  if (!fa_resolve() || fa_is_boot(p)) {
    void *q = fa_boot_alloc(n);
    if (q && p)
      __builtin_memcpy(q, p, n); /* boot blocks are at most the buffer's size */
    return q;
  }
  if (fa_fail_now()) {
    errno = ENOMEM;
    return NULL;
  }
  return fa_real_realloc(p, n);
}

void *aligned_alloc(size_t al, size_t n)
{
  fa_resolve();
  if (fa_fail_now()) {
    errno = ENOMEM;
    return NULL;
  }
  return fa_real_aligned_alloc(al, n);
}

void *memalign(size_t al, size_t n)
{
  fa_resolve();
  if (fa_fail_now()) {
    errno = ENOMEM;
    return NULL;
  }
  return fa_real_memalign(al, n);
}

int posix_memalign(void **out, size_t al, size_t n)
{
  fa_resolve();
  if (fa_fail_now())
    return ENOMEM;
  return fa_real_posix_memalign(out, al, n);
}

/* strdup and strndup fail for the string fa_fail_strdup_of when called from
 * an object whose path contains fa_fail_strdup_from (the caller's address:
 * LLVM's C API tail-calls strdup, so its caller shows), fa_strdup_failed
 * times so far. */
static const char *volatile fa_fail_strdup_of, *volatile fa_fail_strdup_from;
static atomic_int fa_strdup_failed;

static int fa_strdup_fails(const char *s, const void *ret)
{
  const char *of = fa_fail_strdup_of, *from = fa_fail_strdup_from;
  Dl_info info;
  if (!of || !from || __builtin_strcmp(s, of) || !dladdr(ret, &info) || !info.dli_fname ||
      !__builtin_strstr(info.dli_fname, from))
    return 0;
  atomic_fetch_add(&fa_strdup_failed, 1);
  return 1;
}

char *strndup(const char *s, size_t n)
{
  if (fa_strdup_fails(s, __builtin_return_address(0)) || fa_fail_at_ret(__builtin_return_address(0))) {
    errno = ENOMEM;
    return NULL;
  }
  size_t len = 0;
  while (len < n && s[len])
    len++;
  fa_resolve();
  char *p = fa_real_malloc(len + 1);
  if (p) {
    __builtin_memcpy(p, s, len);
    p[len] = 0;
  }
  return p;
}

char *strdup(const char *s)
{
  if (fa_strdup_fails(s, __builtin_return_address(0)) || fa_fail_at_ret(__builtin_return_address(0))) {
    errno = ENOMEM;
    return NULL;
  }
  size_t len = __builtin_strlen(s);
  fa_resolve();
  char *p = fa_real_malloc(len + 1);
  if (p)
    __builtin_memcpy(p, s, len + 1);
  return p;
}

static inline void fa_arm(long n)
{
  fa_seen = 0;
  fa_hit = 0;
  fa_fail_at = n;
}

static inline int fa_disarm(void)
{
  fa_fail_at = 0;
  return fa_hit;
}

#include <link.h>

static int fa_watch_cb(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  const char *name = data;
  if (!info->dlpi_name || !__builtin_strstr(info->dlpi_name, name))
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    int n = atomic_load(&fa_nranges);
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || n == FA_MAX_RANGES)
      continue;
    fa_range_lo[n] = info->dlpi_addr + ph->p_vaddr;
    fa_range_hi[n] = fa_range_lo[n] + ph->p_memsz;
    atomic_store_explicit(&fa_nranges, n + 1, memory_order_release);
  }
  return 0;
}

/* Watches the code of the loaded objects whose path contains name; false
 * when none is loaded.  Call while no allocation is armed. */
static inline int fa_watch_object(const char *name)
{
  int before = atomic_load(&fa_nranges);
  dl_iterate_phdr(fa_watch_cb, (void *)name);
  return atomic_load(&fa_nranges) > before;
}

/* Process-wide: the n-th watched allocation from now fails (n >= 1); 0:
 * none fails, only counted.  fa_global_count: watched allocations so far. */
static inline void fa_global_arm(long n)
{
  atomic_store(&fa_g_seen, 0);
  atomic_store(&fa_g_hit, 0);
  atomic_store(&fa_g_fail_at, n);
}

static inline long fa_global_count(void)
{
  return atomic_load(&fa_g_seen);
}

/* After a counting run: the site of watched allocation n (1-based, n <=
 * FA_MAX_SITES).  fa_site_prime: backtrace's first use loads libgcc_s
 * (allocating); call it once before arming. */
static inline uint64_t fa_global_site(long n)
{
  return fa_g_site[n - 1];
}

static inline void fa_site_prime(void)
{
  (void)fa_site_hash();
}

static inline int fa_global_hit(void)
{
  return atomic_load(&fa_g_hit);
}

static long fa_count_base;
static inline void fa_count_start(void)
{
  fa_count_base = atomic_load(&fa_total);
}

static inline long fa_count(void)
{
  return atomic_load(&fa_total) - fa_count_base;
}

#endif

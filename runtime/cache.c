/* The on-disk cache of built executables.
 *
 * An entry is a program container (compiler/lanecl_cc.h) in
 * <dir>/<key>.lclb.  The key hashes everything the executable depends on:
 * the source, the options, the compiler (its version and the identity of
 * liblanecl_cc.so), the builtins library (size, mtime and content of
 * lanecl_builtins.bc) and the device (CPU name, features, SIMD width).  The
 * lookup needs none of the compiler, so a cached program builds without
 * loading LLVM.  Entries are written to a temporary file and renamed into
 * place, so processes that build the same program at once never see half an
 * entry; an entry that doesn't read back (truncated, corrupt, another
 * device) is removed and rebuilt. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/rt_program.h"

#define CACHE_FORMAT "lanecl-cache-1"
#define FNV_SEED_A 0xcbf29ce484222325ull
#define FNV_SEED_B 0x84222325cbf29ce4ull

/* ---- where things are ---- */

static char library_dir[PATH_MAX];
static pthread_once_t library_dir_once = PTHREAD_ONCE_INIT;

static void find_library_dir(void)
{
  Dl_info info;
  if (dladdr((void *)&find_library_dir, &info) && info.dli_fname) {
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s", info.dli_fname);
    snprintf(library_dir, sizeof(library_dir), "%s", dirname(path));
  } else {
    snprintf(library_dir, sizeof(library_dir), ".");
  }
}

const char *rt_library_dir(void)
{
  pthread_once(&library_dir_once, find_library_dir);
  return library_dir;
}

/* The first of <libdir>/name, <libdir>/lanecl/name that exists; false when none. */
static bool find_beside_library(const char *name, char *out, size_t out_size)
{
  const char *dir = rt_library_dir();
  const char *fmts[] = {"%s/%s", "%s/lanecl/%s"};
  for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
    snprintf(out, out_size, fmts[i], dir, name);
    if (access(out, R_OK) == 0)
      return true;
  }
  return false;
}

/* ---- identities of the compiler and the builtins, computed once ---- */

typedef struct file_id {
  uint64_t size, mtime_ns, content;
} file_id;

static file_id compiler_id, builtins_id;
static pthread_once_t ids_once = PTHREAD_ONCE_INIT;

static void stat_id(const char *path, file_id *id)
{
  struct stat st;
  if (stat(path, &st) == 0) {
    id->size = (uint64_t)st.st_size;
    id->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec;
  }
}

/* The builtins library in shards (CC_BUILTINS_MAGIC, compiler/cc_internal.h)
 * ends in the FNV-1a 64 of its content: read instead of hashing 5 MB (6 to
 * 40 ms in each process's first clBuildProgram, cached or not). */
#define BUILTINS_SHARDS_MAGIC "LANECLBS"

static bool stored_checksum(FILE *f, file_id *id)
{
  unsigned char head[8], tail[8];
  if (fread(head, 1, 8, f) != 8 || memcmp(head, BUILTINS_SHARDS_MAGIC, 8) || id->size < 28 ||
      fseek(f, -8, SEEK_END) || fread(tail, 1, 8, f) != 8)
    return false;
  id->content = 0;
  for (int i = 0; i < 8; i++)
    id->content |= (uint64_t)tail[i] << (8 * i);
  return true;
}

static void hash_file_content(const char *path, file_id *id)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return;
  if (stored_checksum(f, id) || fseek(f, 0, SEEK_SET)) {
    fclose(f);
    return;
  }
  uint64_t h = FNV_SEED_A;
  unsigned char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
    h = cc_hash64(buf, n, h);
  fclose(f);
  id->content = h;
}

static void compute_ids(void)
{
  char path[PATH_MAX + 32];
  const char *cc = rt_env("COMPILER");
  if (cc)
    stat_id(cc, &compiler_id);
  else if (find_beside_library("liblanecl_cc.so", path, sizeof(path)))
    stat_id(path, &compiler_id);
  if (find_beside_library("lanecl_builtins.bc", path, sizeof(path))) {
    stat_id(path, &builtins_id);
    hash_file_content(path, &builtins_id);
  }
}

/* ---- keys ---- */

typedef struct hasher {
  uint64_t a, b;
} hasher;

static void hash_bytes(hasher *h, const void *p, size_t n)
{
  uint64_t len = n;
  h->a = cc_hash64(&len, sizeof(len), h->a);
  h->b = cc_hash64(&len, sizeof(len), h->b);
  h->a = cc_hash64(p, n, h->a);
  h->b = cc_hash64(p, n, h->b);
}

static void hash_str(hasher *h, const char *s)
{
  hash_bytes(h, s ? s : "", s ? strlen(s) : 0);
}

static void hash_device(hasher *h, const cc_device_desc *dev)
{
  uint64_t simd = dev->simd_bits, wg = dev->max_work_group_size;
  hash_str(h, dev->cpu_name);
  hash_str(h, dev->cpu_features);
  hash_bytes(h, &simd, sizeof(simd));
  hash_bytes(h, &wg, sizeof(wg));
  hash_str(h, dev->cl_ext);
}

static char cache_dir[PATH_MAX];
static bool cache_on;
static pthread_once_t cache_dir_once = PTHREAD_ONCE_INIT;

static bool make_dirs(char *path)
{
  for (char *p = path + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = 0;
    int r = mkdir(path, 0700);
    *p = '/';
    if (r != 0 && errno != EEXIST)
      return false;
  }
  return mkdir(path, 0700) == 0 || errno == EEXIST;
}

static void find_cache_dir(void)
{
  const char *env = rt_env("CACHE_DIR");
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (env && !strcmp(env, "off"))
    return;
  if (env)
    snprintf(cache_dir, sizeof(cache_dir), "%s", env);
  else if (xdg && *xdg)
    snprintf(cache_dir, sizeof(cache_dir), "%s/lanecl", xdg);
  else if (home && *home)
    snprintf(cache_dir, sizeof(cache_dir), "%s/.cache/lanecl", home);
  else
    return;
  if (!make_dirs(cache_dir)) {
    rt_log(RT_LOG_BUILD, "cache: can't create %s (%s); cache off", cache_dir, strerror(errno));
    return;
  }
  cache_on = true;
  rt_log(RT_LOG_BUILD, "cache: %s", cache_dir);
}

bool rt_cache_key_for(const cc_device_desc *dev, const char *source, const char *options,
                      rt_cache_key *key)
{
  pthread_once(&cache_dir_once, find_cache_dir);
  if (!cache_on)
    return false;
  pthread_once(&ids_once, compute_ids);
  hasher h = {FNV_SEED_A, FNV_SEED_B};
  hash_str(&h, CACHE_FORMAT);
  hash_str(&h, LANECL_VERSION);
  hash_bytes(&h, &compiler_id, sizeof(compiler_id));
  hash_bytes(&h, &builtins_id, sizeof(builtins_id));
  hash_device(&h, dev);
  hash_str(&h, options);
  hash_str(&h, source);
  key->h[0] = h.a;
  key->h[1] = h.b;
  return true;
}

static void entry_path(const rt_cache_key *key, char *out, size_t size)
{
  snprintf(out, size, "%s/%016" PRIx64 "%016" PRIx64 ".lclb", cache_dir, key->h[0], key->h[1]);
}

static bool read_file(const char *path, cc_blob *out)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  struct stat st;
  bool ok = false;
  if (fstat(fd, &st) != 0 || st.st_size <= 0)
    goto close_fd;
  out->size = (size_t)st.st_size;
  out->data = malloc(out->size);
  if (!out->data)
    goto close_fd;
  size_t got = 0;
  while (got < out->size) {
    ssize_t r = read(fd, (char *)out->data + got, out->size - got);
    if (r <= 0)
      break;
    got += (size_t)r;
  }
  ok = got == out->size;
  if (!ok) {
    free(out->data);
    out->data = NULL;
    out->size = 0;
  }
close_fd:
  close(fd);
  return ok;
}

bool rt_cache_lookup(const rt_cache_key *key, uint64_t device_key, cc_blob *out)
{
  char path[PATH_MAX + 64];
  entry_path(key, path, sizeof(path));
  cc_blob blob = {0};
  if (!read_file(path, &blob))
    return false;
  cc_binary bin;
  if (cc_binary_read(blob.data, blob.size, &bin) != CC_OK) {
    rt_log(RT_LOG_BUILD, "cache: %s is corrupt; removed, rebuilding", path);
    goto remove_entry;
  }
  bool fits = bin.kind == CC_BIN_EXECUTABLE && bin.device_key == device_key && bin.native.size > 0;
  cc_binary_free(&bin);
  if (!fits) {
    rt_log(RT_LOG_BUILD, "cache: %s is not an executable for this device; removed", path);
    goto remove_entry;
  }
  rt_log(RT_LOG_BUILD, "cache: hit %s", path);
  *out = blob;
  return true;
remove_entry:
  unlink(path);
  cc_blob_free(&blob);
  return false;
}

void rt_cache_store(const rt_cache_key *key, const cc_blob *blob)
{
  static atomic_uint serial;
  char path[PATH_MAX + 64], tmp[PATH_MAX + 128];
  entry_path(key, path, sizeof(path));
  snprintf(tmp, sizeof(tmp), "%s.%d.%u.tmp", path, (int)getpid(), atomic_fetch_add(&serial, 1));
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    rt_log(RT_LOG_BUILD, "cache: can't write %s (%s)", tmp, strerror(errno));
    return;
  }
  size_t done = 0;
  while (done < blob->size) {
    ssize_t w = write(fd, (const char *)blob->data + done, blob->size - done);
    if (w <= 0)
      break;
    done += (size_t)w;
  }
  bool ok = close(fd) == 0 && done == blob->size;
  if (ok && rename(tmp, path) == 0) {
    rt_log(RT_LOG_BUILD, "cache: stored %s", path);
    return;
  }
  rt_log(RT_LOG_BUILD, "cache: can't store %s (%s)", path, strerror(errno));
  unlink(tmp);
}

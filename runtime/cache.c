/* The on-disk cache of built executables.
 *
 * An entry is <dir>/<name>.lclb: a header that names the entry's full key,
 * then a program container (compiler/lanecl_cc.h).  The key is every thing
 * the executable depends on, each hashed to 128 bits: the source, the
 * options, the device (the host CPU's signature, the CPU name, features,
 * SIMD width, work-group size and extensions asked for, LANECL_LLVM_ARGS),
 * the compiler (the ELF build id of liblanecl_cc.so), the builtins library
 * (the checksum of its content), the runtime (the build id of liblanecl.so)
 * and the LaneCL version; the file's name is a hash of them
 * all.  The lookup needs none of the compiler, so a cached program builds
 * without loading LLVM.
 *
 * Safe by construction:
 *  - an entry is used only when its header names exactly the key asked for
 *    and its checksum (over header key and container) matches: an entry of
 *    another program under this name, a stale or damaged one, is ignored,
 *    the program is compiled and the new entry replaces it;
 *  - only regular files are read, opened without following a link and
 *    without blocking (a FIFO in place of an entry can't hang a build), the
 *    type checked on the open descriptor, the size bounded;
 *  - entries are written to a temporary file and renamed into place, so
 *    processes that build the same program at once never see half an entry,
 *    and a replaced entry is replaced atomically;
 *  - the directory is bounded (LANECL_CACHE_MAX_MB, default 1024): a store
 *    that takes it past the bound evicts the least recently used entries
 *    (a hit refreshes an entry's modification time) down to 3/4 of it.
 *
 * Entry layout (little-endian): "LCLCACHE", u32 format, u32 header bytes,
 * u64 container bytes, u64 checksum (cc_hash64 of the key fields then the
 * container, seed 0), 14 x u64 key (rt_cache_key: name, source, options,
 * device, compiler, builtins, runtime), then the container. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "runtime/rt_program.h"

#define CACHE_FORMAT "lanecl-cache-2"
#define ENTRY_MAGIC "LCLCACHE"
#define ENTRY_VERSION 2u
#define ENTRY_KEY_WORDS 14u
#define ENTRY_HEADER (8u + 4u + 4u + 8u + 8u + ENTRY_KEY_WORDS * 8u)
#define FNV_SEED_A 0xcbf29ce484222325ull
#define FNV_SEED_B 0x84222325cbf29ce4ull
#define STALE_TMP_SECONDS 3600

/* ---- where things are ---- */

static char library_dir[PATH_MAX];
static char library_path[PATH_MAX];
static pthread_once_t library_dir_once = PTHREAD_ONCE_INIT;

static void find_library_dir(void)
{
  Dl_info info;
  if (dladdr((void *)&find_library_dir, &info) && info.dli_fname) {
    char path[PATH_MAX];
    snprintf(library_path, sizeof(library_path), "%s", info.dli_fname);
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

/* ---- identities of the compiler, the builtins and the runtime ---- */

/* 128 bits that change when the file's content does. */
typedef struct file_id {
  uint64_t h[2];
} file_id;

static file_id compiler_id, builtins_id, runtime_id;
static pthread_once_t ids_once = PTHREAD_ONCE_INIT;

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

static bool read_at(int fd, void *buf, size_t n, off_t at)
{
  size_t got = 0;
  while (got < n) {
    ssize_t r = pread(fd, (char *)buf + got, n - got, at + (off_t)got);
    if (r <= 0)
      return false;
    got += (size_t)r;
  }
  return true;
}

/* The GNU build id of an ELF64 file (its PT_NOTE segments), into h; false
 * when it has none. */
static bool elf_build_id(int fd, hasher *h)
{
  Elf64_Ehdr eh;
  if (!read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 64)
    return false;
  for (unsigned i = 0; i < eh.e_phnum; i++) {
    Elf64_Phdr ph;
    if (!read_at(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))))
      return false;
    if (ph.p_type != PT_NOTE || ph.p_filesz > 4096)
      continue;
    unsigned char notes[4096];
    if (!read_at(fd, notes, ph.p_filesz, (off_t)ph.p_offset))
      return false;
    for (size_t at = 0; at + sizeof(Elf64_Nhdr) <= ph.p_filesz;) {
      Elf64_Nhdr nh;
      memcpy(&nh, notes + at, sizeof(nh));
      size_t name_at = at + sizeof(nh), desc_at = name_at + ((nh.n_namesz + 3u) & ~3u);
      size_t next = desc_at + ((nh.n_descsz + 3u) & ~3u);
      if (next > ph.p_filesz || next <= at)
        break;
      if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(notes + name_at, "GNU", 4) && nh.n_descsz) {
        hash_str(h, "build-id");
        hash_bytes(h, notes + desc_at, nh.n_descsz);
        return true;
      }
      at = next;
    }
  }
  return false;
}

/* The builtins library in shards (CC_BUILTINS_MAGIC, compiler/cc_internal.h)
 * ends in the FNV-1a 64 of its content: read instead of hashing 5 MB (6 to
 * 40 ms in each process's first clBuildProgram, cached or not). */
#define BUILTINS_SHARDS_MAGIC "LANECLBS"

static bool stored_checksum(int fd, uint64_t size, hasher *h)
{
  unsigned char head[8], tail[8];
  if (size < 28 || !read_at(fd, head, 8, 0) || memcmp(head, BUILTINS_SHARDS_MAGIC, 8) ||
      !read_at(fd, tail, 8, (off_t)size - 8))
    return false;
  hash_str(h, "stored checksum");
  hash_bytes(h, tail, 8);
  return true;
}

/* An identity of the file at path: for an ELF object its build id, for the
 * builtins library its stored checksum, else a hash of its content; always
 * with its size.  Zero when it can't be read (no cache then: see
 * rt_cache_key_for). */
static void file_identity(const char *path, file_id *id)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0)
    return;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return;
  }
  uint64_t size = (uint64_t)st.st_size;
  hasher h = {FNV_SEED_A, FNV_SEED_B};
  hash_bytes(&h, &size, sizeof(size));
  if (!elf_build_id(fd, &h) && !stored_checksum(fd, size, &h)) {
    hash_str(&h, "content");
    unsigned char buf[65536];
    ssize_t n;
    off_t at = 0;
    while ((n = pread(fd, buf, sizeof(buf), at)) > 0) {
      hash_bytes(&h, buf, (size_t)n);
      at += n;
    }
    if (n < 0) {
      close(fd);
      return;
    }
  }
  close(fd);
  id->h[0] = h.a;
  id->h[1] = h.b;
}

static void compute_ids(void)
{
  char path[PATH_MAX + 32];
  const char *cc = lc_config_str(LC_COMPILER);
  if (cc)
    file_identity(cc, &compiler_id);
  else if (find_beside_library("liblanecl_cc.so", path, sizeof(path)))
    file_identity(path, &compiler_id);
  if (find_beside_library("lanecl_builtins.bc", path, sizeof(path)))
    file_identity(path, &builtins_id);
  rt_library_dir();
  if (library_path[0])
    file_identity(library_path, &runtime_id);
}

static bool id_known(const file_id *id)
{
  return id->h[0] || id->h[1];
}

/* ---- keys ---- */

static void hash_device(hasher *h, const cc_device_desc *dev)
{
  /* The host CPU too: without a CPU name or features of the device's own,
   * the compiler targets the host's, and even with them the host decides
   * what is left out (never wider than the host). */
  uint64_t simd = dev->simd_bits, wg = dev->max_work_group_size, host = rt_host_cpu_signature();
  hash_bytes(h, &host, sizeof(host));
  hash_str(h, dev->cpu_name);
  hash_str(h, dev->cpu_features);
  hash_bytes(h, &simd, sizeof(simd));
  hash_bytes(h, &wg, sizeof(wg));
  hash_str(h, dev->cl_ext);
  /* LANECL_LLVM_ARGS changes what LLVM makes of a program */
  hash_str(h, lc_config_str(LC_LLVM_ARGS));
  /* and so does LANECL_CC_VECMATH */
  hash_str(h, lc_config_str(LC_CC_VECMATH));
}

static char cache_dir[PATH_MAX];
static bool cache_on;
static uint64_t cache_max_bytes;
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
  const char *env = lc_config_str(LC_CACHE_DIR);
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
  /* The directory must be ours: entries run as code in this process. */
  struct stat st;
  if (stat(cache_dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
    rt_err("cache: %s is not a directory of this user; cache off", cache_dir);
    return;
  }
  unsigned long long mb = lc_config_num(LC_CACHE_MAX_MB); /* 1..2^30; a bad value: the default */
  cache_max_bytes = (uint64_t)mb << 20;
  cache_on = true;
  rt_log(RT_LOG_BUILD, "cache: %s (at most %llu MiB)", cache_dir, mb);
}

/* Skips blanks, backslash-newlines and comments inside a directive line. */
static const char *skip_directive_space(const char *p)
{
  for (;;) {
    if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v')
      p++;
    else if (p[0] == '\\' && p[1] == '\n')
      p += 2;
    else if (p[0] == '\\' && p[1] == '\r' && p[2] == '\n')
      p += 3;
    else if (p[0] == '/' && p[1] == '*') {
      const char *e = strstr(p + 2, "*/");
      if (!e)
        return p + strlen(p);
      p = e + 2;
    } else
      return p;
  }
}

static bool word_at(const char *p, const char *w)
{
  size_t n = strlen(w);
  return !strncmp(p, w, n) && !(isalnum((unsigned char)p[n]) || p[n] == '_');
}

/* Whether compiling source may read other files: an #include (#import,
 * #include_next, #embed) directive, a __has_include or __has_embed test, or
 * an -include / -imacros option.  The key holds the source and the options,
 * not those files, so such a program is not cached: an edited header
 * would otherwise give the old program (and a header of the same name in
 * another directory, another application's). */
static bool reads_other_files(const char *source, const char *options)
{
  if (options && (strstr(options, "-include") || strstr(options, "-imacros")))
    return true;
  if (strstr(source, "__has_include") || strstr(source, "__has_embed"))
    return true;
  bool line_start = true;
  for (const char *p = source; *p; p++) {
    if (*p == '\n') {
      line_start = true;
      continue;
    }
    if (!line_start)
      continue;
    const char *q = skip_directive_space(p);
    line_start = false;
    if (*q == '#' || (q[0] == '%' && q[1] == ':')) { /* %: is the digraph of # */
      q = skip_directive_space(q + (*q == '#' ? 1 : 2));
      if (word_at(q, "include") || word_at(q, "include_next") || word_at(q, "import") || word_at(q, "embed"))
        return true;
    }
    p = *q ? q : q - 1;
    if (*q == '\n')
      line_start = true;
  }
  return false;
}

/* The key of a program whose source part hashes to h (the rest: the
 * options, the device, the compiler, builtins and runtime). */
static bool key_finish(hasher h, const cc_device_desc *dev, const char *options, rt_cache_key *key)
{
  pthread_once(&ids_once, compute_ids);
  /* Without an identity of the compiler, the builtins and the runtime an
   * entry can't be told stale: no cache. */
  if (!id_known(&compiler_id) || !id_known(&builtins_id) || !id_known(&runtime_id))
    return false;
  memset(key, 0, sizeof(*key));
  key->source[0] = h.a, key->source[1] = h.b;
  h = (hasher){FNV_SEED_A, FNV_SEED_B};
  hash_str(&h, options);
  key->options[0] = h.a, key->options[1] = h.b;
  h = (hasher){FNV_SEED_A, FNV_SEED_B};
  hash_device(&h, dev);
  key->device[0] = h.a, key->device[1] = h.b;
  memcpy(key->compiler, compiler_id.h, sizeof(key->compiler));
  memcpy(key->builtins, builtins_id.h, sizeof(key->builtins));
  h = (hasher){FNV_SEED_A, FNV_SEED_B};
  hash_str(&h, CACHE_FORMAT);
  hash_str(&h, LANECL_VERSION);
  hash_bytes(&h, runtime_id.h, sizeof(runtime_id.h));
  key->runtime[0] = h.a, key->runtime[1] = h.b;
  /* The name: all of the above. */
  h = (hasher){FNV_SEED_A, FNV_SEED_B};
  hash_bytes(&h, key->source, sizeof(*key) - offsetof(rt_cache_key, source));
  key->h[0] = h.a;
  key->h[1] = h.b;
  return true;
}

bool rt_cache_key_for(const cc_device_desc *dev, const char *source, const char *options,
                      rt_cache_key *key)
{
  pthread_once(&cache_dir_once, find_cache_dir);
  if (!cache_on)
    return false;
  if (reads_other_files(source, options)) {
    rt_log(RT_LOG_BUILD, "cache: not used: the program includes other files (the key would not cover them)");
    return false;
  }
  hasher h = {FNV_SEED_A, FNV_SEED_B};
  hash_str(&h, source);
  return key_finish(h, dev, options, key);
}

bool rt_cache_key_for_binary(const cc_device_desc *dev, const cc_blob *binary, rt_cache_key *key)
{
  pthread_once(&cache_dir_once, find_cache_dir);
  if (!cache_on)
    return false;
  /* Apart from every source: the tag's NUL byte is one no source holds. */
  hasher h = {FNV_SEED_A, FNV_SEED_B};
  hash_bytes(&h, "binary", 7);
  hash_bytes(&h, binary->data, binary->size);
  /* no options: an executable's code depends on its bytes alone */
  return key_finish(h, dev, "", key);
}

static void entry_path(const rt_cache_key *key, char *out, size_t size)
{
  snprintf(out, size, "%s/%016" PRIx64 "%016" PRIx64 ".lclb", cache_dir, key->h[0], key->h[1]);
}

/* ---- the entry format ---- */

static void put_u32(unsigned char *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
  uint32_t v = 0;
  for (int i = 0; i < 4; i++)
    v |= (uint32_t)p[i] << (8 * i);
  return v;
}

static uint64_t get_u64(const unsigned char *p)
{
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static void key_words(const rt_cache_key *key, uint64_t w[ENTRY_KEY_WORDS])
{
  _Static_assert(sizeof(rt_cache_key) == ENTRY_KEY_WORDS * 8, "rt_cache_key is the entry's key words");
  memcpy(w, key, sizeof(*key));
}

static void make_header(const rt_cache_key *key, const cc_blob *blob, unsigned char *hdr)
{
  uint64_t w[ENTRY_KEY_WORDS];
  key_words(key, w);
  memcpy(hdr, ENTRY_MAGIC, 8);
  put_u32(hdr + 8, ENTRY_VERSION);
  put_u32(hdr + 12, ENTRY_HEADER);
  put_u64(hdr + 16, blob->size);
  for (unsigned i = 0; i < ENTRY_KEY_WORDS; i++)
    put_u64(hdr + 32 + 8 * i, w[i]);
  uint64_t sum = cc_hash64(hdr + 32, ENTRY_KEY_WORDS * 8, 0);
  sum = cc_hash64(blob->data, blob->size, sum);
  put_u64(hdr + 24, sum);
}

/* Reads the entry at path into *out (the container only) when it is a
 * regular file naming exactly key, whole, its checksum right.  *why says why
 * not (NULL: there is no entry). */
static bool read_entry(const char *path, const rt_cache_key *key, cc_blob *out, const char **why)
{
  *why = NULL;
  /* No link followed, no blocking on a FIFO or a device: the type is checked
   * on what was opened. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    if (errno != ENOENT)
      *why = errno == ELOOP ? "a symbolic link" : "can't be opened";
    return false;
  }
  struct stat st;
  bool ok = false;
  unsigned char hdr[ENTRY_HEADER];
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *why = "not a regular file";
    goto close_fd;
  }
  uint64_t size = (uint64_t)st.st_size;
  if (size < ENTRY_HEADER || size > cache_max_bytes || !read_at(fd, hdr, ENTRY_HEADER, 0)) {
    *why = "too short or too large";
    goto close_fd;
  }
  if (memcmp(hdr, ENTRY_MAGIC, 8) || get_u32(hdr + 8) != ENTRY_VERSION || get_u32(hdr + 12) != ENTRY_HEADER ||
      get_u64(hdr + 16) != size - ENTRY_HEADER) {
    *why = "not an entry of this format, or truncated";
    goto close_fd;
  }
  uint64_t w[ENTRY_KEY_WORDS];
  key_words(key, w);
  for (unsigned i = 0; i < ENTRY_KEY_WORDS; i++) {
    if (get_u64(hdr + 32 + 8 * i) != w[i]) {
      *why = "the entry of another program, options, device, compiler, builtins or runtime";
      goto close_fd;
    }
  }
  out->size = (size_t)(size - ENTRY_HEADER);
  out->data = malloc(out->size ? out->size : 1);
  if (!out->data) {
    *why = "out of host memory";
    goto close_fd;
  }
  if (!read_at(fd, out->data, out->size, ENTRY_HEADER)) {
    *why = "can't be read";
    goto free_blob;
  }
  uint64_t sum = cc_hash64(hdr + 32, ENTRY_KEY_WORDS * 8, 0);
  if (cc_hash64(out->data, out->size, sum) != get_u64(hdr + 24)) {
    *why = "damaged (checksum)";
    goto free_blob;
  }
  ok = true;
  /* Recently used: eviction goes by modification time. */
  futimens(fd, NULL);
  goto close_fd;
free_blob:
  free(out->data);
  out->data = NULL;
  out->size = 0;
close_fd:
  close(fd);
  return ok;
}

bool rt_cache_lookup(const rt_cache_key *key, uint64_t device_key, cc_blob *out)
{
  char path[PATH_MAX + 64];
  entry_path(key, path, sizeof(path));
  cc_blob blob = {0};
  const char *why;
  if (!read_entry(path, key, &blob, &why)) {
    if (why)
      rt_log(RT_LOG_BUILD, "cache: %s ignored (%s); compiling, the new entry replaces it", path, why);
    return false;
  }
  cc_binary bin;
  if (cc_binary_read(blob.data, blob.size, &bin) != CC_OK) {
    rt_log(RT_LOG_BUILD, "cache: %s is not a valid container; compiling, the new entry replaces it", path);
    cc_blob_free(&blob);
    return false;
  }
  bool fits = bin.kind == CC_BIN_EXECUTABLE && bin.device_key == device_key;  /* whole or staged */
  cc_binary_free(&bin);
  if (!fits) {
    rt_log(RT_LOG_BUILD, "cache: %s is not an executable for this device; compiling", path);
    cc_blob_free(&blob);
    return false;
  }
  rt_log(RT_LOG_BUILD, "cache: hit %s", path);
  *out = blob;
  return true;
}

/* ---- eviction ---- */

typedef struct dir_entry {
  char name[64];
  uint64_t size;
  struct timespec mtime;
} dir_entry;

static int older_first(const void *a, const void *b)
{
  const dir_entry *x = a, *y = b;
  if (x->mtime.tv_sec != y->mtime.tv_sec)
    return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
  if (x->mtime.tv_nsec != y->mtime.tv_nsec)
    return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
  return strcmp(x->name, y->name);
}

static bool has_suffix(const char *s, const char *suffix)
{
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* Keeps the directory within cache_max_bytes: the least recently used
 * entries go (down to 3/4 of the bound); temporary files of writers that
 * died long ago go too.  Entries in use by other processes stay usable: a
 * process has read an entry whole before it uses it. */
static void evict(void)
{
  int dfd = open(cache_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return;
  DIR *d = fdopendir(dfd);
  if (!d) {
    close(dfd);
    return;
  }
  dir_entry *v = NULL;
  size_t n = 0, cap = 0;
  uint64_t total = 0;
  time_t now = time(NULL);
  for (struct dirent *e; (e = readdir(d));) {
    bool entry = has_suffix(e->d_name, ".lclb"), tmp = has_suffix(e->d_name, ".tmp");
    struct stat st;
    if ((!entry && !tmp) || fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue;
    if (tmp) {
      if (now - st.st_mtim.tv_sec > STALE_TMP_SECONDS)
        unlinkat(dfd, e->d_name, 0);
      continue;
    }
    total += (uint64_t)st.st_size;
    if (strlen(e->d_name) >= sizeof(v->name))
      continue;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 64;
      dir_entry *nv = realloc(v, ncap * sizeof(*v));
      if (!nv)
        break;
      v = nv;
      cap = ncap;
    }
    snprintf(v[n].name, sizeof(v[n].name), "%s", e->d_name);
    v[n].size = (uint64_t)st.st_size;
    v[n].mtime = st.st_mtim;
    n++;
  }
  if (total > cache_max_bytes && n) {
    qsort(v, n, sizeof(*v), older_first);
    uint64_t target = cache_max_bytes / 4 * 3;
    for (size_t i = 0; i < n && total > target; i++) {
      if (unlinkat(dfd, v[i].name, 0) == 0) {
        total -= v[i].size;
        rt_log(RT_LOG_BUILD, "cache: evicted %s (%llu bytes)", v[i].name, (unsigned long long)v[i].size);
      }
    }
  }
  free(v);
  closedir(d);
}

void rt_cache_store(const rt_cache_key *key, const cc_blob *blob)
{
  static atomic_uint serial;
  char path[PATH_MAX + 64], tmp[PATH_MAX + 128];
  if ((uint64_t)blob->size + ENTRY_HEADER > cache_max_bytes) {
    rt_log(RT_LOG_BUILD, "cache: a %zu-byte executable is beyond the cache's bound; not stored", blob->size);
    return;
  }
  entry_path(key, path, sizeof(path));
  snprintf(tmp, sizeof(tmp), "%s.%d.%u.tmp", path, (int)getpid(), atomic_fetch_add(&serial, 1));
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    rt_log(RT_LOG_BUILD, "cache: can't write %s (%s)", tmp, strerror(errno));
    return;
  }
  unsigned char hdr[ENTRY_HEADER];
  make_header(key, blob, hdr);
  struct iovec iov[2] = {{hdr, sizeof(hdr)}, {blob->data, blob->size}};
  size_t want = sizeof(hdr) + blob->size, done = 0;
  while (done < want) {
    ssize_t w = writev(fd, iov, 2);
    if (w <= 0)
      break;
    done += (size_t)w;
    /* Advance the vectors past what was written. */
    for (int i = 0; i < 2 && w > 0; i++) {
      size_t take = (size_t)w < iov[i].iov_len ? (size_t)w : iov[i].iov_len;
      iov[i].iov_base = (char *)iov[i].iov_base + take;
      iov[i].iov_len -= take;
      w -= (ssize_t)take;
    }
  }
  bool ok = close(fd) == 0 && done == want;
  /* rename replaces whatever has the name (a bad entry, a FIFO, a link)
   * atomically; readers see the old file or the new, whole. */
  if (ok && rename(tmp, path) == 0) {
    rt_log(RT_LOG_BUILD, "cache: stored %s", path);
    evict();
    return;
  }
  rt_log(RT_LOG_BUILD, "cache: can't store %s (%s)", path, strerror(errno));
  unlink(tmp);
}

/* The builtins library file (lanecl_builtins.bc): made at build time by
 * `lanecl-cc --prepare-builtins` (prepared with cc_prepare_builtins, then
 * split into shards), read and linked at run time by the back end.
 *
 * Loading the whole library (12k+ functions) lazily costs 20-50 ms per build
 * before a single function is linked, so it is split into shards of a few
 * dozen functions with an index of what each defines; a build links only the
 * shards that define what it lacks (about 0.5 ms for a kernel that needs a
 * few builtins).  The format is in cc_internal.h (CC_BUILTINS_MAGIC); a plain
 * bitcode file is accepted in its place and linked whole, lazily.
 */
#define _GNU_SOURCE
#include "compiler/cc_internal.h"
#include "config/lanecl_config.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

#define BUILTINS_NAME "lanecl_builtins.bc"

/* ==== Run time: the index, and linking what a module lacks ==== */

typedef struct builtin_sym {
  const char *name;
  uint32_t len;
  uint32_t shard;
} builtin_sym;

static pthread_once_t builtins_once = PTHREAD_ONCE_INIT;
static cc_blob builtins;      /* the file */
static int builtins_rc = CC_INTERNAL;
static uint32_t nshards, nsyms;
static const unsigned char **shard_data;
static size_t *shard_size;
static builtin_sym *syms;     /* sorted by name */

static uint64_t get_le(const unsigned char *p, int n)
{
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static int cmp_sym(const void *a, const void *b)
{
  const builtin_sym *x = a, *y = b;
  uint32_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->name, y->name, n);
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The shard index of a CC_BUILTINS_MAGIC file (0 when it is plain bitcode);
 * CC_INVALID_BINARY when it is damaged.  The trailing checksum is not
 * recomputed here: FNV-1a over the 5 MB file costs 6 ms (40 ms on a busy
 * machine) in every process that builds, and the runtime's cache key and the
 * version string use the stored value as the file's identity.  What is read
 * is bounds-checked, and a damaged shard fails to load as bitcode. */
static int builtins_index(void)
{
  const unsigned char *p = builtins.data;
  size_t size = builtins.size;
  if (size < 8 || memcmp(p, CC_BUILTINS_MAGIC, 8))
    return CC_OK;
  if (size < 28 || get_le(p + 8, 4) != CC_BUILTINS_VERSION)
    return CC_INVALID_BINARY;
  size_t end = size - 8, at = 20;
  uint32_t ns = (uint32_t)get_le(p + 12, 4), ny = (uint32_t)get_le(p + 16, 4);
  if (ns > (end - at) / 16)
    return CC_INVALID_BINARY;
  shard_data = calloc(ns ? ns : 1, sizeof(*shard_data));
  shard_size = calloc(ns ? ns : 1, sizeof(*shard_size));
  if (!shard_data || !shard_size)
    return CC_OUT_OF_MEMORY;
  for (uint32_t s = 0; s < ns; s++, at += 16) {
    uint64_t off = get_le(p + at, 8), n = get_le(p + at + 8, 8);
    if (off > end || n > end - off)
      return CC_INVALID_BINARY;
    shard_data[s] = p + off;
    shard_size[s] = (size_t)n;
  }
  if (ny > (end - at) / 8)
    return CC_INVALID_BINARY;
  syms = calloc(ny ? ny : 1, sizeof(*syms));
  if (!syms)
    return CC_OUT_OF_MEMORY;
  for (uint32_t i = 0; i < ny; i++) {
    if (end - at < 8)
      return CC_INVALID_BINARY;
    uint32_t shard = (uint32_t)get_le(p + at, 4), len = (uint32_t)get_le(p + at + 4, 4);
    at += 8;
    if (shard >= ns || len > end - at)
      return CC_INVALID_BINARY;
    syms[i] = (builtin_sym){(const char *)p + at, len, shard};
    at += len;
  }
  qsort(syms, ny, sizeof(*syms), cmp_sym);
  nshards = ns;
  nsyms = ny;
  return CC_OK;
}

static void builtins_load(void)
{
  const char *env = lc_config_str(LC_BUILTINS);
  if (env) {
    builtins_rc = cc_read_file(env, &builtins);
  } else {
    Dl_info info;
    if (!dladdr((void *)builtins_load, &info) || !info.dli_fname)
      return;
    char dir[PATH_MAX], path[PATH_MAX + 64];
    snprintf(dir, sizeof(dir), "%s", info.dli_fname);
    char *slash = strrchr(dir, '/');
    if (slash)
      *slash = 0;
    else
      snprintf(dir, sizeof(dir), ".");
    snprintf(path, sizeof(path), "%s/%s", dir, BUILTINS_NAME);
    builtins_rc = cc_read_file(path, &builtins);
    if (builtins_rc != CC_OK) {
      snprintf(path, sizeof(path), "%s/lanecl/%s", dir, BUILTINS_NAME);
      builtins_rc = cc_read_file(path, &builtins);
    }
  }
  if (builtins_rc == CC_OK)
    builtins_rc = builtins_index();
}

int cc_builtins_bytes(const void **data, size_t *size)
{
  pthread_once(&builtins_once, builtins_load);
  *data = builtins.data;
  *size = builtins.size;
  return builtins_rc;
}

/* The shard that defines name, or -1. */
static int64_t builtin_shard(const char *name, size_t len)
{
  builtin_sym key = {name, (uint32_t)len, 0};
  const builtin_sym *s = bsearch(&key, syms, nsyms, sizeof(*syms), cmp_sym);
  return s ? (int64_t)s->shard : -1;
}

/* A function the module calls but does not define (intrinsics aside). */
static int is_undefined_call(LLVMValueRef f)
{
  return LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f) && LLVMGetFirstUse(f);
}

/* Links bitcode (lazily: only the linkonce_odr definitions m reaches). */
static int link_lazy(LLVMModuleRef m, const void *data, size_t size, char **err)
{
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(data, size, BUILTINS_NAME, 0);
  LLVMModuleRef lib;
  /* The module owns buf from here (and LLVM frees it on failure). */
  if (LLVMGetBitcodeModuleInContext2(ctx, buf, &lib)) {
    cc_set_err(err, "error: LaneCL's builtins library (%s) does not load", BUILTINS_NAME);
    return CC_INTERNAL;
  }
  if (LLVMLinkModules2(m, lib)) {
    cc_set_err(err, "error: linking LaneCL's builtins library failed");
    return CC_BUILD_FAILED;
  }
  return CC_OK;
}

/* Marks the shards that define what m lacks; returns how many names of the
 * index m lacks, *set a hash of those names.  A shard may come again: its
 * lazy link brings only what was referenced then, and a later shard may
 * reference more of it. */
static uint32_t wanted_shards(LLVMModuleRef m, unsigned char *want, uint64_t *set)
{
  uint32_t n = 0;
  *set = 0;
  for (int pass = 0; pass < 2; pass++)
    for (LLVMValueRef g = pass ? LLVMGetFirstGlobal(m) : LLVMGetFirstFunction(m); g;
         g = pass ? LLVMGetNextGlobal(g) : LLVMGetNextFunction(g)) {
      if (pass ? !(LLVMIsDeclaration(g) && LLVMGetFirstUse(g)) : !is_undefined_call(g))
        continue;
      size_t len = 0;
      const char *name = LLVMGetValueName2(g, &len);
      int64_t s = builtin_shard(name, len);
      if (s >= 0) {
        want[s] = 1;
        *set += cc_hash64(name, len, 0);
        n++;
      }
    }
  return n;
}

int cc_link_builtins(LLVMModuleRef m, char **err)
{
  int needed = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !needed; f = LLVMGetNextFunction(f))
    needed = is_undefined_call(f);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g && !needed; g = LLVMGetNextGlobal(g))
    needed = LLVMIsDeclaration(g) && LLVMGetFirstUse(g);
  const void *data;
  size_t size;
  if (!needed || cc_builtins_bytes(&data, &size) != CC_OK)
    return CC_OK;
  if (!nshards)
    return link_lazy(m, data, size, err);
  /* Shards name each other's functions: link until every name the index
   * knows is defined.  A linked name stays defined, so the same missing set
   * twice means a damaged index: stop (cc_check_undefined reports). */
  unsigned char *want = calloc(nshards, 1);
  if (!want)
    return CC_OUT_OF_MEMORY;
  int rc = CC_OK;
  uint64_t set, last = 0;
  while (rc == CC_OK && wanted_shards(m, want, &set) && set != last) {
    last = set;
    for (uint32_t s = 0; s < nshards && rc == CC_OK; s++)
      if (want[s]) {
        rc = link_lazy(m, shard_data[s], shard_size[s], err);
        want[s] = 0;
      }
  }
  free(want);
  return rc;
}

/* ==== Build time: the library in shards ====
 *
 * A definition goes with every local
 * (internal/private) symbol it references, groups are ordered by name so
 * that overloads of a family (sin, sinDv4_f, ...) sit together, and packed
 * into shards.  A shard names the other shards' functions by declaration;
 * the runtime's link loads the shards that define what a module still
 * lacks, until nothing more is found (below).
 *
 * A shard is made by recursive halving: clone, then in each half the other
 * half's definitions become available_externally and elim-avail-extern +
 * globaldce drop them (bodies, and the local symbols only they used). */

#define SHARD_TARGET 48  /* defined functions per shard, a group is never cut */

typedef struct gv_map {   /* LLVMValueRef -> index, open addressing */
  LLVMValueRef *key;
  uint32_t *val;
  size_t cap;
} gv_map;

static size_t ptr_hash(LLVMValueRef v, size_t cap)
{
  uintptr_t x = (uintptr_t)v;
  x ^= x >> 17;
  x *= 0x9e3779b97f4a7c15ull;
  return (size_t)(x >> 7) & (cap - 1);
}

static void map_put(gv_map *m, LLVMValueRef v, uint32_t i)
{
  size_t h = ptr_hash(v, m->cap);
  while (m->key[h])
    h = (h + 1) & (m->cap - 1);
  m->key[h] = v;
  m->val[h] = i;
}

static int map_get(const gv_map *m, LLVMValueRef v, uint32_t *i)
{
  for (size_t h = ptr_hash(v, m->cap); m->key[h]; h = (h + 1) & (m->cap - 1))
    if (m->key[h] == v) {
      *i = m->val[h];
      return 1;
    }
  return 0;
}

typedef struct split_plan {
  LLVMValueRef *gv;     /* every function and global variable */
  uint32_t n;
  uint32_t *parent;     /* union-find over gv */
  int32_t *shard;       /* shard of a definition, -1 for declarations and dead code */
  gv_map map;
  uint32_t nshards;
  char **names;         /* name of gv[i] (malloc'd) */
  uint32_t *by_name;    /* gv indices sorted by name, for lookups in clones */
  unsigned char *exported; /* gv[i] is a non-local definition (gv[] dies with the split) */
} split_plan;

static uint32_t uf_find(uint32_t *p, uint32_t x)
{
  while (p[x] != x) {
    p[x] = p[p[x]];
    x = p[x];
  }
  return x;
}

static void uf_union(uint32_t *p, uint32_t a, uint32_t b)
{
  a = uf_find(p, a);
  b = uf_find(p, b);
  if (a != b)
    p[a < b ? b : a] = a < b ? a : b;
}

static int is_local(LLVMValueRef g)
{
  LLVMLinkage l = LLVMGetLinkage(g);
  return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

/* Unites `owner` with every local symbol that value v refers to. */
static void unite_refs(split_plan *p, uint32_t owner, LLVMValueRef v, int depth)
{
  uint32_t j;
  if (LLVMIsAGlobalValue(v)) {
    if (map_get(&p->map, v, &j) && is_local(v))
      uf_union(p->parent, owner, j);
    return;
  }
  if (!LLVMIsAConstant(v) || depth > 12)
    return;
  int n = LLVMGetNumOperands(v);
  for (int k = 0; k < n; k++)
    unite_refs(p, owner, LLVMGetOperand(v, (unsigned)k), depth + 1);
}

static const char *family_key(const char *name)
{
  /* _Z3sinDv4_f -> sinDv4_f: overloads sort next to each other */
  if (name[0] == '_' && name[1] == 'Z') {
    const char *q = name + 2;
    while (*q >= '0' && *q <= '9')
      q++;
    return q;
  }
  return name;
}

static int cmp_names(const void *a, const void *b, void *plan)
{
  const split_plan *p = plan;
  return strcmp(p->names[*(const uint32_t *)a], p->names[*(const uint32_t *)b]);
}

typedef struct group {
  uint32_t root;
  const char *key;
  uint32_t nfuncs;
} group;

static int cmp_groups(const void *a, const void *b)
{
  const group *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : (x->root < y->root ? -1 : x->root > y->root);
}

static void plan_free(split_plan *p)
{
  for (uint32_t i = 0; p->names && i < p->n; i++)
    free(p->names[i]);
  free(p->names);
  free(p->gv);
  free(p->parent);
  free(p->shard);
  free(p->map.key);
  free(p->map.val);
  free(p->by_name);
  free(p->exported);
}

static int plan_split(LLVMModuleRef m, split_plan *p)
{
  memset(p, 0, sizeof(*p));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    p->n++;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    p->n++;
  p->map.cap = 16;
  while (p->map.cap < 2 * (size_t)p->n + 2)
    p->map.cap *= 2;
  p->gv = calloc(p->n + 1, sizeof(*p->gv));
  p->parent = calloc(p->n + 1, sizeof(*p->parent));
  p->shard = calloc(p->n + 1, sizeof(*p->shard));
  p->names = calloc(p->n + 1, sizeof(*p->names));
  p->by_name = calloc(p->n + 1, sizeof(*p->by_name));
  p->exported = calloc(p->n + 1, 1);
  p->map.key = calloc(p->map.cap, sizeof(*p->map.key));
  p->map.val = calloc(p->map.cap, sizeof(*p->map.val));
  group *groups = calloc(p->n + 1, sizeof(*groups));
  if (!p->gv || !p->parent || !p->shard || !p->names || !p->by_name || !p->exported || !p->map.key ||
      !p->map.val || !groups) {
    free(groups);
    return CC_OUT_OF_MEMORY;
  }
  uint32_t i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    p->gv[i++] = f;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    p->gv[i++] = g;
  for (i = 0; i < p->n; i++) {
    size_t len = 0;
    const char *name = LLVMGetValueName2(p->gv[i], &len);
    if (!len) {  /* clones are matched by name: every symbol gets one */
      char anon[32];
      snprintf(anon, sizeof(anon), "__lanecl_anon.%u", i);
      LLVMSetValueName2(p->gv[i], anon, strlen(anon));
      name = LLVMGetValueName2(p->gv[i], &len);
    }
    if (!(p->names[i] = strndup(name, len))) {
      free(groups);
      return CC_OUT_OF_MEMORY;
    }
    p->parent[i] = i;
    p->shard[i] = -1;
    p->by_name[i] = i;
    p->exported[i] = !LLVMIsDeclaration(p->gv[i]) && !is_local(p->gv[i]);
    map_put(&p->map, p->gv[i], i);
  }
  /* Every definition with the local symbols it uses. */
  for (i = 0; i < p->n; i++) {
    LLVMValueRef v = p->gv[i];
    if (LLVMIsAFunction(v)) {
      for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(v); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
          int nops = LLVMGetNumOperands(in);
          for (int k = 0; k < nops; k++)
            unite_refs(p, i, LLVMGetOperand(in, (unsigned)k), 0);
        }
    } else if (!LLVMIsDeclaration(v) && LLVMGetInitializer(v)) {
      unite_refs(p, i, LLVMGetInitializer(v), 0);
    }
  }
  /* Groups that define something the outside can name, ordered by family. */
  uint32_t ng = 0;
  for (i = 0; i < p->n; i++)
    if (uf_find(p->parent, i) == i) {
      groups[ng].root = i;
      groups[ng].key = NULL;
      ng++;
    }
  for (i = 0; i < p->n; i++) {
    LLVMValueRef v = p->gv[i];
    if (LLVMIsDeclaration(v))
      continue;
    uint32_t r = uf_find(p->parent, i);
    group *g = NULL;
    for (uint32_t lo = 0, hi = ng; lo < hi;) {  /* groups are in root order */
      uint32_t mid = (lo + hi) / 2;
      if (groups[mid].root == r) {
        g = &groups[mid];
        break;
      }
      if (groups[mid].root < r)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (LLVMIsAFunction(v))
      g->nfuncs++;
    if (!is_local(v)) {
      const char *key = family_key(p->names[i]);
      if (!g->key || strcmp(key, g->key) < 0)
        g->key = key;
    }
  }
  uint32_t live = 0;
  for (uint32_t k = 0; k < ng; k++)
    if (groups[k].key)
      groups[live++] = groups[k];
  qsort(groups, live, sizeof(*groups), cmp_groups);
  /* Pack groups into shards; a root's shard is its group's. */
  int32_t *root_shard = malloc((p->n + 1) * sizeof(*root_shard));
  if (!root_shard) {
    free(groups);
    return CC_OUT_OF_MEMORY;
  }
  for (i = 0; i < p->n; i++)
    root_shard[i] = -1;
  uint32_t in_shard = 0;
  p->nshards = 0;
  for (uint32_t k = 0; k < live; k++) {
    if (p->nshards == 0 || in_shard >= SHARD_TARGET) {
      p->nshards++;
      in_shard = 0;
    }
    root_shard[groups[k].root] = (int32_t)(p->nshards - 1);
    in_shard += groups[k].nfuncs;
  }
  for (i = 0; i < p->n; i++)
    if (!LLVMIsDeclaration(p->gv[i]))
      p->shard[i] = root_shard[uf_find(p->parent, i)];
  free(root_shard);
  free(groups);
  qsort_r(p->by_name, p->n, sizeof(*p->by_name), cmp_names, p);
  return CC_OK;
}

/* The shard of the symbol of this name (-1 when none). */
static int32_t plan_shard(const split_plan *p, const char *name, size_t len)
{
  uint32_t lo = 0, hi = p->n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    const char *s = p->names[p->by_name[mid]];
    int c = strncmp(s, name, len);
    if (!c && s[len])
      c = 1;
    if (!c)
      return p->shard[p->by_name[mid]];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

/* Keeps the definitions of shards [lo, hi) in m: the others become
 * declarations, local symbols only they used go. */
static int keep_shards(LLVMModuleRef m, const split_plan *p, uint32_t lo, uint32_t hi, int final,
                       LLVMTargetMachineRef tm, char **err)
{
  LLVMValueRef g;
  for (int pass = 0; pass < 2; pass++)
    for (g = pass ? LLVMGetFirstGlobal(m) : LLVMGetFirstFunction(m); g;
         g = pass ? LLVMGetNextGlobal(g) : LLVMGetNextFunction(g)) {
      if (LLVMIsDeclaration(g))
        continue;
      size_t len = 0;
      const char *name = LLVMGetValueName2(g, &len);
      int32_t s = plan_shard(p, name, len);
      int member = s >= (int32_t)lo && s < (int32_t)hi;
      if (member)
        LLVMSetLinkage(g, is_local(g) ? LLVMGetLinkage(g) : LLVMExternalLinkage);
      else if (!is_local(g))
        LLVMSetLinkage(g, LLVMAvailableExternallyLinkage);
    }
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m, "elim-avail-extern,globaldce", tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    cc_set_err(err, "error: splitting the builtins library: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return CC_INTERNAL;
  }
  if (final)  /* what the shard defines is linked only where used */
    for (int pass = 0; pass < 2; pass++)
      for (g = pass ? LLVMGetFirstGlobal(m) : LLVMGetFirstFunction(m); g;
           g = pass ? LLVMGetNextGlobal(g) : LLVMGetNextFunction(g))
        if (!LLVMIsDeclaration(g) && !is_local(g))
          LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
  return CC_OK;
}

static int split_range(LLVMModuleRef m, const split_plan *p, uint32_t lo, uint32_t hi,
                       LLVMTargetMachineRef tm, cc_blob *blobs, char **err)
{
  int rc;
  if (hi - lo == 1) {
    rc = keep_shards(m, p, lo, hi, 1, tm, err);
    if (rc == CC_OK) {
      LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
      size_t n = LLVMGetBufferSize(buf);
      blobs[lo].data = malloc(n ? n : 1);
      if (blobs[lo].data) {
        memcpy(blobs[lo].data, LLVMGetBufferStart(buf), n);
        blobs[lo].size = n;
      } else {
        rc = CC_OUT_OF_MEMORY;
      }
      LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeModule(m);
    return rc;
  }
  uint32_t mid = lo + (hi - lo) / 2;
  LLVMModuleRef other = LLVMCloneModule(m);
  rc = keep_shards(m, p, lo, mid, 0, tm, err);
  if (rc == CC_OK)
    rc = keep_shards(other, p, mid, hi, 0, tm, err);
  if (rc != CC_OK) {
    LLVMDisposeModule(m);
    LLVMDisposeModule(other);
    return rc;
  }
  rc = split_range(m, p, lo, mid, tm, blobs, err);
  int rc2 = split_range(other, p, mid, hi, tm, blobs, err);
  return rc != CC_OK ? rc : rc2;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
  for (int i = 0; i < n; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* The container: see CC_BUILTINS_MAGIC in cc_internal.h. */
static int write_shards(const char *path, const split_plan *p, const cc_blob *blobs)
{
  size_t size = 8 + 4 + 4 + 4 + (size_t)p->nshards * 16;
  uint32_t nsym = 0;
  for (uint32_t i = 0; i < p->n; i++)
    if (p->shard[i] >= 0 && p->exported[i]) {
      size += 8 + strlen(p->names[i]);
      nsym++;
    }
  size_t data_at = size;
  for (uint32_t s = 0; s < p->nshards; s++)
    size += blobs[s].size;
  size += 8;
  unsigned char *out = malloc(size), *q = out;
  if (!out)
    return CC_OUT_OF_MEMORY;
  memcpy(q, CC_BUILTINS_MAGIC, 8);
  put_le(q + 8, CC_BUILTINS_VERSION, 4);
  put_le(q + 12, p->nshards, 4);
  put_le(q + 16, nsym, 4);
  q += 20;
  size_t at = data_at;
  for (uint32_t s = 0; s < p->nshards; s++) {
    put_le(q, at, 8);
    put_le(q + 8, blobs[s].size, 8);
    q += 16;
    at += blobs[s].size;
  }
  for (uint32_t i = 0; i < p->n; i++)
    if (p->shard[i] >= 0 && p->exported[i]) {
      size_t len = strlen(p->names[i]);
      put_le(q, (uint64_t)p->shard[i], 4);
      put_le(q + 4, len, 4);
      memcpy(q + 8, p->names[i], len);
      q += 8 + len;
    }
  for (uint32_t s = 0; s < p->nshards; s++) {
    memcpy(q, blobs[s].data, blobs[s].size);
    q += blobs[s].size;
  }
  put_le(q, cc_hash64(out, size - 8, 0), 8);
  int rc = cc_write_file(path, out, size);
  free(out);
  return rc;
}

int cc_prepare_builtins_file(const char *in, const char *out, char **log)
{
  cc_diag d = {0};
  cc_blob bytes;
  *log = NULL;
  if (cc_read_file(in, &bytes) != CC_OK) {
    cc_set_err(log, "error: cannot read %s", in);
    return CC_INTERNAL;
  }
  LLVMContextRef ctx = cc_context_create(&d);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bytes.data, bytes.size, in, 0);
  LLVMModuleRef m = NULL;
  int rc = CC_OK;
  if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
    cc_set_err(log, "error: %s is not LLVM bitcode: %s", in, d.text.s ? d.text.s : "");
    rc = CC_INVALID_BINARY;
    m = NULL;
  }
  LLVMDisposeMemoryBuffer(buf);
  cc_blob_free(&bytes);
  LLVMTargetMachineRef tm = rc == CC_OK ? cc_target_machine(NULL, 2) : NULL;
  if (rc == CC_OK && !tm) {
    cc_set_err(log, "error: no target machine for %s", cc_host_triple());
    rc = CC_INTERNAL;
  }
  double t = cc_now_ms();
  if (rc == CC_OK)
    rc = cc_prepare_builtins(m, tm, log);
  cc_timing("retarget", t);
  if (rc == CC_OK) {
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
      cc_set_err(log, "error: the prepared builtins library is invalid IR: %s", msg);
      rc = CC_INTERNAL;
    }
    LLVMDisposeMessage(msg);
  }
  split_plan plan = {0};
  cc_blob *blobs = NULL;
  t = cc_now_ms();
  if (rc == CC_OK)
    rc = plan_split(m, &plan);
  cc_timing("plan", t);
  if (rc == CC_OK && plan.nshards == 0) {
    cc_set_err(log, "error: %s defines no builtins", in);
    rc = CC_INVALID_BINARY;
  }
  if (rc == CC_OK && !(blobs = calloc(plan.nshards, sizeof(*blobs))))
    rc = CC_OUT_OF_MEMORY;
  t = cc_now_ms();
  if (rc == CC_OK) {
    rc = split_range(m, &plan, 0, plan.nshards, tm, blobs, log);
    m = NULL;  /* consumed */
  }
  cc_timing("split", t);
  if (rc == CC_OK && write_shards(out, &plan, blobs) != CC_OK) {
    cc_set_err(log, "error: cannot write %s", out);
    rc = CC_INTERNAL;
  }
  for (uint32_t s = 0; blobs && s < plan.nshards; s++)
    cc_blob_free(&blobs[s]);
  free(blobs);
  plan_free(&plan);
  if (tm)
    LLVMDisposeTargetMachine(tm);
  if (m)
    LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  free(d.text.s);
  return rc;
}

/* Programs: creation, build/compile/link (through the compiler, loaded on the
 * first build), the executable's native code, and the program queries.
 *
 * Locking: program->lock guards builds[] and nkernels.  A build marks its
 * devices CL_BUILD_IN_PROGRESS under the lock, compiles without it, and swaps
 * the finished rt_build in under it.  Builds are refused while kernels are
 * attached, so a kernel (and every command that holds one) sees a stable
 * rt_build without taking the lock. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/rt_program.h"

/* ---------------------------------------------------------------------------
 * The compiler: liblanecl_cc.so, loaded on the first build.
 * ------------------------------------------------------------------------- */
static pthread_once_t compiler_once = PTHREAD_ONCE_INIT;
static const cc_api *compiler;
static char compiler_why[1024];  /* why it didn't load; written once */

static const cc_api *try_compiler(const char *path, rt_str *why)
{
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    rt_str_add(why, "%s%s", why->len ? "; " : "", dlerror());
    return NULL;
  }
  cc_get_api_fn get = (cc_get_api_fn)dlsym(h, "cc_get_api");
  const cc_api *api = get ? get() : NULL;
  if (!api || api->api_version != CC_API_VERSION) {
    rt_str_add(why, "%s%s: %s", why->len ? "; " : "", path,
               !get ? "no cc_get_api" : !api ? "cc_get_api returned NULL" : "compiler API version mismatch");
    dlclose(h);
    return NULL;
  }
  rt_log(RT_LOG_BUILD, "compiler: loaded %s (%s)", path, api->version_string);
  return api;
}

/* Tries LANECL_COMPILER, else <libdir>/liblanecl_cc.so,
 * <libdir>/lanecl/liblanecl_cc.so and the default search path. */
static void load_compiler(void)
{
  rt_str why = {0};
  const cc_api *api = NULL;
  const char *env = lc_config_str(LC_COMPILER);
  if (env) {
    api = try_compiler(env, &why);
  } else {
    char path[PATH_MAX + 32];
    const char *fmts[] = {"%s/liblanecl_cc.so", "%s/lanecl/liblanecl_cc.so"};
    for (size_t i = 0; !api && i < sizeof(fmts) / sizeof(fmts[0]); i++) {
      snprintf(path, sizeof(path), fmts[i], rt_library_dir());
      if (access(path, F_OK) == 0)
        api = try_compiler(path, &why);
    }
    if (!api)
      api = try_compiler("liblanecl_cc.so", &why);
  }
  if (!api)
    snprintf(compiler_why, sizeof(compiler_why), "%s", why.s ? why.s : "not found");
  rt_str_free(&why);
  compiler = api;
}

/* Loaded once, on the first call (a build that the cache can't answer). */
const cc_api *rt_compiler(const char **why)
{
  pthread_once(&compiler_once, load_compiler);
  if (!compiler && why)
    *why = compiler_why;
  return compiler;
}

/* ---------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------- */

/* True when the whitespace-separated options contain the token opt (or, when
 * opt ends with '=', a token starting with it; *value then points after it). */
static bool has_option(const char *options, const char *opt, const char **value)
{
  size_t n = strlen(opt);
  bool prefix = n && opt[n - 1] == '=';
  for (const char *s = options ? options : ""; *s;) {
    while (*s == ' ' || *s == '\t' || *s == '\n')
      s++;
    const char *e = s;
    while (*e && *e != ' ' && *e != '\t' && *e != '\n')
      e++;
    if ((prefix && (size_t)(e - s) >= n && !strncmp(s, opt, n)) || ((size_t)(e - s) == n && !strncmp(s, opt, n))) {
      if (value)
        *value = s + n;
      return true;
    }
    s = e;
  }
  return false;
}

/* Checks every -cl-std=CL<major>.<minor> of options against the device's
 * OpenCL C versions (CL_DEVICE_OPENCL_C_ALL_VERSIONS).  Returns false, with
 * the reason in *log, for a version the device doesn't offer; other -cl-std
 * values are the compiler's to judge. */
static bool std_offered(const char *options, char **log)
{
  const char *s = options ? options : "";
  const char *v;
  while (has_option(s, "-cl-std=", &v)) {
    const char *e = v;
    while (*e && *e != ' ' && *e != '\t' && *e != '\n')
      e++;
    unsigned major, minor;
    int used = 0;
    if (sscanf(v, "CL%1u.%1u%n", &major, &minor, &used) == 2 && v + used == e) {
      bool found = false;
      for (size_t i = 0; i < rt_num_opencl_c_versions && !found; i++)
        found = rt_opencl_c_versions[i].version == CL_MAKE_VERSION(major, minor, 0);
      if (!found) {
        rt_str msg = {0};
        rt_str_add(&msg, "error: invalid option '-cl-std=%.*s': the device does not support OpenCL C %u.%u "
                   "(CL_DEVICE_OPENCL_C_ALL_VERSIONS:", (int)(e - v), v, major, minor);
        for (size_t i = 0; i < rt_num_opencl_c_versions; i++)
          rt_str_add(&msg, " %u.%u", CL_VERSION_MAJOR(rt_opencl_c_versions[i].version),
                     CL_VERSION_MINOR(rt_opencl_c_versions[i].version));
        rt_str_add(&msg, ")\n");
        *log = msg.s;
        return false;
      }
    }
    s = e;
  }
  return true;
}

/* Non-uniform work-groups: OpenCL C 2.0 or newer, no -cl-uniform-work-group-size. */
static bool source_allows_nonuniform(const char *options)
{
  const char *std = NULL;
  if (has_option(options, "-cl-uniform-work-group-size", NULL))
    return false;
  if (!has_option(options, "-cl-std=", &std))
    return false;
  return !strncmp(std, "CL2", 3) || !strncmp(std, "CL3", 3) || !strncmp(std, "CLC++", 5);
}

/* ---------------------------------------------------------------------------
 * Build state
 * ------------------------------------------------------------------------- */

static char *dup_str(const char *s)
{
  return strdup(s ? s : "");
}

static void build_init(rt_build *b, cl_device_id dev)
{
  memset(b, 0, sizeof(*b));
  b->device = dev;
  b->status = CL_BUILD_NONE;
  b->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
}

/* Frees what b holds; b is then as build_init left it. */
static void build_clear(rt_build *b)
{
  for (uint32_t i = 0; i < b->nmodules; i++) {
    dlclose(b->modules[i]);
    if (b->module_fds[i] >= 0)
      close(b->module_fds[i]);
  }
  free(b->modules);
  free(b->module_fds);
  free(b->fns);
  cc_binary_free(&b->bin);
  cc_blob_free(&b->blob);
  cc_blob_free(&b->binary);
  free(b->options);
  free(b->log);
  build_init(b, b->device);
}

bool rt_build_is_executable(const rt_build *b)
{
  return b->status == CL_BUILD_SUCCESS && b->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && b->fns;
}

uint32_t rt_build_find_kernel(const rt_build *b, const char *name)
{
  for (uint32_t i = 0; i < b->bin.nkernels; i++)
    if (!strcmp(b->bin.kernels[i].name, name))
      return i;
  return UINT32_MAX;
}

/* Bytes of writable data (.data, .bss) in an ELF shared object: the program
 * scope variables of the global address space. */
static uint64_t elf_writable_data(const void *data, size_t size)
{
  const Elf64_Ehdr *eh = data;
  if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
    return 0;
  if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
      (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum || eh->e_shstrndx >= eh->e_shnum)
    return 0;
  const Elf64_Shdr *sh = (const Elf64_Shdr *)((const char *)data + eh->e_shoff);
  const Elf64_Shdr *strs = &sh[eh->e_shstrndx];
  if (strs->sh_offset > size || strs->sh_size > size - strs->sh_offset)
    return 0;
  const char *names = (const char *)data + strs->sh_offset;
  uint64_t total = 0;
  for (unsigned i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_name >= strs->sh_size || !(sh[i].sh_flags & SHF_WRITE) || !(sh[i].sh_flags & SHF_ALLOC))
      continue;
    const char *name = names + sh[i].sh_name;
    if (!memchr(name, 0, strs->sh_size - sh[i].sh_name))
      continue;
    bool data_sec = !strcmp(name, ".data") || (!strncmp(name, ".data.", 6) && strncmp(name, ".data.rel.ro", 12));
    bool bss_sec = !strcmp(name, ".bss") || !strncmp(name, ".bss.", 5);
    if (data_sec || bss_sec)
      total += sh[i].sh_size;
  }
  return total;
}

/* dlopen the native code of an executable container: through a memfd
 * (/proc/self/fd/N, *fd stays open while the module is loaded), or a
 * temporary file where /proc is missing (*fd -1). */
static void *open_native(const cc_blob *native, int *fd_out, rt_str *why)
{
  char path[PATH_MAX];
  int fd = memfd_create("lanecl-program", MFD_CLOEXEC);
  bool tmpfile = fd < 0;
  if (tmpfile) {
    const char *tmpdir = getenv("TMPDIR");
    snprintf(path, sizeof(path), "%s/lanecl-XXXXXX.so", tmpdir && *tmpdir ? tmpdir : "/tmp");
    fd = mkostemps(path, 3, O_CLOEXEC);
    if (fd < 0) {
      rt_str_add(why, "can't create a file for the native code: %s", strerror(errno));
      return NULL;
    }
  } else {
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  }
  size_t done = 0;
  while (done < native->size) {
    ssize_t w = write(fd, (const char *)native->data + done, native->size - done);
    if (w <= 0)
      break;
    done += (size_t)w;
  }
  void *h = NULL;
  if (done != native->size)
    rt_str_add(why, "can't write the native code: %s", strerror(errno));
  else if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
    rt_str_add(why, "can't load the native code: %s", dlerror());
  if (tmpfile)
    unlink(path);
  if (tmpfile || !h) {
    close(fd);
    fd = -1;
  }
  *fd_out = fd;
  return h;
}

/* Loads one shared object of code (a whole executable's, or a part's) and
 * finds the work-group functions of kernels[0..n) in it: fns[i] for
 * kernels[i].  The caller publishes them in b->fns. */
static bool build_load_code(rt_build *b, const cc_blob *code, const uint32_t *kernels, uint32_t n,
                            lanecl_wg_fn *fns, rt_str *why, bool *oom)
{
  void **mods = realloc(b->modules, (b->nmodules + 1) * sizeof(*mods));
  if (mods)
    b->modules = mods;
  int *fds = realloc(b->module_fds, (b->nmodules + 1) * sizeof(*fds));
  if (fds)
    b->module_fds = fds;
  if (!mods || !fds) {
    *oom = true;
    rt_str_add(why, "out of host memory");
    return false;
  }
  int fd = -1;
  void *h = open_native(code, &fd, why);
  if (!h)
    return false;
  b->modules[b->nmodules] = h;
  b->module_fds[b->nmodules++] = fd;
  for (uint32_t i = 0; i < n; i++) {
    /* Kernel names have no length limit (the CTS tries 2048 characters). */
    rt_str sym = {0};
    rt_str_add(&sym, LANECL_WG_PREFIX "%s", b->bin.kernels[kernels[i]].name);
    if (!sym.s) {
      *oom = true;
      rt_str_add(why, "out of host memory");
      return false;
    }
    lanecl_wg_fn fn = (lanecl_wg_fn)dlsym(h, sym.s);
    if (!fn)
      rt_str_add(why, "the native code lacks %s", sym.s);
    rt_str_free(&sym);
    if (!fn)
      return false;
    fns[i] = fn;
  }
  b->global_var_bytes += elf_writable_data(code->data, code->size);
  return true;
}

/* Parses b->blob into b->bin; for an executable also loads its native code
 * and finds the work-group function of every kernel that has code (all of
 * them but in a staged executable).  On failure *why says why. */
static bool build_install(rt_build *b, uint64_t device_key, rt_str *why, bool *oom)
{
  int rc = cc_binary_read(b->blob.data, b->blob.size, &b->bin);
  if (rc == CC_OUT_OF_MEMORY) {
    *oom = true;
    rt_str_add(why, "out of host memory reading the program container");
    return false;
  }
  if (rc != CC_OK) {
    rt_str_add(why, "the compiler's output is not a valid program container");
    return false;
  }
  if (b->bin.device_key != device_key) {
    rt_str_add(why, "the program container was built for another device");
    return false;
  }
  switch (b->bin.kind) {
  case CC_BIN_OBJECT: b->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT; return true;
  case CC_BIN_LIBRARY: b->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY; return true;
  case CC_BIN_EXECUTABLE: b->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE; break;
  default: rt_str_add(why, "unknown program container kind %u", b->bin.kind); return false;
  }
  b->fns = calloc(b->bin.nkernels ? b->bin.nkernels : 1, sizeof(*b->fns));
  if (!b->fns) {
    *oom = true;
    rt_str_add(why, "out of host memory");
    return false;
  }
  /* (no other thread sees b yet: the functions are stored directly) */
  bool ok;
  if (b->bin.native.size) {
    uint32_t *all = malloc((b->bin.nkernels ? b->bin.nkernels : 1) * sizeof(*all));
    for (uint32_t i = 0; all && i < b->bin.nkernels; i++)
      all[i] = i;
    ok = all && build_load_code(b, &b->bin.native, all, b->bin.nkernels, b->fns, why, oom);
    if (!all) {
      *oom = true;
      rt_str_add(why, "out of host memory");
    }
    free(all);
  } else {
    ok = true;
    lanecl_wg_fn *fns = NULL;
    for (uint32_t i = 0; ok && i < b->bin.nparts; i++) {
      const cc_native_part *part = &b->bin.parts[i];
      lanecl_wg_fn *more = realloc(fns, (part->nkernels ? part->nkernels : 1) * sizeof(*fns));
      if (!more) {
        *oom = true;
        rt_str_add(why, "out of host memory");
        ok = false;
        break;
      }
      fns = more;
      ok = build_load_code(b, &part->code, part->kernels, part->nkernels, fns, why, oom);
      for (uint32_t j = 0; ok && j < part->nkernels; j++)
        b->fns[part->kernels[j]] = fns[j];
    }
    free(fns);
  }
  /* b->blob keeps every byte; the parsed copies of the code aren't needed. */
  cc_blob_free(&b->bin.native);
  cc_blob_free(&b->bin.bitcode);
  cc_blob_free(&b->bin.stage);
  for (uint32_t i = 0; i < b->bin.nparts; i++)
    cc_blob_free(&b->bin.parts[i].code);
  return ok;
}

/* ---------------------------------------------------------------------------
 * Creation and lifetime
 * ------------------------------------------------------------------------- */

static cl_program program_new(cl_context ctx, rt_program_origin origin, cl_uint n, const cl_device_id *devices)
{
  cl_program p = calloc(1, sizeof(*p));
  if (!p)
    return NULL;
  p->devices = calloc(n, sizeof(*p->devices));
  p->builds = calloc(n, sizeof(*p->builds));
  if (!p->devices || !p->builds) {
    free(p->devices);
    free(p->builds);
    free(p);
    return NULL;
  }
  rt_object_init(&p->obj, RT_PROGRAM);
  pthread_mutex_init(&p->lock, NULL);
  p->origin = origin;
  p->ndevices = n;
  for (cl_uint i = 0; i < n; i++) {
    p->devices[i] = devices[i];
    build_init(&p->builds[i], devices[i]);
  }
  p->ctx = ctx;
  rt_context_retain(ctx);
  return p;
}

static void program_destroy(cl_program p)
{
  for (cl_uint i = 0; i < p->ndevices; i++)
    build_clear(&p->builds[i]);
  rt_context_release(p->ctx);
  pthread_mutex_destroy(&p->lock);
  free(p->builds);
  free(p->devices);
  free(p->source);
  free(p);
}

void rt_program_retain(cl_program p)
{
  rt_retain(&p->obj);
}

void rt_program_release(cl_program p)
{
  if (rt_release(&p->obj))
    program_destroy(p);
}

int rt_program_device_index(cl_program p, cl_device_id dev)
{
  for (cl_uint i = 0; i < p->ndevices; i++)
    if (p->devices[i] == dev)
      return (int)i;
  return -1;
}

cl_program rt_program_create_with_source(cl_context ctx, cl_uint count, const char **strings,
                                         const size_t *lengths, cl_int *err)
{
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++)
    total += (lengths && lengths[i]) ? strnlen(strings[i], lengths[i]) : strlen(strings[i]);
  char *src = malloc(total + 1);
  cl_program p = src ? program_new(ctx, RT_PROG_SOURCE, ctx->ndevices, ctx->devices) : NULL;
  if (!p) {
    free(src);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  /* The concatenation strips any NUL inside a counted string. */
  size_t at = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t n = (lengths && lengths[i]) ? strnlen(strings[i], lengths[i]) : strlen(strings[i]);
    memcpy(src + at, strings[i], n);
    at += n;
  }
  src[at] = 0;
  p->source = src;
  *err = CL_SUCCESS;
  return p;
}

cl_program rt_program_create_with_binary(cl_context ctx, cl_uint n, const cl_device_id *devices,
                                         const size_t *lengths, const unsigned char **binaries,
                                         cl_int *status, cl_int *err)
{
  cl_program p = program_new(ctx, RT_PROG_BINARY, n, devices);
  if (!p) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < n; i++) {
    rt_build *b = &p->builds[i];
    rt_str why = {0};
    b->blob.data = malloc(lengths[i]);
    if (!b->blob.data) {
      result = CL_OUT_OF_HOST_MEMORY;
      status[i] = CL_OUT_OF_HOST_MEMORY;
      continue;
    }
    memcpy(b->blob.data, binaries[i], lengths[i]);
    b->blob.size = lengths[i];
    if (cc_binary_read(b->blob.data, b->blob.size, &b->bin) != CC_OK) {
      rt_str_add(&why, "not a LaneCL program binary, or a damaged one");
    } else if (b->bin.device_key != cc_device_key(&devices[i]->cc)) {
      rt_str_add(&why, "built for another device (device key %016llx, this device %016llx)",
                 (unsigned long long)b->bin.device_key, (unsigned long long)cc_device_key(&devices[i]->cc));
    } else if (b->bin.kind == CC_BIN_OBJECT) {
      b->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    } else if (b->bin.kind == CC_BIN_LIBRARY) {
      b->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    } else if (b->bin.kind == CC_BIN_EXECUTABLE) {
      /* whole, or staged (its kernels' code made at their first launch) */
      b->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    } else {
      rt_str_add(&why, "unknown program container kind %u", b->bin.kind);
    }
    if (why.len) {
      rt_err("clCreateProgramWithBinary: binary %u: %s", i, why.s);
      build_clear(b);
      status[i] = CL_INVALID_BINARY;
      if (result == CL_SUCCESS)
        result = CL_INVALID_BINARY;
    } else {
      b->nonuniform = true;
      status[i] = CL_SUCCESS;
    }
    rt_str_free(&why);
  }
  if (result != CL_SUCCESS) {
    rt_program_release(p);
    *err = result;
    return NULL;
  }
  *err = CL_SUCCESS;
  return p;
}

/* ---------------------------------------------------------------------------
 * Build, compile and link jobs
 * ------------------------------------------------------------------------- */
typedef enum job_kind { JOB_BUILD, JOB_COMPILE, JOB_LINK } job_kind;

typedef struct build_job {
  job_kind kind;
  cl_program p;               /* retained */
  cl_uint n;
  int *idx;                   /* device indexes in p */
  char *options;
  cc_header *headers;         /* compile */
  size_t nheaders;
  cc_blob *inputs;            /* link: n * ninputs copies, device-major */
  cl_uint ninputs;
  bool *inputs_nonuniform;    /* link: per device */
  rt_program_notify_fn notify;
  void *user_data;
  cl_int result;
} build_job;

static void job_free(build_job *j)
{
  for (size_t i = 0; i < j->nheaders; i++) {
    free((char *)j->headers[i].name);
    free((char *)j->headers[i].source);
  }
  for (size_t i = 0; j->inputs && i < (size_t)j->n * j->ninputs; i++)
    cc_blob_free(&j->inputs[i]);
  free(j->inputs);
  free(j->inputs_nonuniform);
  free(j->headers);
  free(j->options);
  free(j->idx);
  free(j);
}

static cl_int map_cc_status(job_kind kind, int st)
{
  switch (st) {
  case CC_OK: return CL_SUCCESS;
  case CC_INVALID_OPTIONS:
    return kind == JOB_BUILD ? CL_INVALID_BUILD_OPTIONS
           : kind == JOB_COMPILE ? CL_INVALID_COMPILER_OPTIONS : CL_INVALID_LINKER_OPTIONS;
  case CC_OUT_OF_MEMORY: return CL_OUT_OF_HOST_MEMORY;
  case CC_INVALID_BINARY: return kind == JOB_LINK ? CL_LINK_PROGRAM_FAILURE : CL_INVALID_BINARY;
  default:
    return kind == JOB_BUILD ? CL_BUILD_PROGRAM_FAILURE
           : kind == JOB_COMPILE ? CL_COMPILE_PROGRAM_FAILURE : CL_LINK_PROGRAM_FAILURE;
  }
}

static cl_int failure_code(job_kind kind)
{
  return kind == JOB_BUILD ? CL_BUILD_PROGRAM_FAILURE
         : kind == JOB_COMPILE ? CL_COMPILE_PROGRAM_FAILURE : CL_LINK_PROGRAM_FAILURE;
}

/* Runs the compiler for one device; fills nb->blob and nb->log.  Returns the
 * CL result of the step.  *cached: the blob came from the cache (looked up
 * only when use_cache). */
static cl_int job_run_device(build_job *j, cl_uint k, const rt_build *old, rt_build *nb, bool use_cache,
                             bool *cached)
{
  cl_program p = j->p;
  cl_device_id dev = nb->device;
  const char *why = NULL;
  char *log = NULL;
  rt_cache_key key = {0};
  bool cacheable = false;

  /* CL_INVALID_BUILD_OPTIONS (CL_INVALID_COMPILER_OPTIONS) for an OpenCL C
   * version the device doesn't offer: -cl-std=CL2.0 on an OpenCL 3.0 device
   * without OpenCL C 2.0. */
  if ((j->kind == JOB_BUILD && p->origin == RT_PROG_SOURCE) || j->kind == JOB_COMPILE) {
    char *why_std = NULL;
    if (!std_offered(j->options, &why_std)) {
      nb->log = why_std ? why_std : dup_str("");
      rt_err("%s: %s", j->kind == JOB_BUILD ? "clBuildProgram" : "clCompileProgram", nb->log);
      return map_cc_status(j->kind, CC_INVALID_OPTIONS);
    }
  }
  if (j->kind == JOB_BUILD && p->origin == RT_PROG_SOURCE) {
    cacheable = rt_cache_key_for(&dev->cc, p->source, j->options, &key);
    nb->cacheable = cacheable;
    nb->key = key;
    if (cacheable && use_cache && rt_cache_lookup(&key, cc_device_key(&dev->cc), &nb->blob)) {
      nb->log = dup_str("");
      *cached = true;
      return nb->log ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
  }
  if (j->kind == JOB_BUILD && p->origin == RT_PROG_BINARY && old->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
    /* An executable binary only needs loading.  A staged one's kernels get
     * their code at their first launch: the cache entry keyed by the
     * binary's bytes has the code earlier processes made. */
    if (old->cacheable && old->status == CL_BUILD_SUCCESS) /* a rebuild: the key of the binary given */
      key = old->key, cacheable = true;
    else
      cacheable = rt_cache_key_for_binary(&dev->cc, &old->blob, &key);
    nb->cacheable = cacheable;
    nb->key = key;
    if (cacheable && use_cache && rt_cache_lookup(&key, cc_device_key(&dev->cc), &nb->blob)) {
      nb->log = dup_str("");
      *cached = true;
      return nb->log ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    nb->blob.data = malloc(old->blob.size);
    if (!nb->blob.data)
      return CL_OUT_OF_HOST_MEMORY;
    memcpy(nb->blob.data, old->blob.data, old->blob.size);
    nb->blob.size = old->blob.size;
    nb->log = dup_str("");
    return CL_SUCCESS;
  }

  const cc_api *cc = rt_compiler(&why);
  if (!cc) {
    rt_str msg = {0};
    rt_str_add(&msg, "LaneCL: the compiler (liblanecl_cc.so) is not available: %s\n", why);
    nb->log = msg.s ? msg.s : dup_str("");
    rt_err("%s", nb->log);
    return j->kind == JOB_LINK ? CL_LINKER_NOT_AVAILABLE : CL_COMPILER_NOT_AVAILABLE;
  }
  int st;
  switch (j->kind) {
  case JOB_COMPILE:
    st = cc->compile(&dev->cc, p->source, j->options, j->headers, j->nheaders, &nb->blob, &log);
    break;
  case JOB_LINK:
    st = cc->link(&dev->cc, &j->inputs[(size_t)k * j->ninputs], j->ninputs, j->options,
                  has_option(j->options, "-create-library", NULL), &nb->blob, &log);
    break;
  default:
    if (p->origin == RT_PROG_SOURCE && lc_config_num(LC_CC_LAZY))
      st = cc->build_staged(&dev->cc, p->source, j->options, &nb->blob, &log);
    else if (p->origin == RT_PROG_SOURCE)
      st = cc->build(&dev->cc, p->source, j->options, &nb->blob, &log);
    else /* a compiled object or library loaded as a binary: link it */
      st = cc->link(&dev->cc, &old->blob, 1, j->options, 0, &nb->blob, &log);
    break;
  }
  nb->log = log ? log : dup_str("");
  cl_int err = map_cc_status(j->kind, st);
  if (err == CL_SUCCESS && cacheable)
    rt_cache_store(&key, &nb->blob);
  return err;
}

static void job_run(build_job *j)
{
  cl_program p = j->p;
  cl_int result = CL_SUCCESS;
  for (cl_uint k = 0; k < j->n; k++) {
    int i = j->idx[k];
    rt_build nb;
    build_init(&nb, p->devices[i]);
    nb.options = dup_str(j->options);
    /* Read-only use of the old state: this job owns the device until it swaps the result in. */
    bool cached = false;
    cl_int err = job_run_device(j, k, &p->builds[i], &nb, true, &cached);
    if (err == CL_SUCCESS) {
      rt_str why = {0};
      bool oom = false;
      bool installed = build_install(&nb, cc_device_key(&nb.device->cc), &why, &oom);
      if (!installed && cached && !oom) {
        /* A cache entry that doesn't install: compile instead; the new
         * entry replaces it. */
        rt_log(RT_LOG_BUILD, "program %llu: the cached executable does not install (%s); compiling",
               (unsigned long long)p->obj.id, why.s ? why.s : "");
        rt_str_free(&why);
        build_clear(&nb);
        nb.options = dup_str(j->options);
        err = job_run_device(j, k, &p->builds[i], &nb, false, &cached);
        installed = err != CL_SUCCESS || build_install(&nb, cc_device_key(&nb.device->cc), &why, &oom);
      }
      if (err == CL_SUCCESS && !installed) {
        rt_str log = {0};
        rt_str_add(&log, "%sLaneCL: %s\n", nb.log ? nb.log : "", why.s ? why.s : "out of host memory");
        free(nb.log);
        nb.log = log.s;
        err = oom ? CL_OUT_OF_HOST_MEMORY : failure_code(j->kind);
      }
      rt_str_free(&why);
    }
    if (err == CL_SUCCESS) {
      nb.status = CL_BUILD_SUCCESS;
      switch (j->kind) {
      case JOB_LINK:
        nb.nonuniform = j->inputs_nonuniform[k] && !has_option(j->options, "-cl-uniform-work-group-size", NULL);
        break;
      default:
        nb.nonuniform = p->origin == RT_PROG_SOURCE ? source_allows_nonuniform(j->options)
                                                     : !has_option(j->options, "-cl-uniform-work-group-size", NULL);
        break;
      }
    } else {
      char *log = nb.log, *options = nb.options;
      nb.log = nb.options = NULL;
      build_clear(&nb);
      nb.log = log;
      nb.options = options;
      nb.status = CL_BUILD_ERROR;
      nb.binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
      if (result == CL_SUCCESS || result == failure_code(j->kind))
        result = err;
      rt_log(RT_LOG_BUILD, "program %llu: device %u failed (%d):\n%s", (unsigned long long)p->obj.id, i, err,
             nb.log ? nb.log : "");
    }
    pthread_mutex_lock(&p->lock);
    rt_build old = p->builds[i];
    if (err != CL_SUCCESS && p->origin == RT_PROG_BINARY) {
      /* A binary that failed to build stays loaded, as it was given. */
      nb.blob = old.blob;
      nb.bin = old.bin;
      nb.binary_type = old.binary_type;
      memset(&old.blob, 0, sizeof(old.blob));
      memset(&old.bin, 0, sizeof(old.bin));
    }
    p->builds[i] = nb;
    pthread_mutex_unlock(&p->lock);
    build_clear(&old);
  }
  j->result = result;
}

static void *job_thread(void *arg)
{
  build_job *j = arg;
  job_run(j);
  j->notify(j->p, j->user_data);
  rt_program_release(j->p);
  job_free(j);
  return NULL;
}

/* Runs j now (notify NULL) or in a new thread; returns the result, or
 * CL_SUCCESS once the thread runs.  Takes ownership of j. */
static cl_int job_start(build_job *j)
{
  rt_program_retain(j->p);
  if (j->notify) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, job_thread, j);
    pthread_attr_destroy(&attr);
    if (rc == 0)
      return CL_SUCCESS;
    job_thread(j); /* no thread: build here, still call back */
    return CL_SUCCESS;
  }
  job_run(j);
  cl_int result = j->result;
  rt_program_release(j->p);
  job_free(j);
  return result;
}

/* Resolves the device list (NULL: all of p's) to indexes in p and claims
 * them: marks them in progress.  Fails (CL_INVALID_OPERATION) when kernels
 * are attached or one of them is already being built. */
static cl_int job_claim(build_job *j, const char *func, cl_uint n, const cl_device_id *devices)
{
  cl_program p = j->p;
  j->idx = calloc(p->ndevices ? p->ndevices : 1, sizeof(int));
  if (!j->idx)
    return CL_OUT_OF_HOST_MEMORY;
  pthread_mutex_lock(&p->lock);
  cl_int err = CL_SUCCESS;
  if (p->nkernels) {
    rt_err("%s: program has %u kernel objects attached", func, p->nkernels);
    err = CL_INVALID_OPERATION;
    goto unlock;
  }
  for (cl_uint i = 0; i < p->ndevices; i++) {
    bool listed = !devices;
    for (cl_uint d = 0; devices && d < n; d++)
      listed |= devices[d] == p->devices[i];
    if (!listed)
      continue;
    if (p->builds[i].status == CL_BUILD_IN_PROGRESS) {
      rt_err("%s: a build for device %u has not completed", func, i);
      err = CL_INVALID_OPERATION;
      goto unlock;
    }
    j->idx[j->n++] = (int)i;
  }
  for (cl_uint k = 0; k < j->n; k++)
    p->builds[j->idx[k]].status = CL_BUILD_IN_PROGRESS;
unlock:
  pthread_mutex_unlock(&p->lock);
  return err;
}

static build_job *job_new(job_kind kind, cl_program p, const char *options, rt_program_notify_fn notify,
                          void *user_data)
{
  build_job *j = calloc(1, sizeof(*j));
  if (!j)
    return NULL;
  j->kind = kind;
  j->p = p;
  j->options = dup_str(options);
  j->notify = notify;
  j->user_data = user_data;
  if (!j->options) {
    free(j);
    return NULL;
  }
  return j;
}

cl_int rt_program_build(cl_program p, cl_uint n, const cl_device_id *devices, const char *options,
                        rt_program_notify_fn notify, void *user_data)
{
  build_job *j = job_new(JOB_BUILD, p, options, notify, user_data);
  if (!j)
    return CL_OUT_OF_HOST_MEMORY;
  /* A program from binaries has one for each of its devices (or it would
   * not exist): no CL_INVALID_BINARY here. */
  cl_int err = job_claim(j, "clBuildProgram", n, devices);
  if (err != CL_SUCCESS) {
    job_free(j);
    return err;
  }
  return job_start(j);
}

cl_int rt_program_compile(cl_program p, cl_uint n, const cl_device_id *devices, const char *options,
                          cl_uint nheaders, const cl_program *headers, const char **header_names,
                          rt_program_notify_fn notify, void *user_data)
{
  build_job *j = job_new(JOB_COMPILE, p, options, notify, user_data);
  if (!j)
    return CL_OUT_OF_HOST_MEMORY;
  j->headers = calloc(nheaders ? nheaders : 1, sizeof(*j->headers));
  if (!j->headers) {
    job_free(j);
    return CL_OUT_OF_HOST_MEMORY;
  }
  for (cl_uint i = 0; i < nheaders; i++) {
    j->headers[i].name = dup_str(header_names[i]);
    j->headers[i].source = dup_str(headers[i]->source);
    j->nheaders++;
  }
  cl_int err = job_claim(j, "clCompileProgram", n, devices);
  if (err != CL_SUCCESS) {
    job_free(j);
    return err;
  }
  return job_start(j);
}

/* For the link of output device dev: which input build serves it. */
static const rt_build *input_build(cl_program in, cl_device_id dev, bool *busy)
{
  int i = rt_program_device_index(in, dev);
  if (i < 0)
    return NULL;
  const rt_build *b = &in->builds[i];
  if (b->status == CL_BUILD_IN_PROGRESS)
    *busy = true;
  if (b->binary_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT || b->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY)
    return b;
  return NULL;
}

cl_program rt_program_link(cl_context ctx, cl_uint n, const cl_device_id *devices, const char *options,
                           cl_uint ninputs, const cl_program *inputs, rt_program_notify_fn notify,
                           void *user_data, cl_int *err)
{
  if (!devices) {
    n = ctx->ndevices;
    devices = ctx->devices;
  }
  cl_program p = program_new(ctx, RT_PROG_LINKED, n, devices);
  build_job *j = p ? job_new(JOB_LINK, p, options, notify, user_data) : NULL;
  if (j) {
    j->idx = calloc(n, sizeof(int));
    j->inputs = calloc((size_t)n * ninputs, sizeof(cc_blob));
    j->inputs_nonuniform = calloc(n, sizeof(bool));
    j->ninputs = ninputs;
  }
  if (!j || !j->idx || !j->inputs || !j->inputs_nonuniform) {
    *err = CL_OUT_OF_HOST_MEMORY;
    goto free_job;
  }
  /* Per device: every input has an object or library (link), none has (skip),
   * anything else is CL_INVALID_OPERATION. */
  *err = CL_SUCCESS;
  for (cl_uint d = 0; d < n && *err == CL_SUCCESS; d++) {
    cl_uint have = 0;
    bool busy = false, nonuniform = true;
    for (cl_uint i = 0; i < ninputs; i++) {
      pthread_mutex_lock(&inputs[i]->lock);
      const rt_build *b = input_build(inputs[i], devices[d], &busy);
      if (b && !busy) {
        cc_blob *dst = &j->inputs[(size_t)j->n * ninputs + have];
        dst->data = malloc(b->blob.size);
        if (dst->data) {
          memcpy(dst->data, b->blob.data, b->blob.size);
          dst->size = b->blob.size;
        } else {
          *err = CL_OUT_OF_HOST_MEMORY;
        }
        nonuniform &= b->nonuniform;
        have++;
      }
      pthread_mutex_unlock(&inputs[i]->lock);
    }
    if (busy) {
      rt_err("clLinkProgram: a compile or build of an input program has not completed");
      *err = CL_INVALID_OPERATION;
    } else if (have && have != ninputs) {
      rt_err("clLinkProgram: only %u of the %u input programs have a compiled object or library for device %u",
             have, ninputs, d);
      *err = CL_INVALID_OPERATION;
    } else if (have) {
      j->inputs_nonuniform[j->n] = nonuniform;
      j->idx[j->n++] = (int)d;
    }
    if (*err != CL_SUCCESS) {
      for (cl_uint i = 0; i < have; i++)
        cc_blob_free(&j->inputs[(size_t)j->n * ninputs + i]);
    }
  }
  if (*err != CL_SUCCESS)
    goto free_job;
  for (cl_uint k = 0; k < j->n; k++)
    p->builds[j->idx[k]].status = CL_BUILD_IN_PROGRESS;
  *err = job_start(j);
  if (*err != CL_SUCCESS && *err != CL_LINK_PROGRAM_FAILURE) {
    rt_program_release(p);
    return NULL;
  }
  return p;
free_job:
  if (j)
    job_free(j);
  if (p)
    rt_program_release(p);
  return NULL;
}

/* ---------------------------------------------------------------------------
 * Code of a staged executable's kernels, made at their first launch
 * ------------------------------------------------------------------------- */

/* Gives kernels which[0..n) of b (indices of b's container) their code;
 * launch: see rt_program_compile_kernels.  p->lock held. */
static cl_int build_compile_kernels(cl_program p, rt_build *b, const uint32_t *which, uint32_t n,
                                    const cc_launch_hint *launch)
{
  uint32_t *missing = malloc((n ? n : 1) * sizeof(*missing));
  if (!missing)
    return CL_OUT_OF_HOST_MEMORY;
  uint32_t nm = 0;
  for (uint32_t i = 0; i < n; i++)
    if (which[i] < b->bin.nkernels && !b->fns[which[i]]) {
      bool dup = false;
      for (uint32_t j = 0; j < nm && !dup; j++)
        dup = missing[j] == which[i];
      if (!dup)
        missing[nm++] = which[i];
    }
  if (!nm) {
    free(missing);
    return CL_SUCCESS;
  }
  const char *why = NULL;
  const cc_api *cc = rt_compiler(&why);
  cc_blob out = {0};
  char *log = NULL;
  uint64_t t0 = rt_time_ns();
  int st = cc ? cc->compile_kernels(&b->device->cc, &b->blob, missing, nm, nm == 1 ? launch : NULL, &out, &log)
               : CC_INTERNAL;
  cl_int err = CL_SUCCESS;
  rt_str msg = {0};
  if (!cc) {
    rt_str_add(&msg, "LaneCL: the compiler (liblanecl_cc.so), which makes the code of kernel %s, is not available: %s\n",
               b->bin.kernels[missing[0]].name, why);
    err = CL_OUT_OF_RESOURCES;
  } else if (st != CC_OK) {
    rt_str_add(&msg, "LaneCL: the code of kernel %s could not be made:\n%s", b->bin.kernels[missing[0]].name,
               log ? log : "");
    err = st == CC_OUT_OF_MEMORY ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
  } else {
    /* The new container: the same records (the compiled kernels' completed)
     * plus one part.  Kernel objects point at b->bin's records, so those
     * stay and take the new values; the part's code is loaded. */
    cc_binary nb;
    bool oom = false;
    int rc = cc_binary_read(out.data, out.size, &nb);
    lanecl_wg_fn *fns = rc == CC_OK ? calloc(nm, sizeof(*fns)) : NULL;
    if (rc != CC_OK || nb.nkernels != b->bin.nkernels || nb.nparts == 0 ||
        nb.parts[nb.nparts - 1].nkernels != nm) {
      rt_str_add(&msg, "LaneCL: the compiler returned a damaged program container\n");
      err = rc == CC_OUT_OF_MEMORY ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
    } else if (!fns) {
      err = CL_OUT_OF_HOST_MEMORY;
    } else {
      cc_native_part *part = &nb.parts[nb.nparts - 1];
      rt_str why_load = {0};
      if (build_load_code(b, &part->code, part->kernels, part->nkernels, fns, &why_load, &oom)) {
        for (uint32_t i = 0; i < nm; i++) {
          cc_kernel_info *k = &b->bin.kernels[part->kernels[i]];
          k->stream_bytes = nb.kernels[part->kernels[i]].stream_bytes;
          k->simd_width = nb.kernels[part->kernels[i]].simd_width;
          free(k->report);
          k->report = nb.kernels[part->kernels[i]].report;
          nb.kernels[part->kernels[i]].report = NULL;
          /* Last: a launch reads the function without the lock, then the
           * record's values above (rt_kernel_code). */
          __atomic_store_n(&b->fns[part->kernels[i]], fns[i], __ATOMIC_RELEASE);
        }
        cc_blob_free(&b->blob);
        b->blob = out;
        out.data = NULL;
        out.size = 0;
        if (b->cacheable)
          rt_cache_store(&b->key, &b->blob);
        if (b->binary_cacheable)
          rt_cache_store(&b->binary_key, &b->blob);
      } else {
        rt_str_add(&msg, "LaneCL: %s\n", why_load.s ? why_load.s : "out of host memory");
        err = oom ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
      }
      rt_str_free(&why_load);
    }
    free(fns);
    cc_binary_free(&nb);
  }
  if (err == CL_SUCCESS) {
    rt_log(RT_LOG_BUILD, "program %llu: code of %u kernel%s (%s%s) made in %.1f ms", (unsigned long long)p->obj.id,
           nm, nm == 1 ? "" : "s", b->bin.kernels[missing[0]].name, nm > 1 ? ", ..." : "", (double)(rt_time_ns() - t0) / 1e6);
  } else {
    rt_err("%s", msg.s ? msg.s : "LaneCL: out of host memory making a kernel's code");
    if (msg.s) {  /* the build log says it too */
      rt_str full = {0};
      rt_str_add(&full, "%s%s", b->log ? b->log : "", msg.s);
      if (full.s) {
        free(b->log);
        b->log = full.s;
      }
    }
  }
  rt_str_free(&msg);
  free(log);
  cc_blob_free(&out);
  free(missing);
  return err;
}

cl_int rt_program_compile_kernels(cl_program p, const uint32_t *which, uint32_t n, const cc_launch_hint *launch)
{
  const rt_build *first = rt_program_first_executable(p);
  if (!first)
    return CL_SUCCESS;
  cl_int err = CL_SUCCESS;
  for (cl_uint d = 0; d < p->ndevices && err == CL_SUCCESS; d++) {
    rt_build *b = &p->builds[d];
    if (!rt_build_is_executable(b))
      continue;
    if (b == first) {
      err = build_compile_kernels(p, b, which, n, launch);
      continue;
    }
    /* Another device's build: the same kernels, by name. */
    uint32_t *idx = malloc((n ? n : 1) * sizeof(*idx));
    uint32_t m = 0;
    if (!idx) {
      err = CL_OUT_OF_HOST_MEMORY;
      break;
    }
    for (uint32_t i = 0; i < n; i++) {
      uint32_t k = rt_build_find_kernel(b, first->bin.kernels[which[i]].name);
      if (k != UINT32_MAX)
        idx[m++] = k;
    }
    err = build_compile_kernels(p, b, idx, m, launch);
    free(idx);
  }
  return err;
}

/* ---------------------------------------------------------------------------
 * Queries
 * ------------------------------------------------------------------------- */

const rt_build *rt_program_first_executable(cl_program p)
{
  for (cl_uint i = 0; i < p->ndevices; i++)
    if (rt_build_is_executable(&p->builds[i]))
      return &p->builds[i];
  return NULL;
}

cl_context rt_program_context(cl_program p)
{
  return p->ctx;
}

rt_program_origin rt_program_origin_of(cl_program p)
{
  return p->origin;
}

bool rt_program_has_executable(cl_program p)
{
  pthread_mutex_lock(&p->lock);
  bool has = rt_program_first_executable(p) != NULL;
  pthread_mutex_unlock(&p->lock);
  return has;
}

const rt_build *rt_program_executable_for(cl_program p, cl_device_id dev)
{
  for (cl_device_id d = dev; d; d = d->parent) {
    int i = rt_program_device_index(p, d);
    if (i >= 0 && rt_build_is_executable(&p->builds[i]))
      return &p->builds[i];
  }
  return NULL;
}

size_t rt_program_num_kernels(cl_program p)
{
  pthread_mutex_lock(&p->lock);
  const rt_build *b = rt_program_first_executable(p);
  size_t n = b ? b->bin.nkernels : 0;
  pthread_mutex_unlock(&p->lock);
  return n;
}

cl_uint rt_program_refcount(cl_program p)
{
  return atomic_load(&p->obj.refcount);
}

const cl_device_id *rt_program_devices(cl_program p, cl_uint *n)
{
  *n = p->ndevices;
  return p->devices;
}

const char *rt_program_source(cl_program p)
{
  return p->source;
}

/* What CL_PROGRAM_BINARIES gives for b (p->lock held): its container, or
 * for an executable whose kernels do not all have code yet, the copy of
 * its container taken at the first query.  A staged executable's container
 * grows as kernels are launched: an application sizes its buffers with
 * CL_PROGRAM_BINARY_SIZES, then copies, and another thread may launch a
 * kernel in between.  So the binary holds the code made before the first
 * query; the process that loads it makes the rest at their first launch,
 * or finds it in the cache entry of the binary, where this process stores
 * the code it makes from then on. */
static const cc_blob *build_binary(rt_build *b, cl_int *err)
{
  if (b->binary.data || !rt_build_is_executable(b))
    return b->binary.data ? &b->binary : &b->blob;
  bool staged = false;
  for (uint32_t i = 0; i < b->bin.nkernels && !staged; i++)
    staged = !b->fns[i];
  if (!staged)
    return &b->blob;
  if (!(b->binary.data = malloc(b->blob.size ? b->blob.size : 1))) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return &b->blob;
  }
  memcpy(b->binary.data, b->blob.data, b->blob.size);
  b->binary.size = b->blob.size;
  b->binary_cacheable = rt_cache_key_for_binary(&b->device->cc, &b->binary, &b->binary_key);
  return &b->binary;
}

cl_int rt_program_binary_sizes(cl_program p, size_t *sizes)
{
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&p->lock);
  for (cl_uint i = 0; i < p->ndevices; i++)
    sizes[i] = build_binary(&p->builds[i], &err)->size;
  pthread_mutex_unlock(&p->lock);
  return err;
}

cl_int rt_program_copy_binaries(cl_program p, unsigned char **dst)
{
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&p->lock);
  for (cl_uint i = 0; i < p->ndevices && err == CL_SUCCESS; i++) {
    const cc_blob *blob = build_binary(&p->builds[i], &err);
    if (err == CL_SUCCESS && dst[i] && blob->size)
      memcpy(dst[i], blob->data, blob->size);
  }
  pthread_mutex_unlock(&p->lock);
  return err;
}

bool rt_program_kernels(cl_program p, size_t *n, rt_str *names)
{
  pthread_mutex_lock(&p->lock);
  const rt_build *b = rt_program_first_executable(p);
  if (b) {
    *n = b->bin.nkernels;
    if (names) {
      rt_str_add(names, "%s", "");
      for (uint32_t k = 0; k < b->bin.nkernels; k++)
        rt_str_add(names, "%s%s", k ? ";" : "", b->bin.kernels[k].name);
    }
  }
  pthread_mutex_unlock(&p->lock);
  return b != NULL;
}

cl_int rt_program_build_view(cl_program p, cl_device_id dev, cl_int (*fn)(const rt_build_view *, void *),
                             void *ctx)
{
  int i = rt_program_device_index(p, dev);
  pthread_mutex_lock(&p->lock);
  const rt_build *b = &p->builds[i];
  /* A sub-device that was never built for itself runs its nearest ancestor's
   * build (rt_program_executable_for), so it reports that build: the CTS's
   * test_device_partition builds for the parent device only and then checks
   * the build status of every device of the program, sub-devices included. */
  for (cl_device_id d = dev->parent; d && b->status == CL_BUILD_NONE; d = d->parent) {
    int j = rt_program_device_index(p, d);
    if (j >= 0)
      b = &p->builds[j];
  }
  bool none = b->status == CL_BUILD_NONE;
  rt_build_view v = {
    .status = b->status,
    .binary_type = b->binary_type,
    .options = none ? "" : b->options,
    .log = none ? "" : b->log,
    .global_var_bytes = rt_build_is_executable(b) ? b->global_var_bytes : 0,
  };
  cl_int err = fn(&v, ctx);
  pthread_mutex_unlock(&p->lock);
  return err;
}

/* lanecl-kernel-runner: data-driven kernel tests, one case per run.
 *
 *   lanecl-kernel-runner [--print] [--platform NAME] CASE.sim [BUILD OPTION...]
 *
 * Builds CASE.cl (or the `source` the .sim names) through the ICD loader,
 * sets the arguments the .sim describes, runs the NDRange, reads back the
 * buffers marked `out` and compares the lines it prints with CASE.ref.
 * Extra arguments are appended to the build options (ctest runs every case
 * a second time with -cl-opt-disable).  --print prints the output instead.
 * It runs on the platform named LaneCL; --platform runs it on another (the
 * references: "Portable Computing Language", "Oclgrind"), which only
 * --print may do (tests/kernels/make-ref.sh writes .ref files with it).
 *
 * The .sim format, one directive per line ('#' starts a comment):
 *   source FILE.cl            the program (default: CASE.cl), relative to the .sim
 *   kernel NAME               the kernel to run
 *   options OPTION...         build options
 *   global X [Y [Z]]          global size (work_dim = number of values)
 *   local X [Y [Z]]           local size (absent: NULL, the runtime chooses)
 *   offset X [Y [Z]]          global offset
 *   arg buffer TYPE COUNT [out] [FILL]   a buffer of COUNT elements
 *   arg null                  a NULL buffer
 *   arg local BYTES           a __local block
 *   arg value TYPE V...       a scalar or vector by value (V... packed)
 *   arg struct TYPE V [TYPE V]...   a struct by value: fields at their
 *                             natural alignment, size rounded to the largest
 * Sizes and counts may be `max` (CL_KERNEL_WORK_GROUP_SIZE of the kernel on
 * the device) or `max*N`.  TYPE: char uchar short ushort int uint long ulong
 * float double.  FILL: zero (default) | seq START STEP | const V |
 * values V V ... (the rest of the line).
 *
 * The output (and the .ref): for each `out` buffer in argument order a line
 * "arg I:" and then its elements, 8 to a line, separated by one space
 * (integers in decimal, float %.9g, double %.17g).  A .ref begins with a
 * line "# reference: HOW" saying how it was produced (by a reference
 * implementation or a computation of its own, never by LaneCL's output);
 * the '#' lines at its top are not compared. */
#include <CL/cl.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 32
#define MAX_TOKENS 4096

typedef enum { T_CHAR, T_UCHAR, T_SHORT, T_USHORT, T_INT, T_UINT, T_LONG, T_ULONG, T_FLOAT, T_DOUBLE } elem_type;

static const struct {
  const char *name;
  size_t size;
} types[] = {
  {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},
  {"uint", 4}, {"long", 8}, {"ulong", 8}, {"float", 4}, {"double", 8},
};

typedef enum { A_BUFFER, A_NULL, A_LOCAL, A_VALUE } arg_kind;

typedef struct arg {
  arg_kind kind;
  elem_type type;          /* buffers */
  char count_expr[64];     /* buffers: element count (may use max) */
  bool out;
  char fill[16];           /* zero seq const values */
  double fill_a, fill_b;
  char **values;           /* values fill: the tokens */
  int nvalues;
  char local_expr[64];     /* local: bytes */
  unsigned char bytes[256];/* value/struct: the packed bytes */
  size_t nbytes;
  size_t count;            /* buffers: resolved */
  cl_mem mem;
} arg;

typedef struct sim {
  char source[1024];
  char kernel[256];
  char options[1024];
  char global_expr[3][64], local_expr[3][64], offset_expr[3][64];
  int dims, ldims, odims;
  arg args[MAX_ARGS];
  int nargs;
} sim;

static const char *sim_path;
static int sim_line;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (sim_line)
    fprintf(stderr, "%s:%d: ", sim_path, sim_line);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(1);
}

static void check(cl_int err, const char *what)
{
  if (err != CL_SUCCESS)
    die("%s failed: error %d", what, err);
}

static elem_type parse_type(const char *s)
{
  for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
    if (!strcmp(s, types[i].name))
      return (elem_type)i;
  die("unknown type '%s'", s);
}

/* Stores value text v as type t at dst. */
static void store(elem_type t, const char *v, unsigned char *dst)
{
  char *end;
  if (t == T_FLOAT || t == T_DOUBLE) {
    double d = strtod(v, &end);
    if (*end)
      die("bad number '%s'", v);
    if (t == T_FLOAT) {
      float f = (float)d;
      memcpy(dst, &f, 4);
    } else {
      memcpy(dst, &d, 8);
    }
    return;
  }
  long long x = strtoll(v, &end, 0);
  if (*end)
    die("bad integer '%s'", v);
  uint64_t u = (uint64_t)x;
  memcpy(dst, &u, types[t].size); /* little-endian: the low bytes */
}

static void store_number(elem_type t, double v, unsigned char *dst)
{
  char text[64];
  if (t == T_FLOAT || t == T_DOUBLE)
    snprintf(text, sizeof(text), "%.17g", v);
  else
    snprintf(text, sizeof(text), "%lld", (long long)v);
  store(t, text, dst);
}

static int tokenize(char *line, char **tok)
{
  int n = 0;
  for (char *save = NULL, *t = strtok_r(line, " \t\r\n", &save); t && n < MAX_TOKENS;
       t = strtok_r(NULL, " \t\r\n", &save))
    tok[n++] = t;
  return n;
}

static void parse_arg(sim *s, char **tok, int n)
{
  if (s->nargs == MAX_ARGS)
    die("too many arguments");
  arg *a = &s->args[s->nargs++];
  memset(a, 0, sizeof(*a));
  if (n < 2)
    die("arg: kind missing");
  if (!strcmp(tok[1], "null")) {
    a->kind = A_NULL;
  } else if (!strcmp(tok[1], "local")) {
    if (n != 3)
      die("arg local BYTES");
    a->kind = A_LOCAL;
    snprintf(a->local_expr, sizeof(a->local_expr), "%s", tok[2]);
  } else if (!strcmp(tok[1], "buffer")) {
    if (n < 4)
      die("arg buffer TYPE COUNT [out] [FILL]");
    a->kind = A_BUFFER;
    a->type = parse_type(tok[2]);
    snprintf(a->count_expr, sizeof(a->count_expr), "%s", tok[3]);
    snprintf(a->fill, sizeof(a->fill), "zero");
    for (int i = 4; i < n; i++) {
      if (!strcmp(tok[i], "out")) {
        a->out = true;
      } else if (!strcmp(tok[i], "zero")) {
        snprintf(a->fill, sizeof(a->fill), "zero");
      } else if (!strcmp(tok[i], "seq") && i + 2 < n) {
        snprintf(a->fill, sizeof(a->fill), "seq");
        a->fill_a = strtod(tok[i + 1], NULL);
        a->fill_b = strtod(tok[i + 2], NULL);
        i += 2;
      } else if (!strcmp(tok[i], "const") && i + 1 < n) {
        snprintf(a->fill, sizeof(a->fill), "const");
        a->fill_a = strtod(tok[i + 1], NULL);
        i += 1;
      } else if (!strcmp(tok[i], "values")) {
        snprintf(a->fill, sizeof(a->fill), "values");
        a->nvalues = n - i - 1;
        a->values = malloc(sizeof(char *) * (a->nvalues ? a->nvalues : 1));
        for (int v = 0; v < a->nvalues; v++)
          a->values[v] = strdup(tok[i + 1 + v]);
        break;
      } else {
        die("arg buffer: unknown word '%s'", tok[i]);
      }
    }
  } else if (!strcmp(tok[1], "value")) {
    if (n < 4)
      die("arg value TYPE V...");
    a->kind = A_VALUE;
    elem_type t = parse_type(tok[2]);
    for (int i = 3; i < n; i++) {
      if (a->nbytes + types[t].size > sizeof(a->bytes))
        die("value too large");
      store(t, tok[i], a->bytes + a->nbytes);
      a->nbytes += types[t].size;
    }
  } else if (!strcmp(tok[1], "struct")) {
    if (n < 4 || (n - 2) % 2)
      die("arg struct TYPE V [TYPE V]...");
    a->kind = A_VALUE;
    size_t align = 1;
    for (int i = 2; i < n; i += 2) {
      elem_type t = parse_type(tok[i]);
      size_t sz = types[t].size;
      a->nbytes = (a->nbytes + sz - 1) / sz * sz;
      if (a->nbytes + sz > sizeof(a->bytes))
        die("struct too large");
      store(t, tok[i + 1], a->bytes + a->nbytes);
      a->nbytes += sz;
      if (sz > align)
        align = sz;
    }
    a->nbytes = (a->nbytes + align - 1) / align * align;
  } else {
    die("unknown arg kind '%s'", tok[1]);
  }
}

static void parse_sizes(char **tok, int n, char out[3][64], int *dims)
{
  if (n < 2 || n > 4)
    die("%s takes 1 to 3 sizes", tok[0]);
  *dims = n - 1;
  for (int i = 1; i < n; i++)
    snprintf(out[i - 1], 64, "%s", tok[i]);
}

static void parse_sim(const char *path, sim *s)
{
  FILE *f = fopen(path, "r");
  if (!f)
    die("can't open %s", path);
  memset(s, 0, sizeof(*s));
  /* default source: CASE.cl */
  snprintf(s->source, sizeof(s->source), "%s", path);
  char *dot = strrchr(s->source, '.');
  if (dot)
    snprintf(dot, sizeof(s->source) - (size_t)(dot - s->source), ".cl");
  static char line[65536];
  static char *tok[MAX_TOKENS];
  while (fgets(line, sizeof(line), f)) {
    sim_line++;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    char copy[sizeof(line)];
    snprintf(copy, sizeof(copy), "%s", line);
    int n = tokenize(line, tok);
    if (!n)
      continue;
    if (!strcmp(tok[0], "source") && n == 2) {
      const char *slash = strrchr(path, '/');
      snprintf(s->source, sizeof(s->source), "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, tok[1]);
    } else if (!strcmp(tok[0], "kernel") && n == 2) {
      snprintf(s->kernel, sizeof(s->kernel), "%s", tok[1]);
    } else if (!strcmp(tok[0], "options")) {
      const char *rest = strstr(copy, "options") + strlen("options");
      while (isspace((unsigned char)*rest))
        rest++;
      snprintf(s->options, sizeof(s->options), "%s", rest);
      s->options[strcspn(s->options, "\r\n")] = 0;
    } else if (!strcmp(tok[0], "global")) {
      parse_sizes(tok, n, s->global_expr, &s->dims);
    } else if (!strcmp(tok[0], "local")) {
      parse_sizes(tok, n, s->local_expr, &s->ldims);
    } else if (!strcmp(tok[0], "offset")) {
      parse_sizes(tok, n, s->offset_expr, &s->odims);
    } else if (!strcmp(tok[0], "arg")) {
      parse_arg(s, tok, n);
    } else {
      die("unknown directive '%s'", tok[0]);
    }
  }
  fclose(f);
  sim_line = 0;
  if (!s->kernel[0] || !s->dims)
    die("%s: needs kernel and global", path);
  if ((s->ldims && s->ldims != s->dims) || (s->odims && s->odims != s->dims))
    die("%s: global, local and offset must have the same number of sizes", path);
}

/* A size: a number, max, or max*N. */
static size_t eval_size(const char *e, size_t max)
{
  if (!strncmp(e, "max", 3)) {
    if (!e[3])
      return max;
    if (e[3] == '*')
      return max * (size_t)strtoull(e + 4, NULL, 0);
    die("bad size '%s'", e);
  }
  char *end;
  unsigned long long v = strtoull(e, &end, 0);
  if (*end)
    die("bad size '%s'", e);
  return (size_t)v;
}

static char *read_text(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  size_t got = fread(s, 1, (size_t)n, f);
  s[got] = 0;
  fclose(f);
  return s;
}

static cl_device_id pick_device(const char *want)
{
  cl_platform_id ids[16];
  cl_uint n = 0;
  check(clGetPlatformIDs(16, ids, &n), "clGetPlatformIDs");
  cl_platform_id platform = NULL;
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[256] = "";
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
    if (!strcmp(name, want))
      platform = ids[i];
  }
  if (!platform)
    die("no platform named \"%s\" (is OCL_ICD_VENDORS set?)", want);
  cl_device_id dev;
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), "clGetDeviceIDs");
  return dev;
}

/* Appends the elements of an output buffer to out. */
static void print_buffer(FILE *out, int index, const arg *a, const unsigned char *data)
{
  fprintf(out, "arg %d:\n", index);
  size_t sz = types[a->type].size;
  for (size_t i = 0; i < a->count; i++) {
    const unsigned char *p = data + i * sz;
    union {
      int8_t c; uint8_t uc; int16_t s; uint16_t us; int32_t i; uint32_t ui; int64_t l; uint64_t ul; float f; double d;
    } v;
    memcpy(&v, p, sz);
    switch (a->type) {
    case T_CHAR: fprintf(out, "%d", v.c); break;
    case T_UCHAR: fprintf(out, "%u", v.uc); break;
    case T_SHORT: fprintf(out, "%d", v.s); break;
    case T_USHORT: fprintf(out, "%u", v.us); break;
    case T_INT: fprintf(out, "%d", v.i); break;
    case T_UINT: fprintf(out, "%u", v.ui); break;
    case T_LONG: fprintf(out, "%lld", (long long)v.l); break;
    case T_ULONG: fprintf(out, "%llu", (unsigned long long)v.ul); break;
    case T_FLOAT: fprintf(out, "%.9g", v.f); break;
    case T_DOUBLE: fprintf(out, "%.17g", v.d); break;
    }
    fputc(i % 8 == 7 || i + 1 == a->count ? '\n' : ' ', out);
  }
}

/* Compares the output with the reference, line by line (trailing blanks
 * ignored, the '#' lines at the reference's top skipped). */
static int compare(const char *got, const char *want, const char *ref_path)
{
  int line = 1;
  const char *g = got, *w = want;
  if (strncmp(want, "# reference: ", 13)) {
    fprintf(stderr, "%s:1: no \"# reference: ...\" line saying how the reference was produced\n", ref_path);
    return 1;
  }
  while (*w == '#') {
    w += strcspn(w, "\n");
    w += *w == '\n';
    line++;
  }
  while (*g || *w) {
    size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");
    size_t gt = gl, wt = wl;
    while (gt && isspace((unsigned char)g[gt - 1]))
      gt--;
    while (wt && isspace((unsigned char)w[wt - 1]))
      wt--;
    if (gt != wt || memcmp(g, w, gt)) {
      fprintf(stderr, "%s:%d: output differs\n  got:      %.*s\n  expected: %.*s\n", ref_path, line, (int)gt, g,
              (int)wt, w);
      return 1;
    }
    g += gl + (g[gl] == '\n');
    w += wl + (w[wl] == '\n');
    line++;
  }
  return 0;
}

int main(int argc, char **argv)
{
  int argi = 1;
  bool print_only = argi < argc && !strcmp(argv[argi], "--print");
  if (print_only)
    argi++;
  const char *platform = "LaneCL";
  if (argi + 1 < argc && !strcmp(argv[argi], "--platform")) {
    platform = argv[argi + 1];
    argi += 2;
  }
  if (argi >= argc || (!print_only && strcmp(platform, "LaneCL"))) {
    fprintf(stderr, "usage: %s [--print] [--platform NAME] CASE.sim [BUILD OPTION...] (--platform only with --print)\n",
            argv[0]);
    return 2;
  }
  sim_path = argv[argi++];
  static sim s;
  parse_sim(sim_path, &s);
  for (; argi < argc; argi++) {
    size_t len = strlen(s.options);
    snprintf(s.options + len, sizeof(s.options) - len, "%s%s", len ? " " : "", argv[argi]);
  }

  cl_device_id dev = pick_device(platform);
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  check(err, "clCreateContext");
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  check(err, "clCreateCommandQueueWithProperties");
  char *src = read_text(s.source);
  if (!src)
    die("can't read %s", s.source);
  const char *srcp = src;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, NULL, &err);
  check(err, "clCreateProgramWithSource");
  err = clBuildProgram(prog, 1, &dev, s.options, NULL, NULL);
  if (err != CL_SUCCESS) {
    static char log[1 << 16];
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
    die("clBuildProgram (%s) failed: error %d\n%s", s.options, err, log);
  }
  cl_kernel k = clCreateKernel(prog, s.kernel, &err);
  check(err, "clCreateKernel");
  size_t max = 0;
  check(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(max), &max, NULL),
        "clGetKernelWorkGroupInfo");

  for (int i = 0; i < s.nargs; i++) {
    arg *a = &s.args[i];
    switch (a->kind) {
    case A_BUFFER: {
      a->count = eval_size(a->count_expr, max);
      size_t sz = types[a->type].size, bytes = a->count * sz;
      unsigned char *init = calloc(bytes ? bytes : 1, 1);
      for (size_t e = 0; e < a->count; e++) {
        if (!strcmp(a->fill, "seq"))
          store_number(a->type, a->fill_a + a->fill_b * (double)e, init + e * sz);
        else if (!strcmp(a->fill, "const"))
          store_number(a->type, a->fill_a, init + e * sz);
        else if (!strcmp(a->fill, "values") && a->nvalues)
          store(a->type, a->values[e % (size_t)a->nvalues], init + e * sz);
      }
      a->mem = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, bytes ? bytes : 1, init, &err);
      check(err, "clCreateBuffer");
      free(init);
      check(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &a->mem), "clSetKernelArg (buffer)");
      break;
    }
    case A_NULL: check(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), NULL), "clSetKernelArg (null)"); break;
    case A_LOCAL:
      check(clSetKernelArg(k, (cl_uint)i, eval_size(a->local_expr, max), NULL), "clSetKernelArg (local)");
      break;
    case A_VALUE: check(clSetKernelArg(k, (cl_uint)i, a->nbytes, a->bytes), "clSetKernelArg (value)"); break;
    }
  }

  size_t global[3], local[3], offset[3];
  for (int d = 0; d < s.dims; d++) {
    global[d] = eval_size(s.global_expr[d], max);
    local[d] = s.ldims ? eval_size(s.local_expr[d], max) : 0;
    offset[d] = s.odims ? eval_size(s.offset_expr[d], max) : 0;
  }
  check(clEnqueueNDRangeKernel(q, k, (cl_uint)s.dims, s.odims ? offset : NULL, global, s.ldims ? local : NULL, 0,
                               NULL, NULL),
        "clEnqueueNDRangeKernel");

  char *output = NULL;
  size_t output_size = 0;
  FILE *out = open_memstream(&output, &output_size);
  for (int i = 0; i < s.nargs; i++) {
    arg *a = &s.args[i];
    if (a->kind != A_BUFFER || !a->out)
      continue;
    size_t bytes = a->count * types[a->type].size;
    unsigned char *data = malloc(bytes ? bytes : 1);
    check(clEnqueueReadBuffer(q, a->mem, CL_TRUE, 0, bytes, data, 0, NULL, NULL), "clEnqueueReadBuffer");
    print_buffer(out, i, a, data);
    free(data);
  }
  fclose(out);

  int rc = 0;
  if (print_only) {
    fputs(output, stdout);
  } else {
    char ref_path[1200];
    snprintf(ref_path, sizeof(ref_path), "%s", sim_path);
    char *dot = strrchr(ref_path, '.');
    snprintf(dot, sizeof(ref_path) - (size_t)(dot - ref_path), ".ref");
    char *want = read_text(ref_path);
    if (!want)
      die("can't read %s", ref_path);
    rc = compare(output, want, ref_path);
    printf("%s %s (%s)\n", rc ? "FAIL" : "PASS", sim_path, s.options[0] ? s.options : "default options");
    free(want);
  }
  for (int i = 0; i < s.nargs; i++)
    if (s.args[i].mem)
      clReleaseMemObject(s.args[i].mem);
  free(output);
  free(src);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return rc;
}

/* The LANECL_* environment variables (config/lanecl_config.h). */
#include "config/lanecl_config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* The one list.  README.md's table of variables is checked against it
 * (tests/config/test_config.c): names, values and defaults. */
static const lc_var_desc table[LC_NVARS] = {
  [LC_DEBUG] = {"LANECL_DEBUG", LC_TYPE_STR, 0, 0, "err,api,build,queue,sched,mem,all", "none", 0, false, false,
                "runtime", "log categories to stderr (comma separated)"},
  [LC_CACHE_DIR] = {"LANECL_CACHE_DIR", LC_TYPE_STR, 0, 0, "a directory, or off", "$XDG_CACHE_HOME/lanecl or ~/.cache/lanecl",
                    0, false, false, "runtime", "the program cache; off: no cache"},
  [LC_CACHE_MAX_MB] = {"LANECL_CACHE_MAX_MB", LC_TYPE_UINT, 1, 1ul << 30, NULL, "1024", 1024, true, false, "runtime",
                       "size bound of the program cache in MiB"},
  [LC_NUM_THREADS] = {"LANECL_NUM_THREADS", LC_TYPE_UINT, 1, 1024, NULL, "one per core", 0, false, false,
                      "scheduler (from the runtime)", "number of workers of a device's pool"},
  [LC_AFFINITY] = {"LANECL_AFFINITY", LC_TYPE_ENUM, 0, 0, "0|1", "1", 1, true, false, "scheduler (from the runtime)",
                   "0: workers are not pinned to their cores"},
  [LC_SPIN_US] = {"LANECL_SPIN_US", LC_TYPE_UINT, 0, 1000000, NULL, "20", 20, true, false,
                  "scheduler (from the runtime), runtime", "how long an idle worker or a waiting caller spins before it sleeps"},
  [LC_MEM_PLACE] = {"LANECL_MEM_PLACE", LC_TYPE_ENUM, 0, 0, "0|auto|always", "auto", 1, true, true, "runtime",
                    "NUMA placement of buffers: 0 off, auto where there are several nodes, always"},
  [LC_STREAM_STORES] = {"LANECL_STREAM_STORES", LC_TYPE_ENUM, 0, 0, "0|1|auto", "auto", 2, true, false, "runtime",
                        "streaming stores of a kernel's wide __global stores: never, always, past the LLC"},
  [LC_COMPILER] = {"LANECL_COMPILER", LC_TYPE_STR, 0, 0, "a path", "beside liblanecl.so", 0, false, false, "runtime",
                   "path of liblanecl_cc.so"},
  [LC_BUILTINS] = {"LANECL_BUILTINS", LC_TYPE_STR, 0, 0, "a path", "beside liblanecl_cc.so", 0, false, false, "compiler",
                   "path of the builtins library"},
  [LC_CLANG_SERVER] = {"LANECL_CLANG_SERVER", LC_TYPE_ENUM, 0, 0, "0|1", "1", 1, true, false, "compiler",
                       "0: each build starts its own clang process (no fork server)"},
  [LC_CPU] = {"LANECL_CPU", LC_TYPE_STR, 0, 0, "an LLVM CPU name", "the host's", 0, false, false,
              "runtime, lanecl-cc", "the CPU model the compiler tunes code for"},
  [LC_SIMD_BITS] = {"LANECL_SIMD_BITS", LC_TYPE_ENUM, 0, 0, "128|256|512", "the host's", 0, false, false,
                    "runtime, compiler, lanecl-cc", "the device's SIMD width"},
  [LC_LLVM_ARGS] = {"LANECL_LLVM_ARGS", LC_TYPE_STR, 0, 0, "LLVM options, space separated", "none", 0, false, false,
                    "compiler", "extra LLVM options"},
  [LC_CC_TIMING] = {"LANECL_CC_TIMING", LC_TYPE_FLAG, 0, 0, "set: on", "off", 0, false, false, "compiler",
                    "the compiler prints the time of each phase"},
  [LC_CC_THREADS] = {"LANECL_CC_THREADS", LC_TYPE_UINT, 1, 64, NULL, "the cores the process may use, at most 16", 0,
                     false, true, "compiler", "threads that optimize and compile a program's parts"},
  [LC_CC_LAZY] = {"LANECL_CC_LAZY", LC_TYPE_ENUM, 0, 0, "0|1", "1", 1, true, true, "runtime",
                  "1: clBuildProgram stops before code generation, a kernel's code is made at its first launch; "
                  "0: every kernel's code at clBuildProgram"},
  [LC_CC_VECMATH] = {"LANECL_CC_VECMATH", LC_TYPE_ENUM, 0, 0, "0|1", "1", 1, true, true, "compiler",
                     "1: a float transcendental called from four places or more is one out-of-line vector function; "
                     "0: inlined at every call"},
};

/* Names read by the tests and tools, not by LaneCL: not warned about
 * (LANECL_ICD: the conformance runner's, docs/conformance.md). */
static const char *const others[] = {"LANECL_BUILD_DIR", "LANECL_QUICK", "LANECL_ICD"};
#define TEST_PREFIX "LANECL_TEST_"

typedef struct parsed {
  bool set;      /* set, not empty */
  bool valid;    /* set to a valid value */
  unsigned long num;
  const char *raw; /* the value given (once: a copy), or NULL */
} parsed;

static parsed values[LC_NVARS];
static pthread_once_t parse_once = PTHREAD_ONCE_INIT;

const lc_var_desc *lc_config_table(void)
{
  return table;
}

/* Index of word in allowed ("a|b|c"), -1 if not one. */
static long enum_index(const char *allowed, const char *word)
{
  size_t len = strlen(word);
  long i = 0;
  for (const char *p = allowed;; i++) {
    const char *bar = strchr(p, '|');
    size_t n = bar ? (size_t)(bar - p) : strlen(p);
    if (n == len && !strncmp(p, word, n))
      return i;
    if (!bar)
      return -1;
    p = bar + 1;
  }
}

/* The words of each LC_TYPE_ENUM variable's allowed list, split once. */
#define MAX_WORDS 8
static char words[LC_NVARS][MAX_WORDS][16];

static void split_words(lc_var v)
{
  const char *p = table[v].allowed;
  for (unsigned i = 0; p && i < MAX_WORDS; i++) {
    size_t n = strcspn(p, "|");
    if (n < sizeof(words[v][i]))
      memcpy(words[v][i], p, n);
    p = p[n] ? p + n + 1 : NULL;
  }
}

static const char *enum_word(lc_var v, unsigned long i)
{
  return i < MAX_WORDS && words[v][i][0] ? words[v][i] : NULL;
}

static void parse(lc_var v, const char *raw, parsed *out)
{
  const lc_var_desc *d = &table[v];
  memset(out, 0, sizeof(*out));
  out->num = d->def_num;
  if (d->type == LC_TYPE_FLAG) {
    out->set = out->valid = raw != NULL; /* even empty: LANECL_CC_TIMING= turns it on */
    out->num = raw != NULL;
    out->raw = raw;
    return;
  }
  if (!raw || !*raw)
    return;
  out->set = true;
  out->raw = raw;
  switch (d->type) {
  case LC_TYPE_UINT: {
    char *end;
    errno = 0;
    unsigned long n = strtoul(raw, &end, 10);
    if (errno || *end || raw[0] == '-' || raw[0] == '+' || raw[0] == ' ' || n < d->lo || n > d->hi)
      return;
    out->num = n;
    break;
  }
  case LC_TYPE_ENUM: {
    long i = enum_index(d->allowed, raw);
    if (i < 0)
      return;
    out->num = (unsigned long)i;
    break;
  }
  default:
    break;
  }
  out->valid = true;
}

static void parse_all(void)
{
  for (int v = 0; v < LC_NVARS; v++) {
    if (table[v].type == LC_TYPE_ENUM)
      split_words((lc_var)v);
    parse((lc_var)v, getenv(table[v].name), &values[v]);
    /* A copy, for a later setenv or putenv of the name; without memory,
     * glibc's own string (setenv and unsetenv never free one). */
    char *copy = values[v].raw ? strdup(values[v].raw) : NULL;
    if (copy)
      values[v].raw = copy;
  }
}

/* The parsed value of v: once, or each time for a live variable (into *tmp). */
static const parsed *get(lc_var v, parsed *tmp)
{
  if ((unsigned)v >= LC_NVARS)
    return NULL;
  pthread_once(&parse_once, parse_all); /* also the words of the LC_TYPE_ENUM lists */
  if (table[v].live) {
    parse(v, getenv(table[v].name), tmp);
    return tmp;
  }
  return &values[v];
}

bool lc_config_given(lc_var v)
{
  parsed tmp;
  const parsed *p = get(v, &tmp);
  return p && p->valid;
}

const char *lc_config_str(lc_var v)
{
  parsed tmp;
  const parsed *p = get(v, &tmp);
  if (!p)
    return NULL;
  const lc_var_desc *d = &table[v];
  if (d->type == LC_TYPE_ENUM)
    return p->valid || d->def_is_value ? enum_word(v, p->num) : NULL;
  if (p->valid)
    return d->live ? NULL : p->raw; /* a live value's text is not kept */
  return d->def_is_value ? d->def : NULL;
}

unsigned long lc_config_num(lc_var v)
{
  parsed tmp;
  const parsed *p = get(v, &tmp);
  if (!p || table[v].type == LC_TYPE_STR)
    return 0;
  return p->valid ? p->num : table[v].def_num;
}

bool lc_config_known_name(const char *name)
{
  size_t len = strcspn(name, "=");
  for (int v = 0; v < LC_NVARS; v++)
    if (strlen(table[v].name) == len && !strncmp(table[v].name, name, len))
      return true;
  for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
    if (strlen(others[i]) == len && !strncmp(others[i], name, len))
      return true;
  return !strncmp(name, TEST_PREFIX, strlen(TEST_PREFIX));
}

/* Whether LANECL_DEBUG names category cat (or all). */
static bool debug_has(const char *cat)
{
  const char *s = values[LC_DEBUG].raw;
  size_t len = strlen(cat);
  for (const char *p = s; p && *p;) {
    size_t n = strcspn(p, ",");
    if ((n == len && !strncmp(p, cat, n)) || (n == 3 && !strncmp(p, "all", 3)))
      return true;
    p += n + (p[n] == ',');
  }
  return false;
}

static void report_once(void)
{
  pthread_once(&parse_once, parse_all);
  if (!values[LC_DEBUG].raw)
    return;
  if (debug_has("err"))
    for (int v = 0; v < LC_NVARS; v++) {
      const lc_var_desc *d = &table[v];
      const parsed *p = &values[v];
      if (!p->set || p->valid)
        continue;
      const char *raw = p->raw;
      if (d->type == LC_TYPE_UINT)
        fprintf(stderr, "LaneCL: %s=%s: not a number in %lu..%lu; the default, %s, is used\n", d->name, raw, d->lo,
                d->hi, d->def);
      else {
        char words[128];
        snprintf(words, sizeof(words), "%s", d->allowed);
        for (char *c = words; *c; c++)
          if (*c == '|')
            *c = '/';
        fprintf(stderr, "LaneCL: %s=%s: not one of %s; the default, %s, is used\n", d->name, raw, words, d->def);
      }
    }
  for (char **e = environ; e && *e; e++)
    if (!strncmp(*e, "LANECL_", 7) && !lc_config_known_name(*e)) {
      int len = (int)strcspn(*e, "=");
      fprintf(stderr, "LaneCL: warning: %.*s is not a LaneCL variable; ignored (see the README's list)\n", len, *e);
    }
}

void lc_config_report(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, report_once);
}

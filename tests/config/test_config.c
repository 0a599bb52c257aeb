/* The LANECL_* variables' one table (config/): README.md's table agrees
 * with it; a bad value is reported under LANECL_DEBUG=err and its default
 * used; a LANECL_* name nothing reads is warned about. */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/lanecl_config.h"
#include "tests/testlib.h"

/* ---- README.md ---- */

static char *read_all(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    tl_fail(__FILE__, __LINE__, "can't open %s", path);
  static char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = 0;
  return buf;
}

/* A table cell without code spans' backticks and surrounding blanks. */
static void cell_text(const char *from, size_t len, char *out, size_t cap)
{
  size_t k = 0;
  while (len && *from == ' ')
    from++, len--;
  while (len && from[len - 1] == ' ')
    len--;
  for (size_t i = 0; i < len && k + 1 < cap; i++)
    if (from[i] != '`')
      out[k++] = from[i];
  out[k] = 0;
}

/* The values cell the table implies. */
static void values_text(const lc_var_desc *d, char *out, size_t cap)
{
  if (d->type == LC_TYPE_UINT) {
    snprintf(out, cap, "%lu..%lu", d->lo, d->hi);
  } else if (d->type == LC_TYPE_ENUM) {
    size_t k = 0;
    for (const char *p = d->allowed; *p && k + 3 < cap; p++) {
      if (*p == '|') {
        out[k++] = ',';
        out[k++] = ' ';
      } else
        out[k++] = *p;
    }
    out[k] = 0;
  } else {
    snprintf(out, cap, "%s", d->allowed);
  }
}

TEST(readme_table_is_the_config_table)
{
  const char *data = getenv("LANECL_TEST_DATA");
  ASSERT_TRUE(data != NULL);
  char path[4096];
  snprintf(path, sizeof(path), "%s/../README.md", data);
  const char *readme = read_all(path);
  const char *sec = strstr(readme, "\n## Environment\n");
  ASSERT_TRUE(sec != NULL);
  const char *end = strstr(sec + 1, "\n## ");
  const lc_var_desc *t = lc_config_table();
  bool seen[LC_NVARS] = {0};
  unsigned rows = 0;
  for (const char *line = sec; line && (!end || line < end); line = strchr(line + 1, '\n')) {
    if (strncmp(line, "\n| `LANECL_", 11))
      continue;
    /* | `NAME` | values | default | meaning | */
    const char *c[5];
    const char *p = line + 1;
    for (int i = 0; i < 5; i++) {
      c[i] = strchr(p, '|');
      ASSERT_TRUE(c[i] != NULL && (!strchr(p, '\n') || c[i] < strchr(p, '\n')));
      p = c[i] + 1;
    }
    char name[128], values[256], def[256];
    cell_text(c[0] + 1, (size_t)(c[1] - c[0] - 1), name, sizeof(name));
    cell_text(c[1] + 1, (size_t)(c[2] - c[1] - 1), values, sizeof(values));
    cell_text(c[2] + 1, (size_t)(c[3] - c[2] - 1), def, sizeof(def));
    rows++;
    int v;
    for (v = 0; v < LC_NVARS; v++)
      if (!strcmp(t[v].name, name))
        break;
    if (v == LC_NVARS)
      tl_fail(__FILE__, __LINE__, "README.md lists %s, which config/config.c's table does not", name);
    if (seen[v])
      tl_fail(__FILE__, __LINE__, "README.md lists %s twice", name);
    seen[v] = true;
    char want[256];
    values_text(&t[v], want, sizeof(want));
    if (strcmp(values, want))
      tl_fail(__FILE__, __LINE__, "%s: README.md's values \"%s\", the table's \"%s\"", name, values, want);
    if (strcmp(def, t[v].def))
      tl_fail(__FILE__, __LINE__, "%s: README.md's default \"%s\", the table's \"%s\"", name, def, t[v].def);
  }
  for (int v = 0; v < LC_NVARS; v++)
    if (!seen[v])
      tl_fail(__FILE__, __LINE__, "%s is in config/config.c's table, not in README.md's", t[v].name);
  ASSERT_EQ(rows, LC_NVARS);
}

/* The table itself: every entry named, documented, its default a value. */
TEST(table_is_complete)
{
  const lc_var_desc *t = lc_config_table();
  for (int v = 0; v < LC_NVARS; v++) {
    ASSERT_TRUE(t[v].name && !strncmp(t[v].name, "LANECL_", 7));
    ASSERT_TRUE(t[v].def && t[v].doc && t[v].layer && t[v].doc[0]);
    ASSERT_TRUE(lc_config_known_name(t[v].name));
    if (t[v].type == LC_TYPE_UINT && t[v].def_is_value)
      ASSERT_TRUE(t[v].def_num >= t[v].lo && t[v].def_num <= t[v].hi);
    if (t[v].type == LC_TYPE_ENUM)
      ASSERT_TRUE(t[v].allowed != NULL);
  }
}

/* ---- values, in a child process of their own (a fresh parse) ---- */

/* Runs fn in a child with stderr into a file; returns what it wrote. */
static char *run_child(void (*fn)(void))
{
  static char out[65536];
  char path[] = "/tmp/lanecl-config-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(fd >= 0);
  unlink(path);
  fflush(stderr);
  pid_t pid = fork();
  ASSERT_TRUE(pid >= 0);
  if (pid == 0) {
    dup2(fd, 2);
    fn();
    fflush(stderr);
    _exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    ssize_t n = pread(fd, out, sizeof(out) - 1, 0);
    out[n > 0 ? n : 0] = 0;
    tl_fail(__FILE__, __LINE__, "child failed (status %d):\n%s", st, out);
  }
  ssize_t n = pread(fd, out, sizeof(out) - 1, 0);
  close(fd);
  out[n > 0 ? n : 0] = 0;
  return out;
}

static unsigned count(const char *hay, const char *needle)
{
  unsigned n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

static void set_bad_values(void)
{
  setenv("LANECL_SPIN_US", "fast", 1);
  setenv("LANECL_CACHE_MAX_MB", "0", 1);
  setenv("LANECL_NUM_THREADS", "-2", 1);
  setenv("LANECL_MEM_PLACE", "sometimes", 1);
  setenv("LANECL_STREAM_STORES", "yes", 1);
  setenv("LANECL_SIMD_BITS", "300", 1);
  setenv("LANECL_CC_THREADS", "65", 1);
  setenv("LANECL_AFFINITY", "no", 1);
}

static void bad_values_child(void)
{
  set_bad_values();
  setenv("LANECL_DEBUG", "err", 1);
  /* The defaults. */
  ASSERT_EQ(lc_config_num(LC_SPIN_US), 20);
  ASSERT_EQ(lc_config_num(LC_CACHE_MAX_MB), 1024);
  ASSERT_EQ(lc_config_num(LC_NUM_THREADS), 0);
  ASSERT_STREQ(lc_config_str(LC_MEM_PLACE), "auto");
  ASSERT_STREQ(lc_config_str(LC_STREAM_STORES), "auto");
  ASSERT_TRUE(lc_config_str(LC_SIMD_BITS) == NULL);
  ASSERT_EQ(lc_config_num(LC_CC_THREADS), 0);
  ASSERT_EQ(lc_config_num(LC_AFFINITY), 1);
  ASSERT_STREQ(lc_config_str(LC_AFFINITY), "1");
  static const lc_var bad[] = {LC_SPIN_US, LC_CACHE_MAX_MB, LC_NUM_THREADS, LC_MEM_PLACE,
                               LC_STREAM_STORES, LC_SIMD_BITS, LC_CC_THREADS, LC_AFFINITY};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    ASSERT_TRUE(!lc_config_given(bad[i]));
  lc_config_report();
  lc_config_report(); /* once */
}

TEST(bad_value_reported_under_debug_err_and_default_used)
{
  char *log = run_child(bad_values_child);
  static const char *want[] = {
    "LaneCL: LANECL_SPIN_US=fast: not a number in 0..1000000; the default, 20, is used\n",
    "LaneCL: LANECL_CACHE_MAX_MB=0: not a number in 1..1073741824; the default, 1024, is used\n",
    "LaneCL: LANECL_NUM_THREADS=-2: not a number in 1..1024; the default, one per core, is used\n",
    "LaneCL: LANECL_MEM_PLACE=sometimes: not one of 0/auto/always; the default, auto, is used\n",
    "LaneCL: LANECL_STREAM_STORES=yes: not one of 0/1/auto; the default, auto, is used\n",
    "LaneCL: LANECL_SIMD_BITS=300: not one of 128/256/512; the default, the host's, is used\n",
    "LaneCL: LANECL_CC_THREADS=65: not a number in 1..64",
    "LaneCL: LANECL_AFFINITY=no: not one of 0/1; the default, 1, is used\n",
  };
  for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
    if (count(log, want[i]) != 1)
      tl_fail(__FILE__, __LINE__, "expected once in the log: %s\nlog:\n%s", want[i], log);
  ASSERT_EQ(count(log, "LaneCL: "), sizeof(want) / sizeof(want[0]));
}

static void bad_values_quiet_child(void)
{
  set_bad_values();
  setenv("LANECL_DEBUG", "api,build", 1);
  ASSERT_EQ(lc_config_num(LC_SPIN_US), 20);
  lc_config_report();
}

TEST(bad_value_not_reported_without_debug_err)
{
  char *log = run_child(bad_values_quiet_child);
  if (log[0])
    tl_fail(__FILE__, __LINE__, "expected no output, got:\n%s", log);
}

static void good_values_child(void)
{
  setenv("LANECL_DEBUG", "all", 1);
  setenv("LANECL_SPIN_US", "0", 1);
  setenv("LANECL_NUM_THREADS", "3", 1);
  setenv("LANECL_AFFINITY", "0", 1);
  setenv("LANECL_CACHE_DIR", "off", 1);
  setenv("LANECL_CPU", "", 1); /* empty: unset */
  setenv("LANECL_CC_TIMING", "", 1); /* set: on */
  setenv("LANECL_SIMD_BITS", "256", 1);
  ASSERT_TRUE(lc_config_given(LC_SPIN_US));
  ASSERT_EQ(lc_config_num(LC_SPIN_US), 0);
  ASSERT_EQ(lc_config_num(LC_NUM_THREADS), 3);
  ASSERT_EQ(lc_config_num(LC_AFFINITY), 0);
  ASSERT_STREQ(lc_config_str(LC_CACHE_DIR), "off");
  ASSERT_TRUE(lc_config_str(LC_CPU) == NULL);
  ASSERT_EQ(lc_config_num(LC_CC_TIMING), 1);
  ASSERT_STREQ(lc_config_str(LC_SIMD_BITS), "256");
  /* Parsed once: a later change is not seen ... */
  setenv("LANECL_SPIN_US", "7", 1);
  ASSERT_EQ(lc_config_num(LC_SPIN_US), 0);
  /* ... except for the variables read at each use. */
  setenv("LANECL_MEM_PLACE", "always", 1);
  ASSERT_STREQ(lc_config_str(LC_MEM_PLACE), "always");
  setenv("LANECL_MEM_PLACE", "0", 1);
  ASSERT_STREQ(lc_config_str(LC_MEM_PLACE), "0");
  setenv("LANECL_CC_THREADS", "5", 1);
  ASSERT_EQ(lc_config_num(LC_CC_THREADS), 5);
  lc_config_report();
}

TEST(good_values_parsed_silently)
{
  char *log = run_child(good_values_child);
  if (log[0])
    tl_fail(__FILE__, __LINE__, "expected no output, got:\n%s", log);
}

static void unknown_child(void)
{
  setenv("LANECL_DEBUG", "build", 1);
  setenv("LANECL_NUM_THREDS", "4", 1);   /* a typo */
  setenv("LANECL_SPINUS", "", 1);        /* even empty */
  setenv("LANECL_TEST_ANYTHING", "1", 1); /* the tests' */
  setenv("LANECL_BUILD_DIR", "/x", 1);
  setenv("LANECL_QUICK", "1", 1);
  setenv("LANECL_ICD", "/x/lanecl.icd", 1);
  setenv("LANECL_SPIN_US", "5", 1);
  lc_config_report();
}

static void unknown_quiet_child(void)
{
  unsetenv("LANECL_DEBUG");
  setenv("LANECL_NUM_THREDS", "4", 1);
  lc_config_report();
}

TEST(unknown_name_warned_under_debug)
{
  char *log = run_child(unknown_child);
  ASSERT_EQ(count(log, "LaneCL: warning: LANECL_NUM_THREDS is not a LaneCL variable"), 1);
  ASSERT_EQ(count(log, "LaneCL: warning: LANECL_SPINUS is not a LaneCL variable"), 1);
  ASSERT_EQ(count(log, "LaneCL: "), 2);
  log = run_child(unknown_quiet_child);
  if (log[0])
    tl_fail(__FILE__, __LINE__, "expected no output without LANECL_DEBUG, got:\n%s", log);
}

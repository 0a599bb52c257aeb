/* The LANECL_* environment variables: one table of every variable, parsed
 * and checked once per process.
 *
 * A unit of its own, below every layer (it includes nothing of LaneCL): the
 * runtime, the compiler library and lanecl-cc each link a copy.  The
 * scheduler does not read it: the runtime hands it its values in
 * sched_config.  The unit prints nothing by itself; the program's top layer
 * (the runtime at start-up, lanecl-cc) calls lc_config_report once. */
#ifndef LANECL_CONFIG_H
#define LANECL_CONFIG_H

#include <stdbool.h>

typedef enum lc_var {
  LC_DEBUG,
  LC_CACHE_DIR,
  LC_CACHE_MAX_MB,
  LC_NUM_THREADS,
  LC_AFFINITY,
  LC_SPIN_US,
  LC_MEM_PLACE,
  LC_STREAM_STORES,
  LC_COMPILER,
  LC_BUILTINS,
  LC_CLANG_SERVER,
  LC_CPU,
  LC_SIMD_BITS,
  LC_LLVM_ARGS,
  LC_CC_TIMING,
  LC_CC_THREADS,
  LC_CC_LAZY,
  LC_CC_VECMATH,
  LC_NVARS
} lc_var;

typedef enum lc_type {
  LC_TYPE_STR,   /* any non-empty text */
  LC_TYPE_UINT,  /* a decimal number in [lo, hi] */
  LC_TYPE_ENUM,  /* one of the words in allowed ("a|b|c") */
  LC_TYPE_FLAG,  /* on when set, to anything */
} lc_type;

typedef struct lc_var_desc {
  const char *name;     /* LANECL_... */
  lc_type type;
  unsigned long lo, hi; /* LC_TYPE_UINT */
  const char *allowed;  /* LC_TYPE_ENUM: the words, '|' separated; others: what a value is, in words */
  const char *def;      /* the default, as the README says it */
  unsigned long def_num;/* the default's number (LC_TYPE_UINT; LC_TYPE_ENUM: index in allowed) */
  bool def_is_value;    /* def is a value of the variable (lc_config_str returns it when unset) */
  bool live;            /* read again at each use (tests change it within a process) */
  const char *layer;    /* where it is used */
  const char *doc;      /* one line */
} lc_var_desc;

/* The table, LC_NVARS entries in lc_var order. */
const lc_var_desc *lc_config_table(void);

/* Whether the variable is set to a valid value (empty counts as unset). */
bool lc_config_given(lc_var v);
/* Its value as text: the value given when valid, else the default where the
 * default is a value, else NULL.  Valid for the life of the process (a live
 * variable of LC_TYPE_STR would not be: there is none). */
const char *lc_config_str(lc_var v);
/* Its number: LC_TYPE_UINT: the value (or def_num); LC_TYPE_ENUM: the index
 * of the value in allowed (or def_num); LC_TYPE_FLAG: 1 when set, else 0;
 * LC_TYPE_STR: 0. */
unsigned long lc_config_num(lc_var v);

/* Whether name (LANECL_..., up to '=' or the end) is one that LaneCL or its
 * tests and tools read: in the table, LANECL_TEST_*, LANECL_BUILD_DIR,
 * LANECL_QUICK, LANECL_ICD. */
bool lc_config_known_name(const char *name);

/* Once per process: to stderr, "LaneCL: <why>", each variable set to a bad
 * value (under LANECL_DEBUG=err or all; its default is used) and each
 * LANECL_* name that nothing reads (under any LANECL_DEBUG category). */
void lc_config_report(void);

#endif

/* Object headers, logging, info queries, small strings. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

const void *rt_dispatch;
unsigned rt_log_mask = 0;
static atomic_uint_fast64_t next_id = 1;

void rt_object_init(rt_object *o, rt_type type)
{
  o->dispatch = rt_dispatch;
  o->dispatch_data = NULL;
  o->magic = RT_MAGIC;
  o->type = type;
  atomic_init(&o->refcount, 1);
  o->id = atomic_fetch_add(&next_id, 1);
}

bool rt_object_is(const void *h, rt_type type)
{
  const rt_object *o = h;
  if (!o)
    return false;
  return o->dispatch == rt_dispatch && o->magic == RT_MAGIC && o->type == type;
}

void rt_retain(rt_object *o)
{
  atomic_fetch_add_explicit(&o->refcount, 1, memory_order_relaxed);
}

bool rt_release(rt_object *o)
{
  if (atomic_fetch_sub_explicit(&o->refcount, 1, memory_order_acq_rel) == 1) {
    o->magic = 0; /* a stale handle is rejected from now on */
    return true;
  }
  return false;
}

void rt_log_init(void)
{
  static const struct { const char *name; unsigned bit; } cats[] = {
    {"err", RT_LOG_ERR},     {"api", RT_LOG_API},     {"build", RT_LOG_BUILD},
    {"queue", RT_LOG_QUEUE}, {"sched", RT_LOG_SCHED}, {"mem", RT_LOG_MEM},
    {"all", ~0u},
  };
  const char *v = lc_config_str(LC_DEBUG);
  lc_config_report(); /* bad values, unknown names: under LANECL_DEBUG */
  if (!v)
    return;
  char buf[256];
  snprintf(buf, sizeof(buf), "%s", v);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    size_t i;
    for (i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
      if (!strcmp(tok, cats[i].name)) {
        rt_log_mask |= cats[i].bit;
        break;
      }
    if (i == sizeof(cats) / sizeof(cats[0]))
      fprintf(stderr, "LaneCL: warning: unknown LANECL_DEBUG category '%s'\n", tok);
  }
}

void rt_log(unsigned cat, const char *fmt, ...)
{
  if (!(rt_log_mask & cat))
    return;
  char line[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof(line), fmt, ap);
  va_end(ap);
  fprintf(stderr, "LaneCL: %s\n", line);
}

void rt_str_add(rt_str *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + (size_t)n + 1)
      cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s)
      return;
    b->s = s;
    b->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void rt_str_free(rt_str *b)
{
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}

/* Random OpenCL C kernel generator for differential testing.
 *
 * Every program is a function of its seed only.  The programs are well
 * defined by construction:
 *   - arithmetic is on unsigned types (wraps), shift counts are masked,
 *     divisors are forced odd (never zero);
 *   - global reads are either masked into the input buffer or use raw
 *     index forms whose largest value the generator knows to fit;
 *   - a work-item writes only its own output slots; __local and scratch
 *     slots written by one work-item are read by others only after a
 *     barrier, and a barrier separates every read from the next write;
 *   - barriers and work-group collectives appear only in control flow
 *     that is uniform across the work-group (tracked: uniform variables
 *     are assigned only uniform values in uniform code);
 *   - atomics are used only where the final value does not depend on the
 *     order (each counter has one commutative operation, return values are
 *     ignored);
 *   - early returns of single work-items appear only in the tail of the
 *     kernel, after the last barrier; a whole work-group may return earlier.
 * The header lines (//@ ...) tell the driver how to run the program. */
#include "difftest.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NV 6        /* varying uint variables v0..v5 */
#define NU 4        /* uniform uint variables u0..u3 */
#define MAX_LOOPS 3 /* nesting */

typedef struct {
  char name[8];
  bool uniform;
  unsigned max; /* the loop variable stays below this */
} loopvar;

typedef struct gen {
  uint64_t rng;
  char *buf;
  size_t len, cap;
  int indent;
  /* program features */
  int dims;
  bool use_local, use_collectives, use_atomics, use_vectors, use_scratch, use_helpers, use_float;
  int nhelpers;
  /* context */
  bool uniform;      /* control flow uniform across the work-group */
  bool tail;         /* no barrier follows: single work-items may return */
  bool in_helper;
  loopvar loops[MAX_LOOPS];
  int nloops;
  int nloop_names;
  int stmt_budget;
  int barrier_count;
} gen;

static uint64_t rnd(gen *g)
{
  /* splitmix64 */
  uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static unsigned rn(gen *g, unsigned n) { return (unsigned)(rnd(g) % n); }
static bool chance(gen *g, unsigned percent) { return rn(g, 100) < percent; }

static void emitv(gen *g, const char *fmt, va_list ap)
{
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (g->len + (size_t)n + 1 > g->cap) {
    g->cap = (g->len + (size_t)n + 1) * 2;
    g->buf = realloc(g->buf, g->cap);
  }
  vsnprintf(g->buf + g->len, (size_t)n + 1, fmt, ap);
  g->len += (size_t)n;
}

static void out(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(gen *g, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  emitv(g, fmt, ap);
  va_end(ap);
}

/* A line at the current indentation. */
static void line(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(gen *g, const char *fmt, ...)
{
  for (int i = 0; i < g->indent; i++)
    out(g, "  ");
  va_list ap;
  va_start(ap, fmt);
  emitv(g, fmt, ap);
  va_end(ap);
  out(g, "\n");
}

/* ---- expressions (all of type uint) ---- */

static void expr(gen *g, int depth, bool want_uniform);

static const char *rand_const(gen *g, char *tmp)
{
  switch (rn(g, 4)) {
  case 0: sprintf(tmp, "%uu", rn(g, 8)); break;
  case 1: sprintf(tmp, "%uu", rn(g, 256)); break;
  case 2: sprintf(tmp, "0x%08xu", (unsigned)rnd(g)); break;
  default: sprintf(tmp, "%uu", 0xffffffffu - rn(g, 4)); break;
  }
  return tmp;
}

static const char *gid0(gen *g) { (void)g; return "(uint)get_global_id(0)"; }

/* A leaf that is uniform across the work-group. */
static void uniform_leaf(gen *g)
{
  char tmp[32];
  if (g->in_helper) {
    switch (rn(g, 3)) {
    case 0: out(g, "a"); return;
    case 1: out(g, "b"); return;
    default: out(g, "%s", rand_const(g, tmp)); return;
    }
  }
  int uloops = 0;
  for (int i = 0; i < g->nloops; i++)
    uloops += g->loops[i].uniform;
  switch (rn(g, 10)) {
  case 0: out(g, "%s", rand_const(g, tmp)); return;
  case 1: case 2: out(g, "u%u", rn(g, NU)); return;
  case 3:
    switch (rn(g, 4)) {
    case 0: out(g, "stride"); return;
    case 1: out(g, "n"); return;
    case 2: out(g, "p0"); return;
    default: out(g, "p1"); return;
    }
  case 4: out(g, "(uint)get_group_id(%u)", rn(g, g->dims)); return;
  case 5: out(g, "(uint)get_local_size(%u)", rn(g, g->dims)); return;
  case 6: out(g, "(uint)get_num_groups(%u)", rn(g, g->dims)); return;
  case 7: out(g, "LSZ"); return;
  case 8:
    if (uloops) {
      int k = (int)rn(g, (unsigned)g->nloops);
      for (int i = 0; i < g->nloops; i++) {
        const loopvar *l = &g->loops[(k + i) % g->nloops];
        if (l->uniform) {
          out(g, "%s", l->name);
          return;
        }
      }
    }
    out(g, "u%u", rn(g, NU));
    return;
  default: /* a uniform read of the input */
    out(g, "in[(");
    expr(g, 0, true);
    out(g, ") & NIN_MASK]");
    return;
  }
}

static void varying_leaf(gen *g)
{
  if (g->in_helper) {
    uniform_leaf(g);
    return;
  }
  switch (rn(g, 14)) {
  case 0: case 1: case 2: out(g, "v%u", rn(g, NV)); return;
  case 3: out(g, "(uint)get_global_id(%u)", rn(g, g->dims)); return;
  case 4: out(g, "(uint)get_local_id(%u)", rn(g, g->dims)); return;
  case 5: out(g, chance(g, 50) ? "LID" : "GLIN"); return;
  case 6: /* masked read */
    out(g, "in[(");
    expr(g, 1, false);
    out(g, ") & NIN_MASK]");
    return;
  case 7: { /* raw strided read: the largest index fits the input */
    const char *base = gid0(g);
    unsigned form = rn(g, 4);
    if (form == 0)
      out(g, "in[%s * stride]", base);
    else if (form == 1)
      out(g, "in[%s * stride + %uu]", base, rn(g, 64));
    else if (form == 2 && g->nloops)
      out(g, "in[%s * stride + %s]", g->loops[rn(g, (unsigned)g->nloops)].name, base);
    else
      out(g, "in[(uint)get_local_id(0) * stride + (uint)get_group_id(0)]");
    return;
  }
  case 8: /* gather */
    out(g, "in[in[");
    out(g, "GLIN");
    out(g, "] & NIN_MASK]");
    return;
  case 9: out(g, "pa[(");
    expr(g, 1, false);
    out(g, ") & 7u]");
    return;
  case 10:
    if (g->use_vectors) {
      static const char *c[] = {"x", "y", "z", "w", "s0", "s1", "s2", "s3"};
      out(g, "w0.%s", c[rn(g, 8)]);
      return;
    }
    out(g, "v%u", rn(g, NV));
    return;
  case 11:
    if (g->nloops) {
      out(g, "%s", g->loops[rn(g, (unsigned)g->nloops)].name);
      return;
    }
    out(g, "v%u", rn(g, NV));
    return;
  default: uniform_leaf(g); return;
  }
}

static void expr(gen *g, int depth, bool want_uniform)
{
  if (depth >= 3 || chance(g, 25 + depth * 20)) {
    if (want_uniform)
      uniform_leaf(g);
    else
      varying_leaf(g);
    return;
  }
#define E() expr(g, depth + 1, want_uniform)
  switch (rn(g, 28)) {
  case 0: out(g, "("); E(); out(g, " + "); E(); out(g, ")"); break;
  case 1: out(g, "("); E(); out(g, " - "); E(); out(g, ")"); break;
  case 2: out(g, "("); E(); out(g, " * "); E(); out(g, ")"); break;
  case 3: out(g, "("); E(); out(g, " & "); E(); out(g, ")"); break;
  case 4: out(g, "("); E(); out(g, " | "); E(); out(g, ")"); break;
  case 5: out(g, "("); E(); out(g, " ^ "); E(); out(g, ")"); break;
  case 6: out(g, "("); E(); out(g, " << ("); E(); out(g, " & 31u))"); break;
  case 7: out(g, "("); E(); out(g, " >> ("); E(); out(g, " & 31u))"); break;
  case 8: out(g, "("); E(); out(g, " / ("); E(); out(g, " | 1u))"); break;
  case 9: out(g, "("); E(); out(g, " %% ("); E(); out(g, " | 1u))"); break;
  case 10: out(g, "min("); E(); out(g, ", "); E(); out(g, ")"); break;
  case 11: out(g, "max("); E(); out(g, ", "); E(); out(g, ")"); break;
  case 12: out(g, "rotate("); E(); out(g, ", "); E(); out(g, ")"); break;
  case 13: out(g, "mul_hi("); E(); out(g, ", "); E(); out(g, ")"); break;
  case 14: out(g, "(uint)("); E(); out(g, " < "); E(); out(g, ")"); break;
  case 15: out(g, "(uint)("); E(); out(g, " == "); E(); out(g, ")"); break;
  case 16: out(g, "(("); E(); out(g, ") & 1u ? "); E(); out(g, " : "); E(); out(g, ")"); break;
  case 17: out(g, "add_sat("); E(); out(g, ", "); E(); out(g, ")"); break;
  case 18: out(g, "hadd("); E(); out(g, ", "); E(); out(g, ")"); break;
  case 19: out(g, "clz("); E(); out(g, ")"); break;
  case 20: out(g, "popcount("); E(); out(g, ")"); break;
  case 21: out(g, "abs_diff("); E(); out(g, ", "); E(); out(g, ")"); break;
  case 22: out(g, "(uint)((int)"); E(); out(g, " < (int)"); E(); out(g, ")"); break;
  case 23: out(g, "(uint)((int)"); E(); out(g, " >> ("); E(); out(g, " & 31u))"); break;
  case 24: out(g, "(uint)(((ulong)"); E(); out(g, " * (ulong)"); E(); out(g, ") >> 29)"); break;
  case 25: out(g, "(uint)(uchar)("); E(); out(g, ")"); break;
  case 26: out(g, "(uint)(short)("); E(); out(g, ")"); break;
  default:
    if (g->nhelpers && !g->in_helper) {
      out(g, "h%u(", rn(g, (unsigned)g->nhelpers)); E(); out(g, ", "); E(); out(g, ")");
    } else if (g->use_float) {
      /* exact in float: 16-bit integers, one add or a product of 8-bit ones */
      out(g, "(uint)((float)(("); E(); out(g, ") & 0xffffu) + (float)(("); E(); out(g, ") & 0xffu) * 2.0f)");
    } else {
      out(g, "("); E(); out(g, " + "); E(); out(g, ")");
    }
    break;
  }
#undef E
}

static void cond(gen *g, bool want_uniform)
{
  switch (rn(g, 5)) {
  case 0: out(g, "(("); expr(g, 1, want_uniform); out(g, ") & 1u)"); break;
  case 1: out(g, "("); expr(g, 1, want_uniform); out(g, " < "); expr(g, 1, want_uniform); out(g, ")"); break;
  case 2: out(g, "(("); expr(g, 1, want_uniform); out(g, ") %% 3u == 0u)"); break;
  case 3: out(g, "(("); expr(g, 1, want_uniform); out(g, ") & 4u)"); break;
  default: out(g, "("); expr(g, 2, want_uniform); out(g, " > 0x7fffffffu)"); break;
  }
}

/* ---- statements ---- */

static void block(gen *g, int nstmts);

static void store_all(gen *g)
{
  line(g, "STORE();");
}

static const char *assign_op(gen *g)
{
  static const char *ops[] = {"=", "+=", "^=", "-=", "|=", "="};
  return ops[rn(g, 6)];
}

static void assign_varying(gen *g)
{
  for (int i = 0; i < g->indent; i++)
    out(g, "  ");
  out(g, "v%u %s ", rn(g, NV), assign_op(g));
  expr(g, 0, false);
  out(g, ";\n");
}

static void assign_uniform(gen *g)
{
  for (int i = 0; i < g->indent; i++)
    out(g, "  ");
  out(g, "u%u %s ", rn(g, NU), assign_op(g));
  expr(g, 0, true);
  out(g, ";\n");
}

static void indent(gen *g)
{
  for (int i = 0; i < g->indent; i++)
    out(g, "  ");
}

static bool barriers_ok(gen *g) { return g->uniform && !g->tail; }

static void stmt_local_exchange(gen *g)
{
  g->barrier_count++;
  line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  bool condw = chance(g, 30);
  if (condw) {
    indent(g); out(g, "if "); cond(g, false); out(g, "\n");
    g->indent++;
  }
  indent(g);
  out(g, "L[LID] %s ", chance(g, 70) ? "=" : "+=");
  expr(g, 1, false);
  out(g, ";\n");
  if (condw)
    g->indent--;
  line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  int nreads = 1 + (int)rn(g, 2);
  for (int r = 0; r < nreads; r++) {
    indent(g);
    out(g, "v%u %s L[", rn(g, NV), chance(g, 50) ? "=" : "+=");
    switch (rn(g, 6)) {
    case 0: out(g, "(LID + %uu) %% LSZ", 1 + rn(g, 5)); break;
    case 1: out(g, "LSZ - 1u - LID"); break;
    case 2: out(g, "(LID ^ 1u) < LSZ ? (LID ^ 1u) : LID"); break;
    case 3: out(g, "0"); break;
    case 4: out(g, "("); expr(g, 1, false); out(g, ") %% LSZ"); break;
    default: out(g, "LID"); break;
    }
    out(g, "];\n");
  }
  if (chance(g, 30)) { /* an in-place step: read, barrier, write back */
    int t = (int)rn(g, NV);
    line(g, "v%d = L[(LID + LSZ / 2u) %% LSZ];", t);
    line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
    line(g, "L[LID] += v%d;", t);
    line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
    line(g, "v%u ^= L[(LID + 1u) %% LSZ];", rn(g, NV));
  }
}

static void stmt_local_atomic(gen *g)
{
  unsigned k = rn(g, 4);
  g->barrier_count++;
  line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  indent(g); out(g, "if (LID == 0u) LC[%u] = ", k); expr(g, 1, true); out(g, ";\n");
  line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  bool condw = chance(g, 50);
  if (condw) {
    indent(g); out(g, "if "); cond(g, false); out(g, "\n");
    g->indent++;
  }
  static const char *ops[] = {"atomic_add", "atomic_or", "atomic_xor", "atomic_max"};
  const char *op = ops[k]; /* one operation per counter */
  indent(g); out(g, "%s(&LC[%u], ", op, k); expr(g, 1, false); out(g, ");\n");
  if (condw)
    g->indent--;
  line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  line(g, "u%u %s LC[%u];", rn(g, NU), chance(g, 50) ? "+=" : "^=", k);
}

static void stmt_scratch_exchange(gen *g)
{
  g->barrier_count++;
  line(g, "barrier(CLK_GLOBAL_MEM_FENCE);");
  bool perm = chance(g, 30);
  indent(g);
  if (perm)
    out(g, "scratch[gslot(LSZ - 1u - LID)] = ");
  else
    out(g, "scratch[GLIN] = ");
  expr(g, 1, false);
  out(g, ";\n");
  line(g, "barrier(CLK_GLOBAL_MEM_FENCE);");
  indent(g);
  out(g, "v%u %s scratch[gslot(", rn(g, NV), chance(g, 50) ? "=" : "+=");
  switch (rn(g, 3)) {
  case 0: out(g, "(LID + %uu) %% LSZ", 1 + rn(g, 7)); break;
  case 1: out(g, "("); expr(g, 1, false); out(g, ") %% LSZ"); break;
  default: out(g, "LID"); break;
  }
  out(g, ")];\n");
}

static void stmt_collective(gen *g)
{
  g->barrier_count++;
  switch (rn(g, 8)) {
  case 0: case 1: {
    static const char *r[] = {"ADD", "MIN", "MAX"};
    indent(g);
    out(g, "u%u %s WG_REDUCE_%s(", rn(g, NU), chance(g, 50) ? "=" : "+=", r[rn(g, 3)]);
    expr(g, 1, false);
    out(g, ");\n");
    break;
  }
  case 2: case 3: {
    static const char *r[] = {"ADD", "MIN", "MAX"};
    indent(g);
    out(g, "v%u %s WG_SCAN_%s_%s(", rn(g, NV), chance(g, 50) ? "=" : "^=",
        chance(g, 50) ? "INCLUSIVE" : "EXCLUSIVE", r[rn(g, 3)]);
    expr(g, 1, false);
    out(g, ");\n");
    break;
  }
  case 4: case 5:
    indent(g);
    out(g, "u%u %s WG_BROADCAST(", rn(g, NU), chance(g, 50) ? "=" : "+=");
    expr(g, 1, false);
    if (g->dims == 1) {
      out(g, ", (size_t)(("); expr(g, 1, true); out(g, ") %% (uint)get_local_size(0)));\n");
    } else {
      out(g, ", (size_t)(("); expr(g, 1, true); out(g, ") %% (uint)get_local_size(0)), (size_t)((");
      expr(g, 1, true); out(g, ") %% (uint)get_local_size(1)));\n");
    }
    break;
  case 6:
    indent(g);
    out(g, "u%u += (uint)WG_ALL(", rn(g, NU));
    cond(g, false);
    out(g, ");\n");
    break;
  default:
    indent(g);
    out(g, "u%u += (uint)WG_ANY(", rn(g, NU));
    cond(g, false);
    out(g, ") * 3u;\n");
    break;
  }
  if (chance(g, 40)) { /* a ulong reduction */
    indent(g);
    out(g, "v%u += (uint)(WG_REDUCE_ADD_UL((ulong)(", rn(g, NV));
    expr(g, 1, false);
    out(g, ") << 20) >> 7);\n");
  }
}

static void stmt_global_atomic(gen *g)
{
  /* counters 0-3 add, 4-5 or, 6-7 xor, 8-9 min, 10-11 max, 12-13 and, 14 inc, 15 dec */
  unsigned kind = rn(g, 8);
  static const char *ops[] = {"atomic_add", "atomic_or", "atomic_xor", "atomic_min", "atomic_max", "atomic_and"};
  static const unsigned base[] = {0, 4, 6, 8, 10, 12};
  indent(g);
  if (kind == 6) {
    out(g, "atomic_inc(&cnt[14]);\n");
    return;
  }
  if (kind == 7) {
    out(g, "atomic_sub(&cnt[%u], ", rn(g, 4));
    expr(g, 1, false);
    out(g, ");\n");
    return;
  }
  unsigned span = kind == 0 ? 4 : 2;
  out(g, "%s(&cnt[%uu + ((", ops[kind], base[kind]);
  expr(g, 1, false);
  out(g, ") & %uu)], ", span - 1);
  expr(g, 1, false);
  out(g, ");\n");
}

static void stmt_vector(gen *g)
{
  indent(g);
  switch (rn(g, 6)) {
  case 0:
    out(g, "w0 = w0 * (uint4)(");
    expr(g, 1, false);
    out(g, ") + vload4((");
    expr(g, 1, false);
    out(g, ") & (NIN_MASK >> 2), in);\n");
    break;
  case 1:
    out(g, "w0 = w0.wzyx ^ (uint4)(v%u, ", rn(g, NV));
    expr(g, 1, false);
    out(g, ", v%u, %uu);\n", rn(g, NV), rn(g, 100));
    break;
  case 2:
    out(g, "w0 = rotate(w0, (uint4)(");
    expr(g, 1, false);
    out(g, ")) + (w0 >> (uint4)(3u, 5u, 7u, 11u));\n");
    break;
  case 3:
    out(g, "w0.s13 = w0.s02 + (uint2)(");
    expr(g, 1, false);
    out(g, ", v%u);\n", rn(g, NV));
    break;
  case 4:
    out(g, "v%u += as_uint(convert_uchar4(w0 & (uint4)(255u)) + (uchar4)((uchar)v%u));\n",
        rn(g, NV), rn(g, NV));
    break;
  default:
    out(g, "w0 = select(w0, w0 + (uint4)(v%u), w0 > (uint4)(", rn(g, NV));
    expr(g, 1, false);
    out(g, "));\n");
    break;
  }
}

static void stmt_private_array(gen *g)
{
  indent(g);
  out(g, "pa[(");
  expr(g, 1, false);
  out(g, ") & 7u] %s ", chance(g, 50) ? "=" : "+=");
  expr(g, 1, false);
  out(g, ";\n");
}

static void push_loop(gen *g, bool uniform, unsigned max)
{
  loopvar *l = &g->loops[g->nloops++];
  sprintf(l->name, "i%d", g->nloop_names++);
  l->uniform = uniform;
  l->max = max;
}

static void stmt_loop(gen *g, int size)
{
  bool uniform_loop = g->uniform && chance(g, 60);
  bool saved = g->uniform;
  int kind = (int)rn(g, 3);
  push_loop(g, uniform_loop, 8);
  const char *iv = g->loops[g->nloops - 1].name;
  indent(g);
  if (kind == 2) {
    /* while with a counter */
    out(g, "uint %s = 0u;\n", iv);
    indent(g);
    out(g, "while (%s < ", iv);
  } else {
    out(g, "for (uint %s = 0u; %s < ", iv, iv);
  }
  if (uniform_loop) {
    switch (rn(g, 3)) {
    case 0: out(g, "%uu", 1 + rn(g, 6)); break;
    case 1: out(g, "(("); expr(g, 1, true); out(g, ") & 3u) + 1u"); break;
    default: out(g, "(n & 3u) + 2u"); break;
    }
  } else {
    switch (rn(g, 3)) {
    case 0: out(g, "(("); expr(g, 1, false); out(g, ") & 7u)"); break;
    case 1: out(g, "(uint)get_local_id(0) %% 5u"); break;
    default: out(g, "(GLIN & 3u) + 1u"); break;
    }
  }
  if (kind == 2)
    out(g, ") {\n");
  else
    out(g, "; %s++) {\n", iv);
  g->indent++;
  if (!uniform_loop)
    g->uniform = false;
  if (kind == 2) {
    /* the increment first, so that `continue` cannot skip it */
    line(g, "%s++;", iv);
  }
  block(g, size);
  /* a break or continue on the loop's own terms */
  if (chance(g, 30)) {
    indent(g);
    out(g, "if ");
    cond(g, uniform_loop ? true : false);
    out(g, " %s;\n", chance(g, 50) ? "break" : "continue");
    if (chance(g, 50))
      block(g, 1);
  }
  g->indent--;
  line(g, "}");
  g->nloops--;
  g->uniform = saved;
}

static void stmt_if(gen *g, int size)
{
  bool uniform_cond = g->uniform && chance(g, 50);
  bool saved = g->uniform;
  indent(g);
  out(g, "if ");
  cond(g, uniform_cond);
  out(g, " {\n");
  g->indent++;
  if (!uniform_cond)
    g->uniform = false;
  block(g, size);
  g->indent--;
  if (chance(g, 50)) {
    line(g, "} else {");
    g->indent++;
    block(g, size);
    g->indent--;
  }
  line(g, "}");
  g->uniform = saved;
}

/* What the generator writes while it runs f, taken out of the program. */
static char *capture_start(gen *g) { return (char *)(uintptr_t)g->len; }
static char *capture_end(gen *g, char *start)
{
  size_t from = (size_t)(uintptr_t)start;
  char *s = malloc(g->len - from + 1);
  memcpy(s, g->buf + from, g->len - from);
  s[g->len - from] = 0;
  g->len = from;
  return s;
}

/* A switch, with fall-through; built with -DDIFFTEST_NO_SWITCH it is the
 * same as a chain of ifs (Oclgrind 21.10 takes the default of some
 * switches whose cases fall through). */
static void stmt_switch(gen *g)
{
  bool saved = g->uniform;
  char *m = capture_start(g);
  expr(g, 1, false);
  char *sel = capture_end(g, m);
  g->uniform = false;
  char *body[5] = {0};
  bool brk[5] = {0};
  g->indent += 2;
  for (unsigned c = 0; c < 5; c++) {
    if (c < 4 && chance(g, 25))
      continue;
    m = capture_start(g);
    block(g, 1);
    body[c] = capture_end(g, m);
    brk[c] = c == 4 || chance(g, 75);
  }
  g->indent -= 2;
  g->uniform = saved;
  unsigned id = (unsigned)g->nloop_names++;
  out(g, "#ifndef DIFFTEST_NO_SWITCH\n");
  /* % 6: a reachable default (Oclgrind traps on an unreachable one) */
  indent(g);
  out(g, "switch ((%s) %% 6u) {\n", sel);
  for (unsigned c = 0; c < 5; c++) {
    if (!body[c])
      continue;
    if (c < 4)
      line(g, "case %uu: {", c);
    else
      line(g, "default: {");
    out(g, "%s", body[c]);
    line(g, "}");
    if (brk[c])
      line(g, "  break;");
  }
  line(g, "}");
  out(g, "#else\n");
  line(g, "{");
  line(g, "  uint sw%u = (%s) %% 6u;", id, sel);
  indent(g);
  out(g, " ");
  for (unsigned c = 0; c < 5; c++) {
    if (!body[c])
      continue;
    if (c < 4)
      out(g, " if (sw%u == %uu) {\n", id, c);
    else
      out(g, " {\n");
    for (unsigned d = c; d < 5; d++) {
      if (!body[d])
        continue;
      line(g, "  {");
      out(g, "%s", body[d]);
      line(g, "  }");
      if (brk[d])
        break;
    }
    indent(g);
    out(g, "  }%s", c < 4 ? " else" : "\n");
  }
  line(g, "}");
  out(g, "#endif\n");
  for (unsigned c = 0; c < 5; c++)
    free(body[c]);
  free(sel);
}

static void stmt_return(gen *g)
{
  bool uniform_cond = !g->tail || chance(g, 30);
  if (uniform_cond && !g->uniform)
    return;
  indent(g);
  out(g, "if ");
  if (uniform_cond)
    cond(g, true);
  else
    cond(g, false);
  out(g, " {\n");
  g->indent++;
  store_all(g);
  line(g, "return;");
  g->indent--;
  line(g, "}");
}

static void stmt(gen *g, int size)
{
  for (;;) {
    unsigned k = rn(g, 100);
    if (k < 22) {
      assign_varying(g);
      return;
    }
    if (k < 30) {
      if (!g->uniform)
        continue;
      assign_uniform(g);
      return;
    }
    if (k < 36) {
      if (g->nloops >= MAX_LOOPS || size < 1)
        continue;
      stmt_loop(g, 1 + (int)rn(g, (unsigned)size));
      return;
    }
    if (k < 44) {
      if (g->nloops >= MAX_LOOPS + 1 || size < 1)
        continue;
      stmt_if(g, 1 + (int)rn(g, (unsigned)size));
      return;
    }
    if (k < 46) {
      stmt_switch(g);
      return;
    }
    if (k < 56) {
      if (!g->use_local || !barriers_ok(g))
        continue;
      stmt_local_exchange(g);
      return;
    }
    if (k < 59) {
      if (!g->use_local || !barriers_ok(g))
        continue;
      stmt_local_atomic(g);
      return;
    }
    if (k < 63) {
      if (!g->use_scratch || !barriers_ok(g))
        continue;
      stmt_scratch_exchange(g);
      return;
    }
    if (k < 70) {
      if (!g->use_collectives || !barriers_ok(g))
        continue;
      stmt_collective(g);
      return;
    }
    if (k < 76) {
      if (!g->use_atomics)
        continue;
      stmt_global_atomic(g);
      return;
    }
    if (k < 83) {
      if (!g->use_vectors)
        continue;
      stmt_vector(g);
      return;
    }
    if (k < 88) {
      stmt_private_array(g);
      return;
    }
    if (k < 90) {
      if (!barriers_ok(g))
        continue;
      g->barrier_count++;
      line(g, "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);");
      return;
    }
    if (k < 93) {
      if (!g->tail && !g->uniform)
        continue;
      stmt_return(g);
      return;
    }
    assign_varying(g);
    return;
  }
}

static void block(gen *g, int nstmts)
{
  for (int i = 0; i < nstmts && g->stmt_budget > 0; i++) {
    g->stmt_budget--;
    stmt(g, nstmts / 2);
  }
}

static void helper(gen *g, int k)
{
  g->in_helper = true;
  out(g, "uint h%d(uint a, uint b)\n{\n", k);
  g->indent = 1;
  indent(g); out(g, "uint r = "); expr(g, 0, true); out(g, ";\n");
  if (chance(g, 50)) {
    indent(g); out(g, "if ((a ^ b) & 1u) r = "); expr(g, 1, true); out(g, ";\n");
  }
  indent(g); out(g, "return r ^ ("); expr(g, 1, true); out(g, ");\n");
  out(g, "}\n\n");
  g->indent = 0;
  g->in_helper = false;
}

/* The work-group functions, or (for implementations without them) the same
 * through __local memory and barriers. */
static const char wg_emulation[] =
  "#ifdef DIFFTEST_EMULATE_WG\n"
  "ulong dt_wg(__local ulong *s, ulong x, int op, int incl)\n"
  "{\n"
  "  /* op: 0 add, 1 min, 2 max, 3 add of ulong; incl: 0 reduce, 1 inclusive scan, 2 exclusive scan */\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  s[LID] = x;\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  uint end = incl == 0 ? LSZ : incl == 1 ? LID + 1u : LID;\n"
  "  ulong r = op == 1 ? 0xffffffffu : 0u;\n"
  "  for (uint i = 0u; i < end; i++) {\n"
  "    ulong y = s[i];\n"
  "    r = op == 1 ? min(r, y) : op == 2 ? max(r, y) : r + y;\n"
  "  }\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  return op == 3 ? r : (uint)r;\n"
  "}\n"
  "ulong dt_wg_bcast(__local ulong *s, ulong x, uint l)\n"
  "{\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  s[LID] = x;\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  ulong r = s[l];\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  return r;\n"
  "}\n"
  "#define WG_REDUCE_ADD(x) ((uint)dt_wg(WG, (uint)(x), 0, 0))\n"
  "#define WG_REDUCE_MIN(x) ((uint)dt_wg(WG, (uint)(x), 1, 0))\n"
  "#define WG_REDUCE_MAX(x) ((uint)dt_wg(WG, (uint)(x), 2, 0))\n"
  "#define WG_REDUCE_ADD_UL(x) dt_wg(WG, (x), 3, 0)\n"
  "#define WG_SCAN_INCLUSIVE_ADD(x) ((uint)dt_wg(WG, (uint)(x), 0, 1))\n"
  "#define WG_SCAN_INCLUSIVE_MIN(x) ((uint)dt_wg(WG, (uint)(x), 1, 1))\n"
  "#define WG_SCAN_INCLUSIVE_MAX(x) ((uint)dt_wg(WG, (uint)(x), 2, 1))\n"
  "#define WG_SCAN_EXCLUSIVE_ADD(x) ((uint)dt_wg(WG, (uint)(x), 0, 2))\n"
  "#define WG_SCAN_EXCLUSIVE_MIN(x) ((uint)dt_wg(WG, (uint)(x), 1, 2))\n"
  "#define WG_SCAN_EXCLUSIVE_MAX(x) ((uint)dt_wg(WG, (uint)(x), 2, 2))\n"
  "#define WG_BROADCAST(x, ...) ((uint)dt_wg_bcast(WG, (uint)(x), dt_lin(__VA_ARGS__, 0, 0)))\n"
  "#define dt_lin(lx, ly, ...) ((uint)(ly) * (uint)get_local_size(0) + (uint)(lx))\n"
  "#define WG_ALL(c) (dt_wg(WG, (c) ? 1u : 0u, 1, 0) != 0u)\n"
  "#define WG_ANY(c) (dt_wg(WG, (c) ? 1u : 0u, 2, 0) != 0u)\n"
  "#else\n"
  "#define WG_REDUCE_ADD work_group_reduce_add\n"
  "#define WG_REDUCE_MIN work_group_reduce_min\n"
  "#define WG_REDUCE_MAX work_group_reduce_max\n"
  "#define WG_REDUCE_ADD_UL work_group_reduce_add\n"
  "#define WG_SCAN_INCLUSIVE_ADD work_group_scan_inclusive_add\n"
  "#define WG_SCAN_INCLUSIVE_MIN work_group_scan_inclusive_min\n"
  "#define WG_SCAN_INCLUSIVE_MAX work_group_scan_inclusive_max\n"
  "#define WG_SCAN_EXCLUSIVE_ADD work_group_scan_exclusive_add\n"
  "#define WG_SCAN_EXCLUSIVE_MIN work_group_scan_exclusive_min\n"
  "#define WG_SCAN_EXCLUSIVE_MAX work_group_scan_exclusive_max\n"
  "#define WG_BROADCAST work_group_broadcast\n"
  "#define WG_ALL work_group_all\n"
  "#define WG_ANY work_group_any\n"
  "#endif\n\n";

/* Local sizes per dimension count; the global size is a few groups. */
static void pick_configs(gen *g, char *cfgs, size_t cap)
{
  static const unsigned l1[] = {1, 3, 5, 7, 8, 13, 16, 17, 24, 31, 32, 64, 100};
  static const unsigned l2[][2] = {{3, 2}, {4, 4}, {5, 3}, {8, 2}, {1, 7}, {7, 1}, {2, 9}, {16, 2}, {6, 5}, {4, 8}};
  size_t len = 0;
  int n = 2 + (int)rn(g, 2);
  for (int i = 0; i < n; i++) {
    if (g->dims == 1) {
      unsigned l = l1[rn(g, sizeof(l1) / sizeof(l1[0]))];
      unsigned groups = 1 + rn(g, l > 32 ? 3 : 6);
      len += (size_t)snprintf(cfgs + len, cap - len, "//@ cfg 1 %u 1 %u 1\n", l * groups, l);
    } else {
      unsigned k = rn(g, sizeof(l2) / sizeof(l2[0]));
      unsigned gx = 1 + rn(g, 3), gy = 1 + rn(g, 3);
      len += (size_t)snprintf(cfgs + len, cap - len, "//@ cfg 2 %u %u %u %u\n",
                              l2[k][0] * gx, l2[k][1] * gy, l2[k][0], l2[k][1]);
    }
  }
}

char *difftest_generate(uint64_t seed, int size)
{
  gen G, *g = &G;
  memset(g, 0, sizeof(*g));
  g->rng = seed * 0x2545f4914f6cdd1dull + 1;
  g->dims = chance(g, 70) ? 1 : 2;
  g->use_local = chance(g, 75);
  g->use_collectives = chance(g, 50);
  g->use_atomics = chance(g, 50);
  g->use_vectors = chance(g, 50);
  g->use_scratch = chance(g, 40);
  g->use_helpers = chance(g, 40);
  g->use_float = chance(g, 30);
  g->nhelpers = g->use_helpers ? 1 + (int)rn(g, 2) : 0;

  out(g, "// lanecl-difftest program, seed %llu\n", (unsigned long long)seed);
  if (g->use_collectives)
    out(g, "//@ native-options -cl-std=CL3.0\n");
  out(g, "//@ args %u %u %u %u\n", 1 + rn(g, 8), rn(g, 64), (unsigned)rnd(g), rn(g, 16));
  char cfgs[512];
  pick_configs(g, cfgs, sizeof(cfgs));
  out(g, "%s", cfgs);
  out(g, "#define NIN_MASK %uu\n", DIFFTEST_NIN - 1);
  out(g, "#define LSZ ((uint)(get_local_size(0) * get_local_size(1)))\n");
  out(g, "#define LID ((uint)(get_local_id(1) * get_local_size(0) + get_local_id(0)))\n");
  out(g, "#define GLIN ((uint)(get_global_id(1) * get_global_size(0) + get_global_id(0)))\n");
  /* -DDIFFTEST_CONST_OSTRIDE: the outputs at a constant stride (to tell
   * a bug of runtime-strided stores from others) */
  out(g, "#ifdef DIFFTEST_CONST_OSTRIDE\n#define OSTRIDE %du\n#else\n#define OSTRIDE ostride\n#endif\n", DIFFTEST_NOUT);
  out(g, "#define STORE() do { \\\n");
  for (int i = 0; i < NV; i++)
    out(g, "  out[GLIN * OSTRIDE + %du] = v%d; \\\n", i, i);
  for (int i = 0; i < NU; i++)
    out(g, "  out[GLIN * OSTRIDE + %du] = u%d; \\\n", NV + i, i);
  out(g, "  out[GLIN * OSTRIDE + %du] = pa[0] + pa[1] * 3u + pa[2] * 5u + pa[3] * 7u + pa[4] * 11u + pa[5] * 13u + pa[6] * 17u + pa[7] * 19u; \\\n", NV + NU);
  out(g, "  out[GLIN * OSTRIDE + %du] = w0.x ^ (w0.y * 3u) ^ (w0.z * 5u) ^ (w0.w * 7u); \\\n", NV + NU + 1);
  out(g, "} while (0)\n\n");
  out(g, "// the global index of the work-item of this group with local linear id l\n");
  out(g, "uint gslot(uint l)\n{\n"
         "  uint lx = l %% (uint)get_local_size(0), ly = l / (uint)get_local_size(0);\n"
         "  return ((uint)get_group_id(1) * (uint)get_local_size(1) + ly) * (uint)get_global_size(0)\n"
         "         + (uint)get_group_id(0) * (uint)get_local_size(0) + lx;\n}\n\n");
  if (g->use_collectives)
    out(g, "%s", wg_emulation);
  for (int k = 0; k < g->nhelpers; k++)
    helper(g, k);

  /* -DDIFFTEST_NO_RESTRICT: the same without restrict (to tell a bug of
   * restrict pointers from others) */
  out(g, "#ifdef DIFFTEST_NO_RESTRICT\n#define RESTRICT\n#else\n#define RESTRICT restrict\n#endif\n");
  out(g, "__kernel void k(__global uint *RESTRICT out, __global const uint *RESTRICT in,\n"
         "                __global uint *cnt, __global uint *scratch, uint ostride,\n"
         "                uint stride, uint n, uint p0, uint p1)\n{\n");
  g->indent = 1;
  if (g->use_collectives) {
    out(g, "#ifdef DIFFTEST_EMULATE_WG\n");
    line(g, "__local ulong WG[%d];", DIFFTEST_MAX_GROUP);
    out(g, "#endif\n");
  }
  if (g->use_local) {
    line(g, "__local uint L[%d];", DIFFTEST_MAX_GROUP);
    line(g, "__local uint LC[4];");
  }
  line(g, "uint v0 = GLIN, v1 = in[GLIN & NIN_MASK], v2 = LID, v3 = (uint)get_global_id(0) * stride;");
  line(g, "uint v4 = (uint)get_local_id(0) ^ p0, v5 = in[(%s * stride) & NIN_MASK];", gid0(g));
  line(g, "uint u0 = p0, u1 = (uint)get_group_id(0) * 7u + p1, u2 = n, u3 = LSZ;");
  line(g, "uint pa[8];");
  line(g, "for (uint j = 0u; j < 8u; j++) pa[j] = in[(GLIN * 8u + j) & NIN_MASK] ^ j;");
  line(g, "uint4 w0 = (uint4)(v0, v1, p1, 5u);");
  if (g->use_local) {
    line(g, "L[LID] = v1;");
    line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
  }
  g->uniform = true;
  g->stmt_budget = size;
  int main_part = size * 3 / 4;
  block(g, main_part > 0 ? main_part : 1);
  while (g->stmt_budget > size / 4)
    block(g, 2);
  g->tail = true;
  g->stmt_budget = size / 4 + 1;
  block(g, g->stmt_budget);
  store_all(g);
  out(g, "}\n");
  return g->buf;
}

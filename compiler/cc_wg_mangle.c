/* The work-group generator's view of builtin calls: Itanium-mangled OpenCL
 * builtin names (_Z<len><ident><params>), and which calls are boundaries of
 * a work-group function (barriers, collectives, async copies), with the
 * combine helper of builtins/collectives.cl each one needs. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc_wg.h"

int wg_demangle(LLVMValueRef call, wg_mangled *mg)
{
  size_t len;
  const char *name = cc_callee_name(call, &len);
  if (!name || len < 3 || name[0] != '_' || name[1] != 'Z')
    return 0;
  size_t i = 2, n = 0;
  while (i < len && name[i] >= '0' && name[i] <= '9' && n < 1000)
    n = n * 10 + (size_t)(name[i++] - '0');
  if (n == 0 || i + n > len)
    return 0;
  mg->ident = name + i;
  mg->ilen = n;
  mg->params = name + i + n;
  mg->plen = len - i - n;
  return 1;
}

int wg_ident_is(const wg_mangled *mg, const char *s)
{
  return mg->ilen == strlen(s) && !memcmp(mg->ident, s, mg->ilen);
}

int wg_ident_starts(const wg_mangled *mg, const char *s, size_t *rest)
{
  size_t n = strlen(s);
  if (mg->ilen < n || memcmp(mg->ident, s, n))
    return 0;
  *rest = n;
  return 1;
}

/* ---- boundaries ---- */

static const char *const wg_ops[] = {"add", "min", "max", "mul", "and", "or",
                                     "xor", "logical_and", "logical_or", "logical_xor"};

/* Element type name of the helpers from the first mangled parameter. */
static const char *mangled_type_suffix(const wg_mangled *mg)
{
  if (mg->plen >= 2 && mg->params[0] == 'D' && mg->params[1] == 'h')
    return "h16";
  if (mg->plen < 1)
    return NULL;
  switch (mg->params[0]) {
  case 'i': return "i32";
  case 'j': return "u32";
  case 'l': return "i64";
  case 'm': return "u64";
  case 'f': return "f32";
  case 'd': return "f64";
  default: return NULL;
  }
}

/* Bytes of the element a mangled pointer parameter points to (P, address
 * space and cv qualifiers, then a scalar or Dv<n>_<scalar>); 0 if unknown. */
static unsigned mangled_pointee_size(const char *p, size_t len)
{
  size_t i = 0;
  if (len < 2 || p[i++] != 'P')
    return 0;
  for (;;) {
    if (i + 4 <= len && !memcmp(p + i, "U3AS", 4)) {
      i += 4;
      while (i < len && p[i] >= '0' && p[i] <= '9')
        i++;
    } else if (i < len && (p[i] == 'K' || p[i] == 'V' || p[i] == 'r')) {
      i++;
    } else {
      break;
    }
  }
  unsigned n = 1;
  if (i + 2 < len && p[i] == 'D' && p[i + 1] == 'v') {
    i += 2;
    n = 0;
    while (i < len && p[i] >= '0' && p[i] <= '9')
      n = n * 10 + (unsigned)(p[i++] - '0');
    if (i >= len || p[i++] != '_' || n == 0 || n > 16)
      return 0;
    if (n == 3)
      n = 4; /* 3-component vectors take the room of 4 */
  }
  if (i + 1 < len && p[i] == 'D' && p[i + 1] == 'h')
    return 2 * n;
  if (i >= len)
    return 0;
  switch (p[i]) {
  case 'c': case 'a': case 'h': return n;
  case 's': case 't': return 2 * n;
  case 'i': case 'j': case 'f': return 4 * n;
  case 'l': case 'm': case 'd': return 8 * n;
  default: return 0;
  }
}

/* 1 when call is a boundary (bd filled), 0 when not, -1 on an unsupported
 * collective (*why set). */
int wg_classify_boundary(LLVMValueRef call, wg_boundary *bd, const char **why)
{
  wg_mangled mg;
  size_t rest;
  if (!LLVMIsACallInst(call) || !wg_demangle(call, &mg))
    return 0;
  memset(bd, 0, sizeof(*bd));
  bd->call = call;
  if (wg_ident_is(&mg, "barrier") || wg_ident_is(&mg, "work_group_barrier")) {
    bd->kind = WB_BARRIER;
    snprintf(bd->what, sizeof(bd->what), "barrier");
    return 1;
  }
  if (wg_ident_is(&mg, "wait_group_events")) {
    /* Copies are complete when they return: waiting is a barrier. */
    bd->kind = WB_BARRIER;
    snprintf(bd->what, sizeof(bd->what), "wait_group_events");
    return 1;
  }
  if (wg_ident_is(&mg, "async_work_group_copy") || wg_ident_is(&mg, "async_work_group_strided_copy")) {
    bd->kind = WB_COPY;
    snprintf(bd->what, sizeof(bd->what), "%.*s", (int)mg.ilen, mg.ident);
    bd->esize = mangled_pointee_size(mg.params, mg.plen);
    if (!bd->esize || LLVMGetNumArgOperands(call) != (wg_ident_is(&mg, "async_work_group_copy") ? 4u : 5u)) {
      *why = "unsupported element type";
      return -1;
    }
    if (!wg_ident_is(&mg, "async_work_group_copy")) {
      LLVMTypeRef dst = LLVMTypeOf(LLVMGetOperand(call, 0));
      bd->stride_side = LLVMGetPointerAddressSpace(dst) == CC_AS_LOCAL ? 1 : 2;
    }
    return 1;
  }
  if (wg_ident_starts(&mg, "sub_group_", &rest) || wg_ident_starts(&mg, "__lanecl_sg_", &rest))
    return wg_classify_sub_group(call, &mg, bd, why);
  if (!wg_ident_starts(&mg, "work_group_", &rest))
    return 0;
  const char *op = NULL;
  const char *helper_kind = NULL;
  size_t r2 = 0;
  if (wg_ident_is(&mg, "work_group_all")) {
    bd->kind = WB_ALL;
  } else if (wg_ident_is(&mg, "work_group_any")) {
    bd->kind = WB_ANY;
  } else if (wg_ident_is(&mg, "work_group_broadcast")) {
    bd->kind = WB_BCAST;
  } else if (wg_ident_starts(&mg, "work_group_reduce_", &r2)) {
    bd->kind = WB_REDUCE;
    helper_kind = "reduce";
    op = mg.ident + r2;
  } else if (wg_ident_starts(&mg, "work_group_scan_inclusive_", &r2)) {
    bd->kind = WB_SCAN_INC;
    helper_kind = "scan_inclusive";
    op = mg.ident + r2;
  } else if (wg_ident_starts(&mg, "work_group_scan_exclusive_", &r2)) {
    bd->kind = WB_SCAN_EXC;
    helper_kind = "scan_exclusive";
    op = mg.ident + r2;
  } else {
    return 0; /* pipes and the like: not a boundary */
  }
  snprintf(bd->what, sizeof(bd->what), "%.*s", (int)mg.ilen, mg.ident);
  bd->ty = LLVMTypeOf(call);
  if (bd->kind == WB_ALL || bd->kind == WB_ANY) {
    snprintf(bd->helper, sizeof(bd->helper), "__lanecl_wg_%s", bd->kind == WB_ALL ? "all" : "any");
    return 1;
  }
  const char *ty = mangled_type_suffix(&mg);
  if (!ty) {
    *why = "unsupported operand type";
    return -1;
  }
  if (op) {
    size_t oplen = mg.ilen - r2;
    int known = 0;
    for (size_t i = 0; i < sizeof(wg_ops) / sizeof(wg_ops[0]) && !known; i++)
      known = strlen(wg_ops[i]) == oplen && !memcmp(wg_ops[i], op, oplen);
    if (!known) {
      *why = "unknown operation";
      return -1;
    }
    snprintf(bd->helper, sizeof(bd->helper), "__lanecl_wg_%s_%.*s_%s", helper_kind, (int)oplen, op, ty);
  }
  return 1;
}

/* LaneCL ICD front end: argument validation for every entry point.
 * icd/ checks handles and arguments as the spec says (the spec's error sentence
 * stands above each check), then calls runtime/, which assumes valid input. */
#ifndef LANECL_ICD_H
#define LANECL_ICD_H

#include <CL/cl_icd.h>

#include "runtime/rt.h"

extern const struct _cl_icd_dispatch icd_dispatch;

/* Ensures the platform is initialised (rt_init + rt_dispatch); every entry
 * point that can be the first call of a process calls it. */
void icd_init(void);

/* Under LANECL_DEBUG=api, logs which entry points are still the weak
 * "not implemented" stubs of icd/dispatch.c (icd_init calls it once). */
void icd_log_stubs(void);

/* Writes *errcode_ret when it is not NULL. */
static inline void icd_set_err(cl_int *errcode_ret, cl_int err)
{
  if (errcode_ret)
    *errcode_ret = err;
}

/* Validates an event wait list (CL_INVALID_EVENT_WAIT_LIST rules of every
 * clEnqueue*): num == 0 iff list == NULL, every entry a valid event, and (when
 * ctx != NULL) of that context (CL_INVALID_CONTEXT otherwise). */
cl_int icd_check_wait_list(const char *func, cl_context ctx, cl_uint num, const cl_event *list);

#endif

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

/* CL_INVALID_COMMAND_QUEUE rule: q is a valid command-queue (the reason is
 * logged under func when it is not). */
bool icd_queue_valid(const char *func, cl_command_queue q);

/* An enqueue's buffer argument: CL_INVALID_MEM_OBJECT if m is not a valid
 * buffer object (an image is not one), then CL_INVALID_CONTEXT if its
 * context is not the queue's.  name is the argument's, for the log. */
cl_int icd_check_buffer(const char *func, const char *name, cl_command_queue q, cl_mem m);

/* CL_MISALIGNED_SUB_BUFFER_OFFSET if m is a sub-buffer whose offset is not
 * aligned to the CL_DEVICE_MEM_BASE_ADDR_ALIGN of the queue's device. */
cl_int icd_check_sub_buffer_align(const char *func, cl_command_queue q, cl_mem m);

/* CL_INVALID_VALUE rules of the memory flags (icd/mem.c): no bit outside
 * allowed, no two mutually exclusive ones.  Logs the reason under func. */
bool icd_mem_flags_valid(const char *func, cl_mem_flags flags, cl_mem_flags allowed);

/* ---------------------------------------------------------------------------
 * Info queries (every clGet*Info).  The rule: icd/ answers them all.  Each
 * checks its handle, its other arguments and param_name (the spec's error
 * codes), reads the value from the object's public fields or the runtime's
 * accessors (which take the runtime's locks where the value is guarded:
 * program builds, binaries, kernel names), and replies through icd_info,
 * the one helper of the param_value protocol:
 *
 *   param_value      param_value_size   result            param_value_size_ret
 *   NULL             ignored            CL_SUCCESS        n
 *   not NULL         >= n               CL_SUCCESS, copy  n
 *   not NULL         <  n               CL_INVALID_VALUE  untouched
 *
 * (param_value_size_ret NULL: ignored.)  src NULL with n > 0: the protocol
 * only, the caller writes the value itself after CL_SUCCESS (CL_PROGRAM_BINARIES
 * copies into the application's buffers).  The runtime never sees
 * param_value, param_value_size or param_value_size_ret.
 * ------------------------------------------------------------------------- */
cl_int icd_info(void *dst, size_t dst_size, size_t *size_ret, const void *src, size_t n);
/* A string answer: its bytes and the NUL; NULL answers "". */
cl_int icd_info_str(void *dst, size_t dst_size, size_t *size_ret, const char *s);
/* A value answer of type T. */
#define ICD_INFO_VAL(dst, dst_size, size_ret, T, v) \
  ({ T icd_info_tmp_ = (v); icd_info((dst), (dst_size), (size_ret), &icd_info_tmp_, sizeof(T)); })

#endif

/* Large NDRanges of tiny work-groups.  The runtime runs the consecutive
 * full-size groups of a row of x in one call of the work-group function
 * (lanecl_wg_ctx.group_count); the smaller last group of a non-uniform
 * NDRange, and the rows whose y or z size is smaller, run on their own.
 * Every work-item records what it sees; the .ref files come from
 * tests/kernels/spans_ref.py, which computes them from the OpenCL rules. */

/* Ids and sizes of every dimension, and a hit count per work-item at its
 * global linear id (each must be hit once). */
__kernel void span_ids(__global long *gid, __global int *d0, __global int *d1, __global int *d2,
                       __global int *hits)
{
  size_t i = get_global_linear_id();
  gid[i] = (long)get_global_id(0) * 10000000000L + (long)get_global_id(1) * 100000L + (long)get_global_id(2);
  d0[i] = (int)(get_group_id(0) * 10000 + get_local_id(0) * 1000 + get_local_size(0) * 100 +
                get_enqueued_local_size(0) * 10 + (get_num_groups(0) % 10));
  d1[i] = (int)(get_group_id(1) * 10000 + get_local_id(1) * 1000 + get_local_size(1) * 100 +
                get_enqueued_local_size(1) * 10 + (get_num_groups(1) % 10));
  d2[i] = (int)(get_group_id(2) * 10000 + get_local_id(2) * 1000 + get_local_size(2) * 100 +
                get_enqueued_local_size(2) * 10 + (get_num_groups(2) % 10));
  atomic_inc(&hits[i]);
}

/* The same 1D record with a required work-group size of 4: full groups run
 * a copy specialised for it, the smaller last group the general one. */
__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void span_ids_reqd4(__global long *gid, __global int *d0,
                                                                          __global int *hits)
{
  size_t i = get_global_linear_id();
  gid[i] = (long)get_global_id(0);
  d0[i] = (int)(get_group_id(0) * 10000 + get_local_id(0) * 1000 + get_local_size(0) * 100 +
                get_enqueued_local_size(0) * 10 + (get_num_groups(0) % 10));
  atomic_inc(&hits[i]);
}

/* Barriers, __local memory and a private value live across them (the
 * frame), in groups of any shape: the group's values reversed, then
 * rotated by one. */
__kernel void span_barrier(__global const int *in, __global int *out, __local int *tmp)
{
  size_t l = get_local_linear_id();
  size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  size_t i = get_global_linear_id();
  int v = in[i] * 3 + (int)l;
  tmp[l] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  int r = tmp[n - 1 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = r + v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tmp[(l + 1) % n] * 100 + (int)(get_group_id(0) % 100);
}

/* Collectives (in local linear id order). */
__kernel void span_collective(__global const int *in, __global int *scan, __global int *other)
{
  size_t i = get_global_linear_id();
  int x = in[i];
  scan[i] = work_group_scan_inclusive_add(x) * 10 + (work_group_all(x > -400) != 0);
  int m = work_group_reduce_max(x);
  int b = get_work_dim() == 1 ? work_group_broadcast(x, 0) : work_group_broadcast(x, 0, 0);
  other[i] = m * 10000 + b;
}

/* The local-memory Blelloch exclusive scan of lanecl-bench (local size a
 * power of two). */
__kernel void span_blelloch(__global const int *in, __global int *out, __local int *t)
{
  size_t l = get_local_id(0), L = get_local_size(0), g = get_global_id(0);
  t[l] = in[g];
  size_t off = 1;
  for (size_t d = L >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      size_t ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
      t[bi] += t[ai];
    }
    off <<= 1;
  }
  if (l == 0)
    t[L - 1] = 0;
  for (size_t d = 1; d < L; d <<= 1) {
    off >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      size_t ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
      int x = t[ai];
      t[ai] = t[bi];
      t[bi] += x;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = t[l];
}

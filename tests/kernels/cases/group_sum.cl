/* A tree reduction in local memory, barriers in a loop whose trip count is
 * the group size (any size, not only powers of two).  in[i] = i, so a
 * group's sum has a closed form; err counts the work-items that saw
 * another sum, sums[] gets each group's. */
__kernel void group_sum(__global const int *in, __global int *sums, __global int *err, __local int *tmp)
{
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = 1; s < n; s *= 2) {
    if (l % (2 * s) == 0 && l + s < n)
      tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  long first = (long)(get_global_id(0) - l);
  long want = first * (long)n + (long)n * (long)(n - 1) / 2;
  if (tmp[0] != (int)want)
    atomic_inc(err);
  if (l == 0)
    sums[get_group_id(0)] = tmp[0];
}

/* OpenCL C 2.0 non-uniform groups: the last group of a dimension is
 * smaller; its work-items see their own local size, the enqueued one, and a
 * barrier over the smaller group. */
__kernel void nonuniform_1d(__global const int *in, __global int *out, __global int *sums, __local int *tmp)
{
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int s = 0;
    for (size_t i = 0; i < n; i++)
      s += tmp[i];
    sums[get_group_id(0)] = s;
  }
  out[get_global_id(0)] =
      (int)(n * 10000 + get_enqueued_local_size(0) * 100 + get_group_id(0) * 10 + (l == n - 1));
}

__kernel void nonuniform_2d(__global int *out)
{
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  out[y * get_global_size(0) + x] =
      (int)(get_local_size(0) * 1000 + get_local_size(1) * 100 + get_group_id(0) * 10 + get_group_id(1));
}

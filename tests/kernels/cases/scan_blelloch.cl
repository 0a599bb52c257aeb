/* Blelloch's work-efficient exclusive scan of 2 * local size ints per group
 * in local memory: an up-sweep and a down-sweep, a barrier per level. */
__kernel void scan_blelloch(__global const int *in, __global int *out, __local int *temp)
{
  int n = 2 * (int)get_local_size(0);
  int t = (int)get_local_id(0);
  int base = (int)get_group_id(0) * n;
  temp[2 * t] = in[base + 2 * t];
  temp[2 * t + 1] = in[base + 2 * t + 1];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (t == 0)
    temp[n - 1] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      int x = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += x;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * t] = temp[2 * t];
  out[base + 2 * t + 1] = temp[2 * t + 1];
}

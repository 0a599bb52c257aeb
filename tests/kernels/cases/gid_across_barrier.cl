/* A value computed from get_global_id and kept across a barrier inside a
 * loop differs between work-items: each keeps its own. */
__kernel void gid_across_barrier(__global int *out)
{
  int x = get_global_id(0);
  int acc = 0;
  for (int y = 0; y < get_local_size(0); y++) {
    acc += x;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[x - get_global_offset(0)] = acc;
}

/* Barriers in a uniform branch, in a loop inside it, and in a loop whose
 * trip count comes from local memory (the same for every work-item). */
__kernel void barrier_branches(__global int *out, __local int *buf, int mode, int rounds)
{
  size_t l = get_local_id(0), n = get_local_size(0);
  buf[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (mode > 0) {
    for (int r = 0; r < rounds; r++) {
      int v = buf[(l + 1) % n];
      barrier(CLK_LOCAL_MEM_FENCE);
      buf[l] = v + r;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  } else {
    int v = buf[n - 1 - l];
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[l] = v * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int k = buf[0] % 3 + 1;
  for (int i = 0; i < k; i++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[l] += 100;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[(l + 3) % n];
}

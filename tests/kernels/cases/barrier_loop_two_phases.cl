/* Two barrier-separated phases inside a loop, each under a divergent branch
 * with an inner loop of a per-work-item trip count (the diagonal block of an
 * LU decomposition).  The branch condition each work-item keeps across the
 * barrier is an i1: the masked lane loop must read the 16 saved conditions
 * as 16 bytes, not as 16 bits of two bytes. */
__kernel void barrier_loop_two_phases(__global float *g)
{
  __local float s[256];
  int tx = get_local_id(0);
  for (int k = 0; k < 16; k++)
    s[k * 16 + tx] = g[k * 16 + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < 15; i++) {
    if (tx > i)
      for (int j = 0; j < i; j++)
        s[tx * 16 + i] += 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tx > i)
      for (int j = 0; j < i + 1; j++)
        s[(i + 1) * 16 + tx] += 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int k = 0; k < 16; k++)
    g[k * 16 + tx] = s[k * 16 + tx];
}

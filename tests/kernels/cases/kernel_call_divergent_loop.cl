/* CTS test_basic kernel_call_kernel_function, reduced: an inner loop whose
 * trip count is the work-item's id, inside a uniform outer loop (its body
 * was deleted at 14cdda1: every dst[i] stayed 1). */
__kernel void kcall(__global int *src, __global int *dst, int times)
{
  int tid = get_global_id(0);
  dst[tid] = 1;
  for (int a = 0; a < times; a++) {
    if (tid == 0)
      dst[get_global_id(0)] = 0;
    for (int b = 0; b < tid; b++)
      dst[get_global_id(0)] += src[b];
  }
}

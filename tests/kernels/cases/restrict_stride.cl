/* A load at a run-time stride in a kernel with a restrict output: the lane
 * loop may be versioned on the stride being 1, never assume it. */
__kernel void restrict_stride(__global const float *y, int inc, __global float *restrict a)
{
  int i = get_global_id(0);
  a[i] = y[i * inc];
}

/* A loop whose vectorization the source forces, with accesses that overlap
 * at a distance known only at run time (dst = a + k): a[j + 1] = a[j] + 1 in
 * order gives 0 1 2 3 ...; vectorized without its run-time memory checks
 * (LLVM 19 with the VPlan-native path) it gave 0 1 1 1 ...  The lane loop is
 * scalar (an atomic), so the user's loop is the innermost loop the
 * vectorizer sees. */
__kernel void forced(__global int *a, int n, int k, __global int *cnt)
{
  if (get_global_id(0) == 0) {
    atomic_inc(cnt);
    __global int *dst = k > 0 ? a + k : cnt + 1;
#pragma clang loop vectorize(enable)
    for (int j = 0; j < n; j++)
      dst[j] = a[j] + 1;
  }
}

/* The same with a width, in every work-item of a vectorized lane loop: each
 * work-item's row, b[row + j + k] = b[row + j] * 2 + 1. */
__kernel void forced_width(__global int *b, int n, int k)
{
  __global int *row = b + get_global_id(0) * 32;
  __global int *dst = row + k;
#pragma clang loop vectorize(enable) vectorize_width(8)
  for (int j = 0; j < n; j++)
    dst[j] = row[j] * 2 + 1;
}

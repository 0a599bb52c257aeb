/* Inner loops with a per-work-item trip count inside a uniform loop, run
 * at small local sizes (1 to 8: the rest loop after the masked chunks, and
 * several groups per call of the work-group function).  Each inner loop
 * loads from one buffer and adds into another, so LLVM's loop vectorizer
 * needs run-time memory checks to vectorize it; with the VPlan-native path
 * on, LLVM 19 dropped them and the inner loops' trip count became poison
 * (see compiler/cc_api.c).  Expected outputs: ../small_group_loops_ref.py. */

/* the trip count is the local id */
__kernel void sg_lid(__global const int *src, __global int *dst, int times)
{
  int gid = get_global_id(0);
  int lid = get_local_id(0);
  dst[gid] = 1;
  for (int a = 0; a < times; a++) {
    if (lid == 0)
      dst[gid] = 0;
    for (int b = 0; b < lid; b++)
      dst[gid] += src[b + a];
  }
}

/* a while loop, its trip count from the global id */
__kernel void sg_while(__global const int *src, __global int *dst, int times)
{
  int gid = get_global_id(0);
  int n = gid % 13;
  dst[gid] = gid;
  for (int a = 0; a < times; a++) {
    int b = 0;
    while (b < n) {
      dst[gid] += src[(b * 7 + a) & 63];
      b++;
    }
  }
}

/* two levels of loops inside the uniform one */
__kernel void sg_nested(__global const int *src, __global int *dst, int times)
{
  int gid = get_global_id(0);
  dst[gid] = 0;
  for (int a = 0; a < times; a++)
    for (int b = 0; b < gid % 5; b++)
      for (int c = 0; c <= b + gid % 3; c++)
        dst[gid] += src[c + b] * (a + 1);
}

/* one work-item: a[j + k] = a[j] + 1, a loop whose accesses overlap when
 * k < the vector width (vectorized without memory checks, it read stale
 * values) */
__kernel void sg_overlap(__global int *a, int n, int k)
{
  for (int j = 0; j < n; j++)
    a[j + k] = a[j] + 1;
}

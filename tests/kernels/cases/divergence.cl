/* Work-items of one SIMD chunk taking different paths: loops with their
 * own trip counts (Collatz steps), a three-way branch, an early return. */
__kernel void divergence(__global int *steps, __global int *branch, __global int *early)
{
  int i = (int)get_global_id(0);
  long x = i + 1;
  int s = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    s++;
  }
  steps[i] = s;
  int r;
  if (i % 3 == 0)
    r = i * i;
  else if (i % 3 == 1)
    r = -i;
  else
    r = i / 2;
  branch[i] = r;
  early[i] = -1;
  if (i % 5 == 2)
    return;
  for (int k = 0; k < i % 7; k++) {
    if (k == 4)
      break;
    r += k;
  }
  early[i] = r;
}

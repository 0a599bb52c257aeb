/* Integer division by zero, and INT_MIN / -1, give an unspecified value in
 * OpenCL C but must not trap (x86 div/idiv raise SIGFPE; CTS test_integer_ops
 * integer_divideAssign crashed).  LaneCL divides by 1 there (cc_safediv.c);
 * the .ref pins that, the other lanes are exact. */
__kernel void div_assign(__global int *a, __global int *b)
{
  size_t i = get_global_id(0);
  b[i] /= a[i];
}

__kernel void rem_long(__global long *a, __global long *b, __global long *out)
{
  size_t i = get_global_id(0);
  out[i] = a[i] % b[i];
}

__kernel void div_uchar4(__global uchar4 *a, __global uchar4 *b, __global uchar4 *out)
{
  size_t i = get_global_id(0);
  out[i] = a[i] / b[i];
}

__kernel void rem_short(__global short *a, __global short *b, __global short *out)
{
  size_t i = get_global_id(0);
  out[i] = a[i] % b[i];
}

/* A divisor that is the same for every work-item. */
__kernel void div_uniform(__global uint *a, uint d, __global uint *out)
{
  size_t i = get_global_id(0);
  out[i] = a[i] / d;
}

/* The division only runs where n[i] > 0 (and there d[i] != 0), in a loop
 * whose trip count depends on the work-item: lanes that are off must not
 * divide by their zero either. */
__kernel void div_in_divergent_loop(__global int *n, __global int *d, __global int *out)
{
  size_t i = get_global_id(0);
  int acc = 0;
  for (int k = 0; k < n[i]; k++)
    acc += (1000 + k) / d[i];
  out[i] = acc;
}

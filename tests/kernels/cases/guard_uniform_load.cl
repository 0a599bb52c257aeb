/* A uniform value read under a guard: one scalar load when a lane of the
 * chunk is on (compiler/cc_wg_affine.c wg_uniform_gathers); the chunks past
 * n load nothing (bias may then be any pointer). */
__kernel void guard_bias(__global float *out, __global const float *a, __global const float *bias, int n)
{
  int i = get_global_id(0);
  if (i < n)
    out[i] = a[i] * 2.0f + bias[0];
}

/* Built with -cl-denorms-are-zero (denorms_are_zero.sim), which allows the
 * device to flush denormal inputs and results to zero; LaneCL does
 * (MXCSR DAZ and FTZ while the kernel runs), as PoCL does: piglit's
 * amdgcn-f32-inline-immediates expects a denormal plus 0 to be 0.  The
 * same kernel without the option (denorms_kept.sim) keeps them. */
__kernel void add_zero(__global float *out, __global const float *in, float z)
{
  size_t i = get_global_id(0);
  out[i] = in[i] + z;
}

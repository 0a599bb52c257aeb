/* A __local array of a narrow type used through a wider vector: the array
 * is aligned to its size (up to 128 bytes), as kernels written for other
 * drivers expect (piglit's vstorea_half16 on a `local short[32]`). */
__kernel void local_align_vstorea(__global short *out, __global float16 *in)
{
  float16 tmp = in[0];
  volatile __local short loc[32];
  for (int i = 0; i < 32; ++i)
    loc[i] = 0;
  vstorea_half16(tmp, 0, (__local half *)loc + 16);
  for (int i = 0; i < 32; ++i)
    out[i] = loc[i];
}

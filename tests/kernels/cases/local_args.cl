/* Two __local arguments of different types and sizes, and a static __local array. */
__kernel void local_args(__global const float *in, __global float *out, __local float *lf, __local int *li)
{
  __local int fixed[32];
  size_t l = get_local_id(0), n = get_local_size(0);
  lf[l] = in[get_global_id(0)];
  li[2 * l] = (int)l;
  li[2 * l + 1] = (int)(n - l);
  if (l < 32)
    fixed[l] = (int)(l * l);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = lf[n - 1 - l] * 2.0f + (float)li[2 * ((l + 1) % n) + 1] + (float)fixed[l % 32];
}

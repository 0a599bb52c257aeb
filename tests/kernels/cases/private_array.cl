/* 4 KB of private array per work-item, live across barriers (kept in the
 * work-group frame), next to local memory traffic. */
__kernel void private_array(__global int *out, __global float *fout, __local int *tmp)
{
  int arr[1024];
  float f[512];
  size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
  for (int j = 0; j < 1024; j++)
    arr[j] = (int)(j ^ g);
  for (int j = 0; j < 512; j++)
    f[j] = (float)j * 0.5f + (float)g;
  tmp[l] = arr[(g * 5 + 3) % 1024];
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int j = 0; j < 1024; j += 7)
    s += arr[j];
  int neighbour = tmp[(l + 1) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = (int)f[(g * 3) % 512];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = s + neighbour + tmp[n - 1 - l];
  fout[g] = f[g % 512] + f[511 - g % 512];
}

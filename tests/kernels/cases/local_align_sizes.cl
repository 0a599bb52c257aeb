/* Every __local variable is aligned to its size, up to 128 bytes, whatever
 * its element type: out[i] is the variable's address modulo that. */
__kernel void local_align_sizes(__global uint *out)
{
  __local char a[3];
  __local short b[32];
  __local char c[5];
  __local float4 d[2];
  __local char e[1];
  __local long16 f[1];
  __local uchar g[200];
  a[0] = 1; b[0] = 2; c[0] = 3; d[0] = 4; e[0] = 5; f[0] = 6; g[0] = 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[0] = (uint)((size_t)a % 4) + a[0] - 1;
  out[1] = (uint)((size_t)b % 64) + b[0] - 2;
  out[2] = (uint)((size_t)c % 8) + c[0] - 3;
  out[3] = (uint)((size_t)d % 32) + (uint)d[0].x - 4;
  out[4] = (uint)((size_t)e % 1) + e[0] - 5;
  out[5] = (uint)((size_t)f % 128) + (uint)f[0].s0 - 6;
  out[6] = (uint)((size_t)g % 128) + g[0] - 7;
}

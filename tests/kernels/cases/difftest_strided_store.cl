/* Found by lanecl-difftest: two stores through a restrict pointer at a
 * runtime stride (out[g * s] and out[g * s + 1]) must keep the stride. */
__kernel void difftest_strided_store(__global uint *restrict out, uint ostride)
{
  uint g = (uint)get_global_id(0);
  out[g * ostride] = g * 3u;
  out[g * ostride + 1u] = g;
}

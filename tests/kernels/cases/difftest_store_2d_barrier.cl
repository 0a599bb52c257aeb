/* Found by lanecl-difftest: in a 2D NDRange, values computed before a
 * barrier (one from a loop of loads) stored after it through a restrict
 * pointer at a runtime stride, at the linear global id. */
#define GLIN ((uint)(get_global_id(1) * get_global_size(0) + get_global_id(0)))

__kernel void difftest_store_2d_barrier(__global uint *restrict out, __global const uint *restrict in,
                                        uint ostride)
{
  uint v0 = GLIN;
  uint pa[8];
  for (uint j = 0u; j < 8u; j++)
    pa[j] = in[GLIN * 8u + j] ^ j;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[GLIN * ostride] = v0;
  out[GLIN * ostride + 2u] = pa[0] + pa[1] * 3u + pa[2] * 5u + pa[3] * 7u + pa[4] * 11u + pa[5] * 13u + pa[6] * 17u + pa[7] * 19u;
}

/* Found by lanecl-difftest: a strided load through a restrict pointer,
 * passed to a function with barriers (a work-group sum through __local
 * memory) after an earlier call of it whose result is compared. */
uint group_sum(__local uint *s, uint x)
{
  uint lid = (uint)(get_local_id(1) * get_local_size(0) + get_local_id(0));
  uint lsz = (uint)(get_local_size(0) * get_local_size(1));
  barrier(CLK_LOCAL_MEM_FENCE);
  s[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint r = 0u;
  for (uint i = 0u; i < lsz; i++)
    r += s[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}

__kernel void difftest_restrict_group_fn(__global uint *restrict out, __global const uint *restrict in,
                                         uint stride)
{
  __local uint s[64];
  uint g = (uint)get_global_id(0);
  uint any = group_sum(s, 0u) != 0u;
  uint sum = group_sum(s, in[g * stride]);
  out[2u * g] = any;
  out[2u * g + 1u] = sum;
}

/* Found by lanecl-difftest: a work-item's own value plus the result of a
 * work-group function, kept across a barrier, stays the work-item's own
 * (not one work-item's value for the whole group). */
__kernel void difftest_collective_barrier(__global uint *out)
{
  uint g = (uint)get_global_id(0), l = (uint)get_local_id(0);
  uint v = g * 4u;
  v += work_group_reduce_add(l & 1u);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = v;
}

/* CTS test_basic vload_local, rewritten: work-item 0 of each group copies a
 * buffer into __local memory in a loop (a loop under a per-work-item branch),
 * then every work-item reads two of it with vload2.  The masked widening
 * makes the copy an inner loop of one block whose mask is a phi; the store
 * to one address under that mask (cc_wg_affine.c, one_address_scatter) split
 * the block, which rebuilt the phi and left the store's test on the freed
 * mask (a bitcast of another vector): nothing was stored, every result 0. */
__kernel void test_fn(__local int *sh, __global int *src, __global uint *offsets, __global uint *al,
                      __global int2 *results)
{
  int tid = get_global_id(0);
  int lid = get_local_id(0);
  if (lid == 0) {
    for (int i = 0; i < 200; i++)
      sh[i] = src[i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  results[tid] = vload2(offsets[tid], sh + al[tid]);
}

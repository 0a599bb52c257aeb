/* to_global and to_local in a vectorized lane loop: odd work-items point to
 * the __global buffer, even ones to the __local argument (4: global, 2:
 * local; the lanes answer each for its own pointer). */
__kernel void to_space_lanes(__global int *out, __global int *g, __local int *larg)
{
  size_t i = get_global_id(0), l = get_local_id(0);
  int *p = (i & 1) ? (int *)(g + i) : (int *)(larg + l);
  out[i] = (to_global(p) != NULL) * 4 + (to_local(p) != NULL) * 2 + (to_private(p) != NULL);
}

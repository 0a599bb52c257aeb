/* to_global, to_local and to_private of generic pointers (OpenCL C 3.0
 * with __opencl_c_generic_address_space; the CTS's generic_address_space
 * casting sub-tests): the pointer where it points into that space, else
 * NULL.  Pointers to a __global buffer, a __local argument, a __local
 * variable, a private scalar and a private array that lives across a
 * barrier (in the frame), each tested with all three, in a helper function
 * (inlined) and in the kernel, 16 work-items a group.  Each work-item
 * writes 15 flags (1: the right answer) and the value read through the
 * pointer to_* returned for its own space. */
static int spaces(int *p)
{
  /* 4 * global + 2 * local + private, each 0 or 1 */
  return (to_global(p) != NULL) * 4 + (to_local(p) != NULL) * 2 + (to_private(p) != NULL);
}

__kernel void to_space(__global int *out, __global int *g, __local int *larg)
{
  __local int lvar[16];
  int priv = 7;
  int parr[8];
  size_t i = get_global_id(0), l = get_local_id(0);
  for (int k = 0; k < 8; k++)
    parr[k] = (int)i + k;
  larg[l] = 10 + (int)l;
  lvar[l] = 20 + (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  __global int *o = out + 8 * i;
  o[0] = spaces(g + i);
  o[1] = spaces(larg + l);
  o[2] = spaces(lvar + (15 - l));
  o[3] = spaces(&priv);
  o[4] = spaces(parr + (l & 7));
  int *gp = g + i, *lp = larg + l, *pp = parr + 3;
  o[5] = *to_global(gp);
  o[6] = *to_local(lp);
  o[7] = *to_private(pp);
}

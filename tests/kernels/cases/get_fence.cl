/* get_fence on __generic pointers to __global, __local and private objects
 * (the CTS's generic_address_space uses it in most sub-tests): the value
 * must be a valid fence, 0, CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE or
 * both.  LaneCL answers both (builtins/misc.cl). */
static uint fence_of(const int *p) { return (uint)get_fence(p); }
static uint fence_of_mut(float *p) { return (uint)get_fence(p); }

__kernel void get_fence_all(__global uint *out, __global int *g)
{
  __local int l[4];
  int priv = 3;
  float fpriv = 1.0f;
  size_t i = get_global_id(0);
  l[get_local_id(0) & 3] = 1;
  out[4 * i + 0] = fence_of(g + i);
  out[4 * i + 1] = fence_of(l);
  out[4 * i + 2] = fence_of(&priv);
  out[4 * i + 3] = fence_of_mut(&fpriv) == (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

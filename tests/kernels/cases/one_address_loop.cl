/* Scatters of every lane to one address (cc_wg_affine.c's one_address_scatter),
 * after the shape of CTS test_basic kernel_preprocessor_macros: constants to
 * out[0..3] from every work-item, and a copy loop whose trip count is the
 * group's but depends on data (it stays a loop), so the scatter of the copied
 * char sits in an inner loop of one block, whose phis are the scatter's data.
 * Splitting that block rebuilt its phis and freed the data under the rewrite
 * (a crash of the compiler); with all lanes on it is one store now. */
__kernel void one_all(__global int *res, __global char *out)
{
  res[0] = 0xf00baa;
  res[1] = 1;
  res[2] = 300;
  res[3] = 7;
  int i;
  constant char *f = "a string long enough for the copy to stay a loop: /work/cts/src/test_conformance";
  for (i = 0; f[i] != 0 && i < 512; i++)
    out[i] = f[i];
  out[i] = 0;
}

/* The same copy from a buffer, and a value of the work-item after it. */
__kernel void one_all_ids(__global int *res, __global char *out, __global const char *src, __global int *ids)
{
  res[0] = 5;
  int i;
  for (i = 0; src[i] != 0 && i < 200; i++)
    out[i] = src[i];
  out[i] = 0;
  ids[get_global_id(0)] = (int)get_global_id(0) * 3 + i;
}

/* The same loop under a mask: only the work-item with lx == 1 copies, to
 * its group's part of out. */
__kernel void one_masked(__global char *out, __global const char *src, __global int *ids)
{
  int i = 0;
  if (get_local_id(0) == 1) {
    for (i = 0; src[i] != 0 && i < 31; i++)
      out[32 * get_group_id(0) + i] = src[i] + (char)get_group_id(0);
  }
  ids[get_global_id(0)] = (int)get_global_id(0) * 3 + i;
}

/* A uniform inner loop (trip count n) whose body stores to one address per
 * iteration from every lane, and to one address under lx == 3. */
__kernel void one_uniform(__global int *out, __global const int *src, int n, __global int *ids)
{
  int lx = (int)get_local_id(0), acc = 0;
  for (int k = 0; k < n; k++) {
    out[k] = src[k] * 2;
    if (lx == 3)
      out[64 + k] = src[k] + (int)get_group_id(0);
    acc += src[k] * lx;
  }
  ids[get_global_id(0)] = acc;
}

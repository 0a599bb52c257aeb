/* Program scope __global variables (OpenCL C 2.0): an initialised table,
 * a zero-initialised array written and read back, a pointer to one. */
__global int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__global int scratch[64];
__global int *__global cursor = &scratch[0];

__kernel void program_globals(__global int *out)
{
  size_t i = get_global_id(0);
  scratch[i] = (int)i * 3;
  out[i] = table[i % 8] * 10 + scratch[i] + cursor[i] + (cursor == &scratch[0]);
}

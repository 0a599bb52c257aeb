/* A loop that stores its own induction variable, not unrolled: after O3 the
 * loop vectorizer leaves a one-block loop whose <W x i32> store takes a phi
 * of that block as its value.  compiler/cc_stream.c splits the block before
 * each wide __global store and rebuilds the phis of the block's successors,
 * here the block itself: it read the store's operands before the split and
 * built the streaming store from the erased phi (a crash in LLVM,
 * test_compiler pragma_unroll of the Khronos CTS). */
__kernel void unroll_const(__global uint *dst)
{
  __attribute__((opencl_unroll_hint(1)))
  for (size_t i = 0; i < 100; ++i)
    dst[i] = i;
}

__kernel void unroll_varying(__global uint *dst)
{
  size_t n = (get_global_id(0) + 1) * 100;
  size_t i = 0;
  __attribute__((opencl_unroll_hint(10)))
  while (i < n) {
    dst[i] = i;
    ++i;
  }
}

/* Streaming stores (compiler/cc_stream.c), run with LANECL_STREAM_STORES=1:
 * every wide __global store streams where its address is aligned. */
kernel void vecadd(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

/* Every store one float past an aligned address: the plain path. */
kernel void vecadd_shift(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i + 1] = a[i] + b[i];
}

kernel void saxpy(float s, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = s * x[i] + y[i];
}

kernel void fill2d(global int *c) {
  size_t x = get_global_id(0), y = get_global_id(1);
  c[y * get_global_size(0) + x] = (int)(y * 1000 + x);
}

kernel void bytes(global const uchar *in, global uchar *out) {
  size_t i = get_global_id(0);
  out[i] = (uchar)(in[i] * 3 + 1);
}

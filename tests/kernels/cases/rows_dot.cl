/* Row dot products: A[i * n + j] along j in each work-item, strided by n
 * across work-items (compiler/cc_wg_rows.c reads W iterations of each row at
 * once).  uint: wrapping arithmetic, exact. */
kernel void rows_dot(global uint *y, global const uint *A, global const uint *x, int n) {
  int i = get_global_id(0);
  if (i < n) {
    uint s = 0;
    for (int j = 0; j < n; j++)
      s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

/* GESUMMV's shape: two matrices, the sums kept in global memory */
kernel void rows_gesummv(global const uint *a, global const uint *b, global const uint *x, global uint *y,
                         global uint *tmp, uint alpha, uint beta, int n) {
  int i = get_global_id(0);
  if (i < n) {
    for (int j = 0; j < n; j++) {
      tmp[i] += a[i * n + j] * x[j];
      y[i] += b[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

/* Kernels whose lane loop is split at a guard on x's id (cc_wg_trim.c,
 * wg_split_guard): the work-items that pass the guard run a copy without
 * it, the others the body as written.  Each writes what every work-item
 * did, so a work-item in the wrong copy shows. */
#define W(v) out[get_global_id(0) - get_global_offset(0)] = (v)

kernel void lt(global int *out, int n)
{
  int i = get_global_id(0);
  if (i < n)
    W(3 * i + 1);
}

kernel void ret_uint(global int *out, uint n)
{
  uint i = get_global_id(0);
  if (i >= n)
    return;
  W((int)i * 5);
}

kernel void le_else(global int *out, int n)
{
  int i = get_global_id(0);
  if (i <= n)
    W(i + 100);
  else
    W(-i);
}

kernel void swapped_sizet(global int *out, int n)
{
  if ((size_t)n > get_global_id(0))
    W(7);
  else
    W(8);
}

/* int i wraps at 2^31 within a group: the guard is true, false, true again */
kernel void wraps(global int *out, int n)
{
  int i = get_global_id(0);
  if (i < n)
    W(1);
  else
    W(2);
}

kernel void local_guard(global int *out, int m)
{
  if (get_local_id(0) < m)
    W((int)get_local_id(0) + 10 * (int)get_group_id(0));
}

kernel void guard_2d(global int *out, int w, int h)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h)
    out[y * get_global_size(0) + x] = x + 1000 * y;
}

/* the compare is also a value */
kernel void cmp_value(global int *out, int n)
{
  int i = get_global_id(0);
  int ok = i < n;
  if (ok)
    W(ok + 40);
  else
    W(ok + 20);
}

/* an inner loop under the guard: A[j * n + i], consecutive across work-items */
kernel void column_dot(global int *out, global const int *A, int n, int rows)
{
  int i = get_global_id(0);
  if (i < n) {
    int s = 0;
    for (int j = 0; j < rows; j++)
      s += A[j * n + i] * (j + 1);
    W(s);
  }
}

/* the work-items that pass are a suffix: i > k (LU's update shape) */
kernel void gt(global int *out, int k)
{
  int i = get_global_id(0);
  if (i > k)
    W(2 * i);
  else
    W(-1);
}

kernel void lu_2d(global int *a, int k, int w)
{
  int x = get_global_id(0), y = get_global_id(1);
  if (x > k && y > k)
    a[y * w + x] -= a[y * w + k] * a[k * w + x];
}

/* two compares on x: a halo guard (PolyBench's 2DCONV and 3DCONV shape) */
kernel void halo(global int *out, int w)
{
  int x = get_global_id(0);
  if (x > 0 && x < w - 1)
    W(10 * x);
  else
    W(-x);
}

/* ... bounds that cross: x >= lo && x < hi with lo above hi in some groups */
kernel void band(global int *out, int lo, int hi)
{
  int x = get_global_id(0);
  if (x >= lo && x < hi)
    W(x + 1);
}

/* Divisions by a value the same for every work-item: a multiplication by a
 * magic number (cc_safediv.c, cc_uniform_divisions). */
kernel void sdiv(global int *q, global int *r, global const int *a, int d)
{
  int i = get_global_id(0);
  q[i] = a[i] / d;
  r[i] = a[i] % d;
}

kernel void udiv(global uint *q, global uint *r, global const uint *a, uint d)
{
  int i = get_global_id(0);
  q[i] = a[i] / d;
  r[i] = a[i] % d;
}

/* the application shape: an index divided by a runtime size, under a guard */
kernel void index_div(global int *out, global const int *b, int n, int per)
{
  int i = get_global_id(0);
  if (i < n)
    out[i] = b[i / per] * 1000 + i % per;
}

/* a divisor of 0 must not trap (the value is unspecified) */
kernel void by_zero(global int *sink, global int *out, global const int *a, int d)
{
  int i = get_global_id(0);
  sink[i] = a[i] / d + a[i] % d + (int)((uint)a[i] / (uint)d) + (int)((uint)a[i] % (uint)d);
  out[i] = 1;
}

/* 64-bit: size_t indices divided by a runtime size, long and ulong values */
kernel void sdiv64(global long *q, global long *r, global const long *a, long d)
{
  size_t i = get_global_id(0);
  q[i] = a[i] / d;
  r[i] = a[i] % d;
}

kernel void udiv64(global ulong *q, global ulong *r, global const ulong *a, ulong d)
{
  size_t i = get_global_id(0);
  q[i] = a[i] / d;
  r[i] = a[i] % d;
}

kernel void index_div64(global int *out, global const int *b, ulong n, ulong per)
{
  size_t i = get_global_id(0);
  if (i < n)
    out[i] = b[i / per] * 1000 + (int)(i % per);
}

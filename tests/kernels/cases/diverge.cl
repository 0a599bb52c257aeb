/* Lane-varying inner loops: each work-item runs its inner loops its own
 * number of times (cc_wg_diverge.c widens such regions with masks).  The
 * expected outputs come from diverge_ref.c, the same code in plain C. */
#pragma OPENCL FP_CONTRACT OFF

uint dv_hash(uint x)
{
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

/* A data-dependent exit, continue, break, no iteration at all for some
 * work-items, a store inside the loop. */
__kernel void dv_while(__global int *out, __global int *trace)
{
  int i = get_global_id(0);
  int limit = (int)(dv_hash(i) % 23) - 3;
  int s = 0, k = 0;
  while (k < limit) {
    k++;
    uint v = dv_hash(i * 31 + k);
    if ((v & 7) == 0)
      continue;
    if ((v & 63) == 5)
      break;
    s += (int)(v % 100);
    trace[i * 20 + k] = s;
  }
  out[i] = s * 32 + k;
}

/* Nested loops whose trip counts depend on the work-item and on loaded
 * data; a division that some lanes skip because its divisor is 0. */
__kernel void dv_nested(__global int *out, __global const int *a)
{
  int i = get_global_id(0);
  int s = 0;
  for (int j = 0; j < i % 5; j++) {
    int m = a[(i + j) % 64];
    int t = 0;
    while (m > 0) {
      t += m & 3;
      m >>= 2;
      if (t > 9)
        break;
    }
    if (t != 0)
      s += 100 / t;
    s = s * 3 + t;
  }
  out[i] = s;
}

/* Mandelbrot with exact coordinates (x * 3/64, y / 16) and no contraction,
 * so the C reference counts the same iterations. */
__kernel void dv_mandel(__global int *out, int maxit)
{
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  float cr = -2.0f + x * 0.046875f, ci = -1.125f + y * 0.0625f, zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < maxit && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    it++;
  }
  out[y * w + x] = it;
}

/* Walks of a list whose end is an index far outside the buffers: a lane
 * that has left the loop must not load. */
__kernel void dv_list(__global int *out, __global const int *next, __global const int *val)
{
  int i = get_global_id(0);
  int p = i % 3 == 0 ? -1 : next[i % 64];
  int s = 0, steps = 0;
  while (p >= 0) {
    s += val[p];
    p = next[p];
    steps++;
  }
  out[i] = s * 64 + steps;
}

/* A multi-way branch inside the loop, float and integer state. */
__kernel void dv_switch(__global int *out, __global float *f)
{
  int i = get_global_id(0), x = i, s = 0;
  float g = 1.0f;
  for (int k = 0; k < (i & 15); k++) {
    switch ((x + k) % 5) {
    case 0: s += 3; break;
    case 1: s *= 2; g = g * 0.5f; break;
    case 2: s -= k; break;
    case 3: g = g + (float)k; break;
    default: x ^= 5; break;
    }
  }
  out[i] = s;
  f[i] = g;
}

/* A lane-varying loop between barriers, on data of another work-item. */
__kernel void dv_barrier(__global int *out, __local int *tmp)
{
  int l = get_local_id(0), s = 0;
  tmp[l] = (int)dv_hash(get_global_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  int m = tmp[(l + 1) % get_local_size(0)];
  while (m > 5) {
    s += m & 3;
    m = m / 3 - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s + tmp[0];
}

/* A private array indexed by a lane-varying loop (it lives in the frame),
 * long and double state. */
__kernel void dv_private(__global long *out, __global double *d)
{
  int i = get_global_id(0);
  int buf[12];
  int n = (int)(dv_hash(i) % 13);
  for (int k = 0; k < n; k++)
    buf[k] = (int)(dv_hash(i + k) & 1023);
  long s = 0;
  double q = 0.0;
  for (int k = n - 1; k >= 0; k -= 1 + (buf[k] & 1)) {
    s = s * 7 + buf[k];
    q = q * 0.5 + (double)buf[k];
  }
  out[i] = s;
  d[i] = q;
}

/* dv_while's loop with a fixed group size: the lane loop's bound is a
 * constant (a copy of the state machine with the size built in). */
__kernel __attribute__((reqd_work_group_size(24, 1, 1))) void dv_reqd(__global int *out, __global int *trace)
{
  int i = get_global_id(0);
  int limit = (int)(dv_hash(i) % 23) - 3;
  int s = 0, k = 0;
  while (k < limit) {
    k++;
    uint v = dv_hash(i * 31 + k);
    if ((v & 7) == 0)
      continue;
    if ((v & 63) == 5)
      break;
    s += (int)(v % 100);
    trace[i * 20 + k] = s;
  }
  out[i] = s * 32 + k;
}

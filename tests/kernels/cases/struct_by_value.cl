/* Structs and vectors passed by value. */
typedef struct {
  int a;
  float b;
  long c;
  char d;
  short e;
} params;

typedef struct {
  char tag;
  double scale;
  int4 offset;
} nested;

__kernel void struct_by_value(__global float *out, params p, int4 v, nested q, __global double *dout)
{
  size_t i = get_global_id(0);
  out[i] = (float)p.a * (float)i + p.b + (float)p.c + (float)p.d + (float)p.e + (float)v.y;
  dout[i] = q.scale * (double)i + (double)q.offset.w + (double)q.tag;
}

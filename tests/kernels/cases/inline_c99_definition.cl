/* A function defined `inline` without `static` or `extern`: in OpenCL C (C99
 * rules) an inline definition, the only definition of f in the program.  A
 * compiler that declines to inline the call (here: too many builtin calls in
 * the unrolled loop) must still use this body (OpenCV's imgproc/color_lab.cl
 * Lab2BGR_f, cvtColor COLOR_Lab2BGR on float images, is written this way). */
inline float f(float x)
{
  float r = x;
  for (int i = 0; i < 12; i++)
    r = fma(r, x, clamp(r, -1.0f, 1.0f));
  return r;
}

__kernel void inline_c99_definition(__global float *g)
{
  size_t i = get_global_id(0);
  g[i] = f(g[i]);
}

/* native_* and half_* math functions (float, all widths).  Their accuracy is
 * implementation-defined (native_) or 8192 ulp (half_); both map to the
 * full-precision vector code: divide, recip, sqrt, rsqrt are plain vector
 * arithmetic, the transcendental ones math_f32.cl's vector functions, powr
 * through exp2/log2. */

#include "lanecl_builtins.h"

#define DEF_NATIVE(PFX, N, L, K)                                                          \
  OVLD float##N PFX##divide(float##N x, float##N y)                                        \
  {                                                                                        \
    return x / y;                                                                          \
  }                                                                                        \
  OVLD float##N PFX##recip(float##N x)                                                     \
  {                                                                                        \
    return (float##N)1.0f / x;                                                             \
  }                                                                                        \
  OVLD float##N PFX##sqrt(float##N x)                                                      \
  {                                                                                        \
    return __builtin_elementwise_sqrt(x);                                                  \
  }                                                                                        \
  OVLD float##N PFX##rsqrt(float##N x)                                                     \
  {                                                                                        \
    return (float##N)1.0f / __builtin_elementwise_sqrt(x);                                 \
  }                                                                                        \
  OVLD float##N PFX##sin(float##N x)                                                       \
  {                                                                                        \
    return sin(x);                                                   \
  }                                                                                        \
  OVLD float##N PFX##cos(float##N x)                                                       \
  {                                                                                        \
    return cos(x);                                                   \
  }                                                                                        \
  OVLD float##N PFX##tan(float##N x)                                                       \
  {                                                                                        \
    return tan(x);                                                   \
  }                                                                                        \
  OVLD float##N PFX##exp(float##N x)                                                       \
  {                                                                                        \
    return exp(x);                                                   \
  }                                                                                        \
  OVLD float##N PFX##exp2(float##N x)                                                      \
  {                                                                                        \
    return exp2(x);                                                  \
  }                                                                                        \
  OVLD float##N PFX##exp10(float##N x)                                                     \
  {                                                                                        \
    return exp10(x);                                                                       \
  }                                                                                        \
  OVLD float##N PFX##log(float##N x)                                                       \
  {                                                                                        \
    return log(x);                                                   \
  }                                                                                        \
  OVLD float##N PFX##log2(float##N x)                                                      \
  {                                                                                        \
    return log2(x);                                                  \
  }                                                                                        \
  OVLD float##N PFX##log10(float##N x)                                                     \
  {                                                                                        \
    return log10(x);                                                 \
  }                                                                                        \
  OVLD float##N PFX##powr(float##N x, float##N y)                                          \
  {                                                                                        \
    return exp2(y * log2(x));                                                              \
  }

FOR_WIDTHS(DEF_NATIVE, native_)
FOR_WIDTHS(DEF_NATIVE, half_)

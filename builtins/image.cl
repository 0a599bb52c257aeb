/* Image built-in functions (OpenCL C 3.0 section 6.15.15): read_image{f,i,ui,h}
 * with and without a sampler, write_image{f,i,ui,h}, the get_image_* queries,
 * for image1d, image1d_buffer, image1d_array, image2d, image2d_array, image3d,
 * image2d_depth and image2d_array_depth, every access qualifier.
 *
 * An image is a `struct lanecl_image *` (lanecl_image.h), a sampler its CLK_*
 * bits.  OpenCL C cannot convert an image or a sampler value, so two helpers
 * are declared here and never defined: __lanecl_image_desc(image) and
 * __lanecl_sampler_bits(sampler).  The compiler (cc_prepare.c) replaces every
 * call to them by the argument itself, the image/sampler handle being a
 * pointer there.  Everything here is inlined into the kernel.
 *
 * Pixels: row r of slice/layer z at data + z * slice_pitch + r * row_pitch (a
 * 1D array's layers are rows).  Reads decode the channel type (normalized
 * integers divided by their maximum, snorm clamped to -1, half and float as
 * they are, the packed 565/555/101010) and map the channel order onto RGBA
 * (missing color channels 0, missing alpha 1; INTENSITY to all four,
 * LUMINANCE to RGB); sRGB orders convert R, G, B to linear.  Writes do the
 * reverse (round to nearest even, saturate; linear to sRGB).
 *
 * Samplers: nearest: i = floor(u) (u = s * size for normalized coordinates),
 * repeat and mirrored repeat as the spec's formulas; linear: i0 = floor(u -
 * 0.5), i1 = i0 + 1, weight frac(u - 0.5), bilinear over 4 and trilinear over
 * 8 texels.  CLAMP gives the border color outside the image ((0,0,0,1) for
 * orders without alpha, R, RG, RGB, LUMINANCE, else 0); CLAMP_TO_EDGE and
 * NONE (whose result outside the image is undefined) clamp to the edge, so
 * that no access leaves the image.  Integer coordinates take the texel as
 * they are (the sampler must be unnormalized and nearest).  Array layers:
 * rint(coordinate) clamped to the layers.  Samplerless reads and writes
 * outside the image are undefined: reads clamp to the edge, writes are
 * dropped.
 *
 * Lanes: descriptor fields and sampler bits are the same for every
 * work-item, so the branches on them are uniform (constant samplers fold
 * away entirely); the per-pixel code is arithmetic, min/max and selects,
 * and the texel loads index typed rows by x (a constant stride per format).
 * RGBA float, RGBA unorm8, RGBA unorm16/snorm16/half and R float (RGBA
 * uint8, RGBA int16/uint16, R int32 for integer reads), and in the copies R
 * and RG of 8- and 16-bit channels, are tested first, with one compare,
 * before the general dispatch on type, channel count and order.  The dispatch is a switch, which LLVM's loop vectorizer refuses,
 * so the compiler specializes: every overload F is __lanecl_imgk_F with the
 * format as a last argument k (FMT below), and the lane loops of a kernel
 * have a copy per common format where k is a constant and the dispatch
 * folds away (compiler/cc_wg_image.c).  An RGBA unorm8 texel is one 32-bit
 * load or store, an RGBA texel of 16-bit channels two: a vector loop
 * gathers words, and x86 has no byte or 16-bit gathers.
 */

#include "lanecl_builtins.h"
#include "lanecl_image.h"

typedef const __global struct lanecl_image *img_t;

/* The overloads are always inlined: the inliner's cost threshold keeps a
 * read of the general path out of line once a kernel has a few reads (a
 * call per texel, and no vectorization around it), where the common case,
 * a constant sampler and one of the fast formats, is a few instructions.
 * (In the lane loops' general copy, scalar anyway, the compiler calls the
 * general path out of line: compiler/cc_wg_image.c.) */
#define IMG_OVLD __attribute__((overloadable, always_inline))

/* ---- handles (lowered by the compiler) ---- */

#define DECL_DESC(ACC)                                                                     \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image1d_t);                    \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image1d_buffer_t);             \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image1d_array_t);              \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image2d_t);                    \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image2d_array_t);              \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image3d_t);                    \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image2d_depth_t);              \
  img_t OVLD __attribute__((const)) __lanecl_image_desc(ACC image2d_array_depth_t);
DECL_DESC(read_only)
DECL_DESC(write_only)
DECL_DESC(read_write)
uint OVLD __attribute__((const)) __lanecl_sampler_bits(sampler_t);

#define DESC(i) __lanecl_image_desc(i)
#define SMP(s) __lanecl_sampler_bits(s)

/* ---- texels ---- */

/* The image's format, from its descriptor or from k: every helper below
 * takes k, the format as (order << 16 | type) when the compiler knows it
 * (a lane loop specialized for that format, after a check of the
 * descriptor once per work-group; see the overloads), else 0.  With k a
 * constant every dispatch on the format folds away. */
#define FMT(order, type) ((uint)(order) << 16 | (uint)(type))
#define ORDER(im, k) ((k) ? ((k) >> 16) & 0x7fffu : (im)->channel_order)
#define CTYPE(im, k) ((k) ? (k) & 0xffffu : (im)->channel_data_type)
#define NCH(im, k) ((k) ? channels_of(((k) >> 16) & 0x7fffu) : (im)->num_channels)

/* Channels in memory of an order (the runtime's count: the x orders have
 * their padding channel). */
INLINE uint channels_of(uint order)
{
  switch (order) {
  case CLK_RG:
  case CLK_RA:
  case CLK_Rx:
    return 2;
  case CLK_RGB:
  case CLK_RGx:
  case CLK_sRGB:
    return 3;
  case CLK_RGBA:
  case CLK_BGRA:
  case CLK_ARGB:
  case CLK_ABGR:
  case CLK_RGBx:
  case CLK_sRGBA:
  case CLK_sBGRA:
  case CLK_sRGBx:
    return 4;
  default:
    return 1;
  }
}

INLINE __global uchar *row_of(img_t im, int y, int z)
{
  return im->data + (ulong)(uint)z * im->slice_pitch + (ulong)(uint)y * im->row_pitch;
}

/* n channels of type T at pixel x of row, converted by CV to a 4-vector of
 * R (float/int), missing ones 0. */
#define LOADN(T, R, row, x, n)                                                             \
  ((n) == 4   ? convert_##R##4(vload4((x), (__global const T *)(row)))                      \
   : (n) == 1 ? (R##4)(convert_##R(((__global const T *)(row))[(x)]), 0, 0, 0)              \
   : (n) == 2 ? (R##4)(convert_##R##2(vload2((x), (__global const T *)(row))), 0, 0)        \
              : (R##4)(convert_##R##3(vload3((x), (__global const T *)(row))), 0))

/* The channels in memory order, decoded to float. */
INLINE float4 raw_f(img_t im, uint k, __global const uchar *row, int x)
{
  uint n = NCH(im, k);
  switch (CTYPE(im, k)) {
  case CLK_UNORM_INT8:
    return LOADN(uchar, float, row, x, n) / 255.0f;
  case CLK_FLOAT:
    return LOADN(float, float, row, x, n);
  case CLK_UNORM_INT16:
    return LOADN(ushort, float, row, x, n) / 65535.0f;
  case CLK_SNORM_INT8:
    return fmax(LOADN(char, float, row, x, n) / 127.0f, -1.0f);
  case CLK_SNORM_INT16:
    return fmax(LOADN(short, float, row, x, n) / 32767.0f, -1.0f);
  case CLK_HALF_FLOAT:
    return LOADN(half, float, row, x, n);
  case CLK_UNORM_SHORT_565: {
    uint v = ((__global const ushort *)row)[x];
    return (float4)((float)(v >> 11) / 31.0f, (float)((v >> 5) & 63) / 63.0f, (float)(v & 31) / 31.0f, 0.0f);
  }
  case CLK_UNORM_SHORT_555: {
    uint v = ((__global const ushort *)row)[x];
    return (float4)((float)((v >> 10) & 31) / 31.0f, (float)((v >> 5) & 31) / 31.0f, (float)(v & 31) / 31.0f,
                    0.0f);
  }
  case CLK_UNORM_INT_101010: {
    uint v = ((__global const uint *)row)[x];
    return (float4)((float)((v >> 20) & 1023) / 1023.0f, (float)((v >> 10) & 1023) / 1023.0f,
                    (float)(v & 1023) / 1023.0f, 0.0f);
  }
  case CLK_UNORM_INT24: {
    uint v = ((__global const uint *)row)[x];
    return (float4)((float)(v & 0xffffff) / 16777215.0f, 0.0f, 0.0f, 0.0f);
  }
  default: /* integer channels: undefined for read_imagef */
    return 0.0f;
  }
}

/* The channels in memory order, as integers (sign- or zero-extended). */
INLINE int4 raw_i(img_t im, uint k, __global const uchar *row, int x)
{
  uint n = NCH(im, k);
  switch (CTYPE(im, k)) {
  case CLK_UNSIGNED_INT8:
    return LOADN(uchar, int, row, x, n);
  case CLK_SIGNED_INT8:
    return LOADN(char, int, row, x, n);
  case CLK_UNSIGNED_INT16:
    return LOADN(ushort, int, row, x, n);
  case CLK_SIGNED_INT16:
    return LOADN(short, int, row, x, n);
  case CLK_SIGNED_INT32:
    return LOADN(int, int, row, x, n);
  case CLK_UNSIGNED_INT32:
    return as_int4(LOADN(uint, uint, row, x, n));
  default: /* normalized and float channels: undefined for read_image{i,ui} */
    return 0;
  }
}

/* Memory order -> RGBA. */
#define DEF_SWZ(T, ONE)                                                                    \
  INLINE T##4 swz_##T(uint order, T##4 r)                                                  \
  {                                                                                        \
    switch (order) {                                                                       \
    case CLK_R:                                                                            \
    case CLK_Rx:                                                                           \
    case CLK_DEPTH:                                                                        \
      return (T##4)(r.x, 0, 0, ONE);                                                       \
    case CLK_A:                                                                            \
      return (T##4)(0, 0, 0, r.x);                                                         \
    case CLK_RG:                                                                           \
    case CLK_RGx:                                                                          \
      return (T##4)(r.x, r.y, 0, ONE);                                                     \
    case CLK_RA:                                                                           \
      return (T##4)(r.x, 0, 0, r.y);                                                       \
    case CLK_RGB:                                                                          \
    case CLK_RGBx:                                                                         \
    case CLK_sRGB:                                                                         \
    case CLK_sRGBx:                                                                        \
      return (T##4)(r.x, r.y, r.z, ONE);                                                   \
    case CLK_BGRA:                                                                         \
    case CLK_sBGRA:                                                                        \
      return r.zyxw;                                                                       \
    case CLK_ARGB:                                                                         \
      return r.yzwx;                                                                       \
    case CLK_ABGR:                                                                         \
      return r.wzyx;                                                                       \
    case CLK_INTENSITY:                                                                    \
      return r.xxxx;                                                                       \
    case CLK_LUMINANCE:                                                                    \
      return (T##4)(r.x, r.x, r.x, ONE);                                                   \
    default: /* RGBA, sRGBA */                                                             \
      return r;                                                                            \
    }                                                                                      \
  }
DEF_SWZ(float, 1.0f)
DEF_SWZ(int, 1)

INLINE int is_srgb(uint order)
{
  return order == CLK_sRGB || order == CLK_sRGBx || order == CLK_sRGBA || order == CLK_sBGRA;
}

/* sRGB: the linear value of each 8-bit code (sRGB orders are 8-bit only),
 * and for writes the linear value at which code k begins (the midpoint of
 * codes k - 1 and k, k >= 1): a binary search over it rounds to the
 * nearest code exactly, without pow (which would also keep the lane loop
 * from vectorizing). */
__constant float srgb_decode[256] = {
    0.000000000e+00f, 3.035269910e-04f, 6.070539821e-04f, 9.105809731e-04f,
    1.214107964e-03f, 1.517634955e-03f, 1.821161946e-03f, 2.124688821e-03f,
    2.428215928e-03f, 2.731742803e-03f, 3.035269910e-03f, 3.346535843e-03f,
    3.676507389e-03f, 4.024717025e-03f, 4.391442053e-03f, 4.776953254e-03f,
    5.181516521e-03f, 5.605391692e-03f, 6.048833020e-03f, 6.512090564e-03f,
    6.995410193e-03f, 7.499032188e-03f, 8.023193106e-03f, 8.568125777e-03f,
    9.134058841e-03f, 9.721217677e-03f, 1.032982301e-02f, 1.096009370e-02f,
    1.161224488e-02f, 1.228648797e-02f, 1.298303250e-02f, 1.370208338e-02f,
    1.444384363e-02f, 1.520851441e-02f, 1.599629410e-02f, 1.680737548e-02f,
    1.764195412e-02f, 1.850022003e-02f, 1.938236132e-02f, 2.028856240e-02f,
    2.121900953e-02f, 2.217388526e-02f, 2.315336652e-02f, 2.415763214e-02f,
    2.518685907e-02f, 2.624122240e-02f, 2.732089162e-02f, 2.842603996e-02f,
    2.955683507e-02f, 3.071344458e-02f, 3.189603239e-02f, 3.310476616e-02f,
    3.433980793e-02f, 3.560131416e-02f, 3.688944876e-02f, 3.820437193e-02f,
    3.954623640e-02f, 4.091519862e-02f, 4.231141135e-02f, 4.373503104e-02f,
    4.518620297e-02f, 4.666508734e-02f, 4.817182571e-02f, 4.970656708e-02f,
    5.126945674e-02f, 5.286064744e-02f, 5.448027700e-02f, 5.612849072e-02f,
    5.780543014e-02f, 5.951123685e-02f, 6.124605238e-02f, 6.301001459e-02f,
    6.480326504e-02f, 6.662593782e-02f, 6.847816706e-02f, 7.036009431e-02f,
    7.227185369e-02f, 7.421357185e-02f, 7.618538290e-02f, 7.818742096e-02f,
    8.021982014e-02f, 8.228270710e-02f, 8.437620848e-02f, 8.650045842e-02f,
    8.865558356e-02f, 9.084171057e-02f, 9.305896610e-02f, 9.530746937e-02f,
    9.758734703e-02f, 9.989872575e-02f, 1.022417322e-01f, 1.046164855e-01f,
    1.070231050e-01f, 1.094617099e-01f, 1.119324267e-01f, 1.144353747e-01f,
    1.169706658e-01f, 1.195384264e-01f, 1.221387759e-01f, 1.247718185e-01f,
    1.274376810e-01f, 1.301364750e-01f, 1.328683197e-01f, 1.356333345e-01f,
    1.384316087e-01f, 1.412632912e-01f, 1.441284716e-01f, 1.470272690e-01f,
    1.499597877e-01f, 1.529261470e-01f, 1.559264660e-01f, 1.589608341e-01f,
    1.620293707e-01f, 1.651321948e-01f, 1.682693958e-01f, 1.714411080e-01f,
    1.746474057e-01f, 1.778884232e-01f, 1.811642498e-01f, 1.844749898e-01f,
    1.878207773e-01f, 1.912016869e-01f, 1.946178377e-01f, 1.980693191e-01f,
    2.015562505e-01f, 2.050787359e-01f, 2.086368650e-01f, 2.122307569e-01f,
    2.158605009e-01f, 2.195262015e-01f, 2.232279629e-01f, 2.269658744e-01f,
    2.307400554e-01f, 2.345505804e-01f, 2.383975685e-01f, 2.422811240e-01f,
    2.462013215e-01f, 2.501582801e-01f, 2.541520894e-01f, 2.581828535e-01f,
    2.622506618e-01f, 2.663556039e-01f, 2.704977989e-01f, 2.746773064e-01f,
    2.788942754e-01f, 2.831487358e-01f, 2.874408364e-01f, 2.917706370e-01f,
    2.961382568e-01f, 3.005437851e-01f, 3.049873114e-01f, 3.094689250e-01f,
    3.139887154e-01f, 3.185467720e-01f, 3.231432140e-01f, 3.277781010e-01f,
    3.324515224e-01f, 3.371636271e-01f, 3.419144154e-01f, 3.467040658e-01f,
    3.515326083e-01f, 3.564001322e-01f, 3.613067865e-01f, 3.662526011e-01f,
    3.712376952e-01f, 3.762621284e-01f, 3.813260198e-01f, 3.864294291e-01f,
    3.915724754e-01f, 3.967552185e-01f, 4.019777775e-01f, 4.072402120e-01f,
    4.125426114e-01f, 4.178850651e-01f, 4.232676625e-01f, 4.286904931e-01f,
    4.341536462e-01f, 4.396571815e-01f, 4.452011883e-01f, 4.507857859e-01f,
    4.564110339e-01f, 4.620769918e-01f, 4.677838087e-01f, 4.735314846e-01f,
    4.793201685e-01f, 4.851499498e-01f, 4.910208583e-01f, 4.969329834e-01f,
    5.028864741e-01f, 5.088813305e-01f, 5.149176717e-01f, 5.209955573e-01f,
    5.271151066e-01f, 5.332763791e-01f, 5.394794941e-01f, 5.457244515e-01f,
    5.520114303e-01f, 5.583403707e-01f, 5.647115111e-01f, 5.711248517e-01f,
    5.775804520e-01f, 5.840784311e-01f, 5.906188488e-01f, 5.972017646e-01f,
    6.038273573e-01f, 6.104955673e-01f, 6.172065735e-01f, 6.239603758e-01f,
    6.307571530e-01f, 6.375968456e-01f, 6.444796920e-01f, 6.514056325e-01f,
    6.583748460e-01f, 6.653872728e-01f, 6.724431515e-01f, 6.795424819e-01f,
    6.866853237e-01f, 6.938717365e-01f, 7.011018991e-01f, 7.083757520e-01f,
    7.156934738e-01f, 7.230551243e-01f, 7.304607630e-01f, 7.379103899e-01f,
    7.454041839e-01f, 7.529422045e-01f, 7.605245113e-01f, 7.681511641e-01f,
    7.758222222e-01f, 7.835378051e-01f, 7.912979126e-01f, 7.991027236e-01f,
    8.069522381e-01f, 8.148465753e-01f, 8.227857351e-01f, 8.307698965e-01f,
    8.387989998e-01f, 8.468732238e-01f, 8.549926281e-01f, 8.631572127e-01f,
    8.713670969e-01f, 8.796223998e-01f, 8.879231215e-01f, 8.962693810e-01f,
    9.046611786e-01f, 9.130986333e-01f, 9.215818644e-01f, 9.301108718e-01f,
    9.386857152e-01f, 9.473065138e-01f, 9.559733272e-01f, 9.646862745e-01f,
    9.734452963e-01f, 9.822505713e-01f, 9.911020994e-01f, 1.000000000e+00f,
};
__constant float srgb_encode_start[256] = {
    0.000000000e+00f, 1.517634955e-04f, 4.552904866e-04f, 7.588174776e-04f,
    1.062344410e-03f, 1.365871402e-03f, 1.669398393e-03f, 1.972925384e-03f,
    2.276452491e-03f, 2.579979366e-03f, 2.883506240e-03f, 3.188300878e-03f,
    3.509259317e-03f, 3.848314984e-03f, 4.205747973e-03f, 4.581832793e-03f,
    4.976837430e-03f, 5.391024053e-03f, 5.824650638e-03f, 6.277969573e-03f,
    6.751227658e-03f, 7.244668435e-03f, 7.758530322e-03f, 8.293048479e-03f,
    8.848452941e-03f, 9.424970485e-03f, 1.002282556e-02f, 1.064223703e-02f,
    1.128342096e-02f, 1.194659248e-02f, 1.263196021e-02f, 1.333973184e-02f,
    1.407011226e-02f, 1.482330263e-02f, 1.559950318e-02f, 1.639891043e-02f,
    1.722171530e-02f, 1.806811430e-02f, 1.893829368e-02f, 1.983244345e-02f,
    2.075074427e-02f, 2.169338241e-02f, 2.266053855e-02f, 2.365238965e-02f,
    2.466911450e-02f, 2.571088821e-02f, 2.677788213e-02f, 2.787026949e-02f,
    2.898821980e-02f, 3.013190255e-02f, 3.130147979e-02f, 3.249712288e-02f,
    3.371898830e-02f, 3.496724367e-02f, 3.624204546e-02f, 3.754355386e-02f,
    3.887192532e-02f, 4.022732005e-02f, 4.160988703e-02f, 4.301978648e-02f,
    4.445716366e-02f, 4.592217132e-02f, 4.741496220e-02f, 4.893568531e-02f,
    5.048448592e-02f, 5.206150562e-02f, 5.366689712e-02f, 5.530080199e-02f,
    5.696336180e-02f, 5.865471810e-02f, 6.037501246e-02f, 6.212438270e-02f,
    6.390297413e-02f, 6.571091712e-02f, 6.754834950e-02f, 6.941541284e-02f,
    7.131223381e-02f, 7.323895395e-02f, 7.519570738e-02f, 7.718261331e-02f,
    7.919982076e-02f, 8.124744147e-02f, 8.332562447e-02f, 8.543448895e-02f,
    8.757415414e-02f, 8.974476904e-02f, 9.194643795e-02f, 9.417930245e-02f,
    9.644347429e-02f, 9.873909503e-02f, 1.010662690e-01f, 1.034251302e-01f,
    1.058158055e-01f, 1.082383990e-01f, 1.106930450e-01f, 1.131798625e-01f,
    1.156989709e-01f, 1.182504818e-01f, 1.208345219e-01f, 1.234512031e-01f,
    1.261006445e-01f, 1.287829578e-01f, 1.314982623e-01f, 1.342466772e-01f,
    1.370283067e-01f, 1.398432702e-01f, 1.426916867e-01f, 1.455736607e-01f,
    1.484893113e-01f, 1.514387280e-01f, 1.544220597e-01f, 1.574393809e-01f,
    1.604908258e-01f, 1.635764986e-01f, 1.666964889e-01f, 1.698509306e-01f,
    1.730399132e-01f, 1.762635708e-01f, 1.795219779e-01f, 1.828152537e-01f,
    1.861435026e-01f, 1.895068288e-01f, 1.929053515e-01f, 1.963391453e-01f,
    1.998083442e-01f, 2.033130378e-01f, 2.068533450e-01f, 2.104293406e-01f,
    2.140411437e-01f, 2.176888436e-01f, 2.213725597e-01f, 2.250923961e-01f,
    2.288484275e-01f, 2.326407582e-01f, 2.364695072e-01f, 2.403347790e-01f,
    2.442366332e-01f, 2.481752038e-01f, 2.521505654e-01f, 2.561628520e-01f,
    2.602121234e-01f, 2.642984688e-01f, 2.684220374e-01f, 2.725828886e-01f,
    2.767811120e-01f, 2.810167968e-01f, 2.852900922e-01f, 2.896010280e-01f,
    2.939497232e-01f, 2.983362973e-01f, 3.027608097e-01f, 3.072233498e-01f,
    3.117240369e-01f, 3.162629604e-01f, 3.208401799e-01f, 3.254558444e-01f,
    3.301099837e-01f, 3.348027468e-01f, 3.395341635e-01f, 3.443043828e-01f,
    3.491134644e-01f, 3.539614975e-01f, 3.588485718e-01f, 3.637747765e-01f,
    3.687402308e-01f, 3.737449646e-01f, 3.787891269e-01f, 3.838727772e-01f,
    3.889960051e-01f, 3.941588998e-01f, 3.993615210e-01f, 4.046040177e-01f,
    4.098864198e-01f, 4.152088165e-01f, 4.205713570e-01f, 4.259740412e-01f,
    4.314170182e-01f, 4.369003475e-01f, 4.424241185e-01f, 4.479884207e-01f,
    4.535933137e-01f, 4.592389166e-01f, 4.649252892e-01f, 4.706525207e-01f,
    4.764207006e-01f, 4.822299182e-01f, 4.880802333e-01f, 4.939717650e-01f,
    4.999045432e-01f, 5.058786869e-01f, 5.118942857e-01f, 5.179514289e-01f,
    5.240501165e-01f, 5.301905274e-01f, 5.363727212e-01f, 5.425967574e-01f,
    5.488626957e-01f, 5.551706553e-01f, 5.615206957e-01f, 5.679128766e-01f,
    5.743473172e-01f, 5.808241367e-01f, 5.873433352e-01f, 5.939049721e-01f,
    6.005092263e-01f, 6.071560979e-01f, 6.138457060e-01f, 6.205781102e-01f,
    6.273533702e-01f, 6.341716051e-01f, 6.410328746e-01f, 6.479372382e-01f,
    6.548848152e-01f, 6.618756652e-01f, 6.689097881e-01f, 6.759873629e-01f,
    6.831084490e-01f, 6.902731061e-01f, 6.974813342e-01f, 7.047333717e-01f,
    7.120291591e-01f, 7.193688154e-01f, 7.267524600e-01f, 7.341800332e-01f,
    7.416517735e-01f, 7.491676807e-01f, 7.567278147e-01f, 7.643322945e-01f,
    7.719811201e-01f, 7.796744108e-01f, 7.874122858e-01f, 7.951947451e-01f,
    8.030219078e-01f, 8.108938336e-01f, 8.188105226e-01f, 8.267722130e-01f,
    8.347787857e-01f, 8.428304791e-01f, 8.509272933e-01f, 8.590692282e-01f,
    8.672565222e-01f, 8.754890561e-01f, 8.837670684e-01f, 8.920905590e-01f,
    9.004595876e-01f, 9.088742137e-01f, 9.173345566e-01f, 9.258406162e-01f,
    9.343925714e-01f, 9.429903626e-01f, 9.516341686e-01f, 9.603240490e-01f,
    9.690600038e-01f, 9.778421521e-01f, 9.866705537e-01f, 9.955452681e-01f,
};

INLINE float srgb_to_linear(float c)
{
  return srgb_decode[(int)(c * 255.0f + 0.5f)];
}

/* The 8-bit code of linear c (NaN and below 0: 0; 1 and above: 255). */
INLINE uint linear_to_srgb_code(float c)
{
  uint k = 0;
  for (uint step = 128; step; step >>= 1)
    k = c >= srgb_encode_start[k + step] ? k + step : k;
  return k;
}

/* The common formats first: one compare of (order, type) instead of the
 * three dispatches of the general path. */
INLINE uint fmt_of(img_t im, uint k)
{
  return k ? k : FMT(im->channel_order, im->channel_data_type);
}

/* For the 8-bit RGBA and BGRA path: BGRA, from f, or from the descriptor
 * when f is "either" (a select on a value that is the same for every
 * work-item: the lane loop stays one). */
INLINE int is_bgra8(img_t im, uint f)
{
  return f == LANECL_IMG_FMT_RGBA8_OR_BGRA8 ? im->channel_order == CLK_BGRA : f == FMT(CLK_BGRA, CLK_UNORM_INT8);
}

/* The 16-bit path of float reads and writes: order o (RGBA, R or RG) of
 * unorm16, snorm16 or half, in the lane loop's copies only (k a constant,
 * so this folds): the general path (k = 0) converts these formats as the
 * others, and is not made longer by one more path. */
INLINE int is_f16(uint k, uint o)
{
  return k == (0x80000000u | FMT(o, CLK_UNORM_INT16)) || k == FMT(o, CLK_UNORM_INT16) ||
         k == FMT(o, CLK_SNORM_INT16) || k == FMT(o, CLK_HALF_FLOAT);
}

INLINE int is_rgba16(uint k)
{
  return is_f16(k, CLK_RGBA);
}

/* Its channel type: from f, or from the descriptor when f is one of the
 * LANECL_IMG_FMT_*16_FLOAT (the same for every work-item: the conversions
 * select on it, and the lane loop stays one). */
INLINE uint rgba16_type(img_t im, uint f)
{
  return f >> 31 ? im->channel_data_type : f & 0xffffu;
}

/* The floats of half bits h (zero-extended), as the conversion from half
 * gives them (a NaN quieted), by integer operations: with several reads in
 * a lane loop, the loop vectorizer's cost of a vector conversion from half
 * (scalarized on x86 without AVX512-FP16) made it pick 4 lanes instead of
 * 16. */
INLINE float4 half_bits_to_float(uint4 h)
{
  uint4 s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  uint4 normal = s | ((e + 112u) << 23) | (m << 13);
  uint4 special = s | 0x7f800000u | (m << 13) | (as_uint4(m != 0u) & 0x400000u);
  uint4 sub = s | as_uint4(convert_float4(m) * 0x1p-24f);
  return as_float4(e == 0u ? sub : e == 31u ? special : normal);
}

/* 16-bit channels (zero-extended) of type t16 (unorm16, snorm16, half) to
 * float: the general path's conversions, selected by the type; ih: half by
 * half_bits_to_float. */
INLINE float4 dec16(uint t16, uint4 u, int ih)
{
  int sn = t16 == CLK_SNORM_INT16;
  float4 n = fmax(convert_float4(sn ? as_int4(u << 16) >> 16 : as_int4(u)) / (sn ? 32767.0f : 65535.0f), -1.0f);
  float4 h = ih ? half_bits_to_float(u) : convert_float4(as_half4(convert_ushort4(u)));
  return t16 == CLK_HALF_FLOAT ? h : n;
}

/* And back, rounded and saturated as the general path does (low 16 bits). */
INLINE uint4 enc16(uint t16, float4 c)
{
  uint4 h = convert_uint4(as_ushort4(convert_half4_rte(c)));
  uint4 n = t16 == CLK_SNORM_INT16 ? as_uint4(convert_int4(convert_short4_sat_rte(fmax(c * 32767.0f, -32767.0f))))
                                   : convert_uint4(convert_ushort4_sat_rte(c * 65535.0f));
  return t16 == CLK_HALF_FLOAT ? h : n;
}

/* ---- R and RG texels of 8- and 16-bit channels, in the copies ----
 * One load or store of the texel's 1, 2 or 4 bytes, typed by its size:
 * x86 has no gathers of bytes or halves, so the loop vectorizer scalarizes
 * a read of 1 or 2 bytes, and the compiler's access rewrite
 * (cc_wg_affine.c, which the copies of these formats ask for) makes it a
 * gather again, a plain vector load where W lanes read W neighbouring
 * texels.  These formats' k: R or RG of unorm8, int8, uint8, unorm16
 * (snorm16, half: LANECL_IMG_FMT_R16_FLOAT, _RG16_FLOAT), int16, uint16. */

/* Channels of a small format k (1 or 2), 0 when k is none. */
INLINE uint small_nch(uint k)
{
  uint o = (k >> 16) & 0x7fffu, t = k & 0xffffu;
  if (!k || (o != CLK_R && o != CLK_RG))
    return 0;
  if (k >> 31)
    return t == CLK_UNORM_INT16 ? (o == CLK_RG ? 2 : 1) : 0;
  switch (t) {
  case CLK_UNORM_INT8:
  case CLK_SIGNED_INT8:
  case CLK_UNSIGNED_INT8:
  case CLK_UNORM_INT16:
  case CLK_SNORM_INT16:
  case CLK_HALF_FLOAT:
  case CLK_SIGNED_INT16:
  case CLK_UNSIGNED_INT16:
    return o == CLK_RG ? 2 : 1;
  default:
    return 0;
  }
}

/* Bits of a channel of small format k: 8 or 16. */
INLINE uint small_bits(uint k)
{
  uint t = k & 0xffffu;
  return t == CLK_UNORM_INT8 || t == CLK_SIGNED_INT8 || t == CLK_UNSIGNED_INT8 ? 8 : 16;
}

/* The nch channels of bits each at pixel x of row, zero-extended (the
 * others 0). */
INLINE uint4 load_small(__global const uchar *row, int x, uint nch, uint bits)
{
  uint bytes = nch * bits / 8;
  uint w = bytes == 1 ? row[x] : bytes == 2 ? ((__global const ushort *)row)[x] : ((__global const uint *)row)[x];
  uint m = bits == 8 ? 0xffu : 0xffffu;
  return (uint4)(w & m, nch == 2 ? (w >> bits) & m : 0u, 0u, 0u);
}

/* And the reverse: one store of the texel's bytes. */
INLINE void store_small(__global uchar *row, int x, uint nch, uint bits, uint4 v)
{
  uint bytes = nch * bits / 8, m = bits == 8 ? 0xffu : 0xffffu;
  uint w = (v.x & m) | (nch == 2 ? (v.y & m) << bits : 0u);
  if (bytes == 1)
    row[x] = (uchar)w;
  else if (bytes == 2)
    ((__global ushort *)row)[x] = (ushort)w;
  else
    ((__global uint *)row)[x] = w;
}

/* An RGBA texel of 16-bit channels: two 32-bit loads (a pixel is 8-byte
 * aligned), where 4 16-bit loads would be 4 gathers x86 does not have
 * (and 64-bit ones would halve the lane loop's width); the channels
 * zero-extended. */
INLINE uint4 load16x4(__global const uchar *row, int x)
{
  __global const uint *p = (__global const uint *)row + 2 * (long)x;
  uint lo = p[0], hi = p[1];
  return (uint4)(lo, lo >> 16, hi, hi >> 16) & 0xffffu;
}

/* And two 32-bit stores of the low 16 bits of each channel. */
INLINE void store16x4(__global uchar *row, int x, uint4 v)
{
  __global uint *p = (__global uint *)row + 2 * (long)x;
  v &= 0xffffu;
  p[0] = v.x | v.y << 16;
  p[1] = v.z | v.w << 16;
}

/* The texel at (x, y, z), inside the image, as RGBA. */
INLINE float4 fetch_f(img_t im, uint k, int x, int y, int z)
{
  uint order = ORDER(im, k), f = fmt_of(im, k);
  __global const uchar *row = row_of(im, y, z);
  if (f == FMT(CLK_RGBA, CLK_FLOAT))
    return vload4(x, (__global const float *)row);
  if (f == FMT(CLK_RGBA, CLK_UNORM_INT8) || f == FMT(CLK_BGRA, CLK_UNORM_INT8) || f == LANECL_IMG_FMT_RGBA8_OR_BGRA8) {
    /* One 32-bit load (a pixel is 4-byte aligned): the lane loop gathers
     * words, where 4 byte loads would be 4 gathers x86 does not have. */
    uint p = ((__global const uint *)row)[x];
    float4 c = convert_float4((uint4)(p, p >> 8, p >> 16, p >> 24) & 0xffu) / 255.0f;
    return is_bgra8(im, f) ? c.zyxw : c;
  }
  if (f == FMT(CLK_R, CLK_FLOAT))
    return (float4)(((__global const float *)row)[x], 0.0f, 0.0f, 1.0f);
  if (is_rgba16(k))
    return dec16(rgba16_type(im, f), load16x4(row, x), 0);
  uint sn = small_nch(k);
  if (sn) {
    uint t = rgba16_type(im, f), bits = small_bits(k);
    uint4 u = load_small(row, x, sn, bits);
    float4 c = bits == 8 ? convert_float4(u) / 255.0f : dec16(t, u, 1);
    return (float4)(c.x, sn == 2 ? c.y : 0.0f, 0.0f, 1.0f);
  }
  float4 c = swz_float(order, raw_f(im, k, row, x));
  if (is_srgb(order))
    c = (float4)(srgb_to_linear(c.x), srgb_to_linear(c.y), srgb_to_linear(c.z), c.w);
  return c;
}

INLINE int4 fetch_i(img_t im, uint k, int x, int y, int z)
{
  uint f = fmt_of(im, k);
  __global const uchar *row = row_of(im, y, z);
  if (f == FMT(CLK_RGBA, CLK_UNSIGNED_INT8))
    return convert_int4(vload4(x, row));
  if (f == FMT(CLK_R, CLK_SIGNED_INT32) || f == FMT(CLK_R, CLK_UNSIGNED_INT32))
    return (int4)(((__global const int *)row)[x], 0, 0, 1);
  /* RGBA int16, uint16: in the copies only (see is_rgba16) */
  if (k == FMT(CLK_RGBA, CLK_SIGNED_INT16))
    return as_int4(load16x4(row, x) << 16) >> 16;
  if (k == FMT(CLK_RGBA, CLK_UNSIGNED_INT16))
    return as_int4(load16x4(row, x));
  uint sn = small_nch(k);
  if (sn) {
    uint bits = small_bits(k), t = k & 0xffffu;
    int4 c = as_int4(load_small(row, x, sn, bits));
    if (t == CLK_SIGNED_INT8)
      c = c << 24 >> 24;
    else if (t == CLK_SIGNED_INT16)
      c = c << 16 >> 16;
    return (int4)(c.x, sn == 2 ? c.y : 0, 0, 1);
  }
  return swz_int(ORDER(im, k), raw_i(im, k, row, x));
}

/* The border color of CLAMP. */
INLINE float4 border_f(img_t im, uint k)
{
  uint o = ORDER(im, k);
  float a = o == CLK_R || o == CLK_RG || o == CLK_RGB || o == CLK_LUMINANCE || o == CLK_sRGB ? 1.0f : 0.0f;
  return (float4)(0.0f, 0.0f, 0.0f, a);
}

INLINE int4 border_i(img_t im, uint k)
{
  uint o = ORDER(im, k);
  int a = o == CLK_R || o == CLK_RG || o == CLK_RGB || o == CLK_LUMINANCE || o == CLK_sRGB ? 1 : 0;
  return (int4)(0, 0, 0, a);
}

/* ---- addressing ---- */

#define ADDR(s) ((s) & LANECL_SAMPLER_ADDRESS_MASK)
#define IS_LINEAR(s) (((s) & LANECL_SAMPLER_FILTER_MASK) == LANECL_SAMPLER_FILTER_LINEAR)
#define IS_NORM(s) ((s) & LANECL_SAMPLER_NORMALIZED)

/* Coordinate u on an axis of n texels -> texel position (unclamped), for
 * nearest filtering.  The result lies in [-1, n]. */
INLINE int nearest_index(float u, int n, uint s)
{
  float fn = (float)n, x;
  uint am = ADDR(s);
  if (am == LANECL_SAMPLER_ADDRESS_REPEAT) {
    x = (u - floor(u)) * fn;
  } else if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    float m = fabs(u - 2.0f * rint(0.5f * u));
    x = m * fn;
  } else {
    x = IS_NORM(s) ? u * fn : u;
  }
  x = fmin(fmax(floor(x), -1.0f), fn); /* NaN -> -1 */
  int i = (int)x;
  if (am == LANECL_SAMPLER_ADDRESS_REPEAT)
    i = i > n - 1 ? i - n : i;
  else if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT)
    i = min(i, n - 1);
  return i;
}

/* For linear filtering: the two texel positions (unclamped, in [-2, n + 1])
 * and the weight of the second. */
INLINE int linear_index(float u, int n, uint s, int *i1, float *w)
{
  float fn = (float)n, x;
  uint am = ADDR(s);
  if (am == LANECL_SAMPLER_ADDRESS_REPEAT) {
    x = (u - floor(u)) * fn;
  } else if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    float m = fabs(u - 2.0f * rint(0.5f * u));
    x = m * fn;
  } else {
    x = IS_NORM(s) ? u * fn : u;
  }
  x = fmin(fmax(x, -1.0f), fn + 1.0f) - 0.5f; /* NaN -> -1.5 */
  float f = floor(x);
  *w = x - f;
  int i0 = (int)f, j = i0 + 1;
  if (am == LANECL_SAMPLER_ADDRESS_REPEAT) {
    i0 = i0 < 0 ? i0 + n : i0;
    j = j > n - 1 ? j - n : j;
  } else if (am == LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    i0 = max(i0, 0);
    j = min(j, n - 1);
  }
  *i1 = j;
  return i0;
}

INLINE int outside(int i, int n)
{
  return (uint)i >= (uint)n;
}

INLINE int edge(int i, int n)
{
  return clamp(i, 0, n - 1);
}

INLINE int layer_of_f(img_t im, float c)
{
  float l = fmin(fmax(rint(c), 0.0f), (float)im->array_size - 1.0f); /* NaN -> 0 */
  return (int)l;
}

INLINE int layer_of_i(img_t im, int c)
{
  return clamp(c, 0, (int)im->array_size - 1);
}

/* One texel of a sampled read: border outside for CLAMP, else the edge. */
INLINE float4 texel_f(img_t im, uint k, uint s, int x, int y, int z, int dims, int layer)
{
  int w = im->width, h = im->height, d = im->depth;
  int out = outside(x, w);
  x = edge(x, w);
  if (dims >= 2) {
    out |= outside(y, h);
    y = edge(y, h);
  }
  if (dims == 3) {
    out |= outside(z, d);
    z = edge(z, d);
  }
  if (dims == 1)
    y = layer;
  else if (dims == 2)
    z = layer;
  float4 t = fetch_f(im, k, x, y, z);
  return ADDR(s) == LANECL_SAMPLER_ADDRESS_CLAMP && out ? border_f(im, k) : t;
}

INLINE int4 texel_i(img_t im, uint k, uint s, int x, int y, int z, int dims, int layer)
{
  int w = im->width, h = im->height, d = im->depth;
  int out = outside(x, w);
  x = edge(x, w);
  if (dims >= 2) {
    out |= outside(y, h);
    y = edge(y, h);
  }
  if (dims == 3) {
    out |= outside(z, d);
    z = edge(z, d);
  }
  if (dims == 1)
    y = layer;
  else if (dims == 2)
    z = layer;
  int4 t = fetch_i(im, k, x, y, z);
  return ADDR(s) == LANECL_SAMPLER_ADDRESS_CLAMP && out ? border_i(im, k) : t;
}

/* Sampled read at float coordinates (u, v, w); dims filtered axes, the
 * layer (arrays) already resolved. */
INLINE float4 sample_f(img_t im, uint k, uint s, float u, float v, float t, int dims, int layer)
{
  if (!IS_LINEAR(s)) {
    int x = nearest_index(u, im->width, s);
    int y = dims >= 2 ? nearest_index(v, im->height, s) : 0;
    int z = dims == 3 ? nearest_index(t, im->depth, s) : 0;
    return texel_f(im, k, s, x, y, z, dims, layer);
  }
  int x1, y1 = 0, z1 = 0;
  float a, b = 0.0f, c = 0.0f;
  int x0 = linear_index(u, im->width, s, &x1, &a);
  if (dims == 1)
    return (1.0f - a) * texel_f(im, k, s, x0, 0, 0, 1, layer) + a * texel_f(im, k, s, x1, 0, 0, 1, layer);
  int y0 = linear_index(v, im->height, s, &y1, &b);
  float4 r0 = (1.0f - a) * (1.0f - b) * texel_f(im, k, s, x0, y0, 0, dims, layer) +
              a * (1.0f - b) * texel_f(im, k, s, x1, y0, 0, dims, layer) +
              (1.0f - a) * b * texel_f(im, k, s, x0, y1, 0, dims, layer) +
              a * b * texel_f(im, k, s, x1, y1, 0, dims, layer);
  if (dims == 2)
    return r0;
  int z0 = linear_index(t, im->depth, s, &z1, &c);
  float4 p0 = (1.0f - a) * (1.0f - b) * (1.0f - c) * texel_f(im, k, s, x0, y0, z0, 3, 0) +
              a * (1.0f - b) * (1.0f - c) * texel_f(im, k, s, x1, y0, z0, 3, 0) +
              (1.0f - a) * b * (1.0f - c) * texel_f(im, k, s, x0, y1, z0, 3, 0) +
              a * b * (1.0f - c) * texel_f(im, k, s, x1, y1, z0, 3, 0);
  float4 p1 = (1.0f - a) * (1.0f - b) * c * texel_f(im, k, s, x0, y0, z1, 3, 0) +
              a * (1.0f - b) * c * texel_f(im, k, s, x1, y0, z1, 3, 0) +
              (1.0f - a) * b * c * texel_f(im, k, s, x0, y1, z1, 3, 0) +
              a * b * c * texel_f(im, k, s, x1, y1, z1, 3, 0);
  return p0 + p1;
}

INLINE int4 sample_i(img_t im, uint k, uint s, float u, float v, float t, int dims, int layer)
{
  int x = nearest_index(u, im->width, s);
  int y = dims >= 2 ? nearest_index(v, im->height, s) : 0;
  int z = dims == 3 ? nearest_index(t, im->depth, s) : 0;
  return texel_i(im, k, s, x, y, z, dims, layer);
}

/* Samplerless: the texel, coordinates clamped to the image. */
INLINE float4 load_f(img_t im, uint k, int x, int y, int z, int dims)
{
  x = edge(x, im->width);
  y = dims >= 2 ? edge(y, im->height) : y;
  z = dims == 3 ? edge(z, im->depth) : z;
  return fetch_f(im, k, x, y, z);
}

INLINE int4 load_i(img_t im, uint k, int x, int y, int z, int dims)
{
  x = edge(x, im->width);
  y = dims >= 2 ? edge(y, im->height) : y;
  z = dims == 3 ? edge(z, im->depth) : z;
  return fetch_i(im, k, x, y, z);
}

/* ---- writes ---- */

#define STOREN(T, v, row, x, n)                                                            \
  do {                                                                                     \
    if ((n) == 4)                                                                          \
      vstore4((v), (x), (__global T *)(row));                                              \
    else if ((n) == 1)                                                                     \
      ((__global T *)(row))[(x)] = (v).x;                                                  \
    else if ((n) == 2)                                                                     \
      vstore2((v).xy, (x), (__global T *)(row));                                           \
    else                                                                                   \
      vstore3((v).xyz, (x), (__global T *)(row));                                          \
  } while (0)

/* RGBA -> memory order. */
#define DEF_UNSWZ(T)                                                                       \
  INLINE T##4 unswz_##T(uint order, T##4 c)                                                \
  {                                                                                        \
    switch (order) {                                                                       \
    case CLK_A:                                                                            \
      return c.wwww;                                                                       \
    case CLK_RA:                                                                           \
      return c.xwzw;                                                                       \
    case CLK_BGRA:                                                                         \
    case CLK_sBGRA:                                                                        \
      return c.zyxw;                                                                       \
    case CLK_ARGB:                                                                         \
      return c.wxyz;                                                                       \
    case CLK_ABGR:                                                                         \
      return c.wzyx;                                                                       \
    default:                                                                               \
      return c;                                                                            \
    }                                                                                      \
  }
DEF_UNSWZ(float)
DEF_UNSWZ(int)

INLINE int write_outside(img_t im, int x, int y, int z, int dims)
{
  int out = outside(x, im->width);
  if (dims >= 2)
    out |= outside(y, im->height);
  if (dims == 3)
    out |= outside(z, im->depth);
  return out;
}

INLINE void store_f(img_t im, uint k, int x, int y, int z, int dims, float4 c)
{
  if (write_outside(im, x, y, z, dims))
    return;
  __global uchar *row = row_of(im, y, z);
  uint order = ORDER(im, k), n = NCH(im, k), f = fmt_of(im, k);
  if (f == FMT(CLK_RGBA, CLK_FLOAT)) {
    vstore4(c, x, (__global float *)row);
    return;
  }
  if (f == FMT(CLK_RGBA, CLK_UNORM_INT8) || f == FMT(CLK_BGRA, CLK_UNORM_INT8) || f == LANECL_IMG_FMT_RGBA8_OR_BGRA8) {
    c = is_bgra8(im, f) ? c.zyxw : c;
    uint4 q = convert_uint4(convert_uchar4_sat_rte(c * 255.0f));
    ((__global uint *)row)[x] = q.x | q.y << 8 | q.z << 16 | q.w << 24; /* one word, as for reads */
    return;
  }
  if (f == FMT(CLK_R, CLK_FLOAT)) {
    ((__global float *)row)[x] = c.x;
    return;
  }
  if (is_rgba16(k)) {
    store16x4(row, x, enc16(rgba16_type(im, f), c));
    return;
  }
  uint sn = small_nch(k);
  if (sn) {
    uint bits = small_bits(k);
    uint4 v = bits == 8 ? convert_uint4(convert_uchar4_sat_rte(c * 255.0f)) : enc16(rgba16_type(im, f), c);
    store_small(row, x, sn, bits, v);
    return;
  }
  if (is_srgb(order)) {
    /* 8-bit only: the codes directly. */
    uchar4 v = (uchar4)((uchar)linear_to_srgb_code(c.x), (uchar)linear_to_srgb_code(c.y),
                        (uchar)linear_to_srgb_code(c.z), convert_uchar_sat_rte(c.w * 255.0f));
    v = order == CLK_sBGRA ? v.zyxw : v;
    STOREN(uchar, v, row, x, n);
    return;
  }
  float4 m = unswz_float(order, c);
  switch (CTYPE(im, k)) {
  case CLK_UNORM_INT8: {
    uchar4 v = convert_uchar4_sat_rte(m * 255.0f);
    STOREN(uchar, v, row, x, n);
    break;
  }
  case CLK_FLOAT:
    STOREN(float, m, row, x, n);
    break;
  case CLK_UNORM_INT16: {
    ushort4 v = convert_ushort4_sat_rte(m * 65535.0f);
    STOREN(ushort, v, row, x, n);
    break;
  }
  case CLK_SNORM_INT8: {
    char4 v = convert_char4_sat_rte(fmax(m * 127.0f, -127.0f));
    STOREN(char, v, row, x, n);
    break;
  }
  case CLK_SNORM_INT16: {
    short4 v = convert_short4_sat_rte(fmax(m * 32767.0f, -32767.0f));
    STOREN(short, v, row, x, n);
    break;
  }
  case CLK_HALF_FLOAT: {
    half4 v = convert_half4_rte(m);
    STOREN(half, v, row, x, n);
    break;
  }
  case CLK_UNORM_SHORT_565: {
    uint4 v = convert_uint4_sat_rte(m * (float4)(31.0f, 63.0f, 31.0f, 0.0f));
    ((__global ushort *)row)[x] = (ushort)(min(v.x, 31u) << 11 | min(v.y, 63u) << 5 | min(v.z, 31u));
    break;
  }
  case CLK_UNORM_SHORT_555: {
    uint4 v = min(convert_uint4_sat_rte(m * 31.0f), 31u);
    ((__global ushort *)row)[x] = (ushort)(v.x << 10 | v.y << 5 | v.z);
    break;
  }
  case CLK_UNORM_INT_101010: {
    uint4 v = min(convert_uint4_sat_rte(m * 1023.0f), 1023u);
    ((__global uint *)row)[x] = v.x << 20 | v.y << 10 | v.z;
    break;
  }
  case CLK_UNORM_INT24: {
    uint v = min(convert_uint_sat_rte(m.x * 16777215.0f), 16777215u);
    ((__global uint *)row)[x] = v;
    break;
  }
  default:
    break;
  }
}

/* write_imagei (sign = 1) and write_imageui (sign = 0): saturate to the
 * channel type. */
INLINE void store_i(img_t im, uint k, int x, int y, int z, int dims, int4 c, int sign)
{
  if (write_outside(im, x, y, z, dims))
    return;
  __global uchar *row = row_of(im, y, z);
  uint n = NCH(im, k);
  int4 m = unswz_int(ORDER(im, k), c);
  uint4 u = as_uint4(m);
  /* RGBA int16, uint16: in the copies only (see is_rgba16) */
  if (k == FMT(CLK_RGBA, CLK_SIGNED_INT16)) {
    store16x4(row, x, as_uint4(convert_int4(sign ? convert_short4_sat(m) : convert_short4_sat(u))));
    return;
  }
  if (k == FMT(CLK_RGBA, CLK_UNSIGNED_INT16)) {
    store16x4(row, x, convert_uint4(sign ? convert_ushort4_sat(m) : convert_ushort4_sat(u)));
    return;
  }
  uint sn = small_nch(k);
  if (sn) {
    uint t = k & 0xffffu;
    uint4 v = t == CLK_SIGNED_INT8      ? as_uint4(convert_int4(sign ? convert_char4_sat(m) : convert_char4_sat(u)))
              : t == CLK_UNSIGNED_INT8  ? convert_uint4(sign ? convert_uchar4_sat(m) : convert_uchar4_sat(u))
              : t == CLK_SIGNED_INT16   ? as_uint4(convert_int4(sign ? convert_short4_sat(m) : convert_short4_sat(u)))
                                        : convert_uint4(sign ? convert_ushort4_sat(m) : convert_ushort4_sat(u));
    store_small(row, x, sn, small_bits(k), v);
    return;
  }
  switch (CTYPE(im, k)) {
  case CLK_SIGNED_INT8: {
    char4 v = sign ? convert_char4_sat(m) : convert_char4_sat(u);
    STOREN(char, v, row, x, n);
    break;
  }
  case CLK_UNSIGNED_INT8: {
    uchar4 v = sign ? convert_uchar4_sat(m) : convert_uchar4_sat(u);
    STOREN(uchar, v, row, x, n);
    break;
  }
  case CLK_SIGNED_INT16: {
    short4 v = sign ? convert_short4_sat(m) : convert_short4_sat(u);
    STOREN(short, v, row, x, n);
    break;
  }
  case CLK_UNSIGNED_INT16: {
    ushort4 v = sign ? convert_ushort4_sat(m) : convert_ushort4_sat(u);
    STOREN(ushort, v, row, x, n);
    break;
  }
  case CLK_SIGNED_INT32: {
    int4 v = sign ? m : convert_int4_sat(u);
    STOREN(int, v, row, x, n);
    break;
  }
  case CLK_UNSIGNED_INT32: {
    uint4 v = sign ? convert_uint4_sat(m) : u;
    STOREN(uint, v, row, x, n);
    break;
  }
  default:
    break;
  }
}

/* ---- the overloads ----
 * Per image type: COORD_x(c) gives x, y, z of integer coordinates (the layer
 * of an array in the row (1D) or slice (2D) position); DIMS the filtered
 * axes; ARR whether it is an array. */

#define IMG1D image1d_t, int, float, 1, 0, c, 0, 0
#define IMG1DB image1d_buffer_t, int, float, 1, 0, c, 0, 0
#define IMG1DA image1d_array_t, int2, float2, 1, 1, c.x, c.y, 0
#define IMG2D image2d_t, int2, float2, 2, 0, c.x, c.y, 0
#define IMG2DA image2d_array_t, int4, float4, 2, 1, c.x, c.y, c.z
#define IMG3D image3d_t, int4, float4, 3, 0, c.x, c.y, c.z
#define IMG2DD image2d_depth_t, int2, float2, 2, 0, c.x, c.y, 0
#define IMG2DAD image2d_array_depth_t, int4, float4, 2, 1, c.x, c.y, c.z

/* Arguments of a sampled read: layer and float/int coordinates. */
#define LAYER_F(ARR, DIMS, cy, cz) ((ARR) ? layer_of_f(im, (DIMS) == 1 ? (float)(cy) : (float)(cz)) : 0)
#define LAYER_I(ARR, DIMS, cy, cz) ((ARR) ? layer_of_i(im, (DIMS) == 1 ? (int)(cy) : (int)(cz)) : 0)

/* Each read and write overload F is defined as __lanecl_imgk_F, the same
 * parameters and k last (see FMT), and F calls it with k = 0.  The compiler
 * (compiler/cc_wg_image.c) calls __lanecl_imgk_F itself in the lane loops it
 * specializes for a format: the mangled name of __lanecl_imgk_F is F's with
 * the identifier prefixed and a `j` (uint) appended. */
#define IMGK(F) __lanecl_imgk_##F
#define DEF_PLAIN(R, F, PARAMS, ARGS)                                                      \
  IMG_OVLD R F PARAMS                                                                      \
  {                                                                                        \
    return IMGK(F) ARGS;                                                                   \
  }

/* Sampled reads (read_only images only). */
#define DEF_SAMPLED(IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                                   \
  IMG_OVLD float4 IMGK(read_imagef)(read_only IT img, sampler_t smp, FCT c, uint k)        \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return sample_f(im, k, SMP(smp), (float)(cx), (float)(cy), (float)(cz), DIMS,          \
                    LAYER_F(ARR, DIMS, cy, cz));                                           \
  }                                                                                        \
  IMG_OVLD float4 IMGK(read_imagef)(read_only IT img, sampler_t smp, ICT c, uint k)        \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return texel_f(im, k, SMP(smp), cx, (DIMS) >= 2 ? (int)(cy) : 0, (DIMS) == 3 ? (int)(cz) : 0, \
                   DIMS, LAYER_I(ARR, DIMS, cy, cz));                                      \
  }                                                                                        \
  IMG_OVLD int4 IMGK(read_imagei)(read_only IT img, sampler_t smp, FCT c, uint k)          \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return sample_i(im, k, SMP(smp), (float)(cx), (float)(cy), (float)(cz), DIMS,          \
                    LAYER_F(ARR, DIMS, cy, cz));                                           \
  }                                                                                        \
  IMG_OVLD int4 IMGK(read_imagei)(read_only IT img, sampler_t smp, ICT c, uint k)          \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return texel_i(im, k, SMP(smp), cx, (DIMS) >= 2 ? (int)(cy) : 0, (DIMS) == 3 ? (int)(cz) : 0, \
                   DIMS, LAYER_I(ARR, DIMS, cy, cz));                                      \
  }                                                                                        \
  IMG_OVLD uint4 IMGK(read_imageui)(read_only IT img, sampler_t smp, FCT c, uint k)        \
  {                                                                                        \
    return as_uint4(IMGK(read_imagei)(img, smp, c, k));                                    \
  }                                                                                        \
  IMG_OVLD uint4 IMGK(read_imageui)(read_only IT img, sampler_t smp, ICT c, uint k)        \
  {                                                                                        \
    return as_uint4(IMGK(read_imagei)(img, smp, c, k));                                    \
  }                                                                                        \
  IMG_OVLD half4 IMGK(read_imageh)(read_only IT img, sampler_t smp, FCT c, uint k)         \
  {                                                                                        \
    return convert_half4(IMGK(read_imagef)(img, smp, c, k));                               \
  }                                                                                        \
  IMG_OVLD half4 IMGK(read_imageh)(read_only IT img, sampler_t smp, ICT c, uint k)         \
  {                                                                                        \
    return convert_half4(IMGK(read_imagef)(img, smp, c, k));                               \
  }                                                                                        \
  DEF_PLAIN(float4, read_imagef, (read_only IT img, sampler_t smp, FCT c), (img, smp, c, 0u)) \
  DEF_PLAIN(float4, read_imagef, (read_only IT img, sampler_t smp, ICT c), (img, smp, c, 0u)) \
  DEF_PLAIN(int4, read_imagei, (read_only IT img, sampler_t smp, FCT c), (img, smp, c, 0u)) \
  DEF_PLAIN(int4, read_imagei, (read_only IT img, sampler_t smp, ICT c), (img, smp, c, 0u)) \
  DEF_PLAIN(uint4, read_imageui, (read_only IT img, sampler_t smp, FCT c), (img, smp, c, 0u)) \
  DEF_PLAIN(uint4, read_imageui, (read_only IT img, sampler_t smp, ICT c), (img, smp, c, 0u)) \
  DEF_PLAIN(half4, read_imageh, (read_only IT img, sampler_t smp, FCT c), (img, smp, c, 0u)) \
  DEF_PLAIN(half4, read_imageh, (read_only IT img, sampler_t smp, ICT c), (img, smp, c, 0u))

#define DEF_SAMPLED_DEPTH(IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                             \
  IMG_OVLD float IMGK(read_imagef)(read_only IT img, sampler_t smp, FCT c, uint k)         \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return sample_f(im, k, SMP(smp), (float)(cx), (float)(cy), (float)(cz), DIMS,          \
                    LAYER_F(ARR, DIMS, cy, cz))                                            \
        .x;                                                                                \
  }                                                                                        \
  IMG_OVLD float IMGK(read_imagef)(read_only IT img, sampler_t smp, ICT c, uint k)         \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return texel_f(im, k, SMP(smp), cx, (int)(cy), 0, DIMS, LAYER_I(ARR, DIMS, cy, cz)).x; \
  }                                                                                        \
  DEF_PLAIN(float, read_imagef, (read_only IT img, sampler_t smp, FCT c), (img, smp, c, 0u)) \
  DEF_PLAIN(float, read_imagef, (read_only IT img, sampler_t smp, ICT c), (img, smp, c, 0u))

/* Samplerless reads (read_only and read_write). */
#define DEF_LOAD(ACC, IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                                 \
  IMG_OVLD float4 IMGK(read_imagef)(ACC IT img, ICT c, uint k)                             \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return load_f(im, k, cx, (DIMS) == 1 && (ARR) ? layer_of_i(im, (int)(cy)) : (int)(cy), \
                  (DIMS) == 2 && (ARR) ? layer_of_i(im, (int)(cz)) : (int)(cz), DIMS);     \
  }                                                                                        \
  IMG_OVLD int4 IMGK(read_imagei)(ACC IT img, ICT c, uint k)                               \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return load_i(im, k, cx, (DIMS) == 1 && (ARR) ? layer_of_i(im, (int)(cy)) : (int)(cy), \
                  (DIMS) == 2 && (ARR) ? layer_of_i(im, (int)(cz)) : (int)(cz), DIMS);     \
  }                                                                                        \
  IMG_OVLD uint4 IMGK(read_imageui)(ACC IT img, ICT c, uint k)                             \
  {                                                                                        \
    return as_uint4(IMGK(read_imagei)(img, c, k));                                         \
  }                                                                                        \
  IMG_OVLD half4 IMGK(read_imageh)(ACC IT img, ICT c, uint k)                              \
  {                                                                                        \
    return convert_half4(IMGK(read_imagef)(img, c, k));                                    \
  }                                                                                        \
  DEF_PLAIN(float4, read_imagef, (ACC IT img, ICT c), (img, c, 0u))                        \
  DEF_PLAIN(int4, read_imagei, (ACC IT img, ICT c), (img, c, 0u))                          \
  DEF_PLAIN(uint4, read_imageui, (ACC IT img, ICT c), (img, c, 0u))                        \
  DEF_PLAIN(half4, read_imageh, (ACC IT img, ICT c), (img, c, 0u))

#define DEF_LOAD_DEPTH(ACC, IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                           \
  IMG_OVLD float IMGK(read_imagef)(ACC IT img, ICT c, uint k)                              \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return load_f(im, k, cx, (int)(cy), (ARR) ? layer_of_i(im, (int)(cz)) : 0, DIMS).x;    \
  }                                                                                        \
  DEF_PLAIN(float, read_imagef, (ACC IT img, ICT c), (img, c, 0u))

/* Writes (write_only and read_write).  The layer of an array outside the
 * array drops the write, as any coordinate outside. */
#define WDIMS(DIMS, ARR) ((ARR) ? (DIMS) + 1 : (DIMS))
#define WOUT(ACC, DIMS, ARR, cy, cz)                                                       \
  ((ARR) && (DIMS) == 1 ? outside((int)(cy), (int)im->array_size)                         \
   : (ARR)              ? outside((int)(cz), (int)im->array_size)                         \
                        : 0)
#define DEF_WRITE(ACC, IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                                \
  IMG_OVLD void IMGK(write_imagef)(ACC IT img, ICT c, float4 v, uint k)                    \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    if (WOUT(ACC, DIMS, ARR, cy, cz))                                                      \
      return;                                                                              \
    store_f(im, k, cx, (int)(cy), (int)(cz), DIMS, v);                                     \
  }                                                                                        \
  IMG_OVLD void IMGK(write_imagei)(ACC IT img, ICT c, int4 v, uint k)                      \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    if (WOUT(ACC, DIMS, ARR, cy, cz))                                                      \
      return;                                                                              \
    store_i(im, k, cx, (int)(cy), (int)(cz), DIMS, v, 1);                                  \
  }                                                                                        \
  IMG_OVLD void IMGK(write_imageui)(ACC IT img, ICT c, uint4 v, uint k)                    \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    if (WOUT(ACC, DIMS, ARR, cy, cz))                                                      \
      return;                                                                              \
    store_i(im, k, cx, (int)(cy), (int)(cz), DIMS, as_int4(v), 0);                         \
  }                                                                                        \
  IMG_OVLD void IMGK(write_imageh)(ACC IT img, ICT c, half4 v, uint k)                     \
  {                                                                                        \
    IMGK(write_imagef)(img, c, convert_float4(v), k);                                      \
  }                                                                                        \
  DEF_PLAIN(void, write_imagef, (ACC IT img, ICT c, float4 v), (img, c, v, 0u))            \
  DEF_PLAIN(void, write_imagei, (ACC IT img, ICT c, int4 v), (img, c, v, 0u))              \
  DEF_PLAIN(void, write_imageui, (ACC IT img, ICT c, uint4 v), (img, c, v, 0u))            \
  DEF_PLAIN(void, write_imageh, (ACC IT img, ICT c, half4 v), (img, c, v, 0u))

#define DEF_WRITE_DEPTH(ACC, IT, ICT, FCT, DIMS, ARR, cx, cy, cz)                          \
  IMG_OVLD void IMGK(write_imagef)(ACC IT img, ICT c, float v, uint k)                     \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    if (WOUT(ACC, DIMS, ARR, cy, cz))                                                      \
      return;                                                                              \
    store_f(im, k, cx, (int)(cy), (int)(cz), DIMS, (float4)(v, 0.0f, 0.0f, 1.0f));         \
  }                                                                                        \
  DEF_PLAIN(void, write_imagef, (ACC IT img, ICT c, float v), (img, c, v, 0u))

/* Queries. */
#define DEF_Q_ALL(ACC, IT, ...)                                                            \
  IMG_OVLD int get_image_width(ACC IT img)                                                     \
  {                                                                                        \
    return (int)DESC(img)->width;                                                          \
  }                                                                                        \
  IMG_OVLD int get_image_channel_data_type(ACC IT img)                                         \
  {                                                                                        \
    return (int)DESC(img)->channel_data_type;                                              \
  }                                                                                        \
  IMG_OVLD int get_image_channel_order(ACC IT img)                                             \
  {                                                                                        \
    return (int)DESC(img)->channel_order;                                                  \
  }
#define DEF_Q_2D(ACC, IT, ...)                                                             \
  IMG_OVLD int get_image_height(ACC IT img)                                                    \
  {                                                                                        \
    return (int)DESC(img)->height;                                                         \
  }                                                                                        \
  IMG_OVLD int2 get_image_dim(ACC IT img)                                                      \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return (int2)((int)im->width, (int)im->height);                                        \
  }
#define DEF_Q_ARR(ACC, IT, ...)                                                            \
  IMG_OVLD size_t get_image_array_size(ACC IT img)                                             \
  {                                                                                        \
    return DESC(img)->array_size;                                                          \
  }
#define DEF_Q_3D(ACC, IT, ...)                                                             \
  IMG_OVLD int get_image_height(ACC IT img)                                                    \
  {                                                                                        \
    return (int)DESC(img)->height;                                                         \
  }                                                                                        \
  IMG_OVLD int get_image_depth(ACC IT img)                                                     \
  {                                                                                        \
    return (int)DESC(img)->depth;                                                          \
  }                                                                                        \
  IMG_OVLD int4 get_image_dim(ACC IT img)                                                      \
  {                                                                                        \
    img_t im = DESC(img);                                                                  \
    return (int4)((int)im->width, (int)im->height, (int)im->depth, 0);                     \
  }

#define APPLY(F, ...) F(__VA_ARGS__)

/* Color images. */
#define FOR_COLOR(F, ACC)                                                                  \
  APPLY(F, ACC, IMG1D) APPLY(F, ACC, IMG1DB) APPLY(F, ACC, IMG1DA) APPLY(F, ACC, IMG2D)   \
  APPLY(F, ACC, IMG2DA) APPLY(F, ACC, IMG3D)
#define FOR_DEPTH(F, ACC) APPLY(F, ACC, IMG2DD) APPLY(F, ACC, IMG2DAD)
#define NOACC(F, ACC, ...) F(__VA_ARGS__)

APPLY(DEF_SAMPLED, IMG1D)
APPLY(DEF_SAMPLED, IMG1DA)
APPLY(DEF_SAMPLED, IMG2D)
APPLY(DEF_SAMPLED, IMG2DA)
APPLY(DEF_SAMPLED, IMG3D)
APPLY(DEF_SAMPLED_DEPTH, IMG2DD)
APPLY(DEF_SAMPLED_DEPTH, IMG2DAD)

FOR_COLOR(DEF_LOAD, read_only)
FOR_COLOR(DEF_LOAD, read_write)
FOR_DEPTH(DEF_LOAD_DEPTH, read_only)
FOR_DEPTH(DEF_LOAD_DEPTH, read_write)

FOR_COLOR(DEF_WRITE, write_only)
FOR_COLOR(DEF_WRITE, read_write)
FOR_DEPTH(DEF_WRITE_DEPTH, write_only)
FOR_DEPTH(DEF_WRITE_DEPTH, read_write)

#define FOR_ACC(F, IT) F(read_only, IT) F(write_only, IT) F(read_write, IT)
#define Q_ALL(ACC, IT) DEF_Q_ALL(ACC, IT)
#define Q_2D(ACC, IT) DEF_Q_2D(ACC, IT)
#define Q_ARR(ACC, IT) DEF_Q_ARR(ACC, IT)
#define Q_3D(ACC, IT) DEF_Q_3D(ACC, IT)
FOR_ACC(Q_ALL, image1d_t)
FOR_ACC(Q_ALL, image1d_buffer_t)
FOR_ACC(Q_ALL, image1d_array_t)
FOR_ACC(Q_ALL, image2d_t)
FOR_ACC(Q_ALL, image2d_array_t)
FOR_ACC(Q_ALL, image3d_t)
FOR_ACC(Q_ALL, image2d_depth_t)
FOR_ACC(Q_ALL, image2d_array_depth_t)
FOR_ACC(Q_2D, image2d_t)
FOR_ACC(Q_2D, image2d_array_t)
FOR_ACC(Q_2D, image2d_depth_t)
FOR_ACC(Q_2D, image2d_array_depth_t)
FOR_ACC(Q_3D, image3d_t)
FOR_ACC(Q_ARR, image1d_array_t)
FOR_ACC(Q_ARR, image2d_array_t)
FOR_ACC(Q_ARR, image2d_array_depth_t)

/* The image and sampler ABI between the runtime and the builtins library.
 *
 * This header is read by both sides: by the runtime as C, and by the OpenCL C
 * builtins (image.cl) as OpenCL C.  Change it on both sides together.
 *
 * Image kernel argument: every image type (image1d_t ... image3d_t,
 * image1d_buffer_t, the array and depth types, any access qualifier) is passed
 * to a kernel as a pointer to one `struct lanecl_image`, owned by the image's
 * memory object and alive as long as that object.  The pixels are row-major:
 * pixel (x, y, z) of an image, or (x, y) of layer z of an array, starts at
 * data + z * slice_pitch + y * row_pitch + x * elem_size.  A 1D array's
 * layers are rows: layer y at data + y * row_pitch, and the runtime sets the
 * descriptor's row_pitch to the layers' pitch (the API's image_slice_pitch).
 *
 * Sampler kernel argument: a sampler (a sampler_t argument or a sampler_t
 * constant of the program) is passed as a pointer-sized integer whose low bits
 * are the OpenCL C sampler encoding: LANECL_SAMPLER_NORMALIZED (bit 0), the
 * addressing mode (LANECL_SAMPLER_ADDRESS_MASK: 0 none, 2 clamp-to-edge,
 * 4 clamp, 6 repeat, 8 mirrored repeat) and the filter
 * (LANECL_SAMPLER_FILTER_MASK: 0x10 nearest, 0x20 linear), the values of
 * clang's CLK_* macros.  The runtime turns a cl_sampler into these bits.
 */
#ifndef LANECL_IMAGE_H
#define LANECL_IMAGE_H

#define LANECL_SAMPLER_NORMALIZED 0x1u
#define LANECL_SAMPLER_ADDRESS_MASK 0xeu
#define LANECL_SAMPLER_ADDRESS_NONE 0x0u
#define LANECL_SAMPLER_ADDRESS_CLAMP_TO_EDGE 0x2u
#define LANECL_SAMPLER_ADDRESS_CLAMP 0x4u
#define LANECL_SAMPLER_ADDRESS_REPEAT 0x6u
#define LANECL_SAMPLER_ADDRESS_MIRRORED_REPEAT 0x8u
#define LANECL_SAMPLER_FILTER_MASK 0x30u
#define LANECL_SAMPLER_FILTER_NEAREST 0x10u
#define LANECL_SAMPLER_FILTER_LINEAR 0x20u

/* The format argument k of the builtins' __lanecl_imgk_* (image.cl), where
 * the compiler knows the format: channel order << 16 | channel type; and
 * some that no channel order has (bit 31): "RGBA or BGRA, unorm8" (the order
 * read from the descriptor, a swizzle) and "RGBA (R, RG), unorm16, snorm16
 * or half" (the type read from the descriptor, a select between the
 * conversions). */
#define LANECL_IMG_FMT_RGBA8_OR_BGRA8 0x90B510D2u
#define LANECL_IMG_FMT_RGBA16_FLOAT 0x90B510D3u
#define LANECL_IMG_FMT_R16_FLOAT 0x90B010D3u
#define LANECL_IMG_FMT_RG16_FLOAT 0x90B210D3u

#ifdef __OPENCL_C_VERSION__
typedef __global uchar *lanecl_image_data;
typedef ulong lanecl_u64;
typedef uint lanecl_u32;
#else
#include <stdint.h>
typedef unsigned char *lanecl_image_data;
typedef uint64_t lanecl_u64;
typedef uint32_t lanecl_u32;
#endif

struct lanecl_image {
  lanecl_image_data data;       /* pixel (0, 0, 0) */
  lanecl_u64 row_pitch;         /* bytes between rows */
  lanecl_u64 slice_pitch;       /* bytes between slices or layers (0 for 1D, 2D) */
  lanecl_u32 width;             /* in pixels */
  lanecl_u32 height;            /* 1 for 1D images and 1D arrays */
  lanecl_u32 depth;             /* 1 except for 3D images */
  lanecl_u32 array_size;        /* layers of an array image, else 1 */
  lanecl_u32 image_type;        /* CL_MEM_OBJECT_IMAGE* */
  lanecl_u32 channel_order;     /* CL_R, CL_RGBA, ... (cl_channel_order) */
  lanecl_u32 channel_data_type; /* CL_UNORM_INT8, CL_FLOAT, ... (cl_channel_type) */
  lanecl_u32 elem_size;         /* bytes per pixel */
  lanecl_u32 num_channels;      /* 1 to 4 */
  lanecl_u32 num_mip_levels;    /* 0 */
  lanecl_u32 num_samples;       /* 0 */
  lanecl_u32 reserved;
};

#endif

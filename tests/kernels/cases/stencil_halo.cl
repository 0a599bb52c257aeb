/* A 2D stencil staged in local memory (halo cells loaded by the edge
 * work-items, clamped indexing), the shape cc_wg_affine.c rewrites after
 * vectorization: the clamped centre load becomes a vector load where no
 * lane's clamp bites (the clamps here bite inside the image too: x is
 * clamped to [3, w - 4], y to [1, h - 2]), the `lx == 0` / `lx == nx - 1`
 * halo loads and stores become loops over the lanes that are on, and the
 * masked clamped load under `lx % 2 == 1` a masked vector load.  The tile
 * holds groups up to 24 x 16; the .sim files run odd and non-uniform
 * sizes. */
#define TW 26
#define TH 18
/* x clamped in 64 bits: no sign extension after the clamp (whose no-wrap
 * test would catch a clamp that bites as well). */
#define AT(xx, yy) in[(long)clamp(yy, 1, h - 2) * w + clamp((long)(xx), 3L, (long)w - 4)]

__kernel void stencil_halo(__global const int *in, __global int *out, int w, int h)
{
  __local int tile[TH][TW];
  int x = get_global_id(0), y = get_global_id(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  int nx = get_local_size(0), ny = get_local_size(1);
  tile[ly + 1][lx + 1] = AT(x, y);
  if (lx == 0 || lx == nx - 1) { /* both ends in one vector: two lanes on */
    tile[ly + 1][lx == 0 ? 0 : nx + 1] = AT(x + (lx == 0 ? -1 : 1), y);
    if (nx == 1)
      tile[ly + 1][2] = AT(x + 1, y);
  }
  if (ly == 0)
    tile[0][lx + 1] = AT(x, y - 1);
  if (ly == ny - 1)
    tile[ny + 1][lx + 1] = AT(x, y + 1);
  int odd = 0;
  if (lx % 2 == 1)
    odd = in[min(x + 2, w - 1) + w * y];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[y * w + x] = 4 * tile[ly + 1][lx + 1] + tile[ly + 1][lx] + tile[ly + 1][lx + 2] + tile[ly][lx + 1] +
                   tile[ly + 2][lx + 1] + 100000 * odd;
}

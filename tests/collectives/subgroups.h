/* Shared by the sub-group tests (test_subgroups.c, test_subgroup_ext.c): the
 * sub-group size asked of the runtime, a work-item's sub-group computed in C
 * from its ids and its group's actual size, and the shapes tested. */
#ifndef LANECL_TEST_SUBGROUPS_H
#define LANECL_TEST_SUBGROUPS_H

#include <limits.h>
#include <math.h>

#include <CL/cl_ext.h>

#include "tests/testlib.h"

#define CL_OPTS "-cl-std=CL3.0"

static size_t lane_width(void)
{
  size_t m = 0;
  ASSERT_OK(clGetDeviceInfo(tl_device(), CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(m), &m, NULL));
  return m;
}

static size_t sub_group_size(cl_kernel k)
{
  size_t local = 4096, s = 0;
  ASSERT_OK(clGetKernelSubGroupInfo(k, tl_device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local), &local,
                                    sizeof(s), &s, NULL));
  return s;
}

typedef struct {
  cl_uint dim;
  size_t global[3], local[3];
} geom;

/* A work-item's sub-group from its local ids and its group's actual size. */
typedef struct {
  size_t sg_id, sg_lid, sg_size, num, first; /* first: linear local id of the sub-group's lane 0 */
} sg_pos;

static size_t actual(const geom *G, size_t grp, int d)
{
  size_t left = G->global[d] - grp * G->local[d];
  return left < G->local[d] ? left : G->local[d];
}

static sg_pos position(const geom *G, const size_t gid[3], size_t S)
{
  size_t grp[3], lid[3], ls[3];
  for (int d = 0; d < 3; d++) {
    size_t gl = d < (int)G->dim ? G->local[d] : 1;
    grp[d] = gid[d] / gl;
    lid[d] = gid[d] % gl;
    ls[d] = d < (int)G->dim ? actual(G, grp[d], d) : 1;
  }
  size_t per_row = (ls[0] + S - 1) / S;
  sg_pos p;
  p.sg_lid = lid[0] % S;
  p.sg_id = (lid[2] * ls[1] + lid[1]) * per_row + lid[0] / S;
  size_t start = lid[0] - p.sg_lid;
  p.sg_size = ls[0] - start < S ? ls[0] - start : S;
  p.num = per_row * ls[1] * ls[2];
  p.first = (lid[2] * ls[1] + lid[1]) * ls[0] + start;
  return p;
}

static size_t total(const geom *G)
{
  size_t n = 1;
  for (cl_uint d = 0; d < G->dim; d++)
    n *= G->global[d];
  return n;
}

static void gid_of(const geom *G, size_t i, size_t gid[3])
{
  gid[0] = i % G->global[0];
  gid[1] = G->dim > 1 ? i / G->global[0] % G->global[1] : 0;
  gid[2] = G->dim > 2 ? i / (G->global[0] * G->global[1]) : 0;
}

/* The global index of the work-item with linear local id l in the group of gid. */
static size_t global_of_local(const geom *G, const size_t gid[3], size_t l)
{
  size_t grp[3], ls[3], o[3];
  for (int d = 0; d < 3; d++) {
    size_t gl = d < (int)G->dim ? G->local[d] : 1;
    grp[d] = gid[d] / gl;
    ls[d] = d < (int)G->dim ? actual(G, grp[d], d) : 1;
  }
  o[0] = l % ls[0];
  o[1] = l / ls[0] % ls[1];
  o[2] = l / (ls[0] * ls[1]);
  size_t g[3];
  for (int d = 0; d < 3; d++)
    g[d] = grp[d] * (d < (int)G->dim ? G->local[d] : 1) + o[d];
  return g[0] + G->global[0] * (g[1] + (G->dim > 1 ? G->global[1] : 1) * g[2]);
}

/* The shapes: 1D sizes around multiples of S, 2D and 3D rows that are and
 * are not whole sub-groups, non-uniform NDRanges. */
static int shapes(size_t S, geom *out)
{
  int n = 0;
  size_t l1[] = {1, 3, S / 2, S, S + 5, 2 * S, 3 * S - 1, 64, 100};
  for (size_t i = 0; i < sizeof(l1) / sizeof(l1[0]); i++)
    out[n++] = (geom){1, {l1[i] * 7, 1, 1}, {l1[i], 1, 1}};
  out[n++] = (geom){1, {1000, 1, 1}, {S * 3, 1, 1}};     /* non-uniform: a smaller last group */
  out[n++] = (geom){1, {250, 1, 1}, {S + 1, 1, 1}};
  out[n++] = (geom){2, {10, 9, 1}, {5, 3, 1}};
  out[n++] = (geom){2, {4 * S, 4, 1}, {2 * S, 2, 1}};
  out[n++] = (geom){2, {(S + 3) * 2, 6, 1}, {S + 3, 3, 1}};
  out[n++] = (geom){3, {S + 2, 4, 6}, {S + 2, 2, 3}};
  out[n++] = (geom){2, {S * 2 + 7, 5, 1}, {S, 2, 1}};    /* non-uniform in x and y */
  return n;
}


static const char *ids_src =
    "kernel void ids(global uint *o) {\n"
    "  size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));\n"
    "  o[6 * i + 0] = get_sub_group_size();\n"
    "  o[6 * i + 1] = get_max_sub_group_size();\n"
    "  o[6 * i + 2] = get_num_sub_groups();\n"
    "  o[6 * i + 3] = get_enqueued_num_sub_groups();\n"
    "  o[6 * i + 4] = get_sub_group_id();\n"
    "  o[6 * i + 5] = get_sub_group_local_id();\n"
    "}\n";

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}


#endif

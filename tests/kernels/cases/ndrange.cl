/* Ids in 2D and 3D ranges with offsets. */
__kernel void ids_2d(__global int *gid, __global int *lid)
{
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  size_t i = y * get_global_size(0) + x;
  gid[i] = (int)(get_global_id(0) * 100 + get_global_id(1));
  lid[i] = (int)(get_local_id(0) * 1000 + get_local_id(1) * 100 + get_group_id(0) * 10 + get_group_id(1));
}

__kernel void ids_3d(__global int *gid, __global int *lid)
{
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1),
         z = get_global_id(2) - get_global_offset(2);
  size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
  gid[i] = (int)(get_global_id(0) * 10000 + get_global_id(1) * 100 + get_global_id(2));
  lid[i] = (int)(get_local_id(0) * 100 + get_local_id(1) * 10 + get_local_id(2) +
                 1000 * (get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2))));
}

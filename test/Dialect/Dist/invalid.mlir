// RUN: paracc-opt %s -split-input-file -verify-diagnostics

// One case per constraint of the dist dialect: each named check of
// DistDialect.cpp (the case is named after it), the parse errors of the
// attributes, and the ODS constraints of the ops. `mesh_names_sizes_match`
// has no case: the assembly parses every axis with its size, so only C++
// builders can break it.

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

// mesh_axis_unique
// expected-error @+1 {{mesh axis names must be unique, got 'tp' twice}}
module attributes {test.mesh = #dist.mesh<[tp = 2, dp = 2, tp = 4]>} {}

// -----

// mesh_axis_nonempty
// expected-error @+1 {{mesh axis names must be non-empty}}
module attributes {test.mesh = #dist.mesh<["" = 2]>} {}

// -----

// mesh_axis_positive
// expected-error @+1 {{mesh axis 'tp' must have a positive size, got 0}}
module attributes {test.mesh = #dist.mesh<[dp = 2, tp = 0]>} {}

// -----

// mesh_axis_positive (negative)
// expected-error @+1 {{mesh axis 'dp' must have a positive size, got -2}}
module attributes {test.mesh = #dist.mesh<[dp = -2]>} {}

// -----

// mesh_parse_size: an axis without a size.
// expected-error @+1 {{expected '='}}
module attributes {test.mesh = #dist.mesh<[dp, tp = 2]>} {}

//===----------------------------------------------------------------------===//
// ShardingAttr
//===----------------------------------------------------------------------===//

// -----

// sharding_axis_unique: one axis splitting two dims.
// expected-error @+1 {{sharding uses mesh axis 'tp' more than once}}
module attributes {test.sharding = #dist.sharding<{tp}, {}, {tp}>} {}

// -----

// sharding_axis_unique: twice in one dim.
// expected-error @+1 {{sharding uses mesh axis 'dp' more than once}}
module attributes {test.sharding = #dist.sharding<{dp, tp, dp}>} {}

// -----

// sharding_axis_unique: a split axis cannot also be partial.
// expected-error @+1 {{sharding uses mesh axis 'tp' more than once}}
module attributes {test.sharding = #dist.sharding<{}, {tp}, partial = [tp]>} {}

// -----

// sharding_axis_unique: twice in the partial axes.
// expected-error @+1 {{sharding uses mesh axis 'dp' more than once}}
module attributes {test.sharding = #dist.sharding<partial = [dp, dp]>} {}

// -----

// sharding_parse_open: `?` is a whole dim, not one of its axes.
// expected-error @+1 {{expected '}'}}
module attributes {test.sharding = #dist.sharding<{?, tp}>} {}

// -----

// sharding_parse_partial_last: the partial axes come after every dim.
// expected-error @+1 {{expected '>'}}
module attributes {test.sharding = #dist.sharding<partial = [tp], {dp}>} {}

//===----------------------------------------------------------------------===//
// Groups: every collective, local_shard and axis_index
//===----------------------------------------------------------------------===//

// -----

// collective_needs_mesh
func.func @collective_needs_mesh(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.all_reduce' op requires a 'dist.mesh' attribute on an enclosing op}}
  %0 = dist.all_reduce %x over ["tp"] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// collective_needs_mesh: a mesh under another name does not count.
module attributes {test.mesh = #dist.mesh<[tp = 2]>} {
func.func @collective_needs_mesh_name() -> tensor<i64> {
  // expected-error @+1 {{'dist.axis_index' op requires a 'dist.mesh' attribute on an enclosing op}}
  %0 = dist.axis_index over ["tp"] : tensor<i64>
  return %0 : tensor<i64>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
func.func @group_axis_exists(%x: tensor<4x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'dist.all_gather' op names mesh axis 'sp' that the mesh does not have}}
  %0 = dist.all_gather %x over ["dp", "sp"] dim = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
func.func @group_axis_unique(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dist.all_reduce' op names mesh axis 'tp' twice}}
  %0 = dist.all_reduce %x over ["tp", "dp", "tp"] : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @group_axis_exists_axis_index() -> tensor<i64> {
  // expected-error @+1 {{'dist.axis_index' op names mesh axis 'dp' that the mesh does not have}}
  %0 = dist.axis_index over ["dp"] : tensor<i64>
  return %0 : tensor<i64>
}
}

//===----------------------------------------------------------------------===//
// all_reduce
//===----------------------------------------------------------------------===//

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @all_reduce_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.all_reduce' op requires kind "sum" or "max", got "min"}}
  %0 = dist.all_reduce %x over ["tp"] {kind = "min"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @ods_all_reduce_same_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'dist.all_reduce' op failed to verify that all of {x, result} have same type}}
  %0 = "dist.all_reduce"(%x) <{axes = ["tp"], kind = "sum"}> : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @ods_static_shape(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'dist.all_reduce' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 16-bit unsigned integer or 32-bit unsigned integer or 64-bit unsigned integer values, but got 'tensor<?x4xf32>'}}
  %0 = dist.all_reduce %x over ["tp"] : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
}

//===----------------------------------------------------------------------===//
// all_gather, reduce_scatter, all_to_all
//===----------------------------------------------------------------------===//

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @collective_dim_in_range(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'dist.all_gather' op requires dim in [0, 2), got 2}}
  %0 = dist.all_gather %x over ["tp"] dim = 2 : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @collective_dim_in_range_negative(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'dist.reduce_scatter' op requires dim in [0, 2), got -1}}
  %0 = dist.reduce_scatter %x over ["tp"] dim = -1 : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @collective_dim_in_range_split_dim(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'dist.all_to_all' op requires split_dim in [0, 2), got 2}}
  %0 = dist.all_to_all %x over ["tp"] split_dim = 2 concat_dim = 0 : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @collective_dim_in_range_concat_dim(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'dist.all_to_all' op requires concat_dim in [0, 2), got 5}}
  %0 = dist.all_to_all %x over ["tp"] split_dim = 1 concat_dim = 5 : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 4]>} {
func.func @collective_dim_divisible(%x: tensor<4x6xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'dist.reduce_scatter' op requires dim 1 of size 6 to divide over 4 ranks}}
  %0 = dist.reduce_scatter %x over ["tp"] dim = 1 : tensor<4x6xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}
}

// -----

// The group size is the product of the axes: 2 x 3 does not divide 4.
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 3]>} {
func.func @collective_dim_divisible_all_to_all(%x: tensor<4x6xf32>) -> tensor<24x1xf32> {
  // expected-error @+1 {{'dist.all_to_all' op requires dim 0 of size 4 to divide over 6 ranks}}
  %0 = dist.all_to_all %x over ["dp", "tp"] split_dim = 0 concat_dim = 1 : tensor<4x6xf32> -> tensor<24x1xf32>
  return %0 : tensor<24x1xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
func.func @collective_result_shape(%x: tensor<4x6xf32>) -> tensor<4x12xf32> {
  // expected-error @+1 {{'dist.all_gather' op expected result type 'tensor<4x24xf32>', got 'tensor<4x12xf32>'}}
  %0 = dist.all_gather %x over ["dp", "tp"] dim = 1 : tensor<4x6xf32> -> tensor<4x12xf32>
  return %0 : tensor<4x12xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @collective_result_shape_element_type(%x: tensor<4x6xf32>) -> tensor<4x12xf16> {
  // expected-error @+1 {{'dist.all_gather' op expected result type 'tensor<4x12xf32>', got 'tensor<4x12xf16>'}}
  %0 = dist.all_gather %x over ["tp"] dim = 1 : tensor<4x6xf32> -> tensor<4x12xf16>
  return %0 : tensor<4x12xf16>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @collective_result_shape_reduce_scatter(%x: tensor<4x6xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'dist.reduce_scatter' op expected result type 'tensor<4x3xf32>', got 'tensor<2x6xf32>'}}
  %0 = dist.reduce_scatter %x over ["tp"] dim = 1 : tensor<4x6xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @collective_result_shape_all_to_all(%x: tensor<4x6xf32>) -> tensor<2x12xf32> {
  // expected-error @+1 {{'dist.all_to_all' op expected result type 'tensor<8x3xf32>', got 'tensor<2x12xf32>'}}
  %0 = dist.all_to_all %x over ["tp"] split_dim = 1 concat_dim = 0 : tensor<4x6xf32> -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}
}

//===----------------------------------------------------------------------===//
// broadcast
//===----------------------------------------------------------------------===//

// -----

func.func @collective_needs_mesh_broadcast(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.broadcast' op requires a 'dist.mesh' attribute on an enclosing op}}
  %0 = dist.broadcast %x over ["tp"] root = 0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
func.func @group_axis_exists_broadcast(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.broadcast' op names mesh axis 'pp' that the mesh does not have}}
  %0 = dist.broadcast %x over ["pp"] root = 0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
func.func @group_axis_unique_broadcast(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.broadcast' op names mesh axis 'dp' twice}}
  %0 = dist.broadcast %x over ["dp", "dp"] root = 0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

// The group over dp and tp has 4 members: 0..3.
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
func.func @broadcast_root_in_group(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.broadcast' op requires root in [0, 4) (the group size), got 4}}
  %0 = dist.broadcast %x over ["dp", "tp"] root = 4 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @broadcast_root_in_group_negative(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.broadcast' op requires root in [0, 2) (the group size), got -1}}
  %0 = dist.broadcast %x over ["tp"] root = -1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

// An empty group has one member: only root 0.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @broadcast_root_in_group_empty(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.broadcast' op requires root in [0, 1) (the group size), got 1}}
  %0 = dist.broadcast %x over [] root = 1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @ods_broadcast_same_type(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'dist.broadcast' op failed to verify that all of {x, result} have same type}}
  %0 = "dist.broadcast"(%x) <{axes = ["tp"], root = 0 : i64}> : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
}

//===----------------------------------------------------------------------===//
// ring_shift
//===----------------------------------------------------------------------===//

// -----

module attributes {dist.mesh = #dist.mesh<[cp = 4]>} {
func.func @ring_shift_nonzero_in_group(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.ring_shift' op requires a shift with 0 < |shift| < 4 (the group size), got 0}}
  %0 = dist.ring_shift %x over ["cp"] by = 0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[cp = 4]>} {
func.func @ring_shift_in_group(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.ring_shift' op requires a shift with 0 < |shift| < 4 (the group size), got -4}}
  %0 = dist.ring_shift %x over ["cp"] by = -4 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[cp = 4]>} {
func.func @ring_shift_axis_exists(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.ring_shift' op names mesh axis 'tp' that the mesh does not have}}
  %0 = dist.ring_shift %x over ["tp"] by = 1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

//===----------------------------------------------------------------------===//
// send, recv
//===----------------------------------------------------------------------===//

// -----

func.func @collective_needs_mesh_send(%x: tensor<4xf32>) {
  // expected-error @+1 {{'dist.send' op requires a 'dist.mesh' attribute on an enclosing op}}
  dist.send %x over ["pp"] to = 1 : tensor<4xf32>
  return
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, pp = 4]>} {
func.func @group_axis_exists_send(%x: tensor<4xf32>) {
  // expected-error @+1 {{'dist.send' op names mesh axis 'tp' that the mesh does not have}}
  dist.send %x over ["tp"] to = 1 : tensor<4xf32>
  return
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, pp = 4]>} {
func.func @group_axis_unique_recv() -> tensor<4xf32> {
  // expected-error @+1 {{'dist.recv' op names mesh axis 'pp' twice}}
  %0 = dist.recv over ["pp", "pp"] from = -1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, pp = 4]>} {
func.func @group_axis_exists_recv() -> tensor<4xf32> {
  // expected-error @+1 {{'dist.recv' op names mesh axis 'stage' that the mesh does not have}}
  %0 = dist.recv over ["stage"] from = -1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[pp = 4]>} {
func.func @p2p_offset_nonzero(%x: tensor<4xf32>) {
  // expected-error @+1 {{'dist.send' op requires a nonzero 'to': a member cannot send to itself}}
  dist.send %x over ["pp"] to = 0 : tensor<4xf32>
  return
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[pp = 4]>} {
func.func @p2p_offset_nonzero_recv() -> tensor<4xf32> {
  // expected-error @+1 {{'dist.recv' op requires a nonzero 'from': a member cannot send to itself}}
  %0 = dist.recv over ["pp"] from = 0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

// No wrap-around: an offset of the group size or more never has a peer.
module attributes {dist.mesh = #dist.mesh<[pp = 4]>} {
func.func @p2p_offset_in_group(%x: tensor<4xf32>) {
  // expected-error @+1 {{'dist.send' op requires |to| < 4 (the group size), got 4}}
  dist.send %x over ["pp"] to = 4 : tensor<4xf32>
  return
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, pp = 2]>} {
func.func @p2p_offset_in_group_recv() -> tensor<4xf32> {
  // expected-error @+1 {{'dist.recv' op requires |from| < 2 (the group size), got -2}}
  %0 = dist.recv over ["pp"] from = -2 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

// A one-member group has no peer at all.
module attributes {dist.mesh = #dist.mesh<[pp = 4]>} {
func.func @p2p_offset_in_group_empty(%x: tensor<4xf32>) {
  // expected-error @+1 {{'dist.send' op requires |to| < 1 (the group size), got 1}}
  dist.send %x over [] to = 1 : tensor<4xf32>
  return
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[pp = 4]>} {
func.func @p2p_tag_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{'dist.send' op requires tag in [0, 2^32), got -1}}
  dist.send %x over ["pp"] to = 1 tag = -1 : tensor<4xf32>
  return
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[pp = 4]>} {
func.func @p2p_tag_range_recv() -> tensor<4xf32> {
  // expected-error @+1 {{'dist.recv' op requires tag in [0, 2^32), got 4294967296}}
  %0 = dist.recv over ["pp"] from = -1 tag = 4294967296 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[pp = 4]>} {
func.func @ods_recv_static_shape() -> tensor<?xf32> {
  // expected-error @+1 {{'dist.recv' op result #0 must be statically shaped tensor}}
  %0 = dist.recv over ["pp"] from = -1 : tensor<?xf32>
  return %0 : tensor<?xf32>
}
}

//===----------------------------------------------------------------------===//
// local_shard
//===----------------------------------------------------------------------===//

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @local_shard_rank(%x: tensor<4x6xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'dist.local_shard' op requires a sharding of rank 2, got 1}}
  %0 = dist.local_shard %x to <{tp}> : tensor<4x6xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
func.func @local_shard_no_partial(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'dist.local_shard' op requires a sharding without partial axes}}
  %0 = dist.local_shard %x to <{}, {tp}, partial = [dp]> : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @local_shard_closed(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'dist.local_shard' op requires a sharding without open dims, got an open dim 1}}
  %0 = dist.local_shard %x to <{}, {?}> : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 4]>} {
func.func @local_shard_divisible(%x: tensor<4x6xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'dist.local_shard' op requires every split dim to divide over its axes}}
  %0 = dist.local_shard %x to <{}, {tp}> : tensor<4x6xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
func.func @collective_result_shape_local_shard(%x: tensor<4x6xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'dist.local_shard' op expected result type 'tensor<2x3xf32>', got 'tensor<2x6xf32>'}}
  %0 = dist.local_shard %x to <{dp}, {tp}> : tensor<4x6xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
}

// -----

// local_shard names its axes through the sharding: they must be mesh axes.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @group_axis_exists_local_shard(%x: tensor<4x6xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'dist.local_shard' op names mesh axis 'dp' that the mesh does not have}}
  %0 = dist.local_shard %x to <{dp}, {}> : tensor<4x6xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
}

// -----

func.func @collective_needs_mesh_local_shard(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'dist.local_shard' op requires a 'dist.mesh' attribute on an enclosing op}}
  %0 = dist.local_shard %x to <{}, {tp}> : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// The sharding itself is verified while it is parsed.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @sharding_axis_unique_local_shard(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{custom op 'dist.local_shard' sharding uses mesh axis 'tp' more than once}}
  %0 = dist.local_shard %x to <{tp}, {tp}> : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
}

//===----------------------------------------------------------------------===//
// axis_index
//===----------------------------------------------------------------------===//

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @ods_axis_index_i64() -> tensor<i32> {
  // expected-error @+1 {{'dist.axis_index' op result #0 must be 0D tensor of 64-bit signless integer values, but got 'tensor<i32>'}}
  %0 = dist.axis_index over ["tp"] : tensor<i32>
  return %0 : tensor<i32>
}
}

//===----------------------------------------------------------------------===//
// Declared attributes (DistAttrVerifier.cpp)
//===----------------------------------------------------------------------===//

// -----

// attr_declared
func.func @attr_declared(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown attribute 'dist.tp_rol' (the dist dialect declares its attributes in DistDialect.td)}}
  %0 = graph.exp %x {dist.tp_rol = "column"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// attr_kind
func.func @attr_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'dist.tp_role' must be a #dist.tp_role, got "column"}}
  %0 = graph.exp %x {dist.tp_role = "column"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// attr_kind: on a function argument.
// expected-error @+1 {{attribute 'dist.global_type' on argument 0 must be a ranked tensor type, got f32}}
func.func @attr_kind_argument(%x: tensor<4xf32> {dist.global_type = f32}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// shardings_per_result
func.func @shardings_per_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'dist.shardings' has 2 entries for 1 results}}
  %0 = graph.exp %x {dist.shardings = [#dist.sharding<{}>, unit]} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// shard_dims_rank: against the global type.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
// expected-error @+1 {{attribute 'dist.shard_dims' on result 0 has 1 dimensions for global type 'tensor<4x8xf32>'}}
func.func @shard_dims_rank(%x: tensor<4x4xf32>) -> (tensor<4x4xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 0>]}) {
  return %x : tensor<4x4xf32>
}
}

// -----

// shard_dims_rank: against the local type.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @shard_dims_rank_local() -> tensor<4x4xf32> {
  // expected-error @+1 {{attribute 'dist.shard_dims' has 1 dimensions for local type 'tensor<4x4xf32>'}}
  %w = graph.weight "w" {dist.shard_dims = [array<i32: 0>]} : tensor<4x4xf32>
  return %w : tensor<4x4xf32>
}
}

// -----

// shard_dims_axis_in_mesh
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
// expected-error @+1 {{attribute 'dist.shard_dims' on argument 0 names mesh axis 1, but the mesh has 1 axes}}
func.func @shard_dims_axis_in_mesh(%x: tensor<2x4xf32> {dist.global_type = tensor<4x4xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> tensor<2x4xf32> {
  return %x : tensor<2x4xf32>
}
}

// -----

// attr_kind: the plans and actions are declared attributes, not
// dictionaries or arrays.
// expected-error @+1 {{attribute 'dist.pipeline_plan' must be a #dist.pipeline_plan, got {layers = 4 : i64}}}
module attributes {dist.pipeline_plan = {layers = 4 : i64}} {
}

// -----

// attr_kind: expert parallelism's assumed load is a float.
// expected-error @+1 {{attribute 'dist.expert_load_imbalance' must be a float, got "1.5"}}
module attributes {dist.expert_load_imbalance = "1.5"} {
}

// -----

func.func @action_array(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'dist.pipeline_action' must be a #dist.pipeline_action, got array<i64: 0, 1>}}
  %0 = graph.exp %x {dist.pipeline_action = array<i64: 0, 1>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// pipeline_action_nonnegative
func.func @pipeline_action_nonnegative(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{pipeline action has micro-batch -1 and chunk 0; both must be non-negative}}
  %0 = graph.exp %x {dist.pipeline_action = #dist.pipeline_action<microbatch = -1, phase = forward>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// pipeline_action_once_first
func.func @pipeline_action_once_first(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the once-per-step pipeline action has micro-batch 2; it must be 0}}
  %0 = graph.exp %x {dist.pipeline_action = #dist.pipeline_action<microbatch = 2, phase = once>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The plans' enum fields take the option tables' spellings.
func.func @bad_schedule() attributes {dist.pipeline_plan = #dist.pipeline_plan<stages = [], uniform_stages = [], layers = 0, microbatches = 1,
    // expected-error @+2 {{'2f2b' is not a pipeline schedule (gpipe, 1f1b, zb-h1 or interleaved)}}
    // expected-error @+1 {{failed to parse Dist_PipelinePlanAttr parameter 'schedule'}}
    schedule = "2f2b", virtual_stages = 1, training = false, rates = "cpu", bubble_formula = 0.0, bubble_predicted = 0.0, uniform_bubble_predicted = 0.0>} {
  return
}

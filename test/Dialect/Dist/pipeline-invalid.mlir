// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-pipeline="schedule=gpipe"
// RUN: not paracc-opt %s -split-input-file --paracc-pipeline="schedule=zigzag" 2>&1 | FileCheck %s --check-prefix=SCHEDULE

// --paracc-pipeline's errors, one case per constraint.

// The schedule is gpipe, 1f1b, zb-h1 or interleaved (checked once per
// module with a pp axis).
// SCHEDULE: for the --schedule option: 'zigzag' is not a pipeline schedule (gpipe, 1f1b, zb-h1 or interleaved)

// collective_over_pipeline_axis: the pipeline makes the only traffic
// between stages.
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @collective_over_pipeline_axis(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  // expected-error @+1 {{'dist.all_reduce' op is a collective over the pipeline axis 'pp'}}
  %y = dist.all_reduce %x over ["pp"] {dist.stage = 0 : i64} : tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
}

// -----

// transfer_before_pipelining: a send or recv already in the program.
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @transfer_before_pipelining(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  // expected-error @+1 {{'dist.send' op is in the program before pipelining; the pipeline makes its own transfers}}
  dist.send %x over ["pp"] to = 1 {dist.stage = 0 : i64} : tensor<2x8xf32>
  return
}
}

// -----

// microbatch_axis_last: the micro-batch axis must be the mesh's last...
// expected-error @+1 {{a pipeline needs the micro-batch axis 'mb' as the last mesh axis}}
module attributes {dist.mesh = #dist.mesh<[mb = 2, pp = 2]>} {
func.func @microbatch_axis_not_last(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  return %x : tensor<2x8xf32>
}
}

// -----

// ...and must be there.
// expected-error @+1 {{a pipeline needs the micro-batch axis 'mb' as the last mesh axis}}
module attributes {dist.mesh = #dist.mesh<[pp = 2]>} {
func.func @no_microbatch_axis(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  return %x : tensor<2x8xf32>
}
}

// -----

// stage_in_pipeline: an op's stage is in [0, stages).
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @stage_outside_pipeline(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  %w = graph.weight "w" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  // expected-error @+1 {{'graph.mul' op is on pipeline stage 2, but the pipeline has 2}}
  %y = graph.mul %x, %w {dist.stage = 2 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
}

// -----

// reduced_value_per_microbatch: a value reduced over the micro-batches on
// a stage (it exists only after every micro-batch) cannot feed a
// micro-batch's op.
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @reduced_value_per_microbatch(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  %w = graph.weight "w" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  %h = graph.mul %x, %w {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %s = graph.reduce_sum %h, [0, 1] {keepdims = false, dist.stage = 0 : i64} : tensor<2x8xf32> -> tensor<f32>
  %r = dist.all_reduce %s over ["mb"] : tensor<f32>
  // expected-error @+1 {{'graph.mul' op uses a value reduced over the micro-batches in a per-micro-batch op, which a pipeline cannot order}}
  %y = graph.mul %h, %r {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
}

// -----

// microbatch_collective_is_all_reduce: the micro-batches meet only in a
// sum or a max.
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @gather_over_microbatches(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> tensor<4x8xf32> {
  %h = graph.exp %x {dist.stage = 0 : i64} : tensor<2x8xf32>
  // expected-error @+1 {{'dist.all_gather' op over the micro-batch axis is not supported}}
  %g = dist.all_gather %h over ["mb"] dim = 0 : tensor<2x8xf32> -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
}

// -----

// result_split_over_microbatches: a result that differs between
// micro-batches is their concatenation, so it must be split over them.
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @result_not_split(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<2x8xf32> {dist.global_type = tensor<2x8xf32>, dist.shard_dims = [array<i32>, array<i32>]}) {
  %h = graph.exp %x {dist.stage = 1 : i64} : tensor<2x8xf32>
  // expected-error @+1 {{'func.return' op returns result 0, which differs between micro-batches but is not split over them}}
  return %h : tensor<2x8xf32>
}
}

// -----

// partitioned: each argument says which global tensor it is a shard of.
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
// expected-error @+1 {{'func.func' op is not partitioned (an argument has no 'dist.shard_dims')}}
func.func @not_partitioned(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %h = graph.exp %x {dist.stage = 1 : i64} : tensor<2x8xf32>
  return %h : tensor<2x8xf32>
}
}

// -----

// stages_do_not_wait_on_each_other: a backward that goes from stage 1 to
// stage 0 and back to stage 1 makes each stage's backward of a micro-batch
// wait for the other's.
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
// expected-error @+1 {{'func.func' op has pipeline stages that wait on each other under the 'gpipe' schedule (a value is used by an action that runs before the one that computes it)}}
func.func @stages_wait_on_each_other(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<f32> {dist.global_type = tensor<f32>, dist.shard_dims = []}) {
  %w = graph.weight "w" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  %h = graph.mul %x, %w {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %l = graph.reduce_sum %h, [0, 1] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<f32>
  %loss = dist.all_reduce %l over ["mb"] : tensor<f32>
  %a = graph.exp %h {dist.stage = 1 : i64} : tensor<2x8xf32>
  %b = graph.exp %a {dist.stage = 0 : i64} : tensor<2x8xf32>
  %c = graph.exp %b {dist.stage = 1 : i64} : tensor<2x8xf32>
  %g = graph.reduce_sum %c, [0] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %gs = dist.all_reduce %g over ["mb"] : tensor<8xf32>
  %n = graph.sub %w, %gs : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  graph.assign "w", %n : tensor<8xf32>
  return %loss : tensor<f32>
}
}

// -----

// Without a pp axis the pass leaves the program alone: no error.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @no_pipeline_axis(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  return %x : tensor<2x8xf32>
}
}

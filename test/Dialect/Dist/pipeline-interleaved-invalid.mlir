// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-pipeline="schedule=interleaved virtual-stages=2"
// RUN: not paracc-opt %s -split-input-file --paracc-pipeline="schedule=1f1b virtual-stages=2" 2>&1 | FileCheck %s --check-prefix=ONE-STAGE-PER-RANK

// --paracc-pipeline's errors under the interleaved schedule, one case per
// constraint (the others are in pipeline-invalid.mlir).

// virtual_stages_need_interleaved: 1f1b, gpipe and zb-h1 run one stage per
// rank.
// ONE-STAGE-PER-RANK: error: virtual stages need the 'interleaved' schedule (the '1f1b' schedule runs one stage per rank)

// stage_in_pipeline: an op's stage is one of the p x v virtual stages.
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @stage_outside_pipeline(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  %w = graph.weight "w" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  // expected-error @+1 {{'graph.mul' op is on pipeline stage 4, but the pipeline has 4 virtual stages}}
  %y = graph.mul %x, %w {dist.stage = 4 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
}

// -----

// microbatches_in_groups_of_stages: each group of p micro-batches runs
// chunk by chunk.
// expected-error @+1 {{the 'interleaved' schedule runs the micro-batches in groups of the 2 stages: 3 micro-batch(es) is not a multiple of 2}}
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 3]>} {
func.func @three_microbatches(%x: tensor<1x8xf32> {dist.global_type = tensor<3x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<1x8xf32> {dist.global_type = tensor<3x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  return %x : tensor<1x8xf32>
}
}

// RUN: paracc-opt %s --paracc-shard-parameters="stage=1" | FileCheck %s --check-prefix=STAGE1
// RUN: paracc-opt %s --paracc-shard-parameters="stage=2" | FileCheck %s --check-prefix=STAGE2

// Under micro-batches partitioning reduce-scatters a ZeRO gradient per
// micro-batch and sums the shards over the micro-batch axis (stage 2's
// program, kept). Stage 1 sums the whole micro-batch gradients first and
// reduce-scatters once; a sum over the micro-batches of anything else stays.

// STAGE1-LABEL: func.func @gradient
// STAGE1: %[[SUM:.*]] = dist.all_reduce %arg0 over ["mb"] : tensor<8x6xf32>
// STAGE1: %[[SHARD:.*]] = dist.reduce_scatter %[[SUM]] over ["dp"] dim = 0 : tensor<8x6xf32> -> tensor<4x6xf32>
// STAGE1: return %[[SHARD]]
// STAGE1-LABEL: func.func @other
// STAGE1: dist.reduce_scatter %arg0 over ["tp"]
// STAGE1: dist.all_reduce %{{.*}} over ["mb"]

// STAGE2-LABEL: func.func @gradient
// STAGE2: %[[SHARD:.*]] = dist.reduce_scatter %arg0 over ["dp"] dim = 0 : tensor<8x6xf32> -> tensor<4x6xf32>
// STAGE2: dist.all_reduce %[[SHARD]] over ["mb"] : tensor<4x6xf32>
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2, mb = 2]>} {
func.func @gradient(%g: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %s = dist.reduce_scatter %g over ["dp"] dim = 0 : tensor<8x6xf32> -> tensor<4x6xf32>
  %a = dist.all_reduce %s over ["mb"] : tensor<4x6xf32>
  return %a : tensor<4x6xf32>
}
func.func @other(%g: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %s = dist.reduce_scatter %g over ["tp"] dim = 0 : tensor<8x6xf32> -> tensor<4x6xf32>
  %a = dist.all_reduce %s over ["mb"] : tensor<4x6xf32>
  return %a : tensor<4x6xf32>
}
}

// RUN: not paracc-opt %s --paracc-shard-parameters="stage=4" 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: not paracc-opt %s --paracc-shard-parameters="stage=3 prefetch=-1" 2>&1 | FileCheck %s --check-prefix=PREFETCH
// RUN: not paracc-opt %s --paracc-propagate-sharding --paracc-shard-optimizer-state --paracc-partition --paracc-shard-parameters="stage=3" 2>&1 | FileCheck %s --check-prefix=LAYERS

// STAGE: error: --paracc-shard-parameters: stage must be 1, 2 or 3, got 4
// PREFETCH: error: --paracc-shard-parameters: prefetch must be >= 0, got -1

// Stage 3 gathers a layer's parameters ahead of the layer: a step with no
// residual stream has no layers to schedule them by.
// LAYERS: error: ZeRO stage 3 gathers each layer's parameters before the layer runs and needs the model's layers; none were found
module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
func.func @step(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}, %dy: tensor<4x6xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}, %lr: tensor<f32>, %step: tensor<f32>) -> tensor<f32> {
  %w = graph.weight "w" : tensor<8x6xf32>
  %y = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %l = graph.reduce_sum %y, [0, 1] {keepdims = false} : tensor<4x6xf32> -> tensor<f32>
  %dw = graph.gemm %x, %dy {trans_a = true} : (tensor<4x8xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %m = graph.state "w.exp_avg" : tensor<8x6xf32>
  %v = graph.state "w.exp_avg_sq" : tensor<8x6xf32>
  %w2, %m2, %v2 = graph.adamw %w, %dw, %m, %v, %lr, %step, %one {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<8x6xf32>
  graph.assign "w", %w2 : tensor<8x6xf32>
  graph.assign "w.exp_avg", %m2 : tensor<8x6xf32>
  graph.assign "w.exp_avg_sq", %v2 : tensor<8x6xf32>
  return %l : tensor<f32>
}
}

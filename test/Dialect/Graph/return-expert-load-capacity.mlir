// RUN: paracc-opt %s --paracc-return-expert-load=capacity-factor=1.0 | FileCheck %s --check-prefix=CAPACITY
// RUN: paracc-opt %s --paracc-return-expert-load | FileCheck %s --check-prefix=DROPLESS

// With the capacity factor the model was compiled with, the picks beyond
// each expert's capacity per sequence are counted too: C = 4 (1.0 x 8
// tokens x 2 picks / 4 experts), max(count - C, 0) summed over sequences
// and experts, returned as expert_dropped [layers].
// CAPACITY-LABEL: func.func @capacity
// CAPACITY-SAME: tensor<1x4xf32> {graph.name = "expert_tokens"}, tensor<1xf32> {graph.name = "expert_dropped"})
// CAPACITY: graph.moe_experts
// CAPACITY: %[[PER:.*]] = graph.reduce_sum %{{.*}}, [1] {keepdims = false} : tensor<1x8x4xf32> -> tensor<1x4xf32>
// CAPACITY: %[[C:.*]] = graph.constant dense<4.000000e+00> : tensor<f32>
// CAPACITY: %[[OVER:.*]] = graph.sub %[[PER]], %[[C]]
// CAPACITY: %[[Z:.*]] = graph.constant dense<0.000000e+00> : tensor<f32>
// CAPACITY: %[[POS:.*]] = graph.max %[[OVER]], %[[Z]]
// CAPACITY: %[[D:.*]] = graph.reduce_sum %[[POS]], [0, 1] {keepdims = false} : tensor<1x4xf32> -> tensor<f32>
// CAPACITY: %[[D1:.*]] = graph.reshape %[[D]] : tensor<f32> -> tensor<1xf32>
// CAPACITY: return %{{.*}}, %{{.*}}, %{{.*}}, %[[D1]]
func.func @capacity(%h: tensor<1x8x4xf32>, %i: tensor<8x2xi64>, %w: tensor<8x2xf32>, %a: tensor<4x12x4xf32>, %b: tensor<4x4x6xf32>, %loss: tensor<f32>) -> (tensor<f32> {graph.name = "loss"}, tensor<f32> {graph.name = "grad_norm"}) {
  %x = graph.reshape %h : tensor<1x8x4xf32> -> tensor<8x4xf32>
  %y = graph.moe_experts %x, %i, %w, %a, %b : (tensor<8x4xf32>, tensor<8x2xi64>, tensor<8x2xf32>, tensor<4x12x4xf32>, tensor<4x4x6xf32>) -> tensor<8x4xf32>
  return %loss, %loss : tensor<f32>, tensor<f32>
}

// Without the factor, the table alone.
// DROPLESS: {graph.name = "expert_tokens"})
// DROPLESS-NOT: expert_dropped

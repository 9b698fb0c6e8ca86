// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-return-expert-load | FileCheck %s

// Two MoE layers: each one's picks counted where it runs (with its
// pipeline action), the counts returned as one [layers, experts]
// table named expert_tokens.

// CHECK-LABEL: func.func @two_layers
// CHECK-SAME: tensor<2x4xf32> {graph.name = "expert_tokens"})
// CHECK: %[[Y0:.*]] = graph.moe_experts %{{[^,]+}}, %[[I0:[^,]+]],
// CHECK-NEXT: %[[C0:.*]] = graph.expert_load %[[I0]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>} : tensor<8x2xi64> -> tensor<4xf32>
// CHECK: graph.moe_experts %{{[^,]+}}, %[[I1:[^,]+]],
// CHECK-NEXT: %[[C1:.*]] = graph.expert_load %[[I1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>} : tensor<8x2xi64> -> tensor<4xf32>
// CHECK: %[[R0:.*]] = graph.reshape %[[C0]] : tensor<4xf32> -> tensor<1x4xf32>
// CHECK: %[[R1:.*]] = graph.reshape %[[C1]] : tensor<4xf32> -> tensor<1x4xf32>
// CHECK: %[[T:.*]] = graph.concat %[[R0]], %[[R1]] {axis = 0 : i64}
// CHECK: return %{{.*}}, %{{.*}}, %[[T]] : tensor<f32>, tensor<f32>, tensor<2x4xf32>
func.func @two_layers(%x: tensor<8x4xf32>, %i0: tensor<8x2xi64>, %i1: tensor<8x2xi64>, %w: tensor<8x2xf32>, %a: tensor<4x12x4xf32>, %b: tensor<4x4x6xf32>, %loss: tensor<f32>) -> (tensor<f32> {graph.name = "loss"}, tensor<f32> {graph.name = "grad_norm"}) {
  %y0 = graph.moe_experts %x, %i0, %w, %a, %b {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>} : (tensor<8x4xf32>, tensor<8x2xi64>, tensor<8x2xf32>, tensor<4x12x4xf32>, tensor<4x4x6xf32>) -> tensor<8x4xf32>
  %y1 = graph.moe_experts %y0, %i1, %w, %a, %b {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>} : (tensor<8x4xf32>, tensor<8x2xi64>, tensor<8x2xf32>, tensor<4x12x4xf32>, tensor<4x4x6xf32>) -> tensor<8x4xf32>
  return %loss, %loss : tensor<f32>, tensor<f32>
}

// -----

// Without experts nothing changes.

// CHECK-LABEL: func.func @dense
// CHECK-SAME: -> (tensor<f32> {graph.name = "loss"})
// CHECK-NOT: expert_load
func.func @dense(%loss: tensor<f32>) -> (tensor<f32> {graph.name = "loss"}) {
  return %loss : tensor<f32>
}

// -----

// Layers with different expert counts: no table (said in a remark).

// CHECK-LABEL: func.func @mixed_experts
// CHECK-NOT: expert_load
func.func @mixed_experts(%x: tensor<8x4xf32>, %i: tensor<8x2xi64>, %w: tensor<8x2xf32>, %a: tensor<4x12x4xf32>, %b: tensor<4x4x6xf32>, %c: tensor<2x12x4xf32>, %d: tensor<2x4x6xf32>, %loss: tensor<f32>) -> tensor<f32> {
  %y0 = graph.moe_experts %x, %i, %w, %a, %b : (tensor<8x4xf32>, tensor<8x2xi64>, tensor<8x2xf32>, tensor<4x12x4xf32>, tensor<4x4x6xf32>) -> tensor<8x4xf32>
  // expected-remark @+1 {{experts per layer differ (4 and 2): no routing statistics returned}}
  %y1 = graph.moe_experts %y0, %i, %w, %c, %d : (tensor<8x4xf32>, tensor<8x2xi64>, tensor<8x2xf32>, tensor<2x12x4xf32>, tensor<2x4x6xf32>) -> tensor<8x4xf32>
  return %loss : tensor<f32>
}

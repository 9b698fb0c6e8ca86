// RUN: paracc-opt %s -split-input-file --paracc-expert-parallel --paracc-data-parallel | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-expert-parallel --paracc-data-parallel --paracc-propagate-sharding --paracc-partition | FileCheck %s --check-prefix=PART
// With an assumed load of the busiest member (load-imbalance), the module
// records it and partitioning gives it to each expert-parallel op.
// RUN: paracc-opt %s -split-input-file --paracc-expert-parallel="load-imbalance=1.5" --paracc-data-parallel | FileCheck %s --check-prefix=LOAD
// RUN: paracc-opt %s -split-input-file --paracc-expert-parallel="load-imbalance=1.5" --paracc-data-parallel --paracc-propagate-sharding --paracc-partition | FileCheck %s --check-prefix=LOAD-PART
// LOAD: module attributes {dist.expert_axis = "ep", dist.expert_load_imbalance = 1.500000e+00 : f64
// LOAD-PART: dist.expert_parallel_moe {{.*}} over ["ep"] {load_imbalance = 1.500000e+00 : f64}
// LOAD-PART: dist.expert_parallel_moe_grad {{.*}} over ["ep"] {load_imbalance = 1.500000e+00 : f64}

// --paracc-expert-parallel: each moe_experts' tables are split by their
// experts (dim 0) over ep, the module names its expert axis, and the batch
// is split over dp, then ep. Partitioning makes the op
// dist.expert_parallel_moe on the local tokens and this member's experts.

module attributes {dist.mesh = #dist.mesh<[dp = 2, ep = 2]>} {
// CHECK: module attributes {dist.expert_axis = "ep"
// CHECK-LABEL: func.func @forward
// CHECK-SAME: dist.sharding = #dist.sharding<{dp, ep}, {?}>
func.func @forward(%x: tensor<16x32xf32>, %i: tensor<16x2xi64>, %w: tensor<16x2xf32>) -> tensor<16x32xf32> {
  // CHECK: graph.weight "w_in" {dist.shardings = [#dist.sharding<{ep}, {?}, {?}>]}
  // CHECK: graph.weight "w_out" {dist.shardings = [#dist.sharding<{ep}, {?}, {?}>]}
  %w_in = graph.weight "w_in" : tensor<4x96x32xf32>
  %w_out = graph.weight "w_out" : tensor<4x32x48xf32>
  // PART-LABEL: func.func @forward
  // PART-SAME: (%[[X:.*]]: tensor<4x32xf32> {{.*}}, %[[I:.*]]: tensor<4x2xi64> {{.*}}, %[[W:.*]]: tensor<4x2xf32>
  // PART: %[[WIN:.*]] = graph.weight "w_in" {{.*}} : tensor<2x96x32xf32>
  // PART: %[[WOUT:.*]] = graph.weight "w_out" {{.*}} : tensor<2x32x48xf32>
  // PART: %[[Y:.*]] = dist.expert_parallel_moe %[[X]], %[[I]], %[[W]], %[[WIN]], %[[WOUT]] over ["ep"] : (tensor<4x32xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x96x32xf32>, tensor<2x32x48xf32>) -> tensor<4x32xf32>
  // PART: return %[[Y]]
  %y = graph.moe_experts %x, %i, %w, %w_in, %w_out
      : (tensor<16x32xf32>, tensor<16x2xi64>, tensor<16x2xf32>, tensor<4x96x32xf32>, tensor<4x32x48xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
}

// -----

// The gradient: the tables' gradients are this member's experts', summed
// over the ep group's tokens by the exchange and all-reduced over dp.
module attributes {dist.mesh = #dist.mesh<[dp = 2, ep = 2]>} {
// PART-LABEL: func.func @backward
func.func @backward(%dy: tensor<16x32xf32>, %x: tensor<16x32xf32>, %i: tensor<16x2xi64>, %w: tensor<16x2xf32>) -> (tensor<16x32xf32>, tensor<16x2xf32>, tensor<4x96x32xf32>, tensor<4x32x48xf32>) {
  %w_in = graph.weight "w_in" : tensor<4x96x32xf32>
  %w_out = graph.weight "w_out" : tensor<4x32x48xf32>
  // The forward the annotation reads.
  %y = graph.moe_experts %x, %i, %w, %w_in, %w_out
      : (tensor<16x32xf32>, tensor<16x2xi64>, tensor<16x2xf32>, tensor<4x96x32xf32>, tensor<4x32x48xf32>) -> tensor<16x32xf32>
  // PART: %[[DX:.*]], %[[DW:.*]], %[[DIN:.*]], %[[DOUT:.*]] = dist.expert_parallel_moe_grad {{.*}} over ["ep"] {{.*}} -> (tensor<4x32xf32>, tensor<4x2xf32>, tensor<2x96x32xf32>, tensor<2x32x48xf32>)
  // PART-DAG: dist.all_reduce %[[DIN]] over ["dp"] : tensor<2x96x32xf32>
  // PART-DAG: dist.all_reduce %[[DOUT]] over ["dp"] : tensor<2x32x48xf32>
  %dx, %dw, %din, %dout = graph.moe_experts_grad %dy, %x, %i, %w, %w_in, %w_out
      {dist.shardings = [#dist.sharding<{dp, ep}, {}>, #dist.sharding<{dp, ep}, {}>, #dist.sharding<{ep}, {}, {}>, #dist.sharding<{ep}, {}, {}>]}
      : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x2xi64>, tensor<16x2xf32>, tensor<4x96x32xf32>, tensor<4x32x48xf32>) -> (tensor<16x32xf32>, tensor<16x2xf32>, tensor<4x96x32xf32>, tensor<4x32x48xf32>)
  return %dx, %dw, %din, %dout : tensor<16x32xf32>, tensor<16x2xf32>, tensor<4x96x32xf32>, tensor<4x32x48xf32>
}
}

// -----

// An ep axis of size 1 does nothing.
module attributes {dist.mesh = #dist.mesh<[dp = 2, ep = 1]>} {
// CHECK-LABEL: func.func @size_one
// CHECK-NOT: dist.expert_axis
// CHECK: graph.weight "w_in" : tensor<4x96x32xf32>
func.func @size_one(%x: tensor<16x32xf32>, %i: tensor<16x2xi64>, %w: tensor<16x2xf32>) -> tensor<16x32xf32> {
  %w_in = graph.weight "w_in" : tensor<4x96x32xf32>
  %w_out = graph.weight "w_out" : tensor<4x32x48xf32>
  %y = graph.moe_experts %x, %i, %w, %w_in, %w_out
      : (tensor<16x32xf32>, tensor<16x2xi64>, tensor<16x2xf32>, tensor<4x96x32xf32>, tensor<4x32x48xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
}

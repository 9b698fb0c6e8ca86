// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-expert-parallel
// RUN: not paracc-opt %s -split-input-file --paracc-expert-parallel="load-imbalance=0.5" 2>&1 | FileCheck %s --check-prefix=LOAD
// LOAD: paracc-expert-parallel's load-imbalance must be a number >= 1 (the busiest member's load over an even share), got 5.000000e-01

// --paracc-expert-parallel's errors, and dist.expert_parallel_moe's
// verifier (each check of verifyMoeOperands that its operands can fail
// where graph.moe_experts' operand types cannot).

// The experts must divide over ep.
module attributes {dist.mesh = #dist.mesh<[ep = 3]>} {
func.func @indivisible(%x: tensor<6x32xf32>, %i: tensor<6x2xi64>, %w: tensor<6x2xf32>) -> tensor<6x32xf32> {
  %w_in = graph.weight "w_in" : tensor<4x96x32xf32>
  %w_out = graph.weight "w_out" : tensor<4x32x48xf32>
  // expected-error @+1 {{'graph.moe_experts' op has 4 experts, which do not divide over mesh axis 'ep' of size 3}}
  %y = graph.moe_experts %x, %i, %w, %w_in, %w_out
      : (tensor<6x32xf32>, tensor<6x2xi64>, tensor<6x2xf32>, tensor<4x96x32xf32>, tensor<4x32x48xf32>) -> tensor<6x32xf32>
  return %y : tensor<6x32xf32>
}
}

// -----

// A model without experts has none to split.
// expected-error @+1 {{mesh axis 'ep' splits the experts of a mixture of experts, but the model has none (no graph.moe_experts)}}
module attributes {dist.mesh = #dist.mesh<[ep = 2]>} {
func.func @no_experts(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
}

// -----

// k may exceed the member's experts but not the group's: 2 members of 1.
module attributes {dist.mesh = #dist.mesh<[ep = 2]>} {
func.func @k_too_large(%x: tensor<4x32xf32>, %i: tensor<4x3xi64>, %w: tensor<4x3xf32>, %w_in: tensor<1x96x32xf32>, %w_out: tensor<1x32x48xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'dist.expert_parallel_moe' op picks k = 3 experts of 2 (need 1 <= k <= E)}}
  %y = dist.expert_parallel_moe %x, %i, %w, %w_in, %w_out over ["ep"]
      : (tensor<4x32xf32>, tensor<4x3xi64>, tensor<4x3xf32>, tensor<1x96x32xf32>, tensor<1x32x48xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[ep = 2]>} {
func.func @index_type(%x: tensor<4x32xf32>, %i: tensor<4x2xi32>, %w: tensor<4x2xf32>, %w_in: tensor<2x96x32xf32>, %w_out: tensor<2x32x48xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'dist.expert_parallel_moe' op needs i64 indices, got 'tensor<4x2xi32>'}}
  %y = dist.expert_parallel_moe %x, %i, %w, %w_in, %w_out over ["ep"]
      : (tensor<4x32xf32>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<2x96x32xf32>, tensor<2x32x48xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[ep = 2]>} {
func.func @float_type(%x: tensor<4x32xi32>, %i: tensor<4x2xi64>, %w: tensor<4x2xi32>, %w_in: tensor<2x96x32xi32>, %w_out: tensor<2x32x48xi32>) -> tensor<4x32xi32> {
  // expected-error @+1 {{'dist.expert_parallel_moe' op needs floating-point x, weights and experts, got 'tensor<4x32xi32>'}}
  %y = dist.expert_parallel_moe %x, %i, %w, %w_in, %w_out over ["ep"]
      : (tensor<4x32xi32>, tensor<4x2xi64>, tensor<4x2xi32>, tensor<2x96x32xi32>, tensor<2x32x48xi32>) -> tensor<4x32xi32>
  return %y : tensor<4x32xi32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[ep = 2]>} {
func.func @result_type(%x: tensor<4x32xf32>, %i: tensor<4x2xi64>, %w: tensor<4x2xf32>, %w_in: tensor<2x96x32xf32>, %w_out: tensor<2x32x48xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'dist.expert_parallel_moe' op result must have x's type 'tensor<4x32xf32>'}}
  %y = dist.expert_parallel_moe %x, %i, %w, %w_in, %w_out over ["ep"]
      : (tensor<4x32xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x96x32xf32>, tensor<2x32x48xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[ep = 2]>} {
func.func @grad_types(%dy: tensor<4x32xf32>, %x: tensor<4x32xf32>, %i: tensor<4x2xi64>, %w: tensor<4x2xf32>, %w_in: tensor<2x96x32xf32>, %w_out: tensor<2x32x48xf32>) -> tensor<4x96x32xf32> {
  // expected-error @+1 {{'dist.expert_parallel_moe_grad' op needs dy and dx of x's type and dweights, dw_in and dw_out of their operands' types}}
  %dx, %dw, %din, %dout = dist.expert_parallel_moe_grad %dy, %x, %i, %w, %w_in, %w_out over ["ep"]
      : (tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x96x32xf32>, tensor<2x32x48xf32>) -> (tensor<4x32xf32>, tensor<4x2xf32>, tensor<4x96x32xf32>, tensor<2x32x48xf32>)
  return %din : tensor<4x96x32xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
func.func @axis(%x: tensor<4x32xf32>, %i: tensor<4x2xi64>, %w: tensor<4x2xf32>, %w_in: tensor<2x96x32xf32>, %w_out: tensor<2x32x48xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'dist.expert_parallel_moe' op names mesh axis 'ep' that the mesh does not have}}
  %y = dist.expert_parallel_moe %x, %i, %w, %w_in, %w_out over ["ep"]
      : (tensor<4x32xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x96x32xf32>, tensor<2x32x48xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
}

// -----

// expert_parallel_load_imbalance: the assumed load is at least an even
// share.
module attributes {dist.mesh = #dist.mesh<[ep = 2]>} {
func.func @load_below_even(%x: tensor<4x32xf32>, %i: tensor<4x2xi64>, %w: tensor<4x2xf32>, %w_in: tensor<2x96x32xf32>, %w_out: tensor<2x32x48xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{'dist.expert_parallel_moe' op requires load_imbalance >= 1, got 5.000000e-01}}
  %y = dist.expert_parallel_moe %x, %i, %w, %w_in, %w_out over ["ep"] {load_imbalance = 0.5 : f64}
      : (tensor<4x32xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x96x32xf32>, tensor<2x32x48xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
}

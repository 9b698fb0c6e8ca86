// RUN: paracc-opt %s -split-input-file -verify-diagnostics

func.func @moe_ranks(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %w: tensor<4x2xf32>, %a: tensor<2x16xf32>, %b: tensor<2x8x8xf32>) {
  // expected-error @+1 {{needs x [T, H], indices and weights [T, k], w_in [E, F, H] and w_out [E, H, I]}}
  %y = graph.moe_experts %x, %i, %w, %a, %b : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x16xf32>, tensor<2x8x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @moe_routing_shape(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %w: tensor<4x1xf32>, %a: tensor<2x16x8xf32>, %b: tensor<2x8x8xf32>) {
  // expected-error @+1 {{needs indices and weights of shape [4, k], got 'tensor<4x2xi64>' and 'tensor<4x1xf32>'}}
  %y = graph.moe_experts %x, %i, %w, %a, %b : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x1xf32>, tensor<2x16x8xf32>, tensor<2x8x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @moe_k_in_range(%x: tensor<4x8xf32>, %i: tensor<4x3xi64>, %w: tensor<4x3xf32>, %a: tensor<2x16x8xf32>, %b: tensor<2x8x8xf32>) {
  // expected-error @+1 {{picks k = 3 experts of 2 (need 1 <= k <= E)}}
  %y = graph.moe_experts %x, %i, %w, %a, %b : (tensor<4x8xf32>, tensor<4x3xi64>, tensor<4x3xf32>, tensor<2x16x8xf32>, tensor<2x8x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @moe_expert_shapes(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %w: tensor<4x2xf32>, %a: tensor<2x8x8xf32>, %b: tensor<2x8x8xf32>) {
  // expected-error @+1 {{needs w_in [2, 16, 8] and w_out [2, 8, 8] (gated: F = 2 I), got 'tensor<2x8x8xf32>' and 'tensor<2x8x8xf32>'}}
  %y = graph.moe_experts %x, %i, %w, %a, %b : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @moe_element_types(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %w: tensor<4x2xf32>, %a: tensor<2x16x8xbf16>, %b: tensor<2x8x8xbf16>) {
  // expected-error @+1 {{needs x, weights, w_in and w_out of one element type}}
  %y = graph.moe_experts %x, %i, %w, %a, %b : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x16x8xbf16>, tensor<2x8x8xbf16>) -> tensor<4x8xf32>
  return
}

// -----

func.func @moe_result_type(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %w: tensor<4x2xf32>, %a: tensor<2x16x8xf32>, %b: tensor<2x8x8xf32>) {
  // expected-error @+1 {{result must have x's type 'tensor<4x8xf32>'}}
  %y = graph.moe_experts %x, %i, %w, %a, %b : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x16x8xf32>, tensor<2x8x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @moe_activation(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %w: tensor<4x2xf32>, %a: tensor<2x8x8xf32>, %b: tensor<2x8x8xf32>) {
  // expected-error @+1 {{activation must be silu, gelu, gelu_tanh or relu, got 'tanh'}}
  %y = graph.moe_experts %x, %i, %w, %a, %b {activation = "tanh", gated = false} : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @moe_grad_types(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %w: tensor<4x2xf32>, %a: tensor<2x16x8xf32>, %b: tensor<2x8x8xf32>) {
  // expected-error @+1 {{needs dy and dx of x's type and dweights, dw_in and dw_out of their operands' types}}
  %dx, %dw, %da, %db = graph.moe_experts_grad %dy, %x, %i, %w, %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<2x16x8xf32>, tensor<2x8x8xf32>) -> (tensor<4x8xf32>, tensor<4x2xf32>, tensor<2x8x8xf32>, tensor<2x8x8xf32>)
  return
}

// -----

func.func @moe_grad_operands(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %i: tensor<4x3xi64>, %w: tensor<4x3xf32>, %a: tensor<2x16x8xf32>, %b: tensor<2x8x8xf32>) {
  // expected-error @+1 {{picks k = 3 experts of 2 (need 1 <= k <= E)}}
  %dx, %dw, %da, %db = graph.moe_experts_grad %dy, %x, %i, %w, %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x3xi64>, tensor<4x3xf32>, tensor<2x16x8xf32>, tensor<2x8x8xf32>) -> (tensor<4x8xf32>, tensor<4x3xf32>, tensor<2x16x8xf32>, tensor<2x8x8xf32>)
  return
}

// -----

func.func @expert_load_shapes(%i: tensor<4x2x1xi64>) {
  // expected-error @+1 {{needs indices [T, k] and a result [E] with E >= 1, got 'tensor<4x2x1xi64>' and 'tensor<8xf32>'}}
  %c = graph.expert_load %i : tensor<4x2x1xi64> -> tensor<8xf32>
  return
}

// -----

func.func @expert_load_shapes(%i: tensor<4x2xi64>) {
  // expected-error @+1 {{needs indices [T, k] and a result [E] with E >= 1, got 'tensor<4x2xi64>' and 'tensor<0xf32>'}}
  %c = graph.expert_load %i : tensor<4x2xi64> -> tensor<0xf32>
  return
}

// -----

func.func @expert_load_f32(%i: tensor<4x2xi64>) {
  // expected-error @+1 {{counts in f32, got 'tensor<8xbf16>'}}
  %c = graph.expert_load %i : tensor<4x2xi64> -> tensor<8xbf16>
  return
}

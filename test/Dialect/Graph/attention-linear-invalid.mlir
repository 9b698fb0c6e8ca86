// RUN: paracc-opt %s -split-input-file -verify-diagnostics

// One case per error graph.attention and graph.linear can emit: each named
// check of their type inference and verifier in GraphOps.cpp (the function
// is named after it), the result-type check of inference, and their ODS
// constraints. Errors from type inference are followed by the generic
// "failed to infer returned types".

//===----------------------------------------------------------------------===//
// graph.attention
//===----------------------------------------------------------------------===//

func.func @attention_ods_float_operands(%q: tensor<2x8x16xi32>, %k: tensor<2x8x16xi32>, %v: tensor<2x8x16xi32>) {
  // expected-error @+1 {{'graph.attention' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<2x8x16xi32>'}}
  %0 = graph.attention %q, %k, %v {scale = 1.0 : f64} : (tensor<2x8x16xi32>, tensor<2x8x16xi32>, tensor<2x8x16xi32>) -> tensor<2x8x16xi32>
  return
}

// -----

func.func @attention_ods_float_mask(%q: tensor<2x8x16xf32>, %m: tensor<8x8xi1>) {
  // expected-error @+1 {{'graph.attention' op operand #3 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<8x8xi1>'}}
  %0 = graph.attention %q, %q, %q, %m {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x8xi1>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_ods_start_scalar(%q: tensor<2x8x16xf32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'graph.attention' op operand #3 must be 0D tensor of 64-bit signless integer values, but got 'tensor<1xi64>'}}
  %0 = graph.attention %q, %q, %q start(%s) {causal = true, scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<1xi64>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_ods_float_result(%q: tensor<2x8x16xf32>) {
  // expected-error @+1 {{'graph.attention' op result #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<2x8x16xi32>'}}
  %0 = graph.attention %q, %q, %q {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xi32>
  return
}

// -----

func.func @attention_ods_scale_required(%q: tensor<2x8x16xf32>) {
  // expected-error @+1 {{'graph.attention' op requires attribute 'scale'}}
  %0 = graph.attention %q, %q, %q : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_ods_scale_f64(%q: tensor<2x8x16xf32>) {
  // expected-error @+1 {{'graph.attention' op attribute 'scale' failed to satisfy constraint: 64-bit float attribute}}
  %0 = graph.attention %q, %q, %q {scale = 1.0 : f32} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_ods_causal_bool(%q: tensor<2x8x16xf32>) {
  // expected-error @+1 {{'graph.attention' op attribute 'causal' failed to satisfy constraint: bool attribute}}
  %0 = graph.attention %q, %q, %q {scale = 1.0 : f64, causal = 1 : i64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_window_needs_causal(%q: tensor<2x8x16xf32>) {
  // expected-error @+2 {{requires window >= 0, and causal with a window > 0, got window 4 without causal}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %q {scale = 1.0 : f64, window = 4 : i64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_window_non_negative(%q: tensor<2x8x16xf32>) {
  // expected-error @+2 {{requires window >= 0, and causal with a window > 0, got window -1}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %q {scale = 1.0 : f64, causal = true, window = -1 : i64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_operand_ranks_ge_2(%q: tensor<16xf32>) {
  // expected-error @+2 {{requires q, k and v of the same rank >= 2}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %q {scale = 1.0 : f64} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @attention_operand_ranks_k(%q: tensor<2x8x16xf32>, %k: tensor<8x16xf32>) {
  // expected-error @+2 {{requires q, k and v of the same rank >= 2}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %k, %q {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_operand_ranks_v(%q: tensor<2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+2 {{requires q, k and v of the same rank >= 2}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %v {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_operand_ranks_sequence_first(%q: tensor<8x16xf32>) {
  // expected-error @+2 {{requires q, k and v of the same rank >= 3 (sequence_first)}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %q {scale = 1.0 : f64, sequence_first = true} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @attention_batch_dims_match_sequence_first(%q: tensor<2x8x4x16xf32>, %k: tensor<2x8x3x16xf32>) {
  // Sequence-first: the head dims (second to last) must agree, or k's
  // divide q's (grouped-query attention); 3 does not divide 4.
  // expected-error @+2 {{requires equal leading dims (k and v may have a divisor of q's heads), got [2,8,4,16], [2,8,3,16] and [2,8,3,16]}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %k, %k {scale = 1.0 : f64, sequence_first = true} : (tensor<2x8x4x16xf32>, tensor<2x8x3x16xf32>, tensor<2x8x3x16xf32>) -> tensor<2x8x4x16xf32>
  return
}

// -----

func.func @attention_mask_broadcasts_sequence_first(%q: tensor<2x8x4x16xf32>, %m: tensor<8x4x8xf32>) {
  // Sequence-first: the mask broadcasts to [B, H, Sq, Sk], not [B, Sq, H, Sk].
  // expected-error @+2 {{requires the mask to broadcast to [2,4,8,8]}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %q, %m {scale = 1.0 : f64, sequence_first = true} : (tensor<2x8x4x16xf32>, tensor<2x8x4x16xf32>, tensor<2x8x4x16xf32>, tensor<8x4x8xf32>) -> tensor<2x8x4x16xf32>
  return
}

// -----

func.func @attention_same_element_type_k(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf16>) {
  // expected-error @+2 {{requires q, k and v of one element type}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %k, %q {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x8x16xf16>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_same_element_type_v(%q: tensor<2x8x16xf32>, %v: tensor<2x8x16xbf16>) {
  // expected-error @+2 {{requires q, k and v of one element type}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %v {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xbf16>) -> tensor<2x8x16xf32>
  return
}

// -----

// Fewer k/v heads must divide the query heads (grouped-query attention);
// the other leading dims must be equal, not merely broadcast-compatible.
func.func @attention_batch_dims_match(%q: tensor<1x8x4x16xf32>, %k: tensor<1x3x4x16xf32>) {
  // expected-error @+2 {{requires equal leading dims (k and v may have a divisor of q's heads), got [1,8,4,16], [1,3,4,16] and [1,3,4,16]}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %k, %k {scale = 1.0 : f64} : (tensor<1x8x4x16xf32>, tensor<1x3x4x16xf32>, tensor<1x3x4x16xf32>) -> tensor<1x8x4x16xf32>
  return
}

// -----

func.func @attention_batch_dims_match_broadcastable(%q: tensor<2x4x16xf32>, %k: tensor<1x4x16xf32>) {
  // expected-error @+2 {{requires equal leading dims (k and v may have a divisor of q's heads), got [2,4,16], [1,4,16] and [2,4,16]}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %k, %q {scale = 1.0 : f64} : (tensor<2x4x16xf32>, tensor<1x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}

// -----

func.func @attention_head_dims_qk(%q: tensor<2x8x16xf32>, %k: tensor<2x8x32xf32>) {
  // expected-error @+2 {{requires q and k to share the head dim and k and v the key count}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %k, %k {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  return
}

// -----

func.func @attention_head_dims_kv(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x12x16xf32>) {
  // expected-error @+2 {{requires q and k to share the head dim and k and v the key count}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %k, %v {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x12x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

// The mask must broadcast to the scores [2, 8, 10]: [10, 8] is transposed.
func.func @attention_mask_broadcasts(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %m: tensor<10x8xf32>) {
  // expected-error @+2 {{requires the mask to broadcast to [2,8,10]}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %k, %k, %m {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x10x16xf32>, tensor<10x8xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

// A mask that would broadcast the scores to a larger shape.
func.func @attention_mask_broadcasts_rank(%q: tensor<2x8x16xf32>, %m: tensor<3x2x8x8xf32>) {
  // expected-error @+2 {{requires the mask to broadcast to [2,8,8]}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %q, %m {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<3x2x8x8xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_mask_element_type(%q: tensor<2x8x16xf32>, %m: tensor<8x8xf16>) {
  // expected-error @+2 {{requires the mask to broadcast to [2,8,8]}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %q, %m {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x8xf16>) -> tensor<2x8x16xf32>
  return
}

// -----

// The result is [..., Sq, Dv]: v's last dim, not q's.
func.func @attention_inferred_result_shape(%q: tensor<2x8x16xf32>, %v: tensor<2x8x32xf32>) {
  // expected-error @+2 {{'graph.attention' op inferred type(s) 'tensor<2x8x32xf32>' are incompatible with return type(s) of operation 'tensor<2x8x16xf32>'}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %v {scale = 1.0 : f64} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x32xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @attention_inferred_result_element_type(%q: tensor<2x8x16xbf16>) {
  // expected-error @+2 {{'graph.attention' op inferred type(s) 'tensor<2x8x16xbf16>' are incompatible with return type(s) of operation 'tensor<2x8x16xf32>'}}
  // expected-error @+1 {{'graph.attention' op failed to infer returned types}}
  %0 = graph.attention %q, %q, %q {scale = 1.0 : f64} : (tensor<2x8x16xbf16>, tensor<2x8x16xbf16>, tensor<2x8x16xbf16>) -> tensor<2x8x16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.linear
//===----------------------------------------------------------------------===//

func.func @linear_ods_float_operands(%x: tensor<4x8xi32>, %w: tensor<8x16xi32>) {
  // expected-error @+1 {{'graph.linear' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4x8xi32>'}}
  %0 = graph.linear %x, %w : (tensor<4x8xi32>, tensor<8x16xi32>) -> tensor<4x16xi32>
  return
}

// -----

func.func @linear_ods_float_bias(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xi32>) {
  // expected-error @+1 {{'graph.linear' op operand #2 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<16xi32>'}}
  %0 = graph.linear %x, %w, %b : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xi32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_ods_float_result(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) {
  // expected-error @+1 {{'graph.linear' op result #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4x16xi32>'}}
  %0 = graph.linear %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xi32>
  return
}

// -----

func.func @linear_ods_activation_string(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) {
  // expected-error @+1 {{'graph.linear' op attribute 'activation' failed to satisfy constraint: string attribute}}
  %0 = graph.linear %x, %w {activation = 1 : i64} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_weight_matrix_rank(%x: tensor<4x8xf32>, %w: tensor<1x8x16xf32>) {
  // expected-error @+2 {{requires x [..., K] and w [K, N], got [4,8] and [1,8,16]}}
  // expected-error @+1 {{'graph.linear' op failed to infer returned types}}
  %0 = graph.linear %x, %w : (tensor<4x8xf32>, tensor<1x8x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_weight_matrix_scalar_x(%x: tensor<f32>, %w: tensor<1x16xf32>) {
  // expected-error @+2 {{requires x [..., K] and w [K, N], got [] and [1,16]}}
  // expected-error @+1 {{'graph.linear' op failed to infer returned types}}
  %0 = graph.linear %x, %w : (tensor<f32>, tensor<1x16xf32>) -> tensor<16xf32>
  return
}

// -----

// w is [N, K] (a transposed weight): graph.linear takes [K, N].
func.func @linear_weight_matrix_contracting(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) {
  // expected-error @+2 {{requires x [..., K] and w [K, N], got [4,8] and [16,8]}}
  // expected-error @+1 {{'graph.linear' op failed to infer returned types}}
  %0 = graph.linear %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_same_element_type(%x: tensor<4x8xf32>, %w: tensor<8x16xbf16>) {
  // expected-error @+2 {{requires x and w of one element type}}
  // expected-error @+1 {{'graph.linear' op failed to infer returned types}}
  %0 = graph.linear %x, %w : (tensor<4x8xf32>, tensor<8x16xbf16>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_bias_shape_size(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{requires a bias of shape [16]}}
  // expected-error @+1 {{'graph.linear' op failed to infer returned types}}
  %0 = graph.linear %x, %w, %b : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<4x16xf32>
  return
}

// -----

// A bias that would broadcast (a row [1, N] or a full [M, N]) is not a bias
// vector.
func.func @linear_bias_shape_rank(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<1x16xf32>) {
  // expected-error @+2 {{requires a bias of shape [16]}}
  // expected-error @+1 {{'graph.linear' op failed to infer returned types}}
  %0 = graph.linear %x, %w, %b : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<1x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_bias_shape_element_type(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf16>) {
  // expected-error @+2 {{requires a bias of shape [16]}}
  // expected-error @+1 {{'graph.linear' op failed to infer returned types}}
  %0 = graph.linear %x, %w, %b : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf16>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_inferred_result_shape(%x: tensor<2x4x8xf32>, %w: tensor<8x16xf32>) {
  // expected-error @+2 {{'graph.linear' op inferred type(s) 'tensor<2x4x16xf32>' are incompatible with return type(s) of operation 'tensor<8x16xf32>'}}
  // expected-error @+1 {{'graph.linear' op failed to infer returned types}}
  %0 = graph.linear %x, %w : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @linear_inferred_result_element_type(%x: tensor<4x8xf16>, %w: tensor<8x16xf16>) {
  // expected-error @+2 {{'graph.linear' op inferred type(s) 'tensor<4x16xf16>' are incompatible with return type(s) of operation 'tensor<4x16xf32>'}}
  // expected-error @+1 {{'graph.linear' op failed to infer returned types}}
  %0 = graph.linear %x, %w : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_activation_kind(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) {
  // expected-error @+1 {{'graph.linear' op requires activation "none", "gelu_tanh", "gelu" or "relu", got "silu"}}
  %0 = graph.linear %x, %w {activation = "silu"} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

// The GELU kinds are spelled as in the activation list, not as graph.gelu's
// approximate attribute.
func.func @linear_activation_kind_tanh(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) {
  // expected-error @+1 {{'graph.linear' op requires activation "none", "gelu_tanh", "gelu" or "relu", got "tanh"}}
  %0 = graph.linear %x, %w {activation = "tanh"} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_residual_type(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %r: tensor<1x16xf32>) {
  // A residual is the result's type exactly (no broadcast).
  // expected-error @+2 {{requires a residual of the result type 'tensor<4x16xf32>', got 'tensor<1x16xf32>'}}
  // expected-error @+1 {{'graph.linear' op failed to infer returned types}}
  %0 = graph.linear %x, %w residual %r : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<1x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_residual_without_activation(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %r: tensor<4x16xf32>) {
  // expected-error @+1 {{'graph.linear' op requires activation "none" with a residual, got "gelu_tanh"}}
  %0 = graph.linear %x, %w, %b residual %r {activation = "gelu_tanh"} : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_f32_result_operands(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) {
  // expected-error @+1 {{'graph.linear' op requires bf16 or f16 operands with f32_result, got 'f32'}}
  %0 = graph.linear %x, %w {f32_result = true} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_f32_result_alone(%x: tensor<4x8xbf16>, %w: tensor<8x16xbf16>, %b: tensor<16xbf16>) {
  // expected-error @+1 {{'graph.linear' op requires no bias, residual or activation with f32_result}}
  %0 = graph.linear %x, %w, %b {f32_result = true} : (tensor<4x8xbf16>, tensor<8x16xbf16>, tensor<16xbf16>) -> tensor<4x16xf32>
  return
}

// RUN: paracc-opt %s -split-input-file -verify-diagnostics

// One case per constraint of GraphTrainingOps.cpp, named after it.

func.func @layer_norm_grad_axis_in_range(%dy: tensor<2x8xf32>, %x: tensor<2x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'graph.layer_norm_grad' op requires axis in [0, 2), got 2}}
  %dx, %ds, %db = graph.layer_norm_grad %dy, %x, %s {axis = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<2x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @layer_norm_grad_epsilon_non_negative(%dy: tensor<2x8xf32>, %x: tensor<2x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'graph.layer_norm_grad' op requires a finite, non-negative epsilon, got -1.000000e+00}}
  %dx, %ds, %db = graph.layer_norm_grad %dy, %x, %s {axis = 1 : i64, epsilon = -1.0 : f64} : tensor<2x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @norm_grad_scale_covers_normalized_dims(%dy: tensor<2x8xf32>, %x: tensor<2x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'graph.rms_norm_grad' op requires a scale with the normalized shape [8], got [4]}}
  %dx, %ds = graph.rms_norm_grad %dy, %x, %s {axis = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x8xf32>, tensor<4xf32>
  return
}

// -----

func.func @norm_grad_accumulate_type(%dy: tensor<2x8xf32>, %x: tensor<2x8xf32>, %s: tensor<8xf32>, %g: tensor<2x8xbf16>) {
  // expected-error @+1 {{'graph.layer_norm_grad' op failed to verify that accumulate has x's type}}
  %dx, %ds, %db = "graph.layer_norm_grad"(%dy, %x, %s, %g) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xbf16>) -> (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @gelu_approximation_known(%dy: tensor<4xf32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.gelu_grad' op requires approximate "none" or "tanh", got "fast"}}
  %dx = graph.gelu_grad %dy, %x {approximate = "fast"} : tensor<4xf32>
  return
}

// -----

func.func @attention_grad_dy_shape(%dy: tensor<2x4x8xf32>, %q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x16xf32>) {
  // expected-error @+1 {{'graph.attention_grad' op requires dy of the attention result's shape [2,4,16], got [2,4,8]}}
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %k, %v {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32>) -> (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32>)
  return
}

// -----

func.func @attention_grad_window(%dy: tensor<2x4x8xf32>, %q: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'graph.attention_grad' op requires window >= 0, and causal with a window > 0, got window 3 without causal}}
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %q, %q {scale = 1.0 : f64, window = 3 : i64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  return
}

// -----

func.func @attention_grad_window_non_negative(%dy: tensor<2x4x8xf32>, %q: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'graph.attention_grad' op requires window >= 0, and causal with a window > 0, got window -2}}
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %q, %q {scale = 1.0 : f64, causal = true, window = -2 : i64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  return
}

// -----

func.func @attention_grad_ranks(%dy: tensor<4xf32>, %q: tensor<4xf32>) {
  // expected-error @+1 {{'graph.attention_grad' op requires q, k and v of the same rank >= 2}}
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %q, %q {scale = 1.0 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @cross_entropy_grad_scores_rank(%g: tensor<4xf32>, %s: tensor<4xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'graph.cross_entropy_grad' op requires scores of rank >= 2 ([N, C, d...]), got [4]}}
  %d = graph.cross_entropy_grad %g, %s, %l : (tensor<4xf32>, tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @cross_entropy_grad_element_shapes(%g: tensor<4xf32>, %s: tensor<4x10xf32>, %l: tensor<3xi64>) {
  // expected-error @+1 {{'graph.cross_entropy_grad' op requires labels and dloss of shape [4] (scores without the class dim)}}
  %d = graph.cross_entropy_grad %g, %s, %l : (tensor<4xf32>, tensor<4x10xf32>, tensor<3xi64>) -> tensor<4x10xf32>
  return
}

// -----

func.func @cross_entropy_grad_weight_shape(%g: tensor<4xf32>, %s: tensor<4x10xf32>, %l: tensor<4xi64>, %w: tensor<9xf32>) {
  // expected-error @+1 {{'graph.cross_entropy_grad' op requires a weight of shape [10]}}
  %d = graph.cross_entropy_grad %g, %s, %l, %w : (tensor<4xf32>, tensor<4x10xf32>, tensor<4xi64>, tensor<9xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @cross_entropy_grad_stats_shape(%g: tensor<4xf32>, %s: tensor<4x10xf32>, %l: tensor<4xi64>, %st: tensor<4xf32>) {
  // expected-error @+1 {{'graph.cross_entropy_grad' op requires statistics of shape [4,2], got [4]}}
  %d = graph.cross_entropy_grad %g, %s, %l stats(%st) : (tensor<4xf32>, tensor<4x10xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @cross_entropy_grad_stats_of_logits(%g: tensor<4xf32>, %s: tensor<4x10xf32>, %l: tensor<4xi64>, %st: tensor<4x2xf32>) {
  // expected-error @+1 {{'graph.cross_entropy_grad' op takes softmax statistics only for logits (log_prob = false)}}
  %d = graph.cross_entropy_grad %g, %s, %l stats(%st) {log_prob = true} : (tensor<4xf32>, tensor<4x10xf32>, tensor<4xi64>, tensor<4x2xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @sce_stats_shape(%s: tensor<4x10xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'graph.softmax_cross_entropy_with_stats' op requires statistics of shape [4,2], got [4,3]}}
  %loss, %st = graph.softmax_cross_entropy_with_stats %s, %l : (tensor<4x10xf32>, tensor<4xi64>) -> (tensor<f32>, tensor<4x3xf32>)
  return
}

// -----

func.func @gather_grad_axis_in_range(%dy: tensor<3x4xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'graph.gather_grad' op requires axis in [0, 2), got 2}}
  %d = graph.gather_grad %dy, %i {axis = 2 : i64} : (tensor<3x4xf32>, tensor<3xi64>) -> tensor<10x4xf32>
  return
}

// -----

func.func @gather_grad_dy_shape(%dy: tensor<3x5xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'graph.gather_grad' op requires dy of the gathered shape [3,4], got [3,5]}}
  %d = graph.gather_grad %dy, %i {axis = 0 : i64} : (tensor<3x5xf32>, tensor<3xi64>) -> tensor<10x4xf32>
  return
}

// -----

func.func @gather_grad_same_element_type(%dy: tensor<3x4xf16>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'graph.gather_grad' op requires dy and the result of one element type}}
  %d = graph.gather_grad %dy, %i {axis = 0 : i64} : (tensor<3x4xf16>, tensor<3xi64>) -> tensor<10x4xf32>
  return
}

// -----

func.func @gather_grad_accumulate_type(%dy: tensor<3x4xf32>, %i: tensor<3xi64>, %g: tensor<10x4xbf16>) {
  // expected-error @+1 {{'graph.gather_grad' op failed to verify that accumulate has the result's type}}
  %d = graph.gather_grad %dy, %i accumulate %g {axis = 0 : i64} : (tensor<3x4xf32>, tensor<3xi64>, tensor<10x4xbf16>) -> tensor<10x4xf32>
  return
}

// -----

func.func @optimizer_coefficient_in_range(%p: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.adamw' op requires beta1 in [0, 1), got 1.000000e+00}}
  %a, %b, %c = graph.adamw %p, %p, %p, %p, %s, %s, %s {beta1 = 1.0 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<4xf32>
  return
}

// -----

func.func @adamw_eps_positive(%p: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.adamw' op requires a finite eps > 0, got 0.000000e+00}}
  %a, %b, %c = graph.adamw %p, %p, %p, %p, %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 0.0 : f64, weight_decay = 0.1 : f64} : tensor<4xf32>
  return
}

// -----

func.func @weight_decay_non_negative(%p: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.sgd' op requires a finite weight_decay >= 0, got -1.000000e-01}}
  %a, %b = graph.sgd %p, %p, %p, %s, %s, %s {momentum = 0.9 : f64, dampening = 0.0 : f64, weight_decay = -0.1 : f64, nesterov = false} : tensor<4xf32>
  return
}

// -----

func.func @sgd_momentum_in_range(%p: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.sgd' op requires momentum in [0, 1], got 2.000000e+00}}
  %a, %b = graph.sgd %p, %p, %p, %s, %s, %s {momentum = 2.0 : f64, dampening = 0.0 : f64, weight_decay = 0.0 : f64, nesterov = false} : tensor<4xf32>
  return
}

// -----

func.func @adamw_scalar_lr(%p: tensor<4xf32>, %s: tensor<f32>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'graph.adamw' op operand #4 must be 0D tensor of 32-bit float values, but got 'tensor<2xf32>'}}
  %a, %b, %c = "graph.adamw"(%p, %p, %p, %p, %v, %s, %s) {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @dropout_ratio_range(%x: tensor<2x8xf32>, %s: tensor<f32>, %o: tensor<2xi64>) {
  // expected-error @+1 {{requires a ratio in [0, 1), got 1}}
  %0 = graph.dropout %x, %s, %o {ratio = 1.0 : f64, seed = 0 : i64, stream = 0 : i64} : tensor<2x8xf32>, tensor<2xi64>
  return
}

// -----

func.func @dropout_offsets_per_dim(%x: tensor<2x8xf32>, %s: tensor<f32>, %o: tensor<3xi64>) {
  // expected-error @+1 {{requires one offset per dim of x (2), got 'tensor<3xi64>'}}
  %0 = graph.dropout %x, %s, %o {ratio = 0.5 : f64, seed = 0 : i64, stream = 0 : i64} : tensor<2x8xf32>, tensor<3xi64>
  return
}

// -----

func.func @foreach_adamw_grad_type(%p: tensor<4xf32>, %g: tensor<2xbf16>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.foreach_adamw' op requires gradient 0 to have the shape of 'tensor<4xf32>' and a floating type of at most 32 bits, got 'tensor<2xbf16>'}}
  %r:3 = graph.foreach_adamw %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} [%p, %g, %p, %p : tensor<4xf32>, tensor<2xbf16>]
  return
}

// -----

func.func @foreach_adamw_f32_state(%p: tensor<4xbf16>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.foreach_adamw' op requires f32 parameters, got 'tensor<4xbf16>' for parameter 0}}
  %r:3 = graph.foreach_adamw %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} [%p, %p, %p, %p : tensor<4xbf16>, tensor<4xbf16>]
  return
}

// -----

func.func @foreach_adamw_group_types(%p: tensor<4xf32>, %m: tensor<2x2xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.foreach_adamw' op requires the moments and results of parameter 0 to have its type 'tensor<4xf32>', got 'tensor<2x2xf32>'}}
  %r:3 = "graph.foreach_adamw"(%p, %p, %m, %p, %s, %s, %s) {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, resultSegmentSizes = array<i32: 1, 1, 1, 0>, weight_decay = 0.1 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @foreach_adamw_copies(%p: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.foreach_adamw' op requires no parameter copies or one per parameter, got 2 for 1 parameters}}
  %r:5 = "graph.foreach_adamw"(%p, %p, %p, %p, %s, %s, %s) {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, resultSegmentSizes = array<i32: 1, 1, 1, 2>, weight_decay = 0.1 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>, tensor<4xbf16>)
  return
}

// -----

func.func @foreach_adamw_copy_type(%p: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.foreach_adamw' op requires copy 0 to have the shape of parameter 0 and a bf16 or f16 element type, got 'tensor<4xf32>'}}
  %r:4 = graph.foreach_adamw %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} [%p, %p, %p, %p : tensor<4xf32>, tensor<4xf32> -> f32]
  return
}

// -----

func.func @foreach_adamw_copy_groups(%p: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{expected '-> T' in every group or none}}
  %r:7 = graph.foreach_adamw %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} [%p, %p, %p, %p : tensor<4xf32>, tensor<4xf32> -> bf16], [%p, %p, %p, %p : tensor<4xf32>, tensor<4xf32>]
  return
}

// -----

func.func @foreach_adamw_not_empty(%s: tensor<f32>) {
  // expected-error @+1 {{'graph.foreach_adamw' op requires at least one parameter}}
  "graph.foreach_adamw"(%s, %s, %s) {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : (tensor<f32>, tensor<f32>, tensor<f32>) -> ()
  return
}

// -----

func.func @foreach_adamw_eps_positive(%p: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.foreach_adamw' op requires a finite eps > 0, got 0.000000e+00}}
  %r:3 = graph.foreach_adamw %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 0.0 : f64, weight_decay = 0.1 : f64} [%p, %p, %p, %p : tensor<4xf32>, tensor<4xf32>]
  return
}

// -----

func.func @foreach_sum_square_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.foreach_sum_square' op requires at least one operand and an f32 result of one element per operand, got 2 operands and 'tensor<3xf32>'}}
  %r = graph.foreach_sum_square %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @foreach_cast_pairs(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.foreach_cast' op requires as many results as operands (at least one), got 2 operands and 1 results}}
  %r = graph.foreach_cast %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xbf16>
  return
}

// -----

func.func @foreach_cast_types(%x: tensor<4xf32>, %y: tensor<4xbf16>) {
  // expected-error @+1 {{'graph.foreach_cast' op requires one operand and one result element type, got 'tensor<4xbf16>' -> 'tensor<4xf32>' at 1}}
  %r:2 = graph.foreach_cast %x, %y : tensor<4xf32>, tensor<4xbf16> -> tensor<4xbf16>, tensor<4xf32>
  return
}

// -----

func.func @foreach_cast_shapes(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.foreach_cast' op requires result 0 to have the shape of its operand, got 'tensor<4xf32>' -> 'tensor<2x2xbf16>'}}
  %r = graph.foreach_cast %x : tensor<4xf32> -> tensor<2x2xbf16>
  return
}

// -----

func.func @attention_grad_saved_pair(%dy: tensor<2x4x8xf32>, %q: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'graph.attention_grad' op requires the saved result and statistics together}}
  %dq, %dk, %dv = "graph.attention_grad"(%dy, %q, %q, %q, %dy) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 1, 0>, scale = 1.0 : f64}> : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  return
}

// -----

func.func @attention_grad_saved_result(%dy: tensor<2x4x8xf32>, %q: tensor<2x4x8xf32>, %y: tensor<2x4x8xbf16>, %lse: tensor<2x4xf32>) {
  // expected-error @+1 {{'graph.attention_grad' op requires the saved result of dy's type 'tensor<2x4x8xf32>', got 'tensor<2x4x8xbf16>'}}
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %q, %q saved(%y, %lse) {scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xbf16>, tensor<2x4xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  return
}

// -----

func.func @attention_grad_saved_stats(%dy: tensor<2x4x3x8xf32>, %q: tensor<2x4x3x8xf32>, %lse: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'graph.attention_grad' op requires statistics of shape [2,3,4], got [2,4,3]}}
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %q, %q saved(%dy, %lse) {scale = 1.0 : f64, sequence_first = true} : (tensor<2x4x3x8xf32>, tensor<2x4x3x8xf32>, tensor<2x4x3x8xf32>, tensor<2x4x3x8xf32>, tensor<2x4x3x8xf32>, tensor<2x4x3xf32>) -> (tensor<2x4x3x8xf32>, tensor<2x4x3x8xf32>, tensor<2x4x3x8xf32>)
  return
}

// -----

func.func @attention_grad_key_block_saved(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'graph.attention_grad' op requires the saved result and statistics with key_block (they are the whole attention's)}}
  %dq, %dk, %dv = graph.attention_grad %x, %x, %x, %x {key_block = true, scale = 1.0 : f64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  return
}

// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-moe-capacity=capacity-factor=1.0 | FileCheck %s

// Two sequences of 16 tokens, k = 2 of 4 experts: an even share is 8 picks
// per sequence and expert, so C = 8. Each token's picks are counted per
// expert, summed along its sequence (cumsum over [2, 16, 4]'s dim 1),
// compared with C, gathered back to the picks and multiplied into the
// routing weights that the experts op reads.
// CHECK-LABEL: func.func @two_sequences
// CHECK-SAME: (%[[H:.*]]: tensor<2x16x32xf32>, %[[I:.*]]: tensor<32x2xi64>, %[[W:.*]]: tensor<32x2xf32>
// CHECK: %[[X:.*]] = graph.reshape %[[H]] : tensor<2x16x32xf32> -> tensor<32x32xf32>
// CHECK-DAG: %[[IDS:.*]] = graph.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
// CHECK-DAG: %[[PICKS:.*]] = graph.reshape %[[I]] : tensor<32x2xi64> -> tensor<32x2x1xi64>
// CHECK: %[[HIT:.*]] = graph.equal %[[PICKS]], %[[IDS]] : (tensor<32x2x1xi64>, tensor<4xi64>) -> tensor<32x2x4xi1>
// CHECK: %[[HITS:.*]] = graph.cast %[[HIT]] : tensor<32x2x4xi1> -> tensor<32x2x4xf32>
// CHECK: %[[PER:.*]] = graph.reduce_sum %[[HITS]], [1] {keepdims = false} : tensor<32x2x4xf32> -> tensor<32x4xf32>
// CHECK: %[[SEQ:.*]] = graph.reshape %[[PER]] : tensor<32x4xf32> -> tensor<2x16x4xf32>
// CHECK: %[[PLACE:.*]] = graph.cumsum %[[SEQ]] {axis = 1 : i64} : tensor<2x16x4xf32>
// CHECK: %[[FLAT:.*]] = graph.reshape %[[PLACE]] : tensor<2x16x4xf32> -> tensor<32x4xf32>
// CHECK: %[[C:.*]] = graph.constant dense<8.000000e+00> : tensor<f32>
// CHECK: %[[FITS:.*]] = graph.less_equal %[[FLAT]], %[[C]] : (tensor<32x4xf32>, tensor<f32>) -> tensor<32x4xi1>
// CHECK: %[[FITSF:.*]] = graph.cast %[[FITS]] : tensor<32x4xi1> -> tensor<32x4xf32>
// CHECK: %[[KEPT:.*]] = graph.gather_elements %[[FITSF]], %[[I]] {axis = 1 : i64} : (tensor<32x4xf32>, tensor<32x2xi64>) -> tensor<32x2xf32>
// CHECK: %[[W2:.*]] = graph.mul %[[W]], %[[KEPT]] : (tensor<32x2xf32>, tensor<32x2xf32>) -> tensor<32x2xf32>
// CHECK: graph.moe_experts %[[X]], %[[I]], %[[W2]],
func.func @two_sequences(%h: tensor<2x16x32xf32>, %i: tensor<32x2xi64>, %w: tensor<32x2xf32>, %a: tensor<4x96x32xf32>, %b: tensor<4x32x48xf32>) -> tensor<32x32xf32> {
  %x = graph.reshape %h : tensor<2x16x32xf32> -> tensor<32x32xf32>
  %y = graph.moe_experts %x, %i, %w, %a, %b : (tensor<32x32xf32>, tensor<32x2xi64>, tensor<32x2xf32>, tensor<4x96x32xf32>, tensor<4x32x48xf32>) -> tensor<32x32xf32>
  return %y : tensor<32x32xf32>
}

// -----

// bf16 routing weights: the kept picks are cast to them.
// CHECK-LABEL: func.func @bf16_weights
// CHECK: %[[KEPT:.*]] = graph.gather_elements {{.*}} -> tensor<8x2xf32>
// CHECK: %[[KB:.*]] = graph.cast %[[KEPT]] : tensor<8x2xf32> -> tensor<8x2xbf16>
// CHECK: graph.mul %{{.*}}, %[[KB]] : (tensor<8x2xbf16>, tensor<8x2xbf16>) -> tensor<8x2xbf16>
func.func @bf16_weights(%h: tensor<1x8x4xbf16>, %i: tensor<8x2xi64>, %w: tensor<8x2xbf16>, %a: tensor<4x12x4xbf16>, %b: tensor<4x4x6xbf16>) -> tensor<8x4xbf16> {
  %x = graph.reshape %h : tensor<1x8x4xbf16> -> tensor<8x4xbf16>
  %y = graph.moe_experts %x, %i, %w, %a, %b : (tensor<8x4xbf16>, tensor<8x2xi64>, tensor<8x2xbf16>, tensor<4x12x4xbf16>, tensor<4x4x6xbf16>) -> tensor<8x4xbf16>
  return %y : tensor<8x4xbf16>
}

// -----

// Tokens whose sequences cannot be told: refused at the op.
func.func @no_sequences(%x: tensor<8x4xf32>, %i: tensor<8x2xi64>, %w: tensor<8x2xf32>, %a: tensor<4x12x4xf32>, %b: tensor<4x4x6xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{--moe-capacity-factor counts each expert's picks per sequence, but this experts op's tokens 'tensor<8x4xf32>' are not a reshape of [batch, seq, hidden]}}
  %y = graph.moe_experts %x, %i, %w, %a, %b : (tensor<8x4xf32>, tensor<8x2xi64>, tensor<8x2xf32>, tensor<4x12x4xf32>, tensor<4x4x6xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

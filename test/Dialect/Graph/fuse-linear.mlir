// RUN: paracc-opt %s -split-input-file --paracc-fuse-linear | FileCheck %s

// A matmul by a 2-D weight (or a Gemm without transposes and with alpha and
// beta 1), the add of a bias vector [N] when the product has no other user,
// and a following GELU or ReLU when the sum has no other user, become one
// graph.linear. A bare matmul stays a matmul.

//===----------------------------------------------------------------------===//
// Fused
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmul_bias
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xf32>, %[[W:[^:]+]]: tensor<64x256xf32>, %[[B:[^:]+]]: tensor<256xf32>)
// CHECK-NEXT: %[[L:.*]] = graph.linear %[[X]], %[[W]], %[[B]] : (tensor<2x8x64xf32>, tensor<64x256xf32>, tensor<256xf32>) -> tensor<2x8x256xf32>
// CHECK-NEXT: return %[[L]]
func.func @matmul_bias(%x: tensor<2x8x64xf32>, %w: tensor<64x256xf32>, %b: tensor<256xf32>) -> tensor<2x8x256xf32> {
  %0 = graph.matmul %x, %w : (tensor<2x8x64xf32>, tensor<64x256xf32>) -> tensor<2x8x256xf32>
  %1 = graph.add %0, %b : (tensor<2x8x256xf32>, tensor<256xf32>) -> tensor<2x8x256xf32>
  return %1 : tensor<2x8x256xf32>
}

// -----

// The bias on the left of the add; weights and bias from graph.weight.
// CHECK-LABEL: func.func @bias_lhs_weights
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x64xf32>)
// CHECK-NEXT: %[[W:.*]] = graph.weight "fc.weight" : tensor<64x32xf32>
// CHECK-NEXT: %[[B:.*]] = graph.weight "fc.bias" : tensor<32xf32>
// CHECK-NEXT: %[[L:.*]] = graph.linear %[[X]], %[[W]], %[[B]] : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: return %[[L]]
func.func @bias_lhs_weights(%x: tensor<8x64xf32>) -> tensor<8x32xf32> {
  %w = graph.weight "fc.weight" : tensor<64x32xf32>
  %b = graph.weight "fc.bias" : tensor<32xf32>
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = graph.add %b, %0 : (tensor<32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// -----

// The activations: GELU's tanh form is "gelu_tanh", its erf form "gelu".
// CHECK-LABEL: func.func @bias_gelu_tanh
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x64xf32>, %[[W:[^:]+]]: tensor<64x256xf32>, %[[B:[^:]+]]: tensor<256xf32>)
// CHECK-NEXT: %[[L:.*]] = graph.linear %[[X]], %[[W]], %[[B]] {activation = "gelu_tanh"} : (tensor<8x64xf32>, tensor<64x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
// CHECK-NEXT: return %[[L]]
func.func @bias_gelu_tanh(%x: tensor<8x64xf32>, %w: tensor<64x256xf32>, %b: tensor<256xf32>) -> tensor<8x256xf32> {
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
  %1 = graph.add %0, %b : (tensor<8x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
  %2 = graph.gelu %1 {approximate = "tanh"} : tensor<8x256xf32>
  return %2 : tensor<8x256xf32>
}

// -----

// CHECK-LABEL: func.func @bias_gelu_erf
// CHECK-NEXT: %[[L:.*]] = graph.linear %{{.*}}, %{{.*}}, %{{.*}} {activation = "gelu"} : (tensor<8x64xf32>, tensor<64x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
// CHECK-NEXT: return %[[L]]
func.func @bias_gelu_erf(%x: tensor<8x64xf32>, %w: tensor<64x256xf32>, %b: tensor<256xf32>) -> tensor<8x256xf32> {
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
  %1 = graph.add %0, %b : (tensor<8x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
  %2 = graph.gelu %1 : tensor<8x256xf32>
  return %2 : tensor<8x256xf32>
}

// -----

// CHECK-LABEL: func.func @bias_relu
// CHECK-NEXT: %[[L:.*]] = graph.linear %{{.*}}, %{{.*}}, %{{.*}} {activation = "relu"} : (tensor<8x64xf32>, tensor<64x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
// CHECK-NEXT: return %[[L]]
func.func @bias_relu(%x: tensor<8x64xf32>, %w: tensor<64x256xf32>, %b: tensor<256xf32>) -> tensor<8x256xf32> {
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
  %1 = graph.add %0, %b : (tensor<8x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
  %2 = graph.relu %1 : tensor<8x256xf32>
  return %2 : tensor<8x256xf32>
}

// -----

// An activation straight after the matmul: a linear without a bias.
// CHECK-LABEL: func.func @matmul_relu_no_bias
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x4x16xf32>, %[[W:[^:]+]]: tensor<16x8xf32>)
// CHECK-NEXT: %[[L:.*]] = graph.linear %[[X]], %[[W]] {activation = "relu"} : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: return %[[L]]
func.func @matmul_relu_no_bias(%x: tensor<2x4x16xf32>, %w: tensor<16x8xf32>) -> tensor<2x4x8xf32> {
  %0 = graph.matmul %x, %w : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
  %1 = graph.relu %0 : tensor<2x4x8xf32>
  return %1 : tensor<2x4x8xf32>
}

// -----

// A transposed weight (PyTorch's [N, K] Linear weight) is the transpose's
// result: the transpose stays and feeds the linear as its [K, N] operand.
// CHECK-LABEL: func.func @transposed_weight
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x64xf32>, %[[WT:[^:]+]]: tensor<32x64xf32>, %[[B:[^:]+]]: tensor<32xf32>)
// CHECK-NEXT: %[[W:.*]] = graph.transpose %[[WT]], [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
// CHECK-NEXT: %[[L:.*]] = graph.linear %[[X]], %[[W]], %[[B]] : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: return %[[L]]
func.func @transposed_weight(%x: tensor<8x64xf32>, %wt: tensor<32x64xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %w = graph.transpose %wt, [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = graph.add %0, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// -----

// Half precision fuses like f32.
// CHECK-LABEL: func.func @bf16
// CHECK-NEXT: graph.linear %{{.*}}, %{{.*}}, %{{.*}} {activation = "gelu_tanh"} : (tensor<4x32xbf16>, tensor<32x16xbf16>, tensor<16xbf16>) -> tensor<4x16xbf16>
func.func @bf16(%x: tensor<4x32xbf16>, %w: tensor<32x16xbf16>, %b: tensor<16xbf16>) -> tensor<4x16xbf16> {
  %0 = graph.matmul %x, %w : (tensor<4x32xbf16>, tensor<32x16xbf16>) -> tensor<4x16xbf16>
  %1 = graph.add %0, %b : (tensor<4x16xbf16>, tensor<16xbf16>) -> tensor<4x16xbf16>
  %2 = graph.gelu %1 {approximate = "tanh"} : tensor<4x16xbf16>
  return %2 : tensor<4x16xbf16>
}

// -----

// What passes recorded on the matmul (tensor parallelism's decision, any
// other discardable attribute) carries over to the linear.
// CHECK-LABEL: func.func @tp_attributes
// CHECK-NEXT: graph.linear %{{.*}}, %{{.*}}, %{{.*}} {dist.tp_reason = "q/k/v projection", dist.tp_role = #dist.tp_role<column>, other.attr = 1 : i64} : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
func.func @tp_attributes(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = graph.matmul %x, %w {dist.tp_role = #dist.tp_role<column>, dist.tp_reason = "q/k/v projection", other.attr = 1 : i64} : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = graph.add %0, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// -----

// A Gemm with its bias vector c (beta 1), and a ReLU after it.
// CHECK-LABEL: func.func @gemm_bias_relu
// CHECK-SAME: (%[[A:[^:]+]]: tensor<8x64xf32>, %[[B:[^:]+]]: tensor<64x32xf32>, %[[C:[^:]+]]: tensor<32xf32>)
// CHECK-NEXT: %[[L:.*]] = graph.linear %[[A]], %[[B]], %[[C]] {activation = "relu"} : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: return %[[L]]
func.func @gemm_bias_relu(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = graph.gemm %a, %b, %c : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %1 = graph.relu %0 : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// -----

// A Gemm without c becomes a linear even without bias or activation (unlike
// a bare matmul), whatever its beta (there is nothing to scale); a later add
// of a vector is its bias.
// CHECK-LABEL: func.func @gemm_no_c
// CHECK-SAME: (%[[A:[^:]+]]: tensor<8x64xf32>, %[[B:[^:]+]]: tensor<64x32xf32>, %[[V:[^:]+]]: tensor<32xf32>)
// CHECK-NEXT: %[[L0:.*]] = graph.linear %[[A]], %[[B]] : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %[[L1:.*]] = graph.linear %[[A]], %[[B]], %[[V]] : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: return %[[L0]], %[[L1]]
func.func @gemm_no_c(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>, %v: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %0 = graph.gemm %a, %b {beta = 0.5 : f64} : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = graph.gemm %a, %b : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %2 = graph.add %1, %v : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %0, %2 : tensor<8x32xf32>, tensor<8x32xf32>
}

// -----

// A Gemm that has its bias in c does not take a second one from an add.
// CHECK-LABEL: func.func @gemm_c_then_add
// CHECK-SAME: (%[[A:[^:]+]]: tensor<8x64xf32>, %[[B:[^:]+]]: tensor<64x32xf32>, %[[C:[^:]+]]: tensor<32xf32>, %[[V:[^:]+]]: tensor<32xf32>)
// CHECK-NEXT: %[[L:.*]] = graph.linear %[[A]], %[[B]], %[[C]] : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %[[S:.*]] = graph.add %[[L]], %[[V]]
// CHECK-NEXT: return %[[S]]
func.func @gemm_c_then_add(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32xf32>, %v: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = graph.gemm %a, %b, %c : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %1 = graph.add %0, %v : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// -----

// The sum has another user: the bias fuses, the activation does not.
// CHECK-LABEL: func.func @sum_has_other_user
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x64xf32>, %[[W:[^:]+]]: tensor<64x32xf32>, %[[B:[^:]+]]: tensor<32xf32>)
// CHECK-NEXT: %[[L:.*]] = graph.linear %[[X]], %[[W]], %[[B]] : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %[[G:.*]] = graph.gelu %[[L]] : tensor<8x32xf32>
// CHECK-NEXT: return %[[L]], %[[G]]
func.func @sum_has_other_user(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = graph.add %0, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %2 = graph.gelu %1 : tensor<8x32xf32>
  return %1, %2 : tensor<8x32xf32>, tensor<8x32xf32>
}

// -----

// An activation the linear does not have (SiLU) stays after the fused bias.
// CHECK-LABEL: func.func @unsupported_activation
// CHECK-NEXT: %[[L:.*]] = graph.linear %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %[[S:.*]] = graph.silu %[[L]]
// CHECK-NEXT: return %[[S]]
func.func @unsupported_activation(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = graph.add %0, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %2 = graph.silu %1 : tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Not fused
//===----------------------------------------------------------------------===//

// A bare matmul stays a matmul.
// CHECK-LABEL: func.func @bare_matmul
// CHECK-NEXT: graph.matmul
// CHECK-NOT: graph.linear
func.func @bare_matmul(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

// The product has another user: neither the bias nor an activation fuses.
// CHECK-LABEL: func.func @product_has_other_user
// CHECK-NOT: graph.linear
// CHECK: %[[P:.*]] = graph.matmul
// CHECK-NEXT: %[[S:.*]] = graph.add %[[P]]
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[P]]
// CHECK-NEXT: return %[[P]], %[[S]], %[[R]]
func.func @product_has_other_user(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) {
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = graph.add %0, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %2 = graph.relu %0 : tensor<8x32xf32>
  return %0, %1, %2 : tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>
}

// -----

// A bias along the rows ([M, 1]) is not a bias vector on the last dim; a
// full [M, N] addend is a residual (cuBLASLt's C operand).
// CHECK-LABEL: func.func @bias_wrong_dim
// CHECK-SAME: (%[[X:.*]]: tensor<8x64xf32>, %[[W:.*]]: tensor<64x32xf32>, %[[COL:.*]]: tensor<8x1xf32>, %[[FULL:.*]]: tensor<8x32xf32>)
// CHECK: graph.matmul
// CHECK: graph.add
// CHECK: graph.linear %[[X]], %[[W]] residual %[[FULL]] : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
func.func @bias_wrong_dim(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %col: tensor<8x1xf32>, %full: tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = graph.add %0, %col : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
  %2 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %3 = graph.add %2, %full : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return %1, %3 : tensor<8x32xf32>, tensor<8x32xf32>
}

// -----

// The residual stream: bias then residual (either operand order), both in
// one op.
// CHECK-LABEL: func.func @bias_and_residual
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x64xf32>, %[[W:.*]]: tensor<64x64xf32>, %[[B:.*]]: tensor<64xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.linear %[[X]], %[[W]], %[[B]] residual %[[X]] : (tensor<2x8x64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
// CHECK-NEXT: %[[Z:.*]] = graph.linear %[[Y]], %[[W]], %[[B]] residual %[[Y]]
// CHECK-NEXT: return %[[Z]]
func.func @bias_and_residual(%x: tensor<2x8x64xf32>, %w: tensor<64x64xf32>, %b: tensor<64xf32>) -> tensor<2x8x64xf32> {
  %0 = graph.matmul %x, %w : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  %1 = graph.add %0, %b : (tensor<2x8x64xf32>, tensor<64xf32>) -> tensor<2x8x64xf32>
  %2 = graph.add %x, %1 : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %3 = graph.matmul %2, %w : (tensor<2x8x64xf32>, tensor<64x64xf32>) -> tensor<2x8x64xf32>
  %4 = graph.add %b, %3 : (tensor<64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %5 = graph.add %4, %2 : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  return %5 : tensor<2x8x64xf32>
}

// -----

// Not a residual: after an activation (cuBLASLt adds C before it), when the
// sum has another user, or when the addend broadcasts.
// CHECK-LABEL: func.func @not_residuals
// CHECK: graph.linear %{{.*}}, %{{.*}}, %{{.*}} {activation = "gelu_tanh"}
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.linear %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.add
// CHECK-NOT: residual
func.func @not_residuals(%x: tensor<8x64xf32>, %w: tensor<64x64xf32>, %b: tensor<64xf32>, %row: tensor<1x64xf32>)
    -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>) {
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  %1 = graph.add %0, %b : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %2 = graph.gelu %1 {approximate = "tanh"} : tensor<8x64xf32>
  %3 = graph.add %2, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %4 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  %5 = graph.add %4, %b : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %6 = graph.add %5, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %7 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  %8 = graph.add %7, %row : (tensor<8x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32>
  return %3, %5, %6, %8 : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

// A [1]-vector broadcasts along N but is not a bias of size N; an addend
// that broadcasts the product to a larger shape is not a bias either.
// CHECK-LABEL: func.func @bias_broadcasts
// CHECK-NOT: graph.linear
// CHECK: graph.add
// CHECK: graph.add
// CHECK-NOT: graph.linear
func.func @bias_broadcasts(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %one: tensor<1xf32>, %big: tensor<2x8x32xf32>) -> (tensor<8x32xf32>, tensor<2x8x32xf32>) {
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = graph.add %0, %one : (tensor<8x32xf32>, tensor<1xf32>) -> tensor<8x32xf32>
  %2 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %3 = graph.add %2, %big : (tensor<8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  return %1, %3 : tensor<8x32xf32>, tensor<2x8x32xf32>
}

// -----

// The product added to itself has no bias.
// CHECK-LABEL: func.func @add_to_itself
// CHECK-NOT: graph.linear
// CHECK: %[[P:.*]] = graph.matmul
// CHECK-NEXT: graph.add %[[P]], %[[P]]
func.func @add_to_itself(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = graph.matmul %x, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = graph.add %0, %0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// Batched weights (rank 3), a 1-D x and integer products are not linears.
// CHECK-LABEL: func.func @not_a_linear_product
// CHECK-NOT: graph.linear
// CHECK-COUNT-3: graph.add
// CHECK-NOT: graph.linear
func.func @not_a_linear_product(%x: tensor<2x8x64xf32>, %w3: tensor<2x64x32xf32>, %b: tensor<32xf32>, %v: tensor<64xf32>, %w: tensor<64x32xf32>, %xi: tensor<8x64xi32>, %wi: tensor<64x32xi32>, %bi: tensor<32xi32>) -> (tensor<2x8x32xf32>, tensor<32xf32>, tensor<8x32xi32>) {
  %0 = graph.matmul %x, %w3 : (tensor<2x8x64xf32>, tensor<2x64x32xf32>) -> tensor<2x8x32xf32>
  %1 = graph.add %0, %b : (tensor<2x8x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  %2 = graph.matmul %v, %w : (tensor<64xf32>, tensor<64x32xf32>) -> tensor<32xf32>
  %3 = graph.add %2, %b : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %4 = graph.matmul %xi, %wi : (tensor<8x64xi32>, tensor<64x32xi32>) -> tensor<8x32xi32>
  %5 = graph.add %4, %bi : (tensor<8x32xi32>, tensor<32xi32>) -> tensor<8x32xi32>
  return %1, %3, %5 : tensor<2x8x32xf32>, tensor<32xf32>, tensor<8x32xi32>
}

// -----

// Gemms with a transpose, alpha != 1, beta != 1 with c, or a c that is not
// a [N] vector stay Gemms.
// CHECK-LABEL: func.func @gemm_not_fused
// CHECK-NOT: graph.linear
// CHECK: graph.gemm %{{.*}}, %{{.*}} {trans_b = true}
// CHECK: graph.gemm %{{.*}}, %{{.*}} {trans_a = true}
// CHECK: graph.gemm %{{.*}}, %{{.*}} {alpha = 2.000000e+00 : f64}
// CHECK: graph.gemm %{{.*}}, %{{.*}}, %{{.*}} {beta = 5.000000e-01 : f64}
// CHECK: graph.gemm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<8x32xf32>)
// CHECK: graph.gemm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<1xf32>)
// CHECK-NOT: graph.linear
func.func @gemm_not_fused(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>, %bt: tensor<32x64xf32>, %at: tensor<64x8xf32>, %c: tensor<32xf32>, %cm: tensor<8x32xf32>, %c1: tensor<1xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) {
  %0 = graph.gemm %a, %bt {trans_b = true} : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
  %1 = graph.gemm %at, %b {trans_a = true} : (tensor<64x8xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %2 = graph.gemm %a, %b {alpha = 2.0 : f64} : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %3 = graph.gemm %a, %b, %c {beta = 0.5 : f64} : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %4 = graph.gemm %a, %b, %cm : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %5 = graph.gemm %a, %b, %c1 : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<1xf32>) -> tensor<8x32xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>
}

// -----

// A tied head, logits = h embedding^T: the product reads the table
// transposed (no transpose of the table).
// CHECK-LABEL: func.func @tied_head
// CHECK-SAME: (%[[H:[^:]+]]: tensor<2x3x16xf32>, %[[E:[^:]+]]: tensor<50x16xf32>)
// CHECK-NEXT: %[[A:.*]] = graph.reshape %[[H]] : tensor<2x3x16xf32> -> tensor<6x16xf32>
// CHECK-NEXT: %[[G:.*]] = graph.gemm %[[A]], %[[E]] {trans_b = true} : (tensor<6x16xf32>, tensor<50x16xf32>) -> tensor<6x50xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.reshape %[[G]] : tensor<6x50xf32> -> tensor<2x3x50xf32>
// CHECK-NEXT: return %[[Y]]
func.func @tied_head(%h: tensor<2x3x16xf32>, %e: tensor<50x16xf32>) -> tensor<2x3x50xf32> {
  %t = graph.transpose %e, [1, 0] : tensor<50x16xf32> -> tensor<16x50xf32>
  %y = graph.matmul %h, %t : (tensor<2x3x16xf32>, tensor<16x50xf32>) -> tensor<2x3x50xf32>
  return %y : tensor<2x3x50xf32>
}

// -----

// Its weight gradient, transpose(h^T dy): the gemm of dy^T and h.
// CHECK-LABEL: func.func @transpose_of_gemm
// CHECK-SAME: (%[[H:[^:]+]]: tensor<6x16xf32>, %[[D:[^:]+]]: tensor<6x50xf32>)
// CHECK-NEXT: %[[G:.*]] = graph.gemm %[[D]], %[[H]] {trans_a = true} : (tensor<6x50xf32>, tensor<6x16xf32>) -> tensor<50x16xf32>
// CHECK-NEXT: return %[[G]]
func.func @transpose_of_gemm(%h: tensor<6x16xf32>, %d: tensor<6x50xf32>) -> tensor<50x16xf32> {
  %g = graph.gemm %h, %d {trans_a = true} : (tensor<6x16xf32>, tensor<6x50xf32>) -> tensor<16x50xf32>
  %t = graph.transpose %g, [1, 0] : tensor<16x50xf32> -> tensor<50x16xf32>
  return %t : tensor<50x16xf32>
}

// -----

// Its input gradient, dy (e^T)^T: the table read with the flag flipped
// (then a plain product, a linear).
// CHECK-LABEL: func.func @gemm_of_transpose
// CHECK-SAME: (%[[D:[^:]+]]: tensor<6x50xf32>, %[[E:[^:]+]]: tensor<50x16xf32>)
// CHECK-NEXT: %[[G:.*]] = graph.linear %[[D]], %[[E]] : (tensor<6x50xf32>, tensor<50x16xf32>) -> tensor<6x16xf32>
// CHECK-NEXT: return %[[G]]
func.func @gemm_of_transpose(%d: tensor<6x50xf32>, %e: tensor<50x16xf32>) -> tensor<6x16xf32> {
  %t = graph.transpose %e, [1, 0] : tensor<50x16xf32> -> tensor<16x50xf32>
  %g = graph.gemm %d, %t {trans_b = true} : (tensor<6x50xf32>, tensor<16x50xf32>) -> tensor<6x16xf32>
  return %g : tensor<6x16xf32>
}

// RUN: paracc-opt %s -split-input-file --paracc-fold-broadcasts | FileCheck %s

// A broadcasting binary op reads an expand's operand when broadcasting it
// against the other operand gives the same result shape; otherwise the
// expand stays.

// A per-channel gradient term (autodiff's expand of a reduction) times a
// full activation.
// CHECK-LABEL: func.func @per_channel
// CHECK-SAME: (%[[S:[^:]+]]: tensor<1x16x1x1xf32>, %[[X:[^:]+]]: tensor<4x16x8x8xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.mul %[[S]], %[[X]] : (tensor<1x16x1x1xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @per_channel(%s: tensor<1x16x1x1xf32>, %x: tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32> {
  %e = graph.expand %s : tensor<1x16x1x1xf32> -> tensor<4x16x8x8xf32>
  %y = graph.mul %e, %x : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
  return %y : tensor<4x16x8x8xf32>
}

// -----

// Right-hand operand, sub (not commutative: the operand order is kept); the
// expand has another user, so it stays for that one.
// CHECK-LABEL: func.func @rhs_with_other_user
// CHECK: %[[E:.*]] = graph.expand %[[S:.*]] : tensor<16x1x1xbf16> -> tensor<2x16x4x4xbf16>
// CHECK: graph.sub %{{.*}}, %[[S]] : (tensor<2x16x4x4xbf16>, tensor<16x1x1xbf16>) -> tensor<2x16x4x4xbf16>
// CHECK: return %{{.*}}, %[[E]]
func.func @rhs_with_other_user(%x: tensor<2x16x4x4xbf16>, %s: tensor<16x1x1xbf16>) -> (tensor<2x16x4x4xbf16>, tensor<2x16x4x4xbf16>) {
  %e = graph.expand %s : tensor<16x1x1xbf16> -> tensor<2x16x4x4xbf16>
  %y = graph.sub %x, %e : (tensor<2x16x4x4xbf16>, tensor<2x16x4x4xbf16>) -> tensor<2x16x4x4xbf16>
  return %y, %e : tensor<2x16x4x4xbf16>, tensor<2x16x4x4xbf16>
}

// -----

// Both operands expanded, the other one smaller too: the result would be
// smaller than the op's, so the expand it needs stays.
// CHECK-LABEL: func.func @result_shape_kept
// CHECK: %[[E:.*]] = graph.expand %{{.*}} : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK: graph.add %[[E]], %{{.*}} : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
func.func @result_shape_kept(%a: tensor<4x1xf32>, %b: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %e = graph.expand %a : tensor<4x1xf32> -> tensor<4x8xf32>
  %y = graph.add %e, %b : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

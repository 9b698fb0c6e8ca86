// RUN: paracc-opt %s -split-input-file --paracc-fuse-square-sums | FileCheck %s

// The sum over one or more axes of a floating x multiplied by itself, when
// the product has no other user, becomes one graph.reduce_sum_square. Every
// other sum of a product stays as it is.

// CHECK-LABEL: func.func @gradient_norm_term
// CHECK-SAME: (%[[G:[^:]+]]: tensor<64x256xf32>)
// CHECK-NEXT: %[[S:.*]] = graph.reduce_sum_square %[[G]], [0, 1] {keepdims = false} : tensor<64x256xf32> -> tensor<f32>
// CHECK-NEXT: return %[[S]]
func.func @gradient_norm_term(%g: tensor<64x256xf32>) -> tensor<f32> {
  %0 = graph.mul %g, %g : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  %1 = graph.reduce_sum %0, [0, 1] {keepdims = false} : tensor<64x256xf32> -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// One axis, kept; bf16.
// CHECK-LABEL: func.func @one_axis_kept
// CHECK-NEXT: %[[S:.*]] = graph.reduce_sum_square %{{.*}}, [1] : tensor<4x8xbf16> -> tensor<4x1xbf16>
// CHECK-NEXT: return %[[S]]
func.func @one_axis_kept(%x: tensor<4x8xbf16>) -> tensor<4x1xbf16> {
  %0 = graph.mul %x, %x : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %1 = graph.reduce_sum %0, [1] : tensor<4x8xbf16> -> tensor<4x1xbf16>
  return %1 : tensor<4x1xbf16>
}

// -----

// The square has another user: both stay.
// CHECK-LABEL: func.func @square_used_twice
// CHECK: graph.mul
// CHECK: graph.reduce_sum %
// CHECK-NOT: reduce_sum_square
func.func @square_used_twice(%x: tensor<4x8xf32>) -> (tensor<f32>, tensor<4x8xf32>) {
  %0 = graph.mul %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.reduce_sum %0, [0, 1] {keepdims = false} : tensor<4x8xf32> -> tensor<f32>
  return %1, %0 : tensor<f32>, tensor<4x8xf32>
}

// -----

// A product of two different values, an integer square, no axes: unchanged.
// CHECK-LABEL: func.func @not_squares
// CHECK-NOT: reduce_sum_square
func.func @not_squares(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<f32>, tensor<i32>, tensor<4x8xf32>) {
  %0 = graph.mul %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.reduce_sum %0, [0, 1] {keepdims = false} : tensor<4x8xf32> -> tensor<f32>
  %2 = graph.mul %i, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %3 = graph.reduce_sum %2, [0, 1] {keepdims = false} : tensor<4x8xi32> -> tensor<i32>
  %4 = graph.mul %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = graph.reduce_sum %4, [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %1, %3, %5 : tensor<f32>, tensor<i32>, tensor<4x8xf32>
}

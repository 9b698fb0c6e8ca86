// RUN: paracc-opt %s | paracc-opt | FileCheck %s

// graph.conv and graph.pool print and parse back (1-, 2- and 3-d, grouped,
// with and without bias), and so do conv_transpose, conv_weight_grad and
// pool_grad.

// CHECK-LABEL: func.func @window_ops
// CHECK: graph.conv %arg0, %arg1, %arg2 {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x4x4xf32>
// CHECK: graph.conv %arg3, %arg4 {dilations = array<i64: 2>, group = 2 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x9xbf16>, tensor<6x2x3xbf16>) -> tensor<1x6x5xbf16>
// CHECK: graph.conv %arg5, %arg6 {{.*}} : (tensor<1x2x4x4x4xf32>, tensor<3x2x2x2x2xf32>) -> tensor<1x3x3x3x3xf32>
// CHECK: graph.pool %arg0 {count_include_pad = true, kernel = array<i64: 2, 2>, kind = "avg", pads_begin = array<i64: 1, 1>, pads_end = array<i64: 0, 0>, strides = array<i64: 2, 2>} : (tensor<2x3x8x8xf32>) -> tensor<2x3x4x4xf32>
// CHECK: graph.pool %arg0 {kernel = array<i64: 3, 3>, kind = "max", pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
func.func @window_ops(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %x1: tensor<1x4x9xbf16>, %w1: tensor<6x2x3xbf16>, %x3: tensor<1x2x4x4x4xf32>, %w3: tensor<3x2x2x2x2xf32>) -> (tensor<2x4x4x4xf32>, tensor<1x6x5xbf16>, tensor<1x3x3x3x3xf32>, tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>) {
  %0 = graph.conv %x, %w, %b {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x4x4xf32>
  %1 = graph.conv %x1, %w1 {dilations = array<i64: 2>, group = 2 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x9xbf16>, tensor<6x2x3xbf16>) -> tensor<1x6x5xbf16>
  %2 = graph.conv %x3, %w3 {dilations = array<i64: 1, 1, 1>, group = 1 : i64, pads_begin = array<i64: 0, 0, 0>, pads_end = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x4x4x4xf32>, tensor<3x2x2x2x2xf32>) -> tensor<1x3x3x3x3xf32>
  %3 = graph.pool %x {count_include_pad = true, kernel = array<i64: 2, 2>, kind = "avg", pads_begin = array<i64: 1, 1>, pads_end = array<i64: 0, 0>, strides = array<i64: 2, 2>} : (tensor<2x3x8x8xf32>) -> tensor<2x3x4x4xf32>
  %4 = graph.pool %x {kernel = array<i64: 3, 3>, kind = "max", pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  return %0, %1, %2, %3, %4 : tensor<2x4x4x4xf32>, tensor<1x6x5xbf16>, tensor<1x3x3x3x3xf32>, tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>
}

// CHECK-LABEL: func.func @gradients
// CHECK: graph.conv_transpose %arg1, %arg2, %arg3 {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<2x3x8x8xf32>
// CHECK: graph.conv_transpose %arg1, %arg2 {{.*}} -> tensor<2x3x7x7xf32>
// CHECK: graph.conv_weight_grad %arg0, %arg1 {{.*}} : (tensor<2x3x8x8xf32>, tensor<2x4x4x4xf32>) -> tensor<4x3x3x3xf32>
// CHECK: graph.pool_grad %arg0, %arg4 {kernel = array<i64: 2, 2>, kind = "max", {{.*}}} : (tensor<2x3x8x8xf32>, tensor<2x3x4x4xf32>) -> tensor<2x3x8x8xf32>
func.func @gradients(%x: tensor<2x3x8x8xf32>, %dy: tensor<2x4x4x4xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>, %dp: tensor<2x3x4x4xf32>) -> (tensor<2x3x8x8xf32>, tensor<2x3x7x7xf32>, tensor<4x3x3x3xf32>, tensor<2x3x8x8xf32>) {
  %0 = graph.conv_transpose %dy, %w, %b {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<2x3x8x8xf32>
  // Both 7 and 8 convolve to 4 at stride 2: the result type chooses.
  %1 = graph.conv_transpose %dy, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32>) -> tensor<2x3x7x7xf32>
  %2 = graph.conv_weight_grad %x, %dy {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x8x8xf32>, tensor<2x4x4x4xf32>) -> tensor<4x3x3x3xf32>
  %3 = graph.pool_grad %x, %dp {kernel = array<i64: 2, 2>, kind = "max", pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, strides = array<i64: 2, 2>} : (tensor<2x3x8x8xf32>, tensor<2x3x4x4xf32>) -> tensor<2x3x8x8xf32>
  return %0, %1, %2, %3 : tensor<2x3x8x8xf32>, tensor<2x3x7x7xf32>, tensor<4x3x3x3xf32>, tensor<2x3x8x8xf32>
}

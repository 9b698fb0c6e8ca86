// RUN: paracc-opt %s -split-input-file -verify-diagnostics

// One case per verifier error of graph.conv, graph.pool, graph.conv_transpose,
// graph.conv_weight_grad and graph.pool_grad.

func.func @weight_rank(%x: tensor<1x4x5xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x3xf32> {
  // expected-error @+1 {{requires a weight of the operand's rank 3 ([M, C / group, kernel...]), got 'tensor<6x4x3x3xf32>'}}
  %y = graph.conv %x, %w {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x3xf32>
  return %y : tensor<1x6x3xf32>
}

// -----

func.func @element_types(%x: tensor<1x4x5xf32>, %w: tensor<6x4x3xbf16>) -> tensor<1x6x3xf32> {
  // expected-error @+1 {{requires one element type for operands and result}}
  %y = graph.conv %x, %w {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<6x4x3xbf16>) -> tensor<1x6x3xf32>
  return %y : tensor<1x6x3xf32>
}

// -----

func.func @groups(%x: tensor<1x4x5xf32>, %w: tensor<6x2x3xf32>) -> tensor<1x6x3xf32> {
  // expected-error @+1 {{group 3 must divide the 4 channels of the operand and the 6 output features, with channels / group input channels in the weight 'tensor<6x2x3xf32>'}}
  %y = graph.conv %x, %w {dilations = array<i64: 1>, group = 3 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<6x2x3xf32>) -> tensor<1x6x3xf32>
  return %y : tensor<1x6x3xf32>
}

// -----

func.func @bias(%x: tensor<1x4x5xf32>, %w: tensor<6x4x3xf32>, %b: tensor<4xf32>) -> tensor<1x6x3xf32> {
  // expected-error @+1 {{requires a bias of the 6 output features, got 'tensor<4xf32>'}}
  %y = graph.conv %x, %w, %b {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<6x4x3xf32>, tensor<4xf32>) -> tensor<1x6x3xf32>
  return %y : tensor<1x6x3xf32>
}

// -----

func.func @spatial_rank(%x: tensor<1x4xf32>, %w: tensor<6x4xf32>) -> tensor<1x6xf32> {
  // expected-error @+1 {{requires an operand [N, C, spatial...] with 1 to 3 spatial dims, got 'tensor<1x4xf32>'}}
  %y = graph.conv %x, %w {dilations = array<i64>, group = 1 : i64, pads_begin = array<i64>, pads_end = array<i64>, strides = array<i64>} : (tensor<1x4xf32>, tensor<6x4xf32>) -> tensor<1x6xf32>
  return %y : tensor<1x6xf32>
}

// -----

func.func @attribute_count(%x: tensor<1x4x5xf32>, %w: tensor<6x4x3xf32>) -> tensor<1x6x3xf32> {
  // expected-error @+1 {{requires 1 strides (one per spatial dim), got 2}}
  %y = graph.conv %x, %w {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1, 1>} : (tensor<1x4x5xf32>, tensor<6x4x3xf32>) -> tensor<1x6x3xf32>
  return %y : tensor<1x6x3xf32>
}

// -----

func.func @stride(%x: tensor<1x4x5xf32>, %w: tensor<6x4x3xf32>) -> tensor<1x6x3xf32> {
  // expected-error @+1 {{requires kernel sizes, strides and dilations >= 1; spatial dim 0 has kernel 3, stride 0, dilation 1}}
  %y = graph.conv %x, %w {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 0>} : (tensor<1x4x5xf32>, tensor<6x4x3xf32>) -> tensor<1x6x3xf32>
  return %y : tensor<1x6x3xf32>
}

// -----

func.func @negative_pads(%x: tensor<1x4x5xf32>, %w: tensor<6x4x3xf32>) -> tensor<1x6x3xf32> {
  // expected-error @+1 {{requires non-negative pads; spatial dim 0 has -1, 0}}
  %y = graph.conv %x, %w {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: -1>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<6x4x3xf32>) -> tensor<1x6x3xf32>
  return %y : tensor<1x6x3xf32>
}

// -----

func.func @window(%x: tensor<1x4x5xf32>, %w: tensor<6x4x3xf32>) -> tensor<1x6x3xf32> {
  // expected-error @+1 {{spatial dim 0: the window (7) is larger than the padded input (5)}}
  %y = graph.conv %x, %w {dilations = array<i64: 3>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<6x4x3xf32>) -> tensor<1x6x3xf32>
  return %y : tensor<1x6x3xf32>
}

// -----

func.func @result(%x: tensor<1x4x5xf32>, %w: tensor<6x4x3xf32>) -> tensor<1x6x4xf32> {
  // expected-error @+1 {{result must be 'tensor<1x6x3xf32>', got 'tensor<1x6x4xf32>'}}
  %y = graph.conv %x, %w {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<6x4x3xf32>) -> tensor<1x6x4xf32>
  return %y : tensor<1x6x4xf32>
}

// -----

func.func @pool_kind(%x: tensor<1x4x6xf32>) -> tensor<1x4x3xf32> {
  // expected-error @+1 {{kind must be "max" or "avg", got "min"}}
  %y = graph.pool %x {kernel = array<i64: 2>, kind = "min", pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 2>} : (tensor<1x4x6xf32>) -> tensor<1x4x3xf32>
  return %y : tensor<1x4x3xf32>
}

// -----

func.func @pool_type(%x: tensor<1x4x6xf32>) -> tensor<1x4x3xbf16> {
  // expected-error @+1 {{requires one element type for operands and result}}
  %y = graph.pool %x {kernel = array<i64: 2>, kind = "max", pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 2>} : (tensor<1x4x6xf32>) -> tensor<1x4x3xbf16>
  return %y : tensor<1x4x3xbf16>
}

// -----

func.func @pool_kernel_count(%x: tensor<1x4x6xf32>) -> tensor<1x4x3xf32> {
  // expected-error @+1 {{requires 1 kernel sizes (one per spatial dim), got 2}}
  %y = graph.pool %x {kernel = array<i64: 2, 2>, kind = "max", pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 2>} : (tensor<1x4x6xf32>) -> tensor<1x4x3xf32>
  return %y : tensor<1x4x3xf32>
}

// -----

func.func @pool_pads(%x: tensor<1x4x6xf32>) -> tensor<1x4x4xf32> {
  // expected-error @+1 {{requires pads smaller than the kernel; spatial dim 0 has kernel 2 and pads 2, 0}}
  %y = graph.pool %x {kernel = array<i64: 2>, kind = "max", pads_begin = array<i64: 2>, pads_end = array<i64: 0>, strides = array<i64: 2>} : (tensor<1x4x6xf32>) -> tensor<1x4x4xf32>
  return %y : tensor<1x4x4xf32>
}

// -----

func.func @pool_result(%x: tensor<1x4x6xf32>) -> tensor<1x4x2xf32> {
  // expected-error @+1 {{result must be 'tensor<1x4x3xf32>', got 'tensor<1x4x2xf32>'}}
  %y = graph.pool %x {kernel = array<i64: 2>, kind = "avg", pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 2>} : (tensor<1x4x6xf32>) -> tensor<1x4x2xf32>
  return %y : tensor<1x4x2xf32>
}

// -----

func.func @transpose_result_rank(%x: tensor<1x6x3xf32>, %w: tensor<6x4x3xf32>) -> tensor<1x4x5x5xf32> {
  // expected-error @+1 {{requires a result of the operand's rank and element type, got 'tensor<1x4x5x5xf32>'}}
  %y = graph.conv_transpose %x, %w {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x6x3xf32>, tensor<6x4x3xf32>) -> tensor<1x4x5x5xf32>
  return %y : tensor<1x4x5x5xf32>
}

// -----

func.func @transpose_shape(%x: tensor<1x6x4xf32>, %w: tensor<6x4x3xf32>) -> tensor<1x4x5xf32> {
  // expected-error @+1 {{operand (the convolution of the result's shape) must be 'tensor<1x6x3xf32>', got 'tensor<1x6x4xf32>'}}
  %y = graph.conv_transpose %x, %w {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x6x4xf32>, tensor<6x4x3xf32>) -> tensor<1x4x5xf32>
  return %y : tensor<1x4x5xf32>
}

// -----

func.func @transpose_bias(%x: tensor<1x6x3xf32>, %w: tensor<6x4x3xf32>, %b: tensor<6xf32>) -> tensor<1x4x5xf32> {
  // expected-error @+1 {{requires a bias of the 4 output features, got 'tensor<6xf32>'}}
  %y = graph.conv_transpose %x, %w, %b {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x6x3xf32>, tensor<6x4x3xf32>, tensor<6xf32>) -> tensor<1x4x5xf32>
  return %y : tensor<1x4x5xf32>
}

// -----

func.func @transpose_groups(%x: tensor<1x6x3xf32>, %w: tensor<6x4x3xf32>) -> tensor<1x4x5xf32> {
  // expected-error @+1 {{group 2 must divide the 4 channels of the result and the 6 output features, with channels / group input channels in the weight 'tensor<6x4x3xf32>'}}
  %y = graph.conv_transpose %x, %w {dilations = array<i64: 1>, group = 2 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x6x3xf32>, tensor<6x4x3xf32>) -> tensor<1x4x5xf32>
  return %y : tensor<1x4x5xf32>
}

// -----

func.func @weight_grad_dy(%x: tensor<1x4x5xf32>, %dy: tensor<1x6x4xf32>) -> tensor<6x4x3xf32> {
  // expected-error @+1 {{dy (the convolution's result) must be 'tensor<1x6x3xf32>', got 'tensor<1x6x4xf32>'}}
  %dw = graph.conv_weight_grad %x, %dy {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<1x6x4xf32>) -> tensor<6x4x3xf32>
  return %dw : tensor<6x4x3xf32>
}

// -----

func.func @weight_grad_rank(%x: tensor<1x4x5xf32>, %dy: tensor<1x6x3xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{requires a result of the operand's rank 3 ([M, C / group, kernel...]), got 'tensor<6x4xf32>'}}
  %dw = graph.conv_weight_grad %x, %dy {dilations = array<i64: 1>, group = 1 : i64, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<1x6x3xf32>) -> tensor<6x4xf32>
  return %dw : tensor<6x4xf32>
}

// -----

func.func @pool_grad_dy(%x: tensor<1x4x6xf32>, %dy: tensor<1x4x2xf32>) -> tensor<1x4x6xf32> {
  // expected-error @+1 {{dy (the pool's result) must be 'tensor<1x4x3xf32>', got 'tensor<1x4x2xf32>'}}
  %dx = graph.pool_grad %x, %dy {kernel = array<i64: 2>, kind = "max", pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 2>} : (tensor<1x4x6xf32>, tensor<1x4x2xf32>) -> tensor<1x4x6xf32>
  return %dx : tensor<1x4x6xf32>
}

// -----

func.func @pool_grad_result(%x: tensor<1x4x6xf32>, %dy: tensor<1x4x3xf32>) -> tensor<1x4x3xf32> {
  // expected-error @+1 {{result (the operand's gradient) must be 'tensor<1x4x6xf32>', got 'tensor<1x4x3xf32>'}}
  %dx = graph.pool_grad %x, %dy {kernel = array<i64: 2>, kind = "avg", pads_begin = array<i64: 0>, pads_end = array<i64: 0>, strides = array<i64: 2>} : (tensor<1x4x6xf32>, tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  return %dx : tensor<1x4x3xf32>
}

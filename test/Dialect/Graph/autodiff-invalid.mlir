// RUN: paracc-opt %s -split-input-file --paracc-autodiff -verify-diagnostics

// expected-error @+1 {{must return a scalar float loss to be differentiated; it returns 'tensor<2xf32>'}}
func.func @loss_not_scalar(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = graph.weight "w" : tensor<2xf32>
  %y = graph.mul %x, %w : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// expected-error @+1 {{must return one value, the loss, to be differentiated; it returns 2}}
func.func @two_results(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %x, %x : tensor<f32>, tensor<f32>
}

// -----

func.func @no_rule(%x: tensor<4xf32>) -> tensor<f32> {
  %w = graph.weight "w" : tensor<4xf32>
  %y = graph.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'graph.cumsum' op has no gradient rule: the backward of this op is not implemented, and the loss depends on a parameter through it}}
  %c = graph.cumsum %y {axis = 0 : i64} : tensor<4xf32>
  %l = graph.reduce_sum %c, [0] {keepdims = false} : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @strided_slice(%x: tensor<4xf32>) -> tensor<f32> {
  %w = graph.weight "w" : tensor<4xf32>
  %y = graph.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'graph.slice' op has no gradient rule for steps other than 1}}
  %s = graph.slice %y, starts = [0], limits = [4], steps = [2] : tensor<4xf32> -> tensor<2xf32>
  %l = graph.reduce_sum %s, [0] {keepdims = false} : tensor<2xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @gather_elements_smaller_indices(%x: tensor<3x5xf32>, %i: tensor<2x1xi64>) -> tensor<f32> {
  %w = graph.weight "w" : tensor<3x5xf32>
  %y = graph.mul %x, %w : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  // expected-error @+1 {{'graph.gather_elements' op has no gradient rule for indices smaller than the data outside the axis}}
  %g = graph.gather_elements %y, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<2x1xi64>) -> tensor<2x1xf32>
  %l = graph.reduce_sum %g, [0, 1] {keepdims = false} : tensor<2x1xf32> -> tensor<f32>
  return %l : tensor<f32>
}

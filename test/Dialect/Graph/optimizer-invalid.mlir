// RUN: paracc-opt %s -split-input-file --paracc-optimizer -verify-diagnostics

// expected-error @+1 {{has no gradient results (run --paracc-autodiff first, and train at least one parameter)}}
func.func @no_gradients(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

// -----

// expected-error @+1 {{has a gradient of 'v' but no such parameter}}
func.func @unknown_parameter(%x: tensor<f32>) -> (tensor<f32>, tensor<f32> {graph.gradient_of = "v"}) {
  return %x, %x : tensor<f32>, tensor<f32>
}

// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-context-parallel

// A causal model's sequence that does not divide into 2 cp zig-zag chunks.
module attributes {dist.mesh = #dist.mesh<[cp = 4]>} {
func.func @indivisible_zigzag(%q: tensor<1x4x20x16xf32>) -> tensor<1x4x20x16xf32> {
  // expected-error @+1 {{context parallelism: a sequence of 20 does not divide into 2 x 4 zig-zag chunks (mesh axis 'cp'; --cp-layout contiguous needs 4)}}
  %y = graph.attention %q, %q, %q {causal = true, scale = 0.25 : f64}
      : (tensor<1x4x20x16xf32>, tensor<1x4x20x16xf32>, tensor<1x4x20x16xf32>) -> tensor<1x4x20x16xf32>
  return %y : tensor<1x4x20x16xf32>
}
}

// -----

// Without causal attention the layout is contiguous: the sequence must
// divide over cp.
module attributes {dist.mesh = #dist.mesh<[cp = 4]>} {
func.func @indivisible(%q: tensor<1x4x18x16xf32>) -> tensor<1x4x18x16xf32> {
  // expected-error @+1 {{context parallelism: a sequence of 18 does not divide over mesh axis 'cp' of size 4}}
  %y = graph.attention %q, %q, %q {scale = 0.25 : f64}
      : (tensor<1x4x18x16xf32>, tensor<1x4x18x16xf32>, tensor<1x4x18x16xf32>) -> tensor<1x4x18x16xf32>
  return %y : tensor<1x4x18x16xf32>
}
}

// -----

// A model without attention has no sequence to split.
// expected-error @+1 {{context parallelism (mesh axis 'cp') needs a model with attention: there is no sequence to split}}
module attributes {dist.mesh = #dist.mesh<[cp = 2]>} {
func.func @mlp(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %y = graph.relu %x : tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
}

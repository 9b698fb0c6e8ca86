// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-context-parallel="attention=alltoall" | FileCheck %s

// --paracc-context-parallel="attention=alltoall" (Ulysses): the attention's
// heads are split over cp and its sequence is whole (no zig-zag: every rank
// attends over the whole sequence with its share of the heads); the norms'
// activations hold the sequence split, so partitioning moves q, k and v
// from the sequence to the heads (one all-to-all each) and back.

// CHECK: module attributes {dist.mesh = #dist.mesh<[cp = 2]>} {
module attributes {dist.mesh = #dist.mesh<[cp = 2]>} {
// CHECK-LABEL: func.func @heads_first
// CHECK-SAME: tensor<1x4x64x16xf32> {dist.sharding = #dist.sharding<{?}, {cp}, {}, {?}>}
// CHECK: graph.attention {{.*}}dist.shardings = [#dist.sharding<{?}, {cp}, {}, {?}>]
func.func @heads_first(%q: tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32> {
  %y = graph.attention %q, %q, %q {causal = true, scale = 0.25 : f64}
      : (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32>
  return %y : tensor<1x4x64x16xf32>
}

// CHECK-LABEL: func.func @sequence_first
// CHECK-SAME: tensor<2x64x4x16xf32> {dist.sharding = #dist.sharding<{?}, {}, {cp}, {?}>}
func.func @sequence_first(%q: tensor<2x64x4x16xf32>) -> tensor<2x64x4x16xf32> {
  %y = graph.attention %q, %q, %q {scale = 0.25 : f64, sequence_first = true}
      : (tensor<2x64x4x16xf32>, tensor<2x64x4x16xf32>, tensor<2x64x4x16xf32>) -> tensor<2x64x4x16xf32>
  return %y : tensor<2x64x4x16xf32>
}

// CHECK-LABEL: func.func @norm
// CHECK: graph.rms_norm %{{.*}} {axis = 2 : i64, dist.shardings = [#dist.sharding<{?}, {cp}, {?}>]
func.func @norm(%x: tensor<2x64x16xf32>, %s: tensor<16xf32>) -> tensor<2x64x16xf32> {
  %y = graph.rms_norm %x, %s {axis = 2 : i64, epsilon = 1.0e-6 : f64} : tensor<2x64x16xf32>, tensor<16xf32> -> tensor<2x64x16xf32>
  return %y : tensor<2x64x16xf32>
}
}

// -----

// Heads that do not divide over cp.
module attributes {dist.mesh = #dist.mesh<[cp = 4]>} {
func.func @two_heads(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{context parallelism with all-to-all attention: 2 head(s) do not divide over mesh axis 'cp' of size 4 (--cp-attention allgather has no such limit)}}
  %y = graph.attention %q, %q, %q {causal = true, scale = 0.25 : f64}
      : (tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32>
  return %y : tensor<1x2x64x16xf32>
}
}

// RUN: paracc-opt %s -split-input-file --paracc-context-parallel | FileCheck %s

// --paracc-context-parallel: every attention's queries, keys, values and
// result get their sequence dim split over cp (dim -2, or -3 with
// sequence_first); the other dims stay open for propagation.

module attributes {dist.mesh = #dist.mesh<[dp = 2, cp = 2]>} {

// CHECK-LABEL: func.func @heads_first
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<1x4x64x16xf32> {dist.sharding = #dist.sharding<{?}, {?}, {cp}, {?}>},
// CHECK-SAME: %[[K:[^:]+]]: tensor<1x4x64x16xf32> {dist.sharding = #dist.sharding<{?}, {?}, {cp}, {?}>},
// CHECK-SAME: %[[V:[^:]+]]: tensor<1x4x64x8xf32> {dist.sharding = #dist.sharding<{?}, {?}, {cp}, {?}>})
func.func @heads_first(%q: tensor<1x4x64x16xf32>, %k: tensor<1x4x64x16xf32>,
                       %v: tensor<1x4x64x8xf32>) -> tensor<1x4x64x8xf32> {
  // CHECK: graph.attention %[[Q]], %[[K]], %[[V]] {causal = true, dist.shardings = [#dist.sharding<{?}, {?}, {cp}, {?}>], scale = 2.500000e-01 : f64}
  %y = graph.attention %q, %k, %v {causal = true, scale = 0.25 : f64}
      : (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x8xf32>) -> tensor<1x4x64x8xf32>
  return %y : tensor<1x4x64x8xf32>
}

// CHECK-LABEL: func.func @sequence_first
// CHECK-SAME: tensor<2x64x4x16xf32> {dist.sharding = #dist.sharding<{?}, {cp}, {?}, {?}>}
// CHECK: graph.attention {{.*}}dist.shardings = [#dist.sharding<{?}, {cp}, {?}, {?}>]
func.func @sequence_first(%q: tensor<2x64x4x16xf32>) -> tensor<2x64x4x16xf32> {
  %y = graph.attention %q, %q, %q {scale = 0.25 : f64, sequence_first = true}
      : (tensor<2x64x4x16xf32>, tensor<2x64x4x16xf32>, tensor<2x64x4x16xf32>) -> tensor<2x64x4x16xf32>
  return %y : tensor<2x64x4x16xf32>
}

}

// -----

// Without a cp axis (or with cp1) nothing is annotated.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
// CHECK-LABEL: func.func @no_axis
// CHECK-NOT: dist.sharding
func.func @no_axis(%q: tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32> {
  %y = graph.attention %q, %q, %q {causal = true, scale = 0.25 : f64}
      : (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32>
  return %y : tensor<1x4x64x16xf32>
}
}

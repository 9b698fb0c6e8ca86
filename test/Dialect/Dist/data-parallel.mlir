// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-data-parallel | FileCheck %s
// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-sequence-parallel --paracc-data-parallel | FileCheck %s --check-prefix=SP

// --paracc-data-parallel: dim 0 of every tensor argument is split over dp,
// the other dims stay open; scalars are left alone. A batch that does not
// divide is an error that names the input, its size and the axis.

module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
// CHECK-LABEL: func.func @inputs
// CHECK-SAME: (%{{[^:]+}}: tensor<4x16xi64> {dist.sharding = #dist.sharding<{dp}, {?}>},
// CHECK-SAME: %{{[^:]+}}: tensor<4x16x64xf32> {dist.sharding = #dist.sharding<{dp}, {?}, {?}>},
// CHECK-SAME: %{{[^:]+}}: tensor<4xi64> {dist.sharding = #dist.sharding<{dp}>},
// CHECK-SAME: %{{[^:]+}}: tensor<f32>)
func.func @inputs(%ids: tensor<4x16xi64>, %x: tensor<4x16x64xf32>, %labels: tensor<4xi64>, %s: tensor<f32>) -> tensor<4x16xi64> {
  // Ops are left to propagation.
  // CHECK-NOT: dist.shardings
  %w = graph.weight "w" : tensor<64x64xf32>
  %0 = graph.matmul %x, %w : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
  // CHECK: return
  return %ids : tensor<4x16xi64>
}
}

// -----

// A closed annotation on another dim is kept.
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
// CHECK-LABEL: func.func @keeps_annotations
// CHECK-SAME: dist.sharding = #dist.sharding<{dp}, {tp}, {?}>
func.func @keeps_annotations(%x: tensor<4x16x64xf32> {dist.sharding = #dist.sharding<{?}, {tp}, {?}>}) -> tensor<4x16x64xf32> {
  return %x : tensor<4x16x64xf32>
}
}

// -----

// With sequence parallelism first (the pipeline's order), the residual
// input is split over both axes: batch over dp, sequence over tp.
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
// CHECK-LABEL: func.func @with_sequence_parallel
// CHECK-SAME: dist.sharding = #dist.sharding<{dp}, {?}, {?}>
// SP-LABEL: func.func @with_sequence_parallel
// SP-SAME: (%{{[^:]+}}: tensor<4x16x64xf32> {dist.sharding = #dist.sharding<{dp}, {tp}, {?}>},
// SP-SAME: %{{[^:]+}}: tensor<8xf32> {dist.sharding = #dist.sharding<{dp}>})
// SP: graph.layer_norm {{.*}}dist.shardings = [#dist.sharding<{?}, {tp}, {?}>]
func.func @with_sequence_parallel(%x: tensor<4x16x64xf32>, %s: tensor<8xf32>) -> tensor<4x16x64xf32> {
  %g = graph.weight "ln.weight" : tensor<64xf32>
  %0 = graph.layer_norm %x, %g {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<4x16x64xf32>, tensor<64xf32> -> tensor<4x16x64xf32>
  return %0 : tensor<4x16x64xf32>
}
}

// -----

// No dp axis, or one of size 1: nothing changes.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
// CHECK-LABEL: func.func @no_dp_axis
// CHECK-SAME: (%{{[^:]+}}: tensor<3x16xf32>) -> tensor<3x16xf32> {
func.func @no_dp_axis(%x: tensor<3x16xf32>) -> tensor<3x16xf32> {
  return %x : tensor<3x16xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 1, tp = 2]>} {
// CHECK-LABEL: func.func @dp_of_size_1
// CHECK-SAME: (%{{[^:]+}}: tensor<3x16xf32>) -> tensor<3x16xf32> {
func.func @dp_of_size_1(%x: tensor<3x16xf32>) -> tensor<3x16xf32> {
  return %x : tensor<3x16xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
// expected-error @+1 {{input 1 has batch dim 0 of size 3, which does not divide over mesh axis 'dp' of size 2}}
func.func @batch_does_not_divide(%ids: tensor<4x16xi64>, %x: tensor<3x16xf32>) -> tensor<4x16xi64> {
  return %ids : tensor<4x16xi64>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 4, tp = 2]>} {
// expected-error @+1 {{input 0 has batch dim 0 of size 2, which does not divide over mesh axis 'dp' of size 4}}
func.func @batch_smaller_than_axis(%ids: tensor<2x16xi64>) -> tensor<2x16xi64> {
  return %ids : tensor<2x16xi64>
}
}

// -----

// Hybrid sharding's mesh: the batch is split over the replica axis, then
// dp (the rank order of plain dp over their product).
module attributes {dist.mesh = #dist.mesh<[dpr = 2, dp = 2]>} {
// CHECK-LABEL: func.func @hybrid
// CHECK-SAME: dist.sharding = #dist.sharding<{dpr, dp}, {?}>
func.func @hybrid(%ids: tensor<4x16xi64>) -> tensor<4x16xi64> {
  return %ids : tensor<4x16xi64>
}
}

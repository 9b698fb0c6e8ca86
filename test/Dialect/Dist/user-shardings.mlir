// RUN: paracc-opt %s -split-input-file --paracc-user-shardings -verify-diagnostics | FileCheck %s

// --paracc-user-shardings: a front end's sharding (dist.user_sharding)
// replaces what the parallelism passes annotated; an open dim keeps their
// choice.

module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
// CHECK-LABEL: func.func @follows
// CHECK-SAME: %arg0: tensor<4x16xf32> {dist.sharding = #dist.sharding<{dp}, {}>, dist.user_sharding = #dist.sharding<{dp}, {}>}
func.func @follows(%x: tensor<4x16xf32> {dist.user_sharding = #dist.sharding<{dp}, {}>}) -> tensor<4x32xf32> {
  // Tensor parallelism chose columns; the user asked for rows.
  // CHECK: graph.weight "w" {dist.shardings = [#dist.sharding<{tp}, {}>], dist.user_sharding = #dist.sharding<{tp}, {}>}
  %w = graph.weight "w" {dist.shardings = [#dist.sharding<{}, {tp}>], dist.user_sharding = #dist.sharding<{tp}, {}>} : tensor<16x32xf32>
  // An open dim keeps the annotation's axes.
  // CHECK: graph.weight "b" {dist.shardings = [#dist.sharding<{tp}, {dp}>], dist.user_sharding = #dist.sharding<{?}, {dp}>}
  %b = graph.weight "b" {dist.shardings = [#dist.sharding<{tp}, {}>], dist.user_sharding = #dist.sharding<{?}, {dp}>} : tensor<4x32xf32>
  %y = graph.matmul %x, %w : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
  %z = graph.add %y, %b : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  return %z : tensor<4x32xf32>
}
}

// -----

// An axis the mesh does not have: not followed, with a warning.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
// CHECK-LABEL: func.func @unknown_axis
func.func @unknown_axis() -> tensor<16x32xf32> {
  // CHECK: graph.weight "w" {dist.shardings = [#dist.sharding<{}, {tp}>]
  // expected-warning @+1 {{the value's sharding #dist.sharding<{x}, {}> names mesh axis 'x', which the mesh does not have: paracc plans it itself}}
  %w = graph.weight "w" {dist.shardings = [#dist.sharding<{}, {tp}>], dist.user_sharding = #dist.sharding<{x}, {}>} : tensor<16x32xf32>
  return %w : tensor<16x32xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @not_dividing() -> tensor<15x32xf32> {
  // expected-error @+1 {{the value's sharding #dist.sharding<{tp}, {}> splits dim 0 of size 15 in 2}}
  %w = graph.weight "w" {dist.user_sharding = #dist.sharding<{tp}, {}>} : tensor<15x32xf32>
  return %w : tensor<15x32xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @wrong_rank() -> tensor<16x32xf32> {
  // expected-error @+1 {{the value's sharding #dist.sharding<{tp}> has 1 dims; the value has 2}}
  %w = graph.weight "w" {dist.user_sharding = #dist.sharding<{tp}>} : tensor<16x32xf32>
  return %w : tensor<16x32xf32>
}
}

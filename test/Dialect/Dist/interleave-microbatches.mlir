// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-interleave-microbatches | FileCheck %s

// A row-parallel MLP over tp with 2 micro-batches per rank: the argument
// becomes whole and is sliced, weights stay shared, each micro-batch's
// segment (up to its all-reduce) runs before the next one's, and the
// results are concatenated back. The virtual axis leaves the mesh.

// CHECK: module attributes {dist.mesh = #dist.mesh<[tp = 2]>, dist.microbatches = 2 : i64}
module attributes {dist.mesh = #dist.mesh<[tp = 2, mb = 2]>} {
// CHECK-LABEL: func.func @tp_mlp
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32>, array<i32>]})
// CHECK-SAME: -> (tensor<4x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32>, array<i32>]})
// CHECK-DAG: %[[X0:.*]] = graph.slice %[[X]], starts = [0, 0], limits = [2, 8], steps = [1, 1]
// CHECK-DAG: %[[X1:.*]] = graph.slice %[[X]], starts = [2, 0], limits = [4, 8], steps = [1, 1]
// CHECK-DAG: %[[W1:.*]] = graph.weight "w1"
// CHECK: %[[H0:.*]] = graph.matmul %[[X0]], %[[W1]]
// CHECK: %[[W2:.*]] = graph.weight "w2"
// CHECK: %[[Y0:.*]] = graph.matmul %[[H0]], %[[W2]]
// CHECK: %[[R0:.*]] = dist.all_reduce %[[Y0]] over ["tp"]
// CHECK: %[[H1:.*]] = graph.matmul %[[X1]], %[[W1]]
// CHECK: %[[Y1:.*]] = graph.matmul %[[H1]], %[[W2]]
// CHECK: %[[R1:.*]] = dist.all_reduce %[[Y1]] over ["tp"]
// CHECK: %[[Z0:.*]] = graph.add %[[R0]], %[[X0]]
// CHECK: %[[Z1:.*]] = graph.add %[[R1]], %[[X1]]
// CHECK: %[[Z:.*]] = graph.concat %[[Z0]], %[[Z1]] {axis = 0 : i64}
// CHECK: return %[[Z]]
// CHECK-NOT: graph.weight
func.func @tp_mlp(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  %w1 = graph.weight "w1" {dist.shard_dims = [array<i32>, array<i32: 0>]} : tensor<8x4xf32>
  %w2 = graph.weight "w2" {dist.shard_dims = [array<i32: 0>, array<i32>]} : tensor<4x8xf32>
  %h = graph.matmul %x, %w1 : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %y = graph.matmul %h, %w2 : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  %r = dist.all_reduce %y over ["tp"] : tensor<2x8xf32>
  %z = graph.add %r, %x : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %z : tensor<2x8xf32>
}
}

// -----

// A data-parallel mean: the all-reduce over [dp, mb] becomes the sum of the
// micro-batches' partial sums and an all-reduce over dp; the index over
// [dp, mb] becomes index(dp) * 2 + micro-batch; a replicated value split
// over [dp, mb] is split over dp, then sliced.

// CHECK: module attributes {dist.mesh = #dist.mesh<[dp = 2]>, dist.microbatches = 2 : i64}
module attributes {dist.mesh = #dist.mesh<[dp = 2, mb = 2]>} {
// CHECK-LABEL: func.func @dp_sum
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>
func.func @dp_sum(%x: tensor<2xf32> {dist.global_type = tensor<8xf32>, dist.shard_dims = [array<i32: 0, 1>]}) -> (tensor<f32> {dist.global_type = tensor<f32>, dist.shard_dims = []}, tensor<2xf32> {dist.global_type = tensor<8xf32>, dist.shard_dims = [array<i32: 0, 1>]}) {
  // CHECK-DAG: %[[X0:.*]] = graph.slice %[[X]], starts = [0], limits = [2]
  // CHECK-DAG: %[[X1:.*]] = graph.slice %[[X]], starts = [2], limits = [4]
  // CHECK-DAG: %[[S0:.*]] = graph.reduce_sum %[[X0]]
  // CHECK-DAG: %[[S1:.*]] = graph.reduce_sum %[[X1]]
  // CHECK: %[[T:.*]] = graph.add %[[S0]], %[[S1]]
  // CHECK: %[[R:.*]] = dist.all_reduce %[[T]] over ["dp"]
  %s = graph.reduce_sum %x, [0] {keepdims = false} : tensor<2xf32> -> tensor<f32>
  %r = dist.all_reduce %s over ["dp", "mb"] : tensor<f32>
  // CHECK: %[[ZERO:.*]] = graph.constant dense<0> : tensor<i64>
  // CHECK: %[[DP:.*]] = dist.axis_index over ["dp"]
  // CHECK: %[[TWO:.*]] = graph.constant dense<2> : tensor<i64>
  // CHECK: %[[BASE:.*]] = graph.mul %[[DP]], %[[TWO]]
  // CHECK: graph.add %[[BASE]], %[[ZERO]]
  %i = dist.axis_index over ["dp", "mb"] : tensor<i64>
  // CHECK: %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<8xf32>
  // CHECK: %[[L:.*]] = dist.local_shard %[[C]] to <{dp}> : tensor<8xf32> -> tensor<4xf32>
  // CHECK: graph.slice %[[L]], starts = [0], limits = [2]
  // CHECK: %[[ONE:.*]] = graph.constant dense<1> : tensor<i64>
  // CHECK: graph.add %{{.*}}, %[[ONE]]
  // CHECK: graph.slice %{{.*}}, starts = [2], limits = [4]
  %c = graph.constant dense<1.0> : tensor<8xf32>
  %l = dist.local_shard %c to <{dp, mb}> : tensor<8xf32> -> tensor<2xf32>
  // CHECK: %[[CAT:.*]] = graph.concat
  // CHECK-SAME: -> tensor<4xf32>
  // CHECK: return %[[R]], %[[CAT]]
  return %r, %l : tensor<f32>, tensor<2xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2, mb = 2]>} {
func.func @gather_over_mb(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dist.all_gather' op over the micro-batch axis is not supported}}
  %g = dist.all_gather %x over ["mb"] dim = 0 : tensor<2x8xf32> -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
}

// -----

// Pipeline transfers over pp: every micro-batch is a rank of the virtual
// mesh, so each sends and receives on its own, in micro-batch order on both
// sides; a send of a value shared by the micro-batches (a weight) is still
// sent once per micro-batch, as its recvs expect.

// CHECK: module attributes {dist.mesh = #dist.mesh<[pp = 2]>, dist.microbatches = 2 : i64}
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
// CHECK-LABEL: func.func @pipeline
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>
// CHECK-DAG: %[[X0:.*]] = graph.slice %[[X]], starts = [0, 0], limits = [2, 8], steps = [1, 1]
// CHECK-DAG: %[[X1:.*]] = graph.slice %[[X]], starts = [2, 0], limits = [4, 8], steps = [1, 1]
// CHECK: %[[Y0:.*]] = graph.exp %[[X0]]
// CHECK: dist.send %[[Y0]] over ["pp"] to = 1 : tensor<2x8xf32>
// CHECK: %[[Y1:.*]] = graph.exp %[[X1]]
// CHECK: dist.send %[[Y1]] over ["pp"] to = 1 : tensor<2x8xf32>
// CHECK: %[[W:.*]] = graph.weight "w"
// CHECK: dist.send %[[W]] over ["pp"] to = 1 tag = 1 : tensor<8xf32>
// CHECK: dist.send %[[W]] over ["pp"] to = 1 tag = 1 : tensor<8xf32>
// CHECK: %[[R0:.*]] = dist.recv over ["pp"] from = -1 : tensor<2x8xf32>
// CHECK: %[[R1:.*]] = dist.recv over ["pp"] from = -1 : tensor<2x8xf32>
// CHECK: %[[V0:.*]] = dist.recv over ["pp"] from = -1 tag = 1 : tensor<8xf32>
// CHECK: %[[V1:.*]] = dist.recv over ["pp"] from = -1 tag = 1 : tensor<8xf32>
// CHECK: %[[Z0:.*]] = graph.add %[[R0]], %[[V0]]
// CHECK: %[[Z1:.*]] = graph.add %[[R1]], %[[V1]]
// CHECK: %[[Z:.*]] = graph.concat %[[Z0]], %[[Z1]] {axis = 0 : i64}
// CHECK: return %[[Z]]
func.func @pipeline(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  %w = graph.weight "w" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  %y = graph.exp %x : tensor<2x8xf32>
  dist.send %y over ["pp"] to = 1 : tensor<2x8xf32>
  dist.send %w over ["pp"] to = 1 tag = 1 : tensor<8xf32>
  %r = dist.recv over ["pp"] from = -1 : tensor<2x8xf32>
  %v = dist.recv over ["pp"] from = -1 tag = 1 : tensor<8xf32>
  %z = graph.add %r, %v : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %z : tensor<2x8xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2, mb = 2]>} {
func.func @broadcast_over_mb(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> tensor<2x8xf32> {
  // expected-error @+1 {{'dist.broadcast' op over the micro-batch axis is not supported}}
  %b = dist.broadcast %x over ["tp", "mb"] root = 0 : tensor<2x8xf32>
  return %b : tensor<2x8xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @send_over_mb(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  // expected-error @+1 {{'dist.send' op over the micro-batch axis is not supported}}
  dist.send %x over ["mb"] to = 1 : tensor<2x8xf32>
  return
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @recv_over_mb() -> tensor<2x8xf32> {
  // expected-error @+1 {{'dist.recv' op over the micro-batch axis is not supported}}
  %r = dist.recv over ["pp", "mb"] from = -1 : tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}
}

// -----

// expected-error @+1 {{the micro-batch axis 'mb' must be the last mesh axis}}
module attributes {dist.mesh = #dist.mesh<[mb = 2, tp = 2]>} {
func.func @mb_first() {
  return
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2, mb = 2]>} {
func.func @replicated_result(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<2x8xf32> {dist.global_type = tensor<2x8xf32>, dist.shard_dims = [array<i32>, array<i32>]}) {
  %y = graph.exp %x : tensor<2x8xf32>
  // expected-error @+1 {{returns result 0, which differs between micro-batches but is not split over them}}
  return %y : tensor<2x8xf32>
}
}

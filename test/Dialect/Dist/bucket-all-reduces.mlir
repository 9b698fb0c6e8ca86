// RUN: paracc-opt %s -split-input-file --paracc-bucket-all-reduces | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-bucket-all-reduces=bucket-mb=0 | FileCheck %s --check-prefix=OFF
// RUN: not paracc-opt %s -split-input-file --paracc-bucket-all-reduces=bucket-mb=-1 2>&1 | FileCheck %s --check-prefix=ERR

// Gradients all-reduced over dp and read only by the updates at the end:
// one bucket, placed at the last of them; the pieces are sliced back in
// order. The tp reduction (another axis) stays alone.
// CHECK-LABEL: func.func @gradients
// CHECK: %[[A:.*]] = graph.reshape %arg0 : tensor<4x8xf32> -> tensor<32xf32>
// CHECK: %[[B:.*]] = graph.reshape %arg1 : tensor<8xf32> -> tensor<8xf32>
// CHECK: %[[C:.*]] = graph.concat %[[A]], %[[B]] {axis = 0 : i64} : (tensor<32xf32>, tensor<8xf32>) -> tensor<40xf32>
// CHECK: %[[R:.*]] = dist.all_reduce %[[C]] over ["dp"] : tensor<40xf32>
// CHECK: %[[S0:.*]] = graph.slice %[[R]], starts = [0], limits = [32], steps = [1]
// CHECK: %[[G0:.*]] = graph.reshape %[[S0]] : tensor<32xf32> -> tensor<4x8xf32>
// CHECK: %[[S1:.*]] = graph.slice %[[R]], starts = [32], limits = [40], steps = [1]
// CHECK: dist.all_reduce %arg2 over ["tp"] : tensor<8xf32>
// CHECK: graph.neg %[[G0]]
// OFF-LABEL: func.func @gradients
// OFF-COUNT-3: dist.all_reduce
// OFF-NOT: graph.concat
// OFF: graph.neg
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
func.func @gradients(%ga: tensor<4x8xf32>, %gb: tensor<8xf32>, %gc: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %a = dist.all_reduce %ga over ["dp"] : tensor<4x8xf32>
  %b = dist.all_reduce %gb over ["dp"] : tensor<8xf32>
  %c = dist.all_reduce %gc over ["tp"] : tensor<8xf32>
  %na = graph.neg %a : tensor<4x8xf32>
  %nb = graph.neg %b : tensor<8xf32>
  %nc = graph.neg %c : tensor<8xf32>
  return %na, %nb, %nc : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
}
}

// -----

// A result read before the next all-reduce is issued closes the bucket:
// the forward's tensor-parallel reductions are never delayed.
// CHECK-LABEL: func.func @needed_at_once
// CHECK: dist.all_reduce %arg0 over ["tp"] : tensor<8xf32>
// CHECK: graph.neg
// CHECK: dist.all_reduce %{{.*}} over ["tp"] : tensor<8xf32>
// CHECK-NOT: graph.concat
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @needed_at_once(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = dist.all_reduce %x over ["tp"] : tensor<8xf32>
  %n = graph.neg %a : tensor<8xf32>
  %b = dist.all_reduce %n over ["tp"] : tensor<8xf32>
  return %b : tensor<8xf32>
}
}

// ERR: bucket-mb must be >= 0, got -1

// -----

// ZeRO's reduce-scatters: operands joined as rows (rank r's shard of each
// in row r), one reduce-scatter along dim 0, each shard sliced back. A
// split along dim 1 after dims of more than one element is transposed to
// the front first and back after; one after a dim of size 1 is not.
// CHECK-LABEL: func.func @reduce_scatters
// CHECK-DAG: %[[A:.*]] = graph.reshape %arg0 : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK-DAG: %[[BT:.*]] = graph.transpose %arg1, [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
// CHECK-DAG: %[[B:.*]] = graph.reshape %[[BT]] : tensor<6x4xf32> -> tensor<2x12xf32>
// CHECK-DAG: %[[C:.*]] = graph.reshape %arg2 : tensor<1x8xf32> -> tensor<2x4xf32>
// CHECK: %[[J:.*]] = graph.concat %[[A]], %[[B]], %[[C]] {axis = 1 : i64} : (tensor<2x16xf32>, tensor<2x12xf32>, tensor<2x4xf32>) -> tensor<2x32xf32>
// CHECK: %[[R:.*]] = dist.reduce_scatter %[[J]] over ["dp"] dim = 0 : tensor<2x32xf32> -> tensor<1x32xf32>
// CHECK: %[[S0:.*]] = graph.slice %[[R]], starts = [0, 0], limits = [1, 16], steps = [1, 1]
// CHECK: graph.reshape %[[S0]] : tensor<1x16xf32> -> tensor<2x8xf32>
// CHECK: %[[S1:.*]] = graph.slice %[[R]], starts = [0, 16], limits = [1, 28], steps = [1, 1]
// CHECK: %[[B1:.*]] = graph.reshape %[[S1]] : tensor<1x12xf32> -> tensor<3x4xf32>
// CHECK: graph.transpose %[[B1]], [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
// CHECK: %[[S2:.*]] = graph.slice %[[R]], starts = [0, 28], limits = [1, 32], steps = [1, 1]
// CHECK: graph.reshape %[[S2]] : tensor<1x4xf32> -> tensor<1x4xf32>
module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
func.func @reduce_scatters(%ga: tensor<4x8xf32>, %gb: tensor<4x6xf32>, %gc: tensor<1x8xf32>) -> (tensor<2x8xf32>, tensor<4x3xf32>, tensor<1x4xf32>) {
  %a = dist.reduce_scatter %ga over ["dp"] dim = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
  %b = dist.reduce_scatter %gb over ["dp"] dim = 1 : tensor<4x6xf32> -> tensor<4x3xf32>
  %c = dist.reduce_scatter %gc over ["dp"] dim = 1 : tensor<1x8xf32> -> tensor<1x4xf32>
  %na = graph.neg %a : tensor<2x8xf32>
  %nb = graph.neg %b : tensor<4x3xf32>
  %nc = graph.neg %c : tensor<1x4xf32>
  return %na, %nb, %nc : tensor<2x8xf32>, tensor<4x3xf32>, tensor<1x4xf32>
}
}

// -----

// ZeRO's all-gathers of the updated parameters, each written to its state
// right after: the writes take effect at the step's end, so they move
// after one all-gather of the joined shards.
// CHECK-LABEL: func.func @all_gathers
// CHECK: %[[J:.*]] = graph.concat {{.*}} {axis = 1 : i64} : (tensor<1x16xf32>, tensor<1x4xf32>) -> tensor<1x20xf32>
// CHECK: %[[G:.*]] = dist.all_gather %[[J]] over ["dp"] dim = 0 : tensor<1x20xf32> -> tensor<2x20xf32>
// CHECK: %[[S0:.*]] = graph.slice %[[G]], starts = [0, 0], limits = [2, 16], steps = [1, 1]
// CHECK: %[[P0:.*]] = graph.reshape %[[S0]] : tensor<2x16xf32> -> tensor<4x8xf32>
// CHECK: %[[S1:.*]] = graph.slice %[[G]], starts = [0, 16], limits = [2, 20], steps = [1, 1]
// CHECK: %[[P1:.*]] = graph.reshape %[[S1]] : tensor<2x4xf32> -> tensor<8xf32>
// CHECK: graph.assign "w0", %[[P0]]
// CHECK: graph.assign "w1", %[[P1]]
module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
func.func @all_gathers(%p0: tensor<2x8xf32>, %p1: tensor<4xf32>) {
  %a = dist.all_gather %p0 over ["dp"] dim = 0 : tensor<2x8xf32> -> tensor<4x8xf32>
  graph.assign "w0", %a : tensor<4x8xf32>
  %b = dist.all_gather %p1 over ["dp"] dim = 0 : tensor<4xf32> -> tensor<8xf32>
  graph.assign "w1", %b : tensor<8xf32>
  return
}
}

// -----

// ZeRO in bf16: each gradient all-reduced, then its local shard taken at
// once. The shards (views) move after one all-reduce of the bucket.
// CHECK-LABEL: func.func @all_reduce_then_shard
// CHECK: %[[R:.*]] = dist.all_reduce %{{.*}} over ["dp"] : tensor<40xbf16>
// CHECK: %[[A:.*]] = graph.reshape {{.*}} -> tensor<4x8xbf16>
// CHECK: %[[B:.*]] = graph.reshape {{.*}} -> tensor<8xbf16>
// CHECK: dist.local_shard %[[A]] to <{dp}, {}> : tensor<4x8xbf16> -> tensor<2x8xbf16>
// CHECK: dist.local_shard %[[B]] to <{dp}> : tensor<8xbf16> -> tensor<4xbf16>
module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
func.func @all_reduce_then_shard(%ga: tensor<4x8xbf16>, %gb: tensor<8xbf16>) -> (tensor<2x8xbf16>, tensor<4xbf16>) {
  %a = dist.all_reduce %ga over ["dp"] : tensor<4x8xbf16>
  %sa = dist.local_shard %a to <{dp}, {}> : tensor<4x8xbf16> -> tensor<2x8xbf16>
  %b = dist.all_reduce %gb over ["dp"] : tensor<8xbf16>
  %sb = dist.local_shard %b to <{dp}> : tensor<8xbf16> -> tensor<4xbf16>
  return %sa, %sb : tensor<2x8xbf16>, tensor<4xbf16>
}
}

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

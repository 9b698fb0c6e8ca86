// RUN: paracc-opt %s --paracc-pipeline="schedule=interleaved virtual-stages=2" | FileCheck %s

// --paracc-pipeline under the interleaved schedule: four virtual stages
// (dist.stage 0-3) on a pipeline of two ranks, so rank 0 runs virtual stages
// 0 and 2 and rank 1 runs 1 and 3. Each action is one chunk's ops for one
// micro-batch and records the chunk in dist.pipeline_action; the
// forward goes 0 -> 1 -> 2 -> 3, so rank 1's first chunk sends back to
// rank 0 (to = -1) and rank 0's second chunk on to rank 1. The micro-batches
// run in groups of p = 2: chunk 0 of micro-batches 0 and 1, then chunk 1.
// A value two chunks of one rank share (the input's slice) does not cross.

// CHECK: module attributes {dist.mesh = #dist.mesh<[pp = 2]>, dist.microbatches = 2 : i64}
// CHECK-LABEL: func.func @main_stage0
// CHECK-SAME: dist.pipeline_stage = 0 : i64
// CHECK: %[[A0:.+]] = graph.matmul {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 0 : i64}
// CHECK: dist.send %[[A0]] over ["pp"] to = 1 : tensor<2x8xf32>
// CHECK: %[[A1:.+]] = graph.matmul {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 0 : i64}
// CHECK: dist.send %[[A1]] over ["pp"] to = 1 tag = 1 : tensor<2x8xf32>
// CHECK: %[[R0:.+]] = dist.recv over ["pp"] from = 1 tag = 2 : tensor<2x8xf32>
// CHECK: %[[C0:.+]] = graph.matmul %[[R0]], {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward, chunk = 1>, dist.stage = 2 : i64}
// CHECK: %[[R1:.+]] = dist.recv over ["pp"] from = 1 tag = 3 : tensor<2x8xf32>
// CHECK: dist.send %[[C0]] over ["pp"] to = 1 tag = 4 : tensor<2x8xf32>
// CHECK: %[[C1:.+]] = graph.matmul %[[R1]], {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward, chunk = 1>, dist.stage = 2 : i64}
// CHECK: dist.send %[[C1]] over ["pp"] to = 1 tag = 5 : tensor<2x8xf32>
// CHECK: return{{$}}
// CHECK-LABEL: func.func @main_stage1
// CHECK-SAME: dist.pipeline_stage = 1 : i64
// CHECK: %[[B0IN:.+]] = dist.recv over ["pp"] from = -1 : tensor<2x8xf32>
// CHECK: %[[B0:.+]] = graph.matmul %[[B0IN]], {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 1 : i64}
// CHECK: %[[B1IN:.+]] = dist.recv over ["pp"] from = -1 tag = 1 : tensor<2x8xf32>
// CHECK: dist.send %[[B0]] over ["pp"] to = -1 tag = 2 : tensor<2x8xf32>
// CHECK: %[[B1:.+]] = graph.matmul %[[B1IN]], {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 1 : i64}
// CHECK: dist.send %[[B1]] over ["pp"] to = -1 tag = 3 : tensor<2x8xf32>
// CHECK: %[[D0IN:.+]] = dist.recv over ["pp"] from = -1 tag = 4 : tensor<2x8xf32>
// CHECK: %[[D0:.+]] = graph.matmul %[[D0IN]], {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward, chunk = 1>, dist.stage = 3 : i64}
// CHECK: %[[D1IN:.+]] = dist.recv over ["pp"] from = -1 tag = 5 : tensor<2x8xf32>
// CHECK: %[[D1:.+]] = graph.matmul %[[D1IN]], {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward, chunk = 1>, dist.stage = 3 : i64}
// CHECK: %[[Y:.+]] = graph.concat %[[D0]], %[[D1]]
// CHECK: return %[[Y]] : tensor<4x8xf32>
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @main(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  %w0 = graph.weight "w0" {dist.shard_dims = [array<i32>, array<i32>]} : tensor<8x8xf32>
  %w1 = graph.weight "w1" {dist.shard_dims = [array<i32>, array<i32>]} : tensor<8x8xf32>
  %w2 = graph.weight "w2" {dist.shard_dims = [array<i32>, array<i32>]} : tensor<8x8xf32>
  %w3 = graph.weight "w3" {dist.shard_dims = [array<i32>, array<i32>]} : tensor<8x8xf32>
  %a = graph.matmul %x, %w0 {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %b = graph.matmul %a, %w1 {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %c = graph.matmul %b, %w2 {dist.stage = 2 : i64} : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %d = graph.matmul %c, %w3 {dist.stage = 3 : i64} : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  return %d : tensor<2x8xf32>
}
}

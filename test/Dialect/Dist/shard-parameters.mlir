// RUN: paracc-opt %s -split-input-file --paracc-propagate-sharding --paracc-shard-optimizer-state --paracc-partition --canonicalize --paracc-shard-parameters="stage=3" | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-propagate-sharding --paracc-shard-optimizer-state --paracc-partition --canonicalize --paracc-shard-parameters="stage=3 prefetch=0" | FileCheck %s --check-prefix=NOPREFETCH
// RUN: paracc-opt %s -split-input-file --paracc-propagate-sharding --paracc-shard-optimizer-state --paracc-partition --canonicalize --paracc-shard-parameters="stage=1" | FileCheck %s --check-prefix=STAGE1
// RUN: paracc-opt %s -split-input-file --paracc-propagate-sharding --paracc-shard-optimizer-state --paracc-partition --canonicalize --paracc-shard-parameters="stage=2" | FileCheck %s --check-prefix=STAGE2

// --paracc-shard-parameters on ZeRO's partitioned step. A model of two
// residual layers (x + x w1, then h + h w2): the forward reads w1 and w2,
// the backward reads w2 (the input gradient of the second layer).
//
// Stage 3: both weights' buffers become their dp shards; the forward reads
// a forward gather, the backward a backward gather; the update reads and
// writes the shard (no gather after it). With prefetch 1 the second
// layer's forward gather is issued before the first layer's product; with
// prefetch 0 just before its own.

module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
// CHECK: module attributes {dist.mesh = #dist.mesh<[dp = 2]>, dist.zero_plan = #dist.zero_plan<stage = 3, axis = "dp", prefetch = 1, layers = 2, sharded_parameters = 2, forward_units = [1, 2], forward_issued = [1, 1], forward_bytes = [256, 256], backward_units = [2], backward_issued = [2], backward_bytes = [256], gather_peak_bytes = 512>}
// CHECK-LABEL: func.func @step
// CHECK-DAG: %[[W1:.*]] = graph.weight "w1" {dist.global_type = tensor<8x8xf32>, dist.shard_dims = [array<i32: 0>, array<i32>], dist.sharded_parameter = "dp"} : tensor<4x8xf32>
// CHECK-DAG: %[[W2:.*]] = graph.weight "w2" {dist.global_type = tensor<8x8xf32>, dist.shard_dims = [array<i32: 0>, array<i32>], dist.sharded_parameter = "dp"} : tensor<4x8xf32>
// CHECK: %[[F1:.*]] = dist.all_gather %[[W1]] over ["dp"] dim = 0 {dist.gather_unit = 1 : i64, dist.parameter_gather = "forward"} : tensor<4x8xf32> -> tensor<8x8xf32>
// CHECK: %[[F2:.*]] = dist.all_gather %[[W2]] over ["dp"] dim = 0 {dist.gather_unit = 2 : i64, dist.parameter_gather = "forward"} : tensor<4x8xf32> -> tensor<8x8xf32>
// CHECK: graph.matmul %{{.*}}, %[[F1]]
// CHECK: graph.matmul %{{.*}}, %[[F2]]
// CHECK: %[[B2:.*]] = dist.all_gather %[[W2]] over ["dp"] dim = 0 {dist.gather_unit = 2 : i64, dist.parameter_gather = "backward"}
// CHECK: graph.gemm %{{.*}}, %[[B2]] {trans_b = true}
// CHECK: %[[U1:.*]], %{{.*}}, %{{.*}} = graph.adamw %[[W1]], {{.*}} : tensor<4x8xf32>
// CHECK: graph.assign "w1", %[[U1]] : tensor<4x8xf32>
// CHECK: %[[U2:.*]], %{{.*}}, %{{.*}} = graph.adamw %[[W2]], {{.*}} : tensor<4x8xf32>
// CHECK: graph.assign "w2", %[[U2]] : tensor<4x8xf32>
// CHECK-NOT: dist.all_gather
// CHECK: return

// NOPREFETCH: forward_issued = [1, 2]
// NOPREFETCH-LABEL: func.func @step
// NOPREFETCH: dist.all_gather {{.*}}"forward"
// NOPREFETCH: graph.matmul
// NOPREFETCH: dist.all_gather {{.*}}"forward"
// NOPREFETCH: graph.matmul

// Stages 1 and 2 leave a step without micro-batches as partitioning wrote
// it (whole buffers, the gather after the update).
// STAGE1: dist.zero_plan = #dist.zero_plan<stage = 1, axis = "dp", prefetch = 1, layers = 0, sharded_parameters = 0, forward_units = [], forward_issued = [], forward_bytes = [], backward_units = [], backward_issued = [], backward_bytes = [], gather_peak_bytes = 0>
// STAGE1: graph.weight "w1" {{.*}} : tensor<8x8xf32>
// STAGE1: dist.all_gather %{{.*}} over ["dp"] dim = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
// STAGE1-NEXT: graph.assign "w1"
// STAGE2: dist.zero_plan = #dist.zero_plan<stage = 2,
// STAGE2: graph.weight "w1" {{.*}} : tensor<8x8xf32>
func.func @step(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}, %dy: tensor<4x8xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}, %lr: tensor<f32>, %step: tensor<f32>) -> tensor<f32> {
  %w1 = graph.weight "w1" : tensor<8x8xf32>
  %w2 = graph.weight "w2" : tensor<8x8xf32>
  %p1 = graph.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %h = graph.add %x, %p1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %p2 = graph.matmul %h, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = graph.add %h, %p2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = graph.reduce_sum %y, [0, 1] {keepdims = false} : tensor<4x8xf32> -> tensor<f32>
  // The backward: dh = dy + dy w2^T, the weight gradients.
  %dp = graph.gemm %dy, %w2 {trans_b = true} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %dh = graph.add %dy, %dp : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %dw2 = graph.gemm %h, %dy {trans_a = true} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %dw1 = graph.gemm %x, %dh {trans_a = true} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %m1 = graph.state "w1.exp_avg" : tensor<8x8xf32>
  %v1 = graph.state "w1.exp_avg_sq" : tensor<8x8xf32>
  %w1n, %m1n, %v1n = graph.adamw %w1, %dw1, %m1, %v1, %lr, %step, %one {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<8x8xf32>
  graph.assign "w1", %w1n : tensor<8x8xf32>
  graph.assign "w1.exp_avg", %m1n : tensor<8x8xf32>
  graph.assign "w1.exp_avg_sq", %v1n : tensor<8x8xf32>
  %m2 = graph.state "w2.exp_avg" : tensor<8x8xf32>
  %v2 = graph.state "w2.exp_avg_sq" : tensor<8x8xf32>
  %w2n, %m2n, %v2n = graph.adamw %w2, %dw2, %m2, %v2, %lr, %step, %one {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<8x8xf32>
  graph.assign "w2", %w2n : tensor<8x8xf32>
  graph.assign "w2.exp_avg", %m2n : tensor<8x8xf32>
  graph.assign "w2.exp_avg_sq", %v2n : tensor<8x8xf32>
  return %l : tensor<f32>
}
}

// -----

// A weight the forward reads only through a cast (bf16 compute) is cast on
// its shard and gathered in bf16; each phase gets its own transpose of it.
module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
// CHECK-LABEL: func.func @cast_and_transpose
// CHECK: %[[W:.*]] = graph.weight "w" {{.*}} : tensor<4x8xf32>
// CHECK: %[[C:.*]] = graph.cast %[[W]] : tensor<4x8xf32> -> tensor<4x8xbf16>
// CHECK: %[[G:.*]] = dist.all_gather %[[C]] over ["dp"] dim = 0 {{.*}}"forward"} : tensor<4x8xbf16> -> tensor<8x8xbf16>
// CHECK: %[[T:.*]] = graph.transpose %[[G]], [1, 0]
// CHECK: graph.matmul %{{.*}}, %[[T]]
// CHECK: %[[CB:.*]] = graph.cast %[[W]] : tensor<4x8xf32> -> tensor<4x8xbf16>
// CHECK: %[[GB:.*]] = dist.all_gather %[[CB]] over ["dp"] dim = 0 {{.*}}"backward"} : tensor<4x8xbf16> -> tensor<8x8xbf16>
// CHECK: %[[TB:.*]] = graph.transpose %[[GB]], [1, 0]
// CHECK: graph.gemm %{{.*}}, %[[TB]] {trans_b = true}
func.func @cast_and_transpose(%x: tensor<4x8xbf16> {dist.sharding = #dist.sharding<{dp}, {?}>}, %dy: tensor<4x8xbf16> {dist.sharding = #dist.sharding<{dp}, {?}>}, %lr: tensor<f32>, %step: tensor<f32>) -> (tensor<f32>, tensor<bf16>) {
  %w = graph.weight "w" : tensor<8x8xf32>
  %c = graph.cast %w : tensor<8x8xf32> -> tensor<8x8xbf16>
  %t = graph.transpose %c, [1, 0] : tensor<8x8xbf16> -> tensor<8x8xbf16>
  %p = graph.matmul %x, %t : (tensor<4x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xbf16>
  %y = graph.add %x, %p : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %l16 = graph.reduce_sum %y, [0, 1] {keepdims = false} : tensor<4x8xbf16> -> tensor<bf16>
  %l = graph.cast %l16 : tensor<bf16> -> tensor<f32>
  %dx = graph.gemm %dy, %t {trans_b = true} : (tensor<4x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xbf16>
  %dxs = graph.reduce_sum %dx, [0, 1] {keepdims = false} : tensor<4x8xbf16> -> tensor<bf16>
  %dwx = graph.gemm %x, %dy {trans_a = true} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<8x8xbf16>
  %dwf = graph.cast %dwx : tensor<8x8xbf16> -> tensor<8x8xf32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %m = graph.state "w.exp_avg" : tensor<8x8xf32>
  %v = graph.state "w.exp_avg_sq" : tensor<8x8xf32>
  %wn, %mn, %vn = graph.adamw %w, %dwf, %m, %v, %lr, %step, %one {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<8x8xf32>
  graph.assign "w", %wn : tensor<8x8xf32>
  graph.assign "w.exp_avg", %mn : tensor<8x8xf32>
  graph.assign "w.exp_avg_sq", %vn : tensor<8x8xf32>
  return %l, %dxs : tensor<f32>, tensor<bf16>
}
}

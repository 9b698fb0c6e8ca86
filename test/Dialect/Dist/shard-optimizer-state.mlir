// RUN: paracc-opt %s -split-input-file --paracc-propagate-sharding --paracc-shard-optimizer-state | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-propagate-sharding --paracc-shard-optimizer-state --paracc-partition --canonicalize | FileCheck %s --check-prefix=PART
// RUN: paracc-opt %s -split-input-file --paracc-propagate-sharding --paracc-shard-optimizer-state="axis=tp" | FileCheck %s --check-prefix=NOAXIS

// --paracc-shard-optimizer-state (ZeRO stage 1): an update's gradient,
// moments and results are split over dp on the parameter's first dimension
// that divides; partitioning then reduce-scatters the gradient, squares and
// sums the shard for the norm (an all-reduce of the partial sum), slices
// the parameter locally, updates the shard and all-gathers the parameter
// into its whole buffer. A parameter with no dimension that divides (b: 3)
// keeps whole moments and an all-reduced gradient.

module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
// CHECK-LABEL: func.func @step
// CHECK: %[[W:.*]] = graph.weight "w" {dist.shardings = [#dist.sharding<{}, {}>]}
// CHECK: %[[DW:.*]] = graph.gemm {{.*}}dist.shardings = [#dist.sharding<{dp}, {}>]
// CHECK: %[[DB:.*]] = graph.reduce_sum {{.*}}dist.shardings = [#dist.sharding<{}>]
// CHECK: graph.mul %[[DW]], %[[DW]] {dist.shardings = [#dist.sharding<{dp}, {}>]}
// CHECK: graph.mul %[[DB]], %[[DB]] {dist.shardings = [#dist.sharding<{}>]}
// CHECK: graph.state "w.exp_avg" {dist.shardings = [#dist.sharding<{dp}, {}>]}
// CHECK: graph.state "w.exp_avg_sq" {dist.shardings = [#dist.sharding<{dp}, {}>]}
// CHECK: graph.adamw %[[W]], %[[DW]], {{.*}} {{{.*}}dist.sharded_update, dist.shardings = [#dist.sharding<{dp}, {}>, #dist.sharding<{dp}, {}>, #dist.sharding<{dp}, {}>]
// CHECK: graph.state "b.exp_avg" {dist.shardings = [#dist.sharding<{}>]}
// CHECK-NOT: dist.sharded_update
// CHECK: return

// PART-LABEL: func.func @step
// PART: %[[W:.*]] = graph.weight "w" {dist.global_type = tensor<8x6xf32>, dist.shard_dims = [array<i32>, array<i32>]} : tensor<8x6xf32>
// PART: %[[WS:.*]] = dist.local_shard %[[W]] to <{dp}, {}> : tensor<8x6xf32> -> tensor<4x6xf32>
// PART: %[[DWP:.*]] = graph.gemm
// PART: %[[DW:.*]] = dist.reduce_scatter %[[DWP]] over ["dp"] dim = 0 : tensor<8x6xf32> -> tensor<4x6xf32>
// PART: %[[DBP:.*]] = graph.reduce_sum
// PART: %[[DB:.*]] = dist.all_reduce %[[DBP]] over ["dp"] : tensor<3xf32>
// PART: %[[SQ:.*]] = graph.mul %[[DW]], %[[DW]] : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
// PART: %[[SUM:.*]] = graph.reduce_sum %[[SQ]], [0, 1]
// PART: dist.all_reduce %[[SUM]] over ["dp"] : tensor<f32>
// PART: %[[M:.*]] = graph.state "w.exp_avg" {dist.global_type = tensor<8x6xf32>, dist.shard_dims = [array<i32: 0>, array<i32>]} : tensor<4x6xf32>
// PART: %[[V:.*]] = graph.state "w.exp_avg_sq" {{.*}} : tensor<4x6xf32>
// PART: %[[P2:.*]], %[[M2:.*]], %[[V2:.*]] = graph.adamw %[[WS]], %[[DW]], %[[M]], %[[V]], {{.*}} : tensor<4x6xf32>
// PART: %[[P:.*]] = dist.all_gather %[[P2]] over ["dp"] dim = 0 : tensor<4x6xf32> -> tensor<8x6xf32>
// PART: graph.assign "w", %[[P]] : tensor<8x6xf32>
// PART: graph.assign "w.exp_avg", %[[M2]] : tensor<4x6xf32>
// PART: graph.assign "w.exp_avg_sq", %[[V2]] : tensor<4x6xf32>
// PART: graph.state "b.exp_avg" {{.*}} : tensor<3xf32>
// PART: %[[B2:.*]], %{{.*}}, %{{.*}} = graph.adamw %{{.*}}, %[[DB]], {{.*}} : tensor<3xf32>
// PART: graph.assign "b", %[[B2]] : tensor<3xf32>

// NOAXIS-LABEL: func.func @step
// NOAXIS-NOT: dist.sharded_update
func.func @step(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}, %dy: tensor<4x6xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}, %dz: tensor<4x3xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}, %lr: tensor<f32>, %step: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %w = graph.weight "w" : tensor<8x6xf32>
  %b = graph.weight "b" : tensor<3xf32>
  %y = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %l = graph.reduce_sum %y, [0, 1] {keepdims = false} : tensor<4x6xf32> -> tensor<f32>
  %dw = graph.gemm %x, %dy {trans_a = true} : (tensor<4x8xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %db = graph.reduce_sum %dz, [0] {keepdims = false} : tensor<4x3xf32> -> tensor<3xf32>
  %sqw = graph.mul %dw, %dw : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %sw = graph.reduce_sum %sqw, [0, 1] {keepdims = false} : tensor<8x6xf32> -> tensor<f32>
  %sqb = graph.mul %db, %db : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %sb = graph.reduce_sum %sqb, [0] {keepdims = false} : tensor<3xf32> -> tensor<f32>
  %ss = graph.add %sw, %sb : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %norm = graph.sqrt %ss : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %m = graph.state "w.exp_avg" : tensor<8x6xf32>
  %v = graph.state "w.exp_avg_sq" : tensor<8x6xf32>
  %w2, %m2, %v2 = graph.adamw %w, %dw, %m, %v, %lr, %step, %one {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<8x6xf32>
  graph.assign "w", %w2 : tensor<8x6xf32>
  graph.assign "w.exp_avg", %m2 : tensor<8x6xf32>
  graph.assign "w.exp_avg_sq", %v2 : tensor<8x6xf32>
  %mb = graph.state "b.exp_avg" : tensor<3xf32>
  %vb = graph.state "b.exp_avg_sq" : tensor<3xf32>
  %b2, %mb2, %vb2 = graph.adamw %b, %db, %mb, %vb, %lr, %step, %one {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<3xf32>
  graph.assign "b", %b2 : tensor<3xf32>
  graph.assign "b.exp_avg", %mb2 : tensor<3xf32>
  graph.assign "b.exp_avg_sq", %vb2 : tensor<3xf32>
  return %l, %norm : tensor<f32>, tensor<f32>
}
}

// -----

// Under tensor parallelism dp goes after tp on the split dim (its local
// size, 4, divides by 2); SGD's momentum buffer is sharded the same way.
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
// CHECK-LABEL: func.func @tensor_parallel
// CHECK: graph.state "w.momentum_buffer" {dist.shardings = [#dist.sharding<{tp, dp}, {}>]}
// CHECK: graph.sgd {{.*}}dist.sharded_update, dist.shardings = [#dist.sharding<{tp, dp}, {}>, #dist.sharding<{tp, dp}, {}>]

// PART-LABEL: func.func @tensor_parallel
// PART: %[[W:.*]] = graph.weight "w" {{.*}} : tensor<4x6xf32>
// PART: %[[WS:.*]] = dist.local_shard %[[W]] to <{dp}, {}> : tensor<4x6xf32> -> tensor<2x6xf32>
// PART: %[[DWP:.*]] = graph.gemm {{.*}} -> tensor<4x6xf32>
// PART: %[[DW:.*]] = dist.reduce_scatter %[[DWP]] over ["dp"] dim = 0 : tensor<4x6xf32> -> tensor<2x6xf32>
// PART: %[[BUF:.*]] = graph.state "w.momentum_buffer" {dist.global_type = tensor<8x6xf32>, dist.shard_dims = [array<i32: 1, 0>, array<i32>]} : tensor<2x6xf32>
// PART: %[[P2:.*]], %{{.*}} = graph.sgd %[[WS]], %[[DW]], %[[BUF]], {{.*}} : tensor<2x6xf32>
// PART: %[[P:.*]] = dist.all_gather %[[P2]] over ["dp"] dim = 0 : tensor<2x6xf32> -> tensor<4x6xf32>
// PART: graph.assign "w", %[[P]] : tensor<4x6xf32>

// NOAXIS-LABEL: func.func @tensor_parallel
// NOAXIS-NOT: dist.sharded_update
func.func @tensor_parallel(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<{dp}, {tp}>}, %dy: tensor<4x6xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}, %lr: tensor<f32>, %step: tensor<f32>) -> tensor<f32> {
  %w = graph.weight "w" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<8x6xf32>
  %dw = graph.gemm %x, %dy {trans_a = true} : (tensor<4x8xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %buf = graph.state "w.momentum_buffer" : tensor<8x6xf32>
  %w2, %buf2 = graph.sgd %w, %dw, %buf, %lr, %step, %one {dampening = 0.0 : f64, momentum = 0.9 : f64, nesterov = false, weight_decay = 0.0 : f64} : tensor<8x6xf32>
  graph.assign "w", %w2 : tensor<8x6xf32>
  graph.assign "w.momentum_buffer", %buf2 : tensor<8x6xf32>
  return %lr : tensor<f32>
}
}

// -----

// A tied parameter's gradient, a transposed product plus a lookup's
// gradient: both parts are reduce-scattered into the shard (the transposed
// one along its other dim), nothing is all-reduced.
module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
// CHECK-LABEL: func.func @tied
// CHECK: graph.gemm {{.*}}dist.shardings = [#dist.sharding<{}, {dp}>]
// CHECK: graph.transpose {{.*}}dist.shardings = [#dist.sharding<{dp}, {}>]
// CHECK: graph.reduce_sum {{.*}}dist.shardings = [#dist.sharding<{dp}, {}>]
// CHECK: graph.add {{.*}}dist.shardings = [#dist.sharding<{dp}, {}>]

// PART-LABEL: func.func @tied
// PART-NOT: dist.all_reduce
// PART: %[[H:.*]] = dist.reduce_scatter %{{.*}} over ["dp"] dim = 1 : tensor<8x6xf32> -> tensor<8x3xf32>
// PART: %[[HT:.*]] = graph.transpose %[[H]], [1, 0] : tensor<8x3xf32> -> tensor<3x8xf32>
// PART: %[[G:.*]] = dist.reduce_scatter %{{.*}} over ["dp"] dim = 0 : tensor<6x8xf32> -> tensor<3x8xf32>
// PART: %[[DE:.*]] = graph.add %[[HT]], %[[G]]
// PART: graph.adamw %{{.*}}, %[[DE]], {{.*}} : tensor<3x8xf32>
// PART: dist.all_gather %{{.*}} over ["dp"] dim = 0 : tensor<3x8xf32> -> tensor<6x8xf32>
func.func @tied(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}, %dy: tensor<4x6xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}, %dz: tensor<4x6x8xf32> {dist.sharding = #dist.sharding<{dp}, {?}, {?}>}, %lr: tensor<f32>, %step: tensor<f32>) -> tensor<f32> {
  %e = graph.weight "e" : tensor<6x8xf32>
  %dh = graph.gemm %x, %dy {trans_a = true} : (tensor<4x8xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %dht = graph.transpose %dh, [1, 0] : tensor<8x6xf32> -> tensor<6x8xf32>
  %dg = graph.reduce_sum %dz, [0] {keepdims = false} : tensor<4x6x8xf32> -> tensor<6x8xf32>
  %de = graph.add %dht, %dg : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %m = graph.state "e.exp_avg" : tensor<6x8xf32>
  %v = graph.state "e.exp_avg_sq" : tensor<6x8xf32>
  %e2, %m2, %v2 = graph.adamw %e, %de, %m, %v, %lr, %step, %one {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<6x8xf32>
  graph.assign "e", %e2 : tensor<6x8xf32>
  graph.assign "e.exp_avg", %m2 : tensor<6x8xf32>
  graph.assign "e.exp_avg_sq", %v2 : tensor<6x8xf32>
  return %lr : tensor<f32>
}
}

// RUN: paracc-opt %s -split-input-file --paracc-persistent-weight-copies | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-persistent-weight-copies | paracc-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP

// A mixed-precision step after --paracc-group-parameter-updates: the bf16
// reads of both weights become copy states (with the weights' block and
// sharding attributes, the global type narrowed), the update returns the
// copies and assigns write them; the foreach_cast goes.

// CHECK-LABEL: func.func @grouped_step
// CHECK: %[[W:.*]] = graph.weight "w" {dist.global_type = tensor<16x2xf32>, dist.shard_dims = [[DIMS:.*]]} : tensor<8x2xf32>
// CHECK-NEXT: %[[WC:.*]] = graph.state "w.bf16_copy" {copy_of = "w", dist.global_type = tensor<16x2xbf16>, dist.shard_dims = [[DIMS]]} : tensor<8x2xbf16>
// CHECK: %[[B:.*]] = graph.weight "b" : tensor<2xf32>
// CHECK-NEXT: %[[BC:.*]] = graph.state "b.bf16_copy" {copy_of = "b"} : tensor<2xbf16>
// CHECK-NOT: graph.foreach_cast
// CHECK: %[[P:[^:]+]]:2, %{{[^:]+}}:2, %{{[^:]+}}:2, %[[C:[^:]+]]:2 = graph.foreach_adamw {{.*}} [%[[W]], {{.*}} : tensor<8x2xf32>, tensor<8x2xbf16> -> bf16], [%[[B]], {{.*}} : tensor<2xf32>, tensor<2xbf16> -> bf16]
// CHECK: graph.assign "w", %[[P]]#0
// CHECK-NEXT: graph.assign "w.bf16_copy", %[[C]]#0 : tensor<8x2xbf16>
// CHECK: graph.assign "b", %[[P]]#1
// CHECK-NEXT: graph.assign "b.bf16_copy", %[[C]]#1 : tensor<2xbf16>
// CHECK: return %[[WC]], %[[BC]]
// ROUNDTRIP-LABEL: func.func @grouped_step
// ROUNDTRIP: graph.foreach_adamw {{.*}} -> bf16]
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @grouped_step(%dw: tensor<8x2xbf16>, %db: tensor<2xbf16>, %lr: tensor<f32>, %step: tensor<f32>, %s: tensor<f32>) -> (tensor<8x2xbf16>, tensor<2xbf16>) {
  %w = graph.weight "w" {dist.global_type = tensor<16x2xf32>, dist.shard_dims = [array<i32: 0>, array<i32>]} : tensor<8x2xf32>
  %b = graph.weight "b" : tensor<2xf32>
  %c:2 = graph.foreach_cast %w, %b : tensor<8x2xf32>, tensor<2xf32> -> tensor<8x2xbf16>, tensor<2xbf16>
  %mw = graph.state "w.exp_avg" : tensor<8x2xf32>
  %vw = graph.state "w.exp_avg_sq" : tensor<8x2xf32>
  %mb = graph.state "b.exp_avg" : tensor<2xf32>
  %vb = graph.state "b.exp_avg_sq" : tensor<2xf32>
  %p:2, %m:2, %v:2 = graph.foreach_adamw %lr, %step, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} [%w, %dw, %mw, %vw : tensor<8x2xf32>, tensor<8x2xbf16>], [%b, %db, %mb, %vb : tensor<2xf32>, tensor<2xbf16>]
  graph.assign "w", %p#0 : tensor<8x2xf32>
  graph.assign "b", %p#1 : tensor<2xf32>
  graph.assign "w.exp_avg", %m#0 : tensor<8x2xf32>
  graph.assign "b.exp_avg", %m#1 : tensor<2xf32>
  graph.assign "w.exp_avg_sq", %v#0 : tensor<8x2xf32>
  graph.assign "b.exp_avg_sq", %v#1 : tensor<2xf32>
  return %c#0, %c#1 : tensor<8x2xbf16>, tensor<2xbf16>
}
}

// -----

// Only some parameters qualify: "f" is read in f32 (no narrow cast), "z"'s
// update goes to a ZeRO shard (its new value is not assigned to "z"); the
// update splits into one op with copies ("w") and one without ("f", "z"),
// and the cast of "z" stays, alone in its foreach_cast.

// CHECK-LABEL: func.func @partial
// CHECK: graph.state "w.bf16_copy" {copy_of = "w"} : tensor<4xbf16>
// CHECK-NOT: graph.state "f.bf16_copy"
// CHECK-NOT: graph.state "z.bf16_copy"
// CHECK: %[[ZC:.*]] = graph.foreach_cast %{{.*}} : tensor<4xf32> -> tensor<4xbf16>
// CHECK: %[[WP:[^,]+]], %{{[^,]+}}, %{{[^,]+}}, %[[WC:[^ ]+]] = graph.foreach_adamw {{.*}} [%{{.*}} : tensor<4xf32>, tensor<4xbf16> -> bf16]
// CHECK: %[[P:[^:]+]]:2, %{{[^:]+}}:2, %{{[^:]+}}:2 = graph.foreach_adamw {{.*}} [%{{.*}} : tensor<4xf32>, tensor<4xbf16>], [%{{.*}} : tensor<4xf32>, tensor<4xbf16>]
// CHECK: graph.assign "w", %[[WP]] :
// CHECK-NEXT: graph.assign "w.bf16_copy", %[[WC]] :
// CHECK: graph.assign "f", %[[P]]#0
// CHECK-NOT: bf16_copy
// CHECK: return
func.func @partial(%dw: tensor<4xbf16>, %df: tensor<4xbf16>, %dz: tensor<4xbf16>, %lr: tensor<f32>, %step: tensor<f32>, %s: tensor<f32>) -> (tensor<4xbf16>, tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>) {
  %w = graph.weight "w" : tensor<4xf32>
  %f = graph.weight "f" : tensor<4xf32>
  %z = graph.weight "z" : tensor<4xf32>
  %c:2 = graph.foreach_cast %w, %z : tensor<4xf32>, tensor<4xf32> -> tensor<4xbf16>, tensor<4xbf16>
  %mw = graph.state "w.exp_avg" : tensor<4xf32>
  %vw = graph.state "w.exp_avg_sq" : tensor<4xf32>
  %mf = graph.state "f.exp_avg" : tensor<4xf32>
  %vf = graph.state "f.exp_avg_sq" : tensor<4xf32>
  %mz = graph.state "z.exp_avg" : tensor<4xf32>
  %vz = graph.state "z.exp_avg_sq" : tensor<4xf32>
  %p:3, %m:3, %v:3 = graph.foreach_adamw %lr, %step, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} [%w, %dw, %mw, %vw : tensor<4xf32>, tensor<4xbf16>], [%f, %df, %mf, %vf : tensor<4xf32>, tensor<4xbf16>], [%z, %dz, %mz, %vz : tensor<4xf32>, tensor<4xbf16>]
  graph.assign "w", %p#0 : tensor<4xf32>
  graph.assign "f", %p#1 : tensor<4xf32>
  graph.assign "w.exp_avg", %m#0 : tensor<4xf32>
  graph.assign "f.exp_avg", %m#1 : tensor<4xf32>
  graph.assign "z.exp_avg", %m#2 : tensor<4xf32>
  graph.assign "w.exp_avg_sq", %v#0 : tensor<4xf32>
  graph.assign "f.exp_avg_sq", %v#1 : tensor<4xf32>
  graph.assign "z.exp_avg_sq", %v#2 : tensor<4xf32>
  return %c#0, %f, %c#1, %p#2 : tensor<4xbf16>, tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>
}

// RUN: paracc-opt %s -split-input-file --paracc-group-parameter-updates | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-group-parameter-updates | paracc-opt -split-input-file | FileCheck %s --check-prefix=ROUNDTRIP

// A mixed-precision step's tail: the master weights cast to bf16, the
// gradients widened to f32, squared for the norm and used by AdamW. The
// casts become one foreach_cast (their weights move up to it), the squares
// one foreach_sum_square reading the bf16 gradients, the updates one
// foreach_adamw (their moments move up to it); the widening casts go.

// CHECK-LABEL: func.func @mixed_precision_step
// CHECK-SAME: (%[[DW:[^:]+]]: tensor<8x2xbf16>, %[[DB:[^:]+]]: tensor<2xbf16>, %[[LR:[^:]+]]: tensor<f32>, %[[STEP:[^:]+]]: tensor<f32>)
// CHECK-DAG: %[[W:.*]] = graph.weight "w"
// CHECK-DAG: %[[B:.*]] = graph.weight "b"
// CHECK: %[[C:.*]]:2 = graph.foreach_cast %[[W]], %[[B]] : tensor<8x2xf32>, tensor<2xf32> -> tensor<8x2xbf16>, tensor<2xbf16>
// CHECK-DAG: %[[ONE:.*]] = graph.reshape
// CHECK-DAG: %[[SQ:.*]] = graph.foreach_sum_square %[[DW]], %[[DB]] : tensor<8x2xbf16>, tensor<2xbf16> -> tensor<2xf32>
// CHECK: %[[NORM:.*]] = graph.concat %[[SQ]], %[[ONE]] {axis = 0 : i64}
// CHECK-DAG: %[[MW:.*]] = graph.state "w.exp_avg"
// CHECK-DAG: %[[VW:.*]] = graph.state "w.exp_avg_sq"
// CHECK-DAG: %[[MB:.*]] = graph.state "b.exp_avg"
// CHECK-DAG: %[[VB:.*]] = graph.state "b.exp_avg_sq"
// CHECK: %[[P:.*]]:2, %[[M:.*]]:2, %[[V:.*]]:2 = graph.foreach_adamw %[[LR]], %[[STEP]], %[[S:[^ ]+]] {beta1 = 9.000000e-01 : f64, beta2 = 0.94999999999999996 : f64, eps = 1.000000e-08 : f64, weight_decay = 1.000000e-01 : f64} [%[[W]], %[[DW]], %[[MW]], %[[VW]] : tensor<8x2xf32>, tensor<8x2xbf16>], [%[[B]], %[[DB]], %[[MB]], %[[VB]] : tensor<2xf32>, tensor<2xbf16>]
// CHECK-NOT: graph.cast
// CHECK-NOT: graph.adamw
// CHECK: graph.assign "w", %[[P]]#0
// CHECK: graph.assign "w.exp_avg", %[[M]]#0
// CHECK: graph.assign "b.exp_avg_sq", %[[V]]#1
// ROUNDTRIP-LABEL: func.func @mixed_precision_step
// ROUNDTRIP: graph.foreach_adamw
func.func @mixed_precision_step(%dw: tensor<8x2xbf16>, %db: tensor<2xbf16>, %lr: tensor<f32>, %step: tensor<f32>) -> (tensor<8x2xbf16>, tensor<2xbf16>, tensor<3xf32>) {
  %w = graph.weight "w" : tensor<8x2xf32>
  %w16 = graph.cast %w : tensor<8x2xf32> -> tensor<8x2xbf16>
  %b = graph.weight "b" : tensor<2xf32>
  %b16 = graph.cast %b : tensor<2xf32> -> tensor<2xbf16>
  %gw = graph.cast %dw : tensor<8x2xbf16> -> tensor<8x2xf32>
  %gb = graph.cast %db : tensor<2xbf16> -> tensor<2xf32>
  %sw = graph.reduce_sum_square %gw, [0, 1] {keepdims = false} : tensor<8x2xf32> -> tensor<f32>
  %sb = graph.reduce_sum_square %gb, [0] {keepdims = false} : tensor<2xf32> -> tensor<f32>
  %s = graph.constant dense<1.0> : tensor<f32>
  %rw = graph.reshape %sw : tensor<f32> -> tensor<1xf32>
  %rb = graph.reshape %sb : tensor<f32> -> tensor<1xf32>
  %rs = graph.reshape %s : tensor<f32> -> tensor<1xf32>
  %norm = graph.concat %rw, %rb, %rs {axis = 0 : i64} : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
  %mw = graph.state "w.exp_avg" : tensor<8x2xf32>
  %vw = graph.state "w.exp_avg_sq" : tensor<8x2xf32>
  %pw2, %mw2, %vw2 = graph.adamw %w, %gw, %mw, %vw, %lr, %step, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<8x2xf32>
  graph.assign "w", %pw2 : tensor<8x2xf32>
  graph.assign "w.exp_avg", %mw2 : tensor<8x2xf32>
  graph.assign "w.exp_avg_sq", %vw2 : tensor<8x2xf32>
  %mb = graph.state "b.exp_avg" : tensor<2xf32>
  %vb = graph.state "b.exp_avg_sq" : tensor<2xf32>
  %pb2, %mb2, %vb2 = graph.adamw %b, %gb, %mb, %vb, %lr, %step, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<2xf32>
  graph.assign "b", %pb2 : tensor<2xf32>
  graph.assign "b.exp_avg", %mb2 : tensor<2xf32>
  graph.assign "b.exp_avg_sq", %vb2 : tensor<2xf32>
  return %w16, %b16, %norm : tensor<8x2xbf16>, tensor<2xbf16>, tensor<3xf32>
}

// -----

// Updates with other coefficients, another learning rate or other
// discardable attributes form groups of their own; a lone f32 update stays
// a graph.adamw. A widening cast that something else reads stays too.

// CHECK-LABEL: func.func @separate_groups
// CHECK: graph.cast
// CHECK: graph.foreach_adamw %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} {beta1 = 9.000000e-01 : f64, {{.*}}} [%{{.*}} : tensor<4xf32>, tensor<4xbf16>], [%{{.*}} : tensor<4xf32>, tensor<4xf32>]
// CHECK: graph.adamw {{.*}} {beta1 = 5.000000e-01 : f64
// CHECK: graph.adamw {{.*}} {beta1 = 9.000000e-01 : f64, beta2 = 0.94999999999999996 : f64, dist.microbatch = 1 : i64
// CHECK-NOT: foreach
func.func @separate_groups(%p: tensor<4xf32>, %g16: tensor<4xbf16>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %g = graph.cast %g16 : tensor<4xbf16> -> tensor<4xf32>
  %a:3 = graph.adamw %p, %g, %p, %p, %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<4xf32>
  %b:3 = graph.adamw %p, %p, %p, %p, %s, %s, %s {beta1 = 0.5 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<4xf32>
  %c:3 = graph.adamw %p, %p, %p, %p, %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<4xf32>
  %d:3 = graph.adamw %p, %p, %p, %p, %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, dist.microbatch = 1 : i64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<4xf32>
  return %a#0, %b#0, %c#0, %d#0, %g : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Two updates read one widened gradient (parameters whose gradients CSE
// merged): both read the bf16 gradient and the cast goes once.

// CHECK-LABEL: func.func @shared_gradient
// CHECK-NOT: graph.cast
// CHECK: graph.foreach_adamw {{.*}} [%{{.*}}, %[[G:[^,]+]], %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xbf16>], [%{{.*}}, %[[G]], %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xbf16>]
// CHECK-NOT: graph.cast
func.func @shared_gradient(%p: tensor<4xf32>, %q: tensor<4xf32>, %g16: tensor<4xbf16>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %g = graph.cast %g16 : tensor<4xbf16> -> tensor<4xf32>
  %a:3 = graph.adamw %p, %g, %p, %p, %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<4xf32>
  %b:3 = graph.adamw %q, %g, %q, %q, %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<4xf32>
  return %a#0, %b#0 : tensor<4xf32>, tensor<4xf32>
}

// -----

// An update whose gradient is computed after the first update cannot join
// its group (nothing but weights and state moves).

// CHECK-LABEL: func.func @late_gradient
// CHECK: graph.adamw
// CHECK: graph.mul
// CHECK: graph.adamw
func.func @late_gradient(%p: tensor<4xf32>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a:3 = graph.adamw %p, %p, %p, %p, %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<4xf32>
  %g = graph.mul %a#0, %a#0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b:3 = graph.adamw %p, %g, %p, %p, %s, %s, %s {beta1 = 0.9 : f64, beta2 = 0.95 : f64, eps = 1.0e-08 : f64, weight_decay = 0.1 : f64} : tensor<4xf32>
  return %a#0, %b#0 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Squares over some axes only, or of one tensor alone, stay as they are.

// CHECK-LABEL: func.func @partial_squares
// CHECK-NOT: foreach_sum_square
func.func @partial_squares(%x: tensor<4x2xf32>, %y: tensor<3xf32>) -> tensor<5xf32> {
  %a = graph.reduce_sum_square %x, [1] {keepdims = false} : tensor<4x2xf32> -> tensor<4xf32>
  %b = graph.reduce_sum_square %y, [0] {keepdims = false} : tensor<3xf32> -> tensor<f32>
  %rb = graph.reshape %b : tensor<f32> -> tensor<1xf32>
  %c = graph.concat %a, %rb {axis = 0 : i64} : (tensor<4xf32>, tensor<1xf32>) -> tensor<5xf32>
  return %c : tensor<5xf32>
}

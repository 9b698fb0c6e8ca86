// RUN: paracc-opt %s -split-input-file --paracc-optimizer="beta2=0.95 weight-decay=0.1 clip-grad-norm=1.0" | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-optimizer="optimizer=sgd momentum=0.9" | FileCheck %s --check-prefix=SGD
// RUN: paracc-opt %s -split-input-file --paracc-optimizer="step-name=train_step" | FileCheck %s --check-prefix=RENAMED

// The gradient results become in-place updates: lr and step are new
// inputs, the loss, the gradient norm and each parameter's sum of squared
// gradients (named by gradient_norm_parts) the results.

// step-name renames the function (the runtime runs the one named step).
// RENAMED: func.func @train_step(%{{[^:]+}}: tensor<4x8xf32>, %{{[^:]+}}: tensor<f32> {graph.name = "lr"}
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>, %[[LR:[^:]+]]: tensor<f32> {graph.name = "lr"}, %[[STEP:[^:]+]]: tensor<f32> {graph.name = "step"})
// CHECK-SAME: -> (tensor<f32>, tensor<f32> {graph.name = "grad_norm"}, tensor<1xf32> {graph.gradient_norm_parts = ["w"], graph.name = "grad_sq"})
// CHECK: %[[W:.*]] = graph.weight "w"
// CHECK: %[[SQ:.*]] = graph.mul %[[DW:[^,]+]], %[[DW]]
// CHECK: %[[SUM:.*]] = graph.reduce_sum %[[SQ]], [0, 1] {keepdims = false}
// CHECK: %[[PART:.*]] = graph.reshape %[[SUM]] : tensor<f32> -> tensor<1xf32>
// CHECK: %[[TOTAL:.*]] = graph.reduce_sum %[[PART]], [0] {keepdims = false}
// CHECK: %[[NORM:.*]] = graph.sqrt %[[TOTAL]]
// CHECK: %[[COEF:.*]] = graph.div %{{.*}}, %{{.*}}
// CHECK: %[[SCALE:.*]] = graph.min %[[COEF]], %{{.*}}
// CHECK: %[[M:.*]] = graph.state "w.exp_avg" : tensor<8x2xf32>
// CHECK: %[[V:.*]] = graph.state "w.exp_avg_sq" : tensor<8x2xf32>
// CHECK: %[[P2:.*]], %[[M2:.*]], %[[V2:.*]] = graph.adamw %[[W]], %[[DW]], %[[M]], %[[V]], %[[LR]], %[[STEP]], %[[SCALE]] {beta1 = 9.000000e-01 : f64, beta2 = 0.94999999999999996 : f64, eps = 1.000000e-08 : f64, weight_decay = 1.000000e-01 : f64}
// CHECK: graph.assign "w", %[[P2]]
// CHECK: graph.assign "w.exp_avg", %[[M2]]
// CHECK: graph.assign "w.exp_avg_sq", %[[V2]]
// CHECK: return %{{.*}}, %[[NORM]], %[[PART]]

// SGD-LABEL: func.func @step
// SGD: %[[B:.*]] = graph.state "w.momentum_buffer" : tensor<8x2xf32>
// SGD: %[[P2:.*]], %[[B2:.*]] = graph.sgd %{{.*}}, %{{.*}}, %[[B]], %{{.*}}, %{{.*}}, %{{.*}} {dampening = 0.000000e+00 : f64, momentum = 9.000000e-01 : f64, nesterov = false, weight_decay = 1.000000e-02 : f64}
// SGD: graph.assign "w", %[[P2]]
// SGD: graph.assign "w.momentum_buffer", %[[B2]]
func.func @step(%x: tensor<4x8xf32>) -> (tensor<f32>, tensor<8x2xf32> {graph.gradient_of = "w", graph.name = "w"}) {
  %w = graph.weight "w" : tensor<8x2xf32>
  %y = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %l = graph.reduce_sum %y, [0, 1] {keepdims = false} : tensor<4x2xf32> -> tensor<f32>
  %ones = graph.constant dense<1.0> : tensor<4x2xf32>
  %dw = graph.gemm %x, %ones {trans_a = true} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  return %l, %dw : tensor<f32>, tensor<8x2xf32>
}

// -----

// Moments of a parameter block are blocks too.
// CHECK-LABEL: func.func @block
// CHECK: graph.state "qkv.exp_avg" {offsets = array<i64: 0, 2>, source_shape = array<i64: 4, 4>} : tensor<4x2xf32>
// CHECK: graph.assign "qkv", %{{.*}} {offsets = array<i64: 0, 2>}
func.func @block(%x: tensor<3x4xf32>) -> (tensor<f32>, tensor<4x2xf32> {graph.gradient_of = "qkv", graph.gradient_offsets = array<i64: 0, 2>}) {
  %k = graph.weight "qkv" {offsets = array<i64: 0, 2>, source_shape = array<i64: 4, 4>} : tensor<4x2xf32>
  %a = graph.matmul %x, %k : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %l = graph.reduce_sum %a, [0, 1] {keepdims = false} : tensor<3x2xf32> -> tensor<f32>
  return %l, %k : tensor<f32>, tensor<4x2xf32>
}

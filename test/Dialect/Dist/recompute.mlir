// RUN: paracc-opt %s --paracc-recompute="policy=full" | FileCheck %s --check-prefix=FULL
// RUN: paracc-opt %s --paracc-recompute="policy=selective" | FileCheck %s --check-prefix=SELECTIVE
// RUN: paracc-opt %s --paracc-recompute="policy=auto budget=0" | FileCheck %s --check-prefix=AUTO0
// RUN: paracc-opt %s --paracc-recompute="policy=auto budget=1100" | FileCheck %s --check-prefix=AUTO1100
// RUN: paracc-opt %s --paracc-recompute | FileCheck %s --check-prefix=NONE

// --paracc-recompute on a step of three layers (layer norm, product, GELU,
// residual add; 128 bytes per value) whose "backward" (the ops after the
// loss) reads each layer's norm output %n and product output %h: 768 saved
// bytes. Layer inputs (%x, an argument, and %y0, %y1) are kept as
// checkpoints by full, selective and auto, which adds %y0 and %y1's 256.

// full: each layer is recomputed from its input right before the
// backward's first reader; the forward's own %n and %h are then read by
// the forward alone.
// FULL: module attributes {dist.recompute_plan = #dist.recompute_plan<policy = "full", saved_bytes = 768, kept_bytes = 256, budget_bytes = -1, activation_peak_bytes = 644, recomputed_ops = 6, recomputed_flops = {{.*}}, step_flops = {{.*}}, recomputed_ms = {{.*}}, rates = "cpu">}
// FULL: %[[Y0:.*]] = graph.add %arg0
// FULL: %[[Y1:.*]] = graph.add %[[Y0]]
// FULL: graph.reduce_sum
// FULL-NEXT: %[[N2:.*]] = graph.layer_norm %[[Y1]], %{{.*}}, %{{.*}} {axis = 1 : i64, dist.recomputed, epsilon
// FULL-NEXT: %[[H2:.*]] = graph.matmul %[[N2]], %{{.*}} {dist.recomputed}
// FULL-NEXT: graph.mul %[[H2]], %[[N2]]
// FULL-NEXT: %[[N1:.*]] = graph.layer_norm %[[Y0]], {{.*}}dist.recomputed
// FULL-NEXT: %[[H1:.*]] = graph.matmul %[[N1]], %{{.*}} {dist.recomputed}
// FULL-NEXT: graph.mul %[[H1]], %[[N1]]
// FULL-NEXT: %[[N0:.*]] = graph.layer_norm %arg0, {{.*}}dist.recomputed
// FULL-NEXT: %[[H0:.*]] = graph.matmul %[[N0]], {{.*}}dist.recomputed
// FULL-NEXT: graph.mul %[[H0]], %[[N0]]
// FULL-NEXT: return

// selective: the norms are cheap (5 FLOPs per element) and recomputed; the
// products' outputs are kept (3 x 128 + the checkpoints' 256).
// SELECTIVE: dist.recompute_plan = #dist.recompute_plan<policy = "selective", saved_bytes = 768, kept_bytes = 640, budget_bytes = -1, activation_peak_bytes = 900, recomputed_ops = 3,
// SELECTIVE: graph.weight "w2"
// SELECTIVE: %[[H2:.*]] = graph.matmul
// SELECTIVE: graph.reduce_sum
// SELECTIVE-NEXT: %[[N2:.*]] = graph.layer_norm {{.*}}dist.recomputed
// SELECTIVE-NEXT: graph.mul %[[H2]], %[[N2]]
// SELECTIVE-NOT: graph.matmul {{.*}}dist.recomputed

// auto lowers the simulated peak of live bytes (1152 without recompute,
// 644 with full's) to its budget, dropping what is held across the peak,
// cheapest per byte first: for 1100 the first layer's product (its input,
// the norm's output, is saved for the backward anyway; on the CPU table a
// product's arithmetic runs at BLAS speed, a norm's at the vector rate).
// With nothing to spend it drops until nothing held across the peak can go.
// AUTO0: dist.recompute_plan = #dist.recompute_plan<policy = "auto", saved_bytes = 768, kept_bytes = {{[0-9]+}}, budget_bytes = 0, activation_peak_bytes = 644,
// AUTO1100: dist.recompute_plan = #dist.recompute_plan<policy = "auto", saved_bytes = 768, kept_bytes = 896, budget_bytes = 1100, activation_peak_bytes = 1024, recomputed_ops = 1,
// AUTO1100: graph.reduce_sum
// AUTO1100-NOT: dist.recomputed
// AUTO1100: graph.matmul {{.*}} {dist.recomputed}
// AUTO1100-NOT: dist.recomputed

// none records the plan and changes nothing.
// NONE: dist.recompute_plan = #dist.recompute_plan<policy = "none", saved_bytes = 768, kept_bytes = 768, budget_bytes = -1, activation_peak_bytes = 1152, recomputed_ops = 0,
// NONE-NOT: dist.recomputed

func.func @step(%x: tensor<4x8xf32>) -> (tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %g = graph.weight "g" : tensor<8xf32>
  %b = graph.weight "b" : tensor<8xf32>
  %w0 = graph.weight "w0" : tensor<8x8xf32>
  %n0 = graph.layer_norm %x, %g, %b {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %h0 = graph.matmul %n0, %w0 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %u0 = graph.gelu %h0 {approximate = "tanh"} : tensor<4x8xf32>
  %y0 = graph.add %x, %u0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w1 = graph.weight "w1" : tensor<8x8xf32>
  %n1 = graph.layer_norm %y0, %g, %b {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %h1 = graph.matmul %n1, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %u1 = graph.gelu %h1 {approximate = "tanh"} : tensor<4x8xf32>
  %y1 = graph.add %y0, %u1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w2 = graph.weight "w2" : tensor<8x8xf32>
  %n2 = graph.layer_norm %y1, %g, %b {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %h2 = graph.matmul %n2, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %u2 = graph.gelu %h2 {approximate = "tanh"} : tensor<4x8xf32>
  %y2 = graph.add %y1, %u2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %loss = graph.reduce_sum %y2, [0, 1] {keepdims = false} : tensor<4x8xf32> -> tensor<f32>
  %q2 = graph.mul %h2, %n2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %q1 = graph.mul %h1, %n1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %q0 = graph.mul %h0, %n0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %loss, %q2, %q1, %q0 : tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

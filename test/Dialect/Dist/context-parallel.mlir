// RUN: paracc-opt %s -split-input-file --paracc-context-parallel | FileCheck %s

// RUN: paracc-opt %s -split-input-file --paracc-context-parallel="layout=contiguous" | FileCheck %s --check-prefix=CONTIGUOUS

// --paracc-context-parallel: every attention's queries, keys, values and
// result get their sequence dim split over cp (dim -2, or -3 with
// sequence_first); the other dims stay open for propagation. A model with
// a causal attention gets the zig-zag layout (the module names its axis)
// unless layout=contiguous.

// CHECK: module attributes {dist.mesh = #dist.mesh<[dp = 2, cp = 2]>, dist.zigzag_axis = "cp"}
// CONTIGUOUS: module attributes {dist.mesh = #dist.mesh<[dp = 2, cp = 2]>} {
module attributes {dist.mesh = #dist.mesh<[dp = 2, cp = 2]>} {

// CHECK-LABEL: func.func @heads_first
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<1x4x64x16xf32> {dist.sharding = #dist.sharding<{?}, {?}, {cp}, {?}>},
// CHECK-SAME: %[[K:[^:]+]]: tensor<1x4x64x16xf32> {dist.sharding = #dist.sharding<{?}, {?}, {cp}, {?}>},
// CHECK-SAME: %[[V:[^:]+]]: tensor<1x4x64x8xf32> {dist.sharding = #dist.sharding<{?}, {?}, {cp}, {?}>})
func.func @heads_first(%q: tensor<1x4x64x16xf32>, %k: tensor<1x4x64x16xf32>,
                       %v: tensor<1x4x64x8xf32>) -> tensor<1x4x64x8xf32> {
  // CHECK: graph.attention %[[Q]], %[[K]], %[[V]] {causal = true, dist.shardings = [#dist.sharding<{?}, {?}, {cp}, {?}>], scale = 2.500000e-01 : f64}
  %y = graph.attention %q, %k, %v {causal = true, scale = 0.25 : f64}
      : (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x8xf32>) -> tensor<1x4x64x8xf32>
  return %y : tensor<1x4x64x8xf32>
}

// CHECK-LABEL: func.func @sequence_first
// CHECK-SAME: tensor<2x64x4x16xf32> {dist.sharding = #dist.sharding<{?}, {cp}, {?}, {?}>}
// CHECK: graph.attention {{.*}}dist.shardings = [#dist.sharding<{?}, {cp}, {?}, {?}>]
func.func @sequence_first(%q: tensor<2x64x4x16xf32>) -> tensor<2x64x4x16xf32> {
  %y = graph.attention %q, %q, %q {scale = 0.25 : f64, sequence_first = true}
      : (tensor<2x64x4x16xf32>, tensor<2x64x4x16xf32>, tensor<2x64x4x16xf32>) -> tensor<2x64x4x16xf32>
  return %y : tensor<2x64x4x16xf32>
}

}

// -----

// Without a cp axis (or with cp1) nothing is annotated.
// CHECK: module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
// CHECK-LABEL: func.func @no_axis
// CHECK-NOT: dist.sharding
func.func @no_axis(%q: tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32> {
  %y = graph.attention %q, %q, %q {causal = true, scale = 0.25 : f64}
      : (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32>
  return %y : tensor<1x4x64x16xf32>
}
}

// -----

// The next-token loss as users write it: the last position's hidden state
// sliced off before the output product, the first label sliced off. Under
// cp every position is scored and the last one's label ignored instead (the
// same mean), and with more than one sequence per data-parallel rank the
// rows are taken as [batch parts, sequence, the rest of the batch], so each
// rank's rows are one block.
module attributes {dist.mesh = #dist.mesh<[cp = 2]>} {
// CHECK-LABEL: func.func @shifted_loss
// CHECK-SAME: (%[[H:[^:]+]]: tensor<2x16x8xf32>, %[[IDS:[^:]+]]: tensor<2x16xi64>)
func.func @shifted_loss(%h: tensor<2x16x8xf32>, %ids: tensor<2x16xi64>) -> tensor<f32> {
  %w = graph.weight "lm_head" : tensor<8x32xf32>
  // CHECK-NOT: graph.slice %[[H]]
  // CHECK: %[[P:.*]] = graph.reshape %[[H]] : tensor<2x16x8xf32> -> tensor<1x2x16x8xf32>
  // CHECK: %[[T:.*]] = graph.transpose %[[P]], [0, 2, 1, 3] : tensor<1x2x16x8xf32> -> tensor<1x16x2x8xf32>
  // CHECK: %[[LOGITS:.*]] = graph.matmul %[[T]], %{{.*}} : (tensor<1x16x2x8xf32>, tensor<8x32xf32>) -> tensor<1x16x2x32xf32>
  // CHECK: %[[ROWS:.*]] = graph.reshape %[[LOGITS]] : tensor<1x16x2x32xf32> -> tensor<32x32xf32>
  // CHECK: %[[NEXT:.*]] = graph.slice %[[IDS]], starts = [0, 1], limits = [2, 16]
  // CHECK: %[[IGNORED:.*]] = graph.constant dense<-100> : tensor<2x1xi64>
  // CHECK: %[[PADDED:.*]] = graph.concat %[[NEXT]], %[[IGNORED]] {axis = 1 : i64} : (tensor<2x15xi64>, tensor<2x1xi64>) -> tensor<2x16xi64>
  // CHECK: %[[LP:.*]] = graph.reshape %[[PADDED]] : tensor<2x16xi64> -> tensor<1x2x16xi64>
  // CHECK: %[[LT:.*]] = graph.transpose %[[LP]], [0, 2, 1] : tensor<1x2x16xi64> -> tensor<1x16x2xi64>
  // CHECK: %[[LABELS:.*]] = graph.reshape %[[LT]] : tensor<1x16x2xi64> -> tensor<32xi64>
  // CHECK: graph.softmax_cross_entropy %[[ROWS]], %[[LABELS]] {ignore_index = -100 : i64}
  %0 = graph.slice %h, starts = [0, 0, 0], limits = [2, 15, 8], steps = [1, 1, 1] : tensor<2x16x8xf32> -> tensor<2x15x8xf32>
  %1 = graph.matmul %0, %w : (tensor<2x15x8xf32>, tensor<8x32xf32>) -> tensor<2x15x32xf32>
  %2 = graph.reshape %1 : tensor<2x15x32xf32> -> tensor<30x32xf32>
  %3 = graph.slice %ids, starts = [0, 1], limits = [2, 16], steps = [1, 1] : tensor<2x16xi64> -> tensor<2x15xi64>
  %4 = graph.reshape %3 : tensor<2x15xi64> -> tensor<30xi64>
  %loss = graph.softmax_cross_entropy %2, %4 : (tensor<30x32xf32>, tensor<30xi64>) -> tensor<f32>
  %q = graph.reshape %h : tensor<2x16x8xf32> -> tensor<2x1x16x8xf32>
  %y = graph.attention %q, %q, %q {causal = true, scale = 0.25 : f64}
      : (tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32>) -> tensor<2x1x16x8xf32>
  return %loss : tensor<f32>
}

// A per-element loss ("none") keeps its shape: nothing changes.
// CHECK-LABEL: func.func @unreduced_loss
// CHECK: graph.slice %{{.*}}, starts = [0, 0, 0], limits = [2, 15, 8]
func.func @unreduced_loss(%h: tensor<2x16x8xf32>, %ids: tensor<2x16xi64>) -> tensor<30xf32> {
  %w = graph.weight "lm_head" : tensor<8x32xf32>
  %0 = graph.slice %h, starts = [0, 0, 0], limits = [2, 15, 8], steps = [1, 1, 1] : tensor<2x16x8xf32> -> tensor<2x15x8xf32>
  %1 = graph.matmul %0, %w : (tensor<2x15x8xf32>, tensor<8x32xf32>) -> tensor<2x15x32xf32>
  %2 = graph.reshape %1 : tensor<2x15x32xf32> -> tensor<30x32xf32>
  %3 = graph.slice %ids, starts = [0, 1], limits = [2, 16], steps = [1, 1] : tensor<2x16xi64> -> tensor<2x15xi64>
  %4 = graph.reshape %3 : tensor<2x15xi64> -> tensor<30xi64>
  %loss = graph.softmax_cross_entropy %2, %4 {reduction = "none"} : (tensor<30x32xf32>, tensor<30xi64>) -> tensor<30xf32>
  return %loss : tensor<30xf32>
}
}

// -----

// With the batch split over dp (dp's annotation on the arguments), only the
// sequences within a dp rank's part are reordered: [dp, S, B/dp, ...]. With
// one sequence per dp rank nothing changes (@one_per_rank).
module attributes {dist.mesh = #dist.mesh<[dp = 2, cp = 2]>} {
// CHECK-LABEL: func.func @data_parallel_rows
// CHECK: graph.reshape %{{.*}} : tensor<4x16x8xf32> -> tensor<2x2x16x8xf32>
// CHECK: graph.transpose %{{.*}}, [0, 2, 1, 3] : tensor<2x2x16x8xf32> -> tensor<2x16x2x8xf32>
// CHECK: graph.reshape %{{.*}} : tensor<2x16x2x32xf32> -> tensor<64x32xf32>
// CHECK: graph.transpose %{{.*}}, [0, 2, 1] : tensor<2x2x16xi64> -> tensor<2x16x2xi64>
func.func @data_parallel_rows(%h: tensor<4x16x8xf32> {dist.sharding = #dist.sharding<{dp}, {?}, {?}>},
                              %ids: tensor<4x16xi64> {dist.sharding = #dist.sharding<{dp}, {?}>}) -> tensor<f32> {
  %w = graph.weight "lm_head" : tensor<8x32xf32>
  %1 = graph.matmul %h, %w : (tensor<4x16x8xf32>, tensor<8x32xf32>) -> tensor<4x16x32xf32>
  %2 = graph.reshape %1 : tensor<4x16x32xf32> -> tensor<64x32xf32>
  %3 = graph.reshape %ids : tensor<4x16xi64> -> tensor<64xi64>
  %loss = graph.softmax_cross_entropy %2, %3 : (tensor<64x32xf32>, tensor<64xi64>) -> tensor<f32>
  %q = graph.reshape %h : tensor<4x16x8xf32> -> tensor<4x1x16x8xf32>
  %y = graph.attention %q, %q, %q {causal = true, scale = 0.25 : f64}
      : (tensor<4x1x16x8xf32>, tensor<4x1x16x8xf32>, tensor<4x1x16x8xf32>) -> tensor<4x1x16x8xf32>
  return %loss : tensor<f32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, cp = 2]>} {
// CHECK-LABEL: func.func @one_per_rank
// CHECK-NOT: graph.transpose
// CHECK: graph.softmax_cross_entropy
func.func @one_per_rank(%h: tensor<2x16x8xf32> {dist.sharding = #dist.sharding<{dp}, {?}, {?}>},
                        %ids: tensor<2x16xi64> {dist.sharding = #dist.sharding<{dp}, {?}>}) -> tensor<f32> {
  %w = graph.weight "lm_head" : tensor<8x32xf32>
  %1 = graph.matmul %h, %w : (tensor<2x16x8xf32>, tensor<8x32xf32>) -> tensor<2x16x32xf32>
  %2 = graph.reshape %1 : tensor<2x16x32xf32> -> tensor<32x32xf32>
  %3 = graph.reshape %ids : tensor<2x16xi64> -> tensor<32xi64>
  %loss = graph.softmax_cross_entropy %2, %3 : (tensor<32x32xf32>, tensor<32xi64>) -> tensor<f32>
  %q = graph.reshape %h : tensor<2x16x8xf32> -> tensor<2x1x16x8xf32>
  %y = graph.attention %q, %q, %q {causal = true, scale = 0.25 : f64}
      : (tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32>, tensor<2x1x16x8xf32>) -> tensor<2x1x16x8xf32>
  return %loss : tensor<f32>
}
}

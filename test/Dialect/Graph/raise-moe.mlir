// RUN: paracc-opt %s -split-input-file --paracc-raise-moe --canonicalize | FileCheck %s

// transformers' batched_mm experts as the dynamo exporter writes them (after
// import, fusion and CSE): 4 tokens, 2 of 3 experts each, hidden 8, inner 4.
// CHECK-LABEL: func.func @batched_mm
// CHECK-NOT: graph.gather_nd
// CHECK: %[[Y:.*]] = graph.moe_experts %arg0, %arg1, %arg2, %arg3, %arg4 : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<3x8x8xf32>, tensor<3x8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @batched_mm(%x: tensor<4x8xf32>, %idx: tensor<4x2xi64>, %w: tensor<4x2xf32>, %w_in: tensor<3x8x8xf32>, %w_out: tensor<3x8x4xf32>) -> tensor<4x8xf32> {
  %xr = graph.reshape %x : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %copies = graph.expand %xr : tensor<4x1x8xf32> -> tensor<4x2x8xf32>
  %ids = graph.reshape %idx : tensor<4x2xi64> -> tensor<8x1xi64>
  %g1 = graph.gather_nd %w_in, %ids : (tensor<3x8x8xf32>, tensor<8x1xi64>) -> tensor<8x8x8xf32>
  %c3 = graph.reshape %copies : tensor<4x2x8xf32> -> tensor<8x8x1xf32>
  %p1 = graph.matmul %g1, %c3 : (tensor<8x8x8xf32>, tensor<8x8x1xf32>) -> tensor<8x8x1xf32>
  %h = graph.reshape %p1 : tensor<8x8x1xf32> -> tensor<8x8xf32>
  %halves:2 = graph.split %h {axis = 1 : i64} : tensor<8x8xf32> -> tensor<8x4xf32>, tensor<8x4xf32>
  %a = graph.silu_mul %halves#0, %halves#1 : tensor<8x4xf32>
  %g2 = graph.gather_nd %w_out, %ids : (tensor<3x8x4xf32>, tensor<8x1xi64>) -> tensor<8x8x4xf32>
  %a3 = graph.reshape %a : tensor<8x4xf32> -> tensor<8x4x1xf32>
  %p2 = graph.matmul %g2, %a3 : (tensor<8x8x4xf32>, tensor<8x4x1xf32>) -> tensor<8x8x1xf32>
  %o = graph.reshape %p2 : tensor<8x8x1xf32> -> tensor<8x8xf32>
  %r = graph.reshape %w : tensor<4x2xf32> -> tensor<8x1xf32>
  %m = graph.mul %o, %r : (tensor<8x8xf32>, tensor<8x1xf32>) -> tensor<8x8xf32>
  %m3 = graph.reshape %m : tensor<8x8xf32> -> tensor<4x2x8xf32>
  %s = graph.reduce_sum %m3, [1] {keepdims = false} : tensor<4x2x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// The legacy exporter: gather by flat indices, the halves as two slices, a
// token tensor of another shape (reshaped to [T, H] first); GELU experts
// without a gate.
// CHECK-LABEL: func.func @legacy_gelu
// CHECK: %[[X:.*]] = graph.reshape %arg0 : tensor<2x2x8xf32> -> tensor<4x8xf32>
// CHECK: graph.moe_experts %[[X]], %arg1, %arg2, %arg3, %arg4 {activation = "gelu", gated = false}
func.func @legacy_gelu(%x: tensor<2x2x8xf32>, %idx: tensor<4x2xi64>, %w: tensor<4x2xf32>, %w_in: tensor<3x4x8xf32>, %w_out: tensor<3x8x4xf32>) -> tensor<4x8xf32> {
  %xr = graph.reshape %x : tensor<2x2x8xf32> -> tensor<1x4x1x1x8xf32>
  %copies = graph.expand %xr : tensor<1x4x1x1x8xf32> -> tensor<1x4x2x1x8xf32>
  %ids = graph.reshape %idx : tensor<4x2xi64> -> tensor<8xi64>
  %g1 = graph.gather %w_in, %ids {axis = 0 : i64} : (tensor<3x4x8xf32>, tensor<8xi64>) -> tensor<8x4x8xf32>
  %c3 = graph.reshape %copies : tensor<1x4x2x1x8xf32> -> tensor<8x8x1xf32>
  %p1 = graph.matmul %g1, %c3 : (tensor<8x4x8xf32>, tensor<8x8x1xf32>) -> tensor<8x4x1xf32>
  %h = graph.reshape %p1 : tensor<8x4x1xf32> -> tensor<8x4xf32>
  %a = graph.gelu %h : tensor<8x4xf32>
  %g2 = graph.gather %w_out, %ids {axis = 0 : i64} : (tensor<3x8x4xf32>, tensor<8xi64>) -> tensor<8x8x4xf32>
  %a3 = graph.reshape %a : tensor<8x4xf32> -> tensor<8x4x1xf32>
  %p2 = graph.matmul %g2, %a3 : (tensor<8x8x4xf32>, tensor<8x4x1xf32>) -> tensor<8x8x1xf32>
  %o = graph.reshape %p2 : tensor<8x8x1xf32> -> tensor<8x8xf32>
  %r = graph.reshape %w : tensor<4x2xf32> -> tensor<8x1xf32>
  %m = graph.mul %r, %o : (tensor<8x1xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %m3 = graph.reshape %m : tensor<8x8xf32> -> tensor<4x2x8xf32>
  %s = graph.reduce_sum %m3, [1] {keepdims = false} : tensor<4x2x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Not an MoE: the two projections index their tables by different ids.
// CHECK-LABEL: func.func @different_ids
// CHECK-NOT: graph.moe_experts
// CHECK: graph.reduce_sum
func.func @different_ids(%x: tensor<4x8xf32>, %idx: tensor<4x2xi64>, %idx2: tensor<4x2xi64>, %w: tensor<4x2xf32>, %w_in: tensor<3x4x8xf32>, %w_out: tensor<3x8x4xf32>) -> tensor<4x8xf32> {
  %xr = graph.reshape %x : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %copies = graph.expand %xr : tensor<4x1x8xf32> -> tensor<4x2x8xf32>
  %ids = graph.reshape %idx : tensor<4x2xi64> -> tensor<8xi64>
  %ids2 = graph.reshape %idx2 : tensor<4x2xi64> -> tensor<8xi64>
  %g1 = graph.gather %w_in, %ids {axis = 0 : i64} : (tensor<3x4x8xf32>, tensor<8xi64>) -> tensor<8x4x8xf32>
  %c3 = graph.reshape %copies : tensor<4x2x8xf32> -> tensor<8x8x1xf32>
  %p1 = graph.matmul %g1, %c3 : (tensor<8x4x8xf32>, tensor<8x8x1xf32>) -> tensor<8x4x1xf32>
  %h = graph.reshape %p1 : tensor<8x4x1xf32> -> tensor<8x4xf32>
  %a = graph.relu %h : tensor<8x4xf32>
  %g2 = graph.gather %w_out, %ids2 {axis = 0 : i64} : (tensor<3x8x4xf32>, tensor<8xi64>) -> tensor<8x8x4xf32>
  %a3 = graph.reshape %a : tensor<8x4xf32> -> tensor<8x4x1xf32>
  %p2 = graph.matmul %g2, %a3 : (tensor<8x8x4xf32>, tensor<8x4x1xf32>) -> tensor<8x8x1xf32>
  %o = graph.reshape %p2 : tensor<8x8x1xf32> -> tensor<8x8xf32>
  %r = graph.reshape %w : tensor<4x2xf32> -> tensor<8x1xf32>
  %m = graph.mul %o, %r : (tensor<8x8xf32>, tensor<8x1xf32>) -> tensor<8x8xf32>
  %m3 = graph.reshape %m : tensor<8x8xf32> -> tensor<4x2x8xf32>
  %s = graph.reduce_sum %m3, [1] {keepdims = false} : tensor<4x2x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// RUN: paracc-opt %s -split-input-file --paracc-fold-reduction-addends | FileCheck %s

// GPT-2's row-parallel projection: the bias and the residual move into the
// product, added on the first member of the tp group only; the all-reduce
// then yields the new residual stream.
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
// CHECK-LABEL: func.func @bias_and_residual
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x64xf32>, %[[H:.*]]: tensor<2x8x128xf32>, %[[W:.*]]: tensor<128x64xf32>, %[[B:.*]]: tensor<64xf32>)
// CHECK-NEXT: %[[P:.*]] = graph.linear %[[H]], %[[W]], %[[B]] residual %[[X]] {dist.addends_on_first = ["tp"], dist.tp_role = #dist.tp_role<row>} : (tensor<2x8x128xf32>, tensor<128x64xf32>, tensor<64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
// CHECK-NEXT: %[[S:.*]] = dist.all_reduce %[[P]] over ["tp"] : tensor<2x8x64xf32>
// CHECK-NEXT: return %[[S]]
func.func @bias_and_residual(%x: tensor<2x8x64xf32>, %h: tensor<2x8x128xf32>, %w: tensor<128x64xf32>, %b: tensor<64xf32>) -> tensor<2x8x64xf32> {
  %p = graph.matmul %h, %w {dist.tp_role = #dist.tp_role<row>} : (tensor<2x8x128xf32>, tensor<128x64xf32>) -> tensor<2x8x64xf32>
  %s = dist.all_reduce %p over ["tp"] : tensor<2x8x64xf32>
  %t = graph.add %s, %b : (tensor<2x8x64xf32>, tensor<64xf32>) -> tensor<2x8x64xf32>
  %y = graph.add %x, %t : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  return %y : tensor<2x8x64xf32>
}

// Llama (no biases): the residual alone, from a graph.linear, over two axes.
// CHECK-LABEL: func.func @residual_only
// CHECK-NEXT: %[[P:.*]] = graph.linear %{{.*}}, %{{.*}} residual %{{.*}} {dist.addends_on_first = ["dp", "tp"]}
// CHECK-NEXT: dist.all_reduce %[[P]] over ["dp", "tp"]
// CHECK-NEXT: return
func.func @residual_only(%x: tensor<8x64xf32>, %h: tensor<8x32xf32>, %w: tensor<32x64xf32>) -> tensor<8x64xf32> {
  %p = graph.linear %h, %w : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %s = dist.all_reduce %p over ["dp", "tp"] : tensor<8x64xf32>
  %y = graph.add %s, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// The exporters' Gemm on flattened tokens: bias on [B*S, H], then a
// reshape to [B, S, H] and the residual add. The residual is reshaped to
// the product's shape instead, and the reshape follows the all-reduce.
// CHECK-LABEL: func.func @flattened_tokens
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x64xf32>, %[[H:.*]]: tensor<8x32xf32>, %[[W:.*]]: tensor<32x64xf32>, %[[B:.*]]: tensor<64xf32>)
// CHECK-NEXT: %[[XR:.*]] = graph.reshape %[[X]] : tensor<2x4x64xf32> -> tensor<8x64xf32>
// CHECK-NEXT: %[[P:.*]] = graph.linear %[[H]], %[[W]], %[[B]] residual %[[XR]] {dist.addends_on_first = ["tp"]}
// CHECK-NEXT: %[[S:.*]] = dist.all_reduce %[[P]] over ["tp"] : tensor<8x64xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.reshape %[[S]] : tensor<8x64xf32> -> tensor<2x4x64xf32>
// CHECK-NEXT: return %[[Y]]
func.func @flattened_tokens(%x: tensor<2x4x64xf32>, %h: tensor<8x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<2x4x64xf32> {
  %p = graph.linear %h, %w : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %s = dist.all_reduce %p over ["tp"] : tensor<8x64xf32>
  %t = graph.add %s, %b : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %r = graph.reshape %t : tensor<8x64xf32> -> tensor<2x4x64xf32>
  %y = graph.add %r, %x : (tensor<2x4x64xf32>, tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  return %y : tensor<2x4x64xf32>
}

// Micro-batch interleaving leaves a weight after the product: it moves up.
// CHECK-LABEL: func.func @late_bias_weight
// CHECK-NEXT: %[[B:.*]] = graph.weight "proj.bias" : tensor<64xf32>
// CHECK-NEXT: %[[P:.*]] = graph.linear %{{.*}}, %{{.*}}, %[[B]] residual %{{.*}} {dist.addends_on_first = ["tp"]}
// CHECK-NEXT: dist.all_reduce %[[P]]
func.func @late_bias_weight(%x: tensor<8x64xf32>, %h: tensor<8x32xf32>, %w: tensor<32x64xf32>) -> tensor<8x64xf32> {
  %p = graph.matmul %h, %w : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %s = dist.all_reduce %p over ["tp"] : tensor<8x64xf32>
  %b = graph.weight "proj.bias" : tensor<64xf32>
  %t = graph.add %s, %b : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %y = graph.add %x, %t : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// The bias alone (the sum has another user than an add).
// CHECK-LABEL: func.func @bias_only
// CHECK-NEXT: %[[P:.*]] = graph.linear %{{.*}}, %{{.*}}, %{{.*}} {dist.addends_on_first = ["tp"]}
// CHECK-NEXT: %[[S:.*]] = dist.all_reduce %[[P]]
// CHECK-NEXT: graph.relu %[[S]]
func.func @bias_only(%h: tensor<8x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  %p = graph.matmul %h, %w : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %s = dist.all_reduce %p over ["tp"] : tensor<8x64xf32>
  %t = graph.add %s, %b : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %r = graph.relu %t : tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
}

// -----

// Left alone: a max reduction; a product with another user; a reduction
// with another user; a residual computed after the product; an activation
// on the product; a batched right operand.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
// CHECK-LABEL: func.func @not_folded
// CHECK-NOT: dist.addends_on_first
// CHECK-COUNT-6: dist.all_reduce
// CHECK-NOT: dist.addends_on_first
func.func @not_folded(%x: tensor<8x64xf32>, %h: tensor<8x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>, %hb: tensor<2x8x32xf32>, %wb: tensor<2x32x64xf32>, %xb: tensor<2x8x64xf32>)
    -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<2x8x64xf32>) {
  %p0 = graph.matmul %h, %w : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %s0 = dist.all_reduce %p0 over ["tp"] {kind = "max"} : tensor<8x64xf32>
  %y0 = graph.add %s0, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>

  %p1 = graph.matmul %h, %w : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %s1 = dist.all_reduce %p1 over ["tp"] : tensor<8x64xf32>
  %y1 = graph.add %s1, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>

  %p2 = graph.matmul %h, %w : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %s2 = dist.all_reduce %p2 over ["tp"] : tensor<8x64xf32>
  %y2 = graph.add %s2, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %z2 = graph.relu %s2 : tensor<8x64xf32>

  %p3 = graph.matmul %h, %w : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %late = graph.neg %x : tensor<8x64xf32>
  %s3 = dist.all_reduce %p3 over ["tp"] : tensor<8x64xf32>
  %y3 = graph.add %s3, %late : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>

  %p4 = graph.linear %h, %w, %b {activation = "relu"} : (tensor<8x32xf32>, tensor<32x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %s4 = dist.all_reduce %p4 over ["tp"] : tensor<8x64xf32>
  %y4 = graph.add %s4, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>

  %p5 = graph.matmul %hb, %wb : (tensor<2x8x32xf32>, tensor<2x32x64xf32>) -> tensor<2x8x64xf32>
  %s5 = dist.all_reduce %p5 over ["tp"] : tensor<2x8x64xf32>
  %y5 = graph.add %s5, %xb : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  return %y0, %y1, %p1, %y2, %z2, %y3, %y4, %y5 : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<2x8x64xf32>
}
}

// RUN: paracc-opt %s -split-input-file --paracc-save-softmax-stats | FileCheck %s

// The forward loss of a cross_entropy_grad returns its softmax statistics
// and the gradient reads them; the loss keeps its users.
// CHECK-LABEL: func.func @step
// CHECK-NOT: graph.softmax_cross_entropy %
// CHECK: %[[LOSS:.*]], %[[STATS:.*]] = graph.softmax_cross_entropy_with_stats %arg0, %arg1, %arg2 {ignore_index = -100 : i64} : (tensor<8x100xbf16>, tensor<8xi64>, tensor<100xbf16>) -> (tensor<bf16>, tensor<8x2xf32>)
// CHECK: graph.cross_entropy_grad %arg3, %arg0, %arg1, %arg2 stats(%[[STATS]]) {ignore_index = -100 : i64}
// CHECK: return %[[LOSS]],
func.func @step(%x: tensor<8x100xbf16>, %l: tensor<8xi64>, %w: tensor<100xbf16>,
                %g: tensor<8xbf16>) -> (tensor<bf16>, tensor<8x100xbf16>) {
  %loss = graph.softmax_cross_entropy %x, %l, %w {ignore_index = -100 : i64}
      : (tensor<8x100xbf16>, tensor<8xi64>, tensor<100xbf16>) -> tensor<bf16>
  %dx = graph.cross_entropy_grad %g, %x, %l, %w {ignore_index = -100 : i64}
      : (tensor<8xbf16>, tensor<8x100xbf16>, tensor<8xi64>, tensor<100xbf16>)
      -> tensor<8x100xbf16>
  return %loss, %dx : tensor<bf16>, tensor<8x100xbf16>
}

// -----

// Scores of [N, C, d]: the statistics are per label, [N, d, 2].
// CHECK-LABEL: func.func @spatial
// CHECK: graph.softmax_cross_entropy_with_stats %arg0, %arg1 {reduction = "sum"} : (tensor<2x5x3xf32>, tensor<2x3xi64>) -> (tensor<f32>, tensor<2x3x2xf32>)
// CHECK: graph.cross_entropy_grad %arg2, %arg0, %arg1 stats(
func.func @spatial(%x: tensor<2x5x3xf32>, %l: tensor<2x3xi64>, %g: tensor<2x3xf32>)
    -> (tensor<f32>, tensor<2x5x3xf32>) {
  %loss = graph.softmax_cross_entropy %x, %l {reduction = "sum"}
      : (tensor<2x5x3xf32>, tensor<2x3xi64>) -> tensor<f32>
  %dx = graph.cross_entropy_grad %g, %x, %l
      : (tensor<2x3xf32>, tensor<2x5x3xf32>, tensor<2x3xi64>) -> tensor<2x5x3xf32>
  return %loss, %dx : tensor<f32>, tensor<2x5x3xf32>
}

// -----

// A loss with other labels, one that also returns its log-softmax, and one
// after its gradient are other computations: the gradient keeps finding its
// own statistics.
// CHECK-LABEL: func.func @not_the_forward
// CHECK-NOT: softmax_cross_entropy_with_stats
// CHECK-NOT: stats(
func.func @not_the_forward(%x: tensor<4x10xf32>, %l: tensor<4xi64>,
                           %m: tensor<4xi64>, %g: tensor<4xf32>)
    -> (tensor<f32>, tensor<f32>, tensor<4x10xf32>, tensor<4x10xf32>, tensor<f32>) {
  %a = graph.softmax_cross_entropy %x, %m : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  %b, %lp = graph.softmax_cross_entropy %x, %l
      : (tensor<4x10xf32>, tensor<4xi64>) -> (tensor<f32>, tensor<4x10xf32>)
  %dx = graph.cross_entropy_grad %g, %x, %l
      : (tensor<4xf32>, tensor<4x10xf32>, tensor<4xi64>) -> tensor<4x10xf32>
  %c = graph.softmax_cross_entropy %x, %l : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return %a, %b, %lp, %dx, %c : tensor<f32>, tensor<f32>, tensor<4x10xf32>, tensor<4x10xf32>, tensor<f32>
}

// -----

// The gradient of an nll_loss (log-probabilities) has no softmax to save.
// CHECK-LABEL: func.func @nll
// CHECK-NOT: stats(
func.func @nll(%x: tensor<4x10xf32>, %l: tensor<4xi64>, %g: tensor<4xf32>)
    -> (tensor<f32>, tensor<4x10xf32>) {
  %a = graph.nll_loss %x, %l : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  %dx = graph.cross_entropy_grad %g, %x, %l {log_prob = true}
      : (tensor<4xf32>, tensor<4x10xf32>, tensor<4xi64>) -> tensor<4x10xf32>
  return %a, %dx : tensor<f32>, tensor<4x10xf32>
}

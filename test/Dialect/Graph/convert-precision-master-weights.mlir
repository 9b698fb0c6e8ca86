// RUN: paracc-opt %s --paracc-convert-precision="type=bf16 master-weights=true" | FileCheck %s

// Mixed-precision training's forward: the weight stays f32 and is read
// through one cast (so its gradient comes back to f32 through the cast's),
// the products run in bf16, and the loss reads the bf16 scores as they are
// and gives an f32 loss.
// CHECK-LABEL: func.func @loss
// CHECK: %[[X:.*]] = graph.cast %arg0 : tensor<4x8xf32> -> tensor<4x8xbf16>
// CHECK: %[[W:.*]] = graph.weight "head.weight" : tensor<8x16xf32>
// CHECK-NEXT: %[[WB:.*]] = graph.cast %[[W]] : tensor<8x16xf32> -> tensor<8x16xbf16>
// CHECK: %[[Y:.*]] = graph.matmul %[[X]], %[[WB]] : (tensor<4x8xbf16>, tensor<8x16xbf16>) -> tensor<4x16xbf16>
// CHECK-NOT: graph.cast
// CHECK: %[[L:.*]] = graph.softmax_cross_entropy %[[Y]], %arg1 : (tensor<4x16xbf16>, tensor<4xi64>) -> tensor<f32>
// CHECK-NEXT: return %[[L]] : tensor<f32>
func.func @loss(%x: tensor<4x8xf32>, %labels: tensor<4xi64>) -> tensor<f32> {
  %w = graph.weight "head.weight" : tensor<8x16xf32>
  %0 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = graph.softmax_cross_entropy %0, %labels : (tensor<4x16xf32>, tensor<4xi64>) -> tensor<f32>
  return %1 : tensor<f32>
}

// A weighted loss (and nll_loss) reads f32 scores.
// CHECK-LABEL: func.func @weighted_loss
// CHECK: %[[Y:.*]] = graph.matmul
// CHECK: %[[S:.*]] = graph.cast %[[Y]] : tensor<4x16xbf16> -> tensor<4x16xf32>
// CHECK: graph.softmax_cross_entropy %[[S]], %arg1, %{{.*}} : (tensor<4x16xf32>, tensor<4xi64>, tensor<16xf32>) -> tensor<f32>
func.func @weighted_loss(%x: tensor<4x8xf32>, %labels: tensor<4xi64>,
                         %cw: tensor<16xf32>) -> tensor<f32> {
  %w = graph.weight "head.weight" : tensor<8x16xf32>
  %0 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = graph.softmax_cross_entropy %0, %labels, %cw : (tensor<4x16xf32>, tensor<4xi64>, tensor<16xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// A buffer the model assigns (BatchNorm's running mean) stays f32 like the
// weights: its new value, computed in bf16, is cast back before the write.
// CHECK-LABEL: func.func @running_mean
// CHECK: %[[M:.*]] = graph.weight "bn.running_mean" : tensor<8xf32>
// CHECK: %[[N:.*]] = graph.add %{{.*}}, %{{.*}} : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xbf16>
// CHECK-NEXT: %[[C:.*]] = graph.cast %[[N]] : tensor<8xbf16> -> tensor<8xf32>
// CHECK-NEXT: graph.assign "bn.running_mean", %[[C]] : tensor<8xf32>
func.func @running_mean(%x: tensor<8xf32>) -> tensor<8xf32> {
  %m = graph.weight "bn.running_mean" : tensor<8xf32>
  %n = graph.add %m, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  graph.assign "bn.running_mean", %n : tensor<8xf32>
  return %x : tensor<8xf32>
}

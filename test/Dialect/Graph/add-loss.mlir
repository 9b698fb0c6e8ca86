// RUN: paracc-opt %s -split-input-file --paracc-add-loss | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-add-loss=kind=ce | FileCheck %s --check-prefix=CE

// next-token-ce: logits[:, :-1] against input_ids[:, 1:].
// CHECK-LABEL: func.func @lm
// CHECK-SAME: (%[[IDS:[^:]+]]: tensor<2x8xi64>) -> (tensor<f32> {graph.name = "loss"})
// CHECK: %[[L:.*]] = graph.slice %{{.*}}, starts = [0, 0, 0], limits = [2, 7, 16], steps = [1, 1, 1]
// CHECK: %[[S:.*]] = graph.reshape %[[L]] : tensor<2x7x16xf32> -> tensor<14x16xf32>
// CHECK: %[[T:.*]] = graph.slice %[[IDS]], starts = [0, 1], limits = [2, 8], steps = [1, 1]
// CHECK: %[[Y:.*]] = graph.reshape %[[T]] : tensor<2x7xi64> -> tensor<14xi64>
// CHECK: %[[LOSS:.*]] = graph.softmax_cross_entropy %[[S]], %[[Y]] : (tensor<14x16xf32>, tensor<14xi64>) -> tensor<f32>
// CHECK: return %[[LOSS]]

// ce: labels become an input.
// CE-LABEL: func.func @lm
// CE-SAME: (%{{[^:]+}}: tensor<2x8xi64>, %[[LABELS:[^:]+]]: tensor<2x8xi64> {graph.name = "labels"})
// CE: %[[Y:.*]] = graph.reshape %[[LABELS]] : tensor<2x8xi64> -> tensor<16xi64>
// CE: graph.softmax_cross_entropy %{{.*}}, %[[Y]]
func.func @lm(%ids: tensor<2x8xi64>) -> tensor<2x8x16xf32> {
  %e = graph.weight "emb" : tensor<16x16xf32>
  %h = graph.gather %e, %ids {axis = 0 : i64} : (tensor<16x16xf32>, tensor<2x8xi64>) -> tensor<2x8x16xf32>
  return %h : tensor<2x8x16xf32>
}

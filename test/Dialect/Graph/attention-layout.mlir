// RUN: paracc-opt %s -split-input-file --paracc-attention-layout | FileCheck %s

// q, k and v transposed from [B, S, H, D] to [B, H, S, D] and the result
// transposed back: one sequence-first attention on the untransposed values,
// with its mask unchanged, and no transposes left.
// CHECK-LABEL: func.func @gpt_block
// CHECK-SAME: (%[[QS:.*]]: tensor<2x16x4x8xf32>, %[[KS:.*]]: tensor<2x16x4x8xf32>, %[[VS:.*]]: tensor<2x16x4x8xf32>, %[[M:.*]]: tensor<2x1x1x16xf32>)
// CHECK-NOT: graph.transpose
// CHECK: %[[A:.*]] = graph.attention %[[QS]], %[[KS]], %[[VS]], %[[M]] {causal = true, scale = 3.535530e-01 : f64, sequence_first = true} : (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x1x1x16xf32>) -> tensor<2x16x4x8xf32>
// CHECK-NOT: graph.transpose
// CHECK: return %[[A]]
func.func @gpt_block(%qs: tensor<2x16x4x8xf32>, %ks: tensor<2x16x4x8xf32>,
                     %vs: tensor<2x16x4x8xf32>, %m: tensor<2x1x1x16xf32>)
    -> tensor<2x16x4x8xf32> {
  %q = graph.transpose %qs, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %k = graph.transpose %ks, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %v = graph.transpose %vs, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %a = graph.attention %q, %k, %v, %m {causal = true, scale = 0.353553 : f64}
      : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>,
         tensor<2x1x1x16xf32>) -> tensor<2x4x16x8xf32>
  %y = graph.transpose %a, [0, 2, 1, 3] : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
  return %y : tensor<2x16x4x8xf32>
}

// -----

// Rank 3 ([S, H, D], no batch dim) folds too.
// CHECK-LABEL: func.func @no_batch
// CHECK-NOT: graph.transpose
// CHECK: graph.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f64, sequence_first = true} : (tensor<16x4x8xf32>, tensor<16x4x8xf32>, tensor<16x4x8xf32>) -> tensor<16x4x8xf32>
func.func @no_batch(%x: tensor<16x4x8xf32>) -> tensor<16x4x8xf32> {
  %q = graph.transpose %x, [1, 0, 2] : tensor<16x4x8xf32> -> tensor<4x16x8xf32>
  %a = graph.attention %q, %q, %q {scale = 1.0 : f64}
      : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %y = graph.transpose %a, [1, 0, 2] : tensor<4x16x8xf32> -> tensor<16x4x8xf32>
  return %y : tensor<16x4x8xf32>
}

// -----

// Left alone: k does not come from a head transpose (rotary embeddings are
// applied after the transpose in Llama exports).
// CHECK-LABEL: func.func @operand_not_transposed
// CHECK: graph.attention
// CHECK-NOT: sequence_first = true
// CHECK: graph.transpose
func.func @operand_not_transposed(%qs: tensor<2x16x4x8xf32>, %k: tensor<2x4x16x8xf32>)
    -> tensor<2x16x4x8xf32> {
  %q = graph.transpose %qs, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %a = graph.attention %q, %k, %k {scale = 1.0 : f64}
      : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %y = graph.transpose %a, [0, 2, 1, 3] : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
  return %y : tensor<2x16x4x8xf32>
}

// -----

// Left alone: the result has a second user that reads it head-first.
// CHECK-LABEL: func.func @result_used_head_first
// CHECK-NOT: sequence_first = true
func.func @result_used_head_first(%qs: tensor<2x16x4x8xf32>)
    -> (tensor<2x16x4x8xf32>, tensor<2x4x16x8xf32>) {
  %q = graph.transpose %qs, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %a = graph.attention %q, %q, %q {scale = 1.0 : f64}
      : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %y = graph.transpose %a, [0, 2, 1, 3] : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
  return %y, %a : tensor<2x16x4x8xf32>, tensor<2x4x16x8xf32>
}

// -----

// Left alone: another permutation (batch and heads swapped).
// CHECK-LABEL: func.func @other_permutation
// CHECK-NOT: sequence_first = true
func.func @other_permutation(%qs: tensor<4x2x16x8xf32>) -> tensor<4x2x16x8xf32> {
  %q = graph.transpose %qs, [1, 0, 2, 3] : tensor<4x2x16x8xf32> -> tensor<2x4x16x8xf32>
  %a = graph.attention %q, %q, %q {scale = 1.0 : f64}
      : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %y = graph.transpose %a, [1, 0, 2, 3] : tensor<2x4x16x8xf32> -> tensor<4x2x16x8xf32>
  return %y : tensor<4x2x16x8xf32>
}

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

// -----

// The backward of a training step: dy, q, k, v transposed to [B, H, S, D]
// and the gradients transposed back become one sequence-first
// attention_grad on the untransposed values; an unused gradient is fine.
// CHECK-LABEL: func.func @backward
// CHECK-NOT: graph.transpose
// CHECK: %[[DQ:.*]], %[[DK:.*]], %{{.*}} = graph.attention_grad %arg0, %arg1, %arg2, %arg3 {causal = true, scale = 1.250000e-01 : f64, sequence_first = true} : (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>) -> (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>)
// CHECK-NOT: graph.transpose
// CHECK: return %[[DQ]], %[[DK]]
func.func @backward(%dy: tensor<2x16x4x8xf32>, %q: tensor<2x16x4x8xf32>, %k: tensor<2x16x4x8xf32>, %v: tensor<2x16x4x8xf32>) -> (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>) {
  %tdy = graph.transpose %dy, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %tq = graph.transpose %q, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %tk = graph.transpose %k, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %tv = graph.transpose %v, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %dq, %dk, %dv = graph.attention_grad %tdy, %tq, %tk, %tv {causal = true, scale = 0.125 : f64} : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>)
  %bq = graph.transpose %dq, [0, 2, 1, 3] : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
  %bk = graph.transpose %dk, [0, 2, 1, 3] : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
  return %bq, %bk : tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>
}

// -----

// A gradient used by something other than the transpose back keeps the
// [B, H, S, D] backward.
// CHECK-LABEL: func.func @backward_kept
// CHECK: graph.attention_grad {{.*}} {scale = 1.250000e-01 : f64} :
func.func @backward_kept(%dy: tensor<2x16x4x8xf32>, %q: tensor<2x16x4x8xf32>, %k: tensor<2x16x4x8xf32>, %v: tensor<2x16x4x8xf32>) -> (tensor<2x4x16x8xf32>) {
  %tdy = graph.transpose %dy, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %tq = graph.transpose %q, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %tk = graph.transpose %k, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %tv = graph.transpose %v, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %dq, %dk, %dv = graph.attention_grad %tdy, %tq, %tk, %tv {scale = 0.125 : f64} : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>)
  return %dq : tensor<2x4x16x8xf32>
}

// -----

// Llama's forward: the rotary embedding after the head transposes and K and
// V repeated for grouped-query attention (reshape, expand, reshape). The
// chains are rebuilt sequence-first: the tables reshaped to [1, S, 1, D],
// the repeat over [B, S, Hkv, G, D]; no transposes are left.
// CHECK-LABEL: func.func @llama_gqa
// CHECK-SAME: (%[[QS:.*]]: tensor<2x16x4x8xf32>, %[[KS:.*]]: tensor<2x16x2x8xf32>, %[[VS:.*]]: tensor<2x16x2x8xf32>, %[[COS:.*]]: tensor<1x1x16x8xf32>, %[[SIN:.*]]: tensor<1x1x16x8xf32>)
// CHECK-NOT: graph.transpose
// CHECK-DAG: %[[C:.*]] = graph.reshape %[[COS]] : tensor<1x1x16x8xf32> -> tensor<1x16x1x8xf32>
// CHECK-DAG: %[[S:.*]] = graph.reshape %[[SIN]] : tensor<1x1x16x8xf32> -> tensor<1x16x1x8xf32>
// CHECK-DAG: %[[QR:.*]] = graph.rotary %[[QS]], %[[C]], %[[S]] : (tensor<2x16x4x8xf32>, tensor<1x16x1x8xf32>, tensor<1x16x1x8xf32>) -> tensor<2x16x4x8xf32>
// CHECK-DAG: %[[KR:.*]] = graph.rotary %[[KS]], %[[C]], %[[S]] : (tensor<2x16x2x8xf32>, tensor<1x16x1x8xf32>, tensor<1x16x1x8xf32>) -> tensor<2x16x2x8xf32>
// CHECK-DAG: %[[K5:.*]] = graph.reshape %[[KR]] : tensor<2x16x2x8xf32> -> tensor<2x16x2x1x8xf32>
// CHECK-DAG: %[[KE:.*]] = graph.expand %[[K5]] : tensor<2x16x2x1x8xf32> -> tensor<2x16x2x2x8xf32>
// CHECK-DAG: %[[K:.*]] = graph.reshape %[[KE]] : tensor<2x16x2x2x8xf32> -> tensor<2x16x4x8xf32>
// CHECK-DAG: %[[V5:.*]] = graph.reshape %[[VS]] : tensor<2x16x2x8xf32> -> tensor<2x16x2x1x8xf32>
// CHECK: %[[A:.*]] = graph.attention %[[QR]], %[[K]], %{{.*}} {causal = true, scale = 3.535530e-01 : f64, sequence_first = true} : (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>) -> tensor<2x16x4x8xf32>
// CHECK-NOT: graph.transpose
// CHECK: return %[[A]]
func.func @llama_gqa(%qs: tensor<2x16x4x8xf32>, %ks: tensor<2x16x2x8xf32>,
                     %vs: tensor<2x16x2x8xf32>, %cos: tensor<1x1x16x8xf32>,
                     %sin: tensor<1x1x16x8xf32>) -> tensor<2x16x4x8xf32> {
  %q = graph.transpose %qs, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %k = graph.transpose %ks, [0, 2, 1, 3] : tensor<2x16x2x8xf32> -> tensor<2x2x16x8xf32>
  %v = graph.transpose %vs, [0, 2, 1, 3] : tensor<2x16x2x8xf32> -> tensor<2x2x16x8xf32>
  %qr = graph.rotary %q, %cos, %sin : (tensor<2x4x16x8xf32>, tensor<1x1x16x8xf32>, tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
  %kr = graph.rotary %k, %cos, %sin : (tensor<2x2x16x8xf32>, tensor<1x1x16x8xf32>, tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
  %k5 = graph.reshape %kr : tensor<2x2x16x8xf32> -> tensor<2x2x1x16x8xf32>
  %ke = graph.expand %k5 : tensor<2x2x1x16x8xf32> -> tensor<2x2x2x16x8xf32>
  %kk = graph.reshape %ke : tensor<2x2x2x16x8xf32> -> tensor<2x4x16x8xf32>
  %v5 = graph.reshape %v : tensor<2x2x16x8xf32> -> tensor<2x2x1x16x8xf32>
  %ve = graph.expand %v5 : tensor<2x2x1x16x8xf32> -> tensor<2x2x2x16x8xf32>
  %vv = graph.reshape %ve : tensor<2x2x2x16x8xf32> -> tensor<2x4x16x8xf32>
  %a = graph.attention %qr, %kk, %vv {causal = true, scale = 0.353553 : f64}
      : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %y = graph.transpose %a, [0, 2, 1, 3] : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
  return %y : tensor<2x16x4x8xf32>
}

// -----

// Llama's backward: dK of the repeated keys summed over the group
// (reshape, reduce_sum, reshape) and the rotary embedding's transposed map
// before the transposes back. Rebuilt sequence-first: the sum runs over
// [B, S, Hkv, G, D]'s group dim; no transposes are left.
// CHECK-LABEL: func.func @llama_gqa_backward
// CHECK-NOT: graph.transpose
// CHECK: %[[DQ:.*]], %[[DK:.*]], %{{.*}} = graph.attention_grad %arg0, %arg1, %arg2, %arg2 {causal = true, scale = 1.250000e-01 : f64, sequence_first = true}
// CHECK-DAG: graph.rotary %[[DQ]], %{{.*}}, %{{.*}} {transposed = true} : (tensor<2x16x4x8xf32>, tensor<1x16x1x8xf32>, tensor<1x16x1x8xf32>) -> tensor<2x16x4x8xf32>
// CHECK-DAG: %[[G:.*]] = graph.reshape %[[DK]] : tensor<2x16x4x8xf32> -> tensor<2x16x2x2x8xf32>
// CHECK-DAG: %[[R:.*]] = graph.reduce_sum %[[G]], [3] : tensor<2x16x2x2x8xf32> -> tensor<2x16x2x1x8xf32>
// CHECK-DAG: graph.reshape %[[R]] : tensor<2x16x2x1x8xf32> -> tensor<2x16x2x8xf32>
// CHECK-NOT: graph.transpose
func.func @llama_gqa_backward(%dy: tensor<2x16x4x8xf32>, %q: tensor<2x16x4x8xf32>,
                              %k: tensor<2x16x4x8xf32>, %cos: tensor<1x1x16x8xf32>,
                              %sin: tensor<1x1x16x8xf32>)
    -> (tensor<2x16x4x8xf32>, tensor<2x16x2x8xf32>) {
  %tdy = graph.transpose %dy, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %tq = graph.transpose %q, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %tk = graph.transpose %k, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %dq, %dk, %dv = graph.attention_grad %tdy, %tq, %tk, %tk {causal = true, scale = 0.125 : f64} : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>)
  %rq = graph.rotary %dq, %cos, %sin {transposed = true} : (tensor<2x4x16x8xf32>, tensor<1x1x16x8xf32>, tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
  %bq = graph.transpose %rq, [0, 2, 1, 3] : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
  %g = graph.reshape %dk : tensor<2x4x16x8xf32> -> tensor<2x2x2x16x8xf32>
  %s = graph.reduce_sum %g, [2] : tensor<2x2x2x16x8xf32> -> tensor<2x2x1x16x8xf32>
  %s4 = graph.reshape %s : tensor<2x2x1x16x8xf32> -> tensor<2x2x16x8xf32>
  %bk = graph.transpose %s4, [0, 2, 1, 3] : tensor<2x2x16x8xf32> -> tensor<2x16x2x8xf32>
  return %bq, %bk : tensor<2x16x4x8xf32>, tensor<2x16x2x8xf32>
}

// -----

// Left alone: a rotary table per head ([1, H, S, D]) would have to be
// transposed itself.
// CHECK-LABEL: func.func @rotary_table_per_head
// CHECK-NOT: sequence_first = true
func.func @rotary_table_per_head(%qs: tensor<2x16x4x8xf32>, %cos: tensor<1x4x16x8xf32>)
    -> tensor<2x16x4x8xf32> {
  %q = graph.transpose %qs, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %qr = graph.rotary %q, %cos, %cos : (tensor<2x4x16x8xf32>, tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %a = graph.attention %qr, %qr, %qr {scale = 1.0 : f64}
      : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %y = graph.transpose %a, [0, 2, 1, 3] : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
  return %y : tensor<2x16x4x8xf32>
}

// -----

// Left alone: the rotated q also leaves the function head-first, so
// rebuilding it would compute it twice.
// CHECK-LABEL: func.func @rotated_q_also_returned
// CHECK-NOT: sequence_first = true
func.func @rotated_q_also_returned(%qs: tensor<2x16x4x8xf32>, %cos: tensor<1x1x16x8xf32>)
    -> (tensor<2x16x4x8xf32>, tensor<2x4x16x8xf32>) {
  %q = graph.transpose %qs, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %qr = graph.rotary %q, %cos, %cos : (tensor<2x4x16x8xf32>, tensor<1x1x16x8xf32>, tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
  %a = graph.attention %qr, %qr, %qr {scale = 1.0 : f64}
      : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %y = graph.transpose %a, [0, 2, 1, 3] : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
  return %y, %qr : tensor<2x16x4x8xf32>, tensor<2x4x16x8xf32>
}

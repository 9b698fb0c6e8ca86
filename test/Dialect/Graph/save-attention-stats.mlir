// RUN: paracc-opt %s -split-input-file --paracc-save-attention-stats | FileCheck %s

// The forward of an attention_grad returns its statistics, and the gradient
// takes them with the forward's result; the forward's other users are kept.
// CHECK-LABEL: func.func @step
// CHECK-NOT: graph.attention %
// CHECK: %[[Y:.*]], %[[LSE:.*]] = graph.attention_with_stats %arg0, %arg1, %arg2, %arg3 {causal = true, scale = 1.250000e-01 : f64, sequence_first = true} : (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x1x1x16xf32>) -> (tensor<2x16x4x8xf32>, tensor<2x4x16xf32>)
// CHECK: graph.attention_grad %arg4, %arg0, %arg1, %arg2, %arg3 saved(%[[Y]], %[[LSE]]) {causal = true, scale = 1.250000e-01 : f64, sequence_first = true}
// CHECK: return %[[Y]],
func.func @step(%q: tensor<2x16x4x8xf32>, %k: tensor<2x16x4x8xf32>,
                %v: tensor<2x16x4x8xf32>, %m: tensor<2x1x1x16xf32>,
                %dy: tensor<2x16x4x8xf32>)
    -> (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>) {
  %a = graph.attention %q, %k, %v, %m {causal = true, scale = 0.125 : f64, sequence_first = true}
      : (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>,
         tensor<2x1x1x16xf32>) -> tensor<2x16x4x8xf32>
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %k, %v, %m {causal = true, scale = 0.125 : f64, sequence_first = true}
      : (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>,
         tensor<2x16x4x8xf32>, tensor<2x1x1x16xf32>)
      -> (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>)
  return %a, %dq : tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>
}

// -----

// A forward with other attributes (here: not causal) is another attention:
// the gradient is left to rerun its own forward.
// CHECK-LABEL: func.func @other_attention
// CHECK-NOT: attention_with_stats
// CHECK: graph.attention %arg0, %arg0, %arg0 {scale = 1.250000e-01 : f64}
// CHECK: graph.attention_grad %arg1, %arg0, %arg0, %arg0 {causal = true, scale = 1.250000e-01 : f64} :
func.func @other_attention(%q: tensor<4x16x8xf32>, %dy: tensor<4x16x8xf32>)
    -> (tensor<4x16x8xf32>, tensor<4x16x8xf32>) {
  %a = graph.attention %q, %q, %q {scale = 0.125 : f64}
      : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %q, %q {causal = true, scale = 0.125 : f64}
      : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>)
      -> (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>)
  return %a, %dq : tensor<4x16x8xf32>, tensor<4x16x8xf32>
}

// -----

// A gradient whose forward runs after it (or nowhere) is left alone.
// CHECK-LABEL: func.func @forward_after_grad
// CHECK-NOT: attention_with_stats
// CHECK-NOT: saved
func.func @forward_after_grad(%q: tensor<4x16x8xf32>, %dy: tensor<4x16x8xf32>)
    -> (tensor<4x16x8xf32>, tensor<4x16x8xf32>) {
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %q, %q {scale = 0.125 : f64}
      : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>)
      -> (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>)
  %a = graph.attention %q, %q, %q {scale = 0.125 : f64}
      : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %a, %dq : tensor<4x16x8xf32>, tensor<4x16x8xf32>
}

// -----

// Two gradients of one forward (a recomputed step) share its statistics.
// CHECK-LABEL: func.func @two_grads
// CHECK: %[[Y:.*]], %[[LSE:.*]] = graph.attention_with_stats
// CHECK-COUNT-2: saved(%[[Y]], %[[LSE]])
func.func @two_grads(%q: tensor<4x16x8xf32>, %dy: tensor<4x16x8xf32>)
    -> (tensor<4x16x8xf32>, tensor<4x16x8xf32>) {
  %a = graph.attention %q, %q, %q {scale = 0.125 : f64}
      : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %q, %q {scale = 0.125 : f64}
      : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>)
      -> (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>)
  %dq2, %dk2, %dv2 = graph.attention_grad %a, %q, %q, %q {scale = 0.125 : f64}
      : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>)
      -> (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>)
  return %dq, %dq2 : tensor<4x16x8xf32>, tensor<4x16x8xf32>
}

// RUN: paracc-opt %s --split-input-file --paracc-attention-kv-groups | FileCheck %s
// RUN: paracc-opt %s --split-input-file --paracc-attention-kv-groups --canonicalize | FileCheck %s --check-prefix=CLEAN

// Grouped-query attention as the exporters write it, sequence-first (after
// paracc-attention-layout): k and v repeated from 2 to 4 heads, the
// backward's gradients summed over each group (kept and dropped dim). The
// forward and the backward read the same unrepeated k and v; dk and dv come
// out with 2 heads in the sums' place.
// CHECK-LABEL: func.func @forward_and_backward
// CHECK-SAME: (%[[Q:[^:]*]]: tensor<2x16x4x8xf32>, %[[K:[^:]*]]: tensor<2x16x2x8xf32>, %[[V:[^:]*]]: tensor<2x16x2x8xf32>, %[[DY:[^:]*]]: tensor<2x16x4x8xf32>)
// CHECK: %[[K1:.*]] = graph.reshape %[[K]] : tensor<2x16x2x8xf32> -> tensor<2x16x2x1x8xf32>
// CHECK-NEXT: %[[KG:.*]] = graph.reshape %[[K1]] : tensor<2x16x2x1x8xf32> -> tensor<2x16x2x8xf32>
// CHECK: %[[V1:.*]] = graph.reshape %[[V]] : tensor<2x16x2x8xf32> -> tensor<2x16x2x1x8xf32>
// CHECK-NEXT: %[[VG:.*]] = graph.reshape %[[V1]] : tensor<2x16x2x1x8xf32> -> tensor<2x16x2x8xf32>
// CHECK: %[[Y:.*]] = graph.attention %[[Q]], %[[KG]], %[[VG]] {causal = true, {{.*}}sequence_first = true} : (tensor<2x16x4x8xf32>, tensor<2x16x2x8xf32>, tensor<2x16x2x8xf32>) -> tensor<2x16x4x8xf32>
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = graph.attention_grad %[[DY]], %[[Q]], %[[KG]], %[[VG]] {causal = true, {{.*}}sequence_first = true} : {{.*}} -> (tensor<2x16x4x8xf32>, tensor<2x16x2x8xf32>, tensor<2x16x2x8xf32>)
// CHECK-NOT: graph.reduce_sum
// CHECK: %[[DKS:.*]] = graph.reshape %[[DK]] : tensor<2x16x2x8xf32> -> tensor<2x16x2x1x8xf32>
// CHECK-NOT: graph.reduce_sum
// CHECK: return %[[Y]], %[[DQ]], %{{.*}}, %[[DV]]
// CLEAN-LABEL: func.func @forward_and_backward
// CLEAN-NOT: graph.expand
// CLEAN-NOT: graph.reduce_sum
// CLEAN: graph.attention %{{.*}}, %{{.*}}, %{{.*}} {{.*}} : (tensor<2x16x4x8xf32>, tensor<2x16x2x8xf32>, tensor<2x16x2x8xf32>) -> tensor<2x16x4x8xf32>
// CLEAN: graph.attention_grad {{.*}} -> (tensor<2x16x4x8xf32>, tensor<2x16x2x8xf32>, tensor<2x16x2x8xf32>)
// CLEAN-NOT: graph.expand
// CLEAN-NOT: graph.reduce_sum
// CLEAN: return
func.func @forward_and_backward(%q: tensor<2x16x4x8xf32>, %k: tensor<2x16x2x8xf32>, %v: tensor<2x16x2x8xf32>, %dy: tensor<2x16x4x8xf32>) -> (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x2x8xf32>, tensor<2x16x2x8xf32>) {
  %k1 = graph.reshape %k : tensor<2x16x2x8xf32> -> tensor<2x16x2x1x8xf32>
  %k2 = graph.expand %k1 : tensor<2x16x2x1x8xf32> -> tensor<2x16x2x2x8xf32>
  %k4 = graph.reshape %k2 : tensor<2x16x2x2x8xf32> -> tensor<2x16x4x8xf32>
  %v1 = graph.reshape %v : tensor<2x16x2x8xf32> -> tensor<2x16x2x1x8xf32>
  %v2 = graph.expand %v1 : tensor<2x16x2x1x8xf32> -> tensor<2x16x2x2x8xf32>
  %v4 = graph.reshape %v2 : tensor<2x16x2x2x8xf32> -> tensor<2x16x4x8xf32>
  %y = graph.attention %q, %k4, %v4 {causal = true, scale = 0.35355339059327373 : f64, sequence_first = true} : (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>) -> tensor<2x16x4x8xf32>
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %k4, %v4 {causal = true, scale = 0.35355339059327373 : f64, sequence_first = true} : (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>) -> (tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>)
  %dk5 = graph.reshape %dk : tensor<2x16x4x8xf32> -> tensor<2x16x2x2x8xf32>
  %dks = graph.reduce_sum %dk5, [3] : tensor<2x16x2x2x8xf32> -> tensor<2x16x2x1x8xf32>
  %dkr = graph.reshape %dks : tensor<2x16x2x1x8xf32> -> tensor<2x16x2x8xf32>
  %dv5 = graph.reshape %dv : tensor<2x16x4x8xf32> -> tensor<2x16x2x2x8xf32>
  %dvs = graph.reduce_sum %dv5, [3] {keepdims = false} : tensor<2x16x2x2x8xf32> -> tensor<2x16x2x8xf32>
  return %y, %dq, %dkr, %dvs : tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>, tensor<2x16x2x8xf32>, tensor<2x16x2x8xf32>
}

// -----

// Multi-query attention in the default layout [B, H, S, D]: one key head
// for four query heads, with the saved statistics of ring attention's
// forward kept.
// CHECK-LABEL: func.func @multi_query_default_layout
// CHECK: %[[KG:.*]] = graph.reshape %{{.*}} : tensor<2x1x1x16x8xbf16> -> tensor<2x1x16x8xbf16>
// CHECK: %[[VG:.*]] = graph.reshape %{{.*}} : tensor<2x1x1x16x8xbf16> -> tensor<2x1x16x8xbf16>
// CHECK: graph.attention_with_stats %{{.*}}, %[[KG]], %[[VG]] {causal = true, scale = 1.250000e-01 : f64} : (tensor<2x4x16x8xbf16>, tensor<2x1x16x8xbf16>, tensor<2x1x16x8xbf16>) -> (tensor<2x4x16x8xbf16>, tensor<2x4x16xf32>)
func.func @multi_query_default_layout(%q: tensor<2x4x16x8xbf16>, %k: tensor<2x1x16x8xbf16>, %v: tensor<2x1x16x8xbf16>) -> (tensor<2x4x16x8xbf16>, tensor<2x4x16xf32>) {
  %k1 = graph.reshape %k : tensor<2x1x16x8xbf16> -> tensor<2x1x1x16x8xbf16>
  %k2 = graph.expand %k1 : tensor<2x1x1x16x8xbf16> -> tensor<2x1x4x16x8xbf16>
  %k4 = graph.reshape %k2 : tensor<2x1x4x16x8xbf16> -> tensor<2x4x16x8xbf16>
  %v1 = graph.reshape %v : tensor<2x1x16x8xbf16> -> tensor<2x1x1x16x8xbf16>
  %v2 = graph.expand %v1 : tensor<2x1x1x16x8xbf16> -> tensor<2x1x4x16x8xbf16>
  %v4 = graph.reshape %v2 : tensor<2x1x4x16x8xbf16> -> tensor<2x4x16x8xbf16>
  %y, %lse = graph.attention_with_stats %q, %k4, %v4 {causal = true, scale = 0.125 : f64} : (tensor<2x4x16x8xbf16>, tensor<2x4x16x8xbf16>, tensor<2x4x16x8xbf16>) -> (tensor<2x4x16x8xbf16>, tensor<2x4x16xf32>)
  return %y, %lse : tensor<2x4x16x8xbf16>, tensor<2x4x16xf32>
}

// -----

// The backward keeps the repeated k and v when something other than the
// group sums reads dk: the forward is still grouped (each op stands alone).
// CHECK-LABEL: func.func @gradient_read_elsewhere
// CHECK: graph.attention %{{.*}} : (tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x8x4x16xf32>
// CHECK: graph.attention_grad {{.*}} -> (tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>)
// CHECK: graph.reduce_sum
func.func @gradient_read_elsewhere(%q: tensor<1x8x4x16xf32>, %k: tensor<1x8x2x16xf32>, %dy: tensor<1x8x4x16xf32>) -> (tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x2x1x16xf32>) {
  %k1 = graph.reshape %k : tensor<1x8x2x16xf32> -> tensor<1x8x2x1x16xf32>
  %k2 = graph.expand %k1 : tensor<1x8x2x1x16xf32> -> tensor<1x8x2x2x16xf32>
  %k4 = graph.reshape %k2 : tensor<1x8x2x2x16xf32> -> tensor<1x8x4x16xf32>
  %y = graph.attention %q, %k4, %k4 {scale = 0.25 : f64, sequence_first = true} : (tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>) -> tensor<1x8x4x16xf32>
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %k4, %k4 {scale = 0.25 : f64, sequence_first = true} : (tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>) -> (tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>)
  %dk5 = graph.reshape %dk : tensor<1x8x4x16xf32> -> tensor<1x8x2x2x16xf32>
  %dks = graph.reduce_sum %dk5, [3] : tensor<1x8x2x2x16xf32> -> tensor<1x8x2x1x16xf32>
  return %y, %dk, %dks : tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x2x1x16xf32>
}

// -----

// An interleaved repeat (query head i reads key head i % 2: the unit dim
// before the head dim) is not a grouping of consecutive query heads: left
// alone.
// CHECK-LABEL: func.func @interleaved_repeat
// CHECK: graph.expand
// CHECK: graph.attention %{{.*}} : (tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>) -> tensor<1x8x4x16xf32>
func.func @interleaved_repeat(%q: tensor<1x8x4x16xf32>, %k: tensor<1x8x2x16xf32>) -> tensor<1x8x4x16xf32> {
  %k1 = graph.reshape %k : tensor<1x8x2x16xf32> -> tensor<1x8x1x2x16xf32>
  %k2 = graph.expand %k1 : tensor<1x8x1x2x16xf32> -> tensor<1x8x2x2x16xf32>
  %k4 = graph.reshape %k2 : tensor<1x8x2x2x16xf32> -> tensor<1x8x4x16xf32>
  %y = graph.attention %q, %k4, %k4 {scale = 0.25 : f64, sequence_first = true} : (tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>) -> tensor<1x8x4x16xf32>
  return %y : tensor<1x8x4x16xf32>
}

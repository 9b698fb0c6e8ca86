// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-partition | FileCheck %s

// --paracc-partition on programs whose every value already carries its
// sharding (what propagation leaves; values without one are whole): local
// types, the collectives each resharding needs, the special rules
// (vocabulary-parallel lookup, Gemm bias, means and mean losses), and the
// attributes the executable reads (global types, shard dims, the mesh).

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {

// Column then row parallel: every op runs on its shard, one all-reduce of
// the row matmul's partial sums, the replicated bias added after it.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x16x64xf32> {dist.global_type = tensor<2x16x64xf32>, dist.shard_dims = [array<i32>, array<i32>, array<i32>]})
// CHECK-SAME: -> (tensor<2x16x64xf32> {dist.global_type = tensor<2x16x64xf32>, dist.shard_dims = [array<i32>, array<i32>, array<i32>]})
func.func @mlp(%x: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  // CHECK-NEXT: %[[W1:.*]] = graph.weight "fc1.weight" {dist.global_type = tensor<64x256xf32>, dist.shard_dims = [array<i32>, array<i32: 0>]} : tensor<64x128xf32>
  // CHECK-NEXT: %[[B1:.*]] = graph.weight "fc1.bias" {dist.global_type = tensor<256xf32>, dist.shard_dims = [array<i32: 0>]} : tensor<128xf32>
  // CHECK-NEXT: %[[W2:.*]] = graph.weight "fc2.weight" {dist.global_type = tensor<256x64xf32>, dist.shard_dims = [array<i32: 0>, array<i32>]} : tensor<128x64xf32>
  // CHECK-NEXT: %[[B2:.*]] = graph.weight "fc2.bias" {dist.global_type = tensor<64xf32>, dist.shard_dims = [array<i32>]} : tensor<64xf32>
  %w1 = graph.weight "fc1.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x256xf32>
  %b1 = graph.weight "fc1.bias" {dist.shardings = [#dist.sharding<{tp}>]} : tensor<256xf32>
  %w2 = graph.weight "fc2.weight" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<256x64xf32>
  %b2 = graph.weight "fc2.bias" {dist.shardings = [#dist.sharding<{}>]} : tensor<64xf32>
  // CHECK-NEXT: %[[H:.*]] = graph.matmul %[[X]], %[[W1]] : (tensor<2x16x64xf32>, tensor<64x128xf32>) -> tensor<2x16x128xf32>
  // CHECK-NEXT: %[[HB:.*]] = graph.add %[[H]], %[[B1]] : (tensor<2x16x128xf32>, tensor<128xf32>) -> tensor<2x16x128xf32>
  // CHECK-NEXT: %[[A:.*]] = graph.gelu %[[HB]] : tensor<2x16x128xf32>
  // CHECK-NEXT: %[[P:.*]] = graph.matmul %[[A]], %[[W2]] : (tensor<2x16x128xf32>, tensor<128x64xf32>) -> tensor<2x16x64xf32>
  // CHECK-NEXT: %[[Y:.*]] = dist.all_reduce %[[P]] over ["tp"] : tensor<2x16x64xf32>
  // CHECK-NEXT: %[[YB:.*]] = graph.add %[[Y]], %[[B2]] : (tensor<2x16x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // CHECK-NEXT: return %[[YB]] : tensor<2x16x64xf32>
  %0 = graph.matmul %x, %w1 {dist.shardings = [#dist.sharding<{}, {}, {tp}>]} : (tensor<2x16x64xf32>, tensor<64x256xf32>) -> tensor<2x16x256xf32>
  %1 = graph.add %0, %b1 {dist.shardings = [#dist.sharding<{}, {}, {tp}>]} : (tensor<2x16x256xf32>, tensor<256xf32>) -> tensor<2x16x256xf32>
  %2 = graph.gelu %1 {dist.shardings = [#dist.sharding<{}, {}, {tp}>]} : tensor<2x16x256xf32>
  %3 = graph.matmul %2, %w2 {dist.shardings = [#dist.sharding<{}, {}, {}>]} : (tensor<2x16x256xf32>, tensor<256x64xf32>) -> tensor<2x16x64xf32>
  %4 = graph.add %3, %b2 {dist.shardings = [#dist.sharding<{}, {}, {}>]} : (tensor<2x16x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return %4 : tensor<2x16x64xf32>
}

// Sequence parallelism: the residual stream is split along the sequence.
// The norm runs on 8 of the 16 tokens, the column matmul all-gathers them,
// the row matmul's partial sums are reduce-scattered back along the
// sequence, and the residual add runs on the local tokens. The input and
// the output are sequence shards.
// CHECK-LABEL: func.func @sequence_parallel
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xf32> {dist.global_type = tensor<2x16x64xf32>, dist.shard_dims = [array<i32>, array<i32: 0>, array<i32>]})
// CHECK-SAME: -> (tensor<2x8x64xf32> {dist.global_type = tensor<2x16x64xf32>, dist.shard_dims = [array<i32>, array<i32: 0>, array<i32>]})
func.func @sequence_parallel(%x: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{}, {tp}, {}>}) -> tensor<2x16x64xf32> {
  // CHECK: %[[G:.*]] = graph.weight "ln.weight" {{.*}} : tensor<64xf32>
  // CHECK: %[[W1:.*]] = graph.weight "fc1.weight" {{.*}} : tensor<64x128xf32>
  // CHECK: %[[W2:.*]] = graph.weight "fc2.weight" {{.*}} : tensor<128x64xf32>
  %g = graph.weight "ln.weight" {dist.shardings = [#dist.sharding<{}>]} : tensor<64xf32>
  %w1 = graph.weight "fc1.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x256xf32>
  %w2 = graph.weight "fc2.weight" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<256x64xf32>
  // CHECK-NEXT: %[[N:.*]] = graph.layer_norm %[[X]], %[[G]] {axis = 2 : i64, epsilon = 1.000000e-05 : f64} : tensor<2x8x64xf32>, tensor<64xf32> -> tensor<2x8x64xf32>
  // CHECK-NEXT: %[[NG:.*]] = dist.all_gather %[[N]] over ["tp"] dim = 1 : tensor<2x8x64xf32> -> tensor<2x16x64xf32>
  // CHECK-NEXT: %[[H:.*]] = graph.matmul %[[NG]], %[[W1]] : (tensor<2x16x64xf32>, tensor<64x128xf32>) -> tensor<2x16x128xf32>
  // CHECK-NEXT: %[[A:.*]] = graph.gelu %[[H]] : tensor<2x16x128xf32>
  // CHECK-NEXT: %[[P:.*]] = graph.matmul %[[A]], %[[W2]] : (tensor<2x16x128xf32>, tensor<128x64xf32>) -> tensor<2x16x64xf32>
  // CHECK-NEXT: %[[RS:.*]] = dist.reduce_scatter %[[P]] over ["tp"] dim = 1 : tensor<2x16x64xf32> -> tensor<2x8x64xf32>
  // CHECK-NEXT: %[[R:.*]] = graph.add %[[X]], %[[RS]] : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  // CHECK-NEXT: %[[N2:.*]] = graph.layer_norm %[[R]], %[[G]] {{.*}} -> tensor<2x8x64xf32>
  // CHECK-NEXT: return %[[N2]] : tensor<2x8x64xf32>
  %0 = graph.layer_norm %x, %g {axis = 2 : i64, epsilon = 1.0e-5 : f64, dist.shardings = [#dist.sharding<{}, {tp}, {}>]} : tensor<2x16x64xf32>, tensor<64xf32> -> tensor<2x16x64xf32>
  %1 = graph.matmul %0, %w1 {dist.shardings = [#dist.sharding<{}, {}, {tp}>]} : (tensor<2x16x64xf32>, tensor<64x256xf32>) -> tensor<2x16x256xf32>
  %2 = graph.gelu %1 {dist.shardings = [#dist.sharding<{}, {}, {tp}>]} : tensor<2x16x256xf32>
  %3 = graph.matmul %2, %w2 {dist.shardings = [#dist.sharding<{}, {tp}, {}>]} : (tensor<2x16x256xf32>, tensor<256x64xf32>) -> tensor<2x16x64xf32>
  %4 = graph.add %x, %3 {dist.shardings = [#dist.sharding<{}, {tp}, {}>]} : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  %5 = graph.layer_norm %4, %g {axis = 2 : i64, epsilon = 1.0e-5 : f64, dist.shardings = [#dist.sharding<{}, {tp}, {}>]} : tensor<2x16x64xf32>, tensor<64xf32> -> tensor<2x16x64xf32>
  return %5 : tensor<2x16x64xf32>
}

// The exporters' row-parallel Gemm on flattened tokens ([B*S, H], with its
// bias), reshaped to [B, S, H] for a sequence-split residual stream: a
// block of the flattened dim cannot be a sequence shard, so the partial
// sums stay partial through the reshape and are reduce-scattered along the
// sequence after it; the bias is added once, after the reduction.
// CHECK-LABEL: func.func @sequence_parallel_flattened_gemm
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xf32> {{.*}}, %[[A:[^:]+]]: tensor<32x128xf32>
func.func @sequence_parallel_flattened_gemm(%x: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{}, {tp}, {}>}, %a: tensor<32x256xf32> {dist.sharding = #dist.sharding<{}, {tp}>}) -> tensor<2x16x64xf32> {
  // CHECK: %[[W:.*]] = graph.weight "proj.weight" {{.*}} : tensor<128x64xf32>
  // CHECK: %[[B:.*]] = graph.weight "proj.bias" {{.*}} : tensor<64xf32>
  // CHECK-NEXT: %[[P:.*]] = graph.gemm %[[A]], %[[W]] {{.*}}beta = 0.000000e+00{{.*}} : (tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  // CHECK-NEXT: %[[PR:.*]] = graph.reshape %[[P]] : tensor<32x64xf32> -> tensor<2x16x64xf32>
  // CHECK-NEXT: %[[RS:.*]] = dist.reduce_scatter %[[PR]] over ["tp"] dim = 1 : tensor<2x16x64xf32> -> tensor<2x8x64xf32>
  // CHECK-NEXT: %[[T:.*]] = graph.add %[[RS]], %[[B]] : (tensor<2x8x64xf32>, tensor<64xf32>) -> tensor<2x8x64xf32>
  // CHECK-NEXT: %[[R:.*]] = graph.add %[[X]], %[[T]] : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  // CHECK-NEXT: return %[[R]]
  // CHECK-NOT: dist.all_reduce
  %w = graph.weight "proj.weight" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<256x64xf32>
  %b = graph.weight "proj.bias" {dist.shardings = [#dist.sharding<{}>]} : tensor<64xf32>
  %0 = graph.gemm %a, %w, %b {dist.shardings = [#dist.sharding<{}, {}>]} : (tensor<32x256xf32>, tensor<256x64xf32>, tensor<64xf32>) -> tensor<32x64xf32>
  %1 = graph.reshape %0 {dist.shardings = [#dist.sharding<{}, {tp}, {}>]} : tensor<32x64xf32> -> tensor<2x16x64xf32>
  %2 = graph.add %x, %1 {dist.shardings = [#dist.sharding<{}, {tp}, {}>]} : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return %2 : tensor<2x16x64xf32>
}

// The weight gradient of a column-parallel linear under sequence
// parallelism, X^T dY with X split along the tokens and dY along the
// weight's columns: X is gathered (Megatron's choice; 8 KiB here), not a
// weight-sized partial reduce-scattered after gathering dY (96 KiB), which
// the greedy order (operands first) alone would choose.
// CHECK-LABEL: func.func @sequence_parallel_weight_gradient
// CHECK-SAME: (%[[X:[^:]+]]: tensor<16x64xf32> {{.*}}, %[[DY:[^:]+]]: tensor<32x128xf32>
// CHECK: %[[XG:.*]] = dist.all_gather %[[X]] over ["tp"] dim = 0 : tensor<16x64xf32> -> tensor<32x64xf32>
// CHECK-NOT: = dist.
// CHECK: %[[DW:.*]] = graph.gemm %[[XG]], %[[DY]] {trans_a = true} : (tensor<32x64xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
// CHECK-NEXT: %[[U:.*]] = graph.sub %{{.*}}, %[[DW]]
// CHECK-NEXT: return %[[U]]
func.func @sequence_parallel_weight_gradient(%x: tensor<32x64xf32> {dist.sharding = #dist.sharding<{tp}, {}>}, %dy: tensor<32x256xf32> {dist.sharding = #dist.sharding<{}, {tp}>}) -> tensor<64x256xf32> {
  %w = graph.weight "fc.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x256xf32>
  %dw = graph.gemm %x, %dy {trans_a = true, dist.shardings = [#dist.sharding<{}, {tp}>]} : (tensor<32x64xf32>, tensor<32x256xf32>) -> tensor<64x256xf32>
  %u = graph.sub %w, %dw {dist.shardings = [#dist.sharding<{}, {tp}>]} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  return %u : tensor<64x256xf32>
}

// The same over an axis that splits no weight (data parallelism's): the
// batch stays split and the gradient is the partial sums reduce-scattered
// (what ZeRO's sharded update wants), the reduction data parallelism
// defers and buckets.
// CHECK-LABEL: func.func @data_parallel_weight_gradient
// CHECK: graph.gemm {{.*}} {trans_a = true} : (tensor<16x64xf32>, tensor<16x256xf32>) -> tensor<64x256xf32>
// CHECK-NEXT: dist.reduce_scatter %{{.*}} over ["tp"] dim = 1 : tensor<64x256xf32> -> tensor<64x128xf32>
func.func @data_parallel_weight_gradient(%x: tensor<32x64xf32> {dist.sharding = #dist.sharding<{tp}, {}>}, %dy: tensor<32x256xf32> {dist.sharding = #dist.sharding<{}, {tp}>}) -> tensor<64x256xf32> {
  %dw = graph.gemm %x, %dy {trans_a = true, dist.shardings = [#dist.sharding<{}, {tp}>]} : (tensor<32x64xf32>, tensor<32x256xf32>) -> tensor<64x256xf32>
  return %dw : tensor<64x256xf32>
}

// A vocabulary-split embedding table (128 rows, 64 per rank): the ids are
// shifted by this rank's first row, out-of-range ids read row 0 and are
// masked to zero, and the partial rows are summed over tp. i32 ids are
// widened first.
// CHECK-LABEL: func.func @vocab_parallel
// CHECK-SAME: (%[[IDS:[^:]+]]: tensor<4x16xi32> {dist.global_type = tensor<4x16xi32>, dist.shard_dims = [array<i32>, array<i32>]})
func.func @vocab_parallel(%ids: tensor<4x16xi32>) -> tensor<4x16x64xf32> {
  // CHECK-NEXT: %[[T:.*]] = graph.weight "wte" {dist.global_type = tensor<128x64xf32>, dist.shard_dims = [array<i32: 0>, array<i32>]} : tensor<64x64xf32>
  %t = graph.weight "wte" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<128x64xf32>
  // CHECK-NEXT: %[[I64:.*]] = graph.cast %[[IDS]] : tensor<4x16xi32> -> tensor<4x16xi64>
  // CHECK-NEXT: %[[RANK:.*]] = dist.axis_index over ["tp"] : tensor<i64>
  // CHECK-NEXT: %[[LOCAL:.*]] = graph.constant dense<64> : tensor<i64>
  // CHECK-NEXT: %[[FIRST:.*]] = graph.mul %[[RANK]], %[[LOCAL]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
  // CHECK-NEXT: %[[SHIFTED:.*]] = graph.sub %[[I64]], %[[FIRST]] : (tensor<4x16xi64>, tensor<i64>) -> tensor<4x16xi64>
  // CHECK-NEXT: %[[ZERO:.*]] = graph.constant dense<0> : tensor<i64>
  // CHECK-NEXT: %[[GE:.*]] = graph.greater_equal %[[SHIFTED]], %[[ZERO]] : (tensor<4x16xi64>, tensor<i64>) -> tensor<4x16xi1>
  // CHECK-NEXT: %[[LOCAL2:.*]] = graph.constant dense<64> : tensor<i64>
  // CHECK-NEXT: %[[LT:.*]] = graph.less %[[SHIFTED]], %[[LOCAL2]] : (tensor<4x16xi64>, tensor<i64>) -> tensor<4x16xi1>
  // CHECK-NEXT: %[[IN:.*]] = graph.and %[[GE]], %[[LT]] : (tensor<4x16xi1>, tensor<4x16xi1>) -> tensor<4x16xi1>
  // CHECK-NEXT: %[[ZERO2:.*]] = graph.constant dense<0> : tensor<i64>
  // CHECK-NEXT: %[[SAFE:.*]] = graph.where %[[IN]], %[[SHIFTED]], %[[ZERO2]] : (tensor<4x16xi1>, tensor<4x16xi64>, tensor<i64>) -> tensor<4x16xi64>
  // CHECK-NEXT: %[[ROWS:.*]] = graph.gather %[[T]], %[[SAFE]] {axis = 0 : i64} : (tensor<64x64xf32>, tensor<4x16xi64>) -> tensor<4x16x64xf32>
  // CHECK-NEXT: %[[MASK:.*]] = graph.reshape %[[IN]] : tensor<4x16xi1> -> tensor<4x16x1xi1>
  // CHECK-NEXT: %[[FZERO:.*]] = graph.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[MASKED:.*]] = graph.where %[[MASK]], %[[ROWS]], %[[FZERO]] : (tensor<4x16x1xi1>, tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16x64xf32>
  // CHECK-NEXT: %[[E:.*]] = dist.all_reduce %[[MASKED]] over ["tp"] : tensor<4x16x64xf32>
  // CHECK-NEXT: return %[[E]] : tensor<4x16x64xf32>
  %0 = graph.gather %t, %ids {axis = 0 : i64} : (tensor<128x64xf32>, tensor<4x16xi32>) -> tensor<4x16x64xf32>
  return %0 : tensor<4x16x64xf32>
}

// The same lookup feeding a sequence-split residual stream: the partial
// rows are reduce-scattered along the sequence instead.
// CHECK-LABEL: func.func @vocab_parallel_sequence_split
// CHECK-SAME: -> (tensor<4x8x64xf32> {dist.global_type = tensor<4x16x64xf32>, dist.shard_dims = [array<i32>, array<i32: 0>, array<i32>]})
func.func @vocab_parallel_sequence_split(%ids: tensor<4x16xi64>) -> tensor<4x16x64xf32> {
  %t = graph.weight "wte" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<128x64xf32>
  // CHECK: dist.axis_index over ["tp"]
  // CHECK: %[[ROWS:.*]] = graph.gather %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<64x64xf32>, tensor<4x16xi64>) -> tensor<4x16x64xf32>
  // CHECK: %[[MASKED:.*]] = graph.where %{{.*}}, %[[ROWS]], %{{.*}} : (tensor<4x16x1xi1>, tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16x64xf32>
  // CHECK-NEXT: %[[E:.*]] = dist.reduce_scatter %[[MASKED]] over ["tp"] dim = 1 : tensor<4x16x64xf32> -> tensor<4x8x64xf32>
  // CHECK-NEXT: return %[[E]] : tensor<4x8x64xf32>
  %0 = graph.gather %t, %ids {axis = 0 : i64, dist.shardings = [#dist.sharding<{}, {tp}, {}>]} : (tensor<128x64xf32>, tensor<4x16xi64>) -> tensor<4x16x64xf32>
  return %0 : tensor<4x16x64xf32>
}

// A row-parallel Gemm: the bias must be added once, so the local Gemm has
// no bias (beta 0), and the bias, scaled by beta, is added after the
// all-reduce. alpha and trans_b stay.
// CHECK-LABEL: func.func @gemm_bias
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x32xf32> {dist.global_type = tensor<8x64xf32>, dist.shard_dims = [array<i32>, array<i32: 0>]})
func.func @gemm_bias(%x: tensor<8x64xf32> {dist.sharding = #dist.sharding<{}, {tp}>}) -> tensor<8x32xf32> {
  // CHECK-NEXT: %[[W:.*]] = graph.weight "w" {dist.global_type = tensor<32x64xf32>, dist.shard_dims = [array<i32>, array<i32: 0>]} : tensor<32x32xf32>
  // CHECK-NEXT: %[[B:.*]] = graph.weight "b" {dist.global_type = tensor<32xf32>, dist.shard_dims = [array<i32>]} : tensor<32xf32>
  %w = graph.weight "w" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<32x64xf32>
  %b = graph.weight "b" {dist.shardings = [#dist.sharding<{}>]} : tensor<32xf32>
  // CHECK-NEXT: %[[P:.*]] = graph.gemm %[[X]], %[[W]] {alpha = 5.000000e-01 : f64, beta = 0.000000e+00 : f64, trans_b = true} : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
  // CHECK-NEXT: %[[S:.*]] = dist.all_reduce %[[P]] over ["tp"] : tensor<8x32xf32>
  // CHECK-NEXT: %[[BETA:.*]] = graph.constant dense<2.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[SB:.*]] = graph.mul %[[B]], %[[BETA]] : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  // CHECK-NEXT: %[[Y:.*]] = graph.add %[[S]], %[[SB]] : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  // CHECK-NEXT: return %[[Y]]
  %0 = graph.gemm %x, %w, %b {trans_b = true, alpha = 0.5 : f64, beta = 2.0 : f64} : (tensor<8x64xf32>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// A column-parallel Gemm keeps its (split) bias: no reduction, nothing
// deferred.
// CHECK-LABEL: func.func @gemm_bias_column
func.func @gemm_bias_column(%x: tensor<8x64xf32>) -> tensor<8x32xf32> {
  // CHECK: %[[W:.*]] = graph.weight "w" {{.*}} : tensor<16x64xf32>
  // CHECK: %[[B:.*]] = graph.weight "b" {{.*}} : tensor<16xf32>
  %w = graph.weight "w" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<32x64xf32>
  %b = graph.weight "b" {dist.shardings = [#dist.sharding<{tp}>]} : tensor<32xf32>
  // CHECK-NEXT: %[[Y:.*]] = graph.gemm %{{.*}}, %[[W]], %[[B]] {trans_b = true} : (tensor<8x64xf32>, tensor<16x64xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK-NEXT: return %[[Y]]
  %0 = graph.gemm %x, %w, %b {trans_b = true, dist.shardings = [#dist.sharding<{}, {tp}>]} : (tensor<8x64xf32>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// A mean over a split dim: each rank's mean of 32 values, halved, summed
// over tp is the mean of 64. A sum needs no scaling.
// CHECK-LABEL: func.func @reduce_mean
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x32xf32> {dist.global_type = tensor<4x64xf32>, dist.shard_dims = [array<i32>, array<i32: 0>]})
func.func @reduce_mean(%x: tensor<4x64xf32> {dist.sharding = #dist.sharding<{}, {tp}>}) -> (tensor<4xf32>, tensor<4x1xf32>, tensor<64xf32>) {
  // CHECK-NEXT: %[[M:.*]] = graph.reduce_mean %[[X]], [1] {keepdims = false} : tensor<4x32xf32> -> tensor<4xf32>
  // CHECK-NEXT: %[[HALF:.*]] = graph.constant dense<5.000000e-01> : tensor<f32>
  // CHECK-NEXT: %[[MS:.*]] = graph.mul %[[M]], %[[HALF]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK-NEXT: %[[MR:.*]] = dist.all_reduce %[[MS]] over ["tp"] : tensor<4xf32>
  %0 = graph.reduce_mean %x, [1] {keepdims = false} : tensor<4x64xf32> -> tensor<4xf32>
  // CHECK-NEXT: %[[S:.*]] = graph.reduce_sum %[[X]], [1] : tensor<4x32xf32> -> tensor<4x1xf32>
  // CHECK-NEXT: %[[SR:.*]] = dist.all_reduce %[[S]] over ["tp"] : tensor<4x1xf32>
  %1 = graph.reduce_sum %x, [1] {keepdims = true} : tensor<4x64xf32> -> tensor<4x1xf32>
  // A mean over a whole dim is local and unscaled; the result keeps the
  // split of the other dim.
  // CHECK-NEXT: %[[L:.*]] = graph.reduce_mean %[[X]], [0] {keepdims = false} : tensor<4x32xf32> -> tensor<32xf32>
  // CHECK-NEXT: return %[[MR]], %[[SR]], %[[L]] : tensor<4xf32>, tensor<4x1xf32>, tensor<32xf32>
  %2 = graph.reduce_mean %x, [0] {keepdims = false, dist.shardings = [#dist.sharding<{tp}>]} : tensor<4x64xf32> -> tensor<64xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4x1xf32>, tensor<64xf32>
}

// A replicated constant meeting a sequence-split value: every rank takes
// its block locally, no communication.
// CHECK-LABEL: func.func @local_shard
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xf32>
func.func @local_shard(%x: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{}, {tp}, {}>}) -> tensor<2x16x64xf32> {
  // CHECK-NEXT: %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<16x64xf32>
  // CHECK-NEXT: %[[CL:.*]] = dist.local_shard %[[C]] to <{tp}, {}> : tensor<16x64xf32> -> tensor<8x64xf32>
  // CHECK-NEXT: %[[Y:.*]] = graph.add %[[X]], %[[CL]] : (tensor<2x8x64xf32>, tensor<8x64xf32>) -> tensor<2x8x64xf32>
  // CHECK-NEXT: return %[[Y]]
  // CHECK-NOT: dist.all_gather
  %c = graph.constant dense<1.0> : tensor<16x64xf32>
  %0 = graph.add %x, %c {dist.shardings = [#dist.sharding<{}, {tp}, {}>]} : (tensor<2x16x64xf32>, tensor<16x64xf32>) -> tensor<2x16x64xf32>
  return %0 : tensor<2x16x64xf32>
}

// Three consumers need the same sequence-split input whole (q, k and v
// projections): one all-gather, right after the value, shared by all.
// CHECK-LABEL: func.func @reshard_reuse
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xf32>
func.func @reshard_reuse(%x: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{}, {tp}, {}>})
    -> (tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>) {
  // CHECK-NEXT: %[[XG:.*]] = dist.all_gather %[[X]] over ["tp"] dim = 1 : tensor<2x8x64xf32> -> tensor<2x16x64xf32>
  // CHECK-NOT: dist.all_gather
  // CHECK: %[[WQ:.*]] = graph.weight "q"
  // CHECK: %[[WK:.*]] = graph.weight "k"
  // CHECK: %[[WV:.*]] = graph.weight "v"
  // CHECK-NEXT: %[[Q:.*]] = graph.matmul %[[XG]], %[[WQ]] : (tensor<2x16x64xf32>, tensor<64x16xf32>) -> tensor<2x16x16xf32>
  // CHECK-NEXT: %[[K:.*]] = graph.matmul %[[XG]], %[[WK]] : (tensor<2x16x64xf32>, tensor<64x16xf32>) -> tensor<2x16x16xf32>
  // CHECK-NEXT: %[[V:.*]] = graph.matmul %[[XG]], %[[WV]] : (tensor<2x16x64xf32>, tensor<64x16xf32>) -> tensor<2x16x16xf32>
  // CHECK-NEXT: return %[[Q]], %[[K]], %[[V]]
  %wq = graph.weight "q" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x32xf32>
  %wk = graph.weight "k" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x32xf32>
  %wv = graph.weight "v" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x32xf32>
  %q = graph.matmul %x, %wq {dist.shardings = [#dist.sharding<{}, {}, {tp}>]} : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
  %k = graph.matmul %x, %wk {dist.shardings = [#dist.sharding<{}, {}, {tp}>]} : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
  %v = graph.matmul %x, %wv {dist.shardings = [#dist.sharding<{}, {}, {tp}>]} : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
  return %q, %k, %v : tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>
}

// Heads: a reshape whose major factor carries the split works on local
// heads; softmax over the whole key dim needs nothing.
// CHECK-LABEL: func.func @heads
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x16x32xf32>
func.func @heads(%x: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{}, {}, {tp}>}) -> tensor<2x4x16x16xf32> {
  // CHECK-NEXT: %[[R:.*]] = graph.reshape %[[X]] : tensor<2x16x32xf32> -> tensor<2x16x2x16xf32>
  // CHECK-NEXT: %[[T:.*]] = graph.transpose %[[R]], [0, 2, 1, 3] : tensor<2x16x2x16xf32> -> tensor<2x2x16x16xf32>
  // CHECK-NEXT: %[[S:.*]] = graph.softmax %[[T]] {axis = 3 : i64} : tensor<2x2x16x16xf32>
  // CHECK-NEXT: return %[[S]] : tensor<2x2x16x16xf32>
  %0 = graph.reshape %x {dist.shardings = [#dist.sharding<{}, {}, {tp}, {}>]} : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %1 = graph.transpose %0, [0, 2, 1, 3] {dist.shardings = [#dist.sharding<{}, {tp}, {}, {}>]} : tensor<2x16x4x16xf32> -> tensor<2x4x16x16xf32>
  %2 = graph.softmax %1 {axis = 3 : i64, dist.shardings = [#dist.sharding<{}, {tp}, {}, {}>]} : tensor<2x4x16x16xf32>
  return %2 : tensor<2x4x16x16xf32>
}

// A split value that an op needs whole along the split dim (softmax's
// axis) is all-gathered first.
// CHECK-LABEL: func.func @gather_for_softmax
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>
func.func @gather_for_softmax(%x: tensor<4x16xf32> {dist.sharding = #dist.sharding<{}, {tp}>}) -> tensor<4x16xf32> {
  // CHECK-NEXT: %[[G:.*]] = dist.all_gather %[[X]] over ["tp"] dim = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
  // CHECK-NEXT: %[[S:.*]] = graph.softmax %[[G]] {axis = 1 : i64} : tensor<4x16xf32>
  // CHECK-NEXT: return %[[S]]
  %0 = graph.softmax %x {axis = 1 : i64} : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

}

// -----

// Data parallelism: a forward pass whose ops never reduce over the batch
// needs no collective at all.
module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
// CHECK-LABEL: func.func @dp_forward
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x16x8xf32> {dist.global_type = tensor<4x16x8xf32>, dist.shard_dims = [array<i32: 0>, array<i32>, array<i32>]})
// CHECK-SAME: -> (tensor<2x16x32xf32> {dist.global_type = tensor<4x16x32xf32>, dist.shard_dims = [array<i32: 0>, array<i32>, array<i32>]})
func.func @dp_forward(%x: tensor<4x16x8xf32> {dist.sharding = #dist.sharding<{dp}, {}, {}>}) -> tensor<4x16x32xf32> {
  // CHECK-NOT: dist.
  // CHECK: %[[W:.*]] = graph.weight "w" {dist.global_type = tensor<8x32xf32>, dist.shard_dims = [array<i32>, array<i32>]} : tensor<8x32xf32>
  // CHECK-NEXT: %[[H:.*]] = graph.matmul %[[X]], %[[W]] : (tensor<2x16x8xf32>, tensor<8x32xf32>) -> tensor<2x16x32xf32>
  // CHECK-NEXT: %[[S:.*]] = graph.softmax %[[H]] {axis = 2 : i64} : tensor<2x16x32xf32>
  // CHECK-NEXT: %[[R:.*]] = graph.reduce_sum %[[S]], [1] : tensor<2x16x32xf32> -> tensor<2x1x32xf32>
  // CHECK-NEXT: %[[Y:.*]] = graph.mul %[[S]], %[[R]] : (tensor<2x16x32xf32>, tensor<2x1x32xf32>) -> tensor<2x16x32xf32>
  // CHECK-NEXT: return %[[Y]]
  // CHECK-NOT: dist.
  %w = graph.weight "w" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<8x32xf32>
  %0 = graph.matmul %x, %w {dist.shardings = [#dist.sharding<{dp}, {}, {}>]} : (tensor<4x16x8xf32>, tensor<8x32xf32>) -> tensor<4x16x32xf32>
  %1 = graph.softmax %0 {axis = 2 : i64, dist.shardings = [#dist.sharding<{dp}, {}, {}>]} : tensor<4x16x32xf32>
  %2 = graph.reduce_sum %1, [1] {keepdims = true, dist.shardings = [#dist.sharding<{dp}, {}, {}>]} : tensor<4x16x32xf32> -> tensor<4x1x32xf32>
  %3 = graph.mul %1, %2 {dist.shardings = [#dist.sharding<{dp}, {}, {}>]} : (tensor<4x16x32xf32>, tensor<4x1x32xf32>) -> tensor<4x16x32xf32>
  return %3 : tensor<4x16x32xf32>
}

// A mean loss over the split batch: each rank sums its losses and counts
// its elements, two all-reduces, one division.
// CHECK-LABEL: func.func @dp_mean_loss
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x16xf32> {dist.global_type = tensor<4x16xf32>, dist.shard_dims = [array<i32: 0>, array<i32>]},
// CHECK-SAME: %[[L:[^:]+]]: tensor<2xi64> {dist.global_type = tensor<4xi64>, dist.shard_dims = [array<i32: 0>]})
// CHECK-SAME: -> (tensor<f32> {dist.global_type = tensor<f32>, dist.shard_dims = []})
func.func @dp_mean_loss(%x: tensor<4x16xf32> {dist.sharding = #dist.sharding<{dp}, {}>},
                        %labels: tensor<4xi64> {dist.sharding = #dist.sharding<{dp}>}) -> tensor<f32> {
  // CHECK-NEXT: %[[W:.*]] = graph.weight "w" {{.*}} : tensor<16x10xf32>
  // CHECK-NEXT: %[[S:.*]] = graph.matmul %[[X]], %[[W]] : (tensor<2x16xf32>, tensor<16x10xf32>) -> tensor<2x10xf32>
  // CHECK-NEXT: %[[SUM:.*]] = graph.softmax_cross_entropy %[[S]], %[[L]] {reduction = "sum"} : (tensor<2x10xf32>, tensor<2xi64>) -> tensor<f32>
  // CHECK-NEXT: %[[ONE:.*]] = graph.constant dense<1.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[ONES:.*]] = graph.expand %[[ONE]] : tensor<f32> -> tensor<2xf32>
  // CHECK-NEXT: %[[COUNT:.*]] = graph.reduce_sum %[[ONES]], [0] {keepdims = false} : tensor<2xf32> -> tensor<f32>
  // CHECK-NEXT: %[[TSUM:.*]] = dist.all_reduce %[[SUM]] over ["dp"] : tensor<f32>
  // CHECK-NEXT: %[[TCOUNT:.*]] = dist.all_reduce %[[COUNT]] over ["dp"] : tensor<f32>
  // CHECK-NEXT: %[[MEAN:.*]] = graph.div %[[TSUM]], %[[TCOUNT]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: return %[[MEAN]] : tensor<f32>
  %w = graph.weight "w" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<16x10xf32>
  %0 = graph.matmul %x, %w {dist.shardings = [#dist.sharding<{dp}, {}>]} : (tensor<4x16xf32>, tensor<16x10xf32>) -> tensor<4x10xf32>
  %1 = graph.softmax_cross_entropy %0, %labels {reduction = "mean"} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return %1 : tensor<f32>
}

// With class weights and an ignore index (-100, PyTorch's default) the
// count is the sum of the weights of the labels that are not ignored.
// CHECK-LABEL: func.func @dp_weighted_mean_loss
// CHECK-SAME: (%[[S:[^:]+]]: tensor<2x10xf32> {{.*}}, %[[L:[^:]+]]: tensor<2xi64>
func.func @dp_weighted_mean_loss(%s: tensor<4x10xf32> {dist.sharding = #dist.sharding<{dp}, {}>},
                                 %l: tensor<4xi64> {dist.sharding = #dist.sharding<{dp}>}) -> tensor<f32> {
  // CHECK-NEXT: %[[CW:.*]] = graph.weight "class_weight" {{.*}} : tensor<10xf32>
  // CHECK-NEXT: %[[SUM:.*]] = graph.nll_loss %[[S]], %[[L]], %[[CW]] {ignore_index = -100 : i64, reduction = "sum"} : (tensor<2x10xf32>, tensor<2xi64>, tensor<10xf32>) -> tensor<f32>
  // CHECK-NEXT: %[[IGN:.*]] = graph.constant dense<-100> : tensor<i64>
  // CHECK-NEXT: %[[EQ:.*]] = graph.equal %[[L]], %[[IGN]] : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
  // CHECK-NEXT: %[[VALID:.*]] = graph.not %[[EQ]] : tensor<2xi1>
  // CHECK-NEXT: %[[Z:.*]] = graph.constant dense<0> : tensor<i64>
  // CHECK-NEXT: %[[SAFE:.*]] = graph.where %[[VALID]], %[[L]], %[[Z]] : (tensor<2xi1>, tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  // CHECK-NEXT: %[[PW:.*]] = graph.gather %[[CW]], %[[SAFE]] {axis = 0 : i64} : (tensor<10xf32>, tensor<2xi64>) -> tensor<2xf32>
  // CHECK-NEXT: %[[FZ:.*]] = graph.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[PWV:.*]] = graph.where %[[VALID]], %[[PW]], %[[FZ]] : (tensor<2xi1>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  // CHECK-NEXT: %[[COUNT:.*]] = graph.reduce_sum %[[PWV]], [0] {keepdims = false} : tensor<2xf32> -> tensor<f32>
  // CHECK-NEXT: %[[TSUM:.*]] = dist.all_reduce %[[SUM]] over ["dp"] : tensor<f32>
  // CHECK-NEXT: %[[TCOUNT:.*]] = dist.all_reduce %[[COUNT]] over ["dp"] : tensor<f32>
  // CHECK-NEXT: %[[MEAN:.*]] = graph.div %[[TSUM]], %[[TCOUNT]]
  // CHECK-NEXT: return %[[MEAN]]
  %w = graph.weight "class_weight" : tensor<10xf32>
  %0 = graph.nll_loss %s, %l, %w {reduction = "mean", ignore_index = -100 : i64} : (tensor<4x10xf32>, tensor<4xi64>, tensor<10xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// A loss that is already a sum needs only the all-reduce.
// CHECK-LABEL: func.func @dp_sum_loss
func.func @dp_sum_loss(%s: tensor<4x10xf32> {dist.sharding = #dist.sharding<{dp}, {}>},
                       %l: tensor<4xi64> {dist.sharding = #dist.sharding<{dp}>}) -> tensor<f32> {
  // CHECK-NEXT: %[[SUM:.*]] = graph.softmax_cross_entropy %{{.*}}, %{{.*}} {reduction = "sum"} : (tensor<2x10xf32>, tensor<2xi64>) -> tensor<f32>
  // CHECK-NEXT: %[[T:.*]] = dist.all_reduce %[[SUM]] over ["dp"] : tensor<f32>
  // CHECK-NEXT: return %[[T]]
  %0 = graph.softmax_cross_entropy %s, %l {reduction = "sum"} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return %0 : tensor<f32>
}
}

// -----

// A two-axis mesh: a reduction over a dim split over both axes is one
// all-reduce over both, scaled by 1/4 for a mean.
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
// CHECK-LABEL: func.func @two_axes
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x16xf32> {dist.global_type = tensor<8x16xf32>, dist.shard_dims = [array<i32: 0, 1>, array<i32>]})
func.func @two_axes(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<{dp, tp}, {}>}) -> tensor<16xf32> {
  // CHECK-NEXT: %[[M:.*]] = graph.reduce_mean %[[X]], [0] {keepdims = false} : tensor<2x16xf32> -> tensor<16xf32>
  // CHECK-NEXT: %[[Q:.*]] = graph.constant dense<2.500000e-01> : tensor<f32>
  // CHECK-NEXT: %[[MS:.*]] = graph.mul %[[M]], %[[Q]]
  // CHECK-NEXT: %[[R:.*]] = dist.all_reduce %[[MS]] over ["dp", "tp"] : tensor<16xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = graph.reduce_mean %x, [0] {keepdims = false} : tensor<8x16xf32> -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
}

// -----

// Annotations are checked before anything is rewritten.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
// expected-error @+1 {{input 0 has sharding #dist.sharding<{dp}, {}> that names mesh axis 'dp', which the mesh does not have}}
func.func @unknown_axis(%x: tensor<4x64xf32> {dist.sharding = #dist.sharding<{dp}, {}>}) -> tensor<4x64xf32> {
  return %x : tensor<4x64xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 4]>} {
// expected-error @+1 {{input 0 has sharding #dist.sharding<{tp}, {}> whose split dims do not divide 'tensor<6x64xf32>'}}
func.func @input_does_not_divide(%x: tensor<6x64xf32> {dist.sharding = #dist.sharding<{tp}, {}>}) -> tensor<6x64xf32> {
  return %x : tensor<6x64xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @wrong_rank(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @+1 {{'graph.weight' op result #0 has sharding #dist.sharding<{tp}> of rank 1 for a value of rank 2}}
  %w = graph.weight "w" {dist.shardings = [#dist.sharding<{tp}>]} : tensor<4x64xf32>
  return %w : tensor<4x64xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @partial_annotation(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @+1 {{'graph.neg' op result #0 has sharding #dist.sharding<{}, {}, partial = [tp]> with partial axes; only the partitioner makes partial sums}}
  %0 = graph.neg %x {dist.shardings = [#dist.sharding<{}, {}, partial = [tp]>]} : tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}
}

// -----

// expected-error @+1 {{requires a 'dist.mesh' attribute}}
module {
func.func @no_mesh(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
}

// -----

// Context parallelism: the queries stay split over cp, the keys and values
// are all-gathered, and each causal attention (and its gradient) gets its
// block's first position, start = (Sk - Sq) + index(cp) * local Sq. The
// gradient's dk and dv are partial sums over cp (the local queries'
// share), reduce-scattered back to the keys' split. A non-causal attention
// needs no start.
module attributes {dist.mesh = #dist.mesh<[cp = 2]>} {
// CHECK-LABEL: func.func @context_parallel
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<1x4x32x16xf32> {{.*}}, %[[K:[^:]+]]: tensor<1x4x32x16xf32> {{.*}}, %[[DY:[^:]+]]: tensor<1x4x32x16xf32> {{.*}})
func.func @context_parallel(
    %q: tensor<1x4x64x16xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>},
    %k: tensor<1x4x64x16xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>},
    %dy: tensor<1x4x64x16xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>})
    -> (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>) {
  // CHECK: %[[KA:.*]] = dist.all_gather %[[K]] over ["cp"] dim = 2 : tensor<1x4x32x16xf32> -> tensor<1x4x64x16xf32>
  // CHECK: %[[I:.*]] = dist.axis_index over ["cp"] : tensor<i64>
  // CHECK: %[[OFF:.*]] = graph.mul %[[I]], %{{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i64>
  // CHECK: %[[S:.*]] = graph.add %{{.*}}, %[[OFF]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
  // CHECK: %[[Y:.*]] = graph.attention %[[Q]], %[[KA]], %[[KA]] start(%[[S]]) {causal = true, scale = 2.500000e-01 : f64} : (tensor<1x4x32x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<i64>) -> tensor<1x4x32x16xf32>
  %y = graph.attention %q, %k, %k {causal = true, scale = 0.25 : f64, dist.shardings = [#dist.sharding<{}, {}, {cp}, {}>]}
      : (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32>
  // CHECK: %[[E:.*]] = graph.attention %[[Q]], %[[KA]], %[[KA]] {scale = 2.500000e-01 : f64} : (tensor<1x4x32x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>) -> tensor<1x4x32x16xf32>
  %e = graph.attention %q, %k, %k {scale = 0.25 : f64, dist.shardings = [#dist.sharding<{}, {}, {cp}, {}>]}
      : (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32>
  // CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = graph.attention_grad %[[DY]], %[[Q]], %[[KA]], %[[KA]] start(%{{.*}}) {causal = true
  // CHECK: dist.reduce_scatter %[[DK]] over ["cp"] dim = 2 : tensor<1x4x64x16xf32> -> tensor<1x4x32x16xf32>
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %k, %k {causal = true, scale = 0.25 : f64,
      dist.shardings = [#dist.sharding<{}, {}, {cp}, {}>, #dist.sharding<{}, {}, {cp}, {}>, #dist.sharding<{}, {}, {cp}, {}>]}
      : (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>)
      -> (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>)
  return %y, %e, %dq, %dk : tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>
}
}

// -----

// The zig-zag layout (dist.zigzag_axis): the 8 positions are 4 chunks of 2,
// held in the order 0, 3, 1, 2, so rank 0 holds chunks 0 and 3 and rank 1
// chunks 1 and 2. Inputs stay whole and are reordered before local_shard;
// each causal attention runs once per chunk, started at its chunk's
// position (rank i: 2i and 6 - 2i); results are gathered and reordered
// back; dk is summed over the chunks and reordered before its
// reduce-scatter.
module attributes {dist.mesh = #dist.mesh<[cp = 2]>, dist.zigzag_axis = "cp"} {
// CHECK-LABEL: func.func @zigzag
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<1x2x8x4xf32> {dist.global_type = tensor<1x2x8x4xf32>, dist.shard_dims = [array<i32>, array<i32>, array<i32>, array<i32>]}, %[[K:[^:]+]]: tensor<1x2x8x4xf32>
func.func @zigzag(
    %q: tensor<1x2x8x4xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>},
    %k: tensor<1x2x8x4xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>},
    %dy: tensor<1x2x8x4xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>})
    -> (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) {
  // CHECK: %[[C0:.*]] = graph.slice %[[Q]], starts = [0, 0, 0, 0], limits = [1, 2, 2, 4]
  // CHECK: %[[C3:.*]] = graph.slice %[[Q]], starts = [0, 0, 6, 0], limits = [1, 2, 8, 4]
  // CHECK: %[[C1:.*]] = graph.slice %[[Q]], starts = [0, 0, 2, 0], limits = [1, 2, 4, 4]
  // CHECK: %[[C2:.*]] = graph.slice %[[Q]], starts = [0, 0, 4, 0], limits = [1, 2, 6, 4]
  // CHECK: %[[ZQ:.*]] = graph.concat %[[C0]], %[[C3]], %[[C1]], %[[C2]] {axis = 2 : i64}
  // CHECK: %[[LQ:.*]] = dist.local_shard %[[ZQ]] to <{}, {}, {cp}, {}> : tensor<1x2x8x4xf32> -> tensor<1x2x4x4xf32>
  // CHECK: %[[I:.*]] = dist.axis_index over ["cp"]
  // CHECK: %[[FIRST:.*]] = graph.slice %[[LQ]], starts = [0, 0, 0, 0], limits = [1, 2, 2, 4]
  // CHECK: %[[Y0:.*]] = graph.attention %[[FIRST]], %[[K]], %[[K]] start(%{{.*}}) {causal = true
  // CHECK: %[[SECOND:.*]] = graph.slice %[[LQ]], starts = [0, 0, 2, 0], limits = [1, 2, 4, 4]
  // CHECK: %[[Y1:.*]] = graph.attention %[[SECOND]], %[[K]], %[[K]] start(%{{.*}}) {causal = true
  // CHECK: %[[Y:.*]] = graph.concat %[[Y0]], %[[Y1]] {axis = 2 : i64} : (tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) -> tensor<1x2x4x4xf32>
  // CHECK: %[[G:.*]] = dist.all_gather %[[Y]] over ["cp"] dim = 2
  // CHECK: graph.concat {{.*}} -> tensor<1x2x8x4xf32>
  // CHECK: %[[DQ0:.*]], %[[DK0:.*]], %[[DV0:.*]] = graph.attention_grad {{.*}}, %[[K]], %[[K]] start(
  // CHECK: %[[DQ1:.*]], %[[DK1:.*]], %[[DV1:.*]] = graph.attention_grad {{.*}}, %[[K]], %[[K]] start(
  // CHECK: %[[DK:.*]] = graph.add %[[DK0]], %[[DK1]]
  // CHECK: graph.slice %[[DK]], starts = [0, 0, 0, 0]
  // CHECK: graph.slice %[[DK]], starts = [0, 0, 6, 0]
  // CHECK: dist.reduce_scatter %{{.*}} over ["cp"] dim = 2 : tensor<1x2x8x4xf32> -> tensor<1x2x4x4xf32>
  %y = graph.attention %q, %k, %k {causal = true, scale = 0.5 : f64, dist.shardings = [#dist.sharding<{}, {}, {cp}, {}>]}
      : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %k, %k {causal = true, scale = 0.5 : f64,
      dist.shardings = [#dist.sharding<{}, {}, {cp}, {}>, #dist.sharding<{}, {}, {cp}, {}>, #dist.sharding<{}, {}, {cp}, {}>]}
      : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>)
      -> (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>)
  return %y, %dk : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
}
}

// -----

// Ring attention (dist.ring_axis): K and V stay split; the block each rank
// holds is attended to with its relative start (rank 0 sees rank 1's block
// at -4: nothing; rank 1 sees rank 0's at +4: all of it), the next block is
// on its way meanwhile, and the two are merged by log-sum-exp. The
// backward rebuilds each block's probabilities from the merged statistics
// (key_block), passes dK along with its block and home again.
module attributes {dist.mesh = #dist.mesh<[cp = 2]>, dist.ring_axis = "cp"} {
// CHECK-LABEL: func.func @ring
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<1x2x4x4xf32> {{.*}}, %[[K:[^:]+]]: tensor<1x2x4x4xf32> {{.*}}, %[[DY:[^:]+]]: tensor<1x2x4x4xf32>
func.func @ring(
    %q: tensor<1x2x8x4xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>},
    %k: tensor<1x2x8x4xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>},
    %dy: tensor<1x2x8x4xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>})
    -> (tensor<1x2x8x4xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>},
        tensor<1x2x8x4xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>}) {
  // CHECK: %[[K1:.*]] = dist.ring_shift %[[K]] over ["cp"] by = 1 : tensor<1x2x4x4xf32>
  // CHECK: %[[Y0:.*]], %[[S0:.*]] = graph.attention_with_stats %[[Q]], %[[K]], %[[K]] start(%{{.*}}) {causal = true
  // CHECK: graph.constant dense<[-4, 4]> : tensor<2xi64>
  // CHECK: %[[Y1:.*]], %[[S1:.*]] = graph.attention_with_stats %[[Q]], %[[K1]], %{{.*}} start(%{{.*}}) {causal = true
  // CHECK: %[[Y:.*]], %[[S:.*]] = graph.attention_merge %[[Y0]], %[[S0]], %[[Y1]], %[[S1]] : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>
  // CHECK: %[[DQ0:.*]], %[[DK0:.*]], %{{.*}} = graph.attention_grad %[[DY]], %[[Q]], %[[K]], %[[K]] start(%{{.*}}) saved(%[[Y]], %[[S]]) {causal = true, key_block = true
  // CHECK: %[[DQ1:.*]], %[[DK1:.*]], %{{.*}} = graph.attention_grad %[[DY]], %[[Q]], %{{.*}}, %{{.*}} start(%{{.*}}) saved(%[[Y]], %[[S]]) {causal = true, key_block = true
  // CHECK: graph.add %[[DQ0]], %[[DQ1]]
  // CHECK: %[[DKS:.*]] = dist.ring_shift %[[DK0]] over ["cp"] by = 1
  // CHECK: %[[DK:.*]] = graph.add %[[DKS]], %[[DK1]]
  // CHECK: %[[HOME:.*]] = dist.ring_shift %[[DK]] over ["cp"] by = 1
  // CHECK: return %[[Y]], %[[HOME]]
  // CHECK-NOT: dist.all_gather
  %y = graph.attention %q, %k, %k {causal = true, scale = 0.5 : f64, dist.shardings = [#dist.sharding<{}, {}, {cp}, {}>]}
      : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
  %dq, %dk, %dv = graph.attention_grad %dy, %q, %k, %k {causal = true, scale = 0.5 : f64,
      dist.shardings = [#dist.sharding<{}, {}, {cp}, {}>, #dist.sharding<{}, {}, {cp}, {}>, #dist.sharding<{}, {}, {cp}, {}>]}
      : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>)
      -> (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>)
  return %y, %dk : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
}
}

// -----

// Ring attention needs as many queries as keys.
module attributes {dist.mesh = #dist.mesh<[cp = 2]>, dist.ring_axis = "cp"} {
func.func @ring_queries_keys(
    %q: tensor<1x2x4x4xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>},
    %k: tensor<1x2x8x4xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>})
    -> tensor<1x2x4x4xf32> {
  // expected-error @+1 {{'graph.attention' op runs as ring attention (mesh axis 'cp'), which needs as many queries as keys and no start; use --cp-attention allgather}}
  %y = graph.attention %q, %k, %k {causal = true, scale = 0.5 : f64, dist.shardings = [#dist.sharding<{}, {}, {cp}, {}>]}
      : (tensor<1x2x4x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
}

// -----

// An axis moving between dims (context parallelism's all-to-all attention:
// the sequence split becomes a heads split and back) is one all-to-all, not
// a gather and a slice.
module attributes {dist.mesh = #dist.mesh<[cp = 2]>} {
// CHECK-LABEL: func.func @move_axis
// CHECK-SAME: (%[[X:[^:]+]]: tensor<1x4x32x16xf32>
func.func @move_axis(%x: tensor<1x4x64x16xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>})
    -> (tensor<1x4x64x16xf32> {dist.sharding = #dist.sharding<{}, {}, {cp}, {}>}) {
  // CHECK: %[[N:.*]] = graph.neg %[[X]] : tensor<1x4x32x16xf32>
  // CHECK: %[[H:.*]] = dist.all_to_all %[[N]] over ["cp"] split_dim = 1 concat_dim = 2 : tensor<1x4x32x16xf32> -> tensor<1x2x64x16xf32>
  // CHECK: %[[Y:.*]] = graph.attention %[[H]], %[[H]], %[[H]] {causal = true, scale = 2.500000e-01 : f64} : (tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32>
  // CHECK: %[[N2:.*]] = graph.neg %[[Y]] : tensor<1x2x64x16xf32>
  // CHECK: %[[B:.*]] = dist.all_to_all %[[N2]] over ["cp"] split_dim = 2 concat_dim = 1 : tensor<1x2x64x16xf32> -> tensor<1x4x32x16xf32>
  // CHECK: return %[[B]]
  // CHECK-NOT: dist.all_gather
  %h = graph.neg %x {dist.shardings = [#dist.sharding<{}, {cp}, {}, {}>]} : tensor<1x4x64x16xf32>
  %y = graph.attention %h, %h, %h {causal = true, scale = 0.25 : f64, dist.shardings = [#dist.sharding<{}, {cp}, {}, {}>]}
      : (tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32>
  %z = graph.neg %y {dist.shardings = [#dist.sharding<{}, {}, {cp}, {}>]} : tensor<1x4x64x16xf32>
  return %z : tensor<1x4x64x16xf32>
}
}

// RUN: paracc-opt %s -split-input-file --paracc-tensor-parallel | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-tensor-parallel="axis=mp" | FileCheck %s --check-prefix=MP

// --paracc-tensor-parallel: the role of every weight matmul (column, row,
// replicated, with the reason) and the annotations of the weights, their
// biases and the embedding tables. The MP run splits over an axis named
// `mp`: only the last module has one.

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {

// CHECK-LABEL: func.func @mlp
// MP-LABEL: func.func @mlp
// Under axis=mp no module but the last has the axis: nothing is annotated
// until then.
// MP-NOT: dist.{{shardings|tp_}}
func.func @mlp(%x: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  // CHECK: %[[W1:.*]] = graph.weight "fc1.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x256xf32>
  // CHECK: %[[B1:.*]] = graph.weight "fc1.bias" {dist.shardings = [#dist.sharding<{tp}>]} : tensor<256xf32>
  // CHECK: %[[W2:.*]] = graph.weight "fc2.weight" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<256x64xf32>
  // CHECK: %[[B2:.*]] = graph.weight "fc2.bias" {dist.shardings = [#dist.sharding<{}>]} : tensor<64xf32>
  %w1 = graph.weight "fc1.weight" : tensor<64x256xf32>
  %b1 = graph.weight "fc1.bias" : tensor<256xf32>
  %w2 = graph.weight "fc2.weight" : tensor<256x64xf32>
  %b2 = graph.weight "fc2.bias" : tensor<64xf32>
  // CHECK: %[[H:.*]] = graph.matmul %{{.*}}, %[[W1]] {dist.tp_reason = "its input is whole (after a norm or an embedding): output features split, no communication", dist.tp_role = #dist.tp_role<column>}
  %0 = graph.matmul %x, %w1 : (tensor<2x16x64xf32>, tensor<64x256xf32>) -> tensor<2x16x256xf32>
  // The bias add, the activation and the row matmul's bias add get no role.
  // CHECK: %[[HB:.*]] = graph.add %[[H]], %[[B1]] : (
  %1 = graph.add %0, %b1 : (tensor<2x16x256xf32>, tensor<256xf32>) -> tensor<2x16x256xf32>
  // CHECK: %[[A:.*]] = graph.gelu %[[HB]] : tensor<2x16x256xf32>
  %2 = graph.gelu %1 : tensor<2x16x256xf32>
  // CHECK: %[[Y:.*]] = graph.matmul %[[A]], %[[W2]] {dist.tp_reason = "its input comes from a column-parallel matmul: input features split, partial sums all-reduced", dist.tp_role = #dist.tp_role<row>}
  %3 = graph.matmul %2, %w2 : (tensor<2x16x256xf32>, tensor<256x64xf32>) -> tensor<2x16x64xf32>
  // CHECK: %[[YB:.*]] = graph.add %[[Y]], %[[B2]] : (
  %4 = graph.add %3, %b2 : (tensor<2x16x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // CHECK: return %[[YB]]
  return %4 : tensor<2x16x64xf32>
}

// A norm between two matmuls makes the second column-parallel again; a
// matmul after a row-parallel output is column-parallel too.
// CHECK-LABEL: func.func @norm_resets
func.func @norm_resets(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // CHECK: %[[W1:.*]] = graph.weight "a.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]}
  // CHECK: %[[W2:.*]] = graph.weight "b.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]}
  // CHECK: %[[W3:.*]] = graph.weight "c.weight" {dist.shardings = [#dist.sharding<{tp}, {}>]}
  // CHECK: %[[W4:.*]] = graph.weight "d.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]}
  // CHECK: %[[G:.*]] = graph.weight "norm.weight" {dist.shardings = [#dist.sharding<{}>]}
  %w1 = graph.weight "a.weight" : tensor<64x64xf32>
  %w2 = graph.weight "b.weight" : tensor<64x64xf32>
  %w3 = graph.weight "c.weight" : tensor<64x64xf32>
  %w4 = graph.weight "d.weight" : tensor<64x64xf32>
  %g = graph.weight "norm.weight" : tensor<64xf32>
  // CHECK: graph.matmul %{{.*}}, %[[W1]] {{{.*}}dist.tp_role = #dist.tp_role<column>}
  %0 = graph.matmul %x, %w1 : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  %1 = graph.rms_norm %0, %g {axis = 1 : i64, epsilon = 1.0e-6 : f64} : tensor<8x64xf32>, tensor<64xf32> -> tensor<8x64xf32>
  // CHECK: graph.matmul %{{.*}}, %[[W2]] {{{.*}}dist.tp_role = #dist.tp_role<column>}
  %2 = graph.matmul %1, %w2 : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  // CHECK: graph.matmul %{{.*}}, %[[W3]] {{{.*}}dist.tp_role = #dist.tp_role<row>}
  %3 = graph.matmul %2, %w3 : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  // CHECK: graph.matmul %{{.*}}, %[[W4]] {{{.*}}dist.tp_role = #dist.tp_role<column>}
  %4 = graph.matmul %3, %w4 : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  return %4 : tensor<8x64xf32>
}

// Attention: the q/k/v projections split their heads (4 heads over 2),
// the attention itself has no weights, the output projection is
// row-parallel.
// CHECK-LABEL: func.func @attention
func.func @attention(%x: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  // CHECK: %[[WQ:.*]] = graph.weight "q.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x64xf32>
  // CHECK: %[[WK:.*]] = graph.weight "k.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x64xf32>
  // CHECK: %[[WV:.*]] = graph.weight "v.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x64xf32>
  // CHECK: %[[WO:.*]] = graph.weight "o.weight" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<64x64xf32>
  %scale = graph.constant dense<4.0> : tensor<f32>
  %wq = graph.weight "q.weight" : tensor<64x64xf32>
  %wk = graph.weight "k.weight" : tensor<64x64xf32>
  %wv = graph.weight "v.weight" : tensor<64x64xf32>
  %wo = graph.weight "o.weight" : tensor<64x64xf32>
  // CHECK: graph.matmul %{{.*}}, %[[WQ]] {{{.*}}dist.tp_role = #dist.tp_role<column>}
  // CHECK: graph.matmul %{{.*}}, %[[WK]] {{{.*}}dist.tp_role = #dist.tp_role<column>}
  // CHECK: graph.matmul %{{.*}}, %[[WV]] {{{.*}}dist.tp_role = #dist.tp_role<column>}
  %q0 = graph.matmul %x, %wq : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  %k0 = graph.matmul %x, %wk : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  %v0 = graph.matmul %x, %wv : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  %q1 = graph.reshape %q0 : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %k1 = graph.reshape %k0 : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %v1 = graph.reshape %v0 : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %q = graph.transpose %q1, [0, 2, 1, 3] : tensor<2x16x4x16xf32> -> tensor<2x4x16x16xf32>
  %k = graph.transpose %k1, [0, 2, 3, 1] : tensor<2x16x4x16xf32> -> tensor<2x4x16x16xf32>
  %v = graph.transpose %v1, [0, 2, 1, 3] : tensor<2x16x4x16xf32> -> tensor<2x4x16x16xf32>
  // The activation matmuls have no weight: no role.
  // CHECK: %[[S:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>)
  %s0 = graph.matmul %q, %k : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %s1 = graph.div %s0, %scale : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
  %p = graph.softmax %s1 {axis = 3 : i64} : tensor<2x4x16x16xf32>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>)
  %o0 = graph.matmul %p, %v : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %o1 = graph.transpose %o0, [0, 2, 1, 3] : tensor<2x4x16x16xf32> -> tensor<2x16x4x16xf32>
  %o2 = graph.reshape %o1 : tensor<2x16x4x16xf32> -> tensor<2x16x64xf32>
  // CHECK: graph.matmul %{{.*}}, %[[WO]] {{{.*}}dist.tp_role = #dist.tp_role<row>}
  %y = graph.matmul %o2, %wo : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return %y : tensor<2x16x64xf32>
}

// GPT-2's fused c_attn: matmul + bias + split into q, k, v. Each piece
// becomes its own projection reading its block of the weight and of the
// bias (`offsets` into the `source_shape`), each column-parallel; the
// split and the fused matmul are gone.
// CHECK-LABEL: func.func @fused_qkv
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x16x64xf32>)
func.func @fused_qkv(%x: tensor<2x16x64xf32>)
    -> (tensor<2x16x4x16xf32>, tensor<2x16x4x16xf32>, tensor<2x16x4x16xf32>) {
  %w = graph.weight "c_attn.weight" : tensor<64x192xf32>
  %b = graph.weight "c_attn.bias" : tensor<192xf32>
  // CHECK-NOT: graph.split
  // CHECK: %[[WQ:.*]] = graph.weight "c_attn.weight" {dist.shardings = [#dist.sharding<{}, {tp}>], offsets = array<i64: 0, 0>, source_shape = array<i64: 64, 192>} : tensor<64x64xf32>
  // CHECK-NEXT: %[[Q:.*]] = graph.matmul %[[X]], %[[WQ]] {{{.*}}dist.tp_role = #dist.tp_role<column>} : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  // CHECK-NEXT: %[[BQ:.*]] = graph.weight "c_attn.bias" {dist.shardings = [#dist.sharding<{tp}>], offsets = array<i64: 0>, source_shape = array<i64: 192>} : tensor<64xf32>
  // CHECK-NEXT: %[[QB:.*]] = graph.add %[[Q]], %[[BQ]] : (tensor<2x16x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // CHECK-NEXT: %[[WK:.*]] = graph.weight "c_attn.weight" {dist.shardings = [#dist.sharding<{}, {tp}>], offsets = array<i64: 0, 64>, source_shape = array<i64: 64, 192>} : tensor<64x64xf32>
  // CHECK-NEXT: %[[K:.*]] = graph.matmul %[[X]], %[[WK]] {{{.*}}dist.tp_role = #dist.tp_role<column>}
  // CHECK-NEXT: %[[BK:.*]] = graph.weight "c_attn.bias" {dist.shardings = [#dist.sharding<{tp}>], offsets = array<i64: 64>, source_shape = array<i64: 192>} : tensor<64xf32>
  // CHECK-NEXT: %[[KB:.*]] = graph.add %[[K]], %[[BK]]
  // CHECK-NEXT: %[[WV:.*]] = graph.weight "c_attn.weight" {dist.shardings = [#dist.sharding<{}, {tp}>], offsets = array<i64: 0, 128>, source_shape = array<i64: 64, 192>} : tensor<64x64xf32>
  // CHECK-NEXT: %[[V:.*]] = graph.matmul %[[X]], %[[WV]] {{{.*}}dist.tp_role = #dist.tp_role<column>}
  // CHECK-NEXT: %[[BV:.*]] = graph.weight "c_attn.bias" {dist.shardings = [#dist.sharding<{tp}>], offsets = array<i64: 128>, source_shape = array<i64: 192>} : tensor<64xf32>
  // CHECK-NEXT: %[[VB:.*]] = graph.add %[[V]], %[[BV]]
  // CHECK-NOT: graph.split
  // CHECK-NOT: tensor<2x16x192xf32>
  %0 = graph.matmul %x, %w : (tensor<2x16x64xf32>, tensor<64x192xf32>) -> tensor<2x16x192xf32>
  %1 = graph.add %0, %b : (tensor<2x16x192xf32>, tensor<192xf32>) -> tensor<2x16x192xf32>
  %2:3 = graph.split %1 {axis = 2 : i64} : tensor<2x16x192xf32> -> tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>
  // CHECK: %[[RQ:.*]] = graph.reshape %[[QB]] : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  // CHECK: %[[RK:.*]] = graph.reshape %[[KB]]
  // CHECK: %[[RV:.*]] = graph.reshape %[[VB]]
  %q = graph.reshape %2#0 : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %k = graph.reshape %2#1 : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %v = graph.reshape %2#2 : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  // CHECK: return %[[RQ]], %[[RK]], %[[RV]]
  return %q, %k, %v : tensor<2x16x4x16xf32>, tensor<2x16x4x16xf32>, tensor<2x16x4x16xf32>
}

// A fused Gemm with a transposed weight ([N, K]) and pieces of different
// sizes: the blocks are taken along the weight's dim 0, the Gemm's bias is
// sliced with it, and the Gemm's attributes are kept.
// CHECK-LABEL: func.func @fused_gemm
// CHECK-SAME: (%[[X:[^:]+]]: tensor<32x64xf32>)
func.func @fused_gemm(%x: tensor<32x64xf32>)
    -> (tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x16xf32>) {
  %w = graph.weight "qkv.weight" : tensor<96x64xf32>
  %b = graph.weight "qkv.bias" : tensor<96xf32>
  // CHECK: %[[W0:.*]] = graph.weight "qkv.weight" {dist.shardings = [#dist.sharding<{tp}, {}>], offsets = array<i64: 0, 0>, source_shape = array<i64: 96, 64>} : tensor<64x64xf32>
  // CHECK-NEXT: %[[B0:.*]] = graph.weight "qkv.bias" {dist.shardings = [#dist.sharding<{tp}>], offsets = array<i64: 0>, source_shape = array<i64: 96>} : tensor<64xf32>
  // CHECK-NEXT: %[[G0:.*]] = graph.gemm %[[X]], %[[W0]], %[[B0]] {alpha = 5.000000e-01 : f64, dist.tp_reason = "{{[^"]*}}", dist.tp_role = #dist.tp_role<column>, trans_b = true} : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<32x64xf32>
  // CHECK-NEXT: %[[W1:.*]] = graph.weight "qkv.weight" {dist.shardings = [#dist.sharding<{tp}, {}>], offsets = array<i64: 64, 0>, source_shape = array<i64: 96, 64>} : tensor<16x64xf32>
  // CHECK-NEXT: %[[B1:.*]] = graph.weight "qkv.bias" {dist.shardings = [#dist.sharding<{tp}>], offsets = array<i64: 64>, source_shape = array<i64: 96>} : tensor<16xf32>
  // CHECK-NEXT: %[[G1:.*]] = graph.gemm %[[X]], %[[W1]], %[[B1]] {{{.*}}dist.tp_role = #dist.tp_role<column>{{.*}}} : (tensor<32x64xf32>, tensor<16x64xf32>, tensor<16xf32>) -> tensor<32x16xf32>
  // CHECK-NEXT: %[[W2:.*]] = graph.weight "qkv.weight" {dist.shardings = [#dist.sharding<{tp}, {}>], offsets = array<i64: 80, 0>, source_shape = array<i64: 96, 64>} : tensor<16x64xf32>
  // CHECK-NEXT: %[[B2:.*]] = graph.weight "qkv.bias" {dist.shardings = [#dist.sharding<{tp}>], offsets = array<i64: 80>, source_shape = array<i64: 96>} : tensor<16xf32>
  // CHECK-NEXT: %[[G2:.*]] = graph.gemm %[[X]], %[[W2]], %[[B2]]
  // CHECK-NOT: graph.split
  %0 = graph.gemm %x, %w, %b {trans_b = true, alpha = 0.5 : f64} : (tensor<32x64xf32>, tensor<96x64xf32>, tensor<96xf32>) -> tensor<32x96xf32>
  %1:3 = graph.split %0 {axis = 1 : i64} : tensor<32x96xf32> -> tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x16xf32>
  // CHECK: return %[[G0]], %[[G1]], %[[G2]]
  return %1#0, %1#1, %1#2 : tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x16xf32>
}

// A fused projection whose output has another user besides the split is
// left alone (and is column-parallel as a whole).
// CHECK-LABEL: func.func @fused_other_use
func.func @fused_other_use(%x: tensor<8x64xf32>)
    -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x128xf32>) {
  // CHECK: %[[W:.*]] = graph.weight "kv.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x128xf32>
  // CHECK-NOT: offsets
  // CHECK: %[[P:.*]] = graph.matmul %{{.*}}, %[[W]] {{{.*}}dist.tp_role = #dist.tp_role<column>}
  // CHECK: graph.split %[[P]] {axis = 1 : i64}
  %w = graph.weight "kv.weight" : tensor<64x128xf32>
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x128xf32>) -> tensor<8x128xf32>
  %1:2 = graph.split %0 {axis = 1 : i64} : tensor<8x128xf32> -> tensor<8x64xf32>, tensor<8x64xf32>
  return %1#0, %1#1, %0 : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x128xf32>
}

// Embeddings and a tied LM head. The token table is indexed by the input:
// split along the vocabulary, the lookup vocab-parallel. The position table
// is indexed by constant positions: whole. The LM head multiplies by the
// transposed token table: column-parallel over the vocabulary, which is the
// table's dim 0, so the table keeps `{tp}, {}` and its lookup stays
// vocab-parallel.
// CHECK-LABEL: func.func @tied_embeddings
// CHECK-SAME: (%[[IDS:[^:]+]]: tensor<4x16xi64>)
func.func @tied_embeddings(%ids: tensor<4x16xi64>) -> tensor<4x16x128xf32> {
  // CHECK: %[[POS:.*]] = graph.constant
  // CHECK: %[[WTE:.*]] = graph.weight "wte" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<128x64xf32>
  // CHECK: %[[WPE:.*]] = graph.weight "wpe" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<32x64xf32>
  // CHECK: %[[G:.*]] = graph.weight "ln_f.weight" {dist.shardings = [#dist.sharding<{}>]} : tensor<64xf32>
  %pos = graph.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>
  %wte = graph.weight "wte" : tensor<128x64xf32>
  %wpe = graph.weight "wpe" : tensor<32x64xf32>
  %g = graph.weight "ln_f.weight" : tensor<64xf32>
  // CHECK: graph.gather %[[WTE]], %[[IDS]] {axis = 0 : i64, dist.tp_reason = "embedding table split along the vocabulary: masked local lookup, partial sums all-reduced", dist.tp_role = #dist.tp_role<vocab_parallel>}
  %0 = graph.gather %wte, %ids {axis = 0 : i64} : (tensor<128x64xf32>, tensor<4x16xi64>) -> tensor<4x16x64xf32>
  // CHECK: graph.gather %[[WPE]], %[[POS]] {axis = 0 : i64} : (
  %1 = graph.gather %wpe, %pos {axis = 0 : i64} : (tensor<32x64xf32>, tensor<1x16xi64>) -> tensor<1x16x64xf32>
  %2 = graph.add %0, %1 : (tensor<4x16x64xf32>, tensor<1x16x64xf32>) -> tensor<4x16x64xf32>
  %3 = graph.layer_norm %2, %g {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<4x16x64xf32>, tensor<64xf32> -> tensor<4x16x64xf32>
  // CHECK: %[[T:.*]] = graph.transpose %[[WTE]], [1, 0] : tensor<128x64xf32> -> tensor<64x128xf32>
  // CHECK: graph.matmul %{{.*}}, %[[T]] {dist.tp_reason = "its input is whole (after a norm or an embedding): output features split, no communication", dist.tp_role = #dist.tp_role<column>}
  %4 = graph.transpose %wte, [1, 0] : tensor<128x64xf32> -> tensor<64x128xf32>
  %5 = graph.matmul %3, %4 : (tensor<4x16x64xf32>, tensor<64x128xf32>) -> tensor<4x16x128xf32>
  return %5 : tensor<4x16x128xf32>
}

// An untied table indexed by (a cast of) the input, with i32 ids.
// CHECK-LABEL: func.func @token_embedding
func.func @token_embedding(%ids: tensor<4x16xi32>) -> tensor<4x16x64xf32> {
  // CHECK: %[[T:.*]] = graph.weight "embed_tokens" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<128x64xf32>
  // CHECK: graph.gather %[[T]], %{{.*}} {axis = 0 : i64, dist.tp_reason = "{{[^"]*}}", dist.tp_role = #dist.tp_role<vocab_parallel>}
  %t = graph.weight "embed_tokens" : tensor<128x64xf32>
  %0 = graph.gather %t, %ids {axis = 0 : i64} : (tensor<128x64xf32>, tensor<4x16xi32>) -> tensor<4x16x64xf32>
  return %0 : tensor<4x16x64xf32>
}

// A vocabulary that does not divide, a gather along another axis: whole.
// CHECK-LABEL: func.func @embedding_stays_whole
func.func @embedding_stays_whole(%ids: tensor<4xi64>) -> (tensor<4x64xf32>, tensor<8x4xf32>) {
  // CHECK: %[[T:.*]] = graph.weight "odd_vocab" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<127x64xf32>
  // CHECK: %[[U:.*]] = graph.weight "columns" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<8x64xf32>
  // CHECK-NOT: dist.tp_role
  %t = graph.weight "odd_vocab" : tensor<127x64xf32>
  %u = graph.weight "columns" : tensor<8x64xf32>
  %0 = graph.gather %t, %ids {axis = 0 : i64} : (tensor<127x64xf32>, tensor<4xi64>) -> tensor<4x64xf32>
  %1 = graph.gather %u, %ids {axis = 1 : i64} : (tensor<8x64xf32>, tensor<4xi64>) -> tensor<8x4xf32>
  return %0, %1 : tensor<4x64xf32>, tensor<8x4xf32>
}

}

// -----

// Grouped-query attention over tp = 4: 8 query heads split, the 2 KV heads
// cannot be split 4 ways, so the K/V projections are replicated (with the
// reason); the output projection is still row-parallel through the query
// path. A projection whose output dim does not divide is replicated too.
module attributes {dist.mesh = #dist.mesh<[tp = 4]>} {
// CHECK-LABEL: func.func @gqa
func.func @gqa(%x: tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x6xf32>) {
  // CHECK: %[[WQ:.*]] = graph.weight "q_proj.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x64xf32>
  // CHECK: %[[WK:.*]] = graph.weight "k_proj.weight" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<64x16xf32>
  // CHECK: %[[WV:.*]] = graph.weight "v_proj.weight" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<64x16xf32>
  // CHECK: %[[WO:.*]] = graph.weight "o_proj.weight" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<64x64xf32>
  // CHECK: %[[WS:.*]] = graph.weight "small.weight" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<64x6xf32>
  %wq = graph.weight "q_proj.weight" : tensor<64x64xf32>
  %wk = graph.weight "k_proj.weight" : tensor<64x16xf32>
  %wv = graph.weight "v_proj.weight" : tensor<64x16xf32>
  %wo = graph.weight "o_proj.weight" : tensor<64x64xf32>
  %ws = graph.weight "small.weight" : tensor<64x6xf32>
  // CHECK: graph.matmul %{{.*}}, %[[WQ]] {{{.*}}dist.tp_role = #dist.tp_role<column>}
  // CHECK: graph.matmul %{{.*}}, %[[WK]] {dist.tp_reason = "2 heads do not divide over 'tp' (4): the projection is replicated", dist.tp_role = #dist.tp_role<replicated>}
  // CHECK: graph.matmul %{{.*}}, %[[WV]] {dist.tp_reason = "2 heads do not divide over 'tp' (4): the projection is replicated", dist.tp_role = #dist.tp_role<replicated>}
  %q0 = graph.matmul %x, %wq : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  %k0 = graph.matmul %x, %wk : (tensor<2x16x64xf32>, tensor<64x16xf32>) -> tensor<2x16x16xf32>
  %v0 = graph.matmul %x, %wv : (tensor<2x16x64xf32>, tensor<64x16xf32>) -> tensor<2x16x16xf32>
  %q1 = graph.reshape %q0 : tensor<2x16x64xf32> -> tensor<2x16x8x8xf32>
  %k1 = graph.reshape %k0 : tensor<2x16x16xf32> -> tensor<2x16x2x8xf32>
  %v1 = graph.reshape %v0 : tensor<2x16x16xf32> -> tensor<2x16x2x8xf32>
  %q = graph.transpose %q1, [0, 2, 1, 3] : tensor<2x16x8x8xf32> -> tensor<2x8x16x8xf32>
  %k2 = graph.transpose %k1, [0, 2, 3, 1] : tensor<2x16x2x8xf32> -> tensor<2x2x8x16xf32>
  %v2 = graph.transpose %v1, [0, 2, 1, 3] : tensor<2x16x2x8xf32> -> tensor<2x2x16x8xf32>
  %k3 = graph.reshape %k2 : tensor<2x2x8x16xf32> -> tensor<2x2x1x8x16xf32>
  %k4 = graph.expand %k3 : tensor<2x2x1x8x16xf32> -> tensor<2x2x4x8x16xf32>
  %k = graph.reshape %k4 : tensor<2x2x4x8x16xf32> -> tensor<2x8x8x16xf32>
  %v3 = graph.reshape %v2 : tensor<2x2x16x8xf32> -> tensor<2x2x1x16x8xf32>
  %v4 = graph.expand %v3 : tensor<2x2x1x16x8xf32> -> tensor<2x2x4x16x8xf32>
  %v = graph.reshape %v4 : tensor<2x2x4x16x8xf32> -> tensor<2x8x16x8xf32>
  %s = graph.matmul %q, %k : (tensor<2x8x16x8xf32>, tensor<2x8x8x16xf32>) -> tensor<2x8x16x16xf32>
  %p = graph.softmax %s {axis = 3 : i64} : tensor<2x8x16x16xf32>
  %o0 = graph.matmul %p, %v : (tensor<2x8x16x16xf32>, tensor<2x8x16x8xf32>) -> tensor<2x8x16x8xf32>
  %o1 = graph.transpose %o0, [0, 2, 1, 3] : tensor<2x8x16x8xf32> -> tensor<2x16x8x8xf32>
  %o2 = graph.reshape %o1 : tensor<2x16x8x8xf32> -> tensor<2x16x64xf32>
  // CHECK: graph.matmul %{{.*}}, %[[WO]] {{{.*}}dist.tp_role = #dist.tp_role<row>}
  %y = graph.matmul %o2, %wo : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  // CHECK: graph.matmul %{{.*}}, %[[WS]] {dist.tp_reason = "output dim 6 does not divide over 'tp' (4)", dist.tp_role = #dist.tp_role<replicated>}
  %z = graph.matmul %x, %ws : (tensor<2x16x64xf32>, tensor<64x6xf32>) -> tensor<2x16x6xf32>
  return %y, %z : tensor<2x16x64xf32>, tensor<2x16x6xf32>
}

// A matmul fed by a column-parallel output whose input features do not
// divide (the split output was concatenated with a whole one) stays whole.
// CHECK-LABEL: func.func @row_does_not_divide
func.func @row_does_not_divide(%x: tensor<8x64xf32>, %e: tensor<8x2xf32>) -> tensor<8x16xf32> {
  // CHECK: %[[W1:.*]] = graph.weight "up.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x8xf32>
  // CHECK: %[[W2:.*]] = graph.weight "down.weight" {dist.shardings = [#dist.sharding<{}, {}>]} : tensor<10x16xf32>
  %w1 = graph.weight "up.weight" : tensor<64x8xf32>
  %w2 = graph.weight "down.weight" : tensor<10x16xf32>
  %0 = graph.matmul %x, %w1 : (tensor<8x64xf32>, tensor<64x8xf32>) -> tensor<8x8xf32>
  %1 = graph.concat %0, %e {axis = 1 : i64} : (tensor<8x8xf32>, tensor<8x2xf32>) -> tensor<8x10xf32>
  // CHECK: graph.matmul %{{.*}}, %[[W2]] {dist.tp_reason = "input dim 10 does not divide over 'tp'", dist.tp_role = #dist.tp_role<replicated>}
  %2 = graph.matmul %1, %w2 : (tensor<8x10xf32>, tensor<10x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
}

// -----

// No tensor-parallel axis, or one of size 1: nothing changes.
module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
// CHECK-LABEL: func.func @no_tp_axis
func.func @no_tp_axis(%x: tensor<8x64xf32>, %ids: tensor<8xi64>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  // CHECK-NOT: dist.
  %w = graph.weight "w" : tensor<64x64xf32>
  %t = graph.weight "t" : tensor<128x64xf32>
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  %1 = graph.gather %t, %ids {axis = 0 : i64} : (tensor<128x64xf32>, tensor<8xi64>) -> tensor<8x64xf32>
  // CHECK: return
  return %0, %1 : tensor<8x64xf32>, tensor<8x64xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 1]>} {
// CHECK-LABEL: func.func @tp_of_size_1
func.func @tp_of_size_1(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // CHECK-NOT: dist.
  %w = graph.weight "w" : tensor<64x64xf32>
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  // CHECK: return
  return %0 : tensor<8x64xf32>
}
}

// -----

// Convolutions pair like projections: the first (input whole) splits its
// output channels (kernel dim 0, and its bias), the next, whose input comes
// from it through a ReLU, its input channels (kernel dim 1; the bias whole);
// a grouped convolution and one whose output channels do not divide stay
// whole.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
// CHECK-LABEL: func.func @convolutions
func.func @convolutions(%x: tensor<2x4x8x8xf32>) -> tensor<2x3x8x8xf32> {
  // CHECK: %[[K1:.*]] = graph.weight "k1" {dist.shardings = [#dist.sharding<{tp}, {}, {}, {}>]}
  // CHECK: %[[B1:.*]] = graph.weight "b1" {dist.shardings = [#dist.sharding<{tp}>]}
  // CHECK: %[[K2:.*]] = graph.weight "k2" {dist.shardings = [#dist.sharding<{}, {tp}, {}, {}>]}
  // CHECK: %[[B2:.*]] = graph.weight "b2" {dist.shardings = [#dist.sharding<{}>]}
  // CHECK: %[[K3:.*]] = graph.weight "k3" {dist.shardings = [#dist.sharding<{}, {}, {}, {}>]}
  // CHECK: %[[K4:.*]] = graph.weight "k4" {dist.shardings = [#dist.sharding<{}, {}, {}, {}>]}
  %k1 = graph.weight "k1" : tensor<8x4x3x3xf32>
  %b1 = graph.weight "b1" : tensor<8xf32>
  %k2 = graph.weight "k2" : tensor<8x8x3x3xf32>
  %b2 = graph.weight "b2" : tensor<8xf32>
  %k3 = graph.weight "k3" : tensor<8x1x3x3xf32>
  %k4 = graph.weight "k4" : tensor<3x8x1x1xf32>
  // CHECK: graph.conv %arg0, %[[K1]], %[[B1]] {{.*}}dist.tp_reason = "a convolution whose input is whole: output channels split, no communication", dist.tp_role = #dist.tp_role<column>
  %0 = graph.conv %x, %k1, %b1 {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<2x8x8x8xf32>
  %1 = graph.relu %0 : tensor<2x8x8x8xf32>
  // CHECK: graph.conv %{{.*}}, %[[K2]], %[[B2]] {{.*}}dist.tp_reason = "a convolution whose input comes from a column-parallel one: input channels split, partial sums all-reduced", dist.tp_role = #dist.tp_role<row>
  %2 = graph.conv %1, %k2, %b2 {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x8x8x8xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>) -> tensor<2x8x8x8xf32>
  // CHECK: graph.conv %{{.*}}, %[[K3]] {{.*}}dist.tp_reason = "a convolution: grouped (8 groups): its channels are not split over 'tp', so every rank computes it whole", dist.tp_role = #dist.tp_role<replicated>
  %3 = graph.conv %2, %k3 {dilations = array<i64: 1, 1>, group = 8 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x8x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<2x8x8x8xf32>
  // CHECK: graph.conv %{{.*}}, %[[K4]] {{.*}}dist.tp_reason = "a convolution: output channels 3 do not divide over 'tp', so every rank computes it whole", dist.tp_role = #dist.tp_role<replicated>
  %4 = graph.conv %3, %k4 {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x8x8x8xf32>, tensor<3x8x1x1xf32>) -> tensor<2x3x8x8xf32>
  return %4 : tensor<2x3x8x8xf32>
}
}

// -----

// The axis option: under axis=mp this mesh is split, under the default
// (tp) it is not.
module attributes {dist.mesh = #dist.mesh<[mp = 2]>} {
// CHECK-LABEL: func.func @axis_option
// MP-LABEL: func.func @axis_option
func.func @axis_option(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // CHECK-NOT: dist.
  // MP: %[[W1:.*]] = graph.weight "w1" {dist.shardings = [#dist.sharding<{}, {mp}>]}
  // MP: %[[W2:.*]] = graph.weight "w2" {dist.shardings = [#dist.sharding<{mp}, {}>]}
  %w1 = graph.weight "w1" : tensor<64x64xf32>
  %w2 = graph.weight "w2" : tensor<64x64xf32>
  // MP: graph.matmul %{{.*}}, %[[W1]] {dist.tp_reason = "its input is whole (after a norm or an embedding): output features split, no communication", dist.tp_role = #dist.tp_role<column>}
  %0 = graph.matmul %x, %w1 : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  %1 = graph.relu %0 : tensor<8x64xf32>
  // MP: graph.matmul %{{.*}}, %[[W2]] {dist.tp_reason = "its input comes from a column-parallel matmul: input features split, partial sums all-reduced", dist.tp_role = #dist.tp_role<row>}
  %2 = graph.matmul %1, %w2 : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  return %2 : tensor<8x64xf32>
}
}

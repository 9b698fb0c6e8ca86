// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-propagate-sharding | FileCheck %s

// --paracc-propagate-sharding on small graphs whose shardings follow by
// hand from the ops' factor rules. Afterwards every value has a closed
// sharding (replicated where nothing reached it).

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {

// Column then row (what tensor parallelism annotates): the intermediate is
// split along its features F, the output is whole (its partial sums are
// the partitioner's business), the input stays whole.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{}, {}, {}>})
func.func @mlp(%x: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  // Weights keep their annotations.
  // CHECK: %[[W1:.*]] = graph.weight "fc1.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]}
  // CHECK: %[[B1:.*]] = graph.weight "fc1.bias" {dist.shardings = [#dist.sharding<{tp}>]}
  // CHECK: %[[W2:.*]] = graph.weight "fc2.weight" {dist.shardings = [#dist.sharding<{tp}, {}>]}
  // CHECK: %[[B2:.*]] = graph.weight "fc2.bias" {dist.shardings = [#dist.sharding<{}>]}
  %w1 = graph.weight "fc1.weight" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x256xf32>
  %b1 = graph.weight "fc1.bias" {dist.shardings = [#dist.sharding<{tp}>]} : tensor<256xf32>
  %w2 = graph.weight "fc2.weight" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<256x64xf32>
  %b2 = graph.weight "fc2.bias" {dist.shardings = [#dist.sharding<{}>]} : tensor<64xf32>
  // CHECK: %[[H:.*]] = graph.matmul %[[X]], %[[W1]] {dist.shardings = [#dist.sharding<{}, {}, {tp}>]}
  %0 = graph.matmul %x, %w1 : (tensor<2x16x64xf32>, tensor<64x256xf32>) -> tensor<2x16x256xf32>
  // CHECK: %[[HB:.*]] = graph.add %[[H]], %[[B1]] {dist.shardings = [#dist.sharding<{}, {}, {tp}>]}
  %1 = graph.add %0, %b1 : (tensor<2x16x256xf32>, tensor<256xf32>) -> tensor<2x16x256xf32>
  // CHECK: %[[A:.*]] = graph.gelu %[[HB]] {dist.shardings = [#dist.sharding<{}, {}, {tp}>]}
  %2 = graph.gelu %1 : tensor<2x16x256xf32>
  // CHECK: %[[Y:.*]] = graph.matmul %[[A]], %[[W2]] {dist.shardings = [#dist.sharding<{}, {}, {}>]}
  %3 = graph.matmul %2, %w2 : (tensor<2x16x256xf32>, tensor<256x64xf32>) -> tensor<2x16x64xf32>
  // CHECK: %[[YB:.*]] = graph.add %[[Y]], %[[B2]] {dist.shardings = [#dist.sharding<{}, {}, {}>]}
  %4 = graph.add %3, %b2 : (tensor<2x16x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return %4 : tensor<2x16x64xf32>
}

// Splitting features into heads: 64 = 4 heads x 16, and tp goes to the
// major factor (the heads), then follows the transpose. Merging heads back
// brings it to the features.
// CHECK-LABEL: func.func @heads
func.func @heads(%x: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{}, {}, {tp}>})
    -> tensor<2x16x64xf32> {
  // CHECK: graph.reshape %{{.*}} {dist.shardings = [#dist.sharding<{}, {}, {tp}, {}>]} : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %0 = graph.reshape %x : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  // CHECK: graph.transpose %{{.*}}, [0, 2, 1, 3] {dist.shardings = [#dist.sharding<{}, {tp}, {}, {}>]}
  %1 = graph.transpose %0, [0, 2, 1, 3] : tensor<2x16x4x16xf32> -> tensor<2x4x16x16xf32>
  // CHECK: graph.softmax %{{.*}} {axis = 3 : i64, dist.shardings = [#dist.sharding<{}, {tp}, {}, {}>]}
  %2 = graph.softmax %1 {axis = 3 : i64} : tensor<2x4x16x16xf32>
  // CHECK: graph.transpose %{{.*}}, [0, 2, 1, 3] {dist.shardings = [#dist.sharding<{}, {}, {tp}, {}>]}
  %3 = graph.transpose %2, [0, 2, 1, 3] : tensor<2x4x16x16xf32> -> tensor<2x16x4x16xf32>
  // CHECK: graph.reshape %{{.*}} {dist.shardings = [#dist.sharding<{}, {}, {tp}>]} : tensor<2x16x4x16xf32> -> tensor<2x16x64xf32>
  %4 = graph.reshape %3 : tensor<2x16x4x16xf32> -> tensor<2x16x64xf32>
  return %4 : tensor<2x16x64xf32>
}

// Flattening [8, 6] split on its minor dim would interleave the blocks of
// the 48 elements (a strided layout): the result stays whole.
// CHECK-LABEL: func.func @strided_flatten
func.func @strided_flatten(%x: tensor<8x6xf32> {dist.sharding = #dist.sharding<{}, {tp}>}) -> tensor<48xf32> {
  // CHECK: graph.reshape %{{.*}} {dist.shardings = [#dist.sharding<{}>]} : tensor<8x6xf32> -> tensor<48xf32>
  %0 = graph.reshape %x : tensor<8x6xf32> -> tensor<48xf32>
  return %0 : tensor<48xf32>
}

// Split on its major dim, the same flattening is contiguous.
// CHECK-LABEL: func.func @contiguous_flatten
func.func @contiguous_flatten(%x: tensor<8x6xf32> {dist.sharding = #dist.sharding<{tp}, {}>}) -> tensor<48xf32> {
  // CHECK: graph.reshape %{{.*}} {dist.shardings = [#dist.sharding<{tp}>]} : tensor<8x6xf32> -> tensor<48xf32>
  %0 = graph.reshape %x : tensor<8x6xf32> -> tensor<48xf32>
  return %0 : tensor<48xf32>
}

// Numpy broadcasting: the split last dim reaches the broadcast operands
// (backwards, through each op's shared factor); their size-1 dims have no
// factor and stay whole.
// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%x: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{}, {}, {tp}>},
                     %b0: tensor<1x64xf32>, %c0: tensor<64xf32>, %d0: tensor<2x1x1xf32>)
    -> tensor<2x16x64xf32> {
  // CHECK: %[[B:.*]] = graph.neg %{{.*}} {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<1x64xf32>
  // CHECK: %[[C:.*]] = graph.neg %{{.*}} {dist.shardings = [#dist.sharding<{tp}>]} : tensor<64xf32>
  // CHECK: %[[D:.*]] = graph.neg %{{.*}} {dist.shardings = [#dist.sharding<{}, {}, {}>]} : tensor<2x1x1xf32>
  %b = graph.neg %b0 : tensor<1x64xf32>
  %c = graph.neg %c0 : tensor<64xf32>
  %d = graph.neg %d0 : tensor<2x1x1xf32>
  // CHECK: %[[S0:.*]] = graph.add %{{.*}}, %[[B]] {dist.shardings = [#dist.sharding<{}, {}, {tp}>]}
  %0 = graph.add %x, %b : (tensor<2x16x64xf32>, tensor<1x64xf32>) -> tensor<2x16x64xf32>
  // CHECK: %[[S1:.*]] = graph.mul %[[C]], %[[S0]] {dist.shardings = [#dist.sharding<{}, {}, {tp}>]}
  %1 = graph.mul %c, %0 : (tensor<64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  // CHECK: graph.sub %[[S1]], %[[D]] {dist.shardings = [#dist.sharding<{}, {}, {tp}>]}
  %2 = graph.sub %1, %d : (tensor<2x16x64xf32>, tensor<2x1x1xf32>) -> tensor<2x16x64xf32>
  return %2 : tensor<2x16x64xf32>
}

// Softmax's axis is never split: a split there does not go through, a
// split elsewhere does.
// CHECK-LABEL: func.func @softmax_axis
func.func @softmax_axis(%x: tensor<2x4x16x16xf32> {dist.sharding = #dist.sharding<{}, {}, {}, {tp}>},
                        %y: tensor<2x4x16x16xf32> {dist.sharding = #dist.sharding<{}, {tp}, {}, {}>})
    -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) {
  // CHECK: graph.softmax %{{.*}} {axis = 3 : i64, dist.shardings = [#dist.sharding<{}, {}, {}, {}>]}
  %0 = graph.softmax %x {axis = 3 : i64} : tensor<2x4x16x16xf32>
  // CHECK: graph.softmax %{{.*}} {axis = 3 : i64, dist.shardings = [#dist.sharding<{}, {tp}, {}, {}>]}
  %1 = graph.softmax %y {axis = 3 : i64} : tensor<2x4x16x16xf32>
  // Dims after the axis are free.
  // CHECK: graph.log_softmax %{{.*}} {axis = 2 : i64, dist.shardings = [#dist.sharding<{}, {}, {}, {tp}>]}
  %2 = graph.log_softmax %x {axis = 2 : i64} : tensor<2x4x16x16xf32>
  return %0, %1, %2 : tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>
}

// Conflicting sources of equal priority (closed annotations): a weight wins
// whatever its operand position; between activations the first operand
// wins. tp then cannot split another dim of the same op.
// CHECK-LABEL: func.func @ties
func.func @ties(%x: tensor<64x64xf32> {dist.sharding = #dist.sharding<{tp}, {}>},
                %y: tensor<64x64xf32> {dist.sharding = #dist.sharding<{}, {tp}>})
    -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %w = graph.weight "w" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<64x64xf32>
  // CHECK: graph.add %{{.*}}, %{{.*}} {dist.shardings = [#dist.sharding<{}, {tp}>]}
  %0 = graph.add %x, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  // CHECK: graph.add %{{.*}}, %{{.*}} {dist.shardings = [#dist.sharding<{tp}, {}>]}
  %1 = graph.add %x, %y : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  // CHECK: graph.add %{{.*}}, %{{.*}} {dist.shardings = [#dist.sharding<{}, {tp}>]}
  %2 = graph.add %y, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  // The weight's N beats the activation's M.
  // CHECK: graph.matmul %{{.*}}, %{{.*}} {dist.shardings = [#dist.sharding<{}, {tp}>]}
  %3 = graph.matmul %x, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0, %1, %2, %3 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// Between propagated shardings the nearer source wins: %q is one op from
// its annotation, %p two.
// CHECK-LABEL: func.func @distance
func.func @distance(%x: tensor<64x64xf32> {dist.sharding = #dist.sharding<{tp}, {}>},
                    %y: tensor<64x64xf32> {dist.sharding = #dist.sharding<{}, {tp}>}) -> tensor<64x64xf32> {
  // CHECK: %[[P0:.*]] = graph.neg %{{.*}} {dist.shardings = [#dist.sharding<{tp}, {}>]}
  // CHECK: %[[P:.*]] = graph.neg %[[P0]] {dist.shardings = [#dist.sharding<{tp}, {}>]}
  // CHECK: %[[Q:.*]] = graph.neg %{{.*}} {dist.shardings = [#dist.sharding<{}, {tp}>]}
  // CHECK: graph.add %[[P]], %[[Q]] {dist.shardings = [#dist.sharding<{}, {tp}>]}
  %p0 = graph.neg %x : tensor<64x64xf32>
  %p = graph.neg %p0 : tensor<64x64xf32>
  %q = graph.neg %y : tensor<64x64xf32>
  %r = graph.add %p, %q : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// Matmul's contraction: K split on both operands stays consistent, and the
// result (whose dims have no K) is whole.
// CHECK-LABEL: func.func @contraction
func.func @contraction(%x: tensor<8x64xf32> {dist.sharding = #dist.sharding<{}, {tp}>}) -> tensor<8x16xf32> {
  // CHECK: %[[W:.*]] = graph.weight "w" {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<64x16xf32>
  %w = graph.weight "w" : tensor<64x16xf32>
  // CHECK: graph.matmul %{{.*}}, %[[W]] {dist.shardings = [#dist.sharding<{}, {}>]}
  %0 = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

}

// -----

// Priorities: a closed dim is never overwritten, an open one is filled.
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
// CHECK-LABEL: func.func @closed_and_open
func.func @closed_and_open(%x: tensor<8x8xf32> {dist.sharding = #dist.sharding<{dp}, {tp}>})
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  // CHECK: %[[A:.*]] = graph.neg %{{.*}} {dist.shardings = [#dist.sharding<{dp}, {}>]}
  %0 = graph.neg %x {dist.shardings = [#dist.sharding<{?}, {}>]} : tensor<8x8xf32>
  // CHECK: %[[B:.*]] = graph.neg %{{.*}} {dist.shardings = [#dist.sharding<{}, {tp}>]}
  %1 = graph.neg %x {dist.shardings = [#dist.sharding<{}, {?}>]} : tensor<8x8xf32>
  // A closed dim beats a propagated one even from the second operand: %1's
  // closed `{}` on dim 0 (priority 0) wins over %2's propagated `{dp}`
  // (priority 1); dim 1 agrees.
  // CHECK: %[[P:.*]] = graph.neg %{{.*}} {dist.shardings = [#dist.sharding<{dp}, {tp}>]}
  // CHECK: %[[C:.*]] = graph.add %[[P]], %[[B]] {dist.shardings = [#dist.sharding<{}, {tp}>]}
  %p = graph.neg %x : tensor<8x8xf32>
  %2 = graph.add %p, %1 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  // A dim split over two axes, major to minor.
  // CHECK: %[[D:.*]] = graph.neg %{{.*}} {dist.shardings = [#dist.sharding<{dp, tp}, {}>]}
  %3 = graph.neg %x {dist.shardings = [#dist.sharding<{dp, tp}, {}>]} : tensor<8x8xf32>
  return %0, %1, %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
}

// -----

// A head dim of 2 cannot take an axis of size 4 (the layout would be
// strided): the heads stay whole.
module attributes {dist.mesh = #dist.mesh<[tp = 4]>} {
// CHECK-LABEL: func.func @heads_do_not_divide
func.func @heads_do_not_divide(%x: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{}, {}, {tp}>})
    -> tensor<2x16x2x32xf32> {
  // CHECK: graph.reshape %{{.*}} {dist.shardings = [#dist.sharding<{}, {}, {}, {}>]} : tensor<2x16x64xf32> -> tensor<2x16x2x32xf32>
  %0 = graph.reshape %x : tensor<2x16x64xf32> -> tensor<2x16x2x32xf32>
  return %0 : tensor<2x16x2x32xf32>
}
}

// -----

// Annotations are checked against the mesh and their values.
module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
// expected-error @+1 {{input 0 has sharding #dist.sharding<{sp}, {}> that names mesh axis 'sp', which the mesh does not have}}
func.func @unknown_axis(%x: tensor<4x64xf32> {dist.sharding = #dist.sharding<{sp}, {}>}) -> tensor<4x64xf32> {
  return %x : tensor<4x64xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {
func.func @wrong_rank(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error @+1 {{'graph.neg' op result #0 has sharding #dist.sharding<{tp}> of rank 1 for a value of rank 2}}
  %0 = graph.neg %x {dist.shardings = [#dist.sharding<{tp}>]} : tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}
}

// -----

module attributes {dist.mesh = #dist.mesh<[tp = 4]>} {
func.func @does_not_divide(%x: tensor<6x64xf32>) -> tensor<6x64xf32> {
  // expected-error @+1 {{'graph.neg' op result #0 has sharding #dist.sharding<{tp}, {}> whose split dims do not divide 'tensor<6x64xf32>'}}
  %0 = graph.neg %x {dist.shardings = [#dist.sharding<{tp}, {}>]} : tensor<6x64xf32>
  return %0 : tensor<6x64xf32>
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

// Grouped-query attention (4 query heads over 2 key heads, as
// paracc-attention-kv-groups writes it after partitioning) keeps its head
// dims whole: a rank's block of query heads would need its own block of key
// heads, which one factor for both cannot say. The batch stays parallel.
module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 2]>} {
// CHECK-LABEL: func.func @grouped_query_heads_whole
// CHECK: graph.attention {{.*}}dist.shardings = [#dist.sharding<{dp}, {}, {}, {}>]
func.func @grouped_query_heads_whole(
    %q: tensor<2x16x4x8xf32> {dist.sharding = #dist.sharding<{dp}, {}, {tp}, {}>},
    %k: tensor<2x16x2x8xf32> {dist.sharding = #dist.sharding<{dp}, {}, {tp}, {}>})
    -> tensor<2x16x4x8xf32> {
  %y = graph.attention %q, %k, %k {causal = true, scale = 0.35355339059327373 : f64, sequence_first = true}
      : (tensor<2x16x4x8xf32>, tensor<2x16x2x8xf32>, tensor<2x16x2x8xf32>) -> tensor<2x16x4x8xf32>
  return %y : tensor<2x16x4x8xf32>
}
}

// RUN: paracc-opt %s -split-input-file --paracc-fuse-elementwise | FileCheck %s

// BatchNorm's normalization and the ReLU after it: four ops over the
// activation become one fused op; the centered value, which the backward
// keeps, is a second result; rank-0 constants become immediates.
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8x8x8xf32>, %[[M:[^:]+]]: tensor<1x8x1x1xf32>, %[[S:[^:]+]]: tensor<1x8x1x1xf32>, %[[B:[^:]+]]: tensor<8x1x1xf32>)
// CHECK-NEXT: %[[F:.*]]:2 = graph.fused_elementwise %[[X]], %[[M]], %[[S]], %[[B]] : (tensor<4x8x8x8xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<8x1x1xf32>) -> (tensor<4x8x8x8xf32>, tensor<4x8x8x8xf32>) {
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<f32>, %[[A1:.*]]: tensor<f32>, %[[A2:.*]]: tensor<f32>, %[[A3:.*]]: tensor<f32>):
// CHECK-NEXT:   %[[C:.*]] = graph.sub %[[A0]], %[[A1]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %[[P:.*]] = graph.mul %[[C]], %[[A2]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %[[Q:.*]] = graph.add %[[P]], %[[A3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   %[[ZERO:.*]] = graph.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:   %[[R:.*]] = graph.max %[[Q]], %[[ZERO]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:   graph.yield %[[C]], %[[R]] : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]#1, %[[F]]#0
func.func @batch_norm(%x: tensor<4x8x8x8xf32>, %m: tensor<1x8x1x1xf32>, %s: tensor<1x8x1x1xf32>, %b: tensor<8x1x1xf32>) -> (tensor<4x8x8x8xf32>, tensor<4x8x8x8xf32>) {
  %zero = graph.constant dense<0.0> : tensor<f32>
  %0 = graph.sub %x, %m : (tensor<4x8x8x8xf32>, tensor<1x8x1x1xf32>) -> tensor<4x8x8x8xf32>
  %1 = graph.mul %0, %s : (tensor<4x8x8x8xf32>, tensor<1x8x1x1xf32>) -> tensor<4x8x8x8xf32>
  %2 = graph.add %1, %b : (tensor<4x8x8x8xf32>, tensor<8x1x1xf32>) -> tensor<4x8x8x8xf32>
  %3 = graph.max %2, %zero : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<4x8x8x8xf32>
  return %3, %0 : tensor<4x8x8x8xf32>, tensor<4x8x8x8xf32>
}

// -----

// A value used outside the chain before the chain's last op ends the group
// there (the fused op takes its last op's place): the sum feeds a reduction
// whose result the product reads, so the sum and the product cannot fuse,
// while the square after the product joins it.
// CHECK-LABEL: func.func @use_in_between
// CHECK: %[[SQ:.*]] = graph.fused_elementwise %arg0, %arg1
// CHECK:   graph.add
// CHECK:   graph.mul
// CHECK: graph.reduce_sum %[[SQ]]
// CHECK: graph.fused_elementwise %arg0, %{{.*}} :
// CHECK:   graph.mul
// CHECK:   graph.exp
// CHECK-NOT: graph.fused_elementwise
func.func @use_in_between(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.mul %0, %0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.reduce_sum %1, [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %3 = graph.mul %x, %2 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %4 = graph.exp %3 : tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}

// -----

// The ReLU's gradient: the comparison, the select and the expand of a
// per-channel gradient are one op; the expand is its operand broadcast.
// CHECK-LABEL: func.func @relu_gradient
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x16x2x2xbf16>, %[[G:[^:]+]]: tensor<4x16x1x1xbf16>)
// CHECK-NEXT: %[[F:.*]] = graph.fused_elementwise %[[G]], %[[X]] : (tensor<4x16x1x1xbf16>, tensor<4x16x2x2xbf16>) -> tensor<4x16x2x2xbf16> {
// CHECK-NEXT: ^bb0(%[[B:.*]]: tensor<bf16>, %[[A:.*]]: tensor<bf16>):
// CHECK-NEXT:   %[[Z:.*]] = graph.constant dense<0.000000e+00> : tensor<bf16>
// CHECK-NEXT:   %[[C:.*]] = graph.greater %[[A]], %[[Z]] : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
// CHECK-NEXT:   %[[W:.*]] = graph.where %[[C]], %[[B]], %[[Z]] : (tensor<i1>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
// CHECK-NEXT:   graph.yield %[[W]] : tensor<bf16>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @relu_gradient(%x: tensor<4x16x2x2xbf16>, %g: tensor<4x16x1x1xbf16>) -> tensor<4x16x2x2xbf16> {
  %zero = graph.constant dense<0.0> : tensor<bf16>
  %e = graph.expand %g : tensor<4x16x1x1xbf16> -> tensor<4x16x2x2xbf16>
  %c = graph.greater %x, %zero : (tensor<4x16x2x2xbf16>, tensor<bf16>) -> tensor<4x16x2x2xi1>
  %w = graph.where %c, %e, %zero : (tensor<4x16x2x2xi1>, tensor<4x16x2x2xbf16>, tensor<bf16>) -> tensor<4x16x2x2xbf16>
  return %w : tensor<4x16x2x2xbf16>
}

// -----

// Ops of other shapes, other element types, or alone stay: a per-channel
// product does not join a full-shaped chain, an i64 sum never fuses, and a
// single op is left as it is.
// CHECK-LABEL: func.func @stays
// CHECK-NEXT: graph.mul %arg1, %arg1 : (tensor<1x8xf32>
// CHECK-NEXT: graph.add %arg0, %{{.*}} : (tensor<4x8xf32>, tensor<1x8xf32>)
// CHECK-NEXT: graph.add %arg2, %arg2 : (tensor<4xi64>
// CHECK-NEXT: return
func.func @stays(%x: tensor<4x8xf32>, %s: tensor<1x8xf32>, %i: tensor<4xi64>) -> (tensor<4x8xf32>, tensor<4xi64>) {
  %0 = graph.mul %s, %s : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %1 = graph.add %x, %0 : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %2 = graph.add %i, %i : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %1, %2 : tensor<4x8xf32>, tensor<4xi64>
}

// -----

// Ops of different pipeline actions do not fuse (each action runs its own
// ops); ops of one action fuse and the fused op keeps it.
// CHECK-LABEL: func.func @actions
// CHECK: graph.fused_elementwise %arg0 {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK: graph.yield
// CHECK-NEXT: }
// CHECK-NEXT: graph.exp {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>}
func.func @actions(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.neg %x {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>} : tensor<4x8xf32>
  %1 = graph.abs %0 {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>} : tensor<4x8xf32>
  %2 = graph.exp %1 {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>} : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// BatchNorm's backward: the sum of the gradient is read between the
// gradient's producer and the product by the centered input. The sum moves
// after the product (its operand's last reader), so the product joins the
// gradient's group; the product's own sum, whose operand has no other
// reader, stays where it is.
// CHECK-LABEL: func.func @sink_reduction
// CHECK: %[[F:.*]]:2 = graph.fused_elementwise %arg0, %arg1, %arg2
// CHECK:   graph.relu
// CHECK:   graph.mul
// CHECK:   graph.mul
// CHECK: %[[S2:.*]] = graph.reduce_sum %[[F]]#1, [0, 2, 3]
// CHECK: %[[S1:.*]] = graph.reduce_sum %[[F]]#0, [0, 2, 3]
// CHECK: return %[[S1]], %[[S2]], %[[F]]#0
func.func @sink_reduction(%y: tensor<4x8x3x3xf32>, %g: tensor<4x8x3x3xf32>,
                          %xc: tensor<4x8x3x3xf32>)
    -> (tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<4x8x3x3xf32>) {
  %r = graph.relu %y : tensor<4x8x3x3xf32>
  %d = graph.mul %r, %g : (tensor<4x8x3x3xf32>, tensor<4x8x3x3xf32>) -> tensor<4x8x3x3xf32>
  %s1 = graph.reduce_sum %d, [0, 2, 3] : tensor<4x8x3x3xf32> -> tensor<1x8x1x1xf32>
  %p = graph.mul %d, %xc : (tensor<4x8x3x3xf32>, tensor<4x8x3x3xf32>) -> tensor<4x8x3x3xf32>
  %s2 = graph.reduce_sum %p, [0, 2, 3] : tensor<4x8x3x3xf32> -> tensor<1x8x1x1xf32>
  return %s1, %s2, %d : tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<4x8x3x3xf32>
}

// -----

// The product reads two groups' values, and one of them (the negation) is
// read before the product by a softmax: the product cannot take the place
// of both, so it joins the exponential's group alone.
// CHECK-LABEL: func.func @join_one_producer
// CHECK: %[[N:.*]] = graph.neg %arg1
// CHECK: graph.softmax %[[N]]
// CHECK: graph.fused_elementwise %arg0, %[[N]] :
// CHECK:   graph.exp
// CHECK:   graph.mul
func.func @join_one_producer(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %x = graph.exp %a : tensor<4x8xf32>
  %y = graph.neg %b : tensor<4x8xf32>
  %s = graph.softmax %y {axis = 1 : i64} : tensor<4x8xf32>
  %z = graph.mul %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %z, %s : tensor<4x8xf32>, tensor<4x8xf32>
}

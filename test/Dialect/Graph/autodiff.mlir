// RUN: paracc-opt %s -split-input-file --paracc-autodiff="freeze=^frozen" --canonicalize --cse | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-autodiff="whole-parameters=true" | FileCheck %s --check-prefix=WHOLE

// Each parameter's gradient becomes a result marked with its name; a weight
// matrix's gradient is one product over the flattened tokens.

// CHECK-LABEL: func.func @matmul_sum
// CHECK-SAME: -> (tensor<f32>, tensor<8x2xf32> {graph.gradient_of = "w", graph.name = "w"})
// CHECK: %[[ONES:.*]] = graph.constant dense<1.000000e+00> : tensor<4x2xf32>
// CHECK: %[[L:.*]] = graph.reduce_sum
// CHECK: %[[DW:.*]] = graph.gemm %arg0, %[[ONES]] {trans_a = true} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
// CHECK: return %[[L]], %[[DW]]
func.func @matmul_sum(%x: tensor<4x8xf32>) -> tensor<f32> {
  %w = graph.weight "w" : tensor<8x2xf32>
  %y = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %l = graph.reduce_sum %y, [0, 1] {keepdims = false} : tensor<4x2xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A tied embedding (read by the lookup and, transposed, by the head): one
// gradient, the scatter-add of the lookup's plus the head's.
// CHECK-LABEL: func.func @tied_embedding
// CHECK-SAME: -> (tensor<f32>, tensor<10x4xf32> {graph.gradient_of = "emb", graph.name = "emb"})
// CHECK: %[[HEAD:.*]] = graph.transpose %{{.*}}, [1, 0] : tensor<4x10xf32> -> tensor<10x4xf32>
// CHECK: %[[LOOKUP:.*]] = graph.gather_grad %{{.*}}, %arg0 {axis = 0 : i64} : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> tensor<10x4xf32>
// CHECK: %[[SUM:.*]] = graph.add %[[LOOKUP]], %[[HEAD]]
// CHECK: return %{{.*}}, %[[SUM]]
func.func @tied_embedding(%ids: tensor<2x3xi64>) -> tensor<f32> {
  %e = graph.weight "emb" : tensor<10x4xf32>
  %h = graph.gather %e, %ids {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %e2 = graph.weight "emb" : tensor<10x4xf32>
  %et = graph.transpose %e2, [1, 0] : tensor<10x4xf32> -> tensor<4x10xf32>
  %logits = graph.matmul %h, %et : (tensor<2x3x4xf32>, tensor<4x10xf32>) -> tensor<2x3x10xf32>
  %l = graph.reduce_mean %logits, [0, 1, 2] {keepdims = false} : tensor<2x3x10xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Frozen parameters get no gradient; a value used twice sums its gradients.
// CHECK-LABEL: func.func @frozen_and_reused
// CHECK-SAME: -> (tensor<f32>, tensor<3xf32> {graph.gradient_of = "a", graph.name = "a"})
// CHECK-NOT: frozen.b"}
// CHECK: return
func.func @frozen_and_reused(%x: tensor<3xf32>) -> tensor<f32> {
  %a = graph.weight "a" : tensor<3xf32>
  %b = graph.weight "frozen.b" : tensor<3xf32>
  %t = graph.mul %x, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %u = graph.mul %t, %t : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %v = graph.add %u, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = graph.reduce_sum %v, [0] {keepdims = false} : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Blocks of one parameter (tensor parallelism's split of a fused q/k/v
// projection) get a gradient each, marked with their offsets; with
// whole-parameters they are concatenated.
// CHECK-LABEL: func.func @blocks
// CHECK-SAME: {graph.gradient_of = "qkv", graph.gradient_offsets = array<i64: 0, 0>, graph.name = "qkv"}
// CHECK-SAME: {graph.gradient_of = "qkv", graph.gradient_offsets = array<i64: 0, 2>, graph.name = "qkv"}
// WHOLE-LABEL: func.func @blocks
// WHOLE-SAME: -> (tensor<f32>, tensor<4x4xf32> {graph.gradient_of = "qkv", graph.name = "qkv"})
// WHOLE: %[[CAT:.*]] = graph.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
// WHOLE: return %{{.*}}, %[[CAT]]
func.func @blocks(%x: tensor<3x4xf32>) -> tensor<f32> {
  %q = graph.weight "qkv" {offsets = array<i64: 0, 0>, source_shape = array<i64: 4, 4>} : tensor<4x2xf32>
  %k = graph.weight "qkv" {offsets = array<i64: 0, 2>, source_shape = array<i64: 4, 4>} : tensor<4x2xf32>
  %a = graph.matmul %x, %q : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %b = graph.matmul %x, %k : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %c = graph.mul %a, %b : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %l = graph.reduce_sum %c, [0, 1] {keepdims = false} : tensor<3x2xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// reduce_max: the gradient goes to the elements equal to the maximum,
// shared among ties.
// CHECK-LABEL: func.func @reduce_max_grad
// CHECK: %[[M:.*]] = graph.reduce_max %[[Y:.*]], [1] {keepdims = false}
// CHECK: %[[HIT:.*]] = graph.equal %[[Y]], %{{.*}} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
// CHECK: %[[ONES:.*]] = graph.cast %[[HIT]] : tensor<4x3xi1> -> tensor<4x3xf32>
// CHECK: %[[TIES:.*]] = graph.reduce_sum %[[ONES]], [1] : tensor<4x3xf32> -> tensor<4x1xf32>
// CHECK: graph.div %{{.*}}, %[[TIES]]
// CHECK: graph.where %[[HIT]]
func.func @reduce_max_grad(%x: tensor<4x3xf32>) -> tensor<f32> {
  %w = graph.weight "w" : tensor<4x3xf32>
  %y = graph.mul %x, %w : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = graph.reduce_max %y, [1] {keepdims = false} : tensor<4x3xf32> -> tensor<4xf32>
  %l = graph.reduce_sum %m, [0] {keepdims = false} : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// gather_elements (JAX's take_along_axis): each pick's gradient at its
// index along the axis, negative indices counted from the end.
// CHECK-LABEL: func.func @gather_elements_grad
// CHECK: %[[IDX:.*]] = graph.reshape %arg1 : tensor<2x1xi64> -> tensor<2x1x1xi64>
// CHECK: %[[NEG:.*]] = graph.less %[[IDX]]
// CHECK: %[[WRAP:.*]] = graph.where %[[NEG]]
// CHECK: %[[POS:.*]] = graph.range {{.*}} -> tensor<5xi64>
// CHECK: %[[ALONG:.*]] = graph.reshape %[[POS]] : tensor<5xi64> -> tensor<1x1x5xi64>
// CHECK: %[[HIT:.*]] = graph.equal %[[WRAP]], %[[ALONG]] : (tensor<2x1x1xi64>, tensor<1x1x5xi64>) -> tensor<2x1x5xi1>
// CHECK: %[[MASKED:.*]] = graph.where %[[HIT]]
// CHECK: graph.reduce_sum %[[MASKED]], [1] {keepdims = false} : tensor<2x1x5xf32> -> tensor<2x5xf32>
func.func @gather_elements_grad(%x: tensor<2x5xf32>, %i: tensor<2x1xi64>) -> tensor<f32> {
  %w = graph.weight "w" : tensor<2x5xf32>
  %y = graph.mul %x, %w : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  %g = graph.gather_elements %y, %i {axis = 1 : i64} : (tensor<2x5xf32>, tensor<2x1xi64>) -> tensor<2x1xf32>
  %l = graph.reduce_sum %g, [0, 1] {keepdims = false} : tensor<2x1xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// gather_grad as a forward op (JAX's x.at[i].add(v), imported as a
// scatter-add): the added rows' gradient gathers the result's gradient at
// their indices; the accumulated operand's is the result's gradient.
// CHECK-LABEL: func.func @scatter_add_grad
// CHECK: %[[ONES:.*]] = graph.constant dense<1.000000e+00> : tensor<6x4xf32>
// CHECK: %[[ROWS:.*]] = graph.gather %[[ONES]], %arg1 {axis = 0 : i64} : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
// CHECK: %[[DV:.*]] = graph.mul %[[ROWS]], %arg0
// CHECK: return %{{.*}}, %[[DV]], %[[ONES]]
func.func @scatter_add_grad(%x: tensor<3x4xf32>, %i: tensor<3xi64>) -> tensor<f32> {
  %v = graph.weight "v" : tensor<3x4xf32>
  %t = graph.weight "t" : tensor<6x4xf32>
  %u = graph.mul %x, %v : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %s = graph.gather_grad %u, %i accumulate %t {axis = 0 : i64} : (tensor<3x4xf32>, tensor<3xi64>, tensor<6x4xf32>) -> tensor<6x4xf32>
  %l = graph.reduce_sum %s, [0, 1] {keepdims = false} : tensor<6x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// topk (a mixture of experts' router): the values' gradient goes back to
// the picked positions as gather_elements' does; the indices have none.
// CHECK-LABEL: func.func @topk_grad
// CHECK: %{{.*}}, %[[IDX:.*]] = graph.topk
// CHECK: %[[PICKS:.*]] = graph.reshape %[[IDX]] : tensor<3x2xi64> -> tensor<3x2x1xi64>
// CHECK: %[[HIT:.*]] = graph.equal {{.*}} : (tensor<3x2x1xi64>, tensor<1x1x4xi64>) -> tensor<3x2x4xi1>
// CHECK: %[[MASKED:.*]] = graph.where %[[HIT]]
// CHECK: graph.reduce_sum %[[MASKED]], [1] {keepdims = false} : tensor<3x2x4xf32> -> tensor<3x4xf32>
func.func @topk_grad(%x: tensor<3x4xf32>) -> tensor<f32> {
  %w = graph.weight "w" : tensor<3x4xf32>
  %y = graph.mul %x, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %v, %i = graph.topk %y {axis = 1 : i64, k = 2 : i64} : tensor<3x4xf32> -> (tensor<3x2xf32>, tensor<3x2xi64>)
  %l = graph.reduce_sum %v, [0, 1] {keepdims = false} : tensor<3x2xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// gather_nd (a mixture of experts' stacked weights picked per token): the
// index tuples linearized, then gather's scatter-add into the flattened
// table.
// CHECK-LABEL: func.func @gather_nd_grad
// CHECK: %[[LIN:.*]] = graph.reduce_sum {{.*}}, [1] {keepdims = false} : tensor<5x1xi64> -> tensor<5xi64>
// CHECK: %[[FLAT:.*]] = graph.gather_grad %{{.*}}, %[[LIN]] {axis = 0 : i64} : (tensor<5x6x2xf32>, tensor<5xi64>) -> tensor<4x6x2xf32>
func.func @gather_nd_grad(%i: tensor<5x1xi64>) -> tensor<f32> {
  %w = graph.weight "experts" : tensor<4x6x2xf32>
  %g = graph.gather_nd %w, %i : (tensor<4x6x2xf32>, tensor<5x1xi64>) -> tensor<5x6x2xf32>
  %l = graph.reduce_sum %g, [0, 1, 2] {keepdims = false} : tensor<5x6x2xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// moe_experts: one moe_experts_grad gives x's, the routing weights' and both
// expert tables' gradients (the indices have none; the router is reached
// through the weights, here a softmax of router logits).
// CHECK-LABEL: func.func @moe_experts_grad
// CHECK-SAME: graph.gradient_of = "router"
// CHECK-SAME: graph.gradient_of = "w_in"
// CHECK-SAME: graph.gradient_of = "w_out"
// CHECK: %[[DX:.*]], %[[DW:.*]], %[[DIN:.*]], %[[DOUT:.*]] = graph.moe_experts_grad %{{.*}}, %arg0, %arg1, %{{.*}}, %{{.*}}, %{{.*}} {activation = "gelu", gated = false} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<3x6x8xf32>, tensor<3x8x6xf32>) -> (tensor<4x8xf32>, tensor<4x2xf32>, tensor<3x6x8xf32>, tensor<3x8x6xf32>)
func.func @moe_experts_grad(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>) -> tensor<f32> {
  %r = graph.weight "router" : tensor<4x2xf32>
  %w = graph.softmax %r {axis = 1 : i64} : tensor<4x2xf32>
  %a = graph.weight "w_in" : tensor<3x6x8xf32>
  %b = graph.weight "w_out" : tensor<3x8x6xf32>
  %y = graph.moe_experts %x, %i, %w, %a, %b {activation = "gelu", gated = false} : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>, tensor<3x6x8xf32>, tensor<3x8x6xf32>) -> tensor<4x8xf32>
  %l = graph.reduce_sum %y, [0, 1] {keepdims = false} : tensor<4x8xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A convolution's operand gradient is the transposed convolution of dy, its
// weight's graph.conv_weight_grad, its bias's dy summed over batch and
// positions; conv_transpose's operand gradient is a convolution and its
// weight's a conv_weight_grad with the roles swapped; max pooling's is
// graph.pool_grad. A weight the model assigns itself (BatchNorm's running
// statistics) is state: no gradient result.

// CHECK-LABEL: func.func @conv_pool
// CHECK-SAME: -> (tensor<f32>, tensor<4x3x3x3xf32> {graph.gradient_of = "conv.weight", graph.name = "conv.weight"}, tensor<4xf32> {graph.gradient_of = "conv.bias", graph.name = "conv.bias"}, tensor<4x3x3x3xf32> {graph.gradient_of = "up.weight", graph.name = "up.weight"})
// CHECK-NOT: gradient_of = "running_mean"
// CHECK: %[[U:.*]] = graph.weight "up.weight"
// CHECK: %[[Y:.*]] = graph.conv %arg0
// CHECK: graph.assign "running_mean"
// CHECK: %[[Z:.*]] = graph.conv_transpose %[[Y]], %[[U]] {
// CHECK: %[[DZ:.*]] = graph.pool_grad %[[Z]], %{{.*}} {kernel = array<i64: 2, 2>, kind = "max"
// CHECK: %[[DY:.*]] = graph.conv %[[DZ]], %[[U]] {{.*}} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x4x4xf32>
// CHECK: %[[DU:.*]] = graph.conv_weight_grad %[[DZ]], %[[Y]] {{.*}} -> tensor<4x3x3x3xf32>
// CHECK: %[[DW:.*]] = graph.conv_weight_grad %arg0, %[[DY]] {{.*}} -> tensor<4x3x3x3xf32>
// CHECK: %[[DB:.*]] = graph.reduce_sum %[[DY]], [0, 2, 3] : tensor<2x4x4x4xf32> -> tensor<1x4x1x1xf32>
// CHECK: %[[DB1:.*]] = graph.reshape %[[DB]]
// CHECK: return %{{.*}}, %[[DW]], %[[DB1]], %[[DU]]
func.func @conv_pool(%x: tensor<2x3x8x8xf32>) -> tensor<f32> {
  %w = graph.weight "conv.weight" : tensor<4x3x3x3xf32>
  %b = graph.weight "conv.bias" : tensor<4xf32>
  %u = graph.weight "up.weight" : tensor<4x3x3x3xf32>
  %rm = graph.weight "running_mean" : tensor<4xf32>
  %y = graph.conv %x, %w, %b {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x4x4xf32>
  %m = graph.reduce_mean %y, [0, 2, 3] {keepdims = false} : tensor<2x4x4x4xf32> -> tensor<4xf32>
  %h = graph.constant dense<5.000000e-01> : tensor<f32>
  %kept = graph.mul %rm, %h : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %new = graph.add %kept, %m : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  graph.assign "running_mean", %new : tensor<4xf32>
  %z = graph.conv_transpose %y, %u {dilations = array<i64: 1, 1>, group = 1 : i64, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32>) -> tensor<2x3x8x8xf32>
  %p = graph.pool %z {kernel = array<i64: 2, 2>, kind = "max", pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, strides = array<i64: 2, 2>} : (tensor<2x3x8x8xf32>) -> tensor<2x3x4x4xf32>
  %l = graph.reduce_sum %p, [0, 1, 2, 3] {keepdims = false} : tensor<2x3x4x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// RUN: paracc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(paracc-moe-aux-loss{aux-coef=0.5 z-coef=0.25}))' | FileCheck %s

// --paracc-moe-aux-loss: the router's softmax, top-k and logits feed the
// load-balancing loss (picks counted per expert against [1, 1, E] ids) and
// the z-loss (the row maximum's shifted logsumexp, squared, averaged); both
// scaled and added to the first result.

// CHECK-LABEL: func.func @router
func.func @router(%loss: tensor<f32>, %x: tensor<8x4xf32>, %z: tensor<8x4xf32>, %w_in: tensor<4x6x4xf32>, %w_out: tensor<4x4x3xf32>) -> (tensor<f32>, tensor<8x4xf32>) {
  // CHECK: %[[P:.*]] = graph.softmax %[[Z:[^ ]*]]
  // CHECK: %{{.*}}, %[[I:.*]] = graph.topk %[[P]]
  %p = graph.softmax %z {axis = 1 : i64} : tensor<8x4xf32>
  %v, %i = graph.topk %p {axis = 1 : i64, k = 2 : i64} : tensor<8x4xf32> -> (tensor<8x2xf32>, tensor<8x2xi64>)
  %y = graph.moe_experts %x, %i, %v, %w_in, %w_out
      : (tensor<8x4xf32>, tensor<8x2xi64>, tensor<8x2xf32>, tensor<4x6x4xf32>, tensor<4x4x3xf32>) -> tensor<8x4xf32>
  // CHECK: %[[S:.*]] = graph.reshape %[[I]] : tensor<8x2xi64> -> tensor<8x2x1xi64>
  // CHECK: %[[IDS:.*]] = graph.constant dense<{{\[\[\[}}0, 1, 2, 3]]]> : tensor<1x1x4xi64>
  // CHECK: %[[HIT:.*]] = graph.equal %[[S]], %[[IDS]]
  // CHECK: %[[HITS:.*]] = graph.cast %[[HIT]] : tensor<8x2x4xi1> -> tensor<8x2x4xf32>
  // CHECK: %[[C:.*]] = graph.reduce_sum %[[HITS]], [0, 1] {keepdims = false}
  // CHECK: %[[F:.*]] = graph.mul %[[C]], %{{.*}} : (tensor<4xf32>, tensor<f32>)
  // CHECK: %[[PM:.*]] = graph.reduce_mean %[[P]], [0] {keepdims = false}
  // CHECK: %[[FP:.*]] = graph.mul %[[F]], %[[PM]]
  // CHECK: %[[DOT:.*]] = graph.reduce_sum %[[FP]], [0]
  // CHECK: %[[E:.*]] = graph.constant dense<4.000000e+00>
  // CHECK: %[[AUX:.*]] = graph.mul %[[DOT]], %[[E]]
  // CHECK: %[[AUXC:.*]] = graph.mul %[[AUX]], %{{.*}}
  // CHECK: %[[L1:.*]] = graph.add %arg0, %[[AUXC]]
  // CHECK: %[[MAX:.*]] = graph.reduce_max %[[Z]], [1] : tensor<8x4xf32> -> tensor<8x1xf32>
  // CHECK: %[[SH:.*]] = graph.sub %[[Z]], %[[MAX]]
  // CHECK: %[[M:.*]] = graph.reshape %[[MAX]] : tensor<8x1xf32> -> tensor<8xf32>
  // CHECK: %[[EX:.*]] = graph.exp %[[SH]]
  // CHECK: %[[SUM:.*]] = graph.reduce_sum %[[EX]], [1]
  // CHECK: %[[LOG:.*]] = graph.log %[[SUM]]
  // CHECK: %[[LSE:.*]] = graph.add %[[LOG]], %[[M]]
  // CHECK: %[[SQ:.*]] = graph.mul %[[LSE]], %[[LSE]]
  // CHECK: %[[ZL:.*]] = graph.reduce_mean %[[SQ]], [0]
  // CHECK: %[[ZLC:.*]] = graph.mul %[[ZL]], %{{.*}}
  // CHECK: %[[L2:.*]] = graph.add %[[L1]], %[[ZLC]]
  // CHECK: return %[[L2]], %{{.*}} : tensor<f32>, tensor<8x4xf32>
  return %loss, %y : tensor<f32>, tensor<8x4xf32>
}

// -----

// Picks that are not a top-k of a softmax have no router probabilities.
func.func @no_router(%loss: tensor<f32>, %x: tensor<8x4xf32>, %i: tensor<8x2xi64>, %w: tensor<8x2xf32>, %w_in: tensor<4x6x4xf32>, %w_out: tensor<4x4x3xf32>) -> (tensor<f32>, tensor<8x4xf32>) {
  // expected-error @+1 {{'graph.moe_experts' op has picks that are not a top-k of a softmax over router logits [tokens, experts], so the auxiliary losses have no router probabilities to use}}
  %y = graph.moe_experts %x, %i, %w, %w_in, %w_out
      : (tensor<8x4xf32>, tensor<8x2xi64>, tensor<8x2xf32>, tensor<4x6x4xf32>, tensor<4x4x3xf32>) -> tensor<8x4xf32>
  return %loss, %y : tensor<f32>, tensor<8x4xf32>
}

// -----

// expected-error @+1 {{'func.func' op needs a float scalar loss as its first result to add the experts' auxiliary losses to}}
func.func @no_loss(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %x : tensor<8x4xf32>
}

// -----

// expected-error @+1 {{'func.func' op has no graph.moe_experts: --moe-aux-loss and --moe-z-loss need a mixture of experts}}
func.func @no_experts(%loss: tensor<f32>) -> tensor<f32> {
  return %loss : tensor<f32>
}

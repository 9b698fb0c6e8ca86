// RUN: paracc-opt %s -split-input-file --paracc-autodiff --canonicalize --cse | FileCheck %s --check-prefix=GRAD
// RUN: paracc-opt %s -split-input-file --paracc-autodiff --paracc-optimizer | FileCheck %s --check-prefix=STEP
// RUN: paracc-opt %s -split-input-file --paracc-propagate-sharding --paracc-partition | FileCheck %s --check-prefix=SHARD

// graph.dropout in training: its gradient is the same dropout (same key:
// step, offsets, seed, stream, ratio) of the result's gradient; the
// optimizer makes the training step its step; partitioning adds each
// shard's offset so every rank draws its slice of the one-rank mask.

// GRAD-LABEL: func.func @loss
// GRAD-DAG: %[[STEPV:.*]] = graph.constant dense<0.000000e+00> : tensor<f32>
// GRAD-DAG: %[[OFF:.*]] = graph.constant dense<0> : tensor<2xi64>
// GRAD: graph.dropout %{{.*}}, %[[STEPV]], %[[OFF]] {ratio = 1.000000e-01 : f64, seed = 7 : i64, stream = 42 : i64}
// GRAD: graph.dropout %{{.*}}, %[[STEPV]], %[[OFF]] {ratio = 1.000000e-01 : f64, seed = 7 : i64, stream = 42 : i64}
// GRAD: return
// STEP-LABEL: func.func @loss
// STEP-SAME: %[[S:[a-z0-9]+]]: tensor<f32> {graph.name = "step"}
// STEP-COUNT-2: graph.dropout %{{.*}}, %[[S]], %{{.*}}
// SHARD-LABEL: func.func @loss
// SHARD: %[[I:.*]] = dist.axis_index over ["dp"]
// SHARD: %[[O:.*]] = graph.mul %[[I]], %{{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i64>
// SHARD: %[[C:.*]] = graph.concat
// SHARD: %[[OFF:.*]] = graph.add %{{.*}}, %[[C]] : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
// SHARD: graph.dropout %{{.*}}, %{{.*}}, %[[OFF]] {{.*}} : tensor<2x8xf32>, tensor<2xi64>
module attributes {dist.mesh = #dist.mesh<[dp = 2]>} {
func.func @loss(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<{dp}, {}>}) -> tensor<f32> {
  %w = graph.weight "w" : tensor<8xf32>
  %s = graph.constant dense<0.0> : tensor<f32>
  %o = graph.constant dense<0> : tensor<2xi64>
  %h = graph.mul %x, %w : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %d = graph.dropout %h, %s, %o {ratio = 0.1 : f64, seed = 7 : i64, stream = 42 : i64} : tensor<4x8xf32>, tensor<2xi64>
  %l = graph.reduce_sum %d, [0, 1] {keepdims = false} : tensor<4x8xf32> -> tensor<f32>
  return %l : tensor<f32>
}
}

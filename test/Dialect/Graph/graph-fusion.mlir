// RUN: paracc-opt %s -split-input-file --paracc-graph-fusion | FileCheck %s

// The decomposed RMSNorm, SiLU and GELU forms that exporters write become
// graph.rms_norm, graph.silu and graph.gelu; look-alikes with another
// constant, axis or value stay as they are.

//===----------------------------------------------------------------------===//
// RMSNorm
//===----------------------------------------------------------------------===//

// x * reciprocal(sqrt(mean(x * x) + eps)) * w.
// CHECK-LABEL: func.func @rms_norm_reciprocal
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xf32>, %[[W:[^:]+]]: tensor<64xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.rms_norm %[[X]], %[[W]] {axis = 2 : i64, epsilon = 9.9999999747524271E-7 : f64} : tensor<2x8x64xf32>, tensor<64xf32> -> tensor<2x8x64xf32>
// CHECK-NEXT: return %[[Y]]
func.func @rms_norm_reciprocal(%x: tensor<2x8x64xf32>, %w: tensor<64xf32>) -> tensor<2x8x64xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %1 = graph.reduce_mean %0, [2] : tensor<2x8x64xf32> -> tensor<2x8x1xf32>
  %2 = graph.add %1, %eps : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8x1xf32>
  %3 = graph.sqrt %2 : tensor<2x8x1xf32>
  %4 = graph.reciprocal %3 : tensor<2x8x1xf32>
  %5 = graph.mul %x, %4 : (tensor<2x8x64xf32>, tensor<2x8x1xf32>) -> tensor<2x8x64xf32>
  %6 = graph.mul %5, %w : (tensor<2x8x64xf32>, tensor<64xf32>) -> tensor<2x8x64xf32>
  return %6 : tensor<2x8x64xf32>
}

// -----

// The pow(x, 2) variant, with every commutative operand swapped: eps + mean,
// invrms * x and w * normalized.
// CHECK-LABEL: func.func @rms_norm_pow
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xf32>, %[[W:[^:]+]]: tensor<64xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.rms_norm %[[X]], %[[W]] {axis = 2 : i64, epsilon = 9.9999997473787516E-6 : f64} : tensor<2x8x64xf32>, tensor<64xf32> -> tensor<2x8x64xf32>
// CHECK-NEXT: return %[[Y]]
func.func @rms_norm_pow(%x: tensor<2x8x64xf32>, %w: tensor<64xf32>) -> tensor<2x8x64xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-5> : tensor<1xf32>
  %0 = graph.pow %x, %two : (tensor<2x8x64xf32>, tensor<f32>) -> tensor<2x8x64xf32>
  %1 = graph.reduce_mean %0, [2] : tensor<2x8x64xf32> -> tensor<2x8x1xf32>
  %2 = graph.add %eps, %1 : (tensor<1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %3 = graph.sqrt %2 : tensor<2x8x1xf32>
  %4 = graph.reciprocal %3 : tensor<2x8x1xf32>
  %5 = graph.mul %4, %x : (tensor<2x8x1xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %6 = graph.mul %w, %5 : (tensor<64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  return %6 : tensor<2x8x64xf32>
}

// -----

// x / sqrt(mean(x^2) + eps) * w, in f16 (Llama exported in half precision);
// eps = 2^-10 is exact in f16.
// CHECK-LABEL: func.func @rms_norm_div
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x16xf16>, %[[W:[^:]+]]: tensor<16xf16>)
// CHECK-NEXT: %[[Y:.*]] = graph.rms_norm %[[X]], %[[W]] {axis = 1 : i64, epsilon = 9.765625E-4 : f64} : tensor<4x16xf16>, tensor<16xf16> -> tensor<4x16xf16>
// CHECK-NEXT: return %[[Y]]
func.func @rms_norm_div(%x: tensor<4x16xf16>, %w: tensor<16xf16>) -> tensor<4x16xf16> {
  %two = graph.constant dense<2.0> : tensor<f16>
  %eps = graph.constant dense<9.765625e-4> : tensor<f16>
  %0 = graph.pow %x, %two : (tensor<4x16xf16>, tensor<f16>) -> tensor<4x16xf16>
  %1 = graph.reduce_mean %0, [1] : tensor<4x16xf16> -> tensor<4x1xf16>
  %2 = graph.add %1, %eps : (tensor<4x1xf16>, tensor<f16>) -> tensor<4x1xf16>
  %3 = graph.sqrt %2 : tensor<4x1xf16>
  %4 = graph.div %x, %3 : (tensor<4x16xf16>, tensor<4x1xf16>) -> tensor<4x16xf16>
  %5 = graph.mul %4, %w : (tensor<4x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>
  return %5 : tensor<4x16xf16>
}

// -----

// x * (1 / sqrt(...)) * w.
// CHECK-LABEL: func.func @rms_norm_one_over_sqrt
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x16xf32>, %[[W:[^:]+]]: tensor<16xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.rms_norm %[[X]], %[[W]] {axis = 1 : i64, epsilon = 9.9999999747524271E-7 : f64} : tensor<4x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
// CHECK-NEXT: return %[[Y]]
func.func @rms_norm_one_over_sqrt(%x: tensor<4x16xf32>, %w: tensor<16xf32>) -> tensor<4x16xf32> {
  %one = graph.constant dense<1.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = graph.reduce_mean %0, [1] : tensor<4x16xf32> -> tensor<4x1xf32>
  %2 = graph.add %1, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %3 = graph.sqrt %2 : tensor<4x1xf32>
  %4 = graph.div %one, %3 : (tensor<f32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %5 = graph.mul %x, %4 : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  %6 = graph.mul %5, %w : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %6 : tensor<4x16xf32>
}

// -----

// The rsqrt form, normalizing over the two trailing dims with a [8, 64]
// weight: axis 1.
// CHECK-LABEL: func.func @rms_norm_rsqrt
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xf32>, %[[W:[^:]+]]: tensor<8x64xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.rms_norm %[[X]], %[[W]] {axis = 1 : i64, epsilon = 9.9999999747524271E-7 : f64} : tensor<2x8x64xf32>, tensor<8x64xf32> -> tensor<2x8x64xf32>
// CHECK-NEXT: return %[[Y]]
func.func @rms_norm_rsqrt(%x: tensor<2x8x64xf32>, %w: tensor<8x64xf32>) -> tensor<2x8x64xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %1 = graph.reduce_mean %0, [1, 2] : tensor<2x8x64xf32> -> tensor<2x1x1xf32>
  %2 = graph.add %1, %eps : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
  %3 = graph.rsqrt %2 : tensor<2x1x1xf32>
  %4 = graph.mul %x, %3 : (tensor<2x8x64xf32>, tensor<2x1x1xf32>) -> tensor<2x8x64xf32>
  %5 = graph.mul %4, %w : (tensor<2x8x64xf32>, tensor<8x64xf32>) -> tensor<2x8x64xf32>
  return %5 : tensor<2x8x64xf32>
}

// -----

// Without a weight the scale is a ones constant of the normalized shape.
// CHECK-LABEL: func.func @rms_norm_no_weight
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xbf16>)
// CHECK: %[[ONES:.*]] = graph.constant dense<1.000000e+00> : tensor<64xbf16>
// CHECK-NEXT: %[[Y:.*]] = graph.rms_norm %[[X]], %[[ONES]] {axis = 2 : i64, epsilon = 0.000000e+00 : f64} : tensor<2x8x64xbf16>, tensor<64xbf16> -> tensor<2x8x64xbf16>
// CHECK-NEXT: return %[[Y]]
func.func @rms_norm_no_weight(%x: tensor<2x8x64xbf16>) -> tensor<2x8x64xbf16> {
  %eps = graph.constant dense<0.0> : tensor<bf16>
  %0 = graph.mul %x, %x : (tensor<2x8x64xbf16>, tensor<2x8x64xbf16>) -> tensor<2x8x64xbf16>
  %1 = graph.reduce_mean %0, [2] : tensor<2x8x64xbf16> -> tensor<2x8x1xbf16>
  %2 = graph.add %1, %eps : (tensor<2x8x1xbf16>, tensor<bf16>) -> tensor<2x8x1xbf16>
  %3 = graph.rsqrt %2 : tensor<2x8x1xbf16>
  %4 = graph.mul %x, %3 : (tensor<2x8x64xbf16>, tensor<2x8x1xbf16>) -> tensor<2x8x64xbf16>
  return %4 : tensor<2x8x64xbf16>
}

// -----

// A following multiplication that does not broadcast to the normalized
// shape ([8, 1] against [64]) is not a weight: the scale is ones and the
// multiplication stays.
// CHECK-LABEL: func.func @rms_norm_mul_not_a_weight
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xf32>, %[[V:[^:]+]]: tensor<8x1xf32>)
// CHECK: %[[ONES:.*]] = graph.constant dense<1.000000e+00> : tensor<64xf32>
// CHECK-NEXT: %[[N:.*]] = graph.rms_norm %[[X]], %[[ONES]] {axis = 2 : i64
// CHECK-NEXT: %[[Y:.*]] = graph.mul %[[N]], %[[V]]
// CHECK-NEXT: return %[[Y]]
func.func @rms_norm_mul_not_a_weight(%x: tensor<2x8x64xf32>, %v: tensor<8x1xf32>) -> tensor<2x8x64xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %1 = graph.reduce_mean %0, [2] : tensor<2x8x64xf32> -> tensor<2x8x1xf32>
  %2 = graph.add %1, %eps : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8x1xf32>
  %3 = graph.rsqrt %2 : tensor<2x8x1xf32>
  %4 = graph.mul %x, %3 : (tensor<2x8x64xf32>, tensor<2x8x1xf32>) -> tensor<2x8x64xf32>
  %5 = graph.mul %4, %v : (tensor<2x8x64xf32>, tensor<8x1xf32>) -> tensor<2x8x64xf32>
  return %5 : tensor<2x8x64xf32>
}

// -----

// The normalized value has a second use: the weight multiplication cannot
// absorb it, so the scale is ones and both uses see the rms_norm.
// CHECK-LABEL: func.func @rms_norm_normalized_used_twice
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x16xf32>, %[[W:[^:]+]]: tensor<16xf32>)
// CHECK: %[[ONES:.*]] = graph.constant dense<1.000000e+00> : tensor<16xf32>
// CHECK-NEXT: %[[N:.*]] = graph.rms_norm %[[X]], %[[ONES]] {axis = 1 : i64
// CHECK-NEXT: %[[Y:.*]] = graph.mul %[[N]], %[[W]]
// CHECK-NEXT: return %[[Y]], %[[N]]
func.func @rms_norm_normalized_used_twice(%x: tensor<4x16xf32>, %w: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = graph.reduce_mean %0, [1] : tensor<4x16xf32> -> tensor<4x1xf32>
  %2 = graph.add %1, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %3 = graph.rsqrt %2 : tensor<4x1xf32>
  %4 = graph.mul %x, %3 : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  %5 = graph.mul %4, %w : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %5, %4 : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Negative: the mean is over a dim that is not trailing ([1] of 2x8x64).
// CHECK-LABEL: func.func @rms_norm_non_trailing_axis
// CHECK-NOT: graph.rms_norm
// CHECK: graph.reduce_mean %{{.*}}, [1]
// CHECK-NOT: graph.rms_norm
// CHECK: return
func.func @rms_norm_non_trailing_axis(%x: tensor<2x8x64xf32>, %w: tensor<64xf32>) -> tensor<2x8x64xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %1 = graph.reduce_mean %0, [1] : tensor<2x8x64xf32> -> tensor<2x1x64xf32>
  %2 = graph.add %1, %eps : (tensor<2x1x64xf32>, tensor<f32>) -> tensor<2x1x64xf32>
  %3 = graph.rsqrt %2 : tensor<2x1x64xf32>
  %4 = graph.mul %x, %3 : (tensor<2x8x64xf32>, tensor<2x1x64xf32>) -> tensor<2x8x64xf32>
  %5 = graph.mul %4, %w : (tensor<2x8x64xf32>, tensor<64xf32>) -> tensor<2x8x64xf32>
  return %5 : tensor<2x8x64xf32>
}

// -----

// Negative: a mean over [0, 2] is trailing in its last axis only.
// CHECK-LABEL: func.func @rms_norm_non_contiguous_axes
// CHECK-NOT: graph.rms_norm
// CHECK: graph.reduce_mean %{{.*}}, [0, 2]
// CHECK-NOT: graph.rms_norm
// CHECK: return
func.func @rms_norm_non_contiguous_axes(%x: tensor<2x8x64xf32>) -> tensor<2x8x64xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %1 = graph.reduce_mean %0, [0, 2] : tensor<2x8x64xf32> -> tensor<1x8x1xf32>
  %2 = graph.add %1, %eps : (tensor<1x8x1xf32>, tensor<f32>) -> tensor<1x8x1xf32>
  %3 = graph.rsqrt %2 : tensor<1x8x1xf32>
  %4 = graph.mul %x, %3 : (tensor<2x8x64xf32>, tensor<1x8x1xf32>) -> tensor<2x8x64xf32>
  return %4 : tensor<2x8x64xf32>
}

// -----

// Negative: without keepdims the [4] statistics broadcast along the last dim
// of the 4x4 x: each column gets the statistics of a row.
// CHECK-LABEL: func.func @rms_norm_mean_without_keepdims
// CHECK-NOT: graph.rms_norm
// CHECK: graph.reduce_mean %{{.*}}, [1] {keepdims = false}
// CHECK-NOT: graph.rms_norm
// CHECK: return
func.func @rms_norm_mean_without_keepdims(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = graph.reduce_mean %0, [1] {keepdims = false} : tensor<4x4xf32> -> tensor<4xf32>
  %2 = graph.add %1, %eps : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = graph.rsqrt %2 : tensor<4xf32>
  %4 = graph.mul %x, %3 : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return %4 : tensor<4x4xf32>
}

// -----

// Negative: the mean of the squares of y normalizes x.
// CHECK-LABEL: func.func @rms_norm_square_of_other_value
// CHECK-NOT: graph.rms_norm
// CHECK: graph.rsqrt
// CHECK-NOT: graph.rms_norm
// CHECK: return
func.func @rms_norm_square_of_other_value(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %y, %y : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = graph.reduce_mean %0, [1] : tensor<4x16xf32> -> tensor<4x1xf32>
  %2 = graph.add %1, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %3 = graph.rsqrt %2 : tensor<4x1xf32>
  %4 = graph.mul %x, %3 : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// -----

// Negative: x * y is not a square.
// CHECK-LABEL: func.func @rms_norm_product_not_square
// CHECK-NOT: graph.rms_norm
// CHECK: graph.rsqrt
// CHECK-NOT: graph.rms_norm
// CHECK: return
func.func @rms_norm_product_not_square(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %y : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = graph.reduce_mean %0, [1] : tensor<4x16xf32> -> tensor<4x1xf32>
  %2 = graph.add %1, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %3 = graph.rsqrt %2 : tensor<4x1xf32>
  %4 = graph.mul %x, %3 : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// -----

// Negative: pow(x, 3) is not a square.
// CHECK-LABEL: func.func @rms_norm_pow_not_two
// CHECK-NOT: graph.rms_norm
// CHECK: graph.pow
// CHECK-NOT: graph.rms_norm
// CHECK: return
func.func @rms_norm_pow_not_two(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %three = graph.constant dense<3.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.pow %x, %three : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %1 = graph.reduce_mean %0, [1] : tensor<4x16xf32> -> tensor<4x1xf32>
  %2 = graph.add %1, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %3 = graph.rsqrt %2 : tensor<4x1xf32>
  %4 = graph.mul %x, %3 : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// -----

// Negative: a sum of squares is not their mean.
// CHECK-LABEL: func.func @rms_norm_sum_not_mean
// CHECK-NOT: graph.rms_norm
// CHECK: graph.reduce_sum
// CHECK-NOT: graph.rms_norm
// CHECK: return
func.func @rms_norm_sum_not_mean(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = graph.reduce_sum %0, [1] : tensor<4x16xf32> -> tensor<4x1xf32>
  %2 = graph.add %1, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %3 = graph.rsqrt %2 : tensor<4x1xf32>
  %4 = graph.mul %x, %3 : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// -----

// Negative: 2 / sqrt(...) is not the inverse RMS.
// CHECK-LABEL: func.func @rms_norm_two_over_sqrt
// CHECK-NOT: graph.rms_norm
// CHECK: graph.div
// CHECK-NOT: graph.rms_norm
// CHECK: return
func.func @rms_norm_two_over_sqrt(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = graph.reduce_mean %0, [1] : tensor<4x16xf32> -> tensor<4x1xf32>
  %2 = graph.add %1, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %3 = graph.sqrt %2 : tensor<4x1xf32>
  %4 = graph.div %two, %3 : (tensor<f32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %5 = graph.mul %x, %4 : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %5 : tensor<4x16xf32>
}

// -----

// Negative: rms_norm takes a non-negative epsilon only; fusing this would
// build an op that fails to verify.
// CHECK-LABEL: func.func @rms_norm_negative_epsilon
// CHECK-NOT: graph.rms_norm
// CHECK: graph.rsqrt
// CHECK-NOT: graph.rms_norm
// CHECK: return
func.func @rms_norm_negative_epsilon(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %eps = graph.constant dense<-1.0e-6> : tensor<f32>
  %0 = graph.mul %x, %x : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = graph.reduce_mean %0, [1] : tensor<4x16xf32> -> tensor<4x1xf32>
  %2 = graph.add %1, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %3 = graph.rsqrt %2 : tensor<4x1xf32>
  %4 = graph.mul %x, %3 : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// -----

// Negative: an epsilon that is not a constant.
// CHECK-LABEL: func.func @rms_norm_epsilon_not_constant
// CHECK-NOT: graph.rms_norm
// CHECK: graph.rsqrt
// CHECK-NOT: graph.rms_norm
// CHECK: return
func.func @rms_norm_epsilon_not_constant(%x: tensor<4x16xf32>, %eps: tensor<f32>) -> tensor<4x16xf32> {
  %0 = graph.mul %x, %x : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = graph.reduce_mean %0, [1] : tensor<4x16xf32> -> tensor<4x1xf32>
  %2 = graph.add %1, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %3 = graph.rsqrt %2 : tensor<4x1xf32>
  %4 = graph.mul %x, %3 : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// -----

//===----------------------------------------------------------------------===//
// SiLU
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @silu
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.silu %[[X]] : tensor<2x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @silu(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = graph.sigmoid %x : tensor<2x8xf32>
  %1 = graph.mul %x, %0 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @silu_sigmoid_first
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8xbf16>)
// CHECK-NEXT: %[[Y:.*]] = graph.silu %[[X]] : tensor<2x8xbf16>
// CHECK-NEXT: return %[[Y]]
func.func @silu_sigmoid_first(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  %0 = graph.sigmoid %x : tensor<2x8xbf16>
  %1 = graph.mul %0, %x : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %1 : tensor<2x8xbf16>
}

// -----

// SwiGLU (Llama's MLP, as torch.onnx exports it): x * sigmoid(x) times the
// up projection is one graph.silu_mul.
// CHECK-LABEL: func.func @swiglu
// CHECK-SAME: (%[[G:[^:]+]]: tensor<2x8xf32>, %[[U:[^:]+]]: tensor<2x8xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.silu_mul %[[G]], %[[U]] : tensor<2x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @swiglu(%g: tensor<2x8xf32>, %u: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = graph.sigmoid %g : tensor<2x8xf32>
  %1 = graph.mul %g, %0 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = graph.mul %u, %1 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %2 : tensor<2x8xf32>
}

// -----

// Negative: an up projection that broadcasts stays a silu and a mul.
// CHECK-LABEL: func.func @swiglu_broadcast
// CHECK-NOT: graph.silu_mul
// CHECK: graph.silu
// CHECK-NEXT: graph.mul
func.func @swiglu_broadcast(%g: tensor<2x8xf32>, %u: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = graph.silu %g : tensor<2x8xf32>
  %1 = graph.mul %0, %u : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// -----

// The rotary embedding as transformers writes it (x * cos + rotate_half(x)
// * sin, rotate_half = concat(-x[..., 4:], x[..., :4])) with constant
// tables.
// CHECK-LABEL: func.func @rotary
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x3x5x8xf32>)
// CHECK-DAG: %[[C:.*]] = graph.constant dense<5.000000e-01> : tensor<1x1x5x8xf32>
// CHECK-DAG: %[[S:.*]] = graph.constant dense<2.500000e-01> : tensor<1x1x5x8xf32>
// CHECK: %[[Y:.*]] = graph.rotary %[[X]], %[[C]], %[[S]] : (tensor<2x3x5x8xf32>, tensor<1x1x5x8xf32>, tensor<1x1x5x8xf32>) -> tensor<2x3x5x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @rotary(%x: tensor<2x3x5x8xf32>) -> tensor<2x3x5x8xf32> {
  %c = graph.constant dense<0.5> : tensor<1x1x5x8xf32>
  %s = graph.constant dense<0.25> : tensor<1x1x5x8xf32>
  %0 = graph.mul %x, %c : (tensor<2x3x5x8xf32>, tensor<1x1x5x8xf32>) -> tensor<2x3x5x8xf32>
  %1 = graph.slice %x, starts = [0, 0, 0, 0], limits = [2, 3, 5, 4], steps = [1, 1, 1, 1] : tensor<2x3x5x8xf32> -> tensor<2x3x5x4xf32>
  %2 = graph.slice %x, starts = [0, 0, 0, 4], limits = [2, 3, 5, 8], steps = [1, 1, 1, 1] : tensor<2x3x5x8xf32> -> tensor<2x3x5x4xf32>
  %3 = graph.neg %2 : tensor<2x3x5x4xf32>
  %4 = graph.concat %3, %1 {axis = 3 : i64} : (tensor<2x3x5x4xf32>, tensor<2x3x5x4xf32>) -> tensor<2x3x5x8xf32>
  %5 = graph.mul %4, %s : (tensor<2x3x5x8xf32>, tensor<1x1x5x8xf32>) -> tensor<2x3x5x8xf32>
  %6 = graph.add %0, %5 : (tensor<2x3x5x8xf32>, tensor<2x3x5x8xf32>) -> tensor<2x3x5x8xf32>
  return %6 : tensor<2x3x5x8xf32>
}

// -----

// Negative: tables that are arguments (they could be trained) stay as
// they are; so do halves taken the other way round.
// CHECK-LABEL: func.func @rotary_not
// CHECK-NOT: graph.rotary
// CHECK: return
func.func @rotary_not(%x: tensor<3x8xf32>, %c: tensor<3x8xf32>) -> (tensor<3x8xf32>, tensor<3x8xf32>) {
  %s = graph.constant dense<0.25> : tensor<3x8xf32>
  %0 = graph.mul %x, %c : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  %1 = graph.slice %x, starts = [0, 0], limits = [3, 4], steps = [1, 1] : tensor<3x8xf32> -> tensor<3x4xf32>
  %2 = graph.slice %x, starts = [0, 4], limits = [3, 8], steps = [1, 1] : tensor<3x8xf32> -> tensor<3x4xf32>
  %3 = graph.neg %2 : tensor<3x4xf32>
  %4 = graph.concat %3, %1 {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x8xf32>
  %5 = graph.mul %4, %s : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  %6 = graph.add %0, %5 : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  %7 = graph.neg %1 : tensor<3x4xf32>
  %8 = graph.concat %7, %2 {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x8xf32>
  %9 = graph.mul %8, %s : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  %cc = graph.constant dense<0.5> : tensor<3x8xf32>
  %10 = graph.mul %x, %cc : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  %11 = graph.add %10, %9 : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  return %6, %11 : tensor<3x8xf32>, tensor<3x8xf32>
}

// -----

// Negative: the sigmoid of y gates x (a GLU, not a SiLU).
// CHECK-LABEL: func.func @silu_sigmoid_of_other_value
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8xf32>, %[[G:[^:]+]]: tensor<2x8xf32>)
// CHECK-NOT: graph.silu
// CHECK: %[[S:.*]] = graph.sigmoid %[[G]]
// CHECK-NEXT: %[[Y:.*]] = graph.mul %[[X]], %[[S]]
// CHECK-NEXT: return %[[Y]]
func.func @silu_sigmoid_of_other_value(%x: tensor<2x8xf32>, %g: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = graph.sigmoid %g : tensor<2x8xf32>
  %1 = graph.mul %x, %0 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// -----

//===----------------------------------------------------------------------===//
// GELU
//===----------------------------------------------------------------------===//

// The tanh form as PyTorch exports GPT-2's NewGELU:
// (x * 0.5) * (1 + tanh(0.7978845608 * (x + 0.044715 * pow(x, 3)))).
// CHECK-LABEL: func.func @gelu_tanh_half_first
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x256xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.gelu %[[X]] {approximate = "tanh"} : tensor<2x8x256xf32>
// CHECK-NEXT: return %[[Y]]
func.func @gelu_tanh_half_first(%x: tensor<2x8x256xf32>) -> tensor<2x8x256xf32> {
  %half = graph.constant dense<0.5> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<f32>
  %k = graph.constant dense<0.044715> : tensor<f32>
  %c = graph.constant dense<0.7978845608028654> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.mul %x, %half : (tensor<2x8x256xf32>, tensor<f32>) -> tensor<2x8x256xf32>
  %1 = graph.pow %x, %three : (tensor<2x8x256xf32>, tensor<f32>) -> tensor<2x8x256xf32>
  %2 = graph.mul %1, %k : (tensor<2x8x256xf32>, tensor<f32>) -> tensor<2x8x256xf32>
  %3 = graph.add %x, %2 : (tensor<2x8x256xf32>, tensor<2x8x256xf32>) -> tensor<2x8x256xf32>
  %4 = graph.mul %3, %c : (tensor<2x8x256xf32>, tensor<f32>) -> tensor<2x8x256xf32>
  %5 = graph.tanh %4 : tensor<2x8x256xf32>
  %6 = graph.add %5, %one : (tensor<2x8x256xf32>, tensor<f32>) -> tensor<2x8x256xf32>
  %7 = graph.mul %0, %6 : (tensor<2x8x256xf32>, tensor<2x8x256xf32>) -> tensor<2x8x256xf32>
  return %7 : tensor<2x8x256xf32>
}

// -----

// x * (0.5 * (1 + tanh(...))), every commutative operand swapped: 0.5 * x is
// not used, constants come first, 1 + tanh and cube + x.
// CHECK-LABEL: func.func @gelu_tanh_half_inside
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x64xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.gelu %[[X]] {approximate = "tanh"} : tensor<4x64xf32>
// CHECK-NEXT: return %[[Y]]
func.func @gelu_tanh_half_inside(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %half = graph.constant dense<0.5> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<f32>
  %k = graph.constant dense<0.044715> : tensor<f32>
  %c = graph.constant dense<0.7978846> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.pow %x, %three : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = graph.mul %k, %0 : (tensor<f32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %2 = graph.add %1, %x : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %3 = graph.mul %c, %2 : (tensor<f32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %4 = graph.tanh %3 : tensor<4x64xf32>
  %5 = graph.add %one, %4 : (tensor<f32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %6 = graph.mul %half, %5 : (tensor<f32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %7 = graph.mul %x, %6 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %7 : tensor<4x64xf32>
}

// -----

// (x * (1 + tanh(...))) * 0.5.
// CHECK-LABEL: func.func @gelu_tanh_half_last
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x64xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.gelu %[[X]] {approximate = "tanh"} : tensor<4x64xf32>
// CHECK-NEXT: return %[[Y]]
func.func @gelu_tanh_half_last(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %half = graph.constant dense<0.5> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<f32>
  %k = graph.constant dense<0.044715> : tensor<f32>
  %c = graph.constant dense<0.7978845608028654> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.pow %x, %three : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = graph.mul %0, %k : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %2 = graph.add %x, %1 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %3 = graph.mul %2, %c : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %4 = graph.tanh %3 : tensor<4x64xf32>
  %5 = graph.add %4, %one : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %6 = graph.mul %5, %x : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %7 = graph.mul %6, %half : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  return %7 : tensor<4x64xf32>
}

// -----

// The tanh form in f16: the constants hold sqrt(2/pi) and 0.044715 rounded to
// f16 (0.797852 and 0.0447083), further from the exact values than the f32
// tolerance.
// CHECK-LABEL: func.func @gelu_tanh_f16
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x64xf16>)
// CHECK-NEXT: %[[Y:.*]] = graph.gelu %[[X]] {approximate = "tanh"} : tensor<4x64xf16>
// CHECK-NEXT: return %[[Y]]
func.func @gelu_tanh_f16(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %half = graph.constant dense<0.5> : tensor<f16>
  %three = graph.constant dense<3.0> : tensor<f16>
  %k = graph.constant dense<0.044715> : tensor<f16>
  %c = graph.constant dense<0.7978845608028654> : tensor<f16>
  %one = graph.constant dense<1.0> : tensor<f16>
  %0 = graph.mul %x, %half : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
  %1 = graph.pow %x, %three : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
  %2 = graph.mul %1, %k : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
  %3 = graph.add %x, %2 : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  %4 = graph.mul %3, %c : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
  %5 = graph.tanh %4 : tensor<4x64xf16>
  %6 = graph.add %5, %one : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
  %7 = graph.mul %0, %6 : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %7 : tensor<4x64xf16>
}

// -----

// The erf form: (x * 0.5) * (1 + erf(x / sqrt(2))).
// CHECK-LABEL: func.func @gelu_erf_div
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x64xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.gelu %[[X]] : tensor<4x64xf32>
// CHECK-NEXT: return %[[Y]]
func.func @gelu_erf_div(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %sqrt2 = graph.constant dense<1.4142135623730951> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %0 = graph.div %x, %sqrt2 : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = graph.erf %0 : tensor<4x64xf32>
  %2 = graph.add %1, %one : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %3 = graph.mul %x, %half : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %4 = graph.mul %3, %2 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %4 : tensor<4x64xf32>
}

// -----

// The erf form with x * (1 / sqrt(2)) and the 0.5 applied last.
// CHECK-LABEL: func.func @gelu_erf_mul
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x64xf32>)
// CHECK-NEXT: %[[Y:.*]] = graph.gelu %[[X]] : tensor<4x64xf32>
// CHECK-NEXT: return %[[Y]]
func.func @gelu_erf_mul(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %rsqrt2 = graph.constant dense<0.7071067811865476> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %0 = graph.mul %rsqrt2, %x : (tensor<f32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %1 = graph.erf %0 : tensor<4x64xf32>
  %2 = graph.add %one, %1 : (tensor<f32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %3 = graph.mul %x, %2 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %4 = graph.mul %half, %3 : (tensor<f32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %4 : tensor<4x64xf32>
}

// -----

// The erf form in bf16, whose sqrt(2) is 1.4140625.
// CHECK-LABEL: func.func @gelu_erf_bf16
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x64xbf16>)
// CHECK-NEXT: %[[Y:.*]] = graph.gelu %[[X]] : tensor<4x64xbf16>
// CHECK-NEXT: return %[[Y]]
func.func @gelu_erf_bf16(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
  %sqrt2 = graph.constant dense<1.4142135623730951> : tensor<bf16>
  %one = graph.constant dense<1.0> : tensor<bf16>
  %half = graph.constant dense<0.5> : tensor<bf16>
  %0 = graph.div %x, %sqrt2 : (tensor<4x64xbf16>, tensor<bf16>) -> tensor<4x64xbf16>
  %1 = graph.erf %0 : tensor<4x64xbf16>
  %2 = graph.add %1, %one : (tensor<4x64xbf16>, tensor<bf16>) -> tensor<4x64xbf16>
  %3 = graph.mul %half, %2 : (tensor<bf16>, tensor<4x64xbf16>) -> tensor<4x64xbf16>
  %4 = graph.mul %x, %3 : (tensor<4x64xbf16>, tensor<4x64xbf16>) -> tensor<4x64xbf16>
  return %4 : tensor<4x64xbf16>
}

// -----

// Negative: 0.04 instead of 0.044715.
// CHECK-LABEL: func.func @gelu_tanh_wrong_cubic_coefficient
// CHECK-NOT: graph.gelu
// CHECK: graph.tanh
// CHECK-NOT: graph.gelu
// CHECK: return
func.func @gelu_tanh_wrong_cubic_coefficient(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %half = graph.constant dense<0.5> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<f32>
  %k = graph.constant dense<0.04> : tensor<f32>
  %c = graph.constant dense<0.7978845608028654> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.mul %x, %half : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = graph.pow %x, %three : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %2 = graph.mul %1, %k : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %3 = graph.add %x, %2 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %4 = graph.mul %3, %c : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %5 = graph.tanh %4 : tensor<4x64xf32>
  %6 = graph.add %5, %one : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %7 = graph.mul %0, %6 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %7 : tensor<4x64xf32>
}

// -----

// Negative: 0.04 instead of 0.044715 in f16: rounding to the constant's type
// accepts f16(0.044715) only.
// CHECK-LABEL: func.func @gelu_tanh_f16_wrong_cubic_coefficient
// CHECK-NOT: graph.gelu
// CHECK: graph.tanh
// CHECK-NOT: graph.gelu
// CHECK: return
func.func @gelu_tanh_f16_wrong_cubic_coefficient(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %half = graph.constant dense<0.5> : tensor<f16>
  %three = graph.constant dense<3.0> : tensor<f16>
  %k = graph.constant dense<0.04> : tensor<f16>
  %c = graph.constant dense<0.7978845608028654> : tensor<f16>
  %one = graph.constant dense<1.0> : tensor<f16>
  %0 = graph.mul %x, %half : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
  %1 = graph.pow %x, %three : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
  %2 = graph.mul %1, %k : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
  %3 = graph.add %x, %2 : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  %4 = graph.mul %3, %c : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
  %5 = graph.tanh %4 : tensor<4x64xf16>
  %6 = graph.add %5, %one : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
  %7 = graph.mul %0, %6 : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %7 : tensor<4x64xf16>
}

// -----

// Negative: 0.8 is not sqrt(2/pi).
// CHECK-LABEL: func.func @gelu_tanh_wrong_scale
// CHECK-NOT: graph.gelu
// CHECK: graph.tanh
// CHECK-NOT: graph.gelu
// CHECK: return
func.func @gelu_tanh_wrong_scale(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %half = graph.constant dense<0.5> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<f32>
  %k = graph.constant dense<0.044715> : tensor<f32>
  %c = graph.constant dense<0.8> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.mul %x, %half : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = graph.pow %x, %three : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %2 = graph.mul %1, %k : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %3 = graph.add %x, %2 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %4 = graph.mul %3, %c : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %5 = graph.tanh %4 : tensor<4x64xf32>
  %6 = graph.add %5, %one : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %7 = graph.mul %0, %6 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %7 : tensor<4x64xf32>
}

// -----

// Negative: pow(x, 2) instead of the cube.
// CHECK-LABEL: func.func @gelu_tanh_square_not_cube
// CHECK-NOT: graph.gelu
// CHECK: graph.tanh
// CHECK-NOT: graph.gelu
// CHECK: return
func.func @gelu_tanh_square_not_cube(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %half = graph.constant dense<0.5> : tensor<f32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %k = graph.constant dense<0.044715> : tensor<f32>
  %c = graph.constant dense<0.7978845608028654> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.mul %x, %half : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = graph.pow %x, %two : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %2 = graph.mul %1, %k : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %3 = graph.add %x, %2 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %4 = graph.mul %3, %c : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %5 = graph.tanh %4 : tensor<4x64xf32>
  %6 = graph.add %5, %one : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %7 = graph.mul %0, %6 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %7 : tensor<4x64xf32>
}

// -----

// Negative: the tanh argument is built from y, the outer product uses x.
// CHECK-LABEL: func.func @gelu_tanh_of_other_value
// CHECK-NOT: graph.gelu
// CHECK: graph.tanh
// CHECK-NOT: graph.gelu
// CHECK: return
func.func @gelu_tanh_of_other_value(%x: tensor<4x64xf32>, %y: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %half = graph.constant dense<0.5> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<f32>
  %k = graph.constant dense<0.044715> : tensor<f32>
  %c = graph.constant dense<0.7978845608028654> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.mul %x, %half : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = graph.pow %y, %three : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %2 = graph.mul %1, %k : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %3 = graph.add %y, %2 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %4 = graph.mul %3, %c : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %5 = graph.tanh %4 : tensor<4x64xf32>
  %6 = graph.add %5, %one : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %7 = graph.mul %0, %6 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %7 : tensor<4x64xf32>
}

// -----

// Negative: 0.6 * x instead of 0.5 * x.
// CHECK-LABEL: func.func @gelu_erf_wrong_half
// CHECK-NOT: graph.gelu
// CHECK: graph.erf
// CHECK-NOT: graph.gelu
// CHECK: return
func.func @gelu_erf_wrong_half(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %sqrt2 = graph.constant dense<1.4142135623730951> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %half = graph.constant dense<0.6> : tensor<f32>
  %0 = graph.div %x, %sqrt2 : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = graph.erf %0 : tensor<4x64xf32>
  %2 = graph.add %1, %one : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %3 = graph.mul %x, %half : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %4 = graph.mul %3, %2 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %4 : tensor<4x64xf32>
}

// -----

// Negative: x / 2 is not x / sqrt(2).
// CHECK-LABEL: func.func @gelu_erf_wrong_divisor
// CHECK-NOT: graph.gelu
// CHECK: graph.erf
// CHECK-NOT: graph.gelu
// CHECK: return
func.func @gelu_erf_wrong_divisor(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %0 = graph.div %x, %two : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = graph.erf %0 : tensor<4x64xf32>
  %2 = graph.add %1, %one : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %3 = graph.mul %x, %half : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %4 = graph.mul %3, %2 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %4 : tensor<4x64xf32>
}

// -----

// Negative: 2 + erf(...) instead of 1 + erf(...).
// CHECK-LABEL: func.func @gelu_erf_wrong_offset
// CHECK-NOT: graph.gelu
// CHECK: graph.erf
// CHECK-NOT: graph.gelu
// CHECK: return
func.func @gelu_erf_wrong_offset(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %sqrt2 = graph.constant dense<1.4142135623730951> : tensor<f32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %0 = graph.div %x, %sqrt2 : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = graph.erf %0 : tensor<4x64xf32>
  %2 = graph.add %1, %two : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %3 = graph.mul %x, %half : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %4 = graph.mul %3, %2 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %4 : tensor<4x64xf32>
}

// -----

// The next-token shift of the logits: the slice moves onto the product's
// rows, so the head computes only the kept positions.
// CHECK-LABEL: func.func @slice_of_product
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x16xf32>, %[[W:[^:]+]]: tensor<16x50xf32>)
// CHECK-NEXT: %[[R:.*]] = graph.slice %[[X]], starts = [0, 0, 0], limits = [2, 7, 16], steps = [1, 1, 1] : tensor<2x8x16xf32> -> tensor<2x7x16xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.matmul %[[R]], %[[W]] : (tensor<2x7x16xf32>, tensor<16x50xf32>) -> tensor<2x7x50xf32>
// CHECK-NEXT: return %[[Y]]
func.func @slice_of_product(%x: tensor<2x8x16xf32>, %w: tensor<16x50xf32>) -> tensor<2x7x50xf32> {
  %0 = graph.matmul %x, %w : (tensor<2x8x16xf32>, tensor<16x50xf32>) -> tensor<2x8x50xf32>
  %1 = graph.slice %0, starts = [0, 0, 0], limits = [2, 7, 50], steps = [1, 1, 1] : tensor<2x8x50xf32> -> tensor<2x7x50xf32>
  return %1 : tensor<2x7x50xf32>
}

// -----

// The last position with a stride on the batch: any slice of the leading
// dims moves.
// CHECK-LABEL: func.func @slice_of_product_last_position
// CHECK: graph.slice %arg0, starts = [0, 7, 0], limits = [4, 8, 16], steps = [2, 1, 1] : tensor<4x8x16xf32> -> tensor<2x1x16xf32>
// CHECK-NEXT: graph.matmul %{{.*}}, %arg1 : (tensor<2x1x16xf32>, tensor<16x50xf32>) -> tensor<2x1x50xf32>
func.func @slice_of_product_last_position(%x: tensor<4x8x16xf32>, %w: tensor<16x50xf32>) -> tensor<2x1x50xf32> {
  %0 = graph.matmul %x, %w : (tensor<4x8x16xf32>, tensor<16x50xf32>) -> tensor<4x8x50xf32>
  %1 = graph.slice %0, starts = [0, 7, 0], limits = [4, 8, 50], steps = [2, 1, 1] : tensor<4x8x50xf32> -> tensor<2x1x50xf32>
  return %1 : tensor<2x1x50xf32>
}

// -----

// Not moved: the slice cuts the output features, the product has another
// user, or the right operand is batched.
// CHECK-LABEL: func.func @slice_of_product_kept
// CHECK-COUNT-3: graph.matmul %arg{{[0-9]}}, %arg
// CHECK-NOT: graph.matmul
func.func @slice_of_product_kept(%x: tensor<2x8x16xf32>, %w: tensor<16x50xf32>, %wb: tensor<2x16x50xf32>)
    -> (tensor<2x8x10xf32>, tensor<2x7x50xf32>, tensor<2x8x50xf32>, tensor<2x7x50xf32>) {
  %0 = graph.matmul %x, %w : (tensor<2x8x16xf32>, tensor<16x50xf32>) -> tensor<2x8x50xf32>
  %1 = graph.slice %0, starts = [0, 0, 0], limits = [2, 8, 10], steps = [1, 1, 1] : tensor<2x8x50xf32> -> tensor<2x8x10xf32>
  %2 = graph.matmul %x, %w : (tensor<2x8x16xf32>, tensor<16x50xf32>) -> tensor<2x8x50xf32>
  %3 = graph.slice %2, starts = [0, 0, 0], limits = [2, 7, 50], steps = [1, 1, 1] : tensor<2x8x50xf32> -> tensor<2x7x50xf32>
  %4 = graph.matmul %x, %wb : (tensor<2x8x16xf32>, tensor<2x16x50xf32>) -> tensor<2x8x50xf32>
  %5 = graph.slice %4, starts = [0, 0, 0], limits = [2, 7, 50], steps = [1, 1, 1] : tensor<2x8x50xf32> -> tensor<2x7x50xf32>
  return %1, %3, %2, %5 : tensor<2x8x10xf32>, tensor<2x7x50xf32>, tensor<2x8x50xf32>, tensor<2x7x50xf32>
}

//===----------------------------------------------------------------------===//
// Softmax and log-softmax as JAX writes them
//===----------------------------------------------------------------------===//

// jax.nn.softmax: exp(x - max(max(x), -inf)) / sum(...), the reductions
// without keepdims and broadcast back by reshape and expand.
// CHECK-LABEL: func.func @softmax_jax
// CHECK-NEXT: %[[S:.*]] = graph.softmax %arg0 {axis = 2 : i64} : tensor<2x4x8xf32>
// CHECK-NEXT: return %[[S]]
func.func @softmax_jax(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %ninf = graph.constant dense<0xFF800000> : tensor<2x4xf32>
  %m = graph.reduce_max %x, [2] {keepdims = false} : tensor<2x4x8xf32> -> tensor<2x4xf32>
  %mi = graph.max %m, %ninf : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %mr = graph.reshape %mi : tensor<2x4xf32> -> tensor<2x4x1xf32>
  %mb = graph.expand %mr : tensor<2x4x1xf32> -> tensor<2x4x8xf32>
  %d = graph.sub %x, %mb : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %e = graph.exp %d : tensor<2x4x8xf32>
  %s = graph.reduce_sum %e, [2] {keepdims = false} : tensor<2x4x8xf32> -> tensor<2x4xf32>
  %sr = graph.reshape %s : tensor<2x4xf32> -> tensor<2x4x1xf32>
  %sb = graph.expand %sr : tensor<2x4x1xf32> -> tensor<2x4x8xf32>
  %p = graph.div %e, %sb : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %p : tensor<2x4x8xf32>
}

// -----

// keepdims reductions broadcast by the ops themselves.
// CHECK-LABEL: func.func @softmax_keepdims
// CHECK-NEXT: %[[S:.*]] = graph.softmax %arg0 {axis = 1 : i64} : tensor<4x8xf32>
// CHECK-NEXT: return %[[S]]
func.func @softmax_keepdims(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = graph.reduce_max %x, [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = graph.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %e = graph.exp %d : tensor<4x8xf32>
  %s = graph.reduce_sum %e, [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = graph.div %e, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -----

// jax.nn.softmax of bf16: exp in bf16, its sum taken in f32 and cast back.
// CHECK-LABEL: func.func @softmax_jax_bf16
// CHECK-NEXT: %[[S:.*]] = graph.softmax %arg0 {axis = 1 : i64} : tensor<4x8xbf16>
// CHECK-NEXT: return %[[S]]
func.func @softmax_jax_bf16(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %m = graph.reduce_max %x, [1] {keepdims = false} : tensor<4x8xbf16> -> tensor<4xbf16>
  %mr = graph.reshape %m : tensor<4xbf16> -> tensor<4x1xbf16>
  %mb = graph.expand %mr : tensor<4x1xbf16> -> tensor<4x8xbf16>
  %d = graph.sub %x, %mb : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %e = graph.exp %d : tensor<4x8xbf16>
  %ew = graph.cast %e : tensor<4x8xbf16> -> tensor<4x8xf32>
  %s = graph.reduce_sum %ew, [1] {keepdims = false} : tensor<4x8xf32> -> tensor<4xf32>
  %sr = graph.reshape %s : tensor<4xf32> -> tensor<4x1xf32>
  %sn = graph.cast %sr : tensor<4x1xf32> -> tensor<4x1xbf16>
  %sb = graph.expand %sn : tensor<4x1xbf16> -> tensor<4x8xbf16>
  %p = graph.div %e, %sb : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %p : tensor<4x8xbf16>
}

// -----

// A sum of e cast to an integer is no softmax's.
// CHECK-LABEL: func.func @softmax_integer_sum
// CHECK-NOT: graph.softmax
// CHECK: graph.div
func.func @softmax_integer_sum(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = graph.reduce_max %x, [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = graph.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %e = graph.exp %d : tensor<4x8xf32>
  %ei = graph.cast %e : tensor<4x8xf32> -> tensor<4x8xi32>
  %s = graph.reduce_sum %ei, [1] : tensor<4x8xi32> -> tensor<4x1xi32>
  %sf = graph.cast %s : tensor<4x1xi32> -> tensor<4x1xf32>
  %p = graph.div %e, %sf : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -----

// jax.nn.log_softmax: s - log(sum(exp(s))), s = x - max(x).
// CHECK-LABEL: func.func @log_softmax_jax
// CHECK-NEXT: %[[S:.*]] = graph.log_softmax %arg0 {axis = 1 : i64} : tensor<4x8xf32>
// CHECK-NEXT: return %[[S]]
func.func @log_softmax_jax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = graph.reduce_max %x, [1] {keepdims = false} : tensor<4x8xf32> -> tensor<4xf32>
  %mr = graph.reshape %m : tensor<4xf32> -> tensor<4x1xf32>
  %mb = graph.expand %mr : tensor<4x1xf32> -> tensor<4x8xf32>
  %d = graph.sub %x, %mb : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = graph.exp %d : tensor<4x8xf32>
  %s = graph.reduce_sum %e, [1] {keepdims = false} : tensor<4x8xf32> -> tensor<4xf32>
  %sr = graph.reshape %s : tensor<4xf32> -> tensor<4x1xf32>
  %l = graph.log %sr : tensor<4x1xf32>
  %lb = graph.expand %l : tensor<4x1xf32> -> tensor<4x8xf32>
  %r = graph.sub %d, %lb : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Look-alikes stay: the max of another value, the sum along another axis.
// CHECK-LABEL: func.func @softmax_other_max
// CHECK-NOT: graph.softmax
// CHECK: graph.div
func.func @softmax_other_max(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = graph.reduce_max %y, [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = graph.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %e = graph.exp %d : tensor<4x8xf32>
  %s = graph.reduce_sum %e, [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = graph.div %e, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_sum_other_axis
// CHECK-NOT: graph.softmax
// CHECK: graph.div
func.func @softmax_sum_other_axis(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = graph.reduce_max %x, [1] : tensor<8x8xf32> -> tensor<8x1xf32>
  %d = graph.sub %x, %m : (tensor<8x8xf32>, tensor<8x1xf32>) -> tensor<8x8xf32>
  %e = graph.exp %d : tensor<8x8xf32>
  %s = graph.reduce_sum %e, [0] : tensor<8x8xf32> -> tensor<1x8xf32>
  %p = graph.div %e, %s : (tensor<8x8xf32>, tensor<1x8xf32>) -> tensor<8x8xf32>
  return %p : tensor<8x8xf32>
}

// -----

// Phi-3's rotary embedding over the whole head dim: the rotated part is a
// slice keeping every element, the pass-through part an empty slice, and
// their concatenation the rotated part alone.
// CHECK-LABEL: func.func @whole_slice_and_empty_concat
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x16x8xf32>)
// CHECK-NOT: graph.slice
// CHECK-NOT: graph.concat
// CHECK: %[[N:.*]] = graph.neg %[[X]]
// CHECK: return %[[N]]
func.func @whole_slice_and_empty_concat(%x: tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32> {
  %rot = graph.slice %x, starts = [0, 0, 0, 0], limits = [2, 4, 16, 8], steps = [1, 1, 1, 1] : tensor<2x4x16x8xf32> -> tensor<2x4x16x8xf32>
  %pass = graph.slice %x, starts = [0, 0, 0, 0], limits = [2, 4, 16, 0], steps = [1, 1, 1, 1] : tensor<2x4x16x8xf32> -> tensor<2x4x16x0xf32>
  %n = graph.neg %rot : tensor<2x4x16x8xf32>
  %y = graph.concat %n, %pass {axis = 3 : i64} : (tensor<2x4x16x8xf32>, tensor<2x4x16x0xf32>) -> tensor<2x4x16x8xf32>
  return %y : tensor<2x4x16x8xf32>
}

// -----

// Left alone: a reversing slice keeps the shape but not the order, and a
// concatenation of two non-empty parts stays.
// CHECK-LABEL: func.func @reversed_slice_kept
// CHECK: graph.slice
// CHECK: graph.concat
func.func @reversed_slice_kept(%x: tensor<4xf32>) -> tensor<8xf32> {
  %r = graph.slice %x, starts = [3], limits = [-1], steps = [-1] : tensor<4xf32> -> tensor<4xf32>
  %y = graph.concat %r, %x {axis = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

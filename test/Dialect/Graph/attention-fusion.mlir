// RUN: paracc-opt %s -split-input-file --paracc-graph-fusion | FileCheck %s

// The exporters' attention chain
//   matmul(softmax(mask(scale * matmul(q, transpose(k)))), v)
// becomes graph.attention: the scale constants (on the scores, or on q and k,
// multiplied or divided) fold into `scale`, a constant causal mask (additive,
// or a where with a very negative fill) becomes `causal = true`, any other
// additive mask stays an operand and a constant where-mask becomes an
// additive 0/-inf mask. Look-alikes that compute something else stay as they
// are, and the pass does not fail on them.

//===----------------------------------------------------------------------===//
// Fused
//===----------------------------------------------------------------------===//

// GPT-2's export: scores / sqrt(D), where(causal, scores, finfo.min).
// CHECK-LABEL: func.func @gpt2_causal_where
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<2x4x8x16xf32>, %[[K:[^:]+]]: tensor<2x4x8x16xf32>, %[[V:[^:]+]]: tensor<2x4x8x32xf32>)
// CHECK-NEXT: %[[A:.*]] = graph.attention %[[Q]], %[[K]], %[[V]] {causal = true, scale = 2.500000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>) -> tensor<2x4x8x32xf32>
// CHECK-NEXT: return %[[A]]
func.func @gpt2_causal_where(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x16xf32>, %v: tensor<2x4x8x32xf32>) -> tensor<2x4x8x32xf32> {
  %d = graph.constant dense<4.0> : tensor<f32>
  %c = graph.constant dense<[[[[true, false, false, false, false, false, false, false],
                               [true, true, false, false, false, false, false, false],
                               [true, true, true, false, false, false, false, false],
                               [true, true, true, true, false, false, false, false],
                               [true, true, true, true, true, false, false, false],
                               [true, true, true, true, true, true, false, false],
                               [true, true, true, true, true, true, true, false],
                               [true, true, true, true, true, true, true, true]]]]> : tensor<1x1x8x8xi1>
  %fill = graph.constant dense<-3.40282347E+38> : tensor<f32>
  %kt = graph.transpose %k, [0, 1, 3, 2] : tensor<2x4x8x16xf32> -> tensor<2x4x16x8xf32>
  %s = graph.matmul %q, %kt : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %sd = graph.div %s, %d : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
  %m = graph.where %c, %sd, %fill : (tensor<1x1x8x8xi1>, tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
  %p = graph.softmax %m {axis = 3 : i64} : tensor<2x4x8x8xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x8x8xf32>, tensor<2x4x8x32xf32>) -> tensor<2x4x8x32xf32>
  return %o : tensor<2x4x8x32xf32>
}

// -----

// torch's scaled_dot_product_attention export: sqrt(scale) on q and on k^T
// (scale = 0.5 * 0.5), an additive 0/-inf causal mask, and the NaN guard
// where(is_nan(p), 0, p) after the softmax.
// CHECK-LABEL: func.func @sdpa_causal_add_nan_guard
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<1x2x4x8xf32>, %[[K:[^:]+]]: tensor<1x2x4x8xf32>, %[[V:[^:]+]]: tensor<1x2x4x8xf32>)
// CHECK-NEXT: %[[A:.*]] = graph.attention %[[Q]], %[[K]], %[[V]] {causal = true, scale = 2.500000e-01 : f64} : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
// CHECK-NEXT: return %[[A]]
func.func @sdpa_causal_add_nan_guard(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %half = graph.constant dense<0.5> : tensor<f32>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %mask = graph.constant dense<[[0.0, 0xFF800000, 0xFF800000, 0xFF800000],
                                [0.0, 0.0, 0xFF800000, 0xFF800000],
                                [0.0, 0.0, 0.0, 0xFF800000],
                                [0.0, 0.0, 0.0, 0.0]]> : tensor<4x4xf32>
  %qs = graph.mul %q, %half : (tensor<1x2x4x8xf32>, tensor<f32>) -> tensor<1x2x4x8xf32>
  %kt = graph.transpose %k, [0, 1, 3, 2] : tensor<1x2x4x8xf32> -> tensor<1x2x8x4xf32>
  %kts = graph.mul %half, %kt : (tensor<f32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
  %s = graph.matmul %qs, %kts : (tensor<1x2x4x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32>
  %sm = graph.add %s, %mask : (tensor<1x2x4x4xf32>, tensor<4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<1x2x4x4xf32>
  %nan = graph.is_nan %p : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xi1>
  %g = graph.where %nan, %zero, %p : (tensor<1x2x4x4xi1>, tensor<f32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %o = graph.matmul %g, %v : (tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// No mask; the scale multiplies the scores from the left, twice.
// CHECK-LABEL: func.func @no_mask_scale_mul
// CHECK-NEXT: %[[A:.*]] = graph.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.250000e-01 : f64} : (tensor<3x6x16xf32>, tensor<3x6x16xf32>, tensor<3x6x4xf32>) -> tensor<3x6x4xf32>
// CHECK-NEXT: return %[[A]]
func.func @no_mask_scale_mul(%q: tensor<3x6x16xf32>, %k: tensor<3x6x16xf32>, %v: tensor<3x6x4xf32>) -> tensor<3x6x4xf32> {
  %c = graph.constant dense<0.25> : tensor<f32>
  %c2 = graph.constant dense<0.5> : tensor<1x1x1xf32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<3x6x16xf32> -> tensor<3x16x6xf32>
  %s = graph.matmul %q, %kt : (tensor<3x6x16xf32>, tensor<3x16x6xf32>) -> tensor<3x6x6xf32>
  %s1 = graph.mul %c, %s : (tensor<f32>, tensor<3x6x6xf32>) -> tensor<3x6x6xf32>
  %s2 = graph.mul %s1, %c2 : (tensor<3x6x6xf32>, tensor<1x1x1xf32>) -> tensor<3x6x6xf32>
  %p = graph.softmax %s2 {axis = 2 : i64} : tensor<3x6x6xf32>
  %o = graph.matmul %p, %v : (tensor<3x6x6xf32>, tensor<3x6x4xf32>) -> tensor<3x6x4xf32>
  return %o : tensor<3x6x4xf32>
}

// -----

// No scale at all: scale = 1.
// CHECK-LABEL: func.func @no_scale
// CHECK-NEXT: graph.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f64}
// CHECK-NOT: graph.softmax
func.func @no_scale(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %kt = graph.transpose %k, [0, 2, 1] : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
  %s = graph.matmul %q, %kt : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  %p = graph.softmax %s {axis = 2 : i64} : tensor<2x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// A padding mask [B, 1, 1, Sk] that is not a constant stays the mask operand
// (on either side of the add); not causal.
// CHECK-LABEL: func.func @padding_mask_operand
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<2x4x8x16xf32>, %[[K:[^:]+]]: tensor<2x4x8x16xf32>, %[[V:[^:]+]]: tensor<2x4x8x16xf32>, %[[M:[^:]+]]: tensor<2x1x1x8xf32>)
// CHECK-NEXT: %[[A:.*]] = graph.attention %[[Q]], %[[K]], %[[V]], %[[M]] {scale = 2.500000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x1x1x8xf32>) -> tensor<2x4x8x16xf32>
// CHECK-NEXT: return %[[A]]
func.func @padding_mask_operand(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x16xf32>, %v: tensor<2x4x8x16xf32>, %m: tensor<2x1x1x8xf32>) -> tensor<2x4x8x16xf32> {
  %d = graph.constant dense<4.0> : tensor<f32>
  %kt = graph.transpose %k, [0, 1, 3, 2] : tensor<2x4x8x16xf32> -> tensor<2x4x16x8xf32>
  %s = graph.matmul %q, %kt : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %sd = graph.div %s, %d : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
  %sm = graph.add %m, %sd : (tensor<2x1x1x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<2x4x8x8xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// A constant additive mask that is not causal (the upper triangle is open,
// the diagonal closed) stays an operand, with causal = false.
// CHECK-LABEL: func.func @constant_mask_not_causal
// CHECK: %[[M:.*]] = graph.constant dense<{{\[}}[-1.000000e+09, 0.000000e+00], [0.000000e+00, -1.000000e+09]]> : tensor<2x2xf32>
// CHECK: %[[A:.*]] = graph.attention %{{.*}}, %{{.*}}, %{{.*}}, %[[M]] {scale = 1.000000e+00 : f64} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<2x2xf32>) -> tensor<1x2x4xf32>
// CHECK-NOT: causal
// CHECK: return %[[A]]
func.func @constant_mask_not_causal(%q: tensor<1x2x4xf32>, %k: tensor<1x2x4xf32>, %v: tensor<1x2x4xf32>) -> tensor<1x2x4xf32> {
  %mask = graph.constant dense<[[-1.0e9, 0.0], [0.0, -1.0e9]]> : tensor<2x2xf32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<1x2x4xf32> -> tensor<1x4x2xf32>
  %s = graph.matmul %q, %kt : (tensor<1x2x4xf32>, tensor<1x4x2xf32>) -> tensor<1x2x2xf32>
  %sm = graph.add %s, %mask : (tensor<1x2x2xf32>, tensor<2x2xf32>) -> tensor<1x2x2xf32>
  %p = graph.softmax %sm {axis = 2 : i64} : tensor<1x2x2xf32>
  %o = graph.matmul %p, %v : (tensor<1x2x2xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  return %o : tensor<1x2x4xf32>
}

// -----

// A constant where-mask that is not causal becomes an additive 0/-inf mask
// of the condition's shape (every row keeps a key).
// CHECK-LABEL: func.func @where_mask_not_causal
// CHECK: %[[M:.*]] = graph.constant dense<{{\[}}[0.000000e+00, 0xFF800000, 0.000000e+00], [0xFF800000, 0.000000e+00, 0.000000e+00]]> : tensor<2x3xf32>
// CHECK-NEXT: %[[A:.*]] = graph.attention %{{.*}}, %{{.*}}, %{{.*}}, %[[M]] {scale = 1.000000e+00 : f64} : (tensor<4x2x8xf32>, tensor<4x3x8xf32>, tensor<4x3x8xf32>, tensor<2x3xf32>) -> tensor<4x2x8xf32>
// CHECK-NOT: graph.where
// CHECK: return %[[A]]
func.func @where_mask_not_causal(%q: tensor<4x2x8xf32>, %k: tensor<4x3x8xf32>, %v: tensor<4x3x8xf32>) -> tensor<4x2x8xf32> {
  %c = graph.constant dense<[[true, false, true], [false, true, true]]> : tensor<2x3xi1>
  %fill = graph.constant dense<-1.0e9> : tensor<f32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<4x3x8xf32> -> tensor<4x8x3xf32>
  %s = graph.matmul %q, %kt : (tensor<4x2x8xf32>, tensor<4x8x3xf32>) -> tensor<4x2x3xf32>
  %sm = graph.where %c, %s, %fill : (tensor<2x3xi1>, tensor<4x2x3xf32>, tensor<f32>) -> tensor<4x2x3xf32>
  %p = graph.softmax %sm {axis = 2 : i64} : tensor<4x2x3xf32>
  %o = graph.matmul %p, %v : (tensor<4x2x3xf32>, tensor<4x3x8xf32>) -> tensor<4x2x8xf32>
  return %o : tensor<4x2x8xf32>
}

// -----

// Causal with fewer queries than keys (a KV cache): query i sees keys
// j <= i + Sk - Sq. The additive mask uses a finite -1e9.
// CHECK-LABEL: func.func @causal_kv_cache
// CHECK-NEXT: %[[A:.*]] = graph.attention %{{.*}}, %{{.*}}, %{{.*}} {causal = true, scale = 1.000000e+00 : f64} : (tensor<1x2x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x2x8xf32>
// CHECK-NEXT: return %[[A]]
func.func @causal_kv_cache(%q: tensor<1x2x8xf32>, %k: tensor<1x4x8xf32>, %v: tensor<1x4x8xf32>) -> tensor<1x2x8xf32> {
  %mask = graph.constant dense<[[0.0, 0.0, 0.0, -1.0e9], [0.0, 0.0, 0.0, 0.0]]> : tensor<2x4xf32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<1x4x8xf32> -> tensor<1x8x4xf32>
  %s = graph.matmul %q, %kt : (tensor<1x2x8xf32>, tensor<1x8x4xf32>) -> tensor<1x2x4xf32>
  %sm = graph.add %mask, %s : (tensor<2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %p = graph.softmax %sm {axis = 2 : i64} : tensor<1x2x4xf32>
  %o = graph.matmul %p, %v : (tensor<1x2x4xf32>, tensor<1x4x8xf32>) -> tensor<1x2x8xf32>
  return %o : tensor<1x2x8xf32>
}

// -----

// With more queries than keys the first query sees no key: the source gives
// that row a uniform softmax (the fill is finite) where a causal
// graph.attention gives zeros, so the additive mask stays an explicit mask.
// CHECK-LABEL: func.func @causal_more_queries_than_keys
// CHECK: %[[M:.*]] = graph.constant
// CHECK-NEXT: %[[A:.*]] = graph.attention %{{.*}}, %{{.*}}, %{{.*}}, %[[M]] {scale = 1.000000e+00 : f64}
// CHECK-NOT: causal
// CHECK: return %[[A]]
func.func @causal_more_queries_than_keys(%q: tensor<1x3x8xf32>, %k: tensor<1x2x8xf32>, %v: tensor<1x2x8xf32>) -> tensor<1x3x8xf32> {
  %mask = graph.constant dense<[[-1.0e9, -1.0e9], [0.0, -1.0e9], [0.0, 0.0]]> : tensor<3x2xf32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<1x2x8xf32> -> tensor<1x8x2xf32>
  %s = graph.matmul %q, %kt : (tensor<1x3x8xf32>, tensor<1x8x2xf32>) -> tensor<1x3x2xf32>
  %sm = graph.add %s, %mask : (tensor<1x3x2xf32>, tensor<3x2xf32>) -> tensor<1x3x2xf32>
  %p = graph.softmax %sm {axis = 2 : i64} : tensor<1x3x2xf32>
  %o = graph.matmul %p, %v : (tensor<1x3x2xf32>, tensor<1x2x8xf32>) -> tensor<1x3x8xf32>
  return %o : tensor<1x3x8xf32>
}

// -----

// Grouped-query attention as the exporters write it: k and v expanded to the
// query heads before the product. The expansion is kept; the attention sees
// equal heads.
// CHECK-LABEL: func.func @gqa_expanded_kv
// CHECK: %[[KE:.*]] = graph.expand %{{.*}} : tensor<1x2x1x4x8xf32> -> tensor<1x2x2x4x8xf32>
// CHECK: %[[K:.*]] = graph.reshape %[[KE]] : tensor<1x2x2x4x8xf32> -> tensor<1x4x4x8xf32>
// CHECK: %[[VE:.*]] = graph.expand %{{.*}} : tensor<1x2x1x4x8xf32> -> tensor<1x2x2x4x8xf32>
// CHECK: %[[V:.*]] = graph.reshape %[[VE]] : tensor<1x2x2x4x8xf32> -> tensor<1x4x4x8xf32>
// CHECK: %[[A:.*]] = graph.attention %{{.*}}, %[[K]], %[[V]] {causal = true, scale = 5.000000e-01 : f64} : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: return %[[A]]
func.func @gqa_expanded_kv(%q: tensor<1x4x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %c = graph.constant dense<0.5> : tensor<f32>
  %mask = graph.constant dense<[[[[0.0, -1.0e9, -1.0e9, -1.0e9],
                                  [0.0, 0.0, -1.0e9, -1.0e9],
                                  [0.0, 0.0, 0.0, -1.0e9],
                                  [0.0, 0.0, 0.0, 0.0]]]]> : tensor<1x1x4x4xf32>
  %k1 = graph.reshape %k : tensor<1x2x4x8xf32> -> tensor<1x2x1x4x8xf32>
  %k2 = graph.expand %k1 : tensor<1x2x1x4x8xf32> -> tensor<1x2x2x4x8xf32>
  %k3 = graph.reshape %k2 : tensor<1x2x2x4x8xf32> -> tensor<1x4x4x8xf32>
  %v1 = graph.reshape %v : tensor<1x2x4x8xf32> -> tensor<1x2x1x4x8xf32>
  %v2 = graph.expand %v1 : tensor<1x2x1x4x8xf32> -> tensor<1x2x2x4x8xf32>
  %v3 = graph.reshape %v2 : tensor<1x2x2x4x8xf32> -> tensor<1x4x4x8xf32>
  %kt = graph.transpose %k3, [0, 1, 3, 2] : tensor<1x4x4x8xf32> -> tensor<1x4x8x4xf32>
  %s = graph.matmul %q, %kt : (tensor<1x4x4x8xf32>, tensor<1x4x8x4xf32>) -> tensor<1x4x4x4xf32>
  %ss = graph.mul %s, %c : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  %sm = graph.add %ss, %mask : (tensor<1x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x4x4x4xf32>
  %p = graph.softmax %sm {axis = 3 : i64} : tensor<1x4x4x4xf32>
  %o = graph.matmul %p, %v3 : (tensor<1x4x4x4xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %o : tensor<1x4x4x8xf32>
}

// -----

// bf16 throughout: the bf16 scale constant and the bf16 causal mask.
// CHECK-LABEL: func.func @bf16_causal
// CHECK-NEXT: %[[A:.*]] = graph.attention %{{.*}}, %{{.*}}, %{{.*}} {causal = true, scale = 1.250000e-01 : f64} : (tensor<2x2x16xbf16>, tensor<2x2x16xbf16>, tensor<2x2x16xbf16>) -> tensor<2x2x16xbf16>
// CHECK-NEXT: return %[[A]]
func.func @bf16_causal(%q: tensor<2x2x16xbf16>, %k: tensor<2x2x16xbf16>, %v: tensor<2x2x16xbf16>) -> tensor<2x2x16xbf16> {
  %c = graph.constant dense<0.125> : tensor<bf16>
  %mask = graph.constant dense<[[0.0, 0xFF80], [0.0, 0.0]]> : tensor<2x2xbf16>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<2x2x16xbf16> -> tensor<2x16x2xbf16>
  %s = graph.matmul %q, %kt : (tensor<2x2x16xbf16>, tensor<2x16x2xbf16>) -> tensor<2x2x2xbf16>
  %ss = graph.mul %s, %c : (tensor<2x2x2xbf16>, tensor<bf16>) -> tensor<2x2x2xbf16>
  %sm = graph.add %ss, %mask : (tensor<2x2x2xbf16>, tensor<2x2xbf16>) -> tensor<2x2x2xbf16>
  %p = graph.softmax %sm {axis = 2 : i64} : tensor<2x2x2xbf16>
  %o = graph.matmul %p, %v : (tensor<2x2x2xbf16>, tensor<2x2x16xbf16>) -> tensor<2x2x16xbf16>
  return %o : tensor<2x2x16xbf16>
}

// -----

// GPT-2's k^T through reshape/transpose/reshape (the merged batch dims) is a
// transpose of k, and the chain then fuses.
// CHECK-LABEL: func.func @reshaped_transpose
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<2x3x4x8xf32>, %[[K:[^:]+]]: tensor<2x3x4x8xf32>, %[[V:[^:]+]]: tensor<2x3x4x8xf32>)
// CHECK-NEXT: %[[A:.*]] = graph.attention %[[Q]], %[[K]], %[[V]] {scale = 1.000000e+00 : f64}
// CHECK-NEXT: return %[[A]]
func.func @reshaped_transpose(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x4x8xf32>, %v: tensor<2x3x4x8xf32>) -> tensor<2x3x4x8xf32> {
  %k1 = graph.reshape %k : tensor<2x3x4x8xf32> -> tensor<6x4x8xf32>
  %k2 = graph.transpose %k1, [0, 2, 1] : tensor<6x4x8xf32> -> tensor<6x8x4xf32>
  %kt = graph.reshape %k2 : tensor<6x8x4xf32> -> tensor<2x3x8x4xf32>
  %s = graph.matmul %q, %kt : (tensor<2x3x4x8xf32>, tensor<2x3x8x4xf32>) -> tensor<2x3x4x4xf32>
  %p = graph.softmax %s {axis = 3 : i64} : tensor<2x3x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<2x3x4x4xf32>, tensor<2x3x4x8xf32>) -> tensor<2x3x4x8xf32>
  return %o : tensor<2x3x4x8xf32>
}

// -----

// Long sequences: the exporters' [S, S] mask, trilu(ones) cast to bool, is
// too large to fold into a constant and is recognized as built.
// CHECK-LABEL: func.func @causal_trilu_mask
// CHECK-NEXT: %[[A:.*]] = graph.attention %arg0, %arg1, %arg2 {causal = true, scale = 2.500000e-01 : f64}
// CHECK-NEXT: return %[[A]]
func.func @causal_trilu_mask(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x16xf32>, %v: tensor<2x4x8x32xf32>) -> tensor<2x4x8x32xf32> {
  %d = graph.constant dense<4.0> : tensor<f32>
  %ones = graph.constant dense<1.0> : tensor<8x8xf32>
  %tri = graph.trilu %ones {upper = false} : tensor<8x8xf32>
  %c = graph.cast %tri : tensor<8x8xf32> -> tensor<8x8xi1>
  %fill = graph.constant dense<-3.40282347E+38> : tensor<f32>
  %kt = graph.transpose %k, [0, 1, 3, 2] : tensor<2x4x8x16xf32> -> tensor<2x4x16x8xf32>
  %s = graph.matmul %q, %kt : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %sd = graph.div %s, %d : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
  %m = graph.where %c, %sd, %fill : (tensor<8x8xi1>, tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
  %p = graph.softmax %m {axis = 3 : i64} : tensor<2x4x8x8xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x8x8xf32>, tensor<2x4x8x32xf32>) -> tensor<2x4x8x32xf32>
  return %o : tensor<2x4x8x32xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Not fused
//===----------------------------------------------------------------------===//

// A lower trilu shifted off the causal diagonal (k = 1) is no causal band:
// it stays a mask, additive 0/-inf (every row sees a key).
// CHECK-LABEL: func.func @shifted_trilu_mask
// CHECK: %[[M:.*]] = graph.constant dense<{{.*}}0xFF800000{{.*}}> : tensor<8x8xf32>
// CHECK-NEXT: graph.attention %arg0, %arg1, %arg2, %[[M]] {scale = 1.000000e+00 : f64}
// CHECK-NOT: graph.softmax
func.func @shifted_trilu_mask(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x16xf32>, %v: tensor<2x4x8x32xf32>) -> tensor<2x4x8x32xf32> {
  %ones = graph.constant dense<1.0> : tensor<8x8xf32>
  %tri = graph.trilu %ones {upper = false, k = 1 : i64} : tensor<8x8xf32>
  %c = graph.cast %tri : tensor<8x8xf32> -> tensor<8x8xi1>
  %fill = graph.constant dense<-3.40282347E+38> : tensor<f32>
  %kt = graph.transpose %k, [0, 1, 3, 2] : tensor<2x4x8x16xf32> -> tensor<2x4x16x8xf32>
  %s = graph.matmul %q, %kt : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %m = graph.where %c, %s, %fill : (tensor<8x8xi1>, tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
  %p = graph.softmax %m {axis = 3 : i64} : tensor<2x4x8x8xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x8x8xf32>, tensor<2x4x8x32xf32>) -> tensor<2x4x8x32xf32>
  return %o : tensor<2x4x8x32xf32>
}

// -----

// The softmax runs over the queries (axis 2), not the keys.
// CHECK-LABEL: func.func @softmax_wrong_axis
// CHECK-NOT: graph.attention
// CHECK: graph.softmax %{{.*}} {axis = 2 : i64}
// CHECK-NOT: graph.attention
func.func @softmax_wrong_axis(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %kt = graph.transpose %k, [0, 1, 3, 2] : tensor<1x2x4x8xf32> -> tensor<1x2x8x4xf32>
  %s = graph.matmul %q, %kt : (tensor<1x2x4x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x4x4xf32>
  %p = graph.softmax %s {axis = 2 : i64} : tensor<1x2x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// The scale is a run-time value, not a constant.
// CHECK-LABEL: func.func @scale_not_constant
// CHECK-NOT: graph.attention
// CHECK: graph.mul
// CHECK: graph.softmax
// CHECK-NOT: graph.attention
func.func @scale_not_constant(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %c: tensor<f32>) -> tensor<2x4x8xf32> {
  %kt = graph.transpose %k, [0, 2, 1] : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
  %s = graph.matmul %q, %kt : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  %ss = graph.mul %s, %c : (tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>
  %p = graph.softmax %ss {axis = 2 : i64} : tensor<2x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// A constant scale that is not a splat (one per key) is not a scalar scale.
// CHECK-LABEL: func.func @scale_not_splat
// CHECK-NOT: graph.attention
// CHECK: graph.softmax
// CHECK-NOT: graph.attention
func.func @scale_not_splat(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %c = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
  %s = graph.matmul %q, %kt : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  %ss = graph.mul %s, %c : (tensor<2x4x4xf32>, tensor<4xf32>) -> tensor<2x4x4xf32>
  %p = graph.softmax %ss {axis = 2 : i64} : tensor<2x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// Division by a zero constant is not a scale.
// CHECK-LABEL: func.func @scale_divide_by_zero
// CHECK-NOT: graph.attention
// CHECK: graph.div
// CHECK-NOT: graph.attention
func.func @scale_divide_by_zero(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %c = graph.constant dense<0.0> : tensor<f32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
  %s = graph.matmul %q, %kt : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  %ss = graph.div %s, %c : (tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>
  %p = graph.softmax %ss {axis = 2 : i64} : tensor<2x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// k is not transposed (the scores use an independent [.., D, Sk] operand).
// CHECK-LABEL: func.func @k_not_transposed
// CHECK-NOT: graph.attention
// CHECK: graph.softmax
// CHECK-NOT: graph.attention
func.func @k_not_transposed(%q: tensor<2x4x8xf32>, %kt: tensor<2x8x4xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %s = graph.matmul %q, %kt : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  %p = graph.softmax %s {axis = 2 : i64} : tensor<2x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// The transpose also swaps the batch and head dims: not k^T.
// CHECK-LABEL: func.func @transpose_wrong_perm
// CHECK-NOT: graph.attention
// CHECK: graph.transpose %{{.*}}, [1, 0, 3, 2]
// CHECK-NOT: graph.attention
func.func @transpose_wrong_perm(%q: tensor<2x2x4x8xf32>, %k: tensor<2x2x4x8xf32>, %v: tensor<2x2x4x8xf32>) -> tensor<2x2x4x8xf32> {
  %kt = graph.transpose %k, [1, 0, 3, 2] : tensor<2x2x4x8xf32> -> tensor<2x2x8x4xf32>
  %s = graph.matmul %q, %kt : (tensor<2x2x4x8xf32>, tensor<2x2x8x4xf32>) -> tensor<2x2x4x4xf32>
  %p = graph.softmax %s {axis = 3 : i64} : tensor<2x2x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<2x2x4x4xf32>, tensor<2x2x4x8xf32>) -> tensor<2x2x4x8xf32>
  return %o : tensor<2x2x4x8xf32>
}

// -----

// Multi-query attention by broadcasting (k and v with one head against
// eight query heads): graph.attention needs equal leading dims.
// CHECK-LABEL: func.func @mqa_broadcast_heads
// CHECK-NOT: graph.attention
// CHECK: graph.softmax
// CHECK-NOT: graph.attention
func.func @mqa_broadcast_heads(%q: tensor<1x8x4x16xf32>, %k: tensor<1x1x4x16xf32>, %v: tensor<1x1x4x16xf32>) -> tensor<1x8x4x16xf32> {
  %kt = graph.transpose %k, [0, 1, 3, 2] : tensor<1x1x4x16xf32> -> tensor<1x1x16x4xf32>
  %s = graph.matmul %q, %kt : (tensor<1x8x4x16xf32>, tensor<1x1x16x4xf32>) -> tensor<1x8x4x4xf32>
  %p = graph.softmax %s {axis = 3 : i64} : tensor<1x8x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<1x8x4x4xf32>, tensor<1x1x4x16xf32>) -> tensor<1x8x4x16xf32>
  return %o : tensor<1x8x4x16xf32>
}

// -----

// The mask broadcasts the scores [4, 8, 8] to [2, 4, 8, 8]: the product is
// not an attention of q, k and v (which have no such leading dim).
// CHECK-LABEL: func.func @mask_broadcasts_scores
// CHECK-NOT: graph.attention
// CHECK: graph.add
// CHECK: graph.softmax
// CHECK-NOT: graph.attention
func.func @mask_broadcasts_scores(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x32xf32>, %m: tensor<2x1x8x8xf32>) -> tensor<2x4x8x32xf32> {
  %kt = graph.transpose %k, [0, 2, 1] : tensor<4x8x16xf32> -> tensor<4x16x8xf32>
  %s = graph.matmul %q, %kt : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %a = graph.add %s, %m : (tensor<4x8x8xf32>, tensor<2x1x8x8xf32>) -> tensor<2x4x8x8xf32>
  %p = graph.softmax %a {axis = 3 : i64} : tensor<2x4x8x8xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x8x8xf32>, tensor<4x8x32xf32>) -> tensor<2x4x8x32xf32>
  return %o : tensor<2x4x8x32xf32>
}

// -----

// The "NaN guard" broadcasts the probabilities to a larger shape.
// CHECK-LABEL: func.func @nan_guard_broadcasts
// CHECK-NOT: graph.attention
// CHECK: graph.where
// CHECK-NOT: graph.attention
func.func @nan_guard_broadcasts(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x32xf32>) -> tensor<2x4x8x32xf32> {
  %z = graph.constant dense<0.0> : tensor<2x1x1x1xf32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<4x8x16xf32> -> tensor<4x16x8xf32>
  %s = graph.matmul %q, %kt : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %p = graph.softmax %s {axis = 2 : i64} : tensor<4x8x8xf32>
  %n = graph.is_nan %p : tensor<4x8x8xf32> -> tensor<4x8x8xi1>
  %g = graph.where %n, %z, %p : (tensor<4x8x8xi1>, tensor<2x1x1x1xf32>, tensor<4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %o = graph.matmul %g, %v : (tensor<2x4x8x8xf32>, tensor<4x8x32xf32>) -> tensor<2x4x8x32xf32>
  return %o : tensor<2x4x8x32xf32>
}

// -----

// A where-mask whose fill is not very negative (-100) is not a mask.
// CHECK-LABEL: func.func @where_fill_not_negative_enough
// CHECK-NOT: graph.attention
// CHECK: graph.where
// CHECK-NOT: graph.attention
func.func @where_fill_not_negative_enough(%q: tensor<1x2x8xf32>, %k: tensor<1x2x8xf32>, %v: tensor<1x2x8xf32>) -> tensor<1x2x8xf32> {
  %c = graph.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %fill = graph.constant dense<-100.0> : tensor<f32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<1x2x8xf32> -> tensor<1x8x2xf32>
  %s = graph.matmul %q, %kt : (tensor<1x2x8xf32>, tensor<1x8x2xf32>) -> tensor<1x2x2xf32>
  %sm = graph.where %c, %s, %fill : (tensor<2x2xi1>, tensor<1x2x2xf32>, tensor<f32>) -> tensor<1x2x2xf32>
  %p = graph.softmax %sm {axis = 2 : i64} : tensor<1x2x2xf32>
  %o = graph.matmul %p, %v : (tensor<1x2x2xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  return %o : tensor<1x2x8xf32>
}

// -----

// A where-mask with a run-time condition.
// CHECK-LABEL: func.func @where_condition_not_constant
// CHECK-NOT: graph.attention
// CHECK: graph.where
// CHECK-NOT: graph.attention
func.func @where_condition_not_constant(%q: tensor<1x2x8xf32>, %k: tensor<1x2x8xf32>, %v: tensor<1x2x8xf32>, %c: tensor<2x2xi1>) -> tensor<1x2x8xf32> {
  %fill = graph.constant dense<-1.0e9> : tensor<f32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<1x2x8xf32> -> tensor<1x8x2xf32>
  %s = graph.matmul %q, %kt : (tensor<1x2x8xf32>, tensor<1x8x2xf32>) -> tensor<1x2x2xf32>
  %sm = graph.where %c, %s, %fill : (tensor<2x2xi1>, tensor<1x2x2xf32>, tensor<f32>) -> tensor<1x2x2xf32>
  %p = graph.softmax %sm {axis = 2 : i64} : tensor<1x2x2xf32>
  %o = graph.matmul %p, %v : (tensor<1x2x2xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  return %o : tensor<1x2x8xf32>
}

// -----

// A constant where-mask with a row that keeps no key: the source gives that
// row a uniform softmax, graph.attention would give zeros.
// CHECK-LABEL: func.func @where_mask_row_fully_masked
// CHECK-NOT: graph.attention
// CHECK: graph.where
// CHECK-NOT: graph.attention
func.func @where_mask_row_fully_masked(%q: tensor<1x2x8xf32>, %k: tensor<1x2x8xf32>, %v: tensor<1x2x8xf32>) -> tensor<1x2x8xf32> {
  %c = graph.constant dense<[[false, false], [true, true]]> : tensor<2x2xi1>
  %fill = graph.constant dense<-1.0e9> : tensor<f32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<1x2x8xf32> -> tensor<1x8x2xf32>
  %s = graph.matmul %q, %kt : (tensor<1x2x8xf32>, tensor<1x8x2xf32>) -> tensor<1x2x2xf32>
  %sm = graph.where %c, %s, %fill : (tensor<2x2xi1>, tensor<1x2x2xf32>, tensor<f32>) -> tensor<1x2x2xf32>
  %p = graph.softmax %sm {axis = 2 : i64} : tensor<1x2x2xf32>
  %o = graph.matmul %p, %v : (tensor<1x2x2xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  return %o : tensor<1x2x8xf32>
}

// -----

// A constant where-mask chain whose scores are not q k^T: nothing fuses and
// the pass still succeeds (no mask constant is left behind).
// CHECK-LABEL: func.func @where_mask_scores_not_qk
// CHECK-NOT: graph.attention
// CHECK-NOT: 0xFF800000
// CHECK: graph.where
// CHECK-NOT: graph.attention
func.func @where_mask_scores_not_qk(%q: tensor<2x4x4x16xf32>, %kt: tensor<2x4x16x4xf32>, %v: tensor<2x4x4x32xf32>) -> tensor<2x4x4x32xf32> {
  %m = graph.constant dense<[[true, false, true, true], [true, true, false, true], [true, true, true, true], [false, true, true, true]]> : tensor<4x4xi1>
  %fill = graph.constant dense<-3.40282347E+38> : tensor<f32>
  %s = graph.matmul %q, %kt : (tensor<2x4x4x16xf32>, tensor<2x4x16x4xf32>) -> tensor<2x4x4x4xf32>
  %w = graph.where %m, %s, %fill : (tensor<4x4xi1>, tensor<2x4x4x4xf32>, tensor<f32>) -> tensor<2x4x4x4xf32>
  %p = graph.softmax %w {axis = 3 : i64} : tensor<2x4x4x4xf32>
  %o = graph.matmul %p, %v : (tensor<2x4x4x4xf32>, tensor<2x4x4x32xf32>) -> tensor<2x4x4x32xf32>
  return %o : tensor<2x4x4x32xf32>
}

// -----

// Rank-2 products (no batch dims) are left alone.
// CHECK-LABEL: func.func @rank_2
// CHECK-NOT: graph.attention
// CHECK: graph.softmax
// CHECK-NOT: graph.attention
func.func @rank_2(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %kt = graph.transpose %k, [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %s = graph.matmul %q, %kt : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %p = graph.softmax %s {axis = 1 : i64} : tensor<4x4xf32>
  %o = graph.matmul %p, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Edge cases
//===----------------------------------------------------------------------===//

// Empty sequences: a zero-sized constant mask hides nothing (and is not
// inspected as a band, which would divide by Sq * Sk = 0).
// CHECK-LABEL: func.func @empty_sequence
// CHECK-NEXT: graph.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f64} : (tensor<1x0x16xf32>, tensor<1x0x16xf32>, tensor<1x0x32xf32>) -> tensor<1x0x32xf32>
func.func @empty_sequence(%q: tensor<1x0x16xf32>, %k: tensor<1x0x16xf32>, %v: tensor<1x0x32xf32>) -> tensor<1x0x32xf32> {
  %m = graph.constant dense<0.0> : tensor<0x0xf32>
  %kt = graph.transpose %k, [0, 2, 1] : tensor<1x0x16xf32> -> tensor<1x16x0xf32>
  %s = graph.matmul %q, %kt : (tensor<1x0x16xf32>, tensor<1x16x0xf32>) -> tensor<1x0x0xf32>
  %a = graph.add %s, %m : (tensor<1x0x0xf32>, tensor<0x0xf32>) -> tensor<1x0x0xf32>
  %p = graph.softmax %a {axis = 2 : i64} : tensor<1x0x0xf32>
  %o = graph.matmul %p, %v : (tensor<1x0x0xf32>, tensor<1x0x32xf32>) -> tensor<1x0x32xf32>
  return %o : tensor<1x0x32xf32>
}

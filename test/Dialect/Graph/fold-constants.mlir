// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-fold-constants | FileCheck %s
// RUN: paracc-opt %s -split-input-file -verify-diagnostics --paracc-fold-constants="max-elements=4" | FileCheck %s --check-prefix=MAX

// Ops whose operands are all constants become the constant that the runtime's
// CPU kernel computes. The operand constants stay (the pass does not erase
// dead ops). Every expected value below is computed by hand.

// CHECK-LABEL: func.func @fold_add_broadcast
func.func @fold_add_broadcast() -> tensor<2x3xi64> {
  %a = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %b = graph.constant dense<[10, 20, 30]> : tensor<3xi64>
  // CHECK: %[[R:.*]] = graph.constant dense<{{\[}}[11, 22, 33], [14, 25, 36]]> : tensor<2x3xi64>
  // CHECK-NOT: graph.add
  // CHECK: return %[[R]]
  %0 = graph.add %a, %b : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// A chain folds in order: the folded mul feeds the sub.
// CHECK-LABEL: func.func @fold_chain
func.func @fold_chain() -> tensor<3xf32> {
  %x = graph.constant dense<[1.5, -2.0, 0.25]> : tensor<3xf32>
  %two = graph.constant dense<2.0> : tensor<1xf32>
  %one = graph.constant dense<1.0> : tensor<f32>
  // x * 2 = [3, -4, 0.5]; - 1 = [2, -5, -0.5].
  // CHECK: graph.constant dense<[3.000000e+00, -4.000000e+00, 5.000000e-01]> : tensor<3xf32>
  // CHECK: %[[R:.*]] = graph.constant dense<[2.000000e+00, -5.000000e+00, -5.000000e-01]> : tensor<3xf32>
  // CHECK-NOT: graph.mul
  // CHECK-NOT: graph.sub
  // CHECK: return %[[R]]
  %0 = graph.mul %x, %two : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
  %1 = graph.sub %0, %one : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

// Integer division truncates toward zero; mod takes the sign of the divisor,
// fmod that of the dividend.
// CHECK-LABEL: func.func @fold_integer_div_mod
func.func @fold_integer_div_mod() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %a = graph.constant dense<[7, -7, 7, -7]> : tensor<4xi32>
  %b = graph.constant dense<[3, 3, -3, -3]> : tensor<4xi32>
  // CHECK: %[[DIV:.*]] = graph.constant dense<[2, -2, -2, 2]> : tensor<4xi32>
  %0 = graph.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %[[MOD:.*]] = graph.constant dense<[1, 2, -2, -1]> : tensor<4xi32>
  %1 = graph.mod %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %[[FMOD:.*]] = graph.constant dense<[1, -1, 1, -1]> : tensor<4xi32>
  %2 = graph.mod %a, %b {fmod = true} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: return %[[DIV]], %[[MOD]], %[[FMOD]]
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// Unsigned arithmetic wraps: 250 + 10 = 260 = 4 (mod 256).
// CHECK-LABEL: func.func @fold_unsigned_wraps
func.func @fold_unsigned_wraps() -> tensor<2xui8> {
  %a = graph.constant dense<[250, 3]> : tensor<2xui8>
  %b = graph.constant dense<10> : tensor<1xui8>
  // CHECK: %[[R:.*]] = graph.constant dense<[4, 13]> : tensor<2xui8>
  // CHECK: return %[[R]]
  %0 = graph.add %a, %b : (tensor<2xui8>, tensor<1xui8>) -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

// -----

// CHECK-LABEL: func.func @fold_half_precision
func.func @fold_half_precision() -> (tensor<2xf16>, tensor<2xbf16>) {
  %a = graph.constant dense<[0.5, 1.5]> : tensor<2xf16>
  %b = graph.constant dense<[0.25, -2.0]> : tensor<2xf16>
  // CHECK: %[[H:.*]] = graph.constant dense<[7.500000e-01, -5.000000e-01]> : tensor<2xf16>
  %0 = graph.add %a, %b : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %c = graph.constant dense<[3.0, -0.5]> : tensor<2xbf16>
  // CHECK: %[[B:.*]] = graph.constant dense<[9.000000e+00, 2.500000e-01]> : tensor<2xbf16>
  %1 = graph.mul %c, %c : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  // CHECK: return %[[H]], %[[B]]
  return %0, %1 : tensor<2xf16>, tensor<2xbf16>
}

// -----

// CHECK-LABEL: func.func @fold_unary
func.func @fold_unary() -> (tensor<3xf32>, tensor<3xi64>) {
  %x = graph.constant dense<[4.0, 9.0, 0.25]> : tensor<3xf32>
  // CHECK: %[[SQRT:.*]] = graph.constant dense<[2.000000e+00, 3.000000e+00, 5.000000e-01]> : tensor<3xf32>
  %0 = graph.sqrt %x : tensor<3xf32>
  %i = graph.constant dense<[-3, 0, 5]> : tensor<3xi64>
  // CHECK: %[[RELU:.*]] = graph.constant dense<[0, 0, 5]> : tensor<3xi64>
  %1 = graph.relu %i : tensor<3xi64>
  // CHECK-NOT: graph.sqrt
  // CHECK-NOT: graph.relu
  // CHECK: return %[[SQRT]], %[[RELU]]
  return %0, %1 : tensor<3xf32>, tensor<3xi64>
}

// -----

// Comparisons produce i1 constants.
// CHECK-LABEL: func.func @fold_comparisons
func.func @fold_comparisons() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2x2xi1>) {
  %a = graph.constant dense<[1, 5, 3]> : tensor<3xi64>
  %b = graph.constant dense<3> : tensor<1xi64>
  // CHECK: %[[LT:.*]] = graph.constant dense<[true, false, false]> : tensor<3xi1>
  %0 = graph.less %a, %b : (tensor<3xi64>, tensor<1xi64>) -> tensor<3xi1>
  // CHECK: %[[EQ:.*]] = graph.constant dense<[false, false, true]> : tensor<3xi1>
  %1 = graph.equal %a, %b : (tensor<3xi64>, tensor<1xi64>) -> tensor<3xi1>
  // CHECK: %[[GE:.*]] = graph.constant dense<[false, true, true]> : tensor<3xi1>
  %2 = graph.greater_equal %a, %b : (tensor<3xi64>, tensor<1xi64>) -> tensor<3xi1>
  // A causal-mask style comparison: column <= row, broadcast [2,1] x [2].
  %r = graph.constant dense<[[0.0], [1.0]]> : tensor<2x1xf32>
  %c = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  // CHECK: %[[LE:.*]] = graph.constant dense<{{\[}}[true, false], [true, true]]> : tensor<2x2xi1>
  %3 = graph.less_equal %c, %r : (tensor<2xf32>, tensor<2x1xf32>) -> tensor<2x2xi1>
  // CHECK: return %[[LT]], %[[EQ]], %[[GE]], %[[LE]]
  return %0, %1, %2, %3 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2x2xi1>
}

// -----

// CHECK-LABEL: func.func @fold_logical_where
func.func @fold_logical_where() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi64>) {
  %p = graph.constant dense<[true, true, false, false]> : tensor<4xi1>
  %q = graph.constant dense<[true, false, true, false]> : tensor<4xi1>
  // CHECK: %[[AND:.*]] = graph.constant dense<[true, false, false, false]> : tensor<4xi1>
  %0 = graph.and %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // CHECK: %[[OR:.*]] = graph.constant dense<[true, true, true, false]> : tensor<4xi1>
  %1 = graph.or %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // CHECK: %[[XOR:.*]] = graph.constant dense<[false, true, true, false]> : tensor<4xi1>
  %2 = graph.xor %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // CHECK: %[[NOT:.*]] = graph.constant dense<[false, false, true, true]> : tensor<4xi1>
  %3 = graph.not %p : tensor<4xi1>
  %a = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %z = graph.constant dense<-1> : tensor<1xi64>
  // CHECK: %[[SEL:.*]] = graph.constant dense<[1, -1, 3, -1]> : tensor<4xi64>
  %4 = graph.where %q, %a, %z : (tensor<4xi1>, tensor<4xi64>, tensor<1xi64>) -> tensor<4xi64>
  // CHECK: return %[[AND]], %[[OR]], %[[XOR]], %[[NOT]], %[[SEL]]
  return %0, %1, %2, %3, %4 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi64>
}

// -----

// Floats convert to integers by truncation toward zero; to bool as x != 0.
// CHECK-LABEL: func.func @fold_cast
func.func @fold_cast() -> (tensor<4xi32>, tensor<4xi1>, tensor<2xf32>) {
  %x = graph.constant dense<[1.7, -1.7, 0.0, 2.5]> : tensor<4xf32>
  // CHECK: %[[I:.*]] = graph.constant dense<[1, -1, 0, 2]> : tensor<4xi32>
  %0 = graph.cast %x : tensor<4xf32> -> tensor<4xi32>
  // CHECK: %[[B:.*]] = graph.constant dense<[true, true, false, true]> : tensor<4xi1>
  %1 = graph.cast %x : tensor<4xf32> -> tensor<4xi1>
  %p = graph.constant dense<[false, true]> : tensor<2xi1>
  // CHECK: %[[F:.*]] = graph.constant dense<[0.000000e+00, 1.000000e+00]> : tensor<2xf32>
  %2 = graph.cast %p : tensor<2xi1> -> tensor<2xf32>
  // CHECK-NOT: graph.cast
  // CHECK: return %[[I]], %[[B]], %[[F]]
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi1>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @fold_reshape_transpose
func.func @fold_reshape_transpose() -> (tensor<3x2xi64>, tensor<3x2xi64>, tensor<2x2x2xi64>) {
  %x = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  // CHECK: %[[R:.*]] = graph.constant dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  %0 = graph.reshape %x : tensor<2x3xi64> -> tensor<3x2xi64>
  // CHECK: %[[T:.*]] = graph.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi64>
  %1 = graph.transpose %x, [1, 0] : tensor<2x3xi64> -> tensor<3x2xi64>
  // y[i][j][k] = c[j][k][i].
  %c = graph.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi64>
  // CHECK: %[[T3:.*]] = graph.constant dense<{{\[}}{{\[}}[0, 2], [4, 6]], {{\[}}[1, 3], [5, 7]]]> : tensor<2x2x2xi64>
  %2 = graph.transpose %c, [2, 0, 1] : tensor<2x2x2xi64> -> tensor<2x2x2xi64>
  // CHECK-NOT: graph.reshape
  // CHECK-NOT: graph.transpose
  // CHECK: return %[[R]], %[[T]], %[[T3]]
  return %0, %1, %2 : tensor<3x2xi64>, tensor<3x2xi64>, tensor<2x2x2xi64>
}

// -----

// CHECK-LABEL: func.func @fold_slice
func.func @fold_slice() -> (tensor<3xi64>, tensor<2x2xi64>, tensor<2x2xi64>) {
  %x = graph.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
  // Elements 6, 3, 0.
  // CHECK: %[[S0:.*]] = graph.constant dense<[6, 3, 0]> : tensor<3xi64>
  %0 = graph.slice %x, starts = [6], limits = [-1], steps = [-3] : tensor<8xi64> -> tensor<3xi64>
  %m = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  // Rows 1, 0 and columns 2, 0.
  // CHECK: %[[S1:.*]] = graph.constant dense<{{\[}}[6, 4], [3, 1]]> : tensor<2x2xi64>
  %1 = graph.slice %m, starts = [1, 2], limits = [-1, -1], steps = [-1, -2] : tensor<2x3xi64> -> tensor<2x2xi64>
  // Columns 1, 2.
  // CHECK: %[[S2:.*]] = graph.constant dense<{{\[}}[2, 3], [5, 6]]> : tensor<2x2xi64>
  %2 = graph.slice %m, starts = [0, 1], limits = [2, 3], steps = [1, 1] : tensor<2x3xi64> -> tensor<2x2xi64>
  // CHECK-NOT: graph.slice
  // CHECK: return %[[S0]], %[[S1]], %[[S2]]
  return %0, %1, %2 : tensor<3xi64>, tensor<2x2xi64>, tensor<2x2xi64>
}

// -----

// CHECK-LABEL: func.func @fold_concat_split
func.func @fold_concat_split() -> (tensor<2x3xi32>, tensor<4xi32>, tensor<2xi32>, tensor<3xi32>) {
  %a = graph.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = graph.constant dense<[[5], [6]]> : tensor<2x1xi32>
  // CHECK: %[[C0:.*]] = graph.constant dense<{{\[}}[1, 2, 5], [3, 4, 6]]> : tensor<2x3xi32>
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  %p = graph.constant dense<[1]> : tensor<1xi32>
  %q = graph.constant dense<[2, 3]> : tensor<2xi32>
  %r = graph.constant dense<[9]> : tensor<1xi32>
  // CHECK: %[[C1:.*]] = graph.constant dense<[2, 3, 9, 1]> : tensor<4xi32>
  %1 = graph.concat %q, %r, %p {axis = 0 : i64} : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %v = graph.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  // Both results of a split fold.
  // CHECK: %[[SP0:.*]] = graph.constant dense<[1, 2]> : tensor<2xi32>
  // CHECK: %[[SP1:.*]] = graph.constant dense<[3, 4, 5]> : tensor<3xi32>
  %2:2 = graph.split %v {axis = 0 : i64} : tensor<5xi32> -> tensor<2xi32>, tensor<3xi32>
  // CHECK-NOT: graph.concat
  // CHECK-NOT: graph.split
  // CHECK: return %[[C0]], %[[C1]], %[[SP0]], %[[SP1]]
  return %0, %1, %2#0, %2#1 : tensor<2x3xi32>, tensor<4xi32>, tensor<2xi32>, tensor<3xi32>
}

// -----

// Gather with a negative index (counted from the end) and on an inner axis.
// CHECK-LABEL: func.func @fold_gather
func.func @fold_gather() -> (tensor<3x2xi64>, tensor<3x1xi64>) {
  %t = graph.constant dense<[[10, 11], [20, 21], [30, 31]]> : tensor<3x2xi64>
  %i = graph.constant dense<[2, 0, -1]> : tensor<3xi32>
  // CHECK: %[[G0:.*]] = graph.constant dense<{{\[}}[30, 31], [10, 11], [30, 31]]> : tensor<3x2xi64>
  %0 = graph.gather %t, %i {axis = 0 : i64} : (tensor<3x2xi64>, tensor<3xi32>) -> tensor<3x2xi64>
  %j = graph.constant dense<[1]> : tensor<1xi64>
  // CHECK: %[[G1:.*]] = graph.constant dense<{{\[}}[11], [21], [31]]> : tensor<3x1xi64>
  %1 = graph.gather %t, %j {axis = 1 : i64} : (tensor<3x2xi64>, tensor<1xi64>) -> tensor<3x1xi64>
  // CHECK-NOT: graph.gather
  // CHECK: return %[[G0]], %[[G1]]
  return %0, %1 : tensor<3x2xi64>, tensor<3x1xi64>
}

// -----

// Expand of non-splat constants (the op's own folder handles only splats).
// CHECK-LABEL: func.func @fold_expand
func.func @fold_expand() -> (tensor<2x3xi32>, tensor<2x3xi32>) {
  %c = graph.constant dense<[[1], [2]]> : tensor<2x1xi32>
  // CHECK: %[[E0:.*]] = graph.constant dense<{{\[}}[1, 1, 1], [2, 2, 2]]> : tensor<2x3xi32>
  %0 = graph.expand %c : tensor<2x1xi32> -> tensor<2x3xi32>
  %r = graph.constant dense<[1, 2, 3]> : tensor<3xi32>
  // CHECK: %[[E1:.*]] = graph.constant dense<{{\[}}[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi32>
  %1 = graph.expand %r : tensor<3xi32> -> tensor<2x3xi32>
  // CHECK-NOT: graph.expand
  // CHECK: return %[[E0]], %[[E1]]
  return %0, %1 : tensor<2x3xi32>, tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @fold_range
func.func @fold_range() -> (tensor<3xi64>, tensor<3xi64>, tensor<4xf32>) {
  %s = graph.constant dense<1> : tensor<i64>
  %l = graph.constant dense<10> : tensor<i64>
  %d = graph.constant dense<3> : tensor<i64>
  // ceil((10 - 1) / 3) = 3 elements.
  // CHECK: %[[R0:.*]] = graph.constant dense<[1, 4, 7]> : tensor<3xi64>
  %0 = graph.range %s, %l, %d : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
  %s1 = graph.constant dense<5> : tensor<i64>
  %l1 = graph.constant dense<0> : tensor<i64>
  %d1 = graph.constant dense<-2> : tensor<i64>
  // A negative delta counts down: ceil((0 - 5) / -2) = 3 elements.
  // CHECK: %[[R1:.*]] = graph.constant dense<[5, 3, 1]> : tensor<3xi64>
  %1 = graph.range %s1, %l1, %d1 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
  %s2 = graph.constant dense<0.0> : tensor<f32>
  %l2 = graph.constant dense<1.0> : tensor<f32>
  %d2 = graph.constant dense<0.25> : tensor<f32>
  // CHECK: %[[R2:.*]] = graph.constant dense<[0.000000e+00, 2.500000e-01, 5.000000e-01, 7.500000e-01]> : tensor<4xf32>
  %2 = graph.range %s2, %l2, %d2 : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  // CHECK-NOT: graph.range
  // CHECK: return %[[R0]], %[[R1]], %[[R2]]
  return %0, %1, %2 : tensor<3xi64>, tensor<3xi64>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @fold_cumsum
func.func @fold_cumsum() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2x2xf32>) {
  %x = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  // CHECK: %[[INC:.*]] = graph.constant dense<[1, 3, 6, 10]> : tensor<4xi32>
  %0 = graph.cumsum %x {axis = 0 : i64} : tensor<4xi32>
  // CHECK: %[[EXC:.*]] = graph.constant dense<[0, 1, 3, 6]> : tensor<4xi32>
  %1 = graph.cumsum %x {axis = 0 : i64, exclusive = true} : tensor<4xi32>
  // CHECK: %[[REV:.*]] = graph.constant dense<[10, 9, 7, 4]> : tensor<4xi32>
  %2 = graph.cumsum %x {axis = 0 : i64, reverse = true} : tensor<4xi32>
  // CHECK: %[[EXREV:.*]] = graph.constant dense<[9, 7, 4, 0]> : tensor<4xi32>
  %3 = graph.cumsum %x {axis = 0 : i64, exclusive = true, reverse = true} : tensor<4xi32>
  %m = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // Along axis 0: the second row is [1 + 3, 2 + 4].
  // CHECK: %[[AX0:.*]] = graph.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [4.000000e+00, 6.000000e+00]]> : tensor<2x2xf32>
  %4 = graph.cumsum %m {axis = 0 : i64} : tensor<2x2xf32>
  // CHECK-NOT: graph.cumsum
  // CHECK: return %[[INC]], %[[EXC]], %[[REV]], %[[EXREV]], %[[AX0]]
  return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @fold_reductions
func.func @fold_reductions() -> (tensor<2x1xi64>, tensor<3xi64>, tensor<2xi64>) {
  %x = graph.constant dense<[[1, 5, 3], [4, 2, 6]]> : tensor<2x3xi64>
  // CHECK: %[[SUM:.*]] = graph.constant dense<{{\[}}[9], [12]]> : tensor<2x1xi64>
  %0 = graph.reduce_sum %x, [1] : tensor<2x3xi64> -> tensor<2x1xi64>
  // CHECK: %[[RMAX:.*]] = graph.constant dense<[4, 5, 6]> : tensor<3xi64>
  %1 = graph.reduce_max %x, [0] {keepdims = false} : tensor<2x3xi64> -> tensor<3xi64>
  // CHECK: %[[ARG:.*]] = graph.constant dense<[1, 2]> : tensor<2xi64>
  %2 = graph.argmax %x {axis = 1 : i64, keepdims = false} : tensor<2x3xi64> -> tensor<2xi64>
  // CHECK: return %[[SUM]], %[[RMAX]], %[[ARG]]
  return %0, %1, %2 : tensor<2x1xi64>, tensor<3xi64>, tensor<2xi64>
}

// -----

// An operand that is not a constant: nothing folds, the constant operand
// stays as it is.
// CHECK-LABEL: func.func @no_fold_non_constant
// CHECK-SAME: (%[[X:[^:]+]]: tensor<3xf32>)
func.func @no_fold_non_constant(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  // CHECK: %[[C:.*]] = graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
  %c = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  // CHECK: %[[A:.*]] = graph.add %[[X]], %[[C]]
  %0 = graph.add %x, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // The user of a non-constant result does not fold either.
  // CHECK: %[[M:.*]] = graph.mul %[[C]], %[[A]]
  %1 = graph.mul %c, %0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // A weight is not a constant: its data is not in the IR.
  // CHECK: %[[W:.*]] = graph.weight "w" : tensor<3xf32>
  %w = graph.weight "w" : tensor<3xf32>
  // CHECK: %[[N:.*]] = graph.neg %[[W]]
  %2 = graph.neg %w : tensor<3xf32>
  // CHECK: return %[[M]], %[[N]]
  return %1, %2 : tensor<3xf32>, tensor<3xf32>
}

// -----

// max-elements bounds the folded result: with max-elements=4 the 4-element
// result folds and the 6-element one stays.
// CHECK-LABEL: func.func @no_fold_above_max_elements
// MAX-LABEL: func.func @no_fold_above_max_elements
func.func @no_fold_above_max_elements() -> (tensor<4xi64>, tensor<6xi64>) {
  %a = graph.constant dense<[1, 2]> : tensor<2xi64>
  %b = graph.constant dense<[3, 4, 5, 6]> : tensor<4xi64>
  // CHECK: %[[C4:.*]] = graph.constant dense<[1, 2, 1, 2]> : tensor<4xi64>
  // MAX: %[[C4:.*]] = graph.constant dense<[1, 2, 1, 2]> : tensor<4xi64>
  %0 = graph.concat %a, %a {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  // CHECK: %[[C6:.*]] = graph.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi64>
  // MAX: %[[C6:.*]] = graph.concat %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<2xi64>, tensor<4xi64>) -> tensor<6xi64>
  %1 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2xi64>, tensor<4xi64>) -> tensor<6xi64>
  // CHECK: return %[[C4]], %[[C6]]
  // MAX: return %[[C4]], %[[C6]]
  return %0, %1 : tensor<4xi64>, tensor<6xi64>
}

// -----

// A kernel error (integer division by zero) is reported and the op stays.
// CHECK-LABEL: func.func @no_fold_division_by_zero
// CHECK: %[[D:.*]] = graph.div
// CHECK: return %[[D]]
func.func @no_fold_division_by_zero() -> tensor<2xi32> {
  %a = graph.constant dense<[7, -7]> : tensor<2xi32>
  %b = graph.constant dense<[1, 0]> : tensor<2xi32>
  // expected-error @+1 {{cannot evaluate on constants: div: integer division by zero}}
  %0 = graph.div %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

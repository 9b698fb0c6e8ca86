// RUN: paracc-opt %s -split-input-file --paracc-fuse-accumulation | FileCheck %s

// Gradients accumulated into products: an add of a gemm without c (through
// one reshape, transposed or not) becomes that gemm's c with beta 1; a
// chain of them (a fused QKV projection's data gradient) folds one by one.
// CHECK-LABEL: func.func @accumulate_into_gemm
// CHECK-SAME: (%[[DY:[^:]+]]: tensor<8x32xf32>, %[[W1:[^:]+]]: tensor<64x32xf32>, %[[W2:[^:]+]]: tensor<64x32xf32>, %[[W3:[^:]+]]: tensor<64x32xf32>)
// CHECK-NEXT: %[[G1:.*]] = graph.gemm %[[DY]], %[[W1]] {trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>) -> tensor<8x64xf32>
// CHECK-NEXT: %[[G2:.*]] = graph.gemm %[[DY]], %[[W2]], %[[G1]] {trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
// CHECK-NEXT: %[[G3:.*]] = graph.gemm %[[DY]], %[[W3]], %[[G2]] {alpha = 5.000000e-01 : f64, trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[G3]] : tensor<8x64xf32> -> tensor<2x4x64xf32>
// CHECK-NEXT: return %[[R]]
func.func @accumulate_into_gemm(%dy: tensor<8x32xf32>, %w1: tensor<64x32xf32>, %w2: tensor<64x32xf32>, %w3: tensor<64x32xf32>) -> tensor<2x4x64xf32> {
  %0 = graph.gemm %dy, %w1 {trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>) -> tensor<8x64xf32>
  %1 = graph.reshape %0 : tensor<8x64xf32> -> tensor<2x4x64xf32>
  %2 = graph.gemm %dy, %w2 {trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>) -> tensor<8x64xf32>
  %3 = graph.reshape %2 : tensor<8x64xf32> -> tensor<2x4x64xf32>
  %4 = graph.add %1, %3 : (tensor<2x4x64xf32>, tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  %5 = graph.gemm %dy, %w3 {alpha = 0.5 : f64, trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>) -> tensor<8x64xf32>
  %6 = graph.reshape %5 : tensor<8x64xf32> -> tensor<2x4x64xf32>
  %7 = graph.add %4, %6 : (tensor<2x4x64xf32>, tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  return %7 : tensor<2x4x64xf32>
}

// -----

// Not accumulated: the product has another user, the gemm has a c, the add
// broadcasts, the product is an integer one, or the other addend is
// computed after the gemm (the fused gemm takes the gemm's place).
// CHECK-LABEL: func.func @gemm_not_accumulated
// CHECK-COUNT-5: graph.add
func.func @gemm_not_accumulated(%dy: tensor<8x32xf32>, %w: tensor<64x32xf32>, %y: tensor<8x64xf32>, %c: tensor<64xf32>, %v: tensor<64xf32>, %i: tensor<8x32xi32>, %wi: tensor<64x32xi32>, %yi: tensor<8x64xi32>) -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xi32>, tensor<8x64xf32>) {
  %0 = graph.gemm %dy, %w {trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>) -> tensor<8x64xf32>
  %1 = graph.add %0, %y : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %2 = graph.gemm %dy, %w, %c {trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %3 = graph.add %2, %y : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %4 = graph.gemm %dy, %w {trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>) -> tensor<8x64xf32>
  %5 = graph.add %4, %v : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %6 = graph.gemm %i, %wi {trans_b = true} : (tensor<8x32xi32>, tensor<64x32xi32>) -> tensor<8x64xi32>
  %7 = graph.add %6, %yi : (tensor<8x64xi32>, tensor<8x64xi32>) -> tensor<8x64xi32>
  %8 = graph.gemm %dy, %w {trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>) -> tensor<8x64xf32>
  %late = graph.mul %y, %y : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %9 = graph.add %8, %late : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0, %1, %3, %5, %7, %9 : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xi32>, tensor<8x64xf32>
}

// -----

// The residual stream's gradient: a norm gradient's dx added to a gradient
// computed before it becomes its accumulate operand; dscale and dbias keep
// their users. A chain folds link by link.
// CHECK-LABEL: func.func @accumulate_into_norm_grad
// CHECK-SAME: (%[[DY:[^:]+]]: tensor<8x64xf32>, %[[X:[^:]+]]: tensor<8x64xf32>, %[[S:[^:]+]]: tensor<64xf32>, %[[H:[^:]+]]: tensor<8x64xf32>)
// CHECK-NEXT: %[[DX:.*]], %[[DS:.*]], %[[DB:.*]] = graph.layer_norm_grad %[[DY]], %[[X]], %[[S]] accumulate %[[H]] {axis = 1 : i64, epsilon = 1.000000e-05 : f64} : tensor<8x64xf32>, tensor<64xf32>
// CHECK-NEXT: %[[R:.*]], %[[RS:.*]] = graph.rms_norm_grad %[[DY]], %[[X]], %[[S]] accumulate %[[DX]] {axis = 1 : i64, epsilon = 1.000000e-05 : f64} : tensor<8x64xf32>, tensor<64xf32>
// CHECK-NEXT: %[[Q:.*]] = graph.reshape %[[R]] : tensor<8x64xf32> -> tensor<2x4x64xf32>
// CHECK-NEXT: %[[P:.*]] = graph.add %[[DS]], %[[DB]]
// CHECK-NEXT: return %[[Q]], %[[P]], %[[RS]]
func.func @accumulate_into_norm_grad(%dy: tensor<8x64xf32>, %x: tensor<8x64xf32>, %s: tensor<64xf32>, %h: tensor<8x64xf32>) -> (tensor<2x4x64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %dx, %ds, %db = graph.layer_norm_grad %dy, %x, %s {axis = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<8x64xf32>, tensor<64xf32>
  %0 = graph.add %h, %dx : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %2 = graph.reshape %0 : tensor<8x64xf32> -> tensor<2x4x64xf32>
  %r, %rs = graph.rms_norm_grad %dy, %x, %s {axis = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<8x64xf32>, tensor<64xf32>
  %1 = graph.reshape %r : tensor<8x64xf32> -> tensor<2x4x64xf32>
  %3 = graph.add %1, %2 : (tensor<2x4x64xf32>, tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  %4 = graph.add %ds, %db : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %3, %4, %rs : tensor<2x4x64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// Not accumulated: the addend is computed after the norm gradient (the
// fused op takes the gradient's place), or dx has another user.
// CHECK-LABEL: func.func @norm_grad_not_accumulated
// CHECK-NOT: accumulate
// CHECK-COUNT-2: graph.add
func.func @norm_grad_not_accumulated(%dy: tensor<8x64xf32>, %x: tensor<8x64xf32>, %s: tensor<64xf32>, %h: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>) {
  %dx, %ds, %db = graph.layer_norm_grad %dy, %x, %s {axis = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<8x64xf32>, tensor<64xf32>
  %late = graph.mul %h, %h : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %0 = graph.add %late, %dx : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %r, %rs = graph.rms_norm_grad %dy, %x, %s {axis = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<8x64xf32>, tensor<64xf32>
  %1 = graph.add %h, %r : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0, %1, %r : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

// A tied embedding: the output projection's weight gradient (a gemm before
// the embedding's backward) becomes the gather_grad's accumulate operand.
// CHECK-LABEL: func.func @accumulate_into_gather_grad
// CHECK-SAME: (%[[DY:[^:]+]]: tensor<2x4x16xf32>, %[[IDS:[^:]+]]: tensor<2x4xi64>, %[[DL:[^:]+]]: tensor<8x32xf32>, %[[H:[^:]+]]: tensor<8x16xf32>)
// CHECK-NEXT: %[[P:.*]] = graph.gemm %[[DL]], %[[H]] {trans_a = true} : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT: %[[G:.*]] = graph.gather_grad %[[DY]], %[[IDS]] accumulate %[[P]] {axis = 0 : i64} : (tensor<2x4x16xf32>, tensor<2x4xi64>, tensor<32x16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT: return %[[G]]
func.func @accumulate_into_gather_grad(%dy: tensor<2x4x16xf32>, %ids: tensor<2x4xi64>, %dlogits: tensor<8x32xf32>, %h: tensor<8x16xf32>) -> tensor<32x16xf32> {
  %p = graph.gemm %dlogits, %h {trans_a = true} : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
  %g = graph.gather_grad %dy, %ids {axis = 0 : i64} : (tensor<2x4x16xf32>, tensor<2x4xi64>) -> tensor<32x16xf32>
  %s = graph.add %p, %g : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  return %s : tensor<32x16xf32>
}

// -----

// Not accumulated: the table's gradient has another user, or the addend is
// computed after it.
// CHECK-LABEL: func.func @gather_grad_not_accumulated
// CHECK-NOT: accumulate
// CHECK-COUNT-2: graph.add
func.func @gather_grad_not_accumulated(%dy: tensor<2x4x16xf32>, %ids: tensor<2x4xi64>, %y: tensor<32x16xf32>) -> (tensor<32x16xf32>, tensor<32x16xf32>, tensor<32x16xf32>) {
  %g = graph.gather_grad %dy, %ids {axis = 0 : i64} : (tensor<2x4x16xf32>, tensor<2x4xi64>) -> tensor<32x16xf32>
  %0 = graph.add %y, %g : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  %h = graph.gather_grad %dy, %ids {axis = 0 : i64} : (tensor<2x4x16xf32>, tensor<2x4xi64>) -> tensor<32x16xf32>
  %late = graph.mul %y, %y : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  %1 = graph.add %late, %h : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  return %0, %1, %g : tensor<32x16xf32>, tensor<32x16xf32>, tensor<32x16xf32>
}

// RUN: paracc-opt %s -split-input-file --paracc-sequence-parallel | FileCheck %s

// --paracc-sequence-parallel: the input and the output of every norm get
// their token dim split over tp (the sequence of [batch, seq, hidden], the
// tokens of [tokens, hidden]); the other dims stay open for propagation.
// Norms whose token dim does not divide, or that normalize over it, are
// skipped and say why.

module attributes {dist.mesh = #dist.mesh<[tp = 2]>} {

// CHECK-LABEL: func.func @norms
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{?}, {tp}, {?}>},
// CHECK-SAME: %[[T:[^:]+]]: tensor<32x64xf32> {dist.sharding = #dist.sharding<{tp}, {?}>},
// The scale is not annotated.
// CHECK-SAME: %[[S:[^:]+]]: tensor<64xf32>)
func.func @norms(%x: tensor<2x16x64xf32>, %t: tensor<32x64xf32>, %s: tensor<64xf32>)
    -> (tensor<2x16x64xf32>, tensor<32x64xf32>) {
  // CHECK: %[[LN:.*]] = graph.layer_norm %[[X]], %[[S]], %[[S]] {axis = 2 : i64, dist.shardings = [#dist.sharding<{?}, {tp}, {?}>], epsilon = 1.000000e-05 : f64}
  %0 = graph.layer_norm %x, %s, %s {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<2x16x64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x16x64xf32>
  // CHECK: %[[RMS:.*]] = graph.rms_norm %[[T]], %[[S]] {axis = 1 : i64, dist.shardings = [#dist.sharding<{tp}, {?}>], epsilon = 9.9999999999999995E-7 : f64}
  %1 = graph.rms_norm %t, %s {axis = 1 : i64, epsilon = 1.0e-6 : f64} : tensor<32x64xf32>, tensor<64xf32> -> tensor<32x64xf32>
  // CHECK: return %[[LN]], %[[RMS]]
  return %0, %1 : tensor<2x16x64xf32>, tensor<32x64xf32>
}

// The residual stream of a block: the norm's input is an op result (the
// residual add), annotated through `dist.shardings`; ops that are not norms
// are left to propagation.
// CHECK-LABEL: func.func @residual
func.func @residual(%x: tensor<2x16x64xf32>, %y: tensor<2x16x64xf32>, %s: tensor<64xf32>)
    -> tensor<2x16x64xf32> {
  // CHECK-NOT: dist.sharding =
  // CHECK: %[[R:.*]] = graph.add %{{.*}}, %{{.*}} {dist.shardings = [#dist.sharding<{?}, {tp}, {?}>]}
  %0 = graph.add %x, %y : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  // CHECK: %[[N:.*]] = graph.layer_norm %[[R]], {{.*}}dist.shardings = [#dist.sharding<{?}, {tp}, {?}>]
  %1 = graph.layer_norm %0, %s {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<2x16x64xf32>, tensor<64xf32> -> tensor<2x16x64xf32>
  // CHECK: %[[G:.*]] = graph.gelu %[[N]] : tensor<2x16x64xf32>
  %2 = graph.gelu %1 : tensor<2x16x64xf32>
  // CHECK: return %[[G]]
  return %2 : tensor<2x16x64xf32>
}

// What an annotation already says about other dims is kept (here dim 0
// from an earlier pass); only the token dim is closed.
// CHECK-LABEL: func.func @keeps_other_dims
// CHECK-SAME: dist.sharding = #dist.sharding<{}, {tp}, {?}>
func.func @keeps_other_dims(%x: tensor<2x16x64xf32> {dist.sharding = #dist.sharding<{}, {?}, {?}>}, %s: tensor<64xf32>)
    -> tensor<2x16x64xf32> {
  %0 = graph.layer_norm %x, %s {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<2x16x64xf32>, tensor<64xf32> -> tensor<2x16x64xf32>
  return %0 : tensor<2x16x64xf32>
}

// Skipped norms: 15 tokens do not divide over 2; a norm over [seq, hidden]
// (axis 1) needs the whole sequence. Neither value is annotated.
// CHECK-LABEL: func.func @skipped
// CHECK-SAME: (%{{[^:]+}}: tensor<2x15x64xf32>, %{{[^:]+}}: tensor<2x16x64xf32>, %{{[^:]+}}: tensor<64xf32>, %{{[^:]+}}: tensor<16x64xf32>)
func.func @skipped(%o: tensor<2x15x64xf32>, %x: tensor<2x16x64xf32>, %s: tensor<64xf32>, %s2: tensor<16x64xf32>)
    -> (tensor<2x15x64xf32>, tensor<2x16x64xf32>) {
  // CHECK: graph.layer_norm {{.*}} {axis = 2 : i64, dist.sp_skipped = "token dim 1 of size 15 does not divide over 'tp'", epsilon = 1.000000e-05 : f64} :
  %0 = graph.layer_norm %o, %s {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<2x15x64xf32>, tensor<64xf32> -> tensor<2x15x64xf32>
  // CHECK: graph.layer_norm {{.*}} {axis = 1 : i64, dist.sp_skipped = "token dim 1 is normalized over (axis 1)", epsilon = 1.000000e-05 : f64} :
  %1 = graph.layer_norm %x, %s2 {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<2x16x64xf32>, tensor<16x64xf32> -> tensor<2x16x64xf32>
  // CHECK-NOT: dist.shardings
  // CHECK: return
  return %0, %1 : tensor<2x15x64xf32>, tensor<2x16x64xf32>
}

// A norm over a vector has no token dim.
// CHECK-LABEL: func.func @vector
func.func @vector(%v: tensor<64xf32>) -> tensor<64xf32> {
  // CHECK: graph.rms_norm {{.*}}dist.sp_skipped = "token dim 0 is normalized over (axis 0)"
  %0 = graph.rms_norm %v, %v {axis = 0 : i64, epsilon = 1.0e-6 : f64} : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

}

// -----

// The axis option, and a mesh without it: nothing happens.
// RUN: paracc-opt %s -split-input-file --paracc-sequence-parallel="axis=mp" | FileCheck %s --check-prefix=MP
module attributes {dist.mesh = #dist.mesh<[mp = 4]>} {
// CHECK-LABEL: func.func @other_axis
// CHECK-NOT: dist.shardings
// CHECK-NOT: dist.sp_skipped
// MP-LABEL: func.func @other_axis
// MP-SAME: dist.sharding = #dist.sharding<{?}, {mp}, {?}>
// MP: graph.layer_norm {{.*}}dist.shardings = [#dist.sharding<{?}, {mp}, {?}>]
func.func @other_axis(%x: tensor<2x16x64xf32>, %s: tensor<64xf32>) -> tensor<2x16x64xf32> {
  %0 = graph.layer_norm %x, %s {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<2x16x64xf32>, tensor<64xf32> -> tensor<2x16x64xf32>
  return %0 : tensor<2x16x64xf32>
}
}

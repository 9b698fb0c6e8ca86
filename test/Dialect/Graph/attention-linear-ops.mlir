// RUN: paracc-opt %s | paracc-opt | FileCheck %s
// RUN: paracc-opt %s --mlir-print-op-generic | paracc-opt | FileCheck %s
// RUN: paracc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round trip of graph.attention and graph.linear: the custom assembly prints
// what it parses (optional mask and bias, every activation, causal), the
// default attributes (causal = false, activation = "none") are elided, and
// the generic form spells them out and parses back to the same ops.

//===----------------------------------------------------------------------===//
// graph.attention
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<2x4x8x16xf32>, %[[K:[^:]+]]: tensor<2x4x8x16xf32>, %[[V:[^:]+]]: tensor<2x4x8x32xf32>, %[[M:[^:]+]]: tensor<8x8xf32>, %[[P:[^:]+]]: tensor<2x1x1x8xf32>)
// GENERIC-LABEL: sym_name = "attention"
func.func @attention(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x16xf32>,
                     %v: tensor<2x4x8x32xf32>, %m: tensor<8x8xf32>,
                     %pad: tensor<2x1x1x8xf32>)
    -> (tensor<2x4x8x32xf32>, tensor<2x4x8x32xf32>, tensor<2x4x8x32xf32>,
        tensor<2x4x8x32xf32>) {
  // No mask, not causal: causal is elided.
  // CHECK: %[[A0:.*]] = graph.attention %[[Q]], %[[K]], %[[V]] {scale = 2.500000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>) -> tensor<2x4x8x32xf32>
  // GENERIC: "graph.attention"(%{{.*}}, %{{.*}}, %{{.*}}) <{causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 2.500000e-01 : f64, sequence_first = false, window = 0 : i64}> : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>) -> tensor<2x4x8x32xf32>
  %0 = graph.attention %q, %k, %v {scale = 0.25 : f64}
      : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>)
      -> tensor<2x4x8x32xf32>
  // Causal without a mask.
  // CHECK: %[[A1:.*]] = graph.attention %[[Q]], %[[K]], %[[V]] {causal = true, scale = 1.250000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>) -> tensor<2x4x8x32xf32>
  // GENERIC: "graph.attention"(%{{.*}}, %{{.*}}, %{{.*}}) <{causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.250000e-01 : f64, sequence_first = false, window = 0 : i64}>
  %1 = graph.attention %q, %k, %v {causal = true, scale = 0.125 : f64}
      : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>)
      -> tensor<2x4x8x32xf32>
  // A [Sq, Sk] mask broadcast over batch and heads, with causal.
  // CHECK: %[[A2:.*]] = graph.attention %[[Q]], %[[K]], %[[V]], %[[M]] {causal = true, scale = 2.500000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>, tensor<8x8xf32>) -> tensor<2x4x8x32xf32>
  // GENERIC: "graph.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, scale = 2.500000e-01 : f64, sequence_first = false, window = 0 : i64}> : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>, tensor<8x8xf32>) -> tensor<2x4x8x32xf32>
  %2 = graph.attention %q, %k, %v, %m {causal = true, scale = 0.25 : f64}
      : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>,
         tensor<8x8xf32>) -> tensor<2x4x8x32xf32>
  // A padding mask [B, 1, 1, Sk], not causal.
  // CHECK: %[[A3:.*]] = graph.attention %[[Q]], %[[K]], %[[V]], %[[P]] {scale = 2.500000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>, tensor<2x1x1x8xf32>) -> tensor<2x4x8x32xf32>
  %3 = graph.attention %q, %k, %v, %pad {scale = 0.25 : f64}
      : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x32xf32>,
         tensor<2x1x1x8xf32>) -> tensor<2x4x8x32xf32>
  // CHECK: return %[[A0]], %[[A1]], %[[A2]], %[[A3]]
  return %0, %1, %2, %3 : tensor<2x4x8x32xf32>, tensor<2x4x8x32xf32>,
                          tensor<2x4x8x32xf32>, tensor<2x4x8x32xf32>
}

// Cross attention (Sq != Sk, Dv != D), rank 2 (no batch dims), bf16, f16
// and a negative scale.
// CHECK-LABEL: func.func @attention_shapes
// GENERIC-LABEL: sym_name = "attention_shapes"
func.func @attention_shapes(%q: tensor<3x5x16xbf16>, %k: tensor<3x9x16xbf16>,
                            %v: tensor<3x9x4xbf16>, %q2: tensor<6x8xf16>,
                            %k2: tensor<7x8xf16>, %v2: tensor<7x2xf16>,
                            %m2: tensor<7xf16>)
    -> (tensor<3x5x4xbf16>, tensor<6x2xf16>) {
  // CHECK: graph.attention %{{.*}}, %{{.*}}, %{{.*}} {causal = true, scale = -1.000000e+00 : f64} : (tensor<3x5x16xbf16>, tensor<3x9x16xbf16>, tensor<3x9x4xbf16>) -> tensor<3x5x4xbf16>
  // GENERIC: "graph.attention"(%{{.*}}, %{{.*}}, %{{.*}}) <{causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = -1.000000e+00 : f64, sequence_first = false, window = 0 : i64}> : (tensor<3x5x16xbf16>, tensor<3x9x16xbf16>, tensor<3x9x4xbf16>) -> tensor<3x5x4xbf16>
  %0 = graph.attention %q, %k, %v {causal = true, scale = -1.0 : f64}
      : (tensor<3x5x16xbf16>, tensor<3x9x16xbf16>, tensor<3x9x4xbf16>)
      -> tensor<3x5x4xbf16>
  // CHECK: graph.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {scale = 3.535530e-01 : f64} : (tensor<6x8xf16>, tensor<7x8xf16>, tensor<7x2xf16>, tensor<7xf16>) -> tensor<6x2xf16>
  %1 = graph.attention %q2, %k2, %v2, %m2 {scale = 0.353553 : f64}
      : (tensor<6x8xf16>, tensor<7x8xf16>, tensor<7x2xf16>, tensor<7xf16>)
      -> tensor<6x2xf16>
  return %0, %1 : tensor<3x5x4xbf16>, tensor<6x2xf16>
}

// Sequence-first operands [B, S, H, D] (cross attention, Dv != D) with a
// mask on the scores [B, H, Sq, Sk] of the head-first view.
// CHECK-LABEL: func.func @attention_sequence_first
// GENERIC-LABEL: sym_name = "attention_sequence_first"
func.func @attention_sequence_first(%q: tensor<2x5x4x16xf32>,
                                    %k: tensor<2x9x4x16xf32>,
                                    %v: tensor<2x9x4x8xf32>,
                                    %m: tensor<4x1x9xf32>)
    -> tensor<2x5x4x8xf32> {
  // CHECK: graph.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {causal = true, scale = 2.500000e-01 : f64, sequence_first = true} : (tensor<2x5x4x16xf32>, tensor<2x9x4x16xf32>, tensor<2x9x4x8xf32>, tensor<4x1x9xf32>) -> tensor<2x5x4x8xf32>
  // GENERIC: <{causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, scale = 2.500000e-01 : f64, sequence_first = true, window = 0 : i64}>
  %0 = graph.attention %q, %k, %v, %m {causal = true, scale = 0.25 : f64, sequence_first = true}
      : (tensor<2x5x4x16xf32>, tensor<2x9x4x16xf32>, tensor<2x9x4x8xf32>,
         tensor<4x1x9xf32>) -> tensor<2x5x4x8xf32>
  return %0 : tensor<2x5x4x8xf32>
}

// A block of queries placed among the keys (context parallelism): start,
// with and without a mask, and on the gradient before saved statistics.
// CHECK-LABEL: func.func @attention_start
// GENERIC-LABEL: sym_name = "attention_start"
func.func @attention_start(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x32x16xf32>,
                           %m: tensor<2x1x1x32xf32>, %s: tensor<i64>,
                           %lse: tensor<2x4x8xf32>)
    -> (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) {
  // CHECK: graph.attention %{{.*}}, %{{.*}}, %{{.*}} start(%{{.*}}) {causal = true, scale = 2.500000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x32x16xf32>, tensor<2x4x32x16xf32>, tensor<i64>) -> tensor<2x4x8x16xf32>
  // GENERIC: "graph.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>,
  %0 = graph.attention %q, %k, %k start(%s) {causal = true, scale = 0.25 : f64}
      : (tensor<2x4x8x16xf32>, tensor<2x4x32x16xf32>, tensor<2x4x32x16xf32>,
         tensor<i64>) -> tensor<2x4x8x16xf32>
  // CHECK: graph.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} start(%{{.*}}) {causal = true, scale = 2.500000e-01 : f64, window = 4 : i64}
  // GENERIC: "graph.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>,
  %1 = graph.attention %q, %k, %k, %m start(%s) {causal = true, scale = 0.25 : f64, window = 4 : i64}
      : (tensor<2x4x8x16xf32>, tensor<2x4x32x16xf32>, tensor<2x4x32x16xf32>,
         tensor<2x1x1x32xf32>, tensor<i64>) -> tensor<2x4x8x16xf32>
  // CHECK: graph.attention_grad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} start(%{{.*}}) saved(%{{.*}}, %{{.*}}) {causal = true, scale = 2.500000e-01 : f64}
  // GENERIC: "graph.attention_grad"({{.*}}) <{causal = true, key_block = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 1, 1>,
  %dq, %dk, %dv = graph.attention_grad %0, %q, %k, %k start(%s) saved(%0, %lse) {causal = true, scale = 0.25 : f64}
      : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x32x16xf32>,
         tensor<2x4x32x16xf32>, tensor<i64>, tensor<2x4x8x16xf32>,
         tensor<2x4x8xf32>)
      -> (tensor<2x4x8x16xf32>, tensor<2x4x32x16xf32>, tensor<2x4x32x16xf32>)
  return %0, %1, %dq : tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>
}

//===----------------------------------------------------------------------===//
// graph.linear
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xf32>, %[[W:[^:]+]]: tensor<64x256xf32>, %[[B:[^:]+]]: tensor<256xf32>)
// GENERIC-LABEL: sym_name = "linear"
func.func @linear(%x: tensor<2x8x64xf32>, %w: tensor<64x256xf32>,
                  %b: tensor<256xf32>)
    -> (tensor<2x8x256xf32>, tensor<2x8x256xf32>, tensor<2x8x256xf32>,
        tensor<2x8x256xf32>, tensor<2x8x256xf32>) {
  // No bias, activation "none" elided.
  // CHECK: %[[L0:.*]] = graph.linear %[[X]], %[[W]] : (tensor<2x8x64xf32>, tensor<64x256xf32>) -> tensor<2x8x256xf32>
  // GENERIC: "graph.linear"(%{{.*}}, %{{.*}}) <{activation = "none", f32_result = false, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (tensor<2x8x64xf32>, tensor<64x256xf32>) -> tensor<2x8x256xf32>
  %0 = graph.linear %x, %w
      : (tensor<2x8x64xf32>, tensor<64x256xf32>) -> tensor<2x8x256xf32>
  // An explicit "none" is the default and is elided too.
  // CHECK: %[[L1:.*]] = graph.linear %[[X]], %[[W]], %[[B]] : (tensor<2x8x64xf32>, tensor<64x256xf32>, tensor<256xf32>) -> tensor<2x8x256xf32>
  // GENERIC: "graph.linear"(%{{.*}}, %{{.*}}, %{{.*}}) <{activation = "none", f32_result = false, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (tensor<2x8x64xf32>, tensor<64x256xf32>, tensor<256xf32>) -> tensor<2x8x256xf32>
  %1 = graph.linear %x, %w, %b {activation = "none"}
      : (tensor<2x8x64xf32>, tensor<64x256xf32>, tensor<256xf32>)
      -> tensor<2x8x256xf32>
  // CHECK: %[[L2:.*]] = graph.linear %[[X]], %[[W]], %[[B]] {activation = "gelu_tanh"} : (tensor<2x8x64xf32>, tensor<64x256xf32>, tensor<256xf32>) -> tensor<2x8x256xf32>
  // GENERIC: "graph.linear"(%{{.*}}, %{{.*}}, %{{.*}}) <{activation = "gelu_tanh", f32_result = false, operandSegmentSizes = array<i32: 1, 1, 1, 0>}>
  %2 = graph.linear %x, %w, %b {activation = "gelu_tanh"}
      : (tensor<2x8x64xf32>, tensor<64x256xf32>, tensor<256xf32>)
      -> tensor<2x8x256xf32>
  // CHECK: %[[L3:.*]] = graph.linear %[[X]], %[[W]], %[[B]] {activation = "gelu"} : (tensor<2x8x64xf32>, tensor<64x256xf32>, tensor<256xf32>) -> tensor<2x8x256xf32>
  // GENERIC: "graph.linear"(%{{.*}}, %{{.*}}, %{{.*}}) <{activation = "gelu", f32_result = false, operandSegmentSizes = array<i32: 1, 1, 1, 0>}>
  %3 = graph.linear %x, %w, %b {activation = "gelu"}
      : (tensor<2x8x64xf32>, tensor<64x256xf32>, tensor<256xf32>)
      -> tensor<2x8x256xf32>
  // Activation without a bias.
  // CHECK: %[[L4:.*]] = graph.linear %[[X]], %[[W]] {activation = "relu"} : (tensor<2x8x64xf32>, tensor<64x256xf32>) -> tensor<2x8x256xf32>
  // GENERIC: "graph.linear"(%{{.*}}, %{{.*}}) <{activation = "relu", f32_result = false, operandSegmentSizes = array<i32: 1, 1, 0, 0>}>
  %4 = graph.linear %x, %w {activation = "relu"}
      : (tensor<2x8x64xf32>, tensor<64x256xf32>) -> tensor<2x8x256xf32>
  // CHECK: return %[[L0]], %[[L1]], %[[L2]], %[[L3]], %[[L4]]
  return %0, %1, %2, %3, %4 : tensor<2x8x256xf32>, tensor<2x8x256xf32>,
                              tensor<2x8x256xf32>, tensor<2x8x256xf32>,
                              tensor<2x8x256xf32>
}

// A residual, with and without a bias.
// CHECK-LABEL: func.func @linear_residual
// GENERIC-LABEL: sym_name = "linear_residual"
func.func @linear_residual(%x: tensor<2x8x64xf32>, %w: tensor<64x64xf32>,
                           %b: tensor<64xf32>)
    -> (tensor<2x8x64xf32>, tensor<2x8x64xf32>) {
  // CHECK: %[[R0:.*]] = graph.linear %{{.*}}, %{{.*}}, %{{.*}} residual %{{.*}} : (tensor<2x8x64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  // GENERIC: "graph.linear"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{activation = "none", f32_result = false, operandSegmentSizes = array<i32: 1, 1, 1, 1>}>
  %0 = graph.linear %x, %w, %b residual %x
      : (tensor<2x8x64xf32>, tensor<64x64xf32>, tensor<64xf32>,
         tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  // CHECK: %[[R1:.*]] = graph.linear %{{.*}}, %{{.*}} residual %[[R0]] : (tensor<2x8x64xf32>, tensor<64x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  // GENERIC: "graph.linear"(%{{.*}}, %{{.*}}, %{{.*}}) <{activation = "none", f32_result = false, operandSegmentSizes = array<i32: 1, 1, 0, 1>}>
  %1 = graph.linear %x, %w residual %0
      : (tensor<2x8x64xf32>, tensor<64x64xf32>, tensor<2x8x64xf32>)
      -> tensor<2x8x64xf32>
  return %0, %1 : tensor<2x8x64xf32>, tensor<2x8x64xf32>
}

// bf16 operands with an f32 result.
// CHECK-LABEL: func.func @linear_f32_result
// GENERIC-LABEL: sym_name = "linear_f32_result"
func.func @linear_f32_result(%x: tensor<2x8x64xbf16>, %w: tensor<64x32xbf16>)
    -> tensor<2x8x32xf32> {
  // CHECK: graph.linear %{{.*}}, %{{.*}} {f32_result = true} : (tensor<2x8x64xbf16>, tensor<64x32xbf16>) -> tensor<2x8x32xf32>
  // GENERIC: <{activation = "none", f32_result = true, operandSegmentSizes = array<i32: 1, 1, 0, 0>}>
  %0 = graph.linear %x, %w {f32_result = true}
      : (tensor<2x8x64xbf16>, tensor<64x32xbf16>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// A 1-D x (a single row), a 2-D x, and the half-precision types.
// CHECK-LABEL: func.func @linear_shapes
// GENERIC-LABEL: sym_name = "linear_shapes"
func.func @linear_shapes(%x1: tensor<64xf32>, %w: tensor<64x16xf32>,
                         %x2: tensor<5x32xbf16>, %w2: tensor<32x8xbf16>,
                         %b2: tensor<8xbf16>, %x3: tensor<3x7x32xf16>,
                         %w3: tensor<32x8xf16>)
    -> (tensor<16xf32>, tensor<5x8xbf16>, tensor<3x7x8xf16>) {
  // CHECK: graph.linear %{{.*}}, %{{.*}} : (tensor<64xf32>, tensor<64x16xf32>) -> tensor<16xf32>
  %0 = graph.linear %x1, %w : (tensor<64xf32>, tensor<64x16xf32>)
      -> tensor<16xf32>
  // CHECK: graph.linear %{{.*}}, %{{.*}}, %{{.*}} {activation = "gelu"} : (tensor<5x32xbf16>, tensor<32x8xbf16>, tensor<8xbf16>) -> tensor<5x8xbf16>
  %1 = graph.linear %x2, %w2, %b2 {activation = "gelu"}
      : (tensor<5x32xbf16>, tensor<32x8xbf16>, tensor<8xbf16>)
      -> tensor<5x8xbf16>
  // CHECK: graph.linear %{{.*}}, %{{.*}} {activation = "relu"} : (tensor<3x7x32xf16>, tensor<32x8xf16>) -> tensor<3x7x8xf16>
  %2 = graph.linear %x3, %w3 {activation = "relu"}
      : (tensor<3x7x32xf16>, tensor<32x8xf16>) -> tensor<3x7x8xf16>
  return %0, %1, %2 : tensor<16xf32>, tensor<5x8xbf16>, tensor<3x7x8xf16>
}

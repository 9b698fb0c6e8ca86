// RUN: paracc-opt %s | paracc-opt | FileCheck %s
// RUN: paracc-opt %s --mlir-print-op-generic | paracc-opt | FileCheck %s
// RUN: paracc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round trip of every op of the graph dialect: the custom assembly prints
// what it parses, attributes at their default value are elided, and the
// generic form parses back to the same ops.

// CHECK-LABEL: func.func @sources
// GENERIC-LABEL: sym_name = "sources"
func.func @sources() -> (tensor<2xi64>, tensor<2x2xf32>, tensor<3xi1>,
                         tensor<f32>, tensor<4xbf16>, tensor<2xui8>,
                         tensor<256x768xf16>, tensor<4xf32>) {
  // CHECK: %[[C0:.*]] = graph.constant dense<[2, 64]> : tensor<2xi64>
  // GENERIC: "graph.constant"() <{value = dense<[2, 64]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %0 = graph.constant dense<[2, 64]> : tensor<2xi64>
  // CHECK: %[[C1:.*]] = graph.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %1 = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // CHECK: %[[C2:.*]] = graph.constant dense<[true, false, true]> : tensor<3xi1>
  %2 = graph.constant dense<[true, false, true]> : tensor<3xi1>
  // CHECK: %[[C3:.*]] = graph.constant dense<-1.500000e+00> : tensor<f32>
  %3 = graph.constant dense<-1.5> : tensor<f32>
  // CHECK: %[[C4:.*]] = graph.constant dense<[1.000000e+00, 2.500000e-01, -3.000000e+00, 0.000000e+00]> : tensor<4xbf16>
  %4 = graph.constant dense<[1.0, 0.25, -3.0, 0.0]> : tensor<4xbf16>
  // CHECK: %[[C5:.*]] = graph.constant dense<[255, 7]> : tensor<2xui8>
  %5 = graph.constant dense<[255, 7]> : tensor<2xui8>
  // CHECK: %[[W:.*]] = graph.weight "transformer.h.0.attn.c_attn.weight" : tensor<256x768xf16>
  // GENERIC: "graph.weight"() <{name = "transformer.h.0.attn.c_attn.weight"}> : () -> tensor<256x768xf16>
  %6 = graph.weight "transformer.h.0.attn.c_attn.weight" : tensor<256x768xf16>
  // An attribute dictionary on the op survives next to the name.
  // CHECK: %[[W2:.*]] = graph.weight "lm_head.weight" {tied} : tensor<4xf32>
  %7 = graph.weight "lm_head.weight" {tied} : tensor<4xf32>
  // CHECK: return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]], %[[W]], %[[W2]]
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2xi64>, tensor<2x2xf32>,
      tensor<3xi1>, tensor<f32>, tensor<4xbf16>, tensor<2xui8>,
      tensor<256x768xf16>, tensor<4xf32>
}

// CHECK-LABEL: func.func @unary_float
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x3xf32>)
func.func @unary_float(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[V0:.*]] = graph.sqrt %[[X]] : tensor<2x3xf32>
  %0 = graph.sqrt %x : tensor<2x3xf32>
  // CHECK: %[[V1:.*]] = graph.rsqrt %[[V0]] : tensor<2x3xf32>
  %1 = graph.rsqrt %0 : tensor<2x3xf32>
  // CHECK: %[[V2:.*]] = graph.reciprocal %[[V1]] : tensor<2x3xf32>
  %2 = graph.reciprocal %1 : tensor<2x3xf32>
  // CHECK: %[[V3:.*]] = graph.exp %[[V2]] : tensor<2x3xf32>
  %3 = graph.exp %2 : tensor<2x3xf32>
  // CHECK: %[[V4:.*]] = graph.log %[[V3]] : tensor<2x3xf32>
  %4 = graph.log %3 : tensor<2x3xf32>
  // CHECK: %[[V5:.*]] = graph.tanh %[[V4]] : tensor<2x3xf32>
  %5 = graph.tanh %4 : tensor<2x3xf32>
  // CHECK: %[[V6:.*]] = graph.erf %[[V5]] : tensor<2x3xf32>
  %6 = graph.erf %5 : tensor<2x3xf32>
  // CHECK: %[[V7:.*]] = graph.sigmoid %[[V6]] : tensor<2x3xf32>
  %7 = graph.sigmoid %6 : tensor<2x3xf32>
  // CHECK: %[[V8:.*]] = graph.silu %[[V7]] : tensor<2x3xf32>
  %8 = graph.silu %7 : tensor<2x3xf32>
  // CHECK: %[[V9:.*]] = graph.sin %[[V8]] : tensor<2x3xf32>
  %9 = graph.sin %8 : tensor<2x3xf32>
  // CHECK: %[[V10:.*]] = graph.cos %[[V9]] : tensor<2x3xf32>
  %10 = graph.cos %9 : tensor<2x3xf32>
  // CHECK: %[[V11:.*]] = graph.tan %[[V10]] : tensor<2x3xf32>
  %11 = graph.tan %10 : tensor<2x3xf32>
  // CHECK: %[[V12:.*]] = graph.asin %[[V11]] : tensor<2x3xf32>
  %12 = graph.asin %11 : tensor<2x3xf32>
  // CHECK: %[[V13:.*]] = graph.acos %[[V12]] : tensor<2x3xf32>
  %13 = graph.acos %12 : tensor<2x3xf32>
  // CHECK: %[[V14:.*]] = graph.atan %[[V13]] : tensor<2x3xf32>
  %14 = graph.atan %13 : tensor<2x3xf32>
  // CHECK: %[[V15:.*]] = graph.sinh %[[V14]] : tensor<2x3xf32>
  %15 = graph.sinh %14 : tensor<2x3xf32>
  // CHECK: %[[V16:.*]] = graph.cosh %[[V15]] : tensor<2x3xf32>
  %16 = graph.cosh %15 : tensor<2x3xf32>
  // CHECK: %[[V17:.*]] = graph.asinh %[[V16]] : tensor<2x3xf32>
  %17 = graph.asinh %16 : tensor<2x3xf32>
  // CHECK: %[[V18:.*]] = graph.acosh %[[V17]] : tensor<2x3xf32>
  %18 = graph.acosh %17 : tensor<2x3xf32>
  // CHECK: %[[V19:.*]] = graph.atanh %[[V18]] : tensor<2x3xf32>
  %19 = graph.atanh %18 : tensor<2x3xf32>
  // CHECK: %[[V20:.*]] = graph.floor %[[V19]] : tensor<2x3xf32>
  %20 = graph.floor %19 : tensor<2x3xf32>
  // CHECK: %[[V21:.*]] = graph.ceil %[[V20]] : tensor<2x3xf32>
  %21 = graph.ceil %20 : tensor<2x3xf32>
  // CHECK: %[[V22:.*]] = graph.round %[[V21]] : tensor<2x3xf32>
  %22 = graph.round %21 : tensor<2x3xf32>
  // CHECK: return %[[V22]] : tensor<2x3xf32>
  return %22 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @unary_numeric
// CHECK-SAME: (%[[I:[^:]+]]: tensor<4xi64>, %[[H:[^:]+]]: tensor<4xf16>, %[[U:[^:]+]]: tensor<4xui8>, %[[B:[^:]+]]: tensor<4xi1>)
func.func @unary_numeric(%i: tensor<4xi64>, %h: tensor<4xf16>,
                         %u: tensor<4xui8>, %b: tensor<4xi1>)
    -> (tensor<4xi64>, tensor<4xf16>, tensor<4xui8>, tensor<4xi1>) {
  // CHECK: %[[NEG:.*]] = graph.neg %[[I]] : tensor<4xi64>
  %0 = graph.neg %i : tensor<4xi64>
  // CHECK: %[[ABS:.*]] = graph.abs %[[NEG]] : tensor<4xi64>
  %1 = graph.abs %0 : tensor<4xi64>
  // CHECK: %[[RELU:.*]] = graph.relu %[[ABS]] : tensor<4xi64>
  %2 = graph.relu %1 : tensor<4xi64>
  // CHECK: %[[SIGN:.*]] = graph.sign %[[H]] : tensor<4xf16>
  %3 = graph.sign %h : tensor<4xf16>
  // CHECK: %[[HNEG:.*]] = graph.neg %[[SIGN]] : tensor<4xf16>
  %4 = graph.neg %3 : tensor<4xf16>
  // Unsigned tensors are numeric: abs and sign accept them.
  // CHECK: %[[UABS:.*]] = graph.abs %[[U]] : tensor<4xui8>
  %5 = graph.abs %u : tensor<4xui8>
  // CHECK: %[[USIGN:.*]] = graph.sign %[[UABS]] : tensor<4xui8>
  %6 = graph.sign %5 : tensor<4xui8>
  // CHECK: %[[NOT:.*]] = graph.not %[[B]] : tensor<4xi1>
  %7 = graph.not %b : tensor<4xi1>
  // CHECK: return %[[RELU]], %[[HNEG]], %[[USIGN]], %[[NOT]]
  return %2, %4, %6, %7 : tensor<4xi64>, tensor<4xf16>, tensor<4xui8>,
      tensor<4xi1>
}

// CHECK-LABEL: func.func @gelu_and_predicates
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8xbf16>)
func.func @gelu_and_predicates(%x: tensor<2x8xbf16>)
    -> (tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<2x8xi1>,
        tensor<2x8xi1>, tensor<2x8xi1>, tensor<2x8xi1>) {
  // CHECK: %[[G0:.*]] = graph.gelu %[[X]] : tensor<2x8xbf16>
  %0 = graph.gelu %x : tensor<2x8xbf16>
  // The default "none" is elided when printed.
  // CHECK: %[[G1:.*]] = graph.gelu %[[X]] : tensor<2x8xbf16>
  %1 = graph.gelu %x {approximate = "none"} : tensor<2x8xbf16>
  // CHECK: %[[G2:.*]] = graph.gelu %[[X]] {approximate = "tanh"} : tensor<2x8xbf16>
  %2 = graph.gelu %x {approximate = "tanh"} : tensor<2x8xbf16>
  // CHECK: %[[NAN:.*]] = graph.is_nan %[[X]] : tensor<2x8xbf16> -> tensor<2x8xi1>
  %3 = graph.is_nan %x : tensor<2x8xbf16> -> tensor<2x8xi1>
  // CHECK: %[[INF:.*]] = graph.is_inf %[[X]] : tensor<2x8xbf16> -> tensor<2x8xi1>
  %4 = graph.is_inf %x : tensor<2x8xbf16> -> tensor<2x8xi1>
  // CHECK: %[[PINF:.*]] = graph.is_inf %[[X]] {detect_negative = false} : tensor<2x8xbf16> -> tensor<2x8xi1>
  %5 = graph.is_inf %x {detect_negative = false} : tensor<2x8xbf16> -> tensor<2x8xi1>
  // CHECK: %[[NINF:.*]] = graph.is_inf %[[X]] {detect_positive = false} : tensor<2x8xbf16> -> tensor<2x8xi1>
  %6 = graph.is_inf %x {detect_positive = false, detect_negative = true} : tensor<2x8xbf16> -> tensor<2x8xi1>
  // CHECK: return %[[G0]], %[[G1]], %[[G2]], %[[NAN]], %[[INF]], %[[PINF]], %[[NINF]]
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x8xbf16>, tensor<2x8xbf16>,
      tensor<2x8xbf16>, tensor<2x8xi1>, tensor<2x8xi1>, tensor<2x8xi1>,
      tensor<2x8xi1>
}

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:[^:]+]]: tensor<2x1x4xf32>, %[[B:[^:]+]]: tensor<3x1xf32>, %[[I:[^:]+]]: tensor<5xi32>, %[[J:[^:]+]]: tensor<1xi32>)
func.func @binary(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>,
                  %i: tensor<5xi32>, %j: tensor<1xi32>)
    -> (tensor<2x3x4xf32>, tensor<5xi32>) {
  // CHECK: %[[ADD:.*]] = graph.add %[[A]], %[[B]] : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %0 = graph.add %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: %[[SUB:.*]] = graph.sub %[[ADD]], %[[A]] : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  %1 = graph.sub %0, %a : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: %[[MUL:.*]] = graph.mul %[[B]], %[[SUB]] : (tensor<3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = graph.mul %b, %1 : (tensor<3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: %[[DIV:.*]] = graph.div %[[MUL]], %[[MUL]] : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %3 = graph.div %2, %2 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: %[[POW:.*]] = graph.pow %[[DIV]], %[[B]] : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %4 = graph.pow %3, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: %[[MAX:.*]] = graph.max %[[POW]], %[[A]] : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  %5 = graph.max %4, %a : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: %[[MIN:.*]] = graph.min %[[MAX]], %[[B]] : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %6 = graph.min %5, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: %[[FMOD:.*]] = graph.mod %[[MIN]], %[[A]] {fmod = true} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  %7 = graph.mod %6, %a {fmod = true} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  // fmod = false is the default and is elided.
  // CHECK: %[[MOD:.*]] = graph.mod %[[I]], %[[J]] : (tensor<5xi32>, tensor<1xi32>) -> tensor<5xi32>
  %8 = graph.mod %i, %j {fmod = false} : (tensor<5xi32>, tensor<1xi32>) -> tensor<5xi32>
  // CHECK: return %[[FMOD]], %[[MOD]]
  return %7, %8 : tensor<2x3x4xf32>, tensor<5xi32>
}

// CHECK-LABEL: func.func @logical
// CHECK-SAME: (%[[P:[^:]+]]: tensor<4xi1>, %[[Q:[^:]+]]: tensor<2x1xi1>)
func.func @logical(%p: tensor<4xi1>, %q: tensor<2x1xi1>) -> tensor<2x4xi1> {
  // CHECK: %[[AND:.*]] = graph.and %[[P]], %[[Q]] : (tensor<4xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
  %0 = graph.and %p, %q : (tensor<4xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
  // CHECK: %[[OR:.*]] = graph.or %[[AND]], %[[P]] : (tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  %1 = graph.or %0, %p : (tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  // CHECK: %[[XOR:.*]] = graph.xor %[[OR]], %[[Q]] : (tensor<2x4xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
  %2 = graph.xor %1, %q : (tensor<2x4xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
  // CHECK: return %[[XOR]]
  return %2 : tensor<2x4xi1>
}

// CHECK-LABEL: func.func @compare_where
// CHECK-SAME: (%[[A:[^:]+]]: tensor<2x3xi64>, %[[B:[^:]+]]: tensor<3xi64>, %[[U:[^:]+]]: tensor<3xui8>, %[[P:[^:]+]]: tensor<3xi1>, %[[F:[^:]+]]: tensor<2x3xf16>)
func.func @compare_where(%a: tensor<2x3xi64>, %b: tensor<3xi64>,
                         %u: tensor<3xui8>, %p: tensor<3xi1>,
                         %f: tensor<2x3xf16>)
    -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<3xi1>,
        tensor<3xi1>, tensor<2x3xi64>, tensor<2x3xf16>) {
  // CHECK: %[[EQ:.*]] = graph.equal %[[A]], %[[B]] : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi1>
  %0 = graph.equal %a, %b : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi1>
  // CHECK: %[[LT:.*]] = graph.less %[[B]], %[[A]] : (tensor<3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
  %1 = graph.less %b, %a : (tensor<3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
  // CHECK: %[[LE:.*]] = graph.less_equal %[[A]], %[[A]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
  %2 = graph.less_equal %a, %a : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
  // Comparisons take every element type, unsigned and bool included.
  // CHECK: %[[GT:.*]] = graph.greater %[[U]], %[[U]] : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
  %3 = graph.greater %u, %u : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
  // CHECK: %[[GE:.*]] = graph.greater_equal %[[P]], %[[GT]] : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %4 = graph.greater_equal %p, %3 : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  // CHECK: %[[W0:.*]] = graph.where %[[GE]], %[[A]], %[[B]] : (tensor<3xi1>, tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %5 = graph.where %4, %a, %b : (tensor<3xi1>, tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  // CHECK: %[[W1:.*]] = graph.where %[[EQ]], %[[F]], %[[F]] : (tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %6 = graph.where %0, %f, %f : (tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  // CHECK: return %[[EQ]], %[[LT]], %[[LE]], %[[GT]], %[[GE]], %[[W0]], %[[W1]]
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xi1>, tensor<2x3xi1>,
      tensor<2x3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2x3xi64>,
      tensor<2x3xf16>
}

// CHECK-LABEL: func.func @cast_clip
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x3xf32>, %[[I:[^:]+]]: tensor<4xi64>)
func.func @cast_clip(%x: tensor<2x3xf32>, %i: tensor<4xi64>)
    -> (tensor<2x3xi1>, tensor<2x3xbf16>, tensor<4xui8>, tensor<2x3xf32>,
        tensor<4xi64>) {
  // CHECK: %[[B:.*]] = graph.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi1>
  %0 = graph.cast %x : tensor<2x3xf32> -> tensor<2x3xi1>
  // CHECK: %[[BF:.*]] = graph.cast %[[B]] : tensor<2x3xi1> -> tensor<2x3xbf16>
  %1 = graph.cast %0 : tensor<2x3xi1> -> tensor<2x3xbf16>
  // CHECK: %[[U:.*]] = graph.cast %[[I]] : tensor<4xi64> -> tensor<4xui8>
  %2 = graph.cast %i : tensor<4xi64> -> tensor<4xui8>
  // CHECK: %[[C0:.*]] = graph.clip %[[X]] {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<2x3xf32>
  %3 = graph.clip %x {min = 0.0 : f64, max = 6.0 : f64} : tensor<2x3xf32>
  // Equal bounds are allowed.
  // CHECK: %[[C1:.*]] = graph.clip %[[I]] {max = -2.500000e+00 : f64, min = -2.500000e+00 : f64} : tensor<4xi64>
  %4 = graph.clip %i {min = -2.5 : f64, max = -2.5 : f64} : tensor<4xi64>
  // CHECK: return %[[B]], %[[BF]], %[[U]], %[[C0]], %[[C1]]
  return %0, %1, %2, %3, %4 : tensor<2x3xi1>, tensor<2x3xbf16>,
      tensor<4xui8>, tensor<2x3xf32>, tensor<4xi64>
}

// CHECK-LABEL: func.func @linalg
// GENERIC-LABEL: sym_name = "linalg"
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x64x256xf32>, %[[W:[^:]+]]: tensor<256x1024xf32>, %[[V:[^:]+]]: tensor<256xf32>, %[[A:[^:]+]]: tensor<3x4xf16>, %[[B:[^:]+]]: tensor<5x4xf16>, %[[C:[^:]+]]: tensor<5xf16>)
func.func @linalg(%x: tensor<2x64x256xf32>, %w: tensor<256x1024xf32>,
                  %v: tensor<256xf32>, %a: tensor<3x4xf16>,
                  %b: tensor<5x4xf16>, %c: tensor<5xf16>)
    -> (tensor<2x64x1024xf32>, tensor<2x64xf32>, tensor<1024xf32>, tensor<f32>,
        tensor<3x5xf16>, tensor<3x5xf16>, tensor<4x4xf16>) {
  // CHECK: %[[MM:.*]] = graph.matmul %[[X]], %[[W]] : (tensor<2x64x256xf32>, tensor<256x1024xf32>) -> tensor<2x64x1024xf32>
  %0 = graph.matmul %x, %w : (tensor<2x64x256xf32>, tensor<256x1024xf32>) -> tensor<2x64x1024xf32>
  // 1-D operands: the added dim is removed again.
  // CHECK: %[[MV:.*]] = graph.matmul %[[X]], %[[V]] : (tensor<2x64x256xf32>, tensor<256xf32>) -> tensor<2x64xf32>
  %1 = graph.matmul %x, %v : (tensor<2x64x256xf32>, tensor<256xf32>) -> tensor<2x64xf32>
  // CHECK: %[[VM:.*]] = graph.matmul %[[V]], %[[W]] : (tensor<256xf32>, tensor<256x1024xf32>) -> tensor<1024xf32>
  %2 = graph.matmul %v, %w : (tensor<256xf32>, tensor<256x1024xf32>) -> tensor<1024xf32>
  // CHECK: %[[VV:.*]] = graph.matmul %[[V]], %[[V]] : (tensor<256xf32>, tensor<256xf32>) -> tensor<f32>
  %3 = graph.matmul %v, %v : (tensor<256xf32>, tensor<256xf32>) -> tensor<f32>
  // Optional c present, with every attribute.
  // CHECK: %[[G0:.*]] = graph.gemm %[[A]], %[[B]], %[[C]] {alpha = 5.000000e-01 : f64, beta = 2.000000e+00 : f64, trans_b = true} : (tensor<3x4xf16>, tensor<5x4xf16>, tensor<5xf16>) -> tensor<3x5xf16>
  %4 = graph.gemm %a, %b, %c {trans_a = false, trans_b = true, alpha = 0.5 : f64, beta = 2.0 : f64} : (tensor<3x4xf16>, tensor<5x4xf16>, tensor<5xf16>) -> tensor<3x5xf16>
  // Optional c absent; the default attributes are elided.
  // CHECK: %[[G1:.*]] = graph.gemm %[[A]], %[[B]] {trans_b = true} : (tensor<3x4xf16>, tensor<5x4xf16>) -> tensor<3x5xf16>
  // GENERIC: "graph.gemm"(%{{.*}}, %{{.*}}) <{alpha = 1.000000e+00 : f64, beta = 1.000000e+00 : f64, trans_a = false, trans_b = true}> : (tensor<3x4xf16>, tensor<5x4xf16>) -> tensor<3x5xf16>
  %5 = graph.gemm %a, %b {trans_b = true, alpha = 1.0 : f64, beta = 1.0 : f64} : (tensor<3x4xf16>, tensor<5x4xf16>) -> tensor<3x5xf16>
  // CHECK: %[[G2:.*]] = graph.gemm %[[A]], %[[A]] {trans_a = true} : (tensor<3x4xf16>, tensor<3x4xf16>) -> tensor<4x4xf16>
  %6 = graph.gemm %a, %a {trans_a = true} : (tensor<3x4xf16>, tensor<3x4xf16>) -> tensor<4x4xf16>
  // CHECK: return %[[MM]], %[[MV]], %[[VM]], %[[VV]], %[[G0]], %[[G1]], %[[G2]]
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x64x1024xf32>, tensor<2x64xf32>,
      tensor<1024xf32>, tensor<f32>, tensor<3x5xf16>, tensor<3x5xf16>,
      tensor<4x4xf16>
}

// CHECK-LABEL: func.func @normalization
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8x64xbf16>, %[[S:[^:]+]]: tensor<64xbf16>, %[[S2:[^:]+]]: tensor<8x1xbf16>)
func.func @normalization(%x: tensor<2x8x64xbf16>, %s: tensor<64xbf16>,
                         %s2: tensor<8x1xbf16>)
    -> (tensor<2x8x64xbf16>, tensor<2x8x64xbf16>, tensor<2x8x64xbf16>,
        tensor<2x8x64xbf16>, tensor<2x8x64xbf16>) {
  // Optional bias present.
  // CHECK: %[[LN0:.*]] = graph.layer_norm %[[X]], %[[S]], %[[S]] {axis = 2 : i64, epsilon = 1.000000e-05 : f64} : tensor<2x8x64xbf16>, tensor<64xbf16>, tensor<64xbf16> -> tensor<2x8x64xbf16>
  %0 = graph.layer_norm %x, %s, %s {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<2x8x64xbf16>, tensor<64xbf16>, tensor<64xbf16> -> tensor<2x8x64xbf16>
  // Optional bias absent; the scale broadcasts to the normalized [8, 64].
  // CHECK: %[[LN1:.*]] = graph.layer_norm %[[X]], %[[S2]] {axis = 1 : i64, epsilon = 0.000000e+00 : f64} : tensor<2x8x64xbf16>, tensor<8x1xbf16> -> tensor<2x8x64xbf16>
  %1 = graph.layer_norm %x, %s2 {axis = 1 : i64, epsilon = 0.0 : f64} : tensor<2x8x64xbf16>, tensor<8x1xbf16> -> tensor<2x8x64xbf16>
  // CHECK: %[[RMS:.*]] = graph.rms_norm %[[X]], %[[S]] {axis = 2 : i64, epsilon = 9.9999999999999995E-7 : f64} : tensor<2x8x64xbf16>, tensor<64xbf16> -> tensor<2x8x64xbf16>
  %2 = graph.rms_norm %x, %s {axis = 2 : i64, epsilon = 1.0e-6 : f64} : tensor<2x8x64xbf16>, tensor<64xbf16> -> tensor<2x8x64xbf16>
  // CHECK: %[[SM:.*]] = graph.softmax %[[X]] {axis = 2 : i64} : tensor<2x8x64xbf16>
  %3 = graph.softmax %x {axis = 2 : i64} : tensor<2x8x64xbf16>
  // CHECK: %[[LSM:.*]] = graph.log_softmax %[[X]] {axis = 0 : i64} : tensor<2x8x64xbf16>
  %4 = graph.log_softmax %x {axis = 0 : i64} : tensor<2x8x64xbf16>
  // CHECK: return %[[LN0]], %[[LN1]], %[[RMS]], %[[SM]], %[[LSM]]
  return %0, %1, %2, %3, %4 : tensor<2x8x64xbf16>, tensor<2x8x64xbf16>,
      tensor<2x8x64xbf16>, tensor<2x8x64xbf16>, tensor<2x8x64xbf16>
}

// CHECK-LABEL: func.func @indexing
// CHECK-SAME: (%[[T:[^:]+]]: tensor<50x16xf32>, %[[IDS:[^:]+]]: tensor<2x7xi32>, %[[I64:[^:]+]]: tensor<3xi64>, %[[E:[^:]+]]: tensor<2x16xi64>, %[[ND:[^:]+]]: tensor<4x2xi64>, %[[BND:[^:]+]]: tensor<50x3x1xi64>)
func.func @indexing(%t: tensor<50x16xf32>, %ids: tensor<2x7xi32>,
                    %i64: tensor<3xi64>, %e: tensor<2x16xi64>,
                    %nd: tensor<4x2xi64>, %bnd: tensor<50x3x1xi64>)
    -> (tensor<2x7x16xf32>, tensor<50x3xf32>, tensor<2x16xf32>, tensor<4xf32>,
        tensor<50x3xf32>) {
  // An embedding lookup: gather on axis 0 with i32 indices.
  // CHECK: %[[G0:.*]] = graph.gather %[[T]], %[[IDS]] {axis = 0 : i64} : (tensor<50x16xf32>, tensor<2x7xi32>) -> tensor<2x7x16xf32>
  %0 = graph.gather %t, %ids {axis = 0 : i64} : (tensor<50x16xf32>, tensor<2x7xi32>) -> tensor<2x7x16xf32>
  // CHECK: %[[G1:.*]] = graph.gather %[[T]], %[[I64]] {axis = 1 : i64} : (tensor<50x16xf32>, tensor<3xi64>) -> tensor<50x3xf32>
  %1 = graph.gather %t, %i64 {axis = 1 : i64} : (tensor<50x16xf32>, tensor<3xi64>) -> tensor<50x3xf32>
  // CHECK: %[[GE:.*]] = graph.gather_elements %[[T]], %[[E]] {axis = 0 : i64} : (tensor<50x16xf32>, tensor<2x16xi64>) -> tensor<2x16xf32>
  %2 = graph.gather_elements %t, %e {axis = 0 : i64} : (tensor<50x16xf32>, tensor<2x16xi64>) -> tensor<2x16xf32>
  // batch_dims = 0 is the default and is elided.
  // CHECK: %[[GND0:.*]] = graph.gather_nd %[[T]], %[[ND]] : (tensor<50x16xf32>, tensor<4x2xi64>) -> tensor<4xf32>
  %3 = graph.gather_nd %t, %nd {batch_dims = 0 : i64} : (tensor<50x16xf32>, tensor<4x2xi64>) -> tensor<4xf32>
  // CHECK: %[[GND1:.*]] = graph.gather_nd %[[T]], %[[BND]] {batch_dims = 1 : i64} : (tensor<50x16xf32>, tensor<50x3x1xi64>) -> tensor<50x3xf32>
  %4 = graph.gather_nd %t, %bnd {batch_dims = 1 : i64} : (tensor<50x16xf32>, tensor<50x3x1xi64>) -> tensor<50x3xf32>
  // CHECK: return %[[G0]], %[[G1]], %[[GE]], %[[GND0]], %[[GND1]]
  return %0, %1, %2, %3, %4 : tensor<2x7x16xf32>, tensor<50x3xf32>,
      tensor<2x16xf32>, tensor<4xf32>, tensor<50x3xf32>
}

// CHECK-LABEL: func.func @data_movement
// GENERIC-LABEL: sym_name = "data_movement"
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>, %[[Y:[^:]+]]: tensor<4x2xf32>, %[[B:[^:]+]]: tensor<1x8xi1>)
func.func @data_movement(%x: tensor<4x8xf32>, %y: tensor<4x2xf32>,
                         %b: tensor<1x8xi1>)
    -> (tensor<2x16xf32>, tensor<8x4xf32>, tensor<4x3xf32>, tensor<2x4xf32>,
        tensor<4x8xf32>, tensor<4x12xf32>, tensor<4x8xf32>, tensor<4x1xf32>,
        tensor<4x7xf32>, tensor<4x8xf32>, tensor<3x4x8xi1>) {
  // CHECK: %[[R:.*]] = graph.reshape %[[X]] : tensor<4x8xf32> -> tensor<2x16xf32>
  %0 = graph.reshape %x : tensor<4x8xf32> -> tensor<2x16xf32>
  // CHECK: %[[T:.*]] = graph.transpose %[[X]], [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %1 = graph.transpose %x, [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: %[[S0:.*]] = graph.slice %[[X]], starts = [0, 2], limits = [4, 8], steps = [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  %2 = graph.slice %x, starts = [0, 2], limits = [4, 8], steps = [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  // A negative step walks down; its limit may be -1.
  // CHECK: %[[S1:.*]] = graph.slice %[[X]], starts = [3, 7], limits = [-1, -1], steps = [-2, -2] : tensor<4x8xf32> -> tensor<2x4xf32>
  // GENERIC: "graph.slice"(%{{.*}}) <{limits = array<i64: -1, -1>, starts = array<i64: 3, 7>, steps = array<i64: -2, -2>}> : (tensor<4x8xf32>) -> tensor<2x4xf32>
  %3 = graph.slice %x, starts = [3, 7], limits = [-1, -1], steps = [-2, -2] : tensor<4x8xf32> -> tensor<2x4xf32>
  // A concat of a single operand.
  // CHECK: %[[C0:.*]] = graph.concat %[[X]] {axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = graph.concat %x {axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[C1:.*]] = graph.concat %[[Y]], %[[X]], %[[Y]] {axis = 1 : i64} : (tensor<4x2xf32>, tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x12xf32>
  %5 = graph.concat %y, %x, %y {axis = 1 : i64} : (tensor<4x2xf32>, tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x12xf32>
  // A split into a single piece and into several.
  // CHECK: %[[SP0:.*]] = graph.split %[[X]] {axis = 0 : i64} : tensor<4x8xf32> -> tensor<4x8xf32>
  %6 = graph.split %x {axis = 0 : i64} : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: %[[SP1:.*]]:2 = graph.split %[[X]] {axis = 1 : i64} : tensor<4x8xf32> -> tensor<4x1xf32>, tensor<4x7xf32>
  // GENERIC: "graph.split"(%{{.*}}) <{axis = 1 : i64}> : (tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x7xf32>)
  %7:2 = graph.split %x {axis = 1 : i64} : tensor<4x8xf32> -> tensor<4x1xf32>, tensor<4x7xf32>
  // CHECK: %[[E:.*]] = graph.expand %[[B]] : tensor<1x8xi1> -> tensor<3x4x8xi1>
  %8 = graph.expand %b : tensor<1x8xi1> -> tensor<3x4x8xi1>
  // CHECK: return %[[R]], %[[T]], %[[S0]], %[[S1]], %[[C0]], %[[C1]], %[[SP0]], %[[SP1]]#0, %[[SP1]]#1, %[[X]], %[[E]]
  return %0, %1, %2, %3, %4, %5, %6, %7#0, %7#1, %x, %8 : tensor<2x16xf32>,
      tensor<8x4xf32>, tensor<4x3xf32>, tensor<2x4xf32>, tensor<4x8xf32>,
      tensor<4x12xf32>, tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x7xf32>,
      tensor<4x8xf32>, tensor<3x4x8xi1>
}

// CHECK-LABEL: func.func @reductions
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x3x4xf32>, %[[I:[^:]+]]: tensor<2x3xi32>, %[[U:[^:]+]]: tensor<5xui8>)
func.func @reductions(%x: tensor<2x3x4xf32>, %i: tensor<2x3xi32>,
                      %u: tensor<5xui8>)
    -> (tensor<2x1x1xf32>, tensor<2x3xf32>, tensor<1x3x1xf32>, tensor<f32>,
        tensor<2x1xi32>, tensor<2x3x4xf32>, tensor<2x1x4xi64>, tensor<2x3xi64>,
        tensor<i64>) {
  // keepdims = true is the default and is elided.
  // CHECK: %[[SUM:.*]] = graph.reduce_sum %[[X]], [1, 2] : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  %0 = graph.reduce_sum %x, [1, 2] {keepdims = true} : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  // CHECK: %[[MEAN:.*]] = graph.reduce_mean %[[X]], [2] {keepdims = false} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %1 = graph.reduce_mean %x, [2] {keepdims = false} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  // CHECK: %[[MAX:.*]] = graph.reduce_max %[[X]], [0, 2] : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %2 = graph.reduce_max %x, [0, 2] : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  // CHECK: %[[MIN:.*]] = graph.reduce_min %[[X]], [0, 1, 2] {keepdims = false} : tensor<2x3x4xf32> -> tensor<f32>
  %3 = graph.reduce_min %x, [0, 1, 2] {keepdims = false} : tensor<2x3x4xf32> -> tensor<f32>
  // CHECK: %[[PROD:.*]] = graph.reduce_prod %[[I]], [1] : tensor<2x3xi32> -> tensor<2x1xi32>
  %4 = graph.reduce_prod %i, [1] : tensor<2x3xi32> -> tensor<2x1xi32>
  // An empty axis list reduces nothing.
  // CHECK: %[[NONE:.*]] = graph.reduce_sum %[[X]], [] : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  %5 = graph.reduce_sum %x, [] : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  // CHECK: %[[AMAX:.*]] = graph.argmax %[[X]] {axis = 1 : i64} : tensor<2x3x4xf32> -> tensor<2x1x4xi64>
  %6 = graph.argmax %x {axis = 1 : i64, keepdims = true, select_last_index = false} : tensor<2x3x4xf32> -> tensor<2x1x4xi64>
  // CHECK: %[[AMIN:.*]] = graph.argmin %[[X]] {axis = 2 : i64, keepdims = false, select_last_index = true} : tensor<2x3x4xf32> -> tensor<2x3xi64>
  %7 = graph.argmin %x {axis = 2 : i64, keepdims = false, select_last_index = true} : tensor<2x3x4xf32> -> tensor<2x3xi64>
  // CHECK: %[[AU:.*]] = graph.argmax %[[U]] {axis = 0 : i64, keepdims = false} : tensor<5xui8> -> tensor<i64>
  %8 = graph.argmax %u {axis = 0 : i64, keepdims = false} : tensor<5xui8> -> tensor<i64>
  // CHECK: return %[[SUM]], %[[MEAN]], %[[MAX]], %[[MIN]], %[[PROD]], %[[NONE]], %[[AMAX]], %[[AMIN]], %[[AU]]
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x1x1xf32>, tensor<2x3xf32>,
      tensor<1x3x1xf32>, tensor<f32>, tensor<2x1xi32>, tensor<2x3x4xf32>,
      tensor<2x1x4xi64>, tensor<2x3xi64>, tensor<i64>
}

// CHECK-LABEL: func.func @losses
// GENERIC-LABEL: sym_name = "losses"
// CHECK-SAME: (%[[S:[^:]+]]: tensor<4x10x7xf32>, %[[L:[^:]+]]: tensor<4x7xi64>, %[[W:[^:]+]]: tensor<10xf32>, %[[S2:[^:]+]]: tensor<4x10xf16>, %[[L2:[^:]+]]: tensor<4xi32>)
func.func @losses(%s: tensor<4x10x7xf32>, %l: tensor<4x7xi64>,
                  %w: tensor<10xf32>, %s2: tensor<4x10xf16>,
                  %l2: tensor<4xi32>)
    -> (tensor<f32>, tensor<4x7xf32>, tensor<4x10x7xf32>, tensor<f16>,
        tensor<4xf16>, tensor<f32>, tensor<f32>) {
  // reduction = "mean" is the default; no weight, no log_prob.
  // CHECK: %[[SCE0:.*]] = graph.softmax_cross_entropy %[[S]], %[[L]] : (tensor<4x10x7xf32>, tensor<4x7xi64>) -> tensor<f32>
  %0 = graph.softmax_cross_entropy %s, %l {reduction = "mean"} : (tensor<4x10x7xf32>, tensor<4x7xi64>) -> tensor<f32>
  // Weight and the optional log_prob result present.
  // CHECK: %[[SCE1:[^,]+]], %[[LP:[^ ]+]] = graph.softmax_cross_entropy %[[S]], %[[L]], %[[W]] {ignore_index = -100 : i64, reduction = "none"} : (tensor<4x10x7xf32>, tensor<4x7xi64>, tensor<10xf32>) -> (tensor<4x7xf32>, tensor<4x10x7xf32>)
  // GENERIC: "graph.softmax_cross_entropy"(%{{.*}}, %{{.*}}, %{{.*}}) <{ignore_index = -100 : i64, reduction = "none"}> : (tensor<4x10x7xf32>, tensor<4x7xi64>, tensor<10xf32>) -> (tensor<4x7xf32>, tensor<4x10x7xf32>)
  %1:2 = graph.softmax_cross_entropy %s, %l, %w {reduction = "none", ignore_index = -100 : i64} : (tensor<4x10x7xf32>, tensor<4x7xi64>, tensor<10xf32>) -> (tensor<4x7xf32>, tensor<4x10x7xf32>)
  // CHECK: %[[NLL0:.*]] = graph.nll_loss %[[S2]], %[[L2]] {reduction = "sum"} : (tensor<4x10xf16>, tensor<4xi32>) -> tensor<f16>
  %2 = graph.nll_loss %s2, %l2 {reduction = "sum"} : (tensor<4x10xf16>, tensor<4xi32>) -> tensor<f16>
  // CHECK: %[[NLL1:.*]] = graph.nll_loss %[[S2]], %[[L2]] {ignore_index = 0 : i64, reduction = "none"} : (tensor<4x10xf16>, tensor<4xi32>) -> tensor<4xf16>
  %3 = graph.nll_loss %s2, %l2 {reduction = "none", ignore_index = 0 : i64} : (tensor<4x10xf16>, tensor<4xi32>) -> tensor<4xf16>
  // CHECK: %[[NLL2:.*]] = graph.nll_loss %[[S]], %[[L]], %[[W]] : (tensor<4x10x7xf32>, tensor<4x7xi64>, tensor<10xf32>) -> tensor<f32>
  %4 = graph.nll_loss %s, %l, %w : (tensor<4x10x7xf32>, tensor<4x7xi64>, tensor<10xf32>) -> tensor<f32>
  // An f32 loss of f16 (or bf16) scores, accumulated in f32.
  // CHECK: %[[NLL3:.*]] = graph.nll_loss %[[S2]], %[[L2]] : (tensor<4x10xf16>, tensor<4xi32>) -> tensor<f32>
  %5 = graph.nll_loss %s2, %l2 : (tensor<4x10xf16>, tensor<4xi32>) -> tensor<f32>
  // CHECK: return %[[SCE0]], %[[SCE1]], %[[LP]], %[[NLL0]], %[[NLL1]], %[[NLL2]], %[[NLL3]]
  return %0, %1#0, %1#1, %2, %3, %4, %5 : tensor<f32>, tensor<4x7xf32>,
      tensor<4x10x7xf32>, tensor<f16>, tensor<4xf16>, tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func.func @generators
// CHECK-SAME: (%[[A:[^:]+]]: tensor<i64>, %[[B:[^:]+]]: tensor<i64>, %[[D:[^:]+]]: tensor<i64>, %[[X:[^:]+]]: tensor<3x5xf32>, %[[U:[^:]+]]: tensor<4xui8>, %[[M:[^:]+]]: tensor<2x4x4xi1>)
func.func @generators(%a: tensor<i64>, %b: tensor<i64>, %d: tensor<i64>,
                      %x: tensor<3x5xf32>, %u: tensor<4xui8>,
                      %m: tensor<2x4x4xi1>)
    -> (tensor<10xi64>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<4xui8>,
        tensor<2x4x4xi1>, tensor<3x5xf32>) {
  // CHECK: %[[R:.*]] = graph.range %[[A]], %[[B]], %[[D]] : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<10xi64>
  %0 = graph.range %a, %b, %d : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<10xi64>
  // CHECK: %[[CS0:.*]] = graph.cumsum %[[X]] {axis = 1 : i64} : tensor<3x5xf32>
  %1 = graph.cumsum %x {axis = 1 : i64, exclusive = false, reverse = false} : tensor<3x5xf32>
  // CHECK: %[[CS1:.*]] = graph.cumsum %[[X]] {axis = 0 : i64, exclusive = true, reverse = true} : tensor<3x5xf32>
  %2 = graph.cumsum %x {axis = 0 : i64, exclusive = true, reverse = true} : tensor<3x5xf32>
  // CHECK: %[[CS2:.*]] = graph.cumsum %[[U]] {axis = 0 : i64, reverse = true} : tensor<4xui8>
  %3 = graph.cumsum %u {axis = 0 : i64, reverse = true} : tensor<4xui8>
  // k = 0 is the default and is elided; upper = false is kept.
  // CHECK: %[[TL:.*]] = graph.trilu %[[M]] {upper = false} : tensor<2x4x4xi1>
  %4 = graph.trilu %m {upper = false, k = 0 : i64} : tensor<2x4x4xi1>
  // CHECK: %[[TU:.*]] = graph.trilu %[[X]] {k = -1 : i64, upper = true} : tensor<3x5xf32>
  %5 = graph.trilu %x {upper = true, k = -1 : i64} : tensor<3x5xf32>
  // CHECK: return %[[R]], %[[CS0]], %[[CS1]], %[[CS2]], %[[TL]], %[[TU]]
  return %0, %1, %2, %3, %4, %5 : tensor<10xi64>, tensor<3x5xf32>,
      tensor<3x5xf32>, tensor<4xui8>, tensor<2x4x4xi1>, tensor<3x5xf32>
}

// Slices at the edges of the normalized form: steps beyond the dim size
// (the count must not overflow), empty slices whose start equals the limit
// (even out of range), and a dim of size 0.
// CHECK-LABEL: func.func @slice_edge_cases
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4xf32>, %[[E:[^:]+]]: tensor<0x2xf32>)
func.func @slice_edge_cases(%x: tensor<4xf32>, %e: tensor<0x2xf32>)
    -> (tensor<1xf32>, tensor<1xf32>, tensor<0xf32>, tensor<0xf32>,
        tensor<0x1xf32>) {
  // CHECK: %[[S0:.*]] = graph.slice %[[X]], starts = [1], limits = [4], steps = [9223372036854775807] : tensor<4xf32> -> tensor<1xf32>
  %0 = graph.slice %x, starts = [1], limits = [4], steps = [9223372036854775807] : tensor<4xf32> -> tensor<1xf32>
  // CHECK: %[[S1:.*]] = graph.slice %[[X]], starts = [3], limits = [-1], steps = [-9223372036854775808] : tensor<4xf32> -> tensor<1xf32>
  %1 = graph.slice %x, starts = [3], limits = [-1], steps = [-9223372036854775808] : tensor<4xf32> -> tensor<1xf32>
  // CHECK: %[[S2:.*]] = graph.slice %[[X]], starts = [4], limits = [4], steps = [1] : tensor<4xf32> -> tensor<0xf32>
  %2 = graph.slice %x, starts = [4], limits = [4], steps = [1] : tensor<4xf32> -> tensor<0xf32>
  // CHECK: %[[S3:.*]] = graph.slice %[[X]], starts = [-1], limits = [-1], steps = [-1] : tensor<4xf32> -> tensor<0xf32>
  %3 = graph.slice %x, starts = [-1], limits = [-1], steps = [-1] : tensor<4xf32> -> tensor<0xf32>
  // CHECK: %[[S4:.*]] = graph.slice %[[E]], starts = [0, 1], limits = [0, 2], steps = [1, 1] : tensor<0x2xf32> -> tensor<0x1xf32>
  %4 = graph.slice %e, starts = [0, 1], limits = [0, 2], steps = [1, 1] : tensor<0x2xf32> -> tensor<0x1xf32>
  // CHECK: return %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]]
  return %0, %1, %2, %3, %4 : tensor<1xf32>, tensor<1xf32>, tensor<0xf32>,
      tensor<0xf32>, tensor<0x1xf32>
}

// Ring attention's merge: f32 statistics shaped like the attention's
// (sequence-first: heads before the queries).
// CHECK-LABEL: func.func @attention_merge
// GENERIC-LABEL: sym_name = "attention_merge"
func.func @attention_merge(%y: tensor<1x4x32x16xbf16>, %s: tensor<1x4x32xf32>,
                           %z: tensor<1x32x4x16xf32>, %t: tensor<1x4x32xf32>)
    -> (tensor<1x4x32x16xbf16>, tensor<1x32x4x16xf32>) {
  // CHECK: %{{.*}}, %{{.*}} = graph.attention_merge %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x32x16xbf16>, tensor<1x4x32xf32>
  // GENERIC: "graph.attention_merge"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{sequence_first = false}>
  %a, %as = graph.attention_merge %y, %s, %y, %s : tensor<1x4x32x16xbf16>, tensor<1x4x32xf32>
  // CHECK: graph.attention_merge {{.*}} {sequence_first = true} : tensor<1x32x4x16xf32>, tensor<1x4x32xf32>
  %b, %bs = graph.attention_merge %z, %t, %z, %t {sequence_first = true} : tensor<1x32x4x16xf32>, tensor<1x4x32xf32>
  return %a, %b : tensor<1x4x32x16xbf16>, tensor<1x32x4x16xf32>
}

// -----

// CHECK-LABEL: func.func @topk
// CHECK: graph.topk %arg0 {axis = 1 : i64, k = 2 : i64} : tensor<4x8xf32> -> (tensor<4x2xf32>, tensor<4x2xi64>)
// CHECK: graph.topk %arg0 {axis = 0 : i64, k = 4 : i64, largest = false, sorted = false} : tensor<4x8xf32> -> (tensor<4x8xf32>, tensor<4x8xi64>)
func.func @topk(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>, tensor<4x8xf32>) {
  %v, %i = graph.topk %x {axis = 1 : i64, k = 2 : i64} : tensor<4x8xf32> -> (tensor<4x2xf32>, tensor<4x2xi64>)
  %s, %j = graph.topk %x {axis = 0 : i64, k = 4 : i64, largest = false, sorted = false} : tensor<4x8xf32> -> (tensor<4x8xf32>, tensor<4x8xi64>)
  return %v, %i, %s : tensor<4x2xf32>, tensor<4x2xi64>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @moe_experts
// CHECK: graph.moe_experts %arg0, %arg1, %arg2, %arg3, %arg4 : (tensor<64x32xf32>, tensor<64x2xi64>, tensor<64x2xf32>, tensor<8x96x32xf32>, tensor<8x32x48xf32>) -> tensor<64x32xf32>
// CHECK: graph.moe_experts %arg0, %arg1, %arg2, %arg5, %arg4 {activation = "gelu", gated = false}
func.func @moe_experts(%x: tensor<64x32xf32>, %i: tensor<64x2xi64>, %w: tensor<64x2xf32>, %a: tensor<8x96x32xf32>, %b: tensor<8x32x48xf32>, %c: tensor<8x48x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %y = graph.moe_experts %x, %i, %w, %a, %b {activation = "silu", gated = true} : (tensor<64x32xf32>, tensor<64x2xi64>, tensor<64x2xf32>, tensor<8x96x32xf32>, tensor<8x32x48xf32>) -> tensor<64x32xf32>
  %z = graph.moe_experts %x, %i, %w, %c, %b {activation = "gelu", gated = false} : (tensor<64x32xf32>, tensor<64x2xi64>, tensor<64x2xf32>, tensor<8x48x32xf32>, tensor<8x32x48xf32>) -> tensor<64x32xf32>
  return %y, %z : tensor<64x32xf32>, tensor<64x32xf32>
}

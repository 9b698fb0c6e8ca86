// RUN: paracc-opt %s -split-input-file --paracc-convert-precision | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: paracc-opt %s -split-input-file --paracc-convert-precision=type=bf16 | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: paracc-opt %s -split-input-file --paracc-convert-precision=type=f16 | FileCheck %s --check-prefixes=CHECK,F16
// RUN: not paracc-opt %s -split-input-file --paracc-convert-precision=type=f8 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not paracc-opt %s -split-input-file --paracc-convert-precision=type=f32 2>&1 | FileCheck %s --check-prefix=ERR-F32

// Every f32 tensor inside a function becomes bf16 (the default) or f16:
// weights, constants (rounded to nearest even) and every op's result,
// softmax, norms and losses included (their kernels accumulate in f32). The
// function's signature stays f32: f32 arguments are cast on entry and f32
// results cast back before returning. Other element types are left alone.

// ERR: for the --type option: 'f8' is not a precision (f32, bf16 or f16)
// ERR-F32: error: --paracc-convert-precision: type must be bf16 or f16, got 'f32'

// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x8xf32>) -> tensor<2x8xf32>
// BF16-NEXT: %[[XC:.*]] = graph.cast %[[X]] : tensor<2x8xf32> -> tensor<2x8xbf16>
// BF16-NEXT: %[[W:.*]] = graph.weight "fc.weight" : tensor<8x8xbf16>
// BF16-NEXT: %[[B:.*]] = graph.weight "fc.bias" : tensor<8xbf16>
// BF16-NEXT: %[[MM:.*]] = graph.matmul %[[XC]], %[[W]] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16>
// BF16-NEXT: %[[S:.*]] = graph.add %[[MM]], %[[B]] : (tensor<2x8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
// BF16-NEXT: %[[G:.*]] = graph.gelu %[[S]] {approximate = "tanh"} : tensor<2x8xbf16>
// BF16-NEXT: %[[Y:.*]] = graph.cast %[[G]] : tensor<2x8xbf16> -> tensor<2x8xf32>
// BF16-NEXT: return %[[Y]] : tensor<2x8xf32>
// F16-NEXT: %[[XC:.*]] = graph.cast %[[X]] : tensor<2x8xf32> -> tensor<2x8xf16>
// F16-NEXT: %[[W:.*]] = graph.weight "fc.weight" : tensor<8x8xf16>
// F16-NEXT: %[[B:.*]] = graph.weight "fc.bias" : tensor<8xf16>
// F16-NEXT: %[[MM:.*]] = graph.matmul %[[XC]], %[[W]] : (tensor<2x8xf16>, tensor<8x8xf16>) -> tensor<2x8xf16>
// F16-NEXT: %[[S:.*]] = graph.add %[[MM]], %[[B]] : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
// F16-NEXT: %[[G:.*]] = graph.gelu %[[S]] {approximate = "tanh"} : tensor<2x8xf16>
// F16-NEXT: %[[Y:.*]] = graph.cast %[[G]] : tensor<2x8xf16> -> tensor<2x8xf32>
// F16-NEXT: return %[[Y]] : tensor<2x8xf32>
func.func @mlp(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %w = graph.weight "fc.weight" : tensor<8x8xf32>
  %b = graph.weight "fc.bias" : tensor<8xf32>
  %0 = graph.matmul %x, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %1 = graph.add %0, %b : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %2 = graph.gelu %1 {approximate = "tanh"} : tensor<2x8xf32>
  return %2 : tensor<2x8xf32>
}

// -----

// Constants are rounded to nearest even in the target type: bf16 keeps
// f32's range (3e38 stays finite, 1e-8 stays non-zero), f16 overflows to
// +-inf (from 65520 up) and flushes 1e-8 to zero. Splats stay splats.
// CHECK-LABEL: func.func @constants
// BF16: graph.constant dense<[1.000000e+00, 1.000980e-01, 3.004060e+38, -9.982440e+08, 6.553600e+04, 1.001170e-08, 0.000000e+00, -2.000000e+00]> : tensor<8xbf16>
// BF16: graph.constant dense<5.000000e-01> : tensor<bf16>
// F16: graph.constant dense<[1.000000e+00, 9.997550e-02, 0x7C00, 0xFC00, 0x7C00, 0.000000e+00, 0.000000e+00, -2.000000e+00]> : tensor<8xf16>
// F16: graph.constant dense<5.000000e-01> : tensor<f16>
// Constants of other element types are left alone.
// CHECK: graph.constant dense<1.000000e-01> : tensor<2xf64>
// CHECK: graph.constant dense<[1, 2]> : tensor<2xi64>
// CHECK: graph.constant dense<[true, false]> : tensor<2xi1>
func.func @constants() -> (tensor<8xf32>, tensor<f32>, tensor<2xf64>, tensor<2xi64>, tensor<2xi1>) {
  %0 = graph.constant dense<[1.0, 0.1, 3.0e+38, -1.0e+9, 65520.0, 1.0e-8, 0.0, -2.0]> : tensor<8xf32>
  %1 = graph.constant dense<0.5> : tensor<f32>
  %2 = graph.constant dense<0.1> : tensor<2xf64>
  %3 = graph.constant dense<[1, 2]> : tensor<2xi64>
  %4 = graph.constant dense<[true, false]> : tensor<2xi1>
  return %0, %1, %2, %3, %4 : tensor<8xf32>, tensor<f32>, tensor<2xf64>, tensor<2xi64>, tensor<2xi1>
}

// -----

// Softmax, norms, attention and losses compute in the target type like
// every other op: nothing inside the function stays f32.
// CHECK-LABEL: func.func @no_f32_inside
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x10xf32>, %[[L:[^:]+]]: tensor<4xi64>, %[[Q:[^:]+]]: tensor<1x4x10xf32>) -> (tensor<4x10xf32>, tensor<f32>, tensor<1x4x10xf32>)
// CHECK-NEXT: %[[XC:.*]] = graph.cast %[[X]] : tensor<4x10xf32> -> tensor<4x10x[[T:bf16|f16]]>
// CHECK-NEXT: %[[QC:.*]] = graph.cast %[[Q]] : tensor<1x4x10xf32> -> tensor<1x4x10x[[T]]>
// CHECK-NEXT: %[[G:.*]] = graph.weight "ln.weight" : tensor<10x[[T]]>
// CHECK-NEXT: %[[B:.*]] = graph.weight "ln.bias" : tensor<10x[[T]]>
// CHECK-NEXT: %[[LN:.*]] = graph.layer_norm %[[XC]], %[[G]], %[[B]] {axis = 1 : i64, epsilon = 1.000000e-05 : f64} : tensor<4x10x[[T]]>, tensor<10x[[T]]>, tensor<10x[[T]]> -> tensor<4x10x[[T]]>
// CHECK-NEXT: %[[RMS:.*]] = graph.rms_norm %[[LN]], %[[G]] {axis = 1 : i64, epsilon = 1.000000e-05 : f64} : tensor<4x10x[[T]]>, tensor<10x[[T]]> -> tensor<4x10x[[T]]>
// CHECK-NEXT: %[[SM:.*]] = graph.softmax %[[RMS]] {axis = 1 : i64} : tensor<4x10x[[T]]>
// CHECK-NEXT: %[[A:.*]] = graph.attention %[[QC]], %[[QC]], %[[QC]] {causal = true, scale = 5.000000e-01 : f64} : (tensor<1x4x10x[[T]]>, tensor<1x4x10x[[T]]>, tensor<1x4x10x[[T]]>) -> tensor<1x4x10x[[T]]>
// CHECK-NEXT: %[[LOSS:.*]] = graph.softmax_cross_entropy %[[RMS]], %[[L]] : (tensor<4x10x[[T]]>, tensor<4xi64>) -> tensor<[[T]]>
// CHECK-NEXT: %[[R0:.*]] = graph.cast %[[SM]] : tensor<4x10x[[T]]> -> tensor<4x10xf32>
// CHECK-NEXT: %[[R1:.*]] = graph.cast %[[LOSS]] : tensor<[[T]]> -> tensor<f32>
// CHECK-NEXT: %[[R2:.*]] = graph.cast %[[A]] : tensor<1x4x10x[[T]]> -> tensor<1x4x10xf32>
// CHECK-NEXT: return %[[R0]], %[[R1]], %[[R2]] : tensor<4x10xf32>, tensor<f32>, tensor<1x4x10xf32>
func.func @no_f32_inside(%x: tensor<4x10xf32>, %labels: tensor<4xi64>, %q: tensor<1x4x10xf32>) -> (tensor<4x10xf32>, tensor<f32>, tensor<1x4x10xf32>) {
  %g = graph.weight "ln.weight" : tensor<10xf32>
  %b = graph.weight "ln.bias" : tensor<10xf32>
  %0 = graph.layer_norm %x, %g, %b {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<4x10xf32>, tensor<10xf32>, tensor<10xf32> -> tensor<4x10xf32>
  %1 = graph.rms_norm %0, %g {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<4x10xf32>, tensor<10xf32> -> tensor<4x10xf32>
  %2 = graph.softmax %1 {axis = 1 : i64} : tensor<4x10xf32>
  %3 = graph.attention %q, %q, %q {causal = true, scale = 0.5 : f64} : (tensor<1x4x10xf32>, tensor<1x4x10xf32>, tensor<1x4x10xf32>) -> tensor<1x4x10xf32>
  %4 = graph.softmax_cross_entropy %1, %labels : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return %2, %4, %3 : tensor<4x10xf32>, tensor<f32>, tensor<1x4x10xf32>
}

// -----

// Arguments and results of other element types are not cast, and neither
// are ops on them or ops whose result is not f32 (a bool mask, an i64
// argmax); a value that is already bf16 stays bf16 in both runs.
// CHECK-LABEL: func.func @other_types
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4xf32>, %[[IDS:[^:]+]]: tensor<4xi64>, %[[H:[^:]+]]: tensor<4xf64>, %[[BF:[^:]+]]: tensor<4xbf16>)
// CHECK-NEXT: %[[XC:.*]] = graph.cast %[[X]] : tensor<4xf32> -> tensor<4x[[T:bf16|f16]]>
// CHECK-NEXT: %[[HA:.*]] = graph.add %[[H]], %[[H]] : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
// CHECK-NEXT: %[[IA:.*]] = graph.add %[[IDS]], %[[IDS]] : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK-NEXT: %[[N:.*]] = graph.is_nan %[[XC]] : tensor<4x[[T]]> -> tensor<4xi1>
// CHECK-NEXT: %[[AM:.*]] = graph.argmax %[[XC]] {axis = 0 : i64} : tensor<4x[[T]]> -> tensor<1xi64>
// CHECK-NEXT: %[[HC:.*]] = graph.cast %[[H]] : tensor<4xf64> -> tensor<4x[[T]]>
// CHECK-NEXT: %[[BA:.*]] = graph.add %[[BF]], %[[BF]] : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT: %[[HCC:.*]] = graph.cast %[[HC]] : tensor<4x[[T]]> -> tensor<4xf32>
// CHECK-NEXT: return %[[HA]], %[[IA]], %[[N]], %[[AM]], %[[HCC]], %[[BA]] : tensor<4xf64>, tensor<4xi64>, tensor<4xi1>, tensor<1xi64>, tensor<4xf32>, tensor<4xbf16>
func.func @other_types(%x: tensor<4xf32>, %ids: tensor<4xi64>, %h: tensor<4xf64>, %bf: tensor<4xbf16>) -> (tensor<4xf64>, tensor<4xi64>, tensor<4xi1>, tensor<1xi64>, tensor<4xf32>, tensor<4xbf16>) {
  %0 = graph.add %h, %h : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %1 = graph.add %ids, %ids : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %2 = graph.is_nan %x : tensor<4xf32> -> tensor<4xi1>
  %3 = graph.argmax %x {axis = 0 : i64} : tensor<4xf32> -> tensor<1xi64>
  %4 = graph.cast %h : tensor<4xf64> -> tensor<4xf32>
  %5 = graph.add %bf, %bf : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf64>, tensor<4xi64>, tensor<4xi1>, tensor<1xi64>, tensor<4xf32>, tensor<4xbf16>
}

// -----

// An f32 argument returned as is goes through the compute type and back.
// CHECK-LABEL: func.func @passthrough
// CHECK-SAME: (%[[X:[^:]+]]: tensor<3xf32>) -> tensor<3xf32>
// BF16-NEXT: %[[C:.*]] = graph.cast %[[X]] : tensor<3xf32> -> tensor<3xbf16>
// BF16-NEXT: %[[R:.*]] = graph.cast %[[C]] : tensor<3xbf16> -> tensor<3xf32>
// F16-NEXT: %[[C:.*]] = graph.cast %[[X]] : tensor<3xf32> -> tensor<3xf16>
// F16-NEXT: %[[R:.*]] = graph.cast %[[C]] : tensor<3xf16> -> tensor<3xf32>
// CHECK-NEXT: return %[[R]] : tensor<3xf32>
func.func @passthrough(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}

// -----

// A partitioned weight's global type follows its block's type; the global
// types of the function's arguments and results stay f32 like the signature.
// CHECK-LABEL: func.func @global_type
// CHECK-SAME: dist.global_type = tensor<8x16xf32>
// CHECK-SAME: dist.global_type = tensor<8x16xf32>
// BF16: graph.weight "w" {dist.global_type = tensor<16x16xbf16>, offsets = array<i64: 0, 0>, source_shape = array<i64: 16, 16>} : tensor<16x8xbf16>
// F16: graph.weight "w" {dist.global_type = tensor<16x16xf16>, offsets = array<i64: 0, 0>, source_shape = array<i64: 16, 16>} : tensor<16x8xf16>
func.func @global_type(%x: tensor<8x16xf32> {dist.global_type = tensor<8x16xf32>}) -> (tensor<8x8xf32> {dist.global_type = tensor<8x16xf32>}) {
  %w = graph.weight "w" {offsets = array<i64: 0, 0>, source_shape = array<i64: 16, 16>, dist.global_type = tensor<16x16xf32>} : tensor<16x8xf32>
  %0 = graph.matmul %x, %w : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A declaration has no body to convert; it is left alone.
// CHECK-LABEL: func.func private @declaration(tensor<4xf32>) -> tensor<4xf32>
func.func private @declaration(tensor<4xf32>) -> tensor<4xf32>

// -----

// A constant whose value is not dense (dense_resource) keeps its f32 value
// and is cast to the compute type.
// CHECK-LABEL: func.func @resource_constant
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2xf32>)
// CHECK-NEXT: %[[XC:.*]] = graph.cast %[[X]] : tensor<2xf32> -> tensor<2x[[T:bf16|f16]]>
// CHECK-NEXT: %[[C:.*]] = graph.constant dense_resource<blob> : tensor<2xf32>
// CHECK-NEXT: %[[CC:.*]] = graph.cast %[[C]] : tensor<2xf32> -> tensor<2x[[T]]>
// CHECK-NEXT: %[[S:.*]] = graph.add %[[XC]], %[[CC]] : (tensor<2x[[T]]>, tensor<2x[[T]]>) -> tensor<2x[[T]]>
// CHECK-NEXT: %[[R:.*]] = graph.cast %[[S]] : tensor<2x[[T]]> -> tensor<2xf32>
// CHECK-NEXT: return %[[R]]
func.func @resource_constant(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = graph.constant dense_resource<blob> : tensor<2xf32>
  %0 = graph.add %x, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// A product returned as it is (the logits) becomes a graph.linear with an
// f32 result instead of a bf16/f16 product and a cast; a product with
// another user, or one followed by other ops, is cast as usual.
// CHECK-LABEL: func.func @returned_products
// CHECK: %[[L:.*]] = graph.linear %{{.*}}, %{{.*}} {dist.tp_role = #dist.tp_role<column>, f32_result = true} : (tensor<2x8x[[T:bf16|f16]]>, tensor<8x16x[[T]]>) -> tensor<2x16xf32>
// CHECK: %[[M:.*]] = graph.matmul
// CHECK: %[[N:.*]] = graph.neg %[[M]]
// CHECK: %[[C1:.*]] = graph.cast %[[M]] : tensor<2x16x[[T]]> -> tensor<2x16xf32>
// CHECK: %[[C2:.*]] = graph.cast %[[N]] : tensor<2x16x[[T]]> -> tensor<2x16xf32>
// CHECK: return %[[L]], %[[C1]], %[[C2]]
func.func @returned_products(%x: tensor<2x8xf32>) -> (tensor<2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>) {
  %w = graph.weight "head.weight" : tensor<8x16xf32>
  %0 = graph.matmul %x, %w {dist.tp_role = #dist.tp_role<column>} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  %1 = graph.matmul %x, %w : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  %2 = graph.neg %1 : tensor<2x16xf32>
  return %0, %1, %2 : tensor<2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>
}

// -----

// The micro-batches' logits: a concat of returned products becomes the
// concat of their f32 results.
// CHECK-LABEL: func.func @concat_of_products
// CHECK: %[[A:.*]] = graph.linear %{{.*}}, %{{.*}} {f32_result = true} : (tensor<2x8x[[T:bf16|f16]]>, tensor<8x16x[[T]]>) -> tensor<2x16xf32>
// CHECK: %[[B:.*]] = graph.linear %{{.*}}, %{{.*}} {f32_result = true} : (tensor<2x8x[[T]]>, tensor<8x16x[[T]]>) -> tensor<2x16xf32>
// CHECK: %[[C:.*]] = graph.concat %[[A]], %[[B]] {axis = 0 : i64} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[C]]
func.func @concat_of_products(%x: tensor<2x8xf32>, %y: tensor<2x8xf32>) -> tensor<4x16xf32> {
  %w = graph.weight "head.weight" : tensor<8x16xf32>
  %0 = graph.matmul %x, %w : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  %1 = graph.matmul %y, %w : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  %2 = graph.concat %0, %1 {axis = 0 : i64} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

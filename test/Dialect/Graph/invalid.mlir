// RUN: paracc-opt %s -split-input-file -verify-diagnostics

// One case per constraint of the graph dialect: each named check of
// GraphOps.cpp (the function is named after it), each type inference error,
// and representative ODS type constraints. Errors from type inference are
// followed by the generic "failed to infer returned types".

//===----------------------------------------------------------------------===//
// ODS type constraints
//===----------------------------------------------------------------------===//

func.func @ods_float_op_on_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{'graph.sqrt' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<3xi32>'}}
  %0 = graph.sqrt %x : tensor<3xi32>
  return
}

// -----

func.func @ods_dynamic_shape(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{'graph.exp' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<?x4xf32>'}}
  %0 = graph.exp %x : tensor<?x4xf32>
  return
}

// -----

func.func @ods_unranked(%x: tensor<*xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'graph.add' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 16-bit unsigned integer or 32-bit unsigned integer or 64-bit unsigned integer values, but got 'tensor<*xf32>'}}
  %0 = graph.add %x, %y : (tensor<*xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @ods_unsupported_element_type(%x: tensor<4xsi32>) {
  // expected-error @+1 {{'graph.abs' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 16-bit unsigned integer or 32-bit unsigned integer or 64-bit unsigned integer values, but got 'tensor<4xsi32>'}}
  %0 = graph.abs %x : tensor<4xsi32>
  return
}

// -----

func.func @ods_numeric_op_on_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'graph.add' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 16-bit unsigned integer or 32-bit unsigned integer or 64-bit unsigned integer values, but got 'tensor<4xi1>'}}
  %0 = graph.add %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @ods_signed_op_on_unsigned(%x: tensor<4xui8>) {
  // expected-error @+1 {{'graph.relu' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xui8>'}}
  %0 = graph.relu %x : tensor<4xui8>
  return
}

// -----

func.func @ods_bool_op_on_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.not' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = graph.not %x : tensor<4xf32>
  return
}

// -----

func.func @ods_logical_op_on_integer(%x: tensor<4xi8>) {
  // expected-error @+1 {{'graph.and' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = graph.and %x, %x : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @ods_where_condition_not_bool(%c: tensor<4xi8>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.where' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = graph.where %c, %x, %x : (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @ods_comparison_result_not_bool(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.less' op result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = graph.less %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @ods_gather_index_type(%x: tensor<4x2xf32>, %i: tensor<3xi16>) {
  // expected-error @+1 {{'graph.gather' op operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3xi16>'}}
  %0 = graph.gather %x, %i {axis = 0 : i64} : (tensor<4x2xf32>, tensor<3xi16>) -> tensor<3x2xf32>
  return
}

// -----

func.func @ods_gather_nd_index_type(%x: tensor<4x2xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'graph.gather_nd' op operand #1 must be statically shaped tensor of 64-bit signless integer values, but got 'tensor<3x1xi32>'}}
  %0 = graph.gather_nd %x, %i : (tensor<4x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @ods_argmax_result_type(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'graph.argmax' op result #0 must be statically shaped tensor of 64-bit signless integer values, but got 'tensor<1x2xi32>'}}
  %0 = graph.argmax %x {axis = 0 : i64} : tensor<4x2xf32> -> tensor<1x2xi32>
  return
}

// -----

func.func @ods_loss_label_type(%s: tensor<4x10xf32>, %l: tensor<4xf32>) {
  // expected-error @+1 {{'graph.nll_loss' op operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = graph.nll_loss %s, %l : (tensor<4x10xf32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @ods_unary_types_match(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.tanh' op failed to verify that all of {x, result} have same type}}
  %0 = "graph.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @ods_constant_type_matches_value() {
  // expected-error @+1 {{'graph.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "graph.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return
}

// -----

func.func @ods_missing_attribute(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.softmax' op requires attribute 'axis'}}
  %0 = graph.softmax %x : tensor<4xf32>
  return
}

// -----

func.func @ods_attribute_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.clip' op attribute 'min' failed to satisfy constraint: 64-bit float attribute}}
  %0 = graph.clip %x {min = 0.0 : f32, max = 1.0 : f64} : tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Broadcasting and element types
//===----------------------------------------------------------------------===//

func.func @broadcast_compatible(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operands are not broadcast-compatible: [2,3] vs [4]}}
  // expected-error @+1 {{'graph.add' op failed to infer returned types}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @same_element_type(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{requires operands of the same element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'graph.mul' op failed to infer returned types}}
  %0 = graph.mul %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @same_element_type_compare(%a: tensor<4xi64>, %b: tensor<4xi32>) {
  // expected-error @+2 {{requires operands of the same element type, got 'i64' and 'i32'}}
  // expected-error @+1 {{'graph.equal' op failed to infer returned types}}
  %0 = graph.equal %a, %b : (tensor<4xi64>, tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @inferred_result_shape(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'graph.sub' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>'}}
  // expected-error @+1 {{'graph.sub' op failed to infer returned types}}
  %0 = graph.sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @inferred_result_element_type(%a: tensor<3xi32>) {
  // expected-error @+2 {{'graph.div' op inferred type(s) 'tensor<3xi32>' are incompatible with return type(s) of operation 'tensor<3xi64>'}}
  // expected-error @+1 {{'graph.div' op failed to infer returned types}}
  %0 = graph.div %a, %a : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi64>
  return
}

// -----

func.func @inferred_predicate_shape(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.is_nan' op inferred type(s) 'tensor<2x3xi1>' are incompatible with return type(s) of operation 'tensor<3x2xi1>'}}
  // expected-error @+1 {{'graph.is_nan' op failed to infer returned types}}
  %0 = graph.is_nan %x : tensor<2x3xf32> -> tensor<3x2xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Sources and elementwise
//===----------------------------------------------------------------------===//

func.func @weight_name_nonempty() {
  // expected-error @+1 {{'graph.weight' op requires a non-empty name}}
  %0 = graph.weight "" : tensor<4xf32>
  return
}

// -----

func.func @gelu_approximate_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.gelu' op requires approximate to be "none" or "tanh", got "erf"}}
  %0 = graph.gelu %x {approximate = "erf"} : tensor<4xf32>
  return
}

// -----

func.func @where_same_element_type(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+2 {{requires branches of the same element type, got 'f32' and 'i32'}}
  // expected-error @+1 {{'graph.where' op failed to infer returned types}}
  %0 = graph.where %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_broadcast_compatible(%c: tensor<3xi1>, %a: tensor<2x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operands are not broadcast-compatible: [3] vs [2,4]}}
  // expected-error @+1 {{'graph.where' op failed to infer returned types}}
  %0 = graph.where %c, %a, %b : (tensor<3xi1>, tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @where_branches_broadcast_compatible(%c: tensor<4xi1>, %a: tensor<2xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operands are not broadcast-compatible: [2] vs [4]}}
  // expected-error @+1 {{'graph.where' op failed to infer returned types}}
  %0 = graph.where %c, %a, %b : (tensor<4xi1>, tensor<2xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @cast_same_shape(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.cast' op requires the result to have the operand's shape}}
  %0 = graph.cast %x : tensor<2x3xf32> -> tensor<3x2xi32>
  return
}

// -----

func.func @clip_min_le_max(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.clip' op requires min <= max, got 6.000000e+00 > 1.000000e+00}}
  %0 = graph.clip %x {min = 6.0 : f64, max = 1.0 : f64} : tensor<4xf32>
  return
}

// -----

func.func @clip_bounds_not_nan(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.clip' op requires bounds that are not NaN}}
  %0 = graph.clip %x {min = 0x7FF8000000000000 : f64, max = 1.0 : f64} : tensor<4xf32>
  return
}

// -----

func.func @clip_bounds_not_nan_max(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.clip' op requires bounds that are not NaN}}
  %0 = graph.clip %x {min = 0.0 : f64, max = 0x7FF8000000000000 : f64} : tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

func.func @matmul_same_element_type(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) {
  // expected-error @+2 {{requires operands of the same element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return
}

// -----

func.func @matmul_rank_ge_1(%a: tensor<f32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{requires operands of rank >= 1}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<f32>, tensor<3x4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @matmul_contracting_dims_match(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{requires matching contracting dims, got [2,3] and [4,5]}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @matmul_contracting_dims_match_vector(%a: tensor<3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+2 {{requires matching contracting dims, got [3] and [2,4]}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<3xf32>, tensor<2x4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @matmul_batch_broadcast_compatible(%a: tensor<2x4x3xf32>, %b: tensor<5x3x6xf32>) {
  // expected-error @+2 {{operands are not broadcast-compatible: [2] vs [5]}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x4x3xf32>, tensor<5x3x6xf32>) -> tensor<2x4x6xf32>
  return
}

// -----

func.func @matmul_inferred_shape(%a: tensor<3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{'graph.matmul' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<1x4xf32>'}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @gemm_rank_2(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{requires 2-D a and b}}
  // expected-error @+1 {{'graph.gemm' op failed to infer returned types}}
  %0 = graph.gemm %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gemm_same_element_type(%a: tensor<3x4xf32>, %b: tensor<4x5xf64>) {
  // expected-error @+2 {{requires a and b of the same element type}}
  // expected-error @+1 {{'graph.gemm' op failed to infer returned types}}
  %0 = graph.gemm %a, %b : (tensor<3x4xf32>, tensor<4x5xf64>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gemm_c_same_element_type(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<5xf16>) {
  // expected-error @+2 {{requires c of the same element type}}
  // expected-error @+1 {{'graph.gemm' op failed to infer returned types}}
  %0 = graph.gemm %a, %b, %c : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<5xf16>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gemm_contracting_dims_match(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // trans_a makes a 4x3: the contracting dims are 3 and 4.
  // expected-error @+2 {{requires matching contracting dims, got 3 and 4}}
  // expected-error @+1 {{'graph.gemm' op failed to infer returned types}}
  %0 = graph.gemm %a, %b {trans_a = true} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @gemm_c_broadcasts(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<4xf32>) {
  // expected-error @+2 {{requires c to broadcast to [3,5]}}
  // expected-error @+1 {{'graph.gemm' op failed to infer returned types}}
  %0 = graph.gemm %a, %b, %c : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<4xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gemm_c_broadcasts_not_larger(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<2x3x5xf32>) {
  // c broadcasts with the result, but to a larger shape.
  // expected-error @+2 {{requires c to broadcast to [3,5]}}
  // expected-error @+1 {{'graph.gemm' op failed to infer returned types}}
  %0 = graph.gemm %a, %b, %c : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<2x3x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

func.func @axis_in_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.softmax' op requires axis in [0, 2), got 2}}
  %0 = graph.softmax %x {axis = 2 : i64} : tensor<2x3xf32>
  return
}

// -----

func.func @axis_in_range_negative(%x: tensor<2x3xf32>) {
  // Axes are normalized: a negative axis is rejected.
  // expected-error @+1 {{'graph.log_softmax' op requires axis in [0, 2), got -1}}
  %0 = graph.log_softmax %x {axis = -1 : i64} : tensor<2x3xf32>
  return
}

// -----

func.func @axis_in_range_layer_norm(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op requires axis in [0, 2), got 2}}
  %0 = graph.layer_norm %x, %s {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @axis_in_range_rms_norm(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'graph.rms_norm' op requires axis in [0, 2), got -1}}
  %0 = graph.rms_norm %x, %s {axis = -1 : i64, epsilon = 1.0e-5 : f64} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @norm_param_broadcasts(%x: tensor<2x8x64xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op requires scale of shape [8] to broadcast to the normalized shape [64]}}
  %0 = graph.layer_norm %x, %s {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<2x8x64xf32>, tensor<8xf32> -> tensor<2x8x64xf32>
  return
}

// -----

func.func @norm_param_broadcasts_bias(%x: tensor<2x8x64xf32>, %s: tensor<64xf32>, %b: tensor<8x64xf32>) {
  // The bias broadcasts with the normalized [64] only to a larger shape.
  // expected-error @+1 {{'graph.layer_norm' op requires bias of shape [8,64] to broadcast to the normalized shape [64]}}
  %0 = graph.layer_norm %x, %s, %b {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<2x8x64xf32>, tensor<64xf32>, tensor<8x64xf32> -> tensor<2x8x64xf32>
  return
}

// -----

func.func @norm_param_broadcasts_rms(%x: tensor<2x8x64xf32>, %s: tensor<8x1xf32>) {
  // [8, 1] would broadcast to x's trailing dims, but not to the
  // normalized shape of axis 2.
  // expected-error @+1 {{'graph.rms_norm' op requires scale of shape [8,1] to broadcast to the normalized shape [64]}}
  %0 = graph.rms_norm %x, %s {axis = 2 : i64, epsilon = 1.0e-5 : f64} : tensor<2x8x64xf32>, tensor<8x1xf32> -> tensor<2x8x64xf32>
  return
}

// -----

func.func @norm_param_same_element_type(%x: tensor<2x64xf32>, %s: tensor<64xf16>) {
  // expected-error @+1 {{'graph.rms_norm' op requires scale of element type 'f32'}}
  %0 = graph.rms_norm %x, %s {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<2x64xf32>, tensor<64xf16> -> tensor<2x64xf32>
  return
}

// -----

func.func @norm_param_same_element_type_bias(%x: tensor<2x64xf32>, %s: tensor<64xf32>, %b: tensor<64xbf16>) {
  // expected-error @+1 {{'graph.layer_norm' op requires bias of element type 'f32'}}
  %0 = graph.layer_norm %x, %s, %b {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<2x64xf32>, tensor<64xf32>, tensor<64xbf16> -> tensor<2x64xf32>
  return
}

// -----

func.func @epsilon_non_negative(%x: tensor<2x64xf32>, %s: tensor<64xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op requires a finite, non-negative epsilon, got -1.000000e-05}}
  %0 = graph.layer_norm %x, %s {axis = 1 : i64, epsilon = -1.0e-5 : f64} : tensor<2x64xf32>, tensor<64xf32> -> tensor<2x64xf32>
  return
}

// -----

func.func @epsilon_non_negative_rms(%x: tensor<2x64xf32>, %s: tensor<64xf32>) {
  // expected-error @+1 {{'graph.rms_norm' op requires a finite, non-negative epsilon, got -1.000000e+00}}
  %0 = graph.rms_norm %x, %s {axis = 1 : i64, epsilon = -1.0 : f64} : tensor<2x64xf32>, tensor<64xf32> -> tensor<2x64xf32>
  return
}

// -----

func.func @epsilon_non_negative_nan(%x: tensor<2x64xf32>, %s: tensor<64xf32>) {
  // expected-error @+1 {{'graph.rms_norm' op requires a finite, non-negative epsilon, got nan}}
  %0 = graph.rms_norm %x, %s {axis = 1 : i64, epsilon = 0x7FF8000000000000 : f64} : tensor<2x64xf32>, tensor<64xf32> -> tensor<2x64xf32>
  return
}

// -----

func.func @epsilon_non_negative_inf(%x: tensor<2x64xf32>, %s: tensor<64xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op requires a finite, non-negative epsilon, got INF}}
  %0 = graph.layer_norm %x, %s {axis = 1 : i64, epsilon = 0x7FF0000000000000 : f64} : tensor<2x64xf32>, tensor<64xf32> -> tensor<2x64xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

func.func @axis_in_range_gather(%x: tensor<4x2xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{requires axis in [0, 2), got 2}}
  // expected-error @+1 {{'graph.gather' op failed to infer returned types}}
  %0 = graph.gather %x, %i {axis = 2 : i64} : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_inferred_shape(%x: tensor<4x2xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{'graph.gather' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error @+1 {{'graph.gather' op failed to infer returned types}}
  %0 = graph.gather %x, %i {axis = 1 : i64} : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @axis_in_range_gather_elements(%x: tensor<4x2xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+2 {{requires axis in [0, 2), got -1}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = -1 : i64} : (tensor<4x2xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_elements_same_rank(%x: tensor<4x2xf32>, %i: tensor<4xi64>) {
  // expected-error @+2 {{requires indices of the data's rank}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = 0 : i64} : (tensor<4x2xf32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @gather_elements_indices_fit(%x: tensor<4x2xf32>, %i: tensor<6x3xi64>) {
  // Along the axis indices may be longer than data (6 > 4), not elsewhere.
  // expected-error @+2 {{requires indices dims no larger than the data's outside the axis, got [6,3] and [4,2]}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = 0 : i64} : (tensor<4x2xf32>, tensor<6x3xi64>) -> tensor<6x3xf32>
  return
}

// -----

func.func @gather_nd_batch_dims(%x: tensor<4x2xf32>, %i: tensor<4x1xi64>) {
  // expected-error @+2 {{requires batch_dims in [0, min(rank)), got 2}}
  // expected-error @+1 {{'graph.gather_nd' op failed to infer returned types}}
  %0 = graph.gather_nd %x, %i {batch_dims = 2 : i64} : (tensor<4x2xf32>, tensor<4x1xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @gather_nd_batch_dims_match(%x: tensor<4x2xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+2 {{requires equal leading batch dims}}
  // expected-error @+1 {{'graph.gather_nd' op failed to infer returned types}}
  %0 = graph.gather_nd %x, %i {batch_dims = 1 : i64} : (tensor<4x2xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_nd_index_depth(%x: tensor<4x2xf32>, %i: tensor<3x3xi64>) {
  // expected-error @+2 {{requires the index depth in [1, 2], got 3}}
  // expected-error @+1 {{'graph.gather_nd' op failed to infer returned types}}
  %0 = graph.gather_nd %x, %i : (tensor<4x2xf32>, tensor<3x3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_nd_index_depth_zero(%x: tensor<4x2xf32>, %i: tensor<3x0xi64>) {
  // expected-error @+2 {{requires the index depth in [1, 2], got 0}}
  // expected-error @+1 {{'graph.gather_nd' op failed to infer returned types}}
  %0 = graph.gather_nd %x, %i : (tensor<4x2xf32>, tensor<3x0xi64>) -> tensor<3x4x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

func.func @reshape_same_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reshape' op requires the result to have the operand's element type}}
  %0 = graph.reshape %x : tensor<2x3xf32> -> tensor<6xf16>
  return
}

// -----

func.func @reshape_same_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reshape' op requires the same number of elements, got 6 and 8}}
  %0 = graph.reshape %x : tensor<2x3xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @transpose_perm_is_permutation(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{requires perm to be a permutation of [0, 3), got [0,0,1]}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x, [0, 0, 1] : tensor<2x3x4xf32> -> tensor<2x2x3xf32>
  return
}

// -----

func.func @transpose_perm_is_permutation_size(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{requires perm to be a permutation of [0, 3), got [1,0]}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x, [1, 0] : tensor<2x3x4xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_perm_is_permutation_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{requires perm to be a permutation of [0, 2), got [2,0]}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x, [2, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_inferred_shape(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{'graph.transpose' op inferred type(s) 'tensor<4x2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x4x2xf32>'}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x, [2, 0, 1] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  return
}

// -----

func.func @slice_attr_sizes(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{requires one start, limit and step per dimension (2)}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x, starts = [0, 0], limits = [4, 8], steps = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_step_nonzero(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{requires non-zero steps}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x, starts = [0, 0], limits = [4, 8], steps = [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_bounds(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{requires start 8 and limit 8 within dim 0 of size 4}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x, starts = [8, 0], limits = [8, 8], steps = [1, 1] : tensor<4x8xf32> -> tensor<0x8xf32>
  return
}

// -----

func.func @slice_bounds_negative_start(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{requires start -1 and limit 0 within dim 1 of size 8}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x, starts = [0, -1], limits = [4, 0], steps = [1, -1] : tensor<4x8xf32> -> tensor<4x0xf32>
  return
}

// -----

func.func @slice_bounds_limit(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{requires start 0 and limit 9 within dim 1 of size 8}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x, starts = [0, 0], limits = [4, 9], steps = [1, 1] : tensor<4x8xf32> -> tensor<4x9xf32>
  return
}

// -----

func.func @slice_bounds_limit_below(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{requires start 3 and limit -2 within dim 0 of size 4}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x, starts = [3, 0], limits = [-2, 8], steps = [-1, 1] : tensor<4x8xf32> -> tensor<5x8xf32>
  return
}

// -----

func.func @slice_bounds_empty_dim(%x: tensor<0x2xf32>) {
  // A dim of size 0 has no in-range start: only an empty slice of it is
  // valid (this one would read 5 elements).
  // expected-error @+2 {{requires start 5 and limit 0 within dim 0 of size 0}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x, starts = [5, 0], limits = [0, 2], steps = [-1, 1] : tensor<0x2xf32> -> tensor<5x2xf32>
  return
}

// -----

func.func @slice_inferred_shape(%x: tensor<4x8xf32>) {
  // Elements 7, 4, 1 of dim 1: 3, not 2.
  // expected-error @+2 {{'graph.slice' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x2xf32>'}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x, starts = [1, 7], limits = [3, -1], steps = [1, -3] : tensor<4x8xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @concat_nonempty() {
  // expected-error @+2 {{requires at least one operand}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = "graph.concat"() <{axis = 0 : i64}> : () -> tensor<0xf32>
  return
}

// -----

func.func @axis_in_range_concat(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{requires axis in [0, 2), got 2}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %x, %x {axis = 2 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @concat_compatible_operands(%x: tensor<4x8xf32>, %y: tensor<4x8xf16>) {
  // expected-error @+2 {{requires operands of the same rank and element type}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %x, %y {axis = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf16>) -> tensor<4x16xf32>
  return
}

// -----

func.func @concat_compatible_operands_rank(%x: tensor<4x8xf32>, %y: tensor<4x8x1xf32>) {
  // expected-error @+2 {{requires operands of the same rank and element type}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %x, %y {axis = 1 : i64} : (tensor<4x8xf32>, tensor<4x8x1xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @concat_compatible_operands_dims(%x: tensor<4x8xf32>, %y: tensor<3x2xf32>) {
  // expected-error @+2 {{requires operand dims to match except at the axis, got [4,8] and [3,2]}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %x, %y {axis = 1 : i64} : (tensor<4x8xf32>, tensor<3x2xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @concat_inferred_shape(%x: tensor<4x8xf32>, %y: tensor<4x2xf32>) {
  // expected-error @+2 {{'graph.concat' op inferred type(s) 'tensor<4x10xf32>' are incompatible with return type(s) of operation 'tensor<4x16xf32>'}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %x, %y {axis = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @axis_in_range_split(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.split' op requires axis in [0, 2), got 2}}
  %0:2 = graph.split %x {axis = 2 : i64} : tensor<4x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  return
}

// -----

func.func @split_nonempty(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.split' op requires at least one result}}
  "graph.split"(%x) <{axis = 0 : i64}> : (tensor<4x8xf32>) -> ()
  return
}

// -----

func.func @split_result_dims(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.split' op requires results of the operand's rank and element type}}
  %0:2 = graph.split %x {axis = 1 : i64} : tensor<4x8xf32> -> tensor<4x4xf32>, tensor<4x4xf16>
  return
}

// -----

func.func @split_result_dims_rank(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.split' op requires results of the operand's rank and element type}}
  %0:2 = graph.split %x {axis = 1 : i64} : tensor<4x8xf32> -> tensor<4x4xf32>, tensor<4x4x1xf32>
  return
}

// -----

func.func @split_result_dims_match(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.split' op requires result dims to match the operand except at the axis}}
  %0:2 = graph.split %x {axis = 1 : i64} : tensor<4x8xf32> -> tensor<4x4xf32>, tensor<2x4xf32>
  return
}

// -----

func.func @split_sizes_sum(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.split' op requires the pieces to add up to 8, got 7}}
  %0:2 = graph.split %x {axis = 1 : i64} : tensor<4x8xf32> -> tensor<4x4xf32>, tensor<4x3xf32>
  return
}

// -----

func.func @expand_same_element_type(%x: tensor<1x8xf32>) {
  // expected-error @+1 {{'graph.expand' op requires the result to have the operand's element type}}
  %0 = graph.expand %x : tensor<1x8xf32> -> tensor<4x8xf16>
  return
}

// -----

func.func @expand_broadcasts_to_result(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'graph.expand' op requires the operand shape [2,8] to broadcast to [4,8]}}
  %0 = graph.expand %x : tensor<2x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @expand_broadcasts_to_result_rank(%x: tensor<1x8xf32>) {
  // The operand broadcasts with [8], but to the larger [1, 8].
  // expected-error @+1 {{'graph.expand' op requires the operand shape [1,8] to broadcast to [8]}}
  %0 = graph.expand %x : tensor<1x8xf32> -> tensor<8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

func.func @reduce_axes_sorted_unique_in_range(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{requires sorted, unique axes in [0, 3), got [2,1]}}
  // expected-error @+1 {{'graph.reduce_sum' op failed to infer returned types}}
  %0 = graph.reduce_sum %x, [2, 1] : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  return
}

// -----

func.func @reduce_axes_sorted_unique_in_range_duplicate(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{requires sorted, unique axes in [0, 3), got [1,1]}}
  // expected-error @+1 {{'graph.reduce_mean' op failed to infer returned types}}
  %0 = graph.reduce_mean %x, [1, 1] : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  return
}

// -----

func.func @reduce_axes_sorted_unique_in_range_high(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{requires sorted, unique axes in [0, 3), got [0,3]}}
  // expected-error @+1 {{'graph.reduce_max' op failed to infer returned types}}
  %0 = graph.reduce_max %x, [0, 3] : tensor<2x3x4xf32> -> tensor<1x3x4xf32>
  return
}

// -----

func.func @reduce_axes_sorted_unique_in_range_negative(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{requires sorted, unique axes in [0, 3), got [-1]}}
  // expected-error @+1 {{'graph.reduce_min' op failed to infer returned types}}
  %0 = graph.reduce_min %x, [-1] : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  return
}

// -----

func.func @reduce_inferred_shape(%x: tensor<2x3x4xf32>) {
  // Without keepdims the reduced dim is dropped.
  // expected-error @+2 {{'graph.reduce_prod' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x1x4xf32>'}}
  // expected-error @+1 {{'graph.reduce_prod' op failed to infer returned types}}
  %0 = graph.reduce_prod %x, [1] {keepdims = false} : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  return
}

// -----

func.func @axis_in_range_argmax(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{requires axis in [0, 2), got 2}}
  // expected-error @+1 {{'graph.argmax' op failed to infer returned types}}
  %0 = graph.argmax %x {axis = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xi64>
  return
}

// -----

func.func @topk_axis_in_range(%x: tensor<3x4xf32>) {
  // expected-error @+2 {{requires axis in [0, 2), got 2}}
  // expected-error @+1 {{'graph.topk' op failed to infer returned types}}
  %v, %i = graph.topk %x {axis = 2 : i64, k = 1 : i64} : tensor<3x4xf32> -> (tensor<3x1xf32>, tensor<3x1xi64>)
  return
}

// -----

func.func @topk_k_in_range(%x: tensor<3x4xf32>) {
  // expected-error @+2 {{requires k in [0, 4] (the size of dim 1), got 5}}
  // expected-error @+1 {{'graph.topk' op failed to infer returned types}}
  %v, %i = graph.topk %x {axis = 1 : i64, k = 5 : i64} : tensor<3x4xf32> -> (tensor<3x5xf32>, tensor<3x5xi64>)
  return
}

// -----

func.func @arg_reduce_nonempty_axis(%x: tensor<3x0xf32>) {
  // expected-error @+2 {{requires a non-empty dim at axis 1}}
  // expected-error @+1 {{'graph.argmin' op failed to infer returned types}}
  %0 = graph.argmin %x {axis = 1 : i64} : tensor<3x0xf32> -> tensor<3x1xi64>
  return
}

// -----

func.func @argmax_inferred_shape(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.argmax' op inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<2x1xi64>'}}
  // expected-error @+1 {{'graph.argmax' op failed to infer returned types}}
  %0 = graph.argmax %x {axis = 1 : i64, keepdims = false} : tensor<2x3xf32> -> tensor<2x1xi64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

func.func @loss_scores_rank(%s: tensor<10xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'graph.softmax_cross_entropy' op requires scores of rank >= 2 ([N, C, d...])}}
  %0 = graph.softmax_cross_entropy %s, %l : (tensor<10xf32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

func.func @loss_labels_shape(%s: tensor<4x10x7xf32>, %l: tensor<4x10xi64>) {
  // expected-error @+1 {{'graph.nll_loss' op requires labels of shape [4,7], got [4,10]}}
  %0 = graph.nll_loss %s, %l : (tensor<4x10x7xf32>, tensor<4x10xi64>) -> tensor<f32>
  return
}

// -----

func.func @loss_weight_shape(%s: tensor<4x10xf32>, %l: tensor<4xi64>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'graph.softmax_cross_entropy' op requires weight of shape [10] and the scores' element type}}
  %0 = graph.softmax_cross_entropy %s, %l, %w : (tensor<4x10xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @loss_weight_shape_element_type(%s: tensor<4x10xf32>, %l: tensor<4xi64>, %w: tensor<10xf16>) {
  // expected-error @+1 {{'graph.nll_loss' op requires weight of shape [10] and the scores' element type}}
  %0 = graph.nll_loss %s, %l, %w : (tensor<4x10xf32>, tensor<4xi64>, tensor<10xf16>) -> tensor<f32>
  return
}

// -----

func.func @loss_reduction_kind(%s: tensor<4x10xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'graph.nll_loss' op requires reduction "none", "sum" or "mean", got "max"}}
  %0 = graph.nll_loss %s, %l {reduction = "max"} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return
}

// -----

func.func @loss_result_shape(%s: tensor<4x10xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'graph.softmax_cross_entropy' op requires a loss of shape [4] for reduction "none"}}
  %0 = graph.softmax_cross_entropy %s, %l {reduction = "none"} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return
}

// -----

func.func @loss_result_shape_reduced(%s: tensor<4x10xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'graph.nll_loss' op requires a loss of shape [] for reduction "sum"}}
  %0 = graph.nll_loss %s, %l {reduction = "sum"} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @loss_result_type(%s: tensor<4x10xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'graph.nll_loss' op requires a loss of the scores' element type (or f32 from bf16/f16 scores without weights), got 'f16'}}
  %0 = graph.nll_loss %s, %l : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f16>
  return
}

// -----

func.func @loss_result_type_weighted(%s: tensor<4x10xbf16>, %l: tensor<4xi64>, %w: tensor<10xbf16>) {
  // expected-error @+1 {{'graph.softmax_cross_entropy' op requires a loss of the scores' element type (or f32 from bf16/f16 scores without weights), got 'f32'}}
  %0 = graph.softmax_cross_entropy %s, %l, %w : (tensor<4x10xbf16>, tensor<4xi64>, tensor<10xbf16>) -> tensor<f32>
  return
}

// -----

func.func @sce_log_prob_type(%s: tensor<4x10xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'graph.softmax_cross_entropy' op requires log_prob of the scores' type}}
  %0:2 = graph.softmax_cross_entropy %s, %l : (tensor<4x10xf32>, tensor<4xi64>) -> (tensor<f32>, tensor<4x1xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// Generators and scans
//===----------------------------------------------------------------------===//

func.func @range_scalar_operands(%a: tensor<1xi64>, %b: tensor<i64>) {
  // expected-error @+1 {{'graph.range' op requires scalar operands of the result's element type}}
  %0 = graph.range %a, %b, %b : (tensor<1xi64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
  return
}

// -----

func.func @range_scalar_operands_element_type(%a: tensor<i64>, %b: tensor<i32>) {
  // expected-error @+1 {{'graph.range' op requires scalar operands of the result's element type}}
  %0 = graph.range %a, %a, %b : (tensor<i64>, tensor<i64>, tensor<i32>) -> tensor<4xi64>
  return
}

// -----

func.func @range_result_rank(%a: tensor<f32>) {
  // expected-error @+1 {{'graph.range' op requires a 1-D result}}
  %0 = graph.range %a, %a, %a : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @axis_in_range_cumsum(%x: tensor<3x5xf32>) {
  // expected-error @+1 {{'graph.cumsum' op requires axis in [0, 2), got 2}}
  %0 = graph.cumsum %x {axis = 2 : i64} : tensor<3x5xf32>
  return
}

// -----

func.func @trilu_rank_ge_2(%x: tensor<5xf32>) {
  // expected-error @+1 {{'graph.trilu' op requires rank >= 2}}
  %0 = graph.trilu %x {upper = true} : tensor<5xf32>
  return
}

// -----

func.func @silu_mul_same_types(%g: tensor<2x8xf32>, %u: tensor<2x8xbf16>) {
  // expected-error @+1 {{'graph.silu_mul' op failed to verify that all of {gate, up, result} have same type}}
  %0 = "graph.silu_mul"(%g, %u) : (tensor<2x8xf32>, tensor<2x8xbf16>) -> tensor<2x8xf32>
  return
}

// -----

func.func @rotary_even_last_dim(%x: tensor<2x5xf32>, %t: tensor<5xf32>) {
  // expected-error @+1 {{'graph.rotary' op requires x with an even last dim, got [2,5]}}
  %0 = graph.rotary %x, %t, %t : (tensor<2x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @rotary_tables_broadcast(%x: tensor<2x4xf32>, %t: tensor<3xf32>) {
  // expected-error @+1 {{'graph.rotary' op requires cos and sin of x's element type that broadcast to [2,4], got 'tensor<3xf32>'}}
  %0 = graph.rotary %x, %t, %t : (tensor<2x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @attention_merge_rank(%y: tensor<4x16xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'graph.attention_merge' op expects a result of rank >= 3, got 'tensor<4x16xf32>'}}
  %0, %1 = graph.attention_merge %y, %s, %y, %s {sequence_first = true} : tensor<4x16xf32>, tensor<4xf32>
  return
}

// -----

func.func @attention_merge_stats_shape(%y: tensor<2x4x16xf32>, %s: tensor<4x2xf32>) {
  // expected-error @+1 {{'graph.attention_merge' op expects statistics of type 'tensor<2x4xf32>' for a result of type 'tensor<2x4x16xf32>', got 'tensor<4x2xf32>'}}
  %0, %1 = graph.attention_merge %y, %s, %y, %s : tensor<2x4x16xf32>, tensor<4x2xf32>
  return
}

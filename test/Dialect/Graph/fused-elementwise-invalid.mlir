// RUN: paracc-opt %s -split-input-file -verify-diagnostics

func.func @fused_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{needs at least one result}}
  graph.fused_elementwise %x : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<f32>):
    graph.yield
  }
  return
}

// -----

func.func @fused_result_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{result 1 has shape of 'tensor<2xf32>', not the first result's (the results share one shape)}}
  %y:2 = graph.fused_elementwise %x : (tensor<4xf32>) -> (tensor<4xf32>, tensor<2xf32>) {
  ^bb0(%a: tensor<f32>):
    graph.yield %a, %a : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @fused_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{result 0 must be f16, bf16, f32 or i1, got 'tensor<4xi64>'}}
  %y = graph.fused_elementwise %x : (tensor<4xf32>) -> tensor<4xi64> {
  ^bb0(%a: tensor<f32>):
    %c = graph.cast %a : tensor<f32> -> tensor<i64>
    graph.yield %c : tensor<i64>
  }
  return
}

// -----

func.func @fused_operand_type(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand 0 must be f16, bf16, f32 or i1, got 'tensor<4xi32>'}}
  %y = graph.fused_elementwise %x : (tensor<4xi32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<i32>):
    %c = graph.cast %a : tensor<i32> -> tensor<f32>
    graph.yield %c : tensor<f32>
  }
  return
}

// -----

func.func @fused_operand_broadcast(%x: tensor<3xf32>) {
  // expected-error @+1 {{operand 0 of type 'tensor<3xf32>' does not broadcast to the results' shape}}
  %y = graph.fused_elementwise %x : (tensor<3xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>):
    graph.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @fused_body_arguments(%x: tensor<4xf32>) {
  // expected-error @+1 {{body has 2 arguments for 1 operands}}
  %y = graph.fused_elementwise %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    graph.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @fused_body_argument_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{body argument 0 must be 'tensor<f32>', got 'tensor<4xf32>'}}
  %y = graph.fused_elementwise %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = graph.exp %a : tensor<4xf32>
    graph.yield %e : tensor<4xf32>
  }
  return
}

// -----

func.func @fused_body_terminator(%x: tensor<4xf32>) {
  // expected-error @+1 {{body yields 2 values for 1 results}}
  %y = graph.fused_elementwise %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>):
    graph.yield %a, %a : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @fused_body_yield_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{body yields 'tensor<i1>' for result 0, which needs 'tensor<f32>'}}
  %y = graph.fused_elementwise %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>):
    %n = graph.is_nan %a : tensor<f32> -> tensor<i1>
    graph.yield %n : tensor<i1>
  }
  return
}

// -----

func.func @fused_body_ops(%x: tensor<4xf32>) {
  // expected-error @+1 {{body holds 'graph.reduce_sum', not an elementwise op a fused body runs}}
  %y = graph.fused_elementwise %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>):
    %s = graph.reduce_sum %a, [] : tensor<f32> -> tensor<f32>
    graph.yield %s : tensor<f32>
  }
  return
}

// -----

func.func @fused_body_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{body op 'graph.constant' must compute a rank-0 tensor, got 'tensor<2xf32>'}}
  %y = graph.fused_elementwise %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>):
    %c = graph.constant dense<1.0> : tensor<2xf32>
    graph.yield %a : tensor<f32>
  }
  return
}

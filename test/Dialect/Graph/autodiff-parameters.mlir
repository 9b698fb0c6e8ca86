// RUN: paracc-opt %s -split-input-file --paracc-autodiff --canonicalize | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-autodiff="auto-freeze=false" --canonicalize | FileCheck %s --check-prefix=ALL
// RUN: paracc-opt %s -split-input-file --paracc-autodiff="train-only=^w freeze=^w2" --canonicalize | FileCheck %s --check-prefix=ONLY
// RUN: paracc-opt %s -split-input-file --paracc-autodiff="freeze=nothing" -verify-diagnostics -o /dev/null

// Which weights are parameters. Frozen, with why (graph.frozen_parameters):
// a weight the importer marked a buffer, a position table (every path to
// the loss through sin/cos: rotary inv_freq), a weight the model assigns,
// --freeze, and what --train-only does not match. auto-freeze=false trains
// the buffers and tables; model state is never trained.

// CHECK-LABEL: func.func @selection
// CHECK-SAME: -> (tensor<f32>, tensor<4xf32> {graph.gradient_of = "w", graph.name = "w"}, tensor<4xf32> {graph.gradient_of = "w2", graph.name = "w2"})
// CHECK-SAME: graph.frozen_parameters = {inv_freq = "a buffer the exporter wrote: a position table (it reaches the loss only through sin/cos, like rotary inv_freq)", running_mean = "a buffer the exporter wrote: BatchNorm running statistics", state = "model state: the model assigns it (running statistics)"}
// ALL-LABEL: func.func @selection
// ALL-SAME: -> (tensor<f32>, tensor<4xf32> {graph.gradient_of = "w", {{.*}}}, tensor<4xf32> {graph.gradient_of = "inv_freq", {{.*}}}, tensor<4xf32> {graph.gradient_of = "running_mean", {{.*}}}, tensor<4xf32> {graph.gradient_of = "w2", {{.*}}})
// ALL-SAME: graph.frozen_parameters = {state = "model state: the model assigns it (running statistics)"}
// ONLY-LABEL: func.func @selection
// ONLY-SAME: -> (tensor<f32>, tensor<4xf32> {graph.gradient_of = "w", graph.name = "w"})
// ONLY-SAME: inv_freq = "not matched by --train-only"
// ONLY-SAME: w2 = "--freeze"
// expected-warning @+1 {{--freeze 'nothing' matches no parameter}}
func.func @selection(%x: tensor<4xf32>) -> tensor<f32> {
  %w = graph.weight "w" : tensor<4xf32>
  %inv = graph.weight "inv_freq" : tensor<4xf32>
  %rm = graph.weight "running_mean" {graph.buffer = "BatchNorm running statistics"} : tensor<4xf32>
  %st = graph.weight "state" : tensor<4xf32>
  %w2 = graph.weight "w2" : tensor<4xf32>
  %a = graph.mul %x, %inv : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = graph.cos %a : tensor<4xf32>
  %s = graph.sin %a : tensor<4xf32>
  %cs = graph.add %c, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %y = graph.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = graph.mul %y, %cs : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %n = graph.sub %r, %rm : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %m = graph.mul %n, %w2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %upd = graph.add %st, %m : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  graph.assign "state", %upd : tensor<4xf32>
  %l = graph.reduce_sum %m, [0] {keepdims = false} : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A table that also reaches the loss directly is a parameter.

// CHECK-LABEL: func.func @not_only_positions
// CHECK-SAME: -> (tensor<f32>, tensor<4xf32> {graph.gradient_of = "table", graph.name = "table"})
// CHECK-NOT: frozen_parameters
// expected-warning @+1 {{--freeze 'nothing' matches no parameter}}
func.func @not_only_positions(%x: tensor<4xf32>) -> tensor<f32> {
  %t = graph.weight "table" : tensor<4xf32>
  %c = graph.cos %t : tensor<4xf32>
  %y = graph.add %c, %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = graph.reduce_sum %y, [0] {keepdims = false} : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

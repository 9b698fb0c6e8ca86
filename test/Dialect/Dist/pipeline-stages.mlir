// RUN: paracc-opt %s -split-input-file --paracc-pipeline-stages="stages=2 schedule=gpipe" | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-pipeline-stages="stages=2 ranges=0,1-3 schedule=gpipe" | FileCheck %s --check-prefix=RANGES
// RUN: paracc-opt %s -split-input-file --paracc-pipeline-stages="stages=4 microbatches=4 rates=h200 schedule=gpipe" | FileCheck %s --check-prefix=BUBBLE
// RUN: paracc-opt %s -split-input-file --paracc-pipeline-stages="stages=4 microbatches=8 schedule=1f1b training=true rates=h200" | FileCheck %s --check-prefix=BUBBLE-1F1B
// RUN: paracc-opt %s -split-input-file --paracc-pipeline-stages | FileCheck %s --check-prefix=OFF
// RUN: paracc-opt %s -split-input-file --paracc-pipeline-stages="stages=4 microbatches=4 rates=a100 schedule=gpipe" | FileCheck %s --check-prefix=A100
// RUN: paracc-opt %s -split-input-file --paracc-pipeline-stages="stages=2 virtual-stages=2 microbatches=4 schedule=interleaved training=true rates=h200" | FileCheck %s --check-prefix=INTERLEAVED

// --paracc-pipeline-stages: the layers come from the residual chain (here
// two adds per layer: a matmul half and a gelu half), every op but the
// weights gets its stage, and the module its plan. Every case has four
// layers, so every RUN line works on all of them.

// Four equal layers, no embedding, no head: one layer per stage (4 stages)
// makes the simulated bubble the formula's (p - 1) / (m + p - 1) but for
// the tiny transfers: 3/7 for GPipe with 4 micro-batches, 3/11 for 1F1B
// training with 8.
// BUBBLE: module attributes {dist.pipeline_plan = #dist.pipeline_plan<stages = [<first_layer = 0, last_layer = 0, {{[^>]*}}>, <first_layer = 1, last_layer = 1, {{[^>]*}}>, <first_layer = 2, last_layer = 2, {{[^>]*}}>, <first_layer = 3, last_layer = 3, {{[^>]*}}>], uniform_stages = {{.*}}, layers = 4, microbatches = 4, schedule = "gpipe", virtual_stages = 1, training = false, rates = "h200", bubble_formula = 0.42857142857142855, bubble_predicted = 0.4285{{[0-9]+}}, uniform_bubble_predicted = 0.4285{{[0-9]+}}>
// BUBBLE-LABEL: func.func @equal
// The A100's table (the H200's scaled by the spec sheets) plans too.
// A100: module attributes {dist.pipeline_plan = #dist.pipeline_plan<stages = [<first_layer = 0, last_layer = 0, {{.*}}rates = "a100"
// A100-LABEL: func.func @equal
// BUBBLE-1F1B: module attributes {dist.pipeline_plan = #dist.pipeline_plan<{{.*}}schedule = "1f1b", virtual_stages = 1, training = true, rates = "h200", bubble_formula = 0.27272727272727271, bubble_predicted = 0.2727{{[0-9]+}}
// BUBBLE-1F1B-LABEL: func.func @equal
// Interleaved, two ranks of two chunks: four virtual stages of one layer
// each (rank k mod 2 runs stage k), and the bubble (p - 1) / (v m + p - 1)
// = 1/9 with 4 micro-batches.
// INTERLEAVED: module attributes {dist.pipeline_plan = #dist.pipeline_plan<stages = [<first_layer = 0, last_layer = 0, {{[^>]*}}>, <first_layer = 1, last_layer = 1, {{[^>]*}}>, <first_layer = 2, last_layer = 2, {{[^>]*}}>, <first_layer = 3, last_layer = 3, {{[^>]*}}>], uniform_stages = {{.*}}, layers = 4, microbatches = 4, schedule = "interleaved", virtual_stages = 2, training = true, rates = "h200", bubble_formula = 0.1111111111111111, bubble_predicted = 0.1111{{[0-9]+}}
// INTERLEAVED-LABEL: func.func @equal
// INTERLEAVED: graph.add %arg0, %{{.*}} {dist.stage = 0 : i64}
// INTERLEAVED: return {dist.stage = 3 : i64}
// The stream's input is the argument; the last add feeds the return.
// CHECK-LABEL: func.func @equal
// CHECK: graph.add %arg0, %{{.*}} {dist.stage = 0 : i64}
// CHECK: return {dist.stage = 1 : i64}
// Stages 1 (the default) leave the program alone.
// OFF-NOT: dist.pipeline_plan
// OFF-LABEL: func.func @equal
// OFF-NOT: dist.stage

func.func @equal(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %w0 = graph.weight "l0" : tensor<8x8xf32>
  %t0 = graph.matmul %x, %w0 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a0 = graph.add %x, %t0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g0 = graph.gelu %a0 {approximate = "tanh"} : tensor<4x8xf32>
  %b0 = graph.add %a0, %g0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w1 = graph.weight "l1" : tensor<8x8xf32>
  %t1 = graph.matmul %b0, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a1 = graph.add %b0, %t1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g1 = graph.gelu %a1 {approximate = "tanh"} : tensor<4x8xf32>
  %b1 = graph.add %a1, %g1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w2 = graph.weight "l2" : tensor<8x8xf32>
  %t2 = graph.matmul %b1, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a2 = graph.add %b1, %t2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g2 = graph.gelu %a2 {approximate = "tanh"} : tensor<4x8xf32>
  %b2 = graph.add %a2, %g2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w3 = graph.weight "l3" : tensor<8x8xf32>
  %t3 = graph.matmul %b2, %w3 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a3 = graph.add %b2, %t3 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g3 = graph.gelu %a3 {approximate = "tanh"} : tensor<4x8xf32>
  %b3 = graph.add %a3, %g3 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %b3 : tensor<4x8xf32>
}

// -----

// An embedding, four light layers and a head tied to the embedding: two
// layers per stage. The weights get no stage; the head's transpose of the
// embedding, computed from a weight alone, goes to the stage of its user
// although it comes first in the block.
// CHECK: module attributes {dist.pipeline_plan = #dist.pipeline_plan<stages = [<first_layer = 0, last_layer = 1, prologue = true, epilogue = false, {{[^>]*}}, sent_bytes = 128>, <first_layer = 2, last_layer = 3, prologue = false, epilogue = true, {{[^>]*}}, sent_bytes = 0>]
// CHECK-SAME: uniform_stages = [<first_layer = 0, last_layer = 1, {{[^>]*}}>, <first_layer = 2, last_layer = 3, 
// CHECK-LABEL: func.func @light
// CHECK: %[[WTE:.*]] = graph.weight "wte" : tensor<16x8xf32>
// CHECK: graph.transpose %[[WTE]], [1, 0] {dist.stage = 1 : i64}
// CHECK: graph.gather %[[WTE]], %arg0 {axis = 0 : i64, dist.stage = 0 : i64}
// CHECK: graph.weight "l1" : tensor<8x8xf32>
// CHECK: graph.add {{.*}} {dist.stage = 0 : i64}
// CHECK: %[[B1:.*]] = graph.add {{.*}} {dist.stage = 0 : i64}
// CHECK-NEXT: graph.weight "l2" : tensor<8x8xf32>
// CHECK-NEXT: graph.matmul %[[B1]], %{{.*}} {dist.stage = 1 : i64}
// CHECK: graph.layer_norm %{{.*}} {axis = 1 : i64, dist.stage = 1 : i64
// CHECK: return {dist.stage = 1 : i64}
// Explicit ranges: layer 0 with the embedding, layers 1-3 with the head.
// RANGES: module attributes {dist.pipeline_plan = #dist.pipeline_plan<stages = [<first_layer = 0, last_layer = 0, prologue = true, epilogue = false, {{[^>]*}}>, <first_layer = 1, last_layer = 3, prologue = false, epilogue = true,
// RANGES-LABEL: func.func @light
// RANGES: graph.gather {{.*}}dist.stage = 0 : i64
// RANGES: graph.add {{.*}}dist.stage = 0 : i64
// RANGES: graph.add {{.*}}dist.stage = 0 : i64
// RANGES-NEXT: graph.weight "l1"
// RANGES-NEXT: graph.matmul {{.*}}dist.stage = 1 : i64

func.func @light(%ids: tensor<4xi64>) -> tensor<4x16xf32> {
  %wte = graph.weight "wte" : tensor<16x8xf32>
  %head = graph.transpose %wte, [1, 0] : tensor<16x8xf32> -> tensor<8x16xf32>
  %x = graph.gather %wte, %ids {axis = 0 : i64} : (tensor<16x8xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  %w0 = graph.weight "l0" : tensor<8x8xf32>
  %t0 = graph.matmul %x, %w0 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a0 = graph.add %x, %t0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g0 = graph.gelu %a0 {approximate = "tanh"} : tensor<4x8xf32>
  %b0 = graph.add %a0, %g0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w1 = graph.weight "l1" : tensor<8x8xf32>
  %t1 = graph.matmul %b0, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a1 = graph.add %b0, %t1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g1 = graph.gelu %a1 {approximate = "tanh"} : tensor<4x8xf32>
  %b1 = graph.add %a1, %g1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w2 = graph.weight "l2" : tensor<8x8xf32>
  %t2 = graph.matmul %b1, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a2 = graph.add %b1, %t2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g2 = graph.gelu %a2 {approximate = "tanh"} : tensor<4x8xf32>
  %b2 = graph.add %a2, %g2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w3 = graph.weight "l3" : tensor<8x8xf32>
  %t3 = graph.matmul %b2, %w3 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a3 = graph.add %b2, %t3 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g3 = graph.gelu %a3 {approximate = "tanh"} : tensor<4x8xf32>
  %b3 = graph.add %a3, %g3 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = graph.weight "ln_f" : tensor<8xf32>
  %n = graph.layer_norm %b3, %s {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %logits = graph.matmul %n, %head : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %logits : tensor<4x16xf32>
}

// -----

// A vocabulary of 100000: the head outweighs the four layers and gets a
// stage of its own (the equal-layer cut would give it two layers more).
// CHECK: module attributes {dist.pipeline_plan = #dist.pipeline_plan<stages = [<first_layer = 0, last_layer = 3, prologue = true, epilogue = false, {{[^>]*}}>, <first_layer = -1, last_layer = -1, prologue = false, epilogue = true, {{[^>]*}}>]
// CHECK-SAME: uniform_stages = [<first_layer = 0, last_layer = 1, {{[^>]*}}>, <first_layer = 2, last_layer = 3, 
// CHECK-LABEL: func.func @heavy_head
// CHECK: graph.add {{.*}}dist.stage = 0 : i64
// CHECK: graph.layer_norm {{.*}}dist.stage = 1 : i64
// CHECK: graph.matmul {{.*}}dist.stage = 1 : i64

func.func @heavy_head(%ids: tensor<4xi64>) -> tensor<4x100000xf32> {
  %wte = graph.weight "wte" : tensor<100000x8xf32>
  %x = graph.gather %wte, %ids {axis = 0 : i64} : (tensor<100000x8xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  %w0 = graph.weight "l0" : tensor<8x8xf32>
  %t0 = graph.matmul %x, %w0 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a0 = graph.add %x, %t0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g0 = graph.gelu %a0 {approximate = "tanh"} : tensor<4x8xf32>
  %b0 = graph.add %a0, %g0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w1 = graph.weight "l1" : tensor<8x8xf32>
  %t1 = graph.matmul %b0, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a1 = graph.add %b0, %t1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g1 = graph.gelu %a1 {approximate = "tanh"} : tensor<4x8xf32>
  %b1 = graph.add %a1, %g1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w2 = graph.weight "l2" : tensor<8x8xf32>
  %t2 = graph.matmul %b1, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a2 = graph.add %b1, %t2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g2 = graph.gelu %a2 {approximate = "tanh"} : tensor<4x8xf32>
  %b2 = graph.add %a2, %g2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w3 = graph.weight "l3" : tensor<8x8xf32>
  %t3 = graph.matmul %b2, %w3 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a3 = graph.add %b2, %t3 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g3 = graph.gelu %a3 {approximate = "tanh"} : tensor<4x8xf32>
  %b3 = graph.add %a3, %g3 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = graph.weight "ln_f" : tensor<8xf32>
  %n = graph.layer_norm %b3, %s {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %head = graph.weight "head" : tensor<8x100000xf32>
  %logits = graph.matmul %n, %head : (tensor<4x8xf32>, tensor<8x100000xf32>) -> tensor<4x100000xf32>
  return %logits : tensor<4x100000xf32>
}

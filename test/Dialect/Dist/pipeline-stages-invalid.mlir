// RUN: split-file %s %t
// RUN: cat %t/too-many-stages.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=6 schedule=gpipe" -verify-diagnostics
// RUN: cat %t/memory-budget.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 training=true memory-budget=1024 schedule=gpipe" -verify-diagnostics
// RUN: cat %t/ranges-memory-budget.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 ranges=0,1-2 memory-budget=1024 schedule=gpipe" -verify-diagnostics
// RUN: cat %t/ranges-syntax.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 ranges=0-x,1-2 schedule=gpipe" -verify-diagnostics
// RUN: cat %t/ranges-empty.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 ranges=0,2-1 schedule=gpipe" -verify-diagnostics
// RUN: cat %t/ranges-past-last.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 ranges=0,1-3 schedule=gpipe" -verify-diagnostics
// RUN: cat %t/ranges-start.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 ranges=1,2 schedule=gpipe" -verify-diagnostics
// RUN: cat %t/ranges-gap.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 ranges=0,2 schedule=gpipe" -verify-diagnostics
// RUN: cat %t/ranges-overlap.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 ranges=0-1,1-2 schedule=gpipe" -verify-diagnostics
// RUN: cat %t/ranges-cover.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 ranges=0,1 schedule=gpipe" -verify-diagnostics
// RUN: cat %t/ranges-count.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 ranges=0,1,2 schedule=gpipe" -verify-diagnostics
// RUN: paracc-opt %t/no-layers.mlir --paracc-pipeline-stages="stages=2 schedule=gpipe" -verify-diagnostics
// RUN: not paracc-opt %t/graph.mlir --paracc-pipeline-stages="stages=2 schedule=zigzag" 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// RUN: not paracc-opt %t/graph.mlir --paracc-pipeline-stages="stages=2 rates=tpu schedule=gpipe" 2>&1 | FileCheck %s --check-prefix=RATES
// RUN: not paracc-opt %t/graph.mlir --paracc-pipeline-stages="stages=0 schedule=gpipe" 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not paracc-opt %t/graph.mlir --paracc-pipeline-stages="stages=2 microbatches=0 schedule=gpipe" 2>&1 | FileCheck %s --check-prefix=MICROBATCHES
// RUN: not paracc-opt %t/two-functions.mlir --paracc-pipeline-stages="stages=2 schedule=gpipe" 2>&1 | FileCheck %s --check-prefix=FUNCTIONS
// RUN: cat %t/too-many-virtual-stages.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=3 virtual-stages=2 microbatches=3 schedule=interleaved" -verify-diagnostics
// RUN: cat %t/interleaved-memory-budget.mlir %t/graph.mlir | paracc-opt --paracc-pipeline-stages="stages=2 virtual-stages=2 microbatches=2 schedule=interleaved memory-budget=700" -verify-diagnostics
// RUN: not paracc-opt %t/graph.mlir --paracc-pipeline-stages="stages=2 virtual-stages=2 schedule=gpipe" 2>&1 | FileCheck %s --check-prefix=VIRTUAL
// RUN: not paracc-opt %t/graph.mlir --paracc-pipeline-stages="stages=2 microbatches=3 schedule=interleaved" 2>&1 | FileCheck %s --check-prefix=GROUPS

// One case per error of --paracc-pipeline-stages, named after the check. The
// graph (graph.mlir, at the end) has an embedding, three layers of two
// residual adds each and a head; each case file holds the expected error,
// on the function, and is prepended to it.

// SCHEDULE: for the --schedule option: 'zigzag' is not a pipeline schedule (gpipe, 1f1b, zb-h1 or interleaved)
// VIRTUAL: error: virtual stages need the 'interleaved' schedule (the 'gpipe' schedule runs one stage per rank)
// GROUPS: error: the 'interleaved' schedule runs the micro-batches in groups of the 2 stages: 3 micro-batch(es) is not a multiple of 2
// RATES: error: unknown device rates 'tpu', expected one of cpu, h200, h100, a100, a100-40g
// STAGES: error: expected at least 1 pipeline stage, got 0
// MICROBATCHES: error: expected at least 1 micro-batch, got 0
// FUNCTIONS: error: expected one function with a body to cut into pipeline stages, got 2

//--- too-many-stages.mlir
// stages_at_most_units: the embedding, three layers and the head are five units.
// expected-error @+1 {{the graph can be cut into at most 5 stages (3 layers found), got 6}}
//--- too-many-virtual-stages.mlir
// stages_at_most_units: five units, 3 x 2 virtual stages.
// expected-error @+1 {{the graph can be cut into at most 5 stages (3 layers found), got 6 (3 stages x 2 virtual stages)}}
//--- interleaved-memory-budget.mlir
// interleaved_rank_fits: every chunk of the balanced cut fits (the largest, the head, reads 544 bytes), but rank 0 holds two of them.
// expected-error @+1 {{rank 0 of the pipeline (the embedding, layers 1-2) needs 1024 bytes, over the memory budget of 700 bytes}}
//--- memory-budget.mlir
// memory_budget_fits: a layer's 8x8 f32 weight is 256 bytes, x4 when training; every cut has a stage over 1024 bytes.
// expected-error @+1 {{no cut into 2 stages fits the memory budget of 1024 bytes: in the leanest cut, stage 0 (the embedding and layers 0-1) needs 4096 bytes}}
//--- ranges-memory-budget.mlir
// memory_budget_fits: with explicit ranges: layers 1-2 and the head read 1056 bytes of weights.
// expected-error @+1 {{stage 1 (layers 1-2 and the head) needs 1056 bytes, over the memory budget of 1024 bytes}}
//--- ranges-syntax.mlir
// ranges_syntax
// expected-error @+1 {{bad layer range '0-x': expected 'first-last' or 'layer' (non-negative integers)}}
//--- ranges-empty.mlir
// ranges_nonempty
// expected-error @+1 {{layer range '2-1' is empty (first after last)}}
//--- ranges-past-last.mlir
// ranges_in_bounds
// expected-error @+1 {{layer range '1-3' goes past the last layer, 2 (3 layers found)}}
//--- ranges-start.mlir
// ranges_start_at_zero
// expected-error @+1 {{layer ranges must start at layer 0, got '1'}}
//--- ranges-gap.mlir
// ranges_contiguous: layer 1 is in no range.
// expected-error @+1 {{layer ranges leave a gap: layers 1-1 are in no range}}
//--- ranges-overlap.mlir
// ranges_disjoint
// expected-error @+1 {{layer range '1-2' overlaps the previous one (which ends at layer 1)}}
//--- ranges-cover.mlir
// ranges_cover_all_layers
// expected-error @+1 {{layer ranges must cover every layer: layers 2-2 are in no range}}
//--- ranges-count.mlir
// ranges_one_per_stage
// expected-error @+1 {{expected 2 layer ranges (one per stage), got 3}}
//--- no-layers.mlir
// residual_chain_exists: no add, so no layers.
// expected-error @+1 {{no repeated layers found: expected a residual stream (a chain of graph.add ops, each adding to the previous one's result)}}
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %w = graph.weight "w" : tensor<8x8xf32>
  %y = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %z = graph.gelu %y {approximate = "tanh"} : tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
//--- two-functions.mlir
func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
//--- graph.mlir
func.func @main(%ids: tensor<4xi64>) -> tensor<4x16xf32> {
  %wte = graph.weight "wte" : tensor<16x8xf32>
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
  %s = graph.weight "ln_f" : tensor<8xf32>
  %n = graph.layer_norm %b2, %s {axis = 1 : i64, epsilon = 1.0e-5 : f64} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %head = graph.weight "head" : tensor<8x16xf32>
  %logits = graph.matmul %n, %head : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %logits : tensor<4x16xf32>
}

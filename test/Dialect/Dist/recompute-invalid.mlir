// RUN: not paracc-opt %s --paracc-recompute="policy=sometimes" 2>&1 | FileCheck %s --check-prefix=POLICY
// RUN: not paracc-opt %s --paracc-recompute="policy=none rates=tpu" 2>&1 | FileCheck %s --check-prefix=RATES
// RUN: not paracc-opt %s --paracc-recompute="policy=full" 2>&1 | FileCheck %s --check-prefix=LAYERS
// RUN: paracc-opt %s --paracc-recompute="policy=auto budget=0" | FileCheck %s --check-prefix=AUTO

// POLICY: for the --policy option: 'sometimes' is not a recompute policy (none, full, selective or auto)
// RATES: error: unknown device rates 'tpu', expected one of cpu, h200, h100, a100, a100-40g

// full and selective need layers (a residual stream); auto works without:
// %g is held across the peak (the product's 256 bytes) and recomputed.
// LAYERS: error: no repeated layers found: expected a residual stream
// AUTO: dist.recompute_plan = #dist.recompute_plan<policy = "auto"{{.*}}recomputed_ops = 1,
// AUTO: graph.add
// AUTO-NEXT: graph.gelu {{.*}}dist.recomputed

func.func @no_layers(%x: tensor<8x1xf32>, %y: tensor<1x8xf32>) -> (tensor<f32>, tensor<8x1xf32>) {
  %g = graph.gelu %x {approximate = "tanh"} : tensor<8x1xf32>
  %a = graph.reduce_sum %g, [0, 1] {keepdims = false} : tensor<8x1xf32> -> tensor<f32>
  %big = graph.matmul %x, %y : (tensor<8x1xf32>, tensor<1x8xf32>) -> tensor<8x8xf32>
  %b = graph.reduce_sum %big, [0, 1] {keepdims = false} : tensor<8x8xf32> -> tensor<f32>
  %loss = graph.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %d = graph.mul %g, %x : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
  return %loss, %d : tensor<f32>, tensor<8x1xf32>
}

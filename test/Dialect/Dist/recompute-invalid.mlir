// RUN: not paracc-opt %s --paracc-recompute="policy=sometimes" 2>&1 | FileCheck %s --check-prefix=POLICY
// RUN: not paracc-opt %s --paracc-recompute="policy=none rates=tpu" 2>&1 | FileCheck %s --check-prefix=RATES
// RUN: not paracc-opt %s --paracc-recompute="policy=full" 2>&1 | FileCheck %s --check-prefix=LAYERS
// RUN: paracc-opt %s --paracc-recompute="policy=auto budget=0" | FileCheck %s --check-prefix=AUTO

// POLICY: error: unknown recompute policy 'sometimes', expected 'none', 'full', 'selective' or 'auto'
// RATES: error: unknown device rates 'tpu', expected 'cpu' or 'h200'

// full and selective need layers (a residual stream); auto works without.
// LAYERS: error: no repeated layers found: expected a residual stream
// AUTO: dist.recompute_plan = {budget_bytes = 0 : i64, kept_bytes = 0 : i64, policy = "auto"{{.*}}recomputed_ops = 1 : i64, saved_bytes = 32 : i64
// AUTO: graph.reduce_sum
// AUTO-NEXT: graph.gelu {{.*}}dist.recomputed

func.func @no_layers(%x: tensor<8xf32>) -> (tensor<f32>, tensor<8xf32>) {
  %g = graph.gelu %x {approximate = "tanh"} : tensor<8xf32>
  %loss = graph.reduce_sum %g, [0] {keepdims = false} : tensor<8xf32> -> tensor<f32>
  %d = graph.mul %g, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %loss, %d : tensor<f32>, tensor<8xf32>
}

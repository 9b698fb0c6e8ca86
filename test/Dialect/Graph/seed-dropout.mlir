// RUN: paracc-opt %s --paracc-seed-dropout="seed=7" | FileCheck %s
// RUN: paracc-opt %s --paracc-seed-dropout | FileCheck %s --check-prefix=ZERO

// --paracc-seed-dropout: every dropout takes the run's seed; the rest of
// its attributes stay.

// CHECK-LABEL: func.func @main
// CHECK: graph.dropout %{{.*}} {ratio = 1.000000e-01 : f64, seed = 7 : i64, stream = 1 : i64}
// CHECK: graph.dropout %{{.*}} {ratio = 2.000000e-01 : f64, seed = 7 : i64, stream = 2 : i64}
// ZERO: seed = 0 : i64, stream = 1
// ZERO: seed = 0 : i64, stream = 2
func.func @main(%x: tensor<4x8xf32>, %s: tensor<f32>, %o: tensor<2xi64>) -> tensor<4x8xf32> {
  %a = graph.dropout %x, %s, %o {ratio = 0.1 : f64, seed = 3 : i64, stream = 1 : i64} : tensor<4x8xf32>, tensor<2xi64>
  %b = graph.dropout %a, %s, %o {ratio = 0.2 : f64, seed = 3 : i64, stream = 2 : i64} : tensor<4x8xf32>, tensor<2xi64>
  return %b : tensor<4x8xf32>
}

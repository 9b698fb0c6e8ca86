// Hand-written StableHLO in JAX's pretty form (import.test): a while loop
// with a static trip count whose regions use values defined outside them,
// a dynamic_slice whose start is clamped, a dynamic_update_slice, erfc and
// top_k.
module @jit_loops {
  func.func public @main() -> (tensor<4xf32>, tensor<2xf32>, tensor<6xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi32>) {
    %iota = stablehlo.iota dim = 0 : tensor<4xf32>
    %ones = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
    %x = stablehlo.add %iota, %ones : tensor<4xf32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %three = stablehlo.constant dense<3> : tensor<i32>
    %half = stablehlo.constant dense<5.000000e-01> : tensor<4xf32>
    %0:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<4xf32>
      cond {
      %lt = stablehlo.compare LT, %i, %three, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %scaled = stablehlo.multiply %acc, %half : tensor<4xf32>
      %sum = stablehlo.add %scaled, %x : tensor<4xf32>
      stablehlo.return %next, %sum : tensor<i32>, tensor<4xf32>
    }
    %seven = stablehlo.constant dense<7> : tensor<i32>
    %s = stablehlo.dynamic_slice %0#1, %seven, sizes = [2] : (tensor<4xf32>, tensor<i32>) -> tensor<2xf32>
    %zeros = stablehlo.constant dense<0.000000e+00> : tensor<6xf32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %u = stablehlo.dynamic_update_slice %zeros, %x, %c1 : (tensor<6xf32>, tensor<4xf32>, tensor<i32>) -> tensor<6xf32>
    %e = stablehlo.constant dense<[0.000000e+00, 3.000000e+00]> : tensor<2xf32>
    %erfc = chlo.erfc %e : tensor<2xf32> -> tensor<2xf32>
    %values, %indices = chlo.top_k(%x, k = 2) : tensor<4xf32> -> (tensor<2xf32>, tensor<2xi32>)
    return %0#1, %s, %u, %erfc, %values, %indices : tensor<4xf32>, tensor<2xf32>, tensor<6xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi32>
  }
}

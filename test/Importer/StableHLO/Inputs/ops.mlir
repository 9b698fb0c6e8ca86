// Hand-written StableHLO in JAX's pretty form (import.test): compare NE,
// convert, concatenate, remainder, a reduce whose init is not the identity,
// a strided slice.
module @jit_ops {
  func.func public @main() -> (tensor<4xi1>, tensor<f32>, tensor<8xf32>, tensor<3xf32>) {
    %x = stablehlo.iota dim = 0 : tensor<4xi32>
    %c2 = stablehlo.constant dense<2> : tensor<4xi32>
    %ne = stablehlo.compare NE, %x, %c2, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %xf = stablehlo.convert %x : (tensor<4xi32>) -> tensor<4xf32>
    %k = stablehlo.constant dense<2.500000e+00> : tensor<4xf32>
    %y = stablehlo.multiply %xf, %k : tensor<4xf32>
    %c = stablehlo.concatenate %xf, %y, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    %ten = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %sum = stablehlo.reduce(%c init: %ten) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %two = stablehlo.constant dense<2.000000e+00> : tensor<8xf32>
    %rem = stablehlo.remainder %c, %two : tensor<8xf32>
    %s = stablehlo.slice %c [1:7:2] : (tensor<8xf32>) -> tensor<3xf32>
    return %ne, %sum, %rem, %s : tensor<4xi1>, tensor<f32>, tensor<8xf32>, tensor<3xf32>
  }
}

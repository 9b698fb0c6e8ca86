module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xf32>) -> (tensor<4x5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [1, -1], high = [-1, 2], interior = [0, 1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4x10xf32>
    %2 = stablehlo.slice %arg0 [0:4, 0:5:2] : (tensor<4x5xf32>) -> tensor<4x3xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %4 = stablehlo.multiply %3, %2 : tensor<4x3xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %6 = stablehlo.multiply %5, %4 : tensor<4x3xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.pad %6, %cst_2, low = [0, 0], high = [0, 0], interior = [0, 1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x5xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%1 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x5xf32>
    %11 = stablehlo.multiply %10, %7 : tensor<4x5xf32>
    %12 = stablehlo.slice %1 [0:4, 0:5] : (tensor<4x10xf32>) -> tensor<4x5xf32>
    %13 = stablehlo.add %11, %12 : tensor<4x5xf32>
    return %13 : tensor<4x5xf32>
  }
}

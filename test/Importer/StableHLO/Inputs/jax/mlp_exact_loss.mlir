module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x256xf32>, %arg3: tensor<256x64xf32>, %arg4: tensor<4x16x64xf32>, %arg5: tensor<4x16x64xf32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg4, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x256xf32>) -> tensor<4x16x256xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x256xf32>) -> tensor<4x16x256xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x16x256xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16x256xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<4x16x256xf32>
    %6 = stablehlo.negate %3 : tensor<4x16x256xf32>
    %cst_0 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16x256xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<4x16x256xf32>
    %9 = chlo.erfc %8 : tensor<4x16x256xf32> -> tensor<4x16x256xf32>
    %10 = stablehlo.multiply %5, %9 : tensor<4x16x256xf32>
    %11 = stablehlo.dot_general %10, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x256xf32>, tensor<256x64xf32>) -> tensor<4x16x64xf32>
    %12 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %14 = stablehlo.add %11, %13 : tensor<4x16x64xf32>
    %15 = stablehlo.subtract %14, %arg5 : tensor<4x16x64xf32>
    %16 = chlo.square %15 : tensor<4x16x64xf32> -> tensor<4x16x64xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%16 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %18 = stablehlo.divide %17, %cst_2 : tensor<f32>
    return %18 : tensor<f32>
  }
}

module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<2x3xi32>, %arg3: tensor<2x3x4xf32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg3, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<4x4xf32>) -> tensor<2x3x4xf32>
    %1 = stablehlo.tanh %0 : tensor<2x3x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %3 = stablehlo.compare LT, %arg2, %2, SIGNED : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %c_0 = stablehlo.constant dense<8> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %5 = stablehlo.add %arg2, %4 : tensor<2x3xi32>
    %6 = stablehlo.select %3, %5, %arg2 : tensor<2x3xi1>, tensor<2x3xi32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<2x3xi32>) -> tensor<2x3x1xi32>
    %8 = "stablehlo.scatter"(%arg0, %7, %1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %13 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }) : (tensor<8x4xf32>, tensor<2x3x1xi32>, tensor<2x3x4xf32>) -> tensor<8x4xf32>
    %9 = stablehlo.sine %8 : tensor<8x4xf32>
    %10 = stablehlo.multiply %9, %8 : tensor<8x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %12 = stablehlo.divide %11, %cst_1 : tensor<f32>
    return %12 : tensor<f32>
  }
}

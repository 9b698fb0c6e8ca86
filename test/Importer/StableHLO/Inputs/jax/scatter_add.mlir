module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x5xf32>) -> (tensor<2x6x5xf32> {jax.result_info = "result[0]"}, tensor<2x3x4xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<[[[[2], [0]], [[0], [2]]], [[[1], [7]], [[1], [1]]], [[[0], [2]], [[2], [-1]]], [[[2], [2]], [[2], [2]]]]> : tensor<4x2x2x1xi32>
    %cst = stablehlo.constant dense<[[0.000000e+00, 1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01], [5.000000e-01, 6.000000e-01, 0.699999988, 8.000000e-01, 0.900000035], [1.000000e+00, 1.100000e+00, 1.200000e+00, 1.30000007, 1.400000e+00], [1.500000e+00, 1.600000e+00, 1.700000e+00, 1.80000007, 1.900000e+00], [2.000000e+00, 2.10000014, 2.200000e+00, 2.300000e+00, 2.400000e+00]]> : tensor<5x5xf32>
    %c_0 = stablehlo.constant dense<[1, 4, 1, -2, 9]> : tensor<5xi32>
    %0 = stablehlo.iota dim = 0 : tensor<16xf32>
    %1 = stablehlo.reshape %0 : (tensor<16xf32>) -> tensor<4x2x2xf32>
    %2 = stablehlo.slice %arg0 [0:1, 0:1] : (tensor<6x5xf32>) -> tensor<1x1xf32>
    %3 = stablehlo.reshape %2 : (tensor<1x1xf32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<4x2x2xf32>
    %5 = stablehlo.add %1, %4 : tensor<4x2x2xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x3x4xf32>
    %7 = stablehlo.slice %arg0 [1:2, 1:2] : (tensor<6x5xf32>) -> tensor<1x1xf32>
    %8 = stablehlo.reshape %7 : (tensor<1x1xf32>) -> tensor<f32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<2x3x4xf32>
    %10 = stablehlo.multiply %6, %9 : tensor<2x3x4xf32>
    %11 = "stablehlo.scatter"(%10, %c, %5) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0, 2], scatter_indices_batching_dims = [1, 0], scatter_dims_to_operand_dims = [1], index_vector_dim = 3>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %37 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %37 : tensor<f32>
    }) : (tensor<2x3x4xf32>, tensor<4x2x2x1xi32>, tensor<4x2x2xf32>) -> tensor<2x3x4xf32>
    %12 = stablehlo.slice %arg0 [0:1, 0:5] : (tensor<6x5xf32>) -> tensor<1x5xf32>
    %13 = stablehlo.reshape %12 : (tensor<1x5xf32>) -> tensor<5xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<5x5xf32>
    %16 = stablehlo.multiply %cst, %15 : tensor<5x5xf32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %18 = stablehlo.compare LT, %c_0, %17, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_3 = stablehlo.constant dense<6> : tensor<i32>
    %19 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %20 = stablehlo.add %c_0, %19 : tensor<5xi32>
    %21 = stablehlo.select %18, %20, %c_0 : tensor<5xi1>, tensor<5xi32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %23 = "stablehlo.scatter"(%arg0, %22, %16) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %37 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %37 : tensor<f32>
    }) : (tensor<6x5xf32>, tensor<5x1xi32>, tensor<5x5xf32>) -> tensor<6x5xf32>
    %24 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<6x5xf32>) -> tensor<5x6xf32>
    %25 = stablehlo.transpose %cst, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %27 = stablehlo.compare LT, %c_0, %26, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_5 = stablehlo.constant dense<6> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %29 = stablehlo.add %c_0, %28 : tensor<5xi32>
    %30 = stablehlo.select %27, %29, %c_0 : tensor<5xi1>, tensor<5xi32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %32 = "stablehlo.scatter"(%24, %31, %25) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %37 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %37 : tensor<f32>
    }) : (tensor<5x6xf32>, tensor<5x1xi32>, tensor<5x5xf32>) -> tensor<5x6xf32>
    %33 = stablehlo.transpose %32, dims = [1, 0] : (tensor<5x6xf32>) -> tensor<6x5xf32>
    %34 = stablehlo.broadcast_in_dim %23, dims = [1, 2] : (tensor<6x5xf32>) -> tensor<1x6x5xf32>
    %35 = stablehlo.broadcast_in_dim %33, dims = [1, 2] : (tensor<6x5xf32>) -> tensor<1x6x5xf32>
    %36 = stablehlo.concatenate %34, %35, dim = 0 : (tensor<1x6x5xf32>, tensor<1x6x5xf32>) -> tensor<2x6x5xf32>
    return %36, %11 : tensor<2x6x5xf32>, tensor<2x3x4xf32>
  }
}

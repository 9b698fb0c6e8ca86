"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<6x5xf32>) -> (tensor<2x6x5xf32>, tensor<2x3x4xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<6x5xf32>):
    %0 = "stablehlo.constant"() <{value = dense<[[[[2], [0]], [[0], [2]]], [[[1], [7]], [[1], [1]]], [[[0], [2]], [[2], [-1]]], [[[2], [2]], [[2], [2]]]]> : tensor<4x2x2x1xi32>}> : () -> tensor<4x2x2x1xi32>
    %1 = "stablehlo.constant"() <{value = dense<[[0.000000e+00, 1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01], [5.000000e-01, 6.000000e-01, 0.699999988, 8.000000e-01, 0.900000035], [1.000000e+00, 1.100000e+00, 1.200000e+00, 1.30000007, 1.400000e+00], [1.500000e+00, 1.600000e+00, 1.700000e+00, 1.80000007, 1.900000e+00], [2.000000e+00, 2.10000014, 2.200000e+00, 2.300000e+00, 2.400000e+00]]> : tensor<5x5xf32>}> : () -> tensor<5x5xf32>
    %2 = "stablehlo.constant"() <{value = dense<[1, 4, 1, -2, 9]> : tensor<5xi32>}> : () -> tensor<5xi32>
    %3 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xf32>
    %4 = "stablehlo.reshape"(%3) : (tensor<16xf32>) -> tensor<4x2x2xf32>
    %5 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 1, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<6x5xf32>) -> tensor<1x1xf32>
    %6 = "stablehlo.reshape"(%5) : (tensor<1x1xf32>) -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x2x2xf32>
    %8 = "stablehlo.add"(%4, %7) : (tensor<4x2x2xf32>, tensor<4x2x2xf32>) -> tensor<4x2x2xf32>
    %9 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3x4xf32>
    %11 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 2, 2>, start_indices = array<i64: 1, 1>, strides = array<i64: 1, 1>}> : (tensor<6x5xf32>) -> tensor<1x1xf32>
    %12 = "stablehlo.reshape"(%11) : (tensor<1x1xf32>) -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3x4xf32>
    %14 = "stablehlo.multiply"(%10, %13) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %15 = "stablehlo.scatter"(%14, %0, %8) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0, 2], scatter_indices_batching_dims = [1, 0], scatter_dims_to_operand_dims = [1], index_vector_dim = 3>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %47 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%47) : (tensor<f32>) -> ()
    }) : (tensor<2x3x4xf32>, tensor<4x2x2x1xi32>, tensor<4x2x2xf32>) -> tensor<2x3x4xf32>
    %16 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 1, 5>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<6x5xf32>) -> tensor<1x5xf32>
    %17 = "stablehlo.reshape"(%16) : (tensor<1x5xf32>) -> tensor<5xf32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64: 1>}> : (tensor<5xf32>) -> tensor<1x5xf32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x5xf32>) -> tensor<5x5xf32>
    %20 = "stablehlo.multiply"(%1, %19) : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %21 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %23 = "stablehlo.compare"(%2, %22) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %24 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %26 = "stablehlo.add"(%2, %25) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %27 = "stablehlo.select"(%23, %26, %2) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %29 = "stablehlo.scatter"(%arg0, %28, %20) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %46 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%46) : (tensor<f32>) -> ()
    }) : (tensor<6x5xf32>, tensor<5x1xi32>, tensor<5x5xf32>) -> tensor<6x5xf32>
    %30 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<6x5xf32>) -> tensor<5x6xf32>
    %31 = "stablehlo.transpose"(%1) <{permutation = array<i64: 1, 0>}> : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %32 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %34 = "stablehlo.compare"(%2, %33) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %35 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %37 = "stablehlo.add"(%2, %36) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %38 = "stablehlo.select"(%34, %37, %2) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %40 = "stablehlo.scatter"(%30, %39, %31) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %45 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%45) : (tensor<f32>) -> ()
    }) : (tensor<5x6xf32>, tensor<5x1xi32>, tensor<5x5xf32>) -> tensor<5x6xf32>
    %41 = "stablehlo.transpose"(%40) <{permutation = array<i64: 1, 0>}> : (tensor<5x6xf32>) -> tensor<6x5xf32>
    %42 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<6x5xf32>) -> tensor<1x6x5xf32>
    %43 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<6x5xf32>) -> tensor<1x6x5xf32>
    %44 = "stablehlo.concatenate"(%42, %43) <{dimension = 0 : i64}> : (tensor<1x6x5xf32>, tensor<1x6x5xf32>) -> tensor<2x6x5xf32>
    "func.return"(%44, %15) : (tensor<2x6x5xf32>, tensor<2x3x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

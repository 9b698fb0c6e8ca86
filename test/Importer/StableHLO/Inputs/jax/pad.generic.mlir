"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x5xf32>) -> tensor<4x5xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x5xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %20 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%20) : (tensor<f32>) -> ()
    }) : (tensor<4x5xf32>, tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.pad"(%arg0, %1) <{edge_padding_high = array<i64: -1, 2>, edge_padding_low = array<i64: 1, -1>, interior_padding = array<i64: 0, 1>}> : (tensor<4x5xf32>, tensor<f32>) -> tensor<4x10xf32>
    %3 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 5>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 2>}> : (tensor<4x5xf32>) -> tensor<4x3xf32>
    %4 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x3xf32>
    %6 = "stablehlo.multiply"(%5, %3) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %7 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x3xf32>
    %9 = "stablehlo.multiply"(%8, %6) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %10 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.pad"(%9, %10) <{edge_padding_high = array<i64: 0, 0>, edge_padding_low = array<i64: 0, 0>, interior_padding = array<i64: 0, 1>}> : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x5xf32>
    %12 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.reduce"(%2, %12) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %19 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%19) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x1xf32>) -> tensor<4x5xf32>
    %16 = "stablehlo.multiply"(%15, %11) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %17 = "stablehlo.slice"(%2) <{limit_indices = array<i64: 4, 5>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x10xf32>) -> tensor<4x5xf32>
    %18 = "stablehlo.add"(%16, %17) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    "func.return"(%18) : (tensor<4x5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

"builtin.module"() <{sym_name = "jit_loss"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}, {}, {}], function_type = (tensor<256xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256x64xf32>, tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x256xf32>, %arg3: tensor<256x64xf32>, %arg4: tensor<4x16x64xf32>, %arg5: tensor<4x16x64xf32>):
    %0 = "stablehlo.dot_general"(%arg4, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x256xf32>) -> tensor<4x16x256xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 2>}> : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x256xf32>) -> tensor<4x16x256xf32>
    %3 = "stablehlo.add"(%0, %2) : (tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
    %4 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x256xf32>
    %6 = "stablehlo.multiply"(%5, %3) : (tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
    %7 = "stablehlo.negate"(%3) : (tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.707106769> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x256xf32>
    %10 = "stablehlo.multiply"(%7, %9) : (tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
    %11 = "chlo.erfc"(%10) : (tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
    %12 = "stablehlo.multiply"(%6, %11) : (tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
    %13 = "stablehlo.dot_general"(%12, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x256xf32>, tensor<256x64xf32>) -> tensor<4x16x64xf32>
    %14 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %16 = "stablehlo.add"(%13, %15) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %17 = "stablehlo.subtract"(%16, %arg5) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %18 = "chlo.square"(%17) : (tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.reduce"(%18, %19) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %23 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%23) : (tensor<f32>) -> ()
    }) : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<f32>
    %21 = "stablehlo.constant"() <{value = dense<4.096000e+03> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.divide"(%20, %21) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%22) : (tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

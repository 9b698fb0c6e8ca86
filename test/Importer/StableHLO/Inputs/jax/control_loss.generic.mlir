"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<16x4xf32>, tensor<16x16xf32>, tensor<8x16xf32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg8: tensor<16x4xf32>, %arg9: tensor<16x16xf32>, %arg10: tensor<8x16xf32>):
    %17 = "stablehlo.dot_general"(%arg10, %arg9) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %18 = "stablehlo.tanh"(%17) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.reduce"(%18, %19) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %59 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%59) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %21 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.divide"(%20, %21) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %23 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.compare"(%22, %23) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %25 = "stablehlo.convert"(%24) : (tensor<i1>) -> tensor<i32>
    %26 = "stablehlo.case"(%25) ({
      %54 = "stablehlo.sine"(%18) : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %55 = "stablehlo.dot_general"(%54, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
      %56 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
      %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x4xf32>
      %58 = "stablehlo.multiply"(%55, %57) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
      "stablehlo.return"(%58) : (tensor<8x4xf32>) -> ()
    }, {
      %53 = "stablehlo.dot_general"(%18, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
      "stablehlo.return"(%53) : (tensor<8x4xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8x4xf32>
    %27 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %28 = "stablehlo.reduce"(%26, %27) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %52 = "stablehlo.add"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%52) : (tensor<f32>) -> ()
    }) : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %29 = "func.call"(%28) <{callee = @argmax}> : (tensor<4xf32>) -> tensor<i32>
    %30 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %31 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %32 = "func.call"(%29, %30, %31) <{callee = @clip}> : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %33 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %34 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %35 = "stablehlo.clamp"(%33, %32, %34) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %36 = "stablehlo.case"(%35) ({
      %49 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x4xf32>
      %51 = "stablehlo.multiply"(%26, %50) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
      "stablehlo.return"(%51) : (tensor<8x4xf32>) -> ()
    }, {
      %46 = "stablehlo.negate"(%26) : (tensor<8x4xf32>) -> tensor<8x4xf32>
      %47 = "stablehlo.multiply"(%46, %26) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
      %48 = "stablehlo.exponential"(%47) : (tensor<8x4xf32>) -> tensor<8x4xf32>
      "stablehlo.return"(%48) : (tensor<8x4xf32>) -> ()
    }, {
      %43 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x4xf32>
      %45 = "stablehlo.subtract"(%26, %44) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
      "stablehlo.return"(%45) : (tensor<8x4xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8x4xf32>
    %37 = "stablehlo.multiply"(%36, %36) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %38 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.reduce"(%37, %38) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %42 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%42) : (tensor<f32>) -> ()
    }) : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
    %40 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %41 = "stablehlo.divide"(%39, %40) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%41) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<i32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<4xf32>):
    %4 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xi32>
    %5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7:2 = "stablehlo.reduce"(%arg3, %4, %5, %6) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<i32>, %arg6: tensor<f32>, %arg7: tensor<i32>):
      %8 = "stablehlo.compare"(%arg4, %arg6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %9 = "stablehlo.compare"(%arg4, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %10 = "stablehlo.or"(%8, %9) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %11 = "stablehlo.compare"(%arg4, %arg6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %12 = "stablehlo.compare"(%arg5, %arg7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %13 = "stablehlo.and"(%11, %12) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %14 = "stablehlo.or"(%10, %13) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %15 = "stablehlo.select"(%10, %arg4, %arg6) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %16 = "stablehlo.select"(%14, %arg5, %arg7) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%15, %16) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
    "func.return"(%7#1) : (tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>, res_attrs = [{}], sym_name = "clip", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<i32>, %arg2: tensor<i32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.maximum"(%0, %arg0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = "stablehlo.convert"(%arg2) : (tensor<i32>) -> tensor<i32>
    %3 = "stablehlo.minimum"(%2, %1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%3) : (tensor<i32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

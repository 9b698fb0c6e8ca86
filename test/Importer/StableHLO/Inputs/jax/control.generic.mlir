"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x16xf32>) -> tensor<88xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg20: tensor<4x16xf32>):
    %56 = "stablehlo.constant"() <{value = dense<"0xE33CF93E548A1B3F413305BEC335C1BC6961583D1B5095BEE12718BE84DF173E8F164C3EF3F191BE5063273FD42716BF4D4EDC3D0FE6413D0429C43EE501E83EBF17953E1933383E5DD1F23B7A2F13BF4BCC0EBFB2B8043F34F3673CA2197A3E1E60213DFFC7AD3D1E04BF3ED60D543E8FFC75BED3A163BE365DECBE50F9B93DA3A5CBBB14350B3DFC9187BDF650AD3CF510833EED727CBEDEA98FBB4EE338BDC2428ABEE92F69BE56A7CC3DF099783EABD7513CEA7531BE529BFEBD981615BFE227CA3E6EB6673E5AB5463D26362BBCEF62CCBE1FD7F13DE240143EBBEF763E85AD42BE8D8D9F3E1ED163BE561504BE3D4D8ABD4AA41FBE223200BF08784F3EEBB48B3D2A41B5BEBA0696BE67DAB73E4E3881BE66B14A3E190CA43E7BCBC13D4D73063E45FFB33E9B6C8B3E8ACBBB3E46DA27BE4287833E109D1CBBC570113E0759AABEBFEE4A3F90A3883EEBDC983E0DCB9C3D748D193D26D1B23E1F1D6D3DF9B16ABD351F06BE600EB0BE61D0723DCD81B33E6D2786BE2072873E266BD3BDBB9633BD22518CBE6972D23ECBA36FBE7324E03D65EF953E66050DBB4258813D95E9693DF542EB3DBA66C2BE32FFE3BE4FC00CBDCA87A93E54E0733DE369833D93EA4ABEEA665FBEDF7CF83D0E0D693DF64B39BE3A29913ED07BA63E0EE81DBF36495BBE0F21363E3466A13E5BF7E0BE68C14A3EBC60B9BDA397233DFF7ACCBD4D27F13E797D303EB63B5E3E8005563E840D4CBEF10F17BF7E9139BF9EEAA73D8939B23E8A21A33D533F543E6F539DBDB1581BBFDA6C3FBE89BEAB3DA368CFBE30EDF83CE87E1D3EAD36A23D1D7A0CBF6D3ADC3E8393CA3E7BAEE5BEE8598F3E8D76D83EAA4B4EBD87C311BD0E3195BDEAB993BE935A68BED097453FF2D7A2BE1DE5BF3D2739C93D8991CB3C0C4DA6BEFF3A6DBE57F342BE6A60BC3ED067E4BEC39173BE03EB293E5219B6BEA40D963E24B106BE239ACABD2651CC3DF68348BEE01EB9BE0F2388BE6EF521BFE9813EBDE21D4ABE6CC04BBE2DFB23BC5E9D89BEB385BD3CB3BF8BBE6900C43E46CAF6BDAA9699BE857AAA3BF08CF83D308EA4BE3C3B9F3E735B4DBE7F86BFBC5D8DB93E72D7193FDE81ADBC6376CE3D68CA343F396795BD9324B43EBDED813E6DCC5F3E5EB0373E24886BBE9920563D58303FBEC92E7F3E87B9CB3D9CB088BE25F8813DD84EE3BCC75FF8BECF58FDBD1B50D83E65B09E3E5C0EA63E3092B0BEB7E21DBC0C81B7BC0BFF373E0ACFB6BE634241BEF092883C12A5E03D54E8273ECCDA6A3EF8B9D0BD4DC3DE3DCE78B6BD69399E3EEB4F943E6D2B683EBFF2143D3FC37C3EC0B6373E38A280BEB206273ED6DCC5BD119F08BEB97D8C3E2641BA3EDA120A3F5392F6BE5B0BC43CE8436CBE6A7A15BF88C0F43E07348DBE32CE03BFFBD8AB3EF00C7A3D89755DBDAFFC563DBBB561BE"> : tensor<16x16xf32>}> : () -> tensor<16x16xf32>
    %57 = "stablehlo.dot_general"(%arg20, %56) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %58 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %59 = "stablehlo.reduce"(%57, %58) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %99 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%99) : (tensor<f32>) -> ()
    }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<f32>
    %60 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %61 = "stablehlo.compare"(%59, %60) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %62 = "stablehlo.convert"(%61) : (tensor<i1>) -> tensor<i32>
    %63 = "stablehlo.case"(%62) ({
      %95 = "stablehlo.tanh"(%57) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      %96 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %97 = "stablehlo.broadcast_in_dim"(%96) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16xf32>
      %98 = "stablehlo.subtract"(%95, %97) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
      "stablehlo.return"(%98) : (tensor<4x16xf32>) -> ()
    }, {
      %89 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %90 = "stablehlo.broadcast_in_dim"(%89) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16xf32>
      %91 = "stablehlo.multiply"(%57, %90) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
      %92 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %93 = "stablehlo.broadcast_in_dim"(%92) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16xf32>
      %94 = "stablehlo.add"(%91, %93) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
      "stablehlo.return"(%94) : (tensor<4x16xf32>) -> ()
    }) : (tensor<i32>) -> tensor<4x16xf32>
    %64 = "stablehlo.slice"(%57) <{limit_indices = array<i64: 1, 16>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x16xf32>) -> tensor<1x16xf32>
    %65 = "stablehlo.reshape"(%64) : (tensor<1x16xf32>) -> tensor<16xf32>
    %66 = "func.call"(%65) <{callee = @argmax}> : (tensor<16xf32>) -> tensor<i32>
    %67 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %68 = "func.call"(%66, %67) <{callee = @remainder}> : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %69 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %70 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %71 = "stablehlo.clamp"(%69, %68, %70) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %72 = "stablehlo.case"(%71) ({
      %86 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %87 = "stablehlo.broadcast_in_dim"(%86) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16xf32>
      %88 = "stablehlo.add"(%63, %87) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
      "stablehlo.return"(%88) : (tensor<4x16xf32>) -> ()
    }, {
      %83 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %84 = "stablehlo.broadcast_in_dim"(%83) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16xf32>
      %85 = "stablehlo.multiply"(%63, %84) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
      "stablehlo.return"(%85) : (tensor<4x16xf32>) -> ()
    }, {
      %82 = "stablehlo.negate"(%63) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      "stablehlo.return"(%82) : (tensor<4x16xf32>) -> ()
    }) : (tensor<i32>) -> tensor<4x16xf32>
    %73 = "stablehlo.reshape"(%72) : (tensor<4x16xf32>) -> tensor<64xf32>
    %74 = "func.call"(%72) <{callee = @argmax_0}> : (tensor<4x16xf32>) -> tensor<4xi32>
    %75 = "stablehlo.convert"(%74) : (tensor<4xi32>) -> tensor<4xf32>
    %76 = "func.call"(%72) <{callee = @argmin}> : (tensor<4x16xf32>) -> tensor<16xi32>
    %77 = "stablehlo.convert"(%76) : (tensor<16xi32>) -> tensor<16xf32>
    %78 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %79 = "stablehlo.reduce"(%72, %78) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %81 = "stablehlo.maximum"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%81) : (tensor<f32>) -> ()
    }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %80 = "stablehlo.concatenate"(%73, %75, %77, %79) <{dimension = 0 : i64}> : (tensor<64xf32>, tensor<4xf32>, tensor<16xf32>, tensor<4xf32>) -> tensor<88xf32>
    "func.return"(%80) : (tensor<88xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16xf32>) -> tensor<i32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg15: tensor<16xf32>):
    %43 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %44 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %45 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %46:2 = "stablehlo.reduce"(%arg15, %43, %44, %45) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg16: tensor<f32>, %arg17: tensor<i32>, %arg18: tensor<f32>, %arg19: tensor<i32>):
      %47 = "stablehlo.compare"(%arg16, %arg18) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %48 = "stablehlo.compare"(%arg16, %arg16) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %49 = "stablehlo.or"(%47, %48) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %50 = "stablehlo.compare"(%arg16, %arg18) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %51 = "stablehlo.compare"(%arg17, %arg19) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %52 = "stablehlo.and"(%50, %51) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %53 = "stablehlo.or"(%49, %52) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %54 = "stablehlo.select"(%49, %arg16, %arg18) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %55 = "stablehlo.select"(%53, %arg17, %arg19) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%54, %55) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<16xf32>, tensor<16xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
    "func.return"(%46#1) : (tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<i32>, tensor<i32>) -> tensor<i32>, res_attrs = [{}], sym_name = "remainder", sym_visibility = "private"}> ({
  ^bb0(%arg13: tensor<i32>, %arg14: tensor<i32>):
    %27 = "stablehlo.convert"(%arg14) : (tensor<i32>) -> tensor<i32>
    %28 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %29 = "stablehlo.compare"(%27, %28) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %30 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %31 = "func.call"(%29, %30, %27) <{callee = @_where}> : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %32 = "stablehlo.remainder"(%arg13, %31) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %33 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %34 = "stablehlo.compare"(%32, %33) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %35 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %36 = "stablehlo.compare"(%32, %35) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %37 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %38 = "stablehlo.compare"(%31, %37) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %39 = "stablehlo.compare"(%36, %38) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %40 = "stablehlo.and"(%39, %34) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %41 = "stablehlo.add"(%32, %31) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %42 = "stablehlo.select"(%40, %41, %32) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%42) : (tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg10: tensor<i1>, %arg11: tensor<i32>, %arg12: tensor<i32>):
    %26 = "stablehlo.select"(%arg10, %arg11, %arg12) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%26) : (tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x16xf32>) -> tensor<4xi32>, sym_name = "argmax_0", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<4x16xf32>):
    %13 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x16xi32>
    %14 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %16:2 = "stablehlo.reduce"(%arg5, %13, %14, %15) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<i32>, %arg8: tensor<f32>, %arg9: tensor<i32>):
      %17 = "stablehlo.compare"(%arg6, %arg8) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %18 = "stablehlo.compare"(%arg6, %arg6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %19 = "stablehlo.or"(%17, %18) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %20 = "stablehlo.compare"(%arg6, %arg8) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %21 = "stablehlo.compare"(%arg7, %arg9) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %22 = "stablehlo.and"(%20, %21) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %23 = "stablehlo.or"(%19, %22) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %24 = "stablehlo.select"(%19, %arg6, %arg8) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %25 = "stablehlo.select"(%23, %arg7, %arg9) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%24, %25) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
    "func.return"(%16#1) : (tensor<4xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x16xf32>) -> tensor<16xi32>, sym_name = "argmin", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x16xf32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x16xi32>
    %1 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3:2 = "stablehlo.reduce"(%arg0, %0, %1, %2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<i32>):
      %4 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = "stablehlo.or"(%4, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %7 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = "stablehlo.and"(%7, %8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %10 = "stablehlo.or"(%6, %9) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %11 = "stablehlo.select"(%6, %arg1, %arg3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %12 = "stablehlo.select"(%10, %arg2, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%11, %12) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
    "func.return"(%3#1) : (tensor<16xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

"builtin.module"() <{sym_name = "jit_loss"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}], function_type = (tensor<32x128xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x96xf32>, tensor<96xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x96xf32>, tensor<96xf32>, tensor<1x1x32xf32>, tensor<10xf32>, tensor<32x10xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<4x4x3x32xf32>, tensor<1x17x32xf32>, tensor<2x16x16x3xf32>, tensor<2xi32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg9: tensor<32x128xf32>, %arg10: tensor<128xf32>, %arg11: tensor<32xf32>, %arg12: tensor<32xf32>, %arg13: tensor<32xf32>, %arg14: tensor<32xf32>, %arg15: tensor<128x32xf32>, %arg16: tensor<32xf32>, %arg17: tensor<32x32xf32>, %arg18: tensor<32xf32>, %arg19: tensor<32x96xf32>, %arg20: tensor<96xf32>, %arg21: tensor<32x128xf32>, %arg22: tensor<128xf32>, %arg23: tensor<32xf32>, %arg24: tensor<32xf32>, %arg25: tensor<32xf32>, %arg26: tensor<32xf32>, %arg27: tensor<128x32xf32>, %arg28: tensor<32xf32>, %arg29: tensor<32x32xf32>, %arg30: tensor<32xf32>, %arg31: tensor<32x96xf32>, %arg32: tensor<96xf32>, %arg33: tensor<1x1x32xf32>, %arg34: tensor<10xf32>, %arg35: tensor<32x10xf32>, %arg36: tensor<32xf32>, %arg37: tensor<32xf32>, %arg38: tensor<32xf32>, %arg39: tensor<4x4x3x32xf32>, %arg40: tensor<1x17x32xf32>, %arg41: tensor<2x16x16x3xf32>, %arg42: tensor<2xi32>):
    %40 = "stablehlo.convolution"(%arg41, %arg39) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 4, 4>}> : (tensor<2x16x16x3xf32>, tensor<4x4x3x32xf32>) -> tensor<2x4x4x32xf32>
    %41 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64: 3>}> : (tensor<32xf32>) -> tensor<1x1x1x32xf32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x32xf32>) -> tensor<2x4x4x32xf32>
    %43 = "stablehlo.add"(%40, %42) : (tensor<2x4x4x32xf32>, tensor<2x4x4x32xf32>) -> tensor<2x4x4x32xf32>
    %44 = "stablehlo.reshape"(%43) : (tensor<2x4x4x32xf32>) -> tensor<2x16x32xf32>
    %45 = "stablehlo.broadcast_in_dim"(%arg33) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x1x32xf32>
    %46 = "stablehlo.concatenate"(%45, %44) <{dimension = 1 : i64}> : (tensor<2x1x32xf32>, tensor<2x16x32xf32>) -> tensor<2x17x32xf32>
    %47 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x17x32xf32>) -> tensor<2x17x32xf32>
    %48 = "stablehlo.add"(%46, %47) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %49 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %50 = "stablehlo.reduce"(%48, %49) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg71: tensor<f32>, %arg72: tensor<f32>):
      %339 = "stablehlo.add"(%arg71, %arg72) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%339) : (tensor<f32>) -> ()
    }) : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %51 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %52 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %53 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %54 = "stablehlo.divide"(%51, %53) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %56 = "stablehlo.subtract"(%48, %55) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %57 = "chlo.square"(%56) : (tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %58 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %59 = "stablehlo.reduce"(%57, %58) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg69: tensor<f32>, %arg70: tensor<f32>):
      %338 = "stablehlo.add"(%arg69, %arg70) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%338) : (tensor<f32>) -> ()
    }) : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %60 = "stablehlo.broadcast_in_dim"(%59) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %61 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %62 = "stablehlo.broadcast_in_dim"(%61) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %63 = "stablehlo.divide"(%60, %62) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %64 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %65 = "stablehlo.subtract"(%48, %64) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %66 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %68 = "stablehlo.add"(%63, %67) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %69 = "stablehlo.rsqrt"(%68) : (tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %70 = "stablehlo.broadcast_in_dim"(%69) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %71 = "stablehlo.multiply"(%65, %70) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %72 = "stablehlo.broadcast_in_dim"(%arg12) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %73 = "stablehlo.broadcast_in_dim"(%72) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %74 = "stablehlo.multiply"(%71, %73) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %75 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %76 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %77 = "stablehlo.add"(%74, %76) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %78 = "stablehlo.dot_general"(%77, %arg19) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x17x32xf32>, tensor<32x96xf32>) -> tensor<2x17x96xf32>
    %79 = "stablehlo.broadcast_in_dim"(%arg20) <{broadcast_dimensions = array<i64: 2>}> : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %80 = "stablehlo.broadcast_in_dim"(%79) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x96xf32>) -> tensor<2x17x96xf32>
    %81 = "stablehlo.add"(%78, %80) : (tensor<2x17x96xf32>, tensor<2x17x96xf32>) -> tensor<2x17x96xf32>
    %82 = "stablehlo.slice"(%81) <{limit_indices = array<i64: 2, 17, 32>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %83 = "stablehlo.slice"(%81) <{limit_indices = array<i64: 2, 17, 64>, start_indices = array<i64: 0, 0, 32>, strides = array<i64: 1, 1, 1>}> : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %84 = "stablehlo.slice"(%81) <{limit_indices = array<i64: 2, 17, 96>, start_indices = array<i64: 0, 0, 64>, strides = array<i64: 1, 1, 1>}> : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %85 = "stablehlo.reshape"(%82) : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %86 = "stablehlo.transpose"(%85) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %87 = "stablehlo.reshape"(%83) : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %88 = "stablehlo.transpose"(%87) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %89 = "stablehlo.reshape"(%84) : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %90 = "stablehlo.transpose"(%89) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %91 = "stablehlo.dot_general"(%86, %88) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x17x8xf32>, tensor<2x4x17x8xf32>) -> tensor<2x4x17x17xf32>
    %92 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %93 = "stablehlo.sqrt"(%92) : (tensor<f32>) -> tensor<f32>
    %94 = "stablehlo.broadcast_in_dim"(%93) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x17x17xf32>
    %95 = "stablehlo.divide"(%91, %94) : (tensor<2x4x17x17xf32>, tensor<2x4x17x17xf32>) -> tensor<2x4x17x17xf32>
    %96 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %97 = "stablehlo.reduce"(%95, %96) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg67: tensor<f32>, %arg68: tensor<f32>):
      %337 = "stablehlo.maximum"(%arg67, %arg68) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%337) : (tensor<f32>) -> ()
    }) : (tensor<2x4x17x17xf32>, tensor<f32>) -> tensor<2x4x17xf32>
    %98 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %99 = "stablehlo.broadcast_in_dim"(%98) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x17xf32>
    %100 = "stablehlo.maximum"(%99, %97) : (tensor<2x4x17xf32>, tensor<2x4x17xf32>) -> tensor<2x4x17xf32>
    %101 = "stablehlo.broadcast_in_dim"(%100) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x17xf32>) -> tensor<2x4x17x1xf32>
    %102 = "stablehlo.broadcast_in_dim"(%101) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x17xf32>
    %103 = "stablehlo.subtract"(%95, %102) : (tensor<2x4x17x17xf32>, tensor<2x4x17x17xf32>) -> tensor<2x4x17x17xf32>
    %104 = "stablehlo.exponential"(%103) : (tensor<2x4x17x17xf32>) -> tensor<2x4x17x17xf32>
    %105 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %106 = "stablehlo.reduce"(%104, %105) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg65: tensor<f32>, %arg66: tensor<f32>):
      %336 = "stablehlo.add"(%arg65, %arg66) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%336) : (tensor<f32>) -> ()
    }) : (tensor<2x4x17x17xf32>, tensor<f32>) -> tensor<2x4x17xf32>
    %107 = "stablehlo.broadcast_in_dim"(%106) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x17xf32>) -> tensor<2x4x17x1xf32>
    %108 = "stablehlo.broadcast_in_dim"(%107) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x17xf32>
    %109 = "stablehlo.divide"(%104, %108) : (tensor<2x4x17x17xf32>, tensor<2x4x17x17xf32>) -> tensor<2x4x17x17xf32>
    %110 = "stablehlo.dot_general"(%109, %90) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x17x17xf32>, tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
    %111 = "stablehlo.transpose"(%110) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x17x8xf32>) -> tensor<2x17x4x8xf32>
    %112 = "stablehlo.reshape"(%111) : (tensor<2x17x4x8xf32>) -> tensor<2x17x32xf32>
    %113 = "stablehlo.dot_general"(%112, %arg17) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x17x32xf32>, tensor<32x32xf32>) -> tensor<2x17x32xf32>
    %114 = "stablehlo.add"(%48, %113) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %115 = "stablehlo.broadcast_in_dim"(%arg18) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %116 = "stablehlo.broadcast_in_dim"(%115) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %117 = "stablehlo.add"(%114, %116) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %118 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %119 = "stablehlo.reduce"(%117, %118) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg63: tensor<f32>, %arg64: tensor<f32>):
      %335 = "stablehlo.add"(%arg63, %arg64) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%335) : (tensor<f32>) -> ()
    }) : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %120 = "stablehlo.broadcast_in_dim"(%119) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %121 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %122 = "stablehlo.broadcast_in_dim"(%121) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %123 = "stablehlo.divide"(%120, %122) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %124 = "stablehlo.broadcast_in_dim"(%123) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %125 = "stablehlo.subtract"(%117, %124) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %126 = "chlo.square"(%125) : (tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %127 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %128 = "stablehlo.reduce"(%126, %127) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg61: tensor<f32>, %arg62: tensor<f32>):
      %334 = "stablehlo.add"(%arg61, %arg62) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%334) : (tensor<f32>) -> ()
    }) : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %129 = "stablehlo.broadcast_in_dim"(%128) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %130 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %131 = "stablehlo.broadcast_in_dim"(%130) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %132 = "stablehlo.divide"(%129, %131) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %133 = "stablehlo.broadcast_in_dim"(%123) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %134 = "stablehlo.subtract"(%117, %133) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %135 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %136 = "stablehlo.broadcast_in_dim"(%135) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %137 = "stablehlo.add"(%132, %136) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %138 = "stablehlo.rsqrt"(%137) : (tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %139 = "stablehlo.broadcast_in_dim"(%138) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %140 = "stablehlo.multiply"(%134, %139) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %141 = "stablehlo.broadcast_in_dim"(%arg14) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %142 = "stablehlo.broadcast_in_dim"(%141) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %143 = "stablehlo.multiply"(%140, %142) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %144 = "stablehlo.broadcast_in_dim"(%arg13) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %145 = "stablehlo.broadcast_in_dim"(%144) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %146 = "stablehlo.add"(%143, %145) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %147 = "stablehlo.dot_general"(%146, %arg9) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x17x32xf32>, tensor<32x128xf32>) -> tensor<2x17x128xf32>
    %148 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %149 = "stablehlo.broadcast_in_dim"(%148) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x128xf32>) -> tensor<2x17x128xf32>
    %150 = "stablehlo.add"(%147, %149) : (tensor<2x17x128xf32>, tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %151 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %152 = "stablehlo.broadcast_in_dim"(%151) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x128xf32>
    %153 = "stablehlo.multiply"(%152, %150) : (tensor<2x17x128xf32>, tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %154 = "stablehlo.negate"(%150) : (tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %155 = "stablehlo.constant"() <{value = dense<0.707106769> : tensor<f32>}> : () -> tensor<f32>
    %156 = "stablehlo.broadcast_in_dim"(%155) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x128xf32>
    %157 = "stablehlo.multiply"(%154, %156) : (tensor<2x17x128xf32>, tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %158 = "chlo.erfc"(%157) : (tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %159 = "stablehlo.multiply"(%153, %158) : (tensor<2x17x128xf32>, tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %160 = "stablehlo.dot_general"(%159, %arg15) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x17x128xf32>, tensor<128x32xf32>) -> tensor<2x17x32xf32>
    %161 = "stablehlo.add"(%117, %160) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %162 = "stablehlo.broadcast_in_dim"(%arg16) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %163 = "stablehlo.broadcast_in_dim"(%162) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %164 = "stablehlo.add"(%161, %163) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %165 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %166 = "stablehlo.reduce"(%164, %165) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg59: tensor<f32>, %arg60: tensor<f32>):
      %333 = "stablehlo.add"(%arg59, %arg60) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%333) : (tensor<f32>) -> ()
    }) : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %167 = "stablehlo.broadcast_in_dim"(%166) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %168 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %169 = "stablehlo.broadcast_in_dim"(%168) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %170 = "stablehlo.divide"(%167, %169) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %171 = "stablehlo.broadcast_in_dim"(%170) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %172 = "stablehlo.subtract"(%164, %171) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %173 = "chlo.square"(%172) : (tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %174 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %175 = "stablehlo.reduce"(%173, %174) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg57: tensor<f32>, %arg58: tensor<f32>):
      %332 = "stablehlo.add"(%arg57, %arg58) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%332) : (tensor<f32>) -> ()
    }) : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %176 = "stablehlo.broadcast_in_dim"(%175) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %177 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %178 = "stablehlo.broadcast_in_dim"(%177) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %179 = "stablehlo.divide"(%176, %178) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %180 = "stablehlo.broadcast_in_dim"(%170) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %181 = "stablehlo.subtract"(%164, %180) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %182 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %183 = "stablehlo.broadcast_in_dim"(%182) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %184 = "stablehlo.add"(%179, %183) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %185 = "stablehlo.rsqrt"(%184) : (tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %186 = "stablehlo.broadcast_in_dim"(%185) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %187 = "stablehlo.multiply"(%181, %186) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %188 = "stablehlo.broadcast_in_dim"(%arg24) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %189 = "stablehlo.broadcast_in_dim"(%188) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %190 = "stablehlo.multiply"(%187, %189) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %191 = "stablehlo.broadcast_in_dim"(%arg23) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %192 = "stablehlo.broadcast_in_dim"(%191) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %193 = "stablehlo.add"(%190, %192) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %194 = "stablehlo.dot_general"(%193, %arg31) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x17x32xf32>, tensor<32x96xf32>) -> tensor<2x17x96xf32>
    %195 = "stablehlo.broadcast_in_dim"(%arg32) <{broadcast_dimensions = array<i64: 2>}> : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %196 = "stablehlo.broadcast_in_dim"(%195) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x96xf32>) -> tensor<2x17x96xf32>
    %197 = "stablehlo.add"(%194, %196) : (tensor<2x17x96xf32>, tensor<2x17x96xf32>) -> tensor<2x17x96xf32>
    %198 = "stablehlo.slice"(%197) <{limit_indices = array<i64: 2, 17, 32>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %199 = "stablehlo.slice"(%197) <{limit_indices = array<i64: 2, 17, 64>, start_indices = array<i64: 0, 0, 32>, strides = array<i64: 1, 1, 1>}> : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %200 = "stablehlo.slice"(%197) <{limit_indices = array<i64: 2, 17, 96>, start_indices = array<i64: 0, 0, 64>, strides = array<i64: 1, 1, 1>}> : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %201 = "stablehlo.reshape"(%198) : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %202 = "stablehlo.transpose"(%201) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %203 = "stablehlo.reshape"(%199) : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %204 = "stablehlo.transpose"(%203) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %205 = "stablehlo.reshape"(%200) : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %206 = "stablehlo.transpose"(%205) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %207 = "stablehlo.dot_general"(%202, %204) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x17x8xf32>, tensor<2x4x17x8xf32>) -> tensor<2x4x17x17xf32>
    %208 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %209 = "stablehlo.sqrt"(%208) : (tensor<f32>) -> tensor<f32>
    %210 = "stablehlo.broadcast_in_dim"(%209) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x17x17xf32>
    %211 = "stablehlo.divide"(%207, %210) : (tensor<2x4x17x17xf32>, tensor<2x4x17x17xf32>) -> tensor<2x4x17x17xf32>
    %212 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %213 = "stablehlo.reduce"(%211, %212) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg55: tensor<f32>, %arg56: tensor<f32>):
      %331 = "stablehlo.maximum"(%arg55, %arg56) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%331) : (tensor<f32>) -> ()
    }) : (tensor<2x4x17x17xf32>, tensor<f32>) -> tensor<2x4x17xf32>
    %214 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %215 = "stablehlo.broadcast_in_dim"(%214) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x17xf32>
    %216 = "stablehlo.maximum"(%215, %213) : (tensor<2x4x17xf32>, tensor<2x4x17xf32>) -> tensor<2x4x17xf32>
    %217 = "stablehlo.broadcast_in_dim"(%216) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x17xf32>) -> tensor<2x4x17x1xf32>
    %218 = "stablehlo.broadcast_in_dim"(%217) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x17xf32>
    %219 = "stablehlo.subtract"(%211, %218) : (tensor<2x4x17x17xf32>, tensor<2x4x17x17xf32>) -> tensor<2x4x17x17xf32>
    %220 = "stablehlo.exponential"(%219) : (tensor<2x4x17x17xf32>) -> tensor<2x4x17x17xf32>
    %221 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %222 = "stablehlo.reduce"(%220, %221) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg53: tensor<f32>, %arg54: tensor<f32>):
      %330 = "stablehlo.add"(%arg53, %arg54) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%330) : (tensor<f32>) -> ()
    }) : (tensor<2x4x17x17xf32>, tensor<f32>) -> tensor<2x4x17xf32>
    %223 = "stablehlo.broadcast_in_dim"(%222) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x17xf32>) -> tensor<2x4x17x1xf32>
    %224 = "stablehlo.broadcast_in_dim"(%223) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x17xf32>
    %225 = "stablehlo.divide"(%220, %224) : (tensor<2x4x17x17xf32>, tensor<2x4x17x17xf32>) -> tensor<2x4x17x17xf32>
    %226 = "stablehlo.dot_general"(%225, %206) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x17x17xf32>, tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
    %227 = "stablehlo.transpose"(%226) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x17x8xf32>) -> tensor<2x17x4x8xf32>
    %228 = "stablehlo.reshape"(%227) : (tensor<2x17x4x8xf32>) -> tensor<2x17x32xf32>
    %229 = "stablehlo.dot_general"(%228, %arg29) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x17x32xf32>, tensor<32x32xf32>) -> tensor<2x17x32xf32>
    %230 = "stablehlo.add"(%164, %229) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %231 = "stablehlo.broadcast_in_dim"(%arg30) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %232 = "stablehlo.broadcast_in_dim"(%231) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %233 = "stablehlo.add"(%230, %232) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %234 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %235 = "stablehlo.reduce"(%233, %234) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg51: tensor<f32>, %arg52: tensor<f32>):
      %329 = "stablehlo.add"(%arg51, %arg52) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%329) : (tensor<f32>) -> ()
    }) : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %236 = "stablehlo.broadcast_in_dim"(%235) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %237 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %238 = "stablehlo.broadcast_in_dim"(%237) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %239 = "stablehlo.divide"(%236, %238) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %240 = "stablehlo.broadcast_in_dim"(%239) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %241 = "stablehlo.subtract"(%233, %240) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %242 = "chlo.square"(%241) : (tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %243 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %244 = "stablehlo.reduce"(%242, %243) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg49: tensor<f32>, %arg50: tensor<f32>):
      %328 = "stablehlo.add"(%arg49, %arg50) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%328) : (tensor<f32>) -> ()
    }) : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %245 = "stablehlo.broadcast_in_dim"(%244) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %246 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %247 = "stablehlo.broadcast_in_dim"(%246) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %248 = "stablehlo.divide"(%245, %247) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %249 = "stablehlo.broadcast_in_dim"(%239) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %250 = "stablehlo.subtract"(%233, %249) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %251 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %252 = "stablehlo.broadcast_in_dim"(%251) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x1xf32>
    %253 = "stablehlo.add"(%248, %252) : (tensor<2x17x1xf32>, tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %254 = "stablehlo.rsqrt"(%253) : (tensor<2x17x1xf32>) -> tensor<2x17x1xf32>
    %255 = "stablehlo.broadcast_in_dim"(%254) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %256 = "stablehlo.multiply"(%250, %255) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %257 = "stablehlo.broadcast_in_dim"(%arg26) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %258 = "stablehlo.broadcast_in_dim"(%257) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %259 = "stablehlo.multiply"(%256, %258) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %260 = "stablehlo.broadcast_in_dim"(%arg25) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %261 = "stablehlo.broadcast_in_dim"(%260) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %262 = "stablehlo.add"(%259, %261) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %263 = "stablehlo.dot_general"(%262, %arg21) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x17x32xf32>, tensor<32x128xf32>) -> tensor<2x17x128xf32>
    %264 = "stablehlo.broadcast_in_dim"(%arg22) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %265 = "stablehlo.broadcast_in_dim"(%264) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x128xf32>) -> tensor<2x17x128xf32>
    %266 = "stablehlo.add"(%263, %265) : (tensor<2x17x128xf32>, tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %267 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %268 = "stablehlo.broadcast_in_dim"(%267) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x128xf32>
    %269 = "stablehlo.multiply"(%268, %266) : (tensor<2x17x128xf32>, tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %270 = "stablehlo.negate"(%266) : (tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %271 = "stablehlo.constant"() <{value = dense<0.707106769> : tensor<f32>}> : () -> tensor<f32>
    %272 = "stablehlo.broadcast_in_dim"(%271) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x17x128xf32>
    %273 = "stablehlo.multiply"(%270, %272) : (tensor<2x17x128xf32>, tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %274 = "chlo.erfc"(%273) : (tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %275 = "stablehlo.multiply"(%269, %274) : (tensor<2x17x128xf32>, tensor<2x17x128xf32>) -> tensor<2x17x128xf32>
    %276 = "stablehlo.dot_general"(%275, %arg27) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x17x128xf32>, tensor<128x32xf32>) -> tensor<2x17x32xf32>
    %277 = "stablehlo.add"(%233, %276) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %278 = "stablehlo.broadcast_in_dim"(%arg28) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %279 = "stablehlo.broadcast_in_dim"(%278) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %280 = "stablehlo.add"(%277, %279) : (tensor<2x17x32xf32>, tensor<2x17x32xf32>) -> tensor<2x17x32xf32>
    %281 = "stablehlo.slice"(%280) <{limit_indices = array<i64: 2, 1, 32>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x17x32xf32>) -> tensor<2x1x32xf32>
    %282 = "stablehlo.reshape"(%281) : (tensor<2x1x32xf32>) -> tensor<2x32xf32>
    %283 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %284 = "stablehlo.reduce"(%282, %283) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg47: tensor<f32>, %arg48: tensor<f32>):
      %327 = "stablehlo.add"(%arg47, %arg48) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%327) : (tensor<f32>) -> ()
    }) : (tensor<2x32xf32>, tensor<f32>) -> tensor<2xf32>
    %285 = "stablehlo.broadcast_in_dim"(%284) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xf32>) -> tensor<2x1xf32>
    %286 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %287 = "stablehlo.broadcast_in_dim"(%286) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x1xf32>
    %288 = "stablehlo.divide"(%285, %287) : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
    %289 = "stablehlo.broadcast_in_dim"(%288) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x1xf32>) -> tensor<2x32xf32>
    %290 = "stablehlo.subtract"(%282, %289) : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32xf32>
    %291 = "chlo.square"(%290) : (tensor<2x32xf32>) -> tensor<2x32xf32>
    %292 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %293 = "stablehlo.reduce"(%291, %292) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg45: tensor<f32>, %arg46: tensor<f32>):
      %326 = "stablehlo.add"(%arg45, %arg46) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%326) : (tensor<f32>) -> ()
    }) : (tensor<2x32xf32>, tensor<f32>) -> tensor<2xf32>
    %294 = "stablehlo.broadcast_in_dim"(%293) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xf32>) -> tensor<2x1xf32>
    %295 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %296 = "stablehlo.broadcast_in_dim"(%295) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x1xf32>
    %297 = "stablehlo.divide"(%294, %296) : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
    %298 = "stablehlo.broadcast_in_dim"(%288) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x1xf32>) -> tensor<2x32xf32>
    %299 = "stablehlo.subtract"(%282, %298) : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32xf32>
    %300 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %301 = "stablehlo.broadcast_in_dim"(%300) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x1xf32>
    %302 = "stablehlo.add"(%297, %301) : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
    %303 = "stablehlo.rsqrt"(%302) : (tensor<2x1xf32>) -> tensor<2x1xf32>
    %304 = "stablehlo.broadcast_in_dim"(%303) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x1xf32>) -> tensor<2x32xf32>
    %305 = "stablehlo.multiply"(%299, %304) : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32xf32>
    %306 = "stablehlo.broadcast_in_dim"(%arg37) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %307 = "stablehlo.broadcast_in_dim"(%306) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<2x32xf32>
    %308 = "stablehlo.multiply"(%305, %307) : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32xf32>
    %309 = "stablehlo.broadcast_in_dim"(%arg36) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %310 = "stablehlo.broadcast_in_dim"(%309) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<2x32xf32>
    %311 = "stablehlo.add"(%308, %310) : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32xf32>
    %312 = "stablehlo.dot_general"(%311, %arg35) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x32xf32>, tensor<32x10xf32>) -> tensor<2x10xf32>
    %313 = "stablehlo.broadcast_in_dim"(%arg34) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xf32>) -> tensor<1x10xf32>
    %314 = "stablehlo.broadcast_in_dim"(%313) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x10xf32>) -> tensor<2x10xf32>
    %315 = "stablehlo.add"(%312, %314) : (tensor<2x10xf32>, tensor<2x10xf32>) -> tensor<2x10xf32>
    %316 = "func.call"(%315) <{callee = @log_softmax}> : (tensor<2x10xf32>) -> tensor<2x10xf32>
    %317 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xi32>) -> tensor<2x1xi32>
    %318 = "func.call"(%316, %317) <{callee = @take_along_axis}> : (tensor<2x10xf32>, tensor<2x1xi32>) -> tensor<2x1xf32>
    %319 = "stablehlo.reshape"(%318) : (tensor<2x1xf32>) -> tensor<2xf32>
    %320 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %321 = "stablehlo.reduce"(%319, %320) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg43: tensor<f32>, %arg44: tensor<f32>):
      %325 = "stablehlo.add"(%arg43, %arg44) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%325) : (tensor<f32>) -> ()
    }) : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %322 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %323 = "stablehlo.divide"(%321, %322) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %324 = "stablehlo.negate"(%323) : (tensor<f32>) -> tensor<f32>
    "func.return"(%324) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x10xf32>) -> tensor<2x10xf32>, res_attrs = [{}], sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<2x10xf32>):
    %23 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.reduce"(%arg4, %23) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %39 = "stablehlo.maximum"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%39) : (tensor<f32>) -> ()
    }) : (tensor<2x10xf32>, tensor<f32>) -> tensor<2xf32>
    %25 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %27 = "stablehlo.maximum"(%26, %24) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xf32>) -> tensor<2x1xf32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x1xf32>) -> tensor<2x10xf32>
    %30 = "stablehlo.subtract"(%arg4, %29) : (tensor<2x10xf32>, tensor<2x10xf32>) -> tensor<2x10xf32>
    %31 = "stablehlo.exponential"(%30) : (tensor<2x10xf32>) -> tensor<2x10xf32>
    %32 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.reduce"(%31, %32) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %38 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%38) : (tensor<f32>) -> ()
    }) : (tensor<2x10xf32>, tensor<f32>) -> tensor<2xf32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xf32>) -> tensor<2x1xf32>
    %35 = "stablehlo.log"(%34) : (tensor<2x1xf32>) -> tensor<2x1xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x1xf32>) -> tensor<2x10xf32>
    %37 = "stablehlo.subtract"(%30, %36) : (tensor<2x10xf32>, tensor<2x10xf32>) -> tensor<2x10xf32>
    "func.return"(%37) : (tensor<2x10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x10xf32>, tensor<2x1xi32>) -> tensor<2x1xf32>, res_attrs = [{}], sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x10xf32>, %arg1: tensor<2x1xi32>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x1xi32>
    %2 = "stablehlo.compare"(%arg1, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x1xi1>
    %3 = "stablehlo.constant"() <{value = dense<10> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x1xi32>
    %5 = "stablehlo.add"(%arg1, %4) : (tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x1xi32>
    %6 = "stablehlo.select"(%2, %5, %arg1) : (tensor<2x1xi1>, tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x1xi32>
    %7 = "stablehlo.reshape"(%6) : (tensor<2x1xi32>) -> tensor<2x1x1xi32>
    %8 = "stablehlo.constant"() <{value = dense<9> : tensor<1xi32>}> : () -> tensor<1xi32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x1x1xi32>
    %11 = "stablehlo.compare"(%7, %10) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<2x1x1xi32>, tensor<2x1x1xi32>) -> tensor<2x1x1xi1>
    %12 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 2>}> : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x1xi32>) -> tensor<2x1x1xi32>
    %14 = "stablehlo.compare"(%7, %13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x1x1xi32>, tensor<2x1x1xi32>) -> tensor<2x1x1xi1>
    %15 = "stablehlo.and"(%11, %14) : (tensor<2x1x1xi1>, tensor<2x1x1xi1>) -> tensor<2x1x1xi1>
    %16 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %17 = "stablehlo.reduce"(%15, %16) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg2: tensor<i1>, %arg3: tensor<i1>):
      %22 = "stablehlo.and"(%arg2, %arg3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%22) : (tensor<i1>) -> ()
    }) : (tensor<2x1x1xi1>, tensor<i1>) -> tensor<2x1xi1>
    %18 = "stablehlo.gather"(%arg0, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<2x10xf32>, tensor<2x1x1xi32>) -> tensor<2x1xf32>
    %19 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x1xf32>
    %21 = "stablehlo.select"(%17, %18, %20) : (tensor<2x1xi1>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
    "func.return"(%21) : (tensor<2x1xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

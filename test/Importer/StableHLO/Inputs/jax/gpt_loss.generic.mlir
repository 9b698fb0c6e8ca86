"builtin.module"() <{sym_name = "jit_loss"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}], function_type = (tensor<32x128xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x96xf32>, tensor<96xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x96xf32>, tensor<96xf32>, tensor<32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<64x32xf32>, tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg12: tensor<32x128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<32xf32>, %arg17: tensor<32xf32>, %arg18: tensor<128x32xf32>, %arg19: tensor<32xf32>, %arg20: tensor<32x32xf32>, %arg21: tensor<32xf32>, %arg22: tensor<32x96xf32>, %arg23: tensor<96xf32>, %arg24: tensor<32x128xf32>, %arg25: tensor<128xf32>, %arg26: tensor<32xf32>, %arg27: tensor<32xf32>, %arg28: tensor<32xf32>, %arg29: tensor<32xf32>, %arg30: tensor<128x32xf32>, %arg31: tensor<32xf32>, %arg32: tensor<32x32xf32>, %arg33: tensor<32xf32>, %arg34: tensor<32x96xf32>, %arg35: tensor<96xf32>, %arg36: tensor<32xf32>, %arg37: tensor<32xf32>, %arg38: tensor<16x32xf32>, %arg39: tensor<64x32xf32>, %arg40: tensor<2x16xi32>, %arg41: tensor<2x16xi32>):
    %43 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16xi32>
    %45 = "stablehlo.compare"(%arg40, %44) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi1>
    %46 = "stablehlo.constant"() <{value = dense<64> : tensor<i32>}> : () -> tensor<i32>
    %47 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16xi32>
    %48 = "stablehlo.add"(%arg40, %47) : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi32>
    %49 = "stablehlo.select"(%45, %48, %arg40) : (tensor<2x16xi1>, tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi32>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %51 = "stablehlo.gather"(%arg39, %50) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<2x16x1xi32>) -> tensor<2x16x32xf32>
    %52 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %53 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x16x32xf32>) -> tensor<2x16x32xf32>
    %54 = "stablehlo.add"(%51, %53) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %55 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %56 = "stablehlo.reduce"(%54, %55) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg70: tensor<f32>, %arg71: tensor<f32>):
      %375 = "stablehlo.add"(%arg70, %arg71) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%375) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %58 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %59 = "stablehlo.broadcast_in_dim"(%58) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %60 = "stablehlo.divide"(%57, %59) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %62 = "stablehlo.subtract"(%54, %61) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %63 = "chlo.square"(%62) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %64 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %65 = "stablehlo.reduce"(%63, %64) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg68: tensor<f32>, %arg69: tensor<f32>):
      %374 = "stablehlo.add"(%arg68, %arg69) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%374) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %66 = "stablehlo.broadcast_in_dim"(%65) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %67 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %68 = "stablehlo.broadcast_in_dim"(%67) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %69 = "stablehlo.divide"(%66, %68) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %70 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %71 = "stablehlo.subtract"(%54, %70) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %72 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %73 = "stablehlo.broadcast_in_dim"(%72) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %74 = "stablehlo.add"(%69, %73) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %75 = "stablehlo.rsqrt"(%74) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %76 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %77 = "stablehlo.multiply"(%71, %76) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %78 = "stablehlo.broadcast_in_dim"(%arg15) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %79 = "stablehlo.broadcast_in_dim"(%78) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %80 = "stablehlo.multiply"(%77, %79) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %81 = "stablehlo.broadcast_in_dim"(%arg14) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %82 = "stablehlo.broadcast_in_dim"(%81) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %83 = "stablehlo.add"(%80, %82) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %84 = "stablehlo.dot_general"(%83, %arg22) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x96xf32>) -> tensor<2x16x96xf32>
    %85 = "stablehlo.broadcast_in_dim"(%arg23) <{broadcast_dimensions = array<i64: 2>}> : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %86 = "stablehlo.broadcast_in_dim"(%85) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x96xf32>) -> tensor<2x16x96xf32>
    %87 = "stablehlo.add"(%84, %86) : (tensor<2x16x96xf32>, tensor<2x16x96xf32>) -> tensor<2x16x96xf32>
    %88 = "stablehlo.slice"(%87) <{limit_indices = array<i64: 2, 16, 32>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %89 = "stablehlo.slice"(%87) <{limit_indices = array<i64: 2, 16, 64>, start_indices = array<i64: 0, 0, 32>, strides = array<i64: 1, 1, 1>}> : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %90 = "stablehlo.slice"(%87) <{limit_indices = array<i64: 2, 16, 96>, start_indices = array<i64: 0, 0, 64>, strides = array<i64: 1, 1, 1>}> : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %91 = "stablehlo.reshape"(%88) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %92 = "stablehlo.transpose"(%91) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %93 = "stablehlo.reshape"(%89) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %94 = "stablehlo.transpose"(%93) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %95 = "stablehlo.reshape"(%90) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %96 = "stablehlo.transpose"(%95) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %97 = "stablehlo.dot_general"(%92, %94) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %98 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %99 = "stablehlo.sqrt"(%98) : (tensor<f32>) -> tensor<f32>
    %100 = "stablehlo.broadcast_in_dim"(%99) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %101 = "stablehlo.divide"(%97, %100) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %102 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %103 = "stablehlo.broadcast_in_dim"(%102) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %104 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %105 = "stablehlo.broadcast_in_dim"(%104) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xi32>) -> tensor<1x16xi32>
    %106 = "stablehlo.broadcast_in_dim"(%103) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %107 = "stablehlo.broadcast_in_dim"(%105) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %108 = "stablehlo.compare"(%106, %107) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %109 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %110 = "func.call"(%108, %101, %109) <{callee = @_where}> : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %111 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %112 = "stablehlo.reduce"(%110, %111) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg66: tensor<f32>, %arg67: tensor<f32>):
      %373 = "stablehlo.maximum"(%arg66, %arg67) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%373) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %113 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %114 = "stablehlo.broadcast_in_dim"(%113) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %115 = "stablehlo.maximum"(%114, %112) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %116 = "stablehlo.broadcast_in_dim"(%115) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %117 = "stablehlo.broadcast_in_dim"(%116) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %118 = "stablehlo.subtract"(%110, %117) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %119 = "stablehlo.exponential"(%118) : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %120 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %121 = "stablehlo.reduce"(%119, %120) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg64: tensor<f32>, %arg65: tensor<f32>):
      %372 = "stablehlo.add"(%arg64, %arg65) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%372) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %122 = "stablehlo.broadcast_in_dim"(%121) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %123 = "stablehlo.broadcast_in_dim"(%122) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %124 = "stablehlo.divide"(%119, %123) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %125 = "stablehlo.dot_general"(%124, %96) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %126 = "stablehlo.transpose"(%125) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %127 = "stablehlo.reshape"(%126) : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %128 = "stablehlo.dot_general"(%127, %arg20) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %129 = "stablehlo.add"(%54, %128) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %130 = "stablehlo.broadcast_in_dim"(%arg21) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %131 = "stablehlo.broadcast_in_dim"(%130) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %132 = "stablehlo.add"(%129, %131) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %133 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %134 = "stablehlo.reduce"(%132, %133) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg62: tensor<f32>, %arg63: tensor<f32>):
      %371 = "stablehlo.add"(%arg62, %arg63) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%371) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %135 = "stablehlo.broadcast_in_dim"(%134) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %136 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %137 = "stablehlo.broadcast_in_dim"(%136) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %138 = "stablehlo.divide"(%135, %137) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %139 = "stablehlo.broadcast_in_dim"(%138) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %140 = "stablehlo.subtract"(%132, %139) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %141 = "chlo.square"(%140) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %142 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %143 = "stablehlo.reduce"(%141, %142) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg60: tensor<f32>, %arg61: tensor<f32>):
      %370 = "stablehlo.add"(%arg60, %arg61) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%370) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %144 = "stablehlo.broadcast_in_dim"(%143) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %145 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %146 = "stablehlo.broadcast_in_dim"(%145) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %147 = "stablehlo.divide"(%144, %146) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %148 = "stablehlo.broadcast_in_dim"(%138) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %149 = "stablehlo.subtract"(%132, %148) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %150 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %151 = "stablehlo.broadcast_in_dim"(%150) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %152 = "stablehlo.add"(%147, %151) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %153 = "stablehlo.rsqrt"(%152) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %154 = "stablehlo.broadcast_in_dim"(%153) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %155 = "stablehlo.multiply"(%149, %154) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %156 = "stablehlo.broadcast_in_dim"(%arg17) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %157 = "stablehlo.broadcast_in_dim"(%156) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %158 = "stablehlo.multiply"(%155, %157) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %159 = "stablehlo.broadcast_in_dim"(%arg16) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %160 = "stablehlo.broadcast_in_dim"(%159) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %161 = "stablehlo.add"(%158, %160) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %162 = "stablehlo.dot_general"(%161, %arg12) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x128xf32>) -> tensor<2x16x128xf32>
    %163 = "stablehlo.broadcast_in_dim"(%arg13) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %164 = "stablehlo.broadcast_in_dim"(%163) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x128xf32>) -> tensor<2x16x128xf32>
    %165 = "stablehlo.add"(%162, %164) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %166 = "stablehlo.multiply"(%165, %165) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %167 = "stablehlo.multiply"(%166, %165) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %168 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %169 = "stablehlo.broadcast_in_dim"(%168) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %170 = "stablehlo.multiply"(%169, %167) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %171 = "stablehlo.add"(%165, %170) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %172 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %173 = "stablehlo.broadcast_in_dim"(%172) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %174 = "stablehlo.multiply"(%173, %171) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %175 = "stablehlo.tanh"(%174) : (tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %176 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %177 = "stablehlo.broadcast_in_dim"(%176) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %178 = "stablehlo.add"(%177, %175) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %179 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %180 = "stablehlo.broadcast_in_dim"(%179) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %181 = "stablehlo.multiply"(%180, %178) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %182 = "stablehlo.multiply"(%165, %181) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %183 = "stablehlo.dot_general"(%182, %arg18) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x128xf32>, tensor<128x32xf32>) -> tensor<2x16x32xf32>
    %184 = "stablehlo.add"(%132, %183) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %185 = "stablehlo.broadcast_in_dim"(%arg19) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %186 = "stablehlo.broadcast_in_dim"(%185) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %187 = "stablehlo.add"(%184, %186) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %188 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %189 = "stablehlo.reduce"(%187, %188) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg58: tensor<f32>, %arg59: tensor<f32>):
      %369 = "stablehlo.add"(%arg58, %arg59) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%369) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %190 = "stablehlo.broadcast_in_dim"(%189) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %191 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %192 = "stablehlo.broadcast_in_dim"(%191) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %193 = "stablehlo.divide"(%190, %192) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %194 = "stablehlo.broadcast_in_dim"(%193) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %195 = "stablehlo.subtract"(%187, %194) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %196 = "chlo.square"(%195) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %197 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %198 = "stablehlo.reduce"(%196, %197) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg56: tensor<f32>, %arg57: tensor<f32>):
      %368 = "stablehlo.add"(%arg56, %arg57) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%368) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %199 = "stablehlo.broadcast_in_dim"(%198) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %200 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %201 = "stablehlo.broadcast_in_dim"(%200) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %202 = "stablehlo.divide"(%199, %201) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %203 = "stablehlo.broadcast_in_dim"(%193) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %204 = "stablehlo.subtract"(%187, %203) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %205 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %206 = "stablehlo.broadcast_in_dim"(%205) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %207 = "stablehlo.add"(%202, %206) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %208 = "stablehlo.rsqrt"(%207) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %209 = "stablehlo.broadcast_in_dim"(%208) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %210 = "stablehlo.multiply"(%204, %209) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %211 = "stablehlo.broadcast_in_dim"(%arg27) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %212 = "stablehlo.broadcast_in_dim"(%211) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %213 = "stablehlo.multiply"(%210, %212) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %214 = "stablehlo.broadcast_in_dim"(%arg26) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %215 = "stablehlo.broadcast_in_dim"(%214) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %216 = "stablehlo.add"(%213, %215) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %217 = "stablehlo.dot_general"(%216, %arg34) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x96xf32>) -> tensor<2x16x96xf32>
    %218 = "stablehlo.broadcast_in_dim"(%arg35) <{broadcast_dimensions = array<i64: 2>}> : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %219 = "stablehlo.broadcast_in_dim"(%218) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x96xf32>) -> tensor<2x16x96xf32>
    %220 = "stablehlo.add"(%217, %219) : (tensor<2x16x96xf32>, tensor<2x16x96xf32>) -> tensor<2x16x96xf32>
    %221 = "stablehlo.slice"(%220) <{limit_indices = array<i64: 2, 16, 32>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %222 = "stablehlo.slice"(%220) <{limit_indices = array<i64: 2, 16, 64>, start_indices = array<i64: 0, 0, 32>, strides = array<i64: 1, 1, 1>}> : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %223 = "stablehlo.slice"(%220) <{limit_indices = array<i64: 2, 16, 96>, start_indices = array<i64: 0, 0, 64>, strides = array<i64: 1, 1, 1>}> : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %224 = "stablehlo.reshape"(%221) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %225 = "stablehlo.transpose"(%224) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %226 = "stablehlo.reshape"(%222) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %227 = "stablehlo.transpose"(%226) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %228 = "stablehlo.reshape"(%223) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %229 = "stablehlo.transpose"(%228) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %230 = "stablehlo.dot_general"(%225, %227) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %231 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %232 = "stablehlo.sqrt"(%231) : (tensor<f32>) -> tensor<f32>
    %233 = "stablehlo.broadcast_in_dim"(%232) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %234 = "stablehlo.divide"(%230, %233) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %235 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %236 = "stablehlo.broadcast_in_dim"(%235) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %237 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %238 = "stablehlo.broadcast_in_dim"(%237) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xi32>) -> tensor<1x16xi32>
    %239 = "stablehlo.broadcast_in_dim"(%236) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %240 = "stablehlo.broadcast_in_dim"(%238) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %241 = "stablehlo.compare"(%239, %240) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %242 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %243 = "func.call"(%241, %234, %242) <{callee = @_where}> : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %244 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %245 = "stablehlo.reduce"(%243, %244) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg54: tensor<f32>, %arg55: tensor<f32>):
      %367 = "stablehlo.maximum"(%arg54, %arg55) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%367) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %246 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %247 = "stablehlo.broadcast_in_dim"(%246) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %248 = "stablehlo.maximum"(%247, %245) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %249 = "stablehlo.broadcast_in_dim"(%248) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %250 = "stablehlo.broadcast_in_dim"(%249) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %251 = "stablehlo.subtract"(%243, %250) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %252 = "stablehlo.exponential"(%251) : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %253 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %254 = "stablehlo.reduce"(%252, %253) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg52: tensor<f32>, %arg53: tensor<f32>):
      %366 = "stablehlo.add"(%arg52, %arg53) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%366) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %255 = "stablehlo.broadcast_in_dim"(%254) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %256 = "stablehlo.broadcast_in_dim"(%255) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %257 = "stablehlo.divide"(%252, %256) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %258 = "stablehlo.dot_general"(%257, %229) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %259 = "stablehlo.transpose"(%258) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %260 = "stablehlo.reshape"(%259) : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %261 = "stablehlo.dot_general"(%260, %arg32) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %262 = "stablehlo.add"(%187, %261) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %263 = "stablehlo.broadcast_in_dim"(%arg33) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %264 = "stablehlo.broadcast_in_dim"(%263) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %265 = "stablehlo.add"(%262, %264) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %266 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %267 = "stablehlo.reduce"(%265, %266) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg50: tensor<f32>, %arg51: tensor<f32>):
      %365 = "stablehlo.add"(%arg50, %arg51) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%365) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %268 = "stablehlo.broadcast_in_dim"(%267) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %269 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %270 = "stablehlo.broadcast_in_dim"(%269) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %271 = "stablehlo.divide"(%268, %270) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %272 = "stablehlo.broadcast_in_dim"(%271) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %273 = "stablehlo.subtract"(%265, %272) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %274 = "chlo.square"(%273) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %275 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %276 = "stablehlo.reduce"(%274, %275) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg48: tensor<f32>, %arg49: tensor<f32>):
      %364 = "stablehlo.add"(%arg48, %arg49) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%364) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %277 = "stablehlo.broadcast_in_dim"(%276) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %278 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %279 = "stablehlo.broadcast_in_dim"(%278) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %280 = "stablehlo.divide"(%277, %279) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %281 = "stablehlo.broadcast_in_dim"(%271) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %282 = "stablehlo.subtract"(%265, %281) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %283 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %284 = "stablehlo.broadcast_in_dim"(%283) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %285 = "stablehlo.add"(%280, %284) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %286 = "stablehlo.rsqrt"(%285) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %287 = "stablehlo.broadcast_in_dim"(%286) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %288 = "stablehlo.multiply"(%282, %287) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %289 = "stablehlo.broadcast_in_dim"(%arg29) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %290 = "stablehlo.broadcast_in_dim"(%289) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %291 = "stablehlo.multiply"(%288, %290) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %292 = "stablehlo.broadcast_in_dim"(%arg28) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %293 = "stablehlo.broadcast_in_dim"(%292) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %294 = "stablehlo.add"(%291, %293) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %295 = "stablehlo.dot_general"(%294, %arg24) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x128xf32>) -> tensor<2x16x128xf32>
    %296 = "stablehlo.broadcast_in_dim"(%arg25) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %297 = "stablehlo.broadcast_in_dim"(%296) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x128xf32>) -> tensor<2x16x128xf32>
    %298 = "stablehlo.add"(%295, %297) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %299 = "stablehlo.multiply"(%298, %298) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %300 = "stablehlo.multiply"(%299, %298) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %301 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %302 = "stablehlo.broadcast_in_dim"(%301) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %303 = "stablehlo.multiply"(%302, %300) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %304 = "stablehlo.add"(%298, %303) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %305 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %306 = "stablehlo.broadcast_in_dim"(%305) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %307 = "stablehlo.multiply"(%306, %304) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %308 = "stablehlo.tanh"(%307) : (tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %309 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %310 = "stablehlo.broadcast_in_dim"(%309) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %311 = "stablehlo.add"(%310, %308) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %312 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %313 = "stablehlo.broadcast_in_dim"(%312) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %314 = "stablehlo.multiply"(%313, %311) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %315 = "stablehlo.multiply"(%298, %314) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %316 = "stablehlo.dot_general"(%315, %arg30) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x128xf32>, tensor<128x32xf32>) -> tensor<2x16x32xf32>
    %317 = "stablehlo.add"(%265, %316) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %318 = "stablehlo.broadcast_in_dim"(%arg31) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %319 = "stablehlo.broadcast_in_dim"(%318) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %320 = "stablehlo.add"(%317, %319) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %321 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %322 = "stablehlo.reduce"(%320, %321) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg46: tensor<f32>, %arg47: tensor<f32>):
      %363 = "stablehlo.add"(%arg46, %arg47) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%363) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %323 = "stablehlo.broadcast_in_dim"(%322) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %324 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %325 = "stablehlo.broadcast_in_dim"(%324) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %326 = "stablehlo.divide"(%323, %325) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %327 = "stablehlo.broadcast_in_dim"(%326) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %328 = "stablehlo.subtract"(%320, %327) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %329 = "chlo.square"(%328) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %330 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %331 = "stablehlo.reduce"(%329, %330) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg44: tensor<f32>, %arg45: tensor<f32>):
      %362 = "stablehlo.add"(%arg44, %arg45) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%362) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %332 = "stablehlo.broadcast_in_dim"(%331) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %333 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %334 = "stablehlo.broadcast_in_dim"(%333) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %335 = "stablehlo.divide"(%332, %334) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %336 = "stablehlo.broadcast_in_dim"(%326) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %337 = "stablehlo.subtract"(%320, %336) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %338 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %339 = "stablehlo.broadcast_in_dim"(%338) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %340 = "stablehlo.add"(%335, %339) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %341 = "stablehlo.rsqrt"(%340) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %342 = "stablehlo.broadcast_in_dim"(%341) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %343 = "stablehlo.multiply"(%337, %342) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %344 = "stablehlo.broadcast_in_dim"(%arg37) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %345 = "stablehlo.broadcast_in_dim"(%344) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %346 = "stablehlo.multiply"(%343, %345) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %347 = "stablehlo.broadcast_in_dim"(%arg36) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %348 = "stablehlo.broadcast_in_dim"(%347) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %349 = "stablehlo.add"(%346, %348) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %350 = "stablehlo.transpose"(%arg39) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %351 = "stablehlo.dot_general"(%349, %350) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %352 = "func.call"(%351) <{callee = @log_softmax}> : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %353 = "stablehlo.broadcast_in_dim"(%arg41) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %354 = "func.call"(%352, %353) <{callee = @take_along_axis}> : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> tensor<2x16x1xf32>
    %355 = "stablehlo.reshape"(%354) : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %356 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %357 = "stablehlo.reduce"(%355, %356) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg42: tensor<f32>, %arg43: tensor<f32>):
      %361 = "stablehlo.add"(%arg42, %arg43) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%361) : (tensor<f32>) -> ()
    }) : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %358 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %359 = "stablehlo.divide"(%357, %358) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %360 = "stablehlo.negate"(%359) : (tensor<f32>) -> tensor<f32>
    "func.return"(%360) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg9: tensor<16x16xi1>, %arg10: tensor<2x4x16x16xf32>, %arg11: tensor<f32>):
    %40 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x16xi1>) -> tensor<2x4x16x16xi1>
    %41 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %42 = "stablehlo.select"(%40, %arg10, %41) : (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    "func.return"(%42) : (tensor<2x4x16x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>, res_attrs = [{}], sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<2x16x64xf32>):
    %23 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.reduce"(%arg4, %23) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %39 = "stablehlo.maximum"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%39) : (tensor<f32>) -> ()
    }) : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %25 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16xf32>
    %27 = "stablehlo.maximum"(%26, %24) : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %30 = "stablehlo.subtract"(%arg4, %29) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %31 = "stablehlo.exponential"(%30) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %32 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.reduce"(%31, %32) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %38 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%38) : (tensor<f32>) -> ()
    }) : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %35 = "stablehlo.log"(%34) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %37 = "stablehlo.subtract"(%30, %36) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    "func.return"(%37) : (tensor<2x16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> tensor<2x16x1xf32>, res_attrs = [{}], sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x16x64xf32>, %arg1: tensor<2x16x1xi32>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16x1xi32>
    %2 = "stablehlo.compare"(%arg1, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x16x1xi32>, tensor<2x16x1xi32>) -> tensor<2x16x1xi1>
    %3 = "stablehlo.constant"() <{value = dense<64> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16x1xi32>
    %5 = "stablehlo.add"(%arg1, %4) : (tensor<2x16x1xi32>, tensor<2x16x1xi32>) -> tensor<2x16x1xi32>
    %6 = "stablehlo.select"(%2, %5, %arg1) : (tensor<2x16x1xi1>, tensor<2x16x1xi32>, tensor<2x16x1xi32>) -> tensor<2x16x1xi32>
    %7 = "stablehlo.reshape"(%6) : (tensor<2x16x1xi32>) -> tensor<2x16x1x1xi32>
    %8 = "stablehlo.constant"() <{value = dense<63> : tensor<1xi32>}> : () -> tensor<1xi32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16x1x1xi32>
    %11 = "stablehlo.compare"(%7, %10) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<2x16x1x1xi32>, tensor<2x16x1x1xi32>) -> tensor<2x16x1x1xi1>
    %12 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 3>}> : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x1xi32>) -> tensor<2x16x1x1xi32>
    %14 = "stablehlo.compare"(%7, %13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x16x1x1xi32>, tensor<2x16x1x1xi32>) -> tensor<2x16x1x1xi1>
    %15 = "stablehlo.and"(%11, %14) : (tensor<2x16x1x1xi1>, tensor<2x16x1x1xi1>) -> tensor<2x16x1x1xi1>
    %16 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %17 = "stablehlo.reduce"(%15, %16) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg2: tensor<i1>, %arg3: tensor<i1>):
      %22 = "stablehlo.and"(%arg2, %arg3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%22) : (tensor<i1>) -> ()
    }) : (tensor<2x16x1x1xi1>, tensor<i1>) -> tensor<2x16x1xi1>
    %18 = "stablehlo.gather"(%arg0, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<2x16x64xf32>, tensor<2x16x1x1xi32>) -> tensor<2x16x1xf32>
    %19 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %21 = "stablehlo.select"(%17, %18, %20) : (tensor<2x16x1xi1>, tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    "func.return"(%21) : (tensor<2x16x1xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

"builtin.module"() <{sym_name = "jit_loss"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}], function_type = (tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg13: tensor<64x32xf32>, %arg14: tensor<32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<64x32xf32>, %arg17: tensor<32x64xf32>, %arg18: tensor<32x64xf32>, %arg19: tensor<32x16xf32>, %arg20: tensor<32x32xf32>, %arg21: tensor<32x32xf32>, %arg22: tensor<32x16xf32>, %arg23: tensor<32xf32>, %arg24: tensor<32xf32>, %arg25: tensor<64x32xf32>, %arg26: tensor<32x64xf32>, %arg27: tensor<32x64xf32>, %arg28: tensor<32x16xf32>, %arg29: tensor<32x32xf32>, %arg30: tensor<32x32xf32>, %arg31: tensor<32x16xf32>, %arg32: tensor<32x64xf32>, %arg33: tensor<32xf32>, %arg34: tensor<2x16xi32>, %arg35: tensor<2x16xi32>):
    %52 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %53 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16xi32>
    %54 = "stablehlo.compare"(%arg34, %53) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi1>
    %55 = "stablehlo.constant"() <{value = dense<64> : tensor<i32>}> : () -> tensor<i32>
    %56 = "stablehlo.broadcast_in_dim"(%55) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16xi32>
    %57 = "stablehlo.add"(%arg34, %56) : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi32>
    %58 = "stablehlo.select"(%54, %57, %arg34) : (tensor<2x16xi1>, tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi32>
    %59 = "stablehlo.broadcast_in_dim"(%58) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %60 = "stablehlo.gather"(%arg13, %59) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<2x16x1xi32>) -> tensor<2x16x32xf32>
    %61 = "chlo.square"(%60) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %62 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %63 = "stablehlo.reduce"(%61, %62) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg54: tensor<f32>, %arg55: tensor<f32>):
      %412 = "stablehlo.add"(%arg54, %arg55) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%412) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %64 = "stablehlo.broadcast_in_dim"(%63) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %65 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %66 = "stablehlo.broadcast_in_dim"(%65) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %67 = "stablehlo.divide"(%64, %66) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %68 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %69 = "stablehlo.broadcast_in_dim"(%68) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %70 = "stablehlo.add"(%67, %69) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %71 = "stablehlo.rsqrt"(%70) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %72 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %73 = "stablehlo.multiply"(%60, %72) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %74 = "stablehlo.broadcast_in_dim"(%arg14) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %75 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %76 = "stablehlo.multiply"(%73, %75) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %77 = "stablehlo.dot_general"(%76, %arg21) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %78 = "stablehlo.reshape"(%77) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %79 = "stablehlo.transpose"(%78) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %80 = "stablehlo.dot_general"(%76, %arg19) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %81 = "stablehlo.reshape"(%80) : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %82 = "stablehlo.transpose"(%81) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %83 = "stablehlo.dot_general"(%76, %arg22) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %84 = "stablehlo.reshape"(%83) : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %85 = "stablehlo.transpose"(%84) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %86 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xf32>
    %87 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %88 = "stablehlo.broadcast_in_dim"(%87) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %89 = "stablehlo.multiply"(%88, %86) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %90 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %91 = "stablehlo.broadcast_in_dim"(%90) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %92 = "stablehlo.add"(%91, %89) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %93 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %94 = "stablehlo.broadcast_in_dim"(%93) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %95 = "stablehlo.divide"(%92, %94) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %96 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %97 = "stablehlo.broadcast_in_dim"(%96) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %98 = "stablehlo.power"(%97, %95) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %99 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %100 = "stablehlo.broadcast_in_dim"(%99) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %101 = "stablehlo.divide"(%100, %98) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %102 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xf32>
    %103 = "stablehlo.broadcast_in_dim"(%102) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %104 = "stablehlo.broadcast_in_dim"(%101) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %105 = "stablehlo.broadcast_in_dim"(%103) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %106 = "stablehlo.broadcast_in_dim"(%104) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %107 = "stablehlo.multiply"(%105, %106) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %108 = "stablehlo.cosine"(%107) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %109 = "stablehlo.concatenate"(%108, %108) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %110 = "stablehlo.sine"(%107) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %111 = "stablehlo.concatenate"(%110, %110) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %112 = "stablehlo.slice"(%79) <{limit_indices = array<i64: 2, 4, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %113 = "stablehlo.slice"(%79) <{limit_indices = array<i64: 2, 4, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %114 = "stablehlo.broadcast_in_dim"(%109) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %115 = "stablehlo.broadcast_in_dim"(%114) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %116 = "stablehlo.multiply"(%79, %115) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %117 = "stablehlo.negate"(%113) : (tensor<2x4x16x4xf32>) -> tensor<2x4x16x4xf32>
    %118 = "stablehlo.concatenate"(%117, %112) <{dimension = 3 : i64}> : (tensor<2x4x16x4xf32>, tensor<2x4x16x4xf32>) -> tensor<2x4x16x8xf32>
    %119 = "stablehlo.broadcast_in_dim"(%111) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %120 = "stablehlo.broadcast_in_dim"(%119) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %121 = "stablehlo.multiply"(%118, %120) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %122 = "stablehlo.add"(%116, %121) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %123 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xf32>
    %124 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %125 = "stablehlo.broadcast_in_dim"(%124) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %126 = "stablehlo.multiply"(%125, %123) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %127 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %128 = "stablehlo.broadcast_in_dim"(%127) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %129 = "stablehlo.add"(%128, %126) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %130 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %131 = "stablehlo.broadcast_in_dim"(%130) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %132 = "stablehlo.divide"(%129, %131) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %133 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %134 = "stablehlo.broadcast_in_dim"(%133) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %135 = "stablehlo.power"(%134, %132) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %136 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %137 = "stablehlo.broadcast_in_dim"(%136) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %138 = "stablehlo.divide"(%137, %135) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %139 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xf32>
    %140 = "stablehlo.broadcast_in_dim"(%139) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %141 = "stablehlo.broadcast_in_dim"(%138) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %142 = "stablehlo.broadcast_in_dim"(%140) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %143 = "stablehlo.broadcast_in_dim"(%141) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %144 = "stablehlo.multiply"(%142, %143) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %145 = "stablehlo.cosine"(%144) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %146 = "stablehlo.concatenate"(%145, %145) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %147 = "stablehlo.sine"(%144) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %148 = "stablehlo.concatenate"(%147, %147) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %149 = "stablehlo.slice"(%82) <{limit_indices = array<i64: 2, 2, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %150 = "stablehlo.slice"(%82) <{limit_indices = array<i64: 2, 2, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %151 = "stablehlo.broadcast_in_dim"(%146) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %152 = "stablehlo.broadcast_in_dim"(%151) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %153 = "stablehlo.multiply"(%82, %152) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %154 = "stablehlo.negate"(%150) : (tensor<2x2x16x4xf32>) -> tensor<2x2x16x4xf32>
    %155 = "stablehlo.concatenate"(%154, %149) <{dimension = 3 : i64}> : (tensor<2x2x16x4xf32>, tensor<2x2x16x4xf32>) -> tensor<2x2x16x8xf32>
    %156 = "stablehlo.broadcast_in_dim"(%148) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %157 = "stablehlo.broadcast_in_dim"(%156) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %158 = "stablehlo.multiply"(%155, %157) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %159 = "stablehlo.add"(%153, %158) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %160 = "stablehlo.broadcast_in_dim"(%159) <{broadcast_dimensions = array<i64: 0, 1, 3, 4>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %161 = "stablehlo.reshape"(%160) : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %162 = "stablehlo.broadcast_in_dim"(%85) <{broadcast_dimensions = array<i64: 0, 1, 3, 4>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %163 = "stablehlo.reshape"(%162) : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %164 = "stablehlo.dot_general"(%122, %161) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %165 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %166 = "stablehlo.sqrt"(%165) : (tensor<f32>) -> tensor<f32>
    %167 = "stablehlo.broadcast_in_dim"(%166) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %168 = "stablehlo.divide"(%164, %167) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %169 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %170 = "stablehlo.broadcast_in_dim"(%169) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %171 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %172 = "stablehlo.broadcast_in_dim"(%171) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xi32>) -> tensor<1x16xi32>
    %173 = "stablehlo.broadcast_in_dim"(%170) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %174 = "stablehlo.broadcast_in_dim"(%172) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %175 = "stablehlo.compare"(%173, %174) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %176 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %177 = "func.call"(%175, %168, %176) <{callee = @_where}> : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %178 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %179 = "stablehlo.reduce"(%177, %178) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg52: tensor<f32>, %arg53: tensor<f32>):
      %411 = "stablehlo.maximum"(%arg52, %arg53) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%411) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %180 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %181 = "stablehlo.broadcast_in_dim"(%180) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %182 = "stablehlo.maximum"(%181, %179) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %183 = "stablehlo.broadcast_in_dim"(%182) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %184 = "stablehlo.broadcast_in_dim"(%183) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %185 = "stablehlo.subtract"(%177, %184) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %186 = "stablehlo.exponential"(%185) : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %187 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %188 = "stablehlo.reduce"(%186, %187) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg50: tensor<f32>, %arg51: tensor<f32>):
      %410 = "stablehlo.add"(%arg50, %arg51) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%410) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %189 = "stablehlo.broadcast_in_dim"(%188) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %190 = "stablehlo.broadcast_in_dim"(%189) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %191 = "stablehlo.divide"(%186, %190) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %192 = "stablehlo.dot_general"(%191, %163) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %193 = "stablehlo.transpose"(%192) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %194 = "stablehlo.reshape"(%193) : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %195 = "stablehlo.dot_general"(%194, %arg20) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %196 = "stablehlo.add"(%60, %195) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %197 = "chlo.square"(%196) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %198 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %199 = "stablehlo.reduce"(%197, %198) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg48: tensor<f32>, %arg49: tensor<f32>):
      %409 = "stablehlo.add"(%arg48, %arg49) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%409) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %200 = "stablehlo.broadcast_in_dim"(%199) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %201 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %202 = "stablehlo.broadcast_in_dim"(%201) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %203 = "stablehlo.divide"(%200, %202) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %204 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %205 = "stablehlo.broadcast_in_dim"(%204) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %206 = "stablehlo.add"(%203, %205) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %207 = "stablehlo.rsqrt"(%206) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %208 = "stablehlo.broadcast_in_dim"(%207) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %209 = "stablehlo.multiply"(%196, %208) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %210 = "stablehlo.broadcast_in_dim"(%arg15) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %211 = "stablehlo.broadcast_in_dim"(%210) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %212 = "stablehlo.multiply"(%209, %211) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %213 = "stablehlo.dot_general"(%212, %arg17) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %214 = "func.call"(%213) <{callee = @silu}> : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %215 = "stablehlo.dot_general"(%212, %arg18) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %216 = "stablehlo.multiply"(%214, %215) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %217 = "stablehlo.dot_general"(%216, %arg16) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %218 = "stablehlo.add"(%196, %217) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %219 = "chlo.square"(%218) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %220 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %221 = "stablehlo.reduce"(%219, %220) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg46: tensor<f32>, %arg47: tensor<f32>):
      %408 = "stablehlo.add"(%arg46, %arg47) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%408) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %222 = "stablehlo.broadcast_in_dim"(%221) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %223 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %224 = "stablehlo.broadcast_in_dim"(%223) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %225 = "stablehlo.divide"(%222, %224) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %226 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %227 = "stablehlo.broadcast_in_dim"(%226) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %228 = "stablehlo.add"(%225, %227) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %229 = "stablehlo.rsqrt"(%228) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %230 = "stablehlo.broadcast_in_dim"(%229) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %231 = "stablehlo.multiply"(%218, %230) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %232 = "stablehlo.broadcast_in_dim"(%arg23) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %233 = "stablehlo.broadcast_in_dim"(%232) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %234 = "stablehlo.multiply"(%231, %233) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %235 = "stablehlo.dot_general"(%234, %arg30) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %236 = "stablehlo.reshape"(%235) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %237 = "stablehlo.transpose"(%236) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %238 = "stablehlo.dot_general"(%234, %arg28) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %239 = "stablehlo.reshape"(%238) : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %240 = "stablehlo.transpose"(%239) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %241 = "stablehlo.dot_general"(%234, %arg31) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %242 = "stablehlo.reshape"(%241) : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %243 = "stablehlo.transpose"(%242) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %244 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xf32>
    %245 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %246 = "stablehlo.broadcast_in_dim"(%245) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %247 = "stablehlo.multiply"(%246, %244) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %248 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %249 = "stablehlo.broadcast_in_dim"(%248) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %250 = "stablehlo.add"(%249, %247) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %251 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %252 = "stablehlo.broadcast_in_dim"(%251) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %253 = "stablehlo.divide"(%250, %252) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %254 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %255 = "stablehlo.broadcast_in_dim"(%254) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %256 = "stablehlo.power"(%255, %253) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %257 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %258 = "stablehlo.broadcast_in_dim"(%257) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %259 = "stablehlo.divide"(%258, %256) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %260 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xf32>
    %261 = "stablehlo.broadcast_in_dim"(%260) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %262 = "stablehlo.broadcast_in_dim"(%259) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %263 = "stablehlo.broadcast_in_dim"(%261) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %264 = "stablehlo.broadcast_in_dim"(%262) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %265 = "stablehlo.multiply"(%263, %264) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %266 = "stablehlo.cosine"(%265) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %267 = "stablehlo.concatenate"(%266, %266) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %268 = "stablehlo.sine"(%265) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %269 = "stablehlo.concatenate"(%268, %268) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %270 = "stablehlo.slice"(%237) <{limit_indices = array<i64: 2, 4, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %271 = "stablehlo.slice"(%237) <{limit_indices = array<i64: 2, 4, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %272 = "stablehlo.broadcast_in_dim"(%267) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %273 = "stablehlo.broadcast_in_dim"(%272) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %274 = "stablehlo.multiply"(%237, %273) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %275 = "stablehlo.negate"(%271) : (tensor<2x4x16x4xf32>) -> tensor<2x4x16x4xf32>
    %276 = "stablehlo.concatenate"(%275, %270) <{dimension = 3 : i64}> : (tensor<2x4x16x4xf32>, tensor<2x4x16x4xf32>) -> tensor<2x4x16x8xf32>
    %277 = "stablehlo.broadcast_in_dim"(%269) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %278 = "stablehlo.broadcast_in_dim"(%277) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %279 = "stablehlo.multiply"(%276, %278) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %280 = "stablehlo.add"(%274, %279) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %281 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xf32>
    %282 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %283 = "stablehlo.broadcast_in_dim"(%282) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %284 = "stablehlo.multiply"(%283, %281) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %285 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %286 = "stablehlo.broadcast_in_dim"(%285) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %287 = "stablehlo.add"(%286, %284) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %288 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %289 = "stablehlo.broadcast_in_dim"(%288) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %290 = "stablehlo.divide"(%287, %289) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %291 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %292 = "stablehlo.broadcast_in_dim"(%291) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %293 = "stablehlo.power"(%292, %290) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %294 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %295 = "stablehlo.broadcast_in_dim"(%294) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %296 = "stablehlo.divide"(%295, %293) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %297 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xf32>
    %298 = "stablehlo.broadcast_in_dim"(%297) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %299 = "stablehlo.broadcast_in_dim"(%296) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %300 = "stablehlo.broadcast_in_dim"(%298) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %301 = "stablehlo.broadcast_in_dim"(%299) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %302 = "stablehlo.multiply"(%300, %301) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %303 = "stablehlo.cosine"(%302) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %304 = "stablehlo.concatenate"(%303, %303) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %305 = "stablehlo.sine"(%302) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %306 = "stablehlo.concatenate"(%305, %305) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %307 = "stablehlo.slice"(%240) <{limit_indices = array<i64: 2, 2, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %308 = "stablehlo.slice"(%240) <{limit_indices = array<i64: 2, 2, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %309 = "stablehlo.broadcast_in_dim"(%304) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %310 = "stablehlo.broadcast_in_dim"(%309) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %311 = "stablehlo.multiply"(%240, %310) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %312 = "stablehlo.negate"(%308) : (tensor<2x2x16x4xf32>) -> tensor<2x2x16x4xf32>
    %313 = "stablehlo.concatenate"(%312, %307) <{dimension = 3 : i64}> : (tensor<2x2x16x4xf32>, tensor<2x2x16x4xf32>) -> tensor<2x2x16x8xf32>
    %314 = "stablehlo.broadcast_in_dim"(%306) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %315 = "stablehlo.broadcast_in_dim"(%314) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %316 = "stablehlo.multiply"(%313, %315) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %317 = "stablehlo.add"(%311, %316) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %318 = "stablehlo.broadcast_in_dim"(%317) <{broadcast_dimensions = array<i64: 0, 1, 3, 4>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %319 = "stablehlo.reshape"(%318) : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %320 = "stablehlo.broadcast_in_dim"(%243) <{broadcast_dimensions = array<i64: 0, 1, 3, 4>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %321 = "stablehlo.reshape"(%320) : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %322 = "stablehlo.dot_general"(%280, %319) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %323 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %324 = "stablehlo.sqrt"(%323) : (tensor<f32>) -> tensor<f32>
    %325 = "stablehlo.broadcast_in_dim"(%324) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %326 = "stablehlo.divide"(%322, %325) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %327 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %328 = "stablehlo.broadcast_in_dim"(%327) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %329 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %330 = "stablehlo.broadcast_in_dim"(%329) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xi32>) -> tensor<1x16xi32>
    %331 = "stablehlo.broadcast_in_dim"(%328) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %332 = "stablehlo.broadcast_in_dim"(%330) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %333 = "stablehlo.compare"(%331, %332) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %334 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %335 = "func.call"(%333, %326, %334) <{callee = @_where}> : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %336 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %337 = "stablehlo.reduce"(%335, %336) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg44: tensor<f32>, %arg45: tensor<f32>):
      %407 = "stablehlo.maximum"(%arg44, %arg45) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%407) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %338 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %339 = "stablehlo.broadcast_in_dim"(%338) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %340 = "stablehlo.maximum"(%339, %337) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %341 = "stablehlo.broadcast_in_dim"(%340) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %342 = "stablehlo.broadcast_in_dim"(%341) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %343 = "stablehlo.subtract"(%335, %342) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %344 = "stablehlo.exponential"(%343) : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %345 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %346 = "stablehlo.reduce"(%344, %345) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg42: tensor<f32>, %arg43: tensor<f32>):
      %406 = "stablehlo.add"(%arg42, %arg43) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%406) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %347 = "stablehlo.broadcast_in_dim"(%346) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %348 = "stablehlo.broadcast_in_dim"(%347) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %349 = "stablehlo.divide"(%344, %348) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %350 = "stablehlo.dot_general"(%349, %321) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %351 = "stablehlo.transpose"(%350) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %352 = "stablehlo.reshape"(%351) : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %353 = "stablehlo.dot_general"(%352, %arg29) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %354 = "stablehlo.add"(%218, %353) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %355 = "chlo.square"(%354) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %356 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %357 = "stablehlo.reduce"(%355, %356) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg40: tensor<f32>, %arg41: tensor<f32>):
      %405 = "stablehlo.add"(%arg40, %arg41) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%405) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %358 = "stablehlo.broadcast_in_dim"(%357) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %359 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %360 = "stablehlo.broadcast_in_dim"(%359) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %361 = "stablehlo.divide"(%358, %360) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %362 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %363 = "stablehlo.broadcast_in_dim"(%362) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %364 = "stablehlo.add"(%361, %363) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %365 = "stablehlo.rsqrt"(%364) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %366 = "stablehlo.broadcast_in_dim"(%365) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %367 = "stablehlo.multiply"(%354, %366) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %368 = "stablehlo.broadcast_in_dim"(%arg24) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %369 = "stablehlo.broadcast_in_dim"(%368) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %370 = "stablehlo.multiply"(%367, %369) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %371 = "stablehlo.dot_general"(%370, %arg26) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %372 = "func.call"(%371) <{callee = @silu}> : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %373 = "stablehlo.dot_general"(%370, %arg27) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %374 = "stablehlo.multiply"(%372, %373) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %375 = "stablehlo.dot_general"(%374, %arg25) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %376 = "stablehlo.add"(%354, %375) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %377 = "chlo.square"(%376) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %378 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %379 = "stablehlo.reduce"(%377, %378) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg38: tensor<f32>, %arg39: tensor<f32>):
      %404 = "stablehlo.add"(%arg38, %arg39) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%404) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %380 = "stablehlo.broadcast_in_dim"(%379) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %381 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %382 = "stablehlo.broadcast_in_dim"(%381) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %383 = "stablehlo.divide"(%380, %382) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %384 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %385 = "stablehlo.broadcast_in_dim"(%384) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %386 = "stablehlo.add"(%383, %385) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %387 = "stablehlo.rsqrt"(%386) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %388 = "stablehlo.broadcast_in_dim"(%387) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %389 = "stablehlo.multiply"(%376, %388) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %390 = "stablehlo.broadcast_in_dim"(%arg33) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %391 = "stablehlo.broadcast_in_dim"(%390) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %392 = "stablehlo.multiply"(%389, %391) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %393 = "stablehlo.dot_general"(%392, %arg32) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %394 = "func.call"(%393) <{callee = @log_softmax}> : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %395 = "stablehlo.broadcast_in_dim"(%arg35) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %396 = "func.call"(%394, %395) <{callee = @take_along_axis}> : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> tensor<2x16x1xf32>
    %397 = "stablehlo.reshape"(%396) : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %398 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %399 = "stablehlo.reduce"(%397, %398) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg36: tensor<f32>, %arg37: tensor<f32>):
      %403 = "stablehlo.add"(%arg36, %arg37) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%403) : (tensor<f32>) -> ()
    }) : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %400 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %401 = "stablehlo.divide"(%399, %400) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %402 = "stablehlo.negate"(%401) : (tensor<f32>) -> tensor<f32>
    "func.return"(%402) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg10: tensor<16x16xi1>, %arg11: tensor<2x4x16x16xf32>, %arg12: tensor<f32>):
    %49 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x16xi1>) -> tensor<2x4x16x16xi1>
    %50 = "stablehlo.broadcast_in_dim"(%arg12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %51 = "stablehlo.select"(%49, %arg11, %50) : (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    "func.return"(%51) : (tensor<2x4x16x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>, res_attrs = [{}], sym_name = "silu", sym_visibility = "private"}> ({
  ^bb0(%arg9: tensor<2x16x64xf32>):
    %40 = "stablehlo.negate"(%arg9) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %41 = "stablehlo.exponential"(%40) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %42 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x64xf32>
    %44 = "stablehlo.add"(%43, %41) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %45 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %46 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x64xf32>
    %47 = "stablehlo.divide"(%46, %44) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %48 = "stablehlo.multiply"(%arg9, %47) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    "func.return"(%48) : (tensor<2x16x64xf32>) -> ()
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

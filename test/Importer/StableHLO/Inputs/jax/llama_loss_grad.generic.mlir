"builtin.module"() <{sym_name = "jit_loss"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}], function_type = (tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<2x16xi32>, tensor<2x16xi32>) -> (tensor<f32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x64xf32>, tensor<32xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]['embed']"}, {jax.result_info = "result[1]['layers'][0]['attn_norm']"}, {jax.result_info = "result[1]['layers'][0]['ffn_norm']"}, {jax.result_info = "result[1]['layers'][0]['w_down']"}, {jax.result_info = "result[1]['layers'][0]['w_gate']"}, {jax.result_info = "result[1]['layers'][0]['w_up']"}, {jax.result_info = "result[1]['layers'][0]['wk']"}, {jax.result_info = "result[1]['layers'][0]['wo']"}, {jax.result_info = "result[1]['layers'][0]['wq']"}, {jax.result_info = "result[1]['layers'][0]['wv']"}, {jax.result_info = "result[1]['layers'][1]['attn_norm']"}, {jax.result_info = "result[1]['layers'][1]['ffn_norm']"}, {jax.result_info = "result[1]['layers'][1]['w_down']"}, {jax.result_info = "result[1]['layers'][1]['w_gate']"}, {jax.result_info = "result[1]['layers'][1]['w_up']"}, {jax.result_info = "result[1]['layers'][1]['wk']"}, {jax.result_info = "result[1]['layers'][1]['wo']"}, {jax.result_info = "result[1]['layers'][1]['wq']"}, {jax.result_info = "result[1]['layers'][1]['wv']"}, {jax.result_info = "result[1]['lm_head']"}, {jax.result_info = "result[1]['norm']"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg30: tensor<64x32xf32>, %arg31: tensor<32xf32>, %arg32: tensor<32xf32>, %arg33: tensor<64x32xf32>, %arg34: tensor<32x64xf32>, %arg35: tensor<32x64xf32>, %arg36: tensor<32x16xf32>, %arg37: tensor<32x32xf32>, %arg38: tensor<32x32xf32>, %arg39: tensor<32x16xf32>, %arg40: tensor<32xf32>, %arg41: tensor<32xf32>, %arg42: tensor<64x32xf32>, %arg43: tensor<32x64xf32>, %arg44: tensor<32x64xf32>, %arg45: tensor<32x16xf32>, %arg46: tensor<32x32xf32>, %arg47: tensor<32x32xf32>, %arg48: tensor<32x16xf32>, %arg49: tensor<32x64xf32>, %arg50: tensor<32xf32>, %arg51: tensor<2x16xi32>, %arg52: tensor<2x16xi32>):
    %79 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %80 = "stablehlo.broadcast_in_dim"(%79) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16xi32>
    %81 = "stablehlo.compare"(%arg51, %80) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi1>
    %82 = "stablehlo.constant"() <{value = dense<64> : tensor<i32>}> : () -> tensor<i32>
    %83 = "stablehlo.broadcast_in_dim"(%82) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16xi32>
    %84 = "stablehlo.add"(%arg51, %83) : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi32>
    %85 = "stablehlo.select"(%81, %84, %arg51) : (tensor<2x16xi1>, tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi32>
    %86 = "stablehlo.broadcast_in_dim"(%85) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %87 = "stablehlo.gather"(%arg30, %86) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<2x16x1xi32>) -> tensor<2x16x32xf32>
    %88 = "chlo.square"(%87) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %89 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %90 = "stablehlo.broadcast_in_dim"(%89) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x32xf32>
    %91 = "stablehlo.multiply"(%90, %87) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %92 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %93 = "stablehlo.reduce"(%88, %92) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg129: tensor<f32>, %arg130: tensor<f32>):
      %822 = "stablehlo.add"(%arg129, %arg130) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%822) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %94 = "stablehlo.broadcast_in_dim"(%93) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %95 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %96 = "stablehlo.broadcast_in_dim"(%95) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %97 = "stablehlo.divide"(%94, %96) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %98 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %99 = "stablehlo.broadcast_in_dim"(%98) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %100 = "stablehlo.add"(%97, %99) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %101 = "stablehlo.rsqrt"(%100) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %102 = "stablehlo.divide"(%101, %100) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %103 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %104 = "stablehlo.broadcast_in_dim"(%103) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %105 = "stablehlo.multiply"(%104, %102) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %106 = "stablehlo.broadcast_in_dim"(%101) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %107 = "stablehlo.multiply"(%87, %106) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %108 = "stablehlo.broadcast_in_dim"(%arg31) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %109 = "stablehlo.broadcast_in_dim"(%108) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %110 = "stablehlo.multiply"(%107, %109) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %111 = "stablehlo.dot_general"(%110, %arg38) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %112 = "stablehlo.reshape"(%111) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %113 = "stablehlo.transpose"(%112) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %114 = "stablehlo.dot_general"(%110, %arg36) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %115 = "stablehlo.reshape"(%114) : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %116 = "stablehlo.transpose"(%115) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %117 = "stablehlo.dot_general"(%110, %arg39) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %118 = "stablehlo.reshape"(%117) : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %119 = "stablehlo.transpose"(%118) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %120 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xf32>
    %121 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %122 = "stablehlo.broadcast_in_dim"(%121) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %123 = "stablehlo.multiply"(%122, %120) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %124 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %125 = "stablehlo.broadcast_in_dim"(%124) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %126 = "stablehlo.add"(%125, %123) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %127 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %128 = "stablehlo.broadcast_in_dim"(%127) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %129 = "stablehlo.divide"(%126, %128) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %130 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %131 = "stablehlo.broadcast_in_dim"(%130) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %132 = "stablehlo.power"(%131, %129) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %133 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %134 = "stablehlo.broadcast_in_dim"(%133) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %135 = "stablehlo.divide"(%134, %132) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %136 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xf32>
    %137 = "stablehlo.broadcast_in_dim"(%136) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %138 = "stablehlo.broadcast_in_dim"(%135) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %139 = "stablehlo.broadcast_in_dim"(%137) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %140 = "stablehlo.broadcast_in_dim"(%138) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %141 = "stablehlo.multiply"(%139, %140) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %142 = "stablehlo.cosine"(%141) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %143 = "stablehlo.concatenate"(%142, %142) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %144 = "stablehlo.sine"(%141) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %145 = "stablehlo.concatenate"(%144, %144) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %146 = "stablehlo.slice"(%113) <{limit_indices = array<i64: 2, 4, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %147 = "stablehlo.slice"(%113) <{limit_indices = array<i64: 2, 4, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %148 = "stablehlo.broadcast_in_dim"(%143) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %149 = "stablehlo.broadcast_in_dim"(%148) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %150 = "stablehlo.multiply"(%113, %149) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %151 = "stablehlo.negate"(%147) : (tensor<2x4x16x4xf32>) -> tensor<2x4x16x4xf32>
    %152 = "stablehlo.concatenate"(%151, %146) <{dimension = 3 : i64}> : (tensor<2x4x16x4xf32>, tensor<2x4x16x4xf32>) -> tensor<2x4x16x8xf32>
    %153 = "stablehlo.broadcast_in_dim"(%145) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %154 = "stablehlo.broadcast_in_dim"(%153) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %155 = "stablehlo.multiply"(%152, %154) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %156 = "stablehlo.add"(%150, %155) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %157 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xf32>
    %158 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %159 = "stablehlo.broadcast_in_dim"(%158) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %160 = "stablehlo.multiply"(%159, %157) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %161 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %162 = "stablehlo.broadcast_in_dim"(%161) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %163 = "stablehlo.add"(%162, %160) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %164 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %165 = "stablehlo.broadcast_in_dim"(%164) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %166 = "stablehlo.divide"(%163, %165) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %167 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %168 = "stablehlo.broadcast_in_dim"(%167) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %169 = "stablehlo.power"(%168, %166) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %170 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %171 = "stablehlo.broadcast_in_dim"(%170) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %172 = "stablehlo.divide"(%171, %169) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %173 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xf32>
    %174 = "stablehlo.broadcast_in_dim"(%173) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %175 = "stablehlo.broadcast_in_dim"(%172) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %176 = "stablehlo.broadcast_in_dim"(%174) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %177 = "stablehlo.broadcast_in_dim"(%175) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %178 = "stablehlo.multiply"(%176, %177) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %179 = "stablehlo.cosine"(%178) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %180 = "stablehlo.concatenate"(%179, %179) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %181 = "stablehlo.sine"(%178) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %182 = "stablehlo.concatenate"(%181, %181) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %183 = "stablehlo.slice"(%116) <{limit_indices = array<i64: 2, 2, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %184 = "stablehlo.slice"(%116) <{limit_indices = array<i64: 2, 2, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %185 = "stablehlo.broadcast_in_dim"(%180) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %186 = "stablehlo.broadcast_in_dim"(%185) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %187 = "stablehlo.multiply"(%116, %186) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %188 = "stablehlo.negate"(%184) : (tensor<2x2x16x4xf32>) -> tensor<2x2x16x4xf32>
    %189 = "stablehlo.concatenate"(%188, %183) <{dimension = 3 : i64}> : (tensor<2x2x16x4xf32>, tensor<2x2x16x4xf32>) -> tensor<2x2x16x8xf32>
    %190 = "stablehlo.broadcast_in_dim"(%182) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %191 = "stablehlo.broadcast_in_dim"(%190) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %192 = "stablehlo.multiply"(%189, %191) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %193 = "stablehlo.add"(%187, %192) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %194 = "stablehlo.broadcast_in_dim"(%193) <{broadcast_dimensions = array<i64: 0, 1, 3, 4>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %195 = "stablehlo.reshape"(%194) : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %196 = "stablehlo.broadcast_in_dim"(%119) <{broadcast_dimensions = array<i64: 0, 1, 3, 4>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %197 = "stablehlo.reshape"(%196) : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %198 = "stablehlo.dot_general"(%156, %195) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %199 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %200 = "stablehlo.sqrt"(%199) : (tensor<f32>) -> tensor<f32>
    %201 = "stablehlo.broadcast_in_dim"(%200) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %202 = "stablehlo.divide"(%198, %201) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %203 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %204 = "stablehlo.broadcast_in_dim"(%203) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %205 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %206 = "stablehlo.broadcast_in_dim"(%205) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xi32>) -> tensor<1x16xi32>
    %207 = "stablehlo.broadcast_in_dim"(%204) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %208 = "stablehlo.broadcast_in_dim"(%206) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %209 = "stablehlo.compare"(%207, %208) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %210 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %211:2 = "func.call"(%209, %202, %210) <{callee = @_where}> : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>)
    %212 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %213 = "stablehlo.reduce"(%211#0, %212) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg127: tensor<f32>, %arg128: tensor<f32>):
      %821 = "stablehlo.maximum"(%arg127, %arg128) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%821) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %214 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %215 = "stablehlo.broadcast_in_dim"(%214) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %216 = "stablehlo.maximum"(%215, %213) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %217 = "stablehlo.broadcast_in_dim"(%216) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %218 = "stablehlo.broadcast_in_dim"(%217) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %219 = "stablehlo.subtract"(%211#0, %218) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %220 = "stablehlo.exponential"(%219) : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %221 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %222 = "stablehlo.reduce"(%220, %221) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg125: tensor<f32>, %arg126: tensor<f32>):
      %820 = "stablehlo.add"(%arg125, %arg126) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%820) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %223 = "stablehlo.broadcast_in_dim"(%222) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %224 = "stablehlo.broadcast_in_dim"(%223) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %225 = "stablehlo.divide"(%220, %224) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %226 = "stablehlo.multiply"(%223, %223) : (tensor<2x4x16x1xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %227 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %228 = "stablehlo.broadcast_in_dim"(%227) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x1xf32>
    %229 = "stablehlo.divide"(%228, %226) : (tensor<2x4x16x1xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %230 = "stablehlo.dot_general"(%225, %197) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %231 = "stablehlo.transpose"(%230) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %232 = "stablehlo.reshape"(%231) : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %233 = "stablehlo.dot_general"(%232, %arg37) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %234 = "stablehlo.add"(%87, %233) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %235 = "chlo.square"(%234) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %236 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %237 = "stablehlo.broadcast_in_dim"(%236) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x32xf32>
    %238 = "stablehlo.multiply"(%237, %234) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %239 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %240 = "stablehlo.reduce"(%235, %239) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg123: tensor<f32>, %arg124: tensor<f32>):
      %819 = "stablehlo.add"(%arg123, %arg124) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%819) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %241 = "stablehlo.broadcast_in_dim"(%240) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %242 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %243 = "stablehlo.broadcast_in_dim"(%242) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %244 = "stablehlo.divide"(%241, %243) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %245 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %246 = "stablehlo.broadcast_in_dim"(%245) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %247 = "stablehlo.add"(%244, %246) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %248 = "stablehlo.rsqrt"(%247) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %249 = "stablehlo.divide"(%248, %247) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %250 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %251 = "stablehlo.broadcast_in_dim"(%250) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %252 = "stablehlo.multiply"(%251, %249) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %253 = "stablehlo.broadcast_in_dim"(%248) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %254 = "stablehlo.multiply"(%234, %253) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %255 = "stablehlo.broadcast_in_dim"(%arg32) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %256 = "stablehlo.broadcast_in_dim"(%255) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %257 = "stablehlo.multiply"(%254, %256) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %258 = "stablehlo.dot_general"(%257, %arg34) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %259:3 = "func.call"(%258) <{callee = @silu}> : (tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>)
    %260 = "stablehlo.dot_general"(%257, %arg35) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %261 = "stablehlo.multiply"(%259#0, %260) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %262 = "stablehlo.dot_general"(%261, %arg33) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %263 = "stablehlo.add"(%234, %262) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %264 = "chlo.square"(%263) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %265 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %266 = "stablehlo.broadcast_in_dim"(%265) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x32xf32>
    %267 = "stablehlo.multiply"(%266, %263) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %268 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %269 = "stablehlo.reduce"(%264, %268) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg121: tensor<f32>, %arg122: tensor<f32>):
      %818 = "stablehlo.add"(%arg121, %arg122) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%818) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %270 = "stablehlo.broadcast_in_dim"(%269) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %271 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %272 = "stablehlo.broadcast_in_dim"(%271) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %273 = "stablehlo.divide"(%270, %272) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %274 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %275 = "stablehlo.broadcast_in_dim"(%274) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %276 = "stablehlo.add"(%273, %275) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %277 = "stablehlo.rsqrt"(%276) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %278 = "stablehlo.divide"(%277, %276) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %279 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %280 = "stablehlo.broadcast_in_dim"(%279) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %281 = "stablehlo.multiply"(%280, %278) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %282 = "stablehlo.broadcast_in_dim"(%277) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %283 = "stablehlo.multiply"(%263, %282) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %284 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %285 = "stablehlo.broadcast_in_dim"(%284) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %286 = "stablehlo.multiply"(%283, %285) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %287 = "stablehlo.dot_general"(%286, %arg47) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %288 = "stablehlo.reshape"(%287) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %289 = "stablehlo.transpose"(%288) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %290 = "stablehlo.dot_general"(%286, %arg45) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %291 = "stablehlo.reshape"(%290) : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %292 = "stablehlo.transpose"(%291) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %293 = "stablehlo.dot_general"(%286, %arg48) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %294 = "stablehlo.reshape"(%293) : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %295 = "stablehlo.transpose"(%294) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %296 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xf32>
    %297 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %298 = "stablehlo.broadcast_in_dim"(%297) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %299 = "stablehlo.multiply"(%298, %296) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %300 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %301 = "stablehlo.broadcast_in_dim"(%300) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %302 = "stablehlo.add"(%301, %299) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %303 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %304 = "stablehlo.broadcast_in_dim"(%303) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %305 = "stablehlo.divide"(%302, %304) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %306 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %307 = "stablehlo.broadcast_in_dim"(%306) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %308 = "stablehlo.power"(%307, %305) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %309 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %310 = "stablehlo.broadcast_in_dim"(%309) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %311 = "stablehlo.divide"(%310, %308) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %312 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xf32>
    %313 = "stablehlo.broadcast_in_dim"(%312) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %314 = "stablehlo.broadcast_in_dim"(%311) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %315 = "stablehlo.broadcast_in_dim"(%313) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %316 = "stablehlo.broadcast_in_dim"(%314) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %317 = "stablehlo.multiply"(%315, %316) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %318 = "stablehlo.cosine"(%317) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %319 = "stablehlo.concatenate"(%318, %318) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %320 = "stablehlo.sine"(%317) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %321 = "stablehlo.concatenate"(%320, %320) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %322 = "stablehlo.slice"(%289) <{limit_indices = array<i64: 2, 4, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %323 = "stablehlo.slice"(%289) <{limit_indices = array<i64: 2, 4, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %324 = "stablehlo.broadcast_in_dim"(%319) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %325 = "stablehlo.broadcast_in_dim"(%324) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %326 = "stablehlo.multiply"(%289, %325) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %327 = "stablehlo.negate"(%323) : (tensor<2x4x16x4xf32>) -> tensor<2x4x16x4xf32>
    %328 = "stablehlo.concatenate"(%327, %322) <{dimension = 3 : i64}> : (tensor<2x4x16x4xf32>, tensor<2x4x16x4xf32>) -> tensor<2x4x16x8xf32>
    %329 = "stablehlo.broadcast_in_dim"(%321) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %330 = "stablehlo.broadcast_in_dim"(%329) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %331 = "stablehlo.multiply"(%328, %330) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %332 = "stablehlo.add"(%326, %331) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %333 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xf32>
    %334 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %335 = "stablehlo.broadcast_in_dim"(%334) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %336 = "stablehlo.multiply"(%335, %333) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %337 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %338 = "stablehlo.broadcast_in_dim"(%337) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %339 = "stablehlo.add"(%338, %336) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %340 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %341 = "stablehlo.broadcast_in_dim"(%340) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %342 = "stablehlo.divide"(%339, %341) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %343 = "stablehlo.constant"() <{value = dense<1.000000e+04> : tensor<f32>}> : () -> tensor<f32>
    %344 = "stablehlo.broadcast_in_dim"(%343) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %345 = "stablehlo.power"(%344, %342) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %346 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %347 = "stablehlo.broadcast_in_dim"(%346) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %348 = "stablehlo.divide"(%347, %345) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %349 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xf32>
    %350 = "stablehlo.broadcast_in_dim"(%349) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %351 = "stablehlo.broadcast_in_dim"(%348) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %352 = "stablehlo.broadcast_in_dim"(%350) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %353 = "stablehlo.broadcast_in_dim"(%351) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %354 = "stablehlo.multiply"(%352, %353) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %355 = "stablehlo.cosine"(%354) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %356 = "stablehlo.concatenate"(%355, %355) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %357 = "stablehlo.sine"(%354) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %358 = "stablehlo.concatenate"(%357, %357) <{dimension = 1 : i64}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %359 = "stablehlo.slice"(%292) <{limit_indices = array<i64: 2, 2, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %360 = "stablehlo.slice"(%292) <{limit_indices = array<i64: 2, 2, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %361 = "stablehlo.broadcast_in_dim"(%356) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %362 = "stablehlo.broadcast_in_dim"(%361) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %363 = "stablehlo.multiply"(%292, %362) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %364 = "stablehlo.negate"(%360) : (tensor<2x2x16x4xf32>) -> tensor<2x2x16x4xf32>
    %365 = "stablehlo.concatenate"(%364, %359) <{dimension = 3 : i64}> : (tensor<2x2x16x4xf32>, tensor<2x2x16x4xf32>) -> tensor<2x2x16x8xf32>
    %366 = "stablehlo.broadcast_in_dim"(%358) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %367 = "stablehlo.broadcast_in_dim"(%366) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %368 = "stablehlo.multiply"(%365, %367) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %369 = "stablehlo.add"(%363, %368) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %370 = "stablehlo.broadcast_in_dim"(%369) <{broadcast_dimensions = array<i64: 0, 1, 3, 4>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %371 = "stablehlo.reshape"(%370) : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %372 = "stablehlo.broadcast_in_dim"(%295) <{broadcast_dimensions = array<i64: 0, 1, 3, 4>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %373 = "stablehlo.reshape"(%372) : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %374 = "stablehlo.dot_general"(%332, %371) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %375 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %376 = "stablehlo.sqrt"(%375) : (tensor<f32>) -> tensor<f32>
    %377 = "stablehlo.broadcast_in_dim"(%376) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %378 = "stablehlo.divide"(%374, %377) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %379 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %380 = "stablehlo.broadcast_in_dim"(%379) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %381 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %382 = "stablehlo.broadcast_in_dim"(%381) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xi32>) -> tensor<1x16xi32>
    %383 = "stablehlo.broadcast_in_dim"(%380) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %384 = "stablehlo.broadcast_in_dim"(%382) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %385 = "stablehlo.compare"(%383, %384) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %386 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %387:2 = "func.call"(%385, %378, %386) <{callee = @_where}> : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>)
    %388 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %389 = "stablehlo.reduce"(%387#0, %388) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg119: tensor<f32>, %arg120: tensor<f32>):
      %817 = "stablehlo.maximum"(%arg119, %arg120) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%817) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %390 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %391 = "stablehlo.broadcast_in_dim"(%390) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %392 = "stablehlo.maximum"(%391, %389) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %393 = "stablehlo.broadcast_in_dim"(%392) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %394 = "stablehlo.broadcast_in_dim"(%393) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %395 = "stablehlo.subtract"(%387#0, %394) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %396 = "stablehlo.exponential"(%395) : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %397 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %398 = "stablehlo.reduce"(%396, %397) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg117: tensor<f32>, %arg118: tensor<f32>):
      %816 = "stablehlo.add"(%arg117, %arg118) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%816) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %399 = "stablehlo.broadcast_in_dim"(%398) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %400 = "stablehlo.broadcast_in_dim"(%399) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %401 = "stablehlo.divide"(%396, %400) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %402 = "stablehlo.multiply"(%399, %399) : (tensor<2x4x16x1xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %403 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %404 = "stablehlo.broadcast_in_dim"(%403) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x1xf32>
    %405 = "stablehlo.divide"(%404, %402) : (tensor<2x4x16x1xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %406 = "stablehlo.dot_general"(%401, %373) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %407 = "stablehlo.transpose"(%406) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %408 = "stablehlo.reshape"(%407) : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %409 = "stablehlo.dot_general"(%408, %arg46) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %410 = "stablehlo.add"(%263, %409) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %411 = "chlo.square"(%410) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %412 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %413 = "stablehlo.broadcast_in_dim"(%412) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x32xf32>
    %414 = "stablehlo.multiply"(%413, %410) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %415 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %416 = "stablehlo.reduce"(%411, %415) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg115: tensor<f32>, %arg116: tensor<f32>):
      %815 = "stablehlo.add"(%arg115, %arg116) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%815) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %417 = "stablehlo.broadcast_in_dim"(%416) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %418 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %419 = "stablehlo.broadcast_in_dim"(%418) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %420 = "stablehlo.divide"(%417, %419) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %421 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %422 = "stablehlo.broadcast_in_dim"(%421) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %423 = "stablehlo.add"(%420, %422) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %424 = "stablehlo.rsqrt"(%423) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %425 = "stablehlo.divide"(%424, %423) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %426 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %427 = "stablehlo.broadcast_in_dim"(%426) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %428 = "stablehlo.multiply"(%427, %425) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %429 = "stablehlo.broadcast_in_dim"(%424) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %430 = "stablehlo.multiply"(%410, %429) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %431 = "stablehlo.broadcast_in_dim"(%arg41) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %432 = "stablehlo.broadcast_in_dim"(%431) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %433 = "stablehlo.multiply"(%430, %432) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %434 = "stablehlo.dot_general"(%433, %arg43) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %435:3 = "func.call"(%434) <{callee = @silu}> : (tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>)
    %436 = "stablehlo.dot_general"(%433, %arg44) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %437 = "stablehlo.multiply"(%435#0, %436) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %438 = "stablehlo.dot_general"(%437, %arg42) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %439 = "stablehlo.add"(%410, %438) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %440 = "chlo.square"(%439) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %441 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %442 = "stablehlo.broadcast_in_dim"(%441) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x32xf32>
    %443 = "stablehlo.multiply"(%442, %439) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %444 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %445 = "stablehlo.reduce"(%440, %444) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg113: tensor<f32>, %arg114: tensor<f32>):
      %814 = "stablehlo.add"(%arg113, %arg114) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%814) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %446 = "stablehlo.broadcast_in_dim"(%445) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %447 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %448 = "stablehlo.broadcast_in_dim"(%447) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %449 = "stablehlo.divide"(%446, %448) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %450 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %451 = "stablehlo.broadcast_in_dim"(%450) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %452 = "stablehlo.add"(%449, %451) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %453 = "stablehlo.rsqrt"(%452) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %454 = "stablehlo.divide"(%453, %452) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %455 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %456 = "stablehlo.broadcast_in_dim"(%455) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %457 = "stablehlo.multiply"(%456, %454) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %458 = "stablehlo.broadcast_in_dim"(%453) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %459 = "stablehlo.multiply"(%439, %458) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %460 = "stablehlo.broadcast_in_dim"(%arg50) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %461 = "stablehlo.broadcast_in_dim"(%460) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %462 = "stablehlo.multiply"(%459, %461) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %463 = "stablehlo.dot_general"(%462, %arg49) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %464:3 = "func.call"(%463) <{callee = @log_softmax}> : (tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x1xf32>)
    %465 = "stablehlo.broadcast_in_dim"(%arg52) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %466:2 = "func.call"(%464#0, %465) <{callee = @take_along_axis}> : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> (tensor<2x16x1xf32>, tensor<2x16x1x1xi32>)
    %467 = "stablehlo.reshape"(%466#0) : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %468 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %469 = "stablehlo.reduce"(%467, %468) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg111: tensor<f32>, %arg112: tensor<f32>):
      %813 = "stablehlo.add"(%arg111, %arg112) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%813) : (tensor<f32>) -> ()
    }) : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %470 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %471 = "stablehlo.divide"(%469, %470) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %472 = "stablehlo.negate"(%471) : (tensor<f32>) -> tensor<f32>
    %473 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %474 = "stablehlo.negate"(%473) : (tensor<f32>) -> tensor<f32>
    %475 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %476 = "stablehlo.divide"(%474, %475) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %477 = "stablehlo.broadcast_in_dim"(%476) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16xf32>
    %478 = "stablehlo.broadcast_in_dim"(%477) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %479 = "func.call"(%466#1, %478) <{callee = @take_along_axis_0}> : (tensor<2x16x1x1xi32>, tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %480 = "func.call"(%464#1, %464#2, %479) <{callee = @log_softmax_1}> : (tensor<2x16x64xf32>, tensor<2x16x1xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %481 = "stablehlo.dot_general"(%480, %462) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %482 = "stablehlo.transpose"(%481) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %483 = "stablehlo.dot_general"(%480, %arg49) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %484 = "stablehlo.multiply"(%459, %483) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %485 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %486 = "stablehlo.reduce"(%484, %485) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg109: tensor<f32>, %arg110: tensor<f32>):
      %812 = "stablehlo.add"(%arg109, %arg110) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%812) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %487 = "stablehlo.reshape"(%486) : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %488 = "stablehlo.broadcast_in_dim"(%460) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %489 = "stablehlo.multiply"(%483, %488) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %490 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %491 = "stablehlo.reduce"(%487, %490) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg107: tensor<f32>, %arg108: tensor<f32>):
      %811 = "stablehlo.add"(%arg107, %arg108) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%811) : (tensor<f32>) -> ()
    }) : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %492 = "stablehlo.multiply"(%439, %489) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %493 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %494 = "stablehlo.reduce"(%492, %493) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg105: tensor<f32>, %arg106: tensor<f32>):
      %810 = "stablehlo.add"(%arg105, %arg106) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%810) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %495 = "stablehlo.reshape"(%494) : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %496 = "stablehlo.broadcast_in_dim"(%453) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %497 = "stablehlo.multiply"(%489, %496) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %498 = "stablehlo.multiply"(%495, %457) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %499 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %500 = "stablehlo.broadcast_in_dim"(%499) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %501 = "stablehlo.divide"(%498, %500) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %502 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %503 = "stablehlo.reduce"(%501, %502) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg103: tensor<f32>, %arg104: tensor<f32>):
      %809 = "stablehlo.add"(%arg103, %arg104) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%809) : (tensor<f32>) -> ()
    }) : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %504 = "stablehlo.broadcast_in_dim"(%503) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %505 = "stablehlo.multiply"(%504, %443) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %506 = "stablehlo.add"(%497, %505) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %507 = "stablehlo.dot_general"(%506, %437) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<2x16x64xf32>) -> tensor<32x64xf32>
    %508 = "stablehlo.transpose"(%507) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %509 = "stablehlo.dot_general"(%506, %arg42) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<64x32xf32>) -> tensor<2x16x64xf32>
    %510 = "stablehlo.multiply"(%435#0, %509) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %511 = "stablehlo.multiply"(%509, %436) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %512 = "stablehlo.dot_general"(%510, %433) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %513 = "stablehlo.transpose"(%512) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %514 = "stablehlo.dot_general"(%510, %arg44) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %515 = "func.call"(%435#1, %435#2, %434, %511) <{callee = @silu_2}> : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %516 = "stablehlo.dot_general"(%515, %433) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %517 = "stablehlo.transpose"(%516) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %518 = "stablehlo.dot_general"(%515, %arg43) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %519 = "stablehlo.add"(%514, %518) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %520 = "stablehlo.multiply"(%430, %519) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %521 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %522 = "stablehlo.reduce"(%520, %521) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg101: tensor<f32>, %arg102: tensor<f32>):
      %808 = "stablehlo.add"(%arg101, %arg102) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%808) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %523 = "stablehlo.reshape"(%522) : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %524 = "stablehlo.broadcast_in_dim"(%431) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %525 = "stablehlo.multiply"(%519, %524) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %526 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %527 = "stablehlo.reduce"(%523, %526) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg99: tensor<f32>, %arg100: tensor<f32>):
      %807 = "stablehlo.add"(%arg99, %arg100) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%807) : (tensor<f32>) -> ()
    }) : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %528 = "stablehlo.multiply"(%410, %525) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %529 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %530 = "stablehlo.reduce"(%528, %529) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg97: tensor<f32>, %arg98: tensor<f32>):
      %806 = "stablehlo.add"(%arg97, %arg98) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%806) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %531 = "stablehlo.reshape"(%530) : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %532 = "stablehlo.broadcast_in_dim"(%424) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %533 = "stablehlo.multiply"(%525, %532) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %534 = "stablehlo.add"(%506, %533) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %535 = "stablehlo.multiply"(%531, %428) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %536 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %537 = "stablehlo.broadcast_in_dim"(%536) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %538 = "stablehlo.divide"(%535, %537) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %539 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %540 = "stablehlo.reduce"(%538, %539) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg95: tensor<f32>, %arg96: tensor<f32>):
      %805 = "stablehlo.add"(%arg95, %arg96) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%805) : (tensor<f32>) -> ()
    }) : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %541 = "stablehlo.broadcast_in_dim"(%540) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %542 = "stablehlo.multiply"(%541, %414) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %543 = "stablehlo.add"(%534, %542) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %544 = "stablehlo.dot_general"(%543, %408) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<32x32xf32>
    %545 = "stablehlo.transpose"(%544) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %546 = "stablehlo.dot_general"(%543, %arg46) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %547 = "stablehlo.reshape"(%546) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %548 = "stablehlo.transpose"(%547) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %549 = "stablehlo.dot_general"(%548, %401) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x8x16xf32>
    %550 = "stablehlo.transpose"(%549) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<2x4x8x16xf32>) -> tensor<2x4x16x8xf32>
    %551 = "stablehlo.dot_general"(%548, %373) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %552 = "stablehlo.broadcast_in_dim"(%405) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %553 = "stablehlo.multiply"(%551, %552) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %554 = "stablehlo.multiply"(%553, %396) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %555 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %556 = "stablehlo.reduce"(%554, %555) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg93: tensor<f32>, %arg94: tensor<f32>):
      %804 = "stablehlo.add"(%arg93, %arg94) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%804) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %557 = "stablehlo.reshape"(%556) : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %558 = "stablehlo.negate"(%557) : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %559 = "stablehlo.broadcast_in_dim"(%399) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %560 = "stablehlo.divide"(%551, %559) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %561 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %562 = "stablehlo.reduce"(%558, %561) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg91: tensor<f32>, %arg92: tensor<f32>):
      %803 = "stablehlo.add"(%arg91, %arg92) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%803) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x1xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %563 = "stablehlo.broadcast_in_dim"(%562) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x16xf32>
    %564 = "stablehlo.add"(%560, %563) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %565 = "stablehlo.multiply"(%564, %396) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %566 = "func.call"(%387#1, %565) <{callee = @_where_3}> : (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %567 = "stablehlo.broadcast_in_dim"(%376) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %568 = "stablehlo.divide"(%566, %567) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %569 = "stablehlo.dot_general"(%568, %332) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %570 = "stablehlo.dot_general"(%568, %371) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %571 = "stablehlo.reshape"(%550) : (tensor<2x4x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %572 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %573 = "stablehlo.reduce"(%571, %572) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg89: tensor<f32>, %arg90: tensor<f32>):
      %802 = "stablehlo.add"(%arg89, %arg90) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%802) : (tensor<f32>) -> ()
    }) : (tensor<2x2x2x16x8xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %574 = "stablehlo.reshape"(%569) : (tensor<2x4x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %575 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %576 = "stablehlo.reduce"(%574, %575) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg87: tensor<f32>, %arg88: tensor<f32>):
      %801 = "stablehlo.add"(%arg87, %arg88) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%801) : (tensor<f32>) -> ()
    }) : (tensor<2x2x2x16x8xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %577 = "stablehlo.broadcast_in_dim"(%366) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %578 = "stablehlo.multiply"(%576, %577) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %579 = "stablehlo.slice"(%578) <{limit_indices = array<i64: 2, 2, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %580 = "stablehlo.slice"(%578) <{limit_indices = array<i64: 2, 2, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %581 = "stablehlo.negate"(%579) : (tensor<2x2x16x4xf32>) -> tensor<2x2x16x4xf32>
    %582 = "stablehlo.broadcast_in_dim"(%361) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %583 = "stablehlo.multiply"(%576, %582) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %584 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %585 = "stablehlo.pad"(%581, %584) <{edge_padding_high = array<i64: 0, 0, 0, 0>, edge_padding_low = array<i64: 0, 0, 0, 4>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x2x16x4xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %586 = "stablehlo.add"(%583, %585) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %587 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %588 = "stablehlo.pad"(%580, %587) <{edge_padding_high = array<i64: 0, 0, 0, 4>, edge_padding_low = array<i64: 0, 0, 0, 0>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x2x16x4xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %589 = "stablehlo.add"(%586, %588) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %590 = "stablehlo.broadcast_in_dim"(%329) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %591 = "stablehlo.multiply"(%570, %590) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %592 = "stablehlo.slice"(%591) <{limit_indices = array<i64: 2, 4, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %593 = "stablehlo.slice"(%591) <{limit_indices = array<i64: 2, 4, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %594 = "stablehlo.negate"(%592) : (tensor<2x4x16x4xf32>) -> tensor<2x4x16x4xf32>
    %595 = "stablehlo.broadcast_in_dim"(%324) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %596 = "stablehlo.multiply"(%570, %595) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %597 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %598 = "stablehlo.pad"(%594, %597) <{edge_padding_high = array<i64: 0, 0, 0, 0>, edge_padding_low = array<i64: 0, 0, 0, 4>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x4x16x4xf32>, tensor<f32>) -> tensor<2x4x16x8xf32>
    %599 = "stablehlo.add"(%596, %598) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %600 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %601 = "stablehlo.pad"(%593, %600) <{edge_padding_high = array<i64: 0, 0, 0, 4>, edge_padding_low = array<i64: 0, 0, 0, 0>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x4x16x4xf32>, tensor<f32>) -> tensor<2x4x16x8xf32>
    %602 = "stablehlo.add"(%599, %601) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %603 = "stablehlo.transpose"(%573) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x2x16x8xf32>) -> tensor<2x16x2x8xf32>
    %604 = "stablehlo.reshape"(%603) : (tensor<2x16x2x8xf32>) -> tensor<2x16x16xf32>
    %605 = "stablehlo.dot_general"(%604, %286) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x16xf32>, tensor<2x16x32xf32>) -> tensor<16x32xf32>
    %606 = "stablehlo.transpose"(%605) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %607 = "stablehlo.dot_general"(%604, %arg48) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x16xf32>, tensor<32x16xf32>) -> tensor<2x16x32xf32>
    %608 = "stablehlo.transpose"(%589) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x2x16x8xf32>) -> tensor<2x16x2x8xf32>
    %609 = "stablehlo.reshape"(%608) : (tensor<2x16x2x8xf32>) -> tensor<2x16x16xf32>
    %610 = "stablehlo.dot_general"(%609, %286) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x16xf32>, tensor<2x16x32xf32>) -> tensor<16x32xf32>
    %611 = "stablehlo.transpose"(%610) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %612 = "stablehlo.dot_general"(%609, %arg45) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x16xf32>, tensor<32x16xf32>) -> tensor<2x16x32xf32>
    %613 = "stablehlo.add"(%607, %612) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %614 = "stablehlo.transpose"(%602) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %615 = "stablehlo.reshape"(%614) : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %616 = "stablehlo.dot_general"(%615, %286) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<32x32xf32>
    %617 = "stablehlo.transpose"(%616) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %618 = "stablehlo.dot_general"(%615, %arg47) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %619 = "stablehlo.add"(%613, %618) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %620 = "stablehlo.multiply"(%283, %619) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %621 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %622 = "stablehlo.reduce"(%620, %621) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg85: tensor<f32>, %arg86: tensor<f32>):
      %800 = "stablehlo.add"(%arg85, %arg86) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%800) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %623 = "stablehlo.reshape"(%622) : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %624 = "stablehlo.broadcast_in_dim"(%284) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %625 = "stablehlo.multiply"(%619, %624) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %626 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %627 = "stablehlo.reduce"(%623, %626) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg83: tensor<f32>, %arg84: tensor<f32>):
      %799 = "stablehlo.add"(%arg83, %arg84) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%799) : (tensor<f32>) -> ()
    }) : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %628 = "stablehlo.multiply"(%263, %625) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %629 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %630 = "stablehlo.reduce"(%628, %629) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg81: tensor<f32>, %arg82: tensor<f32>):
      %798 = "stablehlo.add"(%arg81, %arg82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%798) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %631 = "stablehlo.reshape"(%630) : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %632 = "stablehlo.broadcast_in_dim"(%277) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %633 = "stablehlo.multiply"(%625, %632) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %634 = "stablehlo.add"(%543, %633) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %635 = "stablehlo.multiply"(%631, %281) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %636 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %637 = "stablehlo.broadcast_in_dim"(%636) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %638 = "stablehlo.divide"(%635, %637) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %639 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %640 = "stablehlo.reduce"(%638, %639) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg79: tensor<f32>, %arg80: tensor<f32>):
      %797 = "stablehlo.add"(%arg79, %arg80) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%797) : (tensor<f32>) -> ()
    }) : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %641 = "stablehlo.broadcast_in_dim"(%640) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %642 = "stablehlo.multiply"(%641, %267) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %643 = "stablehlo.add"(%634, %642) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %644 = "stablehlo.dot_general"(%643, %261) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<2x16x64xf32>) -> tensor<32x64xf32>
    %645 = "stablehlo.transpose"(%644) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %646 = "stablehlo.dot_general"(%643, %arg33) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<64x32xf32>) -> tensor<2x16x64xf32>
    %647 = "stablehlo.multiply"(%259#0, %646) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %648 = "stablehlo.multiply"(%646, %260) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %649 = "stablehlo.dot_general"(%647, %257) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %650 = "stablehlo.transpose"(%649) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %651 = "stablehlo.dot_general"(%647, %arg35) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %652 = "func.call"(%259#1, %259#2, %258, %648) <{callee = @silu_2}> : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %653 = "stablehlo.dot_general"(%652, %257) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %654 = "stablehlo.transpose"(%653) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %655 = "stablehlo.dot_general"(%652, %arg34) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %656 = "stablehlo.add"(%651, %655) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %657 = "stablehlo.multiply"(%254, %656) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %658 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %659 = "stablehlo.reduce"(%657, %658) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg77: tensor<f32>, %arg78: tensor<f32>):
      %796 = "stablehlo.add"(%arg77, %arg78) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%796) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %660 = "stablehlo.reshape"(%659) : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %661 = "stablehlo.broadcast_in_dim"(%255) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %662 = "stablehlo.multiply"(%656, %661) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %663 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %664 = "stablehlo.reduce"(%660, %663) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg75: tensor<f32>, %arg76: tensor<f32>):
      %795 = "stablehlo.add"(%arg75, %arg76) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%795) : (tensor<f32>) -> ()
    }) : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %665 = "stablehlo.multiply"(%234, %662) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %666 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %667 = "stablehlo.reduce"(%665, %666) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg73: tensor<f32>, %arg74: tensor<f32>):
      %794 = "stablehlo.add"(%arg73, %arg74) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%794) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %668 = "stablehlo.reshape"(%667) : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %669 = "stablehlo.broadcast_in_dim"(%248) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %670 = "stablehlo.multiply"(%662, %669) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %671 = "stablehlo.add"(%643, %670) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %672 = "stablehlo.multiply"(%668, %252) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %673 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %674 = "stablehlo.broadcast_in_dim"(%673) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %675 = "stablehlo.divide"(%672, %674) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %676 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %677 = "stablehlo.reduce"(%675, %676) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg71: tensor<f32>, %arg72: tensor<f32>):
      %793 = "stablehlo.add"(%arg71, %arg72) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%793) : (tensor<f32>) -> ()
    }) : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %678 = "stablehlo.broadcast_in_dim"(%677) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %679 = "stablehlo.multiply"(%678, %238) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %680 = "stablehlo.add"(%671, %679) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %681 = "stablehlo.dot_general"(%680, %232) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<32x32xf32>
    %682 = "stablehlo.transpose"(%681) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %683 = "stablehlo.dot_general"(%680, %arg37) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %684 = "stablehlo.reshape"(%683) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %685 = "stablehlo.transpose"(%684) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %686 = "stablehlo.dot_general"(%685, %225) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x8x16xf32>
    %687 = "stablehlo.transpose"(%686) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<2x4x8x16xf32>) -> tensor<2x4x16x8xf32>
    %688 = "stablehlo.dot_general"(%685, %197) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %689 = "stablehlo.broadcast_in_dim"(%229) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %690 = "stablehlo.multiply"(%688, %689) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %691 = "stablehlo.multiply"(%690, %220) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %692 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %693 = "stablehlo.reduce"(%691, %692) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg69: tensor<f32>, %arg70: tensor<f32>):
      %792 = "stablehlo.add"(%arg69, %arg70) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%792) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %694 = "stablehlo.reshape"(%693) : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %695 = "stablehlo.negate"(%694) : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %696 = "stablehlo.broadcast_in_dim"(%223) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %697 = "stablehlo.divide"(%688, %696) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %698 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %699 = "stablehlo.reduce"(%695, %698) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg67: tensor<f32>, %arg68: tensor<f32>):
      %791 = "stablehlo.add"(%arg67, %arg68) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%791) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x1xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %700 = "stablehlo.broadcast_in_dim"(%699) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x16xf32>
    %701 = "stablehlo.add"(%697, %700) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %702 = "stablehlo.multiply"(%701, %220) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %703 = "func.call"(%211#1, %702) <{callee = @_where_3}> : (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %704 = "stablehlo.broadcast_in_dim"(%200) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %705 = "stablehlo.divide"(%703, %704) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %706 = "stablehlo.dot_general"(%705, %156) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %707 = "stablehlo.dot_general"(%705, %195) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %708 = "stablehlo.reshape"(%687) : (tensor<2x4x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %709 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %710 = "stablehlo.reduce"(%708, %709) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg65: tensor<f32>, %arg66: tensor<f32>):
      %790 = "stablehlo.add"(%arg65, %arg66) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%790) : (tensor<f32>) -> ()
    }) : (tensor<2x2x2x16x8xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %711 = "stablehlo.reshape"(%706) : (tensor<2x4x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %712 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %713 = "stablehlo.reduce"(%711, %712) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg63: tensor<f32>, %arg64: tensor<f32>):
      %789 = "stablehlo.add"(%arg63, %arg64) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%789) : (tensor<f32>) -> ()
    }) : (tensor<2x2x2x16x8xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %714 = "stablehlo.broadcast_in_dim"(%190) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %715 = "stablehlo.multiply"(%713, %714) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %716 = "stablehlo.slice"(%715) <{limit_indices = array<i64: 2, 2, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %717 = "stablehlo.slice"(%715) <{limit_indices = array<i64: 2, 2, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %718 = "stablehlo.negate"(%716) : (tensor<2x2x16x4xf32>) -> tensor<2x2x16x4xf32>
    %719 = "stablehlo.broadcast_in_dim"(%185) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %720 = "stablehlo.multiply"(%713, %719) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %721 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %722 = "stablehlo.pad"(%718, %721) <{edge_padding_high = array<i64: 0, 0, 0, 0>, edge_padding_low = array<i64: 0, 0, 0, 4>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x2x16x4xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %723 = "stablehlo.add"(%720, %722) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %724 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %725 = "stablehlo.pad"(%717, %724) <{edge_padding_high = array<i64: 0, 0, 0, 4>, edge_padding_low = array<i64: 0, 0, 0, 0>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x2x16x4xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %726 = "stablehlo.add"(%723, %725) : (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
    %727 = "stablehlo.broadcast_in_dim"(%153) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %728 = "stablehlo.multiply"(%707, %727) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %729 = "stablehlo.slice"(%728) <{limit_indices = array<i64: 2, 4, 16, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %730 = "stablehlo.slice"(%728) <{limit_indices = array<i64: 2, 4, 16, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %731 = "stablehlo.negate"(%729) : (tensor<2x4x16x4xf32>) -> tensor<2x4x16x4xf32>
    %732 = "stablehlo.broadcast_in_dim"(%148) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %733 = "stablehlo.multiply"(%707, %732) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %734 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %735 = "stablehlo.pad"(%731, %734) <{edge_padding_high = array<i64: 0, 0, 0, 0>, edge_padding_low = array<i64: 0, 0, 0, 4>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x4x16x4xf32>, tensor<f32>) -> tensor<2x4x16x8xf32>
    %736 = "stablehlo.add"(%733, %735) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %737 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %738 = "stablehlo.pad"(%730, %737) <{edge_padding_high = array<i64: 0, 0, 0, 4>, edge_padding_low = array<i64: 0, 0, 0, 0>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x4x16x4xf32>, tensor<f32>) -> tensor<2x4x16x8xf32>
    %739 = "stablehlo.add"(%736, %738) : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %740 = "stablehlo.transpose"(%710) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x2x16x8xf32>) -> tensor<2x16x2x8xf32>
    %741 = "stablehlo.reshape"(%740) : (tensor<2x16x2x8xf32>) -> tensor<2x16x16xf32>
    %742 = "stablehlo.dot_general"(%741, %110) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x16xf32>, tensor<2x16x32xf32>) -> tensor<16x32xf32>
    %743 = "stablehlo.transpose"(%742) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %744 = "stablehlo.dot_general"(%741, %arg39) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x16xf32>, tensor<32x16xf32>) -> tensor<2x16x32xf32>
    %745 = "stablehlo.transpose"(%726) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x2x16x8xf32>) -> tensor<2x16x2x8xf32>
    %746 = "stablehlo.reshape"(%745) : (tensor<2x16x2x8xf32>) -> tensor<2x16x16xf32>
    %747 = "stablehlo.dot_general"(%746, %110) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x16xf32>, tensor<2x16x32xf32>) -> tensor<16x32xf32>
    %748 = "stablehlo.transpose"(%747) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %749 = "stablehlo.dot_general"(%746, %arg36) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x16xf32>, tensor<32x16xf32>) -> tensor<2x16x32xf32>
    %750 = "stablehlo.add"(%744, %749) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %751 = "stablehlo.transpose"(%739) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %752 = "stablehlo.reshape"(%751) : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %753 = "stablehlo.dot_general"(%752, %110) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<32x32xf32>
    %754 = "stablehlo.transpose"(%753) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %755 = "stablehlo.dot_general"(%752, %arg38) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %756 = "stablehlo.add"(%750, %755) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %757 = "stablehlo.multiply"(%107, %756) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %758 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %759 = "stablehlo.reduce"(%757, %758) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg61: tensor<f32>, %arg62: tensor<f32>):
      %788 = "stablehlo.add"(%arg61, %arg62) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%788) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %760 = "stablehlo.reshape"(%759) : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %761 = "stablehlo.broadcast_in_dim"(%108) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %762 = "stablehlo.multiply"(%756, %761) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %763 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %764 = "stablehlo.reduce"(%760, %763) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg59: tensor<f32>, %arg60: tensor<f32>):
      %787 = "stablehlo.add"(%arg59, %arg60) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%787) : (tensor<f32>) -> ()
    }) : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %765 = "stablehlo.multiply"(%87, %762) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %766 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %767 = "stablehlo.reduce"(%765, %766) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg57: tensor<f32>, %arg58: tensor<f32>):
      %786 = "stablehlo.add"(%arg57, %arg58) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%786) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %768 = "stablehlo.reshape"(%767) : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %769 = "stablehlo.broadcast_in_dim"(%101) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %770 = "stablehlo.multiply"(%762, %769) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %771 = "stablehlo.add"(%680, %770) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %772 = "stablehlo.multiply"(%768, %105) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %773 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %774 = "stablehlo.broadcast_in_dim"(%773) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %775 = "stablehlo.divide"(%772, %774) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %776 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %777 = "stablehlo.reduce"(%775, %776) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg55: tensor<f32>, %arg56: tensor<f32>):
      %785 = "stablehlo.add"(%arg55, %arg56) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%785) : (tensor<f32>) -> ()
    }) : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %778 = "stablehlo.broadcast_in_dim"(%777) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %779 = "stablehlo.multiply"(%778, %91) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %780 = "stablehlo.add"(%771, %779) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %781 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %782 = "stablehlo.broadcast_in_dim"(%781) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %783 = "stablehlo.scatter"(%782, %86, %780) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg53: tensor<f32>, %arg54: tensor<f32>):
      %784 = "stablehlo.add"(%arg53, %arg54) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%784) : (tensor<f32>) -> ()
    }) : (tensor<64x32xf32>, tensor<2x16x1xi32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    "func.return"(%472, %783, %764, %664, %645, %654, %650, %748, %682, %754, %743, %627, %527, %508, %517, %513, %611, %545, %617, %606, %482, %491) : (tensor<f32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x64xf32>, tensor<32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>), res_attrs = [{}, {}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg27: tensor<16x16xi1>, %arg28: tensor<2x4x16x16xf32>, %arg29: tensor<f32>):
    %76 = "stablehlo.broadcast_in_dim"(%arg27) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x16xi1>) -> tensor<2x4x16x16xi1>
    %77 = "stablehlo.broadcast_in_dim"(%arg29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %78 = "stablehlo.select"(%76, %arg28, %77) : (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    "func.return"(%78, %76) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>), res_attrs = [{}, {}, {}], sym_name = "silu", sym_visibility = "private"}> ({
  ^bb0(%arg26: tensor<2x16x64xf32>):
    %63 = "stablehlo.negate"(%arg26) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %64 = "stablehlo.exponential"(%63) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %65 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %66 = "stablehlo.broadcast_in_dim"(%65) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x64xf32>
    %67 = "stablehlo.add"(%66, %64) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %68 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %69 = "stablehlo.broadcast_in_dim"(%68) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x64xf32>
    %70 = "stablehlo.divide"(%69, %67) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %71 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %72 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x64xf32>
    %73 = "stablehlo.subtract"(%72, %70) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %74 = "stablehlo.multiply"(%70, %73) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %75 = "stablehlo.multiply"(%arg26, %70) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    "func.return"(%75, %74, %70) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x1xf32>), res_attrs = [{}, {}, {}], sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg21: tensor<2x16x64xf32>):
    %46 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %47 = "stablehlo.reduce"(%arg21, %46) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg24: tensor<f32>, %arg25: tensor<f32>):
      %62 = "stablehlo.maximum"(%arg24, %arg25) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%62) : (tensor<f32>) -> ()
    }) : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %48 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16xf32>
    %50 = "stablehlo.maximum"(%49, %47) : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    %51 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %52 = "stablehlo.broadcast_in_dim"(%51) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %53 = "stablehlo.subtract"(%arg21, %52) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %54 = "stablehlo.exponential"(%53) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %55 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %56 = "stablehlo.reduce"(%54, %55) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg22: tensor<f32>, %arg23: tensor<f32>):
      %61 = "stablehlo.add"(%arg22, %arg23) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%61) : (tensor<f32>) -> ()
    }) : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %58 = "stablehlo.log"(%57) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %59 = "stablehlo.broadcast_in_dim"(%58) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %60 = "stablehlo.subtract"(%53, %59) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    "func.return"(%60, %54, %57) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> (tensor<2x16x1xf32>, tensor<2x16x1x1xi32>), res_attrs = [{}, {}], sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg17: tensor<2x16x64xf32>, %arg18: tensor<2x16x1xi32>):
    %23 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16x1xi32>
    %25 = "stablehlo.compare"(%arg18, %24) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x16x1xi32>, tensor<2x16x1xi32>) -> tensor<2x16x1xi1>
    %26 = "stablehlo.constant"() <{value = dense<64> : tensor<i32>}> : () -> tensor<i32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16x1xi32>
    %28 = "stablehlo.add"(%arg18, %27) : (tensor<2x16x1xi32>, tensor<2x16x1xi32>) -> tensor<2x16x1xi32>
    %29 = "stablehlo.select"(%25, %28, %arg18) : (tensor<2x16x1xi1>, tensor<2x16x1xi32>, tensor<2x16x1xi32>) -> tensor<2x16x1xi32>
    %30 = "stablehlo.reshape"(%29) : (tensor<2x16x1xi32>) -> tensor<2x16x1x1xi32>
    %31 = "stablehlo.constant"() <{value = dense<63> : tensor<1xi32>}> : () -> tensor<1xi32>
    %32 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16x1x1xi32>
    %34 = "stablehlo.compare"(%30, %33) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<2x16x1x1xi32>, tensor<2x16x1x1xi32>) -> tensor<2x16x1x1xi1>
    %35 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64: 3>}> : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x1xi32>) -> tensor<2x16x1x1xi32>
    %37 = "stablehlo.compare"(%30, %36) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x16x1x1xi32>, tensor<2x16x1x1xi32>) -> tensor<2x16x1x1xi1>
    %38 = "stablehlo.and"(%34, %37) : (tensor<2x16x1x1xi1>, tensor<2x16x1x1xi1>) -> tensor<2x16x1x1xi1>
    %39 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %40 = "stablehlo.reduce"(%38, %39) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg19: tensor<i1>, %arg20: tensor<i1>):
      %45 = "stablehlo.and"(%arg19, %arg20) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%45) : (tensor<i1>) -> ()
    }) : (tensor<2x16x1x1xi1>, tensor<i1>) -> tensor<2x16x1xi1>
    %41 = "stablehlo.gather"(%arg17, %30) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<2x16x64xf32>, tensor<2x16x1x1xi32>) -> tensor<2x16x1xf32>
    %42 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %44 = "stablehlo.select"(%40, %41, %43) : (tensor<2x16x1xi1>, tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    "func.return"(%44, %30) : (tensor<2x16x1xf32>, tensor<2x16x1x1xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x16x1x1xi32>, tensor<2x16x1xf32>) -> tensor<2x16x64xf32>, res_attrs = [{}], sym_name = "take_along_axis_0", sym_visibility = "private"}> ({
  ^bb0(%arg13: tensor<2x16x1x1xi32>, %arg14: tensor<2x16x1xf32>):
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x64xf32>
    %21 = "stablehlo.scatter"(%20, %arg13, %arg14) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %22 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%22) : (tensor<f32>) -> ()
    }) : (tensor<2x16x64xf32>, tensor<2x16x1x1xi32>, tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    "func.return"(%21) : (tensor<2x16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<2x16x64xf32>, tensor<2x16x1xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>, res_attrs = [{}], sym_name = "log_softmax_1", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<2x16x64xf32>, %arg7: tensor<2x16x1xf32>, %arg8: tensor<2x16x64xf32>):
    %7 = "stablehlo.negate"(%arg8) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.reduce"(%7, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %18 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%18) : (tensor<f32>) -> ()
    }) : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %10 = "stablehlo.reshape"(%9) : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %11 = "stablehlo.divide"(%10, %arg7) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %12 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.reduce"(%11, %12) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %17 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%17) : (tensor<f32>) -> ()
    }) : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x64xf32>
    %15 = "stablehlo.multiply"(%14, %arg6) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %16 = "stablehlo.add"(%arg8, %15) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    "func.return"(%16) : (tensor<2x16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}, {}], function_type = (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>, res_attrs = [{}], sym_name = "silu_2", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<2x16x64xf32>, %arg3: tensor<2x16x64xf32>, %arg4: tensor<2x16x64xf32>, %arg5: tensor<2x16x64xf32>):
    %3 = "stablehlo.multiply"(%arg4, %arg5) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %4 = "stablehlo.multiply"(%arg5, %arg3) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %5 = "stablehlo.multiply"(%3, %arg2) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %6 = "stablehlo.add"(%4, %5) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    "func.return"(%6) : (tensor<2x16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>, res_attrs = [{}], sym_name = "_where_3", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x4x16x16xi1>, %arg1: tensor<2x4x16x16xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %2 = "stablehlo.select"(%arg0, %arg1, %1) : (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    "func.return"(%2) : (tensor<2x4x16x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

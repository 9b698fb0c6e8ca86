"builtin.module"() <{sym_name = "jit_loss"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}], function_type = (tensor<3x32x128xf32>, tensor<3x128xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x128x32xf32>, tensor<3x32xf32>, tensor<3x32x32xf32>, tensor<3x32xf32>, tensor<3x32x96xf32>, tensor<3x96xf32>, tensor<32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<64x32xf32>, tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg51: tensor<3x32x128xf32>, %arg52: tensor<3x128xf32>, %arg53: tensor<3x32xf32>, %arg54: tensor<3x32xf32>, %arg55: tensor<3x32xf32>, %arg56: tensor<3x32xf32>, %arg57: tensor<3x128x32xf32>, %arg58: tensor<3x32xf32>, %arg59: tensor<3x32x32xf32>, %arg60: tensor<3x32xf32>, %arg61: tensor<3x32x96xf32>, %arg62: tensor<3x96xf32>, %arg63: tensor<32xf32>, %arg64: tensor<32xf32>, %arg65: tensor<16x32xf32>, %arg66: tensor<64x32xf32>, %arg67: tensor<2x16xi32>, %arg68: tensor<2x16xi32>):
    %207 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %208 = "stablehlo.broadcast_in_dim"(%207) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16xi32>
    %209 = "stablehlo.compare"(%arg67, %208) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi1>
    %210 = "stablehlo.constant"() <{value = dense<64> : tensor<i32>}> : () -> tensor<i32>
    %211 = "stablehlo.broadcast_in_dim"(%210) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x16xi32>
    %212 = "stablehlo.add"(%arg67, %211) : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi32>
    %213 = "stablehlo.select"(%209, %212, %arg67) : (tensor<2x16xi1>, tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi32>
    %214 = "stablehlo.broadcast_in_dim"(%213) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %215 = "stablehlo.gather"(%arg66, %214) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<2x16x1xi32>) -> tensor<2x16x32xf32>
    %216 = "stablehlo.broadcast_in_dim"(%arg65) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %217 = "stablehlo.broadcast_in_dim"(%216) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x16x32xf32>) -> tensor<2x16x32xf32>
    %218 = "stablehlo.add"(%215, %217) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %219 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %220:14 = "stablehlo.while"(%arg51, %arg52, %arg53, %arg54, %arg55, %arg56, %arg57, %arg58, %arg59, %arg60, %arg61, %arg62, %219, %218) ({
    ^bb0(%arg89: tensor<3x32x128xf32>, %arg90: tensor<3x128xf32>, %arg91: tensor<3x32xf32>, %arg92: tensor<3x32xf32>, %arg93: tensor<3x32xf32>, %arg94: tensor<3x32xf32>, %arg95: tensor<3x128x32xf32>, %arg96: tensor<3x32xf32>, %arg97: tensor<3x32x32xf32>, %arg98: tensor<3x32xf32>, %arg99: tensor<3x32x96xf32>, %arg100: tensor<3x96xf32>, %arg101: tensor<i32>, %arg102: tensor<2x16x32xf32>):
      %279 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %280 = "stablehlo.compare"(%arg101, %279) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%280) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg75: tensor<3x32x128xf32>, %arg76: tensor<3x128xf32>, %arg77: tensor<3x32xf32>, %arg78: tensor<3x32xf32>, %arg79: tensor<3x32xf32>, %arg80: tensor<3x32xf32>, %arg81: tensor<3x128x32xf32>, %arg82: tensor<3x32xf32>, %arg83: tensor<3x32x32xf32>, %arg84: tensor<3x32xf32>, %arg85: tensor<3x32x96xf32>, %arg86: tensor<3x96xf32>, %arg87: tensor<i32>, %arg88: tensor<2x16x32xf32>):
      %264 = "func.call"(%arg75, %arg87) <{callee = @dynamic_index_in_dim}> : (tensor<3x32x128xf32>, tensor<i32>) -> tensor<32x128xf32>
      %265 = "func.call"(%arg76, %arg87) <{callee = @dynamic_index_in_dim_0}> : (tensor<3x128xf32>, tensor<i32>) -> tensor<128xf32>
      %266 = "func.call"(%arg77, %arg87) <{callee = @dynamic_index_in_dim_1}> : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %267 = "func.call"(%arg78, %arg87) <{callee = @dynamic_index_in_dim_1}> : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %268 = "func.call"(%arg79, %arg87) <{callee = @dynamic_index_in_dim_1}> : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %269 = "func.call"(%arg80, %arg87) <{callee = @dynamic_index_in_dim_1}> : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %270 = "func.call"(%arg81, %arg87) <{callee = @dynamic_index_in_dim_2}> : (tensor<3x128x32xf32>, tensor<i32>) -> tensor<128x32xf32>
      %271 = "func.call"(%arg82, %arg87) <{callee = @dynamic_index_in_dim_1}> : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %272 = "func.call"(%arg83, %arg87) <{callee = @dynamic_index_in_dim_3}> : (tensor<3x32x32xf32>, tensor<i32>) -> tensor<32x32xf32>
      %273 = "func.call"(%arg84, %arg87) <{callee = @dynamic_index_in_dim_1}> : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %274 = "func.call"(%arg85, %arg87) <{callee = @dynamic_index_in_dim_4}> : (tensor<3x32x96xf32>, tensor<i32>) -> tensor<32x96xf32>
      %275 = "func.call"(%arg86, %arg87) <{callee = @dynamic_index_in_dim_5}> : (tensor<3x96xf32>, tensor<i32>) -> tensor<96xf32>
      %276 = "func.call"(%arg88, %264, %265, %266, %267, %268, %269, %270, %271, %272, %273, %274, %275) <{callee = @closed_call}> : (tensor<2x16x32xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x96xf32>, tensor<96xf32>) -> tensor<2x16x32xf32>
      %277 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %278 = "stablehlo.add"(%arg87, %277) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg75, %arg76, %arg77, %arg78, %arg79, %arg80, %arg81, %arg82, %arg83, %arg84, %arg85, %arg86, %278, %276) : (tensor<3x32x128xf32>, tensor<3x128xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x128x32xf32>, tensor<3x32xf32>, tensor<3x32x32xf32>, tensor<3x32xf32>, tensor<3x32x96xf32>, tensor<3x96xf32>, tensor<i32>, tensor<2x16x32xf32>) -> ()
    }) : (tensor<3x32x128xf32>, tensor<3x128xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x128x32xf32>, tensor<3x32xf32>, tensor<3x32x32xf32>, tensor<3x32xf32>, tensor<3x32x96xf32>, tensor<3x96xf32>, tensor<i32>, tensor<2x16x32xf32>) -> (tensor<3x32x128xf32>, tensor<3x128xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x128x32xf32>, tensor<3x32xf32>, tensor<3x32x32xf32>, tensor<3x32xf32>, tensor<3x32x96xf32>, tensor<3x96xf32>, tensor<i32>, tensor<2x16x32xf32>)
    %221 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %222 = "stablehlo.reduce"(%220#13, %221) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg73: tensor<f32>, %arg74: tensor<f32>):
      %263 = "stablehlo.add"(%arg73, %arg74) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%263) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %223 = "stablehlo.broadcast_in_dim"(%222) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %224 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %225 = "stablehlo.broadcast_in_dim"(%224) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %226 = "stablehlo.divide"(%223, %225) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %227 = "stablehlo.broadcast_in_dim"(%226) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %228 = "stablehlo.subtract"(%220#13, %227) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %229 = "chlo.square"(%228) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %230 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %231 = "stablehlo.reduce"(%229, %230) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg71: tensor<f32>, %arg72: tensor<f32>):
      %262 = "stablehlo.add"(%arg71, %arg72) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%262) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %232 = "stablehlo.broadcast_in_dim"(%231) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %233 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %234 = "stablehlo.broadcast_in_dim"(%233) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %235 = "stablehlo.divide"(%232, %234) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %236 = "stablehlo.broadcast_in_dim"(%226) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %237 = "stablehlo.subtract"(%220#13, %236) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %238 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %239 = "stablehlo.broadcast_in_dim"(%238) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %240 = "stablehlo.add"(%235, %239) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %241 = "stablehlo.rsqrt"(%240) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %242 = "stablehlo.broadcast_in_dim"(%241) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %243 = "stablehlo.multiply"(%237, %242) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %244 = "stablehlo.broadcast_in_dim"(%arg64) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %245 = "stablehlo.broadcast_in_dim"(%244) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %246 = "stablehlo.multiply"(%243, %245) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %247 = "stablehlo.broadcast_in_dim"(%arg63) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %248 = "stablehlo.broadcast_in_dim"(%247) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %249 = "stablehlo.add"(%246, %248) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %250 = "stablehlo.transpose"(%arg66) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %251 = "stablehlo.dot_general"(%249, %250) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %252 = "func.call"(%251) <{callee = @log_softmax}> : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %253 = "stablehlo.broadcast_in_dim"(%arg68) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %254 = "func.call"(%252, %253) <{callee = @take_along_axis}> : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> tensor<2x16x1xf32>
    %255 = "stablehlo.reshape"(%254) : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %256 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %257 = "stablehlo.reduce"(%255, %256) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg69: tensor<f32>, %arg70: tensor<f32>):
      %261 = "stablehlo.add"(%arg69, %arg70) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%261) : (tensor<f32>) -> ()
    }) : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %258 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %259 = "stablehlo.divide"(%257, %258) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %260 = "stablehlo.negate"(%259) : (tensor<f32>) -> tensor<f32>
    "func.return"(%260) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x32x128xf32>, tensor<i32>) -> tensor<32x128xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg49: tensor<3x32x128xf32>, %arg50: tensor<i32>):
    %203 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %204 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %205 = "stablehlo.dynamic_slice"(%arg49, %arg50, %203, %204) <{slice_sizes = array<i64: 1, 32, 128>}> : (tensor<3x32x128xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x128xf32>
    %206 = "stablehlo.reshape"(%205) : (tensor<1x32x128xf32>) -> tensor<32x128xf32>
    "func.return"(%206) : (tensor<32x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x128xf32>, tensor<i32>) -> tensor<128xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_0", sym_visibility = "private"}> ({
  ^bb0(%arg47: tensor<3x128xf32>, %arg48: tensor<i32>):
    %200 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %201 = "stablehlo.dynamic_slice"(%arg47, %arg48, %200) <{slice_sizes = array<i64: 1, 128>}> : (tensor<3x128xf32>, tensor<i32>, tensor<i32>) -> tensor<1x128xf32>
    %202 = "stablehlo.reshape"(%201) : (tensor<1x128xf32>) -> tensor<128xf32>
    "func.return"(%202) : (tensor<128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_1", sym_visibility = "private"}> ({
  ^bb0(%arg45: tensor<3x32xf32>, %arg46: tensor<i32>):
    %197 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %198 = "stablehlo.dynamic_slice"(%arg45, %arg46, %197) <{slice_sizes = array<i64: 1, 32>}> : (tensor<3x32xf32>, tensor<i32>, tensor<i32>) -> tensor<1x32xf32>
    %199 = "stablehlo.reshape"(%198) : (tensor<1x32xf32>) -> tensor<32xf32>
    "func.return"(%199) : (tensor<32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x128x32xf32>, tensor<i32>) -> tensor<128x32xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_2", sym_visibility = "private"}> ({
  ^bb0(%arg43: tensor<3x128x32xf32>, %arg44: tensor<i32>):
    %193 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %194 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %195 = "stablehlo.dynamic_slice"(%arg43, %arg44, %193, %194) <{slice_sizes = array<i64: 1, 128, 32>}> : (tensor<3x128x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x128x32xf32>
    %196 = "stablehlo.reshape"(%195) : (tensor<1x128x32xf32>) -> tensor<128x32xf32>
    "func.return"(%196) : (tensor<128x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x32x32xf32>, tensor<i32>) -> tensor<32x32xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_3", sym_visibility = "private"}> ({
  ^bb0(%arg41: tensor<3x32x32xf32>, %arg42: tensor<i32>):
    %189 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %190 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %191 = "stablehlo.dynamic_slice"(%arg41, %arg42, %189, %190) <{slice_sizes = array<i64: 1, 32, 32>}> : (tensor<3x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x32xf32>
    %192 = "stablehlo.reshape"(%191) : (tensor<1x32x32xf32>) -> tensor<32x32xf32>
    "func.return"(%192) : (tensor<32x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x32x96xf32>, tensor<i32>) -> tensor<32x96xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_4", sym_visibility = "private"}> ({
  ^bb0(%arg39: tensor<3x32x96xf32>, %arg40: tensor<i32>):
    %185 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %186 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %187 = "stablehlo.dynamic_slice"(%arg39, %arg40, %185, %186) <{slice_sizes = array<i64: 1, 32, 96>}> : (tensor<3x32x96xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x96xf32>
    %188 = "stablehlo.reshape"(%187) : (tensor<1x32x96xf32>) -> tensor<32x96xf32>
    "func.return"(%188) : (tensor<32x96xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x96xf32>, tensor<i32>) -> tensor<96xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_5", sym_visibility = "private"}> ({
  ^bb0(%arg37: tensor<3x96xf32>, %arg38: tensor<i32>):
    %182 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %183 = "stablehlo.dynamic_slice"(%arg37, %arg38, %182) <{slice_sizes = array<i64: 1, 96>}> : (tensor<3x96xf32>, tensor<i32>, tensor<i32>) -> tensor<1x96xf32>
    %184 = "stablehlo.reshape"(%183) : (tensor<1x96xf32>) -> tensor<96xf32>
    "func.return"(%184) : (tensor<96xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x16x32xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x96xf32>, tensor<96xf32>) -> tensor<2x16x32xf32>, res_attrs = [{}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg12: tensor<2x16x32xf32>, %arg13: tensor<32x128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<32xf32>, %arg16: tensor<32xf32>, %arg17: tensor<32xf32>, %arg18: tensor<32xf32>, %arg19: tensor<128x32xf32>, %arg20: tensor<32xf32>, %arg21: tensor<32x32xf32>, %arg22: tensor<32xf32>, %arg23: tensor<32x96xf32>, %arg24: tensor<96xf32>):
    %43 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %44 = "stablehlo.reduce"(%arg12, %43) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg35: tensor<f32>, %arg36: tensor<f32>):
      %181 = "stablehlo.add"(%arg35, %arg36) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%181) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %46 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %47 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %48 = "stablehlo.divide"(%45, %47) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %50 = "stablehlo.subtract"(%arg12, %49) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %51 = "chlo.square"(%50) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %52 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %53 = "stablehlo.reduce"(%51, %52) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg33: tensor<f32>, %arg34: tensor<f32>):
      %180 = "stablehlo.add"(%arg33, %arg34) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%180) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %55 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %56 = "stablehlo.broadcast_in_dim"(%55) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %57 = "stablehlo.divide"(%54, %56) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %58 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %59 = "stablehlo.subtract"(%arg12, %58) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %60 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %62 = "stablehlo.add"(%57, %61) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %63 = "stablehlo.rsqrt"(%62) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %64 = "stablehlo.broadcast_in_dim"(%63) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %65 = "stablehlo.multiply"(%59, %64) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %66 = "stablehlo.broadcast_in_dim"(%arg16) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %68 = "stablehlo.multiply"(%65, %67) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %69 = "stablehlo.broadcast_in_dim"(%arg15) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %70 = "stablehlo.broadcast_in_dim"(%69) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %71 = "stablehlo.add"(%68, %70) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %72 = "stablehlo.dot_general"(%71, %arg23) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x96xf32>) -> tensor<2x16x96xf32>
    %73 = "stablehlo.broadcast_in_dim"(%arg24) <{broadcast_dimensions = array<i64: 2>}> : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %74 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x96xf32>) -> tensor<2x16x96xf32>
    %75 = "stablehlo.add"(%72, %74) : (tensor<2x16x96xf32>, tensor<2x16x96xf32>) -> tensor<2x16x96xf32>
    %76 = "stablehlo.slice"(%75) <{limit_indices = array<i64: 2, 16, 32>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %77 = "stablehlo.slice"(%75) <{limit_indices = array<i64: 2, 16, 64>, start_indices = array<i64: 0, 0, 32>, strides = array<i64: 1, 1, 1>}> : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %78 = "stablehlo.slice"(%75) <{limit_indices = array<i64: 2, 16, 96>, start_indices = array<i64: 0, 0, 64>, strides = array<i64: 1, 1, 1>}> : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %79 = "stablehlo.reshape"(%76) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %80 = "stablehlo.transpose"(%79) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %81 = "stablehlo.reshape"(%77) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %82 = "stablehlo.transpose"(%81) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %83 = "stablehlo.reshape"(%78) : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %84 = "stablehlo.transpose"(%83) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %85 = "stablehlo.dot_general"(%80, %82) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %86 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %87 = "stablehlo.sqrt"(%86) : (tensor<f32>) -> tensor<f32>
    %88 = "stablehlo.broadcast_in_dim"(%87) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %89 = "stablehlo.divide"(%85, %88) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %90 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %91 = "stablehlo.broadcast_in_dim"(%90) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %92 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %93 = "stablehlo.broadcast_in_dim"(%92) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xi32>) -> tensor<1x16xi32>
    %94 = "stablehlo.broadcast_in_dim"(%91) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %95 = "stablehlo.broadcast_in_dim"(%93) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %96 = "stablehlo.compare"(%94, %95) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %97 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %98 = "func.call"(%96, %89, %97) <{callee = @_where}> : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %99 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %100 = "stablehlo.reduce"(%98, %99) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg31: tensor<f32>, %arg32: tensor<f32>):
      %179 = "stablehlo.maximum"(%arg31, %arg32) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%179) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %101 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %102 = "stablehlo.broadcast_in_dim"(%101) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %103 = "stablehlo.maximum"(%102, %100) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %104 = "stablehlo.broadcast_in_dim"(%103) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %105 = "stablehlo.broadcast_in_dim"(%104) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %106 = "stablehlo.subtract"(%98, %105) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %107 = "stablehlo.exponential"(%106) : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %108 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %109 = "stablehlo.reduce"(%107, %108) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %178 = "stablehlo.add"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%178) : (tensor<f32>) -> ()
    }) : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %110 = "stablehlo.broadcast_in_dim"(%109) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %111 = "stablehlo.broadcast_in_dim"(%110) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %112 = "stablehlo.divide"(%107, %111) : (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %113 = "stablehlo.dot_general"(%112, %84) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %114 = "stablehlo.transpose"(%113) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %115 = "stablehlo.reshape"(%114) : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %116 = "stablehlo.dot_general"(%115, %arg21) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %117 = "stablehlo.add"(%arg12, %116) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %118 = "stablehlo.broadcast_in_dim"(%arg22) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %119 = "stablehlo.broadcast_in_dim"(%118) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %120 = "stablehlo.add"(%117, %119) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %121 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %122 = "stablehlo.reduce"(%120, %121) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %177 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%177) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %123 = "stablehlo.broadcast_in_dim"(%122) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %124 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %125 = "stablehlo.broadcast_in_dim"(%124) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %126 = "stablehlo.divide"(%123, %125) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %127 = "stablehlo.broadcast_in_dim"(%126) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %128 = "stablehlo.subtract"(%120, %127) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %129 = "chlo.square"(%128) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %130 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %131 = "stablehlo.reduce"(%129, %130) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg25: tensor<f32>, %arg26: tensor<f32>):
      %176 = "stablehlo.add"(%arg25, %arg26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%176) : (tensor<f32>) -> ()
    }) : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %132 = "stablehlo.broadcast_in_dim"(%131) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %133 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %134 = "stablehlo.broadcast_in_dim"(%133) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %135 = "stablehlo.divide"(%132, %134) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %136 = "stablehlo.broadcast_in_dim"(%126) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %137 = "stablehlo.subtract"(%120, %136) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %138 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %139 = "stablehlo.broadcast_in_dim"(%138) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x1xf32>
    %140 = "stablehlo.add"(%135, %139) : (tensor<2x16x1xf32>, tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %141 = "stablehlo.rsqrt"(%140) : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
    %142 = "stablehlo.broadcast_in_dim"(%141) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %143 = "stablehlo.multiply"(%137, %142) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %144 = "stablehlo.broadcast_in_dim"(%arg18) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %145 = "stablehlo.broadcast_in_dim"(%144) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %146 = "stablehlo.multiply"(%143, %145) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %147 = "stablehlo.broadcast_in_dim"(%arg17) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %148 = "stablehlo.broadcast_in_dim"(%147) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %149 = "stablehlo.add"(%146, %148) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %150 = "stablehlo.dot_general"(%149, %arg13) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x32xf32>, tensor<32x128xf32>) -> tensor<2x16x128xf32>
    %151 = "stablehlo.broadcast_in_dim"(%arg14) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %152 = "stablehlo.broadcast_in_dim"(%151) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x128xf32>) -> tensor<2x16x128xf32>
    %153 = "stablehlo.add"(%150, %152) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %154 = "stablehlo.multiply"(%153, %153) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %155 = "stablehlo.multiply"(%154, %153) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %156 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %157 = "stablehlo.broadcast_in_dim"(%156) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %158 = "stablehlo.multiply"(%157, %155) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %159 = "stablehlo.add"(%153, %158) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %160 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %161 = "stablehlo.broadcast_in_dim"(%160) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %162 = "stablehlo.multiply"(%161, %159) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %163 = "stablehlo.tanh"(%162) : (tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %164 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %165 = "stablehlo.broadcast_in_dim"(%164) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %166 = "stablehlo.add"(%165, %163) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %167 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %168 = "stablehlo.broadcast_in_dim"(%167) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x128xf32>
    %169 = "stablehlo.multiply"(%168, %166) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %170 = "stablehlo.multiply"(%153, %169) : (tensor<2x16x128xf32>, tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
    %171 = "stablehlo.dot_general"(%170, %arg19) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x16x128xf32>, tensor<128x32xf32>) -> tensor<2x16x32xf32>
    %172 = "stablehlo.add"(%120, %171) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %173 = "stablehlo.broadcast_in_dim"(%arg20) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %174 = "stablehlo.broadcast_in_dim"(%173) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %175 = "stablehlo.add"(%172, %174) : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    "func.return"(%175) : (tensor<2x16x32xf32>) -> ()
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

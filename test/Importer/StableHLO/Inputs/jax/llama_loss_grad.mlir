module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<64x32xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<32x64xf32>, %arg6: tensor<32x16xf32>, %arg7: tensor<32x32xf32>, %arg8: tensor<32x32xf32>, %arg9: tensor<32x16xf32>, %arg10: tensor<32xf32>, %arg11: tensor<32xf32>, %arg12: tensor<64x32xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<32x64xf32>, %arg15: tensor<32x16xf32>, %arg16: tensor<32x32xf32>, %arg17: tensor<32x32xf32>, %arg18: tensor<32x16xf32>, %arg19: tensor<32x64xf32>, %arg20: tensor<32xf32>, %arg21: tensor<2x16xi32>, %arg22: tensor<2x16xi32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<64x32xf32> {jax.result_info = "result[1]['embed']"}, tensor<32xf32> {jax.result_info = "result[1]['layers'][0]['attn_norm']"}, tensor<32xf32> {jax.result_info = "result[1]['layers'][0]['ffn_norm']"}, tensor<64x32xf32> {jax.result_info = "result[1]['layers'][0]['w_down']"}, tensor<32x64xf32> {jax.result_info = "result[1]['layers'][0]['w_gate']"}, tensor<32x64xf32> {jax.result_info = "result[1]['layers'][0]['w_up']"}, tensor<32x16xf32> {jax.result_info = "result[1]['layers'][0]['wk']"}, tensor<32x32xf32> {jax.result_info = "result[1]['layers'][0]['wo']"}, tensor<32x32xf32> {jax.result_info = "result[1]['layers'][0]['wq']"}, tensor<32x16xf32> {jax.result_info = "result[1]['layers'][0]['wv']"}, tensor<32xf32> {jax.result_info = "result[1]['layers'][1]['attn_norm']"}, tensor<32xf32> {jax.result_info = "result[1]['layers'][1]['ffn_norm']"}, tensor<64x32xf32> {jax.result_info = "result[1]['layers'][1]['w_down']"}, tensor<32x64xf32> {jax.result_info = "result[1]['layers'][1]['w_gate']"}, tensor<32x64xf32> {jax.result_info = "result[1]['layers'][1]['w_up']"}, tensor<32x16xf32> {jax.result_info = "result[1]['layers'][1]['wk']"}, tensor<32x32xf32> {jax.result_info = "result[1]['layers'][1]['wo']"}, tensor<32x32xf32> {jax.result_info = "result[1]['layers'][1]['wq']"}, tensor<32x16xf32> {jax.result_info = "result[1]['layers'][1]['wv']"}, tensor<32x64xf32> {jax.result_info = "result[1]['lm_head']"}, tensor<32xf32> {jax.result_info = "result[1]['norm']"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
    %1 = stablehlo.compare LT, %arg21, %0, SIGNED : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
    %3 = stablehlo.add %arg21, %2 : tensor<2x16xi32>
    %4 = stablehlo.select %1, %3, %arg21 : tensor<2x16xi1>, tensor<2x16xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<2x16x1xi32>) -> tensor<2x16x32xf32>
    %7 = chlo.square %6 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16x32xf32>
    %9 = stablehlo.multiply %8, %6 : tensor<2x16x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %13 = stablehlo.divide %11, %12 : tensor<2x16x1xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %15 = stablehlo.add %13, %14 : tensor<2x16x1xf32>
    %16 = stablehlo.rsqrt %15 : tensor<2x16x1xf32>
    %17 = stablehlo.divide %16, %15 : tensor<2x16x1xf32>
    %cst_4 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %19 = stablehlo.multiply %18, %17 : tensor<2x16x1xf32>
    %20 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %21 = stablehlo.multiply %6, %20 : tensor<2x16x32xf32>
    %22 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %24 = stablehlo.multiply %21, %23 : tensor<2x16x32xf32>
    %25 = stablehlo.dot_general %24, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %26 = stablehlo.reshape %25 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %27 = stablehlo.transpose %26, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %28 = stablehlo.dot_general %24, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %29 = stablehlo.reshape %28 : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %30 = stablehlo.transpose %29, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %31 = stablehlo.dot_general %24, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %32 = stablehlo.reshape %31 : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %33 = stablehlo.transpose %32, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %34 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %36 = stablehlo.multiply %35, %34 : tensor<4xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %38 = stablehlo.add %37, %36 : tensor<4xf32>
    %cst_7 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %40 = stablehlo.divide %38, %39 : tensor<4xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %42 = stablehlo.power %41, %40 : tensor<4xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %44 = stablehlo.divide %43, %42 : tensor<4xf32>
    %45 = stablehlo.iota dim = 0 : tensor<16xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %47 = stablehlo.broadcast_in_dim %44, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %48 = stablehlo.broadcast_in_dim %46, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %49 = stablehlo.broadcast_in_dim %47, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %50 = stablehlo.multiply %48, %49 : tensor<16x4xf32>
    %51 = stablehlo.cosine %50 : tensor<16x4xf32>
    %52 = stablehlo.concatenate %51, %51, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %53 = stablehlo.sine %50 : tensor<16x4xf32>
    %54 = stablehlo.concatenate %53, %53, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %55 = stablehlo.slice %27 [0:2, 0:4, 0:16, 0:4] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %56 = stablehlo.slice %27 [0:2, 0:4, 0:16, 4:8] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %57 = stablehlo.broadcast_in_dim %52, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %59 = stablehlo.multiply %27, %58 : tensor<2x4x16x8xf32>
    %60 = stablehlo.negate %56 : tensor<2x4x16x4xf32>
    %61 = stablehlo.concatenate %60, %55, dim = 3 : (tensor<2x4x16x4xf32>, tensor<2x4x16x4xf32>) -> tensor<2x4x16x8xf32>
    %62 = stablehlo.broadcast_in_dim %54, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %64 = stablehlo.multiply %61, %63 : tensor<2x4x16x8xf32>
    %65 = stablehlo.add %59, %64 : tensor<2x4x16x8xf32>
    %66 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %68 = stablehlo.multiply %67, %66 : tensor<4xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %70 = stablehlo.add %69, %68 : tensor<4xf32>
    %cst_12 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %72 = stablehlo.divide %70, %71 : tensor<4xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %73 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %74 = stablehlo.power %73, %72 : tensor<4xf32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %76 = stablehlo.divide %75, %74 : tensor<4xf32>
    %77 = stablehlo.iota dim = 0 : tensor<16xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %79 = stablehlo.broadcast_in_dim %76, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %80 = stablehlo.broadcast_in_dim %78, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %81 = stablehlo.broadcast_in_dim %79, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %82 = stablehlo.multiply %80, %81 : tensor<16x4xf32>
    %83 = stablehlo.cosine %82 : tensor<16x4xf32>
    %84 = stablehlo.concatenate %83, %83, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %85 = stablehlo.sine %82 : tensor<16x4xf32>
    %86 = stablehlo.concatenate %85, %85, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %87 = stablehlo.slice %30 [0:2, 0:2, 0:16, 0:4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %88 = stablehlo.slice %30 [0:2, 0:2, 0:16, 4:8] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %89 = stablehlo.broadcast_in_dim %84, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %91 = stablehlo.multiply %30, %90 : tensor<2x2x16x8xf32>
    %92 = stablehlo.negate %88 : tensor<2x2x16x4xf32>
    %93 = stablehlo.concatenate %92, %87, dim = 3 : (tensor<2x2x16x4xf32>, tensor<2x2x16x4xf32>) -> tensor<2x2x16x8xf32>
    %94 = stablehlo.broadcast_in_dim %86, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %96 = stablehlo.multiply %93, %95 : tensor<2x2x16x8xf32>
    %97 = stablehlo.add %91, %96 : tensor<2x2x16x8xf32>
    %98 = stablehlo.broadcast_in_dim %97, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %99 = stablehlo.reshape %98 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %100 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %101 = stablehlo.reshape %100 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %102 = stablehlo.dot_general %65, %99, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_15 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %103 = stablehlo.sqrt %cst_15 : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %105 = stablehlo.divide %102, %104 : tensor<2x4x16x16xf32>
    %106 = stablehlo.iota dim = 0 : tensor<16xi32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %108 = stablehlo.iota dim = 0 : tensor<16xi32>
    %109 = stablehlo.broadcast_in_dim %108, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %110 = stablehlo.broadcast_in_dim %107, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %111 = stablehlo.broadcast_in_dim %109, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %112 = stablehlo.compare GE, %110, %111, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_16 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %113:2 = call @_where(%112, %105, %cst_16) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>)
    %cst_17 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %114 = stablehlo.reduce(%113#0 init: %cst_17) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_18 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %115 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %116 = stablehlo.maximum %115, %114 : tensor<2x4x16xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %118 = stablehlo.broadcast_in_dim %117, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %119 = stablehlo.subtract %113#0, %118 : tensor<2x4x16x16xf32>
    %120 = stablehlo.exponential %119 : tensor<2x4x16x16xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %121 = stablehlo.reduce(%120 init: %cst_19) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %122 = stablehlo.broadcast_in_dim %121, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %123 = stablehlo.broadcast_in_dim %122, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %124 = stablehlo.divide %120, %123 : tensor<2x4x16x16xf32>
    %125 = stablehlo.multiply %122, %122 : tensor<2x4x16x1xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<2x4x16x1xf32>
    %127 = stablehlo.divide %126, %125 : tensor<2x4x16x1xf32>
    %128 = stablehlo.dot_general %124, %101, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %129 = stablehlo.transpose %128, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %130 = stablehlo.reshape %129 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %131 = stablehlo.dot_general %130, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %132 = stablehlo.add %6, %131 : tensor<2x16x32xf32>
    %133 = chlo.square %132 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_21 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %134 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<2x16x32xf32>
    %135 = stablehlo.multiply %134, %132 : tensor<2x16x32xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %136 = stablehlo.reduce(%133 init: %cst_22) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %137 = stablehlo.broadcast_in_dim %136, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_23 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %138 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %139 = stablehlo.divide %137, %138 : tensor<2x16x1xf32>
    %cst_24 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %140 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %141 = stablehlo.add %139, %140 : tensor<2x16x1xf32>
    %142 = stablehlo.rsqrt %141 : tensor<2x16x1xf32>
    %143 = stablehlo.divide %142, %141 : tensor<2x16x1xf32>
    %cst_25 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %144 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %145 = stablehlo.multiply %144, %143 : tensor<2x16x1xf32>
    %146 = stablehlo.broadcast_in_dim %142, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %147 = stablehlo.multiply %132, %146 : tensor<2x16x32xf32>
    %148 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %149 = stablehlo.broadcast_in_dim %148, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %150 = stablehlo.multiply %147, %149 : tensor<2x16x32xf32>
    %151 = stablehlo.dot_general %150, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %152:3 = call @silu(%151) : (tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>)
    %153 = stablehlo.dot_general %150, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %154 = stablehlo.multiply %152#0, %153 : tensor<2x16x64xf32>
    %155 = stablehlo.dot_general %154, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %156 = stablehlo.add %132, %155 : tensor<2x16x32xf32>
    %157 = chlo.square %156 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_26 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %158 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<2x16x32xf32>
    %159 = stablehlo.multiply %158, %156 : tensor<2x16x32xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %160 = stablehlo.reduce(%157 init: %cst_27) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_28 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %163 = stablehlo.divide %161, %162 : tensor<2x16x1xf32>
    %cst_29 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %164 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %165 = stablehlo.add %163, %164 : tensor<2x16x1xf32>
    %166 = stablehlo.rsqrt %165 : tensor<2x16x1xf32>
    %167 = stablehlo.divide %166, %165 : tensor<2x16x1xf32>
    %cst_30 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %169 = stablehlo.multiply %168, %167 : tensor<2x16x1xf32>
    %170 = stablehlo.broadcast_in_dim %166, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %171 = stablehlo.multiply %156, %170 : tensor<2x16x32xf32>
    %172 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %173 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %174 = stablehlo.multiply %171, %173 : tensor<2x16x32xf32>
    %175 = stablehlo.dot_general %174, %arg17, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %176 = stablehlo.reshape %175 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %177 = stablehlo.transpose %176, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %178 = stablehlo.dot_general %174, %arg15, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %179 = stablehlo.reshape %178 : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %180 = stablehlo.transpose %179, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %181 = stablehlo.dot_general %174, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %182 = stablehlo.reshape %181 : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %183 = stablehlo.transpose %182, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %184 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_31 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %185 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %186 = stablehlo.multiply %185, %184 : tensor<4xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %187 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %188 = stablehlo.add %187, %186 : tensor<4xf32>
    %cst_33 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %190 = stablehlo.divide %188, %189 : tensor<4xf32>
    %cst_34 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %191 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %192 = stablehlo.power %191, %190 : tensor<4xf32>
    %cst_35 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %193 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %194 = stablehlo.divide %193, %192 : tensor<4xf32>
    %195 = stablehlo.iota dim = 0 : tensor<16xf32>
    %196 = stablehlo.broadcast_in_dim %195, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %197 = stablehlo.broadcast_in_dim %194, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %198 = stablehlo.broadcast_in_dim %196, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %199 = stablehlo.broadcast_in_dim %197, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %200 = stablehlo.multiply %198, %199 : tensor<16x4xf32>
    %201 = stablehlo.cosine %200 : tensor<16x4xf32>
    %202 = stablehlo.concatenate %201, %201, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %203 = stablehlo.sine %200 : tensor<16x4xf32>
    %204 = stablehlo.concatenate %203, %203, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %205 = stablehlo.slice %177 [0:2, 0:4, 0:16, 0:4] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %206 = stablehlo.slice %177 [0:2, 0:4, 0:16, 4:8] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %207 = stablehlo.broadcast_in_dim %202, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %208 = stablehlo.broadcast_in_dim %207, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %209 = stablehlo.multiply %177, %208 : tensor<2x4x16x8xf32>
    %210 = stablehlo.negate %206 : tensor<2x4x16x4xf32>
    %211 = stablehlo.concatenate %210, %205, dim = 3 : (tensor<2x4x16x4xf32>, tensor<2x4x16x4xf32>) -> tensor<2x4x16x8xf32>
    %212 = stablehlo.broadcast_in_dim %204, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %213 = stablehlo.broadcast_in_dim %212, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %214 = stablehlo.multiply %211, %213 : tensor<2x4x16x8xf32>
    %215 = stablehlo.add %209, %214 : tensor<2x4x16x8xf32>
    %216 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_36 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %217 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %218 = stablehlo.multiply %217, %216 : tensor<4xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %219 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %220 = stablehlo.add %219, %218 : tensor<4xf32>
    %cst_38 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %221 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %222 = stablehlo.divide %220, %221 : tensor<4xf32>
    %cst_39 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %223 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %224 = stablehlo.power %223, %222 : tensor<4xf32>
    %cst_40 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %225 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %226 = stablehlo.divide %225, %224 : tensor<4xf32>
    %227 = stablehlo.iota dim = 0 : tensor<16xf32>
    %228 = stablehlo.broadcast_in_dim %227, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %229 = stablehlo.broadcast_in_dim %226, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %230 = stablehlo.broadcast_in_dim %228, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %231 = stablehlo.broadcast_in_dim %229, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %232 = stablehlo.multiply %230, %231 : tensor<16x4xf32>
    %233 = stablehlo.cosine %232 : tensor<16x4xf32>
    %234 = stablehlo.concatenate %233, %233, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %235 = stablehlo.sine %232 : tensor<16x4xf32>
    %236 = stablehlo.concatenate %235, %235, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %237 = stablehlo.slice %180 [0:2, 0:2, 0:16, 0:4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %238 = stablehlo.slice %180 [0:2, 0:2, 0:16, 4:8] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %239 = stablehlo.broadcast_in_dim %234, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %240 = stablehlo.broadcast_in_dim %239, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %241 = stablehlo.multiply %180, %240 : tensor<2x2x16x8xf32>
    %242 = stablehlo.negate %238 : tensor<2x2x16x4xf32>
    %243 = stablehlo.concatenate %242, %237, dim = 3 : (tensor<2x2x16x4xf32>, tensor<2x2x16x4xf32>) -> tensor<2x2x16x8xf32>
    %244 = stablehlo.broadcast_in_dim %236, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %245 = stablehlo.broadcast_in_dim %244, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %246 = stablehlo.multiply %243, %245 : tensor<2x2x16x8xf32>
    %247 = stablehlo.add %241, %246 : tensor<2x2x16x8xf32>
    %248 = stablehlo.broadcast_in_dim %247, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %249 = stablehlo.reshape %248 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %250 = stablehlo.broadcast_in_dim %183, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %251 = stablehlo.reshape %250 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %252 = stablehlo.dot_general %215, %249, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_41 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %253 = stablehlo.sqrt %cst_41 : tensor<f32>
    %254 = stablehlo.broadcast_in_dim %253, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %255 = stablehlo.divide %252, %254 : tensor<2x4x16x16xf32>
    %256 = stablehlo.iota dim = 0 : tensor<16xi32>
    %257 = stablehlo.broadcast_in_dim %256, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %258 = stablehlo.iota dim = 0 : tensor<16xi32>
    %259 = stablehlo.broadcast_in_dim %258, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %260 = stablehlo.broadcast_in_dim %257, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %261 = stablehlo.broadcast_in_dim %259, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %262 = stablehlo.compare GE, %260, %261, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_42 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %263:2 = call @_where(%262, %255, %cst_42) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>)
    %cst_43 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %264 = stablehlo.reduce(%263#0 init: %cst_43) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_44 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %265 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %266 = stablehlo.maximum %265, %264 : tensor<2x4x16xf32>
    %267 = stablehlo.broadcast_in_dim %266, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %268 = stablehlo.broadcast_in_dim %267, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %269 = stablehlo.subtract %263#0, %268 : tensor<2x4x16x16xf32>
    %270 = stablehlo.exponential %269 : tensor<2x4x16x16xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %271 = stablehlo.reduce(%270 init: %cst_45) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %272 = stablehlo.broadcast_in_dim %271, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %273 = stablehlo.broadcast_in_dim %272, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %274 = stablehlo.divide %270, %273 : tensor<2x4x16x16xf32>
    %275 = stablehlo.multiply %272, %272 : tensor<2x4x16x1xf32>
    %cst_46 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %276 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<2x4x16x1xf32>
    %277 = stablehlo.divide %276, %275 : tensor<2x4x16x1xf32>
    %278 = stablehlo.dot_general %274, %251, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %279 = stablehlo.transpose %278, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %280 = stablehlo.reshape %279 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %281 = stablehlo.dot_general %280, %arg16, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %282 = stablehlo.add %156, %281 : tensor<2x16x32xf32>
    %283 = chlo.square %282 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_47 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %284 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<2x16x32xf32>
    %285 = stablehlo.multiply %284, %282 : tensor<2x16x32xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %286 = stablehlo.reduce(%283 init: %cst_48) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %287 = stablehlo.broadcast_in_dim %286, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_49 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %288 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %289 = stablehlo.divide %287, %288 : tensor<2x16x1xf32>
    %cst_50 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %290 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %291 = stablehlo.add %289, %290 : tensor<2x16x1xf32>
    %292 = stablehlo.rsqrt %291 : tensor<2x16x1xf32>
    %293 = stablehlo.divide %292, %291 : tensor<2x16x1xf32>
    %cst_51 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %294 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %295 = stablehlo.multiply %294, %293 : tensor<2x16x1xf32>
    %296 = stablehlo.broadcast_in_dim %292, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %297 = stablehlo.multiply %282, %296 : tensor<2x16x32xf32>
    %298 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %299 = stablehlo.broadcast_in_dim %298, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %300 = stablehlo.multiply %297, %299 : tensor<2x16x32xf32>
    %301 = stablehlo.dot_general %300, %arg13, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %302:3 = call @silu(%301) : (tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>)
    %303 = stablehlo.dot_general %300, %arg14, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %304 = stablehlo.multiply %302#0, %303 : tensor<2x16x64xf32>
    %305 = stablehlo.dot_general %304, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %306 = stablehlo.add %282, %305 : tensor<2x16x32xf32>
    %307 = chlo.square %306 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_52 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %308 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<2x16x32xf32>
    %309 = stablehlo.multiply %308, %306 : tensor<2x16x32xf32>
    %cst_53 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %310 = stablehlo.reduce(%307 init: %cst_53) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %311 = stablehlo.broadcast_in_dim %310, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_54 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %312 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %313 = stablehlo.divide %311, %312 : tensor<2x16x1xf32>
    %cst_55 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %314 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %315 = stablehlo.add %313, %314 : tensor<2x16x1xf32>
    %316 = stablehlo.rsqrt %315 : tensor<2x16x1xf32>
    %317 = stablehlo.divide %316, %315 : tensor<2x16x1xf32>
    %cst_56 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %318 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %319 = stablehlo.multiply %318, %317 : tensor<2x16x1xf32>
    %320 = stablehlo.broadcast_in_dim %316, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %321 = stablehlo.multiply %306, %320 : tensor<2x16x32xf32>
    %322 = stablehlo.broadcast_in_dim %arg20, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %323 = stablehlo.broadcast_in_dim %322, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %324 = stablehlo.multiply %321, %323 : tensor<2x16x32xf32>
    %325 = stablehlo.dot_general %324, %arg19, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %326:3 = call @log_softmax(%325) : (tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x1xf32>)
    %327 = stablehlo.broadcast_in_dim %arg22, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %328:2 = call @take_along_axis(%326#0, %327) : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> (tensor<2x16x1xf32>, tensor<2x16x1x1xi32>)
    %329 = stablehlo.reshape %328#0 : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %cst_57 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %330 = stablehlo.reduce(%329 init: %cst_57) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_58 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %331 = stablehlo.divide %330, %cst_58 : tensor<f32>
    %332 = stablehlo.negate %331 : tensor<f32>
    %cst_59 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %333 = stablehlo.negate %cst_59 : tensor<f32>
    %cst_60 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %334 = stablehlo.divide %333, %cst_60 : tensor<f32>
    %335 = stablehlo.broadcast_in_dim %334, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %336 = stablehlo.broadcast_in_dim %335, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %337 = call @take_along_axis_0(%328#1, %336) : (tensor<2x16x1x1xi32>, tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %338 = call @log_softmax_1(%326#1, %326#2, %337) : (tensor<2x16x64xf32>, tensor<2x16x1xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %339 = stablehlo.dot_general %338, %324, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %340 = stablehlo.transpose %339, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %341 = stablehlo.dot_general %338, %arg19, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %342 = stablehlo.multiply %321, %341 : tensor<2x16x32xf32>
    %cst_61 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %343 = stablehlo.reduce(%342 init: %cst_61) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %344 = stablehlo.reshape %343 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %345 = stablehlo.broadcast_in_dim %322, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %346 = stablehlo.multiply %341, %345 : tensor<2x16x32xf32>
    %cst_62 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %347 = stablehlo.reduce(%344 init: %cst_62) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %348 = stablehlo.multiply %306, %346 : tensor<2x16x32xf32>
    %cst_63 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %349 = stablehlo.reduce(%348 init: %cst_63) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %350 = stablehlo.reshape %349 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %351 = stablehlo.broadcast_in_dim %316, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %352 = stablehlo.multiply %346, %351 : tensor<2x16x32xf32>
    %353 = stablehlo.multiply %350, %319 : tensor<2x16x1xf32>
    %cst_64 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %354 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %355 = stablehlo.divide %353, %354 : tensor<2x16x1xf32>
    %cst_65 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %356 = stablehlo.reduce(%355 init: %cst_65) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %357 = stablehlo.broadcast_in_dim %356, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %358 = stablehlo.multiply %357, %309 : tensor<2x16x32xf32>
    %359 = stablehlo.add %352, %358 : tensor<2x16x32xf32>
    %360 = stablehlo.dot_general %359, %304, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x16x64xf32>) -> tensor<32x64xf32>
    %361 = stablehlo.transpose %360, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %362 = stablehlo.dot_general %359, %arg12, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<64x32xf32>) -> tensor<2x16x64xf32>
    %363 = stablehlo.multiply %302#0, %362 : tensor<2x16x64xf32>
    %364 = stablehlo.multiply %362, %303 : tensor<2x16x64xf32>
    %365 = stablehlo.dot_general %363, %300, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %366 = stablehlo.transpose %365, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %367 = stablehlo.dot_general %363, %arg14, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %368 = call @silu_2(%302#1, %302#2, %301, %364) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %369 = stablehlo.dot_general %368, %300, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %370 = stablehlo.transpose %369, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %371 = stablehlo.dot_general %368, %arg13, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %372 = stablehlo.add %367, %371 : tensor<2x16x32xf32>
    %373 = stablehlo.multiply %297, %372 : tensor<2x16x32xf32>
    %cst_66 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %374 = stablehlo.reduce(%373 init: %cst_66) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %375 = stablehlo.reshape %374 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %376 = stablehlo.broadcast_in_dim %298, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %377 = stablehlo.multiply %372, %376 : tensor<2x16x32xf32>
    %cst_67 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %378 = stablehlo.reduce(%375 init: %cst_67) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %379 = stablehlo.multiply %282, %377 : tensor<2x16x32xf32>
    %cst_68 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %380 = stablehlo.reduce(%379 init: %cst_68) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %381 = stablehlo.reshape %380 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %382 = stablehlo.broadcast_in_dim %292, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %383 = stablehlo.multiply %377, %382 : tensor<2x16x32xf32>
    %384 = stablehlo.add %359, %383 : tensor<2x16x32xf32>
    %385 = stablehlo.multiply %381, %295 : tensor<2x16x1xf32>
    %cst_69 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %386 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %387 = stablehlo.divide %385, %386 : tensor<2x16x1xf32>
    %cst_70 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %388 = stablehlo.reduce(%387 init: %cst_70) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %389 = stablehlo.broadcast_in_dim %388, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %390 = stablehlo.multiply %389, %285 : tensor<2x16x32xf32>
    %391 = stablehlo.add %384, %390 : tensor<2x16x32xf32>
    %392 = stablehlo.dot_general %391, %280, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<32x32xf32>
    %393 = stablehlo.transpose %392, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %394 = stablehlo.dot_general %391, %arg16, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %395 = stablehlo.reshape %394 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %396 = stablehlo.transpose %395, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %397 = stablehlo.dot_general %396, %274, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x8x16xf32>
    %398 = stablehlo.transpose %397, dims = [0, 1, 3, 2] : (tensor<2x4x8x16xf32>) -> tensor<2x4x16x8xf32>
    %399 = stablehlo.dot_general %396, %251, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %400 = stablehlo.broadcast_in_dim %277, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %401 = stablehlo.multiply %399, %400 : tensor<2x4x16x16xf32>
    %402 = stablehlo.multiply %401, %270 : tensor<2x4x16x16xf32>
    %cst_71 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %403 = stablehlo.reduce(%402 init: %cst_71) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %404 = stablehlo.reshape %403 : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %405 = stablehlo.negate %404 : tensor<2x4x16x1xf32>
    %406 = stablehlo.broadcast_in_dim %272, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %407 = stablehlo.divide %399, %406 : tensor<2x4x16x16xf32>
    %cst_72 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %408 = stablehlo.reduce(%405 init: %cst_72) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x1xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %409 = stablehlo.broadcast_in_dim %408, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x16xf32>
    %410 = stablehlo.add %407, %409 : tensor<2x4x16x16xf32>
    %411 = stablehlo.multiply %410, %270 : tensor<2x4x16x16xf32>
    %412 = call @_where_3(%263#1, %411) : (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %413 = stablehlo.broadcast_in_dim %253, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %414 = stablehlo.divide %412, %413 : tensor<2x4x16x16xf32>
    %415 = stablehlo.dot_general %414, %215, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %416 = stablehlo.dot_general %414, %249, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %417 = stablehlo.reshape %398 : (tensor<2x4x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %cst_73 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %418 = stablehlo.reduce(%417 init: %cst_73) applies stablehlo.add across dimensions = [2] : (tensor<2x2x2x16x8xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %419 = stablehlo.reshape %415 : (tensor<2x4x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %cst_74 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %420 = stablehlo.reduce(%419 init: %cst_74) applies stablehlo.add across dimensions = [2] : (tensor<2x2x2x16x8xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %421 = stablehlo.broadcast_in_dim %244, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %422 = stablehlo.multiply %420, %421 : tensor<2x2x16x8xf32>
    %423 = stablehlo.slice %422 [0:2, 0:2, 0:16, 0:4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %424 = stablehlo.slice %422 [0:2, 0:2, 0:16, 4:8] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %425 = stablehlo.negate %423 : tensor<2x2x16x4xf32>
    %426 = stablehlo.broadcast_in_dim %239, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %427 = stablehlo.multiply %420, %426 : tensor<2x2x16x8xf32>
    %cst_75 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %428 = stablehlo.pad %425, %cst_75, low = [0, 0, 0, 4], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x2x16x4xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %429 = stablehlo.add %427, %428 : tensor<2x2x16x8xf32>
    %cst_76 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %430 = stablehlo.pad %424, %cst_76, low = [0, 0, 0, 0], high = [0, 0, 0, 4], interior = [0, 0, 0, 0] : (tensor<2x2x16x4xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %431 = stablehlo.add %429, %430 : tensor<2x2x16x8xf32>
    %432 = stablehlo.broadcast_in_dim %212, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %433 = stablehlo.multiply %416, %432 : tensor<2x4x16x8xf32>
    %434 = stablehlo.slice %433 [0:2, 0:4, 0:16, 0:4] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %435 = stablehlo.slice %433 [0:2, 0:4, 0:16, 4:8] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %436 = stablehlo.negate %434 : tensor<2x4x16x4xf32>
    %437 = stablehlo.broadcast_in_dim %207, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %438 = stablehlo.multiply %416, %437 : tensor<2x4x16x8xf32>
    %cst_77 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %439 = stablehlo.pad %436, %cst_77, low = [0, 0, 0, 4], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x4x16x4xf32>, tensor<f32>) -> tensor<2x4x16x8xf32>
    %440 = stablehlo.add %438, %439 : tensor<2x4x16x8xf32>
    %cst_78 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %441 = stablehlo.pad %435, %cst_78, low = [0, 0, 0, 0], high = [0, 0, 0, 4], interior = [0, 0, 0, 0] : (tensor<2x4x16x4xf32>, tensor<f32>) -> tensor<2x4x16x8xf32>
    %442 = stablehlo.add %440, %441 : tensor<2x4x16x8xf32>
    %443 = stablehlo.transpose %418, dims = [0, 2, 1, 3] : (tensor<2x2x16x8xf32>) -> tensor<2x16x2x8xf32>
    %444 = stablehlo.reshape %443 : (tensor<2x16x2x8xf32>) -> tensor<2x16x16xf32>
    %445 = stablehlo.dot_general %444, %174, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x16xf32>, tensor<2x16x32xf32>) -> tensor<16x32xf32>
    %446 = stablehlo.transpose %445, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %447 = stablehlo.dot_general %444, %arg18, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x16xf32>, tensor<32x16xf32>) -> tensor<2x16x32xf32>
    %448 = stablehlo.transpose %431, dims = [0, 2, 1, 3] : (tensor<2x2x16x8xf32>) -> tensor<2x16x2x8xf32>
    %449 = stablehlo.reshape %448 : (tensor<2x16x2x8xf32>) -> tensor<2x16x16xf32>
    %450 = stablehlo.dot_general %449, %174, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x16xf32>, tensor<2x16x32xf32>) -> tensor<16x32xf32>
    %451 = stablehlo.transpose %450, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %452 = stablehlo.dot_general %449, %arg15, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x16xf32>, tensor<32x16xf32>) -> tensor<2x16x32xf32>
    %453 = stablehlo.add %447, %452 : tensor<2x16x32xf32>
    %454 = stablehlo.transpose %442, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %455 = stablehlo.reshape %454 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %456 = stablehlo.dot_general %455, %174, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<32x32xf32>
    %457 = stablehlo.transpose %456, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %458 = stablehlo.dot_general %455, %arg17, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %459 = stablehlo.add %453, %458 : tensor<2x16x32xf32>
    %460 = stablehlo.multiply %171, %459 : tensor<2x16x32xf32>
    %cst_79 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %461 = stablehlo.reduce(%460 init: %cst_79) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %462 = stablehlo.reshape %461 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %463 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %464 = stablehlo.multiply %459, %463 : tensor<2x16x32xf32>
    %cst_80 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %465 = stablehlo.reduce(%462 init: %cst_80) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %466 = stablehlo.multiply %156, %464 : tensor<2x16x32xf32>
    %cst_81 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %467 = stablehlo.reduce(%466 init: %cst_81) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %468 = stablehlo.reshape %467 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %469 = stablehlo.broadcast_in_dim %166, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %470 = stablehlo.multiply %464, %469 : tensor<2x16x32xf32>
    %471 = stablehlo.add %391, %470 : tensor<2x16x32xf32>
    %472 = stablehlo.multiply %468, %169 : tensor<2x16x1xf32>
    %cst_82 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %473 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %474 = stablehlo.divide %472, %473 : tensor<2x16x1xf32>
    %cst_83 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %475 = stablehlo.reduce(%474 init: %cst_83) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %476 = stablehlo.broadcast_in_dim %475, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %477 = stablehlo.multiply %476, %159 : tensor<2x16x32xf32>
    %478 = stablehlo.add %471, %477 : tensor<2x16x32xf32>
    %479 = stablehlo.dot_general %478, %154, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x16x64xf32>) -> tensor<32x64xf32>
    %480 = stablehlo.transpose %479, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %481 = stablehlo.dot_general %478, %arg3, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<64x32xf32>) -> tensor<2x16x64xf32>
    %482 = stablehlo.multiply %152#0, %481 : tensor<2x16x64xf32>
    %483 = stablehlo.multiply %481, %153 : tensor<2x16x64xf32>
    %484 = stablehlo.dot_general %482, %150, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %485 = stablehlo.transpose %484, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %486 = stablehlo.dot_general %482, %arg5, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %487 = call @silu_2(%152#1, %152#2, %151, %483) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %488 = stablehlo.dot_general %487, %150, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %489 = stablehlo.transpose %488, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %490 = stablehlo.dot_general %487, %arg4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %491 = stablehlo.add %486, %490 : tensor<2x16x32xf32>
    %492 = stablehlo.multiply %147, %491 : tensor<2x16x32xf32>
    %cst_84 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %493 = stablehlo.reduce(%492 init: %cst_84) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %494 = stablehlo.reshape %493 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %495 = stablehlo.broadcast_in_dim %148, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %496 = stablehlo.multiply %491, %495 : tensor<2x16x32xf32>
    %cst_85 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %497 = stablehlo.reduce(%494 init: %cst_85) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %498 = stablehlo.multiply %132, %496 : tensor<2x16x32xf32>
    %cst_86 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %499 = stablehlo.reduce(%498 init: %cst_86) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %500 = stablehlo.reshape %499 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %501 = stablehlo.broadcast_in_dim %142, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %502 = stablehlo.multiply %496, %501 : tensor<2x16x32xf32>
    %503 = stablehlo.add %478, %502 : tensor<2x16x32xf32>
    %504 = stablehlo.multiply %500, %145 : tensor<2x16x1xf32>
    %cst_87 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %505 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %506 = stablehlo.divide %504, %505 : tensor<2x16x1xf32>
    %cst_88 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %507 = stablehlo.reduce(%506 init: %cst_88) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %508 = stablehlo.broadcast_in_dim %507, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %509 = stablehlo.multiply %508, %135 : tensor<2x16x32xf32>
    %510 = stablehlo.add %503, %509 : tensor<2x16x32xf32>
    %511 = stablehlo.dot_general %510, %130, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<32x32xf32>
    %512 = stablehlo.transpose %511, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %513 = stablehlo.dot_general %510, %arg7, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %514 = stablehlo.reshape %513 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %515 = stablehlo.transpose %514, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %516 = stablehlo.dot_general %515, %124, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x8x16xf32>
    %517 = stablehlo.transpose %516, dims = [0, 1, 3, 2] : (tensor<2x4x8x16xf32>) -> tensor<2x4x16x8xf32>
    %518 = stablehlo.dot_general %515, %101, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %519 = stablehlo.broadcast_in_dim %127, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %520 = stablehlo.multiply %518, %519 : tensor<2x4x16x16xf32>
    %521 = stablehlo.multiply %520, %120 : tensor<2x4x16x16xf32>
    %cst_89 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %522 = stablehlo.reduce(%521 init: %cst_89) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %523 = stablehlo.reshape %522 : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %524 = stablehlo.negate %523 : tensor<2x4x16x1xf32>
    %525 = stablehlo.broadcast_in_dim %122, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %526 = stablehlo.divide %518, %525 : tensor<2x4x16x16xf32>
    %cst_90 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %527 = stablehlo.reduce(%524 init: %cst_90) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x1xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %528 = stablehlo.broadcast_in_dim %527, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x16xf32>
    %529 = stablehlo.add %526, %528 : tensor<2x4x16x16xf32>
    %530 = stablehlo.multiply %529, %120 : tensor<2x4x16x16xf32>
    %531 = call @_where_3(%113#1, %530) : (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %532 = stablehlo.broadcast_in_dim %103, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %533 = stablehlo.divide %531, %532 : tensor<2x4x16x16xf32>
    %534 = stablehlo.dot_general %533, %65, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %535 = stablehlo.dot_general %533, %99, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %536 = stablehlo.reshape %517 : (tensor<2x4x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %cst_91 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %537 = stablehlo.reduce(%536 init: %cst_91) applies stablehlo.add across dimensions = [2] : (tensor<2x2x2x16x8xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %538 = stablehlo.reshape %534 : (tensor<2x4x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %cst_92 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %539 = stablehlo.reduce(%538 init: %cst_92) applies stablehlo.add across dimensions = [2] : (tensor<2x2x2x16x8xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %540 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %541 = stablehlo.multiply %539, %540 : tensor<2x2x16x8xf32>
    %542 = stablehlo.slice %541 [0:2, 0:2, 0:16, 0:4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %543 = stablehlo.slice %541 [0:2, 0:2, 0:16, 4:8] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %544 = stablehlo.negate %542 : tensor<2x2x16x4xf32>
    %545 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %546 = stablehlo.multiply %539, %545 : tensor<2x2x16x8xf32>
    %cst_93 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %547 = stablehlo.pad %544, %cst_93, low = [0, 0, 0, 4], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x2x16x4xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %548 = stablehlo.add %546, %547 : tensor<2x2x16x8xf32>
    %cst_94 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %549 = stablehlo.pad %543, %cst_94, low = [0, 0, 0, 0], high = [0, 0, 0, 4], interior = [0, 0, 0, 0] : (tensor<2x2x16x4xf32>, tensor<f32>) -> tensor<2x2x16x8xf32>
    %550 = stablehlo.add %548, %549 : tensor<2x2x16x8xf32>
    %551 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %552 = stablehlo.multiply %535, %551 : tensor<2x4x16x8xf32>
    %553 = stablehlo.slice %552 [0:2, 0:4, 0:16, 0:4] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %554 = stablehlo.slice %552 [0:2, 0:4, 0:16, 4:8] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %555 = stablehlo.negate %553 : tensor<2x4x16x4xf32>
    %556 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %557 = stablehlo.multiply %535, %556 : tensor<2x4x16x8xf32>
    %cst_95 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %558 = stablehlo.pad %555, %cst_95, low = [0, 0, 0, 4], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x4x16x4xf32>, tensor<f32>) -> tensor<2x4x16x8xf32>
    %559 = stablehlo.add %557, %558 : tensor<2x4x16x8xf32>
    %cst_96 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %560 = stablehlo.pad %554, %cst_96, low = [0, 0, 0, 0], high = [0, 0, 0, 4], interior = [0, 0, 0, 0] : (tensor<2x4x16x4xf32>, tensor<f32>) -> tensor<2x4x16x8xf32>
    %561 = stablehlo.add %559, %560 : tensor<2x4x16x8xf32>
    %562 = stablehlo.transpose %537, dims = [0, 2, 1, 3] : (tensor<2x2x16x8xf32>) -> tensor<2x16x2x8xf32>
    %563 = stablehlo.reshape %562 : (tensor<2x16x2x8xf32>) -> tensor<2x16x16xf32>
    %564 = stablehlo.dot_general %563, %24, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x16xf32>, tensor<2x16x32xf32>) -> tensor<16x32xf32>
    %565 = stablehlo.transpose %564, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %566 = stablehlo.dot_general %563, %arg9, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x16xf32>, tensor<32x16xf32>) -> tensor<2x16x32xf32>
    %567 = stablehlo.transpose %550, dims = [0, 2, 1, 3] : (tensor<2x2x16x8xf32>) -> tensor<2x16x2x8xf32>
    %568 = stablehlo.reshape %567 : (tensor<2x16x2x8xf32>) -> tensor<2x16x16xf32>
    %569 = stablehlo.dot_general %568, %24, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x16xf32>, tensor<2x16x32xf32>) -> tensor<16x32xf32>
    %570 = stablehlo.transpose %569, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %571 = stablehlo.dot_general %568, %arg6, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x16xf32>, tensor<32x16xf32>) -> tensor<2x16x32xf32>
    %572 = stablehlo.add %566, %571 : tensor<2x16x32xf32>
    %573 = stablehlo.transpose %561, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %574 = stablehlo.reshape %573 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %575 = stablehlo.dot_general %574, %24, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<32x32xf32>
    %576 = stablehlo.transpose %575, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %577 = stablehlo.dot_general %574, %arg8, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %578 = stablehlo.add %572, %577 : tensor<2x16x32xf32>
    %579 = stablehlo.multiply %21, %578 : tensor<2x16x32xf32>
    %cst_97 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %580 = stablehlo.reduce(%579 init: %cst_97) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %581 = stablehlo.reshape %580 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %582 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %583 = stablehlo.multiply %578, %582 : tensor<2x16x32xf32>
    %cst_98 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %584 = stablehlo.reduce(%581 init: %cst_98) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %585 = stablehlo.multiply %6, %583 : tensor<2x16x32xf32>
    %cst_99 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %586 = stablehlo.reduce(%585 init: %cst_99) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %587 = stablehlo.reshape %586 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %588 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %589 = stablehlo.multiply %583, %588 : tensor<2x16x32xf32>
    %590 = stablehlo.add %510, %589 : tensor<2x16x32xf32>
    %591 = stablehlo.multiply %587, %19 : tensor<2x16x1xf32>
    %cst_100 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %592 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %593 = stablehlo.divide %591, %592 : tensor<2x16x1xf32>
    %cst_101 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %594 = stablehlo.reduce(%593 init: %cst_101) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %595 = stablehlo.broadcast_in_dim %594, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %596 = stablehlo.multiply %595, %9 : tensor<2x16x32xf32>
    %597 = stablehlo.add %590, %596 : tensor<2x16x32xf32>
    %cst_102 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %598 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %599 = "stablehlo.scatter"(%598, %5, %597) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %600 = stablehlo.add %arg23, %arg24 : tensor<f32>
      stablehlo.return %600 : tensor<f32>
    }) : (tensor<64x32xf32>, tensor<2x16x1xi32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    return %332, %599, %584, %497, %480, %489, %485, %570, %512, %576, %565, %465, %378, %361, %370, %366, %451, %393, %457, %446, %340, %347 : tensor<f32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x64xf32>, tensor<32xf32>
  }
  func.func private @_where(%arg0: tensor<16x16xi1>, %arg1: tensor<2x4x16x16xf32>, %arg2: tensor<f32>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<2x4x16x16xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>
    return %2, %0 : tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>
  }
  func.func private @silu(%arg0: tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) {
    %0 = stablehlo.negate %arg0 : tensor<2x16x64xf32>
    %1 = stablehlo.exponential %0 : tensor<2x16x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16x64xf32>
    %3 = stablehlo.add %2, %1 : tensor<2x16x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x16x64xf32>
    %5 = stablehlo.divide %4, %3 : tensor<2x16x64xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x16x64xf32>
    %7 = stablehlo.subtract %6, %5 : tensor<2x16x64xf32>
    %8 = stablehlo.multiply %5, %7 : tensor<2x16x64xf32>
    %9 = stablehlo.multiply %arg0, %5 : tensor<2x16x64xf32>
    return %9, %8, %5 : tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>
  }
  func.func private @log_softmax(%arg0: tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<2x16xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x16x64xf32>
    %6 = stablehlo.exponential %5 : tensor<2x16x64xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %9 = stablehlo.log %8 : tensor<2x16x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<2x16x64xf32>
    return %11, %6, %8 : tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x1xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<2x16x64xf32>, %arg1: tensor<2x16x1xi32>) -> (tensor<2x16x1xf32>, tensor<2x16x1x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x16x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<2x16x1xi32>, tensor<2x16x1xi32>) -> tensor<2x16x1xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x16x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<2x16x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<2x16x1xi1>, tensor<2x16x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<2x16x1xi32>) -> tensor<2x16x1x1xi32>
    %c_1 = stablehlo.constant dense<63> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x16x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<2x16x1x1xi32>, tensor<2x16x1x1xi32>) -> tensor<2x16x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [3] : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3] : (tensor<1x1x1x1xi32>) -> tensor<2x16x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<2x16x1x1xi32>, tensor<2x16x1x1xi32>) -> tensor<2x16x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<2x16x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [3] : (tensor<2x16x1x1xi1>, tensor<i1>) -> tensor<2x16x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<2x16x64xf32>, tensor<2x16x1x1xi32>) -> tensor<2x16x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<2x16x1xi1>, tensor<2x16x1xf32>
    return %15, %5 : tensor<2x16x1xf32>, tensor<2x16x1x1xi32>
  }
  func.func private @take_along_axis_0(%arg0: tensor<2x16x1x1xi32>, %arg1: tensor<2x16x1xf32>) -> tensor<2x16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16x64xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<2x16x64xf32>, tensor<2x16x1x1xi32>, tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    return %1 : tensor<2x16x64xf32>
  }
  func.func private @log_softmax_1(%arg0: tensor<2x16x64xf32>, %arg1: tensor<2x16x1xf32>, %arg2: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
    %0 = stablehlo.negate %arg2 : tensor<2x16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %2 = stablehlo.reshape %1 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<2x16x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x64xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<2x16x64xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<2x16x64xf32>
    return %7 : tensor<2x16x64xf32>
  }
  func.func private @silu_2(%arg0: tensor<2x16x64xf32>, %arg1: tensor<2x16x64xf32>, %arg2: tensor<2x16x64xf32>, %arg3: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
    %0 = stablehlo.multiply %arg2, %arg3 : tensor<2x16x64xf32>
    %1 = stablehlo.multiply %arg3, %arg1 : tensor<2x16x64xf32>
    %2 = stablehlo.multiply %0, %arg0 : tensor<2x16x64xf32>
    %3 = stablehlo.add %1, %2 : tensor<2x16x64xf32>
    return %3 : tensor<2x16x64xf32>
  }
  func.func private @_where_3(%arg0: tensor<2x4x16x16xi1>, %arg1: tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>
    return %1 : tensor<2x4x16x16xf32>
  }
}

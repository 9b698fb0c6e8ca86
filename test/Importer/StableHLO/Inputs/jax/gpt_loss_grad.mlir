module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x128xf32>, %arg1: tensor<128xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<128x32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<32x32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32x96xf32>, %arg11: tensor<96xf32>, %arg12: tensor<32x128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<32xf32>, %arg17: tensor<32xf32>, %arg18: tensor<128x32xf32>, %arg19: tensor<32xf32>, %arg20: tensor<32x32xf32>, %arg21: tensor<32xf32>, %arg22: tensor<32x96xf32>, %arg23: tensor<96xf32>, %arg24: tensor<32xf32>, %arg25: tensor<32xf32>, %arg26: tensor<16x32xf32>, %arg27: tensor<64x32xf32>, %arg28: tensor<2x16xi32>, %arg29: tensor<2x16xi32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<32x128xf32> {jax.result_info = "result[1]['blocks'][0]['fc']"}, tensor<128xf32> {jax.result_info = "result[1]['blocks'][0]['fc_b']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][0]['ln1_b']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][0]['ln1_g']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][0]['ln2_b']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][0]['ln2_g']"}, tensor<128x32xf32> {jax.result_info = "result[1]['blocks'][0]['out']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][0]['out_b']"}, tensor<32x32xf32> {jax.result_info = "result[1]['blocks'][0]['proj']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][0]['proj_b']"}, tensor<32x96xf32> {jax.result_info = "result[1]['blocks'][0]['qkv']"}, tensor<96xf32> {jax.result_info = "result[1]['blocks'][0]['qkv_b']"}, tensor<32x128xf32> {jax.result_info = "result[1]['blocks'][1]['fc']"}, tensor<128xf32> {jax.result_info = "result[1]['blocks'][1]['fc_b']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][1]['ln1_b']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][1]['ln1_g']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][1]['ln2_b']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][1]['ln2_g']"}, tensor<128x32xf32> {jax.result_info = "result[1]['blocks'][1]['out']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][1]['out_b']"}, tensor<32x32xf32> {jax.result_info = "result[1]['blocks'][1]['proj']"}, tensor<32xf32> {jax.result_info = "result[1]['blocks'][1]['proj_b']"}, tensor<32x96xf32> {jax.result_info = "result[1]['blocks'][1]['qkv']"}, tensor<96xf32> {jax.result_info = "result[1]['blocks'][1]['qkv_b']"}, tensor<32xf32> {jax.result_info = "result[1]['lnf_b']"}, tensor<32xf32> {jax.result_info = "result[1]['lnf_g']"}, tensor<16x32xf32> {jax.result_info = "result[1]['wpe']"}, tensor<64x32xf32> {jax.result_info = "result[1]['wte']"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
    %1 = stablehlo.compare LT, %arg28, %0, SIGNED : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
    %3 = stablehlo.add %arg28, %2 : tensor<2x16xi32>
    %4 = stablehlo.select %1, %3, %arg28 : tensor<2x16xi1>, tensor<2x16xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %6 = "stablehlo.gather"(%arg27, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<2x16x1xi32>) -> tensor<2x16x32xf32>
    %7 = stablehlo.broadcast_in_dim %arg26, dims = [1, 2] : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<1x16x32xf32>) -> tensor<2x16x32xf32>
    %9 = stablehlo.add %6, %8 : tensor<2x16x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %13 = stablehlo.divide %11, %12 : tensor<2x16x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %15 = stablehlo.subtract %9, %14 : tensor<2x16x32xf32>
    %16 = chlo.square %15 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x16x32xf32>
    %18 = stablehlo.multiply %17, %15 : tensor<2x16x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%16 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_4 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %22 = stablehlo.divide %20, %21 : tensor<2x16x1xf32>
    %23 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %24 = stablehlo.subtract %9, %23 : tensor<2x16x32xf32>
    %cst_5 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %26 = stablehlo.add %22, %25 : tensor<2x16x1xf32>
    %27 = stablehlo.rsqrt %26 : tensor<2x16x1xf32>
    %28 = stablehlo.divide %27, %26 : tensor<2x16x1xf32>
    %cst_6 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %30 = stablehlo.multiply %29, %28 : tensor<2x16x1xf32>
    %31 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %32 = stablehlo.multiply %24, %31 : tensor<2x16x32xf32>
    %33 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %35 = stablehlo.multiply %32, %34 : tensor<2x16x32xf32>
    %36 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %38 = stablehlo.add %35, %37 : tensor<2x16x32xf32>
    %39 = stablehlo.dot_general %38, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x96xf32>) -> tensor<2x16x96xf32>
    %40 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2] : (tensor<1x1x96xf32>) -> tensor<2x16x96xf32>
    %42 = stablehlo.add %39, %41 : tensor<2x16x96xf32>
    %43 = stablehlo.slice %42 [0:2, 0:16, 0:32] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %44 = stablehlo.slice %42 [0:2, 0:16, 32:64] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %45 = stablehlo.slice %42 [0:2, 0:16, 64:96] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %46 = stablehlo.reshape %43 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %47 = stablehlo.transpose %46, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %48 = stablehlo.reshape %44 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %49 = stablehlo.transpose %48, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %50 = stablehlo.reshape %45 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %51 = stablehlo.transpose %50, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %52 = stablehlo.dot_general %47, %49, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_7 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %53 = stablehlo.sqrt %cst_7 : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %55 = stablehlo.divide %52, %54 : tensor<2x4x16x16xf32>
    %56 = stablehlo.iota dim = 0 : tensor<16xi32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %58 = stablehlo.iota dim = 0 : tensor<16xi32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %60 = stablehlo.broadcast_in_dim %57, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %61 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %62 = stablehlo.compare GE, %60, %61, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_8 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %63:2 = call @_where(%62, %55, %cst_8) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>)
    %cst_9 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %64 = stablehlo.reduce(%63#0 init: %cst_9) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_10 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %66 = stablehlo.maximum %65, %64 : tensor<2x4x16xf32>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %69 = stablehlo.subtract %63#0, %68 : tensor<2x4x16x16xf32>
    %70 = stablehlo.exponential %69 : tensor<2x4x16x16xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %71 = stablehlo.reduce(%70 init: %cst_11) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %74 = stablehlo.divide %70, %73 : tensor<2x4x16x16xf32>
    %75 = stablehlo.multiply %72, %72 : tensor<2x4x16x1xf32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x4x16x1xf32>
    %77 = stablehlo.divide %76, %75 : tensor<2x4x16x1xf32>
    %78 = stablehlo.dot_general %74, %51, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %79 = stablehlo.transpose %78, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %80 = stablehlo.reshape %79 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %81 = stablehlo.dot_general %80, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %82 = stablehlo.add %9, %81 : tensor<2x16x32xf32>
    %83 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %85 = stablehlo.add %82, %84 : tensor<2x16x32xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %86 = stablehlo.reduce(%85 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_14 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %89 = stablehlo.divide %87, %88 : tensor<2x16x1xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %91 = stablehlo.subtract %85, %90 : tensor<2x16x32xf32>
    %92 = chlo.square %91 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_15 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x16x32xf32>
    %94 = stablehlo.multiply %93, %91 : tensor<2x16x32xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %95 = stablehlo.reduce(%92 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %96 = stablehlo.broadcast_in_dim %95, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_17 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %98 = stablehlo.divide %96, %97 : tensor<2x16x1xf32>
    %99 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %100 = stablehlo.subtract %85, %99 : tensor<2x16x32xf32>
    %cst_18 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %102 = stablehlo.add %98, %101 : tensor<2x16x1xf32>
    %103 = stablehlo.rsqrt %102 : tensor<2x16x1xf32>
    %104 = stablehlo.divide %103, %102 : tensor<2x16x1xf32>
    %cst_19 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %106 = stablehlo.multiply %105, %104 : tensor<2x16x1xf32>
    %107 = stablehlo.broadcast_in_dim %103, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %108 = stablehlo.multiply %100, %107 : tensor<2x16x32xf32>
    %109 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %110 = stablehlo.broadcast_in_dim %109, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %111 = stablehlo.multiply %108, %110 : tensor<2x16x32xf32>
    %112 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %114 = stablehlo.add %111, %113 : tensor<2x16x32xf32>
    %115 = stablehlo.dot_general %114, %arg0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x128xf32>) -> tensor<2x16x128xf32>
    %116 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x16x128xf32>
    %118 = stablehlo.add %115, %117 : tensor<2x16x128xf32>
    %119 = stablehlo.multiply %118, %118 : tensor<2x16x128xf32>
    %120 = stablehlo.multiply %119, %118 : tensor<2x16x128xf32>
    %121 = stablehlo.multiply %118, %118 : tensor<2x16x128xf32>
    %cst_20 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %123 = stablehlo.multiply %122, %121 : tensor<2x16x128xf32>
    %cst_21 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %125 = stablehlo.multiply %124, %120 : tensor<2x16x128xf32>
    %126 = stablehlo.add %118, %125 : tensor<2x16x128xf32>
    %cst_22 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %128 = stablehlo.multiply %127, %126 : tensor<2x16x128xf32>
    %129 = stablehlo.tanh %128 : tensor<2x16x128xf32>
    %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %130 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %131 = stablehlo.subtract %130, %129 : tensor<2x16x128xf32>
    %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %133 = stablehlo.add %132, %129 : tensor<2x16x128xf32>
    %cst_25 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %134 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %135 = stablehlo.multiply %134, %133 : tensor<2x16x128xf32>
    %136 = stablehlo.multiply %118, %135 : tensor<2x16x128xf32>
    %137 = stablehlo.dot_general %136, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xf32>, tensor<128x32xf32>) -> tensor<2x16x32xf32>
    %138 = stablehlo.add %85, %137 : tensor<2x16x32xf32>
    %139 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %140 = stablehlo.broadcast_in_dim %139, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %141 = stablehlo.add %138, %140 : tensor<2x16x32xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %142 = stablehlo.reduce(%141 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_27 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %144 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %145 = stablehlo.divide %143, %144 : tensor<2x16x1xf32>
    %146 = stablehlo.broadcast_in_dim %145, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %147 = stablehlo.subtract %141, %146 : tensor<2x16x32xf32>
    %148 = chlo.square %147 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_28 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<2x16x32xf32>
    %150 = stablehlo.multiply %149, %147 : tensor<2x16x32xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %151 = stablehlo.reduce(%148 init: %cst_29) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_30 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %153 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %154 = stablehlo.divide %152, %153 : tensor<2x16x1xf32>
    %155 = stablehlo.broadcast_in_dim %145, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %156 = stablehlo.subtract %141, %155 : tensor<2x16x32xf32>
    %cst_31 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %157 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %158 = stablehlo.add %154, %157 : tensor<2x16x1xf32>
    %159 = stablehlo.rsqrt %158 : tensor<2x16x1xf32>
    %160 = stablehlo.divide %159, %158 : tensor<2x16x1xf32>
    %cst_32 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %161 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %162 = stablehlo.multiply %161, %160 : tensor<2x16x1xf32>
    %163 = stablehlo.broadcast_in_dim %159, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %164 = stablehlo.multiply %156, %163 : tensor<2x16x32xf32>
    %165 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %166 = stablehlo.broadcast_in_dim %165, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %167 = stablehlo.multiply %164, %166 : tensor<2x16x32xf32>
    %168 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %169 = stablehlo.broadcast_in_dim %168, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %170 = stablehlo.add %167, %169 : tensor<2x16x32xf32>
    %171 = stablehlo.dot_general %170, %arg22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x96xf32>) -> tensor<2x16x96xf32>
    %172 = stablehlo.broadcast_in_dim %arg23, dims = [2] : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %173 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2] : (tensor<1x1x96xf32>) -> tensor<2x16x96xf32>
    %174 = stablehlo.add %171, %173 : tensor<2x16x96xf32>
    %175 = stablehlo.slice %174 [0:2, 0:16, 0:32] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %176 = stablehlo.slice %174 [0:2, 0:16, 32:64] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %177 = stablehlo.slice %174 [0:2, 0:16, 64:96] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %178 = stablehlo.reshape %175 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %179 = stablehlo.transpose %178, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %180 = stablehlo.reshape %176 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %181 = stablehlo.transpose %180, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %182 = stablehlo.reshape %177 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %183 = stablehlo.transpose %182, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %184 = stablehlo.dot_general %179, %181, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_33 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %185 = stablehlo.sqrt %cst_33 : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %185, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %187 = stablehlo.divide %184, %186 : tensor<2x4x16x16xf32>
    %188 = stablehlo.iota dim = 0 : tensor<16xi32>
    %189 = stablehlo.broadcast_in_dim %188, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %190 = stablehlo.iota dim = 0 : tensor<16xi32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %192 = stablehlo.broadcast_in_dim %189, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %193 = stablehlo.broadcast_in_dim %191, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %194 = stablehlo.compare GE, %192, %193, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_34 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %195:2 = call @_where(%194, %187, %cst_34) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>)
    %cst_35 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %196 = stablehlo.reduce(%195#0 init: %cst_35) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_36 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %197 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %198 = stablehlo.maximum %197, %196 : tensor<2x4x16xf32>
    %199 = stablehlo.broadcast_in_dim %198, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %200 = stablehlo.broadcast_in_dim %199, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %201 = stablehlo.subtract %195#0, %200 : tensor<2x4x16x16xf32>
    %202 = stablehlo.exponential %201 : tensor<2x4x16x16xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %203 = stablehlo.reduce(%202 init: %cst_37) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %204 = stablehlo.broadcast_in_dim %203, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %205 = stablehlo.broadcast_in_dim %204, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %206 = stablehlo.divide %202, %205 : tensor<2x4x16x16xf32>
    %207 = stablehlo.multiply %204, %204 : tensor<2x4x16x1xf32>
    %cst_38 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %208 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x4x16x1xf32>
    %209 = stablehlo.divide %208, %207 : tensor<2x4x16x1xf32>
    %210 = stablehlo.dot_general %206, %183, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %211 = stablehlo.transpose %210, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %212 = stablehlo.reshape %211 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %213 = stablehlo.dot_general %212, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %214 = stablehlo.add %141, %213 : tensor<2x16x32xf32>
    %215 = stablehlo.broadcast_in_dim %arg21, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %216 = stablehlo.broadcast_in_dim %215, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %217 = stablehlo.add %214, %216 : tensor<2x16x32xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %218 = stablehlo.reduce(%217 init: %cst_39) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %219 = stablehlo.broadcast_in_dim %218, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_40 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %220 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %221 = stablehlo.divide %219, %220 : tensor<2x16x1xf32>
    %222 = stablehlo.broadcast_in_dim %221, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %223 = stablehlo.subtract %217, %222 : tensor<2x16x32xf32>
    %224 = chlo.square %223 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_41 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %225 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<2x16x32xf32>
    %226 = stablehlo.multiply %225, %223 : tensor<2x16x32xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %227 = stablehlo.reduce(%224 init: %cst_42) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %228 = stablehlo.broadcast_in_dim %227, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_43 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %229 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %230 = stablehlo.divide %228, %229 : tensor<2x16x1xf32>
    %231 = stablehlo.broadcast_in_dim %221, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %232 = stablehlo.subtract %217, %231 : tensor<2x16x32xf32>
    %cst_44 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %233 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %234 = stablehlo.add %230, %233 : tensor<2x16x1xf32>
    %235 = stablehlo.rsqrt %234 : tensor<2x16x1xf32>
    %236 = stablehlo.divide %235, %234 : tensor<2x16x1xf32>
    %cst_45 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %237 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %238 = stablehlo.multiply %237, %236 : tensor<2x16x1xf32>
    %239 = stablehlo.broadcast_in_dim %235, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %240 = stablehlo.multiply %232, %239 : tensor<2x16x32xf32>
    %241 = stablehlo.broadcast_in_dim %arg17, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %242 = stablehlo.broadcast_in_dim %241, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %243 = stablehlo.multiply %240, %242 : tensor<2x16x32xf32>
    %244 = stablehlo.broadcast_in_dim %arg16, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %245 = stablehlo.broadcast_in_dim %244, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %246 = stablehlo.add %243, %245 : tensor<2x16x32xf32>
    %247 = stablehlo.dot_general %246, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x128xf32>) -> tensor<2x16x128xf32>
    %248 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %249 = stablehlo.broadcast_in_dim %248, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x16x128xf32>
    %250 = stablehlo.add %247, %249 : tensor<2x16x128xf32>
    %251 = stablehlo.multiply %250, %250 : tensor<2x16x128xf32>
    %252 = stablehlo.multiply %251, %250 : tensor<2x16x128xf32>
    %253 = stablehlo.multiply %250, %250 : tensor<2x16x128xf32>
    %cst_46 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %254 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %255 = stablehlo.multiply %254, %253 : tensor<2x16x128xf32>
    %cst_47 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %256 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %257 = stablehlo.multiply %256, %252 : tensor<2x16x128xf32>
    %258 = stablehlo.add %250, %257 : tensor<2x16x128xf32>
    %cst_48 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %259 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %260 = stablehlo.multiply %259, %258 : tensor<2x16x128xf32>
    %261 = stablehlo.tanh %260 : tensor<2x16x128xf32>
    %cst_49 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %262 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %263 = stablehlo.subtract %262, %261 : tensor<2x16x128xf32>
    %cst_50 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %264 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %265 = stablehlo.add %264, %261 : tensor<2x16x128xf32>
    %cst_51 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %266 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %267 = stablehlo.multiply %266, %265 : tensor<2x16x128xf32>
    %268 = stablehlo.multiply %250, %267 : tensor<2x16x128xf32>
    %269 = stablehlo.dot_general %268, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xf32>, tensor<128x32xf32>) -> tensor<2x16x32xf32>
    %270 = stablehlo.add %217, %269 : tensor<2x16x32xf32>
    %271 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %272 = stablehlo.broadcast_in_dim %271, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %273 = stablehlo.add %270, %272 : tensor<2x16x32xf32>
    %cst_52 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %274 = stablehlo.reduce(%273 init: %cst_52) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %275 = stablehlo.broadcast_in_dim %274, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_53 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %276 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %277 = stablehlo.divide %275, %276 : tensor<2x16x1xf32>
    %278 = stablehlo.broadcast_in_dim %277, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %279 = stablehlo.subtract %273, %278 : tensor<2x16x32xf32>
    %280 = chlo.square %279 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_54 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %281 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<2x16x32xf32>
    %282 = stablehlo.multiply %281, %279 : tensor<2x16x32xf32>
    %cst_55 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %283 = stablehlo.reduce(%280 init: %cst_55) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %284 = stablehlo.broadcast_in_dim %283, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_56 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %285 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %286 = stablehlo.divide %284, %285 : tensor<2x16x1xf32>
    %287 = stablehlo.broadcast_in_dim %277, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %288 = stablehlo.subtract %273, %287 : tensor<2x16x32xf32>
    %cst_57 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %289 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %290 = stablehlo.add %286, %289 : tensor<2x16x1xf32>
    %291 = stablehlo.rsqrt %290 : tensor<2x16x1xf32>
    %292 = stablehlo.divide %291, %290 : tensor<2x16x1xf32>
    %cst_58 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %293 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %294 = stablehlo.multiply %293, %292 : tensor<2x16x1xf32>
    %295 = stablehlo.broadcast_in_dim %291, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %296 = stablehlo.multiply %288, %295 : tensor<2x16x32xf32>
    %297 = stablehlo.broadcast_in_dim %arg25, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %298 = stablehlo.broadcast_in_dim %297, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %299 = stablehlo.multiply %296, %298 : tensor<2x16x32xf32>
    %300 = stablehlo.broadcast_in_dim %arg24, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %301 = stablehlo.broadcast_in_dim %300, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %302 = stablehlo.add %299, %301 : tensor<2x16x32xf32>
    %303 = stablehlo.transpose %arg27, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %304 = stablehlo.dot_general %302, %303, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %305:3 = call @log_softmax(%304) : (tensor<2x16x64xf32>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x1xf32>)
    %306 = stablehlo.broadcast_in_dim %arg29, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %307:2 = call @take_along_axis(%305#0, %306) : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> (tensor<2x16x1xf32>, tensor<2x16x1x1xi32>)
    %308 = stablehlo.reshape %307#0 : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %cst_59 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %309 = stablehlo.reduce(%308 init: %cst_59) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_60 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %310 = stablehlo.divide %309, %cst_60 : tensor<f32>
    %311 = stablehlo.negate %310 : tensor<f32>
    %cst_61 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %312 = stablehlo.negate %cst_61 : tensor<f32>
    %cst_62 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %313 = stablehlo.divide %312, %cst_62 : tensor<f32>
    %314 = stablehlo.broadcast_in_dim %313, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %315 = stablehlo.broadcast_in_dim %314, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %316 = call @take_along_axis_0(%307#1, %315) : (tensor<2x16x1x1xi32>, tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %317 = call @log_softmax_1(%305#1, %305#2, %316) : (tensor<2x16x64xf32>, tensor<2x16x1xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %318 = stablehlo.dot_general %317, %302, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %319 = stablehlo.transpose %318, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %320 = stablehlo.dot_general %317, %303, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<32x64xf32>) -> tensor<2x16x32xf32>
    %321 = stablehlo.transpose %319, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %cst_63 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %322 = stablehlo.reduce(%320 init: %cst_63) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %323 = stablehlo.reshape %322 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_64 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %324 = stablehlo.reduce(%323 init: %cst_64) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %325 = stablehlo.multiply %296, %320 : tensor<2x16x32xf32>
    %cst_65 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %326 = stablehlo.reduce(%325 init: %cst_65) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %327 = stablehlo.reshape %326 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %328 = stablehlo.broadcast_in_dim %297, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %329 = stablehlo.multiply %320, %328 : tensor<2x16x32xf32>
    %cst_66 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %330 = stablehlo.reduce(%327 init: %cst_66) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %331 = stablehlo.multiply %288, %329 : tensor<2x16x32xf32>
    %cst_67 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %332 = stablehlo.reduce(%331 init: %cst_67) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %333 = stablehlo.reshape %332 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %334 = stablehlo.broadcast_in_dim %291, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %335 = stablehlo.multiply %329, %334 : tensor<2x16x32xf32>
    %336 = stablehlo.multiply %333, %294 : tensor<2x16x1xf32>
    %337 = stablehlo.negate %335 : tensor<2x16x32xf32>
    %cst_68 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %338 = stablehlo.reduce(%337 init: %cst_68) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %339 = stablehlo.reshape %338 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_69 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %340 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %341 = stablehlo.divide %336, %340 : tensor<2x16x1xf32>
    %cst_70 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %342 = stablehlo.reduce(%341 init: %cst_70) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %343 = stablehlo.broadcast_in_dim %342, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %344 = stablehlo.multiply %343, %282 : tensor<2x16x32xf32>
    %345 = stablehlo.negate %344 : tensor<2x16x32xf32>
    %cst_71 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %346 = stablehlo.reduce(%345 init: %cst_71) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %347 = stablehlo.reshape %346 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %348 = stablehlo.add %335, %344 : tensor<2x16x32xf32>
    %349 = stablehlo.add %339, %347 : tensor<2x16x1xf32>
    %cst_72 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %350 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %351 = stablehlo.divide %349, %350 : tensor<2x16x1xf32>
    %cst_73 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %352 = stablehlo.reduce(%351 init: %cst_73) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %353 = stablehlo.broadcast_in_dim %352, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %354 = stablehlo.add %348, %353 : tensor<2x16x32xf32>
    %cst_74 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %355 = stablehlo.reduce(%354 init: %cst_74) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %356 = stablehlo.reshape %355 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_75 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %357 = stablehlo.reduce(%356 init: %cst_75) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %358 = stablehlo.dot_general %354, %268, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x16x128xf32>) -> tensor<32x128xf32>
    %359 = stablehlo.transpose %358, dims = [1, 0] : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %360 = stablehlo.dot_general %354, %arg18, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<128x32xf32>) -> tensor<2x16x128xf32>
    %361 = stablehlo.multiply %250, %360 : tensor<2x16x128xf32>
    %362 = stablehlo.multiply %360, %267 : tensor<2x16x128xf32>
    %cst_76 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %363 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %364 = stablehlo.multiply %363, %361 : tensor<2x16x128xf32>
    %365 = stablehlo.multiply %364, %263 : tensor<2x16x128xf32>
    %366 = stablehlo.multiply %365, %261 : tensor<2x16x128xf32>
    %367 = stablehlo.add %365, %366 : tensor<2x16x128xf32>
    %cst_77 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %368 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %369 = stablehlo.multiply %368, %367 : tensor<2x16x128xf32>
    %370 = stablehlo.add %362, %369 : tensor<2x16x128xf32>
    %cst_78 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %371 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %372 = stablehlo.multiply %371, %369 : tensor<2x16x128xf32>
    %373 = stablehlo.multiply %372, %255 : tensor<2x16x128xf32>
    %374 = stablehlo.add %370, %373 : tensor<2x16x128xf32>
    %cst_79 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %375 = stablehlo.reduce(%374 init: %cst_79) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x128xf32>, tensor<f32>) -> tensor<128xf32>
    %376 = stablehlo.reshape %375 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_80 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %377 = stablehlo.reduce(%376 init: %cst_80) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %378 = stablehlo.dot_general %374, %246, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xf32>, tensor<2x16x32xf32>) -> tensor<128x32xf32>
    %379 = stablehlo.transpose %378, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %380 = stablehlo.dot_general %374, %arg12, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xf32>, tensor<32x128xf32>) -> tensor<2x16x32xf32>
    %cst_81 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %381 = stablehlo.reduce(%380 init: %cst_81) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %382 = stablehlo.reshape %381 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_82 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %383 = stablehlo.reduce(%382 init: %cst_82) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %384 = stablehlo.multiply %240, %380 : tensor<2x16x32xf32>
    %cst_83 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %385 = stablehlo.reduce(%384 init: %cst_83) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %386 = stablehlo.reshape %385 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %387 = stablehlo.broadcast_in_dim %241, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %388 = stablehlo.multiply %380, %387 : tensor<2x16x32xf32>
    %cst_84 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %389 = stablehlo.reduce(%386 init: %cst_84) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %390 = stablehlo.multiply %232, %388 : tensor<2x16x32xf32>
    %cst_85 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %391 = stablehlo.reduce(%390 init: %cst_85) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %392 = stablehlo.reshape %391 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %393 = stablehlo.broadcast_in_dim %235, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %394 = stablehlo.multiply %388, %393 : tensor<2x16x32xf32>
    %395 = stablehlo.multiply %392, %238 : tensor<2x16x1xf32>
    %396 = stablehlo.negate %394 : tensor<2x16x32xf32>
    %cst_86 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %397 = stablehlo.reduce(%396 init: %cst_86) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %398 = stablehlo.reshape %397 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %399 = stablehlo.add %354, %394 : tensor<2x16x32xf32>
    %cst_87 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %400 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %401 = stablehlo.divide %395, %400 : tensor<2x16x1xf32>
    %cst_88 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %402 = stablehlo.reduce(%401 init: %cst_88) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %403 = stablehlo.broadcast_in_dim %402, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %404 = stablehlo.multiply %403, %226 : tensor<2x16x32xf32>
    %405 = stablehlo.negate %404 : tensor<2x16x32xf32>
    %cst_89 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %406 = stablehlo.reduce(%405 init: %cst_89) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %407 = stablehlo.reshape %406 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %408 = stablehlo.add %399, %404 : tensor<2x16x32xf32>
    %409 = stablehlo.add %398, %407 : tensor<2x16x1xf32>
    %cst_90 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %410 = stablehlo.broadcast_in_dim %cst_90, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %411 = stablehlo.divide %409, %410 : tensor<2x16x1xf32>
    %cst_91 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %412 = stablehlo.reduce(%411 init: %cst_91) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %413 = stablehlo.broadcast_in_dim %412, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %414 = stablehlo.add %408, %413 : tensor<2x16x32xf32>
    %cst_92 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %415 = stablehlo.reduce(%414 init: %cst_92) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %416 = stablehlo.reshape %415 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_93 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %417 = stablehlo.reduce(%416 init: %cst_93) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %418 = stablehlo.dot_general %414, %212, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<32x32xf32>
    %419 = stablehlo.transpose %418, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %420 = stablehlo.dot_general %414, %arg20, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %421 = stablehlo.reshape %420 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %422 = stablehlo.transpose %421, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %423 = stablehlo.dot_general %422, %206, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x8x16xf32>
    %424 = stablehlo.transpose %423, dims = [0, 1, 3, 2] : (tensor<2x4x8x16xf32>) -> tensor<2x4x16x8xf32>
    %425 = stablehlo.dot_general %422, %183, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %426 = stablehlo.broadcast_in_dim %209, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %427 = stablehlo.multiply %425, %426 : tensor<2x4x16x16xf32>
    %428 = stablehlo.multiply %427, %202 : tensor<2x4x16x16xf32>
    %cst_94 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %429 = stablehlo.reduce(%428 init: %cst_94) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %430 = stablehlo.reshape %429 : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %431 = stablehlo.negate %430 : tensor<2x4x16x1xf32>
    %432 = stablehlo.broadcast_in_dim %204, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %433 = stablehlo.divide %425, %432 : tensor<2x4x16x16xf32>
    %cst_95 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %434 = stablehlo.reduce(%431 init: %cst_95) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x1xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %435 = stablehlo.broadcast_in_dim %434, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x16xf32>
    %436 = stablehlo.add %433, %435 : tensor<2x4x16x16xf32>
    %437 = stablehlo.multiply %436, %202 : tensor<2x4x16x16xf32>
    %438 = call @_where_2(%195#1, %437) : (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %439 = stablehlo.broadcast_in_dim %185, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %440 = stablehlo.divide %438, %439 : tensor<2x4x16x16xf32>
    %441 = stablehlo.dot_general %440, %179, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %442 = stablehlo.dot_general %440, %181, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %443 = stablehlo.transpose %424, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %444 = stablehlo.reshape %443 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %445 = stablehlo.transpose %441, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %446 = stablehlo.reshape %445 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %447 = stablehlo.transpose %442, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %448 = stablehlo.reshape %447 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %449 = stablehlo.concatenate %448, %446, %444, dim = 2 : (tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x96xf32>
    %cst_96 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %450 = stablehlo.reduce(%449 init: %cst_96) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x96xf32>, tensor<f32>) -> tensor<96xf32>
    %451 = stablehlo.reshape %450 : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %cst_97 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %452 = stablehlo.reduce(%451 init: %cst_97) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x96xf32>, tensor<f32>) -> tensor<96xf32>
    %453 = stablehlo.dot_general %449, %170, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x96xf32>, tensor<2x16x32xf32>) -> tensor<96x32xf32>
    %454 = stablehlo.transpose %453, dims = [1, 0] : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %455 = stablehlo.dot_general %449, %arg22, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x96xf32>, tensor<32x96xf32>) -> tensor<2x16x32xf32>
    %cst_98 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %456 = stablehlo.reduce(%455 init: %cst_98) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %457 = stablehlo.reshape %456 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_99 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %458 = stablehlo.reduce(%457 init: %cst_99) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %459 = stablehlo.multiply %164, %455 : tensor<2x16x32xf32>
    %cst_100 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %460 = stablehlo.reduce(%459 init: %cst_100) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %461 = stablehlo.reshape %460 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %462 = stablehlo.broadcast_in_dim %165, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %463 = stablehlo.multiply %455, %462 : tensor<2x16x32xf32>
    %cst_101 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %464 = stablehlo.reduce(%461 init: %cst_101) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %465 = stablehlo.multiply %156, %463 : tensor<2x16x32xf32>
    %cst_102 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %466 = stablehlo.reduce(%465 init: %cst_102) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %467 = stablehlo.reshape %466 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %468 = stablehlo.broadcast_in_dim %159, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %469 = stablehlo.multiply %463, %468 : tensor<2x16x32xf32>
    %470 = stablehlo.multiply %467, %162 : tensor<2x16x1xf32>
    %471 = stablehlo.negate %469 : tensor<2x16x32xf32>
    %cst_103 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %472 = stablehlo.reduce(%471 init: %cst_103) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %473 = stablehlo.reshape %472 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %474 = stablehlo.add %414, %469 : tensor<2x16x32xf32>
    %cst_104 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %475 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %476 = stablehlo.divide %470, %475 : tensor<2x16x1xf32>
    %cst_105 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %477 = stablehlo.reduce(%476 init: %cst_105) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %478 = stablehlo.broadcast_in_dim %477, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %479 = stablehlo.multiply %478, %150 : tensor<2x16x32xf32>
    %480 = stablehlo.negate %479 : tensor<2x16x32xf32>
    %cst_106 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %481 = stablehlo.reduce(%480 init: %cst_106) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %482 = stablehlo.reshape %481 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %483 = stablehlo.add %474, %479 : tensor<2x16x32xf32>
    %484 = stablehlo.add %473, %482 : tensor<2x16x1xf32>
    %cst_107 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %485 = stablehlo.broadcast_in_dim %cst_107, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %486 = stablehlo.divide %484, %485 : tensor<2x16x1xf32>
    %cst_108 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %487 = stablehlo.reduce(%486 init: %cst_108) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %488 = stablehlo.broadcast_in_dim %487, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %489 = stablehlo.add %483, %488 : tensor<2x16x32xf32>
    %cst_109 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %490 = stablehlo.reduce(%489 init: %cst_109) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %491 = stablehlo.reshape %490 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_110 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %492 = stablehlo.reduce(%491 init: %cst_110) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %493 = stablehlo.dot_general %489, %136, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x16x128xf32>) -> tensor<32x128xf32>
    %494 = stablehlo.transpose %493, dims = [1, 0] : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %495 = stablehlo.dot_general %489, %arg6, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<128x32xf32>) -> tensor<2x16x128xf32>
    %496 = stablehlo.multiply %118, %495 : tensor<2x16x128xf32>
    %497 = stablehlo.multiply %495, %135 : tensor<2x16x128xf32>
    %cst_111 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %498 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %499 = stablehlo.multiply %498, %496 : tensor<2x16x128xf32>
    %500 = stablehlo.multiply %499, %131 : tensor<2x16x128xf32>
    %501 = stablehlo.multiply %500, %129 : tensor<2x16x128xf32>
    %502 = stablehlo.add %500, %501 : tensor<2x16x128xf32>
    %cst_112 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %503 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %504 = stablehlo.multiply %503, %502 : tensor<2x16x128xf32>
    %505 = stablehlo.add %497, %504 : tensor<2x16x128xf32>
    %cst_113 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %506 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %507 = stablehlo.multiply %506, %504 : tensor<2x16x128xf32>
    %508 = stablehlo.multiply %507, %123 : tensor<2x16x128xf32>
    %509 = stablehlo.add %505, %508 : tensor<2x16x128xf32>
    %cst_114 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %510 = stablehlo.reduce(%509 init: %cst_114) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x128xf32>, tensor<f32>) -> tensor<128xf32>
    %511 = stablehlo.reshape %510 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_115 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %512 = stablehlo.reduce(%511 init: %cst_115) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %513 = stablehlo.dot_general %509, %114, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xf32>, tensor<2x16x32xf32>) -> tensor<128x32xf32>
    %514 = stablehlo.transpose %513, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %515 = stablehlo.dot_general %509, %arg0, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xf32>, tensor<32x128xf32>) -> tensor<2x16x32xf32>
    %cst_116 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %516 = stablehlo.reduce(%515 init: %cst_116) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %517 = stablehlo.reshape %516 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_117 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %518 = stablehlo.reduce(%517 init: %cst_117) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %519 = stablehlo.multiply %108, %515 : tensor<2x16x32xf32>
    %cst_118 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %520 = stablehlo.reduce(%519 init: %cst_118) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %521 = stablehlo.reshape %520 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %522 = stablehlo.broadcast_in_dim %109, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %523 = stablehlo.multiply %515, %522 : tensor<2x16x32xf32>
    %cst_119 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %524 = stablehlo.reduce(%521 init: %cst_119) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %525 = stablehlo.multiply %100, %523 : tensor<2x16x32xf32>
    %cst_120 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %526 = stablehlo.reduce(%525 init: %cst_120) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %527 = stablehlo.reshape %526 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %528 = stablehlo.broadcast_in_dim %103, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %529 = stablehlo.multiply %523, %528 : tensor<2x16x32xf32>
    %530 = stablehlo.multiply %527, %106 : tensor<2x16x1xf32>
    %531 = stablehlo.negate %529 : tensor<2x16x32xf32>
    %cst_121 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %532 = stablehlo.reduce(%531 init: %cst_121) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %533 = stablehlo.reshape %532 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %534 = stablehlo.add %489, %529 : tensor<2x16x32xf32>
    %cst_122 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %535 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %536 = stablehlo.divide %530, %535 : tensor<2x16x1xf32>
    %cst_123 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %537 = stablehlo.reduce(%536 init: %cst_123) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %538 = stablehlo.broadcast_in_dim %537, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %539 = stablehlo.multiply %538, %94 : tensor<2x16x32xf32>
    %540 = stablehlo.negate %539 : tensor<2x16x32xf32>
    %cst_124 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %541 = stablehlo.reduce(%540 init: %cst_124) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %542 = stablehlo.reshape %541 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %543 = stablehlo.add %534, %539 : tensor<2x16x32xf32>
    %544 = stablehlo.add %533, %542 : tensor<2x16x1xf32>
    %cst_125 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %545 = stablehlo.broadcast_in_dim %cst_125, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %546 = stablehlo.divide %544, %545 : tensor<2x16x1xf32>
    %cst_126 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %547 = stablehlo.reduce(%546 init: %cst_126) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %548 = stablehlo.broadcast_in_dim %547, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %549 = stablehlo.add %543, %548 : tensor<2x16x32xf32>
    %cst_127 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %550 = stablehlo.reduce(%549 init: %cst_127) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %551 = stablehlo.reshape %550 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_128 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %552 = stablehlo.reduce(%551 init: %cst_128) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %553 = stablehlo.dot_general %549, %80, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<32x32xf32>
    %554 = stablehlo.transpose %553, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %555 = stablehlo.dot_general %549, %arg8, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %556 = stablehlo.reshape %555 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %557 = stablehlo.transpose %556, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %558 = stablehlo.dot_general %557, %74, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x8x16xf32>
    %559 = stablehlo.transpose %558, dims = [0, 1, 3, 2] : (tensor<2x4x8x16xf32>) -> tensor<2x4x16x8xf32>
    %560 = stablehlo.dot_general %557, %51, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %561 = stablehlo.broadcast_in_dim %77, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %562 = stablehlo.multiply %560, %561 : tensor<2x4x16x16xf32>
    %563 = stablehlo.multiply %562, %70 : tensor<2x4x16x16xf32>
    %cst_129 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %564 = stablehlo.reduce(%563 init: %cst_129) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %565 = stablehlo.reshape %564 : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %566 = stablehlo.negate %565 : tensor<2x4x16x1xf32>
    %567 = stablehlo.broadcast_in_dim %72, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %568 = stablehlo.divide %560, %567 : tensor<2x4x16x16xf32>
    %cst_130 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %569 = stablehlo.reduce(%566 init: %cst_130) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x1xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %570 = stablehlo.broadcast_in_dim %569, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x16xf32>
    %571 = stablehlo.add %568, %570 : tensor<2x4x16x16xf32>
    %572 = stablehlo.multiply %571, %70 : tensor<2x4x16x16xf32>
    %573 = call @_where_2(%63#1, %572) : (tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %574 = stablehlo.broadcast_in_dim %53, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %575 = stablehlo.divide %573, %574 : tensor<2x4x16x16xf32>
    %576 = stablehlo.dot_general %575, %47, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %577 = stablehlo.dot_general %575, %49, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %578 = stablehlo.transpose %559, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %579 = stablehlo.reshape %578 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %580 = stablehlo.transpose %576, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %581 = stablehlo.reshape %580 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %582 = stablehlo.transpose %577, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %583 = stablehlo.reshape %582 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %584 = stablehlo.concatenate %583, %581, %579, dim = 2 : (tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x96xf32>
    %cst_131 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %585 = stablehlo.reduce(%584 init: %cst_131) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x96xf32>, tensor<f32>) -> tensor<96xf32>
    %586 = stablehlo.reshape %585 : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %cst_132 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %587 = stablehlo.reduce(%586 init: %cst_132) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x96xf32>, tensor<f32>) -> tensor<96xf32>
    %588 = stablehlo.dot_general %584, %38, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x96xf32>, tensor<2x16x32xf32>) -> tensor<96x32xf32>
    %589 = stablehlo.transpose %588, dims = [1, 0] : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %590 = stablehlo.dot_general %584, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x96xf32>, tensor<32x96xf32>) -> tensor<2x16x32xf32>
    %cst_133 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %591 = stablehlo.reduce(%590 init: %cst_133) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %592 = stablehlo.reshape %591 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_134 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %593 = stablehlo.reduce(%592 init: %cst_134) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %594 = stablehlo.multiply %32, %590 : tensor<2x16x32xf32>
    %cst_135 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %595 = stablehlo.reduce(%594 init: %cst_135) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<32xf32>
    %596 = stablehlo.reshape %595 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %597 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %598 = stablehlo.multiply %590, %597 : tensor<2x16x32xf32>
    %cst_136 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %599 = stablehlo.reduce(%596 init: %cst_136) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %600 = stablehlo.multiply %24, %598 : tensor<2x16x32xf32>
    %cst_137 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %601 = stablehlo.reduce(%600 init: %cst_137) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %602 = stablehlo.reshape %601 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %603 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %604 = stablehlo.multiply %598, %603 : tensor<2x16x32xf32>
    %605 = stablehlo.multiply %602, %30 : tensor<2x16x1xf32>
    %606 = stablehlo.negate %604 : tensor<2x16x32xf32>
    %cst_138 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %607 = stablehlo.reduce(%606 init: %cst_138) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %608 = stablehlo.reshape %607 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %609 = stablehlo.add %549, %604 : tensor<2x16x32xf32>
    %cst_139 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %610 = stablehlo.broadcast_in_dim %cst_139, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %611 = stablehlo.divide %605, %610 : tensor<2x16x1xf32>
    %cst_140 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %612 = stablehlo.reduce(%611 init: %cst_140) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %613 = stablehlo.broadcast_in_dim %612, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %614 = stablehlo.multiply %613, %18 : tensor<2x16x32xf32>
    %615 = stablehlo.negate %614 : tensor<2x16x32xf32>
    %cst_141 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %616 = stablehlo.reduce(%615 init: %cst_141) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %617 = stablehlo.reshape %616 : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %618 = stablehlo.add %609, %614 : tensor<2x16x32xf32>
    %619 = stablehlo.add %608, %617 : tensor<2x16x1xf32>
    %cst_142 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %620 = stablehlo.broadcast_in_dim %cst_142, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %621 = stablehlo.divide %619, %620 : tensor<2x16x1xf32>
    %cst_143 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %622 = stablehlo.reduce(%621 init: %cst_143) applies stablehlo.add across dimensions = [2] : (tensor<2x16x1xf32>, tensor<f32>) -> tensor<2x16xf32>
    %623 = stablehlo.broadcast_in_dim %622, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x32xf32>
    %624 = stablehlo.add %618, %623 : tensor<2x16x32xf32>
    %cst_144 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %625 = stablehlo.reduce(%624 init: %cst_144) applies stablehlo.add across dimensions = [0] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<16x32xf32>
    %626 = stablehlo.reshape %625 : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %cst_145 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %627 = stablehlo.reduce(%626 init: %cst_145) applies stablehlo.add across dimensions = [0] : (tensor<1x16x32xf32>, tensor<f32>) -> tensor<16x32xf32>
    %cst_146 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %628 = stablehlo.broadcast_in_dim %cst_146, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %629 = "stablehlo.scatter"(%628, %5, %624) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg30: tensor<f32>, %arg31: tensor<f32>):
      %631 = stablehlo.add %arg30, %arg31 : tensor<f32>
      stablehlo.return %631 : tensor<f32>
    }) : (tensor<64x32xf32>, tensor<2x16x1xi32>, tensor<2x16x32xf32>) -> tensor<64x32xf32>
    %630 = stablehlo.add %321, %629 : tensor<64x32xf32>
    return %311, %514, %512, %593, %599, %518, %524, %494, %492, %554, %552, %589, %587, %379, %377, %458, %464, %383, %389, %359, %357, %419, %417, %454, %452, %324, %330, %627, %630 : tensor<f32>, tensor<32x128xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x96xf32>, tensor<96xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x96xf32>, tensor<96xf32>, tensor<32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<64x32xf32>
  }
  func.func private @_where(%arg0: tensor<16x16xi1>, %arg1: tensor<2x4x16x16xf32>, %arg2: tensor<f32>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<2x4x16x16xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>
    return %2, %0 : tensor<2x4x16x16xf32>, tensor<2x4x16x16xi1>
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
  func.func private @_where_2(%arg0: tensor<2x4x16x16xi1>, %arg1: tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>
    return %1 : tensor<2x4x16x16xf32>
  }
}

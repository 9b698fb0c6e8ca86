module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x128xf32>, %arg1: tensor<128xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<128x32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<32x32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32x96xf32>, %arg11: tensor<96xf32>, %arg12: tensor<32x128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<32xf32>, %arg17: tensor<32xf32>, %arg18: tensor<128x32xf32>, %arg19: tensor<32xf32>, %arg20: tensor<32x32xf32>, %arg21: tensor<32xf32>, %arg22: tensor<32x96xf32>, %arg23: tensor<96xf32>, %arg24: tensor<32xf32>, %arg25: tensor<32xf32>, %arg26: tensor<16x32xf32>, %arg27: tensor<64x32xf32>, %arg28: tensor<2x16xi32>, %arg29: tensor<2x16xi32>) -> (tensor<f32> {jax.result_info = "result"}) {
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
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%16 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_3 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %20 = stablehlo.divide %18, %19 : tensor<2x16x1xf32>
    %21 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %22 = stablehlo.subtract %9, %21 : tensor<2x16x32xf32>
    %cst_4 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %24 = stablehlo.add %20, %23 : tensor<2x16x1xf32>
    %25 = stablehlo.rsqrt %24 : tensor<2x16x1xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %27 = stablehlo.multiply %22, %26 : tensor<2x16x32xf32>
    %28 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %30 = stablehlo.multiply %27, %29 : tensor<2x16x32xf32>
    %31 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %33 = stablehlo.add %30, %32 : tensor<2x16x32xf32>
    %34 = stablehlo.dot_general %33, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x96xf32>) -> tensor<2x16x96xf32>
    %35 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<1x1x96xf32>) -> tensor<2x16x96xf32>
    %37 = stablehlo.add %34, %36 : tensor<2x16x96xf32>
    %38 = stablehlo.slice %37 [0:2, 0:16, 0:32] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %39 = stablehlo.slice %37 [0:2, 0:16, 32:64] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %40 = stablehlo.slice %37 [0:2, 0:16, 64:96] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %41 = stablehlo.reshape %38 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %42 = stablehlo.transpose %41, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %43 = stablehlo.reshape %39 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %44 = stablehlo.transpose %43, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %45 = stablehlo.reshape %40 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %46 = stablehlo.transpose %45, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %47 = stablehlo.dot_general %42, %44, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_5 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %48 = stablehlo.sqrt %cst_5 : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %50 = stablehlo.divide %47, %49 : tensor<2x4x16x16xf32>
    %51 = stablehlo.iota dim = 0 : tensor<16xi32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %53 = stablehlo.iota dim = 0 : tensor<16xi32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %55 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %56 = stablehlo.broadcast_in_dim %54, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %57 = stablehlo.compare GE, %55, %56, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_6 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %58 = call @_where(%57, %50, %cst_6) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %59 = stablehlo.reduce(%58 init: %cst_7) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %61 = stablehlo.maximum %60, %59 : tensor<2x4x16xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %64 = stablehlo.subtract %58, %63 : tensor<2x4x16x16xf32>
    %65 = stablehlo.exponential %64 : tensor<2x4x16x16xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %66 = stablehlo.reduce(%65 init: %cst_9) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %69 = stablehlo.divide %65, %68 : tensor<2x4x16x16xf32>
    %70 = stablehlo.dot_general %69, %46, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %71 = stablehlo.transpose %70, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %72 = stablehlo.reshape %71 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %73 = stablehlo.dot_general %72, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %74 = stablehlo.add %9, %73 : tensor<2x16x32xf32>
    %75 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %77 = stablehlo.add %74, %76 : tensor<2x16x32xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %78 = stablehlo.reduce(%77 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_11 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %81 = stablehlo.divide %79, %80 : tensor<2x16x1xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %83 = stablehlo.subtract %77, %82 : tensor<2x16x32xf32>
    %84 = chlo.square %83 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.reduce(%84 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %86 = stablehlo.broadcast_in_dim %85, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_13 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %88 = stablehlo.divide %86, %87 : tensor<2x16x1xf32>
    %89 = stablehlo.broadcast_in_dim %81, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %90 = stablehlo.subtract %77, %89 : tensor<2x16x32xf32>
    %cst_14 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %92 = stablehlo.add %88, %91 : tensor<2x16x1xf32>
    %93 = stablehlo.rsqrt %92 : tensor<2x16x1xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %95 = stablehlo.multiply %90, %94 : tensor<2x16x32xf32>
    %96 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %98 = stablehlo.multiply %95, %97 : tensor<2x16x32xf32>
    %99 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %101 = stablehlo.add %98, %100 : tensor<2x16x32xf32>
    %102 = stablehlo.dot_general %101, %arg0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x128xf32>) -> tensor<2x16x128xf32>
    %103 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x16x128xf32>
    %105 = stablehlo.add %102, %104 : tensor<2x16x128xf32>
    %106 = stablehlo.multiply %105, %105 : tensor<2x16x128xf32>
    %107 = stablehlo.multiply %106, %105 : tensor<2x16x128xf32>
    %cst_15 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %109 = stablehlo.multiply %108, %107 : tensor<2x16x128xf32>
    %110 = stablehlo.add %105, %109 : tensor<2x16x128xf32>
    %cst_16 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %112 = stablehlo.multiply %111, %110 : tensor<2x16x128xf32>
    %113 = stablehlo.tanh %112 : tensor<2x16x128xf32>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %115 = stablehlo.add %114, %113 : tensor<2x16x128xf32>
    %cst_18 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %116 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %117 = stablehlo.multiply %116, %115 : tensor<2x16x128xf32>
    %118 = stablehlo.multiply %105, %117 : tensor<2x16x128xf32>
    %119 = stablehlo.dot_general %118, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xf32>, tensor<128x32xf32>) -> tensor<2x16x32xf32>
    %120 = stablehlo.add %77, %119 : tensor<2x16x32xf32>
    %121 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %122 = stablehlo.broadcast_in_dim %121, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %123 = stablehlo.add %120, %122 : tensor<2x16x32xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %124 = stablehlo.reduce(%123 init: %cst_19) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %125 = stablehlo.broadcast_in_dim %124, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_20 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %127 = stablehlo.divide %125, %126 : tensor<2x16x1xf32>
    %128 = stablehlo.broadcast_in_dim %127, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %129 = stablehlo.subtract %123, %128 : tensor<2x16x32xf32>
    %130 = chlo.square %129 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %131 = stablehlo.reduce(%130 init: %cst_21) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_22 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %133 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %134 = stablehlo.divide %132, %133 : tensor<2x16x1xf32>
    %135 = stablehlo.broadcast_in_dim %127, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %136 = stablehlo.subtract %123, %135 : tensor<2x16x32xf32>
    %cst_23 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %138 = stablehlo.add %134, %137 : tensor<2x16x1xf32>
    %139 = stablehlo.rsqrt %138 : tensor<2x16x1xf32>
    %140 = stablehlo.broadcast_in_dim %139, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %141 = stablehlo.multiply %136, %140 : tensor<2x16x32xf32>
    %142 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %144 = stablehlo.multiply %141, %143 : tensor<2x16x32xf32>
    %145 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %146 = stablehlo.broadcast_in_dim %145, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %147 = stablehlo.add %144, %146 : tensor<2x16x32xf32>
    %148 = stablehlo.dot_general %147, %arg22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x96xf32>) -> tensor<2x16x96xf32>
    %149 = stablehlo.broadcast_in_dim %arg23, dims = [2] : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %150 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<1x1x96xf32>) -> tensor<2x16x96xf32>
    %151 = stablehlo.add %148, %150 : tensor<2x16x96xf32>
    %152 = stablehlo.slice %151 [0:2, 0:16, 0:32] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %153 = stablehlo.slice %151 [0:2, 0:16, 32:64] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %154 = stablehlo.slice %151 [0:2, 0:16, 64:96] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %155 = stablehlo.reshape %152 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %156 = stablehlo.transpose %155, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %157 = stablehlo.reshape %153 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %158 = stablehlo.transpose %157, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %159 = stablehlo.reshape %154 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %160 = stablehlo.transpose %159, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %161 = stablehlo.dot_general %156, %158, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_24 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %162 = stablehlo.sqrt %cst_24 : tensor<f32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %164 = stablehlo.divide %161, %163 : tensor<2x4x16x16xf32>
    %165 = stablehlo.iota dim = 0 : tensor<16xi32>
    %166 = stablehlo.broadcast_in_dim %165, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %167 = stablehlo.iota dim = 0 : tensor<16xi32>
    %168 = stablehlo.broadcast_in_dim %167, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %169 = stablehlo.broadcast_in_dim %166, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %170 = stablehlo.broadcast_in_dim %168, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %171 = stablehlo.compare GE, %169, %170, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_25 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %172 = call @_where(%171, %164, %cst_25) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %cst_26 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %173 = stablehlo.reduce(%172 init: %cst_26) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_27 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %175 = stablehlo.maximum %174, %173 : tensor<2x4x16xf32>
    %176 = stablehlo.broadcast_in_dim %175, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %177 = stablehlo.broadcast_in_dim %176, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %178 = stablehlo.subtract %172, %177 : tensor<2x4x16x16xf32>
    %179 = stablehlo.exponential %178 : tensor<2x4x16x16xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %180 = stablehlo.reduce(%179 init: %cst_28) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %181 = stablehlo.broadcast_in_dim %180, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %182 = stablehlo.broadcast_in_dim %181, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %183 = stablehlo.divide %179, %182 : tensor<2x4x16x16xf32>
    %184 = stablehlo.dot_general %183, %160, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %185 = stablehlo.transpose %184, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %186 = stablehlo.reshape %185 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %187 = stablehlo.dot_general %186, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %188 = stablehlo.add %123, %187 : tensor<2x16x32xf32>
    %189 = stablehlo.broadcast_in_dim %arg21, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %190 = stablehlo.broadcast_in_dim %189, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %191 = stablehlo.add %188, %190 : tensor<2x16x32xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %192 = stablehlo.reduce(%191 init: %cst_29) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %193 = stablehlo.broadcast_in_dim %192, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_30 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %194 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %195 = stablehlo.divide %193, %194 : tensor<2x16x1xf32>
    %196 = stablehlo.broadcast_in_dim %195, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %197 = stablehlo.subtract %191, %196 : tensor<2x16x32xf32>
    %198 = chlo.square %197 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %199 = stablehlo.reduce(%198 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %200 = stablehlo.broadcast_in_dim %199, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_32 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %201 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %202 = stablehlo.divide %200, %201 : tensor<2x16x1xf32>
    %203 = stablehlo.broadcast_in_dim %195, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %204 = stablehlo.subtract %191, %203 : tensor<2x16x32xf32>
    %cst_33 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %205 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %206 = stablehlo.add %202, %205 : tensor<2x16x1xf32>
    %207 = stablehlo.rsqrt %206 : tensor<2x16x1xf32>
    %208 = stablehlo.broadcast_in_dim %207, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %209 = stablehlo.multiply %204, %208 : tensor<2x16x32xf32>
    %210 = stablehlo.broadcast_in_dim %arg17, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %211 = stablehlo.broadcast_in_dim %210, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %212 = stablehlo.multiply %209, %211 : tensor<2x16x32xf32>
    %213 = stablehlo.broadcast_in_dim %arg16, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %214 = stablehlo.broadcast_in_dim %213, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %215 = stablehlo.add %212, %214 : tensor<2x16x32xf32>
    %216 = stablehlo.dot_general %215, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x128xf32>) -> tensor<2x16x128xf32>
    %217 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %218 = stablehlo.broadcast_in_dim %217, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x16x128xf32>
    %219 = stablehlo.add %216, %218 : tensor<2x16x128xf32>
    %220 = stablehlo.multiply %219, %219 : tensor<2x16x128xf32>
    %221 = stablehlo.multiply %220, %219 : tensor<2x16x128xf32>
    %cst_34 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %222 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %223 = stablehlo.multiply %222, %221 : tensor<2x16x128xf32>
    %224 = stablehlo.add %219, %223 : tensor<2x16x128xf32>
    %cst_35 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %225 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %226 = stablehlo.multiply %225, %224 : tensor<2x16x128xf32>
    %227 = stablehlo.tanh %226 : tensor<2x16x128xf32>
    %cst_36 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %228 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %229 = stablehlo.add %228, %227 : tensor<2x16x128xf32>
    %cst_37 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %230 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %231 = stablehlo.multiply %230, %229 : tensor<2x16x128xf32>
    %232 = stablehlo.multiply %219, %231 : tensor<2x16x128xf32>
    %233 = stablehlo.dot_general %232, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xf32>, tensor<128x32xf32>) -> tensor<2x16x32xf32>
    %234 = stablehlo.add %191, %233 : tensor<2x16x32xf32>
    %235 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %236 = stablehlo.broadcast_in_dim %235, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %237 = stablehlo.add %234, %236 : tensor<2x16x32xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %238 = stablehlo.reduce(%237 init: %cst_38) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %239 = stablehlo.broadcast_in_dim %238, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_39 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %240 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %241 = stablehlo.divide %239, %240 : tensor<2x16x1xf32>
    %242 = stablehlo.broadcast_in_dim %241, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %243 = stablehlo.subtract %237, %242 : tensor<2x16x32xf32>
    %244 = chlo.square %243 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %245 = stablehlo.reduce(%244 init: %cst_40) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %246 = stablehlo.broadcast_in_dim %245, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_41 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %247 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %248 = stablehlo.divide %246, %247 : tensor<2x16x1xf32>
    %249 = stablehlo.broadcast_in_dim %241, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %250 = stablehlo.subtract %237, %249 : tensor<2x16x32xf32>
    %cst_42 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %251 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %252 = stablehlo.add %248, %251 : tensor<2x16x1xf32>
    %253 = stablehlo.rsqrt %252 : tensor<2x16x1xf32>
    %254 = stablehlo.broadcast_in_dim %253, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %255 = stablehlo.multiply %250, %254 : tensor<2x16x32xf32>
    %256 = stablehlo.broadcast_in_dim %arg25, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %257 = stablehlo.broadcast_in_dim %256, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %258 = stablehlo.multiply %255, %257 : tensor<2x16x32xf32>
    %259 = stablehlo.broadcast_in_dim %arg24, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %260 = stablehlo.broadcast_in_dim %259, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %261 = stablehlo.add %258, %260 : tensor<2x16x32xf32>
    %262 = stablehlo.transpose %arg27, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %263 = stablehlo.dot_general %261, %262, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %264 = call @log_softmax(%263) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %265 = stablehlo.broadcast_in_dim %arg29, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %266 = call @take_along_axis(%264, %265) : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> tensor<2x16x1xf32>
    %267 = stablehlo.reshape %266 : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %268 = stablehlo.reduce(%267 init: %cst_43) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_44 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %269 = stablehlo.divide %268, %cst_44 : tensor<f32>
    %270 = stablehlo.negate %269 : tensor<f32>
    return %270 : tensor<f32>
  }
  func.func private @_where(%arg0: tensor<16x16xi1>, %arg1: tensor<2x4x16x16xf32>, %arg2: tensor<f32>) -> tensor<2x4x16x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<2x4x16x16xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>
    return %2 : tensor<2x4x16x16xf32>
  }
  func.func private @log_softmax(%arg0: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
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
    return %11 : tensor<2x16x64xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<2x16x64xf32>, %arg1: tensor<2x16x1xi32>) -> tensor<2x16x1xf32> {
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
    return %15 : tensor<2x16x1xf32>
  }
}

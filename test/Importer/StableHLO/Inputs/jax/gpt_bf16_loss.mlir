module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x128xf32>, %arg1: tensor<128xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<128x32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<32x32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32x96xf32>, %arg11: tensor<96xf32>, %arg12: tensor<32x128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<32xf32>, %arg17: tensor<32xf32>, %arg18: tensor<128x32xf32>, %arg19: tensor<32xf32>, %arg20: tensor<32x32xf32>, %arg21: tensor<32xf32>, %arg22: tensor<32x96xf32>, %arg23: tensor<96xf32>, %arg24: tensor<32xf32>, %arg25: tensor<32xf32>, %arg26: tensor<16x32xf32>, %arg27: tensor<64x32xf32>, %arg28: tensor<2x16xi32>, %arg29: tensor<2x16xi32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<32x128xf32>) -> tensor<32x128xbf16>
    %1 = stablehlo.convert %arg1 : (tensor<128xf32>) -> tensor<128xbf16>
    %2 = stablehlo.convert %arg2 : (tensor<32xf32>) -> tensor<32xbf16>
    %3 = stablehlo.convert %arg3 : (tensor<32xf32>) -> tensor<32xbf16>
    %4 = stablehlo.convert %arg4 : (tensor<32xf32>) -> tensor<32xbf16>
    %5 = stablehlo.convert %arg5 : (tensor<32xf32>) -> tensor<32xbf16>
    %6 = stablehlo.convert %arg6 : (tensor<128x32xf32>) -> tensor<128x32xbf16>
    %7 = stablehlo.convert %arg7 : (tensor<32xf32>) -> tensor<32xbf16>
    %8 = stablehlo.convert %arg8 : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    %9 = stablehlo.convert %arg9 : (tensor<32xf32>) -> tensor<32xbf16>
    %10 = stablehlo.convert %arg10 : (tensor<32x96xf32>) -> tensor<32x96xbf16>
    %11 = stablehlo.convert %arg11 : (tensor<96xf32>) -> tensor<96xbf16>
    %12 = stablehlo.convert %arg12 : (tensor<32x128xf32>) -> tensor<32x128xbf16>
    %13 = stablehlo.convert %arg13 : (tensor<128xf32>) -> tensor<128xbf16>
    %14 = stablehlo.convert %arg14 : (tensor<32xf32>) -> tensor<32xbf16>
    %15 = stablehlo.convert %arg15 : (tensor<32xf32>) -> tensor<32xbf16>
    %16 = stablehlo.convert %arg16 : (tensor<32xf32>) -> tensor<32xbf16>
    %17 = stablehlo.convert %arg17 : (tensor<32xf32>) -> tensor<32xbf16>
    %18 = stablehlo.convert %arg18 : (tensor<128x32xf32>) -> tensor<128x32xbf16>
    %19 = stablehlo.convert %arg19 : (tensor<32xf32>) -> tensor<32xbf16>
    %20 = stablehlo.convert %arg20 : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    %21 = stablehlo.convert %arg21 : (tensor<32xf32>) -> tensor<32xbf16>
    %22 = stablehlo.convert %arg22 : (tensor<32x96xf32>) -> tensor<32x96xbf16>
    %23 = stablehlo.convert %arg23 : (tensor<96xf32>) -> tensor<96xbf16>
    %24 = stablehlo.convert %arg24 : (tensor<32xf32>) -> tensor<32xbf16>
    %25 = stablehlo.convert %arg25 : (tensor<32xf32>) -> tensor<32xbf16>
    %26 = stablehlo.convert %arg26 : (tensor<16x32xf32>) -> tensor<16x32xbf16>
    %27 = stablehlo.convert %arg27 : (tensor<64x32xf32>) -> tensor<64x32xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
    %29 = stablehlo.compare LT, %arg28, %28, SIGNED : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
    %31 = stablehlo.add %arg28, %30 : tensor<2x16xi32>
    %32 = stablehlo.select %29, %31, %arg28 : tensor<2x16xi1>, tensor<2x16xi32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %34 = "stablehlo.gather"(%27, %33) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<2x16x1xi32>) -> tensor<2x16x32xbf16>
    %35 = stablehlo.broadcast_in_dim %26, dims = [1, 2] : (tensor<16x32xbf16>) -> tensor<1x16x32xbf16>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<1x16x32xbf16>) -> tensor<2x16x32xbf16>
    %37 = stablehlo.add %34, %36 : tensor<2x16x32xbf16>
    %38 = stablehlo.convert %37 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.reduce(%38 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %42 = stablehlo.divide %40, %41 : tensor<2x16x1xf32>
    %43 = stablehlo.convert %42 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %45 = stablehlo.subtract %37, %44 : tensor<2x16x32xbf16>
    %46 = chlo.square %45 : tensor<2x16x32xbf16> -> tensor<2x16x32xbf16>
    %47 = stablehlo.convert %46 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %48 = stablehlo.reduce(%47 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_3 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %51 = stablehlo.divide %49, %50 : tensor<2x16x1xf32>
    %52 = stablehlo.convert %51 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %53 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %54 = stablehlo.subtract %37, %53 : tensor<2x16x32xbf16>
    %cst_4 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %55 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<2x16x1xbf16>
    %56 = stablehlo.add %52, %55 : tensor<2x16x1xbf16>
    %57 = stablehlo.rsqrt %56 : tensor<2x16x1xbf16>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %59 = stablehlo.multiply %54, %58 : tensor<2x16x32xbf16>
    %60 = stablehlo.broadcast_in_dim %3, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %61 = stablehlo.broadcast_in_dim %60, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %62 = stablehlo.multiply %59, %61 : tensor<2x16x32xbf16>
    %63 = stablehlo.broadcast_in_dim %2, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %65 = stablehlo.add %62, %64 : tensor<2x16x32xbf16>
    %66 = stablehlo.dot_general %65, %10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xbf16>, tensor<32x96xbf16>) -> tensor<2x16x96xbf16>
    %67 = stablehlo.broadcast_in_dim %11, dims = [2] : (tensor<96xbf16>) -> tensor<1x1x96xbf16>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<1x1x96xbf16>) -> tensor<2x16x96xbf16>
    %69 = stablehlo.add %66, %68 : tensor<2x16x96xbf16>
    %70 = stablehlo.slice %69 [0:2, 0:16, 0:32] : (tensor<2x16x96xbf16>) -> tensor<2x16x32xbf16>
    %71 = stablehlo.slice %69 [0:2, 0:16, 32:64] : (tensor<2x16x96xbf16>) -> tensor<2x16x32xbf16>
    %72 = stablehlo.slice %69 [0:2, 0:16, 64:96] : (tensor<2x16x96xbf16>) -> tensor<2x16x32xbf16>
    %73 = stablehlo.reshape %70 : (tensor<2x16x32xbf16>) -> tensor<2x16x4x8xbf16>
    %74 = stablehlo.transpose %73, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xbf16>) -> tensor<2x4x16x8xbf16>
    %75 = stablehlo.reshape %71 : (tensor<2x16x32xbf16>) -> tensor<2x16x4x8xbf16>
    %76 = stablehlo.transpose %75, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xbf16>) -> tensor<2x4x16x8xbf16>
    %77 = stablehlo.reshape %72 : (tensor<2x16x32xbf16>) -> tensor<2x16x4x8xbf16>
    %78 = stablehlo.transpose %77, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xbf16>) -> tensor<2x4x16x8xbf16>
    %79 = stablehlo.dot_general %74, %76, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xbf16>, tensor<2x4x16x8xbf16>) -> tensor<2x4x16x16xbf16>
    %cst_5 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %80 = stablehlo.sqrt %cst_5 : tensor<f32>
    %81 = stablehlo.convert %80 : (tensor<f32>) -> tensor<bf16>
    %82 = stablehlo.broadcast_in_dim %81, dims = [] : (tensor<bf16>) -> tensor<2x4x16x16xbf16>
    %83 = stablehlo.divide %79, %82 : tensor<2x4x16x16xbf16>
    %84 = stablehlo.iota dim = 0 : tensor<16xi32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %86 = stablehlo.iota dim = 0 : tensor<16xi32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %88 = stablehlo.broadcast_in_dim %85, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %89 = stablehlo.broadcast_in_dim %87, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %90 = stablehlo.compare GE, %88, %89, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_6 = stablehlo.constant dense<-9.982440e+08> : tensor<bf16>
    %91 = call @_where(%90, %83, %cst_6) : (tensor<16x16xi1>, tensor<2x4x16x16xbf16>, tensor<bf16>) -> tensor<2x4x16x16xbf16>
    %cst_7 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %92 = stablehlo.reduce(%91 init: %cst_7) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xbf16>, tensor<bf16>) -> tensor<2x4x16xbf16>
    %cst_8 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %93 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<bf16>) -> tensor<2x4x16xbf16>
    %94 = stablehlo.maximum %93, %92 : tensor<2x4x16xbf16>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2] : (tensor<2x4x16xbf16>) -> tensor<2x4x16x1xbf16>
    %96 = stablehlo.broadcast_in_dim %95, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xbf16>) -> tensor<2x4x16x16xbf16>
    %97 = stablehlo.subtract %91, %96 : tensor<2x4x16x16xbf16>
    %98 = stablehlo.exponential %97 : tensor<2x4x16x16xbf16>
    %99 = stablehlo.convert %98 : (tensor<2x4x16x16xbf16>) -> tensor<2x4x16x16xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %100 = stablehlo.reduce(%99 init: %cst_9) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %101 = stablehlo.broadcast_in_dim %100, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %102 = stablehlo.convert %101 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xbf16>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xbf16>) -> tensor<2x4x16x16xbf16>
    %104 = stablehlo.divide %98, %103 : tensor<2x4x16x16xbf16>
    %105 = stablehlo.dot_general %104, %78, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xbf16>, tensor<2x4x16x8xbf16>) -> tensor<2x4x16x8xbf16>
    %106 = stablehlo.transpose %105, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xbf16>) -> tensor<2x16x4x8xbf16>
    %107 = stablehlo.reshape %106 : (tensor<2x16x4x8xbf16>) -> tensor<2x16x32xbf16>
    %108 = stablehlo.dot_general %107, %8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xbf16>, tensor<32x32xbf16>) -> tensor<2x16x32xbf16>
    %109 = stablehlo.add %37, %108 : tensor<2x16x32xbf16>
    %110 = stablehlo.broadcast_in_dim %9, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %111 = stablehlo.broadcast_in_dim %110, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %112 = stablehlo.add %109, %111 : tensor<2x16x32xbf16>
    %113 = stablehlo.convert %112 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %114 = stablehlo.reduce(%113 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_11 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %116 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %117 = stablehlo.divide %115, %116 : tensor<2x16x1xf32>
    %118 = stablehlo.convert %117 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %119 = stablehlo.broadcast_in_dim %118, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %120 = stablehlo.subtract %112, %119 : tensor<2x16x32xbf16>
    %121 = chlo.square %120 : tensor<2x16x32xbf16> -> tensor<2x16x32xbf16>
    %122 = stablehlo.convert %121 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %123 = stablehlo.reduce(%122 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %124 = stablehlo.broadcast_in_dim %123, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_13 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %125 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %126 = stablehlo.divide %124, %125 : tensor<2x16x1xf32>
    %127 = stablehlo.convert %126 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %128 = stablehlo.broadcast_in_dim %118, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %129 = stablehlo.subtract %112, %128 : tensor<2x16x32xbf16>
    %cst_14 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %130 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<bf16>) -> tensor<2x16x1xbf16>
    %131 = stablehlo.add %127, %130 : tensor<2x16x1xbf16>
    %132 = stablehlo.rsqrt %131 : tensor<2x16x1xbf16>
    %133 = stablehlo.broadcast_in_dim %132, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %134 = stablehlo.multiply %129, %133 : tensor<2x16x32xbf16>
    %135 = stablehlo.broadcast_in_dim %5, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %136 = stablehlo.broadcast_in_dim %135, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %137 = stablehlo.multiply %134, %136 : tensor<2x16x32xbf16>
    %138 = stablehlo.broadcast_in_dim %4, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %140 = stablehlo.add %137, %139 : tensor<2x16x32xbf16>
    %141 = stablehlo.dot_general %140, %0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xbf16>, tensor<32x128xbf16>) -> tensor<2x16x128xbf16>
    %142 = stablehlo.broadcast_in_dim %1, dims = [2] : (tensor<128xbf16>) -> tensor<1x1x128xbf16>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0, 1, 2] : (tensor<1x1x128xbf16>) -> tensor<2x16x128xbf16>
    %144 = stablehlo.add %141, %143 : tensor<2x16x128xbf16>
    %145 = stablehlo.multiply %144, %144 : tensor<2x16x128xbf16>
    %146 = stablehlo.multiply %145, %144 : tensor<2x16x128xbf16>
    %cst_15 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %147 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %148 = stablehlo.multiply %147, %146 : tensor<2x16x128xbf16>
    %149 = stablehlo.add %144, %148 : tensor<2x16x128xbf16>
    %cst_16 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %150 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %151 = stablehlo.multiply %150, %149 : tensor<2x16x128xbf16>
    %152 = stablehlo.tanh %151 : tensor<2x16x128xbf16>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %153 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %154 = stablehlo.add %153, %152 : tensor<2x16x128xbf16>
    %cst_18 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %155 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %156 = stablehlo.multiply %155, %154 : tensor<2x16x128xbf16>
    %157 = stablehlo.multiply %144, %156 : tensor<2x16x128xbf16>
    %158 = stablehlo.dot_general %157, %6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xbf16>, tensor<128x32xbf16>) -> tensor<2x16x32xbf16>
    %159 = stablehlo.add %112, %158 : tensor<2x16x32xbf16>
    %160 = stablehlo.broadcast_in_dim %7, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %162 = stablehlo.add %159, %161 : tensor<2x16x32xbf16>
    %163 = stablehlo.convert %162 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %164 = stablehlo.reduce(%163 init: %cst_19) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %165 = stablehlo.broadcast_in_dim %164, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_20 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %166 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %167 = stablehlo.divide %165, %166 : tensor<2x16x1xf32>
    %168 = stablehlo.convert %167 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %169 = stablehlo.broadcast_in_dim %168, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %170 = stablehlo.subtract %162, %169 : tensor<2x16x32xbf16>
    %171 = chlo.square %170 : tensor<2x16x32xbf16> -> tensor<2x16x32xbf16>
    %172 = stablehlo.convert %171 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %173 = stablehlo.reduce(%172 init: %cst_21) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %174 = stablehlo.broadcast_in_dim %173, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_22 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %175 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %176 = stablehlo.divide %174, %175 : tensor<2x16x1xf32>
    %177 = stablehlo.convert %176 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %178 = stablehlo.broadcast_in_dim %168, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %179 = stablehlo.subtract %162, %178 : tensor<2x16x32xbf16>
    %cst_23 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %180 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<bf16>) -> tensor<2x16x1xbf16>
    %181 = stablehlo.add %177, %180 : tensor<2x16x1xbf16>
    %182 = stablehlo.rsqrt %181 : tensor<2x16x1xbf16>
    %183 = stablehlo.broadcast_in_dim %182, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %184 = stablehlo.multiply %179, %183 : tensor<2x16x32xbf16>
    %185 = stablehlo.broadcast_in_dim %15, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %186 = stablehlo.broadcast_in_dim %185, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %187 = stablehlo.multiply %184, %186 : tensor<2x16x32xbf16>
    %188 = stablehlo.broadcast_in_dim %14, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %189 = stablehlo.broadcast_in_dim %188, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %190 = stablehlo.add %187, %189 : tensor<2x16x32xbf16>
    %191 = stablehlo.dot_general %190, %22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xbf16>, tensor<32x96xbf16>) -> tensor<2x16x96xbf16>
    %192 = stablehlo.broadcast_in_dim %23, dims = [2] : (tensor<96xbf16>) -> tensor<1x1x96xbf16>
    %193 = stablehlo.broadcast_in_dim %192, dims = [0, 1, 2] : (tensor<1x1x96xbf16>) -> tensor<2x16x96xbf16>
    %194 = stablehlo.add %191, %193 : tensor<2x16x96xbf16>
    %195 = stablehlo.slice %194 [0:2, 0:16, 0:32] : (tensor<2x16x96xbf16>) -> tensor<2x16x32xbf16>
    %196 = stablehlo.slice %194 [0:2, 0:16, 32:64] : (tensor<2x16x96xbf16>) -> tensor<2x16x32xbf16>
    %197 = stablehlo.slice %194 [0:2, 0:16, 64:96] : (tensor<2x16x96xbf16>) -> tensor<2x16x32xbf16>
    %198 = stablehlo.reshape %195 : (tensor<2x16x32xbf16>) -> tensor<2x16x4x8xbf16>
    %199 = stablehlo.transpose %198, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xbf16>) -> tensor<2x4x16x8xbf16>
    %200 = stablehlo.reshape %196 : (tensor<2x16x32xbf16>) -> tensor<2x16x4x8xbf16>
    %201 = stablehlo.transpose %200, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xbf16>) -> tensor<2x4x16x8xbf16>
    %202 = stablehlo.reshape %197 : (tensor<2x16x32xbf16>) -> tensor<2x16x4x8xbf16>
    %203 = stablehlo.transpose %202, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xbf16>) -> tensor<2x4x16x8xbf16>
    %204 = stablehlo.dot_general %199, %201, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xbf16>, tensor<2x4x16x8xbf16>) -> tensor<2x4x16x16xbf16>
    %cst_24 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %205 = stablehlo.sqrt %cst_24 : tensor<f32>
    %206 = stablehlo.convert %205 : (tensor<f32>) -> tensor<bf16>
    %207 = stablehlo.broadcast_in_dim %206, dims = [] : (tensor<bf16>) -> tensor<2x4x16x16xbf16>
    %208 = stablehlo.divide %204, %207 : tensor<2x4x16x16xbf16>
    %209 = stablehlo.iota dim = 0 : tensor<16xi32>
    %210 = stablehlo.broadcast_in_dim %209, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %211 = stablehlo.iota dim = 0 : tensor<16xi32>
    %212 = stablehlo.broadcast_in_dim %211, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %213 = stablehlo.broadcast_in_dim %210, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %214 = stablehlo.broadcast_in_dim %212, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %215 = stablehlo.compare GE, %213, %214, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_25 = stablehlo.constant dense<-9.982440e+08> : tensor<bf16>
    %216 = call @_where(%215, %208, %cst_25) : (tensor<16x16xi1>, tensor<2x4x16x16xbf16>, tensor<bf16>) -> tensor<2x4x16x16xbf16>
    %cst_26 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %217 = stablehlo.reduce(%216 init: %cst_26) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xbf16>, tensor<bf16>) -> tensor<2x4x16xbf16>
    %cst_27 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %218 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<bf16>) -> tensor<2x4x16xbf16>
    %219 = stablehlo.maximum %218, %217 : tensor<2x4x16xbf16>
    %220 = stablehlo.broadcast_in_dim %219, dims = [0, 1, 2] : (tensor<2x4x16xbf16>) -> tensor<2x4x16x1xbf16>
    %221 = stablehlo.broadcast_in_dim %220, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xbf16>) -> tensor<2x4x16x16xbf16>
    %222 = stablehlo.subtract %216, %221 : tensor<2x4x16x16xbf16>
    %223 = stablehlo.exponential %222 : tensor<2x4x16x16xbf16>
    %224 = stablehlo.convert %223 : (tensor<2x4x16x16xbf16>) -> tensor<2x4x16x16xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %225 = stablehlo.reduce(%224 init: %cst_28) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %226 = stablehlo.broadcast_in_dim %225, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %227 = stablehlo.convert %226 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xbf16>
    %228 = stablehlo.broadcast_in_dim %227, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xbf16>) -> tensor<2x4x16x16xbf16>
    %229 = stablehlo.divide %223, %228 : tensor<2x4x16x16xbf16>
    %230 = stablehlo.dot_general %229, %203, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xbf16>, tensor<2x4x16x8xbf16>) -> tensor<2x4x16x8xbf16>
    %231 = stablehlo.transpose %230, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xbf16>) -> tensor<2x16x4x8xbf16>
    %232 = stablehlo.reshape %231 : (tensor<2x16x4x8xbf16>) -> tensor<2x16x32xbf16>
    %233 = stablehlo.dot_general %232, %20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xbf16>, tensor<32x32xbf16>) -> tensor<2x16x32xbf16>
    %234 = stablehlo.add %162, %233 : tensor<2x16x32xbf16>
    %235 = stablehlo.broadcast_in_dim %21, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %236 = stablehlo.broadcast_in_dim %235, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %237 = stablehlo.add %234, %236 : tensor<2x16x32xbf16>
    %238 = stablehlo.convert %237 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %239 = stablehlo.reduce(%238 init: %cst_29) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %240 = stablehlo.broadcast_in_dim %239, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_30 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %241 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %242 = stablehlo.divide %240, %241 : tensor<2x16x1xf32>
    %243 = stablehlo.convert %242 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %244 = stablehlo.broadcast_in_dim %243, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %245 = stablehlo.subtract %237, %244 : tensor<2x16x32xbf16>
    %246 = chlo.square %245 : tensor<2x16x32xbf16> -> tensor<2x16x32xbf16>
    %247 = stablehlo.convert %246 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %248 = stablehlo.reduce(%247 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %249 = stablehlo.broadcast_in_dim %248, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_32 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %250 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %251 = stablehlo.divide %249, %250 : tensor<2x16x1xf32>
    %252 = stablehlo.convert %251 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %253 = stablehlo.broadcast_in_dim %243, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %254 = stablehlo.subtract %237, %253 : tensor<2x16x32xbf16>
    %cst_33 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %255 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<bf16>) -> tensor<2x16x1xbf16>
    %256 = stablehlo.add %252, %255 : tensor<2x16x1xbf16>
    %257 = stablehlo.rsqrt %256 : tensor<2x16x1xbf16>
    %258 = stablehlo.broadcast_in_dim %257, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %259 = stablehlo.multiply %254, %258 : tensor<2x16x32xbf16>
    %260 = stablehlo.broadcast_in_dim %17, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %261 = stablehlo.broadcast_in_dim %260, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %262 = stablehlo.multiply %259, %261 : tensor<2x16x32xbf16>
    %263 = stablehlo.broadcast_in_dim %16, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %264 = stablehlo.broadcast_in_dim %263, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %265 = stablehlo.add %262, %264 : tensor<2x16x32xbf16>
    %266 = stablehlo.dot_general %265, %12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xbf16>, tensor<32x128xbf16>) -> tensor<2x16x128xbf16>
    %267 = stablehlo.broadcast_in_dim %13, dims = [2] : (tensor<128xbf16>) -> tensor<1x1x128xbf16>
    %268 = stablehlo.broadcast_in_dim %267, dims = [0, 1, 2] : (tensor<1x1x128xbf16>) -> tensor<2x16x128xbf16>
    %269 = stablehlo.add %266, %268 : tensor<2x16x128xbf16>
    %270 = stablehlo.multiply %269, %269 : tensor<2x16x128xbf16>
    %271 = stablehlo.multiply %270, %269 : tensor<2x16x128xbf16>
    %cst_34 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %272 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %273 = stablehlo.multiply %272, %271 : tensor<2x16x128xbf16>
    %274 = stablehlo.add %269, %273 : tensor<2x16x128xbf16>
    %cst_35 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %275 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %276 = stablehlo.multiply %275, %274 : tensor<2x16x128xbf16>
    %277 = stablehlo.tanh %276 : tensor<2x16x128xbf16>
    %cst_36 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %278 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %279 = stablehlo.add %278, %277 : tensor<2x16x128xbf16>
    %cst_37 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %280 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %281 = stablehlo.multiply %280, %279 : tensor<2x16x128xbf16>
    %282 = stablehlo.multiply %269, %281 : tensor<2x16x128xbf16>
    %283 = stablehlo.dot_general %282, %18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xbf16>, tensor<128x32xbf16>) -> tensor<2x16x32xbf16>
    %284 = stablehlo.add %237, %283 : tensor<2x16x32xbf16>
    %285 = stablehlo.broadcast_in_dim %19, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %286 = stablehlo.broadcast_in_dim %285, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %287 = stablehlo.add %284, %286 : tensor<2x16x32xbf16>
    %288 = stablehlo.convert %287 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %289 = stablehlo.reduce(%288 init: %cst_38) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %290 = stablehlo.broadcast_in_dim %289, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_39 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %291 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %292 = stablehlo.divide %290, %291 : tensor<2x16x1xf32>
    %293 = stablehlo.convert %292 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %294 = stablehlo.broadcast_in_dim %293, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %295 = stablehlo.subtract %287, %294 : tensor<2x16x32xbf16>
    %296 = chlo.square %295 : tensor<2x16x32xbf16> -> tensor<2x16x32xbf16>
    %297 = stablehlo.convert %296 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %298 = stablehlo.reduce(%297 init: %cst_40) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %299 = stablehlo.broadcast_in_dim %298, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_41 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %300 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %301 = stablehlo.divide %299, %300 : tensor<2x16x1xf32>
    %302 = stablehlo.convert %301 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %303 = stablehlo.broadcast_in_dim %293, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %304 = stablehlo.subtract %287, %303 : tensor<2x16x32xbf16>
    %cst_42 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %305 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<bf16>) -> tensor<2x16x1xbf16>
    %306 = stablehlo.add %302, %305 : tensor<2x16x1xbf16>
    %307 = stablehlo.rsqrt %306 : tensor<2x16x1xbf16>
    %308 = stablehlo.broadcast_in_dim %307, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %309 = stablehlo.multiply %304, %308 : tensor<2x16x32xbf16>
    %310 = stablehlo.broadcast_in_dim %25, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %311 = stablehlo.broadcast_in_dim %310, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %312 = stablehlo.multiply %309, %311 : tensor<2x16x32xbf16>
    %313 = stablehlo.broadcast_in_dim %24, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %314 = stablehlo.broadcast_in_dim %313, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %315 = stablehlo.add %312, %314 : tensor<2x16x32xbf16>
    %316 = stablehlo.transpose %27, dims = [1, 0] : (tensor<64x32xbf16>) -> tensor<32x64xbf16>
    %317 = stablehlo.dot_general %315, %316, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xbf16>, tensor<32x64xbf16>) -> tensor<2x16x64xbf16>
    %318 = stablehlo.convert %317 : (tensor<2x16x64xbf16>) -> tensor<2x16x64xf32>
    %319 = call @log_softmax(%318) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %320 = stablehlo.broadcast_in_dim %arg29, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %321 = call @take_along_axis(%319, %320) : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> tensor<2x16x1xf32>
    %322 = stablehlo.reshape %321 : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %323 = stablehlo.reduce(%322 init: %cst_43) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_44 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %324 = stablehlo.divide %323, %cst_44 : tensor<f32>
    %325 = stablehlo.negate %324 : tensor<f32>
    return %325 : tensor<f32>
  }
  func.func private @_where(%arg0: tensor<16x16xi1>, %arg1: tensor<2x4x16x16xbf16>, %arg2: tensor<bf16>) -> tensor<2x4x16x16xbf16> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<2x4x16x16xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<bf16>) -> tensor<2x4x16x16xbf16>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<2x4x16x16xi1>, tensor<2x4x16x16xbf16>
    return %2 : tensor<2x4x16x16xbf16>
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

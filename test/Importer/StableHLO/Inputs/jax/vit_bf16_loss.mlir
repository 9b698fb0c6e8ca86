module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x128xf32>, %arg1: tensor<128xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<128x32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<32x32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32x96xf32>, %arg11: tensor<96xf32>, %arg12: tensor<32x128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<32xf32>, %arg17: tensor<32xf32>, %arg18: tensor<128x32xf32>, %arg19: tensor<32xf32>, %arg20: tensor<32x32xf32>, %arg21: tensor<32xf32>, %arg22: tensor<32x96xf32>, %arg23: tensor<96xf32>, %arg24: tensor<1x1x32xf32>, %arg25: tensor<10xf32>, %arg26: tensor<32x10xf32>, %arg27: tensor<32xf32>, %arg28: tensor<32xf32>, %arg29: tensor<32xf32>, %arg30: tensor<4x4x3x32xf32>, %arg31: tensor<1x17x32xf32>, %arg32: tensor<2x16x16x3xf32>, %arg33: tensor<2xi32>) -> (tensor<f32> {jax.result_info = "result"}) {
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
    %24 = stablehlo.convert %arg24 : (tensor<1x1x32xf32>) -> tensor<1x1x32xbf16>
    %25 = stablehlo.convert %arg25 : (tensor<10xf32>) -> tensor<10xbf16>
    %26 = stablehlo.convert %arg26 : (tensor<32x10xf32>) -> tensor<32x10xbf16>
    %27 = stablehlo.convert %arg27 : (tensor<32xf32>) -> tensor<32xbf16>
    %28 = stablehlo.convert %arg28 : (tensor<32xf32>) -> tensor<32xbf16>
    %29 = stablehlo.convert %arg29 : (tensor<32xf32>) -> tensor<32xbf16>
    %30 = stablehlo.convert %arg30 : (tensor<4x4x3x32xf32>) -> tensor<4x4x3x32xbf16>
    %31 = stablehlo.convert %arg31 : (tensor<1x17x32xf32>) -> tensor<1x17x32xbf16>
    %32 = stablehlo.convert %arg32 : (tensor<2x16x16x3xf32>) -> tensor<2x16x16x3xbf16>
    %33 = stablehlo.convolution(%32, %30) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x16x16x3xbf16>, tensor<4x4x3x32xbf16>) -> tensor<2x4x4x32xbf16>
    %34 = stablehlo.broadcast_in_dim %29, dims = [3] : (tensor<32xbf16>) -> tensor<1x1x1x32xbf16>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xbf16>) -> tensor<2x4x4x32xbf16>
    %36 = stablehlo.add %33, %35 : tensor<2x4x4x32xbf16>
    %37 = stablehlo.reshape %36 : (tensor<2x4x4x32xbf16>) -> tensor<2x16x32xbf16>
    %38 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x1x32xbf16>
    %39 = stablehlo.concatenate %38, %37, dim = 1 : (tensor<2x1x32xbf16>, tensor<2x16x32xbf16>) -> tensor<2x17x32xbf16>
    %40 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2] : (tensor<1x17x32xbf16>) -> tensor<2x17x32xbf16>
    %41 = stablehlo.add %39, %40 : tensor<2x17x32xbf16>
    %42 = stablehlo.convert %41 : (tensor<2x17x32xbf16>) -> tensor<2x17x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.reduce(%42 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %46 = stablehlo.divide %44, %45 : tensor<2x17x1xf32>
    %47 = stablehlo.convert %46 : (tensor<2x17x1xf32>) -> tensor<2x17x1xbf16>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %49 = stablehlo.subtract %41, %48 : tensor<2x17x32xbf16>
    %50 = chlo.square %49 : tensor<2x17x32xbf16> -> tensor<2x17x32xbf16>
    %51 = stablehlo.convert %50 : (tensor<2x17x32xbf16>) -> tensor<2x17x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %55 = stablehlo.divide %53, %54 : tensor<2x17x1xf32>
    %56 = stablehlo.convert %55 : (tensor<2x17x1xf32>) -> tensor<2x17x1xbf16>
    %57 = stablehlo.broadcast_in_dim %47, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %58 = stablehlo.subtract %41, %57 : tensor<2x17x32xbf16>
    %cst_3 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %59 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<bf16>) -> tensor<2x17x1xbf16>
    %60 = stablehlo.add %56, %59 : tensor<2x17x1xbf16>
    %61 = stablehlo.rsqrt %60 : tensor<2x17x1xbf16>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %63 = stablehlo.multiply %58, %62 : tensor<2x17x32xbf16>
    %64 = stablehlo.broadcast_in_dim %3, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %66 = stablehlo.multiply %63, %65 : tensor<2x17x32xbf16>
    %67 = stablehlo.broadcast_in_dim %2, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %69 = stablehlo.add %66, %68 : tensor<2x17x32xbf16>
    %70 = stablehlo.dot_general %69, %10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xbf16>, tensor<32x96xbf16>) -> tensor<2x17x96xbf16>
    %71 = stablehlo.broadcast_in_dim %11, dims = [2] : (tensor<96xbf16>) -> tensor<1x1x96xbf16>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<1x1x96xbf16>) -> tensor<2x17x96xbf16>
    %73 = stablehlo.add %70, %72 : tensor<2x17x96xbf16>
    %74 = stablehlo.slice %73 [0:2, 0:17, 0:32] : (tensor<2x17x96xbf16>) -> tensor<2x17x32xbf16>
    %75 = stablehlo.slice %73 [0:2, 0:17, 32:64] : (tensor<2x17x96xbf16>) -> tensor<2x17x32xbf16>
    %76 = stablehlo.slice %73 [0:2, 0:17, 64:96] : (tensor<2x17x96xbf16>) -> tensor<2x17x32xbf16>
    %77 = stablehlo.reshape %74 : (tensor<2x17x32xbf16>) -> tensor<2x17x4x8xbf16>
    %78 = stablehlo.transpose %77, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xbf16>) -> tensor<2x4x17x8xbf16>
    %79 = stablehlo.reshape %75 : (tensor<2x17x32xbf16>) -> tensor<2x17x4x8xbf16>
    %80 = stablehlo.transpose %79, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xbf16>) -> tensor<2x4x17x8xbf16>
    %81 = stablehlo.reshape %76 : (tensor<2x17x32xbf16>) -> tensor<2x17x4x8xbf16>
    %82 = stablehlo.transpose %81, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xbf16>) -> tensor<2x4x17x8xbf16>
    %83 = stablehlo.dot_general %78, %80, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x17x8xbf16>, tensor<2x4x17x8xbf16>) -> tensor<2x4x17x17xbf16>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %84 = stablehlo.sqrt %cst_4 : tensor<f32>
    %85 = stablehlo.convert %84 : (tensor<f32>) -> tensor<bf16>
    %86 = stablehlo.broadcast_in_dim %85, dims = [] : (tensor<bf16>) -> tensor<2x4x17x17xbf16>
    %87 = stablehlo.divide %83, %86 : tensor<2x4x17x17xbf16>
    %cst_5 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %88 = stablehlo.reduce(%87 init: %cst_5) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x17x17xbf16>, tensor<bf16>) -> tensor<2x4x17xbf16>
    %cst_6 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %89 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<bf16>) -> tensor<2x4x17xbf16>
    %90 = stablehlo.maximum %89, %88 : tensor<2x4x17xbf16>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1, 2] : (tensor<2x4x17xbf16>) -> tensor<2x4x17x1xbf16>
    %92 = stablehlo.broadcast_in_dim %91, dims = [0, 1, 2, 3] : (tensor<2x4x17x1xbf16>) -> tensor<2x4x17x17xbf16>
    %93 = stablehlo.subtract %87, %92 : tensor<2x4x17x17xbf16>
    %94 = stablehlo.exponential %93 : tensor<2x4x17x17xbf16>
    %95 = stablehlo.convert %94 : (tensor<2x4x17x17xbf16>) -> tensor<2x4x17x17xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %96 = stablehlo.reduce(%95 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<2x4x17x17xf32>, tensor<f32>) -> tensor<2x4x17xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0, 1, 2] : (tensor<2x4x17xf32>) -> tensor<2x4x17x1xf32>
    %98 = stablehlo.convert %97 : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x1xbf16>
    %99 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2, 3] : (tensor<2x4x17x1xbf16>) -> tensor<2x4x17x17xbf16>
    %100 = stablehlo.divide %94, %99 : tensor<2x4x17x17xbf16>
    %101 = stablehlo.dot_general %100, %82, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x17x17xbf16>, tensor<2x4x17x8xbf16>) -> tensor<2x4x17x8xbf16>
    %102 = stablehlo.transpose %101, dims = [0, 2, 1, 3] : (tensor<2x4x17x8xbf16>) -> tensor<2x17x4x8xbf16>
    %103 = stablehlo.reshape %102 : (tensor<2x17x4x8xbf16>) -> tensor<2x17x32xbf16>
    %104 = stablehlo.dot_general %103, %8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xbf16>, tensor<32x32xbf16>) -> tensor<2x17x32xbf16>
    %105 = stablehlo.add %41, %104 : tensor<2x17x32xbf16>
    %106 = stablehlo.broadcast_in_dim %9, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %108 = stablehlo.add %105, %107 : tensor<2x17x32xbf16>
    %109 = stablehlo.convert %108 : (tensor<2x17x32xbf16>) -> tensor<2x17x32xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %110 = stablehlo.reduce(%109 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %111 = stablehlo.broadcast_in_dim %110, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_9 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %113 = stablehlo.divide %111, %112 : tensor<2x17x1xf32>
    %114 = stablehlo.convert %113 : (tensor<2x17x1xf32>) -> tensor<2x17x1xbf16>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %116 = stablehlo.subtract %108, %115 : tensor<2x17x32xbf16>
    %117 = chlo.square %116 : tensor<2x17x32xbf16> -> tensor<2x17x32xbf16>
    %118 = stablehlo.convert %117 : (tensor<2x17x32xbf16>) -> tensor<2x17x32xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %119 = stablehlo.reduce(%118 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_11 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %122 = stablehlo.divide %120, %121 : tensor<2x17x1xf32>
    %123 = stablehlo.convert %122 : (tensor<2x17x1xf32>) -> tensor<2x17x1xbf16>
    %124 = stablehlo.broadcast_in_dim %114, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %125 = stablehlo.subtract %108, %124 : tensor<2x17x32xbf16>
    %cst_12 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %126 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<bf16>) -> tensor<2x17x1xbf16>
    %127 = stablehlo.add %123, %126 : tensor<2x17x1xbf16>
    %128 = stablehlo.rsqrt %127 : tensor<2x17x1xbf16>
    %129 = stablehlo.broadcast_in_dim %128, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %130 = stablehlo.multiply %125, %129 : tensor<2x17x32xbf16>
    %131 = stablehlo.broadcast_in_dim %5, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %132 = stablehlo.broadcast_in_dim %131, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %133 = stablehlo.multiply %130, %132 : tensor<2x17x32xbf16>
    %134 = stablehlo.broadcast_in_dim %4, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %135 = stablehlo.broadcast_in_dim %134, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %136 = stablehlo.add %133, %135 : tensor<2x17x32xbf16>
    %137 = stablehlo.dot_general %136, %0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xbf16>, tensor<32x128xbf16>) -> tensor<2x17x128xbf16>
    %138 = stablehlo.broadcast_in_dim %1, dims = [2] : (tensor<128xbf16>) -> tensor<1x1x128xbf16>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<1x1x128xbf16>) -> tensor<2x17x128xbf16>
    %140 = stablehlo.add %137, %139 : tensor<2x17x128xbf16>
    %cst_13 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %141 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<bf16>) -> tensor<2x17x128xbf16>
    %142 = stablehlo.multiply %141, %140 : tensor<2x17x128xbf16>
    %143 = stablehlo.negate %140 : tensor<2x17x128xbf16>
    %cst_14 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %144 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<bf16>) -> tensor<2x17x128xbf16>
    %145 = stablehlo.multiply %143, %144 : tensor<2x17x128xbf16>
    %146 = chlo.erfc %145 : tensor<2x17x128xbf16> -> tensor<2x17x128xbf16>
    %147 = stablehlo.multiply %142, %146 : tensor<2x17x128xbf16>
    %148 = stablehlo.dot_general %147, %6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x128xbf16>, tensor<128x32xbf16>) -> tensor<2x17x32xbf16>
    %149 = stablehlo.add %108, %148 : tensor<2x17x32xbf16>
    %150 = stablehlo.broadcast_in_dim %7, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %151 = stablehlo.broadcast_in_dim %150, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %152 = stablehlo.add %149, %151 : tensor<2x17x32xbf16>
    %153 = stablehlo.convert %152 : (tensor<2x17x32xbf16>) -> tensor<2x17x32xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %154 = stablehlo.reduce(%153 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %155 = stablehlo.broadcast_in_dim %154, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_16 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %156 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %157 = stablehlo.divide %155, %156 : tensor<2x17x1xf32>
    %158 = stablehlo.convert %157 : (tensor<2x17x1xf32>) -> tensor<2x17x1xbf16>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %160 = stablehlo.subtract %152, %159 : tensor<2x17x32xbf16>
    %161 = chlo.square %160 : tensor<2x17x32xbf16> -> tensor<2x17x32xbf16>
    %162 = stablehlo.convert %161 : (tensor<2x17x32xbf16>) -> tensor<2x17x32xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %163 = stablehlo.reduce(%162 init: %cst_17) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %164 = stablehlo.broadcast_in_dim %163, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_18 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %165 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %166 = stablehlo.divide %164, %165 : tensor<2x17x1xf32>
    %167 = stablehlo.convert %166 : (tensor<2x17x1xf32>) -> tensor<2x17x1xbf16>
    %168 = stablehlo.broadcast_in_dim %158, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %169 = stablehlo.subtract %152, %168 : tensor<2x17x32xbf16>
    %cst_19 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %170 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<bf16>) -> tensor<2x17x1xbf16>
    %171 = stablehlo.add %167, %170 : tensor<2x17x1xbf16>
    %172 = stablehlo.rsqrt %171 : tensor<2x17x1xbf16>
    %173 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %174 = stablehlo.multiply %169, %173 : tensor<2x17x32xbf16>
    %175 = stablehlo.broadcast_in_dim %15, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %176 = stablehlo.broadcast_in_dim %175, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %177 = stablehlo.multiply %174, %176 : tensor<2x17x32xbf16>
    %178 = stablehlo.broadcast_in_dim %14, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %179 = stablehlo.broadcast_in_dim %178, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %180 = stablehlo.add %177, %179 : tensor<2x17x32xbf16>
    %181 = stablehlo.dot_general %180, %22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xbf16>, tensor<32x96xbf16>) -> tensor<2x17x96xbf16>
    %182 = stablehlo.broadcast_in_dim %23, dims = [2] : (tensor<96xbf16>) -> tensor<1x1x96xbf16>
    %183 = stablehlo.broadcast_in_dim %182, dims = [0, 1, 2] : (tensor<1x1x96xbf16>) -> tensor<2x17x96xbf16>
    %184 = stablehlo.add %181, %183 : tensor<2x17x96xbf16>
    %185 = stablehlo.slice %184 [0:2, 0:17, 0:32] : (tensor<2x17x96xbf16>) -> tensor<2x17x32xbf16>
    %186 = stablehlo.slice %184 [0:2, 0:17, 32:64] : (tensor<2x17x96xbf16>) -> tensor<2x17x32xbf16>
    %187 = stablehlo.slice %184 [0:2, 0:17, 64:96] : (tensor<2x17x96xbf16>) -> tensor<2x17x32xbf16>
    %188 = stablehlo.reshape %185 : (tensor<2x17x32xbf16>) -> tensor<2x17x4x8xbf16>
    %189 = stablehlo.transpose %188, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xbf16>) -> tensor<2x4x17x8xbf16>
    %190 = stablehlo.reshape %186 : (tensor<2x17x32xbf16>) -> tensor<2x17x4x8xbf16>
    %191 = stablehlo.transpose %190, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xbf16>) -> tensor<2x4x17x8xbf16>
    %192 = stablehlo.reshape %187 : (tensor<2x17x32xbf16>) -> tensor<2x17x4x8xbf16>
    %193 = stablehlo.transpose %192, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xbf16>) -> tensor<2x4x17x8xbf16>
    %194 = stablehlo.dot_general %189, %191, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x17x8xbf16>, tensor<2x4x17x8xbf16>) -> tensor<2x4x17x17xbf16>
    %cst_20 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %195 = stablehlo.sqrt %cst_20 : tensor<f32>
    %196 = stablehlo.convert %195 : (tensor<f32>) -> tensor<bf16>
    %197 = stablehlo.broadcast_in_dim %196, dims = [] : (tensor<bf16>) -> tensor<2x4x17x17xbf16>
    %198 = stablehlo.divide %194, %197 : tensor<2x4x17x17xbf16>
    %cst_21 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %199 = stablehlo.reduce(%198 init: %cst_21) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x17x17xbf16>, tensor<bf16>) -> tensor<2x4x17xbf16>
    %cst_22 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %200 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<bf16>) -> tensor<2x4x17xbf16>
    %201 = stablehlo.maximum %200, %199 : tensor<2x4x17xbf16>
    %202 = stablehlo.broadcast_in_dim %201, dims = [0, 1, 2] : (tensor<2x4x17xbf16>) -> tensor<2x4x17x1xbf16>
    %203 = stablehlo.broadcast_in_dim %202, dims = [0, 1, 2, 3] : (tensor<2x4x17x1xbf16>) -> tensor<2x4x17x17xbf16>
    %204 = stablehlo.subtract %198, %203 : tensor<2x4x17x17xbf16>
    %205 = stablehlo.exponential %204 : tensor<2x4x17x17xbf16>
    %206 = stablehlo.convert %205 : (tensor<2x4x17x17xbf16>) -> tensor<2x4x17x17xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %207 = stablehlo.reduce(%206 init: %cst_23) applies stablehlo.add across dimensions = [3] : (tensor<2x4x17x17xf32>, tensor<f32>) -> tensor<2x4x17xf32>
    %208 = stablehlo.broadcast_in_dim %207, dims = [0, 1, 2] : (tensor<2x4x17xf32>) -> tensor<2x4x17x1xf32>
    %209 = stablehlo.convert %208 : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x1xbf16>
    %210 = stablehlo.broadcast_in_dim %209, dims = [0, 1, 2, 3] : (tensor<2x4x17x1xbf16>) -> tensor<2x4x17x17xbf16>
    %211 = stablehlo.divide %205, %210 : tensor<2x4x17x17xbf16>
    %212 = stablehlo.dot_general %211, %193, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x17x17xbf16>, tensor<2x4x17x8xbf16>) -> tensor<2x4x17x8xbf16>
    %213 = stablehlo.transpose %212, dims = [0, 2, 1, 3] : (tensor<2x4x17x8xbf16>) -> tensor<2x17x4x8xbf16>
    %214 = stablehlo.reshape %213 : (tensor<2x17x4x8xbf16>) -> tensor<2x17x32xbf16>
    %215 = stablehlo.dot_general %214, %20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xbf16>, tensor<32x32xbf16>) -> tensor<2x17x32xbf16>
    %216 = stablehlo.add %152, %215 : tensor<2x17x32xbf16>
    %217 = stablehlo.broadcast_in_dim %21, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %218 = stablehlo.broadcast_in_dim %217, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %219 = stablehlo.add %216, %218 : tensor<2x17x32xbf16>
    %220 = stablehlo.convert %219 : (tensor<2x17x32xbf16>) -> tensor<2x17x32xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %221 = stablehlo.reduce(%220 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %222 = stablehlo.broadcast_in_dim %221, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_25 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %223 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %224 = stablehlo.divide %222, %223 : tensor<2x17x1xf32>
    %225 = stablehlo.convert %224 : (tensor<2x17x1xf32>) -> tensor<2x17x1xbf16>
    %226 = stablehlo.broadcast_in_dim %225, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %227 = stablehlo.subtract %219, %226 : tensor<2x17x32xbf16>
    %228 = chlo.square %227 : tensor<2x17x32xbf16> -> tensor<2x17x32xbf16>
    %229 = stablehlo.convert %228 : (tensor<2x17x32xbf16>) -> tensor<2x17x32xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %230 = stablehlo.reduce(%229 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %231 = stablehlo.broadcast_in_dim %230, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_27 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %232 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %233 = stablehlo.divide %231, %232 : tensor<2x17x1xf32>
    %234 = stablehlo.convert %233 : (tensor<2x17x1xf32>) -> tensor<2x17x1xbf16>
    %235 = stablehlo.broadcast_in_dim %225, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %236 = stablehlo.subtract %219, %235 : tensor<2x17x32xbf16>
    %cst_28 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %237 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<bf16>) -> tensor<2x17x1xbf16>
    %238 = stablehlo.add %234, %237 : tensor<2x17x1xbf16>
    %239 = stablehlo.rsqrt %238 : tensor<2x17x1xbf16>
    %240 = stablehlo.broadcast_in_dim %239, dims = [0, 1, 2] : (tensor<2x17x1xbf16>) -> tensor<2x17x32xbf16>
    %241 = stablehlo.multiply %236, %240 : tensor<2x17x32xbf16>
    %242 = stablehlo.broadcast_in_dim %17, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %243 = stablehlo.broadcast_in_dim %242, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %244 = stablehlo.multiply %241, %243 : tensor<2x17x32xbf16>
    %245 = stablehlo.broadcast_in_dim %16, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %246 = stablehlo.broadcast_in_dim %245, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %247 = stablehlo.add %244, %246 : tensor<2x17x32xbf16>
    %248 = stablehlo.dot_general %247, %12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xbf16>, tensor<32x128xbf16>) -> tensor<2x17x128xbf16>
    %249 = stablehlo.broadcast_in_dim %13, dims = [2] : (tensor<128xbf16>) -> tensor<1x1x128xbf16>
    %250 = stablehlo.broadcast_in_dim %249, dims = [0, 1, 2] : (tensor<1x1x128xbf16>) -> tensor<2x17x128xbf16>
    %251 = stablehlo.add %248, %250 : tensor<2x17x128xbf16>
    %cst_29 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %252 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<bf16>) -> tensor<2x17x128xbf16>
    %253 = stablehlo.multiply %252, %251 : tensor<2x17x128xbf16>
    %254 = stablehlo.negate %251 : tensor<2x17x128xbf16>
    %cst_30 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %255 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<bf16>) -> tensor<2x17x128xbf16>
    %256 = stablehlo.multiply %254, %255 : tensor<2x17x128xbf16>
    %257 = chlo.erfc %256 : tensor<2x17x128xbf16> -> tensor<2x17x128xbf16>
    %258 = stablehlo.multiply %253, %257 : tensor<2x17x128xbf16>
    %259 = stablehlo.dot_general %258, %18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x128xbf16>, tensor<128x32xbf16>) -> tensor<2x17x32xbf16>
    %260 = stablehlo.add %219, %259 : tensor<2x17x32xbf16>
    %261 = stablehlo.broadcast_in_dim %19, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %262 = stablehlo.broadcast_in_dim %261, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x17x32xbf16>
    %263 = stablehlo.add %260, %262 : tensor<2x17x32xbf16>
    %264 = stablehlo.slice %263 [0:2, 0:1, 0:32] : (tensor<2x17x32xbf16>) -> tensor<2x1x32xbf16>
    %265 = stablehlo.reshape %264 : (tensor<2x1x32xbf16>) -> tensor<2x32xbf16>
    %266 = stablehlo.convert %265 : (tensor<2x32xbf16>) -> tensor<2x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %267 = stablehlo.reduce(%266 init: %cst_31) applies stablehlo.add across dimensions = [1] : (tensor<2x32xf32>, tensor<f32>) -> tensor<2xf32>
    %268 = stablehlo.broadcast_in_dim %267, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %cst_32 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %269 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %270 = stablehlo.divide %268, %269 : tensor<2x1xf32>
    %271 = stablehlo.convert %270 : (tensor<2x1xf32>) -> tensor<2x1xbf16>
    %272 = stablehlo.broadcast_in_dim %271, dims = [0, 1] : (tensor<2x1xbf16>) -> tensor<2x32xbf16>
    %273 = stablehlo.subtract %265, %272 : tensor<2x32xbf16>
    %274 = chlo.square %273 : tensor<2x32xbf16> -> tensor<2x32xbf16>
    %275 = stablehlo.convert %274 : (tensor<2x32xbf16>) -> tensor<2x32xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %276 = stablehlo.reduce(%275 init: %cst_33) applies stablehlo.add across dimensions = [1] : (tensor<2x32xf32>, tensor<f32>) -> tensor<2xf32>
    %277 = stablehlo.broadcast_in_dim %276, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %cst_34 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %278 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %279 = stablehlo.divide %277, %278 : tensor<2x1xf32>
    %280 = stablehlo.convert %279 : (tensor<2x1xf32>) -> tensor<2x1xbf16>
    %281 = stablehlo.broadcast_in_dim %271, dims = [0, 1] : (tensor<2x1xbf16>) -> tensor<2x32xbf16>
    %282 = stablehlo.subtract %265, %281 : tensor<2x32xbf16>
    %cst_35 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %283 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<bf16>) -> tensor<2x1xbf16>
    %284 = stablehlo.add %280, %283 : tensor<2x1xbf16>
    %285 = stablehlo.rsqrt %284 : tensor<2x1xbf16>
    %286 = stablehlo.broadcast_in_dim %285, dims = [0, 1] : (tensor<2x1xbf16>) -> tensor<2x32xbf16>
    %287 = stablehlo.multiply %282, %286 : tensor<2x32xbf16>
    %288 = stablehlo.broadcast_in_dim %28, dims = [1] : (tensor<32xbf16>) -> tensor<1x32xbf16>
    %289 = stablehlo.broadcast_in_dim %288, dims = [0, 1] : (tensor<1x32xbf16>) -> tensor<2x32xbf16>
    %290 = stablehlo.multiply %287, %289 : tensor<2x32xbf16>
    %291 = stablehlo.broadcast_in_dim %27, dims = [1] : (tensor<32xbf16>) -> tensor<1x32xbf16>
    %292 = stablehlo.broadcast_in_dim %291, dims = [0, 1] : (tensor<1x32xbf16>) -> tensor<2x32xbf16>
    %293 = stablehlo.add %290, %292 : tensor<2x32xbf16>
    %294 = stablehlo.dot_general %293, %26, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x32xbf16>, tensor<32x10xbf16>) -> tensor<2x10xbf16>
    %295 = stablehlo.broadcast_in_dim %25, dims = [1] : (tensor<10xbf16>) -> tensor<1x10xbf16>
    %296 = stablehlo.broadcast_in_dim %295, dims = [0, 1] : (tensor<1x10xbf16>) -> tensor<2x10xbf16>
    %297 = stablehlo.add %294, %296 : tensor<2x10xbf16>
    %298 = stablehlo.convert %297 : (tensor<2x10xbf16>) -> tensor<2x10xf32>
    %299 = call @log_softmax(%298) : (tensor<2x10xf32>) -> tensor<2x10xf32>
    %300 = stablehlo.broadcast_in_dim %arg33, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %301 = call @take_along_axis(%299, %300) : (tensor<2x10xf32>, tensor<2x1xi32>) -> tensor<2x1xf32>
    %302 = stablehlo.reshape %301 : (tensor<2x1xf32>) -> tensor<2xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %303 = stablehlo.reduce(%302 init: %cst_36) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %cst_37 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %304 = stablehlo.divide %303, %cst_37 : tensor<f32>
    %305 = stablehlo.negate %304 : tensor<f32>
    return %305 : tensor<f32>
  }
  func.func private @log_softmax(%arg0: tensor<2x10xf32>) -> tensor<2x10xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<2x10xf32>, tensor<f32>) -> tensor<2xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<2xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x10xf32>
    %6 = stablehlo.exponential %5 : tensor<2x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<2x10xf32>, tensor<f32>) -> tensor<2xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %9 = stablehlo.log %8 : tensor<2x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<2x10xf32>
    return %11 : tensor<2x10xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<2x10xf32>, %arg1: tensor<2x1xi32>) -> tensor<2x1xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x1xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<2x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<2x1xi1>, tensor<2x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<2x1xi32>) -> tensor<2x1x1xi32>
    %c_1 = stablehlo.constant dense<9> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<2x1x1xi32>, tensor<2x1x1xi32>) -> tensor<2x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<2x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<2x1x1xi32>, tensor<2x1x1xi32>) -> tensor<2x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<2x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<2x1x1xi1>, tensor<i1>) -> tensor<2x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<2x10xf32>, tensor<2x1x1xi32>) -> tensor<2x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<2x1xi1>, tensor<2x1xf32>
    return %15 : tensor<2x1xf32>
  }
}

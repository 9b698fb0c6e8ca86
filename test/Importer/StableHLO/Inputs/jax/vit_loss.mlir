module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x128xf32>, %arg1: tensor<128xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<128x32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<32x32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32x96xf32>, %arg11: tensor<96xf32>, %arg12: tensor<32x128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<32xf32>, %arg17: tensor<32xf32>, %arg18: tensor<128x32xf32>, %arg19: tensor<32xf32>, %arg20: tensor<32x32xf32>, %arg21: tensor<32xf32>, %arg22: tensor<32x96xf32>, %arg23: tensor<96xf32>, %arg24: tensor<1x1x32xf32>, %arg25: tensor<10xf32>, %arg26: tensor<32x10xf32>, %arg27: tensor<32xf32>, %arg28: tensor<32xf32>, %arg29: tensor<32xf32>, %arg30: tensor<4x4x3x32xf32>, %arg31: tensor<1x17x32xf32>, %arg32: tensor<2x16x16x3xf32>, %arg33: tensor<2xi32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg32, %arg30) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x16x16x3xf32>, tensor<4x4x3x32xf32>) -> tensor<2x4x4x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg29, dims = [3] : (tensor<32xf32>) -> tensor<1x1x1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xf32>) -> tensor<2x4x4x32xf32>
    %3 = stablehlo.add %0, %2 : tensor<2x4x4x32xf32>
    %4 = stablehlo.reshape %3 : (tensor<2x4x4x32xf32>) -> tensor<2x16x32xf32>
    %5 = stablehlo.broadcast_in_dim %arg24, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x1x32xf32>
    %6 = stablehlo.concatenate %5, %4, dim = 1 : (tensor<2x1x32xf32>, tensor<2x16x32xf32>) -> tensor<2x17x32xf32>
    %7 = stablehlo.broadcast_in_dim %arg31, dims = [0, 1, 2] : (tensor<1x17x32xf32>) -> tensor<2x17x32xf32>
    %8 = stablehlo.add %6, %7 : tensor<2x17x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<2x17x1xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %14 = stablehlo.subtract %8, %13 : tensor<2x17x32xf32>
    %15 = chlo.square %14 : tensor<2x17x32xf32> -> tensor<2x17x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %19 = stablehlo.divide %17, %18 : tensor<2x17x1xf32>
    %20 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %21 = stablehlo.subtract %8, %20 : tensor<2x17x32xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %23 = stablehlo.add %19, %22 : tensor<2x17x1xf32>
    %24 = stablehlo.rsqrt %23 : tensor<2x17x1xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %26 = stablehlo.multiply %21, %25 : tensor<2x17x32xf32>
    %27 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %29 = stablehlo.multiply %26, %28 : tensor<2x17x32xf32>
    %30 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %32 = stablehlo.add %29, %31 : tensor<2x17x32xf32>
    %33 = stablehlo.dot_general %32, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xf32>, tensor<32x96xf32>) -> tensor<2x17x96xf32>
    %34 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<1x1x96xf32>) -> tensor<2x17x96xf32>
    %36 = stablehlo.add %33, %35 : tensor<2x17x96xf32>
    %37 = stablehlo.slice %36 [0:2, 0:17, 0:32] : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %38 = stablehlo.slice %36 [0:2, 0:17, 32:64] : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %39 = stablehlo.slice %36 [0:2, 0:17, 64:96] : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %40 = stablehlo.reshape %37 : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %41 = stablehlo.transpose %40, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %42 = stablehlo.reshape %38 : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %43 = stablehlo.transpose %42, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %44 = stablehlo.reshape %39 : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %45 = stablehlo.transpose %44, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %46 = stablehlo.dot_general %41, %43, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x17x8xf32>, tensor<2x4x17x8xf32>) -> tensor<2x4x17x17xf32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %47 = stablehlo.sqrt %cst_4 : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [] : (tensor<f32>) -> tensor<2x4x17x17xf32>
    %49 = stablehlo.divide %46, %48 : tensor<2x4x17x17xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %50 = stablehlo.reduce(%49 init: %cst_5) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x17x17xf32>, tensor<f32>) -> tensor<2x4x17xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x4x17xf32>
    %52 = stablehlo.maximum %51, %50 : tensor<2x4x17xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2] : (tensor<2x4x17xf32>) -> tensor<2x4x17x1xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2, 3] : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x17xf32>
    %55 = stablehlo.subtract %49, %54 : tensor<2x4x17x17xf32>
    %56 = stablehlo.exponential %55 : tensor<2x4x17x17xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.reduce(%56 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<2x4x17x17xf32>, tensor<f32>) -> tensor<2x4x17xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2] : (tensor<2x4x17xf32>) -> tensor<2x4x17x1xf32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 2, 3] : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x17xf32>
    %60 = stablehlo.divide %56, %59 : tensor<2x4x17x17xf32>
    %61 = stablehlo.dot_general %60, %45, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x17x17xf32>, tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
    %62 = stablehlo.transpose %61, dims = [0, 2, 1, 3] : (tensor<2x4x17x8xf32>) -> tensor<2x17x4x8xf32>
    %63 = stablehlo.reshape %62 : (tensor<2x17x4x8xf32>) -> tensor<2x17x32xf32>
    %64 = stablehlo.dot_general %63, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xf32>, tensor<32x32xf32>) -> tensor<2x17x32xf32>
    %65 = stablehlo.add %8, %64 : tensor<2x17x32xf32>
    %66 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %68 = stablehlo.add %65, %67 : tensor<2x17x32xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.reduce(%68 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_9 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %72 = stablehlo.divide %70, %71 : tensor<2x17x1xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %74 = stablehlo.subtract %68, %73 : tensor<2x17x32xf32>
    %75 = chlo.square %74 : tensor<2x17x32xf32> -> tensor<2x17x32xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %76 = stablehlo.reduce(%75 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_11 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %79 = stablehlo.divide %77, %78 : tensor<2x17x1xf32>
    %80 = stablehlo.broadcast_in_dim %72, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %81 = stablehlo.subtract %68, %80 : tensor<2x17x32xf32>
    %cst_12 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %83 = stablehlo.add %79, %82 : tensor<2x17x1xf32>
    %84 = stablehlo.rsqrt %83 : tensor<2x17x1xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %86 = stablehlo.multiply %81, %85 : tensor<2x17x32xf32>
    %87 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %88 = stablehlo.broadcast_in_dim %87, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %89 = stablehlo.multiply %86, %88 : tensor<2x17x32xf32>
    %90 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %92 = stablehlo.add %89, %91 : tensor<2x17x32xf32>
    %93 = stablehlo.dot_general %92, %arg0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xf32>, tensor<32x128xf32>) -> tensor<2x17x128xf32>
    %94 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x17x128xf32>
    %96 = stablehlo.add %93, %95 : tensor<2x17x128xf32>
    %cst_13 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x17x128xf32>
    %98 = stablehlo.multiply %97, %96 : tensor<2x17x128xf32>
    %99 = stablehlo.negate %96 : tensor<2x17x128xf32>
    %cst_14 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %100 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x17x128xf32>
    %101 = stablehlo.multiply %99, %100 : tensor<2x17x128xf32>
    %102 = chlo.erfc %101 : tensor<2x17x128xf32> -> tensor<2x17x128xf32>
    %103 = stablehlo.multiply %98, %102 : tensor<2x17x128xf32>
    %104 = stablehlo.dot_general %103, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x128xf32>, tensor<128x32xf32>) -> tensor<2x17x32xf32>
    %105 = stablehlo.add %68, %104 : tensor<2x17x32xf32>
    %106 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %108 = stablehlo.add %105, %107 : tensor<2x17x32xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %109 = stablehlo.reduce(%108 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %110 = stablehlo.broadcast_in_dim %109, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_16 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %112 = stablehlo.divide %110, %111 : tensor<2x17x1xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %114 = stablehlo.subtract %108, %113 : tensor<2x17x32xf32>
    %115 = chlo.square %114 : tensor<2x17x32xf32> -> tensor<2x17x32xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %116 = stablehlo.reduce(%115 init: %cst_17) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_18 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %119 = stablehlo.divide %117, %118 : tensor<2x17x1xf32>
    %120 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %121 = stablehlo.subtract %108, %120 : tensor<2x17x32xf32>
    %cst_19 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %123 = stablehlo.add %119, %122 : tensor<2x17x1xf32>
    %124 = stablehlo.rsqrt %123 : tensor<2x17x1xf32>
    %125 = stablehlo.broadcast_in_dim %124, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %126 = stablehlo.multiply %121, %125 : tensor<2x17x32xf32>
    %127 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %128 = stablehlo.broadcast_in_dim %127, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %129 = stablehlo.multiply %126, %128 : tensor<2x17x32xf32>
    %130 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %131 = stablehlo.broadcast_in_dim %130, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %132 = stablehlo.add %129, %131 : tensor<2x17x32xf32>
    %133 = stablehlo.dot_general %132, %arg22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xf32>, tensor<32x96xf32>) -> tensor<2x17x96xf32>
    %134 = stablehlo.broadcast_in_dim %arg23, dims = [2] : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %135 = stablehlo.broadcast_in_dim %134, dims = [0, 1, 2] : (tensor<1x1x96xf32>) -> tensor<2x17x96xf32>
    %136 = stablehlo.add %133, %135 : tensor<2x17x96xf32>
    %137 = stablehlo.slice %136 [0:2, 0:17, 0:32] : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %138 = stablehlo.slice %136 [0:2, 0:17, 32:64] : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %139 = stablehlo.slice %136 [0:2, 0:17, 64:96] : (tensor<2x17x96xf32>) -> tensor<2x17x32xf32>
    %140 = stablehlo.reshape %137 : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %141 = stablehlo.transpose %140, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %142 = stablehlo.reshape %138 : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %143 = stablehlo.transpose %142, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %144 = stablehlo.reshape %139 : (tensor<2x17x32xf32>) -> tensor<2x17x4x8xf32>
    %145 = stablehlo.transpose %144, dims = [0, 2, 1, 3] : (tensor<2x17x4x8xf32>) -> tensor<2x4x17x8xf32>
    %146 = stablehlo.dot_general %141, %143, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x17x8xf32>, tensor<2x4x17x8xf32>) -> tensor<2x4x17x17xf32>
    %cst_20 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %147 = stablehlo.sqrt %cst_20 : tensor<f32>
    %148 = stablehlo.broadcast_in_dim %147, dims = [] : (tensor<f32>) -> tensor<2x4x17x17xf32>
    %149 = stablehlo.divide %146, %148 : tensor<2x4x17x17xf32>
    %cst_21 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %150 = stablehlo.reduce(%149 init: %cst_21) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x17x17xf32>, tensor<f32>) -> tensor<2x4x17xf32>
    %cst_22 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %151 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<2x4x17xf32>
    %152 = stablehlo.maximum %151, %150 : tensor<2x4x17xf32>
    %153 = stablehlo.broadcast_in_dim %152, dims = [0, 1, 2] : (tensor<2x4x17xf32>) -> tensor<2x4x17x1xf32>
    %154 = stablehlo.broadcast_in_dim %153, dims = [0, 1, 2, 3] : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x17xf32>
    %155 = stablehlo.subtract %149, %154 : tensor<2x4x17x17xf32>
    %156 = stablehlo.exponential %155 : tensor<2x4x17x17xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %157 = stablehlo.reduce(%156 init: %cst_23) applies stablehlo.add across dimensions = [3] : (tensor<2x4x17x17xf32>, tensor<f32>) -> tensor<2x4x17xf32>
    %158 = stablehlo.broadcast_in_dim %157, dims = [0, 1, 2] : (tensor<2x4x17xf32>) -> tensor<2x4x17x1xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0, 1, 2, 3] : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x17xf32>
    %160 = stablehlo.divide %156, %159 : tensor<2x4x17x17xf32>
    %161 = stablehlo.dot_general %160, %145, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x17x17xf32>, tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
    %162 = stablehlo.transpose %161, dims = [0, 2, 1, 3] : (tensor<2x4x17x8xf32>) -> tensor<2x17x4x8xf32>
    %163 = stablehlo.reshape %162 : (tensor<2x17x4x8xf32>) -> tensor<2x17x32xf32>
    %164 = stablehlo.dot_general %163, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xf32>, tensor<32x32xf32>) -> tensor<2x17x32xf32>
    %165 = stablehlo.add %108, %164 : tensor<2x17x32xf32>
    %166 = stablehlo.broadcast_in_dim %arg21, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %167 = stablehlo.broadcast_in_dim %166, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %168 = stablehlo.add %165, %167 : tensor<2x17x32xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %169 = stablehlo.reduce(%168 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %170 = stablehlo.broadcast_in_dim %169, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_25 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %171 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %172 = stablehlo.divide %170, %171 : tensor<2x17x1xf32>
    %173 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %174 = stablehlo.subtract %168, %173 : tensor<2x17x32xf32>
    %175 = chlo.square %174 : tensor<2x17x32xf32> -> tensor<2x17x32xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %176 = stablehlo.reduce(%175 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<2x17x32xf32>, tensor<f32>) -> tensor<2x17xf32>
    %177 = stablehlo.broadcast_in_dim %176, dims = [0, 1] : (tensor<2x17xf32>) -> tensor<2x17x1xf32>
    %cst_27 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %178 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %179 = stablehlo.divide %177, %178 : tensor<2x17x1xf32>
    %180 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %181 = stablehlo.subtract %168, %180 : tensor<2x17x32xf32>
    %cst_28 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %182 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<2x17x1xf32>
    %183 = stablehlo.add %179, %182 : tensor<2x17x1xf32>
    %184 = stablehlo.rsqrt %183 : tensor<2x17x1xf32>
    %185 = stablehlo.broadcast_in_dim %184, dims = [0, 1, 2] : (tensor<2x17x1xf32>) -> tensor<2x17x32xf32>
    %186 = stablehlo.multiply %181, %185 : tensor<2x17x32xf32>
    %187 = stablehlo.broadcast_in_dim %arg17, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %188 = stablehlo.broadcast_in_dim %187, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %189 = stablehlo.multiply %186, %188 : tensor<2x17x32xf32>
    %190 = stablehlo.broadcast_in_dim %arg16, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %192 = stablehlo.add %189, %191 : tensor<2x17x32xf32>
    %193 = stablehlo.dot_general %192, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x32xf32>, tensor<32x128xf32>) -> tensor<2x17x128xf32>
    %194 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %195 = stablehlo.broadcast_in_dim %194, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x17x128xf32>
    %196 = stablehlo.add %193, %195 : tensor<2x17x128xf32>
    %cst_29 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %197 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x17x128xf32>
    %198 = stablehlo.multiply %197, %196 : tensor<2x17x128xf32>
    %199 = stablehlo.negate %196 : tensor<2x17x128xf32>
    %cst_30 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %200 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x17x128xf32>
    %201 = stablehlo.multiply %199, %200 : tensor<2x17x128xf32>
    %202 = chlo.erfc %201 : tensor<2x17x128xf32> -> tensor<2x17x128xf32>
    %203 = stablehlo.multiply %198, %202 : tensor<2x17x128xf32>
    %204 = stablehlo.dot_general %203, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x17x128xf32>, tensor<128x32xf32>) -> tensor<2x17x32xf32>
    %205 = stablehlo.add %168, %204 : tensor<2x17x32xf32>
    %206 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %207 = stablehlo.broadcast_in_dim %206, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x17x32xf32>
    %208 = stablehlo.add %205, %207 : tensor<2x17x32xf32>
    %209 = stablehlo.slice %208 [0:2, 0:1, 0:32] : (tensor<2x17x32xf32>) -> tensor<2x1x32xf32>
    %210 = stablehlo.reshape %209 : (tensor<2x1x32xf32>) -> tensor<2x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %211 = stablehlo.reduce(%210 init: %cst_31) applies stablehlo.add across dimensions = [1] : (tensor<2x32xf32>, tensor<f32>) -> tensor<2xf32>
    %212 = stablehlo.broadcast_in_dim %211, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %cst_32 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %213 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %214 = stablehlo.divide %212, %213 : tensor<2x1xf32>
    %215 = stablehlo.broadcast_in_dim %214, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x32xf32>
    %216 = stablehlo.subtract %210, %215 : tensor<2x32xf32>
    %217 = chlo.square %216 : tensor<2x32xf32> -> tensor<2x32xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %218 = stablehlo.reduce(%217 init: %cst_33) applies stablehlo.add across dimensions = [1] : (tensor<2x32xf32>, tensor<f32>) -> tensor<2xf32>
    %219 = stablehlo.broadcast_in_dim %218, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %cst_34 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %220 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %221 = stablehlo.divide %219, %220 : tensor<2x1xf32>
    %222 = stablehlo.broadcast_in_dim %214, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x32xf32>
    %223 = stablehlo.subtract %210, %222 : tensor<2x32xf32>
    %cst_35 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %224 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %225 = stablehlo.add %221, %224 : tensor<2x1xf32>
    %226 = stablehlo.rsqrt %225 : tensor<2x1xf32>
    %227 = stablehlo.broadcast_in_dim %226, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x32xf32>
    %228 = stablehlo.multiply %223, %227 : tensor<2x32xf32>
    %229 = stablehlo.broadcast_in_dim %arg28, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %230 = stablehlo.broadcast_in_dim %229, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<2x32xf32>
    %231 = stablehlo.multiply %228, %230 : tensor<2x32xf32>
    %232 = stablehlo.broadcast_in_dim %arg27, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %233 = stablehlo.broadcast_in_dim %232, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<2x32xf32>
    %234 = stablehlo.add %231, %233 : tensor<2x32xf32>
    %235 = stablehlo.dot_general %234, %arg26, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x32xf32>, tensor<32x10xf32>) -> tensor<2x10xf32>
    %236 = stablehlo.broadcast_in_dim %arg25, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %237 = stablehlo.broadcast_in_dim %236, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<2x10xf32>
    %238 = stablehlo.add %235, %237 : tensor<2x10xf32>
    %239 = call @log_softmax(%238) : (tensor<2x10xf32>) -> tensor<2x10xf32>
    %240 = stablehlo.broadcast_in_dim %arg33, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %241 = call @take_along_axis(%239, %240) : (tensor<2x10xf32>, tensor<2x1xi32>) -> tensor<2x1xf32>
    %242 = stablehlo.reshape %241 : (tensor<2x1xf32>) -> tensor<2xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %243 = stablehlo.reduce(%242 init: %cst_36) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %cst_37 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %244 = stablehlo.divide %243, %cst_37 : tensor<f32>
    %245 = stablehlo.negate %244 : tensor<f32>
    return %245 : tensor<f32>
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

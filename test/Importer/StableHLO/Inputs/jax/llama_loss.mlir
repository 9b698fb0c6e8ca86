module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<64x32xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<32x64xf32>, %arg6: tensor<32x16xf32>, %arg7: tensor<32x32xf32>, %arg8: tensor<32x32xf32>, %arg9: tensor<32x16xf32>, %arg10: tensor<32xf32>, %arg11: tensor<32xf32>, %arg12: tensor<64x32xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<32x64xf32>, %arg15: tensor<32x16xf32>, %arg16: tensor<32x32xf32>, %arg17: tensor<32x32xf32>, %arg18: tensor<32x16xf32>, %arg19: tensor<32x64xf32>, %arg20: tensor<32xf32>, %arg21: tensor<2x16xi32>, %arg22: tensor<2x16xi32>) -> (tensor<f32> {jax.result_info = "result"}) {
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
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %11 = stablehlo.divide %9, %10 : tensor<2x16x1xf32>
    %cst_2 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %13 = stablehlo.add %11, %12 : tensor<2x16x1xf32>
    %14 = stablehlo.rsqrt %13 : tensor<2x16x1xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %16 = stablehlo.multiply %6, %15 : tensor<2x16x32xf32>
    %17 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %19 = stablehlo.multiply %16, %18 : tensor<2x16x32xf32>
    %20 = stablehlo.dot_general %19, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %21 = stablehlo.reshape %20 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %22 = stablehlo.transpose %21, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %23 = stablehlo.dot_general %19, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %24 = stablehlo.reshape %23 : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %25 = stablehlo.transpose %24, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %26 = stablehlo.dot_general %19, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %27 = stablehlo.reshape %26 : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %28 = stablehlo.transpose %27, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %29 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %31 = stablehlo.multiply %30, %29 : tensor<4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %33 = stablehlo.add %32, %31 : tensor<4xf32>
    %cst_5 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %35 = stablehlo.divide %33, %34 : tensor<4xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %37 = stablehlo.power %36, %35 : tensor<4xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %39 = stablehlo.divide %38, %37 : tensor<4xf32>
    %40 = stablehlo.iota dim = 0 : tensor<16xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %42 = stablehlo.broadcast_in_dim %39, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %43 = stablehlo.broadcast_in_dim %41, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %44 = stablehlo.broadcast_in_dim %42, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %45 = stablehlo.multiply %43, %44 : tensor<16x4xf32>
    %46 = stablehlo.cosine %45 : tensor<16x4xf32>
    %47 = stablehlo.concatenate %46, %46, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %48 = stablehlo.sine %45 : tensor<16x4xf32>
    %49 = stablehlo.concatenate %48, %48, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %50 = stablehlo.slice %22 [0:2, 0:4, 0:16, 0:4] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %51 = stablehlo.slice %22 [0:2, 0:4, 0:16, 4:8] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %52 = stablehlo.broadcast_in_dim %47, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %54 = stablehlo.multiply %22, %53 : tensor<2x4x16x8xf32>
    %55 = stablehlo.negate %51 : tensor<2x4x16x4xf32>
    %56 = stablehlo.concatenate %55, %50, dim = 3 : (tensor<2x4x16x4xf32>, tensor<2x4x16x4xf32>) -> tensor<2x4x16x8xf32>
    %57 = stablehlo.broadcast_in_dim %49, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %59 = stablehlo.multiply %56, %58 : tensor<2x4x16x8xf32>
    %60 = stablehlo.add %54, %59 : tensor<2x4x16x8xf32>
    %61 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %63 = stablehlo.multiply %62, %61 : tensor<4xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %65 = stablehlo.add %64, %63 : tensor<4xf32>
    %cst_10 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %67 = stablehlo.divide %65, %66 : tensor<4xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %69 = stablehlo.power %68, %67 : tensor<4xf32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %71 = stablehlo.divide %70, %69 : tensor<4xf32>
    %72 = stablehlo.iota dim = 0 : tensor<16xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %74 = stablehlo.broadcast_in_dim %71, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %75 = stablehlo.broadcast_in_dim %73, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %76 = stablehlo.broadcast_in_dim %74, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %77 = stablehlo.multiply %75, %76 : tensor<16x4xf32>
    %78 = stablehlo.cosine %77 : tensor<16x4xf32>
    %79 = stablehlo.concatenate %78, %78, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %80 = stablehlo.sine %77 : tensor<16x4xf32>
    %81 = stablehlo.concatenate %80, %80, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %82 = stablehlo.slice %25 [0:2, 0:2, 0:16, 0:4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %83 = stablehlo.slice %25 [0:2, 0:2, 0:16, 4:8] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %84 = stablehlo.broadcast_in_dim %79, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %86 = stablehlo.multiply %25, %85 : tensor<2x2x16x8xf32>
    %87 = stablehlo.negate %83 : tensor<2x2x16x4xf32>
    %88 = stablehlo.concatenate %87, %82, dim = 3 : (tensor<2x2x16x4xf32>, tensor<2x2x16x4xf32>) -> tensor<2x2x16x8xf32>
    %89 = stablehlo.broadcast_in_dim %81, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %91 = stablehlo.multiply %88, %90 : tensor<2x2x16x8xf32>
    %92 = stablehlo.add %86, %91 : tensor<2x2x16x8xf32>
    %93 = stablehlo.broadcast_in_dim %92, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %94 = stablehlo.reshape %93 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %95 = stablehlo.broadcast_in_dim %28, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %96 = stablehlo.reshape %95 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %97 = stablehlo.dot_general %60, %94, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_13 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %98 = stablehlo.sqrt %cst_13 : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %98, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %100 = stablehlo.divide %97, %99 : tensor<2x4x16x16xf32>
    %101 = stablehlo.iota dim = 0 : tensor<16xi32>
    %102 = stablehlo.broadcast_in_dim %101, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %103 = stablehlo.iota dim = 0 : tensor<16xi32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %105 = stablehlo.broadcast_in_dim %102, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %106 = stablehlo.broadcast_in_dim %104, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %107 = stablehlo.compare GE, %105, %106, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_14 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %108 = call @_where(%107, %100, %cst_14) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %cst_15 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %109 = stablehlo.reduce(%108 init: %cst_15) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_16 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %110 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %111 = stablehlo.maximum %110, %109 : tensor<2x4x16xf32>
    %112 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %114 = stablehlo.subtract %108, %113 : tensor<2x4x16x16xf32>
    %115 = stablehlo.exponential %114 : tensor<2x4x16x16xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %116 = stablehlo.reduce(%115 init: %cst_17) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %118 = stablehlo.broadcast_in_dim %117, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %119 = stablehlo.divide %115, %118 : tensor<2x4x16x16xf32>
    %120 = stablehlo.dot_general %119, %96, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %121 = stablehlo.transpose %120, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %122 = stablehlo.reshape %121 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %123 = stablehlo.dot_general %122, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %124 = stablehlo.add %6, %123 : tensor<2x16x32xf32>
    %125 = chlo.square %124 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %126 = stablehlo.reduce(%125 init: %cst_18) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %127 = stablehlo.broadcast_in_dim %126, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_19 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %129 = stablehlo.divide %127, %128 : tensor<2x16x1xf32>
    %cst_20 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %130 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %131 = stablehlo.add %129, %130 : tensor<2x16x1xf32>
    %132 = stablehlo.rsqrt %131 : tensor<2x16x1xf32>
    %133 = stablehlo.broadcast_in_dim %132, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %134 = stablehlo.multiply %124, %133 : tensor<2x16x32xf32>
    %135 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %136 = stablehlo.broadcast_in_dim %135, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %137 = stablehlo.multiply %134, %136 : tensor<2x16x32xf32>
    %138 = stablehlo.dot_general %137, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %139 = call @silu(%138) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %140 = stablehlo.dot_general %137, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %141 = stablehlo.multiply %139, %140 : tensor<2x16x64xf32>
    %142 = stablehlo.dot_general %141, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %143 = stablehlo.add %124, %142 : tensor<2x16x32xf32>
    %144 = chlo.square %143 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %145 = stablehlo.reduce(%144 init: %cst_21) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %146 = stablehlo.broadcast_in_dim %145, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_22 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %147 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %148 = stablehlo.divide %146, %147 : tensor<2x16x1xf32>
    %cst_23 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %150 = stablehlo.add %148, %149 : tensor<2x16x1xf32>
    %151 = stablehlo.rsqrt %150 : tensor<2x16x1xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %153 = stablehlo.multiply %143, %152 : tensor<2x16x32xf32>
    %154 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %155 = stablehlo.broadcast_in_dim %154, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %156 = stablehlo.multiply %153, %155 : tensor<2x16x32xf32>
    %157 = stablehlo.dot_general %156, %arg17, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %158 = stablehlo.reshape %157 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %159 = stablehlo.transpose %158, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %160 = stablehlo.dot_general %156, %arg15, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %161 = stablehlo.reshape %160 : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %162 = stablehlo.transpose %161, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %163 = stablehlo.dot_general %156, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %164 = stablehlo.reshape %163 : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %165 = stablehlo.transpose %164, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %166 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_24 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %167 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %168 = stablehlo.multiply %167, %166 : tensor<4xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %169 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %170 = stablehlo.add %169, %168 : tensor<4xf32>
    %cst_26 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %171 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %172 = stablehlo.divide %170, %171 : tensor<4xf32>
    %cst_27 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %173 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %174 = stablehlo.power %173, %172 : tensor<4xf32>
    %cst_28 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %175 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %176 = stablehlo.divide %175, %174 : tensor<4xf32>
    %177 = stablehlo.iota dim = 0 : tensor<16xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %179 = stablehlo.broadcast_in_dim %176, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %180 = stablehlo.broadcast_in_dim %178, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %181 = stablehlo.broadcast_in_dim %179, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %182 = stablehlo.multiply %180, %181 : tensor<16x4xf32>
    %183 = stablehlo.cosine %182 : tensor<16x4xf32>
    %184 = stablehlo.concatenate %183, %183, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %185 = stablehlo.sine %182 : tensor<16x4xf32>
    %186 = stablehlo.concatenate %185, %185, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %187 = stablehlo.slice %159 [0:2, 0:4, 0:16, 0:4] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %188 = stablehlo.slice %159 [0:2, 0:4, 0:16, 4:8] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %189 = stablehlo.broadcast_in_dim %184, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %190 = stablehlo.broadcast_in_dim %189, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %191 = stablehlo.multiply %159, %190 : tensor<2x4x16x8xf32>
    %192 = stablehlo.negate %188 : tensor<2x4x16x4xf32>
    %193 = stablehlo.concatenate %192, %187, dim = 3 : (tensor<2x4x16x4xf32>, tensor<2x4x16x4xf32>) -> tensor<2x4x16x8xf32>
    %194 = stablehlo.broadcast_in_dim %186, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %195 = stablehlo.broadcast_in_dim %194, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %196 = stablehlo.multiply %193, %195 : tensor<2x4x16x8xf32>
    %197 = stablehlo.add %191, %196 : tensor<2x4x16x8xf32>
    %198 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_29 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %199 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %200 = stablehlo.multiply %199, %198 : tensor<4xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %201 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %202 = stablehlo.add %201, %200 : tensor<4xf32>
    %cst_31 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %203 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %204 = stablehlo.divide %202, %203 : tensor<4xf32>
    %cst_32 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %205 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %206 = stablehlo.power %205, %204 : tensor<4xf32>
    %cst_33 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %207 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %208 = stablehlo.divide %207, %206 : tensor<4xf32>
    %209 = stablehlo.iota dim = 0 : tensor<16xf32>
    %210 = stablehlo.broadcast_in_dim %209, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %211 = stablehlo.broadcast_in_dim %208, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %212 = stablehlo.broadcast_in_dim %210, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %213 = stablehlo.broadcast_in_dim %211, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %214 = stablehlo.multiply %212, %213 : tensor<16x4xf32>
    %215 = stablehlo.cosine %214 : tensor<16x4xf32>
    %216 = stablehlo.concatenate %215, %215, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %217 = stablehlo.sine %214 : tensor<16x4xf32>
    %218 = stablehlo.concatenate %217, %217, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %219 = stablehlo.slice %162 [0:2, 0:2, 0:16, 0:4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %220 = stablehlo.slice %162 [0:2, 0:2, 0:16, 4:8] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %221 = stablehlo.broadcast_in_dim %216, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %222 = stablehlo.broadcast_in_dim %221, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %223 = stablehlo.multiply %162, %222 : tensor<2x2x16x8xf32>
    %224 = stablehlo.negate %220 : tensor<2x2x16x4xf32>
    %225 = stablehlo.concatenate %224, %219, dim = 3 : (tensor<2x2x16x4xf32>, tensor<2x2x16x4xf32>) -> tensor<2x2x16x8xf32>
    %226 = stablehlo.broadcast_in_dim %218, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %227 = stablehlo.broadcast_in_dim %226, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %228 = stablehlo.multiply %225, %227 : tensor<2x2x16x8xf32>
    %229 = stablehlo.add %223, %228 : tensor<2x2x16x8xf32>
    %230 = stablehlo.broadcast_in_dim %229, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %231 = stablehlo.reshape %230 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %232 = stablehlo.broadcast_in_dim %165, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %233 = stablehlo.reshape %232 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %234 = stablehlo.dot_general %197, %231, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_34 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %235 = stablehlo.sqrt %cst_34 : tensor<f32>
    %236 = stablehlo.broadcast_in_dim %235, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %237 = stablehlo.divide %234, %236 : tensor<2x4x16x16xf32>
    %238 = stablehlo.iota dim = 0 : tensor<16xi32>
    %239 = stablehlo.broadcast_in_dim %238, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %240 = stablehlo.iota dim = 0 : tensor<16xi32>
    %241 = stablehlo.broadcast_in_dim %240, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %242 = stablehlo.broadcast_in_dim %239, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %243 = stablehlo.broadcast_in_dim %241, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %244 = stablehlo.compare GE, %242, %243, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_35 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %245 = call @_where(%244, %237, %cst_35) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %cst_36 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %246 = stablehlo.reduce(%245 init: %cst_36) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_37 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %247 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %248 = stablehlo.maximum %247, %246 : tensor<2x4x16xf32>
    %249 = stablehlo.broadcast_in_dim %248, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %250 = stablehlo.broadcast_in_dim %249, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %251 = stablehlo.subtract %245, %250 : tensor<2x4x16x16xf32>
    %252 = stablehlo.exponential %251 : tensor<2x4x16x16xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %253 = stablehlo.reduce(%252 init: %cst_38) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %254 = stablehlo.broadcast_in_dim %253, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %255 = stablehlo.broadcast_in_dim %254, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %256 = stablehlo.divide %252, %255 : tensor<2x4x16x16xf32>
    %257 = stablehlo.dot_general %256, %233, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %258 = stablehlo.transpose %257, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %259 = stablehlo.reshape %258 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %260 = stablehlo.dot_general %259, %arg16, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %261 = stablehlo.add %143, %260 : tensor<2x16x32xf32>
    %262 = chlo.square %261 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %263 = stablehlo.reduce(%262 init: %cst_39) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %264 = stablehlo.broadcast_in_dim %263, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_40 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %265 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %266 = stablehlo.divide %264, %265 : tensor<2x16x1xf32>
    %cst_41 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %267 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %268 = stablehlo.add %266, %267 : tensor<2x16x1xf32>
    %269 = stablehlo.rsqrt %268 : tensor<2x16x1xf32>
    %270 = stablehlo.broadcast_in_dim %269, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %271 = stablehlo.multiply %261, %270 : tensor<2x16x32xf32>
    %272 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %273 = stablehlo.broadcast_in_dim %272, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %274 = stablehlo.multiply %271, %273 : tensor<2x16x32xf32>
    %275 = stablehlo.dot_general %274, %arg13, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %276 = call @silu(%275) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %277 = stablehlo.dot_general %274, %arg14, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %278 = stablehlo.multiply %276, %277 : tensor<2x16x64xf32>
    %279 = stablehlo.dot_general %278, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %280 = stablehlo.add %261, %279 : tensor<2x16x32xf32>
    %281 = chlo.square %280 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %282 = stablehlo.reduce(%281 init: %cst_42) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %283 = stablehlo.broadcast_in_dim %282, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_43 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %284 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %285 = stablehlo.divide %283, %284 : tensor<2x16x1xf32>
    %cst_44 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %286 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %287 = stablehlo.add %285, %286 : tensor<2x16x1xf32>
    %288 = stablehlo.rsqrt %287 : tensor<2x16x1xf32>
    %289 = stablehlo.broadcast_in_dim %288, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %290 = stablehlo.multiply %280, %289 : tensor<2x16x32xf32>
    %291 = stablehlo.broadcast_in_dim %arg20, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %292 = stablehlo.broadcast_in_dim %291, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %293 = stablehlo.multiply %290, %292 : tensor<2x16x32xf32>
    %294 = stablehlo.dot_general %293, %arg19, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %295 = call @log_softmax(%294) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %296 = stablehlo.broadcast_in_dim %arg22, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %297 = call @take_along_axis(%295, %296) : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> tensor<2x16x1xf32>
    %298 = stablehlo.reshape %297 : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %299 = stablehlo.reduce(%298 init: %cst_45) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_46 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %300 = stablehlo.divide %299, %cst_46 : tensor<f32>
    %301 = stablehlo.negate %300 : tensor<f32>
    return %301 : tensor<f32>
  }
  func.func private @_where(%arg0: tensor<16x16xi1>, %arg1: tensor<2x4x16x16xf32>, %arg2: tensor<f32>) -> tensor<2x4x16x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<2x4x16x16xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>
    return %2 : tensor<2x4x16x16xf32>
  }
  func.func private @silu(%arg0: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
    %0 = stablehlo.negate %arg0 : tensor<2x16x64xf32>
    %1 = stablehlo.exponential %0 : tensor<2x16x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16x64xf32>
    %3 = stablehlo.add %2, %1 : tensor<2x16x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x16x64xf32>
    %5 = stablehlo.divide %4, %3 : tensor<2x16x64xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<2x16x64xf32>
    return %6 : tensor<2x16x64xf32>
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

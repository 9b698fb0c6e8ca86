module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<64x32xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<32x64xf32>, %arg6: tensor<32x16xf32>, %arg7: tensor<32x32xf32>, %arg8: tensor<32x32xf32>, %arg9: tensor<32x16xf32>, %arg10: tensor<32xf32>, %arg11: tensor<32xf32>, %arg12: tensor<64x32xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<32x64xf32>, %arg15: tensor<32x16xf32>, %arg16: tensor<32x32xf32>, %arg17: tensor<32x32xf32>, %arg18: tensor<32x16xf32>, %arg19: tensor<32x64xf32>, %arg20: tensor<32xf32>, %arg21: tensor<2x16xi32>, %arg22: tensor<2x16xi32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<64x32xf32>) -> tensor<64x32xbf16>
    %1 = stablehlo.convert %arg1 : (tensor<32xf32>) -> tensor<32xbf16>
    %2 = stablehlo.convert %arg2 : (tensor<32xf32>) -> tensor<32xbf16>
    %3 = stablehlo.convert %arg3 : (tensor<64x32xf32>) -> tensor<64x32xbf16>
    %4 = stablehlo.convert %arg4 : (tensor<32x64xf32>) -> tensor<32x64xbf16>
    %5 = stablehlo.convert %arg5 : (tensor<32x64xf32>) -> tensor<32x64xbf16>
    %6 = stablehlo.convert %arg6 : (tensor<32x16xf32>) -> tensor<32x16xbf16>
    %7 = stablehlo.convert %arg7 : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    %8 = stablehlo.convert %arg8 : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    %9 = stablehlo.convert %arg9 : (tensor<32x16xf32>) -> tensor<32x16xbf16>
    %10 = stablehlo.convert %arg10 : (tensor<32xf32>) -> tensor<32xbf16>
    %11 = stablehlo.convert %arg11 : (tensor<32xf32>) -> tensor<32xbf16>
    %12 = stablehlo.convert %arg12 : (tensor<64x32xf32>) -> tensor<64x32xbf16>
    %13 = stablehlo.convert %arg13 : (tensor<32x64xf32>) -> tensor<32x64xbf16>
    %14 = stablehlo.convert %arg14 : (tensor<32x64xf32>) -> tensor<32x64xbf16>
    %15 = stablehlo.convert %arg15 : (tensor<32x16xf32>) -> tensor<32x16xbf16>
    %16 = stablehlo.convert %arg16 : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    %17 = stablehlo.convert %arg17 : (tensor<32x32xf32>) -> tensor<32x32xbf16>
    %18 = stablehlo.convert %arg18 : (tensor<32x16xf32>) -> tensor<32x16xbf16>
    %19 = stablehlo.convert %arg19 : (tensor<32x64xf32>) -> tensor<32x64xbf16>
    %20 = stablehlo.convert %arg20 : (tensor<32xf32>) -> tensor<32xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
    %22 = stablehlo.compare LT, %arg21, %21, SIGNED : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %23 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
    %24 = stablehlo.add %arg21, %23 : tensor<2x16xi32>
    %25 = stablehlo.select %22, %24, %arg21 : tensor<2x16xi1>, tensor<2x16xi32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %27 = "stablehlo.gather"(%0, %26) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<2x16x1xi32>) -> tensor<2x16x32xbf16>
    %28 = chlo.square %27 : tensor<2x16x32xbf16> -> tensor<2x16x32xbf16>
    %29 = stablehlo.convert %28 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.reduce(%29 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %33 = stablehlo.divide %31, %32 : tensor<2x16x1xf32>
    %34 = stablehlo.convert %33 : (tensor<2x16x1xf32>) -> tensor<2x16x1xbf16>
    %cst_2 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %35 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<bf16>) -> tensor<2x16x1xbf16>
    %36 = stablehlo.add %34, %35 : tensor<2x16x1xbf16>
    %37 = stablehlo.rsqrt %36 : tensor<2x16x1xbf16>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<2x16x1xbf16>) -> tensor<2x16x32xbf16>
    %39 = stablehlo.multiply %27, %38 : tensor<2x16x32xbf16>
    %40 = stablehlo.broadcast_in_dim %1, dims = [2] : (tensor<32xbf16>) -> tensor<1x1x32xbf16>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2] : (tensor<1x1x32xbf16>) -> tensor<2x16x32xbf16>
    %42 = stablehlo.multiply %39, %41 : tensor<2x16x32xbf16>
    %43 = stablehlo.dot_general %42, %8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xbf16>, tensor<32x32xbf16>) -> tensor<2x16x32xbf16>
    %44 = stablehlo.reshape %43 : (tensor<2x16x32xbf16>) -> tensor<2x16x4x8xbf16>
    %45 = stablehlo.transpose %44, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xbf16>) -> tensor<2x4x16x8xbf16>
    %46 = stablehlo.dot_general %42, %6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xbf16>, tensor<32x16xbf16>) -> tensor<2x16x16xbf16>
    %47 = stablehlo.reshape %46 : (tensor<2x16x16xbf16>) -> tensor<2x16x2x8xbf16>
    %48 = stablehlo.transpose %47, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xbf16>) -> tensor<2x2x16x8xbf16>
    %49 = stablehlo.dot_general %42, %9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xbf16>, tensor<32x16xbf16>) -> tensor<2x16x16xbf16>
    %50 = stablehlo.reshape %49 : (tensor<2x16x16xbf16>) -> tensor<2x16x2x8xbf16>
    %51 = stablehlo.transpose %50, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xbf16>) -> tensor<2x2x16x8xbf16>
    %52 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %54 = stablehlo.multiply %53, %52 : tensor<4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %56 = stablehlo.add %55, %54 : tensor<4xf32>
    %cst_5 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %58 = stablehlo.divide %56, %57 : tensor<4xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %60 = stablehlo.power %59, %58 : tensor<4xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %62 = stablehlo.divide %61, %60 : tensor<4xf32>
    %63 = stablehlo.iota dim = 0 : tensor<16xf32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %65 = stablehlo.broadcast_in_dim %62, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %66 = stablehlo.broadcast_in_dim %64, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %67 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %68 = stablehlo.multiply %66, %67 : tensor<16x4xf32>
    %69 = stablehlo.cosine %68 : tensor<16x4xf32>
    %70 = stablehlo.concatenate %69, %69, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %71 = stablehlo.sine %68 : tensor<16x4xf32>
    %72 = stablehlo.concatenate %71, %71, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %73 = stablehlo.slice %45 [0:2, 0:4, 0:16, 0:4] : (tensor<2x4x16x8xbf16>) -> tensor<2x4x16x4xbf16>
    %74 = stablehlo.slice %45 [0:2, 0:4, 0:16, 4:8] : (tensor<2x4x16x8xbf16>) -> tensor<2x4x16x4xbf16>
    %75 = stablehlo.convert %45 : (tensor<2x4x16x8xbf16>) -> tensor<2x4x16x8xf32>
    %76 = stablehlo.broadcast_in_dim %70, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %78 = stablehlo.multiply %75, %77 : tensor<2x4x16x8xf32>
    %79 = stablehlo.negate %74 : tensor<2x4x16x4xbf16>
    %80 = stablehlo.concatenate %79, %73, dim = 3 : (tensor<2x4x16x4xbf16>, tensor<2x4x16x4xbf16>) -> tensor<2x4x16x8xbf16>
    %81 = stablehlo.convert %80 : (tensor<2x4x16x8xbf16>) -> tensor<2x4x16x8xf32>
    %82 = stablehlo.broadcast_in_dim %72, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %84 = stablehlo.multiply %81, %83 : tensor<2x4x16x8xf32>
    %85 = stablehlo.add %78, %84 : tensor<2x4x16x8xf32>
    %86 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %88 = stablehlo.multiply %87, %86 : tensor<4xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %90 = stablehlo.add %89, %88 : tensor<4xf32>
    %cst_10 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %92 = stablehlo.divide %90, %91 : tensor<4xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %94 = stablehlo.power %93, %92 : tensor<4xf32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %95 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %96 = stablehlo.divide %95, %94 : tensor<4xf32>
    %97 = stablehlo.iota dim = 0 : tensor<16xf32>
    %98 = stablehlo.broadcast_in_dim %97, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %99 = stablehlo.broadcast_in_dim %96, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %100 = stablehlo.broadcast_in_dim %98, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %101 = stablehlo.broadcast_in_dim %99, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %102 = stablehlo.multiply %100, %101 : tensor<16x4xf32>
    %103 = stablehlo.cosine %102 : tensor<16x4xf32>
    %104 = stablehlo.concatenate %103, %103, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %105 = stablehlo.sine %102 : tensor<16x4xf32>
    %106 = stablehlo.concatenate %105, %105, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %107 = stablehlo.slice %48 [0:2, 0:2, 0:16, 0:4] : (tensor<2x2x16x8xbf16>) -> tensor<2x2x16x4xbf16>
    %108 = stablehlo.slice %48 [0:2, 0:2, 0:16, 4:8] : (tensor<2x2x16x8xbf16>) -> tensor<2x2x16x4xbf16>
    %109 = stablehlo.convert %48 : (tensor<2x2x16x8xbf16>) -> tensor<2x2x16x8xf32>
    %110 = stablehlo.broadcast_in_dim %104, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %111 = stablehlo.broadcast_in_dim %110, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %112 = stablehlo.multiply %109, %111 : tensor<2x2x16x8xf32>
    %113 = stablehlo.negate %108 : tensor<2x2x16x4xbf16>
    %114 = stablehlo.concatenate %113, %107, dim = 3 : (tensor<2x2x16x4xbf16>, tensor<2x2x16x4xbf16>) -> tensor<2x2x16x8xbf16>
    %115 = stablehlo.convert %114 : (tensor<2x2x16x8xbf16>) -> tensor<2x2x16x8xf32>
    %116 = stablehlo.broadcast_in_dim %106, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %118 = stablehlo.multiply %115, %117 : tensor<2x2x16x8xf32>
    %119 = stablehlo.add %112, %118 : tensor<2x2x16x8xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %121 = stablehlo.reshape %120 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %122 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xbf16>) -> tensor<2x2x2x16x8xbf16>
    %123 = stablehlo.reshape %122 : (tensor<2x2x2x16x8xbf16>) -> tensor<2x4x16x8xbf16>
    %124 = stablehlo.dot_general %85, %121, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_13 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %125 = stablehlo.sqrt %cst_13 : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %125, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %127 = stablehlo.divide %124, %126 : tensor<2x4x16x16xf32>
    %128 = stablehlo.iota dim = 0 : tensor<16xi32>
    %129 = stablehlo.broadcast_in_dim %128, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %130 = stablehlo.iota dim = 0 : tensor<16xi32>
    %131 = stablehlo.broadcast_in_dim %130, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %132 = stablehlo.broadcast_in_dim %129, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %133 = stablehlo.broadcast_in_dim %131, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %134 = stablehlo.compare GE, %132, %133, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_14 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %135 = call @_where(%134, %127, %cst_14) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %cst_15 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %136 = stablehlo.reduce(%135 init: %cst_15) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_16 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %138 = stablehlo.maximum %137, %136 : tensor<2x4x16xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %140 = stablehlo.broadcast_in_dim %139, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %141 = stablehlo.subtract %135, %140 : tensor<2x4x16x16xf32>
    %142 = stablehlo.exponential %141 : tensor<2x4x16x16xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %143 = stablehlo.reduce(%142 init: %cst_17) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %144 = stablehlo.broadcast_in_dim %143, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %145 = stablehlo.broadcast_in_dim %144, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %146 = stablehlo.divide %142, %145 : tensor<2x4x16x16xf32>
    %147 = stablehlo.convert %146 : tensor<2x4x16x16xf32>
    %148 = stablehlo.convert %123 : (tensor<2x4x16x8xbf16>) -> tensor<2x4x16x8xf32>
    %149 = stablehlo.dot_general %147, %148, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %150 = stablehlo.transpose %149, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %151 = stablehlo.reshape %150 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %152 = stablehlo.convert %151 : tensor<2x16x32xf32>
    %153 = stablehlo.convert %7 : (tensor<32x32xbf16>) -> tensor<32x32xf32>
    %154 = stablehlo.dot_general %152, %153, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %155 = stablehlo.convert %27 : (tensor<2x16x32xbf16>) -> tensor<2x16x32xf32>
    %156 = stablehlo.add %155, %154 : tensor<2x16x32xf32>
    %157 = chlo.square %156 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %158 = stablehlo.reduce(%157 init: %cst_18) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_19 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %160 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %161 = stablehlo.divide %159, %160 : tensor<2x16x1xf32>
    %cst_20 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %163 = stablehlo.add %161, %162 : tensor<2x16x1xf32>
    %164 = stablehlo.rsqrt %163 : tensor<2x16x1xf32>
    %165 = stablehlo.broadcast_in_dim %164, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %166 = stablehlo.multiply %156, %165 : tensor<2x16x32xf32>
    %167 = stablehlo.convert %2 : (tensor<32xbf16>) -> tensor<32xf32>
    %168 = stablehlo.broadcast_in_dim %167, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %169 = stablehlo.broadcast_in_dim %168, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %170 = stablehlo.multiply %166, %169 : tensor<2x16x32xf32>
    %171 = stablehlo.convert %170 : tensor<2x16x32xf32>
    %172 = stablehlo.convert %4 : (tensor<32x64xbf16>) -> tensor<32x64xf32>
    %173 = stablehlo.dot_general %171, %172, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %174 = call @silu(%173) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %175 = stablehlo.convert %170 : tensor<2x16x32xf32>
    %176 = stablehlo.convert %5 : (tensor<32x64xbf16>) -> tensor<32x64xf32>
    %177 = stablehlo.dot_general %175, %176, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %178 = stablehlo.multiply %174, %177 : tensor<2x16x64xf32>
    %179 = stablehlo.convert %178 : tensor<2x16x64xf32>
    %180 = stablehlo.convert %3 : (tensor<64x32xbf16>) -> tensor<64x32xf32>
    %181 = stablehlo.dot_general %179, %180, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %182 = stablehlo.add %156, %181 : tensor<2x16x32xf32>
    %183 = chlo.square %182 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %184 = stablehlo.reduce(%183 init: %cst_21) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %185 = stablehlo.broadcast_in_dim %184, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_22 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %187 = stablehlo.divide %185, %186 : tensor<2x16x1xf32>
    %cst_23 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %188 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %189 = stablehlo.add %187, %188 : tensor<2x16x1xf32>
    %190 = stablehlo.rsqrt %189 : tensor<2x16x1xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %192 = stablehlo.multiply %182, %191 : tensor<2x16x32xf32>
    %193 = stablehlo.convert %10 : (tensor<32xbf16>) -> tensor<32xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %195 = stablehlo.broadcast_in_dim %194, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %196 = stablehlo.multiply %192, %195 : tensor<2x16x32xf32>
    %197 = stablehlo.convert %196 : tensor<2x16x32xf32>
    %198 = stablehlo.convert %17 : (tensor<32x32xbf16>) -> tensor<32x32xf32>
    %199 = stablehlo.dot_general %197, %198, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %200 = stablehlo.reshape %199 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %201 = stablehlo.transpose %200, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %202 = stablehlo.convert %196 : tensor<2x16x32xf32>
    %203 = stablehlo.convert %15 : (tensor<32x16xbf16>) -> tensor<32x16xf32>
    %204 = stablehlo.dot_general %202, %203, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %205 = stablehlo.reshape %204 : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %206 = stablehlo.transpose %205, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %207 = stablehlo.convert %196 : tensor<2x16x32xf32>
    %208 = stablehlo.convert %18 : (tensor<32x16xbf16>) -> tensor<32x16xf32>
    %209 = stablehlo.dot_general %207, %208, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
    %210 = stablehlo.reshape %209 : (tensor<2x16x16xf32>) -> tensor<2x16x2x8xf32>
    %211 = stablehlo.transpose %210, dims = [0, 2, 1, 3] : (tensor<2x16x2x8xf32>) -> tensor<2x2x16x8xf32>
    %212 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_24 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %213 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %214 = stablehlo.multiply %213, %212 : tensor<4xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %215 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %216 = stablehlo.add %215, %214 : tensor<4xf32>
    %cst_26 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %217 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %218 = stablehlo.divide %216, %217 : tensor<4xf32>
    %cst_27 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %219 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %220 = stablehlo.power %219, %218 : tensor<4xf32>
    %cst_28 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %221 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %222 = stablehlo.divide %221, %220 : tensor<4xf32>
    %223 = stablehlo.iota dim = 0 : tensor<16xf32>
    %224 = stablehlo.broadcast_in_dim %223, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %225 = stablehlo.broadcast_in_dim %222, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %226 = stablehlo.broadcast_in_dim %224, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %227 = stablehlo.broadcast_in_dim %225, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %228 = stablehlo.multiply %226, %227 : tensor<16x4xf32>
    %229 = stablehlo.cosine %228 : tensor<16x4xf32>
    %230 = stablehlo.concatenate %229, %229, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %231 = stablehlo.sine %228 : tensor<16x4xf32>
    %232 = stablehlo.concatenate %231, %231, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %233 = stablehlo.slice %201 [0:2, 0:4, 0:16, 0:4] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %234 = stablehlo.slice %201 [0:2, 0:4, 0:16, 4:8] : (tensor<2x4x16x8xf32>) -> tensor<2x4x16x4xf32>
    %235 = stablehlo.broadcast_in_dim %230, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %236 = stablehlo.broadcast_in_dim %235, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %237 = stablehlo.multiply %201, %236 : tensor<2x4x16x8xf32>
    %238 = stablehlo.negate %234 : tensor<2x4x16x4xf32>
    %239 = stablehlo.concatenate %238, %233, dim = 3 : (tensor<2x4x16x4xf32>, tensor<2x4x16x4xf32>) -> tensor<2x4x16x8xf32>
    %240 = stablehlo.broadcast_in_dim %232, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %241 = stablehlo.broadcast_in_dim %240, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x4x16x8xf32>
    %242 = stablehlo.multiply %239, %241 : tensor<2x4x16x8xf32>
    %243 = stablehlo.add %237, %242 : tensor<2x4x16x8xf32>
    %244 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst_29 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %245 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %246 = stablehlo.multiply %245, %244 : tensor<4xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %247 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %248 = stablehlo.add %247, %246 : tensor<4xf32>
    %cst_31 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %249 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %250 = stablehlo.divide %248, %249 : tensor<4xf32>
    %cst_32 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %251 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %252 = stablehlo.power %251, %250 : tensor<4xf32>
    %cst_33 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %253 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %254 = stablehlo.divide %253, %252 : tensor<4xf32>
    %255 = stablehlo.iota dim = 0 : tensor<16xf32>
    %256 = stablehlo.broadcast_in_dim %255, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %257 = stablehlo.broadcast_in_dim %254, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %258 = stablehlo.broadcast_in_dim %256, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %259 = stablehlo.broadcast_in_dim %257, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %260 = stablehlo.multiply %258, %259 : tensor<16x4xf32>
    %261 = stablehlo.cosine %260 : tensor<16x4xf32>
    %262 = stablehlo.concatenate %261, %261, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %263 = stablehlo.sine %260 : tensor<16x4xf32>
    %264 = stablehlo.concatenate %263, %263, dim = 1 : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %265 = stablehlo.slice %206 [0:2, 0:2, 0:16, 0:4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %266 = stablehlo.slice %206 [0:2, 0:2, 0:16, 4:8] : (tensor<2x2x16x8xf32>) -> tensor<2x2x16x4xf32>
    %267 = stablehlo.broadcast_in_dim %262, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %268 = stablehlo.broadcast_in_dim %267, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %269 = stablehlo.multiply %206, %268 : tensor<2x2x16x8xf32>
    %270 = stablehlo.negate %266 : tensor<2x2x16x4xf32>
    %271 = stablehlo.concatenate %270, %265, dim = 3 : (tensor<2x2x16x4xf32>, tensor<2x2x16x4xf32>) -> tensor<2x2x16x8xf32>
    %272 = stablehlo.broadcast_in_dim %264, dims = [2, 3] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
    %273 = stablehlo.broadcast_in_dim %272, dims = [0, 1, 2, 3] : (tensor<1x1x16x8xf32>) -> tensor<2x2x16x8xf32>
    %274 = stablehlo.multiply %271, %273 : tensor<2x2x16x8xf32>
    %275 = stablehlo.add %269, %274 : tensor<2x2x16x8xf32>
    %276 = stablehlo.broadcast_in_dim %275, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %277 = stablehlo.reshape %276 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %278 = stablehlo.broadcast_in_dim %211, dims = [0, 1, 3, 4] : (tensor<2x2x16x8xf32>) -> tensor<2x2x2x16x8xf32>
    %279 = stablehlo.reshape %278 : (tensor<2x2x2x16x8xf32>) -> tensor<2x4x16x8xf32>
    %280 = stablehlo.dot_general %243, %277, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_34 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %281 = stablehlo.sqrt %cst_34 : tensor<f32>
    %282 = stablehlo.broadcast_in_dim %281, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %283 = stablehlo.divide %280, %282 : tensor<2x4x16x16xf32>
    %284 = stablehlo.iota dim = 0 : tensor<16xi32>
    %285 = stablehlo.broadcast_in_dim %284, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %286 = stablehlo.iota dim = 0 : tensor<16xi32>
    %287 = stablehlo.broadcast_in_dim %286, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %288 = stablehlo.broadcast_in_dim %285, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %289 = stablehlo.broadcast_in_dim %287, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %290 = stablehlo.compare GE, %288, %289, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_35 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %291 = call @_where(%290, %283, %cst_35) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %cst_36 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %292 = stablehlo.reduce(%291 init: %cst_36) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_37 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %293 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %294 = stablehlo.maximum %293, %292 : tensor<2x4x16xf32>
    %295 = stablehlo.broadcast_in_dim %294, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %296 = stablehlo.broadcast_in_dim %295, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %297 = stablehlo.subtract %291, %296 : tensor<2x4x16x16xf32>
    %298 = stablehlo.exponential %297 : tensor<2x4x16x16xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %299 = stablehlo.reduce(%298 init: %cst_38) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %300 = stablehlo.broadcast_in_dim %299, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %301 = stablehlo.broadcast_in_dim %300, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %302 = stablehlo.divide %298, %301 : tensor<2x4x16x16xf32>
    %303 = stablehlo.dot_general %302, %279, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %304 = stablehlo.transpose %303, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %305 = stablehlo.reshape %304 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %306 = stablehlo.convert %305 : tensor<2x16x32xf32>
    %307 = stablehlo.convert %16 : (tensor<32x32xbf16>) -> tensor<32x32xf32>
    %308 = stablehlo.dot_general %306, %307, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %309 = stablehlo.add %182, %308 : tensor<2x16x32xf32>
    %310 = chlo.square %309 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %311 = stablehlo.reduce(%310 init: %cst_39) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %312 = stablehlo.broadcast_in_dim %311, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_40 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %313 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %314 = stablehlo.divide %312, %313 : tensor<2x16x1xf32>
    %cst_41 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %315 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %316 = stablehlo.add %314, %315 : tensor<2x16x1xf32>
    %317 = stablehlo.rsqrt %316 : tensor<2x16x1xf32>
    %318 = stablehlo.broadcast_in_dim %317, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %319 = stablehlo.multiply %309, %318 : tensor<2x16x32xf32>
    %320 = stablehlo.convert %11 : (tensor<32xbf16>) -> tensor<32xf32>
    %321 = stablehlo.broadcast_in_dim %320, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %322 = stablehlo.broadcast_in_dim %321, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %323 = stablehlo.multiply %319, %322 : tensor<2x16x32xf32>
    %324 = stablehlo.convert %323 : tensor<2x16x32xf32>
    %325 = stablehlo.convert %13 : (tensor<32x64xbf16>) -> tensor<32x64xf32>
    %326 = stablehlo.dot_general %324, %325, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %327 = call @silu(%326) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %328 = stablehlo.convert %323 : tensor<2x16x32xf32>
    %329 = stablehlo.convert %14 : (tensor<32x64xbf16>) -> tensor<32x64xf32>
    %330 = stablehlo.dot_general %328, %329, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %331 = stablehlo.multiply %327, %330 : tensor<2x16x64xf32>
    %332 = stablehlo.convert %331 : tensor<2x16x64xf32>
    %333 = stablehlo.convert %12 : (tensor<64x32xbf16>) -> tensor<64x32xf32>
    %334 = stablehlo.dot_general %332, %333, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
    %335 = stablehlo.add %309, %334 : tensor<2x16x32xf32>
    %336 = chlo.square %335 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %337 = stablehlo.reduce(%336 init: %cst_42) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %338 = stablehlo.broadcast_in_dim %337, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_43 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %339 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %340 = stablehlo.divide %338, %339 : tensor<2x16x1xf32>
    %cst_44 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %341 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %342 = stablehlo.add %340, %341 : tensor<2x16x1xf32>
    %343 = stablehlo.rsqrt %342 : tensor<2x16x1xf32>
    %344 = stablehlo.broadcast_in_dim %343, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %345 = stablehlo.multiply %335, %344 : tensor<2x16x32xf32>
    %346 = stablehlo.convert %20 : (tensor<32xbf16>) -> tensor<32xf32>
    %347 = stablehlo.broadcast_in_dim %346, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %348 = stablehlo.broadcast_in_dim %347, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %349 = stablehlo.multiply %345, %348 : tensor<2x16x32xf32>
    %350 = stablehlo.convert %349 : tensor<2x16x32xf32>
    %351 = stablehlo.convert %19 : (tensor<32x64xbf16>) -> tensor<32x64xf32>
    %352 = stablehlo.dot_general %350, %351, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %353 = call @log_softmax(%352) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %354 = stablehlo.broadcast_in_dim %arg22, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %355 = call @take_along_axis(%353, %354) : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> tensor<2x16x1xf32>
    %356 = stablehlo.reshape %355 : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %357 = stablehlo.reduce(%356 init: %cst_45) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_46 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %358 = stablehlo.divide %357, %cst_46 : tensor<f32>
    %359 = stablehlo.negate %358 : tensor<f32>
    return %359 : tensor<f32>
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

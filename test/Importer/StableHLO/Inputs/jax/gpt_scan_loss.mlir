module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x32x128xf32>, %arg1: tensor<3x128xf32>, %arg2: tensor<3x32xf32>, %arg3: tensor<3x32xf32>, %arg4: tensor<3x32xf32>, %arg5: tensor<3x32xf32>, %arg6: tensor<3x128x32xf32>, %arg7: tensor<3x32xf32>, %arg8: tensor<3x32x32xf32>, %arg9: tensor<3x32xf32>, %arg10: tensor<3x32x96xf32>, %arg11: tensor<3x96xf32>, %arg12: tensor<32xf32>, %arg13: tensor<32xf32>, %arg14: tensor<16x32xf32>, %arg15: tensor<64x32xf32>, %arg16: tensor<2x16xi32>, %arg17: tensor<2x16xi32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
    %1 = stablehlo.compare LT, %arg16, %0, SIGNED : (tensor<2x16xi32>, tensor<2x16xi32>) -> tensor<2x16xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
    %3 = stablehlo.add %arg16, %2 : tensor<2x16xi32>
    %4 = stablehlo.select %1, %3, %arg16 : tensor<2x16xi1>, tensor<2x16xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %6 = "stablehlo.gather"(%arg15, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<2x16x1xi32>) -> tensor<2x16x32xf32>
    %7 = stablehlo.broadcast_in_dim %arg14, dims = [1, 2] : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<1x16x32xf32>) -> tensor<2x16x32xf32>
    %9 = stablehlo.add %6, %8 : tensor<2x16x32xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %10:14 = stablehlo.while(%iterArg = %arg0, %iterArg_8 = %arg1, %iterArg_9 = %arg2, %iterArg_10 = %arg3, %iterArg_11 = %arg4, %iterArg_12 = %arg5, %iterArg_13 = %arg6, %iterArg_14 = %arg7, %iterArg_15 = %arg8, %iterArg_16 = %arg9, %iterArg_17 = %arg10, %iterArg_18 = %arg11, %iterArg_19 = %c_1, %iterArg_20 = %9) : tensor<3x32x128xf32>, tensor<3x128xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x128x32xf32>, tensor<3x32xf32>, tensor<3x32x32xf32>, tensor<3x32xf32>, tensor<3x32x96xf32>, tensor<3x96xf32>, tensor<i32>, tensor<2x16x32xf32>
    cond {
      %c_21 = stablehlo.constant dense<3> : tensor<i32>
      %44 = stablehlo.compare LT, %iterArg_19, %c_21, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %44 : tensor<i1>
    } do {
      %44 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_19) : (tensor<3x32x128xf32>, tensor<i32>) -> tensor<32x128xf32>
      %45 = func.call @dynamic_index_in_dim_0(%iterArg_8, %iterArg_19) : (tensor<3x128xf32>, tensor<i32>) -> tensor<128xf32>
      %46 = func.call @dynamic_index_in_dim_1(%iterArg_9, %iterArg_19) : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %47 = func.call @dynamic_index_in_dim_1(%iterArg_10, %iterArg_19) : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %48 = func.call @dynamic_index_in_dim_1(%iterArg_11, %iterArg_19) : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %49 = func.call @dynamic_index_in_dim_1(%iterArg_12, %iterArg_19) : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %50 = func.call @dynamic_index_in_dim_2(%iterArg_13, %iterArg_19) : (tensor<3x128x32xf32>, tensor<i32>) -> tensor<128x32xf32>
      %51 = func.call @dynamic_index_in_dim_1(%iterArg_14, %iterArg_19) : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %52 = func.call @dynamic_index_in_dim_3(%iterArg_15, %iterArg_19) : (tensor<3x32x32xf32>, tensor<i32>) -> tensor<32x32xf32>
      %53 = func.call @dynamic_index_in_dim_1(%iterArg_16, %iterArg_19) : (tensor<3x32xf32>, tensor<i32>) -> tensor<32xf32>
      %54 = func.call @dynamic_index_in_dim_4(%iterArg_17, %iterArg_19) : (tensor<3x32x96xf32>, tensor<i32>) -> tensor<32x96xf32>
      %55 = func.call @dynamic_index_in_dim_5(%iterArg_18, %iterArg_19) : (tensor<3x96xf32>, tensor<i32>) -> tensor<96xf32>
      %56 = func.call @closed_call(%iterArg_20, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55) : (tensor<2x16x32xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x96xf32>, tensor<96xf32>) -> tensor<2x16x32xf32>
      %c_21 = stablehlo.constant dense<1> : tensor<i32>
      %57 = stablehlo.add %iterArg_19, %c_21 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %57, %56 : tensor<3x32x128xf32>, tensor<3x128xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x32xf32>, tensor<3x128x32xf32>, tensor<3x32xf32>, tensor<3x32x32xf32>, tensor<3x32xf32>, tensor<3x32x96xf32>, tensor<3x96xf32>, tensor<i32>, tensor<2x16x32xf32>
    }
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10#13 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %14 = stablehlo.divide %12, %13 : tensor<2x16x1xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %16 = stablehlo.subtract %10#13, %15 : tensor<2x16x32xf32>
    %17 = chlo.square %16 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%17 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_4 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %21 = stablehlo.divide %19, %20 : tensor<2x16x1xf32>
    %22 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %23 = stablehlo.subtract %10#13, %22 : tensor<2x16x32xf32>
    %cst_5 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %25 = stablehlo.add %21, %24 : tensor<2x16x1xf32>
    %26 = stablehlo.rsqrt %25 : tensor<2x16x1xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %28 = stablehlo.multiply %23, %27 : tensor<2x16x32xf32>
    %29 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %31 = stablehlo.multiply %28, %30 : tensor<2x16x32xf32>
    %32 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %34 = stablehlo.add %31, %33 : tensor<2x16x32xf32>
    %35 = stablehlo.transpose %arg15, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %36 = stablehlo.dot_general %34, %35, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
    %37 = call @log_softmax(%36) : (tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    %38 = stablehlo.broadcast_in_dim %arg17, dims = [0, 1] : (tensor<2x16xi32>) -> tensor<2x16x1xi32>
    %39 = call @take_along_axis(%37, %38) : (tensor<2x16x64xf32>, tensor<2x16x1xi32>) -> tensor<2x16x1xf32>
    %40 = stablehlo.reshape %39 : (tensor<2x16x1xf32>) -> tensor<2x16xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_6) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_7 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %42 = stablehlo.divide %41, %cst_7 : tensor<f32>
    %43 = stablehlo.negate %42 : tensor<f32>
    return %43 : tensor<f32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<3x32x128xf32>, %arg1: tensor<i32>) -> tensor<32x128xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 32, 128] : (tensor<3x32x128xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x128xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32x128xf32>) -> tensor<32x128xf32>
    return %1 : tensor<32x128xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<3x128xf32>, %arg1: tensor<i32>) -> tensor<128xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 128] : (tensor<3x128xf32>, tensor<i32>, tensor<i32>) -> tensor<1x128xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x128xf32>) -> tensor<128xf32>
    return %1 : tensor<128xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<3x32xf32>, %arg1: tensor<i32>) -> tensor<32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 32] : (tensor<3x32xf32>, tensor<i32>, tensor<i32>) -> tensor<1x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32xf32>) -> tensor<32xf32>
    return %1 : tensor<32xf32>
  }
  func.func private @dynamic_index_in_dim_2(%arg0: tensor<3x128x32xf32>, %arg1: tensor<i32>) -> tensor<128x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 128, 32] : (tensor<3x128x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x128x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x128x32xf32>) -> tensor<128x32xf32>
    return %1 : tensor<128x32xf32>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<3x32x32xf32>, %arg1: tensor<i32>) -> tensor<32x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 32, 32] : (tensor<3x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32x32xf32>) -> tensor<32x32xf32>
    return %1 : tensor<32x32xf32>
  }
  func.func private @dynamic_index_in_dim_4(%arg0: tensor<3x32x96xf32>, %arg1: tensor<i32>) -> tensor<32x96xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 32, 96] : (tensor<3x32x96xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x96xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32x96xf32>) -> tensor<32x96xf32>
    return %1 : tensor<32x96xf32>
  }
  func.func private @dynamic_index_in_dim_5(%arg0: tensor<3x96xf32>, %arg1: tensor<i32>) -> tensor<96xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 96] : (tensor<3x96xf32>, tensor<i32>, tensor<i32>) -> tensor<1x96xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x96xf32>) -> tensor<96xf32>
    return %1 : tensor<96xf32>
  }
  func.func private @closed_call(%arg0: tensor<2x16x32xf32>, %arg1: tensor<32x128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<32xf32>, %arg7: tensor<128x32xf32>, %arg8: tensor<32xf32>, %arg9: tensor<32x32xf32>, %arg10: tensor<32xf32>, %arg11: tensor<32x96xf32>, %arg12: tensor<96xf32>) -> tensor<2x16x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2x16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x16x32xf32>
    %6 = chlo.square %5 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<2x16x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %12 = stablehlo.subtract %arg0, %11 : tensor<2x16x32xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<2x16x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<2x16x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<2x16x32xf32>
    %18 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<2x16x32xf32>
    %21 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %23 = stablehlo.add %20, %22 : tensor<2x16x32xf32>
    %24 = stablehlo.dot_general %23, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x96xf32>) -> tensor<2x16x96xf32>
    %25 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<96xf32>) -> tensor<1x1x96xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1, 2] : (tensor<1x1x96xf32>) -> tensor<2x16x96xf32>
    %27 = stablehlo.add %24, %26 : tensor<2x16x96xf32>
    %28 = stablehlo.slice %27 [0:2, 0:16, 0:32] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %29 = stablehlo.slice %27 [0:2, 0:16, 32:64] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %30 = stablehlo.slice %27 [0:2, 0:16, 64:96] : (tensor<2x16x96xf32>) -> tensor<2x16x32xf32>
    %31 = stablehlo.reshape %28 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %32 = stablehlo.transpose %31, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %33 = stablehlo.reshape %29 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %34 = stablehlo.transpose %33, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %35 = stablehlo.reshape %30 : (tensor<2x16x32xf32>) -> tensor<2x16x4x8xf32>
    %36 = stablehlo.transpose %35, dims = [0, 2, 1, 3] : (tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32>
    %37 = stablehlo.dot_general %32, %34, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %38 = stablehlo.sqrt %cst_4 : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [] : (tensor<f32>) -> tensor<2x4x16x16xf32>
    %40 = stablehlo.divide %37, %39 : tensor<2x4x16x16xf32>
    %41 = stablehlo.iota dim = 0 : tensor<16xi32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %43 = stablehlo.iota dim = 0 : tensor<16xi32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %45 = stablehlo.broadcast_in_dim %42, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %46 = stablehlo.broadcast_in_dim %44, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %47 = stablehlo.compare GE, %45, %46, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %cst_5 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %48 = call @_where(%47, %40, %cst_5) : (tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %49 = stablehlo.reduce(%48 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x4x16xf32>
    %51 = stablehlo.maximum %50, %49 : tensor<2x4x16xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %54 = stablehlo.subtract %48, %53 : tensor<2x4x16x16xf32>
    %55 = stablehlo.exponential %54 : tensor<2x4x16x16xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%55 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1, 2] : (tensor<2x4x16xf32>) -> tensor<2x4x16x1xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2, 3] : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %59 = stablehlo.divide %55, %58 : tensor<2x4x16x16xf32>
    %60 = stablehlo.dot_general %59, %36, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
    %61 = stablehlo.transpose %60, dims = [0, 2, 1, 3] : (tensor<2x4x16x8xf32>) -> tensor<2x16x4x8xf32>
    %62 = stablehlo.reshape %61 : (tensor<2x16x4x8xf32>) -> tensor<2x16x32xf32>
    %63 = stablehlo.dot_general %62, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
    %64 = stablehlo.add %arg0, %63 : tensor<2x16x32xf32>
    %65 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %67 = stablehlo.add %64, %66 : tensor<2x16x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %68 = stablehlo.reduce(%67 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_10 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %71 = stablehlo.divide %69, %70 : tensor<2x16x1xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %73 = stablehlo.subtract %67, %72 : tensor<2x16x32xf32>
    %74 = chlo.square %73 : tensor<2x16x32xf32> -> tensor<2x16x32xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.reduce(%74 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<2x16x32xf32>, tensor<f32>) -> tensor<2x16xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_12 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %78 = stablehlo.divide %76, %77 : tensor<2x16x1xf32>
    %79 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %80 = stablehlo.subtract %67, %79 : tensor<2x16x32xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %82 = stablehlo.add %78, %81 : tensor<2x16x1xf32>
    %83 = stablehlo.rsqrt %82 : tensor<2x16x1xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x32xf32>
    %85 = stablehlo.multiply %80, %84 : tensor<2x16x32xf32>
    %86 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %88 = stablehlo.multiply %85, %87 : tensor<2x16x32xf32>
    %89 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %91 = stablehlo.add %88, %90 : tensor<2x16x32xf32>
    %92 = stablehlo.dot_general %91, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<32x128xf32>) -> tensor<2x16x128xf32>
    %93 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x16x128xf32>
    %95 = stablehlo.add %92, %94 : tensor<2x16x128xf32>
    %96 = stablehlo.multiply %95, %95 : tensor<2x16x128xf32>
    %97 = stablehlo.multiply %96, %95 : tensor<2x16x128xf32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %99 = stablehlo.multiply %98, %97 : tensor<2x16x128xf32>
    %100 = stablehlo.add %95, %99 : tensor<2x16x128xf32>
    %cst_15 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %102 = stablehlo.multiply %101, %100 : tensor<2x16x128xf32>
    %103 = stablehlo.tanh %102 : tensor<2x16x128xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %105 = stablehlo.add %104, %103 : tensor<2x16x128xf32>
    %cst_17 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<2x16x128xf32>
    %107 = stablehlo.multiply %106, %105 : tensor<2x16x128xf32>
    %108 = stablehlo.multiply %95, %107 : tensor<2x16x128xf32>
    %109 = stablehlo.dot_general %108, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xf32>, tensor<128x32xf32>) -> tensor<2x16x32xf32>
    %110 = stablehlo.add %67, %109 : tensor<2x16x32xf32>
    %111 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %112 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x16x32xf32>
    %113 = stablehlo.add %110, %112 : tensor<2x16x32xf32>
    return %113 : tensor<2x16x32xf32>
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

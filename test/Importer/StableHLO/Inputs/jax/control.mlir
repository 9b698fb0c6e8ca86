module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x16xf32>) -> (tensor<88xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<"0xE33CF93E548A1B3F413305BEC335C1BC6961583D1B5095BEE12718BE84DF173E8F164C3EF3F191BE5063273FD42716BF4D4EDC3D0FE6413D0429C43EE501E83EBF17953E1933383E5DD1F23B7A2F13BF4BCC0EBFB2B8043F34F3673CA2197A3E1E60213DFFC7AD3D1E04BF3ED60D543E8FFC75BED3A163BE365DECBE50F9B93DA3A5CBBB14350B3DFC9187BDF650AD3CF510833EED727CBEDEA98FBB4EE338BDC2428ABEE92F69BE56A7CC3DF099783EABD7513CEA7531BE529BFEBD981615BFE227CA3E6EB6673E5AB5463D26362BBCEF62CCBE1FD7F13DE240143EBBEF763E85AD42BE8D8D9F3E1ED163BE561504BE3D4D8ABD4AA41FBE223200BF08784F3EEBB48B3D2A41B5BEBA0696BE67DAB73E4E3881BE66B14A3E190CA43E7BCBC13D4D73063E45FFB33E9B6C8B3E8ACBBB3E46DA27BE4287833E109D1CBBC570113E0759AABEBFEE4A3F90A3883EEBDC983E0DCB9C3D748D193D26D1B23E1F1D6D3DF9B16ABD351F06BE600EB0BE61D0723DCD81B33E6D2786BE2072873E266BD3BDBB9633BD22518CBE6972D23ECBA36FBE7324E03D65EF953E66050DBB4258813D95E9693DF542EB3DBA66C2BE32FFE3BE4FC00CBDCA87A93E54E0733DE369833D93EA4ABEEA665FBEDF7CF83D0E0D693DF64B39BE3A29913ED07BA63E0EE81DBF36495BBE0F21363E3466A13E5BF7E0BE68C14A3EBC60B9BDA397233DFF7ACCBD4D27F13E797D303EB63B5E3E8005563E840D4CBEF10F17BF7E9139BF9EEAA73D8939B23E8A21A33D533F543E6F539DBDB1581BBFDA6C3FBE89BEAB3DA368CFBE30EDF83CE87E1D3EAD36A23D1D7A0CBF6D3ADC3E8393CA3E7BAEE5BEE8598F3E8D76D83EAA4B4EBD87C311BD0E3195BDEAB993BE935A68BED097453FF2D7A2BE1DE5BF3D2739C93D8991CB3C0C4DA6BEFF3A6DBE57F342BE6A60BC3ED067E4BEC39173BE03EB293E5219B6BEA40D963E24B106BE239ACABD2651CC3DF68348BEE01EB9BE0F2388BE6EF521BFE9813EBDE21D4ABE6CC04BBE2DFB23BC5E9D89BEB385BD3CB3BF8BBE6900C43E46CAF6BDAA9699BE857AAA3BF08CF83D308EA4BE3C3B9F3E735B4DBE7F86BFBC5D8DB93E72D7193FDE81ADBC6376CE3D68CA343F396795BD9324B43EBDED813E6DCC5F3E5EB0373E24886BBE9920563D58303FBEC92E7F3E87B9CB3D9CB088BE25F8813DD84EE3BCC75FF8BECF58FDBD1B50D83E65B09E3E5C0EA63E3092B0BEB7E21DBC0C81B7BC0BFF373E0ACFB6BE634241BEF092883C12A5E03D54E8273ECCDA6A3EF8B9D0BD4DC3DE3DCE78B6BD69399E3EEB4F943E6D2B683EBFF2143D3FC37C3EC0B6373E38A280BEB206273ED6DCC5BD119F08BEB97D8C3E2641BA3EDA120A3F5392F6BE5B0BC43CE8436CBE6A7A15BF88C0F43E07348DBE32CE03BFFBD8AB3EF00C7A3D89755DBDAFFC563DBBB561BE"> : tensor<16x16xf32>
    %0 = stablehlo.dot_general %arg0, %cst, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.compare GT, %1, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.convert %2 : (tensor<i1>) -> tensor<i32>
    %4 = "stablehlo.case"(%3) ({
      %18 = stablehlo.tanh %0 : tensor<4x16xf32>
      %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %19 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %20 = stablehlo.subtract %18, %19 : tensor<4x16xf32>
      stablehlo.return %20 : tensor<4x16xf32>
    }, {
      %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %18 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %19 = stablehlo.multiply %0, %18 : tensor<4x16xf32>
      %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %20 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %21 = stablehlo.add %19, %20 : tensor<4x16xf32>
      stablehlo.return %21 : tensor<4x16xf32>
    }) : (tensor<i32>) -> tensor<4x16xf32>
    %5 = stablehlo.slice %0 [0:1, 0:16] : (tensor<4x16xf32>) -> tensor<1x16xf32>
    %6 = stablehlo.reshape %5 : (tensor<1x16xf32>) -> tensor<16xf32>
    %7 = call @argmax(%6) : (tensor<16xf32>) -> tensor<i32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %8 = call @remainder(%7, %c) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<2> : tensor<i32>
    %9 = stablehlo.clamp %c_2, %8, %c_3 : tensor<i32>
    %10 = "stablehlo.case"(%9) ({
      %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %18 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %19 = stablehlo.add %4, %18 : tensor<4x16xf32>
      stablehlo.return %19 : tensor<4x16xf32>
    }, {
      %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
      %18 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %19 = stablehlo.multiply %4, %18 : tensor<4x16xf32>
      stablehlo.return %19 : tensor<4x16xf32>
    }, {
      %18 = stablehlo.negate %4 : tensor<4x16xf32>
      stablehlo.return %18 : tensor<4x16xf32>
    }) : (tensor<i32>) -> tensor<4x16xf32>
    %11 = stablehlo.reshape %10 : (tensor<4x16xf32>) -> tensor<64xf32>
    %12 = call @argmax_0(%10) : (tensor<4x16xf32>) -> tensor<4xi32>
    %13 = stablehlo.convert %12 : (tensor<4xi32>) -> tensor<4xf32>
    %14 = call @argmin(%10) : (tensor<4x16xf32>) -> tensor<16xi32>
    %15 = stablehlo.convert %14 : (tensor<16xi32>) -> tensor<16xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %16 = stablehlo.reduce(%10 init: %cst_4) applies stablehlo.maximum across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %17 = stablehlo.concatenate %11, %13, %15, %16, dim = 0 : (tensor<64xf32>, tensor<4xf32>, tensor<16xf32>, tensor<4xf32>) -> tensor<88xf32>
    return %17 : tensor<88xf32>
  }
  func.func private @argmax(%arg0: tensor<16xf32>) -> tensor<i32> {
    %0 = stablehlo.iota dim = 0 : tensor<16xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [0] : (tensor<16xf32>, tensor<16xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<i32>
  }
  func.func private @remainder(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.remainder %arg0, %2 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare NE, %3, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %3, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.compare NE, %5, %6, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %8 = stablehlo.and %7, %4 : tensor<i1>
    %9 = stablehlo.add %3, %2 : tensor<i32>
    %10 = stablehlo.select %8, %9, %3 : tensor<i1>, tensor<i32>
    return %10 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @argmax_0(%arg0: tensor<4x16xf32>) -> tensor<4xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<4x16xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<4xi32>
  }
  func.func private @argmin(%arg0: tensor<4x16xf32>) -> tensor<16xi32> {
    %0 = stablehlo.iota dim = 0 : tensor<4x16xi32>
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [0] : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare LT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<16xi32>
  }
}

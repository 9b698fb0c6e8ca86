// Hand-written StableHLO in JAX's pretty form (import.test), from what JAX
// 0.10 lowers: the and/or reductions of jnp.all and jnp.any (with their
// identity as init, and an init that is not), and gathers with batching
// dims as jnp.take_along_axis lowers them: along the last axis with JAX's
// bounds check (mode="fill": a negative label counts from the end, one out
// of range gives NaN), and by hand along a middle axis with the indices'
// batching dims in another order and indices out of range, which StableHLO
// clamps. data[i, j, k] = 100 i + 10 j + k.
module @jit_take {
  func.func public @main() -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2x3xf32>, tensor<4x2x2xf32>) {
    %0 = stablehlo.iota dim = 0 : tensor<2x3x4xi32>
    %c_2 = stablehlo.constant dense<100> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x3x4xi32>
    %2 = stablehlo.multiply %1, %0 : tensor<2x3x4xi32>
    %3 = stablehlo.iota dim = 1 : tensor<2x3x4xi32>
    %c_3 = stablehlo.constant dense<10> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<2x3x4xi32>
    %5 = stablehlo.multiply %4, %3 : tensor<2x3x4xi32>
    %6 = stablehlo.add %2, %5 : tensor<2x3x4xi32>
    %7 = stablehlo.iota dim = 2 : tensor<2x3x4xi32>
    %8 = stablehlo.add %6, %7 : tensor<2x3x4xi32>
    %9 = stablehlo.convert %8 : (tensor<2x3x4xi32>) -> tensor<2x3x4xf32>
    %c = stablehlo.constant dense<[[0, 3, 5], [-1, 2, 1]]> : tensor<2x3xi32>
    %10 = stablehlo.broadcast_in_dim %c, dims = [0, 1] : (tensor<2x3xi32>) -> tensor<2x3x1xi32>
    %11 = call @take_along_axis(%9, %10) : (tensor<2x3x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x1xf32>
    %12 = stablehlo.reshape %11 : (tensor<2x3x1xf32>) -> tensor<2x3xf32>
    %idx = stablehlo.constant dense<[[[[2], [0]], [[0], [2]]], [[[1], [7]], [[1], [1]]], [[[0], [2]], [[2], [-1]]], [[[2], [2]], [[2], [2]]]]> : tensor<4x2x2x1xi32>
    %16 = "stablehlo.gather"(%9, %idx) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0, 2], start_indices_batching_dims = [1, 0], start_index_map = [1], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<2x3x4xf32>, tensor<4x2x2x1xi32>) -> tensor<4x2x2xf32>
    %17 = stablehlo.iota dim = 1 : tensor<2x4xi32>
    %c_1 = stablehlo.constant dense<[[4], [2]]> : tensor<2x1xi32>
    %18 = stablehlo.broadcast_in_dim %c_1, dims = [0, 1] : (tensor<2x1xi32>) -> tensor<2x4xi32>
    %19 = stablehlo.compare LT, %17, %18, SIGNED : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi1>
    %c_4 = stablehlo.constant dense<true> : tensor<i1>
    %20 = stablehlo.reduce(%19 init: %c_4) applies stablehlo.and across dimensions = [1] : (tensor<2x4xi1>, tensor<i1>) -> tensor<2xi1>
    %21 = stablehlo.not %19 : tensor<2x4xi1>
    %c_5 = stablehlo.constant dense<false> : tensor<i1>
    %22 = stablehlo.reduce(%21 init: %c_5) applies stablehlo.or across dimensions = [1] : (tensor<2x4xi1>, tensor<i1>) -> tensor<2xi1>
    %23 = stablehlo.reduce(%19 init: %c_5) applies stablehlo.and across dimensions = [1] : (tensor<2x4xi1>, tensor<i1>) -> tensor<2xi1>
    return %20, %22, %23, %12, %16 : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2x3xf32>, tensor<4x2x2xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x3x1xi32>) -> tensor<2x3x1xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x3x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<2x3x1xi32>, tensor<2x3x1xi32>) -> tensor<2x3x1xi1>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x3x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<2x3x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<2x3x1xi1>, tensor<2x3x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<2x3x1xi32>) -> tensor<2x3x1x1xi32>
    %c_1 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x3x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<2x3x1x1xi32>, tensor<2x3x1x1xi32>) -> tensor<2x3x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [3] : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3] : (tensor<1x1x1x1xi32>) -> tensor<2x3x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<2x3x1x1xi32>, tensor<2x3x1x1xi32>) -> tensor<2x3x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<2x3x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [3] : (tensor<2x3x1x1xi1>, tensor<i1>) -> tensor<2x3x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<2x3x4xf32>, tensor<2x3x1x1xi32>) -> tensor<2x3x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<2x3x1xi1>, tensor<2x3x1xf32>
    return %15 : tensor<2x3x1xf32>
  }
}

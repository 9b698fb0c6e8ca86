// dist.send / dist.recv / dist.broadcast on two ranks (mesh pp = 2), for the
// GPU check of bench/run-gpu.sh (check2). Rank p holds rows [256p, 256p+256)
// of x and computes y = x * (p + 1); bench/prepare-gpu.sh writes the
// expected outputs with numpy:
//   next  = y of rank p-1 (zeros on rank 0)
//   prev  = y of rank p+1 (zeros on rank 1), on tag 3
//   root1 = y of rank 1 on both ranks
// 1 MiB per message, so NCCL moves it in several chunks.
module attributes {dist.mesh = #dist.mesh<[pp = 2]>} {
func.func @main(%x: tensor<256x1024xf32> {graph.name = "x", paracc.global_type = tensor<512x1024xf32>, paracc.shard_dims = [array<i32: 0>, array<i32>]})
    -> (tensor<256x1024xf32> {graph.name = "next", paracc.global_type = tensor<512x1024xf32>, paracc.shard_dims = [array<i32: 0>, array<i32>]},
        tensor<256x1024xf32> {graph.name = "prev", paracc.global_type = tensor<512x1024xf32>, paracc.shard_dims = [array<i32: 0>, array<i32>]},
        tensor<256x1024xf32> {graph.name = "root1", paracc.global_type = tensor<512x1024xf32>, paracc.shard_dims = [array<i32: 0>, array<i32>]})
    attributes {paracc.mesh_axes = ["pp"], paracc.mesh_sizes = array<i64: 2>} {
  %p = dist.axis_index over ["pp"] : tensor<i64>
  %one = graph.constant dense<1> : tensor<i64>
  %p1 = graph.add %p, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %scale = graph.cast %p1 : tensor<i64> -> tensor<f32>
  %y = graph.mul %x, %scale : (tensor<256x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
  dist.send %y over ["pp"] to = 1 : tensor<256x1024xf32>
  %next = dist.recv over ["pp"] from = -1 : tensor<256x1024xf32>
  dist.send %y over ["pp"] to = -1 tag = 3 : tensor<256x1024xf32>
  %prev = dist.recv over ["pp"] from = 1 tag = 3 : tensor<256x1024xf32>
  %root1 = dist.broadcast %y over ["pp"] root = 1 : tensor<256x1024xf32>
  return %next, %prev, %root1
      : tensor<256x1024xf32>, tensor<256x1024xf32>, tensor<256x1024xf32>
}
}

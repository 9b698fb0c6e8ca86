// A two-layer MLP in paracc's graph dialect: what an MLIR-based front end
// hands to paracc's passes (distribute_mlir shards it over a mesh).
func.func @main(%x: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  %w1 = graph.weight "fc1.weight" : tensor<64x256xf32>
  %b1 = graph.weight "fc1.bias" : tensor<256xf32>
  %w2 = graph.weight "fc2.weight" : tensor<256x64xf32>
  %b2 = graph.weight "fc2.bias" : tensor<64xf32>
  %0 = graph.matmul %x, %w1 : (tensor<2x16x64xf32>, tensor<64x256xf32>) -> tensor<2x16x256xf32>
  %1 = graph.add %0, %b1 : (tensor<2x16x256xf32>, tensor<256xf32>) -> tensor<2x16x256xf32>
  %2 = graph.gelu %1 : tensor<2x16x256xf32>
  %3 = graph.matmul %2, %w2 : (tensor<2x16x256xf32>, tensor<256x64xf32>) -> tensor<2x16x64xf32>
  %4 = graph.add %3, %b2 : (tensor<2x16x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return %4 : tensor<2x16x64xf32>
}

// RUN: paracc-opt %s -split-input-file --paracc-pipeline="schedule=gpipe" | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-pipeline="schedule=gpipe" | FileCheck %s --check-prefix=XFER

// --paracc-pipeline's split of cross-stage sums: a micro-batch sum
// (dist.all_reduce over "mb") of a per-micro-batch `graph.add %a, %b` whose
// terms are made on two stages (a tied parameter's gradient) becomes the
// sum of each term's micro-batch sums. Each stage adds its own term's
// micro-batches, the parts cross once per step (not once per micro-batch)
// and are added once. The XFER checks count the transfers of the summed
// value: exactly one per stage that sends or receives it.

// A training step with a weight "e" read on both stages: its gradient is
// the per-micro-batch sum of stage 0's term (%g0p, from the gradient stage
// 1 sends back) and stage 1's (%g1p). Stage 1 adds its two micro-batches'
// terms and sends the part once; stage 0 adds its own, then the two parts
// once (it holds the first of the equally large parts), updates "e",
// assigns it and sends the new value to stage 1, which only assigns it.

// CHECK-LABEL: func.func @tied_stage0
// CHECK: %[[E:.+]] = graph.weight "e"
// CHECK: dist.send %{{.+}} over ["pp"] to = 1 : tensor<2x8xf32>
// CHECK: dist.send %{{.+}} over ["pp"] to = 1 tag = 1 : tensor<2x8xf32>
// CHECK: %[[D0:.+]] = dist.recv over ["pp"] from = 1 tag = 2 : tensor<2x8xf32>
// CHECK: %[[M0:.+]] = graph.mul %[[D0]]
// CHECK: %[[P0:.+]] = graph.reduce_sum %[[M0]], [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = backward>, dist.stage = 0 : i64
// CHECK-NOT: graph.add
// CHECK: %[[D1:.+]] = dist.recv over ["pp"] from = 1 tag = 3 : tensor<2x8xf32>
// CHECK: %[[M1:.+]] = graph.mul %[[D1]]
// CHECK: %[[P1:.+]] = graph.reduce_sum %[[M1]], [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = backward>, dist.stage = 0 : i64
// CHECK-NOT: dist.recv
// CHECK: %[[G0:.+]] = graph.add %[[P0]], %[[P1]] {{.*}}dist.stage = 0 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[G1:.+]] = dist.recv over ["pp"] from = 1 tag = 4 : tensor<8xf32>
// CHECK-NEXT: %[[G:.+]] = graph.add %[[G0]], %[[G1]] {{.*}}dist.stage = 0 : i64}
// CHECK-NEXT: %[[NE:.+]] = graph.sub %[[E]], %[[G]]
// CHECK-NEXT: graph.assign "e", %[[NE]]
// CHECK-NEXT: dist.send %[[NE]] over ["pp"] to = 1 tag = 5 : tensor<8xf32>
// CHECK-NOT: graph.add
// CHECK: return{{$}}
// CHECK-LABEL: func.func @tied_stage1
// CHECK: %[[R0:.+]] = dist.recv over ["pp"] from = -1 : tensor<2x8xf32>
// CHECK: %[[R1:.+]] = dist.recv over ["pp"] from = -1 tag = 1 : tensor<2x8xf32>
// CHECK: %[[Q0:.+]] = graph.reduce_sum %[[R0]], [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = backward>, dist.stage = 1 : i64
// CHECK: dist.send %{{.+}} over ["pp"] to = -1 tag = 2 : tensor<2x8xf32>
// CHECK: %[[Q1:.+]] = graph.reduce_sum %[[R1]], [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = backward>, dist.stage = 1 : i64
// CHECK: dist.send %{{.+}} over ["pp"] to = -1 tag = 3 : tensor<2x8xf32>
// CHECK: %[[G1:.+]] = graph.add %[[Q0]], %[[Q1]] {{.*}}dist.stage = 1 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: dist.send %[[G1]] over ["pp"] to = -1 tag = 4 : tensor<8xf32>
// CHECK-NOT: graph.add
// CHECK-NOT: graph.sub
// CHECK: %[[NE:.+]] = dist.recv over ["pp"] from = -1 tag = 5 : tensor<8xf32>
// CHECK-NEXT: graph.assign "e", %[[NE]]
// CHECK-NEXT: return %{{.+}} : tensor<f32>

// XFER-LABEL: func.func @tied_stage0
// XFER-NOT: dist.recv {{.*}} : tensor<8xf32>
// XFER: dist.recv over ["pp"] from = 1 tag = 4 : tensor<8xf32>
// XFER-NOT: dist.recv {{.*}} : tensor<8xf32>
// XFER-LABEL: func.func @tied_stage1
// XFER-NOT: dist.send {{.*}} : tensor<8xf32>
// XFER: dist.send %{{.+}} over ["pp"] to = -1 tag = 4 : tensor<8xf32>
// XFER-NOT: dist.send {{.*}} : tensor<8xf32>
// XFER: return
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @tied(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<f32> {dist.global_type = tensor<f32>, dist.shard_dims = []}) {
  %e = graph.weight "e" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  // Forward.
  %h = graph.mul %x, %e {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %y = graph.mul %h, %e {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %l = graph.reduce_sum %y, [0, 1] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<f32>
  %loss = dist.all_reduce %l over ["mb"] : tensor<f32>
  // Backward: each stage's term of e's gradient, per micro-batch.
  %dh = graph.mul %h, %e {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %g1p = graph.reduce_sum %h, [0] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %g0m = graph.mul %dh, %x {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %g0p = graph.reduce_sum %g0m, [0] {keepdims = false, dist.stage = 0 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  // The terms' per-micro-batch sum, then the micro-batches'.
  %gp = graph.add %g0p, %g1p {dist.stage = 0 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %g = dist.all_reduce %gp over ["mb"] : tensor<8xf32>
  // Update.
  %ne = graph.sub %e, %g : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  graph.assign "e", %ne : tensor<8xf32>
  return %loss : tensor<f32>
}
}

// -----

// With data parallelism (mesh [dp, pp, mb]) and the first term on the last
// stage: a sum over [dp, mb] becomes, on each stage, the sum of its term's
// micro-batches and an all-reduce over dp; stage 0 sends its part once and
// the last stage adds the parts once and returns the result.

// CHECK-LABEL: func.func @dp_parts_stage0
// CHECK: %[[A0:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 0 : i64
// CHECK-NOT: graph.add
// CHECK: %[[A1:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 0 : i64
// CHECK: %[[A:.+]] = graph.add %[[A0]], %[[A1]] {{.*}}: (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[AR:.+]] = dist.all_reduce %[[A]] over ["dp"] {{.*}}: tensor<8xf32>
// CHECK-NEXT: dist.send %[[AR]] over ["pp"] to = 1 tag = 2 : tensor<8xf32>
// CHECK-NEXT: return{{$}}
// CHECK-LABEL: func.func @dp_parts_stage1
// CHECK: %[[B0:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 1 : i64
// CHECK-NOT: graph.add
// CHECK: %[[B1:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 1 : i64
// CHECK: %[[B:.+]] = graph.add %[[B0]], %[[B1]] {{.*}}: (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[BR:.+]] = dist.all_reduce %[[B]] over ["dp"] {{.*}}: tensor<8xf32>
// CHECK-NEXT: %[[AR:.+]] = dist.recv over ["pp"] from = -1 tag = 2 : tensor<8xf32>
// CHECK-NEXT: %[[S:.+]] = graph.add %[[BR]], %[[AR]]
// CHECK-NEXT: return %[[S]] : tensor<8xf32>

// XFER-LABEL: func.func @dp_parts_stage0
// XFER-NOT: dist.send {{.*}} : tensor<8xf32>
// XFER: dist.send %{{.+}} over ["pp"] to = 1 tag = 2 : tensor<8xf32>
// XFER-NOT: dist.send {{.*}} : tensor<8xf32>
// XFER-LABEL: func.func @dp_parts_stage1
// XFER-NOT: dist.recv {{.*}} : tensor<8xf32>
// XFER: dist.recv over ["pp"] from = -1 tag = 2 : tensor<8xf32>
// XFER-NOT: dist.recv {{.*}} : tensor<8xf32>
// XFER: return
module attributes {dist.mesh = #dist.mesh<[dp = 2, pp = 2, mb = 2]>} {
func.func @dp_parts(%x: tensor<2x8xf32> {dist.global_type = tensor<8x8xf32>, dist.shard_dims = [array<i32: 0, 2>, array<i32>]}) -> (tensor<8xf32> {dist.global_type = tensor<8xf32>, dist.shard_dims = [array<i32>]}) {
  %w = graph.weight "w" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  %h = graph.mul %x, %w {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %a = graph.reduce_sum %h, [0] {keepdims = false, dist.stage = 0 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %y = graph.exp %h {dist.stage = 1 : i64} : tensor<2x8xf32>
  %b = graph.reduce_sum %y, [0] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %t = graph.add %b, %a {dist.stage = 1 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %s = dist.all_reduce %t over ["dp", "mb"] : tensor<8xf32>
  return %s : tensor<8xf32>
}
}

// -----

// Nested sums over three stages, c + (a + b): split again until every term
// is summed on its own stage. Stage 1 sends its part to stage 0, which adds
// it to its own once and sends that to stage 2, which adds its own part
// once and returns the result.

// CHECK-LABEL: func.func @nested_stage0
// CHECK: %[[A0:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 0 : i64
// CHECK: %[[A1:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 0 : i64
// CHECK: %[[A:.+]] = graph.add %[[A0]], %[[A1]]
// CHECK-NEXT: %[[B:.+]] = dist.recv over ["pp"] from = 1 tag = {{[0-9]+}} : tensor<8xf32>
// CHECK-NEXT: %[[AB:.+]] = graph.add %[[A]], %[[B]]
// CHECK-NEXT: dist.send %[[AB]] over ["pp"] to = 2 tag = {{[0-9]+}} : tensor<8xf32>
// CHECK-NEXT: return{{$}}
// CHECK-LABEL: func.func @nested_stage1
// CHECK: %[[B0:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 1 : i64
// CHECK: %[[B1:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 1 : i64
// CHECK: %[[B:.+]] = graph.add %[[B0]], %[[B1]]
// CHECK-NEXT: dist.send %[[B]] over ["pp"] to = -1 tag = {{[0-9]+}} : tensor<8xf32>
// CHECK-NEXT: return{{$}}
// CHECK-LABEL: func.func @nested_stage2
// CHECK: %[[C0:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 2 : i64
// CHECK: %[[C1:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 2 : i64
// CHECK: %[[C:.+]] = graph.add %[[C0]], %[[C1]]
// CHECK-NEXT: %[[AB:.+]] = dist.recv over ["pp"] from = -2 tag = {{[0-9]+}} : tensor<8xf32>
// CHECK-NEXT: %[[S:.+]] = graph.add %[[C]], %[[AB]]
// CHECK-NEXT: return %[[S]] : tensor<8xf32>

// XFER-LABEL: func.func @nested_stage0
// XFER-NOT: dist.{{(send|recv)}} {{.*}} : tensor<8xf32>
// XFER: dist.recv over ["pp"] from = 1 tag = {{[0-9]+}} : tensor<8xf32>
// XFER-NOT: dist.recv {{.*}} : tensor<8xf32>
// XFER: dist.send %{{.+}} over ["pp"] to = 2 tag = {{[0-9]+}} : tensor<8xf32>
// XFER-NOT: dist.{{(send|recv)}} {{.*}} : tensor<8xf32>
// XFER-LABEL: func.func @nested_stage1
// XFER-NOT: dist.send {{.*}} : tensor<8xf32>
// XFER: dist.send %{{.+}} over ["pp"] to = -1 tag = {{[0-9]+}} : tensor<8xf32>
// XFER-NOT: dist.send {{.*}} : tensor<8xf32>
// XFER-LABEL: func.func @nested_stage2
// XFER-NOT: dist.recv {{.*}} : tensor<8xf32>
// XFER: dist.recv over ["pp"] from = -2 tag = {{[0-9]+}} : tensor<8xf32>
// XFER-NOT: dist.recv {{.*}} : tensor<8xf32>
// XFER: return
module attributes {dist.mesh = #dist.mesh<[pp = 3, mb = 2]>} {
func.func @nested(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<8xf32> {dist.global_type = tensor<8xf32>, dist.shard_dims = [array<i32>]}) {
  %w = graph.weight "w" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  %h = graph.mul %x, %w {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %a = graph.reduce_sum %h, [0] {keepdims = false, dist.stage = 0 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %y = graph.exp %h {dist.stage = 1 : i64} : tensor<2x8xf32>
  %b = graph.reduce_sum %y, [0] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %z = graph.exp %y {dist.stage = 2 : i64} : tensor<2x8xf32>
  %c = graph.reduce_sum %z, [0] {keepdims = false, dist.stage = 2 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %ab = graph.add %a, %b {dist.stage = 1 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %t = graph.add %c, %ab {dist.stage = 2 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %s = dist.all_reduce %t over ["mb"] : tensor<8xf32>
  return %s : tensor<8xf32>
}
}

// -----

// Not split: the max over the micro-batches of a + b is not the sum of the
// terms' maxes. The add stays per micro-batch on stage 1, where stage 0's
// term crosses once per micro-batch.

// CHECK-LABEL: func.func @max_stage0
// CHECK: %[[A0:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 0 : i64
// CHECK: dist.send %[[A0]] over ["pp"] to = 1 tag = {{[0-9]+}} : tensor<8xf32>
// CHECK: %[[A1:.+]] = graph.reduce_sum %{{.+}}, [0] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 0 : i64
// CHECK: dist.send %[[A1]] over ["pp"] to = 1 tag = {{[0-9]+}} : tensor<8xf32>
// CHECK-NOT: graph.add
// CHECK: return{{$}}
// CHECK-LABEL: func.func @max_stage1
// CHECK: %[[RA0:.+]] = dist.recv over ["pp"] from = -1 tag = {{[0-9]+}} : tensor<8xf32>
// CHECK: %[[B0:.+]] = graph.reduce_sum
// CHECK: %[[T0:.+]] = graph.add %[[B0]], %[[RA0]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 1 : i64}
// CHECK: %[[RA1:.+]] = dist.recv over ["pp"] from = -1 tag = {{[0-9]+}} : tensor<8xf32>
// CHECK: %[[B1:.+]] = graph.reduce_sum
// CHECK: %[[T1:.+]] = graph.add %[[B1]], %[[RA1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 1 : i64}
// CHECK: %[[M:.+]] = graph.max %[[T0]], %[[T1]]
// CHECK-NOT: graph.add
// CHECK: return %[[M]] : tensor<8xf32>
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @max(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<8xf32> {dist.global_type = tensor<8xf32>, dist.shard_dims = [array<i32>]}) {
  %w = graph.weight "w" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  %h = graph.mul %x, %w {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %a = graph.reduce_sum %h, [0] {keepdims = false, dist.stage = 0 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %y = graph.exp %h {dist.stage = 1 : i64} : tensor<2x8xf32>
  %b = graph.reduce_sum %y, [0] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %t = graph.add %b, %a {dist.stage = 1 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %m = dist.all_reduce %t over ["mb"] {kind = "max"} : tensor<8xf32>
  return %m : tensor<8xf32>
}
}

// RUN: paracc-opt %s -split-input-file --paracc-pipeline="schedule=gpipe" | FileCheck %s
// RUN: paracc-opt %s -split-input-file --paracc-pipeline="schedule=1f1b" | FileCheck %s --check-prefix=ONEF
// RUN: paracc-opt %s -split-input-file --paracc-pipeline="schedule=zb-h1" | FileCheck %s --check-prefix=ZB

// --paracc-pipeline: one function per stage of `pp`, the micro-batches of
// `mb` (the last mesh axis) cloned on each stage in the schedule's order,
// send/recv pairs with matching tags where a value crosses stages.

// An inference program: two matmuls on two stages, a residual add of the
// input on the second. The input is sliced into micro-batches on both
// stages (it is not sent), each weight is made only on the stage that
// uses it, stage 0 sends micro-batch 0's activation then micro-batch 1's,
// stage 1 receives them in that order and returns the concatenation. The
// micro-batch axis leaves the mesh.

// CHECK: module attributes {dist.mesh = #dist.mesh<[pp = 2]>, dist.microbatches = 2 : i64}
// CHECK-LABEL: func.func @main_stage0
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32>, array<i32>]})
// CHECK-NOT: ->
// CHECK-SAME: attributes {dist.pipeline_axis = "pp", dist.pipeline_function = "main", dist.pipeline_stage = 0 : i64}
// CHECK-NOT: graph.weight "w2"
// CHECK: %[[X0:.+]] = graph.slice %[[X]], starts = [0, 0], limits = [2, 8], steps = [1, 1]
// CHECK: %[[W1:.+]] = graph.weight "w1"
// CHECK: %[[H0:.+]] = graph.matmul %[[X0]], %[[W1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 0 : i64}
// CHECK: dist.send %[[H0]] over ["pp"] to = 1 : tensor<2x8xf32>
// CHECK: %[[X1:.+]] = graph.slice %[[X]], starts = [2, 0], limits = [4, 8], steps = [1, 1]
// CHECK: %[[H1:.+]] = graph.matmul %[[X1]], %[[W1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 0 : i64}
// CHECK: dist.send %[[H1]] over ["pp"] to = 1 tag = 1 : tensor<2x8xf32>
// CHECK-NOT: graph.weight "w2"
// CHECK: return{{$}}
// CHECK-LABEL: func.func @main_stage1
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32> {{.*}}) -> (tensor<4x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32>, array<i32>]})
// CHECK-SAME: attributes {dist.pipeline_axis = "pp", dist.pipeline_function = "main", dist.pipeline_stage = 1 : i64
// CHECK-NOT: graph.weight "w1"
// CHECK: %[[R0:.+]] = dist.recv over ["pp"] from = -1 : tensor<2x8xf32>
// CHECK: %[[W2:.+]] = graph.weight "w2"
// CHECK: %[[Y0:.+]] = graph.matmul %[[R0]], %[[W2]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 1 : i64}
// CHECK: %[[X0:.+]] = graph.slice %[[X]], starts = [0, 0], limits = [2, 8]
// CHECK: %[[Z0:.+]] = graph.add %[[Y0]], %[[X0]]
// CHECK: %[[R1:.+]] = dist.recv over ["pp"] from = -1 tag = 1 : tensor<2x8xf32>
// CHECK: %[[Y1:.+]] = graph.matmul %[[R1]], %[[W2]]
// CHECK: %[[X1:.+]] = graph.slice %[[X]], starts = [2, 0], limits = [4, 8]
// CHECK: %[[Z1:.+]] = graph.add %[[Y1]], %[[X1]]
// CHECK-NOT: graph.weight "w1"
// CHECK: %[[Z:.+]] = graph.concat %[[Z0]], %[[Z1]] {axis = 0 : i64, {{.*}}dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
// CHECK: return %[[Z]] : tensor<4x8xf32>
// CHECK-NOT: func.func @main(
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @main(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) {
  %w1 = graph.weight "w1" {dist.shard_dims = [array<i32>, array<i32>]} : tensor<8x8xf32>
  %w2 = graph.weight "w2" {dist.shard_dims = [array<i32>, array<i32>]} : tensor<8x8xf32>
  %h = graph.matmul %x, %w1 {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %y = graph.matmul %h, %w2 {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %z = graph.add %y, %x {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %z : tensor<2x8xf32>
}
}

// -----

// With data parallelism (mesh [dp, pp, mb]): an all-reduce over [dp, mb]
// becomes the sum of the micro-batches' values on their stage, then an
// all-reduce over dp; a max over mb the max of theirs (on stage 0, sent to
// the last stage once); a result made per micro-batch on stage 0 is
// concatenated there and sent to the last stage, which returns everything.

// CHECK: module attributes {dist.mesh = #dist.mesh<[dp = 2, pp = 2]>, dist.microbatches = 2 : i64}
// CHECK-LABEL: func.func @dp_reduce_stage0
// CHECK: %[[H0:.+]] = graph.mul
// CHECK: %[[M0:.+]] = graph.reduce_max %[[H0]]
// CHECK: dist.send %[[H0]] over ["pp"] to = 1 : tensor<2x8xf32>
// CHECK: %[[H1:.+]] = graph.mul
// CHECK: %[[M1:.+]] = graph.reduce_max %[[H1]]
// CHECK: dist.send %[[H1]] over ["pp"] to = 1 tag = 1 : tensor<2x8xf32>
// CHECK: %[[MAX:.+]] = graph.max %[[M0]], %[[M1]]
// CHECK: dist.send %[[MAX]] over ["pp"] to = 1 tag = 2 : tensor<8xf32>
// CHECK: %[[H:.+]] = graph.concat %[[H0]], %[[H1]] {axis = 0 : i64, {{.*}}dist.stage = 0 : i64}
// CHECK: dist.send %[[H]] over ["pp"] to = 1 tag = 3 : tensor<4x8xf32>
// CHECK-NOT: dist.all_reduce
// CHECK: return{{$}}
// CHECK-LABEL: func.func @dp_reduce_stage1
// CHECK-SAME: -> (tensor<f32> {{.*}}, tensor<8xf32> {{.*}}, tensor<4x8xf32> {dist.global_type = tensor<8x8xf32>, dist.shard_dims = [array<i32: 0>, array<i32>]})
// CHECK: %[[R0:.+]] = dist.recv over ["pp"] from = -1 : tensor<2x8xf32>
// CHECK: %[[Y0:.+]] = graph.exp %[[R0]]
// CHECK: %[[S0:.+]] = graph.reduce_sum %[[Y0]]
// CHECK: %[[R1:.+]] = dist.recv over ["pp"] from = -1 tag = 1 : tensor<2x8xf32>
// CHECK: %[[Y1:.+]] = graph.exp %[[R1]]
// CHECK: %[[S1:.+]] = graph.reduce_sum %[[Y1]]
// CHECK: %[[T:.+]] = graph.add %[[S0]], %[[S1]]
// CHECK: %[[SUM:.+]] = dist.all_reduce %[[T]] over ["dp"] {{.*}}: tensor<f32>
// CHECK: %[[MAX:.+]] = dist.recv over ["pp"] from = -1 tag = 2 : tensor<8xf32>
// CHECK: %[[H:.+]] = dist.recv over ["pp"] from = -1 tag = 3 : tensor<4x8xf32>
// CHECK: return %[[SUM]], %[[MAX]], %[[H]]
module attributes {dist.mesh = #dist.mesh<[dp = 2, pp = 2, mb = 2]>} {
func.func @dp_reduce(%x: tensor<2x8xf32> {dist.global_type = tensor<8x8xf32>, dist.shard_dims = [array<i32: 0, 2>, array<i32>]}) -> (tensor<f32> {dist.global_type = tensor<f32>, dist.shard_dims = []}, tensor<8xf32> {dist.global_type = tensor<8xf32>, dist.shard_dims = [array<i32>]}, tensor<2x8xf32> {dist.global_type = tensor<8x8xf32>, dist.shard_dims = [array<i32: 0, 2>, array<i32>]}) {
  %w = graph.weight "w" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  %h = graph.mul %x, %w {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %y = graph.exp %h {dist.stage = 1 : i64} : tensor<2x8xf32>
  %s = graph.reduce_sum %y, [0, 1] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<f32>
  %sum = dist.all_reduce %s over ["dp", "mb"] : tensor<f32>
  %m = graph.reduce_max %h, [0] {keepdims = false, dist.stage = 0 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %max = dist.all_reduce %m over ["mb"] {kind = "max"} : tensor<8xf32>
  return %sum, %max, %h : tensor<f32>, tensor<8xf32>, tensor<2x8xf32>
}
}

// -----

// A training step with a tied weight: "e" is read on both stages, its
// gradient has a part from each (stage 1's part from its backward, stage
// 0's from the gradient stage 1 sends back), the parts meet on stage 0
// (the first of the equally large operands), and the updated value is
// computed there once, assigned there and sent to stage 1, which assigns
// it to its own copy. The loss's micro-batches are summed on stage 1.

// CHECK-LABEL: func.func @tied_stage0
// CHECK: %[[E:.+]] = graph.weight "e"
// CHECK: %[[H0:.+]] = graph.mul %{{.+}}, %[[E]]
// CHECK: dist.send %[[H0]] over ["pp"] to = 1 : tensor<2x8xf32>
// CHECK: %[[H1:.+]] = graph.mul %{{.+}}, %[[E]]
// CHECK: dist.send %[[H1]] over ["pp"] to = 1 tag = 1 : tensor<2x8xf32>
// CHECK: %[[D0:.+]] = dist.recv over ["pp"] from = 1 tag = 2 : tensor<2x8xf32>
// CHECK: %[[G0M0:.+]] = graph.mul %[[D0]]
// CHECK: %[[G0P0:.+]] = graph.reduce_sum %[[G0M0]]
// CHECK: %[[D1:.+]] = dist.recv over ["pp"] from = 1 tag = 3 : tensor<2x8xf32>
// CHECK: %[[G0M1:.+]] = graph.mul %[[D1]]
// CHECK: %[[G0P1:.+]] = graph.reduce_sum %[[G0M1]]
// CHECK: %[[G0:.+]] = graph.add %[[G0P0]], %[[G0P1]]
// CHECK: %[[G1:.+]] = dist.recv over ["pp"] from = 1 tag = 4 : tensor<8xf32>
// CHECK: %[[G:.+]] = graph.add %[[G0]], %[[G1]]
// CHECK: %[[NE:.+]] = graph.sub %[[E]], %[[G]]
// CHECK: graph.assign "e", %[[NE]]
// CHECK: dist.send %[[NE]] over ["pp"] to = 1 tag = 5 : tensor<8xf32>
// CHECK: return{{$}}
// CHECK-LABEL: func.func @tied_stage1
// CHECK: %[[R0:.+]] = dist.recv over ["pp"] from = -1 : tensor<2x8xf32>
// CHECK: %[[E:.+]] = graph.weight "e"
// CHECK: %[[Y0:.+]] = graph.mul %[[R0]], %[[E]]
// CHECK: %[[L0:.+]] = graph.reduce_sum %[[Y0]]
// CHECK: %[[R1:.+]] = dist.recv over ["pp"] from = -1 tag = 1 : tensor<2x8xf32>
// CHECK: %[[L1:.+]] = graph.reduce_sum
// CHECK: %[[DH0:.+]] = graph.mul %[[R0]], %[[E]]
// CHECK: %[[G1P0:.+]] = graph.reduce_sum %[[R0]], [0]
// CHECK: dist.send %[[DH0]] over ["pp"] to = -1 tag = 2 : tensor<2x8xf32>
// CHECK: %[[DH1:.+]] = graph.mul %[[R1]], %[[E]]
// CHECK: %[[G1P1:.+]] = graph.reduce_sum %[[R1]], [0]
// CHECK: dist.send %[[DH1]] over ["pp"] to = -1 tag = 3 : tensor<2x8xf32>
// CHECK: %[[LOSS:.+]] = graph.add %[[L0]], %[[L1]] {{.*}}: (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: %[[G1:.+]] = graph.add %[[G1P0]], %[[G1P1]]
// CHECK: dist.send %[[G1]] over ["pp"] to = -1 tag = 4 : tensor<8xf32>
// CHECK-NOT: graph.sub
// CHECK: %[[NE:.+]] = dist.recv over ["pp"] from = -1 tag = 5 : tensor<8xf32>
// CHECK: graph.assign "e", %[[NE]]
// CHECK: return %[[LOSS]] : tensor<f32>
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @tied(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<f32> {dist.global_type = tensor<f32>, dist.shard_dims = []}) {
  %e = graph.weight "e" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  // Forward.
  %h = graph.mul %x, %e {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %y = graph.mul %h, %e {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %l = graph.reduce_sum %y, [0, 1] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<f32>
  %loss = dist.all_reduce %l over ["mb"] : tensor<f32>
  // Backward (d loss / d y = 1).
  %dh = graph.mul %h, %e {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %g1p = graph.reduce_sum %h, [0] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %g0m = graph.mul %dh, %x {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %g0p = graph.reduce_sum %g0m, [0] {keepdims = false, dist.stage = 0 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %g1 = dist.all_reduce %g1p over ["mb"] : tensor<8xf32>
  %g0 = dist.all_reduce %g0p over ["mb"] : tensor<8xf32>
  // Update.
  %g = graph.add %g0, %g1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %ne = graph.sub %e, %g : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  graph.assign "e", %ne : tensor<8xf32>
  return %loss : tensor<f32>
}
}

// -----

// The order of forwards (F) and backwards (B) of a training step, pp2 with
// 2 micro-batches. GPipe: every stage runs F0 F1 B0 B1. 1F1B: stage 0 warms
// up with one forward per later stage (F0 F1 B0 B1), the last stage
// alternates (F0 B0 F1 B1), and it receives micro-batch 1's activation
// after F0, before B0. Forward ops on stage 1: mul, exp, reduce_sum;
// backward ops: two muls by the exp (the gradient sent back, then w1's),
// reduce_sum. Each stage updates its own weight. Cloned ops carry their
// action, dist.pipeline_action (micro-batch and phase: forward, backward,
// or once, the once-per-step part).

// CHECK-LABEL: func.func @step_stage0
// CHECK: %[[W0:.+]] = graph.weight "w0"
// CHECK: %[[H0:.+]] = graph.mul %[[X0:.+]], %[[W0]]
// CHECK: dist.send %[[H0]] over ["pp"] to = 1 : tensor<2x8xf32>
// CHECK: %[[H1:.+]] = graph.mul %[[X1:.+]], %[[W0]]
// CHECK: dist.send %[[H1]] over ["pp"] to = 1 tag = 1 : tensor<2x8xf32>
// CHECK: %[[D0:.+]] = dist.recv over ["pp"] from = 1 tag = 2 : tensor<2x8xf32>
// CHECK: %[[G0:.+]] = graph.mul %[[D0]], %[[X0]]
// CHECK: %[[P0:.+]] = graph.reduce_sum %[[G0]], [0]
// CHECK: %[[D1:.+]] = dist.recv over ["pp"] from = 1 tag = 3 : tensor<2x8xf32>
// CHECK: %[[G1:.+]] = graph.mul %[[D1]], %[[X1]]
// CHECK: %[[P1:.+]] = graph.reduce_sum %[[G1]], [0]
// CHECK: %[[P:.+]] = graph.add %[[P0]], %[[P1]]
// CHECK: %[[N:.+]] = graph.sub %[[W0]], %[[P]]
// CHECK: graph.assign "w0", %[[N]]
// CHECK-NOT: graph.assign
// CHECK: return{{$}}
// Stage 1 under GPipe: F0 F1 B0 B1.
// CHECK-LABEL: func.func @step_stage1
// CHECK: %[[R0:.+]] = dist.recv over ["pp"] from = -1 : tensor<2x8xf32>
// CHECK: %[[W1:.+]] = graph.weight "w1"
// CHECK: %[[Y0:.+]] = graph.mul %[[R0]], %[[W1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 1 : i64}
// CHECK: %[[E0:.+]] = graph.exp %[[Y0]]
// CHECK: %[[L0:.+]] = graph.reduce_sum %[[E0]], [0, 1]
// CHECK: %[[R1:.+]] = dist.recv over ["pp"] from = -1 tag = 1 : tensor<2x8xf32>
// CHECK: %[[Y1:.+]] = graph.mul %[[R1]], %[[W1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 1 : i64}
// CHECK: %[[E1:.+]] = graph.exp %[[Y1]]
// CHECK: %[[L1:.+]] = graph.reduce_sum %[[E1]], [0, 1]
// CHECK: %[[DH0:.+]] = graph.mul %[[E0]], %[[W1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = backward>, dist.stage = 1 : i64}
// CHECK: graph.mul %[[E0]], %[[R0]]
// CHECK: graph.reduce_sum
// CHECK: dist.send %[[DH0]] over ["pp"] to = -1 tag = 2 : tensor<2x8xf32>
// CHECK: %[[DH1:.+]] = graph.mul %[[E1]], %[[W1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = backward>, dist.stage = 1 : i64}
// CHECK: graph.mul %[[E1]], %[[R1]]
// CHECK: graph.reduce_sum
// CHECK: dist.send %[[DH1]] over ["pp"] to = -1 tag = 3 : tensor<2x8xf32>
// CHECK: %[[LOSS:.+]] = graph.add %[[L0]], %[[L1]]
// CHECK: graph.assign "w1"
// CHECK: return %[[LOSS]] : tensor<f32>

// ONEF-LABEL: func.func @step_stage0
// ONEF: %[[H0:.+]] = graph.mul
// ONEF: dist.send %[[H0]] over ["pp"] to = 1 : tensor<2x8xf32>
// ONEF: %[[H1:.+]] = graph.mul
// ONEF: dist.send %[[H1]] over ["pp"] to = 1 tag = 1 : tensor<2x8xf32>
// ONEF: dist.recv over ["pp"] from = 1 tag = 2 : tensor<2x8xf32>
// ONEF: graph.reduce_sum
// ONEF: dist.recv over ["pp"] from = 1 tag = 3 : tensor<2x8xf32>
// ONEF: graph.reduce_sum
// ONEF: graph.assign "w0"
// Stage 1 under 1F1B: F0 B0 F1 B1.
// ONEF-LABEL: func.func @step_stage1
// ONEF: %[[R0:.+]] = dist.recv over ["pp"] from = -1 : tensor<2x8xf32>
// ONEF: %[[W1:.+]] = graph.weight "w1"
// ONEF: %[[Y0:.+]] = graph.mul %[[R0]], %[[W1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = forward>, dist.stage = 1 : i64}
// ONEF: %[[E0:.+]] = graph.exp %[[Y0]]
// ONEF: %[[L0:.+]] = graph.reduce_sum %[[E0]], [0, 1]
// ONEF: %[[R1:.+]] = dist.recv over ["pp"] from = -1 tag = 1 : tensor<2x8xf32>
// ONEF-NOT: graph.exp
// ONEF: %[[DH0:.+]] = graph.mul %[[E0]], %[[W1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = backward>, dist.stage = 1 : i64}
// ONEF: graph.mul %[[E0]], %[[R0]]
// ONEF: graph.reduce_sum {{.*}}, [0] {
// ONEF: dist.send %[[DH0]] over ["pp"] to = -1 tag = 2 : tensor<2x8xf32>
// ONEF: %[[Y1:.+]] = graph.mul %[[R1]], %[[W1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 1 : i64}
// ONEF: %[[E1:.+]] = graph.exp %[[Y1]]
// ONEF: %[[L1:.+]] = graph.reduce_sum %[[E1]], [0, 1]
// ONEF: %[[DH1:.+]] = graph.mul %[[E1]], %[[W1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = backward>, dist.stage = 1 : i64}
// ONEF: graph.mul %[[E1]], %[[R1]]
// ONEF: dist.send %[[DH1]] over ["pp"] to = -1 tag = 3 : tensor<2x8xf32>
// ONEF: %[[LOSS:.+]] = graph.add %[[L0]], %[[L1]] {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = once>, dist.stage = 1 : i64}
// ONEF: graph.assign "w1"
// ONEF: return %[[LOSS]] : tensor<f32>
// zb-h1: the backward splits into the input gradient (%dh, which stage 0
// waits for: phase 1) and the weight gradients (phase 2). Stage s defers
// each weight gradient by s backwards: the last stage of pp2 runs
// F0 B0 F1 B1 W0 W1, sending each input gradient as soon as it is made;
// the first stage's backward is all weight gradient, run as it arrives.
// ZB-LABEL: func.func @step_stage0
// ZB: dist.recv over ["pp"] from = 1 tag = 2
// ZB-NEXT: graph.mul {{.*}}dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = weight>
// ZB-NEXT: graph.reduce_sum {{.*}}dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = weight>
// ZB-NEXT: dist.recv over ["pp"] from = 1 tag = 3
// ZB-NEXT: graph.mul {{.*}}dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = weight>
// ZB-LABEL: func.func @step_stage1
// ZB: %[[DH0:.+]] = graph.mul {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = backward>, dist.stage = 1 : i64}
// ZB-NEXT: dist.send %[[DH0]] over ["pp"] to = -1 tag = 2
// ZB-NEXT: graph.mul {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = forward>, dist.stage = 1 : i64}
// ZB: %[[DH1:.+]] = graph.mul {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = backward>, dist.stage = 1 : i64}
// ZB-NEXT: dist.send %[[DH1]] over ["pp"] to = -1 tag = 3
// ZB-NEXT: graph.mul {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = weight>, dist.stage = 1 : i64}
// ZB-NEXT: graph.reduce_sum {{.*}}dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = weight>
// ZB-NEXT: graph.mul {{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = weight>, dist.stage = 1 : i64}
module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 2]>} {
func.func @step(%x: tensor<2x8xf32> {dist.global_type = tensor<4x8xf32>, dist.shard_dims = [array<i32: 1>, array<i32>]}) -> (tensor<f32> {dist.global_type = tensor<f32>, dist.shard_dims = []}) {
  %w0 = graph.weight "w0" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  %w1 = graph.weight "w1" {dist.shard_dims = [array<i32>]} : tensor<8xf32>
  // Forward: loss = sum(exp(x * w0 * w1)).
  %h = graph.mul %x, %w0 {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %y = graph.mul %h, %w1 {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %e = graph.exp %y {dist.stage = 1 : i64} : tensor<2x8xf32>
  %l = graph.reduce_sum %e, [0, 1] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<f32>
  %loss = dist.all_reduce %l over ["mb"] : tensor<f32>
  // Backward.
  %dh = graph.mul %e, %w1 {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %gw1m = graph.mul %e, %h {dist.stage = 1 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %gw1p = graph.reduce_sum %gw1m, [0] {keepdims = false, dist.stage = 1 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %gw0m = graph.mul %dh, %x {dist.stage = 0 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %gw0p = graph.reduce_sum %gw0m, [0] {keepdims = false, dist.stage = 0 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %gw1 = dist.all_reduce %gw1p over ["mb"] : tensor<8xf32>
  %gw0 = dist.all_reduce %gw0p over ["mb"] : tensor<8xf32>
  // Update.
  %nw1 = graph.sub %w1, %gw1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %nw0 = graph.sub %w0, %gw0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  graph.assign "w1", %nw1 : tensor<8xf32>
  graph.assign "w0", %nw0 : tensor<8xf32>
  return %loss : tensor<f32>
}
}

// RUN: paracc-opt %s -split-input-file | paracc-opt -split-input-file | FileCheck %s
// RUN: paracc-opt %s -split-input-file --mlir-print-op-generic | paracc-opt -split-input-file | FileCheck %s
// RUN: paracc-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round trip of the dist dialect: the mesh and sharding attributes in every
// form (replicated, multi-axis, open and partial dims, rank 0, quoted axis
// names) and every op in its custom and generic form. The custom form
// prints what it parses and elides all_reduce's default kind; the generic
// form parses back to the same ops.

// CHECK-LABEL: module attributes
// CHECK-SAME: dist.mesh = #dist.mesh<[dp = 2, tp = 4]>
// A one-axis mesh, an axis of size 1, a quoted name and the empty mesh.
// CHECK-SAME: test.mesh_1 = #dist.mesh<[tp = 8]>
// CHECK-SAME: test.mesh_2 = #dist.mesh<[x = 1, y = 3]>
// CHECK-SAME: test.mesh_3 = #dist.mesh<["data parallel" = 2, tp = 2]>
// CHECK-SAME: test.mesh_4 = #dist.mesh<[]>
// A quoted identifier prints bare.
// CHECK-SAME: test.mesh_5 = #dist.mesh<[pp = 2]>
// Replicated: every dim `{}`.
// CHECK-SAME: test.sharding_1 = #dist.sharding<{}, {}, {}>
// Split dims, one over two axes (major to minor, order kept).
// CHECK-SAME: test.sharding_2 = #dist.sharding<{dp}, {}, {tp}>
// CHECK-SAME: test.sharding_3 = #dist.sharding<{tp, dp}, {}>
// Open dims next to closed ones; `{"?"}` is the same open dim.
// CHECK-SAME: test.sharding_4 = #dist.sharding<{?}, {tp}, {?}>
// CHECK-SAME: test.sharding_5 = #dist.sharding<{?}, {}>
// Partial sums, with and without split dims.
// CHECK-SAME: test.sharding_6 = #dist.sharding<{dp}, {}, partial = [tp]>
// CHECK-SAME: test.sharding_7 = #dist.sharding<{}, partial = [dp, tp]>
// Rank 0: nothing, or only partial axes.
// CHECK-SAME: test.sharding_8 = #dist.sharding<>
// CHECK-SAME: test.sharding_9 = #dist.sharding<partial = [tp]>
// An empty partial list is no partial list.
// CHECK-SAME: test.sharding_a = #dist.sharding<{tp}>
// Quoted axis names print quoted when they must.
// CHECK-SAME: test.sharding_b = #dist.sharding<{"data parallel"}, partial = ["a-b"]>
module attributes {
  dist.mesh = #dist.mesh<[dp = 2, tp = 4]>,
  test.mesh_1 = #dist.mesh<[tp = 8]>,
  test.mesh_2 = #dist.mesh<[x = 1, y = 3]>,
  test.mesh_3 = #dist.mesh<["data parallel" = 2, tp = 2]>,
  test.mesh_4 = #dist.mesh<[]>,
  test.mesh_5 = #dist.mesh<["pp" = 2]>,
  test.sharding_1 = #dist.sharding<{}, {}, {}>,
  test.sharding_2 = #dist.sharding<{dp}, {}, {tp}>,
  test.sharding_3 = #dist.sharding<{tp, dp}, {}>,
  test.sharding_4 = #dist.sharding<{?}, {tp}, {?}>,
  test.sharding_5 = #dist.sharding<{"?"}, {}>,
  test.sharding_6 = #dist.sharding<{dp}, {}, partial = [tp]>,
  test.sharding_7 = #dist.sharding<{}, partial = [dp, tp]>,
  test.sharding_8 = #dist.sharding<>,
  test.sharding_9 = #dist.sharding<partial = [tp]>,
  test.sharding_a = #dist.sharding<{tp}, partial = []>,
  test.sharding_b = #dist.sharding<{"data parallel"}, partial = ["a-b"]>
} {

// Shardings where the passes put them: on arguments (`dist.sharding`) and
// on op results (`dist.shardings`, one entry per result).
// CHECK-LABEL: func.func @annotations
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x16xf32> {dist.sharding = #dist.sharding<{dp}, {?}>})
func.func @annotations(%x: tensor<4x16xf32> {dist.sharding = #dist.sharding<{dp}, {?}>}) -> tensor<4x16xf32> {
  // CHECK: %[[W:.*]] = graph.weight "w" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<16x16xf32>
  %w = graph.weight "w" {dist.shardings = [#dist.sharding<{}, {tp}>]} : tensor<16x16xf32>
  // CHECK: graph.matmul %[[X]], %[[W]] {dist.shardings = [#dist.sharding<{dp}, {tp}>]}
  %0 = graph.matmul %x, %w {dist.shardings = [#dist.sharding<{dp}, {tp}>]} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @collectives
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x64x256xf32>, %[[I:[^:]+]]: tensor<8xi64>, %[[B:[^:]+]]: tensor<4xbf16>)
// GENERIC-LABEL: sym_name = "collectives"
func.func @collectives(%x: tensor<2x64x256xf32>, %i: tensor<8xi64>, %b: tensor<4xbf16>)
    -> (tensor<2x64x256xf32>, tensor<2x256x256xf32>, tensor<2x64x256xf32>,
        tensor<8xi64>, tensor<4xbf16>) {
  // The default kind (sum) is elided, written or not.
  // CHECK: %[[AR0:.*]] = dist.all_reduce %[[X]] over ["tp"] : tensor<2x64x256xf32>
  // GENERIC: %{{.*}} = "dist.all_reduce"(%{{.*}}) <{axes = ["tp"], kind = "sum"}> : (tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  %0 = dist.all_reduce %x over ["tp"] : tensor<2x64x256xf32>
  // CHECK: %[[AR1:.*]] = dist.all_reduce %[[AR0]] over ["tp"] : tensor<2x64x256xf32>
  %1 = dist.all_reduce %0 over ["tp"] {kind = "sum"} : tensor<2x64x256xf32>
  // CHECK: %[[AR2:.*]] = dist.all_reduce %[[AR1]] over ["dp", "tp"] {kind = "max"} : tensor<2x64x256xf32>
  // GENERIC: "dist.all_reduce"(%{{.*}}) <{axes = ["dp", "tp"], kind = "max"}> : (tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  %2 = dist.all_reduce %1 over ["dp", "tp"] {kind = "max"} : tensor<2x64x256xf32>
  // An empty group (every rank alone) and integer tensors are fine.
  // CHECK: %[[AR3:.*]] = dist.all_reduce %[[I]] over [] : tensor<8xi64>
  %3 = dist.all_reduce %i over [] : tensor<8xi64>
  // CHECK: %[[AR4:.*]] = dist.all_reduce %[[B]] over ["dp"] : tensor<4xbf16>
  %4 = dist.all_reduce %b over ["dp"] : tensor<4xbf16>

  // all_gather multiplies `dim` by the group size (8 for dp x tp).
  // CHECK: %[[AG0:.*]] = dist.all_gather %[[X]] over ["tp"] dim = 1 : tensor<2x64x256xf32> -> tensor<2x256x256xf32>
  // GENERIC: "dist.all_gather"(%{{.*}}) <{axes = ["tp"], dim = 1 : i64}> : (tensor<2x64x256xf32>) -> tensor<2x256x256xf32>
  %5 = dist.all_gather %x over ["tp"] dim = 1 : tensor<2x64x256xf32> -> tensor<2x256x256xf32>
  // CHECK: %[[AG1:.*]] = dist.all_gather %[[X]] over ["dp", "tp"] dim = 0 : tensor<2x64x256xf32> -> tensor<16x64x256xf32>
  %6 = dist.all_gather %x over ["dp", "tp"] dim = 0 : tensor<2x64x256xf32> -> tensor<16x64x256xf32>

  // reduce_scatter divides it.
  // CHECK: %[[RS0:.*]] = dist.reduce_scatter %[[X]] over ["tp"] dim = 1 : tensor<2x64x256xf32> -> tensor<2x16x256xf32>
  // GENERIC: "dist.reduce_scatter"(%{{.*}}) <{axes = ["tp"], dim = 1 : i64}> : (tensor<2x64x256xf32>) -> tensor<2x16x256xf32>
  %7 = dist.reduce_scatter %x over ["tp"] dim = 1 : tensor<2x64x256xf32> -> tensor<2x16x256xf32>
  // CHECK: %[[RS1:.*]] = dist.reduce_scatter %[[X]] over ["dp", "tp"] dim = 2 : tensor<2x64x256xf32> -> tensor<2x64x32xf32>
  %8 = dist.reduce_scatter %x over ["dp", "tp"] dim = 2 : tensor<2x64x256xf32> -> tensor<2x64x32xf32>

  // all_to_all divides split_dim and multiplies concat_dim; the two may be
  // the same dim (a permutation of blocks).
  // CHECK: %[[A2A0:.*]] = dist.all_to_all %[[X]] over ["tp"] split_dim = 2 concat_dim = 1 : tensor<2x64x256xf32> -> tensor<2x256x64xf32>
  // GENERIC: "dist.all_to_all"(%{{.*}}) <{axes = ["tp"], concat_dim = 1 : i64, split_dim = 2 : i64}> : (tensor<2x64x256xf32>) -> tensor<2x256x64xf32>
  %9 = dist.all_to_all %x over ["tp"] split_dim = 2 concat_dim = 1 : tensor<2x64x256xf32> -> tensor<2x256x64xf32>
  // CHECK: %[[A2A1:.*]] = dist.all_to_all %[[X]] over ["dp"] split_dim = 1 concat_dim = 1 : tensor<2x64x256xf32> -> tensor<2x64x256xf32>
  %10 = dist.all_to_all %x over ["dp"] split_dim = 1 concat_dim = 1 : tensor<2x64x256xf32> -> tensor<2x64x256xf32>

  // CHECK: return %[[AR2]], %[[AG0]], %[[A2A1]], %[[AR3]], %[[AR4]]
  return %2, %5, %10, %3, %4 : tensor<2x64x256xf32>, tensor<2x256x256xf32>,
      tensor<2x64x256xf32>, tensor<8xi64>, tensor<4xbf16>
}

// CHECK-LABEL: func.func @ring_shift
// GENERIC-LABEL: sym_name = "ring_shift"
func.func @ring_shift(%x: tensor<2x64xf32>) -> (tensor<2x64xf32>, tensor<2x64xf32>) {
  // Around the ring: shifts wrap, so -1 and 7 reach the same member of 8.
  // CHECK: dist.ring_shift %{{.*}} over ["tp"] by = 1 : tensor<2x64xf32>
  // GENERIC: "dist.ring_shift"(%{{.*}}) <{axes = ["tp"], shift = 1 : i64}> : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %0 = dist.ring_shift %x over ["tp"] by = 1 : tensor<2x64xf32>
  // CHECK: dist.ring_shift %{{.*}} over ["dp", "tp"] by = -1 : tensor<2x64xf32>
  %1 = dist.ring_shift %0 over ["dp", "tp"] by = -1 : tensor<2x64xf32>
  return %0, %1 : tensor<2x64xf32>, tensor<2x64xf32>
}

// CHECK-LABEL: func.func @broadcast_send_recv
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x64xf32>, %[[I:[^:]+]]: tensor<8xi64>)
// GENERIC-LABEL: sym_name = "broadcast_send_recv"
func.func @broadcast_send_recv(%x: tensor<2x64xf32>, %i: tensor<8xi64>)
    -> (tensor<2x64xf32>, tensor<2x64xf32>, tensor<8xi64>, tensor<2x64xf32>,
        tensor<2x64xf32>, tensor<8xi64>) {
  // broadcast keeps the type; root is an index within the group (8 for
  // dp x tp, so 7 is the last member).
  // CHECK: %[[BC0:.*]] = dist.broadcast %[[X]] over ["tp"] root = 0 : tensor<2x64xf32>
  // GENERIC: "dist.broadcast"(%{{.*}}) <{axes = ["tp"], root = 0 : i64}> : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %0 = dist.broadcast %x over ["tp"] root = 0 : tensor<2x64xf32>
  // CHECK: %[[BC1:.*]] = dist.broadcast %[[X]] over ["dp", "tp"] root = 7 : tensor<2x64xf32>
  %1 = dist.broadcast %x over ["dp", "tp"] root = 7 : tensor<2x64xf32>
  // CHECK: %[[BC2:.*]] = dist.broadcast %[[I]] over ["dp"] root = 1 : tensor<8xi64>
  %2 = dist.broadcast %i over ["dp"] root = 1 : tensor<8xi64>

  // send has no result. The default tag (0) is elided, written or not;
  // offsets may be negative and reach |offset| = group size - 1.
  // CHECK: dist.send %[[X]] over ["tp"] to = 1 : tensor<2x64xf32>
  // GENERIC: "dist.send"(%{{.*}}) <{axes = ["tp"], tag = 0 : i64, to = 1 : i64}> : (tensor<2x64xf32>) -> ()
  dist.send %x over ["tp"] to = 1 : tensor<2x64xf32>
  // CHECK: dist.send %[[X]] over ["tp"] to = -3 : tensor<2x64xf32>
  dist.send %x over ["tp"] to = -3 tag = 0 : tensor<2x64xf32>
  // CHECK: dist.send %[[I]] over ["dp", "tp"] to = 7 tag = 5 : tensor<8xi64>
  // GENERIC: "dist.send"(%{{.*}}) <{axes = ["dp", "tp"], tag = 5 : i64, to = 7 : i64}> : (tensor<8xi64>) -> ()
  dist.send %i over ["dp", "tp"] to = 7 tag = 5 : tensor<8xi64>

  // recv has no operand: its type is the matching send's operand type.
  // CHECK: %[[RV0:.*]] = dist.recv over ["tp"] from = -1 : tensor<2x64xf32>
  // GENERIC: "dist.recv"() <{axes = ["tp"], from = -1 : i64, tag = 0 : i64}> : () -> tensor<2x64xf32>
  %3 = dist.recv over ["tp"] from = -1 : tensor<2x64xf32>
  // CHECK: %[[RV1:.*]] = dist.recv over ["tp"] from = 3 : tensor<2x64xf32>
  %4 = dist.recv over ["tp"] from = 3 tag = 0 : tensor<2x64xf32>
  // CHECK: %[[RV2:.*]] = dist.recv over ["dp", "tp"] from = -7 tag = 5 : tensor<8xi64>
  // GENERIC: "dist.recv"() <{axes = ["dp", "tp"], from = -7 : i64, tag = 5 : i64}> : () -> tensor<8xi64>
  %5 = dist.recv over ["dp", "tp"] from = -7 tag = 5 : tensor<8xi64>

  // CHECK: return %[[BC0]], %[[BC1]], %[[BC2]], %[[RV0]], %[[RV1]], %[[RV2]]
  return %0, %1, %2, %3, %4, %5 : tensor<2x64xf32>, tensor<2x64xf32>,
      tensor<8xi64>, tensor<2x64xf32>, tensor<2x64xf32>, tensor<8xi64>
}

// CHECK-LABEL: func.func @local_shard_and_axis_index
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x64x256xf32>, %[[S:[^:]+]]: tensor<f32>)
// GENERIC-LABEL: sym_name = "local_shard_and_axis_index"
func.func @local_shard_and_axis_index(%x: tensor<2x64x256xf32>, %s: tensor<f32>)
    -> (tensor<1x64x64xf32>, tensor<2x8x256xf32>, tensor<2x64x256xf32>,
        tensor<f32>, tensor<i64>, tensor<i64>, tensor<i64>) {
  // The sharding is written without its `#dist.sharding` prefix.
  // CHECK: %[[L0:.*]] = dist.local_shard %[[X]] to <{dp}, {}, {tp}> : tensor<2x64x256xf32> -> tensor<1x64x64xf32>
  // GENERIC: "dist.local_shard"(%{{.*}}) <{sharding = #dist.sharding<{dp}, {}, {tp}>}> : (tensor<2x64x256xf32>) -> tensor<1x64x64xf32>
  %0 = dist.local_shard %x to <{dp}, {}, {tp}> : tensor<2x64x256xf32> -> tensor<1x64x64xf32>
  // One dim over both axes.
  // CHECK: %[[L1:.*]] = dist.local_shard %[[X]] to <{}, {dp, tp}, {}> : tensor<2x64x256xf32> -> tensor<2x8x256xf32>
  %1 = dist.local_shard %x to <{}, {dp, tp}, {}> : tensor<2x64x256xf32> -> tensor<2x8x256xf32>
  // Replicated and rank 0: the identity.
  // CHECK: %[[L2:.*]] = dist.local_shard %[[X]] to <{}, {}, {}> : tensor<2x64x256xf32> -> tensor<2x64x256xf32>
  %2 = dist.local_shard %x to <{}, {}, {}> : tensor<2x64x256xf32> -> tensor<2x64x256xf32>
  // CHECK: %[[L3:.*]] = dist.local_shard %[[S]] to <> : tensor<f32> -> tensor<f32>
  %3 = dist.local_shard %s to <> : tensor<f32> -> tensor<f32>
  // CHECK: %[[I0:.*]] = dist.axis_index over ["tp"] : tensor<i64>
  // GENERIC: "dist.axis_index"() <{axes = ["tp"]}> : () -> tensor<i64>
  %4 = dist.axis_index over ["tp"] : tensor<i64>
  // CHECK: %[[I1:.*]] = dist.axis_index over ["dp", "tp"] : tensor<i64>
  %5 = dist.axis_index over ["dp", "tp"] : tensor<i64>
  // CHECK: %[[I2:.*]] = dist.axis_index over [] : tensor<i64>
  %6 = dist.axis_index over [] : tensor<i64>
  // CHECK: return %[[L0]], %[[L1]], %[[L2]], %[[L3]], %[[I0]], %[[I1]], %[[I2]]
  return %0, %1, %2, %3, %4, %5, %6 : tensor<1x64x64xf32>, tensor<2x8x256xf32>,
      tensor<2x64x256xf32>, tensor<f32>, tensor<i64>, tensor<i64>, tensor<i64>
}

// The generic form prints the module's attributes after its body.
// GENERIC: }) {dist.mesh = #dist.mesh<[dp = 2, tp = 4]>
// GENERIC-SAME: test.mesh_3 = #dist.mesh<["data parallel" = 2, tp = 2]>
// GENERIC-SAME: test.sharding_4 = #dist.sharding<{?}, {tp}, {?}>
// GENERIC-SAME: test.sharding_9 = #dist.sharding<partial = [tp]>
}

// -----

// The mesh may sit on any enclosing op; axis names may be quoted.
// CHECK-LABEL: func.func @mesh_on_function
// CHECK-SAME: attributes {dist.mesh = #dist.mesh<["data parallel" = 2]>}
func.func @mesh_on_function(%x: tensor<4xf32>) -> tensor<8xf32>
    attributes {dist.mesh = #dist.mesh<["data parallel" = 2]>} {
  // CHECK: %[[R:.*]] = dist.all_gather %{{.*}} over ["data parallel"] dim = 0 : tensor<4xf32> -> tensor<8xf32>
  %0 = dist.all_gather %x over ["data parallel"] dim = 0 : tensor<4xf32> -> tensor<8xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<8xf32>
}

// -----

// The pipeline and recompute plans and the pipeline actions: declared
// attributes whose floats read back exactly.
// CHECK: module attributes {dist.pipeline_plan = #dist.pipeline_plan<stages = [<first_layer = 0, last_layer = 1, prologue = true, epilogue = false, params = 256, param_bytes = 1024, flops = 1664, predicted_ms = 0.047037333333333341, memory_bytes = 1024, sent_bytes = 128>, <first_layer = -1, last_layer = -1, prologue = false, epilogue = true, params = 8, param_bytes = 32, flops = 64, predicted_ms = 1.000000e-03, memory_bytes = 32, sent_bytes = 0>], uniform_stages = [], layers = 2, microbatches = 4, schedule = "zb-h1", virtual_stages = 1, training = true, rates = "h200", bubble_formula = 2.000000e-01, bubble_predicted = 2.100000e-01, uniform_bubble_predicted = 2.500000e-01>, dist.recompute_plan = #dist.recompute_plan<policy = "selective", saved_bytes = 768, kept_bytes = 640, budget_bytes = -1, activation_peak_bytes = 900, recomputed_ops = 3, recomputed_flops = 1.500000e+03, step_flops = 7.360000e+03, recomputed_ms = 3.147200e-02, rates = "cpu">}
module attributes {dist.pipeline_plan = #dist.pipeline_plan<stages = [<first_layer = 0, last_layer = 1, prologue = true, epilogue = false, params = 256, param_bytes = 1024, flops = 1664, predicted_ms = 0.047037333333333341, memory_bytes = 1024, sent_bytes = 128>, <first_layer = -1, last_layer = -1, prologue = false, epilogue = true, params = 8, param_bytes = 32, flops = 64, predicted_ms = 0.001, memory_bytes = 32, sent_bytes = 0>], uniform_stages = [], layers = 2, microbatches = 4, schedule = "zb-h1", virtual_stages = 1, training = true, rates = "h200", bubble_formula = 0.2, bubble_predicted = 0.21, uniform_bubble_predicted = 0.25>,
                   dist.recompute_plan = #dist.recompute_plan<policy = "selective", saved_bytes = 768, kept_bytes = 640, budget_bytes = -1, activation_peak_bytes = 900, recomputed_ops = 3, recomputed_flops = 1500.0, step_flops = 7360.0, recomputed_ms = 0.031472, rates = "cpu">} {
// CHECK-LABEL: func.func @actions
// CHECK: graph.exp %{{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = backward>}
// CHECK: graph.exp %{{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 3, phase = weight, chunk = 1>}
// CHECK: graph.exp %{{.*}} {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = once>}
func.func @actions(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.exp %x {dist.pipeline_action = #dist.pipeline_action<microbatch = 1, phase = backward, chunk = 0>} : tensor<4xf32>
  %1 = graph.exp %0 {dist.pipeline_action = #dist.pipeline_action<microbatch = 3, phase = weight, chunk = 1>} : tensor<4xf32>
  %2 = graph.exp %1 {dist.pipeline_action = #dist.pipeline_action<microbatch = 0, phase = once>} : tensor<4xf32>
  return %2 : tensor<4xf32>
}
}

//===- DistDialect.td - Dist dialect definition ------------*- tablegen -*-===//
//
// The dist dialect: device meshes, tensor shardings and the collectives of
// SPMD programs.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_DIST_IR_DISTDIALECT_TD
#define PARACC_DIALECT_DIST_IR_DISTDIALECT_TD

include "mlir/IR/OpBase.td"

def Dist_Dialect : Dialect {
  let name = "dist";
  let cppNamespace = "::mlir::paracc::dist";
  let summary = "Meshes, shardings and collectives for distributed programs";
  let description = [{
    A module that is to run on several devices carries a mesh
    (`dist.mesh = #dist.mesh<[dp = 2, tp = 4]>`): named axes whose sizes
    multiply to the number of ranks. Ranks are numbered row-major over the
    axes, so the last axis varies fastest and `tp` groups of `dp2,tp4` are
    ranks {0,1,2,3} and {4,5,6,7}.

    Before partitioning, values carry `#dist.sharding` attributes on global
    tensors: for each dimension the mesh axes it is split over, plus the axes
    over which the value is a pending partial sum. The partitioner turns the
    program into one SPMD program on local shards with explicit collectives
    (`dist.all_reduce`, `dist.all_gather`, `dist.reduce_scatter`,
    `dist.all_to_all`) whose groups are given by mesh axes. Hand-written
    SPMD programs may also use `dist.broadcast` and the point-to-point
    `dist.send` / `dist.recv` between pipeline stages.
  }];
  let useDefaultAttributePrinterParser = 1;
  // Attributes that pipeline passes read. `--paracc-pipeline-stages` gives
  // every forward op the pipeline stage it runs on (`stage`, an i64) and the
  // module its plan (`pipeline_plan`: per stage its layers, parameters,
  // FLOPs, predicted time and memory, the same for the equal-layer cut, and
  // the predicted bubble) for --explain. `--paracc-pipeline` builds one
  // function per stage from the partitioned program and marks each with its
  // stage (`pipeline_stage`), the mesh axis that selects it
  // (`pipeline_axis`) and the program function it is a part of
  // (`pipeline_function`); each op of a micro-batch's forward or backward
  // gets its `pipeline_action` (micro-batch, phase and, interleaved, the
  // rank's model chunk), which the executable keeps for timelines.
  // `--paracc-recompute` marks the ops it emits again for the backward
  // `recomputed` (so that CSE does not merge them with the forward's) and the
  // module with what it chose
  // (`recompute_plan`: policy, saved and kept activation bytes per rank,
  // the rerun ops, FLOPs and predicted time) for --explain.
  // `--paracc-shard-optimizer-state` (ZeRO stage 1) marks each optimizer
  // update whose state it sharded `sharded_update`: partitioning computes
  // such an update where its results' shardings say (its state's shard),
  // slicing its parameter operand, instead of where the parameter is.
  // `--paracc-shard-parameters` (ZeRO stage 3) marks each weight whose
  // buffer it made this rank's shard with the axis it is sharded over
  // (`sharded_parameter`), and each all-gather it issues for the weight's
  // reads with their phase (`parameter_gather`: "forward" or "backward")
  // and the layer whose reads it serves (`gather_unit`: 0 the prologue,
  // 1.. the layers, then the epilogue), and the module with the gathers'
  // schedule (`zero_plan`) for --explain.
  //
  // The other declared attributes: a module's mesh (`mesh`) and, after
  // pipelining or interleaving, its micro-batch count (`microbatches`).
  // Before partitioning, an op's result shardings (`shardings`, one
  // ShardingAttr or unit per result), a function argument's (`sharding`),
  // a front end's request (`user_sharding`), a linear's bias-on-first-member
  // axes (`addends_on_first`), and what tensor parallelism decided for an op
  // (`tp_role`, `tp_reason`) or sequence parallelism left out (`sp_skipped`).
  // Context parallelism names on the module the axis whose sequences are in
  // zig-zag order (`zigzag_axis`), which partitioning follows, and the axis
  // whose attentions run as ring attention (`ring_axis`). Expert
  // parallelism names the axis its experts are split over (`expert_axis`)
  // and, when asked, the load it assumes of the busiest member over an even
  // share (`expert_load_imbalance`, a float >= 1), which partitioning gives
  // each `dist.expert_parallel_moe`.
  // `--paracc-microbatch-axis` marks the copies of an op it made per
  // micro-batch (`microbatch`). After partitioning every function argument
  // and result and every weight or state op gives the global tensor it is a
  // shard of: `global_type` and `shard_dims` (per dimension the mesh-axis
  // indices it is split over, major to minor); the executable writer reads
  // them. The dialect verifies each attribute's kind wherever it appears.
  let discardableAttrs = (ins "::mlir::IntegerAttr":$stage,
      "::mlir::paracc::dist::PipelinePlanAttr":$pipeline_plan,
      "::mlir::IntegerAttr":$pipeline_stage,
      "::mlir::StringAttr":$pipeline_axis,
      "::mlir::StringAttr":$pipeline_function,
      "::mlir::paracc::dist::PipelineActionAttr":$pipeline_action,
      "::mlir::UnitAttr":$recomputed,
      "::mlir::paracc::dist::RecomputePlanAttr":$recompute_plan,
      "::mlir::UnitAttr":$sharded_update,
      "::mlir::StringAttr":$sharded_parameter,
      "::mlir::paracc::dist::ZeroPlanAttr":$zero_plan,
      "::mlir::StringAttr":$parameter_gather,
      "::mlir::IntegerAttr":$gather_unit,
      "::mlir::paracc::dist::MeshAttr":$mesh,
      "::mlir::IntegerAttr":$microbatches, "::mlir::ArrayAttr":$shardings,
      "::mlir::paracc::dist::ShardingAttr":$sharding,
      "::mlir::paracc::dist::ShardingAttr":$user_sharding,
      "::mlir::ArrayAttr":$addends_on_first,
      "::mlir::paracc::dist::TensorParallelRoleAttr":$tp_role,
      "::mlir::StringAttr":$tp_reason, "::mlir::StringAttr":$sp_skipped,
      "::mlir::StringAttr":$zigzag_axis, "::mlir::StringAttr":$ring_axis,
      "::mlir::StringAttr":$expert_axis,
      "::mlir::FloatAttr":$expert_load_imbalance,
      "::mlir::IntegerAttr":$microbatch, "::mlir::TypeAttr":$global_type,
      "::mlir::ArrayAttr":$shard_dims);
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
}

class Dist_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dist_Dialect, mnemonic, traits>;

#endif // PARACC_DIALECT_DIST_IR_DISTDIALECT_TD

//===- ShardParameters.cpp - ZeRO stages 1-3 after partitioning -*- C++ -*-===//
//
// Implements `--paracc-shard-parameters` (Passes.td). It runs on the
// partitioned step of `--paracc-shard-optimizer-state`, whose sharded
// updates read `dist.local_shard(weight)` and all-gather their parameter
// back into its whole buffer, and places the rest of a ZeRO stage:
//
//  * stage 1: a gradient's micro-batch parts are summed before its
//    reduce-scatter (one reduce-scatter per step; the sum is whole);
//  * stage 2: the reduce-scatter runs per micro-batch and the shards are
//    summed (what partitioning wrote; nothing to do);
//  * stage 3: the parameter buffer itself becomes the shard. Each use is
//    given a gathered copy: one all-gather for the forward's uses, issued
//    before the layer `prefetch` layers ahead of the parameter's runs, and
//    one for the backward's, the same number of layers ahead in the
//    backward's order. The update reads and writes the shard.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Dist/Transforms/MicrobatchAxis.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Planner/Explain.h"
#include "paracc/Planner/StagePartition.h"

#include <map>

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_SHARDPARAMETERSPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

namespace g = graph;
namespace {

/// A parameter whose update ZeRO shards, as partitioning left it.
struct ShardedParameter {
  g::WeightOp weight;
  /// The update's parameter operand: this rank's slice of the weight.
  LocalShardOp slice;
  Operation *update = nullptr;
  /// The updated shard gathered back, and the write of the gathered value.
  AllGatherOp regather;
  g::AssignOp assign;
  /// The moments' shard dims (the shard the buffer keeps).
  ArrayAttr shardDims;
};

/// The sharded parameter `update` updates, when partitioning wrote it as
/// stage 1 does.
std::optional<ShardedParameter> matchShardedUpdate(Operation *update) {
  ShardedParameter p;
  p.update = update;
  p.slice = update->getOperand(0).getDefiningOp<LocalShardOp>();
  if (!p.slice)
    return std::nullopt;
  p.weight = p.slice.getX().getDefiningOp<g::WeightOp>();
  if (!p.weight)
    return std::nullopt;
  Value updated = update->getResult(0);
  if (!updated.hasOneUse())
    return std::nullopt;
  p.regather = dyn_cast<AllGatherOp>(*updated.user_begin());
  if (!p.regather || !p.regather.getResult().hasOneUse())
    return std::nullopt;
  p.assign = dyn_cast<g::AssignOp>(*p.regather.getResult().user_begin());
  auto state = update->getOperand(2).getDefiningOp<g::StateOp>();
  if (!p.assign || !state)
    return std::nullopt;
  p.shardDims = state->getAttrOfType<ArrayAttr>(kShardDimsAttrName);
  if (!p.shardDims)
    return std::nullopt;
  return p;
}

/// Per unit (layer) of one phase: the unit at whose first read its gather
/// is issued, and the gathered bytes.
using GatherGroups = std::map<int64_t, std::pair<int64_t, int64_t>>;

struct ShardParametersPass
    : public dist::impl::ShardParametersPassBase<ShardParametersPass> {
  using ShardParametersPassBase::ShardParametersPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (stage < 1 || stage > 3) {
      module.emitError("--paracc-shard-parameters: stage must be 1, 2 or 3, "
                       "got ")
          << int64_t(stage);
      return signalPassFailure();
    }
    if (prefetch < 0) {
      module.emitError("--paracc-shard-parameters: prefetch must be >= 0, "
                       "got ")
          << int64_t(prefetch);
      return signalPassFailure();
    }
    MeshAttr mesh = getMesh(module);
    if (!mesh || !mesh.getAxisIndex(axis) || mesh.getAxisSize(axis) < 2)
      return;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (stage == 1)
        sumMicrobatchesFirst(func);
      if (stage == 3 && failed(shardParameters(func)))
        return signalPassFailure();
      if (stage < 3)
        recordPlan(func, 0, 0, {}, {});
    }
  }

  void sumMicrobatchesFirst(func::FuncOp func);
  LogicalResult shardParameters(func::FuncOp func);
  /// The module's `dist.zero_plan`: the gathers per phase and unit and the
  /// most gathered bytes live at once.
  void recordPlan(func::FuncOp func, int64_t layers, int64_t sharded,
                  ArrayRef<Operation *> gathers, ArrayRef<GatherGroups> groups);
};

void ShardParametersPass::sumMicrobatchesFirst(func::FuncOp func) {
  SmallVector<AllReduceOp> sums;
  func.walk([&](AllReduceOp sum) {
    auto scatter = sum.getX().getDefiningOp<ReduceScatterOp>();
    if (sum.getKind() == "sum" && hasMeshAxis(sum.getAxes(), microbatchAxis) &&
        scatter && scatter->hasOneUse() &&
        llvm::all_of(scatter.getAxes().getAsRange<StringAttr>(),
                     [&](StringAttr a) { return a.getValue() == axis; }))
      sums.push_back(sum);
  });
  for (AllReduceOp sum : sums) {
    auto scatter = sum.getX().getDefiningOp<ReduceScatterOp>();
    OpBuilder b(sum);
    Value whole = scatter.getX();
    auto summed = AllReduceOp::create(b, sum.getLoc(), whole.getType(), whole,
                                      sum.getAxes(), sum.getKindAttr());
    auto shard = ReduceScatterOp::create(b, scatter.getLoc(), sum.getType(),
                                         summed.getResult(), scatter.getAxes(),
                                         scatter.getDimAttr());
    sum.getResult().replaceAllUsesWith(shard.getResult());
    sum.erase();
    scatter.erase();
  }
}

LogicalResult ShardParametersPass::shardParameters(func::FuncOp func) {
  MLIRContext *ctx = &getContext();
  auto *dialect = ctx->getLoadedDialect<DistDialect>();
  SmallVector<ShardedParameter> params;
  func.walk([&](Operation *op) {
    if (isa<g::AdamWOp, g::SgdOp>(op) &&
        dialect->getShardedUpdateAttrHelper().isAttrPresent(op))
      if (std::optional<ShardedParameter> p = matchShardedUpdate(op))
        params.push_back(*p);
  });
  if (params.empty()) {
    recordPlan(func, 0, 0, {}, {});
    return success();
  }

  llvm::DenseSet<Operation *> forward = stepForward(func);
  FailureOr<LayerStructure> layers =
      findLayers(func, [&](Operation *op) { return forward.contains(op); });
  if (failed(layers))
    return func.emitError("ZeRO stage 3 gathers each layer's parameters "
                          "before the layer runs and needs the model's "
                          "layers; none were found");
  Block &body = func.getBody().front();
  // Gathers may be issued before a weight's op (a fused projection's
  // blocks are read where they are used): the weights move to the top.
  for (ShardedParameter &p : llvm::reverse(params))
    p.weight->moveBefore(&body.front());
  DenseMap<Operation *, int64_t> position;
  SmallVector<Operation *> order;
  for (Operation &op : body) {
    position[&op] = int64_t(order.size());
    order.push_back(&op);
  }

  // Each parameter's reads, through views (a parameter read through a bf16
  // cast or a tied head's transpose is gathered before them, and each phase
  // gets its own copy of them), split by phase; per phase the
  // unit (layer) whose reads come first: the forward's earliest unit, the
  // backward's latest (a tied embedding is read by the backward of the
  // head, at its start).
  struct Reads {
    SmallVector<Operation *> views;
    SmallVector<OpOperand *> uses[2];
    int64_t first[2] = {INT64_MAX, INT64_MAX};
    int64_t unit[2] = {INT64_MAX, -1};
  };
  std::vector<Reads> reads(params.size());
  for (auto [i, p] : llvm::enumerate(params)) {
    Reads &r = reads[i];
    SmallVector<Value> work{p.weight.getResult()};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        if (user == p.slice)
          continue;
        if (g::isReshapeTransposeOrCast(user)) {
          r.views.push_back(user);
          work.push_back(user->getResult(0));
          continue;
        }
        int phase = forward.contains(user) ? 0 : 1;
        r.uses[phase].push_back(&use);
        r.first[phase] = std::min(r.first[phase], position.lookup(user));
        if (phase == 0)
          if (auto it = layers->unitOf.find(user); it != layers->unitOf.end()) {
            r.unit[0] = std::min(r.unit[0], it->second);
            r.unit[1] = std::max(r.unit[1], it->second);
          }
      }
    }
    llvm::sort(r.views, [&](Operation *a, Operation *b) {
      return position.lookup(a) < position.lookup(b);
    });
    // (Read by no op of a layer: with the epilogue.)
    if (r.unit[0] == INT64_MAX)
      r.unit[0] = r.unit[1] = layers->layers + 1;
  }

  // The first read of each unit's parameters, per phase; a gather is issued
  // before the first read of the units `prefetch` ahead of it (later units
  // in the forward, earlier ones in the backward).
  std::map<int64_t, int64_t> unitFirst[2];
  for (const Reads &r : reads)
    for (int phase : {0, 1})
      if (r.first[phase] != INT64_MAX) {
        auto [it, inserted] =
            unitFirst[phase].try_emplace(r.unit[phase], r.first[phase]);
        if (!inserted)
          it->second = std::min(it->second, r.first[phase]);
      }
  // (The unit whose first read it is, and that read.)
  auto issueAt = [&](int phase, int64_t unit) {
    std::pair<int64_t, int64_t> at{INT64_MAX, unit};
    for (auto [u, first] : unitFirst[phase])
      if (phase == 0 ? (u <= unit && u >= unit - prefetch)
                     : (u >= unit && u <= unit + prefetch))
        at = std::min(at, std::make_pair(first, u));
    return at;
  };
  // Per phase and unit: the unit it is issued at and the gathered bytes.
  GatherGroups groups[2];
  SmallVector<Operation *> gathers;

  StringAttr axisName = StringAttr::get(ctx, axis);
  for (auto [i, p] : llvm::enumerate(params)) {
    Reads &r = reads[i];
    auto shardType = cast<RankedTensorType>(p.slice.getType());
    Value weight = p.weight.getResult();
    // A parameter read only through one cast is gathered cast (a bf16
    // forward gathers half the bytes).
    Operation *root = nullptr;
    if (r.views.size() >= 1 && isa<g::CastOp>(r.views.front()) &&
        r.views.front()->getOperand(0) == weight &&
        llvm::none_of(weight.getUses(), [&](OpOperand &use) {
          return use.getOwner() != p.slice && use.getOwner() != r.views.front();
        }))
      root = r.views.front();
    for (int phase : {0, 1}) {
      if (r.uses[phase].empty())
        continue;
      auto [at, issuedUnit] = issueAt(phase, r.unit[phase]);
      OpBuilder b(order[at]);
      IRMapping map;
      Value source = weight;
      Type gatheredType = weight.getType();
      if (root) {
        auto castType = cast<RankedTensorType>(root->getResult(0).getType());
        source = g::CastOp::create(b, root->getLoc(),
                                   shardType.clone(castType.getElementType()),
                                   weight)
                     .getResult();
        gatheredType = castType;
      }
      auto gather =
          AllGatherOp::create(b, p.regather.getLoc(), gatheredType, source,
                              p.regather.getAxes(), p.regather.getDimAttr());
      dialect->getParameterGatherAttrHelper().setAttr(
          gather, StringAttr::get(ctx, phase == 0 ? "forward" : "backward"));
      dialect->getGatherUnitAttrHelper().setAttr(
          gather, b.getI64IntegerAttr(r.unit[phase]));
      map.map(root ? root->getResult(0) : weight, gather.getResult());
      gathers.push_back(gather);
      auto &group = groups[phase][r.unit[phase]];
      group.first = issuedUnit;
      group.second += staticTensorBytes(cast<RankedTensorType>(gatheredType));
      SmallVector<Operation *> clones;
      for (Operation *view : r.views)
        if (view != root)
          clones.push_back(b.clone(*view, map));
      for (OpOperand *use : r.uses[phase])
        use->set(map.lookup(use->get()));
      for (Operation *clone : llvm::reverse(clones))
        if (clone->use_empty())
          clone->erase();
    }
    for (Operation *view : llvm::reverse(r.views))
      if (view->use_empty())
        view->erase();
    // The buffer keeps the shard; the update reads and writes it.
    weight.setType(shardType);
    p.weight->setAttr(kShardDimsAttrName, p.shardDims);
    dialect->getShardedParameterAttrHelper().setAttr(p.weight, axisName);
    p.slice.getResult().replaceAllUsesWith(weight);
    p.slice.erase();
    p.assign->setOperand(0, p.update->getResult(0));
    p.regather.erase();
  }
  recordPlan(func, layers->layers, params.size(), gathers, groups);
  return success();
}

void ShardParametersPass::recordPlan(func::FuncOp func, int64_t layers,
                                     int64_t sharded,
                                     ArrayRef<Operation *> gathers,
                                     ArrayRef<GatherGroups> groups) {
  // Each gathered copy lives from its gather to the last read of it or of
  // a view of it; the most bytes live at once.
  Block &body = func.getBody().front();
  DenseMap<Operation *, int64_t> position;
  for (Operation &op : body)
    position[&op] = int64_t(position.size());
  std::vector<int64_t> delta(position.size() + 1, 0);
  for (Operation *gather : gathers) {
    int64_t end = position.lookup(gather);
    SmallVector<Value> work{gather->getResult(0)};
    while (!work.empty())
      for (Operation *user : work.pop_back_val().getUsers()) {
        end = std::max(end, position.lookup(user));
        if (g::isReshapeTransposeOrCast(user))
          work.push_back(user->getResult(0));
      }
    int64_t bytes = staticTensorBytes(
        cast<RankedTensorType>(gather->getResult(0).getType()));
    delta[position.lookup(gather)] += bytes;
    delta[end + 1] -= bytes;
  }
  int64_t live = 0, peak = 0;
  for (int64_t d : delta)
    peak = std::max(peak, live += d);
  SmallVector<int64_t> units[2], issued[2], bytes[2];
  for (auto [phase, phaseGroups] : llvm::enumerate(groups)) {
    for (auto [unit, group] : phaseGroups) {
      units[phase].push_back(unit);
      issued[phase].push_back(group.first);
      bytes[phase].push_back(group.second);
    }
    // The backward reads its layers last to first.
    if (phase == 1) {
      std::reverse(units[1].begin(), units[1].end());
      std::reverse(issued[1].begin(), issued[1].end());
      std::reverse(bytes[1].begin(), bytes[1].end());
    }
  }
  auto module = func->getParentOfType<ModuleOp>();
  auto *dialect = getContext().getLoadedDialect<DistDialect>();
  dialect->getZeroPlanAttrHelper().setAttr(
      module, ZeroPlanAttr::get(&getContext(), stage, axis, prefetch, layers,
                                sharded, units[0], issued[0], bytes[0],
                                units[1], issued[1], bytes[1], peak));
}

} // namespace
} // namespace mlir::paracc::dist

//===- Recompute.cpp - Activations recomputed in the backward ---*- C++ -*-===//
//
// Implements `--paracc-recompute` (Passes.td): builds the planner's view of
// the step's forward (Planner/Recompute.h), picks what to drop by the
// policy, and emits each dropped value again before the backward's first
// reader.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Dist/Transforms/FactorSharding.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Planner/CostModel.h"
#include "paracc/Planner/Explain.h"
#include "paracc/Planner/Recompute.h"
#include "paracc/Planner/StagePartition.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_RECOMPUTEPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

namespace g = graph;
namespace {

/// At most this many modelled FLOPs per result element make an op cheap to
/// redo (norms 5, GELU 8, elementwise 1; a product has 2 K).
constexpr int64_t kCheapFlopsPerElement = 10;

bool isParameter(Operation *op) {
  return isa<g::WeightOp, g::StateOp, g::ConstantOp>(op);
}

/// What the pass learns about one function, for the module's report.
struct FunctionPlan {
  std::vector<int64_t> savedBytes, keptBytes, peakBytes;
  int64_t recomputedOps = 0;
  double recomputedFlops = 0, stepFlops = 0, recomputedSeconds = 0;
};

class StepRecompute {
public:
  StepRecompute(func::FuncOp func, DistDialect *dialect, RecomputePolicy policy,
                int64_t budget, const DeviceRates &rates,
                ArrayRef<int64_t> inFlight, int64_t ranks)
      : func(func), dialect(dialect), policy(policy), budget(budget),
        rates(rates), inFlight(inFlight), ranks(ranks) {}

  FailureOr<FunctionPlan> run();

private:
  /// Keeps the layers' inputs: what a layer's backward recomputes starts
  /// from its input (and an input the backward did not read is now kept
  /// for it).
  void keepCheckpoints(const std::vector<bool> &checkpoints);
  void buildGraph();
  /// The nodes inside the layers, less the layers' inputs on the residual
  /// stream (`checkpoints`, if given, gets those that the layers read).
  FailureOr<std::vector<bool>>
  layerInteriors(std::vector<bool> *checkpoints = nullptr);
  /// One rank's elements of `v` over its global elements.
  double localFraction(Value v) const;
  int64_t localBytes(Value v) const;
  Value rematerialize(Value v, OpBuilder &b);

  func::FuncOp func;
  DistDialect *dialect;
  RecomputePolicy policy;
  int64_t budget;
  const DeviceRates &rates;
  /// Per (virtual) pipeline stage, the micro-batches in flight; the ranks
  /// on the pipeline axis (0: none), which the budget is per.
  ArrayRef<int64_t> inFlight;
  int64_t ranks;

  llvm::DenseSet<Operation *> forward;
  RecomputeGraph graph;
  std::vector<Operation *> nodeOps;
  llvm::DenseMap<Operation *, int32_t> nodeOf;
  std::vector<bool> dropped;
  IRMapping recomputed;
};

double StepRecompute::localFraction(Value v) const {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() == 0)
    return 1.0;
  MeshAttr mesh = getMesh(func);
  ShardingAttr sharding = getSharding(v);
  if (!mesh || !sharding)
    return 1.0;
  FailureOr<SmallVector<int64_t>> local =
      sharding.getLocalShape(mesh, type.getShape());
  if (failed(local))
    return 1.0;
  int64_t elements = 1;
  for (int64_t d : *local)
    elements *= d;
  return double(elements) / double(type.getNumElements());
}

int64_t StepRecompute::localBytes(Value v) const {
  return int64_t(double(bytesOfTensorType(v.getType())) * localFraction(v));
}

void StepRecompute::buildGraph() {
  Block &body = func.getBody().front();
  llvm::DenseMap<Operation *, int64_t> position;
  for (Operation &op : body)
    position[&op] = int64_t(position.size());
  graph.positions = int64_t(position.size());
  auto stageOf = [&](Operation *op) -> int32_t {
    IntegerAttr stage = dialect->getStageAttrHelper().getAttr(op);
    return stage ? int32_t(stage.getInt()) : 0;
  };
  // The budget is per rank, which holds every stage k with k mod p its
  // position (one under 1F1B; v chunks interleaved).
  auto groupOf = [&](Operation *op) -> int32_t {
    int32_t stage = stageOf(op);
    return ranks > 0 ? int32_t(stage % ranks) : stage;
  };
  // Everything that is not a node lives from its op to its last reader
  // (the baseline).
  auto addBaseline = [&](Operation &op) {
    int32_t group = groupOf(&op);
    if (graph.baseline.size() <= size_t(group))
      graph.baseline.resize(group + 1,
                            std::vector<int64_t>(graph.positions + 1, 0));
    std::vector<int64_t> &delta = graph.baseline[group];
    for (Value r : op.getResults()) {
      int64_t end = position[&op];
      for (Operation *user : r.getUsers())
        end = std::max(end, position.lookup(user));
      delta[position[&op]] += localBytes(r);
      delta[end + 1] -= localBytes(r);
    }
  };
  for (Operation &op : body) {
    if (!forward.contains(&op)) {
      if (!isParameter(&op))
        addBaseline(op);
      continue;
    }
    // Only what depends on the step's inputs: ops on weights alone are
    // computed once, not per batch.
    bool batch = llvm::any_of(op.getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return !def || nodeOf.count(def);
    });
    if (!batch) {
      addBaseline(op);
      continue;
    }
    RecomputeGraph::Node node;
    node.defined = node.forwardEnd = position[&op];
    for (Value v : op.getOperands())
      if (Operation *def = v.getDefiningOp())
        if (auto it = nodeOf.find(def); it != nodeOf.end())
          node.operands.push_back(it->second);
    double fraction =
        op.getNumResults() > 0 ? localFraction(op.getResult(0)) : 1.0;
    node.seconds =
        predictSeconds(estimateCost(&op), rates, costElementType(&op)) *
        fraction;
    node.group = groupOf(&op);
    int32_t stage = stageOf(&op);
    node.copies = size_t(stage) < inFlight.size() ? inFlight[stage] : 1;
    for (Value r : op.getResults()) {
      bool backwardReads = false;
      for (Operation *user : r.getUsers()) {
        if (isa<func::ReturnOp>(user))
          node.pinned = true;
        if (forward.contains(user)) {
          node.forwardEnd = std::max(node.forwardEnd, position[user]);
        } else {
          node.laterUses.push_back(position[user]);
          backwardReads |= !isa<func::ReturnOp>(user);
        }
      }
      if (backwardReads)
        node.savedBytes += localBytes(r);
      node.resultBytes += localBytes(r);
    }
    if (!isPure(&op))
      node.pinned = true;
    int64_t elements = 0;
    for (Value r : op.getResults())
      if (auto t = dyn_cast<RankedTensorType>(r.getType());
          t && t.hasStaticShape())
        elements += t.getNumElements();
    node.cheap = estimateCost(&op).flops <= kCheapFlopsPerElement * elements;
    llvm::sort(node.laterUses);
    node.laterUses.erase(llvm::unique(node.laterUses), node.laterUses.end());
    nodeOf[&op] = int32_t(graph.nodes.size());
    nodeOps.push_back(&op);
    graph.nodes.push_back(std::move(node));
  }
  // The baseline's differences become live bytes per position.
  for (std::vector<int64_t> &live : graph.baseline) {
    int64_t sum = 0;
    for (int64_t &bytes : live)
      bytes = sum += bytes;
    live.pop_back();
  }
}

FailureOr<std::vector<bool>>
StepRecompute::layerInteriors(std::vector<bool> *checkpoints) {
  FailureOr<LayerStructure> layers =
      findLayers(func, [&](Operation *op) { return forward.contains(op); });
  if (failed(layers))
    return failure();
  // The stream's value where each layer starts (a layer of several
  // segments keeps only its first input, as Megatron's full recompute).
  llvm::DenseSet<Value> inputs;
  for (int64_t i = 0; i <= layers->layers; ++i)
    inputs.insert(layers->cuts[i * layers->period]);
  auto isInput = [&](Operation *op) {
    return llvm::any_of(op->getResults(),
                        [&](Value r) { return inputs.contains(r); });
  };
  std::vector<bool> interior(graph.nodes.size(), false);
  for (auto [n, op] : llvm::enumerate(nodeOps)) {
    auto unit = layers->unitOf.find(op);
    interior[n] = unit != layers->unitOf.end() && unit->second >= 1 &&
                  unit->second <= layers->layers && !isInput(op);
  }
  // Checkpoints: the layer inputs that a layer's ops read.
  if (checkpoints) {
    checkpoints->assign(graph.nodes.size(), false);
    for (auto [n, op] : llvm::enumerate(nodeOps))
      (*checkpoints)[n] =
          isInput(op) && llvm::any_of(op->getUsers(), [&](Operation *user) {
            auto it = nodeOf.find(user);
            return it != nodeOf.end() && interior[it->second];
          });
  }
  return interior;
}

Value StepRecompute::rematerialize(Value v, OpBuilder &b) {
  if (Value done = recomputed.lookupOrNull(v))
    return done;
  Operation *op = v.getDefiningOp();
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    auto it = def ? nodeOf.find(def) : nodeOf.end();
    if (it == nodeOf.end())
      continue;
    const RecomputeGraph::Node &node = graph.nodes[it->second];
    bool kept = node.pinned || (node.savedBytes > 0 && !dropped[it->second]);
    if (!kept)
      recomputed.map(operand, rematerialize(operand, b));
  }
  Operation *copy = b.clone(*op, recomputed);
  dialect->getRecomputedAttrHelper().setAttr(copy, b.getUnitAttr());
  return recomputed.lookup(v);
}

void StepRecompute::keepCheckpoints(const std::vector<bool> &checkpoints) {
  for (auto [n, checkpoint] : llvm::enumerate(checkpoints)) {
    RecomputeGraph::Node &node = graph.nodes[n];
    if (!checkpoint)
      continue;
    node.pinned = true;
    if (node.savedBytes == 0)
      node.savedBytes = node.resultBytes;
  }
}

FailureOr<FunctionPlan> StepRecompute::run() {
  forward = stepForward(func);
  buildGraph();
  FunctionPlan plan;
  plan.savedBytes = evaluateRecompute(graph, {}).keptBytes;
  RecomputeChoice choice;
  switch (policy) {
  case RecomputePolicy::None:
    choice = evaluateRecompute(graph, {});
    break;
  case RecomputePolicy::Full:
  case RecomputePolicy::Selective: {
    std::vector<bool> stream;
    FailureOr<std::vector<bool>> interiors = layerInteriors(&stream);
    if (failed(interiors))
      return failure();
    keepCheckpoints(stream);
    choice = policy == RecomputePolicy::Full
                 ? evaluateRecompute(graph, std::move(*interiors))
                 : chooseCheapRecompute(graph, *interiors);
    break;
  }
  case RecomputePolicy::Auto: {
    // The residual stream stays, so that what a layer's backward
    // recomputes comes from its own input and dies with it (a dropped
    // layer input would have the layer before recomputed and its copies
    // kept until that layer's backward). A program without layers has no
    // such bound.
    std::vector<bool> stream;
    {
      ScopedDiagnosticHandler quiet(func.getContext(),
                                    [](Diagnostic &) { return success(); });
      if (succeeded(layerInteriors(&stream)))
        keepCheckpoints(stream);
    }
    int64_t groups = 1;
    for (const RecomputeGraph::Node &n : graph.nodes)
      groups = std::max<int64_t>(groups, n.group + 1);
    std::vector<int64_t> budgets(
        groups, budget < 0 ? std::numeric_limits<int64_t>::max() : budget);
    choice = chooseRecompute(graph, budgets);
    break;
  }
  }
  dropped = choice.dropped;
  plan.keptBytes = choice.keptBytes;
  plan.peakBytes = choice.peakBytes;
  plan.recomputedSeconds = choice.seconds;
  for (auto [n, op] : llvm::enumerate(nodeOps)) {
    double fraction =
        op->getNumResults() > 0 ? localFraction(op->getResult(0)) : 1.0;
    double flops = double(estimateCost(op).flops) * fraction;
    plan.stepFlops += flops * trainingFactor(op);
    if (choice.rerun[n]) {
      plan.recomputedFlops += flops;
      ++plan.recomputedOps;
    }
  }

  // The backward's readers of dropped values read copies made right before
  // the first of them.
  OpBuilder b(func.getContext());
  SmallVector<Operation *> later;
  for (Operation &op : func.getBody().front())
    if (!forward.contains(&op) && !isParameter(&op))
      later.push_back(&op);
  for (Operation *user : later) {
    for (OpOperand &use : user->getOpOperands()) {
      Operation *def = use.get().getDefiningOp();
      auto it = def ? nodeOf.find(def) : nodeOf.end();
      if (it == nodeOf.end() || !dropped[it->second])
        continue;
      b.setInsertionPoint(user);
      use.set(rematerialize(use.get(), b));
    }
  }
  return plan;
}

struct RecomputePass : public dist::impl::RecomputePassBase<RecomputePass> {
  using RecomputePassBase::RecomputePassBase;
  void runOnOperation() override;
};

void RecomputePass::runOnOperation() {
  ModuleOp module = getOperation();
  const RecomputePolicy chosen = policy;
  FailureOr<DeviceRates> deviceRates = ratesByNameOrError(module, rates);
  if (failed(deviceRates))
    return signalPassFailure();
  auto *dialect = getContext().getLoadedDialect<DistDialect>();
  // Micro-batches in flight per (virtual) stage (one without a pipeline).
  std::vector<int64_t> inFlight;
  int64_t ranks = 0;
  if (PipelinePlanAttr planAttr =
          dialect->getPipelinePlanAttrHelper().getAttr(module)) {
    PipelinePlan pipeline = pipelinePlanFromAttr(planAttr);
    ranks = int64_t(pipeline.stages.size()) / pipeline.virtualStages;
    inFlight = stagesInFlight(pipeline);
  }

  auto largest = [](ArrayRef<int64_t> v) {
    return v.empty() ? int64_t(0) : *llvm::max_element(v);
  };
  FunctionPlan total;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isDeclaration() || func.getNumResults() == 0)
      continue;
    StepRecompute step(func, dialect, chosen, budget, *deviceRates, inFlight,
                       ranks);
    FailureOr<FunctionPlan> plan = step.run();
    if (failed(plan))
      return signalPassFailure();
    total.savedBytes.push_back(largest(plan->savedBytes));
    total.keptBytes.push_back(largest(plan->keptBytes));
    total.peakBytes.push_back(largest(plan->peakBytes));
    total.recomputedOps += plan->recomputedOps;
    total.recomputedFlops += plan->recomputedFlops;
    total.stepFlops += plan->stepFlops;
    total.recomputedSeconds += plan->recomputedSeconds;
  }
  dialect->getRecomputePlanAttrHelper().setAttr(
      module, RecomputePlanAttr::get(
                  &getContext(), chosen, largest(total.savedBytes),
                  largest(total.keptBytes), budget, largest(total.peakBytes),
                  total.recomputedOps, APFloat(total.recomputedFlops),
                  APFloat(total.stepFlops),
                  APFloat(total.recomputedSeconds * 1e3), rates));
}

} // namespace
} // namespace mlir::paracc::dist

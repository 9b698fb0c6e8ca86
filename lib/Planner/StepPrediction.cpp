//===- StepPrediction.cpp - The cost model's time of a whole step ---------===//

#include "paracc/Planner/StepPrediction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/IR/DistDialect.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace mlir::paracc;

/// The ranks a collective's axes group together (1 without a mesh).
static int64_t collectiveGroupSize(dist::CollectiveOpInterface op) {
  auto func = op->getParentOfType<func::FuncOp>();
  dist::MeshAttr mesh = func ? dist::getMesh(func) : dist::MeshAttr();
  ArrayAttr axes = op.getGroupAxes();
  if (!mesh || !axes)
    return 1;
  std::vector<StringAttr> names;
  for (Attribute a : axes)
    if (auto name = dyn_cast<StringAttr>(a))
      names.push_back(name);
  return mesh.getGroupSize(names);
}

OpPrediction mlir::paracc::predictOp(Operation *op, const DeviceRates &rates) {
  OpPrediction p;
  if (isa_and_nonnull<dist::DistDialect>(op->getDialect())) {
    // Collectives and transfers; rank coordinates and local slices are
    // free.
    auto collective = dyn_cast<dist::CollectiveOpInterface>(op);
    if (std::optional<CollectiveCost> c =
            collective
                ? estimateCollectiveCost(op, collectiveGroupSize(collective))
                : std::nullopt) {
      p.collective = true;
      p.cost.bytes = int64_t(c->trafficBytes);
      p.cost.launches = 1;
      p.seconds = predictCollectiveSeconds(op, *c, rates);
    }
    // Expert parallelism's experts, on the tokens the member receives
    // (as many as it sends, routing spread evenly).
    if (isa<dist::ExpertParallelMoeOp, dist::ExpertParallelMoeGradOp>(op)) {
      OpCost experts = estimateCost(op);
      p.cost.flops = experts.flops;
      p.computeSeconds = predictSeconds(experts, rates, costElementType(op));
      p.seconds += p.computeSeconds;
    }
    return p;
  }
  // A state write is the function's exit binding, not an instruction.
  if (isa<graph::AssignOp>(op))
    return p;
  p.cost = estimateCost(op);
  p.seconds = predictSeconds(p.cost, rates, costElementType(op));
  return p;
}

llvm::StringRef mlir::paracc::computeKindName(ComputeKind kind) {
  switch (kind) {
  case ComputeKind::Product:
    return "products";
  case ComputeKind::Convolution:
    return "convolutions";
  case ComputeKind::Attention:
    return "attention";
  case ComputeKind::AttentionGrad:
    return "attention backward";
  case ComputeKind::Vector:
    break;
  }
  return "other";
}

StepPrediction mlir::paracc::predictStep(ModuleOp module,
                                         const DeviceRates &rates) {
  StepPrediction step;
  step.rates = rates.name;
  auto *dist = module->getContext()->getLoadedDialect<dist::DistDialect>();
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isDeclaration())
      continue;
    FunctionPrediction f;
    f.name = func.getSymName().str();
    if (dist) {
      if (auto name = dist->getPipelineFunctionAttrHelper().getAttr(func))
        f.name = name.getValue().str();
      if (auto stage = dist->getPipelineStageAttrHelper().getAttr(func))
        f.stage = stage.getInt();
    }
    // The function's ops, as the writer makes instructions of them.
    for (Operation &op : func.getBody().getOps()) {
      OpPrediction p = predictOp(&op, rates);
      if (p.collective) {
        f.collectiveSeconds += p.seconds - p.computeSeconds;
        f.computeSeconds += p.computeSeconds;
        ++f.collectives;
      } else {
        f.computeSeconds += p.seconds;
        if (p.cost.launches > 0) {
          ComputeKindTotals &k = f.byKind[size_t(p.cost.kind)];
          ++k.ops;
          k.flops += p.cost.flops;
          k.seconds += p.seconds;
        }
      }
    }
    step.functions.push_back(std::move(f));
  }
  return step;
}

//===- LayerStructure.cpp - Layers from the residual stream -----*- C++ -*-===//
//
// Finds a transformer's layers from the structure of its graph, never from
// names: the residual stream is the longest chain of `graph.add` ops each of
// which reads the previous one's result; its adds cut the block into
// segments (attention half, MLP half, ...), and the smallest period with
// which the segments' op multisets repeat groups them into layers.
//
//===----------------------------------------------------------------------===//

#include "paracc/Planner/StagePartition.h"

#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::paracc;
namespace g = mlir::paracc::graph;

static bool isParameter(Operation *op) {
  return isa<g::WeightOp, g::ConstantOp, g::StateOp>(op);
}

/// Whether `from` depends on `on` through ops of the block positioned after
/// `on`'s definition.
static bool dependsOn(Value from, Value on,
                      const llvm::DenseMap<Operation *, int64_t> &position) {
  Operation *onDef = on.getDefiningOp();
  int64_t floor = onDef ? position.lookup(onDef) : -1;
  SmallVector<Value> work = {from};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == on)
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || !seen.insert(v).second || !position.count(def) ||
        position.lookup(def) <= floor)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

FailureOr<LayerStructure>
mlir::paracc::findLayers(func::FuncOp func,
                         llvm::function_ref<bool(Operation *)> include) {
  LayerStructure layers;
  Block &block = func.getBody().front();
  llvm::DenseMap<Operation *, int64_t> position;
  std::vector<Operation *> all;
  for (Operation &op : block) {
    if (include && !include(&op) && !isParameter(&op))
      continue;
    position[&op] = all.size();
    all.push_back(&op);
  }

  // Ops computed from weights and constants alone: no batch dependence.
  llvm::DenseSet<Operation *> weightOnly;
  for (Operation *op : all) {
    if (isParameter(op) || op->hasTrait<OpTrait::IsTerminator>() ||
        op->getNumOperands() == 0)
      continue;
    if (llvm::all_of(op->getOperands(), [&](Value v) {
          Operation *def = v.getDefiningOp();
          return def && (isParameter(def) || weightOnly.contains(def));
        }))
      weightOnly.insert(op);
  }

  // The residual stream: the longest chain of adds, each reading the
  // previous one's result directly. In a lowered program a residual add may
  // be fused into a product (graph.linear's residual) or into a
  // graph.fused_elementwise (one of its results is a body add), and,
  // partitioned, reach the next one through a collective. A link of the
  // chain is the value an add computes with the values it adds that come
  // from outside (a fused add's operands that are the body's arguments).
  struct ResidualAdd {
    Value result;
    SmallVector<Value, 2> addends;
  };
  auto residualAdds = [](Operation *op) {
    SmallVector<ResidualAdd, 1> adds;
    if (auto linear = dyn_cast<g::LinearOp>(op)) {
      if (linear.getResidual())
        adds.push_back({linear.getResult(), {linear.getResidual()}});
    } else if (isa<g::AddOp>(op)) {
      adds.push_back({op->getResult(0), {op->getOperand(0), op->getOperand(1)}});
    } else if (auto fused = dyn_cast<g::FusedElementwiseOp>(op)) {
      Block &body = fused.getBodyBlock();
      for (auto [i, y] : llvm::enumerate(body.getTerminator()->getOperands())) {
        auto add = y.getDefiningOp<g::AddOp>();
        if (!add)
          continue;
        ResidualAdd r{fused.getResult(i), {}};
        for (Value v : add->getOperands())
          if (auto arg = dyn_cast<BlockArgument>(v))
            r.addends.push_back(fused.getInputs()[arg.getArgNumber()]);
        adds.push_back(r);
      }
    }
    return adds;
  };
  auto throughCollective = [](Value v) {
    Operation *def = v.getDefiningOp();
    if (def && def->getDialect() &&
        def->getDialect()->getNamespace() == "dist" &&
        def->getNumOperands() == 1 && def->getNumResults() == 1)
      return def->getOperand(0);
    return v;
  };
  // Per add's result: the longest chain ending in it and the add it
  // continues.
  struct Link {
    int64_t length = 1;
    Value previous;
    SmallVector<Value, 2> addends;
  };
  llvm::DenseMap<Value, Link> links;
  Value last;
  for (Operation *op : all) {
    if (weightOnly.contains(op))
      continue;
    for (ResidualAdd &add : residualAdds(op)) {
      Link link;
      for (Value v : add.addends) {
        auto from = links.find(throughCollective(v));
        if (from != links.end() && from->second.length + 1 > link.length) {
          link.length = from->second.length + 1;
          link.previous = from->first;
        }
      }
      link.addends = add.addends;
      if (!last || link.length > links[last].length)
        last = add.result;
      links[add.result] = std::move(link);
    }
  }
  SmallVector<Value> chain;
  for (Value v = last; v; v = links.lookup(v).previous)
    chain.push_back(v);
  std::reverse(chain.begin(), chain.end());

  // The cuts: the stream's input, then the chain's adds. The first add is a
  // residual add (x + f(x)) when one operand depends on the other: then
  // that operand (the embedding) enters the stream; otherwise the first add
  // combines the embeddings (GPT-2's token + position) and is the input. A
  // product's residual, or the one addend a fused add reads from outside,
  // enters the stream.
  SmallVector<Value> cuts;
  if (!chain.empty()) {
    ArrayRef<Value> addends = links[chain.front()].addends;
    if (addends.size() == 1) {
      cuts.push_back(addends[0]);
    } else if (addends.size() == 2) {
      Value lhs = addends[0], rhs = addends[1];
      if (dependsOn(rhs, lhs, position))
        cuts.push_back(lhs);
      else if (dependsOn(lhs, rhs, position))
        cuts.push_back(rhs);
    }
    llvm::append_range(cuts, chain);
  }
  // residual_chain_exists
  int64_t segments = int64_t(cuts.size()) - 1;
  if (segments < 1)
    return func.emitError("no repeated layers found: expected a residual "
                          "stream (a chain of graph.add ops, each adding to "
                          "the previous one's result)");

  auto cutPosition = [&](Value v) -> int64_t {
    Operation *def = v.getDefiningOp();
    return def ? position.lookup(def) : -1;
  };

  // Segment i holds the ops after cut i and up to cut i + 1; its signature
  // is the multiset of the names of those that read the stream.
  std::vector<std::vector<std::string>> signatures(segments);
  for (int64_t i = 0; i < segments; ++i) {
    llvm::DenseSet<Value> reached = {cuts[i]};
    for (int64_t p = cutPosition(cuts[i]) + 1; p <= cutPosition(cuts[i + 1]);
         ++p) {
      Operation *op = all[p];
      if (llvm::none_of(op->getOperands(),
                        [&](Value v) { return reached.contains(v); }))
        continue;
      for (Value r : op->getResults())
        reached.insert(r);
      signatures[i].push_back(op->getName().getStringRef().str());
    }
    llvm::sort(signatures[i]);
  }
  int64_t period = segments;
  for (int64_t k = 1; k < segments; ++k) {
    if (segments % k)
      continue;
    bool repeats = true;
    for (int64_t i = 0; i + k < segments && repeats; ++i)
      repeats = signatures[i] == signatures[i + k];
    if (repeats) {
      period = k;
      break;
    }
  }
  layers.period = period;
  layers.layers = segments / period;
  layers.cuts = cuts;

  // Units by position: the prologue up to the stream's input, segment i in
  // layer i / period, the epilogue after the last add.
  int64_t epilogue = layers.layers + 1;
  for (Operation *op : all) {
    if (isParameter(op))
      continue;
    int64_t p = position[op];
    int64_t unit = epilogue;
    if (p <= cutPosition(cuts[0])) {
      unit = 0;
    } else {
      for (int64_t i = 1; i <= segments; ++i)
        if (p <= cutPosition(cuts[i])) {
          unit = (i - 1) / period + 1;
          break;
        }
    }
    layers.ops.push_back(op);
    layers.unitOf[op] = unit;
  }
  // Weight-only ops go to their first user's unit (users come later in the
  // block, so walk backwards), where they are needed and nothing has to be
  // sent for them.
  for (Operation *op : llvm::reverse(layers.ops)) {
    if (!weightOnly.contains(op))
      continue;
    int64_t first = -1;
    for (Operation *user : op->getUsers()) {
      auto it = layers.unitOf.find(user);
      if (it != layers.unitOf.end() && (first < 0 || it->second < first))
        first = it->second;
    }
    if (first >= 0)
      layers.unitOf[op] = first;
  }
  for (Operation *op : layers.ops) {
    int64_t unit = layers.unitOf[op];
    layers.hasPrologue |= unit == 0;
    layers.hasEpilogue |=
        unit == epilogue && !op->hasTrait<OpTrait::IsTerminator>();
  }
  return layers;
}

LogicalResult mlir::paracc::keepLayers(func::FuncOp func,
                                       const LayerStructure &layers,
                                       int64_t keep) {
  if (keep < 1 || keep > layers.layers || layers.period < 1)
    return failure();
  if (keep == layers.layers)
    return success();
  auto erased = [&](Operation *op) {
    int64_t unit = layers.unitOf.lookup(op);
    return layers.unitOf.count(op) && unit > keep && unit <= layers.layers;
  };
  // Every value an erased op defines must be used only by erased ops,
  // except the last layer's output, which the kept layers' output replaces.
  Value last = layers.cuts[layers.layers * layers.period];
  Value kept = layers.cuts[keep * layers.period];
  for (Operation *op : layers.ops) {
    if (!erased(op))
      continue;
    for (Value v : op->getResults())
      for (Operation *user : v.getUsers())
        if (!erased(user) && v != last)
          return failure();
  }
  last.replaceAllUsesWith(kept);
  for (Operation *op : llvm::reverse(layers.ops))
    if (erased(op))
      op->erase();
  // The weights, constants and state only the erased layers read.
  SmallVector<Operation *> unused;
  for (Operation &op : func.getBody().front())
    if (isParameter(&op) && op.use_empty())
      unused.push_back(&op);
  for (Operation *op : unused)
    op->erase();
  return success();
}

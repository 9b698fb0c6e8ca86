//===- PropagateSharding.cpp - Spread shardings through ops ----*- C++ -*-===//
//
// Each value dimension has a state: the axes it is split over and the
// priority of the source that decided it (0: a closed annotation; otherwise
// one more than the source it was propagated from). Ops are visited forward
// and backward until no state improves. Within an op, sources are taken in
// priority order (ties: weights first, then operands, then results); a
// source assigns axes to the factors of its dimension when none of them is
// already taken and no axis is used twice. The op's factor axes then flow to
// every operand and result dimension whose factors are all decided.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/Transforms/FactorSharding.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_PROPAGATESHARDINGPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::paracc::dist

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;

namespace {

constexpr int kUnknown = std::numeric_limits<int>::max();

struct DimState {
  AxisList axes;
  int priority = kUnknown;
};
using ValueState = SmallVector<DimState, 4>;

class Propagator {
public:
  Propagator(func::FuncOp func, MeshAttr mesh) : func(func), mesh(mesh) {}

  void run();

private:
  void initialize();
  bool visit(Operation *op);
  void record();

  ValueState &stateOf(Value v) { return states[v]; }

  func::FuncOp func;
  MeshAttr mesh;
  DenseMap<Value, ValueState> states;
};

} // namespace

void Propagator::initialize() {
  auto init = [&](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return;
    ValueState state(type.getRank());
    if (ShardingAttr s = getSharding(v)) {
      for (int64_t d = 0; d < type.getRank() && d < s.getRank(); ++d) {
        if (s.isDimOpen(d))
          continue;
        state[d].axes = AxisList(s.getDimAxes(d));
        state[d].priority = 0;
      }
    }
    states[v] = std::move(state);
  };
  for (BlockArgument arg : func.getArguments())
    init(arg);
  func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      init(v);
  });
}

bool Propagator::visit(Operation *op) {
  if (op->getNumResults() == 0)
    return false;
  OpShardingRule rule = getRule(op);
  // Sources: every decided dimension of every operand and result.
  struct Source {
    int priority;
    int order;
    const TensorFactors *tensor;
    Value value;
    int64_t dim;
  };
  SmallVector<Source> sources;
  int order = 0;
  auto addSources = [&](Value v, const TensorFactors &tensor, bool weight) {
    ValueState &state = stateOf(v);
    for (int64_t d = 0; d < int64_t(state.size()); ++d)
      if (state[d].priority != kUnknown)
        sources.push_back({state[d].priority, (weight ? 0 : 1000) + order, &tensor,
                           v, d});
    ++order;
  };
  for (auto [v, tensor] : llvm::zip(op->getOperands(), rule.operands))
    addSources(v, tensor, isWeightLike(v));
  for (auto [v, tensor] : llvm::zip(op->getResults(), rule.results))
    addSources(v, tensor, isWeightLike(v));
  llvm::stable_sort(sources, [](const Source &a, const Source &b) {
    return std::tie(a.priority, a.order) < std::tie(b.priority, b.order);
  });

  int64_t numFactors = rule.numFactors();
  SmallVector<AxisList> factorAxes(numFactors);
  SmallVector<int> factorPriority(numFactors, kUnknown);
  llvm::SmallDenseSet<StringAttr> used;
  for (const Source &src : sources) {
    const DimFactors &factors = (*src.tensor)[src.dim];
    if (factors.empty())
      continue;
    const DimState &state = stateOf(src.value)[src.dim];
    // The source's axes, or failing that their longest major prefix: a
    // dimension split over {dp, tp} can still give the op its dp part when
    // tp is taken elsewhere in the op.
    auto fits = [&](ArrayRef<StringAttr> prefix)
        -> FailureOr<SmallVector<AxisList>> {
      auto split = distributeAxes(rule, factors, prefix, mesh);
      if (failed(split))
        return failure();
      for (auto [i, f] : llvm::enumerate(factors)) {
        const AxisList &axes = (*split)[i];
        if (!axes.empty() &&
            rule.factorKinds[f] == FactorKind::NeedReplication)
          return failure();
        if (factorPriority[f] != kUnknown && factorAxes[f] != axes)
          return failure();
        for (StringAttr a : axes)
          if (used.contains(a) && !(factorPriority[f] != kUnknown &&
                                    llvm::is_contained(factorAxes[f], a)))
            return failure();
      }
      return split;
    };
    FailureOr<SmallVector<AxisList>> split = fits(state.axes);
    for (size_t n = state.axes.size(); n > 1 && failed(split); --n)
      split = fits(ArrayRef<StringAttr>(state.axes).take_front(n - 1));
    if (failed(split))
      continue;
    for (auto [i, f] : llvm::enumerate(factors)) {
      if (factorPriority[f] != kUnknown)
        continue;
      factorAxes[f] = (*split)[i];
      factorPriority[f] = src.priority;
      for (StringAttr a : factorAxes[f])
        used.insert(a);
    }
  }

  // Flow the decided factors into every dimension. Views of a weight (a
  // transposed tied embedding) are as fixed as the weight itself.
  int hop = isWeightLike(op->getResult(0)) ? 0 : 1;
  bool changed = false;
  auto update = [&](Value v, const TensorFactors &tensor) {
    // Inputs are sources only: they arrive as annotated (whole otherwise);
    // sharding one that its first user needs whole would only add a gather.
    if (isa<BlockArgument>(v))
      return;
    ValueState &state = stateOf(v);
    for (int64_t d = 0; d < int64_t(tensor.size()) && d < int64_t(state.size());
         ++d) {
      const DimFactors &factors = tensor[d];
      if (factors.empty())
        continue;
      // A dimension made of several factors (a reshape's merged dims) is
      // decided once one of them is; the undecided ones stay whole.
      int priority = 0;
      bool decided = false;
      for (int64_t f : factors) {
        if (factorPriority[f] == kUnknown)
          continue;
        decided = true;
        priority = std::max(priority, factorPriority[f]);
      }
      if (!decided || priority + hop >= state[d].priority)
        continue;
      // Splits that would not be contiguous blocks of the merged dimension
      // (a batch of several rows per shard merged with a sequence split
      // over tp) are dropped from the minor factors up: the major ones
      // keep theirs (the batch stays split over dp or the micro-batches).
      SmallVector<AxisList> kept(factorAxes.begin(), factorAxes.end());
      keepContiguousPrefix(rule, factors, kept, mesh);
      AxisList axes;
      for (int64_t f : factors)
        if (factorPriority[f] != kUnknown)
          llvm::append_range(axes, kept[f]);
      if (axes.empty() &&
          llvm::any_of(factors, [&](int64_t f) { return !factorAxes[f].empty(); }))
        continue;
      // An axis may split only one dimension of a tensor.
      bool clash = false;
      for (int64_t e = 0; e < int64_t(state.size()); ++e)
        if (e != d)
          for (StringAttr a : axes)
            clash |= llvm::is_contained(state[e].axes, a);
      if (clash)
        continue;
      state[d].axes = axes;
      state[d].priority = priority + hop;
      changed = true;
    }
  };
  for (auto [v, tensor] : llvm::zip(op->getOperands(), rule.operands))
    update(v, tensor);
  for (auto [v, tensor] : llvm::zip(op->getResults(), rule.results))
    update(v, tensor);
  return changed;
}

void Propagator::record() {
  MLIRContext *ctx = func.getContext();
  auto toAttr = [&](Value v) {
    SmallVector<SmallVector<StringAttr>> dims;
    for (const DimState &d : stateOf(v))
      dims.push_back(SmallVector<StringAttr>(d.axes.begin(), d.axes.end()));
    return ShardingAttr::get(ctx, dims);
  };
  for (BlockArgument arg : func.getArguments())
    if (isa<RankedTensorType>(arg.getType()))
      setSharding(arg, toAttr(arg));
  func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (isa<RankedTensorType>(v.getType()))
        setSharding(v, toAttr(v));
  });
}

void Propagator::run() {
  initialize();
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (op != func.getOperation() && !isa<func::ReturnOp>(op))
      ops.push_back(op);
  });
  // Each round improves at least one (value, dim) priority, which is
  // bounded, so this terminates; the bound guards against a rule bug.
  for (int round = 0; round < 1000; ++round) {
    bool changed = false;
    for (Operation *op : ops)
      changed |= visit(op);
    for (Operation *op : llvm::reverse(ops))
      changed |= visit(op);
    if (!changed)
      break;
  }
  record();
}

namespace {
struct PropagateShardingPass
    : public dist::impl::PropagateShardingPassBase<PropagateShardingPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = requireMesh(module);
    if (!mesh)
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (failed(verifyRecordedShardings(func, mesh)))
        return signalPassFailure();
      Propagator(func, mesh).run();
    }
  }
};
} // namespace

//===- AttentionKeyValueGroups.cpp - Grouped-query attention ----*- C++ -*-===//
//
// Exporters write grouped-query attention as a repeat of K and V to the
// query heads (reshape, expand, reshape) before the attention, and the
// backward sums their gradients over each group (reshape, reduce_sum). The
// attention ops take k and v with fewer heads instead (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "ShapeOf.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_ATTENTIONKEYVALUEGROUPSPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// K or V repeated to the query heads: reshape(expand(x)) at head dim h of
/// the attention operand, where x is [..., Hkv, 1, ...], the expand
/// broadcasts its unit dim to G and the reshape merges (Hkv, G) into the H
/// = Hkv G query heads, so that query head i reads key head i / G.
struct Repeat {
  Value narrow; ///< x, [..., Hkv, 1, ...]
  int64_t groups = 0;
};

std::optional<Repeat> matchRepeat(Value operand, int64_t h) {
  auto reshape = operand.getDefiningOp<ReshapeOp>();
  auto expand = reshape ? reshape.getX().getDefiningOp<ExpandOp>() : nullptr;
  if (!expand || h < 0)
    return std::nullopt;
  ArrayRef<int64_t> out = shapeOf(operand), wide = shapeOf(expand),
                    narrow = shapeOf(expand.getX());
  if (wide.size() != out.size() + 1 || narrow.size() != wide.size())
    return std::nullopt;
  const int64_t groups = wide[h + 1];
  if (groups < 2 || wide[h] * groups != out[h] || narrow[h + 1] != 1)
    return std::nullopt;
  for (int64_t i = 0, e = out.size(); i < e; ++i)
    if (i != h && wide[i < h ? i : i + 1] != out[i])
      return std::nullopt;
  for (int64_t i = 0, e = wide.size(); i < e; ++i)
    if (i != h + 1 && narrow[i] != wide[i])
      return std::nullopt;
  return Repeat{expand.getX(), groups};
}

/// A gradient of the repeated operand summed over each group: every user
/// of `grad` ([..., H, ...] at head dim h) is reshape to [..., Hkv, G,
/// ...] then reduce_sum over the G dim. Returns those sums (none when grad
/// is unused), or nullopt when another op reads it.
std::optional<SmallVector<ReduceSumOp>> matchGroupSums(Value grad, int64_t h,
                                                       int64_t groups) {
  SmallVector<ReduceSumOp> sums;
  for (Operation *user : grad.getUsers()) {
    auto reshape = dyn_cast<ReshapeOp>(user);
    if (!reshape)
      return std::nullopt;
    ArrayRef<int64_t> g = shapeOf(grad), wide = shapeOf(reshape);
    if (wide.size() != g.size() + 1 || wide[h + 1] != groups ||
        wide[h] * groups != g[h])
      return std::nullopt;
    for (int64_t i = 0, e = g.size(); i < e; ++i)
      if (i != h && wide[i < h ? i : i + 1] != g[i])
        return std::nullopt;
    for (Operation *reader : reshape->getUsers()) {
      auto sum = dyn_cast<ReduceSumOp>(reader);
      if (!sum || sum.getAxes().size() != 1 || sum.getAxes()[0] != h + 1)
        return std::nullopt;
      sums.push_back(sum);
    }
  }
  return sums;
}

struct AttentionKeyValueGroupsPass
    : public graph::impl::AttentionKeyValueGroupsPassBase<
          AttentionKeyValueGroupsPass> {
  /// The [..., Hkv, ...] value of each repeat's [..., Hkv, 1, ...] source,
  /// one per source, so that a forward and its backward read the same k
  /// and v (paracc-save-attention-stats pairs them by their operands).
  DenseMap<Value, Value> grouped;

  Value groupedOperand(const Repeat &r, int64_t h) {
    Value &slot = grouped[r.narrow];
    if (slot)
      return slot;
    OpBuilder b(r.narrow.getContext());
    b.setInsertionPointAfterValue(r.narrow);
    SmallVector<int64_t> shape(shapeOf(r.narrow));
    shape.erase(shape.begin() + h + 1);
    auto type = cast<RankedTensorType>(r.narrow.getType()).clone(shape);
    slot = ReshapeOp::create(b, r.narrow.getLoc(), type, r.narrow);
    return slot;
  }

  /// Repeats of k and v with the same groups at attention op `op`'s head
  /// dim `headDim`.
  struct KeyValueRepeats {
    Repeat k, v;
    int64_t headDim;
  };
  template <typename AttentionOpT>
  std::optional<KeyValueRepeats> matchKeyValue(AttentionOpT op) {
    int64_t h =
        attentionHeadDim(shapeOf(op.getQ()).size(), op.getSequenceFirst());
    std::optional<Repeat> rk = matchRepeat(op.getK(), h),
                          rv = matchRepeat(op.getV(), h);
    if (!rk || !rv || rk->groups != rv->groups)
      return std::nullopt;
    return KeyValueRepeats{*rk, *rv, h};
  }

  template <typename ForwardOp> void foldForward(ForwardOp op) {
    std::optional<KeyValueRepeats> kv = matchKeyValue(op);
    if (!kv)
      return;
    // The results keep their types: q's heads.
    op.getKMutable().assign(groupedOperand(kv->k, kv->headDim));
    op.getVMutable().assign(groupedOperand(kv->v, kv->headDim));
  }

  void foldGrad(AttentionGradOp op) {
    std::optional<KeyValueRepeats> kv = matchKeyValue(op);
    if (!kv)
      return;
    int64_t h = kv->headDim, groups = kv->k.groups;
    auto dkSums = matchGroupSums(op.getDk(), h, groups);
    auto dvSums = matchGroupSums(op.getDv(), h, groups);
    if (!dkSums || !dvSums)
      return;
    Value k = groupedOperand(kv->k, h), v = groupedOperand(kv->v, h);
    OpBuilder b(op);
    Operation *grouped = b.clone(*op);
    grouped->setOperand(2, k);
    grouped->setOperand(3, v);
    grouped->getResult(1).setType(k.getType());
    grouped->getResult(2).setType(v.getType());
    op.getDq().replaceAllUsesWith(grouped->getResult(0));
    // Each group sum becomes the grouped gradient, reshaped to the sum's
    // type (the summed dim kept or dropped).
    auto replaceSums = [&](ArrayRef<ReduceSumOp> sums, Value grad) {
      for (ReduceSumOp sum : sums) {
        b.setInsertionPoint(sum);
        sum.getResult().replaceAllUsesWith(
            sum.getType() == grad.getType()
                ? grad
                : ReshapeOp::create(b, sum.getLoc(), sum.getType(), grad));
      }
    };
    replaceSums(*dkSums, grouped->getResult(1));
    replaceSums(*dvSums, grouped->getResult(2));
    // The old op's dk and dv reach nothing now but the dead reshapes and
    // sums; erase them with it.
    for (Value grad : {op.getDk(), op.getDv()})
      for (Operation *reshape : llvm::make_early_inc_range(grad.getUsers())) {
        for (Operation *sum :
             llvm::make_early_inc_range(reshape->getUsers()))
          sum->erase();
        reshape->erase();
      }
    op->erase();
  }

  void runOnOperation() override {
    grouped.clear();
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<AttentionOp, AttentionWithStatsOp, AttentionGradOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto fwd = dyn_cast<AttentionOp>(op))
        foldForward(fwd);
      else if (auto fwd = dyn_cast<AttentionWithStatsOp>(op))
        foldForward(fwd);
      else
        foldGrad(cast<AttentionGradOp>(op));
    }
  }
};

} // namespace

//===- SaveSoftmaxStats.cpp - Keep a loss's softmax statistics -*- C++ -*-===//
//
// A training step's graph.cross_entropy_grad reads the same scores as its
// forward graph.softmax_cross_entropy. The forward can return each row's
// maximum and sum of exponentials as it computes the loss; the backward then
// writes softmax - onehot in one pass over the scores (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_SAVESOFTMAXSTATSPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// Whether loss op `fwd` computes the loss whose gradient `grad` takes, and
/// runs before it in its block.
template <typename LossOp>
bool isForwardOf(LossOp fwd, CrossEntropyGradOp grad) {
  return fwd->getBlock() == grad->getBlock() && fwd->isBeforeInBlock(grad) &&
         fwd.getScores() == grad.getScores() &&
         fwd.getLabels() == grad.getLabels() &&
         fwd.getWeight() == grad.getWeight() &&
         fwd.getIgnoreIndexAttr() == grad.getIgnoreIndexAttr();
}

/// The statistics of `grad`'s forward loss (made from a
/// graph.softmax_cross_entropy when needed), or null when there is none in
/// its block.
Value forwardStats(CrossEntropyGradOp grad) {
  for (Operation *user : grad.getScores().getUsers()) {
    if (auto saved = dyn_cast<SoftmaxCrossEntropyWithStatsOp>(user);
        saved && isForwardOf(saved, grad))
      return saved.getStats();
    auto plain = dyn_cast<SoftmaxCrossEntropyOp>(user);
    if (!plain || plain.getLogProb() || !isForwardOf(plain, grad))
      continue;
    OpBuilder b(plain);
    SmallVector<int64_t> statsShape(
        cast<RankedTensorType>(plain.getLabels().getType()).getShape());
    statsShape.push_back(2);
    auto saved = SoftmaxCrossEntropyWithStatsOp::create(
        b, plain.getLoc(), plain.getLoss().getType(),
        RankedTensorType::get(statsShape, b.getF32Type()), plain.getScores(),
        plain.getLabels(), plain.getWeight(), plain.getReductionAttr(),
        plain.getIgnoreIndexAttr());
    saved->setDiscardableAttrs(plain->getDiscardableAttrDictionary());
    plain.getLoss().replaceAllUsesWith(saved.getLoss());
    plain->erase();
    return saved.getStats();
  }
  return nullptr;
}

struct SaveSoftmaxStatsPass
    : public graph::impl::SaveSoftmaxStatsPassBase<SaveSoftmaxStatsPass> {
  void runOnOperation() override {
    SmallVector<CrossEntropyGradOp> grads;
    getOperation().walk([&](CrossEntropyGradOp op) {
      if (!op.getStats() && !op.getLogProb())
        grads.push_back(op);
    });
    for (CrossEntropyGradOp grad : grads)
      if (Value stats = forwardStats(grad))
        grad.getStatsMutable().assign(stats);
  }
};

} // namespace

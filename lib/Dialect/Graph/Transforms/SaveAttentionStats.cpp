//===- SaveAttentionStats.cpp - Keep attention's softmax statistics -*- C++
//-*-//
//
// A training step's graph.attention_grad reads the same q, k, v (and mask)
// as its forward graph.attention. The forward can return each query row's
// log-sum-exp as it computes it; the backward then rebuilds the
// probabilities from it instead of running the forward a second time (see
// Passes.td).
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_SAVEATTENTIONSTATSPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// Whether forward op `fwd` (graph.attention or attention_with_stats)
/// computes the attention whose gradient `grad` takes, and runs before it
/// in its block.
template <typename ForwardOp>
bool isForwardOf(ForwardOp fwd, AttentionGradOp grad) {
  return fwd->getBlock() == grad->getBlock() && fwd->isBeforeInBlock(grad) &&
         fwd.getQ() == grad.getQ() && fwd.getK() == grad.getK() &&
         fwd.getV() == grad.getV() && fwd.getMask() == grad.getMask() &&
         fwd.getQueryStart() == grad.getQueryStart() &&
         fwd.getScaleAttr() == grad.getScaleAttr() &&
         fwd.getCausal() == grad.getCausal() &&
         fwd.getSequenceFirst() == grad.getSequenceFirst() &&
         fwd.getWindow() == grad.getWindow();
}

/// The forward of `grad` returning statistics (made from a graph.attention
/// when needed), or null when there is none in its block.
AttentionWithStatsOp forwardWithStats(AttentionGradOp grad) {
  for (Operation *user : grad.getQ().getUsers()) {
    if (auto saved = dyn_cast<AttentionWithStatsOp>(user);
        saved && isForwardOf(saved, grad))
      return saved;
    auto plain = dyn_cast<AttentionOp>(user);
    if (!plain || !isForwardOf(plain, grad))
      continue;
    OpBuilder b(plain);
    auto saved = AttentionWithStatsOp::create(
        b, plain.getLoc(), plain.getQ(), plain.getK(), plain.getV(),
        plain.getMask(), plain.getQueryStart(), plain.getScaleAttr(),
        plain.getCausalAttr(), plain.getSequenceFirstAttr(),
        plain.getWindowAttr());
    saved->setDiscardableAttrs(plain->getDiscardableAttrDictionary());
    plain.getResult().replaceAllUsesWith(saved.getResult());
    plain->erase();
    return saved;
  }
  return nullptr;
}

struct SaveAttentionStatsPass
    : public graph::impl::SaveAttentionStatsPassBase<SaveAttentionStatsPass> {
  void runOnOperation() override {
    SmallVector<AttentionGradOp> grads;
    getOperation().walk([&](AttentionGradOp op) {
      if (!op.getStats())
        grads.push_back(op);
    });
    for (AttentionGradOp grad : grads) {
      AttentionWithStatsOp fwd = forwardWithStats(grad);
      if (!fwd)
        continue;
      grad.getOutMutable().assign(fwd.getResult());
      grad.getStatsMutable().assign(fwd.getStats());
    }
  }
};

} // namespace

//===- AttentionLayout.cpp - Attention on sequence-first operands -*- C++ -*-//
//
// Exporters move the head dim in front of the sequence dim before attention
// ([B, S, H, D] -> [B, H, S, D]) and back after it. graph.attention with
// sequence_first reads and writes [B, S, H, D] directly, so those four
// transposes (each a full pass over an activation) disappear. The same
// holds for graph.attention_grad in a training step: its dy, q, k, v are
// such transposes and its dq, dk, dv are transposed back, seven passes
// that a sequence-first backward does without.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_ATTENTIONLAYOUTPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {
/// Whether `perm` swaps the third- and second-to-last dims of a rank-`rank`
/// tensor and keeps the others ([0, .., r-4, r-2, r-3, r-1]).
static bool swapsSequenceAndHeads(ArrayRef<int64_t> perm, int64_t rank) {
  if (rank < 3 || int64_t(perm.size()) != rank)
    return false;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t want = i == rank - 3 ? rank - 2 : i == rank - 2 ? rank - 3 : i;
    if (perm[i] != want)
      return false;
  }
  return true;
}

/// The [.., S, H, D] operand that `v` transposes into [.., H, S, D], if any.
static Value sequenceFirstSource(Value v) {
  auto t = v.getDefiningOp<TransposeOp>();
  if (!t || !swapsSequenceAndHeads(t.getPerm(), t.getType().getRank()))
    return nullptr;
  return t.getX();
}

struct AttentionLayoutPattern : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getSequenceFirst() || !op.getResult().hasOneUse())
      return failure();
    auto back = dyn_cast<TransposeOp>(*op.getResult().user_begin());
    if (!back || !swapsSequenceAndHeads(back.getPerm(),
                                        back.getType().getRank()))
      return failure();
    Value q = sequenceFirstSource(op.getQ()),
          k = sequenceFirstSource(op.getK()),
          v = sequenceFirstSource(op.getV());
    if (!q || !k || !v)
      return failure();
    rewriter.setInsertionPoint(back);
    auto fused = AttentionOp::create(
        rewriter, op.getLoc(), back.getType(), q, k, v, op.getMask(),
        op.getQueryStart(), op.getScaleAttr(), op.getCausalAttr(),
        rewriter.getBoolAttr(true), op.getWindowAttr());
    rewriter.replaceOp(back, fused.getResult());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AttentionGradLayoutPattern : OpRewritePattern<AttentionGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionGradOp op,
                                PatternRewriter &rewriter) const override {
    // Saved statistics are laid out for the operands as they are.
    if (op.getSequenceFirst() || op.getStats())
      return failure();
    Value dy = sequenceFirstSource(op.getDy()),
          q = sequenceFirstSource(op.getQ()),
          k = sequenceFirstSource(op.getK()),
          v = sequenceFirstSource(op.getV());
    if (!dy || !q || !k || !v)
      return failure();
    // Each gradient is transposed back to [.., S, H, D] (or unused).
    SmallVector<TransposeOp> backs;
    for (Value r : op.getResults()) {
      if (r.use_empty()) {
        backs.push_back(nullptr);
        continue;
      }
      auto back = r.hasOneUse() ? dyn_cast<TransposeOp>(*r.user_begin())
                                : TransposeOp();
      if (!back ||
          !swapsSequenceAndHeads(back.getPerm(), back.getType().getRank()))
        return failure();
      backs.push_back(back);
    }
    rewriter.setInsertionPoint(op);
    auto fused = AttentionGradOp::create(
        rewriter, op.getLoc(), q.getType(), k.getType(), v.getType(), dy, q, k,
        v, op.getMask(), op.getQueryStart(), /*out=*/Value(), /*stats=*/Value(),
        op.getScaleAttr(), op.getCausalAttr(), rewriter.getBoolAttr(true),
        op.getWindowAttr());
    for (auto [back, r] : llvm::zip(backs, fused.getResults()))
      if (back)
        rewriter.replaceOp(back, r);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AttentionLayoutPass
    : public graph::impl::AttentionLayoutPassBase<AttentionLayoutPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<AttentionLayoutPattern, AttentionGradLayoutPattern>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

//===- FuseSquareSums.cpp - reduce_sum(mul(x, x)) as one op ---*- C++ -*-===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_FUSESQUARESUMSPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// reduce_sum(mul(x, x)) over at least one axis, the product of a floating
/// x by itself with no other user -> reduce_sum_square(x).
struct FuseSquareSumPattern : OpRewritePattern<ReduceSumOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceSumOp sum,
                                PatternRewriter &rewriter) const override {
    auto square = sum.getX().getDefiningOp<MulOp>();
    if (!square || square.getLhs() != square.getRhs() ||
        !square->hasOneUse() || sum.getAxes().empty())
      return failure();
    Value x = square.getLhs();
    if (x.getType() != square.getType() ||
        !isa<FloatType>(cast<RankedTensorType>(x.getType()).getElementType()))
      return failure();
    auto fused = ReduceSumSquareOp::create(rewriter, sum.getLoc(), x,
                                           sum.getAxes(), sum.getKeepdims());
    // Keep what the sum was called (grad_sq terms are named for reports);
    // copied before the replacement erases the sum.
    fused->setDiscardableAttrs(sum->getDiscardableAttrDictionary());
    rewriter.replaceOp(sum, fused->getResults());
    rewriter.eraseOp(square);
    return success();
  }
};

struct FuseSquareSumsPass
    : public graph::impl::FuseSquareSumsPassBase<FuseSquareSumsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseSquareSumPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

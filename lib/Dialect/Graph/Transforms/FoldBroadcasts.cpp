//===- FoldBroadcasts.cpp - Binary ops read broadcasts directly --*- C++
//-*-===//

#include "ShapeOf.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_FOLDBROADCASTSPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// A broadcasting binary op with an operand made by graph.expand reads the
/// expand's operand instead, when broadcasting it against the other operand
/// gives the op's result shape all the same.
template <typename OpTy> struct ReadBroadcastOperand : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value operands[2] = {op.getLhs(), op.getRhs()};
    ArrayRef<int64_t> result = shapeOf(op.getResult());
    for (int i = 0; i < 2; ++i) {
      auto expand = operands[i].template getDefiningOp<ExpandOp>();
      if (!expand)
        continue;
      Value small = expand.getX();
      FailureOr<SmallVector<int64_t>> shape = broadcastShapes(
          std::nullopt, shapeOf(small), shapeOf(operands[1 - i]));
      if (failed(shape) || ArrayRef<int64_t>(*shape) != result)
        continue;
      rewriter.modifyOpInPlace(op, [&] { op->setOperand(i, small); });
      return success();
    }
    return failure();
  }
};

struct FoldBroadcastsPass
    : public graph::impl::FoldBroadcastsPassBase<FoldBroadcastsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ReadBroadcastOperand<AddOp>, ReadBroadcastOperand<SubOp>,
                 ReadBroadcastOperand<MulOp>, ReadBroadcastOperand<DivOp>,
                 ReadBroadcastOperand<MaxOp>, ReadBroadcastOperand<MinOp>>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

//===- FuseAccumulation.cpp - Gradient sums into their producers -*- C++ -*-===//
//
// A backward pass sums the gradients of every value read more than once;
// each sum is an add over two activations-sized tensors. When one addend is
// the only use of a product (graph.gemm without c), of a norm gradient's dx
// or of an embedding's gradient (graph.gather_grad), the producer takes the
// other addend and writes the sum itself.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_FUSEACCUMULATIONPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// `v` seen through one reshape whose result is used only by the add.
static Value throughReshape(Value v) {
  if (!v.hasOneUse())
    return nullptr;
  if (auto reshape = v.getDefiningOp<ReshapeOp>()) {
    v = reshape.getX();
    if (!v.hasOneUse())
      return nullptr;
  }
  return v;
}

/// Whether `add` sums two different tensors of its own type (no broadcast,
/// not `x + x`).
static bool isPlainSum(AddOp add) {
  return add.getLhs() != add.getRhs() &&
         add.getLhs().getType() == add.getType() &&
         add.getRhs().getType() == add.getType();
}

/// `v` reshaped to `type` (nothing to do when it already has it), carrying
/// the discardable attributes of the op it stands beside (`like`: tensor
/// parallelism's decisions, the pipeline action).
static Value reshapeTo(PatternRewriter &rewriter, Location loc, Value v,
                       Type type, Operation *like) {
  if (v.getType() == type)
    return v;
  auto reshape = ReshapeOp::create(rewriter, loc, type, v);
  reshape->setDiscardableAttrs(like->getDiscardableAttrDictionary());
  return reshape.getResult();
}

/// The single-use operand of `add` that `Producer` makes (through one
/// reshape) and `accepts`, with the other addend.
template <typename Producer, typename Accepts>
static std::pair<Producer, Value> findProducer(AddOp add, Accepts accepts) {
  if (!isPlainSum(add))
    return {};
  for (auto [mine, other] : {std::pair(add.getRhs(), add.getLhs()),
                             std::pair(add.getLhs(), add.getRhs())}) {
    Value v = throughReshape(mine);
    if (!v)
      continue;
    auto producer = v.template getDefiningOp<Producer>();
    if (producer && accepts(producer, v))
      return {producer, other};
  }
  return {};
}

/// Whether `v` is defined before `op` in op's block (or is an argument of
/// that block).
static bool definedBefore(Value v, Operation *op) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == op->getBlock();
  Operation *def = v.getDefiningOp();
  return def->getBlock() == op->getBlock() && def->isBeforeInBlock(op);
}

/// add(reshape?(gemm(a, b)), y) -> reshape?(gemm(a, b, reshape?(y))), beta 1,
/// when y is defined before the gemm: the fused gemm takes the gemm's place
/// (a later one would keep its operands, a micro-batch's activations, alive
/// until the add, and move work between pipeline actions). Gradients
/// accumulated over micro-batches become one chain of gemms this way.
struct AccumulateIntoGemmPattern : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    auto [gemm, addend] = findProducer<GemmOp>(add, [](GemmOp g, Value) {
      return !g.getC() && isa<FloatType>(g.getType().getElementType());
    });
    if (!gemm || !definedBefore(addend, gemm))
      return failure();
    rewriter.setInsertionPoint(gemm);
    Value c = reshapeTo(rewriter, add.getLoc(), addend, gemm.getType(), gemm);
    auto fused = GemmOp::create(rewriter, gemm.getLoc(), gemm.getA(),
                                gemm.getB(), c, gemm.getTransAAttr(),
                                gemm.getTransBAttr(), gemm.getAlphaAttr(),
                                rewriter.getF64FloatAttr(1.0));
    fused->setDiscardableAttrs(gemm->getDiscardableAttrDictionary());
    rewriter.setInsertionPoint(add);
    rewriter.replaceOp(add, reshapeTo(rewriter, add.getLoc(), fused,
                                      add.getType(), add));
    return success();
  }
};

/// add(reshape?(dx of a norm gradient), y) -> its dx with accumulate y, when
/// y is defined before the norm gradient: the fused op takes its place, so
/// that dscale and dbias stay where their users read them.
template <typename NormGrad>
struct AccumulateIntoNormGradPattern : OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    auto [grad, addend] =
        findProducer<NormGrad>(add, [](NormGrad g, Value v) {
          return !g.getAccumulate() && v == g.getDx();
        });
    if (!grad || !definedBefore(addend, grad))
      return failure();
    rewriter.setInsertionPoint(grad);
    Value acc =
        reshapeTo(rewriter, add.getLoc(), addend, grad.getDx().getType(), grad);
    SmallVector<Value> operands = {grad.getDy(), grad.getX(), grad.getScale(),
                                   acc};
    auto fused = NormGrad::create(rewriter, grad.getLoc(),
                                  grad->getResultTypes(), operands,
                                  grad->getAttrs());
    for (unsigned i = 1; i < grad->getNumResults(); ++i)
      rewriter.replaceAllUsesWith(grad->getResult(i), fused->getResult(i));
    rewriter.setInsertionPoint(add);
    rewriter.replaceOp(add, reshapeTo(rewriter, add.getLoc(), fused.getDx(),
                                      add.getType(), add));
    rewriter.eraseOp(grad);
    return success();
  }
};

/// add(reshape?(gather_grad(dy, ids)), y) -> gather_grad(dy, ids) with
/// accumulate y, when y is defined before the gather_grad: an embedding
/// table tied to the output projection gets both gradients in one pass over
/// the table (the rows start from y instead of zeros), not a zero fill, a
/// scatter and an add over the whole table.
struct AccumulateIntoGatherGradPattern : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    auto [grad, addend] = findProducer<GatherGradOp>(
        add, [](GatherGradOp g, Value) { return !g.getAccumulate(); });
    if (!grad || !definedBefore(addend, grad))
      return failure();
    rewriter.setInsertionPoint(grad);
    Value acc = reshapeTo(rewriter, add.getLoc(), addend, grad.getType(), grad);
    auto fused = GatherGradOp::create(rewriter, grad.getLoc(), grad.getType(),
                                      grad.getDy(), grad.getIndices(), acc,
                                      grad.getAxisAttr());
    fused->setDiscardableAttrs(grad->getDiscardableAttrDictionary());
    rewriter.setInsertionPoint(add);
    rewriter.replaceOp(
        add, reshapeTo(rewriter, add.getLoc(), fused, add.getType(), add));
    rewriter.eraseOp(grad);
    return success();
  }
};

struct FuseAccumulationPass
    : public graph::impl::FuseAccumulationPassBase<FuseAccumulationPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<AccumulateIntoGemmPattern,
                 AccumulateIntoNormGradPattern<LayerNormGradOp>,
                 AccumulateIntoNormGradPattern<RmsNormGradOp>,
                 AccumulateIntoGatherGradPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

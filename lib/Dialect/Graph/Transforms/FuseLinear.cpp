//===- FuseLinear.cpp - Matmul, bias, activation, residual in one op -*- C++ -*-===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_FUSELINEARPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {
/// The activation a single user of `v` applies, and that user.
static std::pair<StringRef, Operation *> activationOf(Value v) {
  if (!v.hasOneUse())
    return {"none", nullptr};
  Operation *user = *v.user_begin();
  if (auto gelu = dyn_cast<GeluOp>(user))
    return {gelu.getApproximate() == "tanh" ? "gelu_tanh" : "gelu", user};
  if (isa<ReluOp>(user))
    return {"relu", user};
  return {"none", nullptr};
}

/// The bias vector of an add that adds one to `product`'s last dim.
static Value biasOf(AddOp add, Value product) {
  Value other = add.getLhs() == product ? add.getRhs() : add.getLhs();
  auto t = cast<RankedTensorType>(other.getType());
  auto p = cast<RankedTensorType>(product.getType());
  if (t.getRank() != 1 || t.getDimSize(0) != p.getShape().back() ||
      add.getType() != p || other == product)
    return nullptr;
  return other;
}

struct FuseLinearPattern : RewritePattern {
  FuseLinearPattern(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    Value x, w, bias;
    if (auto mm = dyn_cast<MatMulOp>(op)) {
      if (mm.getRhs().getType().getRank() != 2 ||
          mm.getLhs().getType().getRank() < 2)
        return failure();
      x = mm.getLhs();
      w = mm.getRhs();
    } else if (auto gemm = dyn_cast<GemmOp>(op)) {
      if (gemm.getTransA() || gemm.getTransB() ||
          gemm.getAlpha().convertToDouble() != 1.0)
        return failure();
      x = gemm.getA();
      w = gemm.getB();
      if (Value c = gemm.getC()) {
        auto ct = cast<RankedTensorType>(c.getType());
        if (gemm.getBeta().convertToDouble() != 1.0 || ct.getRank() != 1 ||
            ct.getDimSize(0) != gemm.getType().getDimSize(1))
          return failure();
        bias = c;
      }
    } else {
      return failure();
    }
    if (!isa<FloatType>(cast<RankedTensorType>(x.getType()).getElementType()))
      return failure();
    Value out = op->getResult(0);
    Operation *last = op;
    if (!bias && out.hasOneUse())
      if (auto add = dyn_cast<AddOp>(*out.user_begin()))
        if (Value b = biasOf(add, out)) {
          bias = b;
          out = add.getResult();
          last = add;
        }
    auto [activation, actOp] = activationOf(out);
    if (actOp) {
      last = actOp;
      out = actOp->getResult(0);
    }
    // A residual add of the (bias-added) product: cuBLASLt's C operand.
    Value residual;
    if (!actOp && out.hasOneUse())
      if (auto add = dyn_cast<AddOp>(*out.user_begin())) {
        Value other = add.getLhs() == out ? add.getRhs() : add.getLhs();
        if (other != out && other.getType() == out.getType() &&
            add.getType() == out.getType()) {
          residual = other;
          last = add;
        }
      }
    if (last == op && isa<MatMulOp>(op))
      return failure(); // a bare matmul stays a matmul
    rewriter.setInsertionPoint(last);
    auto linear =
        LinearOp::create(rewriter, op->getLoc(), x, w, bias, residual,
                         rewriter.getStringAttr(activation),
                         rewriter.getBoolAttr(false));
    // What passes recorded on the matmul (tensor parallelism's decision,
    // the pipeline action) holds for the linear that replaces it.
    linear->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.replaceOp(last, linear.getResult());
    return success();
  }
};

/// A 2-D transpose that swaps the dims (not the identity).
bool isMatrixTranspose(TransposeOp t) {
  return t.getType().getRank() == 2 && t.getPerm()[0] == 1;
}

/// The matrix transpose that defines `v`, else null.
TransposeOp matrixTransposeOf(Value v) {
  auto t = v.getDefiningOp<TransposeOp>();
  return t && isMatrixTranspose(t) ? t : TransposeOp();
}

/// matmul(x, transpose(w)) with a 2-D w and no epilogue: a gemm that reads
/// w transposed (a tied language-model head, logits = h embedding^T, would
/// otherwise transpose the whole table every step).
struct TransposedWeightPattern : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatMulOp mm,
                                PatternRewriter &rewriter) const override {
    TransposeOp t = matrixTransposeOf(mm.getRhs());
    auto x = cast<RankedTensorType>(mm.getLhs().getType());
    if (!t || x.getRank() < 2 || !isa<FloatType>(x.getElementType()))
      return failure();
    // A product with an epilogue to fuse becomes a linear instead
    // (FuseLinearPattern, the transpose feeding it).
    if (mm->hasOneUse() && isa<AddOp, GeluOp, ReluOp>(*mm->user_begin()))
      return failure();
    int64_t k = x.getShape().back();
    int64_t rows = x.getNumElements() / std::max<int64_t>(k, 1);
    Location loc = mm.getLoc();
    Value a = mm.getLhs();
    if (x.getRank() != 2)
      a = ReshapeOp::create(rewriter, loc, x.clone({rows, k}), a);
    auto gemm = GemmOp::create(rewriter, loc, a, t.getX(), /*c=*/Value(),
                               rewriter.getBoolAttr(false),
                               rewriter.getBoolAttr(true),
                               rewriter.getF64FloatAttr(1.0),
                               rewriter.getF64FloatAttr(1.0));
    gemm->setDiscardableAttrs(mm->getDiscardableAttrDictionary());
    Value y = gemm.getResult();
    if (x.getRank() != 2)
      y = ReshapeOp::create(rewriter, loc, mm.getType(), y);
    rewriter.replaceOp(mm, y);
    return success();
  }
};

/// transpose(gemm(a, b)) without a C operand: gemm(b, a) with the operands'
/// transposes swapped and flipped, (A B)^T = B^T A^T (the tied head's
/// weight gradient, which would otherwise be transposed after the product).
struct TransposeOfGemmPattern : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp t,
                                PatternRewriter &rewriter) const override {
    auto gemm = t.getX().getDefiningOp<GemmOp>();
    if (!gemm || gemm.getC() || !gemm->hasOneUse() ||
        !isMatrixTranspose(t))
      return failure();
    auto swapped = GemmOp::create(
        rewriter, gemm.getLoc(), gemm.getB(), gemm.getA(), /*c=*/Value(),
        rewriter.getBoolAttr(!gemm.getTransB()),
        rewriter.getBoolAttr(!gemm.getTransA()), gemm.getAlphaAttr(),
        gemm.getBetaAttr());
    swapped->setDiscardableAttrs(gemm->getDiscardableAttrDictionary());
    rewriter.replaceOp(t, swapped.getResult());
    rewriter.eraseOp(gemm);
    return success();
  }
};

/// gemm(transpose(a), b) and gemm(a, transpose(b)) of 2-D transposes: the
/// gemm reads the operand with its flag flipped.
struct GemmOfTransposePattern : OpRewritePattern<GemmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GemmOp gemm,
                                PatternRewriter &rewriter) const override {
    TransposeOp ta = matrixTransposeOf(gemm.getA()),
                tb = matrixTransposeOf(gemm.getB());
    if (!ta && !tb)
      return failure();
    rewriter.modifyOpInPlace(gemm, [&] {
      if (ta) {
        gemm.getAMutable().assign(ta.getX());
        gemm.setTransA(!gemm.getTransA());
      }
      if (tb) {
        gemm.getBMutable().assign(tb.getX());
        gemm.setTransB(!gemm.getTransB());
      }
    });
    return success();
  }
};

struct FuseLinearPass : public graph::impl::FuseLinearPassBase<FuseLinearPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseLinearPattern, TransposedWeightPattern,
                 TransposeOfGemmPattern, GemmOfTransposePattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

//===- RaiseMoe.cpp - The gathered-weights experts form to moe_experts -*- C++
//-*-===//
//
// Exporters write a mixture of experts' experts (transformers' "batched_mm"
// forward, under both torch.onnx exporters) as: every token copied k times,
// each copy's expert weights gathered by index ([T k, F, H]), two batched
// matrix-vector products around the activation, the results weighted by
// the routing weights and summed over the k copies. This pass finds that
// chain from its sum and replaces it by one graph.moe_experts, which never
// materializes the gathered weights.
//
//===----------------------------------------------------------------------===//

#include "ShapeOf.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_RAISEMOEPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// `v` before any reshapes.
Value throughReshapes(Value v) {
  while (auto r = v.getDefiningOp<ReshapeOp>())
    v = r.getX();
  return v;
}

/// The dims of `shape` other than 1s.
SmallVector<int64_t> withoutOnes(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> out;
  for (int64_t d : shape)
    if (d != 1)
      out.push_back(d);
  return out;
}

/// The stacked table [E, ...] a per-copy gather picks rows of, with the
/// copies' expert indices (before reshapes): gather(W, ids, axis 0) with
/// ids [Tk], or gather_nd(W, ids) with ids [Tk, 1].
std::pair<Value, Value> gatheredTable(Value gathered) {
  if (auto g = gathered.getDefiningOp<GatherOp>()) {
    if (g.getAxis() == 0 && shapeOf(g.getIndices()).size() == 1)
      return {g.getData(), throughReshapes(g.getIndices())};
  } else if (auto g = gathered.getDefiningOp<GatherNDOp>()) {
    ArrayRef<int64_t> ids = shapeOf(g.getIndices());
    if (g.getBatchDims() == 0 && ids.size() == 2 && ids[1] == 1)
      return {g.getData(), throughReshapes(g.getIndices())};
  }
  return {};
}

/// One expert projection of the copies: y [Tk, out] = reshape(matmul(
/// gather(W [E, out, in], ids), reshape(v [Tk, in] -> [Tk, in, 1])));
/// its table, the copies' ids and `v` (before reshapes).
struct ExpertProduct {
  Value table, ids, operand;
};

FailureOr<ExpertProduct> expertProduct(Value y) {
  auto r = y.getDefiningOp<ReshapeOp>();
  if (!r)
    return failure();
  auto mm = r.getX().getDefiningOp<MatMulOp>();
  if (!mm)
    return failure();
  ArrayRef<int64_t> lhs = shapeOf(mm.getLhs()), rhs = shapeOf(mm.getRhs());
  if (lhs.size() != 3 || rhs.size() != 3 || rhs[2] != 1)
    return failure();
  auto [table, ids] = gatheredTable(mm.getLhs());
  if (!table || shapeOf(table).size() != 3)
    return failure();
  auto operandReshape = mm.getRhs().getDefiningOp<ReshapeOp>();
  if (!operandReshape)
    return failure();
  // The operand: the copies' rows [Tk, in] (the second projection) or the
  // expanded token copies (the first), through a reshape to [Tk, in, 1].
  if (shapeOf(y) != ArrayRef<int64_t>{lhs[0], lhs[1]})
    return failure();
  return ExpertProduct{table, ids, operandReshape.getX()};
}

/// The token matrix x [T, H] whose k copies (token-major) `copies` is:
/// expand of a reshape of x with a 1 inserted between T and H, then a
/// reshape (both exporters' repeat_interleave).
Value tokensOf(Value copies, int64_t tokens, int64_t k, int64_t hidden) {
  auto expand = throughReshapes(copies).getDefiningOp<ExpandOp>();
  if (!expand)
    return nullptr;
  if (withoutOnes(shapeOf(expand.getResult())) !=
      SmallVector<int64_t>{tokens, k, hidden})
    return nullptr;
  // The expanded dim: the one that grows; all 1s around it are the source's.
  ArrayRef<int64_t> in = shapeOf(expand.getX()),
                    out = shapeOf(expand.getResult());
  if (in.size() != out.size())
    return nullptr;
  for (size_t d = 0; d < in.size(); ++d)
    if (in[d] != out[d] && !(in[d] == 1 && out[d] == k))
      return nullptr;
  if (withoutOnes(in) != SmallVector<int64_t>{tokens, hidden})
    return nullptr;
  Value x = throughReshapes(expand.getX());
  ArrayRef<int64_t> xs = shapeOf(x);
  if (xs.empty() || xs.back() != hidden)
    return nullptr;
  return x;
}

/// The activation between the two projections: gated (silu_mul of the
/// first and second half of h) or one activation of h; `h` is the first
/// projection's result.
struct Activation {
  StringRef name;
  bool gated = false;
  Value h;
};

FailureOr<Activation> activationOf(Value a) {
  Operation *op = a.getDefiningOp();
  if (!op)
    return failure();
  if (auto sm = dyn_cast<SiluMulOp>(op)) {
    // The halves: split's two results, or two slices of the last dim.
    Value gate = sm.getGate(), up = sm.getUp();
    if (auto split = gate.getDefiningOp<SplitOp>()) {
      if (split->getNumResults() != 2 || up.getDefiningOp() != split ||
          gate != split->getResult(0) || up != split->getResult(1) ||
          split.getAxis() != 1)
        return failure();
      return Activation{"silu", true, split.getX()};
    }
    auto g = gate.getDefiningOp<SliceOp>(), u = up.getDefiningOp<SliceOp>();
    if (!g || !u || g.getX() != u.getX())
      return failure();
    ArrayRef<int64_t> h = shapeOf(g.getX());
    const int64_t inner = shapeOf(gate)[1];
    if (h.size() != 2 || h[1] != 2 * inner)
      return failure();
    auto covers = [&](SliceOp s, int64_t begin) {
      return s.getStarts() == ArrayRef<int64_t>{0, begin} &&
             s.getLimits() == ArrayRef<int64_t>{h[0], begin + inner} &&
             s.getSteps() == ArrayRef<int64_t>{1, 1};
    };
    if (!covers(g, 0) || !covers(u, inner))
      return failure();
    return Activation{"silu", true, g.getX()};
  }
  if (auto gelu = dyn_cast<GeluOp>(op))
    return Activation{gelu.getApproximate() == "tanh" ? "gelu_tanh" : "gelu",
                      false, gelu.getX()};
  if (auto relu = dyn_cast<ReluOp>(op))
    return Activation{"relu", false, relu.getX()};
  if (auto silu = dyn_cast<SiluOp>(op))
    return Activation{"silu", false, silu.getX()};
  return failure();
}

/// sum over the k copies of (expert output * routing weight):
/// reduce_sum(reshape(mul(out [Tk, H], reshape(weights [T, k]) [Tk, 1]))
/// [T, k, H], [1]) -> [T, H].
struct RaiseMoePattern : OpRewritePattern<ReduceSumOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceSumOp sum,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> summed = shapeOf(sum.getX());
    if (summed.size() != 3 || sum.getAxes() != ArrayRef<int64_t>{1} ||
        sum.getKeepdims())
      return failure();
    const int64_t tokens = summed[0], k = summed[1], hidden = summed[2];
    auto reshape = sum.getX().getDefiningOp<ReshapeOp>();
    if (!reshape)
      return failure();
    auto mul = reshape.getX().getDefiningOp<MulOp>();
    if (!mul)
      return failure();
    const SmallVector<int64_t> rowsShape = {tokens * k, hidden};
    Value out = mul.getLhs(), scale = mul.getRhs();
    if (shapeOf(out) != ArrayRef<int64_t>(rowsShape))
      std::swap(out, scale);
    if (shapeOf(out) != ArrayRef<int64_t>(rowsShape) ||
        shapeOf(scale) != ArrayRef<int64_t>{tokens * k, 1})
      return failure();
    Value weights = throughReshapes(scale);
    if (shapeOf(weights) != ArrayRef<int64_t>{tokens, k})
      return failure();
    // The second projection, the activation, the first projection.
    FailureOr<ExpertProduct> down = expertProduct(out);
    if (failed(down))
      return failure();
    FailureOr<Activation> act = activationOf(down->operand);
    if (failed(act))
      return failure();
    FailureOr<ExpertProduct> up = expertProduct(act->h);
    if (failed(up) || up->ids != down->ids)
      return failure();
    // One set of expert indices [T, k], and the tokens [T, H].
    Value indices = up->ids;
    if (shapeOf(indices) != ArrayRef<int64_t>{tokens, k})
      return failure();
    Value x = tokensOf(up->operand, tokens, k, hidden);
    if (!x)
      return failure();
    auto xType = cast<RankedTensorType>(x.getType());
    Location loc = sum.getLoc();
    auto tokensType = xType.clone(ArrayRef<int64_t>{tokens, hidden});
    Value x2 =
        x.getType() == tokensType
            ? x
            : ReshapeOp::create(rewriter, loc, tokensType, x).getResult();
    auto op = MoeExpertsOp::create(
        rewriter, loc, tokensType, x2, indices, weights, up->table, down->table,
        rewriter.getStringAttr(act->name), rewriter.getBoolAttr(act->gated));
    // The verifier checks the tables' shapes against the activation.
    if (failed(mlir::verify(op))) {
      rewriter.eraseOp(op);
      return failure();
    }
    rewriter.replaceOp(sum, op.getResult());
    return success();
  }
};

struct RaiseMoePass : graph::impl::RaiseMoePassBase<RaiseMoePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RaiseMoePattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

//===- MoeAuxLoss.cpp - The experts' auxiliary losses -----------*- C++ -*-===//
//
// Adds each mixture of experts' load-balancing loss and router z-loss to
// the function's loss (see Passes.td), built from the router's logits,
// probabilities and picks with ordinary graph ops, so autodiff and
// partitioning treat them like the rest of the loss.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "paracc/Dialect/Graph/IR/ScalarConstant.h"

#include "mlir/IR/Builders.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_MOEAUXLOSSPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// A router: logits z [T, E], probabilities p = softmax(z), and the top-k
/// picks of p [T, k].
struct Router {
  Value logits, probabilities, picks;
};

/// `v` with the casts and reshapes that produced it looked through.
Value throughViews(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<CastOp, ReshapeOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// The router whose picks `moe` runs, when they are a top-k (along the last
/// dim of a 2-D tensor) of a softmax along that dim.
std::optional<Router> findRouter(MoeExpertsOp moe) {
  auto topk = throughViews(moe.getIndices()).getDefiningOp<TopKOp>();
  if (!topk || !topk.getLargest())
    return std::nullopt;
  auto type = cast<RankedTensorType>(topk.getX().getType());
  if (type.getRank() != 2 || topk.getAxis() != 1)
    return std::nullopt;
  auto softmax = throughViews(topk.getX()).getDefiningOp<SoftmaxOp>();
  if (!softmax || softmax.getType() != topk.getX().getType() ||
      softmax.getAxis() != 1)
    return std::nullopt;
  return Router{softmax.getX(), topk.getX(), topk.getIndices()};
}

class AuxLossBuilder {
public:
  AuxLossBuilder(OpBuilder &b, Location loc, FloatType element)
      : b(b), loc(loc), element(element) {}

  Value scalar(double v) { return createScalarConstant(b, loc, element, v); }
  Value sum(Value x, ArrayRef<int64_t> axes) {
    return ReduceSumOp::create(b, loc, x, b.getDenseI64ArrayAttr(axes),
                               b.getBoolAttr(false));
  }

  /// E * sum_e (c_e / T) * mean_t p[t, e].
  Value loadBalancing(const Router &r) {
    auto probs = cast<RankedTensorType>(r.probabilities.getType());
    auto picks = cast<RankedTensorType>(r.picks.getType());
    const int64_t tokens = probs.getDimSize(0), experts = probs.getDimSize(1),
                  k = picks.getDimSize(1);
    // c_e: the slots equal to e, [T, k, 1] against [1, 1, E].
    Value slots = ReshapeOp::create(
        b, loc, picks.clone(ArrayRef<int64_t>{tokens, k, 1}), r.picks);
    SmallVector<int64_t> ids;
    for (int64_t e = 0; e < experts; ++e)
      ids.push_back(e);
    auto idType =
        RankedTensorType::get({1, 1, experts}, picks.getElementType());
    Value expertIds = ConstantOp::create(
        b, loc, DenseElementsAttr::get(idType, ArrayRef<int64_t>(ids)));
    Value hit = EqualOp::create(b, loc, slots, expertIds);
    Value hits = CastOp::create(
        b, loc, RankedTensorType::get({tokens, k, experts}, element), hit);
    Value fraction =
        MulOp::create(b, loc, sum(hits, {0, 1}), scalar(1.0 / double(tokens)));
    Value meanProbability =
        ReduceMeanOp::create(b, loc, r.probabilities,
                             b.getDenseI64ArrayAttr({0}), b.getBoolAttr(false));
    Value dot = sum(MulOp::create(b, loc, fraction, meanProbability), {0});
    return MulOp::create(b, loc, dot, scalar(double(experts)));
  }

  /// mean_t (logsumexp_e z[t, e])^2, z shifted by its row maximum.
  Value zLoss(const Router &r) {
    Value z = r.logits;
    auto type = cast<RankedTensorType>(z.getType());
    if (type.getElementType() != element)
      z = CastOp::create(b, loc, type.clone(element), z);
    Value max = ReduceMaxOp::create(b, loc, z, b.getDenseI64ArrayAttr({1}),
                                    b.getBoolAttr(true));
    Value shifted = SubOp::create(b, loc, z, max);
    Value lse = AddOp::create(
        b, loc, LogOp::create(b, loc, sum(ExpOp::create(b, loc, shifted), {1})),
        ReshapeOp::create(
            b, loc, RankedTensorType::get({type.getDimSize(0)}, element), max));
    Value squared = MulOp::create(b, loc, lse, lse);
    return ReduceMeanOp::create(b, loc, squared, b.getDenseI64ArrayAttr({0}),
                                b.getBoolAttr(false));
  }

private:
  OpBuilder &b;
  Location loc;
  FloatType element;
};

struct MoeAuxLossPass : public graph::impl::MoeAuxLossPassBase<MoeAuxLossPass> {
  using MoeAuxLossPassBase::MoeAuxLossPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (auxCoef == 0 && zCoef == 0)
      return;
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    auto lossType =
        ret.getNumOperands() > 0
            ? dyn_cast<RankedTensorType>(ret.getOperand(0).getType())
            : RankedTensorType();
    auto element =
        lossType ? dyn_cast<FloatType>(lossType.getElementType()) : FloatType();
    if (!element || lossType.getRank() != 0) {
      func.emitOpError("needs a float scalar loss as its first result to add "
                       "the experts' auxiliary losses to");
      return signalPassFailure();
    }
    SmallVector<Router> routers;
    WalkResult walk = func.walk([&](MoeExpertsOp moe) {
      std::optional<Router> r = findRouter(moe);
      if (!r) {
        moe.emitOpError("has picks that are not a top-k of a softmax over "
                        "router logits [tokens, experts], so the auxiliary "
                        "losses have no router probabilities to use");
        return WalkResult::interrupt();
      }
      if (llvm::none_of(routers,
                        [&](const Router &o) { return o.picks == r->picks; }))
        routers.push_back(*r);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (routers.empty()) {
      func.emitOpError("has no graph.moe_experts: --moe-aux-loss and "
                       "--moe-z-loss need a mixture of experts");
      return signalPassFailure();
    }
    OpBuilder b(ret);
    Location loc = ret.getLoc();
    AuxLossBuilder aux(b, loc, element);
    Value loss = ret.getOperand(0);
    for (const Router &r : routers) {
      if (auxCoef != 0)
        loss = AddOp::create(
            b, loc, loss,
            MulOp::create(b, loc, aux.loadBalancing(r), aux.scalar(auxCoef)));
      if (zCoef != 0)
        loss = AddOp::create(
            b, loc, loss,
            MulOp::create(b, loc, aux.zLoss(r), aux.scalar(zCoef)));
    }
    ret->setOperand(0, loss);
  }
};

} // namespace

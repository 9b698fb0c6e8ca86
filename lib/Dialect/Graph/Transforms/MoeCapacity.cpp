//===- MoeCapacity.cpp - Experts' capacity: dropping picks ------*- C++ -*-===//
//
// paracc-moe-capacity (see Passes.td): each expert takes at most C picks
// per sequence, in token order; the routing weights of the picks beyond
// are zeroed with ordinary graph ops, so autodiff (no gradient reaches a
// dropped pick's weight) and partitioning (sequences stay whole on a rank
// under data and expert parallelism) treat them like the rest of the
// graph.
//
//===----------------------------------------------------------------------===//

#include "MoeCapacity.h"

#include "paracc/Dialect/Graph/IR/ScalarConstant.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include <cmath>

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_MOECAPACITYPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

FailureOr<ExpertCapacity> mlir::paracc::graph::expertCapacity(MoeExpertsOp moe,
                                                              double factor) {
  auto x = cast<RankedTensorType>(moe.getX().getType());
  const int64_t tokens = x.getDimSize(0);
  // The sequences: the tokens as the model flattened them.
  auto flatten = moe.getX().getDefiningOp<ReshapeOp>();
  auto source = flatten ? cast<RankedTensorType>(flatten.getX().getType())
                        : RankedTensorType();
  if (!source || source.getRank() != 3 || !source.hasStaticShape() ||
      source.getDimSize(0) * source.getDimSize(1) != tokens)
    return moe.emitError("--moe-capacity-factor counts each expert's picks "
                         "per sequence, but this experts op's tokens ")
           << x << " are not a reshape of [batch, seq, hidden]";
  ExpertCapacity c;
  c.groups = source.getDimSize(0);
  c.groupTokens = source.getDimSize(1);
  const double slots = double(c.groupTokens) * double(moe.getTopK());
  c.capacity = std::max<int64_t>(
      1, int64_t(std::ceil(factor * slots / double(moe.getNumExperts()))));
  return c;
}

Value mlir::paracc::graph::picksPerTokenAndExpert(OpBuilder &b, Location loc,
                                                  MoeExpertsOp moe) {
  auto indices = cast<RankedTensorType>(moe.getIndices().getType());
  const int64_t tokens = indices.getDimSize(0), k = indices.getDimSize(1),
                experts = moe.getNumExperts();
  auto i64 = b.getI64Type();
  auto f32 = b.getF32Type();
  auto expertIds = RankedTensorType::get({experts}, i64);
  SmallVector<int64_t> idValues =
      llvm::to_vector(llvm::seq<int64_t>(0, experts));
  Value ids = ConstantOp::create(
      b, loc, expertIds,
      DenseElementsAttr::get(expertIds, ArrayRef<int64_t>(idValues)));
  Value picks = ReshapeOp::create(
      b, loc, RankedTensorType::get({tokens, k, 1}, i64), moe.getIndices());
  Value hit = EqualOp::create(
      b, loc, RankedTensorType::get({tokens, k, experts}, b.getI1Type()), picks,
      ids);
  Value hits = CastOp::create(
      b, loc, RankedTensorType::get({tokens, k, experts}, f32), hit);
  return ReduceSumOp::create(b, loc, hits, ArrayRef<int64_t>{1}, false);
}

namespace {

class MoeCapacityPass
    : public graph::impl::MoeCapacityPassBase<MoeCapacityPass> {
public:
  using MoeCapacityPassBase::MoeCapacityPassBase;

  void runOnOperation() override {
    if (capacityFactor <= 0) {
      getOperation().emitError("--moe-capacity-factor must be positive, got ")
          << capacityFactor.getValue();
      return signalPassFailure();
    }
    SmallVector<MoeExpertsOp> layers;
    getOperation().walk([&](MoeExpertsOp moe) { layers.push_back(moe); });
    if (layers.empty()) {
      getOperation().emitOpError("has no graph.moe_experts: "
                                 "--moe-capacity-factor needs a mixture of "
                                 "experts");
      return signalPassFailure();
    }
    for (MoeExpertsOp moe : layers)
      if (failed(dropBeyondCapacity(moe)))
        return signalPassFailure();
  }

private:
  /// weights x keep, keep[t, j] = 1 when token t's pick j is among the
  /// first C picks of its expert in t's sequence, in token order.
  LogicalResult dropBeyondCapacity(MoeExpertsOp moe) {
    FailureOr<ExpertCapacity> c = expertCapacity(moe, capacityFactor);
    if (failed(c))
      return failure();
    OpBuilder b(moe);
    Location loc = moe.getLoc();
    auto f32 = b.getF32Type();
    const int64_t experts = moe.getNumExperts(),
                  tokens = c->groups * c->groupTokens;
    Value hits = picksPerTokenAndExpert(b, loc, moe);
    // Each pick's place in its expert's queue: the picks of the tokens up
    // to it in its sequence (inclusive).
    auto grouped =
        RankedTensorType::get({c->groups, c->groupTokens, experts}, f32);
    Value place = CumSumOp::create(
        b, loc, grouped, ReshapeOp::create(b, loc, grouped, hits),
        b.getI64IntegerAttr(1), b.getBoolAttr(false), b.getBoolAttr(false));
    auto perToken = RankedTensorType::get({tokens, experts}, f32);
    place = ReshapeOp::create(b, loc, perToken, place);
    Value fits = LessEqualOp::create(
        b, loc, perToken.clone(b.getI1Type()), place,
        createScalarConstant(b, loc, f32, double(c->capacity)));
    Value kept =
        GatherElementsOp::create(b, loc, CastOp::create(b, loc, perToken, fits),
                                 moe.getIndices(), b.getI64IntegerAttr(1));
    auto weights = cast<RankedTensorType>(moe.getWeights().getType());
    if (weights.getElementType() != f32)
      kept = CastOp::create(b, loc, weights, kept);
    Value routed = MulOp::create(b, loc, weights, moe.getWeights(), kept);
    moe.getWeightsMutable().assign(routed);
    return success();
  }
};

} // namespace

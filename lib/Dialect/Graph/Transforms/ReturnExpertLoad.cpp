//===- ReturnExpertLoad.cpp - A training step's routing statistic ---------===//
//
// Returns how many (token, pick) slots each mixture of experts' router sent
// to each expert (see Passes.td), for the training loop's routing stats.
//
//===----------------------------------------------------------------------===//

#include "MoeCapacity.h"

#include "paracc/Dialect/Graph/IR/ScalarConstant.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_RETURNEXPERTLOADPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

class ReturnExpertLoadPass
    : public graph::impl::ReturnExpertLoadPassBase<ReturnExpertLoadPass> {
public:
  using ReturnExpertLoadPassBase::ReturnExpertLoadPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<MoeExpertsOp> layers;
    func.walk([&](MoeExpertsOp moe) { layers.push_back(moe); });
    if (layers.empty())
      return;
    const int64_t experts = layers.front().getNumExperts();
    for (MoeExpertsOp moe : layers)
      if (moe.getNumExperts() != experts) {
        moe.emitRemark("experts per layer differ (")
            << experts << " and " << moe.getNumExperts()
            << "): no routing statistics returned";
        return;
      }
    Block &body = func.getBody().front();
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    OpBuilder b(ret);
    Location loc = ret.getLoc();
    auto row = RankedTensorType::get({1, experts}, b.getF32Type());
    SmallVector<Value> rows, dropped;
    for (MoeExpertsOp moe : layers) {
      if (capacityFactor > 0) {
        FailureOr<Value> d = droppedPicks(b, moe);
        if (failed(d))
          return signalPassFailure();
        b.setInsertionPoint(ret);
        dropped.push_back(ReshapeOp::create(
            b, loc, RankedTensorType::get({1}, b.getF32Type()), *d));
      }
      // Counted where the layer runs (its pipeline stage and micro-batch).
      b.setInsertionPointAfter(moe);
      auto load = ExpertLoadOp::create(
          b, moe.getLoc(), RankedTensorType::get({experts}, b.getF32Type()),
          moe.getIndices());
      load->setDiscardableAttrs(moe->getDiscardableAttrDictionary());
      b.setInsertionPoint(ret);
      rows.push_back(ReshapeOp::create(b, loc, row, load));
    }
    if (failed(appendResult(func, ret, stacked(b, loc, rows), "expert_tokens")))
      return signalPassFailure();
    if (dropped.empty())
      return;
    if (failed(appendResult(func, ret, stacked(b, loc, dropped),
                            "expert_dropped")))
      return signalPassFailure();
  }

private:
  /// The layers' rows one after the other (dim 0).
  static Value stacked(OpBuilder &b, Location loc, ArrayRef<Value> rows) {
    return rows.size() == 1
               ? rows.front()
               : Value(ConcatOp::create(b, loc, rows, b.getI64IntegerAttr(0)));
  }

  static LogicalResult appendResult(func::FuncOp func, func::ReturnOp ret,
                                    Value value, StringRef name) {
    Builder b(func.getContext());
    if (failed(func.insertResult(func.getNumResults(), value.getType(),
                                 b.getDictionaryAttr({b.getNamedAttr(
                                     kNameAttrName, b.getStringAttr(name))}))))
      return func.emitOpError("cannot add the ") << name << " result";
    ret.getOperandsMutable().append(value);
    return success();
  }

  /// The picks of `moe` beyond its experts' capacity (a 0-d f32): the sum
  /// over sequences and experts of max(picks - C, 0), built after the op
  /// with its pipeline-stage and micro-batch attributes.
  FailureOr<Value> droppedPicks(OpBuilder &b, MoeExpertsOp moe) {
    FailureOr<ExpertCapacity> c = expertCapacity(moe, capacityFactor);
    if (failed(c))
      return failure();
    b.setInsertionPointAfter(moe);
    Location loc = moe.getLoc();
    const int64_t experts = moe.getNumExperts();
    auto f32 = b.getF32Type();
    Value hits = picksPerTokenAndExpert(b, loc, moe);
    Value perSequence = ReduceSumOp::create(
        b, loc,
        ReshapeOp::create(
            b, loc,
            RankedTensorType::get({c->groups, c->groupTokens, experts}, f32),
            hits),
        ArrayRef<int64_t>{1}, false);
    Value over =
        SubOp::create(b, loc, perSequence.getType(), perSequence,
                      createScalarConstant(b, loc, f32, double(c->capacity)));
    over = MaxOp::create(b, loc, over.getType(), over,
                         createScalarConstant(b, loc, f32, 0.0));
    Value total =
        ReduceSumOp::create(b, loc, over, ArrayRef<int64_t>{0, 1}, false);
    // Counted where the layer runs (its pipeline stage and micro-batch).
    for (Operation *op = moe->getNextNode();
         op != total.getDefiningOp()->getNextNode(); op = op->getNextNode())
      op->setDiscardableAttrs(moe->getDiscardableAttrDictionary());
    return total;
  }
};

} // namespace

//===- ReturnExpertLoad.cpp - A training step's routing statistic ---------===//
//
// Returns how many (token, pick) slots each mixture of experts' router sent
// to each expert (see Passes.td), for the training loop's routing stats.
//
//===----------------------------------------------------------------------===//

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
    SmallVector<Value> rows;
    for (MoeExpertsOp moe : layers) {
      // Counted where the layer runs (its pipeline stage and micro-batch).
      b.setInsertionPointAfter(moe);
      auto load = ExpertLoadOp::create(
          b, moe.getLoc(), RankedTensorType::get({experts}, b.getF32Type()),
          moe.getIndices());
      load->setDiscardableAttrs(moe->getDiscardableAttrDictionary());
      b.setInsertionPoint(ret);
      rows.push_back(ReshapeOp::create(b, loc, row, load));
    }
    Value table =
        rows.size() == 1
            ? rows.front()
            : Value(ConcatOp::create(b, loc, rows, b.getI64IntegerAttr(0)));
    const unsigned n = func.getNumResults();
    if (failed(func.insertResult(
            n, table.getType(),
            b.getDictionaryAttr({b.getNamedAttr(
                kNameAttrName, b.getStringAttr("expert_tokens"))})))) {
      func.emitOpError("cannot add the expert_tokens result");
      return signalPassFailure();
    }
    ret.getOperandsMutable().append(table);
  }
};

} // namespace

//===- IndexingRules.cpp - ONNX gathers and losses -------------*- C++ -*-===//
//
// Gather, GatherElements, GatherND, and the losses that index by label
// (SoftmaxCrossEntropyLoss, NegativeLogLikelihoodLoss).
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

template <typename OpTy> static LogicalResult importGather(NodeContext &c) {
  ASSIGN_OR_FAIL(Value data, c.input(0));
  ASSIGN_OR_FAIL(Value indices, c.input(1));
  ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(c.intAttr("axis", 0),
                                               tensorType(data).getRank()));
  ASSIGN_OR_FAIL(Value y, c.build<OpTy>(data, indices, axis));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importGatherND(NodeContext &c) {
  ASSIGN_OR_FAIL(Value data, c.input(0));
  ASSIGN_OR_FAIL(Value indices, c.input(1));
  ASSIGN_OR_FAIL(Value y,
                 c.build<g::GatherNDOp>(data, indices,
                                        c.intAttr("batch_dims", 0)));
  c.setOutput(0, y);
  return success();
}

/// SoftmaxCrossEntropyLoss and NegativeLogLikelihoodLoss.
template <typename OpTy> static LogicalResult importLoss(NodeContext &c) {
  ASSIGN_OR_FAIL(Value scores, c.input(0));
  ASSIGN_OR_FAIL(Value labels, c.input(1));
  Value weight;
  if (c.hasInput(2)) {
    ASSIGN_OR_FAIL(weight, c.input(2));
  }
  std::string reduction = c.stringAttr("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return c.error("reduction must be none, sum or mean, got '" + reduction +
                   "'");
  auto st = tensorType(scores);
  if (st.getRank() < 2)
    return c.error("scores must have rank >= 2");
  SmallVector<int64_t> lossShape;
  if (reduction == "none") {
    lossShape.assign(st.getShape().begin(), st.getShape().end());
    lossShape.erase(lossShape.begin() + 1);
  }
  SmallVector<Type> types = {st.clone(lossShape)};
  bool withLogProb = std::is_same_v<OpTy, g::SoftmaxCrossEntropyOp> &&
                     c.hasOutput(1);
  if (withLogProb)
    types.push_back(st);
  Builder b(c.getContext());
  IntegerAttr ignore;
  if (c.hasAttr("ignore_index"))
    ignore = b.getI64IntegerAttr(c.intAttr("ignore_index", 0));
  auto op = c.buildTyped<OpTy>(types, scores, labels, weight,
                               b.getStringAttr(reduction), ignore);
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  if (withLogProb)
    c.setOutput(1, (*op)->getResult(1));
  return success();
}

void mlir::paracc::onnximport::registerIndexingRules(RuleTable &t) {
  t.add("Gather", 1, importGather<g::GatherOp>);
  t.add("GatherElements", 11, importGather<g::GatherElementsOp>);
  t.add("GatherND", 11, importGatherND);
  t.add("SoftmaxCrossEntropyLoss", 12, importLoss<g::SoftmaxCrossEntropyOp>);
  t.add("NegativeLogLikelihoodLoss", 12, importLoss<g::NllLossOp>);
}

//===- NormalizationRules.cpp - ONNX norms and softmax ---------*- C++ -*-===//
//
// LayerNormalization (with its optional Mean/InvStdDev outputs), Softmax and
// LogSoftmax in both their pre-13 (flatten to 2-D) and 13+ (one axis) forms.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

/// The statistics outputs of LayerNormalization: mean and 1/sqrt(var+eps)
/// over [axis, rank), with the reduced dims kept, in the stash type.
static LogicalResult importLayerNormStats(NodeContext &c, Value x,
                                          int64_t axis, double epsilon) {
  Type stash = elementTypeFromOnnx(c.getContext(), c.intAttr("stash_type", 1));
  if (!stash || !isa<FloatType>(stash))
    return c.unsupported("stash_type");
  ASSIGN_OR_FAIL(Value xs, c.castTo(x, stash));
  int64_t rank = tensorType(x).getRank();
  SmallVector<int64_t> axes;
  for (int64_t d = axis; d < rank; ++d)
    axes.push_back(d);
  ASSIGN_OR_FAIL(Value mean, c.build<g::ReduceMeanOp>(xs, axes, true));
  ASSIGN_OR_FAIL(Value centered, binary<g::SubOp>(c, xs, mean));
  ASSIGN_OR_FAIL(Value sq, binary<g::MulOp>(c, centered, centered));
  ASSIGN_OR_FAIL(Value var, c.build<g::ReduceMeanOp>(sq, axes, true));
  ASSIGN_OR_FAIL(Value ve,
                 binary<g::AddOp>(c, var, scalarLike(c, var, epsilon)));
  ASSIGN_OR_FAIL(Value invStd, unary<g::RsqrtOp>(c, ve));
  c.setOutput(1, mean);
  c.setOutput(2, invStd);
  return success();
}

static LogicalResult importLayerNormalization(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value scale, c.input(1));
  Value bias;
  if (c.hasInput(2)) {
    ASSIGN_OR_FAIL(bias, c.input(2));
  }
  int64_t rank = tensorType(x).getRank();
  ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(c.intAttr("axis", -1), rank));
  double epsilon = c.floatAttr("epsilon", 1e-5);
  Builder b(c.getContext());
  auto op = c.buildTyped<g::LayerNormOp>(x.getType(), x, scale, bias,
                                         b.getI64IntegerAttr(axis),
                                         b.getF64FloatAttr(epsilon));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  if (c.hasOutput(1) || c.hasOutput(2))
    return importLayerNormStats(c, x, axis, epsilon);
  return success();
}

template <typename OpTy> static LogicalResult importSoftmax(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto type = tensorType(x);
  int64_t rank = type.getRank();
  Builder b(c.getContext());
  if (c.opset >= 13) {
    ASSIGN_OR_FAIL(int64_t axis,
                   c.normalizeAxis(c.intAttr("axis", -1), std::max<int64_t>(rank, 1)));
    if (rank == 0)
      return c.error("requires an input of rank >= 1");
    auto op = c.buildTyped<OpTy>(x.getType(), x, b.getI64IntegerAttr(axis));
    if (failed(op))
      return failure();
    c.setOutput(0, (*op)->getResult(0));
    return success();
  }
  // Before opset 13 the input is coerced to 2-D at `axis`.
  ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(c.intAttr("axis", 1), rank));
  int64_t rows = 1, cols = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? rows : cols) *= type.getDimSize(d);
  ASSIGN_OR_FAIL(Value flat, c.reshapeTo(x, {rows, cols}));
  auto op = c.buildTyped<OpTy>(flat.getType(), flat, b.getI64IntegerAttr(1));
  if (failed(op))
    return failure();
  ASSIGN_OR_FAIL(Value y, c.reshapeTo((*op)->getResult(0), type.getShape()));
  c.setOutput(0, y);
  return success();
}

void mlir::paracc::onnximport::registerNormalizationRules(RuleTable &t) {
  t.add("LayerNormalization", 17, importLayerNormalization);
  t.add("Softmax", 1, importSoftmax<g::SoftmaxOp>);
  t.add("LogSoftmax", 1, importSoftmax<g::LogSoftmaxOp>);
}

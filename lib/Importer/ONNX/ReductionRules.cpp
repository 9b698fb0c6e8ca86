//===- ReductionRules.cpp - ONNX reductions --------------------*- C++ -*-===//
//
// ReduceSum/Mean/Max/Min/Prod and the composite reductions (L1, L2, LogSum,
// LogSumExp, SumSquare), with axes as an attribute or (from opset 13 for
// ReduceSum, 18 for the others) an input; ArgMax and ArgMin.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

namespace {
enum class Composite { None, L1, L2, LogSum, LogSumExp, SumSquare };
} // namespace

/// The reduced axes; nullopt means "no reduction" (noop_with_empty_axes).
static FailureOr<std::optional<SmallVector<int64_t>>>
reductionAxes(NodeContext &c, int64_t rank, int axesInputSince) {
  bool asInput = c.opset >= axesInputSince;
  ASSIGN_OR_FAIL(SmallVector<int64_t> axes, readAxes(c, rank, asInput, 1));
  if (axes.empty()) {
    if (asInput && c.intAttr("noop_with_empty_axes", 0))
      return std::optional<SmallVector<int64_t>>();
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  return std::optional<SmallVector<int64_t>>(axes);
}

template <typename OpTy, Composite Kind = Composite::None,
          int AxesInputSince = 18>
static LogicalResult importReduce(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  int64_t rank = tensorType(x).getRank();
  ASSIGN_OR_FAIL(auto axes, reductionAxes(c, rank, AxesInputSince));
  bool keepdims = c.intAttr("keepdims", 1);
  bool isFloat = isa<FloatType>(elementType(x));
  if (Kind != Composite::None && Kind != Composite::L1 &&
      Kind != Composite::SumSquare && !isFloat)
    return c.unsupported("integer input");
  // Pre-processing of the composite reductions.
  Value input = x;
  if (Kind == Composite::L1) {
    ASSIGN_OR_FAIL(input, unary<g::AbsOp>(c, x));
  } else if (Kind == Composite::L2 || Kind == Composite::SumSquare) {
    ASSIGN_OR_FAIL(input, binary<g::MulOp>(c, x, x));
  }
  Value max;
  if (Kind == Composite::LogSumExp) {
    if (!axes) {
      ASSIGN_OR_FAIL(Value e, unary<g::ExpOp>(c, x));
      ASSIGN_OR_FAIL(Value y, unary<g::LogOp>(c, e));
      c.setOutput(0, y);
      return success();
    }
    // log(sum(exp(x - max))) + max, stable for large x.
    ASSIGN_OR_FAIL(max, c.build<g::ReduceMaxOp>(x, *axes, true));
    ASSIGN_OR_FAIL(Value shifted, binary<g::SubOp>(c, x, max));
    ASSIGN_OR_FAIL(input, unary<g::ExpOp>(c, shifted));
  }
  if (!axes) {
    c.setOutput(0, input);
    if (Kind == Composite::L2) {
      ASSIGN_OR_FAIL(Value y, unary<g::SqrtOp>(c, input));
      c.setOutput(0, y);
    } else if (Kind == Composite::LogSum) {
      ASSIGN_OR_FAIL(Value y, unary<g::LogOp>(c, input));
      c.setOutput(0, y);
    }
    return success();
  }
  bool keep = keepdims || Kind == Composite::LogSumExp;
  ASSIGN_OR_FAIL(Value y, c.build<OpTy>(input, *axes, keep));
  if (Kind == Composite::L2) {
    ASSIGN_OR_FAIL(y, unary<g::SqrtOp>(c, y));
  } else if (Kind == Composite::LogSum || Kind == Composite::LogSumExp) {
    ASSIGN_OR_FAIL(y, unary<g::LogOp>(c, y));
  }
  if (Kind == Composite::LogSumExp) {
    ASSIGN_OR_FAIL(y, binary<g::AddOp>(c, y, max));
    if (!keepdims) {
      SmallVector<int64_t> shape;
      for (auto [d, size] : llvm::enumerate(tensorType(x).getShape()))
        if (!llvm::is_contained(*axes, int64_t(d)))
          shape.push_back(size);
      ASSIGN_OR_FAIL(y, c.reshapeTo(y, shape));
    }
  }
  c.setOutput(0, y);
  return success();
}

template <typename OpTy> static LogicalResult importArgReduce(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(c.intAttr("axis", 0),
                                               tensorType(x).getRank()));
  ASSIGN_OR_FAIL(Value y,
                 c.build<OpTy>(x, axis, c.intAttr("keepdims", 1) != 0,
                               c.intAttr("select_last_index", 0) != 0));
  c.setOutput(0, y);
  return success();
}

/// TopK: k is an attribute before opset 10, then a constant 1-element input.
static LogicalResult importTopK(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(c.intAttr("axis", -1),
                                               tensorType(x).getRank()));
  int64_t k = c.intAttr("k", -1);
  if (c.opset >= 10) {
    ASSIGN_OR_FAIL(SmallVector<int64_t> ks, c.intsInput(1, "K"));
    if (ks.size() != 1)
      return c.error("'K' must hold one value, got " +
                     std::to_string(ks.size()));
    k = ks[0];
  }
  Builder b(c.getContext());
  SmallVector<Type> types;
  if (failed(g::inferTopK(c.getContext(), c.loc, x.getType(), axis, k, types)))
    return failure();
  auto op = c.buildTyped<g::TopKOp>(types, x, b.getI64IntegerAttr(axis),
                                    b.getI64IntegerAttr(k),
                                    b.getBoolAttr(c.intAttr("largest", 1) != 0),
                                    b.getBoolAttr(c.intAttr("sorted", 1) != 0));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  c.setOutput(1, (*op)->getResult(1));
  return success();
}

void mlir::paracc::onnximport::registerReductionRules(RuleTable &t) {
  t.add("ReduceSum", 1, importReduce<g::ReduceSumOp, Composite::None, 13>);
  t.add("ReduceMean", 1, importReduce<g::ReduceMeanOp>);
  t.add("ReduceMax", 1, importReduce<g::ReduceMaxOp>);
  t.add("ReduceMin", 1, importReduce<g::ReduceMinOp>);
  t.add("ReduceProd", 1, importReduce<g::ReduceProdOp>);
  t.add("ReduceL1", 1, importReduce<g::ReduceSumOp, Composite::L1>);
  t.add("ReduceL2", 1, importReduce<g::ReduceSumOp, Composite::L2>);
  t.add("ReduceLogSum", 1, importReduce<g::ReduceSumOp, Composite::LogSum>);
  t.add("ReduceLogSumExp", 1,
        importReduce<g::ReduceSumOp, Composite::LogSumExp>);
  t.add("ReduceSumSquare", 1,
        importReduce<g::ReduceSumOp, Composite::SumSquare>);
  t.add("ArgMax", 1, importArgReduce<g::ArgMaxOp>);
  t.add("ArgMin", 1, importArgReduce<g::ArgMinOp>);
  t.add("TopK", 1, importTopK);
}

//===- LinalgRules.cpp - ONNX MatMul and Gemm ------------------*- C++ -*-===//

#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

static LogicalResult importMatMul(NodeContext &c) {
  ASSIGN_OR_FAIL(Value a, c.input(0));
  ASSIGN_OR_FAIL(Value b, c.input(1));
  ASSIGN_OR_FAIL(Value y, c.build<g::MatMulOp>(a, b));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importGemm(NodeContext &c) {
  ASSIGN_OR_FAIL(Value a, c.input(0));
  ASSIGN_OR_FAIL(Value b, c.input(1));
  Value bias;
  if (c.hasInput(2)) {
    ASSIGN_OR_FAIL(bias, c.input(2));
  }
  Builder builder(c.getContext());
  ASSIGN_OR_FAIL(Value y,
                 c.build<g::GemmOp>(
                     a, b, bias, builder.getBoolAttr(c.intAttr("transA", 0)),
                     builder.getBoolAttr(c.intAttr("transB", 0)),
                     builder.getF64FloatAttr(c.floatAttr("alpha", 1.0)),
                     builder.getF64FloatAttr(c.floatAttr("beta", 1.0))));
  c.setOutput(0, y);
  return success();
}

void mlir::paracc::onnximport::registerLinalgRules(RuleTable &t) {
  t.add("MatMul", 1, importMatMul);
  t.add("Gemm", 7, importGemm);
}

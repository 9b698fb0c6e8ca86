//===- ScalarConstant.cpp - Rank-0 graph.constant builder -----------------===//

#include "paracc/Dialect/Graph/IR/ScalarConstant.h"

#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

Value mlir::paracc::graph::createScalarConstant(OpBuilder &b, Location loc,
                                                Type elementType,
                                                double value) {
  auto tensor = RankedTensorType::get({}, elementType);
  if (isa<FloatType>(elementType))
    return ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(tensor,
                               b.getFloatAttr(elementType, value).getValue()));
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(tensor, APInt(elementType.getIntOrFloatBitWidth(),
                                           uint64_t(int64_t(value)),
                                           /*isSigned=*/true)));
}

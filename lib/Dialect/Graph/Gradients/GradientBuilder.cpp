//===- GradientBuilder.cpp - Helpers for writing gradient rules -*- C++ -*-===//

#include "GradientBuilder.h"
#include "paracc/Dialect/Graph/IR/ScalarConstant.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::paracc::graph;

#include "paracc/Dialect/Graph/IR/GradientInterface.cpp.inc"

Value GradientBuilder::sumToShape(Value grad, ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> from = shapeOf(grad);
  if (from == shape)
    return grad;
  size_t lead = from.size() - shape.size();
  SmallVector<int64_t> axes;
  for (size_t d = 0; d < from.size(); ++d)
    if (d < lead || (shape[d - lead] == 1 && from[d] != 1))
      axes.push_back(int64_t(d));
  Value summed = axes.empty() ? grad : sumKeep(grad, axes);
  return reshape(summed, shape);
}

Value GradientBuilder::sumKeep(Value x, ArrayRef<int64_t> axes) {
  return ReduceSumOp::create(b, loc, x, b.getDenseI64ArrayAttr(axes),
                             b.getBoolAttr(true));
}

Value GradientBuilder::scalar(Type type, double value) {
  return createScalarConstant(b, loc, type, value);
}

Value GradientBuilder::zeros(RankedTensorType type) {
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
}

Value GradientBuilder::reshape(Value x, ArrayRef<int64_t> shape) {
  if (shapeOf(x) == shape)
    return x;
  auto type = cast<RankedTensorType>(x.getType()).clone(shape);
  return ReshapeOp::create(b, loc, type, x);
}

Value GradientBuilder::expand(Value x, ArrayRef<int64_t> shape) {
  if (shapeOf(x) == shape)
    return x;
  auto type = cast<RankedTensorType>(x.getType()).clone(shape);
  return ExpandOp::create(b, loc, type, x);
}

Value GradientBuilder::transpose(Value x, ArrayRef<int64_t> perm) {
  return TransposeOp::create(b, loc, x, b.getDenseI64ArrayAttr(perm));
}

Value GradientBuilder::transposeLastTwo(Value x) {
  SmallVector<int64_t> perm;
  int64_t rank = shapeOf(x).size();
  for (int64_t d = 0; d < rank; ++d)
    perm.push_back(d);
  std::swap(perm[rank - 1], perm[rank - 2]);
  return transpose(x, perm);
}

Value GradientBuilder::maskOrZero(Value cond, Value x) {
  return WhereOp::create(b, loc, cond, x, scalarLike(x, 0.0));
}

void mlir::paracc::graph::registerGraphGradientRules(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, GraphDialect *) {
    registerElementwiseGradients(ctx);
    registerShapeGradients(ctx);
    registerNetworkGradients(ctx);
    registerConvolutionGradients(ctx);
    registerMoeGradients(ctx);
  });
}

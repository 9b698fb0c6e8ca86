//===- ShapeGradients.cpp - Gradients of data-movement ops ------*- C++ -*-===//
//
// Gradient rules of reshape, transpose, slice, concat, split, expand and the
// summing reductions: each moves the gradient back to where the forward op
// took its elements from.
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"

using namespace mlir;
using namespace mlir::paracc::graph;

namespace {
using Grads = MutableArrayRef<Value>;
using ResultGrads = ArrayRef<Value>;

LogicalResult reshapeGrad(GradientBuilder &g, ReshapeOp op, ResultGrads dy,
                          Grads dx) {
  if (g.isFloat(op.getX()))
    dx[0] = g.reshapeLike(dy[0], op.getX());
  return success();
}

LogicalResult transposeGrad(GradientBuilder &g, TransposeOp op, ResultGrads dy,
                            Grads dx) {
  if (!g.isFloat(op.getX()))
    return success();
  ArrayRef<int64_t> perm = op.getPerm();
  SmallVector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inverse[perm[i]] = int64_t(i);
  dx[0] = g.transpose(dy[0], inverse);
  return success();
}

/// The gradient of a unit-step slice: the result's gradient padded with
/// zeros back to the operand's shape, one concatenation per sliced dim.
LogicalResult sliceGrad(GradientBuilder &g, SliceOp op, ResultGrads dy,
                        Grads dx) {
  if (!g.isFloat(op.getX()))
    return success();
  ArrayRef<int64_t> in = g.shapeOf(op.getX());
  for (int64_t step : op.getSteps())
    if (step != 1)
      return op.emitOpError("has no gradient rule for steps other than 1");
  Value grad = dy[0];
  auto type = cast<RankedTensorType>(dy[0].getType());
  for (size_t d = 0; d < in.size(); ++d) {
    int64_t start = op.getStarts()[d];
    int64_t size = g.shapeOf(grad)[d];
    int64_t after = in[d] - start - size;
    if (start == 0 && after == 0)
      continue;
    SmallVector<Value> pieces;
    auto padding = [&](int64_t n) {
      SmallVector<int64_t> shape(g.shapeOf(grad));
      shape[d] = n;
      return g.zeros(type.clone(shape));
    };
    if (start > 0)
      pieces.push_back(padding(start));
    pieces.push_back(grad);
    if (after > 0)
      pieces.push_back(padding(after));
    grad = ConcatOp::create(g.b, g.loc, pieces, g.b.getI64IntegerAttr(d));
  }
  dx[0] = grad;
  return success();
}

LogicalResult concatGrad(GradientBuilder &g, ConcatOp op, ResultGrads dy,
                         Grads dx) {
  if (!g.isFloat(op.getResult()))
    return success();
  int64_t axis = op.getAxis();
  ArrayRef<int64_t> out = g.shapeOf(op.getResult());
  int64_t offset = 0;
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    ArrayRef<int64_t> shape = g.shapeOf(input);
    SmallVector<int64_t> starts(out.size(), 0), limits(out),
        steps(out.size(), 1);
    starts[axis] = offset;
    limits[axis] = offset + shape[axis];
    offset += shape[axis];
    dx[i] = SliceOp::create(g.b, g.loc, dy[0], g.b.getDenseI64ArrayAttr(starts),
                            g.b.getDenseI64ArrayAttr(limits),
                            g.b.getDenseI64ArrayAttr(steps));
  }
  return success();
}

LogicalResult splitGrad(GradientBuilder &g, SplitOp op, ResultGrads dy,
                        Grads dx) {
  if (!g.isFloat(op.getX()))
    return success();
  SmallVector<Value> pieces;
  for (auto [r, grad] : llvm::zip(op.getResults(), dy))
    pieces.push_back(grad ? grad
                          : g.zeros(cast<RankedTensorType>(r.getType())));
  dx[0] = ConcatOp::create(g.b, g.loc, pieces, op.getAxisAttr());
  return success();
}

LogicalResult expandGrad(GradientBuilder &g, ExpandOp op, ResultGrads dy,
                         Grads dx) {
  if (g.isFloat(op.getX()))
    dx[0] = g.sumTo(dy[0], op.getX());
  return success();
}

/// reduce_sum / reduce_mean: the gradient broadcast back over the reduced
/// axes (divided by their element count for the mean).
template <typename OpTy>
LogicalResult reduceGrad(GradientBuilder &g, OpTy op, ResultGrads dy, Grads dx,
                         bool mean) {
  if (!g.isFloat(op.getX()))
    return success();
  ArrayRef<int64_t> in = g.shapeOf(op.getX());
  SmallVector<int64_t> kept(in);
  int64_t count = 1;
  for (int64_t axis : op.getAxes()) {
    kept[axis] = 1;
    count *= in[axis];
  }
  Value grad = g.reshape(dy[0], kept);
  if (mean)
    grad = g.div(grad, g.scalarLike(grad, double(count)));
  dx[0] = g.expand(grad, in);
  return success();
}

LogicalResult reduceSumGrad(GradientBuilder &g, ReduceSumOp op, ResultGrads dy,
                            Grads dx) {
  return reduceGrad(g, op, dy, dx, /*mean=*/false);
}

LogicalResult reduceMeanGrad(GradientBuilder &g, ReduceMeanOp op,
                             ResultGrads dy, Grads dx) {
  return reduceGrad(g, op, dy, dx, /*mean=*/true);
}

/// reduce_max / reduce_min: the gradient goes to the elements equal to the
/// result, shared equally among ties (as JAX's max and PyTorch's amax do).
template <typename OpTy>
LogicalResult reduceChooserGrad(GradientBuilder &g, OpTy op, ResultGrads dy,
                                Grads dx) {
  if (!g.isFloat(op.getX()))
    return success();
  ArrayRef<int64_t> in = g.shapeOf(op.getX());
  SmallVector<int64_t> kept(in);
  for (int64_t axis : op.getAxes())
    kept[axis] = 1;
  Value chosen = g.expand(g.reshape(op.getResult(), kept), in);
  Value isChosen = EqualOp::create(g.b, g.loc, op.getX(), chosen);
  Value ones = CastOp::create(g.b, g.loc, op.getX().getType(), isChosen);
  Value share = g.div(g.reshape(dy[0], kept), g.sumKeep(ones, op.getAxes()));
  dx[0] = g.maskOrZero(isChosen, g.expand(share, in));
  return success();
}

LogicalResult reduceMaxGrad(GradientBuilder &g, ReduceMaxOp op, ResultGrads dy,
                            Grads dx) {
  return reduceChooserGrad(g, op, dy, dx);
}

LogicalResult reduceMinGrad(GradientBuilder &g, ReduceMinOp op, ResultGrads dy,
                            Grads dx) {
  return reduceChooserGrad(g, op, dy, dx);
}

} // namespace

void mlir::paracc::graph::registerShapeGradients(MLIRContext *ctx) {
  attachRule<ReshapeOp, reshapeGrad>(ctx);
  attachRule<TransposeOp, transposeGrad>(ctx);
  attachRule<SliceOp, sliceGrad>(ctx);
  attachRule<ConcatOp, concatGrad>(ctx);
  attachRule<SplitOp, splitGrad>(ctx);
  attachRule<ExpandOp, expandGrad>(ctx);
  attachRule<ReduceSumOp, reduceSumGrad>(ctx);
  attachRule<ReduceMeanOp, reduceMeanGrad>(ctx);
  attachRule<ReduceMaxOp, reduceMaxGrad>(ctx);
  attachRule<ReduceMinOp, reduceMinGrad>(ctx);
}

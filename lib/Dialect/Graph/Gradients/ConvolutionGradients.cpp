//===- ConvolutionGradients.cpp - Gradient rules of the window ops --------===//
//
// graph.conv and graph.conv_transpose are each other's adjoints in the input:
// conv's input gradient is conv_transpose(dy, w) and conv_transpose's is
// conv(dy, w). Both weights' gradients are graph.conv_weight_grad (with the
// roles of operand and gradient swapped for the transpose), the biases' the
// sum of dy over all but the channel dim. graph.pool's is graph.pool_grad.
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"

using namespace mlir;
using namespace mlir::paracc::graph;

namespace {

using ResultGrads = ArrayRef<Value>;
using Grads = MutableArrayRef<Value>;

/// A bias's gradient: `dy` [N, M, spatial...] summed to [M].
Value biasGrad(GradientBuilder &g, Value dy, Value bias) {
  SmallVector<int64_t> axes = {0};
  for (int64_t d = 2, rank = g.shapeOf(dy).size(); d < rank; ++d)
    axes.push_back(d);
  return g.reshapeLike(g.sumKeep(dy, axes), bias);
}

LogicalResult convGrad(GradientBuilder &g, ConvOp op, ResultGrads dy,
                       Grads dx) {
  dx[0] = ConvTransposeOp::create(
      g.b, g.loc, op.getX().getType(), dy[0], op.getW(), /*bias=*/Value(),
      op.getStridesAttr(), op.getPadsBeginAttr(), op.getPadsEndAttr(),
      op.getDilationsAttr(), op.getGroupAttr());
  dx[1] = ConvWeightGradOp::create(g.b, g.loc, op.getW().getType(), op.getX(),
                                   dy[0], op.getStridesAttr(),
                                   op.getPadsBeginAttr(), op.getPadsEndAttr(),
                                   op.getDilationsAttr(), op.getGroupAttr());
  if (op.getBias())
    dx[2] = biasGrad(g, dy[0], op.getBias());
  return success();
}

LogicalResult convTransposeGrad(GradientBuilder &g, ConvTransposeOp op,
                                ResultGrads dy, Grads dx) {
  dx[0] = ConvOp::create(g.b, g.loc, op.getX().getType(), dy[0], op.getW(),
                         /*bias=*/Value(), op.getStridesAttr(),
                         op.getPadsBeginAttr(), op.getPadsEndAttr(),
                         op.getDilationsAttr(), op.getGroupAttr());
  // The transposed convolution's result is the forward convolution's
  // operand, and its operand that convolution's result.
  dx[1] = ConvWeightGradOp::create(g.b, g.loc, op.getW().getType(), dy[0],
                                   op.getX(), op.getStridesAttr(),
                                   op.getPadsBeginAttr(), op.getPadsEndAttr(),
                                   op.getDilationsAttr(), op.getGroupAttr());
  if (op.getBias())
    dx[2] = biasGrad(g, dy[0], op.getBias());
  return success();
}

LogicalResult poolGrad(GradientBuilder &g, PoolOp op, ResultGrads dy,
                       Grads dx) {
  dx[0] = PoolGradOp::create(g.b, g.loc, op.getX().getType(), op.getX(), dy[0],
                             op.getKindAttr(), op.getKernelAttr(),
                             op.getStridesAttr(), op.getPadsBeginAttr(),
                             op.getPadsEndAttr(), op.getCountIncludePadAttr());
  return success();
}

} // namespace

void mlir::paracc::graph::registerConvolutionGradients(MLIRContext *ctx) {
  attachRule<ConvOp, convGrad>(ctx);
  attachRule<ConvTransposeOp, convTransposeGrad>(ctx);
  attachRule<PoolOp, poolGrad>(ctx);
}

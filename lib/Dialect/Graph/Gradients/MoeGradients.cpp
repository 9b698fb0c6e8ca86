//===- MoeGradients.cpp - Gradient rule of graph.moe_experts --------------===//
//
// graph.moe_experts' gradients of x, the routing weights and both stacked
// expert weights come from one graph.moe_experts_grad (it recomputes each
// expert's first projection); the indices, a selection, have none, so the
// router is differentiated through the weights it produced, as PyTorch
// does.
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"

using namespace mlir;
using namespace mlir::paracc::graph;

namespace {

LogicalResult moeExpertsGrad(GradientBuilder &g, MoeExpertsOp op,
                             ArrayRef<Value> dy, MutableArrayRef<Value> dx) {
  auto grad = MoeExpertsGradOp::create(
      g.b, g.loc, op.getX().getType(), op.getWeights().getType(),
      op.getWIn().getType(), op.getWOut().getType(), dy[0], op.getX(),
      op.getIndices(), op.getWeights(), op.getWIn(), op.getWOut(),
      op.getActivationAttr(), op.getGatedAttr());
  dx[0] = grad.getDx();
  dx[2] = grad.getDweights();
  dx[3] = grad.getDwIn();
  dx[4] = grad.getDwOut();
  return success();
}

} // namespace

void mlir::paracc::graph::registerMoeGradients(MLIRContext *ctx) {
  attachRule<MoeExpertsOp, moeExpertsGrad>(ctx);
}

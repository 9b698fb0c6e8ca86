//===- MoeVerifier.h - The checks of a mixture of experts' operands -------===//
//
// graph.moe_experts, its gradient and their expert-parallel forms in the
// dist dialect take the same operands; they share these checks.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_MOEVERIFIER_H
#define PARACC_DIALECT_GRAPH_IR_MOEVERIFIER_H

#include "mlir/IR/Operation.h"

namespace mlir::paracc::graph {

/// Checks x [T, H], indices (i64) and weights [T, k], w_in [E', F, H] and
/// w_out [E', H, I] (F = 2 I when `gated`), one floating-point element type
/// and the activation's name, for `op`. The E' experts in the tables are
/// 1/`groupSize` of the E that k may pick from (expert parallelism: each
/// member of a group holds its block).
LogicalResult verifyMoeOperands(Operation *op, Value x, Value indices,
                                Value weights, Value wIn, Value wOut,
                                bool gated, StringRef activation,
                                int64_t groupSize = 1);

/// A gradient op's types (graph.moe_experts_grad's, or its expert-parallel
/// form's): dy and dx of x's type, dweights, dw_in and dw_out of their
/// operands'.
template <typename GradOpT> LogicalResult verifyMoeGradientTypes(GradOpT op) {
  if (op.getDy().getType() != op.getX().getType() ||
      op.getDx().getType() != op.getX().getType() ||
      op.getDweights().getType() != op.getWeights().getType() ||
      op.getDwIn().getType() != op.getWIn().getType() ||
      op.getDwOut().getType() != op.getWOut().getType())
    return op.emitOpError("needs dy and dx of x's type and dweights, dw_in "
                          "and dw_out of their operands' types");
  return success();
}

} // namespace mlir::paracc::graph

#endif // PARACC_DIALECT_GRAPH_IR_MOEVERIFIER_H

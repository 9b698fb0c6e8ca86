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

} // namespace mlir::paracc::graph

#endif // PARACC_DIALECT_GRAPH_IR_MOEVERIFIER_H

//===- MoeCapacity.h - Experts' capacity per group of tokens ----*- C++ -*-===//
//
// The capacity a mixture of experts' layer gives each expert under
// `--moe-capacity-factor` (paracc-moe-capacity), and the graph ops that
// count each token's picks per expert, shared by the pass that drops the
// picks beyond capacity and by paracc-return-expert-load, which counts
// them.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_TRANSFORMS_MOECAPACITY_H
#define PARACC_DIALECT_GRAPH_TRANSFORMS_MOECAPACITY_H

#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::paracc::graph {

/// A layer's tokens in groups (its sequences) and the picks each expert
/// takes per group.
struct ExpertCapacity {
  int64_t groups = 0, groupTokens = 0;
  /// ceil(factor x groupTokens x k / E), at least 1.
  int64_t capacity = 0;
};

/// The capacity of `moe` at `factor` (> 0). The groups are the sequences:
/// the tokens must be a reshape of [batch, seq, hidden], else this fails
/// with an error at the op.
FailureOr<ExpertCapacity> expertCapacity(MoeExpertsOp moe, double factor);

/// [T, E] f32: how many of token t's picks went to expert e (0 or 1 for
/// distinct picks).
Value picksPerTokenAndExpert(OpBuilder &b, Location loc, MoeExpertsOp moe);

} // namespace mlir::paracc::graph

#endif // PARACC_DIALECT_GRAPH_TRANSFORMS_MOECAPACITY_H

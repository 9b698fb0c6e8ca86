//===- ShardingRule.h - Factor-based sharding rules ------------*- C++ -*-===//
//
// An op's sharding rule: factors of its iteration space and how operand and
// result dimensions are made of them (see DistInterfaces.td).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_DIST_IR_SHARDINGRULE_H
#define PARACC_DIALECT_DIST_IR_SHARDINGRULE_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::paracc::dist {

enum class FactorKind {
  /// Shards freely; every tensor with the factor is split.
  Parallel,
  /// Summed over: sharding it makes the results partial sums.
  Reduction,
  /// Must be whole on every rank (softmax's axis, a sliced dimension).
  NeedReplication,
};

/// The factors of one tensor dimension, major to minor.
using DimFactors = SmallVector<int64_t, 2>;
/// The factors of every dimension of one tensor.
using TensorFactors = SmallVector<DimFactors, 4>;

struct OpShardingRule {
  SmallVector<int64_t> factorSizes;
  SmallVector<FactorKind> factorKinds;
  SmallVector<TensorFactors> operands;
  SmallVector<TensorFactors> results;

  int64_t numFactors() const { return factorSizes.size(); }
  /// Adds a factor and returns its id.
  int64_t addFactor(int64_t size, FactorKind kind = FactorKind::Parallel) {
    factorSizes.push_back(size);
    factorKinds.push_back(kind);
    return factorSizes.size() - 1;
  }
  /// A rule in which every dimension of every operand and result is its own
  /// need-replication factor: the op runs on whole tensors.
  static OpShardingRule replicateAll(Operation *op);
};

} // namespace mlir::paracc::dist

#include "paracc/Dialect/Dist/IR/DistInterfaces.h.inc"

#endif // PARACC_DIALECT_DIST_IR_SHARDINGRULE_H

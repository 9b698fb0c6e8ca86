//===- FactorSharding.h - Shardings seen through sharding rules -*- C++ -*-===//
//
// The bridge between tensor shardings (axes per dimension) and op sharding
// rules (axes per factor), shared by propagation and partitioning.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_DIST_TRANSFORMS_FACTORSHARDING_H
#define PARACC_DIALECT_DIST_TRANSFORMS_FACTORSHARDING_H

#include "paracc/Dialect/Dist/IR/DistOps.h"

namespace mlir::paracc::dist {

using AxisList = SmallVector<StringAttr, 2>;

/// Splits the axes of one dimension over the factors that make it up, major
/// to minor: each factor takes axes from the front while their sizes divide
/// it. Fails when the axes do not fit (the sharding cannot be expressed
/// through this rule).
FailureOr<SmallVector<AxisList>> distributeAxes(const OpShardingRule &rule,
                                                const DimFactors &factors,
                                                ArrayRef<StringAttr> axes,
                                                MeshAttr mesh);

/// Whether a dimension made of `factors` with these axes is split into
/// contiguous blocks (what a dimension sharding means): every factor more
/// major than a split one must be split completely.
bool isContiguous(const OpShardingRule &rule, const DimFactors &factors,
                  ArrayRef<AxisList> factorAxes, MeshAttr mesh);

/// Clears the axes of `factors`, the most minor first, until the dimension
/// they make is split into contiguous blocks: a batch of several rows per
/// shard merged with a sequence split over tp keeps the batch's split and
/// loses the sequence's.
void keepContiguousPrefix(const OpShardingRule &rule,
                          const DimFactors &factors,
                          MutableArrayRef<AxisList> factorAxes, MeshAttr mesh);

/// The sharding of a tensor whose dims are `tensor` given axes per factor;
/// with `partialFromReductions`, the axes of sharded reduction factors
/// become partial axes.
ShardingAttr projectSharding(MLIRContext *ctx, const OpShardingRule &rule,
                             const TensorFactors &tensor,
                             ArrayRef<AxisList> factorAxes,
                             bool partialFromReductions);

/// The axes of every sharded reduction factor.
AxisList reductionAxes(const OpShardingRule &rule,
                       ArrayRef<AxisList> factorAxes);

/// The sharding rule of `op` (replicate-all for ops without one).
OpShardingRule getRule(Operation *op);

/// A weight, or a transpose/reshape/cast of one (a tied LM head): values
/// that stay where they are, so ops take their factors from them first.
bool isWeightLike(Value v);

/// A value's sharding, replicated if it has none recorded.
ShardingAttr getShardingOrReplicated(Value value);

/// Checks every sharding recorded in `func` (arguments and op results)
/// against its value and `mesh`: same rank, only axes of the mesh, no
/// partial axes, and every closed dimension divides. Emits an error at the
/// first that does not.
LogicalResult verifyRecordedShardings(Operation *func, MeshAttr mesh);

} // namespace mlir::paracc::dist

#endif // PARACC_DIALECT_DIST_TRANSFORMS_FACTORSHARDING_H

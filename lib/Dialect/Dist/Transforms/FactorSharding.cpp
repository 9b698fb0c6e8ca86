//===- FactorSharding.cpp - Shardings seen through sharding rules -*- C++ -*-===//

#include "paracc/Dialect/Dist/Transforms/FactorSharding.h"

#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::paracc::dist;

FailureOr<SmallVector<AxisList>>
mlir::paracc::dist::distributeAxes(const OpShardingRule &rule,
                                   const DimFactors &factors,
                                   ArrayRef<StringAttr> axes, MeshAttr mesh) {
  SmallVector<AxisList> out(factors.size());
  size_t next = 0;
  for (auto [i, f] : llvm::enumerate(factors)) {
    if (next == axes.size())
      break;
    int64_t used = 1;
    while (next < axes.size()) {
      int64_t size = mesh.getAxisSize(axes[next].getValue());
      if (rule.factorSizes[f] % (used * size) != 0)
        break;
      used *= size;
      out[i].push_back(axes[next++]);
    }
    // Contiguous blocks of the dimension reach a minor factor only once the
    // major one is split completely; otherwise the layout would be strided.
    if (next < axes.size() && used != rule.factorSizes[f])
      return failure();
  }
  if (next != axes.size())
    return failure();
  return out;
}

bool mlir::paracc::dist::isContiguous(const OpShardingRule &rule,
                                      const DimFactors &factors,
                                      ArrayRef<AxisList> factorAxes,
                                      MeshAttr mesh) {
  bool minorSplit = false;
  for (int64_t i = int64_t(factors.size()) - 1; i >= 0; --i) {
    int64_t f = factors[i];
    int64_t parts = mesh.getGroupSize(factorAxes[f]);
    if (minorSplit && parts != rule.factorSizes[f])
      return false;
    minorSplit |= parts > 1;
  }
  return true;
}

void mlir::paracc::dist::keepContiguousPrefix(
    const OpShardingRule &rule, const DimFactors &factors,
    MutableArrayRef<AxisList> factorAxes, MeshAttr mesh) {
  for (size_t i = factors.size();
       i > 0 && !isContiguous(rule, factors, factorAxes, mesh); --i)
    factorAxes[factors[i - 1]].clear();
}

ShardingAttr mlir::paracc::dist::projectSharding(
    MLIRContext *ctx, const OpShardingRule &rule, const TensorFactors &tensor,
    ArrayRef<AxisList> factorAxes, bool partialFromReductions) {
  SmallVector<SmallVector<StringAttr>> dims;
  for (const DimFactors &d : tensor) {
    SmallVector<StringAttr> axes;
    for (int64_t f : d)
      llvm::append_range(axes, factorAxes[f]);
    dims.push_back(axes);
  }
  // A tensor is a partial sum over the split reduction factors it does not
  // carry (a backward norm's token factors reduce into the scale's gradient
  // but index the input's).
  AxisList partial;
  if (partialFromReductions)
    for (int64_t f = 0; f < rule.numFactors(); ++f)
      if (rule.factorKinds[f] == FactorKind::Reduction &&
          llvm::none_of(tensor, [&](const DimFactors &d) {
            return llvm::is_contained(d, f);
          }))
        llvm::append_range(partial, factorAxes[f]);
  return ShardingAttr::get(ctx, dims, partial);
}

AxisList mlir::paracc::dist::reductionAxes(const OpShardingRule &rule,
                                           ArrayRef<AxisList> factorAxes) {
  AxisList axes;
  for (int64_t f = 0; f < rule.numFactors(); ++f)
    if (rule.factorKinds[f] == FactorKind::Reduction)
      llvm::append_range(axes, factorAxes[f]);
  return axes;
}

OpShardingRule mlir::paracc::dist::getRule(Operation *op) {
  if (auto iface = dyn_cast<ShardingRuleOpInterface>(op))
    return iface.getShardingRule();
  return OpShardingRule::replicateAll(op);
}

bool mlir::paracc::dist::isWeightLike(Value v) {
  Operation *def = v.getDefiningOp();
  while (def && isa<graph::TransposeOp, graph::ReshapeOp, graph::CastOp>(def))
    def = def->getOperand(0).getDefiningOp();
  return def && isa<graph::WeightOp>(def);
}

ShardingAttr mlir::paracc::dist::getShardingOrReplicated(Value value) {
  if (ShardingAttr s = getSharding(value))
    return s;
  return ShardingAttr::getReplicated(
      value.getContext(), cast<RankedTensorType>(value.getType()).getRank());
}

/// Checks one recorded sharding; `emitError` says where.
static LogicalResult
verifySharding(Value value, ShardingAttr s, MeshAttr mesh,
               function_ref<InFlightDiagnostic()> emitError) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return success();
  if (s.getRank() != type.getRank())
    return emitError() << "has sharding " << s << " of rank " << s.getRank()
                       << " for a value of rank " << type.getRank();
  if (!s.getPartial().empty())
    return emitError() << "has sharding " << s
                       << " with partial axes; only the partitioner makes "
                          "partial sums";
  for (StringAttr a : s.getUsedAxes())
    if (!mesh.getAxisIndex(a.getValue()))
      return emitError() << "has sharding " << s << " that names mesh axis '"
                         << a.getValue() << "', which the mesh does not have";
  if (failed(s.getLocalShape(mesh, type.getShape())))
    return emitError() << "has sharding " << s
                       << " whose split dims do not divide " << type;
  return success();
}

LogicalResult mlir::paracc::dist::verifyRecordedShardings(Operation *op,
                                                          MeshAttr mesh) {
  if (auto func = dyn_cast<func::FuncOp>(op))
    for (BlockArgument arg : func.getArguments())
      if (ShardingAttr s = getSharding(arg))
        if (failed(verifySharding(arg, s, mesh, [&] {
              return func.emitError("input ") << arg.getArgNumber() << " ";
            })))
          return failure();
  WalkResult walk = op->walk([&](Operation *inner) {
    for (OpResult r : inner->getResults())
      if (ShardingAttr s = getSharding(r))
        if (failed(verifySharding(r, s, mesh, [&] {
              return inner->emitOpError("result #")
                     << r.getResultNumber() << " ";
            })))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

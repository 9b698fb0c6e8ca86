//===- ShardOptimizerState.cpp - ZeRO stage 1 over dp -----------*- C++ -*-===//
//
// Implements `--paracc-shard-optimizer-state` (Passes.td): after
// propagation, each optimizer update's gradient, moments and results are
// recorded split over the data-parallel axis on one more dimension, so that
// partitioning reduce-scatters the gradient, updates one shard per rank and
// all-gathers the parameter into its (whole) buffer.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/Transforms/FactorSharding.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_SHARDOPTIMIZERSTATEPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

namespace g = graph;
namespace {

/// `s` with `axis` appended to the axes of the first dimension of `shape`
/// whose local size divides by `size`; none when no dimension does, or when
/// `s` already uses the axis or is partial.
std::optional<ShardingAttr>
withAxisOnDivisibleDim(MeshAttr mesh, ShardingAttr s, ArrayRef<int64_t> shape,
                       StringAttr axis, int64_t size) {
  if (!s.getPartial().empty() || llvm::is_contained(s.getUsedAxes(), axis))
    return std::nullopt;
  SmallVector<SmallVector<StringAttr>> dims;
  for (int64_t d = 0; d < s.getRank(); ++d)
    dims.push_back(s.getDimAxes(d));
  for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
    int64_t local = shape[d] / mesh.getGroupSize(dims[d]);
    if (local < size || local % size != 0)
      continue;
    dims[d].push_back(axis);
    return ShardingAttr::get(s.getContext(), dims);
  }
  return std::nullopt;
}

/// Whether `v` is a computed value whose recorded sharding may change (not
/// a parameter or state buffer, constant or function argument).
bool isComputed(Value v) {
  Operation *def = v.getDefiningOp();
  return def && !isa<g::WeightOp, g::StateOp, g::ConstantOp>(def);
}

struct ShardOptimizerStatePass
    : public dist::impl::ShardOptimizerStatePassBase<ShardOptimizerStatePass> {
  using ShardOptimizerStatePassBase::ShardOptimizerStatePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = getMesh(module);
    if (!mesh || !mesh.getAxisIndex(axis) || mesh.getAxisSize(axis) < 2)
      return;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        shardUpdates(func, mesh);
  }

  void shardUpdates(func::FuncOp func, MeshAttr mesh);
  /// Records `s` on the gradient `grad` and on what computes it from parts
  /// (a tied parameter's sum) or squares it for the norm.
  void shardGradient(Value grad, ShardingAttr s);
};

void ShardOptimizerStatePass::shardUpdates(func::FuncOp func, MeshAttr mesh) {
  StringAttr axisName = StringAttr::get(&getContext(), axis);
  const int64_t size = mesh.getAxisSize(axis);
  auto *dialect = getContext().getLoadedDialect<DistDialect>();
  func.walk([&](Operation *op) {
    if (!isa<g::AdamWOp, g::SgdOp>(op))
      return;
    // Operands: param, grad, then the moments (two for AdamW, one for SGD).
    const unsigned moments = isa<g::AdamWOp>(op) ? 2 : 1;
    Value param = op->getOperand(0), grad = op->getOperand(1);
    SmallVector<Value> state;
    for (unsigned i = 0; i < moments; ++i)
      state.push_back(op->getOperand(2 + i));
    // Each moment must be a buffer read only by this update, and the
    // gradient a computed value.
    if (!isComputed(grad) || !llvm::all_of(state, [&](Value m) {
          return m.getDefiningOp<g::StateOp>() && m.hasOneUse();
        }))
      return;
    auto type = cast<RankedTensorType>(param.getType());
    std::optional<ShardingAttr> sharded = withAxisOnDivisibleDim(
        mesh, getShardingOrReplicated(param), type.getShape(), axisName, size);
    if (!sharded)
      return;
    shardGradient(grad, *sharded);
    for (Value m : state)
      setSharding(m, *sharded);
    for (Value r : op->getResults())
      setSharding(r, *sharded);
    dialect->getShardedUpdateAttrHelper().setAttr(op,
                                                  UnitAttr::get(&getContext()));
  });
}

void ShardOptimizerStatePass::shardGradient(Value grad, ShardingAttr s) {
  setSharding(grad, s);
  Type type = grad.getType();
  // A sum of gradient parts (a tied parameter's): its parts, when only the
  // sum reads them, are reduced straight into the shard too.
  if (auto add = grad.getDefiningOp<g::AddOp>())
    for (Value part : add->getOperands())
      if (part.getType() == type && part.hasOneUse() && isComputed(part))
        shardGradient(part, s);
  // A transposed part (a tied head's gradient): its operand is reduced into
  // the transposed shard.
  if (auto transpose = grad.getDefiningOp<g::TransposeOp>()) {
    Value in = transpose.getX();
    if (in.hasOneUse() && isComputed(in)) {
      ArrayRef<int64_t> perm = transpose.getPerm();
      SmallVector<SmallVector<StringAttr>> dims(perm.size());
      for (auto [d, from] : llvm::enumerate(perm))
        dims[from] = s.getDimAxes(d);
      shardGradient(in, ShardingAttr::get(s.getContext(), dims));
    }
  }
  // The norm's sum of squares: a cast to f32 and the square stay on the
  // shard; the reduction over them is a partial sum all-reduced as before.
  for (Operation *user : grad.getUsers()) {
    auto shape = cast<ShapedType>(type).getShape();
    auto sameShape = [&](Value v) {
      return cast<ShapedType>(v.getType()).getShape() == shape;
    };
    if (auto cast = dyn_cast<g::CastOp>(user); cast && sameShape(cast)) {
      if (getSharding(cast.getResult()) != s)
        shardGradient(cast.getResult(), s);
    } else if (auto mul = dyn_cast<g::MulOp>(user);
               mul && mul.getLhs() == mul.getRhs() && sameShape(mul)) {
      setSharding(mul.getResult(), s);
    }
  }
}

} // namespace
} // namespace mlir::paracc::dist

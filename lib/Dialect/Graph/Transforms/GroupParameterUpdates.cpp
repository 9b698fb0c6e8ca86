//===- GroupParameterUpdates.cpp - Multi-tensor optimizer ops --*- C++ -*-===//
//
// Groups a training step's per-parameter updates, gradient-norm squares and
// master-weight casts into graph.foreach_* ops (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_GROUPPARAMETERUPDATESPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// The narrower floating value `v` is an exact widening cast of (bf16 or
/// f16 to f32), or `v` itself.
Value narrowestExactSource(Value v) {
  auto cast = v.getDefiningOp<CastOp>();
  if (!cast)
    return v;
  Type from = getElementTypeOrSelf(cast.getX().getType());
  Type to = getElementTypeOrSelf(v.getType());
  if (to.isF32() && (from.isBF16() || from.isF16()))
    return cast.getX();
  return v;
}

/// `v` is defined by an op without operands or side effects (graph.weight,
/// graph.state), which may move up to where a group needs it.
bool isHoistable(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->getNumOperands() == 0 && isMemoryEffectFree(def);
}

/// Moves the hoistable definitions of `op`'s operands before `first`.
void hoistOperands(Operation *op, Operation *first, DominanceInfo &dominance) {
  for (Value v : op->getOperands())
    if (!dominance.properlyDominates(v, first) && isHoistable(v))
      v.getDefiningOp()->moveBefore(first);
}

/// Whether `b` may join a group placed at `first`: same operation name,
/// attributes and (for `sameOperandsFrom` > 0) the same trailing operands
/// from that index; every operand defined before `first` or hoistable.
bool canJoin(Operation *first, Operation *b, unsigned sameOperandsFrom,
             DominanceInfo &dominance) {
  if (b->getName() != first->getName() ||
      b->getAttrDictionary() != first->getAttrDictionary())
    return false;
  if (sameOperandsFrom > 0 &&
      b->getOperands().drop_front(sameOperandsFrom) !=
          first->getOperands().drop_front(sameOperandsFrom))
    return false;
  return llvm::all_of(b->getOperands(), [&](Value v) {
    return dominance.properlyDominates(v, first) || isHoistable(v);
  });
}

/// Splits `ops` (in block order) into groups: each op joins the first open
/// group it can join, else starts one.
template <typename OpT, typename JoinFn>
SmallVector<SmallVector<OpT>> groupInOrder(ArrayRef<OpT> ops,
                                           JoinFn canJoinFn) {
  SmallVector<SmallVector<OpT>> groups;
  for (OpT op : ops) {
    auto it = llvm::find_if(
        groups, [&](SmallVector<OpT> &g) { return canJoinFn(g.front(), op); });
    if (it != groups.end())
      it->push_back(op);
    else
      groups.push_back({op});
  }
  return groups;
}

/// Erases the widening casts that nothing reads any more. Several updates
/// may read one gradient (parameters whose gradients CSE merged), so each
/// cast is collected once before any is erased.
void eraseDeadCasts(ArrayRef<Value> values) {
  SetVector<Operation *> casts;
  for (Value v : values)
    if (auto cast = v.getDefiningOp<CastOp>())
      casts.insert(cast);
  for (Operation *cast : casts)
    if (cast->use_empty())
      cast->erase();
}

void groupAdamW(func::FuncOp func, DominanceInfo &dominance) {
  SmallVector<AdamWOp> updates;
  func.walk([&](AdamWOp op) { updates.push_back(op); });
  auto groups = groupInOrder<AdamWOp>(updates, [&](AdamWOp a, AdamWOp b) {
    return a->getBlock() == b->getBlock() &&
           canJoin(a, b, /*sameOperandsFrom=*/4, dominance);
  });
  for (SmallVector<AdamWOp> &group : groups) {
    AdamWOp first = group.front();
    SmallVector<Value> params, grads, expAvgs, expAvgSqs, oldGrads;
    SmallVector<Type> types;
    bool narrowed = false;
    for (AdamWOp op : group) {
      hoistOperands(op, first, dominance);
      params.push_back(op.getParam());
      Value grad = narrowestExactSource(op.getGrad());
      narrowed |= grad != op.getGrad();
      grads.push_back(grad);
      oldGrads.push_back(op.getGrad());
      expAvgs.push_back(op.getExpAvg());
      expAvgSqs.push_back(op.getExpAvgSq());
      types.push_back(op.getParam().getType());
    }
    if (group.size() == 1 && !narrowed)
      continue;
    OpBuilder b(first);
    auto grouped = ForeachAdamWOp::create(
        b, first.getLoc(), types, types, types, TypeRange(), params, grads,
        expAvgs, expAvgSqs, first.getLr(), first.getStep(),
        first.getGradScale(), first.getBeta1Attr(), first.getBeta2Attr(),
        first.getEpsAttr(), first.getWeightDecayAttr());
    grouped->setDiscardableAttrs(first->getDiscardableAttrDictionary());
    for (auto [j, op] : llvm::enumerate(group)) {
      op.getNewParam().replaceAllUsesWith(grouped.getNewParams()[j]);
      op.getNewExpAvg().replaceAllUsesWith(grouped.getNewExpAvgs()[j]);
      op.getNewExpAvgSq().replaceAllUsesWith(grouped.getNewExpAvgSqs()[j]);
      op->erase();
    }
    eraseDeadCasts(oldGrads);
  }
}

/// `v` is reshape(reduce_sum_square(x over every dim)) to one f32 element,
/// read only by its concat: returns the reduction, else null.
ReduceSumSquareOp wholeSumOfSquares(Value v) {
  auto reshape = v.getDefiningOp<ReshapeOp>();
  if (!reshape || !reshape->hasOneUse())
    return nullptr;
  auto sum = reshape.getX().getDefiningOp<ReduceSumSquareOp>();
  if (!sum || !sum->hasOneUse())
    return nullptr;
  auto x = cast<RankedTensorType>(sum.getX().getType());
  auto result = cast<RankedTensorType>(sum.getType());
  if (result.getNumElements() != 1 || !result.getElementType().isF32() ||
      int64_t(sum.getAxes().size()) != x.getRank())
    return nullptr;
  return sum;
}

void groupSumsOfSquares(func::FuncOp func) {
  SmallVector<ConcatOp> concats;
  func.walk([&](ConcatOp op) {
    auto type = cast<RankedTensorType>(op.getType());
    if (type.getRank() == 1 && type.getElementType().isF32())
      concats.push_back(op);
  });
  for (ConcatOp concat : concats) {
    SmallVector<Value> inputs(concat->getOperands());
    SmallVector<Value> operands, oldXs;
    SmallVector<Operation *> dead;
    for (size_t i = 0; i < inputs.size();) {
      // The run of whole sums of squares starting at i.
      SmallVector<ReduceSumSquareOp> run;
      while (i + run.size() < inputs.size()) {
        ReduceSumSquareOp sum = wholeSumOfSquares(inputs[i + run.size()]);
        if (!sum)
          break;
        run.push_back(sum);
      }
      if (run.size() < 2) {
        operands.push_back(inputs[i++]);
        continue;
      }
      SmallVector<Value> xs;
      for (auto [k, sum] : llvm::enumerate(run)) {
        oldXs.push_back(sum.getX());
        xs.push_back(narrowestExactSource(sum.getX()));
        dead.push_back(inputs[i + k].getDefiningOp()); // The reshape first.
        dead.push_back(sum);
      }
      OpBuilder b(concat);
      auto type = RankedTensorType::get({int64_t(run.size())}, b.getF32Type());
      operands.push_back(
          ForeachSumSquareOp::create(b, run.front().getLoc(), type, xs));
      i += run.size();
    }
    if (dead.empty())
      continue;
    concat->setOperands(operands);
    for (Operation *op : dead)
      op->erase();
    eraseDeadCasts(oldXs);
  }
}

void groupWeightCasts(func::FuncOp func, DominanceInfo &dominance) {
  SmallVector<CastOp> casts;
  func.walk([&](CastOp op) {
    if (op.getX().getDefiningOp<WeightOp>())
      casts.push_back(op);
  });
  auto groups = groupInOrder<CastOp>(casts, [&](CastOp a, CastOp b) {
    return a->getBlock() == b->getBlock() &&
           getElementTypeOrSelf(a.getX().getType()) ==
               getElementTypeOrSelf(b.getX().getType()) &&
           getElementTypeOrSelf(a.getType()) ==
               getElementTypeOrSelf(b.getType()) &&
           canJoin(a, b, /*sameOperandsFrom=*/0, dominance);
  });
  for (SmallVector<CastOp> &group : groups) {
    if (group.size() < 2)
      continue;
    SmallVector<Value> xs;
    SmallVector<Type> types;
    for (CastOp op : group) {
      hoistOperands(op, group.front(), dominance);
      xs.push_back(op.getX());
      types.push_back(op.getType());
    }
    OpBuilder b(group.front());
    auto grouped = ForeachCastOp::create(b, group.front().getLoc(), types, xs);
    grouped->setDiscardableAttrs(group.front()->getDiscardableAttrDictionary());
    for (auto [j, op] : llvm::enumerate(group)) {
      op.getResult().replaceAllUsesWith(grouped.getResults()[j]);
      op->erase();
    }
  }
}

struct GroupParameterUpdatesPass
    : public graph::impl::GroupParameterUpdatesPassBase<
          GroupParameterUpdatesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    DominanceInfo &dominance = getAnalysis<DominanceInfo>();
    // The squares first: the updates then find the gradients' widening casts
    // read by nothing else and erase them.
    groupSumsOfSquares(func);
    groupAdamW(func, dominance);
    groupWeightCasts(func, dominance);
  }
};

} // namespace

//===- FoldReductionAddends.cpp - Bias and residual before a reduction -*- C++ -*-//
//
// A row-parallel layer computes partial products, all-reduces them, then
// adds its bias and the residual stream: two more passes over the
// activation on every rank. Adding both on one member of the group before
// the reduction gives the same sum, and the product's epilogue does the
// adding for free (graph.linear's bias and residual with
// dist.addends_on_first).
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "paracc/Dialect/Dist/IR/DistDialect.h"
#include "paracc/Dialect/Graph/IR/GraphDialect.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_FOLDREDUCTIONADDENDSPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

namespace g = graph;
namespace {
/// The single user of `v` if it is an add of `v` and another value; that
/// other value.
static std::pair<g::AddOp, Value> soleAdd(Value v) {
  if (!v.hasOneUse())
    return {};
  auto add = dyn_cast<g::AddOp>(*v.user_begin());
  if (!add || add.getType() != v.getType())
    return {};
  Value other = add.getLhs() == v ? add.getRhs() : add.getLhs();
  if (other == v)
    return {};
  return {add, other};
}

struct FoldReductionAddendsPass
    : public dist::impl::FoldReductionAddendsPassBase<
          FoldReductionAddendsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    DominanceInfo dom(func);
    SmallVector<AllReduceOp> reductions;
    func.walk([&](AllReduceOp op) { reductions.push_back(op); });
    for (AllReduceOp reduce : reductions)
      fold(reduce, dom);
  }

  void fold(AllReduceOp reduce, DominanceInfo &dom) {
    if (reduce.getKind() != "sum" || !reduce.getX().hasOneUse())
      return;
    Operation *product = reduce.getX().getDefiningOp();
    Value x, w;
    if (auto mm = dyn_cast_or_null<g::MatMulOp>(product)) {
      if (mm.getRhs().getType().getRank() != 2 ||
          mm.getLhs().getType().getRank() < 2)
        return;
      x = mm.getLhs();
      w = mm.getRhs();
    } else if (auto linear = dyn_cast_or_null<g::LinearOp>(product)) {
      if (linear.getBias() || linear.getResidual() ||
          linear.getActivation() != "none")
        return;
      x = linear.getX();
      w = linear.getW();
    } else {
      return;
    }
    if (product->hasAttr(kAddendsOnFirstAttrName))
      return;
    // reduce -> [+ bias [N]] -> [+ residual (same type)].
    Value cur = reduce.getResult(), bias, residual;
    SmallVector<Operation *> adds;
    auto [biasAdd, b] = soleAdd(cur);
    auto bt = b ? dyn_cast<RankedTensorType>(b.getType()) : nullptr;
    if (biasAdd && bt && bt.getRank() == 1 &&
        bt.getDimSize(0) == reduce.getType().getShape().back() &&
        bt.getElementType() == reduce.getType().getElementType()) {
      bias = b;
      adds.push_back(biasAdd);
      cur = biasAdd.getResult();
    }
    // The exporters' Gemm on flattened tokens is reshaped back to
    // [B, S, H] before the residual add: the residual is reshaped to the
    // product's shape instead (free), and the reshape moves after the sum.
    g::ReshapeOp reshape;
    if (cur.hasOneUse())
      reshape = dyn_cast<g::ReshapeOp>(*cur.user_begin());
    Value afterReshape = reshape ? reshape.getResult() : cur;
    auto [residualAdd, r] = soleAdd(afterReshape);
    if (residualAdd && r.getType() == afterReshape.getType()) {
      residual = r;
      adds.push_back(residualAdd);
    } else {
      reshape = nullptr;
    }
    if (adds.empty())
      return;
    // The addends must exist where the product is computed. A weight or
    // constant (an op without operands) defined later, as micro-batch
    // interleaving leaves them, moves up to the product.
    for (Value v : {bias, residual}) {
      if (!v || dom.properlyDominates(v, product))
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || def->getNumOperands() != 0 || !isMemoryEffectFree(def) ||
          def->getBlock() != product->getBlock())
        return;
    }
    for (Value v : {bias, residual})
      if (v && !dom.properlyDominates(v, product))
        v.getDefiningOp()->moveBefore(product);
    OpBuilder b2(product);
    if (residual && reshape)
      residual = g::ReshapeOp::create(b2, product->getLoc(),
                                      reduce.getType(), residual);
    auto linear = g::LinearOp::create(b2, product->getLoc(), x, w, bias,
                                      residual, b2.getStringAttr("none"),
                                      b2.getBoolAttr(false));
    for (NamedAttribute a : product->getDiscardableAttrs())
      linear->setAttr(a.getName(), a.getValue());
    linear->setAttr(kAddendsOnFirstAttrName, reduce.getAxes());
    reduce.getXMutable().assign(linear.getResult());
    if (reshape) {
      // reduce -> reshape -> (what used the residual add).
      reshape->setOperand(0, reduce.getResult());
      adds.back()->getResult(0).replaceAllUsesWith(reshape.getResult());
    } else {
      adds.back()->getResult(0).replaceAllUsesWith(reduce.getResult());
    }
    for (Operation *add : llvm::reverse(adds))
      add->erase();
    product->erase();
  }
};
} // namespace
} // namespace mlir::paracc::dist

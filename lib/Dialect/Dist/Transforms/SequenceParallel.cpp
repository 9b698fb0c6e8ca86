//===- SequenceParallel.cpp - Split the residual stream by tokens -*- C++ -*-===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/Transforms/Annotation.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_SEQUENCEPARALLELPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::paracc::dist

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;
namespace g = mlir::paracc::graph;

/// The token dimension of a normalized activation: the sequence of
/// [batch, sequence, hidden], the flattened tokens of [tokens, hidden].
static int64_t tokenDim(RankedTensorType type) {
  return type.getRank() >= 3 ? type.getRank() - 2 : 0;
}

namespace {
struct SequenceParallelPass
    : public dist::impl::SequenceParallelPassBase<SequenceParallelPass> {
  using SequenceParallelPassBase::SequenceParallelPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = getMesh(module);
    if (!mesh || mesh.getAxisSize(axis) <= 1)
      return;
    StringAttr tp = StringAttr::get(&getContext(), axis);
    int64_t size = mesh.getAxisSize(axis);
    module.walk([&](Operation *op) {
      if (!isa<g::LayerNormOp, g::RmsNormOp>(op))
        return;
      Value x = op->getOperand(0);
      auto type = cast<RankedTensorType>(x.getType());
      int64_t d = tokenDim(type);
      // The norm's own axis must stay whole; tokens must divide.
      int64_t axisAttr = op->getAttrOfType<IntegerAttr>("axis").getInt();
      std::string skipped;
      if (type.getRank() < 2 || d >= axisAttr)
        skipped = "token dim " + std::to_string(d) +
                  " is normalized over (axis " + std::to_string(axisAttr) + ")";
      else if (type.getDimSize(d) % size)
        skipped = "token dim " + std::to_string(d) + " of size " +
                  std::to_string(type.getDimSize(d)) +
                  " does not divide over '" + axis + "'";
      if (!skipped.empty()) {
        op->setAttr(DistDialect::SpSkippedAttrHelper::getNameStr(),
                    StringAttr::get(&getContext(), skipped));
        return;
      }
      annotateDim(x, d, {tp});
      annotateDim(op->getResult(0), d, {tp});
    });
  }
};
} // namespace

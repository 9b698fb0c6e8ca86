//===- ContextParallel.cpp - Split the sequence over the cp axis -*- C++
//-*-===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/Transforms/Annotation.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_CONTEXTPARALLELPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

namespace {
/// The sequence dim of an attention operand or result.
int64_t sequenceDim(Value v, bool sequenceFirst) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  return sequenceFirst ? rank - 3 : rank - 2;
}

struct ContextParallelPass
    : public impl::ContextParallelPassBase<ContextParallelPass> {
  using ContextParallelPassBase::ContextParallelPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = getMesh(module);
    if (!mesh || !mesh.getAxisIndex(axis) || mesh.getAxisSize(axis) <= 1)
      return;
    int64_t parts = mesh.getAxisSize(axis);
    StringAttr cp = StringAttr::get(&getContext(), axis);
    int64_t attentions = 0;
    WalkResult walk = module.walk([&](graph::AttentionOp op) {
      ++attentions;
      bool seqFirst = op.getSequenceFirst();
      for (Value v : {op.getQ(), op.getK(), op.getV()}) {
        int64_t d = sequenceDim(v, seqFirst);
        int64_t length = cast<RankedTensorType>(v.getType()).getDimSize(d);
        if (length % parts != 0) {
          op.emitError("context parallelism: a sequence of ")
              << length << " does not divide over mesh axis '" << axis
              << "' of size " << parts;
          return WalkResult::interrupt();
        }
        annotateDim(v, d, {cp});
      }
      annotateDim(op.getResult(), sequenceDim(op.getResult(), seqFirst), {cp});
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (attentions == 0) {
      module.emitError("context parallelism (mesh axis '")
          << axis << "') needs a model with attention: there is no sequence "
          << "to split";
      return signalPassFailure();
    }
  }
};
} // namespace
} // namespace mlir::paracc::dist

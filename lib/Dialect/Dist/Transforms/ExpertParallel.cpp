//===- ExpertParallel.cpp - Split the experts over the ep axis --*- C++ -*-===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "paracc/Dialect/Dist/Transforms/Annotation.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_EXPERTPARALLELPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::paracc::dist

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;

namespace {
struct ExpertParallelPass
    : public dist::impl::ExpertParallelPassBase<ExpertParallelPass> {
  using ExpertParallelPassBase::ExpertParallelPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!(loadImbalance >= 1.0)) {
      module.emitError("paracc-expert-parallel's load-imbalance must be a "
                       "number >= 1 (the busiest member's load over an even "
                       "share), got ")
          << loadImbalance;
      return signalPassFailure();
    }
    MeshAttr mesh = getMesh(module);
    if (!mesh || !mesh.getAxisIndex(axis) || mesh.getAxisSize(axis) < 2)
      return;
    const int64_t n = mesh.getAxisSize(axis);
    StringAttr name = StringAttr::get(&getContext(), axis);
    bool found = false;
    WalkResult walk = module.walk([&](graph::MoeExpertsOp moe) {
      found = true;
      if (moe.getNumExperts() % n != 0) {
        moe.emitOpError("has ")
            << moe.getNumExperts()
            << " experts, which do not divide over mesh axis '" << axis
            << "' of size " << n;
        return WalkResult::interrupt();
      }
      annotateDim(moe.getWIn(), 0, {name});
      annotateDim(moe.getWOut(), 0, {name});
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (!found) {
      module.emitError("mesh axis '")
          << axis
          << "' splits the experts of a mixture of experts, but the model "
             "has none (no graph.moe_experts)";
      return signalPassFailure();
    }
    module->setAttr(DistDialect::ExpertAxisAttrHelper::getNameStr(), name);
    if (loadImbalance > 1.0)
      module->setAttr(
          DistDialect::ExpertLoadImbalanceAttrHelper::getNameStr(),
          FloatAttr::get(Float64Type::get(&getContext()), loadImbalance));
  }
};
} // namespace

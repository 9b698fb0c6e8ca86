//===- DataParallel.cpp - Split the batch over the dp axis ------*- C++ -*-===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/Transforms/Annotation.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_DATAPARALLELPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::paracc::dist

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;

namespace {
struct DataParallelPass
    : public dist::impl::DataParallelPassBase<DataParallelPass> {
  using DataParallelPassBase::DataParallelPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = getMesh(module);
    if (!mesh || mesh.getAxisSize(axis) <= 1)
      return;
    StringAttr dp = StringAttr::get(&getContext(), axis);
    for (auto func : module.getOps<func::FuncOp>()) {
      for (BlockArgument arg : func.getArguments()) {
        auto type = dyn_cast<RankedTensorType>(arg.getType());
        if (!type || type.getRank() == 0)
          continue;
        if (type.getDimSize(0) % mesh.getAxisSize(axis) != 0) {
          // The batch must divide: a data-parallel plan that replicates an
          // input would silently do the same work on every rank.
          func.emitError("input ")
              << arg.getArgNumber() << " has batch dim 0 of size "
              << type.getDimSize(0) << ", which does not divide over mesh axis '"
              << axis << "' of size " << mesh.getAxisSize(axis);
          return signalPassFailure();
        }
        annotateDim(arg, 0, {dp});
      }
    }
  }
};
} // namespace

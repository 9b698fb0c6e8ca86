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
    if (!mesh)
      return;
    // The batch is split over dp (and ep), then over the micro-batches
    // within it.
    SmallVector<StringAttr> axes;
    int64_t parts = 1;
    // The micro-batch axis splits even at size 1: a pipeline tells what
    // each micro-batch computes from it.
    // Expert parallelism's ranks are data-parallel ranks too: everything
    // but the experts sees its own part of the batch.
    for (StringRef name : {StringRef(replicaAxis), StringRef(axis),
                           StringRef(expertAxis), StringRef(microbatchAxis)})
      if (!name.empty() && mesh.getAxisIndex(name) &&
          (mesh.getAxisSize(name) > 1 || name == microbatchAxis)) {
        axes.push_back(StringAttr::get(&getContext(), name));
        parts *= mesh.getAxisSize(name);
      }
    if (axes.empty())
      return;
    for (auto func : module.getOps<func::FuncOp>()) {
      for (BlockArgument arg : func.getArguments()) {
        auto type = dyn_cast<RankedTensorType>(arg.getType());
        if (!type || type.getRank() == 0)
          continue;
        if (type.getDimSize(0) % parts != 0) {
          // The batch must divide: a data-parallel plan that replicates an
          // input would silently do the same work on every rank.
          InFlightDiagnostic diag = func.emitError("input ");
          diag << arg.getArgNumber() << " has batch dim 0 of size "
               << type.getDimSize(0) << ", which does not divide over ";
          if (axes.size() == 1 && axes[0].getValue() != microbatchAxis) {
            diag << "mesh axis '" << axes[0].getValue() << "' of size "
                 << parts;
          } else {
            // Each axis that splits it: "4 (dp 2 x 2 micro-batches)".
            diag << parts << " (";
            for (auto [i, a] : llvm::enumerate(axes)) {
              diag << (i ? " x " : "");
              if (a.getValue() == microbatchAxis)
                diag << mesh.getAxisSize(a.getValue()) << " micro-batches";
              else
                diag << a.getValue() << " " << mesh.getAxisSize(a.getValue());
            }
            diag << ")";
          }
          return signalPassFailure();
        }
        annotateDim(arg, 0, axes);
      }
    }
  }
};
} // namespace

//===- UserShardings.cpp - Follow the shardings a front end asked for -----===//
//
// `dist.user_sharding` (on graph.weight ops and function arguments, from the
// StableHLO importer) becomes the value's closed annotation after the
// parallelism passes have annotated, replacing their choice.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/Transforms/Annotation.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_USERSHARDINGSPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::paracc::dist

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;

namespace {
struct UserShardingsPass
    : public dist::impl::UserShardingsPassBase<UserShardingsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = getMesh(module);
    if (!mesh)
      return;
    auto follow = [&](Value value, ShardingAttr user, Operation *at,
                      const Twine &what) -> LogicalResult {
      auto type = cast<RankedTensorType>(value.getType());
      if (user.getRank() != type.getRank())
        return at->emitError() << what << "'s sharding " << user
                               << " has " << user.getRank()
                               << " dims; the value has " << type.getRank();
      SmallVector<SmallVector<StringAttr>> dims;
      ShardingAttr chosen = getSharding(value);
      for (int64_t d = 0; d < type.getRank(); ++d) {
        // An open dim keeps what the passes chose (or stays open).
        if (user.isDimOpen(d)) {
          dims.emplace_back(chosen && d < chosen.getRank()
                                ? chosen.getDimAxes(d)
                                : user.getDimAxes(d));
          continue;
        }
        int64_t parts = 1;
        for (StringAttr axis : user.getDimAxes(d)) {
          if (!mesh.getAxisIndex(axis.getValue())) {
            at->emitWarning() << what << "'s sharding " << user
                              << " names mesh axis '" << axis.getValue()
                              << "', which the mesh does not have: paracc "
                                 "plans it itself";
            return success();
          }
          parts *= mesh.getAxisSize(axis.getValue());
        }
        if (type.getDimSize(d) % parts != 0)
          return at->emitError()
                 << what << "'s sharding " << user << " splits dim " << d
                 << " of size " << type.getDimSize(d) << " in " << parts;
        dims.emplace_back(user.getDimAxes(d));
      }
      annotate(value, dims);
      return success();
    };
    WalkResult walked = module.walk([&](Operation *op) -> WalkResult {
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        for (BlockArgument arg : func.getArguments())
          if (auto user = func.getArgAttrOfType<ShardingAttr>(
                  arg.getArgNumber(), kUserShardingAttrName))
            if (failed(follow(arg, user, func,
                              "argument " + Twine(arg.getArgNumber()))))
              return WalkResult::interrupt();
        return WalkResult::advance();
      }
      if (auto user = op->getAttrOfType<ShardingAttr>(kUserShardingAttrName))
        if (op->getNumResults() != 1 ||
            failed(follow(op->getResult(0), user, op, "the value")))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walked.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

//===- PipelineStages.cpp - Balanced pipeline stages -------------*- C++
//-*-===//
//
// Gives every op of the forward function its pipeline stage and the module
// the plan; the planning itself is the Planner's (StagePartition.h).
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Planner/StagePartition.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_PIPELINESTAGESPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::paracc::dist

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;

namespace {
struct PipelineStagesPass
    : public dist::impl::PipelineStagesPassBase<PipelineStagesPass> {
  using PipelineStagesPassBase::PipelineStagesPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (stages == 1 && ranges.empty())
      return;
    if (stages < 1) {
      module.emitError("expected at least 1 pipeline stage, got ")
          << int64_t(stages);
      return signalPassFailure();
    }
    if (microbatches < 1) {
      module.emitError("expected at least 1 micro-batch, got ")
          << int64_t(microbatches);
      return signalPassFailure();
    }
    if (std::string why = checkScheduleShape(schedule, stages, virtualStages,
                                             microbatches);
        !why.empty()) {
      module.emitError(why);
      return signalPassFailure();
    }
    FailureOr<DeviceRates> deviceRates = ratesByNameOrError(module, rates);
    if (failed(deviceRates))
      return signalPassFailure();
    if (memoryBudget < 0) {
      module.emitError("expected a non-negative memory budget, got ")
          << int64_t(memoryBudget);
      return signalPassFailure();
    }

    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration())
        funcs.push_back(func);
    if (funcs.size() != 1) {
      module.emitError("expected one function with a body to cut into "
                       "pipeline stages, got ")
          << funcs.size();
      return signalPassFailure();
    }

    StagePartitionOptions options;
    options.stages = stages;
    options.virtualStages = virtualStages;
    options.ranges = ranges;
    options.microbatches = microbatches;
    options.schedule = schedule;
    options.training = training;
    options.rates = *deviceRates;
    options.memoryBudget = memoryBudget;
    FailureOr<StageAssignment> assignment =
        planPipelineStages(funcs.front(), options);
    if (failed(assignment))
      return signalPassFailure();

    auto *dialect = getContext().getLoadedDialect<DistDialect>();
    auto stageAttr = dialect->getStageAttrHelper();
    Builder b(&getContext());
    for (auto [op, stage] : assignment->stageOf)
      stageAttr.setAttr(op, b.getI64IntegerAttr(stage));
    dialect->getPipelinePlanAttrHelper().setAttr(
        module, pipelinePlanToAttr(assignment->plan, &getContext()));
  }
};
} // namespace

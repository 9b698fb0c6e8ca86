//===- PipelinePlan.cpp - The plan as a #dist.pipeline_plan ----*- C++ -*-===//

#include "paracc/Planner/StagePartition.h"

using namespace mlir;
using namespace mlir::paracc;

static dist::StageSummaryAttr stageToAttr(const StageSummary &s,
                                          MLIRContext *ctx) {
  return dist::StageSummaryAttr::get(ctx, s.firstLayer, s.lastLayer, s.prologue,
                                     s.epilogue, s.params, s.paramBytes,
                                     s.flops, APFloat(s.predictedMs),
                                     s.memoryBytes, s.sentBytes);
}

static SmallVector<dist::StageSummaryAttr>
stagesToAttr(ArrayRef<StageSummary> stages, MLIRContext *ctx) {
  SmallVector<dist::StageSummaryAttr> attrs;
  for (const StageSummary &s : stages)
    attrs.push_back(stageToAttr(s, ctx));
  return attrs;
}

dist::PipelinePlanAttr
mlir::paracc::pipelinePlanToAttr(const PipelinePlan &plan, MLIRContext *ctx) {
  return dist::PipelinePlanAttr::get(
      ctx, stagesToAttr(plan.stages, ctx),
      stagesToAttr(plan.uniformStages, ctx), plan.layers, plan.microbatches,
      plan.schedule, plan.virtualStages, plan.training, plan.rates,
      APFloat(plan.bubbleFormula), APFloat(plan.bubblePredicted),
      APFloat(plan.uniformBubblePredicted));
}

static std::vector<StageSummary>
stagesFromAttr(ArrayRef<dist::StageSummaryAttr> attrs) {
  std::vector<StageSummary> stages;
  for (dist::StageSummaryAttr a : attrs) {
    StageSummary s;
    s.firstLayer = a.getFirstLayer();
    s.lastLayer = a.getLastLayer();
    s.prologue = a.getPrologue();
    s.epilogue = a.getEpilogue();
    s.params = a.getParams();
    s.paramBytes = a.getParamBytes();
    s.flops = a.getFlops();
    s.predictedMs = a.getPredictedMs().convertToDouble();
    s.memoryBytes = a.getMemoryBytes();
    s.sentBytes = a.getSentBytes();
    stages.push_back(s);
  }
  return stages;
}

PipelinePlan mlir::paracc::pipelinePlanFromAttr(dist::PipelinePlanAttr attr) {
  PipelinePlan plan;
  plan.stages = stagesFromAttr(attr.getStages());
  plan.uniformStages = stagesFromAttr(attr.getUniformStages());
  plan.layers = attr.getLayers();
  plan.microbatches = attr.getMicrobatches();
  plan.schedule = attr.getSchedule();
  plan.virtualStages = attr.getVirtualStages();
  plan.training = attr.getTraining();
  plan.rates = attr.getRates().str();
  plan.bubbleFormula = attr.getBubbleFormula().convertToDouble();
  plan.bubblePredicted = attr.getBubblePredicted().convertToDouble();
  plan.uniformBubblePredicted =
      attr.getUniformBubblePredicted().convertToDouble();
  return plan;
}

//===- PlanReport.cpp - The planner's choice as text and JSON ------------===//

#include "paracc/Driver/Plan.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::paracc;

static double gib(double bytes) { return bytes / double(int64_t(1) << 30); }

static std::string describeSchedule(const ParallelPlan &plan) {
  if (plan.size("pp") == 1)
    return "-";
  std::string s = stringifyOption(plan.schedule).str();
  if (plan.schedule == PipelineSchedule::Interleaved)
    s += " v" + std::to_string(plan.virtualStages);
  return s;
}

void mlir::paracc::printPlanText(const ModelProfile &model,
                                 const PlanRequest &request,
                                 const PlanSearchResult &result,
                                 llvm::raw_ostream &os) {
  const Cluster &c = request.cluster;
  std::string parameters =
      model.parameters >= 1e9
          ? llvm::formatv("{0:F1} B", model.parameters / 1e9).str()
          : llvm::formatv("{0:F2} M", model.parameters / 1e6).str();
  os << llvm::formatv("paracc plan: {0} ({1} layers, {2} parameters) on "
                      "{3}, global batch {4} x seq {5}, {6} {7}\n",
                      model.name, model.layers, parameters, c.str(),
                      request.globalBatch, model.sequence,
                      model.training ? "training" : "inference",
                      stringifyOption(model.precision));
  if (!c.origin.empty())
    os << "cluster " << c.origin << "\n";
  os << llvm::formatv("{0} plan(s) in {1:F2} s: {2} costed, {3} over the "
                      "{4:F1} GiB usable per device\n",
                      result.enumerated, result.seconds, result.evaluated,
                      result.overMemory, gib(double(c.usableBytes())));
  for (const auto &[tp, why] : model.refused)
    os << "  tp " << tp << " ruled out: " << why << "\n";
  if (result.candidates.empty()) {
    if (result.smallest)
      os << llvm::formatv(
          "no plan fits: the smallest peak is {0:F2} GiB per device "
          "({1}, {2}), over the {3:F2} GiB usable\n",
          gib(result.smallest->predicted.peakMemoryBytes),
          result.smallest->plan.mesh(),
          result.smallest->plan.describe(model.training),
          gib(double(c.usableBytes())));
    return;
  }
  const PlanCandidate &best = result.candidates.front();
  const PlanPrediction &p = best.predicted;
  os << "\nchosen: " << best.plan.mesh() << "\n";
  os << llvm::formatv("  step {0:F4} s, {1:F0} tokens/s, {2:F1} TFLOP/s per "
                      "device (MFU {3:F1} %), bubble {4:F1} %\n",
                      p.stepSeconds, p.tokensPerSecond, p.tflopsPerDevice,
                      100 * p.mfu, 100 * p.bubble);
  os << llvm::formatv(
      "  memory of the largest rank {0:F2} GiB: parameters {1:F2}, gradients "
      "{2:F2}, optimizer state {3:F2}, activations {4:F2}, buffers {5:F2}\n",
      gib(p.peakMemoryBytes), gib(p.parameterBytes), gib(p.gradientBytes),
      gib(p.optimizerStateBytes), gib(p.activationBytes), gib(p.bufferBytes));
  os << llvm::formatv("  step parts: pipeline {0:F4} s, exposed data-parallel "
                      "{1:F4} s, optimizer {2:F4} s; exposed communication "
                      "intra-node {3:F4} s, inter-node {4:F4} s\n",
                      p.pipelineSeconds, p.exposedDataParallelSeconds,
                      p.optimizerSeconds, p.exposedIntraSeconds,
                      p.exposedInterSeconds);
  if (best.plan.size("pp") > 1) {
    os << "  layers per pipeline rank:";
    for (int64_t n : p.stageLayers)
      os << " " << n;
    os << "\n";
  }
  if (!result.whyNotNext.empty())
    os << "  why: " << result.whyNotNext << "\n";
  if (result.fasterOverMemory)
    os << llvm::formatv(
        "  ruled out by memory: {0} would take {1:F4} s but needs {2:F2} GiB "
        "per device, over the {3:F2} GiB usable\n",
        result.fasterOverMemory->plan.describe(model.training),
        result.fasterOverMemory->predicted.stepSeconds,
        gib(result.fasterOverMemory->predicted.peakMemoryBytes),
        gib(double(c.usableBytes())));
  os << "  flags: " << best.plan.describe(model.training) << "\n";
  if (best.plan.size("pp") > 1 && c.device.name != "cpu")
    os << "  note: paracc's GPU runtime runs pipelined executables on CPU "
          "ranks only for now (--mesh auto leaves pp out on GPUs)\n";
  os << "\n";
  os << llvm::formatv("{0,3} {1,-16} {2,-9} {3,-14} {4,-9} {5,4} {6,3} "
                      "{7,10} {8,11} {9,8} {10,6} {11,9} {12,7}\n",
                      "#", "mesh", "mbs x m", "schedule", "recompute", "zero",
                      "sp", "step (s)", "tokens/s", "TFLOP/s", "MFU %",
                      "peak GiB", "bubble");
  for (auto [i, cand] : llvm::enumerate(result.candidates)) {
    const PlanPrediction &q = cand.predicted;
    os << llvm::formatv(
        "{0,3} {1,-16} {2,-9} {3,-14} {4,-9} {5,4} {6,3} {7,10:F4} "
        "{8,11:F0} {9,8:F1} {10,6:F1} {11,9:F2} {12,6:F1}%\n",
        i + 1,
        cand.plan.mesh() +
            (cand.plan.cpAttention == CpAttention::Ring ? " ring" : ""),
        std::to_string(cand.plan.microBatchSize) + "x" +
            std::to_string(cand.plan.microbatches),
        describeSchedule(cand.plan), stringifyOption(cand.plan.recompute),
        cand.plan.zero, cand.plan.sequenceParallel ? "on" : "-", q.stepSeconds,
        q.tokensPerSecond, q.tflopsPerDevice, 100 * q.mfu,
        gib(q.peakMemoryBytes), 100 * q.bubble);
  }
}

static llvm::json::Object planJson(const ParallelPlan &plan, bool training) {
  return llvm::json::Object{
      {"mesh", plan.mesh()},
      {"dp", plan.size("dp")},
      {"ep", plan.size("ep")},
      {"pp", plan.size("pp")},
      {"cp", plan.size("cp")},
      {"tp", plan.size("tp")},
      {"sp", plan.sequenceParallel},
      {"microbatches", plan.microbatches},
      {"micro_batch_size", plan.microBatchSize},
      {"schedule", plan.size("pp") > 1 ? stringifyOption(plan.schedule).str()
                                       : std::string("none")},
      {"virtual_stages", plan.virtualStages},
      {"recompute", stringifyOption(plan.recompute).str()},
      {"zero", plan.zero},
      {"zero_shard_size", plan.zeroShardSize},
      {"cp_attention", stringifyOption(plan.cpAttention).str()},
      {"flags", plan.flags(training)},
  };
}

static llvm::json::Object predictedJson(const PlanPrediction &p) {
  llvm::json::Array layers;
  for (int64_t n : p.stageLayers)
    layers.push_back(n);
  return llvm::json::Object{
      {"step_seconds", p.stepSeconds},
      {"tokens_per_second", p.tokensPerSecond},
      {"tflops_per_gpu", p.tflopsPerDevice},
      {"mfu", p.mfu},
      {"peak_memory_bytes", p.peakMemoryBytes},
      {"memory", llvm::json::Object{{"parameters", p.parameterBytes},
                                    {"gradients", p.gradientBytes},
                                    {"optimizer_state", p.optimizerStateBytes},
                                    {"activations", p.activationBytes},
                                    {"buffers", p.bufferBytes}}},
      {"bubble", p.bubble},
      {"pipeline_seconds", p.pipelineSeconds},
      {"exposed_data_parallel_seconds", p.exposedDataParallelSeconds},
      {"optimizer_seconds", p.optimizerSeconds},
      {"exposed_intra_node_seconds", p.exposedIntraSeconds},
      {"exposed_inter_node_seconds", p.exposedInterSeconds},
      {"stage_layers", std::move(layers)},
  };
}

static llvm::json::Object candidateJson(const PlanCandidate &candidate,
                                        bool training) {
  llvm::json::Object o = planJson(candidate.plan, training);
  o["predicted"] = predictedJson(candidate.predicted);
  return o;
}

static llvm::json::Array candidatesJson(llvm::ArrayRef<PlanCandidate> list,
                                        bool training) {
  llvm::json::Array out;
  for (const PlanCandidate &candidate : list)
    out.push_back(candidateJson(candidate, training));
  return out;
}

void mlir::paracc::printPlanJson(const ModelProfile &model,
                                 const PlanRequest &request,
                                 const PlanSearchResult &result,
                                 llvm::raw_ostream &os) {
  const Cluster &c = request.cluster;
  llvm::json::Array refused;
  for (const auto &[tp, why] : model.refused)
    refused.push_back(llvm::json::Object{{"tp", tp}, {"why", why}});
  llvm::json::Object root{
      {"model",
       llvm::json::Object{{"name", model.name},
                          {"layers", model.layers},
                          {"parameters", model.parameters},
                          {"sequence", model.sequence},
                          {"profiled_batch", model.batch},
                          {"training", model.training},
                          {"precision", stringifyOption(model.precision).str()},
                          {"refused_tp", std::move(refused)}}},
      {"cluster",
       llvm::json::Object{{"nodes", c.nodes},
                          {"devices_per_node", c.devicesPerNode},
                          {"device", c.device.name.str()},
                          {"origin", c.origin},
                          {"memory_bytes", c.device.memoryBytes},
                          {"reserve_bytes", c.reserveBytes},
                          {"intra_bytes_per_second", c.intra.bytesPerSecond},
                          {"inter_bytes_per_second", c.inter.bytesPerSecond}}},
      {"global_batch", request.globalBatch},
      {"search",
       llvm::json::Object{{"seconds", result.seconds},
                          {"enumerated", result.enumerated},
                          {"evaluated", result.evaluated},
                          {"over_memory", result.overMemory},
                          {"fitting", int64_t(result.points.size())}}},
      {"candidates", candidatesJson(result.candidates, model.training)},
      {"pareto", candidatesJson(result.pareto, model.training)},
  };
  if (!result.candidates.empty()) {
    root["plan"] = planJson(result.candidates.front().plan, model.training);
    root["predicted"] = predictedJson(result.candidates.front().predicted);
    root["why"] = result.whyNotNext;
  }
  if (result.fasterOverMemory)
    root["faster_over_memory"] =
        candidateJson(*result.fasterOverMemory, model.training);
  if (result.smallest)
    root["smallest_over_memory"] =
        candidateJson(*result.smallest, model.training);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

std::string mlir::paracc::noPlanFits(const PlanSearchResult &result,
                                     const Cluster &cluster, bool training) {
  std::string message = "no plan of " + cluster.str() + " fits in " +
                        std::to_string(cluster.usableBytes()) +
                        " bytes per device";
  if (result.smallest)
    message +=
        llvm::formatv("; the smallest peak is {0} bytes ({1})",
                      int64_t(result.smallest->predicted.peakMemoryBytes),
                      result.smallest->plan.describe(training))
            .str();
  return message;
}

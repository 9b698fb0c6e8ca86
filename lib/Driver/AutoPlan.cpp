//===- AutoPlan.cpp - --mesh auto: the planner's choice, compiled --------===//

#include "paracc/Driver/Plan.h"

#include "paracc/runtime/GpuRunner.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <thread>

using namespace mlir;
using namespace mlir::paracc;

std::optional<Cluster> mlir::paracc::resolveCluster(StringRef text,
                                                    Device device,
                                                    std::string &error) {
  std::string spec = text.str();
  if (text == "local") {
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    spec = "1x" + std::to_string(cores) + ":cpu";
#ifdef PARACC_HAVE_CUDA
    if (device != Device::Cpu)
      if (auto count = ::paracc::rt::cudaDeviceCount(); count && *count > 0)
        spec = "1x" + std::to_string(*count) + ":h200";
#endif
  }
  return parseCluster(spec, error);
}

FailureOr<PlanCandidate>
mlir::paracc::chooseAutoPlan(MLIRContext &context, const ModelSource &source,
                             CompileOptions &options, const Cluster &cluster,
                             CompileDiagnostics &diagnostics) {
  FailureOr<ModelProfile> model = profileModel(
      context, source, options, cluster, /*maxTensorParallel=*/0, diagnostics);
  if (failed(model))
    return failure();
  PlanRequest request;
  request.cluster = cluster;
  request.globalBatch = model->batch;
  request.top = 2;
  PlanSearchResult result = searchPlans(*model, request);
  const bool training = options.training.has_value();
  if (result.candidates.empty()) {
    diagnostics.errors << "paracc: error: --mesh auto: "
                       << noPlanFits(result, cluster, training) << "\n";
    return failure();
  }
  const PlanCandidate &best = result.candidates.front();
  const ParallelPlan &plan = best.plan;
  options.mesh = plan.mesh() == "one rank" ? "" : plan.mesh();
  options.sequenceParallel = plan.sequenceParallel;
  options.microbatches = plan.microbatches;
  options.schedule = plan.schedule;
  options.virtualStages = plan.virtualStages;
  if (training) {
    options.training->recompute = plan.recompute;
    options.training->zero = plan.zero;
  }
  diagnostics.notes << llvm::formatv(
      "paracc: --mesh auto on {0}: {1} (predicted step {2:F4} s, peak "
      "{3:F3} GiB per rank; {4} plans in {5:F2} s)\n",
      cluster.str(), plan.describe(training), best.predicted.stepSeconds,
      best.predicted.peakMemoryBytes / double(int64_t(1) << 30),
      result.enumerated, result.seconds);
  diagnostics.notes.flush();
  return best;
}

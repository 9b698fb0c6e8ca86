//===- PlanModel.cpp - paracc plan: profile, search, report --------------===//

#include "paracc/Driver/Plan.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::paracc;

/// The one plan a compile's options describe (a mesh given by hand).
static std::optional<ParallelPlan>
fixedPlan(const CompileOptions &options, int64_t batch, std::string &error) {
  std::optional<MeshSpec> mesh = parseMeshSpec(options.mesh, "--mesh", error,
                                               /*maxRanks=*/int64_t(1) << 24);
  if (!mesh)
    return std::nullopt;
  ParallelPlan plan;
  for (const MeshSpec::Axis &axis : mesh->axes)
    plan.axes.push_back({axis.name, axis.size});
  plan.sequenceParallel = options.sequenceParallel;
  plan.cpAttention = options.cpAttention;
  plan.microbatches = options.microbatches;
  plan.schedule = options.schedule;
  plan.virtualStages =
      resolveVirtualStages(options.schedule, options.virtualStages);
  if (options.training) {
    plan.recompute = options.training->recompute;
    plan.zero = options.training->zero;
    plan.zeroShardSize = options.training->zeroShardSize;
  }
  // ep's ranks are data-parallel ranks too.
  int64_t dp = plan.size("dp") * plan.size("ep");
  if (plan.microbatches < 1 || batch % (dp * plan.microbatches) != 0) {
    error = "--global-batch " + std::to_string(batch) +
            " is not divisible by dp " + std::to_string(dp) + " x " +
            std::to_string(plan.microbatches) + " micro-batch(es)";
    return std::nullopt;
  }
  plan.microBatchSize = batch / (dp * plan.microbatches);
  return plan;
}

FailureOr<PlanOutcome>
mlir::paracc::planModel(MLIRContext &context, const ModelSource &source,
                        const CompileOptions &options, const PlanOptions &plan,
                        CompileDiagnostics &diagnostics) {
  llvm::raw_ostream &err = diagnostics.errors;
  std::string error;
  std::optional<Cluster> cluster =
      resolveCluster(plan.cluster, Device::Auto, error);
  if (!cluster) {
    err << "paracc: error: --cluster: " << error << "\n";
    return failure();
  }
  if (plan.top < 1 || plan.globalBatch < 0) {
    err << "paracc: error: --top must be >= 1 and --global-batch >= 1\n";
    return failure();
  }
  FailureOr<ModelProfile> model = profileModel(
      context, source, options, *cluster, plan.maxTensorParallel, diagnostics);
  if (failed(model))
    return failure();

  PlanOutcome outcome;
  outcome.model = std::move(*model);
  PlanRequest &request = outcome.request;
  request.cluster = *cluster;
  request.globalBatch =
      plan.globalBatch > 0 ? plan.globalBatch : outcome.model.batch;
  request.top = plan.top;
  request.tensorParallelAcrossNodes = plan.tensorParallelAcrossNodes;
  request.progress = plan.progress;
  if (!options.mesh.empty() && options.mesh != "auto") {
    request.fixed = fixedPlan(options, request.globalBatch, error);
    // The same checks as the search's, with the reason.
    if (!request.fixed ||
        !predictPlan(outcome.model, request, *request.fixed, error)) {
      err << "paracc: error: --mesh " << options.mesh << ": " << error << "\n";
      return failure();
    }
  }
  outcome.result = searchPlans(outcome.model, request);
  llvm::raw_string_ostream text(outcome.text), json(outcome.json),
      html(outcome.html);
  printPlanText(outcome.model, request, outcome.result, text);
  printPlanJson(outcome.model, request, outcome.result, json);
  printPlanHtml(outcome.model, request, outcome.result, outcome.text, html);
  return outcome;
}

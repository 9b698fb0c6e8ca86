//===- Plan.cpp - paracc plan: the parallel plan for a model and a cluster
//-===//
//
// `paracc plan MODEL --cluster 16x8:h100 --global-batch 1024 [--train]`:
// profiles the model from its shapes (lib/Driver/PlanProfile.cpp), searches
// the cluster's plans (Planner/PlanSearch.h) and prints the choice, the
// top-K table and the flags that run it; --mesh ... predicts one plan.
//
//===----------------------------------------------------------------------===//

#include "DriverSupport.h"

#include "paracc/Driver/Plan.h"
#include "paracc/runtime/ExitCodes.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::paracc;
namespace cl = llvm::cl;
namespace prt = ::paracc::rt;

cl::SubCommand &mlir::paracc::planSubCommand() {
  static cl::SubCommand command(
      "plan", "Choose the parallel plan of a model for a cluster, from its "
              "shapes");
  return command;
}

cl::OptionCategory &mlir::paracc::planCategory() {
  static cl::OptionCategory category("paracc plan options");
  return category;
}

namespace {
#define PLAN_OPT cl::sub(planSubCommand()), cl::cat(planCategory())
cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model>"),
                               cl::Required, PLAN_OPT);
cl::opt<std::string> clusterOption(
    "cluster",
    cl::desc("NODESxDEVICES:KIND[,intra=GB/s][,inter=GB/s][,memory=GiB]"
             "[,reserve=GiB] (kinds: h200, h100, a100, a100-40g, cpu), a "
             ".json file, or local (this machine's GPUs, else its cores as "
             "CPU ranks)"),
    cl::init("local"), PLAN_OPT);
cl::opt<int64_t> globalBatch("global-batch",
                             cl::desc("Sequences per step (all data-parallel "
                                      "ranks together; default: the "
                                      "model's batch)"),
                             cl::init(0), PLAN_OPT);
cl::opt<int64_t>
    seqOption("seq",
              cl::desc("Sequence length of a token model (inputs [2, SEQ] are "
                       "profiled); default: the model's own input shapes"),
              cl::init(0), PLAN_OPT);
cl::opt<bool> trainOption("train",
                          cl::desc("Plan a training step (a loss "
                                   "model, or --loss)"),
                          PLAN_OPT);
cl::opt<std::string>
    lossOption("loss",
               cl::desc("Training: the loss to add to a logits model "
                        "(next-token-ce, ce)"),
               cl::init(""), PLAN_OPT);
cl::opt<Precision> precisionOption("precision",
                                   cl::desc("Compute type: f32, bf16, f16"),
                                   cl::init(Precision::F32), PLAN_OPT);
cl::opt<int64_t> topOption("top", cl::desc("Plans in the table"), cl::init(10),
                           PLAN_OPT);
cl::opt<std::string> jsonPath("json", cl::desc("Write the result as JSON"),
                              cl::value_desc("FILE"), cl::init(""), PLAN_OPT);
cl::opt<std::string> paramsOption(
    "param-args",
    cl::desc("StableHLO: the entry function's leading N arguments are "
             "parameters"),
    cl::init(""), PLAN_OPT);
cl::opt<int64_t> maxTensorParallel(
    "max-tp",
    cl::desc("Largest tensor-parallel degree (default: a node's "
             "devices)"),
    cl::init(0), PLAN_OPT);
cl::opt<bool> tpAcrossNodes("tp-across-nodes",
                            cl::desc("Let tensor parallelism span nodes"),
                            PLAN_OPT);
// One plan, no search.
cl::opt<std::string> meshOption(
    "mesh",
    cl::desc("Predict this plan only: its mesh, outermost axis first (dp, "
             "pp, tp)"),
    cl::init(""), PLAN_OPT);
cl::opt<int64_t> microbatchesOption("microbatches",
                                    cl::desc("With --mesh: micro-batches"),
                                    cl::init(1), PLAN_OPT);
cl::opt<PipelineSchedule>
    scheduleOption("pipeline-schedule",
                   cl::desc("With --mesh: the pipeline schedule"),
                   cl::init(kDefaultPipelineSchedule), PLAN_OPT);
cl::opt<int64_t>
    virtualStagesOption("virtual-stages",
                        cl::desc("With --mesh: chunks per rank (interleaved)"),
                        cl::init(0), PLAN_OPT);
cl::opt<RecomputePolicy>
    recomputeOption("recompute",
                    cl::desc("With --mesh: none, selective or full"),
                    cl::init(RecomputePolicy::None), PLAN_OPT);
cl::opt<int64_t> zeroOption("zero", cl::desc("With --mesh: the ZeRO stage"),
                            cl::init(0), PLAN_OPT);
cl::opt<bool> spOption("sp", cl::desc("With --mesh: sequence parallelism"),
                       PLAN_OPT);
#undef PLAN_OPT
} // namespace

/// The plan --mesh and its companions describe.
static std::optional<ParallelPlan> fixedPlan(int64_t batch,
                                             std::string &error) {
  std::optional<MeshSpec> mesh = parseMeshSpec(meshOption, "--mesh", error,
                                               /*maxRanks=*/int64_t(1) << 24);
  if (!mesh)
    return std::nullopt;
  ParallelPlan plan;
  for (const MeshSpec::Axis &axis : mesh->axes)
    plan.axes.push_back({axis.name, axis.size});
  plan.sequenceParallel = spOption;
  plan.microbatches = microbatchesOption;
  plan.schedule = scheduleOption;
  plan.virtualStages =
      resolveVirtualStages(scheduleOption, virtualStagesOption);
  plan.recompute = recomputeOption;
  plan.zero = zeroOption;
  int64_t dp = plan.size("dp");
  if (plan.microbatches < 1 || batch % (dp * plan.microbatches) != 0) {
    error = "--global-batch " + std::to_string(batch) +
            " is not divisible by dp " + std::to_string(dp) + " x " +
            std::to_string(plan.microbatches) + " micro-batch(es)";
    return std::nullopt;
  }
  plan.microBatchSize = batch / (dp * plan.microbatches);
  return plan;
}

int mlir::paracc::runPlan() {
  std::string error;
  std::optional<Cluster> cluster =
      resolveCluster(clusterOption, Device::Auto, error);
  if (!cluster) {
    llvm::errs() << "paracc: error: --cluster: " << error << "\n";
    return prt::kExitError;
  }
  if (topOption < 1 || globalBatch < 0 || seqOption < 0) {
    llvm::errs() << "paracc: error: --top must be >= 1, --global-batch and "
                    "--seq >= 1\n";
    return prt::kExitError;
  }
  if (!lossOption.empty() && !trainOption) {
    llvm::errs() << "paracc: error: --loss needs --train\n";
    return prt::kExitError;
  }

  CompileOptions options;
  if (seqOption > 0)
    for (int i = 0; i < 16; ++i)
      options.import.inputShapesByPosition.push_back(
          SmallVector<int64_t>{2, seqOption});
  options.precision = precisionOption;
  options.device = cluster->device.name == "cpu" ? Device::Cpu : Device::Gpu;
  if (trainOption) {
    TrainingOptions &training = options.training.emplace();
    training.loss = lossOption;
    training.optimizer.emplace();
  }
  ModelSource source;
  source.path = modelPath;
  source.parameters = paramsOption;

  MLIRContext context;
  setUpParaccContext(context, llvm::errs());
  CompileDiagnostics diagnostics(llvm::errs(), llvm::outs());
  FailureOr<ModelProfile> model = profileModel(
      context, source, options, *cluster, maxTensorParallel, diagnostics);
  if (failed(model))
    return failedCompileExitCode(diagnostics);

  PlanRequest request;
  request.cluster = *cluster;
  request.globalBatch = globalBatch > 0 ? int64_t(globalBatch) : model->batch;
  request.top = topOption;
  request.tensorParallelAcrossNodes = tpAcrossNodes;
  if (!meshOption.empty()) {
    request.fixed = fixedPlan(request.globalBatch, error);
    if (!request.fixed) {
      llvm::errs() << "paracc: error: " << error << "\n";
      return prt::kExitError;
    }
    // The same checks as the search, with the reason.
    if (!predictPlan(*model, request, *request.fixed, error)) {
      llvm::errs() << "paracc: error: --mesh " << meshOption << ": " << error
                   << "\n";
      return prt::kExitError;
    }
  }
  request.progress = [](int64_t done, int64_t total, double best) {
    llvm::errs() << llvm::formatv("paracc plan: {0}/{1} plans, best {2:F4} s\n",
                                  done, total, best);
  };
  PlanSearchResult result = searchPlans(*model, request);
  printPlanText(*model, request, result, llvm::outs());
  if (!jsonPath.empty()) {
    std::string json;
    llvm::raw_string_ostream os(json);
    printPlanJson(*model, request, result, os);
    if (failed(writeTextFile(jsonPath, json)))
      return prt::kExitError;
  }
  if (result.candidates.empty()) {
    llvm::errs() << "paracc: error: no plan fits in " << cluster->usableBytes()
                 << " bytes per device";
    if (result.smallest)
      llvm::errs() << llvm::formatv(
          "; the smallest peak is {0} bytes ({1})",
          int64_t(result.smallest->predicted.peakMemoryBytes),
          result.smallest->plan.describe(model->training));
    llvm::errs() << "\n";
    return prt::kExitError;
  }
  return prt::kExitOk;
}

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
cl::opt<std::string> reportPath(
    "report",
    cl::desc("Write an HTML report: the plans by step and memory with their "
             "Pareto front, memory by category, the chosen step's timeline"),
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
cl::opt<int64_t> zeroShardSizeOption(
    "zero-shard-size",
    cl::desc("With --mesh and --zero: hybrid sharding's group of dp ranks"),
    cl::init(0), PLAN_OPT);
cl::opt<bool> spOption("sp", cl::desc("With --mesh: sequence parallelism"),
                       PLAN_OPT);
#undef PLAN_OPT
} // namespace

int mlir::paracc::runPlan() {
  if (seqOption < 0) {
    llvm::errs() << "paracc: error: --seq must be >= 1\n";
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
  // The plan --mesh names, if any.
  options.mesh = meshOption;
  options.sequenceParallel = spOption;
  options.microbatches = microbatchesOption;
  options.schedule = scheduleOption;
  options.virtualStages = virtualStagesOption;
  if (trainOption) {
    TrainingOptions &training = options.training.emplace();
    training.loss = lossOption;
    training.optimizer.emplace();
    training.recompute = recomputeOption;
    training.zero = zeroOption;
    training.zeroShardSize = zeroShardSizeOption;
  }
  ModelSource source;
  source.path = modelPath;
  source.parameters = paramsOption;
  PlanOptions plan;
  plan.cluster = clusterOption;
  plan.globalBatch = globalBatch;
  plan.top = topOption;
  plan.maxTensorParallel = maxTensorParallel;
  plan.tensorParallelAcrossNodes = tpAcrossNodes;
  plan.progress = [](int64_t done, int64_t total, double best) {
    llvm::errs() << llvm::formatv("paracc plan: {0}/{1} plans, best {2:F4} s\n",
                                  done, total, best);
  };

  MLIRContext context;
  setUpParaccContext(context, llvm::errs());
  CompileDiagnostics diagnostics(llvm::errs(), llvm::outs());
  FailureOr<PlanOutcome> outcome =
      planModel(context, source, options, plan, diagnostics);
  if (failed(outcome))
    return failedCompileExitCode(diagnostics);
  llvm::outs() << outcome->text;
  if (!jsonPath.empty() && failed(writeTextFile(jsonPath, outcome->json)))
    return prt::kExitError;
  if (!reportPath.empty() && failed(writeTextFile(reportPath, outcome->html)))
    return prt::kExitError;
  const PlanSearchResult &result = outcome->result;
  if (result.candidates.empty()) {
    llvm::outs().flush();
    llvm::errs() << "paracc: error: "
                 << noPlanFits(result, outcome->request.cluster,
                               outcome->model.training)
                 << "\n";
    return prt::kExitError;
  }
  return prt::kExitOk;
}

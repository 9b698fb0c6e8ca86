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

#include "paracc/Compiler/CommandLineBinder.h"
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
cl::opt<int64_t>
    seqOption("seq",
              cl::desc("Sequence length of a token model (inputs [2, SEQ] are "
                       "profiled); default: the model's own input shapes"),
              cl::init(0), PLAN_OPT);
cl::opt<bool> trainOption("train",
                          cl::desc("Plan a training step (a loss "
                                   "model, or --loss)"),
                          PLAN_OPT);
cl::opt<std::string> jsonPath("json", cl::desc("Write the result as JSON"),
                              cl::value_desc("FILE"), cl::init(""), PLAN_OPT);
cl::opt<std::string> reportPath(
    "report",
    cl::desc("Write an HTML report: the plans by step and memory with their "
             "Pareto front, memory by category, the chosen step's timeline"),
    cl::value_desc("FILE"), cl::init(""), PLAN_OPT);
cl::opt<std::string> oldParamArgs("param-args",
                                  cl::desc("Deprecated: --params"),
                                  cl::init(""), cl::Hidden, PLAN_OPT);
#undef PLAN_OPT

/// The options that `paracc plan` shares with the other front doors,
/// declared once (OptionsBinder.h): with --mesh, the one plan to predict.
struct PlanFlags {
  CompileOptions compile;
  ModelSource source;
  TrainingOptions training;
  PlanOptions plan;
  CommandLineBinder binder{&planSubCommand(), planCategory()};

  PlanFlags() {
    compile.bindOptions(binder);
    source.bindOptions(binder);
    training.bindOptions(binder);
    plan.bindOptions(binder);
  }
};

PlanFlags &planFlags() {
  static PlanFlags flags;
  return flags;
}
} // namespace

void mlir::paracc::declarePlanOptions() { (void)planFlags(); }

int mlir::paracc::runPlan() {
  PlanFlags &flags = planFlags();
  if (seqOption < 0) {
    llvm::errs() << "paracc: error: --seq must be >= 1\n";
    return prt::kExitError;
  }
  if (flags.binder.given("loss") && !trainOption) {
    llvm::errs() << "paracc: error: --loss needs --train\n";
    return prt::kExitError;
  }
  CompileOptions &options = flags.compile;
  if (seqOption > 0)
    for (int i = 0; i < 16; ++i)
      options.import.inputShapesByPosition.push_back(
          SmallVector<int64_t>{2, seqOption});
  if (failed(options.applyInputShapes(llvm::errs())))
    return prt::kExitError;
  if (trainOption)
    options.training = flags.training;
  ModelSource &source = flags.source;
  source.path = modelPath;
  if (oldParamArgs.getNumOccurrences()) {
    llvm::errs() << "paracc: warning: --param-args is deprecated and will be "
                    "removed: use --params\n";
    if (!flags.binder.given("params"))
      source.parameters = oldParamArgs;
  }
  PlanOptions &plan = flags.plan;
  plan.cluster = options.cluster;
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

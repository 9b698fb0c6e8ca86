//===- CompileTraining.cpp - A loss model to a training step ----*- C++ -*-===//

#include "CompileSteps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Driver/DriverOptions.h"
#include "paracc/Driver/StepMemoryPlan.h"
#include "paracc/Pipelines/Pipelines.h"
#include "paracc/Planner/Explain.h"
#include "paracc/Planner/Recompute.h"
#include "paracc/Planner/StagePartition.h"
#include "paracc/Target/Executable/ExecutableWriter.h"

#include <cmath>
#include <unistd.h>

using namespace mlir;
using namespace mlir::paracc;
namespace prt = ::paracc::rt;

std::string
mlir::paracc::optimizerIdentity(const graph::OptimizerPassOptions &o) {
  std::string identity;
  llvm::raw_string_ostream os(identity);
  os << o.optimizer << " beta1=" << o.beta1 << " beta2=" << o.beta2
     << " eps=" << o.eps << " weight_decay=" << o.weightDecay
     << " momentum=" << o.momentum << " clip_grad_norm=" << o.clipGradNorm;
  return identity;
}

/// Checks --zero and --zero-prefetch: a stage of 0 to 3, over a dp axis of
/// size > 1.
static LogicalResult checkZeroOption(const TrainingOptions &training,
                                     StringRef meshText, const MeshSpec &mesh,
                                     llvm::raw_ostream &err) {
  const int64_t zero = training.zero;
  if (zero < 0 || zero > 3) {
    err << "paracc: error: --zero must be 0 (none), 1 (optimizer state), 2 "
           "(and gradients) or 3 (and parameters sharded over dp), got "
        << zero << "\n";
    return failure();
  }
  if (training.zeroPrefetch < 0) {
    err << "paracc: error: --zero-prefetch must be >= 0 (layers ahead), got "
        << training.zeroPrefetch << "\n";
    return failure();
  }
  const int64_t shards = training.zeroShardSize;
  if (shards != 0 &&
      (zero == 0 || shards < 1 || mesh.size("dp") % shards != 0)) {
    err << "paracc: error: --zero-shard-size " << shards
        << " must divide the dp axis (of size " << mesh.size("dp")
        << ") and needs --zero 1, 2 or 3\n";
    return failure();
  }
  if (zero > 0 && mesh.size("dp") < 2) {
    err << "paracc: error: --zero " << zero
        << " shards over the data-parallel axis and needs --mesh with dp of "
           "size > 1, got '"
        << meshText << "'\n";
    return failure();
  }
  return success();
}

/// Fails unless `func` returns one scalar float: the loss.
static LogicalResult checkLossOutput(func::FuncOp func, StringRef modelPath,
                                     llvm::raw_ostream &err) {
  FunctionType type = func.getFunctionType();
  for (auto [i, t] : llvm::enumerate(type.getResults())) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    bool scalarFloat = ranked && ranked.getNumElements() == 1 &&
                       isa<FloatType>(ranked.getElementType());
    if (type.getNumResults() == 1 && scalarFloat)
      return success();
    std::string name = "output_" + std::to_string(i);
    if (auto attr = func.getResultAttrOfType<StringAttr>(i, graph::kNameAttrName))
      name = attr.getValue().str();
    std::string shape;
    llvm::raw_string_ostream os(shape);
    os << t;
    err << "paracc: error: " << modelPath << ": output '" << name << "' is "
        << shape << "; paracc train needs a model with "
        << "one scalar float output, the loss";
    if (type.getNumResults() != 1)
      err << " (it has " << type.getNumResults() << " outputs)";
    err << ". A model that returns logits needs a loss added "
           "(--loss next-token-ce or --loss ce, issue 9)\n";
    return failure();
  }
  err << "paracc: error: " << modelPath << " has no output\n";
  return failure();
}

/// auto's budget without --memory-budget: 90 % of one H200's memory on the
/// GPU, of the host's memory shared by the ranks on the CPU.
static int64_t defaultMemoryBudget(Device device, int64_t ranks) {
  if (device == Device::Gpu)
    return int64_t(0.9 * 141e9);
  int64_t host = int64_t(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  return int64_t(0.9 * double(host) / double(std::max<int64_t>(ranks, 1)));
}

/// The --explain report of the partitioned step, with the arena and peak of
/// the written executable's memory plan (the rank that needs most).
static void explainStep(const CompiledStep &step, StringRef costRates,
                        CompiledProgram &result) {
  ExplainReport report = analyzePlan(*step.module);
  report.frozenParameters = result.frozenParameters;
  if (std::optional<DeviceRates> rates = ratesByName(costRates))
    report.predicted = predictStep(*step.module, *rates);
  const prt::Executable &exe = *step.exe;
  // (A gradient check's step has no optimizer: its categories are the
  // forward and backward's alone.)
  report.step = step.memory;
  // Per stage: the micro-batches the schedule keeps (1F1B: as many as the
  // stages from it to the last; GPipe: all; zb-h1: up to p; interleaved:
  // per chunk) and its rank's memory plan's arena.
  if (report.pipeline && exe.pipelineAxis() >= 0) {
    PipelinePlan &plan = *report.pipeline;
    const int64_t v = plan.virtualStages;
    const int64_t p = int64_t(plan.stages.size()) / v;
    std::vector<int64_t> inFlight = stagesInFlight(plan);
    for (const prt::FunctionInfo &f : exe.functions()) {
      if (f.stage < 0 || f.stage >= p)
        continue;
      for (int64_t chunk = 0; chunk < v; ++chunk) {
        StageSummary &s = plan.stages[chunk * p + f.stage];
        s.arenaBytes = int64_t(f.arenaBytes);
        s.inFlight = inFlight[chunk * p + f.stage];
      }
    }
  }
  llvm::raw_string_ostream text(result.explainText);
  printExplainText(report, text);
  llvm::raw_string_ostream json(result.explainJson);
  printExplainJson(report, json);
}

LogicalResult mlir::paracc::compileTrainingStep(
    MLIRContext &context, const ModelSource &source,
    const CompileOptions &options, const TrainingOptions &training,
    CompiledProgram &result, CompileDiagnostics &diagnostics) {
  llvm::raw_ostream &err = diagnostics.errors;
  const bool checking = training.gradientsOnly;
  const CompilePhase last = options.compileTo.value_or(CompilePhase::Lowered);
  if (!training.loss.empty() && training.loss != "next-token-ce" &&
      training.loss != "ce") {
    err << "paracc: error: --loss must be next-token-ce or ce, got '"
        << training.loss << "'\n";
    return failure();
  }
  MeshSpec mesh;
  if (failed(checkCompileOptions(options.mesh, options.sequenceParallel,
                                 options.microbatches, mesh, err)))
    return failure();
  // Pipeline stages are cut on the forward graph; the backward's ops run on
  // their forward ops' stages.
  if (mesh.size("pp") == 0 && options.microbatches > 1) {
    err << "paracc: error: --microbatches is the pipeline's micro-batch "
           "count and needs a pp axis in --mesh\n";
    return failure();
  }
  const int64_t virtualStages =
      resolveVirtualStages(options.schedule, options.virtualStages);
  if (failed(checkPipelineOptions(mesh.size("pp"), options.schedule,
                                  virtualStages, options.microbatches,
                                  options.stages, err)) ||
      failed(checkZeroOption(training, options.mesh, mesh, err)))
    return failure();

  WeightStore &weights = result.weights;
  OwningOpRef<ModuleOp> imported =
      importModel(context, source, options, weights, diagnostics);
  if (!imported)
    return failure();
  ModuleOp module = *imported;

  PhasedCompileOptions pipeline = phasedCompileOptions(options, options.device);
  pipeline.train = true;
  pipeline.training = training;
  if (failed(runParaccPipeline(module, pipeline, CompilePhase::Imported,
                               std::min(last, CompilePhase::Cleaned))))
    return failure();
  func::FuncOp main;
  for (auto f : module.getOps<func::FuncOp>())
    if (!main)
      main = f;
  if (!main) {
    err << "paracc: error: the module has no function\n";
    return failure();
  }
  if (failed(checkLossOutput(main, source.path, err)))
    return failure();
  // Annotate the forward, differentiate, add the optimizer; then partition
  // forward and backward together.
  if (last > CompilePhase::Cleaned &&
      failed(runParaccPipeline(module, pipeline, CompilePhase::Cleaned,
                               std::min(last, CompilePhase::Optimized))))
    return failure();
  if (last <= CompilePhase::Optimized) {
    result.ir = printIR(module);
    return success();
  }
  // What autodiff left frozen, before partitioning rewrites the function.
  if (DictionaryAttr frozen = context.getLoadedDialect<graph::GraphDialect>()
                                  ->getFrozenParametersAttrHelper()
                                  .getAttr(main))
    for (NamedAttribute entry : frozen)
      result.frozenParameters.push_back(
          {entry.getName().str(),
           cast<StringAttr>(entry.getValue()).getValue().str()});
  // Partition, recompute and lower a copy of the differentiated step; auto
  // may compile it more than once to fit the budget.
  ExecutableOptions writerOptions;
  writerOptions.embedWeights = options.embedWeights;
  writerOptions.costRates = ratesForDevice(options.device).str();
  if (!checking)
    writerOptions.training = optimizerIdentity(pipeline.optimizerOptions());
  auto compileStep = [&](RecomputePolicy policy,
                         int64_t activationBudget) -> FailureOr<CompiledStep> {
    CompiledStep step;
    step.module = module.clone();
    step.policy = policy;
    step.activationBudget = activationBudget;
    pipeline.training.recompute = policy;
    pipeline.recomputeBudget = activationBudget;
    if (failed(runParaccPipeline(*step.module, pipeline,
                                 CompilePhase::Optimized,
                                 CompilePhase::Lowered)))
      return failure();
    // Every function: the step, or one per pipeline stage.
    FailureOr<std::vector<uint8_t>> bytes =
        writeExecutable(*step.module, weights, writerOptions);
    if (failed(bytes))
      return failure();
    step.bytes = *bytes;
    auto exe = prt::Executable::loadBuffer(std::move(*bytes));
    if (!exe) {
      err << "paracc: error: " << exe.status().message() << "\n";
      return failure();
    }
    step.exe = std::move(*exe);
    step.memory = measureStepMemory(*step.module, *step.exe, options.device);
    return step;
  };
  FailureOr<CompiledStep> compiled =
      compileWithinBudget(training.recompute, training.memoryBudget,
                          defaultMemoryBudget(options.device, mesh.ranks()),
                          compileStep, diagnostics.notes, err);
  if (failed(compiled))
    return failure();
  if (last != CompilePhase::Lowered) {
    // The phases of the step that was chosen, stopped at `last`.
    pipeline.training.recompute = compiled->policy;
    pipeline.recomputeBudget = compiled->activationBudget;
    if (failed(
            runParaccPipeline(module, pipeline, CompilePhase::Optimized, last)))
      return failure();
    result.ir = printIR(module);
    return success();
  }
  if (options.compileTo) {
    result.ir = printIR(*compiled->module);
    return success();
  }
  if (options.explain)
    explainStep(*compiled, writerOptions.costRates, result);
  result.executable = std::move(compiled->bytes);
  result.exe = std::move(compiled->exe);
  return success();
}

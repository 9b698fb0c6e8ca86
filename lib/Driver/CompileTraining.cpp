//===- CompileTraining.cpp - A loss model to a training step ----*- C++ -*-===//

#include "paracc/Driver/CompileTraining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Dist/Transforms/Passes.h"
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

/// Checks a number option: finite, and positive or non-negative.
static bool checkNumber(const char *name, double v, bool allowZero,
                        llvm::raw_ostream &err) {
  if (std::isfinite(v) && (v > 0 || (allowZero && v == 0)))
    return true;
  err << "paracc: error: --" << name << " must be a finite number "
      << (allowZero ? ">= 0" : "> 0") << ", got " << v << "\n";
  return false;
}

LogicalResult mlir::paracc::parseOptimizerOptions(
    StringRef optimizer, StringRef betas, double eps,
    std::optional<double> weightDecay, double momentum, double clipGradNorm,
    graph::OptimizerPassOptions &opt, llvm::raw_ostream &err) {
  opt.optimizer = optimizer.str();
  if (optimizer != "adamw" && optimizer != "sgd") {
    err << "paracc: error: --optimizer must be adamw or sgd, got '"
        << optimizer << "'\n";
    return failure();
  }
  auto [b1, b2] = betas.split(',');
  double beta1, beta2;
  if (b1.trim().getAsDouble(beta1) || b2.trim().getAsDouble(beta2) ||
      !(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1)) {
    err << "paracc: error: --betas must be two numbers in [0, 1), such as "
           "0.9,0.95; got '"
        << betas << "'\n";
    return failure();
  }
  // torch's defaults: AdamW decays by 0.01, SGD not at all.
  double decay = weightDecay ? *weightDecay : optimizer == "sgd" ? 0.0 : 0.01;
  if (!checkNumber("eps", eps, false, err) ||
      !checkNumber("weight-decay", decay, true, err) ||
      !checkNumber("momentum", momentum, true, err) ||
      !checkNumber("clip-grad-norm", clipGradNorm, true, err))
    return failure();
  if (momentum >= 1) {
    err << "paracc: error: --momentum must be below 1\n";
    return failure();
  }
  opt.beta1 = beta1;
  opt.beta2 = beta2;
  opt.eps = eps;
  opt.weightDecay = decay;
  opt.momentum = momentum;
  opt.clipGradNorm = clipGradNorm;
  return success();
}

/// Checks --zero: stage 1 only, over a dp axis of size > 1, without a
/// pipeline.
static LogicalResult checkZeroOption(int64_t zero, StringRef mesh,
                                     ArrayRef<std::string> axisNames,
                                     ArrayRef<int64_t> axisSizes,
                                     llvm::raw_ostream &err) {
  if (zero == 0)
    return success();
  if (zero != 1) {
    err << "paracc: error: --zero must be 0 or 1 (optimizer state sharded "
           "over dp), got "
        << zero
        << "; stages 2 and 3 (gradients, parameters) are not "
           "supported\n";
    return failure();
  }
  if (meshAxisSize(axisNames, axisSizes, "dp") < 2) {
    err << "paracc: error: --zero 1 shards the optimizer state over the "
           "data-parallel axis and needs --mesh with dp of size > 1, got '"
        << mesh << "'\n";
    return failure();
  }
  if (meshAxisSize(axisNames, axisSizes, "pp") > 0) {
    err << "paracc: error: --zero 1 is not supported with a pp axis in "
           "--mesh (pipeline stages update their own parameters)\n";
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
                        CompiledTraining &result) {
  ExplainReport report = analyzePlan(*step.module);
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

static std::string printed(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

CompileStatus
mlir::paracc::compileTraining(MLIRContext &context, const ModelSource &source,
                              const TrainingCompileOptions &options,
                              CompiledTraining &result, llvm::raw_ostream &out,
                              llvm::raw_ostream &err) {
  const bool checking = !options.optimizer;
  if (!options.emit.empty() && options.emit != "differentiated" &&
      options.emit != "compiled") {
    err << "paracc: error: --emit must be 'differentiated' or 'compiled', "
           "got '"
        << options.emit << "'\n";
    return CompileStatus::Error;
  }
  if (!options.loss.empty() && options.loss != "next-token-ce" &&
      options.loss != "ce") {
    err << "paracc: error: --loss must be next-token-ce or ce, got '"
        << options.loss << "'\n";
    return CompileStatus::Error;
  }
  SmallVector<std::string> axisNames;
  SmallVector<int64_t> axisSizes;
  if (failed(checkCompileOptions(options.mesh, options.sequenceParallel,
                                 options.microbatches, axisNames, axisSizes,
                                 err)))
    return CompileStatus::Error;

  WeightStore &weights = result.weights;
  weights.randomFill = options.import.allowMissingWeightData;
  weights.randomSeed = options.seed;
  ImportedModel imported =
      importModel(context, source, options.import, weights);
  if (!imported.module)
    return imported.status;
  ModuleOp module = *imported.module;
  PassManager compile(&context);
  buildCompilePipeline(compile, CompilePipelineOptions());
  if (failed(compile.run(module)))
    return CompileStatus::Error;
  func::FuncOp main;
  for (auto f : module.getOps<func::FuncOp>())
    if (!main)
      main = f;
  if (!main) {
    err << "paracc: error: the module has no function\n";
    return CompileStatus::Error;
  }
  if (!options.loss.empty()) {
    PassManager addLoss(&context);
    addLoss.addNestedPass<func::FuncOp>(
        graph::createAddLossPass({options.loss}));
    // The next-token shift slices the logits: the fusions take the slice
    // into the product (only the kept rows are computed).
    addLoss.addNestedPass<func::FuncOp>(graph::createGraphFusionPass());
    if (failed(addLoss.run(module)))
      return CompileStatus::Error;
  }
  if (failed(checkLossOutput(main, source.path, err)))
    return CompileStatus::Error;
  main.walk([&](graph::DropoutOp d) {
    d.setSeedAttr(IntegerAttr::get(IntegerType::get(&context, 64),
                                   int64_t(options.dropoutSeed)));
  });
  // Pipeline stages are cut on the forward graph; the backward's ops run on
  // their forward ops' stages.
  const int64_t pipelineStages = meshAxisSize(axisNames, axisSizes, "pp");
  if (pipelineStages == 0 && options.microbatches > 1) {
    err << "paracc: error: --microbatches is the pipeline's micro-batch "
           "count and needs a pp axis in --mesh\n";
    return CompileStatus::Error;
  }
  const int64_t virtualStages =
      resolveVirtualStages(options.schedule, options.virtualStages);
  if (failed(checkPipelineOptions(pipelineStages, options.schedule,
                                  virtualStages, options.microbatches,
                                  options.stages, err)) ||
      failed(checkZeroOption(options.zero, options.mesh, axisNames, axisSizes,
                             err)))
    return CompileStatus::Error;
  if (failed(addMicrobatchAxis(module, pipelineStages, virtualStages,
                               options.stages, options.microbatches,
                               options.schedule, /*training=*/true, axisNames,
                               axisSizes)))
    return CompileStatus::Error;

  // Annotate the forward, differentiate, then partition forward and
  // backward together.
  DistributePipelineOptions distOptions;
  distOptions.sequenceParallel = options.sequenceParallel;
  distOptions.schedule = options.schedule;
  distOptions.virtualStages = virtualStages;
  if (!axisNames.empty()) {
    setModuleMesh(module, axisNames, axisSizes);
    PassManager annotate(&context);
    buildShardingAnnotationPipeline(annotate, distOptions);
    if (failed(annotate.run(module)))
      return CompileStatus::Error;
  }
  // Mixed precision: the forward computes in bf16/f16 from f32 master
  // weights, so differentiating it gives f32 gradients for the optimizer.
  if (options.precision != Precision::F32) {
    PassManager precision(&context);
    precision.addNestedPass<func::FuncOp>(
        graph::createConvertPrecisionPass({options.precision, true}));
    if (failed(precision.run(module)))
      return CompileStatus::Error;
  }
  PassManager differentiate(&context);
  AutodiffPipelineOptions autodiffOptions;
  autodiffOptions.freeze = options.freeze;
  autodiffOptions.wholeParameters = checking;
  buildAutodiffPipeline(differentiate, autodiffOptions);
  if (!checking)
    differentiate.addNestedPass<func::FuncOp>(
        graph::createOptimizerPass(*options.optimizer));
  if (failed(differentiate.run(module)))
    return CompileStatus::Error;
  if (options.emit == "differentiated") {
    result.ir = printed(module);
    return CompileStatus::Ok;
  }
  // (Pipeline stages' functions take the program function's name.)
  if (!checking)
    main.setSymName("step");
  // Partition, recompute and lower a copy of the differentiated step; auto
  // may compile it more than once to fit the budget.
  ExecutableOptions writerOptions;
  writerOptions.embedWeights = options.embedWeights;
  writerOptions.costRates = ratesForDevice(options.device).str();
  if (!checking)
    writerOptions.training = optimizerIdentity(*options.optimizer);
  auto compileStep = [&](RecomputePolicy policy,
                         int64_t activationBudget) -> FailureOr<CompiledStep> {
    CompiledStep step;
    step.module = module.clone();
    PassManager lower(&context);
    DistributePipelineOptions partition;
    partition.sequenceParallel = distOptions.sequenceParallel;
    partition.schedule = distOptions.schedule;
    partition.virtualStages = distOptions.virtualStages;
    partition.training = true;
    partition.recompute = policy;
    partition.recomputeBudget = activationBudget;
    partition.rates = writerOptions.costRates;
    partition.zero = options.zero;
    if (!axisNames.empty())
      buildPartitionPipeline(lower, partition);
    else
      lower.addPass(dist::createRecomputePass(
          {partition.recompute, partition.recomputeBudget, partition.rates}));
    buildLoweringPipeline(lower, Precision::F32, options.bucketMb);
    if (failed(lower.run(*step.module)))
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
    step.memory = measureStepMemory(*step.module, *step.exe);
    return step;
  };
  int64_t worldSize = 1;
  for (auto [name, size] : llvm::zip(axisNames, axisSizes))
    if (name != "mb")
      worldSize *= size;
  FailureOr<CompiledStep> compiled = compileWithinBudget(
      options.recompute, options.memoryBudget,
      defaultMemoryBudget(options.device, worldSize), compileStep, out, err);
  if (failed(compiled))
    return CompileStatus::Error;
  if (options.emit == "compiled") {
    result.ir = printed(*compiled->module);
    return CompileStatus::Ok;
  }
  if (options.explain)
    explainStep(*compiled, writerOptions.costRates, result);
  result.executable = std::move(compiled->bytes);
  result.exe = std::move(compiled->exe);
  return CompileStatus::Ok;
}

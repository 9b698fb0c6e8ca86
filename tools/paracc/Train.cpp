//===- Train.cpp - paracc train --------------------------------*- C++ -*-===//
//
// paracc train LOSS.onnx --data tokens.u16 --batch 8 --seq 1024 --steps N
//     [--mesh dp2,tp2] [--sp] [--optimizer adamw --lr ... ] [-o step.pcx]
// paracc train LOSS.onnx --test-data DIR --check-gradients REF.npz [...]
//
// Compiles a loss model for training: the forward graph is annotated for
// the mesh, differentiated (--paracc-autodiff), then partitioned, so the
// backward's collectives come from sharding propagation. With
// --check-gradients it runs one forward and backward on DIR's inputs and
// compares the loss (DIR/output_0.pb) and every gradient of REF.npz (keyed
// by initializer name) with paracc's. Otherwise --paracc-optimizer makes the
// gradients in-place updates and the step function trains on --data.
//
//===----------------------------------------------------------------------===//

#include "DriverSupport.h"
#include "ExportONNX.h"
#include "paracc/Driver/Compile.h"
#include "paracc/Driver/StepMemoryPlan.h"

#include "paracc/Dialect/Graph/Transforms/Passes.h"
#include "paracc/runtime/GradientCheck.h"
#include "paracc/runtime/Training.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>

using namespace mlir;
using namespace mlir::paracc;
namespace cl = llvm::cl;
namespace prt = ::paracc::rt;

cl::SubCommand &mlir::paracc::trainSubCommand() {
  static cl::SubCommand command("train",
                                "Train a loss model (or check its gradients)");
  return command;
}

cl::OptionCategory &mlir::paracc::trainCategory() {
  static cl::OptionCategory category("paracc train options");
  return category;
}

namespace {
cl::opt<std::string> modelPath(cl::Positional, cl::desc("<loss model>"),
                               cl::Required, cl::sub(trainSubCommand()),
                               cl::cat(trainCategory()));
cl::opt<std::string> meshOption(
    "mesh",
    cl::desc("Device mesh, e.g. dp2,tp2, or auto (the planner chooses the "
             "mesh, sp, micro-batches, pipeline schedule, recompute and ZeRO "
             "for --cluster)"),
    cl::init(""), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<std::string> paramsOption(
    "params",
    cl::desc("StableHLO: the entry function's leading arguments that are "
             "parameters (trained): a count (with --random-weights), or an "
             ".npz of their values in order "
             "(np.savez(f, *jax.tree_util.tree_leaves(params)))"),
    cl::value_desc("N|FILE.npz"), cl::init(""), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<std::string> clusterOption(
    "cluster",
    cl::desc("With --mesh auto: NODESxDEVICES:KIND, a .json file, or local "
             "(this machine's GPUs, else its cores as CPU ranks)"),
    cl::init("local"), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<bool> sequenceParallel(
    "sp", cl::desc("Sequence parallelism on the tensor-parallel axis"),
    cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<std::string> testData(
    "test-data",
    cl::desc("Inputs (input_N.pb in graph input order) and the expected "
             "loss (output_0.pb) of one step"),
    cl::value_desc("DIR"), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<std::string> checkGradientsPath(
    "check-gradients",
    cl::desc("Compare one step's gradients with these (an .npz keyed by "
             "initializer name)"),
    cl::value_desc("FILE.npz"), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<std::string> saveGradientsPath(
    "save-gradients",
    cl::desc("Write one step's loss and gradients here (an .npz keyed by "
             "initializer name)"),
    cl::value_desc("FILE.npz"), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<std::string> freeze("freeze",
                            cl::desc("Do not train parameters whose name "
                                     "matches this regular expression"),
                            cl::value_desc("REGEX"), cl::init(""),
                            cl::sub(trainSubCommand()),
                            cl::cat(trainCategory()));
cl::opt<std::string> trainOnly(
    "train-only",
    cl::desc("Train only the parameters whose name matches this regular "
             "expression"),
    cl::value_desc("REGEX"), cl::init(""), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<bool> noAutoFreeze(
    "no-auto-freeze",
    cl::desc("Train the buffers exporters write as initializers too "
             "(BatchNorm's running statistics in inference form, position "
             "tables such as rotary inv_freq), which are frozen by default"),
    cl::init(false), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<double> rtolOption("rtol", cl::desc("Relative tolerance"),
                           cl::init(1e-4), cl::sub(trainSubCommand()),
                           cl::cat(trainCategory()));
cl::opt<double> atolOption("atol", cl::desc("Absolute tolerance"),
                           cl::init(1e-5), cl::sub(trainSubCommand()),
                           cl::cat(trainCategory()));
cl::opt<std::string> ranksAs("ranks-as",
                             cl::desc("Run the CPU ranks as 'threads' "
                                      "(default) or 'processes'"),
                             cl::init("threads"), cl::sub(trainSubCommand()),
                             cl::cat(trainCategory()));
cl::opt<CompilePhase> compileTo(
    "compile-to",
    cl::desc("Print the IR after this phase and stop: imported, cleaned, "
             "staged, annotated, differentiated, optimized, propagated, "
             "recomputed, partitioned, pipelined or lowered"),
    cl::value_desc("phase"), cl::init(CompilePhase::Lowered),
    cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<std::string>
    emit("emit",
         cl::desc("Older spelling of --compile-to: 'differentiated' "
                  "(optimized) or 'compiled' (lowered)"),
         cl::value_desc("stage"), cl::init(""), cl::sub(trainSubCommand()),
         cl::cat(trainCategory()));
cl::opt<std::string> dataPath("data",
                              cl::desc("Flat token file (uint16 .u16 / "
                                       "nanoGPT .bin, or --data-dtype u32)"),
                              cl::value_desc("FILE"), cl::init(""),
                              cl::sub(trainSubCommand()),
                              cl::cat(trainCategory()));
cl::opt<std::string> dataDir(
    "data-dir",
    cl::desc("Batches for models whose inputs are not token ids: subfolders "
             "with input_N.pb (graph input order), one per step"),
    cl::value_desc("DIR"), cl::init(""), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<std::string> dataDtype("data-dtype",
                               cl::desc("Token width: u16 (default) or u32"),
                               cl::init("u16"), cl::sub(trainSubCommand()),
                               cl::cat(trainCategory()));
cl::opt<uint64_t> dataSeed("data-seed",
                           cl::desc("Shuffle the batches with this seed "
                                    "(0: in file order)"),
                           cl::init(0), cl::sub(trainSubCommand()),
                           cl::cat(trainCategory()));
cl::opt<int64_t> batchOption("batch", cl::desc("Global batch (sequences)"),
                             cl::init(8), cl::sub(trainSubCommand()),
                             cl::cat(trainCategory()));
cl::opt<int64_t> seqOption("seq", cl::desc("Sequence length (tokens)"),
                           cl::init(1024), cl::sub(trainSubCommand()),
                           cl::cat(trainCategory()));
cl::opt<int64_t> stepsOption("steps", cl::desc("Training steps"), cl::init(1),
                             cl::sub(trainSubCommand()),
                             cl::cat(trainCategory()));
cl::opt<std::string> optimizerOption("optimizer",
                                     cl::desc("adamw (default) or sgd"),
                                     cl::init("adamw"),
                                     cl::sub(trainSubCommand()),
                                     cl::cat(trainCategory()));
cl::opt<double> lrOption("lr", cl::desc("Peak learning rate"), cl::init(3e-4),
                         cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<std::string> betasOption("betas", cl::desc("AdamW's betas"),
                                 cl::value_desc("B1,B2"), cl::init("0.9,0.999"),
                                 cl::sub(trainSubCommand()),
                                 cl::cat(trainCategory()));
cl::opt<double> epsOption("eps", cl::desc("AdamW's eps"), cl::init(1e-8),
                          cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<double> weightDecayOption("weight-decay",
                                  cl::desc("Weight decay (AdamW: decoupled; "
                                           "default 0.01, SGD 0)"),
                                  cl::init(0.01), cl::sub(trainSubCommand()),
                                  cl::cat(trainCategory()));
cl::opt<double> momentumOption("momentum", cl::desc("SGD's momentum"),
                               cl::init(0.0), cl::sub(trainSubCommand()),
                               cl::cat(trainCategory()));
cl::opt<double> clipOption("clip-grad-norm",
                           cl::desc("Clip the global gradient norm to this "
                                    "(0: off)"),
                           cl::init(0.0), cl::sub(trainSubCommand()),
                           cl::cat(trainCategory()));
cl::opt<LrSchedule> lrScheduleOption(
    "lr-schedule",
    cl::desc("The learning-rate schedule: constant (default) or cosine (with "
             "--warmup, --min-lr)"),
    cl::init(LrSchedule::Constant), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<PipelineSchedule> pipelineScheduleOption(
    "pipeline-schedule",
    cl::desc("Under pp, the pipeline schedule: 1f1b (default), gpipe, zb-h1 "
             "or interleaved"),
    cl::init(kDefaultPipelineSchedule), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<std::string> oldScheduleOption(
    "schedule",
    cl::desc("Deprecated: --lr-schedule and --pipeline-schedule in one "
             "(e.g. cosine,zb-h1)"),
    cl::Hidden, cl::init(""), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<std::string> trainTimeline(
    "timeline",
    cl::desc("Write the last step's timeline (every rank's actions and "
             "transfers) as a Chrome trace to FILE, and an SVG next to it"),
    cl::value_desc("FILE"), cl::init(""), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<int64_t> trainMicrobatches(
    "microbatches",
    cl::desc("Under pp: the pipeline's micro-batches per step (the batch "
             "per data-parallel rank must divide)"),
    cl::init(1), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<std::string> trainStages(
    "stages",
    cl::desc("Under pp: 'auto' (balance the modelled time) or layer ranges "
             "per stage, e.g. 0-2,3-5"),
    cl::init("auto"), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<int64_t> trainVirtualStages(
    "virtual-stages",
    cl::desc("Under --pipeline-schedule interleaved: model chunks per rank "
             "(default 2; the graph is cut into pp x N stages)"),
    cl::init(0), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<int64_t> warmupOption("warmup", cl::desc("Linear warm-up steps"),
                              cl::init(0), cl::sub(trainSubCommand()),
                              cl::cat(trainCategory()));
cl::opt<double> minLrOption("min-lr", cl::desc("The cosine's final lr"),
                            cl::init(0.0), cl::sub(trainSubCommand()),
                            cl::cat(trainCategory()));
cl::opt<std::string> logJson("log-json",
                             cl::desc("Write one JSON object per step here"),
                             cl::value_desc("FILE"), cl::init(""),
                             cl::sub(trainSubCommand()),
                             cl::cat(trainCategory()));
cl::opt<std::string> outputPath("o",
                                cl::desc("Write the training executable here "
                                         "instead of training"),
                                cl::value_desc("step.pcx"), cl::init(""),
                                cl::sub(trainSubCommand()),
                                cl::cat(trainCategory()));
cl::opt<std::string> lossOption(
    "loss",
    cl::desc("Add a loss to a model that returns logits [batch, seq, vocab]: "
             "next-token-ce (labels are the tokens shifted by one) or ce "
             "(labels become an input)"),
    cl::init(""), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<std::string> checkpointDir("checkpoint-dir",
                                   cl::desc("Write checkpoints here (and "
                                            "--resume from here)"),
                                   cl::value_desc("DIR"), cl::init(""),
                                   cl::sub(trainSubCommand()),
                                   cl::cat(trainCategory()));
cl::opt<int64_t> checkpointEvery("checkpoint-every",
                                 cl::desc("Steps between checkpoints (0: at "
                                          "the end only)"),
                                 cl::init(0), cl::sub(trainSubCommand()),
                                 cl::cat(trainCategory()));
cl::opt<bool> resume("resume",
                     cl::desc("Continue from --checkpoint-dir's latest "
                              "checkpoint (on any mesh)"),
                     cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<std::string> exportOnnx("export-onnx",
                                cl::desc("Write the trained model here (ONNX, "
                                         "external data)"),
                                cl::value_desc("FILE.onnx"), cl::init(""),
                                cl::sub(trainSubCommand()),
                                cl::cat(trainCategory()));
cl::opt<Device> deviceOption(
    "device",
    cl::desc("Where to train: auto (GPUs when there is one per rank, else "
             "the CPU), cpu or gpu"),
    cl::init(Device::Auto), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<bool> tf32Option("tf32",
                         cl::desc("f32 products on TF32 tensor cores (GPU)"),
                         cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<bool> noGraphOption("no-cuda-graph",
                            cl::desc("Run each GPU step eagerly instead of "
                                     "as a CUDA graph"),
                            cl::sub(trainSubCommand()),
                            cl::cat(trainCategory()));
cl::opt<Precision> precisionOption(
    "precision",
    cl::desc("Compute type: f32 (default), or bf16/f16 with f32 master "
             "weights, optimizer state and loss"),
    cl::init(Precision::F32), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<bool> explainOption(
    "explain",
    cl::desc("Print the plan: decisions, the step's collectives, memory per "
             "rank by category (with or without training)"),
    cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<std::string> explainJson("explain-json",
                                 cl::desc("Write the --explain report as JSON"),
                                 cl::value_desc("FILE"), cl::init(""),
                                 cl::sub(trainSubCommand()),
                                 cl::cat(trainCategory()));
cl::opt<double> bucketMbOption(
    "bucket-mb",
    cl::desc("All-reduce buckets of this many MiB (gradients, gradient-norm "
             "terms; 0: one all-reduce each)"),
    cl::init(25.0), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<int64_t> zeroOption(
    "zero",
    cl::desc("ZeRO stage over the dp axis: 0 (none), 1 (optimizer moments "
             "sharded: gradients reduce-scattered once per step, each rank "
             "updates its shard, parameters all-gathered), 2 (gradients "
             "reduce-scattered per micro-batch too), 3 (parameters sharded "
             "too: each layer's gathered before its forward and its "
             "backward)"),
    cl::init(0), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<int64_t> zeroShardSizeOption(
    "zero-shard-size",
    cl::desc("Hybrid sharding (HSDP): --zero shards within groups of N "
             "consecutive dp ranks and replicates across the groups "
             "(gradients reduce-scattered inside a group, all-reduced "
             "across); N divides dp (default: all of dp)"),
    cl::init(0), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<int64_t> zeroPrefetchOption(
    "zero-prefetch",
    cl::desc("--zero 3: layers ahead at which a layer's parameter gather is "
             "issued (0: just before the layer)"),
    cl::init(1), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<RecomputePolicy> recomputeOption(
    "recompute",
    cl::desc("Activations recomputed in the backward instead of kept: none, "
             "full (each layer from its input), selective (cheap ops: norms, "
             "activations, softmax) or auto (the least recompute within "
             "--memory-budget)"),
    cl::init(RecomputePolicy::None), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<std::string> memoryBudgetOption(
    "memory-budget",
    cl::desc("Peak memory per rank the step must fit (e.g. 40GiB, 512MiB); "
             "auto recomputes to fit it, the other policies are refused "
             "over it. auto without it: 90 % of the device's memory"),
    cl::value_desc("SIZE"), cl::init(""), cl::sub(trainSubCommand()),
    cl::cat(trainCategory()));
cl::opt<uint64_t> dropoutSeed(
    "dropout-seed",
    cl::desc("Seed of every training-mode Dropout's mask (with the op, the "
             "step and the element's position; the same on any mesh)"),
    cl::init(0), cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<bool> randomWeights(
    "random-weights",
    cl::desc("Initialize parameters that have no data with seeded random "
             "values (benchmarks of shape-only models)"),
    cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<bool> embedWeights(
    "embed-weights",
    cl::desc("Copy the weights into the executable (by default it references "
             "the model's external-data file and the runtime maps it)"),
    cl::sub(trainSubCommand()), cl::cat(trainCategory()));
cl::opt<uint64_t> weightSeed("seed", cl::desc("Seed of --random-weights"),
                             cl::init(0), cl::sub(trainSubCommand()),
                             cl::cat(trainCategory()));
} // namespace

/// The learning-rate and pipeline schedules: --lr-schedule and
/// --pipeline-schedule, or the deprecated --schedule that named both
/// ("cosine,zb-h1"; each name from either table) where those are not given.
static LogicalResult resolveSchedules(LrSchedule &lr,
                                      PipelineSchedule &pipeline) {
  lr = lrScheduleOption;
  pipeline = pipelineScheduleOption;
  if (!oldScheduleOption.getNumOccurrences())
    return success();
  llvm::errs() << "paracc: warning: --schedule is deprecated and will be "
                  "removed: use --lr-schedule and --pipeline-schedule\n";
  SmallVector<StringRef> names;
  StringRef(oldScheduleOption).split(names, ',');
  for (StringRef n : names) {
    if (std::optional<LrSchedule> v = parseOptionValue<LrSchedule>(n)) {
      if (!lrScheduleOption.getNumOccurrences())
        lr = *v;
    } else if (std::optional<PipelineSchedule> p =
                   parseOptionValue<PipelineSchedule>(n)) {
      if (!pipelineScheduleOption.getNumOccurrences())
        pipeline = *p;
    } else {
      llvm::errs() << "paracc: error: --schedule: '" << n
                   << "' is neither a learning-rate schedule ("
                   << optionChoices<LrSchedule>()
                   << ") nor a pipeline schedule ("
                   << optionChoices<PipelineSchedule>() << ")\n";
      return failure();
    }
  }
  return success();
}

/// The training options, checked, as the optimizer pass's options and the
/// loop's schedule.
static LogicalResult parseTrainingOptions(graph::OptimizerPassOptions &opt,
                                          LrSchedule lrSchedule,
                                          prt::LrSchedule &schedule) {
  std::optional<double> weightDecay;
  if (weightDecayOption.getNumOccurrences())
    weightDecay = weightDecayOption;
  if (failed(parseOptimizerOptions(optimizerOption, betasOption, epsOption,
                                   weightDecay, momentumOption, clipOption,
                                   opt, llvm::errs())))
    return failure();
  schedule.kind = stringifyOption(lrSchedule).str();
  schedule.lr = lrOption;
  schedule.minLr = minLrOption;
  schedule.warmup = warmupOption;
  schedule.steps = stepsOption;
  if (prt::Status st = schedule.validate(); !st) {
    llvm::errs() << "paracc: error: " << st.message() << "\n";
    return failure();
  }
  return success();
}

int mlir::paracc::runTrain() {
  bool checking = !checkGradientsPath.empty() || !saveGradientsPath.empty();
  if (checking && testData.empty()) {
    llvm::errs() << "paracc: error: --check-gradients and --save-gradients "
                    "need --test-data DIR "
                    "(the step's inputs)\n";
    return prt::kExitError;
  }
  const bool wantExplain = explainOption || !explainJson.empty();
  if (!checking && dataPath.empty() && dataDir.empty() && outputPath.empty() &&
      !wantExplain && emit.empty() && !compileTo.getNumOccurrences()) {
    llvm::errs() << "paracc: error: paracc train needs --data FILE (token "
                    "ids) or --data-dir DIR (input_N.pb batches), or "
                    "--test-data DIR --check-gradients REF.npz for one "
                    "checked step\n";
    return prt::kExitError;
  }
  if (!dataPath.empty() && !dataDir.empty()) {
    llvm::errs() << "paracc: error: give --data or --data-dir, not both\n";
    return prt::kExitError;
  }
  // A batch folder's inputs give the shapes to compile for.
  std::string shapesFrom = checking ? std::string(testData) : std::string();
  if (!dataDir.empty()) {
    auto batches = prt::BatchFolders::open(dataDir);
    if (!batches) {
      llvm::errs() << "paracc: error: " << batches.status().message() << "\n";
      return prt::kExitError;
    }
    shapesFrom = batches->folder(0);
  }
  LrSchedule lrSchedule;
  PipelineSchedule pipelineSchedule;
  if (failed(resolveSchedules(lrSchedule, pipelineSchedule)))
    return prt::kExitError;
  graph::OptimizerPassOptions optimizerOptions;
  prt::LrSchedule schedule;
  if (!checking &&
      failed(parseTrainingOptions(optimizerOptions, lrSchedule, schedule)))
    return prt::kExitError;
  if ((resume || checkpointEvery > 0) && checkpointDir.empty()) {
    llvm::errs() << "paracc: error: --resume and --checkpoint-every need "
                    "--checkpoint-dir DIR\n";
    return prt::kExitError;
  }
  if (checkpointEvery < 0) {
    llvm::errs() << "paracc: error: --checkpoint-every must be >= 0\n";
    return prt::kExitError;
  }
  if (!checking && (batchOption < 1 || seqOption < 1)) {
    llvm::errs() << "paracc: error: --batch and --seq must be >= 1\n";
    return prt::kExitError;
  }
  std::optional<int64_t> memoryBudget;
  if (!memoryBudgetOption.empty()) {
    std::string error;
    memoryBudget = parseByteSize(memoryBudgetOption, error);
    if (!memoryBudget) {
      llvm::errs() << "paracc: error: --memory-budget: " << error << "\n";
      return prt::kExitError;
    }
  }
  if (ranksAs != "threads" && ranksAs != "processes") {
    llvm::errs() << "paracc: error: --ranks-as must be 'threads' or "
                    "'processes', got '"
                 << ranksAs << "'\n";
    return prt::kExitError;
  }

  CompileOptions options;
  TrainingOptions &training = options.training.emplace();
  ONNXImportOptions &importOptions = options.import;
  if (!shapesFrom.empty()) {
    addTestDataShapes(shapesFrom, importOptions);
  } else {
    // Token models: every input is [batch, seq].
    for (int i = 0; i < 16; ++i)
      importOptions.inputShapesByPosition.push_back(
          SmallVector<int64_t>{batchOption, seqOption});
  }
  importOptions.allowMissingWeightData = randomWeights;
  options.seed = weightSeed;
  options.mesh = meshOption;
  options.cluster = clusterOption;
  options.sequenceParallel = sequenceParallel;
  options.microbatches = trainMicrobatches;
  options.stages = trainStages;
  options.schedule = pipelineSchedule;
  options.virtualStages = trainVirtualStages;
  options.precision = precisionOption;
  training.loss = lossOption;
  training.freeze = freeze;
  training.trainOnly = trainOnly;
  training.autoFreeze = !noAutoFreeze;
  if (!checking)
    training.optimizer = optimizerOptions;
  training.recompute = recomputeOption;
  training.memoryBudget = memoryBudget;
  options.device = deviceOption;
  training.bucketMb = bucketMbOption;
  training.zero = zeroOption;
  training.zeroPrefetch = zeroPrefetchOption;
  training.zeroShardSize = zeroShardSizeOption;
  options.embedWeights = embedWeights;
  training.dropoutSeed = dropoutSeed;
  options.explain = wantExplain;
  if (failed(resolveCompileTo(compileTo, emit,
                              {{"differentiated", CompilePhase::Optimized},
                               {"compiled", CompilePhase::Lowered}},
                              options.compileTo)))
    return prt::kExitError;
  ModelSource source;
  source.path = modelPath;
  source.parameters = paramsOption;

  MLIRContext context;
  setUpParaccContext(context, llvm::errs());
  CompileDiagnostics diagnostics(llvm::errs(), llvm::outs());
  FailureOr<CompiledProgram> compiled =
      compile(context, source, options, diagnostics);
  if (failed(compiled))
    return failedCompileExitCode(diagnostics);
  if (options.compileTo) {
    llvm::outs() << compiled->ir;
    return prt::kExitOk;
  }
  std::vector<uint8_t> &written = compiled->executable;
  // (`*exe` is the executable's owner, as the runners take it.)
  std::shared_ptr<prt::Executable> *exe = &compiled->exe;
  if (explainOption)
    llvm::outs() << prt::printableText(compiled->explainText);
  if (!explainJson.empty() &&
      failed(writeTextFile(explainJson, compiled->explainJson)))
    return prt::kExitError;
  if (!outputPath.empty())
    return succeeded(
               writeExecutableFile(outputPath, written.data(), written.size()))
               ? prt::kExitOk
               : prt::kExitError;
  if (!checking && dataPath.empty() && dataDir.empty())
    return prt::kExitOk; // --explain alone
  // The weights not trained, and why (the defaults freeze the buffers
  // exporters write).
  if (!compiled->frozenParameters.empty() && !explainOption) {
    std::cout << "frozen (not trained): " << compiled->frozenParameters.size()
              << " weight(s)\n";
    for (const auto &[name, reason] : compiled->frozenParameters)
      std::cout << "  " << name << ": " << reason << "\n";
  }
  if (!checking) {
    prt::TrainingRequest request;
    request.dataPath = dataPath;
    request.dataDir = dataDir;
    request.dataDtype = dataDtype;
    request.dataSeed = dataSeed;
    request.steps = stepsOption;
    request.schedule = schedule;
    request.logJsonPath = logJson;
    request.checkpointDir = checkpointDir;
    request.checkpointEvery = checkpointEvery;
    request.resume = resume;
    request.device = stringifyOption(deviceOption.getValue()).str();
    request.allowTf32 = tf32Option;
    request.noGraph = noGraphOption;
    request.timelinePath = trainTimeline;
    request.processes = ranksAs == "processes";
    request.workerBinary = prt::siblingWorkerBinary();
    request.identity.optimizer = (*exe)->training();
    request.identity.data = dataDir.empty() ? dataPath : dataDir;
    request.identity.dataSeed = dataSeed;
    std::map<std::string, prt::Tensor> trained;
    if (!exportOnnx.empty())
      request.finalState = &trained;
    int code = prt::runTraining(*exe, request, std::cout, std::cerr);
    if (code != prt::kExitOk || exportOnnx.empty())
      return code;
    // Only the parameters go back to the model.
    for (const prt::StateInfo &s : (*exe)->state())
      if (s.kind != prt::StateKind::Parameter)
        trained.erase(s.name);
    if (failed(exportTrainedONNX(modelPath, exportOnnx, compiled->weights,
                                 trained)))
      return prt::kExitError;
    std::cout << "exported the trained model to " << exportOnnx << "\n";
    return prt::kExitOk;
  }
  auto given = prt::readTestDataInputs(testData);
  if (!given) {
    llvm::errs() << "paracc: error: " << given.status().message() << "\n";
    return prt::kExitError;
  }
  auto inputs = prt::bindInputs(**exe, *given, 0);
  if (!inputs) {
    llvm::errs() << "paracc: error: " << inputs.status().message() << "\n";
    return prt::kExitError;
  }
  std::optional<prt::Tensor> expectedLoss;
  std::string lossPath = testData + "/output_0.pb";
  if (llvm::sys::fs::exists(lossPath)) {
    auto loss = prt::readTensorProtoFile(lossPath);
    if (!loss) {
      llvm::errs() << "paracc: error: " << loss.status().message() << "\n";
      return prt::kExitError;
    }
    expectedLoss = std::move(loss->tensor);
  }
  prt::RunRequest request;
  request.rtol = rtolOption;
  request.atol = atolOption;
  request.processes = ranksAs == "processes";
  request.workerBinary = prt::siblingWorkerBinary();
  if (!saveGradientsPath.empty())
    return prt::saveGradients(*exe, *inputs, saveGradientsPath, request,
                              std::cout, std::cerr);
  return prt::checkGradients(*exe, *inputs, expectedLoss, checkGradientsPath,
                             request, std::cout, std::cerr);
}

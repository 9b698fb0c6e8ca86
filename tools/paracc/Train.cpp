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
#include "paracc/Compiler/CommandLineBinder.h"
#include "paracc/Driver/Compile.h"
#include "paracc/Driver/RunOptions.h"

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
cl::opt<std::string> outputPath("o",
                                cl::desc("Write the training executable here "
                                         "instead of training"),
                                cl::value_desc("step.pcx"), cl::init(""),
                                cl::sub(trainSubCommand()),
                                cl::cat(trainCategory()));
cl::opt<std::string> exportOnnx("export-onnx",
                                cl::desc("Write the trained model here (ONNX, "
                                         "external data)"),
                                cl::value_desc("FILE.onnx"), cl::init(""),
                                cl::sub(trainSubCommand()),
                                cl::cat(trainCategory()));
cl::opt<bool> reportMemory(
    "report-memory",
    cl::desc("After training on CPU ranks (threads), print the most bytes "
             "their tensors held at once, and per rank (to compare with "
             "--explain's peak)"),
    cl::sub(trainSubCommand()), cl::cat(trainCategory()));
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

/// The options that `paracc train` shares with the other front doors,
/// declared once (OptionsBinder.h).
struct TrainFlags {
  CompileOptions compile;
  ModelSource source;
  TrainingOptions training;
  TokenBatchOptions tokens;
  TrainerOptions trainer;
  RunOptions run;
  CommandLineBinder binder{&trainSubCommand(), trainCategory()};

  TrainFlags() {
    compile.bindOptions(binder);
    source.bindOptions(binder);
    training.bindOptions(binder);
    tokens.bindOptions(binder);
    trainer.bindOptions(binder);
    run.bindOptions(binder);
  }
};

TrainFlags &trainFlags() {
  static TrainFlags flags;
  return flags;
}
} // namespace

void mlir::paracc::declareTrainOptions() { (void)trainFlags(); }

/// The deprecated --schedule, which named the learning-rate and pipeline
/// schedules together ("cosine,zb-h1"; each name from either table): sets
/// those that --lr-schedule and --pipeline-schedule do not.
static LogicalResult applyOldSchedule(TrainFlags &flags) {
  if (!oldScheduleOption.getNumOccurrences())
    return success();
  llvm::errs() << "paracc: warning: --schedule is deprecated and will be "
                  "removed: use --lr-schedule and --pipeline-schedule\n";
  SmallVector<StringRef> names;
  StringRef(oldScheduleOption).split(names, ',');
  for (StringRef n : names) {
    if (std::optional<LrSchedule> v = parseOptionValue<LrSchedule>(n)) {
      if (!flags.binder.given("lr-schedule"))
        flags.trainer.lrSchedule = *v;
    } else if (std::optional<PipelineSchedule> p =
                   parseOptionValue<PipelineSchedule>(n)) {
      if (!flags.binder.given("pipeline-schedule"))
        flags.compile.schedule = *p;
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

/// The training loop's learning-rate schedule, checked.
static LogicalResult lrSchedule(const TrainerOptions &trainer,
                                prt::LrSchedule &schedule) {
  schedule.kind = stringifyOption(trainer.lrSchedule).str();
  schedule.lr = trainer.lr;
  schedule.minLr = trainer.minLr;
  schedule.warmup = trainer.warmup;
  schedule.steps = trainer.steps;
  if (prt::Status st = schedule.validate(); !st) {
    llvm::errs() << "paracc: error: " << st.message() << "\n";
    return failure();
  }
  return success();
}

int mlir::paracc::runTrain() {
  TrainFlags &flags = trainFlags();
  const TrainerOptions &trainer = flags.trainer;
  const std::string &dataPath = trainer.data, &dataDir = trainer.dataDir;
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
  if (failed(applyOldSchedule(flags)))
    return prt::kExitError;
  prt::LrSchedule schedule;
  if (!checking && failed(lrSchedule(trainer, schedule)))
    return prt::kExitError;
  if ((trainer.resume || trainer.checkpointEvery > 0) &&
      trainer.checkpointDir.empty()) {
    llvm::errs() << "paracc: error: --resume and --checkpoint-every need "
                    "--checkpoint-dir DIR\n";
    return prt::kExitError;
  }
  if (ranksAs != "threads" && ranksAs != "processes") {
    llvm::errs() << "paracc: error: --ranks-as must be 'threads' or "
                    "'processes', got '"
                 << ranksAs << "'\n";
    return prt::kExitError;
  }

  CompileOptions &options = flags.compile;
  TrainingOptions &training = options.training.emplace(flags.training);
  training.gradientsOnly = checking;
  ONNXImportOptions &importOptions = options.import;
  if (!shapesFrom.empty()) {
    addTestDataShapes(shapesFrom, importOptions);
  } else {
    // Token models: every input is [batch, seq].
    for (int i = 0; i < 16; ++i)
      importOptions.inputShapesByPosition.push_back(SmallVector<int64_t>{
          flags.tokens.batch.value_or(8), flags.tokens.seq.value_or(1024)});
  }
  if (failed(options.applyInputShapes(llvm::errs())))
    return prt::kExitError;
  options.explain = wantExplain;
  if (failed(resolveCompileTo(compileTo, emit,
                              {{"differentiated", CompilePhase::Optimized},
                               {"compiled", CompilePhase::Lowered}},
                              options.compileTo)))
    return prt::kExitError;
  ModelSource &source = flags.source;
  source.path = modelPath;

  int exitCode = prt::kExitError;
  FailureOr<CompiledProgram> compiled = compileModel(source, options, exitCode);
  if (failed(compiled))
    return exitCode;
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
    request.dataDtype = trainer.dataDtype;
    request.dataSeed = trainer.dataSeed;
    request.steps = trainer.steps;
    request.schedule = schedule;
    request.logJsonPath = trainer.logJson;
    request.checkpointDir = trainer.checkpointDir;
    request.checkpointEvery = trainer.checkpointEvery;
    request.resume = trainer.resume;
    request.device = stringifyOption(options.device).str();
    request.allowTf32 = flags.run.allowTf32;
    request.noGraph = flags.run.noCudaGraph;
    request.timelinePath = trainTimeline;
    request.reportMemory = reportMemory;
    request.processes = ranksAs == "processes";
    request.workerBinary = prt::siblingWorkerBinary();
    request.identity.optimizer = (*exe)->training();
    request.identity.data = dataDir.empty() ? dataPath : dataDir;
    request.identity.dataSeed = trainer.dataSeed;
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

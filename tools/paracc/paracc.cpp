//===- paracc.cpp - The paracc compiler driver -----------------*- C++ -*-===//
//
// paracc MODEL.onnx [--test-data DIR] [--input NAME=FILE.pb] [-o OUT.pcx]
//
// Imports the model (ONNX, or graph-dialect MLIR), runs the compilation
// pipeline, lowers to the runtime's executable and either writes it (-o) or
// runs it on the CPU, comparing with expected outputs when given. Exit
// codes: 0 ok, 1 outputs mismatch, 2 error, 3 unsupported model feature.
//
//===----------------------------------------------------------------------===//

#include "DriverSupport.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "paracc/Compiler/CommandLineBinder.h"
#include "paracc/Driver/Compile.h"
#include "paracc/Driver/Context.h"
#include "paracc/Driver/DriverOptions.h"
#include "paracc/Driver/RunOptions.h"
#include "paracc/runtime/PrintableText.h"
#include "paracc/runtime/RunDriver.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <fstream>
#include <iostream>

using namespace mlir;
using namespace mlir::paracc;
namespace cl = llvm::cl;
namespace prt = ::paracc::rt;

static cl::OptionCategory category("paracc options");
static cl::opt<std::string> inputPath(cl::Positional, cl::desc("<model>"),
                                      cl::Required, cl::cat(category));
static cl::opt<std::string> outputPath("o",
                                       cl::desc("Write the executable here "
                                                "instead of running it"),
                                       cl::value_desc("file.pcx"),
                                       cl::cat(category));
static cl::list<std::string>
    inputs("input", cl::desc("An input tensor (ONNX TensorProto file)"),
           cl::value_desc("NAME=FILE.pb"), cl::cat(category));
static cl::opt<std::string>
    testData("test-data",
             cl::desc("ONNX backend-test folder: run on input_N.pb and "
                      "compare with output_N.pb"),
             cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string> saveOutputs("save-outputs",
                                        cl::desc("Write output_N.pb here"),
                                        cl::value_desc("DIR"),
                                        cl::cat(category));
static cl::opt<double> rtolOption("rtol", cl::desc("Relative tolerance"),
                                  cl::init(1e-4), cl::cat(category));
static cl::opt<double> atolOption("atol", cl::desc("Absolute tolerance"),
                                  cl::init(1e-5), cl::cat(category));
static cl::opt<bool> textFormat("onnx-text",
                                cl::desc("Read the model as protobuf text"),
                                cl::cat(category));
static cl::opt<CompilePhase> compileTo(
    "compile-to",
    cl::desc("Print the IR after this phase and stop: imported, cleaned, "
             "staged, annotated, propagated, partitioned, pipelined or "
             "lowered"),
    cl::value_desc("phase"), cl::init(CompilePhase::Lowered),
    cl::cat(category));
static cl::opt<std::string>
    emit("emit",
         cl::desc("Older spelling of --compile-to: 'imported', or 'compiled' "
                  "(lowered)"),
         cl::value_desc("stage"), cl::cat(category));
static cl::opt<std::string> timelinePath(
    "timeline",
    cl::desc("Write the run's timeline (every rank's actions and transfers) "
             "as a Chrome trace to FILE, and an SVG Gantt chart next to it"),
    cl::value_desc("FILE"), cl::init(""), cl::cat(category));
static cl::opt<PipelineSchedule>
    oldPipelineSchedule("schedule", cl::desc("Deprecated: --pipeline-schedule"),
                        cl::init(kDefaultPipelineSchedule), cl::Hidden,
                        cl::cat(category));
static cl::opt<std::string>
    ranksAs("ranks-as",
            cl::desc("Run the CPU ranks as 'threads' (default) or "
                     "'processes'"),
            cl::init("threads"), cl::cat(category));
static cl::opt<int> benchmarkIterations(
    "benchmark", cl::desc("Time this many GPU steps after the checked run"),
    cl::init(0), cl::cat(category));
static cl::opt<int> benchmarkWarmup("warmup",
                                    cl::desc("Warm-up steps of --benchmark"),
                                    cl::init(5), cl::cat(category));
static cl::opt<int> profileSteps(
    "profile",
    cl::desc("Time every instruction of this many serialized steps (GPU, "
             "or CPU ranks as threads) and print where the time goes, next "
             "to the cost model's prediction"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string>
    profileJson("profile-json",
                cl::desc("Also write rank 0's --profile as JSON to this file"),
                cl::value_desc("file"), cl::cat(category));
static cl::opt<bool> explain("explain",
                             cl::desc("Print how the model is split and what "
                                      "it communicates"),
                             cl::cat(category));
static cl::opt<std::string>
    explainJson("explain-json", cl::desc("Write the --explain report as JSON"),
                cl::value_desc("FILE"), cl::init(""), cl::cat(category));
static cl::opt<bool> timing("timing", cl::desc("Print the time of each stage"),
                            cl::cat(category));

namespace {
/// Wall-clock stage timer for --timing.
class StageTimer {
public:
  void stage(const char *name) {
    auto now = std::chrono::steady_clock::now();
    if (timing)
      llvm::errs() << llvm::format(
          "%-10s %8.1f ms\n", name,
          std::chrono::duration<double, std::milli>(now - last).count());
    last = now;
  }

private:
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // The runtime's messages quote names read from the model: keep them text
  // (the compiler's diagnostics go through printDiagnostic, which does too).
  prt::PrintableStreamScope printableOut(std::cout), printableErr(std::cerr);
  // The options every front door shares, declared once (OptionsBinder.h),
  // as this tool's flags; the train and plan subcommands bind theirs.
  CompileOptions options;
  ModelSource source;
  RunOptions run;
  CommandLineBinder flags(nullptr, category);
  options.bindOptions(flags);
  source.bindOptions(flags);
  run.bindOptions(flags);
  declareTrainOptions();
  declarePlanOptions();
  cl::HideUnrelatedOptions({&category, &trainCategory(), &planCategory()});
  // A bad flag or value is an error of the input (exit 2), as every
  // other.
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "paracc: compile and run a model on a mesh\n\n"
          "  paracc MODEL [options]        inference\n"
          "  paracc train MODEL [options]  training (paracc train --help)\n"
          "  paracc plan MODEL [options]   the parallel plan for a cluster "
          "(paracc plan --help)\n",
          &llvm::errs()))
    return prt::kExitError;
  if (trainSubCommand())
    return runTrain();
  if (planSubCommand())
    return runPlan();
  StageTimer timer;

  // Input tensors given up front fix the shapes the model is compiled for.
  prt::RunRequest request;
  request.testDataDir = testData;
  request.saveOutputsDir = saveOutputs;
  request.rtol = rtolOption;
  request.atol = atolOption;
  request.seed = options.seed;
  if (ranksAs != "threads" && ranksAs != "processes") {
    llvm::errs() << "paracc: error: --ranks-as must be 'threads' or "
                    "'processes', got '"
                 << ranksAs << "'\n";
    return prt::kExitError;
  }
  request.processes = ranksAs == "processes";
  request.device = stringifyOption(options.device).str();
  request.benchmarkIterations = benchmarkIterations;
  request.benchmarkWarmup = benchmarkWarmup;
  request.profileSteps = profileSteps;
  request.profileJsonPath = profileJson;
  request.noGraph = run.noCudaGraph;
  request.allowTf32 = run.allowTf32;
  request.timelinePath = timelinePath;
  request.workerBinary = prt::siblingWorkerBinary();
  for (const std::string &in : inputs) {
    auto [name, file] = StringRef(in).split('=');
    if (name.empty() || file.empty()) {
      llvm::errs() << "paracc: error: --input expects NAME=FILE, got '" << in
                   << "'\n";
      return prt::kExitError;
    }
    request.inputFiles.push_back({name.str(), file.str()});
  }
  ONNXImportOptions &importOptions = options.import;
  if (!testData.empty())
    addTestDataShapes(testData, importOptions);
  {
    auto files = prt::readInputFiles(request.inputFiles);
    if (!files) {
      llvm::errs() << "paracc: error: " << files.status().message() << "\n";
      return prt::kExitError;
    }
    for (const auto &t : *files)
      importOptions.inputShapes[t.name] = SmallVector<int64_t>(
          t.tensor.shape().begin(), t.tensor.shape().end());
  }
  if (failed(options.applyInputShapes(llvm::errs())))
    return prt::kExitError;
  if (oldPipelineSchedule.getNumOccurrences()) {
    llvm::errs() << "paracc: warning: --schedule is deprecated and will be "
                    "removed: use --pipeline-schedule\n";
    if (!flags.given("pipeline-schedule"))
      options.schedule = oldPipelineSchedule;
  }
  options.explain = explain || !explainJson.empty();
  if (failed(resolveCompileTo(compileTo, emit,
                              {{"imported", CompilePhase::Imported},
                               {"compiled", CompilePhase::Lowered}},
                              options.compileTo)))
    return prt::kExitError;
  options.onStage = [&](const char *name) { timer.stage(name); };
  source.path = inputPath;
  if (textFormat)
    source.format = ModelSource::Format::ONNXText;

  int exitCode = prt::kExitError;
  FailureOr<CompiledProgram> compiled = compileModel(source, options, exitCode);
  if (failed(compiled))
    return exitCode;
  if (explain)
    llvm::outs() << prt::printableText(compiled->explainText);
  if (!explainJson.empty() &&
      failed(writeTextFile(explainJson, compiled->explainJson)))
    return prt::kExitError;
  if (options.compileTo) {
    llvm::outs() << compiled->ir;
    return prt::kExitOk;
  }
  llvm::outs().flush();
  std::vector<uint8_t> &bytes = compiled->executable;
  if (!outputPath.empty())
    return succeeded(writeExecutableFile(outputPath, bytes.data(), bytes.size()))
               ? prt::kExitOk
               : prt::kExitError;
  auto exe = prt::Executable::loadBuffer(std::move(bytes));
  if (!exe) {
    llvm::errs() << "paracc: error: " << exe.status().message() << "\n";
    return prt::kExitError;
  }
  int code = prt::runAndReport(*exe, request, std::cout, std::cerr);
  timer.stage("run");
  return code;
}

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
#include "paracc/Driver/Compile.h"
#include "paracc/Driver/Context.h"
#include "paracc/Driver/DriverOptions.h"
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
static cl::list<std::string>
    inputShapes("input-shape",
                cl::desc("Shape of an input with symbolic dims (2x64)"),
                cl::value_desc("NAME=DIMS"), cl::cat(category));
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
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed for generated inputs and random "
                                       "weights"),
                              cl::init(0), cl::cat(category));
static cl::opt<bool> randomWeights(
    "random-weights",
    cl::desc("Fill weights that have no data with seeded random values"),
    cl::cat(category));
static cl::opt<bool> embedWeights(
    "embed-weights",
    cl::desc("Copy the weights into the executable (by default it references "
             "the model's external-data file and the runtime maps it)"),
    cl::cat(category));
static cl::opt<std::string> parameters(
    "params",
    cl::desc("StableHLO: the entry function's leading arguments that are "
             "parameters (weights): a count, or an .npz of their values in "
             "order (np.savez(f, *jax.tree_util.tree_leaves(params)))"),
    cl::value_desc("N|FILE.npz"), cl::init(""), cl::cat(category));
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
static cl::opt<std::string>
    meshOption("mesh",
               cl::desc("Device mesh, e.g. dp2,tp4 (axes major to minor: tp "
                        "groups are consecutive ranks), or auto (the planner "
                        "chooses for --cluster)"),
               cl::value_desc("AXES"), cl::init(""), cl::cat(category));
static cl::opt<std::string> clusterOption(
    "cluster",
    cl::desc("With --mesh auto: NODESxDEVICES:KIND, a .json file, or local "
             "(this machine's GPUs, else its cores as CPU ranks)"),
    cl::init("local"), cl::cat(category));
static cl::opt<bool> sequenceParallel(
    "sp", cl::desc("Sequence parallelism on the tensor-parallel axis"),
    cl::cat(category));
static cl::opt<int64_t> microbatches(
    "microbatches",
    cl::desc("Split each rank's batch into N micro-batches: the pipeline's "
             "m under pp, else interleaved so that one's collectives overlap "
             "another's compute"),
    cl::init(1), cl::cat(category));
static cl::opt<std::string> stagesOption(
    "stages",
    cl::desc("Pipeline stages: 'auto' (balance the modelled time) or layer "
             "ranges per stage, e.g. 0-2,3-5,6-7"),
    cl::init("auto"), cl::cat(category));
static cl::opt<std::string> timelinePath(
    "timeline",
    cl::desc("Write the run's timeline (every rank's actions and transfers) "
             "as a Chrome trace to FILE, and an SVG Gantt chart next to it"),
    cl::value_desc("FILE"), cl::init(""), cl::cat(category));
static cl::opt<PipelineSchedule> pipelineSchedule(
    "pipeline-schedule",
    cl::desc("Pipeline schedule: gpipe, 1f1b (default), zb-h1 or interleaved"),
    cl::init(kDefaultPipelineSchedule), cl::cat(category));
static cl::opt<PipelineSchedule>
    oldPipelineSchedule("schedule", cl::desc("Deprecated: --pipeline-schedule"),
                        cl::init(kDefaultPipelineSchedule), cl::Hidden,
                        cl::cat(category));
static cl::opt<int64_t> virtualStages(
    "virtual-stages",
    cl::desc("Under --pipeline-schedule interleaved: model chunks per rank "
             "(default 2; the graph is cut into pp x N stages)"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string>
    ranksAs("ranks-as",
            cl::desc("Run the CPU ranks as 'threads' (default) or "
                     "'processes'"),
            cl::init("threads"), cl::cat(category));
static cl::opt<Precision>
    precision("precision",
              cl::desc("Compute in f32 (default), bf16 or f16 (f32 "
                       "accumulation); inputs and outputs stay f32"),
              cl::init(Precision::F32), cl::cat(category));
static cl::opt<Device>
    deviceOption("device",
                 cl::desc("Where to run: auto (a GPU if there is one), cpu, "
                          "gpu"),
                 cl::init(Device::Auto), cl::cat(category));
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
static cl::opt<bool> noCudaGraph("no-cuda-graph",
                                 cl::desc("Run GPU steps eagerly"),
                                 cl::cat(category));
static cl::opt<bool> tf32("tf32",
                          cl::desc("f32 matrix products on TF32 tensor cores"),
                          cl::cat(category));
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
  cl::HideUnrelatedOptions({&category, &trainCategory(), &planCategory()});
  cl::ParseCommandLineOptions(
      argc, argv,
      "paracc: compile and run a model on a mesh\n\n"
      "  paracc MODEL [options]        inference\n"
      "  paracc train MODEL [options]  training (paracc train --help)\n"
      "  paracc plan MODEL [options]   the parallel plan for a cluster "
      "(paracc plan --help)\n");
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
  request.seed = seed;
  if (ranksAs != "threads" && ranksAs != "processes") {
    llvm::errs() << "paracc: error: --ranks-as must be 'threads' or "
                    "'processes', got '"
                 << ranksAs << "'\n";
    return prt::kExitError;
  }
  request.processes = ranksAs == "processes";
  request.device = stringifyOption(deviceOption.getValue()).str();
  request.benchmarkIterations = benchmarkIterations;
  request.benchmarkWarmup = benchmarkWarmup;
  request.profileSteps = profileSteps;
  request.profileJsonPath = profileJson;
  request.noGraph = noCudaGraph;
  request.allowTf32 = tf32;
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
  CompileOptions options;
  ONNXImportOptions &importOptions = options.import;
  importOptions.allowMissingWeightData = randomWeights;
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
  for (const std::string &s : inputShapes)
    if (failed(parseShapeOption(s, importOptions, llvm::errs())))
      return prt::kExitError;
  options.seed = seed;
  options.mesh = meshOption;
  options.cluster = clusterOption;
  options.sequenceParallel = sequenceParallel;
  options.microbatches = microbatches;
  options.stages = stagesOption;
  options.schedule = pipelineSchedule;
  if (oldPipelineSchedule.getNumOccurrences()) {
    llvm::errs() << "paracc: warning: --schedule is deprecated and will be "
                    "removed: use --pipeline-schedule\n";
    if (!pipelineSchedule.getNumOccurrences())
      options.schedule = oldPipelineSchedule;
  }
  options.virtualStages = virtualStages;
  options.precision = precision;
  options.embedWeights = embedWeights;
  options.device = deviceOption;
  options.explain = explain || !explainJson.empty();
  if (failed(resolveCompileTo(compileTo, emit,
                              {{"imported", CompilePhase::Imported},
                               {"compiled", CompilePhase::Lowered}},
                              options.compileTo)))
    return prt::kExitError;
  options.onStage = [&](const char *name) { timer.stage(name); };
  ModelSource source;
  source.path = inputPath;
  source.parameters = parameters;
  if (textFormat)
    source.format = ModelSource::Format::ONNXText;

  MLIRContext context;
  setUpParaccContext(context, llvm::errs());
  CompileDiagnostics diagnostics(llvm::errs(), llvm::outs());
  FailureOr<CompiledProgram> compiled =
      compile(context, source, options, diagnostics);
  if (failed(compiled))
    return failedCompileExitCode(diagnostics);
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

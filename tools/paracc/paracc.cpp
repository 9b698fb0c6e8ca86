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
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Importer/ONNX/ONNXImporter.h"
#include "paracc/Pipelines/Pipelines.h"
#include "paracc/Planner/Explain.h"
#include "paracc/Target/Executable/ExecutableWriter.h"
#include "paracc/runtime/RunDriver.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
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
static cl::opt<bool> textFormat("onnx-text",
                                cl::desc("Read the model as protobuf text"),
                                cl::cat(category));
static cl::opt<std::string>
    emit("emit", cl::desc("Print IR and stop: 'imported' or 'compiled'"),
         cl::value_desc("stage"), cl::cat(category));
static cl::opt<std::string>
    meshOption("mesh",
               cl::desc("Device mesh, e.g. dp2,tp4 (axes major to minor: tp "
                        "groups are consecutive ranks)"),
               cl::value_desc("AXES"), cl::init(""), cl::cat(category));
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
static cl::opt<std::string> pipelineSchedule(
    "schedule", cl::desc("Pipeline schedule: gpipe, 1f1b or zb-h1"),
    cl::init("1f1b"), cl::cat(category));
static cl::opt<std::string>
    ranksAs("ranks-as",
            cl::desc("Run the CPU ranks as 'threads' (default) or "
                     "'processes'"),
            cl::init("threads"), cl::cat(category));
static cl::opt<std::string>
    precision("precision",
              cl::desc("Compute in f32 (default), bf16 or f16 (f32 "
                       "accumulation); inputs and outputs stay f32"),
              cl::init("f32"), cl::cat(category));
static cl::opt<std::string>
    deviceOption("device",
                 cl::desc("Where to run: auto (a GPU if there is one), cpu, "
                          "gpu"),
                 cl::init("auto"), cl::cat(category));
static cl::opt<int> benchmarkIterations(
    "benchmark", cl::desc("Time this many GPU steps after the checked run"),
    cl::init(0), cl::cat(category));
static cl::opt<int> benchmarkWarmup("warmup",
                                    cl::desc("Warm-up steps of --benchmark"),
                                    cl::init(5), cl::cat(category));
static cl::opt<int> profileSteps(
    "profile",
    cl::desc("Time every instruction of this many serialized GPU steps and "
             "print where the time goes"),
    cl::init(0), cl::cat(category));
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
  cl::HideUnrelatedOptions({&category, &trainCategory()});
  cl::ParseCommandLineOptions(
      argc, argv,
      "paracc: compile and run a model on a mesh\n\n"
      "  paracc MODEL [options]        inference\n"
      "  paracc train MODEL [options]  training (paracc train --help)\n");
  if (trainSubCommand())
    return runTrain();
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
  request.device = deviceOption;
  request.benchmarkIterations = benchmarkIterations;
  request.benchmarkWarmup = benchmarkWarmup;
  request.profileSteps = profileSteps;
  request.noGraph = noCudaGraph;
  request.allowTf32 = tf32;
  request.timelinePath = timelinePath;
  if (precision != "f32" && precision != "bf16" && precision != "f16") {
    llvm::errs() << "paracc: error: --precision must be f32, bf16 or f16\n";
    return prt::kExitError;
  }
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
  ONNXImportOptions importOptions;
  importOptions.allowMissingWeightData = randomWeights;
  importOptions.textFormat =
      textFormat || StringRef(inputPath).ends_with(".pbtxt");
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
    if (failed(parseShapeOption(s, importOptions)))
      return prt::kExitError;

  MLIRContext context;
  setUpDriverContext(context);

  WeightStore weights;
  weights.randomFill = randomWeights;
  weights.randomSeed = seed;
  OwningOpRef<ModuleOp> module;
  if (StringRef(inputPath).ends_with(".mlir")) {
    module = parseSourceFile<ModuleOp>(inputPath, &context);
    if (!module)
      return prt::kExitError;
  } else {
    ONNXImportResult imported =
        importONNXFile(context, inputPath, importOptions, weights);
    if (!imported.module)
      return imported.failure == ImportFailure::Unsupported
                 ? prt::kExitUnsupported
                 : prt::kExitError;
    module = std::move(imported.module);
  }
  timer.stage("import");
  if (emit == "imported") {
    module->print(llvm::outs());
    return prt::kExitOk;
  }

  SmallVector<std::string> axisNames;
  SmallVector<int64_t> axisSizes;
  if (failed(parseMesh(meshOption, axisNames, axisSizes)))
    return prt::kExitError;
  PassManager pm(&context);
  buildCompilePipeline(pm, CompilePipelineOptions());
  if (failed(pm.run(*module)))
    return prt::kExitError;
  if (sequenceParallel && axisNames.empty()) {
    llvm::errs() << "paracc: error: --sp needs a tensor-parallel axis in "
                    "--mesh (e.g. --mesh tp4 --sp)\n";
    return prt::kExitError;
  }
  if (microbatches < 1 || microbatches > 64) {
    llvm::errs() << "paracc: error: --microbatches must be in [1, 64]\n";
    return prt::kExitError;
  }
  const int64_t pipelineStages = meshAxisSize(axisNames, axisSizes, "pp");
  if (failed(checkPipelineOptions(pipelineStages, pipelineSchedule,
                                  stagesOption, sequenceParallel)))
    return prt::kExitError;
  if (pipelineStages > 0) {
    // The pipeline's micro-batches: a virtual last mesh axis (even of size
    // 1) that paracc-pipeline turns into each stage's actions.
    if (failed(planPipelineStages(*module, pipelineStages, stagesOption,
                                  microbatches, pipelineSchedule,
                                  /*training=*/false)))
      return prt::kExitError;
    axisNames.push_back("mb");
    axisSizes.push_back(microbatches);
  } else if (microbatches > 1) {
    if (axisNames.empty()) {
      llvm::errs() << "paracc: error: --microbatches overlaps collectives "
                      "with compute and needs a --mesh\n";
      return prt::kExitError;
    }
    // A virtual last mesh axis; paracc-interleave-microbatches removes it.
    axisNames.push_back("mb");
    axisSizes.push_back(microbatches);
  }
  bool wantExplain = explain || !explainJson.empty();
  auto lower = [&](ModuleOp m) {
    PassManager lpm(&context);
    buildLoweringPipeline(lpm, precision);
    return lpm.run(m);
  };
  std::optional<ExplainReport> baseline;
  if (!axisNames.empty()) {
    setModuleMesh(*module, axisNames, axisSizes);
    auto distribute = [&](ModuleOp m, bool sp) {
      PassManager dpm(&context);
      DistributePipelineOptions distOptions;
      distOptions.sequenceParallel = sp;
      distOptions.schedule = pipelineSchedule;
      buildDistributePipeline(dpm, distOptions);
      return dpm.run(m);
    };
    // With --sp, the report compares against the same mesh without it.
    if (wantExplain && sequenceParallel) {
      OwningOpRef<ModuleOp> copy = module->clone();
      if (failed(distribute(*copy, false)) || failed(lower(*copy)))
        return prt::kExitError;
      baseline = analyzePlan(*copy);
    }
    if (failed(distribute(*module, sequenceParallel)))
      return prt::kExitError;
  }
  // The report reads the lowered program: its collectives move the bytes of
  // the chosen precision.
  if (failed(lower(*module)))
    return prt::kExitError;
  if (wantExplain) {
    ExplainReport report = analyzePlan(*module);
    if (explain)
      printExplainText(report, llvm::outs(), baseline ? &*baseline : nullptr);
    if (!explainJson.empty()) {
      std::error_code ec;
      llvm::raw_fd_ostream out(explainJson, ec);
      if (ec) {
        llvm::errs() << "paracc: error: cannot write '" << explainJson
                     << "': " << ec.message() << "\n";
        return prt::kExitError;
      }
      printExplainJson(report, out, baseline ? &*baseline : nullptr);
    }
    llvm::outs().flush();
  }
  timer.stage("compile");
  if (emit == "compiled") {
    module->print(llvm::outs());
    return prt::kExitOk;
  }

  // Every function: one, or one per pipeline stage.
  FailureOr<std::vector<uint8_t>> bytes = writeExecutable(*module, weights);
  if (failed(bytes))
    return prt::kExitError;
  timer.stage("lower");

  if (!outputPath.empty())
    return succeeded(
               writeExecutableFile(outputPath, bytes->data(), bytes->size()))
               ? prt::kExitOk
               : prt::kExitError;
  auto exe = prt::Executable::loadBuffer(std::move(*bytes));
  if (!exe) {
    llvm::errs() << "paracc: error: " << exe.status().message() << "\n";
    return prt::kExitError;
  }
  int code = prt::runAndReport(*exe, request, std::cout, std::cerr);
  timer.stage("run");
  return code;
}

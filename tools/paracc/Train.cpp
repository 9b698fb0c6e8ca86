//===- Train.cpp - paracc train --------------------------------*- C++ -*-===//
//
// paracc train LOSS.onnx --test-data DIR --check-gradients REF.npz
//     [--mesh dp2,tp2] [--sp]
//
// Compiles a loss model for training: the forward graph is annotated for
// the mesh, differentiated (--paracc-autodiff), then partitioned, so the
// backward's collectives come from sharding propagation. With
// --check-gradients it runs one forward and backward on DIR's inputs and
// compares the loss (DIR/output_0.pb) and every gradient of REF.npz (keyed
// by initializer name) with paracc's.
//
//===----------------------------------------------------------------------===//

#include "DriverSupport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Pipelines/Pipelines.h"
#include "paracc/Target/Executable/ExecutableWriter.h"
#include "paracc/runtime/GradientCheck.h"
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
cl::opt<std::string> meshOption("mesh", cl::desc("Device mesh, e.g. dp2,tp2"),
                                cl::init(""), cl::sub(trainSubCommand()),
                                cl::cat(trainCategory()));
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
cl::opt<std::string> freeze("freeze",
                            cl::desc("Do not train parameters whose name "
                                     "matches this regular expression"),
                            cl::value_desc("REGEX"), cl::init(""),
                            cl::sub(trainSubCommand()),
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
cl::opt<std::string> emit("emit",
                          cl::desc("Print the IR and stop: 'differentiated' "
                                   "(before partitioning) or 'compiled'"),
                          cl::value_desc("stage"), cl::init(""),
                          cl::sub(trainSubCommand()), cl::cat(trainCategory()));
} // namespace

/// Fails unless `func` returns one scalar float: the loss.
static LogicalResult checkLossOutput(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  for (auto [i, t] : llvm::enumerate(type.getResults())) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    bool scalarFloat = ranked && ranked.getNumElements() == 1 &&
                       isa<FloatType>(ranked.getElementType());
    if (type.getNumResults() == 1 && scalarFloat)
      return success();
    std::string name = "output_" + std::to_string(i);
    if (auto attr = func.getResultAttrOfType<StringAttr>(i, "graph.name"))
      name = attr.getValue().str();
    std::string shape;
    llvm::raw_string_ostream os(shape);
    os << t;
    llvm::errs() << "paracc: error: " << modelPath << ": output '" << name
                 << "' is " << shape << "; paracc train needs a model with "
                 << "one scalar float output, the loss";
    if (type.getNumResults() != 1)
      llvm::errs() << " (it has " << type.getNumResults() << " outputs)";
    llvm::errs() << ". A model that returns logits needs a loss added "
                    "(--loss next-token-ce or --loss ce, issue 9)\n";
    return failure();
  }
  llvm::errs() << "paracc: error: " << modelPath << " has no output\n";
  return failure();
}

int mlir::paracc::runTrain() {
  if (checkGradientsPath.empty()) {
    llvm::errs() << "paracc: error: paracc train runs one checked step so "
                    "far: give --test-data DIR --check-gradients REF.npz "
                    "(the training loop, optimizers and checkpoints are "
                    "issue 9's next part)\n";
    return prt::kExitError;
  }
  if (testData.empty()) {
    llvm::errs() << "paracc: error: --check-gradients needs --test-data DIR "
                    "(the step's inputs)\n";
    return prt::kExitError;
  }
  if (ranksAs != "threads" && ranksAs != "processes") {
    llvm::errs() << "paracc: error: --ranks-as must be 'threads' or "
                    "'processes', got '"
                 << ranksAs << "'\n";
    return prt::kExitError;
  }
  SmallVector<std::string> axisNames;
  SmallVector<int64_t> axisSizes;
  if (failed(parseMesh(meshOption, axisNames, axisSizes)))
    return prt::kExitError;
  if (sequenceParallel && axisNames.empty()) {
    llvm::errs() << "paracc: error: --sp needs a tensor-parallel axis in "
                    "--mesh (e.g. --mesh tp2 --sp)\n";
    return prt::kExitError;
  }

  MLIRContext context;
  setUpDriverContext(context);
  ONNXImportOptions importOptions;
  addTestDataShapes(testData, importOptions);
  WeightStore weights;
  ONNXImportResult imported =
      importONNXFile(context, modelPath, importOptions, weights);
  if (!imported.module)
    return imported.failure == ImportFailure::Unsupported
               ? prt::kExitUnsupported
               : prt::kExitError;
  ModuleOp module = *imported.module;
  PassManager compile(&context);
  buildCompilePipeline(compile, CompilePipelineOptions());
  if (failed(compile.run(module)))
    return prt::kExitError;
  func::FuncOp main;
  for (auto f : module.getOps<func::FuncOp>())
    if (!main)
      main = f;
  if (!main) {
    llvm::errs() << "paracc: error: the module has no function\n";
    return prt::kExitError;
  }
  if (failed(checkLossOutput(main)))
    return prt::kExitError;

  // Annotate the forward, differentiate, then partition forward and
  // backward together.
  DistributePipelineOptions distOptions;
  distOptions.sequenceParallel = sequenceParallel;
  if (!axisNames.empty()) {
    SmallVector<StringAttr> names;
    for (const std::string &n : axisNames)
      names.push_back(StringAttr::get(&context, n));
    module->setAttr(dist::kMeshAttrName,
                    dist::MeshAttr::get(&context, names, axisSizes));
    PassManager annotate(&context);
    buildShardingAnnotationPipeline(annotate, distOptions);
    if (failed(annotate.run(module)))
      return prt::kExitError;
  }
  PassManager differentiate(&context);
  AutodiffPipelineOptions autodiffOptions;
  autodiffOptions.freeze = freeze;
  autodiffOptions.wholeParameters = true;
  buildAutodiffPipeline(differentiate, autodiffOptions);
  if (failed(differentiate.run(module)))
    return prt::kExitError;
  if (emit == "differentiated") {
    module.print(llvm::outs());
    return prt::kExitOk;
  }
  PassManager lower(&context);
  if (!axisNames.empty())
    buildPartitionPipeline(lower, distOptions);
  buildLoweringPipeline(lower, "f32");
  if (failed(lower.run(module)))
    return prt::kExitError;
  if (emit == "compiled") {
    module.print(llvm::outs());
    return prt::kExitOk;
  }

  FailureOr<std::vector<uint8_t>> bytes = writeExecutable(main, weights);
  if (failed(bytes))
    return prt::kExitError;
  auto exe = prt::Executable::loadBuffer(std::move(*bytes));
  if (!exe) {
    llvm::errs() << "paracc: error: " << exe.status().message() << "\n";
    return prt::kExitError;
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
  return prt::checkGradients(*exe, *inputs, expectedLoss, checkGradientsPath,
                             request, std::cout, std::cerr);
}

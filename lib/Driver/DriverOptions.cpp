//===- DriverOptions.cpp - Parsing and checking compile options -*- C++ -*-===//

#include "paracc/Driver/DriverOptions.h"

#include "paracc/Planner/StagePartition.h"
#include "paracc/runtime/TensorProtoIO.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::paracc;

LogicalResult
mlir::paracc::checkPipelineOptions(int64_t stages, PipelineSchedule schedule,
                                   int64_t virtualStages, int64_t microbatches,
                                   StringRef ranges, llvm::raw_ostream &err) {
  if (virtualStages < 1) {
    err << "paracc: error: --virtual-stages must be at least 1, got "
        << virtualStages << "\n";
    return failure();
  }
  if (virtualStages > 1 && schedule != PipelineSchedule::Interleaved) {
    err << "paracc: error: --virtual-stages " << virtualStages
        << " needs --pipeline-schedule interleaved (the '" << schedule
        << "' schedule runs one stage per rank)\n";
    return failure();
  }
  if (stages == 0 && ranges != "auto") {
    err << "paracc: error: --stages needs a pp axis in --mesh\n";
    return failure();
  }
  if (stages == 0 && schedule == PipelineSchedule::Interleaved) {
    err << "paracc: error: --pipeline-schedule interleaved needs a pp axis in "
           "--mesh\n";
    return failure();
  }
  if (stages > 0)
    if (std::string why = checkScheduleShape(schedule, stages, virtualStages,
                                             microbatches);
        !why.empty()) {
      err << "paracc: error: " << why << "\n";
      return failure();
    }
  return success();
}

/// Parses "NAME=2x64".
LogicalResult mlir::paracc::parseShapeOption(StringRef option,
                                             ONNXImportOptions &options,
                                             llvm::raw_ostream &err) {
  auto [name, dims] = option.split('=');
  SmallVector<int64_t> shape;
  SmallVector<StringRef> parts;
  if (!dims.empty() && dims != "scalar")
    dims.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0) {
      err << "paracc: error: bad --input-shape '" << option << "'\n";
      return failure();
    }
    shape.push_back(d);
  }
  options.inputShapes[name] = shape;
  options.namedByUser.insert(name);
  return success();
}


void mlir::paracc::addTestDataShapes(const std::string &dir,
                                     ONNXImportOptions &options) {
  // A file that is not a tensor (a sequence, an optional) leaves its shape
  // open, and import reports the input.
  for (int i = 0;; ++i) {
    std::string path = dir + "/input_" + std::to_string(i) + ".pb";
    if (!llvm::sys::fs::exists(path))
      break;
    auto t = ::paracc::rt::readTensorProtoFile(path);
    if (!t) {
      options.inputShapesByPosition.push_back(std::nullopt);
      continue;
    }
    SmallVector<int64_t> shape(t->tensor.shape().begin(),
                               t->tensor.shape().end());
    options.inputShapesByPosition.push_back(shape);
    if (!t->name.empty())
      options.inputShapes[t->name] = shape;
  }
}

LogicalResult mlir::paracc::checkCompileOptions(StringRef meshText,
                                                bool sequenceParallel,
                                                int64_t microbatches,
                                                MeshSpec &mesh,
                                                llvm::raw_ostream &err) {
  if (microbatches < 1 || microbatches > 64) {
    err << "paracc: error: --microbatches must be in [1, 64]\n";
    return failure();
  }
  std::string error;
  std::optional<MeshSpec> parsed = parseMeshSpec(meshText, "--mesh", error);
  if (!parsed) {
    err << "paracc: error: " << error << "\n";
    return failure();
  }
  mesh = std::move(*parsed);
  if (sequenceParallel && mesh.empty()) {
    err << "paracc: error: --sp needs a tensor-parallel axis in --mesh (e.g. "
           "--mesh tp2 --sp)\n";
    return failure();
  }
  return success();
}

PhasedCompileOptions
mlir::paracc::phasedCompileOptions(const ParallelOptions &parallel,
                                   Device device) {
  PhasedCompileOptions phased;
  phased.parallel = parallel;
  phased.parallel.virtualStages =
      resolveVirtualStages(parallel.schedule, parallel.virtualStages);
  phased.rates = ratesForDevice(device).str();
  return phased;
}

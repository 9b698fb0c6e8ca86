//===- DriverOptions.cpp - Parsing and checking compile options -*- C++ -*-===//

#include "paracc/Driver/DriverOptions.h"

#include "mlir/Pass/PassManager.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Dist/Transforms/Passes.h"
#include "paracc/Planner/StagePartition.h"
#include "paracc/runtime/TensorProtoIO.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::paracc;

int64_t mlir::paracc::meshAxisSize(ArrayRef<std::string> names,
                                   ArrayRef<int64_t> sizes, StringRef name) {
  for (auto [n, size] : llvm::zip(names, sizes))
    if (n == name)
      return size;
  return 0;
}

int64_t mlir::paracc::resolveVirtualStages(PipelineSchedule schedule,
                                           int64_t virtualStages) {
  if (virtualStages != 0)
    return virtualStages;
  return schedule == PipelineSchedule::Interleaved ? 2 : 1;
}

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

LogicalResult mlir::paracc::planPipelineStages(
    ModuleOp module, int64_t stages, int64_t virtualStages, StringRef ranges,
    int64_t microbatches, PipelineSchedule schedule, bool training) {
  PassManager pm(module.getContext());
  dist::PipelineStagesPassOptions options;
  options.stages = stages;
  options.virtualStages = virtualStages;
  options.ranges = ranges == "auto" ? "" : ranges.str();
  options.microbatches = microbatches;
  options.schedule = schedule;
  options.training = training;
  pm.addPass(dist::createPipelineStagesPass(options));
  return pm.run(module);
}

/// Parses --mesh ("dp2,tp4") into axis names and sizes.
LogicalResult mlir::paracc::parseMesh(StringRef text,
                                      SmallVectorImpl<std::string> &names,
                                      SmallVectorImpl<int64_t> &sizes,
                                      llvm::raw_ostream &err) {
  if (text.empty() || text == "1")
    return success();
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  int64_t ranks = 1;
  for (StringRef part : parts) {
    size_t digits = part.find_first_of("0123456789");
    StringRef name = part.take_front(digits);
    int64_t size = 0;
    if (digits == StringRef::npos || name.empty() ||
        part.drop_front(digits).getAsInteger(10, size) || size < 1) {
      err << "paracc: error: bad --mesh axis '" << part
                   << "'; expected NAME<size> such as dp2 or tp4\n";
      return failure();
    }
    if (name != "dp" && name != "tp" && name != "pp") {
      err << "paracc: error: mesh axis '" << name
                   << "' is not supported yet (supported: dp, pp, tp)\n";
      return failure();
    }
    if (llvm::is_contained(names, name.str())) {
      err << "paracc: error: mesh axis '" << name << "' given twice\n";
      return failure();
    }
    ranks *= size;
    if (ranks > 4096) {
      err << "paracc: error: the mesh has more than 4096 ranks\n";
      return failure();
    }
    names.push_back(name.str());
    sizes.push_back(size);
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


void mlir::paracc::setModuleMesh(ModuleOp module, ArrayRef<std::string> names,
                                 ArrayRef<int64_t> sizes) {
  MLIRContext *context = module.getContext();
  SmallVector<StringAttr> axes;
  for (const std::string &n : names)
    axes.push_back(StringAttr::get(context, n));
  module->setAttr(dist::kMeshAttrName,
                  dist::MeshAttr::get(context, axes, sizes));
}

LogicalResult mlir::paracc::checkCompileOptions(
    StringRef mesh, bool sequenceParallel, int64_t microbatches,
    SmallVectorImpl<std::string> &names, SmallVectorImpl<int64_t> &sizes,
    llvm::raw_ostream &err) {
  if (microbatches < 1 || microbatches > 64) {
    err << "paracc: error: --microbatches must be in [1, 64]\n";
    return failure();
  }
  if (failed(parseMesh(mesh, names, sizes, err)))
    return failure();
  if (sequenceParallel && names.empty()) {
    err << "paracc: error: --sp needs a tensor-parallel axis in --mesh (e.g. "
           "--mesh tp2 --sp)\n";
    return failure();
  }
  return success();
}

LogicalResult mlir::paracc::addMicrobatchAxis(
    ModuleOp module, int64_t stages, int64_t virtualStages, StringRef ranges,
    int64_t microbatches, PipelineSchedule schedule, bool training,
    SmallVectorImpl<std::string> &names, SmallVectorImpl<int64_t> &sizes) {
  if (stages > 0) {
    // paracc-pipeline turns the axis into each stage's actions.
    if (failed(planPipelineStages(module, stages, virtualStages, ranges,
                                  microbatches, schedule, training)))
      return failure();
  } else if (microbatches <= 1) {
    return success();
  }
  // Without pp, paracc-interleave-microbatches removes the axis.
  names.push_back("mb");
  sizes.push_back(microbatches);
  return success();
}

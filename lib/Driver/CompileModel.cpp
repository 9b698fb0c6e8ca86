//===- CompileModel.cpp - A model to an inference executable ----*- C++ -*-===//

#include "paracc/Driver/CompileModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "paracc/Driver/DriverOptions.h"
#include "paracc/Importer/StableHLO/StableHLOImporter.h"
#include "paracc/Pipelines/Pipelines.h"
#include "paracc/Planner/Explain.h"
#include "paracc/Target/Executable/ExecutableWriter.h"
#include "paracc/runtime/NpzIO.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::paracc;
namespace prt = ::paracc::rt;

static ModelSource::Format formatOf(const ModelSource &source) {
  if (source.format != ModelSource::Format::Auto)
    return source.format;
  StringRef path(source.path);
  if (path.ends_with(".mlir"))
    return ModelSource::Format::MLIR;
  if (path.ends_with(".pbtxt"))
    return ModelSource::Format::ONNXText;
  return ModelSource::Format::ONNX;
}

/// --params: a count, or an .npz of the parameter arguments' values.
static LogicalResult readParameters(MLIRContext &context,
                                    const ModelSource &source,
                                    StableHLOParameters &params) {
  StringRef spec(source.parameters);
  if (spec.empty())
    return success();
  Location loc = FileLineColLoc::get(&context, source.path, 0, 0);
  if (!spec.getAsInteger(10, params.count)) {
    if (params.count < 0)
      return emitError(loc) << "--params must be a count >= 0 or an .npz";
    return success();
  }
  auto arrays = prt::readNpzFile(spec.str());
  if (!arrays)
    return emitError(loc) << "--params: " << arrays.status().message();
  for (prt::NamedTensor &a : *arrays) {
    WeightEntry entry;
    entry.dtype = a.tensor.dtype();
    entry.shape.assign(a.tensor.shape().begin(), a.tensor.shape().end());
    entry.size = a.tensor.byteSize();
    const auto *bytes = static_cast<const uint8_t *>(a.tensor.data());
    entry.owned.assign(bytes, bytes + entry.size);
    params.data.emplace_back(a.name, std::move(entry));
  }
  params.count = int64_t(params.data.size());
  return success();
}

ImportedModel mlir::paracc::importModel(MLIRContext &context,
                                        const ModelSource &source,
                                        const ONNXImportOptions &options,
                                        WeightStore &weights) {
  ImportedModel result;
  ModelSource::Format format = formatOf(source);
  if (format == ModelSource::Format::MLIR) {
    std::unique_ptr<llvm::MemoryBuffer> file;
    StringRef text;
    if (source.bytes) {
      text = *source.bytes;
    } else {
      auto buffer = llvm::MemoryBuffer::getFile(source.path);
      if (!buffer) {
        emitError(FileLineColLoc::get(&context, source.path, 0, 0))
            << "cannot read '" << source.path
            << "': " << buffer.getError().message();
        result.status = CompileStatus::Error;
        return result;
      }
      file = std::move(*buffer);
      text = file->getBuffer();
    }
    // StableHLO (as JAX prints it), or paracc's own graph dialect.
    if (looksLikeStableHLO(text)) {
      StableHLOParameters params;
      if (failed(readParameters(context, source, params))) {
        result.status = CompileStatus::Error;
        return result;
      }
      StableHLOImportResult imported =
          importStableHLO(context, text, source.path, weights, params);
      result.module = std::move(imported.module);
      if (!result.module)
        result.status = imported.unsupported ? CompileStatus::Unsupported
                                             : CompileStatus::Error;
      return result;
    }
    result.module = parseSourceString<ModuleOp>(text, ParserConfig(&context),
                                                source.path);
    if (!result.module)
      result.status = CompileStatus::Error;
    return result;
  }
  ONNXImportOptions importOptions = options;
  importOptions.textFormat = format == ModelSource::Format::ONNXText;
  ONNXImportResult imported =
      source.bytes ? importONNXBuffer(context, *source.bytes, source.path,
                                      source.externalDataDir, importOptions,
                                      weights)
                   : importONNXFile(context, source.path, importOptions,
                                    weights);
  if (!imported.module)
    result.status = imported.failure == ImportFailure::Unsupported
                        ? CompileStatus::Unsupported
                        : CompileStatus::Error;
  result.module = std::move(imported.module);
  return result;
}

static std::string printed(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

CompileStatus mlir::paracc::compileModel(MLIRContext &context,
                                         const ModelSource &source,
                                         const ModelCompileOptions &options,
                                         CompiledModel &result,
                                         llvm::raw_ostream &err) {
  auto stage = [&](const char *name) {
    if (options.onStage)
      options.onStage(name);
  };
  const Precision precision = options.precision;
  if (!options.emit.empty() && options.emit != "imported" &&
      options.emit != "compiled") {
    err << "paracc: error: --emit must be 'imported' or 'compiled', got '"
        << options.emit << "'\n";
    return CompileStatus::Error;
  }
  SmallVector<std::string> axisNames;
  SmallVector<int64_t> axisSizes;
  if (failed(checkCompileOptions(options.mesh, options.sequenceParallel,
                                 options.microbatches, axisNames, axisSizes,
                                 err)))
    return CompileStatus::Error;
  const int64_t pipelineStages = meshAxisSize(axisNames, axisSizes, "pp");
  const int64_t virtualStages =
      resolveVirtualStages(options.schedule, options.virtualStages);
  if (failed(checkPipelineOptions(pipelineStages, options.schedule,
                                  virtualStages, options.microbatches,
                                  options.stages, err)))
    return CompileStatus::Error;
  if (pipelineStages == 0 && options.microbatches > 1 && axisNames.empty()) {
    err << "paracc: error: --microbatches overlaps collectives with compute "
           "and needs a --mesh\n";
    return CompileStatus::Error;
  }

  WeightStore weights;
  weights.randomFill = options.import.allowMissingWeightData;
  weights.randomSeed = options.seed;
  ImportedModel imported =
      importModel(context, source, options.import, weights);
  if (!imported.module)
    return imported.status;
  ModuleOp module = *imported.module;
  stage("import");
  if (options.emit == "imported") {
    result.ir = printed(module);
    return CompileStatus::Ok;
  }

  PassManager pm(&context);
  buildCompilePipeline(pm, CompilePipelineOptions());
  if (failed(pm.run(module)))
    return CompileStatus::Error;
  if (failed(addMicrobatchAxis(module, pipelineStages, virtualStages,
                               options.stages, options.microbatches,
                               options.schedule, /*training=*/false, axisNames,
                               axisSizes)))
    return CompileStatus::Error;
  auto lower = [&](ModuleOp m) {
    PassManager lpm(&context);
    buildLoweringPipeline(lpm, precision);
    return lpm.run(m);
  };
  std::optional<ExplainReport> baseline;
  if (!axisNames.empty()) {
    setModuleMesh(module, axisNames, axisSizes);
    auto distribute = [&](ModuleOp m, bool sp) {
      PassManager dpm(&context);
      DistributePipelineOptions distOptions;
      distOptions.sequenceParallel = sp;
      distOptions.schedule = options.schedule;
      distOptions.virtualStages = virtualStages;
      buildDistributePipeline(dpm, distOptions);
      return dpm.run(m);
    };
    // With --sp, the report compares against the same mesh without it.
    if (options.explain && options.sequenceParallel) {
      OwningOpRef<ModuleOp> copy = module.clone();
      if (failed(distribute(*copy, false)) || failed(lower(*copy)))
        return CompileStatus::Error;
      baseline = analyzePlan(*copy);
    }
    if (failed(distribute(module, options.sequenceParallel)))
      return CompileStatus::Error;
  }
  // The report reads the lowered program: its collectives move the bytes of
  // the chosen precision.
  if (failed(lower(module)))
    return CompileStatus::Error;
  if (options.explain) {
    ExplainReport report = analyzePlan(module);
    if (std::optional<DeviceRates> rates =
            ratesByName(ratesForDevice(options.device)))
      report.predicted = predictStep(module, *rates);
    const ExplainReport *base = baseline ? &*baseline : nullptr;
    llvm::raw_string_ostream text(result.explainText);
    printExplainText(report, text, base);
    llvm::raw_string_ostream json(result.explainJson);
    printExplainJson(report, json, base);
  }
  stage("compile");
  if (options.emit == "compiled") {
    result.ir = printed(module);
    return CompileStatus::Ok;
  }
  // Every function: one, or one per pipeline stage.
  ExecutableOptions writerOptions;
  writerOptions.embedWeights = options.embedWeights;
  writerOptions.costRates = ratesForDevice(options.device).str();
  FailureOr<std::vector<uint8_t>> bytes =
      writeExecutable(module, weights, writerOptions);
  if (failed(bytes))
    return CompileStatus::Error;
  result.executable = std::move(*bytes);
  stage("lower");
  return CompileStatus::Ok;
}

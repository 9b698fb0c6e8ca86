//===- CompileModel.cpp - Import, and the inference compile -----*- C++ -*-===//

#include "CompileSteps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
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

OwningOpRef<ModuleOp>
mlir::paracc::importModel(MLIRContext &context, const ModelSource &source,
                          const CompileOptions &options, WeightStore &weights,
                          CompileDiagnostics &diagnostics) {
  weights.randomFill = options.import.allowMissingWeightData;
  weights.randomSeed = options.seed;
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
        return nullptr;
      }
      file = std::move(*buffer);
      text = file->getBuffer();
    }
    // StableHLO (as JAX prints it), or paracc's own graph dialect.
    if (looksLikeStableHLO(text)) {
      StableHLOParameters params;
      if (failed(readParameters(context, source, params)))
        return nullptr;
      StableHLOImportResult imported =
          importStableHLO(context, text, source.path, weights, params);
      diagnostics.unsupported = !imported.module && imported.unsupported;
      return std::move(imported.module);
    }
    return parseSourceString<ModuleOp>(text, ParserConfig(&context),
                                       source.path);
  }
  ONNXImportOptions importOptions = options.import;
  importOptions.textFormat = format == ModelSource::Format::ONNXText;
  ONNXImportResult imported =
      source.bytes ? importONNXBuffer(context, *source.bytes, source.path,
                                      source.externalDataDir, importOptions,
                                      weights)
                   : importONNXFile(context, source.path, importOptions,
                                    weights);
  diagnostics.unsupported =
      !imported.module && imported.failure == ImportFailure::Unsupported;
  return std::move(imported.module);
}

std::string mlir::paracc::printIR(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  os << "\n";
  return text;
}

LogicalResult mlir::paracc::compileInference(MLIRContext &context,
                                             const ModelSource &source,
                                             const CompileOptions &options,
                                             CompiledProgram &result,
                                             CompileDiagnostics &diagnostics) {
  llvm::raw_ostream &err = diagnostics.errors;
  auto stage = [&](const char *name) {
    if (options.onStage)
      options.onStage(name);
  };
  const CompilePhase last = options.compileTo.value_or(CompilePhase::Lowered);
  if (last == CompilePhase::Differentiated || last == CompilePhase::Optimized ||
      last == CompilePhase::Recomputed) {
    err << "paracc: error: --compile-to=" << last
        << " is a phase of training (paracc train)\n";
    return failure();
  }
  MeshSpec mesh;
  if (failed(checkCompileOptions(options.mesh, options.sequenceParallel,
                                 options.microbatches, mesh, err)))
    return failure();
  const int64_t virtualStages =
      resolveVirtualStages(options.schedule, options.virtualStages);
  if (failed(checkPipelineOptions(mesh.size("pp"), options.schedule,
                                  virtualStages, options.microbatches,
                                  options.stages, err)))
    return failure();
  if (mesh.size("pp") == 0 && options.microbatches > 1 && mesh.empty()) {
    err << "paracc: error: --microbatches overlaps collectives with compute "
           "and needs a --mesh\n";
    return failure();
  }

  WeightStore weights;
  OwningOpRef<ModuleOp> imported =
      importModel(context, source, options, weights, diagnostics);
  if (!imported)
    return failure();
  ModuleOp module = *imported;
  stage("import");

  PhasedCompileOptions pipeline = phasedCompileOptions(options, options.device);
  if (failed(runParaccPipeline(module, pipeline, CompilePhase::Imported,
                               std::min(last, CompilePhase::Staged))))
    return failure();
  // With --sp, the report compares against the same mesh without it.
  std::optional<ExplainReport> baseline;
  if (options.explain && options.sequenceParallel &&
      last == CompilePhase::Lowered) {
    OwningOpRef<ModuleOp> copy = module.clone();
    pipeline.parallel.sequenceParallel = false;
    if (failed(runParaccPipeline(*copy, pipeline, CompilePhase::Staged,
                                 CompilePhase::Lowered)))
      return failure();
    pipeline.parallel.sequenceParallel = true;
    baseline = analyzePlan(*copy);
  }
  if (last > CompilePhase::Staged &&
      failed(runParaccPipeline(module, pipeline, CompilePhase::Staged, last)))
    return failure();
  if (last != CompilePhase::Lowered) {
    result.ir = printIR(module);
    return success();
  }
  // The report reads the lowered program: its collectives move the bytes of
  // the chosen precision.
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
  if (options.compileTo) {
    result.ir = printIR(module);
    return success();
  }
  // Every function: one, or one per pipeline stage.
  ExecutableOptions writerOptions;
  writerOptions.embedWeights = options.embedWeights;
  writerOptions.costRates = ratesForDevice(options.device).str();
  FailureOr<std::vector<uint8_t>> bytes =
      writeExecutable(module, weights, writerOptions);
  if (failed(bytes))
    return failure();
  result.executable = std::move(*bytes);
  stage("lower");
  return success();
}

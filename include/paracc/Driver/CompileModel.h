//===- CompileModel.h - A model to an inference executable -----*- C++ -*-===//
//
// The whole inference compile as one call, shared by the paracc tool and the
// C API: import (ONNX binary or text, paracc's graph-dialect MLIR; from a
// file or from bytes), clean up, shard over the mesh, lower, and write the
// runtime's executable (.pcx bytes), with the --explain report on request.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DRIVER_COMPILEMODEL_H
#define PARACC_DRIVER_COMPILEMODEL_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "paracc/Compiler/Options.h"
#include "paracc/Driver/CompileStatus.h"
#include "paracc/Importer/ONNX/ONNXImporter.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::paracc {

/// Where the model comes from.
struct ModelSource {
  enum class Format { Auto, ONNX, ONNXText, MLIR };
  /// The model's file, or its name in messages when `bytes` is set.
  std::string path;
  /// The model itself (else it is read from `path`).
  std::optional<std::string> bytes;
  /// Auto: by the file's extension (.mlir, .pbtxt, else binary ONNX).
  Format format = Format::Auto;
  /// Where an ONNX model from `bytes` keeps its external data ("" : none
  /// allowed); a file's own folder otherwise.
  std::string externalDataDir;
  /// StableHLO: the entry function's leading arguments that are parameters
  /// (`--params`): "" none, a count N (no data: --random-weights), or an
  /// .npz whose arrays, in order, are the first arguments' values (what
  /// `np.savez(f, *jax.tree_util.tree_leaves(params))` writes).
  std::string parameters;
};

struct ModelCompileOptions {
  /// Import: input shapes, text format, random weights for shape-only
  /// models.
  ONNXImportOptions import;
  /// Weights without data are filled with values from this seed.
  uint64_t seed = 0;
  /// The device mesh ("dp2,tp4"; "" one rank).
  std::string mesh;
  /// Sequence parallelism on the tensor-parallel axis.
  bool sequenceParallel = false;
  /// The pipeline's m under pp, else interleaved micro-batches.
  int64_t microbatches = 1;
  /// Pipeline stages: "auto" or layer ranges ("0-2,3-5").
  std::string stages = "auto";
  PipelineSchedule schedule = kDefaultPipelineSchedule;
  /// Model chunks per rank under the interleaved schedule (0: 2 there, 1
  /// otherwise).
  int64_t virtualStages = 0;
  Precision precision = Precision::F32;
  /// Copy the weights into the executable instead of referencing the
  /// model's external-data file (ExecutableOptions::embedWeights).
  bool embedWeights = false;
  /// Where it runs: the cost model's rates behind the executable's
  /// predicted instruction times and --explain's step (ratesForDevice).
  Device device = Device::Auto;
  /// Make CompiledModel::explainText and explainJson.
  bool explain = false;
  /// "imported" or "compiled": print the IR into CompiledModel::ir and stop
  /// before writing the executable.
  std::string emit;
  /// Called after each stage ("import", "compile", "lower").
  std::function<void(const char *)> onStage;
};

struct CompiledModel {
  /// The executable (.pcx bytes); empty when `emit` stopped before it.
  std::vector<uint8_t> executable;
  /// The --explain report, as text and as JSON (when asked).
  std::string explainText, explainJson;
  /// The IR asked for by `emit`.
  std::string ir;
};

/// An imported module, or why there is none.
struct ImportedModel {
  OwningOpRef<ModuleOp> module;
  CompileStatus status = CompileStatus::Ok;
};

/// Imports `source` (ONNX binary or text, graph-dialect MLIR) into a module
/// of graph-dialect ops, its weights' data into `weights`.
ImportedModel importModel(MLIRContext &context, const ModelSource &source,
                          const ONNXImportOptions &options,
                          WeightStore &weights);

/// Compiles `source` for inference. Errors go to the context's diagnostic
/// handler and to `err` (options).
CompileStatus compileModel(MLIRContext &context, const ModelSource &source,
                           const ModelCompileOptions &options,
                           CompiledModel &result, llvm::raw_ostream &err);

} // namespace mlir::paracc

#endif // PARACC_DRIVER_COMPILEMODEL_H

//===- Compile.h - A model to an executable, in one call --------*- C++ -*-===//
//
// The one compile every front door calls (the paracc tool, paracc train, the
// C API and through it Python): import the model (ONNX binary or text,
// graph-dialect MLIR or StableHLO; from a file or from bytes), check the
// options, run the phases of the `paracc-compile` pass pipeline, and write
// the runtime's executable (.pcx bytes), with the --explain report on
// request. Inference, or with `CompileOptions::training` a training step
// from a loss model.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DRIVER_COMPILE_H
#define PARACC_DRIVER_COMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "paracc/Compiler/OptionsBinder.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"
#include "paracc/Importer/ONNX/ONNXImporter.h"
#include "paracc/Support/WeightStore.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace paracc::rt {
class Executable;
} // namespace paracc::rt

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

  /// Binds `params`.
  void bindOptions(OptionsBinder &binder);
};

/// A compile's options: the mesh and precision (ParallelOptions; a mesh of
/// "auto" lets the planner choose them for `cluster`, Plan.h), the import,
/// and the executable's.
struct CompileOptions : ParallelOptions {
  /// Import: input shapes (a token model's inputs are [batch, seq]), text
  /// format, random weights for shape-only models.
  ONNXImportOptions import;
  /// Input shapes as given ("NAME=2x64", "NAME=scalar"), which
  /// applyInputShapes adds to `import`.
  std::vector<std::string> inputShapes;
  /// Weights without data are filled with values from this seed.
  uint64_t seed = 0;
  /// With mesh "auto": the cluster to plan for (NODESxDEVICES:KIND, a .json
  /// file, or "local": this machine's GPUs when `device` allows them, else
  /// its cores as CPU ranks).
  std::string cluster = "local";
  /// Copy the weights into the executable instead of referencing the
  /// model's external-data file (ExecutableOptions::embedWeights).
  bool embedWeights = false;
  /// Where it runs: the cost model's rates behind the executable's
  /// predicted instruction times and --explain's step (ratesForDevice), and
  /// auto recompute's default budget.
  Device device = Device::Auto;
  /// Make CompiledProgram::explainText and explainJson.
  bool explain = false;
  /// Print the IR after this phase into CompiledProgram::ir and stop before
  /// writing the executable (--compile-to).
  std::optional<CompilePhase> compileTo;
  /// Inference: called after each stage ("import", "compile", "lower").
  std::function<void(const char *)> onStage;
  /// A training step from a loss model; inference without.
  std::optional<TrainingOptions> training;

  /// Binds the options above that the front doors set (ParallelOptions',
  /// cluster, device, input shapes, seed, random and embedded weights).
  void bindOptions(OptionsBinder &binder);
  /// Parses `inputShapes` into `import`; false with `err` written for a
  /// malformed one.
  LogicalResult applyInputShapes(llvm::raw_ostream &err);
};

struct CompiledProgram {
  /// The executable (.pcx bytes); empty when `compileTo` stopped before it.
  std::vector<uint8_t> executable;
  /// Training: the executable loaded (auto recompute measured its memory
  /// plan).
  std::shared_ptr<::paracc::rt::Executable> exe;
  /// The --explain report, as text and as JSON (when asked).
  std::string explainText, explainJson;
  /// The IR asked for by `compileTo`.
  std::string ir;
  /// Training: the model's initial weights (--export-onnx writes the
  /// trained ones over them).
  WeightStore weights;
  /// Training: the weights not trained (frozen), with why.
  std::vector<std::pair<std::string, std::string>> frozenParameters;
};

/// Where a compile's messages go. Errors also reach the context's
/// diagnostic handler.
struct CompileDiagnostics {
  CompileDiagnostics(llvm::raw_ostream &errors, llvm::raw_ostream &notes)
      : errors(errors), notes(notes) {}
  /// "paracc: error: ..." lines for bad options.
  llvm::raw_ostream &errors;
  /// Progress notes (auto recompute's tries).
  llvm::raw_ostream &notes;
  /// Set on failure when the model uses something paracc does not support
  /// (else the input or the options are wrong).
  bool unsupported = false;
};

/// Compiles `source`.
FailureOr<CompiledProgram> compile(MLIRContext &context,
                                   const ModelSource &source,
                                   const CompileOptions &options,
                                   CompileDiagnostics &diagnostics);

/// The optimizer and its settings as one line, which the executable and its
/// checkpoints record (a checkpoint continues only a run that agrees).
std::string optimizerIdentity(const graph::OptimizerPassOptions &options);

} // namespace mlir::paracc

#endif // PARACC_DRIVER_COMPILE_H

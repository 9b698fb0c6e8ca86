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
#include "paracc/Compiler/Options.h"
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
};

/// What a training step adds to a compile.
struct TrainingOptions {
  /// "" (the model returns its loss), "next-token-ce" or "ce".
  std::string loss;
  /// Parameters matching this regular expression are not trained.
  std::string freeze;
  /// Only parameters matching this regular expression are trained.
  std::string trainOnly;
  /// Freeze the buffers exporters write (running statistics, position
  /// tables); --no-auto-freeze trains them.
  bool autoFreeze = true;
  /// The optimizer; none: the step returns the gradients (a gradient
  /// check's step, each parameter's gradient whole).
  std::optional<graph::OptimizerPassOptions> optimizer;
  /// What to recompute, and (auto) the peak per rank to fit.
  RecomputePolicy recompute = RecomputePolicy::None;
  std::optional<int64_t> memoryBudget;
  /// All-reduce buckets of this many MiB (0: one all-reduce each).
  double bucketMb = 25.0;
  /// ZeRO stage: 0, 1 (optimizer state), 2 (and gradients) or 3 (and
  /// parameters) sharded over the data-parallel axis, which the mesh must
  /// have with size > 1.
  int64_t zero = 0;
  /// ZeRO stage 3: layers ahead at which a parameter's gather is issued.
  int64_t zeroPrefetch = 1;
  /// Hybrid sharding: ZeRO shards within groups of this many dp ranks and
  /// replicates across them (0: all of dp).
  int64_t zeroShardSize = 0;
  uint64_t dropoutSeed = 0;
};

struct CompileOptions {
  /// Import: input shapes (a token model's inputs are [batch, seq]), text
  /// format, random weights for shape-only models.
  ONNXImportOptions import;
  /// Weights without data are filled with values from this seed.
  uint64_t seed = 0;
  /// The device mesh ("dp2,tp4"; "" one rank; "auto": the planner chooses
  /// the mesh and the options below for `cluster`, Plan.h).
  std::string mesh;
  /// With mesh "auto": the cluster to plan for (NODESxDEVICES:KIND, a .json
  /// file, or "local": this machine's GPUs when `device` allows them, else
  /// its cores as CPU ranks).
  std::string cluster = "local";
  /// Sequence parallelism on the tensor-parallel axis.
  bool sequenceParallel = false;
  /// The pipeline's m under pp; in inference without pp, micro-batches
  /// interleaved on every rank.
  int64_t microbatches = 1;
  /// Pipeline stages: "auto" or layer ranges ("0-2,3-5").
  std::string stages = "auto";
  PipelineSchedule schedule = kDefaultPipelineSchedule;
  /// Model chunks per rank under the interleaved schedule (0: 2 there, 1
  /// otherwise).
  int64_t virtualStages = 0;
  /// f32, or bf16/f16 compute (training: with f32 master weights).
  Precision precision = Precision::F32;
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

/// Parses and checks the optimizer's options as the tools take them
/// (`betas` "0.9,0.95"; `weightDecay` unset: torch's default, 0.01 for
/// AdamW and 0 for SGD).
LogicalResult parseOptimizerOptions(StringRef optimizer, StringRef betas,
                                    double eps,
                                    std::optional<double> weightDecay,
                                    double momentum, double clipGradNorm,
                                    graph::OptimizerPassOptions &result,
                                    llvm::raw_ostream &err);

} // namespace mlir::paracc

#endif // PARACC_DRIVER_COMPILE_H

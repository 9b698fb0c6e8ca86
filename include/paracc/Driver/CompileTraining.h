//===- CompileTraining.h - A loss model to a training step -----*- C++ -*-===//
//
// The whole `paracc train` compile as one call, shared by the paracc tool
// and the C API: import the loss model (or a logits model with a loss
// added), annotate the forward for the mesh, cut pipeline stages, convert
// precision, differentiate, add the optimizer, then partition, recompute
// within a memory budget, lower and write the step executable.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DRIVER_COMPILETRAINING_H
#define PARACC_DRIVER_COMPILETRAINING_H

#include "mlir/IR/MLIRContext.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"
#include "paracc/Driver/CompileModel.h"
#include "paracc/Support/WeightStore.h"
#include "paracc/runtime/Executable.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::paracc {

struct TrainingCompileOptions {
  /// Import: input shapes (a token model's inputs are [batch, seq]), random
  /// weights for shape-only models.
  ONNXImportOptions import;
  uint64_t seed = 0;
  /// The mesh and its pipeline settings (as for inference).
  std::string mesh;
  bool sequenceParallel = false;
  int64_t microbatches = 1;
  std::string stages = "auto";
  PipelineSchedule schedule = kDefaultPipelineSchedule;
  /// Model chunks per rank, interleaved (0: 2 there, 1 otherwise).
  int64_t virtualStages = 0;
  /// f32, or bf16/f16 compute with f32 master weights.
  Precision precision = Precision::F32;
  /// "" (the model returns its loss), "next-token-ce" or "ce".
  std::string loss;
  /// Parameters matching this regular expression are not trained.
  std::string freeze;
  /// The optimizer; none: the step returns the gradients (a gradient
  /// check's step, each parameter's gradient whole).
  std::optional<graph::OptimizerPassOptions> optimizer;
  /// What to recompute, and (auto) the peak per rank to fit.
  RecomputePolicy recompute = RecomputePolicy::None;
  std::optional<int64_t> memoryBudget;
  /// Where the step runs: the cost model's rates and auto's default
  /// budget.
  Device device = Device::Auto;
  /// All-reduce buckets of this many MiB (0: one all-reduce each).
  double bucketMb = 25.0;
  /// ZeRO stage: 0, or 1 (optimizer state sharded over the dp axis, which
  /// the mesh must have with size > 1).
  /// Copy the weights into the executable (ModelCompileOptions).
  bool embedWeights = false;
  int64_t zero = 0;
  uint64_t dropoutSeed = 0;
  bool explain = false;
  /// "differentiated" or "compiled": print the IR into CompiledTraining::ir
  /// and stop.
  std::string emit;
};

struct CompiledTraining {
  /// The step executable (.pcx bytes), and loaded.
  std::vector<uint8_t> executable;
  std::shared_ptr<::paracc::rt::Executable> exe;
  std::string explainText, explainJson;
  std::string ir;
  /// The model's initial weights (--export-onnx writes the trained ones
  /// over them).
  WeightStore weights;
};

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

/// Compiles the loss model `source` into a training step. Progress notes
/// (auto recompute's tries) go to `out`, errors to the context's handler
/// and `err`.
CompileStatus compileTraining(MLIRContext &context, const ModelSource &source,
                              const TrainingCompileOptions &options,
                              CompiledTraining &result, llvm::raw_ostream &out,
                              llvm::raw_ostream &err);

} // namespace mlir::paracc

#endif // PARACC_DRIVER_COMPILETRAINING_H

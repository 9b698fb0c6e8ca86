//===- Pipelines.h - paracc's pass pipelines and registration --*- C++ -*-===//

#ifndef PARACC_PIPELINES_PIPELINES_H
#define PARACC_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/CommandLine.h"

#include "paracc/Compiler/OptionsBinder.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"
#include <memory>
#include <vector>

namespace mlir::paracc {

/// Options of the clean-up pass pipeline (`paracc-cleanup`).
struct CleanupPipelineOptions
    : public PassPipelineOptions<CleanupPipelineOptions> {};

/// Cleans up the imported graph: folding, canonicalization, fusion of the
/// exporters' decomposed norms and activations.
void buildCleanupPipeline(OpPassManager &pm,
                          const CleanupPipelineOptions &options);

/// What the phases of a compile take (buildParaccPipeline): the typed
/// options the driver fills, and that `paracc-compile`'s pass options parse
/// into.
struct PhasedCompileOptions {
  /// The phase the input has reached and the last phase to run.
  CompilePhase from = CompilePhase::Imported;
  CompilePhase to = CompilePhase::Lowered;
  ParallelOptions parallel;
  /// A training step from a loss, with `training`'s options.
  bool train = false;
  TrainingOptions training;
  /// The cost model's device rates (cpu, h200, h100, a100, a100-40g).
  std::string rates = "cpu";
  /// recompute=auto: saved-activation bytes per rank (-1: no limit).
  int64_t recomputeBudget = -1;

  /// The optimizer pass's options (training.gradientsOnly: none).
  graph::OptimizerPassOptions optimizerOptions() const;
};

/// The options of the pass pipeline `paracc-compile`: the phases (from,
/// to), train, rates and recompute-budget, and every option that
/// ParallelOptions and TrainingOptions bind, in the same spelling as the
/// tools' flags and the C API's keys ("mesh=dp2,tp2 pipeline-schedule=zb-h1
/// betas=0.9,0.95"). They parse into `compile`.
struct ParaccPipelineOptions
    : public PassPipelineOptions<ParaccPipelineOptions> {
  ParaccPipelineOptions();
  ~ParaccPipelineOptions();

  PhasedCompileOptions compile;

private:
  /// The bound options (each parses into a field of `compile`).
  std::vector<std::unique_ptr<OptionValue>> boundValues;
  std::vector<std::unique_ptr<llvm::cl::Option>> boundOptions;
  friend class PassOptionsBinder;
};

/// Adds the phases after `options.from` up to `options.to`: clean-up,
/// stage planning and the mesh, sharding annotation, (training)
/// differentiation and the optimizer, propagation, (training) recompute,
/// partitioning, the pipeline's functions, lowering. Inference skips the
/// training phases; one rank skips the mesh's.
void buildParaccPipeline(OpPassManager &pm,
                         const PhasedCompileOptions &options);

/// Runs the phases after `from` up to `to` on `module` (buildParaccPipeline
/// with `options`, whose from and to it sets).
LogicalResult runParaccPipeline(ModuleOp module, PhasedCompileOptions &options,
                                CompilePhase from, CompilePhase to);

/// Options of the distribution pass pipeline (`paracc-distribute`).
struct DistributePipelineOptions
    : public PassPipelineOptions<DistributePipelineOptions> {
  Option<bool> sequenceParallel{*this, "sp",
                                llvm::cl::desc("Sequence parallelism"),
                                llvm::cl::init(false)};
  Option<std::string> tpAxis{*this, "tp-axis",
                             llvm::cl::desc("Tensor-parallel mesh axis"),
                             llvm::cl::init("tp")};
  Option<std::string> dpAxis{*this, "dp-axis",
                             llvm::cl::desc("Data-parallel mesh axis"),
                             llvm::cl::init("dp")};
  Option<std::string> epAxis{*this, "ep-axis",
                             llvm::cl::desc("Expert-parallel mesh axis"),
                             llvm::cl::init("ep")};
  Option<double> expertLoadImbalance{
      *this, "expert-load-imbalance",
      llvm::cl::desc("The busiest ep member's load over an even share that "
                     "the cost model assumes (>= 1)"),
      llvm::cl::init(1.0)};
  Option<std::string> cpAxis{*this, "cp-axis",
                             llvm::cl::desc("Context-parallel mesh axis"),
                             llvm::cl::init("cp")};
  Option<CpLayout> cpLayout{
      *this, "cp-layout",
      llvm::cl::desc("The sequence's layout over cp (zigzag, contiguous)"),
      llvm::cl::init(CpLayout::Zigzag)};
  Option<CpAttention> cpAttention{
      *this, "cp-attention",
      llvm::cl::desc("Attention over the cp-split sequence (allgather, "
                     "alltoall)"),
      llvm::cl::init(CpAttention::AllGather)};
  Option<std::string> ppAxis{*this, "pp-axis",
                             llvm::cl::desc("Pipeline mesh axis"),
                             llvm::cl::init("pp")};
  Option<PipelineSchedule> schedule{
      *this, "schedule",
      llvm::cl::desc("Pipeline schedule (gpipe, 1f1b, zb-h1, interleaved)"),
      llvm::cl::init(kDefaultPipelineSchedule)};
  Option<int64_t> virtualStages{
      *this, "virtual-stages",
      llvm::cl::desc("Model chunks per rank under the interleaved schedule"),
      llvm::cl::init(1)};
  Option<std::string> microbatchAxis{
      *this, "microbatch-axis",
      llvm::cl::desc("Virtual last mesh axis of interleaved micro-batches "
                     "(none when the mesh does not have it)"),
      llvm::cl::init("mb")};
  Option<bool> training{
      *this, "training",
      llvm::cl::desc("A training step: the recompute pass runs"),
      llvm::cl::init(false)};
  Option<RecomputePolicy> recompute{
      *this, "recompute",
      llvm::cl::desc("Training: activations recomputed in the backward "
                     "(none, full, selective, auto)"),
      llvm::cl::init(RecomputePolicy::None)};
  Option<int64_t> recomputeBudget{
      *this, "recompute-budget",
      llvm::cl::desc("recompute=auto: saved-activation bytes per rank "
                     "(-1: no limit)"),
      llvm::cl::init(-1)};
  Option<std::string> rates{
      *this, "rates",
      llvm::cl::desc("Device rates of the cost model (cpu, h200, h100, "
                     "a100, a100-40g)"),
      llvm::cl::init("cpu")};
  Option<int64_t> zero{
      *this, "zero",
      llvm::cl::desc("Training: ZeRO stage (0: none; 1: optimizer state, "
                     "2: and gradients, 3: and parameters sharded over the "
                     "data-parallel axis)"),
      llvm::cl::init(0)};
  Option<int64_t> zeroPrefetch{
      *this, "zero-prefetch",
      llvm::cl::desc("ZeRO stage 3: layers ahead at which a parameter's "
                     "all-gather is issued"),
      llvm::cl::init(1)};
};

/// Shards the module over its `dist.mesh`: the sharding annotations, then
/// the partitioning (the two halves below, one after the other).
void buildDistributePipeline(OpPassManager &pm,
                             const DistributePipelineOptions &options);

/// The first half of `buildDistributePipeline`: tensor parallelism (and
/// sequence parallelism), data, context and expert parallelism annotate
/// the forward graph.
/// Training differentiates after it, so that the backward's shardings come
/// from propagation over the annotated forward.
void buildShardingAnnotationPipeline(OpPassManager &pm,
                                     const DistributePipelineOptions &options);

/// The second half: propagation, activation recompute (training, when
/// `recompute` is set), partitioning, clean-up, and, when the mesh
/// ends with the micro-batch axis, one function per pipeline stage (with a
/// pipeline axis) or interleaved micro-batches.
void buildPartitionPipeline(OpPassManager &pm,
                            const DistributePipelineOptions &options);

/// Options of the training pipeline's differentiation (`paracc-autodiff`).
struct AutodiffPipelineOptions {
  /// Parameters matching this regular expression are frozen.
  std::string freeze;
  /// Only parameters matching this regular expression are trained.
  std::string trainOnly;
  /// Freeze the buffers exporters write (paracc-autodiff's auto-freeze).
  bool autoFreeze = true;
  /// One gradient per parameter, its blocks' concatenated.
  bool wholeParameters = false;
};

/// Differentiates the loss (`paracc-autodiff`), then canonicalizes and
/// removes common subexpressions.
void buildAutodiffPipeline(OpPassManager &pm,
                           const AutodiffPipelineOptions &options);

/// The last steps before the executable: fuse matmul + bias + activation
/// into graph.linear, all-reduces into buckets of `bucketMb` MiB (training;
/// 0: none), unless `precision` is f32 compute in it, (with `weightCopies`)
/// mixed precision's bf16 weights kept as state the optimizer writes, and
/// (with `fuseElementwise`) chains of elementwise ops into fused ops.
void buildLoweringPipeline(OpPassManager &pm, Precision precision,
                           double bucketMb = 0.0, bool fuseElementwise = true,
                           bool weightCopies = false);

/// Registers paracc's dialects (graph, dist, and func, which holds their
/// programs) with the graph ops' sharding and gradient rules: what a tool
/// that runs paracc's passes on its IR registers.
void registerParaccDialects(DialectRegistry &registry);

/// The version of libParaccPasses.so (only defined there).
const char *passesLibraryVersion();

/// Registers every paracc pass and pipeline (for paracc-opt and other
/// mlir-opt style tools).
void registerParaccPasses();

} // namespace mlir::paracc

#endif // PARACC_PIPELINES_PIPELINES_H

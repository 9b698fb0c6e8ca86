//===- Pipelines.h - paracc's pass pipelines and registration --*- C++ -*-===//

#ifndef PARACC_PIPELINES_PIPELINES_H
#define PARACC_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "paracc/Compiler/Options.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"

namespace mlir::paracc {

/// Options of the clean-up pass pipeline (`paracc-cleanup`).
struct CleanupPipelineOptions
    : public PassPipelineOptions<CleanupPipelineOptions> {};

/// Cleans up the imported graph: folding, canonicalization, fusion of the
/// exporters' decomposed norms and activations.
void buildCleanupPipeline(OpPassManager &pm,
                          const CleanupPipelineOptions &options);

/// The options of a whole compile (`paracc-compile`): what the paracc tool's
/// and `paracc train`'s flags and the C API's keys set, in the pass
/// pipeline's spelling.
struct ParaccPipelineOptions
    : public PassPipelineOptions<ParaccPipelineOptions> {
  Option<CompilePhase> from{
      *this, "from",
      llvm::cl::desc("The phase the input has reached (imported: the "
                     "importer's module)"),
      llvm::cl::init(CompilePhase::Imported)};
  Option<CompilePhase> to{*this, "to", llvm::cl::desc("The last phase to run"),
                          llvm::cl::init(CompilePhase::Lowered)};
  Option<std::string> mesh{
      *this, "mesh",
      llvm::cl::desc("Device mesh, e.g. dp2,tp4 (empty: one rank)"),
      llvm::cl::init("")};
  Option<bool> sequenceParallel{*this, "sp",
                                llvm::cl::desc("Sequence parallelism"),
                                llvm::cl::init(false)};
  Option<int64_t> microbatches{
      *this, "microbatches",
      llvm::cl::desc("Micro-batches: the pipeline's under pp, else "
                     "interleaved"),
      llvm::cl::init(1)};
  Option<std::string> stages{
      *this, "stages",
      llvm::cl::desc("Pipeline stages: auto, or layer ranges (0-2,3-5)"),
      llvm::cl::init("auto")};
  Option<PipelineSchedule> schedule{
      *this, "schedule",
      llvm::cl::desc("Pipeline schedule (gpipe, 1f1b, zb-h1, interleaved)"),
      llvm::cl::init(kDefaultPipelineSchedule)};
  Option<int64_t> virtualStages{
      *this, "virtual-stages",
      llvm::cl::desc("Model chunks per rank (0: 2 under the interleaved "
                     "schedule, else 1)"),
      llvm::cl::init(0)};
  Option<Precision> precision{
      *this, "precision",
      llvm::cl::desc("Compute precision (f32, bf16, f16; training keeps f32 "
                     "master weights)"),
      llvm::cl::init(Precision::F32)};
  Option<std::string> rates{
      *this, "rates",
      llvm::cl::desc("Device rates of the cost model (cpu, h200, h100, "
                     "a100, a100-40g)"),
      llvm::cl::init("cpu")};
  Option<bool> train{*this, "train",
                     llvm::cl::desc("Compile a training step from a loss"),
                     llvm::cl::init(false)};
  Option<std::string> loss{
      *this, "loss",
      llvm::cl::desc("Training: the loss to add to a logits model "
                     "(next-token-ce, ce; empty: the model returns its loss)"),
      llvm::cl::init("")};
  Option<std::string> freeze{
      *this, "freeze",
      llvm::cl::desc("Training: parameters matching this regular expression "
                     "are not trained"),
      llvm::cl::init("")};
  Option<std::string> trainOnly{
      *this, "train-only",
      llvm::cl::desc("Training: only parameters matching this regular "
                     "expression are trained"),
      llvm::cl::init("")};
  Option<bool> autoFreeze{
      *this, "auto-freeze",
      llvm::cl::desc("Training: freeze the buffers exporters write as "
                     "initializers (running statistics, position tables)"),
      llvm::cl::init(true)};
  Option<uint64_t> dropoutSeed{*this, "dropout-seed",
                               llvm::cl::desc("Training: the dropout seed"),
                               llvm::cl::init(0)};
  Option<std::string> optimizer{
      *this, "optimizer",
      llvm::cl::desc("Training: adamw, sgd, or none (the step returns every "
                     "parameter's whole gradient)"),
      llvm::cl::init("adamw")};
  Option<double> beta1{*this, "beta1", llvm::cl::desc("AdamW's beta1"),
                       llvm::cl::init(0.9)};
  Option<double> beta2{*this, "beta2", llvm::cl::desc("AdamW's beta2"),
                       llvm::cl::init(0.999)};
  Option<double> eps{*this, "eps", llvm::cl::desc("AdamW's eps"),
                     llvm::cl::init(1e-8)};
  Option<double> weightDecay{
      *this, "weight-decay",
      llvm::cl::desc("Decoupled (AdamW) or L2 (SGD) weight decay"),
      llvm::cl::init(0.01)};
  Option<double> momentum{*this, "momentum", llvm::cl::desc("SGD's momentum"),
                          llvm::cl::init(0.0)};
  Option<double> clipGradNorm{
      *this, "clip-grad-norm",
      llvm::cl::desc("Clip the gradients' global L2 norm (0: no clipping)"),
      llvm::cl::init(0.0)};
  Option<RecomputePolicy> recompute{
      *this, "recompute",
      llvm::cl::desc("Training: activations recomputed in the backward "
                     "(none, full, selective, auto)"),
      llvm::cl::init(RecomputePolicy::None)};
  Option<int64_t> recomputeBudget{
      *this, "recompute-budget",
      llvm::cl::desc("recompute=auto: live activation bytes per rank (-1: no "
                     "limit)"),
      llvm::cl::init(-1)};
  Option<int64_t> zero{
      *this, "zero",
      llvm::cl::desc("Training: ZeRO stage (0: none; 1: optimizer state, "
                     "2: and gradients, 3: and parameters sharded over dp)"),
      llvm::cl::init(0)};
  Option<int64_t> zeroPrefetch{
      *this, "zero-prefetch",
      llvm::cl::desc("Training, ZeRO stage 3: layers ahead at which a "
                     "parameter's all-gather is issued"),
      llvm::cl::init(1)};
  Option<int64_t> zeroShardSize{
      *this, "zero-shard-size",
      llvm::cl::desc("Training, hybrid sharding: ZeRO shards within groups "
                     "of this many dp ranks and replicates across them (0: "
                     "all of dp)"),
      llvm::cl::init(0)};
  Option<double> bucketMb{
      *this, "bucket-mb",
      llvm::cl::desc("Training: all-reduce buckets of this many MiB (0: one "
                     "all-reduce each)"),
      llvm::cl::init(25.0)};

  /// The optimizer pass's options from these, and these from the
  /// optimizer's (none: a gradient check's step, optimizer=none).
  graph::OptimizerPassOptions optimizerOptions() const;
  void setOptimizerOptions(
      const std::optional<graph::OptimizerPassOptions> &optimizer);
};

/// Adds the phases after `options.from` up to `options.to`: clean-up,
/// stage planning and the mesh, sharding annotation, (training)
/// differentiation and the optimizer, propagation, (training) recompute,
/// partitioning, the pipeline's functions, lowering. Inference skips the
/// training phases; one rank skips the mesh's.
void buildParaccPipeline(OpPassManager &pm,
                         const ParaccPipelineOptions &options);

/// Runs the phases after `from` up to `to` on `module` (buildParaccPipeline
/// with `options`, whose from and to it sets).
LogicalResult runParaccPipeline(ModuleOp module, ParaccPipelineOptions &options,
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
/// sequence parallelism) and data parallelism annotate the forward graph.
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
/// 0: none)
/// and, unless `precision` is f32, compute in it.
void buildLoweringPipeline(OpPassManager &pm, Precision precision,
                           double bucketMb = 0.0);

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

//===- Pipelines.h - paracc's pass pipelines and registration --*- C++ -*-===//

#ifndef PARACC_PIPELINES_PIPELINES_H
#define PARACC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "paracc/Compiler/Options.h"

namespace mlir::paracc {

/// Options of the compilation pipeline (`paracc-compile`).
struct CompilePipelineOptions
    : public PassPipelineOptions<CompilePipelineOptions> {};

/// Cleans up the imported graph: folding, canonicalization, fusion of the
/// exporters' decomposed norms and activations.
void buildCompilePipeline(OpPassManager &pm,
                          const CompilePipelineOptions &options);

/// Options of the distribution pipeline (`paracc-distribute`).
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
      llvm::cl::desc("Device rates of the cost model (cpu, h200)"),
      llvm::cl::init("cpu")};
  Option<int64_t> zero{
      *this, "zero",
      llvm::cl::desc("Training: ZeRO stage (0: none; 1: optimizer state "
                     "sharded over the data-parallel axis)"),
      llvm::cl::init(0)};
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

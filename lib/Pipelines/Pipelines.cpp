//===- Pipelines.cpp - paracc's pass pipelines and registration -*- C++ -*-===//

#include "paracc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Dist/Transforms/Passes.h"
#include "paracc/Dialect/Graph/IR/GradientInterface.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::paracc;

void mlir::paracc::buildCompilePipeline(OpPassManager &pm,
                                        const CompilePipelineOptions &) {
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(createCanonicalizerPass());
  fn.addPass(graph::createFoldConstantsPass());
  fn.addPass(graph::createGraphFusionPass());
  fn.addPass(createCanonicalizerPass());
  fn.addPass(createCSEPass());
}

void mlir::paracc::buildShardingAnnotationPipeline(
    OpPassManager &pm, const DistributePipelineOptions &options) {
  pm.addPass(dist::createTensorParallelPass({options.tpAxis}));
  if (options.sequenceParallel)
    pm.addPass(dist::createSequenceParallelPass({options.tpAxis}));
  pm.addPass(
      dist::createDataParallelPass({options.dpAxis, options.microbatchAxis}));
  // What the front end asked for wins over what the passes chose.
  pm.addPass(dist::createUserShardingsPass());
}

void mlir::paracc::buildPartitionPipeline(
    OpPassManager &pm, const DistributePipelineOptions &options) {
  pm.addPass(dist::createPropagateShardingPass());
  if (options.zero >= 1)
    pm.addPass(dist::createShardOptimizerStatePass({options.dpAxis}));
  if (options.training)
    pm.addPass(dist::createRecomputePass(
        {options.recompute, options.recomputeBudget, options.rates}));
  pm.addPass(dist::createPartitionPass());
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(createCanonicalizerPass());
  fn.addPass(createCSEPass());
  // A pipeline takes the micro-batch axis; otherwise micro-batches are
  // interleaved on every rank.
  pm.addPass(dist::createPipelinePass({options.ppAxis, options.microbatchAxis,
                                       options.schedule,
                                       options.virtualStages}));
  pm.addPass(dist::createInterleaveMicrobatchesPass({options.microbatchAxis}));
}

void mlir::paracc::buildDistributePipeline(
    OpPassManager &pm, const DistributePipelineOptions &options) {
  buildShardingAnnotationPipeline(pm, options);
  buildPartitionPipeline(pm, options);
}

void mlir::paracc::buildAutodiffPipeline(
    OpPassManager &pm, const AutodiffPipelineOptions &options) {
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(
      graph::createAutodiffPass({options.freeze, options.wholeParameters}));
  fn.addPass(createCanonicalizerPass());
  fn.addPass(createCSEPass());
}

void mlir::paracc::buildLoweringPipeline(OpPassManager &pm, Precision precision,
                                         double bucketMb) {
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(graph::createFuseLinearPass());
  fn.addPass(graph::createFuseAccumulationPass());
  fn.addPass(graph::createFuseSquareSumsPass());
  fn.addPass(dist::createFoldReductionAddendsPass());
  // Training: gradients and gradient-norm terms in buckets (not for
  // inference, whose reductions are each needed at once, or interleaved
  // micro-batches, whose separate collectives overlap each other's compute).
  if (bucketMb > 0)
    fn.addPass(dist::createBucketAllReducesPass({bucketMb}));
  fn.addPass(graph::createAttentionLayoutPass());
  if (precision != Precision::F32)
    fn.addPass(graph::createConvertPrecisionPass({precision}));
  fn.addPass(createCanonicalizerPass());
  fn.addPass(graph::createGroupParameterUpdatesPass());
}

void mlir::paracc::registerParaccPasses() {
  graph::registerGraphPasses();
  dist::registerDistPasses();
  PassPipelineRegistration<DistributePipelineOptions>(
      "paracc-distribute", "Shard the module over its dist.mesh",
      buildDistributePipeline);
  PassPipelineRegistration<CompilePipelineOptions>(
      "paracc-compile", "The compilation pipeline of the paracc driver",
      buildCompilePipeline);
}

void mlir::paracc::registerParaccDialects(DialectRegistry &registry) {
  registry.insert<func::FuncDialect, graph::GraphDialect, dist::DistDialect>();
  dist::registerGraphShardingRules(registry);
  graph::registerGraphGradientRules(registry);
}

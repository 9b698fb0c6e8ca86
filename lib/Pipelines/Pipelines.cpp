//===- Pipelines.cpp - paracc's pass pipelines and registration -*- C++ -*-===//

#include "paracc/Pipelines/Pipelines.h"

#include "paracc/Compiler/CommandLineBinder.h"

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

void mlir::paracc::buildCleanupPipeline(OpPassManager &pm,
                                        const CleanupPipelineOptions &) {
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(createCanonicalizerPass());
  fn.addPass(graph::createFoldConstantsPass());
  fn.addPass(graph::createGraphFusionPass());
  fn.addPass(createCanonicalizerPass());
  fn.addPass(createCSEPass());
  // After CSE: the experts' pattern is matched on one copy of each shared
  // value; the canonicalizer drops what the raised op replaced.
  fn.addPass(graph::createRaiseMoePass());
  fn.addPass(createCanonicalizerPass());
}

void mlir::paracc::buildShardingAnnotationPipeline(
    OpPassManager &pm, const DistributePipelineOptions &options) {
  pm.addPass(dist::createTensorParallelPass({options.tpAxis}));
  if (options.sequenceParallel)
    pm.addPass(dist::createSequenceParallelPass({options.tpAxis}));
  // Before data parallelism: a mesh whose ep axis does not divide the
  // experts is refused for that first.
  pm.addPass(dist::createExpertParallelPass(
      {options.epAxis, options.expertLoadImbalance}));
  dist::DataParallelPassOptions dataParallel;
  dataParallel.axis = options.dpAxis;
  dataParallel.expertAxis = options.epAxis;
  dataParallel.microbatchAxis = options.microbatchAxis;
  pm.addPass(dist::createDataParallelPass(dataParallel));
  // After data parallelism: it reads how the batch is split.
  pm.addPass(dist::createContextParallelPass(
      {options.cpAxis, options.cpLayout, options.cpAttention}));
  // What the front end asked for wins over what the passes chose.
  pm.addPass(dist::createUserShardingsPass());
}

/// Propagation: every value gets a sharding (ZeRO shards the optimizer
/// state).
static void addPropagationPasses(OpPassManager &pm,
                                 const DistributePipelineOptions &options) {
  pm.addPass(dist::createPropagateShardingPass());
  if (options.zero >= 1)
    pm.addPass(dist::createShardOptimizerStatePass({options.dpAxis}));
}

static void addRecomputePass(OpPassManager &pm,
                             const DistributePipelineOptions &options) {
  pm.addPass(dist::createRecomputePass(
      {options.recompute, options.recomputeBudget, options.rates}));
}

static void addPartitionPasses(OpPassManager &pm,
                               const DistributePipelineOptions &options) {
  pm.addPass(dist::createPartitionPass());
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(createCanonicalizerPass());
  fn.addPass(createCSEPass());
  // ZeRO's reduce-scatters per micro-batch or per step, and stage 3's
  // sharded parameters with their gathers.
  if (options.zero >= 1)
    pm.addPass(dist::createShardParametersPass({options.zero, options.dpAxis,
                                                options.microbatchAxis,
                                                options.zeroPrefetch}));
}

/// A pipeline takes the micro-batch axis; otherwise micro-batches are
/// interleaved on every rank.
static void addPipelinePasses(OpPassManager &pm,
                              const DistributePipelineOptions &options) {
  pm.addPass(dist::createPipelinePass({options.ppAxis, options.microbatchAxis,
                                       options.schedule,
                                       options.virtualStages}));
  pm.addPass(dist::createInterleaveMicrobatchesPass({options.microbatchAxis}));
}

void mlir::paracc::buildPartitionPipeline(
    OpPassManager &pm, const DistributePipelineOptions &options) {
  addPropagationPasses(pm, options);
  if (options.training)
    addRecomputePass(pm, options);
  addPartitionPasses(pm, options);
  addPipelinePasses(pm, options);
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
      graph::createAutodiffPass({options.freeze, options.trainOnly,
                                 options.autoFreeze, options.wholeParameters}));
  fn.addPass(createCanonicalizerPass());
  fn.addPass(createCSEPass());
}

void mlir::paracc::buildLoweringPipeline(OpPassManager &pm, Precision precision,
                                         double bucketMb, bool fuseElementwise,
                                         bool weightCopies) {
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(graph::createFuseLinearPass());
  fn.addPass(graph::createFuseAccumulationPass());
  fn.addPass(graph::createFuseSquareSumsPass());
  fn.addPass(graph::createFoldBroadcastsPass());
  fn.addPass(dist::createFoldReductionAddendsPass());
  // Training: gradients and gradient-norm terms in buckets (not for
  // inference, whose reductions are each needed at once, or interleaved
  // micro-batches, whose separate collectives overlap each other's compute).
  if (bucketMb > 0)
    fn.addPass(dist::createBucketAllReducesPass({bucketMb}));
  fn.addPass(graph::createAttentionLayoutPass());
  fn.addPass(graph::createAttentionKeyValueGroupsPass());
  if (precision != Precision::F32)
    fn.addPass(graph::createConvertPrecisionPass({precision}));
  fn.addPass(createCanonicalizerPass());
  fn.addPass(graph::createSaveAttentionStatsPass());
  fn.addPass(graph::createSaveSoftmaxStatsPass());
  fn.addPass(graph::createGroupParameterUpdatesPass());
  if (weightCopies)
    fn.addPass(dist::createPersistentWeightCopiesPass());
  if (fuseElementwise)
    fn.addPass(graph::createFuseElementwisePass());
}

graph::OptimizerPassOptions PhasedCompileOptions::optimizerOptions() const {
  graph::OptimizerPassOptions o;
  o.optimizer = stringifyOption(training.optimizer).str();
  o.beta1 = training.betas[0];
  o.beta2 = training.betas[1];
  o.eps = training.eps;
  o.weightDecay = training.resolvedWeightDecay();
  o.momentum = training.momentum;
  o.clipGradNorm = training.clipGradNorm;
  // The runtime runs the training step by this name.
  o.stepName = "step";
  return o;
}

namespace mlir::paracc {
/// Makes each bound option a pass option of `paracc-compile`, parsed into
/// ParaccPipelineOptions::compile by the command line's parsers.
class PassOptionsBinder : public OptionsBinder {
public:
  explicit PassOptionsBinder(ParaccPipelineOptions &owner) : owner(owner) {}
  void bind(const OptionInfo &info, OptionValue value) override {
    owner.boundValues.push_back(
        std::make_unique<OptionValue>(std::move(value)));
    const OptionValue *bound = owner.boundValues.back().get();
    if (bound->kind == OptionKind::Flag) {
      auto flag = std::make_unique<
          ParaccPipelineOptions::Option<bool, BoundFlagParser>>(
          owner, info.key, llvm::cl::desc(info.help));
      flag->getParser().value = bound;
      owner.boundOptions.push_back(std::move(flag));
      return;
    }
    auto text = std::make_unique<
        ParaccPipelineOptions::Option<std::string, BoundValueParser>>(
        owner, info.key, llvm::cl::desc(info.help),
        llvm::cl::value_desc(optionValueName(info, *bound)),
        llvm::cl::init(bound->print()));
    text->getParser().value = bound;
    owner.boundOptions.push_back(std::move(text));
  }

private:
  ParaccPipelineOptions &owner;
};
} // namespace mlir::paracc

ParaccPipelineOptions::ParaccPipelineOptions() {
  PassOptionsBinder binder(*this);
  // The pass pipeline's own options, which the front doors set otherwise.
  constexpr OptionScope scope = OptionScope::Compile;
  binder.bind({"from", scope,
               "The phase the input has reached (imported: the importer's "
               "module)"},
              OptionValue::choice(compile.from));
  binder.bind({"to", scope, "The last phase to run"},
              OptionValue::choice(compile.to));
  binder.bind({"train", scope, "Compile a training step from a loss"},
              OptionValue::flag(compile.train));
  binder.bind({"gradients-only", scope,
               "Training: no optimizer; the step returns every parameter's "
               "whole gradient"},
              OptionValue::flag(compile.training.gradientsOnly));
  binder.bind({"rates", scope,
               "Device rates of the cost model (cpu, h200, h100, a100, "
               "a100-40g)"},
              OptionValue::text(compile.rates));
  binder.bind({"recompute-budget", scope,
               "recompute=auto: live activation bytes per rank (-1: no "
               "limit)"},
              OptionValue::integer(compile.recomputeBudget, -1));
  // The options of every front door.
  compile.parallel.bindOptions(binder);
  compile.training.bindOptions(binder);
}

ParaccPipelineOptions::~ParaccPipelineOptions() = default;

void mlir::paracc::buildParaccPipeline(OpPassManager &pm,
                                       const PhasedCompileOptions &options) {
  auto runs = [&](CompilePhase phase) {
    return options.from < phase && phase <= options.to;
  };
  const bool train = options.train;
  // A mesh that does not parse is refused by paracc-set-mesh, the first
  // pass that reads it; the phases are built as for one rank.
  std::string ignored;
  MeshSpec mesh = parseMeshSpec(options.parallel.mesh, "mesh", ignored)
                      .value_or(MeshSpec());
  const bool sharded = !mesh.empty();
  const int64_t pipelineStages = mesh.size("pp");
  const int64_t virtualStages = resolveVirtualStages(
      options.parallel.schedule, options.parallel.virtualStages);
  DistributePipelineOptions dist;
  dist.sequenceParallel = options.parallel.sequenceParallel;
  dist.cpLayout = options.parallel.cpLayout;
  dist.cpAttention = options.parallel.cpAttention;
  dist.expertLoadImbalance = options.parallel.effectiveMoeImbalance();
  dist.schedule = options.parallel.schedule;
  dist.virtualStages = virtualStages;
  dist.training = train;
  dist.recompute = options.training.recompute;
  dist.recomputeBudget = options.recomputeBudget;
  dist.rates = options.rates;
  dist.zero = options.training.zero;
  dist.zeroPrefetch = options.training.zeroPrefetch;

  if (runs(CompilePhase::Cleaned)) {
    buildCleanupPipeline(pm, CleanupPipelineOptions());
    if (options.parallel.moeCapacityFactor > 0)
      pm.addNestedPass<func::FuncOp>(
          graph::createMoeCapacityPass({options.parallel.moeCapacityFactor}));
    if (train) {
      OpPassManager &fn = pm.nest<func::FuncOp>();
      if (!options.training.loss.empty()) {
        fn.addPass(graph::createAddLossPass({options.training.loss}));
        // The next-token shift slices the logits: the fusions take the
        // slice into the product (only the kept rows are computed).
        fn.addPass(graph::createGraphFusionPass());
      }
      if (options.training.moeAuxLoss > 0 || options.training.moeZLoss > 0)
        fn.addPass(graph::createMoeAuxLossPass(
            {options.training.moeAuxLoss, options.training.moeZLoss}));
      fn.addPass(graph::createSeedDropoutPass({options.training.dropoutSeed}));
    }
  }
  // (An empty mesh with micro-batches is refused by paracc-set-mesh.)
  if (runs(CompilePhase::Staged) &&
      (!options.parallel.mesh.empty() || options.parallel.microbatches != 1)) {
    pm.addPass(dist::createSetMeshPass(
        {options.parallel.mesh, options.parallel.microbatches,
         options.training.zero > 0 ? int64_t(options.training.zeroShardSize)
                                   : int64_t(0)}));
    // Stages are cut on the forward graph; the backward's ops run on their
    // forward ops' stages.
    if (pipelineStages > 0) {
      dist::PipelineStagesPassOptions stages;
      stages.stages = pipelineStages;
      stages.virtualStages = virtualStages;
      stages.ranges = options.parallel.stages == "auto"
                          ? std::string()
                          : std::string(options.parallel.stages);
      stages.microbatches = options.parallel.microbatches;
      stages.schedule = options.parallel.schedule;
      stages.training = train;
      // Balanced with the rates of the device it runs on.
      stages.rates = options.rates;
      pm.addPass(dist::createPipelineStagesPass(stages));
    }
  }
  if (runs(CompilePhase::Annotated) && sharded)
    buildShardingAnnotationPipeline(pm, dist);
  if (runs(CompilePhase::Differentiated) && train) {
    // Mixed precision: the forward computes in bf16/f16 from f32 master
    // weights, so differentiating it gives f32 gradients for the optimizer.
    if (options.parallel.precision != Precision::F32)
      pm.addNestedPass<func::FuncOp>(graph::createConvertPrecisionPass(
          {options.parallel.precision, true}));
    AutodiffPipelineOptions autodiff;
    autodiff.freeze = options.training.freeze;
    autodiff.trainOnly = options.training.trainOnly;
    autodiff.autoFreeze = options.training.autoFreeze;
    autodiff.wholeParameters = options.training.gradientsOnly;
    buildAutodiffPipeline(pm, autodiff);
  }
  if (runs(CompilePhase::Optimized) && train &&
      !options.training.gradientsOnly) {
    pm.addNestedPass<func::FuncOp>(
        graph::createOptimizerPass(options.optimizerOptions()));
    pm.addNestedPass<func::FuncOp>(graph::createReturnExpertLoadPass(
        {options.parallel.moeCapacityFactor}));
  }
  if (runs(CompilePhase::Propagated) && sharded)
    addPropagationPasses(pm, dist);
  if (runs(CompilePhase::Recomputed) && train)
    addRecomputePass(pm, dist);
  if (runs(CompilePhase::Partitioned) && sharded)
    addPartitionPasses(pm, dist);
  if (runs(CompilePhase::Pipelined) && sharded)
    addPipelinePasses(pm, dist);
  // Training converted the forward's precision before differentiating; its
  // gradients go in buckets.
  if (runs(CompilePhase::Lowered))
    buildLoweringPipeline(pm,
                          train ? Precision::F32 : options.parallel.precision,
                          train ? double(options.training.bucketMb) : 0.0,
                          options.parallel.fuseElementwise,
                          train && options.training.weightCopies);
}

LogicalResult mlir::paracc::runParaccPipeline(ModuleOp module,
                                              PhasedCompileOptions &options,
                                              CompilePhase from,
                                              CompilePhase to) {
  options.from = from;
  options.to = to;
  PassManager pm(module.getContext());
  buildParaccPipeline(pm, options);
  return pm.run(module);
}

void mlir::paracc::registerParaccPasses() {
  graph::registerGraphPasses();
  dist::registerDistPasses();
  PassPipelineRegistration<DistributePipelineOptions>(
      "paracc-distribute", "Shard the module over its dist.mesh",
      buildDistributePipeline);
  PassPipelineRegistration<CleanupPipelineOptions>(
      "paracc-cleanup", "Clean up an imported graph: fold, canonicalize, fuse",
      buildCleanupPipeline);
  PassPipelineRegistration<ParaccPipelineOptions>(
      "paracc-compile",
      "The whole compile of the paracc tool and paracc train, by phases "
      "(from, to)",
      [](OpPassManager &pm, const ParaccPipelineOptions &options) {
        buildParaccPipeline(pm, options.compile);
      });
}

void mlir::paracc::registerParaccDialects(DialectRegistry &registry) {
  registry.insert<func::FuncDialect, graph::GraphDialect, dist::DistDialect>();
  dist::registerGraphShardingRules(registry);
  graph::registerGraphGradientRules(registry);
}

//===- PlanProfile.cpp - What a model's layers cost, for the planner -----===//
//
// The planner costs a model from paracc's own compile of it, not from a
// formula of transformer shapes: the model is imported without its weights'
// data and cleaned, its layers found (findLayers), and two copies of it,
// cut to one layer and to two, are compiled through the whole pass
// pipeline (partitioned, recomputed, lowered) at each tensor-parallel
// degree. Everything the two lowered programs cost that is not a forward
// op of a known unit (the backward, the optimizer, memory) differs by one
// layer's worth; what is left is the prologue's and the epilogue's.
//
//===----------------------------------------------------------------------===//

#include "CompileSteps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Driver/DriverOptions.h"
#include "paracc/Driver/Plan.h"
#include "paracc/Pipelines/Pipelines.h"
#include "paracc/Planner/Explain.h"
#include "paracc/Planner/StagePartition.h"
#include "paracc/Planner/StepPrediction.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::paracc;
namespace g = mlir::paracc::graph;

namespace {

/// What one lowered program costs: its forward ops per unit, and the rest
/// (backward, optimizer, memory) as one sum.
struct ProgramCost {
  UnitCost prologue, layers, epilogue, rest;
  /// Parameter bytes read first by the prologue / the epilogue.
  double prologueParameters = 0, epilogueParameters = 0;
  /// Bytes of every weight, and of the experts' tables among them.
  double weightBytes = 0, expertTableBytes = 0;
  double cutBytes = 0, largestMessage = 0, workspace = 0;
  /// Values whose size does not follow the batch: weights, state,
  /// constants, what is computed from them alone, and tensors of a
  /// weight's type (weight gradients).
  llvm::DenseSet<Value> fixedValues;
  llvm::DenseSet<Type> weightTypes;
  bool fixedSized(Value v) const {
    return fixedValues.contains(v) || weightTypes.contains(v.getType());
  }
};

} // namespace

static bool isOptimizerOp(Operation *op) {
  return isa<g::AdamWOp, g::SgdOp, g::ForeachAdamWOp>(op);
}

static double tensorBytes(Type type) { return double(bytesOfTensorType(type)); }

/// Adds `op`'s compute or collective cost to `unit`, forward or backward.
static void addOp(Operation *op, bool forward, const DeviceRates &rates,
                  int64_t tp, UnitCost &unit, ProgramCost &program) {
  if (std::optional<CollectiveCost> c = estimateCollectiveCost(op, tp)) {
    program.largestMessage =
        std::max(program.largestMessage, double(c->messageBytes));
    double bytes = double(c->messageBytes);
    bool reduce = isa<dist::AllReduceOp>(op);
    if (isa<dist::SendOp, dist::RecvOp, dist::BroadcastOp>(op))
      return;
    (forward ? (reduce ? unit.forwardAllReduceBytes : unit.forwardGatherBytes)
             : (reduce ? unit.backwardAllReduceBytes
                       : unit.backwardGatherBytes)) += bytes;
    (forward ? unit.forwardCollectives : unit.backwardCollectives) += 1;
    return;
  }
  if (op->getDialect() && op->getDialect()->getNamespace() == "dist")
    return;
  // As the step's prediction (--explain) counts it.
  OpPrediction predicted = predictOp(op, rates);
  const OpCost &cost = predicted.cost;
  // The experts' ops: their tables apart from their tokens (expert
  // parallelism divides the first).
  if (isa<g::MoeExpertsOp, g::MoeExpertsGradOp>(op)) {
    const bool grad = isa<g::MoeExpertsGradOp>(op);
    const unsigned first = grad ? 1 : 0;
    double tables = tensorBytes(op->getOperand(first + 3).getType()) +
                    tensorBytes(op->getOperand(first + 4).getType());
    if (grad)
      tables *= 2; // their gradients, written
    const double tokens = std::max(double(cost.bytes) - tables, 0.0);
    (grad ? unit.expertBackwardFlops : unit.expertForwardFlops) +=
        double(cost.flops);
    (grad ? unit.expertBackwardTokenBytes : unit.expertForwardTokenBytes) +=
        tokens;
    (grad ? unit.expertBackwardTableBytes : unit.expertForwardTableBytes) +=
        tables;
  }
  double seconds = predicted.seconds;
  double launch = double(cost.launches) * rates.launchSeconds;
  if (isOptimizerOp(op)) {
    unit.optimizerSeconds += seconds;
    return;
  }
  // The roofline at other micro-batch sizes: FLOPs and the activations'
  // bytes scale, weight-sized tensors' bytes do not.
  double fixed = 0, all = 0;
  auto account = [&](Value v) {
    double b = tensorBytes(v.getType());
    all += b;
    if (program.fixedSized(v))
      fixed += b;
  };
  for (Value v : op->getOperands())
    account(v);
  for (Value v : op->getResults())
    account(v);
  double fixedShare = all > 0 ? fixed / all : 0;
  Type element = costElementType(op);
  ScaledSeconds body;
  for (int i = 0; i < ScaledSeconds::kScales; ++i) {
    double r = ScaledSeconds::scaleAt(i);
    OpCost scaled = cost;
    scaled.flops = int64_t(double(cost.flops) * r);
    scaled.bytes =
        int64_t(double(cost.bytes) * (fixedShare + (1 - fixedShare) * r));
    scaled.launches = 0;
    body.seconds[i] = predictSeconds(scaled, rates, element);
  }
  if (forward) {
    unit.forwardBody += body;
    unit.forwardLaunch += launch;
    unit.forwardFlops += double(cost.flops);
    // What context parallelism gathers: the keys and values.
    // What expert parallelism exchanges: the slots' rows.
    if (auto moe = dyn_cast<g::MoeExpertsOp>(op))
      unit.expertExchangeBytes +=
          tensorBytes(moe.getX().getType()) * double(moe.getTopK());
    if (isa<g::AttentionOp, g::AttentionWithStatsOp>(op)) {
      unit.attentions += 1;
      // Grouped-query k and v (paracc-attention-kv-groups) are gathered
      // repeated to the query heads: the repeat comes before the sharding
      // change that context parallelism's all-gather makes.
      auto seqFirst = op->getAttrOfType<BoolAttr>("sequence_first");
      const double repeat = double(g::attentionKeyValueGroup(
          cast<RankedTensorType>(op->getOperand(0).getType()).getShape(),
          cast<RankedTensorType>(op->getOperand(1).getType()).getShape(),
          seqFirst && seqFirst.getValue()));
      const double keyValue = tensorBytes(op->getOperand(1).getType()) +
                              tensorBytes(op->getOperand(2).getType());
      unit.keyValueBytes += repeat * keyValue;
      unit.keyValueRepeatBytes += (repeat - 1) * keyValue;
      unit.attentionForwardBody += body;
    }
  } else {
    unit.backwardBody += body;
    unit.backwardLaunch += launch;
    if (isa<g::AttentionGradOp>(op))
      unit.attentionBackwardBody += body;
  }
}

/// The module's first function with a body.
static func::FuncOp firstDefinedFunction(ModuleOp module) {
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal())
      return f;
  return nullptr;
}

/// The cost of a lowered program of `tp` ranks per tensor-parallel group.
static FailureOr<ProgramCost> measureProgram(ModuleOp module, bool training,
                                             const DeviceRates &rates,
                                             int64_t tp, bool gpu) {
  func::FuncOp func = firstDefinedFunction(module);
  if (!func)
    return failure();
  llvm::DenseSet<Operation *> forward;
  if (training)
    forward = stepForward(func);
  auto inForward = [&](Operation *op) {
    return !training || forward.contains(op);
  };
  FailureOr<LayerStructure> layers = findLayers(func, inForward);
  if (failed(layers))
    return failure();
  ProgramCost program;
  auto unitCost = [&](int64_t unit) -> UnitCost & {
    if (unit == 0)
      return program.prologue;
    if (unit > layers->layers)
      return program.epilogue;
    return program.layers;
  };
  // Ops of weights and constants alone (the compute-precision copies of
  // the weights): kept once per step, not per micro-batch.
  llvm::DenseSet<Operation *> weightOnly;
  for (Operation &op : func.getBody().front()) {
    if (isa<g::WeightOp, g::StateOp, g::ConstantOp>(op) ||
        (op.getNumOperands() > 0 &&
         llvm::all_of(op.getOperands(), [&](Value v) {
           Operation *def = v.getDefiningOp();
           return def && (isa<g::WeightOp, g::StateOp, g::ConstantOp>(def) ||
                          weightOnly.contains(def));
         })))
      weightOnly.insert(&op);
  }
  for (Operation *op : weightOnly)
    for (Value v : op->getResults())
      program.fixedValues.insert(v);
  for (auto w : func.getBody().front().getOps<g::WeightOp>()) {
    program.weightTypes.insert(w.getType());
    program.weightBytes += tensorBytes(w.getType());
  }
  // The experts' tables: the weights behind each moe_experts' w_in and
  // w_out (through a cast to the compute precision).
  llvm::DenseSet<Operation *> tables;
  func.walk([&](g::MoeExpertsOp moe) {
    for (Value v : {moe.getWIn(), moe.getWOut()})
      if (g::WeightOp w = weightBehind(v); w && tables.insert(w).second)
        program.expertTableBytes += tensorBytes(w.getType());
  });
  for (Operation &op : func.getBody().front()) {
    if (isa<g::WeightOp, g::StateOp, g::ConstantOp, func::ReturnOp>(op))
      continue;
    bool isForward = inForward(&op) && layers->unitOf.count(&op);
    UnitCost &unit =
        isForward ? unitCost(layers->unitOf.lookup(&op)) : program.rest;
    addOp(&op, isForward, rates, tp, unit, program);
    // Training: the forward values the backward reads (what a step keeps
    // per micro-batch). Inference: the unit's working set.
    if (isForward)
      for (Value v : op.getResults())
        if (!training || llvm::any_of(v.getUsers(), [&](Operation *user) {
              return !inForward(user) && !isa<func::ReturnOp>(user);
            }))
          (weightOnly.contains(&op) ? unit.parameterBytes
                                    : unit.activationBytes) +=
              tensorBytes(v.getType());
  }
  // Parameters by the unit of their first forward reader.
  for (auto w : func.getBody().front().getOps<g::WeightOp>()) {
    int64_t unit = -1;
    for (Operation *user : w->getUsers())
      if (layers->unitOf.count(user))
        unit = unit < 0 ? layers->unitOf.lookup(user)
                        : std::min(unit, layers->unitOf.lookup(user));
    if (unit == 0)
      program.prologueParameters += tensorBytes(w.getType());
    else if (unit > layers->layers)
      program.epilogueParameters += tensorBytes(w.getType());
  }
  if (training) {
    StepMemory memory = analyzeStepMemory(func);
    program.rest.parameterBytes = memory.parameters;
    program.rest.gradientBytes = memory.gradients;
    program.rest.optimizerStateBytes = memory.optimizerState;
    program.workspace = gpu ? memory.workspace : 0;
  } else {
    double params = 0;
    for (auto w : func.getBody().front().getOps<g::WeightOp>())
      params += tensorBytes(w.getType());
    program.rest.parameterBytes = params;
    program.workspace = gpu ? kGpuGemmWorkspaceBytes : 0;
  }
  if (layers->period > 0 && int64_t(layers->cuts.size()) > layers->period)
    program.cutBytes = tensorBytes(layers->cuts[layers->period].getType());
  return program;
}

/// The heads of an attention operand ([..., H, S, D], or [..., S, H, D]
/// sequence-first); 0 when unknown.
static int64_t headsOf(Value v, bool sequenceFirst) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || type.getRank() < 3)
    return 0;
  return type.getDimSize(type.getRank() - (sequenceFirst ? 2 : 3));
}

/// Why tensor parallelism of degree `tp` does not fit `func`'s attention
/// ("" when it does): the heads and the KV heads must divide.
static std::string checkHeads(func::FuncOp func, int64_t tp) {
  std::string why;
  func.walk([&](g::AttentionOp op) {
    int64_t heads = headsOf(op.getQ(), op.getSequenceFirst());
    int64_t kvHeads = headsOf(op.getK(), op.getSequenceFirst());
    if (why.empty() &&
        ((heads > 0 && heads % tp != 0) || (kvHeads > 0 && kvHeads % tp != 0)))
      why = "tp " + std::to_string(tp) + " does not divide the " +
            std::to_string(heads) + " heads and " + std::to_string(kvHeads) +
            " KV heads of attention";
  });
  return why;
}

/// A program's compute (every op but the collectives) at `scale` x its
/// micro-batch.
static double computeSeconds(const ProgramCost &p, double scale) {
  double total = 0;
  for (const UnitCost *u : {&p.prologue, &p.layers, &p.epilogue, &p.rest})
    total += u->forwardBody(scale) + u->forwardLaunch + u->backwardBody(scale) +
             u->backwardLaunch + u->optimizerSeconds;
  return total;
}

/// Splits `rest` (the non-layer part of the backward, optimizer and
/// memory) between the prologue and the epilogue: parameters by whose
/// weights they are, the rest by the units' forward time.
static void splitRest(const UnitCost &rest, const ProgramCost &one,
                      UnitCost &prologue, UnitCost &epilogue) {
  double paramTotal = one.prologueParameters + one.epilogueParameters;
  double paramShare =
      paramTotal > 0 ? one.prologueParameters / paramTotal : 0.5;
  double timeTotal =
      one.prologue.forwardBody(1.0) + one.epilogue.forwardBody(1.0);
  double timeShare =
      timeTotal > 0 ? one.prologue.forwardBody(1.0) / timeTotal : 0.5;
  auto share = [&](UnitCost &unit, double time, double param) {
    unit.backwardBody += rest.backwardBody * time;
    unit.attentionBackwardBody += rest.attentionBackwardBody * time;
    unit.backwardLaunch += time * rest.backwardLaunch;
    unit.backwardAllReduceBytes += time * rest.backwardAllReduceBytes;
    unit.backwardGatherBytes += time * rest.backwardGatherBytes;
    unit.backwardCollectives += time * rest.backwardCollectives;
    unit.activationBytes += time * rest.activationBytes;
    unit.optimizerSeconds += param * rest.optimizerSeconds;
    unit.parameterBytes += param * rest.parameterBytes;
    unit.gradientBytes += param * rest.gradientBytes;
    unit.optimizerStateBytes += param * rest.optimizerStateBytes;
  };
  share(prologue, timeShare, paramShare);
  share(epilogue, 1 - timeShare, 1 - paramShare);
}

FailureOr<ModelProfile>
mlir::paracc::profileModel(MLIRContext &context, const ModelSource &source,
                           const CompileOptions &options,
                           const Cluster &cluster, int64_t maxTensorParallel,
                           CompileDiagnostics &diagnostics) {
  llvm::raw_ostream &err = diagnostics.errors;
  const bool training = options.training.has_value();
  CompileOptions importOptions = options;
  importOptions.import.shapesOnly = true;
  importOptions.import.allowMissingWeightData = true;
  WeightStore weights;
  OwningOpRef<ModuleOp> module =
      importModel(context, source, importOptions, weights, diagnostics);
  if (!module)
    return failure();

  // The plan's own options (a --mesh given to predict) are the search's,
  // not the profile's.
  ParallelOptions shared = options;
  shared.mesh = "";
  shared.microbatches = 1;
  shared.schedule = kDefaultPipelineSchedule;
  shared.virtualStages = 0;
  PhasedCompileOptions pipeline = phasedCompileOptions(shared, options.device);
  pipeline.rates = cluster.rates.name;
  if (training) {
    pipeline.train = true;
    // The loss, what is trained and the optimizer; recompute and ZeRO are
    // the search's.
    pipeline.training = *options.training;
    pipeline.training.recompute = RecomputePolicy::None;
    pipeline.training.memoryBudget.reset();
    pipeline.training.zero = 0;
    pipeline.training.zeroPrefetch = 1;
    pipeline.training.zeroShardSize = 0;
    pipeline.training.dropoutSeed = 0;
  }
  if (failed(runParaccPipeline(*module, pipeline, CompilePhase::Imported,
                               CompilePhase::Cleaned)))
    return failure();
  func::FuncOp main = firstDefinedFunction(*module);
  if (!main) {
    err << "paracc: error: " << source.path << " has no function\n";
    return failure();
  }

  ModelProfile profile;
  profile.name = source.path;
  profile.training = training;
  profile.optimizer = training && !options.training->gradientsOnly;
  profile.precision = options.precision;
  profile.expertLoadImbalance = options.effectiveMoeImbalance();
  FailureOr<LayerStructure> structure = findLayers(main);
  if (failed(structure))
    return failure();
  profile.layers = structure->layers;
  if (profile.layers < 2) {
    err << "paracc: error: " << source.path << ": the planner needs a model "
        << "of at least 2 repeated layers, found " << profile.layers << "\n";
    return failure();
  }
  // The micro-batch and sequence: the first input's leading dims.
  FunctionType type = main.getFunctionType();
  if (type.getNumInputs() > 0)
    if (auto t = dyn_cast<RankedTensorType>(type.getInput(0))) {
      if (t.getRank() >= 1)
        profile.batch = std::max<int64_t>(t.getDimSize(0), 1);
      if (t.getRank() >= 2)
        profile.sequence = std::max<int64_t>(t.getDimSize(1), 1);
    }
  for (auto w : main.getBody().front().getOps<g::WeightOp>())
    profile.parameters += cast<RankedTensorType>(w.getType()).getNumElements();
  main.walk([&](g::MoeExpertsOp moe) {
    profile.experts = std::gcd(profile.experts, moe.getNumExperts());
  });

  // Copies cut to one and to two layers.
  auto cut = [&](int64_t keep) -> OwningOpRef<ModuleOp> {
    OwningOpRef<ModuleOp> copy = module->clone();
    func::FuncOp f = firstDefinedFunction(*copy);
    FailureOr<LayerStructure> layers = findLayers(f);
    if (failed(layers) || failed(keepLayers(f, *layers, keep)))
      return nullptr;
    return copy;
  };
  OwningOpRef<ModuleOp> oneLayer = cut(1), twoLayers = cut(2);
  if (!oneLayer || !twoLayers) {
    err << "paracc: error: " << source.path << ": its layers could not be "
        << "cut apart (a value other than the residual stream crosses "
        << "them), so the planner cannot cost one layer\n";
    return failure();
  }

  int64_t maxTp =
      maxTensorParallel > 0 ? maxTensorParallel : cluster.devicesPerNode;
  std::vector<RecomputePolicy> recomputes = {RecomputePolicy::None};
  if (training)
    recomputes = {RecomputePolicy::None, RecomputePolicy::Selective,
                  RecomputePolicy::Full};
  // Compiles the copy of k + 1 layers on `mesh`; on failure the first error
  // goes to `refusal`.
  auto compileCopy = [&](int k, const std::string &mesh, bool sp,
                         RecomputePolicy recompute, int64_t tp,
                         std::string &refusal) -> FailureOr<ProgramCost> {
    OwningOpRef<ModuleOp> copy = (k == 0 ? *oneLayer : *twoLayers).clone();
    pipeline.parallel.mesh = mesh;
    pipeline.parallel.sequenceParallel = sp;
    pipeline.training.recompute = recompute;
    std::string message;
    FailureOr<ProgramCost> cost = failure();
    {
      ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
        if (d.getSeverity() == DiagnosticSeverity::Error && message.empty())
          message = d.str();
        return success();
      });
      if (succeeded(runParaccPipeline(*copy, pipeline, CompilePhase::Cleaned,
                                      CompilePhase::Lowered)))
        cost = measureProgram(*copy, training, cluster.rates, tp,
                              /*gpu=*/cluster.device.name != "cpu");
    }
    if (failed(cost))
      refusal = message.empty() ? "the compile failed" : message;
    return cost;
  };
  for (int64_t tp = 1; tp <= maxTp && tp <= cluster.ranks(); tp *= 2) {
    std::string refusal = checkHeads(main, tp);
    std::optional<ProgramCost> baseline[2];
    for (bool sp : {false, true}) {
      if (!refusal.empty())
        break;
      if (sp && tp == 1)
        continue;
      for (RecomputePolicy recompute : recomputes) {
        std::optional<ProgramCost> costs[2];
        for (int k = 0; k < 2 && refusal.empty(); ++k) {
          FailureOr<ProgramCost> cost =
              compileCopy(k, tp > 1 ? "tp" + std::to_string(tp) : "", sp,
                          recompute, tp, refusal);
          if (succeeded(cost))
            costs[k] = *cost;
        }
        if (recompute == RecomputePolicy::None && !sp && refusal.empty()) {
          baseline[0] = costs[0];
          baseline[1] = costs[1];
        }
        if (!refusal.empty())
          break;
        TensorParallelProfile p;
        p.tp = tp;
        p.sequenceParallel = sp;
        p.recompute = recompute;
        const ProgramCost &one = *costs[0], &two = *costs[1];
        // One layer: the forward ops of its unit; the rest by difference.
        p.layer = two.layers;
        p.layer -= one.layers;
        UnitCost restPerLayer = two.rest;
        restPerLayer -= one.rest;
        restPerLayer.clampNegative();
        p.layer += restPerLayer;
        p.layer.clampNegative();
        // The experts' share of a layer's parameters, gradients and
        // optimizer state (each in proportion to the weights' bytes).
        const double layerWeights = two.weightBytes - one.weightBytes;
        const double expertShare =
            layerWeights > 0
                ? std::clamp((two.expertTableBytes - one.expertTableBytes) /
                                 layerWeights,
                             0.0, 1.0)
                : 0.0;
        p.layer.expertParameterBytes = expertShare * p.layer.parameterBytes;
        p.layer.expertGradientBytes = expertShare * p.layer.gradientBytes;
        p.layer.expertOptimizerStateBytes =
            expertShare * p.layer.optimizerStateBytes;
        UnitCost rest = one.rest;
        rest -= restPerLayer;
        rest.clampNegative();
        p.prologue = one.prologue;
        p.epilogue = one.epilogue;
        splitRest(rest, one, p.prologue, p.epilogue);
        p.cutBytes = one.cutBytes;
        p.largestMessageBytes =
            std::max(one.largestMessage, two.largestMessage);
        p.workspaceBytes = one.workspace;
        profile.profiles.push_back(p);
      }
      if (!refusal.empty())
        break;
    }
    // What a dp axis adds: a dp2 compile at half the profiled batch against
    // the dp1 profile at that batch.
    if (refusal.empty() && training && baseline[0] && baseline[1] &&
        profile.batch % 2 == 0 && cluster.ranks() >= 2 * tp) {
      std::string mesh = "dp2" + (tp > 1 ? ",tp" + std::to_string(tp) : "");
      for (int64_t zero : {0, 1, 3}) {
        if (zero && !profile.optimizer)
          continue;
        std::string ignored;
        pipeline.training.zero = zero;
        FailureOr<ProgramCost> one =
            compileCopy(0, mesh, false, RecomputePolicy::None, tp, ignored);
        FailureOr<ProgramCost> two =
            compileCopy(1, mesh, false, RecomputePolicy::None, tp, ignored);
        pipeline.training.zero = 0;
        if (failed(one) || failed(two))
          continue;
        // Against the one-rank profile at that batch, its update divided
        // over dp under ZeRO as the search does.
        auto expected = [&](const ProgramCost &base) {
          double update = 0;
          for (const UnitCost *u :
               {&base.prologue, &base.layers, &base.epilogue, &base.rest})
            update += u->optimizerSeconds;
          return computeSeconds(base, 0.5) - (zero ? update / 2 : 0.0);
        };
        double extraOne = computeSeconds(*one, 1.0) - expected(*baseline[0]);
        double extraTwo = computeSeconds(*two, 1.0) - expected(*baseline[1]);
        double layer = std::max(extraTwo - extraOne, 0.0);
        double rest = std::max(extraOne - layer, 0.0);
        for (TensorParallelProfile &p : profile.profiles)
          if (p.tp == tp) {
            (zero == 3   ? p.zero3LayerSeconds
             : zero == 1 ? p.zeroLayerSeconds
                         : p.dataParallelLayerSeconds) = layer;
            (zero == 3   ? p.zero3RestSeconds
             : zero == 1 ? p.zeroRestSeconds
                         : p.dataParallelRestSeconds) = rest;
          }
      }
    }
    if (!refusal.empty()) {
      profile.refused.push_back({tp, refusal});
      // Profiles of a degree the compiler refused in part are dropped.
      llvm::erase_if(profile.profiles, [&](const TensorParallelProfile &p) {
        return p.tp == tp;
      });
    }
  }
  for (const TensorParallelProfile &p : profile.profiles)
    if (p.tp == 1 && p.recompute == RecomputePolicy::None) {
      double forwardFlops = p.prologue.forwardFlops + p.epilogue.forwardFlops +
                            double(profile.layers) * p.layer.forwardFlops;
      profile.flopsPerSequence =
          forwardFlops / double(profile.batch) * (training ? 3.0 : 1.0);
    }
  if (profile.profiles.empty()) {
    err << "paracc: error: " << source.path << ": no tensor-parallel degree "
        << "compiles";
    if (!profile.refused.empty())
      err << " (tp 1: " << profile.refused.front().second << ")";
    err << "\n";
    return failure();
  }
  return profile;
}

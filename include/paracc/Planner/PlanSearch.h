//===- PlanSearch.h - The planner's search over parallel plans --*- C++ -*-===//
//
// The planner: given what one layer, the prologue and the epilogue of a
// model cost when compiled at each tensor-parallel degree (a ModelProfile,
// measured on paracc's own partitioned IR), it enumerates the plans of a
// cluster (dp x pp x tp, sequence parallelism, micro-batch size and count,
// pipeline schedule, recompute, ZeRO, the order of the mesh axes), prunes
// those that do not fit in memory, predicts each remaining plan's step
// (pipeline schedule simulated on the stage times, collectives over the
// links they cross) and ranks them.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_PLANNER_PLANSEARCH_H
#define PARACC_PLANNER_PLANSEARCH_H

#include "paracc/Compiler/Options.h"
#include "paracc/Planner/Cluster.h"

#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::paracc {

struct SimulatedAction; // Planner/StagePartition.h

/// Compute seconds of a unit at micro-batch sizes of 2^-3 ... 2^6 times the
/// profiled one (each op's roofline at that size: its FLOPs and the bytes
/// of its activations scale, the bytes of weight-sized tensors do not),
/// interpolated in between.
struct ScaledSeconds {
  static constexpr int kScales = 10, kFirstExponent = -3;
  std::array<double, kScales> seconds{};

  static double scaleAt(int i) { return std::ldexp(1.0, i + kFirstExponent); }
  /// The seconds at `scale` x the profiled micro-batch.
  double operator()(double scale) const;
  ScaledSeconds &operator+=(const ScaledSeconds &o);
  ScaledSeconds operator*(double k) const;
  void clampNegative();
};

/// What one unit of a model (the prologue, one layer, the epilogue) costs
/// per micro-batch on one rank.
struct UnitCost {
  /// Compute: the roofline part, by micro-batch size, and the launches'
  /// part (which does not change with it), forward and backward (recompute
  /// included), seconds at the cluster's rates.
  ScaledSeconds forwardBody, backwardBody;
  double forwardLaunch = 0, backwardLaunch = 0;
  /// Its tensor-parallel collectives: bytes of all-reduce messages and of
  /// all-gather / reduce-scatter messages, and their number; forward and
  /// backward.
  double forwardAllReduceBytes = 0, forwardGatherBytes = 0;
  double backwardAllReduceBytes = 0, backwardGatherBytes = 0;
  double forwardCollectives = 0, backwardCollectives = 0;
  /// The optimizer's update of its parameters (seconds, memory-bound).
  double optimizerSeconds = 0;
  /// Bytes on one rank: parameters (and master copies), gradients,
  /// optimizer state; activations kept for the backward per micro-batch.
  double parameterBytes = 0, gradientBytes = 0, optimizerStateBytes = 0;
  double activationBytes = 0;
  /// Forward FLOPs per micro-batch (one rank's).
  double forwardFlops = 0;
  /// Bytes of the keys and values its attentions read per micro-batch:
  /// what context parallelism all-gathers over cp in the forward (and
  /// reduce-scatters as gradients in the backward).
  double keyValueBytes = 0;
  /// Of those, the bytes of grouped-query k and v repeated to the query
  /// heads: on one rank the attentions read the key heads alone
  /// (paracc-attention-kv-groups), under cp the repeated ones are what is
  /// gathered and kept (the repeat precedes the sharding change).
  double keyValueRepeatBytes = 0;
  /// Its attentions: 0 means there is no sequence for cp to split.
  double attentions = 0;
  /// The attentions' share of the bodies, forward (attention) and backward
  /// (attention_grad): what ring attention's transfers hide behind.
  ScaledSeconds attentionForwardBody, attentionBackwardBody;
  /// Mixtures of experts: the bytes of the token rows its graph.moe_experts
  /// ops send to their experts per micro-batch (T k H elements each), what
  /// expert parallelism exchanges over ep (out and back in the forward; x
  /// and dy out, dx back in the backward).
  double expertExchangeBytes = 0;
  /// Its experts' ops (moe_experts forward, moe_experts_grad backward) as
  /// the roofline sees them: FLOPs and bytes of tokens per micro-batch, and
  /// bytes of the tables (read, and in the backward their gradients
  /// written), which an ep member reads 1/ep of.
  double expertForwardFlops = 0, expertBackwardFlops = 0;
  double expertForwardTokenBytes = 0, expertBackwardTokenBytes = 0;
  double expertForwardTableBytes = 0, expertBackwardTableBytes = 0;
  /// The part of parameterBytes, gradientBytes and optimizerStateBytes that
  /// is the experts' tables: divided over ep.
  double expertParameterBytes = 0, expertGradientBytes = 0,
         expertOptimizerStateBytes = 0;

  UnitCost &operator+=(const UnitCost &o);
  UnitCost &operator-=(const UnitCost &o);
  UnitCost operator*(double k) const;
  /// Sets what differencing made slightly negative (rounding) to zero.
  void clampNegative();
};

/// A model compiled at one tensor-parallel degree and recompute policy.
struct TensorParallelProfile {
  int64_t tp = 1;
  bool sequenceParallel = false;
  RecomputePolicy recompute = RecomputePolicy::None;
  UnitCost prologue, layer, epilogue;
  /// Bytes of the residual stream between two layers per micro-batch on
  /// one rank (what a pipeline stage sends).
  double cutBytes = 0;
  /// The largest collective message (the runtime stages twice it) and the
  /// executor's fixed workspace, bytes.
  double largestMessageBytes = 0, workspaceBytes = 0;
  /// What a data-parallel axis adds to the compute once per step (packing
  /// the gradients into buckets and out), per layer and for the rest,
  /// seconds; measured on a dp2 compile when the profiled batch divides.
  double dataParallelLayerSeconds = 0, dataParallelRestSeconds = 0;
  /// The same with ZeRO-1 (its reduce-scatter and all-gather's slices),
  /// beyond the optimizer's update divided over dp (stage 2 adds nothing
  /// to a dp2 compile without micro-batches), and with ZeRO-3 (its
  /// gathers' buckets, forward and backward).
  double zeroLayerSeconds = 0, zeroRestSeconds = 0;
  double zero3LayerSeconds = 0, zero3RestSeconds = 0;
};

/// What the planner knows of a model: its layers and its profiles.
struct ModelProfile {
  std::string name;
  bool training = false;
  /// Training with an optimizer (a gradient check's step has none: no
  /// ZeRO).
  bool optimizer = false;
  Precision precision = Precision::F32;
  int64_t layers = 0;
  /// The micro-batch (sequences) and sequence length the profiles were
  /// compiled at; costs scale linearly with the micro-batch.
  int64_t batch = 1, sequence = 1;
  /// Parameters (elements) of the whole model.
  int64_t parameters = 0;
  /// The experts of each mixture of experts (the greatest common divisor
  /// over its graph.moe_experts ops; 0: none): what ep must divide.
  int64_t experts = 0;
  /// The busiest ep member's load over an even share (--moe-imbalance,
  /// capped by the capacity factor): its exchange and experts' work
  /// scale by it.
  double expertLoadImbalance = 1.0;
  /// Model FLOPs per sequence: the forward's, x3 when training (without
  /// recompute), the numerator of MFU.
  double flopsPerSequence = 0;
  std::vector<TensorParallelProfile> profiles;
  /// Tensor-parallel degrees the compiler refused, and why.
  std::vector<std::pair<int64_t, std::string>> refused;
};

/// One parallel plan.
struct ParallelPlan {
  /// Mesh axes, outermost first ("dp", "ep", "pp", "cp", "tp"; sizes 1
  /// left out of the text); the last axis's ranks are neighbours. ep's
  /// ranks are data-parallel ranks too: dp x ep ranks split the batch.
  std::vector<std::pair<std::string, int64_t>> axes;
  bool sequenceParallel = false;
  int64_t microbatches = 1, microBatchSize = 1;
  PipelineSchedule schedule = kDefaultPipelineSchedule;
  int64_t virtualStages = 1;
  RecomputePolicy recompute = RecomputePolicy::None;
  int64_t zero = 0;
  /// ZeRO stage 3: layers ahead at which a layer's parameters are gathered
  /// (paracc's default; the search does not vary it).
  int64_t zeroPrefetch = 1;
  /// Hybrid sharding: ZeRO shards within groups of this many consecutive
  /// dp ranks and replicates across them (0: all of dp).
  int64_t zeroShardSize = 0;
  /// How attention works over cp (allgather or ring; alltoall is not
  /// searched: the planner does not know the heads).
  CpAttention cpAttention = CpAttention::AllGather;

  int64_t size(llvm::StringRef axis) const;
  /// "dp4,pp2,tp8".
  std::string mesh() const;
  /// The paracc flags that run it ("" for one rank without options).
  std::string flags(bool training) const;
  /// The flags, or "one rank" and its options.
  std::string describe(bool training) const;
};

/// What the planner predicts for a plan.
struct PlanPrediction {
  double stepSeconds = 0, tokensPerSecond = 0, tflopsPerDevice = 0, mfu = 0;
  /// The largest rank's bytes, and its categories.
  double peakMemoryBytes = 0;
  double parameterBytes = 0, gradientBytes = 0, optimizerStateBytes = 0,
         activationBytes = 0, bufferBytes = 0;
  /// Simulated pipeline bubble (0 without pp).
  double bubble = 0;
  /// Parts of the step: the pipeline's makespan (compute and the exposed
  /// tensor-parallel and point-to-point transfers), the data-parallel
  /// reduction not hidden by the backward, the optimizer.
  double pipelineSeconds = 0, exposedDataParallelSeconds = 0,
         optimizerSeconds = 0;
  /// Exposed communication by link class.
  double exposedIntraSeconds = 0, exposedInterSeconds = 0;
  /// Per pipeline rank: its layers.
  std::vector<int64_t> stageLayers;
};

struct PlanCandidate {
  ParallelPlan plan;
  PlanPrediction predicted;
};

struct PlanRequest {
  Cluster cluster;
  /// Sequences per step (all data-parallel ranks together).
  int64_t globalBatch = 1;
  /// How many plans to keep.
  int64_t top = 10;
  /// Tensor parallelism may span nodes.
  bool tensorParallelAcrossNodes = false;
  /// Plans may have a pp axis (false where the runtime cannot run them:
  /// `--mesh auto` on GPUs, whose runtime runs pipelined executables on
  /// CPU ranks only for now).
  bool allowPipeline = true;
  /// Plans may have an ep axis (false where the runtime cannot run them:
  /// the GPU runtime has no expert-parallel exchange yet).
  bool allowExpertParallel = true;
  /// Evaluate only this plan (no search).
  std::optional<ParallelPlan> fixed;
  /// Called about once a second while a search runs.
  std::function<void(int64_t evaluated, int64_t total, double best)> progress;
};

/// A plan that fits, as the search saw it: its step (simulated, or when
/// the search set it aside without simulating it, a lower bound) and its
/// peak memory.
struct PlanPoint {
  double stepSeconds = 0, peakMemoryBytes = 0;
  bool lowerBoundOnly = false;
};

struct PlanSearchResult {
  /// The best plans, fastest first; empty when none fits.
  std::vector<PlanCandidate> candidates;
  /// Every plan that fits, in the order searched.
  std::vector<PlanPoint> points;
  /// The plans no other plan beats in both step time and peak memory
  /// (every one simulated), least memory first.
  std::vector<PlanCandidate> pareto;
  /// Plans enumerated, costed, and set aside by memory before costing.
  int64_t enumerated = 0, evaluated = 0, overMemory = 0;
  double seconds = 0;
  /// When none fits: the smallest peak memory reached and by which plan.
  std::optional<PlanCandidate> smallest;
  /// Why the second-best lost to the best, in words.
  std::string whyNotNext;
  /// The fastest plan that memory ruled out, when it would have beaten the
  /// choice.
  std::optional<PlanCandidate> fasterOverMemory;
};

/// Predicts one plan; an error message in `error` when it cannot run
/// (mesh does not match the cluster, batch not divisible, too few layers,
/// tp the compiler refused).
std::optional<PlanPrediction> predictPlan(const ModelProfile &model,
                                          const PlanRequest &request,
                                          const ParallelPlan &plan,
                                          std::string &error);

/// The simulated step of `plan` (which predictPlan accepts) rank by rank:
/// each pipeline rank's forwards and backwards, then its once-per-step
/// part (the exposed data-parallel reduction and the optimizer) as a
/// `Once` action; without pp, one rank's micro-batches in turn.
std::vector<SimulatedAction> simulatePlanStep(const ModelProfile &model,
                                              const PlanRequest &request,
                                              const ParallelPlan &plan);

/// Searches the plans of `request.cluster`.
PlanSearchResult searchPlans(const ModelProfile &model,
                             const PlanRequest &request);

} // namespace mlir::paracc

#endif // PARACC_PLANNER_PLANSEARCH_H

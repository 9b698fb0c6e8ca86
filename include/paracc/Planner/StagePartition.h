//===- StagePartition.h - Pipeline stages from the layer structure -*- C++
//-*-===//
//
// The pipeline stage planner: finds the layers of a forward graph from its
// residual stream, cuts them into contiguous stages that balance the cost
// model's time (within an optional memory budget), compares the cut with
// Megatron's equal-layer cut, and predicts the schedule's bubble by
// simulation. The plan travels on the module as `dist.pipeline_plan`.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_PLANNER_STAGEPARTITION_H
#define PARACC_PLANNER_STAGEPARTITION_H

#include "paracc/Compiler/Options.h"
#include "paracc/Dialect/Dist/IR/DistDialect.h"
#include "paracc/Planner/CostModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::paracc {

/// One pipeline stage of a plan: under the interleaved schedule one of a
/// rank's model chunks (a virtual stage; chunk k runs on rank k mod p).
struct StageSummary {
  /// The layers of the stage, inclusive; -1, -1 when it has none (a stage
  /// of just the prologue or the epilogue).
  int64_t firstLayer = -1, lastLayer = -1;
  /// Whether the stage holds the prologue (embeddings) / the epilogue
  /// (final norm, head, loss).
  bool prologue = false, epilogue = false;
  /// Parameters its ops read: elements and bytes (a weight read by two
  /// stages, such as a tied embedding, counts in both).
  int64_t params = 0, paramBytes = 0;
  /// Modelled FLOPs: forward, or forward and backward when training.
  int64_t flops = 0;
  /// Modelled time of the whole batch: compute (forward, plus backward
  /// when training) and the transfers of its cuts.
  double predictedMs = 0;
  /// Parameter bytes, x4 when training (gradients, two AdamW moments).
  int64_t memoryBytes = 0;
  /// Activation bytes crossing the stage's outgoing cut (0 for the last).
  int64_t sentBytes = 0;
  /// Known once the executable is written (-1 before): the micro-batches
  /// whose activations the schedule keeps at once (of this stage; of this
  /// chunk under interleaving), and the arena of the function that runs it
  /// (its rank's activations' peak, from the memory plan).
  int64_t inFlight = -1, arenaBytes = -1;
};

/// A pipeline plan: the chosen cut, the equal-layer cut for comparison and
/// the schedule's bubble.
struct PipelinePlan {
  /// p x v of them: the stages in pipeline order (under interleaving the
  /// virtual stages; stage k runs on rank k mod p).
  std::vector<StageSummary> stages, uniformStages;
  int64_t layers = 0;
  int64_t microbatches = 1;
  PipelineSchedule schedule = kDefaultPipelineSchedule;
  /// Model chunks per rank (the interleaved schedule's v; 1 otherwise).
  int64_t virtualStages = 1;
  bool training = false;
  /// The device rates the times come from ("cpu", "h200").
  std::string rates;
  /// (p - 1) / (m + p - 1), and (p - 1) / (v m + p - 1) interleaved.
  double bubbleFormula = 0;
  /// 1 - busy / (p x makespan) of the simulated schedule, for the chosen and
  /// for the equal-layer cut.
  double bubblePredicted = 0, uniformBubblePredicted = 0;
};

/// The plan as the module's `dist.pipeline_plan`, and back.
dist::PipelinePlanAttr pipelinePlanToAttr(const PipelinePlan &plan,
                                          MLIRContext *ctx);
PipelinePlan pipelinePlanFromAttr(dist::PipelinePlanAttr attr);

/// The layer structure of a forward function, found from its residual
/// stream: the longest chain of `graph.add` ops each of which reads the
/// previous one's result; the chain adds cut the block into segments, and
/// consecutive segments form a layer by the smallest period with which the
/// segments' op multisets repeat.
struct LayerStructure {
  /// The ops of the function's block in order (not weights, constants or
  /// state) and their unit: 0 the prologue, 1..layers the layers, layers+1
  /// the epilogue. Ops that read only weights and constants (a tied head's
  /// transpose, rotary tables) take the first unit that uses them.
  std::vector<Operation *> ops;
  llvm::DenseMap<Operation *, int64_t> unitOf;
  int64_t layers = 0;
  /// Chain segments per layer (2 for GPT-2 and Llama: attention and MLP).
  int64_t period = 0;
  /// Whether the prologue / the epilogue holds any op.
  bool hasPrologue = false, hasEpilogue = false;
  /// The residual stream's values: its input, then each chain add's result
  /// (`layers * period + 1` of them; layer i's input is cuts[i * period]).
  SmallVector<Value> cuts;
};

/// Finds the layers of `func`, among the ops `include` accepts (all when
/// null: a training step's forward is the loss's ancestors); emits an error
/// on it when there is no residual chain.
FailureOr<LayerStructure>
findLayers(func::FuncOp func,
           llvm::function_ref<bool(Operation *)> include = nullptr);

/// Keeps the first `keep` layers of `func` (found by findLayers) and its
/// prologue and epilogue: the epilogue reads layer `keep`'s output, the
/// other layers' ops and the weights only they read are erased. The
/// planner costs a model of identical layers on such a copy. Fails (and
/// leaves `func` unchanged) when another value than the residual stream
/// crosses from the erased layers.
LogicalResult keepLayers(func::FuncOp func, const LayerStructure &layers,
                         int64_t keep);

struct StagePartitionOptions {
  /// Number of pipeline stages (ranks on the pipeline axis).
  int64_t stages = 1;
  /// Model chunks per rank (the interleaved schedule's v): the graph is cut
  /// into stages x virtualStages virtual stages.
  int64_t virtualStages = 1;
  /// Explicit inclusive layer ranges, one per (virtual) stage
  /// ("0-2,3-5,6-7"); empty: the balanced cut.
  std::string ranges;
  int64_t microbatches = 1;
  PipelineSchedule schedule = kDefaultPipelineSchedule;
  bool training = false;
  DeviceRates rates = cpuRates();
  /// Per-rank memory budget in bytes (StageSummary::memoryBytes, summed
  /// over a rank's chunks); 0: none.
  int64_t memoryBudget = 0;
};

/// A plan and the (virtual) stage of every op of the function that gets one
/// (all but weights, constants and state; the terminator gets the last
/// stage).
struct StageAssignment {
  PipelinePlan plan;
  llvm::DenseMap<Operation *, int64_t> stageOf;
};

/// Plans the pipeline stages of `func`; emits an error on it (too many
/// stages, no layers, bad ranges, no cut within the memory budget) and
/// fails.
FailureOr<StageAssignment>
planPipelineStages(func::FuncOp func, const StagePartitionOptions &options);

/// Parses `ranges` ("0-2,3-5,6-7", a single layer as "3") for `layers`
/// layers: contiguous, in order, covering every layer. Returns the
/// (first, last) pairs, or an error message in `error`.
std::optional<std::vector<std::pair<int64_t, int64_t>>>
parseLayerRanges(llvm::StringRef ranges, int64_t layers, std::string &error);

/// What a pipeline stage does for one micro-batch: its forward, its
/// backward (the input gradients, and only those under zb-h1), or under
/// zb-h1 the weight gradients, deferred into the bubbles (schedules have no
/// `Once` actions: the once-per-step part runs after them).
using PipelinePhase = dist::PipelinePhase;

struct ScheduledAction {
  int64_t microbatch;
  PipelinePhase phase;
  /// The rank's model chunk it runs (interleaved; 0 otherwise): virtual
  /// stage chunk x p + s.
  int64_t chunk = 0;
};

/// Why the pipeline options cannot run together ("" when they can): more
/// than one virtual stage outside the interleaved schedule, interleaving
/// without a pipeline of two or more stages, or micro-batches that are not
/// a multiple of the stages under interleaving.
std::string checkScheduleShape(PipelineSchedule schedule, int64_t stages,
                               int64_t virtualStages, int64_t microbatches);

/// The order in which stage `stage` of `stages` runs its actions under
/// `schedule`; without a backward, its forwards in order.
/// - gpipe: every forward, then every backward.
/// - 1f1b: min(p - s, m) forwards, then a backward and a forward in turn,
///   then the remaining backwards.
/// - zb-h1 (Qi et al. 2024, "Zero Bubble Pipeline Parallelism", H1): 1F1B's
///   forwards and (input-gradient) backwards; each micro-batch's weight
///   gradient W runs after the backward of the micro-batch s later (the
///   last ones at the end), so the backward wave that the earlier stages
///   wait for carries only the input gradients, the first stage fills its
///   waits with W, and every stage keeps at most p micro-batches in flight
///   (1F1B's first stage's peak).
/// - interleaved (Narayanan et al. 2021, Megatron-LM's interleaved 1F1B):
///   every rank holds `virtualStages` (v) model chunks, chunk j of rank s
///   being virtual stage j p + s. The micro-batches go in groups of p: a
///   group's forwards run chunk by chunk (chunk 0 of the p micro-batches,
///   then chunk 1, ...), backwards the same from the last chunk. A rank
///   runs 2 (p - s - 1) + (v - 1) p warm-up forwards, then a forward and a
///   backward in turn, then the remaining backwards. Each chunk is 1/v of a
///   stage, so the bubble shrinks to (p - 1) / (v m + p - 1); m must be a
///   multiple of p.
/// Returns, with `inFlight`, the most micro-batches whose activations the
/// order keeps at once (a forward started, its last backward part not
/// done); with `chunk` >= 0 only that chunk's.
int64_t scheduleInFlight(llvm::ArrayRef<ScheduledAction> order,
                         PipelineSchedule schedule, int64_t chunk = -1);
std::vector<ScheduledAction> scheduleOrder(int64_t stage, int64_t stages,
                                           int64_t microbatches,
                                           PipelineSchedule schedule,
                                           bool withBackward,
                                           int64_t virtualStages = 1);

/// Per (virtual) stage of `plan`, the micro-batches whose activations its
/// training schedule keeps at once (scheduleInFlight of its rank's order,
/// counting only its own chunk).
std::vector<int64_t> stagesInFlight(const PipelinePlan &plan);

/// One action of a simulated schedule: what rank `rank` ran (its chunk's
/// micro-batch `microbatch`, in `phase`) from `start` to `end` seconds.
struct SimulatedAction {
  int64_t rank = 0, chunk = 0, microbatch = 0;
  PipelinePhase phase = PipelinePhase::Forward;
  double start = 0, end = 0;
};

struct ScheduleResult {
  double makespan = 0;
  /// 1 - (sum of busy time) / (p x makespan).
  double bubble = 0;
  /// False when the orders wait on each other (the schedule cannot run).
  bool completes = true;
};

/// Simulates a pipeline schedule (`scheduleOrder`'s) of `microbatches`
/// micro-batches over stages whose forward and backward of one micro-batch
/// take `forward[s]` and `backward[s]` seconds (all backward 0: inference,
/// forwards only). `transfer[s]`, if given, delays what stage s sends to
/// s + 1 (and the gradient s + 1 sends back). Every stage runs its actions
/// in the schedule's order, each when the stage is free and its input has
/// arrived. GPipe: all forwards, then all backwards. 1F1B: min(p - s, m)
/// forwards, then backward / forward alternately, then the remaining
/// backwards. Equal stages without transfers give (p - 1) / (m + p - 1).
/// zb-h1 splits each backward into halves, the input and the weight
/// gradients. Interleaved: the arrays hold the p x v virtual stages (stage k
/// on rank k mod p) and `transfer[k]` delays what virtual stage k sends.
/// With `actions`, every action's span is appended to it.
ScheduleResult simulateSchedule(
    llvm::ArrayRef<double> forward, llvm::ArrayRef<double> backward,
    int64_t microbatches, PipelineSchedule schedule,
    llvm::ArrayRef<double> transfer = {}, int64_t virtualStages = 1,
    std::vector<SimulatedAction> *actions = nullptr);

} // namespace mlir::paracc

#endif // PARACC_PLANNER_STAGEPARTITION_H

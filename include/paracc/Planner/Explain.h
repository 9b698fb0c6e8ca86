//===- Explain.h - Reports on partitioned programs -------------*- C++ -*-===//
//
// What a person needs to trust a plan: the mesh and which ranks form each
// group, per layer how each weight matmul is split and why, every
// collective with its group, message size, traffic per rank and the
// formula behind it, and per-rank parameter and activation bytes. Also as
// JSON for tools.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_PLANNER_EXPLAIN_H
#define PARACC_PLANNER_EXPLAIN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "paracc/Planner/StagePartition.h"
#include "paracc/Planner/StepPrediction.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::paracc {

namespace graph {
class WeightOp;
} // namespace graph

/// The weight behind a value (through transposes, reshapes, casts, and the
/// gathers and local shards of a partitioned weight), or null.
graph::WeightOp weightBehind(Value v);

/// cuBLASLt's workspace per GPU rank (GpuRank: GemmEngine::create).
constexpr int64_t kGpuGemmWorkspaceBytes = int64_t(64) << 20;

/// A training step's memory per rank by category, in bytes. The compiler
/// knows these before anything runs: the state buffers' shard types, the
/// gradients the optimizer updates from, the forward values the backward
/// reads, the buffers the executors add (GPU workspaces, collective
/// staging), and the arena of the executable's memory plan.
struct StepMemory {
  int64_t parameters = 0;
  int64_t gradients = 0;
  int64_t optimizerState = 0;
  /// The optimizer updates, and those whose state is split over the
  /// data-parallel axis (ZeRO stage 1, `dist.sharded_update`).
  int64_t updates = 0;
  int64_t shardedUpdates = 0;
  /// Forward values (outside parameters and state) that the backward reads.
  int64_t activationsSaved = 0;
  /// cuBLASLt's workspace (kGpuGemmWorkspaceBytes, on the GPU only) and
  /// the attention backward's row statistics.
  int64_t workspace = 0;
  /// The collectives' staging buffers (GPU: twice the largest message).
  int64_t communication = 0;
  /// The activation arena of the executable's memory plan (gradients and
  /// saved activations live in it); -1 before the executable is written.
  int64_t arena = -1;
  /// Everything a rank allocates: arena, state, constants, workspace,
  /// communication; -1 before the executable is written.
  int64_t peak = -1;
};

/// What --paracc-recompute chose (`dist.recompute_plan`), one rank's.
struct RecomputeSummary {
  RecomputePolicy policy = RecomputePolicy::None;
  /// Saved activations without recompute and with the choice (the stage
  /// that keeps most, its in-flight micro-batches counted).
  int64_t savedBytes = 0, keptBytes = 0;
  /// auto's budget for the live activation bytes (-1: none), and the most
  /// of them live at once as the pass simulated the step.
  int64_t budgetBytes = -1, activationPeakBytes = 0;
  int64_t recomputedOps = 0;
  /// Modelled FLOPs of the reruns and of the whole step (forward and
  /// backward), and the reruns' predicted time.
  double recomputedFlops = 0, stepFlops = 0, recomputedMs = 0;
  std::string rates;
};

/// What ZeRO sharded (`dist.zero_plan` of --paracc-shard-parameters).
struct ZeroSummary {
  int64_t stage = 0;
  std::string axis;
  int64_t prefetch = 0, layers = 0;
  /// Stage 3: the weights whose buffers are shards.
  int64_t shardedParameters = 0;
  /// Stage 3's gathers of one step, per phase in program order.
  struct Gather {
    /// The unit (0 prologue, 1.. layers, then epilogue) whose reads it
    /// serves, the unit before whose first read it is issued, and one
    /// rank's gathered bytes.
    int64_t unit = 0, issuedAt = 0, bytes = 0;
  };
  std::vector<Gather> forward, backward;
  /// The most gathered bytes live at once.
  int64_t gatherPeakBytes = 0;
};

/// The module's `dist.zero_plan`, if it has one.
std::optional<ZeroSummary> readZeroPlan(ModuleOp module);

/// The module's `dist.recompute_plan`, if it has one.
std::optional<RecomputeSummary> readRecomputePlan(ModuleOp module);

struct ExplainReport {
  struct Axis {
    std::string name;
    int64_t size;
    /// The groups of ranks along this axis (each group varies only it).
    std::vector<std::vector<int64_t>> groups;
  };
  struct Decision {
    std::string layer, weight, op, role, reason;
  };
  struct Collective {
    std::string layer, kind, source, shape;
    std::vector<std::string> axes;
    int64_t groupSize = 1;
    /// Bytes of the tensor the collective works on (its input for
    /// all_reduce / reduce_scatter / all_to_all / broadcast / send, its
    /// output for all_gather / recv).
    int64_t messageBytes = 0;
    /// Bytes each rank sends (ring algorithms; a send's message, none for a
    /// recv, whose bytes its send counts).
    double trafficBytes = 0;
    std::string formula;
  };
  std::vector<Axis> axes;
  int64_t numRanks = 1;
  /// Interleaved micro-batches per rank (paracc-interleave-microbatches).
  int64_t microbatches = 1;
  std::vector<Decision> decisions;
  std::vector<Collective> collectives;
  int64_t parameterBytes = 0;
  int64_t peakActivationBytes = 0;
  int64_t totalActivationBytes = 0;
  std::vector<std::string> notes;
  /// Set for a training step (a function that updates state).
  std::optional<StepMemory> step;
  /// The pipeline plan (`dist.pipeline_plan` of --paracc-pipeline-stages).
  std::optional<PipelinePlan> pipeline;
  /// Activation recompute (training).
  std::optional<RecomputeSummary> recompute;
  /// ZeRO's stage and stage 3's gathers.
  std::optional<ZeroSummary> zero;
  /// Training: the weights not trained, with why (`graph.frozen_parameters`
  /// of --paracc-autodiff; set by the driver, which reads it before
  /// partitioning).
  std::vector<std::pair<std::string, std::string>> frozenParameters;
  /// The cost model's step time per function (set by the driver, which
  /// knows the device's rates).
  std::optional<StepPrediction> predicted;
};

/// Bytes as people read them: "512 B", "1.50 GiB".
std::string formatBytes(double bytes);

/// Reads the report off a partitioned module.
ExplainReport analyzePlan(ModuleOp module);

/// The forward of a training step: every op its first result (the loss)
/// depends on, weights, state and constants excluded.
llvm::DenseSet<Operation *> stepForward(func::FuncOp step);

/// The memory categories of a training step (TrainingMemory.cpp), less the
/// arena and peak, which the written executable's plan gives.
StepMemory analyzeStepMemory(func::FuncOp step);

/// Human-readable report; `baseline` (the same mesh without sequence
/// parallelism) adds a comparison.
void printExplainText(const ExplainReport &report, llvm::raw_ostream &os,
                      const ExplainReport *baseline = nullptr);
/// The same as JSON.
void printExplainJson(const ExplainReport &report, llvm::raw_ostream &os,
                      const ExplainReport *baseline = nullptr);

} // namespace mlir::paracc

#endif // PARACC_PLANNER_EXPLAIN_H

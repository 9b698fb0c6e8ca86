//===- Recompute.h - Which activations to keep, which to recompute -*- C++
//-*-===//
//
// Activation recompute as the planner sees it: the forward ops of a
// training step, the bytes of what each leaves for the backward, what it
// costs to compute again, and a choice of what to drop under a per-rank
// budget. `--paracc-recompute` builds the graph from the IR and rewrites
// the program from the choice.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_PLANNER_RECOMPUTE_H
#define PARACC_PLANNER_RECOMPUTE_H

#include "paracc/Compiler/Options.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::paracc {

/// The forward ops of a step that depend on its inputs (ops on weights
/// alone are not recomputed), in program order.
struct RecomputeGraph {
  struct Node {
    /// Operands computed by earlier nodes (indices into `nodes`).
    llvm::SmallVector<int32_t, 4> operands;
    /// One rank's time to compute the op again, seconds.
    double seconds = 0;
    /// One rank's bytes of the results the backward reads, one
    /// micro-batch's (0: the backward reads none of them).
    int64_t savedBytes = 0;
    /// The same for all its results (what keeping it as a checkpoint
    /// costs).
    int64_t resultBytes = 0;
    /// The micro-batches whose saved results its stage keeps at once (the
    /// pipeline schedule's in-flight count; 1 without a pipeline).
    int64_t copies = 1;
    /// Its budget: the pipeline stage (0 without one).
    int32_t group = 0;
    /// Kept whatever the policy (a result of the step, an op that cannot
    /// run twice).
    bool pinned = false;
    /// Cheap to redo for its size (not a product or attention).
    bool cheap = false;
    /// Positions in the step's op order: where it is computed, its last
    /// forward reader, and its readers after the forward (ascending).
    int64_t defined = 0, forwardEnd = 0;
    llvm::SmallVector<int64_t, 2> laterUses;
  };
  std::vector<Node> nodes;
  /// Per group and position: the bytes of every other value live there
  /// (the backward's and optimizer's, the forward's outside the nodes),
  /// one rank's; `positions` long each.
  std::vector<std::vector<int64_t>> baseline;
  int64_t positions = 0;
};

/// A choice: which nodes' saved results the backward recomputes.
struct RecomputeChoice {
  /// Per node: its saved results are dropped and recomputed.
  std::vector<bool> dropped;
  /// Per node: it runs again in the backward (the dropped nodes and what
  /// they need that is not kept).
  std::vector<bool> rerun;
  /// Per group: saved bytes kept, times the micro-batches in flight.
  std::vector<int64_t> keptBytes;
  /// Per group: the most bytes live at once (simulatePeaks).
  std::vector<int64_t> peakBytes;
  /// Time of the reruns, seconds (one rank).
  double seconds = 0;
};

/// The reruns and kept bytes of dropping `dropped` (pinned nodes are never
/// dropped).
RecomputeChoice evaluateRecompute(const RecomputeGraph &graph,
                                  std::vector<bool> dropped);

/// Drops, in program order, each of `candidates` whose rerun (with the
/// drops before it) needs only cheap nodes: recompute that never redoes a
/// product.
RecomputeChoice chooseCheapRecompute(const RecomputeGraph &graph,
                                     const std::vector<bool> &candidates);

/// Where a group's live bytes peak.
struct PeakAt {
  int64_t bytes = 0;
  int64_t position = -1;
};

/// The live bytes of each group over the step's positions with `dropped`
/// and `rerun`: a node kept lives from its definition to its last reader
/// (later ones and copies included), a dropped one to its last forward
/// reader, and a rerun node's copy from the first position that needs it
/// (the first later reader of a dropped node, or the copy of one that
/// reads it) to the last; the baseline adds the rest. That is one
/// micro-batch's step; the other micro-batches a pipeline stage keeps in
/// flight add their kept saved results throughout.
std::vector<PeakAt> simulatePeaks(const RecomputeGraph &graph,
                                  const std::vector<bool> &dropped,
                                  const std::vector<bool> &rerun);

/// Lowers each group's simulated peak to its budget: while a group is
/// over, drops the saved result, among those held across the group's peak
/// position (last forward reader before it, first later reader after it)
/// or kept for other micro-batches in flight, whose rerun adds the least
/// time per byte it takes off the peak. A drop that does not lower the
/// peak (a rerun keeping other values alive across it) is undone. Stops
/// when every group fits or nothing held across a peak can go.
RecomputeChoice chooseRecompute(const RecomputeGraph &graph,
                                llvm::ArrayRef<int64_t> budgets);

} // namespace mlir::paracc

#endif // PARACC_PLANNER_RECOMPUTE_H

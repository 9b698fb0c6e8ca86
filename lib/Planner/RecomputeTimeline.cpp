//===- RecomputeTimeline.cpp - Live bytes of a step with recompute --------===//
//
// The liveness timeline of a training step as `--paracc-recompute` would
// rewrite it: originals, copies made in the backward and everything else
// (the baseline), summed per position with one difference array per group.
//
//===----------------------------------------------------------------------===//

#include "paracc/Planner/Recompute.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::paracc;

std::vector<PeakAt>
mlir::paracc::simulatePeaks(const RecomputeGraph &graph,
                            const std::vector<bool> &dropped,
                            const std::vector<bool> &rerun) {
  const size_t n = graph.nodes.size();
  const int64_t positions = std::max<int64_t>(graph.positions, 1);
  auto isDropped = [&](size_t i) { return i < dropped.size() && dropped[i]; };
  auto isRerun = [&](size_t i) { return i < rerun.size() && rerun[i]; };
  auto available = [&](size_t i) {
    const RecomputeGraph::Node &node = graph.nodes[i];
    return node.pinned || (node.savedBytes > 0 && !isDropped(i));
  };

  // Copies: the first and last position that needs each (consumers come
  // after their operands, so walking backwards finishes a copy's readers
  // before it).
  constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> copyStart(n, kNever), copyEnd(n, -1);
  std::vector<int64_t> originalEnd(n);
  for (size_t i = 0; i < n; ++i) {
    const RecomputeGraph::Node &node = graph.nodes[i];
    originalEnd[i] = node.forwardEnd;
    if (available(i) && !node.laterUses.empty())
      originalEnd[i] = std::max(originalEnd[i], node.laterUses.back());
  }
  for (size_t i = n; i-- > 0;) {
    const RecomputeGraph::Node &node = graph.nodes[i];
    if (!isRerun(i))
      continue;
    if (isDropped(i))
      for (int64_t u : node.laterUses) {
        copyStart[i] = std::min(copyStart[i], u);
        copyEnd[i] = std::max(copyEnd[i], u);
      }
    if (copyStart[i] == kNever)
      continue;
    for (int32_t o : node.operands) {
      if (available(o)) {
        originalEnd[o] = std::max(originalEnd[o], copyStart[i]);
      } else {
        copyStart[o] = std::min(copyStart[o], copyStart[i]);
        copyEnd[o] = std::max(copyEnd[o], copyStart[i]);
      }
    }
  }

  size_t groups = graph.baseline.size();
  for (const RecomputeGraph::Node &node : graph.nodes)
    groups = std::max(groups, size_t(node.group) + 1);
  std::vector<std::vector<int64_t>> delta(
      groups, std::vector<int64_t>(positions + 1, 0));
  auto add = [&](int32_t group, int64_t from, int64_t to, int64_t bytes) {
    from = std::clamp<int64_t>(from, 0, positions - 1);
    to = std::clamp<int64_t>(to, from, positions - 1);
    delta[group][from] += bytes;
    delta[group][to + 1] -= bytes;
  };
  // The other micro-batches in flight hold what this one's forward keeps.
  std::vector<int64_t> inFlight(groups, 0);
  for (size_t i = 0; i < n; ++i) {
    const RecomputeGraph::Node &node = graph.nodes[i];
    add(node.group, node.defined, originalEnd[i], node.resultBytes);
    if (copyStart[i] != kNever)
      add(node.group, copyStart[i], copyEnd[i], node.resultBytes);
    if (available(i))
      inFlight[node.group] += (node.copies - 1) * node.savedBytes;
  }
  std::vector<PeakAt> peaks(groups);
  for (size_t g = 0; g < groups; ++g) {
    int64_t live = 0;
    for (int64_t p = 0; p < positions; ++p) {
      live += delta[g][p];
      int64_t total = live + (g < graph.baseline.size() &&
                                      p < int64_t(graph.baseline[g].size())
                                  ? graph.baseline[g][p]
                                  : 0);
      if (total > peaks[g].bytes || peaks[g].position < 0)
        peaks[g] = {total, p};
    }
  }
  return peaks;
}

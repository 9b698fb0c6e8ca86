//===- RecomputeSelection.cpp - What to keep under a budget ----*- C++ -*-===//
//
// A greedy knapsack over the saved activations: dropping a node's saved
// results costs the time of rerunning it and whatever it reads that is not
// kept (and not rerun already); each round drops the node with the least
// added time per byte freed in a group over its budget. Reruns are shared:
// once a node runs again for one dropped value, the next that needs it pays
// nothing for it.
//
//===----------------------------------------------------------------------===//

#include "paracc/Planner/Recompute.h"

#include <limits>

using namespace mlir;
using namespace mlir::paracc;

namespace {
/// The reruns of a set of dropped nodes, grown one drop at a time.
class Reruns {
public:
  explicit Reruns(const RecomputeGraph &graph)
      : graph(&graph), dropped(graph.nodes.size(), false),
        rerun(graph.nodes.size(), false), stamp(graph.nodes.size(), 0) {}

  /// Whether the backward can read node `n`'s results as the forward left
  /// them.
  bool available(int32_t n) const {
    const RecomputeGraph::Node &node = graph->nodes[n];
    return node.pinned || (node.savedBytes > 0 && !dropped[n]);
  }

  /// The time dropping `n` adds: it and every node it needs that is
  /// neither kept nor rerun already.
  double cost(int32_t n) {
    ++round;
    double seconds = 0;
    visit(n, [&](int32_t m) { seconds += graph->nodes[m].seconds; });
    return seconds;
  }

  /// Whether every node dropping `n` would rerun is cheap.
  bool onlyCheap(int32_t n) {
    ++round;
    bool cheap = true;
    visit(n, [&](int32_t m) { cheap &= graph->nodes[m].cheap; });
    return cheap;
  }

  void drop(int32_t n) {
    ++round;
    visit(n, [&](int32_t m) {
      rerun[m] = true;
      total += graph->nodes[m].seconds;
    });
    dropped[n] = true;
  }

  const RecomputeGraph *graph;
  std::vector<bool> dropped, rerun;
  double total = 0;

private:
  template <typename Fn> void visit(int32_t start, Fn &&onNew) {
    work.assign(1, start);
    stamp[start] = round;
    while (!work.empty()) {
      int32_t m = work.back();
      work.pop_back();
      onNew(m);
      for (int32_t o : graph->nodes[m].operands)
        if (stamp[o] != round && !rerun[o] && !available(o)) {
          stamp[o] = round;
          work.push_back(o);
        }
    }
  }

  std::vector<uint64_t> stamp;
  uint64_t round = 0;
  std::vector<int32_t> work;
};

std::vector<int64_t> keptBytes(const RecomputeGraph &graph,
                               const std::vector<bool> &dropped) {
  std::vector<int64_t> kept;
  for (auto [n, node] : llvm::enumerate(graph.nodes)) {
    if (size_t(node.group) >= kept.size())
      kept.resize(node.group + 1, 0);
    if (!dropped[n])
      kept[node.group] += node.savedBytes * node.copies;
  }
  return kept;
}
} // namespace

/// The choice `reruns` holds.
static RecomputeChoice choiceOf(const RecomputeGraph &graph, Reruns &reruns) {
  RecomputeChoice choice;
  choice.dropped = reruns.dropped;
  choice.rerun = reruns.rerun;
  choice.seconds = reruns.total;
  choice.keptBytes = keptBytes(graph, choice.dropped);
  for (const PeakAt &p : simulatePeaks(graph, choice.dropped, choice.rerun))
    choice.peakBytes.push_back(p.bytes);
  return choice;
}

RecomputeChoice mlir::paracc::evaluateRecompute(const RecomputeGraph &graph,
                                                std::vector<bool> dropped) {
  dropped.resize(graph.nodes.size(), false);
  Reruns reruns(graph);
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    if (dropped[n] && !graph.nodes[n].pinned && graph.nodes[n].savedBytes > 0)
      reruns.drop(int32_t(n));
  return choiceOf(graph, reruns);
}

RecomputeChoice
mlir::paracc::chooseCheapRecompute(const RecomputeGraph &graph,
                                   const std::vector<bool> &candidates) {
  Reruns reruns(graph);
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const RecomputeGraph::Node &node = graph.nodes[n];
    if (n < candidates.size() && candidates[n] && !node.pinned &&
        node.savedBytes > 0 && reruns.onlyCheap(int32_t(n)))
      reruns.drop(int32_t(n));
  }
  return choiceOf(graph, reruns);
}

RecomputeChoice mlir::paracc::chooseRecompute(const RecomputeGraph &graph,
                                              llvm::ArrayRef<int64_t> budgets) {
  const size_t n = graph.nodes.size();
  auto budgetOf = [&](size_t group) {
    return group < budgets.size() ? budgets[group]
                                  : std::numeric_limits<int64_t>::max();
  };
  Reruns reruns(graph);
  std::vector<bool> tried(n, false);
  std::vector<PeakAt> peaks =
      simulatePeaks(graph, reruns.dropped, reruns.rerun);
  while (true) {
    // The group furthest over its budget.
    int64_t group = -1, worst = 0;
    for (auto [g, peak] : llvm::enumerate(peaks)) {
      int64_t over = peak.bytes - budgetOf(g);
      if (over > worst) {
        worst = over;
        group = int64_t(g);
      }
    }
    if (group < 0)
      break;
    // Its candidates: saved results held across the peak.
    const int64_t at = peaks[group].position;
    int32_t best = -1;
    double bestRatio = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n; ++i) {
      const RecomputeGraph::Node &node = graph.nodes[i];
      if (node.group != group || node.pinned || node.savedBytes <= 0 ||
          reruns.dropped[i] || tried[i] || node.laterUses.empty())
        continue;
      bool held = node.forwardEnd < at && node.laterUses.front() > at;
      int64_t freed =
          (held ? node.resultBytes : 0) + (node.copies - 1) * node.savedBytes;
      if (freed <= 0)
        continue;
      double ratio = reruns.cost(int32_t(i)) / double(freed);
      if (ratio < bestRatio) {
        bestRatio = ratio;
        best = int32_t(i);
      }
    }
    if (best < 0)
      break;
    // Kept only if the peak comes down (a rerun may keep values alive
    // across it instead).
    tried[best] = true;
    Reruns trial = reruns;
    trial.drop(best);
    std::vector<PeakAt> after =
        simulatePeaks(graph, trial.dropped, trial.rerun);
    if (after[group].bytes < peaks[group].bytes ||
        (after[group].bytes == peaks[group].bytes &&
         after[group].position != at)) {
      reruns = std::move(trial);
      peaks = std::move(after);
    }
  }
  return choiceOf(graph, reruns);
}

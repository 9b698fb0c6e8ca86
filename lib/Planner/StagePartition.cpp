//===- StagePartition.cpp - Balanced pipeline stages ------------*- C++ -*-===//
//
// Cuts the units of a forward graph (prologue, layers, epilogue) into
// contiguous stages. A dynamic program over the cut points minimises the
// slowest stage's modelled time (its ops' roofline time, times the training
// factor when training, plus the transfers across its cuts) within the
// per-stage memory budget; explicit layer ranges bypass it. Megatron's
// equal-layer cut is computed alongside for comparison, and both are played
// through the schedule simulator for their bubble.
//
//===----------------------------------------------------------------------===//

#include "paracc/Planner/StagePartition.h"

#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::paracc;
namespace g = mlir::paracc::graph;

std::optional<std::vector<std::pair<int64_t, int64_t>>>
mlir::paracc::parseLayerRanges(llvm::StringRef ranges, int64_t layers,
                               std::string &error) {
  std::vector<std::pair<int64_t, int64_t>> result;
  SmallVector<StringRef> parts;
  ranges.split(parts, ',');
  for (StringRef part : parts) {
    StringRef text = part.trim();
    auto [firstText, lastText] = text.split('-');
    if (!text.contains('-'))
      lastText = firstText;
    int64_t first, last;
    // ranges_syntax
    if (firstText.trim().getAsInteger(10, first) ||
        lastText.trim().getAsInteger(10, last) || first < 0 || last < 0) {
      error = "bad layer range '" + text.str() +
              "': expected 'first-last' or 'layer' (non-negative integers)";
      return std::nullopt;
    }
    // ranges_nonempty
    if (first > last) {
      error = "layer range '" + text.str() + "' is empty (first after last)";
      return std::nullopt;
    }
    // ranges_in_bounds
    if (last >= layers) {
      error = "layer range '" + text.str() + "' goes past the last layer, " +
              std::to_string(layers - 1) + " (" + std::to_string(layers) +
              " layers found)";
      return std::nullopt;
    }
    // ranges_start_at_zero, ranges_disjoint, ranges_contiguous
    int64_t expected = result.empty() ? 0 : result.back().second + 1;
    if (first != expected) {
      if (result.empty())
        error = "layer ranges must start at layer 0, got '" + text.str() + "'";
      else if (first < expected)
        error = "layer range '" + text.str() +
                "' overlaps the previous one (which ends at layer " +
                std::to_string(expected - 1) + ")";
      else
        error = "layer ranges leave a gap: layers " + std::to_string(expected) +
                "-" + std::to_string(first - 1) + " are in no range";
      return std::nullopt;
    }
    result.push_back({first, last});
  }
  // ranges_cover_all_layers
  if (result.empty() || result.back().second != layers - 1) {
    error = "layer ranges must cover every layer: layers " +
            std::to_string(result.empty() ? 0 : result.back().second + 1) +
            "-" + std::to_string(layers - 1) + " are in no range";
    return std::nullopt;
  }
  return result;
}

namespace {
/// The units a plan is cut from, with what the cost model says of them.
struct Units {
  /// Layer index per unit, -1 for the prologue and the epilogue.
  std::vector<int64_t> layer;
  std::vector<bool> prologue, epilogue;
  /// Forward seconds and step seconds (forward + backward when training).
  std::vector<double> forward, step;
  std::vector<int64_t> flops;
  /// The parameter ids each unit reads.
  std::vector<llvm::SmallVector<int64_t>> weights;
  std::vector<int64_t> weightElements, weightBytes;
  /// Activation bytes crossing the cut after each unit.
  std::vector<int64_t> crossing;

  size_t size() const { return layer.size(); }
};

/// A contiguous group of units, [begin, end); empty when begin == end.
struct Group {
  int64_t begin, end;
};
} // namespace

/// A weight's identity: its name and, for a block of it, the offsets.
static std::string weightKey(g::WeightOp w) {
  std::string key = w.getName().str();
  if (auto offsets = w.getOffsets())
    for (int64_t o : *offsets)
      key += "@" + std::to_string(o);
  return key;
}

static Units buildUnits(const LayerStructure &structure,
                        const StagePartitionOptions &options,
                        llvm::DenseMap<Operation *, int64_t> &unitIndex) {
  Units units;
  // Structure unit (0 prologue, 1..L layers, L+1 epilogue) -> index of the
  // units that hold an op.
  int64_t epilogue = structure.layers + 1;
  std::vector<int64_t> index(epilogue + 1, -1);
  auto add = [&](int64_t structureUnit) {
    index[structureUnit] = units.size();
    units.layer.push_back(structureUnit >= 1 && structureUnit < epilogue
                              ? structureUnit - 1
                              : -1);
    units.prologue.push_back(structureUnit == 0);
    units.epilogue.push_back(structureUnit == epilogue);
  };
  if (structure.hasPrologue)
    add(0);
  for (int64_t l = 1; l <= structure.layers; ++l)
    add(l);
  if (structure.hasEpilogue)
    add(epilogue);
  size_t n = units.size();
  units.forward.assign(n, 0);
  units.step.assign(n, 0);
  units.flops.assign(n, 0);
  units.weights.assign(n, {});
  units.crossing.assign(n, 0);

  llvm::StringMap<int64_t> weightIds;
  std::vector<llvm::DenseSet<int64_t>> seen(n);
  for (Operation *op : structure.ops) {
    // The terminator of an empty epilogue goes with the last layer.
    int64_t u = index[structure.unitOf.lookup(op)];
    if (u < 0)
      u = n - 1;
    unitIndex[op] = u;
    OpCost cost = estimateCost(op);
    double seconds = predictSeconds(cost, options.rates, costElementType(op));
    double factor = options.training ? trainingFactor(op) : 1.0;
    units.forward[u] += seconds;
    units.step[u] += seconds * factor;
    units.flops[u] += int64_t(double(cost.flops) * factor);
    for (Value v : op->getOperands()) {
      auto w = v.getDefiningOp<g::WeightOp>();
      if (!w)
        continue;
      auto [it, inserted] =
          weightIds.try_emplace(weightKey(w), units.weightBytes.size());
      if (inserted) {
        auto type = cast<RankedTensorType>(w.getType());
        units.weightElements.push_back(type.getNumElements());
        units.weightBytes.push_back(bytesOfTensorType(type));
      }
      if (seen[u].insert(it->second).second)
        units.weights[u].push_back(it->second);
    }
  }

  // A value crosses every cut between its unit and its last user's. Program
  // inputs are not sent: every stage reads the ones it needs.
  llvm::DenseMap<Value, int64_t> lastUse;
  for (Operation *op : structure.ops)
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (!def || !unitIndex.count(def))
        continue;
      int64_t &last = lastUse[v];
      last = std::max(last, unitIndex[op]);
    }
  for (auto [v, last] : lastUse)
    for (int64_t u = unitIndex[v.getDefiningOp()]; u < last; ++u)
      units.crossing[u] += bytesOfTensorType(v.getType());
  return units;
}

namespace {
/// The modelled time and memory of groups of units.
struct GroupCosts {
  const Units &units;
  const StagePartitionOptions &options;
  /// Parameter bytes and elements of units [i, j], j >= i, row-major.
  std::vector<int64_t> paramBytes, paramElements;

  GroupCosts(const Units &units, const StagePartitionOptions &options)
      : units(units), options(options) {
    size_t n = units.size();
    paramBytes.assign(n * n, 0);
    paramElements.assign(n * n, 0);
    for (size_t i = 0; i < n; ++i) {
      llvm::DenseSet<int64_t> ids;
      int64_t bytes = 0, elements = 0;
      for (size_t j = i; j < n; ++j) {
        for (int64_t id : units.weights[j])
          if (ids.insert(id).second) {
            bytes += units.weightBytes[id];
            elements += units.weightElements[id];
          }
        paramBytes[i * n + j] = bytes;
        paramElements[i * n + j] = elements;
      }
    }
  }

  double transfer(int64_t cutAfter) const {
    return double(units.crossing[cutAfter]) / options.rates.linkBytesPerSecond;
  }
  /// The step time of a stage of units [g.begin, g.end).
  double seconds(Group g) const {
    if (g.begin >= g.end)
      return 0;
    double s = 0;
    for (int64_t u = g.begin; u < g.end; ++u)
      s += units.step[u];
    // The activations it sends on; when training also the gradient it
    // sends back.
    if (g.end < int64_t(units.size()))
      s += transfer(g.end - 1);
    if (options.training && g.begin > 0)
      s += transfer(g.begin - 1);
    return s;
  }
  int64_t memory(Group g) const {
    if (g.begin >= g.end)
      return 0;
    int64_t bytes = paramBytes[g.begin * units.size() + g.end - 1];
    return options.training ? 4 * bytes : bytes;
  }
  bool fits(Group g) const {
    return options.memoryBudget <= 0 || memory(g) <= options.memoryBudget;
  }
};
} // namespace

/// Splits units [0, n) into `p` contiguous non-empty groups minimising the
/// largest `cost`, then (among cuts with the same largest cost) the sum of
/// the squared costs, so that the stages off the bottleneck balance too;
/// uses only groups that `allowed`; empty when no cut does.
template <typename Cost, typename Allowed>
static std::vector<Group> minMaxCut(int64_t n, int64_t p, Cost cost,
                                    Allowed allowed) {
  struct Value {
    double max, squares;
    bool operator<(const Value &o) const {
      if (std::isinf(max) || std::isinf(o.max))
        return max < o.max;
      // Costs that differ by rounding only are equal.
      double tolerance = 1e-9 * std::max(std::abs(max), std::abs(o.max));
      if (std::abs(max - o.max) > tolerance)
        return max < o.max;
      return squares < o.squares;
    }
  };
  const double inf = std::numeric_limits<double>::infinity();
  // best[k][j]: the best cut of units [0, j] into k + 1 groups.
  std::vector<std::vector<Value>> best(p, std::vector<Value>(n, {inf, inf}));
  std::vector<std::vector<int64_t>> start(p, std::vector<int64_t>(n, -1));
  for (int64_t j = 0; j < n; ++j)
    if (allowed(Group{0, j + 1})) {
      double c = cost(Group{0, j + 1});
      best[0][j] = {c, c * c};
      start[0][j] = 0;
    }
  for (int64_t k = 1; k < p; ++k)
    for (int64_t j = k; j < n; ++j)
      for (int64_t i = k; i <= j; ++i) {
        const Value &prev = best[k - 1][i - 1];
        if (prev.max == inf || !allowed(Group{i, j + 1}))
          continue;
        double c = cost(Group{i, j + 1});
        Value v{std::max(prev.max, c), prev.squares + c * c};
        if (v < best[k][j]) {
          best[k][j] = v;
          start[k][j] = i;
        }
      }
  if (best[p - 1][n - 1].max == inf)
    return {};
  std::vector<Group> groups(p);
  int64_t end = n;
  for (int64_t k = p - 1; k >= 0; --k) {
    int64_t begin = start[k][end - 1];
    groups[k] = {begin, end};
    end = begin;
  }
  return groups;
}

static std::string describeGroup(const Units &units, Group g) {
  int64_t first = -1, last = -1;
  bool prologue = false, epilogue = false;
  for (int64_t u = g.begin; u < g.end; ++u) {
    if (units.layer[u] >= 0) {
      if (first < 0)
        first = units.layer[u];
      last = units.layer[u];
    }
    prologue |= units.prologue[u];
    epilogue |= units.epilogue[u];
  }
  std::string s;
  if (first >= 0)
    s = first == last
            ? "layer " + std::to_string(first)
            : "layers " + std::to_string(first) + "-" + std::to_string(last);
  if (prologue)
    s = s.empty() ? "the embedding" : "the embedding and " + s;
  if (epilogue)
    s += s.empty() ? "the head" : " and the head";
  return s;
}

static StageSummary summarize(const Units &units, const GroupCosts &costs,
                              Group g) {
  StageSummary s;
  for (int64_t u = g.begin; u < g.end; ++u) {
    if (units.layer[u] >= 0) {
      if (s.firstLayer < 0)
        s.firstLayer = units.layer[u];
      s.lastLayer = units.layer[u];
    }
    s.prologue = s.prologue || units.prologue[u];
    s.epilogue = s.epilogue || units.epilogue[u];
    s.flops += units.flops[u];
  }
  if (g.begin < g.end) {
    size_t n = units.size();
    s.paramBytes = costs.paramBytes[g.begin * n + g.end - 1];
    s.params = costs.paramElements[g.begin * n + g.end - 1];
    if (g.end < int64_t(n))
      s.sentBytes = units.crossing[g.end - 1];
  }
  s.predictedMs = costs.seconds(g) * 1e3;
  s.memoryBytes = costs.memory(g);
  return s;
}

/// The bubble of the simulated schedule of `groups`.
static double predictBubble(const Units &units, const GroupCosts &costs,
                            ArrayRef<Group> groups,
                            const StagePartitionOptions &options) {
  double m = double(options.microbatches);
  SmallVector<double> forward, backward, transfer;
  for (Group g : groups) {
    double f = 0, step = 0;
    for (int64_t u = g.begin; u < g.end; ++u) {
      f += units.forward[u];
      step += units.step[u];
    }
    // One micro-batch is 1/m of the batch.
    forward.push_back(f / m);
    backward.push_back(options.training ? (step - f) / m : 0.0);
    transfer.push_back(g.begin < g.end && g.end < int64_t(units.size())
                           ? costs.transfer(g.end - 1) / m
                           : 0.0);
  }
  return simulateSchedule(forward, backward, options.microbatches,
                          options.schedule, transfer, options.virtualStages)
      .bubble;
}

FailureOr<StageAssignment>
mlir::paracc::planPipelineStages(func::FuncOp func,
                                 const StagePartitionOptions &options) {
  FailureOr<LayerStructure> structure = findLayers(func);
  if (failed(structure))
    return failure();
  llvm::DenseMap<Operation *, int64_t> unitIndex;
  Units units = buildUnits(*structure, options, unitIndex);
  GroupCosts costs(units, options);
  const int64_t ranks = options.stages, v = options.virtualStages;
  int64_t n = units.size(), p = ranks * v, layers = structure->layers;
  if (ranks < 1 || v < 1)
    return func.emitError("expected at least 1 pipeline stage, got ") << p;
  // "4" or "8 (4 stages x 2 virtual stages)".
  std::string stagesText = std::to_string(p);
  if (v > 1)
    stagesText += " (" + std::to_string(ranks) + " stages x " +
                  std::to_string(v) + " virtual stages)";

  // Index of the unit of layer l.
  int64_t firstLayerUnit = structure->hasPrologue ? 1 : 0;
  std::vector<Group> groups;
  if (!options.ranges.empty()) {
    std::string error;
    auto ranges = parseLayerRanges(options.ranges, layers, error);
    if (!ranges)
      return func.emitError(error);
    // ranges_one_per_stage
    if (int64_t(ranges->size()) != p)
      return func.emitError("expected ")
             << p << " layer ranges (one per " << (v > 1 ? "virtual " : "")
             << "stage), got " << ranges->size();
    for (auto [i, range] : llvm::enumerate(*ranges)) {
      int64_t begin = i == 0 ? 0 : firstLayerUnit + range.first;
      int64_t end =
          i + 1 == ranges->size() ? n : firstLayerUnit + range.second + 1;
      groups.push_back({begin, end});
    }
    // memory_budget_fits
    for (auto [s, g] : llvm::enumerate(groups))
      if (!costs.fits(g))
        return func.emitError("stage ")
               << s << " (" << describeGroup(units, g) << ") needs "
               << costs.memory(g) << " bytes, over the memory budget of "
               << options.memoryBudget << " bytes";
  } else {
    // stages_at_most_units
    if (p > n)
      return func.emitError("the graph can be cut into at most ")
             << n << " stages (" << layers << " layers found), got "
             << stagesText;
    groups = minMaxCut(
        n, p, [&](Group g) { return costs.seconds(g); },
        [&](Group g) { return costs.fits(g); });
    // memory_budget_fits
    if (groups.empty()) {
      // Name the stage that does not fit in the cut that needs least.
      std::vector<Group> leanest = minMaxCut(
          n, p, [&](Group g) { return double(costs.memory(g)); },
          [](Group) { return true; });
      Group worst = leanest.front();
      int64_t index = 0;
      for (auto [s, g] : llvm::enumerate(leanest))
        if (costs.memory(g) > costs.memory(worst)) {
          worst = g;
          index = s;
        }
      return func.emitError("no cut into ")
             << p << " stages fits the memory budget of "
             << options.memoryBudget << " bytes: in the leanest cut, stage "
             << index << " (" << describeGroup(units, worst) << ") needs "
             << costs.memory(worst) << " bytes";
    }
  }

  // interleaved_rank_fits: a rank holds v chunks, which the budget covers
  // together.
  if (v > 1 && options.memoryBudget > 0)
    for (int64_t r = 0; r < ranks; ++r) {
      int64_t bytes = 0;
      std::string held;
      for (int64_t k = r; k < p; k += ranks) {
        bytes += costs.memory(groups[k]);
        held += (held.empty() ? "" : ", ") + describeGroup(units, groups[k]);
      }
      if (bytes > options.memoryBudget)
        return func.emitError("rank ")
               << r << " of the pipeline (" << held << ") needs " << bytes
               << " bytes, over the memory budget of " << options.memoryBudget
               << " bytes";
    }

  // Megatron's cut: equal numbers of layers, the first stages taking one
  // more when they do not divide; prologue first, epilogue last.
  std::vector<Group> uniform;
  int64_t begin = 0;
  for (int64_t s = 0; s < p; ++s) {
    int64_t count = layers / p + (s < layers % p ? 1 : 0);
    int64_t end = begin + count + (s == 0 ? firstLayerUnit : 0);
    if (s == p - 1)
      end = n;
    uniform.push_back({begin, end});
    begin = end;
  }

  StageAssignment result;
  PipelinePlan &plan = result.plan;
  plan.layers = layers;
  plan.microbatches = options.microbatches;
  plan.schedule = options.schedule;
  plan.virtualStages = v;
  plan.training = options.training;
  plan.rates = options.rates.name;
  for (Group g : groups)
    plan.stages.push_back(summarize(units, costs, g));
  for (Group g : uniform)
    plan.uniformStages.push_back(summarize(units, costs, g));
  double m = double(options.microbatches);
  plan.bubbleFormula =
      double(ranks - 1) / (double(v) * m + double(ranks) - 1);
  plan.bubblePredicted = predictBubble(units, costs, groups, options);
  plan.uniformBubblePredicted = predictBubble(units, costs, uniform, options);

  std::vector<int64_t> stageOfUnit(n, 0);
  for (auto [s, g] : llvm::enumerate(groups))
    for (int64_t u = g.begin; u < g.end; ++u)
      stageOfUnit[u] = s;
  for (auto [op, u] : unitIndex)
    result.stageOf[op] = stageOfUnit[u];
  return result;
}

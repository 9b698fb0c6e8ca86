//===- PlanSearch.cpp - The planner's search over parallel plans ---------===//
//
// A plan's step, predicted from its model's profile:
// - each unit (prologue, layer, epilogue) costs its profile's compute, the
//   roofline part scaled by micro-batch size / profiled batch, plus its
//   tensor-parallel collectives over the links the tp axis lies on (the
//   runtime waits for them: exposed);
// - the layers are cut into pp x v stages that balance forward + backward
//   (every stage at least one layer), and the pipeline schedule is
//   simulated on the stage times with the point-to-point transfers;
// - the data-parallel gradient reduction overlaps the rank's last backward
//   (the GPU runtime runs collectives on their own stream) and what is left
//   shows; ZeRO-1 reduce-scatters (overlapped) and all-gathers the updated
//   parameters after the optimizer (exposed) and shards the optimizer's
//   state and update;
// - memory per pipeline rank: parameters, gradients, optimizer state,
//   activations times the micro-batches its schedule keeps in flight,
//   twice the largest collective message, the executor's workspace.
//
//===----------------------------------------------------------------------===//

#include "paracc/Planner/PlanSearch.h"

#include "paracc/Planner/StagePartition.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::paracc;

double ScaledSeconds::operator()(double scale) const {
  if (scale <= scaleAt(0))
    return seconds[0] * scale / scaleAt(0);
  int i = 1;
  while (i < kScales - 1 && scaleAt(i) < scale)
    ++i;
  // Between points i - 1 and i (or beyond the last, along the last two).
  double x0 = scaleAt(i - 1), x1 = scaleAt(i);
  double y0 = seconds[i - 1], y1 = seconds[i];
  return y0 + (y1 - y0) * (scale - x0) / (x1 - x0);
}

ScaledSeconds &ScaledSeconds::operator+=(const ScaledSeconds &o) {
  for (int i = 0; i < kScales; ++i)
    seconds[i] += o.seconds[i];
  return *this;
}

ScaledSeconds ScaledSeconds::operator*(double k) const {
  ScaledSeconds s = *this;
  for (double &v : s.seconds)
    v *= k;
  return s;
}

void ScaledSeconds::clampNegative() {
  for (double &v : seconds)
    v = std::max(v, 0.0);
}

/// Every scaled body of a UnitCost.
static constexpr ScaledSeconds UnitCost::*kUnitBodies[] = {
    &UnitCost::forwardBody, &UnitCost::backwardBody,
    &UnitCost::attentionForwardBody, &UnitCost::attentionBackwardBody};

/// Every number of a UnitCost but its scaled bodies.
static constexpr double UnitCost::*kUnitNumbers[] = {
    &UnitCost::forwardLaunch,
    &UnitCost::backwardLaunch,
    &UnitCost::forwardAllReduceBytes,
    &UnitCost::forwardGatherBytes,
    &UnitCost::backwardAllReduceBytes,
    &UnitCost::backwardGatherBytes,
    &UnitCost::forwardCollectives,
    &UnitCost::backwardCollectives,
    &UnitCost::optimizerSeconds,
    &UnitCost::parameterBytes,
    &UnitCost::gradientBytes,
    &UnitCost::optimizerStateBytes,
    &UnitCost::activationBytes,
    &UnitCost::forwardFlops,
    &UnitCost::keyValueBytes,
    &UnitCost::keyValueRepeatBytes,
    &UnitCost::attentions,
    &UnitCost::expertExchangeBytes,
    &UnitCost::expertParameterBytes,
    &UnitCost::expertGradientBytes,
    &UnitCost::expertOptimizerStateBytes,
    &UnitCost::expertForwardFlops,
    &UnitCost::expertBackwardFlops,
    &UnitCost::expertForwardTokenBytes,
    &UnitCost::expertBackwardTokenBytes,
    &UnitCost::expertForwardTableBytes,
    &UnitCost::expertBackwardTableBytes};

UnitCost &UnitCost::operator+=(const UnitCost &o) {
  for (ScaledSeconds UnitCost::*f : kUnitBodies)
    this->*f += o.*f;
  for (double UnitCost::*f : kUnitNumbers)
    this->*f += o.*f;
  return *this;
}

UnitCost UnitCost::operator*(double k) const {
  UnitCost c = *this;
  for (ScaledSeconds UnitCost::*f : kUnitBodies)
    c.*f = this->*f * k;
  for (double UnitCost::*f : kUnitNumbers)
    c.*f *= k;
  return c;
}

UnitCost &UnitCost::operator-=(const UnitCost &o) { return *this += o * -1.0; }

void UnitCost::clampNegative() {
  for (ScaledSeconds UnitCost::*f : kUnitBodies)
    (this->*f).clampNegative();
  for (double UnitCost::*f : kUnitNumbers)
    this->*f = std::max(this->*f, 0.0);
}

int64_t ParallelPlan::size(StringRef axis) const {
  for (const auto &[name, size] : axes)
    if (name == axis)
      return size;
  return 1;
}

std::string ParallelPlan::mesh() const {
  std::string text;
  for (const auto &[name, size] : axes)
    if (size > 1)
      text += (text.empty() ? "" : ",") + name + std::to_string(size);
  return text.empty() ? "one rank" : text;
}

std::string ParallelPlan::flags(bool training) const {
  std::vector<std::string> f;
  // (One rank: no --mesh at all.)
  if (mesh() != "one rank")
    f.push_back("--mesh " + mesh());
  if (sequenceParallel)
    f.push_back("--sp");
  if (size("pp") > 1 || microbatches > 1)
    f.push_back("--microbatches " + std::to_string(microbatches));
  if (training) {
    if (size("pp") > 1) {
      f.push_back("--pipeline-schedule " + stringifyOption(schedule).str());
      if (schedule == PipelineSchedule::Interleaved)
        f.push_back("--virtual-stages " + std::to_string(virtualStages));
    }
    if (recompute != RecomputePolicy::None)
      f.push_back("--recompute " + stringifyOption(recompute).str());
    if (zero > 0)
      f.push_back("--zero " + std::to_string(zero));
    if (zero > 0 && zeroShardSize > 0)
      f.push_back("--zero-shard-size " + std::to_string(zeroShardSize));
  }
  if (size("cp") > 1 && cpAttention != CpAttention::AllGather)
    f.push_back("--cp-attention " + stringifyOption(cpAttention).str());
  return llvm::join(f, " ");
}

std::string ParallelPlan::describe(bool training) const {
  std::string f = flags(training);
  if (mesh() != "one rank")
    return f;
  return f.empty() ? "one rank" : "one rank, " + f;
}

namespace {

/// A plan's numbers that do not depend on the simulation.
struct StageTimes {
  std::vector<double> forward, backward, transfer;
  std::vector<int64_t> layers;
};

/// The cost of a plan, step by step.
class PlanEvaluator {
public:
  PlanEvaluator(const ModelProfile &model, const PlanRequest &request)
      : model(model), request(request), cluster(request.cluster) {}

  /// Checks the plan against the model and the cluster ("" when it can
  /// run) and finds its profile.
  std::string check(const ParallelPlan &plan,
                    const TensorParallelProfile *&profile) const;
  /// Memory, and everything but the schedule's simulation.
  void prepare(const ParallelPlan &plan, const TensorParallelProfile &profile,
               PlanPrediction &out, StageTimes &times) const;
  /// A lower bound of the step (no bubble).
  double lowerBound(const ParallelPlan &plan, const PlanPrediction &partial,
                    const StageTimes &times) const;
  /// Simulates the schedule and completes `out`; the actions' spans go to
  /// `actions` when given.
  void finish(const ParallelPlan &plan, PlanPrediction &out,
              const StageTimes &times,
              std::vector<SimulatedAction> *actions = nullptr) const;
  /// check, prepare and finish in one: the plan's prediction, or nullopt
  /// with check's reason in `error` (when given).
  std::optional<PlanPrediction>
  evaluate(const ParallelPlan &plan, std::string *error = nullptr,
           std::vector<SimulatedAction> *actions = nullptr) const;

private:
  double tensorParallelSeconds(const ParallelPlan &plan, const UnitCost &unit,
                               double scale, bool backward) const;
  const std::vector<int64_t> &inFlight(const ParallelPlan &plan) const;

  const ModelProfile &model;
  const PlanRequest &request;
  const Cluster &cluster;
  /// Per (schedule, p, m, v): in-flight micro-batches of each virtual
  /// stage.
  mutable std::map<std::tuple<int, int64_t, int64_t, int64_t>,
                   std::vector<int64_t>>
      inFlightCache;
};

} // namespace

static size_t axisIndex(const ParallelPlan &plan, StringRef name) {
  for (size_t i = 0; i < plan.axes.size(); ++i)
    if (plan.axes[i].first == name)
      return i;
  return plan.axes.size();
}

static GroupPlacement placementOf(const ParallelPlan &plan, StringRef name,
                                  int64_t devicesPerNode) {
  size_t i = axisIndex(plan, name);
  if (i == plan.axes.size())
    return {};
  SmallVector<int64_t> sizes;
  for (const auto &axis : plan.axes)
    sizes.push_back(axis.second);
  return placeAxis(sizes, i, devicesPerNode);
}

std::string PlanEvaluator::check(const ParallelPlan &plan,
                                 const TensorParallelProfile *&profile) const {
  int64_t dp = plan.size("dp"), pp = plan.size("pp"), tp = plan.size("tp"),
          cp = plan.size("cp"), ep = plan.size("ep");
  for (const auto &[name, size] : plan.axes)
    if ((name != "dp" && name != "ep" && name != "pp" && name != "cp" &&
         name != "tp") ||
        size < 1)
      return "the planner knows the dp, ep, pp, cp and tp axes, not '" + name +
             "'";
  if (dp * ep * pp * cp * tp != cluster.ranks())
    return "the mesh " + plan.mesh() + " has " +
           std::to_string(dp * ep * pp * cp * tp) + " rank(s), the cluster " +
           cluster.str() + " " + std::to_string(cluster.ranks());
  if (ep > 1 && (model.experts == 0 || model.experts % ep != 0))
    return model.experts == 0
               ? "ep needs a mixture of experts: the model has none"
               : "ep " + std::to_string(ep) + " does not divide the " +
                     std::to_string(model.experts) + " experts";
  if (ep > 1 && !request.allowExpertParallel)
    return "ep: the GPU runtime has no expert-parallel exchange yet";
  if (cp > 1 && model.sequence % (2 * cp) != 0)
    return "a sequence of " + std::to_string(model.sequence) +
           " does not divide into 2 x " + std::to_string(cp) +
           " zig-zag chunks";
  if (dp * ep * plan.microBatchSize * plan.microbatches != request.globalBatch)
    return "dp " + std::to_string(dp * ep) + " x micro-batch size " +
           std::to_string(plan.microBatchSize) + " x " +
           std::to_string(plan.microbatches) +
           " micro-batch(es) is not the "
           "global batch " +
           std::to_string(request.globalBatch);
  if (pp == 1 && plan.microbatches != 1)
    return "micro-batches need a pipeline (pp > 1)";
  if (pp * plan.virtualStages > model.layers)
    return std::to_string(pp * plan.virtualStages) + " pipeline stage(s) for " +
           std::to_string(model.layers) + " layer(s)";
  if (pp > 1 && model.training) {
    std::string why = checkScheduleShape(plan.schedule, pp, plan.virtualStages,
                                         plan.microbatches);
    if (!why.empty())
      return why;
  }
  if (plan.zero < 0 || plan.zero > 3)
    return "ZeRO stage " + std::to_string(plan.zero) + " (0 to 3)";
  if (plan.zero > 0 && (!model.optimizer || dp < 2))
    return "ZeRO needs training with an optimizer and dp > 1";
  if (plan.zeroShardSize != 0 &&
      (plan.zero == 0 || plan.zeroShardSize < 1 || dp % plan.zeroShardSize))
    return "a ZeRO shard size must divide dp (and needs ZeRO)";
  if (plan.sequenceParallel && tp < 2)
    return "sequence parallelism needs tp > 1";
  if (!request.tensorParallelAcrossNodes &&
      placementOf(plan, "tp", cluster.devicesPerNode).crossesNodes())
    return "tp " + std::to_string(tp) + " would cross nodes of " +
           std::to_string(cluster.devicesPerNode) + " device(s)";
  profile = nullptr;
  for (const TensorParallelProfile &p : model.profiles)
    if (p.tp == tp && p.sequenceParallel == plan.sequenceParallel &&
        p.recompute == plan.recompute)
      profile = &p;
  if (!profile) {
    for (const auto &[degree, why] : model.refused)
      if (degree == tp)
        return "tp " + std::to_string(tp) + ": " + why;
    return "no profile of the model at tp " + std::to_string(tp) +
           (plan.sequenceParallel ? " with sp" : "") + " and recompute " +
           stringifyOption(plan.recompute).str();
  }
  if (cp > 1 && profile->layer.attentions <= 0)
    return "cp needs attention: the model's layers have none";
  return "";
}

double PlanEvaluator::tensorParallelSeconds(const ParallelPlan &plan,
                                            const UnitCost &unit, double scale,
                                            bool backward) const {
  GroupPlacement g = placementOf(plan, "tp", cluster.devicesPerNode);
  if (g.size <= 1)
    return 0;
  double ar =
      backward ? unit.backwardAllReduceBytes : unit.forwardAllReduceBytes;
  double gather = backward ? unit.backwardGatherBytes : unit.forwardGatherBytes;
  double count = backward ? unit.backwardCollectives : unit.forwardCollectives;
  if (count <= 0)
    return 0;
  // Each collective at the average message size.
  double arCount = (ar + gather) > 0 ? count * ar / (ar + gather) : 0;
  double gatherCount = count - arCount;
  double t = 0;
  if (arCount > 0)
    t += arCount * allReduceSeconds(cluster, g, scale * ar / arCount);
  if (gatherCount > 0)
    t += gatherCount *
         allGatherSeconds(cluster, g, scale * gather / gatherCount);
  return t;
}

const std::vector<int64_t> &
PlanEvaluator::inFlight(const ParallelPlan &plan) const {
  int64_t p = plan.size("pp"), m = plan.microbatches, v = plan.virtualStages;
  auto key = std::make_tuple(int(plan.schedule), p, m, v);
  auto it = inFlightCache.find(key);
  if (it != inFlightCache.end())
    return it->second;
  std::vector<int64_t> perStage(p * v, 1);
  if (p > 1 && model.training)
    for (int64_t s = 0; s < p; ++s) {
      std::vector<ScheduledAction> order =
          scheduleOrder(s, p, m, plan.schedule, /*withBackward=*/true, v);
      for (int64_t c = 0; c < v; ++c)
        perStage[c * p + s] =
            scheduleInFlight(order, plan.schedule, v > 1 ? c : -1);
    }
  return inFlightCache.emplace(key, std::move(perStage)).first->second;
}

/// Layers per stage: every stage at least one, the bottleneck of
/// (layers x layer time + the stage's prologue / epilogue time) as small
/// as it can be.
static std::vector<int64_t> balanceLayers(int64_t layers, int64_t stages,
                                          double layerTime, double first,
                                          double last) {
  std::vector<int64_t> counts(stages, 0);
  auto extra = [&](int64_t k) {
    return (k == 0 ? first : 0.0) + (k == stages - 1 ? last : 0.0);
  };
  auto capacity = [&](double bound, int64_t k) -> int64_t {
    if (layerTime <= 0)
      return layers;
    double room = (bound - extra(k)) / layerTime;
    return room < 1 ? 0 : int64_t(std::floor(room + 1e-9));
  };
  auto fits = [&](double bound) {
    int64_t total = 0;
    for (int64_t k = 0; k < stages; ++k) {
      int64_t c = capacity(bound, k);
      if (c < 1)
        return false;
      total += c;
    }
    return total >= layers;
  };
  double lo = 0, hi = (layers + 1) * std::max(layerTime, 1e-12) + first + last;
  for (int i = 0; i < 60; ++i) {
    double mid = (lo + hi) / 2;
    (fits(mid) ? hi : lo) = mid;
  }
  int64_t left = layers;
  for (int64_t k = 0; k < stages; ++k) {
    // Leave at least one layer for each later stage.
    int64_t later = stages - 1 - k;
    counts[k] = std::clamp<int64_t>(capacity(hi, k), 1, left - later);
    left -= counts[k];
  }
  // Whatever is left (rounding) goes to the least loaded stages.
  while (left > 0) {
    int64_t best = 0;
    for (int64_t k = 1; k < stages; ++k)
      if (counts[k] * layerTime + extra(k) <
          counts[best] * layerTime + extra(best))
        best = k;
    ++counts[best];
    --left;
  }
  return counts;
}

void PlanEvaluator::prepare(const ParallelPlan &plan,
                            const TensorParallelProfile &profile,
                            PlanPrediction &out, StageTimes &times) const {
  const int64_t p = plan.size("pp"), v = plan.virtualStages,
                dp = plan.size("dp"), cp = plan.size("cp"), stages = p * v;
  // A cp rank computes its 1/cp of each sequence's tokens (attention's
  // work too: its queries against every key), and keeps 1/cp of the
  // activations.
  const double sequences = double(plan.microBatchSize) / model.batch;
  const double scale = sequences / cp;
  // Context parallelism's keys and values. All-gather: gathered in the
  // forward, their gradients reduce-scattered in the backward, not
  // overlapped. Ring: cp - 1 shifts of this rank's block (the backward
  // shifts the blocks again and their gradients cp times), each behind the
  // attention of the block already there, so (cp - 1) / cp of the
  // attention's time hides them.
  GroupPlacement cpGroup = placementOf(plan, "cp", cluster.devicesPerNode);
  const bool ring = plan.cpAttention == CpAttention::Ring;
  auto keyValueSeconds = [&](const UnitCost &u, bool backward) {
    if (cp <= 1)
      return 0.0;
    if (!ring)
      return allGatherSeconds(cluster, cpGroup, sequences * u.keyValueBytes);
    const double shift = pointToPointSeconds(cluster, cpGroup.crossesNodes(),
                                             scale * u.keyValueBytes) *
                         (u.attentions > 0 ? 1.0 : 0.0);
    const double shifts =
        double(cp - 1) * shift + (backward ? double(cp) * shift : 0.0);
    const double hidden = double(cp - 1) / double(cp) *
                          (backward ? u.attentionBackwardBody(scale)
                                    : u.attentionForwardBody(scale));
    return std::max(0.0, shifts - hidden);
  };
  // Expert parallelism's exchange, not overlapped: each member sends
  // (n-1)/n of its slots' rows and takes as many back; the forward moves
  // the rows out and the results back, the backward x and dy out and dx
  // back. The group waits for its busiest member, which receives
  // expertLoadImbalance times an even share (1: routing spread evenly).
  GroupPlacement epGroup = placementOf(plan, "ep", cluster.devicesPerNode);
  // And each member reads 1/ep of the experts' tables: the experts'
  // roofline with their share, less the profiled one with all of them.
  const bool lowPrecision = model.precision != Precision::F32;
  const double load = std::max(model.expertLoadImbalance, 1.0);
  auto exchangeSeconds = [&](const UnitCost &u, bool backward) {
    if (epGroup.size <= 1 || u.expertExchangeBytes <= 0)
      return 0.0;
    // The experts' work on `tokens` times a member's even share of the
    // slots, reading `tableShare` of the tables.
    auto experts = [&](double tableShare, double tokens) {
      OpCost c;
      c.kind = ComputeKind::Product;
      c.flops =
          int64_t(tokens * scale *
                  (backward ? u.expertBackwardFlops : u.expertForwardFlops));
      c.bytes = int64_t(tokens * scale *
                            (backward ? u.expertBackwardTokenBytes
                                      : u.expertForwardTokenBytes) +
                        tableShare * (backward ? u.expertBackwardTableBytes
                                               : u.expertForwardTableBytes));
      return predictSeconds(c, cluster.rates, lowPrecision);
    };
    return (backward ? 3.0 : 2.0) *
               allGatherSeconds(cluster, epGroup,
                                load * scale * u.expertExchangeBytes) +
           experts(1.0 / double(epGroup.size), load) - experts(1.0, 1.0);
  };
  auto forwardOf = [&](const UnitCost &u) {
    return u.forwardBody(scale) + u.forwardLaunch +
           tensorParallelSeconds(plan, u, scale, false) +
           keyValueSeconds(u, false) + exchangeSeconds(u, false);
  };
  auto backwardOf = [&](const UnitCost &u) {
    if (!model.training)
      return 0.0;
    return u.backwardBody(scale) + u.backwardLaunch +
           tensorParallelSeconds(plan, u, scale, true) +
           keyValueSeconds(u, true) + exchangeSeconds(u, true);
  };
  const double layerTime = forwardOf(profile.layer) + backwardOf(profile.layer);
  times.layers =
      balanceLayers(model.layers, stages, layerTime,
                    forwardOf(profile.prologue) + backwardOf(profile.prologue),
                    forwardOf(profile.epilogue) + backwardOf(profile.epilogue));

  // Per virtual stage: its units, times and transfers.
  GroupPlacement ppGroup = placementOf(plan, "pp", cluster.devicesPerNode);
  std::vector<UnitCost> stageUnits(stages);
  for (int64_t k = 0; k < stages; ++k) {
    UnitCost u = profile.layer * double(times.layers[k]);
    if (k == 0)
      u += profile.prologue;
    if (k == stages - 1)
      u += profile.epilogue;
    stageUnits[k] = u;
    times.forward.push_back(forwardOf(u));
    times.backward.push_back(backwardOf(u));
    // Virtual stage k runs on rank k mod p; it sends to rank (k+1) mod p.
    int64_t from = k % p, to = (k + 1) % p;
    bool crosses = ppGroup.crossesNodes() &&
                   (from / ppGroup.perNode != to / ppGroup.perNode);
    times.transfer.push_back(
        k + 1 < stages
            ? pointToPointSeconds(cluster, crosses, scale * profile.cutBytes)
            : 0.0);
  }

  // Per pipeline rank: memory, the data-parallel reduction, the optimizer.
  const std::vector<int64_t> &flight = inFlight(plan);
  GroupPlacement dpGroup = placementOf(plan, "dp", cluster.devicesPerNode);
  // Weights are replicated over cp too: their gradients are reduced over
  // dp x cp (ZeRO shards over dp alone).
  GroupPlacement gradientGroup = dpGroup;
  gradientGroup.size *= cpGroup.size;
  gradientGroup.perNode *= cpGroup.perNode;
  // Under ep the experts' gradients are complete over ep and reduced over
  // dp x cp; everything else's over dp x ep x cp.
  GroupPlacement expertGradientGroup = gradientGroup;
  gradientGroup.size *= epGroup.size;
  gradientGroup.perNode *= epGroup.perNode;
  // ZeRO shards over groups of `shards` consecutive dp ranks (all of dp, or
  // hybrid sharding's groups) and, hybrid, all-reduces across the groups.
  const int64_t shards =
      plan.zero > 0 && plan.zeroShardSize > 0 ? plan.zeroShardSize : dp;
  GroupPlacement shardGroup = dpGroup, replicaGroup;
  if (shards < dp) {
    shardGroup.size = shards;
    shardGroup.perNode = std::min(shards, dpGroup.perNode);
    replicaGroup.size = dp / shards;
    replicaGroup.perNode =
        shards >= dpGroup.perNode ? 1 : dpGroup.perNode / shards;
  }
  const double buffers =
      2 * scale * profile.largestMessageBytes + profile.workspaceBytes;
  double worstTail = 0;
  for (int64_t s = 0; s < p; ++s) {
    double params = 0, grads = 0, state = 0, acts = 0, rankBackward = 0,
           optimizer = 0, expertGrads = 0, unsplitGrads = 0;
    for (int64_t c = 0; c < v; ++c) {
      int64_t k = c * p + s;
      const UnitCost &u = stageUnits[k];
      // Each ep member holds 1/ep of the experts' tables, their gradients
      // and their optimizer state.
      const double kept = 1.0 - 1.0 / double(epGroup.size);
      params += u.parameterBytes - kept * u.expertParameterBytes;
      grads += u.gradientBytes - kept * u.expertGradientBytes;
      expertGrads += u.expertGradientBytes / double(epGroup.size);
      unsplitGrads += u.gradientBytes;
      state += u.optimizerStateBytes - kept * u.expertOptimizerStateBytes;
      // (Under cp the gathered keys and values are kept whole, unless
      // full recompute keeps only the layers' inputs or ring attention
      // never gathers them.)
      // Grouped-query k and v are kept repeated under cp.
      const bool cpKeepsKeys =
          cp > 1 && plan.recompute != RecomputePolicy::Full;
      double perMicrobatch =
          scale * u.activationBytes +
          (cpKeepsKeys ? scale * u.keyValueRepeatBytes : 0.0) +
          (cpKeepsKeys && !ring ? (sequences - scale) * u.keyValueBytes : 0.0);
      if (!model.training) {
        // Inference keeps no activations: the largest unit's working set.
        perMicrobatch =
            scale * std::max({profile.layer.activationBytes,
                              k == 0 ? profile.prologue.activationBytes : 0.0,
                              k == stages - 1 ? profile.epilogue.activationBytes
                                              : 0.0});
      }
      acts += perMicrobatch * (model.training ? flight[k] : 1);
      rankBackward += times.backward[k];
      // The update of this member's experts only.
      const double expertShare = u.parameterBytes > 0
                                     ? u.expertParameterBytes / u.parameterBytes
                                     : 0.0;
      optimizer += u.optimizerSeconds * (1.0 - kept * expertShare);
    }
    // The share of the gradients a data-parallel reduction packs: under ep
    // the experts' only where dp x cp reduces them.
    const double packed =
        unsplitGrads > 0
            ? (grads - (dp * cp > 1 ? 0.0 : expertGrads)) / unsplitGrads
            : 1.0;
    const double wholeParams = params, wholeGrads = grads;
    // What ZeRO's stage 3 gathers (the forward computes in the model's
    // precision from f32 master shards) and the most of it gathered at once.
    const double gatherScale = model.precision == Precision::F32 ? 1.0 : 0.5;
    double gathered = 0;
    if (plan.zero > 0) {
      state /= shards;
      optimizer /= shards;
      // The update reads the reduce-scattered gradients' shard; stage 1
      // sums a pipeline's micro-batches in whole gradients first.
      if (plan.zero >= 2 || plan.microbatches == 1)
        grads /= shards;
    }
    if (plan.zero == 3) {
      params /= shards;
      // Each layer's copy lives from its gather to its phase's last read:
      // the layer running and `prefetch` more (under pp, gathered where
      // each micro-batch's action reads it: the layer running), with the
      // larger end (a tied embedding's copy).
      const int64_t ahead = p > 1 ? 0 : plan.zeroPrefetch;
      gathered =
          std::min(wholeParams, (1 + ahead) * profile.layer.parameterBytes +
                                    std::max(profile.prologue.parameterBytes,
                                             profile.epilogue.parameterBytes)) *
          gatherScale;
    }
    double exposed = 0;
    if (model.training && dp * cp * epGroup.size > 1) {
      // The gradients packed into buckets and out.
      int64_t rankLayers = 0;
      for (int64_t c = 0; c < v; ++c)
        rankLayers += times.layers[c * p + s];
      double perLayer = plan.zero == 3  ? profile.zero3LayerSeconds
                        : plan.zero > 0 ? profile.zeroLayerSeconds
                                        : profile.dataParallelLayerSeconds;
      double rest = plan.zero == 3  ? profile.zero3RestSeconds
                    : plan.zero > 0 ? profile.zeroRestSeconds
                                    : profile.dataParallelRestSeconds;
      // (As much of it as the gradients packed.)
      optimizer +=
          packed * (rankLayers * perLayer +
                    (s == 0 || s == p - 1 ? rest / (p > 1 ? 2 : 1) : 0.0));
      // The last micro-batch's backward hides the reduction it overlaps
      // where the runtime overlaps collectives.
      double lastBackward =
          cluster.device.overlapsCollectives ? rankBackward : 0.0;
      // (Reduce-scatters and all-gathers priced by their whole tensors;
      // hybrid: the shards then all-reduced across the groups.)
      // (Under cp the shards are also summed over cp.)
      const double scatter =
          allGatherSeconds(cluster, shardGroup, wholeGrads) +
          allReduceSeconds(cluster, replicaGroup, wholeGrads / shards) +
          allReduceSeconds(cluster, cpGroup, wholeGrads / shards);
      if (plan.zero == 0) {
        exposed = std::max(
            0.0,
            allReduceSeconds(cluster, gradientGroup, grads - expertGrads) +
                allReduceSeconds(cluster, expertGradientGroup, expertGrads) -
                lastBackward);
      } else if (plan.zero < 3) {
        // Stage 2 reduce-scatters every micro-batch's gradients, each
        // overlapping the backward after it; then the updated parameters
        // are gathered.
        double scatters =
            plan.zero == 2 ? plan.microbatches * scatter : scatter;
        exposed = std::max(0.0, scatters - lastBackward) +
                  allGatherSeconds(cluster, shardGroup, wholeParams);
      } else {
        // Stage 3 gathers the parameters before the forward and again
        // before the backward (prefetched: they overlap the layers before
        // them but the first), and reduce-scatters the gradients; nothing
        // is gathered after the update.
        double gather =
            allGatherSeconds(cluster, shardGroup, wholeParams * gatherScale);
        double firstLayer = allGatherSeconds(
            cluster, shardGroup, profile.layer.parameterBytes * gatherScale);
        double forward = 0;
        for (int64_t c = 0; c < v; ++c)
          forward += times.forward[c * p + s];
        double overlapForward =
            cluster.device.overlapsCollectives ? forward : 0.0;
        if (p > 1)
          // Under pp every micro-batch gathers its stage's parameters
          // where its actions read them (no prefetch): all of it exposed.
          exposed = 2 * plan.microbatches * gather +
                    std::max(0.0, scatter - lastBackward);
        else
          exposed = firstLayer + std::max(0.0, gather - overlapForward) +
                    std::max(0.0, gather + scatter - lastBackward);
      }
    }
    double total = params + grads + state + acts + buffers + gathered;
    if (total > out.peakMemoryBytes) {
      out.peakMemoryBytes = total;
      // (Stage 3: the shard and the copies gathered at once.)
      out.parameterBytes = params + gathered;
      out.gradientBytes = grads;
      out.optimizerStateBytes = state;
      out.activationBytes = acts;
      out.bufferBytes = buffers;
    }
    if (exposed + optimizer >= worstTail) {
      worstTail = exposed + optimizer;
      out.exposedDataParallelSeconds = exposed;
      out.optimizerSeconds = optimizer;
    }
  }
  if (gradientGroup.crossesNodes())
    out.exposedInterSeconds += out.exposedDataParallelSeconds;
  else
    out.exposedIntraSeconds += out.exposedDataParallelSeconds;
  // The tensor-parallel collectives of the busiest stage, every micro-batch.
  GroupPlacement tpGroup = placementOf(plan, "tp", cluster.devicesPerNode);
  double tpSeconds = 0;
  for (int64_t k = 0; k < stages; ++k)
    tpSeconds = std::max(
        tpSeconds, tensorParallelSeconds(plan, stageUnits[k], scale, false) +
                       (model.training ? tensorParallelSeconds(
                                             plan, stageUnits[k], scale, true)
                                       : 0.0));
  tpSeconds *= plan.microbatches;
  (tpGroup.crossesNodes() ? out.exposedInterSeconds
                          : out.exposedIntraSeconds) += tpSeconds;
  double sent = 0;
  for (double t : times.transfer)
    sent = std::max(sent, t);
  (ppGroup.crossesNodes() ? out.exposedInterSeconds
                          : out.exposedIntraSeconds) +=
      sent * plan.microbatches * (model.training ? 2 : 1);
  // Per pipeline rank, its layers (all chunks).
  out.stageLayers.assign(p, 0);
  for (int64_t k = 0; k < stages; ++k)
    out.stageLayers[k % p] += times.layers[k];
}

double PlanEvaluator::lowerBound(const ParallelPlan &plan,
                                 const PlanPrediction &partial,
                                 const StageTimes &times) const {
  const int64_t p = plan.size("pp");
  double busiest = 0;
  for (int64_t s = 0; s < p; ++s) {
    double busy = 0;
    for (int64_t c = 0; c < plan.virtualStages; ++c)
      busy += times.forward[c * p + s] + times.backward[c * p + s];
    busiest = std::max(busiest, busy);
  }
  return busiest * plan.microbatches + partial.exposedDataParallelSeconds +
         partial.optimizerSeconds;
}

void PlanEvaluator::finish(const ParallelPlan &plan, PlanPrediction &out,
                           const StageTimes &times,
                           std::vector<SimulatedAction> *actions) const {
  const int64_t p = plan.size("pp");
  if (p == 1) {
    out.pipelineSeconds =
        plan.microbatches * (times.forward[0] + times.backward[0]);
    out.bubble = 0;
    for (int64_t i = 0; actions && i < plan.microbatches; ++i) {
      double start = i * (times.forward[0] + times.backward[0]);
      actions->push_back(
          {0, 0, i, PipelinePhase::Forward, start, start + times.forward[0]});
      if (times.backward[0] > 0)
        actions->push_back({0, 0, i, PipelinePhase::Backward,
                            start + times.forward[0],
                            start + times.forward[0] + times.backward[0]});
    }
  } else {
    ScheduleResult r = simulateSchedule(
        times.forward, times.backward, plan.microbatches,
        model.training ? plan.schedule : PipelineSchedule::GPipe,
        times.transfer, plan.virtualStages, actions);
    out.pipelineSeconds = r.makespan;
    out.bubble = r.bubble;
  }
  out.stepSeconds = out.pipelineSeconds + out.exposedDataParallelSeconds +
                    out.optimizerSeconds;
  for (int64_t s = 0; actions && s < p && out.stepSeconds > out.pipelineSeconds;
       ++s)
    actions->push_back(
        {s, 0, -1, PipelinePhase::Once, out.pipelineSeconds, out.stepSeconds});
  const double sequences = double(request.globalBatch);
  out.tokensPerSecond = sequences * model.sequence / out.stepSeconds;
  double flops = model.flopsPerSequence * sequences;
  out.tflopsPerDevice = flops / out.stepSeconds / cluster.ranks() / 1e12;
  double peak = model.precision == Precision::F32
                    ? cluster.device.peakF32
                    : cluster.device.peakLowPrecision;
  out.mfu = out.tflopsPerDevice * 1e12 / peak;
}

std::optional<PlanPrediction>
PlanEvaluator::evaluate(const ParallelPlan &plan, std::string *error,
                        std::vector<SimulatedAction> *actions) const {
  const TensorParallelProfile *profile = nullptr;
  std::string why = check(plan, profile);
  if (!why.empty()) {
    if (error)
      *error = std::move(why);
    return std::nullopt;
  }
  PlanPrediction out;
  StageTimes times;
  prepare(plan, *profile, out, times);
  finish(plan, out, times, actions);
  return out;
}

std::optional<PlanPrediction>
mlir::paracc::predictPlan(const ModelProfile &model, const PlanRequest &request,
                          const ParallelPlan &plan, std::string &error) {
  return PlanEvaluator(model, request).evaluate(plan, &error);
}

std::vector<SimulatedAction>
mlir::paracc::simulatePlanStep(const ModelProfile &model,
                               const PlanRequest &request,
                               const ParallelPlan &plan) {
  std::vector<SimulatedAction> actions;
  PlanEvaluator(model, request).evaluate(plan, nullptr, &actions);
  return actions;
}

/// Divisors of n, ascending.
static std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> d;
  for (int64_t i = 1; i * i <= n; ++i)
    if (n % i == 0) {
      d.push_back(i);
      if (i != n / i)
        d.push_back(n / i);
    }
  llvm::sort(d);
  return d;
}

/// Every plan of the search space (unchecked).
static std::vector<ParallelPlan> enumeratePlans(const ModelProfile &model,
                                                const PlanRequest &request) {
  std::vector<ParallelPlan> plans;
  const int64_t ranks = request.cluster.ranks();
  llvm::SmallVector<int64_t> tps;
  for (const TensorParallelProfile &p : model.profiles)
    if (!llvm::is_contained(tps, p.tp) && ranks % p.tp == 0)
      tps.push_back(p.tp);
  std::vector<RecomputePolicy> recomputes = {RecomputePolicy::None};
  if (model.training)
    recomputes = {RecomputePolicy::None, RecomputePolicy::Selective,
                  RecomputePolicy::Full};
  // Context parallelism where the model has attention and its sequence
  // makes 2 cp chunks of at least 512 tokens.
  const bool attention =
      !model.profiles.empty() && model.profiles.front().layer.attentions > 0;
  auto cpDegrees = [&](int64_t n) {
    std::vector<int64_t> degrees;
    for (int64_t cp : divisors(n))
      if (cp == 1 || (attention && model.sequence % (2 * cp) == 0 &&
                      model.sequence / (2 * cp) >= 512))
        degrees.push_back(cp);
    return degrees;
  };
  for (int64_t tp : tps)
    for (int64_t cp : cpDegrees(ranks / tp))
      for (int64_t pp : divisors(ranks / tp / cp))
        // Expert parallelism within the data-parallel ranks: ep divides
        // them and the experts.
        for (int64_t ep : divisors(ranks / tp / cp / pp)) {
          if (pp > model.layers || (pp > 1 && !request.allowPipeline))
            continue;
          if (ep > 1 && (model.experts == 0 || model.experts % ep != 0 ||
                         !request.allowExpertParallel))
            continue;
          int64_t dataParallel = ranks / tp / cp / pp;
          if (request.globalBatch % dataParallel != 0)
            continue;
          int64_t local = request.globalBatch / dataParallel;
          int64_t dp = dataParallel / ep;
          // The mesh's axis orders (distinct ones only).
          std::vector<std::vector<std::pair<std::string, int64_t>>> orders;
          std::vector<std::pair<std::string, int64_t>> axes = {
              {"dp", dp}, {"pp", pp}, {"tp", tp}};
          llvm::sort(axes);
          std::vector<std::string> seen;
          // On one node every order lies on the same links.
          const bool oneNode = request.cluster.nodes == 1;
          do {
            if (oneNode && !orders.empty())
              break;
            std::string key;
            for (const auto &[name, size] : axes)
              if (size > 1)
                key += name + ",";
            if (llvm::is_contained(seen, key))
              continue;
            seen.push_back(key);
            orders.push_back(axes);
          } while (std::next_permutation(axes.begin(), axes.end()));
          // cp's ranks lie just outside tp's (its all-gathers are the larger
          // messages after tp's).
          if (cp > 1)
            for (auto &order : orders)
              order.insert(
                  llvm::find_if(order,
                                [](const auto &a) { return a.first == "tp"; }),
                  {"cp", cp});
          // ep's just inside dp's (its exchanges every layer are the larger
          // traffic; dp's reduction is once a step).
          if (ep > 1)
            for (auto &order : orders)
              order.insert(
                  std::next(llvm::find_if(
                      order, [](const auto &a) { return a.first == "dp"; })),
                  {"ep", ep});
          for (const auto &order : orders) {
            // ZeRO over all of dp, and, when dp crosses nodes, hybrid: shard
            // within a node's dp ranks, replicate across nodes.
            std::vector<int64_t> shardSizes = {0};
            {
              SmallVector<int64_t> sizes;
              size_t dpIndex = 0;
              for (auto [i, axis] : llvm::enumerate(order)) {
                sizes.push_back(axis.second);
                if (axis.first == "dp")
                  dpIndex = i;
              }
              GroupPlacement g =
                  placeAxis(sizes, dpIndex, request.cluster.devicesPerNode);
              if (g.crossesNodes() && g.perNode > 1)
                shardSizes.push_back(g.perNode);
            }
            for (int64_t mbs : divisors(local)) {
              int64_t m = local / mbs;
              if (pp == 1 && m != 1)
                continue;
              // Under cp a rank holding more than one sequence flattens them
              // with its block of the sequence into the weight gradients' rows,
              // which gathers activations in the backward: one sequence per
              // micro-batch.
              if (cp > 1 && mbs > 1)
                continue;
              std::vector<std::pair<PipelineSchedule, int64_t>> schedules = {
                  {kDefaultPipelineSchedule, 1}};
              if (pp > 1 && model.training) {
                schedules = {{PipelineSchedule::GPipe, 1},
                             {PipelineSchedule::OneFOneB, 1},
                             {PipelineSchedule::ZeroBubbleH1, 1}};
                for (int64_t v : {2, 4})
                  if (m % pp == 0 && pp * v <= model.layers)
                    schedules.push_back({PipelineSchedule::Interleaved, v});
              }
              for (auto [schedule, v] : schedules)
                for (RecomputePolicy recompute : recomputes)
                  for (bool sp : {false, true}) {
                    if (sp && tp == 1)
                      continue;
                    for (int64_t zero : {0, 1, 2, 3})
                      for (int64_t shardSize : shardSizes) {
                        if (zero && (!model.optimizer || dp == 1))
                          continue;
                        if (shardSize && !zero)
                          continue;
                        // Without micro-batches stage 2 is stage 1's program.
                        if (zero == 2 && m == 1)
                          continue;
                        ParallelPlan plan;
                        plan.axes = order;
                        plan.sequenceParallel = sp;
                        plan.microbatches = m;
                        plan.microBatchSize = mbs;
                        plan.schedule = schedule;
                        plan.virtualStages = v;
                        plan.recompute = recompute;
                        plan.zero = zero;
                        plan.zeroShardSize = shardSize;
                        // Over cp: all-gather, and ring attention.
                        if (cp > 1) {
                          ParallelPlan ringPlan = plan;
                          ringPlan.cpAttention = CpAttention::Ring;
                          plans.push_back(std::move(ringPlan));
                        }
                        plans.push_back(std::move(plan));
                      }
                  }
            }
          }
        }
  return plans;
}

/// Whether two plans differ at most in the order of their mesh axes.
static bool sameButOrder(const ParallelPlan &a, const ParallelPlan &b) {
  for (StringRef axis : {"dp", "ep", "pp", "cp", "tp"})
    if (a.size(axis) != b.size(axis))
      return false;
  return a.sequenceParallel == b.sequenceParallel &&
         a.microbatches == b.microbatches &&
         a.microBatchSize == b.microBatchSize && a.schedule == b.schedule &&
         a.virtualStages == b.virtualStages && a.recompute == b.recompute &&
         a.zero == b.zero && a.zeroShardSize == b.zeroShardSize &&
         a.cpAttention == b.cpAttention;
}

/// Why `next` is slower than `best`, in words.
static std::string explainLoss(const PlanCandidate &best,
                               const PlanCandidate &next) {
  const PlanPrediction &b = best.predicted, &n = next.predicted;
  std::string why =
      "the next best (" + next.plan.describe(true) + ") is " +
      llvm::formatv("{0:F1}", 100 * (n.stepSeconds / b.stepSeconds - 1)).str() +
      " % slower";
  struct Part {
    const char *what;
    double delta;
  };
  Part parts[] = {
      {"pipeline bubble",
       n.bubble * n.pipelineSeconds - b.bubble * b.pipelineSeconds},
      {"exposed inter-node communication",
       n.exposedInterSeconds - b.exposedInterSeconds},
      {"exposed intra-node communication",
       n.exposedIntraSeconds - b.exposedIntraSeconds},
      {"optimizer", n.optimizerSeconds - b.optimizerSeconds},
      {"compute", (n.pipelineSeconds * (1 - n.bubble)) -
                      (b.pipelineSeconds * (1 - b.bubble)) -
                      (n.exposedIntraSeconds + n.exposedInterSeconds -
                       n.exposedDataParallelSeconds) +
                      (b.exposedIntraSeconds + b.exposedInterSeconds -
                       b.exposedDataParallelSeconds)},
  };
  const Part *worst = &parts[0];
  for (const Part &p : parts)
    if (p.delta > worst->delta)
      worst = &p;
  if (worst->delta > 0)
    why += llvm::formatv(", mostly {0} (+{1:F2} ms)", worst->what,
                         worst->delta * 1e3)
               .str();
  return why;
}

/// Fills `result.pareto` from `result.points` (plans `plans`): by memory
/// ascending, a plan is on the front when it is faster than every plan
/// before it. A point the search only bounded is simulated when its bound
/// could put it on the front (and its point made exact).
static void findParetoFront(const PlanEvaluator &evaluator,
                            llvm::ArrayRef<const ParallelPlan *> plans,
                            PlanSearchResult &result) {
  std::vector<size_t> order(result.points.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    const PlanPoint &x = result.points[a], &y = result.points[b];
    return std::tie(x.peakMemoryBytes, x.stepSeconds) <
           std::tie(y.peakMemoryBytes, y.stepSeconds);
  });
  double fastest = std::numeric_limits<double>::infinity();
  for (size_t i : order) {
    PlanPoint &point = result.points[i];
    if (point.stepSeconds >= fastest)
      continue;
    // Every point passed check in the search.
    PlanPrediction out = *evaluator.evaluate(*plans[i]);
    point = {out.stepSeconds, out.peakMemoryBytes, false};
    if (out.stepSeconds >= fastest)
      continue;
    fastest = out.stepSeconds;
    result.pareto.push_back({*plans[i], out});
  }
}

PlanSearchResult mlir::paracc::searchPlans(const ModelProfile &model,
                                           const PlanRequest &request) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  PlanSearchResult result;
  PlanEvaluator evaluator(model, request);
  std::vector<ParallelPlan> plans =
      request.fixed ? std::vector<ParallelPlan>{*request.fixed}
                    : enumeratePlans(model, request);
  result.enumerated = plans.size();
  const size_t keep = std::max<int64_t>(request.top, 2);
  const double usable = double(request.cluster.usableBytes());
  auto lastReport = start;
  int64_t index = 0;
  std::optional<PlanCandidate> fastestOverMemory;
  double fastestOverMemoryBound = std::numeric_limits<double>::infinity();
  // Per point, the plan it is.
  std::vector<const ParallelPlan *> pointPlans;
  for (const ParallelPlan &plan : plans) {
    ++index;
    if (request.progress &&
        Clock::now() - lastReport > std::chrono::seconds(1)) {
      lastReport = Clock::now();
      request.progress(index, plans.size(),
                       result.candidates.empty()
                           ? 0
                           : result.candidates.front().predicted.stepSeconds);
    }
    const TensorParallelProfile *profile = nullptr;
    if (!evaluator.check(plan, profile).empty())
      continue;
    PlanPrediction out;
    StageTimes times;
    evaluator.prepare(plan, *profile, out, times);
    if (out.peakMemoryBytes > usable) {
      ++result.overMemory;
      if (!result.smallest ||
          out.peakMemoryBytes < result.smallest->predicted.peakMemoryBytes)
        result.smallest = PlanCandidate{plan, out};
      // The over-memory plan that promises most, simulated at the end.
      double bound = evaluator.lowerBound(plan, out, times);
      if (bound < fastestOverMemoryBound) {
        fastestOverMemoryBound = bound;
        fastestOverMemory = PlanCandidate{plan, out};
      }
      continue;
    }
    pointPlans.push_back(&plan);
    if (result.candidates.size() >= keep) {
      double bound = evaluator.lowerBound(plan, out, times);
      if (bound >= result.candidates.back().predicted.stepSeconds) {
        result.points.push_back({bound, out.peakMemoryBytes, true});
        continue;
      }
    }
    evaluator.finish(plan, out, times);
    ++result.evaluated;
    result.points.push_back({out.stepSeconds, out.peakMemoryBytes, false});
    // The same plan with its axes in another order, on the same links.
    if (llvm::any_of(result.candidates, [&](const PlanCandidate &c) {
          return sameButOrder(c.plan, plan) &&
                 c.predicted.stepSeconds == out.stepSeconds &&
                 c.predicted.peakMemoryBytes == out.peakMemoryBytes;
        }))
      continue;
    PlanCandidate c{plan, out};
    auto at = llvm::upper_bound(
        result.candidates, c,
        [](const PlanCandidate &a, const PlanCandidate &b) {
          return a.predicted.stepSeconds < b.predicted.stepSeconds;
        });
    result.candidates.insert(at, std::move(c));
    if (result.candidates.size() > keep)
      result.candidates.pop_back();
  }
  if (result.candidates.size() > size_t(std::max<int64_t>(request.top, 1)))
    result.candidates.resize(std::max<int64_t>(request.top, 1));
  if (!result.candidates.empty())
    result.smallest.reset();
  if (result.candidates.size() >= 2)
    result.whyNotNext = explainLoss(result.candidates[0], result.candidates[1]);
  if (fastestOverMemory && !result.candidates.empty()) {
    PlanPrediction out = *evaluator.evaluate(fastestOverMemory->plan);
    if (out.stepSeconds < result.candidates.front().predicted.stepSeconds)
      result.fasterOverMemory = PlanCandidate{fastestOverMemory->plan, out};
  }
  findParetoFront(evaluator, pointPlans, result);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

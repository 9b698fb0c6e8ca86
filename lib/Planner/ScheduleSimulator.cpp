//===- ScheduleSimulator.cpp - Pipeline schedule makespan and bubble -*- C++
//-*-===//
//
// Plays a pipeline schedule action by action: every stage has its list of
// forwards and backwards in the schedule's order, and runs the next one as
// soon as the stage is free and the action's input (the previous stage's
// activation, the next stage's gradient) has arrived. Under interleaving a
// rank holds several virtual stages and its list names the chunk of each
// action; the inputs come from the neighbouring virtual stages.
//
//===----------------------------------------------------------------------===//

#include "paracc/Planner/StagePartition.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::paracc;

std::string mlir::paracc::checkScheduleShape(PipelineSchedule schedule,
                                             int64_t stages,
                                             int64_t virtualStages,
                                             int64_t microbatches) {
  if (virtualStages < 1)
    return "expected at least 1 virtual stage per rank, got " +
           std::to_string(virtualStages);
  if (schedule != PipelineSchedule::Interleaved) {
    if (virtualStages > 1)
      return "virtual stages need the 'interleaved' schedule (the '" +
             stringifyOption(schedule).str() +
             "' schedule runs one stage per rank)";
    return "";
  }
  if (stages < 2)
    return "the 'interleaved' schedule needs a pipeline of at least 2 "
           "stages, got " +
           std::to_string(stages);
  if (microbatches % stages != 0)
    return "the 'interleaved' schedule runs the micro-batches in groups of "
           "the " +
           std::to_string(stages) + " stages: " + std::to_string(microbatches) +
           " micro-batch(es) is not a multiple of " + std::to_string(stages);
  return "";
}

int64_t mlir::paracc::scheduleInFlight(llvm::ArrayRef<ScheduledAction> order,
                                       PipelineSchedule schedule,
                                       int64_t chunk) {
  // The activations go with the micro-batch's last backward part.
  PipelinePhase last = schedule == PipelineSchedule::ZeroBubbleH1
                           ? PipelinePhase::Weight
                           : PipelinePhase::Backward;
  int64_t now = 0, most = 0;
  for (const ScheduledAction &a : order) {
    if (chunk >= 0 && a.chunk != chunk)
      continue;
    if (a.phase == PipelinePhase::Forward)
      most = std::max(most, ++now);
    else if (a.phase == last)
      --now;
  }
  return most;
}

/// Megatron-LM's interleaved 1F1B for rank `s`: the k-th forward (and
/// backward) of the rank is micro-batch (k / pv) p + k mod p of chunk
/// (k mod pv) / p (backwards: from the last chunk).
static std::vector<ScheduledAction> interleavedOrder(int64_t s, int64_t p,
                                                     int64_t m, int64_t v,
                                                     bool withBackward) {
  using P = PipelinePhase;
  const int64_t total = m * v;
  auto at = [&](int64_t k, P phase) {
    int64_t inGroup = k % (p * v);
    int64_t chunk = inGroup / p;
    if (phase != P::Forward)
      chunk = v - 1 - chunk;
    return ScheduledAction{(k / (p * v)) * p + inGroup % p, phase, chunk};
  };
  std::vector<ScheduledAction> order;
  if (!withBackward) {
    for (int64_t k = 0; k < total; ++k)
      order.push_back(at(k, P::Forward));
    return order;
  }
  int64_t warmup = std::min(2 * (p - s - 1) + (v - 1) * p, total);
  int64_t nextForward = 0, nextBackward = 0;
  for (; nextForward < warmup; ++nextForward)
    order.push_back(at(nextForward, P::Forward));
  for (; nextForward < total; ++nextForward) {
    order.push_back(at(nextForward, P::Forward));
    order.push_back(at(nextBackward++, P::Backward));
  }
  for (; nextBackward < total; ++nextBackward)
    order.push_back(at(nextBackward, P::Backward));
  return order;
}

std::vector<ScheduledAction>
mlir::paracc::scheduleOrder(int64_t s, int64_t p, int64_t m,
                            PipelineSchedule schedule, bool withBackward,
                            int64_t virtualStages) {
  using P = PipelinePhase;
  if (schedule == PipelineSchedule::Interleaved)
    return interleavedOrder(s, p, m, virtualStages, withBackward);
  std::vector<ScheduledAction> order;
  if (!withBackward || schedule == PipelineSchedule::GPipe) {
    for (int64_t i = 0; i < m; ++i)
      order.push_back({i, P::Forward});
    if (withBackward)
      for (int64_t i = 0; i < m; ++i)
        order.push_back({i, P::Backward});
    return order;
  }
  // 1F1B: warm-up forwards, then a backward and a forward alternately,
  // then the cool-down backwards; zb-h1 adds each weight gradient `delay`
  // backwards later. A later stage defers more: its backwards are what the
  // earlier stages wait for, and the s deferred weight gradients keep at
  // most p micro-batches in flight on every stage, 1F1B's first stage's.
  const bool zeroBubble = schedule == PipelineSchedule::ZeroBubbleH1;
  const int64_t delay = s;
  int64_t warmup = std::min(p - s, m);
  int64_t nextForward = 0, nextBackward = 0, nextWeight = 0;
  for (; nextForward < warmup; ++nextForward)
    order.push_back({nextForward, P::Forward});
  while (nextBackward < m) {
    order.push_back({nextBackward++, P::Backward});
    if (zeroBubble && nextBackward - 1 - nextWeight >= delay)
      order.push_back({nextWeight++, P::Weight});
    if (nextForward < m)
      order.push_back({nextForward++, P::Forward});
  }
  while (zeroBubble && nextWeight < m)
    order.push_back({nextWeight++, P::Weight});
  return order;
}

std::vector<int64_t> mlir::paracc::stagesInFlight(const PipelinePlan &plan) {
  const int64_t n = int64_t(plan.stages.size());
  const int64_t v = std::max<int64_t>(plan.virtualStages, 1), p = n / v;
  std::vector<int64_t> inFlight;
  for (int64_t k = 0; k < n; ++k)
    inFlight.push_back(scheduleInFlight(
        scheduleOrder(k % p, p, plan.microbatches, plan.schedule,
                      /*withBackward=*/true, v),
        plan.schedule, /*chunk=*/k / p));
  return inFlight;
}

ScheduleResult mlir::paracc::simulateSchedule(
    llvm::ArrayRef<double> forward, llvm::ArrayRef<double> backward,
    int64_t microbatches, PipelineSchedule schedule,
    llvm::ArrayRef<double> transfer, int64_t virtualStages,
    std::vector<SimulatedAction> *actions) {
  ScheduleResult result;
  const int64_t stages = forward.size(), m = microbatches;
  const int64_t v = std::max<int64_t>(virtualStages, 1), p = stages / v;
  if (p == 0 || m <= 0 || p * v != stages)
    return result;
  bool withBackward = llvm::any_of(backward, [](double b) { return b > 0; });
  auto backwardOf = [&](int64_t k) {
    return k < int64_t(backward.size()) ? backward[k] : 0.0;
  };
  auto transferAfter = [&](int64_t k) {
    return k < int64_t(transfer.size()) ? transfer[k] : 0.0;
  };

  // zb-h1: the backward's halves, input and weight gradients.
  const bool split = schedule == PipelineSchedule::ZeroBubbleH1;
  std::vector<std::vector<ScheduledAction>> orders;
  for (int64_t s = 0; s < p; ++s)
    orders.push_back(scheduleOrder(s, p, m, schedule, withBackward, v));
  // Per virtual stage, finish times, -1 until done.
  std::vector<std::vector<double>> forwardDone(stages,
                                               std::vector<double>(m, -1)),
      backwardDone(stages, std::vector<double>(m, -1));
  auto duration = [&](const ScheduledAction &a, int64_t k) {
    switch (a.phase) {
    case PipelinePhase::Forward:
      return forward[k];
    case PipelinePhase::Backward:
      return split ? backwardOf(k) / 2 : backwardOf(k);
    case PipelinePhase::Weight:
      return backwardOf(k) / 2;
    case PipelinePhase::Once:
      break;
    }
    return 0.0;
  };
  std::vector<size_t> next(p, 0);
  std::vector<double> free(p, 0);

  bool progress = true;
  while (progress) {
    progress = false;
    for (int64_t s = 0; s < p; ++s) {
      while (next[s] < orders[s].size()) {
        ScheduledAction a = orders[s][next[s]];
        const int64_t k = a.chunk * p + s;
        double ready = 0;
        if (a.phase == PipelinePhase::Forward) {
          if (k > 0) {
            if (forwardDone[k - 1][a.microbatch] < 0)
              break;
            ready = forwardDone[k - 1][a.microbatch] + transferAfter(k - 1);
          }
        } else if (a.phase == PipelinePhase::Backward && k + 1 < stages) {
          if (backwardDone[k + 1][a.microbatch] < 0)
            break;
          ready = backwardDone[k + 1][a.microbatch] + transferAfter(k);
        }
        double start = std::max(free[s], ready);
        double end = start + duration(a, k);
        if (a.phase == PipelinePhase::Forward)
          forwardDone[k][a.microbatch] = end;
        else if (a.phase == PipelinePhase::Backward)
          backwardDone[k][a.microbatch] = end;
        free[s] = end;
        if (actions)
          actions->push_back({s, a.chunk, a.microbatch, a.phase, start, end});
        ++next[s];
        progress = true;
      }
    }
  }
  for (int64_t s = 0; s < p; ++s)
    result.completes &= next[s] == orders[s].size();

  double busy = 0;
  for (int64_t k = 0; k < stages; ++k)
    busy += double(m) * (forward[k] + (withBackward ? backwardOf(k) : 0));
  for (int64_t s = 0; s < p; ++s)
    result.makespan = std::max(result.makespan, free[s]);
  if (result.makespan > 0)
    result.bubble = 1.0 - busy / (double(p) * result.makespan);
  return result;
}

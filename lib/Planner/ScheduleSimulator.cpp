//===- ScheduleSimulator.cpp - Pipeline schedule makespan and bubble -*- C++
//-*-===//
//
// Plays a pipeline schedule action by action: every stage has its list of
// forwards and backwards in the schedule's order, and runs the next one as
// soon as the stage is free and the action's input (the previous stage's
// activation, the next stage's gradient) has arrived.
//
//===----------------------------------------------------------------------===//

#include "paracc/Planner/StagePartition.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::paracc;

bool mlir::paracc::isKnownSchedule(llvm::StringRef schedule) {
  return schedule == "gpipe" || schedule == "1f1b" || schedule == "zb-h1";
}

int64_t mlir::paracc::scheduleInFlight(llvm::ArrayRef<ScheduledAction> order,
                                       llvm::StringRef schedule) {
  // The activations go with the micro-batch's last backward part.
  PipelinePhase last =
      schedule == "zb-h1" ? PipelinePhase::Weight : PipelinePhase::Backward;
  int64_t now = 0, most = 0;
  for (const ScheduledAction &a : order) {
    if (a.phase == PipelinePhase::Forward)
      most = std::max(most, ++now);
    else if (a.phase == last)
      --now;
  }
  return most;
}

std::vector<ScheduledAction>
mlir::paracc::scheduleOrder(int64_t s, int64_t p, int64_t m,
                            llvm::StringRef schedule, bool withBackward) {
  using P = PipelinePhase;
  std::vector<ScheduledAction> order;
  if (!withBackward || schedule == "gpipe") {
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
  const bool zeroBubble = schedule == "zb-h1";
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

ScheduleResult mlir::paracc::simulateSchedule(llvm::ArrayRef<double> forward,
                                              llvm::ArrayRef<double> backward,
                                              int64_t microbatches,
                                              llvm::StringRef schedule,
                                              llvm::ArrayRef<double> transfer) {
  ScheduleResult result;
  int64_t p = forward.size(), m = microbatches;
  if (p == 0 || m <= 0)
    return result;
  bool withBackward = llvm::any_of(backward, [](double b) { return b > 0; });
  auto backwardOf = [&](int64_t s) {
    return s < int64_t(backward.size()) ? backward[s] : 0.0;
  };
  auto transferAfter = [&](int64_t s) {
    return s < int64_t(transfer.size()) ? transfer[s] : 0.0;
  };

  // zb-h1: the backward's halves, input and weight gradients.
  const bool split = schedule == "zb-h1";
  std::vector<std::vector<ScheduledAction>> orders;
  for (int64_t s = 0; s < p; ++s)
    orders.push_back(scheduleOrder(s, p, m, schedule, withBackward));
  // Finish times, -1 until done.
  std::vector<std::vector<double>> forwardDone(p, std::vector<double>(m, -1)),
      backwardDone(p, std::vector<double>(m, -1));
  auto duration = [&](const ScheduledAction &a, int64_t s) {
    switch (a.phase) {
    case PipelinePhase::Forward:
      return forward[s];
    case PipelinePhase::Backward:
      return split ? backwardOf(s) / 2 : backwardOf(s);
    case PipelinePhase::Weight:
      return backwardOf(s) / 2;
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
        double ready = 0;
        if (a.phase == PipelinePhase::Forward) {
          if (s > 0) {
            if (forwardDone[s - 1][a.microbatch] < 0)
              break;
            ready = forwardDone[s - 1][a.microbatch] + transferAfter(s - 1);
          }
        } else if (a.phase == PipelinePhase::Backward && s + 1 < p) {
          if (backwardDone[s + 1][a.microbatch] < 0)
            break;
          ready = backwardDone[s + 1][a.microbatch] + transferAfter(s);
        }
        double start = std::max(free[s], ready);
        double end = start + duration(a, s);
        if (a.phase == PipelinePhase::Forward)
          forwardDone[s][a.microbatch] = end;
        else if (a.phase == PipelinePhase::Backward)
          backwardDone[s][a.microbatch] = end;
        free[s] = end;
        ++next[s];
        progress = true;
      }
    }
  }

  double busy = 0;
  for (int64_t s = 0; s < p; ++s) {
    busy += double(m) * (forward[s] + (withBackward ? backwardOf(s) : 0));
    result.makespan = std::max(result.makespan, free[s]);
  }
  if (result.makespan > 0)
    result.bubble = 1.0 - busy / (double(p) * result.makespan);
  return result;
}

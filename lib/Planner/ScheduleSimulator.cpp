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

namespace {
struct Action {
  bool backward;
  int64_t microbatch;
};
} // namespace

/// The order in which stage `s` of `p` runs its actions.
static std::vector<Action> stageOrder(int64_t s, int64_t p, int64_t m,
                                      bool withBackward, bool oneFOneB) {
  std::vector<Action> order;
  if (!withBackward || !oneFOneB) {
    for (int64_t i = 0; i < m; ++i)
      order.push_back({false, i});
    if (withBackward)
      for (int64_t i = 0; i < m; ++i)
        order.push_back({true, i});
    return order;
  }
  // 1F1B: warm-up forwards, then a backward and a forward alternately,
  // then the cool-down backwards.
  int64_t warmup = std::min(p - s, m);
  int64_t nextForward = 0, nextBackward = 0;
  for (; nextForward < warmup; ++nextForward)
    order.push_back({false, nextForward});
  while (nextBackward < m) {
    order.push_back({true, nextBackward++});
    if (nextForward < m)
      order.push_back({false, nextForward++});
  }
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

  std::vector<std::vector<Action>> orders;
  for (int64_t s = 0; s < p; ++s)
    orders.push_back(stageOrder(s, p, m, withBackward, schedule == "1f1b"));
  // Finish times, -1 until done.
  std::vector<std::vector<double>> forwardDone(p, std::vector<double>(m, -1)),
      backwardDone(p, std::vector<double>(m, -1));
  std::vector<size_t> next(p, 0);
  std::vector<double> free(p, 0);

  bool progress = true;
  while (progress) {
    progress = false;
    for (int64_t s = 0; s < p; ++s) {
      while (next[s] < orders[s].size()) {
        Action a = orders[s][next[s]];
        double ready = 0;
        if (!a.backward) {
          if (s > 0) {
            if (forwardDone[s - 1][a.microbatch] < 0)
              break;
            ready = forwardDone[s - 1][a.microbatch] + transferAfter(s - 1);
          }
        } else if (s + 1 < p) {
          if (backwardDone[s + 1][a.microbatch] < 0)
            break;
          ready = backwardDone[s + 1][a.microbatch] + transferAfter(s);
        }
        double start = std::max(free[s], ready);
        double end = start + (a.backward ? backwardOf(s) : forward[s]);
        (a.backward ? backwardDone : forwardDone)[s][a.microbatch] = end;
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

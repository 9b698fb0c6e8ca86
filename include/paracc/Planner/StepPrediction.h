//===- StepPrediction.h - The cost model's time of a whole step -*- C++ -*-===//
//
// What the cost model predicts for each function of a lowered program on
// one rank: its compute ops and its collectives and transfers, each at the
// device's rates, one after the other. The executable writer records the
// same per-op numbers on each instruction, so `--profile` shows the
// measured time next to them; `--explain` prints the totals per function.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_PLANNER_STEPPREDICTION_H
#define PARACC_PLANNER_STEPPREDICTION_H

#include "paracc/Planner/CostModel.h"

#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <string>
#include <vector>

namespace mlir::paracc {

/// One op as the cost model sees it.
struct OpPrediction {
  /// A compute op's FLOPs and bytes; a collective's traffic per rank as
  /// bytes.
  OpCost cost;
  double seconds = 0;
  bool collective = false;
  /// The part of a collective's `seconds` that computes (expert
  /// parallelism runs the experts between its exchanges).
  double computeSeconds = 0;
};

/// The cost of `op` at `rates`: a dist collective or transfer over its
/// group (the function's mesh), any other op by estimateCost.
OpPrediction predictOp(Operation *op, const DeviceRates &rates);

/// One function's predicted time on one rank.
/// What the instructions of one compute kind add up to.
struct ComputeKindTotals {
  int64_t ops = 0, flops = 0;
  double seconds = 0;
};

/// The name explain gives a compute kind ("products", "convolutions",
/// "attention", "attention backward", "other").
llvm::StringRef computeKindName(ComputeKind kind);

struct FunctionPrediction {
  std::string name;
  /// Its pipeline stage (-1: every rank runs it).
  int64_t stage = -1;
  double computeSeconds = 0, collectiveSeconds = 0;
  int64_t collectives = 0;
  /// The compute instructions by kind (indexed by ComputeKind).
  std::array<ComputeKindTotals, 5> byKind{};
};

struct StepPrediction {
  /// The rate table ("cpu", "h200").
  std::string rates;
  std::vector<FunctionPrediction> functions;
};

/// Every function of a lowered module (one, or one per pipeline stage).
StepPrediction predictStep(ModuleOp module, const DeviceRates &rates);

} // namespace mlir::paracc

#endif // PARACC_PLANNER_STEPPREDICTION_H

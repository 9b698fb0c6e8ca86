//===- StepMemoryPlan.h - A training step under a memory budget -*- C++ -*-===//
//
// paracc train's --recompute and --memory-budget: byte sizes as users write
// them, a compiled step's peak per rank (the written executable's memory
// plan plus what the executors add), and the search that compiles the step
// until its peak fits the budget.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DRIVER_STEPMEMORYPLAN_H
#define PARACC_DRIVER_STEPMEMORYPLAN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "paracc/Planner/Explain.h"
#include "paracc/runtime/Executable.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <vector>

namespace mlir::paracc {

/// A compiled training step.
struct CompiledStep {
  OwningOpRef<ModuleOp> module;
  std::vector<uint8_t> bytes;
  std::shared_ptr<::paracc::rt::Executable> exe;
  /// The categories, with the arena and peak of the rank that needs most.
  StepMemory memory;
  /// What recompute it was compiled with.
  RecomputePolicy policy = RecomputePolicy::None;
  int64_t activationBudget = -1;
};

/// The memory of `module`'s step with `exe`'s memory plan: the arena and
/// peak (arena + state + constants + workspace + communication) of the
/// function whose ranks need most, on `device` (auto: the CPU's, which has
/// no cuBLASLt workspace).
StepMemory measureStepMemory(ModuleOp module,
                             const ::paracc::rt::Executable &exe,
                             Device device);

/// Compiles the differentiated step under `policy` with, for auto, a
/// budget for the live activation bytes per rank (-1: none).
using StepCompiler = llvm::function_ref<FailureOr<CompiledStep>(
    RecomputePolicy policy, int64_t activationBudget)>;

/// The step for `policy` whose peak per rank stays within `memoryBudget`:
/// for auto the least recompute that fits (auto without a budget: the
/// `defaultBudget`); for the other policies the step itself, refused when
/// over a given budget. A budget even full recompute cannot meet is an
/// error naming the smallest peak and its largest category (to `err`).
/// `log` gets one line per compile that auto tries.
FailureOr<CompiledStep>
compileWithinBudget(RecomputePolicy policy, std::optional<int64_t> memoryBudget,
                    int64_t defaultBudget, StepCompiler compile,
                    llvm::raw_ostream &log, llvm::raw_ostream &err);

} // namespace mlir::paracc

#endif // PARACC_DRIVER_STEPMEMORYPLAN_H

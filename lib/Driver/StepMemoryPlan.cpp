//===- StepMemoryPlan.cpp - A training step under a memory budget ---------===//

#include "paracc/Driver/StepMemoryPlan.h"

#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::paracc;
namespace prt = ::paracc::rt;

/// A function's state shards and constants, in bytes (one rank's).
static int64_t residentBytes(const prt::Executable &exe,
                             const prt::FunctionInfo &f) {
  int64_t resident = 0;
  std::vector<bool> seen(exe.state().size(), false);
  for (const prt::WeightInfo &w : f.weights) {
    if (w.state < 0 || seen[w.state])
      continue;
    seen[w.state] = true;
    const prt::ValueType &t = f.values[w.value];
    resident += prt::shapeNumElements(t.shape) * prt::dtypeSize(t.dtype);
  }
  for (const prt::ConstantInfo &c : f.constants) {
    const prt::ValueType &t = f.values[c.value];
    resident += prt::shapeNumElements(t.shape) * prt::dtypeSize(t.dtype);
  }
  return resident;
}

StepMemory mlir::paracc::measureStepMemory(ModuleOp module,
                                           const prt::Executable &exe,
                                           Device device) {
  ExplainReport report = analyzePlan(module);
  StepMemory m = report.step.value_or(StepMemory());
  // The CPU backend has no cuBLASLt workspace.
  if (device != Device::Gpu)
    m.workspace = std::max<int64_t>(m.workspace - kGpuGemmWorkspaceBytes, 0);
  // The rank that needs most: a pipeline's stages differ.
  int64_t arena = 0, peak = 0;
  for (const prt::FunctionInfo &f : exe.functions()) {
    int64_t total = int64_t(f.arenaBytes) + residentBytes(exe, f);
    if (total > peak) {
      peak = total;
      arena = int64_t(f.arenaBytes);
    }
  }
  m.arena = arena;
  m.peak = peak + m.workspace + m.communication;
  return m;
}

/// The largest category of a step's peak, as "optimizer state 1.50 GiB".
static std::string largestCategory(const StepMemory &m) {
  std::pair<int64_t, const char *> parts[] = {
      {m.parameters, "parameters"},
      {m.optimizerState, "optimizer state"},
      {m.arena, "activations and gradients (the arena)"},
      {m.workspace, "workspace"},
      {m.communication, "communication buffers"}};
  auto *largest = std::max_element(
      std::begin(parts), std::end(parts),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  return std::string(largest->second) + " " +
         formatBytes(double(largest->first));
}

FailureOr<CompiledStep> mlir::paracc::compileWithinBudget(
    RecomputePolicy policy, std::optional<int64_t> memoryBudget,
    int64_t defaultBudget, StepCompiler compile, llvm::raw_ostream &log,
    llvm::raw_ostream &err) {
  auto overBudget = [&](const CompiledStep &step, int64_t budget) {
    err << "paracc: error: the step needs "
                 << formatBytes(double(step.memory.peak))
                 << " per rank with --recompute " << policy
                 << ", over --memory-budget " << formatBytes(double(budget))
                 << " (largest: " << largestCategory(step.memory)
                 << "); --recompute auto chooses what to recompute to fit\n";
  };
  if (policy != RecomputePolicy::Auto) {
    FailureOr<CompiledStep> step = compile(policy, -1);
    if (succeeded(step) && memoryBudget && step->memory.peak > *memoryBudget) {
      overBudget(*step, *memoryBudget);
      return failure();
    }
    return step;
  }

  const int64_t budget = memoryBudget.value_or(defaultBudget);
  FailureOr<CompiledStep> none = compile(RecomputePolicy::None, -1);
  if (failed(none))
    return failure();
  log << "recompute auto: keeping every activation needs "
      << formatBytes(double(none->memory.peak)) << " per rank, budget "
      << formatBytes(double(budget)) << "\n";
  if (none->memory.peak <= budget)
    return none;
  FailureOr<CompiledStep> full = compile(RecomputePolicy::Full, -1);
  if (failed(full))
    return failure();
  if (full->memory.peak > budget) {
    err << "paracc: error: --memory-budget "
                 << formatBytes(double(budget))
                 << " cannot be met: the smallest peak paracc reaches is "
                 << formatBytes(double(full->memory.peak))
                 << " per rank (--recompute full), of which the largest "
                    "part is "
                 << largestCategory(full->memory) << "\n";
    return failure();
  }
  // The state, constants and workspaces stay what they are: the budget
  // leaves the rest to the arena, which auto fits by the simulated
  // liveness of the step; each try that misses (the memory plan's
  // placement, what lowering adds) lowers it by the overshoot.
  // The pass's simulated liveness runs on the program before lowering and
  // without the plan's placement: none's step says by how much the arena
  // differs from it.
  const int64_t resident = none->memory.peak - none->memory.arena;
  int64_t offset = 0;
  if (std::optional<RecomputeSummary> r = readRecomputePlan(*none->module))
    offset = std::max<int64_t>(none->memory.arena - r->activationPeakBytes, 0);
  int64_t arena = budget - resident - offset;
  for (int attempt = 0; attempt < 4 && arena > 0; ++attempt) {
    FailureOr<CompiledStep> step = compile(RecomputePolicy::Auto, arena);
    if (failed(step))
      return failure();
    log << "recompute auto: live activations of at most "
        << formatBytes(double(arena)) << " give a peak of "
        << formatBytes(double(step->memory.peak)) << "\n";
    if (step->memory.peak <= budget)
      return step;
    arena -= step->memory.peak - budget + std::max<int64_t>(budget / 200, 1);
  }
  log << "recompute auto: using full recompute\n";
  return full;
}

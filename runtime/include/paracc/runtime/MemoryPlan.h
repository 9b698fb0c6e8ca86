//===- MemoryPlan.h - One arena for a program's activations ----*- C++ -*-===//
//
// Assigns every activation (program inputs and instruction results) an
// offset in one arena from the values' lifetimes, so that a backend makes
// one allocation and the peak is known before anything runs. A Reshape's
// result shares its operand's bytes, as does a GatherGrad's result with its
// accumulate operand when that dies there; a collective's operand stays
// reserved until its result is first read (it may still be in flight on
// another stream until then). Greedy by size (largest first), each value
// placed at the lowest offset not overlapping a value alive at the same
// time; 256-byte aligned.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_MEMORYPLAN_H
#define PARACC_RUNTIME_MEMORYPLAN_H

#include "paracc/runtime/Kernels.h"

#include <cstdint>
#include <vector>

namespace paracc::rt {

inline constexpr uint64_t kArenaAlignment = 256;
/// Offset of values that are not in the arena (weights, constants).
inline constexpr uint64_t kNotInArena = ~uint64_t(0);

/// One instruction as the planner sees it.
struct PlanInstr {
  OpCode opcode;
  std::vector<int32_t> inputs, outputs;
};

struct MemoryPlanResult {
  uint64_t arenaBytes = 0;
  /// Per value: its offset, or kNotInArena.
  std::vector<uint64_t> offsets;
};

/// Plans `valueBytes.size()` values: `arenaValues` marks those to place
/// (inputs and instruction results); `liveToEnd` those that must survive
/// the whole program (outputs).
MemoryPlanResult planArena(const std::vector<uint64_t> &valueBytes,
                           const std::vector<bool> &arenaValues,
                           const std::vector<bool> &liveToEnd,
                           const std::vector<PlanInstr> &instrs);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_MEMORYPLAN_H

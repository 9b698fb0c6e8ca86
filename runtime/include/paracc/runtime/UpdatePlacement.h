//===- UpdatePlacement.h - Optimizer updates written in place --*- C++ -*-===//
//
// Which state writes of a function an optimizer update may make straight
// into the state's own buffer: the GPU executor places them there, and the
// compiler leaves them out of the arena it plans. One rule for both, so
// that they agree.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_UPDATEPLACEMENT_H
#define PARACC_RUNTIME_UPDATEPLACEMENT_H

#include "paracc/runtime/MemoryPlan.h"

#include <cstdint>
#include <vector>

namespace paracc::rt {

/// A state buffer and a value of a function: the value the function reads
/// the state as, or the new value it writes to it.
struct StateValue {
  int32_t state = -1;
  int32_t value = -1;
};

/// Per entry of `writes`: whether its new value is an optimizer update's
/// result (AdamW, Sgd, ForeachAdamW) that may be written into the state's
/// buffer itself. It may when nothing reads the new value (no instruction,
/// not an output) and the update is the last reader of the buffer's old
/// value, through the one operand the result replaces (AdamW's param,
/// exp_avg, exp_avg_sq; Sgd's param, momentum buffer; ForeachAdamW's
/// likewise per tensor, elementwise, so reading it before writing is
/// safe) and no other; ForeachAdamW's weight copies replace no operand and
/// may when every read of the old copy comes before the update. A Reshape
/// of a state's value reads the state too.
std::vector<bool> updatesWrittenInPlace(size_t numValues, size_t numStates,
                                        const std::vector<PlanInstr> &instrs,
                                        const std::vector<StateValue> &reads,
                                        const std::vector<StateValue> &writes,
                                        const std::vector<int32_t> &outputs);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_UPDATEPLACEMENT_H

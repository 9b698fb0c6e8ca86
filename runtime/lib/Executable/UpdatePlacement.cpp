//===- UpdatePlacement.cpp - Optimizer updates written in place -----------===//

#include "paracc/runtime/UpdatePlacement.h"

#include "paracc/runtime/InstructionSet.h"

#include <algorithm>

using namespace paracc::rt;

namespace {
/// The operand whose buffer an optimizer update's result `k` replaces, or
/// -1: AdamW's (param', exp_avg', exp_avg_sq') replace operands 0, 2 and 3,
/// Sgd's (param', momentum_buffer') operands 0 and 2, and ForeachAdamW's
/// param'_j, exp_avg'_j and exp_avg_sq'_j operands j, 2N + j and 3N + j.
int64_t updatedOperand(const PlanInstr &in, size_t k) {
  switch (in.opcode) {
  case OpCode::AdamW: {
    static constexpr int64_t kOperand[] = {0, 2, 3};
    return k < 3 ? kOperand[k] : -1;
  }
  case OpCode::Sgd: {
    static constexpr int64_t kOperand[] = {0, 2};
    return k < 2 ? kOperand[k] : -1;
  }
  case OpCode::ForeachAdamW: {
    const size_t n = foreachAdamWTensors(in.inputs.size());
    if (n == 0 || k >= 3 * n)
      return -1;
    const size_t role = k / n, j = k % n; // param, exp_avg, exp_avg_sq.
    return int64_t(role == 0 ? j : (role + 1) * n + j);
  }
  default:
    return -1;
  }
}
} // namespace

std::vector<bool> paracc::rt::updatesWrittenInPlace(
    size_t numValues, size_t numStates, const std::vector<PlanInstr> &instrs,
    const std::vector<StateValue> &reads, const std::vector<StateValue> &writes,
    const std::vector<int32_t> &outputs) {
  std::vector<bool> inPlace(writes.size(), false);
  auto valid = [&](int32_t v) { return v >= 0 && size_t(v) < numValues; };
  // The state each value reads (-1: none), and each value's readers.
  std::vector<int32_t> stateOf(numValues, -1);
  for (const StateValue &r : reads)
    if (valid(r.value) && r.state >= 0 && size_t(r.state) < numStates)
      stateOf[r.value] = r.state;
  std::vector<int64_t> lastRead(numValues, -1), producer(numValues, -1);
  std::vector<int64_t> lastStateRead(numStates, -1);
  for (size_t i = 0; i < instrs.size(); ++i) {
    const PlanInstr &in = instrs[i];
    for (int32_t v : in.inputs) {
      if (!valid(v))
        continue;
      lastRead[v] = int64_t(i);
      if (stateOf[v] >= 0)
        lastStateRead[stateOf[v]] = int64_t(i);
    }
    for (int32_t v : in.outputs)
      if (valid(v))
        producer[v] = int64_t(i);
    // A reshape is a view of the buffer: its readers read the state too.
    if (in.opcode == OpCode::Reshape && in.inputs.size() == 1 &&
        in.outputs.size() == 1 && valid(in.inputs[0]) && valid(in.outputs[0]) &&
        stateOf[in.inputs[0]] >= 0)
      stateOf[in.outputs[0]] = stateOf[in.inputs[0]];
  }
  std::vector<bool> isOutput(numValues, false);
  for (int32_t v : outputs)
    if (valid(v))
      isOutput[v] = true;
  for (size_t b = 0; b < writes.size(); ++b) {
    const StateValue &w = writes[b];
    if (!valid(w.value) || w.state < 0 || size_t(w.state) >= numStates)
      continue;
    const int64_t i = producer[w.value];
    if (i < 0 || lastRead[w.value] >= 0 || isOutput[w.value])
      continue;
    const PlanInstr &in = instrs[i];
    // The update's result k replaces its operand `op`.
    const size_t k =
        size_t(std::find(in.outputs.begin(), in.outputs.end(), w.value) -
               in.outputs.begin());
    // ForeachAdamW's parameter copies (results 3N..4N-1) replace no operand.
    if (in.opcode == OpCode::ForeachAdamW &&
        k >= 3 * foreachAdamWTensors(in.inputs.size())) {
      inPlace[b] = lastStateRead[w.state] < i;
      continue;
    }
    const int64_t op = updatedOperand(in, k);
    if (op < 0 || size_t(op) >= in.inputs.size() || !valid(in.inputs[op]))
      continue;
    // The buffer's old value must have no reader after the update (the
    // update itself reads it element by element before writing), and no
    // other operand of the update may read it: a multi-tensor update's
    // blocks may read another tensor's operands after this result is
    // written.
    if (stateOf[in.inputs[op]] != w.state || lastStateRead[w.state] != i)
      continue;
    bool sharedOperand = false;
    for (size_t o = 0; o < in.inputs.size(); ++o)
      sharedOperand |= o != size_t(op) && valid(in.inputs[o]) &&
                       stateOf[in.inputs[o]] == w.state;
    inPlace[b] = !sharedOperand;
  }
  return inPlace;
}

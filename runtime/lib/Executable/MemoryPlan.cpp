//===- MemoryPlan.cpp - One arena for a program's activations --*- C++ -*-===//

#include "paracc/runtime/MemoryPlan.h"

#include <algorithm>
#include <numeric>

using namespace paracc::rt;

namespace {
/// Union-find over values: a Reshape's result joins its operand's group.
struct Groups {
  std::vector<int32_t> parent;
  explicit Groups(size_t n) : parent(n) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  int32_t find(int32_t v) {
    while (parent[v] != v)
      v = parent[v] = parent[parent[v]];
    return v;
  }
};

struct Interval {
  int32_t group;
  uint64_t bytes;
  int64_t begin, end; // instruction indices, inclusive
};
} // namespace

MemoryPlanResult paracc::rt::planArena(const std::vector<uint64_t> &valueBytes,
                                       const std::vector<bool> &arenaValues,
                                       const std::vector<bool> &liveToEnd,
                                       const std::vector<PlanInstr> &instrs) {
  size_t n = valueBytes.size();
  Groups groups(n);
  for (const PlanInstr &in : instrs)
    if (in.opcode == OpCode::Reshape && in.inputs.size() == 1 &&
        in.outputs.size() == 1 && arenaValues[in.inputs[0]] &&
        arenaValues[in.outputs[0]])
      groups.parent[groups.find(in.outputs[0])] = groups.find(in.inputs[0]);

  // Lifetimes per group: from the first definition (-1 for inputs) to the
  // last use (the end for outputs).
  int64_t last = int64_t(instrs.size());
  std::vector<int64_t> begin(n, last + 1), end(n, -2);
  std::vector<uint64_t> bytes(n, 0);
  for (size_t v = 0; v < n; ++v) {
    if (!arenaValues[v])
      continue;
    int32_t g = groups.find(int32_t(v));
    bytes[g] = std::max(bytes[g], valueBytes[v]);
    if (liveToEnd[v])
      end[g] = last;
  }
  std::vector<bool> defined(n, false);
  for (int64_t i = 0; i < last; ++i) {
    for (int32_t v : instrs[i].outputs)
      if (arenaValues[v]) {
        int32_t g = groups.find(v);
        begin[g] = std::min(begin[g], i);
        end[g] = std::max(end[g], i);
        defined[v] = true;
      }
    for (int32_t v : instrs[i].inputs)
      if (arenaValues[v]) {
        int32_t g = groups.find(v);
        end[g] = std::max(end[g], i);
      }
  }
  // A collective runs on its own stream: its operand stays reserved until
  // the first instruction that reads its result (the runtime joins the
  // streams there), so that compute in between can overlap it instead of
  // waiting to reuse the operand's bytes. (A send has no result: its
  // operand is released after it; the runtime waits for the send before an
  // instruction reuses those bytes. A recv has no operand.)
  std::vector<int64_t> firstUse(n, -1);
  for (int64_t i = last - 1; i >= 0; --i)
    for (int32_t v : instrs[i].inputs)
      firstUse[v] = i;
  for (int64_t i = 0; i < last; ++i) {
    OpCode op = instrs[i].opcode;
    if (op != OpCode::AllReduce && op != OpCode::AllGather &&
        op != OpCode::ReduceScatter && op != OpCode::AllToAll &&
        op != OpCode::Broadcast && op != OpCode::Send && op != OpCode::Recv &&
        op != OpCode::RingShift)
      continue;
    int64_t join = i;
    for (int32_t v : instrs[i].outputs)
      join = std::max(join, firstUse[v]);
    for (int32_t v : instrs[i].inputs)
      if (arenaValues[v]) {
        int32_t g = groups.find(v);
        end[g] = std::max(end[g], join);
      }
  }
  // Program inputs are defined before the first instruction.
  for (size_t v = 0; v < n; ++v)
    if (arenaValues[v] && !defined[v]) {
      int32_t g = groups.find(int32_t(v));
      begin[g] = -1;
      end[g] = std::max(end[g], int64_t(-1));
    }

  // Results written over an operand that dies there share its bytes (the
  // operand defined by an instruction, not a program input).
  for (int64_t i = 0; i < last; ++i) {
    const int64_t k =
        overwritableOperand(instrs[i].opcode, instrs[i].inputs.size());
    if (k < 0 || instrs[i].outputs.empty())
      continue;
    const int32_t operand = instrs[i].inputs[k], result = instrs[i].outputs[0];
    if (!arenaValues[operand] || !arenaValues[result])
      continue;
    const int32_t a = groups.find(operand), r = groups.find(result);
    if (a == r || end[a] != i || begin[a] < 0 || begin[r] != i)
      continue;
    groups.parent[r] = a;
    bytes[a] = std::max(bytes[a], bytes[r]);
    end[a] = std::max(end[a], end[r]);
  }

  std::vector<Interval> intervals;
  for (size_t v = 0; v < n; ++v)
    if (arenaValues[v] && groups.find(int32_t(v)) == int32_t(v))
      intervals.push_back(
          {int32_t(v),
           (bytes[v] + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment,
           begin[v], std::max(end[v], begin[v])});
  std::stable_sort(intervals.begin(), intervals.end(),
                   [](const Interval &a, const Interval &b) {
                     return a.bytes > b.bytes;
                   });
  std::vector<uint64_t> groupOffset(n, kNotInArena);
  std::vector<const Interval *> placed;
  MemoryPlanResult result;
  for (const Interval &iv : intervals) {
    // Blocks alive at the same time, by offset.
    std::vector<std::pair<uint64_t, uint64_t>> busy;
    for (const Interval *p : placed)
      if (p->begin <= iv.end && iv.begin <= p->end)
        busy.push_back({groupOffset[p->group], p->bytes});
    std::sort(busy.begin(), busy.end());
    uint64_t offset = 0;
    for (auto [start, size] : busy) {
      if (offset + iv.bytes <= start)
        break;
      offset = std::max(offset, start + size);
    }
    groupOffset[iv.group] = offset;
    placed.push_back(&iv);
    result.arenaBytes = std::max(result.arenaBytes, offset + iv.bytes);
  }
  result.offsets.assign(n, kNotInArena);
  for (size_t v = 0; v < n; ++v)
    if (arenaValues[v])
      result.offsets[v] = groupOffset[groups.find(int32_t(v))];
  return result;
}

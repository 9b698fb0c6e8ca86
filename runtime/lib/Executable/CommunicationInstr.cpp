//===- CommunicationInstr.cpp - Checking communication instructions -------===//

#include "paracc/runtime/CommunicationInstr.h"

#include "paracc/runtime/Collectives.h"

#include <cstdint>
#include <set>

namespace paracc::rt {

GroupOperands groupOperands(const InstrInfo &instr) {
  const auto &ints = instr.attrs.ints;
  GroupOperands g;
  g.axes.assign(ints.begin() + 1, ints.begin() + 1 + ints[0]);
  g.extra.assign(ints.begin() + 1 + ints[0], ints.end());
  return g;
}

std::vector<int64_t> localShardOffsets(const GroupOperands &g, const Mesh &mesh,
                                       int64_t rank, const Shape &blockShape) {
  std::vector<int64_t> offsets;
  size_t pos = 0;
  for (int64_t size : blockShape) {
    std::vector<int> axes(g.extra.begin() + pos + 1,
                          g.extra.begin() + pos + 1 + g.extra[pos]);
    pos += 1 + size_t(g.extra[pos]);
    offsets.push_back(mesh.groupIndex(rank, axes) * size);
  }
  return offsets;
}

namespace {
/// The operand, result and own-int counts of each opcode.
struct Arity {
  size_t inputs, outputs, extra;
};
} // namespace

static Arity arityOf(OpCode op) {
  switch (op) {
  case OpCode::AllReduce:
  case OpCode::AllGather:
  case OpCode::ReduceScatter:
  case OpCode::Broadcast:
    return {1, 1, 1};
  case OpCode::AllToAll:
    return {1, 1, 2};
  case OpCode::Send:
    return {1, 0, 2};
  case OpCode::Recv:
    return {0, 1, 2};
  case OpCode::AxisIndex:
    return {0, 1, 0};
  default: // LocalShard: its sharding has a variable length.
    return {1, 1, SIZE_MAX};
  }
}

/// Checks `op`'s mesh axis `a`: in range and not among the `used` ones.
static Status checkAxis(const char *op, int64_t a, const Mesh &mesh,
                        std::set<int64_t> &used) {
  if (a < 0 || a >= int64_t(mesh.axisSizes.size()) || !used.insert(a).second)
    return errorf(op, ": mesh axis ", a, " out of range or twice");
  return Status::ok();
}

/// local_shard: an empty group, then per result dim a count and that many
/// mesh axes; every dim splits evenly into the result's.
static Status checkLocalShard(const GroupOperands &g, const Mesh &mesh,
                              const ValueType &in, const ValueType &out) {
  if (!g.axes.empty())
    return errorf("local_shard: expected an empty group");
  if (in.shape.size() != out.shape.size())
    return errorf("local_shard: operand and result ranks differ");
  size_t pos = 0;
  std::set<int64_t> used;
  for (size_t d = 0; d < in.shape.size(); ++d) {
    if (pos >= g.extra.size() || g.extra[pos] < 0 ||
        uint64_t(g.extra[pos]) > g.extra.size() - pos - 1)
      return errorf("local_shard: malformed sharding");
    std::vector<int> axes;
    for (int64_t i = 0; i < g.extra[pos]; ++i) {
      int64_t a = g.extra[pos + 1 + i];
      PARACC_RETURN_IF_ERROR(checkAxis("local_shard", a, mesh, used));
      axes.push_back(int(a));
    }
    pos += 1 + size_t(g.extra[pos]);
    int64_t parts = mesh.groupSize(axes);
    if (out.shape[d] * parts != in.shape[d])
      return errorf("local_shard: dim ", d, " of ", shapeToString(in.shape),
                    " does not split into ", shapeToString(out.shape));
  }
  if (pos != g.extra.size())
    return errorf("local_shard: malformed sharding");
  return Status::ok();
}

Status checkCommunicationInstr(const InstrInfo &instr, const Mesh &mesh,
                               const std::vector<ValueType> &values) {
  const char *op = opCodeMnemonic(instr.opcode);
  const auto &ints = instr.attrs.ints;
  if (ints.empty() || ints[0] < 0 ||
      uint64_t(ints[0]) > uint64_t(ints.size() - 1))
    return errorf(op, ": malformed group");
  std::set<int64_t> seen;
  for (int64_t i = 1; i <= ints[0]; ++i)
    PARACC_RETURN_IF_ERROR(checkAxis(op, ints[i], mesh, seen));
  GroupOperands g = groupOperands(instr);
  Arity arity = arityOf(instr.opcode);
  if (instr.inputs.size() != arity.inputs ||
      instr.outputs.size() != arity.outputs ||
      (arity.extra != SIZE_MAX && g.extra.size() != arity.extra))
    return errorf(op, ": malformed instruction");
  if (!instr.attrs.floats.empty())
    return errorf(op, ": expected no floating attributes");
  const ValueType *in =
      instr.inputs.empty() ? nullptr : &values[instr.inputs[0]];
  const ValueType *out =
      instr.outputs.empty() ? nullptr : &values[instr.outputs[0]];
  if (in && out && in->dtype != out->dtype)
    return errorf(op, ": operand and result element types differ");
  auto checkDim = [&](int64_t dim) -> Status {
    if (dim < 0 || dim >= int64_t(in->shape.size()))
      return errorf(op, ": dim ", dim, " is out of range for rank ",
                    in->shape.size());
    return Status::ok();
  };
  const int64_t n = mesh.groupSize(g.axes);
  switch (instr.opcode) {
  case OpCode::AllReduce:
    if (g.extra[0] != 0 && g.extra[0] != 1)
      return errorf(op, ": unknown reduction ", g.extra[0], " (0 sum, 1 max)");
    if (in->shape != out->shape)
      return errorf(op, ": operand and result shapes differ");
    return Status::ok();
  case OpCode::AllGather:
  case OpCode::ReduceScatter:
    return checkDim(g.extra[0]);
  case OpCode::AllToAll:
    PARACC_RETURN_IF_ERROR(checkDim(g.extra[0]));
    return checkDim(g.extra[1]);
  case OpCode::Broadcast:
    PARACC_RETURN_IF_ERROR(checkBroadcastRoot(g.extra[0], n));
    if (in->shape != out->shape)
      return errorf(op, ": operand and result shapes differ");
    return Status::ok();
  case OpCode::Send:
  case OpCode::Recv:
    PARACC_RETURN_IF_ERROR(checkPeerOffset(op, g.extra[0], n));
    if (g.extra[1] < 0 || g.extra[1] > int64_t(UINT32_MAX))
      return errorf(op, ": tag ", g.extra[1], " is out of range [0, 2^32)");
    return Status::ok();
  case OpCode::AxisIndex:
    if (out->dtype != DType::I64 || shapeNumElements(out->shape) != 1)
      return errorf(op, ": expected an i64 scalar result");
    return Status::ok();
  case OpCode::LocalShard:
    return checkLocalShard(g, mesh, *in, *out);
  default:
    return errorf(op, ": not a communication instruction");
  }
}

} // namespace paracc::rt

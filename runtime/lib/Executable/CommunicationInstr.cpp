//===- CommunicationInstr.cpp - Checking communication instructions -------===//

#include "paracc/runtime/CommunicationInstr.h"

#include "paracc/runtime/Collectives.h"

#include <cstdint>
#include <set>

namespace paracc::rt {

/// Calls `f(sharding position, axes)` for each dim of a local_shard's
/// sharding (a count, then that many mesh axes, per dim) until `f` fails;
/// fails when the sharding is malformed or has more or fewer dims than
/// `rank`.
template <typename F>
static Status forEachShardedDim(const std::vector<int64_t> &sharding,
                                size_t rank, F f) {
  size_t pos = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (pos >= sharding.size() || sharding[pos] < 0 ||
        uint64_t(sharding[pos]) > sharding.size() - pos - 1)
      return errorf("local_shard: malformed sharding");
    std::vector<int64_t> axes(sharding.begin() + pos + 1,
                              sharding.begin() + pos + 1 + sharding[pos]);
    PARACC_RETURN_IF_ERROR(f(d, axes));
    pos += 1 + axes.size();
  }
  if (pos != sharding.size())
    return errorf("local_shard: malformed sharding");
  return Status::ok();
}

std::vector<int64_t> localShardOffsets(const LocalShardAttrs &attrs,
                                       const Mesh &mesh, int64_t rank,
                                       const Shape &blockShape) {
  std::vector<int64_t> offsets;
  (void)forEachShardedDim(attrs.sharding, blockShape.size(),
                          [&](size_t d, const std::vector<int64_t> &axes) {
                            std::vector<int> group(axes.begin(), axes.end());
                            offsets.push_back(mesh.groupIndex(rank, group) *
                                              blockShape[d]);
                            return Status::ok();
                          });
  return offsets;
}

namespace {
/// The operand and result counts of each opcode.
struct Arity {
  size_t inputs, outputs;
};
} // namespace

static Arity arityOf(OpCode op) {
  switch (op) {
  case OpCode::Send:
    return {1, 0};
  case OpCode::Recv:
    return {0, 1};
  case OpCode::AxisIndex:
    return {0, 1};
  case OpCode::ExpertParallelMoe:
    return {5, 1};
  case OpCode::ExpertParallelMoeGrad:
    return {6, 4};
  default:
    return {1, 1};
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
static Status checkLocalShard(const LocalShardAttrs &attrs, const Mesh &mesh,
                              const ValueType &in, const ValueType &out) {
  if (!attrs.axes.empty())
    return errorf("local_shard: expected an empty group");
  if (in.shape.size() != out.shape.size())
    return errorf("local_shard: operand and result ranks differ");
  std::set<int64_t> used;
  return forEachShardedDim(
      attrs.sharding, in.shape.size(),
      [&](size_t d, const std::vector<int64_t> &axes) -> Status {
        for (int64_t a : axes)
          PARACC_RETURN_IF_ERROR(checkAxis("local_shard", a, mesh, used));
        int64_t parts =
            mesh.groupSize(std::vector<int>(axes.begin(), axes.end()));
        if (out.shape[d] * parts != in.shape[d])
          return errorf("local_shard: dim ", d, " of ", shapeToString(in.shape),
                        " does not split into ", shapeToString(out.shape));
        return Status::ok();
      });
}

template <typename T>
static const std::vector<int> *axesOf(const OpAttrs &attrs) {
  const T *a = std::get_if<T>(&attrs);
  return a ? &a->axes : nullptr;
}

/// The group axes of an `op` instruction's attributes (null: not a
/// communication instruction's, or not `op`'s).
static const std::vector<int> *groupAxes(OpCode op, const OpAttrs &attrs) {
  switch (op) {
  case OpCode::AllReduce:
    return axesOf<AllReduceAttrs>(attrs);
  case OpCode::AllGather:
  case OpCode::ReduceScatter:
    return axesOf<AllGatherAttrs>(attrs);
  case OpCode::AllToAll:
    return axesOf<AllToAllAttrs>(attrs);
  case OpCode::Broadcast:
    return axesOf<BroadcastAttrs>(attrs);
  case OpCode::Send:
  case OpCode::Recv:
    return axesOf<SendAttrs>(attrs);
  case OpCode::RingShift:
    return axesOf<RingShiftAttrs>(attrs);
  case OpCode::AxisIndex:
    return axesOf<AxisIndexAttrs>(attrs);
  case OpCode::LocalShard:
    return axesOf<LocalShardAttrs>(attrs);
  case OpCode::ExpertParallelMoe:
  case OpCode::ExpertParallelMoeGrad:
    return axesOf<ExpertParallelMoeAttrs>(attrs);
  default:
    return nullptr;
  }
}

Status checkCommunicationInstr(const InstrInfo &instr, const OpAttrs &attrs,
                               const Mesh &mesh,
                               const std::vector<ValueType> &values) {
  const char *op = opCodeMnemonic(instr.opcode);
  const std::vector<int> *axes = groupAxes(instr.opcode, attrs);
  if (!axes)
    return errorf(op, ": not a communication instruction");
  std::set<int64_t> seen;
  for (int a : *axes)
    PARACC_RETURN_IF_ERROR(checkAxis(op, a, mesh, seen));
  Arity arity = arityOf(instr.opcode);
  if (instr.inputs.size() != arity.inputs ||
      instr.outputs.size() != arity.outputs)
    return errorf(op, ": malformed instruction");
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
  const int64_t n = mesh.groupSize(*axes);
  switch (instr.opcode) {
  case OpCode::AllReduce:
    if (in->shape != out->shape)
      return errorf(op, ": operand and result shapes differ");
    return Status::ok();
  case OpCode::AllGather:
  case OpCode::ReduceScatter:
    return checkDim(std::get<AllGatherAttrs>(attrs).dim);
  case OpCode::AllToAll: {
    const auto &a = std::get<AllToAllAttrs>(attrs);
    PARACC_RETURN_IF_ERROR(checkDim(a.splitDim));
    return checkDim(a.concatDim);
  }
  case OpCode::Broadcast:
    PARACC_RETURN_IF_ERROR(
        checkBroadcastRoot(std::get<BroadcastAttrs>(attrs).root, n));
    if (in->shape != out->shape)
      return errorf(op, ": operand and result shapes differ");
    return Status::ok();
  case OpCode::Send:
  case OpCode::Recv:
    return checkPeerOffset(op, std::get<SendAttrs>(attrs).peerOffset, n);
  case OpCode::RingShift:
    if (in->shape != out->shape)
      return errorf(op, ": operand and result shapes differ");
    return checkPeerOffset(op, std::get<RingShiftAttrs>(attrs).shift, n);
  case OpCode::AxisIndex:
    if (out->dtype != DType::I64 || shapeNumElements(out->shape) != 1)
      return errorf(op, ": expected an i64 scalar result");
    return Status::ok();
  case OpCode::LocalShard:
    return checkLocalShard(std::get<LocalShardAttrs>(attrs), mesh, *in, *out);
  case OpCode::ExpertParallelMoe:
  case OpCode::ExpertParallelMoeGrad:
    // The tokens' result (y, dx) is shaped like x; the experts' shapes are
    // the kernel's to check (MoeChecks.h), on every member alike.
    if (in->shape != out->shape)
      return errorf(op, ": operand and result shapes differ");
    return Status::ok();
  default:
    return errorf(op, ": not a communication instruction");
  }
}

Status checkCommunicationInstr(const InstrInfo &instr, const Mesh &mesh,
                               const std::vector<ValueType> &values) {
  OpAttrs attrs;
  PARACC_RETURN_IF_ERROR(decodeOpAttrs(instr.opcode, instr.attrs, attrs));
  return checkCommunicationInstr(instr, attrs, mesh, values);
}

} // namespace paracc::rt

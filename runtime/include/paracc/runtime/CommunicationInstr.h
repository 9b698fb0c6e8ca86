//===- CommunicationInstr.h - Checking communication instructions -*- C++ -*-//
//
// The instructions that run on a communicator (all_reduce, all_gather,
// reduce_scatter, all_to_all, broadcast, send, recv) or read the rank's mesh
// coordinates (axis_index, local_shard) encode a group in their ints:
// ints[0] = g, ints[1..g] = mesh axes, then the instruction's own ints.
// Loading an executable checks every such instruction against the mesh, so
// a malformed one is rejected on every rank before any rank communicates
// (one rank failing alone would leave its peers waiting on it).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_COMMUNICATIONINSTR_H
#define PARACC_RUNTIME_COMMUNICATIONINSTR_H

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/Status.h"

#include <cstdint>
#include <vector>

namespace paracc::rt {

/// A communication instruction's group and its own ints.
struct GroupOperands {
  std::vector<int> axes;
  std::vector<int64_t> extra;
};

/// Checks `instr` (an opcode for which isCollective holds) against the mesh
/// and the program's value types: the group, the operand and result counts,
/// and the instruction's own ints (reduction kind, dims, root, peer offset,
/// tag, local_shard's sharding).
Status checkCommunicationInstr(const InstrInfo &instr, const Mesh &mesh,
                               const std::vector<ValueType> &values);

/// The group axes and own ints of an instruction that passed
/// checkCommunicationInstr.
GroupOperands groupOperands(const InstrInfo &instr);

/// Where `rank`'s block of shape `blockShape` starts in a checked
/// local_shard's operand.
std::vector<int64_t> localShardOffsets(const GroupOperands &g, const Mesh &mesh,
                                       int64_t rank, const Shape &blockShape);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_COMMUNICATIONINSTR_H

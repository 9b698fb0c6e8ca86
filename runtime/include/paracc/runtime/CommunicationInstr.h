//===- CommunicationInstr.h - Checking communication instructions -*- C++ -*-//
//
// The instructions that run on a communicator (all_reduce, all_gather,
// reduce_scatter, all_to_all, broadcast, send, recv) or read the rank's mesh
// coordinates (axis_index, local_shard) name a group of mesh axes first in
// their attributes (OpCodes.def's PARACC_GROUP). Loading an executable checks
// every such instruction against the mesh, so a malformed one is rejected on
// every rank before any rank communicates (one rank failing alone would leave
// its peers waiting on it).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_COMMUNICATIONINSTR_H
#define PARACC_RUNTIME_COMMUNICATIONINSTR_H

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/InstructionSet.h"
#include "paracc/runtime/Status.h"

#include <cstdint>
#include <vector>

namespace paracc::rt {

/// Checks `instr` (an opcode for which isCollective holds), whose decoded
/// attributes are `attrs` (decodeOpAttrs), against the mesh and the
/// program's value types: the group's axes, the operand and result counts,
/// and the instruction's own fields (dims, root, peer offset, local_shard's
/// sharding).
Status checkCommunicationInstr(const InstrInfo &instr, const OpAttrs &attrs,
                               const Mesh &mesh,
                               const std::vector<ValueType> &values);
/// The same, decoding the attributes first (loading an executable).
Status checkCommunicationInstr(const InstrInfo &instr, const Mesh &mesh,
                               const std::vector<ValueType> &values);

/// Where `rank`'s block of shape `blockShape` starts in a checked
/// local_shard's operand.
std::vector<int64_t> localShardOffsets(const LocalShardAttrs &attrs,
                                       const Mesh &mesh, int64_t rank,
                                       const Shape &blockShape);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_COMMUNICATIONINSTR_H

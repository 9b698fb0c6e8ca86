//===- Collectives.h - Collective communication interface ------*- C++ -*-===//
//
// What the interpreter needs from a communication library: collectives and
// point-to-point transfers over the group of ranks that differ only along
// some mesh axes. Implementations:
// a trivial one for single-rank groups and Gloo (CPU, ranks as threads or
// processes).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_COLLECTIVES_H
#define PARACC_RUNTIME_COLLECTIVES_H

#include "paracc/runtime/Mesh.h"
#include "paracc/runtime/Status.h"
#include "paracc/runtime/Tensor.h"

#include <vector>

namespace paracc::rt {

/// One rank's view of the collectives of a mesh.
class Communicator {
public:
  virtual ~Communicator();
  /// Sum (or, with `max`, elementwise maximum) of `in` over the group;
  /// `out` has in's shape.
  virtual Status allReduce(const std::vector<int> &axes, const Tensor &in,
                           Tensor &out, bool max) = 0;
  /// Members' `in` concatenated along `dim` in group order.
  virtual Status allGather(const std::vector<int> &axes, int64_t dim,
                           const Tensor &in, Tensor &out) = 0;
  /// The sum over the group, split along `dim`; this rank keeps its piece.
  virtual Status reduceScatter(const std::vector<int> &axes, int64_t dim,
                               const Tensor &in, Tensor &out) = 0;
  /// `in` split along `splitDim`, piece i sent to member i, received pieces
  /// concatenated along `concatDim`.
  virtual Status allToAll(const std::vector<int> &axes, int64_t splitDim,
                          int64_t concatDim, const Tensor &in,
                          Tensor &out) = 0;
  /// Every member's `out` is the `in` of member `root` (a group index).
  virtual Status broadcast(const std::vector<int> &axes, int64_t root,
                           const Tensor &in, Tensor &out) = 0;
  /// Sends `in` to the member whose group index is this member's plus `to`;
  /// does nothing when the group has no such member. May wait until the
  /// peer reaches the matching recv.
  virtual Status send(const std::vector<int> &axes, int64_t to, uint32_t tag,
                      const Tensor &in) = 0;
  /// Receives into `out` what the member at this member's group index plus
  /// `from` sends with `tag`; zeros when the group has no such member.
  virtual Status recv(const std::vector<int> &axes, int64_t from,
                      uint32_t tag, Tensor &out) = 0;
  /// Sends `in` to the member at group index (this member's + `shift`) mod
  /// n and receives into `out` what member (this member's - `shift`) mod n
  /// sends: every member at once, so no member waits on another's turn.
  virtual Status ringShift(const std::vector<int> &axes, int64_t shift,
                           const Tensor &in, Tensor &out) = 0;
  /// A variable-size exchange of bytes (expert parallelism's token
  /// dispatch): `in` holds this member's parts for the members in group
  /// order, `sendBytes[j]` bytes for member j; `out` receives `recvBytes[j]`
  /// bytes from each member j, in group order. Member j's `recvBytes[i]`
  /// must be member i's `sendBytes[j]` (an all_to_all of the counts tells
  /// each member what it receives).
  virtual Status allToAllBytes(const std::vector<int> &axes, const void *in,
                               const std::vector<int64_t> &sendBytes, void *out,
                               const std::vector<int64_t> &recvBytes) = 0;
  /// Called when this rank has failed and communicates no more: its peers'
  /// pending and later communication with it should fail promptly rather
  /// than wait for the timeout.
  virtual void abandon() {}
};

/// Shape checks shared by every implementation: `out` must have the shape
/// the collective produces from `in` for a group of `groupSize`.
Status checkCollectiveShapes(const char *op, const Tensor &in,
                             const Tensor &out, int64_t groupSize,
                             int64_t dim, int64_t concatDim = -1);

/// Checks a broadcast's root against a group of `groupSize`.
Status checkBroadcastRoot(int64_t root, int64_t groupSize);
/// Checks a send's `to` or a recv's `from` (`op`) against a group of
/// `groupSize`: nonzero, |offset| < groupSize.
Status checkPeerOffset(const char *op, int64_t offset, int64_t groupSize);
/// The group index `index + offset`, or -1 when the group has no such member
/// (there is no wrap-around).
int64_t peerIndex(int64_t index, int64_t offset, int64_t groupSize);
/// The group index `(index + offset) mod groupSize` (around the ring).
int64_t ringPeerIndex(int64_t index, int64_t offset, int64_t groupSize);

/// Runs collectives of a one-rank mesh (every group has one member).
class SingleRankCommunicator final : public Communicator {
public:
  Status allReduce(const std::vector<int> &axes, const Tensor &in, Tensor &out,
                   bool max) override;
  Status allGather(const std::vector<int> &axes, int64_t dim,
                   const Tensor &in, Tensor &out) override;
  Status reduceScatter(const std::vector<int> &axes, int64_t dim,
                       const Tensor &in, Tensor &out) override;
  Status allToAll(const std::vector<int> &axes, int64_t splitDim,
                  int64_t concatDim, const Tensor &in, Tensor &out) override;
  Status broadcast(const std::vector<int> &axes, int64_t root,
                   const Tensor &in, Tensor &out) override;
  Status send(const std::vector<int> &axes, int64_t to, uint32_t tag,
              const Tensor &in) override;
  Status recv(const std::vector<int> &axes, int64_t from, uint32_t tag,
              Tensor &out) override;
  Status ringShift(const std::vector<int> &axes, int64_t shift,
                   const Tensor &in, Tensor &out) override;
  Status allToAllBytes(const std::vector<int> &axes, const void *in,
                       const std::vector<int64_t> &sendBytes, void *out,
                       const std::vector<int64_t> &recvBytes) override;
};

/// Checks an allToAllBytes call's counts against a group of `groupSize`:
/// one per member, none negative.
Status checkExchangeCounts(const std::vector<int64_t> &sendBytes,
                           const std::vector<int64_t> &recvBytes,
                           int64_t groupSize);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_COLLECTIVES_H

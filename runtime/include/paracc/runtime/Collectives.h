//===- Collectives.h - Collective communication interface ------*- C++ -*-===//
//
// What the interpreter needs from a communication library: collectives over
// the group of ranks that differ only along some mesh axes. Implementations:
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
  /// Sum of `in` over the group; `out` has in's shape.
  virtual Status allReduce(const std::vector<int> &axes, const Tensor &in,
                           Tensor &out) = 0;
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
};

/// Shape checks shared by every implementation: `out` must have the shape
/// the collective produces from `in` for a group of `groupSize`.
Status checkCollectiveShapes(const char *op, const Tensor &in,
                             const Tensor &out, int64_t groupSize,
                             int64_t dim, int64_t concatDim = -1);

/// Runs collectives of a one-rank mesh (every group has one member).
class SingleRankCommunicator final : public Communicator {
public:
  Status allReduce(const std::vector<int> &axes, const Tensor &in,
                   Tensor &out) override;
  Status allGather(const std::vector<int> &axes, int64_t dim,
                   const Tensor &in, Tensor &out) override;
  Status reduceScatter(const std::vector<int> &axes, int64_t dim,
                       const Tensor &in, Tensor &out) override;
  Status allToAll(const std::vector<int> &axes, int64_t splitDim,
                  int64_t concatDim, const Tensor &in, Tensor &out) override;
};

} // namespace paracc::rt

#endif // PARACC_RUNTIME_COLLECTIVES_H

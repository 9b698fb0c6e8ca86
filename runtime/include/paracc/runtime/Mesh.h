//===- Mesh.h - Device meshes and tensor shardings -------------*- C++ -*-===//
//
// A mesh is a grid of ranks with named axes; rank r has row-major
// coordinates (the last axis varies fastest, so `dp2,tp4` puts ranks 0-3 in
// one tp group). A sharding maps each tensor dim to the mesh axes it is split
// over; these helpers compute a rank's shard and move blocks between global
// and local tensors.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_MESH_H
#define PARACC_RUNTIME_MESH_H

#include "paracc/runtime/Status.h"
#include "paracc/runtime/Tensor.h"

#include <string>
#include <vector>

namespace paracc::rt {

struct Mesh {
  std::vector<std::string> axisNames;
  std::vector<int64_t> axisSizes;

  int64_t numRanks() const;
  /// Row-major coordinates of `rank`.
  std::vector<int64_t> coordinates(int64_t rank) const;
  /// The ranks that share `rank`'s coordinates on every axis not in `axes`,
  /// ordered by their index within the group (axes major to minor as
  /// listed).
  std::vector<int64_t> groupRanks(int64_t rank,
                                  const std::vector<int> &axes) const;
  /// `rank`'s position within its group over `axes`.
  int64_t groupIndex(int64_t rank, const std::vector<int> &axes) const;
  /// Product of the sizes of `axes`.
  int64_t groupSize(const std::vector<int> &axes) const;
  /// "dp=2,tp=4".
  std::string toString() const;
};

/// Per tensor dim, the mesh axes it is split over (major to minor).
struct TensorSharding {
  std::vector<std::vector<int>> dimAxes;
  bool isReplicated() const;
};

/// The local shape of a global shape under `sharding`; fails when a dim
/// does not divide, naming the dim and the axes.
StatusOr<Shape> localShape(const Shape &global, const TensorSharding &sharding,
                           const Mesh &mesh);
/// The offsets of `rank`'s block in the global tensor.
std::vector<int64_t> shardOffsets(const Shape &local,
                                  const TensorSharding &sharding,
                                  const Mesh &mesh, int64_t rank);
/// Copies the block at `offsets` of shape `local` out of `global`.
StatusOr<Tensor> extractBlock(const Tensor &global,
                              const std::vector<int64_t> &offsets,
                              const Shape &local);
/// Copies `block` into `global` at `offsets`.
Status insertBlock(Tensor &global, const Tensor &block,
                   const std::vector<int64_t> &offsets);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_MESH_H

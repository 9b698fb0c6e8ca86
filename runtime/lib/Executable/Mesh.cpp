//===- Mesh.cpp - Device meshes and tensor shardings -----------*- C++ -*-===//

#include "paracc/runtime/Mesh.h"

#include <cstring>

using namespace paracc::rt;

int64_t Mesh::numRanks() const {
  int64_t n = 1;
  for (int64_t s : axisSizes)
    n *= s;
  return n;
}

std::vector<int64_t> Mesh::coordinates(int64_t rank) const {
  std::vector<int64_t> coords(axisSizes.size());
  for (int64_t i = int64_t(axisSizes.size()) - 1; i >= 0; --i) {
    coords[i] = rank % axisSizes[i];
    rank /= axisSizes[i];
  }
  return coords;
}

static int64_t linearRank(const Mesh &mesh, const std::vector<int64_t> &c) {
  int64_t r = 0;
  for (size_t i = 0; i < c.size(); ++i)
    r = r * mesh.axisSizes[i] + c[i];
  return r;
}

int64_t Mesh::groupSize(const std::vector<int> &axes) const {
  int64_t n = 1;
  for (int a : axes)
    n *= axisSizes[a];
  return n;
}

int64_t Mesh::groupIndex(int64_t rank, const std::vector<int> &axes) const {
  std::vector<int64_t> c = coordinates(rank);
  int64_t index = 0;
  for (int a : axes)
    index = index * axisSizes[a] + c[a];
  return index;
}

std::vector<int64_t> Mesh::groupRanks(int64_t rank,
                                      const std::vector<int> &axes) const {
  std::vector<int64_t> base = coordinates(rank);
  int64_t n = groupSize(axes);
  std::vector<int64_t> ranks;
  for (int64_t index = 0; index < n; ++index) {
    std::vector<int64_t> c = base;
    int64_t rest = index;
    for (int64_t i = int64_t(axes.size()) - 1; i >= 0; --i) {
      c[axes[i]] = rest % axisSizes[axes[i]];
      rest /= axisSizes[axes[i]];
    }
    ranks.push_back(linearRank(*this, c));
  }
  return ranks;
}

std::string Mesh::toString() const {
  std::string s;
  for (size_t i = 0; i < axisSizes.size(); ++i)
    s += (i ? "," : "") + axisNames[i] + "=" + std::to_string(axisSizes[i]);
  return s.empty() ? "single" : s;
}

bool TensorSharding::isReplicated() const {
  for (const auto &axes : dimAxes)
    if (!axes.empty())
      return false;
  return true;
}

StatusOr<Shape> paracc::rt::localShape(const Shape &global,
                                       const TensorSharding &sharding,
                                       const Mesh &mesh) {
  Shape local = global;
  for (size_t d = 0; d < sharding.dimAxes.size() && d < global.size(); ++d) {
    int64_t parts = mesh.groupSize(sharding.dimAxes[d]);
    if (global[d] % parts != 0) {
      std::string axes;
      for (int a : sharding.dimAxes[d])
        axes += (axes.empty() ? "" : ",") + mesh.axisNames[a];
      return errorf("dim ", d, " of size ", global[d],
                    " does not divide over mesh axes {", axes, "} (", parts,
                    " ranks)");
    }
    local[d] = global[d] / parts;
  }
  return local;
}

std::vector<int64_t> paracc::rt::shardOffsets(const Shape &local,
                                              const TensorSharding &sharding,
                                              const Mesh &mesh, int64_t rank) {
  std::vector<int64_t> offsets(local.size(), 0);
  for (size_t d = 0; d < sharding.dimAxes.size() && d < local.size(); ++d)
    offsets[d] = mesh.groupIndex(rank, sharding.dimAxes[d]) * local[d];
  return offsets;
}

/// Copies a block between a big tensor and a small one. `toBig` selects the
/// direction.
static Status copyBlock(const Tensor &big, const Tensor &small,
                        const std::vector<int64_t> &offsets, bool toBig) {
  const Shape &bs = big.shape(), &ss = small.shape();
  if (bs.size() != ss.size() || offsets.size() != bs.size() ||
      big.dtype() != small.dtype())
    return errorf("block copy: rank or type mismatch");
  for (size_t d = 0; d < bs.size(); ++d)
    if (offsets[d] < 0 || offsets[d] + ss[d] > bs[d])
      return errorf("block copy: block ", shapeToString(ss), " at dim ", d,
                    " offset ", offsets[d], " exceeds ", shapeToString(bs));
  if (small.numElements() == 0)
    return Status::ok();
  size_t elem = dtypeSize(big.dtype());
  size_t rank = bs.size();
  // Rows: contiguous runs along the last dim.
  int64_t row = rank ? ss[rank - 1] : 1;
  std::vector<int64_t> bigStrides(rank, 1);
  for (int64_t d = int64_t(rank) - 2; d >= 0; --d)
    bigStrides[d] = bigStrides[d + 1] * bs[d + 1];
  std::vector<int64_t> index(rank, 0);
  int64_t rows = row ? small.numElements() / row : 0;
  auto *bigData = static_cast<uint8_t *>(const_cast<void *>(big.data()));
  auto *smallData = static_cast<uint8_t *>(const_cast<void *>(small.data()));
  for (int64_t r = 0; r < rows; ++r) {
    int64_t off = 0;
    for (size_t d = 0; d < rank; ++d)
      off += (index[d] + offsets[d]) * bigStrides[d];
    uint8_t *b = bigData + off * elem;
    uint8_t *s = smallData + r * row * elem;
    if (toBig)
      std::memcpy(b, s, row * elem);
    else
      std::memcpy(s, b, row * elem);
    for (int64_t d = int64_t(rank) - 2; d >= 0; --d) {
      if (++index[d] < ss[d])
        break;
      index[d] = 0;
    }
  }
  return Status::ok();
}

StatusOr<Tensor> paracc::rt::extractBlock(const Tensor &global,
                                          const std::vector<int64_t> &offsets,
                                          const Shape &local) {
  auto block = Tensor::allocate(global.dtype(), local);
  if (!block)
    return block.status();
  PARACC_RETURN_IF_ERROR(copyBlock(global, *block, offsets, false));
  return block;
}

Status paracc::rt::insertBlock(Tensor &global, const Tensor &block,
                               const std::vector<int64_t> &offsets) {
  return copyBlock(global, block, offsets, true);
}

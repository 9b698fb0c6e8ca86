//===- Indexing.cpp - Gather, GatherElements, GatherND --------------------===//
//
// Indices are read as i32 or i64, negative ones count from the end of their
// dimension and anything outside [-dim, dim) is an error. Elements are moved
// by size, so every element type is supported.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ShapeChecks.h"
#include "cpu/CpuKernels.h"

#include <cstring>

namespace paracc::rt {

namespace {

/// Index element `i` of an i32/i64 tensor.
inline int64_t readIndex(const Tensor &t, int64_t i) {
  if (t.dtype() == DType::I32)
    return static_cast<const int32_t *>(t.data())[i];
  return static_cast<const int64_t *>(t.data())[i];
}

/// Wraps a negative index and checks it against [0, dim).
inline Status normalizeIndex(const KernelArgs &args, int64_t v, int64_t dim,
                             int64_t &result) {
  const int64_t w = v < 0 ? v + dim : v;
  if (w < 0 || w >= dim)
    return args.fail("index ", v, " is out of range for a dimension of size ",
                     dim);
  result = w;
  return Status::ok();
}

} // namespace

Status runGatherKernel(const KernelArgs &args) {
  AxisSplit split;
  PARACC_RETURN_IF_ERROR(checkGather(args, split));
  const Tensor &data = *args.in[0];
  const Tensor &indices = *args.in[1];
  Tensor &y = *args.out[0];
  const int64_t axis = split.axis, outer = split.outer, inner = split.inner;
  const int64_t axisDim = data.dim(axis);
  const int64_t nIdx = indices.numElements();
  std::vector<int64_t> idx(static_cast<size_t>(nIdx));
  for (int64_t i = 0; i < nIdx; ++i)
    PARACC_RETURN_IF_ERROR(
        normalizeIndex(args, readIndex(indices, i), axisDim, idx[i]));
  if (y.numElements() == 0)
    return Status::ok();
  const size_t es = dtypeSize(data.dtype());
  const size_t block = static_cast<size_t>(inner) * es;
  const char *src = static_cast<const char *>(data.data());
  char *dst = static_cast<char *>(y.data());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < nIdx; ++i) {
      std::memcpy(dst + static_cast<size_t>(o * nIdx + i) * block,
                  src + static_cast<size_t>(o * axisDim + idx[i]) * block,
                  block);
    }
  }
  return Status::ok();
}

namespace {

template <typename E>
Status gatherElementsTyped(const KernelArgs &args, const Tensor &data,
                           const Tensor &indices, Tensor &y, int64_t axis) {
  const int64_t rank = data.rank();
  const std::vector<int64_t> dstride = contiguousStrides(data.shape());
  const E *src = static_cast<const E *>(data.data());
  E *dst = static_cast<E *>(y.data());
  const int64_t n = indices.numElements();
  const int64_t axisDim = data.dim(axis);
  std::vector<int64_t> pos(rank, 0);
  int64_t base = 0; // Offset of pos in data, without the axis term.
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = 0;
    PARACC_RETURN_IF_ERROR(
        normalizeIndex(args, readIndex(indices, i), axisDim, v));
    dst[i] = src[base + v * dstride[axis]];
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++pos[d] < indices.dim(d)) {
        if (d != axis)
          base += dstride[d];
        break;
      }
      if (d != axis)
        base -= dstride[d] * (indices.dim(d) - 1);
      pos[d] = 0;
    }
  }
  return Status::ok();
}

} // namespace

Status runGatherElementsKernel(const KernelArgs &args) {
  int64_t axis;
  PARACC_RETURN_IF_ERROR(checkGatherElements(args, axis));
  const Tensor &data = *args.in[0];
  const Tensor &indices = *args.in[1];
  Tensor &y = *args.out[0];
  return visitElemSize(dtypeSize(data.dtype()), [&](auto e) -> Status {
    return gatherElementsTyped<decltype(e)>(args, data, indices, y, axis);
  });
}

Status runGatherNDKernel(const KernelArgs &args) {
  GatherNDProblem g;
  PARACC_RETURN_IF_ERROR(checkGatherND(args, g));
  const Tensor &data = *g.data, &indices = *g.indices;
  const int64_t b = g.b, k = g.k;
  const int64_t batches = g.batches, perBatch = g.perBatch, slice = g.slice;
  const std::vector<int64_t> &dstride = g.dataStrides;
  const int64_t batchStride = b > 0 ? dstride[b - 1] : 0;
  const size_t es = dtypeSize(data.dtype());
  const size_t sliceBytes = static_cast<size_t>(slice) * es;
  const char *src = static_cast<const char *>(data.data());
  char *dst = static_cast<char *>(g.y->data());
  for (int64_t bi = 0; bi < batches; ++bi) {
    for (int64_t t = 0; t < perBatch; ++t) {
      const int64_t tuple = (bi * perBatch + t) * k;
      int64_t off = bi * batchStride;
      for (int64_t j = 0; j < k; ++j) {
        int64_t v = 0;
        PARACC_RETURN_IF_ERROR(normalizeIndex(
            args, readIndex(indices, tuple + j), data.dim(b + j), v));
        off += v * dstride[b + j];
      }
      if (sliceBytes)
        std::memcpy(dst + static_cast<size_t>(bi * perBatch + t) * sliceBytes,
                    src + static_cast<size_t>(off) * es, sliceBytes);
    }
  }
  return Status::ok();
}

} // namespace paracc::rt

//===- DataMovement.cu - Shape ops, gathers, Trilu, block copies ----------===//
//
// Kernels that move elements by size (every element type), with the
// semantics of cpu/ShapeOps.cpp, cpu/Indexing.cpp and Trilu of cpu/Misc.cpp.
// Everything strided goes through one primitive, launchStridedCopy:
//
//  - the iteration is merged (KernelUtil's simplifyPlan) over source and
//    destination strides together, rank <= 8 after merging;
//  - a fully contiguous copy is a cudaMemcpyAsync;
//  - runs contiguous on both sides move 16 (8, 4, 2) bytes per access when
//    the run length, the strides and the pointers allow it (slices,
//    concatenation pieces, permutations that keep the last dim, blocks);
//  - a destination-contiguous copy whose source is contiguous along another
//    dimension (a transposition) goes through 32x32 shared-memory tiles so
//    that both sides are coalesced;
//  - anything else: one element per thread with magic-number index division
//    (32-bit below 2^31 elements).
//
// Gathers never report bad indices (that would need a synchronization):
// an index outside [-dim, dim) yields zeros in the result.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ShapeChecks.h"
#include "cuda/DeviceUtil.cuh"

#include <algorithm>

namespace paracc::rt::cuda {

namespace {

constexpr int kBlock = 256;
constexpr int kCopyUnroll = 4;
constexpr int64_t kMaxGrid = int64_t(1) << 20;

unsigned gridFor(int64_t work, int64_t perBlock) {
  return unsigned(std::min<int64_t>(
      kMaxGrid, std::max<int64_t>(1, ceilDiv(work, perBlock))));
}

//===----------------------------------------------------------------------===//
// Strided copy kernels.
//===----------------------------------------------------------------------===//

/// dst[off1(t)] = src[off0(t)] for t in [0, n).
template <typename E, typename I>
__global__ void __launch_bounds__(kBlock)
    stridedCopyKernel(const E *src, E *dst, OffsetCalc<2, I> oc, int64_t n) {
  const int64_t stride = int64_t(gridDim.x) * kBlock * kCopyUnroll;
  for (int64_t base = int64_t(blockIdx.x) * kBlock * kCopyUnroll + threadIdx.x;
       base < n; base += stride) {
    E v[kCopyUnroll];
    int64_t to[kCopyUnroll];
#pragma unroll
    for (int u = 0; u < kCopyUnroll; ++u) {
      const int64_t t = base + int64_t(u) * kBlock;
      if (t < n) {
        int64_t off[2];
        oc.get(I(t), off);
        v[u] = src[off[0]];
        to[u] = off[1];
      }
    }
#pragma unroll
    for (int u = 0; u < kCopyUnroll; ++u) {
      if (base + int64_t(u) * kBlock < n)
        dst[to[u]] = v[u];
    }
  }
}

constexpr int kTile = 32;
constexpr int kTileRows = 8;

/// A transposition seen as tiles: dimension A is the destination's
/// contiguous one (source stride srcStrideA), B the source's contiguous one
/// (destination stride dstStrideB); `batch` walks the other dimensions.
template <typename I> struct TileParams {
  int64_t nA, nB;
  int64_t srcStrideA, dstStrideB;
  int64_t tilesA;
  int64_t batches;
  OffsetCalc<2, I> batch;
};

template <typename E, typename I>
__global__ void __launch_bounds__(kTile *kTileRows)
    tiledCopyKernel(const E *src, E *dst, TileParams<I> p) {
  __shared__ E tile[kTile][kTile + 1];
  const int64_t tb = blockIdx.x / p.tilesA;
  const int64_t ta = blockIdx.x - tb * p.tilesA;
  const int64_t a0 = ta * kTile, b0 = tb * kTile;
  for (int64_t bi = blockIdx.y; bi < p.batches; bi += gridDim.y) {
    int64_t off[2];
    p.batch.get(I(bi), off);
    const E *s = src + off[0];
    E *d = dst + off[1];
    // Read along B (contiguous in the source).
#pragma unroll
    for (int j = threadIdx.y; j < kTile; j += kTileRows) {
      const int64_t a = a0 + j, b = b0 + threadIdx.x;
      if (a < p.nA && b < p.nB)
        tile[j][threadIdx.x] = s[a * p.srcStrideA + b];
    }
    __syncthreads();
    // Write along A (contiguous in the destination).
#pragma unroll
    for (int j = threadIdx.y; j < kTile; j += kTileRows) {
      const int64_t b = b0 + j, a = a0 + threadIdx.x;
      if (a < p.nA && b < p.nB)
        d[b * p.dstStrideB + a] = tile[threadIdx.x][j];
    }
    __syncthreads();
  }
}

/// Calls f(E{}) with an element type of `size` bytes (1, 2, 4, 8, 16).
template <typename F> Status visitWidth(size_t size, F &&f) {
  if (size == 16)
    return f(Bytes16{});
  return visitElemSize(size, std::forward<F>(f));
}

Status copyFailed(const char *name, cudaError_t err) {
  return errorf(name, ": CUDA copy failed: ", cudaGetErrorString(err));
}

} // namespace

Status launchStridedCopy(const char *name, void *dst, const void *src,
                         size_t elemSize, const Shape &dims,
                         const std::vector<int64_t> &srcStrides,
                         const std::vector<int64_t> &dstStrides,
                         cudaStream_t stream) {
  const int64_t n = shapeNumElements(dims);
  if (n <= 0)
    return n < 0 ? errorf(name, ": invalid shape ", shapeToString(dims))
                 : Status::ok();
  StridedPlan plan;
  plan.dims = dims;
  plan.strides = {srcStrides, dstStrides};
  simplifyPlan(plan);
  const size_t rank = plan.dims.size();
  std::vector<int64_t> &ss = plan.strides[0];
  std::vector<int64_t> &ds = plan.strides[1];
  if (rank == 1 && ss[0] == 1 && ds[0] == 1) {
    const cudaError_t err = cudaMemcpyAsync(dst, src, size_t(n) * elemSize,
                                            cudaMemcpyDeviceToDevice, stream);
    return err == cudaSuccess ? Status::ok() : copyFailed(name, err);
  }
  if (rank > size_t(kMaxDims))
    return errorf(name, ": the copy needs ", rank,
                  " dimensions after merging; the GPU kernels take at most ",
                  kMaxDims);

  // Widen runs contiguous on both sides.
  size_t es = elemSize;
  if (ss.back() == 1 && ds.back() == 1) {
    for (size_t w = 16; w > es; w /= 2) {
      const int64_t k = int64_t(w / es);
      bool ok =
          plan.dims.back() % k == 0 && isAligned(src, w) && isAligned(dst, w);
      for (size_t d = 0; ok && d + 1 < rank; ++d)
        ok = ss[d] % k == 0 && ds[d] % k == 0;
      if (!ok)
        continue;
      plan.dims.back() /= k;
      for (size_t d = 0; d + 1 < rank; ++d) {
        ss[d] /= k;
        ds[d] /= k;
      }
      es = w;
      break;
    }
  }
  const int64_t count = shapeNumElements(plan.dims);

  // Transpositions: destination contiguous, source contiguous elsewhere.
  if (rank >= 2 && ds.back() == 1 && ss.back() != 1 && ss.back() != 0 &&
      es <= 8) {
    int b = -1;
    for (size_t d = 0; d + 1 < rank; ++d) {
      if (ss[d] == 1)
        b = int(d);
    }
    if (b >= 0 && plan.dims.back() >= 16 && plan.dims[b] >= 16) {
      Shape bdims;
      std::vector<std::vector<int64_t>> bst(2);
      for (size_t d = 0; d + 1 < rank; ++d) {
        if (int(d) == b)
          continue;
        bdims.push_back(plan.dims[d]);
        bst[0].push_back(ss[d]);
        bst[1].push_back(ds[d]);
      }
      const int64_t batches = shapeNumElements(bdims);
      const int64_t tilesA = ceilDiv(plan.dims.back(), kTile);
      const int64_t tilesB = ceilDiv(plan.dims[b], kTile);
      if (tilesA * tilesB < (int64_t(1) << 31)) {
        const dim3 grid(unsigned(tilesA * tilesB),
                        unsigned(std::min<int64_t>(batches, 65535)));
        const dim3 block(kTile, kTileRows);
        auto launch = [&](auto iTag) {
          using I = decltype(iTag);
          TileParams<I> p;
          p.nA = plan.dims.back();
          p.nB = plan.dims[b];
          p.srcStrideA = ss.back();
          p.dstStrideB = ds[b];
          p.tilesA = tilesA;
          p.batches = batches;
          p.batch = makeOffsetCalc<2, I>(bdims, bst);
          return visitWidth(es, [&](auto e) -> Status {
            using E = decltype(e);
            if constexpr (sizeof(E) <= 8) {
              tiledCopyKernel<E, I><<<grid, block, 0, stream>>>(
                  static_cast<const E *>(src), static_cast<E *>(dst), p);
              return checkLaunch(name);
            } else {
              return errorf(name, ": no tiled copy of ", sizeof(E),
                            "-byte elements");
            }
          });
        };
        if (batches < (int64_t(1) << 31))
          return launch(uint32_t{});
        return launch(uint64_t{});
      }
    }
  }

  return visitWidth(es, [&](auto e) -> Status {
    using E = decltype(e);
    const unsigned grid = gridFor(count, kBlock * kCopyUnroll);
    if (count < (int64_t(1) << 31))
      stridedCopyKernel<E, uint32_t><<<grid, kBlock, 0, stream>>>(
          static_cast<const E *>(src), static_cast<E *>(dst),
          makeOffsetCalc<2, uint32_t>(plan.dims, plan.strides), count);
    else
      stridedCopyKernel<E, uint64_t><<<grid, kBlock, 0, stream>>>(
          static_cast<const E *>(src), static_cast<E *>(dst),
          makeOffsetCalc<2, uint64_t>(plan.dims, plan.strides), count);
    return checkLaunch(name);
  });
}

//===----------------------------------------------------------------------===//
// Shape ops.
//===----------------------------------------------------------------------===//

Status launchReshape(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkReshape(args));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  if (x.byteSize() && x.data() != y.data()) {
    const cudaError_t err = cudaMemcpyAsync(y.data(), x.data(), x.byteSize(),
                                            cudaMemcpyDeviceToDevice, stream);
    if (err != cudaSuccess)
      return copyFailed(args.name(), err);
  }
  return Status::ok();
}

Status launchTranspose(const KernelArgs &args, cudaStream_t stream) {
  Shape shape;
  std::vector<int64_t> strides;
  PARACC_RETURN_IF_ERROR(checkTranspose(args, shape, strides));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  return launchStridedCopy(args.name(), y.data(), x.data(),
                           dtypeSize(x.dtype()), shape, strides,
                           contiguousStrides(shape), stream);
}

Status launchSlice(const KernelArgs &args, cudaStream_t stream) {
  SliceView v;
  PARACC_RETURN_IF_ERROR(checkSlice(args, v));
  const Shape &shape = v.y->shape();
  if (v.y->numElements() == 0)
    return Status::ok();
  return launchStridedCopy(args.name(), v.y->data(), v.first, v.elementSize,
                           shape, v.strides, contiguousStrides(shape), stream);
}

/// Small contiguous pieces copied by one launch: a training step's
/// concatenations of hundreds of scalars (the per-parameter gradient norms,
/// small all-reduce buckets) would otherwise be hundreds of copies.
constexpr int kPiecesPerLaunch = 128;
/// Pieces up to this many bytes go through the batched kernel.
constexpr int64_t kSmallPieceBytes = 4096;

struct PieceTable {
  const unsigned char *src[kPiecesPerLaunch];
  /// Byte offsets of the pieces in the destination, and their sizes.
  int64_t begin[kPiecesPerLaunch];
  int64_t size[kPiecesPerLaunch];
};

__global__ void __launch_bounds__(256)
    copyPiecesKernel(unsigned char *dst, PieceTable t, int pieces) {
  const int p = int(blockIdx.y);
  if (p >= pieces)
    return;
  const int64_t b = t.begin[p], len = t.size[p];
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < len;
       i += int64_t(gridDim.x) * blockDim.x)
    dst[b + i] = t.src[p][i];
}

Status launchConcat(const KernelArgs &args, cudaStream_t stream) {
  AxisSplit split;
  PARACC_RETURN_IF_ERROR(checkConcat(args, split));
  Tensor &y = *args.out[0];
  if (y.numElements() == 0)
    return Status::ok();
  const int64_t axis = split.axis, outer = split.outer, inner = split.inner;
  const size_t es = dtypeSize(y.dtype());
  const int64_t outRow = y.dim(axis) * inner;
  char *dst = static_cast<char *>(y.data());
  // With one outer block every piece is contiguous on both sides: small
  // ones are batched into few launches.
  PieceTable table;
  int pending = 0;
  auto flush = [&]() -> Status {
    if (pending == 0)
      return Status::ok();
    copyPiecesKernel<<<dim3(kSmallPieceBytes / 256, unsigned(pending)), 256, 0,
                       stream>>>(reinterpret_cast<unsigned char *>(dst), table,
                                 pending);
    pending = 0;
    return checkLaunch(args.name());
  };
  int64_t col = 0;
  for (const Tensor *t : args.in) {
    const int64_t row = t->dim(axis) * inner;
    const int64_t bytes = row * int64_t(es);
    if (row && outer == 1 && bytes <= kSmallPieceBytes) {
      table.src[pending] = static_cast<const unsigned char *>(t->data());
      table.begin[pending] = col * int64_t(es);
      table.size[pending] = bytes;
      if (++pending == kPiecesPerLaunch)
        PARACC_RETURN_IF_ERROR(flush());
    } else if (row) {
      PARACC_RETURN_IF_ERROR(launchStridedCopy(args.name(), dst + col * es,
                                               t->data(), es, {outer, row},
                                               {row, 1}, {outRow, 1}, stream));
    }
    col += row;
  }
  return flush();
}

Status launchSplit(const KernelArgs &args, cudaStream_t stream) {
  AxisSplit split;
  PARACC_RETURN_IF_ERROR(checkSplit(args, split));
  const Tensor &x = *args.in[0];
  if (x.numElements() == 0)
    return Status::ok();
  const int64_t axis = split.axis, outer = split.outer, inner = split.inner;
  const size_t es = dtypeSize(x.dtype());
  const int64_t inRow = x.dim(axis) * inner;
  const char *src = static_cast<const char *>(x.data());
  int64_t col = 0;
  for (Tensor *t : args.out) {
    const int64_t row = t->dim(axis) * inner;
    if (row) {
      PARACC_RETURN_IF_ERROR(launchStridedCopy(args.name(), t->data(),
                                               src + col * es, es, {outer, row},
                                               {inRow, 1}, {row, 1}, stream));
    }
    col += row;
  }
  return Status::ok();
}

Status launchExpand(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkExpand(args));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  if (y.numElements() == 0)
    return Status::ok();
  // Strides of x seen from y's dims (0 along broadcast dims).
  const size_t rank = y.shape().size();
  std::vector<int64_t> strides(rank, 0);
  const size_t lead = rank - x.shape().size();
  int64_t stride = 1;
  for (size_t i = x.shape().size(); i-- > 0;) {
    if (x.shape()[i] != 1)
      strides[lead + i] = stride;
    stride *= x.shape()[i];
  }
  return launchStridedCopy(args.name(), y.data(), x.data(),
                           dtypeSize(x.dtype()), y.shape(), strides,
                           contiguousStrides(y.shape()), stream);
}

//===----------------------------------------------------------------------===//
// Gathers.
//===----------------------------------------------------------------------===//

namespace {

template <typename IdxT>
__device__ __forceinline__ bool wrapIndex(IdxT raw, int64_t dim, int64_t &v) {
  v = int64_t(raw);
  if (v < 0)
    v += dim;
  return v >= 0 && v < dim;
}

/// y[o, i, col] = data[o, idx[i], col] over rows of innerW elements of E.
template <typename E, typename IdxT, typename I>
__global__ void __launch_bounds__(kBlock)
    gatherKernel(const E *data, const IdxT *idx, E *y, Divider<I> innerW,
                 Divider<I> nIdx, int64_t axisDim, int64_t total) {
  const int64_t stride = int64_t(gridDim.x) * kBlock;
  for (int64_t t = int64_t(blockIdx.x) * kBlock + threadIdx.x; t < total;
       t += stride) {
    const I row = innerW.div(I(t));
    const I col = I(t) - row * innerW.divisor;
    const I o = nIdx.div(row);
    const I i = row - o * nIdx.divisor;
    int64_t v;
    E out{};
    if (wrapIndex(idx[i], axisDim, v))
      out = data[(int64_t(o) * axisDim + v) * int64_t(innerW.divisor) +
                 int64_t(col)];
    y[t] = out;
  }
}

/// y[t] = data[base(t) + idx[t] * axisStride].
template <typename E, typename IdxT, typename I>
__global__ void __launch_bounds__(kBlock)
    gatherElementsKernel(const E *data, const IdxT *idx, E *y,
                         OffsetCalc<1, I> oc, int64_t axisDim,
                         int64_t axisStride, int64_t total) {
  const int64_t stride = int64_t(gridDim.x) * kBlock;
  for (int64_t t = int64_t(blockIdx.x) * kBlock + threadIdx.x; t < total;
       t += stride) {
    int64_t off[1];
    oc.get(I(t), off);
    int64_t v;
    E out{};
    if (wrapIndex(idx[t], axisDim, v))
      out = data[off[0] + v * axisStride];
    y[t] = out;
  }
}

struct GatherNDParams {
  int64_t k;           // Index tuple length.
  int64_t perBatch;    // Tuples per batch.
  int64_t sliceW;      // Slice length in elements of E.
  int64_t batchStride; // In slices.
  int64_t dims[kMaxDims];
  int64_t strides[kMaxDims]; // In slices.
  int64_t total;
};

template <typename E, typename IdxT>
__global__ void __launch_bounds__(kBlock)
    gatherNDKernel(const E *data, const IdxT *idx, E *y, GatherNDParams p) {
  const int64_t stride = int64_t(gridDim.x) * kBlock;
  for (int64_t t = int64_t(blockIdx.x) * kBlock + threadIdx.x; t < p.total;
       t += stride) {
    const int64_t tuple = t / p.sliceW;
    const int64_t s = t - tuple * p.sliceW;
    const int64_t bi = tuple / p.perBatch;
    int64_t off = bi * p.batchStride;
    bool ok = true;
    for (int64_t j = 0; j < p.k; ++j) {
      int64_t v;
      ok &= wrapIndex(idx[tuple * p.k + j], p.dims[j], v);
      off += v * p.strides[j];
    }
    E out{};
    if (ok)
      out = data[off * p.sliceW + s];
    y[t] = out;
  }
}

/// Largest width in {16, 8, 4, 2, 1} bytes dividing `bytes` with both
/// pointers aligned to it.
size_t widthFor(size_t bytes, const void *a, const void *b) {
  for (size_t w = 16; w > 1; w /= 2) {
    if (bytes % w == 0 && isAligned(a, w) && isAligned(b, w))
      return w;
  }
  return 1;
}

template <typename F> Status visitIndexType(DType d, F &&f) {
  if (d == DType::I32)
    return f(int32_t{});
  return f(int64_t{});
}

} // namespace

Status launchGather(const KernelArgs &args, cudaStream_t stream) {
  AxisSplit split;
  PARACC_RETURN_IF_ERROR(checkGather(args, split));
  const Tensor &data = *args.in[0];
  const Tensor &indices = *args.in[1];
  Tensor &y = *args.out[0];
  if (y.numElements() == 0)
    return Status::ok();
  const int64_t axis = split.axis, outer = split.outer, inner = split.inner;
  const int64_t axisDim = data.dim(axis);
  const int64_t nIdx = indices.numElements();
  const size_t rowBytes = size_t(inner) * dtypeSize(data.dtype());
  const size_t w = widthFor(rowBytes, data.data(), y.data());
  const int64_t innerW = int64_t(rowBytes / w);
  const int64_t total = outer * nIdx * innerW;
  return visitWidth(w, [&](auto e) -> Status {
    using E = decltype(e);
    return visitIndexType(indices.dtype(), [&](auto it) -> Status {
      using IdxT = decltype(it);
      const E *pd = static_cast<const E *>(data.data());
      const IdxT *pi = static_cast<const IdxT *>(indices.data());
      E *py = static_cast<E *>(y.data());
      const unsigned grid = gridFor(total, kBlock);
      if (total < (int64_t(1) << 31))
        gatherKernel<E, IdxT, uint32_t><<<grid, kBlock, 0, stream>>>(
            pd, pi, py, Divider<uint32_t>(uint32_t(innerW)),
            Divider<uint32_t>(uint32_t(nIdx)), axisDim, total);
      else
        gatherKernel<E, IdxT, uint64_t><<<grid, kBlock, 0, stream>>>(
            pd, pi, py, Divider<uint64_t>(uint64_t(innerW)),
            Divider<uint64_t>(uint64_t(nIdx)), axisDim, total);
      return checkLaunch(args);
    });
  });
}

Status launchGatherElements(const KernelArgs &args, cudaStream_t stream) {
  int64_t axis;
  PARACC_RETURN_IF_ERROR(checkGatherElements(args, axis));
  const Tensor &data = *args.in[0];
  const Tensor &indices = *args.in[1];
  Tensor &y = *args.out[0];
  const int64_t total = indices.numElements();
  if (total == 0)
    return Status::ok();
  const std::vector<int64_t> dstride = contiguousStrides(data.shape());
  StridedPlan plan;
  plan.dims = indices.shape();
  plan.strides = {dstride};
  plan.strides[0][axis] = 0;
  simplifyPlan(plan);
  if (plan.dims.size() > size_t(kMaxDims))
    return args.fail("more than ", kMaxDims,
                     " dimensions after merging have no GPU kernel");
  return visitWidth(dtypeSize(data.dtype()), [&](auto e) -> Status {
    using E = decltype(e);
    return visitIndexType(indices.dtype(), [&](auto it) -> Status {
      using IdxT = decltype(it);
      const E *pd = static_cast<const E *>(data.data());
      const IdxT *pi = static_cast<const IdxT *>(indices.data());
      E *py = static_cast<E *>(y.data());
      const unsigned grid = gridFor(total, kBlock);
      if (total < (int64_t(1) << 31))
        gatherElementsKernel<E, IdxT, uint32_t><<<grid, kBlock, 0, stream>>>(
            pd, pi, py, makeOffsetCalc<1, uint32_t>(plan.dims, plan.strides),
            data.dim(axis), dstride[axis], total);
      else
        gatherElementsKernel<E, IdxT, uint64_t><<<grid, kBlock, 0, stream>>>(
            pd, pi, py, makeOffsetCalc<1, uint64_t>(plan.dims, plan.strides),
            data.dim(axis), dstride[axis], total);
      return checkLaunch(args);
    });
  });
}

Status launchGatherND(const KernelArgs &args, cudaStream_t stream) {
  GatherNDProblem g;
  PARACC_RETURN_IF_ERROR(checkGatherND(args, g));
  if (g.k > kMaxDims)
    return args.fail("index tuples longer than ", kMaxDims,
                     " have no GPU kernel");
  const Tensor &data = *g.data, &indices = *g.indices;
  Tensor &y = *g.y;
  if (y.numElements() == 0)
    return Status::ok();
  const int64_t b = g.b, k = g.k, perBatch = g.perBatch, slice = g.slice;
  const std::vector<int64_t> &dstride = g.dataStrides;
  const size_t sliceBytes = size_t(slice) * dtypeSize(data.dtype());
  const size_t w = widthFor(sliceBytes, data.data(), y.data());
  GatherNDParams p{};
  p.k = k;
  p.perBatch = perBatch;
  p.sliceW = int64_t(sliceBytes / w);
  p.batchStride = b > 0 ? dstride[b - 1] / slice : 0;
  for (int64_t j = 0; j < k; ++j) {
    p.dims[j] = data.dim(b + j);
    p.strides[j] = dstride[b + j] / slice;
  }
  p.total = y.numElements() * int64_t(dtypeSize(data.dtype())) / int64_t(w);
  return visitWidth(w, [&](auto e) -> Status {
    using E = decltype(e);
    return visitIndexType(indices.dtype(), [&](auto it) -> Status {
      using IdxT = decltype(it);
      gatherNDKernel<E, IdxT><<<gridFor(p.total, kBlock), kBlock, 0, stream>>>(
          static_cast<const E *>(data.data()),
          static_cast<const IdxT *>(indices.data()), static_cast<E *>(y.data()),
          p);
      return checkLaunch(args);
    });
  });
}

//===----------------------------------------------------------------------===//
// Trilu.
//===----------------------------------------------------------------------===//

namespace {

template <typename E, typename I>
__global__ void __launch_bounds__(kBlock)
    triluKernel(const E *x, E *y, Divider<I> cols, Divider<I> rows, bool upper,
                int64_t k, int64_t total) {
  const int64_t stride = int64_t(gridDim.x) * kBlock;
  for (int64_t t = int64_t(blockIdx.x) * kBlock + threadIdx.x; t < total;
       t += stride) {
    const I q = cols.div(I(t));
    const I j = I(t) - q * cols.divisor;
    const I i = q - rows.div(q) * rows.divisor;
    const int64_t diff = int64_t(j) - int64_t(i);
    const bool keep = upper ? diff >= k : diff <= k;
    y[t] = keep ? x[t] : E(0);
  }
}

} // namespace

Status launchTrilu(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkTrilu(args));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  const int64_t total = x.numElements();
  if (total == 0)
    return Status::ok();
  const TriluAttrs &attrs = args.attrsAs<TriluAttrs>();
  const bool upper = attrs.upper;
  const int64_t k = attrs.diagonal;
  const int64_t rows = x.dim(x.rank() - 2), cols = x.dim(x.rank() - 1);
  return visitElemSize(dtypeSize(x.dtype()), [&](auto e) -> Status {
    using E = decltype(e);
    const E *px = static_cast<const E *>(x.data());
    E *py = static_cast<E *>(y.data());
    const unsigned grid = gridFor(total, kBlock);
    if (total < (int64_t(1) << 31))
      triluKernel<E, uint32_t><<<grid, kBlock, 0, stream>>>(
          px, py, Divider<uint32_t>(uint32_t(cols)),
          Divider<uint32_t>(uint32_t(rows)), upper, k, total);
    else
      triluKernel<E, uint64_t><<<grid, kBlock, 0, stream>>>(
          px, py, Divider<uint64_t>(uint64_t(cols)),
          Divider<uint64_t>(uint64_t(rows)), upper, k, total);
    return checkLaunch(args);
  });
}

//===----------------------------------------------------------------------===//
// Block copies.
//===----------------------------------------------------------------------===//

namespace {

/// Checks a block of shape `block` at `offsets` inside `whole`.
Status checkBlock(const char *name, const DeviceTensor &whole,
                  const DeviceTensor &block,
                  const std::vector<int64_t> &offsets) {
  if (whole.dtype != block.dtype || dtypeSize(whole.dtype) == 0)
    return errorf(name, ": element types differ or are invalid (",
                  dtypeName(whole.dtype), " and ", dtypeName(block.dtype), ")");
  if (whole.shape.size() != block.shape.size() ||
      offsets.size() != whole.shape.size())
    return errorf(name, ": ranks differ: tensor ", shapeToString(whole.shape),
                  ", block ", shapeToString(block.shape), ", offsets ",
                  shapeToString(offsets));
  if (shapeNumElements(whole.shape) < 0 || shapeNumElements(block.shape) < 0)
    return errorf(name, ": invalid shape");
  for (size_t d = 0; d < offsets.size(); ++d) {
    if (offsets[d] < 0 || block.shape[d] > whole.shape[d] ||
        offsets[d] > whole.shape[d] - block.shape[d])
      return errorf(name, ": block ", shapeToString(block.shape), " at ",
                    shapeToString(offsets), " leaves ",
                    shapeToString(whole.shape));
  }
  if (shapeNumElements(block.shape) > 0 && (!whole.data || !block.data))
    return errorf(name, ": null buffer");
  return Status::ok();
}

} // namespace

Status copyBlock(const DeviceTensor &src, const std::vector<int64_t> &offsets,
                 const DeviceTensor &dst, cudaStream_t stream) {
  constexpr const char *kName = "copy_block";
  PARACC_RETURN_IF_ERROR(checkBlock(kName, src, dst, offsets));
  if (dst.numElements() == 0)
    return Status::ok();
  const std::vector<int64_t> strides = contiguousStrides(src.shape);
  int64_t base = 0;
  for (size_t d = 0; d < offsets.size(); ++d)
    base += offsets[d] * strides[d];
  const size_t es = dtypeSize(src.dtype);
  return launchStridedCopy(
      kName, dst.data, static_cast<const char *>(src.data) + base * es, es,
      dst.shape, strides, contiguousStrides(dst.shape), stream);
}

Status placeBlock(const DeviceTensor &src, const DeviceTensor &dst,
                  const std::vector<int64_t> &offsets, cudaStream_t stream) {
  constexpr const char *kName = "place_block";
  PARACC_RETURN_IF_ERROR(checkBlock(kName, dst, src, offsets));
  if (src.numElements() == 0)
    return Status::ok();
  const std::vector<int64_t> strides = contiguousStrides(dst.shape);
  int64_t base = 0;
  for (size_t d = 0; d < offsets.size(); ++d)
    base += offsets[d] * strides[d];
  const size_t es = dtypeSize(dst.dtype);
  return launchStridedCopy(kName, static_cast<char *>(dst.data) + base * es,
                           src.data, es, src.shape,
                           contiguousStrides(src.shape), strides, stream);
}

} // namespace paracc::rt::cuda

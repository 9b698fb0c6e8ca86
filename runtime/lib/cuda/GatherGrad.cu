//===- GatherGrad.cu - The gradient of Gather on the GPU -------*- C++ -*-===//
//
// The GatherGrad instruction (OpCodes.def) with the semantics of
// cpu/Gradients.cpp: ddata viewed as [outer, axis, inner] and dy as
// [outer, nIdx, inner]; every target row is the sum of the dy rows whose
// index names it, in index order, or zero; an index outside [-axis, axis)
// contributes nothing.
//
// An embedding's gradient is a large table hit by few rows (Llama-3.2-1B:
// 128256 rows of 2048, 8192 tokens), so the work is a zero fill at memory
// speed plus the hit rows:
//  1. a key per (outer, index) pair: outer * (axis + 1) + target, with
//     `axis` itself for an index out of range, and its dy row as the value;
//  2. CUB's radix sort of the pairs over the key's bits (stable: equal
//     targets keep index order), in a stream-ordered scratch buffer;
//  3. the table zeroed (cudaMemsetAsync), or with an accumulate operand
//     copied from it (nothing to do when the result is its very buffer, as
//     MemoryPlan places it when nothing reads accumulate later: a tied
//     embedding's two gradients then cost no pass over the table);
//  4. one block per sorted pair; the block of a run's first pair sums the
//     row's value (zero, or accumulate's) and the run's dy rows in order in
//     f32 (16-byte vectors when aligned) and writes the row once.
// Deterministic: no atomics, a fixed summation order.
//
//===----------------------------------------------------------------------===//

#include "Kernels/TrainingChecks.h"
#include "cuda/CudaKernelUtil.h"
#include "cuda/DeviceUtil.cuh"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>

namespace paracc::rt::cuda {

namespace {

constexpr int kKeyThreads = 256;
constexpr int kRowThreads = 256;

template <typename Key> struct KeyParams {
  const void *idx = nullptr;
  bool idx32 = false;
  int64_t nIdx = 0, outer = 0, axisDim = 0;
  Key *keys = nullptr;
  int32_t *rows = nullptr;
};

/// Pair p = o * nIdx + j: key o * (axis + 1) + target (axis when out of
/// range), value p (dy's row).
template <typename Key>
__global__ void __launch_bounds__(kKeyThreads)
    gatherGradKeysKernel(KeyParams<Key> p) {
  const int64_t n = p.outer * p.nIdx;
  for (int64_t i = int64_t(blockIdx.x) * kKeyThreads + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * kKeyThreads) {
    const int64_t o = i / p.nIdx, j = i - o * p.nIdx;
    int64_t t = readLabel(p.idx, p.idx32, j);
    if (t < 0)
      t += p.axisDim;
    if (t < 0 || t >= p.axisDim)
      t = p.axisDim;
    p.keys[i] = Key(o * (p.axisDim + 1) + t);
    p.rows[i] = int32_t(i);
  }
}

template <typename Key> struct RowParams {
  const Key *keys = nullptr;
  const int32_t *rows = nullptr;
  const void *dy = nullptr;
  void *ddata = nullptr;
  int64_t n = 0, axisDim = 0, innerV = 0;
  /// The rows hold accumulate's values, the sums start from them.
  bool accumulate = false;
};

/// Block b looks at sorted pair b; the first pair of a run of equal keys
/// sums the run's dy rows and writes the target row.
template <DType D, typename Key, int V>
__global__ void __launch_bounds__(kRowThreads)
    gatherGradRowsKernel(RowParams<Key> p) {
  using S = DevS<D>;
  using Vec = VecT<S, V>;
  const Vec *dy = static_cast<const Vec *>(p.dy);
  Vec *dd = static_cast<Vec *>(p.ddata);
  for (int64_t b = blockIdx.x; b < p.n; b += gridDim.x) {
    const Key key = p.keys[b];
    if (b > 0 && p.keys[b - 1] == key)
      continue;
    const int64_t o = int64_t(key) / (p.axisDim + 1);
    const int64_t t = int64_t(key) - o * (p.axisDim + 1);
    if (t == p.axisDim)
      continue; // Out of range: contributes nothing.
    int64_t e1 = b + 1;
    while (e1 < p.n && p.keys[e1] == key)
      ++e1;
    Vec *out = dd + (o * p.axisDim + t) * p.innerV;
    for (int64_t vi = threadIdx.x; vi < p.innerV; vi += blockDim.x) {
      float acc[V];
      if (p.accumulate) {
        const Vec a = out[vi];
#pragma unroll
        for (int k = 0; k < V; ++k)
          acc[k] = ldc<D>(a.v[k]);
      } else {
#pragma unroll
        for (int k = 0; k < V; ++k)
          acc[k] = 0.0f;
      }
      int64_t e = b;
      for (; e + 4 <= e1; e += 4) {
        Vec r[4];
#pragma unroll
        for (int u = 0; u < 4; ++u)
          r[u] = dy[int64_t(p.rows[e + u]) * p.innerV + vi];
#pragma unroll
        for (int u = 0; u < 4; ++u)
#pragma unroll
          for (int k = 0; k < V; ++k)
            acc[k] += ldc<D>(r[u].v[k]);
      }
      for (; e < e1; ++e) {
        const Vec r = dy[int64_t(p.rows[e]) * p.innerV + vi];
#pragma unroll
        for (int k = 0; k < V; ++k)
          acc[k] += ldc<D>(r.v[k]);
      }
      Vec v;
#pragma unroll
      for (int k = 0; k < V; ++k)
        v.v[k] = stc<D>(acc[k]);
      out[vi] = v;
    }
  }
}

size_t alignUp(size_t n) { return (n + 255) / 256 * 256; }

/// The table before the rows are added: zeros, or accumulate's values
/// (copied unless ddata is accumulate's buffer).
Status startRows(const KernelArgs &args, Tensor &ddata, cudaStream_t stream) {
  cudaError_t err = cudaSuccess;
  if (args.in.size() < 3)
    err = cudaMemsetAsync(ddata.data(), 0, ddata.byteSize(), stream);
  else if (args.in[2]->data() != ddata.data())
    err = cudaMemcpyAsync(ddata.data(), args.in[2]->data(), ddata.byteSize(),
                          cudaMemcpyDeviceToDevice, stream);
  return err == cudaSuccess ? Status::ok() : checkLaunch(args);
}

/// Steps 1-4 of the file comment with keys of type Key.
template <DType D, typename Key>
Status gatherGradSorted(const KernelArgs &args, const Tensor &dy,
                        const Tensor &indices, Tensor &ddata, int64_t outer,
                        int64_t axisDim, int64_t inner, cudaStream_t stream) {
  const int64_t nIdx = indices.numElements();
  const int64_t n = outer * nIdx;
  int endBit = 1;
  while (endBit < int(8 * sizeof(Key)) &&
         (uint64_t(1) << endBit) <= uint64_t(outer * (axisDim + 1) - 1))
    ++endBit;
  size_t sortBytes = 0;
  if (cub::DeviceRadixSort::SortPairs(
          nullptr, sortBytes, static_cast<const Key *>(nullptr),
          static_cast<Key *>(nullptr), static_cast<const int32_t *>(nullptr),
          static_cast<int32_t *>(nullptr), n, 0, endBit, stream) != cudaSuccess)
    return checkLaunch(args);
  const size_t keyBytes = alignUp(size_t(n) * sizeof(Key));
  const size_t rowBytes = alignUp(size_t(n) * sizeof(int32_t));
  StreamScratch scratch(alignUp(sortBytes) + 2 * (keyBytes + rowBytes), stream);
  auto *base = scratch.get<char>();
  if (!base)
    return args.fail("cannot allocate ",
                     alignUp(sortBytes) + 2 * (keyBytes + rowBytes),
                     " bytes of device memory to sort the indices");
  void *sortTemp = base;
  Key *keysIn = reinterpret_cast<Key *>(base + alignUp(sortBytes));
  Key *keysOut =
      reinterpret_cast<Key *>(reinterpret_cast<char *>(keysIn) + keyBytes);
  int32_t *rowsIn =
      reinterpret_cast<int32_t *>(reinterpret_cast<char *>(keysOut) + keyBytes);
  int32_t *rowsOut =
      reinterpret_cast<int32_t *>(reinterpret_cast<char *>(rowsIn) + rowBytes);

  KeyParams<Key> kp;
  kp.idx = indices.data();
  kp.idx32 = indices.dtype() == DType::I32;
  kp.nIdx = nIdx;
  kp.outer = outer;
  kp.axisDim = axisDim;
  kp.keys = keysIn;
  kp.rows = rowsIn;
  const unsigned keyGrid = unsigned(
      std::min<int64_t>(int64_t(1) << 20, ceilDiv(n, int64_t(kKeyThreads))));
  gatherGradKeysKernel<Key><<<keyGrid, kKeyThreads, 0, stream>>>(kp);
  if (cub::DeviceRadixSort::SortPairs(sortTemp, sortBytes, keysIn, keysOut,
                                      rowsIn, rowsOut, n, 0, endBit,
                                      stream) != cudaSuccess)
    return checkLaunch(args);
  PARACC_RETURN_IF_ERROR(startRows(args, ddata, stream));

  using St = DevS<D>;
  constexpr int kV = kVec16<St>;
  const bool vec = kV > 1 && inner % kV == 0 && isAligned(dy.data(), 16) &&
                   isAligned(ddata.data(), 16);
  RowParams<Key> rp;
  rp.keys = keysOut;
  rp.rows = rowsOut;
  rp.dy = dy.data();
  rp.ddata = ddata.data();
  rp.n = n;
  rp.axisDim = axisDim;
  rp.innerV = vec ? inner / kV : inner;
  rp.accumulate = args.in.size() > 2;
  const int threads = int(std::clamp<int64_t>(
      ceilDiv(rp.innerV, int64_t(32)) * 32, 32, kRowThreads));
  const unsigned rowGrid = unsigned(std::min<int64_t>(int64_t(1) << 30, n));
  if constexpr (kV > 1) {
    if (vec) {
      gatherGradRowsKernel<D, Key, kV><<<rowGrid, threads, 0, stream>>>(rp);
      return checkLaunch(args);
    }
  }
  gatherGradRowsKernel<D, Key, 1><<<rowGrid, threads, 0, stream>>>(rp);
  return checkLaunch(args);
}

} // namespace

Status launchGatherGrad(const KernelArgs &args, cudaStream_t stream) {
  int64_t outer, axisDim, inner;
  PARACC_RETURN_IF_ERROR(
      checkGatherGrad(args, checkGpuDType, outer, axisDim, inner));
  const Tensor &dy = *args.in[0], &indices = *args.in[1];
  Tensor &ddata = *args.out[0];
  const int64_t pairs = outer * indices.numElements();
  if (ddata.numElements() == 0)
    return Status::ok();
  if (pairs == 0)
    return startRows(args, ddata, stream);
  if (pairs > INT32_MAX)
    return args.fail(pairs, " (outer, index) pairs are more than the GPU "
                            "kernel handles");
  const bool key32 = uint64_t(outer) * uint64_t(axisDim + 1) <= UINT32_MAX;
  return visitGpuDType<TypeSet::Float>(
      args, ddata.dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        if (key32)
          return gatherGradSorted<D, uint32_t>(args, dy, indices, ddata, outer,
                                               axisDim, inner, stream);
        return gatherGradSorted<D, uint64_t>(args, dy, indices, ddata, outer,
                                             axisDim, inner, stream);
      });
}

} // namespace paracc::rt::cuda

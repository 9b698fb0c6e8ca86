//===- Reduction.cu - Reduce*, ArgMax/ArgMin, CumSum ----------------------===//
//
// Reductions with the semantics of cpu/Reduction.cpp and CumSum of
// cpu/Misc.cpp. After dropping unit dimensions and merging neighbours of the
// same kind, the input is
//
//  - [kept, reduced] (trailing axes): one warp (short rows) or one block per
//    row, 16-byte loads, shuffle reductions; rows too few for the machine
//    are split over several blocks whose partials go through a small
//    stream-ordered scratch buffer (cudaMallocAsync) and a second kernel;
//  - [kept, reduced, kept]: 32 output columns per block, the reduced axis
//    spread over the block's rows, coalesced across the inner dimension;
//    floating sums and means whose inner dimension allows 16-byte loads
//    take 32 x 8 (bf16/f16) or 32 x 4 (f32) columns per block instead, one
//    vector per thread per row (bias gradients);
//  - anything else: one thread per output walking the reduced index space.
//
// Accumulators: f32 for sums/means of f32/bf16/f16 (tree-combined), double
// for floating products, wrapping 64-bit integers for integer sums and
// products, the exact compute type for Max/Min (NaN propagates). ArgMax/
// ArgMin pick the extreme with NaN as the extreme of both orders, ties to
// the first (or, with select_last_index, the last) index. CumSum accumulates
// in double (floats) or wrapping 64-bit integers, as the CPU does.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ReductionChecks.h"
#include "cuda/DeviceUtil.cuh"

#include <algorithm>
#include <limits>
#include <type_traits>

namespace paracc::rt::cuda {

namespace {

constexpr int64_t kMaxGrid = int64_t(1) << 20;

unsigned gridFor(int64_t work, int64_t perBlock) {
  return unsigned(std::min<int64_t>(
      kMaxGrid, std::max<int64_t>(1, ceilDiv(work, perBlock))));
}

int roundUp32(int64_t n) {
  return int(std::max<int64_t>(32, ceilDiv(n, 32) * 32));
}

template <DType D>
inline constexpr bool kIsFloatD =
    D == DType::F32 || D == DType::F16 || D == DType::BF16;

enum class RK { Sum, Mean, Max, Min, Prod, SumSquare };

/// Whether K adds its elements' contributions.
constexpr bool addsUp(RK k) {
  return k == RK::Sum || k == RK::Mean || k == RK::SumSquare;
}

/// Accumulation of reduction K over element type D.
template <DType D, RK K> struct Red {
  using C = DevC<D>;
  using A = std::conditional_t<
      K == RK::Max || K == RK::Min,
      std::conditional_t<D == DType::Bool, int, C>,
      std::conditional_t<kIsFloatD<D>,
                         std::conditional_t<K == RK::Prod, double, float>,
                         int64_t>>;

  __device__ static A identity() {
    if constexpr (addsUp(K))
      return A(0);
    else if constexpr (K == RK::Prod)
      return A(1);
    else if constexpr (std::is_floating_point_v<A>)
      return K == RK::Max ? A(-INFINITY) : A(INFINITY);
    else if constexpr (D == DType::Bool)
      return K == RK::Max ? 0 : 1;
    else
      return K == RK::Max ? std::numeric_limits<A>::lowest()
                          : std::numeric_limits<A>::max();
  }

  /// An element's contribution (its square for SumSquare).
  __device__ static A from(C v) {
    if constexpr (K == RK::SumSquare)
      return static_cast<A>(v) * static_cast<A>(v);
    else
      return static_cast<A>(v);
  }

  __device__ static A combine(A a, A b) {
    if constexpr (addsUp(K)) {
      if constexpr (std::is_integral_v<A>)
        return A(uint64_t(a) + uint64_t(b));
      else
        return a + b;
    } else if constexpr (K == RK::Prod) {
      if constexpr (std::is_integral_v<A>)
        return A(uint64_t(a) * uint64_t(b));
      else
        return a * b;
    } else if constexpr (std::is_floating_point_v<A>) {
      return K == RK::Max ? nanMax(a, b) : nanMin(a, b);
    } else {
      if constexpr (K == RK::Max)
        return a < b ? b : a;
      else
        return b < a ? b : a;
    }
  }

  __device__ static DevS<D> finalize(A a, int64_t count) {
    if constexpr (K == RK::Mean) {
      if constexpr (std::is_integral_v<A>)
        return stc<D>(static_cast<C>(a / count));
      else
        return stc<D>(__fdiv_rn(a, float(count)));
    } else if constexpr (std::is_same_v<A, double>) {
      return stc<D>(__double2float_rn(a));
    } else {
      return stc<D>(static_cast<C>(a));
    }
  }
};

template <typename R> struct CombineF {
  template <typename A> __device__ A operator()(A a, A b) const {
    return R::combine(a, b);
  }
};

//===----------------------------------------------------------------------===//
// Row reductions: [rows, d] -> [rows].
//===----------------------------------------------------------------------===//

constexpr int kWarpRows = 4;

/// Reduces segment `seg` (of `segs`, each `segLen` elements, a multiple of
/// V) of every row; with one segment per row the result is final, else a
/// partial accumulator goes to `partial[row * segs + seg]`.
template <DType D, RK K, bool kWarp>
__global__ void __launch_bounds__(kWarp ? 32 * kWarpRows : 512)
    rowReduceKernel(const DevS<D> *x, DevS<D> *y,
                    typename Red<D, K>::A *partial, int64_t rows, int64_t d,
                    int64_t segs, int64_t segLen, bool vec) {
  using R = Red<D, K>;
  using A = typename R::A;
  using S = DevS<D>;
  constexpr int V = kVec16<S>;
  __shared__ A smem[32];
  const int tid = threadIdx.x;
  const int nthr = kWarp ? 32 : int(blockDim.x);
  const int64_t units = rows * segs;
  const int64_t step =
      kWarp ? int64_t(gridDim.x) * blockDim.y : int64_t(gridDim.x);
  for (int64_t u = kWarp ? int64_t(blockIdx.x) * blockDim.y + threadIdx.y
                         : int64_t(blockIdx.x);
       u < units; u += step) {
    const int64_t row = u / segs;
    const int64_t seg = u - row * segs;
    const int64_t lo = seg * segLen;
    const int64_t hi = lo + segLen < d ? lo + segLen : d;
    const S *xr = x + row * d;
    A acc = R::identity();
    if (vec) {
      for (int64_t j = lo / V + tid; j < hi / V; j += nthr) {
        const VecT<S, V> t = loadVec<V>(xr, j);
#pragma unroll
        for (int k = 0; k < V; ++k)
          acc = R::combine(acc, R::from(ldc<D>(t.v[k])));
      }
    } else {
      for (int64_t j = lo + tid; j < hi; j += nthr)
        acc = R::combine(acc, R::from(ldc<D>(xr[j])));
    }
    if constexpr (kWarp)
      acc = warpReduce(acc, CombineF<R>());
    else
      acc = blockReduce(acc, CombineF<R>(), smem);
    if (tid == 0) {
      if (segs == 1)
        y[row] = R::finalize(acc, d);
      else
        partial[u] = acc;
    }
  }
}

/// Combines the partials of each row: one warp per row.
template <DType D, RK K>
__global__ void __launch_bounds__(32 * kWarpRows)
    finishRowsKernel(const typename Red<D, K>::A *partial, DevS<D> *y,
                     int64_t rows, int64_t segs, int64_t count) {
  using R = Red<D, K>;
  using A = typename R::A;
  for (int64_t row = int64_t(blockIdx.x) * blockDim.y + threadIdx.y; row < rows;
       row += int64_t(gridDim.x) * blockDim.y) {
    A acc = R::identity();
    for (int64_t s = threadIdx.x; s < segs; s += 32)
      acc = R::combine(acc, partial[row * segs + s]);
    acc = warpReduce(acc, CombineF<R>());
    if (threadIdx.x == 0)
      y[row] = R::finalize(acc, count);
  }
}

//===----------------------------------------------------------------------===//
// Column reductions: [outer, c, inner] -> [outer, inner].
//===----------------------------------------------------------------------===//

template <DType D, RK K>
__global__ void __launch_bounds__(1024)
    columnReduceKernel(const DevS<D> *x, DevS<D> *y,
                       typename Red<D, K>::A *partial, int64_t outer,
                       int64_t c, int64_t inner, int64_t chunkLen) {
  using R = Red<D, K>;
  using A = typename R::A;
  __shared__ A smem[32][33];
  const int64_t tilesI = (inner + 31) / 32;
  const int64_t units = outer * tilesI;
  // blockIdx.y: the chunk of the reduced axis (one chunk unless split).
  const int64_t j0 = int64_t(blockIdx.y) * chunkLen;
  const int64_t j1 = j0 + chunkLen < c ? j0 + chunkLen : c;
  for (int64_t u = blockIdx.x; u < units; u += gridDim.x) {
    const int64_t o = u / tilesI;
    const int64_t i = (u - o * tilesI) * 32 + threadIdx.x;
    A acc = R::identity();
    if (i < inner) {
      const DevS<D> *p = x + o * c * inner + i;
      for (int64_t j = j0 + threadIdx.y; j < j1; j += blockDim.y)
        acc = R::combine(acc, R::from(ldc<D>(p[j * inner])));
    }
    smem[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0) {
      for (int r = 1; r < int(blockDim.y); ++r)
        acc = R::combine(acc, smem[r][threadIdx.x]);
      if (i < inner) {
        if (partial)
          partial[(int64_t(blockIdx.y) * outer + o) * inner + i] = acc;
        else
          y[o * inner + i] = R::finalize(acc, c);
      }
    }
    __syncthreads();
  }
}

/// Floating sums and means over columns with 16-byte loads: each thread
/// owns kVec neighbouring columns (8 bf16/f16, 4 f32), a warp 32 kVec of
/// them, the block's 8 warps split the chunk's rows. One pass over memory at
/// close to its bandwidth for bias gradients ([tokens, features] ->
/// [features]), where one element per thread per row kept too few bytes in
/// flight. Partials (or results) in the same layout as columnReduceKernel's.
template <DType D, RK K>
__global__ void __launch_bounds__(256)
    columnReduceVecKernel(const DevS<D> *x, DevS<D> *y,
                          typename Red<D, K>::A *partial, int64_t outer,
                          int64_t c, int64_t inner, int64_t chunkLen) {
  using R = Red<D, K>;
  using A = typename R::A;
  using S = DevS<D>;
  constexpr int kVec = 16 / sizeof(S);
  constexpr int kRows = 8;
  __shared__ A smem[kRows][32 * kVec];
  const int64_t tileCols = 32 * kVec;
  const int64_t tilesI = (inner + tileCols - 1) / tileCols;
  const int64_t units = outer * tilesI;
  const int64_t j0 = int64_t(blockIdx.y) * chunkLen;
  const int64_t j1 = j0 + chunkLen < c ? j0 + chunkLen : c;
  for (int64_t u = blockIdx.x; u < units; u += gridDim.x) {
    const int64_t o = u / tilesI;
    const int64_t i = (u - o * tilesI) * tileCols + threadIdx.x * kVec;
    A acc[kVec];
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      acc[e] = R::identity();
    if (i < inner) {
      const S *p = x + o * c * inner + i;
      for (int64_t j = j0 + threadIdx.y; j < j1; j += kRows) {
        const uint4 raw = *reinterpret_cast<const uint4 *>(p + j * inner);
        const S *v = reinterpret_cast<const S *>(&raw);
#pragma unroll
        for (int e = 0; e < kVec; ++e)
          acc[e] = R::combine(acc[e], R::from(ldc<D>(v[e])));
      }
    }
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      smem[threadIdx.y][threadIdx.x * kVec + e] = acc[e];
    __syncthreads();
    // Each of the block's 256 threads finishes kVec * 32 / 256 columns.
    for (int col = threadIdx.y * 32 + threadIdx.x; col < tileCols;
         col += 32 * kRows) {
      A total = smem[0][col];
      for (int r = 1; r < kRows; ++r)
        total = R::combine(total, smem[r][col]);
      const int64_t ic = (u - o * tilesI) * tileCols + col;
      if (ic < inner) {
        if (partial)
          partial[(int64_t(blockIdx.y) * outer + o) * inner + ic] = total;
        else
          y[o * inner + ic] = R::finalize(total, c);
      }
    }
    __syncthreads();
  }
}

/// Short reduced axes between wide kept ones (GQA's key/value gradient:
/// [B, Hkv, group, S, D] summed over group): one thread per output vector
/// walking the c rows, every load 16 bytes and independent of the others.
/// The shared-memory combine of columnReduceVecKernel left half of its
/// threads idle and cost more than the loads for c of 2 to 8.
template <DType D, RK K>
__global__ void __launch_bounds__(256)
    shortColumnReduceKernel(const DevS<D> *x, DevS<D> *y, int64_t outer,
                            int64_t c, int64_t inner) {
  using R = Red<D, K>;
  using A = typename R::A;
  using S = DevS<D>;
  constexpr int kVec = 16 / sizeof(S);
  const int64_t innerV = inner / kVec;
  const int64_t n = outer * innerV;
  for (int64_t u = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; u < n;
       u += int64_t(gridDim.x) * blockDim.x) {
    const int64_t o = u / innerV, i = (u - o * innerV) * kVec;
    const S *p = x + o * c * inner + i;
    A acc[kVec];
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      acc[e] = R::identity();
    for (int64_t j = 0; j < c; ++j) {
      const uint4 raw = *reinterpret_cast<const uint4 *>(p + j * inner);
      const S *v = reinterpret_cast<const S *>(&raw);
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        acc[e] = R::combine(acc[e], R::from(ldc<D>(v[e])));
    }
    uint4 raw;
    S *out = reinterpret_cast<S *>(&raw);
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      out[e] = R::finalize(acc[e], c);
    *reinterpret_cast<uint4 *>(y + o * inner + i) = raw;
  }
}

/// Combines the chunks' partials of a split column reduction: a block owns
/// 32 outputs, its 8 warps take every 8th chunk and shared memory adds the
/// 8 sums in warp order (a fixed order: deterministic). One thread per
/// output walking all chunks kept too few loads in flight: a bias
/// gradient's 128 chunks took longer than the pass over the tensor.
template <DType D, RK K>
__global__ void __launch_bounds__(256)
    finishColumnsKernel(const typename Red<D, K>::A *partial, DevS<D> *y,
                        int64_t outN, int64_t chunks, int64_t c) {
  using R = Red<D, K>;
  using A = typename R::A;
  constexpr int kWarps = 8;
  __shared__ A smem[kWarps][32];
  for (int64_t base = int64_t(blockIdx.x) * 32; base < outN;
       base += int64_t(gridDim.x) * 32) {
    const int64_t k = base + threadIdx.x;
    A acc = R::identity();
    if (k < outN) {
#pragma unroll 4
      for (int64_t s = threadIdx.y; s < chunks; s += kWarps)
        acc = R::combine(acc, partial[s * outN + k]);
    }
    smem[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && k < outN) {
      for (int r = 1; r < kWarps; ++r)
        acc = R::combine(acc, smem[r][threadIdx.x]);
      y[k] = R::finalize(acc, c);
    }
    __syncthreads();
  }
}

//===----------------------------------------------------------------------===//
// Channel reductions: [n, c, inner] -> [c].
//===----------------------------------------------------------------------===//

/// A channel block's end: its threads' values combined in a fixed order,
/// then the channel's result (one chunk) or the chunk's partial.
template <DType D, RK K>
__device__ __forceinline__ void
finishChannel(typename Red<D, K>::A acc, DevS<D> *y,
              typename Red<D, K>::A *partial, int64_t ch, int64_t c,
              int64_t count, typename Red<D, K>::A *smem) {
  using R = Red<D, K>;
  acc = blockReduce(acc, CombineF<R>(), smem);
  if (threadIdx.x == 0) {
    if (gridDim.y == 1)
      y[ch] = R::finalize(acc, count);
    else
      partial[int64_t(blockIdx.y) * c + ch] = acc;
  }
}

/// Block (channel ch, chunk s) reduces channel ch of images [s * chunkLen,
/// (s + 1) * chunkLen): each image's `inner` contiguous elements (16-byte
/// loads when `vec`), then the block's threads in a fixed order. BatchNorm's
/// batch statistics and a convolution's bias gradient: the generic kernel's
/// one thread per channel walked n * inner elements alone. With one chunk
/// the result is final, else partial[s * c + ch].
template <DType D, RK K>
__global__ void __launch_bounds__(512)
    channelReduceKernel(const DevS<D> *x, DevS<D> *y,
                        typename Red<D, K>::A *partial, int64_t n, int64_t c,
                        int64_t inner, int64_t chunkLen, bool vec) {
  using R = Red<D, K>;
  using A = typename R::A;
  using S = DevS<D>;
  constexpr int V = kVec16<S>;
  __shared__ A smem[32];
  const int64_t ch = blockIdx.x, lo = int64_t(blockIdx.y) * chunkLen;
  const int64_t hi = lo + chunkLen < n ? lo + chunkLen : n;
  A acc = R::identity();
  for (int64_t image = lo; image < hi; ++image) {
    const S *row = x + (image * c + ch) * inner;
    if (vec) {
      for (int64_t j = threadIdx.x; j < inner / V; j += blockDim.x) {
        const VecT<S, V> t = loadVec<V>(row, j);
#pragma unroll
        for (int k = 0; k < V; ++k)
          acc = R::combine(acc, R::from(ldc<D>(t.v[k])));
      }
    } else {
      for (int64_t j = threadIdx.x; j < inner; j += blockDim.x)
        acc = R::combine(acc, R::from(ldc<D>(row[j])));
    }
  }
  finishChannel<D, K>(acc, y, partial, ch, c, n * inner, smem);
}

/// channelReduceKernel for short rows (7x7, 14x14 and 28x28 images, where a
/// row keeps few of a block's threads busy): the block walks its chunk's
/// images and positions as one flat range of V-element vectors (16-byte
/// loads when the rows allow, V = 1 otherwise), four in flight per thread
/// (four accumulators, combined in a fixed order).
template <DType D, RK K, int V>
__global__ void __launch_bounds__(256)
    channelReduceFlatKernel(const DevS<D> *x, DevS<D> *y,
                            typename Red<D, K>::A *partial, int64_t n,
                            int64_t c, int64_t inner, int64_t chunkLen) {
  using R = Red<D, K>;
  using A = typename R::A;
  using S = DevS<D>;
  __shared__ A smem[32];
  const int64_t ch = blockIdx.x, lo = int64_t(blockIdx.y) * chunkLen;
  const int64_t hi = lo + chunkLen < n ? lo + chunkLen : n;
  // 32-bit division (the launcher keeps n * inner below 2^31).
  const unsigned rowLen = unsigned(inner / V);
  const int64_t count = (hi - lo) * int64_t(rowLen);
  const int64_t stride = blockDim.x;
  auto add = [&](A &acc, int64_t e) {
    const unsigned row = unsigned(e) / rowLen;
    const S *at = x + ((lo + row) * c + ch) * inner;
    const VecT<S, V> t = loadVec<V>(at, int64_t(unsigned(e) - row * rowLen));
#pragma unroll
    for (int k = 0; k < V; ++k)
      acc = R::combine(acc, R::from(ldc<D>(t.v[k])));
  };
  A acc[4] = {R::identity(), R::identity(), R::identity(), R::identity()};
  int64_t e = threadIdx.x;
  for (; e + 3 * stride < count; e += 4 * stride) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      add(acc[k], e + k * stride);
  }
  for (; e < count; e += stride)
    add(acc[0], e);
  A total = R::combine(R::combine(acc[0], acc[1]), R::combine(acc[2], acc[3]));
  finishChannel<D, K>(total, y, partial, ch, c, n * inner, smem);
}

/// channelReduceFlatKernel with the widest vectors of at most V elements
/// that the rows' length and the buffer's alignment allow (a bf16 14x14
/// image row of 196 elements takes 8-byte loads).
template <DType D, RK K, int V>
void launchFlatChannels(dim3 grid, int threads, cudaStream_t stream,
                        const DevS<D> *x, DevS<D> *y,
                        typename Red<D, K>::A *partial, int64_t n, int64_t c,
                        int64_t inner, int64_t chunkLen) {
  if constexpr (V > 1) {
    if (inner % V != 0 || !isAligned(x, V * sizeof(DevS<D>)))
      return launchFlatChannels<D, K, V / 2>(grid, threads, stream, x, y,
                                             partial, n, c, inner, chunkLen);
  }
  channelReduceFlatKernel<D, K, V>
      <<<grid, threads, 0, stream>>>(x, y, partial, n, c, inner, chunkLen);
}

//===----------------------------------------------------------------------===//
// Generic reductions: one thread per output.
//===----------------------------------------------------------------------===//

template <DType D, RK K>
__global__ void __launch_bounds__(256)
    genericReduceKernel(const DevS<D> *x, DevS<D> *y,
                        OffsetCalc<1, uint64_t> kept,
                        OffsetCalc<1, uint64_t> red, int64_t outN,
                        int64_t count) {
  using R = Red<D, K>;
  using A = typename R::A;
  for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < outN;
       t += int64_t(gridDim.x) * blockDim.x) {
    int64_t base[1];
    kept.get(uint64_t(t), base);
    A acc = R::identity();
    for (int64_t j = 0; j < count; ++j) {
      int64_t off[1];
      red.get(uint64_t(j), off);
      acc = R::combine(acc, R::from(ldc<D>(x[base[0] + off[0]])));
    }
    y[t] = R::finalize(acc, count);
  }
}

//===----------------------------------------------------------------------===//
// Reduction launcher.
//===----------------------------------------------------------------------===//

/// Input dimensions after dropping unit ones and merging neighbours of the
/// same kind: (size, reduced).
using Groups = std::vector<std::pair<int64_t, bool>>;

Groups groupDims(const Shape &shape, const std::vector<bool> &reduced) {
  Groups g;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1)
      continue;
    if (!g.empty() && g.back().second == reduced[d])
      g.back().first *= shape[d];
    else
      g.push_back({shape[d], reduced[d]});
  }
  return g;
}

template <DType D, RK K>
Status reduceRows(const KernelArgs &args, const DevS<D> *x, DevS<D> *y,
                  int64_t rows, int64_t d, cudaStream_t stream) {
  using A = typename Red<D, K>::A;
  constexpr int V = kVec16<DevS<D>>;
  const bool vec = V > 1 && d % V == 0 && isAligned(x, 16);
  const int64_t nv = vec ? d / V : d;
  if (nv <= 64) {
    const dim3 block(32, kWarpRows);
    rowReduceKernel<D, K, true><<<gridFor(rows, kWarpRows), block, 0, stream>>>(
        x, y, nullptr, rows, d, 1, d, vec);
    return checkLaunch(args);
  }
  const int threads =
      int(std::min<int64_t>(512, std::max(64, roundUp32(ceilDiv(nv, 4)))));
  // Too few rows to fill the machine: split long rows into segments.
  const int64_t sms = deviceSMCount();
  int64_t segs = 1, segLen = d;
  if (rows < 2 * sms && d >= 32768) {
    segs = std::min(ceilDiv(d, 16384), ceilDiv(4 * sms, rows));
    segLen = ceilDiv(ceilDiv(d, segs), V) * V;
    segs = ceilDiv(d, segLen);
  }
  A *partial = nullptr;
  if (segs > 1 &&
      cudaMallocAsync(reinterpret_cast<void **>(&partial),
                      size_t(rows * segs) * sizeof(A), stream) != cudaSuccess) {
    (void)cudaGetLastError(); // No scratch: one block per row.
    partial = nullptr;
    segs = 1;
    segLen = d;
  }
  rowReduceKernel<D, K, false>
      <<<unsigned(std::min<int64_t>(int64_t(1) << 30, rows * segs)), threads, 0,
         stream>>>(x, y, partial, rows, d, segs, segLen, vec);
  const Status launched = checkLaunch(args);
  if (segs == 1)
    return launched;
  auto finish = [&]() -> Status {
    if (!launched.isOk())
      return launched;
    const dim3 block(32, kWarpRows);
    finishRowsKernel<D, K><<<gridFor(rows, kWarpRows), block, 0, stream>>>(
        partial, y, rows, segs, d);
    return checkLaunch(args);
  };
  const Status finished = finish();
  (void)cudaFreeAsync(partial, stream);
  return finished;
}

/// A column reduction [outer, c, inner] -> [outer, inner] whose reduced
/// axis is split into `chunks` (of chunkLen rows): `launch(partial,
/// chunkLen, chunks)` starts the first kernel, writing per-chunk partials
/// (or, with one chunk or no scratch memory, y itself); finishColumnsKernel
/// then adds the partials in chunk order (deterministic).
template <DType D, RK K, typename Launch>
Status reduceColumnsInChunks(const KernelArgs &args, DevS<D> *y, int64_t outN,
                             int64_t c, int64_t chunks, int64_t chunkLen,
                             cudaStream_t stream, Launch launch) {
  using A = typename Red<D, K>::A;
  A *partial = nullptr;
  if (chunks > 1 &&
      cudaMallocAsync(reinterpret_cast<void **>(&partial),
                      size_t(chunks * outN) * sizeof(A),
                      stream) != cudaSuccess) {
    (void)cudaGetLastError(); // No scratch: one chunk.
    partial = nullptr;
    chunks = 1;
    chunkLen = c;
  }
  launch(partial, chunkLen, chunks);
  const Status launched = checkLaunch(args);
  if (!partial)
    return launched;
  Status finished = launched;
  if (launched.isOk()) {
    finishColumnsKernel<D, K><<<gridFor(outN, 32), dim3(32, 8), 0, stream>>>(
        partial, y, outN, chunks, c);
    finished = checkLaunch(args);
  }
  (void)cudaFreeAsync(partial, stream);
  return finished;
}

/// [outer, c, inner] -> [outer, inner] with columnReduceVecKernel (inner a
/// multiple of its vector width, x 16-byte aligned). The reduced axis is
/// split into chunks of at least 64 rows until there are about four blocks
/// per multiprocessor.
template <DType D, RK K>
Status reduceColumnsVec(const KernelArgs &args, const DevS<D> *x, DevS<D> *y,
                        int64_t outer, int64_t c, int64_t inner, int64_t sms,
                        cudaStream_t stream) {
  constexpr int64_t kVec = 16 / sizeof(DevS<D>);
  const int64_t tiles = outer * ceilDiv(inner, 32 * kVec);
  int64_t chunks = std::max<int64_t>(
      1, std::min(ceilDiv(c, 64), ceilDiv(4 * sms, tiles)));
  const int64_t chunkLen = ceilDiv(c, chunks);
  chunks = ceilDiv(c, chunkLen);
  return reduceColumnsInChunks<D, K>(
      args, y, outer * inner, c, chunks, chunkLen, stream,
      [&](typename Red<D, K>::A *partial, int64_t len, int64_t n) {
        const dim3 grid(unsigned(std::min<int64_t>(int64_t(1) << 30, tiles)),
                        unsigned(n));
        columnReduceVecKernel<D, K><<<grid, dim3(32, 8), 0, stream>>>(
            x, y, partial, outer, c, inner, len);
      });
}

template <DType D, RK K>
Status reduceTyped(const KernelArgs &args, const Tensor &x, Tensor &y,
                   const std::vector<bool> &reduced, cudaStream_t stream) {
  using S = DevS<D>;
  const int64_t outN = y.numElements();
  const int64_t count = outN ? x.numElements() / outN : 0;
  if constexpr (K == RK::Mean && !kIsFloatD<D>) {
    if (count == 0 && outN > 0)
      return args.fail("mean of an empty set of integers");
  }
  if (outN == 0)
    return Status::ok();
  const S *px = static_cast<const S *>(x.data());
  S *py = static_cast<S *>(y.data());
  const Groups g = groupDims(x.shape(), reduced);
  bool anyReduced = false;
  for (const auto &e : g)
    anyReduced |= e.second;
  // Nothing really reduced (count 0 or 1), or trailing reduced axes: rows.
  if (count == 0 || !anyReduced)
    return reduceRows<D, K>(args, px, py, outN, count, stream);
  if (g.back().second && g.size() <= 2)
    return reduceRows<D, K>(args, px, py, outN, count, stream);
  // [kept?, reduced, kept]: columns.
  if (!g.back().second && g.size() <= 3 && g[g.size() - 2].second) {
    const int64_t inner = g.back().first;
    const int64_t c = g[g.size() - 2].first;
    const int64_t outer = g.size() == 3 ? g[0].first : 1;
    const int64_t sms = deviceSMCount();
    if constexpr (kIsFloatD<D> && addsUp(K)) {
      constexpr int64_t kVec = 16 / sizeof(DevS<D>);
      const bool aligned =
          inner % kVec == 0 && reinterpret_cast<uintptr_t>(px) % 16 == 0;
      if (aligned && c <= 16 && reinterpret_cast<uintptr_t>(py) % 16 == 0 &&
          outer * inner / kVec >= 256 * sms) {
        const int64_t n = outer * inner / kVec;
        shortColumnReduceKernel<D, K>
            <<<unsigned(std::min(ceilDiv(n, int64_t(256)), kMaxGrid)), 256, 0,
               stream>>>(px, py, outer, c, inner);
        return checkLaunch(args);
      }
      if (aligned)
        return reduceColumnsVec<D, K>(args, px, py, outer, c, inner, sms,
                                      stream);
    }
    const int64_t tiles = outer * ceilDiv(inner, 32);
    const int rowsPerBlock = tiles < 2 * sms ? 32 : 8;
    const dim3 block(32, rowsPerBlock);
    // Too few column tiles to fill the machine (a bias gradient: [tokens,
    // features] -> [features]): the reduced axis is split into chunks whose
    // partials a second kernel combines.
    int64_t chunks = 1, chunkLen = c;
    if (tiles < 2 * sms && c >= 1024) {
      chunks = std::min(ceilDiv(c, 256), ceilDiv(4 * sms, tiles));
      chunkLen = ceilDiv(c, chunks);
      chunks = ceilDiv(c, chunkLen);
    }
    return reduceColumnsInChunks<D, K>(
        args, py, outN, c, chunks, chunkLen, stream,
        [&](typename Red<D, K>::A *partial, int64_t len, int64_t n) {
          const dim3 grid(
              unsigned(std::min<int64_t>(int64_t(1) << 30, tiles)),
              unsigned(n));
          columnReduceKernel<D, K><<<grid, block, 0, stream>>>(
              px, py, partial, outer, c, inner, len);
        });
  }
  // [reduced, kept, reduced]: channels (BatchNorm's [N, C, H, W] over N,
  // H, W). The images are split into chunks until there are about four
  // blocks per multiprocessor; finishColumnsKernel adds the chunks in order.
  if (g.size() == 3 && g[0].second && !g[1].second && g[2].second &&
      g[0].first * g[2].first >= 1024) {
    const int64_t n = g[0].first, c = g[1].first, inner = g[2].first;
    constexpr int64_t V = kVec16<S>;
    const bool vec = V > 1 && inner % V == 0 && isAligned(px, 16);
    // Rows too short to keep 256 threads busy walk the chunk as one range.
    const bool flat =
        (vec ? inner / V : inner) < 256 && n * inner < (int64_t(1) << 31);
    const int threads =
        flat ? 256
             : int(std::min<int64_t>(
                   512,
                   std::max<int64_t>(32, roundUp32(vec ? inner / V : inner))));
    int64_t chunks = std::min<int64_t>(
        {n, std::max<int64_t>(1, ceilDiv(4 * deviceSMCount(), c)), 65535});
    const int64_t chunkLen = ceilDiv(n, chunks);
    chunks = ceilDiv(n, chunkLen);
    return reduceColumnsInChunks<D, K>(
        args, py, c, n * inner, chunks, chunkLen, stream,
        [&](typename Red<D, K>::A *partial, int64_t, int64_t launched) {
          const int64_t len = ceilDiv(n, launched);
          const dim3 grid(unsigned(c), unsigned(ceilDiv(n, len)));
          if (flat)
            launchFlatChannels<D, K, V>(grid, threads, stream, px, py, partial,
                                        n, c, inner, len);
          else
            channelReduceKernel<D, K><<<grid, threads, 0, stream>>>(
                px, py, partial, n, c, inner, len, vec);
        });
  }
  // Anything else: one thread per output.
  Shape keptDims, redDims;
  std::vector<int64_t> keptStrides, redStrides;
  int64_t stride = 1;
  for (size_t i = g.size(); i-- > 0;) {
    if (g[i].second) {
      redDims.insert(redDims.begin(), g[i].first);
      redStrides.insert(redStrides.begin(), stride);
    } else {
      keptDims.insert(keptDims.begin(), g[i].first);
      keptStrides.insert(keptStrides.begin(), stride);
    }
    stride *= g[i].first;
  }
  if (keptDims.size() > size_t(kMaxDims) || redDims.size() > size_t(kMaxDims))
    return args.fail("more than ", kMaxDims,
                     " kept or reduced dimension groups have no GPU kernel");
  genericReduceKernel<D, K><<<gridFor(outN, 256), 256, 0, stream>>>(
      px, py, makeOffsetCalc<1, uint64_t>(keptDims, {keptStrides}),
      makeOffsetCalc<1, uint64_t>(redDims, {redStrides}), outN, count);
  return checkLaunch(args);
}

template <RK K, TypeSet Set>
Status reduceDispatch(const KernelArgs &args, const Tensor &x, Tensor &y,
                      const std::vector<bool> &reduced, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkGpuDType(args, x, Set, "operand"));
  return visitGpuDType<Set>(args, x.dtype(), [&](auto tag) -> Status {
    return reduceTyped<decltype(tag)::value, K>(args, x, y, reduced, stream);
  });
}

} // namespace

Status launchReduce(const KernelArgs &args, cudaStream_t stream) {
  std::vector<bool> reduced;
  PARACC_RETURN_IF_ERROR(checkReduce(args, reduced));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  const bool isMaxMin =
      args.op == OpCode::ReduceMax || args.op == OpCode::ReduceMin;
  if (args.attrsAs<ReduceSumAttrs>().axes.empty()) {
    if (args.op == OpCode::ReduceSumSquare)
      return args.fail("needs at least one axis");
    // No axes: the identity (after the element type check).
    PARACC_RETURN_IF_ERROR(checkGpuDType(
        args, x, isMaxMin ? TypeSet::All : TypeSet::Numeric, "operand"));
    if (x.byteSize() && x.data() != y.data()) {
      const cudaError_t err = cudaMemcpyAsync(y.data(), x.data(), x.byteSize(),
                                              cudaMemcpyDeviceToDevice, stream);
      if (err != cudaSuccess)
        return args.fail("CUDA copy failed: ", cudaGetErrorString(err));
    }
    return Status::ok();
  }
  switch (args.op) {
  case OpCode::ReduceSum:
    return reduceDispatch<RK::Sum, TypeSet::Numeric>(args, x, y, reduced,
                                                     stream);
  case OpCode::ReduceMean:
    return reduceDispatch<RK::Mean, TypeSet::Numeric>(args, x, y, reduced,
                                                      stream);
  case OpCode::ReduceProd:
    return reduceDispatch<RK::Prod, TypeSet::Numeric>(args, x, y, reduced,
                                                      stream);
  case OpCode::ReduceMax:
    return reduceDispatch<RK::Max, TypeSet::All>(args, x, y, reduced, stream);
  case OpCode::ReduceMin:
    return reduceDispatch<RK::Min, TypeSet::All>(args, x, y, reduced, stream);
  case OpCode::ReduceSumSquare:
    return reduceDispatch<RK::SumSquare, TypeSet::Float>(args, x, y, reduced,
                                                         stream);
  default:
    return args.fail("not a reduction");
  }
}

//===----------------------------------------------------------------------===//
// ArgMax / ArgMin.
//===----------------------------------------------------------------------===//

namespace {

/// The comparison type of element type D (bool compares as int).
template <DType D>
using ArgT = std::conditional_t<D == DType::Bool, int, DevC<D>>;

/// Folds candidate (v, i) into (bv, bi); bi < 0 marks "no candidate yet".
/// The extreme wins (NaN is the extreme of both orders); among equal
/// extremes the smallest index, or the largest with selectLast.
template <typename T>
__device__ __forceinline__ void argFold(T &bv, int64_t &bi, T v, int64_t i,
                                        bool isMax, bool selectLast) {
  if (i < 0)
    return;
  if (bi < 0) {
    bv = v;
    bi = i;
    return;
  }
  bool better, tie;
  if constexpr (std::is_floating_point_v<T>) {
    const bool vn = isNaNf(v), bn = isNaNf(bv);
    better = (vn && !bn) || (!vn && !bn && (isMax ? bv < v : v < bv));
    tie = (vn && bn) || v == bv;
  } else {
    better = isMax ? bv < v : v < bv;
    tie = v == bv;
  }
  if (better || (tie && (selectLast ? i > bi : i < bi))) {
    bv = v;
    bi = i;
  }
}

template <DType D>
__global__ void __launch_bounds__(256)
    argRowKernel(const DevS<D> *x, int64_t *y, int64_t rows, int64_t c,
                 bool isMax, bool selectLast) {
  using T = ArgT<D>;
  __shared__ T sv[32];
  __shared__ int64_t si[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int nWarps = blockDim.x >> 5;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const DevS<D> *xr = x + row * c;
    T bv = T(0);
    int64_t bi = -1;
    for (int64_t j = threadIdx.x; j < c; j += blockDim.x)
      argFold(bv, bi, T(ldc<D>(xr[j])), j, isMax, selectLast);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      const T v = __shfl_xor_sync(0xffffffffu, bv, o);
      const int64_t i = __shfl_xor_sync(0xffffffffu, bi, o);
      argFold(bv, bi, v, i, isMax, selectLast);
    }
    __syncthreads();
    if (lane == 0) {
      sv[warp] = bv;
      si[warp] = bi;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      for (int w = 1; w < nWarps; ++w)
        argFold(bv, bi, sv[w], si[w], isMax, selectLast);
      y[row] = bi;
    }
  }
}

/// One thread per (outer, inner) column, scanning like the CPU.
template <DType D>
__global__ void __launch_bounds__(256)
    argColumnKernel(const DevS<D> *x, int64_t *y, int64_t outer, int64_t c,
                    int64_t inner, bool isMax, bool selectLast) {
  using T = ArgT<D>;
  const int64_t total = outer * inner;
  for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
       t += int64_t(gridDim.x) * blockDim.x) {
    const int64_t o = t / inner;
    const int64_t i = t - o * inner;
    const DevS<D> *p = x + o * c * inner + i;
    T bv = T(0);
    int64_t bi = -1;
    for (int64_t j = 0; j < c; ++j)
      argFold(bv, bi, T(ldc<D>(p[j * inner])), j, isMax, selectLast);
    y[t] = bi;
  }
}

} // namespace

Status launchArgReduce(const KernelArgs &args, cudaStream_t stream) {
  AxisScan s;
  PARACC_RETURN_IF_ERROR(checkArgReduce(args, checkGpuDType, s));
  if (s.empty())
    return Status::ok();
  const int64_t outer = s.outer, c = s.c, inner = s.inner;
  const bool isMax = s.isMax, selectLast = s.selectLast;
  return visitGpuDType<
      TypeSet::All>(args, s.x->dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    const DevS<D> *px = static_cast<const DevS<D> *>(s.x->data());
    int64_t *py = static_cast<int64_t *>(s.y->data());
    if (inner == 1 && c >= 64) {
      const int threads = int(std::min<int64_t>(256, roundUp32(c / 4)));
      argRowKernel<D>
          <<<unsigned(std::min<int64_t>(int64_t(1) << 30, outer)), threads, 0,
             stream>>>(px, py, outer, c, isMax, selectLast);
    } else {
      argColumnKernel<D><<<gridFor(outer * inner, 256), 256, 0, stream>>>(
          px, py, outer, c, inner, isMax, selectLast);
    }
    return checkLaunch(args);
  });
}

//===----------------------------------------------------------------------===//
// TopK.
//===----------------------------------------------------------------------===//

namespace {

/// Whether (a, ia) comes before (b, ib) in TopK's order: NaN the largest,
/// equal elements by position.
template <typename T>
__device__ __forceinline__ bool topKBefore(T a, int64_t ia, T b, int64_t ib,
                                           bool largest) {
  bool an = false, bn = false;
  if constexpr (std::is_floating_point_v<T>) {
    an = isnan(a);
    bn = isnan(b);
  }
  if (an != bn)
    return largest ? an : bn;
  if (!an && a != b)
    return largest ? b < a : a < b;
  return ia < ib;
}

/// One thread per (outer, inner) column; k selection passes, each picking
/// the first element after the previous pick in TopK's order (a router's
/// few experts: k and the row are small).
template <DType D>
__global__ void __launch_bounds__(256)
    topKColumnKernel(const DevS<D> *x, DevS<D> *values, int64_t *indices,
                     int64_t outer, int64_t c, int64_t inner, int64_t k,
                     bool largest) {
  using T = ArgT<D>;
  for (int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
       t < outer * inner; t += int64_t(gridDim.x) * blockDim.x) {
    const int64_t o = t / inner, i = t - o * inner;
    const DevS<D> *p = x + o * c * inner + i;
    T last = T(0);
    int64_t lastIdx = -1;
    for (int64_t n = 0; n < k; ++n) {
      T best = T(0);
      int64_t bestIdx = -1;
      for (int64_t j = 0; j < c; ++j) {
        const T v = T(ldc<D>(p[j * inner]));
        if (lastIdx >= 0 && !topKBefore(last, lastIdx, v, j, largest))
          continue;
        if (bestIdx < 0 || topKBefore(v, j, best, bestIdx, largest)) {
          best = v;
          bestIdx = j;
        }
      }
      const int64_t at = (o * k + n) * inner + i;
      values[at] = p[bestIdx * inner];
      indices[at] = bestIdx;
      last = best;
      lastIdx = bestIdx;
    }
  }
}

} // namespace

Status launchTopK(const KernelArgs &args, cudaStream_t stream) {
  AxisScan s;
  PARACC_RETURN_IF_ERROR(checkTopK(args, checkGpuDType, s));
  if (s.empty())
    return Status::ok();
  return visitGpuDType<TypeSet::All>(
      args, s.x->dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        topKColumnKernel<D>
            <<<gridFor(s.outer * s.inner, 256), 256, 0, stream>>>(
                static_cast<const DevS<D> *>(s.x->data()),
                static_cast<DevS<D> *>(s.y->data()),
                static_cast<int64_t *>(s.indices->data()), s.outer, s.c,
                s.inner, s.k, s.largest);
        return checkLaunch(args);
      });
}

//===----------------------------------------------------------------------===//
// CumSum.
//===----------------------------------------------------------------------===//

namespace {

template <DType D>
using CumT = std::conditional_t<kIsFloatD<D>, double, int64_t>;

template <typename A> __device__ __forceinline__ A cumAdd(A a, A b) {
  if constexpr (std::is_integral_v<A>)
    return A(uint64_t(a) + uint64_t(b));
  else
    return a + b;
}

/// The accumulator as a result element (double -> float -> storage, like
/// the CPU's static_cast to the compute type then store).
template <DType D> __device__ __forceinline__ DevS<D> cumOut(CumT<D> a) {
  if constexpr (kIsFloatD<D>)
    return stc<D>(__double2float_rn(a));
  else
    return stc<D>(static_cast<DevC<D>>(a));
}

/// One thread per (outer, inner) column, sequential along the axis.
template <DType D>
__global__ void __launch_bounds__(256)
    cumSumColumnKernel(const DevS<D> *x, DevS<D> *y, int64_t outer, int64_t c,
                       int64_t inner, bool exclusive, bool reverse) {
  using A = CumT<D>;
  const int64_t total = outer * inner;
  for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
       t += int64_t(gridDim.x) * blockDim.x) {
    const int64_t o = t / inner;
    const int64_t i = t - o * inner;
    const int64_t base = o * c * inner + i;
    A acc = A(0);
    for (int64_t step = 0; step < c; ++step) {
      const int64_t j = reverse ? c - 1 - step : step;
      const int64_t at = base + j * inner;
      const A next = cumAdd(acc, A(ldc<D>(x[at])));
      y[at] = cumOut<D>(exclusive ? acc : next);
      acc = next;
    }
  }
}

constexpr int kScanThreads = 256;
constexpr int kScanItems = 4;

/// One block per contiguous row: chunks of kScanThreads * kScanItems
/// elements, each scanned in registers and across the block, with a carry.
template <DType D>
__global__ void __launch_bounds__(kScanThreads)
    cumSumRowKernel(const DevS<D> *x, DevS<D> *y, int64_t rows, int64_t c,
                    bool exclusive, bool reverse) {
  using A = CumT<D>;
  constexpr int kWarps = kScanThreads / 32;
  __shared__ A warpSums[kWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const DevS<D> *xr = x + row * c;
    DevS<D> *yr = y + row * c;
    A carry = A(0);
    for (int64_t base = 0; base < c; base += kScanThreads * kScanItems) {
      A vals[kScanItems];
      A local = A(0);
#pragma unroll
      for (int k = 0; k < kScanItems; ++k) {
        const int64_t p = base + int64_t(threadIdx.x) * kScanItems + k;
        A v = A(0);
        if (p < c)
          v = A(ldc<D>(xr[reverse ? c - 1 - p : p]));
        local = cumAdd(local, v);
        vals[k] = local;
      }
      // Inclusive scan of the thread totals within the warp.
      A incl = local;
#pragma unroll
      for (int o = 1; o < 32; o <<= 1) {
        const A t = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o)
          incl = cumAdd(incl, t);
      }
      A excl = __shfl_up_sync(0xffffffffu, incl, 1);
      if (lane == 0)
        excl = A(0);
      if (lane == 31)
        warpSums[warp] = incl;
      __syncthreads();
      A prefix = carry;
      A total = carry;
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        if (w < warp)
          prefix = cumAdd(prefix, warpSums[w]);
        total = cumAdd(total, warpSums[w]);
      }
      prefix = cumAdd(prefix, excl);
#pragma unroll
      for (int k = 0; k < kScanItems; ++k) {
        const int64_t p = base + int64_t(threadIdx.x) * kScanItems + k;
        if (p < c) {
          const A before = k == 0 ? prefix : cumAdd(prefix, vals[k - 1]);
          const A after = cumAdd(prefix, vals[k]);
          yr[reverse ? c - 1 - p : p] = cumOut<D>(exclusive ? before : after);
        }
      }
      carry = total;
      __syncthreads();
    }
  }
}

} // namespace

Status launchCumSum(const KernelArgs &args, cudaStream_t stream) {
  AxisScan s;
  PARACC_RETURN_IF_ERROR(checkCumSum(args, checkGpuDType, s));
  if (s.empty())
    return Status::ok();
  const int64_t outer = s.outer, c = s.c, inner = s.inner;
  const bool exclusive = s.exclusive, reverse = s.reverse;
  return visitGpuDType<TypeSet::Numeric>(
      args, s.x->dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        const DevS<D> *px = static_cast<const DevS<D> *>(s.x->data());
        DevS<D> *py = static_cast<DevS<D> *>(s.y->data());
        if (inner == 1 && c > 64) {
          cumSumRowKernel<D>
              <<<unsigned(std::min<int64_t>(int64_t(1) << 30, outer)),
                 kScanThreads, 0, stream>>>(px, py, outer, c, exclusive,
                                            reverse);
        } else {
          cumSumColumnKernel<D>
              <<<gridFor(outer * inner, 256), 256, 0, stream>>>(
                  px, py, outer, c, inner, exclusive, reverse);
        }
        return checkLaunch(args);
      });
}

} // namespace paracc::rt::cuda

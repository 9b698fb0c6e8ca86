//===- Normalization.cu - LayerNorm, RmsNorm, Softmax, LogSoftmax ---------===//
//
// Row kernels with the semantics of cpu/Normalization.cpp, statistics in
// f32. A row (the normalized trailing dimensions, or the softmax axis when
// it is the last one) is read once into registers, reduced with warp
// shuffles (and shared memory across the warps of a block), and written
// once:
//
//  - rows of up to 128 vectors (1024 bf16/f16, 512 f32 elements): one warp
//    per row, four rows per block;
//  - up to 1024 vectors: one block of up to 256 threads per row;
//  - up to 4096 vectors: one block of up to 512 threads per row;
//  - longer rows: one block of 1024 threads per row that reads the row from
//    global memory once per pass (2-3 passes, mostly hitting L2).
//
// A vector is 16 bytes when the row length and the buffers allow it. Scale
// and bias that do not have exactly the normalized shape (broadcast ones)
// take the last, generic form. Softmax over another axis uses one thread
// per (outer, inner) column.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ReductionChecks.h"
#include "cuda/DeviceUtil.cuh"

#include <algorithm>
#include <cmath>

namespace paracc::rt::cuda {

namespace {

enum class RowKind { LayerNorm, RmsNorm, Softmax, LogSoftmax };

template <DType D> struct RowArgs {
  const DevS<D> *x = nullptr;
  const DevS<D> *scale = nullptr;
  const DevS<D> *bias = nullptr; // Null: no bias.
  DevS<D> *y = nullptr;
  int64_t rows = 0;
  int64_t d = 0;
  float eps = 0.0f;
  /// Scale/bias of exactly d elements; otherwise `map` gives their offsets
  /// (operand 0: scale, 1: bias) for an index of the normalized dims.
  bool fullScale = true;
  OffsetCalc<2, uint64_t> map;
};

template <bool kWarp, typename Op>
__device__ __forceinline__ float rowAllReduce(float v, Op op, float *smem) {
  if constexpr (kWarp)
    return warpReduce(v, op);
  else
    return blockReduce(v, op, smem);
}

constexpr int kWarpRows = 4; // Rows per block in warp mode.

constexpr int maxThreadsFor(bool warp, int chunks) {
  return warp ? 32 * kWarpRows
              : (chunks == 8 ? 512 : (chunks == 4 ? 256 : 1024));
}

/// Scale (k = 0) or bias (k = 1) element j of the normalized dims.
template <DType D>
__device__ __forceinline__ float
affineAt(const RowArgs<D> &p, const DevS<D> *base, int k, int64_t j) {
  if (p.fullScale)
    return ldc<D>(base[j]);
  int64_t off[2];
  p.map.get(uint64_t(j), off);
  return ldc<D>(base[off[k]]);
}

/// One row per warp (kWarp) or per block; kChunks vectors of V elements
/// per thread held in registers, or none (kChunks == 0: passes over global
/// memory).
template <DType D, RowKind K, int V, int kChunks, bool kWarp>
__global__ void __launch_bounds__(maxThreadsFor(kWarp, kChunks))
    rowKernel(RowArgs<D> p) {
  using S = DevS<D>;
  __shared__ float smem[32];
  const int tid = threadIdx.x;
  const int nthr = kWarp ? 32 : int(blockDim.x);
  const int64_t rowStep =
      kWarp ? int64_t(gridDim.x) * blockDim.y : int64_t(gridDim.x);
  const int64_t firstRow = kWarp
                               ? int64_t(blockIdx.x) * blockDim.y + threadIdx.y
                               : int64_t(blockIdx.x);
  const int64_t nv = p.d / V;
  const float fd = float(p.d);
  const bool hasBias = p.bias != nullptr;

  for (int64_t row = firstRow; row < p.rows; row += rowStep) {
    const S *xr = p.x + row * p.d;
    S *yr = p.y + row * p.d;
    if constexpr (kChunks > 0) {
      float v[kChunks][V];
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
        const int64_t vi = tid + int64_t(c) * nthr;
        if (vi < nv) {
          const VecT<S, V> t = loadVec<V>(xr, vi);
#pragma unroll
          for (int k = 0; k < V; ++k)
            v[c][k] = ldc<D>(t.v[k]);
        } else {
#pragma unroll
          for (int k = 0; k < V; ++k)
            v[c][k] = 0.0f;
        }
      }
      if constexpr (K == RowKind::LayerNorm || K == RowKind::RmsNorm) {
        float mean = 0.0f;
        if constexpr (K == RowKind::LayerNorm) {
          float s = 0.0f;
#pragma unroll
          for (int c = 0; c < kChunks; ++c)
#pragma unroll
            for (int k = 0; k < V; ++k)
              s += v[c][k]; // Padding is zero.
          mean = rowAllReduce<kWarp>(s, SumF(), smem) / fd;
        }
        float q = 0.0f;
#pragma unroll
        for (int c = 0; c < kChunks; ++c) {
          if (tid + int64_t(c) * nthr < nv) {
#pragma unroll
            for (int k = 0; k < V; ++k) {
              const float t = v[c][k] - mean;
              q += t * t;
            }
          }
        }
        const float var = rowAllReduce<kWarp>(q, SumF(), smem) / fd;
        const float rstd = rsqrtf(var + p.eps);
#pragma unroll
        for (int c = 0; c < kChunks; ++c) {
          const int64_t vi = tid + int64_t(c) * nthr;
          if (vi < nv) {
            const VecT<S, V> sc = loadVec<V>(p.scale, vi);
            VecT<S, V> bi;
            if (K == RowKind::LayerNorm && hasBias)
              bi = loadVec<V>(p.bias, vi);
            VecT<S, V> o;
#pragma unroll
            for (int k = 0; k < V; ++k) {
              float r = (v[c][k] - mean) * rstd * ldc<D>(sc.v[k]);
              if (K == RowKind::LayerNorm && hasBias)
                r += ldc<D>(bi.v[k]);
              o.v[k] = stc<D>(r);
            }
            storeVec<V>(yr, vi, o);
          }
        }
      } else {
        float m = -INFINITY;
#pragma unroll
        for (int c = 0; c < kChunks; ++c) {
          if (tid + int64_t(c) * nthr < nv) {
#pragma unroll
            for (int k = 0; k < V; ++k)
              m = nanMax(m, v[c][k]);
          }
        }
        m = rowAllReduce<kWarp>(m, MaxF(), smem);
        float s = 0.0f;
#pragma unroll
        for (int c = 0; c < kChunks; ++c) {
          if (tid + int64_t(c) * nthr < nv) {
#pragma unroll
            for (int k = 0; k < V; ++k) {
              const float e = __expf(v[c][k] - m);
              if constexpr (K == RowKind::Softmax)
                v[c][k] = e;
              s += e;
            }
          }
        }
        s = rowAllReduce<kWarp>(s, SumF(), smem);
        const float inv = __frcp_rn(s);
        const float lse = __logf(s);
#pragma unroll
        for (int c = 0; c < kChunks; ++c) {
          const int64_t vi = tid + int64_t(c) * nthr;
          if (vi < nv) {
            VecT<S, V> o;
#pragma unroll
            for (int k = 0; k < V; ++k) {
              if constexpr (K == RowKind::Softmax)
                o.v[k] = stc<D>(v[c][k] * inv);
              else
                o.v[k] = stc<D>((v[c][k] - m) - lse);
            }
            storeVec<V>(yr, vi, o);
          }
        }
      }
    } else {
      // Long rows: passes over global memory.
      if constexpr (K == RowKind::LayerNorm || K == RowKind::RmsNorm) {
        float mean = 0.0f;
        if constexpr (K == RowKind::LayerNorm) {
          float s = 0.0f;
          for (int64_t vi = tid; vi < nv; vi += nthr) {
            const VecT<S, V> t = loadVec<V>(xr, vi);
#pragma unroll
            for (int k = 0; k < V; ++k)
              s += ldc<D>(t.v[k]);
          }
          mean = rowAllReduce<kWarp>(s, SumF(), smem) / fd;
        }
        float q = 0.0f;
        for (int64_t vi = tid; vi < nv; vi += nthr) {
          const VecT<S, V> t = loadVec<V>(xr, vi);
#pragma unroll
          for (int k = 0; k < V; ++k) {
            const float u = ldc<D>(t.v[k]) - mean;
            q += u * u;
          }
        }
        const float var = rowAllReduce<kWarp>(q, SumF(), smem) / fd;
        const float rstd = rsqrtf(var + p.eps);
        for (int64_t vi = tid; vi < nv; vi += nthr) {
          const VecT<S, V> t = loadVec<V>(xr, vi);
          VecT<S, V> o;
#pragma unroll
          for (int k = 0; k < V; ++k) {
            const int64_t j = vi * V + k;
            float r =
                (ldc<D>(t.v[k]) - mean) * rstd * affineAt(p, p.scale, 0, j);
            if (K == RowKind::LayerNorm && hasBias)
              r += affineAt(p, p.bias, 1, j);
            o.v[k] = stc<D>(r);
          }
          storeVec<V>(yr, vi, o);
        }
      } else {
        float m = -INFINITY;
        for (int64_t vi = tid; vi < nv; vi += nthr) {
          const VecT<S, V> t = loadVec<V>(xr, vi);
#pragma unroll
          for (int k = 0; k < V; ++k)
            m = nanMax(m, ldc<D>(t.v[k]));
        }
        m = rowAllReduce<kWarp>(m, MaxF(), smem);
        float s = 0.0f;
        for (int64_t vi = tid; vi < nv; vi += nthr) {
          const VecT<S, V> t = loadVec<V>(xr, vi);
#pragma unroll
          for (int k = 0; k < V; ++k)
            s += __expf(ldc<D>(t.v[k]) - m);
        }
        s = rowAllReduce<kWarp>(s, SumF(), smem);
        const float inv = __frcp_rn(s);
        const float lse = __logf(s);
        for (int64_t vi = tid; vi < nv; vi += nthr) {
          const VecT<S, V> t = loadVec<V>(xr, vi);
          VecT<S, V> o;
#pragma unroll
          for (int k = 0; k < V; ++k) {
            const float u = ldc<D>(t.v[k]) - m;
            if constexpr (K == RowKind::Softmax)
              o.v[k] = stc<D>(__expf(u) * inv);
            else
              o.v[k] = stc<D>(u - lse);
          }
          storeVec<V>(yr, vi, o);
        }
      }
    }
  }
}

/// Softmax over a non-last axis: one thread per (outer, inner) column, the
/// column read three times (coalesced across inner).
template <DType D, bool kLog>
__global__ void __launch_bounds__(256)
    softmaxColumnKernel(const DevS<D> *x, DevS<D> *y, int64_t outer, int64_t c,
                        int64_t inner) {
  const int64_t total = outer * inner;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
       t += stride) {
    const int64_t o = t / inner;
    const int64_t i = t - o * inner;
    const int64_t base = o * c * inner + i;
    float m = -INFINITY;
    for (int64_t j = 0; j < c; ++j)
      m = nanMax(m, ldc<D>(x[base + j * inner]));
    float s = 0.0f;
    for (int64_t j = 0; j < c; ++j)
      s += __expf(ldc<D>(x[base + j * inner]) - m);
    const float inv = __frcp_rn(s);
    const float lse = __logf(s);
    for (int64_t j = 0; j < c; ++j) {
      const float u = ldc<D>(x[base + j * inner]) - m;
      y[base + j * inner] = stc<D>(kLog ? u - lse : __expf(u) * inv);
    }
  }
}

template <int N> struct IntTag { static constexpr int value = N; };

int roundUp32(int64_t n) {
  return int(std::max<int64_t>(32, ceilDiv(n, 32) * 32));
}

/// Picks the row kernel for p (V-element vectors when `vec`).
template <DType D, RowKind K>
Status launchRows(const KernelArgs &args, const RowArgs<D> &p, bool vec,
                  cudaStream_t stream) {
  constexpr int kV = kVec16<DevS<D>>;
  constexpr int64_t kMaxGrid = int64_t(1) << 30;
  auto go = [&](auto vTag) -> Status {
    constexpr int V = decltype(vTag)::value;
    const int64_t nv = p.d / V;
    if (p.fullScale && nv <= 32 * 4) {
      const dim3 block(32, kWarpRows);
      const unsigned grid =
          unsigned(std::min(kMaxGrid, ceilDiv(p.rows, kWarpRows)));
      rowKernel<D, K, V, 4, true><<<grid, block, 0, stream>>>(p);
    } else if (p.fullScale && nv <= 256 * 4) {
      const int threads = std::max(64, roundUp32(ceilDiv(nv, 4)));
      rowKernel<D, K, V, 4, false>
          <<<unsigned(std::min(kMaxGrid, p.rows)), threads, 0, stream>>>(p);
    } else if (p.fullScale && nv <= 512 * 8) {
      const int threads = roundUp32(ceilDiv(nv, 8));
      rowKernel<D, K, V, 8, false>
          <<<unsigned(std::min(kMaxGrid, p.rows)), threads, 0, stream>>>(p);
    } else {
      const int threads = int(std::min<int64_t>(1024, roundUp32(nv)));
      rowKernel<D, K, V, 0, false>
          <<<unsigned(std::min(kMaxGrid, p.rows)), threads, 0, stream>>>(p);
    }
    return checkLaunch(args);
  };
  if constexpr (kV > 1) {
    if (vec)
      return go(IntTag<kV>());
  }
  return go(IntTag<1>());
}

} // namespace

Status launchNorm(const KernelArgs &args, cudaStream_t stream) {
  NormProblem n;
  PARACC_RETURN_IF_ERROR(checkNorm(args, checkGpuDType, n));
  if (n.empty())
    return Status::ok();
  const Tensor &x = *n.x, &scale = *n.scale, *bias = n.bias;

  return visitGpuDType<TypeSet::Float>(
      args, x.dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        using S = DevS<D>;
        constexpr int kV = kVec16<S>;
        RowArgs<D> p;
        p.x = static_cast<const S *>(x.data());
        p.scale = static_cast<const S *>(scale.data());
        p.bias = bias ? static_cast<const S *>(bias->data()) : nullptr;
        p.y = static_cast<S *>(n.y->data());
        p.d = n.d;
        p.rows = x.numElements() / n.d;
        p.eps = float(n.eps);
        p.fullScale =
            scale.numElements() == n.d && (!bias || bias->numElements() == n.d);
        if (!p.fullScale) {
          const Shape &biasShape = bias ? bias->shape() : scale.shape();
          // Strides of scale and bias over the normalized dims (0 where
          // broadcast), merged together.
          auto strides = [&](const Shape &shape) {
            std::vector<int64_t> st(n.normShape.size(), 0);
            const size_t lead = n.normShape.size() - shape.size();
            int64_t stride = 1;
            for (size_t i = shape.size(); i-- > 0;) {
              if (shape[i] != 1)
                st[lead + i] = stride;
              stride *= shape[i];
            }
            return st;
          };
          StridedPlan plan;
          plan.dims = n.normShape;
          plan.strides = {strides(scale.shape()), strides(biasShape)};
          simplifyPlan(plan);
          if (plan.dims.size() > size_t(kMaxDims))
            return args.fail("scale/bias broadcast needs more than ", kMaxDims,
                             " dimensions");
          p.map = makeOffsetCalc<2, uint64_t>(plan.dims, plan.strides);
        }
        const bool vec = kV > 1 && p.fullScale && n.d % kV == 0 &&
                         isAligned(p.x, 16) && isAligned(p.y, 16) &&
                         isAligned(p.scale, 16) &&
                         (!p.bias || isAligned(p.bias, 16));
        if (n.isLayerNorm)
          return launchRows<D, RowKind::LayerNorm>(args, p, vec, stream);
        return launchRows<D, RowKind::RmsNorm>(args, p, vec, stream);
      });
}

Status launchSoftmax(const KernelArgs &args, cudaStream_t stream) {
  AxisScan s;
  PARACC_RETURN_IF_ERROR(checkSoftmax(args, checkGpuDType, s));
  if (s.empty())
    return Status::ok();
  const int64_t outer = s.outer, c = s.c, inner = s.inner;

  return visitGpuDType<TypeSet::Float>(
      args, s.x->dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        using S = DevS<D>;
        constexpr int kV = kVec16<S>;
        const S *px = static_cast<const S *>(s.x->data());
        S *py = static_cast<S *>(s.y->data());
        if (inner == 1) {
          RowArgs<D> p;
          p.x = px;
          p.y = py;
          p.rows = outer;
          p.d = c;
          const bool vec =
              kV > 1 && c % kV == 0 && isAligned(px, 16) && isAligned(py, 16);
          if (s.isLog)
            return launchRows<D, RowKind::LogSoftmax>(args, p, vec, stream);
          return launchRows<D, RowKind::Softmax>(args, p, vec, stream);
        }
        const int64_t total = outer * inner;
        const unsigned grid =
            unsigned(std::min<int64_t>(int64_t(1) << 20, ceilDiv(total, 256)));
        if (s.isLog)
          softmaxColumnKernel<D, true>
              <<<grid, 256, 0, stream>>>(px, py, outer, c, inner);
        else
          softmaxColumnKernel<D, false>
              <<<grid, 256, 0, stream>>>(px, py, outer, c, inner);
        return checkLaunch(args);
      });
}

} // namespace paracc::rt::cuda

//===- Rotary.cu - Rotary position embedding on the GPU --------*- C++ -*-===//
//
// The Rotary instruction (OpCodes.def), with the semantics of
// cpu/Rotary.cpp, computed in f32: one thread per run of V consecutive
// pairs (j, j + D/2) of a row (V = 8 bf16/f16 or 4 f32 in 16-byte vectors
// when rows, tables and alignment allow, else 1), so that each element of
// x is read once; the tables are read through their broadcast strides over
// x's leading dims, with 32-bit index arithmetic below 2^31 elements.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ElementwiseChecks.h"
#include "cuda/CudaKernelUtil.h"
#include "cuda/DeviceUtil.cuh"

#include <algorithm>

namespace paracc::rt::cuda {

namespace {

constexpr int kMaxLeadDims = 8;

struct RotaryParams {
  const void *x = nullptr, *cos = nullptr, *sin = nullptr;
  void *y = nullptr;
  int64_t n = 0;
  int32_t d = 0;
  int32_t transposed = 0;
  /// x's leading dims (merged where the tables allow) and the tables'
  /// strides along them and along the last dim.
  int32_t lead = 0;
  int64_t dims[kMaxLeadDims] = {};
  int64_t cosStride[kMaxLeadDims] = {}, sinStride[kMaxLeadDims] = {};
  int64_t cosCol = 0, sinCol = 0;
};

/// The tables' offsets for row r of x (its leading multi-index), in 32-bit
/// arithmetic when the sizes allow (kSmall).
template <bool kSmall>
__device__ __forceinline__ void tableRow(const RotaryParams &p, int64_t r,
                                         int64_t &co, int64_t &so) {
  co = so = 0;
  if constexpr (kSmall) {
    uint32_t rest = uint32_t(r);
    for (int k = p.lead - 1; k >= 0; --k) {
      const uint32_t n = uint32_t(p.dims[k]);
      const uint32_t idx = rest % n;
      rest /= n;
      co += int64_t(idx) * p.cosStride[k];
      so += int64_t(idx) * p.sinStride[k];
    }
  } else {
    int64_t rest = r;
    for (int k = p.lead - 1; k >= 0; --k) {
      const int64_t idx = rest % p.dims[k];
      rest /= p.dims[k];
      co += idx * p.cosStride[k];
      so += idx * p.sinStride[k];
    }
  }
}

/// One thread per V consecutive pairs (j, j + D/2) of a row, j < D/2:
/// loads V elements of each half of x and of the tables (16-byte vectors
/// when V > 1; the tables then have a unit last-dim stride), writes both
/// halves of y.
template <DType D, int V, bool kSmall>
__global__ void __launch_bounds__(256) rotaryKernel(RotaryParams p) {
  using S = DevS<D>;
  const S *x = static_cast<const S *>(p.x);
  const S *cs = static_cast<const S *>(p.cos);
  const S *sn = static_cast<const S *>(p.sin);
  S *y = static_cast<S *>(p.y);
  const int h = p.d / 2, groups = h / V;
  const int64_t rows = p.n / p.d, work = rows * groups;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t w = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; w < work;
       w += stride) {
    int64_t r;
    int j;
    if constexpr (kSmall) {
      r = int64_t(uint32_t(w) / uint32_t(groups));
      j = int(uint32_t(w) - uint32_t(r) * uint32_t(groups)) * V;
    } else {
      r = w / groups;
      j = int(w - r * groups) * V;
    }
    int64_t co, so;
    tableRow<kSmall>(p, r, co, so);
    const int64_t lo = r * p.d + j, hi = lo + h;
    float x1[V], x2[V], c1[V], c2[V], s1[V], s2[V];
    if constexpr (V > 1) {
      const VecT<S, V> a = loadVec<V>(x + lo, 0), b = loadVec<V>(x + hi, 0);
      const VecT<S, V> ca = loadVec<V>(cs + co + j, 0),
                       cb = loadVec<V>(cs + co + j + h, 0);
      const VecT<S, V> sa = loadVec<V>(sn + so + j, 0),
                       sb = loadVec<V>(sn + so + j + h, 0);
#pragma unroll
      for (int k = 0; k < V; ++k) {
        x1[k] = ldc<D>(a.v[k]);
        x2[k] = ldc<D>(b.v[k]);
        c1[k] = ldc<D>(ca.v[k]);
        c2[k] = ldc<D>(cb.v[k]);
        s1[k] = ldc<D>(sa.v[k]);
        s2[k] = ldc<D>(sb.v[k]);
      }
    } else {
      x1[0] = ldc<D>(x[lo]);
      x2[0] = ldc<D>(x[hi]);
      c1[0] = ldc<D>(cs[co + int64_t(j) * p.cosCol]);
      c2[0] = ldc<D>(cs[co + int64_t(j + h) * p.cosCol]);
      s1[0] = ldc<D>(sn[so + int64_t(j) * p.sinCol]);
      s2[0] = ldc<D>(sn[so + int64_t(j + h) * p.sinCol]);
    }
    VecT<S, V> o1, o2;
#pragma unroll
    for (int k = 0; k < V; ++k) {
      float y1, y2;
      if (!p.transposed) {
        // y = x c + rotate_half(x) s, rotate_half = [-x2, x1].
        y1 = x1[k] * c1[k] - x2[k] * s1[k];
        y2 = x2[k] * c2[k] + x1[k] * s2[k];
      } else {
        // y = x c + rotate_half^T(x s), rotate_half^T(z) = [z2, -z1].
        y1 = x1[k] * c1[k] + x2[k] * s2[k];
        y2 = x2[k] * c2[k] - x1[k] * s1[k];
      }
      o1.v[k] = stc<D>(y1);
      o2.v[k] = stc<D>(y2);
    }
    if constexpr (V > 1) {
      storeVec<V>(y + lo, 0, o1);
      storeVec<V>(y + hi, 0, o2);
    } else {
      y[lo] = o1.v[0];
      y[hi] = o2.v[0];
    }
  }
}

} // namespace

Status launchRotary(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkRotary(args, checkGpuDType));
  const Tensor &x = *args.in[0], &cos = *args.in[1], &sin = *args.in[2];
  Tensor &y = *args.out[0];
  if (x.numElements() == 0)
    return Status::ok();
  RotaryParams p;
  p.x = x.data();
  p.cos = cos.data();
  p.sin = sin.data();
  p.y = y.data();
  p.n = x.numElements();
  p.d = static_cast<int32_t>(x.shape().back());
  p.transposed = args.attrsAs<RotaryAttrs>().transposed;
  const std::vector<int64_t> cs = broadcastStrides(cos.shape(), x.shape()),
                             ss = broadcastStrides(sin.shape(), x.shape());
  p.cosCol = cs.back();
  p.sinCol = ss.back();
  // Leading dims, merging neighbours along which both tables advance
  // together (or neither moves), until at most kMaxLeadDims remain.
  std::vector<int64_t> dims, cst, sst;
  for (size_t k = 0; k + 1 < x.shape().size(); ++k) {
    const int64_t n = x.shape()[k];
    if (n == 1)
      continue;
    if (!dims.empty() && cst.back() == cs[k] * n && sst.back() == ss[k] * n) {
      dims.back() *= n;
      cst.back() = cs[k];
      sst.back() = ss[k];
      continue;
    }
    dims.push_back(n);
    cst.push_back(cs[k]);
    sst.push_back(ss[k]);
  }
  if (dims.size() > size_t(kMaxLeadDims))
    return args.fail("the tables broadcast over more than ", kMaxLeadDims,
                     " separate leading dims");
  p.lead = static_cast<int32_t>(dims.size());
  for (size_t k = 0; k < dims.size(); ++k) {
    p.dims[k] = dims[k];
    p.cosStride[k] = cst[k];
    p.sinStride[k] = sst[k];
  }
  return visitGpuDType<TypeSet::Float>(
      args, x.dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        using S = DevS<D>;
        constexpr int kV = kVec16<S>;
        const int64_t h = p.d / 2;
        // 16-byte vectors: whole vectors per half row, aligned rows and
        // tables read along the last dim with unit stride.
        const bool vec =
            kV > 1 && h % kV == 0 && p.cosCol == 1 && p.sinCol == 1 &&
            isAligned(p.x, 16) && isAligned(p.y, 16) &&
            isAligned(p.cos, 16) && isAligned(p.sin, 16) &&
            (p.d * int64_t(sizeof(S))) % 16 == 0 &&
            std::all_of(p.cosStride, p.cosStride + p.lead,
                        [&](int64_t s) { return s % kV == 0; }) &&
            std::all_of(p.sinStride, p.sinStride + p.lead,
                        [&](int64_t s) { return s % kV == 0; });
        const int v = vec ? kV : 1;
        const int64_t work = p.n / 2 / v;
        const bool small = p.n < (int64_t(1) << 31);
        const unsigned grid = unsigned(std::min<int64_t>(
            int64_t(1) << 20, std::max<int64_t>(1, (work + 255) / 256)));
        if (vec && small)
          rotaryKernel<D, kV, true><<<grid, 256, 0, stream>>>(p);
        else if (vec)
          rotaryKernel<D, kV, false><<<grid, 256, 0, stream>>>(p);
        else if (small)
          rotaryKernel<D, 1, true><<<grid, 256, 0, stream>>>(p);
        else
          rotaryKernel<D, 1, false><<<grid, 256, 0, stream>>>(p);
        return checkLaunch(args);
      });
}

} // namespace paracc::rt::cuda

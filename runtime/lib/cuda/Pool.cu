//===- Pool.cu - Max and average pooling and their gradients --------------===//
//
// Pool and PoolGrad on the GPU (f32, bf16, f16; f32 arithmetic), with the
// CPU kernel's checks (ConvolutionGeometry.h) and results: a window's
// maximum or average over its positions inside the input (all of the
// kernel's positions with count_include_pad). The gradient is written by
// gathering, one thread per input position, never by scattered adds: each
// position sums what the windows containing it pass back (the maximum's
// gradient goes to the first of a window's largest positions, as on the
// CPU), so results do not depend on the order of additions.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ConvolutionGeometry.h"
#include "cuda/CudaKernelUtil.h"
#include "cuda/DeviceUtil.cuh"

#include <algorithm>

namespace paracc::rt::cuda {

namespace {

/// The geometry in kernel-argument form (1 to 3 spatial dims).
struct PoolParams {
  int rank;
  int64_t planes, inSize, outSize, kernelSize;
  int64_t in[3], out[3], kernel[3], strides[3], padsBegin[3], dilations[3];
  int64_t inStride[3], outStride[3], kernelStride[3];
  bool average, countPadding;
  const void *x, *dy;
  void *y;
};

PoolParams paramsOf(const ConvGeometry &g, bool average, bool countPadding) {
  PoolParams p{};
  p.rank = int(g.rank);
  p.planes = g.batch * g.channels;
  p.inSize = g.inSize;
  p.outSize = g.outSize;
  p.kernelSize = g.kernelSize;
  for (int d = 0; d < 3; ++d) {
    p.in[d] = g.in[d];
    p.out[d] = g.out[d];
    p.kernel[d] = g.kernel[d];
    p.strides[d] = g.strides[d];
    p.padsBegin[d] = g.padsBegin[d];
    p.dilations[d] = g.dilations[d];
    p.inStride[d] = g.inStride[d];
    p.outStride[d] = g.outStride[d];
    p.kernelStride[d] = g.kernelStride[d];
  }
  p.average = average;
  p.countPadding = countPadding;
  return p;
}

/// `flat`'s coordinates along the `rank` dims of `sizes` (row-major, the
/// given strides).
__device__ __forceinline__ void coordinates(const PoolParams &p,
                                            const int64_t *sizes,
                                            const int64_t *strides,
                                            int64_t flat, int64_t *at) {
  for (int d = 0; d < p.rank; ++d)
    at[d] = (flat / strides[d]) % sizes[d];
}

/// Calls f(flat input position) for each of window `od`'s taps that falls
/// inside the input, in the kernel's row-major order (the CPU kernel's
/// order); no divisions per tap.
template <typename F>
__device__ __forceinline__ void forEachTap(const PoolParams &p,
                                           const int64_t *od, F f) {
  int64_t start[3] = {0, 0, 0}, k[3] = {0, 0, 0};
  for (int d = 0; d < p.rank; ++d)
    start[d] = od[d] * p.strides[d] - p.padsBegin[d];
  for (int64_t t = 0; t < p.kernelSize; ++t) {
    bool inside = true;
    int64_t flat = 0;
    for (int d = 0; d < p.rank; ++d) {
      const int64_t i = start[d] + k[d] * p.dilations[d];
      inside = inside && i >= 0 && i < p.in[d];
      flat += i * p.inStride[d];
    }
    if (inside)
      f(flat);
    for (int d = p.rank - 1; d >= 0; --d) {
      if (++k[d] < p.kernel[d])
        break;
      k[d] = 0;
    }
  }
}

/// The divisor of window `od`'s average.
__device__ __forceinline__ float averageCount(const PoolParams &p,
                                              const int64_t *od) {
  if (p.countPadding)
    return float(p.kernelSize);
  int64_t count = 0;
  forEachTap(p, od, [&](int64_t) { ++count; });
  return float(count > 0 ? count : 1);
}

template <DType D> __global__ void poolKernel(PoolParams p) {
  using S = DevS<D>;
  const S *x = static_cast<const S *>(p.x);
  S *y = static_cast<S *>(p.y);
  const int64_t total = p.planes * p.outSize;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t plane = i / p.outSize, o = i - plane * p.outSize;
    const S *in = x + plane * p.inSize;
    int64_t od[3];
    coordinates(p, p.out, p.outStride, o, od);
    float acc = p.average ? 0.0f : -INFINITY;
    forEachTap(p, od, [&](int64_t at) {
      const float v = ldc<D>(in[at]);
      acc = p.average ? acc + v : fmaxf(acc, v);
    });
    if (p.average)
      acc /= averageCount(p, od);
    y[i] = stc<D>(acc);
  }
}

/// The output positions along dim d whose windows may contain input
/// position i: [lo, hi] (empty when lo > hi).
__device__ __forceinline__ void windowsAlong(const PoolParams &p, int d,
                                             int64_t i, int64_t &lo,
                                             int64_t &hi) {
  // o * stride - pad + k * dilation == i for some k in [0, kernel).
  const int64_t span = (p.kernel[d] - 1) * p.dilations[d];
  const int64_t first = i + p.padsBegin[d] - span, last = i + p.padsBegin[d];
  lo = first <= 0 ? 0 : (first + p.strides[d] - 1) / p.strides[d];
  hi = last < 0 ? -1 : last / p.strides[d];
  hi = hi < p.out[d] - 1 ? hi : p.out[d] - 1;
}

template <DType D> __global__ void poolGradKernel(PoolParams p) {
  using S = DevS<D>;
  const S *x = static_cast<const S *>(p.x);
  const S *dy = static_cast<const S *>(p.dy);
  S *dx = static_cast<S *>(p.y);
  const int64_t total = p.planes * p.inSize;
  for (int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; t < total;
       t += int64_t(gridDim.x) * blockDim.x) {
    const int64_t plane = t / p.inSize, i = t - plane * p.inSize;
    const S *in = x + plane * p.inSize;
    const S *grad = dy + plane * p.outSize;
    int64_t id[3] = {0, 0, 0}, lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0},
            od[3] = {0, 0, 0};
    coordinates(p, p.in, p.inStride, i, id);
    bool any = true;
    for (int d = 0; d < p.rank; ++d) {
      windowsAlong(p, d, id[d], lo[d], hi[d]);
      any = any && lo[d] <= hi[d];
      od[d] = lo[d];
    }
    float acc = 0.0f;
    while (any) {
      // Whether window od holds i: a tap lands on it along every dim.
      bool holds = true;
      int64_t o = 0;
      for (int d = 0; d < p.rank; ++d) {
        const int64_t off = id[d] + p.padsBegin[d] - od[d] * p.strides[d];
        holds = holds && off >= 0 && off % p.dilations[d] == 0 &&
                off / p.dilations[d] < p.kernel[d];
        o += od[d] * p.outStride[d];
      }
      if (holds) {
        if (p.average) {
          acc += ldc<D>(grad[o]) / averageCount(p, od);
        } else {
          // The forward's maximum: the first of the window's largest.
          int64_t best = -1;
          float bestValue = 0.0f;
          forEachTap(p, od, [&](int64_t at) {
            const float v = ldc<D>(in[at]);
            if (best < 0 || v > bestValue) {
              best = at;
              bestValue = v;
            }
          });
          if (best == i)
            acc += ldc<D>(grad[o]);
        }
      }
      // The next window along the dims, the last fastest.
      int d = p.rank - 1;
      for (; d >= 0; --d) {
        if (++od[d] <= hi[d])
          break;
        od[d] = lo[d];
      }
      any = d >= 0;
    }
    dx[t] = stc<D>(acc);
  }
}

unsigned gridFor(int64_t total) {
  return unsigned(
      std::max<int64_t>(1, std::min<int64_t>((total + 255) / 256,
                                             int64_t(deviceSMCount()) * 32)));
}

} // namespace

Status launchPool(const KernelArgs &args, cudaStream_t stream) {
  ConvGeometry g;
  bool average = false, countPadding = false;
  PARACC_RETURN_IF_ERROR(
      checkPool(args, checkGpuDType, g, average, countPadding));
  PoolParams p = paramsOf(g, average, countPadding);
  p.x = args.in[0]->data();
  p.y = args.out[0]->data();
  const int64_t total = p.planes * p.outSize;
  if (total == 0)
    return Status::ok();
  return visitGpuDType<TypeSet::Float>(
      args, args.in[0]->dtype(), [&](auto tag) -> Status {
        poolKernel<decltype(tag)::value><<<gridFor(total), 256, 0, stream>>>(p);
        return checkLaunch(args);
      });
}

Status launchPoolGrad(const KernelArgs &args, cudaStream_t stream) {
  ConvGeometry g;
  bool average = false, countPadding = false;
  PARACC_RETURN_IF_ERROR(
      checkPoolGrad(args, checkGpuDType, g, average, countPadding));
  PoolParams p = paramsOf(g, average, countPadding);
  p.x = args.in[0]->data();
  p.dy = args.in[1]->data();
  p.y = args.out[0]->data();
  const int64_t total = p.planes * p.inSize;
  if (total == 0)
    return Status::ok();
  return visitGpuDType<TypeSet::Float>(
      args, args.in[0]->dtype(), [&](auto tag) -> Status {
        poolGradKernel<decltype(tag)::value>
            <<<gridFor(total), 256, 0, stream>>>(p);
        return checkLaunch(args);
      });
}

} // namespace paracc::rt::cuda

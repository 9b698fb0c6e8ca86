//===- Pool.cu - Max and average pooling and their gradients --------------===//
//
// Pool and PoolGrad on the GPU (f32, bf16, f16; f32 arithmetic), with the
// CPU kernel's checks (ConvolutionGeometry.h) and results: a window's
// maximum or average over its positions inside the input (all of the
// kernel's positions with count_include_pad). The gradient is written by
// gathering, one thread per input position, never by scattered adds: each
// position sums what the windows containing it pass back (the maximum's
// gradient goes to the first of a window's largest positions, as on the
// CPU), so results do not depend on the order of additions. For max
// pooling a first kernel records each window's choice (one int32 per
// window, stream-ordered scratch memory), so that the gradient reads it
// instead of recomputing every window that contains a position (4 windows
// of 9 taps each for ResNet's 3x3 stride-2 pool); without scratch memory
// the gradient recomputes them.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ConvolutionGeometry.h"
#include "cuda/CudaKernelUtil.h"
#include "cuda/DeviceUtil.cuh"

#include <algorithm>
#include <type_traits>

namespace paracc::rt::cuda {

namespace {

/// The geometry in kernel-argument form (1 to 3 spatial dims). Positions
/// inside one plane are 32-bit (launchers check that they fit): 64-bit
/// divisions cost the GPU tens of instructions each, and the gradient
/// makes several per position.
struct PoolParams {
  int rank;
  int64_t planes;
  int32_t inSize, outSize, kernelSize;
  int32_t in[3], out[3], kernel[3], strides[3], padsBegin[3], dilations[3];
  int32_t inStride[3], outStride[3];
  bool average, countPadding, dilated;
  const void *x, *dy;
  void *y;
};

PoolParams paramsOf(const ConvGeometry &g, bool average, bool countPadding) {
  PoolParams p{};
  p.rank = int(g.rank);
  p.planes = g.batch * g.channels;
  p.inSize = int32_t(g.inSize);
  p.outSize = int32_t(g.outSize);
  p.kernelSize = int32_t(g.kernelSize);
  for (int d = 0; d < 3; ++d) {
    p.in[d] = int32_t(g.in[d]);
    p.out[d] = int32_t(g.out[d]);
    p.kernel[d] = int32_t(g.kernel[d]);
    p.strides[d] = int32_t(g.strides[d]);
    p.padsBegin[d] = int32_t(g.padsBegin[d]);
    p.dilations[d] = int32_t(g.dilations[d]);
    p.inStride[d] = int32_t(g.inStride[d]);
    p.outStride[d] = int32_t(g.outStride[d]);
    p.dilated = p.dilated || g.dilations[d] != 1;
  }
  p.average = average;
  p.countPadding = countPadding;
  return p;
}

/// Whether a plane's positions, windows and pads fit the kernels' 32-bit
/// arithmetic (with room for a window's reach past the edges).
bool fitsInt32(const ConvGeometry &g) {
  const int64_t limit = int64_t(1) << 30;
  if (g.inSize >= limit || g.outSize >= limit || g.kernelSize >= limit)
    return false;
  for (int d = 0; d < 3; ++d)
    if (g.padsBegin[d] >= limit || g.strides[d] >= limit ||
        g.dilations[d] * g.kernel[d] >= limit)
      return false;
  return true;
}

// The device code is instantiated per spatial rank R: with constant trip
// counts the per-dim loops unroll and their small arrays live in registers
// (indexed by a run-time rank they went to local memory).

/// `flat`'s coordinates along the R dims of `sizes` (row-major).
template <int R>
__device__ __forceinline__ void coordinates(const int32_t *sizes, int32_t flat,
                                            int32_t *at) {
#pragma unroll
  for (int d = R - 1; d >= 0; --d) {
    const int32_t q = flat / sizes[d];
    at[d] = flat - q * sizes[d];
    flat = q;
  }
}

/// Calls f(flat input position) for each of window `od`'s taps that falls
/// inside the input, in the kernel's row-major order (the CPU kernel's
/// order); no divisions per tap.
template <int R, typename F>
__device__ __forceinline__ void forEachTap(const PoolParams &p,
                                           const int32_t *od, F f) {
  int32_t start[R], k[R];
#pragma unroll
  for (int d = 0; d < R; ++d) {
    start[d] = od[d] * p.strides[d] - p.padsBegin[d];
    k[d] = 0;
  }
  for (int32_t t = 0; t < p.kernelSize; ++t) {
    bool inside = true;
    int32_t flat = 0;
#pragma unroll
    for (int d = 0; d < R; ++d) {
      const int32_t i = start[d] + k[d] * p.dilations[d];
      inside = inside && i >= 0 && i < p.in[d];
      flat += i * p.inStride[d];
    }
    if (inside)
      f(flat);
#pragma unroll
    for (int d = R - 1; d >= 0; --d) {
      if (++k[d] < p.kernel[d])
        break;
      k[d] = 0;
    }
  }
}

/// The divisor of window `od`'s average.
template <int R>
__device__ __forceinline__ float averageCount(const PoolParams &p,
                                              const int32_t *od) {
  if (p.countPadding)
    return float(p.kernelSize);
  int32_t count = 0;
  forEachTap<R>(p, od, [&](int32_t) { ++count; });
  return float(count > 0 ? count : 1);
}

// Both kernels: blockIdx.x (with blockDim.x) walks a plane's positions,
// blockIdx.y the planes (striding by gridDim.y).

template <DType D, int R> __global__ void poolKernel(PoolParams p) {
  using S = DevS<D>;
  const int32_t o = int32_t(blockIdx.x * blockDim.x + threadIdx.x);
  if (o >= p.outSize)
    return;
  int32_t od[R];
  coordinates<R>(p.out, o, od);
  const float count = p.average ? averageCount<R>(p, od) : 1.0f;
  for (int64_t plane = blockIdx.y; plane < p.planes; plane += gridDim.y) {
    const S *in = static_cast<const S *>(p.x) + plane * p.inSize;
    float acc = p.average ? 0.0f : -INFINITY;
    forEachTap<R>(p, od, [&](int32_t at) {
      const float v = ldc<D>(in[at]);
      acc = p.average ? acc + v : fmaxf(acc, v);
    });
    if (p.average)
      acc /= count;
    static_cast<S *>(p.y)[plane * p.outSize + o] = stc<D>(acc);
  }
}

/// Window `od`'s maximum as the forward takes it: the flat input position
/// of the first of its largest taps (-1 when no tap is inside).
template <DType D, int R>
__device__ __forceinline__ int32_t windowChoice(const PoolParams &p,
                                                const DevS<D> *in,
                                                const int32_t *od) {
  int32_t best = -1;
  float bestValue = 0.0f;
  forEachTap<R>(p, od, [&](int32_t at) {
    const float v = ldc<D>(in[at]);
    if (best < 0 || v > bestValue) {
      best = at;
      bestValue = v;
    }
  });
  return best;
}

/// Max pooling's choice per window: the flat input position of the first
/// of its largest taps (the forward's maximum), -1 when no tap is inside.
template <DType D, int R>
__global__ void poolArgmaxKernel(PoolParams p, int32_t *argmax) {
  using S = DevS<D>;
  const int32_t o = int32_t(blockIdx.x * blockDim.x + threadIdx.x);
  if (o >= p.outSize)
    return;
  int32_t od[R];
  coordinates<R>(p.out, o, od);
  for (int64_t plane = blockIdx.y; plane < p.planes; plane += gridDim.y) {
    const S *in = static_cast<const S *>(p.x) + plane * p.inSize;
    argmax[plane * p.outSize + o] = windowChoice<D, R>(p, in, od);
  }
}

/// The output positions along dim d whose windows may contain input
/// position i: [lo, hi] (empty when lo > hi).
__device__ __forceinline__ void
windowsAlong(const PoolParams &p, int d, int32_t i, int32_t &lo, int32_t &hi) {
  // o * stride - pad + k * dilation == i for some k in [0, kernel).
  const int32_t span = (p.kernel[d] - 1) * p.dilations[d];
  const int32_t first = i + p.padsBegin[d] - span, last = i + p.padsBegin[d];
  lo = first <= 0 ? 0 : (first + p.strides[d] - 1) / p.strides[d];
  hi = last < 0 ? -1 : last / p.strides[d];
  hi = hi < p.out[d] - 1 ? hi : p.out[d] - 1;
}

/// `argmax`: max pooling's choices (poolArgmaxKernel), or null to
/// recompute them.
template <DType D, int R>
__global__ void poolGradKernel(PoolParams p, const int32_t *argmax) {
  using S = DevS<D>;
  const int32_t i = int32_t(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= p.inSize)
    return;
  int32_t id[R], lo[R], hi[R];
  coordinates<R>(p.in, i, id);
  bool none = false;
#pragma unroll
  for (int d = 0; d < R; ++d) {
    windowsAlong(p, d, id[d], lo[d], hi[d]);
    none = none || lo[d] > hi[d];
  }
  for (int64_t plane = blockIdx.y; plane < p.planes; plane += gridDim.y) {
    const S *in = static_cast<const S *>(p.x) + plane * p.inSize;
    const S *grad = static_cast<const S *>(p.dy) + plane * p.outSize;
    float acc = 0.0f;
    int32_t od[R];
#pragma unroll
    for (int d = 0; d < R; ++d)
      od[d] = lo[d];
    for (bool more = !none; more;) {
      // Whether window od holds i: a tap lands on it along every dim.
      bool holds = true;
      int32_t o = 0;
#pragma unroll
      for (int d = 0; d < R; ++d) {
        const int32_t off = id[d] + p.padsBegin[d] - od[d] * p.strides[d];
        holds = holds && off >= 0 &&
                (!p.dilated || (off % p.dilations[d] == 0 &&
                                off / p.dilations[d] < p.kernel[d]));
        o += od[d] * p.outStride[d];
      }
      if (holds) {
        if (p.average) {
          acc += ldc<D>(grad[o]) / averageCount<R>(p, od);
        } else if (argmax) {
          if (argmax[plane * p.outSize + o] == i)
            acc += ldc<D>(grad[o]);
        } else {
          if (windowChoice<D, R>(p, in, od) == i)
            acc += ldc<D>(grad[o]);
        }
      }
      // The next window along the dims, the last fastest.
      more = false;
#pragma unroll
      for (int d = R - 1; d >= 0; --d) {
        if (more)
          continue;
        if (++od[d] <= hi[d])
          more = true;
        else
          od[d] = lo[d];
      }
    }
    static_cast<S *>(p.y)[plane * p.inSize + i] = stc<D>(acc);
  }
}

/// Blocks of 256 along a plane's `positions`, the planes spread over
/// gridDim.y so that about 32 blocks per SM are in flight.
dim3 gridFor(int64_t positions, int64_t planes) {
  const int64_t x = (positions + 255) / 256;
  const int64_t wanted =
      std::max<int64_t>(1, int64_t(deviceSMCount()) * 32 / x);
  return dim3(unsigned(x),
              unsigned(std::min<int64_t>({planes, wanted, 65535})));
}

/// Calls f with std::integral_constant<int, R> for the windows' rank R (1
/// to 3), the kernels' template argument.
template <typename F> void byWindowRank(int rank, F f) {
  if (rank == 1)
    f(std::integral_constant<int, 1>());
  else if (rank == 2)
    f(std::integral_constant<int, 2>());
  else
    f(std::integral_constant<int, 3>());
}

} // namespace

Status launchPool(const KernelArgs &args, cudaStream_t stream) {
  ConvGeometry g;
  bool average = false, countPadding = false;
  PARACC_RETURN_IF_ERROR(
      checkPool(args, checkGpuDType, g, average, countPadding));
  if (!fitsInt32(g))
    return args.fail("planes of ", g.inSize,
                     " positions are too large for the GPU kernel");
  PoolParams p = paramsOf(g, average, countPadding);
  p.x = args.in[0]->data();
  p.y = args.out[0]->data();
  if (p.planes == 0 || p.outSize == 0)
    return Status::ok();
  return visitGpuDType<TypeSet::Float>(
      args, args.in[0]->dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        const dim3 grid = gridFor(p.outSize, p.planes);
        byWindowRank(p.rank, [&](auto rank) {
          poolKernel<D, rank()><<<grid, 256, 0, stream>>>(p);
        });
        return checkLaunch(args);
      });
}

Status launchPoolGrad(const KernelArgs &args, cudaStream_t stream) {
  ConvGeometry g;
  bool average = false, countPadding = false;
  PARACC_RETURN_IF_ERROR(
      checkPoolGrad(args, checkGpuDType, g, average, countPadding));
  if (!fitsInt32(g))
    return args.fail("planes of ", g.inSize,
                     " positions are too large for the GPU kernel");
  PoolParams p = paramsOf(g, average, countPadding);
  p.x = args.in[0]->data();
  p.dy = args.in[1]->data();
  p.y = args.out[0]->data();
  if (p.planes == 0 || p.inSize == 0)
    return Status::ok();
  // Max pooling: each window's choice first (the gradient recomputes them
  // when the scratch memory cannot be had).
  StreamScratch choices(p.average || p.outSize == 0
                            ? 0
                            : size_t(p.planes) * size_t(p.outSize) * 4,
                        stream);
  int32_t *argmax = choices.get<int32_t>();
  return visitGpuDType<TypeSet::Float>(
      args, args.in[0]->dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        const dim3 windows = gridFor(p.outSize, p.planes),
                   grid = gridFor(p.inSize, p.planes);
        byWindowRank(p.rank, [&](auto rank) {
          if (argmax)
            poolArgmaxKernel<D, rank()>
                <<<windows, 256, 0, stream>>>(p, argmax);
          poolGradKernel<D, rank()><<<grid, 256, 0, stream>>>(p, argmax);
        });
        return checkLaunch(args);
      });
}

} // namespace paracc::rt::cuda

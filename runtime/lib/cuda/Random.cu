//===- Random.cu - Random weights and Range -------------------------------===//
//
// fillRandom produces, bit for bit, the values of fillRandomWeight
// (Interpreter.cpp): element `flat` of the source parameter (row-major
// index) is splitmix64(seed * 0x2545f4914f6cdd1d + flat) >> 40, i.e. 24
// random bits u in [0, 1) scaled to (2u - 1) * scale in double, rounded to
// float, then to the element type. The double arithmetic uses explicit
// round-to-nearest intrinsics so that no contraction changes a bit.
//
// Dropout draws the CPU kernel's mask (DropoutMask.h), one thread per
// element from its coordinates, and scales in the same compute type.
//
// Range generates start + i * delta in the compute type (f32 for
// f32/bf16/f16, wrapping integers), like cpu/Misc.cpp, reading the scalar
// operands on the device.
//
//===----------------------------------------------------------------------===//

#include "Kernels/DropoutCheck.h"
#include "Kernels/ShapeChecks.h"
#include "cuda/DeviceUtil.cuh"
#include "paracc/runtime/DropoutMask.h"

#include <algorithm>

namespace paracc::rt::cuda {

namespace {

constexpr int kBlock = 256;

unsigned gridFor(int64_t work) {
  return unsigned(std::min<int64_t>(
      int64_t(1) << 20, std::max<int64_t>(1, ceilDiv(work, kBlock))));
}

__device__ __forceinline__ uint64_t splitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <DType D, typename I>
__global__ void __launch_bounds__(kBlock)
    fillRandomKernel(DevS<D> *out, OffsetCalc<1, I> oc, uint64_t base,
                     uint64_t seedMix, double scale, int64_t n) {
  for (int64_t t = int64_t(blockIdx.x) * kBlock + threadIdx.x; t < n;
       t += int64_t(gridDim.x) * kBlock) {
    int64_t off[1];
    oc.get(I(t), off);
    const uint64_t flat = base + uint64_t(off[0]);
    const uint64_t bits = splitMix64(seedMix + flat) >> 40;
    // u = bits / 2^24 (exact); v = (2u - 1) * scale.
    const double u = __dmul_rn(double(bits), 1.0 / 16777216.0);
    const double v = __dmul_rn(__dsub_rn(__dmul_rn(2.0, u), 1.0), scale);
    const float f = __double2float_rn(v);
    if constexpr (D == DType::F32)
      out[t] = f;
    else if constexpr (D == DType::F64)
      out[t] = double(f);
    else if constexpr (D == DType::F16)
      out[t] = __float2half_rn(f);
    else
      out[t] = __float2bfloat16_rn(f);
  }
}

template <DType D>
__global__ void __launch_bounds__(kBlock)
    rangeKernel(const DevS<D> *start, const DevS<D> *delta, DevS<D> *y,
                int64_t n) {
  using C = DevC<D>;
  const C s = ldc<D>(start[0]);
  const C dl = ldc<D>(delta[0]);
  for (int64_t i = int64_t(blockIdx.x) * kBlock + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * kBlock) {
    if constexpr (std::is_same_v<C, float>) {
      y[i] = stc<D>(__fadd_rn(s, __fmul_rn(float(i), dl)));
    } else {
      using U = std::make_unsigned_t<C>;
      y[i] = C(U(s) + U(C(i)) * U(dl));
    }
  }
}

struct DropoutDims {
  int64_t size[kMaxDims];
};

template <DType D>
__global__ void __launch_bounds__(kBlock)
    dropoutKernel(const DevS<D> *x, DevS<D> *y, const float *step,
                  const int64_t *offsets, DropoutDims dims, int rank,
                  uint64_t seed, uint64_t stream, uint32_t threshold,
                  DevC<D> scale, int64_t n) {
  const uint64_t key = dropoutKey(seed, stream, uint64_t(int64_t(step[0])));
  for (int64_t i = int64_t(blockIdx.x) * kBlock + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * kBlock) {
    int64_t coords[kMaxDims];
    int64_t rest = i;
    for (int d = rank - 1; d >= 0; --d) {
      coords[d] = rest % dims.size[d];
      rest /= dims.size[d];
    }
    uint64_t state = key;
    for (int d = 0; d < rank; ++d)
      state = dropoutAdvance(state, coords[d] + offsets[d]);
    if (dropoutKeeps(state, threshold)) {
      if constexpr (std::is_same_v<DevC<D>, float>)
        y[i] = stc<D>(__fmul_rn(ldc<D>(x[i]), scale));
      else
        y[i] = stc<D>(__dmul_rn(ldc<D>(x[i]), scale));
    } else {
      y[i] = stc<D>(DevC<D>(0));
    }
  }
}

} // namespace

Status fillRandom(const DeviceTensor &t, const Shape &sourceShape,
                  const std::vector<int64_t> &offsets, uint64_t seed,
                  float scale, cudaStream_t stream) {
  constexpr const char *kName = "fill_random";
  const size_t rank = t.shape.size();
  if (sourceShape.size() != rank || offsets.size() != rank)
    return errorf(kName, ": ranks differ: block ", shapeToString(t.shape),
                  ", source ", shapeToString(sourceShape), ", offsets ",
                  shapeToString(offsets));
  const int64_t n = t.numElements();
  if (n < 0 || dtypeSize(t.dtype) == 0)
    return errorf(kName, ": invalid tensor ", dtypeName(t.dtype),
                  shapeToString(t.shape));
  if (n == 0)
    return Status::ok();
  if (!t.data)
    return errorf(kName, ": null buffer");
  if (t.dtype != DType::F32 && t.dtype != DType::F64 && t.dtype != DType::F16 &&
      t.dtype != DType::BF16) {
    // Integer parameters stay zero.
    const cudaError_t err = cudaMemsetAsync(t.data, 0, t.byteSize(), stream);
    if (err != cudaSuccess)
      return errorf(kName, ": CUDA memset failed: ", cudaGetErrorString(err));
    return Status::ok();
  }
  if (rank > size_t(kMaxDims))
    return errorf(kName, ": rank ", rank, " exceeds ", kMaxDims);
  // flat = sum_d (index[d] + offsets[d]) * gstride[d] (mod 2^64), the
  // Horner form of the CPU loop.
  std::vector<int64_t> gstride(rank);
  uint64_t g = 1, base = 0;
  for (size_t d = rank; d-- > 0;) {
    gstride[d] = int64_t(g);
    base += uint64_t(offsets[d]) * g;
    g *= uint64_t(sourceShape[d]);
  }
  const uint64_t seedMix = seed * 0x2545f4914f6cdd1dull;
  auto launch = [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    DevS<D> *out = static_cast<DevS<D> *>(t.data);
    if (n < (int64_t(1) << 31))
      fillRandomKernel<D, uint32_t><<<gridFor(n), kBlock, 0, stream>>>(
          out, makeOffsetCalc<1, uint32_t>(t.shape, {gstride}), base, seedMix,
          double(scale), n);
    else
      fillRandomKernel<D, uint64_t><<<gridFor(n), kBlock, 0, stream>>>(
          out, makeOffsetCalc<1, uint64_t>(t.shape, {gstride}), base, seedMix,
          double(scale), n);
    return checkLaunch(kName);
  };
  switch (t.dtype) {
  case DType::F32:
    return launch(DTypeTag<DType::F32>{});
  case DType::F64:
    return launch(DTypeTag<DType::F64>{});
  case DType::F16:
    return launch(DTypeTag<DType::F16>{});
  default:
    return launch(DTypeTag<DType::BF16>{});
  }
}

Status launchRange(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkRange(args, checkGpuDType));
  const Tensor &start = *args.in[0];
  const Tensor &delta = *args.in[2];
  Tensor &y = *args.out[0];
  // The element count implied by the operands (and delta != 0) would need
  // the scalars on the host: the result's length is trusted here.
  const int64_t n = y.numElements();
  if (n == 0)
    return Status::ok();
  return visitGpuDType<TypeSet::Numeric>(
      args, start.dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        rangeKernel<D><<<gridFor(n), kBlock, 0, stream>>>(
            static_cast<const DevS<D> *>(start.data()),
            static_cast<const DevS<D> *>(delta.data()),
            static_cast<DevS<D> *>(y.data()), n);
        return checkLaunch(args);
      });
}

Status launchDropout(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkDropout(args));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkGpuDType(args, x, TypeSet::Float, "x"));
  const int64_t n = x.numElements();
  if (n == 0)
    return Status::ok();
  if (x.rank() > kMaxDims)
    return args.fail("rank ", x.rank(), " exceeds ", kMaxDims);
  DropoutDims dims{};
  for (int64_t d = 0; d < x.rank(); ++d)
    dims.size[d] = x.dim(d);
  const DropoutAttrs &attrs = args.attrsAs<DropoutAttrs>();
  const double ratio = attrs.ratio;
  return visitGpuDType<TypeSet::Float>(args, x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    dropoutKernel<D><<<gridFor(n), kBlock, 0, stream>>>(
        static_cast<const DevS<D> *>(x.data()),
        static_cast<DevS<D> *>(y.data()),
        static_cast<const float *>(args.in[1]->data()),
        static_cast<const int64_t *>(args.in[2]->data()), dims, int(x.rank()),
        uint64_t(attrs.seed), uint64_t(attrs.stream), dropoutThreshold(ratio),
        DevC<D>(1.0 / (1.0 - ratio)), n);
    return checkLaunch("dropout");
  });
}

} // namespace paracc::rt::cuda

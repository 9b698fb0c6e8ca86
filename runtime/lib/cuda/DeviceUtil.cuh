//===- DeviceUtil.cuh - Device-side helpers of the CUDA kernels -*- C++ -*-===//
//
// Private to the CUDA backend: storage and compute types of each element
// type on the device, aligned vectors for 128-bit accesses, fast integer
// division for index decomposition, offset calculators for strided
// iteration and warp/block reductions.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_DEVICEUTIL_CUH
#define PARACC_RUNTIME_CUDA_DEVICEUTIL_CUH

#include "cuda/CudaKernelUtil.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace paracc::rt::cuda {

//===----------------------------------------------------------------------===//
// Element types.
//===----------------------------------------------------------------------===//

/// Storage type `S` and compute type `C` of element type D on the device.
/// f16/bf16 compute in f32; bool is one byte, any non-zero byte is true.
template <DType D> struct Dev;
#define PARACC_DEV_TRAITS(Name, Storage, Compute)                              \
  template <> struct Dev<DType::Name> {                                        \
    using S = Storage;                                                         \
    using C = Compute;                                                         \
  };
PARACC_DEV_TRAITS(F32, float, float)
PARACC_DEV_TRAITS(F64, double, double)
PARACC_DEV_TRAITS(F16, __half, float)
PARACC_DEV_TRAITS(BF16, __nv_bfloat16, float)
PARACC_DEV_TRAITS(I8, int8_t, int8_t)
PARACC_DEV_TRAITS(U8, uint8_t, uint8_t)
PARACC_DEV_TRAITS(I32, int32_t, int32_t)
PARACC_DEV_TRAITS(I64, int64_t, int64_t)
PARACC_DEV_TRAITS(Bool, uint8_t, bool)
#undef PARACC_DEV_TRAITS

template <DType D> using DevS = typename Dev<D>::S;
template <DType D> using DevC = typename Dev<D>::C;

/// Reads a stored element as its compute type.
template <DType D> __device__ __forceinline__ DevC<D> ldc(DevS<D> s) {
  if constexpr (D == DType::F16)
    return __half2float(s);
  else if constexpr (D == DType::BF16)
    return __bfloat162float(s);
  else if constexpr (D == DType::Bool)
    return s != 0;
  else
    return s;
}

/// Stores a compute value (rounded to nearest even for f16/bf16).
template <DType D> __device__ __forceinline__ DevS<D> stc(DevC<D> c) {
  if constexpr (D == DType::F16)
    return __float2half_rn(c);
  else if constexpr (D == DType::BF16)
    return __float2bfloat16_rn(c);
  else if constexpr (D == DType::Bool)
    return c ? uint8_t(1) : uint8_t(0);
  else
    return c;
}

/// Bit-exact NaN / infinity tests (independent of fast-math flags).
__device__ __forceinline__ bool isNaNf(float x) {
  return (__float_as_uint(x) & 0x7fffffffu) > 0x7f800000u;
}
__device__ __forceinline__ bool isInff(float x) {
  return (__float_as_uint(x) & 0x7fffffffu) == 0x7f800000u;
}
/// x != 0 on the bits (a denormal is non-zero even with flush-to-zero).
__device__ __forceinline__ bool nonZerof(float x) {
  return (__float_as_uint(x) & 0x7fffffffu) != 0;
}

/// max/min that propagate NaN from either side.
__device__ __forceinline__ float nanMax(float a, float b) {
  return (a > b || isNaNf(a)) ? a : b;
}
__device__ __forceinline__ float nanMin(float a, float b) {
  return (a < b || isNaNf(a)) ? a : b;
}

//===----------------------------------------------------------------------===//
// Vectors.
//===----------------------------------------------------------------------===//

/// N elements accessed as one aligned load/store (up to 16 bytes).
template <typename T, int N> struct alignas(sizeof(T) * N) VecT { T v[N]; };

/// Elements of T in 16 bytes (at least 1).
template <typename T>
inline constexpr int kVec16 = sizeof(T) >= 16 ? 1 : int(16 / sizeof(T));

template <int N, typename T>
__device__ __forceinline__ VecT<T, N> loadVec(const T *p, int64_t i) {
  return reinterpret_cast<const VecT<T, N> *>(p)[i];
}
template <int N, typename T>
__device__ __forceinline__ void storeVec(T *p, int64_t i, const VecT<T, N> &v) {
  reinterpret_cast<VecT<T, N> *>(p)[i] = v;
}

/// Element i of an i32 or i64 tensor. A buffer that is not aligned to its
/// element (any even address works on the CPU) is read in 16-bit pieces,
/// little-endian; the test is uniform across threads.
__device__ __forceinline__ int64_t readLabel(const void *p, bool is32,
                                             int64_t i) {
  const size_t width = is32 ? 4 : 8;
  if (reinterpret_cast<uintptr_t>(p) % width == 0)
    return is32 ? int64_t(static_cast<const int32_t *>(p)[i])
                : static_cast<const int64_t *>(p)[i];
  const auto *h = static_cast<const uint16_t *>(p) + i * int64_t(width / 2);
  uint64_t v = 0;
  for (size_t k = 0; k < width / 2; ++k)
    v |= uint64_t(h[k]) << (16 * k);
  return is32 ? int64_t(int32_t(uint32_t(v))) : int64_t(v);
}

/// Sixteen bytes, as the element of widened copies.
struct alignas(16) Bytes16 {
  uint32_t w[4];
};

//===----------------------------------------------------------------------===//
// Index arithmetic.
//===----------------------------------------------------------------------===//

/// Division by a fixed divisor. The 32-bit form uses a multiply-high magic
/// number and requires dividends below 2^31; the 64-bit form divides.
template <typename I> struct Divider;

template <> struct Divider<uint32_t> {
  uint32_t divisor = 1, magic = 1, shift = 0;
  Divider() = default;
  explicit Divider(uint32_t d) : divisor(d) {
    shift = 0;
    while (shift < 32 && (uint64_t(1) << shift) < d)
      ++shift;
    const uint64_t one = 1;
    magic = uint32_t(((one << 32) * ((one << shift) - d)) / d + 1);
  }
  __device__ __forceinline__ uint32_t div(uint32_t n) const {
    const uint32_t t = __umulhi(n, magic);
    return (t + n) >> shift;
  }
};

template <> struct Divider<uint64_t> {
  uint64_t divisor = 1;
  Divider() = default;
  explicit Divider(uint64_t d) : divisor(d) {}
  __device__ __forceinline__ uint64_t div(uint64_t n) const {
    return n / divisor;
  }
};

/// Element offsets of N operands for a linear index over dims (innermost
/// first in the arrays), with per-operand element strides.
template <int N, typename I> struct OffsetCalc {
  int rank = 0;
  Divider<I> dims[kMaxDims];
  int64_t strides[kMaxDims][N];

  __device__ __forceinline__ void get(I linear, int64_t (&off)[N]) const {
#pragma unroll
    for (int k = 0; k < N; ++k)
      off[k] = 0;
#pragma unroll
    for (int d = 0; d < kMaxDims; ++d) {
      if (d == rank)
        break;
      const I q = dims[d].div(linear);
      const I r = linear - q * dims[d].divisor;
      linear = q;
#pragma unroll
      for (int k = 0; k < N; ++k)
        off[k] += int64_t(r) * strides[d][k];
    }
  }
};

/// Builds an OffsetCalc from row-major dims and per-operand strides
/// (strides[k][d]); rank <= kMaxDims.
template <int N, typename I>
OffsetCalc<N, I> makeOffsetCalc(const Shape &dims,
                                const std::vector<std::vector<int64_t>> &st) {
  OffsetCalc<N, I> c;
  c.rank = int(dims.size());
  for (int d = 0; d < c.rank; ++d) {
    const int src = c.rank - 1 - d;
    c.dims[d] = Divider<I>(I(dims[src]));
    for (int k = 0; k < N; ++k)
      c.strides[d][k] = st[k][src];
  }
  return c;
}

//===----------------------------------------------------------------------===//
// Reductions.
//===----------------------------------------------------------------------===//

template <typename T, typename Op>
__device__ __forceinline__ T warpReduce(T v, Op op, int width = 32) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    if (o < width)
      v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
  }
  return v;
}

/// Reduces v over the whole block (blockDim.x threads, a multiple of 32, at
/// most 1024); every thread gets the result. `smem` holds 32 values; the
/// call synchronizes, so it may be called repeatedly with the same smem.
template <typename T, typename Op>
__device__ __forceinline__ T blockReduce(T v, Op op, T *smem) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int nWarps = blockDim.x >> 5;
  v = warpReduce(v, op);
  __syncthreads(); // smem may still be read by a previous call.
  if (lane == 0)
    smem[warp] = v;
  __syncthreads();
  T r = smem[0];
  for (int w = 1; w < nWarps; ++w)
    r = op(r, smem[w]);
  return r;
}

struct SumF {
  template <typename T>
  __device__ __forceinline__ T operator()(T a, T b) const {
    return a + b;
  }
};
struct MaxF {
  __device__ __forceinline__ float operator()(float a, float b) const {
    return nanMax(a, b);
  }
};

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_DEVICEUTIL_CUH

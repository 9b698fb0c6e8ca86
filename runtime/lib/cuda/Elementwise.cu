//===- Elementwise.cu - Unary, binary, Where, Cast and Clip kernels -------===//
//
// Elementwise kernels of the GPU backend, with the semantics of
// cpu/Elementwise.cpp. Storage types are f32/f16/bf16 (computed in f32),
// i32/i64 and bool. Two launch shapes:
//
//  - contiguous: every operand has the result's shape or is a scalar; each
//    thread moves 16 bytes per operand per step (4 steps unrolled) when the
//    buffers are 16-byte aligned, with a scalar tail;
//  - broadcast: the merged broadcasting plan (KernelUtil's makeBroadcastPlan)
//    is walked with per-operand strides (0 on broadcast dimensions), one
//    vector of the innermost dimension per thread when its size allows
//    (covers "bias on the last dim" and per-row scalars), 32-bit magic-number
//    index division below 2^31 elements.
//
// Accuracy notes (compiled without --use_fast_math): exp uses the hardware
// approximation __expf (a few ulp), division, reciprocal and square root are
// IEEE-rounded, tanh (also inside GELU) is the precise tanhf, other
// trigonometric and hyperbolic functions and pow are computed in double so
// that they stay accurate over the whole range.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ElementwiseChecks.h"
#include "cuda/DeviceUtil.cuh"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace paracc::rt::cuda {

namespace {

constexpr int kBlock = 256;
constexpr int kUnroll = 4;
constexpr int64_t kMaxGrid = int64_t(1) << 20;

unsigned gridFor(int64_t work, int64_t perBlock) {
  return unsigned(std::min<int64_t>(
      kMaxGrid, std::max<int64_t>(1, ceilDiv(work, perBlock))));
}

//===----------------------------------------------------------------------===//
// Integer helpers.
//===----------------------------------------------------------------------===//

template <typename C> __device__ __forceinline__ C wrapAddD(C a, C b) {
  using U = std::make_unsigned_t<C>;
  return static_cast<C>(static_cast<U>(a) + static_cast<U>(b));
}
template <typename C> __device__ __forceinline__ C wrapSubD(C a, C b) {
  using U = std::make_unsigned_t<C>;
  return static_cast<C>(static_cast<U>(a) - static_cast<U>(b));
}
template <typename C> __device__ __forceinline__ C wrapMulD(C a, C b) {
  using U = std::make_unsigned_t<C>;
  return static_cast<C>(static_cast<U>(a) * static_cast<U>(b));
}
template <typename C> __device__ __forceinline__ C wrapNegD(C a) {
  using U = std::make_unsigned_t<C>;
  return static_cast<C>(U(0) - static_cast<U>(a));
}

//===----------------------------------------------------------------------===//
// Unary functors on the compute type.
//===----------------------------------------------------------------------===//

struct NegOp {
  template <typename C> __device__ C operator()(C x) const {
    if constexpr (std::is_integral_v<C>)
      return wrapNegD(x);
    else
      return -x;
  }
};

struct AbsOp {
  template <typename C> __device__ C operator()(C x) const {
    if constexpr (std::is_integral_v<C>)
      return x < 0 ? wrapNegD(x) : x;
    else
      return fabsf(x);
  }
};

struct SignOp {
  template <typename C> __device__ C operator()(C x) const {
    if constexpr (std::is_integral_v<C>) {
      return static_cast<C>((x > 0) - (x < 0));
    } else {
      if (x > 0)
        return 1.0f;
      if (x < 0)
        return -1.0f;
      return x; // Zero or NaN.
    }
  }
};

struct ReluOp {
  template <typename C> __device__ C operator()(C x) const {
    return x < 0 ? C(0) : x;
  }
};

struct NotOp {
  __device__ bool operator()(bool x) const { return !x; }
};

struct IsNaNOp {
  __device__ bool operator()(float x) const { return isNaNf(x); }
};

struct IsInfOp {
  bool pos;
  bool neg;
  __device__ bool operator()(float x) const {
    return isInff(x) && (x > 0 ? pos : neg);
  }
};

__device__ __forceinline__ float sigmoidf(float x) {
  const float e = __expf(-fabsf(x));
  const float r = __frcp_rn(1.0f + e);
  return x >= 0 ? r : e * r;
}

struct SigmoidOp {
  __device__ float operator()(float x) const { return sigmoidf(x); }
};

struct SiluOp {
  __device__ float operator()(float x) const { return x * sigmoidf(x); }
};

struct GeluOp {
  bool tanhForm;
  __device__ float operator()(float x) const {
    if (tanhForm) {
      const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x);
      return 0.5f * x * (1.0f + tanhf(inner));
    }
    return 0.5f * x * (1.0f + erff(x * 0.7071067811865476f));
  }
};

#define PARACC_FLOAT_UNARY(Name, Expr)                                         \
  struct Name {                                                                \
    __device__ float operator()(float x) const { return Expr; }                \
  };
PARACC_FLOAT_UNARY(SqrtOp, __fsqrt_rn(x))
PARACC_FLOAT_UNARY(RsqrtOp, rsqrtf(x))
PARACC_FLOAT_UNARY(ReciprocalOp, __frcp_rn(x))
PARACC_FLOAT_UNARY(ExpOp, __expf(x))
PARACC_FLOAT_UNARY(LogOp, __logf(x))
PARACC_FLOAT_UNARY(TanhOp, tanhf(x))
PARACC_FLOAT_UNARY(ErfOp, erff(x))
PARACC_FLOAT_UNARY(FloorOp, floorf(x))
PARACC_FLOAT_UNARY(CeilOp, ceilf(x))
PARACC_FLOAT_UNARY(RoundOp, rintf(x))
// Rarely hot and badly approximated under fast math: computed in double.
PARACC_FLOAT_UNARY(SinOp, float(sin(double(x))))
PARACC_FLOAT_UNARY(CosOp, float(cos(double(x))))
PARACC_FLOAT_UNARY(TanOp, float(tan(double(x))))
PARACC_FLOAT_UNARY(AsinOp, float(asin(double(x))))
PARACC_FLOAT_UNARY(AcosOp, float(acos(double(x))))
PARACC_FLOAT_UNARY(AtanOp, float(atan(double(x))))
PARACC_FLOAT_UNARY(SinhOp, __double2float_rn(sinh(double(x))))
PARACC_FLOAT_UNARY(CoshOp, __double2float_rn(cosh(double(x))))
PARACC_FLOAT_UNARY(AsinhOp, float(asinh(double(x))))
PARACC_FLOAT_UNARY(AcoshOp, float(acosh(double(x))))
PARACC_FLOAT_UNARY(AtanhOp, float(atanh(double(x))))
#undef PARACC_FLOAT_UNARY

//===----------------------------------------------------------------------===//
// Binary functors on the compute type.
//===----------------------------------------------------------------------===//

struct AddOp {
  template <typename C> __device__ C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return wrapAddD(a, b);
    else
      return a + b;
  }
};
struct SubOp {
  template <typename C> __device__ C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return wrapSubD(a, b);
    else
      return a - b;
  }
};
struct MulOp {
  template <typename C> __device__ C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return wrapMulD(a, b);
    else
      return a * b;
  }
};
/// Floating only (integer division needs the divisor check of the CPU).
struct DivOp {
  __device__ float operator()(float a, float b) const {
    return __fdiv_rn(a, b);
  }
};
/// Floating only. Squares and cubes are exact-rounded products; the rest
/// goes through double, which keeps negative bases with integral exponents
/// right (unlike the fast-math powf).
struct PowOp {
  __device__ float operator()(float a, float b) const {
    if (b == 2.0f)
      return a * a;
    if (b == 1.0f)
      return a;
    const double da = a;
    if (b == 3.0f)
      return __double2float_rn(da * da * da);
    return __double2float_rn(pow(da, double(b)));
  }
};
struct MaxOp {
  template <typename C> __device__ C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return a < b ? b : a;
    else
      return nanMax(a, b);
  }
};
struct MinOp {
  template <typename C> __device__ C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return b < a ? b : a;
    else
      return nanMin(a, b);
  }
};
/// Floating only: fmod, or floor mod (the sign of the divisor).
struct ModOp {
  bool fmodMode;
  __device__ float operator()(float a, float b) const {
    float r = fmodf(a, b);
    if (!fmodMode && r != 0 && ((r < 0) != (b < 0)))
      r = r + b;
    return r;
  }
};
struct AndOp {
  __device__ bool operator()(bool a, bool b) const { return a && b; }
};
struct OrOp {
  __device__ bool operator()(bool a, bool b) const { return a || b; }
};
struct XorOp {
  __device__ bool operator()(bool a, bool b) const { return a != b; }
};
struct EqualOp {
  template <typename C> __device__ bool operator()(C a, C b) const {
    return a == b;
  }
};
struct LessOp {
  template <typename C> __device__ bool operator()(C a, C b) const {
    return a < b;
  }
};
struct LessEqualOp {
  template <typename C> __device__ bool operator()(C a, C b) const {
    return a <= b;
  }
};
struct GreaterOp {
  template <typename C> __device__ bool operator()(C a, C b) const {
    return a > b;
  }
};
struct GreaterEqualOp {
  template <typename C> __device__ bool operator()(C a, C b) const {
    return a >= b;
  }
};

//===----------------------------------------------------------------------===//
// Storage-level functors.
//===----------------------------------------------------------------------===//

template <DType DI, DType DO, typename Op> struct UnaryF {
  using In = DevS<DI>;
  using Out = DevS<DO>;
  Op op;
  __device__ __forceinline__ Out operator()(In x) const {
    return stc<DO>(static_cast<DevC<DO>>(op(ldc<DI>(x))));
  }
};

template <DType DI, DType DO, typename Op> struct BinaryF {
  using In = DevS<DI>;
  using Out = DevS<DO>;
  Op op;
  __device__ __forceinline__ Out operator()(In a, In b) const {
    return stc<DO>(static_cast<DevC<DO>>(op(ldc<DI>(a), ldc<DI>(b))));
  }
};

/// Saturating float -> integer conversion (truncation, NaN -> 0), as
/// saturatingCast in KernelUtil.h.
template <typename T> __device__ __forceinline__ T saturatingCastD(double d) {
  constexpr int kDigits = std::numeric_limits<T>::digits;
  constexpr double kHi = double(uint64_t(1) << (kDigits < 64 ? kDigits : 63)) *
                         (kDigits < 64 ? 1.0 : 2.0);
  constexpr double kLo = std::is_signed_v<T> ? -kHi : 0.0;
  if (d != d)
    return 0;
  if (d >= kHi)
    return std::numeric_limits<T>::max();
  if (d <= kLo)
    return std::numeric_limits<T>::min();
  return static_cast<T>(d);
}

/// One element converted between element types with castElem's rules
/// (cpu/Elementwise.cpp): -> bool is x != 0 (on the bits for floats),
/// float -> int truncates and saturates, int -> int wraps, every rounding is
/// to nearest even and happens once.
template <DType DI, DType DO> struct CastF {
  using In = DevS<DI>;
  using Out = DevS<DO>;
  __device__ __forceinline__ Out operator()(In x) const {
    if constexpr (DO == DType::Bool) {
      if constexpr (DI == DType::F32)
        return nonZerof(x) ? 1 : 0;
      else if constexpr (DI == DType::F16)
        return (__half_as_ushort(x) & 0x7fffu) != 0 ? 1 : 0;
      else if constexpr (DI == DType::BF16)
        return (__bfloat16_as_ushort(x) & 0x7fffu) != 0 ? 1 : 0;
      else if constexpr (DI == DType::F64)
        return (__double_as_longlong(x) & 0x7fffffffffffffffll) != 0 ? 1 : 0;
      else
        return x != 0 ? 1 : 0;
    } else if constexpr (DI == DO) {
      return x;
    } else if constexpr (DI == DType::Bool) {
      // 0 or 1 of the result type.
      return stc<DO>(static_cast<DevC<DO>>(x != 0 ? 1 : 0));
    } else if constexpr (DO == DType::F16) {
      if constexpr (DI == DType::F32)
        return __float2half_rn(x);
      else if constexpr (DI == DType::BF16)
        return __float2half_rn(__bfloat162float(x));
      else if constexpr (DI == DType::F64)
        return __double2half(x);
      else
        return __double2half(static_cast<double>(x));
    } else if constexpr (DO == DType::BF16) {
      if constexpr (DI == DType::F32)
        return __float2bfloat16_rn(x);
      else if constexpr (DI == DType::F16)
        return __float2bfloat16_rn(__half2float(x));
      else if constexpr (DI == DType::F64)
        return __double2bfloat16(x);
      else
        return __double2bfloat16(static_cast<double>(x));
    } else if constexpr (DO == DType::F32) {
      if constexpr (DI == DType::F64)
        return __double2float_rn(x);
      else if constexpr (DI == DType::F16 || DI == DType::BF16)
        return ldc<DI>(x);
      else
        return static_cast<float>(x);
    } else if constexpr (DO == DType::F64) {
      return static_cast<double>(ldc<DI>(x));
    } else if constexpr (DI == DType::F32 || DI == DType::F64 ||
                         DI == DType::F16 || DI == DType::BF16) {
      return saturatingCastD<Out>(static_cast<double>(ldc<DI>(x)));
    } else {
      return static_cast<Out>(x);
    }
  }
};

template <DType D> struct ClipF {
  using In = DevS<D>;
  using Out = DevS<D>;
  DevC<D> lo, hi;
  __device__ __forceinline__ Out operator()(In x) const {
    DevC<D> v = ldc<D>(x);
    v = v < lo ? lo : v;
    v = hi < v ? hi : v;
    return stc<D>(v);
  }
};

/// Where on elements moved by size; bools are made canonical (0 or 1).
template <typename E, bool Canonical> struct WhereF {
  __device__ __forceinline__ E operator()(uint8_t c, E a, E b) const {
    E r = c ? a : b;
    if constexpr (Canonical)
      r = r != 0 ? E(1) : E(0);
    return r;
  }
};

//===----------------------------------------------------------------------===//
// Kernels.
//===----------------------------------------------------------------------===//

template <int N, typename T>
__device__ __forceinline__ void splat(VecT<T, N> &v, T s) {
#pragma unroll
  for (int k = 0; k < N; ++k)
    v.v[k] = s;
}

/// y[i] = f(x[i]), V elements per access.
template <int V, typename TI, typename TO, typename F>
__device__ __forceinline__ void unaryBody(const TI *x, TO *y, int64_t n,
                                          const F &f) {
  const int64_t nv = n / V;
  const int64_t stride = int64_t(gridDim.x) * kBlock * kUnroll;
  for (int64_t base = int64_t(blockIdx.x) * kBlock * kUnroll + threadIdx.x;
       base < nv; base += stride) {
    VecT<TI, V> in[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + u * kBlock;
      if (i < nv)
        in[u] = loadVec<V>(x, i);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + u * kBlock;
      if (i < nv) {
        VecT<TO, V> o;
#pragma unroll
        for (int k = 0; k < V; ++k)
          o.v[k] = f(in[u].v[k]);
        storeVec<V>(y, i, o);
      }
    }
  }
  if constexpr (V > 1) {
    const int64_t tail = n - nv * V;
    if (blockIdx.x == 0 && threadIdx.x < tail) {
      const int64_t i = nv * V + threadIdx.x;
      y[i] = f(x[i]);
    }
  }
}

template <int V, typename TI, typename TO, typename F>
__global__ void __launch_bounds__(kBlock)
    unaryKernel(const TI *x, TO *y, int64_t n, bool vec, F f) {
  if (vec)
    unaryBody<V>(x, y, n, f);
  else
    unaryBody<1>(x, y, n, f);
}

/// y[i] = f(a[i or 0], b[i or 0]).
template <int V, typename TA, typename TB, typename TO, typename F>
__device__ __forceinline__ void binaryBody(const TA *a, const TB *b, TO *y,
                                           int64_t n, bool aScalar,
                                           bool bScalar, const F &f) {
  const int64_t nv = n / V;
  const TA as = aScalar ? a[0] : TA();
  const TB bs = bScalar ? b[0] : TB();
  const int64_t stride = int64_t(gridDim.x) * kBlock * kUnroll;
  for (int64_t base = int64_t(blockIdx.x) * kBlock * kUnroll + threadIdx.x;
       base < nv; base += stride) {
    VecT<TA, V> va[kUnroll];
    VecT<TB, V> vb[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + u * kBlock;
      if (i < nv) {
        if (aScalar)
          splat(va[u], as);
        else
          va[u] = loadVec<V>(a, i);
        if (bScalar)
          splat(vb[u], bs);
        else
          vb[u] = loadVec<V>(b, i);
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + u * kBlock;
      if (i < nv) {
        VecT<TO, V> o;
#pragma unroll
        for (int k = 0; k < V; ++k)
          o.v[k] = f(va[u].v[k], vb[u].v[k]);
        storeVec<V>(y, i, o);
      }
    }
  }
  if constexpr (V > 1) {
    const int64_t tail = n - nv * V;
    if (blockIdx.x == 0 && threadIdx.x < tail) {
      const int64_t i = nv * V + threadIdx.x;
      y[i] = f(aScalar ? as : a[i], bScalar ? bs : b[i]);
    }
  }
}

template <int V, typename TA, typename TB, typename TO, typename F>
__global__ void __launch_bounds__(kBlock)
    binaryKernel(const TA *a, const TB *b, TO *y, int64_t n, bool aScalar,
                 bool bScalar, bool vec, F f) {
  if (vec)
    binaryBody<V>(a, b, y, n, aScalar, bScalar, f);
  else
    binaryBody<1>(a, b, y, n, aScalar, bScalar, f);
}

/// Loads V elements at element offset `off`: a vector when the operand
/// runs along the innermost dimension, else one element repeated.
template <int V, typename T>
__device__ __forceinline__ VecT<T, V> loadOrSplat(const T *p, int64_t off,
                                                  bool vector) {
  VecT<T, V> v;
  if (V > 1 && vector) {
    v = *reinterpret_cast<const VecT<T, V> *>(p + off);
  } else {
    const T s = p[off];
    splat(v, s);
  }
  return v;
}

/// Broadcast binary: one vector of the innermost dimension per thread.
template <int V, typename TA, typename TB, typename TO, typename F, typename I>
__device__ __forceinline__ void
binaryNdBody(const TA *a, const TB *b, TO *y, const OffsetCalc<2, I> &oc,
             int64_t nv, bool aVec, bool bVec, const F &f) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t v = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; v < nv;
       v += stride) {
    int64_t off[2];
    oc.get(I(v), off);
    const VecT<TA, V> va = loadOrSplat<V>(a, off[0], aVec);
    const VecT<TB, V> vb = loadOrSplat<V>(b, off[1], bVec);
    VecT<TO, V> o;
#pragma unroll
    for (int k = 0; k < V; ++k)
      o.v[k] = f(va.v[k], vb.v[k]);
    storeVec<V>(y, v, o);
  }
}

template <int V, typename TA, typename TB, typename TO, typename F, typename I>
__global__ void __launch_bounds__(kBlock)
    binaryNdKernel(const TA *a, const TB *b, TO *y, OffsetCalc<2, I> oc,
                   int64_t nv, bool vec, bool aVec, bool bVec, F f) {
  if (vec)
    binaryNdBody<V>(a, b, y, oc, nv, aVec, bVec, f);
  else
    binaryNdBody<1>(a, b, y, oc, nv, false, false, f);
}

/// Where, contiguous: operands are full or scalars.
template <int V, typename E, typename F>
__device__ __forceinline__ void whereBody(const uint8_t *c, const E *a,
                                          const E *b, E *y, int64_t n, bool cS,
                                          bool aS, bool bS, const F &f) {
  const int64_t nv = n / V;
  const uint8_t cs = cS ? c[0] : uint8_t(0);
  const E as = aS ? a[0] : E(0);
  const E bs = bS ? b[0] : E(0);
  const int64_t stride = int64_t(gridDim.x) * kBlock;
  for (int64_t i = int64_t(blockIdx.x) * kBlock + threadIdx.x; i < nv;
       i += stride) {
    VecT<uint8_t, V> vc;
    VecT<E, V> va, vb;
    if (cS)
      splat(vc, cs);
    else
      vc = loadVec<V>(c, i);
    if (aS)
      splat(va, as);
    else
      va = loadVec<V>(a, i);
    if (bS)
      splat(vb, bs);
    else
      vb = loadVec<V>(b, i);
    VecT<E, V> o;
#pragma unroll
    for (int k = 0; k < V; ++k)
      o.v[k] = f(vc.v[k], va.v[k], vb.v[k]);
    storeVec<V>(y, i, o);
  }
  if constexpr (V > 1) {
    const int64_t tail = n - nv * V;
    if (blockIdx.x == 0 && threadIdx.x < tail) {
      const int64_t i = nv * V + threadIdx.x;
      y[i] = f(cS ? cs : c[i], aS ? as : a[i], bS ? bs : b[i]);
    }
  }
}

template <int V, typename E, typename F>
__global__ void __launch_bounds__(kBlock)
    whereKernel(const uint8_t *c, const E *a, const E *b, E *y, int64_t n,
                bool cS, bool aS, bool bS, bool vec, F f) {
  if (vec)
    whereBody<V>(c, a, b, y, n, cS, aS, bS, f);
  else
    whereBody<1>(c, a, b, y, n, cS, aS, bS, f);
}

template <int V, typename E, typename F, typename I>
__device__ __forceinline__ void
whereNdBody(const uint8_t *c, const E *a, const E *b, E *y,
            const OffsetCalc<3, I> &oc, int64_t nv, bool cVec, bool aVec,
            bool bVec, const F &f) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t v = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; v < nv;
       v += stride) {
    int64_t off[3];
    oc.get(I(v), off);
    const VecT<uint8_t, V> vc = loadOrSplat<V>(c, off[0], cVec);
    const VecT<E, V> va = loadOrSplat<V>(a, off[1], aVec);
    const VecT<E, V> vb = loadOrSplat<V>(b, off[2], bVec);
    VecT<E, V> o;
#pragma unroll
    for (int k = 0; k < V; ++k)
      o.v[k] = f(vc.v[k], va.v[k], vb.v[k]);
    storeVec<V>(y, v, o);
  }
}

template <int V, typename E, typename F, typename I>
__global__ void __launch_bounds__(kBlock)
    whereNdKernel(const uint8_t *c, const E *a, const E *b, E *y,
                  OffsetCalc<3, I> oc, int64_t nv, bool vec, bool cVec,
                  bool aVec, bool bVec, F f) {
  if (vec)
    whereNdBody<V>(c, a, b, y, oc, nv, cVec, aVec, bVec, f);
  else
    whereNdBody<1>(c, a, b, y, oc, nv, false, false, false, f);
}

//===----------------------------------------------------------------------===//
// Host launchers.
//===----------------------------------------------------------------------===//

/// Elements per 16 bytes of the widest of the given types.
template <typename... T>
inline constexpr int kVecOf = int(16 / std::max({sizeof(T)...}));

/// y = f(x) over contiguous tensors.
template <typename F>
Status launchUnaryF(const KernelArgs &args, const Tensor &x, Tensor &y,
                    const F &f, cudaStream_t stream) {
  using TI = typename F::In;
  using TO = typename F::Out;
  constexpr int V = kVecOf<TI, TO>;
  const int64_t n = y.numElements();
  if (n == 0)
    return Status::ok();
  const bool vec = V > 1 && isAligned(x.data(), V * sizeof(TI)) &&
                   isAligned(y.data(), V * sizeof(TO));
  const int64_t work = vec ? n / V : n;
  unaryKernel<V><<<gridFor(work, kBlock * kUnroll), kBlock, 0, stream>>>(
      static_cast<const TI *>(x.data()), static_cast<TO *>(y.data()), n, vec,
      f);
  return checkLaunch(args);
}

/// Builds the offset calculator of a broadcasting plan, vectorized by V
/// along the innermost dimension when `vec`.
template <int N, typename I>
OffsetCalc<N, I> planCalc(const StridedPlan &plan, bool vec, int V) {
  Shape dims = plan.dims;
  std::vector<std::vector<int64_t>> strides = plan.strides;
  if (vec) {
    dims.back() /= V;
    for (auto &s : strides)
      s.back() *= V;
  }
  return makeOffsetCalc<N, I>(dims, strides);
}

/// y = f(a, b) with numpy broadcasting.
template <typename F>
Status launchBinaryF(const KernelArgs &args, const Tensor &a, const Tensor &b,
                     Tensor &y, const F &f, cudaStream_t stream) {
  using TI = typename F::In;
  using TO = typename F::Out;
  constexpr int V = kVecOf<TI, TO>;
  const int64_t n = y.numElements();
  if (n == 0)
    return Status::ok();
  const TI *pa = static_cast<const TI *>(a.data());
  const TI *pb = static_cast<const TI *>(b.data());
  TO *py = static_cast<TO *>(y.data());
  const int64_t na = a.numElements(), nb = b.numElements();
  if ((na == n || na == 1) && (nb == n || nb == 1)) {
    const bool aS = na != n, bS = nb != n;
    const bool vec = V > 1 && (aS || isAligned(pa, V * sizeof(TI))) &&
                     (bS || isAligned(pb, V * sizeof(TI))) &&
                     isAligned(py, V * sizeof(TO));
    const int64_t work = vec ? n / V : n;
    binaryKernel<V><<<gridFor(work, kBlock * kUnroll), kBlock, 0, stream>>>(
        pa, pb, py, n, aS, bS, vec, f);
    return checkLaunch(args);
  }
  const StridedPlan plan =
      makeBroadcastPlan(y.shape(), {&a.shape(), &b.shape()});
  if (plan.dims.size() > size_t(kMaxDims))
    return args.fail("the broadcast needs ", plan.dims.size(),
                     " dimensions after merging; the GPU kernels take at most ",
                     kMaxDims);
  const int64_t d = plan.dims.back();
  const bool aVec = plan.strides[0].back() == 1;
  const bool bVec = plan.strides[1].back() == 1;
  const bool vec =
      V > 1 && d % V == 0 && (!aVec || isAligned(pa, V * sizeof(TI))) &&
      (!bVec || isAligned(pb, V * sizeof(TI))) && isAligned(py, V * sizeof(TO));
  const int64_t nv = vec ? n / V : n;
  const unsigned grid = gridFor(nv, kBlock);
  if (nv < (int64_t(1) << 31)) {
    binaryNdKernel<V><<<grid, kBlock, 0, stream>>>(
        pa, pb, py, planCalc<2, uint32_t>(plan, vec, V), nv, vec, aVec, bVec,
        f);
  } else {
    binaryNdKernel<V><<<grid, kBlock, 0, stream>>>(
        pa, pb, py, planCalc<2, uint64_t>(plan, vec, V), nv, vec, aVec, bVec,
        f);
  }
  return checkLaunch(args);
}

/// Validates and launches a unary op over the GPU types of `Set`.
template <TypeSet Set, bool Predicate = false, typename Op>
Status runUnary(const KernelArgs &args, cudaStream_t stream, const Op &op) {
  PARACC_RETURN_IF_ERROR(checkUnary(args, checkGpuDType, Set, Predicate));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  return visitGpuDType<Set>(args, x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    constexpr DType DO = Predicate ? DType::Bool : D;
    return launchUnaryF(args, x, y, UnaryF<D, DO, Op>{op}, stream);
  });
}

/// Validates and launches a binary op over the GPU types of `Set`; the
/// result has the operands' type, or bool for comparisons.
template <TypeSet Set, bool Compare = false, typename Op>
Status runBinary(const KernelArgs &args, cudaStream_t stream, const Op &op) {
  PARACC_RETURN_IF_ERROR(checkBinary(args, checkGpuDType, Set, Compare));
  const Tensor &a = *args.in[0];
  const Tensor &b = *args.in[1];
  Tensor &y = *args.out[0];
  return visitGpuDType<Set>(args, a.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    constexpr DType DO = Compare ? DType::Bool : D;
    return launchBinaryF(args, a, b, y, BinaryF<D, DO, Op>{op}, stream);
  });
}

bool isFloatGpu(DType t) { return gpuDTypeInSet(t, TypeSet::Float); }

} // namespace

//===----------------------------------------------------------------------===//
// Entry points.
//===----------------------------------------------------------------------===//

bool unaryHasKernel(OpCode op, DType t) {
  switch (op) {
  case OpCode::Neg:
  case OpCode::Abs:
  case OpCode::Sign:
    return gpuDTypeInSet(t, TypeSet::Numeric);
  case OpCode::Relu:
    return gpuDTypeInSet(t, TypeSet::Signed);
  case OpCode::Not:
    return t == DType::Bool;
  case OpCode::Sqrt:
  case OpCode::Rsqrt:
  case OpCode::Reciprocal:
  case OpCode::Exp:
  case OpCode::Log:
  case OpCode::Tanh:
  case OpCode::Erf:
  case OpCode::Sigmoid:
  case OpCode::Gelu:
  case OpCode::Silu:
  case OpCode::Sin:
  case OpCode::Cos:
  case OpCode::Tan:
  case OpCode::Asin:
  case OpCode::Acos:
  case OpCode::Atan:
  case OpCode::Sinh:
  case OpCode::Cosh:
  case OpCode::Asinh:
  case OpCode::Acosh:
  case OpCode::Atanh:
  case OpCode::Floor:
  case OpCode::Ceil:
  case OpCode::Round:
  case OpCode::IsNaN:
  case OpCode::IsInf:
    return isFloatGpu(t);
  default:
    return false;
  }
}

bool binaryHasKernel(OpCode op, DType t) {
  switch (op) {
  case OpCode::Add:
  case OpCode::Sub:
  case OpCode::Mul:
  case OpCode::Max:
  case OpCode::Min:
    return gpuDTypeInSet(t, TypeSet::Numeric);
  case OpCode::Div:
  case OpCode::Mod:
  case OpCode::Pow:
    // Integer forms check every divisor / exponent before computing: CPU.
    return isFloatGpu(t);
  case OpCode::And:
  case OpCode::Or:
  case OpCode::Xor:
    return t == DType::Bool;
  case OpCode::Equal:
  case OpCode::Less:
  case OpCode::LessEqual:
  case OpCode::Greater:
  case OpCode::GreaterEqual:
    return gpuDTypeInSet(t, TypeSet::All);
  default:
    return false;
  }
}

Status launchUnary(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const OpCode op = args.op;
  constexpr TypeSet F = TypeSet::Float;
  switch (op) {
  case OpCode::Neg:
    return runUnary<TypeSet::Numeric>(args, stream, NegOp());
  case OpCode::Abs:
    return runUnary<TypeSet::Numeric>(args, stream, AbsOp());
  case OpCode::Sign:
    return runUnary<TypeSet::Numeric>(args, stream, SignOp());
  case OpCode::Relu:
    return runUnary<TypeSet::Signed>(args, stream, ReluOp());
  case OpCode::Not:
    return runUnary<TypeSet::Bool>(args, stream, NotOp());
  case OpCode::IsNaN:
    return runUnary<F, true>(args, stream, IsNaNOp());
  case OpCode::IsInf:
    return runUnary<F, true>(
        args, stream,
        IsInfOp{args.attrsAs<IsInfAttrs>().detectPositive,
                args.attrsAs<IsInfAttrs>().detectNegative});
  case OpCode::Gelu:
    return runUnary<F>(args, stream,
                       GeluOp{args.attrsAs<GeluAttrs>().tanhApproximation});
  case OpCode::Sqrt:
    return runUnary<F>(args, stream, SqrtOp());
  case OpCode::Rsqrt:
    return runUnary<F>(args, stream, RsqrtOp());
  case OpCode::Reciprocal:
    return runUnary<F>(args, stream, ReciprocalOp());
  case OpCode::Exp:
    return runUnary<F>(args, stream, ExpOp());
  case OpCode::Log:
    return runUnary<F>(args, stream, LogOp());
  case OpCode::Tanh:
    return runUnary<F>(args, stream, TanhOp());
  case OpCode::Erf:
    return runUnary<F>(args, stream, ErfOp());
  case OpCode::Sigmoid:
    return runUnary<F>(args, stream, SigmoidOp());
  case OpCode::Silu:
    return runUnary<F>(args, stream, SiluOp());
  case OpCode::Sin:
    return runUnary<F>(args, stream, SinOp());
  case OpCode::Cos:
    return runUnary<F>(args, stream, CosOp());
  case OpCode::Tan:
    return runUnary<F>(args, stream, TanOp());
  case OpCode::Asin:
    return runUnary<F>(args, stream, AsinOp());
  case OpCode::Acos:
    return runUnary<F>(args, stream, AcosOp());
  case OpCode::Atan:
    return runUnary<F>(args, stream, AtanOp());
  case OpCode::Sinh:
    return runUnary<F>(args, stream, SinhOp());
  case OpCode::Cosh:
    return runUnary<F>(args, stream, CoshOp());
  case OpCode::Asinh:
    return runUnary<F>(args, stream, AsinhOp());
  case OpCode::Acosh:
    return runUnary<F>(args, stream, AcoshOp());
  case OpCode::Atanh:
    return runUnary<F>(args, stream, AtanhOp());
  case OpCode::Floor:
    return runUnary<F>(args, stream, FloorOp());
  case OpCode::Ceil:
    return runUnary<F>(args, stream, CeilOp());
  case OpCode::Round:
    return runUnary<F>(args, stream, RoundOp());
  default:
    return args.fail("not a unary elementwise op");
  }
}

Status launchBinary(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 2, 1));
  constexpr TypeSet N = TypeSet::Numeric;
  constexpr TypeSet F = TypeSet::Float;
  switch (args.op) {
  case OpCode::Add:
    return runBinary<N>(args, stream, AddOp());
  case OpCode::Sub:
    return runBinary<N>(args, stream, SubOp());
  case OpCode::Mul:
    return runBinary<N>(args, stream, MulOp());
  case OpCode::Max:
    return runBinary<N>(args, stream, MaxOp());
  case OpCode::Min:
    return runBinary<N>(args, stream, MinOp());
  case OpCode::Div:
  case OpCode::Mod:
  case OpCode::Pow: {
    // The CPU checks integer divisors and exponents before computing, which
    // the GPU cannot do without a synchronization: integers stay on the CPU.
    const Tensor &a = *args.in[0];
    if (dtypeInSet(a.dtype(), TypeSet::Int))
      return args.fail("integer operands (", a.typeString(),
                       ") have no GPU kernel (the CPU checks divisors and "
                       "exponents first)");
    if (args.op == OpCode::Div)
      return runBinary<F>(args, stream, DivOp());
    if (args.op == OpCode::Pow)
      return runBinary<F>(args, stream, PowOp());
    return runBinary<F>(args, stream, ModOp{args.attrsAs<ModAttrs>().fmod});
  }
  case OpCode::And:
    return runBinary<TypeSet::Bool>(args, stream, AndOp());
  case OpCode::Or:
    return runBinary<TypeSet::Bool>(args, stream, OrOp());
  case OpCode::Xor:
    return runBinary<TypeSet::Bool>(args, stream, XorOp());
  case OpCode::Equal:
    return runBinary<TypeSet::All, true>(args, stream, EqualOp());
  case OpCode::Less:
    return runBinary<TypeSet::All, true>(args, stream, LessOp());
  case OpCode::LessEqual:
    return runBinary<TypeSet::All, true>(args, stream, LessEqualOp());
  case OpCode::Greater:
    return runBinary<TypeSet::All, true>(args, stream, GreaterOp());
  case OpCode::GreaterEqual:
    return runBinary<TypeSet::All, true>(args, stream, GreaterEqualOp());
  default:
    return args.fail("not a binary elementwise op");
  }
}

Status launchWhere(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkWhere(args));
  const Tensor &c = *args.in[0];
  const Tensor &a = *args.in[1];
  const Tensor &b = *args.in[2];
  Tensor &y = *args.out[0];
  const int64_t n = y.numElements();
  if (n == 0)
    return Status::ok();
  const bool canonical = y.dtype() == DType::Bool;
  return visitElemSize(dtypeSize(a.dtype()), [&](auto e) -> Status {
    using E = decltype(e);
    constexpr int V = kVecOf<E>;
    const uint8_t *pc = static_cast<const uint8_t *>(c.data());
    const E *pa = static_cast<const E *>(a.data());
    const E *pb = static_cast<const E *>(b.data());
    E *py = static_cast<E *>(y.data());
    auto launch = [&](auto f) -> Status {
      const int64_t nc = c.numElements(), na = a.numElements(),
                    nb = b.numElements();
      if ((nc == n || nc == 1) && (na == n || na == 1) &&
          (nb == n || nb == 1)) {
        const bool cS = nc != n, aS = na != n, bS = nb != n;
        const bool vec = V > 1 && (cS || isAligned(pc, V)) &&
                         (aS || isAligned(pa, V * sizeof(E))) &&
                         (bS || isAligned(pb, V * sizeof(E))) &&
                         isAligned(py, V * sizeof(E));
        const int64_t work = vec ? n / V : n;
        whereKernel<V><<<gridFor(work, kBlock), kBlock, 0, stream>>>(
            pc, pa, pb, py, n, cS, aS, bS, vec, f);
        return checkLaunch(args);
      }
      const StridedPlan plan =
          makeBroadcastPlan(y.shape(), {&c.shape(), &a.shape(), &b.shape()});
      if (plan.dims.size() > size_t(kMaxDims))
        return args.fail("the broadcast needs ", plan.dims.size(),
                         " dimensions after merging; the GPU kernels take at "
                         "most ",
                         kMaxDims);
      const int64_t d = plan.dims.back();
      const bool cVec = plan.strides[0].back() == 1;
      const bool aVec = plan.strides[1].back() == 1;
      const bool bVec = plan.strides[2].back() == 1;
      const bool vec = V > 1 && d % V == 0 && (!cVec || isAligned(pc, V)) &&
                       (!aVec || isAligned(pa, V * sizeof(E))) &&
                       (!bVec || isAligned(pb, V * sizeof(E))) &&
                       isAligned(py, V * sizeof(E));
      const int64_t nv = vec ? n / V : n;
      const unsigned grid = gridFor(nv, kBlock);
      if (nv < (int64_t(1) << 31))
        whereNdKernel<V><<<grid, kBlock, 0, stream>>>(
            pc, pa, pb, py, planCalc<3, uint32_t>(plan, vec, V), nv, vec, cVec,
            aVec, bVec, f);
      else
        whereNdKernel<V><<<grid, kBlock, 0, stream>>>(
            pc, pa, pb, py, planCalc<3, uint64_t>(plan, vec, V), nv, vec, cVec,
            aVec, bVec, f);
      return checkLaunch(args);
    };
    if constexpr (sizeof(E) == 1) {
      if (canonical)
        return launch(WhereF<E, true>());
    }
    return launch(WhereF<E, false>());
  });
}

namespace {

/// Calls f(DTypeTag<D>{}) for a GPU cast type.
template <typename F> Status visitCastDType(DType d, F &&f) {
  switch (d) {
  case DType::F32:
    return f(DTypeTag<DType::F32>{});
  case DType::F16:
    return f(DTypeTag<DType::F16>{});
  case DType::BF16:
    return f(DTypeTag<DType::BF16>{});
  case DType::F64:
    return f(DTypeTag<DType::F64>{});
  case DType::I32:
    return f(DTypeTag<DType::I32>{});
  case DType::I64:
    return f(DTypeTag<DType::I64>{});
  case DType::I8:
    return f(DTypeTag<DType::I8>{});
  case DType::U8:
    return f(DTypeTag<DType::U8>{});
  case DType::Bool:
    return f(DTypeTag<DType::Bool>{});
  default:
    return Status::error("unsupported");
  }
}

} // namespace

Status launchCast(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkShape(y, x.shape(), "result"));
  if (!isGpuCastDType(x.dtype()) || !isGpuCastDType(y.dtype()))
    return args.fail("no GPU kernel casts ", dtypeName(x.dtype()), " to ",
                     dtypeName(y.dtype()));
  return visitCastDType(x.dtype(), [&](auto inTag) -> Status {
    constexpr DType DI = decltype(inTag)::value;
    return visitCastDType(y.dtype(), [&](auto outTag) -> Status {
      constexpr DType DO = decltype(outTag)::value;
      if constexpr (DI == DO && DI != DType::Bool) {
        // Same type: a copy (bools are made canonical by the kernel).
        if (x.byteSize() && x.data() != y.data()) {
          const cudaError_t err =
              cudaMemcpyAsync(y.data(), x.data(), x.byteSize(),
                              cudaMemcpyDeviceToDevice, stream);
          if (err != cudaSuccess)
            return args.fail("CUDA copy failed: ", cudaGetErrorString(err));
        }
        return Status::ok();
      } else {
        return launchUnaryF(args, x, y, CastF<DI, DO>(), stream);
      }
    });
  });
}

Status launchClip(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkClip(args, checkGpuDType));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  const ClipAttrs &bounds = args.attrsAs<ClipAttrs>();
  const double minV = bounds.min, maxV = bounds.max;
  return visitGpuDType<TypeSet::Numeric>(
      args, x.dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        ClipF<D> f;
        if constexpr (D == DType::F32) {
          // Rounded like castElem<F64, F32>: out-of-range bounds become
          // infinities.
          auto toF32 = [](double v) -> float {
            if (std::isfinite(v) && std::fabs(v) >= 3.4028235677973366e38)
              return std::signbit(v) ? -INFINITY : INFINITY;
            return static_cast<float>(v);
          };
          f.lo = toF32(minV);
          f.hi = toF32(maxV);
        } else if constexpr (D == DType::F16) {
          f.lo = halfBitsToFloat(halfBitsFromDouble(minV));
          f.hi = halfBitsToFloat(halfBitsFromDouble(maxV));
        } else if constexpr (D == DType::BF16) {
          BFloat16 lo, hi;
          lo.bits = bfloat16BitsFromDouble(minV);
          hi.bits = bfloat16BitsFromDouble(maxV);
          f.lo = static_cast<float>(lo);
          f.hi = static_cast<float>(hi);
        } else {
          using C = DevC<D>;
          f.lo = saturatingCast<C>(std::ceil(minV));
          f.hi = saturatingCast<C>(std::floor(maxV));
        }
        return launchUnaryF(args, x, y, f, stream);
      });
}

} // namespace paracc::rt::cuda

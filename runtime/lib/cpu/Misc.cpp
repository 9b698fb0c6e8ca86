//===- Misc.cpp - Range, CumSum, Trilu ------------------------------------===//
//
// Range computes its element count like the ONNX reference (in the operand
// type for floats, exactly for integers) and requires the result to have
// it. CumSum accumulates in double / wrapping 64-bit integers.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ReductionChecks.h"
#include "cpu/CpuKernels.h"

#include <cmath>
#include <cstring>

namespace paracc::rt {

namespace {

template <DType D>
Status rangeTyped(const KernelArgs &args, const Tensor &start,
                  const Tensor &limit, const Tensor &delta, Tensor &y) {
  using S = StorageT<D>;
  const ComputeT<D> s = load<D>(static_cast<const S *>(start.data()));
  const ComputeT<D> l = load<D>(static_cast<const S *>(limit.data()));
  const ComputeT<D> dl = load<D>(static_cast<const S *>(delta.data()));
  if (dl == 0)
    return args.fail("delta must not be zero");
  int64_t count;
  if constexpr (kIsFloat<D>) {
    using T = ComputeT<D>; // float for f16/bf16/f32, double for f64.
    const T q = std::ceil((l - s) / dl);
    if (!std::isfinite(q))
      return args.fail("element count of range(", s, ", ", l, ", ", dl,
                       ") is not finite");
    if (q <= 0)
      count = 0;
    else if (q >= 9.2e18)
      return args.fail("range is too long");
    else
      count = static_cast<int64_t>(q);
  } else {
    const __int128 diff = static_cast<__int128>(l) - static_cast<__int128>(s);
    __int128 q = diff / dl;
    if (diff % dl != 0 && ((diff > 0) == (dl > 0)))
      ++q;
    if (q > static_cast<__int128>(INT64_MAX))
      return args.fail("range is too long");
    count = q <= 0 ? 0 : static_cast<int64_t>(q);
  }
  if (y.dim(0) != count)
    return args.fail("result ", y.typeString(), " must have ", count,
                     " elements");
  S *out = static_cast<S *>(y.data());
  for (int64_t i = 0; i < count; ++i) {
    if constexpr (kIsFloat<D>) {
      using T = ComputeT<D>;
      store<D>(out + i, static_cast<T>(s + static_cast<T>(i) * dl));
    } else {
      using C = ComputeT<D>;
      store<D>(out + i, wrapAdd(s, wrapMul(static_cast<C>(i), dl)));
    }
  }
  return Status::ok();
}

} // namespace

Status runRangeKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(checkRange(args, checkCpuDType));
  const Tensor &start = *args.in[0];
  const Tensor &limit = *args.in[1];
  const Tensor &delta = *args.in[2];
  Tensor &y = *args.out[0];
  return visitDTypeIn<TypeSet::Numeric>(start.dtype(), [&](auto tag) {
    return rangeTyped<decltype(tag)::value>(args, start, limit, delta, y);
  });
}

Status runCumSumKernel(const KernelArgs &args) {
  AxisScan s;
  PARACC_RETURN_IF_ERROR(checkCumSum(args, checkCpuDType, s));
  if (s.empty())
    return Status::ok();
  const Tensor &x = *s.x;
  Tensor &y = *s.y;
  const int64_t outer = s.outer, c = s.c, inner = s.inner;
  const bool exclusive = s.exclusive, reverse = s.reverse;
  return visitDTypeIn<TypeSet::Numeric>(x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    using A = AccT<D>;
    const S *in = static_cast<const S *>(x.data());
    S *out = static_cast<S *>(y.data());
    std::vector<A> acc(static_cast<size_t>(inner));
    for (int64_t o = 0; o < outer; ++o) {
      std::fill(acc.begin(), acc.end(), A(0));
      for (int64_t step = 0; step < c; ++step) {
        const int64_t j = reverse ? c - 1 - step : step;
        const int64_t base = (o * c + j) * inner;
        for (int64_t i = 0; i < inner; ++i) {
          const A v = static_cast<A>(load<D>(in + base + i));
          A next;
          if constexpr (std::is_integral_v<A>)
            next = wrapAdd(acc[i], v);
          else
            next = acc[i] + v;
          store<D>(out + base + i,
                   static_cast<ComputeT<D>>(exclusive ? acc[i] : next));
          acc[i] = next;
        }
      }
    }
    return Status::ok();
  });
}

Status runTriluKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(checkTrilu(args));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  if (x.numElements() == 0)
    return Status::ok();
  const TriluAttrs &attrs = args.attrsAs<TriluAttrs>();
  const bool upper = attrs.upper;
  const int64_t k = attrs.diagonal;
  const int64_t rows = x.dim(x.rank() - 2), cols = x.dim(x.rank() - 1);
  const int64_t batches = x.numElements() / (rows * cols);
  return visitElemSize(dtypeSize(x.dtype()), [&](auto e) -> Status {
    using E = decltype(e);
    const E *in = static_cast<const E *>(x.data());
    E *out = static_cast<E *>(y.data());
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < rows; ++i) {
        const int64_t off = (b * rows + i) * cols;
        for (int64_t j = 0; j < cols; ++j) {
          const int64_t diff = j - i;
          const bool keep = upper ? diff >= k : diff <= k;
          out[off + j] = keep ? in[off + j] : E(0);
        }
      }
    }
    return Status::ok();
  });
}

} // namespace paracc::rt

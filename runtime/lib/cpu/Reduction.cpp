//===- Reduction.cpp - ReduceSum/Mean/Max/Min/Prod, ArgMax/ArgMin ---------===//
//
// Reductions walk the input once in row-major order with, per input
// dimension, the output stride (0 along reduced dimensions). Floating sums
// and products accumulate in double, integer ones in wrapping 64-bit
// integers; Max and Min propagate NaN.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ReductionChecks.h"
#include "cpu/CpuKernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace paracc::rt {

namespace {

enum class ReduceKind { Sum, Mean, Max, Min, Prod, SumSquare };

template <DType D, ReduceKind K> struct Reducer {
  using C = ComputeT<D>;
  /// The accumulator: the compute type for Max/Min (exact; a byte for
  /// bool), AccT otherwise.
  using A =
      std::conditional_t<K == ReduceKind::Max || K == ReduceKind::Min,
                         std::conditional_t<kIsBool<D>, uint8_t, C>, AccT<D>>;

  static constexpr bool kAdds = K == ReduceKind::Sum ||
                                K == ReduceKind::Mean ||
                                K == ReduceKind::SumSquare;

  static A identity() {
    if constexpr (kAdds)
      return A(0);
    else if constexpr (K == ReduceKind::Prod)
      return A(1);
    else if constexpr (K == ReduceKind::Max)
      return std::numeric_limits<A>::has_infinity
                 ? -std::numeric_limits<A>::infinity()
                 : std::numeric_limits<A>::lowest();
    else
      return std::numeric_limits<A>::has_infinity
                 ? std::numeric_limits<A>::infinity()
                 : std::numeric_limits<A>::max();
  }

  /// An element's contribution (its square for SumSquare, in A).
  static A element(C v) {
    if constexpr (K == ReduceKind::SumSquare)
      return static_cast<A>(v) * static_cast<A>(v);
    else
      return static_cast<A>(v);
  }

  /// Folds a contribution or another accumulator into acc.
  template <typename V> static A combine(A acc, V v) {
    if constexpr (kAdds) {
      if constexpr (std::is_integral_v<A>)
        return wrapAdd(acc, static_cast<A>(v));
      else
        return acc + static_cast<A>(v);
    } else if constexpr (K == ReduceKind::Prod) {
      if constexpr (std::is_integral_v<A>)
        return wrapMul(acc, static_cast<A>(v));
      else
        return acc * static_cast<A>(v);
    } else {
      if constexpr (std::is_floating_point_v<A>) {
        if (std::isnan(acc))
          return acc;
        if (std::isnan(v))
          return static_cast<A>(v);
      }
      const A va = static_cast<A>(v);
      if constexpr (K == ReduceKind::Max)
        return acc < va ? va : acc;
      else
        return va < acc ? va : acc;
    }
  }
};

template <DType D, ReduceKind K>
Status reduceTyped(const KernelArgs &args, const Tensor &x, Tensor &y,
                   const std::vector<bool> &reduced) {
  using R = Reducer<D, K>;
  using A = typename R::A;
  using S = StorageT<D>;
  const int64_t outN = y.numElements();
  const int64_t count = outN ? x.numElements() / outN : 0;
  if constexpr (K == ReduceKind::Mean && !kIsFloat<D>) {
    if (count == 0 && outN > 0)
      return args.fail("mean of an empty set of integers");
  }
  std::vector<A> acc(static_cast<size_t>(outN), R::identity());
  // Output strides seen from the input's dimensions.
  StridedPlan plan;
  plan.dims = x.shape();
  std::vector<int64_t> strides(x.rank(), 0);
  int64_t s = 1;
  for (int64_t d = x.rank() - 1; d >= 0; --d) {
    if (!reduced[d]) {
      strides[d] = s;
      s *= x.dim(d);
    }
  }
  plan.strides.push_back(std::move(strides));
  simplifyPlan(plan);
  const S *in = static_cast<const S *>(x.data());
  if (x.numElements() > 0) {
    forEachRow<1>(plan, [&](int64_t inOff, const int64_t *off, int64_t len,
                            const int64_t *st) {
      const S *row = in + inOff;
      if (st[0] == 0) {
        // Along a reduced row: four independent accumulators.
        A lanes[4] = {R::identity(), R::identity(), R::identity(),
                      R::identity()};
        int64_t j = 0;
        for (; j + 4 <= len; j += 4) {
          for (int k = 0; k < 4; ++k)
            lanes[k] = R::combine(lanes[k], R::element(load<D>(row + j + k)));
        }
        for (; j < len; ++j)
          lanes[0] = R::combine(lanes[0], R::element(load<D>(row + j)));
        A a = acc[off[0]];
        for (int k = 0; k < 4; ++k)
          a = R::combine(a, lanes[k]);
        acc[off[0]] = a;
      } else {
        A *out = acc.data() + off[0];
        for (int64_t j = 0; j < len; ++j)
          out[j * st[0]] =
              R::combine(out[j * st[0]], R::element(load<D>(row + j)));
      }
    });
  }
  S *out = static_cast<S *>(y.data());
  for (int64_t i = 0; i < outN; ++i) {
    A v = acc[i];
    if constexpr (K == ReduceKind::Mean) {
      if constexpr (std::is_integral_v<A>)
        v = static_cast<A>(v / static_cast<A>(count));
      else
        v = v / static_cast<A>(count);
    }
    store<D>(out + i, static_cast<ComputeT<D>>(v));
  }
  return Status::ok();
}

template <ReduceKind K, TypeSet Set>
Status reduceDispatch(const KernelArgs &args, const Tensor &x, Tensor &y,
                      const std::vector<bool> &reduced) {
  PARACC_RETURN_IF_ERROR(args.checkDType(x, Set, "operand"));
  return visitDTypeIn<Set>(x.dtype(), [&](auto tag) -> Status {
    return reduceTyped<decltype(tag)::value, K>(args, x, y, reduced);
  });
}

} // namespace

Status runReduceKernel(const KernelArgs &args) {
  std::vector<bool> reduced;
  PARACC_RETURN_IF_ERROR(checkReduce(args, reduced));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  if (args.attrsAs<ReduceSumAttrs>().axes.empty()) {
    if (args.op == OpCode::ReduceSumSquare)
      return args.fail("needs at least one axis");
    // No axes: the identity (after the element type check).
    PARACC_RETURN_IF_ERROR(args.checkDType(x,
                                           args.op == OpCode::ReduceMax ||
                                                   args.op == OpCode::ReduceMin
                                               ? TypeSet::All
                                               : TypeSet::Numeric,
                                           "operand"));
    if (x.byteSize())
      std::memcpy(y.data(), x.data(), x.byteSize());
    return Status::ok();
  }
  switch (args.op) {
  case OpCode::ReduceSum:
    return reduceDispatch<ReduceKind::Sum, TypeSet::Numeric>(args, x, y,
                                                             reduced);
  case OpCode::ReduceMean:
    return reduceDispatch<ReduceKind::Mean, TypeSet::Numeric>(args, x, y,
                                                              reduced);
  case OpCode::ReduceProd:
    return reduceDispatch<ReduceKind::Prod, TypeSet::Numeric>(args, x, y,
                                                              reduced);
  case OpCode::ReduceMax:
    return reduceDispatch<ReduceKind::Max, TypeSet::All>(args, x, y, reduced);
  case OpCode::ReduceMin:
    return reduceDispatch<ReduceKind::Min, TypeSet::All>(args, x, y, reduced);
  case OpCode::ReduceSumSquare:
    return reduceDispatch<ReduceKind::SumSquare, TypeSet::Float>(args, x, y,
                                                                 reduced);
  default:
    return args.fail("not a reduction");
  }
}

namespace {

template <DType D>
void argReduceTyped(const Tensor &x, Tensor &y, int64_t outer, int64_t c,
                    int64_t inner, bool isMax, bool selectLast) {
  using C = ComputeT<D>;
  const auto *in = static_cast<const StorageT<D> *>(x.data());
  int64_t *out = static_cast<int64_t *>(y.data());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const StorageT<D> *p = in + o * c * inner + i;
      C best = load<D>(p);
      int64_t bestIdx = 0;
      for (int64_t j = 1; j < c; ++j) {
        const C v = load<D>(p + j * inner);
        bool better, tie;
        if constexpr (kIsFloat<D>) {
          // NaN is the extreme of both orders (numpy's argmax/argmin).
          const bool vn = std::isnan(v), bn = std::isnan(best);
          better = (vn && !bn) || (!vn && !bn && (isMax ? best < v : v < best));
          tie = (vn && bn) || v == best;
        } else {
          better = isMax ? best < v : v < best;
          tie = v == best;
        }
        if (better || (selectLast && tie)) {
          best = v;
          bestIdx = j;
        }
      }
      out[o * inner + i] = bestIdx;
    }
  }
}

} // namespace

Status runArgReduceKernel(const KernelArgs &args) {
  AxisScan s;
  PARACC_RETURN_IF_ERROR(checkArgReduce(args, checkCpuDType, s));
  if (s.empty())
    return Status::ok();
  return visitDTypeIn<TypeSet::All>(s.x->dtype(), [&](auto tag) -> Status {
    argReduceTyped<decltype(tag)::value>(*s.x, *s.y, s.outer, s.c, s.inner,
                                         s.isMax, s.selectLast);
    return Status::ok();
  });
}

/// Whether `a` comes before `b` in TopK's order (NaN the largest).
template <typename C> static bool topKBefore(C a, C b, bool largest) {
  if constexpr (std::is_floating_point_v<C>) {
    const bool an = std::isnan(a), bn = std::isnan(b);
    if (an || bn)
      return largest ? an && !bn : bn && !an;
  }
  return largest ? b < a : a < b;
}

template <DType D> static void topKTyped(const AxisScan &s) {
  using C = ComputeT<D>;
  const auto *in = static_cast<const StorageT<D> *>(s.x->data());
  auto *values = static_cast<StorageT<D> *>(s.y->data());
  auto *indices = static_cast<int64_t *>(s.indices->data());
  std::vector<int64_t> order(s.c);
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t i = 0; i < s.inner; ++i) {
      const StorageT<D> *p = in + o * s.c * s.inner + i;
      for (int64_t j = 0; j < s.c; ++j)
        order[j] = j;
      // Equal elements keep their order: the lower position first.
      std::partial_sort(order.begin(), order.begin() + s.k, order.end(),
                        [&](int64_t a, int64_t b) {
                          const C va = load<D>(p + a * s.inner),
                                  vb = load<D>(p + b * s.inner);
                          if (topKBefore(va, vb, s.largest))
                            return true;
                          return !topKBefore(vb, va, s.largest) && a < b;
                        });
      for (int64_t j = 0; j < s.k; ++j) {
        const int64_t at = (o * s.k + j) * s.inner + i;
        values[at] = p[order[j] * s.inner];
        indices[at] = order[j];
      }
    }
  }
}

Status runTopKKernel(const KernelArgs &args) {
  AxisScan s;
  PARACC_RETURN_IF_ERROR(checkTopK(args, checkCpuDType, s));
  if (s.empty())
    return Status::ok();
  return visitDTypeIn<TypeSet::All>(s.x->dtype(), [&](auto tag) -> Status {
    topKTyped<decltype(tag)::value>(s);
    return Status::ok();
  });
}

} // namespace paracc::rt

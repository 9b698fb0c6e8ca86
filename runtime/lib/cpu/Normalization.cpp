//===- Normalization.cpp - LayerNorm, RmsNorm, Softmax, LogSoftmax --------===//
//
// Statistics accumulate in double; softmax subtracts the maximum first.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ReductionChecks.h"
#include "cpu/CpuKernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace paracc::rt {

namespace {

/// sum(p[i] - shift) or sum((p[i] - shift)^2), in four independent
/// accumulators so the adds pipeline.
double sumLanes(const double *p, int64_t n, double shift, bool square) {
  double acc[4] = {0.0, 0.0, 0.0, 0.0};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int k = 0; k < 4; ++k) {
      const double v = p[i + k] - shift;
      acc[k] += square ? v * v : v;
    }
  }
  for (; i < n; ++i) {
    const double v = p[i] - shift;
    acc[0] += square ? v * v : v;
  }
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

} // namespace

Status runNormKernel(const KernelArgs &args) {
  NormProblem n;
  PARACC_RETURN_IF_ERROR(checkNorm(args, checkCpuDType, n));
  if (n.empty())
    return Status::ok();
  const Tensor &x = *n.x, &scale = *n.scale, *bias = n.bias;
  Tensor &y = *n.y;
  const bool isLayerNorm = n.isLayerNorm;
  const double eps = n.eps;
  const int64_t d = n.d, rows = n.rows();
  const Shape &normShape = n.normShape;

  return visitDTypeIn<TypeSet::Float>(x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    const std::vector<double> s = expandToDoubles<D>(scale, normShape);
    std::vector<double> b;
    if (bias)
      b = expandToDoubles<D>(*bias, normShape);
    const S *in = static_cast<const S *>(x.data());
    S *out = static_cast<S *>(y.data());
    std::vector<double> row(static_cast<size_t>(d));
    for (int64_t r = 0; r < rows; ++r) {
      const S *xr = in + r * d;
      S *yr = out + r * d;
      for (int64_t i = 0; i < d; ++i)
        row[i] = static_cast<double>(load<D>(xr + i));
      if (isLayerNorm) {
        const double mean =
            sumLanes(row.data(), d, 0.0, false) / static_cast<double>(d);
        const double sq = sumLanes(row.data(), d, mean, true);
        const double inv = 1.0 / std::sqrt(sq / static_cast<double>(d) + eps);
        for (int64_t i = 0; i < d; ++i) {
          double v = (row[i] - mean) * inv * s[i];
          if (bias)
            v += b[i];
          store<D>(yr + i, static_cast<ComputeT<D>>(v));
        }
      } else {
        const double sq = sumLanes(row.data(), d, 0.0, true);
        const double inv = 1.0 / std::sqrt(sq / static_cast<double>(d) + eps);
        for (int64_t i = 0; i < d; ++i)
          store<D>(yr + i, static_cast<ComputeT<D>>(row[i] * inv * s[i]));
      }
    }
    return Status::ok();
  });
}

Status runSoftmaxKernel(const KernelArgs &args) {
  AxisScan s;
  PARACC_RETURN_IF_ERROR(checkSoftmax(args, checkCpuDType, s));
  if (s.empty())
    return Status::ok();
  const Tensor &x = *s.x;
  Tensor &y = *s.y;
  const int64_t outer = s.outer, c = s.c, inner = s.inner;
  const bool isLog = s.isLog;

  return visitDTypeIn<TypeSet::Float>(x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    const S *in = static_cast<const S *>(x.data());
    S *out = static_cast<S *>(y.data());
    if (inner == 1) {
      // Contiguous rows: one exp per element (in the compute type, f32 or
      // f64), the sum in double.
      using C = ComputeT<D>;
      std::vector<C> e(static_cast<size_t>(c));
      for (int64_t o = 0; o < outer; ++o) {
        const S *xr = in + o * c;
        S *yr = out + o * c;
        C maxv = -std::numeric_limits<C>::infinity();
        for (int64_t j = 0; j < c; ++j) {
          const C v = load<D>(xr + j);
          maxv = v > maxv || std::isnan(v) ? v : maxv;
          if (std::isnan(maxv))
            break;
        }
        double sum = 0.0;
        for (int64_t j = 0; j < c; ++j) {
          e[j] = std::exp(load<D>(xr + j) - maxv);
          sum += e[j];
        }
        if (isLog) {
          const C lse = static_cast<C>(std::log(sum));
          for (int64_t j = 0; j < c; ++j)
            store<D>(yr + j, (load<D>(xr + j) - maxv) - lse);
        } else {
          const C inv = static_cast<C>(1.0 / sum);
          for (int64_t j = 0; j < c; ++j)
            store<D>(yr + j, e[j] * inv);
        }
      }
      return Status::ok();
    }
    std::vector<double> maxv(static_cast<size_t>(inner));
    std::vector<double> sum(static_cast<size_t>(inner));
    for (int64_t o = 0; o < outer; ++o) {
      const S *xo = in + o * c * inner;
      S *yo = out + o * c * inner;
      std::fill(maxv.begin(), maxv.end(), -INFINITY);
      std::fill(sum.begin(), sum.end(), 0.0);
      for (int64_t j = 0; j < c; ++j) {
        for (int64_t i = 0; i < inner; ++i) {
          const double v = load<D>(xo + j * inner + i);
          // NaN must win so that it propagates.
          if (v > maxv[i] || std::isnan(v))
            maxv[i] = std::isnan(maxv[i]) ? maxv[i] : v;
        }
      }
      for (int64_t j = 0; j < c; ++j) {
        for (int64_t i = 0; i < inner; ++i)
          sum[i] += std::exp(load<D>(xo + j * inner + i) - maxv[i]);
      }
      for (int64_t i = 0; i < inner; ++i)
        sum[i] = isLog ? std::log(sum[i]) : 1.0 / sum[i];
      for (int64_t j = 0; j < c; ++j) {
        for (int64_t i = 0; i < inner; ++i) {
          const double v =
              static_cast<double>(load<D>(xo + j * inner + i)) - maxv[i];
          const double r = isLog ? v - sum[i] : std::exp(v) * sum[i];
          store<D>(yo + j * inner + i, static_cast<ComputeT<D>>(r));
        }
      }
    }
    return Status::ok();
  });
}

} // namespace paracc::rt

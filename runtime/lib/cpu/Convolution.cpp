//===- Convolution.cpp - Conv and pooling over 1 to 3 spatial dims --------===//
//
// Conv as im2col and one BLAS product per (image, group): the columns of
// image n, group g are the input windows, [C/G * K, O] with K the kernel's
// and O the output's spatial size, and y[n, g] = w[g] [M/G, C/G * K] x
// columns (half types widened to f32, f64 kept). The gradients use the same
// columns: the weight's is dy[n, g] x columns^T summed over the images, and
// ConvTranspose (the operand's) forms columns = w[g]^T x x[n, g] and adds
// each back at the input position it came from (col2im). Pooling and its
// gradient walk each window.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ConvolutionGeometry.h"
#include "cpu/BlasGemm.h"
#include "cpu/CpuKernels.h"

#include <cmath>
#include <limits>
#include <vector>

namespace paracc::rt {

namespace {

/// Calls f(o, at) for every output position o (flat over the output's
/// spatial dims, in order) with `at`, the input position kernel offset k
/// reads there (flat over the input's spatial dims), or -1 in the padding.
/// The coordinates come from per-dim tables built once per offset: no
/// division per element (the rows of windowTable).
template <typename F>
void forEachOutputPosition(const ConvGeometry &g, int64_t k,
                           std::vector<int64_t> &tables, F f) {
  int64_t sizes[3] = {1, 1, 1};
  const int64_t *table[3];
  static const int64_t zero = 0;
  tables.clear();
  int64_t offsets[3] = {0, 0, 0}, rest = k;
  for (int64_t d = g.rank - 1; d >= 0; --d) {
    offsets[d] = rest % g.kernel[d];
    rest /= g.kernel[d];
  }
  std::vector<size_t> starts;
  for (int64_t d = 0; d < g.rank; ++d) {
    starts.push_back(tables.size());
    for (int64_t od = 0; od < g.out[d]; ++od) {
      const int64_t i =
          od * g.strides[d] - g.padsBegin[d] + offsets[d] * g.dilations[d];
      tables.push_back(i >= 0 && i < g.in[d] ? i * g.inStride[d] : -1);
    }
  }
  // Dims right-aligned into three (missing leading ones of size 1).
  const int64_t shift = 3 - g.rank;
  for (int64_t d = 0; d < 3; ++d) {
    if (d < shift) {
      table[d] = &zero;
      continue;
    }
    sizes[d] = g.out[d - shift];
    table[d] = tables.data() + starts[d - shift];
  }
  int64_t o = 0;
  for (int64_t a = 0; a < sizes[0]; ++a) {
    const int64_t ta = table[0][a];
    for (int64_t b = 0; b < sizes[1]; ++b) {
      const int64_t tb = table[1][b];
      const bool outside = ta < 0 || tb < 0;
      for (int64_t c = 0; c < sizes[2]; ++c, ++o) {
        const int64_t tc = table[2][c];
        f(o, outside || tc < 0 ? int64_t(-1) : ta + tb + tc);
      }
    }
  }
}

/// Every window's input positions, kernel offset major: entry
/// [k * outSize + o] is what forEachOutputPosition gives for (k, o).
std::vector<int64_t> windowTable(const ConvGeometry &g) {
  std::vector<int64_t> table(size_t(g.kernelSize * g.outSize)), scratch;
  for (int64_t k = 0; k < g.kernelSize; ++k)
    forEachOutputPosition(g, k, scratch, [&](int64_t o, int64_t at) {
      table[size_t(k * g.outSize + o)] = at;
    });
  return table;
}

/// `t`'s values as A: its own storage where that is A (f32, f64), else
/// widened into `copy`.
template <DType D, typename A>
const A *valuesAs(const Tensor &t, std::vector<A> &copy) {
  if constexpr (std::is_same_v<StorageT<D>, A>) {
    return static_cast<const A *>(t.data());
  } else {
    copy.resize(size_t(t.numElements()));
    const StorageT<D> *p = static_cast<const StorageT<D> *>(t.data());
    for (size_t i = 0; i < copy.size(); ++i)
      copy[i] = A(load<D>(p + i));
    return copy.data();
  }
}

/// The columns of image n, group grp: row (c, k) holds channel c's window
/// element k at every output position (0 in the padding); `taps` is
/// windowTable(g).
template <typename A>
void im2col(const ConvGeometry &g, const std::vector<int64_t> &taps,
            const A *x, int64_t n, int64_t grp, A *columns) {
  const int64_t cg = g.channels / g.groups;
  for (int64_t k = 0; k < g.kernelSize; ++k) {
    // The positions depend on k only: one row of taps serves every channel.
    const int64_t *at = taps.data() + k * g.outSize;
    for (int64_t c = 0; c < cg; ++c) {
      const A *plane = x + ((n * g.channels) + grp * cg + c) * g.inSize;
      A *row = columns + (c * g.kernelSize + k) * g.outSize;
      for (int64_t o = 0; o < g.outSize; ++o)
        row[o] = at[o] >= 0 ? plane[at[o]] : A(0);
    }
  }
}

/// Writes `acc` (all images' [features or channels, positions]) to `out`,
/// adding the bias per channel.
template <DType D, typename A>
void storeWithBias(const std::vector<A> &acc, const Tensor *bias,
                   int64_t channels, int64_t positions, Tensor &out) {
  using S = StorageT<D>;
  S *yp = static_cast<S *>(out.data());
  const S *bp = bias ? static_cast<const S *>(bias->data()) : nullptr;
  for (size_t i = 0; i < acc.size(); ++i) {
    const int64_t channel = (int64_t(i) / positions) % channels;
    const A add = bp ? A(load<D>(bp + channel)) : A(0);
    store<D>(yp + i, ComputeT<D>(acc[i] + add));
  }
}

template <DType D, typename A>
Status convolve(const ConvGeometry &g, const Tensor &x, const Tensor &w,
                const Tensor *bias, Tensor &y) {
  const int64_t cg = g.channels / g.groups, mg = g.features / g.groups;
  const int64_t rows = cg * g.kernelSize;
  std::vector<A> xCopy, wCopy;
  const A *xs = valuesAs<D>(x, xCopy), *weights = valuesAs<D>(w, wCopy);
  std::vector<A> columns(size_t(rows * g.outSize)),
      result(size_t(g.batch * g.features * g.outSize));
  const std::vector<int64_t> taps = windowTable(g);
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      im2col(g, taps, xs, n, grp, columns.data());
      gemm2d<A>(false, false, mg, g.outSize, rows, 1.0,
                weights + grp * mg * rows, rows, columns.data(), g.outSize, 0.0,
                result.data() + (n * g.features + grp * mg) * g.outSize,
                g.outSize);
    }
  storeWithBias<D>(result, bias, g.features, g.outSize, y);
  return Status::ok();
}

/// ConvTranspose in the frame of the Conv it transposes: x is that Conv's
/// result [N, features, O], y its operand [N, channels, S].
template <DType D, typename A>
Status convolveTransposed(const ConvGeometry &g, const Tensor &x,
                          const Tensor &w, const Tensor *bias, Tensor &y) {
  const int64_t cg = g.channels / g.groups, mg = g.features / g.groups;
  const int64_t rows = cg * g.kernelSize;
  std::vector<A> xCopy, wCopy;
  const A *xs = valuesAs<D>(x, xCopy), *weights = valuesAs<D>(w, wCopy);
  std::vector<A> columns(size_t(rows * g.outSize)),
      result(size_t(g.batch * g.channels * g.inSize), A(0));
  const std::vector<int64_t> taps = windowTable(g);
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      gemm2d<A>(true, false, rows, g.outSize, mg, 1.0,
                weights + grp * mg * rows, rows,
                xs + (n * g.features + grp * mg) * g.outSize, g.outSize, 0.0,
                columns.data(), g.outSize);
      for (int64_t k = 0; k < g.kernelSize; ++k) {
        const int64_t *at = taps.data() + k * g.outSize;
        for (int64_t c = 0; c < cg; ++c) {
          A *plane =
              result.data() + (n * g.channels + grp * cg + c) * g.inSize;
          const A *row = columns.data() + (c * g.kernelSize + k) * g.outSize;
          for (int64_t o = 0; o < g.outSize; ++o)
            if (at[o] >= 0)
              plane[at[o]] += row[o];
        }
      }
    }
  storeWithBias<D>(result, bias, g.channels, g.inSize, y);
  return Status::ok();
}

template <DType D, typename A>
Status convolutionWeightGrad(const ConvGeometry &g, const Tensor &x,
                             const Tensor &dy, Tensor &dw) {
  const int64_t cg = g.channels / g.groups, mg = g.features / g.groups;
  const int64_t rows = cg * g.kernelSize;
  std::vector<A> xCopy, dyCopy;
  const A *xs = valuesAs<D>(x, xCopy), *dys = valuesAs<D>(dy, dyCopy);
  std::vector<A> columns(size_t(rows * g.outSize)),
      result(size_t(dw.numElements()), A(0));
  const std::vector<int64_t> taps = windowTable(g);
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      im2col(g, taps, xs, n, grp, columns.data());
      gemm2d<A>(false, true, mg, rows, g.outSize, 1.0,
                dys + (n * g.features + grp * mg) * g.outSize, g.outSize,
                columns.data(), g.outSize, 1.0, result.data() + grp * mg * rows,
                rows);
    }
  storeWithBias<D>(result, nullptr, 1, 1, dw);
  return Status::ok();
}

template <typename T> struct AccumulatorTag { using type = T; };

/// Runs `body(dtypeTag, accumulatorTag)` with the accumulator double for
/// f64 and float otherwise.
template <typename Body> Status visitAccumulator(DType dtype, Body &&body) {
  return visitDTypeIn<TypeSet::Float>(dtype, [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    if constexpr (D == DType::F64)
      return body(tag, AccumulatorTag<double>());
    else
      return body(tag, AccumulatorTag<float>());
  });
}

} // namespace

Status runConvKernel(const KernelArgs &args) {
  ConvGeometry g;
  PARACC_RETURN_IF_ERROR(checkConv(args, checkCpuDType, g));
  const Tensor &x = *args.in[0], &w = *args.in[1];
  const Tensor *bias = args.in.size() > 2 ? args.in[2] : nullptr;
  Tensor &y = *args.out[0];
  if (y.numElements() == 0)
    return Status::ok();
  return visitAccumulator(x.dtype(), [&](auto d, auto a) {
    return convolve<decltype(d)::value, typename decltype(a)::type>(g, x, w,
                                                                    bias, y);
  });
}

Status runConvTransposeKernel(const KernelArgs &args) {
  ConvGeometry g;
  PARACC_RETURN_IF_ERROR(checkConvTranspose(args, checkCpuDType, g));
  const Tensor &x = *args.in[0], &w = *args.in[1];
  const Tensor *bias = args.in.size() > 2 ? args.in[2] : nullptr;
  Tensor &y = *args.out[0];
  if (y.numElements() == 0)
    return Status::ok();
  return visitAccumulator(x.dtype(), [&](auto d, auto a) {
    return convolveTransposed<decltype(d)::value, typename decltype(a)::type>(
        g, x, w, bias, y);
  });
}

Status runConvWeightGradKernel(const KernelArgs &args) {
  ConvGeometry g;
  PARACC_RETURN_IF_ERROR(checkConvWeightGrad(args, checkCpuDType, g));
  const Tensor &x = *args.in[0], &dy = *args.in[1];
  Tensor &dw = *args.out[0];
  if (dw.numElements() == 0)
    return Status::ok();
  return visitAccumulator(x.dtype(), [&](auto d, auto a) {
    return convolutionWeightGrad<decltype(d)::value,
                                 typename decltype(a)::type>(g, x, dy, dw);
  });
}

Status runPoolKernel(const KernelArgs &args) {
  ConvGeometry g;
  bool average = false, countPadding = false;
  PARACC_RETURN_IF_ERROR(
      checkPool(args, checkCpuDType, g, average, countPadding));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  if (y.numElements() == 0)
    return Status::ok();
  return visitDTypeIn<TypeSet::Float>(x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    const S *xp = static_cast<const S *>(x.data());
    S *yp = static_cast<S *>(y.data());
    const std::vector<int64_t> taps = windowTable(g);
    for (int64_t plane = 0; plane < g.batch * g.channels; ++plane) {
      const S *in = xp + plane * g.inSize;
      S *out = yp + plane * g.outSize;
      for (int64_t o = 0; o < g.outSize; ++o) {
        double acc = average ? 0.0 : -std::numeric_limits<double>::infinity();
        int64_t count = 0;
        for (int64_t k = 0; k < g.kernelSize; ++k) {
          const int64_t at = taps[size_t(k * g.outSize + o)];
          if (at < 0)
            continue;
          const double v = double(load<D>(in + at));
          acc = average ? acc + v : std::max(acc, v);
          ++count;
        }
        if (average)
          acc /=
              double(countPadding ? g.kernelSize : std::max<int64_t>(count, 1));
        store<D>(out + o, ComputeT<D>(acc));
      }
    }
    return Status::ok();
  });
}

Status runPoolGradKernel(const KernelArgs &args) {
  ConvGeometry g;
  bool average = false, countPadding = false;
  PARACC_RETURN_IF_ERROR(
      checkPoolGrad(args, checkCpuDType, g, average, countPadding));
  const Tensor &x = *args.in[0], &dy = *args.in[1];
  Tensor &dx = *args.out[0];
  if (dx.numElements() == 0)
    return Status::ok();
  return visitDTypeIn<TypeSet::Float>(x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    const S *xp = static_cast<const S *>(x.data());
    const S *dyp = static_cast<const S *>(dy.data());
    std::vector<double> acc(size_t(dx.numElements()), 0.0);
    const std::vector<int64_t> taps = windowTable(g);
    auto tap = [&](int64_t o, int64_t k) {
      return taps[size_t(k * g.outSize + o)];
    };
    for (int64_t plane = 0; plane < g.batch * g.channels; ++plane) {
      const S *in = xp + plane * g.inSize;
      double *out = acc.data() + plane * g.inSize;
      for (int64_t o = 0; o < g.outSize; ++o) {
        const double grad = double(load<D>(dyp + plane * g.outSize + o));
        if (average) {
          int64_t count = 0;
          for (int64_t k = 0; k < g.kernelSize; ++k)
            count += tap(o, k) >= 0;
          const double share =
              grad /
              double(countPadding ? g.kernelSize : std::max<int64_t>(count, 1));
          for (int64_t k = 0; k < g.kernelSize; ++k)
            if (const int64_t at = tap(o, k); at >= 0)
              out[at] += share;
          continue;
        }
        // The forward's maximum: the first of the window's largest.
        int64_t best = -1;
        double bestValue = -std::numeric_limits<double>::infinity();
        for (int64_t k = 0; k < g.kernelSize; ++k)
          if (const int64_t at = tap(o, k); at >= 0) {
            const double v = double(load<D>(in + at));
            if (best < 0 || v > bestValue) {
              best = at;
              bestValue = v;
            }
          }
        if (best >= 0)
          out[best] += grad;
      }
    }
    S *dxp = static_cast<S *>(dx.data());
    for (size_t i = 0; i < acc.size(); ++i)
      store<D>(dxp + i, ComputeT<D>(acc[i]));
    return Status::ok();
  });
}

} // namespace paracc::rt

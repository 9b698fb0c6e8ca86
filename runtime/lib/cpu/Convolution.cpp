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

/// The input position of output position `o` (flat over the output's
/// spatial dims) and kernel offset `k` (flat over the kernel's), per dim;
/// false when it falls in the padding.
bool inputPosition(const ConvGeometry &g, int64_t o, int64_t k, int64_t &flat) {
  flat = 0;
  for (int64_t d = 0; d < g.rank; ++d) {
    const int64_t od = (o / g.outStride[d]) % g.out[d];
    const int64_t kd = (k / g.kernelStride[d]) % g.kernel[d];
    const int64_t i = od * g.strides[d] - g.padsBegin[d] + kd * g.dilations[d];
    if (i < 0 || i >= g.in[d])
      return false;
    flat += i * g.inStride[d];
  }
  return true;
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
/// element k at every output position (0 in the padding).
template <typename A>
void im2col(const ConvGeometry &g, const A *x, int64_t n, int64_t grp,
            A *columns) {
  const int64_t cg = g.channels / g.groups;
  for (int64_t c = 0; c < cg; ++c) {
    const A *plane = x + ((n * g.channels) + grp * cg + c) * g.inSize;
    for (int64_t k = 0; k < g.kernelSize; ++k) {
      A *row = columns + (c * g.kernelSize + k) * g.outSize;
      for (int64_t o = 0; o < g.outSize; ++o) {
        int64_t at;
        row[o] = inputPosition(g, o, k, at) ? plane[at] : A(0);
      }
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
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      im2col(g, xs, n, grp, columns.data());
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
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      gemm2d<A>(true, false, rows, g.outSize, mg, 1.0,
                weights + grp * mg * rows, rows,
                xs + (n * g.features + grp * mg) * g.outSize, g.outSize, 0.0,
                columns.data(), g.outSize);
      for (int64_t c = 0; c < cg; ++c) {
        A *plane = result.data() + (n * g.channels + grp * cg + c) * g.inSize;
        for (int64_t k = 0; k < g.kernelSize; ++k) {
          const A *row = columns.data() + (c * g.kernelSize + k) * g.outSize;
          for (int64_t o = 0; o < g.outSize; ++o) {
            int64_t at;
            if (inputPosition(g, o, k, at))
              plane[at] += row[o];
          }
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
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      im2col(g, xs, n, grp, columns.data());
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
    for (int64_t plane = 0; plane < g.batch * g.channels; ++plane) {
      const S *in = xp + plane * g.inSize;
      S *out = yp + plane * g.outSize;
      for (int64_t o = 0; o < g.outSize; ++o) {
        double acc = average ? 0.0 : -std::numeric_limits<double>::infinity();
        int64_t count = 0;
        for (int64_t k = 0; k < g.kernelSize; ++k) {
          int64_t at;
          if (!inputPosition(g, o, k, at))
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
    for (int64_t plane = 0; plane < g.batch * g.channels; ++plane) {
      const S *in = xp + plane * g.inSize;
      double *out = acc.data() + plane * g.inSize;
      for (int64_t o = 0; o < g.outSize; ++o) {
        const double grad = double(load<D>(dyp + plane * g.outSize + o));
        if (average) {
          int64_t count = 0;
          for (int64_t k = 0, at; k < g.kernelSize; ++k)
            count += inputPosition(g, o, k, at);
          const double share =
              grad /
              double(countPadding ? g.kernelSize : std::max<int64_t>(count, 1));
          for (int64_t k = 0, at; k < g.kernelSize; ++k)
            if (inputPosition(g, o, k, at))
              out[at] += share;
          continue;
        }
        // The forward's maximum: the first of the window's largest.
        int64_t best = -1;
        double bestValue = -std::numeric_limits<double>::infinity();
        for (int64_t k = 0, at; k < g.kernelSize; ++k)
          if (inputPosition(g, o, k, at)) {
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

//===- Convolution.cpp - Conv and pooling over 1 to 3 spatial dims --------===//
//
// Conv as im2col and one BLAS product per (image, group): the columns of
// image n, group g are the input windows, [C/G * K, O] with K the kernel's
// and O the output's spatial size, and y[n, g] = w[g] [M/G, C/G * K] x
// columns (half types widened to f32, f64 kept). Pooling walks each window.
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

template <DType D, typename A>
Status convolve(const ConvGeometry &g, const Tensor &x, const Tensor &w,
                const Tensor *bias, Tensor &y) {
  using S = StorageT<D>;
  const int64_t cg = g.channels / g.groups, mg = g.features / g.groups;
  const int64_t rows = cg * g.kernelSize;
  std::vector<A> weights(size_t(w.numElements()));
  const S *wp = static_cast<const S *>(w.data());
  for (size_t i = 0; i < weights.size(); ++i)
    weights[i] = A(load<D>(wp + i));
  std::vector<A> columns(size_t(rows * g.outSize)),
      product(size_t(mg * g.outSize));
  const S *xp = static_cast<const S *>(x.data());
  S *yp = static_cast<S *>(y.data());
  const S *bp = bias ? static_cast<const S *>(bias->data()) : nullptr;
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      // Row (c, k) of the columns: channel c's window element k at every
      // output position.
      for (int64_t c = 0; c < cg; ++c) {
        const S *plane = xp + ((n * g.channels) + grp * cg + c) * g.inSize;
        for (int64_t k = 0; k < g.kernelSize; ++k) {
          A *row = columns.data() + (c * g.kernelSize + k) * g.outSize;
          for (int64_t o = 0; o < g.outSize; ++o) {
            int64_t at;
            row[o] = inputPosition(g, o, k, at) ? A(load<D>(plane + at)) : A(0);
          }
        }
      }
      gemm2d<A>(false, false, mg, g.outSize, rows, 1.0,
                weights.data() + grp * mg * rows, rows, columns.data(),
                g.outSize, 0.0, product.data(), g.outSize);
      for (int64_t m = 0; m < mg; ++m) {
        const int64_t feature = grp * mg + m;
        const A add = bp ? A(load<D>(bp + feature)) : A(0);
        S *out = yp + (n * g.features + feature) * g.outSize;
        for (int64_t o = 0; o < g.outSize; ++o)
          store<D>(out + o, ComputeT<D>(product[m * g.outSize + o] + add));
      }
    }
  return Status::ok();
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
  return visitDTypeIn<TypeSet::Float>(x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    if constexpr (D == DType::F64)
      return convolve<D, double>(g, x, w, bias, y);
    else
      return convolve<D, float>(g, x, w, bias, y);
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

} // namespace paracc::rt

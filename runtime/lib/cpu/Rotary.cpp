//===- Rotary.cpp - Rotary position embedding ------------------*- C++ -*-===//
//
// The Rotary instruction (OpCodes.def) on the CPU: row by row over the last
// dim of x, the tables read through their broadcast strides.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ElementwiseChecks.h"
#include "cpu/CpuKernels.h"

namespace paracc::rt {

Status runRotaryKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(checkRotary(args, checkCpuDType));
  const Tensor &x = *args.in[0], &cos = *args.in[1], &sin = *args.in[2];
  Tensor &y = *args.out[0];
  const bool transposed = args.attrsAs<RotaryAttrs>().transposed;
  const Shape &shape = x.shape();
  const int64_t d = shape.back(), h = d / 2, rows = x.numElements() / std::max<int64_t>(d, 1);
  const std::vector<int64_t> cs = broadcastStrides(cos.shape(), shape),
                             ss = broadcastStrides(sin.shape(), shape);
  return visitDTypeIn<TypeSet::Float>(x.dtype(), [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    const S *xd = x.as<S>(), *cd = cos.as<S>(), *sd = sin.as<S>();
    S *yd = y.as<S>();
    std::vector<double> row(static_cast<size_t>(d));
    for (int64_t r = 0; r < rows; ++r) {
      // The tables' row offsets from the row's multi-index.
      int64_t co = 0, so = 0, rest = r;
      for (int64_t k = int64_t(shape.size()) - 2; k >= 0; --k) {
        const int64_t i = rest % shape[k];
        rest /= shape[k];
        co += i * cs[k];
        so += i * ss[k];
      }
      const int64_t cc = cs.back(), sc = ss.back();
      // The row is read whole before it is written: y may be x's buffer.
      for (int64_t j = 0; j < d; ++j)
        row[j] = double(load<D>(xd + r * d + j));
      for (int64_t j = 0; j < d; ++j) {
        const double c = double(load<D>(cd + co + j * cc));
        double v;
        if (!transposed) {
          const double s = double(load<D>(sd + so + j * sc));
          v = row[j] * c + (j < h ? -row[j + h] : row[j - h]) * s;
        } else {
          const int64_t m = j < h ? j + h : j - h;
          const double s = double(load<D>(sd + so + m * sc));
          v = row[j] * c + (j < h ? row[m] * s : -row[m] * s);
        }
        store<D>(yd + r * d + j, ComputeT<D>(v));
      }
    }
    return Status::ok();
  });
}

} // namespace paracc::rt

//===- Attention.cpp - Scaled dot-product attention ------------*- C++ -*-===//
//
// The reference attention kernel: one query row at a time, scores in double,
// an online max for the softmax; never more than one row of scores.
//
//===----------------------------------------------------------------------===//

#include "cpu/KernelUtil.h"

#include <cmath>
#include <limits>

namespace paracc::rt {

Status runAttentionKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(3, 4, 1));
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(1, 1));
  PARACC_RETURN_IF_ERROR(args.checkIntAttr(0, 0, 1, "causal"));
  const Tensor &q = *args.in[0], &k = *args.in[1], &v = *args.in[2];
  const Tensor *mask = args.in.size() > 3 ? args.in[3] : nullptr;
  Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkDType(q, TypeSet::Float, "q"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(k, q.dtype(), "k"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(v, q.dtype(), "v"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, q.dtype(), "result"));
  const int64_t r = q.rank();
  if (r < 2 || k.rank() != r || v.rank() != r)
    return args.fail("q, k and v must have one rank >= 2");
  for (int64_t d = 0; d < r - 2; ++d)
    if (k.dim(d) != q.dim(d) || v.dim(d) != q.dim(d))
      return args.fail("leading dims differ: ", q.typeString(), ", ",
                       k.typeString(), ", ", v.typeString());
  const int64_t sq = q.dim(r - 2), dk = q.dim(r - 1), sk = k.dim(r - 2),
                dv = v.dim(r - 1);
  if (k.dim(r - 1) != dk || v.dim(r - 2) != sk)
    return args.fail("q/k head dims or k/v key counts differ");
  Shape outShape = q.shape();
  outShape.back() = dv;
  PARACC_RETURN_IF_ERROR(args.checkShape(y, outShape, "result"));
  Shape scoreShape = q.shape();
  scoreShape.back() = sk;
  if (mask) {
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*mask, q.dtype(), "mask"));
    if (!broadcastsTo(mask->shape(), scoreShape))
      return args.fail("mask ", mask->typeString(), " does not broadcast to ",
                       shapeToString(scoreShape));
  }
  const bool causal = args.attrs.ints[0] != 0;
  const double scale = args.attrs.floats[0];
  const int64_t batch = sq ? q.numElements() / (sq * dk) : 0;
  if (y.numElements() == 0)
    return Status::ok();

  return visitDTypeIn<TypeSet::Float>(q.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    const S *qd = q.as<S>(), *kd = k.as<S>(), *vd = v.as<S>();
    S *yd = y.as<S>();
    std::vector<double> maskValues;
    if (mask)
      maskValues = expandToDoubles<D>(*mask, scoreShape);
    std::vector<double> scores(static_cast<size_t>(sk)), acc(dv);
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t i = 0; i < sq; ++i) {
        const S *qi = qd + (b * sq + i) * dk;
        int64_t visible = causal ? std::min(sk, i + sk - sq + 1) : sk;
        double maxv = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < sk; ++j) {
          double s = -std::numeric_limits<double>::infinity();
          if (j < visible) {
            const S *kj = kd + (b * sk + j) * dk;
            double dot = 0;
            for (int64_t t = 0; t < dk; ++t)
              dot += double(load<D>(qi + t)) * double(load<D>(kj + t));
            s = dot * scale;
            if (mask)
              s += maskValues[(b * sq + i) * sk + j];
          }
          scores[j] = s;
          maxv = std::max(maxv, s);
        }
        std::fill(acc.begin(), acc.end(), 0.0);
        S *yi = yd + (b * sq + i) * dv;
        // A row with no visible key (all -inf) yields zeros.
        if (std::isinf(maxv) && maxv < 0) {
          for (int64_t t = 0; t < dv; ++t)
            store<D>(yi + t, 0);
          continue;
        }
        double sum = 0;
        for (int64_t j = 0; j < sk; ++j) {
          double p = std::exp(scores[j] - maxv);
          if (p == 0)
            continue;
          sum += p;
          const S *vj = vd + (b * sk + j) * dv;
          for (int64_t t = 0; t < dv; ++t)
            acc[t] += p * double(load<D>(vj + t));
        }
        for (int64_t t = 0; t < dv; ++t)
          store<D>(yi + t, ComputeT<D>(acc[t] / sum));
      }
    }
    return Status::ok();
  });
}

} // namespace paracc::rt

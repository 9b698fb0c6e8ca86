//===- Attention.cpp - Scaled dot-product attention ------------*- C++ -*-===//
//
// The reference attention kernel: one query row at a time, scores in double,
// an online max for the softmax; never more than one row of scores. Operands
// in either layout of AttentionGeometry.h.
//
//===----------------------------------------------------------------------===//

#include "cpu/AttentionGeometry.h"

#include <cmath>
#include <limits>

namespace paracc::rt {

Status runAttentionKernel(const KernelArgs &args) {
  AttentionGeometry g;
  PARACC_RETURN_IF_ERROR(checkAttention(args, g));
  const Tensor &q = *args.in[0], &k = *args.in[1], &v = *args.in[2];
  const Tensor *mask = args.in.size() > 3 ? args.in[3] : nullptr;
  Tensor &y = *args.out[0];
  const bool causal = g.causal;
  const double scale = g.scale;
  const int64_t batch = g.batch, sq = g.sq, sk = g.sk, dk = g.d, dv = g.dv;
  const Shape &scoreShape = g.scoreShape;
  const int64_t qRow = g.rowStride(dk), kRow = g.rowStride(dk),
                vRow = g.rowStride(dv), yRow = g.rowStride(dv);
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
        const S *qi = qd + g.base(b, sq, dk) + i * qRow;
        int64_t visible = causal ? std::min(sk, i + sk - sq + 1) : sk;
        double maxv = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < sk; ++j) {
          double s = -std::numeric_limits<double>::infinity();
          if (j < visible) {
            const S *kj = kd + g.base(b, sk, dk) + j * kRow;
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
        S *yi = yd + g.base(b, sq, dv) + i * yRow;
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
          const S *vj = vd + g.base(b, sk, dv) + j * vRow;
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

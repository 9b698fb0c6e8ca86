//===- Gradients.cpp - Backward kernels of the training instructions ------===//
//
// LayerNormGrad, RmsNormGrad, GeluGrad, AttentionGrad, CrossEntropyGrad and
// GatherGrad. Each recomputes what it needs from the forward operands
// (statistics, softmax probabilities): nothing is saved by the forward
// instruction. Sums accumulate in double and every result element is
// written, so results need not be zeroed by the caller.
//
//===----------------------------------------------------------------------===//

#include "Kernels/AttentionGeometry.h"
#include "Kernels/TrainingChecks.h"
#include "cpu/CpuKernels.h"
#include "cpu/VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

namespace paracc::rt {

namespace {

/// Zero-fills a tensor (zero bytes are +0 in every element type).
void zeroFill(Tensor &t) {
  if (t.byteSize())
    std::memset(t.data(), 0, t.byteSize());
}

/// The i-th element of a floating tensor as a double.
template <DType D> inline double loadD(const StorageT<D> *p, int64_t i) {
  return static_cast<double>(load<D>(p + i));
}

/// Stores a double into the i-th element of a floating tensor.
template <DType D> inline void storeD(StorageT<D> *p, int64_t i, double v) {
  store<D>(p + i, static_cast<ComputeT<D>>(v));
}

/// Element `i` of an i32/i64 tensor (labels, indices).
inline int64_t readIndex(const Tensor &t, int64_t i) {
  if (t.dtype() == DType::I32)
    return t.as<int32_t>()[i];
  return t.as<int64_t>()[i];
}

//===----------------------------------------------------------------------===//
// LayerNormGrad, RmsNormGrad.
//===----------------------------------------------------------------------===//

template <DType D> void normGradTyped(const KernelArgs &args, int64_t d) {
  using S = StorageT<D>;
  const bool isLayerNorm = args.op == OpCode::LayerNormGrad;
  const S *dy = args.in[0]->as<S>(), *x = args.in[1]->as<S>(),
          *scale = args.in[2]->as<S>();
  S *dx = args.out[0]->as<S>(), *dscale = args.out[1]->as<S>();
  S *dbias = isLayerNorm ? args.out[2]->as<S>() : nullptr;
  const S *acc = args.in.size() > 3 ? args.in[3]->as<S>() : nullptr;
  const double eps = args.attrsAs<LayerNormAttrs>().epsilon;
  const int64_t rows = d ? args.in[1]->numElements() / d : 0;
  const double n = static_cast<double>(d);

  std::vector<double> s(d), ds(d, 0.0), db(d, 0.0), xhat(d), g(d);
  for (int64_t i = 0; i < d; ++i)
    s[i] = loadD<D>(scale, i);
  for (int64_t r = 0; r < rows; ++r) {
    const S *xr = x + r * d, *dyr = dy + r * d;
    double mean = 0.0;
    if (isLayerNorm) {
      for (int64_t i = 0; i < d; ++i)
        mean += loadD<D>(xr, i);
      mean /= n;
    }
    double sq = 0.0;
    for (int64_t i = 0; i < d; ++i) {
      const double c = loadD<D>(xr, i) - mean;
      sq += c * c;
    }
    const double rstd = 1.0 / std::sqrt(sq / n + eps);
    double meanG = 0.0, meanGX = 0.0;
    for (int64_t i = 0; i < d; ++i) {
      const double xh = (loadD<D>(xr, i) - mean) * rstd;
      const double dyi = loadD<D>(dyr, i);
      xhat[i] = xh;
      g[i] = dyi * s[i];
      meanG += g[i];
      meanGX += g[i] * xh;
      ds[i] += dyi * xh;
      db[i] += dyi;
    }
    meanG = isLayerNorm ? meanG / n : 0.0;
    meanGX /= n;
    S *dxr = dx + r * d;
    for (int64_t i = 0; i < d; ++i)
      storeD<D>(dxr, i,
                rstd * (g[i] - meanG - xhat[i] * meanGX) +
                    (acc ? loadD<D>(acc + r * d, i) : 0.0));
  }
  for (int64_t i = 0; i < d; ++i) {
    storeD<D>(dscale, i, ds[i]);
    if (dbias)
      storeD<D>(dbias, i, db[i]);
  }
}

//===----------------------------------------------------------------------===//
// GeluGrad.
//===----------------------------------------------------------------------===//

/// d/dx of GELU at x, exact (erf) or of the tanh approximation.
inline double geluDerivative(double x, bool tanhForm) {
  if (tanhForm) {
    constexpr double kSqrt2OverPi = 0.7978845608028654;
    constexpr double kCoeff = 0.044715;
    const double t = std::tanh(kSqrt2OverPi * (x + kCoeff * x * x * x));
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * kSqrt2OverPi *
                                 (1.0 + 3.0 * kCoeff * x * x);
  }
  constexpr double kInvSqrt2 = 0.7071067811865476;
  constexpr double kInvSqrt2Pi = 0.3989422804014327;
  return 0.5 * (1.0 + std::erf(x * kInvSqrt2)) +
         x * kInvSqrt2Pi * std::exp(-0.5 * x * x);
}

//===----------------------------------------------------------------------===//
// AttentionGrad.
//===----------------------------------------------------------------------===//

/// in(dy, q, k, v[, mask]) out(dq, dk, dv) with the attributes of
/// Attention: the forward's checks of (q, k, v[, mask]) with dy in the
/// place of its result, then the gradients shaped like q, k and v.
Status checkAttentionGrad(const KernelArgs &args, AttentionGeometry &g) {
  PARACC_RETURN_IF_ERROR(checkAttentionGradOperands(args, g));
  PARACC_RETURN_IF_ERROR(readQueryStart(args, g));
  if (args.out.size() != 3)
    return args.fail("expected 3 results, got ", args.out.size());
  const Tensor &q = *args.in[1];
  static const char *const kNames[] = {"dq", "dk", "dv"};
  for (size_t o = 0; o < 3; ++o) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.out[o], q.dtype(), kNames[o]));
    PARACC_RETURN_IF_ERROR(
        args.checkShape(*args.out[o], args.in[1 + o]->shape(), kNames[o]));
  }
  return Status::ok();
}

/// One query row at a time, as the forward kernel: the row's probabilities
/// are recomputed in double, dq's row is written at once and dk, dv
/// accumulate in double per attention. The saved result and statistics of
/// the attention's own forward are not needed (its probabilities are
/// recomputed in double, so the gradients are the same with or without
/// them, bit for bit); with keyBlock they are those of a larger attention
/// whose keys these are a block of (ring attention): P = exp(scores -
/// stats), the softmax's correction term is rowsum(dy * out), and the
/// results are this block's share of its gradients.
template <DType D>
void attentionGradTyped(const KernelArgs &args, const AttentionGeometry &g) {
  using S = StorageT<D>;
  const S *dyd = args.in[0]->as<S>(), *qd = args.in[1]->as<S>(),
          *kd = args.in[2]->as<S>(), *vd = args.in[3]->as<S>();
  const Tensor *mask = g.hasMask ? args.in[4] : nullptr;
  const size_t nIn = args.in.size();
  const bool keyBlock = args.attrsAs<AttentionAttrs>().keyBlock;
  const S *savedOut = keyBlock ? args.in[nIn - 2]->as<S>() : nullptr;
  const float *savedStats = keyBlock ? args.in[nIn - 1]->as<float>() : nullptr;
  S *dqd = args.out[0]->as<S>(), *dkd = args.out[1]->as<S>(),
    *dvd = args.out[2]->as<S>();
  const int64_t sq = g.sq, sk = g.sk, dk = g.d, dv = g.dv;
  const int64_t qRow = g.rowStride(dk), dyRow = g.rowStride(dv);
  const int64_t kRow = g.kvRowStride(dk), vRow = g.kvRowStride(dv);
  const double scale = g.scale;
  const AttentionMaskStrides maskStrides =
      mask ? attentionMaskStrides(mask->shape(), g.scoreShape)
           : AttentionMaskStrides();
  std::vector<double> p(sk), dp(sk), qi(dk), dyi(dv), dqAcc(dk);
  std::vector<double> dkAcc(static_cast<size_t>(sk * dk)),
      dvAcc(static_cast<size_t>(sk * dv));
  // Grouped-query attention: the kvGroup consecutive attentions b that read
  // one key head add into its dk and dv before they are written.
  for (int64_t b = 0; b < g.batch; ++b) {
    const S *qb = qd + g.base(b, sq, dk), *kb = kd + g.kvBase(b, sk, dk),
            *vb = vd + g.kvBase(b, sk, dv), *dyb = dyd + g.base(b, sq, dv);
    if (b % g.kvGroup == 0) {
      std::fill(dkAcc.begin(), dkAcc.end(), 0.0);
      std::fill(dvAcc.begin(), dvAcc.end(), 0.0);
    }
    const S *maskB = mask ? mask->as<S>() + maskStrides.offset(b) : nullptr;
    for (int64_t i = 0; i < sq; ++i) {
      for (int64_t t = 0; t < dk; ++t)
        qi[t] = loadD<D>(qb, i * qRow + t);
      for (int64_t t = 0; t < dv; ++t)
        dyi[t] = loadD<D>(dyb, i * dyRow + t);
      const auto [first, last] = g.visibleKeys(i);
      double maxv = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < sk; ++j) {
        double s = -std::numeric_limits<double>::infinity();
        if (j >= first && j < last) {
          double dot = 0.0;
          for (int64_t t = 0; t < dk; ++t)
            dot += qi[t] * loadD<D>(kb, j * kRow + t);
          s = dot * scale;
          if (maskB)
            s += double(load<D>(maskB + i * maskStrides.row +
                                j * maskStrides.col));
        }
        p[j] = s;
        maxv = std::max(maxv, s);
      }
      std::fill(dqAcc.begin(), dqAcc.end(), 0.0);
      // A row with no visible key gives zeros forward, so no gradient (nor
      // does one that the larger attention of keyBlock did not see).
      const double lse = savedStats ? double(savedStats[b * sq + i]) : 0.0;
      if (!(std::isinf(maxv) && maxv < 0) && !(std::isinf(lse) && lse < 0)) {
        // P: this attention's softmax, or exp(scores - stats).
        double sum = 0.0;
        for (int64_t j = 0; j < sk; ++j) {
          p[j] = std::exp(p[j] - (savedStats ? lse : maxv));
          sum += p[j];
        }
        // dP = dy v^T over the keys with a non-zero probability (the others
        // get dS = 0), and rowsum(dP * P) (rowsum(dy * out) with keyBlock).
        double rowSum = 0.0;
        if (savedOut)
          for (int64_t t = 0; t < dv; ++t)
            rowSum +=
                dyi[t] * loadD<D>(savedOut + g.base(b, sq, dv), i * dyRow + t);
        for (int64_t j = 0; j < sk; ++j) {
          if (!savedStats)
            p[j] /= sum;
          dp[j] = 0.0;
          if (p[j] == 0)
            continue;
          for (int64_t t = 0; t < dv; ++t)
            dp[j] += dyi[t] * loadD<D>(vb, j * vRow + t);
          if (!savedOut)
            rowSum += p[j] * dp[j];
        }
        for (int64_t j = 0; j < sk; ++j) {
          if (p[j] == 0)
            continue;
          double *dvj = dvAcc.data() + j * dv;
          for (int64_t t = 0; t < dv; ++t)
            dvj[t] += p[j] * dyi[t];
          const double ds = scale * p[j] * (dp[j] - rowSum);
          double *dkj = dkAcc.data() + j * dk;
          for (int64_t t = 0; t < dk; ++t) {
            dqAcc[t] += ds * loadD<D>(kb, j * kRow + t);
            dkj[t] += ds * qi[t];
          }
        }
      }
      S *dqi = dqd + g.base(b, sq, dk) + i * qRow;
      for (int64_t t = 0; t < dk; ++t)
        storeD<D>(dqi, t, dqAcc[t]);
    }
    if (b % g.kvGroup != g.kvGroup - 1)
      continue;
    S *dkb = dkd + g.kvBase(b, sk, dk), *dvb = dvd + g.kvBase(b, sk, dv);
    for (int64_t j = 0; j < sk; ++j) {
      for (int64_t t = 0; t < dk; ++t)
        storeD<D>(dkb, j * kRow + t, dkAcc[j * dk + t]);
      for (int64_t t = 0; t < dv; ++t)
        storeD<D>(dvb, j * vRow + t, dvAcc[j * dv + t]);
    }
  }
}

//===----------------------------------------------------------------------===//
// CrossEntropyGrad.
//===----------------------------------------------------------------------===//

/// Scores [N, C, d...] seen as [N, C, D], labels and dloss as [N, D].
template <DType D>
void crossEntropyGradTyped(const KernelArgs &args, const LossShape &shape) {
  using S = StorageT<D>;
  const int64_t n = shape.n, c = shape.c, d = shape.d;
  const S *dloss = args.in[0]->as<S>(), *x = args.in[1]->as<S>();
  const Tensor &labels = *args.in[2];
  const S *w = shape.weight ? shape.weight->as<S>() : nullptr;
  // The forward's (max, sum of exp(x - max)) per position, or null.
  const float *stats = shape.stats ? shape.stats->as<float>() : nullptr;
  S *dx = args.out[0]->as<S>();
  // An f32 dloss with bf16/f16 scores: the gradient of an f32 loss.
  const bool dlossF32 = D != DType::F32 && args.in[0]->dtype() == DType::F32;
  const float *dlossF = dlossF32 ? args.in[0]->as<float>() : nullptr;
  const CrossEntropyGradAttrs &attrs = args.attrsAs<CrossEntropyGradAttrs>();
  const bool logits = !attrs.logProbScores;
  const bool hasIgnore = attrs.hasIgnoreIndex;
  const int64_t ignoreIndex = attrs.ignoreIndex;
  std::vector<double> e(static_cast<size_t>(c));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < d; ++j) {
      const int64_t pos = i * d + j;
      const int64_t label = readIndex(labels, pos);
      const S *col = x + i * c * d + j; // Class k at col[k * d].
      S *dcol = dx + i * c * d + j;
      if (hasIgnore && label == ignoreIndex) {
        for (int64_t k = 0; k < c; ++k)
          storeD<D>(dcol, k * d, 0.0);
        continue;
      }
      double g = dlossF32 ? double(dlossF[pos]) : loadD<D>(dloss, pos);
      if (w)
        g *= loadD<D>(w, label);
      if (!logits) {
        for (int64_t k = 0; k < c; ++k)
          storeD<D>(dcol, k * d, k == label ? -g : 0.0);
        continue;
      }
      // softmax over the classes of this column; NaN propagates.
      double maxv = -INFINITY, sum = 0.0;
      bool nan = false;
      if (stats) {
        maxv = stats[2 * pos];
        sum = stats[2 * pos + 1];
        nan = std::isnan(maxv);
        for (int64_t k = 0; k < c; ++k)
          e[k] = std::exp(loadD<D>(col, k * d) - maxv);
      } else {
        for (int64_t k = 0; k < c; ++k) {
          const double v = loadD<D>(col, k * d);
          nan |= std::isnan(v);
          maxv = v > maxv ? v : maxv;
        }
        for (int64_t k = 0; k < c; ++k) {
          e[k] = std::exp(loadD<D>(col, k * d) - maxv);
          sum += e[k];
        }
      }
      for (int64_t k = 0; k < c; ++k) {
        const double prob = nan ? NAN : e[k] / sum;
        storeD<D>(dcol, k * d, g * (prob - (k == label ? 1.0 : 0.0)));
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// GatherGrad.
//===----------------------------------------------------------------------===//

/// ddata viewed as [outer, axis, inner] and dy as [outer, nIdx, inner]: per
/// outer block, the dy rows of each distinct index are summed in double (in
/// the order of the indices, after the row's accumulate value, which ddata
/// holds already) and stored once.
template <DType D>
void gatherGradTyped(const KernelArgs &args, const std::vector<int64_t> &idx,
                     int64_t outer, int64_t axisDim, int64_t inner) {
  using S = StorageT<D>;
  const S *dy = args.in[0]->as<S>();
  S *dd = args.out[0]->as<S>();
  const int64_t nIdx = static_cast<int64_t>(idx.size());
  std::vector<int64_t> order(idx.size());
  std::iota(order.begin(), order.end(), int64_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return idx[a] < idx[b]; });
  std::vector<double> acc(static_cast<size_t>(inner));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t a = 0; a < nIdx;) {
      const int64_t target = idx[order[a]];
      S *out = dd + (o * axisDim + target) * inner;
      for (int64_t t = 0; t < inner; ++t)
        acc[t] = loadD<D>(out, t);
      for (; a < nIdx && idx[order[a]] == target; ++a) {
        const S *row = dy + (o * nIdx + order[a]) * inner;
        for (int64_t t = 0; t < inner; ++t)
          acc[t] += loadD<D>(row, t);
      }
      for (int64_t t = 0; t < inner; ++t)
        storeD<D>(out, t, acc[t]);
    }
  }
}

} // namespace

Status runNormGradKernel(const KernelArgs &args) {
  int64_t d;
  PARACC_RETURN_IF_ERROR(checkNormGrad(args, checkCpuDType, d));
  const DType dt = args.in[1]->dtype();
  return visitDTypeIn<TypeSet::Float>(dt, [&](auto tag) -> Status {
    normGradTyped<decltype(tag)::value>(args, d);
    return Status::ok();
  });
}

Status runGeluGradKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 2, 1));
  const Tensor &dy = *args.in[0], &x = *args.in[1];
  Tensor &dx = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkDType(x, TypeSet::Float, "x"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(dy, x.dtype(), "dy"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(dx, x.dtype(), "dx"));
  PARACC_RETURN_IF_ERROR(args.checkShape(dy, x.shape(), "dy"));
  PARACC_RETURN_IF_ERROR(args.checkShape(dx, x.shape(), "dx"));
  const bool tanhForm = args.attrsAs<GeluAttrs>().tanhApproximation;
  // Elementwise: each result element is written after both operand
  // elements at its position are read, so dx may be dy's or x's buffer.
  return visitDTypeIn<TypeSet::Float>(x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    const S *dyd = dy.as<S>(), *xd = x.as<S>();
    S *dxd = dx.as<S>();
    for (int64_t i = 0; i < x.numElements(); ++i) {
      const double g = loadD<D>(dyd, i), v = loadD<D>(xd, i);
      storeD<D>(dxd, i, g * geluDerivative(v, tanhForm));
    }
    return Status::ok();
  });
}

//===----------------------------------------------------------------------===//
// SiluMul and SiluMulGrad.
//===----------------------------------------------------------------------===//

/// sigmoid(x) in double, without overflow for large |x|.
static double sigmoidOf(double x) {
  if (x >= 0)
    return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

/// One floating type and shape for every operand and result.
static Status checkSameFloat(const KernelArgs &args, size_t ins, size_t outs,
                             const char *const *names) {
  PARACC_RETURN_IF_ERROR(args.checkArity(ins, ins, outs));
  const Tensor &first = *args.in[0];
  PARACC_RETURN_IF_ERROR(args.checkDType(first, TypeSet::Float, names[0]));
  for (size_t i = 0; i < ins + outs; ++i) {
    const Tensor &t = i < ins ? *args.in[i] : *args.out[i - ins];
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(t, first.dtype(), names[i]));
    PARACC_RETURN_IF_ERROR(args.checkShape(t, first.shape(), names[i]));
  }
  return Status::ok();
}

Status runSiluMulKernel(const KernelArgs &args) {
  static const char *const kNames[] = {"gate", "up", "result"};
  PARACC_RETURN_IF_ERROR(checkSameFloat(args, 2, 1, kNames));
  // Elementwise: a result may be an operand's very buffer.
  return visitDTypeIn<TypeSet::Float>(args.in[0]->dtype(), [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    const S *gate = args.in[0]->as<S>(), *up = args.in[1]->as<S>();
    S *y = args.out[0]->as<S>();
    if constexpr (D == DType::F32) {
      // Eight at a time (VectorMath.h): one ulp from the double form.
      siluMulF32(gate, up, y, args.in[0]->numElements());
      return Status::ok();
    }
    for (int64_t i = 0, n = args.in[0]->numElements(); i < n; ++i) {
      const double g = loadD<D>(gate, i), u = loadD<D>(up, i);
      storeD<D>(y, i, g * sigmoidOf(g) * u);
    }
    return Status::ok();
  });
}

Status runSiluMulGradKernel(const KernelArgs &args) {
  static const char *const kNames[] = {"dy", "gate", "up", "dgate", "dup"};
  PARACC_RETURN_IF_ERROR(checkSameFloat(args, 3, 2, kNames));
  return visitDTypeIn<TypeSet::Float>(args.in[0]->dtype(), [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    const S *dy = args.in[0]->as<S>(), *gate = args.in[1]->as<S>(),
            *up = args.in[2]->as<S>();
    S *dgate = args.out[0]->as<S>(), *dup = args.out[1]->as<S>();
    for (int64_t i = 0, n = args.in[0]->numElements(); i < n; ++i) {
      const double d = loadD<D>(dy, i), g = loadD<D>(gate, i),
                   u = loadD<D>(up, i), s = sigmoidOf(g);
      storeD<D>(dgate, i, d * u * s * (1.0 + g * (1.0 - s)));
      storeD<D>(dup, i, d * g * s);
    }
    return Status::ok();
  });
}

Status runAttentionGradKernel(const KernelArgs &args) {
  AttentionGeometry g;
  PARACC_RETURN_IF_ERROR(checkAttentionGrad(args, g));
  const DType dt = args.in[1]->dtype();
  return visitDTypeIn<TypeSet::Float>(dt, [&](auto tag) -> Status {
    attentionGradTyped<decltype(tag)::value>(args, g);
    return Status::ok();
  });
}

Status runCrossEntropyGradKernel(const KernelArgs &args) {
  LossShape shape;
  PARACC_RETURN_IF_ERROR(checkCrossEntropyGrad(args, checkCpuDType, shape));
  const Tensor &scores = *args.in[1], &labels = *args.in[2];
  const int64_t c = shape.c;
  // Every label is checked before any result is written.
  const CrossEntropyGradAttrs &attrs = args.attrsAs<CrossEntropyGradAttrs>();
  const bool hasIgnore = attrs.hasIgnoreIndex;
  const int64_t ignoreIndex = attrs.ignoreIndex;
  for (int64_t pos = 0; pos < labels.numElements(); ++pos) {
    const int64_t label = readIndex(labels, pos);
    if (!(hasIgnore && label == ignoreIndex) && (label < 0 || label >= c))
      return args.fail("label ", label, " at position ", pos,
                       " is out of range [0, ", c, ")");
  }
  return visitDTypeIn<TypeSet::Float>(scores.dtype(), [&](auto tag) -> Status {
    crossEntropyGradTyped<decltype(tag)::value>(args, shape);
    return Status::ok();
  });
}

Status runGatherGradKernel(const KernelArgs &args) {
  int64_t outer, axisDim, inner;
  PARACC_RETURN_IF_ERROR(
      checkGatherGrad(args, checkCpuDType, outer, axisDim, inner));
  const Tensor &indices = *args.in[1];
  Tensor &ddata = *args.out[0];
  std::vector<int64_t> idx(static_cast<size_t>(indices.numElements()));
  for (int64_t i = 0; i < indices.numElements(); ++i) {
    const int64_t v = readIndex(indices, i);
    const int64_t w = v < 0 ? v + axisDim : v;
    if (w < 0 || w >= axisDim)
      return args.fail("index ", v, " is out of range for a dimension of size ",
                       axisDim);
    idx[i] = w;
  }
  // The rows start from zero or from accumulate (which may be ddata's very
  // buffer: then it is there already).
  if (args.in.size() < 3)
    zeroFill(ddata);
  else if (args.in[2]->data() != ddata.data() && ddata.byteSize())
    std::memcpy(ddata.data(), args.in[2]->data(), ddata.byteSize());
  if (ddata.numElements() == 0)
    return Status::ok();
  return visitDTypeIn<TypeSet::Float>(ddata.dtype(), [&](auto tag) -> Status {
    gatherGradTyped<decltype(tag)::value>(args, idx, outer, axisDim, inner);
    return Status::ok();
  });
}

} // namespace paracc::rt

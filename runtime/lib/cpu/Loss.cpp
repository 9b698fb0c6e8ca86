//===- Loss.cpp - SoftmaxCrossEntropy and NllLoss -------------------------===//
//
// Follows the reference implementation of the ONNX specification: scores
// [N, C, d1..dk] are seen as [N, C, D], labels [N, d1..dk] as [N, D]; the
// per-element loss is -log_prob[n, label, d] times the label's weight (0 for
// ignore_index); "mean" divides by the sum of the weights when weights or an
// ignore_index are given, and by N*D otherwise. Labels outside [0, C) that
// are not ignore_index are an error. Accumulation is in double.
//
//===----------------------------------------------------------------------===//

#include "Kernels/TrainingChecks.h"
#include "cpu/CpuKernels.h"

#include <cmath>

namespace paracc::rt {

namespace {

enum Reduction : int64_t { kNone = 0, kSum = 1, kMean = 2 };

template <DType D>
Status lossTyped(const KernelArgs &args, bool isSce, const LossShape &shape) {
  using S = StorageT<D>;
  const int64_t n = shape.n, c = shape.c, d = shape.d;
  const Tensor &scores = *args.in[0];
  const Tensor &labels = *args.in[1];
  const Tensor *weight = shape.weight;
  Tensor &loss = *args.out[0];
  Tensor *logProb = shape.logProb;
  float *stats = shape.statsOut ? shape.statsOut->as<float>() : nullptr;
  const SoftmaxCrossEntropyAttrs &attrs =
      args.attrsAs<SoftmaxCrossEntropyAttrs>();
  const int64_t reduction = attrs.reduction;
  const bool hasIgnore = attrs.hasIgnoreIndex;
  const int64_t ignoreIndex = attrs.ignoreIndex;

  const S *x = static_cast<const S *>(scores.data());
  const S *w = weight ? static_cast<const S *>(weight->data()) : nullptr;
  S *lp = logProb ? static_cast<S *>(logProb->data()) : nullptr;
  S *out = static_cast<S *>(loss.data());
  // An f32 loss of bf16/f16 scores (see checkLossDType).
  const bool lossF32 = D != DType::F32 && loss.dtype() == DType::F32;
  auto storeLoss = [&](int64_t i, double v) {
    if (lossF32)
      static_cast<float *>(loss.data())[i] = static_cast<float>(v);
    else
      store<D>(out + i, static_cast<ComputeT<D>>(v));
  };
  const bool labels32 = labels.dtype() == DType::I32;
  const void *lab = labels.data();

  double lossSum = 0.0, weightSum = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < d; ++j) {
      const int64_t pos = i * d + j;
      const int64_t label = labels32 ? static_cast<const int32_t *>(lab)[pos]
                                     : static_cast<const int64_t *>(lab)[pos];
      const bool ignored = hasIgnore && label == ignoreIndex;
      if (!ignored && (label < 0 || label >= c))
        return args.fail("label ", label, " at position ", pos,
                         " is out of range [0, ", c, ")");
      const S *col = x + i * c * d + j; // Class k at col[k * d].
      double negLogP = 0.0;
      if (isSce) {
        // log_softmax over the classes of this column.
        double lse = 0.0;
        if (c > 0) {
          double maxv = -INFINITY;
          bool nan = false;
          for (int64_t k = 0; k < c; ++k) {
            const double v = load<D>(col + k * d);
            nan |= std::isnan(v);
            maxv = v > maxv ? v : maxv;
          }
          double sum = 0.0;
          for (int64_t k = 0; k < c; ++k)
            sum += std::exp(static_cast<double>(load<D>(col + k * d)) - maxv);
          lse = nan ? NAN : maxv + std::log(sum);
          if (stats) {
            stats[2 * pos] = nan ? NAN : static_cast<float>(maxv);
            stats[2 * pos + 1] = static_cast<float>(sum);
          }
        } else if (stats) {
          stats[2 * pos] = -INFINITY; // No classes: nothing to normalize.
          stats[2 * pos + 1] = 0.0f;
        }
        if (lp) {
          S *lcol = lp + i * c * d + j;
          for (int64_t k = 0; k < c; ++k)
            store<D>(lcol + k * d,
                     static_cast<ComputeT<D>>(
                         static_cast<double>(load<D>(col + k * d)) - lse));
        }
        if (!ignored)
          negLogP = lse - static_cast<double>(load<D>(col + label * d));
      } else if (!ignored) {
        negLogP = -static_cast<double>(load<D>(col + label * d));
      }
      double wt = 1.0;
      if (ignored)
        wt = 0.0;
      else if (w)
        wt = static_cast<double>(load<D>(w + label));
      const double l = ignored ? 0.0 : wt * negLogP;
      if (reduction == kNone)
        storeLoss(pos, l);
      lossSum += l;
      weightSum += wt;
    }
  }
  if (reduction == kSum) {
    storeLoss(0, lossSum);
  } else if (reduction == kMean) {
    const double denom =
        (w || hasIgnore) ? weightSum : static_cast<double>(n * d);
    storeLoss(0, lossSum / denom);
  }
  return Status::ok();
}

} // namespace

Status runLossKernel(const KernelArgs &args) {
  LossShape shape;
  PARACC_RETURN_IF_ERROR(checkLoss(args, checkCpuDType, shape));
  const bool isSce = args.op == OpCode::SoftmaxCrossEntropy;
  return visitDTypeIn<TypeSet::Float>(
      args.in[0]->dtype(), [&](auto tag) -> Status {
        return lossTyped<decltype(tag)::value>(args, isSce, shape);
      });
}

} // namespace paracc::rt

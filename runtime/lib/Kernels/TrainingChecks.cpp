//===- TrainingChecks.cpp - Operand checks of the training ops -----------===//

#include "Kernels/TrainingChecks.h"

#include <cmath>

namespace paracc::rt {

Status checkGatherGrad(const KernelArgs &args, OperandTypeCheck checkType,
                       int64_t &outer, int64_t &axisDim, int64_t &inner) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 3, 1));
  const Tensor &dy = *args.in[0], &indices = *args.in[1];
  const Tensor &ddata = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, ddata, TypeSet::Float, "result"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(dy, ddata.dtype(), "dy"));
  if (args.in.size() > 2) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.in[2], ddata.dtype(), "accumulate"));
    PARACC_RETURN_IF_ERROR(
        args.checkShape(*args.in[2], ddata.shape(), "accumulate"));
  }
  PARACC_RETURN_IF_ERROR(args.checkDType(indices, TypeSet::Index, "indices"));
  if (ddata.rank() < 1)
    return args.fail("result must have rank >= 1, got ", ddata.typeString());
  int64_t axis;
  PARACC_RETURN_IF_ERROR(
      args.normalizeAxis(args.attrsAs<GatherAttrs>().axis, ddata.rank(), axis));
  Shape dyShape(ddata.shape().begin(), ddata.shape().begin() + axis);
  dyShape.insert(dyShape.end(), indices.shape().begin(), indices.shape().end());
  dyShape.insert(dyShape.end(), ddata.shape().begin() + axis + 1,
                 ddata.shape().end());
  PARACC_RETURN_IF_ERROR(args.checkShape(dy, dyShape, "dy"));
  outer = 1;
  inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= ddata.dim(d);
  for (int64_t d = axis + 1; d < ddata.rank(); ++d)
    inner *= ddata.dim(d);
  axisDim = ddata.dim(axis);
  return Status::ok();
}

Status checkNormGrad(const KernelArgs &args, OperandTypeCheck checkType,
                     int64_t &normalized) {
  const bool isLayerNorm = args.op == OpCode::LayerNormGrad;
  PARACC_RETURN_IF_ERROR(args.checkArity(3, 4, isLayerNorm ? 3 : 2));
  const LayerNormAttrs &attrs = args.attrsAs<LayerNormAttrs>();
  const Tensor &dy = *args.in[0], &x = *args.in[1], &scale = *args.in[2];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "x"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(dy, x.dtype(), "dy"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(scale, x.dtype(), "scale"));
  PARACC_RETURN_IF_ERROR(args.checkShape(dy, x.shape(), "dy"));
  if (args.in.size() > 3) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.in[3], x.dtype(), "accumulate"));
    PARACC_RETURN_IF_ERROR(
        args.checkShape(*args.in[3], x.shape(), "accumulate"));
  }
  if (x.rank() < 1)
    return args.fail("x must have rank >= 1, got ", x.typeString());
  PARACC_RETURN_IF_ERROR(args.checkIntIn(attrs.axis, 0, x.rank() - 1, "axis"));
  const double eps = attrs.epsilon;
  if (!(eps >= 0.0) || std::isinf(eps))
    return args.fail("epsilon must be finite and non-negative, got ", eps);
  const Shape normShape(x.shape().begin() + attrs.axis, x.shape().end());
  normalized = shapeNumElements(normShape);
  if (scale.numElements() != normalized)
    return args.fail("scale ", scale.typeString(), " must have the ",
                     normalized, " elements of the normalized shape ",
                     shapeToString(normShape));
  static const char *const kNames[] = {"dx", "dscale", "dbias"};
  for (size_t o = 0; o < args.out.size(); ++o) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.out[o], x.dtype(), kNames[o]));
    PARACC_RETURN_IF_ERROR(args.checkShape(
        *args.out[o], o == 0 ? x.shape() : scale.shape(), kNames[o]));
  }
  return Status::ok();
}

Status checkOptimizerOperands(const KernelArgs &args, size_t nTensors,
                              const char *const *names) {
  const Tensor &param = *args.in[0];
  for (size_t i = 0; i < args.in.size(); ++i) {
    const Tensor &t = *args.in[i];
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(t, DType::F32, names[i]));
    PARACC_RETURN_IF_ERROR(
        args.checkShape(t, i < nTensors ? param.shape() : Shape{}, names[i]));
  }
  for (size_t o = 0; o < args.out.size(); ++o) {
    const char *name = names[args.in.size() + o];
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*args.out[o], DType::F32, name));
    PARACC_RETURN_IF_ERROR(args.checkShape(*args.out[o], param.shape(), name));
  }
  return Status::ok();
}

Status checkFloatAttr(const KernelArgs &args, double v, double lo, double hi,
                      const char *what) {
  if (std::isinf(lo)) {
    if (!std::isfinite(v))
      return args.fail(what, " must be finite, got ", v);
  } else if (std::isinf(hi)) {
    if (!(v >= lo) || std::isinf(v))
      return args.fail(what, " must be finite and >= ", lo, ", got ", v);
  } else if (!(v >= lo && v < hi)) {
    return args.fail(what, " must be in [", lo, ", ", hi, "), got ", v);
  }
  return Status::ok();
}

Status checkAdamWAttrs(const KernelArgs &args) {
  const AdamWAttrs &attrs = args.attrsAs<AdamWAttrs>();
  const double inf = INFINITY;
  PARACC_RETURN_IF_ERROR(checkFloatAttr(args, attrs.beta1, 0.0, 1.0, "beta1"));
  PARACC_RETURN_IF_ERROR(checkFloatAttr(args, attrs.beta2, 0.0, 1.0, "beta2"));
  PARACC_RETURN_IF_ERROR(checkFloatAttr(args, attrs.eps, 0.0, inf, "eps"));
  return checkFloatAttr(args, attrs.weightDecay, 0.0, inf, "weight_decay");
}

Status checkForeachAdamW(const KernelArgs &args, size_t &count) {
  const size_t nIn = args.in.size(), nOut = args.out.size();
  const size_t n = foreachAdamWTensors(nIn);
  if (n == 0 || (nIn - 3) % 4 != 0 || (nOut != 3 * n && nOut != 4 * n))
    return args.fail("expected 4N + 3 operands and 3N results, or 4N with "
                     "the parameters' copies (N >= 1), got ",
                     nIn, " operands and ", nOut, " results");
  PARACC_RETURN_IF_ERROR(checkAdamWAttrs(args));
  static const char *const kOperands[] = {"param", "grad", "exp_avg",
                                          "exp_avg_sq"};
  static const char *const kResults[] = {"updated param", "updated exp_avg",
                                         "updated exp_avg_sq"};
  for (size_t j = 0; j < n; ++j) {
    const Tensor &param = *args.in[j];
    for (size_t k = 0; k < 4; ++k) {
      const Tensor &t = *args.in[k * n + j];
      if (k == 1)
        PARACC_RETURN_IF_ERROR(args.checkDType(t, TypeSet::Float, "grad"));
      if (k == 1 && t.dtype() == DType::F64)
        return args.fail("grad ", j, " must be f32, bf16 or f16, got ",
                         t.typeString());
      if (k != 1)
        PARACC_RETURN_IF_ERROR(args.checkDTypeIs(t, DType::F32, kOperands[k]));
      PARACC_RETURN_IF_ERROR(args.checkShape(t, param.shape(), kOperands[k]));
    }
    for (size_t k = 0; k < 3; ++k) {
      const Tensor &t = *args.out[k * n + j];
      PARACC_RETURN_IF_ERROR(args.checkDTypeIs(t, DType::F32, kResults[k]));
      PARACC_RETURN_IF_ERROR(args.checkShape(t, param.shape(), kResults[k]));
    }
    if (nOut == 4 * n) {
      const Tensor &copy = *args.out[3 * n + j];
      if (copy.dtype() != DType::BF16 && copy.dtype() != DType::F16)
        return args.fail("parameter copy ", j, " must be bf16 or f16, got ",
                         copy.typeString());
      PARACC_RETURN_IF_ERROR(
          args.checkShape(copy, param.shape(), "parameter copy"));
    }
  }
  static const char *const kScalars[] = {"lr", "step", "grad_scale"};
  for (size_t k = 0; k < 3; ++k) {
    const Tensor &t = *args.in[4 * n + k];
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(t, DType::F32, kScalars[k]));
    PARACC_RETURN_IF_ERROR(args.checkShape(t, Shape{}, kScalars[k]));
  }
  count = n;
  return Status::ok();
}

Status checkForeachSumSquare(const KernelArgs &args) {
  if (args.in.empty() || args.out.size() != 1)
    return args.fail("expected N >= 1 operands and 1 result, got ",
                     args.in.size(), " operands and ", args.out.size(),
                     " results");
  for (const Tensor *x : args.in)
    PARACC_RETURN_IF_ERROR(args.checkDType(*x, TypeSet::Float, "operand"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*args.out[0], DType::F32, "result"));
  return args.checkShape(*args.out[0], Shape{int64_t(args.in.size())},
                         "result");
}

Status checkForeachCast(const KernelArgs &args) {
  if (args.in.empty() || args.out.size() != args.in.size())
    return args.fail("expected N >= 1 operands and as many results, got ",
                     args.in.size(), " operands and ", args.out.size(),
                     " results");
  for (size_t j = 0; j < args.in.size(); ++j) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.in[j], args.in[0]->dtype(), "operand"));
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.out[j], args.out[0]->dtype(), "result"));
    PARACC_RETURN_IF_ERROR(
        args.checkShape(*args.out[j], args.in[j]->shape(), "result"));
  }
  return Status::ok();
}

Status checkSgd(const KernelArgs &args, SgdUpdate &update) {
  PARACC_RETURN_IF_ERROR(args.checkArity(6, 6, 2));
  const SgdAttrs &attrs = args.attrsAs<SgdAttrs>();
  static const char *const kNames[] = {
      "param", "grad",       "momentum_buffer", "lr",
      "step",  "grad_scale", "updated param",   "updated momentum_buffer"};
  PARACC_RETURN_IF_ERROR(checkOptimizerOperands(args, 3, kNames));
  const double inf = INFINITY;
  PARACC_RETURN_IF_ERROR(
      checkFloatAttr(args, attrs.momentum, 0.0, inf, "momentum"));
  PARACC_RETURN_IF_ERROR(
      checkFloatAttr(args, attrs.dampening, -inf, inf, "dampening"));
  PARACC_RETURN_IF_ERROR(
      checkFloatAttr(args, attrs.weightDecay, 0.0, inf, "weight_decay"));
  update.momentum = attrs.momentum;
  update.dampening = attrs.dampening;
  update.weightDecay = attrs.weightDecay;
  if (attrs.nesterov != 0.0 && attrs.nesterov != 1.0)
    return args.fail("nesterov must be 0 or 1, got ", attrs.nesterov);
  update.nesterov = attrs.nesterov == 1.0;
  if (update.nesterov && (update.momentum <= 0.0 || update.dampening != 0.0))
    return args.fail("nesterov momentum needs a momentum > 0 and zero "
                     "dampening, got momentum ",
                     update.momentum, " and dampening ", update.dampening);
  return Status::ok();
}

Status checkLoss(const KernelArgs &args, OperandTypeCheck checkType,
                 LossShape &shape) {
  const bool isSce = args.op == OpCode::SoftmaxCrossEntropy;
  const bool savedStats = args.attrsAs<SoftmaxCrossEntropyAttrs>().savedStats;
  if (savedStats && !isSce)
    return args.fail("only SoftmaxCrossEntropy saves softmax statistics");
  PARACC_RETURN_IF_ERROR(savedStats ? args.checkArity(2, 3, 2)
                                    : (isSce ? args.checkArity(2, 3, 1, 2)
                                             : args.checkArity(2, 3, 1)));
  const Tensor &scores = *args.in[0];
  const Tensor &labels = *args.in[1];
  const Tensor *weight = args.in.size() > 2 ? args.in[2] : nullptr;
  shape.weight = weight;
  const Tensor &loss = *args.out[0];
  const char *what = isSce ? "scores" : "log_prob";
  PARACC_RETURN_IF_ERROR(checkType(args, scores, TypeSet::Float, what));
  PARACC_RETURN_IF_ERROR(args.checkDType(labels, TypeSet::Index, "labels"));
  if (scores.rank() < 2)
    return args.fail(what, " must have rank >= 2 ([N, C, d...]), got ",
                     scores.typeString());
  Shape labelShape = scores.shape();
  labelShape.erase(labelShape.begin() + 1);
  PARACC_RETURN_IF_ERROR(args.checkShape(labels, labelShape, "labels"));
  shape.c = scores.dim(1);
  if (weight) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*weight, scores.dtype(), "weight"));
    PARACC_RETURN_IF_ERROR(args.checkShape(*weight, Shape{shape.c}, "weight"));
  }
  PARACC_RETURN_IF_ERROR(checkLossDType(args, loss, scores, weight, "loss"));
  // Reduction 0 (none) keeps a loss per label.
  PARACC_RETURN_IF_ERROR(args.checkShape(
      loss,
      args.attrsAs<SoftmaxCrossEntropyAttrs>().reduction == 0 ? labelShape
                                                              : Shape{},
      "loss"));
  if (savedStats) {
    Shape statsShape = labelShape;
    statsShape.push_back(2);
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.out[1], DType::F32, "stats"));
    PARACC_RETURN_IF_ERROR(args.checkShape(*args.out[1], statsShape, "stats"));
    shape.statsOut = args.out[1];
  } else if (args.out.size() > 1) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.out[1], scores.dtype(), "log_prob"));
    PARACC_RETURN_IF_ERROR(
        args.checkShape(*args.out[1], scores.shape(), "log_prob"));
    shape.logProb = args.out[1];
  }
  shape.n = scores.dim(0);
  shape.d = 1;
  for (int64_t i = 2; i < scores.rank(); ++i)
    shape.d *= scores.dim(i);
  return Status::ok();
}

Status checkCrossEntropyGrad(const KernelArgs &args, OperandTypeCheck checkType,
                             LossShape &shape) {
  const CrossEntropyGradAttrs &attrs = args.attrsAs<CrossEntropyGradAttrs>();
  const size_t statsOperands = attrs.savedStats ? 1 : 0;
  PARACC_RETURN_IF_ERROR(
      args.checkArity(3 + statsOperands, 4 + statsOperands, 1));
  if (attrs.savedStats && attrs.logProbScores)
    return args.fail(
        "softmax statistics are for logits, not log-probabilities");
  const Tensor &dloss = *args.in[0], &scores = *args.in[1],
               &labels = *args.in[2];
  const Tensor *weight =
      args.in.size() > 3 + statsOperands ? args.in[3] : nullptr;
  shape.weight = weight;
  shape.stats = attrs.savedStats ? args.in.back() : nullptr;
  const Tensor &dscores = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, scores, TypeSet::Float, "scores"));
  PARACC_RETURN_IF_ERROR(args.checkDType(labels, TypeSet::Index, "labels"));
  if (scores.rank() < 2)
    return args.fail("scores must have rank >= 2 ([N, C, d...]), got ",
                     scores.typeString());
  Shape labelShape = scores.shape();
  labelShape.erase(labelShape.begin() + 1);
  PARACC_RETURN_IF_ERROR(args.checkShape(labels, labelShape, "labels"));
  PARACC_RETURN_IF_ERROR(checkLossDType(args, dloss, scores, weight, "dloss"));
  PARACC_RETURN_IF_ERROR(args.checkShape(dloss, labelShape, "dloss"));
  const int64_t c = scores.dim(1);
  shape.c = c;
  if (weight) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*weight, scores.dtype(), "weight"));
    PARACC_RETURN_IF_ERROR(args.checkShape(*weight, Shape{c}, "weight"));
  }
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(dscores, scores.dtype(), "dscores"));
  PARACC_RETURN_IF_ERROR(args.checkShape(dscores, scores.shape(), "dscores"));
  if (shape.stats) {
    Shape statsShape = labelShape;
    statsShape.push_back(2);
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*shape.stats, DType::F32, "stats"));
    PARACC_RETURN_IF_ERROR(args.checkShape(*shape.stats, statsShape, "stats"));
  }
  shape.n = scores.dim(0);
  shape.d = 1;
  for (int64_t i = 2; i < scores.rank(); ++i)
    shape.d *= scores.dim(i);
  return Status::ok();
}

Status checkAdamW(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(7, 7, 3));
  static const char *const kNames[] = {"param",
                                       "grad",
                                       "exp_avg",
                                       "exp_avg_sq",
                                       "lr",
                                       "step",
                                       "grad_scale",
                                       "updated param",
                                       "updated exp_avg",
                                       "updated exp_avg_sq"};
  PARACC_RETURN_IF_ERROR(checkOptimizerOperands(args, 4, kNames));
  return checkAdamWAttrs(args);
}

} // namespace paracc::rt

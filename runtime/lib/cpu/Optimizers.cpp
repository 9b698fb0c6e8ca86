//===- Optimizers.cpp - AdamW and SGD parameter updates -------------------===//
//
// One step of torch.optim.AdamW and torch.optim.SGD (their single-tensor,
// non-capturable algorithms): the scalars (learning rate, bias corrections)
// are computed in double as Python floats are and rounded to f32 where a
// tensor op meets them; the tensor math is f32, op by op in torch's order.
// Every result element is written after all operand elements at its
// position are read, so a result may be the very buffer of an operand (the
// in-place update an executable uses).
//
//===----------------------------------------------------------------------===//

#include "cpu/TrainingChecks.h"

#include <cmath>

namespace paracc::rt {

namespace {

/// The value of a scalar f32 operand, as a double.
double scalarOperand(const KernelArgs &args, size_t i) {
  return static_cast<double>(*args.in[i]->as<float>());
}

/// The step count t of operand i: finite and >= 1.
Status readStep(const KernelArgs &args, size_t i, double &step) {
  step = scalarOperand(args, i);
  if (!(step >= 1.0) || std::isinf(step))
    return args.fail("step must be a finite count >= 1, got ", step);
  return Status::ok();
}

/// torch.lerp with a scalar weight (ATen's Lerp.h): exact at both ends.
inline float lerp(float self, float end, float weight) {
  return std::abs(weight) < 0.5f ? self + weight * (end - self)
                                 : end - (end - self) * (1.0f - weight);
}

} // namespace

Status runAdamWKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(7, 7, 3));
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(0, 4));
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
  const double inf = INFINITY;
  PARACC_RETURN_IF_ERROR(checkFloatAttr(args, 0, 0.0, 1.0, "beta1"));
  PARACC_RETURN_IF_ERROR(checkFloatAttr(args, 1, 0.0, 1.0, "beta2"));
  PARACC_RETURN_IF_ERROR(checkFloatAttr(args, 2, 0.0, inf, "eps"));
  PARACC_RETURN_IF_ERROR(checkFloatAttr(args, 3, 0.0, inf, "weight_decay"));
  double step;
  PARACC_RETURN_IF_ERROR(readStep(args, 5, step));
  const double beta1 = args.attrs.floats[0], beta2 = args.attrs.floats[1];
  const double eps = args.attrs.floats[2], wd = args.attrs.floats[3];
  const double lr = scalarOperand(args, 4);
  const float gradScale = *args.in[6]->as<float>();

  // The Python-float scalars of torch's _single_tensor_adamw.
  const double biasCorrection1 = 1.0 - std::pow(beta1, step);
  const double biasCorrection2 = 1.0 - std::pow(beta2, step);
  const double stepSize = lr / biasCorrection1;
  const double biasCorrection2Sqrt = std::sqrt(biasCorrection2);
  // ... as the f32 tensor ops see them.
  const float decay = static_cast<float>(1.0 - lr * wd);
  const float avgWeight = static_cast<float>(1.0 - beta1);
  const float beta2f = static_cast<float>(beta2);
  const float sqWeight = static_cast<float>(1.0 - beta2);
  const float bc2Sqrt = static_cast<float>(biasCorrection2Sqrt);
  const float epsf = static_cast<float>(eps);
  const float negStepSize = static_cast<float>(-stepSize);

  const float *param = args.in[0]->as<float>(), *grad = args.in[1]->as<float>(),
              *expAvg = args.in[2]->as<float>(),
              *expAvgSq = args.in[3]->as<float>();
  float *paramOut = args.out[0]->as<float>(),
        *expAvgOut = args.out[1]->as<float>(),
        *expAvgSqOut = args.out[2]->as<float>();
  const int64_t n = args.in[0]->numElements();
  for (int64_t i = 0; i < n; ++i) {
    const float g = grad[i] * gradScale;
    float p = param[i], m = expAvg[i], v = expAvgSq[i];
    p = p * decay;             // param.mul_(1 - lr * wd)
    m = lerp(m, g, avgWeight); // exp_avg.lerp_(g, 1 - beta1)
    v = v * beta2f;            // exp_avg_sq.mul_(beta2)
    v = v + sqWeight * g * g;  //   .addcmul_(g, g, 1 - beta2)
    const float denom = std::sqrt(v) / bc2Sqrt + epsf;
    p = p + negStepSize * m / denom; // param.addcdiv_(m, denom, -ss)
    paramOut[i] = p;
    expAvgOut[i] = m;
    expAvgSqOut[i] = v;
  }
  return Status::ok();
}

Status runSgdKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(6, 6, 2));
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(0, 4));
  static const char *const kNames[] = {
      "param", "grad",       "momentum_buffer", "lr",
      "step",  "grad_scale", "updated param",   "updated momentum_buffer"};
  PARACC_RETURN_IF_ERROR(checkOptimizerOperands(args, 3, kNames));
  const double inf = INFINITY;
  PARACC_RETURN_IF_ERROR(checkFloatAttr(args, 0, 0.0, inf, "momentum"));
  PARACC_RETURN_IF_ERROR(checkFloatAttr(args, 1, -inf, inf, "dampening"));
  PARACC_RETURN_IF_ERROR(checkFloatAttr(args, 2, 0.0, inf, "weight_decay"));
  const double momentum = args.attrs.floats[0];
  const double dampening = args.attrs.floats[1];
  const double wd = args.attrs.floats[2];
  const double nesterovAttr = args.attrs.floats[3];
  if (nesterovAttr != 0.0 && nesterovAttr != 1.0)
    return args.fail("nesterov must be 0 or 1, got ", nesterovAttr);
  const bool nesterov = nesterovAttr == 1.0;
  if (nesterov && (momentum <= 0.0 || dampening != 0.0))
    return args.fail("nesterov momentum needs a momentum > 0 and zero "
                     "dampening, got momentum ",
                     momentum, " and dampening ", dampening);
  double step;
  PARACC_RETURN_IF_ERROR(readStep(args, 4, step));
  const double lr = scalarOperand(args, 3);
  const float gradScale = *args.in[5]->as<float>();
  const bool firstStep = step == 1.0;
  const bool useMomentum = momentum != 0.0;
  const float wdf = static_cast<float>(wd);
  const float momentumf = static_cast<float>(momentum);
  const float gradWeight = static_cast<float>(1.0 - dampening);
  const float negLr = static_cast<float>(-lr);

  const float *param = args.in[0]->as<float>(), *grad = args.in[1]->as<float>(),
              *buffer = args.in[2]->as<float>();
  float *paramOut = args.out[0]->as<float>(),
        *bufferOut = args.out[1]->as<float>();
  const int64_t n = args.in[0]->numElements();
  for (int64_t i = 0; i < n; ++i) {
    float g = grad[i] * gradScale;
    float p = param[i], buf = buffer[i];
    if (wd != 0.0)
      g = g + wdf * p; // grad.add(param, alpha=wd)
    if (useMomentum) {
      // The first step clones g into the (then absent) buffer.
      buf = firstStep ? g : buf * momentumf + gradWeight * g;
      g = nesterov ? g + momentumf * buf : buf;
    }
    p = p + negLr * g; // param.add_(g, alpha=-lr)
    paramOut[i] = p;
    bufferOut[i] = buf;
  }
  return Status::ok();
}

} // namespace paracc::rt

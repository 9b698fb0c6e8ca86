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

#include "Kernels/TrainingChecks.h"
#include "cpu/CpuKernels.h"

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

/// AdamW's per-step f32 constants, from the step's scalars (as torch's
/// _single_tensor_adamw computes them: Python floats, then f32 where a
/// tensor op meets them).
struct AdamWConstants {
  float decay, avgWeight, beta2f, sqWeight, bc2Sqrt, epsf, negStepSize,
      gradScale;
};

/// The constants of an AdamW or ForeachAdamW instruction whose scalar
/// operands (lr, step, grad_scale) start at operand `lrIndex`.
Status adamwConstants(const KernelArgs &args, size_t lrIndex,
                      AdamWConstants &c) {
  double step;
  PARACC_RETURN_IF_ERROR(readStep(args, lrIndex + 1, step));
  const AdamWAttrs &attrs = args.attrsAs<AdamWAttrs>();
  const double beta1 = attrs.beta1, beta2 = attrs.beta2;
  const double eps = attrs.eps, wd = attrs.weightDecay;
  const double lr = scalarOperand(args, lrIndex);
  const double biasCorrection1 = 1.0 - std::pow(beta1, step);
  const double biasCorrection2 = 1.0 - std::pow(beta2, step);
  const double stepSize = lr / biasCorrection1;
  c.decay = static_cast<float>(1.0 - lr * wd);
  c.avgWeight = static_cast<float>(1.0 - beta1);
  c.beta2f = static_cast<float>(beta2);
  c.sqWeight = static_cast<float>(1.0 - beta2);
  c.bc2Sqrt = static_cast<float>(std::sqrt(biasCorrection2));
  c.epsf = static_cast<float>(eps);
  c.negStepSize = static_cast<float>(-stepSize);
  c.gradScale = *args.in[lrIndex + 2]->as<float>();
  return Status::ok();
}

/// AdamW on one tensor of n elements whose gradient has element type G.
template <DType G>
void adamwTensor(const AdamWConstants &c, const float *param,
                 const StorageT<G> *grad, const float *expAvg,
                 const float *expAvgSq, float *paramOut, float *expAvgOut,
                 float *expAvgSqOut, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float g = load<G>(grad + i) * c.gradScale;
    float p = param[i], m = expAvg[i], v = expAvgSq[i];
    p = p * c.decay;             // param.mul_(1 - lr * wd)
    m = lerp(m, g, c.avgWeight); // exp_avg.lerp_(g, 1 - beta1)
    v = v * c.beta2f;            // exp_avg_sq.mul_(beta2)
    v = v + c.sqWeight * g * g;  //   .addcmul_(g, g, 1 - beta2)
    const float denom = std::sqrt(v) / c.bc2Sqrt + c.epsf;
    p = p + c.negStepSize * m / denom; // param.addcdiv_(m, denom, -ss)
    paramOut[i] = p;
    expAvgOut[i] = m;
    expAvgSqOut[i] = v;
  }
}

} // namespace

Status runAdamWKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(checkAdamW(args));
  AdamWConstants c;
  PARACC_RETURN_IF_ERROR(adamwConstants(args, 4, c));
  adamwTensor<DType::F32>(c, args.in[0]->as<float>(), args.in[1]->as<float>(),
                          args.in[2]->as<float>(), args.in[3]->as<float>(),
                          args.out[0]->as<float>(), args.out[1]->as<float>(),
                          args.out[2]->as<float>(), args.in[0]->numElements());
  return Status::ok();
}

Status runForeachAdamWKernel(const KernelArgs &args) {
  size_t n = 0;
  PARACC_RETURN_IF_ERROR(checkForeachAdamW(args, n));
  AdamWConstants c;
  PARACC_RETURN_IF_ERROR(adamwConstants(args, 4 * n, c));
  for (size_t j = 0; j < n; ++j) {
    const Tensor &grad = *args.in[n + j];
    auto update = [&](auto tag) -> Status {
      constexpr DType G = decltype(tag)::value;
      if constexpr (G == DType::F32 || G == DType::BF16 || G == DType::F16)
        adamwTensor<G>(
            c, args.in[j]->as<float>(),
            static_cast<const StorageT<G> *>(grad.data()),
            args.in[2 * n + j]->as<float>(), args.in[3 * n + j]->as<float>(),
            args.out[j]->as<float>(), args.out[n + j]->as<float>(),
            args.out[2 * n + j]->as<float>(), args.in[j]->numElements());
      return Status::ok();
    };
    PARACC_RETURN_IF_ERROR(visitDType(grad.dtype(), update));
    // The new parameter's narrow copy: the cast the next step would make.
    if (args.out.size() == 4 * n) {
      const OpAttrs none;
      const std::vector<const Tensor *> in{args.out[j]};
      const std::vector<Tensor *> out{args.out[3 * n + j]};
      PARACC_RETURN_IF_ERROR(
          runCastKernel(KernelArgs{OpCode::Cast, none, in, out}));
    }
  }
  return Status::ok();
}

Status runSgdKernel(const KernelArgs &args) {
  SgdUpdate attrs;
  PARACC_RETURN_IF_ERROR(checkSgd(args, attrs));
  double step;
  PARACC_RETURN_IF_ERROR(readStep(args, 4, step));
  const double lr = scalarOperand(args, 3);
  const float gradScale = *args.in[5]->as<float>();
  const bool firstStep = step == 1.0;
  const bool useMomentum = attrs.momentum != 0.0;
  const float wdf = static_cast<float>(attrs.weightDecay);
  const float momentumf = static_cast<float>(attrs.momentum);
  const float gradWeight = static_cast<float>(1.0 - attrs.dampening);
  const float negLr = static_cast<float>(-lr);

  const float *param = args.in[0]->as<float>(), *grad = args.in[1]->as<float>(),
              *buffer = args.in[2]->as<float>();
  float *paramOut = args.out[0]->as<float>(),
        *bufferOut = args.out[1]->as<float>();
  const int64_t n = args.in[0]->numElements();
  for (int64_t i = 0; i < n; ++i) {
    float g = grad[i] * gradScale;
    float p = param[i], buf = buffer[i];
    if (attrs.weightDecay != 0.0)
      g = g + wdf * p; // grad.add(param, alpha=weight_decay)
    if (useMomentum) {
      // The first step clones g into the (then absent) buffer.
      buf = firstStep ? g : buf * momentumf + gradWeight * g;
      g = attrs.nesterov ? g + momentumf * buf : buf;
    }
    p = p + negLr * g; // param.add_(g, alpha=-lr)
    paramOut[i] = p;
    bufferOut[i] = buf;
  }
  return Status::ok();
}

} // namespace paracc::rt

//===- AdamWMath.cuh - AdamW's per-element math on the GPU ------*- C++ -*-===//
//
// Private to the CUDA backend: one AdamW step of one element, shared by the
// single-tensor AdamW kernel (TrainingKernels.cu) and ForeachAdamW
// (ForeachKernels.cu), so that both give the same bits. The step's scalars
// (lr, step, grad_scale) are device tensors: thread 0 of each block reads
// them and computes the bias corrections in double, as torch's
// _single_tensor_adamw does with Python floats; the tensor math then uses
// __fmul_rn/__fadd_rn/__fdiv_rn/__fsqrt_rn in cpu/Optimizers.cpp's op
// order, so that nothing contracts into an FMA and exp_avg and exp_avg_sq
// match the CPU bit for bit (the parameter too unless the device's pow
// differs from the host's in the last bit). A step that is not a finite
// count >= 1 makes every result NaN.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_ADAMWMATH_CUH
#define PARACC_RUNTIME_CUDA_ADAMWMATH_CUH

#include "cuda/DeviceUtil.cuh"

namespace paracc::rt::cuda {

/// torch.lerp with a scalar weight, op by op as cpu/Optimizers.cpp.
__device__ __forceinline__ float lerpRn(float self, float end, float weight) {
  return fabsf(weight) < 0.5f
             ? __fadd_rn(self, __fmul_rn(weight, __fsub_rn(end, self)))
             : __fsub_rn(end, __fmul_rn(__fsub_rn(end, self),
                                        __fsub_rn(1.0f, weight)));
}

/// Whether a step count is finite and >= 1 (false for NaN).
__device__ __forceinline__ bool validStep(double step) {
  return step >= 1.0 && step < INFINITY;
}

/// AdamW's floats (beta1, beta2, eps, weight_decay), as the kernels need
/// them: in double for the per-step constants, in f32 for the tensor math.
struct AdamWHyper {
  double beta1, beta2, wd;
  float avgWeight, beta2f, sqWeight, epsf;
};

/// The hyperparameters of checked attributes (checkAdamWAttrs).
inline AdamWHyper adamwHyper(const AdamWAttrs &attrs) {
  AdamWHyper h;
  h.beta1 = attrs.beta1;
  h.beta2 = attrs.beta2;
  h.wd = attrs.weightDecay;
  h.avgWeight = static_cast<float>(1.0 - h.beta1);
  h.beta2f = static_cast<float>(h.beta2);
  h.sqWeight = static_cast<float>(1.0 - h.beta2);
  h.epsf = static_cast<float>(attrs.eps);
  return h;
}

/// The per-step f32 constants of AdamW, from the device scalars.
struct AdamWStep {
  float decay, bc2Sqrt, negStepSize, gradScale;
  bool ok;
};

/// Reads the device scalars and computes the step's constants: the
/// Python-float scalars of torch's _single_tensor_adamw, in double (no
/// contraction), then as the f32 tensor ops see them.
__device__ __forceinline__ AdamWStep adamwStep(const AdamWHyper &h,
                                               const float *lrPtr,
                                               const float *stepPtr,
                                               const float *gradScalePtr) {
  const double step = double(*stepPtr);
  const double lr = double(*lrPtr);
  AdamWStep s;
  s.ok = validStep(step);
  const double bc1 = __dsub_rn(1.0, pow(h.beta1, step));
  const double bc2 = __dsub_rn(1.0, pow(h.beta2, step));
  const double stepSize = __ddiv_rn(lr, bc1);
  s.decay = __double2float_rn(__dsub_rn(1.0, __dmul_rn(lr, h.wd)));
  s.bc2Sqrt = __double2float_rn(__dsqrt_rn(bc2));
  s.negStepSize = __double2float_rn(-stepSize);
  s.gradScale = *gradScalePtr;
  return s;
}

/// adamwStep computed once per block by thread 0 and handed to every
/// thread. Every thread of the block must call it (it synchronizes).
__device__ __forceinline__ AdamWStep adamwBlockStep(const AdamWHyper &h,
                                                    const float *lr,
                                                    const float *step,
                                                    const float *gradScale) {
  __shared__ AdamWStep shared;
  if (threadIdx.x == 0)
    shared = adamwStep(h, lr, step, gradScale);
  __syncthreads();
  return shared;
}

/// One element: param, m (exp_avg) and v (exp_avg_sq) are updated in place
/// from the gradient (already widened to f32).
__device__ __forceinline__ void adamwElement(const AdamWHyper &h,
                                             const AdamWStep &s, float grad,
                                             float &param, float &m, float &v) {
  if (!s.ok) {
    param = m = v = NAN;
    return;
  }
  const float g = __fmul_rn(grad, s.gradScale);
  float pv = __fmul_rn(param, s.decay); // param.mul_(1 - lr * wd)
  m = lerpRn(m, g, h.avgWeight);        // exp_avg.lerp_(g, 1 - beta1)
  v = __fmul_rn(v, h.beta2f);           // exp_avg_sq.mul_(beta2)
  v = __fadd_rn(v, __fmul_rn(__fmul_rn(h.sqWeight, g), g)); // .addcmul_
  const float denom = __fadd_rn(__fdiv_rn(__fsqrt_rn(v), s.bc2Sqrt), h.epsf);
  pv = __fadd_rn(pv, __fdiv_rn(__fmul_rn(s.negStepSize, m), denom));
  param = pv;
}

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_ADAMWMATH_CUH

//===- Linear.cpp - Matmul with bias and activation ------------*- C++ -*-===//
//
// The fused linear instruction on the CPU: the MatMul kernel, then the bias
// add and the activation (or the residual add) in place, so its numbers are
// the unfused ops'.
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuKernels.h"
#include "paracc/runtime/LinearAddends.h"

namespace paracc::rt {

Status runLinearKernel(const KernelArgs &args) {
  // A group of "first member only" must have been resolved by the runner
  // (LinearAddends.h).
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 4, 1));
  LinearForm form;
  PARACC_RETURN_IF_ERROR(
      decodeLinear(args.attrsAs<LinearAttrs>(), args.in.size(), form));
  const bool hasBias = form.bias, hasResidual = form.residual;
  Tensor &y = *args.out[0];
  const Tensor &x = *args.in[0], &w = *args.in[1];
  if (y.dtype() != x.dtype()) {
    // f32_result: bf16/f16 operands, the unrounded product in f32 (the
    // operands widen exactly).
    if (y.dtype() != DType::F32 ||
        (x.dtype() != DType::BF16 && x.dtype() != DType::F16))
      return args.fail("result ", dtypeName(y.dtype()), " of ",
                       dtypeName(x.dtype()),
                       " operands (only bf16/f16 -> f32 products)");
    if (hasBias || hasResidual || form.activation != 0)
      return args.fail("an f32 result takes no bias, residual or activation");
    auto xf = Tensor::allocate(DType::F32, x.shape());
    auto wf = Tensor::allocate(DType::F32, w.shape());
    if (!xf)
      return xf.status();
    if (!wf)
      return wf.status();
    PARACC_RETURN_IF_ERROR(runCpuKernel(OpCode::Cast, OpAttrs(), {&x}, {&*xf}));
    PARACC_RETURN_IF_ERROR(runCpuKernel(OpCode::Cast, OpAttrs(), {&w}, {&*wf}));
    return runCpuKernel(OpCode::MatMul, OpAttrs(), {&*xf, &*wf}, {&y})
        .withContext(args.name());
  }
  PARACC_RETURN_IF_ERROR(
      runCpuKernel(OpCode::MatMul, OpAttrs(), {args.in[0], args.in[1]}, {&y})
          .withContext(args.name()));
  if (hasBias) {
    const Tensor &bias = *args.in[2];
    if (bias.rank() != 1 || y.rank() < 1 || bias.dim(0) != y.shape().back())
      return args.fail("bias ", bias.typeString(), " does not fit ",
                       y.typeString());
    PARACC_RETURN_IF_ERROR(
        runCpuKernel(OpCode::Add, OpAttrs(), {&y, &bias}, {&y})
            .withContext(args.name()));
  }
  if (hasResidual) {
    const Tensor &residual = *args.in.back();
    if (residual.dtype() != y.dtype() || residual.shape() != y.shape())
      return args.fail("residual ", residual.typeString(), " is not ",
                       y.typeString());
    return runCpuKernel(OpCode::Add, OpAttrs(), {&residual, &y}, {&y})
        .withContext(args.name());
  }
  switch (form.activation) {
  case 1:
    return runCpuKernel(OpCode::Gelu, GeluAttrs{true}, {&y}, {&y})
        .withContext(args.name());
  case 2:
    return runCpuKernel(OpCode::Gelu, GeluAttrs{false}, {&y}, {&y})
        .withContext(args.name());
  case 3:
    return runCpuKernel(OpCode::Relu, OpAttrs(), {&y}, {&y})
        .withContext(args.name());
  default:
    return Status::ok();
  }
}

} // namespace paracc::rt

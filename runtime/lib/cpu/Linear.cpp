//===- Linear.cpp - Matmul with bias and activation ------------*- C++ -*-===//
//
// The fused linear instruction on the CPU: the MatMul kernel, then the bias
// add and the activation in place, so its numbers are the unfused ops'.
//
//===----------------------------------------------------------------------===//

#include "cpu/KernelUtil.h"

namespace paracc::rt {

Status runLinearKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 3, 1));
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(1, 0));
  PARACC_RETURN_IF_ERROR(args.checkIntAttr(0, 0, 3, "activation"));
  Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(
      runCpuKernel(OpCode::MatMul, {}, {args.in[0], args.in[1]}, {&y})
          .withContext(args.name()));
  if (args.in.size() == 3) {
    const Tensor &bias = *args.in[2];
    if (bias.rank() != 1 || y.rank() < 1 || bias.dim(0) != y.shape().back())
      return args.fail("bias ", bias.typeString(), " does not fit ",
                       y.typeString());
    PARACC_RETURN_IF_ERROR(runCpuKernel(OpCode::Add, {}, {&y, &bias}, {&y})
                               .withContext(args.name()));
  }
  switch (args.attrs.ints[0]) {
  case 1:
    return runCpuKernel(OpCode::Gelu, {{1}, {}}, {&y}, {&y})
        .withContext(args.name());
  case 2:
    return runCpuKernel(OpCode::Gelu, {{0}, {}}, {&y}, {&y})
        .withContext(args.name());
  case 3:
    return runCpuKernel(OpCode::Relu, {}, {&y}, {&y}).withContext(args.name());
  default:
    return Status::ok();
  }
}

} // namespace paracc::rt

//===- KernelDispatch.cpp - Opcode table and CPU kernel entry -------------===//
//
// runCpuKernel: the checks shared by every instruction (null, invalid or
// aliased operands) before forwarding to the kernel family.
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuKernels.h"

#include <cstring>
#include <exception>
#include <new>

namespace paracc::rt {

namespace {

Status dispatch(const KernelArgs &args) {
  if (isUnaryElementwise(args.op))
    return runUnaryKernel(args);
  if (isBinaryElementwise(args.op))
    return runBinaryKernel(args);
  switch (args.op) {
  case OpCode::Where:
    return runWhereKernel(args);
  case OpCode::Cast:
    return runCastKernel(args);
  case OpCode::Clip:
    return runClipKernel(args);
  case OpCode::FusedElementwise:
    return runFusedElementwiseKernel(args);
  case OpCode::MatMul:
    return runMatMulKernel(args);
  case OpCode::Gemm:
    return runGemmKernel(args);
  case OpCode::LayerNorm:
  case OpCode::RmsNorm:
    return runNormKernel(args);
  case OpCode::Softmax:
  case OpCode::LogSoftmax:
    return runSoftmaxKernel(args);
  case OpCode::Gather:
    return runGatherKernel(args);
  case OpCode::GatherElements:
    return runGatherElementsKernel(args);
  case OpCode::GatherND:
    return runGatherNDKernel(args);
  case OpCode::Reshape:
    return runReshapeKernel(args);
  case OpCode::Transpose:
    return runTransposeKernel(args);
  case OpCode::Slice:
    return runSliceKernel(args);
  case OpCode::Concat:
    return runConcatKernel(args);
  case OpCode::Split:
    return runSplitKernel(args);
  case OpCode::Expand:
    return runExpandKernel(args);
  case OpCode::ReduceSum:
  case OpCode::ReduceMean:
  case OpCode::ReduceMax:
  case OpCode::ReduceMin:
  case OpCode::ReduceProd:
  case OpCode::ReduceSumSquare:
    return runReduceKernel(args);
  case OpCode::ArgMax:
  case OpCode::ArgMin:
    return runArgReduceKernel(args);
  case OpCode::TopK:
    return runTopKKernel(args);
  case OpCode::MoeExperts:
  case OpCode::MoeExpertsGrad:
    return runMoeExpertsKernel(args);
  case OpCode::ExpertLoad:
    return runExpertLoadKernel(args);
  case OpCode::SoftmaxCrossEntropy:
  case OpCode::NllLoss:
    return runLossKernel(args);
  case OpCode::Range:
    return runRangeKernel(args);
  case OpCode::CumSum:
    return runCumSumKernel(args);
  case OpCode::Trilu:
    return runTriluKernel(args);
  case OpCode::Dropout:
    return runDropoutKernel(args);
  case OpCode::Attention:
    return runAttentionKernel(args);
  case OpCode::AttentionMerge:
    return runAttentionMergeKernel(args);
  case OpCode::Linear:
    return runLinearKernel(args);
  case OpCode::LayerNormGrad:
  case OpCode::RmsNormGrad:
    return runNormGradKernel(args);
  case OpCode::GeluGrad:
    return runGeluGradKernel(args);
  case OpCode::SiluMul:
    return runSiluMulKernel(args);
  case OpCode::SiluMulGrad:
    return runSiluMulGradKernel(args);
  case OpCode::Rotary:
    return runRotaryKernel(args);
  case OpCode::Conv:
    return runConvKernel(args);
  case OpCode::Pool:
    return runPoolKernel(args);
  case OpCode::ConvTranspose:
    return runConvTransposeKernel(args);
  case OpCode::ConvWeightGrad:
    return runConvWeightGradKernel(args);
  case OpCode::PoolGrad:
    return runPoolGradKernel(args);
  case OpCode::AttentionGrad:
    return runAttentionGradKernel(args);
  case OpCode::CrossEntropyGrad:
    return runCrossEntropyGradKernel(args);
  case OpCode::GatherGrad:
    return runGatherGradKernel(args);
  case OpCode::AdamW:
    return runAdamWKernel(args);
  case OpCode::Sgd:
    return runSgdKernel(args);
  case OpCode::ForeachAdamW:
    return runForeachAdamWKernel(args);
  case OpCode::ForeachSumSquare:
    return runForeachSumSquareKernel(args);
  case OpCode::ForeachCast:
    return runForeachCastKernel(args);
  default:
    return args.fail("not a compute instruction");
  }
}

} // namespace

Status checkCpuDType(const KernelArgs &args, const Tensor &t, TypeSet set,
                     const char *what) {
  return args.checkDType(t, set, what);
}

bool allowsExactInPlace(OpCode op) {
  if (op <= OpCode::Where)
    return true; // Unary, binary and Where come first in OpCodes.def.
  // GeluGrad and the optimizer updates are elementwise too (the optimizers'
  // scalar operands are read before any result is written).
  return op == OpCode::Cast || op == OpCode::Clip || op == OpCode::Reshape ||
         op == OpCode::GeluGrad || op == OpCode::SiluMul ||
         op == OpCode::SiluMulGrad || op == OpCode::AdamW || op == OpCode::Sgd ||
         op == OpCode::ForeachAdamW || op == OpCode::ForeachCast;
}

/// The tensor (j) of a multi-tensor op that operand or result `index`
/// belongs to: a result may work in place only on its own tensor's
/// operands, since other blocks may read another tensor's operands after it
/// is written. -1 for operands every tensor reads (ForeachAdamW's lr, step
/// and grad_scale). 0 for the other ops.
int64_t inPlaceTensorOf(const KernelArgs &args, bool isResult, size_t index) {
  switch (args.op) {
  case OpCode::ForeachAdamW: {
    const size_t n = foreachAdamWTensors(args.in.size());
    if (n == 0)
      return 0; // Malformed; the op's checks say so.
    if (!isResult && index >= 4 * n)
      return -1;
    return int64_t(index % n);
  }
  case OpCode::ForeachSumSquare:
  case OpCode::ForeachCast:
    return int64_t(index);
  default:
    return 0;
  }
}

Status checkTensor(const KernelArgs &args, const Tensor *t, const char *kind,
                   size_t i) {
  if (!t)
    return args.fail(kind, " ", i, " is null");
  if (!isSupportedDType(static_cast<int>(t->dtype())))
    return args.fail(kind, " ", i, " has unsupported element type ",
                     static_cast<int>(t->dtype()));
  if (t->numElements() < 0 || shapeNumElements(t->shape()) != t->numElements())
    return args.fail(kind, " ", i, " has an invalid shape ",
                     shapeToString(t->shape()));
  // The product of the non-zero dimensions, in bytes, must fit in int64 even
  // when the tensor is empty, so that no partial product of dimensions a
  // kernel forms (strides, block sizes) can overflow.
  int64_t extent = static_cast<int64_t>(dtypeSize(t->dtype()));
  for (int64_t d : t->shape()) {
    if (d != 0 && __builtin_mul_overflow(extent, d, &extent))
      return args.fail(kind, " ", i, " (", t->typeString(), ") is too large");
  }
  if (t->numElements() > 0 && !t->data())
    return args.fail(kind, " ", i, " (", t->typeString(), ") has no buffer");
  return Status::ok();
}

/// runCpuKernel without the exception guard.
static Status runCpuKernelImpl(OpCode op, const OpAttrs &attrs,
                               const std::vector<const Tensor *> &inputs,
                               const std::vector<Tensor *> &outputs) {
  if (static_cast<size_t>(op) >= static_cast<size_t>(OpCode::NumOpCodes))
    return errorf("unknown: opcode ", static_cast<unsigned>(op),
                  " is out of range");
  const KernelArgs args{op, attrs, inputs, outputs};
  PARACC_RETURN_IF_ERROR(checkKernelCall(args, "CPU"));

  // Results that overlap operands are computed into scratch buffers (unless
  // the op works in place); results overlapping each other are an error.
  UnsafeOverlap overlap;
  PARACC_RETURN_IF_ERROR(findUnsafeOverlap(args, overlap));
  if (!overlap.found)
    return dispatch(args);

  std::vector<Tensor> temps;
  temps.reserve(outputs.size());
  std::vector<Tensor *> tempPtrs;
  for (const Tensor *out : outputs) {
    StatusOr<Tensor> t = Tensor::allocate(out->dtype(), out->shape());
    if (!t)
      return args.fail(t.status().message());
    temps.push_back(std::move(*t));
    tempPtrs.push_back(&temps.back());
  }
  const KernelArgs scratchArgs{op, attrs, inputs, tempPtrs};
  PARACC_RETURN_IF_ERROR(dispatch(scratchArgs));
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (outputs[o]->byteSize())
      std::memcpy(outputs[o]->data(), temps[o].data(), temps[o].byteSize());
  }
  return Status::ok();
}

Status runCpuKernel(OpCode op, const OpAttrs &attrs,
                    const std::vector<const Tensor *> &inputs,
                    const std::vector<Tensor *> &outputs) {
  // Scratch vectors can fail to allocate; callers get a Status, never an
  // exception.
  try {
    if (!attrsFitOpCode(op, attrs))
      return errorf(opCodeMnemonic(op),
                    ": the attributes are another opcode's");
    return runCpuKernelImpl(op, attrs, inputs, outputs);
  } catch (const std::bad_alloc &) {
    return errorf(opCodeMnemonic(op), ": out of memory");
  } catch (const std::exception &e) {
    return errorf(opCodeMnemonic(op), ": ", e.what());
  }
}

Status runCpuKernel(OpCode op, const InstrAttrs &attrs,
                    const std::vector<const Tensor *> &inputs,
                    const std::vector<Tensor *> &outputs) {
  OpAttrs typed;
  PARACC_RETURN_IF_ERROR(decodeOpAttrs(op, attrs, typed));
  return runCpuKernel(op, typed, inputs, outputs);
}

StatusOr<Tensor> castOnCpu(const Tensor &x, DType to) {
  auto y = Tensor::allocate(to, x.shape());
  if (!y)
    return y.status();
  PARACC_RETURN_IF_ERROR(runCpuKernel(OpCode::Cast, OpAttrs{}, {&x}, {&*y}));
  return std::move(*y);
}

} // namespace paracc::rt

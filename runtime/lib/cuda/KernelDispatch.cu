//===- KernelDispatch.cu - GPU kernel entry points ------------------------===//
//
// hasKernel and launchKernel: the checks shared by every instruction (null,
// invalid or overlapping operands), then the kernel family. Operands are
// validated through host views of the device tensors with the CPU kernels'
// KernelArgs, so that errors read like the CPU's ("<mnemonic>: ...").
//
//===----------------------------------------------------------------------===//

#include "cuda/AttentionKernel.h"
#include "cuda/CudaKernelUtil.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <new>

namespace paracc::rt::cuda {

//===----------------------------------------------------------------------===//
// Shared helpers.
//===----------------------------------------------------------------------===//

Status checkLaunch(const char *name) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    return errorf(name,
                  ": CUDA kernel launch failed: ", cudaGetErrorString(err));
  return Status::ok();
}

HostViews::HostViews(const std::vector<DeviceTensor> &inputs,
                     const std::vector<DeviceTensor> &outputs) {
  inStorage.reserve(inputs.size());
  outStorage.reserve(outputs.size());
  for (const DeviceTensor &t : inputs) {
    inStorage.push_back(Tensor::borrow(t.dtype, t.shape, t.data));
    in.push_back(&inStorage.back());
  }
  for (const DeviceTensor &t : outputs) {
    outStorage.push_back(Tensor::borrow(t.dtype, t.shape, t.data));
    out.push_back(&outStorage.back());
  }
}

int deviceSMCount() {
  constexpr int kMaxDevices = 64;
  constexpr int kFallback = 132; // H100/H200.
  static std::atomic<int> cache[kMaxDevices];
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= kMaxDevices) {
    (void)cudaGetLastError();
    return kFallback;
  }
  const int cached = cache[dev].load(std::memory_order_relaxed);
  if (cached > 0)
    return cached;
  int n = 0;
  if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) !=
          cudaSuccess ||
      n <= 0) {
    (void)cudaGetLastError();
    return kFallback;
  }
  cache[dev].store(n, std::memory_order_relaxed);
  return n;
}

Status checkGpuDType(const KernelArgs &args, const Tensor &t, TypeSet set,
                     const char *what) {
  PARACC_RETURN_IF_ERROR(args.checkDType(t, set, what));
  if (!isGpuComputeDType(t.dtype()))
    return args.fail(what, " (", t.typeString(), ") has no GPU kernel");
  return Status::ok();
}

namespace {

constexpr size_t kNumOpCodes = static_cast<size_t>(OpCode::NumOpCodes);

/// Whether a dtype is one the runtime knows (element sizes 1, 2, 4, 8).
bool isMovable(DType d) {
  return isSupportedDType(static_cast<int>(d)) && dtypeSize(d) != 0;
}

bool isFloatGpu(DType d) { return gpuDTypeInSet(d, TypeSet::Float); }

Status dispatch(const KernelArgs &args, cudaStream_t stream) {
  if (isUnaryElementwise(args.op))
    return launchUnary(args, stream);
  if (isBinaryElementwise(args.op))
    return launchBinary(args, stream);
  switch (args.op) {
  case OpCode::Where:
    return launchWhere(args, stream);
  case OpCode::Cast:
    return launchCast(args, stream);
  case OpCode::Clip:
    return launchClip(args, stream);
  case OpCode::LayerNorm:
  case OpCode::RmsNorm:
    return launchNorm(args, stream);
  case OpCode::Softmax:
  case OpCode::LogSoftmax:
    return launchSoftmax(args, stream);
  case OpCode::Gather:
    return launchGather(args, stream);
  case OpCode::GatherElements:
    return launchGatherElements(args, stream);
  case OpCode::GatherND:
    return launchGatherND(args, stream);
  case OpCode::Reshape:
    return launchReshape(args, stream);
  case OpCode::Transpose:
    return launchTranspose(args, stream);
  case OpCode::Slice:
    return launchSlice(args, stream);
  case OpCode::Concat:
    return launchConcat(args, stream);
  case OpCode::Split:
    return launchSplit(args, stream);
  case OpCode::Expand:
    return launchExpand(args, stream);
  case OpCode::ReduceSum:
  case OpCode::ReduceMean:
  case OpCode::ReduceMax:
  case OpCode::ReduceMin:
  case OpCode::ReduceProd:
  case OpCode::ReduceSumSquare:
    return launchReduce(args, stream);
  case OpCode::ArgMax:
  case OpCode::ArgMin:
    return launchArgReduce(args, stream);
  case OpCode::TopK:
    return launchTopK(args, stream);
  case OpCode::ExpertLoad:
    return launchExpertLoad(args, stream);
  case OpCode::Range:
    return launchRange(args, stream);
  case OpCode::Dropout:
    return launchDropout(args, stream);
  case OpCode::CumSum:
    return launchCumSum(args, stream);
  case OpCode::Trilu:
    return launchTrilu(args, stream);
  case OpCode::SoftmaxCrossEntropy:
  case OpCode::NllLoss:
    return launchLoss(args, stream);
  case OpCode::LayerNormGrad:
  case OpCode::RmsNormGrad:
    return launchNormGrad(args, stream);
  case OpCode::GeluGrad:
    return launchGeluGrad(args, stream);
  case OpCode::SiluMul:
    return launchSiluMul(args, stream);
  case OpCode::SiluMulGrad:
    return launchSiluMulGrad(args, stream);
  case OpCode::Rotary:
    return launchRotary(args, stream);
  case OpCode::Pool:
    return launchPool(args, stream);
  case OpCode::PoolGrad:
    return launchPoolGrad(args, stream);
  case OpCode::AttentionMerge:
    return launchAttentionMerge(args, stream);
  case OpCode::CrossEntropyGrad:
    return launchCrossEntropyGrad(args, stream);
  case OpCode::GatherGrad:
    return launchGatherGrad(args, stream);
  case OpCode::AdamW:
    return launchAdamW(args, stream);
  case OpCode::Sgd:
    return launchSgd(args, stream);
  case OpCode::ForeachAdamW:
    return launchForeachAdamW(args, stream);
  case OpCode::ForeachSumSquare:
    return launchForeachSumSquare(args, stream);
  case OpCode::ForeachCast:
    return launchForeachCast(args, stream);
  default:
    return args.fail("has no GPU kernel");
  }
}

Status launchKernelImpl(OpCode op, const OpAttrs &attrs,
                        const std::vector<DeviceTensor> &inputs,
                        const std::vector<DeviceTensor> &outputs,
                        cudaStream_t stream, const KernelOptions &options) {
  if (static_cast<size_t>(op) >= kNumOpCodes)
    return errorf("unknown: opcode ", static_cast<unsigned>(op),
                  " is out of range");
  const HostViews views(inputs, outputs);
  const std::vector<const Tensor *> &in = views.in;
  const std::vector<Tensor *> &out = views.out;
  const KernelArgs args{op, attrs, in, out};
  if (op == OpCode::MatMul || op == OpCode::Gemm)
    return args.fail("matrix products run through cuBLASLt (Gemm.h), not "
                     "launchKernel");
  PARACC_RETURN_IF_ERROR(checkKernelCall(args, "GPU"));

  // The GPU kernels use no scratch buffers: a result may be an operand's
  // very buffer only for ops that work in place; any other overlap is an
  // error (the CPU would compute into a scratch buffer).
  UnsafeOverlap overlap;
  PARACC_RETURN_IF_ERROR(findUnsafeOverlap(args, overlap));
  if (overlap.found && overlap.otherTensor)
    return args.fail("result ", overlap.result, " is operand ", overlap.operand,
                     " of another tensor (multi-tensor ops only work in "
                     "place tensor by tensor)");
  if (overlap.found)
    return args.fail("result ", overlap.result, " overlaps operand ",
                     overlap.operand,
                     " (GPU kernels only work exactly in place, and only "
                     "for elementwise ops)");

  if (op == OpCode::Attention) {
    if (outputs.empty() || outputs.size() > 2)
      return args.fail("expected 1 or 2 results, got ", outputs.size());
    return launchAttention(std::get<AttentionAttrs>(attrs), inputs, outputs,
                           stream, options);
  }
  return dispatch(args, stream);
}

} // namespace

//===----------------------------------------------------------------------===//
// Public entry points.
//===----------------------------------------------------------------------===//

bool hasKernel(OpCode op, const std::vector<DType> &operandTypes) {
  const std::vector<DType> &t = operandTypes;
  auto at = [&](size_t i) { return i < t.size() ? t[i] : DType::Invalid; };
  auto isIndex = [](DType d) { return d == DType::I32 || d == DType::I64; };
  // Every entry of t is f32 (the optimizers' operands).
  auto allF32 = [&]() {
    for (DType d : t) {
      if (d != DType::F32)
        return false;
    }
    return true;
  };
  auto allMovable = [&]() {
    if (t.empty())
      return false;
    for (DType d : t) {
      if (!isMovable(d) || d != t[0])
        return false;
    }
    return true;
  };
  if (isUnaryElementwise(op))
    return unaryHasKernel(op, at(0));
  if (isBinaryElementwise(op))
    return (t.size() < 2 || at(1) == at(0)) && binaryHasKernel(op, at(0));
  switch (op) {
  case OpCode::Where:
    return at(0) == DType::Bool && isMovable(at(1)) &&
           (t.size() < 3 || at(2) == at(1));
  case OpCode::Cast:
    // The operand type; a second entry, when given, is the result type.
    return isGpuCastDType(at(0)) && (t.size() < 2 || isGpuCastDType(at(1)));
  case OpCode::Clip:
    return gpuDTypeInSet(at(0), TypeSet::Numeric);
  case OpCode::Dropout:
    return isFloatGpu(at(0));
  case OpCode::LayerNorm:
  case OpCode::RmsNorm:
    // x, scale[, bias] of one floating type.
    return isFloatGpu(at(0)) && (t.size() < 2 || at(1) == at(0)) &&
           (t.size() < 3 || at(2) == at(0));
  case OpCode::Softmax:
  case OpCode::LogSoftmax:
    return isFloatGpu(at(0));
  case OpCode::Gather:
  case OpCode::GatherElements:
  case OpCode::GatherND:
    return isMovable(at(0)) &&
           (t.size() < 2 || at(1) == DType::I32 || at(1) == DType::I64);
  case OpCode::Reshape:
  case OpCode::Transpose:
  case OpCode::Slice:
  case OpCode::Split:
  case OpCode::Expand:
  case OpCode::Trilu:
    return isMovable(at(0));
  case OpCode::Concat:
    return allMovable();
  case OpCode::ReduceSum:
  case OpCode::ReduceMean:
  case OpCode::ReduceProd:
  case OpCode::CumSum:
  case OpCode::Range:
    return gpuDTypeInSet(at(0), TypeSet::Numeric);
  case OpCode::ReduceSumSquare:
    return gpuDTypeInSet(at(0), TypeSet::Float);
  case OpCode::ReduceMax:
  case OpCode::ReduceMin:
  case OpCode::ArgMax:
  case OpCode::ArgMin:
  case OpCode::TopK:
    return gpuDTypeInSet(at(0), TypeSet::All);
  case OpCode::ExpertLoad:
    return at(0) == DType::I64 && (t.size() < 2 || at(1) == DType::F32);
  case OpCode::Attention:
    return isFloatGpu(at(0));
  case OpCode::AttentionMerge:
    // out, stats, partial, partial stats: one floating type, f32 stats.
    return isFloatGpu(at(0)) && (t.size() < 2 || at(1) == DType::F32) &&
           (t.size() < 3 || at(2) == at(0)) &&
           (t.size() < 4 || at(3) == DType::F32);
  case OpCode::SoftmaxCrossEntropy:
  case OpCode::NllLoss:
    // scores, labels[, weight].
    return isFloatGpu(at(0)) && (t.size() < 2 || isIndex(at(1))) &&
           (t.size() < 3 || at(2) == at(0));
  case OpCode::LayerNormGrad:
  case OpCode::RmsNormGrad:
    // dy, x, scale[, accumulate] of one floating type.
    return isFloatGpu(at(0)) && (t.size() < 2 || at(1) == at(0)) &&
           (t.size() < 3 || at(2) == at(0)) && (t.size() < 4 || at(3) == at(0));
  case OpCode::GeluGrad:
    return isFloatGpu(at(0)) && (t.size() < 2 || at(1) == at(0));
  case OpCode::SiluMul:
  case OpCode::SiluMulGrad:
  case OpCode::Rotary:
  case OpCode::Pool:
  case OpCode::PoolGrad:
    return isFloatGpu(at(0)) &&
           std::all_of(t.begin(), t.end(), [&](DType d) { return d == at(0); });
  case OpCode::CrossEntropyGrad:
    // dloss, scores, labels[, weight of the scores' type][, f32 stats]: a
    // fourth operand of another type than the scores is the statistics.
    return isFloatGpu(at(0)) &&
           (t.size() < 2 ||
            (isFloatGpu(at(1)) &&
             isLossDTypeOf(at(0), at(1), t.size() > 3 && at(3) == at(1)))) &&
           (t.size() < 3 || isIndex(at(2))) &&
           (t.size() < 4 || at(3) == at(1) || at(3) == DType::F32) &&
           (t.size() < 5 || at(4) == DType::F32);
  case OpCode::GatherGrad:
    // dy, indices[, accumulate of dy's type].
    return isFloatGpu(at(0)) && (t.size() < 2 || isIndex(at(1))) &&
           (t.size() < 3 || at(2) == at(0));
  case OpCode::AdamW:
  case OpCode::Sgd:
    return !t.empty() && allF32();
  case OpCode::ForeachAdamW: {
    // param_0..N-1, grad_0..N-1, exp_avg_0..N-1, exp_avg_sq_0..N-1, lr,
    // step, grad_scale: f32 but the grads (f32, bf16 or f16).
    if (t.size() < 7 || (t.size() - 3) % 4 != 0)
      return false;
    const size_t n = (t.size() - 3) / 4;
    for (size_t i = 0; i < t.size(); ++i) {
      const bool grad = i >= n && i < 2 * n;
      if (grad ? !isFloatGpu(t[i]) : t[i] != DType::F32)
        return false;
    }
    return true;
  }
  case OpCode::ForeachSumSquare:
    return !t.empty() && std::all_of(t.begin(), t.end(), isFloatGpu);
  case OpCode::ForeachCast:
    // As for Cast: the operands' element type; a second entry, when given,
    // is the results' (the executor passes both). f32, bf16 and f16 to each
    // other, or a same-type copy.
    return foreachCastHasKernel(at(0), t.size() < 2 ? at(0) : at(1));
  default:
    // MatMul/Gemm (cuBLASLt), collectives, LocalShard (copyBlock by the
    // executor), AxisIndex, AttentionGrad: not here.
    return false;
  }
}

Status launchKernel(OpCode op, const OpAttrs &attrs,
                    const std::vector<DeviceTensor> &inputs,
                    const std::vector<DeviceTensor> &outputs,
                    cudaStream_t stream, const KernelOptions &options) {
  try {
    if (!attrsFitOpCode(op, attrs))
      return errorf(opCodeMnemonic(op),
                    ": the attributes are another opcode's");
    return launchKernelImpl(op, attrs, inputs, outputs, stream, options);
  } catch (const std::bad_alloc &) {
    return errorf(opCodeMnemonic(op), ": out of memory");
  } catch (const std::exception &e) {
    return errorf(opCodeMnemonic(op), ": ", e.what());
  }
}

Status launchKernel(OpCode op, const InstrAttrs &attrs,
                    const std::vector<DeviceTensor> &inputs,
                    const std::vector<DeviceTensor> &outputs,
                    cudaStream_t stream, const KernelOptions &options) {
  OpAttrs typed;
  PARACC_RETURN_IF_ERROR(decodeOpAttrs(op, attrs, typed));
  return launchKernel(op, typed, inputs, outputs, stream, options);
}

} // namespace paracc::rt::cuda

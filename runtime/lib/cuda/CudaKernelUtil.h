//===- CudaKernelUtil.h - Host-side helpers of the CUDA kernels -*- C++ -*-===//
//
// Private to the CUDA backend. The kernel families validate their operands
// with the CPU kernels' KernelArgs (Kernels/KernelUtil.h) over host views of
// the device tensors (Tensor::borrow of device pointers, never dereferenced on
// the host), so that GPU and CPU report the same errors. This header
// declares the GPU element type sets, the launch helpers and the entry point
// of every kernel family; KernelDispatch.cu calls them after the checks
// shared by every instruction.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_CUDAKERNELUTIL_H
#define PARACC_RUNTIME_CUDA_CUDAKERNELUTIL_H

#include "Kernels/KernelUtil.h"
#include "cuda/CudaKernels.h"

#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector>

namespace paracc::rt::cuda {

//===----------------------------------------------------------------------===//
// Element types on the GPU.
//===----------------------------------------------------------------------===//

/// Whether the GPU kernels compute on element type `d`: f32, bf16, f16
/// (computed in f32), i32, i64 and bool. Kernels that only move elements
/// (shape ops, gathers) accept every element type whatever its size.
inline bool isGpuComputeDType(DType d) {
  return d == DType::F32 || d == DType::F16 || d == DType::BF16 ||
         d == DType::I32 || d == DType::I64 || d == DType::Bool;
}

/// Element types of Cast on the GPU (both sides).
inline bool isGpuCastDType(DType d) {
  return isGpuComputeDType(d) || d == DType::F64 || d == DType::I8 ||
         d == DType::U8;
}

/// `d` is in `set` and has GPU arithmetic.
inline bool gpuDTypeInSet(DType d, TypeSet set) {
  return isGpuComputeDType(d) && dtypeInSet(d, set);
}

/// Checks like KernelArgs::checkDType (same message), then that the type
/// has GPU arithmetic.
Status checkGpuDType(const KernelArgs &args, const Tensor &t, TypeSet set,
                     const char *what);

/// Calls f(DTypeTag<D>{}) for the GPU compute type `d` of `Set`; only those
/// types instantiate f.
template <TypeSet Set, typename F>
Status visitGpuDType(const KernelArgs &args, DType d, F &&f) {
  auto call = [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    if constexpr (kInSet<Set, D>)
      return f(tag);
    else
      return args.fail("element type ", dtypeName(D), " is not ",
                       typeSetName(Set));
  };
  switch (d) {
  case DType::F32:
    return call(DTypeTag<DType::F32>{});
  case DType::F16:
    return call(DTypeTag<DType::F16>{});
  case DType::BF16:
    return call(DTypeTag<DType::BF16>{});
  case DType::I32:
    return call(DTypeTag<DType::I32>{});
  case DType::I64:
    return call(DTypeTag<DType::I64>{});
  case DType::Bool:
    return call(DTypeTag<DType::Bool>{});
  default:
    return args.fail("element type ", dtypeName(d), " has no GPU kernel");
  }
}

//===----------------------------------------------------------------------===//
// Launch helpers.
//===----------------------------------------------------------------------===//

/// Reports the error of the last kernel launch, if any, as
/// "<name>: CUDA kernel launch failed: <reason>".
Status checkLaunch(const char *name);
inline Status checkLaunch(const KernelArgs &args) {
  return checkLaunch(args.name());
}

/// Multiprocessors of the current device (cached per device; 132 if the
/// query fails).
int deviceSMCount();

/// Host views of device tensors, for the checks the CPU kernels share
/// (KernelArgs over them; the data is never dereferenced on the host).
class HostViews {
public:
  HostViews(const std::vector<DeviceTensor> &inputs,
            const std::vector<DeviceTensor> &outputs);
  HostViews(const HostViews &) = delete;
  HostViews &operator=(const HostViews &) = delete;

  std::vector<const Tensor *> in;
  std::vector<Tensor *> out;

private:
  std::vector<Tensor> inStorage, outStorage;
};

inline bool isAligned(const void *p, size_t bytes) {
  return reinterpret_cast<uintptr_t>(p) % bytes == 0;
}

/// ceil(a / b) for positive b.
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Stream-ordered device scratch memory (cudaMallocAsync, which also works
/// under CUDA graph capture), freed in stream order when it goes out of
/// scope; null when it cannot be allocated.
class StreamScratch {
public:
  StreamScratch(size_t bytes, cudaStream_t stream) : stream_(stream) {
    if (bytes && cudaMallocAsync(&ptr_, bytes, stream) != cudaSuccess) {
      (void)cudaGetLastError();
      ptr_ = nullptr;
    }
  }
  StreamScratch(const StreamScratch &) = delete;
  StreamScratch &operator=(const StreamScratch &) = delete;
  ~StreamScratch() {
    if (ptr_)
      (void)cudaFreeAsync(ptr_, stream_);
  }
  template <typename T> T *get() const { return static_cast<T *>(ptr_); }

private:
  void *ptr_ = nullptr;
  cudaStream_t stream_;
};

/// The most dimensions of a strided iteration (after merging).
constexpr int kMaxDims = 8;

/// Copies a strided view: for every index i of `dims`, dst[sum i*dstStrides]
/// = src[sum i*srcStrides] (element strides, element size `elemSize` of 1,
/// 2, 4 or 8 bytes). Dimensions are merged first; contiguous inner runs
/// move 16 bytes at a time when aligned; transpositions go through shared
/// memory tiles. `name` prefixes errors.
Status launchStridedCopy(const char *name, void *dst, const void *src,
                         size_t elemSize, const Shape &dims,
                         const std::vector<int64_t> &srcStrides,
                         const std::vector<int64_t> &dstStrides,
                         cudaStream_t stream);

//===----------------------------------------------------------------------===//
// Kernel families (operands already checked for null/invalid tensors).
//===----------------------------------------------------------------------===//

// Elementwise.cu
Status launchUnary(const KernelArgs &args, cudaStream_t stream);
Status launchBinary(const KernelArgs &args, cudaStream_t stream);
Status launchWhere(const KernelArgs &args, cudaStream_t stream);
Status launchCast(const KernelArgs &args, cudaStream_t stream);
Status launchClip(const KernelArgs &args, cudaStream_t stream);
bool unaryHasKernel(OpCode op, DType t);
bool binaryHasKernel(OpCode op, DType t);

// Normalization.cu
Status launchNorm(const KernelArgs &args, cudaStream_t stream);
Status launchSoftmax(const KernelArgs &args, cudaStream_t stream);

// DataMovement.cu
Status launchReshape(const KernelArgs &args, cudaStream_t stream);
Status launchTranspose(const KernelArgs &args, cudaStream_t stream);
Status launchSlice(const KernelArgs &args, cudaStream_t stream);
Status launchConcat(const KernelArgs &args, cudaStream_t stream);
Status launchSplit(const KernelArgs &args, cudaStream_t stream);
Status launchExpand(const KernelArgs &args, cudaStream_t stream);
Status launchGather(const KernelArgs &args, cudaStream_t stream);
Status launchGatherElements(const KernelArgs &args, cudaStream_t stream);
Status launchGatherND(const KernelArgs &args, cudaStream_t stream);
Status launchTrilu(const KernelArgs &args, cudaStream_t stream);

// Reduction.cu
Status launchReduce(const KernelArgs &args, cudaStream_t stream);
Status launchArgReduce(const KernelArgs &args, cudaStream_t stream);
Status launchTopK(const KernelArgs &args, cudaStream_t stream);

// Moe.cu (the experts themselves go through MoeKernels.h).
Status launchExpertLoad(const KernelArgs &args, cudaStream_t stream);
Status launchCumSum(const KernelArgs &args, cudaStream_t stream);

// Random.cu (also Range, which generates values rather than reading them).
Status launchRange(const KernelArgs &args, cudaStream_t stream);
Status launchDropout(const KernelArgs &args, cudaStream_t stream);

// TrainingKernels.cu: gradients (f32/bf16/f16), losses (f32/bf16/f16) and
// optimizer updates (f32).
/// LayerNormGrad, RmsNormGrad.
Status launchNormGrad(const KernelArgs &args, cudaStream_t stream);
Status launchGeluGrad(const KernelArgs &args, cudaStream_t stream);
/// SiluMul, SiluMulGrad (one floating type and shape).
Status launchSiluMul(const KernelArgs &args, cudaStream_t stream);
Status launchSiluMulGrad(const KernelArgs &args, cudaStream_t stream);
/// AttentionMerge.cu: AttentionMerge (f32/bf16/f16, f32 statistics).
Status launchAttentionMerge(const KernelArgs &args, cudaStream_t stream);
/// Rotary.cu: Rotary (f32/bf16/f16).
Status launchRotary(const KernelArgs &args, cudaStream_t stream);
/// Pool.cu: Pool and PoolGrad (f32/bf16/f16; max and average).
Status launchPool(const KernelArgs &args, cudaStream_t stream);
Status launchPoolGrad(const KernelArgs &args, cudaStream_t stream);
/// CrossEntropyGrad (a label out of range makes its gradient NaN).
Status launchCrossEntropyGrad(const KernelArgs &args, cudaStream_t stream);
/// GatherGrad (an index out of range contributes nothing).
Status launchGatherGrad(const KernelArgs &args, cudaStream_t stream);
/// SoftmaxCrossEntropy, NllLoss (a label out of range makes its loss NaN).
Status launchLoss(const KernelArgs &args, cudaStream_t stream);
/// AdamW, Sgd (an invalid step makes every result NaN).
Status launchAdamW(const KernelArgs &args, cudaStream_t stream);
Status launchSgd(const KernelArgs &args, cudaStream_t stream);

// ForeachKernels.cu: the multi-tensor forms, a few launches for many
// tensors.
/// ForeachAdamW (params and moments f32, grads f32/bf16/f16; an invalid step
/// makes every result NaN).
Status launchForeachAdamW(const KernelArgs &args, cudaStream_t stream);
/// ForeachSumSquare (f32/bf16/f16 operands; deterministic).
Status launchForeachSumSquare(const KernelArgs &args, cudaStream_t stream);
/// ForeachCast (f32/bf16/f16 to each other, or a same-type copy).
Status launchForeachCast(const KernelArgs &args, cudaStream_t stream);
/// Whether ForeachCast has a GPU kernel from element type `from` to `to`.
bool foreachCastHasKernel(DType from, DType to);

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_CUDAKERNELUTIL_H

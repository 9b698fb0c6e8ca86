//===- CudaKernels.h - CUDA kernels of the GPU backend ---------*- C++ -*-===//
//
// The contract between the GPU executor (GpuRank) and the CUDA kernels:
// every compute instruction of OpCodes.def that has a GPU implementation is
// launched through launchKernel on a stream, with device tensors whose
// element types and shapes follow the same rules as the CPU kernels
// (runtime/lib/cpu). Matrix products go through cuBLASLt (Gemm.h), not here.
//
// Element types on the GPU: f32, bf16, f16 for floating math (computed in
// f32), i64/i32 for indices, bool (one byte) for masks. Kernels check their
// operands and report unsupported combinations with an error naming the op;
// the executor then falls back to the CPU kernel for that instruction.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_CUDAKERNELS_H
#define PARACC_RUNTIME_CUDA_CUDAKERNELS_H

#include "paracc/runtime/Kernels.h"
#include "paracc/runtime/Status.h"
#include "paracc/runtime/Tensor.h"

#include <cuda_runtime_api.h>
#include <vector>

namespace paracc::rt::cuda {

/// A tensor in device memory (not owned).
struct DeviceTensor {
  DType dtype = DType::Invalid;
  Shape shape;
  void *data = nullptr;

  int64_t numElements() const { return shapeNumElements(shape); }
  size_t byteSize() const { return size_t(numElements()) * dtypeSize(dtype); }
};

/// Whether `op` on operands of these element types has a GPU kernel (the
/// executor asks before launching, and falls back to the CPU otherwise).
bool hasKernel(OpCode op, const std::vector<DType> &operandTypes);

/// What a rank allows its kernels beyond the instructions' attributes.
struct KernelOptions {
  /// f32 attention may run on the tensor cores with its operands rounded to
  /// TF32 (10-bit significands; f32 accumulation, softmax and results), as
  /// the rank's f32 products do under --tf32 (AttentionTf32.h).
  bool allowTf32 = false;
};

/// Launches `op` on `stream` (asynchronously). Outputs are preallocated with
/// their dtype and shape. Returns an error (no launch) when the operands do
/// not fit the op, naming the op; CUDA launch errors are reported with the
/// kernel's name. `attrs` are `op`'s typed attributes (decodeOpAttrs).
Status launchKernel(OpCode op, const OpAttrs &attrs,
                    const std::vector<DeviceTensor> &inputs,
                    const std::vector<DeviceTensor> &outputs,
                    cudaStream_t stream, const KernelOptions &options = {});
/// The same from the attributes as an executable stores them.
Status launchKernel(OpCode op, const InstrAttrs &attrs,
                    const std::vector<DeviceTensor> &inputs,
                    const std::vector<DeviceTensor> &outputs,
                    cudaStream_t stream, const KernelOptions &options = {});

/// Copies `src` (a block of shape `dst.shape` inside `src`, starting at
/// `offsets`) into the contiguous `dst`: the primitive behind slices and
/// local shards. Also used by the collectives to pack pieces.
Status copyBlock(const DeviceTensor &src, const std::vector<int64_t> &offsets,
                 const DeviceTensor &dst, cudaStream_t stream);
/// Writes the contiguous `src` into `dst` at `offsets` (the inverse).
Status placeBlock(const DeviceTensor &src, const DeviceTensor &dst,
                  const std::vector<int64_t> &offsets, cudaStream_t stream);

/// Fills a device tensor with the random values fillRandomWeight gives on
/// the CPU for the same block (same seed, scale, offsets in the source
/// parameter), so GPU and CPU runs of random-weight programs agree.
Status fillRandom(const DeviceTensor &t, const Shape &sourceShape,
                  const std::vector<int64_t> &offsets, uint64_t seed,
                  float scale, cudaStream_t stream);

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_CUDAKERNELS_H
